//! clients/mcp/spec.json: what the npm package `x402dir-mcp` needs to speak as `x402dir
//! mcp` does (its tool, schemas, protocol revisions, instructions and limits, from
//! [`mcp::description`]), the published site it reads by default (content/site.json's
//! `base_url`) and the API layouts it can read. The package holds no rule: it answers
//! through the composer each snapshot publishes (docs/static-api.md).

use serde_json::json;
use site::api::method::API_VERSION;

/// The file's text: pretty JSON with a trailing newline.
pub fn spec_json() -> String {
    let method = method::Method::embedded();
    let spec = json!({
        "generated": "by cargo xtask codegen from crates/mcp (mcp::description) and content/site.json; do not edit",
        "site": method.site.base_url,
        "api_versions": [API_VERSION],
        "mcp": mcp::description(),
    });
    let mut text = serde_json::to_string_pretty(&spec).expect("the spec serialises");
    text.push('\n');
    text
}
