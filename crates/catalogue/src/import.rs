//! `x402dir import`: turn a catalogue dump of any known shape into a stored snapshot.
//!
//! Shapes understood:
//! - a raw API page: `{"items": [...], "pagination": {"limit", "offset", "total"}}`;
//! - a crawler cache: `{"resources": [...], "total", "crawledAt", "partial"}`;
//! - a bare array of items.

use std::fs;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::snapshot::{self, now_rfc3339, parse_date, Header, Snapshot, Source, FORMAT_NAME, FORMAT_VERSION};
use crate::error::Error;

/// The public discovery endpoint every dump was taken from.
pub const CDP_DISCOVERY_URL: &str = "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources";

/// Largest dump accepted, in bytes (a million items of the live catalogue is ~1.7 GB).
pub(crate) const MAX_DUMP_BYTES: u64 = 4 << 30;
/// Most items accepted in one dump.
pub(crate) const MAX_ITEMS: usize = 5_000_000;
/// Largest value read whole beside the items (`pagination`, `total`, `partial`,
/// `crawledAt`): each is a few bytes in a real dump.
const MAX_FIELD_BYTES: usize = 64 << 10;

/// What an import may do besides reading the dump.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Replace an existing snapshot of the same date (`--force`).
    pub overwrite: bool,
    /// Store a dump with no items (`--allow-empty`). Without it an empty dump is
    /// refused: stored, it would be a complete snapshot of nothing and become `latest/`.
    pub allow_empty: bool,
}

/// Imports the dump at `path` as the snapshot `<dir>/<date>.json`, reading it as a
/// stream: once to check it and learn its header, once to write its items one at a
/// time, so memory holds one item, not the dump (whole, a dump took about 12 times its
/// size). Returns the snapshot's path and header.
pub fn import_into(path: &Path, date: &str, dir: &Path, options: &Options) -> Result<(PathBuf, Header), Error> {
    let (header, readable) = scan_file(path, date)?;
    if readable == 0 && !options.allow_empty {
        return Err(empty_dump(path, header.item_count));
    }
    let items = |send: &dyn Fn(Value) -> bool| -> Result<usize, Error> {
        let reader = BufReader::with_capacity(1 << 20, Utf8Lossy::new(open(path)?));
        let (_, count) = read_dump(reader, list_of(&header), &mut |item| {
            if send(item) {
                Ok(())
            } else {
                Err("the writer stopped".to_owned())
            }
        })
        .map_err(|e| Error::input(path, e))?;
        check_count(path, &header, count)?;
        Ok(count)
    };
    let written = with_items(items, |items| snapshot::write_streaming(dir, &header, options.overwrite, items))?;
    Ok((written, header))
}

/// Reads a dump file whole and builds a snapshot dated `date` in memory (for small
/// dumps and tests; `import_into` streams).
pub fn import_file(path: &Path, date: &str) -> Result<Snapshot, Error> {
    let (header, readable) = scan_file(path, date)?;
    if readable == 0 {
        return Err(empty_dump(path, header.item_count));
    }
    let mut items = Vec::with_capacity(header.item_count);
    let reader = BufReader::with_capacity(1 << 20, Utf8Lossy::new(open(path)?));
    read_dump(reader, list_of(&header), &mut |item| {
        items.push(item);
        Ok(())
    })
    .map_err(|e| Error::input(path, e))?;
    check_count(path, &header, items.len())?;
    Ok(Snapshot { header, items })
}

/// Builds a snapshot from the bytes of a dump. `name` is recorded as the source file.
pub fn import_bytes(bytes: &[u8], name: &str, date: &str) -> Result<Snapshot, String> {
    let (header, readable) = scan(bytes, name, date)?;
    if readable == 0 {
        return Err(empty_message(header.item_count));
    }
    let mut items = Vec::with_capacity(header.item_count);
    read_dump(Utf8Lossy::new(bytes), list_of(&header), &mut |item| {
        items.push(item);
        Ok(())
    })?;
    Ok(Snapshot { header, items })
}

