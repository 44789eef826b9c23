//! The server's connections: the accept loop of `arbiter serve`, with the limits that keep
//! one slow or hostile client on the venue network from starving everyone else.
//!
//! - **Header timeout** ([`Limits::header_timeout`]): a request's headers must arrive within
//!   it, and a kept-alive connection that sends no next request is closed after it (hyper's
//!   `header_read_timeout` runs from the moment a request is awaited), so idle sockets and
//!   headers sent a byte at a time are cut.
//! - **Body timeout** ([`Limits::body_timeout`]): a request body must arrive within it.
//! - **Connections** ([`Limits::max_connections`], [`Limits::max_per_address`]): at most so
//!   many at once in all — never more than the open-file limit allows, less a reserve for the
//!   database and the font — and from one client address; past either, a new connection is
//!   answered `503` at once and closed, and those already open are served as before.
//! - **Live streams** (server-sent events, long-lived on purpose): no timeout, a number
//!   ([`Limits::max_live_streams`], [`LiveSlots`]).
//! - **TLS** ([`Tls`]): rustls; the handshake must finish within the header timeout.
//! - **Client address** ([`ClientInfo`]): the peer's address; behind a reverse proxy named
//!   with `--trusted-proxy`, the last entry of `X-Forwarded-For` (the one that proxy wrote:
//!   an address, or `address:port`), or the proxy's own address when that entry is anything
//!   else (`unknown`); `X-Forwarded-Proto: https` makes the cookies `Secure`.

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The connection limits of a server (see the module's doc).
#[derive(Debug, Clone)]
pub struct Limits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub max_connections: usize,
    pub max_per_address: usize,
    pub max_live_streams: usize,
    /// Reverse proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 4096,
            max_per_address: 64,
            max_live_streams: 2048,
            trusted_proxies: Vec::new(),
        }
    }
}

/// Files kept free under the open-file limit for the database, its journal, the font, the
/// listener and the runtime.
const FILE_RESERVE: u64 = 64;

/// The open-file limit: the soft limit raised to the hard one where the system allows.
#[cfg(unix)]
pub fn open_file_limit() -> u64 {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) != 0 {
            return 1024;
        }
        if r.rlim_cur < r.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: r.rlim_max,
                rlim_max: r.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                r.rlim_cur = r.rlim_max;
            }
        }
    }
    r.rlim_cur
}

#[cfg(not(unix))]
pub fn open_file_limit() -> u64 {
    8192
}

impl Limits {
    /// The connection cap under an open-file limit of `files`.
    pub fn connections_under(&self, files: u64) -> usize {
        let fit = files.saturating_sub(FILE_RESERVE).max(8);
        self.max_connections
            .min(usize::try_from(fit).unwrap_or(usize::MAX))
    }
}

/// A TLS acceptor (`--tls-cert`, `--tls-key`).
#[derive(Clone)]
pub struct Tls(pub tokio_rustls::TlsAcceptor);

impl Tls {
    /// Read a PEM certificate chain and its PEM private key.
    pub fn from_pem_files(cert: &std::path::Path, key: &std::path::Path) -> Result<Tls, String> {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
            .and_then(|it| it.collect::<Result<Vec<_>, _>>())
            .map_err(|e| {
                format!(
                    "无法读取证书 {}: {e} (cannot read the TLS certificate)",
                    cert.display()
                )
            })?;
        if certs.is_empty() {
            return Err(format!(
                "证书文件 {} 中没有证书 (no certificate in the file)",
                cert.display()
            ));
        }
        let key = PrivateKeyDer::from_pem_file(key).map_err(|e| {
            format!(
                "无法读取私钥 {}: {e} (cannot read the TLS private key)",
                key.display()
            )
        })?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS 配置失败: {e} (TLS configuration)"))?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(|e| format!("证书与私钥不符或无效: {e} (certificate or key refused)"))?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Tls(tokio_rustls::TlsAcceptor::from(Arc::new(config))))
    }
}

