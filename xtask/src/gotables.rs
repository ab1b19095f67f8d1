//! `cargo xtask go-tables`: writes the tables of Go's rules from Go itself, through the oracle
//! program `go-rules` (built by `cargo xtask testenv` from `interop/capi/`):
//! `src/go/print_ranges.rs`, the code points `strconv.IsPrint` accepts (`-print-ranges`),
//! `src/wire/fold_table.rs`, the runes `encoding/json` folds when it matches a key to a field
//! (`-print-folds`), and `src/wire/go_values.rs`, the fields of the struct types hook messages
//! reach that Go holds by value, so that a `null` leaves them as they are (`-print-values`).
//! `--check` fails when a file differs. The last table is not read by the decoder: the crate's
//! types say which fields Go holds by value (`#[schema(by_value)]` and their field types), and
//! a unit test (`src/wire/shapes_against_go.rs`) compares what they say with this table. The
//! oracle tests also compare the crate's `strconv.IsPrint` with Go over every code
//! point (`interop/oracle/tests/go_rules.rs`) and the wire codec's key matching with Go's
//! (`interop/oracle/tests/go_wire.rs`), so the tables cannot go stale unnoticed when the Go pin moves.

use std::path::Path;
use std::process::Command;

const OUTPUT: &str = "src/go/print_ranges.rs";
const FOLDS: &str = "src/wire/fold_table.rs";
const VALUES: &str = "src/wire/go_values.rs";

/// What `go-rules -print-values` writes for one struct type.
#[derive(serde::Deserialize)]
struct ValueFields {
    package: String,
    #[serde(rename = "type")]
    name: String,
    fields: Vec<String>,
    values: Vec<String>,
}

/// `cargo xtask go-tables [--check]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => return Err("usage: cargo xtask go-tables [--check]".into()),
    };
    let root = crate::root();
    crate::goenv::build(&root)?;
    let program = crate::target_dir(&root)?.join("testenv/bin/go-rules");
    let ranges: Vec<(u32, u32)> = read(&program, "-print-ranges")?;
    let folds: Vec<(u32, u32)> = read(&program, "-print-folds")?;
    let values: Vec<ValueFields> = read(&program, "-print-values")?;
    let mut stale = Vec::new();
    for (output, text, what) in [
        (OUTPUT, render(&ranges), format!("{} ranges", ranges.len())),
        (
            FOLDS,
            render_folds(&folds),
            format!("{} runes", folds.len()),
        ),
        (
            VALUES,
            render_values(&values),
            format!("{} types", values.len()),
        ),
    ] {
        let path = root.join(output);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(output);
        } else {
            write(&path, &text)?;
            eprintln!("xtask: wrote {output} ({what})");
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} stale: run cargo xtask go-tables",
            stale.join(", ")
        ))
    }
}

/// Runs `program flag` and reads its JSON answer.
fn read<T: serde::de::DeserializeOwned>(program: &Path, flag: &str) -> Result<T, String> {
    let output = Command::new(program)
        .arg(flag)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} {flag} failed ({}): {}",
            program.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("{} {flag}: {e}", program.display()))
}

fn render_values(types: &[ValueFields]) -> String {
    let mut out = String::from(
        "// Written by `cargo xtask go-tables` from Cluster API's Go types; do not edit.\n\n\
         //! The struct types hook messages reach, as Go's `encoding/json` sees them: each with its\n\
         //! JSON fields and the ones it holds by value (a string, number, bool or struct, not a\n\
         //! pointer, slice, map or type that reads JSON itself), which a `null` leaves as they\n\
         //! are. The shapes of the crate's types are checked against it (`shapes_against_go.rs`).\n\n\
         /// `(Go package, type name, its JSON fields, those held by value)`, sorted.\n\
         #[rustfmt::skip]\n\
         pub(super) const GO_VALUES: &[(&str, &str, &[&str], &[&str])] = &[\n",
    );
    let list = |names: &[String]| {
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for t in types {
        out.push_str(&format!(
            "    ({:?}, {:?},\n        &[{}],\n        &[{}]),\n",
            t.package,
            t.name,
            list(&t.fields),
            list(&t.values)
        ));
    }
    out.push_str("];\n");
    out
}

fn render_folds(folds: &[(u32, u32)]) -> String {
    let mut out = String::from(
        "// Written by `cargo xtask go-tables` from Go's unicode.SimpleFold; do not edit.\n\n\
         //! The non-ASCII characters Go's `encoding/json` folds to another one when it matches an\n\
         //! object key to a field name: each with the smallest character of its\n\
         //! `unicode.SimpleFold` orbit (read by the key matching of the module above).\n\n\
         /// `(character, folded)`, sorted by character.\n\
         #[rustfmt::skip]\n\
         pub(super) const FOLDS: &[(u32, u32)] = &[\n",
    );
    for chunk in folds.chunks(6) {
        out.push_str("   ");
        for (c, folded) in chunk {
            out.push_str(&format!(" (0x{c:x}, 0x{folded:x}),"));
        }
        out.push('\n');
    }
    out.push_str("];\n");
    out
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
