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
    let mut s = String::with_capacity(bytes.len() * 2);
    push_hex(&mut s, bytes);
    s
}

/// [`hex`] of `bytes` appended to `out`: a digit pair from a table rather than the
/// formatting machinery, since a build writes one for every row that names a resource.
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xab, 0xff]), "000fabff");
        assert_eq!(hex(&[]), "");
        let every: Vec<u8> = (0..=255).collect();
        let formatted: String = every.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&every), formatted);
    }

    /// The published test vectors of FNV-1a 32.
    #[test]
    fn known_values() {
        assert_eq!(fnv1a32(""), 0x811c9dc5);
        assert_eq!(fnv1a32("a"), 0xe40c292c);
        assert_eq!(fnv1a32("foobar"), 0xbf9cf968);
    }
}
