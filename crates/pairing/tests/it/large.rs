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

/// The engine's C0–C5 digits of a pairing it produced (every pair legal).
fn objective(
    state: &arbiter_pairing::SectionState,
    round: u32,
    p: &arbiter_pairing::Pairing,
) -> Vec<u64> {
    arbiter_pairing::swiss::objective_digits(state, round, p)
        .unwrap()
        .expect("a complete pairing of legal pairs")
}

/// The restricted-graph path with a deliberately useless candidate window (0: almost no
/// pairs) must be repaired by pricing: the dual certificate rejects the restricted optimum,
/// the violating pairs are added, and the final pairing is exactly as good under C0–C5 as
/// the complete-graph engine's (compared on the engine's own cost digits; the checker and
/// brute force judge the engine in the property test). "No valid pairing" must agree as
/// well (it is proved by artificial pairs, never guessed).
#[test]
fn pricing_repairs_a_bad_restricted_graph() {
    use arbiter_pairing::swiss::pair_restricted;
    use arbiter_pairing::{pair_swiss, PairingError};
    let (mut caught, mut compared, mut infeasible) = (0usize, 0usize, 0usize);
    for seed in 0..60u64 {
        let players = [5usize, 8, 11, 12, 17, 24, 31, 40, 64][seed as usize % 9];
        let rounds = if seed % 5 == 0 { players as u32 } else { 8 };
        let teams = if seed % 2 == 0 { 3 } else { 0 };
        let states = varied_states(seed, seed, players, rounds, teams, 0.03);
        for (round, state) in states {
            let dense = pair_swiss(&state, round);
            for window in [0usize, 2] {
                let restricted = pair_restricted(&state, round, window);
                match (&dense, &restricted) {
                    (Ok(d), Ok((r, stats))) => {
                        assert!(stats.certified);
                        assert_eq!(
                            objective(&state, round, r),
                            objective(&state, round, d),
                            "seed {seed} round {round} window {window}"
                        );
                        if stats.added_edges > 0 {
                            caught += 1;
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

/// Above `TIE_EXACT_LIMIT` the round is solved on C0–C5 alone and the tie-break settled by
/// exchanges of partners. Forced on smaller fields (dense and restricted graphs), that path
/// must give a legal pairing exactly as good under C0–C5 as the exact engine's (on the
/// engine's own cost digits), with the certificate, and a tie total never below the exact
/// minimum; "no valid pairing" must agree.
#[test]
fn local_tie_keeps_the_c0_c5_optimum() {
    use arbiter_pairing::swiss::{pair_swiss_local_tie, pair_swiss_stats};
    use arbiter_pairing::PairingError;
    let (mut compared, mut equal_tie, mut exchanges, mut infeasible) = (0usize, 0, 0, 0);
    let (mut local_total, mut exact_total) = (0u64, 0u64);
    for seed in 0..24u64 {
        let players = [9usize, 16, 33, 64, 150, 451, 700, 41][seed as usize % 8];
        let rounds = if seed % 6 == 5 { players as u32 } else { 7 };
        let teams = if seed % 2 == 0 { 5 } else { 0 };
        let states = varied_states(seed, 100 + seed, players, rounds, teams, 0.01);
        for (round, state) in states {
            match (
                pair_swiss_stats(&state, round),
                pair_swiss_local_tie(&state, round),
            ) {
                (Ok((exact, es)), Ok((local, ls))) => {
                    let at = format!("seed {seed} round {round} ({players} players)");
                    assert_eq!(
                        objective(&state, round, &local),
                        objective(&state, round, &exact),
                        "{at}"
                    );
                    assert!(ls.certified, "{at}");
                    assert_eq!(es.tie_exchanges, None, "{at}");
                    let made = ls
                        .tie_exchanges
                        .expect("the local path reports its exchanges");
                    assert!(ls.tie_total >= es.tie_total, "{at}: {ls:?} {es:?}");
                    exchanges += made;
                    equal_tie += usize::from(ls.tie_total == es.tie_total);
                    local_total += ls.tie_total;
                    exact_total += es.tie_total;
                    compared += 1;
                }
                (
                    Err(PairingError::NoValidPairing { .. }),
                    Err(PairingError::NoValidPairing { .. }),
                ) => {
                    infeasible += 1;
                }
                (e, l) => panic!("seed {seed} round {round}: exact {e:?} local {l:?}"),
            }
        }
    }
    // The exchanges did work (the C0–C5 solve alone leaves the tie far from the minimum),
    // and on these small fields they often reach it.
    assert!(compared > 120, "{compared} rounds compared");
    assert!(exchanges > 500, "{exchanges} exchanges");
    assert!(
        equal_tie * 3 > compared,
        "exact tie reached in {equal_tie} of {compared} rounds (ties {local_total} vs {exact_total})"
    );
    eprintln!("compared {compared}, exact tie reached {equal_tie}, exchanges {exchanges}, tie totals {local_total} vs {exact_total}, no valid pairing {infeasible}");
}

/// The states before each round (and the one where it stopped) of a generated tournament
/// whose settings and scoring vary with `variant`: same-team rule, slide or adjacent,
/// every scoring preset in turn; draws, forfeits, withdrawals and late entries.
fn varied_states(
    variant: u64,
    seed: u64,
    players: usize,
    rounds: u32,
    teams: u32,
    absent_rate: f64,
) -> Vec<(u32, arbiter_pairing::SectionState)> {
    use arbiter_types::{ScoringPreset, WithinGroup};
    let v = variant as usize;
    let cfg = GeneratorConfig {
        players,
        rounds,
        seed,
        draw_rate: 0.25,
        forfeit_rate: 0.03,
        withdrawal_rate: 0.02,
        late_entry_rate: 0.05,
        absent_rate,
        teams,
        settings: PairingSettings {
            same_team: [SameTeam::Off, SameTeam::Hard, SameTeam::Soft][v % 3],
            within_group: if v % 4 == 3 {
                WithinGroup::Adjacent
            } else {
                WithinGroup::Slide
            },
            ..PairingSettings::default()
        },
        scoring: ScoringPreset::ALL[v % ScoringPreset::ALL.len()].table(),
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
    states
}
