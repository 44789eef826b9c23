//! The solver core: Edmonds' blossom algorithm in primal-dual form with lazy dual steps
//! (labels, blossoms formed, expanded and augmented, the stage loop).

use super::*;

/// How many of the edges with these ends each vertex `0..n` has.
pub(super) fn degrees(n: usize, ends: impl Iterator<Item = (usize, usize)>) -> Vec<usize> {
    let mut degree = vec![0usize; n];
    for (i, j) in ends {
        degree[i] += 1;
        degree[j] += 1;
    }
    degree
}

impl<W: Weight> Solver<W> {
    pub(super) fn new(n: usize, edges: Vec<(usize, usize, W)>) -> Self {
        let m = edges.len();
        let degree = degrees(n, edges.iter().map(|&(i, j, _)| (i, j)));
        Self::from_parts(
            n,
            m,
            &degree,
            edges.into_iter().map(|(i, j, w)| (i, j, w, 0)),
        )
    }

    /// A solver over edges `(i, j, high, low)` of stored weight `high − low`; `degree` is
    /// each vertex's number of those edges (see [`degrees`]): its list is laid out before
    /// the edges are pushed.
    pub(super) fn from_parts(
        n: usize,
        m: usize,
        degree: &[usize],
        parts: impl Iterator<Item = (usize, usize, W, u32)>,
    ) -> Self {
        let mut s = Self::empty(n, m);
        s.neighbend = Adjacency::with_degrees(degree);
        for (i, j, high, low) in parts {
            s.push_edge(i, j, high, low);
        }
        s.neighbend.seal();
        s.neighbend.flush();
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
    pub(super) fn push_edge(&mut self, i: usize, j: usize, high: W, low: u32) {
        let k = self.widx.len();
        // Edges pushed one after another often share their high part: the last one's
        // entry is taken without hashing (the same entry the table would give).
        let idx = match self.last_high {
            Some((h, at)) if h == high => at,
            _ => {
                let next = self.table.len() as u32;
                let idx = *self.intern.entry(high).or_insert(next);
                if idx == next {
                    self.table.push(high);
                }
                self.last_high = Some((high, idx));
                idx
            }
        };
        self.widx.push(idx);
        self.wlow.push(low);
        self.endpoint.push(i as u32);
        self.endpoint.push(j as u32);
        // Vertex and edge counts fit in u32 (a graph that large would not fit in memory).
        let end = |p: usize, to: usize| Adj {
            p: p as u32,
            to: to as u32,
            hi: idx,
            lo: low,
        };
        self.neighbend.push(i as u32, end(2 * k + 1, j));
        self.neighbend.push(j as u32, end(2 * k, i));
        if k.is_multiple_of(64) {
            self.allow.push(0);
        }
    }

    /// Edge `k`'s stored weight (see [`Solver::table`]).
    #[inline(always)]
    pub(super) fn wt(&self, k: usize) -> W {
        self.weight(self.widx[k], self.wlow[k])
    }

    /// The stored weight `table[hi] − lo`.
    #[inline(always)]
    pub(super) fn weight(&self, hi: u32, lo: u32) -> W {
        let high = self.table[hi as usize];
        match lo {
            0 => high,
            low => high.sub(W::zero().mul_add(1, u64::from(low))),
        }
    }

    /// The slack of the edge `a` at vertex `v`, whose dual is `yv`.
    #[inline(always)]
    pub(super) fn slack_at(&self, yv: W, a: Adj) -> W {
        yv.add(self.y(a.to())).sub(self.weight(a.hi, a.lo))
    }

    /// Whether edge `k` joins blossom `b` to another top-level S-blossom.
    pub(super) fn leads_out(&self, k: usize, b: usize) -> bool {
        let (i, j) = self.ends(k);
        let (bi, bj) = (self.inb(i), self.inb(j));
        (bi == b) != (bj == b) && self.label[if bi == b { bj } else { bi }] == 1
    }

    /// Edge `k`'s endpoints.
    #[inline(always)]
    pub(super) fn ends(&self, k: usize) -> (usize, usize) {
        (
            self.endpoint[2 * k] as usize,
            self.endpoint[2 * k + 1] as usize,
        )
    }

    pub(super) fn empty(n: usize, m: usize) -> Self {
        let neighbend = Adjacency::new(n);
        let mut dual = vec![W::zero(); n];
        dual.extend(std::iter::repeat_n(W::zero(), n));
        Solver {
            n,
            table: Vec::new(),
            widx: Vec::with_capacity(m),
            wlow: Vec::with_capacity(m),
            intern: HashMap::default(),
            last_high: None,
            endpoint: Vec::with_capacity(2 * m),
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            slot: (0..n as u32).collect(),
            owner: (0..2 * n as u32).collect(),
            slot_of: (0..2 * n).collect(),
            heir: vec![NONE; 2 * n],
            size: vec![1; 2 * n],
            moves: vec![
                SlotMove {
                    acc: W::zero(),
                    sgn: 0
                };
                2 * n
            ],
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
            allow: Vec::with_capacity(m.div_ceil(64)),
            queue: Vec::new(),
            touched: Vec::new(),
            is_touched: vec![false; 2 * n],
            allowed: Vec::new(),
            buf: Vec::new(),
            outs: Vec::new(),
            single_tree: false,
            cursor: 0,
            delta: W::zero(),
            sign: vec![0; 2 * n],
            steps: BinaryHeap::new(),
        }
    }

    /// The top-level blossom (or the vertex itself) holding vertex `v`.
    #[inline(always)]
    pub(super) fn inb(&self, v: usize) -> usize {
        self.owner[self.slot[v] as usize] as usize
    }

    /// How far the duals of the vertices in slot `s` have moved.
    #[inline(always)]
    pub(super) fn off(&self, s: usize) -> W {
        let m = self.moves[s];
        match m.sgn {
            0 => m.acc,
            1 => m.acc.add(self.delta),
            _ => m.acc.sub(self.delta),
        }
    }

    /// Move vertex `v` to slot `to`, keeping its dual.
    pub(super) fn move_vertex(&mut self, v: usize, to: usize) {
        let from = self.slot[v] as usize;
        if from != to {
            self.dual[v] = self.dual[v].add(self.off(from)).sub(self.off(to));
            self.slot[v] = to as u32;
        }
    }

    /// Set the direction the duals of slot `s` move at each dual step (S −1, T +1).
    pub(super) fn set_slot_sign(&mut self, s: usize, sg: i8) {
        if self.moves[s].sgn == sg {
            return;
        }
        let o = self.off(s);
        self.moves[s].sgn = sg;
        self.moves[s].acc = match sg {
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
    pub(super) fn y(&self, x: usize) -> W {
        if x < self.n {
            return self.dual[x].add(self.off(self.slot[x] as usize));
        }
        match self.sign[x] {
            0 => self.dual[x],
            1 => self.dual[x].add(self.delta),
            _ => self.dual[x].sub(self.delta),
        }
    }

    /// Write every vertex dual back into `dual` (after a run; slots start from zero again).
    pub(super) fn normalize(&mut self) {
        for v in 0..self.n {
            self.dual[v] = self.dual[v].add(self.moves[self.slot[v] as usize].acc);
        }
        for m in self.moves.iter_mut() {
            m.acc = W::zero();
        }
    }

    /// The slot sign of a top-level blossom or vertex from its label.
    pub(super) fn label_sign(&self, b: usize) -> i8 {
        match self.label[b] {
            1 => -1,
            2 => 1,
            _ => 0,
        }
    }

    /// Give blossom `x` a new sign (the direction its dual moves at each dual step), keeping
    /// its current dual.
    pub(super) fn set_sign(&mut self, x: usize, sign: i8) {
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
    pub(super) fn blossom_sign(&self, b: usize) -> i8 {
        if self.parent[b] != NONE || self.base[b] == NONE {
            return 0;
        }
        match self.label[b] {
            1 => 1,
            2 => -1,
            _ => 0,
        }
    }

    pub(super) fn push_step(&mut self, value: W, kind: u8, x: usize, k: usize) {
        self.steps
            .push(Reverse((value.add(self.delta), pack_step(kind, x, k))));
    }

    /// The current value of a dual-step candidate, `None` when it no longer is one.
    pub(super) fn step_value(&self, kind: u8, x: usize, k: usize) -> Option<W> {
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
    pub(super) fn next_step(&mut self) -> Option<(W, u8, usize, usize)> {
        while let Some(&Reverse((key, packed))) = self.steps.peek() {
            let (kind, x, k) = unpack_step(packed);
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
    pub(super) fn settle(&mut self) {
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

    pub(super) fn touch(&mut self, x: usize) {
        if !self.is_touched[x] {
            self.is_touched[x] = true;
            self.touched.push(x);
        }
    }

    pub(super) fn set_allow(&mut self, k: usize) {
        if !self.is_allowed(k) {
            self.allow[k / 64] |= 1 << (k % 64);
            self.allowed.push(k);
        }
    }

    /// Whether edge `k` is known tight in this stage.
    #[inline(always)]
    pub(super) fn is_allowed(&self, k: usize) -> bool {
        (self.allow[k / 64] >> (k % 64)) & 1 != 0
    }

    #[inline(always)]
    pub(super) fn slack(&self, k: usize) -> W {
        let (i, j) = self.ends(k);
        self.y(i).add(self.y(j)).sub(self.wt(k))
    }

    pub(super) fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.childs[b] {
                self.leaves(c, out);
            }
        }
    }

    pub(super) fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    pub(super) fn assign_label(&mut self, w: usize, t: u8, p: usize) {
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
            w = self.endpoint[m] as usize;
            t = 1;
            p = m ^ 1;
        }
    }

    pub(super) fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
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
                v = self.endpoint[self.labelend[b]] as usize;
                b = self.inb(v);
                v = self.endpoint[self.labelend[b]] as usize;
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

    pub(super) fn add_blossom(&mut self, base: usize, k: usize) {
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
            v = self.endpoint[self.labelend[bv]] as usize;
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
            w = self.endpoint[self.labelend[bw]] as usize;
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
        self.owner[hs] = b as u32;
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
                        let ylv = self.y(lv);
                        for idx in self.neighbend.range(lv) {
                            let a = self.neighbend.at(idx);
                            let bj = self.inb(a.to());
                            if bj != b && self.label[bj] == 1 {
                                heap.push(Reverse((self.slack_at(ylv, a).add(d2), a.k())));
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

    pub(super) fn idx(j: isize, len: usize) -> usize {
        j.rem_euclid(len as isize) as usize
    }

    pub(super) fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.childs[b].clone();
        if !endstage {
            // The blossom stops moving; its vertices move with its slot until the labels
            // below settle.
            self.set_sign(b, 0);
        }
        // The heir keeps the slot; the other children's vertices go back to their own.
        let heir = self.heir[b];
        self.owner[self.slot_of[b]] = heir as u32;
        let mut lv = std::mem::take(&mut self.buf);
        for &c in &childs {
            self.parent[c] = NONE;
            if c == heir {
                continue;
            }
            let cs = self.slot_of[c];
            self.owner[cs] = c as u32;
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
            let entry = self.inb(self.endpoint[self.labelend[b] ^ 1] as usize);
            let pos = childs.iter().position(|&c| c == entry).unwrap_or(0) as isize;
            let (mut j, jstep, trick): (isize, isize, usize) = if pos & 1 == 1 {
                (pos - len as isize, 1, 0)
            } else {
                (pos, -1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let e1 = self.endpoint[p ^ 1] as usize;
                self.label[e1] = 0;
                let q = endps[Self::idx(j - trick as isize, len)];
                let e2 = self.endpoint[q ^ trick ^ 1] as usize;
                self.label[e2] = 0;
                self.assign_label(e1, 2, p);
                self.set_allow(q / 2);
                j += jstep;
                p = endps[Self::idx(j - trick as isize, len)] ^ trick;
                self.set_allow(p / 2);
                j += jstep;
            }
            let bv = childs[Self::idx(j, len)];
            let e = self.endpoint[p ^ 1] as usize;
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
                    let e = self.endpoint[m] as usize;
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

    /// Augment through blossom `b` to its vertex `v`: every blossom on the way from `v` up
    /// to `b`, innermost first. The way up is climbed once (blossoms nest hundreds of
    /// levels deep, and climbing it again at each level took a tenth of a large solve).
    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut chain = Vec::new();
        let mut t = v;
        while t != b {
            chain.push(t);
            t = self.parent[t];
        }
        for (i, &t) in chain.iter().enumerate() {
            let outer = chain.get(i + 1).copied().unwrap_or(b);
            self.augment_level(outer, t);
        }
    }

    /// Augment blossom `b` through its child `t` (every blossom inside `t` on the way is
    /// done already).
    fn augment_level(&mut self, b: usize, t: usize) {
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
                let e = self.endpoint[p] as usize;
                self.augment_blossom(t1, e);
            }
            j += jstep;
            let t2 = self.childs[b][Self::idx(j, len)];
            if t2 >= self.n {
                let e = self.endpoint[p ^ 1] as usize;
                self.augment_blossom(t2, e);
            }
            let (e0, e1) = (self.endpoint[p] as usize, self.endpoint[p ^ 1] as usize);
            self.mate[e0] = p ^ 1;
            self.mate[e1] = p;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
    }

    pub(super) fn augment_matching(&mut self, k: usize, free_end: usize) {
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
                let t = self.endpoint[self.labelend[bs]] as usize;
                let bt = self.inb(t);
                s = self.endpoint[self.labelend[bt]] as usize;
                let j = self.endpoint[self.labelend[bt] ^ 1] as usize;
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    /// The positions (in [`Adjacency::list`]) of vertex `v`'s edges that leave its top-level
    /// blossom, in order: the scan of `v` skips the others anyway (a blossom's vertices are
    /// scanned again whenever it turns S, and most edges of a large score group lie inside
    /// its blossom). One pass without a branch per edge; the buffer is
    /// [`Solver::outs`], taken and to be given back.
    fn edges_out(&mut self, v: usize) -> Vec<u32> {
        let mut outs = std::mem::take(&mut self.outs);
        outs.clear();
        let r = self.neighbend.range(v);
        let bv = self.inb(v);
        if bv < self.n {
            // A vertex on its own: every edge leaves it.
            outs.extend(r.map(|i| i as u32));
            return outs;
        }
        outs.resize(r.len(), 0);
        let mut len = 0;
        for i in r {
            // Written at `len` whatever it is; kept by moving past it.
            let keep = self.inb(self.neighbend.at(i).to()) != bv;
            outs[len] = i as u32;
            len += usize::from(keep);
        }
        outs.truncate(len);
        outs
    }

    pub(super) fn run(&mut self, maxcard: bool) {
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
                self.allow[k / 64] &= !(1 << (k % 64));
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
                    let outs = self.edges_out(v);
                    for &idx in &outs {
                        let a = self.neighbend.at(idx as usize);
                        let (p, k, w) = (a.p(), a.k(), a.to());
                        if self.inb(v) == self.inb(w) {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.is_allowed(k) {
                            kslack = self.slack_at(yv, a);
                            if kslack <= W::zero() {
                                self.set_allow(k);
                            }
                        }
                        if self.is_allowed(k) {
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
                    self.outs = outs;
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
