//! The board: squares, pieces, the position (a 90-square mailbox beside one 128-bit occupancy
//! mask per side), make/unmake, Zobrist hashing and the attack test.
//!
//! Squares are numbered `rank * 9 + file`: file 0..8 is `a`..`i` from red's left, rank 0..9
//! from red's back rank (the ICCS coordinates). Every geometric table (rays, horse moves with
//! their leg, elephant moves with their eye, palace steps, pawn steps) is computed once at
//! compile time (`const fn`), so nothing is initialised at run time.

use std::fmt;

/// One of the two sides. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red,
    Black,
}

impl Colour {
    pub const fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    /// 红 / 黑.
    pub const fn zh(self) -> &'static str {
        match self {
            Colour::Red => "红方",
            Colour::Black => "黑方",
        }
    }
}

/// The kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    King = 1,
    Advisor = 2,
    Elephant = 3,
    Horse = 4,
    Rook = 5,
    Cannon = 6,
    Pawn = 7,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];
    const fn from_code(c: u8) -> Option<Kind> {
        match c & 7 {
            1 => Some(Kind::King),
            2 => Some(Kind::Advisor),
            3 => Some(Kind::Elephant),
            4 => Some(Kind::Horse),
            5 => Some(Kind::Rook),
            6 => Some(Kind::Cannon),
            7 => Some(Kind::Pawn),
            _ => None,
        }
    }
    /// How many of this kind a side has at the start.
    pub const fn max_count(self) -> u32 {
        match self {
            Kind::King => 1,
            Kind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece: its side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub colour: Colour,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece { colour, kind }
    }
    pub(crate) const fn code(self) -> u8 {
        self.kind as u8
            | if matches!(self.colour, Colour::Black) {
                8
            } else {
                0
            }
    }
    pub(crate) const fn from_code(c: u8) -> Option<Piece> {
        match Kind::from_code(c) {
            Some(kind) => Some(Piece {
                colour: if c & 8 != 0 {
                    Colour::Black
                } else {
                    Colour::Red
                },
                kind,
            }),
            None => None,
        }
    }
    /// The FEN letter: upper case for red (K A B N R C P), lower case for black.
    pub fn fen_char(self) -> char {
        let c = match self.kind {
            Kind::King => 'k',
            Kind::Advisor => 'a',
            Kind::Elephant => 'b',
            Kind::Horse => 'n',
            Kind::Rook => 'r',
            Kind::Cannon => 'c',
            Kind::Pawn => 'p',
        };
        match self.colour {
            Colour::Red => c.to_ascii_uppercase(),
            Colour::Black => c,
        }
    }
    /// A FEN letter (also the UCCI aliases E for the elephant and H for the horse).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_lowercase() {
            'k' => Kind::King,
            'a' => Kind::Advisor,
            'b' | 'e' => Kind::Elephant,
            'n' | 'h' => Kind::Horse,
            'r' => Kind::Rook,
            'c' => Kind::Cannon,
            'p' => Kind::Pawn,
            _ => return None,
        };
        let colour = if c.is_ascii_uppercase() {
            Colour::Red
        } else {
            Colour::Black
        };
        Some(Piece { colour, kind })
    }
    /// The Chinese name: 帅仕相马车炮兵 for red, 将士象马车炮卒 for black.
    pub fn zh(self) -> char {
        match (self.colour, self.kind) {
            (Colour::Red, Kind::King) => '帅',
            (Colour::Red, Kind::Advisor) => '仕',
            (Colour::Red, Kind::Elephant) => '相',
            (Colour::Red, Kind::Pawn) => '兵',
            (Colour::Black, Kind::King) => '将',
            (Colour::Black, Kind::Advisor) => '士',
            (Colour::Black, Kind::Elephant) => '象',
            (Colour::Black, Kind::Pawn) => '卒',
            (_, Kind::Horse) => '马',
            (_, Kind::Rook) => '车',
            (_, Kind::Cannon) => '炮',
        }
    }
}

/// A square, `rank * 9 + file` (0..90).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 9 + file)
    }
    pub const fn file(self) -> u8 {
        self.0 % 9
    }
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Square {
    /// ICCS coordinates, `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move: from one square to another. Whether it is legal depends on the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    /// ICCS, `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

// ---------------------------------------------------------------------------------------
// Geometry, computed at compile time.

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

const fn sq(file: i32, rank: i32) -> u8 {
    (rank * 9 + file) as u8
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && ((rank >= 0 && rank <= 2) || (rank >= 7 && rank <= 9))
}

/// Directions: north (towards black), south, east (towards file i), west.
pub(crate) const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// Up to 8 targets with an optional blocking square each (horse leg, elephant eye).
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub to: [u8; 8],
    pub via: [u8; 8],
    pub len: u8,
}

