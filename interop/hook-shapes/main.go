// Command hook-shapes describes the hook messages of one Cluster API version as Go's
// encoding/json sees them, for the SDK's drift test (capi-runtime-oracle, tests/hook_shapes.rs).
//
// The same file is built against each pinned Cluster API (the go.mod and go.sum of each
// directory beside it); the hook types have the same import path and names in every supported
// version, only their contents differ. It prints one JSON document:
//
//	{"hooks": [{"name": "BeforeClusterCreate", "request": T, "response": T}, ...],
//	 "builtins": T (the value of the "builtin" variable of GeneratePatches and
//	             ValidateTopology requests, which the messages carry as raw JSON),
//	 "types": {"<package path>.<Name>": {"kind": "struct", "fields": [F, ...]}
//	                                    | {"kind": "string" | "bool" | "int32" | ...}}}
//
// where a type T is one of
//
//	"string", "bool", "int32", "int64", "float64", "bytes" ([]byte, base64 in JSON),
//	"any" (an interface), {"named": key} (a named struct or scalar, described under
//	"types"), {"opaque": key} (a type that writes its own JSON: metav1.Time, IntOrString,
//	RawExtension, ...), {"pointer": T}, {"list": T} or {"map": T} (string keys),
//
// and a field F is {"name": JSON name, "type": T, "omitempty": bool, "omitzero": bool}.
// Embedded structs without a JSON name are flattened into their parent, as encoding/json
// does; fields without a JSON name ("-") are left out.
//
// With the arguments `read-response <Hook>` it reads instead, as that version's manager does,
// the hook's response on standard input, and writes what it understood (see readResponse).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	hooks "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

type hook struct {
	Name     string `json:"name"`
	Request  any    `json:"request"`
	Response any    `json:"response"`
}

type field struct {
	Name      string `json:"name"`
	Type      any    `json:"type"`
	OmitEmpty bool   `json:"omitempty"`
	OmitZero  bool   `json:"omitzero"`
}

type description struct {
	Kind   string  `json:"kind"`
	Fields []field `json:"fields,omitempty"`
}

var (
	marshaler     = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	unmarshaler   = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textMarshaler = reflect.TypeOf((*interface{ MarshalText() ([]byte, error) })(nil)).Elem()
)

// readResponse reads one response of hook `name` from standard input as this version's
// manager reads an extension's answer (internal/runtime/client: json.NewDecoder(body).Decode
// into the hook's response type, unknown fields ignored) and writes what it read back with
// encoding/json: what that manager understood of the answer.
func readResponse(name string) error {
	for _, m := range messages {
		if m.name != name {
			continue
		}
		response := reflect.New(reflect.TypeOf(m.resp)).Interface()
		if err := json.NewDecoder(os.Stdin).Decode(response); err != nil {
			return fmt.Errorf("decoding a %s response: %w", name, err)
		}
		return json.NewEncoder(os.Stdout).Encode(response)
	}
	return fmt.Errorf("no hook named %q", name)
}

// The 17 hooks of hooks.runtime.cluster.x-k8s.io/v1alpha1: a request and a response each.
var messages = []struct {
	name          string
	request, resp any
}{
	{"Discovery", hooks.DiscoveryRequest{}, hooks.DiscoveryResponse{}},
	{"BeforeClusterCreate", hooks.BeforeClusterCreateRequest{}, hooks.BeforeClusterCreateResponse{}},
	{"AfterControlPlaneInitialized", hooks.AfterControlPlaneInitializedRequest{}, hooks.AfterControlPlaneInitializedResponse{}},
	{"BeforeClusterUpgrade", hooks.BeforeClusterUpgradeRequest{}, hooks.BeforeClusterUpgradeResponse{}},
	{"BeforeControlPlaneUpgrade", hooks.BeforeControlPlaneUpgradeRequest{}, hooks.BeforeControlPlaneUpgradeResponse{}},
	{"AfterControlPlaneUpgrade", hooks.AfterControlPlaneUpgradeRequest{}, hooks.AfterControlPlaneUpgradeResponse{}},
	{"BeforeWorkersUpgrade", hooks.BeforeWorkersUpgradeRequest{}, hooks.BeforeWorkersUpgradeResponse{}},
	{"AfterWorkersUpgrade", hooks.AfterWorkersUpgradeRequest{}, hooks.AfterWorkersUpgradeResponse{}},
	{"AfterClusterUpgrade", hooks.AfterClusterUpgradeRequest{}, hooks.AfterClusterUpgradeResponse{}},
	{"BeforeClusterDelete", hooks.BeforeClusterDeleteRequest{}, hooks.BeforeClusterDeleteResponse{}},
	{"GeneratePatches", hooks.GeneratePatchesRequest{}, hooks.GeneratePatchesResponse{}},
	{"ValidateTopology", hooks.ValidateTopologyRequest{}, hooks.ValidateTopologyResponse{}},
	{"DiscoverVariables", hooks.DiscoverVariablesRequest{}, hooks.DiscoverVariablesResponse{}},
	{"GenerateUpgradePlan", hooks.GenerateUpgradePlanRequest{}, hooks.GenerateUpgradePlanResponse{}},
	{"CanUpdateMachine", hooks.CanUpdateMachineRequest{}, hooks.CanUpdateMachineResponse{}},
	{"CanUpdateMachineSet", hooks.CanUpdateMachineSetRequest{}, hooks.CanUpdateMachineSetResponse{}},
	{"UpdateMachine", hooks.UpdateMachineRequest{}, hooks.UpdateMachineResponse{}},
}

