//! The static per-word vector table distilled from all-MiniLM-L6-v2 (content/explore.md#dense).
//!
//! `tools/vectors/regenerate.sh` embeds every word of the corpus and of the model's
//! own vocabulary, one word at a time, reduces the 384 dimensions to [`DIMS`] by PCA and
//! stores each as signed bytes. Documents and queries are embedded as weighted sums of
//! these rows, so the browser needs only the rows of the query's words.

use std::sync::OnceLock;

use catalogue::Error;

/// Dimensions of a stored word vector.
pub const DIMS: usize = 128;

static WORDS: &str = include_str!("../../../content/explore/vectors/words.txt");
static VECTORS: &[u8] = include_bytes!("../../../content/explore/vectors/vectors.i8");
/// What model, package and files the table was made from (checksums included).
pub static PROVENANCE: &str = include_str!("../../../content/explore/vectors/provenance.json");

#[derive(Debug, Clone)]
pub struct VectorTable {
    /// Sorted by UTF-8 bytes, unique.
    words: Vec<String>,
    rows: Vec<[i8; DIMS]>,
}

impl VectorTable {
    /// The table compiled into this binary.
    pub fn embedded() -> &'static VectorTable {
        static TABLE: OnceLock<VectorTable> = OnceLock::new();
        TABLE.get_or_init(|| VectorTable::parse(WORDS, VECTORS).expect("the embedded vector table is well formed"))
    }

    /// Reads a table: one word per line (sorted, unique) and `DIMS` signed bytes a word.
    pub(crate) fn parse(words: &str, vectors: &[u8]) -> Result<VectorTable, Error> {
        let words: Vec<String> = words.lines().map(str::to_owned).collect();
        let bad = |why: String| Error::content("content/explore/vectors", 0, &why);
        if vectors.len() != words.len() * DIMS {
            return Err(bad(format!("{} words but {} bytes of vectors", words.len(), vectors.len())));
        }
        if let Some(pair) = words.windows(2).find(|p| p[0].as_bytes() >= p[1].as_bytes()) {
            return Err(bad(format!("words not sorted and unique at {:?}", pair[1])));
        }
        let rows = vectors
            .chunks_exact(DIMS)
            .map(|chunk| {
                let mut row = [0i8; DIMS];
                for (r, b) in row.iter_mut().zip(chunk) {
                    *r = *b as i8;
                }
                row
            })
            .collect();
        Ok(VectorTable { words, rows })
    }

    pub fn get(&self, word: &str) -> Option<&[i8; DIMS]> {
        self.words.binary_search_by(|w| w.as_bytes().cmp(word.as_bytes())).ok().map(|i| &self.rows[i])
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn words(&self) -> impl Iterator<Item = (&str, &[i8; DIMS])> {
        self.words.iter().map(String::as_str).zip(self.rows.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_must_be_sorted_and_complete() {
        let bytes = vec![1u8; 2 * DIMS];
        let t = VectorTable::parse("alpha\nbeta\n", &bytes).unwrap();
        assert_eq!(t.get("beta").unwrap()[0], 1);
        assert!(t.get("gamma").is_none());
        assert!(VectorTable::parse("beta\nalpha\n", &bytes).is_err());
        assert!(VectorTable::parse("alpha\n", &bytes).is_err());
    }
}
