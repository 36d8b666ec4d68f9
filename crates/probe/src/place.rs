//! Where a snapshot's probe file is kept: `probes/DATE.json` beside the snapshots' folder
//! (content/probes/ for content/snapshots/), so a snapshot and its probe travel together.

use std::path::{Path, PathBuf};

use catalogue::Error;

use crate::record::Probe;

/// The folder of probe files, beside the snapshots' folder.
pub const PROBES_DIR: &str = "probes";

/// The probe file of the snapshot of `date` stored at `snapshot` (`…/snapshots/DATE.json`
/// or `.json.gz` gives `…/probes/DATE.json`).
pub fn beside(snapshot: &Path, date: &str) -> PathBuf {
    let folder = snapshot.parent().unwrap_or(Path::new("."));
    let root = folder.parent().unwrap_or(Path::new("."));
    root.join(PROBES_DIR).join(format!("{date}.json"))
}

/// The probe file beside the snapshot stored at `snapshot`, when there is one: read,
/// checked, and of the snapshot's `date`. A damaged one, or one of another date, is an
/// error naming the file.
pub fn read_beside(snapshot: &Path, date: &str) -> Result<Option<Probe>, Error> {
    let path = beside(snapshot, date);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path, e)),
        Ok(meta) if !meta.is_file() => return Err(Error::input(&path, "not a regular file: a probe file is a file")),
        Ok(_) => {}
    }
    let probe = Probe::read(&path).map_err(|e| Error::input(&path, e.message))?;
    if probe.snapshot != date {
        return Err(Error::input(&path, format!("probes the snapshot of {}, not {date}", probe.snapshot)));
    }
    Ok(Some(probe))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_file_sits_beside_the_snapshots_folder() {
        let at = |path: &str| beside(Path::new(path), "2026-12-07");
        assert_eq!(at("content/snapshots/2026-12-07.json"), Path::new("content/probes/2026-12-07.json"));
        assert_eq!(at("content/snapshots/2026-12-07.json.gz"), Path::new("content/probes/2026-12-07.json"));
        assert_eq!(at("/tmp/x/s/2026-12-07.json"), Path::new("/tmp/x/probes/2026-12-07.json"));
    }
}
