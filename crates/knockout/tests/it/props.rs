//! Property tests: every match terminates; every bracket completes with a permutation.

use arbiter_knockout::{
    Bracket, BracketKind, ColourRule, FormatCode, Match, MatchFormat, MatchSettings,
};
use arbiter_types::{Colour, GameKind, GameResult, PlayerNo};
use proptest::prelude::*;

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

const RESULTS: [GameResult; 5] = [
    GameResult::RedWin,
    GameResult::BlackWin,
    GameResult::Draw,
    GameResult::RedForfeit,
    GameResult::BlackForfeit,
];

fn format(i: usize) -> MatchFormat {
    match i {
        0..=5 => MatchFormat::preset(FormatCode::ALL[i]),
        6 => MatchFormat::k1(ColourRule::HigherSeedChooses, ColourRule::HigherSeedChooses),
        7 => MatchFormat::k2(ColourRule::HigherSeedChooses),
        _ => MatchFormat::k4(ColourRule::HigherSeedChooses),
    }
}

/// Plays `m` with results from `script` (then red wins), choosing colours from `choices`.
/// Returns the number of games played.
fn play(m: &mut Match, script: &[usize], choices: &[bool]) -> usize {
    let mut k = 0;
    while let Some(next) = m.next_game() {
        if let Some(c) = next.chooser {
            let col = if choices.get(k).copied().unwrap_or(true) {
                Colour::Red
            } else {
                Colour::Black
            };
            m.choose_colour(c, col).unwrap();
        }
        let next = m.next_game().unwrap();
        let r = script.get(k).map_or(GameResult::RedWin, |&i| RESULTS[i]);
        m.record_game(next.index, r).unwrap();
        k += 1;
        // after the script, red wins every game: a single game ends at once; a two-game
        // mini-match can end 1:1 and needs one more game
        assert!(k <= script.len() + 3, "decisive games must end the match");
    }
    k
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn every_match_terminates_with_a_consistent_winner(
        f in 0usize..9,
        seed in any::<u64>(),
        script in prop::collection::vec(0usize..5, 0..24),
        choices in prop::collection::vec(any::<bool>(), 0..24),
    ) {
        let format = format(f);
        let max_without_loop: usize = format.steps.iter().map(|s| s.games as usize).sum();
        let mut m = Match::new(format.clone(), MatchSettings { lot_seed: seed, ..Default::default() }, p(3), p(9)).unwrap();
        let n = play(&mut m, &script, &choices);
        let w = m.winner().unwrap();
        prop_assert!(w == p(3) || w == p(9));
        prop_assert_eq!(m.loser().unwrap(), if w == p(3) { p(9) } else { p(3) });
        if format.repeat_from.is_none() {
            prop_assert!(n <= max_without_loop);
        }
        let games = m.games();
        let last = games[games.len() - 1];
        if last.match_winner() != Some(w) {
            // only a two-game mini-match can be won while its last game is not won
            prop_assert_eq!(games.len(), 2);
            prop_assert_eq!(format.steps[0].games, 2);
            prop_assert_eq!(games[0].match_winner(), Some(w));
        }
        for g in games {
            prop_assert!(g.red != g.black);
            if g.kind == GameKind::Armageddon && g.result == GameResult::Draw {
                prop_assert_eq!(w, g.black);
            }
        }
        prop_assert!(m.record_game(n, GameResult::RedWin).is_err());
    }

    #[test]
    fn every_bracket_completes_with_a_permutation_of_places(
        n in 2u32..=32,
        kind in 0usize..3,
        f in 0usize..9,
        seed in any::<u64>(),
        script in prop::collection::vec(0usize..5, 0..200),
    ) {
        let kind = [BracketKind::SingleElimination, BracketKind::ThirdPlace, BracketKind::Placement][kind];
        // pairing numbers in a scrambled order so seeds and numbers differ
        let ranking: Vec<PlayerNo> = (1..=n).map(|k| p((k * 7) % 97 + 1)).collect();
        let mut b = Bracket::new(kind, ranking.clone(), format(f), MatchSettings { lot_seed: seed, ..Default::default() }).unwrap();
        let mut k = 0;
        let mut since_decisive = 0;
        while let Some(id) = b.ready().first().map(|s| s.to_string()) {
            let next = b.next_game(&id).unwrap().unwrap();
            // after 5 draws in a row the next game is decisive, so loops end
            let r = if since_decisive >= 5 { GameResult::BlackWin } else { script.get(k).map_or(GameResult::RedWin, |&i| RESULTS[i]) };
            since_decisive = if r == GameResult::Draw { since_decisive + 1 } else { 0 };
            b.record(&id, next.index, r).unwrap();
            k += 1;
            prop_assert!(k < 10_000);
        }
        prop_assert!(b.is_complete());
        let places = b.places().unwrap();
        let mut players: Vec<PlayerNo> = places.iter().map(|x| x.1).collect();
        players.sort();
        let mut expected = ranking.clone();
        expected.sort();
        prop_assert_eq!(players, expected);
        for (i, &(place, _)) in places.iter().enumerate() {
            // competition ranking: a place is 1 + the number of players ahead
            let ahead = places.iter().filter(|x| x.0 < place).count() as u32;
            prop_assert_eq!(place, ahead + 1);
            if kind == BracketKind::Placement {
                prop_assert_eq!(place, i as u32 + 1);
            }
        }
    }
}
