//! A knockout match between two players as a state machine over its games.

use crate::format::{ColourRule, Decider, MatchFormat};
use crate::KnockoutError;
use arbiter_types::{Colour, GameKind, GameResult, PlayerNo};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Settings of a match that are not part of the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSettings {
    /// The colour a chooser gets when no choice was recorded (default: red).
    pub chooser_default: Colour,
    /// Seed for every lot (猜先) of the match.
    pub lot_seed: u64,
    /// A drawn armageddon is a black win for the match (A8, K7, T3; default true). When
    /// false, a drawn armageddon decides nothing: another armageddon follows with the colours
    /// swapped, until one is decisive (as the 2020 rules' K6 loop; docs/knockout.md).
    #[serde(default = "yes")]
    pub armageddon_draw_black_wins: bool,
}

fn yes() -> bool {
    true
}

impl Default for MatchSettings {
    fn default() -> Self {
        MatchSettings {
            chooser_default: Colour::Red,
            lot_seed: 0,
            armageddon_draw_black_wins: true,
        }
    }
}

/// The next game a match needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextGame {
    /// Zero-based game index within the match.
    pub index: usize,
    pub kind: GameKind,
    pub red: PlayerNo,
    pub black: PlayerNo,
    /// The player who chose the colours, if the format gives a choice.
    pub chooser: Option<PlayerNo>,
    /// The format's step (block) the game belongs to (for its printed name and time control).
    #[serde(default)]
    pub step: usize,
}

/// A game as played in a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchGame {
    pub kind: GameKind,
    pub red: PlayerNo,
    pub black: PlayerNo,
    pub chooser: Option<PlayerNo>,
    /// The game's own result: an armageddon draw stays a draw here.
    pub result: GameResult,
    /// The format's step (block) the game belongs to.
    #[serde(default)]
    pub step: usize,
}

impl MatchGame {
    /// The winner of this game for the match (an armageddon draw goes to black).
    pub fn match_winner(&self) -> Option<PlayerNo> {
        self.match_winner_with(true)
    }

    /// The winner of this game for the match; `armageddon_draw_black_wins` as in
    /// [`MatchSettings`] (false: a drawn armageddon has no winner).
    pub fn match_winner_with(&self, armageddon_draw_black_wins: bool) -> Option<PlayerNo> {
        match self.result {
            GameResult::RedWin | GameResult::BlackForfeit => Some(self.red),
            GameResult::BlackWin | GameResult::RedForfeit => Some(self.black),
            GameResult::Draw if self.kind == GameKind::Armageddon && armageddon_draw_black_wins => {
                Some(self.black)
            }
            GameResult::Draw | GameResult::DoubleForfeit => None,
        }
    }
}

/// Where the match stands, derived from its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cursor {
    step: usize,
    in_step: u8,
    /// Points (2/1/0 per game) in the current step: higher seed, lower seed.
    points: (u32, u32),
    winner: Option<PlayerNo>,
    /// The format's decider settled the match (level after the last step).
    by: Option<Decider>,
}

/// A knockout match between the higher seed (better stage-1 rank) and the lower seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "MatchData")]
pub struct Match {
    format: MatchFormat,
    settings: MatchSettings,
    high: PlayerNo,
    low: PlayerNo,
    games: Vec<MatchGame>,
    /// A colour choice for the next game: (chooser, colour the chooser takes).
    pending_choice: Option<(PlayerNo, Colour)>,
}

/// The serialised form of a [`Match`], validated on load.
#[derive(Deserialize)]
struct MatchData {
    format: MatchFormat,
    settings: MatchSettings,
    high: PlayerNo,
    low: PlayerNo,
    games: Vec<MatchGame>,
    pending_choice: Option<(PlayerNo, Colour)>,
}

