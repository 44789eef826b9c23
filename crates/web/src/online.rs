//! The online entry form (网上报名, issue 14): `GET/POST /e/{ev}/entry`, public, no login.
//!
//! Closed (deadline passed, event closed or under way: `entries::online_open`), the page says
//! so and shows no form. Otherwise a player gives name, sex, ID number, unit, phone and
//! section, and ticks the section's conditions and documents; the director checks the entry
//! at once (`entries::submit_keyed`: the same rules as a registration at the desk, except the
//! documents, which the desk sees) and either records it as pending (`entry_submitted`,
//! actor `online`, with the hash of a status token) or answers with the reason, the form kept
//! as typed. An accepted entry gets a summary (masked ID number), what to bring, and the link
//! to its status page (`/e/{ev}/entry/status/{token}`). The desk approves or refuses pending
//! entries on its registration list.
//!
//! Safeguards: the form carries its own CSRF token (cookie `arbiter_entry` + hidden field,
//! both must match); the body is at most [`MAX_BODY`] bytes and each field at most
//! [`MAX_FIELD`] characters; each client address (an IPv6 client by its /64) may submit
//! [`MAX_PER_ADDR`] times within [`crate::auth::limit::WINDOW`] seconds, then waits; and all
//! addresses together may submit [`MAX_PER_MINUTE`] times a minute to one event, so many
//! addresses do not make many submissions. Only the answer to the player's own form
//! repeats the ID number and phone (to keep the form filled; `no-store`); the summary and the
//! status page show the ID number masked; nothing of the form is written to the server's
//! output. Once the entry is in, where the regulation sets a check-in, the status page
//! shows the player's check-in code and the link to check in on the phone (`checkin.rs`).

use crate::app::AppState;
use crate::auth::limit;
use crate::auth::session::{cookie, now};
use crate::auth::token::{ct_eq, random_token};
use crate::desk::event_id;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::public::Layout;
use crate::write;
use arbiter_director::api::entries as api;
use arbiter_director::command::registration::{Entered, RegistrationCommand};
use arbiter_director::command::Outcome;
use arbiter_store::AccountStore;
use askama::Template;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

pub const ENTRY_CSRF_COOKIE: &str = "arbiter_entry";
/// Largest form body accepted (bytes).
pub const MAX_BODY: usize = 4096;
/// Longest field accepted (characters).
pub const MAX_FIELD: usize = 100;
/// Submissions per client address within the window.
pub const MAX_PER_ADDR: u32 = 10;
/// Submissions to one event per minute, all addresses together.
pub const MAX_PER_MINUTE: u32 = 30;
/// The actor of `entry_submitted`.
pub const ACTOR: &str = arbiter_director::log_view::ONLINE;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/e/{ev}/entry", get(form).post(submit))
        .route("/e/{ev}/entry/status/{token}", get(status))
}

/// The entry page: the form, the answer to an accepted entry, or why entries are closed
/// (`templates/online/entry.html`).
#[derive(Template)]
#[template(path = "online/entry.html")]
struct EntryPage {
    layout: Layout,
    ok: Option<String>,
    err: Option<String>,
    event_name: String,
    summary: Option<SummaryView>,
    /// Why entries are closed (deadline passed, event closed or under way).
    closed: Option<String>,
    form: Option<FormView>,
}

/// What an accepted entry's answer shows.
struct SummaryView {
    name: String,
    section: String,
    masked: String,
    bring: Vec<String>,
    link: String,
}

/// The form, filled with what was typed.
struct FormView {
    action: String,
    token: String,
    sections: Vec<SectionOption>,
    name: String,
    sex: String,
    id_number: String,
    unit: String,
    phone: String,
    max: usize,
    /// K5: the 社保号 typed, when the regulation asks for it.
    social_security: Option<String>,
    offers: Vec<OfferView>,
}

struct SectionOption {
    id: String,
    name: String,
    selected: bool,
}

/// A section's conditions and documents to tick.
struct OfferView {
    id: String,
    name: String,
    conditions: Vec<Tick>,
    documents: Vec<Tick>,
}

/// A box: its field name after `flag.` / `ev.` (`section.name`), its text, ticked or not.
struct Tick {
    key: String,
    text: String,
    checked: bool,
}

