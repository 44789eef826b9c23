//! The server's connections: the accept loop of `arbiter serve`, with the limits that keep
//! one slow or hostile client on the venue network from starving everyone else.
//!
//! - **Header timeout** ([`Limits::header_timeout`]): a request's headers must arrive within
//!   it, and a kept-alive connection that sends no next request is closed after it (hyper's
//!   `header_read_timeout` runs from the moment a request is awaited), so idle sockets and
//!   headers sent a byte at a time are cut.
//! - **Body timeout** ([`Limits::body_timeout`]): a request body must arrive within it.
//! - **Shares** ([`Caps`], [`Shares`]): connections, live streams and (behind a trusted
//!   proxy) requests in flight are counted per client address and per client network (its
//!   /24, or /64 for IPv6, [`Network`]). A client may hold at most `per_address`; a network
//!   at most `per_network` (never more than half the total) of the general pool; the last
//!   eighth of the total is a reserve given only to a client that holds few (fewer than
//!   `few`), at most a quarter of it to one network. So a few addresses, or one network, can
//!   never take everything: a phone that holds nothing still gets in.
//! - **Connections** ([`Limits::max_connections`], [`Limits::max_per_address`],
//!   [`Limits::max_per_network`]): at most so many at once in all — never more than the
//!   open-file limit allows, less a reserve for the database and the font — counted by the
//!   peer's address; past a cap, a new connection is answered `503` at once and closed, and
//!   those already open are served as before. A trusted proxy's connections count only in
//!   the total: its forwarded clients' requests in flight are counted instead, under the
//!   same caps (an answer `503` past them).
//! - **Live streams** (server-sent events, long-lived on purpose): counted per client (the
//!   forwarded one behind a trusted proxy; [`Limits::max_live_streams`],
//!   [`Limits::max_live_per_address`], [`Limits::max_live_per_network`], [`LiveSlots`]); each
//!   ends after [`Limits::live_lifetime`], or after [`Limits::live_idle`] without a change,
//!   and the browser's `EventSource` opens it again by itself.
//! - **TLS** ([`Tls`]): rustls; the handshake must finish within the header timeout. Plain
//!   HTTP arriving on the TLS port (its first byte is not a TLS handshake's `0x16`) is
//!   answered `301` to the same address over `https://` and closed; `--redirect-http`
//!   listens on a plain port that does only that.
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
    /// Connections at once in all (also bounded by the open-file limit).
    pub max_connections: usize,
    /// Connections at once from one client address.
    pub max_per_address: usize,
    /// Connections at once from one client network (/24, IPv6 /64) in the general pool.
    pub max_per_network: usize,
    /// Live streams at once in all.
    pub max_live_streams: usize,
    /// Live streams at once of one client address.
    pub max_live_per_address: usize,
    /// Live streams at once of one client network in the general pool.
    pub max_live_per_network: usize,
    /// A live stream ends after this long (the browser opens it again).
    pub live_lifetime: Duration,
    /// A live stream ends after this long without a change of its event.
    pub live_idle: Duration,
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
            max_per_network: 1024,
            max_live_streams: 2048,
            max_live_per_address: 16,
            max_live_per_network: 512,
            live_lifetime: Duration::from_secs(30 * 60),
            live_idle: Duration::from_secs(10 * 60),
            trusted_proxies: Vec::new(),
        }
    }
}

/// A client holding fewer connections than this may take one from the reserve (a browser
/// opens up to six to a server, a phone reading a page two or three).
pub const FEW_CONNECTIONS: usize = 4;

