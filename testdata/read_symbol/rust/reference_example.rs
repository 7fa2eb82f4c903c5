//! The reference page's outline example: this file's outline is exactly
//! 14 enum Incoming, 33 struct Rpc, 42 impl Rpc, 43 method spawn,
//! 150 method call.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// What the reader thread hands to the caller.
#[derive(Debug)]
#[allow(dead_code)]
enum Incoming {
    /// A response to one of our requests.
    Response { id: u64, body: String },
    /// A notification from the server.
    Notification { method: String, body: String },
    /// The server closed its output.
    Closed,
}


/// A JSON-RPC connection to a child process.
///
/// Requests are numbered from 1; responses are matched by id.
#[allow(dead_code)]





pub struct Rpc {
    child: Child,
    next_id: u64,
    pending: Arc<Mutex<HashMap<u64, Sender<String>>>>,
    incoming: Receiver<Incoming>,
}



impl Rpc {
    pub fn spawn(program: &str, args: &[&str]) -> std::io::Result<Rpc> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, incoming) = channel();
        let pending: Arc<Mutex<HashMap<u64, Sender<String>>>> = Arc::default();
        let waiting = Arc::clone(&pending);
        std::thread::spawn(move || {
            let reader = std::io::BufReader::new(stdout);
            for line in reader.lines() {
                let Ok(line) = line else { break };
                let id = parse_id(&line);
                match id.and_then(|id| waiting.lock().unwrap().remove(&id)) {
                    Some(reply) => {
                        let _ = reply.send(line);
                    }
                    None => {
                        let _ = tx.send(Incoming::Notification {
                            method: String::new(),
                            body: line,
                        });
                    }
                }
            }
            let _ = tx.send(Incoming::Closed);
        });
        Ok(Rpc {
            child,
            next_id: 1,
            pending,
            incoming,
        })
    }

    /// Sends one request and waits for its response.
    ///
    /// The doc comment above an item does not move its line: the outline
    /// gives the line of `call` itself. Code in doc comments is not an item:
    ///
    /// ```no_run
    /// # use reference_example::Rpc;
    /// fn main() -> std::io::Result<()> {
    ///     let mut rpc = Rpc::spawn("zumba", &["mcp", "."])?;
    ///     let reply = rpc.call("tools/list", "{}")?;
    ///     println!("{reply}");
    ///     Ok(())
    /// }
    /// ```
    ///
    /// # Protocol notes
    ///
    /// - note 1: one JSON-RPC message per line, ids echoed exactly.
    /// - note 2: one JSON-RPC message per line, ids echoed exactly.
    /// - note 3: one JSON-RPC message per line, ids echoed exactly.
    /// - note 4: one JSON-RPC message per line, ids echoed exactly.
    /// - note 5: one JSON-RPC message per line, ids echoed exactly.
    /// - note 6: one JSON-RPC message per line, ids echoed exactly.
    /// - note 7: one JSON-RPC message per line, ids echoed exactly.
    /// - note 8: one JSON-RPC message per line, ids echoed exactly.
    /// - note 9: one JSON-RPC message per line, ids echoed exactly.
    /// - note 10: one JSON-RPC message per line, ids echoed exactly.
    /// - note 11: one JSON-RPC message per line, ids echoed exactly.
    /// - note 12: one JSON-RPC message per line, ids echoed exactly.
    /// - note 13: one JSON-RPC message per line, ids echoed exactly.
    /// - note 14: one JSON-RPC message per line, ids echoed exactly.
    /// - note 15: one JSON-RPC message per line, ids echoed exactly.
    /// - note 16: one JSON-RPC message per line, ids echoed exactly.
    /// - note 17: one JSON-RPC message per line, ids echoed exactly.
    /// - note 18: one JSON-RPC message per line, ids echoed exactly.
    /// - note 19: one JSON-RPC message per line, ids echoed exactly.
    /// - note 20: one JSON-RPC message per line, ids echoed exactly.
    /// - note 21: one JSON-RPC message per line, ids echoed exactly.
    /// - note 22: one JSON-RPC message per line, ids echoed exactly.
    /// - note 23: one JSON-RPC message per line, ids echoed exactly.
    /// - note 24: one JSON-RPC message per line, ids echoed exactly.
    /// - note 25: one JSON-RPC message per line, ids echoed exactly.
    /// - note 26: one JSON-RPC message per line, ids echoed exactly.
    /// - note 27: one JSON-RPC message per line, ids echoed exactly.
    /// - note 28: one JSON-RPC message per line, ids echoed exactly.
    /// - note 29: one JSON-RPC message per line, ids echoed exactly.
    /// - note 30: one JSON-RPC message per line, ids echoed exactly.
    /// - note 31: one JSON-RPC message per line, ids echoed exactly.
    /// - note 32: one JSON-RPC message per line, ids echoed exactly.
    /// - note 33: one JSON-RPC message per line, ids echoed exactly.
    /// - note 34: one JSON-RPC message per line, ids echoed exactly.
    /// - note 35: one JSON-RPC message per line, ids echoed exactly.
    /// - note 36: one JSON-RPC message per line, ids echoed exactly.
    /// - note 37: one JSON-RPC message per line, ids echoed exactly.
    /// - note 38: one JSON-RPC message per line, ids echoed exactly.
    /// - note 39: one JSON-RPC message per line, ids echoed exactly.
    /// - note 40: one JSON-RPC message per line, ids echoed exactly.
    /// - note 41: one JSON-RPC message per line, ids echoed exactly.
    /// - note 42: one JSON-RPC message per line, ids echoed exactly.
    /// - note 43: one JSON-RPC message per line, ids echoed exactly.
    /// - note 44: one JSON-RPC message per line, ids echoed exactly.
    /// - note 45: one JSON-RPC message per line, ids echoed exactly.
    /// - note 46: one JSON-RPC message per line, ids echoed exactly.
    /// - note 47: one JSON-RPC message per line, ids echoed exactly.
    /// - note 48: one JSON-RPC message per line, ids echoed exactly.
    /// - note 49: one JSON-RPC message per line, ids echoed exactly.
    /// - note 50: one JSON-RPC message per line, ids echoed exactly.
    /// - note 51: one JSON-RPC message per line, ids echoed exactly.
    /// - note 52: one JSON-RPC message per line, ids echoed exactly.
    #[allow(clippy::missing_errors_doc)]
    pub fn call(&mut self, method: &str, params: &str) -> std::io::Result<String> {
        let id = self.next_id;
        self.next_id += 1;
        let (tx, rx) = channel();
        self.pending.lock().unwrap().insert(id, tx);
        let stdin = self.child.stdin.as_mut().expect("piped stdin");
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#
        )?;
        rx.recv()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::BrokenPipe, e))
    }
}

fn parse_id(line: &str) -> Option<u64> {
    let rest = line.split("\"id\":").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}
