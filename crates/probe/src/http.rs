//! One unpaid exchange: the request a resource page shows (method::request), sent once,
//! with redirects followed only within its scheme, host and port, the answer's head and
//! at most `Limits::body_bytes` of its body read, all within `Limits::timeout_ms`.
//!
//! No payment header is ever sent: a listing's header parameter named like one
//! (`X-PAYMENT`, `PAYMENT-SIGNATURE`) is left out, as are the headers that frame the
//! exchange (`Host`, `Connection`, `Content-Length`, ...), which the client sets.

use std::time::{Duration, Instant};

use method::request::{percent_encode, Body, Request};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONNECTION, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use reqwest::{Client, Method, StatusCode, Url};

use method::probe::{Failure, Limits};

/// Header names never sent from a listing: payment headers, and those the client sets.
const NOT_SENT: [&str; 14] = [
    "x-payment",
    "payment-signature",
    "payment-required",
    "host",
    "connection",
    "content-length",
    "transfer-encoding",
    "te",
    "upgrade",
    "keep-alive",
    "proxy-authorization",
    "proxy-connection",
    "user-agent",
    "content-type",
];

const MULTIPART_BOUNDARY: &str = "x402dir-probe-7f3a9c";

/// What is sent, ready: made once per resource before any connection is opened.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub method: Method,
    pub url: Url,
    pub headers: HeaderMap,
    /// The body and its content type.
    pub body: Option<(Vec<u8>, &'static str)>,
}

impl Plan {
    /// The request as it goes on the wire; an error when it cannot be sent at all.
    pub fn of(request: &Request) -> Result<Plan, String> {
        let method = Method::from_bytes(request.method.as_bytes()).map_err(|e| format!("method: {e}"))?;
        let url = Url::parse(&request.url).map_err(|e| format!("URL: {e}"))?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
            return Err(format!("not an http or https URL: {url}"));
        }
        let mut headers = HeaderMap::new();
        for (name, value) in &request.headers {
            if NOT_SENT.contains(&name.to_ascii_lowercase().as_str()) {
                continue;
            }
            let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| format!("header {name:?}: {e}"))?;
            let value = HeaderValue::from_str(value).map_err(|e| format!("header {name}: {e}"))?;
            headers.append(name, value);
        }
        let body = request.body.as_ref().map(|body| match body {
            Body::Json(map) => (serde_json::to_vec(map).expect("a JSON map serialises"), "application/json"),
            Body::Form { multipart: false, fields } => {
                let text = fields
                    .iter()
                    .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
                    .collect::<Vec<_>>()
                    .join("&");
                (text.into_bytes(), "application/x-www-form-urlencoded")
            }
            Body::Form { multipart: true, fields } => {
                let mut text = String::new();
                for (k, v) in fields {
                    let name = k.replace(['"', '\r', '\n'], "_");
                    text.push_str(&format!(
                        "--{MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{v}\r\n"
                    ));
                }
                text.push_str(&format!("--{MULTIPART_BOUNDARY}--\r\n"));
                (text.into_bytes(), concat!("multipart/form-data; boundary=", "x402dir-probe-7f3a9c"))
            }
        });
        Ok(Plan { method, url, headers, body })
    }

    /// `scheme://host:port`: what "one host" means for the connection caps and redirects.
    pub fn host_key(&self) -> String {
        origin(&self.url)
    }
}

fn origin(url: &Url) -> String {
    format!("{}://{}:{}", url.scheme(), url.host_str().unwrap_or(""), url.port_or_known_default().unwrap_or(0))
}

/// What came back from one exchange.
#[derive(Debug, Default)]
pub(crate) struct Answer {
    pub status: Option<u16>,
    pub failure: Option<Failure>,
    pub ms_to_first_byte: Option<u64>,
    /// The `PAYMENT-REQUIRED` header's value, when sent.
    pub payment_required: Option<Vec<u8>>,
    pub retry_after: Option<String>,
    pub body: Vec<u8>,
    /// The body ended within the cap (false when cut, broken off or not read).
    pub body_complete: bool,
    pub body_cut: bool,
}

