//! Helpers shared by the HTTP tests: boot the real server on `127.0.0.1:0` over a temp
//! SQLite file, a tiny blocking HTTP/1.1 client (GET / POST form, headers, cookies are just
//! headers), an SSE reader, and events built with the director's simulator.
#![allow(dead_code)]

pub mod desk;

use arbiter_store::{EventId, SqliteStore};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A running server. Dropping it stops it (graceful shutdown) and removes the database.
pub struct TestServer {
    pub addr: SocketAddr,
    /// The plain port that redirects to HTTPS ([`TestServer::start_redirecting`]).
    pub redirect: Option<SocketAddr>,
    pub db: PathBuf,
    pub app: arbiter_web::AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    _dir: tempfile::TempDir,
}

impl TestServer {
    /// Boot on an empty database; `fill` may write into it first.
    pub fn start_with(fill: impl FnOnce(&SqliteStore)) -> TestServer {
        Self::start_limited(fill, arbiter_web::net::Limits::default())
    }

    /// [`TestServer::start_with`] under the given timeouts and connection limits.
    pub fn start_limited(
        fill: impl FnOnce(&SqliteStore),
        limits: arbiter_web::net::Limits,
    ) -> TestServer {
        Self::start_full(fill, limits, None)
    }

    /// [`TestServer::start_limited`], over TLS when `tls` is given.
    pub fn start_full(
        fill: impl FnOnce(&SqliteStore),
        limits: arbiter_web::net::Limits,
        tls: Option<arbiter_web::net::Tls>,
    ) -> TestServer {
        Self::boot(fill, limits, tls, false)
    }

    /// [`TestServer::start_full`] over TLS, with a plain port that redirects every request
    /// to HTTPS (`--redirect-http`) in [`TestServer::redirect`].
    pub fn start_redirecting(
        limits: arbiter_web::net::Limits,
        tls: arbiter_web::net::Tls,
    ) -> TestServer {
        Self::boot(|_| {}, limits, Some(tls), true)
    }

    fn boot(
        fill: impl FnOnce(&SqliteStore),
        limits: arbiter_web::net::Limits,
        tls: Option<arbiter_web::net::Tls>,
        redirecting: bool,
    ) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("arbiter.db");
        {
            let store = SqliteStore::open(&db).expect("open db");
            fill(&store);
        }
        let app = arbiter_web::AppState::open(&db).expect("app state");
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = app.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                let redirect = if redirecting {
                    Some(
                        tokio::net::TcpListener::bind("127.0.0.1:0")
                            .await
                            .expect("bind"),
                    )
                } else {
                    None
                };
                tx.send((
                    listener.local_addr().expect("addr"),
                    redirect.as_ref().map(|r| r.local_addr().expect("addr")),
                ))
                .expect("send addr");
                arbiter_web::serve_on_full(
                    listener,
                    redirect,
                    served,
                    Duration::from_millis(50),
                    limits,
                    tls,
                    async {
                        let _ = stopped.await;
                    },
                )
                .await
                .expect("serve");
            });
        });
        let (addr, redirect) = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("server started");
        TestServer {
            addr,
            redirect,
            db,
            app,
            stop: Some(stop),
            thread: Some(thread),
            _dir: dir,
        }
    }

    pub fn start() -> TestServer {
        Self::start_with(|_| {})
    }

    pub fn get(&self, path: &str) -> Response {
        request(self.addr, "GET", path, &[], None)
    }

    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        request(self.addr, "GET", path, headers, None)
    }

    /// POST `application/x-www-form-urlencoded` `form` (already encoded).
    pub fn post_form(&self, path: &str, headers: &[(&str, &str)], form: &str) -> Response {
        let mut h: Vec<(&str, &str)> = headers.to_vec();
        h.push(("Content-Type", "application/x-www-form-urlencoded"));
        request(self.addr, "POST", path, &h, Some(form.as_bytes()))
    }

    /// A second connection to the same database (to append as another process would).
    pub fn store(&self) -> SqliteStore {
        SqliteStore::open(&self.db).expect("open db")
    }

    /// Open the live stream of `event`.
    pub fn sse(&self, event: &str) -> Sse {
        Sse::open(self.addr, &format!("/e/{event}/live"))
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        let n = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

fn read_head(r: &mut impl BufRead) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    r.read_line(&mut line).expect("status line");
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {line:?}"));
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line).expect("header line");
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    (status, headers)
}

