// The one import whose path differs between the supported Cluster API versions.
// Up to v1.13, Cluster API keeps its hook catalog under exp/.
package main

import runtimecatalog "sigs.k8s.io/cluster-api/exp/runtime/catalog"

type catalog = runtimecatalog.Catalog

// hookFunc is a hook or a handler function, as the catalog and the server take them.
type hookFunc = runtimecatalog.Hook

func newCatalog() *catalog { return runtimecatalog.New() }