/// Why a dump with no listing to rank is refused, whatever its header says.
fn empty_message(items: usize) -> String {
    let held = match items {
        0 => "the dump holds no items".to_owned(),
        n => format!("none of the dump's {n} items is a listing that can be read (each lacks a usable resource URL)"),
    };
    format!(
        "{held}: stored, it would be a snapshot with nothing to rank and could become latest/; \
         pass --allow-empty if an empty snapshot is meant"
    )
}

fn empty_dump(path: &Path, items: usize) -> Error {
    Error::input(path, empty_message(items))
}

fn open(path: &Path) -> Result<fs::File, Error> {
    fs::File::open(path).map_err(|e| Error::io(path, e))
}

/// The list whose items a dump of this header's shape holds (`None`: the dump is one).
fn list_of(header: &Header) -> Option<&'static str> {
    match header.source.shape.as_deref() {
        Some("api-page") => Some("items"),
        Some("crawler-cache") => Some("resources"),
        _ => None,
    }
}

fn check_count(path: &Path, header: &Header, count: usize) -> Result<(), Error> {
    if count != header.item_count {
        return Err(Error::input(
            path,
            format!(
                "{count} items on the second reading, {} on the first: the file changed during the import",
                header.item_count
            ),
        ));
    }
    Ok(())
}

/// The first reading of a dump file: its size checked, its header made, and how many
/// of its items read as a listing.
fn scan_file(path: &Path, date: &str) -> Result<(Header, usize), Error> {
    parse_date(date).map_err(Error::Refused)?;
    let meta = fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        // A pipe gives its bytes once, and the import reads the dump twice (content/method.md#import).
        return Err(Error::input(
            path,
            "is not a regular file (a pipe, a device or a folder): the import reads a dump twice, so save it to a file first",
        ));
    }
    let size = meta.len();
    if size > MAX_DUMP_BYTES {
        return Err(Error::input(path, format!("{size} bytes is more than the {MAX_DUMP_BYTES} a dump may have")));
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("dump").to_owned();
    scan(BufReader::with_capacity(1 << 20, open(path)?), &name, date).map_err(|message| Error::input(path, message))
}

/// Reads a whole dump once, every item parsed and let go, and makes the snapshot's
/// header: shape, counts, totals, notes, the checksum of the bytes as received; with
/// how many items read as a listing (a resource URL, content/method.md#reading).
fn scan(raw: impl Read, name: &str, date: &str) -> Result<(Header, usize), String> {
    parse_date(date)?;
    let mut hashing = Hashing { inner: raw, sha: Sha256::new() };
    let mut lossy = Utf8Lossy::new(&mut hashing);
    let mut readable = 0;
    let (dump, count) = read_dump(BufReader::with_capacity(1 << 16, &mut lossy), None, &mut |item| {
        readable += usize::from(crate::model::Resource::from_value(&item).is_ok());
        Ok(())
    })?;
    let invalid = lossy.replaced;
    let bom = lossy.bom == Some(true);
    let sha256 = crate::hash::hex(&hashing.sha.finalize());
    let mut notes = Vec::new();
    // Invalid UTF-8 would make the whole dump unreadable; the bad bytes were replaced
    // with U+FFFD instead, so one broken description loses nothing else: say so.
    if invalid > 0 {
        notes.push(format!("{invalid} invalid UTF-8 sequences in the dump were replaced with U+FFFD"));
    }
    if bom {
        notes.push("the dump began with a UTF-8 byte-order mark, which was skipped".to_owned());
    }
    let number = |field: &Option<Value>, key: &str| field.as_ref().and_then(|v| v.get(key)).and_then(Value::as_u64);
    let (shape, reported_total, complete, taken_at) = match dump.shape {
        Shape::Array => {
            notes.push("imported from a bare list of items: the source's total is unknown, so the snapshot is not marked complete".to_owned());
            ("array", None, false, None)
        }
        Shape::Page => {
            let total = number(&dump.pagination, "total");
            let offset = number(&dump.pagination, "offset").unwrap_or(0);
            let complete = offset == 0 && total == Some(count as u64);
            if !complete {
                notes.push(format!(
                    "one API page (offset {offset}) of {count} items; the API reported {}",
                    total.map_or("no total".to_owned(), |t| format!("a total of {t}"))
                ));
            }
            ("api-page", total, complete, None)
        }
        Shape::Crawl => {
            let total = dump.total.as_ref().and_then(Value::as_u64);
            let partial = dump.partial.as_ref().and_then(Value::as_bool).unwrap_or(true);
            let crawled = dump.crawled_at.as_ref().and_then(Value::as_str).map(str::to_owned);
            notes.push(
                "imported from a crawler cache: its `total` is the crawler's own count, not the API's".to_owned(),
            );
            if partial {
                notes.push("the crawler marked this sweep partial (cut off before the end)".to_owned());
            }
            ("crawler-cache", total, !partial && total == Some(count as u64), crawled)
        }
    };
    let header = Header {
        format: FORMAT_NAME.into(),
        format_version: FORMAT_VERSION,
        date: date.to_owned(),
        source: Source {
            url: CDP_DISCOVERY_URL.into(),
            via: "import".into(),
            file: Some(name.to_owned()),
            shape: Some(shape.into()),
            sha256: Some(sha256),
        },
        taken_at,
        recorded_at: now_rfc3339(),
        reported_total,
        complete,
        item_count: count,
        notes,
    };
    Ok((header, readable))
}