/// A client holding fewer live streams than this may take one from the reserve (a phone
/// with one page open holds one).
pub const FEW_STREAMS: usize = 2;

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

    /// The caps of connections (and of requests through a trusted proxy) when at most
    /// `total` connections are open at once.
    pub fn connection_caps(&self, total: usize) -> Caps {
        Caps {
            total: total.max(1),
            per_address: self.max_per_address.max(1),
            per_network: self.max_per_network.max(1),
            few: FEW_CONNECTIONS,
        }
    }

    /// The caps of live streams.
    pub fn live_caps(&self) -> Caps {
        Caps {
            total: self.max_live_streams.max(1),
            per_address: self.max_live_per_address.max(1),
            per_network: self.max_live_per_network.max(1),
            few: FEW_STREAMS,
        }
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

/// A client's network: the /24 of an IPv4 address, the /64 of an IPv6 one (one household,
/// one machine that may use any address of its /64). IPv4-mapped IPv6 addresses are IPv4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Network {
    V4([u8; 3]),
    V6([u16; 4]),
}

impl Network {
    pub fn of(addr: IpAddr) -> Network {
        match addr.to_canonical() {
            IpAddr::V4(a) => {
                let o = a.octets();
                Network::V4([o[0], o[1], o[2]])
            }
            IpAddr::V6(a) => {
                let s = a.segments();
                Network::V6([s[0], s[1], s[2], s[3]])
            }
        }
    }
}

/// The caps of one kind of thing clients hold at once: connections, requests in flight
/// through a trusted proxy, live streams (see the module's doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub total: usize,
    pub per_address: usize,
    /// Of the general pool (the total less the reserve).
    pub per_network: usize,
    /// A client holding fewer than this may take from the reserve.
    pub few: usize,
}

impl Caps {
    /// Kept for clients that hold few: an eighth of the total (at least one of two or more).
    pub fn reserve(&self) -> usize {
        if self.total < 2 {
            0
        } else {
            (self.total / 8).max(1)
        }
    }

    /// The general pool: the total less the reserve.
    pub fn general(&self) -> usize {
        self.total - self.reserve()
    }

    /// One network's most of the general pool: its cap, never more than half the total.
    pub fn network_cap(&self) -> usize {
        self.per_network.min(self.total / 2).max(1)
    }

    /// One network's most of the reserve: a quarter of it (at least one).
    pub fn network_reserve(&self) -> usize {
        (self.reserve() / 4).max(1).min(self.reserve())
    }
}

/// What clients hold under one [`Caps`].
pub struct Shares {
    caps: Caps,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    general: usize,
    reserve: usize,
    addresses: HashMap<IpAddr, usize>,
    /// Per network: held of the general pool, of the reserve.
    networks: HashMap<Network, [usize; 2]>,
}

/// One thing held, counted until dropped.
pub struct Share {
    shares: Arc<Shares>,
    /// `None`: held by a trusted proxy (counted in the total only).
    client: Option<IpAddr>,
    reserve: bool,
}

impl Shares {
    pub fn new(caps: Caps) -> Arc<Shares> {
        Arc::new(Shares {
            caps,
            table: Mutex::new(Table::default()),
        })
    }

