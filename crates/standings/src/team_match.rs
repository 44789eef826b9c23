//! Team-match standings (团体赛: 场分 / 局分; rules.md A15, Part B §2.4 and §7.2).
//!
//! A team meets a team on boards 1…N; each board is a game. The director scores every board
//! with the section's scoring table and colours and hands the game points (局分) over in a
//! [`TeamMatchInput`]; this module decides each match (场分), ranks the teams by the
//! regulation's ordered list of [`TeamTiebreak`]s and, for the board prizes (台次奖), ranks the
//! players of every board ([`board_standings`]).
//!
//! Rules, as implemented:
//! - A match counts only when it has boards and every board has a result. An unfinished
//!   match is listed in the teams' rounds but gives nothing yet: no 场分, no 局分, no game
//!   counted anywhere.
//! - Match result (§2.4): a side every board of which is lost by forfeit (弃权, a forfeit
//!   loss or a double forfeit) loses the match by forfeit when the other side's boards are
//!   not all forfeited (`forfeit_loss` / `forfeit_win`); when both sides forfeited every
//!   board it is a double forfeit (`double_forfeit` each). Otherwise the side with more 局分
//!   wins (`win` / `loss`), equal 局分 is a draw: `draw_red` for the team named first,
//!   `draw_black` for the second (leagues give home and away different draw points).
//! - A team bye (轮空) gives the table's `bye` as 场分 and its given 局分.
//! - Ties are broken group by group: criterion k only splits teams equal on criteria
//!   1…k−1. 直胜 is evaluated on the group still tied when the list reaches it, and — as the
//!   individual standings do (§4.3, "restart per subgroup") — again on every smaller group
//!   that a later criterion splits off, so it can decide between two teams of a larger tie.
//!   Teams equal after the whole list share the place (并列) and are listed by team number.
//!
//! Invalid entries never make the computation fail or panic: a match naming an unknown
//! team (or the same team twice), a bye or a foul count of an unknown team, and a second
//! team with a number already listed are left out and reported in
//! [`TeamMatchStandings::ignored`]. Totals are exact (half-points) and saturate at the
//! limits of `i64`, far beyond any real event, instead of overflowing.

use crate::value::TbValue;
use arbiter_types::{PlayerNo, Score, ScoringTable, Side, TeamTiebreak};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A team of a team-match section.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchTeam {
    /// The team number (队号), 1-based; unique in the section.
    pub no: u32,
    /// Display name, e.g. "苏州一队".
    pub name: String,
}

/// The result of one board, seen from the team named first in the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardOutcome {
    Win,
    Draw,
    Loss,
    /// The other team's player forfeited (or its seat was empty).
    ForfeitWin,
    /// This team's player forfeited (or its seat was empty).
    ForfeitLoss,
    /// Both forfeited (双方弃权).
    DoubleForfeit,
}

impl BoardOutcome {
    /// The same game seen from the other team.
    pub fn reversed(self) -> BoardOutcome {
        match self {
            BoardOutcome::Win => BoardOutcome::Loss,
            BoardOutcome::Loss => BoardOutcome::Win,
            BoardOutcome::ForfeitWin => BoardOutcome::ForfeitLoss,
            BoardOutcome::ForfeitLoss => BoardOutcome::ForfeitWin,
            BoardOutcome::Draw | BoardOutcome::DoubleForfeit => self,
        }
    }

    /// The game seen from `side` (a stored outcome is the first team's view).
    pub fn for_side(self, side: Side) -> BoardOutcome {
        match side {
            Side::First => self,
            Side::Second => self.reversed(),
        }
    }

    /// A won game (胜局): a win or a forfeit win.
    pub fn is_win(self) -> bool {
        matches!(self, BoardOutcome::Win | BoardOutcome::ForfeitWin)
    }

    /// A game lost by forfeit (弃权): a forfeit loss or a double forfeit.
    pub fn is_forfeit_loss(self) -> bool {
        matches!(
            self,
            BoardOutcome::ForfeitLoss | BoardOutcome::DoubleForfeit
        )
    }
}

/// One board (台) of a match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchBoard {
    /// The board number (台次), 1 = first board.
    pub board: u32,
    /// Seen from the first team; `None` while the game is not over.
    #[serde(default)]
    pub result: Option<BoardOutcome>,
    /// The first team's game points on this board (局分), as the director scored them.
    #[serde(default)]
    pub first_points: Score,
    /// The second team's game points on this board.
    #[serde(default)]
    pub second_points: Score,
    /// Who sat for the first team; `None` = an empty seat (the director scores it as a
    /// forfeit). Used by the board standings only.
    #[serde(default)]
    pub first_player: Option<PlayerNo>,
    #[serde(default)]
    pub second_player: Option<PlayerNo>,
}

impl MatchBoard {
    /// The game points of `side` on this board.
    pub fn points(&self, side: Side) -> Score {
        match side {
            Side::First => self.first_points,
            Side::Second => self.second_points,
        }
    }

