//! Withdrawal after forfeits (A5; K8 3 consecutive, S7 2 in total) and the foul rule
//! (A11; K12 2nd phone foul = loss; J3 three fouls).

use arbiter_standings::withdrawal::{
    check_withdrawal, foul_loss, foul_loss_by_kind, FoulKind, FoulRule, GameFoul, WithdrawalReason,
    WithdrawalRule,
};
use arbiter_types::{Colour, GameResult, Outcome, PlayerNo, PlayerResult};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}
/// Shorthand: W win, D draw, L loss, + forfeit win, - forfeit loss, = double forfeit,
/// U bye, A absent (not paired).
fn outcomes(s: &str) -> Vec<Outcome> {
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            let opponent = p(i as u32 + 10);
            let colour = Colour::Red;
            match c {
                'W' => Outcome::Game {
                    opponent,
                    colour,
                    result: PlayerResult::Win,
                },
                'D' => Outcome::Game {
                    opponent,
                    colour,
                    result: PlayerResult::Draw,
                },
                'L' => Outcome::Game {
                    opponent,
                    colour,
                    result: PlayerResult::Loss,
                },
                '+' => Outcome::ForfeitWin { opponent, colour },
                '-' => Outcome::ForfeitLoss { opponent, colour },
                '=' => Outcome::DoubleForfeit { opponent, colour },
                'U' => Outcome::Bye,
                'A' => Outcome::Absent,
                _ => panic!("bad test code {c}"),
            }
        })
        .collect()
}

#[test]
fn default_rule_is_two_consecutive() {
    let rule = WithdrawalRule::default();
    assert_eq!(check_withdrawal(&outcomes("W-L-D"), &rule), None);
    let w = check_withdrawal(&outcomes("WD--L"), &rule).unwrap();
    assert_eq!(w.after_round, 4);
    assert_eq!(w.reason, WithdrawalReason::ConsecutiveForfeits);
    assert_eq!(w.forfeit_rounds, vec![3, 4]);
    assert!(
        w.explain().starts_with("第4轮后退赛: 连续弃权2轮"),
        "{}",
        w.explain()
    );
}

#[test]
fn kunshan_three_consecutive_forfeits() {
    let k = WithdrawalRule::consecutive(3);
    // Two forfeits, a game, two forfeits: never three in a row.
    assert_eq!(check_withdrawal(&outcomes("--W--"), &k), None);
    // A forfeit win or a bye ends the run too.
    assert_eq!(check_withdrawal(&outcomes("--+--U-"), &k), None);
    // A double forfeit counts as the player's own forfeit.
    let w = check_withdrawal(&outcomes("W-=-L"), &k).unwrap();
    assert_eq!(
        (w.after_round, w.forfeit_rounds.clone()),
        (4, vec![2, 3, 4])
    );
    // Rounds not paired (absent) neither count nor break the run.
    let w = check_withdrawal(&outcomes("W-A--"), &k).unwrap();
    assert_eq!((w.after_round, w.forfeit_rounds), (5, vec![2, 4, 5]));
}

#[test]
fn suzhou_two_forfeits_in_total() {
    let s = WithdrawalRule::total(2);
    assert_eq!(check_withdrawal(&outcomes("W-WWDLW"), &s), None);
    let w = check_withdrawal(&outcomes("W-WW=WW"), &s).unwrap();
    assert_eq!(w.after_round, 5);
    assert_eq!(w.reason, WithdrawalReason::TotalForfeits);
    assert_eq!(w.forfeit_rounds, vec![2, 5]);
    // Forfeit wins are the opponent's forfeits, not the player's.
    assert_eq!(check_withdrawal(&outcomes("+W+L+"), &s), None);
}

