//! Ranking: points, the ordered tie-break list with restart per split subgroup (§4.3), and
//! the fallback (A6).

use crate::input::{DecidedBy, Row, Standings, StandingsError, StandingsInput};
use crate::tiebreak::Prepared;
use crate::value::TbValue;
use arbiter_types::{Fallback, PlayerNo, Score, TiebreakName};
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use std::collections::HashMap;

/// One comparison level of a view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Points,
    /// Index into the tie-break list.
    Tb(usize),
    Fallback,
}

/// Computes the standings of a section (rules.md A6).
pub fn compute(input: &StandingsInput) -> Result<Standings, StandingsError> {
    let prep = prepare(input)?;
    let r = prep.rounds;
    let list = &input.tiebreaks;

    // previous_round_rank: the shared ranking after each earlier round, each computed once by
    // the same list with the ranking of the round before as its own last key.
    let mut prev_rank: Option<Vec<u32>> = None;
    if input.fallback == Some(Fallback::PreviousRoundRank) {
        for round in 1..r {
            let view = rank_view(&prep, round, list, prev_rank.as_deref(), None);
            prev_rank = Some(view.shared_ranks());
        }
    }
    let view = rank_view(&prep, r, list, prev_rank.as_deref(), input.fallback);

    let shared = input.fallback == Some(Fallback::Shared);
    let ranks = view.shared_ranks();
    let mut rows = Vec::with_capacity(prep.n);
    for (pos, &p) in view.order.iter().enumerate() {
        let pl = &input.players[p];
        let (rank, decided_by) = if pos == 0 {
            (1, None)
        } else if view.tied_with_prev[pos] {
            if shared {
                (ranks[p], None)
            } else {
                (pos as u32 + 1, Some(DecidedBy::PairingNo))
            }
        } else {
            (pos as u32 + 1, view.decided[pos])
        };
        let tiebreaks = list
            .iter()
            .enumerate()
            .map(|(j, &t)| (t, view.values[j][p]))
            .collect();
        rows.push(Row {
            rank,
            no: pl.no,
            name: pl.name.clone(),
            points: prep.score(p, r),
            tiebreaks,
            decided_by,
            withdrawn: pl.withdrawn,
        });
    }
    Ok(Standings { rows, rounds: r })
}

fn prepare(input: &StandingsInput) -> Result<Prepared<'_>, StandingsError> {
    let n = input.players.len();
    if input.outcomes.len() != n {
        return Err(StandingsError::RowCount {
            players: n,
            rows: input.outcomes.len(),
        });
    }
    let rounds = input.outcomes.first().map_or(0, Vec::len);
    let mut index: HashMap<PlayerNo, usize> = HashMap::with_capacity(n);
    for (i, p) in input.players.iter().enumerate() {
        if index.insert(p.no, i).is_some() {
            return Err(StandingsError::DuplicateNo(p.no));
        }
    }
    let mut opp = Vec::with_capacity(n);
    let mut pts = Vec::with_capacity(n);
    let mut cum = Vec::with_capacity(n);
    for (i, outs) in input.outcomes.iter().enumerate() {
        let no = input.players[i].no;
        if outs.len() != rounds {
            return Err(StandingsError::RoundCount {
                no,
                got: outs.len(),
                expected: rounds,
            });
        }
        let mut o_row = Vec::with_capacity(rounds);
        let mut p_row = Vec::with_capacity(rounds);
        let mut c_row = Vec::with_capacity(rounds);
        let mut total = Score::ZERO;
        for (k, o) in outs.iter().enumerate() {
            let q = match o.opponent() {
                Some(q) => Some(*index.get(&q).ok_or(StandingsError::UnknownOpponent {
                    no,
                    round: k + 1,
                    opponent: q,
                })?),
                None => None,
            };
            let s = o.points(&input.scoring);
            total += s;
            o_row.push(q);
            p_row.push(s);
            c_row.push(total);
        }
        opp.push(o_row);
        pts.push(p_row);
        cum.push(c_row);
    }
    Ok(Prepared {
        input,
        n,
        rounds,
        opp,
        pts,
        cum,
    })
}

