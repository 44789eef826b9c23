//! The refusals of results (成绩) and standings in words: boards, results, fouls, results
//! files, game records, organisers' awards, categories.

use super::{side_zh, Refusal};
use crate::api::rounds::notation;
use std::fmt;

impl Refusal {
    /// The `Display` of a refusal of the results family.
    pub(super) fn fmt_results(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            TooManyFouls { colour, fouls, max } => write!(
                f,
                "{}犯规 {fouls} 次超过每局上限 {max} 次 (more fouls than a game can have)",
                side_zh(*colour)
            ),
            BoardAmbiguous {
                section,
                board,
                swiss_round,
                knockout_match,
            } => write!(
                f,
                "{section} 第{board}台不唯一: 既是瑞士制第{swiss_round}轮的第{board}台, 也是淘汰赛 {knockout_match} 的台次; \
                 请指明轮次 (board {board} names both a game of Swiss round {swiss_round} and knockout match {knockout_match}: give the round)"
            ),
            NoKnockoutGame {
                section,
                board,
                due,
            } => write!(
                f,
                "{section} 淘汰赛第{board}台现在没有待下的对局; 待录入的是第 {} 台 \
                 (no knockout game is due on board {board})",
                due.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            KnockoutGameEntered {
                match_id,
                game,
                stored,
                now_due,
            } => {
                let stored = stored.map_or("?".to_string(), |r| {
                    format!("{} ({})", notation(r), r.zh())
                });
                match now_due {
                    None => write!(
                        f,
                        "冲突: 淘汰赛 {match_id} 第{}局已由他人录入: {stored} (conflict: this knockout game is already entered)",
                        game + 1
                    ),
                    Some((m, g)) => write!(
                        f,
                        "冲突: 淘汰赛 {match_id} 第{}局已由他人录入: {stored}; 现在该台待下的是 {m} 第{}局 \
                         (conflict: that game is already entered)",
                        game + 1,
                        g + 1
                    ),
                }
            }
            NoSuchBoard {
                section,
                round,
                board,
                boards,
            } => match boards {
                Some(n) => write!(
                    f,
                    "{section} 第{round}轮没有第{board}台: 本轮共 {n} 台 (no such board)"
                ),
                None => write!(f, "{section} 第{round}轮没有第{board}台 (no such board)"),
            },
            ResultExists {
                section,
                round,
                board,
                stored,
            } => write!(
                f,
                "冲突: {section} 第{round}轮第{board}台已有成绩 {} ({}), 尚未签字确认; \
                 要改正, 请看清现有成绩后重新录入该台 \
                 (conflict: this board already has a result; re-enter it to replace that result)",
                notation(*stored),
                stored.zh(),
            ),
            ConfirmedResult {
                section,
                round,
                board,
                stored,
                chief,
            } => write!(
                f,
                "{section} 第{round}轮第{board}台的成绩 {} ({}) 已签字确认, 不能重新录入; {} \
                 ({})",
                notation(*stored),
                stored.zh(),
                if *chief {
                    "确认后的成绩只能更正, 并须说明理由"
                } else {
                    "确认后的成绩只能由裁判长更正, 并须说明理由"
                },
                if *chief {
                    "the slip is signed: correct it, with a reason"
                } else {
                    "the slip is signed: only the chief arbiter corrects it, with a reason"
                },
            ),
            ReentryTooLate {
                section,
                round,
                board,
                next_round,
            } => match next_round {
                Some(n) => write!(
                    f,
                    "{section} 第{n}轮已按第{round}轮的成绩编排, 第{round}轮第{board}台不能再重新录入; \
                     请裁判长更正成绩并说明理由 \
                     (round {n} is paired from these results: the chief arbiter corrects it, with a reason)"
                ),
                None => write!(
                    f,
                    "{section} 第{round}轮已结束, 第{board}台涉及弃权的成绩不能再重新录入 \
                     (弃权可能已使棋手按规定退赛); 请裁判长更正成绩并说明理由 \
                     (the round is finished and a forfeit is involved: the chief arbiter corrects it, with a reason)"
                ),
            },
            RoundFinished { section, round } => write!(
                f,
                "{section} 第{round}轮已经结束 (round {round} is finished)"
            ),
            NotPublished { section, round } => write!(
                f,
                "{section} 第{round}轮对阵表尚未公布, 请先公布对阵表 (publish the pairing before entering results)"
            ),
            FoulRuleDecides {
                round,
                board,
                rule,
                due,
                given,
            } => write!(
                f,
                "第{round}轮第{board}台: {rule}, 成绩应为 {} 而不是 {} (the foul rule decides this game)",
                notation(*due),
                notation(*given)
            ),
            NothingToConfirm { section, round } => write!(
                f,
                "{section} 第{round}轮没有待确认的成绩 (nothing to confirm: every result is confirmed or not yet entered)"
            ),
            SignedResultFinal {
                section,
                round,
                board,
                signed_by,
            } => write!(
                f,
                "{section} 第{round}轮第{board}台的成绩已经签名确认{}，本规程规定「经签名确认比赛结果，不予更改」；确属录入与签名单不符等须更正的，须明示推翻签名，并记入日志、印在成绩单上 (the result is signed and the regulation makes a signed result final; a correction must say it overrides the signatures)",
                if signed_by.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", signed_by.join("、"))
                }
            ),
            NoResultToCorrect {
                section,
                round,
                board,
            } => write!(
                f,
                "{section} 第{round}轮第{board}台尚无成绩, 请先录入成绩 (no result to correct: enter it first)"
            ),
            SameResult {
                section,
                round,
                board,
                result,
            } => write!(
                f,
                "{section} 第{round}轮第{board}台的成绩已是 {} (the result is already {})",
                notation(*result),
                notation(*result)
            ),
            ResultsLine {
                file,
                line,
                problem,
            } => write!(f, "{file}:{line}: 第{line}行: {problem}"),
            ResultsFileEmpty { file } => {
                write!(f, "{file}: 文件中没有成绩行 (no result lines in the file)")
            }
            AtLine { line, refusal } => write!(f, "第{line}行 (line {line}): {refusal}"),
            GameRule {
                section,
                round,
                board,
                problem,
            } => write!(f, "{section} 第{round}轮第{board}台: {problem}"),
            RecordMove {
                section,
                round,
                board,
                number,
                side,
                text,
                kind,
            } => write!(
                f,
                "{section} 第{round}轮第{board}台的棋谱: 第{number}回合{}方「{text}」是{}, 棋谱未录入 \
                 (round {round} board {board}: move {number}, {}, 「{text}」: {}; the record is not kept)",
                side.zh(),
                kind.zh(),
                if *side == arbiter_types::Colour::Red { "red" } else { "black" },
                kind.en()
            ),
            SharedPlaceAwards {
                section,
                category,
                place,
                players,
                qualification,
            } => write!(
                f,
                "{section}{} 并列第{place}名共 {players} 人, 但{}不同, 不能按名单先后默认区分: 请在规程的淘汰赛设置中写明并列名次如何区分 (按种子或抽签) (players share place {place} but their {} differ: the regulation must say how to separate them, by seed or by lot)",
                category.as_deref().map_or(String::new(), |c| format!(" {c}")),
                if *qualification { "参赛资格" } else { "奖励" },
                if *qualification { "qualification" } else { "prizes" }
            ),
            NoTeamFouls { section } => write!(
                f,
                "{section}的规程不记录团体犯规 (the regulation records no team fouls in this section)"
            ),
            TeamNotInSection { team, section } => write!(
                f,
                "队伍 {team} 不在{section}比赛 (the team does not play in this section)"
            ),
            SpecialAward(p) => write!(f, "{p}"),
            UnknownCategory {
                section,
                category,
                known,
                closest,
            } => {
                write!(
                    f,
                    "{section} 没有类别「{category}」(unknown category; the section has: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )?;
                if let Some(s) = closest {
                    write!(f, " (did you mean {s}?)")?;
                }
                Ok(())
            }
            _ => unreachable!("not a refusal of the results family"),
        }
    }
}
