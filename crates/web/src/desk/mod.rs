//! The arbiters' desk (裁判台): the write side of `arbiter serve`, behind a login. Chinese
//! by default, keyboard-friendly, every form carries the session's CSRF token.
//!
//! - [`events`]: the events, creating one from a bundled regulation or a pasted TOML file.
//! - [`import`]: a unit's entry form (.xlsx/.xls/CSV) uploaded: checked row by row, then
//!   imported through the same operation as `arbiter player import`.
//! - [`entries`]: the registration list — add (late-entry override by the chief arbiter),
//!   refuse, fees, check-in; approve or refuse the online form's pending entries.
//! - [`player`]: one entry — edit it with a reason, withdraw, excuse from a round (请假) or
//!   record an absence without leave (无故缺席, S7).
//! - [`rounds`]: per round — pair (with the engine's explanation and the checker's warnings
//!   for fixed pairs and swaps), publish, undo; the fast result-entry grid; confirm; the
//!   chief arbiter's corrections.
//! - [`games`]: beside the results page — a flagged short draw or missing record confirmed
//!   or dismissed, a refusal to record (T6), who signed a slip, a protest and its deposit (S11).
//! - [`settings`]: the event's settings (name, dates, venue, rounds); after round 1 the
//!   chief arbiter's alone.
//! - [`teams`]: the teams with leader, coach and roster; enter a team; add, remove or
//!   replace a member (after the team's first game the chief arbiter's alone).
//! - [`awards`]: the organiser's awards of the regulation (S10) and who has them; given or
//!   taken back by the organiser or the chief arbiter.
//! - [`matches`]: a team-match round — the match sheet, each team's line-up form, a team that
//!   does not appear.
//! - [`knockout`]: a section's knockout bracket with its games; results of the games due.
//! - [`log`]: the event log — who did what, when.
//! - [`accounts`]: the event's accounts — the chief arbiter creates, disables, enables and
//!   resets them (one-time passwords shown once); everyone changes his own password.
//!
//! Every action goes through [`crate::write::apply`] into an operation of
//! `arbiter_director::api`; handlers only parse the form and show the answer.

pub mod accounts;
pub mod awards;
pub mod cash;
pub mod entries;
pub mod events;
pub mod games;
pub mod import;
pub mod knockout;
pub mod log;
pub mod matches;
pub mod player;
pub mod print;
pub mod rounds;
pub mod settings;
pub mod teams;

