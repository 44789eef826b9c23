//! The event log as a person reads it (操作日志): each entry one sentence saying who did what,
//! when — 「09:12 裁判长 王强 登记 张三 (天水市, 公开组)」, 「10:30 裁判 李明 录入 第3轮 第5台:
//! 张三 (红) 胜 李四」 — in Chinese, or in English. The desk's log page and `arbiter event log`
//! show this one view; the raw entry stays available to them for audit.
//!
//! An entry's meaning depends on the event at that point of the log (a player number is a
//! name, a board is two players, a correction changes the result stored then). The log is
//! read once, in order: [`LogReader`] words an entry from what it has learnt from the
//! entries before it, then learns what the entry adds — names, sections, boards and their
//! results, online submissions — and nothing else, so a long log stays fast.
//!
//! No ID number or phone is ever worded (a corrected one is shown masked), and no internal
//! id: sections by their names, players by theirs.

use arbiter_core::{
    Board, DivisionInfo, Ending, FieldChange, FoulKind, LogEntry, PlayerId, Recorded, SectionInfo,
};
use arbiter_types::{GameKind, GameResult, Role};
use std::collections::BTreeMap;

mod knockout;
mod lifecycle;
mod matches;
mod records;
mod registration;
mod results;
mod rounds;
mod teams;

/// The language of the sentences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Zh,
    En,
}

/// An account as the log names it: the role and the display name of a login (the log records
/// the login as the entry's actor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub role: Role,
    pub name: String,
}

/// One log entry as a sentence: `time who what`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub seq: u64,
    /// The venue's date of the entry (`2026-09-20`), or the recorded time if it does not read.
    pub date: String,
    /// The venue's time of day (`09:12`), empty if the recorded time does not read.
    pub time: String,
    /// Who: 「裁判长 王强」 (role and display name), or the recorded actor.
    pub who: String,
    /// What, in words.
    pub what: String,
}

impl LogLine {
    /// The whole sentence: 「09:12 裁判长 王强 登记 张三 (天水市, 公开组)」.
    pub fn sentence(&self) -> String {
        let mut s = String::new();
        for part in [&self.time, &self.who, &self.what] {
            if !part.is_empty() {
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push_str(part);
            }
        }
        s
    }
}

/// What a player is known as at a point of the log.
#[derive(Debug, Clone)]
struct KnownPlayer {
    name: String,
    section: String,
    unit: Option<String>,
}

/// One board: red, black and the result stored so far.
#[derive(Debug, Clone, Copy)]
struct KnownBoard {
    red: PlayerId,
    black: PlayerId,
    result: Option<GameResult>,
    /// Played with the colours swapped (S6): `red` and `black` are the colours played.
    swapped: bool,
}

/// Reads a log in order and words each entry (see the module's documentation).
pub struct LogReader<'a> {
    lang: Language,
    accounts: &'a BTreeMap<String, Account>,
    sections: Vec<SectionInfo>,
    players: BTreeMap<PlayerId, KnownPlayer>,
    boards: BTreeMap<(String, u32), BTreeMap<u32, KnownBoard>>,
    drawn: BTreeMap<String, usize>,
    /// Sections split into groups (`groups_drawn`): their `knockout_seeded` is the final's field.
    grouped: std::collections::BTreeSet<String>,
    /// Pairing numbers drawn so far.
    numbers: BTreeMap<PlayerId, u32>,
    submissions: BTreeMap<u32, String>,
    /// The sections whose groups are named by number (`group_names = "numbers"`), read from
    /// the regulation the event was created with.
    numbered_groups: std::collections::BTreeSet<String>,
}

/// Every entry of `records` (in log order) for which `show` holds, worded; the entries
/// between are only read. One pass over the log.
pub fn log_lines(
    records: &[Recorded],
    lang: Language,
    accounts: &BTreeMap<String, Account>,
    show: impl Fn(&Recorded) -> bool,
) -> Vec<LogLine> {
    let mut reader = LogReader::new(lang, accounts);
    let mut out = Vec::new();
    for r in records {
        if show(r) {
            out.push(reader.line(r));
        } else {
            reader.learn(&r.entry);
        }
    }
    out
}