    /// The player of `side`; `None` for an empty seat.
    pub fn player(&self, side: Side) -> Option<PlayerNo> {
        match side {
            Side::First => self.first_player,
            Side::Second => self.second_player,
        }
    }
}

/// A match between two teams in one round.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedMatch {
    pub round: u32,
    /// The team named first (先走方: red on the odd boards).
    pub first: u32,
    pub second: u32,
    pub boards: Vec<MatchBoard>,
}

impl PlayedMatch {
    /// The team number of `side`.
    pub fn team(&self, side: Side) -> u32 {
        match side {
            Side::First => self.first,
            Side::Second => self.second,
        }
    }

    /// The match counts: it has boards and every board has a result.
    pub fn is_finished(&self) -> bool {
        !self.boards.is_empty() && self.boards.iter().all(|b| b.result.is_some())
    }

    /// The game points (局分) of `side` on the boards that have a result.
    pub fn game_points(&self, side: Side) -> Score {
        self.boards
            .iter()
            .filter(|b| b.result.is_some())
            .fold(Score::ZERO, |acc, b| add(acc, b.points(side)))
    }

    /// The result for the first team; `None` while the match is unfinished. See the module
    /// documentation for the forfeit rule.
    pub fn outcome(&self) -> Option<MatchResult> {
        if !self.is_finished() {
            return None;
        }
        let all_forfeited = |side: Side| {
            self.boards
                .iter()
                .all(|b| b.result.is_some_and(|r| r.for_side(side).is_forfeit_loss()))
        };
        Some(
            match (all_forfeited(Side::First), all_forfeited(Side::Second)) {
                (true, true) => MatchResult::DoubleForfeit,
                (true, false) => MatchResult::ForfeitLoss,
                (false, true) => MatchResult::ForfeitWin,
                (false, false) => match self
                    .game_points(Side::First)
                    .cmp(&self.game_points(Side::Second))
                {
                    Ordering::Greater => MatchResult::Win,
                    Ordering::Equal => MatchResult::Draw,
                    Ordering::Less => MatchResult::Loss,
                },
            },
        )
    }
}

/// A team Swiss bye (轮空).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamBye {
    pub round: u32,
    pub team: u32,
    /// The game points (局分) the regulation gives for the bye.
    pub game_points: Score,
}

/// Everything the team-match standings need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamMatchInput {
    pub teams: Vec<MatchTeam>,
    pub matches: Vec<PlayedMatch>,
    #[serde(default)]
    pub byes: Vec<TeamBye>,
    /// Match points (场分): `win`, `draw_red` = the first team's draw, `draw_black` = the
    /// second team's, `loss`, `bye`, `forfeit_win`, `forfeit_loss`, `double_forfeit`.
    /// Default: A15's 2 / 1 / 0 (bye and forfeit win 2).
    #[serde(default = "default_match_points")]
    pub match_points: ScoringTable,
    /// The whole ranking order, 场分 included (it is not implied). Default:
    /// [`TeamTiebreak::DEFAULT`].
    #[serde(default = "default_tiebreaks")]
    pub tiebreaks: Vec<TeamTiebreak>,
    /// Fouls (犯规) of each team and its players in the section, by team number; a team not
    /// listed has none.
    #[serde(default)]
    pub fouls: BTreeMap<u32, u32>,
}

/// A15's match points: win 2, draw 1 (first and second alike), loss 0, bye 2, forfeit win
/// 2, forfeit loss 0, double forfeit 0.
pub fn default_match_points() -> ScoringTable {
    ScoringTable {
        win: Score::points(2),
        draw_red: Score::points(1),
        draw_black: Score::points(1),
        loss: Score::ZERO,
        bye: Score::points(2),
        forfeit_win: Score::points(2),
        forfeit_loss: Score::ZERO,
        double_forfeit: Score::ZERO,
    }
}

fn default_tiebreaks() -> Vec<TeamTiebreak> {
    TeamTiebreak::DEFAULT.to_vec()
}

/// How a match (or a bye) ended for one team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchResult {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    DoubleForfeit,
    /// 轮空: scored with the table's `bye`.
    Bye,
}

impl MatchResult {
    /// The same match seen from the other team.
    pub fn reversed(self) -> MatchResult {
        match self {
            MatchResult::Win => MatchResult::Loss,
            MatchResult::Loss => MatchResult::Win,
            MatchResult::ForfeitWin => MatchResult::ForfeitLoss,
            MatchResult::ForfeitLoss => MatchResult::ForfeitWin,
            MatchResult::Draw | MatchResult::DoubleForfeit | MatchResult::Bye => self,
        }
    }

