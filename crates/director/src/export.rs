//! The published export contract `arbiter-export/1` (docs/formats/export-json.md).
//!
//! Field names are a contract that outside tools rely on: add fields, never rename one.
//! Every number is exact: a [`Score`] serialises as an integer or a decimal ending in `.5`.
//! Personal data (ID numbers, phone numbers) never appears here.

use arbiter_types::{GameKind, GameResult, SameTeam, Score, ScoringTable, Sex};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of the `format` field.
pub const FORMAT: &str = "arbiter-export/1";

/// The whole published document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// Always [`FORMAT`].
    pub format: String,
    pub event: EventHead,
    pub sections: Vec<SectionExport>,
    pub teams: Vec<TeamTable>,
    pub associations: Vec<AssociationRow>,
    pub prizes: Vec<PrizeRow>,
    /// Sum of every prize amount (yuan). Added field.
    #[serde(default)]
    pub prize_total: Score,
    /// Added field: some section still has games to play, so the standings, the knockout
    /// seeding and the prize list are provisional (暂定).
    #[serde(default)]
    pub provisional: bool,
    /// Added field: the organiser's awards given (S10: 最佳组织奖 …); absent when none is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_awards: Vec<SpecialAwardExport>,
    /// Added field: the players who qualify for a later event (S8: `qualification.places`),
    /// section by section, in place order; absent when no section names places.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub qualified: Vec<QualifiedRow>,
    /// Added field: the grades the places earn (等级称号, a section's `grade_awards`), section
    /// by section in place order; absent when no section awards grades.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grade_awards: Vec<GradeAwardRow>,
    /// Added field: the team standings of each team-match section (团体赛, A15) by 场分 and
    /// 局分; absent when the event has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub team_matches: Vec<TeamMatchTable>,
}

/// The team standings of a team-match section (A15).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatchTable {
    pub section: String,
    /// The ranking criteria in order (`match_points`, `game_points`, …).
    pub tiebreaks: Vec<String>,
    pub standings: Vec<TeamMatchRowExport>,
    /// The board standings (台次成绩, for 台次奖): each board's players ranked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_standings: Option<crate::team_match::BoardPrizes>,
}

/// One team of a team-match table: place, team number and name, 场分, 局分, matches won,
/// drawn and lost, boards won and lost by forfeit, fouls, what decided the place, and the
/// team's matches round by round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatchRowExport {
    pub rank: u32,
    pub no: u32,
    pub team: String,
    pub match_points: Score,
    pub game_points: Score,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub game_wins: u32,
    pub forfeits: u32,
    pub fouls: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    pub rounds: Vec<TeamMatchRoundExport>,
}

/// One round of a team: the team met (`None`: a bye), both sides' 局分 and the 场分 taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatchRoundExport {
    pub round: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<u32>,
    pub game_points: Score,
    pub opponent_game_points: Score,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_points: Option<Score>,
    /// Added field: this team's captain confirmed the match (队长确认, A15); absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub confirmed: bool,
}

/// One player of a qualification list (取得资格名单).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QualifiedRow {
    pub section: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// What the places qualify for (「江苏省业余棋王赛」).
    pub to: String,
    /// The qualifying place (1..=places).
    pub place: u32,
    /// The player's rank in the final ranking (a category's qualification: in the category's
    /// ranking).
    pub rank: u32,
    pub no: u32,
}

/// One player placed in a range of a section's grade awards (等级称号名单).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GradeAwardRow {
    pub section: String,
    /// The player's place in the section's final standings.
    pub rank: u32,
    pub no: u32,
    /// The grade the place earns, as the regulation's scale names it.
    pub grade: String,
    /// The grade the player entered with, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held: Option<String>,
    /// False when the grade held is already this one or higher (不再授予).
    pub awarded: bool,
}

/// An organiser's award (S10) and whom it was given to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpecialAwardExport {
    pub award: String,
    /// Units, teams or players, in words.
    pub recipients: Vec<String>,
    /// Yuan for each recipient, when the regulation gives money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Score>,
}

