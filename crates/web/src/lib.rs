//! `arbiter serve`: the web shell over the event log.
//!
//! - [`public`]: the players' pages (no login): event home with a QR code, pairings with
//!   "find my board", results, standings, team standings, crosstable, a player's own page,
//!   knockout bracket, the hall's big screen.
//! - [`api`]: the read JSON API (`docs/api.md`).
//! - [`live`]: server-sent events; a background task notices appends (also by other
//!   processes) and sends one message per new `last_seq` of an event.
//! - [`online`]: the public online entry form (`/e/{ev}/entry`); entries wait for the desk.
//! - [`claim`]: the players confirm their own results on the phone (`/e/{ev}/claim`), with
//!   the code on their pairing slip.
//! - [`checkin`]: the players check in on the phone (`/e/{ev}/checkin`), with the code on
//!   their entry's status page.
//! - [`desk`], [`auth`], [`write`]: the arbiters' desk behind a login, and its one write path.
//! - [`cache`]: the folded state of every event, kept current by applying only the entries
//!   after the cached `last_seq`; rendered pages are cached per state (one render per change).
//!
//! Like the CLI this is a shell: pages read the folded state and the director's read
//! functions; no rule lives in a handler. Personal data (ID numbers, phones) never reaches a
//! public page or the public API: views are built only from names, units, teams and results.

pub mod api;
pub mod app;
pub mod assets;
pub mod auth;
pub mod cache;
pub mod checkin;
pub mod claim;
pub mod demo;
pub mod desk;
pub mod error;
pub mod headers;
pub mod i18n;
pub mod live;
pub mod net;
pub mod online;
pub mod page;
pub mod pool;
pub mod public;
pub mod refusal;
pub mod trace;
pub mod write;

pub use app::AppState;
pub use error::WebError;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// What `arbiter serve` was asked for.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The SQLite database (created if missing), or a `postgres://…` URL.
    pub db: PathBuf,
    /// Address to listen on (`127.0.0.1:8080`).
    pub addr: SocketAddr,
    /// How often the background task looks for appends by other processes.
    pub poll: Duration,
    /// `--demo`: ignore `db`; serve an in-memory database holding the four reference
    /// events simulated part-way ([`demo`]).
    pub demo: bool,
    /// Timeouts and connection limits ([`net`]).
    pub limits: net::Limits,
    /// `--tls-cert`, `--tls-key`: serve HTTPS with this PEM certificate chain and key.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// `--redirect-http`: with `tls`, a plain-HTTP address whose every request is answered
    /// `301` to the same host and path over HTTPS (on the TLS port).
    pub redirect_http: Option<SocketAddr>,
    /// `--public-url`: the address players open from their phones (the QR codes encode it),
    /// as [`parse_public_url`] gives it.
    pub public_url: Option<String>,
    /// `--page-cache-mb`, `--page-cache-pages`: the bounds of each event's page cache.
    pub page_cache: cache::PageBounds,
}

/// `--public-url`: an `http://` or `https://` address with a host, no spaces, no query or
/// fragment; the trailing `/` removed. The error names the flag's field in Chinese first.
pub fn parse_public_url(s: &str) -> Result<String, String> {
    let t = s.trim().trim_end_matches('/');
    let rest = t
        .strip_prefix("http://")
        .or_else(|| t.strip_prefix("https://"))
        .ok_or_else(|| {
            format!("公开地址 「{s}」 应以 http:// 或 https:// 开头 (the public URL must start with http:// or https://)")
        })?;
    let host = rest.split('/').next().unwrap_or("");
    if host.is_empty()
        || !t.chars().all(|c| c.is_ascii_graphic())
        || t.contains(['?', '#', '"', '<', '>', '\\'])
    {
        return Err(format!(
            "公开地址 「{s}」 不是有效的网址 (the public URL is not a valid address: a host, no spaces, no ? or #)"
        ));
    }
    Ok(t.to_string())
}

impl ServeConfig {
    pub fn new(db: impl Into<PathBuf>, addr: SocketAddr) -> Self {
        ServeConfig {
            db: db.into(),
            addr,
            poll: Duration::from_millis(500),
            demo: false,
            limits: net::Limits::default(),
            tls: None,
            redirect_http: None,
            public_url: None,
            page_cache: cache::PageBounds::default(),
        }
    }
}

/// Every route of the server, with the default limits.
pub fn router(app: AppState) -> axum::Router {
    router_with(app, &net::Limits::default())
}

/// Every route of the server: a request body must arrive within `limits.body_timeout`,
/// live streams are bounded and end as `limits` say ([`net::LiveSlots`]).
pub fn router_with(app: AppState, limits: &net::Limits) -> axum::Router {
    axum::Router::new()
        .merge(public::routes())
        .merge(api::routes())
        .merge(live::routes())
        .merge(assets::routes())
        .merge(auth::routes())
        .merge(
            desk::routes().route_layer(axum::middleware::from_fn_with_state(
                app.clone(),
                desk::accounts::gate,
            )),
        )
        .merge(online::routes())
        .merge(claim::routes())
        .merge(checkin::routes())
        .with_state(app)
        .layer(axum::middleware::from_fn(headers::security_headers))
        .layer(axum::Extension(net::LiveSlots::new(limits)))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            limits.body_timeout,
        ))
        .layer(axum::middleware::from_fn(trace::requests))
}

