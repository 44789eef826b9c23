//! Match formats (rules.md Part B §6.2, K1–K6) as data.
//!
//! A format is a list of [`Step`]s played in order; a step is one or more games of one
//! time-control class, scored 2/1/0 per game. A step ends as soon as its leader can no longer
//! be caught (so a one-game step ends on a decisive game and a two-game mini-match ends after
//! both games unless a side leads). A level step passes to the next step; after the last step
//! the format repeats from `repeat_from` (K4, K6) — a format without a loop must end with a
//! one-game armageddon, where a draw counts as a black win for the match — or name a
//! [`Decider`], the rule that settles a match still level after its last step (the higher seed,
//! black of the last game, or a lot).
//!
//! A regulation may write its own format as game blocks (`[[format.knockout.blocks]]`): each
//! block is a [`Step`] with the file's own name and time control for its games, and whether it
//! stops as soon as it is decided.

use crate::KnockoutError;
use arbiter_types::GameKind;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How the colours of the first game of a step are decided (later games of the same step
/// swap colours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourRule {
    /// The higher seed (better stage-1 rank) chooses its colour (input
    /// [`crate::Match::choose_colour`], otherwise the match setting `chooser_default`).
    HigherSeedChooses,
    /// The player who did not choose in the first game chooses; the higher seed when nobody
    /// chose in the first game (K1, K3 armageddon).
    OtherThanFirstChooser,
    /// The player who had black in the previous game chooses (K2 armageddon).
    PreviousBlackChooses,
    /// A lot (seeded) decides who chooses (K5 armageddon).
    LotDecidesChooser,
    /// Colours by lot (猜先), from the match's seed.
    Lot,
    /// Colours swapped from the previous game (by lot when there is no previous game).
    SwapPrevious,
}

impl ColourRule {
    /// Whether a player chooses the colours under this rule.
    pub fn has_chooser(self) -> bool {
        matches!(
            self,
            ColourRule::HigherSeedChooses
                | ColourRule::OtherThanFirstChooser
                | ColourRule::PreviousBlackChooses
                | ColourRule::LotDecidesChooser
        )
    }

    pub fn zh(self) -> &'static str {
        match self {
            ColourRule::HigherSeedChooses => "名次列前者选择先后手",
            ColourRule::OtherThanFirstChooser => "首局未选择者选择先后手",
            ColourRule::PreviousBlackChooses => "上局执黑者选择先后手",
            ColourRule::LotDecidesChooser => "抽签决定选择权",
            ColourRule::Lot => "猜先",
            ColourRule::SwapPrevious => "交换先后手",
        }
    }
}

/// One step of a format: `games` games of `kind`; the first game's colours by `colours`,
/// later games of the step swapped.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    pub kind: GameKind,
    pub games: u8,
    pub colours: ColourRule,
    /// The step ends as soon as its leader can no longer be caught (default); when false,
    /// every game of the step is played and the step is scored after the last.
    #[serde(default = "yes")]
    pub stop_when_decided: bool,
    /// The regulation's own name of the games' kind (「快棋」 for a 6′+3″ game), printed
    /// instead of the class name of `kind`.
    #[serde(default)]
    pub name: Option<String>,
    /// The printed time control of this step's games (`"6′+3″"`), when the regulation gives
    /// one per step; otherwise [`MatchFormat::time_control`] of `kind`.
    #[serde(default)]
    pub time_control: Option<String>,
}

fn yes() -> bool {
    true
}

impl Step {
    pub fn single(kind: GameKind, colours: ColourRule) -> Step {
        Step::block(kind, 1, colours)
    }

    /// `games` games of `kind`, stopping when decided, with no name of its own.
    pub fn block(kind: GameKind, games: u8, colours: ColourRule) -> Step {
        Step {
            kind,
            games,
            colours,
            stop_when_decided: true,
            name: None,
            time_control: None,
        }
    }
}

/// What settles a match still level after its last step (a format without a loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    /// The higher seed goes through.
    HigherSeed,
    /// The player who had black in the last game goes through (和棋黑胜).
    LastGameBlack,
    /// The player who had black in the match's first game goes through (「若第一局和棋，则
    /// 后手胜出」).
    FirstGameBlack,
    /// The winner of the match's first game goes through; a drawn first game sends its black
    /// through (「以第一局胜者胜出，若第一局和棋，则后手胜出」).
    FirstGameWinner,
    /// A lot drawn from the match's seed (抽签决定胜负).
    Lot,
}

