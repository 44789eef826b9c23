//! A section's history, player by player (每位棋手的各轮成绩): every round so far with its
//! opponent, colour, board, points in the regulation's scoring, the running score and
//! whether the standings count it yet; byes and rounds not paired; knockout games by match.
//! The public player page and crosstable word it; nothing here can carry an ID number or a
//! phone (names, units, teams, pairing numbers and results only).

use crate::DirectorError;
use arbiter_core::{EventState, PlayerId};
use arbiter_types::{Colour, Outcome, PlayerNo, Score, ScoringTable};
use std::collections::BTreeMap;

/// What one round was for one player.
#[derive(Debug, Clone)]
pub struct Cell {
    pub round: u32,
    /// Opponent's number and name (None: bye or not paired).
    pub opponent: Option<(u32, String)>,
    pub colour: Option<Colour>,
    pub board: Option<u32>,
    /// Points scored this round (None: result not in yet).
    pub points: Option<Score>,
    /// Score after this round, counting every result entered so far.
    pub running: Score,
    pub kind: CellKind,
    /// The round counts in the standings (it is completed); a result of a round still being
    /// played is shown, but not yet counted.
    pub counted: bool,
    /// How the game ended (J5), when the arbiter entered it.
    pub ending: Option<arbiter_core::Ending>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    DoubleForfeit,
    Bye,
    /// Not paired this round (absent, withdrawn, late entry).
    Absent,
    /// Paired, result not in yet.
    Pending,
}

impl Cell {
    pub fn is_red(&self) -> bool {
        self.colour == Some(Colour::Red)
    }

    /// Not yet counted: a result of a round still being played.
    pub fn uncounted(&self) -> bool {
        !self.counted && !matches!(self.kind, CellKind::Pending | CellKind::Absent)
    }
}

/// A player's rounds.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    pub no: u32,
    pub name: String,
    pub unit: Option<String>,
    pub team: Option<String>,
    /// 段位/称号, if registered.
    pub grade: Option<String>,
    pub withdrawn: bool,
    pub cells: Vec<Cell>,
    pub total: Score,
    /// The points the standings count: the rounds completed (the crosstable's total).
    pub counted: Score,
    /// On a board or given a bye in some round: a player never paired (withdrawn before
    /// round 1, a late entry not yet paired) has no row in the crosstable.
    pub paired: bool,
    /// Knockout games: (match label, game, colour, opponent, result label).
    pub knockout: Vec<KoGame>,
}

#[derive(Debug, Clone)]
pub struct KoGame {
    pub label: String,
    /// The game of its match, counted from 1 as the players do (第1局).
    pub game: u32,
    pub red: bool,
    pub opponent: (u32, String),
    pub kind: CellKind,
}

/// Every player of a section with every round so far (cached per state).
pub struct SectionHistory {
    pub section: String,
    pub name: String,
    pub rounds: Vec<u32>,
    pub players: Vec<PlayerRow>,
    /// Rounds completed: counted in the standings and the crosstable's totals (第N轮后).
    pub after_round: u32,
    /// The crosstable's legend in the regulation's points (Chinese, English).
    pub legend: (String, String),
}

impl SectionHistory {
    pub fn player(&self, no: u32) -> Option<&PlayerRow> {
        self.players.iter().find(|p| p.no == no)
    }
}

fn kind_of(o: &Outcome) -> CellKind {
    use arbiter_types::PlayerResult;
    match o {
        Outcome::Game { result, .. } => match result {
            PlayerResult::Win => CellKind::Win,
            PlayerResult::Draw => CellKind::Draw,
            PlayerResult::Loss => CellKind::Loss,
        },
        Outcome::ForfeitWin { .. } => CellKind::ForfeitWin,
        Outcome::ForfeitLoss { .. } => CellKind::ForfeitLoss,
        Outcome::DoubleForfeit { .. } => CellKind::DoubleForfeit,
        Outcome::Bye | Outcome::FullBye | Outcome::HalfBye => CellKind::Bye,
        Outcome::Absent => CellKind::Absent,
    }
}