/// Hands `items` to `write` as an iterator while a scoped thread reads them (the
/// reading is push-based, the writer pulls); at most a few hundred items are in flight.
/// The iterator owns the receiving end, so a writer that stops early (the date exists,
/// the disk is full) drops it and the reader's next send fails: the reader cannot wait
/// on a writer that is gone.
fn with_items<T>(
    read: impl FnOnce(&dyn Fn(Value) -> bool) -> Result<usize, Error> + Send,
    write: impl FnOnce(&mut dyn Iterator<Item = Result<Value, Error>>) -> Result<T, Error>,
) -> Result<T, Error> {
    let (send, received) = std::sync::mpsc::sync_channel::<Value>(256);
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || read(&|item| send.send(item).is_ok()));
        let mut items = received.into_iter().map(Ok);
        let written = write(&mut items);
        drop(items);
        let read = reader.join().expect("the reader does not panic");
        match (written, read) {
            (Err(e), _) | (Ok(_), Err(e)) => Err(e),
            (Ok(t), Ok(_)) => Ok(t),
        }
    })
}

/// The dump's shape and the fields read beside its items.
#[derive(Default)]
struct Dump {
    shape: Shape,
    pagination: Option<Value>,
    total: Option<Value>,
    partial: Option<Value>,
    crawled_at: Option<Value>,
}

#[derive(Default, Clone, Copy, PartialEq)]
enum Shape {
    #[default]
    Array,
    Page,
    Crawl,
}

type ItemSink<'s> = dyn FnMut(Value) -> Result<(), String> + 's;

/// Reads a dump from `reader` (UTF-8 text), handing `each` its items in order.
/// Returns the shape and fields, and how many items there were.
fn read_dump(reader: impl Read, only: Option<&'static str>, each: &mut ItemSink) -> Result<(Dump, usize), String> {
    let mut de = serde_json::Deserializer::from_reader(reader);
    let read = DumpSeed { each, only }.deserialize(&mut de).and_then(|read| de.end().map(|()| read));
    match read {
        Ok(Ok(read)) => Ok(read),
        Ok(Err(message)) => Err(message),
        Err(e) if e.is_io() => Err(format!("could not be read: {e}")),
        Err(e) => {
            let message = e.to_string();
            // The sink's and the shape's own errors come through serde as custom text.
            match message.strip_prefix(CUSTOM) {
                Some(own) => Err(own.split(" at line ").next().unwrap_or(own).to_owned()),
                None => Err(format!("not valid JSON: {message}")),
            }
        }
    }
}

