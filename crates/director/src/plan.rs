//! What a section plays (its format once the entries are known, S4 / A7 / A9), who plays,
//! the forfeit withdrawal rule and the pairing engine's view of a section. What the arbiter
//! has to do next is `step.rs`, built on this module.

use crate::derive_seed;
use arbiter_core::{EventState, PlayerId, PlayerStatus};
use arbiter_pairing::{Availability, Entrant, SectionState};
use arbiter_regulation::{EffectiveFormat, Section, Tiebreaks};
use std::collections::{BTreeMap, BTreeSet};

/// The format a section actually plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionPlan {
    Swiss {
        rounds: u32,
    },
    /// Single (`cycles = 1`) or double (`cycles = 2`) round robin of `rounds` rounds.
    RoundRobin {
        cycles: u32,
        rounds: u32,
    },
    /// Swiss of `swiss_rounds`, then a knockout of `k` (in `ko_rounds` rounds) while the
    /// others play `continue_rounds` more Swiss rounds (T2) or stop (K6: 0).
    TwoStage {
        swiss_rounds: u32,
        k: u32,
        ko_rounds: u32,
        continue_rounds: u32,
    },
    /// Groups, then a final round robin (`final = "round_robin"`, `groups.rs`): the group
    /// stage's `group_rounds`, then the `final_rounds` Berger rounds of the `k` finalists.
    GroupsRoundRobin {
        group_rounds: u32,
        k: u32,
        final_rounds: u32,
    },
}

impl SectionPlan {
    /// Rounds in the schedule (a two-stage section: Swiss + the longer of the two stage-2 parts).
    pub fn rounds_planned(&self) -> u32 {
        match *self {
            SectionPlan::Swiss { rounds } => rounds,
            SectionPlan::RoundRobin { rounds, .. } => rounds,
            SectionPlan::TwoStage {
                swiss_rounds,
                ko_rounds,
                continue_rounds,
                ..
            } => swiss_rounds + ko_rounds.max(continue_rounds),
            SectionPlan::GroupsRoundRobin {
                group_rounds,
                final_rounds,
                ..
            } => group_rounds + final_rounds,
        }
    }
    /// Rounds of the Swiss the section pairs (stage 1 + continuing Swiss).
    pub fn swiss_rounds_total(&self) -> u32 {
        match *self {
            SectionPlan::Swiss { rounds } => rounds,
            SectionPlan::RoundRobin { rounds, .. } => rounds,
            SectionPlan::TwoStage {
                swiss_rounds,
                continue_rounds,
                ..
            } => swiss_rounds + continue_rounds,
            SectionPlan::GroupsRoundRobin {
                group_rounds,
                final_rounds,
                ..
            } => group_rounds + final_rounds,
        }
    }
}

/// Players who take part in the pairing of a section (registered, not unpaid).
pub fn playing_entries(state: &EventState, section: &str) -> Vec<PlayerId> {
    state
        .players(section)
        .into_iter()
        .filter(|p| state.status(p.id) != Some(PlayerStatus::Unpaid) || never_unpaid_rule(state))
        .map(|p| p.id)
        .collect()
}

fn never_unpaid_rule(state: &EventState) -> bool {
    state
        .header
        .as_ref()
        .is_none_or(|h| h.limits.fee_fen.is_none() && !h.limits.charges_due)
}

/// Players the format of a section is decided by: once the numbers are drawn, the players
/// who drew one (S4); before, those who would play.
fn format_field(sec: &Section, state: &EventState) -> u32 {
    if sec.team_match.is_some() {
        // A team match (A15) is played by its teams: a round robin of 10 clubs is 9 rounds,
        // whatever the number of players.
        return match state.section(&sec.id) {
            Some(r) if !r.team_order.is_empty() => r.team_order.len() as u32,
            _ => crate::team_match::teams_in(state, &sec.id)
                .into_iter()
                .filter(|t| crate::team_match::team_plays(state, t))
                .count() as u32,
        };
    }
    match state.section(&sec.id) {
        Some(r) if !r.order.is_empty() => r.order.len() as u32,
        _ => playing_entries(state, &sec.id).len() as u32,
    }
}

/// The tie-breaks of the system a section actually plays (A6, S4): a section the `auto`
/// format turns into a round robin ("不足8人采用单循环") is ranked by the round-robin list
/// (`round_robin_tiebreaks`, or 小分, 胜局, 直胜, 犯规, 后走局数), not by the Swiss one. Every
/// standings table, export, page, document and the final standings take their list here.
pub fn played_tiebreaks(sec: &Section, state: &EventState) -> Tiebreaks {
    sec.tiebreaks_for(sec.format.effective(format_field(sec, state)))
}

