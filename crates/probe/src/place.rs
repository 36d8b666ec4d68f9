//! Where a snapshot's probe file is kept: `probes/DATE.json` beside the snapshots' folder
//! (content/probes/ for content/snapshots/), so a snapshot and its probe travel together.

use std::path::{Path, PathBuf};

/// The folder of probe files, beside the snapshots' folder.
pub const PROBES_DIR: &str = "probes";

/// The probe file of the snapshot stored at `snapshot` (`…/snapshots/DATE.json` gives
/// `…/probes/DATE.json`).
pub fn beside(snapshot: &Path) -> PathBuf {
    let folder = snapshot.parent().unwrap_or(Path::new("."));
    let root = folder.parent().unwrap_or(Path::new("."));
    root.join(PROBES_DIR).join(snapshot.file_name().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_file_sits_beside_the_snapshots_folder() {
        assert_eq!(beside(Path::new("content/snapshots/2026-12-07.json")), Path::new("content/probes/2026-12-07.json"));
        assert_eq!(beside(Path::new("/tmp/x/s/2026-12-07.json")), Path::new("/tmp/x/probes/2026-12-07.json"));
    }
}
