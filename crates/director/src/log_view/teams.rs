//! The sentences of the team entries (队伍): a team entered, its roster changed.

use super::LogReader;
use arbiter_core::LogEntry;

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the teams family.
    pub(super) fn what_teams(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
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
            _ => unreachable!("not a teams entry"),
        }
    }
}
