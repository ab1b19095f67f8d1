mkdir -p out/crd
cargo run -p runtime-openapi-gen --bin runtime-crd-gen -- --output-dir out/crd
cargo run -p runtime-openapi-gen --bin runtime-crd-gen -- --check out/crd
