//! Check-in by phone (手机签到, issue 47): `GET/POST /e/{ev}/checkin`, public, no login.
//!
//! Where the regulation sets a check-in (`registration.check_in`,
//! `arbiter_director::claim::check_in_by_phone`), a player whose entry is in finds his
//! check-in code and this page's address on his entry's status page
//! (`/e/{ev}/entry/status/{token}`, `online.rs`). The code is his alone
//! (`arbiter_director::claim::check_in_code`, under the event's secret the result codes are
//! made under, with a label of its own). The page shows his name, unit and section — never
//! a person's data — and, when the regulation asks for a pledge at check-in (T7), a box to
//! tick; the button is the director's `RegistrationCommand::CheckIn`, the command the desk's
//! check-in gives, recorded as the players' phones (`log_view::PHONE`). The director decides
//! (the pledge unticked, already checked in, withdrawn).
//!
//! Safeguards are the result page's (`claim.rs`): wrong codes count against the client's
//! address together with wrong result codes, and past [`crate::claim::MAX_WRONG`] the
//! address waits; the body is at most [`crate::claim::MAX_BODY`] bytes; `Referrer-Policy:
//! no-referrer` and `no-cache`.

use crate::app::AppState;
use crate::claim::{count_wrong, held, phone_page, secret, PhoneClaim, MAX_BODY};
use crate::desk::event_id;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::public::Layout;
use crate::write;
use arbiter_core::{EventState, PlayerId};
use arbiter_director::api::entries::pledge_required;
use arbiter_director::claim::{self, ClaimProblem};
use arbiter_director::command::registration::RegistrationCommand;
use arbiter_director::Refusal;
use askama::Template;
use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

pub fn routes() -> Router<AppState> {
    Router::new().route("/e/{ev}/checkin", get(show).post(post))
}

/// The page (`templates/checkin.html`): the code form, or the player the code names.
#[derive(Template)]
#[template(path = "checkin.html")]
struct CheckInPage {
    layout: Layout,
    ok: Option<String>,
    err: Option<String>,
    event_name: String,
    action: String,
    code: String,
    player: Option<PlayerView>,
    /// The regulation sets a check-in (otherwise no code form).
    open: bool,
}