impl Steps {
    const EMPTY: Steps = Steps {
        to: [0; 8],
        via: [0; 8],
        len: 0,
    };
    const fn push(mut self, to: u8, via: u8) -> Steps {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }
}

/// The squares along a ray from a square, nearest first.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    pub sq: [u8; 9],
    pub len: u8,
}

const fn make_rays() -> [[Ray; 4]; 90] {
    let mut out = [[Ray { sq: [0; 9], len: 0 }; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let (mut x, mut y) = (f + df, r + dr);
            while on_board(x, y) {
                let ray = &mut out[s][d];
                ray.sq[ray.len as usize] = sq(x, y);
                ray.len += 1;
                x += df;
                y += dr;
            }
            d += 1;
        }
        s += 1;
    }
    out
}

const HORSE_D: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn make_horse() -> [Steps; 90] {
    let mut out = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_D[i];
            if on_board(f + df, r + dr) {
                out[s] = out[s].push(sq(f + df, r + dr), sq(f + lf, r + lr));
            }
            i += 1;
        }
        s += 1;
    }
    out
}

/// For a square, the horses that would attack it: (horse square, its leg).
const fn make_horse_attackers(horse: &[Steps; 90]) -> [Steps; 90] {
    let mut out = [Steps::EMPTY; 90];
    let mut h = 0;
    while h < 90 {
        let mut i = 0;
        while i < horse[h].len as usize {
            let t = horse[h].to[i] as usize;
            out[t] = out[t].push(h as u8, horse[h].via[i]);
            i += 1;
        }
        h += 1;
    }
    out
}

const fn make_elephant() -> [Steps; 90] {
    let mut out = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let red_half = r <= 4;
        let d = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
        let mut i = 0;
        while i < 4 {
            let (x, y) = (f + d[i].0, r + d[i].1);
            if on_board(x, y) && ((y <= 4) == red_half) {
                out[s] = out[s].push(sq(x, y), sq(f + d[i].0 / 2, r + d[i].1 / 2));
            }
            i += 1;
        }
        s += 1;
    }
    out
}

const fn make_advisor() -> [Steps; 90] {
    let mut out = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let d = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut i = 0;
        while i < 4 {
            let (x, y) = (f + d[i].0, r + d[i].1);
            if in_palace(f, r) && in_palace(x, y) && ((y <= 4) == (r <= 4)) {
                out[s] = out[s].push(sq(x, y), 0);
            }
            i += 1;
        }
        s += 1;
    }
    out
}

const fn make_king() -> [Steps; 90] {
    let mut out = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (x, y) = (f + DIRS[i].0, r + DIRS[i].1);
            if in_palace(f, r) && in_palace(x, y) && ((y <= 4) == (r <= 4)) {
                out[s] = out[s].push(sq(x, y), 0);
            }
            i += 1;
        }
        s += 1;
    }
    out
}

/// Pawn steps by side: forward always, sideways once across the river.
const fn make_pawn() -> [[Steps; 90]; 2] {
    let mut out = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            if on_board(f, r + fwd) {
                out[c][s] = out[c][s].push(sq(f, r + fwd), 0);
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                if f > 0 {
                    out[c][s] = out[c][s].push(sq(f - 1, r), 0);
                }
                if f < 8 {
                    out[c][s] = out[c][s].push(sq(f + 1, r), 0);
                }
            }
            s += 1;
        }
        c += 1;
    }
    out
}

/// For a square and a side, the squares from which a pawn of that side attacks it.
const fn make_pawn_attackers(pawn: &[[Steps; 90]; 2]) -> [[Steps; 90]; 2] {
    let mut out = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let mut i = 0;
            while i < pawn[c][s].len as usize {
                let t = pawn[c][s].to[i] as usize;
                out[c][t] = out[c][t].push(s as u8, 0);
                i += 1;
            }
            s += 1;
        }
        c += 1;
    }
    out
}

pub(crate) static RAYS: [[Ray; 4]; 90] = make_rays();
pub(crate) static HORSE: [Steps; 90] = make_horse();
pub(crate) static HORSE_ATTACKERS: [Steps; 90] = make_horse_attackers(&make_horse());
pub(crate) static ELEPHANT: [Steps; 90] = make_elephant();
pub(crate) static ADVISOR: [Steps; 90] = make_advisor();
pub(crate) static KING: [Steps; 90] = make_king();
pub(crate) static PAWN: [[Steps; 90]; 2] = make_pawn();
pub(crate) static PAWN_ATTACKERS: [[Steps; 90]; 2] = make_pawn_attackers(&make_pawn());

