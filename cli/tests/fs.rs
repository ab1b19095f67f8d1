//! The file helpers both binaries use (from `capi-runtime-codegen`), on a real file system:
//! writes through link chains, reads that refuse what is not a regular text file, and crate
//! reading over symbolic links.

use std::path::Path;

use capi_runtime_codegen::fs::{read_text, write_atomic};
use capi_runtime_codegen::{InputError, read_crate};

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn write_creates_and_replaces_files() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("out.yaml");
    write_atomic(&path, b"one\n").unwrap();
    write_atomic(&path, b"two\n").unwrap();
    assert_eq!(read_text(&path).unwrap(), "two\n");
    assert_eq!(names(tmp.path()), ["out.yaml"]);
}

#[cfg(unix)]
#[test]
fn write_follows_a_chain_of_links_to_a_file_that_does_not_exist_yet() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("a")).unwrap();
    std::fs::create_dir(dir.join("b")).unwrap();
    symlink("a/first", dir.join("link")).unwrap();
    symlink("../b/doc.yaml", dir.join("a/first")).unwrap();
    write_atomic(&dir.join("link"), b"text\n").unwrap();
    assert_eq!(read_text(&dir.join("b/doc.yaml")).unwrap(), "text\n");
    assert!(
        std::fs::symlink_metadata(dir.join("link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::symlink_metadata(dir.join("a/first"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names(&dir.join("b")), ["doc.yaml"]);
}

#[cfg(unix)]
#[test]
fn write_through_a_link_loop_fails_and_leaves_nothing() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    symlink("b", dir.join("a")).unwrap();
    symlink("a", dir.join("b")).unwrap();
    let err = write_atomic(&dir.join("a"), b"x").unwrap_err();
    assert!(err.to_string().contains("symbolic links"), "{err}");
    assert_eq!(names(dir), ["a", "b"]);
}

#[test]
fn read_text_refuses_directories_and_non_utf8() {
    let tmp = tempfile::tempdir().unwrap();
    let err = read_text(tmp.path()).unwrap_err();
    assert_eq!(err.to_string(), "is a directory");
    let bytes = tmp.path().join("bytes");
    std::fs::write(&bytes, [0xff, 0xfe]).unwrap();
    let err = read_text(&bytes).unwrap_err();
    assert!(err.to_string().starts_with("not UTF-8"), "{err}");
    let err = read_text(&tmp.path().join("missing")).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn read_crate_names_what_is_wrong_with_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("missing");
    let err = read_crate(&missing, "crate").unwrap_err();
    assert!(matches!(&err.0[..], [InputError::Missing { path }] if *path == missing));
    let file = tmp.path().join("lib.rs");
    std::fs::write(&file, "").unwrap();
    let err = read_crate(&file, "crate").unwrap_err();
    assert!(matches!(&err.0[..], [InputError::NotADirectory { .. }]));
}

#[test]
fn read_crate_reads_only_the_layout_folders_in_path_order() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path();
    for (path, text) in [
        ("api/b.rs", "pub struct B;"),
        ("api/a/mod.rs", "pub struct A;"),
        ("hooks/mod.rs", "pub struct H;"),
        ("other/mod.rs", "pub struct O;"),
        ("lib.rs", "pub mod api;"),
        ("hooks/notes.txt", "not rust"),
    ] {
        std::fs::create_dir_all(src.join(path).parent().unwrap()).unwrap();
        std::fs::write(src.join(path), text).unwrap();
    }
    let files = read_crate(src, "crate").unwrap();
    let modules: Vec<String> = files.iter().map(|f| f.module.join("::")).collect();
    assert_eq!(modules, ["crate::api::a", "crate::api::b", "crate::hooks"]);
    // Outside the working directory, so shown absolute (and the path exists).
    assert!(Path::new(&files[0].path).is_absolute(), "{}", files[0].path);
    assert!(Path::new(&files[0].path).exists());
}

#[cfg(unix)]
#[test]
fn read_crate_reports_every_loop_once() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path();
    std::fs::create_dir_all(src.join("hooks/deep")).unwrap();
    std::fs::write(src.join("hooks/mod.rs"), "pub struct H;").unwrap();
    symlink("../..", src.join("hooks/deep/to_root")).unwrap();
    symlink("..", src.join("hooks/deep/to_hooks")).unwrap();
    let err = read_crate(src, "crate").unwrap_err();
    let lines: Vec<String> = err.0.iter().map(ToString::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let shown = src.canonicalize().unwrap().display().to_string();
    assert_eq!(
        lines,
        [
            format!("{shown}/hooks/deep/to_hooks: symlink loop back to {shown}/hooks"),
            format!("{shown}/hooks/deep/to_root: symlink loop back to {shown}"),
        ]
    );
}
