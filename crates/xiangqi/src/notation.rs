//! The three notations, written and read.
//!
//! - **ICCS** (coordinates): `h2e2` — file `a`..`i` from red's left, rank `0`..`9` from red's
//!   side. Read also as `H2-E2`.
//! - **WXF**: `C2=5` — piece letter (K A E H R C P; read also G, B, N and lower case), the
//!   file it stands on counted from the mover's right (1..9), `+` forward, `-` back, `=`
//!   sideways (`.` is read too), then the file it goes to (sideways moves, and the horse,
//!   elephant and advisor) or the number of ranks. Two pieces of a kind on one file: `+C=5`
//!   (front) and `-C=5` (rear) (`C+.5`, the WXF committee's order, is read too); three
//!   pawns: `+P`, `P3` (the middle one), `-P`; four or five: `++`, `+P`, `P3`, `-P`, `--`;
//!   pawns doubled on two files: the file then `+`, `-` or the file again (middle), `3+=4`.
//! - **Chinese**: `炮二平五`, `马８进７` — red's numbers in Chinese numerals, black's in
//!   full-width digits (ASCII digits and the other side's numerals are read too, as are the
//!   traditional characters 帥將俥傌車馬砲進後). Tandem pieces: `前车进一`, `后炮平四`;
//!   three pawns: `前兵`, `中兵`, `后兵`; four or five: `一兵`, `二兵` … from the front; pawns
//!   doubled on two files: the file in place of the name, `前三平四`.
//!
//! A move is read against the position: the text is matched with the description of every
//! legal move, so an illegal move and an ambiguous one are told apart.

use crate::board::{Colour, Kind, Move, Position, Square};
use std::fmt;

/// A notation, for writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

impl Notation {
    /// The name used in PGN's `[Format …]` tag.
    pub fn pgn_name(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
    /// A `[Format …]` value (case-insensitive; 象棋巫师 writes `Chinese`, `WXF`, `ICCS`).
    pub fn from_pgn_name(s: &str) -> Option<Notation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" => Some(Notation::Iccs),
            "wxf" => Some(Notation::Wxf),
            "chinese" | "" => Some(Notation::Chinese),
            _ => None,
        }
    }
}

/// Why a move's text was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotationErrorKind {
    /// Not a move in any of the three notations.
    Unreadable,
    /// A move in form, but no legal move of the side to move is described by it.
    Illegal,
    /// More than one legal move is described by it.
    Ambiguous,
}

impl NotationErrorKind {
    pub fn zh(self) -> &'static str {
        match self {
            NotationErrorKind::Unreadable => "无法识别的着法",
            NotationErrorKind::Illegal => "不合法的着法",
            NotationErrorKind::Ambiguous => "有歧义的着法",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            NotationErrorKind::Unreadable => "unreadable move",
            NotationErrorKind::Illegal => "illegal move",
            NotationErrorKind::Ambiguous => "ambiguous move",
        }
    }
}

/// A refused move of a move list: its move number (回合, as a record numbers it), the side
/// that was to play it, the text and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("第 {number} 回合{side}「{text}」：{zh} (move {number}, {side_en}, 「{text}」: {en})",
    side = .side.zh(),
    zh = .kind.zh(),
    side_en = if *.side == Colour::Red { "red" } else { "black" },
    en = .kind.en())]
pub struct NotationError {
    pub number: u32,
    pub side: Colour,
    pub text: String,
    pub kind: NotationErrorKind,
}

// ---------------------------------------------------------------------------------------
// Describing a legal move (the shared shape of WXF and Chinese).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Advance,
    Retreat,
    Traverse,
}

/// How a legal move is described in the file notations.
#[derive(Clone, Copy, Debug)]
struct Desc {
    colour: Colour,
    kind: Kind,
    /// The file it stands on, from the mover's right (1..9).
    file: u8,
    /// How many pieces of this kind and side stand on that file.
    count: u8,
    /// Its place among them from the front (0 = nearest the enemy).
    index: u8,
    /// A pawn, and another file also has two or more of the side's pawns.
    multi: bool,
    dir: Dir,
    target: u8,
}

fn file_no(c: Colour, file: u8) -> u8 {
    match c {
        Colour::Red => 9 - file,
        Colour::Black => file + 1,
    }
}

