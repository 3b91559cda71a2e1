package redact

import (
	"reflect"
	"sync"

	"github.com/trajscope/trajscope/model"
)

// Copy returns v with every string it holds redacted: each string of its
// exported fields, slices, arrays, maps (keys too) and what its pointers
// and interfaces point to, at any depth; a run's texts (model.Texts) as
// Text redacts them. v is left as it is: what holds a string that changes
// is copied (a slice, a struct behind a pointer), the rest is shared, so
// a reader's cache that v shares slices with keeps its own text. One
// pointer met twice is copied once, and both places get the copy.
//
// Copy is how a run and everything said about it are redacted once for
// every surface (--redact): a field added to a run or a story later is
// redacted without a line here. What unexported fields hold is not
// reached; a type that keeps text there must say what it shows through
// exported fields.
//
// The names Copy changed (strings of at most maxName bytes: paths, ids,
// agent names) are kept, so Original can map a shown name back to the one
// the run's repository files are read by.
func (r *Redactor) Copy(v any) any {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return v
	}
	w := walker{r: r, ptrs: map[uintptr]reflect.Value{}}
	out, changed := w.value(rv)
	if !changed {
		return v
	}
	return out.Interface()
}

// maxName bounds the strings Copy remembers: names, not outputs.
const maxName = 4096

// Original is the name a shown (redacted) name stood for; the name itself
// when Copy did not change it.
func (r *Redactor) Original(shown string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if o, ok := r.originals[shown]; ok {
		return o
	}
	return shown
}

// Name is a name as the screens show it: what Copy made of it, or, for a
// name Copy did not meet, the name redacted now.
func (r *Redactor) Name(name string) string {
	r.mu.Lock()
	s, ok := r.names[name]
	r.mu.Unlock()
	if ok {
		return s.text
	}
	return r.name(name)
}

// name redacts a short string once: later meetings reuse the result and
// count what it replaced again, as Text would.
func (r *Redactor) name(s string) string {
	r.mu.Lock()
	m, ok := r.names[s]
	if ok {
		r.keys, r.emails, r.homes = r.keys+m.keys, r.emails+m.emails, r.homes+m.homes
	}
	r.mu.Unlock()
	if ok {
		return m.text
	}
	out, k, e, h := r.text(s)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keys, r.emails, r.homes = r.keys+k, r.emails+e, r.homes+h
	if r.names == nil {
		r.names, r.originals = map[string]redacted{}, map[string]string{}
	}
	r.names[s] = redacted{out, k, e, h}
	if out != s {
		r.originals[out] = s
	}
	return out
}

// redacted is a name's redaction and what it replaced.
type redacted struct {
	text                string
	keys, emails, homes int
}

type walker struct {
	r *Redactor
	// ptrs maps each pointer met to what stands for it (itself, or its
	// redacted copy).
	ptrs map[uintptr]reflect.Value
}

var (
	textsType = reflect.TypeFor[model.Texts]()
	withText  sync.Map // reflect.Type → bool: values of the type can hold a string
)

// holdsText reports whether a value of type t can hold a string that Copy
// reaches; types that cannot are not walked (a run's []int32 tables).
func holdsText(t reflect.Type) bool {
	if v, ok := withText.Load(t); ok {
		return v.(bool)
	}
	withText.Store(t, true) // a recursive type: assume so while it is asked
	out := false
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		out = true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		out = holdsText(t.Elem())
	case reflect.Map:
		out = holdsText(t.Key()) || holdsText(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() && holdsText(f.Type) {
				out = true
				break
			}
		}
	}
	withText.Store(t, out)
	return out
}

// value returns v redacted and whether it changed; an unchanged v is
// returned as it is.
func (w *walker) value(v reflect.Value) (reflect.Value, bool) {
	if !holdsText(v.Type()) {
		return v, false
	}
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		var out string
		if len(s) <= maxName {
			out = w.r.name(s)
		} else {
			out = w.r.Text(s)
		}
		if out == s {
			return v, false
		}
		return reflect.ValueOf(out).Convert(v.Type()), true
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		if p, ok := w.ptrs[v.Pointer()]; ok {
			return p, p.Pointer() != v.Pointer()
		}
		w.ptrs[v.Pointer()] = v // a cycle back here sees the original
		elem, changed := w.value(v.Elem())
		if !changed {
			return v, false
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(elem)
		w.ptrs[v.Pointer()] = p
		return p, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		if v.Type() == textsType {
			return w.texts(v)
		}
		elem, changed := w.value(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(elem)
		return out, true
	case reflect.Struct:
		var out reflect.Value
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			f, changed := w.value(v.Field(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
			out.Field(i).Set(f)
		}
		if !out.IsValid() {
			return v, false
		}
		return out, true
	case reflect.Slice, reflect.Array:
		var out reflect.Value
		for i := 0; i < v.Len(); i++ {
			e, changed := w.value(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				if v.Kind() == reflect.Slice {
					out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
					reflect.Copy(out, v)
				} else {
					out = reflect.New(v.Type()).Elem()
					out.Set(v)
				}
			}
			out.Index(i).Set(e)
		}
		if !out.IsValid() {
			return v, false
		}
		return out, true
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		changed := false
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			k, kc := w.value(it.Key())
			e, ec := w.value(it.Value())
			changed = changed || kc || ec
			if kc && out.MapIndex(k).IsValid() {
				// Two keys became one: keep what both held where the
				// value is a count (a run's unread kinds).
				if sum, ok := add(out.MapIndex(k), e); ok {
					e = sum
				}
			}
			out.SetMapIndex(k, e)
		}
		if !changed {
			return v, false
		}
		return out, true
	}
	return v, false
}

// add sums two integers of one kind; ok is false for other kinds.
func add(a, b reflect.Value) (reflect.Value, bool) {
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out := reflect.New(a.Type()).Elem()
		out.SetInt(a.Int() + b.Int())
		return out, true
	}
	return a, false
}

// texts redacts a run's texts (compressed or not) into a plain list.
func (w *walker) texts(v reflect.Value) (reflect.Value, bool) {
	t := v.Interface().(model.Texts)
	n := 0
	switch l := t.(type) {
	case model.TextList:
		n = len(l)
	case interface{ Len() int }:
		n = l.Len()
	}
	out := make(model.TextList, n)
	changed := false
	for i := range out {
		s := t.Text(i)
		out[i] = w.r.Text(s)
		changed = changed || out[i] != s
	}
	if !changed {
		return v, false
	}
	rv := reflect.New(textsType).Elem()
	rv.Set(reflect.ValueOf(out))
	return rv, true
}
