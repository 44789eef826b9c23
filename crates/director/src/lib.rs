//! The director (裁判长的流程): runs an event by its regulation — registration, pairing each
//! round, results, knockouts, standings, prizes — as log entries, and builds the published
//! export (`arbiter-export/1`).
//!
//! Every procedure takes the folded [`EventState`] (and the [`Regulation`]) and returns the
//! [`LogEntry`]s to append; the shell appends them through the store. The step function
//! [`next_step`] says what the arbiter has to do next in a section.
//!
//! Invariant: pure. No files, no printing, no clocks; randomness only from explicit seeds.

pub mod api;
pub mod bracket_view;
pub mod claim;
pub mod command;
pub mod crosstable;
pub mod export;
pub mod final_standings;
pub mod grade_awards;
pub mod groups;
pub mod history;
pub mod knockout_stage;
pub mod log_view;
pub mod manual;
pub mod permission;
pub mod plan;
pub mod prizes;
pub mod publish;
pub mod refusal;
pub mod registration;
pub mod results;
pub mod round;
pub mod standings;
pub mod standings_view;
pub mod step;
pub mod team_match;
pub mod text;
pub mod trf_export;
pub mod verify;

pub use export::Export;
pub use plan::{section_plan, SectionPlan};
pub use publish::export;
pub use refusal::Refusal;
pub use step::{next_step, Step};
pub use verify::{verify, Difference};

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_regulation::Regulation;
use std::sync::Arc;

/// Why the director cannot go on. Chinese first, then English.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DirectorError {
    #[error("未知组别 「{0}」 (unknown section)")]
    UnknownSection(String),
    #[error("赛事尚未创建 (no event in the log)")]
    NoEvent,
    /// The regulation recorded in the log no longer parses: where and why, located.
    #[error("规程无法解析: {0} (the regulation in the log does not parse)")]
    Regulation(arbiter_regulation::RegulationError),
    #[error("{section} 第{round}轮无法编排: {cause}")]
    Pairing {
        section: String,
        round: u32,
        cause: PairingFailure,
    },
    #[error("{section} 名次计算失败: {cause} (standings failed)")]
    Standings {
        section: String,
        cause: StandingsFailure,
    },
    #[error("{section} 淘汰赛错误: {cause} (knockout error)")]
    Knockout {
        section: String,
        cause: KnockoutFailure,
    },
    /// The prize tables cannot be allocated on the rankings (typed: the table, the entry and
    /// what is wrong).
    #[error("奖项分配失败: {0} (prize allocation failed)")]
    Prizes(arbiter_standings::prize::PrizeError),
    /// The log's own rules (the store, or a fold of the entries) refused an entry.
    #[error("日志条目被拒绝: {0} (log entry rejected)")]
    Rejected(arbiter_core::Rejection),
    /// An operation of the arbiter's API refused, with the facts ([`refusal`]); boxed, so
    /// that every `Result` of the API stays small.
    #[error("{0}")]
    Refused(Box<Refusal>),
    /// A log entry could not be serialised to be checked (a defect, not the arbiter's).
    #[error("日志条目无法序列化: {0} (a log entry does not serialise)")]
    Serialise(String),
    /// A text field refused ([`text`]): control or bidi characters, or too long.
    #[error("{0}")]
    Text(text::TextError),
    /// The actor's role may not take the action ([`permission`]).
    #[error("{}只能由{}进行, 当前身份是{} ({}: only the {}; acting as {})", action.zh(), allowed_zh(action.allowed()), role.zh(), action.en(), allowed_en(action.allowed()), role.as_str())]
    NotAllowed {
        action: permission::Action,
        role: arbiter_types::Role,
    },
    /// The action needs a reason in words and none was given.
    #[error("{}须说明理由 ({} needs a reason)", .0.zh(), .0.en())]
    ReasonMissing(permission::Action),
}

/// Why a round cannot be paired: the engine's own error, or a pairing number that the
/// section's order does not have (a defect of the log, not the arbiter's).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingFailure {
    #[error("{0}")]
    Engine(arbiter_pairing::PairingError),
    #[error("序号 {0} 不存在 (no such number)")]
    NoSuchNumber(arbiter_types::PlayerNo),
}

/// Why standings cannot be computed: the individual table, the team table or the
/// association table, each with its engine's error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingsFailure {
    #[error("{0}")]
    Table(arbiter_standings::StandingsError),
    #[error("{0}")]
    Teams(arbiter_standings::team::TeamError),
    #[error("{0}")]
    Associations(arbiter_standings::association::AssociationError),
}

