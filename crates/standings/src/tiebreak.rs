//! The value of every tie-break (A6, §4.3, FIDE C.07) for a section seen after `r` rounds.
//!
//! Values are computed as raw integers (`i64`) so that ranking compares machine integers:
//! score-like values in half-points, counts and ratings as themselves, 小分 as a numerator
//! over `2 × win` half-points. [`Prepared::display`] turns a raw value into an exact
//! [`TbValue`].

use crate::input::{ByeOppValue, DirectMode, FideUnplayed, ForfeitOppValue, StandingsInput};
use crate::value::TbValue;
use arbiter_types::{Colour, Outcome, PlayerResult, Score, TiebreakName};

/// The section with opponents resolved to indices and points per round precomputed.
pub(crate) struct Prepared<'a> {
    pub input: &'a StandingsInput,
    pub n: usize,
    pub rounds: usize,
    /// `opp[p][k]`: index of the opponent of player `p` in round `k` (0-based), if any.
    pub opp: Vec<Vec<Option<usize>>>,
    /// `pts[p][k]`: points scored in round `k`, in half-points.
    pub pts: Vec<Vec<i64>>,
    /// `cum[p][k]`: running total after round `k` (0-based), in half-points.
    pub cum: Vec<Vec<i64>>,
}

/// Per-view data shared by several tie-breaks, memoised per player.
pub(crate) struct ViewData {
    pub r: usize,
    /// Scores after `r` rounds (half-points).
    pub s: Vec<i64>,
    lowest: i64,
    /// FIDE-adjusted scores (art. 16.3), `None` until needed.
    adj: Vec<Option<i64>>,
    /// Tournament performance ratings, outer `None` until computed.
    tpr: Vec<Option<Option<i64>>>,
}

