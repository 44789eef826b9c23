//! Team matches (团体赛, rules.md A15): the arbiter's procedure for a section whose entries
//! are teams that meet teams on numbered boards.
//!
//! - **Team numbers** (队号) by lot (or the section's numbering), recorded with their seed.
//! - **Pairing**: a team Swiss is the xiangqi Swiss of A2 with the teams as its units and
//!   场分 as the score (the pairing engine runs unchanged on them; "red" is the team named
//!   first); a team round robin follows the Berger tables over the team numbers.
//! - **Line-ups** (出场名单): the registered board order is kept unless the regulation allows a
//!   free order; a reserve who plays moves the players below him down one board; without a
//!   line-up, a team fields its first available players in registered order.
//! - **Seating**: board `b` of match `m` is the round's board `(m − 1) × N + b`; the team named
//!   first plays red on the odd boards (§7.2). An empty seat has no game: the board is the
//!   absent side's forfeit, scored here.
//! - **Scoring**: each board's 局分 by the section's scoring table and the colours played; the
//!   match by the sum (`arbiter_standings::team_match`).

use crate::api::Ctx;
use crate::derive_seed;
use crate::permission::{self, Action};
use crate::refusal::{Refusal, Sec};
use crate::{apply_scratch, apply_scratch_owned, regulation_of, DirectorError};
use arbiter_core::{Board, EventState, LogEntry, PlayerId, TeamPairing, TeamRecord};
use arbiter_pairing::{Availability, Entrant, SectionState};
use arbiter_regulation::{ByeBoards, LineupRule, Regulation, Section, TeamMatch};
use arbiter_types::{Colour, GameResult, Outcome, PlayerNo, PlayerResult, Score};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The team-match rules of section `section`, if it is a team-match section.
pub fn rules_of<'a>(reg: &'a Regulation, section: &str) -> Option<(&'a Section, &'a TeamMatch)> {
    let sec = reg.section(section)?;
    sec.team_match.as_ref().map(|tm| (sec, tm))
}

/// Whether `section` is a team-match section.
pub fn is_team_section(reg: &Regulation, section: &str) -> bool {
    rules_of(reg, section).is_some()
}

/// The teams of a section, by name.
pub fn teams_in<'a>(state: &'a EventState, section: &str) -> Vec<&'a TeamRecord> {
    state
        .teams
        .values()
        .filter(|t| t.section.as_deref() == Some(section))
        .collect()
}

/// Whether a team still plays: at least one member who is not withdrawn.
pub fn team_plays(state: &EventState, t: &TeamRecord) -> bool {
    // A player's status is `Withdrawn` exactly when his record says so (one lookup).
    t.members
        .iter()
        .any(|p| state.player(*p).is_none_or(|r| r.withdrawn.is_none()))
}

/// `team_numbers_drawn`: the teams that play, by lot with a seed derived from the event's
/// (the section's `numbering = "given"` keeps the teams' name order). Once a round is paired
/// the numbers stand and new teams get the next ones.
pub fn draw_team_numbers(state: &EventState, section: &str) -> LogEntry {
    let seed = derive_seed(
        state.header.as_ref().map_or(0, |h| h.seed),
        &format!("team-draw/{section}"),
    );
    let playing: Vec<String> = teams_in(state, section)
        .into_iter()
        .filter(|t| team_plays(state, t))
        .map(|t| t.team.clone())
        .collect();
    let rec = state.section(section);
    if let Some(rec) = rec.filter(|r| !r.matches.is_empty()) {
        let mut order = rec.team_order.clone();
        order.extend(playing.into_iter().filter(|t| !rec.team_order.contains(t)));
        return LogEntry::TeamNumbersDrawn {
            section: section.to_string(),
            seed: rec.team_seed.unwrap_or(seed),
            order,
        };
    }
    let numbering = crate::registration::numbering_of(state, section);
    let order = match numbering {
        arbiter_types::Numbering::Given => playing,
        _ => {
            let numbers = arbiter_pairing::round1::draw_numbers(playing.len(), seed);
            let mut order = vec![String::new(); playing.len()];
            for (i, &n) in numbers.iter().enumerate() {
                if let Some(slot) = order.get_mut(n.saturating_sub(1)) {
                    *slot = playing[i].clone();
                }
            }
            order
        }
    };
    LogEntry::TeamNumbersDrawn {
        section: section.to_string(),
        seed,
        order,
    }
}

/// The players' pairing numbers of a team section follow the teams: team 1's members in
/// board order, then team 2's, … (late members after them). Extends the drawn order.
pub fn number_team_players(state: &EventState, section: &str) -> Option<LogEntry> {
    let rec = state.section(section)?;
    let mut order = rec.order.clone();
    let before = order.len();
    let mut known: Vec<PlayerId> = order.clone();
    known.sort_unstable();
    for t in &rec.team_order {
        if let Some(team) = state.teams.get(t) {
            order.extend(
                team.members
                    .iter()
                    .filter(|p| known.binary_search(p).is_err())
                    .copied(),
            );
        }
    }
    (order.len() > before).then(|| LogEntry::PairingNumbersDrawn {
        section: section.to_string(),
        seed: rec.team_seed.unwrap_or(0),
        order,
    })
}

/// The first available players of a team in registered order (no line-up given): not
/// withdrawn, not excused from the round; empty boards when there are too few.
pub fn default_lineup(
    state: &EventState,
    tm: &TeamMatch,
    team: &TeamRecord,
    round: u32,
) -> Vec<Option<PlayerId>> {
    let mut seats: Vec<Option<PlayerId>> = team
        .members
        .iter()
        .copied()
        .filter(|p| available(state, *p, round))
        .take(tm.boards as usize)
        .map(Some)
        .collect();
    seats.resize(tm.boards as usize, None);
    seats
}

fn available(state: &EventState, p: PlayerId, round: u32) -> bool {
    // Not withdrawn (his status is `Withdrawn` exactly when his record says so), not
    // excused: one lookup.
    state
        .player(p)
        .is_none_or(|r| r.withdrawn.is_none() && !r.absent.contains(&round))
}

/// The line-up of `team` for `round`: the one given, else the default.
pub fn lineup_of(
    state: &EventState,
    tm: &TeamMatch,
    section: &str,
    team: &TeamRecord,
    round: u32,
) -> Vec<Option<PlayerId>> {
    state
        .section(section)
        .and_then(|s| s.matches.get(&round))
        .and_then(|r| r.lineups.get(&team.team))
        .cloned()
        .unwrap_or_else(|| default_lineup(state, tm, team, round))
}

/// Why a line-up cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineupProblem {
    /// More players named than the match has boards.
    TooMany { given: usize, boards: u32 },
    /// A player named who is not on the team's roster (his id and name).
    NotMember(PlayerId, String),
    /// A player named twice.
    Twice(PlayerId, String),
    /// A player who has withdrawn.
    Withdrawn(PlayerId, String),
    /// A player seated on a board whose condition he does not meet (「第4台须为女棋手」): the
    /// player's name and the rule in words.
    Board { name: String, rule: String },
}

impl std::fmt::Display for LineupProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineupProblem::TooMany { given, boards } => write!(
                f,
                "出场名单有 {given} 人, 每场只有 {boards} 台 (more players than boards)"
            ),
            LineupProblem::NotMember(p, n) => {
                write!(f, "{n} ({p}) 不是本队队员 (not on the team's roster)")
            }
            LineupProblem::Twice(p, n) => write!(f, "{n} ({p}) 重复出现 (named twice)"),
            LineupProblem::Withdrawn(p, n) => write!(f, "{n} ({p}) 已退赛 (withdrawn)"),
            LineupProblem::Board { name, rule } => write!(
                f,
                "{name} 不能排在此台: 竞赛规程规定{rule} (a board rule of the regulation)"
            ),
        }
    }
}

