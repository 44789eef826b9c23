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
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher of the weight table ([`Solver::intern`]): FNV-1a over whole 64-bit words,
/// multiplied through. Its keys are our own weights, not input an attacker chooses, and
/// SipHash spent 2 % of a 10,000-player pairing on them. The table's order is the order
/// weights first appear, whatever the hasher.
#[derive(Default)]
struct LimbHasher(u64);

impl Hasher for LimbHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // A weight's limbs arrive as one slice of bytes: eight at a time.
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.write_u64(u64::from_le_bytes(b));
        }
        for &b in words.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        let h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        self.0 = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

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
    const EMPTY: Adj = Adj {
        p: 0,
        to: 0,
        hi: 0,
        lo: 0,
    };

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

/// Every vertex's edge list in one array, vertex after vertex (`list[start[v]..start[v +
/// 1]]`): a blossom's vertices, near each other in number, have their lists near each
/// other too, where one allocation per vertex scattered them. Edges pushed wait in
/// `pending` until [`Adjacency::flush`] appends them to their ends' lists.
///
/// A graph whose edges are known before they are pushed is laid out by
/// [`Adjacency::with_degrees`] instead: each list gets its room at once and an edge pushed
/// goes straight to its place ([`Adjacency::push`]), with no second copy of every edge end
/// waiting (at 100,000 players that copy was 100 MiB of the peak) and no rearranging.
#[derive(Debug, Clone, Default)]
struct Adjacency {
    start: Vec<usize>,
    list: Vec<Adj>,
    pending: Vec<(u32, Adj)>,
    /// While the lists laid out by [`Adjacency::with_degrees`] are being filled: per vertex,
    /// where its next edge end goes (empty otherwise).
    fill: Vec<usize>,
}

impl Adjacency {
    fn new(n: usize) -> Self {
        Adjacency {
            start: vec![0; n + 1],
            list: Vec::new(),
            pending: Vec::new(),
            fill: Vec::new(),
        }
    }

    /// Empty lists with room for `degree[v]` edge ends at each vertex `v`, to be filled by
    /// [`Adjacency::push`] in the order the ends are pushed.
    fn with_degrees(degree: &[usize]) -> Self {
        let mut start = Vec::with_capacity(degree.len() + 1);
        let mut at = 0usize;
        for &d in degree {
            start.push(at);
            at += d;
        }
        start.push(at);
        Adjacency {
            fill: start[..degree.len()].to_vec(),
            start,
            list: vec![Adj::EMPTY; at],
            pending: Vec::new(),
        }
    }

    /// Add edge end `a` at vertex `v`: in its place when the lists were laid out for it (see
    /// [`Adjacency::with_degrees`]), else after the vertex's other edges at the next
    /// [`Adjacency::flush`]. Either way each list keeps the order the ends were pushed in.
    #[inline(always)]
    fn push(&mut self, v: u32, a: Adj) {
        let vi = v as usize;
        match self.fill.get(vi) {
            Some(&at) if at < self.start[vi + 1] => {
                self.list[at] = a;
                self.fill[vi] = at + 1;
            }
            _ => self.pending.push((v, a)),
        }
    }

    /// The lists laid out by [`Adjacency::with_degrees`] are filled: later ends wait for
    /// [`Adjacency::flush`] again. A list left short (more room than ends pushed) would hold
    /// empty ends, so it is closed up here.
    fn seal(&mut self) {
        let fill = std::mem::take(&mut self.fill);
        if fill.is_empty() || fill.iter().zip(&self.start[1..]).all(|(f, s)| f == s) {
            return;
        }
        let (start, list) = (
            std::mem::take(&mut self.start),
            std::mem::take(&mut self.list),
        );
        self.start.push(0);
        for (v, &f) in fill.iter().enumerate() {
            self.list.extend_from_slice(&list[start[v]..f]);
            self.start.push(self.list.len());
        }
    }

    /// The edges of vertex `v`.
    #[inline(always)]
    fn of(&self, v: usize) -> &[Adj] {
        &self.list[self.start[v]..self.start[v + 1]]
    }

    /// The range of vertex `v`'s edges in `list`.
    #[inline(always)]
    fn range(&self, v: usize) -> std::ops::Range<usize> {
        self.start[v]..self.start[v + 1]
    }

    /// Edge end `i` of the whole list (see [`Adjacency::range`]).
    #[inline(always)]
    fn at(&self, i: usize) -> Adj {
        self.list[i]
    }

    /// Vertex `v`'s edges, to reorder them.
    fn of_mut(&mut self, v: usize) -> &mut [Adj] {
        &mut self.list[self.start[v]..self.start[v + 1]]
    }

