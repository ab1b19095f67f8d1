// The v1beta1 → v1beta2 conversion of a Cluster, by Cluster API's own ConvertTo, for the
// corpus mode of main.go. Only the versions whose hooks still embed a v1beta1 Cluster have this
// file beside their go.mod (xtask/src/goenv.rs copies it with main.go).
package main

import (
	"encoding/json"

	clusterv1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
)

func init() {
	convertV1Beta1 = func(raw []byte) ([]byte, error) {
		var src clusterv1beta1.Cluster
		if err := json.Unmarshal(raw, &src); err != nil {
			return nil, err
		}
		var dst clusterv1.Cluster
		if err := src.ConvertTo(&dst); err != nil {
			return nil, err
		}
		// The conversion leaves the type metadata to its caller (the API server sets it).
		if src.APIVersion != "" {
			dst.APIVersion = clusterv1.GroupVersion.String()
		}
		if src.Kind != "" {
			dst.Kind = "Cluster"
		}
		return json.Marshal(&dst)
	}
}
