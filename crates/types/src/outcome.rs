//! Colours, game results and a player's outcome in one round.

use crate::{PlayerNo, Score, ScoringTable};
use serde::{Deserialize, Serialize};

/// 红 (先手, moves first) or 黑 (后手).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Red,
    Black,
}

impl Colour {
    pub fn opposite(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            Colour::Red => "红",
            Colour::Black => "黑",
        }
    }

    /// A colour as people type it: `red`/`black` (also `r`/`b`), 红/黑, 红方/黑方 (blanks
    /// around it ignored, English in any case). The one reading the CLI and the desk share.
    pub fn from_words(s: &str) -> Option<Colour> {
        match s.trim().to_ascii_lowercase().as_str() {
            "red" | "r" | "红" | "红方" => Some(Colour::Red),
            "black" | "b" | "黑" | "黑方" => Some(Colour::Black),
            _ => None,
        }
    }
}

#[cfg(test)]
mod colour_tests {
    use super::Colour;

    #[test]
    fn colours_are_read_in_both_languages_and_nothing_else() {
        for (s, c) in [
            ("red", Colour::Red),
            (" R ", Colour::Red),
            ("红", Colour::Red),
            ("红方", Colour::Red),
            ("Black", Colour::Black),
            ("b", Colour::Black),
            ("黑方 ", Colour::Black),
        ] {
            assert_eq!(Colour::from_words(s), Some(c), "{s}");
        }
        for s in ["", "绿", "redd", "红黑"] {
            assert_eq!(Colour::from_words(s), None, "{s}");
        }
    }
}

/// The result of one board, as written on the result slip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    RedWin,
    BlackWin,
    Draw,
    /// Red did not play (late / absent): black wins by forfeit.
    RedForfeit,
    /// Black did not play: red wins by forfeit.
    BlackForfeit,
    /// Neither played (or an agreed result without play, T8).
    DoubleForfeit,
}

impl GameResult {
    pub const ALL: [GameResult; 6] = [
        GameResult::RedWin,
        GameResult::BlackWin,
        GameResult::Draw,
        GameResult::RedForfeit,
        GameResult::BlackForfeit,
        GameResult::DoubleForfeit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GameResult::RedWin => "red_win",
            GameResult::BlackWin => "black_win",
            GameResult::Draw => "draw",
            GameResult::RedForfeit => "red_forfeit",
            GameResult::BlackForfeit => "black_forfeit",
            GameResult::DoubleForfeit => "double_forfeit",
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            GameResult::RedWin => "红胜",
            GameResult::BlackWin => "黑胜",
            GameResult::Draw => "和棋",
            GameResult::RedForfeit => "红弃权",
            GameResult::BlackForfeit => "黑弃权",
            GameResult::DoubleForfeit => "双方弃权",
        }
    }

    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::RedForfeit | GameResult::BlackForfeit | GameResult::DoubleForfeit
        )
    }

    /// The outcome of this board for the player of `colour` against `opponent`.
    pub fn outcome_for(self, colour: Colour, opponent: PlayerNo) -> Outcome {
        use GameResult::*;
        let won = |c: Colour| {
            if c == colour {
                PlayerResult::Win
            } else {
                PlayerResult::Loss
            }
        };
        match self {
            RedWin => Outcome::Game {
                opponent,
                colour,
                result: won(Colour::Red),
            },
            BlackWin => Outcome::Game {
                opponent,
                colour,
                result: won(Colour::Black),
            },
            Draw => Outcome::Game {
                opponent,
                colour,
                result: PlayerResult::Draw,
            },
            RedForfeit | BlackForfeit => {
                let loser = if self == RedForfeit {
                    Colour::Red
                } else {
                    Colour::Black
                };
                if loser == colour {
                    Outcome::ForfeitLoss { opponent, colour }
                } else {
                    Outcome::ForfeitWin { opponent, colour }
                }
            }
            DoubleForfeit => Outcome::DoubleForfeit { opponent, colour },
        }
    }
}

/// Win, draw or loss from one player's side of a played game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerResult {
    Win,
    Draw,
    Loss,
}

