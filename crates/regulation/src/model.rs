//! The regulation model: what a regulation file says, after parsing and validation.
//!
//! Every struct here is deserialised straight from TOML (`deny_unknown_fields`), so the
//! TOML keys are the snake_case field names. See `docs/regulation-format.md`.

use crate::de;
use arbiter_types::{Fallback, GameKind, PairingSettings, ScoringTable, Sex, TiebreakName};
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use serde::Deserialize;

/// A whole regulation file: the event and its sections.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Regulation {
    pub event: EventInfo,
    /// Event-wide registration rules; a section's `[sections.entries]` overrides them.
    #[serde(default)]
    pub registration: Registration,
    pub sections: Vec<Section>,
    /// S9: association (or unit) standings across sections.
    #[serde(default)]
    pub associations: Option<AssociationStandings>,
    /// S10: awards the organiser gives by choice (not computed).
    #[serde(default)]
    pub special_awards: Vec<SpecialAward>,
    /// 段位、棋士等级与称号: the ordered scale a player's grade is read on (issue 46).
    #[serde(default)]
    pub grades: crate::grades::Grades,
}

/// 赛事信息.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventInfo {
    pub name: String,
    #[serde(default)]
    pub name_en: Option<String>,
    #[serde(deserialize_with = "de::date")]
    pub start: NaiveDate,
    #[serde(deserialize_with = "de::date")]
    pub end: NaiveDate,
    #[serde(default)]
    pub venue: Option<String>,
    /// 主办单位
    #[serde(default)]
    pub organisers: Vec<String>,
    /// 承办单位 / 执行单位
    #[serde(default)]
    pub hosts: Vec<String>,
    /// 执行的规则, e.g. 《象棋竞赛规则(2020)》
    #[serde(default)]
    pub rules: Option<String>,
    /// 仲裁申诉费 (S11), yuan.
    #[serde(default)]
    pub protest_deposit_yuan: Option<u32>,
    /// How a result slip is signed (S11, J6).
    #[serde(default)]
    pub result_signing: Option<ResultSigning>,
    /// 九江 补充五 「经签名确认比赛结果，不予更改」: a signed result is final — a correction of it is
    /// refused unless the chief arbiter says it overrides the signatures (then the log and the
    /// slip say so).
    #[serde(default)]
    pub signed_results_final: bool,
    /// Readings of the regulation's clauses that are the project's, not its words (天水 八(二):
    /// the 附加赛's colours): `regulation check` prints them as such.
    #[serde(default)]
    pub readings: Vec<String>,
    /// The prize amounts are before tax (T9 "奖金为税前"): printed as 税前 with every amount.
    #[serde(default)]
    pub prizes_before_tax: bool,
    /// The currency of the prize money (「五至八名新台币2000元」): every amount printed with it.
    /// Default 人民币 (元). Fees stay in 元.
    #[serde(default)]
    pub prize_currency: Currency,
    #[serde(default)]
    pub notes: Vec<String>,
}

/// The currency prize money is paid in; amounts stay whole units (never floating point).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, Deserialize)]
pub enum Currency {
    /// 人民币: printed `2000元` / `2000 yuan`, as every file without the key.
    #[default]
    #[serde(rename = "CNY", alias = "人民币")]
    Cny,
    /// 新台币 (NT$).
    #[serde(rename = "TWD", alias = "新台币", alias = "新臺幣")]
    Twd,
    /// 港币 (HK$).
    #[serde(rename = "HKD", alias = "港币", alias = "港幣")]
    Hkd,
    /// 澳门币 (MOP$).
    #[serde(rename = "MOP", alias = "澳门币", alias = "澳門幣")]
    Mop,
}

impl Currency {
    pub fn is_cny(&self) -> bool {
        *self == Currency::Cny
    }
    /// An amount with its currency: `2000元`, `新台币2000元 (NT$2000)` in Chinese;
    /// `2000 yuan`, `NT$2000` in English.
    pub fn amount(self, n: impl std::fmt::Display, zh: bool) -> String {
        match (self, zh) {
            (Currency::Cny, true) => format!("{n}元"),
            (Currency::Cny, false) => format!("{n} yuan"),
            (c, true) => format!("{}{n}元 ({}{n})", c.name_zh(), c.symbol()),
            (c, false) => format!("{}{n}", c.symbol()),
        }
    }
    /// As [`Currency::amount`], with a space before 元 where the text sets the number apart
    /// (`奖金合计 8000 元`; `新台币8000元 (NT$8000)` for the others).
    pub fn amount_apart(self, n: impl std::fmt::Display, zh: bool) -> String {
        match (self, zh) {
            (Currency::Cny, true) => format!("{n} 元"),
            (c, zh) => c.amount(n, zh),
        }
    }
    /// The unit a table's amount column is headed with: 元 / yuan, 新台币 NT$ / NT$ ….
    pub fn unit(self, zh: bool) -> String {
        match (self, zh) {
            (Currency::Cny, true) => "元".into(),
            (Currency::Cny, false) => "yuan".into(),
            (c, true) => format!("{} {}", c.name_zh(), c.symbol()),
            (c, false) => c.symbol().into(),
        }
    }
    pub fn name_zh(self) -> &'static str {
        match self {
            Currency::Cny => "人民币",
            Currency::Twd => "新台币",
            Currency::Hkd => "港币",
            Currency::Mop => "澳门币",
        }
    }
    pub fn symbol(self) -> &'static str {
        match self {
            Currency::Cny => "¥",
            Currency::Twd => "NT$",
            Currency::Hkd => "HK$",
            Currency::Mop => "MOP$",
        }
    }
}

/// Who signs a result slip (S11, J6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultSigning {
    /// Loser signs, both sign a draw; a winner's signature counts as a loss (S11).
    LoserSigns,
    /// Both players sign (J6).
    BothSign,
}

/// Evidence a player must show at registration (K2, S2, T7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// 身份证
    IdCard,
    /// 社保证明
    SocialSecurity,
    /// 个体工商户营业执照 / 营业执照
    BusinessLicence,
    /// 房产证 / 购房证明
    PropertyCertificate,
    /// 户籍 (household registration)
    Residence,
    /// 任职证明
    AppointmentCertificate,
    /// 承诺书
    Pledge,
    /// 意外伤害保险证明
    AccidentInsurance,
    /// 安全承诺书 (at check-in)
    SafetyPledge,
}

impl Evidence {
    pub const ALL: [Evidence; 9] = [
        Evidence::IdCard,
        Evidence::SocialSecurity,
        Evidence::BusinessLicence,
        Evidence::PropertyCertificate,
        Evidence::Residence,
        Evidence::AppointmentCertificate,
        Evidence::Pledge,
        Evidence::AccidentInsurance,
        Evidence::SafetyPledge,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Evidence::IdCard => "id_card",
            Evidence::SocialSecurity => "social_security",
            Evidence::BusinessLicence => "business_licence",
            Evidence::PropertyCertificate => "property_certificate",
            Evidence::Residence => "residence",
            Evidence::AppointmentCertificate => "appointment_certificate",
            Evidence::Pledge => "pledge",
            Evidence::AccidentInsurance => "accident_insurance",
            Evidence::SafetyPledge => "safety_pledge",
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            Evidence::IdCard => "身份证",
            Evidence::SocialSecurity => "社保证明",
            Evidence::BusinessLicence => "营业执照",
            Evidence::PropertyCertificate => "房产证",
            Evidence::Residence => "户籍证明",
            Evidence::AppointmentCertificate => "任职证明",
            Evidence::Pledge => "承诺书",
            Evidence::AccidentInsurance => "意外伤害保险",
            Evidence::SafetyPledge => "安全承诺书",
        }
    }
}

/// A condition flag of an entry (`require_flags`, `forbid_flags`, a category's `flag`) in
/// Chinese, as the entry forms show it; an unknown flag as written.
pub fn flag_zh(flag: &str) -> &'static str {
    match flag {
        "local" => "本地棋手",
        "group_member" => "象棋群成员",
        "national_master" => "国家级运动健将（象棋大师）及以上称号",
        _ => "其他条件",
    }
}

/// What kind of unit players enter through (X1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// 工作单位 (K)
    WorkUnit,
    /// 县市区协会 (S)
    Association,
    /// 俱乐部 / 代表队 (T)
    Club,
    /// No units.
    #[default]
    None,
}

impl UnitKind {
    pub fn zh(self) -> &'static str {
        match self {
            UnitKind::WorkUnit => "工作单位",
            UnitKind::Association => "协会",
            UnitKind::Club => "代表队",
            UnitKind::None => "无",
        }
    }
}

/// A registration field the entry form asks for (K5, T7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryField {
    Name,
    Section,
    Unit,
    IdNumber,
    SocialSecurityNumber,
    Phone,
    Sex,
    BirthDate,
}

