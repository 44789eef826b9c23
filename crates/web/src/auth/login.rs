//! `GET/POST /login`, `POST /logout`.
//!
//! The login form has no session yet, so it carries its own CSRF token: a random value set
//! as the cookie `arbiter_login` (HttpOnly, SameSite=Strict) and repeated in the form; the
//! `POST` must bring both, equal. A login name longer than [`limit::MAX_LOGIN_CHARS`] (or
//! one no account can have) is answered as a wrong password before anything is stored or
//! checked, and the form's body is at most [`MAX_BODY`] bytes. Failed logins are counted per
//! login name, per client address and per device cookie ([`super::limit`]); while a count is
//! over its limit the password is not even checked and the answer is `429` with the time to
//! wait. At most as many passwords as the machine has cores are checked at once; an attempt
//! that finds no free check within [`limit::QUEUE_WAIT`] is answered `503` with
//! `Retry-After`.

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
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

pub const LOGIN_CSRF_COOKIE: &str = "arbiter_login";
/// Largest login form accepted (bytes): a name, a password of at most 256 characters, the
/// CSRF token and the page to go back to.
pub const MAX_BODY: usize = 16 * 1024;

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
    p.as_deref()
        .and_then(crate::page::local_path)
        .unwrap_or("/desk")
        .to_string()
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

/// `POST /login`.
pub async fn login(
    State(app): State<AppState>,
    l: Lang,
    headers: HeaderMap,
    client: crate::net::ClientInfo,
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
    // The peer's address, or behind a trusted proxy the address it forwarded for.
    let addr = client.addr;
    let login = f.login.trim().to_string();
    // A name no account can have (too long, spaces, control characters): nothing is stored,
    // no password checked, and the page does not repeat it whole.
    if arbiter_store::accounts::check_login(&login).is_err() {
        let shown: String = login.chars().take(limit::MAX_LOGIN_CHARS).collect();
        return render(
            l,
            StatusCode::UNAUTHORIZED,
            random_token(),
            next,
            shown,
            Some(wrong_name_or_password()),
        );
    }
    let password = f.password;
    let now = now();
    let device_cookie = cookie(&headers, limit::DEVICE_COOKIE)
        .unwrap_or("")
        .to_string();
    // 1. The limit, and the attempt reserved under the same store call: parallel attempts
    //    count as failures until decided. The store is not held while the hash is computed.
    let gate = app.login_gate.clone();
    let who = login.clone();
    let reserved = app
        .with_store(move |st| {
            let user = st.user(&who)?;
            // A device cookie counts only if it is good for this name and password.
            let device = user
                .as_ref()
                .and_then(|u| limit::device_check(&device_cookie, &u.password_hash, &who, now));
            let mut a = limit::Attempt::new(&who, &addr, device.as_deref());
            a.login.1 = st.failures(&a.login.0, now, limit::WINDOW)?;
            a.addr.1 = st.failures(&a.addr.0, now, limit::WINDOW)?;
            a.pair.1 = st.failures(&a.pair.0, now, limit::WINDOW)?;
            if let Some(d) = a.device.as_mut() {
                d.1 = st.failures(&d.0, now, limit::WINDOW)?;
            }
            let keys = a.keys();
            Ok(gate.reserve(a, now).map(|r| (r, user, keys)))
        })
        .await?;
    let outcome: Result<(String, String), LoginRefusal> = match reserved {
        Err(w) => Err(LoginRefusal::Wait(w)),
        Ok((reservation, user, keys)) => {
            // 2. The check and its outcome run to the end even if the client goes away,
            //    so no attempt is checked without being counted.
            let app2 = app.clone();
            tokio::spawn(async move {
                let outcome = check(&app2, user, password, keys, now).await;
                drop(reservation);
                outcome
            })
            .await
            .map_err(|e| WebError::Internal(e.to_string()))??
        }
    };
    match outcome {
        Ok((token, device)) => {
            let mut resp = Redirect::to(&next).into_response();
            let c = format!(
                "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={SESSION_TTL}"
            );
            if let Ok(v) = HeaderValue::from_str(&c) {
                resp.headers_mut().append(header::SET_COOKIE, v);
            }
            // This browser is now trusted for this name (see `limit`).
            let d = format!(
                "{}={device}; Path=/login; HttpOnly; SameSite=Strict; Max-Age={}",
                limit::DEVICE_COOKIE,
                limit::DEVICE_TTL
            );
            if let Ok(v) = HeaderValue::from_str(&d) {
                resp.headers_mut().append(header::SET_COOKIE, v);
            }
            resp.headers_mut().append(
                header::SET_COOKIE,
                HeaderValue::from_static("arbiter_login=; Path=/login; Max-Age=0"),
            );
            Ok(resp)
        }
        Err(LoginRefusal::Busy) => {
            let mut resp = render(
                l,
                StatusCode::SERVICE_UNAVAILABLE,
                random_token(),
                next,
                f.login,
                Some("服务器忙, 请稍后再试 (the server is busy; try again in a moment)".into()),
            )?;
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            Ok(resp)
        }
        Err(LoginRefusal::Wait(wait)) => render(
            l,
            StatusCode::TOO_MANY_REQUESTS,
            random_token(),
            next,
            f.login,
            Some(limit::message(wait)),
        ),
        Err(LoginRefusal::Disabled) => render(
            l,
            StatusCode::FORBIDDEN,
            random_token(),
            next,
            f.login,
            Some(
                "账户已停用, 请联系裁判长 (this account is disabled; ask the chief arbiter)".into(),
            ),
        ),
        Err(LoginRefusal::Wrong) => render(
            l,
            StatusCode::UNAUTHORIZED,
            random_token(),
            next,
            f.login,
            Some(wrong_name_or_password()),
        ),
    }
}

