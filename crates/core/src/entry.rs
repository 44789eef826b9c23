//! Log entries and the versioned envelope.
//!
//! On disk / in exports every entry is one JSON object
//! `{"v":1,"seq":7,"at":"2026-09-20T08:30:00+08:00","actor":"chief","entry":{"type":"result_entered",…}}`.
//! `v` is the version of the entry format. Reading goes through [`Recorded::from_value`],
//! which migrates older versions to the current one before decoding, so a v2 only needs a
//! `migrate_v1_to_v2` step on the JSON value.

use arbiter_types::{Colour, GameKind, GameResult, IdNumber, Person, Phone, PlayerNo, Sex};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Current version of the entry format, written as `"v"` on every envelope.
pub const LOG_VERSION: u32 = 1;

/// An event-wide player number, assigned at registration (1, 2, 3 … in registration
/// order). Stable for the whole event, unlike pairing numbers, which are drawn per section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u32);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

/// One entry appended to the log, with its place and provenance.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// 1, 2, 3 … without gaps inside one event.
    pub seq: u64,
    /// RFC 3339 time supplied by the shell when the entry was appended.
    pub at: String,
    /// Who made the change (arbiter name, `import`, `cli` …).
    pub actor: String,
    pub entry: LogEntry,
}

#[derive(Serialize)]
struct EnvelopeOut<'a> {
    v: u32,
    seq: u64,
    at: &'a str,
    actor: &'a str,
    entry: &'a LogEntry,
}

#[derive(Deserialize)]
struct EnvelopeIn {
    v: u32,
    seq: u64,
    at: String,
    actor: String,
    entry: serde_json::Value,
}

/// A log entry that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogFormatError {
    #[error(
        "日志条目格式版本 v{0} 不受支持, 本程序支持至 v{LOG_VERSION} (unsupported entry version)"
    )]
    UnsupportedVersion(u32),
    #[error("日志条目无法解析: {0} (malformed log entry)")]
    Malformed(String),
}

impl Serialize for Recorded {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        EnvelopeOut {
            v: LOG_VERSION,
            seq: self.seq,
            at: &self.at,
            actor: &self.actor,
            entry: &self.entry,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Recorded {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Recorded::from_value(v).map_err(serde::de::Error::custom)
    }
}

impl Recorded {
    /// Decode an envelope of any supported version, migrating it to the current one.
    pub fn from_value(v: serde_json::Value) -> Result<Recorded, LogFormatError> {
        let env: EnvelopeIn =
            serde_json::from_value(v).map_err(|e| LogFormatError::Malformed(e.to_string()))?;
        let entry = migrate(env.v, env.entry)?;
        let entry: LogEntry =
            serde_json::from_value(entry).map_err(|e| LogFormatError::Malformed(e.to_string()))?;
        Ok(Recorded {
            seq: env.seq,
            at: env.at,
            actor: env.actor,
            entry,
        })
    }

    /// Decode the JSON text of one stored entry (envelope included).
    pub fn from_json(text: &str) -> Result<Recorded, LogFormatError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| LogFormatError::Malformed(e.to_string()))?;
        Recorded::from_value(v)
    }
}

/// Bring the JSON of an entry written with format version `v` up to [`LOG_VERSION`].
/// Each future version adds one step here (`1 => migrate_v1_to_v2(entry)`, …).
pub fn migrate(v: u32, entry: serde_json::Value) -> Result<serde_json::Value, LogFormatError> {
    match v {
        LOG_VERSION => Ok(entry),
        other => Err(LogFormatError::UnsupportedVersion(other)),
    }
}

/// A section as declared by the regulation, copied into the log so that replay never
/// depends on the regulation parser of a later program version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionInfo {
    pub id: String,
    pub name: String,
    /// Team divisions of the section (甲组 / 乙组, K1, K4); empty = one team ranking.
    /// Absent in logs written before divisions were copied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub divisions: Vec<DivisionInfo>,
}

/// A team division of a section, as declared by the regulation (`id = "a"`, `name = "甲组"`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DivisionInfo {
    pub id: String,
    pub name: String,
}

/// Registration limits of the event (K5, S3, T7).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryLimits {
    /// Entry closes at this many registered players (T7: 160).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_entries: Option<u32>,
    /// At most this many entries per association across all sections (S3: 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_per_association: Option<u32>,
    /// Registration deadline, RFC 3339 with offset (S3: 2025-09-26T17:00:00+08:00).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// Entry fee in fen (分); when set, a player who has not paid is not paired (T7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee_fen: Option<u64>,
    /// The regulation's money items (`charges`) decide who is unpaid: a player owing anything
    /// of an item due before play is not paired. Absent in older logs (then `fee_fen`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub charges_due: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventCreated {
    /// Event name from the regulation.
    pub name: String,
    /// Full source text of the regulation file.
    pub regulation: String,
    /// File name the regulation was read from (`kunshan-2026.toml`).
    pub file_name: String,
    /// Seed of every lot drawn in this event unless an entry records its own.
    pub seed: u64,
    pub sections: Vec<SectionInfo>,
    #[serde(default)]
    pub limits: EntryLimits,
}

