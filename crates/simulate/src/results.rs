//! The simulated arbiter's games (random results for `simulate`): results with draws, late
//! arrivals (single and double forfeits, K8/J4/S7), fouls (A11) including the N-fouls-loss
//! rule (K12), and knockout games by time-control class. Not part of the procedure: these
//! functions decide what happened at the boards, as a slip says it (a [`ResultInput`]); the
//! simulator enters it with the arbiter's command, which applies the rules.

use arbiter_core::{Ending, EventState, FoulKind, PlayerId};
use arbiter_director::api::results::{FoulInput, ResultInput};
use arbiter_director::derive_seed;
use arbiter_director::results::{foul_rule, rule_kind};
use arbiter_regulation::Section;
use arbiter_standings::withdrawal::{foul_loss_by_kind, GameFoul};
use arbiter_types::{Colour, GameKind, GameResult};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Rates of the random result model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResultModel {
    /// Played games drawn.
    pub draw_rate: f64,
    /// Boards where one player is late (forfeit).
    pub forfeit_rate: f64,
    /// Boards where both are late (double forfeit).
    pub double_forfeit_rate: f64,
    /// Games with one foul (phone rings).
    pub foul_rate: f64,
    /// Games lost by reaching the regulation's fouls-for-loss count (K12).
    pub foul_loss_rate: f64,
}

impl Default for ResultModel {
    fn default() -> Self {
        ResultModel {
            draw_rate: 0.28,
            forfeit_rate: 0.025,
            double_forfeit_rate: 0.004,
            foul_rate: 0.03,
            foul_loss_rate: 0.006,
        }
    }
}

/// A player's hidden playing strength (0–999), stable for the event seed.
pub fn strength(state: &EventState, p: PlayerId) -> i64 {
    let seed = state.header.as_ref().map_or(0, |h| h.seed);
    (derive_seed(seed, &format!("strength/{}", p.0)) % 1000) as i64
}

/// About one player in forty stops coming after round 2 (so the withdrawal rule is used).
pub fn no_show(state: &EventState, p: PlayerId) -> bool {
    let seed = state.header.as_ref().map_or(0, |h| h.seed);
    derive_seed(seed, &format!("no-show/{}", p.0)).is_multiple_of(40)
}

fn decisive(
    state: &EventState,
    red: PlayerId,
    black: PlayerId,
    rng: &mut ChaCha8Rng,
) -> GameResult {
    let d = (strength(state, red) - strength(state, black)) as f64;
    let p_red = (0.54 + d / 1400.0).clamp(0.08, 0.92);
    if rng.gen_bool(p_red) {
        GameResult::RedWin
    } else {
        GameResult::BlackWin
    }
}