/// Marks an error this module made (not a JSON syntax error) in serde's error text.
const CUSTOM: &str = "x402dir: ";

fn custom<E: de::Error>(message: impl std::fmt::Display) -> E {
    E::custom(format!("{CUSTOM}{message}"))
}

struct DumpSeed<'a, 's> {
    each: &'a mut ItemSink<'s>,
    /// The one list (`items` or `resources`) whose items go to `each`; `None`: any.
    only: Option<&'static str>,
}

impl<'de> DeserializeSeed<'de> for DumpSeed<'_, '_> {
    type Value = Result<(Dump, usize), String>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DumpSeed<'_, '_> {
    type Value = Result<(Dump, usize), String>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object or list")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        Ok(Ok((Dump::default(), items_of(seq, self.each)?)))
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut dump = Dump::default();
        let (mut items, mut resources): (Option<Option<usize>>, Option<Option<usize>>) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "items" | "resources" => {
                    let seen = if key == "items" { &mut items } else { &mut resources };
                    if seen.is_some() {
                        return Err(custom(format!("the dump has two `{key}` fields")));
                    }
                    // Every list is read on the first reading; the second hands on
                    // only the one the first chose.
                    let each = match self.only {
                        Some(only) if only != key => None,
                        _ => Some(&mut *self.each),
                    };
                    *seen = Some(map.next_value_seed(ListOrOther { each })?);
                }
                "pagination" => dump.pagination = Some(small(&mut map, &key)?),
                "total" => dump.total = Some(small(&mut map, &key)?),
                "partial" => dump.partial = Some(small(&mut map, &key)?),
                "crawledAt" => dump.crawled_at = Some(small(&mut map, &key)?),
                // A number at the top level: arbitrary_precision hands it on as a map.
                NUMBER_TOKEN => {
                    map.next_value::<IgnoredAny>()?;
                    return Ok(Err(TOP_LEVEL.into()));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        // `items` comes first when both are lists: the shape of an API page.
        let count = match (items.flatten(), resources.flatten()) {
            (Some(n), _) => {
                dump.shape = Shape::Page;
                n
            }
            (None, Some(n)) => {
                dump.shape = Shape::Crawl;
                n
            }
            (None, None) => {
                return Ok(Err("expected a catalogue page ({\"items\": [...]}), a crawler cache ({\"resources\": [...]}) or a list of items".into()))
            }
        };
        Ok(Ok((dump, count)))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Err(TOP_LEVEL.into()))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Err(TOP_LEVEL.into()))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Err(TOP_LEVEL.into()))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Err(TOP_LEVEL.into()))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Err(TOP_LEVEL.into()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err(TOP_LEVEL.into()))
    }
}

const TOP_LEVEL: &str = "expected a JSON object or list at the top level";

/// A field read whole beside the items, refused when far larger than a real one.
fn small<'de, M: MapAccess<'de>>(map: &mut M, key: &str) -> Result<Value, M::Error> {
    let raw: Box<RawValue> = map.next_value()?;
    if raw.get().len() > MAX_FIELD_BYTES {
        return Err(custom(format!("`{key}` is {} bytes; in a dump it is a few", raw.get().len())));
    }
    serde_json::from_str(raw.get()).map_err(custom)
}

/// A JSON value that refuses an object holding one key twice: serde_json would keep the
/// last silently, so two readers of the same dump could read two listings.
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Value, S::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Value, M::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            // arbitrary_precision hands a number on as a map of this one key.
            if key == NUMBER_TOKEN {
                let digits: String = map.next_value()?;
                return digits.parse::<serde_json::Number>().map(Value::Number).map_err(custom);
            }
            if object.contains_key(&key) {
                return Err(custom(format!("an item holds the key `{key}` twice in one object")));
            }
            let value = map.next_value_seed(Strict)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// One item's JSON text as a value, refused when an object holds a key twice (the walk's
