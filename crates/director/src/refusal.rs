//! Why an operation of the arbiter's API says no (拒绝): one variant per refusal, with the
//! facts (section, round, board, player, what was found, the limit) rather than a sentence.
//!
//! [`Refusal`]'s `Display` is the neutral wording any reader can act on — Chinese first, then
//! English in parentheses; it names no flag, command or button. A shell that can say how to
//! fix a refusal words it itself (the CLI names its flags, the desk its fields) and falls
//! back to this wording for the rest.
//!
//! Variants are grouped by entry family: registration, teams, rounds, results, standings,
//! lifecycle and settings, writing. Each family's wording is in a module of its own
//! (registration, teams, rounds, results with standings, lifecycle with settings); `Display`
//! gives a refusal to its family's, and words the writing refusals itself. The log's own
//! rules (`arbiter_core::validate_at`) report a typed [`Rejection`]; it is carried as it is
//! ([`Refusal::Rule`]).

use crate::manual::ManualError;
use crate::DirectorError;
use arbiter_core::{EventState, PlayerId, Rejection};
use arbiter_regulation::RegulationError;
use arbiter_types::{Colour, GameResult, IdNumberError, Sex};
use chrono::NaiveDate;
use std::fmt;

mod lifecycle;
mod registration;
mod results;
mod rounds;
mod teams;

/// A section as a refusal names it: the regulation's id and its Chinese name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sec {
    pub id: String,
    /// The regulation's name of the section (男子个人赛); empty if the regulation has none.
    pub name: String,
}

impl Sec {
    /// Section `id` of the event, with its name from the regulation in the log.
    pub fn of(state: &EventState, id: &str) -> Sec {
        let name = state
            .regulation()
            .ok()
            .and_then(|r| r.section(id).map(|s| s.name.clone()))
            .unwrap_or_default();
        Sec {
            id: id.to_string(),
            name,
        }
    }

    /// Section `id` of `reg`.
    pub fn in_reg(reg: &arbiter_regulation::Regulation, id: &str) -> Sec {
        Sec {
            id: id.to_string(),
            name: reg.section(id).map(|s| s.name.clone()).unwrap_or_default(),
        }
    }
}

impl fmt::Display for Sec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.trim().is_empty() {
            f.write_str(&self.id)
        } else {
            f.write_str(&self.name)
        }
    }
}

/// A player as a refusal names him: id and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    pub id: PlayerId,
    pub name: String,
}

impl fmt::Display for Who {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "{}", self.id)
        } else {
            write!(f, "{} {}", self.id, self.name)
        }
    }
}

/// A field an entry form requires (the online form always asks for name, ID number and
/// phone; the regulation's `[registration] fields` name those every entry must give).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Required {
    Name,
    IdNumber,
    Phone,
    Unit,
    SocialSecurity,
    Sex,
    BirthDate,
}

impl Required {
    /// The field of the regulation's list as the form names it (`section` is always given:
    /// `None`).
    pub fn of_field(f: arbiter_regulation::EntryField) -> Option<Required> {
        use arbiter_regulation::EntryField as F;
        Some(match f {
            F::Name => Required::Name,
            F::Section => return None,
            F::Unit => Required::Unit,
            F::IdNumber => Required::IdNumber,
            F::SocialSecurityNumber => Required::SocialSecurity,
            F::Phone => Required::Phone,
            F::Sex => Required::Sex,
            F::BirthDate => Required::BirthDate,
        })
    }
}

/// Why the online entry form takes no entry now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closed {
    /// The registration deadline (China time) has passed.
    DeadlinePassed { deadline: chrono::NaiveDateTime },
    /// The event is closed (闭幕).
    EventClosed,
    /// Round 1 of a section is paired: entries are the desk's now.
    Started,
}

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Closed::DeadlinePassed { deadline } => write!(
                f,
                "报名已截止 (截止时间 {}), 网上报名已关闭 (registration closed at the deadline)",
                deadline.format("%Y-%m-%d %H:%M")
            ),
            Closed::EventClosed => write!(f, "赛事已闭幕, 网上报名已关闭 (the event is closed)"),
            Closed::Started => write!(
                f,
                "比赛已开始, 网上报名已关闭; 如需报名请联系报名处 (the event has started; ask the registration desk)"
            ),
        }
    }
}

impl Required {
    pub fn zh(self) -> &'static str {
        match self {
            Required::Name => "姓名",
            Required::IdNumber => "身份证号",
            Required::Phone => "手机号",
            Required::Unit => "单位",
            Required::SocialSecurity => "社保号",
            Required::Sex => "性别",
            Required::BirthDate => "出生日期",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            Required::Name => "the name",
            Required::IdNumber => "the ID number",
            Required::Phone => "the phone number",
            Required::Unit => "the unit",
            Required::SocialSecurity => "the social-security number",
            Required::Sex => "the sex",
            Required::BirthDate => "the birth date",
        }
    }
}

/// What needs a reason in words (besides the permission actions of
/// [`DirectorError::ReasonMissing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// The arbiter refuses an entry or an online submission.
    RefuseEntry,
    /// An entry's facts are corrected.
    CorrectEntry,
    /// A team's roster changes after its first game.
    RosterAfterStart,
    /// The settings change after round 1 is paired.
    SettingsAfterStart,
    /// A foul of a team's leader or coach.
    TeamFoul,
    /// A refusal of an entry withdrawn.
    WithdrawRefusal,
    /// A player moved to another section.
    ChangeSection,
    /// A section merged into another.
    MergeSections,
}

impl Needs {
    pub fn zh(self) -> &'static str {
        match self {
            Needs::RefuseEntry => "拒绝报名",
            Needs::CorrectEntry => "更正报名信息",
            Needs::RosterAfterStart => "比赛开始后更改队伍名单",
            Needs::SettingsAfterStart => "比赛开始后更改设置",
            Needs::TeamFoul => "团体犯规",
            Needs::WithdrawRefusal => "撤销拒绝报名",
            Needs::ChangeSection => "换组",
            Needs::MergeSections => "合并组别",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            Needs::RefuseEntry => "a refusal",
            Needs::CorrectEntry => "a correction",
            Needs::RosterAfterStart => "a roster change after the first game",
            Needs::SettingsAfterStart => "a change after round 1",
            Needs::TeamFoul => "a team foul",
            Needs::WithdrawRefusal => "withdrawing a refusal",
            Needs::ChangeSection => "a change of section",
            Needs::MergeSections => "merging sections",
        }
    }
}

/// What is wrong with one line of a results file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineProblem {
    /// Not 2 or 4 cells.
    Cells(usize),
    /// The board cell is not a positive whole number.
    Board(String),
    /// The result cell is not a result.
    Result(String),
    /// A foul count is not a whole number 0–20 (column from 1).
    Fouls {
        column: usize,
        colour: Colour,
        text: String,
    },
    /// The board was listed on an earlier line.
    DuplicateBoard { board: u32, line: usize },
}

/// What a section still has to play when the event is to be closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Left {
    NotDrawn,
    NotPaired(u32),
    ResultsMissing { round: u32, boards: usize },
    NotCompleted(u32),
    WithdrawalsDue,
    Knockout(usize),
}

/// What is wrong with a time control as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControlProblem {
    /// Not minutes+seconds.
    Unreadable,
    /// Outside 1–600 minutes or 0–600 seconds a move.
    OutOfRange,
}