/// What one round meant for one player. Forfeits are kept apart from played games (A5) so
/// that every tie-break can treat them by its own setting. `colour` on a forfeit is the
/// colour the pairing assigned; whether it counts as a colour played is a setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    Game {
        opponent: PlayerNo,
        colour: Colour,
        result: PlayerResult,
    },
    ForfeitWin {
        opponent: PlayerNo,
        colour: Colour,
    },
    ForfeitLoss {
        opponent: PlayerNo,
        colour: Colour,
    },
    DoubleForfeit {
        opponent: PlayerNo,
        colour: Colour,
    },
    /// 轮空: the pairing-allocated bye (TRF `U`), scored as the table's bye.
    Bye,
    /// A requested full-point bye (TRF `F`); found in imported chess files.
    FullBye,
    /// A requested half-point bye (TRF `H`); found in imported chess files.
    HalfBye,
    /// Not paired this round, zero points: absent, withdrawn, unpaid, not yet entered (TRF `Z`, `-`).
    Absent,
}

impl Outcome {
    /// Points this outcome scores under `table`.
    pub fn points(&self, table: &ScoringTable) -> Score {
        match *self {
            Outcome::Game { colour, result, .. } => match result {
                PlayerResult::Win => table.win,
                PlayerResult::Draw => table.draw(colour),
                PlayerResult::Loss => table.loss,
            },
            Outcome::ForfeitWin { .. } => table.forfeit_win,
            Outcome::ForfeitLoss { .. } => table.forfeit_loss,
            Outcome::DoubleForfeit { .. } => table.double_forfeit,
            Outcome::Bye => table.bye,
            Outcome::FullBye => table.win,
            Outcome::HalfBye => table.half_bye(),
            Outcome::Absent => Score::ZERO,
        }
    }

    /// The opponent met at the board, played or forfeited (H1 counts forfeits as meetings).
    pub fn opponent(&self) -> Option<PlayerNo> {
        match *self {
            Outcome::Game { opponent, .. }
            | Outcome::ForfeitWin { opponent, .. }
            | Outcome::ForfeitLoss { opponent, .. }
            | Outcome::DoubleForfeit { opponent, .. } => Some(opponent),
            _ => None,
        }
    }

    /// The colour of a game actually played (forfeits and byes give no colour).
    pub fn played_colour(&self) -> Option<Colour> {
        match *self {
            Outcome::Game { colour, .. } => Some(colour),
            _ => None,
        }
    }

    /// The colour assigned by the pairing, played or forfeited.
    pub fn assigned_colour(&self) -> Option<Colour> {
        match *self {
            Outcome::Game { colour, .. }
            | Outcome::ForfeitWin { colour, .. }
            | Outcome::ForfeitLoss { colour, .. }
            | Outcome::DoubleForfeit { colour, .. } => Some(colour),
            _ => None,
        }
    }

    pub fn is_played(&self) -> bool {
        matches!(self, Outcome::Game { .. })
    }
    pub fn is_forfeit(&self) -> bool {
        matches!(
            self,
            Outcome::ForfeitWin { .. }
                | Outcome::ForfeitLoss { .. }
                | Outcome::DoubleForfeit { .. }
        )
    }
    /// A forfeit this player lost (single or double): what counts towards withdrawal (A5).
    pub fn is_own_forfeit(&self) -> bool {
        matches!(
            self,
            Outcome::ForfeitLoss { .. } | Outcome::DoubleForfeit { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScoringPreset;

    fn p(n: u32) -> PlayerNo {
        PlayerNo::new(n).unwrap()
    }

    #[test]
    fn both_sides_of_every_result_add_up() {
        let t = ScoringPreset::FiveTwoThreeZero.table();
        for r in GameResult::ALL {
            let red = r.outcome_for(Colour::Red, p(2)).points(&t);
            let black = r.outcome_for(Colour::Black, p(1)).points(&t);
            let total = (red + black).halves();
            let expected = match r {
                GameResult::Draw => 10,
                GameResult::DoubleForfeit => 0,
                _ => 10,
            };
            assert_eq!(total, expected, "{r:?}");
        }
        assert_eq!(
            GameResult::Draw
                .outcome_for(Colour::Black, p(1))
                .points(&t)
                .to_string(),
            "3"
        );
    }

    #[test]
    fn forfeits_give_no_played_colour() {
        let o = GameResult::RedForfeit.outcome_for(Colour::Black, p(3));
        assert_eq!(
            o,
            Outcome::ForfeitWin {
                opponent: p(3),
                colour: Colour::Black
            }
        );
        assert_eq!(o.played_colour(), None);
        assert_eq!(o.assigned_colour(), Some(Colour::Black));
        assert_eq!(o.opponent(), Some(p(3)));
    }
}
