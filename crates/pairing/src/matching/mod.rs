//! Maximum-weight matching in general graphs (Edmonds' blossom algorithm, primal-dual form
//! with the bookkeeping of Galil's survey), written for this crate. Dual steps are lazy: the
//! next step comes from a priority queue of candidates and moves every dual of the tree at
//! once through a stage offset, so a step costs O(log n) instead of O(tree size).
//!
//! Weights are any exact [`Weight`] type, so a lexicographic objective can be encoded as one
//! wide integer without rounding. Dual variables are kept doubled, so every quantity stays
//! integral.

pub mod wide;

pub use wide::{Weight, Wide};

const NONE: usize = usize::MAX;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Candidate edges keyed by slack: a min-heap of `(key, edge)`.
type EdgeHeap<W> = BinaryHeap<Reverse<(W, usize)>>;

struct Solver<W: Weight> {
    n: usize,
    /// Edge `k`'s weight as a slack subtracts it (2w, or 4w in perfect mode):
    /// `table[widx[k]] − wlow[k]`. Edges whose weights differ only in a small last part
    /// (the tie of a Swiss pair) share a table entry, so an edge takes 8 bytes here instead
    /// of a wide weight, and the scans stay in cache on large graphs.
    table: Vec<W>,
    widx: Vec<u32>,
    wlow: Vec<u32>,
    intern: HashMap<W, u32>,
    /// Edge `k` joins `endpoint[2k]` and `endpoint[2k + 1]`.
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    /// Top-level blossoms through slots: vertex `v` lies in top-level blossom
    /// `owner[slot[v]]`. A new blossom takes over the slot of its largest child and an
    /// expanded one hands its slot to that child, so only the vertices of the other
    /// children move: blossoms nest hundreds of levels deep around a few large ones.
    slot: Vec<usize>,
    owner: Vec<usize>,
    /// Per vertex / blossom: the slot its vertices use while it is top-level.
    slot_of: Vec<usize>,
    /// Per blossom: the child whose slot it took; per vertex / blossom: its vertex count.
    heir: Vec<usize>,
    size: Vec<usize>,
    /// Per slot: how far the duals of its vertices have moved (`acc + sgn·delta`, see
    /// [`Solver::delta`]); a vertex stores its dual minus that.
    acc: Vec<W>,
    sgn: Vec<i8>,
    /// Slots with a non-zero `sgn` in this stage.
    moving: Vec<usize>,
    parent: Vec<usize>,
    childs: Vec<Vec<usize>>,
    base: Vec<usize>,
    endps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    /// Per node with a best edge: that edge's slack plus δ (vertex, edge from an S-vertex)
    /// or plus 2δ (S-blossom, edge to another S-blossom) when it was set. Both stay put
    /// while the node stays as it is (a vertex outside any T-blossom; refreshed when a
    /// T-blossom is expanded), so a new edge is compared without recomputing the slack of
    /// the old one.
    bestkey: Vec<W>,
    /// Per S-blossom formed in this stage: its edges to other S-blossoms at the time, as a
    /// min-heap keyed by slack + 2δ (which stays put while both ends are S); entries whose
    /// far end has since joined the blossom are dropped when they reach the top. Nested
    /// blossoms merge small heaps into large ones, and no slack is computed twice.
    bestedges: Vec<Option<EdgeHeap<W>>>,
    unused: Vec<usize>,
    dual: Vec<W>,
    allow: Vec<bool>,
    queue: Vec<usize>,
    /// Vertices/blossoms whose label or best edge was set in this stage.
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    allowed: Vec<usize>,
    buf: Vec<usize>,
    /// Grow one alternating tree per stage (perfect-matching mode): work stays local.
    single_tree: bool,
    cursor: usize,
    /// Lazy dual updates. Within a stage every dual step moves the duals of S-vertices down
    /// and T-vertices up by δ (top-level blossoms the other way). Instead of touching the
    /// whole tree at each step, `delta` accumulates the steps of the stage; vertices move
    /// with their slot (`acc`, `sgn`) and a blossom with `sign` ±1 holds `z − sign·delta`
    /// (see [`Solver::y`]), written back when its label changes and at the end of the stage.
    delta: W,
    sign: Vec<i8>,
    /// Candidates for the next dual step, keyed by `value + delta` (every candidate value
    /// falls by exactly δ per step, so keys stay put): `(key, kind, vertex or blossom,
    /// edge)` with kind 2 (edge from the tree to an unlabelled vertex), 3 (edge between two
    /// S-blossoms, value half its slack) and 4 (dual of a T-blossom). Entries are checked
    /// when they reach the top and dropped or re-keyed when stale.
    steps: BinaryHeap<Reverse<(W, u8, usize, usize)>>,
}

/// Maximum-weight matching of the graph on vertices `0..n` with the given edges. With
/// `max_cardinality`, the maximum-weight matching among those of maximum cardinality.
/// Returns each vertex's mate. Deterministic: same input, same output.
pub fn max_weight_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    // The solver stores what a slack subtracts: here 2w (duals start at the largest w).
    let mut s = Solver::new(n, edges.iter().map(|&(i, j, w)| (i, j, w.add(w))).collect());
    s.run(max_cardinality);
    s.mate
        .iter()
        .map(|&p| (p != NONE).then(|| s.endpoint[p]))
        .collect()
}

/// Maximum-weight PERFECT matching: `None` when the graph has none. Starts from a greedy
/// matching on tight edges with per-vertex dual variables (valid because a perfect matching
/// leaves the vertex duals unconstrained in sign), which saves most augmentation stages
/// when, as in Swiss pairing, most vertices have an obvious best partner.
pub fn max_weight_perfect_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Option<Vec<usize>> {
    max_weight_perfect_matching_with_duals(n, edges).map(|(mate, _)| mate)
}

/// The optimal dual solution of a perfect matching, kept in the solver's scale: vertex
/// duals `y` and blossom duals `z ≥ 0` with, for every edge `(i, j, w)` of the solved graph,
/// `y_i + y_j − 4w + 2·Σ z_B (B ∋ i, j) ≥ 0`, equality on matched edges. By LP duality the
/// matching is optimal for ANY larger graph whose extra edges also satisfy this inequality
/// (see [`Duals::slack`]); that is the certificate the Swiss engine checks for edges it
/// left out of a restricted graph.
#[derive(Debug, Clone)]
pub struct Duals<W: Weight> {
    vertex: Vec<W>,
    /// Per vertex / blossom: the blossom directly containing it (`usize::MAX` = none).
    parent: Vec<usize>,
    blossom: Vec<W>,
    /// Per vertex / blossom: the sum of the blossom duals from it up to its top-level
    /// blossom (a vertex's own entry counts only if ≥ n).
    zsum: Vec<W>,
    /// Per vertex / blossom: its top-level blossom (itself at top level).
    top: Vec<usize>,
    /// Euler-tour entry and exit times of the blossom forest: `a` contains `b` exactly when
    /// `tin[a] <= tin[b] && tout[b] <= tout[a]`.
    tin: Vec<u32>,
    tout: Vec<u32>,
    /// Binary lifting: `up[k][v]` is the ancestor `2^k` levels above `v` (the top-level
    /// node itself when there are fewer levels), so the lowest common blossom of two
    /// vertices takes O(log depth) steps however deeply blossoms nest.
    up: Vec<Vec<u32>>,
}

