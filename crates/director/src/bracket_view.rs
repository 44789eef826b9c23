//! The knockout bracket of a section as a person reads it (淘汰赛对阵): every match by
//! round with its players (name, unit, seed), games and winner, and the places once decided.
//! Built from the log by `knockout_stage::bracket` (seeding from the Swiss, A9); the CLI
//! (`arbiter knockout show`), the public page and the printed bracket show this one view.

use crate::knockout_stage;
use crate::DirectorError;
use arbiter_core::EventState;
use arbiter_knockout::{Bracket, BracketKind, MatchState, Side};
use arbiter_regulation::Regulation;
use arbiter_types::{GameKind, GameResult, PlayerNo};

/// A player of the bracket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// Pairing number (the published number).
    pub no: PlayerNo,
    pub name: String,
    /// Unit, else association.
    pub unit: Option<String>,
    /// Seed in the bracket (1 = first of the ranking it was drawn from).
    pub seed: Option<u32>,
}

/// One side of a match as far as known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideView {
    Player(Entrant),
    /// Nobody: a bye, or the loser of a walkover.
    Bye,
    /// Decided by a match not finished yet.
    Pending,
}

/// A game of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    pub kind: GameKind,
    /// How the game is printed: the regulation's name of its kind and its time control
    /// (`快棋6′+3″`), or the class name (`慢棋`).
    pub label: String,
    pub red: Entrant,
    pub black: Entrant,
    pub result: GameResult,
}

/// One match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchView {
    /// Stable id: "F", "SF1", "QF3", "P3", …
    pub id: String,
    /// 决赛, 半决赛, 三四名, …
    pub label: String,
    /// 1-based round of the bracket.
    pub round: usize,
    pub sides: [SideView; 2],
    pub games: Vec<GameView>,
    pub winner: Option<Entrant>,
    /// The format's rule that settled a match its games left level (a lot, the higher
    /// seed, black of the last game).
    pub decided_by: Option<arbiter_knockout::Decider>,
    pub finished: bool,
}

/// The bracket of one section.
#[derive(Debug, Clone)]
pub struct BracketView {
    pub section: String,
    pub kind: BracketKind,
    pub size: u32,
    /// The players in seed order.
    pub seeds: Vec<Entrant>,
    /// The standings the seeds were drawn from: after which round, and whether the Swiss
    /// stage still has rounds to play (then the seeding is 暂定 and may change, A9).
    pub seeding: crate::export::StandingNote,
    /// Matches by bracket round (index 0 = round 1).
    pub rounds: Vec<Vec<MatchView>>,
    /// The places (place, player) once every match is decided.
    pub places: Option<Vec<(u32, Entrant)>>,
    /// The bracket itself, for renderers that draw it (`arbiter_knockout::render_text`).
    pub bracket: Bracket,
}

impl BracketView {
    /// The player with pairing number `no` (for renderers working on the bracket).
    pub fn entrant(&self, no: PlayerNo) -> Option<&Entrant> {
        self.seeds.iter().find(|e| e.no == no)
    }
}

/// The bracket of `section`'s knockout stage.
pub fn bracket_view(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<BracketView, DirectorError> {
    let b = knockout_stage::bracket(reg, state, section)?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let entrant = |no: PlayerNo| {
        let p = rec.order.get(no.index()).and_then(|id| state.player(*id));
        Entrant {
            no,
            name: p.map(|p| p.person.name.clone()).unwrap_or_default(),
            unit: p.and_then(|p| {
                p.person
                    .unit
                    .clone()
                    .or_else(|| p.person.association.clone())
            }),
            seed: b.seed_of(no),
        }
    };
    let side = |s: Side| match s {
        Side::Player(p) => SideView::Player(entrant(p)),
        Side::Absent => SideView::Bye,
        Side::Pending => SideView::Pending,
    };
    let rounds = (1..=b.rounds())
        .map(|r| {
            b.round(r)
                .into_iter()
                .map(|m| {
                    let (games, winner, decided_by) = match &m.state {
                        MatchState::Waiting => (Vec::new(), None, None),
                        MatchState::Walkover { winner } => (Vec::new(), *winner, None),
                        MatchState::Playing(g) => (
                            g.games()
                                .iter()
                                .map(|x| GameView {
                                    kind: x.kind,
                                    label: g.format().game_label(x.step, x.kind),
                                    red: entrant(x.red),
                                    black: entrant(x.black),
                                    result: x.result,
                                })
                                .collect(),
                            g.winner(),
                            g.decided_by(),
                        ),
                    };
                    MatchView {
                        id: m.id.clone(),
                        label: m.label_zh(),
                        round: m.round,
                        sides: [side(b.side(m.sources[0])), side(b.side(m.sources[1]))],
                        games,
                        winner: winner.map(entrant),
                        decided_by,
                        finished: m.is_finished(),
                    }
                })
                .collect()
        })
        .collect();
    let completed = rec.completed_rounds();
    let seeding = match reg
        .section(section)
        .map(|sec| crate::section_plan(sec, state))
    {
        Some(crate::SectionPlan::TwoStage { swiss_rounds, .. }) => crate::export::StandingNote {
            after_round: completed.min(swiss_rounds),
            provisional: completed < swiss_rounds,
        },
        _ => crate::export::StandingNote {
            after_round: completed,
            provisional: false,
        },
    };
    Ok(BracketView {
        section: section.to_string(),
        seeding,
        kind: b.kind(),
        size: b.size(),
        seeds: b.ranking().iter().map(|&no| entrant(no)).collect(),
        rounds,
        places: b
            .places()
            .map(|ps| ps.into_iter().map(|(p, no)| (p, entrant(no))).collect()),
        bracket: std::sync::Arc::unwrap_or_clone(b),
    })
}
