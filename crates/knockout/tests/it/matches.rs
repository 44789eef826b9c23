//! Match state machines: every path of K1–K6, colour rules, forfeits, refused games.

use arbiter_knockout::{
    ColourRule, FormatCode, KnockoutError, Match, MatchFormat, MatchSettings, NextGame,
};
use arbiter_types::{Colour, GameKind, GameResult, PlayerNo};
use GameResult::*;

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

fn new(format: MatchFormat) -> Match {
    Match::new(format, MatchSettings::default(), p(1), p(2)).unwrap()
}

/// Plays `results` in order, returning the games asked for (kind, red) and checking the
/// match asks for nothing more than given.
fn play(m: &mut Match, results: &[GameResult]) -> Vec<NextGame> {
    let mut asked = Vec::new();
    for &r in results {
        let next = m
            .next_game()
            .expect("match asked for no game but results remain");
        m.record_game(next.index, r).unwrap();
        asked.push(next);
    }
    asked
}

fn kinds(asked: &[NextGame]) -> Vec<GameKind> {
    asked.iter().map(|g| g.kind).collect()
}

fn k7() -> MatchFormat {
    MatchFormat::k1(ColourRule::HigherSeedChooses, ColourRule::HigherSeedChooses)
}

#[test]
fn k1_slow_win_ends_the_match() {
    let mut m = new(k7());
    let asked = play(&mut m, &[BlackWin]);
    assert_eq!(kinds(&asked), [GameKind::Slow]);
    // default: the chooser (higher seed) takes red
    assert_eq!(
        (asked[0].red, asked[0].black, asked[0].chooser),
        (p(1), p(2), Some(p(1)))
    );
    assert_eq!(m.winner(), Some(p(2)));
    assert_eq!(m.loser(), Some(p(1)));
    assert_eq!(m.next_game(), None);
}

#[test]
fn k1_slow_draw_then_rapid_win_with_colours_swapped() {
    let mut m = new(k7());
    let asked = play(&mut m, &[Draw, RedWin]);
    assert_eq!(kinds(&asked), [GameKind::Slow, GameKind::Rapid]);
    assert_eq!(asked[1].red, asked[0].black);
    assert_eq!(asked[1].black, asked[0].red);
    assert_eq!(asked[1].chooser, None);
    assert_eq!(m.winner(), Some(p(2)));
}

#[test]
fn k1_two_draws_then_armageddon_win() {
    let mut m = new(k7());
    let asked = play(&mut m, &[Draw, Draw, RedWin]);
    assert_eq!(
        kinds(&asked),
        [GameKind::Slow, GameKind::Rapid, GameKind::Armageddon]
    );
    assert_eq!(asked[2].chooser, Some(p(1)));
    assert_eq!(m.winner(), Some(asked[2].red));
}

#[test]
fn k1_armageddon_draw_advances_black_and_stays_a_draw() {
    let mut m = new(k7());
    m.choose_colour(p(1), Colour::Black).unwrap();
    play(&mut m, &[Draw, Draw]);
    // higher seed chooses again (K7) and takes black this time
    m.choose_colour(p(1), Colour::Black).unwrap();
    let asked = play(&mut m, &[Draw]);
    assert_eq!((asked[0].red, asked[0].black), (p(2), p(1)));
    assert_eq!(m.winner(), Some(p(1)));
    assert_eq!(m.games()[2].result, Draw, "the game itself stays a draw");
    assert_eq!(m.games()[0].red, p(2), "slow game: chooser took black");
    assert!(matches!(
        m.record_game(3, RedWin),
        Err(KnockoutError::MatchDecided)
    ));
}