use crate::app::AppState;
use crate::auth::Authed;
use crate::cache::Snapshot;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::public::{views, Layout};
use arbiter_core::SectionRecord;
use askama::Template;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::sync::Arc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/desk", get(events::list))
        .route("/desk/events", post(events::create))
        .route("/desk/assets/desk.js", get(js))
        .route("/desk/assets/desk.css", get(css))
        .route("/desk/e/{ev}", get(events::show))
        .route("/desk/e/{ev}/log", get(log::show))
        .route(
            "/desk/e/{ev}/accounts",
            get(accounts::show).post(accounts::create),
        )
        .route("/desk/e/{ev}/accounts/disable", post(accounts::disable))
        .route("/desk/e/{ev}/accounts/enable", post(accounts::enable))
        .route("/desk/e/{ev}/accounts/reset", post(accounts::reset))
        .route(
            "/desk/password",
            get(accounts::password_form).post(accounts::change_password),
        )
        .route("/desk/e/{ev}/print", get(print::show))
        .route("/desk/e/{ev}/print/officials", post(print::officials))
        .route(
            "/desk/e/{ev}/import",
            get(import::show)
                .post(import::upload)
                .layer(axum::extract::DefaultBodyLimit::max(import::MAX_UPLOAD)),
        )
        .route("/desk/e/{ev}/export.xlsx", get(print::xlsx))
        .route("/desk/e/{ev}/entry-form.xlsx", get(print::entry_form))
        .route("/desk/e/{ev}/csv/{file}", get(print::csv))
        .route("/desk/e/{ev}/teams", get(teams::show).post(teams::enter))
        .route("/desk/e/{ev}/awards", get(awards::show).post(awards::give))
        .route("/desk/e/{ev}/teams/roster", post(teams::roster))
        .route("/desk/e/{ev}/teams/withdraw", post(teams::withdraw))
        .route(
            "/desk/e/{ev}/settings",
            get(settings::show).post(settings::change),
        )
        .route(
            "/desk/e/{ev}/s/{sec}/entries",
            get(entries::list).post(entries::add),
        )
        .route("/desk/e/{ev}/s/{sec}/refuse", post(entries::refuse))
        .route(
            "/desk/e/{ev}/s/{sec}/refusal/{seq}/withdraw",
            post(entries::withdraw_refusal),
        )
        .route("/desk/e/{ev}/s/{sec}/merge", post(entries::merge))
        .route("/desk/e/{ev}/p/{pid}/fee", post(entries::fee))
        .route("/desk/e/{ev}/p/{pid}/checkin", post(entries::checkin))
        .route("/desk/e/{ev}/p/{pid}/fee/cancel", post(entries::cancel_fee))
        .route("/desk/e/{ev}/p/{pid}/refund", post(entries::refund))
        .route("/desk/e/{ev}/p/{pid}/condition", post(player::condition))
        .route("/desk/e/{ev}/cash", get(cash::show).post(cash::refund_due))
        .route(
            "/desk/e/{ev}/p/{pid}/checkin/cancel",
            post(entries::cancel_check_in),
        )
        .route("/desk/e/{ev}/s/{sec}/many", post(entries::many))
        .route("/desk/e/{ev}/sub/{sub}/approve", post(entries::approve))
        .route(
            "/desk/e/{ev}/sub/{sub}/refuse",
            post(entries::refuse_submission),
        )
        .route("/desk/e/{ev}/p/{pid}", get(player::show))
        .route("/desk/e/{ev}/p/{pid}/edit", post(player::edit))
        .route("/desk/e/{ev}/p/{pid}/withdraw", post(player::withdraw))
        .route("/desk/e/{ev}/p/{pid}/section", post(player::change_section))
        .route("/desk/e/{ev}/p/{pid}/reinstate", post(player::reinstate))
        .route("/desk/e/{ev}/p/{pid}/disqualify", post(player::disqualify))
        .route("/desk/e/{ev}/p/{pid}/absent", post(player::absent))
        .route("/desk/e/{ev}/s/{sec}/round", get(rounds::show))
        .route("/desk/e/{ev}/s/{sec}/pair", post(rounds::pair))
        .route("/desk/e/{ev}/close", post(events::close))
        .route("/desk/e/{ev}/reopen", post(events::reopen))
        .route("/desk/e/{ev}/s/{sec}/publish", post(rounds::publish))
        .route("/desk/e/{ev}/s/{sec}/complete", post(rounds::complete))
        .route("/desk/e/{ev}/s/{sec}/undo", post(rounds::undo))
        .route("/desk/e/{ev}/s/{sec}/swap", post(rounds::swap))
        .route(
            "/desk/e/{ev}/s/{sec}/results",
            get(rounds::grid).post(rounds::enter),
        )
        .route("/desk/e/{ev}/s/{sec}/results.json", get(rounds::grid_json))
        .route("/desk/e/{ev}/s/{sec}/confirm", post(rounds::confirm))
        .route("/desk/e/{ev}/s/{sec}/lineup", post(matches::lineup))
        .route("/desk/e/{ev}/s/{sec}/team-absent", post(matches::absent))
        .route("/desk/e/{ev}/s/{sec}/confirm-match", post(matches::confirm))
        .route(
            "/desk/e/{ev}/s/{sec}/knockout",
            get(knockout::show).post(knockout::enter),
        )
        .route("/desk/e/{ev}/s/{sec}/correct", post(rounds::correct))
        .route("/desk/e/{ev}/s/{sec}/record", post(rounds::record))
        .route("/desk/e/{ev}/s/{sec}/flag", post(games::flag))
        .route("/desk/e/{ev}/s/{sec}/flags", post(games::flags))
        .route(
            "/desk/e/{ev}/s/{sec}/refuse-record",
            post(games::refuse_record),
        )
        .route("/desk/e/{ev}/s/{sec}/sign", post(games::sign))
        .route("/desk/e/{ev}/s/{sec}/protest", post(games::protest))
}