/// The seats of a line-up as the regulation orders them: with the registered order kept
/// (A15), the named players sit in their registered order whatever order they were named in
/// (a reserve who plays moves the players below him down one board) and the empty boards are
/// the last; with a free order, as named (`None` = an empty board).
pub fn seat_lineup(
    state: &EventState,
    tm: &TeamMatch,
    team: &TeamRecord,
    named: &[Option<PlayerId>],
) -> Result<Vec<Option<PlayerId>>, LineupProblem> {
    let mut seen = BTreeSet::new();
    let name = |p: PlayerId| {
        state
            .player(p)
            .map_or_else(String::new, |r| r.person.name.clone())
    };
    for &p in named.iter().flatten() {
        if !team.members.contains(&p) {
            return Err(LineupProblem::NotMember(p, name(p)));
        }
        if !seen.insert(p) {
            return Err(LineupProblem::Twice(p, name(p)));
        }
        if state.status(p).is_some_and(|s| s.is_out()) {
            return Err(LineupProblem::Withdrawn(p, name(p)));
        }
    }
    let boards = tm.boards as usize;
    let mut seats: Vec<Option<PlayerId>> = match tm.lineup {
        LineupRule::Registered => team
            .members
            .iter()
            .filter(|p| seen.contains(p))
            .copied()
            .map(Some)
            .collect(),
        LineupRule::Free => {
            let mut v = named.to_vec();
            while v.len() > boards && v.last() == Some(&None) {
                v.pop();
            }
            v
        }
    };
    if seats.len() > boards {
        return Err(LineupProblem::TooMany {
            given: seats.iter().flatten().count(),
            boards: tm.boards,
        });
    }
    seats.resize(boards, None);
    if let Some(problem) = board_rule_broken(state, tm, &seats) {
        return Err(problem);
    }
    Ok(seats)
}

/// The first board of `seats` whose player the regulation's board rules do not admit.
pub fn board_rule_broken(
    state: &EventState,
    tm: &TeamMatch,
    seats: &[Option<PlayerId>],
) -> Option<LineupProblem> {
    tm.board_rules.iter().find_map(|rule| {
        let p = seats
            .get(rule.board.checked_sub(1)? as usize)
            .copied()
            .flatten()?;
        let rec = state.player(p)?;
        (!rule.admits(rec.person.sex, rec.person.birth_date)).then(|| LineupProblem::Board {
            name: rec.person.name.clone(),
            rule: rule.words(),
        })
    })
}

/// The round's board number of board `b` (1-based) of match `m` (1-based).
pub fn board_no(tm: &TeamMatch, m: u32, b: u32) -> u32 {
    (m - 1) * tm.boards + b
}

/// The colour of the team named first on board `b`: red on the odd boards (§7.2).
pub fn first_colour(b: u32) -> Colour {
    if b % 2 == 1 {
        Colour::Red
    } else {
        Colour::Black
    }
}

/// The games of a team round: every board with both seats filled, numbered by
/// [`board_no`], with the colours of [`first_colour`].
pub fn seat_round(
    tm: &TeamMatch,
    matches: &[TeamPairing],
    lineup: &dyn Fn(&str) -> Vec<Option<PlayerId>>,
) -> Vec<Board> {
    let mut boards = Vec::new();
    for (i, m) in matches.iter().enumerate() {
        let (first, second) = (lineup(&m.first), lineup(&m.second));
        for b in 1..=tm.boards {
            let at = (b - 1) as usize;
            let (Some(Some(f)), Some(Some(s))) = (first.get(at), second.get(at)) else {
                continue;
            };
            let (red, black) = match first_colour(b) {
                Colour::Red => (*f, *s),
                Colour::Black => (*s, *f),
            };
            boards.push(Board {
                board: board_no(tm, i as u32 + 1, b),
                red,
                black,
            });
        }
    }
    boards
}

/// One board of a match as the team standings read it, seen from the team named first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardScore {
    pub board: u32,
    pub first_player: Option<PlayerId>,
    pub second_player: Option<PlayerId>,
    /// `None` while the game has no result.
    pub result: Option<arbiter_standings::team_match::BoardOutcome>,
    pub first_points: Score,
    pub second_points: Score,
}

/// The boards of match `m` (1-based) of `round`: the seats, and each game's result and 局分 by
/// the section's scoring table and the colours played; an empty seat is its side's forfeit.
pub fn match_boards(
    sec: &Section,
    tm: &TeamMatch,
    state: &EventState,
    round: u32,
    m: u32,
) -> Vec<BoardScore> {
    let Some(rec) = state.section(&sec.id) else {
        return Vec::new();
    };
    let Some(tr) = rec.matches.get(&round) else {
        return Vec::new();
    };
    let Some(pairing) = tr.matches.get((m - 1) as usize) else {
        return Vec::new();
    };
    let seats = |t: &str| {
        state
            .teams
            .get(t)
            .map(|team| lineup_of(state, tm, &sec.id, team, round))
            .unwrap_or_default()
    };
    let (first, second) = (seats(&pairing.first), seats(&pairing.second));
    let games = rec.rounds.get(&round);
    boards_of(
        sec,
        tm,
        &|no| games.and_then(|r| r.board(no)),
        m,
        &first,
        &second,
    )
    .collect()
}

/// Board `board` of a round's boards (as [`arbiter_core::RoundRecord::board`] finds it: at
/// `board − 1`, else by bisection, else by a scan).
fn board_in<'a>(
    boards: &[&'a arbiter_core::BoardRecord],
    board: u32,
) -> Option<&'a arbiter_core::BoardRecord> {
    if let Some(at) = (board as usize).checked_sub(1) {
        if let Some(b) = boards.get(at).filter(|b| b.board == board) {
            return Some(b);
        }
    }
    if let Ok(at) = boards.binary_search_by_key(&board, |b| b.board) {
        if let Some(b) = boards.get(at).filter(|b| b.board == board) {
            return Some(b);
        }
    }
    boards.iter().find(|b| b.board == board).copied()
}

/// The boards of match `m` of a round from both line-ups and the round's games (`game`: the
/// round's board of a number, if seated): see [`match_boards`].
fn boards_of<'a, 'g: 'a>(
    sec: &Section,
    tm: &'a TeamMatch,
    game: &'a dyn Fn(u32) -> Option<&'g arbiter_core::BoardRecord>,
    m: u32,
    first: &'a [Option<PlayerId>],
    second: &'a [Option<PlayerId>],
) -> impl Iterator<Item = BoardScore> + use<'a, 'g> {
    use arbiter_standings::team_match::BoardOutcome as O;
    let table = sec.scoring.table;
    (1..=tm.boards).map(move |b| {
        let at = (b - 1) as usize;
        let f = first.get(at).copied().flatten();
        let s = second.get(at).copied().flatten();
        let (result, fp, sp) = match (f, s) {
            (None, None) => (
                Some(O::DoubleForfeit),
                table.double_forfeit,
                table.double_forfeit,
            ),
            (Some(_), None) => (Some(O::ForfeitWin), table.forfeit_win, table.forfeit_loss),
            (None, Some(_)) => (Some(O::ForfeitLoss), table.forfeit_loss, table.forfeit_win),
            (Some(fp), Some(_)) => {
                let game = game(board_no(tm, m, b));
                match game.and_then(|g| g.result.map(|res| (g, res))) {
                    None => (None, Score::ZERO, Score::ZERO),
                    Some((g, res)) => {
                        // The colours played (a swapped board has them the other way).
                        let colour = if g.red == fp {
                            Colour::Red
                        } else {
                            Colour::Black
                        };
                        let out = res.outcome_for(colour, PlayerNo::from_index(0));
                        let opp = res.outcome_for(colour.opposite(), PlayerNo::from_index(0));
                        let o = match out {
                            Outcome::DoubleForfeit { .. } => O::DoubleForfeit,
                            Outcome::ForfeitWin { .. } => O::ForfeitWin,
                            Outcome::ForfeitLoss { .. } => O::ForfeitLoss,
                            Outcome::Game { result, .. } => match result {
                                PlayerResult::Win => O::Win,
                                PlayerResult::Draw => O::Draw,
                                PlayerResult::Loss => O::Loss,
                            },
                            _ => O::Draw,
                        };
                        (Some(o), out.points(&table), opp.points(&table))
                    }
                }
            }
        };
        BoardScore {
            board: b,
            first_player: f,
            second_player: s,
            result,
            first_points: fp,
            second_points: sp,
        }
    })
}