#[test]
fn k1_rules_armageddon_chooser_is_the_player_who_did_not_choose() {
    let mut m = new(MatchFormat::k1(
        ColourRule::HigherSeedChooses,
        ColourRule::OtherThanFirstChooser,
    ));
    play(&mut m, &[Draw, Draw]);
    let next = m.next_game().unwrap();
    assert_eq!(next.chooser, Some(p(2)));
    assert_eq!(next.red, p(2), "default: chooser takes red");
    assert!(matches!(
        m.choose_colour(p(1), Colour::Red),
        Err(KnockoutError::NotChooser { .. })
    ));
    m.choose_colour(p(2), Colour::Black).unwrap();
    assert_eq!(m.next_game().unwrap().black, p(2));
}

#[test]
fn k1_armageddon_by_lot_start_falls_back_to_higher_seed() {
    let mut m = new(MatchFormat::preset(FormatCode::K1));
    let asked = play(&mut m, &[Draw, Draw]);
    assert_eq!(asked[0].chooser, None);
    assert_eq!(m.next_game().unwrap().chooser, Some(p(1)));
}

#[test]
fn chooser_default_setting_is_honoured() {
    let settings = MatchSettings {
        chooser_default: Colour::Black,
        ..MatchSettings::default()
    };
    let m = Match::new(k7(), settings, p(1), p(2)).unwrap();
    let g = m.next_game().unwrap();
    assert_eq!((g.red, g.black), (p(2), p(1)));
}

#[test]
fn choice_is_refused_when_the_game_gives_none() {
    let mut m = new(k7());
    play(&mut m, &[Draw]);
    assert_eq!(
        m.choose_colour(p(1), Colour::Red),
        Err(KnockoutError::NoChoice { index: 1 })
    );
}

#[test]
fn lot_is_deterministic_per_seed_and_varies_across_seeds() {
    let f = MatchFormat::preset(FormatCode::K1);
    let reds: Vec<PlayerNo> = (0..32)
        .map(|seed| {
            let m = Match::new(
                f.clone(),
                MatchSettings {
                    lot_seed: seed,
                    ..Default::default()
                },
                p(1),
                p(2),
            )
            .unwrap();
            let again = Match::new(
                f.clone(),
                MatchSettings {
                    lot_seed: seed,
                    ..Default::default()
                },
                p(1),
                p(2),
            )
            .unwrap();
            assert_eq!(m.next_game(), again.next_game());
            m.next_game().unwrap().red
        })
        .collect();
    assert!(
        reds.contains(&p(1)) && reds.contains(&p(2)),
        "lots never vary: {reds:?}"
    );
}

#[test]
fn forfeit_decides_the_game() {
    let mut m = new(k7());
    play(&mut m, &[RedForfeit]);
    assert_eq!(m.winner(), Some(p(2)));
    let mut m = new(k7());
    play(&mut m, &[Draw, BlackForfeit]);
    assert_eq!(m.winner(), Some(p(2)), "rapid: p2 had red, black forfeited");
    let mut m = new(k7());
    play(&mut m, &[Draw, Draw, BlackForfeit]);
    assert_eq!(
        m.winner(),
        Some(p(1)),
        "armageddon forfeit by black loses even though a draw would win"
    );
}

#[test]
fn refuses_wrong_index_unneeded_game_and_double_forfeit() {
    let mut m = new(k7());
    assert_eq!(
        m.record_game(1, Draw),
        Err(KnockoutError::NotNextGame {
            expected: 0,
            got: 1
        })
    );
    assert_eq!(
        m.record_game(0, DoubleForfeit),
        Err(KnockoutError::DoubleForfeit)
    );
    m.record_game(0, RedWin).unwrap();
    assert_eq!(m.record_game(1, Draw), Err(KnockoutError::MatchDecided));
    assert_eq!(m.games().len(), 1);
}

