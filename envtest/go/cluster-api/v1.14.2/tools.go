//go:build tools

// The program this module builds from Cluster API's published module. Importing it here keeps
// its dependencies in go.mod and go.sum through `go mod tidy`; the build tag keeps the file out
// of every build.
package tools

import (
	_ "sigs.k8s.io/cluster-api/core"
)
