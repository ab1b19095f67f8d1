//! Input files of the CLI frontend and where their modules sit in a crate.

use std::collections::HashSet;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// One Rust source file given to the generator.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path printed in diagnostics.
    pub path: String,
    /// The module path, starting with the crate name (`crate` for the crate being generated).
    pub module: Vec<String>,
    /// The file's text.
    pub text: String,
}

impl SourceFile {
    /// A file of the crate being generated, at `rel` under its `src/` directory.
    pub fn in_crate(display_path: impl Into<String>, rel: &str, text: impl Into<String>) -> Self {
        Self::in_named_crate("crate", display_path, rel, text)
    }

    /// A file of another crate the input depends on (e.g. `capi_runtime` for the hook types of
    /// this SDK), at `rel` under that crate's `src/` directory.
    pub fn in_named_crate(
        krate: &str,
        display_path: impl Into<String>,
        rel: &str,
        text: impl Into<String>,
    ) -> Self {
        SourceFile {
            path: display_path.into(),
            module: module_path(krate, rel),
            text: text.into(),
        }
    }
}

/// The module path of the file at `rel` (relative to a crate's `src/`, `/`-separated):
/// `lib.rs` → `[krate]`, `a/mod.rs` → `[krate, a]`, `a/b.rs` → `[krate, a, b]`.
pub fn module_path(krate: &str, rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    std::iter::once(krate.to_string()).chain(parts).collect()
}

