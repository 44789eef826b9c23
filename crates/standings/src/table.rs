//! Ranking: points, the ordered tie-break list with restart per split subgroup (§4.3), and
//! the fallback (A6).

use crate::input::{DecidedBy, Row, Standings, StandingsError, StandingsInput};
use crate::tiebreak::{Prepared, ViewData};
use arbiter_types::{Fallback, PlayerNo, Score, TiebreakName};
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use std::cmp::Reverse;
use std::collections::HashMap;

/// One comparison level of a view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Points,
    /// Index into the tie-break list (not 直胜).
    Tb(usize),
    /// 直胜 at this index of the list: depends on the tied group.
    Direct(usize),
    /// One component of the fallback.
    Fallback,
}

/// Computes the standings of a section (rules.md A6).
///
/// `previous_round_rank` computes the ranking after each earlier round once, from round 1
/// upwards, each by the same list with the ranking of the round before as its last key.
pub fn compute(input: &StandingsInput) -> Result<Standings, StandingsError> {
    let prep = prepare(input)?;
    let r = prep.rounds;
    let list = &input.tiebreaks;

    let all: Vec<usize> = (0..prep.n).collect();
    let mut fin = Ranker::new(&prep, r, list, input.fallback, false);
    fin.rank(all);
    if input.fallback == Some(Fallback::PreviousRoundRank) && r >= 2 {
        // Earlier rounds are ranked only where the final table still has ties, and only for
        // the score groups (after that round) of the tied players: the relative order inside
        // a score group does not depend on anyone outside it. Each round is ranked once.
        let mut chain: Vec<Ranker<'_, '_>> = Vec::new();
        let mut need = fin.tied_players();
        let mut round = r - 1;
        while !need.is_empty() && round >= 1 {
            let scores: std::collections::BTreeSet<i64> =
                need.iter().map(|&p| prep.score(p, round)).collect();
            let subset: Vec<usize> = (0..prep.n)
                .filter(|&p| scores.contains(&prep.score(p, round)))
                .collect();
            let mut rk = Ranker::new(&prep, round, list, input.fallback, true);
            rk.rank(subset);
            need = if round >= 2 {
                rk.tied_players()
            } else {
                Vec::new()
            };
            chain.push(rk);
            round -= 1;
        }
        let mut prev: Option<Vec<u32>> = None;
        for rk in chain.iter_mut().rev() {
            if let Some(p) = &prev {
                rk.resolve(p);
            }
            prev = Some(rk.shared_ranks());
        }
        if let Some(p) = &prev {
            fin.resolve(p);
        }
    }
    let view = fin.into_view();

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
            .map(|(j, &t)| (t, prep.display(t, view.raw[j][p])))
            .collect();
        rows.push(Row {
            rank,
            no: pl.no,
            name: pl.name.clone(),
            points: Score::from_halves(prep.score(p, r)),
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
    // Pairing numbers are small integers: a direct table (a map only for sparse numbers).
    let max_no = input
        .players
        .iter()
        .map(|p| p.no.get() as usize)
        .max()
        .unwrap_or(0);
    let dense = max_no <= 4 * n + 64;
    let mut table = vec![usize::MAX; if dense { max_no + 1 } else { 0 }];
    let mut map: HashMap<PlayerNo, usize> = HashMap::new();
    for (i, p) in input.players.iter().enumerate() {
        let seen = if dense {
            std::mem::replace(&mut table[p.no.get() as usize], i) != usize::MAX
        } else {
            map.insert(p.no, i).is_some()
        };
        if seen {
            return Err(StandingsError::DuplicateNo(p.no));
        }
    }
    let lookup = |q: PlayerNo| -> Option<usize> {
        if dense {
            table
                .get(q.get() as usize)
                .copied()
                .filter(|&i| i != usize::MAX)
        } else {
            map.get(&q).copied()
        }
    };
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
        let mut total = 0;
        for (k, o) in outs.iter().enumerate() {
            let q = match o.opponent() {
                Some(q) => Some(lookup(q).ok_or(StandingsError::UnknownOpponent {
                    no,
                    round: k + 1,
                    opponent: q,
                })?),
                None => None,
            };
            let s = o.points(&input.scoring).halves();
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
    /// `raw[j][p]`: raw value of tie-break `j` for player `p` (直胜: in its final group).
    raw: Vec<Vec<i64>>,
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
    data: ViewData,
    r: usize,
    levels: Vec<Level>,
    /// `keys[p * levels + level]`, oriented so that higher is better; valid where `have`.
    keys: Vec<i64>,
    have: Vec<bool>,
    list: &'a [TiebreakName],
    fallback: Option<Fallback>,
    raw: Vec<Vec<i64>>,
    /// Players in rank order (after `rank`).
    order: Vec<usize>,
    /// By position in `order`.
    decided: Vec<Option<DecidedBy>>,
    /// By position in `order`: equal on every level with the row above.
    tied: Vec<bool>,
    mark: Vec<usize>,
    /// First 直胜 level, `usize::MAX` if none.
    first_direct: usize,
}

impl<'a, 'b> Ranker<'a, 'b> {
    /// The levels and keys of the section after `r` rounds. With `lazy`, a tie-break is
    /// computed only for the players still tied when the list reaches it (earlier rounds of
    /// previous_round_rank); otherwise every value is computed (the final table shows them
    /// all). previous_round_rank gets a placeholder level filled by [`Ranker::resolve`].
    fn new(
        prep: &'a Prepared<'b>,
        r: usize,
        list: &'a [TiebreakName],
        fallback: Option<Fallback>,
        lazy: bool,
    ) -> Self {
        let n = prep.n;
        let mut data = prep.view(r);
        let mut levels = vec![Level::Points];
        let mut columns: Vec<Option<Vec<i64>>> = vec![Some(data.s.clone())];
        let mut raw = vec![vec![0i64; n]; list.len()];
        for (j, &t) in list.iter().enumerate() {
            if t == TiebreakName::Direct {
                levels.push(Level::Direct(j));
                columns.push(None);
                continue;
            }
            levels.push(Level::Tb(j));
            if lazy {
                columns.push(None);
            } else {
                let v: Vec<i64> = (0..n).map(|p| prep.value(t, p, &mut data)).collect();
                let key = if t.lower_is_better() {
                    v.iter().map(|x| -x).collect()
                } else {
                    v.clone()
                };
                columns.push(Some(key));
                raw[j] = v;
            }
        }
        // The fallback as one or more levels compared in order.
        let fb: Vec<Vec<i64>> = match fallback {
            // Filled by `resolve` once the ranking after the round before is known.
            Some(Fallback::PreviousRoundRank) if r >= 2 => vec![vec![0; n]],
            Some(Fallback::PreviousRoundRank) => vec![],
            Some(Fallback::PreviousRoundScore) => (1..r)
                .rev()
                .map(|k| (0..n).map(|p| prep.score(p, k)).collect())
                .collect(),
            Some(Fallback::DropFirstRounds) => (1..r)
                .map(|k| {
                    (0..n)
                        .map(|p| prep.score(p, r) - prep.score(p, k))
                        .collect()
                })
                .collect(),
            Some(Fallback::Lots) => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(prep.input.options.lots_seed);
                // Draw in pairing-number order so the lots do not depend on the input order.
                let mut by_no: Vec<usize> = (0..n).collect();
                by_no.sort_by_key(|&p| prep.input.players[p].no);
                let mut lot = vec![0i64; n];
                for p in by_no {
                    lot[p] = i64::from(rng.gen::<u32>());
                }
                vec![lot]
            }
            Some(Fallback::Shared) | None => vec![],
        };
        // previous_round_rank in the view of round 1 has no earlier round: no fallback there.
        let fallback = if fb.is_empty() { None } else { fallback };
        for c in fb {
            levels.push(Level::Fallback);
            columns.push(Some(c));
        }
        let nl = levels.len();
        let mut keys = vec![0i64; n * nl];
        let mut have = vec![false; n * nl];
        for (l, c) in columns.iter().enumerate() {
            if let Some(c) = c {
                for (p, &x) in c.iter().enumerate() {
                    keys[p * nl + l] = x;
                    have[p * nl + l] = true;
                }
            }
        }
        let first_direct = levels
            .iter()
            .position(|l| matches!(l, Level::Direct(_)))
            .unwrap_or(usize::MAX);
        Ranker {
            prep,
            data,
            r,
            levels,
            keys,
            have,
            list,
            fallback,
            raw,
            order: Vec::new(),
            decided: vec![None; n],
            tied: vec![false; n],
            mark: vec![usize::MAX; n],
            first_direct,
        }
    }

    /// Ranks `players` (a whole section, or whole score groups of it).
    fn rank(&mut self, mut players: Vec<usize>) {
        players.sort_by_key(|&p| self.prep.input.players[p].no);
        self.tied = vec![false; players.len()];
        self.decided = vec![None; players.len()];
        self.split(&mut players, 0, 0, 0);
        self.order = players;
    }

    /// Players in runs still tied after every level.
    fn tied_players(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for pos in 1..self.order.len() {
            if self.tied[pos] {
                if !self.tied[pos - 1] {
                    out.push(self.order[pos - 1]);
                }
                out.push(self.order[pos]);
            }
        }
        out
    }

    /// Fills the previous_round_rank level from `prev` (rank by player after the round
    /// before) and orders the runs that were still tied.
    fn resolve(&mut self, prev: &[u32]) {
        let Some(level) = self.levels.iter().position(|l| *l == Level::Fallback) else {
            return;
        };
        let nl = self.levels.len();
        let mut order = std::mem::take(&mut self.order);
        let mut pos = 1;
        while pos < order.len() {
            if !self.tied[pos] {
                pos += 1;
                continue;
            }
            let start = pos - 1;
            let mut end = pos;
            while end < order.len() && self.tied[end] {
                end += 1;
            }
            for &p in &order[start..end] {
                self.keys[p * nl + level] = -i64::from(prev[p]);
            }
            self.tied[start + 1..end]
                .iter_mut()
                .for_each(|t| *t = false);
            self.split(&mut order[start..end], start, level, 0);
            pos = end;
        }
        self.order = order;
    }

    /// Rank by player index (0 for players not ranked here), tied rows sharing a rank.
    fn shared_ranks(&self) -> Vec<u32> {
        let mut ranks = vec![0u32; self.prep.n];
        let mut current = 0u32;
        for (pos, &p) in self.order.iter().enumerate() {
            if pos == 0 || !self.tied[pos] {
                current = pos as u32 + 1;
            }
            ranks[p] = current;
        }
        ranks
    }

    fn into_view(self) -> View {
        View {
            order: self.order,
            decided: self.decided,
            tied_with_prev: self.tied,
            raw: self.raw,
        }
    }
}

impl Ranker<'_, '_> {
    /// Orders `group` (positions `offset..offset + group.len()` of the table), all equal on
    /// the levels before `level`. Levels below `direct_only_below` are known equal except
    /// 直胜, which is evaluated again for this (smaller) group.
    fn split(
        &mut self,
        group: &mut [usize],
        offset: usize,
        mut level: usize,
        direct_only_below: usize,
    ) {
        let nl = self.levels.len();
        loop {
            if group.len() < 2 {
                return;
            }
            if level == nl {
                for pos in 1..group.len() {
                    self.tied[offset + pos] = true;
                }
                return;
            }
            let is_direct = matches!(self.levels[level], Level::Direct(_));
            if level < direct_only_below && !is_direct {
                level += 1;
                continue;
            }
            match self.levels[level] {
                Level::Direct(j) => {
                    let v = self.prep.direct(group, self.r, &mut self.mark);
                    for (&p, &x) in group.iter().zip(&v) {
                        self.raw[j][p] = x;
                        self.keys[p * nl + level] = x;
                    }
                }
                Level::Tb(j) => {
                    let t = self.list[j];
                    for &p in group.iter() {
                        if !self.have[p * nl + level] {
                            let x = self.prep.value(t, p, &mut self.data);
                            self.keys[p * nl + level] = if t.lower_is_better() { -x } else { x };
                            self.have[p * nl + level] = true;
                        }
                    }
                }
                Level::Points | Level::Fallback => {}
            }
            let keys = &self.keys;
            group.sort_by_key(|&p| Reverse(keys[p * nl + level]));
            let mut runs = Vec::new();
            let mut start = 0;
            for i in 1..=group.len() {
                if i == group.len()
                    || keys[group[i] * nl + level] != keys[group[start] * nl + level]
                {
                    runs.push((start, i));
                    start = i;
                }
            }
            if runs.len() == 1 {
                level += 1;
                continue;
            }
            let by = match self.levels[level] {
                Level::Points => DecidedBy::Points,
                Level::Tb(j) | Level::Direct(j) => DecidedBy::Tiebreak(self.list[j]),
                Level::Fallback => self
                    .fallback
                    .map_or(DecidedBy::PairingNo, DecidedBy::Fallback),
            };
            // §4.3: each still-tied subgroup restarts the list, so 直胜 can apply to two
            // players split off a larger group. Only 直胜 depends on the group; the other
            // levels up to this one are equal within a run and are skipped.
            let (next, only_below) = if self.first_direct <= level && level > 0 {
                (1, level + 1)
            } else {
                (level + 1, 0)
            };
            for (s, e) in runs {
                if s > 0 {
                    self.decided[offset + s] = Some(by);
                }
                self.split(&mut group[s..e], offset + s, next, only_below);
            }
            return;
        }
    }
}
