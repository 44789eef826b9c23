//! Automatic withdrawal after forfeits (rules.md A5) and "N fouls in one game = loss"
//! (A11, K12, J3 (9)).
//!
//! Both rules are settings with the defaults of Part A: withdrawal after 2 consecutive own
//! forfeits (K: 3 consecutive, S: 2 in total), and a game lost at the 3rd foul (K12 and S:
//! the 2nd).
//!
//! Which rounds count. A round counts as the player's own forfeit when
//! [`Outcome::is_own_forfeit`] holds: a single forfeit the player lost, or a double forfeit.
//! A played game, a forfeit win or any kind of bye ends a run of consecutive forfeits. A round
//! in which the player was not paired ([`Outcome::Absent`]: excused, not yet entered, unpaid)
//! neither counts nor ends the run: the rounds the player was due to play are what is
//! consecutive.

use arbiter_types::{Colour, GameResult, Outcome};
use serde::{Deserialize, Serialize};
use std::num::NonZeroU32;

/// When a player is withdrawn (退赛) because of forfeits. `None` switches a condition off;
/// when both are set, whichever is met first applies. Zero is not a valid count (the type
/// rejects it when read from a file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WithdrawalRule {
    /// Withdrawn after this many own forfeits in a row (K8: 3; default 2).
    pub after_consecutive: Option<NonZeroU32>,
    /// Withdrawn after this many own forfeits in total (S7: 2).
    pub after_total: Option<NonZeroU32>,
}

impl Default for WithdrawalRule {
    /// Part A default: 2 consecutive forfeits, no total limit.
    fn default() -> Self {
        WithdrawalRule::consecutive(2)
    }
}

impl WithdrawalRule {
    /// Withdrawn after `n` consecutive own forfeits (0 means never).
    pub fn consecutive(n: u32) -> Self {
        WithdrawalRule {
            after_consecutive: NonZeroU32::new(n),
            after_total: None,
        }
    }
    /// Withdrawn after `n` own forfeits in total (0 means never).
    pub fn total(n: u32) -> Self {
        WithdrawalRule {
            after_consecutive: None,
            after_total: NonZeroU32::new(n),
        }
    }
    /// Never withdrawn automatically.
    pub fn never() -> Self {
        WithdrawalRule {
            after_consecutive: None,
            after_total: None,
        }
    }
}

/// Which condition of the rule was met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawalReason {
    /// `after_consecutive` own forfeits in a row.
    ConsecutiveForfeits,
    /// `after_total` own forfeits in total.
    TotalForfeits,
}

impl WithdrawalReason {
    pub fn zh(self) -> &'static str {
        match self {
            WithdrawalReason::ConsecutiveForfeits => "连续弃权",
            WithdrawalReason::TotalForfeits => "累计弃权",
        }
    }
}

/// The decision: the player is withdrawn (退赛) after round `after_round` (1-based) and is
/// not paired from round `after_round + 1` on. Past results stay (A5).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Withdrawal {
    pub after_round: u32,
    pub reason: WithdrawalReason,
    /// The rounds (1-based) of the forfeits that met the condition, in order.
    pub forfeit_rounds: Vec<u32>,
}

impl Withdrawal {
    /// A one-line explanation, Chinese first: "第3轮后退赛: 连续弃权3轮 (rounds 1, 2, 3) …".
    pub fn explain(&self) -> String {
        let rounds: Vec<String> = self.forfeit_rounds.iter().map(u32::to_string).collect();
        let en = match self.reason {
            WithdrawalReason::ConsecutiveForfeits => "consecutive forfeits",
            WithdrawalReason::TotalForfeits => "forfeits in total",
        };
        format!(
            "第{}轮后退赛: {}{}轮 (withdrawn after round {}: {} {} in rounds {})",
            self.after_round,
            self.reason.zh(),
            self.forfeit_rounds.len(),
            self.after_round,
            self.forfeit_rounds.len(),
            en,
            rounds.join(", ")
        )
    }
}

/// Decides whether a player is withdrawn. `outcomes[i]` is the player's outcome in round
/// `i + 1`, for the rounds played so far. Returns the first round after which a condition of
/// `rule` is met, or `None` if the player is still in the event.
pub fn check_withdrawal(outcomes: &[Outcome], rule: &WithdrawalRule) -> Option<Withdrawal> {
    let mut run: Vec<u32> = Vec::new();
    let mut all: Vec<u32> = Vec::new();
    for (i, outcome) in outcomes.iter().enumerate() {
        let round = i as u32 + 1;
        if outcome.is_own_forfeit() {
            run.push(round);
            all.push(round);
        } else if matches!(outcome, Outcome::Absent) {
            continue;
        } else {
            run.clear();
            continue;
        }
        if let Some(n) = rule.after_consecutive {
            if run.len() as u32 >= n.get() {
                return Some(Withdrawal {
                    after_round: round,
                    reason: WithdrawalReason::ConsecutiveForfeits,
                    forfeit_rounds: run,
                });
            }
        }
        if let Some(n) = rule.after_total {
            if all.len() as u32 >= n.get() {
                return Some(Withdrawal {
                    after_round: round,
                    reason: WithdrawalReason::TotalForfeits,
                    forfeit_rounds: all,
                });
            }
        }
    }
    None
}