#[test]
fn k2_all_paths() {
    let f = MatchFormat::k2(ColourRule::Lot);
    for (results, kinds_expected) in [
        (vec![RedWin], vec![GameKind::Slow]),
        (vec![Draw, BlackWin], vec![GameKind::Slow, GameKind::Rapid]),
        (
            vec![Draw, Draw, RedWin],
            vec![GameKind::Slow, GameKind::Rapid, GameKind::Blitz],
        ),
        (
            vec![Draw, Draw, Draw, Draw],
            vec![
                GameKind::Slow,
                GameKind::Rapid,
                GameKind::Blitz,
                GameKind::Armageddon,
            ],
        ),
    ] {
        let mut m = new(f.clone());
        let asked = play(&mut m, &results);
        assert_eq!(kinds(&asked), kinds_expected);
        assert!(m.is_decided());
        for w in asked.windows(2).take(2) {
            assert_eq!(
                (w[1].red, w[1].black),
                (w[0].black, w[0].red),
                "colours swap"
            );
        }
        if results.len() == 4 {
            // the player who had black in the super-rapid game chooses
            assert_eq!(asked[3].chooser, Some(asked[2].black));
            assert_eq!(m.winner(), Some(asked[3].black));
        }
    }
}

#[test]
fn k3_all_paths() {
    let f = MatchFormat::preset(FormatCode::K3);
    let expect = [
        GameKind::Slow,
        GameKind::Rapid,
        GameKind::Blitz,
        GameKind::Blitz,
        GameKind::Armageddon,
    ];
    for decisive_at in 0..5 {
        let mut results = vec![Draw; decisive_at];
        results.push(BlackWin);
        let mut m = new(f.clone());
        let asked = play(&mut m, &results);
        assert_eq!(kinds(&asked), expect[..=decisive_at]);
        assert_eq!(m.winner(), Some(asked[decisive_at].black));
        for w in asked.windows(2).take(3) {
            assert_eq!(w[1].red, w[0].black);
        }
    }
    let mut m = new(f);
    let asked = play(&mut m, &[Draw; 5]);
    assert_eq!(m.winner(), Some(asked[4].black));
}

#[test]
fn k4_repeats_the_super_rapid_until_decided() {
    let f = MatchFormat::k4(ColourRule::HigherSeedChooses);
    let mut m = new(f);
    let asked = play(&mut m, &[Draw; 9]);
    assert!(!m.is_decided());
    assert_eq!(
        kinds(&asked[..3]),
        [GameKind::Slow, GameKind::Rapid, GameKind::Blitz]
    );
    assert!(asked[2..].iter().all(|g| g.kind == GameKind::Blitz));
    for w in asked.windows(2) {
        assert_eq!(w[1].red, w[0].black, "colours swap every game");
    }
    let last = play(&mut m, &[RedWin]);
    assert_eq!(m.winner(), Some(last[0].red));
    assert_eq!(m.next_game(), None);
    // and a decisive slow game ends it at once
    let mut m = new(MatchFormat::k4(ColourRule::Lot));
    play(&mut m, &[RedWin]);
    assert!(m.is_decided());
}

#[test]
fn k5_mini_match_won_outright() {
    // 2:0 in games after two games; the second game is still needed after a first win
    let mut m = new(MatchFormat::k5());
    let asked = play(&mut m, &[RedWin]);
    assert!(
        !m.is_decided(),
        "a 1:0 lead in a 2-game mini-match can still be levelled"
    );
    let w1 = asked[0].red;
    let asked2 = play(&mut m, &[Draw]);
    assert_eq!(
        (asked2[0].red, asked2[0].black),
        (asked[0].black, asked[0].red),
        "game 2 swapped"
    );
    assert_eq!(m.winner(), Some(w1), "3:1 in points (2/1/0)");
}

