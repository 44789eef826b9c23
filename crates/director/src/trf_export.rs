//! A section of an event as a TRF-16 file (`event export --format trf`, and the `.trf`
//! files `simulate` writes): pairing numbers, names, final points and ranks, and every
//! completed round's outcomes.

use crate::plan::{section_plan, SectionPlan};
use crate::publish::Computed;
use crate::DirectorError;
use arbiter_core::EventState;
use arbiter_regulation::Regulation;
use arbiter_trf::{TrfPlayer, TrfTournament};

/// The TRF-16 tournament of `section`; `None` for a round robin (Berger tables are not a
/// Swiss file) or a section whose numbers are not drawn yet.
pub fn section_trf(
    reg: &Regulation,
    state: &EventState,
    computed: &Computed,
    section: &str,
) -> Result<Option<TrfTournament>, DirectorError> {
    let sec = reg
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let plan = section_plan(sec, state);
    if matches!(plan, SectionPlan::RoundRobin { .. }) {
        return Ok(None);
    }
    let Some(rec) = state.section(section) else {
        return Err(DirectorError::UnknownSection(section.to_string()));
    };
    if rec.order.is_empty() {
        return Ok(None);
    }
    let finals = computed.finals.get(section);
    let players: Vec<TrfPlayer> = rec
        .order
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let pl = state.player(*p);
            let no = arbiter_types::PlayerNo::from_index(i);
            let row = finals.and_then(|f| f.iter().find(|r| r.no == no));
            TrfPlayer {
                no,
                sex: pl.and_then(|x| x.person.sex),
                title: String::new(),
                name: pl.map(|x| x.person.name.clone()).unwrap_or_default(),
                rating: pl.and_then(|x| x.rating),
                federation: String::new(),
                fide_id: String::new(),
                birth_date: String::new(),
                points: row.map(|r| r.points),
                rank: row.map(|r| r.rank),
                team: None,
                next_round: None,
            }
        })
        .collect();
    let mut all = state.section_outcomes(section);
    let outcomes: Vec<_> = rec
        .order
        .iter()
        .map(|p| all.remove(p).unwrap_or_default())
        .collect();
    // A team match (A15): FIDE's team record, one `013` line per team in team-number order
    // (the k-th line is team k), its players' pairing numbers in board order.
    let extra_lines = if sec.team_match.is_some() {
        rec.team_order
            .iter()
            .map(|t| {
                let members: Vec<String> = state
                    .teams
                    .get(t)
                    .map(|team| {
                        team.members
                            .iter()
                            .filter_map(|p| rec.order.iter().position(|x| x == p))
                            .map(|i| format!("{:>4}", i + 1))
                            .collect()
                    })
                    .unwrap_or_default();
                let name: String = t.chars().take(32).collect();
                format!("013 {name:<32}{}", members.join(" "))
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Some(TrfTournament {
        name: format!("{} {}", reg.event.name, sec.name),
        players,
        rounds_played: rec.completed_rounds(),
        total_rounds: Some(plan.swiss_rounds_total()),
        initial_colour: None,
        scoring: crate::plan::scoring_table(sec, state),
        outcomes,
        extra_lines,
    }))
}
