//! FEN as UCCI writes it: ten ranks from black's side (rank 9) to red's (rank 0), red upper
//! case, `K A B N R C P` (also `E` and `H` read), then the side to move `w` (red; `r` is read
//! too) or `b`, then optionally `- -`, the half-moves since the last capture and the move
//! number. Only positions that can stand on a board are accepted: one king a side in its
//! palace, no more pieces of a kind than a side owns, advisors, elephants and pawns on their
//! points, and the side that has just moved not in check.

use crate::board::{square_allowed, Colour, Kind, Piece, Position, Square};
use std::fmt;

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("FEN 的棋盘须有 10 行，此处 {0} 行 (the board needs 10 ranks, found {0})")]
    Ranks(usize),
    #[error("FEN 第 {rank} 行不是 9 格 (rank {rank} is not 9 squares wide)")]
    RankWidth { rank: usize },
    #[error("FEN 中未知的字符「{0}」(unknown character)")]
    Char(char),
    #[error("FEN 的走子方须为 w 或 b，此处为「{0}」(side to move must be w or b)")]
    Side(String),
    #[error("FEN 的计数「{0}」不是数字 (counter is not a number)")]
    Counter(String),
    #[error("{side}缺少{king} (no {king} for this side)", side = .0.zh(), king = if *.0 == Colour::Red { "帅" } else { "将" })]
    NoKing(Colour),
    #[error("{}的{}多于 {} 个 (too many pieces of this kind)", .0.colour.zh(), .0.zh(), .0.kind.max_count())]
    TooMany(Piece),
    #[error("{}的{}不能在 {} (this piece cannot stand on that square)", .0.colour.zh(), .0.zh(), .1)]
    Square(Piece, Square),
    #[error("不走棋的一方正被将军 (the side not to move is in check)")]
    OppositeInCheck,
}

impl Position {
    /// Reads a FEN (module doc).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap_or("");
        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Colour::Red,
            Some("b") | Some("B") => Colour::Black,
            Some(s) => return Err(FenError::Side(s.to_string())),
        };
        let mut p = Position::empty(side);
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 10 {
            return Err(FenError::Ranks(rows.len()));
        }
        let mut counts = [[0u32; 8]; 2];
        let mut kings = [false; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::Char(c));
                    }
                    file = file.saturating_add(d as u8);
                    if file > 9 {
                        return Err(FenError::RankWidth { rank: i + 1 });
                    }
                    continue;
                }
                let piece = Piece::from_fen_char(c).ok_or(FenError::Char(c))?;
                if file >= 9 {
                    return Err(FenError::RankWidth { rank: i + 1 });
                }
                let s = Square::new(file, rank);
                if !square_allowed(piece, s) {
                    return Err(FenError::Square(piece, s));
                }
                let n = &mut counts[piece.colour.index()][piece.kind as usize];
                *n += 1;
                if *n > piece.kind.max_count() {
                    return Err(FenError::TooMany(piece));
                }
                if piece.kind == Kind::King {
                    kings[piece.colour.index()] = true;
                }
                p.put(s, piece);
                file += 1;
            }
            if file != 9 {
                return Err(FenError::RankWidth { rank: i + 1 });
            }
        }
        for c in [Colour::Red, Colour::Black] {
            if !kings[c.index()] {
                return Err(FenError::NoKing(c));
            }
        }
        // Optional `- -` then the two counters (UCCI); a missing part keeps its default.
        let rest: Vec<&str> = fields.collect();
        let numbers: Vec<&str> = rest.iter().copied().filter(|s| *s != "-").collect();
        // Counters beyond any real game are refused (they would overflow move numbers).
        let counter = |s: &str| -> Result<u32, FenError> {
            s.parse::<u32>()
                .ok()
                .filter(|&n| n <= 100_000)
                .ok_or_else(|| FenError::Counter(s.to_string()))
        };
        if let Some(h) = numbers.first() {
            p.halfmove = counter(h)?;
        }
        if let Some(f) = numbers.get(1) {
            p.fullmove = counter(f)?.max(1);
        }
        if p.mover_in_check() {
            return Err(FenError::OppositeInCheck);
        }
        Ok(p)
    }

    /// The FEN of the position, `… w - - 0 1`.
    pub fn fen(&self) -> String {
        let mut s = self.board_fen();
        s.push_str(match self.side {
            Colour::Red => " w",
            Colour::Black => " b",
        });
        s.push_str(&format!(" - - {} {}", self.halfmove, self.fullmove));
        s
    }

    /// The board part of the FEN only.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_at(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let p = Position::start();
        assert_eq!(p.fen(), START_FEN);
        assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);
        // The short UCCI form, and `r` for red.
        let short =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r")
                .unwrap();
        assert_eq!(short, p);
    }

    #[test]
    fn refusals() {
        use FenError::*;
        assert_eq!(Position::from_fen("9/9/9"), Err(Ranks(3)));
        assert!(matches!(
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
            Err(RankWidth { rank: 10 })
        ));
        assert!(matches!(
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/9 w"),
            Err(NoKing(Colour::Red))
        ));
        // A red elephant across the river.
        assert!(matches!(
            Position::from_fen("4k4/9/9/9/2B6/9/9/9/9/4K4 w"),
            Err(Square(..))
        ));
        // Facing kings with red to move: black is "in check" from red's general.
        assert_eq!(
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            Err(OppositeInCheck)
        );
        assert!(matches!(
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 x"),
            Err(Side(_))
        ));
        assert!(matches!(
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 4294967295"),
            Err(Counter(_))
        ));
    }
}