/// Open the database, bind `config.addr` and serve until Ctrl-C.
pub async fn serve(config: ServeConfig) -> Result<(), WebError> {
    let app = if config.demo {
        tracing::info!("正在模拟四个参考赛事 (simulating the four reference events part-way) …");
        let (store, (login, password)) = tokio::task::spawn_blocking(|| {
            let store = demo::demo_store()?;
            let account = demo::demo_account(&store)?;
            Ok::<_, WebError>((store, account))
        })
        .await
        .map_err(|e| WebError::Internal(e.to_string()))??;
        tracing::info!(
            "裁判台 /desk 演示账号 (demo login for the arbiters' desk): {login} / {password}"
        );
        AppState::with(PathBuf::from(":memory:"), store)
    } else {
        // Connecting to PostgreSQL blocks: off the async threads.
        let db = config.db.clone();
        tokio::task::spawn_blocking(move || AppState::open(&db))
            .await
            .map_err(|e| WebError::Internal(e.to_string()))??
    };
    app.cache.set_page_bounds(config.page_cache);
    match &config.public_url {
        Some(url) => {
            app.set_public_url(url.clone());
            tracing::info!("公开地址 (public address, in the QR codes): {url}");
        }
        None => tracing::info!(
            "未设置 --public-url: 二维码用浏览器访问本服务的地址 (no --public-url: the QR codes use the address the browser reached)"
        ),
    }
    let tls = match &config.tls {
        Some((cert, key)) => Some(net::Tls::from_pem_files(cert, key).map_err(WebError::Tls)?),
        None => None,
    };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| WebError::Bind(config.addr.to_string(), e.to_string()))?;
    let local = listener
        .local_addr()
        .map_err(|e| WebError::Bind(config.addr.to_string(), e.to_string()))?;
    let db = if config.demo {
        "演示数据, 内存中 (demo data, in memory)".to_string()
    } else {
        match config.db.to_str() {
            Some(s) if arbiter_store::is_postgres_url(s) => arbiter_store::redact_url(s),
            _ => config.db.display().to_string(),
        }
    };
    let scheme = if tls.is_some() { "https" } else { "http" };
    tracing::info!(
        "Arbiter 已启动: {scheme}://{local}/  数据库 {db} (serving; Ctrl-C 停止 to stop)"
    );
    let redirect = match (config.redirect_http, &tls) {
        (None, _) => None,
        (Some(_), None) => {
            return Err(WebError::Tls(
                "--redirect-http 需要 --tls-cert 与 --tls-key (redirecting to HTTPS needs TLS)"
                    .to_string(),
            ))
        }
        (Some(addr), Some(_)) => {
            let l = tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| WebError::Bind(addr.to_string(), e.to_string()))?;
            tracing::info!(
                "http://{addr}/ 的请求转到 HTTPS (plain HTTP here is redirected to HTTPS)"
            );
            Some(l)
        }
    };
    serve_on_full(
        listener,
        redirect,
        app,
        config.poll,
        config.limits,
        tls,
        shutdown_signal(),
    )
    .await
}

/// Serve `app` on an already bound listener (tests bind `127.0.0.1:0`), with the background
/// task that notices appends every `poll`, until `shutdown` completes.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    app: AppState,
    poll: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), WebError> {
    serve_on_with(listener, app, poll, net::Limits::default(), None, shutdown).await
}

/// [`serve_on`] with the given limits, and over TLS when `tls` is given.
pub async fn serve_on_with(
    listener: tokio::net::TcpListener,
    app: AppState,
    poll: Duration,
    limits: net::Limits,
    tls: Option<net::Tls>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), WebError> {
    serve_on_full(listener, None, app, poll, limits, tls, shutdown).await
}

/// [`serve_on_with`], and with `tls` every request to `redirect` (`--redirect-http`) answered
/// with a redirect to HTTPS.
pub async fn serve_on_full(
    listener: tokio::net::TcpListener,
    redirect: Option<tokio::net::TcpListener>,
    app: AppState,
    poll: Duration,
    limits: net::Limits,
    tls: Option<net::Tls>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), WebError> {
    let redirect = redirect.filter(|_| tls.is_some());
    app.refresh_all().await?;
    // On PostgreSQL appends are announced (LISTEN/NOTIFY): the poll is only a safety net.
    let pg_listener = live::listen(&app);
    let poll = if pg_listener.is_some() {
        poll.max(Duration::from_secs(5))
    } else {
        poll
    };
    let watcher = tokio::spawn(live::watch(app.clone(), poll));
    let stop = app.clone();
    let router = router_with(app, &limits);
    net::run(listener, redirect, router, limits, tls, async move {
        shutdown.await;
        stop.shutdown.send_replace(true);
    })
    .await;
    watcher.abort();
    Ok(())
}

async fn shutdown_signal() {
    // Without a signal handler (an unusual platform) the server runs until killed.
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}
