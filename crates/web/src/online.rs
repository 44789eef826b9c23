//! The online entry form (网上报名, issue 14): `GET/POST /e/{ev}/entry`, public, no login.
//!
//! A player gives name, sex, ID number, unit, phone and section; the director checks the entry
//! at once (`entries::submit`: the same rules as a registration at the desk, except the
//! documents, which the desk sees) and either records it as pending (`entry_submitted`,
//! actor `online`) or answers with the reason. The desk approves or refuses pending entries
//! on its registration list.
//!
//! Safeguards: the form carries its own CSRF token (cookie `arbiter_entry` + hidden field,
//! both must match); the body is at most [`MAX_BODY`] bytes and each field at most
//! [`MAX_FIELD`] characters; each client address may submit [`MAX_PER_ADDR`] times within
//! [`crate::auth::limit::WINDOW`] seconds, then waits. The answer page never repeats the ID
//! number or the phone, and nothing of the form is written to the server's output.

use crate::app::AppState;
use crate::auth::limit;
use crate::auth::session::{cookie, now};
use crate::auth::token::{ct_eq, random_token};
use crate::desk::event_id;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::page::escape as e;
use crate::public::Layout;
use crate::write;
use arbiter_director::api::entries as api;
use arbiter_store::AccountStore;
use askama::Template;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use std::fmt::Write;

pub const ENTRY_CSRF_COOKIE: &str = "arbiter_entry";
/// Largest form body accepted (bytes).
pub const MAX_BODY: usize = 4096;
/// Longest field accepted (characters).
pub const MAX_FIELD: usize = 100;
/// Submissions per client address within the window.
pub const MAX_PER_ADDR: u32 = 10;
/// The actor of `entry_submitted`.
pub const ACTOR: &str = arbiter_director::log_view::ONLINE;

pub fn routes() -> Router<AppState> {
    Router::new().route("/e/{ev}/entry", get(form).post(submit))
}

#[derive(Template)]
#[template(path = "online.html")]
struct OnlinePage {
    layout: Layout,
    ok: Option<String>,
    err: Option<String>,
    content: String,
}

/// What the form shows again after a refusal (never the ID number or the phone).
#[derive(Default)]
struct Kept {
    section: String,
    name: String,
    sex: String,
    unit: String,
}

