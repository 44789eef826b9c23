//! Brackets: seeding, byes, single elimination, 3rd place, full placement bracket.

use arbiter_knockout::{
    render_text, seed_order, Bracket, BracketKind, ColourRule, KnockoutError, MatchFormat,
    MatchSettings, MatchState,
};
use arbiter_types::{GameResult, PlayerNo};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

/// Ranking where seed k is player 100 + k, so seeds and numbers never coincide by accident.
fn ranking(n: u32) -> Vec<PlayerNo> {
    (1..=n).map(|k| p(100 + k)).collect()
}

fn k7() -> MatchFormat {
    MatchFormat::k1(ColourRule::HigherSeedChooses, ColourRule::HigherSeedChooses)
}

fn bracket(kind: BracketKind, n: u32) -> Bracket {
    Bracket::new(kind, ranking(n), k7(), MatchSettings::default()).unwrap()
}

/// Plays every ready match until the bracket is complete; `higher_wins(id)` says whether the
/// higher seed wins that match (decided in the slow game). Returns the number of games.
fn play_out(b: &mut Bracket, higher_wins: &dyn Fn(&str) -> bool) -> usize {
    let mut games = 0;
    while let Some(id) = b.ready().first().map(|s| s.to_string()) {
        let m = match &b.get(&id).unwrap().state {
            MatchState::Playing(m) => m.clone(),
            other => panic!("ready match {id} is {other:?}"),
        };
        let next = b.next_game(&id).unwrap().unwrap();
        let want = if higher_wins(&id) { m.high() } else { m.low() };
        let r = if next.red == want {
            GameResult::RedWin
        } else {
            GameResult::BlackWin
        };
        b.record(&id, next.index, r).unwrap();
        games += 1;
    }
    assert!(b.is_complete());
    games
}

#[test]
fn seed_order_matches_the_regulation() {
    assert_eq!(seed_order(2), [1, 2]);
    assert_eq!(seed_order(4), [1, 4, 3, 2]);
    assert_eq!(seed_order(8), [1, 8, 5, 4, 3, 6, 7, 2]);
    for size in [2u32, 4, 8, 16, 32] {
        let o = seed_order(size);
        let mut sorted = o.clone();
        sorted.sort();
        assert_eq!(sorted, (1..=size).collect::<Vec<_>>());
        for pair in o.chunks(2) {
            assert_eq!(pair[0] + pair[1], size + 1, "seed s meets size+1-s");
        }
    }
}

#[test]
fn eight_player_quarter_finals_and_semi_finals() {
    let mut b = bracket(BracketKind::SingleElimination, 8);
    let qf: Vec<(String, PlayerNo, PlayerNo)> = b
        .round(1)
        .iter()
        .map(|m| match &m.state {
            MatchState::Playing(g) => (m.id.clone(), g.high(), g.low()),
            s => panic!("{s:?}"),
        })
        .collect();
    assert_eq!(
        qf,
        [
            ("QF1".to_string(), p(101), p(108)),
            ("QF2".to_string(), p(104), p(105)),
            ("QF3".to_string(), p(103), p(106)),
            ("QF4".to_string(), p(102), p(107)),
        ]
    );
    assert_eq!(b.ready(), ["QF1", "QF2", "QF3", "QF4"]);
    // lower seeds win QF2 and QF4: SF1 = 1 v 5, SF2 = 3 v 7
    play_out_round(&mut b, 1, &|id| id != "QF2" && id != "QF4");
    let sf: Vec<(PlayerNo, PlayerNo)> = b
        .round(2)
        .iter()
        .map(|m| match &m.state {
            MatchState::Playing(g) => (g.high(), g.low()),
            s => panic!("{s:?}"),
        })
        .collect();
    assert_eq!(sf, [(p(101), p(105)), (p(103), p(107))]);
    assert_eq!(b.places(), None);
}

fn play_out_round(b: &mut Bracket, round: usize, higher_wins: &dyn Fn(&str) -> bool) {
    let ids: Vec<String> = b.round(round).iter().map(|m| m.id.clone()).collect();
    for id in ids {
        let m = match &b.get(&id).unwrap().state {
            MatchState::Playing(m) => m.clone(),
            _ => continue,
        };
        let next = b.next_game(&id).unwrap().unwrap();
        let want = if higher_wins(&id) { m.high() } else { m.low() };
        let r = if next.red == want {
            GameResult::RedWin
        } else {
            GameResult::BlackWin
        };
        b.record(&id, next.index, r).unwrap();
    }
}

