//! Perfect matching re-solved after edges are added (column generation): the solver kept
//! between solves, warm-started from the previous matching and duals.

use super::*;

/// Passes of dual re-centring after each solve (see `Solver::balance`).
pub(super) const BALANCE_PASSES: usize = 2;

/// A maximum-weight perfect matching that can be re-solved after edges are added, starting
/// from the previous matching and duals instead of from scratch (column generation).
///
/// [`IncrementalPerfect::add_edges`] restores dual feasibility locally: for each added edge
/// whose reduced cost is negative, the top-level blossom of one endpoint is dissolved (its
/// blossom duals moved onto its vertices, which keeps every edge inside it feasible and its
/// inner matched edges tight; only its base pair may lose tightness and is unmatched), then
/// that endpoint is unmatched and its dual raised until all its edges are feasible (a
/// perfect-matching LP leaves vertex duals free in sign). The next [`IncrementalPerfect::solve`]
/// only has to re-match the freed vertices.
pub struct IncrementalPerfect<W: Weight> {
    n: usize,
    solver: Option<Solver<W>>,
}

impl<W: Weight> IncrementalPerfect<W> {
    /// Prepare the graph on vertices `0..n` (nothing is solved yet).
    pub fn new(n: usize, edges: &[(usize, usize, W)]) -> Self {
        Self::split(n, edges, None, None)
    }

    /// Solve (or re-solve after [`IncrementalPerfect::add_edges`]): each vertex's mate and
    /// the optimal duals, `None` when the graph has no perfect matching.
    pub fn solve(&mut self) -> Option<(Vec<usize>, Duals<W>)> {
        let n = self.n;
        let Some(s) = self.solver.as_mut() else {
            return (n == 0).then(|| (Vec::new(), Duals::new(Vec::new(), Vec::new(), Vec::new())));
        };
        s.cursor = 0;
        s.run(true);
        if !s.mate.contains(&NONE) {
            for _ in 0..BALANCE_PASSES {
                s.balance();
            }
        }
        let mate: Vec<usize> = s
            .mate
            .iter()
            .map(|&p| {
                if p == NONE {
                    NONE
                } else {
                    s.endpoint[p] as usize
                }
            })
            .collect();
        if mate.contains(&NONE) {
            return None;
        }
        let mut parent = s.parent.clone();
        for (b, p) in parent.iter_mut().enumerate().skip(n) {
            // Unused blossom slots keep stale links; only live blossoms (with a base) count.
            if s.base[b] == NONE {
                *p = NONE;
            }
        }
        let mut blossom = s.dual.clone();
        for z in blossom.iter_mut().take(n) {
            // Entries below n are vertex duals, not blossom duals.
            *z = W::zero();
        }
        let duals = Duals::new(s.dual[..n].to_vec(), parent, blossom);
        Some((mate, duals))
    }

    /// [`IncrementalPerfect::new`] for edges of weight `high − lows[k]`, given as a `high`
    /// part that many edges share and a small `low` part per edge (`None`: all zero; a
    /// missing entry counts as zero). The solver keeps one copy of each distinct `high` and
    /// 8 bytes per edge instead of a wide weight per edge.
    ///
    /// It starts from the greedy duals or, with `init` (one per vertex, in the scale of
    /// [`Duals`]), from those; `init` must be feasible for every edge: `init_i + init_j ≥
    /// 4w`. A lexicographic objective can so be solved top part first: the flattened optimal
    /// duals ([`Duals::flattened`]) of the graph with the last digits dropped (weights never
    /// lower than the full ones) are feasible for the full graph and already carry its coarse
    /// structure.
    pub fn split(
        n: usize,
        high: &[(usize, usize, W)],
        lows: Option<&[u64]>,
        init: Option<&[W]>,
    ) -> Self {
        Self::build(n, high, lows, init, None)
    }

    /// [`IncrementalPerfect::split`], each vertex's edges sorted by `prefer` first when given
    /// (see [`IncrementalPerfect::preferring`]).
    pub(super) fn build(
        n: usize,
        high: &[(usize, usize, W)],
        lows: Option<&[u64]>,
        init: Option<&[W]>,
        prefer: Option<&[u64]>,
    ) -> Self {
        let mut me = Self::unstarted(n, high, lows);
        if let Some(s) = me.solver.as_mut() {
            if let Some(prefer) = prefer.filter(|q| q.len() == high.len()) {
                for v in 0..n {
                    s.neighbend
                        .of_mut(v)
                        .sort_by_key(|&a| (prefer[a.k()], a.k()));
                }
            }
        }
        match init.filter(|d| d.len() == n) {
            Some(d) => me.start_from(d),
            None => me.start_warm(),
        }
        me
    }

    /// Start from the solver's own warm start: each vertex's dual half its heaviest edge and
    /// a greedy matching on the tight edges.
    pub fn start_warm(&mut self) {
        if let Some(s) = self.solver.as_mut() {
            s.warm_start();
            s.single_tree = true;
        }
    }

