//! A discovery API on loopback, in the test process, serving real catalogue items
//! page by page with the API's paging rules, and faults on demand.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};

/// What the server does with one request.
pub enum Action {
    /// The page as the API would serve it.
    Serve,
    /// The page, computed over other items and total (a catalogue that moved).
    ServeFrom { items: Vec<Value>, total: u64 },
    /// A status with headers and a body.
    Status { code: u16, headers: Vec<(String, String)>, body: String },
    /// Close the connection without answering.
    Drop,
    /// A 200 whose body stops half-way.
    Truncate,
    /// Wait, then serve.
    Delay(Duration),
}

pub struct Request {
    /// The path asked for, without the query.
    pub path: String,
    pub limit: u64,
    pub offset: u64,
    /// Requests seen before this one (0 for the first).
    pub index: usize,
    pub user_agent: String,
}

type Script = dyn Fn(&Request) -> Action + Send + Sync;

pub struct CatalogueServer {
    pub base_url: String,
    pub log: Arc<Mutex<Vec<(u64, u64, String)>>>,
}

/// The API's paging: limit rounded to 10 and clamped to 20..=1000, offset snapped down.
fn page(items: &[Value], total: u64, limit: u64, offset: u64) -> Value {
    let limit = ((limit + 5) / 10 * 10).clamp(20, 1000);
    let offset = offset / limit * limit;
    let start = (offset as usize).min(items.len());
    let end = (start + limit as usize).min(items.len());
    json!({"x402Version": 2, "items": items[start..end], "pagination": {"limit": limit, "offset": offset, "total": total}})
}

impl CatalogueServer {
    pub fn start(items: Vec<Value>, script: impl Fn(&Request) -> Action + Send + Sync + 'static) -> CatalogueServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://{}/platform/v2/x402/discovery/resources", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let log = Arc::new(Mutex::new(Vec::new()));
        let items = Arc::new(items);
        let script: Arc<Script> = Arc::new(script);
        let (r, l) = (requests.clone(), log.clone());
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (items, script, r, l) = (items.clone(), script.clone(), r.clone(), l.clone());
                thread::spawn(move || handle(stream, &items, &*script, &r, &l));
            }
        });
        CatalogueServer { base_url, log }
    }
}

fn handle(
    mut stream: TcpStream,
    items: &[Value],
    script: &Script,
    count: &AtomicUsize,
    log: &Mutex<Vec<(u64, u64, String)>>,
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    let mut user_agent = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() || line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("user-agent:") {
            user_agent = v.trim().to_owned();
        }
    }
    let target = first.split_whitespace().nth(1).unwrap_or("/");
    let param = |name: &str| -> u64 {
        target
            .split(['?', '&'])
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let request = Request {
        path: target.split('?').next().unwrap_or("/").to_owned(),
        limit: param("limit"),
        offset: param("offset"),
        index: count.fetch_add(1, Ordering::SeqCst),
        user_agent,
    };
    log.lock().unwrap().push((request.limit, request.offset, request.user_agent.clone()));
    let respond = |stream: &mut TcpStream, code: u16, headers: &[(String, String)], body: &[u8]| {
        let mut head = format!(
            "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body);
    };
    let total = items.len() as u64;
    match script(&request) {
        Action::Serve => {
            respond(&mut stream, 200, &[], page(items, total, request.limit, request.offset).to_string().as_bytes())
        }
        Action::ServeFrom { items, total } => {
            respond(&mut stream, 200, &[], page(&items, total, request.limit, request.offset).to_string().as_bytes())
        }
        Action::Status { code, headers, body } => respond(&mut stream, code, &headers, body.as_bytes()),
        Action::Drop => {}
        Action::Truncate => {
            let body = page(items, total, request.limit, request.offset).to_string();
            let cut = &body.as_bytes()[..body.len() / 2];
            // Announce the full length, send half, close: a connection dropped mid-body.
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                cut.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(cut);
        }
        Action::Delay(d) => {
            thread::sleep(d);
            respond(&mut stream, 200, &[], page(items, total, request.limit, request.offset).to_string().as_bytes());
        }
    }
    let _ = stream.flush();
}
