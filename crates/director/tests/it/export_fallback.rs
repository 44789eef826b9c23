//! Every name in a section's `tiebreaks` list has a value in every standings row of the
//! published export — the fallbacks included (issue 6 contract): `previous_round_rank` is the
//! rank after round N−1 by the same list (K10), `previous_round_score` the score after
//! round N−1 (J3, T4).

use crate::common;

use arbiter_simulate::Sizes;
use arbiter_types::{GameResult, Score};
use common::*;

#[test]
fn every_listed_tiebreak_has_a_value_in_every_row() {
    for (stem, fallback) in [
        ("kunshan-2026", "previous_round_rank"),
        ("jiujiang-2020", "previous_round_score"),
        // 天水 八(七) 「比较前一轮成绩」: the score (A19).
        ("tianshui-2024", "previous_round_score"),
    ] {
        let state = run(stem, 2, &Sizes::default()).1;
        let export = arbiter_director::export(&state).expect("export");
        let mut seen_fallback = false;
        for sec in &export.sections {
            for row in &sec.standings {
                for name in &sec.tiebreaks {
                    assert!(
                        row.tiebreaks.contains_key(name),
                        "{stem} {}: row {} has no `{name}`",
                        sec.id,
                        row.no
                    );
                }
            }
            if sec.tiebreaks.last().map(String::as_str) == Some(fallback) {
                seen_fallback = true;
            }
        }
        assert!(seen_fallback, "{stem}: no section lists `{fallback}`");
    }
}

#[test]
fn previous_round_score_is_the_score_after_the_previous_round() {
    let state = run("jiujiang-2020", 3, &Sizes::default()).1;
    let export = arbiter_director::export(&state).expect("export");
    let sec = &export.sections[0];
    assert_eq!(
        sec.tiebreaks.last().map(String::as_str),
        Some("previous_round_score")
    );
    let last_round = sec.rounds.iter().map(|r| r.round).max().expect("rounds");
    // Points scored in the last round, per player, from the published games and byes.
    let scoring = &sec.scoring;
    let mut last: std::collections::BTreeMap<u32, Score> = Default::default();
    for r in sec.rounds.iter().filter(|r| r.round == last_round) {
        for g in &r.games {
            let (red, black) = match g.result {
                GameResult::RedWin => (scoring.win, scoring.loss),
                GameResult::BlackWin => (scoring.loss, scoring.win),
                GameResult::Draw => (scoring.draw_red, scoring.draw_black),
                GameResult::RedForfeit => (scoring.forfeit_loss, scoring.forfeit_win),
                GameResult::BlackForfeit => (scoring.forfeit_win, scoring.forfeit_loss),
                GameResult::DoubleForfeit => (scoring.double_forfeit, scoring.double_forfeit),
            };
            last.insert(g.red, red);
            last.insert(g.black, black);
        }
        for &b in &r.byes {
            last.insert(b, scoring.bye);
        }
    }
    for row in &sec.standings {
        let before = row.tiebreaks["previous_round_score"];
        let got = last.get(&row.no).copied().unwrap_or(Score::ZERO);
        assert_eq!(before + got, row.points, "player {}", row.no);
    }
}
