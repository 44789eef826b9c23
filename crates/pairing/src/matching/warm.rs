//! Warm starts of the solver: greedy matching on tight edges from feasible duals, dual
//! re-centring, and the local repair of dual feasibility after edges are added.

use super::*;

impl<W: Weight> Solver<W> {
    /// Match free vertices joined by a tight edge, in vertex order.
    pub(super) fn match_tight_free(&mut self) {
        for v in 0..self.n {
            if self.mate[v] != NONE {
                continue;
            }
            let yv = self.y(v);
            for idx in self.neighbend.range(v) {
                let a = self.neighbend.at(idx);
                let (p, u) = (a.p(), a.to());
                if self.mate[u] == NONE && self.slack_at(yv, a) == W::zero() {
                    self.mate[v] = p;
                    self.mate[u] = p ^ 1;
                    break;
                }
            }
        }
    }

    pub(super) fn warm_start(&mut self) {
        let n = self.n;
        for v in 0..n {
            let best = self
                .neighbend
                .of(v)
                .iter()
                .map(|&a| self.weight(a.hi, a.lo))
                .max();
            if let Some(b) = best {
                self.dual[v] = b.half();
            }
        }
        self.greedy_start();
    }

    /// From feasible duals: match free pairs joined by a tight edge, lower each remaining
    /// free vertex's dual onto its nearest edge (taking it when the partner is free), then
    /// augment along tight paths free–matched–matched–free.
    pub(super) fn greedy_start(&mut self) {
        let n = self.n;
        self.match_tight_free();
        for v in 0..n {
            if self.mate[v] != NONE || self.neighbend.of(v).is_empty() {
                continue;
            }
            // Lower v's dual until an edge becomes tight, then take it if the partner is free.
            let mut best: Option<W> = None;
            let yv = self.y(v);
            for &a in self.neighbend.of(v) {
                let sl = self.slack_at(yv, a);
                if best.is_none_or(|b| sl < b) {
                    best = Some(sl);
                }
            }
            let Some(sl) = best else { continue };
            self.dual[v] = self.dual[v].sub(sl);
            let yv = self.y(v);
            for idx in self.neighbend.range(v) {
                let a = self.neighbend.at(idx);
                let (p, u) = (a.p(), a.to());
                if self.mate[u] == NONE && self.slack_at(yv, a) == W::zero() {
                    self.mate[v] = p;
                    self.mate[u] = p ^ 1;
                    break;
                }
            }
        }
        // Augment along tight paths free–matched–matched–free (the duals stay valid).
        for v in 0..n {
            if self.mate[v] != NONE {
                continue;
            }
            let yv = self.y(v);
            'outer: for idx in self.neighbend.range(v) {
                let a = self.neighbend.at(idx);
                let (p, u) = (a.p(), a.to());
                let mu = self.mate[u];
                if mu == NONE || self.slack_at(yv, a) != W::zero() {
                    continue;
                }
                let u2 = self.endpoint[mu] as usize;
                let yu2 = self.y(u2);
                for jdx in self.neighbend.range(u2) {
                    let b = self.neighbend.at(jdx);
                    let (q, w) = (b.p(), b.to());
                    if w != v && self.mate[w] == NONE && self.slack_at(yu2, b) == W::zero() {
                        self.mate[v] = p;
                        self.mate[u] = p ^ 1;
                        self.mate[u2] = q;
                        self.mate[w] = q ^ 1;
                        break 'outer;
                    }
                }
            }
        }
    }

    /// Re-centre the duals of matched pairs of plain vertices: `y_v += t`, `y_u −= t` keeps
    /// the pair tight and, with `t` half the difference of the two sides' smallest slacks,
    /// every edge of the graph feasible; the optimum is unchanged but the duals no longer
    /// push one player of a pair far down, so far fewer left-out pairs fail the certificate.
    pub(super) fn balance(&mut self) {
        let n = self.n;
        for v in 0..n {
            let p = self.mate[v];
            if p == NONE {
                continue;
            }
            let u = self.endpoint[p] as usize;
            if u < v || self.inb(v) != v || self.inb(u) != u {
                continue;
            }
            let side = |x: usize, other: usize| -> Option<W> {
                let mut m: Option<W> = None;
                let yx = self.y(x);
                for &a in self.neighbend.of(x) {
                    if a.to() == other {
                        continue;
                    }
                    let sl = self.slack_at(yx, a);
                    if m.is_none_or(|b| sl < b) {
                        m = Some(sl);
                    }
                }
                m
            };
            let (Some(sv), Some(su)) = (side(v, u), side(u, v)) else {
                continue;
            };
            // Moving t from u to v: v's edges gain t, u's lose t.
            if su > sv {
                let t = su.sub(sv).half();
                self.dual[v] = self.dual[v].add(t);
                self.dual[u] = self.dual[u].sub(t);
            } else if sv > su {
                let t = sv.sub(su).half();
                self.dual[v] = self.dual[v].sub(t);
                self.dual[u] = self.dual[u].add(t);
            }
        }
    }

    /// Dissolve top-level blossom `b` completely: every nested blossom dual is moved onto
    /// the vertices below it (edges inside stay feasible, inner matched edges tight), then
    /// matched edges that lost tightness (at most the base pair) are unmatched.
    pub(super) fn dissolve(&mut self, b: usize) {
        let leaves = self.leaves_of(b);
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                continue;
            }
            let z = self.dual[x];
            if z != W::zero() {
                for v in self.leaves_of(x) {
                    self.dual[v] = self.dual[v].add(z);
                }
                self.dual[x] = W::zero();
            }
            stack.extend(self.childs[x].iter().copied());
        }
        self.expand_blossom(b, true);
        for v in leaves {
            let p = self.mate[v];
            if p != NONE && self.slack(p / 2) != W::zero() {
                let u = self.endpoint[p] as usize;
                self.mate[v] = NONE;
                self.mate[u] = NONE;
            }
        }
    }

    /// Unmatch top-level vertex `v` (and its mate) and raise its dual until every edge at
    /// `v` is feasible.
    pub(super) fn free_and_raise(&mut self, v: usize) {
        let p = self.mate[v];
        if p != NONE {
            let u = self.endpoint[p] as usize;
            self.mate[v] = NONE;
            self.mate[u] = NONE;
        }
        let mut need = self.dual[v];
        for &a in self.neighbend.of(v) {
            let x = self.weight(a.hi, a.lo).sub(self.dual[a.to()]);
            if x > need {
                need = x;
            }
        }
        self.dual[v] = need;
    }
}
