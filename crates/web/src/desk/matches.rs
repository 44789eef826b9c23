//! A team-match round at the desk (团体赛, A15): the match sheet (每场对阵, both line-ups board
//! by board, who is red, each board's result and the match's running score), the line-up
//! form of every team (出场名单, handed in by a captain and typed here while none of the
//! team's games has a result), a team that does not appear (全队弃权), and each captain's
//! confirmation of his team's match (队长确认: 「已确认 · 张三」 / 「未确认」 per side, and a form
//! once every board of the match has a result). The result grid takes a board as the round's
//! board number or as 「场次.台次」 (3.2: match 3, board 2).

use super::{back, event_id, opt};
use crate::app::AppState;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::{EventState, PlayerId};
use arbiter_director::api::rounds::RoundSheet;
use arbiter_director::command::games::GameCommand;
use arbiter_director::command::rounds::RoundCommand;
use arbiter_director::command::Outcome;
use arbiter_director::crosstable::points_text;
use arbiter_director::team_match::{self, MatchView};
use arbiter_regulation::Regulation;
use arbiter_types::Colour;
use axum::extract::{Path, State};
use axum::response::Response;

/// A round of a team section as the desk shows it.
pub struct TeamSheet {
    pub round: u32,
    /// Boards in a match.
    pub boards: u32,
    pub matches: Vec<MatchRows>,
    /// The team with a bye, if any.
    pub bye: Option<String>,
    /// Every playing team's line-up form, in match order (first team, then second).
    pub lineups: Vec<LineupForm>,
    /// The teams with a match this round (for 全队弃权).
    pub playing: Vec<String>,
    /// The account may record a captain's confirmation (set by the page: `Authed::may`).
    pub confirm: bool,
    /// The page the confirmation form comes back to (`round` or `results`).
    pub page: &'static str,
}

/// One match of the sheet.
pub struct MatchRows {
    pub no: u32,
    /// 「第3场 甲队 2½:1½ 乙队 · 甲队胜」.
    pub line: String,
    pub rows: Vec<MatchRow>,
    /// Every board of the match has its result: the captains may confirm it.
    pub finished: bool,
    /// Each side's captain's confirmation, the team named first first.
    pub sides: Vec<MatchSide>,
}

/// One team of a match and its captain's confirmation (队长确认).
pub struct MatchSide {
    pub team: String,
    pub confirmed: bool,
    /// 「已确认 · 张三」, 「已确认」 or 「未确认」.
    pub words: String,
}

/// One board of a match. `game`: a game is played there (an empty seat has none: the absent
/// side's forfeit).
pub struct MatchRow {
    /// 「3.2」.
    pub mb: String,
    /// The round's board number.
    pub board: u32,
    pub game: bool,
    pub red: String,
    pub black: String,
    /// The board's 局分, red's : black's, once it has a result.
    pub points: String,
    /// The result read from red's side (`1-0` …), empty until entered; 「弃权」 on an empty
    /// seat.
    pub result: String,
}

/// A team's line-up form for the round.
pub struct LineupForm {
    pub team: String,
    pub match_no: u32,
    /// The opponent's name.
    pub against: String,
    /// The player id seated on each board (empty: an empty board).
    pub seats: Vec<String>,
    /// The roster in registered order: (id, label, may play).
    pub roster: Vec<(String, String, bool)>,
    /// None of the team's games has a result: the line-up may still be changed.
    pub open: bool,
}

/// The match's line for the desk: 「第3场 甲队 2½:1½ 乙队 · 甲队胜」 (「· 进行中」 while in play).
pub fn match_line(l: Lang, m: &MatchView) -> String {
    let state = crate::public::team::result_words(l, m)
        .unwrap_or_else(|| l.t("进行中", "in play").to_string());
    match l {
        Lang::Zh => format!(
            "第{}场 {} {}:{} {} · {state}",
            m.no,
            m.first,
            points_text(m.first_points),
            points_text(m.second_points),
            m.second
        ),
        Lang::En => format!(
            "Match {}: {} {}:{} {} · {state}",
            m.no,
            m.first,
            points_text(m.first_points),
            points_text(m.second_points),
            m.second
        ),
    }
}