impl EntryField {
    pub fn zh(self) -> &'static str {
        match self {
            EntryField::Name => "姓名",
            EntryField::Section => "组别",
            EntryField::Unit => "单位",
            EntryField::IdNumber => "身份证号",
            EntryField::SocialSecurityNumber => "社保号",
            EntryField::Phone => "联系电话",
            EntryField::Sex => "性别",
            EntryField::BirthDate => "出生日期",
        }
    }
}

/// Event-wide registration (S3, T7, K5). Section `entries` fields override these.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registration {
    #[serde(default)]
    pub unit_kind: UnitKind,
    /// Entries must come through a unit; no cross-unit teams/entries (K2, S3).
    #[serde(default)]
    pub unit_required: bool,
    #[serde(default, deserialize_with = "de::opt_datetime")]
    pub deadline: Option<NaiveDateTime>,
    /// K5 (昆山 八(一)): team entry forms by this time (「9月15日前…逾期不再受理」): a team, and a
    /// player entered into a team, after it is refused; individual entries are not closed by
    /// it (八(二) names no deadline for them).
    #[serde(default, deserialize_with = "de::opt_datetime")]
    pub team_deadline: Option<NaiveDateTime>,
    #[serde(default)]
    pub fee: Option<Fee>,
    /// S3: at most this many entries per unit across all sections.
    #[serde(default)]
    pub max_per_unit_overall: Option<u32>,
    /// T7: the whole event closes at this many entries.
    #[serde(default)]
    pub cap: Option<u32>,
    /// The fewest entries a section is played with as it stands (「对分组可作适当调整」): below
    /// it before round 1 the section is reported for the chief arbiter to merge; a section's
    /// `entries.min` overrides it.
    #[serde(default)]
    pub min_per_section: Option<u32>,
    /// T7: an unpaid player is not paired.
    #[serde(default)]
    pub unpaid_not_paired: bool,
    #[serde(default)]
    pub fields: Vec<EntryField>,
    #[serde(default, deserialize_with = "de::opt_date")]
    pub check_in: Option<NaiveDate>,
    /// The time of day check-in opens on the `check_in` day (`check_in_time = "08:00"`).
    #[serde(default, deserialize_with = "de::opt_time_of_day")]
    pub check_in_time: Option<NaiveTime>,
    /// T7: a pledge every player signs at check-in (`"个人安全承诺书"`); none checks in
    /// without it.
    #[serde(default)]
    pub check_in_pledge: Option<String>,
    #[serde(default)]
    pub notes: Vec<String>,
    /// Fees and deposits as named items (`[[registration.charges]]`), with amounts by flag or
    /// category and a deposit's refund rule; never together with `fee`.
    #[serde(default)]
    pub charges: Vec<crate::charges::Charge>,
    /// One person may be entered in two sections whose rounds overlap (A18). Default: the
    /// same ID number is refused in a second section that plays on a day the first plays
    /// (every section of an event without a schedule counts as overlapping).
    #[serde(default)]
    pub allow_overlapping_sections: bool,
    /// 越级: whether, and with what, a child may enter an age group older than his own
    /// (`crate::play_up`). Unset: the age rules alone decide.
    #[serde(default)]
    pub play_up: Option<crate::play_up::PlayUp>,
}

/// An entry fee, exact: yuan and fen (never floating point).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fee {
    #[serde(default)]
    pub yuan: u32,
    #[serde(default)]
    pub fen: u32,
}

impl Fee {
    /// The fee in fen (1 yuan = 100 fen).
    pub fn total_fen(&self) -> u64 {
        u64::from(self.yuan) * 100 + u64::from(self.fen)
    }
}

/// One 组别.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// Stable ASCII id, e.g. `men`.
    pub id: String,
    /// Chinese name, e.g. 男子个人赛.
    pub name: String,
    #[serde(default)]
    pub name_en: Option<String>,
    /// The day(s) this section plays, if not the whole event (J1).
    #[serde(default, deserialize_with = "de::opt_date")]
    pub date: Option<NaiveDate>,
    #[serde(default)]
    pub eligibility: Eligibility,
    /// Section registration; unset fields are inherited from `[registration]`.
    #[serde(default)]
    pub entries: Entries,
    pub format: Format,
    #[serde(default)]
    pub pairing: PairingSettings,
    /// Unset: the 2011 rule's 2-1-0 (A1), said so in the summary.
    #[serde(default)]
    pub scoring: Scoring,
    /// Unset: the 2011 rule's list (`cxa-2011-opp`, or `cxa-2011-rr` for a round robin),
    /// said so in the summary.
    #[serde(default = "Tiebreaks::rule_2011")]
    pub tiebreaks: Tiebreaks,
    /// Tie-breaks used when `auto` makes the section a round robin (default: sb, wins,
    /// direct, fouls, black_games — 2011 14.1).
    #[serde(default)]
    pub round_robin_tiebreaks: Option<Tiebreaks>,
    #[serde(default)]
    pub tiebreak_options: TiebreakOptions,
    #[serde(default)]
    pub discipline: Discipline,
    #[serde(default)]
    pub time_controls: Vec<TimeControl>,
    /// Round start times (J1): `schedule = [2020-10-25T08:30:00, …]`, one per round.
    #[serde(default, deserialize_with = "de::datetimes")]
    pub schedule: Vec<NaiveDateTime>,
    /// The schedule by days instead (「第一天13:00起5轮」): validation turns every day into
    /// its rounds' start times in `schedule`.
    #[serde(default)]
    pub schedule_days: Vec<ScheduleDay>,
    /// Ranked groups inside the section (S1 men/women, T1 local).
    #[serde(default)]
    pub categories: Vec<Category>,
    #[serde(default)]
    pub teams: Option<Teams>,
    /// 团体赛 (A15): the section's entries are teams that meet teams on numbered boards;
    /// `format` then pairs the teams (Swiss by 场分, or round robin).
    #[serde(default)]
    pub team_match: Option<TeamMatch>,
    #[serde(default)]
    pub prizes: Vec<Prize>,
    #[serde(default)]
    pub lucky: Vec<LuckyPrize>,
    #[serde(default)]
    pub awards: AwardRules,
    /// The pool of the section's own prize table, whole yuan: `regulation check` refuses a
    /// table whose amounts do not add up to it (A14).
    #[serde(default)]
    pub prize_pool_yuan: Option<u32>,
    /// Places of the section's prize table reserved for a category, with a floor (A14).
    #[serde(default)]
    pub reserved_places: Option<ReservedPlaces>,
    /// Places that qualify for later events (S8): one table (`[sections.qualification]`) or
    /// several (`[[sections.qualification]]`), each for the section or one of its categories.
    #[serde(default, deserialize_with = "de::qualifications")]
    pub qualification: Vec<Qualification>,
    /// 等级称号: the grades the section's places earn (「按《象棋业余棋手技术等级标准》，个人前8名
    /// 授予业余一级棋士」), each a range of places and a step of the `[grades]` scale.
    #[serde(default)]
    pub grade_awards: Vec<GradeAward>,
    #[serde(default)]
    pub records: Option<RecordRules>,
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Who may enter a section (K2, S1, S2, J1, T7).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Eligibility {
    /// Born on or after this date.
    #[serde(default, deserialize_with = "de::opt_date")]
    pub born_from: Option<NaiveDate>,
    /// Born on or before this date.
    #[serde(default, deserialize_with = "de::opt_date")]
    pub born_to: Option<NaiveDate>,
    /// Full years of age on `age_on` (default: the event's first day).
    #[serde(default)]
    pub min_age: Option<u32>,
    #[serde(default)]
    pub max_age: Option<u32>,
    #[serde(default, deserialize_with = "de::opt_date")]
    pub age_on: Option<NaiveDate>,
    /// The day a refusal names a person's age on: `age_on`, else the section's day, else the
    /// event's first day (filled by validation).
    #[serde(skip)]
    pub age_date: Option<NaiveDate>,
    #[serde(default)]
    pub sex: Option<Sex>,
    /// Every one of these is required.
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    /// Alternatives: for each inner list, at least one of its kinds is required
    /// (`evidence_any = [["id_card", "social_security"]]`).
    #[serde(default)]
    pub evidence_any: Vec<Vec<Evidence>>,
    /// Ways to qualify of which at least one must hold, each every evidence and flag it
    /// names (九江 十二: 「九江户籍的以及九江象棋群的象棋爱好者」 —
    /// `any_of = [{ label = "九江户籍", evidence = ["residence"] }, { label = "九江象棋群成员",
    /// flags = ["group_member"] }]`).
    #[serde(default)]
    pub any_of: Vec<Condition>,
    /// Flags the player must have (e.g. `group_member`).
    #[serde(default)]
    pub require_flags: Vec<String>,
    /// Flags that exclude (e.g. `national_master`).
    #[serde(default)]
    pub forbid_flags: Vec<String>,
    /// 「棋力五段以上」: at least this grade of the regulation's `[grades]` scale; an entry
    /// without a grade is refused.
    #[serde(default)]
    pub min_grade: Option<String>,
    /// 「未获得象棋大师以上称号」 (S2): only grades below this one; an entry without a grade
    /// is admitted.
    #[serde(default)]
    pub below_grade: Option<String>,
    /// `min_grade` and `below_grade` read on the scale (filled by validation).
    #[serde(skip)]
    pub grade_bounds: (Option<crate::grades::Grade>, Option<crate::grades::Grade>),
    /// Conditions an arbiter checks by hand, printed on the entry list.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// One way to qualify of an eligibility's `any_of`: every evidence and every flag it names.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The clause's words for this way (「九江户籍」), shown in refusals and summaries; unset:
    /// the evidence and flags in Chinese.
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    #[serde(default)]
    pub flags: Vec<String>,
}