    pub fn caps(&self) -> Caps {
        self.caps
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One more for the client `addr`, if its caps allow.
    pub fn take(self: &Arc<Self>, addr: IpAddr) -> Option<Share> {
        let addr = addr.to_canonical();
        let net = Network::of(addr);
        let c = self.caps;
        let mut t = self.lock();
        let held = t.addresses.get(&addr).copied().unwrap_or(0);
        if held >= c.per_address {
            return None;
        }
        let [general, reserve] = t.networks.get(&net).copied().unwrap_or([0, 0]);
        let from_reserve = if t.general < c.general() && general < c.network_cap() {
            false
        } else if held < c.few && t.reserve < c.reserve() && reserve < c.network_reserve() {
            true
        } else {
            return None;
        };
        *t.addresses.entry(addr).or_insert(0) += 1;
        let n = t.networks.entry(net).or_insert([0, 0]);
        n[usize::from(from_reserve)] += 1;
        if from_reserve {
            t.reserve += 1;
        } else {
            t.general += 1;
        }
        Some(Share {
            shares: self.clone(),
            client: Some(addr),
            reserve: from_reserve,
        })
    }

    /// One more for a trusted proxy: only the total applies.
    pub fn take_exempt(self: &Arc<Self>) -> Option<Share> {
        let c = self.caps;
        let mut t = self.lock();
        let from_reserve = if t.general < c.general() {
            false
        } else if t.reserve < c.reserve() {
            true
        } else {
            return None;
        };
        if from_reserve {
            t.reserve += 1;
        } else {
            t.general += 1;
        }
        Some(Share {
            shares: self.clone(),
            client: None,
            reserve: from_reserve,
        })
    }

    /// How many are held in all.
    pub fn held(&self) -> usize {
        let t = self.lock();
        t.general + t.reserve
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut t = self.shares.lock();
        if self.reserve {
            t.reserve = t.reserve.saturating_sub(1);
        } else {
            t.general = t.general.saturating_sub(1);
        }
        let Some(addr) = self.client else { return };
        if let Some(n) = t.addresses.get_mut(&addr) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                t.addresses.remove(&addr);
            }
        }
        let net = Network::of(addr);
        if let Some(n) = t.networks.get_mut(&net) {
            let i = usize::from(self.reserve);
            n[i] = n[i].saturating_sub(1);
            if *n == [0, 0] {
                t.networks.remove(&net);
            }
        }
    }
}

/// The live streams open at once, and how long one lasts (an extension of every request).
#[derive(Clone)]
pub struct LiveSlots {
    shares: Arc<Shares>,
    /// A stream ends after this long.
    pub lifetime: Duration,
    /// A stream ends after this long without a change of its event.
    pub idle: Duration,
}

impl LiveSlots {
    pub fn new(limits: &Limits) -> LiveSlots {
        LiveSlots {
            shares: Shares::new(limits.live_caps()),
            lifetime: limits.live_lifetime,
            idle: limits.live_idle,
        }
    }

    /// A stream for `client`, if its caps allow.
    pub fn take(&self, client: IpAddr) -> Option<Share> {
        self.shares.take(client)
    }
}

/// What a connection over the limits gets before it is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 62\r\n\r\n\xe6\x9c\x8d\xe5\x8a\xa1\xe5\x99\xa8\xe7\xb9\x81\xe5\xbf\x99 (too many connections; try again)\r\n\r\n";