/// The game points a bye gives a team: a win (or a draw, by the regulation) on every board.
pub fn bye_game_points(sec: &Section, tm: &TeamMatch) -> Score {
    let per = match tm.bye_boards {
        ByeBoards::Win => sec.scoring.table.win,
        ByeBoards::Draw => sec.scoring.table.draw_red,
    };
    Score::from_halves(per.halves() * i64::from(tm.boards))
}

/// The team standings' input for a section: every team by number, every paired match with
/// its boards, the byes, the fouls of each team and its players.
pub fn standings_input(
    sec: &Section,
    tm: &TeamMatch,
    state: &EventState,
) -> arbiter_standings::team_match::TeamMatchInput {
    team_input(sec, tm, state, true).0
}

/// [`standings_input`], and the record of each team of its list (by number); without
/// `full`, the boards carry no players' numbers and the teams no fouls (the pairing engine's
/// view reads neither: only the matches' results).
fn team_input<'s>(
    sec: &Section,
    tm: &TeamMatch,
    state: &'s EventState,
    full: bool,
) -> (
    arbiter_standings::team_match::TeamMatchInput,
    Vec<Option<&'s TeamRecord>>,
) {
    use arbiter_standings::team_match as st;
    use std::borrow::Cow;
    let Some(rec) = state.section(&sec.id) else {
        let input = st::TeamMatchInput {
            teams: Vec::new(),
            matches: Vec::new(),
            byes: Vec::new(),
            match_points: tm.match_points.table(),
            tiebreaks: tm.tiebreaks.clone(),
            fouls: BTreeMap::new(),
        };
        return (input, Vec::new());
    };
    // Team numbers by name, once: a lookup per match side, not a scan of the teams; and the
    // numbered teams' records by number.
    let numbers: HashMap<&str, u32> = rec
        .team_order
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i as u32 + 1))
        .collect();
    let records: Vec<Option<&TeamRecord>> =
        rec.team_order.iter().map(|t| state.teams.get(t)).collect();
    let no = |t: &str| numbers.get(t).copied();
    let pno = |p: Option<PlayerId>| p.filter(|_| full).and_then(|p| rec.pairing_no(p));
    // The numbered teams in name order, to meet each round's line-ups (kept in name order)
    // in one pass; and whether a number is the one its name has and its team is recorded
    // under that name (always, from a fold; a line-up is otherwise looked up by name).
    let mut by_name: Vec<(&str, u32)> = numbers.iter().map(|(&t, &n)| (t, n)).collect();
    by_name.sort_unstable();
    let plain: Vec<bool> = rec
        .team_order
        .iter()
        .zip(&records)
        .enumerate()
        .map(|(i, (t, team))| {
            no(t) == Some(i as u32 + 1) && team.is_some_and(|team| team.team == *t)
        })
        .collect();
    let teams = rec
        .team_order
        .iter()
        .enumerate()
        .map(|(i, t)| st::MatchTeam {
            no: i as u32 + 1,
            name: t.clone(),
        })
        .collect();
    let mut matches = Vec::new();
    let mut byes = Vec::new();
    for (&round, tr) in rec.matches.iter() {
        // The round's games in order, once (a board then found by index or bisection).
        let games: Vec<&arbiter_core::BoardRecord> = rec
            .rounds
            .get(&round)
            .map(|r| r.boards.iter().collect())
            .unwrap_or_default();
        // The line-ups given, by team number (both lists in name order: one merge), and a
        // team's line-up for the round ([`lineup_of`]).
        let mut given: Vec<Option<&Vec<Option<PlayerId>>>> = vec![None; records.len()];
        let mut names = by_name.iter().peekable();
        for (t, l) in tr.lineups.iter() {
            while names.next_if(|(x, _)| *x < t.as_str()).is_some() {}
            if let Some((_, n)) = names.next_if(|(x, _)| *x == t.as_str()) {
                if let Some(slot) = given.get_mut(*n as usize - 1) {
                    *slot = Some(l);
                }
            }
        }
        let seats = |no: u32| -> Cow<'_, [Option<PlayerId>]> {
            let at = no as usize - 1;
            let Some(team) = records.get(at).copied().flatten() else {
                return Cow::Owned(Vec::new());
            };
            let l = if plain.get(at).copied().unwrap_or(false) {
                given.get(at).copied().flatten()
            } else {
                tr.lineups.get(&team.team)
            };
            match l {
                Some(l) => Cow::Borrowed(l.as_slice()),
                None => Cow::Owned(default_lineup(state, tm, team, round)),
            }
        };
        for (i, m) in tr.matches.iter().enumerate() {
            let (Some(first), Some(second)) = (no(&m.first), no(&m.second)) else {
                continue;
            };
            let (a, b) = (seats(first), seats(second));
            let boards = boards_of(sec, tm, &|n| board_in(&games, n), i as u32 + 1, &a, &b)
                .map(|b| st::MatchBoard {
                    board: b.board,
                    result: b.result,
                    first_points: b.first_points,
                    second_points: b.second_points,
                    first_player: pno(b.first_player),
                    second_player: pno(b.second_player),
                })
                .collect();
            matches.push(st::PlayedMatch {
                round,
                first,
                second,
                boards,
            });
        }
        if let Some(t) = tr.bye.as_deref().and_then(no) {
            byes.push(st::TeamBye {
                round,
                team: t,
                game_points: bye_game_points(sec, tm),
            });
        }
    }
    let mut fouls = BTreeMap::new();
    for (i, team) in records.iter().enumerate().filter(|_| full) {
        let Some(team) = team else {
            continue;
        };
        let own = team.fouls.len() as u32;
        let players: u32 = team
            .members
            .iter()
            .filter_map(|p| state.player(*p))
            .map(|p| p.fouls.len() as u32)
            .sum();
        fouls.insert(i as u32 + 1, own + players);
    }
    let input = st::TeamMatchInput {
        teams,
        matches,
        byes,
        match_points: tm.match_points.table(),
        tiebreaks: tm.tiebreaks.clone(),
        fouls,
    };
    (input, records)
}

