//! "How to call it", at the top of a resource's page: the price, where the money goes,
//! the method and inputs the listing names, and a request to copy. Built from the
//! listing alone and shown as the provider's claims, never checked against the service.

use super::usd;
use catalogue::call::Place;
use method::index::{Entry, Price};
use method::Method;

/// One way to pay, as the listing offers it.
pub(crate) struct PayOption {
    /// "$0.01", when the asset is a known USD stablecoin.
    pub(crate) usd: Option<String>,
    /// "10000 atomic units of USDC (0x8335…)".
    pub(crate) amount: String,
    pub(crate) network: String,
    pub(crate) testnet: bool,
    pub(crate) scheme: String,
    pub(crate) pay_to: String,
}

pub(crate) struct ParamRow {
    pub(crate) name: String,
    pub(crate) place: &'static str,
    pub(crate) kind: &'static str,
    pub(crate) required: bool,
}

pub(crate) struct CallView {
    /// The lowest USD price, "$0.01", when any option is priced in a USD stablecoin.
    pub(crate) lowest_usd: Option<String>,
    pub(crate) options: Vec<PayOption>,
    /// The HTTP method the listing names; `None` when it names none.
    pub(crate) method: Option<String>,
    pub(crate) params: Vec<ParamRow>,
    pub(crate) x402_version: Option<u64>,
    /// A first request, as a shell command (`curl`), every listed value quoted.
    pub(crate) curl: String,
    /// The x402 exchange in three lines: the 402, the signed payment, the retry.
    pub(crate) steps: [String; 3],
}

pub(crate) fn call_view(e: &Entry, method: &Method) -> CallView {
    let r = &e.resource;
    let options = r
        .accepts
        .iter()
        .filter(|a| a.network.is_some() || a.amount.is_some() || a.pay_to.is_some())
        .map(|a| {
            let network_id = a.network.as_deref().map(|n| method.assets.canonical_network(n).to_owned());
            // The USD reading is the method's own (what `max_price` compares).
            let price = Price::of(a, method);
            let asset = a.asset.as_deref().unwrap_or("an unnamed asset");
            let amount = match (a.amount, price.as_ref().and_then(|p| p.asset_symbol.as_deref())) {
                (Some(n), Some(symbol)) => format!("{n} atomic units of {symbol} ({asset})"),
                (Some(n), None) => format!("{n} atomic units of {asset}"),
                (None, _) => "no readable amount".to_owned(),
            };
            let name = network_id.as_deref().and_then(|id| method.assets.network_name(id));
            let network = match (a.network.as_deref(), &network_id, name) {
                (Some(_), Some(id), Some(name)) => format!("{name} ({id})"),
                (Some(n), Some(id), None) if n != id => format!("{n} ({id})"),
                (Some(n), _, _) => n.to_owned(),
                (None, _, _) => "no network named".to_owned(),
            };
            PayOption {
                usd: price.and_then(|p| p.usd).map(|d| usd(Some(d))),
                amount,
                testnet: network_id.as_deref().is_some_and(|id| method.assets.is_testnet(id)),
                network,
                scheme: a.scheme.as_deref().unwrap_or("(none named)").to_owned(),
                pay_to: a.pay_to.clone().filter(|p| !p.is_empty()).unwrap_or_else(|| "(none named)".to_owned()),
            }
        })
        .collect();
    let call = r.call.as_deref();
    let params: Vec<ParamRow> = call
        .map(|c| {
            c.params
                .iter()
                .map(|p| ParamRow {
                    name: p.name.clone(),
                    place: p.place.label(),
                    kind: p.kind.unwrap_or("not stated"),
                    required: p.required,
                })
                .collect()
        })
        .unwrap_or_default();
    let http_method = call.and_then(|c| c.method.clone());
    let v2 = r.x402_version == Some(2);
    let (signature, response) =
        if v2 { ("PAYMENT-SIGNATURE", "PAYMENT-RESPONSE") } else { ("X-PAYMENT", "X-PAYMENT-RESPONSE") };
    let steps = [
        if v2 {
            "1. Send the request: the answer is 402 Payment Required, with the payment requirements (the options above) base64-encoded in its PAYMENT-REQUIRED header.".to_owned()
        } else {
            "1. Send the request: the answer is 402 Payment Required, with the payment requirements (the options above) as JSON in its body (`accepts`).".to_owned()
        },
        format!(
            "2. Pick one option and sign a payment of its amount to its payTo on its network (scheme `exact`: an EIP-3009 authorisation on EVM networks), with an x402 client or wallet; base64-encode the payload for the {signature} header."
        ),
        format!(
            "3. Send the same request again with the {signature} header: a paid call answers 200 with the result, and the settlement in its {response} header."
        ),
    ];
    CallView {
        lowest_usd: e.min_price_usd.map(|d| usd(Some(d))),
        options,
        curl: curl(&r.url, http_method.as_deref(), call.map(|c| c.params.as_slice()).unwrap_or_default()),
        method: http_method,
        params,
        x402_version: r.x402_version,
        steps,
    }
}