/// The one client of a walk: HTTP/1.1 only (hyper's caps on a head: its read buffer and
/// 100 headers), no connection kept once its answer is read (so open connections are
/// the exchanges under way), no redirect followed by the client, no proxy.
pub(crate) fn client(user_agent: &str, limits: &Limits) -> Result<Client, String> {
    let mut headers = HeaderMap::new();
    headers.insert(CONNECTION, HeaderValue::from_static("close"));
    let mut builder = Client::builder();
    // The weekly run's rehearsal (tools/weekly-dry-run) has no internet: this names the one
    // address every host name resolves to there, so its probe step runs on loopback.
    if let Some(ip) = std::env::var(TEST_RESOLVE).ok().filter(|v| !v.is_empty()) {
        let ip: std::net::IpAddr = ip.parse().map_err(|e| format!("{TEST_RESOLVE}={ip}: not an IP address: {e}"))?;
        builder = builder.dns_resolver(std::sync::Arc::new(Everywhere(ip)));
    }
    builder
        .user_agent(user_agent)
        .default_headers(headers)
        .http1_only()
        .pool_max_idle_per_host(0)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .connect_timeout(Duration::from_millis(limits.timeout_ms))
        .build()
        .map_err(|e| format!("cannot make the HTTP client: {e}"))
}

/// The variable that makes every host name resolve to one address (tests only).
const TEST_RESOLVE: &str = "X402DIR_TEST_PROBE_RESOLVE";

/// Every host name at one address; the URL's port is kept.
struct Everywhere(std::net::IpAddr);

impl reqwest::dns::Resolve for Everywhere {
    fn resolve(&self, _name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let addr = std::net::SocketAddr::new(self.0, 0);
        Box::pin(async move { Ok(Box::new(std::iter::once(addr)) as reqwest::dns::Addrs) })
    }
}

/// Sends `plan` once (and its redirects within the host) and reads the answer, within
/// the time cap: what arrived before the cap is kept, with `timeout` as the failure.
pub(crate) async fn exchange(client: &Client, plan: &Plan, limits: &Limits) -> Answer {
    let mut answer = Answer::default();
    let cap = Duration::from_millis(limits.timeout_ms);
    if tokio::time::timeout(cap, follow(client, plan, limits, &mut answer)).await.is_err() {
        answer.failure = Some(Failure::Timeout);
    }
    answer
}

async fn follow(client: &Client, plan: &Plan, limits: &Limits, answer: &mut Answer) {
    let start = Instant::now();
    let mut url = plan.url.clone();
    let mut method = plan.method.clone();
    let mut body = plan.body.clone();
    for hop in 0..=limits.redirects {
        let mut request = client.request(method.clone(), url.clone()).headers(plan.headers.clone());
        if let Some((bytes, kind)) = &body {
            request = request.header(CONTENT_TYPE, *kind).body(bytes.clone());
        }
        let mut response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                answer.failure = Some(classify(&e));
                return;
            }
        };
        answer.ms_to_first_byte = Some(start.elapsed().as_millis() as u64);
        let status = response.status();
        answer.status = Some(status.as_u16());
        if status.is_redirection() {
            if let Some(location) = response.headers().get(LOCATION) {
                if hop == limits.redirects {
                    answer.failure = Some(Failure::TooManyRedirects);
                    return;
                }
                match location.to_str().ok().and_then(|l| url.join(l).ok()) {
                    Some(next) if origin(&next) == origin(&url) => {
                        // 303, and 301 or 302 after a POST, become a GET without a body
                        // (RFC 9110 15.4); 307 and 308 repeat the request as it was.
                        let to_get = status == StatusCode::SEE_OTHER
                            || (method == Method::POST
                                && matches!(status, StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND));
                        if to_get {
                            method = if method == Method::HEAD { Method::HEAD } else { Method::GET };
                            body = None;
                        }
                        url = next;
                        continue;
                    }
                    _ => {
                        answer.failure = Some(Failure::RedirectElsewhere);
                        return;
                    }
                }
            }
        }
        let headers = response.headers();
        answer.payment_required = headers.get("payment-required").map(|v| v.as_bytes().to_vec());
        answer.retry_after = headers.get(RETRY_AFTER).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let cap = limits.body_bytes as usize;
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    let room = cap - answer.body.len();
                    if chunk.len() > room {
                        answer.body.extend_from_slice(&chunk[..room]);
                        answer.body_cut = true;
                        return;
                    }
                    answer.body.extend_from_slice(&chunk);
                }
                Ok(None) => {
                    answer.body_complete = true;
                    return;
                }
                Err(e) => {
                    answer.failure = Some(classify(&e));
                    return;
                }
            }
        }
    }
}

