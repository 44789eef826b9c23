//! Exact pricing of the pairs left out of the restricted graph: a structured lower bound of
//! every pair's reduced cost (per group, due-colour class and blossom part), so that no pair
//! violating the duals is missed and no O(n²) scan of pair costs is needed.

use super::*;

/// From this many players up, [`Pricer::price`] prices on two threads.
pub(super) const PARALLEL_PRICING: usize = 500;

/// Range-minimum tree over keys, reporting every index whose key is below a threshold.
pub(super) struct MinTree<W> {
    pub(super) size: usize,
    pub(super) t: Vec<Option<W>>,
}

impl<W: Weight> MinTree<W> {
    pub(super) fn new(keys: &[W]) -> Self {
        let size = keys.len().next_power_of_two().max(1);
        let mut t = vec![None; 2 * size];
        for (i, &k) in keys.iter().enumerate() {
            t[size + i] = Some(k);
        }
        for i in (1..size).rev() {
            t[i] = match (t[2 * i], t[2 * i + 1]) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, None) => a,
                (None, b) => b,
            };
        }
        MinTree { size, t }
    }

    /// Push every index in `lo..hi` with key < `thr` onto `out`.
    pub(super) fn report(&self, lo: usize, hi: usize, thr: W, out: &mut Vec<usize>) {
        if lo < hi {
            self.rec(1, 0, self.size, lo, hi, thr, out);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn rec(
        &self,
        node: usize,
        l: usize,
        r: usize,
        lo: usize,
        hi: usize,
        thr: W,
        out: &mut Vec<usize>,
    ) {
        if r <= lo || hi <= l || self.t[node].is_none_or(|m| m >= thr) {
            return;
        }
        if r - l == 1 {
            out.push(l);
            return;
        }
        let mid = (l + r) / 2;
        self.rec(2 * node, l, mid, lo, hi, thr, out);
        self.rec(2 * node + 1, mid, r, lo, hi, thr, out);
    }
}

/// Exact pricing of the pairs left out of the restricted graph.
///
/// With `A_x = y_x − 2·top`, the reduced cost of a pair is at least
/// `A_x + A_y + 4·enc(c)` (blossom duals are ≥ 0), where `enc(c)` is the mixed-radix cost.
/// The cost is bounded below by a vector that depends only on the two players' groups,
/// positions, previous floats and due-colour classes (C3 ≥ 1 when both are due the same
/// colour; C0, C4 and the hard rules are dropped). Per group and due class the pairs whose
/// bound is negative are enumerated with range-minimum trees (inside a group, where the
/// tie-break is a function of the position difference) or sorted lists (floats); each such
/// suspect gets its exact legality, cost and reduced cost including blossom duals. Every
/// legal pair with a negative reduced cost is returned; none is missed because the bound
/// never exceeds the true cost.
pub(super) struct Pricer<'a, W: Weight> {
    pub(super) p: &'a Problem<'a>,
    pub(super) lay: &'a Layout,
    pub(super) topw: W,
    pub(super) class: Vec<u8>,
    /// Per group: start position.
    pub(super) start: Vec<usize>,
    /// Per group and class: ranking positions, ascending.
    pub(super) members: Vec<[Vec<usize>; 3]>,
    /// C1 as prefix sums: `cu[k]` is 4·(R_u0 + … + R_u(k−1)), so a float from group ga
    /// down to group gb, which crosses the boundaries ga … gb−1, costs `cu[gb] − cu[ga]`.
    pub(super) cu: Vec<W>,
    /// 4·R_k for the other digits used by the bound.
    pub(super) q_d: Vec<W>,
    pub(super) q3: W,
    pub(super) q5: W,
    pub(super) units: Units<W>,
    /// Whether the weights carry the tie digit (see [`run`]); without it the bounds leave
    /// the tie out too.
    pub(super) tie: bool,
}

