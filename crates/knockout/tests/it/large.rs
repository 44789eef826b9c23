//! Brackets above 32 players (33, 64, 100, 200, 1,024): byes to the top seeds, every match
//! decided, the places each kind promises, round and place names past 三十二.

use arbiter_knockout::{
    render_text, zh_num, Bracket, BracketKind, ColourRule, KnockoutError, MatchFormat,
    MatchSettings, MatchState, MAX_PLAYERS,
};
use arbiter_types::{GameResult, PlayerNo};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

/// Ranking where seed k is player 1000 + k.
fn ranking(n: u32) -> Vec<PlayerNo> {
    (1..=n).map(|k| p(1000 + k)).collect()
}

fn bracket(kind: BracketKind, n: u32) -> Bracket {
    let f = MatchFormat::k1(ColourRule::HigherSeedChooses, ColourRule::HigherSeedChooses);
    Bracket::new(kind, ranking(n), f, MatchSettings::default()).unwrap()
}

/// Plays every ready match, the higher seed winning its slow game (`upsets`: the lower seed
/// wins when the match index is a multiple of 7). Returns the number of games.
fn play_out(b: &mut Bracket, upsets: bool) -> usize {
    let mut games = 0;
    loop {
        let ready: Vec<String> = b.ready().iter().map(|s| s.to_string()).collect();
        if ready.is_empty() {
            break;
        }
        for id in ready {
            let i = b.matches().iter().position(|m| m.id == id).unwrap();
            let m = match &b.matches()[i].state {
                MatchState::Playing(m) => m.clone(),
                other => panic!("ready match {id} is {other:?}"),
            };
            let want = if upsets && i % 7 == 0 {
                m.low()
            } else {
                m.high()
            };
            let next = b.next_game(&id).unwrap().unwrap();
            let r = if next.red == want {
                GameResult::RedWin
            } else {
                GameResult::BlackWin
            };
            b.record(&id, next.index, r).unwrap();
            games += 1;
        }
    }
    games
}

/// The players who advance from round 1 without a game.
fn byes(b: &Bracket) -> Vec<PlayerNo> {
    let mut v: Vec<PlayerNo> = b
        .round(1)
        .iter()
        .filter_map(|m| match m.state {
            MatchState::Walkover { winner } => winner,
            _ => None,
        })
        .collect();
    v.sort();
    v
}

#[test]
fn brackets_of_33_64_and_100_give_byes_to_the_top_seeds_and_finish() {
    for n in [33u32, 64, 100] {
        for kind in [
            BracketKind::SingleElimination,
            BracketKind::ThirdPlace,
            BracketKind::Placement,
        ] {
            let mut b = bracket(kind, n);
            let size = n.next_power_of_two();
            assert_eq!(b.size(), size, "n={n}");
            assert_eq!(b.rounds() as u32, size.trailing_zeros(), "n={n} {kind:?}");
            assert_eq!(
                byes(&b),
                ranking(size - n),
                "n={n}: byes to seeds 1..{}",
                size - n
            );
            let games = play_out(&mut b, false);
            assert!(b.is_complete(), "n={n} {kind:?}");
            assert!(b.matches().iter().all(|m| m.is_finished()));
            let places = b.places().unwrap();
            assert_eq!(places.len() as u32, n, "every player placed");
            assert_eq!(places[0], (1, p(1001)), "the top seed wins");
            let firsts: Vec<u32> = places.iter().map(|x| x.0).collect();
            match kind {
                BracketKind::Placement => {
                    // Every place decided by games: 1..=n, and seed k (always winning
                    // against a lower seed) takes place k.
                    assert_eq!(firsts, (1..=n).collect::<Vec<_>>(), "n={n}");
                    assert_eq!(places.iter().map(|x| x.1).collect::<Vec<_>>(), ranking(n));
                }
                // Not a bracket of rounds: its own test (`brackets.rs`).
                BracketKind::SamePlace => {}
                BracketKind::SingleElimination | BracketKind::ThirdPlace => {
                    assert_eq!(
                        games as u32,
                        n - 1 + u32::from(kind == BracketKind::ThirdPlace)
                    );
                    // 1, 2, 3 (3 and 4 with a 3rd-place match), then the losers of each
                    // round share the place after the rounds before.
                    let mut want = vec![1, 2];
                    if kind == BracketKind::ThirdPlace {
                        want.extend([3, 4]);
                    } else {
                        want.extend([3, 3]);
                    }
                    let mut group = 4;
                    while (want.len() as u32) < n {
                        let first = want.len() as u32 + 1;
                        let take = group.min(n - want.len() as u32);
                        want.extend(std::iter::repeat_n(first, take as usize));
                        group *= 2;
                    }
                    assert_eq!(firsts, want, "n={n} {kind:?}");
                }
            }
        }
    }
}