/// The ranking of a section after `r` rounds.
struct View {
    /// Player indices in rank order.
    order: Vec<usize>,
    /// `decided[pos]`: what separated position `pos` from `pos - 1`.
    decided: Vec<Option<DecidedBy>>,
    /// `tied_with_prev[pos]`: equal on every level with the row above.
    tied_with_prev: Vec<bool>,
    /// `values[j][p]`: value of tie-break `j` for player `p` (for 直胜: in the final group).
    values: Vec<Vec<TbValue>>,
}

impl View {
    /// Rank by player index, tied rows sharing the rank of the first of them.
    fn shared_ranks(&self) -> Vec<u32> {
        let mut ranks = vec![0u32; self.order.len()];
        let mut current = 0u32;
        for (pos, &p) in self.order.iter().enumerate() {
            if pos == 0 || !self.tied_with_prev[pos] {
                current = pos as u32 + 1;
            }
            ranks[p] = current;
        }
        ranks
    }
}

struct Ranker<'a, 'b> {
    prep: &'a Prepared<'b>,
    r: usize,
    levels: Vec<Level>,
    /// `keys[level][p]`, oriented so that higher is better (fouls negated). Unused for 直胜.
    keys: Vec<Vec<Vec<TbValue>>>,
    list: &'a [TiebreakName],
    fallback: Option<Fallback>,
    values: Vec<Vec<TbValue>>,
    decided: Vec<Option<DecidedBy>>,
    tied: Vec<bool>,
    mark: Vec<usize>,
    has_direct: bool,
}

fn rank_view(
    prep: &Prepared<'_>,
    r: usize,
    list: &[TiebreakName],
    prev_rank: Option<&[u32]>,
    fallback: Option<Fallback>,
) -> View {
    let n = prep.n;
    let mut levels = vec![Level::Points];
    let mut keys: Vec<Vec<Vec<TbValue>>> = vec![vec![(0..n)
        .map(|p| TbValue::Score(prep.score(p, r)))
        .collect()]];
    let mut values = Vec::with_capacity(list.len());
    for (j, &t) in list.iter().enumerate() {
        let v = prep.values(t, r);
        let key = if t.lower_is_better() {
            v.iter().map(|x| negate(*x)).collect()
        } else {
            v.clone()
        };
        levels.push(Level::Tb(j));
        keys.push(vec![key]);
        values.push(v);
    }
    // The fallback as one level with one or more components compared in order.
    let fb_keys: Vec<Vec<TbValue>> = match fallback {
        Some(Fallback::PreviousRoundRank) => match prev_rank {
            Some(pr) => vec![pr.iter().map(|&x| TbValue::Int(-i64::from(x))).collect()],
            None => vec![],
        },
        Some(Fallback::PreviousRoundScore) => (1..r)
            .rev()
            .map(|k| (0..n).map(|p| TbValue::Score(prep.score(p, k))).collect())
            .collect(),
        Some(Fallback::DropFirstRounds) => (1..r)
            .map(|k| {
                (0..n)
                    .map(|p| TbValue::Score(prep.score(p, r) - prep.score(p, k)))
                    .collect()
            })
            .collect(),
        Some(Fallback::Lots) => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(prep.input.options.lots_seed);
            // Draw in pairing-number order so the lots do not depend on the input order.
            let mut by_no: Vec<usize> = (0..n).collect();
            by_no.sort_by_key(|&p| prep.input.players[p].no);
            let mut lot = vec![TbValue::Int(0); n];
            for p in by_no {
                lot[p] = TbValue::Int(i64::from(rng.gen::<u32>()));
            }
            vec![lot]
        }
        Some(Fallback::Shared) | None => vec![],
    };
    // previous_round_rank after round 1 has no earlier round; the view of round 1 is passed
    // a PreviousRoundRank fallback with no ranks: treat it as no fallback.
    let fallback = if fb_keys.is_empty() { None } else { fallback };
    if fallback.is_some() {
        levels.push(Level::Fallback);
        keys.push(fb_keys);
    }

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&p| prep.input.players[p].no);
    let mut rk = Ranker {
        prep,
        r,
        levels,
        keys,
        list,
        fallback,
        values,
        decided: vec![None; n],
        tied: vec![false; n],
        mark: vec![usize::MAX; n],
        has_direct: list.contains(&TiebreakName::Direct),
    };
    rk.split(&mut order, 0, 0);
    View {
        order,
        decided: rk.decided,
        tied_with_prev: rk.tied,
        values: rk.values,
    }
}

