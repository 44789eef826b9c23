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
        Refusal::NotPublished { .. } => {
            "请先在「编排」页按「公布对阵表」 (press Publish the pairing on the Pairing page first)"
        }
        _ => return None,
    })
}

const REASON: &str = "请在「理由」栏填写 (fill in the Reason field)";
