//! Teams at the desk (`/desk/e/{ev}/teams`): every team with its unit, division, leader,
//! coach and members; enter a team with its roster (`entries::enter_team`: K1–K3, one
//! roster per team — the director judges it); add, remove or replace a member
//! (`entries::change_roster`: after the team's first game only the chief arbiter, with a
//! reason — the page passes whether the account is the chief arbiter).

use super::{back, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::PlayerId;
use arbiter_director::api::entries::{self as api, RosterChange, TeamForm};
use arbiter_director::command::registration::RegistrationCommand;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

pub fn path(ev: &str) -> String {
    format!("/desk/e/{ev}/teams")
}

/// `/desk/e/{ev}/teams`: the teams, and (for the registration desk) the forms to change a
/// roster and to enter a team.
#[derive(Template)]
#[template(path = "desk/teams.html")]
struct TeamsPage<'a> {
    l: Lang,
    csrf: &'a str,
    ev: &'a str,
    here: &'a str,
    event_name: &'a str,
    teams: Vec<TeamRow<'a>>,
    /// Id, section name and name of every division.
    divisions: Vec<(&'a str, &'a str, &'a str)>,
    /// A team has played (its roster is the chief arbiter's alone).
    started: bool,
    /// The account enters teams and changes rosters.
    registrar: bool,
    /// The account may withdraw players (and so a whole team).
    withdraws: bool,
}

/// One team.
struct TeamRow<'a> {
    team: &'a str,
    unit: &'a str,
    division: String,
    leader: &'a str,
    coach: &'a str,
    /// Number and name of each member.
    /// Each member's id (the link) and how he is read (「序号 3 张三」, before the draw 「P12 张三」).
    members: Vec<(u32, String)>,
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
    let teams = st
        .teams
        .values()
        .map(|t| TeamRow {
            team: &t.team,
            unit: &t.unit,
            division: match (&t.section, &t.division) {
                (Some(sec), Some(d)) => st
                    .section(sec)
                    .and_then(|s| s.divisions.iter().find(|x| &x.id == d))
                    .map_or(d.clone(), |x| x.name.clone()),
                (_, Some(d)) => d.clone(),
                _ => String::new(),
            },
            leader: t.leader.as_deref().unwrap_or(""),
            coach: t.coach.as_deref().unwrap_or(""),
            members: t
                .members
                .iter()
                .map(|m| (m.0, arbiter_director::api::entries::named(st, *m)))
                .collect(),
        })
        .collect();
    let divisions = st
        .sections
        .values()
        .flat_map(|s| {
            s.divisions
                .iter()
                .map(|d| (d.id.as_str(), s.name.as_str(), d.name.as_str()))
        })
        .collect();
    let page = TeamsPage {
        l,
        csrf: &auth.csrf,
        ev: &ev,
        here: &here,
        event_name: st.name(),
        teams,
        divisions,
        started: st.teams.keys().any(|t| api::team_started(st, t)),
        registrar: auth.may(arbiter_director::permission::Action::EnterTeam),
        withdraws: auth.may(arbiter_director::permission::Action::Withdraw),
    };
    Desk::new(
        l,
        &auth,
        format!("{} · {}", st.name(), l.t("队伍", "Teams")),
        here.clone(),
    )
    .event(&ev, st)
    .crumb(here.clone(), l.t("队伍", "Teams"))
    .flash(f)
    .render(StatusCode::OK, &page)
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
                    format!("队员编号 「{x}」 应为 P1 这样的编号 (a member is a player number)")
                })
        })
        .collect()
}

/// `POST /desk/e/{ev}/teams`.
pub async fn enter(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::EnterTeam, TeamFormIn>,
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
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::EnterTeam { form },
    )
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
            "请填写一个队员编号, 如 P7 (one player number, e.g. P7): 「{s}」"
        )),
    }
}

/// `POST /desk/e/{ev}/teams/roster`: add, remove or replace a member.
pub async fn roster(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::ChangeRoster, RosterFormIn>,
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
                Err(format!("未知操作 「{other}」 (unknown action)")),
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
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::ChangeRoster { change },
    )
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

#[derive(serde::Deserialize)]
pub struct WithdrawTeamForm {
    #[serde(default)]
    team: String,
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/teams/withdraw`: 整队退赛 — every member of the team withdrawn with the
/// reason; the team is not paired again.
pub async fn withdraw(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::Withdraw, WithdrawTeamForm>,
) -> Result<Response, WebError> {
    let here = path(&ev);
    let f = p.form;
    let team = f.team.trim().to_string();
    if f.reason.trim().is_empty() {
        return Ok(back(
            &here,
            Err("整队退赛须填写理由 (a reason is needed)".into()),
        ));
    }
    let done = crate::write::apply(
        &app,
        &super::event_id(&ev),
        &p.auth,
        arbiter_director::command::registration::RegistrationCommand::WithdrawTeam {
            team: team.clone(),
            reason: f.reason.trim().to_string(),
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|a| {
            format!(
                "{team} 整队退赛: {} 名队员已退赛, 不再编排 (team withdrawn)",
                a.entries.len()
            )
        }),
    ))
}
