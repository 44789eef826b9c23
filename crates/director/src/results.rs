//! The rules of a game's result (成绩): the per-game foul rule (A11, K12, T8) and whether a
//! recorded result respects it. Used by the arbiter's API when a result is entered and by
//! `verify` when a round is re-checked.

use arbiter_core::{BoardRecord, EventState, FoulKind};
use arbiter_regulation::Section;
use arbiter_standings::withdrawal::{self, foul_loss_by_kind, FoulLoss, FoulRule, GameFoul};
use arbiter_types::{Colour, GameResult};

/// The section's per-game foul rule: `fouls_for_loss` (A11: 3, K12: 2) and
/// `phone_fouls_for_loss` (K12: 2, T8: 1).
pub fn foul_rule(sec: &Section) -> FoulRule {
    FoulRule::from_counts(
        sec.discipline.fouls_for_loss,
        sec.discipline.phone_fouls_for_loss,
    )
}

/// A logged foul kind as the loss rule sees it: only phone fouls have their own limit.
pub fn rule_kind(kind: FoulKind) -> withdrawal::FoulKind {
    match kind {
        FoulKind::Phone => withdrawal::FoulKind::Phone,
        _ => withdrawal::FoulKind::General,
    }
}

/// Whether a foul counts towards the game's loss rule: a foul about the game record (T6:
/// 拒不录谱, 和棋录谱不足回合) is found after the game ended, so it never decides it.
pub fn counts_in_game(kind: FoulKind) -> bool {
    !matches!(kind, FoulKind::Records | FoulKind::ShortDraw)
}

/// The fouls of one game in recorded order: those logged on the board, plus (older logs)
/// the two players' fouls of that round logged without a board.
pub fn game_fouls(state: &EventState, round: u32, b: &BoardRecord) -> Vec<GameFoul> {
    let mut seen: Vec<(u64, Colour, FoulKind)> = b
        .fouls
        .iter()
        .filter_map(|f| {
            let colour = if f.player == b.red {
                Colour::Red
            } else if f.player == b.black {
                Colour::Black
            } else {
                return None;
            };
            Some((f.seq, colour, f.kind))
        })
        .filter(|f| counts_in_game(f.2))
        .collect();
    for (p, colour) in [(b.red, Colour::Red), (b.black, Colour::Black)] {
        if let Some(pl) = state.player(p) {
            seen.extend(
                pl.fouls
                    .iter()
                    .filter(|f| f.round == Some(round) && f.board.is_none())
                    .filter(|f| counts_in_game(f.kind))
                    .map(|f| (f.seq, colour, f.kind)),
            );
        }
    }
    seen.sort_by_key(|f| f.0);
    seen.into_iter()
        .map(|(_, colour, kind)| GameFoul {
            colour,
            kind: rule_kind(kind),
        })
        .collect()
}

/// The foul rule applied to one game: `Some` when a player reached a limit (that game is
/// his loss).
pub fn game_foul_loss(
    sec: &Section,
    state: &EventState,
    round: u32,
    b: &BoardRecord,
) -> Option<FoulLoss> {
    foul_loss_by_kind(&game_fouls(state, round, b), &foul_rule(sec))
}

/// Whether a recorded result agrees with a foul loss: a loss for the loser (also by
/// forfeit), or a double forfeit.
pub fn respects_foul_loss(result: GameResult, loss: &FoulLoss) -> bool {
    matches!(
        (result, loss.loser),
        (GameResult::BlackWin | GameResult::RedForfeit, Colour::Red)
            | (GameResult::RedWin | GameResult::BlackForfeit, Colour::Black)
            | (GameResult::DoubleForfeit, _)
    )
}
