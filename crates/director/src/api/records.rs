//! Game records (记谱, A13, T6): the moves of a board, typed at the desk or on the command
//! line (Chinese, WXF or ICCS, mixed, with or without move numbers) or imported from a PGN
//! file, read from the standard start position by `arbiter-xiangqi`, kept in the log in ICCS
//! (`game_recorded`; a later record of the board replaces the earlier), and removed
//! (`game_record_removed`). A final position that decides the game (mate, stalemate 困毙 —
//! the side to move loses) must agree with the board's result: the record is refused if the
//! result is entered first, the result (`results::enter_result`, `results::correct`) if the
//! record is.

use super::games::{board_of, game_rule};
use super::rounds::section_of;
use super::Ctx;
use crate::refusal::{GameProblem, RecordOrResult, Refusal, Sec};
use crate::{apply_scratch, regulation_of, DirectorError};
use arbiter_core::{BoardRecord, EventState, GameRecord, LogEntry, RecordEnd, RecordSource};
use arbiter_regulation::Regulation;
use arbiter_types::GameResult;
use arbiter_xiangqi::{pgn, Game, PgnError, Position};

/// A game record as read from text: the game, and the PGN's tags if it had any.
#[derive(Debug, Clone)]
pub struct ReadRecord {
    pub game: Game,
    pub tags: Vec<(String, String)>,
    /// The result the text states (`1-0`, `0-1`, `1/2-1/2`), if it states one.
    pub result: Option<GameResult>,
}

/// Why a record's text does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// A move refused, with its move number and side.
    Move(arbiter_xiangqi::NotationError),
    /// Anything else, in words.
    Text(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Move(e) => write!(f, "{e}"),
            ReadError::Text(e) => write!(f, "{e}"),
        }
    }
}

