//! The project's own stored snapshot format (content/snapshots/<date>.json).
//!
//! A snapshot is a header (date, where the items came from, when, how many the source
//! said it had, whether the walk was complete) and the items exactly as the catalogue
//! sent them. Nothing is interpreted at write time: screening, ranking and figures are
//! all computed at build time, so a corrected rule takes effect without a new walk.
//!
//! Layout: one header line, then one item per line, so that `git diff` between two
//! snapshots shows listings that changed.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::macros::format_description;
use time::Date;

use crate::error::Error;

pub const FORMAT_NAME: &str = "x402dir-snapshot";
pub const FORMAT_VERSION: u32 = 1;
/// Where snapshots live, relative to the project root.
pub const DEFAULT_DIR: &str = "content/snapshots";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub format_version: u32,
    /// The snapshot's date, YYYY-MM-DD: the date every figure is computed against.
    pub date: String,
    pub source: Source,
    /// When the source was swept (the walk's end, or the dump's own crawl time).
    pub taken_at: Option<String>,
    /// When x402dir wrote this snapshot.
    pub recorded_at: String,
    /// The item count the source reported (`pagination.total`, or a crawler's total).
    pub reported_total: Option<u64>,
    /// True only when every item the source reported was captured.
    pub complete: bool,
    pub item_count: usize,
    /// Anything a reader should know about how this snapshot was made.
    pub notes: Vec<String>,
}

impl Header {
    /// "partial: 20 of 15,155 listings" when the walk did not capture every listing the
    /// source reported; `None` for a complete snapshot (content/method.md#limits).
    pub fn partial_label(&self) -> Option<String> {
        if self.complete {
            return None;
        }
        let items = self.item_count as u64;
        Some(match self.reported_total {
            Some(total) if total > items => format!("partial: {} of {} listings", grouped(items), grouped(total)),
            // A crawler's own count can equal what it kept while its sweep was cut off.
            _ => format!("partial: {} listings, from a walk that did not reach the catalogue's end", grouped(items)),
        })
    }
}

/// `15155` as `15,155`: counts people read.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// The catalogue endpoint the items come from.
    pub url: String,
    /// "walk" (x402dir fetch) or "import" (x402dir import).
    pub via: String,
    /// For imports: the file's name, its shape and its SHA-256.
    pub file: Option<String>,
    pub shape: Option<String>,
    pub sha256: Option<String>,
}

/// A stored snapshot. Items are parsed JSON (`Value`) by default; the build reads them
/// as raw text (`Box<RawValue>`, see [`Snapshot::read_raw`]) and parses each only while
/// it is read, so a large snapshot's items never all sit in memory as JSON trees.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot<I = Value> {
    pub header: Header,
    pub items: Vec<I>,
}

/// One stored item, parsed or as raw JSON text.
pub trait Item: Sync {
    /// The item as JSON (parsed now when stored as text).
    fn value(&self) -> std::borrow::Cow<'_, Value>;
}

impl Item for Value {
    fn value(&self) -> std::borrow::Cow<'_, Value> {
        std::borrow::Cow::Borrowed(self)
    }
}

impl Item for Box<serde_json::value::RawValue> {
    fn value(&self) -> std::borrow::Cow<'_, Value> {
        // The text was checked as JSON when the file was read, so this parse succeeds.
        std::borrow::Cow::Owned(serde_json::from_str(self.get()).unwrap_or(Value::Null))
    }
}

#[derive(Deserialize)]
struct File<I> {
    header: Header,
    items: Vec<I>,
}

/// The current UTC time in whole seconds, RFC 3339: when a snapshot is recorded.
pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .expect("zero nanoseconds is valid")
        .format(&time::format_description::well_known::Rfc3339)
        .expect("UTC times format as RFC 3339")
}

/// Checks that `date` is a real calendar date written YYYY-MM-DD.
pub fn parse_date(date: &str) -> Result<Date, String> {
    Date::parse(date, format_description!("[year]-[month]-[day]"))
        .ok()
        .filter(|_| date.len() == 10)
        .ok_or_else(|| format!("invalid date {date:?}: expected a calendar date written YYYY-MM-DD"))
}

