//! Pairings that must not change when the engine only gets faster: generated rounds
//! (`generator::bench_state`) paired on the complete graph (300 players), on the restricted
//! graph with pricing (1,000 and 1,500) and with the tie settled by exchanges (`local`),
//! each compared with the digest of the pairing the engine gave before the speed work of
//! issue 48 (`cargo run --release -p arbiter-pairing --example measure -- N ROUND SEED
//! [local]` prints the same digest).

use arbiter_pairing::generator::bench_state;
use arbiter_pairing::swiss::{pair_swiss_local_tie, pair_swiss_stats};
use arbiter_pairing::Pairing;

/// FNV-1a over the boards (red, black, in board order) and the bye, as `measure` prints it.
fn digest(p: &Pairing) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for b in &p.boards {
        eat(u64::from(b.red.get()));
        eat(u64::from(b.black.get()));
    }
    eat(p.bye.map_or(u64::MAX, |b| u64::from(b.get())));
    h
}

#[test]
fn generated_rounds_pair_as_before() {
    // (players, round, seed, tie settled by exchanges, digest)
    let cases: [(usize, u32, u64, bool, u64); 10] = [
        (300, 3, 1, false, 0x50a1_27b2_e882_6c8c),
        (300, 3, 1, true, 0x957e_d0d3_12c5_c7b8),
        (300, 5, 7, false, 0x83cb_232d_2207_b37a),
        (300, 5, 7, true, 0xde09_1d59_93ce_ad96),
        (1000, 5, 42, false, 0x9a16_83a2_1464_784e),
        (1000, 5, 42, true, 0x8b46_2d33_b555_37da),
        (1000, 9, 1, false, 0x00b4_efb3_44a2_c56a),
        (1000, 9, 1, true, 0xd505_0c7a_e5c5_23fa),
        (1500, 4, 7, false, 0x113e_3592_6a12_3f68),
        (1500, 4, 7, true, 0x3cb5_cf06_7295_0b7c),
    ];
    for (players, round, seed, local, want) in cases {
        let state = bench_state(players, round, seed);
        let solved = if local {
            pair_swiss_local_tie(&state, round)
        } else {
            pair_swiss_stats(&state, round)
        };
        let (pairing, stats) = solved.expect("a generated round has a pairing");
        assert!(stats.certified, "{players}/{round}/{seed}: not certified");
        assert_eq!(
            digest(&pairing),
            want,
            "{players} players, round {round}, seed {seed}, local {local}: the pairing changed"
        );
    }
}