/// Reads a record's text — moves separated by spaces, commas or new lines, with or without
/// move numbers (`1. 炮二平五 马８进７`), or a PGN game with its tags — from the standard start
/// position. No moves at all is an error.
pub fn read_record(text: &str) -> Result<ReadRecord, ReadError> {
    let cleaned: String = text
        .chars()
        .map(|c| {
            if matches!(c, ',' | '，' | '；') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let g = pgn::read(&cleaned).map_err(|e| match e {
        PgnError::Move(m) => ReadError::Move(m),
        PgnError::Empty => ReadError::Text("没有着法 (no moves)".into()),
        other => ReadError::Text(other.to_string()),
    })?;
    if g.game.start() != &Position::start() {
        return Err(ReadError::Text(
            "棋谱须从开局局面开始 ([FEN] 标签不是开局局面) (a record starts from the start position)"
                .into(),
        ));
    }
    if g.game.moves().is_empty() {
        return Err(ReadError::Text("没有着法 (no moves)".into()));
    }
    let result = match g.result {
        pgn::PgnResult::RedWins => Some(GameResult::RedWin),
        pgn::PgnResult::BlackWins => Some(GameResult::BlackWin),
        pgn::PgnResult::Draw => Some(GameResult::Draw),
        pgn::PgnResult::Unknown => None,
    };
    Ok(ReadRecord {
        game: g.game,
        tags: g.tags,
        result,
    })
}

/// Reads every game of a PGN text (`result record --pgn`): each with its tags.
pub fn read_pgn_games(text: &str) -> Result<Vec<ReadRecord>, ReadError> {
    let games = pgn::read_all(text).map_err(|e| match e {
        PgnError::Move(m) => ReadError::Move(m),
        other => ReadError::Text(other.to_string()),
    })?;
    let mut out = Vec::new();
    for g in games {
        if g.game.start() != &Position::start() {
            return Err(ReadError::Text(
                "棋谱须从开局局面开始 ([FEN] 标签不是开局局面) (a record starts from the start position)"
                    .into(),
            ));
        }
        let result = match g.result {
            pgn::PgnResult::RedWins => Some(GameResult::RedWin),
            pgn::PgnResult::BlackWins => Some(GameResult::BlackWin),
            pgn::PgnResult::Draw => Some(GameResult::Draw),
            pgn::PgnResult::Unknown => None,
        };
        out.push(ReadRecord {
            game: g.game,
            tags: g.tags,
            result,
        });
    }
    Ok(out)
}

/// Whether a decided final position contradicts a result (a forfeit has no record, so it
/// never contradicts here).
fn contradicts(end: Option<RecordEnd>, result: GameResult) -> Option<RecordEnd> {
    let e = end?;
    (!result.is_forfeit() && result != e.result()).then_some(e)
}

/// The refusal of a result that contradicts the board's record, if it does (for
/// `results::enter_result` and `results::correct`).
pub(crate) fn check_result_against_record(
    reg: &Regulation,
    section: &str,
    round: u32,
    b: &BoardRecord,
    result: GameResult,
) -> Result<(), DirectorError> {
    if let Some(e) = contradicts(b.record.as_ref().and_then(|r| r.end), result) {
        return Err(game_rule(
            reg,
            section,
            round,
            b.board,
            GameProblem::RecordContradictsResult {
                end: e.zh(),
                result,
                refused: RecordOrResult::Result,
            },
        ));
    }
    Ok(())
}

/// `result record`: the record of a board, from its text (see [`read_record`]). A move that
/// does not read, is not legal or is ambiguous is refused with its move number; a final
/// position that contradicts the board's result refuses the record; a forfeited game has
/// none. A later record of the board replaces the earlier.
#[allow(clippy::too_many_arguments)]
pub fn record(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    text: &str,
    source: RecordSource,
    recorded_by: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    board_of(&reg, state, section, round, board)?;
    let read = read_record(text).map_err(|e| refuse_read(&reg, section, round, board, e))?;
    record_game(
        state,
        ctx,
        section,
        round,
        board,
        &read.game,
        source,
        recorded_by,
    )
}

/// The refusal of a record that does not read.
pub fn refuse_read(
    reg: &Regulation,
    section: &str,
    round: u32,
    board: u32,
    e: ReadError,
) -> DirectorError {
    match e {
        ReadError::Move(m) => Refusal::RecordMove {
            section: Sec::in_reg(reg, section),
            round,
            board,
            number: m.number,
            side: match m.side {
                arbiter_xiangqi::Colour::Red => arbiter_types::Colour::Red,
                arbiter_xiangqi::Colour::Black => arbiter_types::Colour::Black,
            },
            text: m.text,
            kind: m.kind,
        }
        .into(),
        ReadError::Text(t) => game_rule(
            reg,
            section,
            round,
            board,
            GameProblem::RecordUnreadable { error: t },
        ),
    }
}

/// `result record` of a game already read (a PGN file's game).
#[allow(clippy::too_many_arguments)]
pub fn record_game(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    game: &Game,
    source: RecordSource,
    recorded_by: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    let b = board_of(&reg, state, section, round, board)?;
    if game.start() != &Position::start() || game.moves().is_empty() {
        return Err(game_rule(
            &reg,
            section,
            round,
            board,
            GameProblem::RecordUnreadable {
                error: "棋谱须从开局局面开始且至少有一步着法 (a record starts from the start position and has a move)".into(),
            },
        ));
    }
    if let Some(r) = b.result.filter(|r| r.is_forfeit()) {
        return Err(game_rule(
            &reg,
            section,
            round,
            board,
            GameProblem::RecordOnForfeit { result: r },
        ));
    }
    if let Some(result) = b.result {
        if let Some(e) = contradicts(arbiter_core::record_end(game), result) {
            return Err(game_rule(
                &reg,
                section,
                round,
                board,
                GameProblem::RecordContradictsResult {
                    end: e.zh(),
                    result,
                    refused: RecordOrResult::Record,
                },
            ));
        }
    }
    let moves: Vec<String> = game.move_texts().into_iter().map(|t| t.iccs).collect();
    let out = vec![LogEntry::GameRecorded {
        section: section.to_string(),
        round,
        board,
        moves,
        source,
        recorded_by: recorded_by
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
    }];
    check(state, ctx, &out)?;
    super::text_checked(out)
}

/// `result record --remove`: the record of a board taken away, with the reason.
pub fn remove_record(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    let b = board_of(&reg, state, section, round, board)?;
    if b.record.is_none() {
        return Err(game_rule(
            &reg,
            section,
            round,
            board,
            GameProblem::NoRecord,
        ));
    }
    let out = vec![LogEntry::GameRecordRemoved {
        section: section.to_string(),
        round,
        board,
        reason: reason.trim().to_string(),
    }];
    check(state, ctx, &out)?;
    super::text_checked(out)
}

fn check(state: &EventState, ctx: &Ctx, out: &[LogEntry]) -> Result<(), DirectorError> {
    let mut scratch = state.clone();
    let at = ctx.at_rfc3339();
    for e in out {
        apply_scratch(&mut scratch, e, &at)?;
    }
    Ok(())
}

/// One full move (回合) of a record as shown: its number, red's move and black's (none when
/// the record ends on red's move), in Chinese notation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MovePair {
    pub number: u32,
    pub red: String,
    pub black: Option<String>,
}

/// A record as people read it: the moves in Chinese notation (and WXF, ICCS), every position
/// from the start (`fens[0]`) to the final one (`fens[n]`), the count in full moves and how
/// the final position decides the game.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RecordView {
    pub chinese: Vec<String>,
    pub wxf: Vec<String>,
    pub iccs: Vec<String>,
    pub pairs: Vec<MovePair>,
    /// Board part of the FEN of every position, `moves + 1` of them.
    pub fens: Vec<String>,
    pub full_moves: u32,
    /// 「将死, 红方胜」, when the final position decides the game.
    pub end: Option<String>,
}

/// The view of a record (its moves were checked when it entered the log).
pub fn record_view(r: &GameRecord) -> Option<RecordView> {
    let g = arbiter_core::replay_record(&r.moves).ok()?;
    let texts = g.move_texts();
    let mut p = g.start().clone();
    let mut fens = vec![p.board_fen()];
    for &m in g.moves() {
        p.make_move(m);
        fens.push(p.board_fen());
    }
    let chinese: Vec<String> = texts.iter().map(|t| t.chinese.clone()).collect();
    let pairs = chinese
        .chunks(2)
        .enumerate()
        .map(|(i, c)| MovePair {
            number: i as u32 + 1,
            red: c[0].clone(),
            black: c.get(1).cloned(),
        })
        .collect();
    Some(RecordView {
        wxf: texts.iter().map(|t| t.wxf.clone()).collect(),
        iccs: texts.iter().map(|t| t.iccs.clone()).collect(),
        chinese,
        pairs,
        fens,
        full_moves: g.full_moves(),
        end: r.end.map(|e| e.zh()),
    })
}
