# A serving certificate for localhost, self-signed, valid for one day, and marked as no CA
# (openssl marks it CA:TRUE otherwise, which rustls-based clients refuse).
mkdir -p out/certs
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -subj /CN=localhost -addext basicConstraints=critical,CA:FALSE \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
  -keyout out/certs/tls.key -out out/certs/tls.crt

# Build the quickstart extension first, then run it in the background, its log in
# out/server.log. PORT=0 lets the system pick a free port; the port it really listens on is
# read back from the log.
cargo build -q -p capi-runtime-book-samples --example quickstart
PORT=${PORT:-9443} cargo run -q -p capi-runtime-book-samples --example quickstart -- out/certs \
  >out/server.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

# Wait for "extension server listening addr=0.0.0.0:<port>" (up to 2 minutes).
port=
for _ in $(seq 600); do
  port=$(sed -n 's/.*extension server listening addr=[^ ]*:\([0-9][0-9]*\).*/\1/p' \
    out/server.log 2>/dev/null || true)
  if [ -n "$port" ]; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then
    cat out/server.log >&2
    echo "the extension stopped before it listened" >&2
    exit 1
  fi
  sleep 0.2
done
if [ -z "$port" ]; then
  cat out/server.log >&2
  echo "the extension did not log that it listens within 2 minutes" >&2
  exit 1
fi

# Discovery, then the handler, as Cluster API calls them.
hooks=https://localhost:$port/hooks.runtime.cluster.x-k8s.io/v1alpha1
call() {
  curl --fail --silent --show-error --cacert out/certs/tls.crt \
    -H 'Content-Type: application/json' -d "$2" -o "$3" "$hooks/$1"
}
call discovery \
  '{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoveryRequest"}' \
  out/discovery.json
call beforeclustercreate/check-name \
  '{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"BeforeClusterCreateRequest",
    "cluster":{"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"Cluster",
               "metadata":{"name":"my-cluster","namespace":"default"}}}' \
  out/before-cluster-create.json
cat out/discovery.json; echo
cat out/before-cluster-create.json; echo
