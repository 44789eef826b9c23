//! Pairing a round (编排): Swiss by the pairing engine (round 1 with the recorded seed),
//! round robin by the Berger tables when the entries decide it (S4), and the continuing
//! Swiss of a two-stage section without the knockout players (T2).

use crate::knockout_stage;
use crate::plan::{pairing_state, round_seed, section_plan, SectionPlan};
use crate::DirectorError;
use arbiter_core::{Board, EventState, LogEntry, PlayerId};
use arbiter_pairing::{Pairing, SectionState};
use arbiter_regulation::Regulation;
use std::collections::BTreeSet;

/// A round paired by the engine, with the engine's input (for the checker).
#[derive(Debug, Clone)]
pub struct PairedRound {
    pub entry: LogEntry,
    pub pairing: Pairing,
    pub input: SectionState,
    /// Whether the Swiss checker applies (not to Berger tables).
    pub swiss: bool,
    /// The player of every pairing number (`order[0]` is number 1).
    pub order: Vec<PlayerId>,
    pub stage: u32,
    pub seed: u64,
    /// The boards in the hall before this round's board 1: the knockout's, beside which a
    /// continuing Swiss is played (T2, [`crate::api::rounds::swiss_board_offset`]); 0
    /// otherwise. The pairing numbers its boards 1…N; the log and every sheet count from
    /// here.
    pub first_board: u32,
}

impl PairedRound {
    /// The `round_paired` entry of another pairing of the same round (a manual one), with
    /// the arbiter's adjustments in words.
    pub fn entry_of(
        &self,
        section: &str,
        pairing: &Pairing,
        manual: Vec<String>,
    ) -> Result<LogEntry, DirectorError> {
        round_entry(
            section,
            self.stage,
            pairing,
            &self.order,
            self.seed,
            manual,
            self.first_board,
        )
    }

    /// `pairing` with its boards numbered as in the hall (after [`Self::first_board`]): what
    /// the arbiter reads in the explanation.
    pub fn in_hall(&self, pairing: &Pairing) -> Pairing {
        let mut p = pairing.clone();
        for b in &mut p.boards {
            b.board += self.first_board;
        }
        p
    }
}

/// The `round_paired` entry of `pairing` (its round is the pairing's), boards counted from
/// `first_board` + 1.
fn round_entry(
    section: &str,
    stage: u32,
    pairing: &Pairing,
    order: &[PlayerId],
    seed: u64,
    manual: Vec<String>,
    first_board: u32,
) -> Result<LogEntry, DirectorError> {
    let round = pairing.round;
    let id = |no: arbiter_types::PlayerNo| -> Result<PlayerId, DirectorError> {
        order
            .get(no.index())
            .copied()
            .ok_or_else(|| pairing_err(section, round, crate::PairingFailure::NoSuchNumber(no)))
    };
    let mut boards = Vec::with_capacity(pairing.boards.len());
    for b in &pairing.boards {
        boards.push(Board {
            board: first_board + b.board,
            red: id(b.red)?,
            black: id(b.black)?,
        });
    }
    let byes = match pairing.bye {
        Some(b) => vec![id(b)?],
        None => Vec::new(),
    };
    Ok(LogEntry::RoundPaired {
        section: section.to_string(),
        round,
        stage,
        boards,
        byes,
        seed: Some(seed),
        manual,
    })
}

pub(crate) fn pairing_err(
    section: &str,
    round: u32,
    cause: crate::PairingFailure,
) -> DirectorError {
    DirectorError::Pairing {
        section: section.to_string(),
        round,
        cause,
    }
}