/// The scoring table of the system a section actually plays: the regulation's, except that in
/// a round robin the 轮空 — the player drawn against the table's empty number (A7) — is no
/// game and scores nothing (every player rests once; it is not a win: 苏州's 5-point bye is a
/// Swiss bye, A4). A reading of the project (docs/rules.md A7). A team match keeps its table.
pub fn scoring_table(sec: &Section, state: &EventState) -> arbiter_types::ScoringTable {
    let mut t = sec.scoring.table;
    // A team match's bye is the regulation's (A15: its 场分 and its boards), not this.
    if sec.team_match.is_none()
        && match sec.format.effective(format_field(sec, state)) {
            EffectiveFormat::RoundRobin | EffectiveFormat::DoubleRoundRobin => true,
            // A Swiss in each group keeps the Swiss bye.
            EffectiveFormat::Groups { group_format, .. } => group_format.cycles().is_some(),
            _ => false,
        }
    {
        t.bye = arbiter_types::Score::ZERO;
    }
    t
}

/// The plan of a section from the regulation and the number of players who play (S4).
pub fn section_plan(sec: &Section, state: &EventState) -> SectionPlan {
    let n = format_field(sec, state);
    match sec.format.effective(n) {
        EffectiveFormat::Swiss { rounds } => SectionPlan::Swiss { rounds },
        EffectiveFormat::RoundRobin => SectionPlan::RoundRobin {
            cycles: 1,
            rounds: arbiter_pairing::round_robin::rounds_per_cycle(n as usize) as u32,
        },
        EffectiveFormat::DoubleRoundRobin => SectionPlan::RoundRobin {
            cycles: 2,
            rounds: 2 * arbiter_pairing::round_robin::rounds_per_cycle(n as usize) as u32,
        },
        EffectiveFormat::SwissThenKnockout {
            rounds,
            knockout_size,
            continue_rounds,
        } => {
            let k = knockout_size.min(n).max(2);
            let ko_rounds = k.next_power_of_two().trailing_zeros();
            SectionPlan::TwoStage {
                swiss_rounds: rounds,
                k,
                ko_rounds,
                continue_rounds,
            }
        }
        // Groups, then a final: a two-stage section whose stage 1 is the groups' round
        // robins and whose knockout is the final of the qualifiers (`groups.rs`).
        // A final round robin: the groups' rounds, then the finalists' Berger table.
        EffectiveFormat::Groups { .. } if crate::groups::final_round_robin(sec) => {
            let rec = state.section(&sec.id);
            let (k, final_rounds) = crate::groups::final_table_size(sec, rec);
            SectionPlan::GroupsRoundRobin {
                group_rounds: crate::groups::stage_rounds(sec, rec, n),
                k,
                final_rounds,
            }
        }
        EffectiveFormat::Groups { .. } => {
            let (k, ko_rounds) = crate::groups::final_field(sec);
            SectionPlan::TwoStage {
                swiss_rounds: crate::groups::stage_rounds(sec, state.section(&sec.id), n),
                k,
                ko_rounds,
                continue_rounds: 0,
            }
        }
        // A plain knockout: a two-stage section without its Swiss stage — every entry in
        // the bracket, seeded by the numbers drawn (`pairing.numbering`).
        EffectiveFormat::Knockout => {
            let k = n.max(2);
            let ko_rounds = k.next_power_of_two().trailing_zeros();
            SectionPlan::TwoStage {
                swiss_rounds: 0,
                k,
                ko_rounds,
                continue_rounds: 0,
            }
        }
    }
}

/// The withdrawal rule of a section (A5).
pub fn withdrawal_rule(sec: &Section) -> arbiter_standings::withdrawal::WithdrawalRule {
    use std::num::NonZeroU32;
    arbiter_standings::withdrawal::WithdrawalRule {
        after_consecutive: sec
            .discipline
            .withdraw_after_consecutive_forfeits
            .and_then(NonZeroU32::new),
        after_total: sec
            .discipline
            .withdraw_after_total_forfeits
            .and_then(NonZeroU32::new),
    }
}

/// Players the forfeit rule withdraws now and are not yet recorded as withdrawn.
pub fn due_withdrawals(
    sec: &Section,
    state: &EventState,
    section: &str,
) -> Vec<(PlayerId, u32, String)> {
    let rule = withdrawal_rule(sec);
    let mut out = Vec::new();
    let all = state.section_outcomes(section);
    for p in state.players(section) {
        if p.withdrawn.is_some() || p.disqualified.is_some() {
            continue;
        }
        let outcomes = counted_outcomes(p, &all);
        if let Some(w) = arbiter_standings::withdrawal::check_withdrawal(&outcomes, &rule) {
            out.push((p.id, w.after_round, w.explain()));
        }
    }
    out
}

/// The player's outcomes as the forfeit rule counts them (A16): the rounds up to his last
/// reinstatement by the chief arbiter read as absences (neither counting nor ending a run).
fn counted_outcomes(
    p: &arbiter_core::PlayerRecord,
    all: &BTreeMap<PlayerId, Vec<arbiter_types::Outcome>>,
) -> Vec<arbiter_types::Outcome> {
    let mut outcomes = all.get(&p.id).cloned().unwrap_or_default();
    let from = (p.forfeits_count_after as usize).min(outcomes.len());
    for o in &mut outcomes[..from] {
        *o = arbiter_types::Outcome::Absent;
    }
    outcomes
}