#[test]
fn every_size_single_elimination_without_byes() {
    for (n, rounds, shared) in [
        (2u32, 1usize, vec![1, 2]),
        (4, 2, vec![1, 2, 3, 3]),
        (8, 3, vec![1, 2, 3, 3, 5, 5, 5, 5]),
    ] {
        let mut b = bracket(BracketKind::SingleElimination, n);
        assert_eq!(b.rounds(), rounds);
        let games = play_out(&mut b, &|_| true);
        assert_eq!(games as u32, n - 1);
        let places = b.places().unwrap();
        assert_eq!(places.iter().map(|x| x.0).collect::<Vec<_>>(), shared);
        assert_eq!(places[0].1, p(101));
        assert_eq!(places[1].1, p(102));
    }
    for n in [16u32, 32] {
        let mut b = bracket(BracketKind::SingleElimination, n);
        assert_eq!(b.rounds() as u32, n.trailing_zeros());
        assert_eq!(play_out(&mut b, &|_| true) as u32, n - 1);
        let places = b.places().unwrap();
        assert_eq!(places.len() as u32, n);
        // the top seed wins, and the losers of round 1 share place n/2 + 1
        assert_eq!(places[0], (1, p(101)));
        assert_eq!(
            places.iter().filter(|x| x.0 == n / 2 + 1).count() as u32,
            n / 2
        );
    }
}

#[test]
fn byes_go_to_the_top_seeds() {
    // 6 players in an 8-bracket: seeds 1 and 2 advance without playing
    let b = bracket(BracketKind::SingleElimination, 6);
    assert_eq!(b.size(), 8);
    let walkovers: Vec<(&str, Option<PlayerNo>)> = b
        .round(1)
        .iter()
        .filter_map(|m| match m.state {
            MatchState::Walkover { winner } => Some((m.id.as_str(), winner)),
            _ => None,
        })
        .collect();
    assert_eq!(walkovers, [("QF1", Some(p(101))), ("QF4", Some(p(102)))]);
    assert_eq!(b.ready(), ["QF2", "QF3"]);
    // 3 in a 4-bracket, 5 in 8, 12 in 16, 20 in 32: byes = size - n, all to seeds 1..
    for n in [3u32, 5, 12, 20] {
        let mut b = bracket(BracketKind::SingleElimination, n);
        let byes: Vec<PlayerNo> = b
            .round(1)
            .iter()
            .filter_map(|m| match m.state {
                MatchState::Walkover { winner } => winner,
                _ => None,
            })
            .collect();
        let mut sorted = byes.clone();
        sorted.sort();
        assert_eq!(sorted, ranking(b.size() - n), "n={n}");
        assert_eq!(
            play_out(&mut b, &|_| false) as u32,
            n - 1,
            "every real match decided by one game"
        );
        let places = b.places().unwrap();
        assert_eq!(places.len() as u32, n);
        assert_eq!(places[0].0, 1);
    }
}

#[test]
fn third_place_match() {
    let mut b = bracket(BracketKind::ThirdPlace, 8);
    assert!(b.get("P3").is_some());
    assert_eq!(b.get("P3").unwrap().label_zh(), "三四名");
    assert_eq!(b.get("F").unwrap().label_zh(), "决赛");
    // lower seed wins every semi-final and the 3rd-place match
    play_out(&mut b, &|id| !(id.starts_with("SF") || id == "P3"));
    let places = b.places().unwrap();
    let firsts: Vec<u32> = places.iter().map(|x| x.0).collect();
    assert_eq!(firsts, [1, 2, 3, 4, 5, 5, 5, 5]);
    // QFs to the higher seeds: SF1 1 v 4 → 4, SF2 2 v 3 → 3; F 3 v 4 → 3; P3 1 v 2 → 2
    let order: Vec<u32> = places.iter().take(4).map(|x| x.1.get() - 100).collect();
    assert_eq!(order, [3, 4, 2, 1]);
    // with byes the 3rd-place match can be a walkover
    let mut b = bracket(BracketKind::ThirdPlace, 3);
    play_out(&mut b, &|_| true);
    let places = b.places().unwrap();
    assert_eq!(places, [(1, p(101)), (2, p(102)), (3, p(103))]);
}