impl TryFrom<MatchData> for Match {
    type Error = KnockoutError;
    fn try_from(d: MatchData) -> Result<Match, KnockoutError> {
        let mut m = Match::new(d.format, d.settings, d.high, d.low)?;
        for g in d.games {
            let first = m.next_game().ok_or(KnockoutError::MatchDecided)?;
            if let Some(c) = first.chooser {
                let took = if g.red == c {
                    Colour::Red
                } else {
                    Colour::Black
                };
                m.pending_choice = Some((c, took));
            }
            let next = m.next_game().ok_or(KnockoutError::MatchDecided)?;
            if (next.kind, next.red, next.black) != (g.kind, g.red, g.black) {
                return Err(KnockoutError::InconsistentGame { index: next.index });
            }
            m.record_game(next.index, g.result)?;
        }
        m.pending_choice = d.pending_choice;
        Ok(m)
    }
}

impl Match {
    /// A new match; `high` is the higher seed.
    pub fn new(
        format: MatchFormat,
        settings: MatchSettings,
        high: PlayerNo,
        low: PlayerNo,
    ) -> Result<Match, KnockoutError> {
        format.validate()?;
        if high == low {
            return Err(KnockoutError::SamePlayer(high));
        }
        Ok(Match {
            format,
            settings,
            high,
            low,
            games: Vec::new(),
            pending_choice: None,
        })
    }

    pub fn format(&self) -> &MatchFormat {
        &self.format
    }
    pub fn high(&self) -> PlayerNo {
        self.high
    }
    pub fn low(&self) -> PlayerNo {
        self.low
    }
    pub fn games(&self) -> &[MatchGame] {
        &self.games
    }

    fn other(&self, p: PlayerNo) -> PlayerNo {
        if p == self.high {
            self.low
        } else {
            self.high
        }
    }

    fn cursor(&self) -> Cursor {
        let mut c = Cursor {
            step: 0,
            in_step: 0,
            points: (0, 0),
            winner: None,
            by: None,
        };
        for g in &self.games {
            let step = &self.format.steps[c.step];
            match g.match_winner_with(self.settings.armageddon_draw_black_wins) {
                Some(w) if w == self.high => c.points.0 += 2,
                Some(_) => c.points.1 += 2,
                None => {
                    c.points.0 += 1;
                    c.points.1 += 1;
                }
            }
            c.in_step += 1;
            let remaining = u32::from(step.games - c.in_step);
            let (h, l) = c.points;
            if (step.stop_when_decided || remaining == 0) && h.abs_diff(l) > 2 * remaining {
                c.winner = Some(if h > l { self.high } else { self.low });
                break;
            }
            if remaining == 0 {
                let last = c.step + 1 == self.format.steps.len();
                if let (true, None, Some(d)) = (last, self.format.repeat_from, self.format.decider)
                {
                    c.winner = Some(match d {
                        Decider::HigherSeed => self.high,
                        Decider::LastGameBlack => g.black,
                        Decider::FirstGameBlack => self.games.first().map_or(g.black, |f| f.black),
                        Decider::FirstGameWinner => self.games.first().map_or(g.black, |f| {
                            f.match_winner_with(self.settings.armageddon_draw_black_wins)
                                .unwrap_or(f.black)
                        }),
                        Decider::Lot => {
                            if self.lot(self.games.len(), 2) {
                                self.high
                            } else {
                                self.low
                            }
                        }
                    });
                    c.by = Some(d);
                    break;
                }
                if step.kind == GameKind::Armageddon {
                    // Only reached when a drawn armageddon does not advance black: the
                    // armageddon is played again (colours swapped, see `next_game`).
                } else {
                    c.step += 1;
                }
                if c.step == self.format.steps.len() {
                    // validate() guarantees a loop here: a final armageddon always decides
                    // or repeats itself.
                    c.step = self.format.repeat_from.unwrap_or(0);
                }
                c.in_step = 0;
                c.points = (0, 0);
            }
        }
        c
    }

    /// The winner once the match is decided.
    pub fn winner(&self) -> Option<PlayerNo> {
        self.cursor().winner
    }
    pub fn loser(&self) -> Option<PlayerNo> {
        self.winner().map(|w| self.other(w))
    }
    pub fn is_decided(&self) -> bool {
        self.winner().is_some()
    }
    /// The format's rule that settled the match when its games left it level (a lot, the
    /// higher seed, black of the last game); `None` while undecided or decided by a game.
    pub fn decided_by(&self) -> Option<Decider> {
        self.cursor().by
    }