/// Why an organiser's award (S10) cannot be given as asked ([`Refusal::SpecialAward`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AwardProblem {
    /// The regulation has no such award; its awards (none: it has none).
    UnknownAward { given: String, known: Vec<String> },
    /// More recipients than the regulation has awards of the kind.
    TooMany {
        award: String,
        count: u32,
        given: usize,
    },
    /// Not a unit, team or player of the event.
    UnknownRecipient { recipient: String },
    /// The same recipient named twice.
    Twice { recipient: String },
    /// The award has no recipient to take back.
    NotGiven { award: String },
}

impl fmt::Display for AwardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AwardProblem::UnknownAward { given, known } if known.is_empty() => write!(
                f,
                "规程未设组委会奖项, 没有「{given}」 (the regulation has no organiser's awards)"
            ),
            AwardProblem::UnknownAward { given, known } => write!(
                f,
                "规程中没有奖项「{given}」; 本赛事的奖项: {} (no such award)",
                known.join("、")
            ),
            AwardProblem::TooMany {
                award,
                count,
                given,
            } => write!(
                f,
                "「{award}」规程设 {count} 个, 不能授予 {given} 个获奖者 (the regulation has {count} of this award)"
            ),
            AwardProblem::UnknownRecipient { recipient } => write!(
                f,
                "「{recipient}」不是本赛事的参赛单位、队伍或棋手 (not a unit, team or player of the event)"
            ),
            AwardProblem::Twice { recipient } => {
                write!(f, "「{recipient}」重复列出 (named twice)")
            }
            AwardProblem::NotGiven { award } => {
                write!(f, "「{award}」尚未授予, 无可收回 (the award has not been given)")
            }
        }
    }
}

/// What a rule of a game refuses ([`Refusal::GameRule`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameProblem {
    /// No flag waits for the arbiter's decision on this board.
    NoPendingFlag,
    /// The regulation does not make a refusal to record a foul (T6), or this board does not
    /// have to record in this round.
    NoRecordDuty { boards: u32, from_round: u32 },
    /// The player named is not the one who must record this game.
    NotTheRecorder { recorder: String },
    /// The game has no result yet.
    NoResultYet,
    /// Colours swapped are recorded for Swiss and round-robin games only.
    ColoursInKnockout,
    /// Nobody signed.
    NoSignature,
    /// The slip is already signed.
    AlreadySigned,
    /// The regulation wants another signature on this slip.
    MissingSignature { need: String },
    /// A game record does not read as a record (a PGN tag, a comment left open, a position
    /// other than the start), in words.
    RecordUnreadable { error: String },
    /// The record's final position decides the game (mate, stalemate 困毙) otherwise than
    /// the result: `refused` is what this operation would have kept — the record, or the
    /// result.
    RecordContradictsResult {
        end: String,
        result: GameResult,
        refused: RecordOrResult,
    },
    /// A forfeited game has no record.
    RecordOnForfeit { result: GameResult },
    /// The board has no record.
    NoRecord,
}

/// Which of the two a contradiction between a record and a result refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordOrResult {
    Record,
    Result,
}

impl fmt::Display for GameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameProblem::NoPendingFlag => write!(f, "没有待裁判确认的犯规提示 (no flag waits for a decision)"),
            GameProblem::NoRecordDuty { boards: 0, .. } => write!(
                f,
                "本组规程未规定录谱, 不能记拒不录谱犯规 (the regulation names no boards that must record)"
            ),
            GameProblem::NoRecordDuty { boards, from_round } => write!(
                f,
                "本台本轮无须录谱 (规程: 第{from_round}轮起第1–{boards}台录谱) (this board does not have to record: boards 1–{boards} from round {from_round})"
            ),
            GameProblem::NotTheRecorder { recorder } => write!(
                f,
                "本局应由{recorder}录谱 (this game is recorded by another player)"
            ),
            GameProblem::NoResultYet => write!(f, "尚无成绩, 请先录入成绩 (no result yet: enter it first)"),
            GameProblem::ColoursInKnockout => write!(
                f,
                "淘汰赛对局的先后手由抽签或选色决定, 不记红黑颠倒 (colours swapped are recorded for Swiss games only)"
            ),
            GameProblem::NoSignature => write!(f, "没有签字人 (nobody signed)"),
            GameProblem::MissingSignature { need } => write!(
                f,
                "成绩单须由{need}签字 (the slip needs another signature)"
            ),
            GameProblem::RecordUnreadable { error } => {
                write!(f, "棋谱无法读取, 未录入: {error} (the record does not read)")
            }
            GameProblem::RecordContradictsResult {
                end,
                result,
                refused: RecordOrResult::Record,
            } => write!(
                f,
                "棋谱终局为{end}, 与已登记的成绩「{}」不符, 棋谱未录入; 请核对棋谱或先更正成绩 \
                 (the record ends in a position that contradicts the result: the record is refused)",
                result.zh()
            ),
            GameProblem::RecordContradictsResult {
                end,
                result,
                refused: RecordOrResult::Result,
            } => write!(
                f,
                "本台棋谱终局为{end}, 成绩「{}」与之不符, 成绩未登记; 请核对成绩或先更正棋谱 \
                 (the game record ends in a position that contradicts this result: the result is refused)",
                result.zh()
            ),
            GameProblem::RecordOnForfeit { result } => write!(
                f,
                "本局成绩为「{}」, 弃权的对局没有棋谱 (a forfeited game has no record)",
                result.zh()
            ),
            GameProblem::NoRecord => write!(f, "本台没有棋谱 (no record on this board)"),
            GameProblem::AlreadySigned => write!(
                f,
                "成绩单已签字确认, 只能由裁判长更正 (the slip is signed: only a correction changes it)"
            ),
        }
    }
}

