//! The director's command table (指令表): every write of an event is one typed [`Command`],
//! and [`decide`] is the only way to turn one into log entries. Each shell — the CLI, the
//! desk, the online form, the importer, the simulator — builds a command from its input and
//! hands it to [`crate::api::write::apply`]; none builds a log entry itself.
//!
//! `decide` does the same three things for every command, in this order:
//!
//! 1. **Authority**: the command's [`Action`] ([`Command::action`]) against the actor's role,
//!    from the one table in [`crate::permission`] (an operation may ask for a further action
//!    on the way: a late entry, a correction after confirmation …).
//! 2. **The operation's body**: the family's rules ([`crate::api`]), which give the entries
//!    and a typed [`Outcome`] — what was paid and what is still owed, what was paired and why —
//!    that each shell words.
//! 3. **[`finish`]**: the text rule on every entry ([`crate::text`]), then the log's own rules
//!    ([`arbiter_core::validate_at`]) entry by entry on a scratch fold, so a refusal is typed
//!    before anything is appended.
//!
//! The commands are grouped by family as `arbiter_core::family` is: [`money`],
//! [`registration`], [`games`] (results, records, fouls, protests, signatures), [`rounds`]
//! and [`event`] (closing, reopening, settings, organisers' awards).

pub mod event;
pub mod games;
pub mod money;
pub mod registration;
pub mod rounds;

use crate::api::Ctx;
use crate::permission::{self, Action};
use crate::refusal::Refusal;
use crate::DirectorError;
use arbiter_core::{validate_at, EventState, FoldError, FoulKind, LogEntry, Recorded};

/// One write of an event, with everything it needs.
#[derive(Debug, Clone)]
pub enum Command {
    Money(money::MoneyCommand),
    Registration(registration::RegistrationCommand),
    Games(games::GameCommand),
    Rounds(rounds::RoundCommand),
    Event(event::EventCommand),
}

impl Command {
    /// The action the command is (its base authority; the body may require more).
    pub fn action(&self) -> Action {
        match self {
            Command::Money(c) => c.action(),
            Command::Registration(c) => c.action(),
            Command::Games(c) => c.action(),
            Command::Rounds(c) => c.action(),
            Command::Event(c) => c.action(),
        }
    }
}

impl From<money::MoneyCommand> for Command {
    fn from(c: money::MoneyCommand) -> Self {
        Command::Money(c)
    }
}
impl From<registration::RegistrationCommand> for Command {
    fn from(c: registration::RegistrationCommand) -> Self {
        Command::Registration(c)
    }
}
impl From<games::GameCommand> for Command {
    fn from(c: games::GameCommand) -> Self {
        Command::Games(c)
    }
}
impl From<rounds::RoundCommand> for Command {
    fn from(c: rounds::RoundCommand) -> Self {
        Command::Rounds(c)
    }
}
impl From<event::EventCommand> for Command {
    fn from(c: event::EventCommand) -> Self {
        Command::Event(c)
    }
}

/// What a command decided: the entries to append and what happened, typed.
#[derive(Debug, Clone)]
pub struct Decision {
    pub entries: Vec<LogEntry>,
    pub outcome: Outcome,
}

/// What a decided command did, for the shells to word.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Recorded as asked; the command itself says what.
    Recorded,
    /// A command about one player: him as the desk names him (「P3 张三」), and the
    /// withdrawal the regulation made of it (an absence without leave under the forfeit rule).
    Player {
        who: String,
        withdrawn: Option<String>,
    },
    /// Money: what each payment or refund was and where it leaves the player's item; the
    /// players a batch left out, with their refusal.
    Money {
        moved: Vec<money::Moved>,
        left_out: Vec<(arbiter_core::PlayerId, DirectorError)>,
    },
    /// Registration: the entries decided, each registered or refused by the rules.
    Entries(Vec<registration::Entered>),
    /// Several players at once (批量缴费 / 批量签到): those left out, with their refusal.
    LeftOut(Vec<(arbiter_core::PlayerId, DirectorError)>),
    /// A roster file's rows, row by row.
    Imported(crate::api::import::ImportReport),
    /// A paired round, with the checker's warnings, what was relaxed and why.
    Paired(crate::api::rounds::PairOutcome),
    /// A round published or undone: the section's name and the round.
    Round { section_name: String, round: u32 },
    /// A section's pairing numbers drawn: the section's name, the lot's seed, how numbers are
    /// given (抽签 / 报名顺序), and the players in number order with their unit.
    Drawn {
        section: String,
        seed: u64,
        numbering: &'static str,
        players: Vec<(arbiter_core::PlayerId, String)>,
        /// A `groups` section's split made with the draw, in words (「已分组 (蛇形): A组 1 4
        /// 5 8；B组 2 3 6 7」).
        groups: Option<String>,
    },
    /// A team entered (`added`: its members) or its roster changed, the players as the desk
    /// names them.
    Team {
        team: String,
        unit: String,
        added: Vec<String>,
        removed: Vec<String>,
    },
    /// A team's foul recorded, in the round it counts in.
    TeamFoul {
        team: String,
        round: Option<u32>,
        kind: FoulKind,
    },
    /// A game record kept: its length in moves (回合).
    GameRecorded { moves: usize },
    /// A team that did not appear: the round's boards entered as its forfeits.
    TeamAbsent {
        team: String,
        round: u32,
        boards: Vec<u32>,
    },
    /// A captain's confirmation of his team's match (队长确认): the team and its captain, the
    /// round and the match, and the opponent with his captain's name once he has confirmed
    /// too.
    MatchConfirmed {
        team: String,
        by: String,
        round: u32,
        match_no: u32,
        opponent: String,
        opponent_by: Option<String>,
    },
    /// A team's line-up taken (出场名单): the players board by board as the desk names
    /// them (`None`: an empty board, lost by forfeit).
    Lineup {
        team: String,
        round: u32,
        boards: Vec<Option<String>>,
    },
    /// An event created: its name.
    Created { name: String },
    /// A player's claim of his result on the phone: where the board's claims now stand and
    /// the result entered as the players', if their claims agree.
    Claimed(crate::claim::Claimed),
    /// A player's claim of a knockout game on his phone, and what it did.
    KnockoutClaimed(crate::claim::KoClaimed),
    /// An organiser's award given to its recipients (none: taken back).
    Awarded {
        award: String,
        recipients: Vec<String>,
    },
}

