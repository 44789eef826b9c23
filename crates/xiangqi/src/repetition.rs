//! Repeated positions: perpetual check (长将) and perpetual chase (长捉), as far as a machine
//! can tell them, and what it cannot tell flagged for the arbiter.
//!
//! When the position after the last move stood on the board before (same pieces, same side
//! to move), the moves between the two are a cycle. Each side's moves in the cycle are
//! classed:
//!
//! - a **check** (将): the move leaves the opponent in check;
//! - a **chase** (捉): the move creates a new threat to take an enemy piece other than the
//!   king and other than a pawn still on its own side of the river, by a piece other than a
//!   king or a pawn (将帅、兵卒捉子不算), the capture itself legal, and the piece either
//!   without a defender (after the capture nothing can legally take back) or worth more
//!   than the attacker (a horse or cannon on a rook: 马炮捉车 counts even when defended);
//! - anything else is an idle move (闲着).
//!
//! A side all of whose moves are checks checks perpetually; all chases (no check), chases
//! perpetually; checks and chases mixed (一将一捉) is flagged. Then, per the rules: one side
//! forbidden and the other not — the forbidden side must change (or loses); both forbidden
//! alike, or neither — a draw. A chase that relied on "worth more than the attacker", or any
//! mixed case, is left to the arbiter: the rules' finer points (fake defenders 假根, pinned
//! defenders that are not really pinned, 一捉一闲 chains) are his to judge.

use crate::board::{Colour, Kind, Move, Position, Square};
use crate::game::Game;

/// How one side played in a repetition cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conduct {
    /// At least one move neither checked nor chased: allowed.
    Idle,
    /// Every move gave check.
    PerpetualCheck,
    /// Every move chased. `certain` when every chased piece was undefended (no judgement
    /// needed); the squares are those of the chased pieces.
    PerpetualChase { targets: Vec<Square>, certain: bool },
    /// Checks and chases, every move one or the other (一将一捉).
    CheckAndChase,
}

impl Conduct {
    fn forbidden(&self) -> bool {
        !matches!(self, Conduct::Idle)
    }
}

/// What the repetition means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Neither side, or both alike, forbidden: the game may be drawn (不变作和).
    Draw,
    /// This side repeats a forbidden move and must change it (or loses) — mechanical.
    MustChange(Colour),
    /// Flagged: the arbiter decides.
    Arbiter,
}

/// A repetition found at the end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionVerdict {
    /// The half-move after which the repeated position first stood (0 = the start).
    pub first_ply: usize,
    /// Half-moves in the cycle.
    pub cycle: usize,
    /// How many times the position has now stood on the board.
    pub occurrences: usize,
    pub red: Conduct,
    pub black: Conduct,
    pub outcome: Outcome,
}

fn value(k: Kind) -> u8 {
    match k {
        Kind::Rook => 4,
        Kind::Horse | Kind::Cannon => 3,
        Kind::King => 9,
        _ => 1,
    }
}

/// Squares of enemy pieces the side `by` could legally take now if it were to move, each
/// with the kind of its cheapest attacker.
fn captures(p: &Position, by: Colour) -> Vec<(Square, Kind)> {
    let mut q = p.clone();
    if q.side != by {
        q.side = by;
    }
    let mut out: Vec<(Square, Kind)> = Vec::new();
    for &m in q.pseudo_legal_moves().iter() {
        let Some(target) = q.piece_at(m.to) else {
            continue;
        };
        let attacker = q.piece_at(m.from).map(|a| a.kind).unwrap_or(Kind::Pawn);
        let cap = q.make(m);
        let ok = !q.mover_in_check();
        q.unmake(m, cap);
        if ok && target.kind != Kind::King {
            match out.iter_mut().find(|(s, _)| *s == m.to) {
                Some(e) if value(attacker) < value(e.1) => e.1 = attacker,
                Some(_) => {}
                None => out.push((m.to, attacker)),
            }
        }
    }
    out
}

