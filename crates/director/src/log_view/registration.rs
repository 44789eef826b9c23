//! The sentences of the registration entries (报名): entries, corrections, withdrawals,
//! refusals, fees, deposits, check-in, online submissions.

use super::LogReader;
use arbiter_core::LogEntry;

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the registration family.
    pub(super) fn what_registration(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
            LogEntry::PlayerRegistered(p) => {
                let mut s = if zh {
                    format!(
                        "登记 {} {}",
                        p.person.name,
                        self.unit_section(p.person.unit.as_deref(), &p.section)
                    )
                } else {
                    format!(
                        "registered {} {}",
                        p.person.name,
                        self.unit_section(p.person.unit.as_deref(), &p.section)
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
                by_forfeits,
            } => {
                let when = match (after_round, zh) {
                    (Some(r), true) => format!("成绩计至第{r}轮"),
                    (None, true) => "第1轮前".to_string(),
                    (Some(r), false) => format!("results count up to round {r}"),
                    (None, false) => "before round 1".to_string(),
                };
                let rule = match (by_forfeits, zh) {
                    (false, _) => "",
                    (true, true) => ", 按规程弃权规则",
                    (true, false) => ", by the regulation's forfeit rule",
                };
                if zh {
                    format!(
                        "办理 {} 退赛 ({when}{rule}){}",
                        self.one(*player),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "withdrew {} ({when}{rule}){}",
                        self.one(*player),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::PlayerDisqualified {
                player,
                reason,
                after_round,
                void_results,
            } => {
                let games = match (void_results, after_round, zh) {
                    (true, _, true) => "成绩作废, 其全部对局判对手弃权胜".to_string(),
                    (true, _, false) => {
                        "results void: every game of his is his opponent's forfeit win".to_string()
                    }
                    (false, Some(r), true) => format!("第{r}轮及以前的对局有效, 此后对局判其弃权"),
                    (false, None, true) => "此后对局判其弃权".to_string(),
                    (false, Some(r), false) => {
                        format!("games up to round {r} stand, his later games are his forfeits")
                    }
                    (false, None, false) => "his games are his forfeits".to_string(),
                };
                if zh {
                    format!(
                        "取消 {} 的比赛资格 ({games}; 不计名次、奖项、称号){}",
                        self.one(*player),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "disqualified {} ({games}; no place, prize or title){}",
                        self.one(*player),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::RefusalWithdrawn { refusal, reason } => {
                if zh {
                    format!("撤销第 {refusal} 条的拒绝报名{}", self.reason(reason))
                } else {
                    format!(
                        "withdrew the refusal of entry #{refusal}{}",
                        self.reason(reason)
                    )
                }
            }
            LogEntry::SectionsMerged { from, into, reason } => {
                let (from, into) = (self.section(from), self.section(into));
                if zh {
                    format!(
                        "将{from}并入{into}: {from}的棋手均转入{into} (报名费、签到随人), {from}不再接受报名{}",
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "merged {from} into {into}: its players moved to {into} with their fees and check-in, and {from} takes no more entries{}",
                        self.reason(reason)
                    )
                }
            }
            LogEntry::PlayerSectionChanged {
                player,
                from,
                to,
                reason,
            } => {
                if zh {
                    format!(
                        "{} 由{}换至{}{}",
                        self.one(*player),
                        self.section(from),
                        self.section(to),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "moved {} from {} to {}{}",
                        self.one(*player),
                        self.section(from),
                        self.section(to),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::DisqualificationRevoked { player, reason } => {
                if zh {
                    format!(
                        "撤销对 {} 的取消比赛资格{}",
                        self.one(*player),
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "revoked the disqualification of {}{}",
                        self.one(*player),
                        self.reason(reason)
                    )
                }
            }
            LogEntry::PlayerReinstated {
                player,
                reason,
                by_correction,
            } => {
                let how = match (by_correction, zh) {
                    (true, true) => " (成绩更正后)",
                    (false, true) => " (裁判长决定)",
                    (true, false) => " (after a correction)",
                    (false, false) => " (the chief arbiter's decision)",
                };
                if zh {
                    format!("{} 恢复参赛{how}{}", self.one(*player), self.reason(reason))
                } else {
                    format!(
                        "reinstated {}{how}{}",
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
            LogEntry::EntrySubmitted {
                submission,
                section,
                person:
                    arbiter_types::Person {
                        name,
                        unit,
                        sex: _,
                        birth_date: _,
                        id_number: _,
                        phone: _,
                        social_security: _,
                        association: _,
                    },
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
            _ => unreachable!("not a registration entry"),
        }
    }
}
