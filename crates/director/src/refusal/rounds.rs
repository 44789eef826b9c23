//! The refusals of the rounds (编排) in words: pairing, publishing, undoing a round.

use super::{boards_list, Refusal};
use std::fmt;

impl Refusal {
    /// The `Display` of a refusal of the rounds family.
    pub(super) fn fmt_rounds(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            RoundUnfinished {
                section,
                round,
                boards,
            } => write!(
                f,
                "{section} 第{round}轮已编排但尚未结束: 还有 {} 台没有成绩 (第 {} 台); 未作任何改动 \
                 (round {round} is paired but not finished; nothing changed)",
                boards.len(),
                boards_list(boards)
            ),
            KnockoutDue { section, games } => write!(
                f,
                "{section} 现在应进行淘汰赛: {games} 场对局待录入, 请先录入这些对局的成绩; 未作任何改动 \
                 (knockout games are due now: enter their results first; nothing changed)"
            ),
            AllRoundsPlayed { section } => write!(
                f,
                "{section} 全部轮次已经赛完, 没有下一轮 (every round is played)"
            ),
            RoundRobinFixed { section } => write!(
                f,
                "{section} 是循环赛 (Berger 表), 不能指定或调换对手 \
                 (a round robin follows its table: no fixed pairs or swaps)"
            ),
            TooFewTeams { section, teams } => write!(
                f,
                "{section} 只有 {teams} 支队伍, 团体赛至少需要 2 支 (a team match needs two teams)"
            ),
            NotTeamSection { section } => write!(
                f,
                "{section} 不是团体赛组别, 没有出场名单 (not a team-match section)"
            ),
            NoMatches { section, round } => write!(
                f,
                "{section} 第{round}轮尚未排出团体对阵, 请先编排 (the round's matches are not paired yet)"
            ),
            TeamManual { section } => write!(
                f,
                "{section} 是团体循环赛, 对阵按轮次表产生, 不能指定或调换对手 \
                 (a team round robin follows its table: no fixed matches or swaps)"
            ),
            TeamNotPlaying { team, round } => write!(
                f,
                "{team} 第{round}轮没有对阵 (轮空或未编排) (the team plays no match that round)"
            ),
            TeamHadBye { team, round } => write!(
                f,
                "{team} 第{round}轮轮空, 没有需要队长确认的对阵 (the team had the bye: no match to confirm)"
            ),
            MatchUnfinished {
                team,
                round,
                match_no,
                board,
                round_board,
            } => write!(
                f,
                "{team} 第{round}轮第{match_no}场第{board}台 (本轮第{round_board}台) 尚无成绩, \
                 全场各台成绩录入后队长方可确认 (a board of the match has no result yet)"
            ),
            LineupLate {
                team,
                round,
                deadline,
            } => write!(
                f,
                "{team} 第{round}轮出场名单已于 {deadline} 截止, 按已记录的出场名单 (报名顺序) 比赛; \
                 截止后只有裁判长可以录入 (the line-up was due by {deadline}: after it only the chief \
                 arbiter takes one)"
            ),
            MatchConfirmedAlready {
                team,
                round,
                match_no,
                by,
            } => {
                let by = by.trim();
                if by.is_empty() {
                    write!(
                        f,
                        "{team} 第{round}轮第{match_no}场已由队长确认, 不能重复确认 \
                         (the captain has confirmed the match already)"
                    )
                } else {
                    write!(
                        f,
                        "{team} 第{round}轮第{match_no}场已由队长 {by} 确认, 不能重复确认 \
                         (confirmed already by the captain {by})"
                    )
                }
            }
            Lineup { team, why } => write!(f, "{team} 的出场名单不能接受: {why}"),
            Manual(e) => write!(f, "{e}"),
            LastRoundFinished { section, round } => write!(
                f,
                "{section} 第{round}轮已经结束, 没有待公布或待撤销的编排 (the last round is finished)"
            ),
            NoRoundPaired { section } => {
                write!(f, "{section} 尚未编排任何一轮 (no round is paired yet)")
            }
            AlreadyPublished { section, round } => write!(
                f,
                "{section} 第{round}轮已经公布 (round {round} is already published)"
            ),
            SwapPublished { section, round } => write!(
                f,
                "{section} 第{round}轮已经公布, 不能在对阵表上调换; 如确需改动, 请先撤销本轮编排并说明原因 \
                 (round {round} is published: undo it, with the reason, before changing it)"
            ),
            SwapInTeam { section } => write!(
                f,
                "{section} 是团体赛, 对局由对阵与出场名单决定, 不能在对阵表上调换棋手 \
                 (a team section: its games follow the matches and line-ups)"
            ),
            UndoWithResults {
                section,
                round,
                board,
            } => write!(
                f,
                "{section} 第{round}轮第{board}台已有成绩或犯规记录, 不能撤销本轮编排; 成绩有误请由裁判长更正成绩 \
                 (a game of the round has a result: the pairing cannot be undone; the chief arbiter corrects a wrong result)"
            ),
            RoundNotPaired {
                section,
                round,
                paired,
            } => {
                write!(
                    f,
                    "{section} 第{round}轮尚未编排 (round {round} is not paired)"
                )?;
                if let Some(n) = paired {
                    write!(f, "; 已编排 {n} 轮")?;
                }
                Ok(())
            }
            _ => unreachable!("not a refusal of the rounds family"),
        }
    }
}
