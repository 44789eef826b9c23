//! The server's log, with `tracing`: one span per HTTP request (method, route pattern,
//! status, duration) from [`requests`], one per write from [`crate::write`] (the account's
//! login, the operation, how long, the entries or the kind of the refusal), and the server's
//! own events (start, the watcher's failures). Written to stderr, filtered by `RUST_LOG`
//! (default `info`), set up once by `arbiter serve` ([`init`]).
//!
//! Personal data never goes in: a request is logged by its route pattern (`/e/{ev}/entry/
//! status/{token}`), never its path, query or body; a write by the account's login and the
//! kinds of its entries; a refusal by the names of its variants, never its facts (they may
//! name a person, an ID number or a phone).

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;
use tracing::Instrument;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

/// The filter of `RUST_LOG`, or `info` when it is unset or does not parse.
pub fn env_filter() -> EnvFilter {
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"))
}

/// The server's subscriber: lines of text to `writer`, filtered by `filter`.
pub fn subscriber<W>(filter: EnvFilter, writer: W) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_target(false)
        .finish()
}

/// `arbiter serve`: the log to stderr, filtered by `RUST_LOG` (default `info`). A second call
/// (or a subscriber set before) leaves the first in place.
pub fn init() {
    install(env_filter(), std::io::stderr);
}

/// The log to `writer`, filtered by `directives` (`info`, `arbiter_web=debug` …), for the
/// whole process: for a test that reads what the server logs. False if a log was set before.
pub fn init_to<W>(directives: &str, writer: W) -> bool
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    install(EnvFilter::new(directives), writer)
}

fn install<W>(filter: EnvFilter, writer: W) -> bool
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    tracing::subscriber::set_global_default(subscriber(filter, writer)).is_ok()
}

/// The middleware of every route: the request's span (method, route pattern), and once the
/// answer is ready its status and duration.
pub async fn requests(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("-", |m| m.as_str())
        .to_string();
    let span = tracing::info_span!(
        "http",
        method = %req.method(),
        route = %route,
        status = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
    );
    let start = Instant::now();
    let resp = next.run(req).instrument(span.clone()).await;
    span.record("status", resp.status().as_u16());
    span.record("duration_ms", millis(start));
    span.in_scope(|| tracing::info!("请求 (request)"));
    resp
}

/// Milliseconds since `start`.
pub fn millis(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The kind of an error from its `Debug` form: the names of its nested variants
/// (`Refused/Rule/EventClosed`), none of the facts they carry.
pub fn kind(debug: &str) -> String {
    let mut names = Vec::new();
    let mut rest = debug;
    loop {
        let n = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..n];
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            break;
        }
        names.push(name);
        match rest[n..].strip_prefix('(') {
            Some(r) => rest = r,
            None => break,
        }
    }
    names.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_names_variants_only() {
        assert_eq!(
            kind(r#"Refused(Rule(DuplicatePerson { id_number: "320583199001010011" }))"#),
            "Refused/Rule/DuplicatePerson"
        );
        assert_eq!(kind(r#"UnknownSection("men")"#), "UnknownSection");
        assert_eq!(kind("NoEvent"), "NoEvent");
        assert_eq!(kind(r#""13912345678""#), "");
    }
}