impl Condition {
    /// The way in Chinese: its label, else its evidence and flags (「户籍+象棋群成员」).
    pub fn zh(&self) -> String {
        if let Some(l) = &self.label {
            return l.clone();
        }
        let parts: Vec<&str> = self
            .evidence
            .iter()
            .map(|e| e.zh())
            .chain(self.flags.iter().map(|f| flag_zh(f)))
            .collect();
        parts.join("+")
    }
    /// The way in English: its evidence and flags by name.
    pub fn en(&self) -> String {
        let parts: Vec<&str> = self
            .evidence
            .iter()
            .map(|e| e.name())
            .chain(self.flags.iter().map(String::as_str))
            .collect();
        parts.join("+")
    }
}

/// Section registration limits. Unset values come from `[registration]`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entries {
    /// T7: the entry closes at this many players.
    #[serde(default)]
    pub cap: Option<u32>,
    /// The fewest players this section is played with as it stands: below it before round 1
    /// the section is reported, for the chief arbiter to merge it into another (「对分组可作
    /// 适当调整」); filled from `[registration] min_per_section` when unset.
    #[serde(default)]
    pub min: Option<u32>,
    /// Entries per unit in this section.
    #[serde(default)]
    pub max_per_unit: Option<u32>,
    /// Entries per unit across all sections (S3); inherited.
    #[serde(default)]
    pub max_per_unit_overall: Option<u32>,
    #[serde(default, deserialize_with = "de::opt_datetime")]
    pub deadline: Option<NaiveDateTime>,
    #[serde(default)]
    pub fee: Option<Fee>,
    #[serde(default)]
    pub unit_required: Option<bool>,
    #[serde(default)]
    pub unpaid_not_paired: Option<bool>,
    /// The whole event's cap; filled from `[registration] cap`.
    #[serde(default)]
    pub event_cap: Option<u32>,
    /// The data an entry of this section must give, instead of `[registration] fields`
    /// (昆山 五(二): a woman of 昆山户籍 enters with her ID card — no unit, no 社保号).
    #[serde(default)]
    pub fields: Option<Vec<EntryField>>,
}

/// 竞赛办法 of a section.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Format {
    pub kind: FormatKind,
    /// Swiss rounds (stage 1 for `swiss_then_knockout`, the Swiss for `auto`, each group's
    /// Swiss for `groups` with `group_format = "swiss"`).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// `auto` (S4): fewer entries than this → single round robin (default 8).
    #[serde(default = "default_single_below")]
    pub single_rr_below: u32,
    /// `auto` (S4): fewer entries than this → double round robin (default 5).
    #[serde(default = "default_double_below")]
    pub double_rr_below: u32,
    #[serde(default)]
    pub knockout: Option<Knockout>,
    /// `groups` (分组循环, 规则 11.3): the number of groups the entries are split into.
    #[serde(default)]
    pub groups: Option<u32>,
    /// `groups`: what each group plays (default a single round robin, by Berger tables).
    #[serde(default)]
    pub group_format: GroupFormat,
    /// `groups`: how the entries are split (default 蛇形 by pairing number).
    #[serde(default)]
    pub split: GroupSplit,
    /// `groups`: letters (A组 …, the default) or numbers (第1组 …).
    #[serde(default)]
    pub group_names: GroupNames,
    /// `groups` (round robins): 同队先碰 — each group's codes set so that players of one team
    /// (team, else unit, else association) meet in the first round where the Berger table
    /// allows (2025 全国锦标赛(个人) 抽签办法 二(三)).
    #[serde(default)]
    pub same_team_first: bool,
    /// `groups`: the players of each group who go to the final stage (the top N).
    #[serde(default)]
    pub advance: Option<u32>,
    /// `groups`: the final stage the qualifiers play.
    #[serde(default, rename = "final")]
    pub final_stage: Option<FinalStage>,
    /// `groups` with `final = "round_robin"` (单循环 groups): 预赛中已相遇的选手，其成绩带入
    /// 决赛，不再比赛 — finalists of one group do not meet again in the final; their group
    /// game counts as the final's game between them.
    #[serde(default)]
    pub carry_over: bool,
}

/// What each group of a `groups` section plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupFormat {
    /// 单循环 within the group (Berger tables; a group of odd size has a bye each round).
    #[default]
    RoundRobin,
    /// 双循环 within the group.
    DoubleRoundRobin,
    /// 积分编排制 (a Swiss) within the group, of the format's `rounds` (上海杯 男子组: two
    /// groups of twelve, five rounds each). A bye scores as the section's Swiss bye.
    Swiss,
}

impl GroupFormat {
    /// Cycles of the round robin (1 or 2); `None` for a Swiss.
    pub fn cycles(self) -> Option<u32> {
        match self {
            GroupFormat::RoundRobin => Some(1),
            GroupFormat::DoubleRoundRobin => Some(2),
            GroupFormat::Swiss => None,
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            GroupFormat::RoundRobin => "单循环",
            GroupFormat::DoubleRoundRobin => "双循环",
            GroupFormat::Swiss => "积分编排制",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            GroupFormat::RoundRobin => "single round robin",
            GroupFormat::DoubleRoundRobin => "double round robin",
            GroupFormat::Swiss => "Swiss",
        }
    }
}

/// How the entries of a `groups` section are split into groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupSplit {
    /// 蛇形: in the order of the pairing numbers (`pairing.numbering`: rating, grade, lots or
    /// the entry list), 1 → A, 2 → B, …, then back: with 2 groups A gets 1, 4, 5, 8 …
    #[default]
    Snake,
    /// 抽签: each group by lot, from a seed recorded in the log.
    Lots,
    /// 分档抽签 (2025 全国象棋锦标赛(个人) 抽签办法 二(二)): in the order of the pairing
    /// numbers, 1 and 2 go straight to groups 1 and 2; 3–4 are drawn into groups 3–4, 5–8
    /// into 5–8, 9–16 into 9–16 … until every group has one; the rest are drawn in batches of
    /// one a group, a last short batch into the last groups (the top seeds' groups are the
    /// smaller). Within a group the order (the Berger table's codes) is drawn as well; the
    /// lot's seed is recorded.
    Pots,
}

impl GroupSplit {
    pub fn zh(self) -> &'static str {
        match self {
            GroupSplit::Snake => "按序号蛇形分组",
            GroupSplit::Lots => "抽签分组",
            GroupSplit::Pots => "按序号分档抽签分组",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            GroupSplit::Snake => "snake split by number",
            GroupSplit::Lots => "groups by lot",
            GroupSplit::Pots => "seeded pots drawn by number",
        }
    }
}

/// The final stage of a `groups` section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalStage {
    /// 交叉淘汰: groups paired A–B, C–D …; A1–B2, B1–A2 … into a knockout bracket
    /// (`[format.knockout]` for the matches).
    CrossKnockout,
    /// 同名次决赛: with two groups A1–B1 for places 1–2, A2–B2 for 3–4 … (a match each,
    /// `[format.knockout]` for the match); with three groups or more every group's k-th play
    /// a round robin for places (k−1)·g+1 … k·g (no `[format.knockout]`).
    SamePlace,
    /// 按组号定位的单败淘汰 (2025 全国象棋锦标赛(个人) 抽签办法 二(四)): group k's winner
    /// is the final's seed k (then the seconds, group by group, after the winners), in the
    /// knockout's seeded bracket (`[format.knockout]` for the matches).
    Knockout,
    /// 决赛单循环: the top `advance` of every group play one Berger round robin after the
    /// group stage (codes A1, B1 …, A2, B2 …); no `[format.knockout]`.
    RoundRobin,
}

/// How the groups of a `groups` section are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupNames {
    /// A组, B组 … Z组 (at most 26 groups).
    #[default]
    Letters,
    /// 第1组, 第2组 … (at most 64 groups: 2025 全国锦标赛 男子组 32 组).
    Numbers,
}

