//! Formats written as game blocks: a block's own name and time control, playing every game of
//! a block or stopping when decided, and the deciders that settle a match still level.

use arbiter_knockout::{
    ColourRule, Decider, KnockoutError, Match, MatchFormat, MatchSettings, Step,
};
use arbiter_types::{GameKind, GameResult, PlayerNo};
use GameResult::*;

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

fn named(kind: GameKind, games: u8, colours: ColourRule, name: &str, tc: &str) -> Step {
    let mut s = Step::block(kind, games, colours);
    s.name = Some(name.into());
    s.time_control = Some(tc.into());
    s
}

/// The invitational of the issue: two 6′+3″ games called 快棋 (colours swapped), then one
/// armageddon red 5′ / black 3′, a draw = black wins.
fn two_games_then_armageddon() -> MatchFormat {
    MatchFormat {
        name: "两局快棋+超时快棋".into(),
        steps: vec![
            named(GameKind::Rapid, 2, ColourRule::Lot, "快棋", "6′+3″"),
            named(
                GameKind::Armageddon,
                1,
                ColourRule::OtherThanFirstChooser,
                "超时快棋",
                "红5′黑3′",
            ),
        ],
        repeat_from: None,
        time_controls: Vec::new(),
        decider: None,
    }
}

/// Best of three 30-minute games, then one 15-minute game, then a lot (个人自由赛).
fn best_of_three_then_lot() -> MatchFormat {
    MatchFormat {
        name: "三局两胜".into(),
        steps: vec![
            named(GameKind::Slow, 3, ColourRule::Lot, "慢棋", "30′"),
            named(GameKind::Rapid, 1, ColourRule::SwapPrevious, "快棋", "15′"),
        ],
        repeat_from: None,
        time_controls: Vec::new(),
        decider: Some(Decider::Lot),
    }
}

fn new(f: MatchFormat, seed: u64) -> Match {
    let settings = MatchSettings {
        lot_seed: seed,
        ..MatchSettings::default()
    };
    Match::new(f, settings, p(1), p(2)).unwrap()
}

fn play(m: &mut Match, results: &[GameResult]) {
    for &r in results {
        let next = m.next_game().expect("a game is needed");
        m.record_game(next.index, r).unwrap();
    }
}

#[test]
fn a_block_of_two_plays_both_games_with_colours_swapped_and_prints_its_own_name() {
    let mut m = new(two_games_then_armageddon(), 3);
    let g1 = m.next_game().unwrap();
    assert_eq!((g1.kind, g1.step), (GameKind::Rapid, 0));
    play(&mut m, &[RedWin]);
    // one win of two is not decided: the second game is played, colours swapped
    let g2 = m.next_game().unwrap();
    assert_eq!((g2.red, g2.black, g2.step), (g1.black, g1.red, 0));
    assert_eq!(
        m.format().game_label(g2.step, g2.kind),
        "快棋6′+3″",
        "the file's name, not the class 快棋/慢棋 of the engine"
    );
    play(&mut m, &[RedWin]);
    // 1–1: the armageddon
    let g3 = m.next_game().unwrap();
    assert_eq!((g3.kind, g3.step), (GameKind::Armageddon, 1));
    assert_eq!(
        m.format().game_label(1, GameKind::Armageddon),
        "超时快棋红5′黑3′"
    );
    play(&mut m, &[Draw]);
    assert_eq!(m.winner(), Some(g3.black), "armageddon draw = black wins");
    assert_eq!(m.decided_by(), None);
}

#[test]
fn a_block_stops_when_decided_unless_told_to_play_every_game() {
    let mut m = new(best_of_three_then_lot(), 1);
    play(&mut m, &[RedWin]);
    let first_red = m.games()[0].red;
    let second = m.next_game().unwrap();
    // the same player wins again (he has black now): 2–0 of three, decided
    let r = if second.black == first_red {
        BlackWin
    } else {
        RedWin
    };
    play(&mut m, &[r]);
    assert_eq!(m.winner(), Some(first_red));
    assert_eq!(m.games().len(), 2);

    let mut f = best_of_three_then_lot();
    f.steps[0].stop_when_decided = false;
    let mut m = new(f, 1);
    play(&mut m, &[RedWin]);
    let second = m.next_game().unwrap();
    let r = if second.black == first_red {
        BlackWin
    } else {
        RedWin
    };
    play(&mut m, &[r]);
    assert!(!m.is_decided(), "every game of the block is played");
    let third = m.next_game().unwrap();
    assert_eq!((third.step, third.index), (0, 2));
    play(&mut m, &[Draw]);
    assert_eq!(m.winner(), Some(first_red));
}