#[test]
fn both_conditions_whichever_comes_first() {
    let rule = WithdrawalRule {
        after_consecutive: std::num::NonZeroU32::new(2),
        after_total: std::num::NonZeroU32::new(3),
    };
    let w = check_withdrawal(&outcomes("-W-W-"), &rule).unwrap();
    assert_eq!(
        (w.after_round, w.reason),
        (5, WithdrawalReason::TotalForfeits)
    );
    let w = check_withdrawal(&outcomes("-W--"), &rule).unwrap();
    assert_eq!(
        (w.after_round, w.reason),
        (4, WithdrawalReason::ConsecutiveForfeits)
    );
    assert_eq!(
        check_withdrawal(&outcomes("----"), &WithdrawalRule::never()),
        None
    );
}

#[test]
fn kunshan_second_phone_foul_loses() {
    use Colour::{Black, Red};
    let k = FoulRule::loss_at(2);
    assert_eq!(foul_loss(&[Red, Black], &k), None);
    let v = foul_loss(&[Red, Black, Black, Red], &k).unwrap();
    assert_eq!(v.loser, Black);
    assert_eq!(v.result, GameResult::RedWin);
    assert_eq!(v.decisive_foul, 3);
    assert!(v.conflicts_with(GameResult::Draw));
    assert!(!v.conflicts_with(GameResult::RedWin));
    assert!(
        v.explain().starts_with("黑方本局第2次犯规, 判负"),
        "{}",
        v.explain()
    );
}

#[test]
fn default_third_foul_loses() {
    use Colour::{Black, Red};
    let rule = FoulRule::default();
    assert_eq!(foul_loss(&[Red, Red, Black, Black], &rule), None);
    let v = foul_loss(&[Red, Black, Red, Black, Red, Black], &rule).unwrap();
    assert_eq!(
        (v.loser, v.result, v.loser_fouls),
        (Red, GameResult::BlackWin, 3)
    );
    assert_eq!(
        foul_loss(&[Red; 5], &FoulRule::from_counts(None, None)),
        None
    );
}

#[test]
fn kunshan_phone_fouls_have_their_own_limit() {
    use Colour::{Black, Red};
    let g = |colour| GameFoul {
        colour,
        kind: FoulKind::General,
    };
    let ph = |colour| GameFoul {
        colour,
        kind: FoulKind::Phone,
    };
    // Three fouls lose; the 2nd phone use loses on its own.
    let k = FoulRule::from_counts(Some(3), Some(2));
    assert_eq!(foul_loss_by_kind(&[ph(Red), g(Black), g(Red)], &k), None);
    let v = foul_loss_by_kind(&[ph(Red), g(Black), ph(Red)], &k).unwrap();
    assert_eq!(
        (v.loser, v.limit, v.loser_fouls, v.decisive_foul),
        (Red, FoulKind::Phone, 2, 3)
    );
    assert!(
        v.explain().starts_with("红方本局第2次手机犯规, 判负"),
        "{}",
        v.explain()
    );
    // A phone foul still counts towards the general limit.
    let v = foul_loss_by_kind(&[g(Black), ph(Black), g(Black)], &k).unwrap();
    assert_eq!(
        (v.loser, v.limit, v.loser_fouls),
        (Black, FoulKind::General, 3)
    );
    // T8: a phone in the hall loses at once.
    let t = FoulRule::from_counts(Some(3), Some(1));
    let v = foul_loss_by_kind(&[g(Red), ph(Black)], &t).unwrap();
    assert_eq!((v.loser, v.result), (Black, GameResult::RedWin));
}

#[test]
fn rules_from_regulation_counts() {
    assert_eq!(
        WithdrawalRule::from_counts(Some(3), None),
        WithdrawalRule::consecutive(3)
    );
    assert_eq!(
        WithdrawalRule::from_counts(None, Some(2)),
        WithdrawalRule::total(2)
    );
    assert_eq!(
        WithdrawalRule::from_counts(Some(0), None),
        WithdrawalRule::never()
    );
    assert_eq!(FoulRule::from_counts(Some(2), None), FoulRule::loss_at(2));
}