#[test]
fn upsets_in_a_bracket_of_100_still_decide_every_place() {
    let mut b = bracket(BracketKind::Placement, 100);
    play_out(&mut b, true);
    let places = b.places().unwrap();
    assert_eq!(
        places.iter().map(|x| x.0).collect::<Vec<_>>(),
        (1..=100).collect::<Vec<_>>()
    );
    let mut who: Vec<PlayerNo> = places.iter().map(|x| x.1).collect();
    who.sort();
    assert_eq!(who, ranking(100), "each player once");
    assert_ne!(
        who,
        places.iter().map(|x| x.1).collect::<Vec<_>>(),
        "upsets change the order"
    );
}

#[test]
fn names_of_rounds_and_places_past_thirty_two() {
    let b = bracket(BracketKind::Placement, 100);
    assert_eq!(b.get("R128-1").unwrap().label_zh(), "六十四分之一决赛");
    assert_eq!(b.get("R64-1").unwrap().label_zh(), "三十二分之一决赛");
    assert_eq!(
        b.get("P65-R64-1").unwrap().label_zh(),
        "六十五至一百二十八名三十二分之一决赛"
    );
    assert_eq!(b.get("P127").unwrap().label_zh(), "一百二十七一百二十八名");
    assert_eq!(b.round(7).len(), 64, "every player plays every round");
    let text = render_text(&b, &|p| p.to_string());
    assert!(text.contains("淘汰赛 定位赛 — 100人 (128签)"), "{text}");
    assert!(text.contains("第七轮"), "{text}");
    assert!(text.contains("轮空晋级"), "{text}");
    let b = bracket(BracketKind::SingleElimination, 200);
    assert_eq!(b.size(), 256);
    assert_eq!(b.round(1).len(), 128);
    assert_eq!(b.get("R256-1").unwrap().label_zh(), "一百二十八分之一决赛");
    assert_eq!(byes(&b), ranking(56));
}

#[test]
fn chinese_numerals_up_to_thousands() {
    let cases = [
        (0, "零"),
        (1, "一"),
        (10, "十"),
        (16, "十六"),
        (20, "二十"),
        (64, "六十四"),
        (99, "九十九"),
        (100, "一百"),
        (101, "一百零一"),
        (110, "一百一十"),
        (128, "一百二十八"),
        (512, "五百一十二"),
        (1000, "一千"),
        (1004, "一千零四"),
        (1010, "一千零一十"),
        (1024, "一千零二十四"),
        (9999, "九千九百九十九"),
        (10000, "10000"),
    ];
    for (n, zh) in cases {
        assert_eq!(zh_num(n), zh, "{n}");
    }
}

#[test]
fn the_largest_bracket_plays_out_and_one_more_is_refused() {
    let n = MAX_PLAYERS as u32;
    assert_eq!(n, 1024);
    let mut b = bracket(BracketKind::SingleElimination, n);
    assert_eq!(b.rounds(), 10);
    assert_eq!(play_out(&mut b, true) as u32, n - 1);
    assert_eq!(b.places().unwrap().len() as u32, n);
    let f = MatchFormat::k1(ColourRule::HigherSeedChooses, ColourRule::HigherSeedChooses);
    let e = Bracket::new(
        BracketKind::Placement,
        ranking(n + 1),
        f,
        MatchSettings::default(),
    )
    .unwrap_err();
    assert_eq!(e, KnockoutError::FieldSize(1025));
    assert!(e.to_string().contains("2至1024人"), "{e}");
    let mut b = bracket(BracketKind::Placement, n);
    assert_eq!(
        play_out(&mut b, true),
        512 * 10,
        "512 matches in each of 10 rounds"
    );
    assert_eq!(b.places().unwrap().last().unwrap().0, 1024);
}
