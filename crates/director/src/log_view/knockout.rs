//! The sentences of the knockout entries (淘汰赛): a knockout game entered.

use super::{match_label, LogReader};
use arbiter_core::LogEntry;

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the knockout family.
    pub(super) fn what_knockout(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
            LogEntry::KnockoutGameRecorded {
                section,
                match_id,
                game,
                kind,
                red,
                black,
                result,
                fouls,
            } => {
                let label = match_label(match_id, self.lang);
                let g = self.game(*red, *black, *result);
                let kind = self.game_kind(*kind);
                // The game's fouls, each by the colour that committed it.
                let fouls: String = fouls
                    .iter()
                    .map(|f| match (zh, f.colour) {
                        (true, c) => format!("; {}方犯规: {}", c.zh(), f.reason),
                        (false, arbiter_types::Colour::Red) => format!("; red foul: {}", f.reason),
                        (false, arbiter_types::Colour::Black) => {
                            format!("; black foul: {}", f.reason)
                        }
                    })
                    .collect();
                if zh {
                    format!(
                        "录入 {}淘汰赛 {label} 第{}局 ({kind}): {g}{fouls}",
                        self.in_section(section),
                        game + 1
                    )
                } else {
                    format!(
                        "entered {}knockout {label} game {} ({kind}): {g}{fouls}",
                        self.in_section(section),
                        game + 1
                    )
                }
            }
            LogEntry::KnockoutResultClaimed {
                section,
                match_id,
                game,
                side,
                result,
            } => {
                let label = match_label(match_id, self.lang);
                let res = self.result(*result);
                if zh {
                    format!(
                        "{}淘汰赛 {label} 第{}局 {}方在手机上确认成绩: {res}",
                        self.in_section(section),
                        game + 1,
                        side.zh()
                    )
                } else {
                    let side = match side {
                        arbiter_types::Colour::Red => "red",
                        arbiter_types::Colour::Black => "black",
                    };
                    format!(
                        "{}knockout {label} game {}: {side} claimed the result on the phone: {res}",
                        self.in_section(section),
                        game + 1
                    )
                }
            }
            LogEntry::KnockoutSeeded { section, seeds } => {
                // 「1号种子 序号 45 张三」: each seed by his number and name; a groups section's
                // final (a knockout or a round robin) 「第1位 序号 45 张三」, by group place.
                let grouped = self.grouped.contains(section);
                let named: Vec<String> = seeds
                    .iter()
                    .enumerate()
                    .map(|(i, no)| {
                        let who = self
                            .numbers
                            .iter()
                            .find(|(p, n)| {
                                **n == no.get()
                                    && self.players.get(p).is_some_and(|k| k.section == *section)
                            })
                            .map(|(p, _)| self.player(*p));
                        match (zh, who) {
                            (true, Some(w)) if grouped => format!("第{}位 序号 {no} {w}", i + 1),
                            (true, None) if grouped => format!("第{}位 序号 {no}", i + 1),
                            (false, Some(w)) if grouped => format!("{}. no. {no} {w}", i + 1),
                            (false, None) if grouped => format!("{}. no. {no}", i + 1),
                            (true, Some(w)) => format!("{}号种子 序号 {no} {w}", i + 1),
                            (true, None) => format!("{}号种子 序号 {no}", i + 1),
                            (false, Some(w)) => format!("seed {} no. {no} {w}", i + 1),
                            (false, None) => format!("seed {} no. {no}", i + 1),
                        }
                    })
                    .collect();
                if grouped && zh {
                    format!(
                        "确定 {}决赛名单 (小组名次): {}",
                        self.in_section(section),
                        named.join("、")
                    )
                } else if grouped {
                    format!(
                        "fixed {}final's field (group places): {}",
                        self.in_section(section),
                        named.join(", ")
                    )
                } else if zh {
                    format!(
                        "确定 {}淘汰赛种子 (第一阶段名次): {}",
                        self.in_section(section),
                        named.join("、")
                    )
                } else {
                    format!(
                        "fixed {}knockout seeds (stage 1 standings): {}",
                        self.in_section(section),
                        named.join(", ")
                    )
                }
            }
            _ => unreachable!("not a knockout entry"),
        }
    }
}
