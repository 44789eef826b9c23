//! Property test over generated sections (≥ 10,000 rounds, 2–300 players, withdrawals,
//! late entries, absences, forfeits, teams, last rounds): every round the engine pairs passes
//! the independent checker (H1–H6, colours); for every round with at most 12 players the
//! engine's objective equals the brute-force optimum (and "no valid pairing" agrees with
//! brute force); and the engine's objective equals the checker's own matching optimum on
//! every round up to 120 players (every round, up to 300 players here and 400 at most, with
//! `ARBITER_PROPERTY_FULL=1`: a longer run), which also equals brute force wherever both are computed.

use arbiter_pairing::checker::{check, objective, Violation};
use arbiter_pairing::generator::{generate, GeneratorConfig};
use arbiter_pairing::{brute, checker, Availability, PairingError};
use arbiter_types::{
    ByeChoice, EqualHistoryColour, PairingSettings, SameTeam, ScoringPreset, WithinGroup,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_config(rng: &mut ChaCha8Rng, seed: u64) -> GeneratorConfig {
    let players = match rng.gen_range(0..100) {
        0..=69 => rng.gen_range(2..=13),
        70..=96 => rng.gen_range(14..=60),
        _ => rng.gen_range(61..=300),
    };
    let rounds = rng.gen_range(2..=11);
    let same_team = [
        SameTeam::Off,
        SameTeam::Round1,
        SameTeam::Hard,
        SameTeam::Soft,
    ][rng.gen_range(0..4)];
    let settings = PairingSettings {
        same_team,
        max_colour_diff: if rng.gen_bool(0.85) {
            2
        } else {
            1 + rng.gen_range(0..3)
        },
        no_three_in_a_row: rng.gen_bool(0.8),
        relax_colours_in_last_round: rng.gen_bool(0.8),
        forfeit_counts_for_colour: rng.gen_bool(0.2),
        forfeit_is_meeting: rng.gen_bool(0.8),
        equal_history: if rng.gen_bool(0.5) {
            EqualHistoryColour::OddRoundSmallRed
        } else {
            EqualHistoryColour::NumberSumOddSmallRed
        },
        within_group: if rng.gen_bool(0.7) {
            WithinGroup::Slide
        } else {
            WithinGroup::Adjacent
        },
        bye: if rng.gen_bool(0.8) {
            ByeChoice::LowestWithoutBye
        } else {
            ByeChoice::LowestFewestByes
        },
        ..PairingSettings::default()
    };
    GeneratorConfig {
        players,
        rounds,
        seed,
        draw_rate: rng.gen_range(0.0..0.5),
        forfeit_rate: if rng.gen_bool(0.5) {
            rng.gen_range(0.0..0.15)
        } else {
            0.0
        },
        withdrawal_rate: if rng.gen_bool(0.5) {
            rng.gen_range(0.0..0.08)
        } else {
            0.0
        },
        late_entry_rate: if rng.gen_bool(0.4) {
            rng.gen_range(0.0..0.2)
        } else {
            0.0
        },
        absent_rate: if rng.gen_bool(0.4) {
            rng.gen_range(0.0..0.1)
        } else {
            0.0
        },
        teams: if rng.gen_bool(0.5) {
            rng.gen_range(2..=6)
        } else {
            0
        },
        settings,
        scoring: ScoringPreset::ALL[rng.gen_range(0..ScoringPreset::ALL.len())].table(),
        keep_states: true,
        quick: false,
    }
}

fn active(state: &arbiter_pairing::SectionState) -> usize {
    state
        .players
        .iter()
        .filter(|e| e.availability == Availability::Active)
        .count()
}

/// Rounds whose players to pair exceed this are compared with the checker's matching
/// optimum only in the full run (`ARBITER_PROPERTY_FULL=1`), to keep CI time reasonable.
const OPTIMUM_CI_LIMIT: usize = 120;

#[test]
fn generated_rounds_are_legal_and_optimal() {
    let full = std::env::var_os("ARBITER_PROPERTY_FULL").is_some();
    let target = 10_500;
    let limit = if full {
        checker::OPTIMUM_MAX_PLAYERS
    } else {
        OPTIMUM_CI_LIMIT
    };
    let mut rng = ChaCha8Rng::seed_from_u64(20261129);
    let mut rounds = 0usize;
    let (mut compared, mut matched, mut matched_large, mut h6_skipped) = (0usize, 0, 0, 0);
    let (mut stopped, mut stopped_checked, mut largest) = (0usize, 0usize, 0usize);
    let mut h6_unknown = 0usize;
    let mut seed = 0u64;
    while rounds < target {
        seed += 1;
        let cfg = random_config(&mut rng, seed);
        let t = generate(&cfg).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for (k, r) in t.rounds.iter().enumerate() {
            let round = k as u32 + 1;
            let Some(state) = &r.state_before else {
                panic!("states kept")
            };
            rounds += 1;
            let n = active(state);
            let v: Vec<Violation> = check(state, round, &r.pairing)
                .into_iter()
                // Round 1 follows A3 (board-parity colours, best-effort team avoidance).
                .filter(|v| {
                    round > 1
                        || !matches!(v, Violation::ColourRule { .. } | Violation::SameTeam(..))
                })
                .collect();
            assert!(
                v.is_empty(),
                "seed {seed} round {round}: {}\n{cfg:?}",
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            if round == 1 {
                continue;
            }
            let engine = objective(state, round, &r.pairing);
            let mut brute_best = None;
            if n <= brute::MAX_PLAYERS {
                let best = match brute::optimum(state, round) {
                    Ok(b) => b,
                    // The checker's H6 search gave up (budget): no verdict on this round.
                    Err(e) if e.starts_with("H6") => {
                        h6_unknown += 1;
                        continue;
                    }
                    Err(e) => panic!("seed {seed} round {round}: {e}\n{cfg:?}"),
                };
                assert_eq!(
                    Some(&engine),
                    best.as_ref(),
                    "seed {seed} round {round}: engine against brute force\n{cfg:?}"
                );
                brute_best = best;
                compared += 1;
            }
            if n <= limit {
                match checker::optimum(state, round) {
                    Ok(best) => {
                        assert_eq!(
                            Some(&engine),
                            best.as_ref(),
                            "seed {seed} round {round}: engine against the checker's matching\n{cfg:?}"
                        );
                        if let Some(b) = &brute_best {
                            assert_eq!(
                                Some(b),
                                best.as_ref(),
                                "seed {seed} round {round}: brute force against matching"
                            );
                        }
                        matched += 1;
                        if n > brute::MAX_PLAYERS {
                            matched_large += 1;
                            largest = largest.max(n);
                        }
                    }
                    // H6 binds and the unconstrained optimum is a dead end: brute force
                    // (≤ 12 players) has compared this round.
                    Err(e) if e.starts_with("H6") => h6_skipped += 1,
                    Err(e) => panic!("seed {seed} round {round}: {e}"),
                }
            }
        }
        if let Some(e) = &t.stopped {
            stopped += 1;
            assert!(matches!(e, PairingError::NoValidPairing { .. }));
            let round = t.stopped_round.unwrap();
            if active(&t.state) <= brute::MAX_PLAYERS {
                assert_eq!(
                    brute::optimum(&t.state, round).unwrap(),
                    None,
                    "seed {seed} round {round}: engine found none"
                );
                stopped_checked += 1;
            }
        }
    }
    assert!(
        compared > 3000,
        "only {compared} rounds compared with brute force"
    );
    assert!(
        matched_large > 300,
        "only {matched_large} rounds above 12 players matched"
    );
    eprintln!(
        "{rounds} rounds; {compared} compared with brute force; {matched} with the checker's \
         matching ({matched_large} above 12 players, up to {largest}; {h6_skipped} left to \
         brute force by H6; {h6_unknown} without a verdict, the H6 search over its budget); \
         {stopped} sections stopped ({stopped_checked} confirmed)"
    );
    assert!(
        h6_unknown * 100 <= compared,
        "{h6_unknown} rounds without an H6 verdict"
    );
}

/// Found by the property test when the engine searched H6 only in fields of up to 12
/// players (A2's H6 has no size limit). Seed 563 (13 players, 10 rounds, five teams,
/// `same_team = hard`): the engine's round 9 left round 10 unpairable under H1/H4 although
/// another round-9 pairing keeps it pairable. The checker's own completion search agrees
/// with the engine's pairing now.
#[test]
fn h6_beyond_twelve_players() {
    let mut rng = ChaCha8Rng::seed_from_u64(20261129);
    let mut cfg = random_config(&mut rng, 1);
    for seed in 2..=563 {
        cfg = random_config(&mut rng, seed);
    }
    assert_eq!((cfg.players, cfg.rounds, cfg.seed), (13, 10, 563));
    let t = generate(&cfg).unwrap();
    let r = &t.rounds[8];
    let state = r.state_before.as_ref().unwrap();
    assert_eq!(check(state, 9, &r.pairing), vec![]);
}
