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
    /// Boards per match.
    pub fn boards_per_match(&self) -> u32 {
        self.boards
    }

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
    /// Team number (its page is `t/{no}`).
    pub no: u32,
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
                no: r.no,
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

/// A team's own page (A15): its place, its players with their games, and every published
/// round's match board by board.
pub struct TeamPage {
    pub no: u32,
    pub name: String,
    pub unit: String,
    /// The team's line of the team standings (`None` before any match).
    pub row: Option<TeamRow>,
    pub players: Vec<TeamPlayer>,
    pub rounds: Vec<TeamRoundLine>,
}

/// A registered player of the team (in board order) and his games so far.
pub struct TeamPlayer {
    /// Pairing number (序号) once drawn.
    pub no: Option<u32>,
    pub name: String,
    /// The board he played most (台次成绩), once he has played.
    pub board: Option<u32>,
    pub games: u32,
    pub points: String,
    /// 「2/1/0」: games won, drawn, lost.
    pub record: String,
    pub withdrawn: bool,
}

/// One round of the team: its match (or bye) from the team's side.
pub struct TeamRoundLine {
    pub round: u32,
    /// The team met (its number, its name); `None` for a bye.
    pub opponent: Option<(u32, String)>,
    /// 「3:1」 in 局分, this team first (running while in play).
    pub score: String,
    /// 「胜」 「和」 「负」 「弃权」, or 「进行中」 while in play, 「轮空」 for a bye.
    pub result: String,
    pub finished: bool,
    /// The boards: (board, this team's player, the opponent's, this team red?, 「1:0」 or
    /// 「」, a forfeit's note).
    pub boards: Vec<TeamBoardLine>,
}

/// One board of a team's match, from the team's side.
pub struct TeamBoardLine {
    pub board: u32,
    /// The round's board number, when the game's record is in (its page).
    pub record: Option<u32>,
    pub ours: Option<(Option<u32>, String)>,
    pub theirs: Option<(Option<u32>, String)>,
    pub red: bool,
    pub score: String,
    pub note: String,
}