/// Why an operation refused (see the module's doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    // — registration —
    /// No section by this id or name in the event; the closest id, if one is close.
    UnknownSection {
        given: String,
        closest: Option<String>,
    },
    /// No player with this id.
    UnknownPlayer(PlayerId),
    /// The registration form has no name.
    NameEmpty,
    /// The online form lacks a field it requires.
    Required(Required),
    /// The ID number is not one.
    BadIdNumber(IdNumberError),
    /// Not a mainland mobile number (the message does not repeat it).
    BadPhone,
    /// A sex given beside an ID number that says otherwise.
    SexContradictsId { id_sex: Sex },
    /// A birth date given beside an ID number that says otherwise.
    BirthContradictsId { id_birth: NaiveDate },
    /// Not a social-security number (the message does not repeat it).
    BadSocialSecurity,
    /// The regulation asks for a signed pledge at check-in (T7) and none was signed.
    PledgeRequired { player: Who, pledge: String },
    /// A birth date (typed, or of the ID number) after the day of the entry.
    BirthInFuture {
        birth: NaiveDate,
        on: NaiveDate,
        from_id: bool,
    },
    /// The section's rules refuse the online entry (the regulation's reason).
    NotEligible {
        why: crate::registration::Ineligible,
    },
    /// A corrected entry no longer meets the section's rules (the regulation's reason).
    CorrectionNotEligible {
        section: Sec,
        why: crate::registration::Ineligible,
    },
    /// The team rules of registration refuse a corrected team or unit (their reason, as
    /// recorded in the log when an entry is refused for it).
    TeamRule {
        why: crate::registration::Ineligible,
    },
    /// The same refusal is already in the log.
    RefusalRecorded {
        name: String,
        section: Sec,
        reason: String,
    },
    /// A correction that changes nothing.
    NothingToCorrect,
    /// Registration answered neither an entry nor a refusal (a defect, not the arbiter's).
    UnexpectedOutcome { kind: &'static str },
    /// A fee of zero.
    AmountNotPositive,
    /// No amount given and the regulation sets no fee.
    NoFeeSet,
    /// The fee is already paid in full.
    FeePaid {
        player: Who,
        paid_fen: u64,
        due_fen: u64,
    },
    /// The player has withdrawn.
    Withdrawn(Who),
    /// No refusal in force was recorded at this seq (withdrawn already, or not a refusal).
    NoSuchRefusal(u64),
    /// A change of section to the section the player is in.
    SameSection { player: Who, section: Sec },
    /// A change of section once either section's numbers are drawn (`section`).
    SectionChangeAfterDraw { player: Who, section: Sec },
    /// A withdrawn or disqualified player changes no section.
    SectionChangeNotActive(Who),
    /// The section was merged into `into` (`sections_merged`): it takes no more entries and
    /// is merged no more.
    SectionMerged { section: Sec, into: Sec },
    /// A section merged into itself.
    MergeIntoItself(Sec),
    /// A merge once either section's numbers are drawn (`section`).
    MergeAfterDraw { section: Sec },
    /// A team section (its entries are teams on boards) is not merged.
    MergeTeamSection(Sec),
    /// The same person (ID number) is entered in both sections.
    MergeSamePerson { player: Who, into: Sec },
    /// The merged section would hold more than `into`'s own cap.
    MergeOverCap { into: Sec, total: u32, cap: u32 },
    /// A team's member changes no section: he leaves the team first.
    SectionChangeInTeam { player: Who, team: String },
    /// The player's entry does not meet the new section's rules (the regulation's reason).
    SectionChangeNotEligible {
        player: Who,
        section: Sec,
        why: crate::registration::Ineligible,
    },
    /// The player is already checked in.
    CheckedIn(Who),
    /// No fee recorded for the player: nothing to cancel.
    FeeNotPaid(Who),
    /// The player is not checked in: no check-in to cancel.
    NotCheckedIn(Who),
    /// The player has been paired in a round: his fee stands.
    FeeCancelAfterPlay { player: Who, round: u32 },
    /// No player chosen for an operation on several at once.
    NobodyChosen,
    /// Nobody to draw pairing numbers for (none registered, or none has paid).
    NobodyToDraw { section: Sec },
    /// The numbers are drawn and nobody new has come.
    AlreadyDrawn { section: Sec },
    /// A `groups` section whose round 1 is paired: a late entry has no group to join.
    GroupsStarted { section: Sec },
    /// No online submission with this number.
    UnknownSubmission(u32),
    /// The online submission is already approved or refused.
    SubmissionDecided(u32),
    /// The registration of an online submission is refused (the regulation's reason).
    CannotApprove {
        submission: u32,
        name: String,
        reason: String,
    },

    // — teams —
    /// A team entry with no members.
    RosterEmpty,
    /// The section has no team competition.
    NoTeamCompetition { section: Sec },
    /// A member plays in another section than the team.
    MemberElsewhere {
        player: Who,
        section: Sec,
        team_section: Sec,
    },
    /// A member of another unit (K2).
    CrossUnit {
        player: Who,
        unit: Option<String>,
        team_unit: String,
    },
    /// The unit has a team already and the regulation allows one.
    UnitHasTeam { unit: String, team: String },
    /// Fewer members than the regulation requires (`change`: after a roster change).
    TooFewMembers {
        team: String,
        members: u64,
        min: u32,
        change: bool,
    },
    /// More members than the regulation allows (`change`: after a roster change).
    TooManyMembers {
        team: String,
        members: u64,
        max: u32,
        change: bool,
    },
    /// The regulation requires a leader.
    LeaderRequired,
    /// The regulation requires a coach.
    CoachRequired,
    /// No such team division; the section's are listed (name, id).
    UnknownDivision {
        section: Sec,
        division: String,
        known: Vec<(String, String)>,
    },
    /// K4: the section ranks teams in divisions and the team names none (its unit is not
    /// placed by last edition's results).
    DivisionRequired {
        section: Sec,
        known: Vec<(String, String)>,
    },
    /// K4: the unit is placed in a division by last edition's results, the team named another.
    DivisionPlaced {
        unit: String,
        placed: String,
        named: String,
    },
    /// The division takes only the units placed in it (`open_choice = false`).
    DivisionNotOpen { unit: String, division: String },
    /// No such team; the closest name, if one is close.
    UnknownTeam {
        team: String,
        closest: Option<String>,
    },
    /// A roster change that adds and removes nobody.
    NobodyToAddOrRemove,
    /// The player is not on the team's roster.
    NotOnRoster { player: PlayerId, team: String },
    /// The player is on the roster already.
    AlreadyOnRoster { player: Who, team: String },
    /// The player is on another team's roster.
    OnAnotherTeam { player: Who, team: String },
    /// Every member of the team has withdrawn already (整队退赛 twice).
    TeamWithdrawn { team: String },

    // — rounds —
    /// The last round is paired and has games without a result; nothing changed.
    RoundUnfinished {
        section: Sec,
        round: u32,
        boards: Vec<u32>,
    },
    /// Knockout games are due first; nothing changed.
    KnockoutDue { section: Sec, games: usize },
    /// Every round is played.
    AllRoundsPlayed { section: Sec },
    /// A round robin follows its table: no fixed pairs or swaps.
    RoundRobinFixed { section: Sec },
    /// A team-match section needs two teams with numbers to pair a round.
    TooFewTeams { section: Sec, teams: usize },
    /// A line-up (or another team-match step) asked of a section that is not a team match.
    NotTeamSection { section: Sec },
    /// The round's matches are not paired yet: no line-up can be given for it.
    NoMatches { section: Sec, round: u32 },
    /// A team round robin follows its table: no fixed matches or swaps (a team Swiss takes
    /// them, by team number).
    TeamManual { section: Sec },
    /// The team plays no match in that round (a bye, or not paired).
    TeamNotPlaying { team: String, round: u32 },
    /// The team had the round's bye: it has no match to confirm.
    TeamHadBye { team: String, round: u32 },
    /// A board of the team's match has no result yet: its captain cannot confirm the match.
    MatchUnfinished {
        team: String,
        round: u32,
        /// The match (场次) and the board in it (台次).
        match_no: u32,
        board: u32,
        /// The round's board number.
        round_board: u32,
    },
    /// A line-up after the regulation's deadline (出场名单截止, A15), taken from a role that is
    /// not the chief arbiter's: the team plays in the order recorded.
    LineupLate {
        team: String,
        round: u32,
        /// The deadline, `YYYY-MM-DD HH:MM`.
        deadline: String,
    },
    /// The team's captain has confirmed its match already (`by`: his name, may be empty).
    MatchConfirmedAlready {
        team: String,
        round: u32,
        match_no: u32,
        by: String,
    },
    /// A line-up that cannot be taken, and why.
    Lineup {
        team: String,
        why: crate::team_match::LineupProblem,
    },
    /// A manual pairing that cannot be made.
    Manual(ManualError),
    /// The last round is finished: nothing to publish or undo.
    LastRoundFinished { section: Sec, round: u32 },
    /// No round is paired yet.
    NoRoundPaired { section: Sec },
    /// The round is published already.
    AlreadyPublished { section: Sec, round: u32 },
    /// A swap on the sheet of a round already published (undo it first, with its reason).
    SwapPublished { section: Sec, round: u32 },
    /// A swap on the sheet of a team section (its line-ups and matches decide the games).
    SwapInTeam { section: Sec },
    /// A game of the round has a result or a foul: the pairing cannot be undone.
    UndoWithResults {
        section: Sec,
        round: u32,
        board: u32,
    },
    /// The round is not paired (`paired`: how many are, where the message says it).
    RoundNotPaired {
        section: Sec,
        round: u32,
        paired: Option<u32>,
    },

    // — results —
    /// More fouls of one side than a game can have.
    TooManyFouls {
        colour: Colour,
        fouls: usize,
        max: u32,
    },
    /// The board number names a Swiss game and a knockout game: the round must be given.
    BoardAmbiguous {
        section: Sec,
        board: u32,
        swiss_round: u32,
        knockout_match: String,
    },
    /// No knockout game is due on the board; those due are listed.
    NoKnockoutGame {
        section: Sec,
        board: u32,
        due: Vec<u32>,
    },
    /// Someone else entered the knockout game first (game from 0; what is due now, if the
    /// board has another game).
    KnockoutGameEntered {
        match_id: String,
        game: u32,
        stored: Option<GameResult>,
        now_due: Option<(String, u32)>,
    },
    /// No such board in the round (`boards`: how many it has, where the message says it).
    NoSuchBoard {
        section: Sec,
        round: u32,
        board: u32,
        boards: Option<usize>,
    },
    /// The board has a result already, not yet confirmed, and the entry does not say it
    /// replaces it (two arbiters on the same board, or a re-entry without the stored result).
    ResultExists {
        section: Sec,
        round: u32,
        board: u32,
        stored: GameResult,
    },
    /// The board's slip is signed: only a correction changes it (A12). `chief`: the actor is
    /// the chief arbiter (who corrects it himself).
    ConfirmedResult {
        section: Sec,
        round: u32,
        board: u32,
        stored: GameResult,
        chief: bool,
    },
    /// A re-entry too late for the arbiter: `next_round` is paired from the results, or
    /// (`None`) the round is finished and a forfeit is replaced or entered.
    ReentryTooLate {
        section: Sec,
        round: u32,
        board: u32,
        next_round: Option<u32>,
    },
    /// The round is finished.
    RoundFinished { section: Sec, round: u32 },
    /// The pairing is not published yet.
    NotPublished { section: Sec, round: u32 },
    /// The foul rule decides the game (J5): `rule` explains it.
    FoulRuleDecides {
        round: u32,
        board: u32,
        rule: String,
        due: GameResult,
        given: GameResult,
    },
    /// Nothing to confirm in the round.
    NothingToConfirm { section: Sec, round: u32 },
    /// A correction of a board that has no result.
    NoResultToCorrect {
        section: Sec,
        round: u32,
        board: u32,
    },
    /// 九江 补充五 「经签名确认比赛结果，不予更改」: the regulation makes a signed result final;
    /// only a correction that says it overrides the signatures (recorded, and printed on the
    /// slip) changes it.
    SignedResultFinal {
        section: Sec,
        round: u32,
        board: u32,
        signed_by: Vec<String>,
    },
    /// The correction gives the result already stored.
    SameResult {
        section: Sec,
        round: u32,
        board: u32,
        result: GameResult,
    },
    /// A line of a results file does not read.
    ResultsLine {
        file: String,
        line: usize,
        problem: LineProblem,
    },
    /// A results file without a result line.
    ResultsFileEmpty { file: String },
    /// A line of a results file refused as its result would be.
    AtLine {
        line: usize,
        refusal: Box<DirectorError>,
    },
    /// The regulation records no team fouls in the section.
    NoTeamFouls { section: Sec },
    /// Players share a place (并列) whose prizes, or whose qualification, would tell them
    /// apart, and the regulation does not say how to separate them: never split silently.
    SharedPlaceAwards {
        section: Sec,
        /// The category whose ranking the shared place is in (its name); none: the section's.
        category: Option<String>,
        place: u32,
        players: usize,
        qualification: bool,
    },
    /// A rule of a game the regulation states (T6 records and short draws, S6 colours, S11
    /// protests and signatures) refuses the operation on this board.
    GameRule {
        section: Sec,
        round: u32,
        board: u32,
        problem: GameProblem,
    },
    /// A move of a game record is not a legal move of the position (or is ambiguous, or does
    /// not read), named by its move number (回合) and side.
    RecordMove {
        section: Sec,
        round: u32,
        board: u32,
        number: u32,
        side: arbiter_types::Colour,
        text: String,
        kind: arbiter_xiangqi::NotationErrorKind,
    },
    /// The team does not play in the section.
    TeamNotInSection { team: String, section: Sec },
    /// An organiser's award (S10) that cannot be given as asked.
    SpecialAward(AwardProblem),

    // — standings —
    /// No such category; the section's, and the closest one.
    UnknownCategory {
        section: Sec,
        category: String,
        known: Vec<String>,
        closest: Option<String>,
    },

    // — lifecycle and settings —
    /// The event is closed already.
    AlreadyClosed,
    /// Nothing has been played: the event cannot be closed.
    NothingPlayed,
    /// A section still has something to play.
    SectionUnfinished { section: Sec, left: Left },
    /// The event is not closed: nothing to reopen.
    NotClosed,
    /// The start is after the end.
    StartAfterEnd { start: NaiveDate, end: NaiveDate },
    /// The section has no Swiss rounds to set.
    NoSwissRounds { section: Sec },
    /// Last edition's units given for a division the regulation does not place from last
    /// edition's results (昆山 五(一)): the divisions it does place.
    NotPlacedDivision {
        division: String,
        placed: Vec<String>,
    },
    /// Fewer rounds than already paired (or none).
    RoundsBelowPaired {
        section: Sec,
        paired: u32,
        rounds: u32,
    },
    /// A time control that does not read or is out of range.
    BadTimeControl {
        section: Sec,
        text: String,
        problem: TimeControlProblem,
    },
    /// The settings form changes nothing.
    NoSettingChanged,
    /// The registration deadline is after the event's last day.
    DeadlineAfterEnd {
        deadline: chrono::NaiveDateTime,
        end: NaiveDate,
    },
    /// Evidence not on the regulation's list (a typo in the form).
    UnknownEvidence { given: String },
    /// A flag (condition, category mark) the regulation does not name: `known` is every flag
    /// it names, `(flag, 中文)`.
    UnknownFlag {
        given: String,
        known: Vec<(String, String)>,
    },
    /// A grade (段位/称号) not on the regulation's `[grades]` scale: `known` is the scale,
    /// lowest first (empty: the regulation keeps no grades).
    UnknownGrade { given: String, known: Vec<String> },
    /// A money item the regulation does not name for the player (`known`: those it names).
    UnknownCharge { given: String, known: Vec<String> },
    /// The item is paid in full already.
    ItemPaid {
        player: Who,
        item: String,
        paid_fen: u64,
        due_fen: u64,
    },
    /// The regulation frees the player of the item (a flag or category owes nothing).
    NotOwed { player: Who, item: String },
    /// A refund of a fee (only deposits are refunded).
    RefundOfFee { item: String },
    /// A refund larger than what the player paid of the item and was not refunded.
    RefundMoreThanHeld {
        player: Who,
        item: String,
        held_fen: u64,
        amount_fen: u64,
    },
    /// A refund condition no deposit of the regulation names.
    UnknownRefundCondition { given: String, known: Vec<String> },
    /// Deposits refunded at the last round (or the closing) before it is played: `section`,
    /// the first section that has not played its last round.
    RefundNotYet {
        rule: arbiter_regulation::RefundAt,
        section: Sec,
    },
    /// Nobody has a deposit due back under the rule (none held, or conditions not marked).
    NobodyToRefund { rule: arbiter_regulation::RefundAt },
    /// The online entry is closed: the deadline has passed (China time), or the event is
    /// closed or under way.
    EntryClosed(Closed),
    /// The regulation file of a new event does not parse (file, line, column).
    BadRegulation(RegulationError),

    // — writing —
    /// A time that is not RFC 3339.
    BadTime { at: String },
    /// The log kept moving on for every attempt.
    Busy { attempts: usize },
    /// Something needs a reason in words and none was given.
    ReasonMissing(Needs),
    /// The log's own rules refuse the entry.
    Rule(Rejection),
    /// A player's claim of his result on the phone is refused ([`crate::claim`]).
    Claim(crate::claim::ClaimProblem),
}

