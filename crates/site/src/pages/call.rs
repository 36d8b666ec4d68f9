//! "How to call it", at the top of a resource's page: the price, where the money goes,
//! the method and inputs the listing names, and a request to copy. Built from the
//! listing alone and shown as the provider's claims, never checked against the service.

use super::pay::{paid_call, PaidCall};
use super::usd;
use catalogue::call::OutputKind;
use method::index::{Entry, Price};
use method::request::{percent_encode, Body, ParamValue, Request};
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
    /// The listing's value for it (JSON); `None` where the request uses a placeholder,
    /// or, for an optional one, where the listing gives none.
    pub(crate) value: Option<String>,
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
    /// The parameters whose values in it are placeholders, to fill in.
    pub(crate) placeholders: Vec<String>,
    /// What the listing leaves out or contradicts (method::request).
    pub(crate) gaps: Vec<String>,
    /// The x402 exchange in three lines: the 402, the signed payment, the retry.
    pub(crate) steps: [String; 3],
    /// Programs that pay and call with the official clients, or why there are none.
    pub(crate) paid: Result<PaidCall, String>,
    /// What the listing says a paid call answers.
    pub(crate) output: Option<OutputView>,
}

pub(crate) struct OutputView {
    /// "An example answer" or "The answer's fields", as the listing gives them.
    pub(crate) label: &'static str,
    /// Indented JSON.
    pub(crate) json: String,
    pub(crate) cut: bool,
    /// It matched the screening list and is not shown.
    pub(crate) withheld: bool,
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
    let request = Request::of(r, method);
    let row = |p: &ParamValue, required: bool| ParamRow {
        name: p.name.clone(),
        place: p.place.label(),
        kind: p.kind.unwrap_or("not stated"),
        required,
        value: (!p.placeholder).then(|| p.value.to_string()),
    };
    let params: Vec<ParamRow> =
        request.sent.iter().map(|p| row(p, true)).chain(request.optional.iter().map(|p| row(p, false))).collect();
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
    let paid = paid_call(&r.accepts, r.x402_version, &request, method);
    // Foreign text like a description: screened the same way (content/method.md#screening).
    let output = r.output.as_deref().map(|o| {
        let json = serde_json::to_string_pretty(&o.value).unwrap_or_default();
        let withheld = method.screen.screen(&json).is_some();
        OutputView {
            label: match o.kind {
                OutputKind::Example => "An example answer",
                OutputKind::Fields => "The answer's fields and their types",
            },
            json: if withheld { String::new() } else { json },
            cut: o.cut,
            withheld,
        }
    });
    CallView {
        paid,
        output,
        lowest_usd: e.min_price_usd.map(|d| usd(Some(d))),
        options,
        curl: curl(&request),
        placeholders: request.placeholders().map(|p| p.name.clone()).collect(),
        method: request.method_declared.then(|| request.method.clone()),
        gaps: request.gaps,
        params,
        x402_version: r.x402_version,
        steps,
    }
}

/// The request as a POSIX shell command for curl. Safe to paste: every piece of the
/// listing's text is single-quoted (no `$()`, backquote, `!` or newline is read by the
/// shell), the URL is passed with `--url` (so none can read as an option) and
/// `--globoff` (so `[1-20]` and `{a,b}` are not ranges), bodies with `--data-raw` and
/// form fields with `--form-string` (so `@file` reads no file).
pub(crate) fn curl(request: &Request) -> String {
    let mut words = vec!["curl".to_owned(), "-i".to_owned(), "--globoff".to_owned()];
    match request.method.as_str() {
        "GET" => {}
        // -X HEAD would wait for a body that never comes.
        "HEAD" => words.push("--head".to_owned()),
        other => words.extend(["-X".to_owned(), other.to_owned()]),
    }
    for (name, value) in &request.headers {
        words.extend(["-H".to_owned(), quote(&format!("{name}: {value}"))]);
    }
    match &request.body {
        None => {}
        Some(Body::Json(fields)) => {
            words.extend(["-H".to_owned(), quote("Content-Type: application/json")]);
            let json = serde_json::Value::Object(fields.clone()).to_string();
            words.extend(["--data-raw".to_owned(), quote(&json)]);
        }
        Some(Body::Form { multipart: true, fields }) => {
            for (name, value) in fields {
                words.extend(["--form-string".to_owned(), quote(&format!("{}={value}", percent_encode(name)))]);
            }
        }
        Some(Body::Form { multipart: false, fields }) => {
            for (name, value) in fields {
                words.extend(["--data-urlencode".to_owned(), quote(&format!("{}={value}", percent_encode(name)))]);
            }
        }
    }
    words.extend(["--url".to_owned(), quote(&request.url)]);
    words.join(" ")
}