fn wrong_name_or_password() -> String {
    "登录名或密码错误 (wrong login name or password)".into()
}

/// Why a login did not open a session.
enum LoginRefusal {
    /// Too many failures: seconds to wait.
    Wait(i64),
    /// No free password check within [`limit::QUEUE_WAIT`].
    Busy,
    /// Wrong name or password.
    Wrong,
    /// The right password of an account the chief arbiter disabled (told only to one who
    /// knows the password).
    Disabled,
}

/// Check the password on one of the gate's slots (argon2 takes tens of milliseconds and
/// 19 MiB: off the async threads, a bounded number at once), then store a session or one
/// more failure under each key (and forget the failures older than the window). A success
/// answers the session token and a new device cookie.
async fn check(
    app: &AppState,
    user: Option<arbiter_store::accounts::User>,
    password: String,
    keys: Vec<String>,
    now: i64,
) -> Result<Result<(String, String), LoginRefusal>, WebError> {
    let Some(slot) = app.login_gate.check_slot(limit::QUEUE_WAIT).await else {
        return Ok(Err(LoginRefusal::Busy));
    };
    let phc = user.as_ref().map(|u| u.password_hash.clone());
    let ok = slot
        .run(move || match phc {
            Some(h) => password::verify(&password, &h),
            None => {
                password::verify_nobody(&password);
                false
            }
        })
        .await
        .ok_or_else(|| WebError::Internal("密码校验未完成 (password check lost)".into()))?;
    app.with_store(move |st| match user {
        Some(u) if ok && st.access(&u.login)?.disabled => Ok(Err(LoginRefusal::Disabled)),
        Some(u) if ok => {
            // The pair's count, and the device cookie's if one came.
            for k in &keys[2..] {
                st.clear_failures(k)?;
            }
            let token = random_token();
            st.purge_sessions(now)?;
            st.create_session(&Session {
                token_hash: token_hash(&token),
                login: u.login.clone(),
                csrf: random_token(),
                created: now,
                expires: now + SESSION_TTL,
            })?;
            let device = limit::device_cookie(&u.password_hash, &u.login, now);
            Ok(Ok((token, device)))
        }
        _ => {
            st.purge_failures(now, limit::WINDOW)?;
            for k in &keys {
                st.record_failure(k, now, limit::WINDOW)?;
            }
            Ok(Err(LoginRefusal::Wrong))
        }
    })
    .await
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