#[test]
fn a_lot_settles_a_match_level_after_every_block_and_is_seeded() {
    let mut winners = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let mut m = new(best_of_three_then_lot(), seed);
        play(&mut m, &[Draw, Draw, Draw, Draw]);
        assert_eq!(m.next_game(), None, "no fifth game: the lot decides");
        assert_eq!(m.decided_by(), Some(Decider::Lot));
        let w = m.winner().unwrap();
        // the same seed gives the same lot
        let mut again = new(best_of_three_then_lot(), seed);
        play(&mut again, &[Draw, Draw, Draw, Draw]);
        assert_eq!(again.winner(), Some(w));
        winners.insert(w);
    }
    assert_eq!(winners.len(), 2, "both players win some lots");
}

#[test]
fn the_higher_seed_or_black_of_the_last_game_settles_a_level_match() {
    let mut f = best_of_three_then_lot();
    f.decider = Some(Decider::HigherSeed);
    let mut m = new(f.clone(), 5);
    play(&mut m, &[Draw, Draw, Draw, Draw]);
    assert_eq!(m.winner(), Some(p(1)));
    assert_eq!(m.decided_by(), Some(Decider::HigherSeed));

    f.decider = Some(Decider::LastGameBlack);
    let mut m = new(f, 5);
    play(&mut m, &[Draw, Draw, Draw]);
    let last = m.next_game().unwrap();
    play(&mut m, &[Draw]);
    assert_eq!(m.winner(), Some(last.black));
}

#[test]
fn a_drawn_armageddon_can_go_to_the_higher_seed() {
    let mut f = two_games_then_armageddon();
    f.decider = Some(Decider::HigherSeed);
    let settings = MatchSettings {
        armageddon_draw_black_wins: false,
        ..MatchSettings::default()
    };
    let mut m = Match::new(f, settings, p(7), p(3)).unwrap();
    play(&mut m, &[Draw, Draw, Draw]);
    assert_eq!(m.winner(), Some(p(7)));
    assert_eq!(m.next_game(), None);
}

#[test]
fn a_format_without_armageddon_loop_or_decider_is_refused() {
    let mut f = best_of_three_then_lot();
    f.decider = None;
    assert!(matches!(
        f.validate(),
        Err(KnockoutError::InvalidFormat { .. })
    ));
    let mut f = best_of_three_then_lot();
    f.repeat_from = Some(1);
    assert!(
        matches!(f.validate(), Err(KnockoutError::InvalidFormat { .. })),
        "a loop and a decider together"
    );
}

#[test]
fn a_match_with_blocks_survives_serialisation() {
    let mut m = new(best_of_three_then_lot(), 9);
    play(&mut m, &[Draw, RedWin]);
    let json = serde_json::to_string(&m).unwrap();
    let back: Match = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.games()[1].step, 0);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    const RESULTS: [GameResult; 5] = [RedWin, BlackWin, Draw, RedForfeit, BlackForfeit];
    const KINDS: [GameKind; 3] = [GameKind::Slow, GameKind::Rapid, GameKind::Blitz];
    const DECIDERS: [Decider; 5] = [
        Decider::HigherSeed,
        Decider::LastGameBlack,
        Decider::FirstGameBlack,
        Decider::FirstGameWinner,
        Decider::Lot,
    ];

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]
        /// Any block format with a decider ends within its games, whatever is played, and the
        /// decider speaks only when the games left the match level.
        #[test]
        fn every_block_format_with_a_decider_ends_within_its_games(
            blocks in prop::collection::vec((0usize..3, 1u8..=4, any::<bool>(), any::<bool>()), 1..4),
            decider in 0usize..DECIDERS.len(),
            seed in any::<u64>(),
            script in prop::collection::vec(0usize..5, 0..20),
        ) {
            let steps: Vec<Step> = blocks
                .iter()
                .map(|&(k, games, lot, stop)| {
                    let mut s = Step::block(
                        KINDS[k],
                        games,
                        if lot { ColourRule::Lot } else { ColourRule::SwapPrevious },
                    );
                    s.stop_when_decided = stop;
                    s
                })
                .collect();
            let total: usize = steps.iter().map(|s| s.games as usize).sum();
            let f = MatchFormat {
                name: "blocks".into(),
                steps,
                repeat_from: None,
                time_controls: Vec::new(),
                decider: Some(DECIDERS[decider]),
            };
            let mut m = Match::new(f, MatchSettings { lot_seed: seed, ..MatchSettings::default() }, p(4), p(6)).unwrap();
            let mut k = 0;
            while let Some(next) = m.next_game() {
                let r = script.get(k).map_or(Draw, |&i| RESULTS[i]);
                m.record_game(next.index, r).unwrap();
                k += 1;
                prop_assert!(k <= total, "more games than the blocks hold");
            }
            let w = m.winner().unwrap();
            prop_assert!(w == p(4) || w == p(6));
            if let Some(d) = m.decided_by() {
                prop_assert_eq!(d, DECIDERS[decider]);
                prop_assert_eq!(k, total, "the decider speaks after the last game");
                if d == Decider::FirstGameWinner {
                    let g = &m.games()[0];
                    let first = match g.result {
                        RedWin | BlackForfeit => g.red,
                        _ => g.black,
                    };
                    prop_assert_eq!(w, first, "game 1's winner, its black if drawn");
                }
                if d == Decider::HigherSeed {
                    prop_assert_eq!(w, p(4));
                }
            }
            for g in m.games() {
                prop_assert!(g.red != g.black);
            }
        }
    }
}