/// The status page of an entry (`templates/online/status.html`).
#[derive(Template)]
#[template(path = "online/status.html")]
struct StatusPage {
    layout: Layout,
    ok: Option<String>,
    err: Option<String>,
    event_name: String,
    submission: u32,
    section: String,
    masked: String,
    badge: &'static str,
    reason: Option<String>,
    pending: bool,
    /// Once the entry is in, where the regulation sets a check-in: the player's check-in
    /// code and the address of the check-in page with it (`checkin.rs`).
    check_in: Option<CheckInView>,
}

/// The check-in on an entry's status page.
struct CheckInView {
    code: String,
    url: String,
    done: bool,
}

/// What the form shows again after a mistake: everything typed, to this player's own form
/// response only (`no-store`), never logged.
#[derive(Default)]
struct Kept {
    section: String,
    name: String,
    sex: String,
    unit: String,
    id_number: String,
    phone: String,
    social_security: String,
    /// `section.flag` of the conditions ticked.
    flags: Vec<String>,
    /// `section.document` of the documents ticked.
    evidence: Vec<String>,
}

/// A submission accepted: what the answer page shows.
struct Accepted {
    submission: u32,
    token: String,
}

async fn page(
    app: &AppState,
    l: Lang,
    ev: &str,
    status: StatusCode,
    outcome: Option<Result<Accepted, String>>,
    kept: Kept,
) -> Result<Response, WebError> {
    let snap = app.snapshot(ev).await?;
    let st = &snap.state;
    let here = format!("/e/{ev}/entry");
    let token = random_token();
    let reg = arbiter_director::regulation_of(st).map_err(|e| WebError::Internal(e.to_string()))?;
    let (_, now) = write::now_at()?;
    // Closed (deadline passed, event closed or under way): said before anyone types.
    let closed = api::online_open(st, now).err();
    let done = matches!(outcome, Some(Ok(_)));
    let summary = match &outcome {
        Some(Ok(a)) => Some(summary(st, &reg, ev, a, &kept)),
        _ => None,
    };
    let show_form = !done && closed.is_none();
    let form = show_form.then(|| FormView {
        action: here.clone(),
        token: token.clone(),
        sections: st
            .sections
            .values()
            .map(|s| SectionOption {
                id: s.id.clone(),
                name: s.name.clone(),
                selected: s.id == kept.section,
            })
            .collect(),
        name: kept.name.clone(),
        sex: kept.sex.clone(),
        id_number: kept.id_number.clone(),
        unit: kept.unit.clone(),
        phone: kept.phone.clone(),
        max: MAX_FIELD,
        social_security: reg
            .registration
            .fields
            .contains(&arbiter_regulation::EntryField::SocialSecurityNumber)
            .then(|| kept.social_security.clone()),
        offers: offers(st, &reg, &kept),
    });
    let (ok, err) = match outcome {
        Some(Ok(a)) => (
            Some(format!(
                "{} #{} {}",
                l.t("报名已提交, 编号", "Entry submitted, number"),
                a.submission,
                l.t(
                    "等待报名处审核 (pending the desk's approval)",
                    "— pending the desk's approval"
                )
            )),
            None,
        ),
        Some(Err(m)) => (None, Some(m)),
        None => (None, None),
    };
    let t = EntryPage {
        layout: Layout::plain(
            l,
            format!("{} · {}", l.t("网上报名", "Online entry"), st.name()),
            here,
        ),
        ok,
        err,
        event_name: st.name().to_string(),
        summary,
        closed: closed.as_ref().map(crate::refusal::words),
        form,
    };
    let body = t.render().map_err(|e| WebError::Internal(e.to_string()))?;
    let mut resp = (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response();
    let h = resp.headers_mut();
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if show_form {
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
    social_security: String,
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
    let fields: std::collections::HashMap<String, String> =
        serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    let f: OnlineForm = match serde_urlencoded::from_bytes::<OnlineForm>(&bytes) {
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
    let ticked = |prefix: &str| -> Vec<String> {
        let mut v: Vec<String> = fields
            .keys()
            .filter_map(|k| k.strip_prefix(prefix))
            .filter(|k| k.chars().count() <= MAX_FIELD)
            .map(str::to_string)
            .collect();
        v.sort();
        v
    };
    let kept = Kept {
        section: f.section.clone(),
        name: f.name.clone(),
        sex: f.sex.clone(),
        unit: f.unit.clone(),
        id_number: f.id_number.clone(),
        phone: f.phone.clone(),
        social_security: f.social_security.clone(),
        flags: ticked("flag."),
        evidence: ticked("ev."),
    };
    if cookie_token.is_empty() || !ct_eq(&cookie_token, &f.csrf) {
        let msg = "表单已失效或来源不明, 请刷新页面后重试 (missing or wrong CSRF token; reload the page and try again)".to_string();
        return page(&app, l, &ev, StatusCode::FORBIDDEN, Some(Err(msg)), kept).await;
    }
    let too_long = [
        &f.section,
        &f.name,
        &f.sex,
        &f.id_number,
        &f.phone,
        &f.unit,
        &f.social_security,
    ]
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
    // Every submission from an address (an IPv6 client by its /64) counts, accepted or not,
    // and so does every submission to the event within its minute, from any address.
    let key = format!("entry:{}", limit::client_net(&addr));
    let now = now();
    let all = format!("entry-all:{ev}@{}", now.div_euclid(60));
    let wait = app
        .with_store(move |st| {
            let mut wait = limit::wait(st.failures(&key, now, limit::WINDOW)?, MAX_PER_ADDR, now);
            let this_minute = st.failures(&all, now, 60)?.map_or(0, |f| f.count);
            if wait.is_none() && this_minute >= MAX_PER_MINUTE {
                wait = Some(60 - now.rem_euclid(60));
            }
            if wait.is_none() {
                st.purge_failures(now, limit::WINDOW)?;
                st.record_failure(&key, now, limit::WINDOW)?;
                st.record_failure(&all, now, 60)?;
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
    // The conditions and documents ticked for the section chosen (`section.name`).
    let of_section = |v: &[String]| -> Vec<String> {
        let p = format!("{}.", f.section.trim());
        v.iter()
            .filter_map(|x| x.strip_prefix(&p))
            .map(str::to_string)
            .collect()
    };
    let mut form = api::online_form(
        f.section.trim(),
        &f.name,
        sex,
        Some(&f.id_number),
        Some(&f.phone),
        Some(&f.unit),
    );
    form.social_security = Some(f.social_security.trim().to_string()).filter(|s| !s.is_empty());
    form.flags = of_section(&kept.flags);
    form.evidence = of_section(&kept.evidence);
    let status_token = random_token();
    let key = crate::auth::token::token_hash(&status_token);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &write::OnlineForm,
        RegistrationCommand::Submit {
            form,
            status_key: Some(key),
        },
    )
    .await?;
    match done {
        Ok(a) => {
            let n = match &a.outcome {
                Outcome::Entries(e) => e
                    .iter()
                    .find_map(|x| match x {
                        Entered::Submitted { submission, .. } => Some(*submission),
                        _ => None,
                    })
                    .unwrap_or(0),
                _ => 0,
            };
            let a = Accepted {
                submission: n,
                token: status_token,
            };
            page(&app, l, &ev, StatusCode::OK, Some(Ok(a)), kept).await
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

/// The section's conditions and documents, for every section that has any (each headed by
/// the section's name; only the chosen section's are read).
fn offers(
    st: &arbiter_core::EventState,
    reg: &arbiter_regulation::Regulation,
    kept: &Kept,
) -> Vec<OfferView> {
    let mut o = Vec::new();
    for s in st.sections.values() {
        let Some(sec) = reg.section(&s.id) else {
            continue;
        };
        let offer = api::section_offer(sec);
        let docs = offer.all_evidence();
        if offer.conditions.is_empty() && docs.is_empty() {
            continue;
        }
        let tick = |name: &str, text: &str, ticked: &[String]| {
            let key = format!("{}.{name}", s.id);
            Tick {
                checked: ticked.contains(&key),
                key,
                text: text.to_string(),
            }
        };
        o.push(OfferView {
            id: s.id.clone(),
            name: s.name.clone(),
            conditions: offer
                .conditions
                .iter()
                .map(|(flag, zh)| tick(flag, zh, &kept.flags))
                .collect(),
            documents: docs
                .iter()
                .map(|d| tick(d.name(), d.zh(), &kept.evidence))
                .collect(),
        });
    }
    o
}

/// What to bring, by the regulation: the fee, the documents, the check-in day.
/// What to bring to the desk, in words (the director says what: [`api::to_bring`]).
fn to_bring(reg: &arbiter_regulation::Regulation, section: &str) -> Vec<String> {
    api::to_bring(reg, section)
        .into_iter()
        .map(|b| match b {
            api::ToBring::Fee { fen } => format!("报名费 {}", api::yuan(fen)),
            api::ToBring::Evidence(d) => format!("{} (须出示)", d.zh()),
            api::ToBring::OneOf(any) => {
                let one: Vec<&str> = any.iter().map(|d| d.zh()).collect();
                format!("以下证明之一: {}", one.join("、"))
            }
            api::ToBring::CheckIn {
                date,
                from: Some(t),
            } => format!("报到日期 {date} {}起", t.format("%H:%M")),
            api::ToBring::CheckIn { date, from: None } => format!("报到日期 {date}"),
        })
        .collect()
}

/// The answer to an accepted entry: who (masked ID), which section, what to bring and the
/// link to the entry's status.
fn summary(
    st: &arbiter_core::EventState,
    reg: &arbiter_regulation::Regulation,
    ev: &str,
    a: &Accepted,
    kept: &Kept,
) -> SummaryView {
    let masked = arbiter_types::IdNumber::parse(&kept.id_number)
        .map(|i| i.masked())
        .unwrap_or_default();
    let section = kept.section.trim();
    let sec_name = st.section(section).map_or(section, |s| s.name.as_str());
    SummaryView {
        name: kept.name.trim().to_string(),
        section: sec_name.to_string(),
        masked,
        bring: to_bring(reg, section),
        link: format!("/e/{ev}/entry/status/{}", a.token),
    }
}

/// `GET /e/{ev}/entry/status/{token}`: the status of the entry whose token this is — 待审核,
/// 已通过 or 已拒绝 with the reason — with the section, the entry's number and the masked ID
/// number; nothing else of the person. An unknown token is a 404 like any other.
pub async fn status(
    State(app): State<AppState>,
    l: Lang,
    Path((ev, token)): Path<(String, String)>,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&ev).await?;
    let st = &snap.state;
    let key = crate::auth::token::token_hash(&token);
    let Some(sub) = st
        .submissions
        .values()
        .find(|s| s.status_key.as_deref().is_some_and(|k| ct_eq(k, &key)))
    else {
        return Err(WebError::NotFound("报名状态 (entry status)".to_string()));
    };
    let sec_name = st
        .section(&sub.section)
        .map_or(sub.section.as_str(), |s| s.name.as_str());
    let (badge, reason) = match &sub.decision {
        None => (l.t("待审核", "pending"), None),
        Some(arbiter_core::Decision::Approved(_)) => (l.t("已通过", "approved"), None),
        Some(arbiter_core::Decision::Refused(r)) => (l.t("已拒绝", "refused"), Some(r.as_str())),
    };
    let player = match &sub.decision {
        Some(arbiter_core::Decision::Approved(p)) => st.player(*p).map(|r| (*p, r)),
        _ => None,
    };
    let check_in = match player {
        Some((p, rec))
            if rec.withdrawn.is_none()
                && arbiter_director::claim::check_in_by_phone(st).is_ok() =>
        {
            let code = crate::checkin::player_code(&app, &ev, p).await?;
            Some(CheckInView {
                url: format!("/e/{ev}/checkin?c={code}"),
                code,
                done: rec.checked_in,
            })
        }
        _ => None,
    };
    let t = StatusPage {
        layout: Layout::plain(
            l,
            format!("{} · {}", l.t("报名状态", "Entry status"), st.name()),
            format!("/e/{ev}/entry"),
        ),
        ok: None,
        err: None,
        event_name: st.name().to_string(),
        submission: sub.submission,
        section: sec_name.to_string(),
        masked: sub
            .person
            .id_number
            .as_ref()
            .map(|i| i.masked())
            .unwrap_or_default(),
        badge,
        reason: reason.map(str::to_string),
        pending: sub.decision.is_none(),
        check_in,
    };
    let body = t.render().map_err(|e| WebError::Internal(e.to_string()))?;
    let mut resp = (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response();
    let h = resp.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    );
    Ok(resp)
}
