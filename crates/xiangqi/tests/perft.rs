//! Perft against the published values: the start position (44; 1,920; 79,666; 3,290,240;
//! 133,312,995) and the tricky positions of chessprogramming.org's "Chinese Chess Perft
//! Results" table (flying generals, discovered checks, cannons over a screen, horse legs).
//! Depths up to 4 (or the cheap ones) run in every test run; depth 5 runs in release
//! (`cargo test --release`), where it takes well under a second per position.

use arbiter_xiangqi::Position;

/// (FEN, node counts from depth 1).
const SUITE: &[(&str, &[u64])] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        &[44, 1_920, 79_666, 3_290_240, 133_312_995],
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
        &[38, 1_128, 43_929, 1_339_047, 53_112_976],
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
        &[7, 281, 8_620, 326_201, 10_369_923],
    ),
    (
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
        &[25, 424, 9_850, 202_884, 4_739_553, 100_055_401],
    ),
    (
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w",
        &[28, 516, 14_808, 395_483, 11_842_230],
    ),
    (
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w",
        &[21, 364, 7_626, 162_837, 3_500_505, 81_195_154],
    ),
    (
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w",
        &[28, 222, 6_241, 64_971, 1_914_306, 23_496_493],
    ),
    (
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w",
        &[23, 345, 8_124, 149_272, 3_513_104, 71_287_903],
    ),
    (
        "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w",
        &[21, 195, 3_883, 48_060, 933_096, 12_250_386],
    ),
    (
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
        &[30, 830, 22_787, 649_866, 17_920_736],
    ),
    (
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w",
        &[19, 583, 11_714, 376_467, 8_148_177],
    ),
];

fn check(max_depth: usize, max_nodes: u64) {
    for (fen, counts) in SUITE {
        let mut p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, &want) in counts.iter().enumerate().take(max_depth) {
            if want > max_nodes {
                break;
            }
            let depth = i as u32 + 1;
            assert_eq!(p.perft(depth), want, "{fen} depth {depth}");
        }
    }
}

#[test]
fn published_counts_to_depth_4() {
    // Depth 4 of every position (3.3 M leaves at most): part of every test run.
    check(4, u64::MAX);
}

#[test]
#[cfg(not(debug_assertions))]
fn published_counts_depth_5_release() {
    check(5, u64::MAX);
}

#[test]
#[cfg(not(debug_assertions))]
fn start_depth_5_parallel_release() {
    assert_eq!(Position::start().perft_parallel(5, 2), 133_312_995);
}

#[test]
#[ignore = "depth 6 of the positions that publish it: minutes; run with --ignored --release"]
fn published_counts_depth_6() {
    check(6, u64::MAX);
}
