//! A rendered response body kept in the cache: the bytes, a gzip copy, and an ETag, so a
//! phone that already has the page gets `304 Not Modified` and one on a slow link gets the
//! compressed copy.

use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::hash::{Hash, Hasher};
use std::io::Write;

pub struct Page {
    pub body: Bytes,
    pub gzip: Option<Bytes>,
    pub etag: String,
    pub content_type: &'static str,
    /// `etag` as a header value, made once (not per request).
    etag_header: Option<HeaderValue>,
}

pub const HTML: &str = "text/html; charset=utf-8";
pub const JSON: &str = "application/json";
pub const SVG: &str = "image/svg+xml";

impl Page {
    pub fn new(body: impl Into<Bytes>, content_type: &'static str) -> Page {
        let body: Bytes = body.into();
        // `DefaultHasher::new()` has fixed keys: the same body always gets the same tag.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        body.hash(&mut h);
        let etag = format!("\"{:016x}\"", h.finish());
        let gzip = (body.len() > 1024).then(|| gzip(&body)).flatten();
        let etag_header = HeaderValue::from_str(&etag).ok();
        Page {
            body,
            gzip,
            etag,
            content_type,
            etag_header,
        }
    }

    pub fn html(body: String) -> Page {
        Page::new(body, HTML)
    }

    /// JSON of `v` with a trailing newline.
    pub fn json<T: serde::Serialize>(v: &T) -> Result<Page, crate::WebError> {
        let mut s = serde_json::to_string_pretty(v)
            .map_err(|e| crate::WebError::Internal(e.to_string()))?;
        s.push('\n');
        Ok(Page::new(s, JSON))
    }

    /// The response to a request with `headers`: 304 when the client has this version,
    /// the gzip copy when it accepts gzip, else the plain body.
    pub fn respond(&self, headers: &HeaderMap) -> Response {
        let etag = self.etag_header.clone();
        let matches = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == self.etag));
        let mut resp = if matches {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let gz = self.gzip.as_ref().filter(|_| accepts_gzip(headers));
            match gz {
                Some(z) => (
                    [
                        (header::CONTENT_TYPE, self.content_type),
                        (header::CONTENT_ENCODING, "gzip"),
                    ],
                    z.clone(),
                )
                    .into_response(),
                None => (
                    [(header::CONTENT_TYPE, self.content_type)],
                    self.body.clone(),
                )
                    .into_response(),
            }
        };
        let h = resp.headers_mut();
        if let Some(e) = etag {
            h.insert(header::ETAG, e);
        }
        h.insert(
            header::VARY,
            HeaderValue::from_static("accept-encoding, cookie"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        resp
    }
}

fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| {
            let mut parts = t.trim().split(';');
            let name = parts.next().unwrap_or("").trim();
            let q_zero = parts.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !q_zero
        })
}

fn gzip(body: &[u8]) -> Option<Bytes> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    enc.write_all(body).ok()?;
    enc.finish().ok().map(Bytes::from)
}

/// A minimal page for an error (no template: it must render whatever failed).
pub fn error_page(status: StatusCode, message: &str) -> String {
    format!(
        "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <link rel=\"stylesheet\" href=\"/assets/style.css\"><title>{code}</title></head>\
         <body><main><h1>{code}</h1><p>{msg}</p><p><a href=\"/\">返回首页 (home)</a></p></main></body></html>",
        code = status.as_u16(),
        msg = escape(message)
    )
}

/// HTML-escape text.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}
