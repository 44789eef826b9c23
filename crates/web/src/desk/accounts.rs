//! The accounts of an event at the desk (`/desk/e/{ev}/accounts`): the chief arbiter creates,
//! disables, enables and resets the accounts of his event's arbiters, desk staff and
//! organisers (the roles of `arbiter user add`), each limited to the event. A new account
//! and a reset get a one-time password, shown once on the answer to that form and never
//! again (no flash, no log, not stored but as its hash); the account sets its own at its
//! next login (`/desk/password`). Who may manage whom is [`manages`]; every refusal is a
//! typed [`AccountRefusal`] worded Chinese first.

use super::{back, event_id, Desk, Flash};
use crate::app::AppState;
use crate::auth::password;
use crate::auth::{Authed, Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_store::accounts::{check_login, Access, User};
use arbiter_store::{AccountStore, Role};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

/// The roles a chief arbiter gives from the desk (a chief arbiter's account is made from a
/// shell, `arbiter user add`).
pub const ROLES: [Role; 3] = [Role::Arbiter, Role::Desk, Role::Organiser];

/// Why an account cannot be managed or made from the desk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountRefusal {
    /// One's own account (its password is changed at `/desk/password`).
    OwnAccount,
    /// A chief arbiter's account is managed from a shell.
    ChiefArbiter(String),
    /// The account reaches events beyond the manager's own.
    BeyondEvents(String),
    /// No such account.
    Unknown(String),
    /// A role the desk does not give.
    Role(String),
    /// The login name is not valid or taken (the store's words).
    Login(String),
}

impl std::fmt::Display for AccountRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccountRefusal::OwnAccount => write!(
                f,
                "不能在此停用或重置自己的账户; 修改自己的密码请用「修改密码」 (not your own account: change your password on the password page)"
            ),
            AccountRefusal::ChiefArbiter(l) => write!(
                f,
                "账户 `{l}` 是裁判长账户, 只能在服务器上用 arbiter user 管理 (a chief arbiter's account is managed from a shell)"
            ),
            AccountRefusal::BeyondEvents(l) => write!(
                f,
                "账户 `{l}` 可用于您无权管理的赛事 (the account reaches events beyond yours)"
            ),
            AccountRefusal::Unknown(l) => write!(f, "账户 `{l}` 不存在 (unknown account)"),
            AccountRefusal::Role(r) => write!(
                f,
                "角色 「{r}」 不能在裁判台创建; 可选: 裁判、报名处、组委会 (the desk gives the roles arbiter, desk, organiser)"
            ),
            AccountRefusal::Login(e) => write!(f, "{e}"),
        }
    }
}

/// Whether the account `me` (with its access) may disable, enable or reset `target`: not
/// itself, not a chief arbiter, and only an account all of whose events are `me`'s (an
/// account `me` reaches everywhere when `me` is limited to none).
pub fn manages(
    me: &User,
    mine: &Access,
    target: &User,
    theirs: &Access,
) -> Result<(), AccountRefusal> {
    if me.login == target.login {
        return Err(AccountRefusal::OwnAccount);
    }
    if target.role == Role::ChiefArbiter {
        return Err(AccountRefusal::ChiefArbiter(target.login.clone()));
    }
    let within = mine.events.is_empty()
        || (!theirs.events.is_empty() && theirs.events.iter().all(|e| mine.reaches(e)));
    if !within {
        return Err(AccountRefusal::BeyondEvents(target.login.clone()));
    }
    Ok(())
}

/// A one-time password: 16 letters and digits from the OS's randomness, in groups of four
/// (no 0/O, 1/l/I to misread when it is read out or copied by hand).
pub fn one_time_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let hex = crate::auth::token::random_token();
    let chars: Vec<char> = hex
        .as_bytes()
        .chunks(2)
        .take(16)
        .map(|p| {
            let v = u8::from_str_radix(std::str::from_utf8(p).unwrap_or("0"), 16).unwrap_or(0);
            ALPHABET[usize::from(v) % ALPHABET.len()] as char
        })
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

pub fn path(ev: &str) -> String {
    format!("/desk/e/{ev}/accounts")
}

/// One account on the page.
struct Row {
    login: String,
    name: String,
    role: &'static str,
    /// 全部赛事, or the events named.
    events: String,
    disabled: bool,
    must_change: bool,
    /// The account may be disabled, enabled or reset by the one looking.
    managed: bool,
}

