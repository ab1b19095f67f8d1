package main

// The wire oracle: hook messages read as Cluster API reads them.
//
//	WireDecode  {"hook": name, "side": "request" | "response", "body": base64}
//	            -> the json.Marshal of what Go decoded (as a string: its exact bytes), or err.
//	            A request is read with json.Unmarshal into the hook's request type
//	            (Cluster API's extension server helper); a response with
//	            json.NewDecoder(body).Decode into the response type (Cluster
//	            API's runtime client), which stops after the first value.
//	WireFill    {"hook": name, "side": ..., "seed": n, "nilChance": 0..1}
//	            -> a message of that type with (nearly) every field set, drawn
//	            from the seed (its json.Marshal, as a string): the realistic seeds
//	            of the wire corpus.
//
// Hook names are the Go type names without Request/Response (Discovery,
// BeforeClusterCreate, ...).

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	hooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)

// wireHooks holds a constructor of each hook's request and response.
var wireHooks = map[string]func() (any, any){
	"Discovery": func() (any, any) { return &hooksv1.DiscoveryRequest{}, &hooksv1.DiscoveryResponse{} },
	"BeforeClusterCreate": func() (any, any) {
		return &hooksv1.BeforeClusterCreateRequest{}, &hooksv1.BeforeClusterCreateResponse{}
	},
	"AfterControlPlaneInitialized": func() (any, any) {
		return &hooksv1.AfterControlPlaneInitializedRequest{}, &hooksv1.AfterControlPlaneInitializedResponse{}
	},
	"BeforeClusterUpgrade": func() (any, any) {
		return &hooksv1.BeforeClusterUpgradeRequest{}, &hooksv1.BeforeClusterUpgradeResponse{}
	},
	"BeforeControlPlaneUpgrade": func() (any, any) {
		return &hooksv1.BeforeControlPlaneUpgradeRequest{}, &hooksv1.BeforeControlPlaneUpgradeResponse{}
	},
	"AfterControlPlaneUpgrade": func() (any, any) {
		return &hooksv1.AfterControlPlaneUpgradeRequest{}, &hooksv1.AfterControlPlaneUpgradeResponse{}
	},
	"BeforeWorkersUpgrade": func() (any, any) {
		return &hooksv1.BeforeWorkersUpgradeRequest{}, &hooksv1.BeforeWorkersUpgradeResponse{}
	},
	"AfterWorkersUpgrade": func() (any, any) {
		return &hooksv1.AfterWorkersUpgradeRequest{}, &hooksv1.AfterWorkersUpgradeResponse{}
	},
	"AfterClusterUpgrade": func() (any, any) {
		return &hooksv1.AfterClusterUpgradeRequest{}, &hooksv1.AfterClusterUpgradeResponse{}
	},
	"BeforeClusterDelete": func() (any, any) {
		return &hooksv1.BeforeClusterDeleteRequest{}, &hooksv1.BeforeClusterDeleteResponse{}
	},
	"GeneratePatches": func() (any, any) {
		return &hooksv1.GeneratePatchesRequest{}, &hooksv1.GeneratePatchesResponse{}
	},
	"ValidateTopology": func() (any, any) {
		return &hooksv1.ValidateTopologyRequest{}, &hooksv1.ValidateTopologyResponse{}
	},
	"DiscoverVariables": func() (any, any) {
		return &hooksv1.DiscoverVariablesRequest{}, &hooksv1.DiscoverVariablesResponse{}
	},
	"GenerateUpgradePlan": func() (any, any) {
		return &hooksv1.GenerateUpgradePlanRequest{}, &hooksv1.GenerateUpgradePlanResponse{}
	},
	"CanUpdateMachine": func() (any, any) {
		return &hooksv1.CanUpdateMachineRequest{}, &hooksv1.CanUpdateMachineResponse{}
	},
	"CanUpdateMachineSet": func() (any, any) {
		return &hooksv1.CanUpdateMachineSetRequest{}, &hooksv1.CanUpdateMachineSetResponse{}
	},
	"UpdateMachine": func() (any, any) {
		return &hooksv1.UpdateMachineRequest{}, &hooksv1.UpdateMachineResponse{}
	},
}

type wireCase struct {
	Hook      string  `json:"hook"`
	Side      string  `json:"side"`
	Body      string  `json:"body"`
	Seed      int64   `json:"seed"`
	NilChance float64 `json:"nilChance"`
}

func wireMessage(c wireCase) (any, error) {
	newPair, ok := wireHooks[c.Hook]
	if !ok {
		return nil, fmt.Errorf("unknown hook %q", c.Hook)
	}
	request, response := newPair()
	switch c.Side {
	case "request":
		return request, nil
	case "response":
		return response, nil
	}
	return nil, fmt.Errorf("unknown side %q", c.Side)
}

func runWire(req request) (result, error) {
	var c wireCase
	if err := json.Unmarshal(req.In, &c); err != nil {
		return result{}, err
	}
	message, err := wireMessage(c)
	if err != nil {
		return result{}, err
	}
	switch req.Fn {
	case "WireDecode":
		body, err := base64.StdEncoding.DecodeString(c.Body)
		if err != nil {
			return result{}, err
		}
		if c.Side == "request" {
			err = json.Unmarshal(body, message)
		} else {
			err = json.NewDecoder(bytes.NewReader(body)).Decode(message)
		}
		if err != nil {
			return fail(err), nil
		}
	case "WireFill":
		f := filler{rand: rand.New(rand.NewSource(c.Seed)), nilChance: c.NilChance, budget: 150}
		f.fill(reflect.ValueOf(message).Elem(), 0)
	default:
		return result{}, fmt.Errorf("unknown function %q", req.Fn)
	}
	out, err := json.Marshal(message)
	if err != nil {
		return fail(fmt.Errorf("marshal: %w", err)), nil
	}
	return result{Out: string(out)}, nil
}

