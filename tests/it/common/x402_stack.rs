//! The local x402 stack (tests/x402/stack.mjs: a chain, the official sellers and their
//! facilitator), as the suites that pay or probe its sellers drive it. Stopped when
//! dropped: closing its stdin stops it and its chain.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use super::repo_root;

pub struct Stack {
    child: Child,
    /// The stack's one ready line: its control address, sellers, payer and chain.
    pub ready: Value,
}

impl Stack {
    /// Starts the stack with `config`, its log going to `stderr`; returns once it is ready.
    pub fn start(config: &Path, stderr: Stdio) -> Stack {
        let mut child = Command::new("node")
            .arg(repo_root().join("tests/x402/stack.mjs"))
            .arg(config)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("node runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let ready: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("the stack's ready line: {e}: {line:?}"));
        Stack { child, ready }
    }

    /// The body of a GET of the stack's control address `path`, which must answer 200.
    pub fn control(&self, path: &str) -> String {
        let url = format!("{}{path}", self.ready["control"].as_str().unwrap());
        let rest = url.strip_prefix("http://").unwrap();
        let (host, target) = rest.split_once('/').unwrap();
        let mut s = TcpStream::connect(host).unwrap();
        // HTTP/1.0, so the body comes whole up to the close, never chunked.
        write!(s, "GET /{target} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200 "), "{url}: {head}");
        body.to_owned()
    }

    /// [`Stack::control`]'s body as JSON.
    pub fn control_json(&self, path: &str) -> Value {
        serde_json::from_str(&self.control(path)).unwrap()
    }

    /// What `owner` holds of `asset` on the stack's chain, in atomic units.
    pub fn balance(&self, asset: &str, owner: &str) -> u128 {
        self.control(&format!("/balance?asset={asset}&owner={owner}")).trim().parse().unwrap()
    }

    /// The paid requests the seller `id` served.
    pub fn seen(&self, id: &str) -> Vec<Value> {
        self.control_json(&format!("/seen/{id}")).as_array().unwrap().clone()
    }

    /// The URL of the seller `id` of the config.
    pub fn seller(&self, id: &str) -> &str {
        self.ready["sellers"][id].as_str().unwrap()
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}