impl FinalStage {
    pub fn zh(self) -> &'static str {
        match self {
            FinalStage::CrossKnockout => "交叉淘汰",
            FinalStage::SamePlace => "同名次决赛",
            FinalStage::Knockout => "按组号定位单败淘汰",
            FinalStage::RoundRobin => "决赛单循环",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            FinalStage::CrossKnockout => "cross knockout",
            FinalStage::SamePlace => "same-place finals",
            FinalStage::Knockout => "knockout seeded by group number",
            FinalStage::RoundRobin => "a final round robin",
        }
    }
}

fn default_single_below() -> u32 {
    8
}
fn default_double_below() -> u32 {
    5
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatKind {
    Swiss,
    RoundRobin,
    DoubleRoundRobin,
    /// By number of entries (S4).
    Auto,
    /// Swiss stage, then a knockout for the top k (A9).
    SwissThenKnockout,
    /// A knockout of every player from the start, seeded by the section's numbering
    /// (`pairing.numbering`: lots, given order or rating); byes to the top seeds.
    Knockout,
    /// Entries split into groups, each a round robin, then a final stage of the top
    /// `advance` of each group (规则 11.3 分组循环制).
    Groups,
}

/// The format actually played once the number of entries is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectiveFormat {
    Swiss {
        rounds: u32,
    },
    RoundRobin,
    DoubleRoundRobin,
    SwissThenKnockout {
        rounds: u32,
        knockout_size: u32,
        continue_rounds: u32,
    },
    /// A knockout of every entry (no Swiss stage).
    Knockout,
    /// Groups, each a round robin of `cycles` (or a Swiss: `GroupFormat::Swiss`), then the
    /// final stage of the top `advance`.
    Groups {
        groups: u32,
        group_format: GroupFormat,
        advance: u32,
        final_stage: FinalStage,
    },
}

impl Format {
    /// The format played with `entries` players (resolves `auto`, S4).
    pub fn effective(&self, entries: u32) -> EffectiveFormat {
        let rounds = self.rounds.unwrap_or(0);
        match self.kind {
            FormatKind::Swiss => EffectiveFormat::Swiss { rounds },
            FormatKind::RoundRobin => EffectiveFormat::RoundRobin,
            FormatKind::DoubleRoundRobin => EffectiveFormat::DoubleRoundRobin,
            FormatKind::Auto => {
                if entries < self.double_rr_below {
                    EffectiveFormat::DoubleRoundRobin
                } else if entries < self.single_rr_below {
                    EffectiveFormat::RoundRobin
                } else {
                    EffectiveFormat::Swiss { rounds }
                }
            }
            FormatKind::SwissThenKnockout => {
                let (k, c) = self
                    .knockout
                    .as_ref()
                    .map(|k| (k.size, k.continue_rounds))
                    .unwrap_or((0, 0));
                EffectiveFormat::SwissThenKnockout {
                    rounds,
                    knockout_size: k,
                    continue_rounds: c,
                }
            }
            FormatKind::Knockout => EffectiveFormat::Knockout,
            FormatKind::Groups => EffectiveFormat::Groups {
                groups: self.groups.unwrap_or(2),
                group_format: self.group_format,
                advance: self.advance.unwrap_or(1),
                final_stage: self.final_stage.unwrap_or(FinalStage::CrossKnockout),
            },
        }
    }
}

/// Knockout stage after the Swiss (K6, K7, T2, T3; A8, A9).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Knockout {
    /// Number of players in the bracket: 2, 4, 8, 16 or 32 (`swiss_then_knockout`); not
    /// given for a plain `knockout`, whose bracket is every entry (0 = not given).
    #[serde(default)]
    pub size: u32,
    /// Swiss rounds the others keep playing meanwhile (T2: 3); 0 = they stop (K6).
    #[serde(default)]
    pub continue_rounds: u32,
    #[serde(default)]
    pub variant: KnockoutVariant,
    /// Match format of the 2020 rules §30 (K1…K6); K1 when neither this nor `blocks` is
    /// given ([`Knockout::preset`]).
    #[serde(default)]
    pub match_format: Option<MatchFormat>,
    /// Who chooses colour in the slow game and the armageddon of a preset (default: the
    /// higher seed, [`Knockout::colour_choice`]).
    #[serde(default)]
    pub colour_choice: Option<ColourChoice>,
    /// A drawn armageddon of a preset is a black win for the match (A8; default on,
    /// [`Knockout::armageddon_draw_black_wins`]).
    #[serde(default)]
    pub armageddon_draw_black_wins: Option<bool>,
    /// Time controls of the knockout games, by game kind, or named by the file (`name`) for
    /// `blocks` to refer to.
    #[serde(default)]
    pub time_controls: Vec<TimeControl>,
    /// The match written as game blocks instead of a preset (`[[format.knockout.blocks]]`).
    #[serde(default)]
    pub blocks: Vec<crate::match_blocks::GameBlock>,
    /// What ends a match the blocks leave level (required with `blocks`).
    #[serde(default)]
    pub ending: Option<crate::match_blocks::Ending>,
    /// How the final ranking separates the places the bracket leaves shared (the losers of
    /// one round in a single elimination): `shared` (default: 并列), `seed` (by the seeds, the
    /// Swiss ranking of stage 1: §6.3 (b)) or `lot` (a lot drawn from the event's recorded
    /// seed).
    #[serde(default)]
    pub shared_places: SharedPlaces,
    /// 种子签 of a plain knockout (「设8个种子签」): the first `seeds` players of the section's
    /// numbering (who reach `seed_min_grade`, if given) keep numbers 1…k and their seeded
    /// places in the bracket; everybody else's number is drawn by lot (seed in the log).
    /// None: every number as the numbering gives it.
    #[serde(default)]
    pub seeds: Option<u32>,
    /// 「七段以上棋手得列种子签」: only players of at least this grade of the `[grades]` scale
    /// may be seeds (read into `seed_grade`).
    #[serde(default)]
    pub seed_min_grade: Option<String>,
    /// `seed_min_grade` read on the scale (filled by validation).
    #[serde(skip)]
    pub seed_grade: Option<crate::grades::Grade>,
}

/// How the final ranking treats the places a knockout bracket leaves shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SharedPlaces {
    /// 并列: the players share the place; a prize or qualification that would tell them apart
    /// is refused until the regulation says how (never split silently).
    #[default]
    Shared,
    /// The better seed (stage-1 rank, or the number drawn) takes the better place.
    Seed,
    /// A lot drawn from the event's recorded seed.
    Lot,
}

impl SharedPlaces {
    pub fn zh(self) -> &'static str {
        match self {
            SharedPlaces::Shared => "淘汰赛未决出的名次并列",
            SharedPlaces::Seed => "淘汰赛未决出的名次按种子（第一阶段名次）区分",
            SharedPlaces::Lot => "淘汰赛未决出的名次抽签区分",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            SharedPlaces::Shared => "places the knockout leaves open are shared",
            SharedPlaces::Seed => "places the knockout leaves open go by seed",
            SharedPlaces::Lot => "places the knockout leaves open are drawn by lot",
        }
    }
}

fn yes() -> bool {
    true
}

impl Knockout {
    /// The preset played when the match is not written as blocks (K1 by default).
    pub fn preset(&self) -> MatchFormat {
        self.match_format.unwrap_or_default()
    }
    /// Who chooses colours in a preset's slow game and armageddon.
    pub fn colour_choice(&self) -> ColourChoice {
        self.colour_choice.unwrap_or_default()
    }
    /// Whether a drawn armageddon advances black: the preset's setting, or the blocks'
    /// ending (`draw = "black_wins"`).
    pub fn armageddon_draw_black_wins(&self) -> bool {
        match &self.ending {
            Some(e) if !self.blocks.is_empty() => e.draw_black_wins(),
            _ => self.armageddon_draw_black_wins.unwrap_or(true),
        }
    }
    /// Whether the match is written as game blocks.
    pub fn has_blocks(&self) -> bool {
        !self.blocks.is_empty()
    }

