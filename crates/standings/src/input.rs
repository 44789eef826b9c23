//! Input and output types of the individual standings engine.

use crate::value::TbValue;
use arbiter_types::{Fallback, Outcome, PlayerNo, Score, ScoringTable, TiebreakName};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One player of the section as the standings need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerEntry {
    pub no: PlayerNo,
    pub name: Option<String>,
    /// Rating (等级分) for ARO / APRO / performance; `None` = unrated.
    pub rating: Option<u32>,
    /// Tournament total of recorded fouls (犯规, A11).
    pub fouls: u32,
    /// 退赛: the player stays in the table, flagged.
    pub withdrawn: bool,
    /// Category tags (e.g. `women`, `local`, `u16`) for [`crate::category`].
    pub categories: BTreeSet<String>,
}

impl PlayerEntry {
    pub fn new(no: PlayerNo) -> Self {
        PlayerEntry {
            no,
            name: None,
            rating: None,
            fouls: 0,
            withdrawn: false,
            categories: BTreeSet::new(),
        }
    }
}

/// 直胜 for three or more tied players (§4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DirectMode {
    /// Only when exactly two players are tied and they met (default).
    #[default]
    TwoOnly,
    /// Mini-table of the points scored among the tied players, when every pair of them met.
    MiniTable,
}

/// Value of a bye (轮空) inside 对手分 (§4.3, A6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeOppValue {
    /// The lowest final score in the section (default, 2011 14.4).
    #[default]
    Lowest,
    Zero,
    /// The bye receiver's own final score (a FIDE-like virtual opponent).
    OwnScore,
}

/// The opponent of a forfeited game inside 对手分 (§4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitOppValue {
    /// The real opponent's final score (default).
    #[default]
    Actual,
    /// As a bye: the lowest final score in the section.
    Lowest,
    Zero,
}

/// Unplayed rounds in the FIDE Buchholz family (FIDE C.07 art. 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FideUnplayed {
    /// C.07 2026: opponents' scores adjusted (16.3); own unplayed rounds = a dummy with the
    /// player's own score, capped by the scheduled opponent's adjusted score (forfeits) or by
    /// draw × rounds (other unplayed rounds) (16.4); cut VUR contributions first (16.5).
    #[default]
    Fide2026,
    /// C.07 2023: as 2026 but the dummy is the player's own score without the caps.
    Fide2023,
    /// No adjustment: opponents' raw scores, unplayed rounds contribute nothing.
    Plain,
}

/// Settings of the individual tie-breaks (A6, §4.3). `Default` gives the documented defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TiebreakOptions {
    /// 胜局 counts forfeit wins (default true).
    pub wins_include_forfeit: bool,
    /// 胜局 counts byes (轮空 and full-point byes) (default true).
    pub wins_include_bye: bool,
    /// 后走局数 / 后走胜局 count forfeited games with their assigned colour (default false).
    pub black_count_forfeits: bool,
    pub direct: DirectMode,
    pub bye_opp_value: ByeOppValue,
    pub forfeit_opp_value: ForfeitOppValue,
    /// Unplayed rounds in buchholz / buchholz_cut1 / buchholz_median1.
    pub fide_unplayed: FideUnplayed,
    /// Per tie-break exceptions to `fide_unplayed` (Swiss-Manager sets it per column, e.g.
    /// "Buchholz Variable (2026) Cut1" next to "Buchholz Variable (2023) Median1").
    pub fide_unplayed_for: BTreeMap<TiebreakName, FideUnplayed>,
    /// Rating floor for ARO / APRO / performance (Swiss-Manager's "(1400)"): a lower or missing
    /// rating counts as this value. `None`: ratings as given, unrated opponents left out.
    pub rating_floor: Option<u32>,
    /// Seed of the `lots` fallback (recorded in the event log).
    pub lots_seed: u64,
}

impl Default for TiebreakOptions {
    fn default() -> Self {
        TiebreakOptions {
            wins_include_forfeit: true,
            wins_include_bye: true,
            black_count_forfeits: false,
            direct: DirectMode::TwoOnly,
            bye_opp_value: ByeOppValue::Lowest,
            forfeit_opp_value: ForfeitOppValue::Actual,
            fide_unplayed: FideUnplayed::Fide2026,
            fide_unplayed_for: BTreeMap::new(),
            rating_floor: None,
            lots_seed: 0,
        }
    }
}

/// Everything the engine needs for one section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingsInput {
    pub players: Vec<PlayerEntry>,
    /// `outcomes[i]` = the rounds of `players[i]`, one [`Outcome`] per round played so far
    /// (all players the same length).
    pub outcomes: Vec<Vec<Outcome>>,
    pub scoring: ScoringTable,
    /// Ordered tie-breaks applied after points.
    pub tiebreaks: Vec<TiebreakName>,
    pub fallback: Option<Fallback>,
    pub options: TiebreakOptions,
}

/// The criterion that separated a row from the row above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum DecidedBy {
    Points,
    Tiebreak(TiebreakName),
    Fallback(Fallback),
    /// Equal on everything and not shared: listed in pairing-number order.
    PairingNo,
}

impl DecidedBy {
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::Points => "points",
            DecidedBy::Tiebreak(t) => t.name(),
            DecidedBy::Fallback(f) => f.name(),
            DecidedBy::PairingNo => "pairing_no",
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            DecidedBy::Points => "积分",
            DecidedBy::Tiebreak(t) => t.zh(),
            DecidedBy::Fallback(f) => f.zh(),
            DecidedBy::PairingNo => "序号",
        }
    }
}

impl fmt::Display for DecidedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 1-based; equal ranks only with the `shared` fallback.
    pub rank: u32,
    pub no: PlayerNo,
    pub name: Option<String>,
    pub points: Score,
    /// The value of every tie-break of the list, in list order.
    pub tiebreaks: Vec<(TiebreakName, TbValue)>,
    /// What separated this row from the row above; `None` for the first row and for a
    /// shared place.
    pub decided_by: Option<DecidedBy>,
    pub withdrawn: bool,
}

impl Row {
    pub fn tiebreak(&self, name: TiebreakName) -> Option<TbValue> {
        self.tiebreaks
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

/// The ranked table of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    pub rows: Vec<Row>,
    /// Number of rounds taken into account.
    pub rounds: usize,
}

/// Input that cannot be ranked. Messages are Chinese first, then English.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    #[error("序号{0}重复 (duplicate pairing number {0})")]
    DuplicateNo(PlayerNo),
    #[error("有{players}名棋手但有{rows}行成绩 ({players} players but {rows} outcome rows)")]
    RowCount { players: usize, rows: usize },
    #[error("序号{no}有{got}轮成绩, 应为{expected}轮 (player {no} has {got} rounds, expected {expected})")]
    RoundCount {
        no: PlayerNo,
        got: usize,
        expected: usize,
    },
    #[error("序号{no}第{round}轮的对手{opponent}不存在 (player {no}, round {round}: unknown opponent {opponent})")]
    UnknownOpponent {
        no: PlayerNo,
        round: usize,
        opponent: PlayerNo,
    },
    #[error("最多一个后备规则 (at most one fallback): {0}")]
    Config(String),
}
