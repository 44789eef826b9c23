//! Headers on every response: `X-Content-Type-Options: nosniff`, a Content-Security-Policy
//! that allows only the server's own scripts and styles (and no framing), no referrer to
//! other sites (`same-origin`, unless the page set a stricter policy of its own); and `Cache-Control: no-store` on every page of the arbiters' desk, the login
//! and the online entry form (they show names with ID numbers and phones, or tokens). Over
//! TLS every cookie is `Secure`.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The policy of every page: the server's own scripts, styles, images and requests only.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The printed documents (`/desk/e/{ev}/print?doc=…`) are one self-contained A4 HTML page
/// with their own `<style>` (the page size, column widths): inline styles, no scripts.
pub const PRINT_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; \
base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `Strict-Transport-Security` of every answer over TLS: one year, this host only.
pub const HSTS: &str = "max-age=31536000";

/// Whether a path's answers must never be stored by a browser or a proxy.
fn private(path: &str) -> bool {
    (path == "/desk" || path.starts_with("/desk/")) && !path.starts_with("/desk/assets/")
        || path == "/login"
        || path == "/logout"
        || (path.starts_with("/e/") && path.ends_with("/entry"))
}

pub async fn security_headers(req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let secure = req
        .extensions()
        .get::<crate::net::ClientInfo>()
        .is_some_and(|c| c.secure);
    let print = path.starts_with("/desk/e/")
        && path.ends_with("/print")
        && req
            .uri()
            .query()
            .is_some_and(|q| q.split('&').any(|p| p.starts_with("doc=")));
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // A page that sets its own policy keeps it (the entry status page: `no-referrer`, so
    // its token never leaves in a `Referer`).
    if !h.contains_key(header::REFERRER_POLICY) {
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        );
    }
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(if print { PRINT_CSP } else { CSP }),
        );
    }
    if secure {
        // Over TLS (here or at the trusted proxy): the browser keeps to HTTPS for a year.
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
        // And the cookies never travel in clear.
        let cookies: Vec<HeaderValue> = h
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|v| match v.to_str() {
                Ok(s) if !s.contains("; Secure") => {
                    HeaderValue::from_str(&format!("{s}; Secure")).unwrap_or_else(|_| v.clone())
                }
                _ => v.clone(),
            })
            .collect();
        h.remove(header::SET_COOKIE);
        for c in cookies {
            h.append(header::SET_COOKIE, c);
        }
    }
    if private(&path) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    resp
}