/// Decide `cmd` as `ctx`'s actor on `state`: authority, the operation, [`finish`].
pub fn decide(state: &EventState, ctx: &Ctx, cmd: &Command) -> Result<Decision, DirectorError> {
    decide_observed(state, ctx, cmd, &mut |_, _| {})
}

/// [`decide`], telling `progress(done, total)` how far a long command (a roster file's rows)
/// has got.
pub fn decide_observed(
    state: &EventState,
    ctx: &Ctx,
    cmd: &Command,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Decision, DirectorError> {
    permission::require(ctx, cmd.action())?;
    let (entries, outcome) = body(state, ctx, cmd, progress)?;
    finish(state, ctx, &entries)?;
    Ok(Decision { entries, outcome })
}

/// [`decide`] on a scratch state, which then takes the decision: the same authority, the same
/// operation and the same rules as [`finish`]'s, each entry applied to `scratch` once it
/// passes. A shell that decides several commands in a row, each on the state the ones before
/// leave (the simulator's batches), needs that fold anyway: this spares it a copy of the state
/// per command. On a refusal `scratch` may hold part of the decision: the caller drops it.
pub fn decide_folding(
    scratch: &mut EventState,
    ctx: &Ctx,
    cmd: &Command,
) -> Result<Decision, DirectorError> {
    permission::require(ctx, cmd.action())?;
    let (entries, outcome) = body(scratch, ctx, cmd, &mut |_, _| {})?;
    crate::text::check_entries(&entries)?;
    fold_checked(scratch, &entries, &ctx.at_rfc3339())?;
    Ok(Decision { entries, outcome })
}

/// The operation's body: the family's rules, giving the entries and the outcome.
fn body(
    state: &EventState,
    ctx: &Ctx,
    cmd: &Command,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<LogEntry>, Outcome), DirectorError> {
    match cmd {
        Command::Money(c) => money::decide(state, ctx, c),
        Command::Registration(c) => registration::decide(state, ctx, c, progress),
        Command::Games(c) => games::decide(state, ctx, c),
        Command::Rounds(c) => rounds::decide(state, ctx, c),
        Command::Event(c) => event::decide(state, ctx, c),
    }
}

/// The last step of every command: the text rule on every entry, then each entry against
/// the log's rules on the state the ones before it leave (a scratch fold when there are
/// several).
pub fn finish(state: &EventState, ctx: &Ctx, entries: &[LogEntry]) -> Result<(), DirectorError> {
    crate::text::check_entries(entries)?;
    let at = ctx.at_rfc3339();
    match entries {
        [] => Ok(()),
        [one] => validate_at(state, one, Some(&at)).map_err(|r| Refusal::Rule(r).into()),
        _ => fold_checked(&mut state.clone(), entries, &at),
    }
}

/// Each of `entries` against the log's rules on `scratch` (the fold checks each entry as
/// [`validate_at`] does), applied to it once it passes; a refusal is typed as [`finish`]'s.
fn fold_checked(
    scratch: &mut EventState,
    entries: &[LogEntry],
    at: &str,
) -> Result<(), DirectorError> {
    for e in entries {
        let r = Recorded {
            seq: scratch.last_seq + 1,
            at: at.to_string(),
            actor: "director".into(),
            entry: e.clone(),
        };
        scratch.apply(&r).map_err(|err| match err {
            FoldError::Rejected { rejection, .. } => DirectorError::from(Refusal::Rule(rejection)),
            FoldError::Sequence { .. } => Refusal::Busy { attempts: 1 }.into(),
        })?;
    }
    Ok(())
}
