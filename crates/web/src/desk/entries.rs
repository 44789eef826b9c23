//! The registration list of a section (报名): add an entry (eligibility checked by the
//! regulation; the chief arbiter's late-entry override with its reason), refuse one by
//! decision, fees and check-in. ID numbers and phones are shown masked.

use super::{back, event_id, opt, Desk, EventSection, Flash};
use crate::app::AppState;
use crate::auth::{Post, Registrars, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::{LogEntry, PlayerId};
use arbiter_director::api::entries as api;
use arbiter_director::registration::EntryForm;
use arbiter_store::Role;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

fn path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/entries")
}

/// `/desk/e/{ev}/s/{sec}/entries`: the registration list, the online entries pending, the
/// refused entries, and (for the registration desk) the forms to add or refuse an entry.
#[derive(Template)]
#[template(path = "desk/entries.html")]
struct EntriesPage<'a> {
    l: Lang,
    csrf: &'a str,
    ev: &'a str,
    sec: &'a str,
    name: &'a str,
    rows: Vec<EntryRow<'a>>,
    pending: Vec<PendingRow<'a>>,
    /// Name and reason of each refused entry.
    refused: Vec<(&'a str, &'a str)>,
    /// The account registers, takes fees and checks in.
    can: bool,
    /// The message of the last fee or check-in, below its row (the page opens at the row,
    /// `#p12`): (ok, words).
    row_msg: Option<(bool, String)>,
    /// 查找: the words searched, and what was found.
    q: String,
    found: Option<Vec<Found>>,
    /// Columns in the list.
    cols: usize,
    /// Back from adding or refusing an entry: the add-entry form takes the focus for the
    /// next one (on a plain visit it does not, so a long list opens at its top).
    adding: bool,
}

/// A player found by 查找, with his fee, his check-in and why he is not paired.
struct Found {
    id: u32,
    name: String,
    section: String,
    unit: String,
    fee: String,
    checked_in: bool,
    /// Empty: he is paired in the next round.
    why: Vec<String>,
}

/// One registered player (ID number and phone masked).
struct EntryRow<'a> {
    id: u32,
    name: &'a str,
    withdrawn: bool,
    sex: &'static str,
    unit: &'a str,
    id_number: String,
    phone: String,
    /// The fee paid, in yuan (`None`: not paid).
    paid: Option<String>,
    checked_in: bool,
    /// The row of the last action.
    here: bool,
}

/// One online submission waiting for the desk (ID number and phone masked).
struct PendingRow<'a> {
    submission: u32,
    /// When it was submitted, China time.
    at: String,
    name: &'a str,
    sex: &'static str,
    birth: String,
    unit: &'a str,
    id_number: String,
    phone: String,
}

/// The list's query: the flash, the row of the last action, the search.
#[derive(Deserialize, Default)]
pub struct ListQuery {
    #[serde(flatten)]
    flash: Flash,
    row: Option<String>,
    q: Option<String>,
}

/// Players of the event whose name holds `q`, or whose number is `q` (`12` or `P12`).
fn find(st: &arbiter_core::EventState, q: &str) -> Vec<Found> {
    let q = q.trim();
    let num = q.strip_prefix(['P', 'p']).unwrap_or(q).parse::<u32>().ok();
    st.players
        .values()
        .filter(|p| Some(p.id.0) == num || (!q.is_empty() && p.name.contains(q)))
        .take(50)
        .map(|p| Found {
            id: p.id.0,
            name: p.name.clone(),
            section: st
                .section(&p.section)
                .map_or(p.section.clone(), |s| s.name.clone()),
            unit: p.unit.clone().unwrap_or_default(),
            fee: if p.paid_fen > 0 {
                format!("已缴 {}", api::yuan(p.paid_fen))
            } else {
                "未缴费".into()
            },
            checked_in: p.checked_in,
            why: api::why_not_paired(st, p.id)
                .iter()
                .map(ToString::to_string)
                .collect(),
        })
        .collect()
}

