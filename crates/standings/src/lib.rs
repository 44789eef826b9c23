//! Scoring, tie-breaks and standings (名次), categories, team and association standings,
//! team-match standings, prizes, and the automatic-withdrawal rule (rules.md A1, A5, A6, A10,
//! A11, A15).
//!
//! Invariant: no I/O; every number is exact; the same input gives the same table.
//!
//! Individual standings: build a [`StandingsInput`] and call [`compute`]; rank a subset with
//! [`category`].
//!
//! Team matches (团体赛, 场分/局分): build a [`TeamMatchInput`] and call
//! [`team_match_standings`]; the board prizes' tables come from [`board_standings`].

pub mod association;
pub mod category;
pub mod input;
pub mod prize;
pub mod synthetic;
pub mod table;
pub mod team;
pub mod team_match;
pub mod tiebreak;
pub mod value;
pub mod withdrawal;

pub use category::{category, category_by_tag, category_of_ranks, CategoryRow};
pub use input::{
    ByeOppValue, DecidedBy, DirectMode, FideUnplayed, ForfeitOppValue, PlayerEntry, Row, Standings,
    StandingsError, StandingsInput, TiebreakOptions,
};
pub use table::compute;
pub use team_match::{
    board_standings, team_match_standings, BoardOutcome, BoardPoints, BoardRow, BoardTable,
    Ignored, MatchBoard, MatchCell, MatchResult, MatchTeam, PlayedMatch, TeamBye, TeamMatchInput,
    TeamMatchRow, TeamMatchStandings,
};
pub use value::TbValue;