/// Whether, after `by` takes on `s` with the move `m`, the other side can legally take back.
fn defended(p: &Position, by: Colour, m: Move) -> bool {
    let mut q = p.clone();
    q.side = by;
    q.make(m);
    q.legal_moves().iter().any(|r| r.to == m.to)
}

/// The chases of a move `m` by the side to move of `before`: (target, certain).
fn chases(before: &Position, m: Move) -> Vec<(Square, bool)> {
    let us = before.side_to_move();
    let old = captures(before, us);
    let mut after = before.clone();
    after.make(m);
    let mut out = Vec::new();
    for (s, attacker) in captures(&after, us) {
        if old.iter().any(|(o, _)| *o == s) {
            continue;
        }
        let Some(target) = after.piece_at(s) else {
            continue;
        };
        if matches!(attacker, Kind::King | Kind::Pawn) {
            continue;
        }
        let crossed = match target.colour {
            Colour::Red => s.rank() >= 5,
            Colour::Black => s.rank() <= 4,
        };
        if target.kind == Kind::Pawn && !crossed {
            continue;
        }
        // The capture to test: by the cheapest attacker of that kind.
        let mut q = after.clone();
        q.side = us;
        let Some(&cap) = q
            .legal_moves()
            .iter()
            .find(|c| c.to == s && q.piece_at(c.from).map(|a| a.kind) == Some(attacker))
        else {
            continue;
        };
        if !defended(&after, us, cap) {
            out.push((s, true));
        } else if value(attacker) < value(target.kind) {
            out.push((s, false));
        }
    }
    out
}

/// A move of a cycle: whether it checked, and the pieces it chased (square, certain).
type Classed = (bool, Vec<(Square, bool)>);

fn conduct(moves: &[Classed]) -> Conduct {
    if moves.is_empty() {
        return Conduct::Idle;
    }
    let all_check = moves.iter().all(|(c, _)| *c);
    if all_check {
        return Conduct::PerpetualCheck;
    }
    if moves.iter().any(|(c, t)| !*c && t.is_empty()) {
        return Conduct::Idle;
    }
    if moves.iter().any(|(c, _)| *c) {
        return Conduct::CheckAndChase;
    }
    let mut targets: Vec<Square> = moves
        .iter()
        .flat_map(|(_, t)| t.iter().map(|(s, _)| *s))
        .collect();
    targets.sort();
    targets.dedup();
    let certain = moves.iter().all(|(_, t)| t.iter().any(|(_, c)| *c));
    Conduct::PerpetualChase { targets, certain }
}

impl Game {
    /// If the position now on the board stood there before, the cycle since its last
    /// appearance, each side's conduct in it and what follows (module doc).
    pub fn repetition(&self) -> Option<RepetitionVerdict> {
        let hashes = self.hashes();
        let n = hashes.len() - 1;
        let now = hashes[n];
        let occurrences = hashes.iter().filter(|&&h| h == now).count();
        // Same side to move: positions an even number of half-moves apart.
        let first_ply = (0..n)
            .rev()
            .find(|&i| (n - i).is_multiple_of(2) && hashes[i] == now)?;
        let mut p = self.start().clone();
        for &m in &self.moves()[..first_ply] {
            p.make_move(m);
        }
        let mut per_side: [Vec<Classed>; 2] = [Vec::new(), Vec::new()];
        for ply in first_ply..n {
            let m = self.moves()[ply];
            let side = p.side_to_move();
            let check = self.gave_check(ply);
            let targets = if check { Vec::new() } else { chases(&p, m) };
            per_side[side.index()].push((check, targets));
            p.make_move(m);
        }
        let red = conduct(&per_side[0]);
        let black = conduct(&per_side[1]);
        let outcome = decide(&red, &black);
        Some(RepetitionVerdict {
            first_ply,
            cycle: n - first_ply,
            occurrences,
            red,
            black,
            outcome,
        })
    }
}