    /// The match points (场分) of a team on `side` with this result (a draw depends on the
    /// side; a bye ignores it).
    pub fn match_points(self, side: Side, table: &ScoringTable) -> Score {
        match self {
            MatchResult::Win => table.win,
            MatchResult::Draw => match side {
                Side::First => table.draw_red,
                Side::Second => table.draw_black,
            },
            MatchResult::Loss => table.loss,
            MatchResult::ForfeitWin => table.forfeit_win,
            MatchResult::ForfeitLoss => table.forfeit_loss,
            MatchResult::DoubleForfeit => table.double_forfeit,
            MatchResult::Bye => table.bye,
        }
    }

    /// Counted as a match won (胜场): a win, a forfeit win and a bye.
    pub fn is_win(self) -> bool {
        matches!(
            self,
            MatchResult::Win | MatchResult::ForfeitWin | MatchResult::Bye
        )
    }

    /// Counted as a match lost: a loss, a forfeit loss and a double forfeit.
    pub fn is_loss(self) -> bool {
        matches!(
            self,
            MatchResult::Loss | MatchResult::ForfeitLoss | MatchResult::DoubleForfeit
        )
    }
}

/// One round of a team's row, for a crosstable (`3:1`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MatchCell {
    pub round: u32,
    /// The team met; `None` for a bye.
    pub opponent: Option<u32>,
    /// The side this team had; `None` for a bye.
    pub side: Option<Side>,
    /// This team's game points (局分) in the match — while unfinished, on the boards that
    /// have a result so far; for a bye, the bye's game points.
    pub game_points: Score,
    /// The opponent's game points (0 for a bye).
    pub opponent_game_points: Score,
    /// `None` while the match is unfinished.
    pub result: Option<MatchResult>,
    /// The match points (场分) taken; `None` while the match is unfinished.
    pub match_points: Option<Score>,
}

/// A team's game points on one board over the event (for 台次).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardPoints {
    pub board: u32,
    pub points: Score,
    /// Games on this board in counted matches.
    pub games: u32,
}

/// One line of the team-match standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamMatchRow {
    /// 1-based; a shared place repeats the rank and the next rank skips (1, 2, 2, 4).
    pub rank: u32,
    pub no: u32,
    pub name: String,
    /// 场分, byes included.
    pub match_points: Score,
    /// 局分, byes included.
    pub game_points: Score,
    /// Matches won (胜场): wins, forfeit wins and byes.
    pub wins: u32,
    pub draws: u32,
    /// Matches lost: losses, forfeit losses and double forfeits.
    pub losses: u32,
    /// Byes (轮空), also counted in `wins`.
    pub byes: u32,
    /// Boards won (胜局), forfeit wins included.
    pub game_wins: u32,
    pub game_draws: u32,
    /// Boards lost, forfeits included.
    pub game_losses: u32,
    /// Boards lost by forfeit (弃权), double forfeits included.
    pub forfeits: u32,
    /// 犯规, from the input.
    pub fouls: u32,
    /// The team's game points board by board (counted matches only; byes have no board),
    /// by board number.
    pub board_points: Vec<BoardPoints>,
    /// One value per criterion of the list, in the list's order. 直胜: the match points
    /// taken from the teams of the last tied group it was evaluated on, 0 when it was not
    /// evaluated or did not apply. 台次: the points on the lowest-numbered board of the
    /// event (board 1); the whole comparison is in `board_points`.
    pub values: Vec<TbValue>,
    /// The criterion that put this row below the row above; `None` for the first row and
    /// for a shared place.
    pub decided_by: Option<TeamTiebreak>,
    /// The team's matches and byes, by round (then opponent).
    pub rounds: Vec<MatchCell>,
}

/// An entry of the input left out of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ignored {
    /// A second team with a number already listed: the first one listed is kept.
    DuplicateTeam { no: u32, name: String },
    /// A match naming a team that is not in the list.
    UnknownTeamInMatch { round: u32, first: u32, second: u32 },
    /// A match of a team against itself.
    MatchAgainstItself { round: u32, team: u32 },
    /// A bye of a team that is not in the list.
    UnknownTeamBye { round: u32, team: u32 },
    /// Fouls recorded for a team that is not in the list.
    UnknownTeamFouls { team: u32 },
}

/// The ranked table of a team-match section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamMatchStandings {
    /// Every team, in rank order (a shared place by team number).
    pub rows: Vec<TeamMatchRow>,
    /// Entries of the input left out, sorted.
    pub ignored: Vec<Ignored>,
}

/// Exact sum that saturates instead of overflowing.
fn add(a: Score, b: Score) -> Score {
    Score::from_halves(a.halves().saturating_add(b.halves()))
}

