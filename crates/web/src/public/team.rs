//! The players' pages of a team-match section (团体赛, rules.md A15): a round as its matches,
//! each with both line-ups board by board, and the team standings (场分, 局分). Everything
//! comes from the director's read models (`arbiter_director::team_match::round_view`,
//! `standings`); this module only words them. Names, teams and numbers only.

use crate::cache::Snapshot;
use crate::i18n::Lang;
use arbiter_director::crosstable::points_text;
use arbiter_director::team_match::{self, MatchBoardView, MatchView, SeatView};
use arbiter_standings::team_match::{BoardOutcome, MatchResult, TeamMatchStandings};
use arbiter_types::Colour;

/// A round of a team section as the round page shows it.
pub struct TeamRound {
    pub matches: Vec<MatchCard>,
    /// The team with the bye (轮空).
    pub bye: Option<String>,
    /// Boards per match, to word a round's board number as 「第m场 第b台」.
    boards: u32,
}

/// One match (场): its header and its boards.
pub struct MatchCard {
    /// 1-based, in the round's order (第N场).
    pub no: u32,
    pub first: String,
    pub second: String,
    /// The running 局分 of each side, 「2½」.
    pub first_points: String,
    pub second_points: String,
    /// The result once every board has one (「甲队胜」, 「和」); `None` while in play.
    pub result: Option<String>,
    /// Once the match is finished, whether its captains have confirmed it (队长确认):
    /// 「双方队长已确认」 or 「待队长确认」 (no name); `None` while in play.
    pub captains: Option<String>,
    pub boards: Vec<BoardLine>,
}

/// One board (台) of a match.
pub struct BoardLine {
    /// 1…N inside the match.
    pub board: u32,
    /// The round's board number (the game's page and "find my board" use it).
    pub round_board: u32,
    /// (pairing number, name) of the first team's player; `None`: an empty seat.
    pub first: Option<(Option<u32>, String)>,
    pub second: Option<(Option<u32>, String)>,
    /// Whether the team named first plays red on this board.
    pub first_red: bool,
    /// 「2:0」 in 局分, empty while unplayed.
    pub score: String,
    /// How a forfeit went (「弃权」), empty otherwise.
    pub note: String,
}

/// The team-match sections of the event, as (id, name in `l`).
pub fn sections(s: &Snapshot, l: Lang) -> Vec<(String, String)> {
    let Ok(reg) = arbiter_director::regulation_of(&s.state) else {
        return Vec::new();
    };
    s.state
        .sections
        .keys()
        .filter(|id| team_match::is_team_section(&reg, id))
        .map(|id| {
            let name = s.section_title(l, id).unwrap_or_else(|| id.clone());
            (id.clone(), name)
        })
        .collect()
}

/// Round `round` of `section` as matches, or `None` when it is not a team section (or the
/// round has no matches).
pub fn round(s: &Snapshot, l: Lang, section: &str, round: u32) -> Option<TeamRound> {
    let reg = arbiter_director::regulation_of(&s.state).ok()?;
    let (_, tm) = team_match::rules_of(&reg, section)?;
    let v = team_match::round_view(&reg, &s.state, section, round)?;
    Some(TeamRound {
        matches: v.matches.iter().map(|m| card(l, m)).collect(),
        bye: v.bye,
        boards: tm.boards,
    })
}

impl TeamRound {
    /// A round's board number as the players say it in a team match: 「第2场 第3台」.
    pub fn board_label(&self, l: Lang, round_board: u32) -> String {
        let n = self.boards.max(1);
        let (m, b) = ((round_board - 1) / n + 1, (round_board - 1) % n + 1);
        match l {
            Lang::Zh => format!("第{m}场 第{b}台"),
            Lang::En => format!("Match {m}, board {b}"),
        }
    }
}

/// A match's result in words once every board has one (「甲队胜」, 「和」); `None` while in play.
pub fn result_words(l: Lang, m: &MatchView) -> Option<String> {
    m.result.map(|r| match r {
        MatchResult::Win => format!("{}{}", m.first, l.t("胜", " won")),
        MatchResult::Loss => format!("{}{}", m.second, l.t("胜", " won")),
        MatchResult::Draw => l.t("和", "drawn").to_string(),
        MatchResult::ForfeitWin => format!("{}{}", m.second, l.t("弃权", " forfeited")),
        MatchResult::ForfeitLoss => format!("{}{}", m.first, l.t("弃权", " forfeited")),
        MatchResult::DoubleForfeit => l.t("双方弃权", "double forfeit").to_string(),
        MatchResult::Bye => l.t("轮空", "bye").to_string(),
    })
}

fn card(l: Lang, m: &MatchView) -> MatchCard {
    let result = result_words(l, m);
    MatchCard {
        no: m.no,
        first: m.first.clone(),
        second: m.second.clone(),
        first_points: points_text(m.first_points),
        second_points: points_text(m.second_points),
        captains: result.as_ref().map(|_| {
            if m.both_confirmed() {
                l.t("双方队长已确认", "confirmed by both captains")
            } else {
                l.t("待队长确认", "awaiting the captains' confirmation")
            }
            .to_string()
        }),
        result,
        boards: m.boards.iter().map(|b| line(l, b)).collect(),
    }
}

fn line(l: Lang, b: &MatchBoardView) -> BoardLine {
    let seat = |s: &Option<SeatView>| s.as_ref().map(|s| (s.no, s.name.clone()));
    let (score, note) = match b.result {
        None => (String::new(), ""),
        Some(r) => (
            format!(
                "{}:{}",
                points_text(b.first_points),
                points_text(b.second_points)
            ),
            match r {
                BoardOutcome::Win | BoardOutcome::Draw | BoardOutcome::Loss => "",
                BoardOutcome::ForfeitWin | BoardOutcome::ForfeitLoss => l.t("弃权", "forfeit"),
                BoardOutcome::DoubleForfeit => l.t("双方弃权", "double forfeit"),
            },
        ),
    };
    BoardLine {
        board: b.board,
        round_board: b.round_board,
        first: seat(&b.first),
        second: seat(&b.second),
        first_red: b.first_colour == Colour::Red,
        score,
        note: note.to_string(),
    }
}

/// One line of the team standings as the standings page shows it.
pub struct TeamRow {
    pub rank: u32,
    pub name: String,
    pub match_points: String,
    pub game_points: String,
    /// 「3/1/0」: matches won, drawn, lost.
    pub record: String,
    /// What put the team below the one above (「局分」), empty for the first and a shared place.
    pub decided_by: String,
}

/// The team standings of `section`, or `None` when it is not a team section.
pub fn standings(s: &Snapshot, l: Lang, section: &str) -> Option<Vec<TeamRow>> {
    let reg = arbiter_director::regulation_of(&s.state).ok()?;
    if !team_match::is_team_section(&reg, section) {
        return None;
    }
    let t: TeamMatchStandings = team_match::standings(&reg, &s.state, section).ok()?;
    Some(
        t.rows
            .iter()
            .map(|r| TeamRow {
                rank: r.rank,
                name: r.name.clone(),
                match_points: points_text(r.match_points),
                game_points: points_text(r.game_points),
                record: format!("{}/{}/{}", r.wins, r.draws, r.losses),
                decided_by: r.decided_by.map_or(String::new(), |d| match l {
                    Lang::Zh => d.zh().to_string(),
                    Lang::En => d.name().replace('_', " "),
                }),
            })
            .collect(),
    )
}
