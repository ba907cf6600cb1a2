//! The stdio gate between the client and rmcp.
//!
//! rmcp's stdio transport drops non-JSON lines and lines over 16 MiB without a reply (the client
//! then waits forever), and ends the whole session when a notification or response arrives before
//! the first request. This gate reads stdin line by line, bounded: it answers an oversized line
//! with -32600 and unparsable JSON with -32700, drops what would end the session before it has
//! started, and passes everything else on; its replies wait in a bounded queue. One writer task puts rmcp's lines and the gate's own
//! replies on stdout, so lines never interleave. Nothing else ever writes to stdout.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// The longest request line accepted (MCP requests are small; a bigger one gets -32600).
pub const MAX_LINE: usize = 4 << 20;

/// The gate's own replies waiting for stdout. When the client does not read them, the queue
/// fills and the gate stops reading stdin until it drains — the backpressure a pipe gives —
/// so a client that writes garbage and never reads cannot grow the server's memory.
const QUEUED_REPLIES: usize = 64;

/// The two ends rmcp talks to, and the tasks behind them.
pub struct Gate {
    /// `(reader, writer)` for `serve`.
    pub transport: (DuplexStream, DuplexStream),
    /// Ends after rmcp's last line is on stdout.
    pub writer: JoinHandle<()>,
    /// Becomes `true` at stdin EOF, so long-lived handlers (`subscriptions/listen`) end at once.
    pub eof: watch::Receiver<bool>,
}

fn reply(code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": Value::Null, "error": {"code": code, "message": message}})
        .to_string()
}

/// Whether a message starts a session: `initialize`, or a request carrying the stateless
/// protocol's version in `_meta`.
fn starts_session(message: &Value) -> bool {
    message["method"] == "initialize"
        || message
            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .is_some()
}

/// Starts the gate on this process's stdin and stdout.
pub fn open() -> Gate {
    let (eof_sender, eof) = watch::channel(false);
    let (to_rmcp, mut feed) = tokio::io::duplex(1 << 16);
    let (from_rmcp, output) = tokio::io::duplex(1 << 16);
    let (replies, mut replies_in) = mpsc::channel::<String>(QUEUED_REPLIES);
    tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        let mut started = false;
        // Built once: a flood of garbage lines costs a copy per line, not a JSON document.
        let not_json = reply(-32700, "parse error: not JSON");
        loop {
            line.clear();
            let limit = MAX_LINE as u64 + 1;
            let Ok(read) = (&mut stdin).take(limit).read_until(b'\n', &mut line).await else {
                break;
            };
            if read == 0 {
                break;
            }
            if read as u64 == limit && !line.ends_with(b"\n") {
                skip_rest_of_line(&mut stdin).await;
                let _ = replies.send(reply(-32600, "request too large")).await;
                continue;
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let Ok(message) = serde_json::from_slice::<Value>(&line) else {
                let _ = replies.send(not_json.clone()).await;
                continue;
            };
            if !started {
                let is_request = message.get("method").is_some() && message.get("id").is_some();
                if !is_request {
                    // rmcp would end the session on anything but a request here.
                    continue;
                }
                started = starts_session(&message);
            }
            if feed.write_all(&line).await.is_err()
                || (!line.ends_with(b"\n") && feed.write_all(b"\n").await.is_err())
            {
                break;
            }
        }
        let _ = eof_sender.send(true);
        // Dropping `feed` tells rmcp the input is over.
    });
    let writer = tokio::spawn(async move {
        // Buffered, flushed whenever no reply waits: a flood of replies goes out in big writes.
        let mut stdout = tokio::io::BufWriter::new(tokio::io::stdout());
        let mut lines = BufReader::new(output).lines();
        loop {
            let line = tokio::select! {
                line = lines.next_line() => match line {
                    Ok(Some(line)) => line,
                    _ => break,
                },
                Some(line) = replies_in.recv() => line,
            };
            if stdout.write_all(line.as_bytes()).await.is_err()
                || stdout.write_all(b"\n").await.is_err()
            {
                break;
            }
            if replies_in.is_empty() {
                // Let the reader queue what it already has before paying for a write.
                tokio::task::yield_now().await;
            }
            if replies_in.is_empty() && stdout.flush().await.is_err() {
                break;
            }
        }
        let _ = stdout.flush().await;
    });
    Gate {
        transport: (to_rmcp, from_rmcp),
        writer,
        eof,
    }
}

/// Reads and drops the rest of an oversized line without holding it in memory.
async fn skip_rest_of_line(stdin: &mut BufReader<tokio::io::Stdin>) {
    loop {
        let Ok(chunk) = stdin.fill_buf().await else {
            return;
        };
        if chunk.is_empty() {
            return;
        }
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        stdin.consume(used);
        if done {
            return;
        }
    }
}
