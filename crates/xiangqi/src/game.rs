//! A game: a start position and the legal moves played from it, with what a record needs —
//! each move in the three notations, the move numbers, how the game stands (check, mate,
//! stalemate 困毙), and the natural move limit (自然限着).

use crate::board::{Colour, Move, Position};
use crate::fen::FenError;
use crate::notation::{NotationError, NotationErrorKind};

/// How the game stands after its last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a legal move and is not in check.
    Ongoing,
    /// The side to move is in check and has a legal move.
    Check,
    /// The side to move is in check with no legal move: it has lost.
    Checkmate { winner: Colour },
    /// The side to move is not in check and has no legal move (困毙): it has lost too.
    Stalemate { winner: Colour },
}

impl Status {
    /// `ongoing`, `check`, `checkmate`, `stalemate` (the CLI's JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Check => "check",
            Status::Checkmate { .. } => "checkmate",
            Status::Stalemate { .. } => "stalemate",
        }
    }
    /// The winner, when the position decides the game.
    pub fn winner(self) -> Option<Colour> {
        match self {
            Status::Checkmate { winner } | Status::Stalemate { winner } => Some(winner),
            _ => None,
        }
    }
    /// 未结束 / 将军 / 绝杀 / 困毙, with the winner.
    pub fn zh(self) -> String {
        match self {
            Status::Ongoing => "未分胜负".into(),
            Status::Check => "将军".into(),
            Status::Checkmate { winner } => format!("将死，{}胜", &winner.zh()[..3]),
            Status::Stalemate { winner } => format!("困毙，{}胜", &winner.zh()[..3]),
        }
    }
}

/// A FEN or a move of a move list refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Move(#[from] NotationError),
}

/// One move of a game in the three notations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
}

/// Where the natural move limit stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NaturalLimit {
    /// Full moves (回合) counted since the last capture (half-moves / 2, rounded down).
    pub moves: u32,
    /// Whether the limit is reached.
    pub reached: bool,
}

/// A game from a start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    current: Position,
    moves: Vec<Move>,
    /// The hash of every position, the start included (`moves.len() + 1`).
    hashes: Vec<u64>,
    /// Per move: whether it captured, whether it gave check.
    captured: Vec<bool>,
    checked: Vec<bool>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            hashes: vec![start.hash()],
            current: start.clone(),
            start,
            moves: Vec::new(),
            captured: Vec::new(),
            checked: Vec::new(),
        }
    }

    /// A game from a FEN (or the start position) and a move list in any notations, mixed.
    pub fn from_moves<'a>(
        fen: Option<&str>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Game, GameError> {
        let start = match fen {
            Some(f) => Position::from_fen(f)?,
            None => Position::start(),
        };
        let mut g = Game::new(start);
        for t in moves {
            g.play_text(t)?;
        }
        Ok(g)
    }

    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn position(&self) -> &Position {
        &self.current
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    pub(crate) fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    pub(crate) fn gave_check(&self, ply: usize) -> bool {
        self.checked[ply]
    }

    /// The move number (回合) of the half-move `ply` (0-based from the start position).
    pub fn move_number(&self, ply: usize) -> u32 {
        let offset = usize::from(self.start.side_to_move() == Colour::Black);
        self.start.fullmove_number() + ((ply + offset) / 2) as u32
    }

    /// The side that plays the half-move `ply`.
    pub fn side_of(&self, ply: usize) -> Colour {
        if ply.is_multiple_of(2) {
            self.start.side_to_move()
        } else {
            self.start.side_to_move().other()
        }
    }

    /// The number of full moves (回合) the record holds: half-moves counted in pairs, a move
    /// of red alone counting as one.
    pub fn full_moves(&self) -> u32 {
        let n = self.moves.len();
        let offset = usize::from(self.start.side_to_move() == Colour::Black);
        ((n + offset).div_ceil(2)) as u32
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) -> Result<(), NotationErrorKind> {
        if !self.current.is_legal(m) {
            return Err(NotationErrorKind::Illegal);
        }
        let undo = self.current.make_move(m);
        self.moves.push(m);
        self.hashes.push(self.current.hash());
        self.captured.push(undo.captured.is_some());
        self.checked.push(self.current.in_check());
        Ok(())
    }

    /// Reads and plays a move in any notation; the error names its move number and side.
    pub fn play_text(&mut self, text: &str) -> Result<Move, NotationError> {
        let ply = self.moves.len();
        let (number, side) = (self.move_number(ply), self.current.side_to_move());
        let err = |kind| NotationError {
            number,
            side,
            text: text.trim().to_string(),
            kind,
        };
        let m = self.current.parse_move(text).map_err(err)?;
        self.play(m).map_err(err)?;
        Ok(m)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        self.moves.pop()?;
        self.hashes.pop();
        self.captured.pop();
        self.checked.pop();
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.make_move(m);
        }
        self.current = p;
        self.moves.last().copied()
    }

    /// Every move in the three notations (each written in the position before it).
    pub fn move_texts(&self) -> Vec<MoveText> {
        let mut p = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let t = MoveText {
                    iccs: p.to_iccs(m),
                    wxf: p.to_wxf(m),
                    chinese: p.to_chinese(m),
                };
                p.make_move(m);
                t
            })
            .collect()
    }

    /// How the game stands now.
    pub fn status(&self) -> Status {
        status_of(&self.current)
    }

    /// The natural move limit (自然限着) of `limit` full moves without a capture (the
    /// regulation's `natural_move_limit`: 40 in the reference events; the 2011 rules say 60).
    /// With a `claimant`, the checks given by the side claiming the draw count only up to
    /// `checks_counted` of them (J5: 提出方将军不计 is 0; 「将军着数算10着」 is 10); the checks
    /// after those are not counted. The count starts from the FEN's half-move clock.
    pub fn natural_limit(
        &self,
        limit: u32,
        claimant: Option<Colour>,
        checks_counted: u32,
    ) -> NaturalLimit {
        let last_capture = self.captured.iter().rposition(|&c| c);
        let (from, mut plies) = match last_capture {
            Some(i) => (i + 1, 0u32),
            None => (0, self.start.halfmove_clock()),
        };
        let mut checks = 0u32;
        for ply in from..self.moves.len() {
            if claimant == Some(self.side_of(ply)) && self.checked[ply] {
                checks += 1;
                if checks > checks_counted {
                    continue;
                }
            }
            plies += 1;
        }
        NaturalLimit {
            moves: plies / 2,
            reached: plies >= limit.saturating_mul(2),
        }
    }
}

