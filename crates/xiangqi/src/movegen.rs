//! Move generation: pseudo-legal moves by piece (horse legs 蹩马腿, elephant eyes 塞象眼 and
//! the river, cannon screens, the palace), legality (no move may leave one's own king
//! attacked, the kings never face each other on an open file 白脸将), and perft.
//!
//! Legality is tested by making the move and asking whether the mover's king is attacked —
//! but only for the moves that can change that: when the side is in check, king moves, and
//! moves from or to a "sensitive" square. A square is sensitive when it lies on a file or
//! rank of the own king up to an enemy rook or king with at most one piece between, or an
//! enemy cannon with at most two, or is the leg of an enemy horse aimed at the king. A single
//! move removes at most one piece from a line, so any other move cannot expose the king.

use crate::board::{
    Colour, Kind, Move, Position, Square, ADVISOR, ELEPHANT, HORSE, HORSE_ATTACKERS, KING, PAWN,
    RAYS,
};

/// A list of moves on the stack (a side never has more than 119 pseudo-legal moves).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 128],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Move::new(Square(0), Square(0)); 128],
            len: 0,
        }
    }
}

impl MoveList {
    #[inline(always)]
    fn push(&mut self, from: u8, to: u8) {
        self.moves[self.len] = Move::new(Square(from), Square(to));
        self.len += 1;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    pub fn iter(&self) -> impl Iterator<Item = &Move> {
        self.as_slice().iter()
    }
    fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

/// Which moves need the full legality test in a position.
#[derive(Clone, Copy)]
pub(crate) struct Safety {
    in_check: bool,
    sensitive: u128,
}

impl Position {
    /// Every pseudo-legal move of the side to move: each piece's moves by its own rule,
    /// without regard to the own king.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::default();
        self.generate(&mut list);
        list
    }

    fn generate(&self, list: &mut MoveList) {
        self.gen_with(|from, to| list.push(from, to));
    }

    /// Calls `sink(from, to)` for every pseudo-legal move.
    #[inline(always)]
    fn gen_with(&self, mut sink: impl FnMut(u8, u8)) {
        let us = self.side.index();
        let own = self.occ[us];
        let mut bits = own;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let from = s as u8;
            match self.board[s] & 7 {
                5 => {
                    // Rook: slides to the first piece, takes it if it is the enemy's.
                    for ray in &RAYS[s] {
                        for &t in &ray.sq[..ray.len as usize] {
                            let q = self.board[t as usize];
                            if q == 0 {
                                sink(from, t);
                            } else {
                                if own & (1u128 << t) == 0 {
                                    sink(from, t);
                                }
                                break;
                            }
                        }
                    }
                }
                6 => {
                    // Cannon: slides like a rook, takes only over exactly one screen.
                    for ray in &RAYS[s] {
                        let n = ray.len as usize;
                        let mut i = 0;
                        while i < n {
                            let t = ray.sq[i];
                            i += 1;
                            if self.board[t as usize] == 0 {
                                sink(from, t);
                            } else {
                                while i < n {
                                    let t = ray.sq[i];
                                    i += 1;
                                    if self.board[t as usize] != 0 {
                                        if own & (1u128 << t) == 0 {
                                            sink(from, t);
                                        }
                                        break;
                                    }
                                }
                                break;
                            }
                        }
                    }
                }
                4 => {
                    let st = &HORSE[s];
                    for i in 0..st.len as usize {
                        let t = st.to[i];
                        if self.board[st.via[i] as usize] == 0 && own & (1u128 << t) == 0 {
                            sink(from, t);
                        }
                    }
                }
                3 => {
                    let st = &ELEPHANT[s];
                    for i in 0..st.len as usize {
                        let t = st.to[i];
                        if self.board[st.via[i] as usize] == 0 && own & (1u128 << t) == 0 {
                            sink(from, t);
                        }
                    }
                }
                k => {
                    let st = match k {
                        1 => &KING[s],
                        2 => &ADVISOR[s],
                        _ => &PAWN[us][s],
                    };
                    for i in 0..st.len as usize {
                        let t = st.to[i];
                        if own & (1u128 << t) == 0 {
                            sink(from, t);
                        }
                    }
                }
            }
        }
    }