/// How far a table of results stands: 「第N轮后 · 暂定」 while the section has games to play,
/// 「第N轮后 · 最终」 once it has none. Every standings table, bracket and prize list that can
/// still change says so (pages, documents, the CLI).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StandingNote {
    /// Rounds whose results are all in and counted.
    pub after_round: u32,
    pub provisional: bool,
}

impl StandingNote {
    /// The note of a standings view (`arbiter_director::standings_view`).
    pub fn of(view: &crate::standings_view::StandingsView) -> StandingNote {
        StandingNote {
            after_round: view.after_round,
            provisional: view.provisional,
        }
    }
    pub fn zh(&self) -> String {
        match (self.after_round, self.provisional) {
            (0, true) => "尚无完成的轮次 · 暂定".to_string(),
            (n, true) => format!("第{n}轮后 · 暂定"),
            (0, false) => "最终".to_string(),
            (n, false) => format!("第{n}轮后 · 最终"),
        }
    }
    pub fn en(&self) -> String {
        match (self.after_round, self.provisional) {
            (0, true) => "no round completed · provisional".to_string(),
            (n, true) => format!("after round {n} · provisional"),
            (0, false) => "final".to_string(),
            (n, false) => format!("after round {n} · final"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventHead {
    pub name: String,
    /// File stem of the regulation, e.g. `kunshan-2026`.
    pub regulation: String,
    /// Added field: the prize amounts are before tax (T9 "奖金为税前"), from the
    /// regulation's `prizes_before_tax`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prizes_before_tax: bool,
    /// Added field: the currency of the prize money (`TWD`, `HKD`, `MOP`), from the
    /// regulation's `prize_currency`; absent for 人民币.
    #[serde(default, skip_serializing_if = "arbiter_regulation::Currency::is_cny")]
    pub prize_currency: arbiter_regulation::Currency,
}

/// How a section is played (`system`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    Swiss,
    RoundRobin,
    DoubleRoundRobin,
    SwissThenKnockout,
    Knockout,
    /// Groups, each a round robin or a Swiss, then a final of the top N of each (`groups`;
    /// the rounds' `stage` says which the groups played).
    Groups,
}

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::Swiss => "swiss",
            System::RoundRobin => "round_robin",
            System::DoubleRoundRobin => "double_round_robin",
            System::SwissThenKnockout => "swiss_then_knockout",
            System::Knockout => "knockout",
            System::Groups => "groups",
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            System::Swiss => "积分编排制",
            System::RoundRobin => "单循环",
            System::DoubleRoundRobin => "双循环",
            System::SwissThenKnockout => "积分编排制 + 淘汰赛",
            System::Knockout => "淘汰赛",
            System::Groups => "分组赛 + 决赛",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectionExport {
    pub id: String,
    pub name: String,
    pub system: System,
    pub rounds_planned: u32,
    pub scoring: ScoringTable,
    pub settings: SettingsExport,
    /// Tie-break names after points, in order (criteria, then the fallback if any).
    pub tiebreaks: Vec<String>,
    pub players: Vec<PlayerExport>,
    pub rounds: Vec<RoundExport>,
    pub standings: Vec<StandingRow>,
    pub categories: Vec<CategoryExport>,
    /// Added field: rounds whose results are all in and counted (the standings are 第N轮后).
    #[serde(default)]
    pub after_round: u32,
    /// Added field: the section still has games to play; its standings are provisional (暂定).
    #[serde(default)]
    pub provisional: bool,
    /// Added field: the group tables of a `groups` section (A first), by the section's
    /// tie-breaks over the group stage; left out for any other section.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupExport>,
}

/// The table of one group of a `groups` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupExport {
    /// The group's letter: `A`, `B`, …
    pub name: String,
    /// The group's standings (ranks within the group); `decided_by` as in the section's.
    pub standings: Vec<StandingRow>,
}

impl SectionExport {
    /// The disqualified players (A17), by number: no place, listed apart from the standings
    /// on every list that shows them.
    pub fn disqualified(&self) -> Vec<&PlayerExport> {
        let mut out: Vec<&PlayerExport> = self
            .players
            .iter()
            .filter(|p| p.status == PlayerStatus::Disqualified)
            .collect();
        out.sort_by_key(|p| p.no);
        out
    }

    /// 「第N轮后 · 暂定」 or 「… · 最终」 for this section's standings.
    pub fn note(&self) -> StandingNote {
        StandingNote {
            after_round: self.after_round,
            provisional: self.provisional,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsExport {
    pub same_team: SameTeam,
    pub max_colour_diff: u8,
    pub no_three_in_a_row: bool,
    pub withdraw_after_consecutive_forfeits: Option<u32>,
    pub withdraw_after_total_forfeits: Option<u32>,
}

/// A player's status in the published list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerStatus {
    Active,
    /// 退赛
    Withdrawn,
    /// Entered but never paired (fee unpaid, T7).
    NotPaired,
    /// 取消比赛资格 (A17): no place, prize or title; listed apart from the standings.
    Disqualified,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerExport {
    pub no: u32,
    pub name: String,
    pub sex: Sex,
    pub unit: Option<String>,
    pub team: Option<String>,
    pub status: PlayerStatus,
    pub withdrawn_after_round: Option<u32>,
    /// Added field: the player's association (S3), if any.
    #[serde(default)]
    pub association: Option<String>,
    /// Added field: 段位/称号 as the regulation's scale names it; left out when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<String>,
}

/// Which stage a round belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Swiss,
    RoundRobin,
    Knockout,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundExport {
    pub round: u32,
    pub stage: Stage,
    pub games: Vec<GameExport>,
    pub byes: Vec<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fouls {
    pub red: u32,
    pub black: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameExport {
    pub board: u32,
    pub red: u32,
    pub black: u32,
    pub result: GameResult,
    pub fouls: Fouls,
    /// Knockout match id (e.g. `QF1`), `null` in Swiss / round-robin rounds.
    #[serde(rename = "match")]
    pub match_id: Option<String>,
    pub game_kind: Option<GameKind>,
    /// How the game ended (J5), when the arbiter entered it: `checkmate`, `stalemate` (困毙),
    /// `time`, `resignation`, `natural_move_limit` (自然限着) … Absent when not entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<arbiter_core::Ending>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StandingRow {
    pub rank: u32,
    pub no: u32,
    pub points: Score,
    /// The value of every name of the section's `tiebreaks` that is a criterion.
    pub tiebreaks: BTreeMap<String, Score>,
    /// The criterion that separated this row from the row above (`points`, a tie-break or
    /// fallback name, `knockout` for places decided by the knockout), `null` for the first
    /// row or a shared place.
    pub decided_by: Option<String>,
    /// A confirmed result of this player was corrected by the chief arbiter (A12); left out
    /// when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub corrected: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryExport {
    pub id: String,
    pub name: String,
    pub standings: Vec<CategoryRow>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryRow {
    pub rank: u32,
    pub no: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamTable {
    pub section: String,
    pub division: Option<String>,
    pub standings: Vec<TeamRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamRow {
    pub rank: u32,
    pub team: String,
    pub members: Vec<u32>,
    pub counted_ranks: Vec<u32>,
    pub total: Score,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssociationRow {
    pub rank: u32,
    pub association: String,
    pub best_ranks: BTreeMap<String, u32>,
    pub total: u32,
}

/// Kind of an award.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrizeKind {
    Place,
    Lucky,
    Team,
    Title,
    /// 台次奖: a place on one board of a team-match section (A15); the row names its board.
    Board,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrizeRow {
    pub section: String,
    pub category: Option<String>,
    pub rank: u32,
    pub no: Option<u32>,
    pub team: Option<String>,
    pub kind: PrizeKind,
    pub amount: Option<Score>,
    pub title: Option<String>,
    pub item: Option<String>,
    /// Added field: a trophy (奖杯) goes with the prize (K13 "团体前3名：颁发奖杯").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trophy: bool,
    /// Added field: a medal (奖牌) goes with the prize (K13 "颁发奖牌、荣誉证书").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub medal: bool,
    /// Added field: the board of a board prize (台次奖, A15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
    /// Added field: the prize was passed down (顺延, A14 one award per person) — why, and
    /// from which place: the player at its place takes another award.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed_down: Option<String>,
}

impl Export {
    /// Pretty JSON with a trailing newline (deterministic: every map is a BTreeMap).
    pub fn to_json(&self) -> String {
        // Serialising these plain structs cannot fail (no non-string map keys, no floats
        // other than exact halves); fall back to an empty object rather than panic.
        let mut s = serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".to_string());
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_types::ScoringPreset;

    fn sample() -> Export {
        let mut tb = BTreeMap::new();
        tb.insert("opp_score".to_string(), Score::from_halves(27));
        Export {
            format: FORMAT.to_string(),
            event: EventHead {
                name: "测试".into(),
                regulation: "suzhou-2025".into(),
                prizes_before_tax: false,
                prize_currency: arbiter_regulation::Currency::Cny,
            },
            sections: vec![SectionExport {
                id: "open".into(),
                name: "公开组".into(),
                system: System::SwissThenKnockout,
                rounds_planned: 7,
                scoring: ScoringPreset::FiveTwoThreeZero.table(),
                settings: SettingsExport {
                    same_team: SameTeam::Round1,
                    max_colour_diff: 2,
                    no_three_in_a_row: true,
                    withdraw_after_consecutive_forfeits: None,
                    withdraw_after_total_forfeits: Some(2),
                },
                tiebreaks: vec!["opp_score".into()],
                players: vec![PlayerExport {
                    no: 1,
                    name: "王一".into(),
                    sex: Sex::Female,
                    unit: None,
                    team: None,
                    status: PlayerStatus::NotPaired,
                    withdrawn_after_round: None,
                    association: None,
                    grade: None,
                }],
                rounds: vec![RoundExport {
                    round: 8,
                    stage: Stage::Knockout,
                    games: vec![GameExport {
                        board: 1,
                        red: 1,
                        black: 2,
                        result: GameResult::RedForfeit,
                        fouls: Fouls { red: 1, black: 0 },
                        match_id: Some("QF1".into()),
                        game_kind: Some(GameKind::Armageddon),
                        ending: None,
                    }],
                    byes: vec![3],
                }],
                standings: vec![StandingRow {
                    rank: 1,
                    no: 1,
                    points: Score::from_halves(9),
                    tiebreaks: tb,
                    decided_by: None,
                    corrected: false,
                }],
                categories: vec![],
                after_round: 7,
                provisional: true,
                groups: Vec::new(),
            }],
            teams: vec![],
            associations: vec![],
            prizes: vec![PrizeRow {
                section: "open".into(),
                category: None,
                rank: 1,
                no: Some(1),
                team: None,
                kind: PrizeKind::Title,
                amount: None,
                title: Some("棋王".into()),
                item: None,
                trophy: false,
                medal: false,
                board: None,
                passed_down: None,
            }],
            prize_total: Score::points(0),
            provisional: true,
            special_awards: Vec::new(),
            qualified: Vec::new(),
            grade_awards: Vec::new(),
            team_matches: Vec::new(),
        }
    }

    #[test]
    fn contract_names_and_exact_numbers() {
        let j = sample().to_json();
        for needle in [
            "\"format\": \"arbiter-export/1\"",
            "\"system\": \"swiss_then_knockout\"",
            "\"draw_red\": 2",
            "\"draw_black\": 3",
            "\"same_team\": \"round1\"",
            "\"status\": \"not_paired\"",
            "\"stage\": \"knockout\"",
            "\"result\": \"red_forfeit\"",
            "\"match\": \"QF1\"",
            "\"game_kind\": \"armageddon\"",
            "\"points\": 4.5",
            "\"opp_score\": 13.5",
            "\"sex\": \"F\"",
            "\"kind\": \"title\"",
            "\"after_round\": 7",
            "\"provisional\": true",
        ] {
            assert!(j.contains(needle), "missing {needle} in\n{j}");
        }
        let back: Export = serde_json::from_str(&j).unwrap();
        assert_eq!(back, sample());
        assert_eq!(back.sections[0].note().zh(), "第7轮后 · 暂定");
    }
}