impl<'a, W: Weight> Pricer<'a, W> {
    pub(super) fn new(
        p: &'a Problem<'a>,
        lay: &'a Layout,
        topw: W,
        units: Units<W>,
        tie: bool,
    ) -> Self {
        let n = p.order.len();
        let class: Vec<u8> = p
            .order
            .iter()
            .map(|&i| match p.infos[i].due() {
                None => 0,
                Some(Colour::Red) => 1,
                Some(Colour::Black) => 2,
            })
            .collect();
        let g = p.group_size.len();
        let mut start = Vec::with_capacity(g);
        let mut members: Vec<[Vec<usize>; 3]> = vec![Default::default(); g];
        for x in 0..n {
            if p.pos_in_group[x] == 0 {
                start.push(x);
            }
            members[p.group_of[x]][class[x] as usize].push(x);
        }
        let unit = |k: usize| -> W { units.unit[k].mul_add(4, 0) };
        Pricer {
            p,
            lay,
            topw,
            class,
            start,
            members,
            cu: std::iter::once(W::zero())
                .chain((0..g).scan(W::zero(), |acc, k| {
                    *acc = acc.add(unit(lay.u(k)));
                    Some(*acc)
                }))
                .collect(),
            q_d: (0..g).map(|k| unit(lay.d(k))).collect(),
            q3: unit(lay.c3()),
            q5: unit(lay.c3() + 2),
            units,
            tie,
        }
    }

    /// A tie digit of `t` as a bound counts it: `4·t` in the solver's scale, or nothing when
    /// the weights leave the tie out.
    pub(super) fn tw(&self, t: u64) -> W {
        if self.tie {
            small(4 * t)
        } else {
            W::zero()
        }
    }

    /// `A_x + A_y + 4·b` where `b` is the lower bound of the pair's cost that the pricing
    /// queries use (the hard rules, C0 and C4 left out): a lower bound of its reduced cost
    /// before the blossom term.
    pub(super) fn bound(&self, a: &[W], x: usize, y: usize) -> W {
        let p = self.p;
        let (x, y) = (x.min(y), x.max(y));
        let (ga, gb) = (p.group_of[x], p.group_of[y]);
        let (px, py) = (p.pos_in_group[x], p.pos_in_group[y]);
        let mut b = a[x].add(a[y]);
        if self.class[x] != 0 && self.class[x] == self.class[y] {
            b = b.add(self.q3);
        }
        if ga == gb {
            let dist = (py - px) as i64;
            let tie = match p.state.settings.within_group {
                WithinGroup::Slide => (dist - (p.group_size[ga] / 2) as i64).unsigned_abs(),
                WithinGroup::Adjacent => (dist - 1) as u64,
            };
            b.add(self.tw(tie))
        } else {
            b = b
                .add(self.cu[gb])
                .sub(self.cu[ga])
                .add(self.tw((p.group_size[ga] - 1 - px + py) as u64));
            for _ in 0..(p.group_score[ga] - p.group_score[gb]) {
                b = b.add(self.q_d[ga]);
            }
            for z in [x, y] {
                if p.infos[p.order[z]].floated_prev {
                    b = b.add(self.q5);
                }
            }
            b
        }
    }

    /// Every legal pair outside the graph with a negative reduced cost (or, with
    /// `first_only`, at most one: enough to know the certificate fails). The pairs inside a
    /// group and the floats are priced on two threads from [`PARALLEL_PRICING`] players;
    /// the pairs found, their order and the suspects counted are the same either way.
    pub(super) fn price(
        &self,
        duals: &Duals<W>,
        stats: &mut PricingStats,
        first_only: bool,
    ) -> Vec<(usize, usize, W)> {
        let n = self.p.order.len();
        let two_top = self.topw.add(self.topw);
        let a: Vec<W> = (0..n).map(|x| duals.vertex(x).sub(two_top)).collect();
        // Pairs inside one blossom also pay twice the duals of the blossoms holding both
        // (see [`Part`]): the queries use the lowest blossom holding x and a whole part.
        let tops = duals.top_blossoms(n);
        let (same, floats) = if n >= PARALLEL_PRICING {
            std::thread::scope(|scope| {
                let floats = scope.spawn(|| self.price_floats(duals, &a, &tops, first_only));
                (
                    self.price_groups(duals, &a, &tops, first_only),
                    floats.join().ok(),
                )
            })
        } else {
            (self.price_groups(duals, &a, &tops, first_only), None)
        };
        stats.suspects += same.suspects;
        if same.stopped {
            return same.out;
        }
        let floats = floats.unwrap_or_else(|| self.price_floats(duals, &a, &tops, first_only));
        stats.suspects += floats.suspects;
        let mut out = same.out;
        out.extend(floats.out);
        out
    }