/// The team sheet of `sheet`'s round when `sec` is a team-match section.
pub fn team_sheet(
    l: Lang,
    st: &EventState,
    reg: &Regulation,
    sec: &str,
    sheet: &RoundSheet,
) -> Option<TeamSheet> {
    let (_, tm) = team_match::rules_of(reg, sec)?;
    let v = team_match::round_view(reg, st, sec, sheet.round)?;
    let rec = st.section(sec)?;
    let tr = rec.matches.get(&sheet.round)?;
    let label = |p: Option<&team_match::SeatView>| match p {
        Some(s) => match s.no {
            Some(n) => format!("{n}. {}", s.name),
            None => s.name.clone(),
        },
        None => l.t("(空台)", "(empty)").to_string(),
    };
    let mut matches = Vec::new();
    let mut lineups = Vec::new();
    let mut playing = Vec::new();
    for m in &v.matches {
        let rows = m
            .boards
            .iter()
            .map(|b| {
                let game = sheet.boards.iter().find(|g| g.board == b.round_board);
                let (first, second) = (label(b.first.as_ref()), label(b.second.as_ref()));
                // The first team is red where the game's red player is its seat (colours
                // swapped on a board are kept as played).
                let red_first = game.map_or(b.first_colour == Colour::Red, |g| {
                    b.first.as_ref().is_some_and(|s| s.no == Some(g.red.no))
                });
                let (red_team, black_team) = if red_first {
                    (&m.first, &m.second)
                } else {
                    (&m.second, &m.first)
                };
                let (red, black) = match game {
                    Some(g) => (
                        format!("{}. {} ({red_team})", g.red.no, g.red.name),
                        format!("{}. {} ({black_team})", g.black.no, g.black.name),
                    ),
                    None if red_first => (
                        format!("{first} ({red_team})"),
                        format!("{second} ({black_team})"),
                    ),
                    None => (
                        format!("{second} ({red_team})"),
                        format!("{first} ({black_team})"),
                    ),
                };
                let points = if b.result.is_some() {
                    let (f, s) = (points_text(b.first_points), points_text(b.second_points));
                    if red_first {
                        format!("{f} : {s}")
                    } else {
                        format!("{s} : {f}")
                    }
                } else {
                    String::new()
                };
                MatchRow {
                    mb: format!("{}.{}", m.no, b.board),
                    board: b.round_board,
                    game: game.is_some(),
                    red,
                    black,
                    points,
                    result: match game {
                        Some(g) => g.result.clone().unwrap_or_default(),
                        None => l.t("弃权", "forfeit").to_string(),
                    },
                }
            })
            .collect();
        let side = |team: &String, by: &Option<String>| MatchSide {
            team: team.clone(),
            confirmed: by.is_some(),
            words: confirmation_words(l, by.as_deref()),
        };
        matches.push(MatchRows {
            no: m.no,
            line: match_line(l, m),
            rows,
            finished: m.result.is_some(),
            sides: vec![
                side(&m.first, &m.first_confirmed),
                side(&m.second, &m.second_confirmed),
            ],
        });
        let open = m.boards.iter().all(|b| {
            sheet
                .boards
                .iter()
                .all(|g| g.board != b.round_board || g.result.is_none())
        });
        for (team, against) in [(&m.first, &m.second), (&m.second, &m.first)] {
            playing.push(team.clone());
            let Some(t) = st.teams.get(team) else {
                continue;
            };
            let seats = tr
                .lineups
                .get(team)
                .cloned()
                .unwrap_or_else(|| team_match::lineup_of(st, tm, sec, t, sheet.round));
            let roster = t
                .members
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let name = st
                        .player(*p)
                        .map_or_else(String::new, |r| r.person.name.clone());
                    let place = if (i as u32) < tm.boards {
                        match l {
                            Lang::Zh => format!("{}台", i + 1),
                            Lang::En => format!("board {}", i + 1),
                        }
                    } else {
                        l.t("替补", "reserve").to_string()
                    };
                    let out = st.status(*p).is_some_and(|s| s.is_out());
                    let mut label = format!("{name} · {place}");
                    if out {
                        label.push_str(l.t(" · 已退赛", " · withdrawn"));
                    }
                    (p.0.to_string(), label, !out)
                })
                .collect();
            lineups.push(LineupForm {
                team: team.clone(),
                match_no: m.no,
                against: against.clone(),
                seats: seats
                    .iter()
                    .map(|s| s.map_or_else(String::new, |p| p.0.to_string()))
                    .collect(),
                roster,
                open,
            });
        }
    }
    Some(TeamSheet {
        round: sheet.round,
        boards: tm.boards,
        matches,
        bye: v.bye,
        lineups,
        playing,
        confirm: false,
        page: "results",
    })
}

/// A side's captain's confirmation in words: 「已确认 · 张三」 (「已确认」 without a name),
/// 「未确认」.
pub fn confirmation_words(l: Lang, by: Option<&str>) -> String {
    match by.map(str::trim) {
        Some("") => l.t("已确认", "confirmed").to_string(),
        Some(name) => format!("{} · {name}", l.t("已确认", "confirmed")),
        None => l.t("未确认", "not confirmed").to_string(),
    }
}

/// A round's board in words: 「第10台」, or in a team match 「第3场第2台」.
pub fn board_words(reg: Option<&Regulation>, sec: &str, board: u32) -> String {
    match reg.and_then(|r| team_match::rules_of(r, sec)) {
        Some((_, tm)) if tm.boards > 0 && board > 0 => {
            let (m, b) = ((board - 1) / tm.boards + 1, (board - 1) % tm.boards + 1);
            format!("第{m}场第{b}台")
        }
        _ => format!("第{board}台"),
    }
}

/// The match of the round's board `board` and its line, in a team-match section.
pub fn match_of_board(
    l: Lang,
    st: &EventState,
    sec: &str,
    sheet: &RoundSheet,
    board: u32,
) -> Option<(u32, String)> {
    let reg = arbiter_director::regulation_of(st).ok()?;
    let (_, tm) = team_match::rules_of(&reg, sec)?;
    if tm.boards == 0 || board == 0 {
        return None;
    }
    let no = (board - 1) / tm.boards + 1;
    let v = team_match::round_view(&reg, st, sec, sheet.round)?;
    let m = v.matches.iter().find(|m| m.no == no)?;
    Some((no, match_line(l, m)))
}