/// The input with team numbers resolved to indices into `teams` (sorted by number).
struct Resolved<'a> {
    teams: Vec<&'a MatchTeam>,
    /// Matches of known teams: (match, first index, second index).
    matches: Vec<(&'a PlayedMatch, usize, usize)>,
    byes: Vec<(&'a TeamBye, usize)>,
    ignored: Vec<Ignored>,
}

impl<'a> Resolved<'a> {
    fn new(input: &'a TeamMatchInput) -> Self {
        let mut ignored = Vec::new();
        let mut teams: Vec<&MatchTeam> = Vec::with_capacity(input.teams.len());
        // Stable: of two teams with one number, the first listed stays.
        let mut sorted: Vec<&MatchTeam> = input.teams.iter().collect();
        sorted.sort_by_key(|t| t.no);
        for t in sorted {
            if teams.last().is_some_and(|l| l.no == t.no) {
                ignored.push(Ignored::DuplicateTeam {
                    no: t.no,
                    name: t.name.clone(),
                });
            } else {
                teams.push(t);
            }
        }
        let index = |no: u32| teams.binary_search_by_key(&no, |t| t.no).ok();
        let mut matches = Vec::with_capacity(input.matches.len());
        for m in &input.matches {
            match (index(m.first), index(m.second)) {
                (Some(a), Some(b)) if a != b => matches.push((m, a, b)),
                (Some(_), Some(_)) => ignored.push(Ignored::MatchAgainstItself {
                    round: m.round,
                    team: m.first,
                }),
                _ => ignored.push(Ignored::UnknownTeamInMatch {
                    round: m.round,
                    first: m.first,
                    second: m.second,
                }),
            }
        }
        let mut byes = Vec::with_capacity(input.byes.len());
        for b in &input.byes {
            match index(b.team) {
                Some(t) => byes.push((b, t)),
                None => ignored.push(Ignored::UnknownTeamBye {
                    round: b.round,
                    team: b.team,
                }),
            }
        }
        for &team in input.fouls.keys() {
            if index(team).is_none() {
                ignored.push(Ignored::UnknownTeamFouls { team });
            }
        }
        ignored.sort();
        Resolved {
            teams,
            matches,
            byes,
            ignored,
        }
    }
}

/// Everything counted for one team.
#[derive(Default)]
struct Tally {
    mp: Score,
    gp: Score,
    wins: u32,
    draws: u32,
    losses: u32,
    byes: u32,
    game_wins: u32,
    game_draws: u32,
    game_losses: u32,
    forfeits: u32,
    fouls: u32,
    /// 对手分.
    omp: Score,
    /// Board number → (points, games).
    boards: BTreeMap<u32, (Score, u32)>,
    /// Counted matches that are meetings for 直胜 (not double forfeits): (opponent index,
    /// match points taken).
    met: Vec<(usize, Score)>,
    /// Opponent index of every counted match (对手分).
    opponents: Vec<usize>,
    cells: Vec<MatchCell>,
}

impl Tally {
    fn count_result(&mut self, r: MatchResult) {
        if r.is_win() {
            self.wins = self.wins.saturating_add(1);
        } else if r.is_loss() {
            self.losses = self.losses.saturating_add(1);
        } else {
            self.draws = self.draws.saturating_add(1);
        }
    }
}

fn tally(input: &TeamMatchInput, res: &Resolved<'_>) -> Vec<Tally> {
    let table = &input.match_points;
    let mut tallies: Vec<Tally> = (0..res.teams.len()).map(|_| Tally::default()).collect();
    for &(m, a, b) in &res.matches {
        let outcome = m.outcome();
        let gp = [m.game_points(Side::First), m.game_points(Side::Second)];
        for (side, me, other) in [(Side::First, a, b), (Side::Second, b, a)] {
            let result = outcome.map(|o| match side {
                Side::First => o,
                Side::Second => o.reversed(),
            });
            let mp = result.map(|r| r.match_points(side, table));
            let (own, opp) = match side {
                Side::First => (gp[0], gp[1]),
                Side::Second => (gp[1], gp[0]),
            };
            let t = &mut tallies[me];
            t.cells.push(MatchCell {
                round: m.round,
                opponent: Some(res.teams[other].no),
                side: Some(side),
                game_points: own,
                opponent_game_points: opp,
                result,
                match_points: mp,
            });
            let (Some(result), Some(mp)) = (result, mp) else {
                continue;
            };
            t.mp = add(t.mp, mp);
            t.gp = add(t.gp, own);
            t.count_result(result);
            t.opponents.push(other);
            if result != MatchResult::DoubleForfeit {
                t.met.push((other, mp));
            }
            for board in &m.boards {
                let Some(r) = board.result.map(|r| r.for_side(side)) else {
                    continue;
                };
                match r {
                    BoardOutcome::Win | BoardOutcome::ForfeitWin => {
                        t.game_wins = t.game_wins.saturating_add(1)
                    }
                    BoardOutcome::Draw => t.game_draws = t.game_draws.saturating_add(1),
                    BoardOutcome::Loss
                    | BoardOutcome::ForfeitLoss
                    | BoardOutcome::DoubleForfeit => {
                        t.game_losses = t.game_losses.saturating_add(1)
                    }
                }
                if r.is_forfeit_loss() {
                    t.forfeits = t.forfeits.saturating_add(1);
                }
                let e = t.boards.entry(board.board).or_default();
                e.0 = add(e.0, board.points(side));
                e.1 = e.1.saturating_add(1);
            }
        }
    }
    for &(bye, me) in &res.byes {
        let t = &mut tallies[me];
        t.mp = add(t.mp, table.bye);
        t.gp = add(t.gp, bye.game_points);
        t.count_result(MatchResult::Bye);
        t.byes = t.byes.saturating_add(1);
        t.cells.push(MatchCell {
            round: bye.round,
            opponent: None,
            side: None,
            game_points: bye.game_points,
            opponent_game_points: Score::ZERO,
            result: Some(MatchResult::Bye),
            match_points: Some(table.bye),
        });
    }
    let mp: Vec<Score> = tallies.iter().map(|t| t.mp).collect();
    for (i, t) in tallies.iter_mut().enumerate() {
        t.omp = t
            .opponents
            .iter()
            .fold(Score::ZERO, |acc, &o| add(acc, mp[o]));
        t.fouls = input
            .fouls
            .get(&res.teams[i].no)
            .copied()
            .unwrap_or_default();
        // A total order on the cells: the same table whatever the input order.
        t.cells.sort();
    }
    tallies
}

/// Board by board, lower numbers first, more points first; a board a team never played
/// counts 0.
fn compare_boards(a: &BTreeMap<u32, (Score, u32)>, b: &BTreeMap<u32, (Score, u32)>) -> Ordering {
    let mut x = a.iter().peekable();
    let mut y = b.iter().peekable();
    loop {
        let (pa, pb) = match (x.peek(), y.peek()) {
            (None, None) => return Ordering::Equal,
            (Some((&ba, &(pa, _))), Some((&bb, &(pb, _)))) => match ba.cmp(&bb) {
                Ordering::Less => {
                    x.next();
                    (pa, Score::ZERO)
                }
                Ordering::Greater => {
                    y.next();
                    (Score::ZERO, pb)
                }
                Ordering::Equal => {
                    x.next();
                    y.next();
                    (pa, pb)
                }
            },
            (Some((_, &(pa, _))), None) => {
                x.next();
                (pa, Score::ZERO)
            }
            (None, Some((_, &(pb, _)))) => {
                y.next();
                (Score::ZERO, pb)
            }
        };
        match pb.cmp(&pa) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
}

struct Ranker<'a> {
    tallies: &'a [Tally],
    list: &'a [TeamTiebreak],
    /// 直胜 value of each team in the last group it was evaluated on.
    direct: Vec<Score>,
    /// Scratch: `mark[t] == stamp` while team `t` is in the group being evaluated.
    mark: Vec<u64>,
    stamp: u64,
    /// By position: the criterion that separated this position from the one above.
    decided: Vec<Option<TeamTiebreak>>,
    /// By position: equal with the position above on the whole list.
    tied: Vec<bool>,
    first_direct: Option<usize>,
}

impl Ranker<'_> {
    /// `Less` when team `a` ranks ahead of team `b` on criterion `t`.
    fn cmp(&self, t: TeamTiebreak, a: usize, b: usize) -> Ordering {
        let (x, y) = (&self.tallies[a], &self.tallies[b]);
        match t {
            TeamTiebreak::MatchPoints => y.mp.cmp(&x.mp),
            TeamTiebreak::GamePoints => y.gp.cmp(&x.gp),
            TeamTiebreak::MatchWins => y.wins.cmp(&x.wins),
            TeamTiebreak::GameWins => y.game_wins.cmp(&x.game_wins),
            TeamTiebreak::OpponentMatchPoints => y.omp.cmp(&x.omp),
            TeamTiebreak::Direct => self.direct[b].cmp(&self.direct[a]),
            TeamTiebreak::Fouls => x.fouls.cmp(&y.fouls),
            TeamTiebreak::Forfeits => x.forfeits.cmp(&y.forfeits),
            TeamTiebreak::Boards => compare_boards(&x.boards, &y.boards),
        }
    }

    /// 直胜 on `group`: when every two teams of it have met, each team's match points taken
    /// from the others of the group; otherwise 0 for all (it separates nobody).
    fn evaluate_direct(&mut self, group: &[usize]) {
        self.stamp += 1;
        let stamp = self.stamp;
        for &t in group {
            self.mark[t] = stamp;
        }
        let mut complete = true;
        let mut seen: Vec<usize> = Vec::new();
        let mut values = Vec::with_capacity(group.len());
        for &t in group {
            seen.clear();
            let mut sum = Score::ZERO;
            for &(o, mp) in &self.tallies[t].met {
                if self.mark[o] == stamp {
                    seen.push(o);
                    sum = add(sum, mp);
                }
            }
            seen.sort_unstable();
            seen.dedup();
            complete &= seen.len() + 1 == group.len();
            values.push(sum);
        }
        for (&t, v) in group.iter().zip(values) {
            self.direct[t] = if complete { v } else { Score::ZERO };
        }
    }

    /// Orders `order` (team indices sorted by number) by the list, group by group.
    fn rank(&mut self, order: &mut [usize]) {
        let nl = self.list.len();
        // (start, end, level, levels below which only 直胜 is evaluated again).
        let mut stack = vec![(0usize, order.len(), 0usize, 0usize)];
        while let Some((start, end, mut level, direct_only_below)) = stack.pop() {
            loop {
                if end - start < 2 {
                    break;
                }
                if level == nl {
                    for pos in start + 1..end {
                        self.tied[pos] = true;
                    }
                    break;
                }
                let t = self.list[level];
                let is_direct = t == TeamTiebreak::Direct;
                if level < direct_only_below && !is_direct {
                    level += 1;
                    continue;
                }
                if is_direct {
                    self.evaluate_direct(&order[start..end]);
                }
                // Stable: teams equal so far stay in team-number order.
                order[start..end].sort_by(|&a, &b| self.cmp(t, a, b));
                let mut runs = Vec::new();
                let mut s = start;
                for i in start + 1..=end {
                    if i == end || self.cmp(t, order[s], order[i]) != Ordering::Equal {
                        runs.push((s, i));
                        s = i;
                    }
                }
                if runs.len() == 1 {
                    level += 1;
                    continue;
                }
                // Each still-tied subgroup restarts at the first 直胜 (§4.3); the other
                // criteria up to this one are equal inside a run and are skipped.
                let (next, only_below) = match self.first_direct {
                    Some(fd) if fd <= level => (fd, level + 1),
                    _ => (level + 1, 0),
                };
                for &(s, e) in runs.iter().rev() {
                    if s > start {
                        self.decided[s] = Some(t);
                    }
                    stack.push((s, e, next, only_below));
                }
                break;
            }
        }
    }
}