impl From<Refusal> for DirectorError {
    fn from(r: Refusal) -> Self {
        DirectorError::Refused(Box::new(r))
    }
}

impl From<Box<Refusal>> for DirectorError {
    fn from(r: Box<Refusal>) -> Self {
        DirectorError::Refused(r)
    }
}

/// The boards of a list, at most ten, then `…`.
fn boards_list(boards: &[u32]) -> String {
    let list: Vec<String> = boards.iter().take(10).map(u32::to_string).collect();
    format!(
        "{}{}",
        list.join(", "),
        if boards.len() > 10 { " …" } else { "" }
    )
}

fn yuan(fen: u64) -> String {
    crate::api::entries::yuan(fen)
}

fn side_zh(c: Colour) -> &'static str {
    match c {
        Colour::Red => "红方",
        Colour::Black => "黑方",
    }
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Cells(n) => write!(
                f,
                "应为「台号 成绩」或「台号 成绩 红方犯规 黑方犯规」, 实有 {n} 栏 (expected 2 or 4 cells)"
            ),
            LineProblem::Board(t) => write!(
                f,
                "第1栏 台号「{t}」应为正整数 (board must be a positive whole number)"
            ),
            LineProblem::Result(t) => write!(
                f,
                "第2栏: 成绩「{t}」无法识别: 应为 1-0, 0-1, =, +-(红方判胜), -+(黑方判胜), 双方弃权, 均以红方在前 \
                 (unknown result; one of 1-0 0-1 = +- -+ and double forfeit, read from red's side)"
            ),
            LineProblem::Fouls {
                column,
                colour,
                text,
            } => write!(
                f,
                "第{column}栏 {}犯规次数「{text}」应为 0–{max} 的整数 (a foul count is a whole number 0–{max})",
                side_zh(*colour),
                max = crate::api::results::MAX_FOULS
            ),
            LineProblem::DuplicateBoard { board, line } => {
                write!(f, "第{board}台与第{line}行重复 (board listed twice)")
            }
        }
    }
}

