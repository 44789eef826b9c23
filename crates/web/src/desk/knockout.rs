//! The knockout stage of a section at the desk (`/desk/e/{ev}/s/{sec}/knockout`): the
//! bracket with every match's games, and the games due now (`results::due_knockout_games`),
//! each with its board number and a result form (`results::enter_result`, the same
//! operation as the result grid, with the game's fouls — the section's foul rule applies to a
//! knockout game as to any game; the colour choice of K7 when the format gives one). The
//! players' claims of the games due (`claim::pending_knockout`) are listed above the games,
//! and a game whose claims disagree is red, as on the results page.

use super::{back, event_id, Desk, EventSection, Flash};
use crate::app::AppState;
use crate::auth::{Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::public::views;
use crate::write;
use arbiter_director::api::results::{self as res, ResultInput};
use arbiter_director::api::rounds::{notation, parse_result};
use arbiter_director::command::games::GameCommand;
use arbiter_knockout::{MatchState, Side};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

pub fn path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/knockout")
}

/// `/desk/e/{ev}/s/{sec}/knockout`: the games due with a result form each (arbiters), and
/// the bracket round by round.
#[derive(Template)]
#[template(path = "desk/knockout.html")]
struct KnockoutPage<'a> {
    l: Lang,
    csrf: &'a str,
    here: &'a str,
    name: &'a str,
    /// `None` when the section has no knockout stage or has not reached it.
    stage: Option<Stage>,
    /// The account enters results.
    can: bool,
    /// The players' claims of the games due (`claim::pending_knockout`), in words, and
    /// whether each wants the arbiter (they disagree: red).
    claims: Vec<(String, bool)>,
}

/// The knockout stage: the games due and the bracket.
struct Stage {
    due: Vec<DueRow>,
    /// Each round's number and matches.
    columns: Vec<(usize, Vec<MatchBox>)>,
}

/// A game due now.
struct DueRow {
    board: u32,
    match_id: String,
    /// The match's label.
    label: String,
    /// The game's zero-based index in the match (what the form sends back).
    index: usize,
    /// The game's number in the match (one-based).
    game: usize,
    /// The game's kind as the regulation names it, with its time control.
    kind: String,
    red: String,
    black: String,
    /// The player who chooses the colours, when the format gives a choice.
    chooser: Option<String>,
    /// The game must keep a record (录谱).
    must_record: bool,
    /// The schedule's round of the match.
    round: u32,
    /// The players' claims of the game disagree (or a side claimed that may not sign): the
    /// row is red.
    flagged: bool,
}

