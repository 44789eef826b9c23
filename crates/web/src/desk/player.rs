//! One entry at the desk (`/desk/e/{ev}/p/{pid}`): what is registered (ID number and phone
//! masked), its corrections, absences and withdrawal; edit it with a reason
//! (`entries::correct`: the section's sex and age rules and the team rules are judged again by
//! the director), withdraw the player (`entries::withdraw`, A5) or excuse him from a round not
//! yet paired (`entries::absent`, 请假).

use super::{back, csrf_field, e, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Arbiters, Post, Registrars, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::{FieldChange, PlayerId, PlayerRecord};
use arbiter_director::api::entries as api;
use arbiter_store::Role;
use arbiter_types::{IdNumber, Phone, Sex};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDate;
use serde::Deserialize;
use std::fmt::Write;

pub fn path(ev: &str, pid: u32) -> String {
    format!("/desk/e/{ev}/p/{pid}")
}

fn sex_label(s: Option<Sex>) -> &'static str {
    s.map_or("", |s| s.zh())
}

/// `GET /desk/e/{ev}/p/{pid}`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path((ev, pid)): Path<(String, u32)>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = &snap.state;
    let p = st
        .player(PlayerId(pid))
        .ok_or_else(|| WebError::NotFound(format!("棋手 P{pid} (player)")))?;
    let sec_name = st
        .section(&p.section)
        .map_or(p.section.clone(), |s| s.name.clone());
    let csrf = csrf_field(&auth);
    let here = path(&ev, pid);
    let mut c = String::new();
    let status = st.status(p.id).map_or("", |s| s.zh());
    let _ = write!(
        c,
        "<h1>P{pid} {name}</h1><table class=\"grid\" id=\"entry\"><tbody>\
         <tr><th>{sl}</th><td>{sec}</td></tr><tr><th>{sxl}</th><td>{sx}</td></tr>\
         <tr><th>{bl}</th><td>{b}</td></tr><tr><th>{il}</th><td>{id}</td></tr>\
         <tr><th>{pl}</th><td>{ph}</td></tr><tr><th>{ul}</th><td>{u}</td></tr>\
         <tr><th>{tl}</th><td>{t}</td></tr><tr><th>{stl}</th><td>{status}</td></tr></tbody></table>",
        name = e(&p.name),
        sl = l.t("组别", "Section"),
        sec = e(&sec_name),
        sxl = l.t("性别", "Sex"),
        sx = sex_label(p.sex),
        bl = l.t("出生日期", "Birth date"),
        b = p.birth_date.map(|d| d.to_string()).unwrap_or_default(),
        il = l.t("身份证号", "ID number"),
        id = p.id_number.as_ref().map(|i| i.masked()).unwrap_or_default(),
        pl = l.t("电话", "Phone"),
        ph = p.phone.as_ref().map(|x| x.masked()).unwrap_or_default(),
        ul = l.t("单位", "Unit"),
        u = e(p.unit.as_deref().unwrap_or("")),
        tl = l.t("队伍", "Team"),
        t = e(p.team.as_deref().unwrap_or("")),
        stl = l.t("状态", "Status"),
    );
    if let Some(reason) = &p.withdrawal_reason {
        let _ = write!(
            c,
            "<p class=\"warn\">{}: {}</p>",
            l.t("已退赛", "Withdrawn"),
            e(reason)
        );
    }
    if !p.absent.is_empty() {
        let rounds: Vec<String> = p.absent.iter().map(u32::to_string).collect();
        let _ = write!(
            c,
            "<p>{}: {}</p>",
            l.t("请假轮次", "Excused from rounds"),
            rounds.join(", ")
        );
    }
    if !p.corrections.is_empty() {
        let _ = write!(c, "<h2>{}</h2><ul>", l.t("更正记录", "Corrections"));
        for (seq, reason) in &p.corrections {
            let _ = write!(c, "<li>#{seq}: {}</li>", e(reason));
        }
        c.push_str("</ul>");
    }
    if auth.is(&[Role::Organiser, Role::ChiefArbiter, Role::Desk]) {
        edit_form(&mut c, l, &csrf, &ev, p);
    }
    if auth.is(&[Role::ChiefArbiter, Role::Arbiter]) && p.withdrawn.is_none() {
        let next = st.section(&p.section).map_or(1, |s| s.last_round() + 1);
        let _ = write!(
            c,
            "<h2>{ah}</h2><form method=\"post\" action=\"{here}/absent\" class=\"stack\" id=\"absent\">{csrf}\
             <label>{rl} <input name=\"round\" inputmode=\"numeric\" value=\"{next}\" required></label>\
             <label>{re} <input name=\"reason\"></label><button type=\"submit\">{ab}</button></form>\
             <h2>{wh}</h2><form method=\"post\" action=\"{here}/withdraw\" class=\"stack\" id=\"withdraw\">{csrf}\
             <label>{re} <input name=\"reason\" required></label><button type=\"submit\">{wb}</button></form>",
            ah = l.t("请假 (某轮不编排)", "Excuse from a round"),
            here = e(&here),
            rl = l.t("轮次 (尚未编排)", "Round (not yet paired)"),
            re = l.t("理由", "Reason"),
            ab = l.t("登记请假", "Excuse"),
            wh = l.t("退赛", "Withdraw"),
            wb = l.t("退赛", "Withdraw"),
        );
    }
    Desk::new(l, &auth, format!("P{pid} {}", p.name), here.clone())
        .crumb(format!("/desk/e/{ev}"), st.name().to_string())
        .crumb(
            format!("/desk/e/{ev}/s/{}/entries", p.section),
            format!("{sec_name} {}", l.t("报名", "entries")),
        )
        .crumb(here, format!("P{pid}"))
        .flash(f)
        .render_html(StatusCode::OK, c)
}