/// What a request through a trusted proxy gets when its forwarded client holds too many.
fn busy_request() -> axum::response::Response {
    use axum::http::{header, HeaderValue, StatusCode};
    let mut r = axum::response::Response::new(axum::body::Body::from(
        "服务器繁忙: 同一客户端的请求过多, 请稍后再试 (too many requests from one client at once; try again)",
    ));
    *r.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let h = r.headers_mut();
    h.insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

/// A connection of `listener`, or of `redirect` (then `true`); never ready without one.
async fn accept_either(
    listener: &TcpListener,
    redirect: Option<&TcpListener>,
) -> std::io::Result<(tokio::net::TcpStream, SocketAddr, bool)> {
    match redirect {
        None => listener.accept().await.map(|(s, p)| (s, p, false)),
        Some(r) => tokio::select! {
            a = listener.accept() => a.map(|(s, p)| (s, p, false)),
            a = r.accept() => a.map(|(s, p)| (s, p, true)),
        },
    }
}

/// Serve `router` on `listener` under `limits` until `shutdown` completes; then stop
/// accepting, let the open requests finish (at most 5 s) and return. With `tls`, plain HTTP
/// on `listener` and every connection to `redirect` (`--redirect-http`) are sent to the
/// same address over HTTPS.
pub async fn run(
    listener: TcpListener,
    redirect: Option<TcpListener>,
    router: axum::Router,
    limits: Limits,
    tls: Option<Tls>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let cap = limits.connections_under(open_file_limit());
    let connections = Arc::new(Semaphore::new(cap));
    let caps = limits.connection_caps(cap);
    let per_client = Shares::new(caps);
    // Through a trusted proxy: its forwarded clients' requests in flight, under the same caps.
    let proxied = Shares::new(caps);
    let trusted: Arc<[IpAddr]> = limits
        .trusted_proxies
        .iter()
        .map(|a| a.to_canonical())
        .collect();
    let tls_port = listener.local_addr().map(|a| a.port()).ok();
    let (stop, _) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            a = accept_either(&listener, redirect.as_ref()) => a,
            _ = &mut shutdown => break,
        };
        let (stream, peer, to_redirect) = match accepted {
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
        // A trusted proxy carries many clients: only the total applies to its connections.
        let proxy = trusted.contains(&peer.ip().to_canonical());
        let share = if proxy {
            per_client.take_exempt()
        } else {
            per_client.take(peer.ip())
        };
        let Some(share) = share else {
            let _ = stream.try_write(BUSY);
            continue;
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            let _ = stream.try_write(BUSY);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let handshake = limits.header_timeout;
        if to_redirect {
            tokio::spawn(async move {
                let _held = (permit, share);
                redirect_to_https(stream, handshake, tls_port).await;
            });
            continue;
        }
        let conn = Conn {
            router: router.clone(),
            trusted: trusted.clone(),
            proxied: proxy.then(|| proxied.clone()),
            peer,
        };
        let http = http.clone();
        let tls = tls.clone();
        let stop = stop.subscribe();
        tokio::spawn(async move {
            let _held = (permit, share);
            match tls {
                None => serve(&http, TokioIo::new(stream), conn, false, stop).await,
                Some(Tls(acceptor)) => {
                    // A TLS connection begins with a handshake record (0x16); anything else
                    // is plain HTTP to the wrong port. The first byte and the handshake are
                    // bounded together by the header timeout.
                    let now = tokio::time::Instant::now();
                    let deadline = now
                        .checked_add(handshake)
                        .unwrap_or(now + Duration::from_secs(3600));
                    let mut first = [0u8; 1];
                    match tokio::time::timeout_at(deadline, stream.peek(&mut first)).await {
                        Ok(Ok(1)) if first[0] == TLS_HANDSHAKE => {}
                        Ok(Ok(1)) => {
                            redirect_to_https(stream, handshake, None).await;
                            return;
                        }
                        _ => return,
                    }
                    if let Ok(Ok(s)) =
                        tokio::time::timeout_at(deadline, acceptor.accept(stream)).await
                    {
                        serve(&http, TokioIo::new(s), conn, true, stop).await;
                    }
                }
            }
        });
    }
    drop(listener);
    drop(redirect);
    stop.send_replace(true);
    // Every connection holds a permit until it ends.
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(Duration::from_secs(5), connections.acquire_many(all)).await;
}

/// The first byte of a TLS connection: a handshake record (the ClientHello).
const TLS_HANDSHAKE: u8 = 0x16;

/// What one connection serves with.
struct Conn {
    router: axum::Router,
    trusted: Arc<[IpAddr]>,
    /// From a trusted proxy: its forwarded clients' requests in flight.
    proxied: Option<Arc<Shares>>,
    peer: SocketAddr,
}

/// Serve one connection until it ends, or until `stop` (then let its request finish).
async fn serve<I>(
    http: &hyper::server::conn::http1::Builder,
    io: I,
    conn: Conn,
    tls: bool,
    mut stop: tokio::sync::watch::Receiver<bool>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let Conn {
        router,
        trusted,
        proxied,
        peer,
    } = conn;
    let svc = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
        let info = ClientInfo::of(peer.ip(), tls, req.headers(), &trusted);
        req.extensions_mut().insert(info);
        req.extensions_mut().insert(ConnectInfo(peer));
        // The connection is the proxy's: the client it forwarded for is counted here.
        // `Some(None)`: that client holds its share already.
        let share = proxied.as_ref().map(|p| p.take(info.addr));
        let router = router.clone();
        async move {
            if matches!(share, Some(None)) {
                return Ok(busy_request());
            }
            let r = tower::ServiceExt::oneshot(router, req).await;
            drop(share);
            r
        }
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

/// The most of a plain request's head read to redirect it.
const REDIRECT_HEAD: usize = 8 * 1024;

/// Answer plain HTTP with `301` to the same host and path over `https://` (on `port` when
/// given, else the port the `Host` names), then close. The head must arrive `within`.
async fn redirect_to_https(mut stream: tokio::net::TcpStream, within: Duration, port: Option<u16>) {
    let answered = tokio::time::timeout(within, async {
        let mut head = vec![0u8; REDIRECT_HEAD];
        let mut n = 0;
        while n < head.len() && !head[..n].windows(4).any(|w| w == b"\r\n\r\n") {
            if stream.readable().await.is_err() {
                return;
            }
            match stream.try_read(&mut head[n..]) {
                Ok(0) => return,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(_) => return,
            }
        }
        let answer = redirect_answer(&head[..n], port);
        let mut sent = 0;
        while sent < answer.len() {
            if stream.writable().await.is_err() {
                return;
            }
            match stream.try_write(&answer[sent..]) {
                Ok(k) => sent += k,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(_) => return,
            }
        }
    });
    if answered.await.is_err() {
        return;
    }
    // Close the sending side and take what the client still sends for a moment, so the
    // answer is not lost to a reset.
    let _ = std::future::poll_fn(|cx| {
        tokio::io::AsyncWrite::poll_shutdown(std::pin::Pin::new(&mut stream), cx)
    })
    .await;
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let mut sink = [0u8; 4096];
        let mut left: usize = 64 * 1024;
        while left > 0 && stream.readable().await.is_ok() {
            match stream.try_read(&mut sink) {
                Ok(0) => return,
                Ok(k) => left = left.saturating_sub(k),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(_) => return,
            }
        }
    })
    .await;
}