/// The first request as a POSIX shell command: the URL with query parameters as
/// placeholders, headers, and a JSON body naming the body fields. Every piece of the
/// listing's text is single-quoted, so a hostile name stays one argument.
fn curl(url: &str, method: Option<&str>, params: &[catalogue::call::Param]) -> String {
    let placeholder = |p: &catalogue::call::Param| format!("<{}>", p.kind.unwrap_or("value"));
    let mut target = url.to_owned();
    let query: Vec<String> = params
        .iter()
        .filter(|p| p.place == Place::Query)
        .map(|p| format!("{}={}", encode(&p.name), placeholder(p)))
        .collect();
    if !query.is_empty() {
        target.push(if url.contains('?') { '&' } else { '?' });
        target.push_str(&query.join("&"));
    }
    let mut words = vec!["curl".to_owned(), "-i".to_owned()];
    let method = method.unwrap_or("GET");
    let has_body = params.iter().any(|p| p.place == Place::Body);
    // curl turns a request with --data into a POST unless told: say the listed method.
    if method != "GET" || has_body {
        words.extend(["-X".to_owned(), method.to_owned()]);
    }
    for p in params.iter().filter(|p| p.place == Place::Header) {
        words.extend(["-H".to_owned(), quote(&format!("{}: {}", p.name, placeholder(p)))]);
    }
    let body: serde_json::Map<String, serde_json::Value> = params
        .iter()
        .filter(|p| p.place == Place::Body)
        .map(|p| (p.name.clone(), serde_json::Value::String(placeholder(p))))
        .collect();
    if !body.is_empty() {
        words.extend(["-H".to_owned(), quote("Content-Type: application/json")]);
        words.extend(["--data".to_owned(), quote(&serde_json::Value::Object(body).to_string())]);
    }
    words.push(quote(&target));
    words.join(" ")
}

/// Single-quoted for a POSIX shell: nothing inside is special but `'`, written `'\''`.
pub(crate) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A query parameter's name, percent-encoded but for unreserved characters.
fn encode(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use catalogue::call::Param;

    fn param(name: &str, place: Place) -> Param {
        Param { name: name.into(), place, kind: Some("string"), required: true }
    }

    #[test]
    fn a_get_puts_query_parameters_in_the_url() {
        let c =
            curl("https://a.example/w?x=1", Some("GET"), &[param("city", Place::Query), param("a b", Place::Query)]);
        assert_eq!(c, "curl -i 'https://a.example/w?x=1&city=<string>&a%20b=<string>'");
    }

    #[test]
    fn a_post_sends_a_json_body_and_headers() {
        let c =
            curl("https://a.example/p", Some("POST"), &[param("token", Place::Body), param("X-Key", Place::Header)]);
        assert_eq!(
            c,
            "curl -i -X POST -H 'X-Key: <string>' -H 'Content-Type: application/json' --data '{\"token\":\"<string>\"}' 'https://a.example/p'"
        );
    }

    #[test]
    fn a_get_with_body_fields_stays_a_get() {
        let c = curl("https://a.example/g", Some("GET"), &[param("q", Place::Body)]);
        assert!(
            c.starts_with("curl -i -X GET -H 'Content-Type: application/json' --data '{\"q\":\"<string>\"}'"),
            "{c}"
        );
    }

    #[test]
    fn quoting_keeps_hostile_text_one_argument() {
        assert_eq!(quote("it's"), r"'it'\''s'");
        // The shell reads each quoted word back as the text it came from.
        for hostile in ["'; rm -rf ~; echo '", "$(id)", "`id`", "a\\'b", "\"\n\""] {
            let out = std::process::Command::new("sh").arg("-c").arg(format!("printf %s {}", quote(hostile))).output();
            if let Ok(out) = out {
                assert_eq!(String::from_utf8_lossy(&out.stdout), hostile);
            }
        }
    }
}