/// The team standings of a team-match section (A15).
pub fn standings(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<arbiter_standings::team_match::TeamMatchStandings, DirectorError> {
    let (sec, tm) =
        rules_of(reg, section).ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    Ok(arbiter_standings::team_match::team_match_standings(
        &standings_input(sec, tm, state),
    ))
}

/// The pairing engine's view of the teams before `round`: one entrant per team number, its
/// history the matches of the rounds completed (named first = red; a forfeited match a
/// forfeit; a bye), its score 场分 by the regulation's match points.
pub fn pairing_state(
    sec: &Section,
    tm: &TeamMatch,
    state: &EventState,
    total_rounds: u32,
) -> SectionState {
    let (input, records) = team_input(sec, tm, state, false);
    // Each team's matches by round, as the team table lists them (no ranking needed).
    let cells: BTreeMap<u32, Vec<arbiter_standings::team_match::MatchCell>> =
        arbiter_standings::team_match::team_match_cells(&input)
            .into_iter()
            .collect();
    let rec = state.section(&sec.id);
    let completed = rec.map_or(0, |r| r.completed_rounds());
    let units: BTreeMap<&str, u32> = {
        let names: BTreeSet<&str> = state.teams.values().map(|t| t.unit.as_str()).collect();
        names
            .into_iter()
            .enumerate()
            .map(|(i, u)| (u, i as u32 + 1))
            .collect()
    };
    let players = input
        .teams
        .iter()
        .zip(&records)
        .map(|(t, &team)| {
            let row = cells.get(&t.no);
            let history = (1..=completed)
                .map(|r| {
                    row.and_then(|row| row.iter().find(|c| c.round == r))
                        .map_or(Outcome::Absent, cell_outcome)
                })
                .collect();
            let active = team.is_some_and(|tr| team_plays(state, tr));
            Entrant {
                no: PlayerNo::from_index((t.no - 1) as usize),
                team: team.and_then(|tr| units.get(tr.unit.as_str()).copied()),
                availability: if active {
                    Availability::Active
                } else {
                    Availability::Withdrawn
                },
                history,
            }
        })
        .collect();
    SectionState {
        players,
        scoring: tm.match_points.table(),
        settings: sec.pairing,
        total_rounds,
    }
}

/// A team's round as the pairing engine reads it: the team named first is red; the match's
/// result is the game's (a forfeited match a forfeit, a bye the bye).
fn cell_outcome(c: &arbiter_standings::team_match::MatchCell) -> Outcome {
    use arbiter_standings::team_match::MatchResult as R;
    use arbiter_types::Side;
    let (Some(result), Some(opp), Some(side)) = (c.result, c.opponent, c.side) else {
        return match c.result {
            Some(R::Bye) => Outcome::Bye,
            _ => Outcome::Absent,
        };
    };
    let opponent = PlayerNo::from_index(opp.saturating_sub(1) as usize);
    let colour = match side {
        Side::First => Colour::Red,
        Side::Second => Colour::Black,
    };
    let game = |result| Outcome::Game {
        opponent,
        colour,
        result,
    };
    match result {
        R::Win => game(PlayerResult::Win),
        R::Draw => game(PlayerResult::Draw),
        R::Loss => game(PlayerResult::Loss),
        R::ForfeitWin => Outcome::ForfeitWin { opponent, colour },
        R::ForfeitLoss => Outcome::ForfeitLoss { opponent, colour },
        R::DoubleForfeit => Outcome::DoubleForfeit { opponent, colour },
        R::Bye => Outcome::Bye,
    }
}

/// What pairing a team round did, for the arbiter.
#[derive(Debug, Clone, Default)]
pub struct TeamPaired {
    pub entries: Vec<LogEntry>,
    pub round: u32,
    pub explanation: String,
    pub relaxed: Vec<String>,
    pub notes: Vec<String>,
    /// The hard rules a round paired by hand breaks (the pairing stands, A3b).
    pub warnings: Vec<String>,
}

/// `round pair` in a team-match section: the team numbers drawn if nobody has, the players
/// numbered by team, the previous round closed, then the round's matches and its games
/// seated with each team's line-up (the registered order until one is given).
pub fn pair(state: &EventState, ctx: &Ctx, section: &str) -> Result<TeamPaired, DirectorError> {
    pair_by_hand(state, ctx, section, &[], None)
}

/// [`pair`] with the chief arbiter's fixed matches (`fixed`, team numbers) and a swap of two
/// teams (`swap`) in a team Swiss (A3b, as for players): the engine pairs the rest around
/// the fixed matches, the swap exchanges two teams' places afterwards, every hard rule the
/// result breaks is a warning, and the round's `manual` says what was done. A round robin
/// refuses both (its table decides).
pub fn pair_by_hand(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    fixed: &[(PlayerNo, PlayerNo)],
    swap: Option<(PlayerNo, PlayerNo)>,
) -> Result<TeamPaired, DirectorError> {
    permission::require(ctx, Action::PairRound)?;
    let reg = regulation_of(state)?;
    let (sec, tm) = rules_of(&reg, section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let at = ctx.at_rfc3339();
    let mut scratch = state.clone();
    let mut out = TeamPaired::default();
    let push = |scratch: &mut EventState, out: &mut TeamPaired, e: LogEntry| {
        apply_scratch_owned(scratch, e, &at).map(|e| out.entries.push(e))
    };
    let rec = scratch
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    if rec.team_order.is_empty() || teams_in(&scratch, section).len() > rec.team_order.len() {
        let e = draw_team_numbers(&scratch, section);
        if let LogEntry::TeamNumbersDrawn { order, seed, .. } = &e {
            if order.len() > rec.team_order.len() {
                out.notes
                    .push(format!("已抽签排定队号: 1–{} (种子 {seed})", order.len()));
                push(&mut scratch, &mut out, e)?;
            }
        }
    }
    if let Some(e) = number_team_players(&scratch, section) {
        push(&mut scratch, &mut out, e)?;
    }
    let teams = scratch.section(section).map_or(0, |r| r.team_order.len());
    if teams < 2 {
        return Err(Refusal::TooFewTeams {
            section: Sec::in_reg(&reg, section),
            teams,
        }
        .into());
    }
    // Close the last round if every game of it has a result.
    let rec = scratch
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    match crate::step::open_round(rec) {
        Some(crate::step::Step::Results { round, boards }) => {
            return Err(Refusal::RoundUnfinished {
                section: Sec::in_reg(&reg, section),
                round,
                boards,
            }
            .into());
        }
        Some(crate::step::Step::CompleteRound { round }) => {
            let e = LogEntry::RoundCompleted {
                section: section.to_string(),
                round,
            };
            push(&mut scratch, &mut out, e)?;
        }
        _ => {}
    }
    let last = scratch.section(section).map_or(0, |r| r.last_round());
    let planned = planned_rounds(sec, teams as u32);
    let round = last + 1;
    if round > planned {
        return Err(Refusal::AllRoundsPlayed {
            section: Sec::in_reg(&reg, section),
        }
        .into());
    }
    out.round = round;
    let by_hand = !fixed.is_empty() || swap.is_some();
    let mut paired = if by_hand {
        if !matches!(sec.format.kind, arbiter_regulation::FormatKind::Swiss) {
            return Err(Refusal::TeamManual {
                section: Sec::in_reg(&reg, section),
            }
            .into());
        }
        pair_matches_fixed(sec, tm, &scratch, section, round, fixed)?
    } else {
        pair_matches(sec, tm, &scratch, section, round)?
    };
    let mut manual = Vec::new();
    if by_hand {
        let h = crate::manual::by_hand(&paired.input, round, paired.pairing.clone(), fixed, swap)
            .map_err(|e| DirectorError::from(Refusal::Manual(e)))?;
        let order = scratch
            .section(section)
            .map(|r| r.team_order.clone())
            .unwrap_or_default();
        let team = |no: PlayerNo| {
            format!(
                "{no}号队 {}",
                order.get(no.index()).cloned().unwrap_or_default()
            )
        };
        manual.extend(fixed.iter().map(|&(a, b)| {
            format!(
                "裁判长指定 {}–{} 对阵 (match fixed by the arbiter)",
                team(a),
                team(b)
            )
        }));
        if let Some((a, b)) = swap {
            manual.push(format!(
                "裁判长调换 {}/{} (teams swapped by the arbiter)",
                team(a),
                team(b)
            ));
        }
        out.warnings = h
            .warnings
            .iter()
            .map(|v| format!("第{round}轮 round {round}: {v}"))
            .collect();
        paired.pairing = h.pairing;
        paired.matches = paired
            .pairing
            .boards
            .iter()
            .map(|b| TeamPairing {
                first: order.get(b.red.index()).cloned().unwrap_or_default(),
                second: order.get(b.black.index()).cloned().unwrap_or_default(),
            })
            .collect();
        paired.bye = paired
            .pairing
            .bye
            .and_then(|b| order.get(b.index()).cloned());
    }
    let pairing = &paired.pairing;
    let order = scratch
        .section(section)
        .map(|r| r.team_order.clone())
        .unwrap_or_default();
    let name = |no: PlayerNo| order.get(no.index()).map_or("", String::as_str);
    let (matches, seed) = (paired.matches.clone(), paired.seed);
    out.relaxed = pairing
        .relaxed
        .iter()
        .map(|v| format!("第{round}轮 round {round}: {v}"))
        .collect();
    let mut explanation = format!("第{round}轮 团体对阵说明 (round {round} matches)\n");
    for (i, b) in pairing.boards.iter().enumerate() {
        explanation.push_str(&format!(
            "第{}场 {} 对 {}: {}; {}\n",
            i + 1,
            name(b.red),
            name(b.black),
            b.why.group,
            b.why.colour.replace("应走红", "应先走")
        ));
    }
    if let (Some(b), Some(why)) = (pairing.bye, &pairing.bye_why) {
        explanation.push_str(&format!("轮空 {}: {why}\n", name(b)));
    }
    out.explanation = explanation;
    let e = LogEntry::MatchesPaired {
        section: section.to_string(),
        round,
        matches: matches.clone(),
        bye: pairing.bye.map(|b| name(b).to_string()),
        seed: Some(seed),
        manual,
    };
    push(&mut scratch, &mut out, e)?;
    // Every team's line-up is recorded with the round: the registered order for a team that
    // gave none (a later line-up replaces it), so that the seats never depend on what
    // happens after the round (a later withdrawal).
    for m in &matches {
        for t in [&m.first, &m.second] {
            let Some(team) = scratch.teams.get(t) else {
                continue;
            };
            let boards = default_lineup(&scratch, tm, team, round);
            if let Some(problem) = board_rule_broken(&scratch, tm, &boards) {
                out.notes.push(format!(
                    "{t} 按报名顺序出场时 {problem}; 请录入该队本轮出场名单 \
                     (the registered order breaks a board rule: take the team's line-up)"
                ));
            }
            let e = LogEntry::LineupGiven {
                section: section.to_string(),
                round,
                team: t.clone(),
                boards,
                by: String::new(),
            };
            push(&mut scratch, &mut out, e)?;
        }
    }
    let e = seated(&scratch, sec, tm, section, round, seed);
    push(&mut scratch, &mut out, e)?;
    Ok(out)
}

/// A team round as the engine pairs it on `state`: the pairing over the team numbers, the
/// engine's input, the matches by name, the bye and the seed.
pub struct PairedMatches {
    pub pairing: arbiter_pairing::Pairing,
    pub input: SectionState,
    pub matches: Vec<TeamPairing>,
    pub bye: Option<String>,
    pub seed: u64,
    pub swiss: bool,
}

/// Pair round `round` of a team section on `state` (its numbers drawn, the round before it
/// closed): the team Swiss by the pairing engine, or the round robin's table.
pub fn pair_matches(
    sec: &Section,
    tm: &TeamMatch,
    state: &EventState,
    section: &str,
    round: u32,
) -> Result<PairedMatches, DirectorError> {
    pair_matches_fixed(sec, tm, state, section, round, &[])
}

/// [`pair_matches`] with fixed matches (team numbers) for the team Swiss engine.
fn pair_matches_fixed(
    sec: &Section,
    tm: &TeamMatch,
    state: &EventState,
    section: &str,
    round: u32,
    fixed: &[(PlayerNo, PlayerNo)],
) -> Result<PairedMatches, DirectorError> {
    let teams = state.section(section).map_or(0, |r| r.team_order.len());
    let planned = planned_rounds(sec, teams as u32);
    let input = pairing_state(sec, tm, state, planned);
    let seed = crate::plan::round_seed(state, section, round);
    let swiss = !matches!(
        sec.format.kind,
        arbiter_regulation::FormatKind::RoundRobin
            | arbiter_regulation::FormatKind::DoubleRoundRobin
    );
    let pairing = if !swiss {
        let cycles = if sec.format.kind == arbiter_regulation::FormatKind::DoubleRoundRobin {
            2
        } else {
            1
        };
        let mut p =
            arbiter_pairing::round_robin::pair_round_robin(&input, round, cycles).map_err(|e| {
                crate::round::pairing_err(&sec.name, round, crate::PairingFailure::Engine(e))
            })?;
        let out_of_play: BTreeSet<PlayerNo> = input
            .players
            .iter()
            .filter(|e| e.availability != Availability::Active)
            .map(|e| e.no)
            .collect();
        p.boards
            .retain(|b| !out_of_play.contains(&b.red) && !out_of_play.contains(&b.black));
        if p.bye.is_some_and(|b| out_of_play.contains(&b)) {
            p.bye = None;
        }
        p
    } else {
        crate::manual::engine_pairing(&input, round, seed, fixed).map_err(|e| match e {
            crate::manual::ManualError::Engine(e) => {
                crate::round::pairing_err(&sec.name, round, crate::PairingFailure::Engine(e))
            }
            other => Refusal::Manual(other).into(),
        })?
    };
    let order = state
        .section(section)
        .map(|r| r.team_order.clone())
        .unwrap_or_default();
    let name = |no: PlayerNo| order.get(no.index()).cloned().unwrap_or_default();
    let matches = pairing
        .boards
        .iter()
        .map(|b| TeamPairing {
            first: name(b.red),
            second: name(b.black),
        })
        .collect();
    let bye = pairing.bye.map(name);
    Ok(PairedMatches {
        pairing,
        input,
        matches,
        bye,
        seed,
        swiss,
    })
}

/// `event verify` of a team section's pairing entries (A15), on the state before the entry:
/// the team numbers and the players' numbers drawn again, the matches paired again (and a
/// team Swiss round through the independent checker at team level), the games seated again
/// from the matches and the line-ups. `None`: not an entry of a team section's pairing.
pub fn verify_entry(reg: &Regulation, state: &EventState, entry: &LogEntry) -> Option<Vec<String>> {
    let section = match entry {
        LogEntry::TeamNumbersDrawn { section, .. }
        | LogEntry::MatchesPaired { section, .. }
        | LogEntry::PairingNumbersDrawn { section, .. }
        | LogEntry::RoundPaired { section, .. } => section,
        _ => return None,
    };
    let (sec, tm) = rules_of(reg, section)?;
    let mut out = Vec::new();
    match entry {
        LogEntry::TeamNumbersDrawn { .. } if &draw_team_numbers(state, section) != entry => {
            out.push(
                "队号抽签结果与记录的种子不符 (team numbers differ from the recorded seed)".into(),
            );
        }
        LogEntry::PairingNumbersDrawn { .. }
            if number_team_players(state, section).as_ref() != Some(entry) =>
        {
            out.push(
                "棋手序号不是按队号与台次排定 (players are not numbered by team and board)".into(),
            );
        }
        LogEntry::MatchesPaired {
            round,
            matches,
            bye,
            manual,
            ..
        } => match pair_matches(sec, tm, state, section, *round) {
            Err(e) => out.push(format!(
                "无法重新编排团体对阵: {e} (cannot re-pair the matches)"
            )),
            Ok(p) => {
                if manual.is_empty() && (&p.matches != matches || &p.bye != bye) {
                    out.push("重新编排的团体对阵与记录不同 (re-pairing the teams gives different matches)".into());
                }
                if p.swiss && *round >= 2 {
                    let rec = state.section(section);
                    let no = |t: &str| rec.and_then(|r| r.team_no(t)).and_then(PlayerNo::new);
                    let boards = matches
                        .iter()
                        .enumerate()
                        .filter_map(|(i, m)| {
                            Some(arbiter_pairing::Board {
                                board: i as u32 + 1,
                                red: no(&m.first)?,
                                black: no(&m.second)?,
                                why: Default::default(),
                            })
                        })
                        .collect();
                    let pairing = arbiter_pairing::Pairing {
                        round: *round,
                        boards,
                        bye: bye.as_deref().and_then(no),
                        bye_why: None,
                        relaxed: Vec::new(),
                    };
                    // A round the arbiter paired by hand keeps what he fixed (A3b): the
                    // rules it breaks were his warnings; it must still be well formed.
                    let by_hand = !manual.is_empty();
                    for v in arbiter_pairing::checker::check(&p.input, *round, &pairing)
                        .into_iter()
                        .filter(|v| !(by_hand && v.is_rule()))
                    {
                        out.push(format!("团体编排检查: {v} (team pairing check)"));
                    }
                }
            }
        },
        LogEntry::RoundPaired {
            round,
            boards,
            seed,
            ..
        } => {
            let expected = seated(state, sec, tm, section, *round, seed.unwrap_or(0));
            if let LogEntry::RoundPaired { boards: b2, .. } = expected {
                if &b2 != boards {
                    out.push("台次与团体对阵、出场名单不符 (the games do not follow the matches and the line-ups)".into());
                }
            }
        }
        _ => {}
    }
    Some(out)
}

/// The `round_paired` of a team round from its matches and the line-ups (given or default).
fn seated(
    state: &EventState,
    sec: &Section,
    tm: &TeamMatch,
    section: &str,
    round: u32,
    seed: u64,
) -> LogEntry {
    let matches = state
        .section(section)
        .and_then(|r| r.matches.get(&round))
        .map(|r| r.matches.clone())
        .unwrap_or_default();
    // Each team's line-up as [`lineup_of`] finds it, the round looked up once.
    let given = state
        .section(&sec.id)
        .and_then(|s| s.matches.get(&round))
        .map(|r| &r.lineups);
    let lineup = |t: &str| {
        state
            .teams
            .get(t)
            .map(|team| match given.and_then(|g| g.get(&team.team)) {
                Some(l) => l.clone(),
                None => default_lineup(state, tm, team, round),
            })
            .unwrap_or_default()
    };
    LogEntry::RoundPaired {
        section: section.to_string(),
        round,
        stage: 1,
        boards: seat_round(tm, &matches, &lineup),
        byes: Vec::new(),
        seed: Some(seed),
        manual: Vec::new(),
    }
}

/// The rounds a team section plays: the Swiss's rounds, or the round robin's over the teams.
pub fn planned_rounds(sec: &Section, teams: u32) -> u32 {
    use arbiter_regulation::FormatKind as K;
    let per_cycle = arbiter_pairing::round_robin::rounds_per_cycle(teams as usize) as u32;
    match sec.format.kind {
        K::RoundRobin => per_cycle,
        K::DoubleRoundRobin => 2 * per_cycle,
        _ => sec.format.rounds.unwrap_or(0),
    }
}

/// A team's line-up for a round (出场名单): `lineup_given`, and the round's games seated
/// again with it — while none of the team's games of that round has a result.
pub fn give_lineup(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    team: &str,
    named: &[Option<PlayerId>],
    by: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::GiveLineup)?;
    let reg = regulation_of(state)?;
    let (sec, tm) = rules_of(&reg, section).ok_or_else(|| Refusal::NotTeamSection {
        section: Sec::in_reg(&reg, section),
    })?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let tr = rec.matches.get(&round).ok_or_else(|| Refusal::NoMatches {
        section: Sec::in_reg(&reg, section),
        round,
    })?;
    let team_rec = state.teams.get(team).ok_or_else(|| Refusal::UnknownTeam {
        team: team.to_string(),
        closest: None,
    })?;
    // 出场名单截止 (A15): after the deadline only the chief arbiter takes a line-up.
    if let Some(deadline) = lineup_deadline(sec, tm, round) {
        if ctx.at > deadline && permission::require(ctx, Action::LateLineup).is_err() {
            return Err(Refusal::LineupLate {
                team: team.to_string(),
                round,
                deadline: deadline.format("%Y-%m-%d %H:%M").to_string(),
            }
            .into());
        }
    }
    let seats = seat_lineup(state, tm, team_rec, named).map_err(|why| Refusal::Lineup {
        team: team.to_string(),
        why,
    })?;
    let seed = tr
        .seed
        .unwrap_or_else(|| crate::plan::round_seed(state, section, round));
    let at = ctx.at_rfc3339();
    let mut scratch = state.clone();
    let given = LogEntry::LineupGiven {
        section: section.to_string(),
        round,
        team: team.to_string(),
        boards: seats,
        by: by.trim().to_string(),
    };
    apply_scratch(&mut scratch, &given, &at)?;
    let seated = seated(&scratch, sec, tm, section, round, seed);
    Ok(vec![given, seated])
}

/// When round `round`'s line-ups are due (出场名单截止, A15): the regulation's
/// `lineup_deadline_minutes` before the round's start by the section's schedule; `None` without
/// a deadline or a start time.
pub fn lineup_deadline(sec: &Section, tm: &TeamMatch, round: u32) -> Option<chrono::NaiveDateTime> {
    let minutes = tm.lineup_deadline_minutes?;
    let start = sec
        .schedule
        .get(usize::try_from(round.checked_sub(1)?).ok()?)?;
    start.checked_sub_signed(chrono::Duration::minutes(i64::from(minutes)))
}

/// The team standings as the arbiter reads them at the desk or in a terminal (团体名次): rank,
/// team, 场分, 局分, matches won, drawn and lost, every criterion of the regulation's list, and
/// what decided each place.
pub fn standings_text(
    section_name: &str,
    table: &arbiter_standings::team_match::TeamMatchStandings,
) -> String {
    use std::fmt::Write as _;
    let mut out = format!("{section_name} 团体名次 (team standings: 场分/局分)\n");
    let _ = writeln!(
        out,
        "  名次\t队名\t场分\t局分\t胜\t和\t负\t胜局\t弃权\t犯规\t区分"
    );
    for r in &table.rows {
        let decided = r.decided_by.map_or(String::new(), |d| d.zh().to_string());
        let _ = writeln!(
            out,
            "  {}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{decided}",
            r.rank,
            r.name,
            r.match_points,
            r.game_points,
            r.wins,
            r.draws,
            r.losses,
            r.game_wins,
            r.forfeits,
            r.fouls
        );
    }
    out
}

/// One player on a board of a match, as the sheets show him.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SeatView {
    pub id: PlayerId,
    /// Pairing number (序号) once drawn.
    pub no: Option<u32>,
    pub name: String,
}

