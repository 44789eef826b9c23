//! The replay page of a recorded game (棋谱): `/e/{event}/s/{section}/r/{round}/b/{board}` —
//! the board as inline SVG (9×10 lines, the river 楚河 汉界, the palaces' diagonals, the pieces
//! as circles with their characters), the moves in Chinese notation, and the step buttons
//! (|< < > >|, arrow keys) of `assets/replay.js`. Every position is computed here, from the
//! director's `records::record_view`, and given to the script as board FENs in a data
//! attribute: the script only swaps them. Without the script the final position and the move
//! list still show. Names and pairing numbers only — nothing personal.

use super::views;
use super::{cached, render, Layout};
use crate::app::AppState;
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_director::api::records::{record_view, MovePair};
use askama::Template;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use std::fmt::Write as _;

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    layout: Layout,
    base: String,
    round: u32,
    red: (u32, String),
    black: (u32, String),
    result: &'static str,
    full_moves: u32,
    end: Option<String>,
    pairs: Vec<MovePair>,
    /// The board FENs of every position, `|`-separated (start … final).
    fens: String,
    /// The final position, drawn.
    svg: String,
    last: usize,
}

/// The character of a piece by its FEN letter: red 車馬相仕帥炮兵, black 车马象士将炮卒.
fn piece_char(c: char) -> Option<char> {
    Some(match c {
        'R' => '車',
        'N' | 'H' => '馬',
        'B' | 'E' => '相',
        'A' => '仕',
        'K' => '帥',
        'C' => '炮',
        'P' => '兵',
        'r' => '车',
        'n' | 'h' => '马',
        'b' | 'e' => '象',
        'a' => '士',
        'k' => '将',
        'c' => '炮',
        'p' => '卒',
        _ => return None,
    })
}

/// The pieces of a board FEN as SVG: a circle and a character each (rank 9 — black's back
/// rank — on top).
pub fn pieces_svg(fen: &str) -> String {
    let mut s = String::new();
    for (row, rank) in fen.split('/').take(10).enumerate() {
        let mut file = 0u32;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d;
                continue;
            }
            let Some(ch) = piece_char(c) else { continue };
            let (x, y) = (10 + file * 10, 10 + row as u32 * 10);
            let side = if c.is_ascii_uppercase() { "r" } else { "b" };
            let _ = write!(
                s,
                "<g class=\"pc {side}\"><circle cx=\"{x}\" cy=\"{y}\" r=\"4.5\"/><text x=\"{x}\" y=\"{y}\" dy=\"1.9\">{ch}</text></g>"
            );
            file += 1;
        }
    }
    s
}

/// The board (lines, river, palaces) with the pieces of `fen`.
pub fn board_svg(fen: &str, label: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"xq\" id=\"xq\" viewBox=\"0 0 100 110\" role=\"img\" aria-label=\"{label}\" xmlns=\"http://www.w3.org/2000/svg\">\
         <rect class=\"bg\" x=\"2\" y=\"2\" width=\"96\" height=\"106\"/><g class=\"ln\">"
    );
    // Ten horizontal lines.
    for r in 0..10 {
        let y = 10 + r * 10;
        let _ = write!(s, "<line x1=\"10\" y1=\"{y}\" x2=\"90\" y2=\"{y}\"/>");
    }
    // Nine vertical lines: the edges whole, the others broken by the river.
    for f in 0..9 {
        let x = 10 + f * 10;
        if f == 0 || f == 8 {
            let _ = write!(s, "<line x1=\"{x}\" y1=\"10\" x2=\"{x}\" y2=\"100\"/>");
        } else {
            let _ = write!(
                s,
                "<line x1=\"{x}\" y1=\"10\" x2=\"{x}\" y2=\"50\"/><line x1=\"{x}\" y1=\"60\" x2=\"{x}\" y2=\"100\"/>"
            );
        }
    }
    // The palaces' diagonals.
    s.push_str(
        "<line x1=\"40\" y1=\"10\" x2=\"60\" y2=\"30\"/><line x1=\"60\" y1=\"10\" x2=\"40\" y2=\"30\"/>\
         <line x1=\"40\" y1=\"80\" x2=\"60\" y2=\"100\"/><line x1=\"60\" y1=\"80\" x2=\"40\" y2=\"100\"/></g>\
         <text class=\"river\" x=\"30\" y=\"55\" dy=\"1.8\">楚 河</text><text class=\"river\" x=\"70\" y=\"55\" dy=\"1.8\">汉 界</text>",
    );
    let _ = write!(s, "<g id=\"xq-pieces\">{}</g></svg>", pieces_svg(fen));
    s
}

fn game_page(
    s: &crate::cache::Snapshot,
    l: Lang,
    section: &str,
    round: u32,
    board: u32,
    path: String,
) -> Result<GamePage, WebError> {
    let sheet = views::sheet(s, section, round)?;
    let name = views::section_name_in(s, l, section)?;
    let not_found = || {
        WebError::NotFound(format!(
            "第{round}轮第{board}台没有棋谱 (no game record on round {round} board {board})"
        ))
    };
    let line = sheet
        .boards
        .iter()
        .find(|b| b.board == board)
        .ok_or_else(not_found)?;
    let rec = s
        .state
        .section(section)
        .and_then(|x| x.round(round))
        .and_then(|r| r.board(board))
        .and_then(|b| b.record.as_ref())
        .ok_or_else(not_found)?;
    let view = record_view(rec).ok_or_else(not_found)?;
    let title = format!(
        "{name} {}{round}{}{board}{}",
        l.t("第", "round "),
        l.t("轮第", ", board "),
        l.t("台 棋谱", "")
    );
    let last = view.fens.len() - 1;
    Ok(GamePage {
        layout: Layout::event(l, s, title, path, Some(section)),
        base: format!("/e/{}/s/{section}", s.event),
        round,
        red: (line.red.no, line.red.name.clone()),
        black: (line.black.no, line.black.name.clone()),
        result: line
            .result
            .as_deref()
            .map_or("", |n| views::result_label(l, n)),
        full_moves: view.full_moves,
        end: view.end.clone(),
        pairs: view.pairs.clone(),
        svg: board_svg(&view.fens[last], l.t("棋盘", "board")),
        fens: view.fens.join("|"),
        last,
    })
}

pub(super) async fn game(
    State(app): State<AppState>,
    Path((event, section, round, board)): Path<(String, String, u32, u32)>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    // A board without a game record (or a round, section or board the event does not have)
    // is a 404 before anything is cached.
    views::sheet(&snap, &section, round)?;
    let recorded = snap
        .state
        .section(&section)
        .and_then(|x| x.round(round))
        .and_then(|r| r.board(board))
        .is_some_and(|b| b.record.is_some());
    if !recorded {
        return Err(WebError::NotFound(format!(
            "第{round}轮第{board}台没有棋谱 (no game record on round {round} board {board})"
        )));
    }
    let path = format!("/e/{event}/s/{section}/r/{round}/b/{board}");
    cached(&snap, path.clone(), l, &headers, move |s| {
        render(&game_page(s, l, &section, round, board, path.clone())?)
    })
    .await
}