/// How a position stands (status of its side to move).
pub fn status_of(p: &Position) -> Status {
    let check = p.in_check();
    let any = p.has_legal_move();
    let winner = p.side_to_move().other();
    match (check, any) {
        (false, true) => Status::Ongoing,
        (true, true) => Status::Check,
        (true, false) => Status::Checkmate { winner },
        (false, false) => Status::Stalemate { winner },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_errors() {
        let e =
            Game::from_moves(None, ["炮二平五", "马８进７", "马二进三", "车九进三"]).unwrap_err();
        let GameError::Move(e) = e else { panic!() };
        assert_eq!(e.number, 2);
        assert_eq!(e.side, Colour::Black);
        assert_eq!(e.kind, NotationErrorKind::Illegal);
        assert_eq!(
            e.to_string(),
            "第 2 回合黑方「车九进三」：不合法的着法 (move 2, black, 「车九进三」: illegal move)"
        );
        // Black to move from a FEN numbered 10: its first move is number 10, then 11.
        let g = Game::from_moves(
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 10"),
            ["h9g7", "h0g2"],
        )
        .unwrap();
        assert_eq!(g.move_number(0), 10);
        assert_eq!(g.move_number(1), 11);
        assert_eq!(g.full_moves(), 2);
    }

    #[test]
    fn mate_and_stalemate() {
        // 铁门栓-like mate: red rook on e-file? Simple: black king e9, red rooks a8, b9.
        let p = Position::from_fen("1R2k4/R8/9/9/9/9/9/9/9/3K5 b").unwrap();
        assert_eq!(
            status_of(&p),
            Status::Checkmate {
                winner: Colour::Red
            }
        );
        // Black king d9 boxed in by a rook on rank 8 and the red king's file … not in check,
        // no move: 困毙.
        let s = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b").unwrap();
        assert_eq!(
            status_of(&s),
            Status::Stalemate {
                winner: Colour::Red
            }
        );
    }

    #[test]
    fn natural_limit() {
        // Kings and rooks shuffling: no capture.
        let mut g = Game::new(Position::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w").unwrap());
        for _ in 0..10 {
            g.play_text("a1a2").unwrap();
            g.play_text("d9d8").unwrap();
            g.play_text("a2a1").unwrap();
            g.play_text("d8d9").unwrap();
        }
        let n = g.natural_limit(20, None, 0);
        assert_eq!(
            n,
            NaturalLimit {
                moves: 20,
                reached: true
            }
        );
        assert!(!g.natural_limit(21, None, 0).reached);
    }

    /// J5: "40回合自然限着，提出方将军不计" — the claimant's checks are not counted.
    #[test]
    fn natural_limit_without_the_claimants_checks() {
        let mut g = Game::new(Position::from_fen("9/4k4/9/9/9/9/9/9/R8/3K5 w").unwrap());
        g.play_text("a1a8").unwrap(); // check
        g.play_text("e8e9").unwrap();
        g.play_text("a8a9").unwrap(); // check
        g.play_text("e9e8").unwrap();
        g.play_text("a9a1").unwrap(); // no check
        assert_eq!(g.natural_limit(40, None, 0).moves, 2); // 5 half-moves
                                                           // Red claims: its two checks do not count, 3 half-moves remain.
        assert_eq!(g.natural_limit(40, Some(Colour::Red), 0).moves, 1);
        assert_eq!(g.natural_limit(40, Some(Colour::Black), 0).moves, 2);
        // 「将军着数算1着」: red's first check counts, its second does not (4 half-moves).
        assert_eq!(g.natural_limit(40, Some(Colour::Red), 1).moves, 2);
        let n = g.natural_limit(2, Some(Colour::Red), 1);
        assert!(n.reached, "{n:?}");
        assert!(!g.natural_limit(3, Some(Colour::Red), 10).reached);
    }
}
