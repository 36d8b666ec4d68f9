//! How a listing says it is called: the HTTP method, the input parameters its schema
//! names (v1 `accepts[].outputSchema.input`, v2 `extensions.bazaar`) and how the body is
//! encoded. Provider's claims, read forgivingly like the rest of a listing: names,
//! places, simple types, required flags, and one short value per parameter (the
//! listing's own example, else its schema's example, default or first allowed value).
//! Those values are foreign text: they are screened before any page shows them, and
//! descriptions are never read (content/method.md#reading).

use serde::Serialize;
use serde_json::{Map, Value};

/// Longest value kept for a parameter, in bytes of JSON: an example, not a payload.
pub(crate) const MAX_EXAMPLE_BYTES: usize = 256;
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
    /// How the body is encoded, when the listing says in a way that is understood.
    pub body_type: Option<BodyType>,
}

/// A request body's encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyType {
    Json,
    /// `multipart/form-data`: form fields.
    MultipartForm,
    /// `application/x-www-form-urlencoded`.
    UrlencodedForm,
}

/// One input parameter, as the listing names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Param {
    pub name: String,
    pub place: Place,
    /// A JSON Schema type ("string", "integer", ...), when the listing gives one.
    pub kind: Option<&'static str>,
    pub required: bool,
    /// A value the listing gives for it, at most [`MAX_EXAMPLE_BYTES`] of JSON: its own
    /// example (v2 `info.input`), else its schema's `examples`, `example`, `default` or
    /// first `enum` value. Unscreened: see the module's note.
    pub example: Option<Value>,
}

/// What the listing says a paid call answers: provider's claims, shown as such.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Output {
    pub kind: OutputKind,
    /// At most [`MAX_OUTPUT_BYTES`] of JSON; a larger object keeps its top-level keys,
    /// each with the value `"…"`, and `cut` says so.
    pub value: Value,
    pub cut: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputKind {
    /// An example answer (v2 `extensions.bazaar.info.output.example`).
    Example,
    /// The answer's fields and their types, as described (v1 `outputSchema.output`).
    Fields,
}

/// Longest output description kept whole, in bytes of JSON.
pub(crate) const MAX_OUTPUT_BYTES: usize = 2048;

/// What an item says a paid call answers, when it says it with a JSON object or array.
pub(crate) fn read_output(item: &Map<String, Value>) -> Option<Output> {
    let v2 = item.get("extensions").and_then(|e| e.pointer("/bazaar/info/output/example"));
    let (kind, value) = match v2.filter(|v| v.is_object() || v.is_array()) {
        Some(example) => (OutputKind::Example, example),
        None => {
            let accepts = item.get("accepts").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let fields =
                accepts.iter().take(16).find_map(|a| a.pointer("/outputSchema/output").filter(|o| o.is_object()));
            (OutputKind::Fields, fields?)
        }
    };
    let whole = serde_json::to_string(value).is_ok_and(|t| t.len() <= MAX_OUTPUT_BYTES);
    if whole {
        return Some(Output { kind, value: value.clone(), cut: false });
    }
    let keys: Map<String, Value> = value
        .as_object()?
        .keys()
        .take(MAX_PARAMS)
        .filter(|k| k.chars().count() <= MAX_PARAM_CHARS)
        .map(|k| (k.clone(), Value::String("…".to_owned())))
        .collect();
    Some(Output { kind, value: Value::Object(keys), cut: true })
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
            Place::Body => "body",
        }
    }
}

const TYPES: [&str; 7] = ["string", "number", "integer", "boolean", "object", "array", "null"];
const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
/// Headers the x402 exchange itself sets: not the caller's input.
const PAYMENT_HEADERS: [&str; 4] = ["x-payment", "payment-signature", "x-payment-response", "payment-required"];

