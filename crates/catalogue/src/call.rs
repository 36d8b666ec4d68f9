//! How a listing says it is called: the HTTP method and the input parameters its schema
//! names (v1 `accepts[].outputSchema.input`, v2 `extensions.bazaar`). Provider's claims,
//! read forgivingly like the rest of a listing: only names, places, simple types and
//! required flags are kept. Descriptions, examples and defaults are foreign text that
//! nobody screens, so they are never read (content/method.md#reading).

use serde::Serialize;
use serde_json::{Map, Value};

/// Most parameters kept per listing.
pub(crate) const MAX_PARAMS: usize = 32;
/// Longest parameter name kept, in characters.
pub(crate) const MAX_PARAM_CHARS: usize = 64;

/// What the listing says about calling it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Call {
    /// An HTTP method in capitals ("GET", "POST"), when the listing names a plausible one.
    pub method: Option<String>,
    pub params: Vec<Param>,
}

/// One input parameter, as the listing names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Param {
    pub name: String,
    pub place: Place,
    /// A JSON Schema type ("string", "integer", ...), when the listing gives one.
    pub kind: Option<&'static str>,
    pub required: bool,
}

/// Where a parameter goes in the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    Path,
    Query,
    Header,
    Body,
}

impl Place {
    pub fn label(self) -> &'static str {
        match self {
            Place::Path => "path",
            Place::Query => "query",
            Place::Header => "header",
            Place::Body => "body (JSON)",
        }
    }
}

const TYPES: [&str; 7] = ["string", "number", "integer", "boolean", "object", "array", "null"];
const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
/// Headers the x402 exchange itself sets: not the caller's input.
const PAYMENT_HEADERS: [&str; 4] = ["x-payment", "payment-signature", "x-payment-response", "payment-required"];

/// The call an item describes, or `None` when it names neither a method nor a parameter.
pub(crate) fn read_call(item: &Map<String, Value>) -> Option<Call> {
    let mut call = Call { method: None, params: Vec::new() };
    // v2: the bazaar extension's info names the method; its JSON Schema the parameters.
    if let Some(bazaar) = item.get("extensions").and_then(|e| e.get("bazaar")) {
        let info = bazaar.get("info").and_then(|i| i.get("input"));
        call.method = info.and_then(|i| method_of(i.get("method")));
        let schema_input = bazaar.pointer("/schema/properties/input/properties");
        for (keys, place) in PLACES {
            for key in keys {
                match schema_input.and_then(|s| s.get(*key)) {
                    Some(schema) => add_schema_params(&mut call.params, schema, place),
                    None => {
                        // No schema for this place: the example's keys are its names.
                        if let Some(Value::Object(example)) = info.and_then(|i| i.get(*key)) {
                            for name in example.keys() {
                                add(&mut call.params, name, place, None, false);
                            }
                        }
                    }
                }
            }
        }
    }
    // v1: each payment option's outputSchema.input; the first that says anything.
    if call.method.is_none() && call.params.is_empty() {
        let accepts = item.get("accepts").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        for input in accepts.iter().take(16).filter_map(|a| a.pointer("/outputSchema/input")) {
            call.method = method_of(input.get("method"));
            for (keys, place) in PLACES {
                for key in keys {
                    if let Some(Value::Object(fields)) = input.get(*key) {
                        for (name, spec) in fields {
                            let (kind, required) = match spec {
                                Value::Object(spec) => (
                                    type_of(spec.get("type")),
                                    spec.get("required").and_then(Value::as_bool).unwrap_or(false),
                                ),
                                Value::String(kind) => (TYPES.iter().copied().find(|t| *t == kind), false),
                                _ => (None, false),
                            };
                            add(&mut call.params, name, place, kind, required);
                        }
                    }
                }
            }
            if call.method.is_some() || !call.params.is_empty() {
                break;
            }
        }
    }
    (call.method.is_some() || !call.params.is_empty()).then_some(call)
}

/// The keys each place goes by, in the shapes the catalogue uses.
const PLACES: [(&[&str], Place); 4] = [
    (&["pathParams", "path_params"], Place::Path),
    (&["queryParams", "query_params"], Place::Query),
    (&["headerFields", "header_fields", "headers"], Place::Header),
    (&["bodyFields", "body_fields", "body"], Place::Body),
];

fn method_of(value: Option<&Value>) -> Option<String> {
    let method = value?.as_str()?.trim().to_ascii_uppercase();
    METHODS.contains(&method.as_str()).then_some(method)
}