impl Snapshot {
    pub fn read(path: &Path) -> Result<Snapshot, Error> {
        read_file(path)
    }

    /// Serialises the snapshot: the header on the first lines, then one item per line.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        write_snapshot(&mut out, Path::new("memory"), &self.header, self.items.iter().map(Ok))
            .expect("writing to memory cannot fail");
        out
    }

    /// Writes the snapshot as `<dir>/<date>.json`, atomically: a temporary file in the
    /// same folder, flushed to disk, then renamed over the target. A failure at any
    /// point leaves every existing snapshot as it was.
    pub fn write_into(&self, dir: &Path, overwrite: bool) -> Result<PathBuf, Error> {
        write_streaming(dir, &self.header, overwrite, self.items.iter().map(Ok))
    }
}

/// The suffix of a stored snapshot kept compressed: `DATE.json.gz`, gzip of the very bytes
/// `DATE.json` held, read as it is by every command (docs/deploy.md, "Snapshots kept").
pub(crate) const COMPRESSED_SUFFIX: &str = ".json.gz";

/// The date a stored snapshot's file name gives: `DATE.json` or `DATE.json.gz`.
pub fn date_of(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    let date = name.strip_suffix(COMPRESSED_SUFFIX).or_else(|| name.strip_suffix(".json"))?;
    parse_date(date).is_ok().then_some(date)
}

/// The stored snapshot of `date` in `dir`: `DATE.json`, else `DATE.json.gz` when only that
/// is there (`DATE.json` when neither is).
pub fn path_in(dir: &Path, date: &str) -> PathBuf {
    let plain = dir.join(format!("{date}.json"));
    let compressed = dir.join(format!("{date}{COMPRESSED_SUFFIX}"));
    if !plain.exists() && compressed.exists() {
        compressed
    } else {
        plain
    }
}

/// A snapshot stored in a file, and its date: the one date every layer uses.
///
/// A stored snapshot is named by its date (`DATE.json`, or `DATE.json.gz` kept
/// compressed), and every read of the file checks that its header says the same date. A
/// file named otherwise (a dump passed by its path) is dated by its header, and has no
/// history (content/method.md#duplicates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    path: PathBuf,
    date: String,
}

impl Stored {
    /// The snapshot stored at `path`: dated by its name, else by its header.
    pub fn at(path: &Path) -> Result<Stored, Error> {
        let date = match date_of(path) {
            Some(date) => date.to_owned(),
            None => read_header(path)?.date,
        };
        Ok(Stored { path: path.to_owned(), date })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// YYYY-MM-DD.
    pub fn date(&self) -> &str {
        &self.date
    }

    pub fn into_path(self) -> PathBuf {
        self.path
    }
}

/// `paths` as stored snapshots, each with its history: the snapshots stored in its
/// folder dated before it, oldest first. A file not named by its date has none. Each
/// folder is listed once, however many of `paths` it holds.
pub fn with_histories(paths: &[PathBuf]) -> Result<Vec<(Stored, Vec<Stored>)>, Error> {
    let mut folders: Vec<(PathBuf, Vec<Stored>)> = Vec::new();
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let stored = Stored::at(path)?;
        if date_of(path).is_none() {
            out.push((stored, Vec::new()));
            continue;
        }
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let at = match folders.iter().position(|(d, _)| *d == dir) {
            Some(at) => at,
            None => {
                folders.push((dir.clone(), list(&dir)?));
                folders.len() - 1
            }
        };
        let history = folders[at].1.iter().filter(|s| s.date < stored.date).cloned().collect();
        out.push((stored, history));
    }
    Ok(out)
}

