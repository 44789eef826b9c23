//! Teams at the desk (`/desk/e/{ev}/teams`): every team with its unit, division, leader,
//! coach and members; enter a team with its roster (`entries::enter_team`: K1–K3, one
//! roster per team — the director judges it).

use super::{back, csrf_field, e, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, Registrars, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::PlayerId;
use arbiter_director::api::entries::{self as api, TeamForm};
use arbiter_store::Role;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use std::fmt::Write;

pub fn path(ev: &str) -> String {
    format!("/desk/e/{ev}/teams")
}

/// `GET /desk/e/{ev}/teams`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = &snap.state;
    let here = path(&ev);
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{} · {}</h1><table class=\"grid\" id=\"teams\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        e(st.name()),
        l.t("队伍", "Teams"),
        l.t("队名", "Team"),
        l.t("单位", "Unit"),
        l.t("组别", "Division"),
        l.t("领队", "Leader"),
        l.t("教练", "Coach"),
        l.t("队员", "Members"),
    );
    for t in st.teams.values() {
        let division = match (&t.section, &t.division) {
            (Some(sec), Some(d)) => st
                .section(sec)
                .and_then(|s| s.divisions.iter().find(|x| &x.id == d))
                .map_or(d.clone(), |x| x.name.clone()),
            (_, Some(d)) => d.clone(),
            _ => String::new(),
        };
        let members: Vec<String> = t
            .members
            .iter()
            .map(|m| {
                let name = st.player(*m).map_or("?", |p| p.name.as_str());
                format!(
                    "<a href=\"/desk/e/{}/p/{}\">P{} {}</a>",
                    e(&ev),
                    m.0,
                    m.0,
                    e(name)
                )
            })
            .collect();
        let _ = write!(
            c,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            e(&t.team),
            e(&t.unit),
            e(&division),
            e(t.leader.as_deref().unwrap_or("")),
            e(t.coach.as_deref().unwrap_or("")),
            members.join("、")
        );
    }
    c.push_str("</tbody></table>");
    if auth.is(&[Role::Organiser, Role::ChiefArbiter, Role::Desk]) {
        let mut divisions = String::from("<option value=\"\"></option>");
        for s in st.sections.values() {
            for d in &s.divisions {
                let _ = write!(
                    divisions,
                    "<option value=\"{}\">{} {}</option>",
                    e(&d.id),
                    e(&s.name),
                    e(&d.name)
                );
            }
        }
        let _ = write!(
            c,
            "<h2>{h}</h2><form method=\"post\" action=\"{action}\" class=\"stack\" id=\"enter-team\">{csrf}\
             <label>{tl} <input name=\"team\" required></label>\
             <label>{ul} <input name=\"unit\" required></label>\
             <label>{dl} <select name=\"division\">{divisions}</select></label>\
             <label>{ml} <input name=\"members\" placeholder=\"P1 P2 P3\" required></label>\
             <label>{ll} <input name=\"leader\"></label>\
             <label>{cl} <input name=\"coach\"></label>\
             <button type=\"submit\">{b}</button></form>",
            h = l.t("报名队伍", "Enter a team"),
            action = e(&here),
            csrf = csrf_field(&auth),
            tl = l.t("队名", "Team"),
            ul = l.t("单位", "Unit"),
            dl = l.t("团体组别", "Division"),
            ml = l.t("队员编号 (如 P1 P2 P3)", "Members' numbers (e.g. P1 P2 P3)"),
            ll = l.t("领队", "Leader"),
            cl = l.t("教练", "Coach"),
            b = l.t("报名", "Enter"),
        );
    }
    Desk::new(
        l,
        &auth,
        format!("{} · {}", st.name(), l.t("队伍", "Teams")),
        here.clone(),
    )
    .crumb(format!("/desk/e/{ev}"), st.name().to_string())
    .crumb(here, l.t("队伍", "Teams"))
    .flash(f)
    .render(StatusCode::OK, c)
}

#[derive(Deserialize)]
pub struct TeamFormIn {
    #[serde(default)]
    team: String,
    #[serde(default)]
    unit: String,
    division: Option<String>,
    #[serde(default)]
    members: String,
    leader: Option<String>,
    coach: Option<String>,
}

/// `P1 P2 3`, comma or space separated, as player ids.
fn members(s: &str) -> Result<Vec<PlayerId>, String> {
    s.split([',', '，', ' ', '、'])
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| {
            x.trim_start_matches(['P', 'p'])
                .parse::<u32>()
                .map(PlayerId)
                .map_err(|_| {
                    format!("队员编号 `{x}` 应为 P1 这样的编号 (a member is a player number)")
                })
        })
        .collect()
}

/// `POST /desk/e/{ev}/teams`.
pub async fn enter(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<Registrars, TeamFormIn>,
) -> Result<Response, WebError> {
    let here = path(&ev);
    let f = p.form;
    let list = match members(&f.members) {
        Ok(m) => m,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let form = TeamForm {
        team: f.team.trim().to_string(),
        unit: f.unit.trim().to_string(),
        division: opt(&f.division),
        members: list,
        leader: opt(&f.leader),
        coach: opt(&f.coach),
    };
    let name = form.team.clone();
    let done = write::apply(&app, &event_id(&ev), p.auth.actor(), move |st, ctx| {
        api::enter_team(st, ctx, &form)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("队伍 {name} 已报名 (team entered)")),
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn member_numbers_are_read() {
        use arbiter_core::PlayerId;
        assert_eq!(
            super::members("P1 p2, 3、P10").unwrap(),
            vec![PlayerId(1), PlayerId(2), PlayerId(3), PlayerId(10)]
        );
        assert!(super::members("P1 张三").unwrap_err().contains("张三"));
    }
}