/// The call an item describes, or `None` when it names neither a method nor a parameter.
pub(crate) fn read_call(item: &Map<String, Value>) -> Option<Call> {
    let mut call = Call { method: None, params: Vec::new(), body_type: None };
    // v2: the bazaar extension's info names the method and gives values; its JSON
    // Schema names the parameters.
    if let Some(bazaar) = item.get("extensions").and_then(|e| e.get("bazaar")) {
        let info = bazaar.get("info").and_then(|i| i.get("input"));
        call.method = info.and_then(|i| method_of(i.get("method")));
        call.body_type = info.and_then(body_type_of);
        let schema_input = bazaar.pointer("/schema/properties/input/properties");
        for (keys, place) in PLACES {
            for key in keys {
                let given = info.and_then(|i| i.get(*key)).and_then(Value::as_object);
                match schema_input.and_then(|s| s.get(*key)) {
                    Some(schema) => add_schema_params(&mut call.params, schema, place, given),
                    None => {
                        // No schema for this place: the example's keys are its names.
                        for (name, value) in given.into_iter().flatten() {
                            add(&mut call.params, name, place, None, false, example(Some(value)));
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
            call.body_type = body_type_of(input);
            for (keys, place) in PLACES {
                for key in keys {
                    if let Some(Value::Object(fields)) = input.get(*key) {
                        for (name, spec) in fields {
                            let (kind, required, value) = match spec {
                                Value::Object(spec) => (
                                    type_of(spec.get("type")),
                                    spec.get("required").and_then(Value::as_bool).unwrap_or(false),
                                    schema_example(spec),
                                ),
                                Value::String(kind) => (TYPES.iter().copied().find(|t| *t == kind), false, None),
                                _ => (None, false, None),
                            };
                            add(&mut call.params, name, place, kind, required, value);
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

/// How the body is encoded, from an input's `bodyType` (v1 also `body_type`).
fn body_type_of(input: &Value) -> Option<BodyType> {
    let said = input.get("bodyType").or_else(|| input.get("body_type"))?.as_str()?;
    match said.trim().to_ascii_lowercase().as_str() {
        "json" | "application/json" => Some(BodyType::Json),
        "form-data" | "multipart-form-data" | "multipart/form-data" | "multipart" => Some(BodyType::MultipartForm),
        "form" | "x-www-form-urlencoded" | "application/x-www-form-urlencoded" | "urlencoded" => {
            Some(BodyType::UrlencodedForm)
        }
        _ => None,
    }
}

/// A value the listing gives, kept when it is short.
fn example(value: Option<&Value>) -> Option<Value> {
    let value = value?;
    let short = !value.is_null() && serde_json::to_string(value).is_ok_and(|t| t.len() <= MAX_EXAMPLE_BYTES);
    short.then(|| value.clone())
}

/// A schema property's own value: its first `examples`, its `example`, its `default`,
/// or its first `enum` value, the first of these it has.
fn schema_example(spec: &Map<String, Value>) -> Option<Value> {
    let first = |key: &str| spec.get(key).and_then(Value::as_array).and_then(|a| a.first());
    example(first("examples").or(spec.get("example")).or(spec.get("default")).or(first("enum")))
}

/// A JSON Schema object's properties as parameters, with its `required` list; values
/// from `given` (the listing's own example of this place), else from the schema.
fn add_schema_params(params: &mut Vec<Param>, schema: &Value, place: Place, given: Option<&Map<String, Value>>) {
    let Some(Value::Object(properties)) = schema.get("properties") else { return };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (name, spec) in properties {
        let value = example(given.and_then(|g| g.get(name))).or_else(|| spec.as_object().and_then(schema_example));
        add(params, name, place, type_of(spec.get("type")), required.contains(&name.as_str()), value);
    }
}

fn add(
    params: &mut Vec<Param>,
    name: &str,
    place: Place,
    kind: Option<&'static str>,
    required: bool,
    example: Option<Value>,
) {
    let name = name.trim();
    // A name with a hidden character could not be shown as it is sent (crate::hidden).
    let usable = !name.is_empty()
        && name.chars().count() <= MAX_PARAM_CHARS
        && !name.chars().any(|c| c.is_control() || crate::hidden::is_hidden(c));
    let payment_header = place == Place::Header && PAYMENT_HEADERS.contains(&name.to_ascii_lowercase().as_str());
    if !usable
        || payment_header
        || params.len() >= MAX_PARAMS
        || params.iter().any(|p| p.name == name && p.place == place)
    {
        return;
    }
    params.push(Param { name: name.to_owned(), place, kind, required, example });
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
            Param {
                name: "account".into(),
                place: Place::Query,
                kind: Some("string"),
                required: true,
                example: Some(json!("0xd8da…"))
            }
        );
        assert_eq!(c.params[1].kind, Some("string"));
        assert!(!c.params[1].required);
        let names_only =
            call(json!({"extensions": {"bazaar": {"info": {"input": {"method": "GET", "queryParams": {"q": "x"}}}}}}))
                .unwrap();
        assert_eq!(
            names_only.params,
            [Param { name: "q".into(), place: Place::Query, kind: None, required: false, example: Some(json!("x")) }]
        );
    }

    #[test]
    fn odd_methods_names_and_shapes_are_left_out() {
        assert_eq!(call(json!({"accepts": [{"outputSchema": {"input": {"method": "DROP TABLE"}}}]})), None);
        assert_eq!(call(json!({"accepts": "nope"})), None);
        let c = call(json!({"accepts": [{"outputSchema": {"input": {"method": "GET",
            "queryParams": {"": {}, "a\nb": {}, "x".repeat(65): {}, "ok": {"type": "weird"}}}}}]}))
        .unwrap();
        assert_eq!(
            c.params,
            [Param { name: "ok".into(), place: Place::Query, kind: None, required: false, example: None }]
        );
        let many: Map<String, Value> = (0..100).map(|i| (format!("p{i}"), json!({}))).collect();
        let c = call(json!({"accepts": [{"outputSchema": {"input": {"queryParams": many}}}]})).unwrap();
        assert_eq!(c.params.len(), MAX_PARAMS);
    }

    #[test]
    fn values_come_from_the_listing_first_then_its_schema_and_stay_short() {
        let c = call(json!({"accepts": [{"outputSchema": {"input": {"method": "POST", "bodyType": "form-data",
            "bodyFields": {
                "chain": {"type": "string", "default": "bsc", "enum": ["eth"]},
                "sort": {"type": "string", "enum": ["asc", "desc"]},
                "n": {"type": "integer", "examples": [5, 6], "default": 1},
                "long": {"type": "string", "default": "x".repeat(MAX_EXAMPLE_BYTES)},
                "none": {"type": "string", "default": null}}}}}]}))
        .unwrap();
        assert_eq!(c.body_type, Some(BodyType::MultipartForm));
        let values: Vec<(&str, Option<&Value>)> =
            c.params.iter().map(|p| (p.name.as_str(), p.example.as_ref())).collect();
        assert_eq!(
            values,
            [
                ("chain", Some(&json!("bsc"))),
                ("sort", Some(&json!("asc"))),
                ("n", Some(&json!(5))),
                ("long", None),
                ("none", None)
            ]
        );
        // v2: the listing's own value before the schema's default.
        let c = call(json!({"extensions": {"bazaar": {
            "info": {"input": {"method": "POST", "bodyType": "json", "body": {"network": "base"}}},
            "schema": {"properties": {"input": {"properties": {"body": {"properties": {
                "network": {"type": "string", "default": "ethereum"}, "address": {"type": "string", "default": "0x1"}},
                "required": ["address"]}}}}}}}}))
        .unwrap();
        assert_eq!(c.body_type, Some(BodyType::Json));
        assert_eq!(c.params[0].example, Some(json!("base")));
        assert_eq!(c.params[1].example, Some(json!("0x1")));
        assert_eq!(body_type_of(&json!({"bodyType": "xml"})), None);
        assert_eq!(body_type_of(&json!({"body_type": "x-www-form-urlencoded"})), Some(BodyType::UrlencodedForm));
    }
}
