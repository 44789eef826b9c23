//! Maximum-weight matching on a general graph (Edmonds' blossom algorithm with dual
//! variables, O(n³); the classical primal–dual method as described by Galil, 1986), written
//! for the checker and independent of the engine's matching solver. Weights are exact: any
//! totally ordered abelian group of integers ([`Weight`]) — the checker uses fixed-length
//! integer vectors compared lexicographically. Vertex duals are stored doubled so that every
//! step stays integral; the one halving (an edge between two S-blossoms) is checked to be
//! exact.

use std::ops::{Add, Sub};

/// An exact edge weight: an ordered abelian group.
pub(crate) trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> {
    fn zero() -> Self;
    /// `self / 2` when exact.
    fn half(self) -> Option<Self>;
}

/// A vector of integers compared lexicographically, added component-wise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Lex<const N: usize>(pub [i64; N]);

impl<const N: usize> Add for Lex<N> {
    type Output = Self;
    fn add(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
        self
    }
}

impl<const N: usize> Sub for Lex<N> {
    type Output = Self;
    fn sub(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a -= b;
        }
        self
    }
}

impl<const N: usize> Weight for Lex<N> {
    fn zero() -> Self {
        Lex([0; N])
    }
    fn half(self) -> Option<Self> {
        let mut out = self;
        for a in &mut out.0 {
            if *a % 2 != 0 {
                return None;
            }
            *a /= 2;
        }
        Some(out)
    }
}

const NONE: usize = usize::MAX;

/// The halving of a slack was inexact: the weights break the integrality the method needs.
#[derive(Debug)]
pub(crate) struct Inexact;

