//! FNV-1a, the one hash both languages compute: a few lines in Rust and in the composer,
//! so the two cannot disagree about which file holds a word (method::names), and cheap
//! enough to derive stable synthetic addresses from a host (catalogue::synth).

/// FNV-1a, 32 bits, over the UTF-8 bytes of `key`.
pub fn fnv1a32(key: &str) -> u32 {
    key.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published test vectors of FNV-1a 32.
    #[test]
    fn known_values() {
        assert_eq!(fnv1a32(""), 0x811c9dc5);
        assert_eq!(fnv1a32("a"), 0xe40c292c);
        assert_eq!(fnv1a32("foobar"), 0xbf9cf968);
    }
}