async fn page(
    app: &AppState,
    l: Lang,
    ev: &str,
    status: StatusCode,
    outcome: Option<Result<String, String>>,
    kept: Kept,
) -> Result<Response, WebError> {
    let snap = app.snapshot(ev).await?;
    let st = &snap.state;
    let here = format!("/e/{ev}/entry");
    let token = random_token();
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{} · {}</h1><p>{}</p>",
        e(st.name()),
        l.t("网上报名", "Online entry"),
        l.t(
            "提交后由报名处审核; 身份证号和电话不会在任何公开页面显示。",
            "The registration desk reviews every entry; ID numbers and phones never appear on a public page."
        )
    );
    let done = matches!(outcome, Some(Ok(_)));
    if !done {
        let mut options = String::new();
        for s in st.sections.values() {
            let sel = if s.id == kept.section {
                " selected"
            } else {
                ""
            };
            let _ = write!(
                options,
                "<option value=\"{}\"{sel}>{}</option>",
                e(&s.id),
                e(&s.name)
            );
        }
        let sel = |v: &str| if kept.sex == v { " selected" } else { "" };
        let _ = write!(
            c,
            "<form method=\"post\" action=\"{action}\" class=\"stack\" id=\"entry-form\">\
             <input type=\"hidden\" name=\"csrf\" value=\"{token}\">\
             <label>{secl} <select name=\"section\" required>{options}</select></label>\
             <label>{nl} <input name=\"name\" value=\"{name}\" maxlength=\"{max}\" required></label>\
             <label>{sxl} <select name=\"sex\"><option value=\"\"></option><option value=\"男\"{m}>男</option><option value=\"女\"{f}>女</option></select></label>\
             <label>{il} <input name=\"id_number\" maxlength=\"18\" autocomplete=\"off\" required></label>\
             <label>{ul} <input name=\"unit\" value=\"{unit}\" maxlength=\"{max}\"></label>\
             <label>{pl} <input name=\"phone\" inputmode=\"tel\" maxlength=\"11\" autocomplete=\"off\" required></label>\
             <button type=\"submit\">{b}</button></form>",
            action = e(&here),
            secl = l.t("组别", "Section"),
            nl = l.t("姓名", "Name"),
            name = e(&kept.name),
            max = MAX_FIELD,
            sxl = l.t("性别", "Sex"),
            m = sel("男"),
            f = sel("女"),
            il = l.t("身份证号", "ID number"),
            ul = l.t("单位", "Unit"),
            unit = e(&kept.unit),
            pl = l.t("手机号", "Mobile phone"),
            b = l.t("提交报名", "Submit"),
        );
    }
    let (ok, err) = match outcome {
        Some(Ok(m)) => (Some(m), None),
        Some(Err(m)) => (None, Some(m)),
        None => (None, None),
    };
    let t = OnlinePage {
        layout: Layout::plain(
            l,
            format!("{} · {}", l.t("网上报名", "Online entry"), st.name()),
            here,
        ),
        ok,
        err,
        content: c,
    };
    let body = t.render().map_err(|e| WebError::Internal(e.to_string()))?;
    let mut resp = (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response();
    let h = resp.headers_mut();
    if !done {
        let c =
            format!("{ENTRY_CSRF_COOKIE}={token}; Path=/e/{ev}/entry; HttpOnly; SameSite=Strict");
        if let Ok(v) = HeaderValue::from_str(&c) {
            h.append(header::SET_COOKIE, v);
        }
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// `GET /e/{ev}/entry`.
pub async fn form(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
) -> Result<Response, WebError> {
    page(&app, l, &ev, StatusCode::OK, None, Kept::default()).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct OnlineForm {
    csrf: String,
    section: String,
    name: String,
    sex: String,
    id_number: String,
    phone: String,
    unit: String,
}

/// `POST /e/{ev}/entry`.
pub async fn submit(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    client: crate::net::ClientInfo,
    req: Request,
) -> Result<Response, WebError> {
    // The event exists (404 otherwise) before anything is read or counted.
    app.snapshot(&ev).await?;
    // The peer's address, or behind a trusted proxy (`--trusted-proxy`) the address it
    // forwarded for: never a header a client could set itself.
    let addr = client.addr;
    let cookie_token = cookie(req.headers(), ENTRY_CSRF_COOKIE)
        .unwrap_or("")
        .to_string();
    let bytes = match axum::body::to_bytes(req.into_body(), MAX_BODY).await {
        Ok(b) => b,
        Err(_) => {
            let msg = format!("表单过大, 至多 {MAX_BODY} 字节 (the form is too large)");
            return page(
                &app,
                l,
                &ev,
                StatusCode::PAYLOAD_TOO_LARGE,
                Some(Err(msg)),
                Kept::default(),
            )
            .await;
        }
    };
    let f: OnlineForm = match serde_urlencoded::from_bytes(&bytes) {
        Ok(f) => f,
        Err(_) => {
            let msg = "表单无法读取 (malformed form)".to_string();
            return page(
                &app,
                l,
                &ev,
                StatusCode::BAD_REQUEST,
                Some(Err(msg)),
                Kept::default(),
            )
            .await;
        }
    };
    let kept = Kept {
        section: f.section.clone(),
        name: f.name.clone(),
        sex: f.sex.clone(),
        unit: f.unit.clone(),
    };
    if cookie_token.is_empty() || !ct_eq(&cookie_token, &f.csrf) {
        let msg = "表单已失效或来源不明, 请刷新页面后重试 (missing or wrong CSRF token; reload the page and try again)".to_string();
        return page(&app, l, &ev, StatusCode::FORBIDDEN, Some(Err(msg)), kept).await;
    }
    let too_long = [&f.section, &f.name, &f.sex, &f.id_number, &f.phone, &f.unit]
        .iter()
        .any(|v| v.chars().count() > MAX_FIELD);
    if too_long {
        let msg = format!("字段过长, 每项至多 {MAX_FIELD} 字 (a field is too long)");
        return page(
            &app,
            l,
            &ev,
            StatusCode::PAYLOAD_TOO_LARGE,
            Some(Err(msg)),
            Kept::default(),
        )
        .await;
    }
    // Every submission from an address counts, accepted or not.
    let key = format!("entry:{addr}");
    let now = now();
    let wait = app
        .with_store(move |st| {
            let wait = limit::wait(st.failures(&key, now, limit::WINDOW)?, MAX_PER_ADDR, now);
            if wait.is_none() {
                st.record_failure(&key, now, limit::WINDOW)?;
            }
            Ok(wait)
        })
        .await?;
    if let Some(w) = wait {
        let msg =
            format!("提交次数过多, 请 {w} 秒后再试 (too many submissions; try again in {w} s)");
        return page(
            &app,
            l,
            &ev,
            StatusCode::TOO_MANY_REQUESTS,
            Some(Err(msg)),
            kept,
        )
        .await;
    }
    let sex = match f.sex.trim() {
        "" => None,
        s => match arbiter_import::roster::parse_sex(s) {
            Some(x) => Some(x),
            None => {
                let msg = "性别应为 男/女 (unknown sex)".to_string();
                return page(
                    &app,
                    l,
                    &ev,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Some(Err(msg)),
                    kept,
                )
                .await;
            }
        },
    };
    let form = api::online_form(
        f.section.trim(),
        &f.name,
        sex,
        Some(&f.id_number),
        Some(&f.phone),
        Some(&f.unit),
    );
    let done = write::apply(&app, &event_id(&ev), &write::OnlineForm, move |st, ctx| {
        api::submit(st, ctx, &form)
    })
    .await?;
    match done {
        Ok(a) => {
            let n = a
                .entries
                .iter()
                .find_map(|x| match x {
                    arbiter_core::LogEntry::EntrySubmitted { submission, .. } => Some(*submission),
                    _ => None,
                })
                .unwrap_or(0);
            let msg = format!(
                "{} #{n} {}",
                l.t("报名已提交, 编号", "Entry submitted, number"),
                l.t(
                    "等待报名处审核 (pending the desk's approval)",
                    "— pending the desk's approval"
                )
            );
            page(&app, l, &ev, StatusCode::OK, Some(Ok(msg)), kept).await
        }
        Err(m) => {
            page(
                &app,
                l,
                &ev,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(Err(m)),
                kept,
            )
            .await
        }
    }
}
