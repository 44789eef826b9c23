//! Large sections (above the dense-graph limit): the candidate-graph path must stay legal.

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
        }
    }
}
