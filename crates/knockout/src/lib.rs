//! Knockout stages (淘汰赛): match formats K1–K6 as data, matches as state machines over
//! their games, brackets of 2 to 1,024 players (the next power of two, byes to the top seeds) (single elimination, 3rd-place match, full
//! placement bracket 定位表) and a plain-text rendering. Pure: no I/O; deterministic (every
//! lot comes from an explicit seed); all state serialisable.
//!
//! See `docs/knockout.md`.

pub mod bracket;
pub mod format;
pub mod game_match;
pub mod render;
pub mod two_stage;

pub use bracket::{
    seed_order, zh_num, Bracket, BracketKind, BracketMatch, MatchState, Side, Source, MAX_PLAYERS,
};
pub use format::{ColourRule, Decider, FormatCode, MatchFormat, Step};
pub use game_match::{Match, MatchGame, MatchSettings, NextGame};
pub use render::render_text;
pub use two_stage::split_top;

use arbiter_types::PlayerNo;

/// Errors of the knockout crate (Chinese first, English in brackets).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutError {
    #[error("赛制 `{name}` 无效: {why} (invalid match format)")]
    InvalidFormat { name: String, why: String },
    #[error("淘汰赛人数须为2至1024人, 实为{0}人 (a bracket needs 2 to 1,024 players, got {0})")]
    FieldSize(usize),
    #[error("选手 {0} 在排名中出现多次 (player listed twice in the ranking)")]
    DuplicatePlayer(PlayerNo),
    #[error("选手 {0} 不能与自己对局 (a player cannot meet themself)")]
    SamePlayer(PlayerNo),
    #[error("未知的对局编号 `{0}` (unknown match id)")]
    UnknownMatch(String),
    #[error("对局 `{0}` 的双方尚未确定 (match not ready: a side is still pending)")]
    MatchNotReady(String),
    #[error("该对局已决出胜负, 不再需要对局 (match already decided; no further game needed)")]
    MatchDecided,
    #[error("应录入第{}局, 而不是第{}局 (expected game {}, got game {})", .expected + 1, .got + 1, .expected + 1, .got + 1)]
    NotNextGame { expected: usize, got: usize },
    #[error("淘汰赛对局不能记为双方弃权 (a knockout game cannot be a double forfeit)")]
    DoubleForfeit,
    #[error("第{}局的先后手不由选手选择 (game {} gives no colour choice)", .index + 1, .index + 1)]
    NoChoice { index: usize },
    #[error("选手 {player} 无权选择先后手, 应由选手 {chooser} 选择 (player is not the chooser)")]
    NotChooser { player: PlayerNo, chooser: PlayerNo },
    #[error("第{}局的记录与赛制不符 (game {} does not match the format)", .index + 1, .index + 1)]
    InconsistentGame { index: usize },
}
