mkdir -p out
cargo run -p runtime-openapi-gen -- --version v0.1.0 --input docs/book/samples/src \
  --output-file out/backups-openapi.yaml