impl Decider {
    pub fn zh(self) -> &'static str {
        match self {
            Decider::HigherSeed => "仍平则名次列前者(种子在前者)胜出",
            Decider::LastGameBlack => "仍平则末局执黑者胜出",
            Decider::FirstGameBlack => "仍平则第一局执黑者(后手)胜出",
            Decider::FirstGameWinner => "仍平则第一局胜者胜出，第一局和棋则其后手胜出",
            Decider::Lot => "仍平则抽签决定胜负",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            Decider::HigherSeed => "still level: the higher seed goes through",
            Decider::LastGameBlack => "still level: black of the last game goes through",
            Decider::FirstGameBlack => "still level: black of the first game goes through",
            Decider::FirstGameWinner => {
                "still level: the first game's winner goes through (its black if it was drawn)"
            }
            Decider::Lot => "still level: a lot decides",
        }
    }
}

/// The formats listed in the 2020 rules §30.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FormatCode {
    K1,
    K2,
    K3,
    K4,
    K5,
    K6,
}

impl FormatCode {
    pub const ALL: [FormatCode; 6] = [
        FormatCode::K1,
        FormatCode::K2,
        FormatCode::K3,
        FormatCode::K4,
        FormatCode::K5,
        FormatCode::K6,
    ];
}

impl fmt::Display for FormatCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A match format: steps in order, optionally repeating from `repeat_from` until decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchFormat {
    /// A short name for documents ("K1", or the regulation's own name).
    pub name: String,
    pub steps: Vec<Step>,
    /// Index into `steps` where play resumes after the last step ends level.
    #[serde(default)]
    pub repeat_from: Option<usize>,
    /// Time control per game kind as printed by the regulation (labels only, e.g.
    /// `(Slow, "20′+5″")`); the state machine does not use them.
    #[serde(default)]
    pub time_controls: Vec<(GameKind, String)>,
    /// What settles a match level after the last step when the format has no loop
    /// (`repeat_from`) — a final armageddon whose draw does not advance black included.
    #[serde(default)]
    pub decider: Option<Decider>,
}

impl MatchFormat {
    /// K1: slow game; drawn → rapid with colours swapped; drawn → armageddon.
    /// `slow` is the slow game's colour rule (K7: [`ColourRule::HigherSeedChooses`], T3:
    /// [`ColourRule::Lot`]); `armageddon` is the armageddon's (rules: the player who did not
    /// choose in the slow game, [`ColourRule::OtherThanFirstChooser`]; K7: the higher seed).
    pub fn k1(slow: ColourRule, armageddon: ColourRule) -> MatchFormat {
        MatchFormat {
            name: "K1".into(),
            steps: vec![
                Step::single(GameKind::Slow, slow),
                Step::single(GameKind::Rapid, ColourRule::SwapPrevious),
                Step::single(GameKind::Armageddon, armageddon),
            ],
            repeat_from: None,
            time_controls: Vec::new(),
            decider: None,
        }
    }

    /// K2: slow → rapid → super-rapid (colours swapped each time) → armageddon, chosen by
    /// the player who had black in the super-rapid game.
    pub fn k2(slow: ColourRule) -> MatchFormat {
        MatchFormat {
            name: "K2".into(),
            steps: vec![
                Step::single(GameKind::Slow, slow),
                Step::single(GameKind::Rapid, ColourRule::SwapPrevious),
                Step::single(GameKind::Blitz, ColourRule::SwapPrevious),
                Step::single(GameKind::Armageddon, ColourRule::PreviousBlackChooses),
            ],
            repeat_from: None,
            time_controls: Vec::new(),
            decider: None,
        }
    }

    /// K3: slow → rapid → super-rapid → super-rapid (colours swapped each time) → armageddon
    /// (chosen as in K1).
    pub fn k3(slow: ColourRule, armageddon: ColourRule) -> MatchFormat {
        MatchFormat {
            name: "K3".into(),
            steps: vec![
                Step::single(GameKind::Slow, slow),
                Step::single(GameKind::Rapid, ColourRule::SwapPrevious),
                Step::single(GameKind::Blitz, ColourRule::SwapPrevious),
                Step::single(GameKind::Blitz, ColourRule::SwapPrevious),
                Step::single(GameKind::Armageddon, armageddon),
            ],
            repeat_from: None,
            time_controls: Vec::new(),
            decider: None,
        }
    }

    /// K4: slow → rapid → super-rapid, colours swapped each time; the super-rapid game
    /// repeats (colours swapped) until a game is decisive.
    pub fn k4(slow: ColourRule) -> MatchFormat {
        MatchFormat {
            name: "K4".into(),
            steps: vec![
                Step::single(GameKind::Slow, slow),
                Step::single(GameKind::Rapid, ColourRule::SwapPrevious),
                Step::single(GameKind::Blitz, ColourRule::SwapPrevious),
            ],
            repeat_from: Some(2),
            time_controls: Vec::new(),
            decider: None,
        }
    }