/// The knockout players of a two-stage section (absent from the continuing Swiss).
pub fn knockout_players(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<BTreeSet<PlayerId>, DirectorError> {
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    Ok(knockout_stage::seeding(reg, state, section)?
        .into_iter()
        .filter_map(|no| rec.order.get(no.index()).copied())
        .collect())
}

/// Pair round `round` (`stage` 1, or 2 for the continuing Swiss) of a section.
pub fn pair_round(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    round: u32,
    stage: u32,
) -> Result<PairedRound, DirectorError> {
    pair_round_fixed(reg, state, section, round, stage, &[])
}

/// [`pair_round`] with pairs the arbiter fixes (A3b): they are kept as given and the engine
/// pairs the others (nobody when every player is fixed) — the fixed pairs are placed before
/// the engine runs, so a round the engine alone cannot pair can always be paired by hand.
/// A round robin follows its table and takes no fixed pairs.
pub fn pair_round_fixed(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    round: u32,
    stage: u32,
    fixed: &[(arbiter_types::PlayerNo, arbiter_types::PlayerNo)],
) -> Result<PairedRound, DirectorError> {
    let sec = reg
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let plan = section_plan(sec, state);
    let seed = round_seed(state, section, round);
    let mut exclude = if stage == 2 {
        knockout_players(reg, state, section)?
    } else {
        BTreeSet::new()
    };
    // Players excused from this round (`player_absent`) are not paired in it.
    exclude.extend(state.absent_in(section, round));
    let (input, order) = pairing_state(sec, state, section, plan.swiss_rounds_total(), &exclude);
    // The group stage of a `groups` section: each group's Berger table (`groups.rs`).
    if crate::groups::is_groups(sec) && stage == 1 {
        let rec = state
            .section(section)
            .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
        let group_rounds = crate::groups::stage_rounds(sec, Some(rec), rec.order.len() as u32);
        // A final round robin after the group stage: the finalists' Berger table.
        let final_rr = crate::groups::final_round_robin(sec) && round > group_rounds;
        let (mut pairing, mut byes) = if final_rr {
            let field = crate::groups::final_players(sec, state, section)?;
            crate::groups::pair_final(sec, rec, &input, &field, round, round - group_rounds)
        } else {
            crate::groups::pair_round(
                &input,
                rec,
                round,
                sec.format.group_format,
                sec.format.rounds.unwrap_or(0),
                seed,
            )
        }
        .map_err(|e| pairing_err(&sec.name, round, crate::PairingFailure::Engine(e)))?;
        // The final's 轮空 is a round robin's: no game, nothing scored (A7). Where the
        // section's bye scores (a Swiss in each group), the player just rests.
        if final_rr && input.scoring.bye != arbiter_types::Score::ZERO {
            byes.clear();
        }
        let unavailable: BTreeSet<_> = input
            .players
            .iter()
            .filter(|e| e.availability != arbiter_pairing::Availability::Active)
            .map(|e| e.no)
            .collect();
        pairing
            .boards
            .retain(|b| !unavailable.contains(&b.red) && !unavailable.contains(&b.black));
        for (i, b) in pairing.boards.iter_mut().enumerate() {
            b.board = i as u32 + 1;
        }
        let mut entry = round_entry(section, stage, &pairing, &order, seed, Vec::new(), 0)?;
        if let LogEntry::RoundPaired { byes: out, .. } = &mut entry {
            *out = byes
                .iter()
                .filter(|b| !unavailable.contains(b))
                .filter_map(|b| order.get(b.index()).copied())
                .collect();
        }
        return Ok(PairedRound {
            first_board: 0,
            entry,
            pairing,
            input,
            swiss: false,
            order,
            stage,
            seed,
        });
    }
    let (pairing, swiss) = match plan {
        SectionPlan::RoundRobin { cycles, .. } => {
            let mut p = arbiter_pairing::round_robin::pair_round_robin(&input, round, cycles)
                .map_err(|e| pairing_err(&sec.name, round, crate::PairingFailure::Engine(e)))?;
            // A withdrawn player keeps the table place but is not paired: the board is
            // dropped (the opponent is unpaired that round).
            let unavailable: BTreeSet<_> = input
                .players
                .iter()
                .filter(|e| e.availability != arbiter_pairing::Availability::Active)
                .map(|e| e.no)
                .collect();
            p.boards
                .retain(|b| !unavailable.contains(&b.red) && !unavailable.contains(&b.black));
            if p.bye.is_some_and(|b| unavailable.contains(&b)) {
                p.bye = None;
            }
            for (i, b) in p.boards.iter_mut().enumerate() {
                b.board = i as u32 + 1;
            }
            (p, false)
        }
        _ => {
            let p =
                crate::manual::engine_pairing(&input, round, seed, fixed).map_err(|e| match e {
                    crate::manual::ManualError::Engine(e) => {
                        pairing_err(&sec.name, round, crate::PairingFailure::Engine(e))
                    }
                    other => crate::Refusal::Manual(other).into(),
                })?;
            (p, true)
        }
    };
    // T2: the continuing Swiss sits after the knockout's boards in the hall.
    let first_board = if stage == 2 && swiss {
        crate::api::rounds::swiss_board_offset(reg, state, section)?
    } else {
        0
    };
    let entry = round_entry(
        section,
        stage,
        &pairing,
        &order,
        seed,
        Vec::new(),
        first_board,
    )?;
    Ok(PairedRound {
        first_board,
        entry,
        pairing,
        input,
        swiss,
        order,
        stage,
        seed,
    })
}
