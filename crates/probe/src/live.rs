//! A live 402's payment requirements, read as the official SDKs read them, and the
//! listing's terms set beside them.
//!
//! `@x402/core` 2.27.0 (`x402HTTPClient.getPaymentRequiredResponse`): the
//! `PAYMENT-REQUIRED` header when there is one (base64 of JSON, checked against
//! `/^[A-Za-z0-9+/]*={0,2}$/` first); else a JSON body whose `x402Version` is 1 (as
//! `x402-express` 1.2.0 sends it). Each entry of `accepts` names `scheme`, `network`,
//! `asset` and `payTo`, and its amount as `amount` (version 2, `PaymentRequirementsV2Schema`)
//! or `maxAmountRequired` (version 1, `PaymentRequirementsV1Schema`), each a non-empty
//! string; `accepts` holds at least one. Anything else is a 402 without readable
//! requirements: no entry is guessed at.

use catalogue::model::Accept;
use method::assets::AssetTable;
use serde_json::Value;

use method::probe::{Live, Offered, Term};

/// The requirements a 402 stated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LiveTerms {
    pub version: u8,
    pub accepts: Vec<LiveAccept>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LiveAccept {
    pub scheme: String,
    pub network: String,
    pub asset: String,
    pub amount: String,
    pub pay_to: String,
}

