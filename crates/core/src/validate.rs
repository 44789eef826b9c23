//! Rules an entry must satisfy before it is appended. The same checks run again on replay,
//! so a log that was edited by hand into an impossible history does not fold.

use crate::entry::*;
use crate::state::{EventState, PlayerStatus};
use chrono::DateTime;
use std::collections::BTreeSet;

/// Why an entry may not be appended. Chinese first, English in brackets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("赛事尚未创建 (the log must start with event_created)")]
    NoEvent,
    #[error("赛事已创建 (event_created may appear only once)")]
    EventExists,
    #[error("赛事已闭幕, 成绩与名次已确定; 如需更改, 须裁判长先重新开启赛事 (`event reopen`) (the event is closed: reopen it first)")]
    EventClosed,
    #[error("赛事尚未闭幕, 无需重新开启 (the event is not closed)")]
    NotClosed,
    #[error("组别 `{0}` 不存在 (unknown section)")]
    UnknownSection(String),
    #[error("组别 `{0}` 重复 (duplicate section id)")]
    DuplicateSection(String),
    #[error("棋手 {0} 不存在 (unknown player)")]
    UnknownPlayer(PlayerId),
    #[error("棋手编号 {0} 已被使用 (player id already used)")]
    PlayerExists(PlayerId),
    #[error("棋手 {player} 不在组别 `{section}` (player is not in this section)")]
    WrongSection { player: PlayerId, section: String },
    #[error("姓名不能为空 (name is empty)")]
    EmptyName,
    #[error("{0}不能为空 ({0} is required)")]
    Required(&'static str),
    #[error(
        "身份证号 {0} 已在组别 `{1}` 报名 (this ID number is already registered in the section)"
    )]
    DuplicateIdNumber(String, String),
    #[error("报名已截止 ({deadline}); 提交时间 {at} (registration closed)")]
    AfterDeadline { deadline: String, at: String },
    #[error("报名人数已满 ({0} 人) (entry cap reached)")]
    EntryCapReached(u32),
    #[error("协会 `{association}` 已报名 {cap} 人, 达到上限 (association entry cap reached)")]
    AssociationCapReached { association: String, cap: u32 },
    #[error("时间 `{0}` 不是 RFC 3339 格式 (bad time)")]
    BadTime(String),
    #[error("棋手 {0} 已退赛 (player already withdrawn)")]
    AlreadyWithdrawn(PlayerId),
    #[error("更正内容为空 (no field changes)")]
    NoChanges,
    #[error("队名 `{0}` 已存在 (team already entered)")]
    TeamExists(String),
    #[error("队伍 `{0}` 不存在 (unknown team)")]
    UnknownTeam(String),
    #[error("棋手 {0} 重复出现 (player listed twice)")]
    DuplicatePlayer(PlayerId),
    #[error("组别 `{section}` 第 {round} 轮已编排后, 序号只能在原顺序后追加 (pairing numbers can only be extended once a round is paired)")]
    RedrawAfterPairing { section: String, round: u32 },
    #[error("组别 `{section}` 应编排第 {expected} 轮, 而不是第 {found} 轮 (wrong round number)")]
    WrongRound {
        section: String,
        expected: u32,
        found: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮尚未结束 (previous round not completed)")]
    PreviousRoundOpen { section: String, round: u32 },
    #[error("组别 `{section}` 第 {round} 轮已有成绩, 不能重新编排 (round already has results)")]
    RoundHasResults { section: String, round: u32 },
    #[error("棋手 {0} 尚无序号 (player has no pairing number; draw numbers first)")]
    NoPairingNumber(PlayerId),
    #[error("棋手 {0} 已退赛, 不能编排 (withdrawn player cannot be paired)")]
    PairingWithdrawn(PlayerId),
    #[error("台号 {0} 重复或为 0 (board number repeated or zero)")]
    BadBoardNumber(u32),
    #[error("棋手 {0} 不能与自己对局 (player paired against themself)")]
    SelfPairing(PlayerId),
    #[error("组别 `{section}` 第 {round} 轮不存在 (round not paired)")]
    UnknownRound { section: String, round: u32 },
    #[error("组别 `{section}` 第 {round} 轮没有第 {board} 台 (no such board)")]
    UnknownBoard {
        section: String,
        round: u32,
        board: u32,
    },
    #[error("第 {round} 轮第 {board} 台成绩已签字确认, 只能由裁判长更正并说明理由 (confirmed result: use a correction with a reason, A12)")]
    ResultConfirmed { round: u32, board: u32 },
    #[error("第 {round} 轮第 {board} 台尚无成绩 (no result yet)")]
    NoResult { round: u32, board: u32 },
    #[error("第 {round} 轮第 {board} 台成绩已确认 (already confirmed)")]
    AlreadyConfirmed { round: u32, board: u32 },
    #[error(
        "更正必须说明理由及裁判长姓名 (a correction needs a reason and the chief arbiter's name)"
    )]
    CorrectionWithoutReason,
    #[error("组别 `{section}` 第 {round} 轮已结束 (round already completed)")]
    RoundCompleted { section: String, round: u32 },
    #[error(
        "组别 `{section}` 第 {round} 轮第 {board} 台尚无成绩, 不能结束本轮 (a board has no result)"
    )]
    RoundIncomplete {
        section: String,
        round: u32,
        board: u32,
    },
    #[error("犯规记录的台号需同时注明轮次 (a foul's board needs its round)")]
    FoulBoardWithoutRound,
    #[error("第 {round} 轮第 {board} 台没有棋手 {player} (the player of a game foul is not on that board)")]
    FoulNotOnBoard {
        player: PlayerId,
        round: u32,
        board: u32,
    },
    #[error("团体犯规不属于某一台 (a team foul has no board)")]
    TeamFoulOnBoard,
    #[error("签字人不能为空 (a confirmation needs a signature)")]
    NoSignature,
    #[error("组别 `{section}` 第 {round} 轮已公布 (round already published)")]
    AlreadyPublished { section: String, round: u32 },
    #[error("组别 `{section}` 只能撤销最后一轮 (第 {last} 轮), 不能撤销第 {round} 轮 (only the last round can be undone)")]
    UndoNotLast {
        section: String,
        round: u32,
        last: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮已有成绩或犯规记录, 不能撤销 (a round with results cannot be undone; correct the results instead)")]
    UndoWithResults { section: String, round: u32 },
    #[error("组别 `{section}` 没有团体组别 `{division}` (unknown team division of the members' section)")]
    UnknownDivision { division: String, section: String },
    #[error("组别 `{section}` 已有同名同单位同出生日期的棋手 {player} ({name}); 无身份证号的报名按此判为重复 (duplicate entry: same name, unit and birth date in the section)")]
    DuplicateEntry {
        player: PlayerId,
        name: String,
        section: String,
    },
    #[error("轮次应从 1 开始 (round numbers start at 1)")]
    RoundZero,
    #[error("组别 `{section}` 第 {round} 轮已编排, 不能再登记请假; 未到场请录入弃权 (round already paired: enter a forfeit instead)")]
    AbsentAfterPairing { section: String, round: u32 },
    #[error("棋手 {player} 第 {round} 轮已登记请假 (already marked absent for this round)")]
    AlreadyAbsent { player: PlayerId, round: u32 },
    #[error("棋手 {player} 报名时写明队伍 `{team}`, 但队伍名单未列入 (the player names this team but the team entry does not list him)")]
    TeamOmitsMember { player: PlayerId, team: String },
    #[error("网上报名 #{0} 不存在 (unknown online submission)")]
    UnknownSubmission(u32),
    #[error("网上报名编号 #{0} 已被使用 (submission number already used)")]
    SubmissionExists(u32),
    #[error("网上报名 #{0} 已处理 (the submission is already decided)")]
    SubmissionDecided(u32),
    #[error("报名与网上报名 #{0} 的组别或身份证号不一致 (the registration differs from the online submission it approves)")]
    SubmissionMismatch(u32),
    #[error("网上报名的处理须为批准 (棋手) 或拒绝 (理由) 之一 (a decision is an approval with the player or a refusal with a reason)")]
    BadDecision,
    #[error("身份证号 {0} 已在组别 `{1}` 网上报名, 等待审核 (this ID number is already submitted online for the section)")]
    DuplicateSubmission(String, String),
    #[error("赛事设置没有任何更改 (no setting changed)")]
    NoSettings,
    #[error("组别 `{section}` 已编排到第 {paired} 轮, 轮数不能设为 {rounds} (fewer rounds than already paired)")]
    RoundsBelowPaired {
        section: String,
        rounds: u32,
        paired: u32,
    },
    #[error("开始日期 {start} 晚于结束日期 {end} (the start is after the end)")]
    BadDates { start: String, end: String },
    #[error("组别 `{section}` 的比赛用时 每方{minutes}分钟 每步加{increment_seconds}秒 不合理: 每方 1–600 分钟, 每步加 0–600 秒 (a time control of 1–600 minutes, 0–600 seconds a move)")]
    BadTimeControl {
        section: String,
        minutes: u32,
        increment_seconds: u32,
    },
    #[error("队伍名单没有任何变动 (the roster change adds and removes nobody)")]
    NoRosterChange,
    #[error("棋手 {player} 不在队伍 `{team}` 的名单中 (the player is not on the team's roster)")]
    NotOnRoster { player: PlayerId, team: String },
    #[error("棋手 {player} 属于组别 `{section}`, 与队伍 `{team}` 的组别不同 (members of one team play in one section)")]
    MemberOfOtherSection {
        player: PlayerId,
        team: String,
        section: String,
    },
    #[error("棋手 {player} 已属于队伍 `{other}`, 不能列入队伍 `{team}` (the player already belongs to another team)")]
    MemberOfOtherTeam {
        player: PlayerId,
        team: String,
        other: String,
    },
}