impl fmt::Display for Left {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Left::NotDrawn => write!(f, "尚未抽签 (numbers not drawn)"),
            Left::NotPaired(r) => write!(f, "第{r}轮尚未编排 (round {r} not paired)"),
            Left::ResultsMissing { round, boards } => {
                write!(f, "第{round}轮还有 {boards} 台没有成绩 (results missing)")
            }
            Left::NotCompleted(r) => write!(f, "第{r}轮尚未结束 (round not closed)"),
            Left::WithdrawalsDue => write!(f, "有待按弃权规则退赛的棋手 (withdrawals due)"),
            Left::Knockout(n) => write!(f, "淘汰赛还有 {n} 场待下 (knockout matches to play)"),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            UnknownSection { .. }
            | UnknownPlayer(..)
            | NameEmpty
            | Required(..)
            | BadIdNumber(..)
            | BadPhone
            | SexContradictsId { .. }
            | BirthContradictsId { .. }
            | BadSocialSecurity
            | PledgeRequired { .. }
            | BirthInFuture { .. }
            | NotEligible { .. }
            | CorrectionNotEligible { .. }
            | TeamRule { .. }
            | RefusalRecorded { .. }
            | NothingToCorrect
            | UnexpectedOutcome { .. }
            | AmountNotPositive
            | NoFeeSet
            | FeePaid { .. }
            | Withdrawn(..)
            | NoSuchRefusal(_)
            | SameSection { .. }
            | SectionChangeAfterDraw { .. }
            | SectionChangeNotActive(..)
            | SectionMerged { .. }
            | MergeIntoItself(_)
            | MergeAfterDraw { .. }
            | MergeTeamSection(_)
            | MergeSamePerson { .. }
            | MergeOverCap { .. }
            | SectionChangeInTeam { .. }
            | SectionChangeNotEligible { .. }
            | CheckedIn(..)
            | FeeNotPaid(..)
            | NotCheckedIn(..)
            | FeeCancelAfterPlay { .. }
            | NobodyChosen
            | NobodyToDraw { .. }
            | AlreadyDrawn { .. }
            | GroupsStarted { .. }
            | UnknownSubmission(..)
            | SubmissionDecided(..)
            | CannotApprove { .. } => self.fmt_registration(f),
            RosterEmpty
            | NoTeamCompetition { .. }
            | MemberElsewhere { .. }
            | CrossUnit { .. }
            | UnitHasTeam { .. }
            | TooFewMembers { .. }
            | TooManyMembers { .. }
            | LeaderRequired
            | CoachRequired
            | UnknownDivision { .. }
            | DivisionRequired { .. }
            | DivisionPlaced { .. }
            | DivisionNotOpen { .. }
            | UnknownTeam { .. }
            | NobodyToAddOrRemove
            | NotOnRoster { .. }
            | AlreadyOnRoster { .. }
            | OnAnotherTeam { .. }
            | TeamWithdrawn { .. } => self.fmt_teams(f),
            RoundUnfinished { .. }
            | KnockoutDue { .. }
            | AllRoundsPlayed { .. }
            | RoundRobinFixed { .. }
            | TooFewTeams { .. }
            | NotTeamSection { .. }
            | NoMatches { .. }
            | TeamManual { .. }
            | TeamNotPlaying { .. }
            | TeamHadBye { .. }
            | MatchUnfinished { .. }
            | MatchConfirmedAlready { .. }
            | LineupLate { .. }
            | Lineup { .. }
            | Manual(..)
            | LastRoundFinished { .. }
            | NoRoundPaired { .. }
            | AlreadyPublished { .. }
            | SwapPublished { .. }
            | SwapInTeam { .. }
            | UndoWithResults { .. }
            | RoundNotPaired { .. } => self.fmt_rounds(f),
            TooManyFouls { .. }
            | BoardAmbiguous { .. }
            | NoKnockoutGame { .. }
            | KnockoutGameEntered { .. }
            | NoSuchBoard { .. }
            | ResultExists { .. }
            | ConfirmedResult { .. }
            | ReentryTooLate { .. }
            | RoundFinished { .. }
            | NotPublished { .. }
            | FoulRuleDecides { .. }
            | NothingToConfirm { .. }
            | NoResultToCorrect { .. }
            | SameResult { .. }
            | SignedResultFinal { .. }
            | ResultsLine { .. }
            | ResultsFileEmpty { .. }
            | AtLine { .. }
            | GameRule { .. }
            | RecordMove { .. }
            | NoTeamFouls { .. }
            | SharedPlaceAwards { .. }
            | TeamNotInSection { .. }
            | SpecialAward(..)
            | UnknownCategory { .. } => self.fmt_results(f),
            AlreadyClosed
            | NothingPlayed
            | SectionUnfinished { .. }
            | NotClosed
            | StartAfterEnd { .. }
            | NoSwissRounds { .. }
            | NotPlacedDivision { .. }
            | RoundsBelowPaired { .. }
            | BadTimeControl { .. }
            | NoSettingChanged
            | DeadlineAfterEnd { .. }
            | UnknownEvidence { .. }
            | UnknownFlag { .. }
            | UnknownGrade { .. }
            | UnknownCharge { .. }
            | ItemPaid { .. }
            | NotOwed { .. }
            | RefundOfFee { .. }
            | RefundMoreThanHeld { .. }
            | UnknownRefundCondition { .. }
            | RefundNotYet { .. }
            | NobodyToRefund { .. }
            | EntryClosed(..)
            | BadRegulation(..) => self.fmt_lifecycle(f),
            BadTime { at } => write!(f, "时间不是 RFC 3339 格式 (bad time): {at}"),
            Busy { attempts } => write!(
                f,
                "数据库繁忙: {attempts} 次追加均与其他写入冲突, 请重试 (the log kept moving on; try again)"
            ),
            ReasonMissing(n) => write!(f, "{}须说明理由 ({} needs a reason)", n.zh(), n.en()),
            Rule(r) => write!(f, "{r}"),
            Claim(c) => write!(f, "{c}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A distinct number per variant; the match has no wildcard, so a new variant must be
    /// numbered here, and [`one_of_each`] must then construct it.
    fn index(r: &Refusal) -> usize {
        use Refusal::*;
        match r {
            UnknownPlayer(_) => 0,
            NameEmpty => 1,
            Required(_) => 2,
            BadIdNumber(_) => 3,
            BadPhone => 4,
            SexContradictsId { .. } => 5,
            BirthContradictsId { .. } => 6,
            NotEligible { .. } => 7,
            CorrectionNotEligible { .. } => 8,
            TeamRule { .. } => 9,
            RefusalRecorded { .. } => 10,
            NothingToCorrect => 11,
            UnexpectedOutcome { .. } => 12,
            AmountNotPositive => 13,
            NoFeeSet => 14,
            FeePaid { .. } => 15,
            Withdrawn(_) => 16,
            CheckedIn(_) => 17,
            NobodyToDraw { .. } => 18,
            AlreadyDrawn { .. } => 19,
            UnknownSubmission(_) => 20,
            SubmissionDecided(_) => 21,
            CannotApprove { .. } => 22,
            RosterEmpty => 23,
            NoTeamCompetition { .. } => 24,
            MemberElsewhere { .. } => 25,
            CrossUnit { .. } => 26,
            UnitHasTeam { .. } => 27,
            TooFewMembers { .. } => 28,
            TooManyMembers { .. } => 29,
            LeaderRequired => 30,
            CoachRequired => 31,
            UnknownDivision { .. } => 32,
            UnknownTeam { .. } => 33,
            NobodyToAddOrRemove => 34,
            NotOnRoster { .. } => 35,
            AlreadyOnRoster { .. } => 36,
            OnAnotherTeam { .. } => 37,
            RoundUnfinished { .. } => 38,
            KnockoutDue { .. } => 39,
            AllRoundsPlayed { .. } => 40,
            RoundRobinFixed { .. } => 41,
            TooFewTeams { .. } => 109,
            NotTeamSection { .. } => 110,
            NoMatches { .. } => 111,
            Lineup { .. } => 112,
            TeamManual { .. } => 113,
            TeamNotPlaying { .. } => 114,
            TeamWithdrawn { .. } => 115,
            TeamHadBye { .. } => 116,
            MatchUnfinished { .. } => 117,
            MatchConfirmedAlready { .. } => 118,
            LineupLate { .. } => 119,
            SignedResultFinal { .. } => 120,
            NoSuchRefusal(_) => 121,
            SameSection { .. } => 122,
            SectionChangeAfterDraw { .. } => 123,
            SectionChangeNotActive(..) => 124,
            SectionChangeInTeam { .. } => 125,
            SectionChangeNotEligible { .. } => 126,
            UnknownGrade { .. } => 127,
            SwapPublished { .. } => 128,
            SwapInTeam { .. } => 129,
            Manual(_) => 42,
            LastRoundFinished { .. } => 43,
            NoRoundPaired { .. } => 44,
            AlreadyPublished { .. } => 45,
            UndoWithResults { .. } => 46,
            RoundNotPaired { .. } => 47,
            TooManyFouls { .. } => 48,
            BoardAmbiguous { .. } => 49,
            NoKnockoutGame { .. } => 50,
            KnockoutGameEntered { .. } => 51,
            NoSuchBoard { .. } => 52,
            ResultExists { .. } => 53,
            ConfirmedResult { .. } => 86,
            ReentryTooLate { .. } => 87,
            RoundFinished { .. } => 54,
            NotPublished { .. } => 55,
            FoulRuleDecides { .. } => 56,
            NothingToConfirm { .. } => 58,
            NoResultToCorrect { .. } => 59,
            SameResult { .. } => 60,
            ResultsLine { .. } => 61,
            ResultsFileEmpty { .. } => 62,
            AtLine { .. } => 63,
            NoTeamFouls { .. } => 64,
            SharedPlaceAwards { .. } => 57,
            GameRule { .. } => 91,
            RecordMove { .. } => 98,
            SpecialAward(_) => 99,
            TeamNotInSection { .. } => 65,
            UnknownCategory { .. } => 66,
            AlreadyClosed => 67,
            NothingPlayed => 68,
            SectionUnfinished { .. } => 69,
            NotClosed => 70,
            StartAfterEnd { .. } => 71,
            NoSwissRounds { .. } => 72,
            RoundsBelowPaired { .. } => 73,
            BadTimeControl { .. } => 74,
            NoSettingChanged => 75,
            DeadlineAfterEnd { .. } => 88,
            UnknownEvidence { .. } => 89,
            UnknownFlag { .. } => 100,
            UnknownCharge { .. } => 101,
            ItemPaid { .. } => 102,
            NotOwed { .. } => 103,
            RefundOfFee { .. } => 104,
            RefundMoreThanHeld { .. } => 105,
            UnknownRefundCondition { .. } => 106,
            RefundNotYet { .. } => 107,
            NobodyToRefund { .. } => 108,
            EntryClosed(_) => 90,
            BadRegulation(_) => 76,
            BadTime { .. } => 77,
            Busy { .. } => 78,
            ReasonMissing(_) => 79,
            Rule(_) => 80,
            Claim(_) => 130,
            NotPlacedDivision { .. } => 131,
            SectionMerged { .. } => 132,
            MergeIntoItself(_) => 133,
            MergeAfterDraw { .. } => 134,
            MergeTeamSection(_) => 135,
            MergeSamePerson { .. } => 136,
            MergeOverCap { .. } => 137,
            UnknownSection { .. } => 81,
            FeeNotPaid(_) => 82,
            NotCheckedIn(_) => 83,
            FeeCancelAfterPlay { .. } => 84,
            NobodyChosen => 85,
            BirthInFuture { .. } => 92,
            PledgeRequired { .. } => 93,
            DivisionRequired { .. } => 94,
            DivisionPlaced { .. } => 95,
            DivisionNotOpen { .. } => 96,
            BadSocialSecurity => 97,
            GroupsStarted { .. } => 138,
        }
    }

    const VARIANTS: usize = 139;

    fn men() -> Sec {
        Sec {
            id: "men".into(),
            name: "男子个人赛".into(),
        }
    }

    fn zhang() -> Who {
        Who {
            id: PlayerId(3),
            name: "张三".into(),
        }
    }

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
    }