/// One board of a match (台): its number in the match and in the round, who sits on each
/// side, the colour of the team named first, the game's result and each side's 局分.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MatchBoardView {
    /// 1…N inside the match.
    pub board: u32,
    /// The round's board number (`result --board` takes it).
    pub round_board: u32,
    pub first: Option<SeatView>,
    pub second: Option<SeatView>,
    pub first_colour: Colour,
    /// The game's result seen from the team named first (`None` while unplayed); an empty
    /// seat is its side's forfeit.
    pub result: Option<arbiter_standings::team_match::BoardOutcome>,
    pub first_points: Score,
    pub second_points: Score,
}

/// One match of a team round with both line-ups and its running score (局分 so far), and its
/// result once every board has one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MatchView {
    /// 1-based, in the round's order (场次).
    pub no: u32,
    pub first: String,
    pub second: String,
    pub first_points: Score,
    pub second_points: Score,
    /// The match's result for the team named first, once finished.
    pub result: Option<arbiter_standings::team_match::MatchResult>,
    pub boards: Vec<MatchBoardView>,
    /// The captain who confirmed the match for the team named first (队长确认; `Some("")`:
    /// confirmed without a name), `None` while not confirmed.
    pub first_confirmed: Option<String>,
    /// The same for the second team.
    pub second_confirmed: Option<String>,
}

