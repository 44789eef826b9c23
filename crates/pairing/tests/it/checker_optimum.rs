//! The checker's two optima against each other, on rounds of generated sections: the
//! matching optimum (any size up to 400) equals the exhaustive one (≤ 12 players) wherever
//! both answer, including "no valid pairing". This tests the checker's own matching code
//! apart from the engine.

use arbiter_pairing::checker::optimum;
use arbiter_pairing::generator::{generate, GeneratorConfig};
use arbiter_pairing::{brute, Availability, SectionState};
use arbiter_types::{PairingSettings, SameTeam, ScoringPreset};

fn active(state: &SectionState) -> usize {
    state
        .players
        .iter()
        .filter(|e| e.availability == Availability::Active)
        .count()
}

#[test]
fn matching_optimum_equals_brute_force() {
    let (mut compared, mut none, mut h6) = (0usize, 0usize, 0usize);
    for seed in 1..=700u64 {
        let players = 3 + (seed % 10) as usize;
        let same_team = [SameTeam::Off, SameTeam::Hard, SameTeam::Soft][(seed % 3) as usize];
        let cfg = GeneratorConfig {
            players,
            rounds: 3 + (seed % 7) as u32,
            seed,
            draw_rate: 0.3,
            forfeit_rate: 0.05,
            withdrawal_rate: 0.03,
            late_entry_rate: 0.05,
            absent_rate: 0.05,
            teams: if seed % 2 == 0 { 3 } else { 0 },
            settings: PairingSettings {
                same_team,
                relax_colours_in_last_round: seed % 5 != 0,
                ..PairingSettings::default()
            },
            scoring: ScoringPreset::ALL[(seed as usize / 3) % ScoringPreset::ALL.len()].table(),
            keep_states: true,
            quick: false,
        };
        let t = generate(&cfg).unwrap();
        let mut states: Vec<(u32, SectionState)> = t
            .rounds
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(k, r)| Some((k as u32 + 1, r.state_before.clone()?)))
            .collect();
        if let Some(r) = t.stopped_round {
            states.push((r, t.state.clone()));
        }
        for (round, state) in states {
            if active(&state) > brute::MAX_PLAYERS {
                continue;
            }
            let b = brute::optimum(&state, round).unwrap_or_else(|e| {
                panic!(
                    "seed {seed} round {round} of {}, {} players: {e}",
                    state.total_rounds,
                    active(&state)
                )
            });
            match optimum(&state, round) {
                Ok(m) => {
                    assert_eq!(m, b, "seed {seed} round {round}");
                    compared += 1;
                    none += usize::from(b.is_none());
                }
                Err(e) if e.starts_with("H6") => h6 += 1,
                Err(e) => panic!("seed {seed} round {round}: {e}"),
            }
        }
    }
    eprintln!(
        "{compared} rounds compared ({none} without a pairing), {h6} left to brute force by H6"
    );
    assert!(compared > 2000, "only {compared} compared");
}

/// Rounds of 150–400 players: the matching optimum answers (no overflow, no inexact
/// halving) and is never worse than the engine's pairing.
#[test]
fn matching_optimum_on_large_rounds() {
    use arbiter_pairing::checker::objective;
    for (k, &players) in [150usize, 260, 400].iter().enumerate() {
        let cfg = GeneratorConfig {
            players,
            rounds: 6,
            seed: 40 + k as u64,
            keep_states: true,
            teams: 5,
            settings: PairingSettings {
                same_team: SameTeam::Soft,
                ..PairingSettings::default()
            },
            ..GeneratorConfig::default()
        };
        let t = generate(&cfg).unwrap();
        for (i, r) in t.rounds.iter().enumerate().skip(1) {
            let round = i as u32 + 1;
            let state = r.state_before.as_ref().unwrap();
            let best = optimum(state, round).unwrap().expect("pairable");
            assert!(
                best <= objective(state, round, &r.pairing),
                "{players} players, round {round}"
            );
        }
    }
}
