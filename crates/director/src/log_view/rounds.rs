//! The sentences of the round entries (编排): pairing numbers drawn, a round paired,
//! published or undone, a player absent.

use super::LogReader;
use arbiter_core::LogEntry;

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the rounds family.
    pub(super) fn what_rounds(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
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
            LogEntry::GroupsDrawn {
                section,
                groups,
                seed,
            } => {
                let sec = self.section(section);
                let sizes: Vec<String> = groups
                    .iter()
                    .enumerate()
                    .map(|(i, g)| {
                        // Letters up to 26 groups unless the regulation names them by
                        // number; more are always named by number (1组4人 …).
                        let numbered = groups.len() > 26 || self.numbered_groups.contains(section);
                        if numbered && zh {
                            format!("{}组{}人", i + 1, g.len())
                        } else if numbered {
                            format!("{}:{}", i + 1, g.len())
                        } else {
                            format!("{}{}", crate::groups::letter(i), g.len())
                        }
                    })
                    .collect();
                let sizes = sizes.join(" ");
                match (seed, zh) {
                    (Some(s), true) => format!("抽签分组: {sec} {sizes} (种子 {s})"),
                    (None, true) => format!("蛇形分组: {sec} {sizes}"),
                    (Some(s), false) => {
                        format!("drew the groups of {sec} by lot: {sizes} (seed {s})")
                    }
                    (None, false) => format!("split {sec} into groups (snake): {sizes}"),
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
            _ => unreachable!("not a rounds entry"),
        }
    }
}