/// The bytes of a stored snapshot as they were written, decompressed when the file is a
/// `.gz`, as a stream.
/// Why a stored snapshot could not be read: serde's words, or, for a file that begins
/// with a byte-order mark (an editor's doing), that.
fn unreadable(path: &Path, e: serde_json::Error) -> Error {
    let mut start = [0u8; 3];
    let bom = open(path).and_then(|mut r| r.read_exact(&mut start).map_err(|e| Error::io(path, e))).is_ok()
        && start == [0xEF, 0xBB, 0xBF];
    if bom {
        Error::input(
            path,
            "begins with a UTF-8 byte-order mark (bytes EF BB BF), which x402dir never writes: remove it",
        )
    } else {
        Error::input(path, format!("not an x402dir snapshot: {e}"))
    }
}

/// Only a regular file is opened: opening a pipe waits for a writer that may never
/// come, and a snapshot is read more than once.
fn open(path: &Path) -> Result<Box<dyn std::io::Read + Send>, Error> {
    let meta = fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::input(path, "is not a regular file (a pipe, a device or a folder): a snapshot is a file"));
    }
    let file = fs::File::open(path).map_err(|e| Error::io(path, e))?;
    if path.extension().is_some_and(|e| e == "gz") {
        Ok(Box::new(WholeGzip {
            decoder: flate2::bufread::GzDecoder::new(std::io::BufReader::with_capacity(1 << 20, file)),
            ended: false,
        }))
    } else {
        Ok(Box::new(file))
    }
}

/// A `.gz` read to its end and no further: bytes after the gzip stream (a second
/// member, or garbage) are an error naming their offset, never skipped silently.
struct WholeGzip {
    decoder: flate2::bufread::GzDecoder<std::io::BufReader<fs::File>>,
    ended: bool,
}

impl std::io::Read for WholeGzip {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.decoder.read(buf)?;
        if n == 0 && !buf.is_empty() && !self.ended {
            self.ended = true;
            let inner = self.decoder.get_mut();
            if !std::io::BufRead::fill_buf(inner)?.is_empty() {
                let at = std::io::Seek::stream_position(inner)?;
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("bytes after the end of the gzip stream, from byte {at}"),
                ));
            }
        }
        Ok(n)
    }
}

/// Reads and checks a stored snapshot, items as `I`.
fn read_file<I: serde::de::DeserializeOwned>(path: &Path) -> Result<Snapshot<I>, Error> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut open(path)?, &mut bytes).map_err(|e| Error::io(path, e))?;
    let file: File<I> = serde_json::from_slice(&bytes).map_err(|e| unreadable(path, e))?;
    check_header(path, &file.header, file.items.len())?;
    Ok(Snapshot { header: file.header, items: file.items })
}

/// The checks every read makes of a header, given how many items followed it.
fn check_header(path: &Path, h: &Header, items: usize) -> Result<(), Error> {
    if h.format != FORMAT_NAME {
        return Err(Error::input(path, format!("format is {:?}, expected {FORMAT_NAME:?}", h.format)));
    }
    if h.format_version != FORMAT_VERSION {
        return Err(Error::SourceUnavailable {
            what: format!(
                "{} is snapshot format {}, this x402dir reads format {FORMAT_VERSION}",
                path.display(),
                h.format_version
            ),
            fix: "re-import or re-fetch the snapshot with this version of x402dir".into(),
        });
    }
    parse_date(&h.date).map_err(|e| Error::input(path, e))?;
    if let Some(named) = date_of(path).filter(|named| *named != h.date) {
        return Err(Error::input(
            path,
            format!(
                "the file is named for {named} but its header says {}: a stored snapshot is named by its date; \
                 rename the file or import the dump again with --date",
                h.date
            ),
        ));
    }
    if h.item_count != items {
        return Err(Error::input(
            path,
            format!("header says {} items but the file holds {items}; the file is damaged", h.item_count),
        ));
    }
    Ok(())
}

/// An item as its JSON text, checked as JSON but not parsed.
pub(crate) type RawItem = Box<serde_json::value::RawValue>;

/// Items handed on per batch by [`read_in_batches`].
const ITEMS_PER_BATCH: usize = 4096;