#[test]
fn full_placement_bracket_of_eight_decides_every_place_by_games() {
    let mut b = bracket(BracketKind::Placement, 8);
    assert_eq!(b.rounds(), 3);
    let ids: Vec<Vec<String>> = (1..=3)
        .map(|r| b.round(r).iter().map(|m| m.id.clone()).collect())
        .collect();
    assert_eq!(ids[0], ["QF1", "QF2", "QF3", "QF4"]);
    assert_eq!(ids[1], ["SF1", "SF2", "P5-SF1", "P5-SF2"]);
    assert_eq!(ids[2], ["F", "P3", "P5", "P7"]);
    let labels: Vec<String> = b.round(3).iter().map(|m| m.label_zh()).collect();
    assert_eq!(labels, ["决赛", "三四名", "五六名", "七八名"]);
    assert_eq!(b.get("P5-SF1").unwrap().label_zh(), "五至八名半决赛");
    // the lower seed wins every match: 12 games, every one played
    let games = play_out(&mut b, &|_| false);
    assert_eq!(games, 12);
    let places = b.places().unwrap();
    assert_eq!(
        places.iter().map(|x| x.0).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    // QF: 8,5,6,7 win. SF1: 8 v 5 → 8; SF2: 6 v 7 → 7. F: 7 v 8 → 8. P3: 5 v 6 → 6.
    // losers 1,4,3,2: P5-SF1: 1 v 4 → 4; P5-SF2: 3 v 2 → 3. P5: 3 v 4 → 4; P7: 1 v 2 → 2.
    let order: Vec<u32> = places.iter().map(|x| x.1.get() - 100).collect();
    assert_eq!(order, [8, 7, 6, 5, 4, 3, 2, 1]);
}

#[test]
fn placement_bracket_with_byes_closes_up_places() {
    let mut b = bracket(BracketKind::Placement, 6);
    play_out(&mut b, &|_| true);
    let places = b.places().unwrap();
    assert_eq!(
        places.iter().map(|x| x.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert_eq!(
        places.iter().map(|x| x.1.get() - 100).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    for n in [16u32, 32] {
        let mut b = bracket(BracketKind::Placement, n);
        let games = play_out(&mut b, &|id| id.len() % 2 != 1);
        assert_eq!(
            games as u32,
            n / 2 * n.trailing_zeros(),
            "n/2 matches in each round"
        );
        let mut got: Vec<u32> = b.places().unwrap().iter().map(|x| x.0).collect();
        got.sort();
        assert_eq!(got, (1..=n).collect::<Vec<_>>());
    }
}

#[test]
fn record_errors() {
    let mut b = bracket(BracketKind::Placement, 8);
    assert_eq!(
        b.record("XX", 0, GameResult::RedWin),
        Err(KnockoutError::UnknownMatch("XX".into()))
    );
    assert_eq!(
        b.record("SF1", 0, GameResult::RedWin),
        Err(KnockoutError::MatchNotReady("SF1".into()))
    );
    b.record("QF1", 0, GameResult::RedWin).unwrap();
    assert_eq!(
        b.record("QF1", 1, GameResult::RedWin),
        Err(KnockoutError::MatchDecided)
    );
    assert!(matches!(
        b.record("QF2", 1, GameResult::Draw),
        Err(KnockoutError::NotNextGame { .. })
    ));
    let b6 = bracket(BracketKind::SingleElimination, 6);
    assert_eq!(b6.next_game("QF1"), Ok(None), "a walkover needs no game");
    assert!(matches!(
        Bracket::new(
            BracketKind::Placement,
            ranking(1),
            k7(),
            MatchSettings::default()
        ),
        Err(KnockoutError::FieldSize(1))
    ));
    assert!(matches!(
        Bracket::new(
            BracketKind::Placement,
            ranking(1025),
            k7(),
            MatchSettings::default()
        ),
        Err(KnockoutError::FieldSize(1025))
    ));
    assert!(matches!(
        Bracket::new(
            BracketKind::Placement,
            vec![p(1), p(2), p(1)],
            k7(),
            MatchSettings::default()
        ),
        Err(KnockoutError::DuplicatePlayer(_))
    ));
}

#[test]
fn drawn_games_go_through_the_format_inside_a_bracket() {
    let mut b = bracket(BracketKind::SingleElimination, 2);
    b.record("F", 0, GameResult::Draw).unwrap();
    b.record("F", 1, GameResult::Draw).unwrap();
    b.choose_colour("F", p(101), arbiter_types::Colour::Black)
        .unwrap();
    let next = b.next_game("F").unwrap().unwrap();
    assert_eq!(next.black, p(101));
    b.record("F", 2, GameResult::Draw).unwrap();
    assert_eq!(b.places().unwrap(), [(1, p(101)), (2, p(102))]);
}

#[test]
fn rendering_shows_labels_names_and_results() {
    let mut b = bracket(BracketKind::Placement, 6);
    let name = |x: PlayerNo| format!("选手{}", x.get() - 100);
    let before = render_text(&b, &name);
    assert!(before.contains("第一轮"), "{before}");
    assert!(
        before.contains("QF1      四分之一决赛: [1] 选手1 对 轮空 — 选手1轮空晋级"),
        "{before}"
    );
    assert!(before.contains("SF1胜者"), "{before}");
    play_out(&mut b, &|_| true);
    let after = render_text(&b, &name);
    for label in [
        "半决赛",
        "决赛",
        "三四名",
        "五六名",
        "七八名",
        "第三轮",
        "名次",
        "第6名 选手6",
    ] {
        assert!(after.contains(label), "missing {label}:\n{after}");
    }
    assert!(after.contains("慢棋 选手1(红)-选手4(黑) 红胜"), "{after}");
    // deterministic
    assert_eq!(after, render_text(&b, &name));
}

#[test]
fn bracket_round_trips_through_json() {
    let mut b = bracket(BracketKind::Placement, 8);
    play_out_round(&mut b, 1, &|_| true);
    let json = serde_json::to_string(&b).unwrap();
    let back: Bracket = serde_json::from_str(&json).unwrap();
    assert_eq!(back, b);
}

#[test]
fn two_stage_split_gives_the_knockout_field_and_the_rest() {
    use arbiter_knockout::split_top;
    // stage 1: 12 players; the top 8 play a placement bracket, 9–12 continue the Swiss
    let stage1: Vec<PlayerNo> = (1..=12).map(p).collect();
    let (top, rest) = split_top(&stage1, 8);
    assert_eq!(top, (1..=8).map(p).collect::<Vec<_>>());
    assert_eq!(rest, [p(9), p(10), p(11), p(12)]);
    let (top, rest) = split_top(&stage1[..5], 8);
    assert_eq!(top.len(), 5);
    assert!(rest.is_empty());
}

#[test]
fn time_controls_are_printed_as_labels() {
    let f = k7()
        .with_time_control(arbiter_types::GameKind::Slow, "20′+5″")
        .with_time_control(arbiter_types::GameKind::Rapid, "10′+3″");
    assert_eq!(
        f.time_control(arbiter_types::GameKind::Slow),
        Some("20′+5″")
    );
    assert_eq!(f.time_control(arbiter_types::GameKind::Armageddon), None);
    let mut b = Bracket::new(
        BracketKind::SingleElimination,
        ranking(2),
        f,
        MatchSettings::default(),
    )
    .unwrap();
    b.record("F", 0, GameResult::Draw).unwrap();
    b.record("F", 1, GameResult::BlackWin).unwrap();
    let text = render_text(&b, &|x| x.to_string());
    assert!(
        text.contains("慢棋20′+5″ 101(红)-102(黑) 和棋; 快棋10′+3″ 102(红)-101(黑) 黑胜"),
        "{text}"
    );
    assert!(text.contains("第1名 101"), "{text}");
}

#[test]
fn shared_places_can_be_split_by_seed() {
    let mut b = bracket(BracketKind::SingleElimination, 8);
    play_out(&mut b, &|id| id != "QF4");
    // QF losers 8, 5, 6 and 2 share 5th; by seed: 2, 5, 6, 8
    let shared = b.places().unwrap();
    assert_eq!(
        shared[4..].iter().map(|x| x.0).collect::<Vec<_>>(),
        [5, 5, 5, 5]
    );
    let split = b.places_split_by_seed().unwrap();
    assert_eq!(
        split.iter().map(|x| x.0).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    assert_eq!(
        split[4..]
            .iter()
            .map(|x| x.1.get() - 100)
            .collect::<Vec<_>>(),
        [2, 5, 6, 8]
    );
}

#[test]
fn same_place_finals_pair_seeds_two_by_two_for_their_places() {
    // Seeds A1, B1, A2, B2, A3, B3: A1–B1 for 1–2, A2–B2 for 3–4, A3–B3 for 5–6.
    let mut b = bracket(BracketKind::SamePlace, 6);
    assert_eq!(b.rounds(), 1);
    let ids: Vec<&str> = b.matches().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["F", "P3", "P5"]);
    assert_eq!(b.ready(), ["F", "P3", "P5"]);
    // The lower seed wins the match for 3–4, the higher seed the others.
    let games = play_out(&mut b, &|id| id != "P3");
    assert_eq!(games, 3);
    assert_eq!(
        b.places().unwrap(),
        vec![
            (1, p(101)),
            (2, p(102)),
            (3, p(104)),
            (4, p(103)),
            (5, p(105)),
            (6, p(106)),
        ]
    );
    // An odd field cannot be paired by places.
    assert!(matches!(
        Bracket::new(
            BracketKind::SamePlace,
            ranking(5),
            k7(),
            MatchSettings::default()
        ),
        Err(KnockoutError::FieldSize(5))
    ));
}