    /// Append the pending edge ends to their vertices' lists, each list keeping its order.
    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let n = self.start.len() - 1;
        let mut count = vec![0usize; n];
        for &(v, _) in &self.pending {
            count[v as usize] += 1;
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut at = 0usize;
        for (v, &c) in count.iter().enumerate() {
            start.push(at);
            at += self.start[v + 1] - self.start[v] + c;
        }
        start.push(at);
        let mut list = Vec::with_capacity(at);
        let mut fill = Vec::with_capacity(n);
        for v in 0..n {
            list.extend_from_slice(self.of(v));
            fill.push(list.len());
            list.resize(start[v + 1], Adj::EMPTY);
        }
        for (v, a) in std::mem::take(&mut self.pending) {
            let v = v as usize;
            list[fill[v]] = a;
            fill[v] += 1;
        }
        self.start = start;
        self.list = list;
    }
}

/// Candidate edges keyed by slack: a min-heap of `(key, edge)`.
type EdgeHeap<W> = BinaryHeap<Reverse<(W, usize)>>;

/// How far the duals of one slot's vertices have moved: `acc + sgn·delta`.
#[derive(Debug, Clone, Copy)]
struct SlotMove<W> {
    acc: W,
    sgn: i8,
}

/// A dual-step candidate's kind (2, 3 or 4), vertex or blossom `x` and edge `k` ([`NONE`]
/// for none) in one word whose order is the order of the triple: the kind less 2 in the top
/// two bits, `x` in the next 31 (vertex and blossom indices stay below 2^31: the solver
/// keeps them in u32, two per vertex), `k` in the low 31 with none as the largest (an edge's
/// two ends are numbered in u32, so edges stay below 2^31 − 1).
#[inline(always)]
fn pack_step(kind: u8, x: usize, k: usize) -> u64 {
    const LOW: u64 = (1 << 31) - 1;
    debug_assert!((2..=4).contains(&kind) && (x as u64) < LOW && (k == NONE || (k as u64) < LOW));
    let k = if k == NONE { LOW } else { k as u64 };
    (u64::from(kind - 2) << 62) | ((x as u64) << 31) | k
}

/// The triple of [`pack_step`].
#[inline(always)]
fn unpack_step(s: u64) -> (u8, usize, usize) {
    const LOW: u64 = (1 << 31) - 1;
    let k = s & LOW;
    let k = if k == LOW { NONE } else { k as usize };
    ((s >> 62) as u8 + 2, ((s >> 31) & LOW) as usize, k)
}

#[derive(Clone)]
struct Solver<W: Weight> {
    n: usize,
    /// Edge `k`'s weight as a slack subtracts it (2w, or 4w in perfect mode):
    /// `table[widx[k]] − wlow[k]`. Edges whose weights differ only in a small last part
    /// (the tie of a Swiss pair) share a table entry, so an edge takes 8 bytes here instead
    /// of a wide weight, and the scans stay in cache on large graphs.
    table: Vec<W>,
    widx: Vec<u32>,
    wlow: Vec<u32>,
    intern: HashMap<W, u32, BuildHasherDefault<LimbHasher>>,
    /// The high part interned last and its entry ([`Solver::push_edge`]).
    last_high: Option<(W, u32)>,
    /// Edge `k` joins `endpoint[2k]` and `endpoint[2k + 1]`.
    /// (u32: vertex counts fit, and half the bytes of a large graph's edges.)
    endpoint: Vec<u32>,
    /// Per vertex, its edges as seen from it ([`Adj`]: the far end and the weight inline,
    /// so that a scan reads one contiguous list instead of three arrays indexed by edge).
    neighbend: Adjacency,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    /// Top-level blossoms through slots: vertex `v` lies in top-level blossom
    /// `owner[slot[v]]`. A new blossom takes over the slot of its largest child and an
    /// expanded one hands its slot to that child, so only the vertices of the other
    /// children move: blossoms nest hundreds of levels deep around a few large ones.
    /// (u32: [`Solver::inb`] reads both for every edge scanned, and half the bytes keep
    /// them in cache.)
    slot: Vec<u32>,
    owner: Vec<u32>,
    /// Per vertex / blossom: the slot its vertices use while it is top-level.
    slot_of: Vec<usize>,
    /// Per blossom: the child whose slot it took; per vertex / blossom: its vertex count.
    heir: Vec<usize>,
    size: Vec<usize>,
    /// Per slot: how far the duals of its vertices have moved (`acc + sgn·delta`, see
    /// [`Solver::delta`]); a vertex stores its dual minus that.
    /// (Both in one array: [`Solver::y`] reads them together for every edge scanned.)
    moves: Vec<SlotMove<W>>,
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
    /// Per edge, one bit: tight in this stage (one bit, so the scans keep it in cache).
    allow: Vec<u64>,
    queue: Vec<usize>,
    /// Vertices/blossoms whose label or best edge was set in this stage.
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    allowed: Vec<usize>,
    buf: Vec<usize>,
    /// Scratch: the edges of the vertex being scanned that leave its blossom
    /// ([`Solver::edges_out`]).
    outs: Vec<u32>,
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
    /// Kind, vertex or blossom and edge packed in one word ordered as the triple (see
    /// [`pack_step`]), so that an entry is the key and 8 bytes and compares in two steps.
    steps: BinaryHeap<Reverse<(W, u64)>>,
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
        .map(|&p| (p != NONE).then(|| s.endpoint[p] as usize))
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
