//! The only way the build writes files.
//!
//! Every path is given relative to the output folder and checked component by
//! component before anything touches the disk: no absolute paths, no `..` or `.`, no
//! separators or control characters inside a component, nothing starting with a dot
//! except the build's own staging folder. Page names come from `method::names::resource_slug`,
//! which is already safe; this is the second lock on the same door.

use std::fs;
use std::path::{Path, PathBuf};

use catalogue::error::Error;

#[derive(Debug, Clone)]
pub struct Output {
    root: PathBuf,
}

/// Checks one relative path of the form `a/b/c.json`.
pub(crate) fn check_relative(rel: &str) -> Result<(), String> {
    if rel.is_empty() || rel.starts_with('/') || rel.ends_with('/') {
        return Err(format!("{rel:?} is not a relative file path"));
    }
    for part in rel.split('/') {
        let bad = part.is_empty()
            || part == "."
            || part == ".."
            || part.starts_with('.')
            || part.len() > 200
            || part
                .chars()
                .any(|c| c.is_control() || matches!(c, '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' | '%'));
        if bad {
            return Err(format!("unsafe path component {part:?} in {rel:?}"));
        }
    }
    Ok(())
}

impl Output {
    pub fn new(root: impl Into<PathBuf>) -> Output {
        Output { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file `rel` inside the output folder, after checking it stays inside.
    pub fn path(&self, rel: &str) -> Result<PathBuf, Error> {
        check_relative(rel).map_err(|e| Error::Refused(format!("refusing to write outside the output folder: {e}")))?;
        Ok(self.root.join(rel))
    }

    pub(crate) fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), Error> {
        let path = self.path(rel)?;
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        fs::write(&path, bytes).map_err(|e| Error::io(&path, e))
    }

    /// Writes many files: their folders are made once first (one `mkdir` per folder,
    /// not per file, which on a cold disk was a quarter of the build's time), then the
    /// files in parallel. Returns each file's metadata as its write left it, in the
    /// order given: asked of the open file, it costs no second walk of the folder.
    pub fn write_all(&self, files: &[(String, Vec<u8>)]) -> Result<Vec<fs::Metadata>, Error> {
        use rayon::prelude::*;
        let mut dirs: Vec<PathBuf> = Vec::new();
        for (rel, _) in files {
            if let Some(parent) = self.path(rel)?.parent() {
                dirs.push(parent.to_path_buf());
            }
        }
        dirs.sort_unstable();
        dirs.dedup();
        // create_dir_all tolerates a parent made meanwhile by another thread.
        dirs.par_iter().try_for_each(|dir| fs::create_dir_all(dir).map_err(|e| Error::io(dir, e)))?;
        files
            .par_iter()
            .map(|(rel, bytes)| {
                use std::io::Write;
                let path = self.root.join(rel);
                let write = || -> std::io::Result<fs::Metadata> {
                    let mut file = fs::File::create(&path)?;
                    file.write_all(bytes)?;
                    file.metadata()
                };
                write().map_err(|e| Error::io(&path, e))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_paths_pass() {
        for ok in
            ["index.html", "2025-12-31/r/api.example.com-0a1b2c3d4e5f/index.html", "2025-12-31/api/q/u-e5a4a9.json"]
        {
            assert!(check_relative(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn escaping_paths_are_refused() {
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a/./b",
            "a//b",
            "a/b/",
            ".hidden",
            "a\\..\\b",
            "a/%2e%2e/b",
            "a/%252e%252e/b",
            "a/\u{0}b",
            "C:/x",
            "a/b\nc",
        ] {
            assert!(check_relative(bad).is_err(), "{bad:?} accepted");
        }
        let out = Output::new("/tmp/x402dir-never");
        assert!(out.write("../escape.txt", b"x").is_err());
        assert!(!Path::new("/tmp/escape.txt").exists() || fs::read("/tmp/escape.txt").unwrap() != b"x");
    }
}
