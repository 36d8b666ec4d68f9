//! Site configuration (content/site.json): where the site lives and which domains its
//! operator runs, so that self-listings can be disclosed (never boosted, content/method.md#self-listing).

use std::sync::OnceLock;

use serde::Deserialize;

const SITE_TEXT: &str = include_str!("../../../content/site.json");

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SiteConfig {
    pub title: String,
    /// Absolute base URL, without a trailing slash.
    pub base_url: String,
    /// Domains operated by the site's operator; subdomains count too.
    pub operator_domains: Vec<String>,
}

impl SiteConfig {
    pub(crate) fn embedded() -> &'static SiteConfig {
        static SITE: OnceLock<SiteConfig> = OnceLock::new();
        SITE.get_or_init(|| {
            let mut c: SiteConfig = serde_json::from_str(SITE_TEXT).expect("content/site.json is valid");
            c.base_url = c.base_url.trim_end_matches('/').to_owned();
            c
        })
    }

    /// True when `host` is one of the operator's domains or a subdomain of one.
    pub(crate) fn is_operator_host(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.operator_domains.iter().any(|d| {
            let d = d.to_ascii_lowercase();
            host == d || host.strip_suffix(&d).is_some_and(|rest| rest.ends_with('.'))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operator_hosts_match_domain_and_subdomains_only() {
        let c = SiteConfig {
            title: "t".into(),
            base_url: "https://x".into(),
            operator_domains: vec!["x402dir.dev".into()],
        };
        assert!(c.is_operator_host("x402dir.dev"));
        assert!(c.is_operator_host("API.x402dir.dev"));
        assert!(!c.is_operator_host("evilx402dir.dev"));
        assert!(!c.is_operator_host("x402dir.dev.evil.com"));
    }
}