/// A registration. Written with its person flattened in place; read through
/// [`RegisteredLine`], the same keys as plain fields, since a flattened field is read through
/// a buffered map (13 % more work per registration read, measured on a log of 3,000).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "RegisteredLine")]
pub struct PlayerRegistered {
    pub player: PlayerId,
    pub section: String,
    /// Name and particulars, written in place (`"name":…,"sex":…,…,"association":…`) as
    /// when they were fields of their own.
    #[serde(flatten)]
    pub person: Person,
    /// Team name (队名) for same-team avoidance and team standings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// Evidence seen at registration (社保证明, 营业执照, 承诺书 …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// Local player (T1 天水本地组).
    #[serde(default)]
    pub local: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
    /// 段位/称号 as the regulation's `[grades]` scale names it (「业余5段」, 「象棋大师」).
    /// Absent in older logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<String>,
    /// Every eligibility flag of the entry form (`local`, `group_member`, `national_master`,
    /// …), so that eligibility can be checked again on replay. Absent in older logs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The chief arbiter's reason for admitting an entry after the registration deadline
    /// (补报, late entry). Only such an entry may be appended after the deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_reason: Option<String>,
    /// The online submission (`entry_submitted`) this registration approves: the deadline is
    /// judged at the time that submission was recorded, not at the approval's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submission: Option<u32>,
}

/// A `player_registered` line as stored: every key a field of its own, in the order written.
#[derive(Deserialize)]
struct RegisteredLine {
    player: PlayerId,
    section: String,
    name: String,
    #[serde(default)]
    sex: Option<Sex>,
    #[serde(default)]
    birth_date: Option<NaiveDate>,
    #[serde(default)]
    id_number: Option<IdNumber>,
    #[serde(default)]
    phone: Option<Phone>,
    #[serde(default)]
    social_security: Option<arbiter_types::SocialSecurityNo>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    association: Option<String>,
    #[serde(default)]
    team: Option<String>,
    #[serde(default)]
    evidence: Vec<String>,
    #[serde(default)]
    local: bool,
    #[serde(default)]
    rating: Option<u32>,
    #[serde(default)]
    grade: Option<String>,
    #[serde(default)]
    flags: Vec<String>,
    #[serde(default)]
    late_reason: Option<String>,
    #[serde(default)]
    submission: Option<u32>,
}

impl From<RegisteredLine> for PlayerRegistered {
    fn from(l: RegisteredLine) -> Self {
        PlayerRegistered {
            player: l.player,
            section: l.section,
            person: Person {
                name: l.name,
                sex: l.sex,
                birth_date: l.birth_date,
                id_number: l.id_number,
                phone: l.phone,
                social_security: l.social_security,
                unit: l.unit,
                association: l.association,
            },
            team: l.team,
            evidence: l.evidence,
            local: l.local,
            rating: l.rating,
            grade: l.grade,
            flags: l.flags,
            late_reason: l.late_reason,
            submission: l.submission,
        }
    }
}

/// A time control as the settings give it: minutes per side and seconds added per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControlSetting {
    pub minutes: u32,
    #[serde(default)]
    pub increment_seconds: u32,
}

/// What an entry form said, recorded with a refusal so that a replay can check the entry
/// is still refused (`evidence` and `flags` by their regulation names).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedFacts {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<Sex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birth_date: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub association: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// 段位/称号 as the scale names it. Absent in older logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<String>,
}

/// One corrected registration field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "field", content = "value", rename_all = "snake_case")]
pub enum FieldChange {
    Name(String),
    Sex(Option<Sex>),
    BirthDate(Option<NaiveDate>),
    IdNumber(Option<IdNumber>),
    Phone(Option<Phone>),
    Unit(Option<String>),
    Association(Option<String>),
    Team(Option<String>),
    Rating(Option<u32>),
    /// 段位/称号, as the regulation's scale names it.
    Grade(Option<String>),
    Local(bool),
    Evidence(Vec<String>),
    Flags(Vec<String>),
}

/// How a game ended (J5). Recorded with the result when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// 将死
    Checkmate,
    /// 困毙
    Stalemate,
    /// 送将 / 自将 (moving into check)
    SelfCheck,
    /// 超时
    Time,
    /// 认输
    Resignation,
    /// 三次犯规判负
    ThreeFouls,
    /// 长将 / 禁着 裁决
    PerpetualCheck,
    /// 迟到判负
    Late,
    /// 违纪判负 (phone in the hall, T8)
    Discipline,
    /// 议和
    AgreedDraw,
    /// 裁判判和 (draw by rule: repetition without a forbidden move, insufficient material)
    RuleDraw,
    /// 自然限着 (40-move natural limit)
    NaturalMoveLimit,
}