/// Where a piece may stand at all: advisors on the palace's five points, elephants on their
/// seven, pawns in front of their starting rank (on the start and next rank only on the
/// five pawn files), kings in the palace.
pub(crate) fn square_allowed(p: Piece, s: Square) -> bool {
    let (f, r) = (s.file() as i32, s.rank() as i32);
    // Ranks seen from the piece's own side.
    let own_r = match p.colour {
        Colour::Red => r,
        Colour::Black => 9 - r,
    };
    match p.kind {
        Kind::King => in_palace(f, own_r) && own_r <= 2,
        Kind::Advisor => {
            own_r <= 2 && matches!((f, own_r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2))
        }
        Kind::Elephant => matches!(
            (f, own_r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        Kind::Pawn => own_r >= 5 || (own_r >= 3 && f % 2 == 0),
        _ => true,
    }
}

// ---------------------------------------------------------------------------------------
// Zobrist keys, from a fixed splitmix64 sequence.

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn make_zobrist() -> [[u64; 90]; 16] {
    let mut out = [[0u64; 90]; 16];
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 90 {
            out[p][s] = splitmix((p * 90 + s) as u64 * 0x1234_5677 + 17);
            s += 1;
        }
        p += 1;
    }
    out
}

static ZOBRIST: [[u64; 90]; 16] = make_zobrist();
const ZOBRIST_BLACK: u64 = splitmix(0xB1AC_0000_0000_0001);

// ---------------------------------------------------------------------------------------
// The position.

/// A position: the pieces, the side to move and the two counters of a FEN (half-moves since
/// the last capture, the move number).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u8; 90],
    pub(crate) occ: [u128; 2],
    pub(crate) king: [u8; 2],
    pub(crate) side: Colour,
    pub(crate) hash: u64,
    /// Half-moves (plies) since the last capture.
    pub(crate) halfmove: u32,
    /// The number of the move to be played (starts at 1, counts up after black's move).
    pub(crate) fullmove: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// What `make_move` needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    pub captured: Option<Piece>,
    pub halfmove: u32,
    pub fullmove: u32,
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        Position::from_fen(crate::fen::START_FEN).expect("start position")
    }

    pub(crate) fn empty(side: Colour) -> Position {
        Position {
            board: [0; 90],
            occ: [0; 2],
            king: [0; 2],
            side,
            hash: if side == Colour::Black {
                ZOBRIST_BLACK
            } else {
                0
            },
            halfmove: 0,
            fullmove: 1,
        }
    }

    pub(crate) fn put(&mut self, s: Square, p: Piece) {
        let c = p.code();
        self.board[s.index()] = c;
        self.occ[p.colour.index()] |= 1u128 << s.0;
        self.hash ^= ZOBRIST[c as usize][s.index()];
        if p.kind == Kind::King {
            self.king[p.colour.index()] = s.0;
        }
    }

    pub fn side_to_move(&self) -> Colour {
        self.side
    }
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        Piece::from_code(self.board[s.index()])
    }
    /// The Zobrist key of the pieces and the side to move (not the counters).
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    pub fn king_square(&self, c: Colour) -> Square {
        Square(self.king[c.index()])
    }
    /// Every piece with its square, by square.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..90u8).filter_map(|s| self.piece_at(Square(s)).map(|p| (Square(s), p)))
    }

    /// Plays a move known to be legal (or at least pseudo-legal); updates the counters.
    pub fn make_move(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: Piece::from_code(self.board[m.to.index()]),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        };
        let cap = self.make(m);
        self.halfmove = if cap != 0 { 0 } else { self.halfmove + 1 };
        if self.side == Colour::Red {
            self.fullmove += 1;
        }
        undo
    }

    /// Takes back a move played by `make_move`.
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        self.unmake(m, undo.captured.map_or(0, Piece::code));
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
    }

    /// The fast make: pieces, occupancy, king, hash, side. Returns the captured code.
    #[inline(always)]
    pub(crate) fn make(&mut self, m: Move) -> u8 {
        let (f, t) = (m.from.index(), m.to.index());
        let piece = self.board[f];
        let cap = self.board[t];
        let us = self.side.index();
        self.board[t] = piece;
        self.board[f] = 0;
        self.occ[us] ^= (1u128 << f) | (1u128 << t);
        let mut h = self.hash ^ ZOBRIST[piece as usize][f] ^ ZOBRIST[piece as usize][t];
        if cap != 0 {
            self.occ[us ^ 1] ^= 1u128 << t;
            h ^= ZOBRIST[cap as usize][t];
        }
        if piece & 7 == Kind::King as u8 {
            self.king[us] = t as u8;
        }
        self.hash = h ^ ZOBRIST_BLACK;
        self.side = self.side.other();
        cap
    }

    #[inline(always)]
    pub(crate) fn unmake(&mut self, m: Move, cap: u8) {
        let (f, t) = (m.from.index(), m.to.index());
        self.side = self.side.other();
        let us = self.side.index();
        let piece = self.board[t];
        self.board[f] = piece;
        self.board[t] = cap;
        self.occ[us] ^= (1u128 << f) | (1u128 << t);
        let mut h = self.hash ^ ZOBRIST[piece as usize][f] ^ ZOBRIST[piece as usize][t];
        if cap != 0 {
            self.occ[us ^ 1] ^= 1u128 << t;
            h ^= ZOBRIST[cap as usize][t];
        }
        if piece & 7 == Kind::King as u8 {
            self.king[us] = f as u8;
        }
        self.hash = h ^ ZOBRIST_BLACK;
    }

    /// Whether the square `s` is attacked by side `by` (flying general included: a king sees
    /// along its file to the first piece).
    #[inline]
    pub fn attacked(&self, s: Square, by: Colour) -> bool {
        let s = s.index();
        let them = if by == Colour::Black { 8u8 } else { 0 };
        let rook = Kind::Rook as u8 | them;
        let cannon = Kind::Cannon as u8 | them;
        let king = Kind::King as u8 | them;
        for (d, ray) in RAYS[s].iter().enumerate() {
            let mut i = 0;
            let n = ray.len as usize;
            while i < n {
                let p = self.board[ray.sq[i] as usize];
                i += 1;
                if p != 0 {
                    if p == rook || (d < 2 && p == king) {
                        return true;
                    }
                    while i < n {
                        let q = self.board[ray.sq[i] as usize];
                        i += 1;
                        if q != 0 {
                            if q == cannon {
                                return true;
                            }
                            break;
                        }
                    }
                    break;
                }
            }
        }
        let horse = Kind::Horse as u8 | them;
        let ha = &HORSE_ATTACKERS[s];
        for i in 0..ha.len as usize {
            if self.board[ha.to[i] as usize] == horse && self.board[ha.via[i] as usize] == 0 {
                return true;
            }
        }
        let pawn = Kind::Pawn as u8 | them;
        let pa = &PAWN_ATTACKERS[by.index()][s];
        for i in 0..pa.len as usize {
            if self.board[pa.to[i] as usize] == pawn {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked(Square(self.king[self.side.index()]), self.side.other())
    }

    /// Whether the side that just moved left its own king attacked.
    #[inline]
    pub(crate) fn mover_in_check(&self) -> bool {
        let mover = self.side.other();
        self.attacked(Square(self.king[mover.index()]), self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        // A horse in the corner has two moves; in the middle eight.
        assert_eq!(HORSE[Square::new(0, 0).index()].len, 2);
        assert_eq!(HORSE[Square::new(4, 4).index()].len, 8);
        // The red elephant on c0 goes to a2 and e2; never across the river.
        assert_eq!(ELEPHANT[Square::new(2, 0).index()].len, 2);
        assert_eq!(ELEPHANT[Square::new(2, 4).index()].len, 2);
        // Advisor in the palace centre: four; king in the palace corner: two.
        assert_eq!(ADVISOR[Square::new(4, 1).index()].len, 4);
        assert_eq!(KING[Square::new(3, 0).index()].len, 2);
        // A red pawn before the river steps forward only; across, three ways.
        assert_eq!(PAWN[0][Square::new(0, 3).index()].len, 1);
        assert_eq!(PAWN[0][Square::new(4, 5).index()].len, 3);
        assert_eq!(PAWN[0][Square::new(4, 9).index()].len, 2);
    }

    #[test]
    fn make_unmake_restores() {
        let mut p = Position::start();
        let before = p.clone();
        let m = Move::new(Square::new(7, 2), Square::new(7, 9)); // cannon h2 takes horse h9
        let u = p.make_move(m);
        assert_eq!(u.captured, Some(Piece::new(Colour::Black, Kind::Horse)));
        assert_ne!(p.hash(), before.hash());
        p.unmake_move(m, u);
        assert_eq!(p, before);
    }
}