/// What a write just appended, one sentence each without the time and who (the shell's
/// answer to the person who wrote): the entries of `records` whose seq is `written`, worded
/// by what the log before them says — the same sentences as the log's. Shells word a write
/// with this, never by reading the entries themselves.
pub fn told(records: &[Recorded], written: impl Fn(u64) -> bool, lang: Language) -> Vec<String> {
    let none = BTreeMap::new();
    log_lines(records, lang, &none, |r| written(r.seq))
        .into_iter()
        .map(|l| l.what)
        .collect()
}

impl<'a> LogReader<'a> {
    /// A reader at the start of a log; `accounts` names the logins recorded as actors.
    pub fn new(lang: Language, accounts: &'a BTreeMap<String, Account>) -> Self {
        LogReader {
            lang,
            accounts,
            sections: Vec::new(),
            players: BTreeMap::new(),
            boards: BTreeMap::new(),
            drawn: BTreeMap::new(),
            grouped: Default::default(),
            numbered_groups: Default::default(),
            numbers: BTreeMap::new(),
            submissions: BTreeMap::new(),
        }
    }

    /// Word `r` by what the entries before it said, then learn from it.
    pub fn line(&mut self, r: &Recorded) -> LogLine {
        let (date, time) = match arbiter_core::time::china_local(&r.at) {
            Some(t) => (
                t.format("%Y-%m-%d").to_string(),
                t.format("%H:%M").to_string(),
            ),
            None => (r.at.clone(), String::new()),
        };
        let line = LogLine {
            seq: r.seq,
            date,
            time,
            who: self.who(&r.actor),
            what: self.what(&r.entry),
        };
        self.learn(&r.entry);
        line
    }

    fn zh(&self) -> bool {
        self.lang == Language::Zh
    }

    /// 「裁判长 王强」 for an account, the recorded actor otherwise.
    pub fn who(&self, actor: &str) -> String {
        if let Some(a) = self.accounts.get(actor) {
            let role = if self.zh() {
                a.role.zh().to_string()
            } else {
                role_en(a.role)
            };
            let name = if a.name.trim().is_empty() {
                actor
            } else {
                a.name.trim()
            };
            return format!("{role} {name}");
        }
        if actor == ONLINE {
            return self.t("网上报名", "online entry form");
        }
        if actor == PHONE {
            return self.t("选手手机确认", "the players on their phones");
        }
        actor.to_string()
    }

    fn t(&self, zh: &str, en: &str) -> String {
        if self.zh() { zh } else { en }.to_string()
    }