/// Who sent a request, as far as the server can tell (an extension of every request).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientInfo {
    /// The client's address (through a trusted proxy: the address it forwarded for).
    pub addr: IpAddr,
    /// Over TLS (to this server or, believed, to the trusted proxy): cookies are `Secure`.
    pub secure: bool,
}

impl ClientInfo {
    /// The client of a request that arrived from `peer`.
    pub fn of(
        peer: IpAddr,
        tls: bool,
        headers: &axum::http::HeaderMap,
        trusted: &[IpAddr],
    ) -> ClientInfo {
        let peer = peer.to_canonical();
        if !trusted.contains(&peer) {
            return ClientInfo {
                addr: peer,
                secure: tls,
            };
        }
        let https = headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
        ClientInfo {
            addr: forwarded_for(headers).unwrap_or(peer),
            secure: tls || https,
        }
    }
}

/// The address a trusted proxy forwarded for: the last entry of the last `X-Forwarded-For`
/// line — the proxy appends the address it saw, everything before it is the client's own
/// word. `None` when that entry is not an address (`unknown`, empty, garbage): then the
/// request counts as the proxy's own, never as an earlier entry the client wrote.
pub fn forwarded_for(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    let line = headers.get_all("x-forwarded-for").iter().next_back()?;
    let last = line.to_str().ok()?.rsplit(',').next()?.trim();
    parse_forwarded_node(last).map(|a| a.to_canonical())
}

/// An address as proxies write it: `192.0.2.7`, `2001:db8::7`, with a port
/// (`192.0.2.7:51234`, `[2001:db8::7]:51234`: the address, the port is dropped) or in
/// brackets (`[2001:db8::7]`).
fn parse_forwarded_node(s: &str) -> Option<IpAddr> {
    if let Ok(a) = s.parse::<IpAddr>() {
        return Some(a);
    }
    if let Ok(a) = s.parse::<SocketAddr>() {
        return Some(a.ip());
    }
    s.strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|r| r.parse::<std::net::Ipv6Addr>().ok())
        .map(IpAddr::V6)
}

impl<S: Send + Sync> FromRequestParts<S> for ClientInfo {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        if let Some(c) = parts.extensions.get::<ClientInfo>() {
            return Ok(*c);
        }
        // Served some other way (a router in a test): the connection's address, if known.
        let addr = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        Ok(ClientInfo {
            addr,
            secure: false,
        })
    }
}

/// The live streams open at once (an extension of every request).
#[derive(Clone)]
pub struct LiveSlots(pub Arc<Semaphore>);

impl LiveSlots {
    pub fn new(n: usize) -> LiveSlots {
        LiveSlots(Arc::new(Semaphore::new(n.max(1))))
    }
}

/// The connections open per client address.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

/// One connection counted under its address until dropped.
struct AddressSlot {
    table: Arc<PerAddress>,
    addr: IpAddr,
}

impl PerAddress {
    fn take(self: &Arc<Self>, addr: IpAddr, max: usize) -> Option<AddressSlot> {
        let mut t = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let n = t.entry(addr).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            table: self.clone(),
            addr,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut t = self.table.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = t.get_mut(&self.addr) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                t.remove(&self.addr);
            }
        }
    }
}

/// What a connection over the limits gets before it is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 62\r\n\r\n\xe6\x9c\x8d\xe5\x8a\xa1\xe5\x99\xa8\xe7\xb9\x81\xe5\xbf\x99 (too many connections; try again)\r\n\r\n";