/// One HTTP/1.1 request on a fresh connection (`Connection: close`).
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Response {
    let s = TcpStream::connect(addr).expect("connect");
    request_on(s, addr, method, path, headers, body)
}

/// A connection to `addr` from the local address `from` (any of 127.0.0.0/8 on loopback):
/// a client on another machine, as far as the server can tell.
pub fn connect_from(from: std::net::IpAddr, addr: SocketAddr) -> TcpStream {
    let domain = socket2::Domain::for_address(addr);
    let sock = socket2::Socket::new(domain, socket2::Type::STREAM, None).expect("socket");
    sock.bind(&SocketAddr::new(from, 0).into()).expect("bind");
    sock.connect(&addr.into()).expect("connect");
    sock.into()
}

/// [`request`] from the local address `from`.
pub fn request_from(
    from: std::net::IpAddr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Response {
    request_on(connect_from(from, addr), addr, method, path, headers, body)
}

/// One HTTP/1.1 request on the connection `s`.
pub fn request_on(
    mut s: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Response {
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).expect("write");
    if let Some(b) = body {
        s.write_all(b).expect("write body");
    }
    let mut r = BufReader::new(s);
    let (status, headers) = read_head(&mut r);
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).expect("chunk size");
            let n = usize::from_str_radix(size.trim(), 16).expect("chunk size hex");
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).expect("chunk");
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        r.read_to_end(&mut body).expect("body");
    }
    Response {
        status,
        headers,
        body,
    }
}

/// A server-sent-events stream being read.
pub struct Sse {
    reader: BufReader<TcpStream>,
    pub status: u16,
    pub content_type: String,
}

/// One SSE message.
#[derive(Debug, Clone)]
pub struct SseMessage {
    pub event: String,
    pub id: String,
    pub data: String,
}

impl Sse {
    pub fn open(addr: SocketAddr, path: &str) -> Sse {
        let mut s = TcpStream::connect(addr).expect("connect");
        let req =
            format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
        s.write_all(req.as_bytes()).expect("write");
        s.set_read_timeout(Some(Duration::from_millis(200))).ok();
        let mut reader = BufReader::new(s);
        reader
            .get_ref()
            .set_read_timeout(Some(Duration::from_secs(30)))
            .ok();
        let (status, headers) = read_head(&mut reader);
        let content_type = headers
            .iter()
            .find(|(k, _)| k == "content-type")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        reader
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(200)))
            .ok();
        Sse {
            reader,
            status,
            content_type,
        }
    }

    /// The next message within `timeout` (comments and keep-alives skipped). The stream is
    /// chunked: chunk-size lines are skipped too (they never start with a field name).
    pub fn next(&mut self, timeout: Duration) -> Option<SseMessage> {
        let end = Instant::now() + timeout;
        let mut msg = SseMessage {
            event: String::new(),
            id: String::new(),
            data: String::new(),
        };
        let mut line = String::new();
        while Instant::now() < end {
            line.clear();
            match self.reader.read_line(&mut line) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue
                }
                Err(_) => return None,
            }
            let l = line.trim_end_matches(['\r', '\n']);
            if let Some(v) = l.strip_prefix("event:") {
                msg.event = v.trim().to_string();
            } else if let Some(v) = l.strip_prefix("id:") {
                msg.id = v.trim().to_string();
            } else if let Some(v) = l.strip_prefix("data:") {
                msg.data = v.trim().to_string();
            } else if l.is_empty() && !msg.data.is_empty() {
                return Some(msg);
            }
        }
        None
    }
}

/// Poll `f` every 20 ms until it is true or `secs` pass.
pub fn wait_until(secs: u64, mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A reference event (`kunshan-2026.toml`, …, bundled in the binary) simulated into `store`
/// until `rounds` rounds of its first section are complete and the next is paired, with one
/// result of it missing. `players`: field size of every section (None: the regulation's).
pub fn reference_event(
    store: &SqliteStore,
    file: &str,
    rounds: u32,
    players: Option<usize>,
) -> EventId {
    let (_, text) = arbiter_web::demo::REFERENCE
        .iter()
        .find(|(f, _)| *f == file)
        .unwrap_or_else(|| panic!("no bundled regulation {file}"));
    let how = arbiter_web::demo::PartWay {
        rounds: Some(rounds),
        seed: 1,
        sizes: arbiter_simulate::Sizes {
            all: players,
            ..Default::default()
        },
        results_left: 1,
    };
    arbiter_web::demo::simulate_part_way(store, text, file, &how).expect("simulated")
}
