//! The dual certificate of a perfect matching: vertex and blossom duals in the solver's
//! scale, reduced costs of any edge (also one left out of the solved graph), and the
//! blossom structure that pricing queries need.

use super::*;

/// The optimal dual solution of a perfect matching, kept in the solver's scale: vertex
/// duals `y` and blossom duals `z ≥ 0` with, for every edge `(i, j, w)` of the solved graph,
/// `y_i + y_j − 4w + 2·Σ z_B (B ∋ i, j) ≥ 0`, equality on matched edges. By LP duality the
/// matching is optimal for ANY larger graph whose extra edges also satisfy this inequality
/// (see [`Duals::slack`]); that is the certificate the Swiss engine checks for edges it
/// left out of a restricted graph.
#[derive(Debug, Clone)]
pub struct Duals<W: Weight> {
    pub(super) vertex: Vec<W>,
    /// Per vertex / blossom: the blossom directly containing it (`usize::MAX` = none).
    pub(super) parent: Vec<usize>,
    pub(super) blossom: Vec<W>,
    /// Per vertex / blossom: the sum of the blossom duals from it up to its top-level
    /// blossom (a vertex's own entry counts only if ≥ n).
    pub(super) zsum: Vec<W>,
    /// Per vertex / blossom: its top-level blossom (itself at top level).
    pub(super) top: Vec<usize>,
    /// Euler-tour entry and exit times of the blossom forest: `a` contains `b` exactly when
    /// `tin[a] <= tin[b] && tout[b] <= tout[a]`.
    pub(super) tin: Vec<u32>,
    pub(super) tout: Vec<u32>,
    /// Binary lifting: `up[k][v]` is the ancestor `2^k` levels above `v` (the top-level
    /// node itself when there are fewer levels), so the lowest common blossom of two
    /// vertices takes O(log depth) steps however deeply blossoms nest.
    pub(super) up: Vec<Vec<u32>>,
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

    /// (Both comparisons always made, `&` not `&&`: the climb in [`Duals::lca`] then
    /// selects without a branch, which mispredicted half the time.)
    #[inline(always)]
    pub(super) fn contains(&self, a: usize, b: usize) -> bool {
        (self.tin[a] <= self.tin[b]) & (self.tout[b] <= self.tout[a])
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
            x = if self.contains(u, b) { x } else { u };
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

    pub(super) fn new(vertex: Vec<W>, parent: Vec<usize>, blossom: Vec<W>) -> Self {
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