impl Ending {
    pub fn zh(self) -> &'static str {
        match self {
            Ending::Checkmate => "将死",
            Ending::Stalemate => "困毙",
            Ending::SelfCheck => "送将",
            Ending::Time => "超时",
            Ending::Resignation => "认输",
            Ending::ThreeFouls => "三次犯规",
            Ending::PerpetualCheck => "长将/禁着",
            Ending::Late => "迟到",
            Ending::Discipline => "违纪",
            Ending::AgreedDraw => "议和",
            Ending::RuleDraw => "判和",
            Ending::NaturalMoveLimit => "自然限着",
        }
    }

    /// English words (the log name with spaces: `natural move limit`).
    pub fn en(self) -> String {
        self.name().replace('_', " ")
    }

    /// Every ending, in the order the arbiter's lists show them.
    pub const ALL: [Ending; 12] = [
        Ending::Checkmate,
        Ending::Stalemate,
        Ending::SelfCheck,
        Ending::Time,
        Ending::Resignation,
        Ending::ThreeFouls,
        Ending::PerpetualCheck,
        Ending::Late,
        Ending::Discipline,
        Ending::AgreedDraw,
        Ending::RuleDraw,
        Ending::NaturalMoveLimit,
    ];

    /// The name in the log (`resignation`).
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::SelfCheck => "self_check",
            Ending::Time => "time",
            Ending::Resignation => "resignation",
            Ending::ThreeFouls => "three_fouls",
            Ending::PerpetualCheck => "perpetual_check",
            Ending::Late => "late",
            Ending::Discipline => "discipline",
            Ending::AgreedDraw => "agreed_draw",
            Ending::RuleDraw => "rule_draw",
            Ending::NaturalMoveLimit => "natural_move_limit",
        }
    }
}

/// An ending by its log name (`resignation`) or its Chinese label (`认输`); the error lists
/// every ending.
impl std::str::FromStr for Ending {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        Ending::ALL
            .iter()
            .copied()
            .find(|e| e.name() == t || e.zh() == t)
            .ok_or_else(|| {
                let all: Vec<String> = Ending::ALL
                    .iter()
                    .map(|e| format!("{} {}", e.name(), e.zh()))
                    .collect();
                format!(
                    "`{t}` 无法识别, 应为 (unknown ending; one of): {}",
                    all.join(", ")
                )
            })
    }
}

/// One board of a paired round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub board: u32,
    pub red: PlayerId,
    pub black: PlayerId,
}

/// One match of a team round: `first` (named first, 先走方: red on the odd boards) against
/// `second`, by team name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPairing {
    pub first: String,
    pub second: String,
}

/// One official of the event (裁判长, 副裁判长, 编排长, 仲裁委员会主任 …): the role as the
/// appointment names it and the person's name — a public name, never a phone or an ID number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Official {
    pub role: String,
    pub name: String,
}

/// The final places of one section, fixed when the event is closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosedSection {
    pub section: String,
    /// `[rank, player]` in order (a shared place repeats the rank).
    pub places: Vec<(u32, PlayerId)>,
}

/// The team standings of one section (and division), fixed when the event is closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosedTeams {
    pub section: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    /// `[rank, team]` in order.
    pub places: Vec<(u32, String)>,
}

/// One prize awarded, fixed when the event is closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosedPrize {
    pub section: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    pub rank: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// Prize money in yuan (exact), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<arbiter_types::Score>,
}

/// Who earned a foul.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Offender {
    Player(PlayerId),
    /// A team, by team name (leader or coach fouls, K12).
    Team(String),
}