/// Check `entry` against `state` without a time (no deadline check).
pub fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    validate_at(state, entry, None)
}

/// Check `entry` against `state`; `at` (RFC 3339) is the time it is appended, used for the
/// registration deadline.
pub fn validate_at(
    state: &EventState,
    entry: &LogEntry,
    at: Option<&str>,
) -> Result<(), Rejection> {
    let header = match (&state.header, entry) {
        (None, LogEntry::EventCreated(c)) => {
            if c.name.trim().is_empty() {
                return Err(Rejection::Required("赛事名称 event name"));
            }
            let mut seen = BTreeSet::new();
            for s in &c.sections {
                if !seen.insert(&s.id) {
                    return Err(Rejection::DuplicateSection(s.id.clone()));
                }
            }
            if let Some(d) = &c.limits.deadline {
                DateTime::parse_from_rfc3339(d).map_err(|_| Rejection::BadTime(d.clone()))?;
            }
            return Ok(());
        }
        (None, _) => return Err(Rejection::NoEvent),
        (Some(_), LogEntry::EventCreated(_)) => return Err(Rejection::EventExists),
        (Some(_), LogEntry::EventReopened { reason, by }) => {
            if !state.closed {
                return Err(Rejection::NotClosed);
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("重新开启的理由 reason"));
            }
            if by.trim().is_empty() {
                return Err(Rejection::Required("裁判长 by"));
            }
            return Ok(());
        }
        (Some(_), _) if state.closed => return Err(Rejection::EventClosed),
        (Some(h), _) => h,
    };
    let section = |id: &str| {
        state
            .sections
            .get(id)
            .ok_or_else(|| Rejection::UnknownSection(id.to_string()))
    };
    let player = |p: &PlayerId| state.players.get(p).ok_or(Rejection::UnknownPlayer(*p));
    let round = |s: &str, r: u32| {
        section(s)?
            .rounds
            .get(&r)
            .ok_or_else(|| Rejection::UnknownRound {
                section: s.to_string(),
                round: r,
            })
    };
    let board = |s: &str, r: u32, b: u32| {
        round(s, r)?
            .board(b)
            .ok_or_else(|| Rejection::UnknownBoard {
                section: s.to_string(),
                round: r,
                board: b,
            })
    };

    match entry {
        LogEntry::EventCreated(_) => unreachable_ok(),
        // Its content is the standings the log before it calls for: `event verify` checks it.
        LogEntry::EventClosed { .. } | LogEntry::EventReopened { .. } => Ok(()),
        LogEntry::PlayerRegistered(r) => {
            section(&r.section)?;
            if state.players.contains_key(&r.player) {
                return Err(Rejection::PlayerExists(r.player));
            }
            if r.name.trim().is_empty() {
                return Err(Rejection::EmptyName);
            }
            if let Some(id) = &r.id_number {
                if state.index.has_id_number(&r.section, id.as_str()) {
                    return Err(Rejection::DuplicateIdNumber(id.masked(), r.section.clone()));
                }
            } else if let Some(first) =
                state
                    .index
                    .same_person(&r.section, &r.name, r.unit.as_deref(), r.birth_date)
            {
                // Without an ID number, the same name, unit and birth date (both recorded or
                // both unknown) in the same section is the same person entered twice.
                return Err(Rejection::DuplicateEntry {
                    player: first,
                    name: r.name.clone(),
                    section: r.section.clone(),
                });
            }
            let late_ok = r.late_reason.as_ref().is_some_and(|x| !x.trim().is_empty());
            // An approved online entry is on time if it was submitted on time.
            let at = match r.submission {
                None => at,
                Some(n) => {
                    let sub = state
                        .submissions
                        .get(&n)
                        .ok_or(Rejection::UnknownSubmission(n))?;
                    if sub.decision.is_some() {
                        return Err(Rejection::SubmissionDecided(n));
                    }
                    if sub.section != r.section || sub.id_number != r.id_number {
                        return Err(Rejection::SubmissionMismatch(n));
                    }
                    if sub.at.is_empty() {
                        at
                    } else {
                        Some(sub.at.as_str())
                    }
                }
            };
            if let (Some(deadline), Some(at), false) = (&header.limits.deadline, at, late_ok) {
                let d = DateTime::parse_from_rfc3339(deadline)
                    .map_err(|_| Rejection::BadTime(deadline.clone()))?;
                let t = DateTime::parse_from_rfc3339(at)
                    .map_err(|_| Rejection::BadTime(at.to_string()))?;
                if t > d {
                    return Err(Rejection::AfterDeadline {
                        deadline: deadline.clone(),
                        at: at.to_string(),
                    });
                }
            }
            if let Some(cap) = header.limits.max_entries {
                if u64::from(state.index.active()) >= u64::from(cap) {
                    return Err(Rejection::EntryCapReached(cap));
                }
            }
            if let (Some(cap), Some(a)) = (header.limits.max_per_association, &r.association) {
                let n = state.index.of_association(a);
                if u64::from(n) >= u64::from(cap) {
                    return Err(Rejection::AssociationCapReached {
                        association: a.clone(),
                        cap,
                    });
                }
            }
            Ok(())
        }
        LogEntry::PlayerCorrected {
            player: p,
            changes,
            reason,
        } => {
            player(p)?;
            if changes.is_empty() {
                return Err(Rejection::NoChanges);
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("更正理由 reason"));
            }
            for c in changes {
                if let FieldChange::Name(n) = c {
                    if n.trim().is_empty() {
                        return Err(Rejection::EmptyName);
                    }
                }
            }
            Ok(())
        }
        LogEntry::PlayerWithdrawn {
            player: p, reason, ..
        } => {
            if player(p)?.withdrawn.is_some() {
                return Err(Rejection::AlreadyWithdrawn(*p));
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("退赛理由 reason"));
            }
            Ok(())
        }
        LogEntry::EntryRefused {
            name,
            section: s,
            reason,
            ..
        } => {
            section(s)?;
            if name.trim().is_empty() {
                return Err(Rejection::EmptyName);
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("拒绝理由 reason"));
            }
            Ok(())
        }
        LogEntry::FeePaid { player: p, .. } | LogEntry::CheckedIn { player: p } => {
            player(p).map(|_| ())
        }
        LogEntry::PlayerAbsent {
            player: p,
            round: r,
            ..
        } => {
            let pl = player(p)?;
            if pl.withdrawn.is_some() {
                return Err(Rejection::AlreadyWithdrawn(*p));
            }
            if *r == 0 {
                return Err(Rejection::RoundZero);
            }
            if section(&pl.section)?.rounds.contains_key(r) {
                return Err(Rejection::AbsentAfterPairing {
                    section: pl.section.clone(),
                    round: *r,
                });
            }
            if pl.absent.contains(r) {
                return Err(Rejection::AlreadyAbsent {
                    player: *p,
                    round: *r,
                });
            }
            Ok(())
        }
        LogEntry::TeamEntered {
            team,
            unit,
            division,
            members,
            ..
        } => {
            if team.trim().is_empty() {
                return Err(Rejection::Required("队名 team name"));
            }
            if unit.trim().is_empty() {
                return Err(Rejection::Required("单位 unit"));
            }
            if state.teams.contains_key(team) {
                return Err(Rejection::TeamExists(team.clone()));
            }
            // One roster per team: the entry lists every player who named the team at
            // registration, and nobody who belongs to another team.
            let mut seen = BTreeSet::new();
            let mut sections = BTreeSet::new();
            for m in members {
                let pl = player(m)?;
                sections.insert(pl.section.as_str());
                if !seen.insert(m) {
                    return Err(Rejection::DuplicatePlayer(*m));
                }
                if let Some(other) = pl.team.as_ref().filter(|o| *o != team) {
                    return Err(Rejection::MemberOfOtherTeam {
                        player: *m,
                        team: team.clone(),
                        other: other.clone(),
                    });
                }
            }
            if let Some(p) = state
                .players
                .values()
                .find(|p| p.team.as_ref() == Some(team) && !seen.contains(&p.id))
            {
                return Err(Rejection::TeamOmitsMember {
                    player: p.id,
                    team: team.clone(),
                });
            }
            if let Some(d) = division {
                // A division of the members' section (K1: 甲组/乙组 inside the men's
                // section), or — as older logs wrote it — a section id.
                let own = match sections.first() {
                    Some(s) if sections.len() == 1 => state
                        .sections
                        .get(*s)
                        .is_some_and(|sec| sec.divisions.iter().any(|x| &x.id == d)),
                    _ => false,
                };
                if !own && !state.sections.contains_key(d) {
                    return Err(Rejection::UnknownDivision {
                        division: d.clone(),
                        section: sections.iter().copied().collect::<Vec<_>>().join(", "),
                    });
                }
            }
            Ok(())
        }
        LogEntry::TeamRosterChanged {
            team,
            added,
            removed,
            ..
        } => {
            let t = state
                .teams
                .get(team)
                .ok_or_else(|| Rejection::UnknownTeam(team.clone()))?;
            if added.is_empty() && removed.is_empty() {
                return Err(Rejection::NoRosterChange);
            }
            let mut seen = BTreeSet::new();
            for m in removed {
                if !seen.insert(m) {
                    return Err(Rejection::DuplicatePlayer(*m));
                }
                if !t.members.contains(m) {
                    return Err(Rejection::NotOnRoster {
                        player: *m,
                        team: team.clone(),
                    });
                }
            }
            for m in added {
                let pl = player(m)?;
                if !seen.insert(m) {
                    return Err(Rejection::DuplicatePlayer(*m));
                }
                // One roster per team: a player who belongs to (or names) a team is moved
                // by removing him from it first.
                if let Some(other) = &pl.team {
                    return Err(Rejection::MemberOfOtherTeam {
                        player: *m,
                        team: team.clone(),
                        other: other.clone(),
                    });
                }
                if t.section.as_ref().is_some_and(|s| *s != pl.section) {
                    return Err(Rejection::MemberOfOtherSection {
                        player: *m,
                        team: team.clone(),
                        section: pl.section.clone(),
                    });
                }
            }
            Ok(())
        }
        LogEntry::PairingNumbersDrawn {
            section: s, order, ..
        } => {
            let sec = section(s)?;
            let mut seen = BTreeSet::new();
            for p in order {
                let pl = player(p)?;
                if pl.section != *s {
                    return Err(Rejection::WrongSection {
                        player: *p,
                        section: s.clone(),
                    });
                }
                if !seen.insert(p) {
                    return Err(Rejection::DuplicatePlayer(*p));
                }
            }
            if let Some(&r) = sec.rounds.keys().next() {
                if !order.starts_with(&sec.order) {
                    return Err(Rejection::RedrawAfterPairing {
                        section: s.clone(),
                        round: r,
                    });
                }
            }
            Ok(())
        }
        LogEntry::RoundPaired {
            section: s,
            round: r,
            boards,
            byes,
            ..
        } => {
            let sec = section(s)?;
            let last = sec.last_round();
            // A round may be re-paired while none of its boards has a result.
            let repair = *r == last && *r >= 1;
            if repair {
                let cur = &sec.rounds[r];
                if cur.completed || cur.boards.iter().any(|b| b.result.is_some()) {
                    return Err(Rejection::RoundHasResults {
                        section: s.clone(),
                        round: *r,
                    });
                }
            } else if *r != last + 1 {
                return Err(Rejection::WrongRound {
                    section: s.clone(),
                    expected: last + 1,
                    found: *r,
                });
            }
            if *r > 1 && !sec.rounds.get(&(r - 1)).is_some_and(|p| p.completed) {
                return Err(Rejection::PreviousRoundOpen {
                    section: s.clone(),
                    round: r - 1,
                });
            }
            let mut seen = BTreeSet::new();
            let mut nums = BTreeSet::new();
            for b in boards {
                if b.board == 0 || !nums.insert(b.board) {
                    return Err(Rejection::BadBoardNumber(b.board));
                }
                if b.red == b.black {
                    return Err(Rejection::SelfPairing(b.red));
                }
            }
            for p in boards
                .iter()
                .flat_map(|b| [b.red, b.black])
                .chain(byes.iter().copied())
            {
                let pl = player(&p)?;
                if pl.section != *s {
                    return Err(Rejection::WrongSection {
                        player: p,
                        section: s.clone(),
                    });
                }
                if !seen.insert(p) {
                    return Err(Rejection::DuplicatePlayer(p));
                }
                if sec.pairing_no(p).is_none() {
                    return Err(Rejection::NoPairingNumber(p));
                }
                if state.status(p) == Some(PlayerStatus::Withdrawn) {
                    return Err(Rejection::PairingWithdrawn(p));
                }
            }
            Ok(())
        }
        LogEntry::ResultEntered {
            section: s,
            round: r,
            board: b,
            ..
        } => {
            let bd = board(s, *r, *b)?;
            if bd.confirmed {
                return Err(Rejection::ResultConfirmed {
                    round: *r,
                    board: *b,
                });
            }
            if round(s, *r)?.completed {
                return Err(Rejection::RoundCompleted {
                    section: s.clone(),
                    round: *r,
                });
            }
            Ok(())
        }
        LogEntry::ResultConfirmed {
            section: s,
            round: r,
            board: b,
            signed_by,
        } => {
            let bd = board(s, *r, *b)?;
            if bd.result.is_none() {
                return Err(Rejection::NoResult {
                    round: *r,
                    board: *b,
                });
            }
            if bd.confirmed {
                return Err(Rejection::AlreadyConfirmed {
                    round: *r,
                    board: *b,
                });
            }
            if signed_by.iter().all(|n| n.trim().is_empty()) {
                return Err(Rejection::NoSignature);
            }
            Ok(())
        }
        LogEntry::ResultCorrected {
            section: s,
            round: r,
            board: b,
            reason,
            by,
            ..
        } => {
            let bd = board(s, *r, *b)?;
            if bd.result.is_none() {
                return Err(Rejection::NoResult {
                    round: *r,
                    board: *b,
                });
            }
            if reason.trim().is_empty() || by.trim().is_empty() {
                return Err(Rejection::CorrectionWithoutReason);
            }
            Ok(())
        }
        LogEntry::FoulRecorded {
            section: s,
            offender,
            round: r,
            board: bd,
            reason,
            ..
        } => {
            section(s)?;
            match offender {
                Offender::Player(p) => {
                    if player(p)?.section != *s {
                        return Err(Rejection::WrongSection {
                            player: *p,
                            section: s.clone(),
                        });
                    }
                }
                Offender::Team(t) => {
                    if !state.teams.contains_key(t) {
                        return Err(Rejection::UnknownTeam(t.clone()));
                    }
                }
            }
            if let Some(r) = r {
                round(s, *r)?;
            }
            if let Some(b) = bd {
                let Some(r) = r else {
                    return Err(Rejection::FoulBoardWithoutRound);
                };
                let Offender::Player(p) = offender else {
                    return Err(Rejection::TeamFoulOnBoard);
                };
                let game = state
                    .section(s)
                    .and_then(|sec| sec.round(*r))
                    .and_then(|rd| rd.board(*b))
                    .ok_or_else(|| Rejection::UnknownBoard {
                        section: s.clone(),
                        round: *r,
                        board: *b,
                    })?;
                if game.red != *p && game.black != *p {
                    return Err(Rejection::FoulNotOnBoard {
                        player: *p,
                        round: *r,
                        board: *b,
                    });
                }
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("犯规理由 reason"));
            }
            Ok(())
        }
        LogEntry::RoundCompleted {
            section: s,
            round: r,
        } => {
            let rd = round(s, *r)?;
            if rd.completed {
                return Err(Rejection::RoundCompleted {
                    section: s.clone(),
                    round: *r,
                });
            }
            if let Some(b) = rd.boards.iter().find(|b| b.result.is_none()) {
                return Err(Rejection::RoundIncomplete {
                    section: s.clone(),
                    round: *r,
                    board: b.board,
                });
            }
            Ok(())
        }
        LogEntry::RoundPublished {
            section: s,
            round: r,
        } => {
            if round(s, *r)?.published {
                return Err(Rejection::AlreadyPublished {
                    section: s.clone(),
                    round: *r,
                });
            }
            Ok(())
        }
        LogEntry::RoundUndone {
            section: s,
            round: r,
            ..
        } => {
            let rd = round(s, *r)?;
            let last = section(s)?.last_round();
            if *r != last {
                return Err(Rejection::UndoNotLast {
                    section: s.clone(),
                    round: *r,
                    last,
                });
            }
            if rd.completed {
                return Err(Rejection::RoundCompleted {
                    section: s.clone(),
                    round: *r,
                });
            }
            let touched = rd
                .boards
                .iter()
                .any(|b| b.result.is_some() || !b.fouls.is_empty() || !b.history.is_empty());
            if touched {
                return Err(Rejection::UndoWithResults {
                    section: s.clone(),
                    round: *r,
                });
            }
            Ok(())
        }
        LogEntry::EntrySubmitted {
            submission,
            section: s,
            name,
            id_number,
            ..
        } => {
            section(s)?;
            if name.trim().is_empty() {
                return Err(Rejection::EmptyName);
            }
            if state.submissions.contains_key(submission) {
                return Err(Rejection::SubmissionExists(*submission));
            }
            if let Some(id) = id_number {
                if state.index.has_id_number(s, id.as_str()) {
                    return Err(Rejection::DuplicateIdNumber(id.masked(), s.clone()));
                }
                if state
                    .pending(Some(s.as_str()))
                    .iter()
                    .any(|x| x.id_number.as_ref() == Some(id))
                {
                    return Err(Rejection::DuplicateSubmission(id.masked(), s.clone()));
                }
            }
            Ok(())
        }
        LogEntry::SubmissionDecided {
            submission,
            player: p,
            reason,
        } => {
            let sub = state
                .submissions
                .get(submission)
                .ok_or(Rejection::UnknownSubmission(*submission))?;
            if sub.decision.is_some() {
                return Err(Rejection::SubmissionDecided(*submission));
            }
            let refused = reason.as_ref().is_some_and(|r| !r.trim().is_empty());
            match (p, refused) {
                (Some(p), false) => {
                    if player(p)?.section != sub.section {
                        return Err(Rejection::WrongSection {
                            player: *p,
                            section: sub.section.clone(),
                        });
                    }
                    Ok(())
                }
                (None, true) => Ok(()),
                _ => Err(Rejection::BadDecision),
            }
        }
        LogEntry::SettingsChanged {
            name,
            start,
            end,
            venue,
            rounds,
            time_controls,
            ..
        } => {
            if name.is_none()
                && start.is_none()
                && end.is_none()
                && venue.is_none()
                && rounds.is_empty()
                && time_controls.is_empty()
            {
                return Err(Rejection::NoSettings);
            }
            for (id, tc) in time_controls {
                section(id)?;
                if tc.minutes == 0 || tc.minutes > 600 || tc.increment_seconds > 600 {
                    return Err(Rejection::BadTimeControl {
                        section: id.clone(),
                        minutes: tc.minutes,
                        increment_seconds: tc.increment_seconds,
                    });
                }
            }
            if name.as_ref().is_some_and(|n| n.trim().is_empty()) {
                return Err(Rejection::Required("赛事名称 event name"));
            }
            let start = start.or(state.settings.start);
            let end = end.or(state.settings.end);
            if let (Some(a), Some(b)) = (start, end) {
                if a > b {
                    return Err(Rejection::BadDates {
                        start: a.to_string(),
                        end: b.to_string(),
                    });
                }
            }
            for (id, n) in rounds {
                let paired = section(id)?.last_round();
                if *n == 0 || *n < paired {
                    return Err(Rejection::RoundsBelowPaired {
                        section: id.clone(),
                        rounds: *n,
                        paired,
                    });
                }
            }
            Ok(())
        }
        LogEntry::KnockoutGameRecorded {
            section: s,
            match_id,
            red,
            black,
            ..
        } => {
            section(s)?;
            if match_id.trim().is_empty() {
                return Err(Rejection::Required("对阵编号 match id"));
            }
            if red == black {
                return Err(Rejection::SelfPairing(*red));
            }
            for p in [red, black] {
                if player(p)?.section != *s {
                    return Err(Rejection::WrongSection {
                        player: *p,
                        section: s.clone(),
                    });
                }
            }
            Ok(())
        }
    }
}

/// `EventCreated` with an existing header was answered above.
fn unreachable_ok() -> Result<(), Rejection> {
    Err(Rejection::EventExists)
}