/// The player a code names, as he sees himself: name, unit, section.
struct PlayerView {
    name: String,
    unit: String,
    section_name: String,
    checked_in: bool,
    /// The pledge the regulation asks to sign at check-in (「个人安全承诺书」), if any.
    pledge: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CodeQuery {
    c: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CheckInForm {
    code: String,
    /// The pledge's box ticked.
    pledge: String,
    /// Non-empty: check in; empty: only look the code up.
    checkin: String,
}

fn player_view(st: &EventState, p: PlayerId) -> Option<PlayerView> {
    let rec = st.player(p)?;
    Some(PlayerView {
        name: rec.person.name.clone(),
        unit: rec.person.unit.clone().unwrap_or_default(),
        section_name: st
            .section(&rec.section)
            .map_or_else(|| rec.section.clone(), |s| s.name.clone()),
        checked_in: rec.checked_in,
        pledge: pledge_required(st),
    })
}

/// The check-in code of `player` in event `ev`, as its entry's status page shows it.
pub async fn player_code(app: &AppState, ev: &str, player: PlayerId) -> Result<String, WebError> {
    let s = secret(app, ev).await?;
    Ok(claim::check_in_code(s.as_bytes(), player))
}

#[allow(clippy::too_many_arguments)]
async fn render(
    app: &AppState,
    l: Lang,
    ev: &str,
    status: StatusCode,
    code: &str,
    player: Option<PlayerId>,
    ok: Option<String>,
    err: Option<String>,
) -> Result<Response, WebError> {
    let snap = app.snapshot(ev).await?;
    let st = &snap.state;
    let here = format!("/e/{ev}/checkin");
    let page = CheckInPage {
        layout: Layout::plain(
            l,
            format!("{} · {}", l.t("手机签到", "Check in"), st.name()),
            here.clone(),
        ),
        ok,
        err,
        event_name: st.name().to_string(),
        action: here,
        code: player.map(|_| code.to_string()).unwrap_or_default(),
        player: player.and_then(|p| player_view(st, p)),
        open: claim::check_in_by_phone(st).is_ok(),
    };
    let body = page
        .render()
        .map_err(|e| WebError::Internal(e.to_string()))?;
    Ok(phone_page(status, body))
}

/// A check-in code tried from `addr`: the player it names, or the refusal (no check-in in
/// the regulation, the address's wait, or a wrong code, which counts).
async fn lookup(
    app: &AppState,
    ev: &str,
    addr: std::net::IpAddr,
    code: &str,
) -> Result<Result<PlayerId, (StatusCode, String)>, WebError> {
    let snap = app.snapshot(ev).await?;
    if let Err(p) = claim::check_in_by_phone(&snap.state) {
        return Ok(Err((StatusCode::FORBIDDEN, Refusal::Claim(p).to_string())));
    }
    if let Some(wait) = held(app, addr).await? {
        return Ok(Err(wait));
    }
    let secret = secret(app, ev).await?;
    match claim::player_of_check_in_code(&snap.state, secret.as_bytes(), code) {
        Some(p) => Ok(Ok(p)),
        None => {
            count_wrong(app, addr).await?;
            let words = Refusal::Claim(ClaimProblem::UnknownCheckInCode).to_string();
            Ok(Err((StatusCode::FORBIDDEN, words)))
        }
    }
}

/// `GET /e/{ev}/checkin[?c=CODE]`: the code form, or the player the code names.
async fn show(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    Query(q): Query<CodeQuery>,
    client: crate::net::ClientInfo,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&ev).await?;
    if let Err(p) = claim::check_in_by_phone(&snap.state) {
        let m = Refusal::Claim(p).to_string();
        return render(&app, l, &ev, StatusCode::FORBIDDEN, "", None, None, Some(m)).await;
    }
    if q.c.trim().is_empty() {
        return render(&app, l, &ev, StatusCode::OK, "", None, None, None).await;
    }
    match lookup(&app, &ev, client.addr, &q.c).await? {
        Ok(p) => {
            let code = claim::normalize(&q.c).unwrap_or_default();
            render(&app, l, &ev, StatusCode::OK, &code, Some(p), None, None).await
        }
        Err((status, m)) => render(&app, l, &ev, status, "", None, None, Some(m)).await,
    }
}

/// `POST /e/{ev}/checkin`: look a code up (no `checkin`), or check in with it.
async fn post(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    client: crate::net::ClientInfo,
    req: Request,
) -> Result<Response, WebError> {
    app.snapshot(&ev).await?;
    let Ok(bytes) = axum::body::to_bytes(req.into_body(), MAX_BODY).await else {
        let m = format!("表单过大, 至多 {MAX_BODY} 字节 (the form is too large)");
        return render(
            &app,
            l,
            &ev,
            StatusCode::PAYLOAD_TOO_LARGE,
            "",
            None,
            None,
            Some(m),
        )
        .await;
    };
    let Ok(f) = serde_urlencoded::from_bytes::<CheckInForm>(&bytes) else {
        let m = "表单无法读取 (malformed form)".to_string();
        return render(
            &app,
            l,
            &ev,
            StatusCode::BAD_REQUEST,
            "",
            None,
            None,
            Some(m),
        )
        .await;
    };
    let player = match lookup(&app, &ev, client.addr, &f.code).await? {
        Ok(p) => p,
        Err((status, m)) => return render(&app, l, &ev, status, "", None, None, Some(m)).await,
    };
    let code = claim::normalize(&f.code).unwrap_or_default();
    if f.checkin.trim().is_empty() {
        return render(
            &app,
            l,
            &ev,
            StatusCode::OK,
            &code,
            Some(player),
            None,
            None,
        )
        .await;
    }
    let done = write::apply_raw(
        &app,
        &event_id(&ev),
        &PhoneClaim,
        RegistrationCommand::CheckIn {
            player,
            pledge: Some(!f.pledge.trim().is_empty()),
        },
    )
    .await?;
    let (status, ok, err) = match done {
        Ok(_) => (
            StatusCode::OK,
            Some(
                l.t(
                    "签到成功, 请按时到赛场参赛。",
                    "You are checked in: be at the venue on time.",
                )
                .to_string(),
            ),
            None,
        ),
        Err(e) => (StatusCode::CONFLICT, None, Some(e.to_string())),
    };
    render(&app, l, &ev, status, &code, Some(player), ok, err).await
}