struct M<W: Weight> {
    n: usize,
    edges: Vec<(usize, usize, W)>,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> M<W> {
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - w - w
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.blossomchilds[t].iter().rev().copied());
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == 1 {
                let l = self.leaves(b);
                self.queue.extend(l);
                return;
            }
            let base = self.blossombase[b];
            let mb = self.mate[base];
            w = self.endpoint[mb];
            t = 1;
            p = mb ^ 1;
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let (mut v, mut w) = (v, w);
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
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
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unusedblossoms.pop() else {
            return;
        };
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for v in self.leaves(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                None => self
                    .leaves(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
                Some(l) => vec![l],
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &list {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(list);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| -> usize { ((j % len + len) % len) as usize };
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let ep = |j: isize| endps[at(j - endptrick as isize)];
            let mut p = self.labelend[b];
            while j != 0 {
                let e1 = self.endpoint[p ^ 1];
                self.label[e1] = 0;
                let e2 = self.endpoint[ep(j) ^ endptrick ^ 1];
                self.label[e2] = 0;
                self.assign_label(e1, 2, p);
                self.allowedge[ep(j) / 2] = true;
                j += jstep;
                p = ep(j) ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let labelled = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = labelled {
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let e = self.endpoint[mb];
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let at = |j: isize| -> usize { ((j % len + len) % len) as usize };
        let i = childs.iter().position(|&c| c == t).unwrap_or(0);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[at(j)];
            let p = endps[at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = childs[at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let mut c2 = childs[i..].to_vec();
        c2.extend_from_slice(&childs[..i]);
        let mut e2 = endps[i..].to_vec();
        e2.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[c2[0]];
        self.blossomchilds[b] = c2;
        self.blossomendps[b] = e2;
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (s0, p0) in [(v, 2 * k + 1), (w, 2 * k)] {
            let (mut s, mut p) = (s0, p0);
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
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
}

/// A maximum-weight matching of the graph on vertices `0..n` with `edges` (each `(i, j,
/// w)`, `i ≠ j`, at most one per pair): `mate[v]` is `v`'s partner. Edges of weight ≤ 0 are
/// never needed for the maximum; give every edge a positive leading component to get a
/// maximum-cardinality matching first.
pub(crate) fn max_weight_matching<W: Weight>(
    n: usize,
    edges: Vec<(usize, usize, W)>,
) -> Result<Vec<Option<usize>>, Inexact> {
    if edges.is_empty() {
        return Ok(vec![None; n]);
    }
    let nedge = edges.len();
    let maxweight = edges
        .iter()
        .map(|e| e.2)
        .max()
        .map_or(W::zero(), |m| m.max(W::zero()));
    let endpoint: Vec<usize> = (0..2 * nedge)
        .map(|p| {
            if p % 2 == 0 {
                edges[p / 2].0
            } else {
                edges[p / 2].1
            }
        })
        .collect();
    let mut neighbend = vec![Vec::new(); n];
    for (k, &(i, j, _)) in edges.iter().enumerate() {
        neighbend[i].push(2 * k + 1);
        neighbend[j].push(2 * k);
    }
    let mut dualvar = vec![maxweight; n];
    dualvar.extend(std::iter::repeat_n(W::zero(), n));
    let mut m = M {
        n,
        edges,
        endpoint,
        neighbend,
        mate: vec![NONE; n],
        label: vec![0; 2 * n],
        labelend: vec![NONE; 2 * n],
        inblossom: (0..n).collect(),
        blossomparent: vec![NONE; 2 * n],
        blossomchilds: vec![Vec::new(); 2 * n],
        blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
        blossomendps: vec![Vec::new(); 2 * n],
        bestedge: vec![NONE; 2 * n],
        blossombestedges: vec![None; 2 * n],
        unusedblossoms: (n..2 * n).collect(),
        dualvar,
        allowedge: vec![false; nedge],
        queue: Vec::new(),
    };
    for _ in 0..n {
        m.label.iter_mut().for_each(|x| *x = 0);
        m.bestedge.iter_mut().for_each(|x| *x = NONE);
        for b in n..2 * n {
            m.blossombestedges[b] = None;
        }
        m.allowedge.iter_mut().for_each(|x| *x = false);
        m.queue.clear();
        for v in 0..n {
            if m.mate[v] == NONE && m.label[m.inblossom[v]] == 0 {
                m.assign_label(v, 1, NONE);
            }
        }
        let mut augmented = false;
        loop {
            while !augmented {
                let Some(v) = m.queue.pop() else { break };
                for idx in 0..m.neighbend[v].len() {
                    let p = m.neighbend[v][idx];
                    let k = p / 2;
                    let w = m.endpoint[p];
                    if m.inblossom[v] == m.inblossom[w] {
                        continue;
                    }
                    let mut kslack = W::zero();
                    if !m.allowedge[k] {
                        kslack = m.slack(k);
                        if kslack <= W::zero() {
                            m.allowedge[k] = true;
                        }
                    }
                    if m.allowedge[k] {
                        if m.label[m.inblossom[w]] == 0 {
                            m.assign_label(w, 2, p ^ 1);
                        } else if m.label[m.inblossom[w]] == 1 {
                            let base = m.scan_blossom(v, w);
                            if base != NONE {
                                m.add_blossom(base, k);
                            } else {
                                m.augment_matching(k);
                                augmented = true;
                                break;
                            }
                        } else if m.label[w] == 0 {
                            m.label[w] = 2;
                            m.labelend[w] = p ^ 1;
                        }
                    } else if m.label[m.inblossom[w]] == 1 {
                        let b = m.inblossom[v];
                        if m.bestedge[b] == NONE || kslack < m.slack(m.bestedge[b]) {
                            m.bestedge[b] = k;
                        }
                    } else if m.label[w] == 0
                        && (m.bestedge[w] == NONE || kslack < m.slack(m.bestedge[w]))
                    {
                        m.bestedge[w] = k;
                    }
                }
            }
            if augmented {
                break;
            }
            // Dual adjustment.
            let mut deltatype = 1u8;
            let mut delta = m.dualvar[..n].iter().copied().min().unwrap_or(W::zero());
            let mut deltaedge = NONE;
            let mut deltablossom = NONE;
            for v in 0..n {
                if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != NONE {
                    let d = m.slack(m.bestedge[v]);
                    if d < delta {
                        delta = d;
                        deltatype = 2;
                        deltaedge = m.bestedge[v];
                    }
                }
            }
            for b in 0..2 * n {
                if m.blossomparent[b] == NONE && m.label[b] == 1 && m.bestedge[b] != NONE {
                    let d = m.slack(m.bestedge[b]).half().ok_or(Inexact)?;
                    if d < delta {
                        delta = d;
                        deltatype = 3;
                        deltaedge = m.bestedge[b];
                    }
                }
            }
            for b in n..2 * n {
                if m.blossombase[b] != NONE
                    && m.blossomparent[b] == NONE
                    && m.label[b] == 2
                    && m.dualvar[b] < delta
                {
                    delta = m.dualvar[b];
                    deltatype = 4;
                    deltablossom = b;
                }
            }
            for v in 0..n {
                match m.label[m.inblossom[v]] {
                    1 => m.dualvar[v] = m.dualvar[v] - delta,
                    2 => m.dualvar[v] = m.dualvar[v] + delta,
                    _ => {}
                }
            }
            for b in n..2 * n {
                if m.blossombase[b] != NONE && m.blossomparent[b] == NONE {
                    match m.label[b] {
                        1 => m.dualvar[b] = m.dualvar[b] + delta,
                        2 => m.dualvar[b] = m.dualvar[b] - delta,
                        _ => {}
                    }
                }
            }
            match deltatype {
                1 => break,
                2 => {
                    m.allowedge[deltaedge] = true;
                    let (mut i, j, _) = m.edges[deltaedge];
                    if m.label[m.inblossom[i]] == 0 {
                        i = j;
                    }
                    m.queue.push(i);
                }
                3 => {
                    m.allowedge[deltaedge] = true;
                    let (i, _, _) = m.edges[deltaedge];
                    m.queue.push(i);
                }
                _ => m.expand_blossom(deltablossom, false),
            }
        }
        if !augmented {
            break;
        }
        for b in n..2 * n {
            if m.blossomparent[b] == NONE
                && m.blossombase[b] != NONE
                && m.label[b] == 1
                && m.dualvar[b] == W::zero()
            {
                m.expand_blossom(b, true);
            }
        }
    }
    Ok(m.mate
        .iter()
        .map(|&p| (p != NONE).then(|| m.endpoint[p]))
        .collect())
}