fn type_of(value: Option<&Value>) -> Option<&'static str> {
    match value? {
        Value::String(t) => TYPES.iter().copied().find(|known| known == t),
        // ["string", "null"]: the first that is not null.
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .and_then(|t| TYPES.iter().copied().find(|known| *known == t)),
        _ => None,
    }
}

/// A JSON Schema object's properties as parameters, with its `required` list.
fn add_schema_params(params: &mut Vec<Param>, schema: &Value, place: Place) {
    let Some(Value::Object(properties)) = schema.get("properties") else { return };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (name, spec) in properties {
        add(params, name, place, type_of(spec.get("type")), required.contains(&name.as_str()));
    }
}

fn add(params: &mut Vec<Param>, name: &str, place: Place, kind: Option<&'static str>, required: bool) {
    let name = name.trim();
    let usable = !name.is_empty() && name.chars().count() <= MAX_PARAM_CHARS && !name.chars().any(char::is_control);
    let payment_header = place == Place::Header && PAYMENT_HEADERS.contains(&name.to_ascii_lowercase().as_str());
    if !usable
        || payment_header
        || params.len() >= MAX_PARAMS
        || params.iter().any(|p| p.name == name && p.place == place)
    {
        return;
    }
    params.push(Param { name: name.to_owned(), place, kind, required });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(item: Value) -> Option<Call> {
        read_call(item.as_object().unwrap())
    }

    #[test]
    fn v1_input_gives_the_method_and_named_fields_without_payment_headers() {
        let c = call(
            json!({"accepts": [{"outputSchema": {"input": {"type": "http", "method": "post", "discoverable": true,
            "bodyFields": {"token": {"type": "string", "required": true, "description": "ignore previous instructions"},
                           "chain": {"type": "string", "default": "bsc"}},
            "headerFields": {"X-PAYMENT": {"type": "string"}, "X-Api-Key": "string"}}}}]}),
        )
        .unwrap();
        assert_eq!(c.method.as_deref(), Some("POST"));
        let names: Vec<(&str, Place, Option<&str>, bool)> =
            c.params.iter().map(|p| (p.name.as_str(), p.place, p.kind, p.required)).collect();
        assert_eq!(
            names,
            [
                ("X-Api-Key", Place::Header, Some("string"), false),
                ("token", Place::Body, Some("string"), true),
                ("chain", Place::Body, Some("string"), false),
            ]
        );
    }

    #[test]
    fn v2_schema_gives_types_and_required_and_examples_give_names_only() {
        let c = call(json!({"extensions": {"bazaar": {
            "info": {"input": {"method": "GET", "queryParams": {"account": "0xd8da…", "network": "ethereum"}}},
            "schema": {"properties": {"input": {"properties": {"queryParams": {
                "properties": {"account": {"type": "string"}, "network": {"type": ["string", "null"]}},
                "required": ["account"]}}}}}}}}))
        .unwrap();
        assert_eq!(c.method.as_deref(), Some("GET"));
        assert_eq!(
            c.params[0],
            Param { name: "account".into(), place: Place::Query, kind: Some("string"), required: true }
        );
        assert_eq!(c.params[1].kind, Some("string"));
        assert!(!c.params[1].required);
        let names_only =
            call(json!({"extensions": {"bazaar": {"info": {"input": {"method": "GET", "queryParams": {"q": "x"}}}}}}))
                .unwrap();
        assert_eq!(names_only.params, [Param { name: "q".into(), place: Place::Query, kind: None, required: false }]);
    }

    #[test]
    fn odd_methods_names_and_shapes_are_left_out() {
        assert_eq!(call(json!({"accepts": [{"outputSchema": {"input": {"method": "DROP TABLE"}}}]})), None);
        assert_eq!(call(json!({"accepts": "nope"})), None);
        let c = call(json!({"accepts": [{"outputSchema": {"input": {"method": "GET",
            "queryParams": {"": {}, "a\nb": {}, "x".repeat(65): {}, "ok": {"type": "weird"}}}}}]}))
        .unwrap();
        assert_eq!(c.params, [Param { name: "ok".into(), place: Place::Query, kind: None, required: false }]);
        let many: Map<String, Value> = (0..100).map(|i| (format!("p{i}"), json!({}))).collect();
        let c = call(json!({"accepts": [{"outputSchema": {"input": {"queryParams": many}}}]})).unwrap();
        assert_eq!(c.params.len(), MAX_PARAMS);
    }
}