    fn lot(&self, index: usize, salt: u64) -> bool {
        let seed = self
            .settings
            .lot_seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add((index as u64) << 8 | salt);
        ChaCha8Rng::seed_from_u64(seed).gen::<bool>()
    }

    /// Who chooses colours in the next game (None if the rule gives no choice or the match is
    /// decided).
    fn chooser_for(&self, rule: ColourRule, index: usize) -> Option<PlayerNo> {
        match rule {
            ColourRule::HigherSeedChooses => Some(self.high),
            ColourRule::OtherThanFirstChooser => {
                Some(match self.games.first().and_then(|g| g.chooser) {
                    Some(c) => self.other(c),
                    None => self.high,
                })
            }
            ColourRule::PreviousBlackChooses => {
                Some(self.games.last().map_or(self.high, |g| g.black))
            }
            ColourRule::LotDecidesChooser => Some(if self.lot(index, 1) {
                self.high
            } else {
                self.low
            }),
            ColourRule::Lot | ColourRule::SwapPrevious => None,
        }
    }

    /// The next game the match needs; `None` once decided.
    pub fn next_game(&self) -> Option<NextGame> {
        let c = self.cursor();
        if c.winner.is_some() {
            return None;
        }
        let step = &self.format.steps[c.step];
        let index = self.games.len();
        let swapped = |g: &MatchGame| (g.black, g.red);
        let lot = || {
            if self.lot(index, 0) {
                (self.high, self.low)
            } else {
                (self.low, self.high)
            }
        };
        let replayed_armageddon = step.kind == GameKind::Armageddon
            && self
                .games
                .last()
                .is_some_and(|g| g.kind == GameKind::Armageddon);
        let (red, black, chooser) = if c.in_step > 0 || replayed_armageddon {
            let (r, b) = self.games.last().map_or_else(lot, swapped);
            (r, b, None)
        } else {
            match step.colours {
                ColourRule::Lot => {
                    let (r, b) = lot();
                    (r, b, None)
                }
                ColourRule::SwapPrevious => {
                    let (r, b) = self.games.last().map_or_else(lot, swapped);
                    (r, b, None)
                }
                rule => {
                    let chooser = self.chooser_for(rule, index).unwrap_or(self.high);
                    let colour = match self.pending_choice {
                        Some((p, col)) if p == chooser => col,
                        _ => self.settings.chooser_default,
                    };
                    let other = self.other(chooser);
                    match colour {
                        Colour::Red => (chooser, other, Some(chooser)),
                        Colour::Black => (other, chooser, Some(chooser)),
                    }
                }
            }
        };
        Some(NextGame {
            index,
            kind: step.kind,
            red,
            black,
            chooser,
            step: c.step,
        })
    }

    /// Records the chooser's colour for the next game. Errors when the match is decided, the
    /// next game gives no choice, or `player` is not the chooser.
    pub fn choose_colour(&mut self, player: PlayerNo, colour: Colour) -> Result<(), KnockoutError> {
        let next = self.next_game().ok_or(KnockoutError::MatchDecided)?;
        match next.chooser {
            None => Err(KnockoutError::NoChoice { index: next.index }),
            Some(c) if c != player => Err(KnockoutError::NotChooser { player, chooser: c }),
            Some(c) => {
                self.pending_choice = Some((c, colour));
                Ok(())
            }
        }
    }

    /// Records the result of game `index` (which must be the next game). A forfeit decides
    /// the game; a double forfeit cannot decide a knockout game and is refused.
    pub fn record_game(&mut self, index: usize, result: GameResult) -> Result<(), KnockoutError> {
        let next = self.next_game().ok_or(KnockoutError::MatchDecided)?;
        if index != next.index {
            return Err(KnockoutError::NotNextGame {
                expected: next.index,
                got: index,
            });
        }
        if result == GameResult::DoubleForfeit {
            return Err(KnockoutError::DoubleForfeit);
        }
        self.games.push(MatchGame {
            kind: next.kind,
            red: next.red,
            black: next.black,
            chooser: next.chooser,
            result,
            step: next.step,
        });
        self.pending_choice = None;
        Ok(())
    }
}