fn edit_form(c: &mut String, l: Lang, csrf: &str, ev: &str, p: &PlayerRecord) {
    let sel = |s: Sex| if p.sex == Some(s) { " selected" } else { "" };
    let _ = write!(
        c,
        "<h2>{h}</h2><form method=\"post\" action=\"{action}\" class=\"stack\" id=\"edit-entry\">{csrf}\
         <label>{n} <input name=\"name\" value=\"{name}\" required></label>\
         <label>{sx} <select name=\"sex\"><option value=\"\"></option><option value=\"男\"{m}>男</option><option value=\"女\"{f}>女</option></select></label>\
         <label>{b} <input name=\"birth\" value=\"{birth}\" placeholder=\"2010-05-01\"></label>\
         <label>{id} <input name=\"id_number\" autocomplete=\"off\" placeholder=\"{keep}\"></label>\
         <label>{ph} <input name=\"phone\" inputmode=\"tel\" autocomplete=\"off\" placeholder=\"{keep}\"></label>\
         <label>{u} <input name=\"unit\" value=\"{unit}\"></label>\
         <label>{t} <input name=\"team\" value=\"{team}\"></label>\
         <label>{r} <input name=\"reason\" required></label>\
         <button type=\"submit\">{save}</button></form>",
        h = l.t("更正报名信息", "Edit the entry"),
        action = e(&format!("{}/edit", path(ev, p.id.0))),
        n = l.t("姓名", "Name"),
        name = e(&p.name),
        sx = l.t("性别", "Sex"),
        m = sel(Sex::Male),
        f = sel(Sex::Female),
        b = l.t("出生日期", "Birth date"),
        birth = p.birth_date.map(|d| d.to_string()).unwrap_or_default(),
        id = l.t("身份证号", "ID number"),
        ph = l.t("电话", "Phone"),
        keep = l.t("留空则不变", "leave empty to keep"),
        u = l.t("单位", "Unit"),
        unit = e(p.unit.as_deref().unwrap_or("")),
        t = l.t("队伍", "Team"),
        team = e(p.team.as_deref().unwrap_or("")),
        r = l.t("更正理由", "Reason for the correction"),
        save = l.t("更正", "Correct"),
    );
}

#[derive(Deserialize)]
pub struct EditForm {
    name: String,
    sex: Option<String>,
    birth: Option<String>,
    id_number: Option<String>,
    phone: Option<String>,
    unit: Option<String>,
    team: Option<String>,
    #[serde(default)]
    reason: String,
}