    /// The graph of [`IncrementalPerfect::split`] built, not yet started: give it its
    /// starting duals with [`IncrementalPerfect::start_from`] before solving. Building
    /// needs no duals, so it can run beside the solve that gives them.
    pub fn unstarted(n: usize, high: &[(usize, usize, W)], lows: Option<&[u64]>) -> Self {
        if n == 0 || n % 2 == 1 || high.is_empty() {
            return IncrementalPerfect { n, solver: None };
        }
        // Doubled weights keep every dual even after the warm start, so all free vertices
        // share one parity and the slack of an edge between two S-vertices stays even. The
        // solver stores what a slack subtracts: twice the doubled weight, 4w.
        let four = |w: W| {
            let w2 = w.add(w);
            w2.add(w2)
        };
        let parts = high.iter().enumerate().map(|(k, &(i, j, w))| {
            let low = lows.and_then(|l| l.get(k)).copied().unwrap_or(0);
            match u32::try_from(low.saturating_mul(4)) {
                Ok(l4) => (i, j, four(w), l4),
                // Too large to keep apart: the whole weight gets its own table entry.
                Err(_) => (i, j, four(w.sub(W::zero().mul_add(1, low))), 0),
            }
        });
        let degree = solver::degrees(n, high.iter().map(|&(i, j, _)| (i, j)));
        let s = Solver::from_parts(n, high.len(), &degree, parts);
        IncrementalPerfect { n, solver: Some(s) }
    }

    /// The graph of [`IncrementalPerfect::unstarted`]`(n, high, Some(lows))`, made from this
    /// one, built by `unstarted(n, high, None)` and not yet started, without building it
    /// again: the same edges in the same lists and the same table of high parts, each edge
    /// given its low part. `None` when a low part is too large to be kept apart (that edge
    /// would have a table entry of its own) or `lows` does not give one per edge.
    pub fn with_lows(&self, lows: &[u64]) -> Option<Self> {
        let Some(s) = self.solver.as_ref() else {
            return Some(IncrementalPerfect {
                n: self.n,
                solver: None,
            });
        };
        if lows.len() != s.widx.len() {
            return None;
        }
        // As in `unstarted`: the solver stores four times the low part.
        let low4: Vec<u32> = lows
            .iter()
            .map(|&l| u32::try_from(l.saturating_mul(4)).ok())
            .collect::<Option<_>>()?;
        let mut t = s.clone();
        for a in t.neighbend.list.iter_mut() {
            a.lo = low4[a.k()];
        }
        t.wlow = low4;
        // The starting duals of `from_parts`, from the weights with their low parts.
        let maxw = (0..t.widx.len())
            .map(|k| t.wt(k))
            .max()
            .unwrap_or(W::zero());
        for d in t.dual.iter_mut().take(t.n) {
            *d = maxw.half();
        }
        Some(IncrementalPerfect {
            n: self.n,
            solver: Some(t),
        })
    }

    /// Start from `init` (one dual per vertex, feasible for every edge, see
    /// [`IncrementalPerfect::split`]) and a greedy matching on its tight edges; with a
    /// wrong length, from the solver's own warm start.
    pub fn start_from(&mut self, init: &[W]) {
        let n = self.n;
        let Some(s) = self.solver.as_mut() else {
            return;
        };
        if init.len() == n {
            s.dual[..n].copy_from_slice(init);
            s.greedy_start();
        } else {
            s.warm_start();
        }
        s.single_tree = true;
    }

    /// [`IncrementalPerfect::new`], with each vertex trying its edges in increasing order
    /// of `prefer` (one per edge; ties in edge order): the greedy start then takes the most
    /// preferred of the tight edges, and the optimum found among equal ones leans the same
    /// way. The optimum's weight is the same whatever the preference.
    pub fn preferring(n: usize, edges: &[(usize, usize, W)], prefer: &[u64]) -> Self {
        Self::build(n, edges, None, None, Some(prefer))
    }

    /// Add edges (vertices must be `< n`) and repair the duals so that the next
    /// [`IncrementalPerfect::solve`] starts from a dual-feasible state.
    pub fn add_edges(&mut self, extra: &[(usize, usize, W)]) {
        let Some(s) = self.solver.as_mut() else {
            return;
        };
        for &(i, j, w) in extra {
            let w2 = w.add(w);
            s.push_edge(i, j, w2.add(w2), 0);
        }
        s.neighbend.flush();
        let first = s.widx.len() - extra.len();
        for k in first..s.widx.len() {
            let (i, j) = s.ends(k);
            if s.inb(i) == s.inb(j) || s.slack(k) < W::zero() {
                // Pick the endpoint that is not inside a blossom when there is one.
                let v = if s.inb(i) == i {
                    i
                } else if s.inb(j) == j {
                    j
                } else {
                    i
                };
                if s.inb(v) != v {
                    s.dissolve(s.inb(v));
                }
                if s.slack(k) < W::zero() {
                    s.free_and_raise(v);
                }
            }
        }
    }
}
