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

    /// A message of the director or of a desk handler, written 「中文 (english)」, in this
    /// language: in Chinese without its English tails ([`zh_only`]); in English as written
    /// (the Chinese part carries the names and numbers the tail may leave out).
    pub fn say(&self, msg: &str) -> String {
        match self {
            Lang::Zh => zh_only(msg),
            Lang::En => msg.to_string(),
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

/// `msg` without its English tails: every ` (…)` group with no Chinese in it and a word of
/// three or more Latin letters (「第3台成绩已录入 (result entered)」 → 「第3台成绩已录入」); a
/// group naming a code (「(P17)」, 「(ev-00000001)」, 「(A2)」) or a file type (「(.xlsx)」), or
/// holding any Chinese, stays.
pub fn zh_only(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(open) = rest.find('(') {
        let Some(len) = rest[open..].find(')') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        if is_english_tail(inner) {
            out.push_str(rest[..open].trim_end_matches(' '));
        } else {
            out.push_str(&rest[..open + len + 1]);
        }
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    out
}

fn is_english_tail(inner: &str) -> bool {
    if inner.starts_with('.')
        || inner.contains('\n')
        || inner.chars().any(|c| !c.is_ascii() && c != '…' && c != '–')
    {
        return false;
    }
    let mut run = 0;
    for c in inner.chars() {
        if c.is_ascii_alphabetic() {
            run += 1;
            if run >= 3 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_tails_leave_a_chinese_message() {
        assert_eq!(
            zh_only("第3台成绩已录入 (result entered)"),
            "第3台成绩已录入"
        );
        assert_eq!(
            zh_only("编排检查: 第5台 台次顺序错误 (board 5 out of order) (pairing check)"),
            "编排检查: 第5台 台次顺序错误"
        );
        assert_eq!(
            zh_only("已报名 (P17 张三, 组别 公开组), 跳过 (already registered as P17, skipped)"),
            "已报名 (P17 张三, 组别 公开组), 跳过"
        );
        assert_eq!(
            zh_only("赛事 (ev-00000001) 已闭幕"),
            "赛事 (ev-00000001) 已闭幕"
        );
        assert_eq!(zh_only("规则 (A2) 与 (K12)"), "规则 (A2) 与 (K12)");
        assert_eq!(zh_only("模板 (.xlsx) (template)"), "模板 (.xlsx)");
        assert_eq!(zh_only("未闭合 (open"), "未闭合 (open");
        assert_eq!(Lang::En.say("录入 (entered)"), "录入 (entered)");
        assert_eq!(Lang::Zh.say("录入 (entered)"), "录入");
    }
}