/// pages are read with the same rule as a dump).
pub(crate) fn strict_item(bytes: &[u8]) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    Strict.deserialize(&mut de).and_then(|v| de.end().map(|()| v)).map_err(|e| {
        let message = e.to_string();
        message.strip_prefix(CUSTOM).unwrap_or(&message).to_owned()
    })
}

/// The items of a list, each handed on as it is parsed.
fn items_of<'de, S: SeqAccess<'de>>(mut seq: S, each: &mut ItemSink) -> Result<usize, S::Error> {
    let mut count = 0;
    while let Some(item) = seq.next_element_seed(Strict)? {
        count += 1;
        if count > MAX_ITEMS {
            return Err(custom(format!("more than the {MAX_ITEMS} items a dump may have")));
        }
        each(item).map_err(custom)?;
    }
    Ok(count)
}

/// A value that, when it is a list, holds items (handed to `each`, or only counted);
/// any other value is skipped (`None`), as a dump whose `items` is not a list is read.
struct ListOrOther<'a, 's> {
    each: Option<&'a mut ItemSink<'s>>,
}

impl<'de> DeserializeSeed<'de> for ListOrOther<'_, '_> {
    type Value = Option<usize>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ListOrOther<'_, '_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of items")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        match self.each {
            Some(each) => items_of(seq, each).map(Some),
            None => {
                let mut count = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    count += 1;
                }
                Ok(Some(count))
            }
        }
    }

    // An object (numbers come as one too, with arbitrary_precision) or a scalar.
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// Passes bytes through, hashing them: the checksum of the dump as received.
struct Hashing<R> {
    inner: R,
    sha: Sha256,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.sha.update(&buf[..n]);
        Ok(n)
    }
}

/// Reads UTF-8 text from bytes that may not be: each invalid sequence becomes U+FFFD,
/// exactly as `String::from_utf8_lossy` replaces them, but as a stream, a sequence cut
/// between two reads included. Counts what it replaced.
struct Utf8Lossy<R> {
    inner: R,
    /// Bytes read but not yet handed on, from `start`.
    pending: Vec<u8>,
    start: usize,
    /// Text ready to hand on (valid UTF-8).
    ready: Vec<u8>,
    at: usize,
    done: bool,
    replaced: usize,
    /// Whether the text began with a UTF-8 byte-order mark, which is skipped: editors on
    /// Windows write one, and JSON has no place for it.
    bom: Option<bool>,
}

impl<R: Read> Utf8Lossy<R> {
    fn new(inner: R) -> Utf8Lossy<R> {
        Utf8Lossy {
            inner,
            pending: Vec::new(),
            start: 0,
            ready: Vec::new(),
            at: 0,
            done: false,
            replaced: 0,
            bom: None,
        }
    }

