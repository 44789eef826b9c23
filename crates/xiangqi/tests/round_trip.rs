//! Round trips: in many random legal games, every move written in each notation reads back
//! as the same move, and writing what was read gives the same text; the FEN of every
//! position reads back as the same position; a game written as PGN reads back as the same
//! game in every format.

use arbiter_xiangqi::{pgn, Game, Notation, PgnGame, PgnResult, Position};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

fn random_game(seed: u64, plies: usize) -> Game {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut g = Game::new(Position::start());
    for _ in 0..plies {
        let moves = g.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.gen_range(0..moves.len())];
        g.play(m).expect("legal");
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_move_reads_back_in_every_notation(seed in any::<u64>(), plies in 1usize..260) {
        let g = random_game(seed, plies);
        let mut p = g.start().clone();
        for &m in g.moves() {
            // Every legal move of the position, not only the one played.
            for &other in p.legal_moves().iter() {
                for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
                    let text = p.to_notation(other, n);
                    let back = p.parse_move(&text);
                    prop_assert_eq!(back, Ok(other), "{} {:?} `{}`", p.fen(), n, text);
                    prop_assert_eq!(p.to_notation(back.unwrap(), n), text);
                }
            }
            prop_assert_eq!(Position::from_fen(&p.fen()).unwrap(), p.clone());
            p.make_move(m);
        }
        prop_assert_eq!(&p, g.position());
    }

    #[test]
    fn games_read_back_from_pgn(seed in any::<u64>(), plies in 0usize..200) {
        let g = random_game(seed, plies);
        let result = match g.status().winner() {
            Some(arbiter_xiangqi::Colour::Red) => PgnResult::RedWins,
            Some(arbiter_xiangqi::Colour::Black) => PgnResult::BlackWins,
            None => PgnResult::Unknown,
        };
        for f in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
            let mut pg = PgnGame::new(g.clone(), f, result);
            pg.tags.push(("Event".into(), format!("随机 {seed}")));
            let text = pgn::write(&pg);
            let back = pgn::read(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(&back.game, &g);
            prop_assert_eq!(back.result, result);
        }
    }
}

/// Readers also take what other programs write: ASCII digits for black, traditional
/// characters, `.` for sideways moves, the WXF committee's tandem order.
#[test]
fn variants_on_input() {
    let g = Game::from_moves(
        None,
        ["炮2平5", "馬8進7", "H2+3", "r9.8", "俥一平二", "h7h3"],
    )
    .unwrap();
    assert_eq!(
        g.move_texts()
            .iter()
            .map(|t| t.chinese.as_str())
            .collect::<Vec<_>>(),
        [
            "炮二平五",
            "马８进７",
            "马二进三",
            "车９平８",
            "车一平二",
            "炮８进４"
        ]
    );
}

/// Real games (openings from published theory, written by hand in the three formats, and a
/// short mate) replay to the expected final positions.
#[test]
fn real_games_replay_to_the_expected_positions() {
    let text = include_str!("fixtures/openings.pgn");
    let games = pgn::read_all(text).unwrap();
    let finals: Vec<String> = games.iter().map(|g| g.game.position().fen()).collect();
    let expected = [EXPECTED_1, EXPECTED_2, EXPECTED_3, EXPECTED_4, EXPECTED_5];
    assert_eq!(finals, expected);
    assert_eq!(
        games[4].game.status(),
        arbiter_xiangqi::Status::Checkmate {
            winner: arbiter_xiangqi::Colour::Red
        }
    );
    assert_eq!(games[4].result, PgnResult::RedWins);
}
const EXPECTED_1: &str =
    "1rb1kabr1/4a4/1cn6/p1p1p3p/6pn1/1CPN5/P3PRc1P/4C1N1B/9/R1BAKA3 b - - 3 12";
const EXPECTED_2: &str =
    "4kabr1/3ra3c/1cn1b1n2/p1p1p3p/6p2/1RP3R2/P3P1P1P/N1C1C1N2/9/2BAKAB2 w - - 20 11";
const EXPECTED_3: &str =
    "1rbakab2/3r5/1cn1c1n2/p1p1p1pRp/9/9/P1P1P1P1P/1CN1C1N2/9/1RBAKAB2 w - - 12 7";
const EXPECTED_4: &str = "3akabnr/r8/n1c4c1/p3p1p1p/2b6/9/P3P1P1P/1CN1C1N2/9/R1BAKABR1 w - - 4 7";
const EXPECTED_5: &str = "1R3k3/R8/9/9/9/9/9/9/9/3K5 b - - 3 2";