type describer struct {
	types map[string]description
}

func key(t reflect.Type) string { return t.PkgPath() + "." + t.Name() }

func writesItsOwnJSON(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(marshaler) || p.Implements(marshaler) || p.Implements(unmarshaler) ||
		t.Implements(textMarshaler) || p.Implements(textMarshaler)
}

// typeOf describes t, recording the named types it meets under d.types.
func (d *describer) typeOf(t reflect.Type) any {
	if t.Name() != "" && t.PkgPath() != "" && writesItsOwnJSON(t) {
		return map[string]string{"opaque": key(t)}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return map[string]any{"pointer": d.typeOf(t.Elem())}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "bytes"
		}
		return map[string]any{"list": d.typeOf(t.Elem())}
	case reflect.Array:
		return map[string]any{"list": d.typeOf(t.Elem())}
	case reflect.Map:
		return map[string]any{"map": d.typeOf(t.Elem())}
	case reflect.Interface:
		return "any"
	case reflect.Struct:
		if t.Name() == "" {
			return map[string]any{"struct": d.fields(t)}
		}
		k := key(t)
		if _, seen := d.types[k]; !seen {
			// Recorded before its fields: a type that contains itself ends here.
			d.types[k] = description{Kind: "struct"}
			d.types[k] = description{Kind: "struct", Fields: d.fields(t)}
		}
		return map[string]string{"named": k}
	}
	scalar := t.Kind().String()
	switch t.Kind() {
	case reflect.Int, reflect.Uint, reflect.Uint32:
		scalar = "int64"
	case reflect.Float32:
		scalar = "float64"
	}
	if t.PkgPath() == "" {
		return scalar
	}
	k := key(t)
	d.types[k] = description{Kind: scalar}
	return map[string]string{"named": k}
}

// fields lists t's JSON fields as encoding/json writes them.
func (d *describer) fields(t reflect.Type) []field {
	var out []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			inner := ft
			if inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct && !writesItsOwnJSON(inner) {
				out = append(out, d.fields(inner)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		opts := "," + options + ","
		out = append(out, field{
			Name:      name,
			Type:      d.typeOf(ft),
			OmitEmpty: strings.Contains(opts, ",omitempty,"),
			OmitZero:  strings.Contains(opts, ",omitzero,"),
		})
	}
	return out
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "read-response" {
		if err := readResponse(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	d := &describer{types: map[string]description{}}
	var out struct {
		Hooks    []hook                 `json:"hooks"`
		Builtins any                    `json:"builtins"`
		Types    map[string]description `json:"types"`
	}
	for _, m := range messages {
		out.Hooks = append(out.Hooks, hook{
			Name:     m.name,
			Request:  d.typeOf(reflect.TypeOf(m.request)),
			Response: d.typeOf(reflect.TypeOf(m.resp)),
		})
	}
	out.Builtins = d.typeOf(reflect.TypeOf(hooks.Builtins{}))
	out.Types = d.types
	sort.Slice(out.Hooks, func(i, j int) bool { return out.Hooks[i].Name < out.Hooks[j].Name })
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