/// Why the knockout bracket cannot be built or replayed from the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutFailure {
    /// The knockout engine refused (the bracket, a colour choice, a result).
    #[error("{0}")]
    Bracket(arbiter_knockout::KnockoutError),
    /// The engine refused the next game of a recorded match.
    #[error("{match_id}: {error}")]
    Match {
        match_id: String,
        error: arbiter_knockout::KnockoutError,
    },
    /// The log records a game of a match already decided.
    #[error("对局 {match_id} 已决出, 不需要第{}局 (game not needed)", game + 1)]
    GameNotNeeded { match_id: String, game: u32 },
    /// The log records a game other than the one the match format calls for.
    #[error("对局 {match_id} 第{}局与赛制不符: 应为 {red}号(红) 对 {black}号(黑) {} (game does not match the match format)", game + 1, kind.zh())]
    GameMismatch {
        match_id: String,
        game: u32,
        red: arbiter_types::PlayerNo,
        black: arbiter_types::PlayerNo,
        kind: arbiter_types::GameKind,
    },
    /// A match the bracket does not have.
    #[error("{0}: 不在对阵表中 (not in the bracket)")]
    NotInBracket(String),
    /// A seed number the section's order does not have.
    #[error("序号 {0} 不存在 (no such number)")]
    NoSuchNumber(arbiter_types::PlayerNo),
}

impl DirectorError {
    /// The error as a shell shows it: the director's own words, then the shell's `hint` (the
    /// CLI's flag, the desk's field or page) where it has one.
    pub fn worded(&self, hint: Option<&str>) -> String {
        match hint {
            Some(h) => format!("{self}; {h}"),
            None => self.to_string(),
        }
    }
}

/// The regulation's section `id` and its record in the event, or [`DirectorError::UnknownSection`].
pub fn section_parts<'a>(
    reg: &'a arbiter_regulation::Regulation,
    state: &'a arbiter_core::EventState,
    id: &str,
) -> Result<
    (
        &'a arbiter_regulation::Section,
        &'a arbiter_core::SectionRecord,
    ),
    DirectorError,
> {
    match (reg.section(id), state.section(id)) {
        (Some(sec), Some(rec)) => Ok((sec, rec)),
        _ => Err(DirectorError::UnknownSection(id.to_string())),
    }
}

fn allowed_zh(roles: &[arbiter_types::Role]) -> String {
    roles.iter().map(|r| r.zh()).collect::<Vec<_>>().join("或")
}

fn allowed_en(roles: &[arbiter_types::Role]) -> String {
    roles
        .iter()
        .map(|r| r.as_str().replace('_', " "))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The regulation recorded in the log's `event_created` entry.
pub fn regulation_of(state: &EventState) -> Result<Arc<Regulation>, DirectorError> {
    state.regulation().map_err(|e| match e {
        arbiter_core::RegulationError::NoEvent => DirectorError::NoEvent,
        arbiter_core::RegulationError::Parse(m) => DirectorError::Regulation(m),
    })
}

/// File stem of the regulation (`kunshan-2026.toml` → `kunshan-2026`).
pub fn regulation_stem(state: &EventState) -> String {
    let f = state.header.as_ref().map_or("", |h| h.file_name.as_str());
    let base = f.rsplit(['/', '\\']).next().unwrap_or(f);
    base.strip_suffix(".toml").unwrap_or(base).to_string()
}

/// Apply `entries` to a scratch copy of the state (the way the store would), so that a batch
/// can be checked entry by entry before it is appended.
pub fn apply_scratch(
    state: &mut EventState,
    entry: &LogEntry,
    at: &str,
) -> Result<(), DirectorError> {
    apply_scratch_owned(state, entry.clone(), at).map(|_| ())
}

/// [`apply_scratch`] of an entry the caller hands over: folded without a copy, and handed
/// back once it passes.
pub fn apply_scratch_owned(
    state: &mut EventState,
    entry: LogEntry,
    at: &str,
) -> Result<LogEntry, DirectorError> {
    let r = Recorded {
        seq: state.last_seq + 1,
        at: at.to_string(),
        actor: "director".into(),
        entry,
    };
    state.apply(&r).map_err(|e| match e {
        arbiter_core::FoldError::Rejected { rejection, .. } => DirectorError::Rejected(rejection),
        arbiter_core::FoldError::Sequence { .. } => crate::Refusal::Busy { attempts: 1 }.into(),
    })?;
    Ok(r.entry)
}

/// What [`apply_scratch`] answers for `entry`, without folding it: a caller that needs only
/// to know whether the entry passes makes no copy of the state.
pub fn check_scratch(state: &EventState, entry: &LogEntry, at: &str) -> Result<(), DirectorError> {
    state.check_next(entry, at).map_err(DirectorError::Rejected)
}

/// A seed derived from the event seed and a label (stable across runs and platforms).
pub fn derive_seed(seed: u64, label: &str) -> u64 {
    // FNV-1a over the label, mixed with the seed (splitmix64 finaliser).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut z = seed ^ h;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
