//! The registration list of a section (报名): add an entry (eligibility checked by the
//! regulation; the chief arbiter's late-entry override with its reason), refuse one by
//! decision, fees and check-in. ID numbers and phones are shown masked.

use super::{back, csrf_field, e, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, Refusal, Registrars, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::{LogEntry, PlayerId};
use arbiter_director::api::entries as api;
use arbiter_director::registration::EntryForm;
use arbiter_store::Role;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::fmt::Write;

fn path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/entries")
}

/// `GET /desk/e/{ev}/s/{sec}/entries`.
pub async fn list(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path((ev, sec)): Path<(String, String)>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = &snap.state;
    let s = st
        .section(&sec)
        .ok_or_else(|| WebError::NotFound(format!("组别 {sec} (section)")))?;
    let players = st.players(&sec);
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{} · {}</h1><p>{} {}</p>",
        e(&s.name),
        l.t("报名", "Entries"),
        players.len(),
        l.t("人", "players")
    );
    let can = auth.is(&[Role::Organiser, Role::ChiefArbiter, Role::Desk]);
    let csrf = csrf_field(&auth);
    let _ = write!(
        c,
        "<table class=\"grid\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        l.t("编号", "No."),
        l.t("姓名", "Name"),
        l.t("性别", "Sex"),
        l.t("单位", "Unit"),
        l.t("身份证号", "ID number"),
        l.t("电话", "Phone"),
        l.t("缴费", "Fee"),
        l.t("检录", "Check-in"),
    );
    for p in players {
        let fee = if p.paid_fen > 0 {
            api::yuan(p.paid_fen)
        } else if can {
            format!(
                "<form method=\"post\" action=\"/desk/e/{ev}/p/{pid}/fee\" class=\"inline\">{csrf}<button>{}</button></form>",
                l.t("缴费", "Paid"),
                ev = e(&ev),
                pid = p.id.0
            )
        } else {
            "—".into()
        };
        let checkin = if p.checked_in {
            "✓".to_string()
        } else if can && p.withdrawn.is_none() {
            format!(
                "<form method=\"post\" action=\"/desk/e/{ev}/p/{pid}/checkin\" class=\"inline\">{csrf}<button>{}</button></form>",
                l.t("检录", "Check in"),
                ev = e(&ev),
                pid = p.id.0
            )
        } else {
            "—".into()
        };
        let withdrawn = if p.withdrawn.is_some() {
            l.t(" (已退赛)", " (withdrawn)")
        } else {
            ""
        };
        let _ = write!(
            c,
            "<tr><td>P{}</td><td><a href=\"/desk/e/{ev}/p/{pid}\">{}</a>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            p.id.0,
            e(&p.name),
            withdrawn,
            p.sex.map_or("", |s| s.zh()),
            e(p.unit.as_deref().unwrap_or("")),
            p.id_number.as_ref().map(|i| i.masked()).unwrap_or_default(),
            p.phone.as_ref().map(|x| x.masked()).unwrap_or_default(),
            fee,
            checkin,
            ev = e(&ev),
            pid = p.id.0,
        );
    }
    c.push_str("</tbody></table>");
    let pending = st.pending(Some(&sec));
    if !pending.is_empty() {
        let _ = write!(
            c,
            "<h2>{}</h2><p>{}</p><table class=\"grid\" id=\"pending\"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead><tbody>",
            l.t("网上报名待审核", "Online entries pending"),
            l.t(
                "批准即按报名规则登记 (请填写已查验的证明材料); 截止前提交的报名截止后批准无需补报; 拒绝须说明理由。",
                "Approving registers the entry by the registration rules (give the documents seen); an entry submitted before the deadline needs no late-entry override; a refusal needs a reason."
            ),
            l.t("姓名", "Name"),
            l.t("性别", "Sex"),
            l.t("出生日期", "Birth date"),
            l.t("单位", "Unit"),
            l.t("身份证号", "ID number"),
            l.t("电话", "Phone"),
        );
        for x in pending {
            let actions = if can {
                format!(
                    "<form method=\"post\" action=\"/desk/e/{ev}/sub/{n}/approve\" class=\"inline\">{csrf}\
                     <input name=\"evidence\" placeholder=\"{evp}\"><input name=\"late_reason\" placeholder=\"{latep}\"><button>{ab}</button></form> \
                     <form method=\"post\" action=\"/desk/e/{ev}/sub/{n}/refuse\" class=\"inline\">{csrf}\
                     <input name=\"reason\" placeholder=\"{rp}\" required><button>{rb}</button></form>",
                    ev = e(&ev),
                    n = x.submission,
                    evp = l.t("已查验的证明材料", "documents seen"),
                    latep = l.t("补报理由 (仅裁判长)", "late reason (chief)"),
                    ab = l.t("批准", "Approve"),
                    rp = l.t("拒绝理由", "reason"),
                    rb = l.t("拒绝", "Refuse"),
                )
            } else {
                String::new()
            };
            let _ = write!(
                c,
                "<tr><td>{}<br><small title=\"{}\">{}</small></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                x.submission,
                l.t("提交时间 (报名截止按此判断)", "submitted at (the deadline is judged at it)"),
                e(&arbiter_core::time::china_local(&x.at)
                    .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                    .unwrap_or_default()),
                e(&x.name),
                x.sex.map_or("", |s| s.zh()),
                x.birth_date.map(|d| d.to_string()).unwrap_or_default(),
                e(x.unit.as_deref().unwrap_or("")),
                x.id_number.as_ref().map(|i| i.masked()).unwrap_or_default(),
                x.phone.as_ref().map(|p| p.masked()).unwrap_or_default(),
                actions
            );
        }
        c.push_str("</tbody></table>");
    }
    let refused: Vec<_> = st.refused.iter().filter(|r| r.section == sec).collect();
    if !refused.is_empty() {
        let _ = write!(c, "<h2>{}</h2><ul>", l.t("未通过的报名", "Refused entries"));
        for r in refused {
            let _ = write!(c, "<li>{}: {}</li>", e(&r.name), e(&r.reason));
        }
        c.push_str("</ul>");
    }
    if can {
        let _ = write!(
            c,
            "<h2>{h}</h2><form method=\"post\" action=\"{action}\" class=\"stack\" id=\"add-entry\">{csrf}\
             <label>{n} <input name=\"name\" required autofocus></label>\
             <label>{sx} <select name=\"sex\"><option value=\"\"></option><option value=\"男\">男</option><option value=\"女\">女</option></select></label>\
             <label>{b} <input name=\"birth\" placeholder=\"2010-05-01\"></label>\
             <label>{id} <input name=\"id_number\" autocomplete=\"off\"></label>\
             <label>{ph} <input name=\"phone\" inputmode=\"tel\" autocomplete=\"off\"></label>\
             <label>{u} <input name=\"unit\"></label>\
             <label>{t} <input name=\"team\"></label>\
             <label>{ev} <input name=\"evidence\" placeholder=\"social_security, id_card\"></label>\
             <label>{late} <input name=\"late_reason\"></label>\
             <button type=\"submit\">{add}</button></form>",
            h = l.t("新增报名", "Add an entry"),
            action = e(&path(&ev, &sec)),
            n = l.t("姓名", "Name"),
            sx = l.t("性别", "Sex"),
            b = l.t("出生日期", "Birth date"),
            id = l.t("身份证号", "ID number"),
            ph = l.t("电话", "Phone"),
            u = l.t("单位", "Unit"),
            t = l.t("队伍", "Team"),
            ev = l.t(
                "已查验的证明材料 (逗号分隔)",
                "Evidence seen (comma-separated)"
            ),
            late = l.t(
                "补报理由 (仅裁判长, 截止后报名)",
                "Late-entry reason (chief arbiter only)"
            ),
            add = l.t("报名", "Register"),
        );
        let _ = write!(
            c,
            "<h2>{h}</h2><form method=\"post\" action=\"/desk/e/{ev}/s/{sec}/refuse\" class=\"stack\">{csrf}\
             <label>{n} <input name=\"name\" required></label>\
             <label>{u} <input name=\"unit\"></label>\
             <label>{r} <input name=\"reason\" required></label>\
             <button type=\"submit\">{b}</button></form>",
            h = l.t("拒绝报名", "Refuse an entry"),
            ev = e(&ev),
            sec = e(&sec),
            n = l.t("姓名", "Name"),
            u = l.t("单位", "Unit"),
            r = l.t("理由", "Reason"),
            b = l.t("拒绝", "Refuse"),
        );
    }
    Desk::new(
        l,
        &auth,
        format!("{} · {}", s.name, l.t("报名", "Entries")),
        path(&ev, &sec),
    )
    .crumb(format!("/desk/e/{ev}"), st.name().to_string())
    .crumb(
        path(&ev, &sec),
        format!("{} {}", s.name, l.t("报名", "entries")),
    )
    .flash(f)
    .render_html(StatusCode::OK, c)
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
    let late_reason = opt(&f.late_reason);
    if late_reason.is_some() && p.auth.role() != Role::ChiefArbiter {
        return Ok(Refusal::Forbidden {
            role: p.auth.role(),
            allowed: &[Role::ChiefArbiter],
        }
        .into_response());
    }
    let sex = match opt(&f.sex) {
        None => None,
        Some(s) => match arbiter_core::roster::parse_sex(&s) {
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
        Some(s) => match arbiter_core::roster::parse_date(&s) {
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
    Ok(back(
        &here,
        done.map(|_| format!("P{pid} 已缴费 (fee paid)")),
    ))
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
    Ok(back(
        &here,
        done.map(|_| format!("P{pid} 已检录 (checked in)")),
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
    if late_reason.is_some() && p.auth.role() != Role::ChiefArbiter {
        return Ok(Refusal::Forbidden {
            role: p.auth.role(),
            allowed: &[Role::ChiefArbiter],
        }
        .into_response());
    }
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
