package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// flushAt is how much encoded JSON appendExtras gathers before writing it.
const flushAt = 64 << 10

// nullDiagnosis is how encoding/json writes a lens's absent diagnosis. The
// sequence can only be a key and its value: inside a JSON string every
// quote is escaped.
var nullDiagnosis = []byte(`"diagnosis":null`)

// appendExtras appends e as json.Marshal encodes it (made terminal-safe),
// writing to w as it goes: a lens's diagnosis lists every gold file and
// span, and a gold of a million spans encodes to hundreds of megabytes that
// need never be held at once. It returns what is left to write; ok is false
// when e does not encode (nothing is then appended), err a write error.
func appendExtras(w io.Writer, buf []byte, e *Extras) (out []byte, ok bool, err error) {
	shallow := *e
	var diags []*diagnose.Diagnosis
	for _, le := range []**LensExtras{&shallow.Lenses.ContextBench, &shallow.Lenses.Observed} {
		if *le != nil && (*le).Diagnosis != nil {
			c := **le
			diags = append(diags, c.Diagnosis)
			c.Diagnosis = nil
			*le = &c
		}
	}
	b, merr := json.Marshal(&shallow)
	if merr != nil {
		return buf, false, nil
	}
	parts := bytes.Split(b, nullDiagnosis)
	if len(parts) != len(diags)+1 {
		// Not where expected (it cannot be): encode the whole.
		b, merr := json.Marshal(e)
		if merr != nil {
			return buf, false, nil
		}
		return append(buf, termsafe.JSON(b)...), true, nil
	}
	for k, d := range diags {
		buf = append(buf, termsafe.JSON(parts[k])...)
		buf = append(buf, `"diagnosis":`...)
		if buf, err = appendDiagnosis(w, buf, d); err != nil {
			return buf, true, err
		}
	}
	return append(buf, termsafe.JSON(parts[len(diags)])...), true, nil
}

// appendDiagnosis appends d as json.Marshal encodes it, element by element,
// writing to w whenever flushAt bytes have gathered. Its elements hold only
// strings and integers, so they always encode.
func appendDiagnosis(w io.Writer, buf []byte, d *diagnose.Diagnosis) ([]byte, error) {
	var err error
	add := func(v any) {
		if err != nil {
			return
		}
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			buf = append(buf, termsafe.JSON(b)...)
		}
		if len(buf) >= flushAt && err == nil {
			_, err = w.Write(buf)
			buf = buf[:0]
		}
	}
	buf = append(buf, `{"lens":`...)
	add(d.Lens)
	buf = append(buf, `,"files":`...)
	list(&buf, len(d.Files), d.Files == nil, func(i int) { add(&d.Files[i]) })
	buf = append(buf, `,"spans":`...)
	list(&buf, len(d.Spans), d.Spans == nil, func(i int) { add(&d.Spans[i]) })
	buf = append(buf, `,"file_counts":`...)
	add(d.FileCounts)
	buf = append(buf, `,"span_counts":`...)
	add(d.SpanCounts)
	buf = append(buf, '}')
	return buf, err
}

// list writes a JSON array of n elements (null for a nil slice, as
// encoding/json does), each by elem.
func list(buf *[]byte, n int, isNil bool, elem func(int)) {
	if isNil {
		*buf = append(*buf, "null"...)
		return
	}
	*buf = append(*buf, '[')
	for i := range n {
		if i > 0 {
			*buf = append(*buf, ',')
		}
		elem(i)
	}
	*buf = append(*buf, ']')
}
