//! The knockout stage of a section at the desk (`/desk/e/{ev}/s/{sec}/knockout`): the
//! bracket with every match's games, and the games due now (`results::due_knockout_games`),
//! each with its board number and a result form (`results::enter_result`, the same
//! operation as the result grid; the colour choice of K7 when the format gives one).

use super::{back, csrf_field, e, event_id, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Arbiters, Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::public::views;
use crate::write;
use arbiter_director::api::results::{self as res, ResultInput};
use arbiter_director::api::rounds::{notation, parse_result};
use arbiter_knockout::{MatchState, Side};
use arbiter_store::Role;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use std::fmt::Write;

pub fn path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/knockout")
}

/// `GET /desk/e/{ev}/s/{sec}/knockout`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path((ev, sec)): Path<(String, String)>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let sec_name = views::section_name(&snap, &sec)?;
    let s2 = snap.clone();
    let sec2 = sec.clone();
    // The bracket and the due games, off the async threads (standings are computed).
    let (reg, bracket, due) = tokio::task::spawn_blocking(move || {
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
        Ok::<_, String>((reg, bracket, due))
    })
    .await
    .map_err(|e| WebError::Internal(e.to_string()))?
    .map_err(WebError::Internal)?;
    let _ = reg;
    let names = views::names(&snap, &sec);
    let label = |no: arbiter_types::PlayerNo| {
        names
            .get(&no.get())
            .map_or(format!("{no}"), |(n, _)| format!("{no}. {}", e(n)))
    };
    let here = path(&ev, &sec);
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{} · {}</h1>",
        e(&sec_name),
        l.t("淘汰赛", "Knockout")
    );
    let Some(b) = bracket else {
        let _ = write!(
            c,
            "<p>{}</p>",
            l.t(
                "本组没有淘汰赛阶段, 或尚未进入淘汰赛。",
                "This section has no knockout stage, or has not reached it yet."
            )
        );
        return Desk::new(
            l,
            &auth,
            format!("{sec_name} · {}", l.t("淘汰赛", "Knockout")),
            here.clone(),
        )
        .crumb(format!("/desk/e/{ev}"), snap.state.name().to_string())
        .crumb(here, l.t("淘汰赛", "Knockout"))
        .flash(f)
        .render_html(StatusCode::OK, c);
    };
    // The games due now, with a result form each.
    let _ = write!(c, "<h2>{}</h2>", l.t("待录入的对局", "Games due"));
    if due.is_empty() {
        let _ = write!(
            c,
            "<p>{}</p>",
            l.t("现在没有待下的对局。", "No game is due now.")
        );
    } else {
        let _ = write!(
            c,
            "<table class=\"grid\" id=\"due\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            l.t("台", "Board"),
            l.t("场次", "Match"),
            l.t("局", "Game"),
            l.t("红方", "Red"),
            l.t("黑方", "Black"),
            l.t("成绩", "Result"),
        );
        let can = auth.is(&[Role::ChiefArbiter, Role::Arbiter]);
        let csrf = csrf_field(&auth);
        for g in &due {
            let form = if can {
                let choice = match g.game.chooser {
                    Some(ch) => format!(
                        "<label><input type=\"checkbox\" name=\"chooser_takes_black\" value=\"1\"> {} {}</label>",
                        label(ch),
                        l.t("选择执黑", "chose black")
                    ),
                    None => String::new(),
                };
                format!(
                    "<form method=\"post\" action=\"{action}\" class=\"inline\">{csrf}\
                     <input type=\"hidden\" name=\"board\" value=\"{board}\">\
                     <input type=\"hidden\" name=\"match_id\" value=\"{mid}\">\
                     <input type=\"hidden\" name=\"game\" value=\"{gi}\">\
                     <select name=\"result\"><option value=\"1-0\">{rw}</option><option value=\"0-1\">{bw}</option>\
                     <option value=\"=\">{dr}</option><option value=\"+-\">{bf}</option><option value=\"-+\">{rf}</option></select>\
                     {choice}<button>{enter}</button></form>",
                    action = e(&here),
                    board = g.board,
                    mid = e(&g.match_id),
                    gi = g.game.index,
                    rw = l.t("红胜", "red wins"),
                    bw = l.t("黑胜", "black wins"),
                    dr = l.t("和", "draw"),
                    bf = l.t("黑方弃权", "black forfeits"),
                    rf = l.t("红方弃权", "red forfeits"),
                    enter = l.t("录入", "Enter"),
                )
            } else {
                String::new()
            };
            let _ = write!(
                c,
                "<tr data-board=\"{}\"><td>{}</td><td>{}</td><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                g.board,
                g.board,
                e(&g.label),
                g.game.index + 1,
                g.game.kind.zh(),
                label(g.game.red),
                label(g.game.black),
                form
            );
        }
        c.push_str("</tbody></table>");
    }
    let offset =
        arbiter_director::api::rounds::knockout_board_offset_of(&snap.state, &sec).unwrap_or(0);
    // The bracket, round by round.
    let _ = write!(
        c,
        "<h2>{}</h2><div class=\"bracket\">",
        l.t("对阵图", "Bracket")
    );
    for r in 1..=b.rounds() {
        let _ = write!(
            c,
            "<div class=\"col\"><h3>{}{r}{}</h3>",
            l.t("第", "Round "),
            l.t("轮", "")
        );
        for m in b.round(r) {
            let board =
                arbiter_director::api::rounds::knockout_board(offset, &b, &m.id).unwrap_or(0);
            let players: Vec<String> = m
                .sources
                .iter()
                .map(|&src| match b.side(src) {
                    Side::Player(p) => label(p),
                    Side::Absent => l.t("轮空", "bye").to_string(),
                    Side::Pending => "…".to_string(),
                })
                .collect();
            let _ = write!(
                c,
                "<div class=\"match\"><div class=\"muted\">{} · {}{board}{}</div><div>{}</div>",
                e(&m.label_zh()),
                l.t("第", "board "),
                l.t("台", ""),
                players.join(" — ")
            );
            match &m.state {
                MatchState::Playing(g) => {
                    for x in g.games() {
                        let _ = write!(
                            c,
                            "<div class=\"muted\">{} {} {} {}</div>",
                            x.kind.zh(),
                            label(x.red),
                            views::result_label(l, notation(x.result)),
                            label(x.black)
                        );
                    }
                    if let Some(w) = g.winner() {
                        let _ = write!(
                            c,
                            "<div class=\"w\">{} {}</div>",
                            l.t("胜者", "Winner"),
                            label(w)
                        );
                    }
                }
                MatchState::Walkover { winner: Some(w) } => {
                    let _ = write!(
                        c,
                        "<div class=\"w\">{} {}</div>",
                        l.t("轮空晋级", "Walkover"),
                        label(*w)
                    );
                }
                _ => {}
            }
            c.push_str("</div>");
        }
        c.push_str("</div>");
    }
    c.push_str("</div>");
    Desk::new(
        l,
        &auth,
        format!("{sec_name} · {}", l.t("淘汰赛", "Knockout")),
        here.clone(),
    )
    .crumb(format!("/desk/e/{ev}"), snap.state.name().to_string())
    .crumb(here, l.t("淘汰赛", "Knockout"))
    .flash(f)
    .render_html(StatusCode::OK, c)
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
}

/// `POST /desk/e/{ev}/s/{sec}/knockout`: one knockout game's result.
pub async fn enter(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Arbiters, KnockoutResult>,
) -> Result<Response, WebError> {
    let here = path(&ev, &sec);
    let f = p.form;
    let Ok(board) = f.board.trim().parse::<u32>() else {
        return Ok(back(
            &here,
            Err(format!(
                "台号 `{}` 应为正整数 (board: a number)",
                f.board.trim()
            )),
        ));
    };
    let result = match parse_result(&f.result) {
        Ok(r) => r,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let mut input = ResultInput::new(board, result);
    input.chooser_takes_black = f.chooser_takes_black.is_some();
    input.expect_game = f.match_id.zip(f.game);
    let s2 = sec.clone();
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        res::enter_result(st, ctx, &s2, &input)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("第{board}台成绩已录入 (result entered)")),
    ))
}
