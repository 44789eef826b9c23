//! The sentences of the game-record entries (记谱): a record kept, a record removed.

use super::LogReader;
use arbiter_core::LogEntry;

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the records family.
    pub(super) fn what_records(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
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
            _ => unreachable!("not a records entry"),
        }
    }
}