    /// The settings of a plain knockout whose file gives no `[format.knockout]` table: every
    /// default (K1, placement bracket, the higher seed chooses, armageddon draw = black wins).
    pub fn plain() -> Knockout {
        Knockout {
            size: 0,
            continue_rounds: 0,
            variant: KnockoutVariant::default(),
            match_format: None,
            colour_choice: None,
            armageddon_draw_black_wins: None,
            time_controls: Vec::new(),
            blocks: Vec::new(),
            ending: None,
            shared_places: SharedPlaces::default(),
            seeds: None,
            seed_min_grade: None,
            seed_grade: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnockoutVariant {
    /// Single elimination.
    Single,
    /// With a match for 3rd place.
    ThirdPlace,
    /// 定位表: every place 1…size is decided.
    #[default]
    Placement,
}

impl KnockoutVariant {
    pub fn zh(self) -> &'static str {
        match self {
            KnockoutVariant::Single => "单淘汰",
            KnockoutVariant::ThirdPlace => "单淘汰加三四名决赛",
            KnockoutVariant::Placement => "淘汰定位表",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            KnockoutVariant::Single => "single elimination",
            KnockoutVariant::ThirdPlace => "single elimination with 3rd-place match",
            KnockoutVariant::Placement => "placement bracket",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum MatchFormat {
    #[default]
    K1,
    K2,
    K3,
    K4,
    K5,
    K6,
}

impl MatchFormat {
    pub fn name(self) -> &'static str {
        match self {
            MatchFormat::K1 => "K1",
            MatchFormat::K2 => "K2",
            MatchFormat::K3 => "K3",
            MatchFormat::K4 => "K4",
            MatchFormat::K5 => "K5",
            MatchFormat::K6 => "K6",
        }
    }
    /// The game kinds of the match, in order, before the format's repetition rule.
    pub fn games(self) -> &'static [GameKind] {
        use GameKind::*;
        match self {
            MatchFormat::K1 => &[Slow, Rapid, Armageddon],
            MatchFormat::K2 => &[Slow, Rapid, Blitz, Armageddon],
            MatchFormat::K3 => &[Slow, Rapid, Blitz, Blitz, Armageddon],
            MatchFormat::K4 => &[Slow, Rapid, Blitz],
            MatchFormat::K5 => &[Slow, Slow, Blitz, Blitz, Armageddon],
            MatchFormat::K6 => &[Slow, Slow, Blitz],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourChoice {
    /// The player ranked higher in stage 1 chooses (K7).
    #[default]
    HigherSeed,
    /// By lot (T3).
    Lots,
}

/// Scoring: a preset name (`scoring = "cxa"`) or a full table (A1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scoring {
    /// The preset name if the file named one.
    pub preset: Option<arbiter_types::ScoringPreset>,
    pub table: ScoringTable,
    /// The file is silent: the 2011 rule's table applies.
    pub defaulted: bool,
}

impl Default for Scoring {
    /// What applies where a regulation says nothing: the 2011 rule's 2-1-0 (A1).
    fn default() -> Self {
        let p = arbiter_types::ScoringPreset::Cxa;
        Scoring {
            preset: Some(p),
            table: p.table(),
            defaulted: true,
        }
    }
}

/// The tie-break list (A6): criteria in order, then at most one fallback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tiebreaks {
    /// The preset name if the file named one (`tiebreaks = "kunshan"`).
    pub preset: Option<String>,
    pub criteria: Vec<TiebreakName>,
    pub fallback: Option<Fallback>,
    /// The file is silent: the 2011 rule's list applies.
    pub defaulted: bool,
}

impl Tiebreaks {
    /// What applies where a regulation names no tie-breaks: the 2011 rule's Swiss list
    /// (14.3.1, `cxa-2011-opp`); validation makes it the round-robin list (`cxa-2011-rr`) for
    /// a round-robin section.
    pub fn rule_2011() -> Tiebreaks {
        Self::rule_2011_named("cxa-2011-opp")
    }

    pub(crate) fn rule_2011_named(preset: &str) -> Tiebreaks {
        let mut t = crate::presets::tiebreaks(preset).unwrap_or(Tiebreaks {
            preset: None,
            criteria: Vec::new(),
            fallback: None,
            defaulted: true,
        });
        t.defaulted = true;
        t
    }
}

/// Settings of individual tie-breaks (A6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TiebreakOptions {
    /// 胜局 counts forfeit wins (default on).
    #[serde(default = "yes")]
    pub wins_include_forfeits: bool,
    /// 胜局 counts byes (default on).
    #[serde(default = "yes")]
    pub wins_include_byes: bool,
    #[serde(default)]
    pub direct: DirectMode,
    /// Value of a bye's "opponent" in 对手分.
    #[serde(default)]
    pub opp_score_bye: ByeOppValue,
    /// 后走局数 counts forfeited games (default off).
    #[serde(default)]
    pub black_games_include_forfeits: bool,
}

impl Default for TiebreakOptions {
    fn default() -> Self {
        TiebreakOptions {
            wins_include_forfeits: true,
            wins_include_byes: true,
            direct: DirectMode::default(),
            opp_score_bye: ByeOppValue::default(),
            black_games_include_forfeits: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DirectMode {
    /// Only when exactly two players are tied and they met.
    #[default]
    TwoOnly,
    /// A mini-table among 3+ tied players when all of them met.
    MiniTable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeOppValue {
    /// The lowest final score in the section (A6).
    #[default]
    LowestFinalScore,
    /// Nothing.
    Zero,
    /// The bye receiver's own score (FIDE virtual opponent approximation).
    OwnScore,
}

/// Forfeits, withdrawal and fouls (A5, A11; K8, K12, S7, J4, T8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Discipline {
    /// Minutes late after which the round is forfeited (K8, S7: 10; J4: 15).
    #[serde(default)]
    pub late_forfeit_minutes: Option<u32>,
    /// Withdrawn after this many consecutive own forfeits (K8: 3), only where the regulation
    /// states it (A16); default none: the desk warns after two and the chief arbiter decides.
    #[serde(default = "default_consecutive")]
    pub withdraw_after_consecutive_forfeits: Option<u32>,
    /// Withdrawn after this many own forfeits in total (S7: 2).
    #[serde(default)]
    pub withdraw_after_total_forfeits: Option<u32>,
    /// Fouls in one game that make it a loss (K12: 2; A11 default 3).
    #[serde(default = "default_fouls")]
    pub fouls_for_loss: Option<u32>,
    /// Team fouls recorded (K12).
    #[serde(default)]
    pub team_fouls: bool,
    /// Loss on time (K9, S5).
    #[serde(default = "yes")]
    pub loss_on_time: bool,
    /// A phone in use: fouls before a loss (K12: 2nd = loss) — `Some(1)` = immediate loss (T8).
    #[serde(default)]
    pub phone_fouls_for_loss: Option<u32>,
    /// An absence without leave (无故缺席) is a withdrawal (S7: 无故缺席按退赛处理).
    #[serde(default)]
    pub absence_without_leave_withdraws: bool,
    /// A disqualified player's results are void (成绩作废 / 取消其成绩, A17; T 九(三)): every
    /// game of his counts for his opponents as their forfeit win. Default: his games already
    /// played stand.
    #[serde(default)]
    pub disqualification_voids_results: bool,
}

fn default_consecutive() -> Option<u32> {
    None
}
fn default_fouls() -> Option<u32> {
    Some(3)
}

impl Default for Discipline {
    fn default() -> Self {
        Discipline {
            late_forfeit_minutes: None,
            withdraw_after_consecutive_forfeits: default_consecutive(),
            withdraw_after_total_forfeits: None,
            fouls_for_loss: default_fouls(),
            team_fouls: false,
            loss_on_time: true,
            phone_fouls_for_loss: None,
            absence_without_leave_withdraws: false,
            disqualification_voids_results: false,
        }
    }
}

/// A time control for one game kind (K7, K8, S5, J2, T3). `minutes` is each side's base
/// time unless `black_minutes` is set (armageddon: red 6′, black 4′).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// The regulation's own name of this kind of game (「快棋」 for a 6′+3″ game whose class
    /// is `slow`); knockout `blocks` refer to it. Default: the class name (慢棋, 快棋, …).
    #[serde(default)]
    pub name: Option<String>,
    pub kind: GameKind,
    pub minutes: u32,
    #[serde(default)]
    pub increment_seconds: u32,
    #[serde(default)]
    pub black_minutes: Option<u32>,
}

impl TimeControl {
    /// The name blocks and documents use: the file's `name`, else the class name (慢棋…).
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or_else(|| self.kind.zh())
    }

    /// Whether `name` names this time control: its own name, or — when it has none — the
    /// Chinese or English name of its class (`慢棋`, `slow`).
    pub fn answers_to(&self, name: &str) -> bool {
        match &self.name {
            Some(n) => n == name,
            None => name == self.kind.zh() || name == self.kind.name(),
        }
    }

    /// The time alone, short: `25′+5″`, `红6′黑4′+3″`.
    pub fn short(&self) -> String {
        let inc = if self.increment_seconds > 0 {
            format!("+{}″", self.increment_seconds)
        } else {
            String::new()
        };
        match self.black_minutes {
            Some(b) => format!("红{}′黑{b}′{inc}", self.minutes),
            None => format!("{}′{inc}", self.minutes),
        }
    }

    /// The time control in English only (for `--lang en` documents): `slow 25′+5″ per side`,
    /// `armageddon red 6′ black 4′`.
    pub fn text_en(&self) -> String {
        let kind = match &self.name {
            Some(n) => format!("{n} ({})", self.kind.name()),
            None => self.kind.name().to_string(),
        };
        let inc = if self.increment_seconds > 0 {
            format!("+{}″", self.increment_seconds)
        } else {
            String::new()
        };
        match self.black_minutes {
            Some(b) => format!("{kind} red {}′ black {b}′{inc}", self.minutes),
            None => format!("{kind} {}′{inc} per side", self.minutes),
        }
    }

    /// 比赛用时 in Chinese only, as a Chinese page or print says it: `慢棋 每方25分钟，每步加5秒`.
    pub fn text_zh(&self) -> String {
        let kind = self.display_name();
        let inc = if self.increment_seconds > 0 {
            format!("，每步加{}秒", self.increment_seconds)
        } else {
            String::new()
        };
        match self.black_minutes {
            Some(b) => format!("{kind} 红方{}分钟、黑方{b}分钟{inc}", self.minutes),
            None => format!("{kind} 每方{}分钟{inc}", self.minutes),
        }
    }

    /// 比赛用时 in words, Chinese first: `慢棋 每方25分钟，每步加5秒 (25′+5″ per side)`.
    pub fn text(&self) -> String {
        let tail = match self.black_minutes {
            Some(b) => format!(
                "red {}′ black {b}′ +{}″",
                self.minutes, self.increment_seconds
            ),
            None => format!("{}′+{}″ per side", self.minutes, self.increment_seconds),
        };
        format!("{} ({tail})", self.text_zh())
    }
}

/// A ranked group inside a section (S1, T1). A player belongs when every given test holds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Category {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub sex: Option<Sex>,
    #[serde(default, deserialize_with = "de::opt_date")]
    pub born_from: Option<NaiveDate>,
    #[serde(default, deserialize_with = "de::opt_date")]
    pub born_to: Option<NaiveDate>,
    #[serde(default)]
    pub flag: Option<String>,
    /// The pool of this category's prize table, whole yuan (checked like the section's).
    #[serde(default)]
    pub prize_pool_yuan: Option<u32>,
    /// Ages instead of birth dates (「8岁以下」, 「9–10岁」): full years on `age_on` (else
    /// the section's eligibility date, else the section's day or the event's first day).
    /// Validation turns them into `born_from` / `born_to`.
    #[serde(default)]
    pub min_age: Option<u32>,
    #[serde(default)]
    pub max_age: Option<u32>,
    #[serde(default, deserialize_with = "de::opt_date")]
    pub age_on: Option<NaiveDate>,
}

/// "3 of the 12 prize places for local players; if they are not in the top 4, 500 yuan
/// each" (A14): the best `places` players of `category` are among the winners of the
/// section's prize table (the places they fill are counted in it), each receiving the larger
/// of his place prize and `floor_yuan`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReservedPlaces {
    pub category: String,
    pub places: u32,
    pub floor_yuan: u32,
}

/// Team standings inside a section from individual ranks (K3, K4, K11, T5; A10).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Teams {
    /// A team needs at least this many players to be ranked.
    pub min_players: u32,
    /// The best k players count.
    pub counted: u32,
    #[serde(default)]
    pub max_players: Option<u32>,
    #[serde(default)]
    pub ranking: TeamRanking,
    #[serde(default)]
    pub tie: TeamTie,
    #[serde(default)]
    pub leader_required: bool,
    #[serde(default)]
    pub coach_required: bool,
    #[serde(default)]
    pub coach_may_play: bool,
    /// A unit may enter 一队, 二队, … (K3).
    #[serde(default)]
    pub multiple_per_unit: bool,
    /// 甲组 / 乙组 (K1, K4); empty = one team ranking.
    #[serde(default)]
    pub divisions: Vec<Division>,
    /// Team prizes; `division` names the division when there are several.
    #[serde(default)]
    pub prizes: Vec<Prize>,
}

/// A team-match section (团体赛, A15): how many boards a match has, the reserves a team may
/// register, the match points, the line-up rule and the team ranking.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamMatch {
    /// Boards per match (台数): each team fields this many players, board 1 first.
    pub boards: u32,
    /// Reserves (替补) a team may register beyond its boards.
    #[serde(default)]
    pub reserves: u32,
    /// Match points (场分); unset: win 2, draw 1, loss 0 (A15).
    #[serde(default)]
    pub match_points: MatchPoints,
    /// Who sits on which board each round (出场名单).
    #[serde(default)]
    pub lineup: LineupRule,
    /// The team ranking, in order (场分, 局分, …); unset: A15's list.
    #[serde(
        default = "default_team_tiebreaks",
        deserialize_with = "de::team_tiebreaks"
    )]
    pub tiebreaks: Vec<arbiter_types::TeamTiebreak>,
    /// What a team Swiss bye gives on the boards (局分): a win on every board (default) or a
    /// draw.
    #[serde(default)]
    pub bye_boards: ByeBoards,
    /// 台次奖: a player needs this many games on his board to be ranked (unset: half the
    /// rounds, rounded up).
    #[serde(default)]
    pub board_prize_min_games: Option<u32>,
    /// Who may sit on a board (「第四台须为女棋手」, a birth-date range on a board).
    #[serde(default)]
    pub board_rules: Vec<BoardRule>,
    /// 出场名单截止: a team's line-up is taken until this many minutes before the round's
    /// start by the section's `schedule` (「赛前30分钟提交出场名单」); after it only the chief
    /// arbiter takes one, and the team plays in the order recorded (its registered order).
    /// Unset: no deadline.
    #[serde(default)]
    pub lineup_deadline_minutes: Option<u32>,
    /// 团体奖励: the teams' places by the team standings (「团体前6名分别奖励6000…1000元」,
    /// 「团体一等奖一名、二等奖二名」 as titles). Neither `category` nor `division`.
    #[serde(default)]
    pub prizes: Vec<Prize>,
    /// 台次奖: the places of every board by the board standings (「各台第一名」), the same
    /// table for each board. Neither `category` nor `division`.
    #[serde(default)]
    pub board_prizes: Vec<Prize>,
    #[serde(default)]
    pub leader_required: bool,
    #[serde(default)]
    pub coach_required: bool,
}