/// Reads the stored snapshot at `path` from the file as a stream, handing `each` its
/// items as JSON text a batch at a time, in file order, and returns the checked header.
/// A million-item snapshot is 700 MB of text: read whole, that text and the listings
/// made from it sat in memory together, which set the build's peak. Here a thread
/// scans the file while `each` works on the batch before, and at most three batches
/// of text exist at once. The file is checked as [`Snapshot::read`] checks it; on an
/// error `each` may have seen some batches, which the caller then throws away.
pub fn read_in_batches(path: &Path, mut each: impl FnMut(Vec<RawItem>)) -> Result<Header, Error> {
    let file = open(path)?;
    let (send, batches) = std::sync::mpsc::sync_channel::<Vec<RawItem>>(1);
    let scanned = std::thread::scope(|scope| {
        let scanner = scope.spawn(move || {
            let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(1 << 20, file));
            let read =
                serde::de::DeserializeSeed::deserialize(stream::FileSeed { items: stream::Batches { send } }, &mut de)?;
            de.end().map(|()| read)
        });
        for batch in batches {
            each(batch);
        }
        scanner.join().expect("the scanner does not panic")
    });
    let (header, items) = scanned.map_err(|e| unreadable(path, e))?;
    check_header(path, &header, items)?;
    Ok(header)
}

/// The header of the stored snapshot at `path`, its items skipped unread (checked only as
/// JSON): what choosing a default snapshot needs.
pub fn read_header(path: &Path) -> Result<Header, Error> {
    let file = open(path)?;
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(1 << 20, file));
    let (header, items) = serde::de::DeserializeSeed::deserialize(stream::FileSeed { items: stream::Count }, &mut de)
        .and_then(|read| de.end().map(|()| read))
        .map_err(|e| unreadable(path, e))?;
    check_header(path, &header, items)?;
    Ok(header)
}

/// The serde side of [`read_in_batches`]: the file object, whose `items` array is
/// passed on in batches as it is scanned instead of collected.
mod stream {
    use std::fmt;
    use std::sync::mpsc::SyncSender;

    use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

    use super::{Header, RawItem, ITEMS_PER_BATCH};

    /// The file object: its header, and its `items` array read by `items`, which says
    /// how many there were (passed on in batches, or only counted).
    pub(crate) struct FileSeed<S> {
        pub(crate) items: S,
    }

    impl<'de, S: DeserializeSeed<'de, Value = usize>> DeserializeSeed<'de> for FileSeed<S> {
        /// The header and how many items the file held.
        type Value = (Header, usize);
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de, S: DeserializeSeed<'de, Value = usize>> Visitor<'de> for FileSeed<S> {
        type Value = (Header, usize);
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object with a header and items")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let (mut header, mut items, mut seed) = (None, None, Some(self.items));
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "header" => header = Some(map.next_value::<Header>()?),
                    "items" => {
                        let seed = seed.take().ok_or_else(|| de::Error::duplicate_field("items"))?;
                        items = Some(map.next_value_seed(seed)?);
                    }
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            let header = header.ok_or_else(|| de::Error::missing_field("header"))?;
            Ok((header, items.ok_or_else(|| de::Error::missing_field("items"))?))
        }
    }

    /// Counts the items, skipping each unread (checked only as JSON).
    pub(crate) struct Count;

    impl<'de> DeserializeSeed<'de> for Count {
        type Value = usize;
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
            Ok(<Vec<IgnoredAny> as serde::Deserialize>::deserialize(d)?.len())
        }
    }

    /// Passes the items on in batches of [`ITEMS_PER_BATCH`] as they are scanned.
    pub(crate) struct Batches {
        pub(crate) send: SyncSender<Vec<RawItem>>,
    }

    impl<'de> DeserializeSeed<'de> for Batches {
        type Value = usize;
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
            d.deserialize_seq(self)
        }
    }

    impl<'de> Visitor<'de> for Batches {
        type Value = usize;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an array of items")
        }
        fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<usize, S::Error> {
            let mut count = 0;
            let mut batch = Vec::with_capacity(ITEMS_PER_BATCH);
            while let Some(item) = seq.next_element::<RawItem>()? {
                batch.push(item);
                count += 1;
                if batch.len() == ITEMS_PER_BATCH {
                    self.send.send(std::mem::take(&mut batch)).map_err(de::Error::custom)?;
                    batch.reserve(ITEMS_PER_BATCH);
                }
            }
            if !batch.is_empty() {
                self.send.send(batch).map_err(de::Error::custom)?;
            }
            Ok(count)
        }
    }
}

