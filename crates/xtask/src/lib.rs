//! Code generation, run by hand (`cargo xtask codegen`) rather than by the library: the
//! composer's shared constants and rule texts (static/rules.js, [`rules`]) and its
//! character tables (static/chars.js, [`chars`]), explore's function words
//! (static/function-words.js), and the npm MCP server's description of
//! its tool (clients/mcp/spec.json, [`mcp_spec`]), all made from the very constants and
//! functions the Rust code uses and committed. The integration tests regenerate them in
//! memory and fail when a committed file is stale (tests/it/codegen.rs).

pub mod chars;
pub mod mcp_spec;
pub mod rules;

/// Each generated file, by its path from the repository's root, with its text as this
/// build of the Rust code makes it.
pub fn generated() -> [(&'static str, String); 4] {
    [
        ("static/rules.js", rules::rules_module()),
        ("static/chars.js", chars::chars_module()),
        ("clients/mcp/spec.json", mcp_spec::spec_json()),
        ("static/function-words.js", rules::function_words_module()),
    ]
}
