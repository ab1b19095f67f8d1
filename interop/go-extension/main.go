// Command go-extension is a Runtime Extension written with Cluster API's own Go
// kit (exp/runtime/server), the peer the Rust client is tested against. It
// registers one handler for every hook of hooks.runtime.cluster.x-k8s.io/v1alpha1
// and answers each call deterministically, from the request alone, so a test
// can predict every answer:
//
//   - message: "go <Hook> <cluster or machine name>" (the name read from the request);
//   - the retrying hooks: retryAfterSeconds = the number of letters of the hook's name;
//   - GeneratePatches: one JSON patch per item, adding the annotation
//     "interop.capi-runtime/hook" = "GeneratePatches" to the item's object;
//   - DiscoverVariables: one variable, "go-interop", of type string;
//   - the other hooks: Success with the message above.
//
// Flags: --host and --port to listen on, --cert-dir holding tls.crt and tls.key.
// It prints "serving" on stdout once the listener is up.
//
// The same file is built against every supported Cluster API (by `cargo xtask testenv`, beside
// the go.mod and go.sum capi-envtest builds that version's manager with, into
// go-extension-<version>). The hook types keep their import path and names across versions
// while some of their contents change (a v1.12 lifecycle request embeds a v1beta1 Cluster, its
// DiscoverVariables answer lists v1beta1 variables), so the handlers only touch what every
// version spells the same: the name of the request's object, the common response fields, and
// the variables through their JSON. The catalog's import path, which moved in v1.14, is in
// catalog.go in each version's directory.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"k8s.io/utils/ptr"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
	"sigs.k8s.io/cluster-api/exp/runtime/server"
)

func message(hook, name string) string { return "go " + hook + " " + name }

func retry(hook string) int32 { return int32(len(hook)) }

func main() {
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 0, "port to listen on")
	certDir := flag.String("cert-dir", "", "directory with tls.crt and tls.key")
	flag.Parse()
	if *port == 0 || *certDir == "" {
		fmt.Fprintln(os.Stderr, "usage: go-extension --port N --cert-dir DIR [--host ADDR]")
		os.Exit(2)
	}

	hooks := newCatalog()
	if err := runtimehooksv1.AddToCatalog(hooks); err != nil {
		fail(err)
	}
	srv, err := server.New(server.Options{Catalog: hooks, Host: *host, Port: *port, CertDir: *certDir})
	if err != nil {
		fail(err)
	}
	for _, h := range handlers() {
		if err := srv.AddExtensionHandler(h); err != nil {
			fail(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go announce(*host, *port)
	if err := srv.Start(ctx); err != nil {
		fail(err)
	}
}

// announce prints "serving" once the port accepts connections.
func announce(host string, port int) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			fmt.Println("serving")
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "go-extension:", err)
	os.Exit(1)
}

func success(r *runtimehooksv1.CommonResponse, hook, name string) {
	r.Status = runtimehooksv1.ResponseStatusSuccess
	r.Message = message(hook, name)
}

func retrying(r *runtimehooksv1.CommonRetryResponse, hook, name string) {
	success(&r.CommonResponse, hook, name)
	r.RetryAfterSeconds = retry(hook)
}

// variables is the DiscoverVariables answer, as JSON: v1.12 decodes it into v1beta1
// ClusterClassVariables (required is a bool there), later versions into v1beta2 ones.
const variables = `[{"name": "go-interop", "required": true,
	"schema": {"openAPIV3Schema": {"type": "string", "default": "go"}}}]`

