package report

import (
	"bufio"
	"encoding/json"

	"github.com/trajscope/trajscope/internal/termsafe"
)

// jsonObject writes a JSON object field by field exactly as
// json.MarshalIndent(v, "", "  ") writes it (made terminal-safe), so that a
// long list can be encoded an element at a time instead of held whole. The
// first error sticks.
type jsonObject struct {
	w      *bufio.Writer
	indent string // the object's own line indent
	fields int
	err    *error // shared by the objects of one document
}

func newJSONObject(w *bufio.Writer, indent string) *jsonObject {
	w.WriteByte('{')
	return &jsonObject{w: w, indent: indent, err: new(error)}
}

// Err is the first error any object of the document met.
func (o *jsonObject) Err() error { return *o.err }

// key starts the next field.
func (o *jsonObject) key(k string) {
	if o.fields > 0 {
		o.w.WriteByte(',')
	}
	o.fields++
	o.w.WriteString("\n" + o.indent + "  ")
	q, _ := json.Marshal(k)
	o.w.Write(termsafe.JSON(q))
	o.w.WriteString(": ")
}

// value writes v as MarshalIndent does at indent.
func (o *jsonObject) value(v any, indent string) {
	if *o.err != nil {
		return
	}
	b, err := json.MarshalIndent(v, indent, "  ")
	if err != nil {
		*o.err = err
		return
	}
	o.w.Write(termsafe.JSON(b))
}

// field writes one field.
func (o *jsonObject) field(k string, v any) {
	o.key(k)
	o.value(v, o.indent+"  ")
}

// list writes a field holding a list of n elements, each made by elem when
// it is written.
func (o *jsonObject) list(k string, n int, elem func(i int) any) {
	o.key(k)
	if n == 0 {
		o.w.WriteString("[]")
		return
	}
	inner := o.indent + "    "
	o.w.WriteByte('[')
	for i := range n {
		if i > 0 {
			o.w.WriteByte(',')
		}
		o.w.WriteString("\n" + inner)
		o.value(elem(i), inner)
	}
	o.w.WriteString("\n" + o.indent + "  ]")
}

// object starts a field holding an object, written through the result
// until it is closed.
func (o *jsonObject) object(k string) *jsonObject {
	o.key(k)
	o.w.WriteByte('{')
	return &jsonObject{w: o.w, indent: o.indent + "  ", err: o.err}
}

// close ends the object.
func (o *jsonObject) close() {
	if o.fields == 0 {
		o.w.WriteByte('}')
		return
	}
	o.w.WriteString("\n" + o.indent + "}")
}