/// A match of the bracket.
struct MatchBox {
    label: String,
    /// The match's board within its round; `None` for a match with a bye.
    board: Option<u32>,
    /// The two sides, `A — B`.
    players: String,
    /// Each game played: kind, red, result, black.
    games: Vec<String>,
    /// How it was won (胜者 / 轮空晋级) and by whom.
    winner: Option<(&'static str, String)>,
}

/// `GET /desk/e/{ev}/s/{sec}/knockout`.
pub async fn show(
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    es: EventSection,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (ev, sec) = (es.ev.as_str(), es.sec.as_str());
    let snap = &es.snap;
    let s2 = snap.clone();
    let sec2 = es.sec.clone();
    // The bracket and the due games, off the async threads (standings are computed).
    let (bracket, due, claims) = tokio::task::spawn_blocking(move || {
        let st = &s2.state;
        let reg = arbiter_director::regulation_of(st).map_err(|e| e.to_string())?;
        let has = crate::public::event::has_knockout(Some(&reg), &s2, &sec2);
        let bracket = if has {
            Some(
                arbiter_director::knockout_stage::bracket(&reg, st, &sec2)
                    .map_err(|e| e.to_string())?,
            )
        } else {
            None
        };
        let due = res::due_knockout_games(st, &sec2).map_err(|e| e.to_string())?;
        let claims = arbiter_director::claim::pending_knockout(st, &sec2);
        Ok::<_, String>((bracket, due, claims))
    })
    .await
    .map_err(|e| WebError::Internal(e.to_string()))?
    .map_err(WebError::Internal)?;
    let names = views::names(snap, sec);
    let label = |no: arbiter_types::PlayerNo| {
        names
            .get(&no.get())
            .map_or(format!("{no}"), |(n, _)| format!("{no}. {n}"))
    };
    let here = path(ev, sec);
    let stage = bracket.map(|b| {
        let due = due
            .iter()
            .map(|g| DueRow {
                board: g.board,
                match_id: g.match_id.clone(),
                label: g.label.clone(),
                index: g.game.index,
                game: g.game.index + 1,
                kind: b.format().game_label(g.game.step, g.game.kind),
                red: label(g.game.red),
                black: label(g.game.black),
                chooser: g.game.chooser.map(&label),
                must_record: g.must_record,
                round: g.round,
                flagged: claims.iter().any(|c| {
                    c.match_id == g.match_id
                        && c.game as usize == g.game.index
                        && c.status.flagged()
                }),
            })
            .collect();
        let columns = (1..=b.rounds())
            .map(|r| {
                let matches = b
                    .round(r)
                    .into_iter()
                    .map(|m| MatchBox {
                        label: m.label_zh(),
                        board: arbiter_director::api::rounds::knockout_board(&b, &m.id),
                        players: m
                            .sources
                            .iter()
                            .map(|&src| match b.side(src) {
                                Side::Player(p) => label(p),
                                Side::Absent => l.t("轮空", "bye").to_string(),
                                Side::Pending => "…".to_string(),
                            })
                            .collect::<Vec<_>>()
                            .join(" — "),
                        games: match &m.state {
                            MatchState::Playing(g) => g
                                .games()
                                .iter()
                                .map(|x| {
                                    format!(
                                        "{} {} {} {}",
                                        g.format().game_label(x.step, x.kind),
                                        label(x.red),
                                        views::result_label(l, notation(x.result)),
                                        label(x.black)
                                    )
                                })
                                .collect(),
                            _ => Vec::new(),
                        },
                        winner: match &m.state {
                            MatchState::Playing(g) => {
                                g.winner().map(|w| (l.t("胜者", "Winner"), label(w)))
                            }
                            MatchState::Walkover { winner: Some(w) } => {
                                Some((l.t("轮空晋级", "Walkover"), label(*w)))
                            }
                            _ => None,
                        },
                    })
                    .collect();
                (r, matches)
            })
            .collect();
        Stage { due, columns }
    });
    let page = KnockoutPage {
        l,
        csrf: &auth.csrf,
        here: &here,
        name: &es.name,
        stage,
        can: auth.may(arbiter_director::permission::Action::EnterResult),
        claims: claims
            .iter()
            .map(|c| (l.say(&c.describe()), c.status.flagged()))
            .collect(),
    };
    Desk::new(
        l,
        &auth,
        format!("{} · {}", es.name, l.t("淘汰赛", "Knockout")),
        here.clone(),
    )
    .event(ev, &snap.state)
    .crumb(here.clone(), l.t("淘汰赛", "Knockout"))
    .flash(f)
    .render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct KnockoutResult {
    #[serde(default)]
    board: String,
    #[serde(default)]
    result: String,
    match_id: Option<String>,
    game: Option<u32>,
    chooser_takes_black: Option<String>,
    /// The game's general fouls of each colour (a count, empty = 0).
    fouls_red: Option<String>,
    fouls_black: Option<String>,
    /// A phone foul (使用手机): `red` or `black`, empty = none.
    phone: Option<String>,
}

/// The fouls of a knockout form: each colour's general fouls, then the phone foul.
fn form_fouls(f: &KnockoutResult) -> Result<Vec<res::FoulInput>, String> {
    use arbiter_types::Colour;
    let count = |v: &Option<String>, what: &str| -> Result<u32, String> {
        match v.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            None => Ok(0),
            Some(t) => res::foul_count(t).map_err(|e| format!("{what}: {e}")),
        }
    };
    let mut input = ResultInput::new(0, arbiter_types::GameResult::Draw)
        .with_fouls(Colour::Red, count(&f.fouls_red, "红方犯规")?)
        .with_fouls(Colour::Black, count(&f.fouls_black, "黑方犯规")?);
    let phone = match f.phone.as_deref().map(str::trim).unwrap_or("") {
        "" => None,
        "red" => Some(Colour::Red),
        "black" => Some(Colour::Black),
        t => {
            return Err(format!(
                "手机犯规 「{t}」 应为 red 或 black (phone foul: red or black)"
            ))
        }
    };
    if let Some(colour) = phone {
        input.fouls.push(res::FoulInput {
            colour,
            kind: arbiter_core::FoulKind::Phone,
            reason: String::new(),
        });
    }
    Ok(input.fouls)
}

/// `POST /desk/e/{ev}/s/{sec}/knockout`: one knockout game's result.
pub async fn enter(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::EnterResult, KnockoutResult>,
) -> Result<Response, WebError> {
    let here = path(&ev, &sec);
    let f = p.form;
    let Ok(board) = f.board.trim().parse::<u32>() else {
        return Ok(back(
            &here,
            Err(format!(
                "台号 「{}」 应为正整数 (board: a number)",
                f.board.trim()
            )),
        ));
    };
    let result = match parse_result(&f.result) {
        Ok(r) => r,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let fouls = match form_fouls(&f) {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let mut input = ResultInput::new(board, result);
    input.fouls = fouls;
    input.chooser_takes_black = f.chooser_takes_black.is_some();
    input.expect_game = f.match_id.zip(f.game);
    let s2 = sec.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::EnterResult { section: s2, input },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("第{board}台成绩已录入 (result entered)")),
    ))
}