impl<W: Weight> Duals<W> {
    /// `y_i + y_j − 4w`: a lower bound of [`Duals::slack`] (blossom duals are ≥ 0).
    pub fn vertex_slack(&self, i: usize, j: usize, w: W) -> W {
        let w2 = w.add(w);
        self.vertex[i].add(self.vertex[j]).sub(w2.add(w2))
    }

    /// Reduced cost of an edge `(i, j)` of weight `w` (need not be in the solved graph):
    /// negative exactly when adding that edge would violate dual feasibility.
    pub fn slack(&self, i: usize, j: usize, w: W) -> W {
        let z = self.common_z(i, j);
        self.vertex_slack(i, j, w).add(z).add(z)
    }

    fn contains(&self, a: usize, b: usize) -> bool {
        self.tin[a] <= self.tin[b] && self.tout[b] <= self.tout[a]
    }

    /// The sum of the duals of every blossom holding both vertices `i` and `j` (zero when
    /// none does): [`Duals::slack`] is `vertex_slack + 2·common_z`.
    pub fn common_z(&self, i: usize, j: usize) -> W {
        if i == j {
            return W::zero();
        }
        self.lca(i, j).map_or(W::zero(), |b| self.zsum[b])
    }

    /// The lowest node (vertex or blossom) of the blossom forest containing both nodes `a`
    /// and `b`, `None` when they lie in different top-level trees. For vertices `i != j` it
    /// is the lowest blossom holding both.
    pub fn lca(&self, a: usize, b: usize) -> Option<usize> {
        if self.top[a] != self.top[b] {
            return None;
        }
        if self.contains(a, b) {
            return Some(a);
        }
        // Climb from a to the highest ancestor that does not contain b; its parent is the
        // lowest common node.
        let mut x = a;
        for level in self.up.iter().rev() {
            let u = level[x] as usize;
            if !self.contains(u, b) {
                x = u;
            }
        }
        let l = self.parent[x];
        (l != NONE).then_some(l)
    }

    /// The sum of the duals of node `b` (a blossom's own dual; zero for a vertex) and of
    /// every blossom above it: the blossom term of a pair whose lowest common blossom is `b`.
    pub fn zsum(&self, b: usize) -> W {
        self.zsum[b]
    }

    /// Vertex `v`'s dual with every blossom dual around it added: these vertex duals alone
    /// (no blossoms) are still feasible for every edge the full duals are feasible for, since
    /// `y_i + z_B` and `y_j + z_B` together cover the `2·z_B` of a pair inside `B`.
    pub fn flattened(&self, v: usize) -> W {
        self.vertex[v].add(self.zsum[v])
    }

    fn new(vertex: Vec<W>, parent: Vec<usize>, blossom: Vec<W>) -> Self {
        let len = parent.len();
        let mut depth = vec![u32::MAX; len];
        let mut zsum = vec![W::zero(); len];
        let mut top: Vec<usize> = (0..len).collect();
        let mut path = Vec::new();
        for v in 0..len {
            let mut b = v;
            while depth[b] == u32::MAX && parent[b] != NONE {
                path.push(b);
                b = parent[b];
            }
            if depth[b] == u32::MAX {
                // A top-level node.
                depth[b] = 0;
                zsum[b] = blossom.get(b).copied().unwrap_or(W::zero());
            }
            while let Some(x) = path.pop() {
                let p = parent[x];
                depth[x] = depth[p] + 1;
                top[x] = top[p];
                zsum[x] = blossom.get(x).copied().unwrap_or(W::zero()).add(zsum[p]);
            }
        }
        // Euler tour of the forest.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); len];
        for (v, &p) in parent.iter().enumerate() {
            if p != NONE {
                children[p].push(v);
            }
        }
        let mut tin = vec![0u32; len];
        let mut tout = vec![0u32; len];
        let mut clock = 0u32;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for r in (0..len).filter(|&v| parent[v] == NONE) {
            tin[r] = clock;
            clock += 1;
            stack.push((r, 0));
            while let Some(top_entry) = stack.last_mut() {
                let (v, i) = *top_entry;
                if let Some(&c) = children[v].get(i) {
                    top_entry.1 += 1;
                    tin[c] = clock;
                    clock += 1;
                    stack.push((c, 0));
                } else {
                    tout[v] = clock;
                    stack.pop();
                }
            }
        }
        let max_depth = depth.iter().copied().max().unwrap_or(0);
        let levels = (32 - max_depth.leading_zeros()).max(1) as usize;
        let mut up: Vec<Vec<u32>> = Vec::with_capacity(levels);
        up.push(
            (0..len)
                .map(|v| if parent[v] == NONE { v } else { parent[v] } as u32)
                .collect(),
        );
        for k in 1..levels {
            let prev = &up[k - 1];
            let next: Vec<u32> = (0..len).map(|v| prev[prev[v] as usize]).collect();
            up.push(next);
        }
        Duals {
            vertex,
            parent,
            blossom,
            zsum,
            top,
            tin,
            tout,
            up,
        }
    }

    /// For each vertex `0..n`, the dual `z` of its top-level blossom (zero when it is in
    /// none) and an id of that blossom (the vertex itself when none): two vertices with the
    /// same id have a reduced cost at least `vertex_slack + 2·z`.
    pub fn top_blossoms(&self, n: usize) -> Vec<(usize, W)> {
        let mut memo = vec![NONE; self.parent.len()];
        let mut out = Vec::with_capacity(n);
        let mut path = Vec::new();
        for v in 0..n {
            let mut b = v;
            while self.parent[b] != NONE && memo[b] == NONE {
                path.push(b);
                b = self.parent[b];
            }
            let t = if memo[b] != NONE { memo[b] } else { b };
            for x in path.drain(..) {
                memo[x] = t;
            }
            let z = if t >= self.vertex.len() {
                self.blossom[t]
            } else {
                W::zero()
            };
            out.push((t, z));
        }
        out
    }

    /// `y_v` (solver scale: four times the LP dual of the original weights).
    pub fn vertex(&self, v: usize) -> W {
        self.vertex[v]
    }
}

