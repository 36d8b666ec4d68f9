//! "Pay and call it": the listing's request made with the official x402 clients, so a
//! visitor can copy one program that pays and calls (content/method.md#call). The client
//! is chosen by the listing's networks; the program pays only the terms the listing
//! states, and refuses a 402 that asks for anything else: an agent or a person signs
//! what they read here, or nothing. The package versions are the ones the end-to-end test
//! pays a local seller with (tests/it/paid_calls.rs).

use method::request::{Body, Request};
use method::Method;
use serde_json::Value;

use catalogue::model::Accept;

/// The npm packages a JavaScript program imports, at the versions it was tested with.
const NPM_EVM: &str = "@x402/fetch@2.27.0 @x402/evm@2.27.0 viem@2.57.20";
const NPM_SVM: &str = "@x402/fetch@2.27.0 @x402/svm@2.27.0 @solana/kit@5";
/// The PyPI requirement, with its extras.
const PIP_EVM: &str = "x402[requests,evm]==2.25.0";
const PIP_SVM: &str = "x402[requests,svm]==2.25.0";

/// v1 network names the official clients register for the exact scheme (npm
/// `@x402/evm/v1` NETWORKS and PyPI x402's `V1_NETWORKS`, at the versions above); a v2
/// listing names a CAIP-2 id (`eip155:8453`), which both register by wildcard.
const V1_EVM_JS: [&str; 23] = [
    "ethereum",
    "sepolia",
    "abstract",
    "abstract-testnet",
    "base-sepolia",
    "base",
    "avalanche-fuji",
    "avalanche",
    "iotex",
    "sei",
    "sei-testnet",
    "polygon",
    "polygon-amoy",
    "peaq",
    "story",
    "educhain",
    "skale-base-sepolia",
    "megaeth",
    "monad",
    "stable",
    "stable-testnet",
    "celo",
    "flare",
];
const V1_EVM_PY: [&str; 21] = [
    "abstract",
    "abstract-testnet",
    "base-sepolia",
    "base",
    "avalanche-fuji",
    "avalanche",
    "iotex",
    "sei",
    "sei-testnet",
    "polygon",
    "polygon-amoy",
    "peaq",
    "story",
    "educhain",
    "skale-base-sepolia",
    "megaeth",
    "monad",
    "monad-testnet",
    "stable",
    "stable-testnet",
    "celo",
];
const V1_SOLANA: [&str; 3] = ["solana", "solana-devnet", "solana-testnet"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Evm,
    Solana,
}

/// One program to copy.
pub(crate) struct Program {
    /// "JavaScript", "Python".
    pub(crate) language: &'static str,
    /// The element id of its block, for the copy button.
    pub(crate) id: &'static str,
    pub(crate) code: String,
}

pub(crate) struct PaidCall {
    pub(crate) programs: Vec<Program>,
    /// The environment variable the key is read from.
    pub(crate) key_var: &'static str,
    /// "Base (eip155:8453)" and the like: where the programs pay.
    pub(crate) networks: Vec<String>,
    /// Options the listing offers that the programs do not pay, and why, one a line.
    pub(crate) left_out: Vec<String>,
}

/// One payment term as the programs compare it with a live 402.
struct Term {
    network: String,
    asset: String,
    amount: String,
    pay_to: String,
}

