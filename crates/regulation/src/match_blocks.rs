//! A knockout match written as data: game blocks, then what ends a match still level.
//!
//! ```toml
//! [[sections.format.knockout.time_controls]]
//! name = "快棋"                 # the file's own name of this kind of game
//! kind = "rapid"
//! minutes = 6
//! increment_seconds = 3
//!
//! [[sections.format.knockout.blocks]]
//! games = 2                     # two games, colours swapped after the first
//! time_control = "快棋"
//! colours = "lot"
//!
//! [sections.format.knockout.ending]
//! rule = "armageddon"           # or draw_black_wins, first_game_black, first_game_winner,
//!                                  # higher_seed, lot, repeat
//! time_control = "超时快棋"
//! draw = "black_wins"
//! ```
//!
//! The presets K1–K6 (`match_format`) stay; a file gives either a preset or blocks.

use crate::model::{Knockout, TimeControl};
use serde::Deserialize;

/// One block of games of the same kind: `games` games, the first one's colours by `colours`,
/// the later ones swapped; by default the block stops as soon as it is decided.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameBlock {
    /// Number of games (1–9).
    pub games: u8,
    /// The name of one of the knockout's `time_controls` (its `name`, or for an unnamed one
    /// its class: `慢棋`/`slow`, `快棋`/`rapid`, `超快棋`/`blitz`).
    pub time_control: String,
    /// Colours of the block's first game; default: by lot for the first block, swapped from
    /// the previous game for the others.
    #[serde(default)]
    pub colours: Option<BlockColours>,
    /// Stop as soon as the block's leader cannot be caught (default); `false` plays every
    /// game of the block.
    #[serde(default = "yes")]
    pub stop_when_decided: bool,
}

fn yes() -> bool {
    true
}

/// How the colours of a block's first game are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockColours {
    /// 猜先: colours by lot.
    Lot,
    /// Swapped from the previous game.
    Swap,
    /// The higher seed chooses.
    HigherSeedChooses,
    /// The player who did not choose in the match's first game chooses.
    OtherThanFirstChooser,
    /// The player who had black in the previous game chooses.
    PreviousBlackChooses,
    /// A lot decides who chooses.
    LotDecidesChooser,
}

impl BlockColours {
    pub fn zh(self) -> &'static str {
        match self {
            BlockColours::Lot => "猜先",
            BlockColours::Swap => "交换先后手",
            BlockColours::HigherSeedChooses => "种子在前者选先后手",
            BlockColours::OtherThanFirstChooser => "首局未选者选先后手",
            BlockColours::PreviousBlackChooses => "上局执黑者选先后手",
            BlockColours::LotDecidesChooser => "抽签决定选择权",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            BlockColours::Lot => "colours by lot",
            BlockColours::Swap => "colours swapped",
            BlockColours::HigherSeedChooses => "higher seed chooses",
            BlockColours::OtherThanFirstChooser => "the first game's non-chooser chooses",
            BlockColours::PreviousBlackChooses => "previous black chooses",
            BlockColours::LotDecidesChooser => "a lot decides who chooses",
        }
    }
}

/// What ends a match the blocks leave level.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub rule: EndingRule,
    /// `armageddon` only: the armageddon's time control (a name as in a block).
    #[serde(default)]
    pub time_control: Option<String>,
    /// `armageddon` only: who has which colour (default: the player who did not choose in
    /// the first game chooses; the higher seed when nobody chose).
    #[serde(default)]
    pub colours: Option<BlockColours>,
    /// `armageddon` only: what a drawn armageddon means (default `black_wins`).
    #[serde(default)]
    pub draw: Option<ArmageddonDraw>,
}

impl Ending {
    /// Whether a drawn armageddon advances black.
    pub fn draw_black_wins(&self) -> bool {
        self.rule == EndingRule::Armageddon
            && self.draw.unwrap_or(ArmageddonDraw::BlackWins) == ArmageddonDraw::BlackWins
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndingRule {
    /// One armageddon game (附加赛 / 超时快棋).
    Armageddon,
    /// No more games: the player who had black in the last game goes through (和棋黑胜).
    DrawBlackWins,
    /// No more games: the player who had black in the match's first game goes through
    /// (「若第一局和棋，则后手胜出」: with one game of one block, a drawn first game is black's;
    /// with more, a match still level after its blocks goes to the first game's black).
    FirstGameBlack,
    /// No more games: the winner of the match's first game goes through, its black if it was
    /// drawn (「以第一局胜者胜出，若第一局和棋，则后手胜出」).
    FirstGameWinner,
    /// No more games: the higher seed goes through.
    HigherSeed,
    /// No more games: a lot decides (抽签决定胜负), drawn from the event's recorded seed.
    Lot,
    /// The last block is played again until a block is decided.
    Repeat,
}

/// A drawn armageddon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmageddonDraw {
    /// Black goes through (A8).
    BlackWins,
    /// The higher seed goes through.
    HigherSeed,
    /// The armageddon is played again with colours swapped until one is decisive.
    Replay,
    /// A lot decides (附加赛和棋抽签决定胜负), drawn from the event's recorded seed.
    Lot,
}

impl Knockout {
    /// The time control a block or the ending names.
    pub fn time_control_named(&self, name: &str) -> Option<&TimeControl> {
        self.time_controls.iter().find(|t| t.answers_to(name))
    }