/// Why a crate directory could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum InputError {
    /// The directory does not exist.
    Missing {
        /// The directory as given.
        path: PathBuf,
    },
    /// The path exists but is not a directory.
    NotADirectory {
        /// The path as given.
        path: PathBuf,
    },
    /// A symbolic link leads back to a directory that contains it.
    Loop {
        /// The link, as diagnostics show paths.
        link: String,
        /// The directory it leads back to, shown the same way.
        target: String,
    },
    /// A `.rs` entry that is not a regular file (a FIFO, a device): never opened, so reading
    /// cannot block.
    NotAFile {
        /// The entry, as diagnostics show paths.
        path: String,
    },
    /// Reading a directory or file failed.
    Io {
        /// The directory or file, as diagnostics show paths.
        path: String,
        /// The cause.
        source: io::Error,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Missing { path } => write!(f, "{}: no such directory", path.display()),
            InputError::NotADirectory { path } => write!(
                f,
                "{}: not a directory (give the crate's src/ directory)",
                path.display()
            ),
            InputError::Loop { link, target } => {
                write!(f, "{link}: symlink loop back to {target}")
            }
            InputError::NotAFile { path } => write!(f, "{path}: not a regular file"),
            InputError::Io { path, .. } => write!(f, "cannot read {path}"),
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Every problem found while reading a crate directory (at least one), in path order.
#[derive(Debug)]
pub struct InputErrors(pub Vec<InputError>);

impl fmt::Display for InputErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
            if let InputError::Io { source, .. } = e {
                write!(f, ": {source}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for InputErrors {}

/// Reads the crate whose `src/` directory is `src_dir`: every `.rs` file below its
/// [`CRATE_LAYOUT`](crate::CRATE_LAYOUT) folders, in sorted path order, as modules of the crate
/// named `krate` (`crate` for the crate being generated, or the name other files use for it).
///
/// Symbolic links are followed, each directory once (by device and inode); a link back to a
/// directory that contains it is an error. Diagnostics show each file relative to the working
/// directory when it is under it, and absolute otherwise, so the path printed always exists.
pub fn read_crate(src_dir: &Path, krate: &str) -> Result<Vec<SourceFile>, InputErrors> {
    let one = |e| InputErrors(vec![e]);
    match std::fs::metadata(src_dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(one(InputError::NotADirectory {
                path: src_dir.to_path_buf(),
            }));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(one(InputError::Missing {
                path: src_dir.to_path_buf(),
            }));
        }
        Err(source) => {
            return Err(one(InputError::Io {
                path: src_dir.display().to_string(),
                source,
            }));
        }
    }
    let shown = shown_dir(src_dir);
    let prefix = if shown.as_os_str().is_empty() {
        String::new()
    } else {
        format!("{}/", shown.display())
    };
    read_layout(src_dir, crate::CRATE_LAYOUT, &prefix, krate)
}

/// [`read_crate`] for the folders `subdirs`, with the display path of each file given as
/// `display_prefix` followed by its path under `src_dir` (for callers that show paths
/// relative to a root of their own).
#[doc(hidden)]
pub fn read_crate_dir(
    src_dir: &Path,
    subdirs: &[&str],
    display_prefix: &str,
    krate: &str,
) -> io::Result<Vec<SourceFile>> {
    read_layout(src_dir, subdirs, display_prefix, krate)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// `dir` as diagnostics show it: relative to the working directory when under it, else
/// absolute (both with symbolic links resolved, so the two can be compared).
fn shown_dir(dir: &Path) -> PathBuf {
    let Ok(abs) = dir.canonicalize() else {
        return dir.to_path_buf();
    };
    match std::env::current_dir().and_then(|c| c.canonicalize()) {
        Ok(cwd) => match abs.strip_prefix(&cwd) {
            Ok(rel) => rel.to_path_buf(),
            Err(_) => abs,
        },
        Err(_) => abs,
    }
}

fn read_layout(
    src_dir: &Path,
    subdirs: &[&str],
    display_prefix: &str,
    krate: &str,
) -> Result<Vec<SourceFile>, InputErrors> {
    let mut walk = Walk {
        root: src_dir,
        prefix: display_prefix,
        stack: Vec::new(),
        seen: HashSet::new(),
        files: Vec::new(),
        errors: Vec::new(),
    };
    match dir_id(src_dir) {
        Ok(id) => {
            walk.seen.insert(id.clone());
            walk.stack.push((id, String::new()));
        }
        Err(source) => {
            walk.errors.push(InputError::Io {
                path: walk.shown(""),
                source,
            });
        }
    }
    for sub in subdirs {
        if std::fs::symlink_metadata(src_dir.join(sub)).is_ok() {
            walk.entry((*sub).to_string());
        }
    }
    let Walk {
        mut files,
        mut errors,
        ..
    } = walk;
    files.sort();
    let mut out = Vec::new();
    for rel in files {
        match std::fs::read_to_string(src_dir.join(&rel)) {
            Ok(text) => out.push(SourceFile::in_named_crate(
                krate,
                format!("{display_prefix}{rel}"),
                &rel,
                text,
            )),
            Err(source) => errors.push(InputError::Io {
                path: format!("{display_prefix}{rel}"),
                source,
            }),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(InputErrors(errors))
    }
}

/// What identifies a directory however it is reached: device and inode (on other systems,
/// the canonical path).
#[derive(Clone, PartialEq, Eq, Hash)]
struct DirId(#[cfg(unix)] (u64, u64), #[cfg(not(unix))] PathBuf);

#[cfg(unix)]
fn dir_id(path: &Path) -> io::Result<DirId> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path)?;
    Ok(DirId((m.dev(), m.ino())))
}

#[cfg(not(unix))]
fn dir_id(path: &Path) -> io::Result<DirId> {
    path.canonicalize().map(DirId)
}

/// A depth-first walk below a crate's `src/`, by paths relative to it (`/`-separated).
struct Walk<'a> {
    root: &'a Path,
    prefix: &'a str,
    /// The directories being read, outermost first, with their relative paths.
    stack: Vec<(DirId, String)>,
    /// Every directory read so far.
    seen: HashSet<DirId>,
    files: Vec<String>,
    errors: Vec<InputError>,
}

impl Walk<'_> {
    fn shown(&self, rel: &str) -> String {
        if rel.is_empty() {
            let p = self.prefix.trim_end_matches('/');
            if p.is_empty() { ".".into() } else { p.into() }
        } else {
            format!("{}{rel}", self.prefix)
        }
    }

    /// One entry at `rel`: a directory (walked once), a `.rs` file (kept) or anything else.
    fn entry(&mut self, rel: String) {
        let path = self.root.join(&rel);
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(source) => {
                self.errors.push(InputError::Io {
                    path: self.shown(&rel),
                    source,
                });
                return;
            }
        };
        if meta.is_dir() {
            let id = match dir_id(&path) {
                Ok(id) => id,
                Err(source) => {
                    self.errors.push(InputError::Io {
                        path: self.shown(&rel),
                        source,
                    });
                    return;
                }
            };
            if let Some((_, outer)) = self.stack.iter().find(|(d, _)| *d == id) {
                let target = self.shown(outer);
                self.errors.push(InputError::Loop {
                    link: self.shown(&rel),
                    target,
                });
                return;
            }
            if !self.seen.insert(id.clone()) {
                return; // already read through another link
            }
            self.stack.push((id, rel.clone()));
            self.dir(&rel);
            self.stack.pop();
        } else if rel.ends_with(".rs") {
            if meta.is_file() {
                self.files.push(rel);
            } else {
                self.errors.push(InputError::NotAFile {
                    path: self.shown(&rel),
                });
            }
        }
    }

    fn dir(&mut self, rel: &str) {
        let entries = match std::fs::read_dir(self.root.join(rel)) {
            Ok(entries) => entries,
            Err(source) => {
                self.errors.push(InputError::Io {
                    path: self.shown(rel),
                    source,
                });
                return;
            }
        };
        let mut names = Vec::new();
        for entry in entries {
            match entry {
                // A name that is not UTF-8 cannot be a Rust module.
                Ok(e) => names.extend(e.file_name().into_string().ok()),
                Err(source) => self.errors.push(InputError::Io {
                    path: self.shown(rel),
                    source,
                }),
            }
        }
        names.sort();
        for name in names {
            self.entry(format!("{rel}/{name}"));
        }
    }
}

/// The descriptions of the external types the generator knows (k8s-openapi, serde_json),
/// written with the same derive syntax as the hook types.
pub fn external() -> Vec<SourceFile> {
    vec![
        SourceFile {
            path: "<external>/k8s_openapi.rs".into(),
            module: vec!["k8s_openapi".into()],
            text: include_str!("../external/k8s_openapi.rs").into(),
        },
        SourceFile {
            path: "<external>/serde_json.rs".into(),
            module: vec!["serde_json".into()],
            text: include_str!("../external/serde_json.rs").into(),
        },
    ]
}