    fn section(&self, id: &str) -> String {
        self.sections
            .iter()
            .find(|s| s.id == id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    /// The section's name before a round or board, when the event has more than one.
    fn in_section(&self, id: &str) -> String {
        if self.sections.len() > 1 {
            format!("{} ", self.section(id))
        } else {
            String::new()
        }
    }

    fn division(&self, id: &str) -> String {
        self.sections
            .iter()
            .flat_map(|s| s.divisions.iter())
            .find(|d: &&DivisionInfo| d.id == id)
            .map(|d| d.name.clone())
            .unwrap_or_else(|| self.section(id))
    }

    fn player(&self, p: PlayerId) -> String {
        match self.players.get(&p) {
            Some(k) => k.name.clone(),
            None if self.zh() => format!("报名号 {p}"),
            None => format!("entry {p}"),
        }
    }

    /// A player alone in a sentence: his pairing number before his name once his section
    /// has drawn (「序号 3 张三」), his name before the draw.
    fn one(&self, p: PlayerId) -> String {
        match self.numbers.get(&p) {
            Some(n) if self.zh() => format!("序号 {n} {}", self.player(p)),
            Some(n) => format!("no. {n} {}", self.player(p)),
            None => self.player(p),
        }
    }

    fn players(&self, ps: &[PlayerId]) -> String {
        let names: Vec<String> = ps.iter().map(|p| self.player(*p)).collect();
        names.join(if self.zh() { "、" } else { ", " })
    }

    fn round(&self, section: &str, round: u32) -> String {
        if self.zh() {
            format!("{}第{round}轮", self.in_section(section))
        } else {
            format!("{}round {round}", self.in_section(section))
        }
    }

    fn board(&self, section: &str, round: u32, board: u32) -> String {
        if self.zh() {
            format!("{}第{round}轮 第{board}台", self.in_section(section))
        } else {
            format!("{}round {round} board {board}", self.in_section(section))
        }
    }

    fn known_board(&self, section: &str, round: u32, board: u32) -> Option<KnownBoard> {
        self.boards
            .get(&(section.to_string(), round))
            .and_then(|b| b.get(&board))
            .copied()
    }

    /// 「张三 (红) 胜 李四」.
    fn game(&self, red: PlayerId, black: PlayerId, result: GameResult) -> String {
        let (r, b) = (self.player(red), self.player(black));
        use GameResult::*;
        if self.zh() {
            match result {
                RedWin => format!("{r} (红) 胜 {b}"),
                BlackWin => format!("{r} (红) 负 {b}"),
                Draw => format!("{r} (红) 和 {b}"),
                RedForfeit => format!("{b} (黑) 胜, {r} (红) 弃权"),
                BlackForfeit => format!("{r} (红) 胜, {b} (黑) 弃权"),
                DoubleForfeit => format!("{r} (红) 与 {b} 双方弃权"),
            }
        } else {
            match result {
                RedWin => format!("{r} (red) beat {b}"),
                BlackWin => format!("{r} (red) lost to {b}"),
                Draw => format!("{r} (red) drew with {b}"),
                RedForfeit => format!("{b} (black) won, {r} (red) forfeited"),
                BlackForfeit => format!("{r} (red) won, {b} (black) forfeited"),
                DoubleForfeit => format!("{r} (red) and {b} both forfeited"),
            }
        }
    }

    fn result(&self, r: GameResult) -> String {
        if self.zh() {
            r.zh().to_string()
        } else {
            result_en(r).to_string()
        }
    }

    fn reason(&self, reason: &str) -> String {
        let r = reason.trim();
        if r.is_empty() {
            String::new()
        } else if self.zh() {
            format!(", 理由: {r}")
        } else {
            format!(", reason: {r}")
        }
    }

    /// 「(天水市, 公开组)」: the unit (if any) and the section's name.
    fn unit_section(&self, unit: Option<&str>, section: &str) -> String {
        let sec = self.section(section);
        match unit.map(str::trim).filter(|u| !u.is_empty()) {
            Some(u) => format!("({u}, {sec})"),
            None => format!("({sec})"),
        }
    }

    /// What the entry says, in words. Every variant has its sentence, in the module of its
    /// family (as `arbiter_core`'s families): a new variant must be given its family here (no
    /// wildcard arm) and its sentence there.
    pub fn what(&self, e: &LogEntry) -> String {
        match e {
            LogEntry::EventCreated(_)
            | LogEntry::SpecialAwardGiven { .. }
            | LogEntry::OfficialsAppointed { .. }
            | LogEntry::EventClosed { .. }
            | LogEntry::EventReopened { .. }
            | LogEntry::SettingsChanged { .. } => self.what_lifecycle(e),
            LogEntry::PlayerRegistered(_)
            | LogEntry::PlayerCorrected { .. }
            | LogEntry::PlayerWithdrawn { .. }
            | LogEntry::PlayerReinstated { .. }
            | LogEntry::PlayerDisqualified { .. }
            | LogEntry::DisqualificationRevoked { .. }
            | LogEntry::PlayerSectionChanged { .. }
            | LogEntry::SectionsMerged { .. }
            | LogEntry::EntryRefused { .. }
            | LogEntry::RefusalWithdrawn { .. }
            | LogEntry::FeePaid { .. }
            | LogEntry::CheckedIn { .. }
            | LogEntry::FeeCancelled { .. }
            | LogEntry::DepositRefunded { .. }
            | LogEntry::RefundConditionMarked { .. }
            | LogEntry::CheckInCancelled { .. }
            | LogEntry::EntrySubmitted { .. }
            | LogEntry::SubmissionDecided { .. } => self.what_registration(e),
            LogEntry::TeamEntered { .. } | LogEntry::TeamRosterChanged { .. } => self.what_teams(e),
            LogEntry::TeamNumbersDrawn { .. }
            | LogEntry::MatchesPaired { .. }
            | LogEntry::LineupGiven { .. }
            | LogEntry::MatchConfirmed { .. } => self.what_matches(e),
            LogEntry::PlayerAbsent { .. }
            | LogEntry::PairingNumbersDrawn { .. }
            | LogEntry::GroupsDrawn { .. }
            | LogEntry::RoundPaired { .. }
            | LogEntry::RoundPublished { .. }
            | LogEntry::RoundUndone { .. } => self.what_rounds(e),
            LogEntry::ResultEntered { .. }
            | LogEntry::ResultClaimed { .. }
            | LogEntry::ResultConfirmed { .. }
            | LogEntry::ResultCorrected { .. }
            | LogEntry::FoulRecorded { .. }
            | LogEntry::ColoursPlayed { .. }
            | LogEntry::FoulFlagDecided { .. }
            | LogEntry::ProtestDecided { .. }
            | LogEntry::RoundCompleted { .. } => self.what_results(e),
            LogEntry::KnockoutSeeded { .. }
            | LogEntry::KnockoutGameRecorded { .. }
            | LogEntry::KnockoutResultClaimed { .. } => self.what_knockout(e),
            LogEntry::GameRecorded { .. } | LogEntry::GameRecordRemoved { .. } => {
                self.what_records(e)
            }
        }
    }

    fn change(&self, c: &FieldChange) -> String {
        let zh = self.zh();
        let none = || self.t("(空)", "(none)");
        let opt = |v: &Option<String>| v.clone().unwrap_or_else(none);
        let (field, value) = match c {
            FieldChange::Name(n) => (self.t("姓名", "name"), n.clone()),
            FieldChange::Sex(s) => (
                self.t("性别", "sex"),
                s.map_or_else(none, |s| {
                    if zh {
                        s.zh().to_string()
                    } else {
                        match s {
                            arbiter_types::Sex::Male => "male".into(),
                            arbiter_types::Sex::Female => "female".into(),
                        }
                    }
                }),
            ),
            FieldChange::BirthDate(d) => (
                self.t("出生日期", "birth date"),
                d.map_or_else(none, |d| d.to_string()),
            ),
            FieldChange::IdNumber(i) => (
                self.t("身份证号", "ID number"),
                i.as_ref().map_or_else(none, |i| i.masked()),
            ),
            FieldChange::Phone(p) => (
                self.t("电话", "phone"),
                p.as_ref().map_or_else(none, |p| p.masked()),
            ),
            FieldChange::Unit(u) => (self.t("单位", "unit"), opt(u)),
            FieldChange::Association(a) => (self.t("协会", "association"), opt(a)),
            FieldChange::Team(t) => (self.t("队名", "team"), opt(t)),
            FieldChange::Rating(r) => (
                self.t("等级分", "rating"),
                r.map_or_else(none, |r| r.to_string()),
            ),
            FieldChange::Grade(g) => (self.t("段位/称号", "grade"), opt(g)),
            FieldChange::Local(b) => (
                self.t("本地选手", "local player"),
                match (b, zh) {
                    (true, true) => "是".into(),
                    (false, true) => "否".into(),
                    (true, false) => "yes".into(),
                    (false, false) => "no".into(),
                },
            ),
            FieldChange::Evidence(ev) => (
                self.t("证明材料", "documents"),
                if ev.is_empty() {
                    none()
                } else {
                    let names: Vec<String> = ev.iter().map(|e| evidence_name(e, zh)).collect();
                    names.join(if zh { "、" } else { ", " })
                },
            ),
            FieldChange::Flags(_) => {
                return self.t("资格条件已更改", "eligibility marks changed");
            }
        };
        format!("{field} → {value}")
    }

    fn ending(&self, e: Ending) -> String {
        if self.zh() {
            e.zh().to_string()
        } else {
            e.name().replace('_', " ")
        }
    }

    fn foul(&self, k: FoulKind) -> String {
        if self.zh() {
            k.zh().to_string()
        } else {
            match k {
                FoulKind::General => "foul",
                FoulKind::Phone => "mobile phone",
                FoulKind::Records => "moves not recorded",
                FoulKind::ShortDraw => "draw offered too early",
                FoulKind::Coaching => "coaching",
            }
            .to_string()
        }
    }

    fn game_kind(&self, k: GameKind) -> String {
        if self.zh() {
            k.zh().to_string()
        } else {
            k.name().to_string()
        }
    }

    /// Learn what `e` adds to the names, sections, boards and submissions.
    pub fn learn(&mut self, e: &LogEntry) {
        match e {
            LogEntry::EventCreated(c) => {
                self.sections = c.sections.clone();
                self.numbered_groups = arbiter_regulation::parse(&c.regulation, &c.file_name)
                    .map(|r| {
                        r.sections
                            .iter()
                            .filter(|s| {
                                s.format.group_names == arbiter_regulation::GroupNames::Numbers
                            })
                            .map(|s| s.id.clone())
                            .collect()
                    })
                    .unwrap_or_default();
            }
            LogEntry::PlayerRegistered(p) => {
                self.players.insert(
                    p.player,
                    KnownPlayer {
                        name: p.person.name.clone(),
                        section: p.section.clone(),
                        unit: p.person.unit.clone(),
                    },
                );
            }
            LogEntry::PlayerCorrected {
                player, changes, ..
            } => {
                if let Some(k) = self.players.get_mut(player) {
                    for c in changes {
                        match c {
                            FieldChange::Name(n) => k.name = n.clone(),
                            FieldChange::Unit(u) => k.unit = u.clone(),
                            _ => {}
                        }
                    }
                }
            }
            LogEntry::GroupsDrawn { section, .. } => {
                self.grouped.insert(section.clone());
            }
            LogEntry::PairingNumbersDrawn { section, order, .. } => {
                self.drawn.insert(section.clone(), order.len());
                for (i, p) in order.iter().enumerate() {
                    self.numbers.insert(*p, i as u32 + 1);
                }
            }
            LogEntry::RoundPaired {
                section,
                round,
                boards,
                ..
            } => {
                let map = boards
                    .iter()
                    .map(|b: &Board| {
                        (
                            b.board,
                            KnownBoard {
                                red: b.red,
                                black: b.black,
                                result: None,
                                swapped: false,
                            },
                        )
                    })
                    .collect();
                self.boards.insert((section.clone(), *round), map);
            }
            LogEntry::RoundUndone { section, round, .. } => {
                self.boards.remove(&(section.clone(), *round));
            }
            LogEntry::ResultEntered {
                section,
                round,
                board,
                result,
                ..
            }
            | LogEntry::ResultCorrected {
                section,
                round,
                board,
                result,
                ..
            } => {
                if let Some(b) = self
                    .boards
                    .get_mut(&(section.clone(), *round))
                    .and_then(|m| m.get_mut(board))
                {
                    b.result = Some(*result);
                }
            }
            LogEntry::ColoursPlayed {
                section,
                round,
                board,
                swapped,
            } => {
                if let Some(b) = self
                    .boards
                    .get_mut(&(section.clone(), *round))
                    .and_then(|m| m.get_mut(board))
                {
                    if b.swapped != *swapped {
                        std::mem::swap(&mut b.red, &mut b.black);
                        b.swapped = *swapped;
                    }
                }
            }
            LogEntry::EntrySubmitted {
                submission, person, ..
            } => {
                self.submissions.insert(*submission, person.name.clone());
            }
            _ => {}
        }
    }

    /// The section a player entered, as known at this point of the log.
    pub fn section_of(&self, p: PlayerId) -> Option<&str> {
        self.players.get(&p).map(|k| k.section.as_str())
    }

    /// The unit a player entered for, as known at this point of the log.
    pub fn unit_of(&self, p: PlayerId) -> Option<&str> {
        self.players.get(&p).and_then(|k| k.unit.as_deref())
    }
}

/// The actor the public online entry form records.
pub const ONLINE: &str = "online";

/// The actor the players' result claims on their phones record (`arbiter_director::claim`).
pub const PHONE: &str = "phone";

fn role_en(r: Role) -> String {
    match r {
        Role::Organiser => "organiser",
        Role::ChiefArbiter => "chief arbiter",
        Role::Arbiter => "arbiter",
        Role::Desk => "registration desk",
    }
    .to_string()
}

fn result_en(r: GameResult) -> &'static str {
    match r {
        GameResult::RedWin => "red won",
        GameResult::BlackWin => "black won",
        GameResult::Draw => "draw",
        GameResult::RedForfeit => "red forfeited",
        GameResult::BlackForfeit => "black forfeited",
        GameResult::DoubleForfeit => "both forfeited",
    }
}

fn evidence_name(name: &str, zh: bool) -> String {
    arbiter_regulation::model::Evidence::ALL
        .iter()
        .find(|e| e.name() == name)
        .map_or_else(
            || name.to_string(),
            |e| {
                if zh {
                    e.zh().to_string()
                } else {
                    e.name().replace('_', " ")
                }
            },
        )
}

/// A knockout match by its id (`F`, `P3`, `SF1`, `P5-QF2`, `R16-3`) in words: 决赛, 三四名,
/// 半决赛 1, 五至八名四分之一决赛 2, 八分之一决赛 3.
pub fn match_label(id: &str, lang: Language) -> String {
    use arbiter_knockout::bracket::zh_num;
    let zh = lang == Language::Zh;
    let (first, stage) = match id.strip_prefix('P') {
        Some(rest) => match rest.split_once('-') {
            Some((f, st)) => (f.parse::<u32>().ok(), Some(st)),
            None => (rest.parse::<u32>().ok(), None),
        },
        None => (Some(1), Some(id)),
    };
    let Some(first) = first else {
        return id.to_string();
    };
    let Some(stage) = stage else {
        return if zh {
            format!("{}{}名", zh_num(first), zh_num(first + 1))
        } else {
            format!("places {}–{}", first, first + 1)
        };
    };
    if stage == "F" {
        return if zh { "决赛".into() } else { "final".into() };
    }
    let (size, i) = if let Some(i) = stage.strip_prefix("SF") {
        (4, i)
    } else if let Some(i) = stage.strip_prefix("QF") {
        (8, i)
    } else if let Some((s, i)) = stage.strip_prefix('R').and_then(|r| r.split_once('-')) {
        match s.parse::<u32>() {
            Ok(s) => (s, i),
            Err(_) => return id.to_string(),
        }
    } else {
        return id.to_string();
    };
    let Ok(i) = i.parse::<u32>() else {
        return id.to_string();
    };
    let name = match (size, zh) {
        (4, true) => "半决赛".to_string(),
        (8, true) => "四分之一决赛".to_string(),
        (s, true) => format!("{}分之一决赛", zh_num(s / 2)),
        (4, false) => "semi-final".to_string(),
        (8, false) => "quarter-final".to_string(),
        (s, false) => format!("round of {s}"),
    };
    match (first, zh) {
        (1, _) => format!("{name} {i}"),
        (f, true) => format!("{}至{}名{name} {i}", zh_num(f), zh_num(f + size - 1)),
        (f, false) => format!("places {}–{} {name} {i}", f, f + size - 1),
    }
}

#[cfg(test)]
mod tests;
