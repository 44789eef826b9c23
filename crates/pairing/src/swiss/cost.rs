//! The cost model: the players to pair in ranking order and score groups ([`Problem`]),
//! the mixed-radix layout of the objective C0, CB, C1–C5, tie ([`Layout`]), and the cost
//! vector of one pair or of the bye.

use super::*;

/// The problem of one round, players to pair in ranking order.
pub(super) struct Problem<'a> {
    pub(super) state: &'a SectionState,
    pub(super) round: u32,
    pub(super) infos: &'a [Info],
    /// Info indices of players to pair, ranking order (score desc, number asc).
    pub(super) order: Vec<usize>,
    /// Per ranking position: group index, position in group.
    pub(super) group_of: Vec<usize>,
    pub(super) pos_in_group: Vec<usize>,
    pub(super) group_size: Vec<usize>,
    pub(super) group_score: Vec<i64>,
    /// H5 is a criterion (C0): in the last round (setting), or at a [`Relax`] level.
    pub(super) relaxed: bool,
    /// Which hard rules this solve relaxes into criteria (A2 as amended).
    pub(super) relax: Relax,
    pub(super) bye_eligible: Vec<bool>,
    /// `within_group` is `slide` (else `adjacent`).
    pub(super) slide: bool,
}

/// Which hard rules of A2 one solve of a round relaxes into criteria, tried in this order
/// until a pairing exists (A2 as amended 2026-12-02): none; H5 (colours) as C0, the fewest
/// players breaking it; H1 (no rematch) as the first criterion above C0, the fewest
/// repeated pairs then the oldest meetings; and, for a round with pairs fixed by the
/// arbiter only (A3b: a manual round is never blocked), H4 `hard` as C4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Relax {
    None,
    Colours,
    Rematches,
    Teams,
}

/// One cost vector: [art?] [R R'?] [C0?] [CB?] u.. d.. C3 C4 C5 tie.
pub(super) struct Layout {
    /// Leading digit counting artificial (illegal) pairs, used by the restricted-graph path
    /// so that its graph always has a perfect matching (see [`run`]).
    pub(super) art: bool,
    /// H1 as a criterion (above C0): R, repeated meetings (a pair meeting for the third
    /// time counts two), then R', the sum of the rounds of their last meetings (smaller:
    /// older meetings are repeated).
    pub(super) rematch: bool,
    pub(super) c0: bool,
    /// CB digit (odd field only): the bye recipient's group counted from the lowest (0),
    /// so the bye goes to the lowest score group where a valid pairing allows it (A4).
    pub(super) cb: bool,
    pub(super) groups: usize,
    pub(super) bases: Vec<u64>,
}

impl Layout {
    pub(super) fn len(&self) -> usize {
        self.bases.len()
    }
    pub(super) fn off(&self) -> usize {
        self.c0_at() + usize::from(self.c0) + usize::from(self.cb)
    }
    /// Index of the first H1 digit (R), when `rematch`.
    pub(super) fn r(&self) -> usize {
        usize::from(self.art)
    }
    /// Index of the C0 digit, when `c0`.
    pub(super) fn c0_at(&self) -> usize {
        usize::from(self.art) + 2 * usize::from(self.rematch)
    }
    pub(super) fn cb(&self) -> usize {
        self.c0_at() + usize::from(self.c0)
    }
    pub(super) fn u(&self, k: usize) -> usize {
        self.off() + k
    }
    pub(super) fn d(&self, k: usize) -> usize {
        self.off() + self.groups + k
    }
    pub(super) fn c3(&self) -> usize {
        self.off() + 2 * self.groups
    }
    pub(super) fn bits(&self) -> u32 {
        self.bases.iter().map(|&b| 64 - b.leading_zeros()).sum()
    }
}

impl<'a> Problem<'a> {
    /// The problem with every hard rule kept (tests).
    #[cfg(test)]
    pub(super) fn new(
        state: &'a SectionState,
        round: u32,
        infos: &'a [Info],
        exclude: &BTreeSet<usize>,
    ) -> Self {
        Self::relaxing(state, round, infos, exclude, Relax::None)
    }