    /// The colours of block `i`'s first game (default: lot for the first, swap after).
    pub fn block_colours(&self, i: usize) -> BlockColours {
        self.blocks
            .get(i)
            .and_then(|b| b.colours)
            .unwrap_or(if i == 0 {
                BlockColours::Lot
            } else {
                BlockColours::Swap
            })
    }

    /// The match written as blocks, in words: `快棋(6′+3″)2局，猜先；超时快棋(红5′黑3′)，和棋黑胜`.
    /// `None` for a preset.
    pub fn blocks_text(&self, zh: bool) -> Option<String> {
        let ending = self.ending.as_ref().filter(|_| self.has_blocks())?;
        let tc = |name: &str| match self.time_control_named(name) {
            Some(t) => format!("{}({})", t.display_name(), t.short()),
            None => name.to_string(),
        };
        let mut parts: Vec<String> = self
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let c = self.block_colours(i);
                let all = if b.games > 1 && !b.stop_when_decided {
                    if zh {
                        "，局数下满"
                    } else {
                        ", all games played"
                    }
                } else {
                    ""
                };
                if zh {
                    format!("{}{}局，{}{all}", tc(&b.time_control), b.games, c.zh())
                } else {
                    format!("{} × {}, {}{all}", b.games, tc(&b.time_control), c.en())
                }
            })
            .collect();
        let end = match ending.rule {
            EndingRule::Armageddon => {
                let name = ending.time_control.as_deref().map(tc).unwrap_or_default();
                let colours = ending
                    .colours
                    .unwrap_or(BlockColours::OtherThanFirstChooser);
                let draw = match (zh, ending.draw.unwrap_or(ArmageddonDraw::BlackWins)) {
                    (true, ArmageddonDraw::BlackWins) => "和棋黑胜",
                    (true, ArmageddonDraw::HigherSeed) => "和棋种子在前者胜出",
                    (true, ArmageddonDraw::Replay) => "和棋换先重赛",
                    (true, ArmageddonDraw::Lot) => "和棋抽签决定胜负",
                    (false, ArmageddonDraw::BlackWins) => "draw = black wins",
                    (false, ArmageddonDraw::HigherSeed) => "draw = the higher seed",
                    (false, ArmageddonDraw::Replay) => "draw = replayed, colours swapped",
                    (false, ArmageddonDraw::Lot) => "draw = a lot decides",
                };
                if zh {
                    format!("仍平加赛{name}一局，{}，{draw}", colours.zh())
                } else {
                    format!("still level: armageddon {name}, {}, {draw}", colours.en())
                }
            }
            EndingRule::DrawBlackWins => (if zh {
                "仍平则末局执黑者胜出"
            } else {
                "still level: black of the last game goes through"
            })
            .into(),
            EndingRule::FirstGameBlack => (if zh {
                "仍平则第一局执黑者(后手)胜出"
            } else {
                "still level: black of the first game goes through"
            })
            .into(),
            EndingRule::FirstGameWinner => (if zh {
                "仍平则第一局胜者胜出，第一局和棋则其后手胜出"
            } else {
                "still level: the first game's winner goes through (its black if it was drawn)"
            })
            .into(),
            EndingRule::HigherSeed => (if zh {
                "仍平则种子在前者胜出"
            } else {
                "still level: the higher seed goes through"
            })
            .into(),
            EndingRule::Lot => (if zh {
                "仍平则抽签决定胜负"
            } else {
                "still level: a lot decides"
            })
            .into(),
            EndingRule::Repeat => (if zh {
                "仍平则重复最后一段直至分出胜负"
            } else {
                "still level: the last block again until decided"
            })
            .into(),
        };
        parts.push(end);
        Some(parts.join(if zh { "；" } else { "; " }))
    }
}
