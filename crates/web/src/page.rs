//! A rendered response body kept in the cache: the bytes, a gzip copy, and an ETag, so a
//! phone that already has the page gets `304 Not Modified` and one on a slow link gets the
//! compressed copy.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use std::hash::{Hash, Hasher};
use std::io::Write;

pub struct Page {
    pub body: Bytes,
    pub gzip: Option<Bytes>,
    pub etag: String,
    pub content_type: &'static str,
    /// The response headers, built once per page (not per request): for the plain body, the
    /// gzip copy, and `304 Not Modified`.
    plain_headers: HeaderMap,
    gzip_headers: HeaderMap,
    not_modified_headers: HeaderMap,
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
        let mut not_modified_headers = HeaderMap::with_capacity(3);
        if let Ok(e) = HeaderValue::from_str(&etag) {
            not_modified_headers.insert(header::ETAG, e);
        }
        not_modified_headers.insert(
            header::VARY,
            HeaderValue::from_static("accept-encoding, cookie"),
        );
        not_modified_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        let mut plain_headers = not_modified_headers.clone();
        plain_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        let mut gzip_headers = plain_headers.clone();
        gzip_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        Page {
            body,
            gzip,
            etag,
            content_type,
            plain_headers,
            gzip_headers,
            not_modified_headers,
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
        let matches = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == self.etag));
        let (status, body, head) = if matches {
            (
                StatusCode::NOT_MODIFIED,
                Body::empty(),
                &self.not_modified_headers,
            )
        } else {
            match self.gzip.as_ref().filter(|_| accepts_gzip(headers)) {
                Some(z) => (StatusCode::OK, Body::from(z.clone()), &self.gzip_headers),
                None => (
                    StatusCode::OK,
                    Body::from(self.body.clone()),
                    &self.plain_headers,
                ),
            }
        };
        let mut resp = Response::new(body);
        *resp.status_mut() = status;
        *resp.headers_mut() = head.clone();
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

/// `p` when it is a path of this server that is safe to redirect to: it starts with exactly
/// one `/` (`//host` and `/\host` are other sites to a browser), and has no backslash and no
/// control character (a tab or line break inside is dropped by browsers, so `/\t/evil.example`
/// reads as `//evil.example`, and CR/LF would split the header).
pub fn local_path(p: &str) -> Option<&str> {
    let mut chars = p.chars();
    let ok = chars.next() == Some('/')
        && !matches!(chars.next(), Some('/'))
        && !p.contains('\\')
        && !p
            .chars()
            .any(|c| c.is_control() || arbiter_types::text::is_bidi_control(c));
    ok.then_some(p)
}

#[cfg(test)]
mod redirect_tests {
    use super::local_path;

    #[test]
    fn only_plain_local_paths_are_redirected_to() {
        for ok in ["/", "/desk", "/e/ev-1?x=1", "/e/昆山"] {
            assert_eq!(local_path(ok), Some(ok));
        }
        for bad in [
            "//evil.example",
            "/\t/evil.example",
            "/%09/evil.example\t",
            "/\\evil.example",
            "/a\\b",
            "/\r\nSet-Cookie: x=1",
            "/\n/evil.example",
            "https://evil.example",
            "evil.example",
            "",
            "/\u{202E}x",
        ] {
            assert_eq!(local_path(bad), None, "{bad:?}");
        }
    }
}