/// How many fouls (犯规) in one game lose it (A11: 3 by default; K12 and S: 2). `None`: fouls
/// never decide a game by themselves. A phone foul is also a foul: it counts towards
/// `fouls_for_loss`, and separately towards `phone_fouls_for_loss` (K12: the 2nd phone use
/// loses; T8: a phone in the hall loses at once = 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FoulRule {
    pub fouls_for_loss: Option<NonZeroU32>,
    pub phone_fouls_for_loss: Option<NonZeroU32>,
}

impl Default for FoulRule {
    fn default() -> Self {
        FoulRule::loss_at(3)
    }
}

impl FoulRule {
    /// The game is lost at the `n`-th foul (0 means never); no separate phone limit.
    pub fn loss_at(n: u32) -> Self {
        FoulRule {
            fouls_for_loss: NonZeroU32::new(n),
            phone_fouls_for_loss: None,
        }
    }
    /// From plain counts as written in a regulation (`None` or 0 = never).
    pub fn from_counts(fouls: Option<u32>, phone_fouls: Option<u32>) -> Self {
        FoulRule {
            fouls_for_loss: fouls.and_then(NonZeroU32::new),
            phone_fouls_for_loss: phone_fouls.and_then(NonZeroU32::new),
        }
    }
}

impl WithdrawalRule {
    /// From plain counts as written in a regulation (`None` or 0 = condition off).
    pub fn from_counts(consecutive: Option<u32>, total: Option<u32>) -> Self {
        WithdrawalRule {
            after_consecutive: consecutive.and_then(NonZeroU32::new),
            after_total: total.and_then(NonZeroU32::new),
        }
    }
}

/// The kind of a foul, as far as the loss rule cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoulKind {
    #[default]
    General,
    /// Using a phone during the game (K12, T8).
    Phone,
}

/// One foul of a game: who committed it and of what kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameFoul {
    pub colour: Colour,
    #[serde(default)]
    pub kind: FoulKind,
}

/// A game decided by fouls: `loser` committed the decisive foul, which was the
/// `decisive_foul`-th foul recorded in the game (1-based, counting both players).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FoulLoss {
    pub loser: Colour,
    /// Which limit was reached: `general` (all fouls) or `phone` (phone fouls only).
    pub limit: FoulKind,
    /// The loser's count that reached the limit (all fouls, or phone fouls).
    pub loser_fouls: u32,
    pub decisive_foul: u32,
    /// The result the game must have: a win for the other colour.
    pub result: GameResult,
}

impl FoulLoss {
    /// `true` when a recorded result disagrees with the foul rule (for the arbiter to check).
    pub fn conflicts_with(&self, recorded: GameResult) -> bool {
        recorded != self.result
    }

    pub fn explain(&self) -> String {
        let en = match self.loser {
            Colour::Red => "red",
            Colour::Black => "black",
        };
        let (zh_kind, en_kind) = match self.limit {
            FoulKind::General => ("", "foul"),
            FoulKind::Phone => ("手机", "phone foul"),
        };
        format!(
            "{}方本局第{}次{}犯规, 判负 ({} loses at {} {} in this game)",
            self.loser.zh(),
            self.loser_fouls,
            zh_kind,
            en,
            en_kind,
            self.loser_fouls
        )
    }
}

/// Applies the foul rule to the fouls of one game, all of the general kind, given in the
/// order they were recorded (the colour of the player who committed each).
pub fn foul_loss(fouls: &[Colour], rule: &FoulRule) -> Option<FoulLoss> {
    let fouls: Vec<GameFoul> = fouls
        .iter()
        .map(|&colour| GameFoul {
            colour,
            kind: FoulKind::General,
        })
        .collect();
    foul_loss_by_kind(&fouls, rule)
}

/// Applies the foul rule to the fouls of one game in recorded order. The first player to
/// reach a limit loses; later fouls do not matter (the game ended there). When one foul
/// reaches both limits, the phone limit is reported.
pub fn foul_loss_by_kind(fouls: &[GameFoul], rule: &FoulRule) -> Option<FoulLoss> {
    // [red, black] counts of all fouls and of phone fouls.
    let mut all = [0u32; 2];
    let mut phone = [0u32; 2];
    for (i, foul) in fouls.iter().enumerate() {
        let side = match foul.colour {
            Colour::Red => 0,
            Colour::Black => 1,
        };
        all[side] += 1;
        if foul.kind == FoulKind::Phone {
            phone[side] += 1;
        }
        let reached =
            |limit: Option<NonZeroU32>, count: u32| limit.is_some_and(|n| count >= n.get());
        let hit = if foul.kind == FoulKind::Phone && reached(rule.phone_fouls_for_loss, phone[side])
        {
            Some((FoulKind::Phone, phone[side]))
        } else if reached(rule.fouls_for_loss, all[side]) {
            Some((FoulKind::General, all[side]))
        } else {
            None
        };
        if let Some((limit, count)) = hit {
            let result = match foul.colour {
                Colour::Red => GameResult::BlackWin,
                Colour::Black => GameResult::RedWin,
            };
            return Some(FoulLoss {
                loser: foul.colour,
                limit,
                loser_fouls: count,
                decisive_foul: i as u32 + 1,
                result,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_counts_mean_never() {
        assert_eq!(WithdrawalRule::consecutive(0), WithdrawalRule::never());
        assert_eq!(FoulRule::loss_at(0).fouls_for_loss, None);
        assert_eq!(foul_loss(&[Colour::Red; 9], &FoulRule::loss_at(0)), None);
    }
}