/// `GET /desk/e/{ev}/s/{sec}/entries[?q=…][&row=N]`.
pub async fn list(
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    es: EventSection,
    Query(lq): Query<ListQuery>,
) -> Result<Response, WebError> {
    let row = lq.row.as_deref().and_then(|r| r.trim().parse::<u32>().ok());
    let f = lq.flash;
    let (f, row_msg) = match row {
        // The message goes below the row, where the desk is looking.
        Some(_) => {
            let ok = f.ok.as_deref().and_then(super::flash_message);
            let err = f.err.as_deref().and_then(super::flash_message);
            (
                Flash::default(),
                err.map(|m| (false, m)).or(ok.map(|m| (true, m))),
            )
        }
        None => (f, None),
    };
    let adding = row.is_none() && lq.q.is_none() && (f.ok.is_some() || f.err.is_some());
    let q = lq.q.as_deref().map(str::trim).unwrap_or("").to_string();
    let (ev, sec) = (es.ev.as_str(), es.sec.as_str());
    let st = &es.snap.state;
    let s = es.section()?;
    let rows = st
        .players(sec)
        .into_iter()
        .map(|p| EntryRow {
            id: p.id.0,
            name: &p.name,
            withdrawn: p.withdrawn.is_some(),
            sex: p.sex.map_or("", |s| s.zh()),
            unit: p.unit.as_deref().unwrap_or(""),
            id_number: p.id_number.as_ref().map(|i| i.masked()).unwrap_or_default(),
            phone: p.phone.as_ref().map(|x| x.masked()).unwrap_or_default(),
            paid: (p.paid_fen > 0).then(|| api::yuan(p.paid_fen)),
            checked_in: p.checked_in,
            here: row == Some(p.id.0),
        })
        .collect();
    let pending = st
        .pending(Some(sec))
        .into_iter()
        .map(|x| PendingRow {
            submission: x.submission,
            at: arbiter_core::time::china_local(&x.at)
                .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default(),
            name: &x.name,
            sex: x.sex.map_or("", |s| s.zh()),
            birth: x.birth_date.map(|d| d.to_string()).unwrap_or_default(),
            unit: x.unit.as_deref().unwrap_or(""),
            id_number: x.id_number.as_ref().map(|i| i.masked()).unwrap_or_default(),
            phone: x.phone.as_ref().map(|p| p.masked()).unwrap_or_default(),
        })
        .collect();
    let refused = st
        .refused
        .iter()
        .filter(|r| r.section == sec)
        .map(|r| (r.name.as_str(), r.reason.as_str()))
        .collect();
    let page = EntriesPage {
        l,
        csrf: &auth.csrf,
        ev,
        sec,
        name: &s.name,
        rows,
        pending,
        refused,
        can: auth.is(&[Role::Organiser, Role::ChiefArbiter, Role::Desk]),
        row_msg,
        found: (!q.is_empty()).then(|| find(st, &q)),
        q,
        cols: 0,
        adding,
    };
    let page = EntriesPage {
        cols: 8 + usize::from(page.can),
        ..page
    };
    Desk::new(
        l,
        &auth,
        format!("{} · {}", s.name, l.t("报名", "Entries")),
        path(ev, sec),
    )
    .crumb(format!("/desk/e/{ev}"), st.name().to_string())
    .crumb(
        path(ev, sec),
        format!("{} {}", s.name, l.t("报名", "entries")),
    )
    .flash(f)
    .render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct AddForm {
    name: String,
    sex: Option<String>,
    birth: Option<String>,
    id_number: Option<String>,
    phone: Option<String>,
    unit: Option<String>,
    team: Option<String>,
    evidence: Option<String>,
    late_reason: Option<String>,
}

/// `POST /desk/e/{ev}/s/{sec}/entries`.
pub async fn add(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Registrars, AddForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let here = path(&ev, &sec);
    // Who may enter late is the director's decision (a 403 from the write path).
    let late_reason = opt(&f.late_reason);
    let sex = match opt(&f.sex) {
        None => None,
        Some(s) => match arbiter_import::roster::parse_sex(&s) {
            Some(x) => Some(x),
            None => {
                return Ok(back(
                    &here,
                    Err(format!("性别 `{s}` 应为 男/女 (unknown sex)")),
                ))
            }
        },
    };
    let birth = match opt(&f.birth) {
        None => None,
        Some(s) => match arbiter_import::roster::parse_date(&s) {
            Some(d) => Some(d),
            None => {
                return Ok(back(
                    &here,
                    Err(format!("出生日期 `{s}` 应为 YYYY-MM-DD (bad date)")),
                ))
            }
        },
    };
    let form = EntryForm {
        section: sec.clone(),
        name: f.name.trim().to_string(),
        sex,
        birth,
        id_number: opt(&f.id_number),
        phone: opt(&f.phone),
        unit: opt(&f.unit),
        association: None,
        team: opt(&f.team),
        evidence: split_evidence(&f.evidence),
        flags: Vec::new(),
        rating: None,
        late_reason,
    };
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::register(st, ctx, &form)
    })
    .await?;
    let msg = match done {
        Ok(a) => match a.entries.first() {
            Some(LogEntry::PlayerRegistered(r)) => {
                Ok(format!("已报名 registered: P{} {}", r.player.0, r.name))
            }
            Some(LogEntry::EntryRefused { name, reason, .. }) => Err(format!(
                "{name} 不符合报名条件, 已记录拒绝: {reason} (entry refused)"
            )),
            _ => Ok("已记录 (recorded)".into()),
        },
        Err(e) => Err(e),
    };
    Ok(back(&here, msg))
}