impl MatchView {
    /// Both captains have confirmed the match.
    pub fn both_confirmed(&self) -> bool {
        self.first_confirmed.is_some() && self.second_confirmed.is_some()
    }
}

/// A team round as every shell shows it (对阵表 with line-ups, 记分表, the phone's match page).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TeamRoundView {
    pub section: String,
    pub section_name: String,
    pub round: u32,
    pub published: bool,
    pub matches: Vec<MatchView>,
    pub bye: Option<String>,
}

/// Round `round` of a team section as [`TeamRoundView`]; `None` when it is not paired (or the
/// section is not a team match).
pub fn round_view(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    round: u32,
) -> Option<TeamRoundView> {
    use arbiter_standings::team_match as st;
    let (sec, tm) = rules_of(reg, section)?;
    let rec = state.section(section)?;
    let tr = rec.matches.get(&round)?;
    let seat = |p: Option<PlayerId>| {
        p.map(|id| SeatView {
            id,
            no: rec.pairing_no(id).map(PlayerNo::get),
            name: state
                .player(id)
                .map_or_else(String::new, |r| r.person.name.clone()),
        })
    };
    let matches = tr
        .matches
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let no = i as u32 + 1;
            let boards = match_boards(sec, tm, state, round, no);
            let (first_confirmed, second_confirmed) = tr.confirmations(no).unwrap_or_default();
            let played = st::PlayedMatch {
                round,
                first: 1,
                second: 2,
                boards: boards
                    .iter()
                    .map(|b| st::MatchBoard {
                        board: b.board,
                        result: b.result,
                        first_points: b.first_points,
                        second_points: b.second_points,
                        first_player: None,
                        second_player: None,
                    })
                    .collect(),
            };
            MatchView {
                no,
                first: m.first.clone(),
                second: m.second.clone(),
                first_points: played.game_points(arbiter_types::Side::First),
                second_points: played.game_points(arbiter_types::Side::Second),
                result: played.outcome(),
                first_confirmed: first_confirmed.map(str::to_string),
                second_confirmed: second_confirmed.map(str::to_string),
                boards: boards
                    .into_iter()
                    .map(|b| MatchBoardView {
                        board: b.board,
                        round_board: board_no(tm, no, b.board),
                        first: seat(b.first_player),
                        second: seat(b.second_player),
                        first_colour: first_colour(b.board),
                        result: b.result,
                        first_points: b.first_points,
                        second_points: b.second_points,
                    })
                    .collect(),
            }
        })
        .collect();
    Some(TeamRoundView {
        section: section.to_string(),
        section_name: sec.name.clone(),
        round,
        published: rec.rounds.get(&round).is_some_and(|r| r.published),
        matches,
        bye: tr.bye.clone(),
    })
}

