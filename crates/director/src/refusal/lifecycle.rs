//! The refusals of the event's lifecycle and settings (赛事) in words: closing and reopening,
//! settings, charges and deposits, the online form's opening, the regulation.

use super::{yuan, Refusal, TimeControlProblem};
use std::fmt;

impl Refusal {
    /// The `Display` of a refusal of the lifecycle family.
    pub(super) fn fmt_lifecycle(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            AlreadyClosed => write!(f, "赛事已经闭幕 (the event is already closed)"),
            NothingPlayed => write!(
                f,
                "赛事尚未进行任何一轮比赛, 不能闭幕 (nothing has been played: the event cannot be closed)"
            ),
            SectionUnfinished { section, left } => write!(
                f,
                "{section} 尚未赛完: {left}; 不能闭幕 (a section is not finished: the event cannot be closed)"
            ),
            NotClosed => write!(f, "赛事尚未闭幕 (the event is not closed)"),
            StartAfterEnd { start, end } => write!(
                f,
                "开始日期 {start} 晚于结束日期 {end} (the start is after the end)"
            ),
            NoSwissRounds { section } => write!(
                f,
                "{section} 没有积分编排轮数, 不能设置轮数 (the section has no Swiss rounds to set)"
            ),
            NotPlacedDivision { division, placed } if placed.is_empty() => write!(
                f,
                "「{division}」: 本规程没有按上届成绩划入的组别, 无需填写上届单位 (the regulation places no division from last edition's results)"
            ),
            NotPlacedDivision { division, placed } => write!(
                f,
                "「{division}」不是按上届成绩划入单位的组别; 可填写的组别: {} (not a division placed from last edition's results)",
                placed.join("、")
            ),
            RoundsBelowPaired {
                section,
                paired,
                rounds,
            } => write!(
                f,
                "{section} 已编排到第 {paired} 轮, 轮数不能设为 {rounds} (fewer rounds than already paired)"
            ),
            BadTimeControl {
                section,
                text,
                problem,
            } => match problem {
                TimeControlProblem::Unreadable => write!(
                    f,
                    "{section}: 比赛用时「{text}」应写为 分钟+每步加秒, 如 60+30 \
                     (a time control is minutes+seconds a move, e.g. 60+30)"
                ),
                TimeControlProblem::OutOfRange => write!(
                    f,
                    "{section}: 比赛用时「{text}」不合理: 每方 1–600 分钟, 每步加 0–600 秒 \
                     (1–600 minutes, 0–600 seconds a move)"
                ),
            },
            NoSettingChanged => write!(f, "赛事设置没有任何更改 (no setting changed)"),
            DeadlineAfterEnd { deadline, end } => write!(
                f,
                "报名截止时间 {} 晚于比赛结束日期 {end} (the registration deadline is after the event)",
                deadline.format("%Y-%m-%d %H:%M")
            ),
            UnknownEvidence { given } => write!(
                f,
                "证明材料「{given}」不在规程的清单中, 请从清单中勾选 (not one of the regulation's documents)"
            ),
            UnknownFlag { given, known } if known.is_empty() => write!(
                f,
                "标记「{given}」不是本规程的条件, 本规程没有任何标记 \
                 (not a flag of the regulation, which names none)"
            ),
            UnknownFlag { given, known } => {
                let zh: Vec<String> = known.iter().map(|(k, z)| format!("「{k}」{z}")).collect();
                let en: Vec<&str> = known.iter().map(|(k, _)| k.as_str()).collect();
                write!(
                    f,
                    "标记「{given}」不是本规程的条件, 规程中的标记: {} \
                     (not a flag of the regulation; its flags: {})",
                    zh.join("、"),
                    en.join(", ")
                )
            }
            UnknownGrade { given, known } if known.is_empty() => write!(
                f,
                "本规程未设段位/称号表 ([grades]), 不能登记段位「{given}」 \
                 (the regulation keeps no grades)"
            ),
            UnknownGrade { given, known } => write!(
                f,
                "段位/称号「{given}」不在本规程的段位表中, 段位表 (由低到高): {} \
                 (not a grade of the regulation's scale)",
                known.join("、")
            ),
            UnknownCharge { given, known } => {
                let zh: Vec<String> = known.iter().map(|k| format!("「{k}」")).collect();
                write!(
                    f,
                    "收费项目「{given}」不是本规程对该棋手的收费项目, 规程的收费项目: {} \
                     (not a charge of the regulation for the player; its charges: {})",
                    if zh.is_empty() { "无".to_string() } else { zh.join("、") },
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                )
            }
            ItemPaid {
                player,
                item,
                paid_fen,
                due_fen,
            } => write!(
                f,
                "棋手 {player} 已缴「{item}」{} (「{item}」 of {} already paid)",
                yuan(*paid_fen),
                yuan(*due_fen)
            ),
            NotOwed { player, item } => write!(
                f,
                "按规程棋手 {player} 免缴「{item}」 (the regulation frees the player of 「{item}」)"
            ),
            RefundOfFee { item } => write!(
                f,
                "「{item}」是费用, 不退还; 收错的费用请撤销缴费 (a fee is not refunded: cancel a fee taken by mistake)"
            ),
            RefundMoreThanHeld {
                player,
                item,
                held_fen,
                amount_fen,
            } if *held_fen == 0 => write!(
                f,
                "棋手 {player} 没有可退还的「{item}」, 不能退还 {} (nothing of 「{item}」 is held for the player)",
                yuan(*amount_fen)
            ),
            RefundMoreThanHeld {
                player,
                item,
                held_fen,
                amount_fen,
            } => write!(
                f,
                "棋手 {player} 的「{item}」只有 {} 可退, 不能退还 {} (cannot refund more than is held)",
                yuan(*held_fen),
                yuan(*amount_fen)
            ),
            UnknownRefundCondition { given, known } => {
                let zh: Vec<String> = known.iter().map(|k| format!("「{k}」")).collect();
                write!(
                    f,
                    "退还条件「{given}」不是本规程的条件, 规程的退还条件: {} (not a refund condition of the regulation)",
                    if zh.is_empty() { "无".to_string() } else { zh.join("") }
                )
            }
            RefundNotYet { rule, section } => write!(
                f,
                "押金{}: {section} 尚未赛完最后一轮 (deposits {}: {section} has not played its last round)",
                rule.zh(),
                rule.en()
            ),
            NobodyToRefund { rule } => write!(
                f,
                "没有应按「{}」退还的押金: 无人持有押金, 或退还条件尚未确认 (no deposit is due back under the rule: none held, or conditions not marked)",
                rule.zh()
            ),
            EntryClosed(c) => write!(f, "{c}"),
            BadRegulation(e) => write!(f, "{e}"),
            _ => unreachable!("not a refusal of the lifecycle family"),
        }
    }
}
