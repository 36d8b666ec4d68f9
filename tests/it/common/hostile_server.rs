//! A hostile peer on loopback: a server that reads a request's head and then writes
//! whatever its script writes (lies in the headers, bodies that never end), until the
//! client hangs up.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

pub struct HostileServer {
    /// The discovery endpoint's URL on this server.
    pub base_url: String,
    /// Requests answered so far.
    pub requests: Arc<AtomicUsize>,
}

/// The request's target (`/path?limit=..&offset=..`), and a query parameter of it.
pub struct Asked {
    pub target: String,
}

impl Asked {
    pub fn param(&self, name: &str) -> u64 {
        self.target
            .split(['?', '&'])
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }
}

impl HostileServer {
    /// Serves every connection on its own thread, answering its requests in turn with
    /// `script`, which writes the whole answer; a write error (the client hung up) or the
    /// client closing ends it. The connection stays open between answers, as an HTTP/1.1
    /// server's does: closed unannounced after each one, it raced the client's reuse of
    /// it, and a walk now and then failed on "connection closed" rather than on what its
    /// test sets up.
    pub fn start(
        script: impl Fn(&Asked, &mut TcpStream) -> std::io::Result<()> + Send + Sync + 'static,
    ) -> HostileServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://{}/platform/v2/x402/discovery/resources", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let script = Arc::new(script);
        let counted = requests.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (script, counted) = (script.clone(), counted.clone());
                thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    loop {
                        let mut first = String::new();
                        if !reader.read_line(&mut first).is_ok_and(|n| n > 0) {
                            return;
                        }
                        let mut line = String::new();
                        while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                            line.clear();
                        }
                        counted.fetch_add(1, Ordering::SeqCst);
                        let asked = Asked { target: first.split_whitespace().nth(1).unwrap_or("/").to_owned() };
                        if script(&asked, &mut stream).and_then(|()| stream.flush()).is_err() {
                            return;
                        }
                    }
                });
            }
        });
        HostileServer { base_url, requests }
    }
}

/// Writes `chunk` again and again until the client hangs up or exactly `limit` bytes
/// went.
pub fn write_forever(stream: &mut TcpStream, chunk: &[u8], limit: u64) -> std::io::Result<()> {
    let mut sent = 0u64;
    while sent < limit {
        let n = chunk.len().min((limit - sent).try_into().unwrap_or(usize::MAX));
        stream.write_all(&chunk[..n])?;
        sent += n as u64;
    }
    Ok(())
}