#[derive(Template)]
#[template(path = "desk/accounts.html")]
struct AccountsPage<'a> {
    l: Lang,
    csrf: &'a str,
    here: &'a str,
    event_name: &'a str,
    rows: Vec<Row>,
    roles: Vec<(&'static str, &'static str)>,
    /// A one-time password just given: (login, password), shown this once.
    given: Option<(String, String)>,
}

/// `GET /desk/e/{ev}/accounts`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<crate::auth::ManageAccounts>,
    Path(ev): Path<String>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    page(&app, l, &auth, &ev, f, None, None).await
}

async fn page(
    app: &AppState,
    l: Lang,
    auth: &Authed,
    ev: &str,
    f: Flash,
    given: Option<(String, String)>,
    err: Option<String>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(ev)).await?;
    let st = &snap.state;
    let all = app
        .with_store(|s| {
            let mut out = Vec::new();
            for u in s.users()? {
                let a = s.access(&u.login)?;
                out.push((u, a));
            }
            Ok(out)
        })
        .await?;
    let rows = all
        .iter()
        .filter(|(_, a)| a.reaches(ev))
        .map(|(u, a)| Row {
            login: u.login.clone(),
            name: u.display_name.clone(),
            role: u.role.zh(),
            events: if a.events.is_empty() {
                l.t("全部赛事", "every event").to_string()
            } else {
                a.events.join("、")
            },
            disabled: a.disabled,
            must_change: a.must_change_password,
            managed: manages(&auth.user, &auth.access, u, a).is_ok(),
        })
        .collect();
    let here = path(ev);
    let title = l.t("账户", "Accounts");
    let content = AccountsPage {
        l,
        csrf: &auth.csrf,
        here: &here,
        event_name: st.name(),
        rows,
        roles: ROLES.iter().map(|r| (r.as_str(), r.zh())).collect(),
        given,
    };
    let shown = content.given.is_some();
    let mut r = Desk::new(l, auth, format!("{} · {title}", st.name()), here.clone())
        .event(ev, st)
        .crumb(here.clone(), title)
        .flash(f)
        .error(err.clone())
        .render(
            if err.is_some() {
                StatusCode::UNPROCESSABLE_ENTITY
            } else {
                StatusCode::OK
            },
            &content,
        )?;
    if shown {
        // The one-time password is on this answer alone: no cache keeps it.
        r.headers_mut().insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("no-store"),
        );
    }
    Ok(r)
}

#[derive(Deserialize)]
pub struct CreateForm {
    #[serde(default)]
    login: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    role: String,
}