/// What kind of failure an error is, from its chain of causes.
fn classify(e: &reqwest::Error) -> Failure {
    let mut text = String::new();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    let mut kind = None;
    while let Some(s) = source {
        text.push_str(&s.to_string().to_ascii_lowercase());
        text.push('\n');
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            kind = kind.or(Some(io.kind()));
        }
        source = s.source();
    }
    use std::io::ErrorKind as K;
    if text.contains("dns error") || text.contains("failed to lookup address") {
        return Failure::Dns;
    }
    match kind {
        Some(K::ConnectionRefused) => return Failure::Refused,
        Some(K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof) => return Failure::Reset,
        Some(K::TimedOut) => return Failure::Timeout,
        _ => {}
    }
    if text.contains("certificate") || text.contains("tls") || text.contains("handshake") {
        Failure::Tls
    } else if text.contains("connection refused") {
        Failure::Refused
    } else if text.contains("connection reset")
        || text.contains("connection closed before message completed")
        || text.contains("unexpected eof")
        || text.contains("end of file before message length reached")
    {
        Failure::Reset
    } else if e.is_timeout() {
        Failure::Timeout
    } else {
        Failure::Other
    }
}

/// A Retry-After within `max`: seconds, or an HTTP date from now.
pub(crate) fn retry_after(value: &str, max: u64) -> Option<u64> {
    let value = value.trim();
    let seconds = match value.parse::<u64>() {
        Ok(s) => s,
        Err(_) => {
            let at = time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc2822).ok()?;
            (at - time::OffsetDateTime::now_utc()).whole_seconds().max(0) as u64
        }
    };
    (seconds <= max).then_some(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_seconds_or_a_date_within_the_cap() {
        assert_eq!(retry_after("1", 60), Some(1));
        assert_eq!(retry_after(" 60 ", 60), Some(60));
        assert_eq!(retry_after("61", 60), None);
        assert_eq!(retry_after("soon", 60), None);
        assert_eq!(retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 60), Some(0));
    }

    #[test]
    fn a_plan_leaves_out_payment_and_framing_headers() {
        let request = Request {
            method: "POST".into(),
            method_declared: true,
            url: "https://a.example:8443/x?q=1".into(),
            headers: vec![
                ("X-PAYMENT".into(), "<X-PAYMENT>".into()),
                ("Host".into(), "b.example".into()),
                ("X-Key".into(), "<X-Key>".into()),
            ],
            body: Some(Body::Form { multipart: false, fields: vec![("a b".into(), "c&d".into())] }),
            body_type: None,
            sent: vec![],
            optional: vec![],
            gaps: vec![],
        };
        let plan = Plan::of(&request).unwrap();
        assert_eq!(plan.headers.len(), 1);
        assert_eq!(plan.headers["x-key"], "<X-Key>");
        assert_eq!(plan.body.as_ref().unwrap().0, b"a%20b=c%26d");
        assert_eq!(plan.host_key(), "https://a.example:8443");
        let ftp = Request { url: "ftp://a.example/".into(), ..request };
        assert!(Plan::of(&ftp).is_err());
    }
}