/// The history of `section`: every player (by publish number) with every round so far.
pub fn section_history(st: &EventState, section: &str) -> Result<SectionHistory, DirectorError> {
    let rec = st
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let reg = crate::regulation_of(st)?;
    let table: ScoringTable = reg
        .section(section)
        .map(|s| s.scoring.table)
        .unwrap_or_default();
    let nos = crate::publish::publish_numbers(st, section);
    let no = |p: PlayerId| nos.get(&p).copied().unwrap_or(0);
    let name_of = |p: PlayerId| {
        st.player(p)
            .map(|x| x.person.name.clone())
            .unwrap_or_default()
    };
    let mut rows: BTreeMap<PlayerId, PlayerRow> = st
        .players(section)
        .into_iter()
        .map(|p| {
            (
                p.id,
                PlayerRow {
                    no: no(p.id),
                    name: p.person.name.clone(),
                    unit: p
                        .person
                        .unit
                        .clone()
                        .or_else(|| p.person.association.clone()),
                    team: p.team.clone(),
                    grade: p.grade.clone(),
                    withdrawn: p.withdrawn.is_some(),
                    cells: Vec::new(),
                    total: Score::ZERO,
                    counted: Score::ZERO,
                    paired: false,
                    knockout: Vec::new(),
                },
            )
        })
        .collect();
    let rounds: Vec<u32> = rec.rounds.keys().copied().collect();
    let after_round = rec.completed_rounds();
    for r in rec.rounds.values() {
        let counted = r.round <= after_round;
        let mut seen = std::collections::BTreeSet::new();
        for b in &r.boards {
            for (me, opp, colour) in [
                (b.red, b.black, Colour::Red),
                (b.black, b.red, Colour::Black),
            ] {
                seen.insert(me);
                let Some(row) = rows.get_mut(&me) else {
                    continue;
                };
                let opp_no = PlayerNo::new(no(opp)).unwrap_or(PlayerNo::from_index(0));
                let (kind, points) = match b.result {
                    Some(res) => {
                        let o = res.outcome_for(colour, opp_no);
                        (kind_of(&o), Some(o.points(&table)))
                    }
                    None => (CellKind::Pending, None),
                };
                row.total += points.unwrap_or(Score::ZERO);
                if counted {
                    row.counted += points.unwrap_or(Score::ZERO);
                }
                row.paired = true;
                row.cells.push(Cell {
                    round: r.round,
                    opponent: Some((no(opp), name_of(opp))),
                    colour: Some(colour),
                    board: Some(b.board),
                    points,
                    running: row.total,
                    kind,
                    counted,
                    ending: b.result.and(b.ending),
                });
            }
        }
        for p in &r.byes {
            seen.insert(*p);
            let Some(row) = rows.get_mut(p) else { continue };
            let pts = Outcome::Bye.points(&table);
            row.total += pts;
            if counted {
                row.counted += pts;
            }
            row.paired = true;
            row.cells.push(Cell {
                round: r.round,
                opponent: None,
                colour: None,
                board: None,
                points: Some(pts),
                running: row.total,
                kind: CellKind::Bye,
                counted,
                ending: None,
            });
        }
        for (id, row) in rows.iter_mut() {
            if !seen.contains(id) {
                row.cells.push(Cell {
                    round: r.round,
                    opponent: None,
                    colour: None,
                    board: None,
                    points: Some(Outcome::Absent.points(&table)),
                    running: row.total,
                    kind: CellKind::Absent,
                    counted,
                    ending: None,
                });
            }
        }
    }
    let bracket = crate::knockout_stage::bracket(&reg, st, section).ok();
    for g in &rec.knockout {
        let label = bracket
            .as_ref()
            .and_then(|b| b.get(&g.match_id))
            .map_or(g.match_id.clone(), |m| m.label_zh());
        for (me, opp, colour) in [
            (g.red, g.black, Colour::Red),
            (g.black, g.red, Colour::Black),
        ] {
            let Some(row) = rows.get_mut(&me) else {
                continue;
            };
            let opp_no = PlayerNo::new(no(opp)).unwrap_or(PlayerNo::from_index(0));
            row.knockout.push(KoGame {
                label: label.clone(),
                game: g.game + 1,
                red: colour == Colour::Red,
                opponent: (no(opp), name_of(opp)),
                kind: kind_of(&g.result.outcome_for(colour, opp_no)),
            });
        }
    }
    let mut players: Vec<PlayerRow> = rows.into_values().collect();
    players.sort_by_key(|p| p.no);
    Ok(SectionHistory {
        section: section.to_string(),
        name: rec.name.clone(),
        rounds,
        players,
        after_round,
        legend: (
            crate::crosstable::legend(&table, true),
            crate::crosstable::legend(&table, false),
        ),
    })
}