/// Every desk route, with its method, for the tests that check each one refuses a request
/// without a session, with the wrong role, or without the CSRF token. `{ev}`, `{sec}` and
/// `{pid}` (and `{sub}`, an online submission; `{file}`, a CSV export) are filled in by the caller; the roles are those admitted
/// (a page that is one of the director's actions: the action's roles, [`Action::allowed`]).
pub const ROUTES: &[(&str, &str, &[arbiter_store::Role])] = {
    use arbiter_director::permission::Action;
    use arbiter_store::Role::*;
    const ALL: &[arbiter_store::Role] = &[Organiser, ChiefArbiter, Arbiter, Desk];
    &[
        ("GET", "/desk", ALL),
        ("POST", "/desk/events", Action::CreateEvent.allowed()),
        ("GET", "/desk/e/{ev}", ALL),
        ("GET", "/desk/e/{ev}/log", ALL),
        (
            "GET",
            "/desk/e/{ev}/accounts",
            Action::ManageAccounts.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/accounts",
            Action::ManageAccounts.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/accounts/disable",
            Action::ManageAccounts.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/accounts/enable",
            Action::ManageAccounts.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/accounts/reset",
            Action::ManageAccounts.allowed(),
        ),
        ("GET", "/desk/password", ALL),
        ("POST", "/desk/password", ALL),
        ("GET", "/desk/e/{ev}/print", ALL),
        (
            "POST",
            "/desk/e/{ev}/print/officials",
            Action::AppointOfficials.allowed(),
        ),
        ("GET", "/desk/e/{ev}/import", ALL),
        (
            "POST",
            "/desk/e/{ev}/import",
            Action::ImportRoster.allowed(),
        ),
        ("GET", "/desk/e/{ev}/export.xlsx", ALL),
        ("GET", "/desk/e/{ev}/entry-form.xlsx", ALL),
        ("GET", "/desk/e/{ev}/csv/{file}", ALL),
        ("GET", "/desk/e/{ev}/teams", ALL),
        ("POST", "/desk/e/{ev}/teams", Action::EnterTeam.allowed()),
        (
            "POST",
            "/desk/e/{ev}/teams/roster",
            Action::ChangeRoster.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/teams/withdraw",
            Action::Withdraw.allowed(),
        ),
        ("GET", "/desk/e/{ev}/awards", ALL),
        (
            "POST",
            "/desk/e/{ev}/awards",
            Action::GiveSpecialAward.allowed(),
        ),
        ("GET", "/desk/e/{ev}/settings", ALL),
        (
            "POST",
            "/desk/e/{ev}/settings",
            Action::ChangeSettings.allowed(),
        ),
        ("GET", "/desk/e/{ev}/s/{sec}/entries", ALL),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/entries",
            Action::Register.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/refuse",
            Action::RefuseEntry.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/refusal/{seq}/withdraw",
            Action::WithdrawRefusal.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/merge",
            Action::MergeSections.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/fee",
            Action::TakePayment.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/checkin",
            Action::CheckIn.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/fee/cancel",
            Action::CancelFee.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/refund",
            Action::Refund.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/condition",
            Action::MarkRefundCondition.allowed(),
        ),
        ("GET", "/desk/e/{ev}/cash", Action::RefundDue.allowed()),
        ("POST", "/desk/e/{ev}/cash", Action::RefundDue.allowed()),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/checkin/cancel",
            Action::CheckIn.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/many",
            Action::CheckIn.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/sub/{sub}/approve",
            Action::DecideSubmission.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/sub/{sub}/refuse",
            Action::DecideSubmission.allowed(),
        ),
        ("GET", "/desk/e/{ev}/p/{pid}", ALL),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/edit",
            Action::EditEntry.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/withdraw",
            Action::Withdraw.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/section",
            Action::EditEntry.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/reinstate",
            Action::Reinstate.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/disqualify",
            Action::Disqualify.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/p/{pid}/absent",
            Action::RecordAbsence.allowed(),
        ),
        ("POST", "/desk/e/{ev}/close", Action::CloseEvent.allowed()),
        ("POST", "/desk/e/{ev}/reopen", Action::Reopen.allowed()),
        ("GET", "/desk/e/{ev}/s/{sec}/round", ALL),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/pair",
            Action::PairRound.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/publish",
            Action::PublishRound.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/undo",
            Action::UndoRound.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/complete",
            Action::CompleteRound.allowed(),
        ),
        ("GET", "/desk/e/{ev}/s/{sec}/results", ALL),
        ("GET", "/desk/e/{ev}/s/{sec}/results.json", ALL),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/results",
            Action::EnterResult.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/confirm",
            Action::ConfirmResults.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/lineup",
            Action::GiveLineup.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/team-absent",
            Action::EnterResult.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/confirm-match",
            Action::ConfirmMatch.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/correct",
            Action::CorrectResult.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/record",
            Action::RecordGame.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/flag",
            Action::DecideFlag.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/flags",
            Action::DecideFlag.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/refuse-record",
            Action::RefuseRecord.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/sign",
            Action::RecordSignatures.allowed(),
        ),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/protest",
            Action::DecideProtest.allowed(),
        ),
        ("GET", "/desk/e/{ev}/s/{sec}/knockout", ALL),
        (
            "POST",
            "/desk/e/{ev}/s/{sec}/knockout",
            Action::EnterResult.allowed(),
        ),
    ]
};

