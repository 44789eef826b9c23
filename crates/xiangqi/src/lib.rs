//! Xiangqi (中国象棋) rules as a pure library, for game records (记谱, rules.md A13): the
//! board and FEN, legal moves (horse legs 蹩马腿, elephant eyes 塞象眼 and the river, cannon
//! screens, the palace, flying generals 白脸将), check, mate, stalemate (困毙, a loss),
//! perft, the notations (Chinese 炮二平五, WXF C2=5, ICCS h2e2), PGN as XQBase and 象棋巫师
//! write it, repetition (perpetual check and chase, as far as a machine can tell) and the
//! natural move limit (自然限着). No I/O.
//!
//! The board is a 90-square mailbox with one 128-bit occupancy mask per side (BENCHMARKS.md
//! has the measured perft speed).

pub mod board;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod pgn;
pub mod repetition;

pub use board::{Colour, Kind, Move, Piece, Position, Square, Undo};
pub use fen::{FenError, START_FEN};
pub use game::{Game, GameError, Status};
pub use movegen::MoveList;
pub use notation::{Notation, NotationError, NotationErrorKind};
pub use pgn::{PgnError, PgnGame, PgnResult};
pub use repetition::{Conduct, RepetitionVerdict};