fn describe(pos: &Position, m: Move) -> Option<Desc> {
    let p = pos.piece_at(m.from)?;
    let c = p.colour;
    let (f, r) = (m.from.file(), m.from.rank());
    let (f2, r2) = (m.to.file(), m.to.rank());
    let same_file = |file: u8| -> Vec<u8> {
        let mut ranks: Vec<u8> = (0..10)
            .filter(|&rk| pos.piece_at(Square::new(file, rk)) == Some(p))
            .collect();
        // Front first: the red front is the higher rank.
        if c == Colour::Red {
            ranks.reverse();
        }
        ranks
    };
    let ranks = same_file(f);
    let index = ranks.iter().position(|&x| x == r)? as u8;
    let multi = p.kind == Kind::Pawn
        && ranks.len() >= 2
        && (0..9u8).any(|g| g != f && same_file(g).len() >= 2);
    let forward = match c {
        Colour::Red => r2 > r,
        Colour::Black => r2 < r,
    };
    let dir = if r2 == r {
        Dir::Traverse
    } else if forward {
        Dir::Advance
    } else {
        Dir::Retreat
    };
    let target = match (dir, p.kind) {
        (Dir::Traverse, _) | (_, Kind::Horse | Kind::Elephant | Kind::Advisor) => file_no(c, f2),
        _ => r.abs_diff(r2),
    };
    Some(Desc {
        colour: c,
        kind: p.kind,
        file: file_no(c, f),
        count: ranks.len() as u8,
        index,
        multi,
        dir,
        target,
    })
}

// ---------------------------------------------------------------------------------------
// Writing.

const ZH_NUM: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn zh_numeral(c: Colour, n: u8) -> char {
    match c {
        Colour::Red => ZH_NUM[n as usize - 1],
        Colour::Black => char::from_u32(0xFF10 + n as u32).unwrap_or('?'),
    }
}

fn wxf_letter(k: Kind) -> char {
    match k {
        Kind::King => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Rook => 'R',
        Kind::Cannon => 'C',
        Kind::Pawn => 'P',
    }
}

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

impl Position {
    /// A legal move in ICCS, `h2e2`.
    pub fn to_iccs(&self, m: Move) -> String {
        m.to_string()
    }

    /// A legal move in WXF, `C2=5` (module doc).
    pub fn to_wxf(&self, m: Move) -> String {
        let Some(d) = describe(self, m) else {
            return m.to_string();
        };
        let l = wxf_letter(d.kind);
        let f = digit(d.file);
        let (a, b) = match (d.count, d.index, d.multi) {
            (1, _, _) => (l, f),
            (2 | 3, i, true) => (
                f,
                match (i, d.count) {
                    (0, _) => '+',
                    (i, n) if i + 1 == n => '-',
                    _ => f,
                },
            ),
            (2 | 3, i, false) => match (i, d.count) {
                (0, _) => ('+', l),
                (i, n) if i + 1 == n => ('-', l),
                _ => (l, f),
            },
            (n, i, _) => match i {
                0 => ('+', '+'),
                1 => ('+', l),
                i if i + 1 == n => ('-', '-'),
                i if i + 2 == n => ('-', l),
                _ => (l, f),
            },
        };
        let dir = match d.dir {
            Dir::Advance => '+',
            Dir::Retreat => '-',
            Dir::Traverse => '=',
        };
        [a, b, dir, digit(d.target)].iter().collect()
    }

    /// A legal move in Chinese, `炮二平五` (module doc).
    pub fn to_chinese(&self, m: Move) -> String {
        let Some(d) = describe(self, m) else {
            return m.to_string();
        };
        let Some(p) = self.piece_at(m.from) else {
            return m.to_string();
        };
        let name = p.zh();
        let fnum = zh_numeral(d.colour, d.file);
        let (a, b) = match d.count {
            1 => (name, fnum),
            2 | 3 => {
                let w = match (d.index, d.count) {
                    (0, _) => '前',
                    (i, n) if i + 1 == n => '后',
                    _ => '中',
                };
                (w, if d.multi { fnum } else { name })
            }
            _ => (ZH_NUM[d.index as usize], name),
        };
        let dir = match d.dir {
            Dir::Advance => '进',
            Dir::Retreat => '退',
            Dir::Traverse => '平',
        };
        [a, b, dir, zh_numeral(d.colour, d.target)].iter().collect()
    }