const DESK_JS: &str = include_str!("../../assets/desk/desk.js");
const DESK_CSS: &str = include_str!("../../assets/desk/desk.css");

async fn js() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        DESK_JS,
    )
        .into_response()
}

async fn css() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        DESK_CSS,
    )
        .into_response()
}

/// A message carried to the next page after a form (`?ok=CODE` / `?err=CODE`). The link
/// holds only a code the server gave out ([`remember`]): a crafted `?ok=` link cannot put
/// words of its own on an arbiter's desk, and a long message makes no long `Location`.
#[derive(Deserialize, Default, Clone)]
pub struct Flash {
    pub ok: Option<String>,
    pub err: Option<String>,
}

impl Flash {
    /// A success message shown on the page rendered now.
    pub fn ok_now(msg: impl Into<String>) -> Flash {
        Flash {
            ok: Some(remember(msg.into())),
            err: None,
        }
    }
}

/// Messages given out lately, by code (the oldest forgotten past this many).
const FLASHES_KEPT: usize = 4096;

static FLASHES: std::sync::Mutex<std::collections::VecDeque<(String, String)>> =
    std::sync::Mutex::new(std::collections::VecDeque::new());

/// Keep `msg` for the next page; its code.
pub fn remember(msg: String) -> String {
    let code = crate::auth::token::random_token()[..20].to_string();
    let mut f = FLASHES.lock().unwrap_or_else(|p| p.into_inner());
    if f.len() >= FLASHES_KEPT {
        f.pop_front();
    }
    f.push_back((code.clone(), msg));
    code
}

/// The message of a code given out by [`remember`] (none for any other text).
pub fn flash_message(code: &str) -> Option<String> {
    let f = FLASHES.lock().unwrap_or_else(|p| p.into_inner());
    f.iter()
        .rev()
        .find(|(c, _)| c == code)
        .map(|(_, m)| m.clone())
}

#[derive(Template)]
#[template(path = "desk.html")]
struct DeskPage<'a> {
    layout: Layout,
    who: &'a str,
    role: &'static str,
    csrf: &'a str,
    crumbs: Vec<(String, String)>,
    ok: Option<String>,
    err: Option<String>,
    /// The event is closed (闭幕): every page of it says so.
    closed: bool,
    /// The page's own HTML, rendered from its template (every outside value escaped there).
    content: String,
}

/// A desk page: the shared layout with the account bar, crumbs, the flash and `content`.
pub struct Desk<'a> {
    pub l: Lang,
    pub auth: &'a Authed,
    pub title: String,
    pub path: String,
    pub crumbs: Vec<(String, String)>,
    pub ok: Option<String>,
    pub err: Option<String>,
    pub closed: bool,
}

impl<'a> Desk<'a> {
    pub fn new(
        l: Lang,
        auth: &'a Authed,
        title: impl Into<String>,
        path: impl Into<String>,
    ) -> Self {
        Desk {
            l,
            auth,
            title: title.into(),
            path: path.into(),
            crumbs: vec![("/desk".into(), l.t("裁判台", "Desk").into())],
            ok: None,
            err: None,
            closed: false,
        }
    }