#[derive(Deserialize)]
pub struct RefuseForm {
    name: String,
    unit: Option<String>,
    reason: String,
}

/// `POST /desk/e/{ev}/s/{sec}/refuse`.
pub async fn refuse(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Registrars, RefuseForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let form = EntryForm {
        section: sec.clone(),
        name: f.name.trim().to_string(),
        sex: None,
        birth: None,
        id_number: None,
        phone: None,
        unit: opt(&f.unit),
        association: None,
        team: None,
        evidence: Vec::new(),
        flags: Vec::new(),
        rating: None,
        late_reason: None,
    };
    let reason = f.reason;
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::refuse(st, ctx, &form, &reason)
    })
    .await?;
    Ok(back(
        &path(&ev, &sec),
        done.map(|_| "已记录拒绝 (refusal recorded)".to_string()),
    ))
}

#[derive(Deserialize)]
pub struct FeeForm {
    amount: Option<String>,
    /// The receipt number written on the slip, if any.
    receipt: Option<String>,
}

/// Yuan with at most two decimals as fen.
fn fen(s: &str) -> Option<u64> {
    let (y, f) = s.split_once('.').unwrap_or((s, ""));
    if y.is_empty() || f.len() > 2 || !y.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !f.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: u64 = y.parse().ok()?;
    let f: u64 = format!("{f:0<2}").parse().ok()?;
    y.checked_mul(100)?.checked_add(f)
}

async fn section_of_player(app: &AppState, ev: &str, pid: u32) -> Result<String, WebError> {
    let snap = app.snapshot(ev).await?;
    Ok(snap
        .state
        .player(PlayerId(pid))
        .map(|p| p.section.clone())
        .unwrap_or_default())
}

/// `POST /desk/e/{ev}/p/{pid}/fee` (amount: the regulation's fee unless given, in yuan).
pub async fn fee(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<Registrars, FeeForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_player(&app, &ev, pid).await?);
    let amount = match opt(&p.form.amount) {
        None => None,
        Some(s) => match fen(&s) {
            Some(x) => Some(x),
            None => {
                return Ok(back(
                    &here,
                    Err(format!("金额 `{s}` 应为元, 至多两位小数 (expected yuan)")),
                ))
            }
        },
    };
    let receipt = opt(&p.form.receipt);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::pay_fee(st, ctx, PlayerId(pid), amount, receipt.as_deref())
    })
    .await?;
    Ok(back_to_row(
        &here,
        pid,
        done.map(|_| format!("P{pid} 已缴费 (fee paid)")),
    ))
}

/// After a fee or check-in: back to the list at the player's row (`#p12`), the message
/// below it, so a long list stays where the desk was.
fn back_to_row(list: &str, pid: u32, outcome: Result<String, String>) -> Response {
    let (k, msg) = match outcome {
        Ok(m) => ("ok", m),
        Err(m) => ("err", m),
    };
    let code = super::remember(msg);
    axum::response::Redirect::to(&format!("{list}?{k}={code}&row={pid}#p{pid}")).into_response()
}

/// `POST /desk/e/{ev}/p/{pid}/fee/cancel`: take back a fee recorded by mistake.
pub async fn cancel_fee(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<Registrars, super::super::auth::login::Empty>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_player(&app, &ev, pid).await?);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::cancel_fee(st, ctx, PlayerId(pid))
    })
    .await?;
    Ok(back_to_row(
        &here,
        pid,
        done.map(|_| format!("P{pid} 已撤销缴费 (fee cancelled)")),
    ))
}

/// `POST /desk/e/{ev}/p/{pid}/checkin/cancel`: take back a check-in recorded by mistake.
pub async fn cancel_check_in(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<Registrars, super::super::auth::login::Empty>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_player(&app, &ev, pid).await?);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::cancel_check_in(st, ctx, PlayerId(pid))
    })
    .await?;
    Ok(back_to_row(
        &here,
        pid,
        done.map(|_| format!("P{pid} 已撤销签到 (check-in cancelled)")),
    ))
}

