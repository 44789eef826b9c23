//! `arbiter serve [--db PATH|postgres://…] [--addr 127.0.0.1:8080] [--demo]
//! [--tls-cert PEM --tls-key PEM [--redirect-http ADDR]] [--trusted-proxy ADDR]…
//! [--max-connections N] [--max-connections-per-address N] [--max-connections-per-network N]
//! [--max-live-streams N] [--max-live-streams-per-address N] [--max-live-streams-per-network N]
//! [--live-stream-minutes N] [--live-idle-minutes N] [--public-url URL]
//! [--page-cache-mb MB] [--page-cache-pages N]`: the web server (public pages, JSON API, live
//! updates). Flag parsing only; everything else is `arbiter_web::serve`.

use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Args)]
pub struct ServeArgs {
    /// 数据库文件 (不存在则创建) 或 PostgreSQL 地址 postgres://… — event database (a SQLite
    /// file, created if missing; or a PostgreSQL URL, several servers may share it)
    #[arg(long, default_value = super::DEFAULT_DB)]
    pub db: PathBuf,
    /// 监听地址 — address to listen on (0.0.0.0:8080 to reach it from phones on the network)
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// 演示: 四个参考赛事模拟到一半 (内存数据库, 不写文件) — demo: the four reference events
    /// simulated part-way, in an in-memory database (--db is not used)
    #[arg(long, conflicts_with = "db")]
    pub demo: bool,
    /// TLS 证书链 (PEM) — serve HTTPS with this certificate chain (PEM; with --tls-key)
    #[arg(long, requires = "tls_key", value_name = "PEM")]
    pub tls_cert: Option<PathBuf>,
    /// TLS 私钥 (PEM) — the certificate's private key (PEM; with --tls-cert)
    #[arg(long, requires = "tls_cert", value_name = "PEM")]
    pub tls_key: Option<PathBuf>,
    /// 另在此地址听 HTTP, 一律转到 HTTPS (例 0.0.0.0:80) — also listen for plain HTTP here and
    /// redirect every request to HTTPS on the TLS port (with --tls-cert)
    #[arg(long, requires = "tls_cert", value_name = "ADDR")]
    pub redirect_http: Option<SocketAddr>,
    /// 可信的反向代理地址 (可重复): 只有来自它的 X-Forwarded-For / X-Forwarded-Proto 才被采信 —
    /// address of a trusted reverse proxy (repeatable): only its X-Forwarded-For and
    /// X-Forwarded-Proto headers are believed
    #[arg(long, value_name = "ADDR")]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// 同时连接数上限 (另受打开文件数限制) — most connections at once (also bounded by the
    /// open-file limit)
    #[arg(long, default_value_t = arbiter_web::net::Limits::default().max_connections)]
    pub max_connections: usize,
    /// 每个客户端地址的同时连接数上限 — most connections at once from one client address
    #[arg(long, default_value_t = arbiter_web::net::Limits::default().max_per_address)]
    pub max_connections_per_address: usize,
    /// 每个网段 (IPv4 /24, IPv6 /64) 的同时连接数上限 (不超过总数的一半) — most connections at
    /// once from one client network (/24, IPv6 /64; never more than half the total)
    #[arg(long, default_value_t = arbiter_web::net::Limits::default().max_per_network)]
    pub max_connections_per_network: usize,
    /// 实时更新 (SSE) 连接数上限 — most live-update streams at once
    #[arg(long, default_value_t = arbiter_web::net::Limits::default().max_live_streams)]
    pub max_live_streams: usize,
    /// 每个客户端地址的实时更新连接数上限 — most live-update streams of one client address
    #[arg(long, default_value_t = arbiter_web::net::Limits::default().max_live_per_address)]
    pub max_live_streams_per_address: usize,
    /// 每个网段的实时更新连接数上限 (不超过总数的一半) — most live-update streams of one client
    /// network (never more than half the total)
    #[arg(long, default_value_t = arbiter_web::net::Limits::default().max_live_per_network)]
    pub max_live_streams_per_network: usize,
    /// 实时更新连接的最长时间 (分钟), 到时关闭, 浏览器自动重连 — a live-update stream ends after
    /// this many minutes (the browser opens it again by itself)
    #[arg(long, value_name = "N", default_value_t = arbiter_web::net::Limits::default().live_lifetime.as_secs() / 60)]
    pub live_stream_minutes: u64,
    /// 实时更新连接无变化多少分钟后关闭 — a live-update stream ends after this many minutes
    /// without a change of its event
    #[arg(long, value_name = "N", default_value_t = arbiter_web::net::Limits::default().live_idle.as_secs() / 60)]
    pub live_idle_minutes: u64,
    /// 公开地址: 选手手机打开的网址, 二维码按此生成 (例 http://192.168.1.20:8080) — the public
    /// address players open from their phones, encoded in the QR codes (default: the address
    /// the browser reached the server at)
    #[arg(long, value_name = "URL", value_parser = arbiter_web::parse_public_url)]
    pub public_url: Option<String>,
    /// 每个赛事缓存的页面总大小上限 (MB) — most megabytes of rendered pages kept per event
    /// (the least recently read pages are dropped first and rendered again when asked for)
    #[arg(long, value_name = "MB", default_value_t = arbiter_web::cache::PAGE_MAX_BYTES >> 20)]
    pub page_cache_mb: usize,
    /// 每个赛事缓存的页面数上限 — most rendered pages kept per event
    #[arg(long, value_name = "N", default_value_t = arbiter_web::cache::PAGE_MAX_ENTRIES)]
    pub page_cache_pages: usize,
}

fn minutes(n: u64) -> std::time::Duration {
    std::time::Duration::from_secs(n.clamp(1, 24 * 60) * 60)
}

pub fn run(a: ServeArgs) -> anyhow::Result<u8> {
    // The server's log on stderr: requests and writes, filtered by RUST_LOG (default info).
    arbiter_web::trace::init();
    let mut config = arbiter_web::ServeConfig::new(a.db, a.addr);
    config.demo = a.demo;
    config.tls = a.tls_cert.zip(a.tls_key);
    config.public_url = a.public_url;
    config.limits.trusted_proxies = a.trusted_proxy;
    config.limits.max_connections = a.max_connections.max(1);
    config.limits.max_per_address = a.max_connections_per_address.max(1);
    config.limits.max_per_network = a.max_connections_per_network.max(1);
    config.limits.max_live_streams = a.max_live_streams.max(1);
    config.limits.max_live_per_address = a.max_live_streams_per_address.max(1);
    config.limits.max_live_per_network = a.max_live_streams_per_network.max(1);
    config.limits.live_lifetime = minutes(a.live_stream_minutes);
    config.limits.live_idle = minutes(a.live_idle_minutes);
    config.page_cache = arbiter_web::cache::PageBounds {
        entries: a.page_cache_pages.max(1),
        bytes: a.page_cache_mb.saturating_mul(1 << 20),
    };
    config.redirect_http = a.redirect_http;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match rt.block_on(arbiter_web::serve(config)) {
        Ok(()) => Ok(0),
        Err(e) => {
            eprintln!("错误 error: {e}");
            Ok(2)
        }
    }
}