/// The edit form, parsed: `None` in an ID number or phone keeps the one registered.
struct Edited {
    name: String,
    sex: Option<Sex>,
    birth: Option<NaiveDate>,
    id_number: Option<IdNumber>,
    phone: Option<Phone>,
    unit: Option<String>,
    team: Option<String>,
}

fn parse_edit(f: &EditForm) -> Result<Edited, String> {
    let sex = match opt(&f.sex) {
        None => None,
        Some(s) => Some(
            arbiter_core::roster::parse_sex(&s)
                .ok_or_else(|| format!("性别 `{s}` 应为 男/女 (unknown sex)"))?,
        ),
    };
    let birth = match opt(&f.birth) {
        None => None,
        Some(s) => Some(
            arbiter_core::roster::parse_date(&s)
                .ok_or_else(|| format!("出生日期 `{s}` 应为 YYYY-MM-DD (bad date)"))?,
        ),
    };
    let id_number = match opt(&f.id_number) {
        None => None,
        Some(s) => Some(IdNumber::parse(&s).map_err(|e| e.to_string())?),
    };
    let phone = match opt(&f.phone) {
        None => None,
        Some(s) => Some(Phone::parse(&s).map_err(|e| e.to_string())?),
    };
    Ok(Edited {
        name: f.name.trim().to_string(),
        sex,
        birth,
        id_number,
        phone,
        unit: opt(&f.unit),
        team: opt(&f.team),
    })
}

/// The fields the form changes against the record (only those).
fn changes(rec: &PlayerRecord, x: &Edited) -> Vec<FieldChange> {
    let mut c = Vec::new();
    if x.name != rec.name {
        c.push(FieldChange::Name(x.name.clone()));
    }
    if x.sex != rec.sex {
        c.push(FieldChange::Sex(x.sex));
    }
    if x.birth != rec.birth_date {
        c.push(FieldChange::BirthDate(x.birth));
    }
    if let Some(i) = x
        .id_number
        .as_ref()
        .filter(|i| rec.id_number.as_ref() != Some(*i))
    {
        c.push(FieldChange::IdNumber(Some(i.clone())));
    }
    if let Some(p) = x.phone.as_ref().filter(|p| rec.phone.as_ref() != Some(*p)) {
        c.push(FieldChange::Phone(Some(p.clone())));
    }
    if x.unit != rec.unit {
        c.push(FieldChange::Unit(x.unit.clone()));
    }
    if x.team != rec.team {
        c.push(FieldChange::Team(x.team.clone()));
    }
    c
}

/// `POST /desk/e/{ev}/p/{pid}/edit`.
pub async fn edit(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<Registrars, EditForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, pid);
    let edited = match parse_edit(&p.form) {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let reason = p.form.reason.clone();
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        let rec = st.player(PlayerId(pid)).ok_or_else(|| {
            arbiter_director::DirectorError::Refused(format!("棋手 P{pid} 不存在 (unknown player)"))
        })?;
        api::correct(st, ctx, PlayerId(pid), changes(rec, &edited), &reason)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("P{pid} 报名信息已更正 (entry corrected)")),
    ))
}

#[derive(Deserialize)]
pub struct WithdrawForm {
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/p/{pid}/withdraw`.
pub async fn withdraw(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<Arbiters, WithdrawForm>,
) -> Result<Response, WebError> {
    let reason = p.form.reason;
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::withdraw(st, ctx, PlayerId(pid), &reason)
    })
    .await?;
    Ok(back(
        &path(&ev, pid),
        done.map(|_| format!("P{pid} 已退赛 (withdrawn)")),
    ))
}

#[derive(Deserialize)]
pub struct AbsentForm {
    #[serde(default)]
    round: String,
    reason: Option<String>,
}

/// `POST /desk/e/{ev}/p/{pid}/absent`.
pub async fn absent(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<Arbiters, AbsentForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, pid);
    let round: u32 = match p.form.round.trim().parse() {
        Ok(r) => r,
        Err(_) => {
            return Ok(back(
                &here,
                Err(format!(
                    "轮次 `{}` 应为正整数 (the round is a number)",
                    p.form.round.trim()
                )),
            ))
        }
    };
    let reason = opt(&p.form.reason);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::absent(st, ctx, PlayerId(pid), round, reason.as_deref())
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("P{pid} 第{round}轮请假已登记 (excused from round {round})")),
    ))
}
