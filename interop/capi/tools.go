//go:build tools

// The programs this module builds from Cluster API's published module rather than from its
// own directories. Importing them here keeps their dependencies in go.mod and go.sum through
// `go mod tidy`; the build tag keeps the file out of every build.
package tools

import (
	_ "sigs.k8s.io/cluster-api/core"
	_ "sigs.k8s.io/cluster-api/test/extension"
)