/// Every change to an event. Adding a variant is backwards compatible; changing the meaning
/// of a field needs a new [`LOG_VERSION`] and a migration step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogEntry {
    EventCreated(EventCreated),
    PlayerRegistered(PlayerRegistered),
    PlayerCorrected {
        player: PlayerId,
        changes: Vec<FieldChange>,
        reason: String,
    },
    PlayerWithdrawn {
        player: PlayerId,
        reason: String,
        /// Last round the player's results count for (None: before round 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after_round: Option<u32>,
        /// The withdrawal followed from the regulation's forfeit rule (K8: 连续弃权三轮), so a
        /// correction that removes the forfeits undoes it (A16). Absent in older logs and for
        /// every other withdrawal.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_forfeits: bool,
    },
    /// A withdrawn player is back in the event (恢复参赛, A16): paired again from the next
    /// round. `by_correction`: a correction removed the forfeits his withdrawal followed from;
    /// otherwise the chief arbiter's decision, with the reason, and only forfeits after it
    /// count towards the forfeit rule again.
    PlayerReinstated {
        player: PlayerId,
        reason: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_correction: bool,
    },
    /// The chief arbiter disqualifies a player (取消比赛资格 / 取消成绩, A17), with the reason:
    /// he is not paired again, his games after `after_round` are his forfeits, and he has no
    /// place, prize or title. `void_results` (成绩作废, where the regulation says so): every
    /// game of his counts for his opponents as their forfeit win.
    PlayerDisqualified {
        player: PlayerId,
        reason: String,
        /// Last completed round whose games stand as played (None: before round 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after_round: Option<u32>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        void_results: bool,
    },
    /// The player moves to another section before either section's numbers are drawn (换组),
    /// with the reason: the same entry — his fees, check-in and corrections go with him, no
    /// second entry is left behind.
    PlayerSectionChanged {
        player: PlayerId,
        from: String,
        to: String,
        reason: String,
    },
    /// The chief arbiter merges section `from` into section `into` before either is drawn
    /// (「对分组可作适当调整」: a group too small to be played on its own), with the reason:
    /// every player of `from` moves to `into` as the same entry (fees, check-in and corrections
    /// with him), and `from` takes no more entries.
    SectionsMerged {
        from: String,
        into: String,
        reason: String,
    },
    /// The chief arbiter revokes a disqualification (撤销取消比赛资格, A17), with the reason.
    DisqualificationRevoked {
        player: PlayerId,
        reason: String,
    },
    /// An entry that the regulation refuses, recorded with the reason.
    EntryRefused {
        name: String,
        section: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id_number: Option<IdNumber>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<String>,
        /// The form's facts, when the refusal can be checked again (absent in older logs
        /// and for forms whose ID number or phone did not parse).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facts: Option<RefusedFacts>,
    },
    /// The chief arbiter withdraws a refusal recorded by mistake (`entry_refused` at seq
    /// `refusal`), with the reason: it leaves the list of refused entries.
    RefusalWithdrawn {
        refusal: u64,
        reason: String,
    },
    FeePaid {
        player: PlayerId,
        amount_fen: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        receipt: Option<String>,
        /// The regulation's money item paid (「报名费」, 「押金」); absent: its first fee item
        /// (the `fee` of a regulation without `charges`), as in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
    },
    CheckedIn {
        player: PlayerId,
        /// He signed the pledge the regulation asks for at check-in (T7: 个人安全承诺书).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pledge: bool,
    },
    /// A fee recorded by mistake taken back (撤销缴费): `amount_fen` of what he has paid is
    /// no longer counted. At most what he has paid.
    FeeCancelled {
        player: PlayerId,
        amount_fen: u64,
        /// The item cancelled; absent: the first fee item, as in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
    },
    /// A deposit given back (退还押金): `amount_fen` of the item `item` the player paid, at
    /// most what he paid and was not refunded yet. Only of a deposit, never of a fee.
    DepositRefunded {
        player: PlayerId,
        item: String,
        amount_fen: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The organiser marks (or unmarks) a deposit's refund condition for a player
    /// (「完成全部对局」, 「未弃权」).
    RefundConditionMarked {
        player: PlayerId,
        condition: String,
        met: bool,
    },
    /// A check-in recorded by mistake taken back (撤销签到). Only of a player checked in.
    CheckInCancelled {
        player: PlayerId,
    },
    /// The player will not play round `round` (请假, excused): not paired that round, which
    /// scores as an absence. Only for a round not yet paired in the player's section.
    PlayerAbsent {
        player: PlayerId,
        round: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// Absent without leave (无故缺席, S7), not excused: where the regulation says so
        /// (`absence_without_leave_withdraws`) the director records the withdrawal with it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        without_leave: bool,
    },
    TeamEntered {
        /// Team name, unique in the event (昆山农商行一队).
        team: String,
        unit: String,
        /// Team division (甲组 / 乙组): the id of a division of the members' section
        /// (`SectionInfo::divisions`, e.g. `"a"`). Older logs may name a section id instead;
        /// both are accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        division: Option<String>,
        members: Vec<PlayerId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        leader: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        coach: Option<String>,
    },
    /// A team's roster changed after its entry (队员增补, 退出, 替换): `removed` leave the team,
    /// `added` join it, in one entry (a replacement is one of each). The players' `team`
    /// follows, so the roster stays the one list of the team's players.
    TeamRosterChanged {
        team: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        added: Vec<PlayerId>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        removed: Vec<PlayerId>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// Pairing numbers of a section: `order[0]` gets number 1. A later draw may only extend
    /// the order once a round is paired (late entries get the next numbers).
    PairingNumbersDrawn {
        section: String,
        seed: u64,
        order: Vec<PlayerId>,
    },
    /// The split of a `groups` section into its groups (分组, 规则 11.3): `groups[0]` is group
    /// A, each in the order of its table (the first is its number 1). `seed`: the lot's seed
    /// when the groups were drawn by lot (none for a 蛇形 split by pairing number).
    GroupsDrawn {
        section: String,
        groups: Vec<Vec<PlayerId>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
    },
    RoundPaired {
        section: String,
        round: u32,
        /// 1 for the first stage; 2 for the knockout / continuing stage of a two-stage section.
        #[serde(default = "one")]
        stage: u32,
        boards: Vec<Board>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        byes: Vec<PlayerId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        /// Manual adjustments made by the arbiter, in words.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        manual: Vec<String>,
    },
    ResultEntered {
        section: String,
        round: u32,
        board: u32,
        result: GameResult,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ending: Option<Ending>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        moves: Option<u32>,
    },
    /// A player's own claim of his board's result, made with his code on his phone (J6, S11):
    /// `side` is the colour he played. Both sides' claims agreeing enter the result (a
    /// `result_entered` after the claim); a disagreement, or a claim by a side the regulation
    /// does not let sign, waits for the arbiter.
    ResultClaimed {
        section: String,
        round: u32,
        board: u32,
        side: Colour,
        result: GameResult,
    },
    /// The result slip is signed (S11, J6): from now on only a correction changes it (A12).
    ResultConfirmed {
        section: String,
        round: u32,
        board: u32,
        signed_by: Vec<String>,
    },
    /// A chief arbiter's correction of a result, with the reason (A12).
    ResultCorrected {
        section: String,
        round: u32,
        board: u32,
        result: GameResult,
        reason: String,
        by: String,
    },
    /// A foul (犯规, A11, K12, T8). `board` (with `round`) ties it to one game, so the
    /// regulation's per-game limits apply; `kind` tells a phone foul from the others.
    /// Both fields are optional in the log (older logs have neither: a general foul).
    FoulRecorded {
        section: String,
        offender: Offender,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        round: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        board: Option<u32>,
        #[serde(default, skip_serializing_if = "FoulKind::is_general")]
        kind: FoulKind,
        reason: String,
    },
    RoundCompleted {
        section: String,
        round: u32,
    },
    /// A board was played with the colours the other way round (S6: 如发现先后手颠倒，应及时
    /// 向裁判员提出，开赛后不予纠正): `swapped` = the player paired as black played red. From
    /// this entry on the board's red and black are the colours actually played — its result,
    /// scores (S5: red draw 2, black draw 3), colour histories and 后走局数 follow them.
    /// `swapped: false` takes a mistaken record back. Only before the board's slip is signed.
    ColoursPlayed {
        section: String,
        round: u32,
        board: u32,
        swapped: bool,
    },
    /// The arbiter's decision on a flag the director raised on a game (T6: a draw recorded
    /// with fewer than the regulation's minimum moves, 和棋录谱不足25回合): `confirmed` (the
    /// fouls are the `foul_recorded` entries beside it) or dismissed, with the reason.
    FoulFlagDecided {
        section: String,
        round: u32,
        board: u32,
        kind: FoulKind,
        confirmed: bool,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// A game record (记谱, A13, T6) of a board: its moves from the standard start position,
    /// in ICCS (`h2e2`), as entered at the desk or imported from a PGN file. A later record
    /// of the same board replaces the earlier (a correction); every move must be legal.
    GameRecorded {
        section: String,
        round: u32,
        board: u32,
        moves: Vec<String>,
        #[serde(default)]
        source: RecordSource,
        /// Who wrote the record down (the player, or the desk), when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recorded_by: Option<String>,
    },
    /// The record of a board is taken away (entered on the wrong board, say), with the reason.
    GameRecordRemoved {
        section: String,
        round: u32,
        board: u32,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// A protest (申诉, S11) about a game and the arbitration's decision: who filed it, the
    /// deposit paid (申诉费, fen), whether it was upheld, and whether the deposit was returned
    /// (S11: 胜诉退还，如不胜诉则不退还).
    ProtestDecided {
        section: String,
        round: u32,
        board: u32,
        /// Who filed it (领队 / 教练, in words).
        by: String,
        deposit_fen: u64,
        upheld: bool,
        deposit_returned: bool,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// An award the organiser gives (S10: 最佳组织奖, 最佳赛风赛纪奖): the regulation's
    /// `special_awards` name it and how many there are; the recipients are units, teams or
    /// players of the event, in words. A later entry for the same award replaces the
    /// earlier; no recipients takes the award back.
    SpecialAwardGiven {
        award: String,
        recipients: Vec<String>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// The event's officials (裁判长, 副裁判长, 编排长, 仲裁委员会 …) as appointed, in the
    /// order the booklets print them; a later entry replaces the whole list (none: the list
    /// taken back).
    OfficialsAppointed {
        officials: Vec<Official>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// The chief arbiter closes the event (闭幕): every section is finished, and the final
    /// standings, team standings and prizes are fixed as announced. After it the log takes
    /// nothing but [`LogEntry::EventReopened`] (no result, correction, pairing or entry).
    EventClosed {
        /// Final places of every section, in order: `[rank, player]`.
        standings: Vec<ClosedSection>,
        /// Team standings, in order: `[rank, team]`, by section and division.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        teams: Vec<ClosedTeams>,
        /// Every prize awarded.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        prizes: Vec<ClosedPrize>,
    },
    /// The chief arbiter reopens a closed event, with the reason (a late correction, A12);
    /// the event is closed again by a new `event_closed`.
    EventReopened {
        reason: String,
        by: String,
    },
    /// The pairing of a round is published (公布对阵表): the games may start, and from now on
    /// the round can only be undone while it has no result.
    RoundPublished {
        section: String,
        round: u32,
    },
    /// The last round's pairing is withdrawn (撤销编排) — before it was published, or while
    /// no game of it has a result — so that it can be paired again.
    RoundUndone {
        section: String,
        round: u32,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// An entry sent through the public online form (网上报名), waiting for the desk's
    /// decision ([`LogEntry::SubmissionDecided`]). Not a registration: the player exists only
    /// once the desk approves it (a `player_registered` with the same facts).
    EntrySubmitted {
        /// 1, 2, 3 … in the event, in submission order.
        submission: u32,
        section: String,
        /// Name and particulars, written in place as when they were fields of their own
        /// (an online form asks no association: it stays absent).
        #[serde(flatten)]
        person: Person,
        /// The section's conditions the player claims (`local` …), judged again when the
        /// desk approves.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        flags: Vec<String>,
        /// The documents the player says he will show (by regulation name); the desk checks
        /// them when approving.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        evidence: Vec<String>,
        /// SHA-256 (hex) of the token of the player's status page; the token itself is
        /// given to the player only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status_key: Option<String>,
    },
    /// The desk's decision on an online submission: approved as `player` (registered by the
    /// `player_registered` appended just before it), or refused with `reason`.
    SubmissionDecided {
        submission: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<PlayerId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The arbiters change the event's settings (赛事设置): only the fields given change.
    /// `rounds` sets the Swiss rounds of sections (`[section, rounds]`). The regulation text
    /// in `event_created` stays as it was; the fold keeps the changes and the director reads
    /// the regulation with them (`arbiter_director::regulation_of`).
    SettingsChanged {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<NaiveDate>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<NaiveDate>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        venue: Option<String>,
        /// The registration deadline (报名截止), RFC 3339 with offset, over the regulation's
        /// (and the `event_created` limits'): every section's deadline.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline: Option<String>,
        /// The date ages are counted on (年龄计算日期), over the regulation's `age_on` of
        /// every section with an age rule.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        age_on: Option<NaiveDate>,
        #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        rounds: std::collections::BTreeMap<String, u32>,
        /// The slow games' time control (比赛用时) of sections (`[section, {minutes,
        /// increment_seconds}]`), over the regulation's `time_controls`.
        #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        time_controls: std::collections::BTreeMap<String, TimeControlSetting>,
        /// Last edition's units placed in a team division (昆山 五(一) 「上届…前八名…单位，本届
        /// 自动划入甲组」) by division id, over the regulation's `units`: the edition fills
        /// what the bundled regulation leaves empty. Absent in older logs.
        #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        placed_units: std::collections::BTreeMap<String, Vec<String>>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// Team numbers of a team-match section (团体赛抽签, A15): `order[0]` gets team number 1.
    /// A later draw may only extend the order once a round is paired.
    TeamNumbersDrawn {
        section: String,
        seed: u64,
        order: Vec<String>,
    },
    /// The matches of a round of a team-match section (团体赛对阵, A15): each team named
    /// first plays red on the odd boards. The boards' games follow in a `round_paired` of the
    /// same round, board `(m - 1) × boards + b` being board `b` of match `m`.
    MatchesPaired {
        section: String,
        round: u32,
        matches: Vec<TeamPairing>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bye: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        /// Manual adjustments made by the arbiter, in words.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        manual: Vec<String>,
    },
    /// A team's line-up for a round (出场名单, A15): `boards[0]` plays board 1; `None` is an
    /// empty board (lost by forfeit). A later line-up of the same team and round replaces the
    /// earlier, while none of its games has a result.
    LineupGiven {
        section: String,
        round: u32,
        team: String,
        boards: Vec<Option<PlayerId>>,
        /// Who handed it in (领队 / 教练), in words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        by: String,
    },
    /// A team's captain confirms its match of a round (队长确认, A15): he signs the match's
    /// score sheet (团体赛记分表) once every board of the match has a result. A result of
    /// that match entered, corrected or played with colours swapped afterwards drops the
    /// match's confirmations in the fold (the captains confirmed other results).
    MatchConfirmed {
        section: String,
        round: u32,
        team: String,
        /// The captain who signed (队长 / 领队), in words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        by: String,
    },
    /// The seeds of a Swiss stage's knockout (A9), fixed as its first game is entered: the
    /// pairing numbers of the top k of the standings after stage 1, in seed order. A result
    /// of stage 1 corrected afterwards changes the Swiss standings, not the bracket being
    /// played. Absent in older logs: their seeds are read from the standings.
    KnockoutSeeded {
        section: String,
        seeds: Vec<PlayerNo>,
    },
    /// One game of a knockout match.
    KnockoutGameRecorded {
        section: String,
        match_id: String,
        game: u32,
        kind: GameKind,
        red: PlayerId,
        black: PlayerId,
        result: GameResult,
        /// The game's fouls in the order they happened (A11, K12, T8 apply to knockout games
        /// as to any game): each counts as a player's foul (`foul_recorded`) does. Absent in
        /// older logs and in a game without fouls.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fouls: Vec<KnockoutFoul>,
    },
    /// A player's own claim of a knockout game's result, made with his code on his phone
    /// (J6, S11), before the game is recorded: `game` is its index in the match (from 0),
    /// `side` the colour the slip gave him. Both sides' claims agreeing record the game (a
    /// `knockout_game_recorded` after the claim); a disagreement waits for the arbiter.
    KnockoutResultClaimed {
        section: String,
        match_id: String,
        game: u32,
        side: Colour,
        result: GameResult,
    },
}

/// A foul in a knockout game, by the colour of the player who committed it in that game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KnockoutFoul {
    pub colour: Colour,
    #[serde(default, skip_serializing_if = "FoulKind::is_general")]
    pub kind: FoulKind,
    pub reason: String,
}

/// Where a game record came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordSource {
    /// Typed at the desk (or on the command line) from the score sheet.
    #[default]
    Desk,
    /// Imported from a PGN file.
    Pgn,
}

impl RecordSource {
    /// 记录台 / PGN 文件.
    pub fn zh(self) -> &'static str {
        match self {
            RecordSource::Desk => "记录台录入",
            RecordSource::Pgn => "PGN 文件导入",
        }
    }
}

/// The kind of a foul. Only `phone` has its own limit (`phone_fouls_for_loss`: K12 = 2,
/// T8 = 1); every kind counts towards the general `fouls_for_loss`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum FoulKind {
    /// 一般犯规.
    #[default]
    General,
    /// 使用手机 (K12: the 2nd = loss; T8: phone in the hall = loss).
    Phone,
    /// 不记录着法 (moves not recorded).
    Records,
    /// 未满规定回合数提和 (a draw offered before the minimum number of moves, T6).
    ShortDraw,
    /// 场外指导 / 违规交流 (coaching or talking during play).
    Coaching,
}

impl FoulKind {
    pub const ALL: [FoulKind; 5] = [
        FoulKind::General,
        FoulKind::Phone,
        FoulKind::Records,
        FoulKind::ShortDraw,
        FoulKind::Coaching,
    ];

    pub fn is_general(&self) -> bool {
        *self == FoulKind::General
    }

    /// Chinese label.
    pub fn zh(self) -> &'static str {
        match self {
            FoulKind::General => "一般犯规",
            FoulKind::Phone => "使用手机",
            FoulKind::Records => "不记录着法",
            FoulKind::ShortDraw => "未满回合提和",
            FoulKind::Coaching => "场外指导",
        }
    }

    /// The `snake_case` name used in the log.
    pub fn code(self) -> &'static str {
        match self {
            FoulKind::General => "general",
            FoulKind::Phone => "phone",
            FoulKind::Records => "records",
            FoulKind::ShortDraw => "short_draw",
            FoulKind::Coaching => "coaching",
        }
    }
}

impl std::str::FromStr for FoulKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        FoulKind::ALL
            .into_iter()
            .find(|k| k.code().eq_ignore_ascii_case(t) || k.zh() == t)
            .ok_or_else(|| {
                let names: Vec<&str> = FoulKind::ALL.iter().map(|k| k.code()).collect();
                format!(
                    "未知的犯规类别 `{t}` (unknown foul kind; one of {})",
                    names.join(", ")
                )
            })
    }
}

fn one() -> u32 {
    1
}

impl LogEntry {
    /// The `type` tag of this entry.
    pub fn kind(&self) -> &'static str {
        match self {
            LogEntry::EventCreated(_) => "event_created",
            LogEntry::PlayerRegistered(_) => "player_registered",
            LogEntry::PlayerCorrected { .. } => "player_corrected",
            LogEntry::PlayerWithdrawn { .. } => "player_withdrawn",
            LogEntry::PlayerReinstated { .. } => "player_reinstated",
            LogEntry::PlayerDisqualified { .. } => "player_disqualified",
            LogEntry::DisqualificationRevoked { .. } => "disqualification_revoked",
            LogEntry::PlayerSectionChanged { .. } => "player_section_changed",
            LogEntry::SectionsMerged { .. } => "sections_merged",
            LogEntry::EntryRefused { .. } => "entry_refused",
            LogEntry::RefusalWithdrawn { .. } => "refusal_withdrawn",
            LogEntry::FeePaid { .. } => "fee_paid",
            LogEntry::CheckedIn { .. } => "checked_in",
            LogEntry::FeeCancelled { .. } => "fee_cancelled",
            LogEntry::DepositRefunded { .. } => "deposit_refunded",
            LogEntry::RefundConditionMarked { .. } => "refund_condition_marked",
            LogEntry::CheckInCancelled { .. } => "check_in_cancelled",
            LogEntry::PlayerAbsent { .. } => "player_absent",
            LogEntry::TeamEntered { .. } => "team_entered",
            LogEntry::TeamRosterChanged { .. } => "team_roster_changed",
            LogEntry::PairingNumbersDrawn { .. } => "pairing_numbers_drawn",
            LogEntry::GroupsDrawn { .. } => "groups_drawn",
            LogEntry::RoundPaired { .. } => "round_paired",
            LogEntry::ResultEntered { .. } => "result_entered",
            LogEntry::ResultClaimed { .. } => "result_claimed",
            LogEntry::ResultConfirmed { .. } => "result_confirmed",
            LogEntry::ResultCorrected { .. } => "result_corrected",
            LogEntry::FoulRecorded { .. } => "foul_recorded",
            LogEntry::RoundCompleted { .. } => "round_completed",
            LogEntry::ColoursPlayed { .. } => "colours_played",
            LogEntry::FoulFlagDecided { .. } => "foul_flag_decided",
            LogEntry::ProtestDecided { .. } => "protest_decided",
            LogEntry::GameRecorded { .. } => "game_recorded",
            LogEntry::GameRecordRemoved { .. } => "game_record_removed",
            LogEntry::SpecialAwardGiven { .. } => "special_award_given",
            LogEntry::OfficialsAppointed { .. } => "officials_appointed",
            LogEntry::RoundPublished { .. } => "round_published",
            LogEntry::RoundUndone { .. } => "round_undone",
            LogEntry::KnockoutSeeded { .. } => "knockout_seeded",
            LogEntry::KnockoutGameRecorded { .. } => "knockout_game_recorded",
            LogEntry::KnockoutResultClaimed { .. } => "knockout_result_claimed",
            LogEntry::TeamNumbersDrawn { .. } => "team_numbers_drawn",
            LogEntry::MatchesPaired { .. } => "matches_paired",
            LogEntry::LineupGiven { .. } => "lineup_given",
            LogEntry::MatchConfirmed { .. } => "match_confirmed",
            LogEntry::EntrySubmitted { .. } => "entry_submitted",
            LogEntry::SubmissionDecided { .. } => "submission_decided",
            LogEntry::SettingsChanged { .. } => "settings_changed",
            LogEntry::EventClosed { .. } => "event_closed",
            LogEntry::EventReopened { .. } => "event_reopened",
        }
    }

    /// A copy safe to print: ID numbers and phones masked. (The log itself keeps them.)
    pub fn masked_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        mask_value(&mut v);
        v
    }
}

