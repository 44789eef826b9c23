//! The CLI's wording of the director's refusals: the director's own words (Chinese first),
//! then, where a flag or a command of the CLI fixes it, that flag or command.

use arbiter_core::Rejection;
use arbiter_director::{DirectorError, Refusal};

/// `e` as the CLI prints it.
pub(crate) fn words(e: &DirectorError) -> String {
    e.worded(hint(e))
}

/// What the CLI can add: the flag or command that fixes the refusal.
fn hint(e: &DirectorError) -> Option<&'static str> {
    let r = match e {
        DirectorError::ReasonMissing(_) => return Some(REASON),
        DirectorError::NotAllowed { .. } => {
            return Some(
                "--as 指定的账户没有此权限; 不加 --as 时以本地数据库的裁判长身份操作 \
                 (the --as account lacks the role; without --as the command acts as the chief arbiter)",
            )
        }
        DirectorError::Refused(r) => &**r,
        _ => return None,
    };
    Some(match r {
        Refusal::ReasonMissing(_) => REASON,
        Refusal::AtLine { refusal, .. } => return hint(refusal),
        Refusal::BoardAmbiguous { .. } => "请用 --round 指明轮次 (give the round with --round)",
        Refusal::SignedResultFinal { .. } => {
            "确需更正请加 --override-signed 并写明理由 (to correct it anyway: --override-signed with the reason)"
        }
        Refusal::NoResultToCorrect { .. } => {
            "未录入的成绩请用 「arbiter result」 录入 (enter a missing result with 「arbiter result」)"
        }
        Refusal::ResultExists { .. } => {
            "重新录入请加 --replaces 现有成绩 (re-enter with --replaces and the stored result)"
        }
        Refusal::ConfirmedResult { chief: true, .. } => {
            "更正: 「arbiter result correct --reason 理由」 (correct it with 「arbiter result correct」)"
        }
        Refusal::ConfirmedResult { chief: false, .. } | Refusal::ReentryTooLate { .. } => {
            "裁判长用 「arbiter result correct --reason 理由」 更正 (the chief arbiter: 「arbiter result correct」)"
        }
        Refusal::NoFeeSet => "请用 --amount 指定金额 (give the amount with --amount)",
        Refusal::DivisionRequired { .. } => {
            "请用 --division 指定团体组别 (name the division with --division)"
        }
        Refusal::PledgeRequired { .. } => {
            "签署后加 --pledge 报到 (once signed, check in with --pledge)"
        }
        Refusal::RoundRobinFixed { .. } => "请去掉 --fix 与 --swap (leave out --fix and --swap)",
        Refusal::RoundUnfinished { .. } | Refusal::KnockoutDue { .. } => {
            "待录入的对局见 「arbiter round show」 (the games due: 「arbiter round show」)"
        }
        Refusal::Rule(Rejection::EventClosed) => {
            "重新开启: 「arbiter event reopen --reason 理由」 (reopen with 「arbiter event reopen」)"
        }
        _ => return None,
    })
}

const REASON: &str = "请用 --reason 说明理由 (give it with --reason)";