/// The stored layout, item by item: a header line, then one item per line, into `out`
/// (the file `path`, named in errors: a full disk says which file). Returns how many
/// items were written.
fn write_snapshot<V: Serialize>(
    out: &mut impl Write,
    path: &Path,
    header: &Header,
    items: impl Iterator<Item = Result<V, Error>>,
) -> Result<usize, Error> {
    let io = |e: std::io::Error| Error::io(path, e);
    let json = |e: serde_json::Error| Error::io(path, e.into());
    out.write_all(b"{\"header\":").map_err(io)?;
    serde_json::to_writer(&mut *out, header).map_err(json)?;
    out.write_all(b",\n\"items\":[").map_err(io)?;
    let mut count = 0;
    for item in items {
        out.write_all(if count == 0 { b"\n" } else { b",\n" }).map_err(io)?;
        serde_json::to_writer(&mut *out, &item?).map_err(json)?;
        count += 1;
    }
    out.write_all(b"\n]}\n").map_err(io)?;
    Ok(count)
}

/// Writes `<dir>/<date>.json` from a header and items produced one at a time (so a
/// million generated items never sit in memory), atomically as `write_into` does. The
/// header's `item_count` must match the items given. Items given as JSON text
/// (`RawValue`) are written as they are, so must be compact: one item, one line.
pub(crate) fn write_streaming<V: Serialize>(
    dir: &Path,
    header: &Header,
    overwrite: bool,
    items: impl Iterator<Item = Result<V, Error>>,
) -> Result<PathBuf, Error> {
    parse_date(&header.date).map_err(Error::Refused)?;
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let target = dir.join(format!("{}.json", header.date));
    if target.exists() && !overwrite {
        return Err(exists(&target));
    }
    refuse_beside_compressed(dir, &header.date)?;
    let tmp = dir.join(format!(".{}.json.tmp-{}", header.date, std::process::id()));
    let result = (|| -> Result<(), Error> {
        let file = fs::File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        let count = write_snapshot(&mut w, &tmp, header, items)?;
        let file = w.into_inner().map_err(|e| Error::io(&tmp, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&tmp, e))?;
        if count != header.item_count {
            return Err(Error::Refused(format!("{count} items written but the header says {}", header.item_count)));
        }
        if overwrite {
            return fs::rename(&tmp, &target).map_err(|e| Error::io(&target, e));
        }
        // Without --force the final step must not replace a snapshot that another run
        // wrote meanwhile (the check above is long past for a large import): a hard link
        // is made only where no file is, atomically.
        match fs::hard_link(&tmp, &target) {
            Ok(()) => {
                let _ = fs::remove_file(&tmp);
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(exists(&target)),
            // A file system without hard links: the rename, after one more look.
            Err(_) if !target.exists() => fs::rename(&tmp, &target).map_err(|e| Error::io(&target, e)),
            Err(_) => Err(exists(&target)),
        }
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(target)
}

/// A snapshot is never written beside the compressed one of its date: two files of one
/// date would leave which one is meant to chance.
pub(crate) fn refuse_beside_compressed(dir: &Path, date: &str) -> Result<(), Error> {
    let compressed = dir.join(format!("{date}{COMPRESSED_SUFFIX}"));
    if compressed.exists() {
        return Err(Error::Refused(format!(
            "{} is stored already, compressed; remove it first to store {date} again",
            compressed.display()
        )));
    }
    Ok(())
}

fn exists(target: &Path) -> Error {
    Error::Refused(format!(
        "{} already exists; pass --force to replace it (the old file is kept until the new one is complete)",
        target.display()
    ))
}

/// The snapshots stored in `dir` (named YYYY-MM-DD.json, or YYYY-MM-DD.json.gz when kept
/// compressed), oldest first. One date stored both ways is an error.
pub fn list(dir: &Path) -> Result<Vec<Stored>, Error> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let path = entry.path();
        if let Some(date) = date_of(&path) {
            found.push(Stored { date: date.to_owned(), path });
        }
    }
    found.sort_by(|a, b| (&a.date, &a.path).cmp(&(&b.date, &b.path)));
    if let Some(pair) = found.windows(2).find(|w| w[0].date == w[1].date) {
        return Err(Error::Refused(format!(
            "{} and {} are the same date stored twice; keep one",
            pair[0].path.display(),
            pair[1].path.display()
        )));
    }
    Ok(found)
}

/// The newest snapshot in `dir`, or SOURCE_UNAVAILABLE saying how to get one.
pub fn latest(dir: &Path) -> Result<Stored, Error> {
    list(dir)?.pop().ok_or_else(|| none_stored(dir))
}

fn none_stored(dir: &Path) -> Error {
    Error::SourceUnavailable {
        what: format!("no snapshot found in {}", dir.display()),
        fix: "run `x402dir fetch` to walk the catalogue, `x402dir import FILE --date YYYY-MM-DD` to import a dump, \
              or pass --snapshot PATH"
            .into(),
    }
}

/// The snapshot answers come from when none is named, with its history: the newest
/// complete one (the walk covered the catalogue's reported total), or the newest when
/// none is complete. A partial snapshot is never the default while a complete one is
/// stored, and every answer from one says it is partial (content/method.md#limits).
pub fn default_choice(dir: &Path) -> Result<(Stored, Vec<Stored>), Error> {
    let mut stored = list(dir)?;
    let mut chosen = None;
    for (k, snapshot) in stored.iter().enumerate().rev() {
        if read_header(&snapshot.path)?.complete {
            chosen = Some(k);
            break;
        }
    }
    let newest = stored.len().checked_sub(1).ok_or_else(|| none_stored(dir))?;
    let k = chosen.unwrap_or(newest);
    stored.truncate(k + 1);
    let snapshot = stored.pop().expect("k is within the list");
    Ok((snapshot, stored))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands() {
        for (n, want) in [(0, "0"), (999, "999"), (1000, "1,000"), (15155, "15,155"), (1234567, "1,234,567")] {
            assert_eq!(grouped(n), want);
        }
    }

    #[test]
    fn a_partial_snapshot_is_labelled_by_what_it_holds_and_what_was_reported() {
        let mut h = sample("2026-08-20").header;
        h.item_count = 20;
        h.reported_total = Some(15155);
        h.complete = true;
        assert_eq!(h.partial_label(), None);
        h.complete = false;
        assert_eq!(h.partial_label().unwrap(), "partial: 20 of 15,155 listings");
        h.reported_total = Some(20);
        assert_eq!(
            h.partial_label().unwrap(),
            "partial: 20 listings, from a walk that did not reach the catalogue's end"
        );
        h.reported_total = None;
        assert!(h.partial_label().unwrap().starts_with("partial: 20 listings"));
    }

    fn sample(date: &str) -> Snapshot {
        let items: Vec<Value> = vec![
            serde_json::from_str(r#"{"resource":"https://b.example","accepts":[{"amount":"123456789012345678901234567890"}],"z":1,"a":2}"#).unwrap(),
            serde_json::from_str(r#"{"resource":"https://a.example","x":1.50}"#).unwrap(),
        ];
        Snapshot {
            header: Header {
                format: FORMAT_NAME.into(),
                format_version: FORMAT_VERSION,
                date: date.into(),
                source: Source {
                    url: "https://x.example/resources".into(),
                    via: "import".into(),
                    file: None,
                    shape: None,
                    sha256: None,
                },
                taken_at: None,
                recorded_at: "2026-01-01T00:00:00Z".into(),
                reported_total: Some(2),
                complete: true,
                item_count: items.len(),
                notes: vec![],
            },
            items,
        }
    }

    fn tempdir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("x402dir-test-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn round_trip_keeps_items_exactly() {
        let dir = tempdir("roundtrip");
        let s = sample("2025-12-31");
        let path = s.write_into(&dir, false).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        // Key order and number text survive exactly.
        assert!(text.contains(
            r#"{"resource":"https://b.example","accepts":[{"amount":"123456789012345678901234567890"}],"z":1,"a":2}"#
        ));
        assert!(text.contains(r#""x":1.50"#));
        assert_eq!(Snapshot::read(&path).unwrap(), s);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Reads `path` in batches and returns every item's text in order, with the size
    /// of each batch.
    fn streamed(path: &Path) -> Result<(Header, Vec<String>, Vec<usize>), Error> {
        let (mut items, mut sizes) = (Vec::new(), Vec::new());
        let header = read_in_batches(path, |batch| {
            sizes.push(batch.len());
            items.extend(batch.iter().map(|i| i.get().to_owned()));
        })?;
        Ok((header, items, sizes))
    }

    #[test]
    fn streamed_reading_gives_every_item_in_order_in_bounded_batches() {
        let dir = tempdir("stream");
        let mut s = sample("2025-12-31");
        let n = ITEMS_PER_BATCH * 2 + 5;
        s.items = (0..n).map(|i| serde_json::json!({"resource": format!("https://{i}.example"), "n": i})).collect();
        s.header.item_count = n;
        let path = s.write_into(&dir, false).unwrap();
        let (header, items, sizes) = streamed(&path).unwrap();
        assert_eq!(header, s.header);
        let whole: Vec<String> = Snapshot::read(&path).unwrap().items.iter().map(|v| v.to_string()).collect();
        assert_eq!(items, whole);
        assert_eq!(sizes, vec![ITEMS_PER_BATCH, ITEMS_PER_BATCH, 5]);
        // Not only the one-item-per-line layout: any JSON with a header and items reads.
        fs::write(
            &path,
            serde_json::to_vec_pretty(&serde_json::json!({"items": s.items, "header": s.header})).unwrap(),
        )
        .unwrap();
        assert_eq!(streamed(&path).unwrap().1.len(), n);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn streamed_reading_fails_clearly_on_damaged_files() {
        let dir = tempdir("stream-damaged");
        let path = sample("2025-12-31").write_into(&dir, false).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replace("\"item_count\":2", "\"item_count\":3")).unwrap();
        assert!(streamed(&path).unwrap_err().to_string().contains("damaged"));
        fs::write(&path, &text[..text.len() - 10]).unwrap();
        assert!(streamed(&path).unwrap_err().to_string().contains("not an x402dir snapshot"));
        fs::write(&path, text.replace("x402dir-snapshot", "other")).unwrap();
        assert!(streamed(&path).unwrap_err().to_string().contains("format is"));
        fs::write(&path, "{\"items\": []}").unwrap();
        assert!(streamed(&path).unwrap_err().to_string().contains("header"));
        fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(streamed(&path), Err(Error::Io { .. })));
    }

    #[test]
    fn existing_snapshot_is_not_overwritten_without_force() {
        let dir = tempdir("noclobber");
        let s = sample("2025-12-31");
        let path = s.write_into(&dir, false).unwrap();
        let before = fs::read(&path).unwrap();
        let mut other = sample("2025-12-31");
        other.items.pop();
        other.header.item_count = 1;
        let err = other.write_into(&dir, false).unwrap_err();
        assert!(err.to_string().contains("--force"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before);
        other.write_into(&dir, true).unwrap();
        assert_eq!(Snapshot::read(&path).unwrap().items.len(), 1);
        // No temporary files are left behind.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A second import writes the same date while the first is still writing: the first
    /// must not replace it at its end (the check before writing passed long before).
    #[test]
    fn a_snapshot_written_meanwhile_is_not_replaced_without_force() {
        let dir = tempdir("norace");
        fs::create_dir_all(&dir).unwrap();
        let s = sample("2025-12-31");
        let target = dir.join("2025-12-31.json");
        let meanwhile = || {
            fs::write(&target, b"written meanwhile").unwrap();
            Ok(&s.items[0])
        };
        let items = std::iter::once_with(meanwhile).chain(s.items[1..].iter().map(Ok));
        let err = write_streaming(&dir, &s.header, false, items).unwrap_err();
        assert!(err.to_string().contains("--force"), "{err}");
        assert_eq!(fs::read(&target).unwrap(), b"written meanwhile");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_write_that_fails_names_its_file() {
        let mut full = std::io::BufWriter::with_capacity(0, FullDisk);
        let s = sample("2025-12-31");
        let err = write_snapshot(&mut full, Path::new("/snapshots/.tmp"), &s.header, s.items.iter().map(Ok));
        let err = err.unwrap_err().to_string();
        assert!(err.starts_with("/snapshots/.tmp: ") && err.contains("No space left"), "{err}");
    }

    /// A disk that is full.
    struct FullDisk;

    impl Write for FullDisk {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(28))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn latest_picks_the_newest_date_and_ignores_other_files() {
        let dir = tempdir("latest");
        assert!(matches!(latest(&dir), Err(Error::SourceUnavailable { .. })));
        sample("2025-12-18").write_into(&dir, false).unwrap();
        sample("2026-08-20").write_into(&dir, false).unwrap();
        fs::write(dir.join("notes.json"), "{}").unwrap();
        fs::write(dir.join("2099-13-01.json"), "{}").unwrap();
        assert_eq!(latest(&dir).unwrap().into_path(), dir.join("2026-08-20.json"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_default_is_the_newest_complete_snapshot() {
        let dir = tempdir("default");
        let partial = |date: &str| {
            let mut s = sample(date);
            s.header.complete = false;
            s.header.reported_total = Some(15155);
            s
        };
        partial("2025-12-01").write_into(&dir, false).unwrap();
        // No complete snapshot: the newest, which answers say is partial.
        partial("2025-12-18").write_into(&dir, false).unwrap();
        assert_eq!(default_choice(&dir).unwrap().0.into_path(), dir.join("2025-12-18.json"));
        sample("2025-12-31").write_into(&dir, false).unwrap();
        partial("2026-08-20").write_into(&dir, false).unwrap();
        assert_eq!(latest(&dir).unwrap().into_path(), dir.join("2026-08-20.json"));
        assert_eq!(default_choice(&dir).unwrap().0.into_path(), dir.join("2025-12-31.json"));
        // The header alone is read, and checked as the full read checks it.
        let h = read_header(&dir.join("2026-08-20.json")).unwrap();
        assert_eq!((h.date.as_str(), h.complete, h.item_count), ("2026-08-20", false, 2));
        let path = dir.join("2026-08-20.json");
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replace("\"item_count\":2", "\"item_count\":3")).unwrap();
        assert!(read_header(&path).unwrap_err().to_string().contains("damaged"));
        assert!(default_choice(&dir).unwrap_err().to_string().contains("damaged"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_files_are_clear_errors() {
        let dir = tempdir("damaged");
        let path = sample("2025-12-31").write_into(&dir, false).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replace("\"item_count\":2", "\"item_count\":3")).unwrap();
        assert!(Snapshot::read(&path).unwrap_err().to_string().contains("damaged"));
        fs::write(&path, &text[..text.len() / 2]).unwrap();
        assert!(Snapshot::read(&path).unwrap_err().to_string().contains("not an x402dir snapshot"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates_must_be_real() {
        assert!(parse_date("2025-12-31").is_ok());
        for bad in ["2025-02-30", "2025-13-01", "25-12-31", "2025-1-1", "2025-12-31T00:00:00Z", "../x"] {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
    }
}