    /// Whether the side to move is in check, and which squares are sensitive (module doc).
    pub(crate) fn safety(&self) -> Safety {
        let us = self.side;
        let k = self.king[us.index()] as usize;
        let them = if us == Colour::Red { 8u8 } else { 0 };
        let (rook, cannon, king, horse) = (5 | them, 6 | them, 1 | them, 4 | them);
        let mut in_check = false;
        let mut sensitive = 0u128;
        for (d, ray) in RAYS[k].iter().enumerate() {
            let mut nth = 0;
            let mut line = 0u128;
            for &t in &ray.sq[..ray.len as usize] {
                line |= 1u128 << t;
                let p = self.board[t as usize];
                if p == 0 {
                    continue;
                }
                nth += 1;
                let straight = p == rook || (d < 2 && p == king);
                if (nth == 1 && straight) || (nth == 2 && p == cannon) {
                    in_check = true;
                    break;
                }
                if (nth == 2 && straight) || (p == cannon && (nth == 1 || nth == 3)) {
                    sensitive |= line;
                }
                if nth == 3 {
                    break;
                }
            }
        }
        let ha = &HORSE_ATTACKERS[k];
        for i in 0..ha.len as usize {
            if self.board[ha.to[i] as usize] == horse {
                let leg = ha.via[i];
                if self.board[leg as usize] == 0 {
                    in_check = true;
                } else {
                    sensitive |= 1u128 << leg;
                }
            }
        }
        if !in_check {
            // Pawns: a pawn attack cannot be discovered, only given.
            let pawn = 7 | them;
            let pa = &crate::board::PAWN_ATTACKERS[us.other().index()][k];
            for i in 0..pa.len as usize {
                if self.board[pa.to[i] as usize] == pawn {
                    in_check = true;
                }
            }
        }
        Safety {
            in_check,
            sensitive,
        }
    }

    /// Whether a pseudo-legal move is legal, given the position's safety.
    #[inline(always)]
    fn legal_with(&mut self, m: Move, safe: Safety) -> bool {
        let needs = safe.in_check
            || self.board[m.from.index()] & 7 == Kind::King as u8
            || safe.sensitive & ((1u128 << m.from.0) | (1u128 << m.to.0)) != 0;
        if !needs {
            return true;
        }
        let cap = self.make(m);
        let ok = !self.mover_in_check();
        self.unmake(m, cap);
        ok
    }

    /// Every legal move of the side to move, in a fixed order (by square of the piece).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = self.pseudo_legal_moves();
        let safe = self.safety();
        let mut p = self.clone();
        list.retain(|m| p.legal_with(m, safe));
        list
    }

    /// Whether a move (any pair of squares) is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        match self.piece_at(m.from) {
            Some(p) if p.colour == self.side => {}
            _ => return false,
        }
        self.legal_moves().iter().any(|&x| x == m)
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let list = self.pseudo_legal_moves();
        let safe = self.safety();
        let mut p = self.clone();
        let any = list.iter().any(|&m| p.legal_with(m, safe));
        any
    }

    /// Whether the move gives check (the move must be legal).
    pub fn gives_check(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.make(m);
        p.in_check()
    }

    /// The number of leaf positions `depth` plies below (perft).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let safe = self.safety();
        let mut n = 0;
        if depth == 1 {
            // Count the moves that cannot expose the king; test only the others.
            let mut doubtful = MoveList::default();
            if safe.in_check {
                self.generate(&mut doubtful);
            } else {
                let risky = safe.sensitive | (1u128 << self.king[self.side.index()]);
                self.gen_with(|from, to| {
                    if risky & ((1u128 << from) | (1u128 << to)) == 0 {
                        n += 1;
                    } else {
                        doubtful.push(from, to);
                    }
                });
            }
            for &m in doubtful.iter() {
                let cap = self.make(m);
                n += u64::from(!self.mover_in_check());
                self.unmake(m, cap);
            }
            return n;
        }
        let list = self.pseudo_legal_moves();
        for &m in list.iter() {
            if self.legal_with(m, safe) {
                let cap = self.make(m);
                n += self.perft(depth - 1);
                self.unmake(m, cap);
            }
        }
        n
    }

    /// Perft split at the root: each legal move with its count (`perft divide`).
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let list = self.legal_moves();
        list.iter()
            .map(|&m| {
                let cap = self.make(m);
                let n = self.perft(depth.saturating_sub(1));
                self.unmake(m, cap);
                (m, n)
            })
            .collect()
    }

    /// Perft with the root moves shared among `threads` threads (the same count).
    pub fn perft_parallel(&self, depth: u32, threads: usize) -> u64 {
        if depth <= 2 || threads <= 1 {
            return self.clone().perft(depth);
        }
        let list = self.legal_moves();
        let moves = list.as_slice();
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let next = &next;
                    scope.spawn(move || {
                        let mut p = self.clone();
                        let mut n = 0;
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&m) = moves.get(i) else { break };
                            let cap = p.make(m);
                            n += p.perft(depth - 1);
                            p.unmake(m, cap);
                        }
                        n
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("perft thread"))
                .sum()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Legal moves by the slow definition: make every pseudo-legal move and test.
    fn slow_legal(p: &Position) -> Vec<Move> {
        let mut q = p.clone();
        p.pseudo_legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                let c = q.make(m);
                let ok = !q.mover_in_check();
                q.unmake(m, c);
                ok
            })
            .collect()
    }

    #[test]
    fn fast_legality_equals_slow_on_random_games() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let mut p = Position::start();
            for _ in 0..150 {
                let fast: Vec<Move> = p.legal_moves().iter().copied().collect();
                assert_eq!(fast, slow_legal(&p), "{}", p.fen());
                if fast.is_empty() {
                    break;
                }
                let m = fast[rng.gen_range(0..fast.len())];
                p.make_move(m);
            }
        }
    }
}
