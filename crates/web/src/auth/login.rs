//! `GET/POST /login`, `POST /logout`.
//!
//! The login form has no session yet, so it carries its own CSRF token: a random value set
//! as the cookie `arbiter_login` (HttpOnly, SameSite=Strict) and repeated in the form; the
//! `POST` must bring both, equal. Failed logins are counted per login name and per client
//! address ([`super::limit`]); while a count is over its limit the password is not even
//! checked and the answer is `429` with the time to wait.

use super::limit;
use super::password;
use super::session::{self, cookie, now, Authed, Post, Staff, SESSION_COOKIE, SESSION_TTL};
use super::token::{ct_eq, random_token, token_hash};
use crate::app::AppState;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::public::Layout;
use arbiter_store::accounts::Session;
use arbiter_store::AccountStore;
use askama::Template;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

pub const LOGIN_CSRF_COOKIE: &str = "arbiter_login";

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    layout: Layout,
    csrf: String,
    next: String,
    login: String,
    error: Option<String>,
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

/// Only a local path: never send the browser to another site after login.
fn local_path(p: Option<String>) -> String {
    p.filter(|b| b.starts_with('/') && !b.starts_with("//") && !b.contains('\\'))
        .unwrap_or_else(|| "/desk".into())
}

fn render(
    l: Lang,
    status: StatusCode,
    csrf: String,
    next: String,
    login: String,
    error: Option<String>,
) -> Result<Response, WebError> {
    let t = LoginPage {
        layout: Layout::plain(l, l.t("裁判登录", "Arbiter login"), "/login"),
        csrf: csrf.clone(),
        next,
        login,
        error,
    };
    let body = t.render().map_err(|e| WebError::Internal(e.to_string()))?;
    let mut resp = (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response();
    let c = format!("{LOGIN_CSRF_COOKIE}={csrf}; Path=/login; HttpOnly; SameSite=Strict");
    if let Ok(v) = HeaderValue::from_str(&c) {
        resp.headers_mut().append(header::SET_COOKIE, v);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// `GET /login`.
pub async fn login_form(l: Lang, Query(q): Query<NextQuery>) -> Result<Response, WebError> {
    render(
        l,
        StatusCode::OK,
        random_token(),
        local_path(q.next),
        String::new(),
        None,
    )
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    login: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrf: String,
    next: Option<String>,
}

/// The client's address (when the server was started with connection info).
fn client_addr(info: Option<&ConnectInfo<SocketAddr>>) -> IpAddr {
    info.map(|c| c.0.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
}

/// `POST /login`.
pub async fn login(
    State(app): State<AppState>,
    l: Lang,
    headers: HeaderMap,
    connect: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    Form(f): Form<LoginForm>,
) -> Result<Response, WebError> {
    let next = local_path(f.next.clone());
    let cookie_token = cookie(&headers, LOGIN_CSRF_COOKIE).unwrap_or("");
    if cookie_token.is_empty() || !ct_eq(cookie_token, &f.csrf) {
        return render(
            l,
            StatusCode::FORBIDDEN,
            random_token(),
            next,
            f.login,
            Some(
                "登录表单已失效, 请重新输入 (the login form expired or came from elsewhere; try again)"
                    .into(),
            ),
        );
    }
    let addr = client_addr(connect.as_ref().map(|e| &e.0));
    let login = f.login.trim().to_string();
    let password = f.password;
    let now = now();
    let (lk, ak) = (limit::login_key(&login), limit::addr_key(&addr));
    // 1. The limit and the account (the store is not held while the hash is computed).
    let (lk2, ak2, who) = (lk.clone(), ak.clone(), login.clone());
    let (wait, user) = app
        .with_store(move |st| {
            let wait = limit::wait(
                st.failures(&lk2, now, limit::WINDOW)?,
                limit::MAX_PER_LOGIN,
                now,
            )
            .max(limit::wait(
                st.failures(&ak2, now, limit::WINDOW)?,
                limit::MAX_PER_ADDR,
                now,
            ));
            Ok((wait, st.user(&who)?))
        })
        .await?;
    let outcome: Result<String, Option<i64>> = if let Some(w) = wait {
        Err(Some(w))
    } else {
        // 2. argon2 takes tens of milliseconds: off the async threads.
        let phc = user.as_ref().map(|u| u.password_hash.clone());
        let ok = tokio::task::spawn_blocking(move || match phc {
            Some(h) => password::verify(&password, &h),
            None => {
                password::verify_nobody(&password);
                false
            }
        })
        .await
        .map_err(|e| WebError::Internal(e.to_string()))?;
        // 3. A session, or one more failure under both keys.
        app.with_store(move |st| match user {
            Some(u) if ok => {
                st.clear_failures(&lk)?;
                let token = random_token();
                st.purge_sessions(now)?;
                st.create_session(&Session {
                    token_hash: token_hash(&token),
                    login: u.login.clone(),
                    csrf: random_token(),
                    created: now,
                    expires: now + SESSION_TTL,
                })?;
                Ok(Ok(token))
            }
            _ => {
                st.record_failure(&lk, now, limit::WINDOW)?;
                st.record_failure(&ak, now, limit::WINDOW)?;
                Ok(Err(None))
            }
        })
        .await?
    };
    match outcome {
        Ok(token) => {
            let mut resp = Redirect::to(&next).into_response();
            let c = format!(
                "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={SESSION_TTL}"
            );
            if let Ok(v) = HeaderValue::from_str(&c) {
                resp.headers_mut().append(header::SET_COOKIE, v);
            }
            resp.headers_mut().append(
                header::SET_COOKIE,
                HeaderValue::from_static("arbiter_login=; Path=/login; Max-Age=0"),
            );
            Ok(resp)
        }
        Err(Some(wait)) => render(
            l,
            StatusCode::TOO_MANY_REQUESTS,
            random_token(),
            next,
            f.login,
            Some(limit::message(wait)),
        ),
        Err(None) => render(
            l,
            StatusCode::UNAUTHORIZED,
            random_token(),
            next,
            f.login,
            Some("登录名或密码错误 (wrong login name or password)".into()),
        ),
    }
}

#[derive(Deserialize)]
pub struct Empty {}

/// `POST /logout` (with the session's CSRF token).
pub async fn logout(
    State(app): State<AppState>,
    p: Post<Staff, Empty>,
) -> Result<Response, WebError> {
    let Authed { token_hash, .. } = p.auth;
    app.with_store(move |st| Ok(st.delete_session(&token_hash)?))
        .await?;
    let mut resp = Redirect::to("/").into_response();
    resp.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_static("arbiter_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    Ok(resp)
}

pub use session::url_encode;