    /// The exact check of suspected pairs: their legality and reduced cost.
    fn checker<'b>(
        &'b self,
        duals: &'b Duals<W>,
        a: &'b [W],
        first_only: bool,
    ) -> impl FnMut(&mut Vec<(usize, usize)>, &mut Priced<W>) -> bool + 'b {
        let p = self.p;
        let mut buf = Vec::new();
        move |suspects: &mut Vec<(usize, usize)>, priced: &mut Priced<W>| {
            priced.suspects += suspects.len();
            for (x, y) in suspects.drain(..) {
                // The query's bound with the exact blossom term first: most suspects end here,
                // before the pair's legality and cost are computed.
                let z = duals.common_z(x, y);
                if self.bound(a, x, y).add(z).add(z) >= W::zero() {
                    continue;
                }
                if p.pair_cost(self.lay, x, y, &mut buf) {
                    if !self.tie {
                        buf[self.lay.len() - 1] = 0;
                    }
                    let w = self.topw.sub(self.units.encode(&buf));
                    if duals.vertex_slack(x, y, w).add(z).add(z) < W::zero() {
                        priced.out.push((x, y, w));
                        if first_only {
                            priced.stopped = true;
                            return true;
                        }
                    }
                }
            }
            false
        }
    }

    /// The pairs inside one group (see [`Pricer::price`]).
    #[allow(clippy::needless_range_loop)]
    fn price_groups(
        &self,
        duals: &Duals<W>,
        a: &[W],
        tops: &[(usize, W)],
        first_only: bool,
    ) -> Priced<W> {
        let p = self.p;
        let slide = p.state.settings.within_group == WithinGroup::Slide;
        let mut suspects: Vec<(usize, usize)> = Vec::new();
        let mut found = Vec::new();
        let mut out = Priced::default();
        let g = p.group_size.len();
        let mut flush = self.checker(duals, a, first_only);
        // Same group.
        for k in 0..g {
            let size = p.group_size[k];
            let st = self.start[k];
            for kc in 0..3 {
                for part in parts(&self.members[k][kc], tops, duals) {
                    let list = &part.members;
                    let pos: Vec<usize> = list.iter().map(|&y| y - st).collect();
                    let k1: Vec<W> = list
                        .iter()
                        .zip(&pos)
                        .map(|(&y, &py)| a[y].add(self.tw(py as u64)))
                        .collect();
                    let k2: Vec<W> = list
                        .iter()
                        .zip(&pos)
                        .map(|(&y, &py)| a[y].sub(self.tw(py as u64)))
                        .collect();
                    let t1 = MinTree::new(&k1);
                    let t2 = MinTree::new(&k2);
                    for x in st..st + size {
                        let px = x - st;
                        let mut extra = if kc != 0 && self.class[x] as usize == kc {
                            self.q3
                        } else {
                            W::zero()
                        };
                        let z = part.blossom_z(x, tops, duals);
                        extra = extra.add(z).add(z);
                        // Violation suspected when A_x + extra + A_y + 4·tie < 0.
                        let t = W::zero().sub(a[x].add(extra));
                        let after = pos.partition_point(|&py| py <= px);
                        found.clear();
                        if slide {
                            let c = px + size / 2;
                            let mid = pos.partition_point(|&py| py < c).max(after);
                            t1.report(mid, pos.len(), t.add(self.tw(c as u64)), &mut found);
                            t2.report(after, mid, t.sub(self.tw(c as u64)), &mut found);
                        } else {
                            t1.report(
                                after,
                                pos.len(),
                                t.add(self.tw((px + 1) as u64)),
                                &mut found,
                            );
                        }
                        suspects.extend(found.iter().map(|&i| (x, list[i])));
                        if flush(&mut suspects, &mut out) {
                            return out;
                        }
                    }
                }
            }
        }
        out
    }

    /// The floats, x in a group above y's (see [`Pricer::price`]).
    #[allow(clippy::needless_range_loop)]
    fn price_floats(
        &self,
        duals: &Duals<W>,
        a: &[W],
        tops: &[(usize, W)],
        first_only: bool,
    ) -> Priced<W> {
        let p = self.p;
        let n = p.order.len();
        let mut suspects: Vec<(usize, usize)> = Vec::new();
        let mut out = Priced::default();
        let g = p.group_size.len();
        let mut flush = self.checker(duals, a, first_only);
        // Floats: x in group ga, y in a lower group gb. Per group and class, each part's
        // players sorted by the part of the bound that depends on y alone.
        let mut sorted: Vec<[Vec<KeyedPart<W>>; 3]> = Vec::with_capacity(g);
        for k in 0..g {
            let st = self.start[k];
            let mut per: [Vec<KeyedPart<W>>; 3] = Default::default();
            for (kc, slot) in per.iter_mut().enumerate() {
                for part in parts(&self.members[k][kc], tops, duals) {
                    let mut keyed: Vec<(W, usize)> = part
                        .members
                        .iter()
                        .map(|&y| {
                            let mut key = a[y].add(self.tw((y - st) as u64));
                            if p.infos[p.order[y]].floated_prev {
                                key = key.add(self.q5);
                            }
                            (key, y)
                        })
                        .collect();
                    keyed.sort();
                    slot.push((part, keyed));
                }
            }
            sorted.push(per);
        }
        for x in 0..n {
            let ga = p.group_of[x];
            let px = p.pos_in_group[x];
            let mut base = a[x]
                .sub(self.cu[ga])
                .add(self.tw((p.group_size[ga] - 1 - px) as u64));
            if p.infos[p.order[x]].floated_prev {
                base = base.add(self.q5);
            }
            for gb in ga + 1..g {
                let diff = (p.group_score[ga] - p.group_score[gb]) as u64;
                let mut bx = base.add(self.cu[gb]);
                for _ in 0..diff {
                    bx = bx.add(self.q_d[ga]);
                }
                for (kc, class_parts) in sorted[gb].iter().enumerate() {
                    let extra = if kc != 0 && self.class[x] as usize == kc {
                        self.q3
                    } else {
                        W::zero()
                    };
                    let t = W::zero().sub(bx.add(extra));
                    for (part, list) in class_parts {
                        let z = part.blossom_z(x, tops, duals);
                        let thr = t.sub(z).sub(z);
                        for &(key, y) in list {
                            if key >= thr {
                                break;
                            }
                            suspects.push((x, y));
                        }
                    }
                }
            }
            if flush(&mut suspects, &mut out) {
                return out;
            }
        }
        out
    }
}

