//! Reading and writing the generator's files: reads that never block on special files, and
//! writes that never leave a half-written file.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Reads the regular file at `path` as UTF-8 text.
///
/// The file type is checked before the file is opened, so a FIFO or a device is refused
/// instead of blocking; a directory, a special file and text that is not UTF-8 each get an
/// error that says so.
pub fn read_text(path: &Path) -> io::Result<String> {
    let (mut file, len) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    String::from_utf8(bytes)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("not UTF-8 ({e})")))
}

/// The regular file at `path`, opened for reading, and its length. The type is checked before
/// opening (a FIFO would block) and again on what was opened (the path may have changed).
fn open_regular(path: &Path) -> io::Result<(std::fs::File, u64)> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        ));
    }
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok((file, meta.len()))
}

/// Writes `contents` to `path` atomically: into a temporary file in the same directory, then
/// renamed over the target.
///
/// - When `path` is a symbolic link, its target is written (the link stays, as `cp` or an
///   editor would do).
/// - An existing file keeps its permission bits; a new one gets the usual defaults.
/// - On any error the target is untouched and the temporary file removed.
/// - The temporary is named `.<file name>.tmp-<process id>`; each write also removes the
///   temporaries of the same target left by processes that no longer run (a run killed with
///   `SIGKILL`), and never those of a run still going.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let target = resolve_links(path)?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "output path has no file name"))?
        .to_string_lossy()
        .into_owned();
    let stem = format!(".{name}.tmp-");
    remove_stale_temporaries(&dir, &stem);
    let previous = match std::fs::metadata(&target) {
        Ok(m) => m.is_file().then(|| m.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let mut tmp = Temporary {
        path: dir.join(format!("{stem}{}", std::process::id())),
        keep: false,
    };
    // A file of this name can only be a leftover of an earlier process with the same id.
    let _ = std::fs::remove_file(&tmp.path);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp.path)?;
    f.write_all(contents)?;
    if let Some(permissions) = previous {
        f.set_permissions(permissions)?;
    }
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp.path, &target)?;
    tmp.keep = true;
    Ok(())
}

/// A temporary file, removed when dropped unless it was renamed into place (so every early
/// return of [`write_atomic`] removes it).
struct Temporary {
    path: PathBuf,
    keep: bool,
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The file a write to `path` lands in: `path` itself, or the end of its chain of symbolic
/// links (which need not exist yet).
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    // The same bound as Linux's ELOOP.
    for _ in 0..40 {
        match std::fs::read_link(&current) {
            Ok(next) => {
                current = match current.parent() {
                    Some(parent) if next.is_relative() => parent.join(next),
                    _ => next,
                };
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "too many levels of symbolic links from {}",
        path.display()
    )))
}

/// Removes `<stem><pid>` files in `dir` whose process is gone. Only where the process table
/// can be read (`/proc`); elsewhere nothing is removed.
fn remove_stale_temporaries(dir: &Path, stem: &str) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(stem))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !proc.join(pid.to_string()).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
