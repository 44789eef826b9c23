//! Teams at the desk (`/desk/e/{ev}/teams`): every team with its unit, division, leader,
//! coach and members; enter a team with its roster (`entries::enter_team`: K1–K3, one
//! roster per team — the director judges it); add, remove or replace a member
//! (`entries::change_roster`: after the team's first game only the chief arbiter, with a
//! reason — the page passes whether the account is the chief arbiter).

use super::{back, csrf_field, e, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, Registrars, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::PlayerId;
use arbiter_director::api::entries::{self as api, RosterChange, TeamForm};
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
    if auth.is(&[Role::Organiser, Role::ChiefArbiter, Role::Desk]) && !st.teams.is_empty() {
        let mut teams = String::new();
        for t in st.teams.values() {
            let _ = write!(teams, "<option value=\"{n}\">{n}</option>", n = e(&t.team));
        }
        let started = st.teams.keys().any(|t| api::team_started(st, t));
        let _ = write!(
            c,
            "<h2>{h}</h2>{warn}<form method=\"post\" action=\"{action}/roster\" class=\"stack\" id=\"change-roster\">{csrf}\
             <label>{tl} <select name=\"team\">{teams}</select></label>\
             <label>{al} <select name=\"action\"><option value=\"add\">{add}</option>\
             <option value=\"remove\">{remove}</option><option value=\"replace\">{replace}</option></select></label>\
             <label>{pl} <input name=\"player\" placeholder=\"P7\" required></label>\
             <label>{bl} <input name=\"by\" placeholder=\"P9\"></label>\
             <label>{rl} <input name=\"reason\"></label>\
             <button type=\"submit\">{b}</button></form>",
            h = l.t("更改队伍名单", "Change a roster"),
            warn = if started {
                format!(
                    "<p class=\"warn\">{}</p>",
                    l.t(
                        "已开始比赛的队伍: 只有裁判长可以更改名单, 并须说明理由。",
                        "A team that has played: only the chief arbiter changes its roster, with a reason."
                    )
                )
            } else {
                String::new()
            },
            action = e(&here),
            csrf = csrf_field(&auth),
            tl = l.t("队伍", "Team"),
            al = l.t("操作", "Action"),
            add = l.t("增补队员", "Add a player"),
            remove = l.t("移出队员", "Remove a player"),
            replace = l.t("替换队员", "Replace a player"),
            pl = l.t("队员编号", "Player"),
            bl = l.t("替换为 (仅替换)", "Replaced by (replace only)"),
            rl = l.t("理由", "Reason"),
            b = l.t("更改", "Change"),
        );
    }
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
    .render_html(StatusCode::OK, c)
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
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::enter_team(st, ctx, &form)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("队伍 {name} 已报名 (team entered)")),
    ))
}

#[derive(Deserialize)]
pub struct RosterFormIn {
    #[serde(default)]
    team: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    player: String,
    by: Option<String>,
    #[serde(default)]
    reason: String,
}

/// One player number from a form field (`P7` or `7`).
fn one_player(s: &str) -> Result<PlayerId, String> {
    match members(s)?.as_slice() {
        [p] => Ok(*p),
        _ => Err(format!(
            "请填写一个队员编号, 如 P7 (one player number, e.g. P7): `{s}`"
        )),
    }
}

/// `POST /desk/e/{ev}/teams/roster`: add, remove or replace a member.
pub async fn roster(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<Registrars, RosterFormIn>,
) -> Result<Response, WebError> {
    let here = path(&ev);
    let f = p.form;
    let player = match one_player(&f.player) {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let (add, remove) = match f.action.as_str() {
        "add" => (vec![player], Vec::new()),
        "remove" => (Vec::new(), vec![player]),
        "replace" => match opt(&f.by).as_deref().map(one_player) {
            Some(Ok(by)) => (vec![by], vec![player]),
            Some(Err(m)) => return Ok(back(&here, Err(m))),
            None => {
                return Ok(back(
                    &here,
                    Err(
                        "替换队员须填写替换为的队员编号 (replace needs the player who joins)"
                            .into(),
                    ),
                ))
            }
        },
        other => {
            return Ok(back(
                &here,
                Err(format!("未知操作 `{other}` (unknown action)")),
            ))
        }
    };
    let change = RosterChange {
        team: f.team.trim().to_string(),
        add,
        remove,
        reason: f.reason,
    };
    let name = change.team.clone();
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::change_roster(st, ctx, &change)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("队伍 {name} 的名单已更改 (roster changed)")),
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