/// The page of team `no` of `section`; `None` when it is not a team section or there is no
/// team `no`. Only published rounds are shown.
pub fn team_page(s: &Snapshot, l: Lang, section: &str, no: u32) -> Option<TeamPage> {
    let reg = arbiter_director::regulation_of(&s.state).ok()?;
    if !team_match::is_team_section(&reg, section) {
        return None;
    }
    let rec = s.state.section(section)?;
    let name = rec.team_order.get((no as usize).checked_sub(1)?)?.clone();
    let team = s.state.teams.get(&name);
    let numbers = team_numbers(s, section);
    let row = standings(s, l, section).and_then(|rows| rows.into_iter().find(|r| r.name == name));
    let boards = team_match::board_prizes(&reg, &s.state, section);
    let players = team
        .map(|t| {
            t.members
                .iter()
                .filter_map(|id| {
                    let p = s.state.player(*id)?;
                    let pno = rec.order.iter().position(|x| x == id).map(|i| i as u32 + 1);
                    let line = boards.as_ref().and_then(|b| {
                        b.boards.iter().find_map(|t| {
                            t.rows
                                .iter()
                                .find(|r| Some(r.no) == pno)
                                .map(|r| (t.board, r))
                        })
                    });
                    Some(TeamPlayer {
                        no: pno,
                        name: p.person.name.clone(),
                        board: line.map(|(b, _)| b),
                        games: line.map_or(0, |(_, r)| r.games),
                        points: line.map_or_else(|| "0".to_string(), |(_, r)| r.points_text()),
                        record: line.map_or_else(
                            || "0/0/0".to_string(),
                            |(_, r)| format!("{}/{}/{}", r.wins, r.draws, r.losses),
                        ),
                        withdrawn: s.state.status(*id).is_some_and(|s| s.is_out()),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let mut rounds = Vec::new();
    for r in rec.rounds.values().filter(|r| r.published) {
        let Some(v) = team_match::round_view(&reg, &s.state, section, r.round) else {
            continue;
        };
        if v.bye.as_deref() == Some(name.as_str()) {
            rounds.push(TeamRoundLine {
                round: r.round,
                opponent: None,
                score: String::new(),
                result: l.t("轮空", "bye").to_string(),
                finished: true,
                boards: Vec::new(),
            });
            continue;
        }
        let Some(m) = v
            .matches
            .iter()
            .find(|m| m.first == name || m.second == name)
        else {
            continue;
        };
        let first = m.first == name;
        let (other, ours_pts, theirs_pts) = if first {
            (&m.second, m.first_points, m.second_points)
        } else {
            (&m.first, m.second_points, m.first_points)
        };
        let result = match m.result {
            None => l.t("进行中", "in play").to_string(),
            Some(res) => {
                let res = if first { res } else { res.reversed() };
                match res {
                    MatchResult::Win | MatchResult::ForfeitWin | MatchResult::Bye => {
                        l.t("胜", "won").to_string()
                    }
                    MatchResult::Draw => l.t("和", "drawn").to_string(),
                    MatchResult::Loss => l.t("负", "lost").to_string(),
                    MatchResult::ForfeitLoss | MatchResult::DoubleForfeit => {
                        l.t("弃权负", "lost by forfeit").to_string()
                    }
                }
            }
        };
        let seat = |x: &Option<SeatView>| x.as_ref().map(|p| (p.no, p.name.clone()));
        let boards = m
            .boards
            .iter()
            .map(|b| {
                let bl = line(l, b);
                let (ours, theirs) = if first {
                    (seat(&b.first), seat(&b.second))
                } else {
                    (seat(&b.second), seat(&b.first))
                };
                let score = if b.result.is_none() {
                    String::new()
                } else if first {
                    format!(
                        "{}:{}",
                        points_text(b.first_points),
                        points_text(b.second_points)
                    )
                } else {
                    format!(
                        "{}:{}",
                        points_text(b.second_points),
                        points_text(b.first_points)
                    )
                };
                let recorded = r
                    .boards
                    .iter()
                    .any(|g| g.board == b.round_board && g.record.is_some());
                TeamBoardLine {
                    board: b.board,
                    record: recorded.then_some(b.round_board),
                    ours,
                    theirs,
                    red: bl.first_red == first,
                    score,
                    note: bl.note,
                }
            })
            .collect();
        rounds.push(TeamRoundLine {
            round: r.round,
            opponent: numbers.get(other).map(|&n| (n, other.clone())),
            score: format!("{}:{}", points_text(ours_pts), points_text(theirs_pts)),
            result,
            finished: m.result.is_some(),
            boards,
        });
    }
    Some(TeamPage {
        no,
        name: name.clone(),
        unit: team.map(|t| t.unit.clone()).unwrap_or_default(),
        row,
        players,
        rounds,
    })
}

/// Team name → team number of `section` (the standings and round pages link to the team
/// pages with it).
pub fn team_numbers(s: &Snapshot, section: &str) -> std::collections::HashMap<String, u32> {
    s.state
        .section(section)
        .map(|rec| {
            rec.team_order
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), i as u32 + 1))
                .collect()
        })
        .unwrap_or_default()
}

/// The team crosstable of a team-match section (A15) as the phone shows it: one row per
/// team in standings order, one column per round — the opponent's number and the match's
/// 局分 from the row's side (「5 · 3:1」), 「轮空」 for a bye.
pub struct TeamCross {
    pub rounds: Vec<u32>,
    pub rows: Vec<TeamCrossRow>,
}

pub struct TeamCrossRow {
    pub rank: u32,
    pub no: u32,
    pub name: String,
    /// Per round of `rounds`: (text, class `w`/`d`/`l`/`p` for a win, draw, loss, in play;
    /// empty when the team did not play).
    pub cells: Vec<(String, &'static str)>,
    pub match_points: String,
    pub game_points: String,
}

/// The team crosstable of `section`, or `None` when it is not a team section.
pub fn crosstable(s: &Snapshot, l: Lang, section: &str) -> Option<TeamCross> {
    let reg = arbiter_director::regulation_of(&s.state).ok()?;
    if !team_match::is_team_section(&reg, section) {
        return None;
    }
    let t = team_match::standings(&reg, &s.state, section).ok()?;
    let mut rounds: Vec<u32> = t
        .rows
        .iter()
        .flat_map(|r| r.rounds.iter().map(|c| c.round))
        .collect();
    rounds.sort_unstable();
    rounds.dedup();
    let rows = t
        .rows
        .iter()
        .map(|r| TeamCrossRow {
            rank: r.rank,
            no: r.no,
            name: r.name.clone(),
            cells: rounds
                .iter()
                .map(|round| {
                    let Some(c) = r.rounds.iter().find(|c| c.round == *round) else {
                        return (String::new(), "");
                    };
                    let class = match c.result {
                        None => "p",
                        Some(MatchResult::Win | MatchResult::ForfeitWin | MatchResult::Bye) => "w",
                        Some(MatchResult::Draw) => "d",
                        Some(_) => "l",
                    };
                    match c.opponent {
                        None => (l.t("轮空", "bye").to_string(), class),
                        Some(o) => (
                            format!(
                                "{o} · {}:{}",
                                points_text(c.game_points),
                                points_text(c.opponent_game_points)
                            ),
                            class,
                        ),
                    }
                })
                .collect(),
            match_points: points_text(r.match_points),
            game_points: points_text(r.game_points),
        })
        .collect();
    Some(TeamCross { rounds, rows })
}