#[test]
fn k5_all_tiebreak_paths() {
    let f = MatchFormat::k5();
    // 1:1 → super-rapid decisive
    let mut m = new(f.clone());
    let asked = play(&mut m, &[RedWin, RedWin, BlackWin]);
    assert_eq!(
        kinds(&asked),
        [GameKind::Slow, GameKind::Slow, GameKind::Blitz]
    );
    assert_eq!(m.winner(), Some(asked[2].black));
    // drawn mini-match → super-rapid drawn → swapped super-rapid decisive
    let mut m = new(f.clone());
    let asked = play(&mut m, &[Draw, Draw, Draw, RedWin]);
    assert_eq!(
        kinds(&asked),
        [
            GameKind::Slow,
            GameKind::Slow,
            GameKind::Blitz,
            GameKind::Blitz
        ]
    );
    assert_eq!(asked[3].red, asked[2].black);
    assert_eq!(m.winner(), Some(asked[3].red));
    // everything drawn → armageddon, chooser by lot, draw → black
    let mut m = new(f);
    let asked = play(&mut m, &[Draw, Draw, Draw, Draw]);
    let arm = m.next_game().unwrap();
    assert_eq!(arm.kind, GameKind::Armageddon);
    let chooser = arm.chooser.unwrap();
    assert!(chooser == p(1) || chooser == p(2));
    m.choose_colour(chooser, Colour::Black).unwrap();
    play(&mut m, &[Draw]);
    assert_eq!(m.winner(), Some(chooser));
    assert_eq!(asked.len(), 4);
}

#[test]
fn k6_loops_super_rapid_with_swapped_colours_until_decided() {
    let mut m = new(MatchFormat::k6());
    let asked = play(&mut m, &[BlackWin, BlackWin, Draw, Draw, Draw, Draw]);
    assert!(!m.is_decided());
    assert_eq!(
        kinds(&asked[..3]),
        [GameKind::Slow, GameKind::Slow, GameKind::Blitz]
    );
    assert!(asked[3..].iter().all(|g| g.kind == GameKind::Blitz));
    for w in asked[2..].windows(2) {
        assert_eq!(w[1].red, w[0].black);
    }
    let last = play(&mut m, &[BlackWin]);
    assert_eq!(m.winner(), Some(last[0].black));
    // a 2-game mini-match won 2:0
    let mut m = new(MatchFormat::k6());
    let asked = play(&mut m, &[RedWin, BlackWin]);
    assert_eq!(m.winner(), Some(asked[0].red));
    assert_eq!(asked[1].black, asked[0].red);
}

#[test]
fn invalid_formats_are_refused() {
    let mut f = MatchFormat::k1(ColourRule::Lot, ColourRule::Lot);
    f.steps.pop();
    assert!(matches!(
        Match::new(f, MatchSettings::default(), p(1), p(2)),
        Err(KnockoutError::InvalidFormat { .. })
    ));
    let f = MatchFormat {
        name: "x".into(),
        steps: vec![],
        repeat_from: None,
        time_controls: vec![],
        decider: None,
    };
    assert!(f.validate().is_err());
    let mut f = MatchFormat::k6();
    f.repeat_from = Some(9);
    assert!(f.validate().is_err());
    assert!(matches!(
        Match::new(MatchFormat::k6(), MatchSettings::default(), p(1), p(1)),
        Err(KnockoutError::SamePlayer(_))
    ));
    for code in FormatCode::ALL {
        MatchFormat::preset(code).validate().unwrap();
    }
}

#[test]
fn match_round_trips_through_json_and_rejects_tampering() {
    let mut m = new(k7());
    m.choose_colour(p(1), Colour::Black).unwrap();
    play(&mut m, &[Draw]);
    let json = serde_json::to_string(&m).unwrap();
    let back: Match = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
    let tampered = json.replacen("\"result\":\"draw\"", "\"result\":\"double_forfeit\"", 1);
    assert!(serde_json::from_str::<Match>(&tampered).is_err());
}

#[test]
fn error_messages_are_chinese_first() {
    let e = KnockoutError::NotNextGame {
        expected: 0,
        got: 2,
    };
    assert_eq!(
        e.to_string(),
        "应录入第1局, 而不是第3局 (expected game 1, got game 3)"
    );
}