    fn one_of_each() -> Vec<Refusal> {
        use Refusal::*;
        let s = men;
        vec![
            UnknownPlayer(PlayerId(9)),
            NameEmpty,
            Required(super::Required::Phone),
            BadIdNumber(IdNumberError::Length(17)),
            BadPhone,
            SexContradictsId { id_sex: Sex::Male },
            BirthContradictsId {
                id_birth: date(1990, 3, 7),
            },
            NotEligible {
                why: crate::registration::Ineligible::UnknownSection("men".into()),
            },
            // 越级, not allowed and with a condition unmet: worded by the names of the groups.
            NotEligible {
                why: crate::registration::Ineligible::PlayUp(Box::new(
                    arbiter_regulation::PlayingUp {
                        section: "男子10岁组".into(),
                        own: "男子8岁组".into(),
                        age: 8,
                        on: date(2007, 7, 14),
                        allowed: false,
                        rule_zh: "不得越级".into(),
                        rule_en: "not allowed".into(),
                    },
                )),
            },
            NotEligible {
                why: crate::registration::Ineligible::PlayUp(Box::new(
                    arbiter_regulation::PlayingUp {
                        section: "男子10岁组".into(),
                        own: "男子8岁组".into(),
                        age: 8,
                        on: date(2007, 7, 14),
                        allowed: true,
                        rule_zh: "须教练推荐信".into(),
                        rule_en: "requires coach_letter".into(),
                    },
                )),
            },
            CorrectionNotEligible {
                section: s(),
                why: crate::registration::Ineligible::UnknownSection("men".into()),
            },
            TeamRule {
                why: crate::registration::Ineligible::TeamFull {
                    team: "常熟队".into(),
                    members: 4,
                    max: 4,
                },
            },
            RefusalRecorded {
                name: "张三".into(),
                section: s(),
                reason: "报名已截止".into(),
            },
            NothingToCorrect,
            UnexpectedOutcome { kind: "fee_paid" },
            AmountNotPositive,
            NoFeeSet,
            FeePaid {
                player: zhang(),
                paid_fen: 12000,
                due_fen: 12000,
            },
            Withdrawn(zhang()),
            NoSuchRefusal(7),
            SameSection {
                player: zhang(),
                section: men(),
            },
            SectionChangeAfterDraw {
                player: zhang(),
                section: men(),
            },
            SectionChangeNotActive(zhang()),
            SectionMerged {
                section: men(),
                into: Sec {
                    id: "open".into(),
                    name: "公开组".into(),
                },
            },
            MergeIntoItself(men()),
            MergeAfterDraw { section: men() },
            MergeTeamSection(men()),
            MergeSamePerson {
                player: zhang(),
                into: men(),
            },
            MergeOverCap {
                into: men(),
                total: 40,
                cap: 32,
            },
            SectionChangeNotEligible {
                player: zhang(),
                section: men(),
                why: crate::registration::Ineligible::UnknownSection("men".into()),
            },
            SectionChangeInTeam {
                player: zhang(),
                team: "亨通一队".into(),
            },
            CheckedIn(zhang()),
            FeeNotPaid(zhang()),
            NotCheckedIn(zhang()),
            FeeCancelAfterPlay {
                player: zhang(),
                round: 1,
            },
            NobodyChosen,
            BadSocialSecurity,
            PledgeRequired {
                player: zhang(),
                pledge: "个人安全承诺书".into(),
            },
            BirthInFuture {
                birth: date(2030, 1, 1),
                on: date(2026, 9, 1),
                from_id: true,
            },
            NobodyToDraw { section: s() },
            AlreadyDrawn { section: s() },
            GroupsStarted { section: s() },
            UnknownSubmission(4),
            SubmissionDecided(4),
            CannotApprove {
                submission: 4,
                name: "张三".into(),
                reason: "报名已截止".into(),
            },
            RosterEmpty,
            NoTeamCompetition { section: s() },
            MemberElsewhere {
                player: zhang(),
                section: s(),
                team_section: Sec {
                    id: "women".into(),
                    name: "女子个人赛".into(),
                },
            },
            CrossUnit {
                player: zhang(),
                unit: Some("昆山一厂".into()),
                team_unit: "昆山二厂".into(),
            },
            UnitHasTeam {
                unit: "昆山一厂".into(),
                team: "一厂队".into(),
            },
            TooFewMembers {
                team: "一厂队".into(),
                members: 2,
                min: 3,
                change: false,
            },
            TooManyMembers {
                team: "一厂队".into(),
                members: 5,
                max: 4,
                change: true,
            },
            LeaderRequired,
            CoachRequired,
            UnknownDivision {
                section: s(),
                division: "c".into(),
                known: vec![("甲组".into(), "a".into())],
            },
            DivisionRequired {
                section: s(),
                known: vec![("甲组".into(), "a".into()), ("乙组".into(), "b".into())],
            },
            DivisionPlaced {
                unit: "昆山一厂".into(),
                placed: "甲组".into(),
                named: "乙组".into(),
            },
            DivisionNotOpen {
                unit: "昆山一厂".into(),
                division: "甲组".into(),
            },
            UnknownTeam {
                team: "一场队".into(),
                closest: Some("一厂队".into()),
            },
            NobodyToAddOrRemove,
            NotOnRoster {
                player: PlayerId(3),
                team: "一厂队".into(),
            },
            AlreadyOnRoster {
                player: zhang(),
                team: "一厂队".into(),
            },
            OnAnotherTeam {
                player: zhang(),
                team: "二厂队".into(),
            },
            TeamWithdrawn {
                team: "一厂队".into(),
            },
            RoundUnfinished {
                section: s(),
                round: 3,
                boards: (1..=12).collect(),
            },
            KnockoutDue {
                section: s(),
                games: 2,
            },
            AllRoundsPlayed { section: s() },
            RoundRobinFixed { section: s() },
            TooFewTeams {
                section: s(),
                teams: 1,
            },
            NotTeamSection { section: s() },
            TeamManual { section: s() },
            TeamNotPlaying {
                team: "一厂队".into(),
                round: 2,
            },
            TeamHadBye {
                team: "一厂队".into(),
                round: 2,
            },
            MatchUnfinished {
                team: "一厂队".into(),
                round: 2,
                match_no: 3,
                board: 2,
                round_board: 10,
            },
            MatchConfirmedAlready {
                team: "一厂队".into(),
                round: 2,
                match_no: 3,
                by: "张三".into(),
            },
            LineupLate {
                team: "一厂队".into(),
                round: 2,
                deadline: "2026-05-02 08:30".into(),
            },
            NoMatches {
                section: s(),
                round: 2,
            },
            Lineup {
                team: "一厂队".into(),
                why: crate::team_match::LineupProblem::NotMember(PlayerId(3), "张三".into()),
            },
            Manual(ManualError::Swap("同一棋手 (same player twice)".into())),
            LastRoundFinished {
                section: s(),
                round: 2,
            },
            NoRoundPaired { section: s() },
            AlreadyPublished {
                section: s(),
                round: 2,
            },
            UndoWithResults {
                section: s(),
                round: 2,
                board: 1,
            },
            SwapPublished {
                section: s(),
                round: 2,
            },
            SwapInTeam { section: s() },
            RoundNotPaired {
                section: s(),
                round: 5,
                paired: Some(4),
            },
            TooManyFouls {
                colour: Colour::Black,
                fouls: 21,
                max: 20,
            },
            BoardAmbiguous {
                section: s(),
                board: 1,
                swiss_round: 6,
                knockout_match: "SF1".into(),
            },
            NoKnockoutGame {
                section: s(),
                board: 9,
                due: vec![5, 6],
            },
            KnockoutGameEntered {
                match_id: "F".into(),
                game: 0,
                stored: Some(GameResult::RedWin),
                now_due: Some(("F".into(), 1)),
            },
            NoSuchBoard {
                section: s(),
                round: 2,
                board: 40,
                boards: Some(6),
            },
            ResultExists {
                section: s(),
                round: 2,
                board: 1,
                stored: GameResult::Draw,
            },
            ConfirmedResult {
                section: s(),
                round: 2,
                board: 1,
                stored: GameResult::Draw,
                chief: false,
            },
            ReentryTooLate {
                section: s(),
                round: 2,
                board: 1,
                next_round: Some(3),
            },
            RoundFinished {
                section: s(),
                round: 2,
            },
            NotPublished {
                section: s(),
                round: 2,
            },
            FoulRuleDecides {
                round: 2,
                board: 1,
                rule: "红方犯规 3 次判负".into(),
                due: GameResult::BlackWin,
                given: GameResult::RedWin,
            },
            NothingToConfirm {
                section: s(),
                round: 2,
            },
            NoResultToCorrect {
                section: s(),
                round: 2,
                board: 1,
            },
            SameResult {
                section: s(),
                round: 2,
                board: 1,
                result: GameResult::RedWin,
            },
            SignedResultFinal {
                section: s(),
                round: 2,
                board: 1,
                signed_by: vec!["张三".into(), "李四".into()],
            },
            ResultsLine {
                file: "r2.txt".into(),
                line: 3,
                problem: LineProblem::Result("x".into()),
            },
            ResultsFileEmpty {
                file: "r2.txt".into(),
            },
            AtLine {
                line: 4,
                refusal: Box::new(
                    NotPublished {
                        section: s(),
                        round: 2,
                    }
                    .into(),
                ),
            },
            NoTeamFouls { section: s() },
            SharedPlaceAwards {
                section: s(),
                category: None,
                place: 3,
                players: 2,
                qualification: false,
            },
            GameRule {
                section: s(),
                round: 4,
                board: 2,
                problem: GameProblem::NoPendingFlag,
            },
            RecordMove {
                section: s(),
                round: 4,
                board: 2,
                number: 3,
                side: arbiter_types::Colour::Black,
                text: "马2进3".into(),
                kind: arbiter_xiangqi::NotationErrorKind::Illegal,
            },
            TeamNotInSection {
                team: "一厂队".into(),
                section: s(),
            },
            SpecialAward(AwardProblem::UnknownAward {
                given: "最佳组织".into(),
                known: vec!["最佳组织奖".into()],
            }),
            UnknownCategory {
                section: s(),
                category: "senoir".into(),
                known: vec!["senior".into()],
                closest: Some("senior".into()),
            },
            AlreadyClosed,
            NothingPlayed,
            SectionUnfinished {
                section: s(),
                left: Left::ResultsMissing {
                    round: 7,
                    boards: 2,
                },
            },
            NotClosed,
            StartAfterEnd {
                start: date(2026, 10, 12),
                end: date(2026, 10, 11),
            },
            NoSwissRounds { section: s() },
            RoundsBelowPaired {
                section: s(),
                paired: 4,
                rounds: 3,
            },
            BadTimeControl {
                section: s(),
                text: "九十".into(),
                problem: TimeControlProblem::Unreadable,
            },
            NoSettingChanged,
            DeadlineAfterEnd {
                deadline: date(2026, 10, 13).and_hms_opt(18, 0, 0).unwrap_or_default(),
                end: date(2026, 10, 12),
            },
            UnknownEvidence {
                given: "社宝证明".into(),
            },
            UnknownFlag {
                given: "外地".into(),
                known: vec![("local".into(), "本地棋手".into())],
            },
            UnknownGrade {
                given: "业余十段".into(),
                known: vec!["业余1段".into(), "象棋大师".into()],
            },
            UnknownCharge {
                given: "押金金".into(),
                known: vec!["报名费".into(), "押金".into()],
            },
            ItemPaid {
                player: zhang(),
                item: "押金".into(),
                paid_fen: 20000,
                due_fen: 20000,
            },
            NotOwed {
                player: zhang(),
                item: "押金".into(),
            },
            RefundOfFee {
                item: "报名费".into(),
            },
            RefundMoreThanHeld {
                player: zhang(),
                item: "押金".into(),
                held_fen: 20000,
                amount_fen: 30000,
            },
            UnknownRefundCondition {
                given: "完成对局".into(),
                known: vec!["完成全部对局".into()],
            },
            RefundNotYet {
                rule: arbiter_regulation::RefundAt::LastRound,
                section: s(),
            },
            NobodyToRefund {
                rule: arbiter_regulation::RefundAt::Closing,
            },
            EntryClosed(Closed::DeadlinePassed {
                deadline: date(2026, 10, 1).and_hms_opt(18, 0, 0).unwrap_or_default(),
            }),
            BadRegulation(RegulationError {
                file: "t.toml".into(),
                line: 2,
                column: 7,
                message: "缺少 name (name is missing)".into(),
            }),
            BadTime {
                at: "yesterday".into(),
            },
            Busy { attempts: 20 },
            ReasonMissing(Needs::TeamFoul),
            Rule(Rejection::EventClosed),
            Claim(crate::claim::ClaimProblem::OtherBoard),
            NotPlacedDivision {
                division: "丙组".into(),
                placed: vec!["甲组".into()],
            },
            UnknownSection {
                given: "opn".into(),
                closest: Some("open".into()),
            },
        ]
    }