/// `POST /desk/e/{ev}/accounts`: a new account limited to this event, with a one-time
/// password shown once.
pub async fn create(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    p: Post<crate::auth::ManageAccounts, CreateForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let login = f.login.trim().to_string();
    let role = match f.role.parse::<Role>() {
        Ok(r) if ROLES.contains(&r) => r,
        _ => {
            let e = AccountRefusal::Role(f.role.clone()).to_string();
            return page(&app, l, &p.auth, &ev, Flash::default(), None, Some(e)).await;
        }
    };
    if let Err(e) = check_login(&login) {
        let e = AccountRefusal::Login(e).to_string();
        return page(&app, l, &p.auth, &ev, Flash::default(), None, Some(e)).await;
    }
    let name = match f.name.trim() {
        "" => login.clone(),
        n => n.chars().take(64).collect(),
    };
    if let Err(e) = arbiter_types::text::check_line(&name, 64) {
        let e = format!("显示名 {e}");
        return page(&app, l, &p.auth, &ev, Flash::default(), None, Some(e)).await;
    }
    let pw = one_time_password();
    let hash = password::hash(&pw).map_err(WebError::Internal)?;
    let user = User {
        login: login.clone(),
        display_name: name,
        role,
        password_hash: hash,
        created: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    let access = Access {
        disabled: false,
        events: vec![ev.clone()],
        must_change_password: true,
    };
    let made = app
        .with_store(move |s| match s.add_user(&user) {
            Ok(()) => {
                s.set_access(&user.login, &access)?;
                Ok(Ok(()))
            }
            Err(arbiter_store::StoreError::Account(e)) => Ok(Err(e)),
            Err(e) => Err(e.into()),
        })
        .await?;
    if let Err(e) = made {
        let e = AccountRefusal::Login(e).to_string();
        return page(&app, l, &p.auth, &ev, Flash::default(), None, Some(e)).await;
    }
    tracing::info!(by = %p.auth.actor(), account = %login, role = role.as_str(), "account created");
    page(
        &app,
        l,
        &p.auth,
        &ev,
        Flash::default(),
        Some((login, pw)),
        None,
    )
    .await
}

#[derive(Deserialize)]
pub struct AccountForm {
    #[serde(default)]
    login: String,
}

/// The account `login` and its access, if the one asking manages it.
async fn managed(
    app: &AppState,
    auth: &Authed,
    login: &str,
) -> Result<Result<Access, String>, WebError> {
    let login2 = login.to_string();
    let found = app
        .with_store(move |s| {
            Ok(match s.user(&login2)? {
                Some(u) => {
                    let a = s.access(&u.login)?;
                    Some((u, a))
                }
                None => None,
            })
        })
        .await?;
    Ok(match found {
        None => Err(AccountRefusal::Unknown(login.to_string()).to_string()),
        Some((u, a)) => manages(&auth.user, &auth.access, &u, &a)
            .map(|()| a)
            .map_err(|e| e.to_string()),
    })
}

/// `POST /desk/e/{ev}/accounts/disable` and `…/enable` (`disable`: its sessions end).
pub async fn set_disabled(
    app: &AppState,
    ev: &str,
    p: Post<crate::auth::ManageAccounts, AccountForm>,
    disabled: bool,
) -> Result<Response, WebError> {
    let login = p.form.login.trim().to_string();
    let mut access = match managed(app, &p.auth, &login).await? {
        Ok(a) => a,
        Err(e) => return Ok(back(&path(ev), Err(e))),
    };
    access.disabled = disabled;
    let l2 = login.clone();
    app.with_store(move |s| Ok(s.set_access(&l2, &access)?))
        .await?;
    tracing::info!(by = %p.auth.actor(), account = %login, disabled, "account access changed");
    Ok(back(
        &path(ev),
        Ok(if disabled {
            format!("已停用账户 {login}, 其登录已结束 (account disabled, its sessions ended)")
        } else {
            format!("已启用账户 {login} (account enabled)")
        }),
    ))
}

/// `POST /desk/e/{ev}/accounts/disable`.
pub async fn disable(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::ManageAccounts, AccountForm>,
) -> Result<Response, WebError> {
    set_disabled(&app, &ev, p, true).await
}

/// `POST /desk/e/{ev}/accounts/enable`.
pub async fn enable(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::ManageAccounts, AccountForm>,
) -> Result<Response, WebError> {
    set_disabled(&app, &ev, p, false).await
}

/// `POST /desk/e/{ev}/accounts/reset`: a one-time password, shown once; the account's
/// sessions end and it sets its own password at its next login.
pub async fn reset(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    p: Post<crate::auth::ManageAccounts, AccountForm>,
) -> Result<Response, WebError> {
    let login = p.form.login.trim().to_string();
    let mut access = match managed(&app, &p.auth, &login).await? {
        Ok(a) => a,
        Err(e) => return Ok(back(&path(&ev), Err(e))),
    };
    let pw = one_time_password();
    let hash = password::hash(&pw).map_err(WebError::Internal)?;
    access.must_change_password = true;
    let l2 = login.clone();
    app.with_store(move |s| {
        s.set_password(&l2, &hash)?;
        s.set_access(&l2, &access)?;
        Ok(())
    })
    .await?;
    tracing::info!(by = %p.auth.actor(), account = %login, "account password reset");
    page(
        &app,
        l,
        &p.auth,
        &ev,
        Flash::default(),
        Some((login, pw)),
        None,
    )
    .await
}

#[derive(Template)]
#[template(path = "desk/password.html")]
struct PasswordPage<'a> {
    l: Lang,
    csrf: &'a str,
    /// The account has a one-time password to replace.
    must: bool,
}

/// `GET /desk/password`: change one's own password (first of all after a one-time one).
pub async fn password_form(
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
) -> Result<Response, WebError> {
    password_page(l, &auth, StatusCode::OK, None)
}

fn password_page(
    l: Lang,
    auth: &Authed,
    status: StatusCode,
    err: Option<String>,
) -> Result<Response, WebError> {
    let title = l.t("修改密码", "Change password");
    Desk::new(l, auth, title, "/desk/password")
        .error(err)
        .render(
            status,
            &PasswordPage {
                l,
                csrf: &auth.csrf,
                must: auth.access.must_change_password,
            },
        )
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    current: String,
    #[serde(default)]
    new: String,
    #[serde(default)]
    again: String,
}