/// The value of criterion `t` shown on a team's row. `first_board`: the lowest board number
/// of the event (台次's first key).
fn value(t: TeamTiebreak, tally: &Tally, direct: Score, first_board: Option<u32>) -> TbValue {
    let int = |n: u32| TbValue::Int(i64::from(n));
    match t {
        TeamTiebreak::MatchPoints => TbValue::Score(tally.mp),
        TeamTiebreak::GamePoints => TbValue::Score(tally.gp),
        TeamTiebreak::MatchWins => int(tally.wins),
        TeamTiebreak::GameWins => int(tally.game_wins),
        TeamTiebreak::OpponentMatchPoints => TbValue::Score(tally.omp),
        TeamTiebreak::Direct => TbValue::Score(direct),
        TeamTiebreak::Fouls => int(tally.fouls),
        TeamTiebreak::Forfeits => int(tally.forfeits),
        TeamTiebreak::Boards => TbValue::Score(
            first_board
                .and_then(|b| tally.boards.get(&b))
                .map_or(Score::ZERO, |&(p, _)| p),
        ),
    }
}

/// Ranks the teams of a team-match section (A15). See the module documentation for the
/// rules; never fails: invalid entries are left out and listed in `ignored`.
pub fn team_match_standings(input: &TeamMatchInput) -> TeamMatchStandings {
    let res = Resolved::new(input);
    let mut tallies = tally(input, &res);
    // 台次 compares the boards of the whole event: the lowest board number anyone played is
    // every team's first value, 0 where the team has no game on it.
    let first_board = tallies
        .iter()
        .filter_map(|t| t.boards.keys().next().copied())
        .min();
    let n = res.teams.len();
    let list = &input.tiebreaks;
    let mut ranker = Ranker {
        tallies: &tallies,
        list,
        direct: vec![Score::ZERO; n],
        mark: vec![0; n],
        stamp: 0,
        decided: vec![None; n],
        tied: vec![false; n],
        first_direct: list.iter().position(|&t| t == TeamTiebreak::Direct),
    };
    let mut order: Vec<usize> = (0..n).collect();
    ranker.rank(&mut order);
    let Ranker {
        direct,
        decided,
        tied,
        ..
    } = ranker;
    let mut rows = Vec::with_capacity(n);
    let mut rank = 0u32;
    for (pos, &i) in order.iter().enumerate() {
        let shared = pos > 0 && tied[pos];
        if !shared {
            rank = pos as u32 + 1;
        }
        let t = &mut tallies[i];
        let values = list
            .iter()
            .map(|&c| value(c, t, direct[i], first_board))
            .collect();
        rows.push(TeamMatchRow {
            rank,
            no: res.teams[i].no,
            name: res.teams[i].name.clone(),
            match_points: t.mp,
            game_points: t.gp,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            byes: t.byes,
            game_wins: t.game_wins,
            game_draws: t.game_draws,
            game_losses: t.game_losses,
            forfeits: t.forfeits,
            fouls: t.fouls,
            board_points: t
                .boards
                .iter()
                .map(|(&board, &(points, games))| BoardPoints {
                    board,
                    points,
                    games,
                })
                .collect(),
            values,
            decided_by: if pos == 0 || shared {
                None
            } else {
                decided[pos]
            },
            rounds: std::mem::take(&mut t.cells),
        });
    }
    TeamMatchStandings {
        rows,
        ignored: res.ignored,
    }
}