// filler sets every field it can reach to a value drawn from its source.
type filler struct {
	rand      *rand.Rand
	nilChance float64
	// Pointers, slices and maps it may still make: it keeps a message small.
	budget int
}

// skip says whether a pointer, slice or map at depth stays nil, and takes one
// from the budget when not.
func (f *filler) skip(depth int) bool {
	if depth >= fillDepth || f.budget <= 0 || f.rand.Float64() < f.nilChance {
		return true
	}
	f.budget--
	return false
}

// The deepest level the filler descends to (JSONSchemaProps nests without end).
const fillDepth = 7

var (
	timeType      = reflect.TypeOf(metav1.Time{})
	rawType       = reflect.TypeOf(k8sruntime.RawExtension{})
	jsonType      = reflect.TypeOf(apiextensionsv1.JSON{})
	fieldsType    = reflect.TypeOf(metav1.FieldsV1{})
	intOrStrType  = reflect.TypeOf(intstr.IntOrString{})
	quantityType  = reflect.TypeOf(resource.Quantity{})
	durationType  = reflect.TypeOf(metav1.Duration{})
	goTimeType    = reflect.TypeOf(time.Time{})
	rawJSONValues = []string{
		`{"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta2","kind":"DockerMachineTemplate","metadata":{"name":"md-0","namespace":"default","labels":{"a":"b"}},"spec":{"template":{"spec":{"extraMounts":[{"containerPath":"/var/run/docker.sock","hostPath":"/var/run/docker.sock"}],"replicas":3,"ratio":0.25,"flag":true,"none":null}}}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"v"},"n":[1,2.5,-3,1e3]}`,
		`"a string value"`,
		`12345`,
		`[true,false,null,"x",{"y":1}]`,
		`{"nested":{"deeper":{"value":"v","list":[1,2,3]}}}`,
	}
	// Values of the string types with named constants, so a seed is a message an
	// honest peer could send.
	namedStrings = map[string][]string{
		"FailurePolicy":   {"Ignore", "Fail"},
		"PatchType":       {"JSONPatch", "JSONMergePatch"},
		"ResponseStatus":  {"Success", "Failure"},
		"ConditionStatus": {"True", "False", "Unknown"},
	}
	words = []string{"alpha", "md-0", "default", "cluster.x-k8s.io/name", "v1.31.2", "kcp", "worker", "10.0.0.1", "", "Ready", "x"}
)

func (f *filler) fill(v reflect.Value, depth int) {
	t := v.Type()
	switch t {
	case timeType:
		v.Set(reflect.ValueOf(metav1.NewTime(time.Date(2020+f.rand.Intn(10), time.Month(1+f.rand.Intn(12)), 1+f.rand.Intn(28), f.rand.Intn(24), f.rand.Intn(60), f.rand.Intn(60), 0, time.UTC))))
		return
	case goTimeType:
		v.Set(reflect.ValueOf(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)))
		return
	case rawType:
		v.Set(reflect.ValueOf(k8sruntime.RawExtension{Raw: []byte(rawJSONValues[f.rand.Intn(2)])}))
		return
	case jsonType:
		v.Set(reflect.ValueOf(apiextensionsv1.JSON{Raw: []byte(rawJSONValues[f.rand.Intn(len(rawJSONValues))])}))
		return
	case fieldsType:
		v.Set(reflect.ValueOf(metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{".":{}}}}`)}))
		return
	case intOrStrType:
		if f.rand.Intn(2) == 0 {
			v.Set(reflect.ValueOf(intstr.FromInt32(int32(f.rand.Intn(100)))))
		} else {
			v.Set(reflect.ValueOf(intstr.FromString(fmt.Sprintf("%d%%", f.rand.Intn(100)))))
		}
		return
	case quantityType:
		v.Set(reflect.ValueOf(resource.MustParse(fmt.Sprintf("%dMi", 1+f.rand.Intn(4096)))))
		return
	case durationType:
		v.Set(reflect.ValueOf(metav1.Duration{Duration: time.Duration(f.rand.Intn(3600)) * time.Second}))
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		// In a random order, so that the budget does not always run out on the same fields.
		for _, i := range f.rand.Perm(t.NumField()) {
			if t.Field(i).IsExported() {
				f.fill(v.Field(i), depth)
			}
		}
	case reflect.Pointer:
		if f.skip(depth) {
			return
		}
		p := reflect.New(t.Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if f.skip(depth) {
			return
		}
		if t.Elem().Kind() == reflect.Uint8 {
			b := make([]byte, f.rand.Intn(12))
			f.rand.Read(b)
			if t.Name() == "" {
				v.SetBytes(b)
			} else {
				v.Set(reflect.ValueOf(b).Convert(t))
			}
			return
		}
		n := 1 + f.rand.Intn(2)
		s := reflect.MakeSlice(t, n, n)
		for i := 0; i < n; i++ {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		if f.skip(depth) {
			return
		}
		m := reflect.MakeMap(t)
		for i := 0; i < 1+f.rand.Intn(2); i++ {
			k := reflect.New(t.Key()).Elem()
			f.fill(k, depth+1)
			e := reflect.New(t.Elem()).Elem()
			f.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		if values, ok := namedStrings[t.Name()]; ok {
			v.SetString(values[f.rand.Intn(len(values))])
		} else {
			v.SetString(words[f.rand.Intn(len(words))])
		}
	case reflect.Bool:
		v.SetBool(f.rand.Intn(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.rand.Intn(100)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.rand.Intn(100)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.rand.Intn(100)) / 4)
	}
}