/// The published team table of a team-match section (`team_matches` of the export); `None`
/// when the section is not a team match.
pub fn export_table(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Option<crate::export::TeamMatchTable> {
    use crate::export::{TeamMatchRoundExport, TeamMatchRowExport, TeamMatchTable};
    let (_, tm) = rules_of(reg, section)?;
    let table = standings(reg, state, section).ok()?;
    let rec = state.section(section);
    let confirmed = |round: u32, team: &str| {
        rec.and_then(|r| r.matches.get(&round))
            .is_some_and(|tr| tr.confirmed.contains_key(team))
    };
    Some(TeamMatchTable {
        section: section.to_string(),
        tiebreaks: tm.tiebreaks.iter().map(|t| t.name().to_string()).collect(),
        standings: table
            .rows
            .iter()
            .map(|r| TeamMatchRowExport {
                rank: r.rank,
                no: r.no,
                team: r.name.clone(),
                match_points: r.match_points,
                game_points: r.game_points,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
                game_wins: r.game_wins,
                forfeits: r.forfeits,
                fouls: r.fouls,
                decided_by: r.decided_by.map(|d| d.name().to_string()),
                rounds: r
                    .rounds
                    .iter()
                    .map(|c| TeamMatchRoundExport {
                        round: c.round,
                        opponent: c.opponent,
                        game_points: c.game_points,
                        opponent_game_points: c.opponent_game_points,
                        match_points: c.match_points,
                        confirmed: confirmed(c.round, &r.name),
                    })
                    .collect(),
            })
            .collect(),
        board_standings: board_prizes(reg, state, section),
    })
}

/// A team that does not appear (整队弃权, A15): every game of its match in `round` (the last
/// round paired when `None`) is entered as its forfeit (迟到判负), through the result entry the
/// desk uses, so a board that already has a result is refused as any second entry is. Its
/// empty seats are forfeits already; the match is then its forfeit loss. Returns the entries
/// and the round's boards entered.
pub fn team_absent(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: Option<u32>,
    team: &str,
) -> Result<(Vec<LogEntry>, u32, Vec<u32>), DirectorError> {
    permission::require(ctx, Action::EnterResult)?;
    let reg = regulation_of(state)?;
    let (_, tm) = rules_of(&reg, section).ok_or_else(|| Refusal::NotTeamSection {
        section: Sec::in_reg(&reg, section),
    })?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let round = round
        .or_else(|| rec.matches.keys().next_back().copied())
        .ok_or_else(|| Refusal::NoMatches {
            section: Sec::in_reg(&reg, section),
            round: 1,
        })?;
    let tr = rec.matches.get(&round).ok_or_else(|| Refusal::NoMatches {
        section: Sec::in_reg(&reg, section),
        round,
    })?;
    let members = &state
        .teams
        .get(team)
        .ok_or_else(|| Refusal::UnknownTeam {
            team: team.to_string(),
            closest: None,
        })?
        .members;
    let (m, _) = tr.match_of(team).ok_or_else(|| Refusal::TeamNotPlaying {
        team: team.to_string(),
        round,
    })?;
    let at = ctx.at_rfc3339();
    let mut scratch = state.clone();
    let mut entries = Vec::new();
    let mut boards = Vec::new();
    for b in 1..=tm.boards {
        let no = board_no(tm, m, b);
        let game = scratch
            .section(section)
            .and_then(|r| r.rounds.get(&round))
            .and_then(|r| r.board(no))
            .map(|g| members.contains(&g.red));
        let Some(absent_is_red) = game else {
            continue; // an empty seat: a forfeit already
        };
        let result = if absent_is_red {
            GameResult::RedForfeit
        } else {
            GameResult::BlackForfeit
        };
        let input = crate::api::results::ResultInput {
            round: Some(round),
            ending: Some(arbiter_core::Ending::Late),
            ..crate::api::results::ResultInput::new(no, result)
        };
        for e in crate::api::results::enter_result(&scratch, ctx, section, &input)? {
            apply_scratch(&mut scratch, &e, &at)?;
            entries.push(e);
        }
        boards.push(no);
    }
    Ok((entries, round, boards))
}

/// What a captain's confirmation recorded: the round, the match (场次), and the opponent's
/// captain when he has confirmed already (`Some("")`: confirmed without a name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchConfirmation {
    pub round: u32,
    pub match_no: u32,
    pub opponent: String,
    pub opponent_by: Option<String>,
}

/// A team's captain confirms its match of `round` (the last round paired when `None`) by
/// signing the match's score sheet (队长确认, A15): `match_confirmed`, once per team, only when
/// every board of the match has a result (an empty seat is a forfeit already). `section`: its
/// id or its name. A result of the match entered or corrected later drops the confirmations
/// (`arbiter_core`'s fold), and the captains confirm again.
pub fn confirm_match(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: Option<u32>,
    team: &str,
    by: &str,
) -> Result<(Vec<LogEntry>, MatchConfirmation), DirectorError> {
    permission::require(ctx, Action::ConfirmMatch)?;
    let section = crate::api::import::section_id(state, section);
    let section = section.as_str();
    let reg = regulation_of(state)?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let (_, tm) = rules_of(&reg, section).ok_or_else(|| Refusal::NotTeamSection {
        section: Sec::in_reg(&reg, section),
    })?;
    let round = round
        .or_else(|| rec.matches.keys().next_back().copied())
        .ok_or_else(|| Refusal::NoMatches {
            section: Sec::in_reg(&reg, section),
            round: 1,
        })?;
    let tr = rec.matches.get(&round).ok_or_else(|| Refusal::NoMatches {
        section: Sec::in_reg(&reg, section),
        round,
    })?;
    let team = team.trim();
    let t = state.teams.get(team).ok_or_else(|| {
        let names = teams_in(state, section)
            .into_iter()
            .map(|t| t.team.as_str());
        Refusal::UnknownTeam {
            team: team.to_string(),
            closest: arbiter_types::closest(team, names).map(str::to_string),
        }
    })?;
    if t.section.as_deref() != Some(section) {
        return Err(Refusal::TeamNotInSection {
            team: team.to_string(),
            section: Sec::in_reg(&reg, section),
        }
        .into());
    }
    if tr.bye.as_deref() == Some(team) {
        return Err(Refusal::TeamHadBye {
            team: team.to_string(),
            round,
        }
        .into());
    }
    let (m, first) = tr.match_of(team).ok_or_else(|| Refusal::TeamNotPlaying {
        team: team.to_string(),
        round,
    })?;
    if let Some(by) = tr.confirmed.get(team) {
        return Err(Refusal::MatchConfirmedAlready {
            team: team.to_string(),
            round,
            match_no: m,
            by: by.clone(),
        }
        .into());
    }
    let games = rec.rounds.get(&round);
    for b in 1..=tm.boards {
        let no = board_no(tm, m, b);
        let unplayed = games
            .and_then(|r| r.board(no))
            .is_some_and(|g| g.result.is_none());
        if unplayed {
            return Err(Refusal::MatchUnfinished {
                team: team.to_string(),
                round,
                match_no: m,
                board: b,
                round_board: no,
            }
            .into());
        }
    }
    let opponent = tr
        .matches
        .get((m - 1) as usize)
        .map(|p| {
            if first {
                p.second.clone()
            } else {
                p.first.clone()
            }
        })
        .unwrap_or_default();
    let opponent_by = tr.confirmed.get(&opponent).cloned();
    let entry = LogEntry::MatchConfirmed {
        section: section.to_string(),
        round,
        team: team.to_string(),
        by: by.trim().to_string(),
    };
    Ok((
        vec![entry],
        MatchConfirmation {
            round,
            match_no: m,
            opponent,
            opponent_by,
        },
    ))
}

