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
    Board, DivisionInfo, Ending, FieldChange, FoulKind, LogEntry, Offender, PlayerId, Recorded,
    SectionInfo,
};
use arbiter_types::{GameKind, GameResult, Role};
use std::collections::BTreeMap;

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
    /// Pairing numbers drawn so far.
    numbers: BTreeMap<PlayerId, u32>,
    submissions: BTreeMap<u32, String>,
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

    /// What the entry says, in words. Every variant has its sentence: a new variant must be
    /// given one here (no wildcard arm).
    pub fn what(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
            LogEntry::EventCreated(c) => {
                let secs: Vec<&str> = c.sections.iter().map(|s| s.name.as_str()).collect();
                if zh {
                    format!("创建赛事 {} (组别: {})", c.name, secs.join("、"))
                } else {
                    format!(
                        "created the event {} (sections: {})",
                        c.name,
                        secs.join(", ")
                    )
                }
            }
            LogEntry::PlayerRegistered(p) => {
                let mut s = if zh {
                    format!(
                        "登记 {} {}",
                        p.name,
                        self.unit_section(p.unit.as_deref(), &p.section)
                    )
                } else {
                    format!(
                        "registered {} {}",
                        p.name,
                        self.unit_section(p.unit.as_deref(), &p.section)
                    )
                };
                if let Some(n) = p.submission {
                    s += &if zh {
                        format!(", 网上报名第{n}号")
                    } else {
                        format!(", online entry no. {n}")
                    };
                }
                if let Some(why) = &p.late_reason {
                    s += &if zh {
                        format!(", 截止后补报, 理由: {}", why.trim())
                    } else {
                        format!(", late entry, reason: {}", why.trim())
                    };
                }
                s
            }
            LogEntry::PlayerCorrected {
                player,
                changes,
                reason,
            } => {
                let what: Vec<String> = changes.iter().map(|c| self.change(c)).collect();
                let sep = "; ";
                if zh {
                    format!(
                        "更正 {} 的报名信息: {}{}",
                        self.one(*player),
                        what.join(sep),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "corrected the entry of {}: {}{}",
                        self.one(*player),
                        what.join(sep),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::PlayerWithdrawn {
                player,
                reason,
                after_round,
            } => {
                let when = match (after_round, zh) {
                    (Some(r), true) => format!("成绩计至第{r}轮"),
                    (None, true) => "第1轮前".to_string(),
                    (Some(r), false) => format!("results count up to round {r}"),
                    (None, false) => "before round 1".to_string(),
                };
                if zh {
                    format!(
                        "办理 {} 退赛 ({when}){}",
                        self.one(*player),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "withdrew {} ({when}){}",
                        self.one(*player),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::EntryRefused {
                name,
                section,
                reason,
                id_number: _,
                unit,
                facts: _,
            } => {
                if zh {
                    format!(
                        "不予登记 {} {}: {}",
                        name,
                        self.unit_section(unit.as_deref(), section),
                        reason.trim()
                    )
                } else {
                    format!(
                        "refused the entry of {} {}: {}",
                        name,
                        self.unit_section(unit.as_deref(), section),
                        reason.trim()
                    )
                }
            }
            LogEntry::FeePaid {
                player,
                amount_fen,
                receipt,
                item,
            } => {
                let amount = format!("¥{}.{:02}", amount_fen / 100, amount_fen % 100);
                let receipt = match (receipt.as_deref().map(str::trim), zh) {
                    (Some(r), true) if !r.is_empty() => format!(" (收据 {r})"),
                    (Some(r), false) if !r.is_empty() => format!(" (receipt {r})"),
                    _ => String::new(),
                };
                match (zh, item) {
                    (true, None) => format!("收取 {} 报名费 {amount}{receipt}", self.one(*player)),
                    (true, Some(i)) => {
                        format!("收取 {} 「{i}」 {amount}{receipt}", self.one(*player))
                    }
                    (false, None) => format!(
                        "took the entry fee of {}: {amount}{receipt}",
                        self.one(*player)
                    ),
                    (false, Some(i)) => {
                        format!("took 「{i}」 of {}: {amount}{receipt}", self.one(*player))
                    }
                }
            }
            LogEntry::CheckedIn { player, pledge } => match (zh, pledge) {
                (true, false) => format!("为 {} 办理报到", self.one(*player)),
                (true, true) => format!("为 {} 办理报到, 已签承诺书", self.one(*player)),
                (false, false) => format!("checked in {}", self.one(*player)),
                (false, true) => format!("checked in {}, pledge signed", self.one(*player)),
            },
            LogEntry::FeeCancelled {
                player,
                amount_fen,
                item,
            } => {
                let amount = format!("¥{}.{:02}", amount_fen / 100, amount_fen % 100);
                match (zh, item) {
                    (true, None) => format!("撤销 {} 的报名费 {amount}", self.one(*player)),
                    (true, Some(i)) => format!("撤销 {} 的「{i}」 {amount}", self.one(*player)),
                    (false, None) => format!(
                        "took back {amount} of the entry fee of {}",
                        self.one(*player)
                    ),
                    (false, Some(i)) => {
                        format!("took back {amount} of 「{i}」 of {}", self.one(*player))
                    }
                }
            }
            LogEntry::DepositRefunded {
                player,
                item,
                amount_fen,
                reason,
            } => {
                let amount = format!("¥{}.{:02}", amount_fen / 100, amount_fen % 100);
                let why = reason
                    .as_deref()
                    .map(str::trim)
                    .filter(|r| !r.is_empty())
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                if zh {
                    format!("退还 {} 的「{item}」 {amount}{why}", self.one(*player))
                } else {
                    format!(
                        "refunded {amount} of 「{item}」 to {}{why}",
                        self.one(*player)
                    )
                }
            }
            LogEntry::RefundConditionMarked {
                player,
                condition,
                met,
            } => match (zh, met) {
                (true, true) => format!("确认 {} 满足退还条件「{condition}」", self.one(*player)),
                (true, false) => {
                    format!("取消 {} 的退还条件「{condition}」", self.one(*player))
                }
                (false, true) => format!(
                    "marked the refund condition 「{condition}」 as met for {}",
                    self.one(*player)
                ),
                (false, false) => format!(
                    "took back the refund condition 「{condition}」 of {}",
                    self.one(*player)
                ),
            },
            LogEntry::CheckInCancelled { player } => {
                if zh {
                    format!("撤销 {} 的报到", self.one(*player))
                } else {
                    format!("took back the check-in of {}", self.one(*player))
                }
            }
            LogEntry::PlayerAbsent {
                player,
                round,
                reason,
                without_leave,
            } => {
                let why = self.reason(reason.as_deref().unwrap_or(""));
                if *without_leave {
                    if zh {
                        format!("记录 {} 第{round}轮无故缺席{why}", self.one(*player))
                    } else {
                        format!(
                            "recorded {} absent without leave from round {round}{why}",
                            self.one(*player)
                        )
                    }
                } else if zh {
                    format!("准许 {} 第{round}轮请假{why}", self.one(*player))
                } else {
                    format!("excused {} from round {round}{why}", self.one(*player))
                }
            }
            LogEntry::TeamEntered {
                team,
                unit,
                division,
                members,
                leader,
                coach,
            } => {
                let mut s = match (division, zh) {
                    (Some(d), true) => format!("报名队伍 {team} ({unit}, {})", self.division(d)),
                    (None, true) => format!("报名队伍 {team} ({unit})"),
                    (Some(d), false) => {
                        format!("entered the team {team} ({unit}, {})", self.division(d))
                    }
                    (None, false) => format!("entered the team {team} ({unit})"),
                };
                s += &if zh {
                    format!(": 队员 {}", self.players(members))
                } else {
                    format!(": players {}", self.players(members))
                };
                if let Some(l) = leader.as_deref().filter(|l| !l.trim().is_empty()) {
                    s += &if zh {
                        format!(", 领队 {l}")
                    } else {
                        format!(", leader {l}")
                    };
                }
                if let Some(c) = coach.as_deref().filter(|c| !c.trim().is_empty()) {
                    s += &if zh {
                        format!(", 教练 {c}")
                    } else {
                        format!(", coach {c}")
                    };
                }
                s
            }
            LogEntry::TeamRosterChanged {
                team,
                added,
                removed,
                reason,
            } => {
                let mut parts = Vec::new();
                if !added.is_empty() {
                    parts.push(if zh {
                        format!("加入 {}", self.players(added))
                    } else {
                        format!("added {}", self.players(added))
                    });
                }
                if !removed.is_empty() {
                    parts.push(if zh {
                        format!("退出 {}", self.players(removed))
                    } else {
                        format!("removed {}", self.players(removed))
                    });
                }
                if zh {
                    format!(
                        "更改 {team} 的名单: {}{}",
                        parts.join(", "),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "changed the roster of {team}: {}{}",
                        parts.join(", "),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::PairingNumbersDrawn { section, order, .. } => {
                let before = self.drawn.get(section).copied().unwrap_or(0);
                let sec = self.section(section);
                let n = order.len();
                match (before, zh) {
                    (0, true) => format!("抽签: {sec} 序号 1–{n} ({n} 人)"),
                    (b, true) => format!("补抽序号: {sec} {}–{n}", b + 1),
                    (0, false) => format!("drew the numbers of {sec}: 1–{n} ({n} players)"),
                    (b, false) => format!("drew further numbers of {sec}: {}–{n}", b + 1),
                }
            }
            LogEntry::RoundPaired {
                section,
                round,
                stage,
                boards,
                byes,
                seed: _,
                manual,
            } => {
                let mut s = if zh {
                    format!("编排 {} ({} 台)", self.round(section, *round), boards.len())
                } else {
                    format!(
                        "paired {} ({} board{})",
                        self.round(section, *round),
                        boards.len(),
                        if boards.len() == 1 { "" } else { "s" }
                    )
                };
                if *stage > 1 {
                    s += &self.t(", 第二阶段", ", second stage");
                }
                if !byes.is_empty() {
                    s += &if zh {
                        format!(", 轮空: {}", self.players(byes))
                    } else {
                        format!(", bye: {}", self.players(byes))
                    };
                }
                if !manual.is_empty() {
                    s += &if zh {
                        format!(", 手工调整: {}", manual.join("; "))
                    } else {
                        format!(", adjusted by hand: {}", manual.join("; "))
                    };
                }
                s
            }
            LogEntry::ResultEntered {
                section,
                round,
                board,
                result,
                ending,
                moves,
            } => {
                let at = self.board(section, *round, *board);
                let known = self.known_board(section, *round, *board);
                let game = match known {
                    Some(b) => self.game(b.red, b.black, *result),
                    None => self.result(*result),
                };
                let mut s = if zh {
                    format!("录入 {at}: {game}")
                } else {
                    format!("entered {at}: {game}")
                };
                let mut how = Vec::new();
                if let Some(e) = ending {
                    how.push(self.ending(*e));
                }
                if let Some(m) = moves {
                    how.push(if zh {
                        format!("{m} 回合")
                    } else {
                        format!("{m} moves")
                    });
                }
                if !how.is_empty() {
                    s += &format!(" ({})", how.join(", "));
                }
                if let Some(old) = known.and_then(|b| b.result) {
                    s += &if zh {
                        format!(", 原为 {}", self.result(old))
                    } else {
                        format!(", was {}", self.result(old))
                    };
                }
                s
            }
            LogEntry::ResultConfirmed {
                section,
                round,
                board,
                signed_by,
            } => {
                let at = self.board(section, *round, *board);
                let names: Vec<&str> = signed_by
                    .iter()
                    .map(|n| n.trim())
                    .filter(|n| !n.is_empty())
                    .collect();
                if zh {
                    format!("确认 {at} 成绩单, 签字: {}", names.join("、"))
                } else {
                    format!("confirmed the slip of {at}, signed by {}", names.join(", "))
                }
            }
            LogEntry::ResultCorrected {
                section,
                round,
                board,
                result,
                reason,
                by: _,
            } => {
                let at = self.board(section, *round, *board);
                let was = self
                    .known_board(section, *round, *board)
                    .and_then(|b| b.result)
                    .map(|r| format!("{} → ", self.result(r)))
                    .unwrap_or_default();
                let game = self
                    .known_board(section, *round, *board)
                    .map(|b| format!(" ({})", self.game(b.red, b.black, *result)))
                    .unwrap_or_default();
                if zh {
                    format!(
                        "更正 {at} {was}{}{game}{}",
                        self.result(*result),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "corrected {at}: {was}{}{game}{}",
                        self.result(*result),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::FoulRecorded {
                section,
                offender,
                round,
                board,
                kind,
                reason,
            } => {
                let who = match offender {
                    Offender::Player(p) => self.one(*p),
                    Offender::Team(t) => {
                        if zh {
                            format!("队伍 {t}")
                        } else {
                            format!("the team {t}")
                        }
                    }
                };
                let kind = self.foul(*kind);
                let place = match (round, board) {
                    (Some(r), Some(b)) => format!(", {}", self.board(section, *r, *b)),
                    (Some(r), None) => format!(", {}", self.round(section, *r)),
                    _ => String::new(),
                };
                let why = reason.trim();
                let why = if why.is_empty() || why == kind {
                    String::new()
                } else {
                    format!(": {why}")
                };
                if zh {
                    format!("记录 {who} 犯规 ({kind}{place}){why}")
                } else {
                    format!("recorded a foul of {who} ({kind}{place}){why}")
                }
            }
            LogEntry::ColoursPlayed {
                section,
                round,
                board,
                swapped,
            } => {
                let at = self.board(section, *round, *board);
                // Worded before the fold of this entry: the board's colours as paired.
                let who = self
                    .known_board(section, *round, *board)
                    .map(|b| (self.player(b.red), self.player(b.black)));
                match (swapped, who, zh) {
                    (true, Some((r, b)), true) => {
                        format!("记录 {at} 红黑颠倒: {b} 执红, {r} 执黑 (开赛后不予纠正, 按实际先后手计)")
                    }
                    (true, Some((r, b)), false) => format!(
                        "recorded {at} played with colours swapped: {b} red, {r} black (stands as played)"
                    ),
                    (true, None, true) => format!("记录 {at} 红黑颠倒 (按实际先后手计)"),
                    (true, None, false) => format!("recorded {at} played with colours swapped"),
                    (false, _, true) => format!("撤销 {at} 红黑颠倒的记录"),
                    (false, _, false) => format!("took back the colours-swapped record of {at}"),
                }
            }
            LogEntry::FoulFlagDecided {
                section,
                round,
                board,
                kind,
                confirmed,
                reason,
            } => {
                let at = self.board(section, *round, *board);
                let kind = self.foul(*kind);
                match (confirmed, zh) {
                    (true, true) => format!("确认 {at} 的犯规提示 ({kind}){}", self.reason(reason)),
                    (true, false) => {
                        format!("confirmed the flag on {at} ({kind}){}", self.reason(reason))
                    }
                    (false, true) => {
                        format!("撤销 {at} 的犯规提示 ({kind}){}", self.reason(reason))
                    }
                    (false, false) => {
                        format!("dismissed the flag on {at} ({kind}){}", self.reason(reason))
                    }
                }
            }
            LogEntry::ProtestDecided {
                section,
                round,
                board,
                by,
                deposit_fen,
                upheld,
                deposit_returned,
                reason,
            } => {
                let at = self.board(section, *round, *board);
                let yuan = crate::api::entries::yuan(*deposit_fen);
                if zh {
                    format!(
                        "仲裁 {by} 对 {at} 的申诉 (申诉费 {yuan}): {}, 申诉费{}{}",
                        if *upheld {
                            "申诉成立"
                        } else {
                            "申诉不成立"
                        },
                        if *deposit_returned {
                            "退还"
                        } else {
                            "不退还"
                        },
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "decided the protest of {by} on {at} (deposit {}.{:02} yuan): {}, deposit {}{}",
                        deposit_fen / 100,
                        deposit_fen % 100,
                        if *upheld { "upheld" } else { "rejected" },
                        if *deposit_returned { "returned" } else { "kept" },
                        self.reason(reason)
                    )
                }
            }
            LogEntry::GameRecorded {
                section,
                round,
                board,
                moves,
                source,
                recorded_by,
            } => {
                let at = self.board(section, *round, *board);
                let n = moves.len().div_ceil(2);
                let by = recorded_by
                    .as_deref()
                    .map(str::trim)
                    .filter(|s| !s.is_empty());
                match (zh, by) {
                    (true, Some(by)) => {
                        format!("录入 {at} 的棋谱 ({n}回合, {}, 记录人 {by})", source.zh())
                    }
                    (true, None) => format!("录入 {at} 的棋谱 ({n}回合, {})", source.zh()),
                    (false, Some(by)) => format!(
                        "recorded the game of {at} ({n} moves, {}, written by {by})",
                        match source {
                            arbiter_core::RecordSource::Desk => "typed at the desk",
                            arbiter_core::RecordSource::Pgn => "from a PGN file",
                        }
                    ),
                    (false, None) => format!(
                        "recorded the game of {at} ({n} moves, {})",
                        match source {
                            arbiter_core::RecordSource::Desk => "typed at the desk",
                            arbiter_core::RecordSource::Pgn => "from a PGN file",
                        }
                    ),
                }
            }
            LogEntry::GameRecordRemoved {
                section,
                round,
                board,
                reason,
            } => {
                let at = self.board(section, *round, *board);
                if zh {
                    format!("删除 {at} 的棋谱{}", self.reason(reason))
                } else {
                    format!("removed the game record of {at}{}", self.reason(reason))
                }
            }
            LogEntry::SpecialAwardGiven {
                award,
                recipients,
                reason,
            } => match (recipients.is_empty(), zh) {
                (false, true) => format!(
                    "授予 {}「{award}」{}",
                    recipients.join("、"),
                    self.reason(reason)
                ),
                (false, false) => format!(
                    "gave 「{award}」 to {}{}",
                    recipients.join(", "),
                    self.reason(reason)
                ),
                (true, true) => format!("收回「{award}」{}", self.reason(reason)),
                (true, false) => format!("took back 「{award}」{}", self.reason(reason)),
            },
            LogEntry::RoundCompleted { section, round } => {
                if zh {
                    format!("完成 {} (成绩全部录入)", self.round(section, *round))
                } else {
                    format!(
                        "completed {} (every result in)",
                        self.round(section, *round)
                    )
                }
            }
            LogEntry::EventClosed {
                standings,
                teams,
                prizes,
            } => {
                let firsts: Vec<String> = standings
                    .iter()
                    .filter_map(|s| {
                        let winners: Vec<PlayerId> = s
                            .places
                            .iter()
                            .filter(|(rank, _)| *rank == 1)
                            .map(|(_, p)| *p)
                            .collect();
                        (!winners.is_empty()).then(|| {
                            if zh {
                                format!(
                                    "{} 第1名 {}",
                                    self.section(&s.section),
                                    self.players(&winners)
                                )
                            } else {
                                format!(
                                    "{}: 1st {}",
                                    self.section(&s.section),
                                    self.players(&winners)
                                )
                            }
                        })
                    })
                    .collect();
                if zh {
                    format!(
                        "闭幕, 最终名次确定: {}; 团体名次 {} 项, 奖项 {} 项",
                        firsts.join("; "),
                        teams.len(),
                        prizes.len()
                    )
                } else {
                    format!(
                        "closed the event, final standings fixed: {}; team rankings: {}, prizes: {}",
                        firsts.join("; "),
                        teams.len(),
                        prizes.len()
                    )
                }
            }
            LogEntry::EventReopened { reason, by: _ } => {
                if zh {
                    format!("重新开启赛事{}", self.reason(reason))
                } else {
                    format!("reopened the event{}", self.reason(reason))
                }
            }
            LogEntry::RoundPublished { section, round } => {
                if zh {
                    format!("公布 {} 对阵表", self.round(section, *round))
                } else {
                    format!("published the pairings of {}", self.round(section, *round))
                }
            }
            LogEntry::RoundUndone {
                section,
                round,
                reason,
            } => {
                if zh {
                    format!(
                        "撤销 {} 的编排{}",
                        self.round(section, *round),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "undid the pairing of {}{}",
                        self.round(section, *round),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::EntrySubmitted {
                submission,
                section,
                name,
                unit,
                sex: _,
                birth_date: _,
                id_number: _,
                phone: _,
                social_security: _,
                flags,
                evidence: _,
                status_key: _,
            } => {
                let us = self.unit_section(unit.as_deref(), section);
                let claims: Vec<&str> = flags
                    .iter()
                    .map(|f| arbiter_regulation::flag_zh(f))
                    .collect();
                let claims = match (claims.is_empty(), zh) {
                    (true, _) => String::new(),
                    (false, true) => format!(" (自称: {})", claims.join("、")),
                    (false, false) => format!(" (claims: {})", flags.join(", ")),
                };
                if zh {
                    format!("收到网上报名第{submission}号: {name} {us}{claims}, 待审核")
                } else {
                    format!(
                        "received online entry no. {submission}: {name} {us}{claims}, to be decided"
                    )
                }
            }
            LogEntry::SubmissionDecided {
                submission,
                player,
                reason,
            } => {
                let name = self
                    .submissions
                    .get(submission)
                    .cloned()
                    .or_else(|| player.map(|p| self.player(p)))
                    .unwrap_or_default();
                match (player, zh) {
                    (Some(_), true) => format!("批准网上报名第{submission}号 {name}"),
                    (Some(_), false) => format!("approved online entry no. {submission} {name}"),
                    (None, true) => format!(
                        "不批准网上报名第{submission}号 {name}{}",
                        self.reason(reason.as_deref().unwrap_or(""))
                    ),
                    (None, false) => format!(
                        "refused online entry no. {submission} {name}{}",
                        self.reason(reason.as_deref().unwrap_or(""))
                    ),
                }
            }
            LogEntry::SettingsChanged {
                name,
                start,
                end,
                venue,
                rounds,
                time_controls,
                reason,
                deadline,
                age_on,
            } => {
                let mut parts = Vec::new();
                if let Some(d) = deadline {
                    let d = arbiter_core::time::china_local(d)
                        .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                        .unwrap_or_else(|| d.clone());
                    parts.push(if zh {
                        format!("报名截止 → {d}")
                    } else {
                        format!("registration deadline → {d}")
                    });
                }
                if let Some(d) = age_on {
                    parts.push(if zh {
                        format!("年龄计算日期 → {d}")
                    } else {
                        format!("ages counted on → {d}")
                    });
                }
                if let Some(n) = name {
                    parts.push(if zh {
                        format!("名称 → {n}")
                    } else {
                        format!("name → {n}")
                    });
                }
                if let Some(d) = start {
                    parts.push(if zh {
                        format!("开始日期 → {d}")
                    } else {
                        format!("start → {d}")
                    });
                }
                if let Some(d) = end {
                    parts.push(if zh {
                        format!("结束日期 → {d}")
                    } else {
                        format!("end → {d}")
                    });
                }
                if let Some(v) = venue {
                    parts.push(if zh {
                        format!("地点 → {v}")
                    } else {
                        format!("venue → {v}")
                    });
                }
                for (sec, n) in rounds {
                    parts.push(if zh {
                        format!("{} 轮数 → {n}", self.section(sec))
                    } else {
                        format!("{} rounds → {n}", self.section(sec))
                    });
                }
                for (sec, tc) in time_controls {
                    parts.push(if zh {
                        format!(
                            "{} 用时 → 每方 {} 分钟, 每步加 {} 秒",
                            self.section(sec),
                            tc.minutes,
                            tc.increment_seconds
                        )
                    } else {
                        format!(
                            "{} time control → {} min + {} s a move",
                            self.section(sec),
                            tc.minutes,
                            tc.increment_seconds
                        )
                    });
                }
                if zh {
                    format!("修改赛事设置: {}{}", parts.join(", "), self.reason(reason))
                } else {
                    format!(
                        "changed the settings: {}{}",
                        parts.join(", "),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::KnockoutGameRecorded {
                section,
                match_id,
                game,
                kind,
                red,
                black,
                result,
            } => {
                let label = match_label(match_id, self.lang);
                let g = self.game(*red, *black, *result);
                let kind = self.game_kind(*kind);
                if zh {
                    format!(
                        "录入 {}淘汰赛 {label} 第{}局 ({kind}): {g}",
                        self.in_section(section),
                        game + 1
                    )
                } else {
                    format!(
                        "entered {}knockout {label} game {} ({kind}): {g}",
                        self.in_section(section),
                        game + 1
                    )
                }
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
            LogEntry::EventCreated(c) => self.sections = c.sections.clone(),
            LogEntry::PlayerRegistered(p) => {
                self.players.insert(
                    p.player,
                    KnownPlayer {
                        name: p.name.clone(),
                        section: p.section.clone(),
                        unit: p.unit.clone(),
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
                submission, name, ..
            } => {
                self.submissions.insert(*submission, name.clone());
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