    /// A page of event `ev`: its crumb, and the closed banner when the event is closed.
    pub fn event(mut self, ev: &str, st: &arbiter_core::EventState) -> Self {
        self.crumbs
            .push((format!("/desk/e/{ev}"), st.name().to_string()));
        self.closed = st.closed;
        self
    }

    /// Say on the page that the event is closed (what [`Desk::event`] does with the state).
    pub fn closed_if(mut self, closed: bool) -> Self {
        self.closed = closed;
        self
    }

    pub fn crumb(mut self, href: impl Into<String>, label: impl Into<String>) -> Self {
        self.crumbs.push((href.into(), label.into()));
        self
    }

    pub fn flash(mut self, f: Flash) -> Self {
        let l = self.l;
        self.ok = f.ok.as_deref().and_then(flash_message).map(|m| l.say(&m));
        self.err = f.err.as_deref().and_then(flash_message).map(|m| l.say(&m));
        self
    }

    pub fn error(mut self, e: Option<String>) -> Self {
        if let Some(e) = e {
            self.err = Some(self.l.say(&e));
        }
        self
    }

    /// The page with `content` (the page's own template) in the layout.
    pub fn render(self, status: StatusCode, content: &impl Template) -> Result<Response, WebError> {
        let content = content
            .render()
            .map_err(|e| WebError::Internal(e.to_string()))?;
        self.layout(status, content)
    }

    /// The layout around `content`, the page's HTML rendered from its template.
    fn layout(self, status: StatusCode, content: String) -> Result<Response, WebError> {
        let t = DeskPage {
            layout: Layout::plain(self.l, self.title, self.path),
            who: &self.auth.user.display_name,
            role: self.auth.user.role.zh(),
            csrf: &self.auth.csrf,
            crumbs: self.crumbs,
            ok: self.ok,
            err: self.err,
            closed: self.closed,
            content,
        };
        let body = t.render().map_err(|e| WebError::Internal(e.to_string()))?;
        let mut resp = (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            body,
        )
            .into_response();
        resp.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        Ok(resp)
    }
}

/// After a form: back to `path` with a message (303, so a reload does not post again).
pub fn back(path: &str, outcome: Result<String, String>) -> Response {
    let (k, msg) = match outcome {
        Ok(m) => ("ok", m),
        Err(m) => ("err", m),
    };
    let sep = if path.contains('?') { '&' } else { '?' };
    let code = remember(msg);
    Redirect::to(&format!("{path}{sep}{k}={code}")).into_response()
}

/// Percent-encode a query value.
pub fn query_encode(s: &str) -> String {
    let mut o = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                o.push(b as char)
            }
            _ => o.push_str(&format!("%{b:02X}")),
        }
    }
    o
}

/// Whether the request asked for JSON (the result grid's script does).
pub fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"))
}

/// A non-empty trimmed form value.
pub fn opt(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The event's id from the path, as the store spells it.
pub fn event_id(ev: &str) -> arbiter_store::EventId {
    arbiter_store::EventId(ev.to_string())
}

/// An event and one of its sections, from the path `/desk/e/{ev}/s/{sec}/…`: the event's
/// snapshot brought up to date and the section checked (404 when either is not there).
/// Extracted after the account's role, so a stranger learns nothing of the event.
pub struct EventSection {
    pub ev: String,
    pub sec: String,
    pub snap: Arc<Snapshot>,
    /// The section's name.
    pub name: String,
}

impl EventSection {
    /// Load `ev` and check its section `sec`.
    pub async fn load(app: &AppState, ev: String, sec: String) -> Result<Self, WebError> {
        let (snap, _) = app.refresh(&event_id(&ev)).await?;
        let name = views::section_name(&snap, &sec)?;
        Ok(EventSection {
            ev,
            sec,
            snap,
            name,
        })
    }

    /// The section's record.
    pub fn section(&self) -> Result<&SectionRecord, WebError> {
        self.snap
            .state
            .section(&self.sec)
            .ok_or_else(|| WebError::NotFound(format!("组别 「{}」 (section)", self.sec)))
    }
}

impl FromRequestParts<AppState> for EventSection {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Response> {
        let Path((ev, sec)) = Path::<(String, String)>::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        EventSection::load(app, ev, sec)
            .await
            .map_err(IntoResponse::into_response)
    }
}
