//! The sentences of the team-match entries (团体赛): team numbers drawn, a round's matches
//! paired, a team's line-up given, a captain's confirmation of his team's match.

use super::LogReader;
use arbiter_core::LogEntry;

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the team-match family.
    pub(super) fn what_matches(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
            LogEntry::TeamNumbersDrawn { section, order, .. } => {
                let sec = self.section(section);
                let list: Vec<String> = order
                    .iter()
                    .enumerate()
                    .map(|(i, t)| format!("{} {t}", i + 1))
                    .collect();
                if zh {
                    format!("团体抽签: {sec} 队号 {}", list.join("、"))
                } else {
                    format!("drew the team numbers of {sec}: {}", list.join(", "))
                }
            }
            LogEntry::MatchesPaired {
                section,
                round,
                matches,
                bye,
                manual,
                ..
            } => {
                let list: Vec<String> = matches
                    .iter()
                    .map(|m| {
                        if zh {
                            format!("{} 对 {}", m.first, m.second)
                        } else {
                            format!("{} v {}", m.first, m.second)
                        }
                    })
                    .collect();
                let mut s = if zh {
                    format!(
                        "团体对阵 {}: {}",
                        self.round(section, *round),
                        list.join("; ")
                    )
                } else {
                    format!(
                        "paired the matches of {}: {}",
                        self.round(section, *round),
                        list.join("; ")
                    )
                };
                if let Some(b) = bye {
                    s += &if zh {
                        format!("; {b} 轮空")
                    } else {
                        format!("; bye {b}")
                    };
                }
                for m in manual {
                    s += &format!("; {m}");
                }
                s
            }
            LogEntry::LineupGiven {
                section,
                round,
                team,
                boards,
                by,
            } => {
                let seats: Vec<String> = boards
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let who = p
                            .map(|p| self.player(p))
                            .unwrap_or_else(|| self.t("(空台)", "(empty)"));
                        if zh {
                            format!("第{}台 {who}", i + 1)
                        } else {
                            format!("board {} {who}", i + 1)
                        }
                    })
                    .collect();
                let by = by.trim();
                let by = if by.is_empty() {
                    // Recorded with the pairing: the registered order.
                    self.t(" (按报名台次)", " (registered order)")
                } else if zh {
                    format!(" (由 {by} 提交)")
                } else {
                    format!(" (handed in by {by})")
                };
                if zh {
                    format!(
                        "{team} {} 出场名单: {}{by}",
                        self.round(section, *round),
                        seats.join("、")
                    )
                } else {
                    format!(
                        "line-up of {team} for {}: {}{by}",
                        self.round(section, *round),
                        seats.join(", ")
                    )
                }
            }
            LogEntry::MatchConfirmed {
                section,
                round,
                team,
                by,
            } => {
                let by = by.trim();
                match (zh, by.is_empty()) {
                    (true, true) => {
                        format!("队长确认: {team} {} 本场成绩", self.round(section, *round))
                    }
                    (true, false) => format!(
                        "队长确认: {team} {} 本场成绩 (队长 {by})",
                        self.round(section, *round)
                    ),
                    (false, true) => format!(
                        "the captain of {team} confirmed its match of {}",
                        self.round(section, *round)
                    ),
                    (false, false) => format!(
                        "the captain of {team} ({by}) confirmed its match of {}",
                        self.round(section, *round)
                    ),
                }
            }
            _ => String::new(),
        }
    }
}
