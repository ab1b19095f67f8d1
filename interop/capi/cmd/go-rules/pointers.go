package main

// Go's pointers to scalars in hook messages, one body per pointer.
//
//	WirePointerZeros  {"hook": name, "side": "request" | "response"}
//	                  -> [{"field": "<package>.<Type>.<json name>", "path": JSON path,
//	                  "body": json.Marshal of a message}]: one entry for each field of the
//	                  message's type graph that Go holds as a pointer to a scalar (*bool,
//	                  *int32, *string, a named string such as *FailurePolicy, ...), reached
//	                  through the first path the walk finds. In its body that pointer points
//	                  at the zero value (false, 0, ""), which json.Marshal writes even with
//	                  omitempty: the state a plain (non-pointer) field cannot hold. Everything
//	                  else is left at its zero value, except the slices, maps and structs on
//	                  the way to the pointer (one element, one entry "k"), and the slices
//	                  without omitempty, which are made empty rather than nil so that nil and
//	                  empty are not told apart here.
//
// Types that read and write JSON themselves (metav1.Time, Quantity, IntOrString,
// RawExtension, ...) are not walked into. A struct type is walked once per
// message, at the first place it is met, so a recursive type (JSONSchemaProps)
// ends the walk.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

type pointerZero struct {
	Field string `json:"field"`
	Path  string `json:"path"`
	Body  string `json:"body"`
}

// A value of some type in which exactly one pointer to a scalar points at its
// zero value, with the field that pointer is and the JSON path to it from that
// value.
type zeroVariant struct {
	value reflect.Value
	field string
	path  string
}

type zeroWalker struct {
	walked map[reflect.Type]bool
}

var (
	marshalerType   = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

func writesItsOwnJSON(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(marshalerType) || p.Implements(marshalerType) || p.Implements(unmarshalerType)
}

func isScalarKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// jsonField gives a struct field's JSON name, whether it is written inline (an
// embedded struct without a name), whether it has omitempty, and whether
// encoding/json sees it at all.
func jsonField(f reflect.StructField) (name string, inline, omitEmpty, visible bool) {
	if !f.IsExported() {
		return "", false, false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false, false
	}
	parts := strings.Split(tag, ",")
	for _, option := range parts[1:] {
		if option == "omitempty" {
			omitEmpty = true
		}
	}
	name = parts[0]
	if name == "" {
		if f.Anonymous {
			return "", true, omitEmpty, true
		}
		name = f.Name
	}
	return name, false, omitEmpty, true
}

func typeName(t reflect.Type) string {
	return t.PkgPath() + "." + t.Name()
}

// emptySlices makes the slices of v without omitempty empty instead of nil,
// in v and in the structs it holds by value.
func emptySlices(v reflect.Value) {
	if v.Kind() != reflect.Struct || writesItsOwnJSON(v.Type()) {
		return
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		_, _, omitEmpty, visible := jsonField(t.Field(i))
		if !visible {
			continue
		}
		field := v.Field(i)
		switch field.Kind() {
		case reflect.Slice:
			if !omitEmpty && field.IsNil() {
				field.Set(reflect.MakeSlice(field.Type(), 0, 0))
			}
		case reflect.Struct:
			emptySlices(field)
		}
	}
}

func (w *zeroWalker) variants(t reflect.Type) []zeroVariant {
	switch t.Kind() {
	case reflect.Pointer:
		elem := t.Elem()
		if isScalarKind(elem.Kind()) {
			return []zeroVariant{{value: reflect.New(elem)}}
		}
		var out []zeroVariant
		for _, inner := range w.variants(elem) {
			p := reflect.New(elem)
			p.Elem().Set(inner.value)
			inner.value = p
			out = append(out, inner)
		}
		return out
	case reflect.Struct:
		if w.walked[t] || writesItsOwnJSON(t) {
			return nil
		}
		w.walked[t] = true
		var out []zeroVariant
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, inline, _, visible := jsonField(f)
			if !visible {
				continue
			}
			for _, inner := range w.variants(f.Type) {
				s := reflect.New(t).Elem()
				emptySlices(s)
				s.Field(i).Set(inner.value)
				if inner.field == "" {
					inner.field = typeName(t) + "." + name
				}
				if !inline {
					inner.path = "." + name + inner.path
				}
				inner.value = s
				out = append(out, inner)
			}
		}
		return out
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil
		}
		var out []zeroVariant
		for _, inner := range w.variants(t.Elem()) {
			var s reflect.Value
			if t.Kind() == reflect.Slice {
				s = reflect.MakeSlice(t, 1, 1)
			} else {
				s = reflect.New(t).Elem()
			}
			s.Index(0).Set(inner.value)
			inner.value = s
			inner.path = "[0]" + inner.path
			out = append(out, inner)
		}
		return out
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil
		}
		var out []zeroVariant
		for _, inner := range w.variants(t.Elem()) {
			m := reflect.MakeMapWithSize(t, 1)
			key := reflect.New(t.Key()).Elem()
			key.SetString("k")
			m.SetMapIndex(key, inner.value)
			inner.value = m
			inner.path = "[k]" + inner.path
			out = append(out, inner)
		}
		return out
	}
	return nil
}

func runPointerZeros(req request) (result, error) {
	var c wireCase
	if err := json.Unmarshal(req.In, &c); err != nil {
		return result{}, err
	}
	message, err := wireMessage(c)
	if err != nil {
		return result{}, err
	}
	w := zeroWalker{walked: map[reflect.Type]bool{}}
	out := []pointerZero{}
	for _, v := range w.variants(reflect.TypeOf(message).Elem()) {
		body, err := json.Marshal(v.value.Addr().Interface())
		if err != nil {
			return result{}, fmt.Errorf("marshal %s: %w", v.field, err)
		}
		out = append(out, pointerZero{Field: v.field, Path: v.path, Body: string(body)})
	}
	return result{Out: out}, nil
}
