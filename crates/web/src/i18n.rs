//! Chinese by default, English on request: `?lang=en` (or `zh`) for one page, or the
//! `lang` cookie set by `/lang?to=en&back=/path` (the switch in every page's header).

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    fn parse(s: &str) -> Option<Lang> {
        match s {
            "zh" | "zh-CN" | "cn" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The text in this language.
    pub fn t<'a>(&self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }

    /// `lang` attribute of the page.
    pub fn html_lang(&self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }

    /// Short code (cache keys, links).
    pub fn code(&self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// The other language (the switch link).
    pub fn other(&self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// Label of the switch to the other language.
    pub fn switch_label(&self) -> &'static str {
        match self {
            Lang::Zh => "English",
            Lang::En => "中文",
        }
    }
}

#[derive(Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for Lang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Lang, Self::Rejection> {
        if let Ok(Query(q)) = Query::<LangQuery>::try_from_uri(&parts.uri) {
            if let Some(l) = q.lang.as_deref().and_then(Lang::parse) {
                return Ok(l);
            }
        }
        let from_cookie = parts
            .headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|kv| kv.trim().strip_prefix("lang="))
            .find_map(Lang::parse);
        Ok(from_cookie.unwrap_or_default())
    }
}

#[derive(Deserialize)]
pub struct SwitchQuery {
    to: Option<String>,
    back: Option<String>,
}

/// `GET /lang?to=en&back=/e/ev-00000001`: set the cookie and go back.
pub async fn switch(Query(q): Query<SwitchQuery>) -> Response {
    let lang = q.to.as_deref().and_then(Lang::parse).unwrap_or_default();
    // Only a local path: never redirect to another site; a control character (CR/LF, a
    // tab) in it is a forged link, not a page of this server.
    let back = match q.back {
        Some(b) if b.chars().any(char::is_control) => {
            return (
                axum::http::StatusCode::BAD_REQUEST,
                "返回地址无效 (invalid back= path)",
            )
                .into_response()
        }
        Some(b) => crate::page::local_path(&b).unwrap_or("/").to_string(),
        None => "/".to_string(),
    };
    let mut resp = Redirect::to(&back).into_response();
    if let Ok(v) = HeaderValue::from_str(&format!(
        "lang={}; Path=/; Max-Age=31536000; SameSite=Lax",
        lang.code()
    )) {
        resp.headers_mut().insert(header::SET_COOKIE, v);
    }
    resp
}
