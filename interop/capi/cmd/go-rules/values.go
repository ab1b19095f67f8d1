package main

// The fields of hook messages Go holds by value, for -print-values.
//
// encoding/json leaves a field it holds by value (a string, a number, a bool, a
// named type of one of those, a struct) as it is when the body gives it null;
// a pointer, a slice, a map or an interface is set to nil. A Rust type often
// holds both kinds as an Option, so the Rust types say which fields Go holds
// by value, and the Rust side checks what they say against this list: for each
// struct type the hook messages reach, its package, its JSON field names and
// the ones it holds by value. Fields of a type that reads JSON itself
// (metav1.Time, Quantity, IntOrString, RawExtension, ...) are left out of the
// list: Go hands null to their UnmarshalJSON, which decides.

import (
	"bufio"
	"encoding/json"
	"reflect"
	"sort"
)

type valueFields struct {
	Package string   `json:"package"`
	Type    string   `json:"type"`
	Fields  []string `json:"fields"`
	Values  []string `json:"values"`
}

type valueWalker struct {
	seen map[reflect.Type]bool
	out  []valueFields
}

func (w *valueWalker) walk(t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Map {
			w.walk(t.Key())
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || writesItsOwnJSON(t) || w.seen[t] {
		return
	}
	w.seen[t] = true
	entry := valueFields{Package: t.PkgPath(), Type: t.Name(), Fields: []string{}, Values: []string{}}
	w.fields(t, &entry)
	sort.Strings(entry.Fields)
	sort.Strings(entry.Values)
	w.out = append(w.out, entry)
}

// fields adds the JSON fields of struct t (those of inline structs too) to entry.
func (w *valueWalker) fields(t reflect.Type, entry *valueFields) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline, _, visible := jsonField(f)
		if !visible {
			continue
		}
		if inline && f.Type.Kind() == reflect.Struct && !writesItsOwnJSON(f.Type) {
			w.fields(f.Type, entry)
			continue
		}
		entry.Fields = append(entry.Fields, name)
		switch {
		case writesItsOwnJSON(f.Type):
		case isScalarKind(f.Type.Kind()), f.Type.Kind() == reflect.Struct:
			entry.Values = append(entry.Values, name)
		}
		w.walk(f.Type)
	}
}

func printValues(out *bufio.Writer) error {
	w := &valueWalker{seen: map[reflect.Type]bool{}}
	names := make([]string, 0, len(wireHooks))
	for name := range wireHooks {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		request, response := wireHooks[name]()
		w.walk(reflect.TypeOf(request))
		w.walk(reflect.TypeOf(response))
	}
	sort.Slice(w.out, func(i, j int) bool {
		a, b := w.out[i], w.out[j]
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		return a.Type < b.Type
	})
	return json.NewEncoder(out).Encode(w.out)
}