/// A board as typed at the desk or in a terminal: the round's board number (「10」), or in a
/// team-match section a match's board (「3.2」, 「3-2」, 「3．2」: match 3, board 2), turned into
/// the round's board number. `round`: the round meant (the last paired when `None`). The
/// error says in words what is wrong with the text.
pub fn board_from_text(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    round: Option<u32>,
    text: &str,
) -> Result<u32, String> {
    let t = text.trim();
    if let Ok(n) = t.parse::<u32>() {
        return if n == 0 {
            Err("台号从 1 开始 (boards are numbered from 1)".to_string())
        } else {
            Ok(n)
        };
    }
    let split = t
        .split_once(['.', '-', '．', '－'])
        .map(|(m, b)| (m.trim().parse::<u32>(), b.trim().parse::<u32>()));
    let Some((Ok(m), Ok(b))) = split else {
        return Err(format!(
            "台号 「{t}」 应为正整数, 团体赛也可写 场次.台次 如 3.2 (a board number, or match.board)"
        ));
    };
    let Some((_, tm)) = rules_of(reg, section) else {
        return Err(format!(
            "「{t}」: 本组别不是团体赛, 请输入台号 (not a team match: type the board number)"
        ));
    };
    let rec = state.section(section);
    let round = round.or_else(|| rec.and_then(|r| r.matches.keys().next_back().copied()));
    let matches = rec
        .zip(round)
        .and_then(|(r, n)| r.matches.get(&n))
        .map_or(0, |tr| tr.matches.len() as u32);
    if m == 0 || m > matches {
        return Err(format!(
            "本轮没有第{m}场: 共 {matches} 场 (no match {m} in this round)"
        ));
    }
    if b == 0 || b > tm.boards {
        return Err(format!(
            "每场只有 {} 台, 没有第{b}台 (a match has {} boards)",
            tm.boards, tm.boards
        ));
    }
    Ok(board_no(tm, m, b))
}

/// One player of a board's table (台次成绩, for 台次奖).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardPrizeRow {
    /// 1-based and unique; `None` for a player with fewer games than the regulation asks.
    pub rank: Option<u32>,
    /// Pairing number in the section.
    pub no: u32,
    pub name: String,
    pub team: String,
    /// Games on every board (forfeits included; an empty seat is nobody's game).
    pub games: u32,
    /// Games on this board.
    pub games_on_board: u32,
    /// Game points on every board.
    pub points: Score,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// 得分率 (points ÷ games × a win's points) in per mille, rounded half up: 625 = 62.5 %.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_permille: Option<i64>,
}

impl BoardPrizeRow {
    /// The points as the tables print them (「3½」).
    pub fn points_text(&self) -> String {
        crate::crosstable::points_text(self.points)
    }

    /// 「62.5%」, or empty when there is no rate.
    pub fn rate_text(&self) -> String {
        self.rate_permille
            .map_or_else(String::new, |r| format!("{}.{}%", r / 10, r % 10))
    }
}

/// The players of one board, ranked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardPrizeTable {
    pub board: u32,
    pub rows: Vec<BoardPrizeRow>,
}

/// The board standings of a team-match section (台次奖, A15): each player listed on the
/// board he played most, ranked by score rate, then points, then games; players with fewer
/// than `min_games` games follow unranked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardPrizes {
    pub section: String,
    pub section_name: String,
    /// Games a player needs to be ranked: the regulation's `board_prize_min_games`, else half
    /// the rounds planned, rounded up.
    pub min_games: u32,
    pub boards: Vec<BoardPrizeTable>,
}

/// The board standings of `section` over its finished matches; `None` when it is not a team
/// match.
pub fn board_prizes(reg: &Regulation, state: &EventState, section: &str) -> Option<BoardPrizes> {
    let (sec, tm) = rules_of(reg, section)?;
    let rec = state.section(section);
    let teams = rec.map_or(0, |r| r.team_order.len() as u32);
    let min_games = tm
        .board_prize_min_games
        .unwrap_or_else(|| planned_rounds(sec, teams).div_ceil(2))
        .max(1);
    let input = standings_input(sec, tm, state);
    let tables =
        arbiter_standings::team_match::board_standings(&input, min_games, sec.scoring.table.win);
    // `order[i]` has pairing number i + 1.
    let by_no = |n: PlayerNo| {
        let i = (n.get() as usize).checked_sub(1)?;
        rec.and_then(|r| r.order.get(i)).copied()
    };
    let team_name = |n: u32| {
        rec.zip((n as usize).checked_sub(1))
            .and_then(|(r, i)| r.team_order.get(i))
            .cloned()
            .unwrap_or_default()
    };
    let boards = tables
        .into_iter()
        .map(|t| BoardPrizeTable {
            board: t.board,
            rows: t
                .rows
                .into_iter()
                .map(|r| BoardPrizeRow {
                    rank: r.rank,
                    no: r.player.get(),
                    name: by_no(r.player)
                        .and_then(|p| state.player(p))
                        .map_or_else(String::new, |p| p.person.name.clone()),
                    team: team_name(r.team),
                    games: r.games,
                    games_on_board: r.games_on_board,
                    points: r.points,
                    wins: r.wins,
                    draws: r.draws,
                    losses: r.losses,
                    rate_permille: r.rate.and_then(permille),
                })
                .collect(),
        })
        .collect();
    Some(BoardPrizes {
        section: section.to_string(),
        section_name: sec.name.clone(),
        min_games,
        boards,
    })
}

/// An exact rate in per mille, rounded half up (never through floating point).
fn permille(v: arbiter_standings::TbValue) -> Option<i64> {
    let (n, d) = v.ratio();
    if d <= 0 {
        return None;
    }
    let scaled = i128::from(n) * 1000;
    let d = i128::from(d);
    let q = (2 * scaled + d).div_euclid(2 * d);
    i64::try_from(q).ok()
}

/// The board standings as the arbiter reads them in a terminal (台次成绩).
pub fn board_prizes_text(p: &BoardPrizes) -> String {
    use std::fmt::Write as _;
    let mut out = format!(
        "{} 台次成绩 (board standings; 至少 {} 局方可排名)\n",
        p.section_name, p.min_games
    );
    for t in &p.boards {
        let _ = writeln!(out, "第{}台 (board {})", t.board, t.board);
        let _ = writeln!(
            out,
            "  名次\t序号\t姓名\t队名\t局数\t本台\t得分\t胜\t和\t负\t得分率"
        );
        for r in &t.rows {
            let rank = r.rank.map_or_else(|| "-".to_string(), |n| n.to_string());
            let _ = writeln!(
                out,
                "  {rank}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                r.no,
                r.name,
                r.team,
                r.games,
                r.games_on_board,
                r.points,
                r.wins,
                r.draws,
                r.losses,
                r.rate_text()
            );
        }
    }
    out
}