fn round_path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/round")
}

/// `POST /desk/e/{ev}/s/{sec}/lineup`: a team's line-up for a round — `team`, `round`, `by`
/// (who handed it in) and `b1` … `bN`, each a player's id or empty (an empty board).
pub async fn lineup(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: crate::auth::Post<crate::auth::GiveLineup, Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let here = round_path(&ev, &sec);
    let field = |k: &str| {
        p.form
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.trim().to_string())
    };
    let Some(team) = field("team").filter(|t| !t.is_empty()) else {
        return Ok(back(&here, Err("请选择队伍 (no team named)".into())));
    };
    let Some(Ok(round)) = field("round").map(|r| r.parse::<u32>()) else {
        return Ok(back(&here, Err("轮次应为正整数 (round number)".into())));
    };
    let mut players = Vec::new();
    for i in 1.. {
        let Some(v) = field(&format!("b{i}")) else {
            break;
        };
        if v.is_empty() {
            players.push(None);
            continue;
        }
        match v.parse::<u32>() {
            Ok(n) => players.push(Some(PlayerId(n))),
            Err(_) => {
                return Ok(back(
                    &here,
                    Err(format!("第{i}台: 「{v}」 不是本队队员 (not a member)")),
                ))
            }
        }
    }
    let by = field("by").unwrap_or_default();
    let t2 = team.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RoundCommand::Lineup {
            section: sec.clone(),
            round,
            team: t2,
            players,
            by,
        },
    )
    .await?;
    let snap = app.snapshot(&ev).await?;
    let unpublished = snap
        .state
        .section(&sec)
        .and_then(|s| s.round(round))
        .is_some_and(|r| !r.published);
    Ok(back(
        &here,
        done.map(|_| {
            let again = if unpublished {
                "; 全部名单录入后请公布对阵表 (publish the pairing once every line-up is in)"
            } else {
                ""
            };
            format!(
                "{team} 第{round}轮出场名单已录入, 本轮对局已按名单重新排定{again} (line-up taken)"
            )
        }),
    ))
}

/// `POST /desk/e/{ev}/s/{sec}/team-absent`: a team that does not appear — every game of its
/// match entered as its forfeit.
pub async fn absent(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: crate::auth::Post<crate::auth::EnterResult, AbsentForm>,
) -> Result<Response, WebError> {
    let here = format!("/desk/e/{ev}/s/{sec}/results");
    let Some(team) = opt(&p.form.team) else {
        return Ok(back(&here, Err("请选择队伍 (no team named)".into())));
    };
    let round = opt(&p.form.round).and_then(|r| r.parse::<u32>().ok());
    let t2 = team.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::TeamAbsent {
            section: sec.clone(),
            round,
            team: t2,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("{team} 全队弃权: 本场各台均按其弃权录入 (team forfeited its match)")),
    ))
}

#[derive(serde::Deserialize)]
pub struct AbsentForm {
    team: Option<String>,
    round: Option<String>,
}

/// `POST /desk/e/{ev}/s/{sec}/confirm-match`: a team's captain confirms its match (队长确认) —
/// `team`, `round`, `by` (the captain's name); `back=round` returns to the round page, else
/// to the result grid.
pub async fn confirm(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: crate::auth::Post<crate::auth::ConfirmMatch, ConfirmForm>,
) -> Result<Response, WebError> {
    let here = if opt(&p.form.back).as_deref() == Some("round") {
        round_path(&ev, &sec)
    } else {
        format!("/desk/e/{ev}/s/{sec}/results")
    };
    let Some(team) = opt(&p.form.team) else {
        return Ok(back(&here, Err("请选择队伍 (no team named)".into())));
    };
    let round = match opt(&p.form.round).map(|r| r.parse::<u32>()) {
        None => None,
        Some(Ok(r)) => Some(r),
        Some(Err(_)) => return Ok(back(&here, Err("轮次应为正整数 (round number)".into()))),
    };
    let by = opt(&p.form.by).unwrap_or_default();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::ConfirmMatch {
            section: sec.clone(),
            round,
            team,
            by,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|d| match d.outcome {
            Outcome::MatchConfirmed {
                team,
                by,
                round,
                match_no,
                opponent_by,
                ..
            } => {
                let captain = if by.is_empty() {
                    "队长".to_string()
                } else {
                    format!("队长 {by}")
                };
                let both = if opponent_by.is_some() {
                    "; 双方队长均已确认"
                } else {
                    ""
                };
                format!("第{round}轮 第{match_no}场 {team} {captain} 已确认{both} (the captain's confirmation is recorded)")
            }
            _ => "已确认 (recorded)".to_string(),
        }),
    ))
}

#[derive(serde::Deserialize)]
pub struct ConfirmForm {
    team: Option<String>,
    round: Option<String>,
    by: Option<String>,
    back: Option<String>,
}
