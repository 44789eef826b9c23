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
            _ => unreachable!("not a knockout entry"),
        }
    }
}