impl Prepared<'_> {
    /// Total after the first `r` rounds, in half-points.
    pub fn score(&self, p: usize, r: usize) -> i64 {
        if r == 0 {
            0
        } else {
            self.cum[p][r - 1]
        }
    }

    pub fn view(&self, r: usize) -> ViewData {
        let s: Vec<i64> = (0..self.n).map(|p| self.score(p, r)).collect();
        let lowest = s.iter().copied().min().unwrap_or(0);
        ViewData {
            r,
            s,
            lowest,
            adj: vec![None; self.n],
            tpr: vec![None; self.n],
        }
    }

    fn outcome(&self, p: usize, k: usize) -> &Outcome {
        &self.input.outcomes[p][k]
    }

    /// The exact value of a raw tie-break value.
    pub fn display(&self, tb: TiebreakName, raw: i64) -> TbValue {
        use TiebreakName::*;
        match tb {
            OppScore | Progressive | Direct | Buchholz | BuchholzCut1 | BuchholzMedian1 => {
                TbValue::Score(Score::from_halves(raw))
            }
            Sb => TbValue::from_ratio(raw, 2 * self.input.scoring.win.halves().max(1)),
            Wins | Fouls | BlackGames | BlackWins | Aro | AroCut1 | Apro | Performance => {
                TbValue::Int(raw)
            }
        }
    }

    /// Raw value of a criterion for player `p` in view `v`. `Direct` depends on the tied
    /// group and is computed by [`Prepared::direct`]; here it is 0.
    pub fn value(&self, tb: TiebreakName, p: usize, v: &mut ViewData) -> i64 {
        use TiebreakName::*;
        let r = v.r;
        let opts = &self.input.options;
        match tb {
            OppScore => self.opp_score(p, v),
            Progressive => self.cum[p][..r].iter().sum(),
            Wins => self.count(p, r, |o| match o {
                Outcome::Game {
                    result: PlayerResult::Win,
                    ..
                } => true,
                Outcome::ForfeitWin { .. } => opts.wins_include_forfeit,
                Outcome::Bye | Outcome::FullBye => opts.wins_include_bye,
                _ => false,
            }),
            Fouls => i64::from(self.input.players[p].fouls),
            Direct => 0,
            BlackGames => self.count(p, r, |o| match o {
                Outcome::Game {
                    colour: Colour::Black,
                    ..
                } => true,
                Outcome::ForfeitWin {
                    colour: Colour::Black,
                    ..
                }
                | Outcome::ForfeitLoss {
                    colour: Colour::Black,
                    ..
                }
                | Outcome::DoubleForfeit {
                    colour: Colour::Black,
                    ..
                } => opts.black_count_forfeits,
                _ => false,
            }),
            BlackWins => self.count(p, r, |o| match o {
                Outcome::Game {
                    colour: Colour::Black,
                    result: PlayerResult::Win,
                    ..
                } => true,
                Outcome::ForfeitWin {
                    colour: Colour::Black,
                    ..
                } => opts.black_count_forfeits,
                _ => false,
            }),
            Sb => self.sonneborn_berger(p, v),
            Buchholz | BuchholzCut1 | BuchholzMedian1 => self.buchholz(tb, p, v),
            Aro | AroCut1 => self.aro(p, r, tb == AroCut1),
            Apro => self.apro(p, v),
            Performance => self.tpr_memo(p, v).unwrap_or(0),
        }
    }

    fn count(&self, p: usize, r: usize, f: impl Fn(&Outcome) -> bool) -> i64 {
        self.input.outcomes[p][..r].iter().filter(|o| f(o)).count() as i64
    }

    /// 对手分: opponents' scores; a bye is a virtual opponent with the lowest score (or 0,
    /// or the player's own score); a forfeit counts the real opponent by default.
    fn opp_score(&self, p: usize, v: &ViewData) -> i64 {
        let opts = &self.input.options;
        let bye = match opts.bye_opp_value {
            ByeOppValue::Lowest => v.lowest,
            ByeOppValue::Zero => 0,
            ByeOppValue::OwnScore => v.s[p],
        };
        let mut sum = 0;
        for k in 0..v.r {
            sum += match (self.outcome(p, k), self.opp[p][k]) {
                (Outcome::Game { .. }, Some(q)) => v.s[q],
                (_, Some(q)) => match opts.forfeit_opp_value {
                    ForfeitOppValue::Actual => v.s[q],
                    ForfeitOppValue::Lowest => v.lowest,
                    ForfeitOppValue::Zero => 0,
                },
                (Outcome::Bye | Outcome::FullBye, None) => bye,
                _ => 0,
            };
        }
        sum
    }

    /// 小分 (2011 14.1, rules.md §4.3): Σ score of each beaten opponent + ½ · Σ score of each
    /// drawn opponent. A draw counts ½ whatever its colour, also under a colour-dependent table
    /// (5-2-3-0), so 小分 stays a multiple of ½ point whenever scores are whole points.
    /// Forfeit wins count as wins against the real opponent. Raw: numerator over 2 × win.
    fn sonneborn_berger(&self, p: usize, v: &ViewData) -> i64 {
        let win = self.input.scoring.win.halves();
        let mut num = 0;
        for k in 0..v.r {
            let share = match self.outcome(p, k) {
                Outcome::Game {
                    result: PlayerResult::Win,
                    ..
                }
                | Outcome::ForfeitWin { .. } => win,
                Outcome::Game {
                    result: PlayerResult::Draw,
                    ..
                } => win / 2,
                _ => 0,
            };
            if let (Some(q), true) = (self.opp[p][k], share != 0) {
                num += v.s[q] * share;
            }
        }
        num
    }

    /// FIDE C.07 art. 16.3: the participant's score as seen by the opponents' tie-breaks.
    fn adjusted(&self, q: usize, v: &mut ViewData) -> i64 {
        if let Some(a) = v.adj[q] {
            return a;
        }
        let draw = self.input.scoring.half_bye().halves();
        let mut sum = 0;
        let mut only_vur_after = true;
        for k in (0..v.r).rev() {
            let o = self.outcome(q, k);
            let requested = matches!(o, Outcome::HalfBye | Outcome::Absent);
            sum += if requested && only_vur_after {
                draw
            } else {
                self.pts[q][k]
            };
            only_vur_after &= is_vur(o);
        }
        v.adj[q] = Some(sum);
        sum
    }

    fn buchholz(&self, tb: TiebreakName, p: usize, v: &mut ViewData) -> i64 {
        let opts = &self.input.options;
        let mode = opts
            .fide_unplayed_for
            .get(&tb)
            .copied()
            .unwrap_or(opts.fide_unplayed);
        let r = v.r;
        let draw_cap = self.input.scoring.half_bye().halves() * r as i64;
        let own = v.s[p];
        let (mut total, mut count) = (0i64, 0usize);
        let (mut min_any, mut min_vur) = (i64::MAX, i64::MAX);
        let (mut max1, mut max1_count, mut max2) = (i64::MIN, 0usize, i64::MIN);
        for k in 0..r {
            let o = *self.outcome(p, k);
            let q = self.opp[p][k];
            let opp_score = |this: &Self, v: &mut ViewData, q: usize| match mode {
                FideUnplayed::Plain => v.s[q],
                _ => this.adjusted(q, v),
            };
            let c = match (mode, o, q) {
                (_, Outcome::Game { .. }, Some(q)) => opp_score(self, v, q),
                (FideUnplayed::Plain, _, Some(q)) => v.s[q],
                (FideUnplayed::Plain, _, None) => continue,
                (FideUnplayed::Fide2023, _, _) => own,
                (FideUnplayed::Fide2026, _, Some(q)) => own.min(opp_score(self, v, q)),
                (FideUnplayed::Fide2026, _, None) => own.min(draw_cap),
            };
            total += c;
            count += 1;
            min_any = min_any.min(c);
            if mode != FideUnplayed::Plain && is_vur(&o) {
                min_vur = min_vur.min(c);
            }
            if c > max1 {
                max2 = max1;
                max1 = c;
                max1_count = 1;
            } else if c == max1 {
                max1_count += 1;
            } else if c > max2 {
                max2 = c;
            }
        }
        if tb == TiebreakName::Buchholz || count == 0 {
            return total;
        }
        // 16.5: cut the lowest contribution of a voluntary unplayed round if there is one,
        // else the lowest contribution.
        let low = if min_vur != i64::MAX {
            min_vur
        } else {
            min_any
        };
        if tb == TiebreakName::BuchholzCut1 || count == 1 {
            return total - low;
        }
        let high = if low == max1 && max1_count == 1 {
            max2
        } else {
            max1
        };
        total - low - high
    }

    fn rating(&self, q: usize) -> Option<i64> {
        let r = self.input.players[q]
            .rating
            .filter(|&r| r > 0)
            .map(i64::from);
        match self.input.options.rating_floor {
            Some(f) => Some(r.unwrap_or(0).max(i64::from(f))),
            None => r,
        }
    }

    fn aro(&self, p: usize, r: usize, cut1: bool) -> i64 {
        let (mut sum, mut cnt, mut low) = (0i64, 0i64, i64::MAX);
        for k in 0..r {
            if let (Outcome::Game { .. }, Some(q)) = (self.outcome(p, k), self.opp[p][k]) {
                if let Some(rt) = self.rating(q) {
                    sum += rt;
                    cnt += 1;
                    low = low.min(rt);
                }
            }
        }
        if cut1 && cnt > 1 {
            sum -= low;
            cnt -= 1;
        }
        avg_round(sum, cnt)
    }

    /// Tournament performance rating (FIDE): rounded ARO of the rated opponents met over the
    /// board + dp(p), p = percentage scored in those games rounded to a whole percent.
    fn tpr(&self, p: usize, r: usize) -> Option<i64> {
        let win = self.input.scoring.win.halves();
        let (mut sum, mut games, mut got) = (0i64, 0i64, 0i64);
        for k in 0..r {
            if let (Outcome::Game { .. }, Some(q)) = (self.outcome(p, k), self.opp[p][k]) {
                if let Some(rt) = self.rating(q) {
                    sum += rt;
                    games += 1;
                    got += self.pts[p][k];
                }
            }
        }
        if games == 0 || win <= 0 {
            return None;
        }
        let pct = avg_round(100 * got, win * games).clamp(0, 100);
        Some(avg_round(sum, games) + dp(pct))
    }

    fn tpr_memo(&self, p: usize, v: &mut ViewData) -> Option<i64> {
        if let Some(t) = v.tpr[p] {
            return t;
        }
        let t = self.tpr(p, v.r);
        v.tpr[p] = Some(t);
        t
    }

    fn apro(&self, p: usize, v: &mut ViewData) -> i64 {
        let (mut sum, mut cnt) = (0i64, 0i64);
        for k in 0..v.r {
            if let (Outcome::Game { .. }, Some(q)) = (self.outcome(p, k), self.opp[p][k]) {
                if let Some(t) = self.tpr_memo(q, v) {
                    sum += t;
                    cnt += 1;
                }
            }
        }
        avg_round(sum, cnt)
    }

    /// 直胜 among `group` after `r` rounds (raw, half-points): points each scored against
    /// the others when the criterion applies and separates (two players who met; or a
    /// complete mini-table), else all 0 (as Swiss-Manager prints DE).
    /// `mark` is scratch of length n, all `usize::MAX` on entry and on exit.
    pub fn direct(&self, group: &[usize], r: usize, mark: &mut [usize]) -> Vec<i64> {
        let mini = self.input.options.direct == DirectMode::MiniTable;
        if group.len() < 2 || (group.len() > 2 && !mini) {
            return vec![0; group.len()];
        }
        for (i, &p) in group.iter().enumerate() {
            mark[p] = i;
        }
        let mut values = Vec::with_capacity(group.len());
        let mut complete = true;
        let mut met = vec![false; group.len()];
        for &p in group {
            met.iter_mut().for_each(|m| *m = false);
            let mut sum = 0;
            for k in 0..r {
                let counts = matches!(
                    self.outcome(p, k),
                    Outcome::Game { .. } | Outcome::ForfeitWin { .. } | Outcome::ForfeitLoss { .. }
                );
                if let (true, Some(q)) = (counts, self.opp[p][k]) {
                    if mark[q] != usize::MAX {
                        met[mark[q]] = true;
                        sum += self.pts[p][k];
                    }
                }
            }
            complete &= met.iter().filter(|&&m| m).count() == group.len() - 1;
            values.push(sum);
        }
        for &p in group {
            mark[p] = usize::MAX;
        }
        if complete && values.iter().any(|x| *x != values[0]) {
            values
        } else {
            vec![0; group.len()]
        }
    }
}