/// Every team's matches and byes by round, as [`team_match_standings`] lists them in its rows
/// ([`TeamMatchRow::rounds`]), without ranking the teams: `(team number, cells)` by team
/// number. For readers of the results alone (the pairing engine's view of the teams).
pub fn team_match_cells(input: &TeamMatchInput) -> Vec<(u32, Vec<MatchCell>)> {
    let res = Resolved::new(input);
    tally(input, &res)
        .into_iter()
        .zip(&res.teams)
        .map(|(t, team)| (team.no, t.cells))
        .collect()
}

/// One player of a board table (台次成绩).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardRow {
    /// 1-based and unique; `None` for a player with fewer games than required.
    pub rank: Option<u32>,
    pub player: PlayerNo,
    pub team: u32,
    /// Games on every board, forfeits included (an empty seat is nobody's game).
    pub games: u32,
    /// Games on this table's board.
    pub games_on_board: u32,
    /// Game points on every board.
    pub points: Score,
    /// Forfeit wins included.
    pub wins: u32,
    pub draws: u32,
    /// Forfeit losses and double forfeits included.
    pub losses: u32,
    /// Score rate (得分率) = points / (games × win points), exact; `None` when the win
    /// points given are not positive (or beyond any real event: over 2^60 half-points).
    pub rate: Option<TbValue>,
}

