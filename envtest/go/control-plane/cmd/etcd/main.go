// Command etcd is the etcd server used by the Rust test environment
// (capi-envtest, for the testenv crate). It runs the published etcd server module's own entry point, so
// the binary behaves like upstream's etcd at the version pinned in go.mod.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