/// A condition on the player of one board of every match (A15: 「第四台须为女棋手」, an age on a
/// board): a line-up that seats someone else there is refused; an empty board is a forfeit as
/// ever.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRule {
    /// The board (1-based).
    pub board: u32,
    #[serde(default)]
    pub sex: Option<Sex>,
    /// Born on or after this date.
    #[serde(default, deserialize_with = "de::opt_date")]
    pub born_from: Option<NaiveDate>,
    /// Born on or before this date.
    #[serde(default, deserialize_with = "de::opt_date")]
    pub born_to: Option<NaiveDate>,
}

impl BoardRule {
    /// The condition in words: 「须为女棋手」, 「须为2010-01-01及以后出生」 …
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = self.sex {
            parts.push(match s {
                Sex::Female => "女棋手".to_string(),
                Sex::Male => "男棋手".to_string(),
            });
        }
        match (self.born_from, self.born_to) {
            (Some(f), Some(t)) => parts.push(format!("{f}至{t}出生")),
            (Some(f), None) => parts.push(format!("{f}及以后出生")),
            (None, Some(t)) => parts.push(format!("{t}及以前出生")),
            (None, None) => {}
        }
        format!("第{}台须为{}", self.board, parts.join("、"))
    }

    /// Whether a player of `sex`, born on `birth`, may sit there. What is unknown (no sex or
    /// birth date on the entry) does not meet a condition on it.
    pub fn admits(&self, sex: Option<Sex>, birth: Option<NaiveDate>) -> bool {
        let sex_ok = self.sex.is_none_or(|want| sex == Some(want));
        let from_ok = self.born_from.is_none_or(|f| birth.is_some_and(|b| b >= f));
        let to_ok = self.born_to.is_none_or(|t| birth.is_some_and(|b| b <= t));
        sex_ok && from_ok && to_ok
    }
}

fn default_team_tiebreaks() -> Vec<arbiter_types::TeamTiebreak> {
    arbiter_types::TeamTiebreak::DEFAULT.to_vec()
}

impl Section {
    /// The rules a team entry of this section must keep: the section's `teams`, or — in a
    /// team-match section — a team of its boards to its boards and reserves (A15), a unit
    /// entering as many teams as it likes (一队, 二队), the leader and coach as the
    /// `team_match` asks.
    pub fn entry_teams(&self) -> Option<std::borrow::Cow<'_, Teams>> {
        if let Some(t) = &self.teams {
            return Some(std::borrow::Cow::Borrowed(t));
        }
        let tm = self.team_match.as_ref()?;
        Some(std::borrow::Cow::Owned(Teams {
            min_players: tm.boards,
            counted: tm.boards,
            max_players: Some(tm.max_players()),
            ranking: TeamRanking::default(),
            tie: TeamTie::default(),
            leader_required: tm.leader_required,
            coach_required: tm.coach_required,
            coach_may_play: true,
            multiple_per_unit: true,
            divisions: Vec::new(),
            prizes: Vec::new(),
        }))
    }
}

impl TeamMatch {
    /// The most players a team may register: its boards and its reserves.
    pub fn max_players(&self) -> u32 {
        self.boards.saturating_add(self.reserves)
    }
}