    /// K5: two-game slow mini-match (game 1 by lot, game 2 swapped); level → super-rapid
    /// (by lot); drawn → super-rapid with colours swapped; drawn → armageddon, the chooser
    /// decided by lot.
    pub fn k5() -> MatchFormat {
        MatchFormat {
            name: "K5".into(),
            steps: vec![
                Step::block(GameKind::Slow, 2, ColourRule::Lot),
                Step::single(GameKind::Blitz, ColourRule::Lot),
                Step::single(GameKind::Blitz, ColourRule::SwapPrevious),
                Step::single(GameKind::Armageddon, ColourRule::LotDecidesChooser),
            ],
            repeat_from: None,
            time_controls: Vec::new(),
            decider: None,
        }
    }

    /// K6: two-game slow mini-match; level → super-rapid (by lot); on a draw the colours
    /// swap and super-rapid games continue until one is decisive.
    pub fn k6() -> MatchFormat {
        MatchFormat {
            name: "K6".into(),
            steps: vec![
                Step::block(GameKind::Slow, 2, ColourRule::Lot),
                Step::single(GameKind::Blitz, ColourRule::Lot),
                Step::single(GameKind::Blitz, ColourRule::SwapPrevious),
            ],
            repeat_from: Some(2),
            time_controls: Vec::new(),
            decider: None,
        }
    }

    /// The preset for `code` with the rules' default colour rules (slow game by lot, §6.1;
    /// armageddon chosen by the player who did not choose first).
    pub fn preset(code: FormatCode) -> MatchFormat {
        match code {
            FormatCode::K1 => MatchFormat::k1(ColourRule::Lot, ColourRule::OtherThanFirstChooser),
            FormatCode::K2 => MatchFormat::k2(ColourRule::Lot),
            FormatCode::K3 => MatchFormat::k3(ColourRule::Lot, ColourRule::OtherThanFirstChooser),
            FormatCode::K4 => MatchFormat::k4(ColourRule::Lot),
            FormatCode::K5 => MatchFormat::k5(),
            FormatCode::K6 => MatchFormat::k6(),
        }
    }

    /// Sets the printed time control of `kind` (builder style).
    pub fn with_time_control(mut self, kind: GameKind, label: impl Into<String>) -> MatchFormat {
        self.time_controls.retain(|(k, _)| *k != kind);
        self.time_controls.push((kind, label.into()));
        self
    }

    /// The printed time control of `kind`, if the regulation gives one.
    pub fn time_control(&self, kind: GameKind) -> Option<&str> {
        self.time_controls
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, l)| l.as_str())
    }

    /// How a game of step `step` is printed: the step's own name or the class name of
    /// `kind`, then its time control when known (`快棋 6′+3″`, `慢棋`).
    pub fn game_label(&self, step: usize, kind: GameKind) -> String {
        let s = self.steps.get(step).filter(|s| s.kind == kind);
        let name = s
            .and_then(|s| s.name.as_deref())
            .unwrap_or_else(|| kind.zh());
        let tc = s
            .and_then(|s| s.time_control.as_deref())
            .or_else(|| self.time_control(kind));
        match tc {
            Some(tc) => format!("{name}{tc}"),
            None => name.to_string(),
        }
    }

    /// Checks that the format can always be played to a decision.
    pub fn validate(&self) -> Result<(), KnockoutError> {
        let bad = |why: &str| {
            Err(KnockoutError::InvalidFormat {
                name: self.name.clone(),
                why: why.into(),
            })
        };
        if self.steps.is_empty() {
            return bad("没有任何对局 (no steps)");
        }
        if self.steps.iter().any(|s| s.games == 0) {
            return bad("某一阶段的局数为0 (a step has zero games)");
        }
        match self.repeat_from {
            Some(i) if i >= self.steps.len() => bad("循环起点超出范围 (repeat_from out of range)"),
            Some(_) if self.decider.is_some() => {
                bad("循环与决胜规则不能同时设置 (a loop and a decider together)")
            }
            Some(_) => Ok(()),
            None if self.decider.is_some() => Ok(()),
            None => {
                let last = &self.steps[self.steps.len() - 1];
                if last.kind == GameKind::Armageddon && last.games == 1 {
                    Ok(())
                } else {
                    bad("最后一局须为附加赛或设置循环 (must end with one armageddon game or repeat)")
                }
            }
        }
    }
}