/// The programs that pay `request` by the listing's terms, or why there are none.
pub(crate) fn paid_call(
    accepts: &[Accept],
    x402_version: Option<u64>,
    request: &Request,
    method: &Method,
) -> Result<PaidCall, String> {
    // x402 version 1 states its terms in the 402's body, which an answer to HEAD has not.
    if request.method == "HEAD" && x402_version != Some(2) {
        return Err("No program to pay this call: under x402 version 1 the terms come in the body of the 402, and an answer to HEAD has no body, so the official clients cannot read them.".to_owned());
    }
    let mut evm = Vec::new();
    let mut solana = Vec::new();
    let mut left_out = Vec::new();
    let (mut evm_names, mut solana_names) = (Vec::new(), Vec::new());
    // Whether each SDK registers one of the listing's EVM networks as the 402 will name
    // it: a CAIP-2 id by wildcard, a v1 name by its own list.
    let (mut js_pays, mut py_pays) = (false, false);
    for a in accepts {
        let network = a.network.as_deref().unwrap_or("");
        let id = method.assets.canonical_network(network).to_owned();
        let family = if id.starts_with("eip155:") || V1_EVM_JS.contains(&network) || V1_EVM_PY.contains(&network) {
            Some(Family::Evm)
        } else if id.starts_with("solana:") || V1_SOLANA.contains(&network) {
            Some(Family::Solana)
        } else {
            None
        };
        let (Some(family), Some("exact"), Some(amount), Some(asset), Some(pay_to)) =
            (family, a.scheme.as_deref(), a.amount, a.asset.as_deref(), a.pay_to.as_deref().filter(|p| !p.is_empty()))
        else {
            left_out.push(format!(
                "Scheme {} on {}: these programs pay only scheme exact, on EVM networks and Solana, to a named asset and address.",
                a.scheme.as_deref().unwrap_or("(none named)"),
                if network.is_empty() { "no named network" } else { network },
            ));
            continue;
        };
        // The live 402 may name the network as listed or by its CAIP-2 id.
        let spellings: Vec<String> =
            if id != network { vec![network.to_owned(), id.clone()] } else { vec![id.clone()] };
        if family == Family::Evm {
            js_pays |= network.contains(':') || V1_EVM_JS.contains(&network);
            py_pays |= network.contains(':') || V1_EVM_PY.contains(&network);
        }
        let (terms, names) =
            if family == Family::Evm { (&mut evm, &mut evm_names) } else { (&mut solana, &mut solana_names) };
        for spelling in spellings {
            terms.push(Term {
                network: spelling,
                asset: asset.to_owned(),
                amount: amount.to_string(),
                pay_to: pay_to.to_owned(),
            });
        }
        let name = method.assets.network_name(&id).map_or_else(|| network.to_owned(), |n| format!("{n} ({id})"));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let solana_too = !evm.is_empty() && !solana.is_empty();
    // One family: EVM where the listing offers it, as nearly every listing does.
    let (family, terms, networks) = match (evm.is_empty(), solana.is_empty()) {
        (false, _) => (Family::Evm, evm, evm_names),
        (true, false) => (Family::Solana, solana, solana_names),
        (true, true) => {
            return Err("No payment option the official clients pay: they pay scheme exact on EVM networks and Solana."
                .to_owned())
        }
    };
    if solana_too {
        left_out.push("The Solana options: the programs below pay on EVM networks only.".to_owned());
    }
    let mut programs = Vec::new();
    if family == Family::Solana || js_pays {
        programs.push(Program { language: "JavaScript", id: "pay-js", code: javascript(family, &terms, request) });
    }
    if family == Family::Solana || py_pays {
        programs.push(Program { language: "Python", id: "pay-py", code: python(family, &terms, request) });
    }
    Ok(PaidCall { programs, key_var: key_var(family), networks, left_out })
}

fn key_var(family: Family) -> &'static str {
    match family {
        Family::Evm => "EVM_PRIVATE_KEY",
        Family::Solana => "SVM_PRIVATE_KEY",
    }
}