    #[test]
    fn one_of_each_is_every_variant() {
        let mut seen: Vec<usize> = one_of_each().iter().map(index).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen, (0..VARIANTS).collect::<Vec<_>>());
    }

    #[test]
    fn the_wording_names_no_flag_command_or_internal_id() {
        for r in one_of_each() {
            let text = r.to_string();
            assert!(!text.contains("--"), "a flag in {text}");
            assert!(!text.contains('`'), "a backtick in {text}");
            // `arbiter` only as in "the chief arbiter", never as the command.
            assert!(
                text.match_indices("arbiter ")
                    .all(|(i, _)| text[..i].ends_with("chief ")),
                "a command in {text}"
            );
            assert!(!text.is_empty(), "{r:?}");
            // The section by its name, not its id.
            assert!(
                !text.contains("men ") && !text.contains(" men"),
                "the section's id in {text}"
            );
        }
    }

    #[test]
    fn the_lists_and_facts_read_as_before() {
        let r = Refusal::RoundUnfinished {
            section: men(),
            round: 3,
            boards: (1..=12).collect(),
        };
        assert!(
            r.to_string()
                .starts_with("男子个人赛 第3轮已编排但尚未结束: 还有 12 台没有成绩 (第 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 … 台)"),
            "{r}"
        );
        let nameless = Sec {
            id: "open".into(),
            name: String::new(),
        };
        assert_eq!(nameless.to_string(), "open");
    }
}