fn negate(v: TbValue) -> TbValue {
    let (n, d) = v.ratio();
    TbValue::from_ratio(-n, d)
}

impl Ranker<'_, '_> {
    /// Orders `group` (positions `offset..offset + group.len()` of the table), all equal on
    /// the levels before `level`.
    fn split(&mut self, group: &mut [usize], offset: usize, mut level: usize) {
        loop {
            if group.len() < 2 {
                return;
            }
            if level == self.levels.len() {
                for pos in 1..group.len() {
                    self.tied[offset + pos] = true;
                }
                return;
            }
            let runs = self.sort_level(group, level);
            if runs.len() == 1 {
                level += 1;
                continue;
            }
            let by = match self.levels[level] {
                Level::Points => DecidedBy::Points,
                Level::Tb(j) => DecidedBy::Tiebreak(self.list[j]),
                Level::Fallback => match self.fallback {
                    Some(f) => DecidedBy::Fallback(f),
                    None => DecidedBy::PairingNo,
                },
            };
            // §4.3: each still-tied subgroup restarts the list (so 直胜 can apply to two
            // players split off a larger group). Only 直胜 depends on the group, so without it
            // the subgroup simply continues with the next level.
            let restart = if self.has_direct && level > 0 {
                1
            } else {
                level + 1
            };
            for (start, end) in runs {
                if start > 0 {
                    self.decided[offset + start] = Some(by);
                }
                self.split(&mut group[start..end], offset + start, restart);
            }
            return;
        }
    }

    /// Sorts `group` by `level` (best first, stable) and returns the runs of equal keys.
    fn sort_level(&mut self, group: &mut [usize], level: usize) -> Vec<(usize, usize)> {
        if let Level::Tb(j) = self.levels[level] {
            if self.list[j] == TiebreakName::Direct {
                let v = self.prep.direct(group, self.r, &mut self.mark);
                let mut pairs: Vec<(usize, TbValue)> = group.iter().copied().zip(v).collect();
                for &(p, val) in &pairs {
                    self.values[j][p] = val;
                }
                pairs.sort_by_key(|x| std::cmp::Reverse(x.1));
                let mut runs = Vec::new();
                let mut start = 0;
                for i in 1..=pairs.len() {
                    if i == pairs.len() || pairs[i].1 != pairs[start].1 {
                        runs.push((start, i));
                        start = i;
                    }
                }
                for (slot, (p, _)) in group.iter_mut().zip(pairs) {
                    *slot = p;
                }
                return runs;
            }
        }
        let keys = &self.keys[level];
        group.sort_by(|&a, &b| {
            for comp in keys {
                let o = comp[b].cmp(&comp[a]);
                if o.is_ne() {
                    return o;
                }
            }
            std::cmp::Ordering::Equal
        });
        let eq = |a: usize, b: usize| keys.iter().all(|c| c[a] == c[b]);
        let mut runs = Vec::new();
        let mut start = 0;
        for i in 1..=group.len() {
            if i == group.len() || !eq(group[i], group[start]) {
                runs.push((start, i));
                start = i;
            }
        }
        runs
    }
}