/// The JavaScript program: Node 20 or later, an ES module.
fn javascript(family: Family, terms: &[Term], request: &Request) -> String {
    let key = key_var(family);
    let mut out = String::new();
    let (install, imports, register) = match family {
        Family::Evm => (
            NPM_EVM,
            "import { wrapFetchWithPayment, x402Client } from \"@x402/fetch\";\n\
             import { registerExactEvmScheme } from \"@x402/evm/exact/client\";\n\
             import { privateKeyToAccount } from \"viem/accounts\";\n",
            format!("registerExactEvmScheme(client, {{ signer: privateKeyToAccount(process.env.{key}), policies: [onlyListed] }});\n"),
        ),
        Family::Solana => (
            NPM_SVM,
            "import { wrapFetchWithPayment, x402Client } from \"@x402/fetch\";\n\
             import { registerExactSvmScheme } from \"@x402/svm/exact/client\";\n\
             import { createKeyPairSignerFromBytes, getBase58Encoder } from \"@solana/kit\";\n",
            format!(
                "const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(process.env.{key}));\n\
                 registerExactSvmScheme(client, {{ signer, policies: [onlyListed] }});\n"
            ),
        ),
    };
    out.push_str(&format!(
        "// Node 20 or later, saved as pay.mjs. Install: npm install {install}\n\
         // Run: {key}=… node pay.mjs (the key of a wallet that holds the asset)\n"
    ));
    out.push_str(imports);
    out.push_str(
        "\n// Pay only the terms this listing states: a 402 asking anything else is refused.\nconst listed = [\n",
    );
    for t in terms {
        out.push_str(&format!(
            "  {{ network: {}, asset: {}, amount: {}, payTo: {} }},\n",
            js(&t.network),
            js(&t.asset),
            js(&t.amount),
            js(&t.pay_to)
        ));
    }
    out.push_str("];\n");
    out.push_str(match family {
        // EVM addresses are hex: their letter case is only a checksum.
        Family::Evm => "const same = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();\n",
        Family::Solana => "const same = (a, b) => String(a) === String(b);\n",
    });
    out.push_str(
        "const onlyListed = (version, offers) => offers.filter((o) => listed.some((l) =>\n  \
         same(o.network, l.network) && same(o.asset, l.asset) && same(o.payTo, l.payTo) &&\n  \
         String(o.amount ?? o.maxAmountRequired) === l.amount));\n\n\
         const client = new x402Client();\n",
    );
    out.push_str(&register);
    out.push_str(
        "// By default the client pays only the tokens it knows, up to $1: allow the listed\n\
         // assets, each up to the most the listing asks in it.\n\
         client.setSpendControls({ allowedAssets: [\n",
    );
    for (network, asset, most) in spend_caps(terms) {
        out.push_str(&format!(
            "  {{ network: {}, asset: {}, maxAmountPerPayment: {} }},\n",
            js(network),
            js(asset),
            js(&most)
        ));
    }
    out.push_str("] });\nconst payingFetch = wrapFetchWithPayment(fetch, client);\n\n");
    let mut init = vec![format!("method: {}", js(&request.method))];
    let mut headers: Vec<(String, String)> = request.headers.clone();
    let mut before = String::new();
    match &request.body {
        None => {}
        Some(Body::Json(fields)) => {
            headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
            init.push(format!("body: JSON.stringify({})", ascii_json(&Value::Object(fields.clone()))));
        }
        Some(Body::Form { multipart: true, fields }) => {
            before.push_str("const form = new FormData();\n");
            for (name, value) in fields {
                before.push_str(&format!("form.append({}, {});\n", js(name), js(value)));
            }
            init.push("body: form".to_owned());
        }
        Some(Body::Form { multipart: false, fields }) => {
            let pairs: Vec<String> = fields.iter().map(|(n, v)| format!("[{}, {}]", js(n), js(v))).collect();
            init.push(format!("body: new URLSearchParams([{}])", pairs.join(", ")));
        }
    }
    if !headers.is_empty() {
        let pairs: Vec<String> = headers.iter().map(|(n, v)| format!("{}: {}", js(n), js(v))).collect();
        init.insert(1, format!("headers: {{ {} }}", pairs.join(", ")));
    }
    out.push_str(&before);
    out.push_str(&format!("const response = await payingFetch({}, {{\n", js(&request.url)));
    for part in init {
        out.push_str(&format!("  {part},\n"));
    }
    out.push_str("});\nconsole.log(response.status, await response.text());\n");
    out
}