/// Players withdrawn by the forfeit rule whose forfeits a correction has since removed
/// (A16: 「A withdrawal that followed from forfeits is undone when a correction removes
/// them」): the rule, read on the state as it is now, withdraws them no more.
pub fn undone_withdrawals(
    reg: &arbiter_regulation::Regulation,
    state: &EventState,
) -> Vec<PlayerId> {
    let mut out = Vec::new();
    for sec in &reg.sections {
        let rule = withdrawal_rule(sec);
        let all = state.section_outcomes(&sec.id);
        for p in state.players(&sec.id) {
            if p.withdrawn.is_none() || !p.withdrawn_by_forfeits {
                continue;
            }
            let outcomes = counted_outcomes(p, &all);
            if arbiter_standings::withdrawal::check_withdrawal(&outcomes, &rule).is_none() {
                out.push(p.id);
            }
        }
    }
    out
}

/// How many consecutive own forfeits the desk warns of where the regulation states no
/// withdrawal after consecutive forfeits (A16: 「otherwise the desk warns after two and the
/// chief arbiter decides」).
pub const FORFEIT_WARNING_RUN: usize = 2;

/// Players of `section` not withdrawn whose last rounds due are [`FORFEIT_WARNING_RUN`] or
/// more own forfeits in a row, where the regulation states no withdrawal after consecutive
/// forfeits and its other rule does not withdraw them: `(player, the rounds of the run)`.
pub fn forfeit_runs(sec: &Section, state: &EventState, section: &str) -> Vec<(PlayerId, Vec<u32>)> {
    if sec.discipline.withdraw_after_consecutive_forfeits.is_some() {
        return Vec::new();
    }
    let all = state.section_outcomes(section);
    let mut out = Vec::new();
    for p in state.players(section) {
        if p.withdrawn.is_some() || p.disqualified.is_some() {
            continue;
        }
        let outcomes = counted_outcomes(p, &all);
        let mut run = Vec::new();
        for (i, o) in outcomes.iter().enumerate().rev() {
            if o.is_own_forfeit() {
                run.push(i as u32 + 1);
            } else if !matches!(o, arbiter_types::Outcome::Absent) {
                break;
            }
        }
        if run.len() >= FORFEIT_WARNING_RUN {
            run.reverse();
            out.push((p.id, run));
        }
    }
    out
}

/// Team key of every player for same-team avoidance: team, else unit, else association.
pub fn team_keys(state: &EventState, section: &str) -> BTreeMap<PlayerId, u32> {
    let players = state.players(section);
    let names: BTreeSet<String> = players
        .iter()
        .filter_map(|p| {
            p.team
                .clone()
                .or_else(|| p.person.unit.clone())
                .or_else(|| p.person.association.clone())
        })
        .collect();
    let index: BTreeMap<&String, u32> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n, i as u32 + 1))
        .collect();
    players
        .iter()
        .filter_map(|p| {
            let key = p
                .team
                .as_ref()
                .or(p.person.unit.as_ref())
                .or(p.person.association.as_ref())?;
            Some((p.id, *index.get(key)?))
        })
        .collect()
}

/// The pairing engine's view of a section before round `round`; players in `exclude` (the
/// knockout players during the continuing Swiss) are absent. Returns the state and the
/// player of every pairing number.
pub fn pairing_state(
    sec: &Section,
    state: &EventState,
    section: &str,
    total_rounds: u32,
    exclude: &BTreeSet<PlayerId>,
) -> (SectionState, Vec<PlayerId>) {
    let rec = state.section(section);
    let order: Vec<PlayerId> = rec.map(|r| r.order.clone()).unwrap_or_default();
    let teams = team_keys(state, section);
    let mut history = state.section_outcomes(section);
    let players = order
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let availability = match state.status(p) {
                Some(PlayerStatus::Withdrawn | PlayerStatus::Disqualified) => {
                    Availability::Withdrawn
                }
                Some(PlayerStatus::Unpaid) => Availability::Unpaid,
                _ if exclude.contains(&p) => Availability::Absent,
                _ => Availability::Active,
            };
            Entrant {
                no: arbiter_types::PlayerNo::from_index(i),
                team: teams.get(&p).copied(),
                availability,
                history: history.remove(&p).unwrap_or_default(),
            }
        })
        .collect();
    (
        SectionState {
            players,
            scoring: scoring_table(sec, state),
            settings: sec.pairing,
            total_rounds,
        },
        order,
    )
}

/// The seed recorded for pairing round `round` of `section` (round 1 lots, `random` mode).
pub fn round_seed(state: &EventState, section: &str, round: u32) -> u64 {
    let seed = state.header.as_ref().map_or(0, |h| h.seed);
    derive_seed(seed, &format!("pair/{section}/{round}"))
}