/// [`max_weight_perfect_matching`] that also returns the optimal duals.
pub fn max_weight_perfect_matching_with_duals<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Option<(Vec<usize>, Duals<W>)> {
    IncrementalPerfect::new(n, edges).solve()
}

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
/// Passes of dual re-centring after each solve (see `Solver::balance`).
const BALANCE_PASSES: usize = 2;

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
            .map(|&p| if p == NONE { NONE } else { s.endpoint[p] })
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
    fn build(
        n: usize,
        high: &[(usize, usize, W)],
        lows: Option<&[u64]>,
        init: Option<&[W]>,
        prefer: Option<&[u64]>,
    ) -> Self {
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
        let mut s = Solver::from_parts(n, high.len(), parts);
        if let Some(prefer) = prefer.filter(|q| q.len() == high.len()) {
            for ends in s.neighbend.iter_mut() {
                ends.sort_by_key(|&p| (prefer[p / 2], p / 2));
            }
        }
        match init.filter(|d| d.len() == n) {
            Some(d) => {
                s.dual[..n].copy_from_slice(d);
                s.greedy_start();
            }
            None => s.warm_start(),
        }
        s.single_tree = true;
        IncrementalPerfect { n, solver: Some(s) }
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

impl<W: Weight> Solver<W> {
    /// Match free vertices joined by a tight edge, in vertex order.
    fn match_tight_free(&mut self) {
        for v in 0..self.n {
            if self.mate[v] != NONE {
                continue;
            }
            for idx in 0..self.neighbend[v].len() {
                let p = self.neighbend[v][idx];
                let u = self.endpoint[p];
                if self.mate[u] == NONE && self.slack(p / 2) == W::zero() {
                    self.mate[v] = p;
                    self.mate[u] = p ^ 1;
                    break;
                }
            }
        }
    }

    fn warm_start(&mut self) {
        let n = self.n;
        for v in 0..n {
            let best = self.neighbend[v].iter().map(|&p| self.wt(p / 2)).max();
            if let Some(b) = best {
                self.dual[v] = b.half();
            }
        }
        self.greedy_start();
    }

    /// From feasible duals: match free pairs joined by a tight edge, lower each remaining
    /// free vertex's dual onto its nearest edge (taking it when the partner is free), then
    /// augment along tight paths free–matched–matched–free.
    fn greedy_start(&mut self) {
        let n = self.n;
        self.match_tight_free();
        for v in 0..n {
            if self.mate[v] != NONE || self.neighbend[v].is_empty() {
                continue;
            }
            // Lower v's dual until an edge becomes tight, then take it if the partner is free.
            let mut best: Option<(W, usize)> = None;
            for &p in &self.neighbend[v] {
                let sl = self.slack(p / 2);
                if best.is_none_or(|(b, _)| sl < b) {
                    best = Some((sl, p));
                }
            }
            let Some((sl, _)) = best else { continue };
            self.dual[v] = self.dual[v].sub(sl);
            for idx in 0..self.neighbend[v].len() {
                let p = self.neighbend[v][idx];
                let u = self.endpoint[p];
                if self.mate[u] == NONE && self.slack(p / 2) == W::zero() {
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
            'outer: for idx in 0..self.neighbend[v].len() {
                let p = self.neighbend[v][idx];
                let u = self.endpoint[p];
                let mu = self.mate[u];
                if mu == NONE || self.slack(p / 2) != W::zero() {
                    continue;
                }
                let u2 = self.endpoint[mu];
                for jdx in 0..self.neighbend[u2].len() {
                    let q = self.neighbend[u2][jdx];
                    let w = self.endpoint[q];
                    if w != v && self.mate[w] == NONE && self.slack(q / 2) == W::zero() {
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
    fn balance(&mut self) {
        let n = self.n;
        for v in 0..n {
            let p = self.mate[v];
            if p == NONE {
                continue;
            }
            let u = self.endpoint[p];
            if u < v || self.inb(v) != v || self.inb(u) != u {
                continue;
            }
            let side = |x: usize, other: usize| -> Option<W> {
                let mut m: Option<W> = None;
                for &q in &self.neighbend[x] {
                    if self.endpoint[q] == other {
                        continue;
                    }
                    let sl = self.slack(q / 2);
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
    fn dissolve(&mut self, b: usize) {
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
                let u = self.endpoint[p];
                self.mate[v] = NONE;
                self.mate[u] = NONE;
            }
        }
    }

    /// Unmatch top-level vertex `v` (and its mate) and raise its dual until every edge at
    /// `v` is feasible.
    fn free_and_raise(&mut self, v: usize) {
        let p = self.mate[v];
        if p != NONE {
            let u = self.endpoint[p];
            self.mate[v] = NONE;
            self.mate[u] = NONE;
        }
        let mut need = self.dual[v];
        for &q in &self.neighbend[v] {
            let u = self.endpoint[q];
            let x = self.wt(q / 2).sub(self.dual[u]);
            if x > need {
                need = x;
            }
        }
        self.dual[v] = need;
    }

    fn new(n: usize, edges: Vec<(usize, usize, W)>) -> Self {
        let m = edges.len();
        Self::from_parts(n, m, edges.into_iter().map(|(i, j, w)| (i, j, w, 0)))
    }

    /// A solver over edges `(i, j, high, low)` of stored weight `high − low`.
    fn from_parts(n: usize, m: usize, parts: impl Iterator<Item = (usize, usize, W, u32)>) -> Self {
        let mut s = Self::empty(n, m);
        for (i, j, high, low) in parts {
            s.push_edge(i, j, high, low);
        }
        let maxw = (0..s.widx.len())
            .map(|k| s.wt(k))
            .max()
            .unwrap_or(W::zero());
        for d in s.dual.iter_mut().take(n) {
            *d = maxw.half();
        }
        s
    }

    /// Add edge `(i, j)` of stored weight `high − low`.
    fn push_edge(&mut self, i: usize, j: usize, high: W, low: u32) {
        let k = self.widx.len();
        let next = self.table.len() as u32;
        let idx = *self.intern.entry(high).or_insert(next);
        if idx == next {
            self.table.push(high);
        }
        self.widx.push(idx);
        self.wlow.push(low);
        self.endpoint.push(i);
        self.endpoint.push(j);
        self.neighbend[i].push(2 * k + 1);
        self.neighbend[j].push(2 * k);
        self.allow.push(false);
    }

    /// Edge `k`'s stored weight (see [`Solver::table`]).
    #[inline(always)]
    fn wt(&self, k: usize) -> W {
        let high = self.table[self.widx[k] as usize];
        match self.wlow[k] {
            0 => high,
            low => high.sub(W::zero().mul_add(1, u64::from(low))),
        }
    }

    /// Whether edge `k` joins blossom `b` to another top-level S-blossom.
    fn leads_out(&self, k: usize, b: usize) -> bool {
        let (i, j) = self.ends(k);
        let (bi, bj) = (self.inb(i), self.inb(j));
        (bi == b) != (bj == b) && self.label[if bi == b { bj } else { bi }] == 1
    }

    /// Edge `k`'s endpoints.
    #[inline(always)]
    fn ends(&self, k: usize) -> (usize, usize) {
        (self.endpoint[2 * k], self.endpoint[2 * k + 1])
    }

    fn empty(n: usize, m: usize) -> Self {
        let mut dual = vec![W::zero(); n];
        dual.extend(std::iter::repeat_n(W::zero(), n));
        Solver {
            n,
            table: Vec::new(),
            widx: Vec::with_capacity(m),
            wlow: Vec::with_capacity(m),
            intern: HashMap::new(),
            endpoint: Vec::with_capacity(2 * m),
            neighbend: vec![Vec::new(); n],
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            slot: (0..n).collect(),
            owner: (0..2 * n).collect(),
            slot_of: (0..2 * n).collect(),
            heir: vec![NONE; 2 * n],
            size: vec![1; 2 * n],
            acc: vec![W::zero(); 2 * n],
            sgn: vec![0; 2 * n],
            moving: Vec::new(),
            parent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            endps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            bestkey: vec![W::zero(); 2 * n],
            bestedges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allow: Vec::with_capacity(m),
            queue: Vec::new(),
            touched: Vec::new(),
            is_touched: vec![false; 2 * n],
            allowed: Vec::new(),
            buf: Vec::new(),
            single_tree: false,
            cursor: 0,
            delta: W::zero(),
            sign: vec![0; 2 * n],
            steps: BinaryHeap::new(),
        }
    }

    /// The top-level blossom (or the vertex itself) holding vertex `v`.
    #[inline(always)]
    fn inb(&self, v: usize) -> usize {
        self.owner[self.slot[v]]
    }

    /// How far the duals of the vertices in slot `s` have moved.
    #[inline(always)]
    fn off(&self, s: usize) -> W {
        match self.sgn[s] {
            0 => self.acc[s],
            1 => self.acc[s].add(self.delta),
            _ => self.acc[s].sub(self.delta),
        }
    }

    /// Move vertex `v` to slot `to`, keeping its dual.
    fn move_vertex(&mut self, v: usize, to: usize) {
        let from = self.slot[v];
        if from != to {
            self.dual[v] = self.dual[v].add(self.off(from)).sub(self.off(to));
            self.slot[v] = to;
        }
    }

    /// Set the direction the duals of slot `s` move at each dual step (S −1, T +1).
    fn set_slot_sign(&mut self, s: usize, sg: i8) {
        if self.sgn[s] == sg {
            return;
        }
        let o = self.off(s);
        self.sgn[s] = sg;
        self.acc[s] = match sg {
            0 => o,
            1 => o.sub(self.delta),
            _ => o.add(self.delta),
        };
        if sg != 0 {
            self.moving.push(s);
        }
    }

    /// The current dual of vertex or blossom `x` (see [`Solver::delta`]).
    #[inline(always)]
    fn y(&self, x: usize) -> W {
        if x < self.n {
            return self.dual[x].add(self.off(self.slot[x]));
        }
        match self.sign[x] {
            0 => self.dual[x],
            1 => self.dual[x].add(self.delta),
            _ => self.dual[x].sub(self.delta),
        }
    }

    /// Write every vertex dual back into `dual` (after a run; slots start from zero again).
    fn normalize(&mut self) {
        for v in 0..self.n {
            self.dual[v] = self.dual[v].add(self.acc[self.slot[v]]);
        }
        for a in self.acc.iter_mut() {
            *a = W::zero();
        }
    }

    /// The slot sign of a top-level blossom or vertex from its label.
    fn label_sign(&self, b: usize) -> i8 {
        match self.label[b] {
            1 => -1,
            2 => 1,
            _ => 0,
        }
    }

    /// Give blossom `x` a new sign (the direction its dual moves at each dual step), keeping
    /// its current dual.
    fn set_sign(&mut self, x: usize, sign: i8) {
        if self.sign[x] == sign {
            return;
        }
        let y = self.y(x);
        self.sign[x] = sign;
        self.dual[x] = match sign {
            0 => y,
            1 => y.sub(self.delta),
            _ => y.add(self.delta),
        };
        if sign != 0 && x >= self.n {
            self.touch(x);
        }
    }

    /// The sign a blossom gets: top-level S-blossoms rise, T-blossoms fall.
    fn blossom_sign(&self, b: usize) -> i8 {
        if self.parent[b] != NONE || self.base[b] == NONE {
            return 0;
        }
        match self.label[b] {
            1 => 1,
            2 => -1,
            _ => 0,
        }
    }

    fn push_step(&mut self, value: W, kind: u8, x: usize, k: usize) {
        self.steps
            .push(Reverse((value.add(self.delta), kind, x, k)));
    }

    /// The current value of a dual-step candidate, `None` when it no longer is one.
    fn step_value(&self, kind: u8, x: usize, k: usize) -> Option<W> {
        match kind {
            2 => (x < self.n && self.bestedge[x] == k && self.label[self.inb(x)] == 0)
                .then(|| self.slack(k)),
            3 => (self.parent[x] == NONE
                && self.label[x] == 1
                && self.bestedge[x] == k
                && (x < self.n || self.base[x] != NONE))
                .then(|| self.slack(k).half()),
            _ => (x >= self.n
                && self.parent[x] == NONE
                && self.label[x] == 2
                && self.base[x] != NONE)
                .then(|| self.y(x)),
        }
    }

    /// The smallest dual-step candidate `(value, kind, x, edge)`, ties to the lower kind.
    fn next_step(&mut self) -> Option<(W, u8, usize, usize)> {
        while let Some(&Reverse((key, kind, x, k))) = self.steps.peek() {
            match self.step_value(kind, x, k) {
                None => {
                    self.steps.pop();
                }
                Some(v) if v.add(self.delta) != key => {
                    self.steps.pop();
                    self.push_step(v, kind, x, k);
                }
                Some(v) => return Some((v, kind, x, k)),
            }
        }
        None
    }

    /// Write every lazy dual back (end of a stage).
    fn settle(&mut self) {
        // set_slot_sign(_, 0) never records a slot, so taking the list empties it.
        for s in std::mem::take(&mut self.moving) {
            self.set_slot_sign(s, 0);
        }
        for idx in 0..self.touched.len() {
            let b = self.touched[idx];
            self.set_sign(b, 0);
        }
        self.delta = W::zero();
        self.steps.clear();
    }

    fn touch(&mut self, x: usize) {
        if !self.is_touched[x] {
            self.is_touched[x] = true;
            self.touched.push(x);
        }
    }

    fn set_allow(&mut self, k: usize) {
        if !self.allow[k] {
            self.allow[k] = true;
            self.allowed.push(k);
        }
    }

    #[inline(always)]
    fn slack(&self, k: usize) -> W {
        let (i, j) = self.ends(k);
        self.y(i).add(self.y(j)).sub(self.wt(k))
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.childs[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inb(w);
            self.label[w] = t;
            self.label[b] = t;
            self.touch(w);
            self.touch(b);
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            let vs = if t == 1 { -1 } else { 1 };
            self.set_slot_sign(self.slot_of[b], vs);
            if b >= self.n {
                self.set_sign(b, -vs);
                if t == 2 {
                    let z = self.y(b);
                    self.push_step(z, 4, b, NONE);
                }
            }
            if t == 1 {
                let mut lv = std::mem::take(&mut self.buf);
                lv.clear();
                self.leaves(b, &mut lv);
                self.queue.extend_from_slice(&lv);
                self.buf = lv;
                return;
            }
            let base = self.base[b];
            let m = self.mate[base];
            w = self.endpoint[m];
            t = 1;
            p = m ^ 1;
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.inb(v);
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inb(v);
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.ends(k);
        let bb = self.inb(base);
        let mut bv = self.inb(v);
        let mut bw = self.inb(w);
        let b = match self.unused.pop() {
            Some(b) => b,
            None => return,
        };
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inb(v);
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inb(w);
        }
        self.label[b] = 1;
        self.touch(b);
        self.labelend[b] = self.labelend[bb];
        // The sub-blossoms stop moving; the new one starts at 0 and rises.
        for &sub in &path {
            if sub >= self.n {
                self.set_sign(sub, 0);
            }
        }
        self.sign[b] = 0;
        self.dual[b] = W::zero();
        self.set_sign(b, 1);
        // The largest child's slot becomes the new blossom's: only the other children's
        // vertices move. The vertices of T-children become S and are scanned.
        let heir = path
            .iter()
            .copied()
            .max_by_key(|&c| (self.size[c], c))
            .unwrap_or(bb);
        let hs = self.slot_of[heir];
        self.slot_of[b] = hs;
        self.heir[b] = heir;
        self.size[b] = path.iter().map(|&c| self.size[c]).sum();
        let mut lv = std::mem::take(&mut self.buf);
        for &c in &path {
            let was_t = self.label[c] == 2;
            if c == heir && !was_t {
                continue;
            }
            lv.clear();
            self.leaves(c, &mut lv);
            for &x in &lv {
                if was_t {
                    self.queue.push(x);
                }
                self.move_vertex(x, hs);
            }
        }
        self.buf = lv;
        self.owner[hs] = b;
        self.set_slot_sign(hs, -1);
        let d2 = self.delta.add(self.delta);
        // The new blossom's candidate edges to other S-blossoms: the largest child heap is
        // kept as it stands and the others are poured into it (small to large), so a
        // blossom formed around a large nested one does not go through its edges again.
        let mut largest: Option<usize> = None;
        for &sub in &path {
            let len = self.bestedges[sub].as_ref().map_or(0, |h| h.len());
            if len > 0
                && largest.is_none_or(|l| len > self.bestedges[l].as_ref().map_or(0, |h| h.len()))
            {
                largest = Some(sub);
            }
        }
        let mut heap = largest
            .and_then(|l| self.bestedges[l].take())
            .unwrap_or_default();
        for &sub in &path {
            match self.bestedges[sub].take() {
                Some(h) => {
                    for Reverse((key, kk)) in h.into_vec() {
                        if self.leads_out(kk, b) {
                            heap.push(Reverse((key, kk)));
                        }
                    }
                }
                // No heap of this stage (a vertex, or a blossom that was T): every edge of
                // its vertices to an S-blossom, keyed here.
                None if Some(sub) != largest => {
                    for lv in self.leaves_of(sub) {
                        for idx in 0..self.neighbend[lv].len() {
                            let p = self.neighbend[lv][idx];
                            let bj = self.inb(self.endpoint[p]);
                            if bj != b && self.label[bj] == 1 {
                                let kk = p / 2;
                                heap.push(Reverse((self.slack(kk).add(d2), kk)));
                            }
                        }
                    }
                }
                None => {}
            }
            self.bestedge[sub] = NONE;
        }
        // Entries that now lie inside the blossom are dropped when they come to the top.
        while let Some(&Reverse((_, kk))) = heap.peek() {
            if self.leads_out(kk, b) {
                break;
            }
            heap.pop();
        }
        self.bestedge[b] = NONE;
        if let Some(&Reverse((key, kk))) = heap.peek() {
            self.bestedge[b] = kk;
            self.bestkey[b] = key;
        }
        self.bestedges[b] = Some(heap);
        self.childs[b] = path;
        self.endps[b] = endps;
        if self.bestedge[b] != NONE {
            let k = self.bestedge[b];
            let sl = self.bestkey[b].sub(d2);
            self.push_step(sl.half(), 3, b, k);
        }
    }

    fn idx(j: isize, len: usize) -> usize {
        j.rem_euclid(len as isize) as usize
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.childs[b].clone();
        if !endstage {
            // The blossom stops moving; its vertices move with its slot until the labels
            // below settle.
            self.set_sign(b, 0);
        }
        // The heir keeps the slot; the other children's vertices go back to their own.
        let heir = self.heir[b];
        self.owner[self.slot_of[b]] = heir;
        let mut lv = std::mem::take(&mut self.buf);
        for &c in &childs {
            self.parent[c] = NONE;
            if c == heir {
                continue;
            }
            let cs = self.slot_of[c];
            self.owner[cs] = c;
            lv.clear();
            self.leaves(c, &mut lv);
            for &x in &lv {
                self.move_vertex(x, cs);
            }
        }
        self.buf = lv;
        if endstage {
            for &c in &childs {
                if c >= self.n && self.dual[c] == W::zero() {
                    self.expand_blossom(c, endstage);
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len();
            let endps = self.endps[b].clone();
            let entry = self.inb(self.endpoint[self.labelend[b] ^ 1]);
            let pos = childs.iter().position(|&c| c == entry).unwrap_or(0) as isize;
            let (mut j, jstep, trick): (isize, isize, usize) = if pos & 1 == 1 {
                (pos - len as isize, 1, 0)
            } else {
                (pos, -1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let e1 = self.endpoint[p ^ 1];
                self.label[e1] = 0;
                let q = endps[Self::idx(j - trick as isize, len)];
                let e2 = self.endpoint[q ^ trick ^ 1];
                self.label[e2] = 0;
                self.assign_label(e1, 2, p);
                self.set_allow(q / 2);
                j += jstep;
                p = endps[Self::idx(j - trick as isize, len)] ^ trick;
                self.set_allow(p / 2);
                j += jstep;
            }
            let bv = childs[Self::idx(j, len)];
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.touch(e);
            self.touch(bv);
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            if bv >= self.n {
                let z = self.dual[bv];
                self.push_step(z, 4, bv, NONE);
            }
            j += jstep;
            while childs[Self::idx(j, len)] != entry {
                let bv = childs[Self::idx(j, len)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let found = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = found {
                    self.label[v] = 0;
                    let m = self.mate[self.base[bv]];
                    let e = self.endpoint[m];
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.childs[b] = Vec::new();
        self.endps[b] = Vec::new();
        self.base[b] = NONE;
        self.bestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unused.push(b);
        if !endstage {
            // Signs from the new labels; the vertices of unlabelled children become step
            // candidates again.
            for &c in &childs {
                let sg = self.label_sign(c);
                self.set_slot_sign(self.slot_of[c], sg);
                if c >= self.n {
                    let bs = self.blossom_sign(c);
                    self.set_sign(c, bs);
                }
                if sg != 0 {
                    continue;
                }
                for v in self.leaves_of(c) {
                    let k = self.bestedge[v];
                    if k != NONE && self.label[self.inb(v)] == 0 {
                        let sl = self.slack(k);
                        self.bestkey[v] = sl.add(self.delta);
                        self.push_step(sl, 2, v, k);
                    }
                }
            }
        }
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.childs[b].len();
        let i = self.childs[b].iter().position(|&c| c == t).unwrap_or(0);
        let (mut j, jstep, trick): (isize, isize, usize) = if i & 1 == 1 {
            (i as isize - len as isize, 1, 0)
        } else {
            (i as isize, -1, 1)
        };
        while j != 0 {
            j += jstep;
            let t1 = self.childs[b][Self::idx(j, len)];
            let p = self.endps[b][Self::idx(j - trick as isize, len)] ^ trick;
            if t1 >= self.n {
                let e = self.endpoint[p];
                self.augment_blossom(t1, e);
            }
            j += jstep;
            let t2 = self.childs[b][Self::idx(j, len)];
            if t2 >= self.n {
                let e = self.endpoint[p ^ 1];
                self.augment_blossom(t2, e);
            }
            let (e0, e1) = (self.endpoint[p], self.endpoint[p ^ 1]);
            self.mate[e0] = p ^ 1;
            self.mate[e1] = p;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
    }

    fn augment_matching(&mut self, k: usize, free_end: usize) {
        let (v, w) = self.ends(k);
        for (s0, p0) in [(v, 2 * k + 1), (w, 2 * k)] {
            if s0 == free_end {
                // An unlabelled free vertex (or free blossom) reached by a tight edge.
                let bs = self.inb(s0);
                if bs >= self.n {
                    self.augment_blossom(bs, s0);
                }
                self.mate[s0] = p0;
                continue;
            }
            let (mut s, mut p) = (s0, p0);
            loop {
                let bs = self.inb(s);
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inb(t);
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(&mut self, maxcard: bool) {
        let n = self.n;
        for _stage in 0..n {
            for x in std::mem::take(&mut self.touched) {
                self.label[x] = 0;
                self.bestedge[x] = NONE;
                if x >= n {
                    self.bestedges[x] = None;
                }
                self.is_touched[x] = false;
            }
            for k in std::mem::take(&mut self.allowed) {
                self.allow[k] = false;
            }
            self.queue.clear();
            if self.single_tree {
                while self.cursor < n && self.mate[self.cursor] != NONE {
                    self.cursor += 1;
                }
                if self.cursor == n {
                    break;
                }
                let root = self.cursor;
                self.assign_label(root, 1, NONE);
            } else {
                for v in 0..n {
                    if self.mate[v] == NONE && self.label[self.inb(v)] == 0 {
                        self.assign_label(v, 1, NONE);
                    }
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    // Labels and blossoms change during the scan, but never a vertex dual.
                    let yv = self.y(v);
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inb(v) == self.inb(w) {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allow[k] {
                            kslack = yv.add(self.y(w)).sub(self.wt(k));
                            if kslack <= W::zero() {
                                self.set_allow(k);
                            }
                        }
                        if self.allow[k] {
                            let bw = self.inb(w);
                            if self.label[bw] == 0
                                && self.single_tree
                                && self.mate[self.base[bw]] == NONE
                            {
                                self.augment_matching(k, w);
                                augmented = true;
                                break;
                            } else if self.label[bw] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inb(w)] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k, NONE);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                                self.touch(w);
                            }
                        } else if self.label[self.inb(w)] == 1 {
                            let b = self.inb(v);
                            let key = kslack.add(self.delta).add(self.delta);
                            if self.bestedge[b] == NONE || key < self.bestkey[b] {
                                self.bestedge[b] = k;
                                self.bestkey[b] = key;
                                self.touch(b);
                                self.push_step(kslack.half(), 3, b, k);
                            }
                        } else if self.label[w] == 0 && {
                            let cur = self.bestedge[w];
                            cur == NONE
                                || if self.label[self.inb(w)] == 0 {
                                    kslack.add(self.delta) < self.bestkey[w]
                                } else {
                                    // Inside a T-blossom w's dual rises as fast as the
                                    // S side falls: the slack stands still, no key.
                                    kslack < self.slack(cur)
                                }
                        } {
                            self.bestedge[w] = k;
                            self.bestkey[w] = kslack.add(self.delta);
                            self.touch(w);
                            self.push_step(kslack, 2, w, k);
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // Dual adjustment: the smallest candidate (see `steps`), then every
                // moving dual moves by it at once (see `delta`).
                let mut dtype = 0u8;
                let mut delta = W::zero();
                let mut dedge = NONE;
                let mut dblossom = NONE;
                if !maxcard {
                    dtype = 1;
                    delta = (0..n).map(|v| self.y(v)).min().unwrap_or(W::zero());
                }
                if let Some((d, kind, x, k)) = self.next_step() {
                    if dtype == 0 || d < delta {
                        delta = d;
                        dtype = kind;
                        if kind == 4 {
                            dblossom = x;
                        } else {
                            dedge = k;
                        }
                    }
                }
                if dtype == 0 {
                    dtype = 1;
                    let m = (0..n).map(|v| self.y(v)).min().unwrap_or(W::zero());
                    delta = if m > W::zero() { m } else { W::zero() };
                }
                self.delta = self.delta.add(delta);
                match dtype {
                    1 => break,
                    2 | 3 => {
                        self.set_allow(dedge);
                        let (mut i, j) = self.ends(dedge);
                        if dtype == 2 && self.label[self.inb(i)] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(dblossom, false),
                }
            }
            self.settle();
            for idx in 0..self.touched.len() {
                let b = self.touched[idx];
                if b >= n
                    && self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
            if !augmented {
                break;
            }
        }
        self.normalize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random graph on `n` vertices: each pair an edge with probability `p`, weights in
    /// `1..=max_w`; with `paired`, the pairs (2k, 2k+1) always, so a perfect matching exists.
    fn random_graph(
        rng: &mut ChaCha8Rng,
        n: usize,
        p: f64,
        max_w: i64,
        paired: bool,
    ) -> Vec<(usize, usize, i64)> {
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if paired && i % 2 == 0 && j == i + 1 || rng.gen_bool(p) {
                    edges.push((i, j, rng.gen_range(1..=max_w)));
                }
            }
        }
        edges
    }

    fn brute(n: usize, edges: &[(usize, usize, i64)], maxcard: bool) -> (usize, i64) {
        let mut adj = vec![vec![None; n]; n];
        for &(i, j, w) in edges {
            adj[i][j] = Some(w);
            adj[j][i] = Some(w);
        }
        fn rec(
            v: usize,
            used: &mut Vec<bool>,
            adj: &Vec<Vec<Option<i64>>>,
            best: &mut Vec<(usize, i64)>,
            card: usize,
            w: i64,
        ) {
            let n = used.len();
            let mut v = v;
            while v < n && used[v] {
                v += 1;
            }
            if v == n {
                best.push((card, w));
                return;
            }
            used[v] = true;
            rec(v + 1, used, adj, best, card, w);
            for u in v + 1..n {
                if !used[u] {
                    if let Some(x) = adj[v][u] {
                        used[u] = true;
                        rec(v + 1, used, adj, best, card + 1, w + x);
                        used[u] = false;
                    }
                }
            }
            used[v] = false;
        }
        let mut all = Vec::new();
        rec(0, &mut vec![false; n], &adj, &mut all, 0, 0);
        if maxcard {
            all.into_iter().max().unwrap_or((0, 0))
        } else {
            let w = all.iter().map(|x| x.1).max().unwrap_or(0);
            (0, w)
        }
    }

    fn brute_perfect(n: usize, edges: &[(usize, usize, i64)]) -> Option<i64> {
        let mut best: Option<i64> = None;
        fn rec(
            v: usize,
            used: &mut Vec<bool>,
            edges: &[(usize, usize, i64)],
            w: i64,
            best: &mut Option<i64>,
        ) {
            let n = used.len();
            let Some(v) = (v..n).find(|&i| !used[i]) else {
                if best.is_none_or(|b| w > b) {
                    *best = Some(w);
                }
                return;
            };
            used[v] = true;
            for &(i, j, x) in edges {
                let u = if i == v {
                    j
                } else if j == v {
                    i
                } else {
                    continue;
                };
                if !used[u] {
                    used[u] = true;
                    rec(v + 1, used, edges, w + x, best);
                    used[u] = false;
                }
            }
            used[v] = false;
        }
        rec(0, &mut vec![false; n], edges, 0, &mut best);
        best
    }

    #[test]
    fn incremental_perfect_matching_after_added_edges_matches_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let mut warm_resolves = 0usize;
        for case in 0..3000 {
            let n = 2 * rng.gen_range(2..=6);
            let mut all = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if (i % 2 == 1 || j != i + 1) && rng.gen_bool(0.8) {
                        // Few distinct weights: many ties, many blossoms.
                        all.push((i, j, rng.gen_range(1..6i64)));
                    }
                }
            }
            // Start from a sparse subgraph that still has a perfect matching.
            let mut edges: Vec<(usize, usize, i64)> =
                (0..n / 2).map(|k| (2 * k, 2 * k + 1, 0)).collect();
            let mut rest = Vec::new();
            for &e in &all {
                if rng.gen_bool(0.3) {
                    edges.push(e);
                } else {
                    rest.push(e);
                }
            }
            let full: Vec<(usize, usize, i64)> = edges.iter().chain(&rest).copied().collect();
            let mut inc = IncrementalPerfect::new(n, &edges);
            loop {
                let (mate, duals) = inc.solve().expect("the pairs (2k, 2k+1) are perfect");
                for &(i, j, w) in &edges {
                    let s = duals.slack(i, j, w);
                    assert!(s >= 0, "case {case}: infeasible dual on {i}-{j}");
                    if mate[i] == j {
                        assert_eq!(s, 0, "case {case}: matched edge {i}-{j} not tight");
                    }
                }
                let (add, keep): (Vec<_>, Vec<_>) = rest
                    .iter()
                    .partition(|&&(i, j, w)| duals.slack(i, j, w) < 0);
                if add.is_empty() {
                    let got: i64 = (0..n)
                        .filter(|&i| i < mate[i])
                        .map(|i| {
                            full.iter()
                                .filter(|&&(a, b, _)| (a, b) == (i, mate[i]))
                                .map(|e| e.2)
                                .max()
                                .unwrap_or(i64::MIN / 4)
                        })
                        .sum();
                    assert_eq!(Some(got), brute_perfect(n, &full), "case {case} {full:?}");
                    break;
                }
                // Add only some violating edges at a time, to exercise several warm re-solves.
                let take = add.len().div_ceil(2);
                inc.add_edges(&add[..take]);
                edges.extend_from_slice(&add[..take]);
                rest = keep
                    .into_iter()
                    .chain(add[take..].iter().copied())
                    .collect();
                warm_resolves += 1;
            }
        }
        assert!(warm_resolves > 1000, "only {warm_resolves} warm re-solves");
    }

    #[test]
    fn full_solve_from_flattened_coarse_duals_matches_brute_force() {
        // Weights high·16 − low, solved first as high·16 (the low digit dropped); the
        // flattened duals of that optimum start the full solve, which must still reach the
        // full optimum, blossoms and all.
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        for case in 0..3000 {
            let n = 2 * rng.gen_range(1..=6);
            let p = rng.gen_range(0.3..1.0);
            let mut edges = random_graph(&mut rng, n, p, 9, true);
            let lows: Vec<i64> = edges.iter().map(|_| rng.gen_range(0..16)).collect();
            for (e, &l) in edges.iter_mut().zip(&lows) {
                e.2 = e.2 * 16 - l;
            }
            let coarse: Vec<(usize, usize, i64)> = edges
                .iter()
                .zip(&lows)
                .map(|(&(i, j, w), &l)| (i, j, w + l))
                .collect();
            let (_, duals) =
                max_weight_perfect_matching_with_duals(n, &coarse).unwrap_or_else(|| {
                    panic!("case {case}: the pairs (2k, 2k+1) are a perfect matching")
                });
            let init: Vec<i64> = (0..n).map(|v| duals.flattened(v)).collect();
            for &(i, j, w) in &edges {
                assert!(
                    init[i] + init[j] >= 4 * w,
                    "case {case}: flattened duals infeasible"
                );
            }
            let got = IncrementalPerfect::split(n, &edges, None, Some(&init))
                .solve()
                .map(|(mate, duals)| {
                    assert!(
                        certifies_all(&edges, &mate, &duals),
                        "case {case}: no certificate"
                    );
                    matched_weight(&edges, &mate)
                });
            assert_eq!(got, brute_perfect(n, &edges), "case {case} {edges:?}");
        }
    }

    #[test]
    fn coarse_first_on_larger_graphs_reaches_the_plain_optimum_with_a_proof() {
        // As above on graphs too large for brute force, through the split form the Swiss
        // engine uses (shared high parts, per-edge lows; every 4th graph with lows too large
        // to keep apart): the full solve from the coarse duals must carry an optimality
        // proof and match the plain solve's weight.
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        for case in 0..200 {
            let n = 2 * rng.gen_range(10..=80);
            let p = rng.gen_range(0.05..0.6);
            let scale: i64 = if case % 4 == 3 { 1 << 33 } else { 64 };
            let mut edges = random_graph(&mut rng, n, p, 12, true);
            let lows: Vec<u64> = edges
                .iter()
                .map(|_| rng.gen_range(0..scale as u64))
                .collect();
            let coarse: Vec<(usize, usize, i64)> =
                edges.iter().map(|&(i, j, w)| (i, j, w * scale)).collect();
            for (e, &l) in edges.iter_mut().zip(&lows) {
                e.2 = e.2 * scale - l as i64;
            }
            let (_, duals) = IncrementalPerfect::split(n, &coarse, None, None)
                .solve()
                .unwrap_or_else(|| panic!("case {case}: no perfect matching"));
            let init: Vec<i64> = (0..n).map(|v| duals.flattened(v)).collect();
            let (mate, duals) = IncrementalPerfect::split(n, &coarse, Some(&lows), Some(&init))
                .solve()
                .unwrap_or_else(|| {
                    panic!("case {case}: no perfect matching from the coarse duals")
                });
            assert!(
                certifies_all(&edges, &mate, &duals),
                "case {case}: no certificate"
            );
            let plain = max_weight_perfect_matching(n, &edges)
                .unwrap_or_else(|| panic!("case {case}: no perfect matching"));
            assert_eq!(
                matched_weight(&edges, &mate),
                matched_weight(&edges, &plain),
                "case {case}"
            );
        }
    }

    /// The total weight of the edges `mate` uses.
    fn matched_weight(edges: &[(usize, usize, i64)], mate: &[usize]) -> i64 {
        edges
            .iter()
            .filter(|&&(i, j, _)| mate[i] == j && mate[j] == i)
            .map(|e| e.2)
            .sum()
    }

    /// Every edge feasible under `duals`, every matched edge tight.
    fn certifies_all(edges: &[(usize, usize, i64)], mate: &[usize], duals: &Duals<i64>) -> bool {
        edges.iter().all(|&(i, j, w)| {
            let s = duals.slack(i, j, w);
            s >= 0 && (mate[i] != j || s == 0)
        })
    }

    #[test]
    fn preferred_edges_first_still_reach_the_optimum() {
        // Few distinct weights, so that many optima tie and the preference decides which.
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let (mut preferred, mut plain) = (0usize, 0usize);
        for case in 0..3000 {
            let n = 2 * rng.gen_range(1..=6);
            let p = rng.gen_range(0.3..1.0);
            let edges = random_graph(&mut rng, n, p, 3, false);
            let prefer: Vec<u64> = edges.iter().map(|_| rng.gen_range(0..4)).collect();
            let got = IncrementalPerfect::preferring(n, &edges, &prefer).solve();
            let got_weight = got.as_ref().map(|(mate, _)| matched_weight(&edges, mate));
            assert_eq!(
                got_weight,
                brute_perfect(n, &edges),
                "case {case} {edges:?}"
            );
            let first = |mate: &[usize]| {
                edges
                    .iter()
                    .zip(&prefer)
                    .filter(|&(&(i, j, _), &q)| q == 0 && mate[i] == j)
                    .count()
            };
            if let Some((mate, duals)) = got {
                assert!(certifies_all(&edges, &mate, &duals), "case {case}");
                preferred += first(&mate);
            }
            if let Some((mate, _)) = IncrementalPerfect::new(n, &edges).solve() {
                plain += first(&mate);
            }
        }
        // Among tied optima, the preferred edges are taken more often than without it.
        assert!(preferred * 20 > plain * 21, "{preferred} vs {plain}");
    }

    #[test]
    fn perfect_matching_with_warm_start_matches_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..4000 {
            let n = 2 * rng.gen_range(1..=6);
            let p = rng.gen_range(0.3..1.0);
            let edges = random_graph(&mut rng, n, p, 29, false);
            let got =
                max_weight_perfect_matching(n, &edges).map(|mate| matched_weight(&edges, &mate));
            assert_eq!(got, brute_perfect(n, &edges), "case {case} {edges:?}");
        }
    }

    #[test]
    fn duals_certify_optimality_and_catch_missing_edges() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let (mut caught, mut certified) = (0, 0);
        for case in 0..3000 {
            let n = 2 * rng.gen_range(1..=6);
            let edges = random_graph(&mut rng, n, 0.8, 39, false);
            let Some((mate, duals)) = max_weight_perfect_matching_with_duals(n, &edges) else {
                continue;
            };
            for &(i, j, w) in &edges {
                let s = duals.slack(i, j, w);
                assert!(s >= 0, "case {case}: edge {i}-{j} slack {s}");
                if mate[i] == j {
                    assert_eq!(s, 0, "case {case}: matched edge {i}-{j} not tight");
                }
            }
            // Restrict: drop a random part of the edges and solve again.
            let keep: Vec<bool> = edges.iter().map(|_| rng.gen_bool(0.6)).collect();
            let sub: Vec<_> = edges
                .iter()
                .zip(&keep)
                .filter(|x| *x.1)
                .map(|x| *x.0)
                .collect();
            let Some((m2, d2)) = max_weight_perfect_matching_with_duals(n, &sub) else {
                continue;
            };
            let weight = |m: &[usize], es: &[(usize, usize, i64)]| -> i64 {
                es.iter().filter(|e| m[e.0] == e.1).map(|e| e.2).sum()
            };
            let violated = edges
                .iter()
                .zip(&keep)
                .any(|(&(i, j, w), &k)| !k && d2.slack(i, j, w) < 0);
            let (full, restricted) = (weight(&mate, &edges), weight(&m2, &sub));
            if violated {
                caught += 1;
            } else {
                certified += 1;
                assert_eq!(
                    restricted, full,
                    "case {case}: certificate passed a worse matching"
                );
            }
            if restricted < full {
                assert!(violated, "case {case}: worse matching not caught");
            }
        }
        assert!(caught > 100 && certified > 100, "{caught} {certified}");
    }

    /// The lowest common blossom found by binary lifting over the Euler tour gives the same
    /// blossom sum as a plain walk up both parent chains, on graphs large and odd-cycled
    /// enough to nest blossoms several levels deep.
    #[test]
    fn common_blossom_sum_matches_a_parent_walk() {
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let (mut nested, mut positive) = (0, 0);
        for case in 0..200 {
            let n = 2 * rng.gen_range(4..=40);
            let edges = random_graph(&mut rng, n, 0.3, 24, false);
            let Some((_, duals)) = max_weight_perfect_matching_with_duals(n, &edges) else {
                continue;
            };
            let chain = |v: usize| -> Vec<usize> {
                let mut out = Vec::new();
                let mut b = duals.parent[v];
                while b != NONE {
                    out.push(b);
                    b = duals.parent[b];
                }
                out
            };
            for i in 0..n {
                let ci = chain(i);
                if ci.len() >= 2 {
                    nested += 1;
                }
                for j in 0..n {
                    let cj = chain(j);
                    let naive = if i == j {
                        0
                    } else {
                        ci.iter()
                            .find(|b| cj.contains(b))
                            .map_or(0, |&b| duals.zsum[b])
                    };
                    positive += usize::from(naive > 0);
                    assert_eq!(duals.common_z(i, j), naive, "case {case}: {i}-{j}");
                }
            }
        }
        assert!(nested > 50, "only {nested} vertices in nested blossoms");
        assert!(
            positive > 500,
            "only {positive} pairs share a blossom with a dual"
        );
    }

    /// Larger graphs than brute force can check: the returned duals must prove the matching
    /// optimal by LP duality — every edge has a non-negative reduced cost, matched edges a
    /// zero one, blossom duals are non-negative and every blossom with a positive dual holds
    /// as many matched pairs as it can (complementary slackness).
    #[test]
    fn larger_graphs_carry_an_optimality_proof() {
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        let mut blossoms_seen = 0usize;
        for case in 0..300 {
            let n = 2 * rng.gen_range(10..=80);
            let p = rng.gen_range(0.05..0.6);
            let top = rng.gen_range(3..60i64);
            let edges = random_graph(&mut rng, n, p, top, true);
            let (mate, duals) = max_weight_perfect_matching_with_duals(n, &edges)
                .unwrap_or_else(|| panic!("case {case}: no perfect matching"));
            for v in 0..n {
                assert_eq!(mate[mate[v]], v, "case {case}");
                assert!(
                    edges
                        .iter()
                        .any(|&(i, j, _)| (i, j) == (v.min(mate[v]), v.max(mate[v]))),
                    "case {case}: {v}-{} is not an edge",
                    mate[v]
                );
            }
            for &(i, j, w) in &edges {
                let sl = duals.slack(i, j, w);
                assert!(sl >= 0, "case {case}: edge {i}-{j} slack {sl}");
                if mate[i] == j {
                    assert_eq!(sl, 0, "case {case}: matched {i}-{j} not tight");
                }
            }
            for b in n..duals.parent.len() {
                let z = duals.blossom[b];
                assert!(z >= 0, "case {case}: blossom dual {z}");
                if z == 0 {
                    continue;
                }
                let inside: Vec<usize> = (0..n)
                    .filter(|&v| {
                        let mut x = duals.parent[v];
                        while x != NONE && x != b {
                            x = duals.parent[x];
                        }
                        x == b
                    })
                    .collect();
                if inside.is_empty() {
                    continue;
                }
                blossoms_seen += 1;
                assert_eq!(inside.len() % 2, 1, "case {case}: even blossom");
                let pairs = inside
                    .iter()
                    .filter(|&&v| inside.contains(&mate[v]))
                    .count()
                    / 2;
                assert_eq!(pairs, inside.len() / 2, "case {case}: blossom not full");
            }
        }
        assert!(
            blossoms_seen > 100,
            "only {blossoms_seen} blossoms with a dual"
        );
    }

    #[test]
    fn random_graphs_match_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..3000 {
            let n = rng.gen_range(1..=10);
            let p = rng.gen_range(0.2..1.0);
            let edges = random_graph(&mut rng, n, p, 19, false);
            for maxcard in [false, true] {
                let mate = max_weight_matching(n, &edges, maxcard);
                let mut w = 0;
                let mut card = 0;
                for &(i, j, x) in &edges {
                    if mate[i] == Some(j) {
                        assert_eq!(mate[j], Some(i));
                        w += x;
                        card += 1;
                    }
                }
                let (bc, bw) = brute(n, &edges, maxcard);
                if maxcard {
                    assert_eq!((card, w), (bc, bw), "case {case} {edges:?}");
                } else {
                    assert_eq!(w, bw, "case {case} {edges:?}");
                }
            }
        }
    }
}
