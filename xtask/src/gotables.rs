//! `cargo xtask go-tables`: writes `src/go/print_ranges.rs`, the code points Go's
//! `strconv.IsPrint` accepts (by Go's Unicode tables), from Go itself: the oracle program
//! `go-rules -print-ranges` (built by `cargo xtask testenv` from `interop/capi/`). `--check`
//! fails when the file differs. The oracle test (`testenv/tests/go_rules.rs`) also compares
//! `capi_runtime::go::strconv::is_print` with Go over every code point, so the table cannot go
//! stale unnoticed when the Go pin moves.

use std::path::Path;
use std::process::Command;

const OUTPUT: &str = "src/go/print_ranges.rs";

/// `cargo xtask go-tables [--check]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => return Err("usage: cargo xtask go-tables [--check]".into()),
    };
    let root = crate::root();
    crate::goenv::build(&root)?;
    let program = root.join("target/testenv/bin/go-rules");
    let output = Command::new(&program)
        .arg("-print-ranges")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} -print-ranges failed ({}): {}",
            program.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let ranges: Vec<(u32, u32)> = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("{} -print-ranges: {e}", program.display()))?;
    let text = render(&ranges);
    let path = root.join(OUTPUT);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if check {
        return if current == text {
            Ok(())
        } else {
            Err(format!("{OUTPUT} is stale: run cargo xtask go-tables"))
        };
    }
    if current != text {
        write(&path, &text)?;
        eprintln!("xtask: wrote {OUTPUT} ({} ranges)", ranges.len());
    }
    Ok(())
}

fn render(ranges: &[(u32, u32)]) -> String {
    let mut out = String::from(
        "// Written by `cargo xtask go-tables` from Go's strconv.IsPrint; do not edit.\n\n\
         //! The code points Go's `strconv.IsPrint` accepts, as sorted, disjoint, inclusive\n\
         //! ranges (read by [`super::strconv::is_print`]).\n\n\
         /// Printable code points: `(first, last)`, inclusive, sorted.\n\
         #[rustfmt::skip]\n\
         pub(super) const PRINTABLE: &[(u32, u32)] = &[\n",
    );
    for chunk in ranges.chunks(6) {
        out.push_str("   ");
        for (first, last) in chunk {
            out.push_str(&format!(" (0x{first:x}, 0x{last:x}),"));
        }
        out.push('\n');
    }
    out.push_str("];\n");
    out
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("rs.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}
