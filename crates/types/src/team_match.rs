//! Team matches (团体赛, rules.md A15): the values a regulation names and the standings and
//! the director share — how a team ranking is ordered, and which side of a match a team is.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The team named first in a match (先走方: red on the odd boards) or the one named second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// One criterion of a team-match ranking (A15). A regulation lists them in order; the
/// default is [`TeamTiebreak::DEFAULT`]. Teams still equal after the list share the place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamTiebreak {
    /// 场分: the match points, more first.
    MatchPoints,
    /// 局分 (总局分): the game points of every board, more first.
    GamePoints,
    /// 胜场: matches won, more first.
    MatchWins,
    /// 胜局: games won on the boards (forfeit wins included), more first.
    GameWins,
    /// 对手分: the sum of the match points of the teams met (team Swiss), more first.
    OpponentMatchPoints,
    /// 直胜: the match points the tied teams took from one another — only when every two of
    /// them have met; otherwise it separates nobody.
    Direct,
    /// 犯规: the fouls of the team and its players in the section, fewer first.
    Fouls,
    /// 弃权: boards lost by forfeit, fewer first.
    Forfeits,
    /// 台次: board 1's game points over the event, then board 2's, … more first.
    Boards,
}

impl TeamTiebreak {
    /// A15's order: 场分, 局分, 直胜, 胜局, 犯规, then board by board.
    pub const DEFAULT: [TeamTiebreak; 6] = [
        TeamTiebreak::MatchPoints,
        TeamTiebreak::GamePoints,
        TeamTiebreak::Direct,
        TeamTiebreak::GameWins,
        TeamTiebreak::Fouls,
        TeamTiebreak::Boards,
    ];

    pub const ALL: [TeamTiebreak; 9] = [
        TeamTiebreak::MatchPoints,
        TeamTiebreak::GamePoints,
        TeamTiebreak::MatchWins,
        TeamTiebreak::GameWins,
        TeamTiebreak::OpponentMatchPoints,
        TeamTiebreak::Direct,
        TeamTiebreak::Fouls,
        TeamTiebreak::Forfeits,
        TeamTiebreak::Boards,
    ];

    /// The name in a regulation file.
    pub fn name(self) -> &'static str {
        match self {
            TeamTiebreak::MatchPoints => "match_points",
            TeamTiebreak::GamePoints => "game_points",
            TeamTiebreak::MatchWins => "match_wins",
            TeamTiebreak::GameWins => "game_wins",
            TeamTiebreak::OpponentMatchPoints => "opponent_match_points",
            TeamTiebreak::Direct => "direct",
            TeamTiebreak::Fouls => "fouls",
            TeamTiebreak::Forfeits => "forfeits",
            TeamTiebreak::Boards => "boards",
        }
    }

    /// The name an arbiter reads on the standings (column heads).
    pub fn zh(self) -> &'static str {
        match self {
            TeamTiebreak::MatchPoints => "场分",
            TeamTiebreak::GamePoints => "局分",
            TeamTiebreak::MatchWins => "胜场",
            TeamTiebreak::GameWins => "胜局",
            TeamTiebreak::OpponentMatchPoints => "对手分",
            TeamTiebreak::Direct => "直胜",
            TeamTiebreak::Fouls => "犯规",
            TeamTiebreak::Forfeits => "弃权",
            TeamTiebreak::Boards => "台次",
        }
    }

    /// A name from a regulation file: the English name or the Chinese one.
    pub fn from_name(s: &str) -> Option<TeamTiebreak> {
        let s = s.trim();
        TeamTiebreak::ALL
            .into_iter()
            .find(|t| t.name() == s || t.zh() == s)
    }

    /// Whether fewer is better (犯规, 弃权).
    pub fn fewer_first(self) -> bool {
        matches!(self, TeamTiebreak::Fouls | TeamTiebreak::Forfeits)
    }
}

impl fmt::Display for TeamTiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.zh())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_criterion_reads_back_from_both_of_its_names() {
        for t in TeamTiebreak::ALL {
            assert_eq!(TeamTiebreak::from_name(t.name()), Some(t));
            assert_eq!(TeamTiebreak::from_name(t.zh()), Some(t));
            let json = serde_json::to_string(&t).expect("serialises");
            assert_eq!(json, format!("\"{}\"", t.name()));
        }
        assert_eq!(TeamTiebreak::from_name("buchholz"), None);
        assert!(TeamTiebreak::Fouls.fewer_first() && !TeamTiebreak::Boards.fewer_first());
    }
}
