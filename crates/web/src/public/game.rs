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
    board: Board,
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

/// The board drawn on the replay page (`templates/board.html`): its label and the pieces of
/// one position.
pub struct Board {
    label: &'static str,
    pieces: Vec<Piece>,
}

/// A piece on the board: its side (`r` or `b`), its point and its character.
struct Piece {
    side: &'static str,
    x: u32,
    y: u32,
    ch: char,
}

impl Board {
    /// The pieces of a board FEN (rank 9 — black's back rank — on top).
    pub fn new(fen: &str, label: &'static str) -> Board {
        let mut pieces = Vec::new();
        for (row, rank) in fen.split('/').take(10).enumerate() {
            let mut file = 0u32;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d;
                    continue;
                }
                let Some(ch) = piece_char(c) else { continue };
                pieces.push(Piece {
                    side: if c.is_ascii_uppercase() { "r" } else { "b" },
                    x: 10 + file * 10,
                    y: 10 + row as u32 * 10,
                    ch,
                });
                file += 1;
            }
        }
        Board { label, pieces }
    }
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
        board: Board::new(&view.fens[last], l.t("棋盘", "board")),
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
