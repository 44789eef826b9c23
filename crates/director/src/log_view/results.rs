//! The sentences of the result entries (成绩): results entered, confirmed and corrected,
//! fouls, colours, decisions on flags and protests, a round completed.

use super::LogReader;
use arbiter_core::{LogEntry, Offender};
use arbiter_types::Colour;

impl LogReader<'_> {
    /// [`LogReader::what`] of an entry of the results family.
    pub(super) fn what_results(&self, e: &LogEntry) -> String {
        let zh = self.zh();
        match e {
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
            LogEntry::ResultClaimed {
                section,
                round,
                board,
                side,
                result,
            } => {
                let at = self.board(section, *round, *board);
                let who = self
                    .known_board(section, *round, *board)
                    .map(|b| match side {
                        Colour::Red => self.player(b.red),
                        Colour::Black => self.player(b.black),
                    })
                    .unwrap_or_default();
                let game = self.result(*result);
                if zh {
                    let side = match side {
                        Colour::Red => "红方",
                        Colour::Black => "黑方",
                    };
                    format!("{at} {side}{who} 在手机上确认成绩: {game}")
                } else {
                    let side = match side {
                        Colour::Red => "red",
                        Colour::Black => "black",
                    };
                    format!("{at}: {side} {who} claimed the result on the phone: {game}")
                }
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
                let verdict = if zh {
                    if *upheld {
                        "申诉成立"
                    } else {
                        "申诉不成立"
                    }
                } else if *upheld {
                    "upheld"
                } else {
                    "rejected"
                };
                // No deposit (the regulation sets none): nothing said of one.
                if *deposit_fen == 0 {
                    return if zh {
                        format!("仲裁 {by} 对 {at} 的申诉: {verdict}{}", self.reason(reason))
                    } else {
                        format!(
                            "decided the protest of {by} on {at}: {verdict}{}",
                            self.reason(reason)
                        )
                    };
                }
                if zh {
                    format!(
                        "仲裁 {by} 对 {at} 的申诉 (申诉费 {yuan}): {verdict}, 申诉费{}{}",
                        if *deposit_returned {
                            "退还"
                        } else {
                            "不退还"
                        },
                        self.reason(reason)
                    )
                } else {
                    format!(
                        "decided the protest of {by} on {at} (deposit {}.{:02} yuan): {verdict}, deposit {}{}",
                        deposit_fen / 100,
                        deposit_fen % 100,
                        if *deposit_returned { "returned" } else { "kept" },
                        self.reason(reason)
                    )
                }
            }
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
            _ => unreachable!("not a results entry"),
        }
    }
}