    /// [`Problem::new`] with the hard rules of `relax` turned into criteria.
    pub(super) fn relaxing(
        state: &'a SectionState,
        round: u32,
        infos: &'a [Info],
        exclude: &BTreeSet<usize>,
        relax: Relax,
    ) -> Self {
        let mut order: Vec<usize> = (0..infos.len())
            .filter(|&i| {
                state.players[i].availability == Availability::Active && !exclude.contains(&i)
            })
            .collect();
        order.sort_by(|&a, &b| {
            infos[b]
                .score
                .cmp(&infos[a].score)
                .then(infos[a].no.cmp(&infos[b].no))
        });
        let mut group_of = Vec::with_capacity(order.len());
        let mut pos_in_group = Vec::with_capacity(order.len());
        let mut group_size: Vec<usize> = Vec::new();
        let mut group_score: Vec<i64> = Vec::new();
        for &i in &order {
            if group_score.last() != Some(&infos[i].score) {
                group_score.push(infos[i].score);
                group_size.push(0);
            }
            let g = group_score.len() - 1;
            group_of.push(g);
            pos_in_group.push(group_size[g]);
            group_size[g] += 1;
        }
        let s = &state.settings;
        let relaxed = relax >= Relax::Colours
            || s.relax_colours_in_last_round
                && state.total_rounds > 0
                && round >= state.total_rounds;
        let min_byes = match s.bye {
            arbiter_types::ByeChoice::LowestWithoutBye => {
                if order.iter().any(|&i| infos[i].byes == 0) {
                    0
                } else {
                    u32::MAX
                }
            }
            arbiter_types::ByeChoice::LowestFewestByes => {
                order.iter().map(|&i| infos[i].byes).min().unwrap_or(0)
            }
        };
        let bye_eligible = order
            .iter()
            .map(|&i| min_byes == u32::MAX || infos[i].byes == min_byes)
            .collect();
        Problem {
            state,
            round,
            infos,
            order,
            group_of,
            pos_in_group,
            group_size,
            group_score,
            relaxed,
            relax,
            bye_eligible,
            slide: state.settings.within_group == WithinGroup::Slide,
        }
    }

    pub(super) fn layout(&self, art: bool) -> Layout {
        let n = self.order.len() as u64;
        let g = self.group_size.len();
        let mut bases = Vec::new();
        if art {
            bases.push(n / 2 + 2);
        }
        let rematch = self.relax >= Relax::Rematches;
        if rematch {
            let rounds = u64::from(self.round.saturating_sub(1)).max(1);
            bases.push((n / 2) * rounds + 1);
            bases.push((n / 2) * rounds + 1);
        }
        if self.relaxed {
            bases.push(n + 1);
        }
        // CB: one bye per round, value < g.
        let cb = n % 2 == 1;
        if cb {
            bases.push(g as u64 + 1);
        }
        // C1: x_k counts pairs crossing the boundary below group k, each with one player
        // above it and one below, so it stays within the smaller side (the last digit, below
        // the lowest group, is always 0).
        let mut above = 0u64;
        for k in 0..g {
            above += self.group_size[k] as u64;
            bases.push(above.min(n - above) + 1);
        }
        let min_score = self.group_score.last().copied().unwrap_or(0);
        for k in 0..g {
            let gap = (self.group_score[k] - min_score).max(0) as u64;
            bases.push(self.group_size[k] as u64 * gap + 1);
        }
        bases.push(n / 2 + 1); // C3
        bases.push(n / 2 + 1); // C4
        bases.push(n + 1); // C5
        bases.push(n * (n / 2 + 2) + 1); // tie
        Layout {
            art,
            rematch,
            c0: self.relaxed,
            cb,
            groups: g,
            bases,
        }
    }

    /// Cost vector of pairing ranking positions x < y, or None when a hard rule forbids it.
    pub(super) fn pair_cost(&self, lay: &Layout, x: usize, y: usize, out: &mut Vec<u64>) -> bool {
        let s = &self.state.settings;
        let (a, b) = (&self.infos[self.order[x]], &self.infos[self.order[y]]);
        let met = a.meetings.get(&b.no).copied();
        if met.is_some() && !lay.rematch {
            return false;
        }
        let same_team = matches!((a.team, b.team), (Some(p), Some(q)) if p == q);
        let teams_hard = s.same_team == SameTeam::Hard && self.relax < Relax::Teams;
        if same_team && teams_hard {
            return false;
        }
        // H5 constrains the colours, not the pair: legal when one order keeps both within H5.
        let order = pair_order(a, b, self.round, s);
        if order.breakers > 0 && !self.relaxed {
            return false;
        }
        out.clear();
        out.resize(lay.len(), 0);
        if let Some((times, last)) = met {
            out[lay.r()] = u64::from(times);
            out[lay.r() + 1] = u64::from(last);
        }
        if lay.c0 {
            out[lay.c0_at()] = order.breakers;
        }
        let (ga, gb) = (self.group_of[x], self.group_of[y]);
        let float = ga != gb;
        if float {
            // C1: one for every boundary crossed, from below group ga to above group gb.
            for k in ga..gb {
                out[lay.u(k)] += 1;
            }
            out[lay.d(ga)] = (a.score - b.score) as u64;
        }
        let c3 = lay.c3();
        out[c3] = u64::from(order.miss);
        let c4 = s.same_team == SameTeam::Soft || s.same_team == SameTeam::Hard && !teams_hard;
        out[c3 + 1] = u64::from(same_team && c4);
        out[c3 + 2] = if float {
            u64::from(a.floated_prev) + u64::from(b.floated_prev)
        } else {
            0
        };
        out[c3 + 3] = self.tie(x, y);
        true
    }