/// The requirements of a 402 with `header` (the `PAYMENT-REQUIRED` value, when sent) and
/// `body` (read whole: a cut or broken body is no JSON); None when they cannot be read.
pub(crate) fn read(header: Option<&[u8]>, body: Option<&[u8]>) -> Option<LiveTerms> {
    let value: Value = match header {
        Some(encoded) => serde_json::from_str(&String::from_utf8_lossy(&base64(encoded)?)).ok()?,
        None => {
            let value: Value = serde_json::from_slice(body?).ok()?;
            // The SDK takes a body only as version 1.
            if value.get("x402Version").and_then(Value::as_u64) != Some(1) {
                return None;
            }
            value
        }
    };
    let version = match value.get("x402Version").and_then(Value::as_u64) {
        Some(1) => 1,
        Some(2) => 2,
        _ => return None,
    };
    let amount_field = if version == 1 { "maxAmountRequired" } else { "amount" };
    let entries = value.get("accepts")?.as_array().filter(|a| !a.is_empty())?;
    let accepts = entries
        .iter()
        .map(|e| {
            let field = |name: &str| e.get(name).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned);
            Some(LiveAccept {
                scheme: field("scheme")?,
                network: field("network")?,
                asset: field("asset")?,
                amount: field(amount_field)?,
                pay_to: field("payTo")?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(LiveTerms { version, accepts })
}

/// Standard base64 as the SDK takes it: only the alphabet and up to two `=` at the end,
/// padding optional (`atob`'s forgiving decode).
fn base64(text: &[u8]) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let data = text.strip_suffix(b"==").or_else(|| text.strip_suffix(b"=")).unwrap_or(text);
    if data.len() % 4 == 1 || (data.len() != text.len() && text.len() % 4 != 0) {
        return None;
    }
    let mut out = Vec::with_capacity(data.len() * 3 / 4);
    let (mut bits, mut count) = (0u32, 0);
    for b in data {
        bits = (bits << 6) | ALPHABET.iter().position(|a| a == b)? as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    Some(out)
}

/// Each of the listing's terms beside the live ones: a live entry with the same scheme,
/// network (legacy names read as their CAIP-2 id) and asset is `same` when its amount
/// and payTo are the listing's too (EVM addresses compared without regard to case),
/// else `other` with its values; no such entry, `absent`.
pub(crate) fn compare(listed: &[Accept], live: &LiveTerms, assets: &AssetTable) -> Vec<Term> {
    listed
        .iter()
        .map(|a| {
            let network = a.network.as_deref().map(|n| assets.canonical_network(n));
            let matching: Vec<&LiveAccept> = live
                .accepts
                .iter()
                .filter(|l| {
                    a.scheme.as_deref() == Some(l.scheme.as_str())
                        && network == Some(assets.canonical_network(&l.network))
                        && a.asset.as_deref().is_some_and(|x| same_address(x, &l.asset))
                })
                .collect();
            let same = |l: &&LiveAccept| {
                a.amount.is_some_and(|x| l.amount.parse::<u128>().ok() == Some(x))
                    && a.pay_to.as_deref().is_some_and(|x| same_address(x, &l.pay_to))
            };
            let (live, offered) = match matching.first() {
                None => (Live::Absent, None),
                Some(_) if matching.iter().any(same) => (Live::Same, None),
                Some(l) => {
                    (Live::Other, Some(Offered { amount: Some(l.amount.clone()), pay_to: Some(l.pay_to.clone()) }))
                }
            };
            Term {
                scheme: a.scheme.as_deref().map(str::to_owned),
                network: a.network.as_deref().map(str::to_owned),
                asset: a.asset.clone().map(|s| s.to_string()),
                amount: a.amount.map(|n| n.to_string()),
                pay_to: a.pay_to.clone(),
                live,
                offered,
            }
        })
        .collect()
}

/// Two addresses are the same when equal, or, both written `0x` and hex, equal but for
/// case (an EVM address's case is only its checksum).
fn same_address(a: &str, b: &str) -> bool {
    let hex = |s: &str| s.len() > 2 && s.starts_with("0x") && s[2..].bytes().all(|c| c.is_ascii_hexdigit());
    a == b || (hex(a) && hex(b) && a.eq_ignore_ascii_case(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use method::Method;
    use serde_json::json;

    const USDC: &str = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

    fn encode(value: &Value) -> Vec<u8> {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let bytes = value.to_string().into_bytes();
        let mut out = Vec::new();
        for chunk in bytes.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
            for i in 0..4 {
                out.push(if i <= chunk.len() { ALPHABET[(n >> (18 - 6 * i) & 63) as usize] } else { b'=' });
            }
        }
        out
    }

    fn accept(network: &str, amount: u128, pay_to: &str) -> Accept {
        let item = json!({"resource": "https://a.example/", "x402Version": 1, "accepts": [
            {"scheme": "exact", "network": network, "asset": USDC.to_lowercase(),
             "maxAmountRequired": amount.to_string(), "payTo": pay_to}]});
        catalogue::model::Resource::from_value(&item).unwrap().accepts.remove(0)
    }

    #[test]
    fn version_2_is_read_from_the_header_and_version_1_from_the_body() {
        let v2 = json!({"x402Version": 2, "resource": {"url": "x"}, "accepts": [
            {"scheme": "exact", "network": "eip155:8453", "asset": USDC, "amount": "10000", "payTo": "0xAbC", "maxTimeoutSeconds": 300}]});
        let live = read(Some(&encode(&v2)), Some(b"{}")).unwrap();
        assert_eq!((live.version, live.accepts[0].amount.as_str()), (2, "10000"));
        let unpadded = encode(&v2).into_iter().filter(|b| *b != b'=').collect::<Vec<_>>();
        assert!(read(Some(&unpadded), None).is_some());

        let v1 = json!({"x402Version": 1, "error": "X-PAYMENT header is required", "accepts": [
            {"scheme": "exact", "network": "base", "asset": USDC, "maxAmountRequired": "5", "payTo": "0xdef", "resource": "x", "description": "", "maxTimeoutSeconds": 60}]});
        let live = read(None, Some(v1.to_string().as_bytes())).unwrap();
        assert_eq!((live.version, live.accepts[0].pay_to.as_str()), (1, "0xdef"));
        // A header, when sent, is all that is read; a body is read only as version 1.
        assert_eq!(read(Some(b"not base64!"), Some(v1.to_string().as_bytes())), None);
        assert_eq!(read(None, Some(v2.to_string().as_bytes())), None);
    }

    #[test]
    fn malformed_requirements_are_unreadable() {
        for body in [
            json!({"x402Version": 1, "accepts": []}),
            json!({"x402Version": 1, "accepts": [{"scheme": "exact", "network": "base", "asset": USDC, "amount": "5", "payTo": "0x1"}]}),
            json!({"x402Version": 1, "accepts": [{"scheme": "exact", "network": "base", "asset": USDC, "maxAmountRequired": 5, "payTo": "0x1"}]}),
            json!({"x402Version": 1, "accepts": [{"scheme": "", "network": "base", "asset": USDC, "maxAmountRequired": "5", "payTo": "0x1"}]}),
            json!({"x402Version": "1", "accepts": []}),
            json!([1, 2]),
        ] {
            assert_eq!(read(None, Some(body.to_string().as_bytes())), None, "{body}");
        }
        assert_eq!(read(None, Some(b"{\"x402Version\": 1, \"acc")), None);
        assert_eq!(read(None, None), None);
        assert_eq!(read(Some(b"e30="), None), None, "{{}} has no version");
        assert_eq!(read(Some(b"e30=="), None), None, "too much padding");
    }

    #[test]
    fn each_listed_term_is_same_other_or_absent() {
        let method = Method::embedded();
        let live = LiveTerms {
            version: 2,
            accepts: vec![LiveAccept {
                scheme: "exact".into(),
                network: "eip155:8453".into(),
                asset: USDC.into(),
                amount: "10000".into(),
                pay_to: "0x00000000000000000000000000000000000000AA".into(),
            }],
        };
        let listed = [
            accept("base", 10000, "0x00000000000000000000000000000000000000aa"),
            accept("base", 20000, "0x00000000000000000000000000000000000000aa"),
            accept("base", 10000, "0x00000000000000000000000000000000000000bb"),
            accept("solana", 10000, "0x00000000000000000000000000000000000000aa"),
        ];
        let terms = compare(&listed, &live, method.assets);
        let lives: Vec<Live> = terms.iter().map(|t| t.live).collect();
        assert_eq!(lives, [Live::Same, Live::Other, Live::Other, Live::Absent]);
        assert_eq!(terms[1].offered.as_ref().unwrap().amount.as_deref(), Some("10000"));
        assert_eq!(
            terms[2].offered.as_ref().unwrap().pay_to.as_deref(),
            Some("0x00000000000000000000000000000000000000AA")
        );
        assert_eq!((terms[0].network.as_deref(), terms[0].amount.as_deref()), (Some("base"), Some("10000")));
    }
}