/// What one half of the pricing found: the pairs, the suspects checked, and whether it
/// stopped at the first pair (`first_only`).
pub(super) struct Priced<W> {
    pub(super) out: Vec<(usize, usize, W)>,
    pub(super) suspects: usize,
    pub(super) stopped: bool,
}

impl<W> Default for Priced<W> {
    fn default() -> Self {
        Priced {
            out: Vec::new(),
            suspects: 0,
            stopped: false,
        }
    }
}

/// Players of one group and class as the pricing queries see them: those outside any
/// blossom in one part, those of each top-level blossom in a part of their own, with the
/// lowest blossom holding the whole part.
pub(super) struct Part {
    pub(super) members: Vec<usize>,
    /// Top-level blossom and the lowest blossom holding every member (`None` for the part
    /// of players outside any blossom).
    pub(super) blossom: Option<(usize, usize)>,
}

impl Part {
    /// A lower bound of the blossom term `Σ z` of any pair (x, y) with y in this part: the
    /// dual sum of the lowest blossom holding x and the whole part (every blossom holding x
    /// and y lies inside it).
    pub(super) fn blossom_z<W: Weight>(
        &self,
        x: usize,
        tops: &[(usize, W)],
        duals: &Duals<W>,
    ) -> W {
        match self.blossom {
            Some((top, low)) if tops[x].0 == top => {
                duals.lca(x, low).map_or(W::zero(), |b| duals.zsum(b))
            }
            _ => W::zero(),
        }
    }
}

/// A part with its members keyed and sorted for the float queries.
pub(super) type KeyedPart<W> = (Part, Vec<(W, usize)>);

/// Split `list` (ranking positions) into [`Part`]s, members in their original order.
pub(super) fn parts<W: Weight>(list: &[usize], tops: &[(usize, W)], duals: &Duals<W>) -> Vec<Part> {
    let mut single = Vec::new();
    let mut by_top: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &y in list {
        if tops[y].0 == y {
            single.push(y);
        } else {
            by_top.entry(tops[y].0).or_default().push(y);
        }
    }
    let mut out = Vec::with_capacity(by_top.len() + 1);
    if !single.is_empty() {
        out.push(Part {
            members: single,
            blossom: None,
        });
    }
    for (top, members) in by_top {
        let mut low = members[0];
        for &y in &members[1..] {
            low = duals.lca(low, y).unwrap_or(top);
        }
        out.push(Part {
            members,
            blossom: Some((top, low)),
        });
    }
    out
}
