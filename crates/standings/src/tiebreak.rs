//! The value of every tie-break (A6, §4.3, FIDE C.07) for a section seen after `r` rounds.

use crate::input::{ByeOppValue, FideUnplayed, ForfeitOppValue, StandingsInput};
use crate::value::TbValue;
use arbiter_types::{Colour, Outcome, PlayerResult, Score, TiebreakName};

/// The section with opponents resolved to indices and points per round precomputed.
pub(crate) struct Prepared<'a> {
    pub input: &'a StandingsInput,
    pub n: usize,
    pub rounds: usize,
    /// `opp[p][k]`: index of the opponent of player `p` in round `k` (0-based), if any.
    pub opp: Vec<Vec<Option<usize>>>,
    /// `pts[p][k]`: points scored in round `k`.
    pub pts: Vec<Vec<Score>>,
    /// `cum[p][k]`: running total after round `k` (0-based).
    pub cum: Vec<Vec<Score>>,
}

impl Prepared<'_> {
    /// Total after the first `r` rounds.
    pub fn score(&self, p: usize, r: usize) -> Score {
        if r == 0 {
            Score::ZERO
        } else {
            self.cum[p][r - 1]
        }
    }

    fn outcome(&self, p: usize, k: usize) -> &Outcome {
        &self.input.outcomes[p][k]
    }

    /// Values of a group-independent criterion for every player after `r` rounds. `Direct`
    /// depends on the tied group and is computed by [`Prepared::direct`]; here it is 0.
    pub fn values(&self, tb: TiebreakName, r: usize) -> Vec<TbValue> {
        use TiebreakName::*;
        match tb {
            OppScore => self.opp_score(r),
            Progressive => (0..self.n)
                .map(|p| TbValue::Score(self.cum[p][..r].iter().copied().sum()))
                .collect(),
            Wins => self.count(r, |o, opts| match o {
                Outcome::Game {
                    result: PlayerResult::Win,
                    ..
                } => true,
                Outcome::ForfeitWin { .. } => opts.wins_include_forfeit,
                Outcome::Bye | Outcome::FullBye => opts.wins_include_bye,
                _ => false,
            }),
            Fouls => self
                .input
                .players
                .iter()
                .map(|p| TbValue::Int(i64::from(p.fouls)))
                .collect(),
            Direct => vec![TbValue::Score(Score::ZERO); self.n],
            BlackGames => self.count(r, |o, opts| match o {
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
            BlackWins => self.count(r, |o, opts| match o {
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
            Sb => self.sonneborn_berger(r),
            Buchholz | BuchholzCut1 | BuchholzMedian1 => self.buchholz(tb, r),
            Aro | AroCut1 => self.aro(r, tb == AroCut1),
            Apro => self.apro(r),
            Performance => (0..self.n)
                .map(|p| TbValue::Int(self.tpr(p, r).unwrap_or(0)))
                .collect(),
        }
    }

    fn count(
        &self,
        r: usize,
        f: impl Fn(&Outcome, &crate::input::TiebreakOptions) -> bool,
    ) -> Vec<TbValue> {
        let opts = &self.input.options;
        (0..self.n)
            .map(|p| {
                let c = self.input.outcomes[p][..r]
                    .iter()
                    .filter(|o| f(o, opts))
                    .count();
                TbValue::Int(c as i64)
            })
            .collect()
    }

    fn lowest(&self, r: usize) -> Score {
        (0..self.n)
            .map(|p| self.score(p, r))
            .min()
            .unwrap_or(Score::ZERO)
    }

    /// 对手分: opponents' scores; a bye is a virtual opponent with the lowest score (or 0);
    /// a forfeit counts the real opponent by default.
    fn opp_score(&self, r: usize) -> Vec<TbValue> {
        let opts = &self.input.options;
        let lowest = self.lowest(r);
        let bye = match opts.bye_opp_value {
            ByeOppValue::Lowest => lowest,
            ByeOppValue::Zero => Score::ZERO,
        };
        (0..self.n)
            .map(|p| {
                let mut sum = Score::ZERO;
                for k in 0..r {
                    let o = self.outcome(p, k);
                    sum += match (o, self.opp[p][k]) {
                        (Outcome::Game { .. }, Some(q)) => self.score(q, r),
                        (_, Some(q)) => match opts.forfeit_opp_value {
                            ForfeitOppValue::Actual => self.score(q, r),
                            ForfeitOppValue::Lowest => lowest,
                            ForfeitOppValue::Zero => Score::ZERO,
                        },
                        (Outcome::Bye | Outcome::FullBye, None) => bye,
                        _ => Score::ZERO,
                    };
                }
                TbValue::Score(sum)
            })
            .collect()
    }

    /// 小分: Σ over games of opponent's score × (points scored / win points); a beaten
    /// opponent counts fully, a drawn one by the colour's draw share (½ in symmetric tables).
    /// Forfeit wins count as wins against the real opponent.
    fn sonneborn_berger(&self, r: usize) -> Vec<TbValue> {
        let table = &self.input.scoring;
        let win = table.win.halves();
        if win <= 0 {
            return vec![TbValue::Int(0); self.n];
        }
        (0..self.n)
            .map(|p| {
                let mut num: i64 = 0;
                for k in 0..r {
                    let share = match self.outcome(p, k) {
                        Outcome::Game { .. } | Outcome::ForfeitWin { .. } => {
                            self.pts[p][k].halves()
                        }
                        _ => 0,
                    };
                    if let (Some(q), true) = (self.opp[p][k], share != 0) {
                        num += self.score(q, r).halves() * share;
                    }
                }
                // num is in half-points × half-points; divide by 2 (halves) × win (halves).
                TbValue::from_ratio(num, 2 * win)
            })
            .collect()
    }

    /// FIDE C.07 art. 16.3: the participant's score as seen by the opponents' tie-breaks.
    fn adjusted_scores(&self, r: usize) -> Vec<Score> {
        let draw = self.input.scoring.half_bye();
        (0..self.n)
            .map(|q| {
                let mut sum = Score::ZERO;
                let mut only_vur_after = true;
                for k in (0..r).rev() {
                    let o = self.outcome(q, k);
                    let requested = matches!(o, Outcome::HalfBye | Outcome::Absent);
                    sum += if requested && only_vur_after {
                        draw
                    } else {
                        self.pts[q][k]
                    };
                    only_vur_after &= is_vur(o);
                }
                sum
            })
            .collect()
    }

    fn buchholz(&self, tb: TiebreakName, r: usize) -> Vec<TbValue> {
        let opts = &self.input.options;
        let mode = opts
            .fide_unplayed_for
            .get(&tb)
            .copied()
            .unwrap_or(opts.fide_unplayed);
        let adj = match mode {
            FideUnplayed::Plain => (0..self.n).map(|q| self.score(q, r)).collect(),
            _ => self.adjusted_scores(r),
        };
        let draw_cap = Score::from_halves(self.input.scoring.half_bye().halves() * r as i64);
        let mut contrib: Vec<(Score, bool)> = Vec::with_capacity(r);
        (0..self.n)
            .map(|p| {
                contrib.clear();
                let own = self.score(p, r);
                for k in 0..r {
                    let o = self.outcome(p, k);
                    let q = self.opp[p][k];
                    let c = match (mode, o, q) {
                        (_, Outcome::Game { .. }, Some(q)) => Some(adj[q]),
                        (FideUnplayed::Plain, _, Some(q)) => Some(adj[q]),
                        (FideUnplayed::Plain, _, None) => None,
                        (FideUnplayed::Fide2023, _, _) => Some(own),
                        (FideUnplayed::Fide2026, _, Some(q)) => Some(own.min(adj[q])),
                        (FideUnplayed::Fide2026, _, None) => Some(own.min(draw_cap)),
                    };
                    if let Some(c) = c {
                        contrib.push((c, mode != FideUnplayed::Plain && is_vur(o)));
                    }
                }
                let total: Score = contrib.iter().map(|c| c.0).sum();
                let cut = |v: &mut Vec<(Score, bool)>| -> Score {
                    // 16.5: cut the lowest VUR contribution if there is one, else the lowest.
                    let pick = v
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.1)
                        .min_by_key(|(_, c)| c.0)
                        .or_else(|| v.iter().enumerate().min_by_key(|(_, c)| c.0))
                        .map(|(i, _)| i);
                    match pick {
                        Some(i) => v.swap_remove(i).0,
                        None => Score::ZERO,
                    }
                };
                let value = match tb {
                    TiebreakName::BuchholzCut1 => total - cut(&mut contrib),
                    TiebreakName::BuchholzMedian1 => {
                        let low = cut(&mut contrib);
                        let high = contrib.iter().map(|c| c.0).max().unwrap_or(Score::ZERO);
                        total - low - high
                    }
                    _ => total,
                };
                TbValue::Score(value)
            })
            .collect()
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

    /// Ratings of the opponents met over the board (forfeits and byes ignored).
    fn played_ratings(&self, p: usize, r: usize) -> impl Iterator<Item = i64> + '_ {
        (0..r).filter_map(move |k| match (self.outcome(p, k), self.opp[p][k]) {
            (Outcome::Game { .. }, Some(q)) => self.rating(q),
            _ => None,
        })
    }

    fn aro(&self, r: usize, cut1: bool) -> Vec<TbValue> {
        (0..self.n)
            .map(|p| {
                let mut v: Vec<i64> = self.played_ratings(p, r).collect();
                if cut1 && v.len() > 1 {
                    if let Some(i) = (0..v.len()).min_by_key(|&i| v[i]) {
                        v.swap_remove(i);
                    }
                }
                TbValue::Int(avg_round(v.iter().sum(), v.len() as i64))
            })
            .collect()
    }

    /// Tournament performance rating (FIDE): rounded ARO of the rated opponents met over the
    /// board + dp(p), p = percentage scored in those games rounded to a whole percent.
    pub fn tpr(&self, p: usize, r: usize) -> Option<i64> {
        let win = self.input.scoring.win.halves();
        let (mut sum, mut games, mut got) = (0i64, 0i64, 0i64);
        for k in 0..r {
            if let (Outcome::Game { .. }, Some(q)) = (self.outcome(p, k), self.opp[p][k]) {
                if let Some(rt) = self.rating(q) {
                    sum += rt;
                    games += 1;
                    got += self.pts[p][k].halves();
                }
            }
        }
        if games == 0 || win <= 0 {
            return None;
        }
        let pct = avg_round(100 * got, win * games).clamp(0, 100);
        Some(avg_round(sum, games) + dp(pct))
    }

    fn apro(&self, r: usize) -> Vec<TbValue> {
        let tprs: Vec<Option<i64>> = (0..self.n).map(|q| self.tpr(q, r)).collect();
        (0..self.n)
            .map(|p| {
                let (mut sum, mut cnt) = (0i64, 0i64);
                for k in 0..r {
                    if let (Outcome::Game { .. }, Some(q)) = (self.outcome(p, k), self.opp[p][k]) {
                        if let Some(t) = tprs[q] {
                            sum += t;
                            cnt += 1;
                        }
                    }
                }
                TbValue::Int(avg_round(sum, cnt))
            })
            .collect()
    }

    /// 直胜 among `group` after `r` rounds: points each scored against the others, when the
    /// criterion applies (two players who met; or a complete mini-table), else all 0.
    /// `mark` is scratch of length n, all `usize::MAX` on entry and on exit.
    pub fn direct(&self, group: &[usize], r: usize, mark: &mut [usize]) -> Vec<TbValue> {
        let zero = vec![TbValue::Score(Score::ZERO); group.len()];
        let mini = self.input.options.direct == crate::input::DirectMode::MiniTable;
        if group.len() < 2 || (group.len() > 2 && !mini) {
            return zero;
        }
        for (i, &p) in group.iter().enumerate() {
            mark[p] = i;
        }
        let mut values = Vec::with_capacity(group.len());
        let mut complete = true;
        let mut met = vec![false; group.len()];
        for &p in group {
            met.iter_mut().for_each(|m| *m = false);
            let mut sum = Score::ZERO;
            for k in 0..r {
                let o = self.outcome(p, k);
                let counts = matches!(
                    o,
                    Outcome::Game { .. } | Outcome::ForfeitWin { .. } | Outcome::ForfeitLoss { .. }
                );
                if let (true, Some(q)) = (counts, self.opp[p][k]) {
                    if mark[q] != usize::MAX {
                        met[mark[q]] = true;
                        sum += self.pts[p][k];
                    }
                }
            }
            let others = met.iter().filter(|&&m| m).count();
            complete &= others == group.len() - 1;
            values.push(TbValue::Score(sum));
        }
        for &p in group {
            mark[p] = usize::MAX;
        }
        // Shown only when it separates (as Swiss-Manager prints DE): equal values are 0.
        if complete && values.iter().any(|v| *v != values[0]) {
            values
        } else {
            zero
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