    /// The tie digit of pairing ranking positions `x` and `y`, in either order (the player
    /// count stands for the bye): inside a group, how far the partner is from the ideal one
    /// (`slide`: half the group down; `adjacent`: the next); a float, how far the two are
    /// from the bottom of the upper group and the top of the lower; the bye, how far from
    /// the lowest player.
    #[inline]
    pub(super) fn tie(&self, x: usize, y: usize) -> u64 {
        let (x, y) = (x.min(y), x.max(y));
        if y >= self.order.len() {
            return (self.order.len() - 1 - x) as u64;
        }
        let (ga, gb) = (self.group_of[x], self.group_of[y]);
        let (px, py) = (self.pos_in_group[x], self.pos_in_group[y]);
        if ga != gb {
            return (self.group_size[ga] - 1 - px + py) as u64;
        }
        let dist = (py - px) as i64;
        if self.slide {
            (dist - (self.group_size[ga] / 2) as i64).unsigned_abs()
        } else {
            (dist - 1) as u64
        }
    }

    pub(super) fn bye_cost(&self, lay: &Layout, x: usize, out: &mut Vec<u64>) {
        out.clear();
        out.resize(lay.len(), 0);
        if lay.cb {
            out[lay.cb()] = (self.group_size.len() - 1 - self.group_of[x]) as u64;
        }
        // The bye crosses no boundary (C1).
        out[lay.c3() + 3] = self.tie(x, self.order.len());
    }

    /// The C0–C5 cost vector (tie digit zeroed) of pairing ranking positions `x` and `y` in
    /// either order, `y` possibly the bye, into `out`; false when the pair is illegal.
    pub(super) fn c0_c5_cost(&self, lay: &Layout, x: usize, y: usize, out: &mut Vec<u64>) -> bool {
        let (x, y) = (x.min(y), x.max(y));
        if y >= self.order.len() {
            if !self.bye_eligible[x] {
                return false;
            }
            self.bye_cost(lay, x, out);
        } else if !self.pair_cost(lay, x, y, out) {
            return false;
        }
        out[lay.len() - 1] = 0;
        true
    }
}

pub(super) fn top<W: Weight>(lay: &Layout) -> W {
    // Π bases = encode of (0, …, 0) with a leading 1.
    let mut acc = W::zero().mul_add(1, 1);
    for &b in &lay.bases {
        acc = acc.mul_add(b, 0);
    }
    acc
}

/// The weight of one unit of each cost digit, so that a cost vector (mostly zeros) is
/// encoded with one multiplication per non-zero digit.
pub(super) struct Units<W> {
    pub(super) unit: Vec<W>,
}

impl<W: Weight> Units<W> {
    pub(super) fn new(lay: &Layout) -> Self {
        let mut unit = vec![W::zero(); lay.len()];
        let mut acc = W::zero().mul_add(1, 1);
        for (k, &b) in lay.bases.iter().enumerate().rev() {
            unit[k] = acc;
            acc = acc.mul_add(b, 0);
        }
        Units { unit }
    }

    /// The mixed-radix value of the cost vector `v` (its digits stay below their bases).
    pub(super) fn encode(&self, v: &[u64]) -> W {
        let mut acc = W::zero();
        for (u, &c) in self.unit.iter().zip(v) {
            if c != 0 {
                acc = acc.add(u.mul_add(c, 0));
            }
        }
        acc
    }
}

pub(super) fn small<W: Weight>(v: u64) -> W {
    W::zero().mul_add(1, v)
}
