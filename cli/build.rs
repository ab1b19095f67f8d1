//! Embeds the SDK's model record (`sdk/model.json`, kept indented by `cargo xtask codegen` so
//! that its diffs read well) without its layout: the same JSON with the white space between
//! tokens left out, about half the bytes for the binary to parse at every run.

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=sdk/model.json");
    let text = std::fs::read_to_string("sdk/model.json").expect("sdk/model.json is readable");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("model.json"), compact(&text))
        .expect("OUT_DIR is writable");
}

/// `json` without the white space outside its strings.
fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !matches!(c, ' ' | '\n' | '\r' | '\t') {
            out.push(c);
            in_string = c == '"';
        }
    }
    out
}
