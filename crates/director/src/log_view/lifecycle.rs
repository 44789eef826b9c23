//! The sentences of the event's own entries (赛事): created, settings changed, closed and
//! reopened, organisers' awards, the officials appointed.

use super::LogReader;
use arbiter_core::{LogEntry, PlayerId};

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the lifecycle family.
    pub(super) fn what_lifecycle(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
            LogEntry::EventCreated(c) => {
                let secs: Vec<&str> = c.sections.iter().map(|s| s.name.as_str()).collect();
                if zh {
                    // The regulation's name: this edition's is set by the settings entry
                    // that follows (赛事设置), if any.
                    format!("按规程 「{}」 创建赛事 (组别: {})", c.name, secs.join("、"))
                } else {
                    format!(
                        "created the event from the regulation 「{}」 (sections: {})",
                        c.name,
                        secs.join(", ")
                    )
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
            LogEntry::OfficialsAppointed { officials, reason } => {
                // One role with its names together: 「裁判员 李明、赵丽」.
                let mut roles: Vec<(&str, Vec<&str>)> = Vec::new();
                for o in officials {
                    match roles.last_mut() {
                        Some((r, names)) if *r == o.role => names.push(&o.name),
                        _ => roles.push((&o.role, vec![&o.name])),
                    }
                }
                let (sep, names_sep) = if zh { ("; ", "、") } else { ("; ", ", ") };
                let list: Vec<String> = roles
                    .iter()
                    .map(|(r, names)| format!("{r} {}", names.join(names_sep)))
                    .collect();
                match (officials.is_empty(), zh) {
                    (false, true) => {
                        format!("任命竞赛官员: {}{}", list.join(sep), self.reason(reason))
                    }
                    (false, false) => format!(
                        "appointed the officials: {}{}",
                        list.join(sep),
                        self.reason(reason)
                    ),
                    (true, true) => format!("撤销竞赛官员名单{}", self.reason(reason)),
                    (true, false) => {
                        format!("took back the list of officials{}", self.reason(reason))
                    }
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
            LogEntry::SettingsChanged {
                name,
                start,
                end,
                venue,
                rounds,
                time_controls,
                placed_units,
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
                for (division, units) in placed_units {
                    let name = self.division(division);
                    parts.push(match (zh, units.is_empty()) {
                        (true, false) => format!("{name} 上届划入单位 → {}", units.join("、")),
                        (true, true) => format!("{name} 上届划入单位 → 无"),
                        (false, false) => {
                            format!("{name}: last edition's units → {}", units.join(", "))
                        }
                        (false, true) => format!("{name}: last edition's units → none"),
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
            _ => unreachable!("not a lifecycle entry"),
        }
    }
}