    /// A legal move in the given notation.
    pub fn to_notation(&self, m: Move, n: Notation) -> String {
        match n {
            Notation::Iccs => self.to_iccs(m),
            Notation::Wxf => self.to_wxf(m),
            Notation::Chinese => self.to_chinese(m),
        }
    }

    /// Reads a move in any of the three notations and finds the legal move it names.
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationErrorKind> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if let Some(m) = parse_iccs(&t) {
            return if self.piece_at(m.from).map(|p| p.colour) == Some(self.side)
                && self.legal_moves().iter().any(|&x| x == m)
            {
                Ok(m)
            } else {
                Err(NotationErrorKind::Illegal)
            };
        }
        let pat = if t.is_ascii() {
            parse_wxf(&t)
        } else {
            parse_chinese(&t)
        }
        .ok_or(NotationErrorKind::Unreadable)?;
        let legal = self.legal_moves();
        let found: Vec<(Move, Desc)> = legal
            .iter()
            .filter_map(|&m| describe(self, m).map(|d| (m, d)))
            .filter(|(_, d)| pat.matches(d))
            .collect();
        match found.len() {
            0 => Err(NotationErrorKind::Illegal),
            1 => Ok(found[0].0),
            _ => {
                // A file given where the writer ignored a tandem: the single piece of that
                // file, or the middle one of three or five, if that decides it.
                if let Sel::File(_) = pat.sel {
                    let narrowed: Vec<&(Move, Desc)> = found
                        .iter()
                        .filter(|(_, d)| {
                            d.count == 1 || (d.count % 2 == 1 && d.index == d.count / 2)
                        })
                        .collect();
                    if narrowed.len() == 1 {
                        return Ok(narrowed[0].0);
                    }
                }
                Err(NotationErrorKind::Ambiguous)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reading.

/// ICCS text, `h2e2` or `H2-E2`, as a pair of squares (no legality).
pub fn parse_iccs(t: &str) -> Option<Move> {
    let b = t.as_bytes();
    let b: Vec<u8> = match b.len() {
        4 => b.to_vec(),
        5 if b[2] == b'-' => vec![b[0], b[1], b[3], b[4]],
        _ => return None,
    };
    let sq = |f: u8, r: u8| -> Option<Square> {
        let f = f.to_ascii_lowercase();
        if (b'a'..=b'i').contains(&f) && r.is_ascii_digit() {
            Some(Square::new(f - b'a', r - b'0'))
        } else {
            None
        }
    };
    Some(Move::new(sq(b[0], b[1])?, sq(b[2], b[3])?))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Front,
    Rear,
    Mid,
    /// 1-based place from the front (一兵, 二兵 …).
    Nth(u8),
    /// WXF `+`: the front of two or three, the second of four or five.
    WxfPlus,
    /// WXF `-`: the rear of two or three, the second-last of four or five.
    WxfMinus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sel {
    File(u8),
    Place { which: Which, file: Option<u8> },
}

#[derive(Clone, Copy, Debug)]
struct Pattern {
    kind: Option<Kind>,
    sel: Sel,
    dir: Dir,
    target: u8,
}

impl Pattern {
    fn matches(&self, d: &Desc) -> bool {
        if self.kind.is_some_and(|k| k != d.kind) || self.dir != d.dir || self.target != d.target {
            return false;
        }
        match self.sel {
            Sel::File(f) => d.file == f,
            Sel::Place { which, file } => {
                if file.is_some_and(|f| f != d.file) || d.count < 2 {
                    return false;
                }
                let (i, n) = (d.index, d.count);
                match which {
                    Which::Front => i == 0,
                    Which::Rear => i + 1 == n,
                    Which::Mid => n % 2 == 1 && i == n / 2,
                    Which::Nth(k) => i + 1 == k,
                    Which::WxfPlus => i == u8::from(n >= 4),
                    Which::WxfMinus => i + 1 + u8::from(n >= 4) == n,
                }
            }
        }
    }
}

fn wxf_kind(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'K' | 'G' => Kind::King,
        'A' => Kind::Advisor,
        'E' | 'B' => Kind::Elephant,
        'H' | 'N' => Kind::Horse,
        'R' => Kind::Rook,
        'C' => Kind::Cannon,
        'P' | 'S' => Kind::Pawn,
        _ => return None,
    })
}

fn num(c: char) -> Option<u8> {
    let n = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '０' as u32,
        _ => ZH_NUM.iter().position(|&z| z == c)? as u32 + 1,
    };
    Some(n as u8)
}

fn parse_wxf(t: &str) -> Option<Pattern> {
    let c: Vec<char> = t.chars().collect();
    if c.len() != 4 {
        return None;
    }
    let dir = match c[2] {
        '+' => Dir::Advance,
        '-' => Dir::Retreat,
        '.' | '=' => Dir::Traverse,
        _ => return None,
    };
    let target = c[3].to_digit(10).filter(|&d| d >= 1)? as u8;
    let place = |which, file| Sel::Place { which, file };
    let (kind, sel) = match (c[0], c[1]) {
        ('+', '+') => (Some(Kind::Pawn), place(Which::Front, None)),
        ('-', '-') => (Some(Kind::Pawn), place(Which::Rear, None)),
        ('+', l) | (l, '+') if wxf_kind(l).is_some() => (wxf_kind(l), place(Which::WxfPlus, None)),
        ('-', l) | (l, '-') if wxf_kind(l).is_some() => (wxf_kind(l), place(Which::WxfMinus, None)),
        (l, d) if wxf_kind(l).is_some() && d.is_ascii_digit() => (
            wxf_kind(l),
            Sel::File(d.to_digit(10).filter(|&d| d >= 1)? as u8),
        ),
        (d, s) if d.is_ascii_digit() && d != '0' => {
            let f = d.to_digit(10)? as u8;
            let which = match s {
                '+' => Which::Front,
                '-' => Which::Rear,
                s if s == d => Which::Mid,
                _ => return None,
            };
            (Some(Kind::Pawn), place(which, Some(f)))
        }
        _ => return None,
    };
    Some(Pattern {
        kind,
        sel,
        dir,
        target,
    })
}

fn zh_kind(c: char) -> Option<Kind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Kind::King,
        '仕' | '士' => Kind::Advisor,
        '相' | '象' => Kind::Elephant,
        '马' | '馬' | '傌' | '䭾' => Kind::Horse,
        '车' | '車' | '俥' | '伡' => Kind::Rook,
        '炮' | '砲' | '包' => Kind::Cannon,
        '兵' | '卒' => Kind::Pawn,
        _ => return None,
    })
}