/// Random results for the open `boards` of round `round`, with the fouls that go with them
/// (by colour and kind; the command words their reasons, as for `arbiter result --foul`).
pub fn simulate_round(
    sec: &Section,
    state: &EventState,
    round: u32,
    boards: &[u32],
    round_robin: bool,
    model: &ResultModel,
    rng: &mut ChaCha8Rng,
) -> Vec<ResultInput> {
    let section = sec.id.as_str();
    let mut out = Vec::new();
    let Some(r) = state.section(section).and_then(|s| s.round(round)) else {
        return out;
    };
    let rule = foul_rule(sec);
    // The limit the simulated foul losses reach: the phone limit when the regulation has
    // one (K12: the 2nd phone use; T8: the 1st), else the general one (A11).
    let foul_loss = rule
        .phone_fouls_for_loss
        .map(|n| (FoulKind::Phone, n.get()))
        .or(rule.fouls_for_loss.map(|n| (FoulKind::General, n.get())));
    // A single foul that does not decide the game by itself.
    let single_kind = if rule.phone_fouls_for_loss.is_some_and(|n| n.get() > 1) {
        FoulKind::Phone
    } else {
        FoulKind::Records
    };
    for b in r.boards.iter().filter(|b| boards.contains(&b.board)) {
        let u: f64 = rng.gen();
        // The fouls the arbiter enters with the result, in the order they happened.
        let mut entered = Vec::new();
        let mut moves = Some(rng.gen_range(18..130u32));
        let gone = |p: PlayerId| !round_robin && round >= 3 && no_show(state, p);
        let (result, ending) = if gone(b.red) || gone(b.black) {
            // A player who stopped coming: forfeits until the rule withdraws him (A5).
            moves = None;
            match (gone(b.red), gone(b.black)) {
                (true, true) => (GameResult::DoubleForfeit, Ending::Late),
                (true, false) => (GameResult::RedForfeit, Ending::Late),
                _ => (GameResult::BlackForfeit, Ending::Late),
            }
        } else if !round_robin && u < model.double_forfeit_rate {
            moves = None;
            (GameResult::DoubleForfeit, Ending::Late)
        } else if !round_robin && u < model.double_forfeit_rate + model.forfeit_rate {
            moves = None;
            if rng.gen_bool(0.5) {
                (GameResult::RedForfeit, Ending::Late)
            } else {
                (GameResult::BlackForfeit, Ending::Late)
            }
        } else if let (Some((kind, n)), true) = (foul_loss, rng.gen_bool(model.foul_loss_rate)) {
            // A player reaches the limit in this game: the rule makes it his loss.
            let colour = if rng.gen_bool(0.5) {
                Colour::Red
            } else {
                Colour::Black
            };
            let mut fouls = Vec::new();
            for _ in 1..=n {
                entered.push(FoulInput {
                    colour,
                    kind,
                    reason: String::new(),
                });
                fouls.push(GameFoul {
                    colour,
                    kind: rule_kind(kind),
                });
            }
            match foul_loss_by_kind(&fouls, &rule) {
                Some(loss) => (loss.result, Ending::ThreeFouls),
                None => (decisive(state, b.red, b.black, rng), Ending::Resignation),
            }
        } else {
            let mut fouls = Vec::new();
            if rng.gen_bool(model.foul_rate) {
                let colour = if rng.gen_bool(0.5) {
                    Colour::Red
                } else {
                    Colour::Black
                };
                entered.push(FoulInput {
                    colour,
                    kind: single_kind,
                    reason: String::new(),
                });
                fouls.push(GameFoul {
                    colour,
                    kind: rule_kind(single_kind),
                });
            }
            if let Some(loss) = foul_loss_by_kind(&fouls, &rule) {
                // A limit of one (T8 phone, or `fouls_for_loss = 1`): lost at once.
                (loss.result, Ending::ThreeFouls)
            } else if rng.gen_bool(model.draw_rate) {
                let e = match rng.gen_range(0..3) {
                    0 => Ending::AgreedDraw,
                    1 => Ending::RuleDraw,
                    _ => Ending::NaturalMoveLimit,
                };
                // No draw before the regulation's minimum number of moves (T6: 25).
                let min = sec
                    .records
                    .and_then(|r| r.min_moves_before_draw)
                    .unwrap_or(0);
                moves = moves.map(|m| m.max(min));
                (GameResult::Draw, e)
            } else {
                let e = match rng.gen_range(0..4) {
                    0 => Ending::Checkmate,
                    1 => Ending::Time,
                    2 => Ending::Stalemate,
                    _ => Ending::Resignation,
                };
                (decisive(state, b.red, b.black, rng), e)
            }
        };
        out.push(ResultInput {
            round: Some(round),
            fouls: entered,
            ending: Some(ending),
            moves,
            ..ResultInput::new(b.board, result)
        });
    }
    out
}

/// A random result for one knockout game of class `kind`.
pub fn simulate_knockout_game(
    state: &EventState,
    kind: GameKind,
    red: PlayerId,
    black: PlayerId,
    rng: &mut ChaCha8Rng,
) -> GameResult {
    let draw = match kind {
        GameKind::Slow => 0.4,
        GameKind::Rapid => 0.3,
        GameKind::Blitz => 0.25,
        GameKind::Armageddon => 0.25,
    };
    if rng.gen_bool(0.005) {
        return GameResult::RedForfeit;
    }
    if rng.gen_bool(draw) {
        GameResult::Draw
    } else {
        decisive(state, red, black, rng)
    }
}
