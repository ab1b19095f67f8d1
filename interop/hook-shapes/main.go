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
//
// With the arguments `corpus DIR`, it encodes lifecycle requests instead, for the SDK's test
// of the two Cluster shapes (tests/v1beta1_cluster.rs). DIR holds Clusters as JSON, named
// v1beta1-*.json and v1beta2-*.json. Each of the nine lifecycle requests of this version is
// decoded from a body embedding each Cluster of the version its request type embeds
// (strictly: a field this version does not have fails), then encoded with this version's
// types, as its manager sends it. It prints
//
//	{"requests": [{"hook": name, "file": Cluster file, "shape": "v1beta1" | "v1beta2",
//	               "body": the encoded request,
//	               "cluster": the Cluster as v1beta2, by Cluster API's own conversion}]}
//
// where a v1beta1 Cluster is converted by its ConvertTo (convert.go, beside the go.mod of the
// versions that still have v1beta1), and a v1beta2 Cluster is the request's own.
package main

import (
	"encoding/json"
	"fmt"
	"bytes"
	"os"
	"path/filepath"
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

// convertV1Beta1 converts a v1beta1 Cluster (JSON) to v1beta2 (JSON) with Cluster API's own
// conversion; set by convert.go where this version has v1beta1.
var convertV1Beta1 func([]byte) ([]byte, error)

// lifecycle lists the hooks whose request embeds a Cluster that changed shape.
var lifecycle = map[string]bool{
	"BeforeClusterCreate": true, "AfterControlPlaneInitialized": true,
	"BeforeClusterUpgrade": true, "BeforeControlPlaneUpgrade": true,
	"AfterControlPlaneUpgrade": true, "BeforeWorkersUpgrade": true,
	"AfterWorkersUpgrade": true, "AfterClusterUpgrade": true, "BeforeClusterDelete": true,
}

// Values of the requests' other fields, set where the request has them.
var others = map[string]any{
	"settings":              map[string]string{"setting-key": "setting-value"},
	"fromKubernetesVersion": "v1.30.1",
	"toKubernetesVersion":   "v1.31.2",
	"kubernetesVersion":     "v1.31.2",
	"controlPlaneUpgrades":  []map[string]string{{"version": "v1.31.2"}},
	"workersUpgrades":       []map[string]string{{"version": "v1.31.0"}, {"version": "v1.31.2"}},
}

type encoded struct {
	Hook    string          `json:"hook"`
	File    string          `json:"file"`
	Shape   string          `json:"shape"`
	Body    json.RawMessage `json:"body"`
	Cluster json.RawMessage `json:"cluster"`
}

func corpus(dir string) error {
	var out struct {
		Requests []encoded `json:"requests"`
	}
	for _, m := range messages {
		if !lifecycle[m.name] {
			continue
		}
		t := reflect.TypeOf(m.request)
		field, ok := t.FieldByName("Cluster")
		if !ok {
			return fmt.Errorf("%s: no Cluster", t)
		}
		shape := filepath.Base(field.Type.PkgPath())
		files, err := filepath.Glob(filepath.Join(dir, shape+"-*.json"))
		if err != nil || len(files) == 0 {
			return fmt.Errorf("%s: no %s Clusters in %s", m.name, shape, dir)
		}
		sort.Strings(files)
		for _, file := range files {
			cluster, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			body := map[string]any{
				"apiVersion": hooks.GroupVersion.String(),
				"kind":       t.Name(),
				"cluster":    json.RawMessage(cluster),
			}
			d := &describer{types: map[string]description{}}
			for _, f := range d.fields(t) {
				if v, ok := others[f.Name]; ok {
					body[f.Name] = v
				}
			}
			text, err := json.Marshal(body)
			if err != nil {
				return err
			}
			request := reflect.New(t)
			dec := json.NewDecoder(bytes.NewReader(text))
			dec.DisallowUnknownFields()
			if err := dec.Decode(request.Interface()); err != nil {
				return fmt.Errorf("%s with %s: %w", m.name, file, err)
			}
			sent, err := json.Marshal(request.Interface())
			if err != nil {
				return err
			}
			var converted []byte
			switch shape {
			case "v1beta1":
				if convertV1Beta1 == nil {
					return fmt.Errorf("%s embeds a v1beta1 Cluster, and this build has no conversion", m.name)
				}
				own, err := json.Marshal(request.Elem().FieldByName("Cluster").Interface())
				if err != nil {
					return err
				}
				if converted, err = convertV1Beta1(own); err != nil {
					return fmt.Errorf("%s with %s: %w", m.name, file, err)
				}
			default:
				if converted, err = json.Marshal(request.Elem().FieldByName("Cluster").Interface()); err != nil {
					return err
				}
			}
			out.Requests = append(out.Requests, encoded{
				Hook: m.name, File: filepath.Base(file), Shape: shape, Body: sent, Cluster: converted,
			})
		}
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "read-response" {
		if err := readResponse(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "corpus" {
		if err := corpus(os.Args[2]); err != nil {
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