fn zh_which(c: char) -> Option<Which> {
    Some(match c {
        '前' => Which::Front,
        '后' | '後' => Which::Rear,
        '中' => Which::Mid,
        _ => return None,
    })
}

fn parse_chinese(t: &str) -> Option<Pattern> {
    let c: Vec<char> = t.chars().collect();
    if c.len() != 4 {
        return None;
    }
    let dir = match c[2] {
        '进' | '進' => Dir::Advance,
        '退' => Dir::Retreat,
        '平' => Dir::Traverse,
        _ => return None,
    };
    let target = num(c[3])?;
    let (kind, sel) = if let Some(k) = zh_kind(c[0]) {
        if let Some(n) = num(c[1]) {
            (Some(k), Sel::File(n))
        } else {
            let which = zh_which(c[1])?;
            (Some(k), Sel::Place { which, file: None })
        }
    } else if let Some(which) = zh_which(c[0]) {
        if let Some(k) = zh_kind(c[1]) {
            (Some(k), Sel::Place { which, file: None })
        } else {
            let f = num(c[1])?;
            (
                Some(Kind::Pawn),
                Sel::Place {
                    which,
                    file: Some(f),
                },
            )
        }
    } else {
        let n = num(c[0]).filter(|&n| n <= 5)?;
        let k = zh_kind(c[1])?;
        (
            Some(k),
            Sel::Place {
                which: Which::Nth(n),
                file: None,
            },
        )
    };
    Some(Pattern {
        kind,
        sel,
        dir,
        target,
    })
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        parse_iccs(s).unwrap()
    }

    #[test]
    fn opening_moves_in_all_notations() {
        let mut p = Position::start();
        let m = mv("h2e2");
        assert_eq!(p.to_chinese(m), "炮二平五");
        assert_eq!(p.to_wxf(m), "C2=5");
        assert_eq!(p.parse_move("炮二平五"), Ok(m));
        assert_eq!(p.parse_move("C2.5"), Ok(m));
        assert_eq!(p.parse_move("c2=5"), Ok(m));
        assert_eq!(p.parse_move("H2-E2"), Ok(m));
        assert_eq!(p.parse_move("炮2平5"), Ok(m));
        p.make_move(m);
        let m = mv("h9g7");
        assert_eq!(p.to_chinese(m), "马８进７");
        assert_eq!(p.to_wxf(m), "H8+7");
        assert_eq!(p.parse_move("马8进7"), Ok(m));
        assert_eq!(p.parse_move("馬８進７"), Ok(m));
        assert_eq!(p.parse_move("h8+7"), Ok(m));
    }

    #[test]
    fn errors() {
        let p = Position::start();
        assert_eq!(p.parse_move("炮二平九"), Err(NotationErrorKind::Illegal));
        assert_eq!(p.parse_move("hello"), Err(NotationErrorKind::Unreadable));
        assert_eq!(p.parse_move("h2h9x"), Err(NotationErrorKind::Unreadable));
        assert_eq!(p.parse_move("e0e2"), Err(NotationErrorKind::Illegal));
        // The horse on b0 is not black's to move.
        let mut q = p.clone();
        q.make_move(mv("h2e2"));
        assert_eq!(q.parse_move("b0c2"), Err(NotationErrorKind::Illegal));
    }

    #[test]
    fn tandem_rooks_and_cannons() {
        // Red rooks on e3 and e6 (file 5 for red); red cannons on b2, b7.
        let p = Position::from_fen("3k5/9/9/4R4/9/9/4R4/9/9/5K3 w").unwrap();
        let front = mv("e6e8");
        assert_eq!(p.to_chinese(front), "前车进二");
        assert_eq!(p.to_wxf(front), "+R+2");
        assert_eq!(p.parse_move("R+.6"), Ok(mv("e6d6")));
        assert_eq!(p.parse_move("+R=6"), Ok(mv("e6d6")));
        let rear = mv("e3a3");
        assert_eq!(p.to_chinese(rear), "后车平九");
        assert_eq!(p.to_wxf(rear), "-R=9");
        assert_eq!(p.parse_move("后车平九"), Ok(rear));
        assert_eq!(p.parse_move("车后平九"), Ok(rear));
        // Both rooks on file 5 can go to file 6: ambiguous without 前/后.
        assert_eq!(p.parse_move("车五平四"), Err(NotationErrorKind::Ambiguous));
    }

    #[test]
    fn tandem_pawns() {
        // Black pawns c4, c3, c2 (three on black's file 3) and g2 g1 (two on file 7).
        let p = Position::from_fen("4k4/9/9/9/9/2p6/2p3p2/2p3p2/9/3K5 b").unwrap();
        // Black's front is towards rank 0.
        let front3 = mv("c2b2");
        assert_eq!(p.to_chinese(front3), "前３平２");
        assert_eq!(p.to_wxf(front3), "3+=2");
        let mid3 = mv("c3b3");
        assert_eq!(p.to_chinese(mid3), "中３平２");
        assert_eq!(p.to_wxf(mid3), "33=2");
        let rear7 = mv("g3f3");
        assert_eq!(p.to_chinese(rear7), "后７平６");
        assert_eq!(p.to_wxf(rear7), "7-=6");
        // Five pawns on a file, red.
        let q = Position::from_fen("3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w").unwrap();
        assert_eq!(q.to_chinese(mv("e8d8")), "一兵平六");
        assert_eq!(q.to_chinese(mv("e7d7")), "二兵平六");
        assert_eq!(q.to_chinese(mv("e6d6")), "三兵平六");
        assert_eq!(q.to_chinese(mv("e4d4")), "五兵平六");
        assert_eq!(q.to_wxf(mv("e8d8")), "++=6");
        assert_eq!(q.to_wxf(mv("e7d7")), "+P=6");
        assert_eq!(q.to_wxf(mv("e6d6")), "P5=6");
        assert_eq!(q.to_wxf(mv("e5d5")), "-P=6");
        assert_eq!(q.to_wxf(mv("e4d4")), "--=6");
        for m in q.legal_moves().iter() {
            assert_eq!(q.parse_move(&q.to_chinese(*m)), Ok(*m));
            assert_eq!(q.parse_move(&q.to_wxf(*m)), Ok(*m));
        }
        assert_eq!(q.parse_move("前兵平六"), Ok(mv("e8d8")));
        // The rearmost pawn stands before the river: it cannot step sideways.
        assert_eq!(q.parse_move("后兵平六"), Err(NotationErrorKind::Illegal));
    }
}