/// Serve `router` on `listener` under `limits` until `shutdown` completes; then stop
/// accepting, let the open requests finish (at most 5 s) and return.
pub async fn run(
    listener: TcpListener,
    router: axum::Router,
    limits: Limits,
    tls: Option<Tls>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let cap = limits.connections_under(open_file_limit());
    let connections = Arc::new(Semaphore::new(cap));
    let per_address = Arc::new(PerAddress::default());
    let trusted: Arc<[IpAddr]> = limits.trusted_proxies.clone().into();
    let (stop, _) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of files (or another passing error): wait a little, never spin.
                if !matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset
                ) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        // A trusted proxy carries many clients: only the total applies to it.
        let slot = if trusted.contains(&peer.ip()) {
            None
        } else {
            match per_address.take(peer.ip(), limits.max_per_address) {
                Some(s) => Some(s),
                None => {
                    let _ = stream.try_write(BUSY);
                    continue;
                }
            }
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            let _ = stream.try_write(BUSY);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let trusted = trusted.clone();
        let http = http.clone();
        let tls = tls.clone();
        let handshake = limits.header_timeout;
        let stop = stop.subscribe();
        tokio::spawn(async move {
            let _held = (permit, slot);
            match tls {
                None => {
                    serve(
                        &http,
                        TokioIo::new(stream),
                        router,
                        trusted,
                        peer,
                        false,
                        stop,
                    )
                    .await
                }
                Some(Tls(acceptor)) => {
                    // The handshake is bounded in time like the headers.
                    if let Ok(Ok(s)) =
                        tokio::time::timeout(handshake, acceptor.accept(stream)).await
                    {
                        serve(&http, TokioIo::new(s), router, trusted, peer, true, stop).await;
                    }
                }
            }
        });
    }
    drop(listener);
    stop.send_replace(true);
    // Every connection holds a permit until it ends.
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(Duration::from_secs(5), connections.acquire_many(all)).await;
}

/// Serve one connection until it ends, or until `stop` (then let its request finish).
async fn serve<I>(
    http: &hyper::server::conn::http1::Builder,
    io: I,
    router: axum::Router,
    trusted: Arc<[IpAddr]>,
    peer: SocketAddr,
    tls: bool,
    mut stop: tokio::sync::watch::Receiver<bool>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let svc = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
        let info = ClientInfo::of(peer.ip(), tls, req.headers(), &trusted);
        req.extensions_mut().insert(info);
        req.extensions_mut().insert(ConnectInfo(peer));
        tower::ServiceExt::oneshot(router.clone(), req)
    });
    let conn = http.serve_connection(io, svc);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        _ = async { stop.wait_for(|s| *s).await.is_ok() } => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(lines: &[&str]) -> Option<IpAddr> {
        let mut h = axum::http::HeaderMap::new();
        for l in lines {
            h.append(
                "x-forwarded-for",
                axum::http::HeaderValue::from_str(l).expect("header"),
            );
        }
        forwarded_for(&h)
    }

    #[test]
    fn the_last_forwarded_entry_or_none() {
        let ip = |s: &str| s.parse::<IpAddr>().ok();
        assert_eq!(forwarded(&["198.51.100.7, 10.0.0.2"]), ip("10.0.0.2"));
        assert_eq!(forwarded(&["1.1.1.1", "10.0.0.2"]), ip("10.0.0.2"));
        assert_eq!(forwarded(&["10.0.0.2", "unknown"]), None);
        assert_eq!(forwarded(&["10.0.0.2, unknown"]), None);
        assert_eq!(forwarded(&["10.0.0.2,"]), None);
        assert_eq!(forwarded(&["10.0.0.2, _hidden"]), None);
        assert_eq!(forwarded(&[""]), None);
        assert_eq!(forwarded(&[]), None);
        assert_eq!(forwarded(&["1.2.3.4, 10.4.4.4:51234"]), ip("10.4.4.4"));
        assert_eq!(forwarded(&["[2001:db8::7]:443"]), ip("2001:db8::7"));
        assert_eq!(forwarded(&["[2001:db8::7]"]), ip("2001:db8::7"));
        assert_eq!(forwarded(&[" 2001:db8::7 "]), ip("2001:db8::7"));
        assert_eq!(forwarded(&["::ffff:10.1.2.3"]), ip("10.1.2.3"));
    }
}
