//! The marks of a crosstable (交叉表), shared by the public page and the printed one: a
//! game's points in the regulation's scoring (2 / 1 / 0 where a win scores 2), and the line
//! above the table that explains them. The total of a row counts the rounds the standings
//! count (rounds completed, `SectionRecord::standing_rounds`); a result of a round still
//! being played is shown in brackets, not yet counted.

use arbiter_types::{Score, ScoringTable};

/// Points as a crosstable shows them: `2`, `1`, `0`, `½`, `1½`.
pub fn points_text(s: Score) -> String {
    let t = s.to_string();
    match t.strip_suffix(".5") {
        Some("0") => "½".to_string(),
        Some("-0") => "-½".to_string(),
        Some(whole) => format!("{whole}½"),
        None => t,
    }
}

/// The legend of a crosstable in the regulation's points: 「格式: 对手编号 + 执红/黑 + 本局得分
/// (胜 2 分, 和 1 分, 负 0 分; 对手弃权 2+, 弃权 0−, 轮空 2 分); 括号内为本轮尚未结束、未计入积分的成绩」.
pub fn legend(t: &ScoringTable, zh: bool) -> String {
    let p = |s: Score| points_text(s);
    let draw = if t.draw_red == t.draw_black {
        if zh {
            format!("和 {} 分", p(t.draw_red))
        } else {
            format!("draw {}", p(t.draw_red))
        }
    } else if zh {
        format!("执红和 {} 分, 执黑和 {} 分", p(t.draw_red), p(t.draw_black))
    } else {
        format!(
            "draw {} with red, {} with black",
            p(t.draw_red),
            p(t.draw_black)
        )
    };
    if zh {
        format!(
            "格式: 对手编号 + 执红/黑 + 本局得分 (胜 {} 分, {draw}, 负 {} 分; 对手弃权 {}+, 弃权 {}−, 双方弃权 {}−−, 轮空 {} 分, — 未赛, … 进行中); 括号内为本轮尚未结束、未计入积分的成绩",
            p(t.win),
            p(t.loss),
            p(t.forfeit_win),
            p(t.forfeit_loss),
            p(t.double_forfeit),
            p(t.bye)
        )
    } else {
        format!(
            "Cell: opponent number, r(ed)/b(lack), points scored (win {}, {draw}, loss {}; won by forfeit {}+, lost by forfeit {}−, double forfeit {}−−, bye {}, — not paired, … in play); in brackets: a round still being played, not yet counted",
            p(t.win),
            p(t.loss),
            p(t.forfeit_win),
            p(t.forfeit_loss),
            p(t.double_forfeit),
            p(t.bye)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_shown_in_the_regulations_scoring() {
        assert_eq!(points_text(Score::from_halves(4)), "2");
        assert_eq!(points_text(Score::from_halves(1)), "½");
        assert_eq!(points_text(Score::from_halves(3)), "1½");
        assert_eq!(points_text(Score::ZERO), "0");
        let t = ScoringTable {
            win: Score::from_halves(4),
            draw_red: Score::from_halves(2),
            draw_black: Score::from_halves(2),
            loss: Score::ZERO,
            bye: Score::from_halves(4),
            forfeit_win: Score::from_halves(4),
            forfeit_loss: Score::ZERO,
            double_forfeit: Score::ZERO,
        };
        let l = legend(&t, true);
        assert!(l.contains("胜 2 分, 和 1 分, 负 0 分"), "{l}");
        assert!(legend(&t, false).contains("win 2, draw 1, loss 0"));
    }
}
