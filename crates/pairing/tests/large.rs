//! Large sections (above the dense-graph limit): the candidate-graph path must stay legal
//! and, with pricing, provably optimal.

use arbiter_pairing::checker::check;
use arbiter_pairing::generator::{generate, GeneratorConfig};
use arbiter_pairing::swiss::DENSE_LIMIT;
use arbiter_types::{PairingSettings, SameTeam};

#[test]
fn large_sections_pass_the_checker() {
    for (seed, players, same_team) in [
        (1u64, 450usize, SameTeam::Off),
        (2, 611, SameTeam::Hard),
        (3, 520, SameTeam::Soft),
    ] {
        assert!(players > DENSE_LIMIT);
        let cfg = GeneratorConfig {
            players,
            rounds: 7,
            seed,
            teams: 12,
            settings: PairingSettings {
                same_team,
                ..PairingSettings::default()
            },
            keep_states: true,
            ..GeneratorConfig::default()
        };
        let t = generate(&cfg).unwrap();
        assert!(t.stopped.is_none(), "{:?}", t.stopped);
        assert_eq!(t.rounds.len(), 7);
        for (k, r) in t.rounds.iter().enumerate().skip(1) {
            let round = k as u32 + 1;
            let state = r.state_before.as_ref().unwrap();
            let v = check(state, round, &r.pairing);
            assert!(v.is_empty(), "seed {seed} round {round}: {v:?}");
            // Above the dense limit the pairing comes with an optimality certificate.
            let (p, stats) = arbiter_pairing::swiss::pair_swiss_stats(state, round).unwrap();
            assert!(stats.certified, "seed {seed} round {round}: {stats:?}");
            assert_eq!(p, r.pairing);
        }
    }
}

/// The restricted-graph path with a deliberately useless candidate window (0: almost no
/// pairs) must be repaired by pricing: the dual certificate rejects the restricted optimum,
/// the violating pairs are added, and the final pairing is exactly as good under C0–C5 as
/// the complete-graph engine's (and brute force's for ≤ 12 players). "No valid pairing"
/// must agree as well (it is proved by artificial pairs, never guessed).
#[test]
fn pricing_repairs_a_bad_restricted_graph() {
    use arbiter_pairing::brute;
    use arbiter_pairing::checker::objective;
    use arbiter_pairing::swiss::pair_restricted;
    use arbiter_pairing::{pair_swiss, Availability, PairingError};
    use arbiter_types::{ScoringPreset, WithinGroup};
    let (mut caught, mut compared, mut infeasible) = (0usize, 0usize, 0usize);
    for seed in 0..60u64 {
        let players = [5usize, 8, 11, 12, 17, 24, 31, 40, 64][seed as usize % 9];
        let cfg = GeneratorConfig {
            players,
            rounds: if seed % 5 == 0 { players as u32 } else { 8 },
            seed,
            draw_rate: 0.25,
            forfeit_rate: 0.03,
            withdrawal_rate: 0.02,
            late_entry_rate: 0.05,
            absent_rate: 0.03,
            teams: if seed % 2 == 0 { 3 } else { 0 },
            settings: PairingSettings {
                same_team: [SameTeam::Off, SameTeam::Hard, SameTeam::Soft][seed as usize % 3],
                within_group: if seed % 4 == 3 {
                    WithinGroup::Adjacent
                } else {
                    WithinGroup::Slide
                },
                ..PairingSettings::default()
            },
            scoring: ScoringPreset::ALL[seed as usize % ScoringPreset::ALL.len()].table(),
            keep_states: true,
            ..GeneratorConfig::default()
        };
        let t = generate(&cfg).unwrap();
        let mut states: Vec<(u32, arbiter_pairing::SectionState)> = t
            .rounds
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(k, r)| r.state_before.clone().map(|s| (k as u32 + 1, s)))
            .collect();
        if let (Some(_), Some(r)) = (&t.stopped, t.stopped_round) {
            states.push((r, t.state.clone()));
        }
        for (round, state) in states {
            let dense = pair_swiss(&state, round);
            for window in [0usize, 2] {
                let restricted = pair_restricted(&state, round, window);
                match (&dense, &restricted) {
                    (Ok(d), Ok((r, stats))) => {
                        assert!(stats.certified);
                        assert!(
                            check(&state, round, r).is_empty(),
                            "seed {seed} round {round}"
                        );
                        assert_eq!(
                            objective(&state, round, r),
                            objective(&state, round, d),
                            "seed {seed} round {round} window {window}"
                        );
                        if stats.added_edges > 0 {
                            caught += 1;
                        }
                        let active = state
                            .players
                            .iter()
                            .filter(|e| e.availability == Availability::Active)
                            .count();
                        if active <= brute::MAX_PLAYERS {
                            assert_eq!(
                                brute::optimum(&state, round).unwrap(),
                                Some(objective(&state, round, r))
                            );
                        }
                        compared += 1;
                    }
                    (
                        Err(PairingError::NoValidPairing { .. }),
                        Err(PairingError::NoValidPairing { .. }),
                    ) => {
                        infeasible += 1;
                    }
                    (d, r) => panic!("seed {seed} round {round}: dense {d:?} restricted {r:?}"),
                }
            }
        }
    }
    assert!(
        caught > 50,
        "certificate caught only {caught} bad restricted graphs"
    );
    assert!(compared > 300 && infeasible > 0, "{compared} {infeasible}");
}