/// The answer to a plain request whose head (or its start) is `head`: `301` to
/// `https://HOST[:port]PATH`, or `400` without a usable `Host`.
fn redirect_answer(head: &[u8], port: Option<u16>) -> Vec<u8> {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.split("\r\n");
    let target = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .filter(|t| {
            t.starts_with('/') && t.len() <= 2048 && t.bytes().all(|b| (0x21..=0x7e).contains(&b))
        })
        .unwrap_or("/");
    let host = lines
        .take_while(|l| !l.is_empty())
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case("host").then(|| v.trim())
        })
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-_:[]".contains(&b))
        });
    let Some(host) = host else {
        let body = "此端口只接受 HTTPS (this port speaks HTTPS only)\r\n";
        return format!(
            "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes();
    };
    let authority = match port {
        None => host.to_string(),
        Some(p) => {
            let name = if host.starts_with('[') {
                host.split_inclusive(']').next().unwrap_or(host)
            } else {
                host.split(':').next().unwrap_or(host)
            };
            if p == 443 {
                name.to_string()
            } else {
                format!("{name}:{p}")
            }
        }
    };
    let location = format!("https://{authority}{target}");
    let body = format!("请使用 HTTPS: {location} (use HTTPS)\r\n");
    format!(
        "HTTP/1.1 301 Moved Permanently\r\nLocation: {location}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
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

    #[test]
    fn networks_are_slash_24_and_slash_64() {
        let net = |s: &str| Network::of(s.parse().expect("ip"));
        assert_eq!(net("10.1.2.3"), net("10.1.2.250"));
        assert_ne!(net("10.1.2.3"), net("10.1.3.3"));
        assert_eq!(net("::ffff:10.1.2.3"), net("10.1.2.9"));
        assert_eq!(net("2001:db8:1:2::1"), net("2001:db8:1:2:ffff::9"));
        assert_ne!(net("2001:db8:1:2::1"), net("2001:db8:1:3::1"));
    }

    #[test]
    fn the_default_caps() {
        let l = Limits::default();
        let c = l.connection_caps(4096);
        assert_eq!(
            (
                c.general(),
                c.reserve(),
                c.network_cap(),
                c.network_reserve()
            ),
            (3584, 512, 1024, 128)
        );
        let s = l.live_caps();
        assert_eq!(
            (
                s.general(),
                s.reserve(),
                s.network_cap(),
                s.network_reserve()
            ),
            (1792, 256, 512, 64)
        );
        // Under a small open-file limit a network still gets at most half.
        assert_eq!(l.connection_caps(960).network_cap(), 480);
        let tiny = Caps {
            total: 2,
            per_address: 16,
            per_network: 512,
            few: 2,
        };
        assert_eq!(
            (tiny.general(), tiny.reserve(), tiny.network_cap()),
            (1, 1, 1)
        );
    }

    #[test]
    fn shares_keep_a_reserve_for_the_clients_that_hold_few() {
        let shares = Shares::new(Caps {
            total: 16,
            per_address: 6,
            per_network: 8,
            few: 2,
        });
        let a = |h: u8| IpAddr::V4(Ipv4Addr::new(10, 0, 0, h));
        let b = |h: u8| IpAddr::V4(Ipv4Addr::new(10, 0, 1, h));
        // Per address: 6; per network: 8 of the general pool (14), then 1 of the reserve (2)
        // for an address holding fewer than 2.
        let mut held: Vec<Share> = (0..10).filter_map(|_| shares.take(a(1))).collect();
        assert_eq!(held.len(), 6);
        held.extend((0..10).filter_map(|_| shares.take(a(2))));
        assert_eq!(held.len(), 8);
        let light = shares.take(a(3)).expect("from the reserve");
        assert!(light.reserve);
        assert!(
            shares.take(a(4)).is_none(),
            "the network's part of the reserve is taken"
        );
        // The other network: the 6 general left, then its part of the reserve.
        held.extend((0..10).filter_map(|_| shares.take(b(1))));
        assert_eq!(shares.held(), 8 + 1 + 6);
        let other = shares.take(b(2)).expect("from the reserve");
        assert!(other.reserve);
        assert!(shares.take(b(3)).is_none());
        assert_eq!(shares.held(), 16);
        drop((light, other));
        // Everything held comes back.
        drop(held);
        assert_eq!(shares.held(), 0);
        assert_eq!(shares.take(a(1)).map(|s| s.reserve), Some(false));
        let t = shares.lock();
        assert!(t.addresses.is_empty() && t.networks.is_empty());
    }

    #[test]
    fn a_plain_request_is_redirected_to_https() {
        let answer = |head: &str, port| {
            String::from_utf8_lossy(&redirect_answer(head.as_bytes(), port)).into_owned()
        };
        let a = answer(
            "GET /e/x?lang=en HTTP/1.1\r\nHost: arbiter.example:8443\r\n\r\n",
            None,
        );
        assert!(a.starts_with("HTTP/1.1 301 "), "{a}");
        assert!(
            a.contains("\r\nLocation: https://arbiter.example:8443/e/x?lang=en\r\n"),
            "{a}"
        );
        let a = answer(
            "GET /a HTTP/1.1\r\nhost: arbiter.example:80\r\n\r\n",
            Some(443),
        );
        assert!(
            a.contains("\r\nLocation: https://arbiter.example/a\r\n"),
            "{a}"
        );
        let a = answer("GET /a HTTP/1.1\r\nHost: [fe80::1]:80\r\n\r\n", Some(8443));
        assert!(
            a.contains("\r\nLocation: https://[fe80::1]:8443/a\r\n"),
            "{a}"
        );
        let a = answer("GET http://x/y HTTP/1.1\r\nHost: h\r\n\r\n", None);
        assert!(a.contains("\r\nLocation: https://h/\r\n"), "{a}");
        assert!(answer("GET / HTTP/1.1\r\n\r\n", None).starts_with("HTTP/1.1 400 "));
        assert!(answer("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", None).starts_with("HTTP/1.1 400 "));
        assert!(answer("", None).starts_with("HTTP/1.1 400 "));
    }
}