/// `POST /desk/password`: the current password, the new one twice. Every session of the
/// account ends; it logs in again with the new password.
pub async fn change_password(
    State(app): State<AppState>,
    l: Lang,
    p: Post<Staff, PasswordForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let auth = p.auth;
    let bad = |m: String| password_page(l, &auth, StatusCode::UNPROCESSABLE_ENTITY, Some(m));
    if f.new != f.again {
        return bad("两次输入的新密码不同 (the new passwords differ)".into());
    }
    if let Err(e) = password::check_new(auth.actor(), &f.new) {
        return bad(e);
    }
    let phc = auth.user.password_hash.clone();
    let current = f.current;
    let ok = tokio::task::spawn_blocking(move || password::verify(&current, &phc))
        .await
        .map_err(|e| WebError::Internal(e.to_string()))?;
    if !ok {
        return bad("当前密码不对 (the current password is wrong)".into());
    }
    let hash = password::hash(&f.new).map_err(WebError::Internal)?;
    let login = auth.actor().to_string();
    let mut access = auth.access.clone();
    access.must_change_password = false;
    app.with_store(move |s| {
        s.set_password(&login, &hash)?;
        s.set_access(&login, &access)?;
        Ok(())
    })
    .await?;
    tracing::info!(account = %auth.actor(), "own password changed");
    Ok(Redirect::to("/login?next=/desk").into_response())
}

/// Every desk request passes here first: an account limited to named events reaches no
/// other (`403`), and an account with a one-time password sets its own before anything else.
/// (A disabled account has no session at all: [`crate::auth::session::session_of`].)
pub async fn gate(
    State(app): State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use axum::extract::FromRequestParts;
    let path = req.uri().path().to_string();
    let (mut parts, body) = req.into_parts();
    let Ok(auth) = Authed::from_request_parts(&mut parts, &app).await else {
        // No session: the route's own guard answers.
        return next
            .run(axum::extract::Request::from_parts(parts, body))
            .await;
    };
    let free = path == "/desk/password" || path.starts_with("/desk/assets/");
    if auth.access.must_change_password && !free {
        if parts.method == axum::http::Method::GET {
            return Redirect::to("/desk/password").into_response();
        }
        return (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            crate::page::error_page(
                StatusCode::FORBIDDEN,
                "请先修改一次性密码: /desk/password (set your own password first)",
            ),
        )
            .into_response();
    }
    if let Some(ev) = path
        .strip_prefix("/desk/e/")
        .and_then(|r| r.split('/').next())
    {
        if !auth.access.reaches(ev) {
            return (
                StatusCode::FORBIDDEN,
                [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                crate::page::error_page(
                    StatusCode::FORBIDDEN,
                    "无权操作: 本账户只能用于指定的赛事 (this account is limited to other events)",
                ),
            )
                .into_response();
        }
    }
    next.run(axum::extract::Request::from_parts(parts, body))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(login: &str, role: Role) -> User {
        User {
            login: login.into(),
            display_name: login.into(),
            role,
            password_hash: String::new(),
            created: String::new(),
        }
    }

    fn limited(evs: &[&str]) -> Access {
        Access {
            events: evs.iter().map(|e| e.to_string()).collect(),
            ..Access::default()
        }
    }

    #[test]
    fn a_chief_arbiter_manages_the_accounts_of_his_events_only() {
        let chief = user("chief", Role::ChiefArbiter);
        let mine = limited(&["ts"]);
        let wang = user("wang", Role::Arbiter);
        assert!(manages(&chief, &mine, &wang, &limited(&["ts"])).is_ok());
        assert_eq!(
            manages(&chief, &mine, &wang, &limited(&["ts", "ks"])),
            Err(AccountRefusal::BeyondEvents("wang".into()))
        );
        assert_eq!(
            manages(&chief, &mine, &wang, &Access::default()),
            Err(AccountRefusal::BeyondEvents("wang".into()))
        );
        // A chief arbiter of every event manages every account but a chief's and his own.
        assert!(manages(&chief, &Access::default(), &wang, &Access::default()).is_ok());
        let other = user("li", Role::ChiefArbiter);
        assert_eq!(
            manages(&chief, &Access::default(), &other, &limited(&["ts"])),
            Err(AccountRefusal::ChiefArbiter("li".into()))
        );
        assert_eq!(
            manages(&chief, &Access::default(), &chief, &Access::default()),
            Err(AccountRefusal::OwnAccount)
        );
    }

    #[test]
    fn one_time_passwords_are_new_each_time_and_pass_the_password_rule() {
        let a = one_time_password();
        let b = one_time_password();
        assert_ne!(a, b);
        assert_eq!(a.len(), 19, "{a}");
        assert!(password::check_new("wang", &a).is_ok());
    }
}