/// The Python program: Python 3.10 or later, with `requests`.
fn python(family: Family, terms: &[Term], request: &Request) -> String {
    let key = key_var(family);
    let (install, imports, register) = match family {
        Family::Evm => (
            PIP_EVM,
            "from eth_account import Account\n\
             from x402 import x402ClientSync\n\
             from x402.http.clients import x402_requests\n\
             from x402.mechanisms.evm.exact import register_exact_evm_client\n",
            format!(
                "register_exact_evm_client(client, Account.from_key(os.environ[\"{key}\"]), policies=[only_listed])\n"
            ),
        ),
        Family::Solana => (
            PIP_SVM,
            "from x402 import x402ClientSync\n\
             from x402.http.clients import x402_requests\n\
             from x402.mechanisms.svm.exact.register import register_exact_svm_client\n\
             from x402.mechanisms.svm.signers import KeypairSigner\n",
            format!(
                "register_exact_svm_client(client, KeypairSigner.from_base58(os.environ[\"{key}\"]), policies=[only_listed])\n"
            ),
        ),
    };
    let mut out = format!(
        "# Python 3.10 or later, saved as pay.py. Install: pip install \"{install}\"\n\
         # Run: {key}=… python3 pay.py (the key of a wallet that holds the asset)\n\
         import os\n\n{imports}\n\
         # Pay only the terms this listing states: a 402 asking anything else is refused.\n\
         LISTED = [\n"
    );
    for t in terms {
        out.push_str(&format!(
            "    {{\"network\": {}, \"asset\": {}, \"amount\": {}, \"pay_to\": {}}},\n",
            py_str(&t.network),
            py_str(&t.asset),
            py_str(&t.amount),
            py_str(&t.pay_to)
        ));
    }
    out.push_str("]\n\n\n");
    out.push_str(match family {
        Family::Evm => "def same(a, b):\n    return str(a).lower() == str(b).lower()\n\n\n",
        Family::Solana => "def same(a, b):\n    return str(a) == str(b)\n\n\n",
    });
    out.push_str(
        "def only_listed(version, offers):\n    \
         return [o for o in offers if any(\n        \
         same(o.network, l[\"network\"]) and same(o.asset, l[\"asset\"]) and same(o.pay_to, l[\"pay_to\"])\n        \
         and o.get_amount() == l[\"amount\"]\n        \
         for l in LISTED)]\n\n\n\
         client = x402ClientSync()\n",
    );
    out.push_str(&register);
    out.push_str(
        "# By default the client pays only the tokens it knows, up to $1: allow the listed\n\
         # assets, each up to the most the listing asks in it.\n\
         client.set_spend_controls({\"allowed_assets\": [\n",
    );
    for (network, asset, most) in spend_caps(terms) {
        out.push_str(&format!(
            "    {{\"network\": {}, \"asset\": {}, \"max_amount_per_payment\": {}}},\n",
            py_str(network),
            py_str(asset),
            py_str(&most)
        ));
    }
    out.push_str("]})\nsession = x402_requests(client)\n");
    let mut args = vec![py_str(&request.method), py_str(&request.url)];
    if !request.headers.is_empty() {
        let pairs: Vec<String> = request.headers.iter().map(|(n, v)| format!("{}: {}", py_str(n), py_str(v))).collect();
        args.push(format!("headers={{{}}}", pairs.join(", ")));
    }
    match &request.body {
        None => {}
        Some(Body::Json(fields)) => args.push(format!("json={}", py_value(&Value::Object(fields.clone())))),
        Some(Body::Form { multipart: true, fields }) => {
            // (None, value): a text field of a multipart form, not a file.
            let pairs: Vec<String> =
                fields.iter().map(|(n, v)| format!("({}, (None, {}))", py_str(n), py_str(v))).collect();
            args.push(format!("files=[{}]", pairs.join(", ")));
        }
        Some(Body::Form { multipart: false, fields }) => {
            let pairs: Vec<String> = fields.iter().map(|(n, v)| format!("({}, {})", py_str(n), py_str(v))).collect();
            args.push(format!("data=[{}]", pairs.join(", ")));
        }
    }
    out.push_str(&format!("response = session.request(\n    {},\n)\n", args.join(",\n    ")));
    out.push_str("print(response.status_code, response.text)\n");
    out
}

