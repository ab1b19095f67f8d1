// The one import whose path differs between the supported Cluster API versions.
// From v1.14 on, Cluster API keeps its hook catalog in its api module.
package main

import runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"

type catalog = runtimecatalog.Catalog

// hookFunc is a hook or a handler function, as the catalog and the server take them.
type hookFunc = runtimecatalog.Hook

func newCatalog() *catalog { return runtimecatalog.New() }