/// `POST /desk/e/{ev}/s/{sec}/many`: 缴费 or 签到 for every player ticked (`do=fee` or
/// `do=checkin`, `p=12&p=15…`), one append; those already done are left out and named.
pub async fn many(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Registrars, Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let here = path(&ev, &sec);
    let mut what = None;
    let mut players = Vec::new();
    for (k, v) in &p.form {
        match k.as_str() {
            "do" => what = Some(v.clone()),
            "p" => match v.trim().parse::<u32>() {
                Ok(n) => players.push(PlayerId(n)),
                Err(_) => {
                    return Ok(back(
                        &here,
                        Err(format!("棋手编号 `{v}` 不是数字 (bad player number)")),
                    ))
                }
            },
            _ => {}
        }
    }
    let fee = match what.as_deref() {
        Some("fee") => true,
        Some("checkin") => false,
        _ => {
            return Ok(back(
                &here,
                Err("请选择 缴费 或 签到 (choose fee or check-in)".into()),
            ))
        }
    };
    let first = players.first().map(|p| p.0);
    let chosen = players.clone();
    let done = write::apply_with(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        let (entries, left) = api::for_each(st, ctx, &chosen, |st, ctx, p| {
            if fee {
                api::pay_fee(st, ctx, p, None, None)
            } else {
                api::check_in(st, ctx, p)
            }
        })?;
        let left: Vec<String> = left.iter().map(|(_, e)| crate::refusal::words(e)).collect();
        Ok((entries, left))
    })
    .await?;
    let msg = done.map(|(a, left)| {
        let n = a.entries.len();
        let mut m = if fee {
            format!("{n}人已缴费 ({n} fees paid)")
        } else {
            format!("{n}人已签到 ({n} checked in)")
        };
        if !left.is_empty() {
            m.push_str(&format!("; 未处理 {}人: {}", left.len(), left.join("; ")));
        }
        m
    });
    Ok(match first {
        Some(pid) => back_to_row(&here, pid, msg),
        None => back(&here, msg),
    })
}

/// `POST /desk/e/{ev}/p/{pid}/checkin`.
pub async fn checkin(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<Registrars, super::super::auth::login::Empty>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_player(&app, &ev, pid).await?);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::check_in(st, ctx, PlayerId(pid))
    })
    .await?;
    Ok(back_to_row(
        &here,
        pid,
        done.map(|_| format!("P{pid} 已签到 (checked in)")),
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn yuan_to_fen() {
        assert_eq!(super::fen("120"), Some(12000));
        assert_eq!(super::fen("80.5"), Some(8050));
        assert_eq!(super::fen("80.05"), Some(8005));
        assert_eq!(super::fen("80.055"), None);
        assert_eq!(super::fen("-1"), None);
        assert_eq!(super::fen(".5"), None);
    }
}

#[derive(Deserialize)]
pub struct ApproveForm {
    evidence: Option<String>,
    late_reason: Option<String>,
}

/// The section of an online submission (for the page to go back to).
async fn section_of_submission(app: &AppState, ev: &str, n: u32) -> Result<String, WebError> {
    let snap = app.snapshot(ev).await?;
    Ok(snap
        .state
        .submissions
        .get(&n)
        .map(|s| s.section.clone())
        .unwrap_or_default())
}

/// `POST /desk/e/{ev}/sub/{n}/approve`: the normal registration with the submission's facts.
pub async fn approve(
    State(app): State<AppState>,
    Path((ev, n)): Path<(String, u32)>,
    p: Post<Registrars, ApproveForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_submission(&app, &ev, n).await?);
    let late_reason = opt(&p.form.late_reason);
    let evidence = split_evidence(&p.form.evidence);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::approve(st, ctx, n, evidence.clone(), late_reason.clone())
    })
    .await?;
    let msg = done.map(|a| match a.entries.first() {
        Some(LogEntry::PlayerRegistered(r)) => format!(
            "网上报名 #{n} 已批准, 登记为 P{} {} (approved and registered)",
            r.player.0, r.name
        ),
        _ => format!("网上报名 #{n} 已批准 (approved)"),
    });
    Ok(back(&here, msg))
}

#[derive(Deserialize)]
pub struct RefuseSubmissionForm {
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/sub/{n}/refuse`.
pub async fn refuse_submission(
    State(app): State<AppState>,
    Path((ev, n)): Path<(String, u32)>,
    p: Post<Registrars, RefuseSubmissionForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_submission(&app, &ev, n).await?);
    let reason = p.form.reason;
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::refuse_submission(st, ctx, n, &reason)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("网上报名 #{n} 已拒绝 (refused)")),
    ))
}

/// Evidence kinds from a form field (comma, Chinese comma or space separated).
fn split_evidence(s: &Option<String>) -> Vec<String> {
    opt(s)
        .map(|s| {
            s.split([',', '，', ' ', '、'])
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