/// Each listed (network, asset) once, with the largest amount asked in it: the cap the
/// client's spend controls allow (the policy still pays only an exact listed amount).
fn spend_caps(terms: &[Term]) -> Vec<(&str, &str, String)> {
    let mut caps: Vec<(&str, &str, u128)> = Vec::new();
    for t in terms {
        let amount = t.amount.parse::<u128>().unwrap_or(0);
        match caps.iter_mut().find(|c| c.0 == t.network && c.1.eq_ignore_ascii_case(&t.asset)) {
            Some(c) => c.2 = c.2.max(amount),
            None => caps.push((&t.network, &t.asset, amount)),
        }
    }
    caps.into_iter().map(|(n, a, most)| (n, a, most.to_string())).collect()
}

/// A JavaScript string literal with every character past ASCII escaped, so the program
/// is the same bytes however the page is read or copied.
fn js(text: &str) -> String {
    ascii_json(&Value::String(text.to_owned()))
}

/// JSON (a JavaScript literal too) with every character past ASCII as `\uXXXX`.
fn ascii_json(value: &Value) -> String {
    let mut out = String::new();
    for c in value.to_string().chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// A Python string literal, ASCII only.
fn py_str(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// A JSON value as a Python literal.
fn py_value(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => py_str(s),
        Value::Array(items) => format!("[{}]", items.iter().map(py_value).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter().map(|(k, v)| format!("{}: {}", py_str(k), py_value(v))).collect::<Vec<_>>().join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn literals_are_ascii_and_read_back_as_the_text() {
        for text in ["plain", "quote \" and \\ back", "caf\u{e9}", "\u{202e}rtl", "emoji \u{1F600}", "line\nbreak"] {
            let j = js(text);
            assert!(j.is_ascii(), "{j}");
            assert_eq!(serde_json::from_str::<String>(&j).unwrap(), text);
            let p = py_str(text);
            assert!(p.is_ascii(), "{p}");
            let out = std::process::Command::new("python3")
                .args(["-c", &format!("import sys; sys.stdout.buffer.write({p}.encode('utf-8'))")])
                .output();
            if let Ok(out) = out {
                assert_eq!(String::from_utf8(out.stdout).unwrap(), text, "{p}");
            }
        }
    }

    #[test]
    fn a_program_is_shown_only_for_an_sdk_that_registers_the_listed_network() {
        let method = Method::embedded();
        let accept = |network: &str| {
            let item = json!({"resource": "https://a.example/", "accepts": [{"scheme": "exact", "network": network,
                "maxAmountRequired": "1000", "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                "payTo": "0x52E29e0d2Aa49bfBfC548C0A9F2196F4aa51f3ea"}]});
            catalogue::model::Resource::from_value(&item).unwrap().accepts.remove(0)
        };
        let request = Request {
            method: "GET".into(),
            method_declared: true,
            url: "https://a.example/".into(),
            headers: Vec::new(),
            body: None,
            body_type: None,
            sent: Vec::new(),
            optional: Vec::new(),
            gaps: Vec::new(),
        };
        let languages = |network: &str| -> Vec<&'static str> {
            let paid = paid_call(&[accept(network)], Some(1), &request, &method).unwrap();
            paid.programs.iter().map(|p| p.language).collect()
        };
        assert_eq!(languages("base"), ["JavaScript", "Python"]);
        assert_eq!(languages("eip155:8453"), ["JavaScript", "Python"]);
        // Python's v1 list has no `ethereum`, JavaScript's no `monad-testnet`.
        assert_eq!(languages("ethereum"), ["JavaScript"]);
        assert_eq!(languages("monad-testnet"), ["Python"]);
    }

    #[test]
    fn python_values_keep_their_json_types() {
        let v = json!({"n": 5, "x": 1.5, "b": true, "z": null, "a": [false, "s"], "o": {"k": "v"}});
        assert_eq!(py_value(&v), r#"{"n": 5, "x": 1.5, "b": True, "z": None, "a": [False, "s"], "o": {"k": "v"}}"#);
    }
}
