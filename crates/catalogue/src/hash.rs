//! FNV-1a, the one hash both languages compute: a few lines in Rust and in the composer,
//! so the two cannot disagree about which file holds a word (method::names), and cheap
//! enough to derive stable synthetic addresses from a host (catalogue::synth). And the
//! one way bytes are written as hex.

/// FNV-1a, 32 bits, over the UTF-8 bytes of `key`.
pub fn fnv1a32(key: &str) -> u32 {
    key.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

/// `bytes` as lower-case hex, two digits a byte: how every digest and byte-named file
/// is written (content/method.md#json, token files; the lock's sums).
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xab, 0xff]), "000fabff");
        assert_eq!(hex(&[]), "");
    }

    /// The published test vectors of FNV-1a 32.
    #[test]
    fn known_values() {
        assert_eq!(fnv1a32(""), 0x811c9dc5);
        assert_eq!(fnv1a32("a"), 0xe40c292c);
        assert_eq!(fnv1a32("foobar"), 0xbf9cf968);
    }
}
