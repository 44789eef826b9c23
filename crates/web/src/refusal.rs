//! The desk's wording of the director's refusals: the director's own words (Chinese first),
//! then, where a field or a page of the desk fixes it, that field or page. No CLI flag.

use arbiter_director::{DirectorError, Refusal};

/// `e` as the desk shows it.
pub fn words(e: &DirectorError) -> String {
    e.worded(hint(e))
}

/// What the desk can add: the field or page that fixes the refusal.
fn hint(e: &DirectorError) -> Option<&'static str> {
    let r = match e {
        DirectorError::ReasonMissing(_) => return Some(REASON),
        DirectorError::Refused(r) => &**r,
        _ => return None,
    };
    Some(match r {
        Refusal::ReasonMissing(_) => REASON,
        Refusal::AtLine { refusal, .. } => return hint(refusal),
        Refusal::NoResultToCorrect { .. } => {
            "未录入的成绩请在「录入成绩」页录入 (enter a missing result on the Results page)"
        }
        Refusal::ResultExists { .. } => {
            "成绩表已显示现有成绩; 再输入台号并按新成绩键即改正 \
             (the grid now shows the stored result: type the board again and the new result key)"
        }
        Refusal::ConfirmedResult { chief: true, .. } => {
            "请用本页下方的「更正成绩」表, 填写理由 (use the Correct a result form below, with a reason)"
        }
        Refusal::ConfirmedResult { chief: false, .. } | Refusal::ReentryTooLate { .. } => {
            "请裁判长在本页的「更正成绩」表中更正 (the chief arbiter uses the Correct a result form on this page)"
        }
        Refusal::PledgeRequired { .. } => {
            "签署后勾选「已签承诺书」再按签到 (once signed, tick the pledge box and check in)"
        }
        Refusal::SpecialAward(arbiter_director::refusal::AwardProblem::UnknownRecipient {
            ..
        }) => {
            "请在「获奖者」栏填写参赛单位、队伍名或棋手姓名 (报名号如 P12), 每行一个 \
             (type a unit, a team or a player's name, one a line)"
        }
        Refusal::NotPublished { .. } => {
            "请先在「编排」页按「公布对阵表」 (press Publish the pairing on the Pairing page first)"
        }
        _ => return None,
    })
}

const REASON: &str = "请在「理由」栏填写 (fill in the Reason field)";
