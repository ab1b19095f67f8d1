mkdir -p out
cargo run -p runtime-openapi-gen -- --version v1.2.3 --output-file out/runtime-sdk-openapi.yaml
cargo run -p runtime-openapi-gen -- --version v1.2.3 --output-file out/runtime-sdk-openapi.json
cargo run -p runtime-openapi-gen -- --version v1.2.3 --check out/runtime-sdk-openapi.yaml