/// Match points (场分, A15). `draw_home` / `draw_away` give the team named first (主队) and
/// the team named second (客队) different draw points, as leagues do (主队和 1 分, 客队和 2 分).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchPoints {
    #[serde(default = "two")]
    pub win: arbiter_types::Score,
    #[serde(default = "one_point")]
    pub draw: arbiter_types::Score,
    #[serde(default)]
    pub draw_home: Option<arbiter_types::Score>,
    #[serde(default)]
    pub draw_away: Option<arbiter_types::Score>,
    #[serde(default)]
    pub loss: arbiter_types::Score,
    /// A team Swiss bye (轮空); unset: a win.
    #[serde(default)]
    pub bye: Option<arbiter_types::Score>,
    /// A match lost by not appearing (弃权); unset: a loss.
    #[serde(default)]
    pub forfeit_loss: Option<arbiter_types::Score>,
}

fn two() -> arbiter_types::Score {
    arbiter_types::Score::points(2)
}
fn one_point() -> arbiter_types::Score {
    arbiter_types::Score::points(1)
}

impl Default for MatchPoints {
    fn default() -> Self {
        MatchPoints {
            win: two(),
            draw: one_point(),
            draw_home: None,
            draw_away: None,
            loss: arbiter_types::Score::ZERO,
            bye: None,
            forfeit_loss: None,
        }
    }
}

impl MatchPoints {
    /// The match points as a scoring table whose red is the team named first and whose
    /// black is the team named second — the table the pairing engine and the team standings
    /// read.
    pub fn table(&self) -> ScoringTable {
        let forfeit_loss = self.forfeit_loss.unwrap_or(self.loss);
        ScoringTable {
            win: self.win,
            draw_red: self.draw_home.unwrap_or(self.draw),
            draw_black: self.draw_away.unwrap_or(self.draw),
            loss: self.loss,
            bye: self.bye.unwrap_or(self.win),
            forfeit_win: self.win,
            forfeit_loss,
            double_forfeit: forfeit_loss,
        }
    }
}

/// The line-up rule (出场名单, A15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineupRule {
    /// The registered board order is kept: a team names who plays, and they sit in their
    /// registered order (a reserve who plays moves the players below him down one board).
    #[default]
    Registered,
    /// A team names its players board by board, in any order, each round.
    Free,
}

/// What a bye gives on the boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeBoards {
    #[default]
    Win,
    Draw,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamRanking {
    /// Sum of the best k members' final ranks, lower first.
    #[default]
    SumOfRanks,
    /// Sum of the best k members' points, higher first.
    SumOfScores,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamTie {
    /// The team whose best player ranks higher, then the second best, … (A10).
    #[default]
    BestIndividual,
}

/// A team division (K1, K4).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Division {
    pub id: String,
    pub name: String,
    /// Placed here automatically: last edition's top `top` of division `division` (K4).
    #[serde(default)]
    pub auto_from_previous: Vec<PreviousPlacement>,
    /// Units placed here by name (filled from last edition's results).
    #[serde(default)]
    pub units: Vec<String>,
    /// Other units may choose this division.
    #[serde(default = "yes")]
    pub open_choice: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreviousPlacement {
    pub division: String,
    pub top: u32,
}

/// A prize for a rank or a rank range (K13, S8, J7, T9).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prize {
    #[serde(default)]
    pub rank: Option<u32>,
    #[serde(default)]
    pub from: Option<u32>,
    #[serde(default)]
    pub to: Option<u32>,
    /// Category (individual prizes) of the section.
    #[serde(default)]
    pub category: Option<String>,
    /// Division (team prizes).
    #[serde(default)]
    pub division: Option<String>,
    /// Amount per place, whole yuan (T9: before tax).
    #[serde(default)]
    pub amount_yuan: Option<u32>,
    #[serde(default)]
    pub title: Option<String>,
    /// A prize in kind (奖品).
    #[serde(default)]
    pub item: Option<String>,
    #[serde(default)]
    pub trophy: bool,
    #[serde(default)]
    pub medal: bool,
    #[serde(default = "yes")]
    pub certificate: bool,
}

/// The inclusive range of places written as `rank`, or `from`..=`to`, or `from` alone (that
/// place); `None` when only `to` or nothing is written (each table reads that its own way).
fn written_places(rank: Option<u32>, from: Option<u32>, to: Option<u32>) -> Option<(u32, u32)> {
    match (rank, from, to) {
        (Some(r), _, _) => Some((r, r)),
        (None, Some(f), Some(t)) => Some((f, t)),
        (None, Some(f), None) => Some((f, f)),
        (None, None, _) => None,
    }
}

impl Prize {
    /// The inclusive rank range (validated: `rank` or `from`..=`to`).
    pub fn ranks(&self) -> (u32, u32) {
        written_places(self.rank, self.from, self.to)
            .unwrap_or_else(|| self.to.map_or((0, 0), |t| (t, t)))
    }
}

/// Lucky prizes by final rank (K13).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LuckyPrize {
    pub ranks: Vec<u32>,
    pub item: String,
    #[serde(default)]
    pub category: Option<String>,
}

/// How prizes combine (K13: 不可重复领奖).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AwardRules {
    #[serde(default)]
    pub one_award_per_person: bool,
    #[serde(default)]
    pub lucky_on_awarded: LuckyOnAwarded,
    /// 「不足8人则减1录取」 (青岛 九(一); 「不足七人的组别，录取名次递减一名」): a prize table whose
    /// ranking has fewer players than this awards places only down to one fewer than it has
    /// players. Unset: every place of the table is awarded.
    #[serde(default)]
    pub fewer_than: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LuckyOnAwarded {
    /// The lucky prize passes to the next rank not yet awarded.
    #[default]
    NextRank,
    /// The lucky prize is not given.
    Unawarded,
}

/// One day of a schedule given by days: `rounds` rounds from `start`, one every
/// `interval_minutes`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleDay {
    #[serde(deserialize_with = "de::date")]
    pub date: NaiveDate,
    /// The first round's start (`"13:00"` or 13:00:00).
    #[serde(deserialize_with = "de::time_of_day")]
    pub start: NaiveTime,
    pub rounds: u32,
    /// Minutes from one round's start to the next; needed when the day has several rounds.
    #[serde(default)]
    pub interval_minutes: Option<u32>,
}

/// 等级称号 earned by place: the players placed `from`..=`to` (or at `rank`) are awarded
/// `grade`, a step of the regulation's `[grades]` scale, unless the grade they hold is already
/// that step or above (已具有同级或更高称号者不再授予). `basis` is the standard's clause the
/// regulation cites (「《象棋业余棋手技术等级标准》业余一级棋士 第7款」).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradeAward {
    #[serde(default)]
    pub rank: Option<u32>,
    #[serde(default)]
    pub from: Option<u32>,
    #[serde(default)]
    pub to: Option<u32>,
    pub grade: String,
    #[serde(default)]
    pub basis: Option<String>,
    /// The grade read on the scale (filled by validation).
    #[serde(skip)]
    pub step: Option<crate::grades::Grade>,
}

impl GradeAward {
    /// The inclusive range of places (validated: `rank`, or `from`..=`to`).
    pub fn places(&self) -> (u32, u32) {
        written_places(self.rank, self.from, self.to)
            .unwrap_or_else(|| self.to.map_or((0, 0), |t| (1, t)))
    }
}

/// Places that qualify for a later event (S8; 「U15组冠军获得世界象棋公开赛资格」,
/// 「本地选手前3名获得…资格」).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Qualification {
    /// Number of places; unset = announced later.
    #[serde(default)]
    pub places: Option<u32>,
    pub to: String,
    /// The category of the section whose ranking qualifies (its best `places`); unset = the
    /// section's own ranking.
    #[serde(default)]
    pub category: Option<String>,
}

/// Game-record rules (T6; J5; A13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordRules {
    /// Boards 1..=n must record (0 = none).
    #[serde(default)]
    pub boards: u32,
    /// From this round on.
    #[serde(default = "one")]
    pub from_round: u32,
    /// No draw before this move (T6: 25).
    #[serde(default)]
    pub min_moves_before_draw: Option<u32>,
    /// 自然限着, in moves (40).
    #[serde(default)]
    pub natural_move_limit: Option<u32>,
    /// How many of the claimant's checks count towards the natural move limit: 0 (default,
    /// J5 「提出方将军不计」), or 「将军着数算10着」: 10 — the checks after those do not count.
    #[serde(default)]
    pub natural_move_checks: u32,
    /// A record refused or a short draw recorded is a foul (T6).
    #[serde(default)]
    pub violation_is_foul: bool,
    /// Who records a decided game on the boards that must record (T6: 获胜方录谱).
    #[serde(default)]
    pub recorder: Recorder,
    /// Who records a draw (T6: 和棋由黑方录谱).
    #[serde(default = "black_records")]
    pub draw_recorder: DrawRecorder,
    /// Whose foul a draw recorded short of `min_moves_before_draw` is, once the arbiter
    /// confirms it (T6: 和棋录谱不足25回合者 — the recorder).
    #[serde(default)]
    pub short_draw_foul: ShortDrawFoul,
    /// The kinds of game that keep no record (「快棋不用记录」: `["rapid", "blitz",
    /// "armageddon"]`); a knockout game of such a kind has no record duty on any board.
    #[serde(default)]
    pub exempt_kinds: GameKinds,
}