/// 「若第一局和棋，则后手胜出」: one game, a draw sends black through (the game stays a draw);
/// with two games played 1:1 the first game's black goes through, not the last game's.
#[test]
fn first_game_black_decides_a_drawn_first_game_and_a_level_mini_match() {
    let one = MatchFormat {
        name: "一局".into(),
        steps: vec![named(GameKind::Slow, 1, ColourRule::Lot, "慢棋", "20′+5″")],
        repeat_from: None,
        time_controls: Vec::new(),
        decider: Some(Decider::FirstGameBlack),
    };
    let mut m = new(one.clone(), 5);
    let g1 = m.next_game().unwrap();
    play(&mut m, &[Draw]);
    assert_eq!(m.winner(), Some(g1.black));
    assert_eq!(m.decided_by(), Some(Decider::FirstGameBlack));
    assert_eq!(m.games()[0].result, Draw);
    assert!(m.next_game().is_none(), "no second game");

    let mut two = one;
    two.steps[0].games = 2;
    two.steps[0].stop_when_decided = false;
    let mut m = new(two, 5);
    let g1 = m.next_game().unwrap();
    play(&mut m, &[RedWin, RedWin]);
    assert_eq!(m.winner(), Some(g1.black), "1:1, the first game's black");
    assert_ne!(m.games()[1].black, g1.black);
}

/// 周庄杯 十二a3: two games 分先, a rapid game, a blitz game with colours swapped; still level,
/// 「以第一局胜者胜出，若第一局和棋，则后手胜出」.
#[test]
fn the_first_games_winner_else_its_black_settles_a_match_still_level() {
    let format = MatchFormat {
        name: "周庄杯".into(),
        steps: vec![
            named(GameKind::Slow, 2, ColourRule::Lot, "慢棋", "30′+10″"),
            named(GameKind::Rapid, 1, ColourRule::Lot, "快棋", "10′+5″"),
            named(
                GameKind::Blitz,
                1,
                ColourRule::SwapPrevious,
                "超快棋",
                "5′+2″",
            ),
        ],
        repeat_from: None,
        time_controls: Vec::new(),
        decider: Some(Decider::FirstGameWinner),
    };
    // 1:1 in the slow games, then two draws: the winner of game 1 (red, a red win) goes
    // through, not game 1's black.
    let mut m = new(format.clone(), 7);
    let g1 = m.next_game().unwrap();
    play(&mut m, &[RedWin, RedWin, Draw, Draw]);
    assert_eq!(m.games().len(), 4);
    assert_eq!(m.winner(), Some(g1.red), "game 1's winner");
    assert_eq!(m.decided_by(), Some(Decider::FirstGameWinner));
    // Game 1 drawn and every game after it drawn: game 1's black goes through.
    let mut m = new(format.clone(), 7);
    let g1 = m.next_game().unwrap();
    play(&mut m, &[Draw, Draw, Draw, Draw]);
    assert_eq!(m.winner(), Some(g1.black), "game 1 drawn: its black");
    // A decided block ends the match before the decider speaks.
    let mut m = new(format, 7);
    play(&mut m, &[Draw, Draw, BlackWin]);
    assert_eq!(m.decided_by(), None);
    assert_eq!(m.games().len(), 3);
    assert_eq!(m.winner(), Some(m.games()[2].black));
}