/// Mask every `id_number` / `phone` string inside a JSON value (also inside
/// `{"field":"phone","value":…}` corrections).
pub fn mask_value(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            let field = map.get("field").and_then(Value::as_str).map(str::to_string);
            for (k, x) in map.iter_mut() {
                let key = if k == "value" {
                    field.as_deref().unwrap_or("")
                } else {
                    k.as_str()
                };
                match (key, &*x) {
                    ("id_number", Value::String(s)) => {
                        *x = Value::String(
                            s.parse::<IdNumber>()
                                .map(|i| i.masked())
                                .unwrap_or_else(|_| "*".repeat(s.chars().count())),
                        )
                    }
                    ("phone", Value::String(s)) => {
                        *x = Value::String(
                            s.parse::<Phone>()
                                .map(|p| p.masked())
                                .unwrap_or_else(|_| "*".repeat(s.chars().count())),
                        )
                    }
                    ("social_security", Value::String(s)) => {
                        *x = Value::String(
                            s.parse::<arbiter_types::SocialSecurityNo>()
                                .map(|p| p.masked())
                                .unwrap_or_else(|_| "*".repeat(s.chars().count())),
                        )
                    }
                    _ => mask_value(x),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(mask_value),
        _ => {}
    }
}

#[cfg(test)]
mod ending_tests {
    use super::Ending;

    #[test]
    fn every_ending_parses_by_its_log_name_and_its_chinese_label() {
        for e in Ending::ALL {
            let json = serde_json::to_value(e).unwrap();
            assert_eq!(json.as_str(), Some(e.name()), "the log name is serde's");
            assert_eq!(e.name().parse::<Ending>(), Ok(e));
            assert_eq!(e.zh().parse::<Ending>(), Ok(e));
        }
        let err = "投降".parse::<Ending>().unwrap_err();
        assert!(err.contains("resignation 认输"), "{err}");
    }
}