fn decide(red: &Conduct, black: &Conduct) -> Outcome {
    use Conduct::*;
    let unclear = |c: &Conduct| matches!(c, CheckAndChase | PerpetualChase { certain: false, .. });
    if unclear(red) || unclear(black) {
        return Outcome::Arbiter;
    }
    match (red.forbidden(), black.forbidden()) {
        (false, false) => Outcome::Draw,
        (true, false) => Outcome::MustChange(Colour::Red),
        (false, true) => Outcome::MustChange(Colour::Black),
        (true, true) => match (red, black) {
            // Check against chase: the checking side must change (长将 vs 长捉).
            (PerpetualCheck, PerpetualChase { .. }) => Outcome::MustChange(Colour::Red),
            (PerpetualChase { .. }, PerpetualCheck) => Outcome::MustChange(Colour::Black),
            _ => Outcome::Draw,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &[&str]) -> Game {
        Game::from_moves(Some(fen), moves.iter().copied()).unwrap()
    }

    #[test]
    fn no_repetition() {
        let g = play(crate::START_FEN, &["h2e2", "h9g7"]);
        assert_eq!(g.repetition(), None);
    }

    #[test]
    fn perpetual_check() {
        // The red rook checks on rank 8, then rank 9, the black king steps between them.
        let fen = "9/4k4/9/9/9/9/9/9/R8/3K5 w";
        let g = play(
            fen,
            &[
                "a1a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8",
            ],
        );
        let v = g.repetition().expect("repeated");
        assert_eq!(v.cycle, 4);
        assert_eq!(v.red, Conduct::PerpetualCheck);
        assert_eq!(v.black, Conduct::Idle);
        assert_eq!(v.outcome, Outcome::MustChange(Colour::Red));
        assert_eq!(v.occurrences, 2);
    }

    #[test]
    fn idle_shuffle_is_a_draw() {
        let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w";
        let g = play(fen, &["a1a2", "d9d8", "a2a1", "d8d9"]);
        let v = g.repetition().unwrap();
        assert_eq!(v.red, Conduct::Idle);
        assert_eq!(v.black, Conduct::Idle);
        assert_eq!(v.outcome, Outcome::Draw);
    }

    #[test]
    fn perpetual_chase_of_an_undefended_horse() {
        // The black horse runs between b9 and c7; the red rook follows it on the b and c
        // files, each move a new threat to the undefended horse.
        let fen = "1n2k4/9/9/9/9/9/9/9/9/R2K5 w";
        let g = play(
            fen,
            &[
                "a0b0", "b9c7", "b0c0", "c7b9", "c0b0", "b9c7", "b0c0", "c7b9", "c0b0",
            ],
        );
        let v = g.repetition().unwrap();
        assert_eq!(
            v.red,
            Conduct::PerpetualChase {
                targets: vec![Square::new(2, 7), Square::new(1, 9)],
                certain: true
            }
        );
        assert_eq!(v.black, Conduct::Idle);
        assert_eq!(v.outcome, Outcome::MustChange(Colour::Red));
    }

    #[test]
    fn decisions_and_what_is_flagged() {
        use Conduct::*;
        let chase = |certain| PerpetualChase {
            targets: vec![Square::new(0, 0)],
            certain,
        };
        // Both check perpetually: a draw; check against chase: the checking side changes.
        assert_eq!(decide(&PerpetualCheck, &PerpetualCheck), Outcome::Draw);
        assert_eq!(
            decide(&PerpetualCheck, &chase(true)),
            Outcome::MustChange(Colour::Red)
        );
        assert_eq!(
            decide(&Idle, &chase(true)),
            Outcome::MustChange(Colour::Black)
        );
        // What needs judgement goes to the arbiter.
        assert_eq!(decide(&CheckAndChase, &Idle), Outcome::Arbiter);
        assert_eq!(decide(&chase(false), &Idle), Outcome::Arbiter);
    }
}