func handlers() []server.ExtensionHandler {
	h := func(hook hookFunc, name string, fn hookFunc) server.ExtensionHandler {
		return server.ExtensionHandler{Hook: hook, Name: name, HandlerFunc: fn,
			TimeoutSeconds: ptr.To[int32](5), FailurePolicy: ptr.To(runtimehooksv1.FailurePolicyFail)}
	}
	return []server.ExtensionHandler{
		h(runtimehooksv1.BeforeClusterCreate, "before-cluster-create",
			func(_ context.Context, req *runtimehooksv1.BeforeClusterCreateRequest, resp *runtimehooksv1.BeforeClusterCreateResponse) {
				retrying(&resp.CommonRetryResponse, "BeforeClusterCreate", req.Cluster.Name)
			}),
		h(runtimehooksv1.AfterControlPlaneInitialized, "after-control-plane-initialized",
			func(_ context.Context, req *runtimehooksv1.AfterControlPlaneInitializedRequest, resp *runtimehooksv1.AfterControlPlaneInitializedResponse) {
				success(&resp.CommonResponse, "AfterControlPlaneInitialized", req.Cluster.Name)
			}),
		h(runtimehooksv1.BeforeClusterUpgrade, "before-cluster-upgrade",
			func(_ context.Context, req *runtimehooksv1.BeforeClusterUpgradeRequest, resp *runtimehooksv1.BeforeClusterUpgradeResponse) {
				retrying(&resp.CommonRetryResponse, "BeforeClusterUpgrade", req.Cluster.Name)
			}),
		h(runtimehooksv1.BeforeControlPlaneUpgrade, "before-control-plane-upgrade",
			func(_ context.Context, req *runtimehooksv1.BeforeControlPlaneUpgradeRequest, resp *runtimehooksv1.BeforeControlPlaneUpgradeResponse) {
				retrying(&resp.CommonRetryResponse, "BeforeControlPlaneUpgrade", req.Cluster.Name)
			}),
		h(runtimehooksv1.AfterControlPlaneUpgrade, "after-control-plane-upgrade",
			func(_ context.Context, req *runtimehooksv1.AfterControlPlaneUpgradeRequest, resp *runtimehooksv1.AfterControlPlaneUpgradeResponse) {
				retrying(&resp.CommonRetryResponse, "AfterControlPlaneUpgrade", req.Cluster.Name)
			}),
		h(runtimehooksv1.BeforeWorkersUpgrade, "before-workers-upgrade",
			func(_ context.Context, req *runtimehooksv1.BeforeWorkersUpgradeRequest, resp *runtimehooksv1.BeforeWorkersUpgradeResponse) {
				retrying(&resp.CommonRetryResponse, "BeforeWorkersUpgrade", req.Cluster.Name)
			}),
		h(runtimehooksv1.AfterWorkersUpgrade, "after-workers-upgrade",
			func(_ context.Context, req *runtimehooksv1.AfterWorkersUpgradeRequest, resp *runtimehooksv1.AfterWorkersUpgradeResponse) {
				retrying(&resp.CommonRetryResponse, "AfterWorkersUpgrade", req.Cluster.Name)
			}),
		h(runtimehooksv1.AfterClusterUpgrade, "after-cluster-upgrade",
			func(_ context.Context, req *runtimehooksv1.AfterClusterUpgradeRequest, resp *runtimehooksv1.AfterClusterUpgradeResponse) {
				retrying(&resp.CommonRetryResponse, "AfterClusterUpgrade", req.Cluster.Name)
			}),
		h(runtimehooksv1.BeforeClusterDelete, "before-cluster-delete",
			func(_ context.Context, req *runtimehooksv1.BeforeClusterDeleteRequest, resp *runtimehooksv1.BeforeClusterDeleteResponse) {
				retrying(&resp.CommonRetryResponse, "BeforeClusterDelete", req.Cluster.Name)
			}),
		h(runtimehooksv1.GeneratePatches, "generate-patches",
			func(_ context.Context, req *runtimehooksv1.GeneratePatchesRequest, resp *runtimehooksv1.GeneratePatchesResponse) {
				success(&resp.CommonResponse, "GeneratePatches", strconv.Itoa(len(req.Items))+" items")
				for _, item := range req.Items {
					resp.Items = append(resp.Items, runtimehooksv1.GeneratePatchesResponseItem{
						UID:       item.UID,
						PatchType: runtimehooksv1.JSONPatchType,
						Patch:     []byte(`[{"op":"add","path":"/metadata/annotations","value":{"interop.capi-runtime/hook":"GeneratePatches"}}]`),
					})
				}
			}),
		h(runtimehooksv1.ValidateTopology, "validate-topology",
			func(_ context.Context, req *runtimehooksv1.ValidateTopologyRequest, resp *runtimehooksv1.ValidateTopologyResponse) {
				success(&resp.CommonResponse, "ValidateTopology", strconv.Itoa(len(req.Items))+" items")
			}),
		h(runtimehooksv1.DiscoverVariables, "discover-variables",
			func(_ context.Context, _ *runtimehooksv1.DiscoverVariablesRequest, resp *runtimehooksv1.DiscoverVariablesResponse) {
				success(&resp.CommonResponse, "DiscoverVariables", "")
				if err := json.Unmarshal([]byte(variables), &resp.Variables); err != nil {
					resp.Status = runtimehooksv1.ResponseStatusFailure
					resp.Message = err.Error()
				}
			}),
		h(runtimehooksv1.CanUpdateMachine, "can-update-machine",
			func(_ context.Context, req *runtimehooksv1.CanUpdateMachineRequest, resp *runtimehooksv1.CanUpdateMachineResponse) {
				success(&resp.CommonResponse, "CanUpdateMachine", req.Desired.Machine.Name)
				resp.MachinePatch = runtimehooksv1.Patch{PatchType: runtimehooksv1.JSONMergePatchType,
					Patch: []byte(`{"metadata":{"labels":{"interop.capi-runtime/hook":"CanUpdateMachine"}}}`)}
			}),
		h(runtimehooksv1.CanUpdateMachineSet, "can-update-machine-set",
			func(_ context.Context, req *runtimehooksv1.CanUpdateMachineSetRequest, resp *runtimehooksv1.CanUpdateMachineSetResponse) {
				success(&resp.CommonResponse, "CanUpdateMachineSet", req.Desired.MachineSet.Name)
			}),
		h(runtimehooksv1.UpdateMachine, "update-machine",
			func(_ context.Context, req *runtimehooksv1.UpdateMachineRequest, resp *runtimehooksv1.UpdateMachineResponse) {
				retrying(&resp.CommonRetryResponse, "UpdateMachine", req.Desired.Machine.Name)
			}),
		h(runtimehooksv1.GenerateUpgradePlan, "generate-upgrade-plan",
			func(_ context.Context, req *runtimehooksv1.GenerateUpgradePlanRequest, resp *runtimehooksv1.GenerateUpgradePlanResponse) {
				success(&resp.CommonResponse, "GenerateUpgradePlan", req.Cluster.Name)
			}),
	}
}
