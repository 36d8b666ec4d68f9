//! A small HTML start-tag scanner for checking built pages.

pub struct Tag {
    pub name: String,
    pub attributes: Vec<(String, String)>,
}

/// The start tags of an HTML document, with their attributes (quoted or not). Text
/// and attribute values are skipped, so escaped catalogue text can never look like a tag.
pub fn tags(html: &str) -> Vec<Tag> {
    let b = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<' && i + 1 < b.len() && b[i + 1].is_ascii_alphabetic() {
            i += 1;
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' && b[i] != b'/' {
                i += 1;
            }
            let mut tag = Tag { name: html[start..i].to_ascii_lowercase(), attributes: Vec::new() };
            loop {
                while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
                    i += 1;
                }
                if i >= b.len() || b[i] == b'>' {
                    break;
                }
                let ns = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' && b[i] != b'>' {
                    i += 1;
                }
                let name = html[ns..i].to_ascii_lowercase();
                let mut value = String::new();
                if i < b.len() && b[i] == b'=' {
                    i += 1;
                    if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                        let q = b[i];
                        i += 1;
                        let vs = i;
                        while i < b.len() && b[i] != q {
                            i += 1;
                        }
                        value = html[vs..i].to_owned();
                        i += 1;
                    } else {
                        let vs = i;
                        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                            i += 1;
                        }
                        value = html[vs..i].to_owned();
                    }
                }
                tag.attributes.push((name, value));
            }
            // Title, script and style content is raw text: nothing inside is a tag.
            if ["title", "script", "style", "textarea"].contains(&tag.name.as_str()) {
                let close = format!("</{}", tag.name);
                i = html[i..].find(&close).map_or(b.len(), |at| i + at);
            }
            out.push(tag);
        }
        i += 1;
    }
    out
}

/// The only scripts a page may load: the site's own modules, by the end of their path
/// (each dated folder's `static/`). No inline script, nothing from the catalogue.
pub const OUR_SCRIPTS: [&str; 4] =
    ["/static/search.js", "/static/explore-page.js", "/static/snapshot.js", "/static/copy.js"];

/// Whether a `<script>` tag's attributes load one of [`OUR_SCRIPTS`].
pub fn is_our_script(attributes: &[(String, String)]) -> bool {
    attributes.iter().any(|(n, v)| n == "src" && OUR_SCRIPTS.iter().any(|ours| v.ends_with(ours)))
}

/// Text as the page escaped it, decoded in one pass (so `&#38;amp;` is `&amp;`): the
/// numeric entities the site's escaper writes and the named ones.
pub fn unescape(text: &str) -> String {
    const ENTITIES: [(&str, char); 9] = [
        ("&#34;", '"'),
        ("&quot;", '"'),
        ("&#39;", '\''),
        ("&#60;", '<'),
        ("&lt;", '<'),
        ("&#62;", '>'),
        ("&gt;", '>'),
        ("&#38;", '&'),
        ("&amp;", '&'),
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match ENTITIES.iter().find(|(entity, _)| rest.starts_with(entity)) {
            Some((entity, c)) => {
                out.push(*c);
                rest = &rest[entity.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The decoded text of the `<pre … id="ID" tabindex="0"><code>` block of a page (the
/// call and the programs of a resource page), if it has one.
pub fn code_block(page: &str, id: &str) -> Option<String> {
    let at = page.find(&format!(r#" id="{id}" tabindex="0"><code>"#))?;
    let start = at + page[at..].find("<code>")? + "<code>".len();
    Some(unescape(&page[start..start + page[start..].find("</code>")?]))
}