#[test]
fn tianshui_t3_format_lot_colours_and_armageddon_by_lot() {
    // T3: slow by lot; drawn → swapped rapid; drawn → decider by lot, a draw goes to black
    let f = MatchFormat::k1(ColourRule::Lot, ColourRule::Lot)
        .with_time_control(GameKind::Slow, "20′+5″")
        .with_time_control(GameKind::Rapid, "10′+3″")
        .with_time_control(GameKind::Armageddon, "5′+3″");
    let mut m = new(f);
    let asked = play(&mut m, &[Draw, Draw, Draw]);
    assert!(asked.iter().all(|g| g.chooser.is_none()));
    assert_eq!(asked[1].red, asked[0].black);
    assert_eq!(m.winner(), Some(asked[2].black));
    // without "draw = black wins": the decider repeats as a super-rapid loop
    let mut f = MatchFormat::k1(ColourRule::Lot, ColourRule::Lot);
    f.steps[2].kind = GameKind::Blitz;
    f.repeat_from = Some(2);
    let mut m = new(f);
    play(&mut m, &[Draw, Draw, Draw, Draw]);
    assert!(!m.is_decided());
}

fn no_black_wins() -> MatchSettings {
    MatchSettings {
        armageddon_draw_black_wins: false,
        ..MatchSettings::default()
    }
}

#[test]
fn armageddon_draw_black_wins_is_the_default_setting() {
    assert!(MatchSettings::default().armageddon_draw_black_wins);
    // a match serialised before the setting existed reads it as true
    let old = r#"{"chooser_default":"red","lot_seed":7}"#;
    let s: MatchSettings = serde_json::from_str(old).unwrap();
    assert!(s.armageddon_draw_black_wins);
    assert_eq!(s.lot_seed, 7);
}

#[test]
fn armageddon_draw_without_black_wins_replays_the_armageddon_with_colours_swapped() {
    let mut m = Match::new(k7(), no_black_wins(), p(1), p(2)).unwrap();
    let asked = play(&mut m, &[Draw, Draw, Draw]);
    assert_eq!(asked[2].kind, GameKind::Armageddon);
    assert!(!m.is_decided(), "a drawn armageddon decides nothing");
    assert_eq!(m.games()[2].match_winner_with(false), None);
    let next = m.next_game().unwrap();
    assert_eq!(next.kind, GameKind::Armageddon);
    assert_eq!((next.red, next.black), (asked[2].black, asked[2].red));
    assert_eq!(next.chooser, None, "colours are swapped, nobody chooses");
    // drawn again: a third armageddon with the colours swapped back
    let again = play(&mut m, &[Draw]);
    let third = m.next_game().unwrap();
    assert_eq!((third.red, third.black), (again[0].black, again[0].red));
    assert_eq!(third.kind, GameKind::Armageddon);
    // a decisive armageddon ends it
    play(&mut m, &[BlackWin]);
    assert_eq!(m.winner(), Some(third.black));
    assert_eq!(m.next_game(), None);
    assert_eq!(m.games().len(), 5);
}

#[test]
fn armageddon_draw_setting_changes_only_drawn_armageddons() {
    // same games, both settings: identical until the drawn armageddon
    for black_wins in [true, false] {
        let settings = MatchSettings {
            armageddon_draw_black_wins: black_wins,
            ..MatchSettings::default()
        };
        let mut m = Match::new(MatchFormat::preset(FormatCode::K2), settings, p(4), p(5)).unwrap();
        let asked = play(&mut m, &[Draw, Draw, Draw, Draw]);
        assert_eq!(asked[3].kind, GameKind::Armageddon);
        if black_wins {
            assert_eq!(m.winner(), Some(asked[3].black));
        } else {
            assert_eq!(m.winner(), None);
            play(&mut m, &[RedWin]);
            assert_eq!(
                m.winner(),
                Some(asked[3].black),
                "swapped: old black is red now"
            );
        }
    }
    // a match with the setting off survives a JSON round trip
    let mut m = Match::new(k7(), no_black_wins(), p(1), p(2)).unwrap();
    play(&mut m, &[Draw, Draw, Draw]);
    let back: Match = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
    assert_eq!(back, m);
    assert!(!back.is_decided());
}
