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

mod duals;
mod incremental;
mod solver;
#[cfg(test)]
mod tests;
mod warm;

pub use duals::Duals;
pub use incremental::IncrementalPerfect;

const NONE: usize = usize::MAX;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// One edge seen from one of its ends: the endpoint index `p` of the far end (edge `p / 2`,
/// far vertex `endpoint[p]`), that vertex, and the edge's weight parts (`table[hi] − lo`, see
/// [`Solver::table`]). 16 bytes, read in order by a scan.
#[derive(Debug, Clone, Copy)]
struct Adj {
    p: u32,
    to: u32,
    hi: u32,
    lo: u32,
}

impl Adj {
    /// The endpoint index of the far end.
    #[inline(always)]
    fn p(self) -> usize {
        self.p as usize
    }
    /// The edge.
    #[inline(always)]
    fn k(self) -> usize {
        (self.p / 2) as usize
    }
    /// The far vertex.
    #[inline(always)]
    fn to(self) -> usize {
        self.to as usize
    }
}

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
    /// Per vertex, its edges as seen from it ([`Adj`]: the far end and the weight inline,
    /// so that a scan reads one contiguous list instead of three arrays indexed by edge).
    neighbend: Vec<Vec<Adj>>,
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

/// [`max_weight_perfect_matching`] that also returns the optimal duals.
pub fn max_weight_perfect_matching_with_duals<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Option<(Vec<usize>, Duals<W>)> {
    IncrementalPerfect::new(n, edges).solve()
}