/// The players of one board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardTable {
    pub board: u32,
    /// Ranked players first, then those with too few games.
    pub rows: Vec<BoardRow>,
}

#[derive(Default)]
struct PlayerTally {
    games: u32,
    points: Score,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Board number → games.
    boards: BTreeMap<u32, u32>,
}

/// points / (games × win), `win` in half-points; `None` when `win` is not positive or the
/// numbers lie beyond exact representation (never in a real event).
fn rate(points: Score, games: u32, win: i64) -> Option<TbValue> {
    if win <= 0 || games == 0 {
        return None;
    }
    let den = i64::from(games).checked_mul(win)?;
    let num = points.halves();
    // `from_ratio` doubles a whole result: keep it in range.
    (num.checked_abs()? <= i64::MAX / 4).then(|| TbValue::from_ratio(num, den))
}

/// Board standings (台次成绩, for 台次奖) of the counted matches.
///
/// A player is identified by his team and his number. He is listed on the board he played
/// most (a tie: the lower board number), with his games on every board. Ranked by score
/// rate (points / (games × `win_points`), compared exactly by cross-multiplication), then
/// points, then games (more first), then player number and team number; the ranks are
/// unique. Players with fewer than `min_games` games follow the ranked ones, in the same
/// order, with `rank: None`. `win_points` is the game points of a won game (the section's
/// `win`); a value that is not positive gives no rate, and the order starts at the points.
pub fn board_standings(
    input: &TeamMatchInput,
    min_games: u32,
    win_points: Score,
) -> Vec<BoardTable> {
    let res = Resolved::new(input);
    let mut players: BTreeMap<(u32, PlayerNo), PlayerTally> = BTreeMap::new();
    for &(m, _, _) in &res.matches {
        if !m.is_finished() {
            continue;
        }
        for board in &m.boards {
            let Some(result) = board.result else {
                continue;
            };
            for side in [Side::First, Side::Second] {
                let Some(player) = board.player(side) else {
                    continue;
                };
                let p = players.entry((m.team(side), player)).or_default();
                p.games = p.games.saturating_add(1);
                p.points = add(p.points, board.points(side));
                let r = result.for_side(side);
                if r.is_win() {
                    p.wins = p.wins.saturating_add(1);
                } else if r == BoardOutcome::Draw {
                    p.draws = p.draws.saturating_add(1);
                } else {
                    p.losses = p.losses.saturating_add(1);
                }
                let g = p.boards.entry(board.board).or_default();
                *g = g.saturating_add(1);
            }
        }
    }
    let w = win_points.halves();
    let mut tables: BTreeMap<u32, Vec<BoardRow>> = BTreeMap::new();
    for ((team, player), p) in players {
        // The most games, the lower board on a tie (the map iterates boards upwards).
        let Some((board, on_board)) =
            p.boards
                .iter()
                .fold(None, |best: Option<(u32, u32)>, (&b, &g)| match best {
                    Some((_, bg)) if bg >= g => best,
                    _ => Some((b, g)),
                })
        else {
            continue;
        };
        let rate = rate(p.points, p.games, w);
        tables.entry(board).or_default().push(BoardRow {
            rank: None,
            player,
            team,
            games: p.games,
            games_on_board: on_board,
            points: p.points,
            wins: p.wins,
            draws: p.draws,
            losses: p.losses,
            rate,
        });
    }
    tables
        .into_iter()
        .map(|(board, mut rows)| {
            rows.sort_by(|a, b| {
                let rate = if w > 0 {
                    // a.points / a.games against b.points / b.games (games ≥ 1).
                    let x = i128::from(a.points.halves()) * i128::from(b.games);
                    let y = i128::from(b.points.halves()) * i128::from(a.games);
                    y.cmp(&x)
                } else {
                    Ordering::Equal
                };
                rate.then(b.points.cmp(&a.points))
                    .then(b.games.cmp(&a.games))
                    .then(a.player.cmp(&b.player))
                    .then(a.team.cmp(&b.team))
            });
            let (mut ranked, short): (Vec<BoardRow>, Vec<BoardRow>) =
                rows.into_iter().partition(|r| r.games >= min_games);
            for (i, r) in ranked.iter_mut().enumerate() {
                r.rank = Some(i as u32 + 1);
            }
            ranked.extend(short);
            BoardTable {
                board,
                rows: ranked,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards(list: &[(u32, i64)]) -> BTreeMap<u32, (Score, u32)> {
        list.iter()
            .map(|&(b, p)| (b, (Score::points(p), 1)))
            .collect()
    }

    #[test]
    fn boards_compare_from_board_one_and_a_missing_board_counts_zero() {
        let a = boards(&[(1, 2), (2, 0)]);
        let b = boards(&[(1, 2), (2, 1)]);
        assert_eq!(compare_boards(&a, &b), Ordering::Greater, "board 2: 0 < 1");
        // b never played board 1: 0 there, so a is ahead whatever the later boards.
        let c = boards(&[(2, 9)]);
        assert_eq!(compare_boards(&a, &c), Ordering::Less);
        assert_eq!(compare_boards(&c, &a), Ordering::Greater);
        // An explicit 0 equals a board not played.
        assert_eq!(
            compare_boards(&boards(&[(1, 2), (3, 0)]), &boards(&[(1, 2)])),
            Ordering::Equal
        );
    }

    #[test]
    fn the_rate_is_exact_and_never_overflows() {
        let h = Score::from_halves;
        assert_eq!(rate(h(8), 3, 4), Some(TbValue::Fraction { num: 2, den: 3 }));
        assert_eq!(rate(h(8), 4, 4), Some(TbValue::Score(h(1))));
        assert_eq!(rate(h(8), 2, 4), Some(TbValue::Int(1)));
        assert_eq!(rate(h(8), 2, 0), None);
        assert_eq!(rate(h(8), 0, 4), None);
        // from_ratio would double i64::MAX: no rate rather than a panic.
        assert_eq!(rate(h(i64::MAX), 1, 1), None);
        assert_eq!(rate(h(i64::MIN), 1, 1), None);
        assert_eq!(rate(h(2), u32::MAX, i64::MAX), None);
    }

    #[test]
    fn a_match_is_decided_by_forfeits_first_then_by_game_points() {
        let board = |r: BoardOutcome, f: i64, s: i64| MatchBoard {
            board: 1,
            result: Some(r),
            first_points: Score::points(f),
            second_points: Score::points(s),
            first_player: None,
            second_player: None,
        };
        let m = |boards: Vec<MatchBoard>| PlayedMatch {
            round: 1,
            first: 1,
            second: 2,
            boards,
        };
        use BoardOutcome::*;
        let fl = || board(ForfeitLoss, 0, 2);
        let df = || board(DoubleForfeit, 0, 0);
        assert_eq!(
            m(vec![fl(), df()]).outcome(),
            Some(MatchResult::ForfeitLoss)
        );
        assert_eq!(
            m(vec![df(), df()]).outcome(),
            Some(MatchResult::DoubleForfeit)
        );
        assert_eq!(
            m(vec![board(ForfeitWin, 2, 0), df()]).outcome(),
            Some(MatchResult::ForfeitWin)
        );
        // A played board: game points decide, even against a forfeit on every other board.
        assert_eq!(
            m(vec![board(Win, 2, 0), fl(), fl()]).outcome(),
            Some(MatchResult::Loss)
        );
        // The points as scored by the director decide, not the count of wins.
        assert_eq!(
            m(vec![board(Draw, 2, 3), board(Draw, 2, 3)]).outcome(),
            Some(MatchResult::Loss)
        );
        assert_eq!(m(vec![]).outcome(), None);
        let mut unfinished = m(vec![board(Win, 2, 0), fl()]);
        unfinished.boards[1].result = None;
        assert_eq!(unfinished.outcome(), None);
        assert_eq!(unfinished.game_points(Side::First), Score::points(2));
    }
}
