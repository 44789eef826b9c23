//! Above [`TIE_EXACT_LIMIT`] players: the tie-break settled after a C0–C5 solve by
//! exchanges of partners that keep every C0–C5 total.

use super::*;

/// Most passes of [`settle_ties`] over the field.
pub(super) const TIE_PASSES: usize = 64;

/// Partners tried for a player in [`settle_ties`]: `r` places either side of each ideal
/// partner, and `r` players at the bottom and top of the neighbouring groups, with `r` one
/// in [`TIE_REACH_PER`] of the player's group size, between these bounds. Wider reaches
/// leave smaller ties in large groups (100,000 players, round 9: 12 places 1.99 million,
/// 48 places 1.27 million; the exact minimum is 0.86 million) at some cost in time (8.1 s
/// → 12.2 s); at 10,000 players 40 places gave no better than 12.
pub(super) const TIE_REACH: (usize, usize) = (12, 48);

/// See [`TIE_REACH`].
pub(super) const TIE_REACH_PER: usize = 256;

/// Settle the tie-break of a pairing that is optimal under C0–C5 (`mate` per ranking
/// position, the bye as position `n`; see [`TIE_EXACT_LIMIT`]). Two pairs (a, b), (c, d)
/// are exchanged for (a, c), (b, d) or (a, d), (b, c) when both new pairs are legal, their
/// C0–C5 costs add up to exactly the old ones (so the pairing stays optimal under C0–C5,
/// proved by the same certificate) and their ties to less. Each player is tried, in ranking
/// order, with the players near its ideal partners (see [`Problem::tie`]) and at the edges
/// of the neighbouring groups, pass after pass until no exchange helps. Deterministic: the
/// same pairing in, the same pairing out. Returns the number of exchanges made.
pub(super) fn settle_ties(p: &Problem, lay: &Layout, mate: &mut [usize]) -> usize {
    let n = p.order.len();
    let total = mate.len();
    let mut ex = Exchanger {
        p,
        lay,
        buf: Vec::new(),
        sums: [Vec::new(), Vec::new()],
    };
    let mut exchanges = 0;
    let mut cands: Vec<usize> = Vec::new();
    let mut near: Vec<usize> = Vec::new();
    // Players to try in this pass: all at first, then those near a player whose partner
    // changed (the candidate relation is symmetric but for the group edges, which every
    // player of a group shares).
    let mut dirty = vec![true; n];
    for _ in 0..TIE_PASSES {
        let before = exchanges;
        let mut next = vec![false; n];
        for a in 0..n {
            let b = mate[a];
            if !dirty[a] || b >= total {
                continue;
            }
            let tab = p.tie(a, b);
            if tab == 0 {
                continue;
            }
            tie_candidates(p, a, &mut cands);
            let mut changed = None;
            for &c in &cands {
                let d = mate[c];
                if c == a || c == b || d >= total {
                    continue;
                }
                // The ties first (cheap): an exchange is costed only when it lowers them.
                let t_old = tab + p.tie(c, d);
                let old = [(a, b), (c, d)];
                if p.tie(a, c) + p.tie(b, d) < t_old && ex.apply(mate, &old, &[(a, c), (b, d)])
                    || p.tie(a, d) + p.tie(b, c) < t_old && ex.apply(mate, &old, &[(a, d), (b, c)])
                {
                    changed = Some([a, b, c, d]);
                    break;
                }
            }
            if let Some(players) = changed {
                exchanges += 1;
                for x in players.into_iter().filter(|&x| x < n) {
                    tie_candidates(p, x, &mut near);
                    for &y in near.iter().chain(std::iter::once(&x)) {
                        if y > a {
                            dirty[y] = true;
                        } else {
                            next[y] = true;
                        }
                    }
                }
            }
        }
        if exchanges == before {
            break;
        }
        dirty = next;
    }
    exchanges
}

/// Checks and makes one exchange of partners for [`settle_ties`].
pub(super) struct Exchanger<'a, 'b> {
    pub(super) p: &'a Problem<'b>,
    pub(super) lay: &'a Layout,
    pub(super) buf: Vec<u64>,
    /// Digit-wise C0–C5 cost sums of the new and the old pairs.
    pub(super) sums: [Vec<u64>; 2],
}

impl Exchanger<'_, '_> {
    /// Replace the pairs `old` by `new` (the same players, the new ties adding up to less:
    /// the caller checks that) when every new pair is legal and the C0–C5 costs add up to the
    /// same, digit by digit; whether it was done.
    pub(super) fn apply(
        &mut self,
        mate: &mut [usize],
        old: &[(usize, usize)],
        new: &[(usize, usize)],
    ) -> bool {
        let p = self.p;
        for (sum, pairs) in self.sums.iter_mut().zip([new, old]) {
            sum.clear();
            sum.resize(self.lay.len(), 0);
            for &(x, y) in pairs {
                if !p.c0_c5_cost(self.lay, x, y, &mut self.buf) {
                    return false;
                }
                for (s, &c) in sum.iter_mut().zip(&self.buf) {
                    *s += c;
                }
            }
        }
        if self.sums[0] != self.sums[1] {
            return false;
        }
        for &(x, y) in new {
            mate[x] = y;
            mate[y] = x;
        }
        true
    }
}

/// The partners [`settle_ties`] tries for ranking position `a`: near its ideal partners in
/// its group, the bottom of its group and the top of the next (floats down), the top of its
/// group and the bottom of the one above (floats up), and the lowest players (the bye).
pub(super) fn tie_candidates(p: &Problem, a: usize, out: &mut Vec<usize>) {
    out.clear();
    let n = p.order.len();
    let g = p.group_of[a];
    let size = p.group_size[g];
    let pos = p.pos_in_group[a];
    let start = a - pos;
    let r = (size / TIE_REACH_PER).clamp(TIE_REACH.0, TIE_REACH.1);
    // Ranges of ranking positions `[lo, hi)`, each clipped to where it applies.
    let mut ranges: Vec<(usize, usize)> = Vec::with_capacity(7);
    let mut near = |centre: usize, lo: usize, hi: usize| {
        let (from, to) = (centre.saturating_sub(r).max(lo), (centre + r + 1).min(hi));
        if from < to {
            ranges.push((from, to));
        }
    };
    let ideal = if p.slide {
        [pos + size / 2, pos.wrapping_sub(size / 2)]
    } else {
        [pos + 1, pos.wrapping_sub(1)]
    };
    for c in ideal {
        if c < size {
            near(start + c, start, start + size);
        }
    }
    near(start + size - 1, start, start + size);
    near(start + size, start + size, n);
    near(start, start, start + size);
    near(start.saturating_sub(1), 0, start);
    near(n - 1, 0, n);
    ranges.sort_unstable();
    let mut next = 0;
    for (lo, hi) in ranges {
        out.extend(lo.max(next)..hi);
        next = next.max(hi);
    }
}