/// A voluntary unplayed round (FIDE C.07 16.1.2): requested bye, absence or forfeit loss.
fn is_vur(o: &Outcome) -> bool {
    matches!(
        o,
        Outcome::HalfBye
            | Outcome::Absent
            | Outcome::ForfeitLoss { .. }
            | Outcome::DoubleForfeit { .. }
    )
}

/// `sum / n` rounded to the nearest integer, halves away from zero; 0 when `n == 0`.
pub(crate) fn avg_round(sum: i64, n: i64) -> i64 {
    if n <= 0 {
        return 0;
    }
    let q = (2 * sum.abs() + n) / (2 * n);
    if sum < 0 {
        -q
    } else {
        q
    }
}

/// FIDE rating difference dp for a percentage score 0..=100 (FIDE B.02 table 8.1.1).
pub(crate) fn dp(pct: i64) -> i64 {
    const DP: [i64; 51] = [
        0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
        158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
        351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
    ];
    let pct = pct.clamp(0, 100);
    if pct >= 50 {
        DP[(pct - 50) as usize]
    } else {
        -DP[(50 - pct) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dp_table_is_symmetric_and_monotone() {
        assert_eq!(dp(50), 0);
        assert_eq!(dp(100), 800);
        assert_eq!(dp(0), -800);
        assert_eq!(dp(83), 273);
        assert_eq!(dp(17), -273);
        for p in 0..100 {
            assert!(dp(p) < dp(p + 1), "{p}");
        }
    }

    #[test]
    fn rounding_is_half_up() {
        assert_eq!(avg_round(5, 2), 3);
        assert_eq!(avg_round(4, 3), 1);
        assert_eq!(avg_round(-5, 2), -3);
        assert_eq!(avg_round(7, 0), 0);
    }
}