/// A set of game kinds, written as a list of their names (`["rapid", "blitz"]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(from = "Vec<GameKind>")]
pub struct GameKinds(u8);

impl From<Vec<GameKind>> for GameKinds {
    fn from(v: Vec<GameKind>) -> GameKinds {
        GameKinds(v.into_iter().fold(0, |m, k| m | GameKinds::bit(k)))
    }
}

impl GameKinds {
    const ALL: [GameKind; 4] = [
        GameKind::Slow,
        GameKind::Rapid,
        GameKind::Blitz,
        GameKind::Armageddon,
    ];
    fn bit(k: GameKind) -> u8 {
        match k {
            GameKind::Slow => 1,
            GameKind::Rapid => 2,
            GameKind::Blitz => 4,
            GameKind::Armageddon => 8,
        }
    }
    pub fn contains(self, k: GameKind) -> bool {
        self.0 & GameKinds::bit(k) != 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The kinds in the set, slow first.
    pub fn kinds(self) -> impl Iterator<Item = GameKind> {
        GameKinds::ALL
            .into_iter()
            .filter(move |k| self.contains(*k))
    }
}

fn black_records() -> DrawRecorder {
    DrawRecorder::Black
}

/// Who records a decided game (T6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recorder {
    /// 获胜方录谱.
    #[default]
    Winner,
    Red,
    Black,
    Both,
}

/// Who records a drawn game (T6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawRecorder {
    Red,
    /// 和棋由黑方录谱.
    #[default]
    Black,
    Both,
}

/// Who is fouled for a short draw (T6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShortDrawFoul {
    /// Both players (they agreed the draw).
    #[default]
    Both,
    /// The player who records the draw (`draw_recorder`).
    Recorder,
}

impl RecordRules {
    /// Whether board `board` of round `round` must keep a record (T6: boards 1–10 from
    /// round 4).
    pub fn must_record(&self, round: u32, board: u32) -> bool {
        self.boards > 0 && round >= self.from_round && board <= self.boards
    }

    /// Whether a knockout game of `kind` in schedule round `round` must keep a record: its
    /// kind keeps records (not in `exempt_kinds`, 「快棋不用记录」) and `board`, the game's
    /// board within the knockout's round (1…N, the knockout's boards counted from 1 even where
    /// the continuing Swiss is paired beside it: the players for the top places play the top
    /// boards), is one of the boards that record from `from_round` on.
    pub fn knockout_must_record(&self, round: u32, board: u32, kind: GameKind) -> bool {
        !self.exempt_kinds.contains(kind) && self.must_record(round, board)
    }

    /// Who records, in words (Chinese, English): 「获胜方录谱，和棋由黑方录谱」.
    pub fn recorder_words(&self) -> (String, String) {
        let (wz, we) = match self.recorder {
            Recorder::Winner => ("获胜方录谱", "the winner records"),
            Recorder::Red => ("红方录谱", "red records"),
            Recorder::Black => ("黑方录谱", "black records"),
            Recorder::Both => ("双方录谱", "both record"),
        };
        let (dz, de) = match self.draw_recorder {
            DrawRecorder::Red => ("和棋由红方录谱", "red on a draw"),
            DrawRecorder::Black => ("和棋由黑方录谱", "black on a draw"),
            DrawRecorder::Both => ("和棋双方录谱", "both on a draw"),
        };
        (format!("{wz}，{dz}"), format!("{we}, {de}"))
    }
}

fn one() -> u32 {
    1
}

/// S9: standings of associations across sections.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssociationStandings {
    #[serde(default = "default_assoc_name")]
    pub name: String,
    /// Section ids counted.
    pub sections: Vec<String>,
    /// An association missing a section is not ranked (default on).
    #[serde(default = "yes")]
    pub incomplete_unranked: bool,
    #[serde(default)]
    pub prizes: Vec<Prize>,
    /// Sections that rank one category only (section id → category id): an association's
    /// 「最好名次」 there is its best place in that category (苏州 六2 「老年组…男子录取成绩」:
    /// `rank_in_category = { senior = "men" }`), not the place among everyone who played.
    #[serde(default)]
    pub rank_in_category: std::collections::BTreeMap<String, String>,
}

fn default_assoc_name() -> String {
    "团体".to_string()
}

/// S10: awards chosen by the organiser.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialAward {
    pub name: String,
    #[serde(default = "one")]
    pub count: u32,
    #[serde(default)]
    pub amount_yuan: Option<u32>,
}

impl Regulation {
    /// Every condition flag the regulation names (a section's `require_flags` and
    /// `forbid_flags`, a category's `flag`), each once, in the file's order: the flags an
    /// entry may carry.
    pub fn flags(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in &self.sections {
            let el = &s.eligibility;
            for f in el
                .require_flags
                .iter()
                .chain(el.any_of.iter().flat_map(|c| &c.flags))
                .chain(&el.forbid_flags)
                .chain(s.categories.iter().filter_map(|c| c.flag.as_ref()))
            {
                if !out.contains(f) {
                    out.push(f.clone());
                }
            }
        }
        for f in self.registration.play_up.iter().flat_map(|p| &p.flags) {
            if !out.contains(f) {
                out.push(f.clone());
            }
        }
        out
    }

    /// A flag in Chinese: [`flag_zh`] for the flags it knows, else the name of the first
    /// category marked by it, else the flag as written.
    pub fn flag_label(&self, flag: &str) -> String {
        match flag_zh(flag) {
            "其他条件" => self
                .sections
                .iter()
                .flat_map(|s| &s.categories)
                .find(|c| c.flag.as_deref() == Some(flag))
                .map_or_else(|| flag.to_string(), |c| c.name.clone()),
            zh => zh.to_string(),
        }
    }

    pub fn section(&self, id: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.id == id)
    }

    /// 昆山 五(一) 「上届…甲组团体前八名、乙组团体前四名单位，本届自动划入甲组」: the team
    /// divisions placed from last edition's results, whose `units` each edition fills in.
    pub fn placed_divisions(&self) -> Vec<&Division> {
        self.sections
            .iter()
            .flat_map(|s| s.teams.iter().flat_map(|t| &t.divisions))
            .filter(|d| !d.auto_from_previous.is_empty())
            .collect()
    }

    /// Every division of [`Regulation::placed_divisions`] whose `units` are not filled in, as a
    /// notice the desk gives when an edition is made and `regulation check` prints — while
    /// they are empty no team is placed automatically and every team chooses its division.
    pub fn placement_units_missing(&self) -> Vec<String> {
        let mut out = Vec::new();
        for s in &self.sections {
            for d in s.teams.iter().flat_map(|t| &t.divisions) {
                if d.auto_from_previous.is_empty() || !d.units.is_empty() {
                    continue;
                }
                let from: Vec<String> = d
                    .auto_from_previous
                    .iter()
                    .map(|p| {
                        let name = s
                            .teams
                            .iter()
                            .flat_map(|t| &t.divisions)
                            .find(|x| x.id == p.division)
                            .map_or(p.division.as_str(), |x| x.name.as_str());
                        format!("{name}前{}名", p.top)
                    })
                    .collect();
                out.push(format!(
                    "{} {}: 上届{}单位尚未填写 (units = [])。填写前没有队伍自动划入{}，各队自选组别报名；请在规程中列出这些单位 (last edition's placed units are not filled in: until they are, no team is placed in {} automatically and every team chooses its division)",
                    s.name,
                    d.name,
                    from.join("、"),
                    d.name,
                    d.id
                ));
            }
        }
        out
    }
}

impl Section {
    pub fn category(&self, id: &str) -> Option<&Category> {
        self.categories.iter().find(|c| c.id == id)
    }

    /// The tie-break list for the format actually played: when `auto` (S4) turns the section
    /// into a round robin, `round_robin_tiebreaks` or else the `cxa-2011-rr` preset.
    pub fn tiebreaks_for(&self, played: EffectiveFormat) -> Tiebreaks {
        let rr = matches!(
            played,
            EffectiveFormat::RoundRobin | EffectiveFormat::DoubleRoundRobin
        );
        if rr && self.format.kind == FormatKind::Auto {
            if let Some(t) = &self.round_robin_tiebreaks {
                return t.clone();
            }
            if let Some(t) = crate::presets::tiebreaks("cxa-2011-rr") {
                return t;
            }
        }
        self.tiebreaks.clone()
    }
}