    /// Reads more and moves what is decodable to `ready`.
    fn fill(&mut self) -> io::Result<()> {
        self.pending.drain(..self.start);
        self.start = 0;
        let had = self.pending.len();
        self.pending.resize(had + (64 << 10), 0);
        let n = loop {
            match self.inner.read(&mut self.pending[had..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.pending.truncate(had);
                    return Err(e);
                }
            }
        };
        self.pending.truncate(had + n);
        self.done = n == 0;
        self.ready.clear();
        self.at = 0;
        let mut rest = &self.pending[..];
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    self.ready.extend_from_slice(text.as_bytes());
                    rest = &[];
                    break;
                }
                Err(e) => {
                    self.ready.extend_from_slice(&rest[..e.valid_up_to()]);
                    match e.error_len() {
                        Some(bad) => {
                            self.ready.extend_from_slice("\u{fffd}".as_bytes());
                            self.replaced += 1;
                            rest = &rest[e.valid_up_to() + bad..];
                        }
                        // A sequence cut by the end of what was read: wait for the rest,
                        // unless there is no more.
                        None if self.done => {
                            self.ready.extend_from_slice("\u{fffd}".as_bytes());
                            self.replaced += 1;
                            rest = &[];
                            break;
                        }
                        None => {
                            rest = &rest[e.valid_up_to()..];
                            break;
                        }
                    }
                }
            }
        }
        self.start = self.pending.len() - rest.len();
        if self.bom.is_none() && (self.ready.len() >= 3 || self.done) {
            let bom = self.ready.starts_with("\u{feff}".as_bytes());
            if bom {
                self.at = 3;
            }
            self.bom = Some(bom);
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf8Lossy<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.ready.len() {
            if self.done {
                return Ok(0);
            }
            self.fill()?;
        }
        let n = buf.len().min(self.ready.len() - self.at);
        buf[..n].copy_from_slice(&self.ready[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_page_records_total_and_incompleteness() {
        let s = import_bytes(br#"{"items":[{"resource":"https://a"}],"pagination":{"limit":20,"offset":0,"total":15155},"x402Version":2}"#, "p.json", "2026-08-20").unwrap();
        assert_eq!(s.header.source.shape.as_deref(), Some("api-page"));
        assert_eq!(s.header.reported_total, Some(15155));
        assert!(!s.header.complete);
        assert_eq!(s.items.len(), 1);
    }

    #[test]
    fn full_single_page_is_complete() {
        let s = import_bytes(
            br#"{"items":[{"resource":"https://a"}],"pagination":{"limit":20,"offset":0,"total":1}}"#,
            "p.json",
            "2026-08-20",
        )
        .unwrap();
        assert!(s.header.complete);
    }

    #[test]
    fn crawler_cache_uses_partial_flag_and_crawl_time() {
        let s = import_bytes(
            br#"{"resources":[{"resource":"https://a"}],"total":1,"crawledAt":"2025-12-31T00:34:27Z","partial":false}"#,
            "c.json",
            "2025-12-31",
        )
        .unwrap();
        assert!(s.header.complete);
        assert_eq!(s.header.taken_at.as_deref(), Some("2025-12-31T00:34:27Z"));
        let s = import_bytes(
            br#"{"resources":[{"resource":"https://a"}],"total":1,"partial":true}"#,
            "c.json",
            "2025-12-31",
        )
        .unwrap();
        assert!(!s.header.complete);
    }

    #[test]
    fn bare_array_is_never_complete() {
        let s =
            import_bytes(br#"[{"resource":"https://a"},{"resource":"https://b"}]"#, "a.json", "2025-01-01").unwrap();
        assert!(!s.header.complete);
        assert_eq!(s.header.reported_total, None);
        assert_eq!(s.items.len(), 2);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let s = import_bytes(
            b"[{\"resource\":\"https://a\",\"description\":\"ok \xff\xfe ok\"},{\"resource\":\"https://b\"}]",
            "u.json",
            "2025-01-01",
        )
        .unwrap();
        assert_eq!(s.items.len(), 2);
        assert_eq!(s.items[0]["description"], "ok \u{fffd}\u{fffd} ok");
        assert!(s.header.notes.iter().any(|n| n.contains("2 invalid UTF-8")), "{:?}", s.header.notes);
        // The checksum is of the bytes as received.
        assert!(s.header.source.sha256.is_some());
    }

    #[test]
    fn deep_nesting_is_a_clear_error() {
        let deep = format!("[{{\"resource\":\"https://a\",\"x\":{}{}}}]", "[".repeat(500), "]".repeat(500));
        let e = import_bytes(deep.as_bytes(), "d.json", "2025-01-01").unwrap_err();
        assert!(e.contains("not valid JSON") && e.contains("recursion limit"), "{e}");
    }

    /// Hands out at most a few bytes per read, so sequences are cut between reads.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 = self.1 % 5 + 1;
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn the_streamed_replacement_is_from_utf8_lossy_s() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for case in 0..2000 {
            let bytes: Vec<u8> = (0..case % 40)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Mostly the bytes of multi-byte sequences, where cuts matter.
                    [b'a', 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x80][(x % 12) as usize]
                })
                .collect();
            let mut read = Utf8Lossy::new(Trickle(&bytes, case));
            let mut text = Vec::new();
            read.read_to_end(&mut text).unwrap();
            let expected = String::from_utf8_lossy(&bytes);
            assert_eq!(String::from_utf8(text).unwrap(), expected, "{bytes:x?}");
            assert_eq!(read.replaced, bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count(), "{bytes:x?}");
        }
    }

    #[test]
    fn an_empty_dump_is_refused_unless_allowed() {
        for empty in
            [&b"[]"[..], br#"{"items":[],"pagination":{"limit":20,"offset":0,"total":0}}"#, br#"{"resources":[]}"#]
        {
            let e = import_bytes(empty, "e.json", "2025-01-01").unwrap_err();
            assert!(e.contains("no items") && e.contains("--allow-empty"), "{e}");
        }
        let dir = std::env::temp_dir().join(format!("x402dir-import-unit-empty-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let dump = dir.join("empty.json");
        fs::write(&dump, "[]").unwrap();
        let refused = import_into(&dump, "2025-01-01", &dir, &Options::default()).unwrap_err();
        assert!(refused.to_string().contains("--allow-empty"), "{refused}");
        assert!(!dir.join("2025-01-01.json").exists());
        let allowed = Options { allow_empty: true, ..Options::default() };
        let (path, header) = import_into(&dump, "2025-01-01", &dir, &allowed).unwrap();
        assert_eq!((header.item_count, header.complete), (0, false));
        assert_eq!(Snapshot::read(&path).unwrap().items.len(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lists_that_are_not_items_and_repeated_fields() {
        // `items` that is not a list: the crawler's `resources` are the items.
        let s = import_bytes(
            br#"{"items":{"a":1},"resources":[{"resource":"https://a"}],"partial":false,"total":1}"#,
            "x",
            "2025-01-01",
        )
        .unwrap();
        assert_eq!((s.header.source.shape.as_deref(), s.items.len()), (Some("crawler-cache"), 1));
        // Both lists: `items`, wherever it comes.
        let s = import_bytes(
            br#"{"resources":[{"resource":"https://r"}],"items":[{"resource":"https://i"},{"resource":"https://j"}]}"#,
            "x",
            "2025-01-01",
        )
        .unwrap();
        assert_eq!(
            (s.header.source.shape.as_deref(), s.items[0]["resource"].as_str()),
            (Some("api-page"), Some("https://i"))
        );
        assert_eq!(s.items.len(), 2);
        let e = import_bytes(br#"{"items":[{"resource":"https://a"}],"items":[]}"#, "x", "2025-01-01").unwrap_err();
        assert_eq!(e, "the dump has two `items` fields");
        let e = import_bytes(
            format!(r#"{{"items":[{{}}],"pagination":"{}"}}"#, "x".repeat(100_000)).as_bytes(),
            "x",
            "2025-01-01",
        )
        .unwrap_err();
        assert!(e.starts_with("`pagination` is 100002 bytes"), "{e}");
        assert!(import_bytes(b"[{}] [{}]", "x", "2025-01-01").unwrap_err().contains("trailing characters"));
    }

    #[test]
    fn unknown_shapes_and_bad_dates_are_clear_errors() {
        assert!(import_bytes(b"{\"foo\":[]}", "x", "2025-01-01").unwrap_err().contains("expected a catalogue page"));
        for top in ["42", "1.5e400", "\"text\"", "true", "null"] {
            assert!(import_bytes(top.as_bytes(), "x", "2025-01-01").unwrap_err().contains("top level"), "{top}");
        }
        assert!(import_bytes(b"{\"items\":[", "x", "2025-01-01").unwrap_err().contains("not valid JSON"));
        assert!(import_bytes(b"[]", "x", "2025-1-1").unwrap_err().contains("YYYY-MM-DD"));
    }
}