/// Single-quoted for a POSIX shell: nothing inside is special but `'`, written `'\''`.
pub(crate) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use catalogue::call::BodyType;
    use serde_json::json;

    fn request(method: &str, url: &str, headers: &[(&str, &str)], body: Option<Body>) -> Request {
        Request {
            method: method.into(),
            method_declared: true,
            url: url.into(),
            headers: headers.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect(),
            body_type: body.as_ref().map(|b| match b {
                Body::Json(_) => BodyType::Json,
                Body::Form { multipart: true, .. } => BodyType::MultipartForm,
                Body::Form { multipart: false, .. } => BodyType::UrlencodedForm,
            }),
            body,
            sent: Vec::new(),
            optional: Vec::new(),
            gaps: Vec::new(),
        }
    }

    #[test]
    fn a_get_is_the_url_alone_passed_with_url_and_globoff() {
        let c = curl(&request("GET", "https://a.example/w?x=1&city=Paris", &[], None));
        assert_eq!(c, "curl -i --globoff --url 'https://a.example/w?x=1&city=Paris'");
        assert_eq!(
            curl(&request("HEAD", "https://a.example/", &[], None)),
            "curl -i --globoff --head --url 'https://a.example/'"
        );
    }

    #[test]
    fn a_post_sends_raw_json_and_headers() {
        let body = Body::Json(json!({"token": "@/etc/passwd", "n": 5}).as_object().unwrap().clone());
        let c = curl(&request("POST", "https://a.example/p", &[("X-Key", "<X-Key>")], Some(body)));
        assert_eq!(
            c,
            "curl -i --globoff -X POST -H 'X-Key: <X-Key>' -H 'Content-Type: application/json' --data-raw '{\"token\":\"@/etc/passwd\",\"n\":5}' --url 'https://a.example/p'"
        );
    }

    #[test]
    fn form_fields_are_strings_never_files() {
        let body = Body::Form { multipart: true, fields: vec![("file".into(), "@/etc/passwd".into())] };
        let c = curl(&request("POST", "https://a.example/f", &[], Some(body)));
        assert!(c.contains("--form-string 'file=@/etc/passwd'"), "{c}");
        let body = Body::Form { multipart: false, fields: vec![("a b".into(), "x&y".into())] };
        assert!(curl(&request("POST", "https://a.example/f", &[], Some(body))).contains("--data-urlencode 'a%20b=x&y'"));
    }

    #[test]
    fn quoting_keeps_hostile_text_one_argument() {
        assert_eq!(quote("it's"), r"'it'\''s'");
        // The shell reads each quoted word back as the text it came from.
        for hostile in ["'; rm -rf ~; echo '", "$(id)", "`id`", "a\\'b", "\"\n\"", "!!", "-o/tmp/x"] {
            let out = std::process::Command::new("sh").arg("-c").arg(format!("printf %s {}", quote(hostile))).output();
            if let Ok(out) = out {
                assert_eq!(String::from_utf8_lossy(&out.stdout), hostile);
            }
        }
    }
}
