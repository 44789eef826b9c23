//! Results (成绩): enter a result with the game's fouls (a knockout game through the same
//! operation), confirm a round's slips (签字确认), and the chief arbiter's correction of a
//! result (A12). Entering the last result of a round closes the round (and records the
//! withdrawals the forfeit rule then demands, A5).

use super::rounds::{close_round, knockout_board, knockout_round, section_of};
use super::Ctx;
use crate::knockout_stage;
use crate::refusal::{LineProblem, Needs, Refusal, Sec};
use crate::results::{game_foul_loss, respects_foul_loss};
use crate::step::knockout_due;
use crate::{apply_scratch, check_scratch, regulation_of, DirectorError};
use arbiter_core::{Ending, EventState, FoulKind, LogEntry, Offender, PlayerId};
use arbiter_regulation::ResultSigning;
use arbiter_types::{Colour, GameResult};

/// A foul of one game (犯规), by colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoulInput {
    pub colour: Colour,
    pub kind: FoulKind,
    /// In words; empty: the kind's name and the count.
    pub reason: String,
}

/// A result as the arbiter enters it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultInput {
    /// The round (default: the knockout games due now, else the last paired round).
    pub round: Option<u32>,
    pub board: u32,
    pub result: GameResult,
    /// The game's fouls, in the order they happened.
    pub fouls: Vec<FoulInput>,
    pub ending: Option<Ending>,
    pub moves: Option<u32>,
    /// Knockout: the player who chooses colours (K7) took black.
    pub chooser_takes_black: bool,
    /// Knockout: the game the arbiter saw due on this board (match id, game index from 0).
    /// If another game is due by now (someone entered this one first), it is a conflict.
    pub expect_game: Option<(String, u32)>,
    /// A re-entry: the result the arbiter saw stored on the board and now replaces (his own
    /// typo, before the slip is signed). A board with a result takes a new one only when
    /// this names what is stored: two arbiters typing the same board at once still get a
    /// conflict, never a silent overwrite.
    pub replaces: Option<GameResult>,
    /// The board was played with the colours the other way round (S6: 开赛后不予纠正):
    /// `Some(true)` records it (a `colours_played` entry before the result, which is then
    /// read — like the fouls' colours — from the colours played), `Some(false)` takes such a
    /// record back, `None` leaves the board as it is.
    pub colours_swapped: Option<bool>,
}

impl ResultInput {
    pub fn new(board: u32, result: GameResult) -> Self {
        ResultInput {
            round: None,
            board,
            result,
            fouls: Vec::new(),
            ending: None,
            moves: None,
            chooser_takes_black: false,
            expect_game: None,
            replaces: None,
            colours_swapped: None,
        }
    }

    /// `k` general fouls of `colour` (the `--fouls-red K` / `--fouls-black K` flags). A
    /// count above [`MAX_FOULS`] is refused by [`enter_result`]; no more than one over the
    /// limit is kept here.
    pub fn with_fouls(mut self, colour: Colour, k: u32) -> Self {
        for _ in 0..k.min(MAX_FOULS + 1) {
            self.fouls.push(FoulInput {
                colour,
                kind: FoulKind::General,
                reason: String::new(),
            });
        }
        self
    }
}

/// The most fouls one player can be given in one game: three fouls lose the game (J5), so
/// a count above this is a typing error.
pub const MAX_FOULS: u32 = 20;

/// A foul count as typed (a grid cell, a results file column): a whole number 0–20.
pub fn foul_count(text: &str) -> Result<u32, String> {
    let t = text.trim();
    t.parse::<u32>()
        .ok()
        .filter(|&n| n <= MAX_FOULS)
        .ok_or_else(|| format!("犯规次数 「{t}」 应为 0–{MAX_FOULS} 的整数 (a foul count is a whole number 0–{MAX_FOULS})"))
}

/// The knockout game due on `board` now: (match id, game), or `None` when the section is
/// not in its knockout (then the board is a Swiss / round-robin board).
pub fn due_knockout_game(
    state: &EventState,
    section: &str,
    round: Option<u32>,
    board: u32,
) -> Result<Option<(String, arbiter_knockout::NextGame)>, DirectorError> {
    due_knockout_game_for(state, section, round, board, None)
}

/// [`due_knockout_game`] with the match the arbiter saw due on the board: boards are numbered
/// within their round, so when games of two knockout rounds are due on one board number the
/// match seen decides (else the earlier round, the round `round show` lists first).
fn due_knockout_game_for(
    state: &EventState,
    section: &str,
    round: Option<u32>,
    board: u32,
    seen: Option<&str>,
) -> Result<Option<(String, arbiter_knockout::NextGame)>, DirectorError> {
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let swiss_open = rec.last_round() > rec.completed_rounds();
    let Some(b) = crate::step::knockout_stage_bracket(&reg, state, section)? else {
        return Ok(None);
    };
    if swiss_open && board > b.boards() {
        // A board of the Swiss round played beside the knockout: the Swiss's boards come
        // after every board the knockout plays.
        return Ok(None);
    }
    // The match on this board in each bracket round (at most one a round, found by the
    // bracket's board index rather than by listing every match due), earliest round first.
    let first = knockout_round(sec, state, 0);
    let mut on_board: Vec<(String, arbiter_knockout::NextGame)> = Vec::new();
    if board > 0 {
        for r in 1..=b.rounds() {
            if round.is_some_and(|want| want != first + r as u32) {
                continue;
            }
            let Some(m) = b.on_board(r, board).filter(|m| m.is_ready()) else {
                continue;
            };
            if let Some(g) = b
                .next_game(&m.id)
                .map_err(|e| knockout_stage::ko_err(section, crate::KnockoutFailure::Bracket(e)))?
            {
                on_board.push((m.id.clone(), g));
            }
        }
    }
    let found = match seen.and_then(|id| on_board.iter().position(|(m, _)| m == id)) {
        Some(i) => Some(on_board.swap_remove(i)),
        None => on_board.into_iter().next(),
    };
    // The continuing Swiss is played beside the knockout (T2): a board number that names
    // a game of both is refused rather than guessed.
    if let (Some((m, _)), true, None) = (&found, swiss_open, round) {
        let last = rec.last_round();
        if rec
            .round(last)
            .is_some_and(|r| r.boards.iter().any(|x| x.board == board))
        {
            return Err(Refusal::BoardAmbiguous {
                section: Sec::in_reg(&reg, section),
                board,
                swiss_round: last,
                knockout_match: m.clone(),
            }
            .into());
        }
    }
    match found {
        Some(x) => Ok(Some(x)),
        // Not a knockout board: a board of the Swiss round played beside it.
        None if swiss_open => Ok(None),
        None => {
            // Nothing due on this board: no game due at all (in the round asked) is not a
            // knockout board; otherwise the refusal lists the boards that are due.
            let matches = b.ready();
            let in_round = |m: &&str| {
                round.is_none_or(|want| b.get(m).is_some_and(|x| first + x.round as u32 == want))
            };
            if !matches.iter().any(in_round) {
                return Ok(None);
            }
            let due: Vec<u32> = matches
                .iter()
                .filter_map(|m| knockout_board(&b, m))
                .collect();
            Err(Refusal::NoKnockoutGame {
                section: Sec::in_reg(&reg, section),
                board,
                due,
            }
            .into())
        }
    }
}

/// A knockout game due now, with the board it is entered on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueKnockoutGame {
    /// The bracket board number ([`knockout_board`]): what the result grid takes.
    pub board: u32,
    pub match_id: String,
    /// The match's label (半决赛 1, 决赛 …).
    pub label: String,
    /// The schedule's round of the match.
    pub round: u32,
    pub game: arbiter_knockout::NextGame,
    /// The game must keep a record (the regulation's `records`: its kind, round and board
    /// within the knockout's round).
    pub must_record: bool,
}

/// Every knockout game due now in `section` (empty when the section is not in its knockout
/// stage), in board order: what [`enter_result`] takes next, board by board.
pub fn due_knockout_games(
    state: &EventState,
    section: &str,
) -> Result<Vec<DueKnockoutGame>, DirectorError> {
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    let matches = knockout_due(&reg, state, section)?;
    if matches.is_empty() {
        return Ok(Vec::new());
    }
    let b = knockout_stage::bracket(&reg, state, section)?;
    let mut out: Vec<DueKnockoutGame> = knockout_stage::next_games(&b, &matches, section)?
        .into_iter()
        .filter_map(|(m, game)| {
            let bm = b.get(&m)?;
            let round = knockout_round(sec, state, bm.round);
            let within = b.board(&m)?;
            Some(DueKnockoutGame {
                board: within,
                label: bm.label_zh(),
                round,
                must_record: sec
                    .records
                    .as_ref()
                    .is_some_and(|r| r.knockout_must_record(round, within, game.kind)),
                match_id: m,
                game,
            })
        })
        .collect();
    out.sort_by_key(|g| (g.round, g.board));
    Ok(out)
}

/// `result`: enter the result of one game (with its fouls).
///
/// Re-entry (A12 before confirmation): a board that has a result takes a new one when
/// [`ResultInput::replaces`] names the stored result, the actor is an arbiter or the chief
/// arbiter, the slip is not signed and the next round is not paired; the entry is one more
/// `result_entered`, which replaces the earlier one in the fold (both stay in the log). In a
/// finished round a forfeit is neither replaced nor entered this way: it may have made a
/// player withdraw (A5), which only the chief arbiter's correction sorts out. After the slip
/// is signed only [`correct`] changes the result.
pub fn enter_result(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    input: &ResultInput,
) -> Result<Vec<LogEntry>, DirectorError> {
    // A re-entry (`replaces`) is judged as one, in its own words; the roles are the same.
    crate::permission::require(
        ctx,
        match input.replaces {
            Some(_) => crate::permission::Action::ReenterResult,
            None => crate::permission::Action::EnterResult,
        },
    )?;
    enter(state, ctx, section, input)
}

/// [`enter_result`] once the actor's authority is settled: the players' agreed claims
/// ([`crate::claim::claim_result`]) enter their result through here, under the same rules.
pub(crate) fn enter(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    input: &ResultInput,
) -> Result<Vec<LogEntry>, DirectorError> {
    for colour in [Colour::Red, Colour::Black] {
        let n = input.fouls.iter().filter(|f| f.colour == colour).count();
        if n > MAX_FOULS as usize {
            return Err(Refusal::TooManyFouls {
                colour,
                fouls: n,
                max: MAX_FOULS,
            }
            .into());
        }
    }
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    let at = ctx.at_rfc3339();
    let seen = input.expect_game.as_ref().map(|(m, _)| m.as_str());
    if let Some((mid, g)) = due_knockout_game_for(state, section, input.round, input.board, seen)? {
        if input.colours_swapped == Some(true) {
            return Err(Refusal::GameRule {
                section: Sec::in_reg(&reg, section),
                round: input.round.unwrap_or(0),
                board: input.board,
                problem: crate::refusal::GameProblem::ColoursInKnockout,
            }
            .into());
        }
        return knockout_result(state, section, input, &mid, g);
    }
    if let Some((m, gi)) = &input.expect_game {
        return Err(Refusal::KnockoutGameEntered {
            match_id: m.clone(),
            game: *gi,
            stored: stored_knockout(state, section, m, *gi),
            now_due: None,
        }
        .into());
    }
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let round = input.round.unwrap_or_else(|| rec.last_round());
    let name = || Sec::in_reg(&reg, section);
    let rd = rec.round(round).ok_or_else(|| Refusal::RoundNotPaired {
        section: name(),
        round,
        paired: None,
    })?;
    let b = rd.board(input.board).ok_or_else(|| Refusal::NoSuchBoard {
        section: name(),
        round,
        board: input.board,
        boards: Some(rd.boards.len()),
    })?;
    let replacing = match b.result {
        None => false,
        Some(stored) if b.confirmed => {
            return Err(Refusal::ConfirmedResult {
                section: name(),
                round,
                board: input.board,
                stored,
                chief: ctx.role == arbiter_types::Role::ChiefArbiter,
            }
            .into());
        }
        Some(stored) if input.replaces != Some(stored) => {
            return Err(Refusal::ResultExists {
                section: name(),
                round,
                board: input.board,
                stored,
            }
            .into());
        }
        Some(stored) => {
            crate::permission::require(ctx, crate::permission::Action::ReenterResult)?;
            if stored == input.result {
                return Err(Refusal::SameResult {
                    section: name(),
                    round,
                    board: input.board,
                    result: stored,
                }
                .into());
            }
            let too_late = |next_round| Refusal::ReentryTooLate {
                section: name(),
                round,
                board: input.board,
                next_round,
            };
            if rec.round(round + 1).is_some() {
                return Err(too_late(Some(round + 1)).into());
            }
            if rd.completed && (stored.is_forfeit() || input.result.is_forfeit()) {
                return Err(too_late(None).into());
            }
            true
        }
    };
    if rd.completed && !replacing {
        return Err(Refusal::RoundFinished {
            section: name(),
            round,
        }
        .into());
    }
    if !rd.published {
        return Err(Refusal::NotPublished {
            section: name(),
            round,
        }
        .into());
    }
    // The entries so far folded on a copy of the state, made at the first of them.
    let mut scratch = std::borrow::Cow::Borrowed(state);
    let mut out = Vec::new();
    // S6: colours played the other way round stand; from here on the board's red and black
    // are the colours played.
    if let Some(swapped) = input.colours_swapped.filter(|s| *s != b.colours_swapped) {
        let e = LogEntry::ColoursPlayed {
            section: section.to_string(),
            round,
            board: input.board,
            swapped,
        };
        apply_scratch(scratch.to_mut(), &e, &at)?;
        out.push(e);
    }
    let (red, black) = scratch
        .section(section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.board(input.board))
        .map_or((b.red, b.black), |x| (x.red, x.black));
    let mut counts = [0u32; 2];
    for f in &input.fouls {
        let (player, i): (PlayerId, usize) = match f.colour {
            Colour::Red => (red, 0),
            Colour::Black => (black, 1),
        };
        counts[i] += 1;
        let reason = if f.reason.trim().is_empty() {
            format!(
                "{} 第{}次 ({}, foul {})",
                f.kind.zh(),
                counts[i],
                f.kind.code(),
                counts[i]
            )
        } else {
            f.reason.clone()
        };
        let e = LogEntry::FoulRecorded {
            section: section.to_string(),
            offender: Offender::Player(player),
            round: Some(round),
            board: Some(input.board),
            kind: f.kind,
            reason,
        };
        apply_scratch(scratch.to_mut(), &e, &at)?;
        out.push(e);
    }
    if let Some(game) = scratch
        .section(section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.board(input.board))
    {
        if let Some(loss) = game_foul_loss(sec, &scratch, round, game) {
            if !respects_foul_loss(input.result, &loss) {
                return Err(Refusal::FoulRuleDecides {
                    round,
                    board: input.board,
                    rule: loss.explain(),
                    due: loss.result,
                    given: input.result,
                }
                .into());
            }
        }
    }
    if let Some(game) = scratch
        .section(section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.board(input.board))
    {
        super::records::check_result_against_record(&reg, section, round, game, input.result)?;
    }
    let e = LogEntry::ResultEntered {
        section: section.to_string(),
        round,
        board: input.board,
        result: input.result,
        ending: input.ending,
        moves: input.moves,
    };
    // The result is folded only when it completes the round, to close it; otherwise it is
    // checked as the fold would.
    check_scratch(&scratch, &e, &at)?;
    let full = scratch
        .section(section)
        .and_then(|s| s.round(round))
        .is_some_and(|r| {
            r.boards
                .iter()
                .all(|b| b.board == input.board || b.result.is_some())
        });
    if full && !rd.completed {
        let scratch = scratch.to_mut();
        apply_scratch(scratch, &e, &at)?;
        out.push(e);
        close_round(sec, scratch, section, round, &at, &mut out)?;
    } else {
        out.push(e);
    }
    Ok(out)
}

fn stored_knockout(state: &EventState, section: &str, m: &str, game: u32) -> Option<GameResult> {
    state
        .section(section)
        .and_then(|s| {
            s.knockout
                .iter()
                .find(|g| g.match_id == m && g.game == game)
        })
        .map(|g| g.result)
}

fn knockout_result(
    state: &EventState,
    section: &str,
    input: &ResultInput,
    mid: &str,
    g: arbiter_knockout::NextGame,
) -> Result<Vec<LogEntry>, DirectorError> {
    if let Some((m, gi)) = &input.expect_game {
        if m != mid || *gi != g.index as u32 {
            return Err(Refusal::KnockoutGameEntered {
                match_id: m.clone(),
                game: *gi,
                stored: stored_knockout(state, section, m, *gi),
                now_due: Some((mid.to_string(), g.index as u32)),
            }
            .into());
        }
    }
    let g = match g.chooser {
        Some(_) if input.chooser_takes_black => arbiter_knockout::NextGame {
            red: g.black,
            black: g.red,
            ..g
        },
        _ => g,
    };
    // The section's foul rule applies to a knockout game as to any game (A11, K12, T8): a
    // player who reaches a limit loses the game, and the match goes on from that loss.
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    let fouls = knockout_fouls(&input.fouls);
    let seen: Vec<arbiter_standings::withdrawal::GameFoul> = input
        .fouls
        .iter()
        .filter(|f| crate::results::counts_in_game(f.kind))
        .map(|f| arbiter_standings::withdrawal::GameFoul {
            colour: f.colour,
            kind: crate::results::rule_kind(f.kind),
        })
        .collect();
    if let Some(loss) =
        arbiter_standings::withdrawal::foul_loss_by_kind(&seen, &crate::results::foul_rule(sec))
    {
        if !respects_foul_loss(input.result, &loss) {
            let b = knockout_stage::bracket(&reg, state, section)?;
            let round = b
                .get(mid)
                .map_or(0, |m| knockout_round(sec, state, m.round));
            return Err(Refusal::FoulRuleDecides {
                round,
                board: input.board,
                rule: loss.explain(),
                due: loss.result,
                given: input.result,
            }
            .into());
        }
    }
    let mut e = knockout_stage::game_entry(state, section, mid, &g, input.result)?;
    if let LogEntry::KnockoutGameRecorded { fouls: f, .. } = &mut e {
        *f = fouls;
    }
    // The first game of a Swiss stage's knockout fixes its seeds in the log: a stage-1
    // result corrected later moves the Swiss standings, not the bracket being played.
    let mut out = knockout_stage::seeds_to_fix(&reg, state, section)?;
    out.push(e);
    Ok(out)
}

/// The fouls of a knockout game as its log entry keeps them, each with its reason (the
/// kind's name and the player's count in the game when none is given).
fn knockout_fouls(input: &[FoulInput]) -> Vec<arbiter_core::KnockoutFoul> {
    let mut counts = [0u32; 2];
    input
        .iter()
        .map(|f| {
            let i = match f.colour {
                Colour::Red => 0,
                Colour::Black => 1,
            };
            counts[i] += 1;
            let reason = if f.reason.trim().is_empty() {
                format!(
                    "{} 第{}次 ({}, foul {})",
                    f.kind.zh(),
                    counts[i],
                    f.kind.code(),
                    counts[i]
                )
            } else {
                f.reason.clone()
            };
            arbiter_core::KnockoutFoul {
                colour: f.colour,
                kind: f.kind,
                reason,
            }
        })
        .collect()
}

/// Who signs a slip (S11: the loser signs, both sign a draw; J6 and by default: both sign;
/// a forfeit is signed by the player present and the arbiter): the players by their names
/// and `arbiter`, the name of the arbiter who confirms the slip (the account's display name).
pub fn signatures(
    signing: Option<ResultSigning>,
    result: GameResult,
    red: &str,
    black: &str,
    arbiter: &str,
) -> Vec<String> {
    use GameResult::*;
    let arbiter = arbiter.to_string();
    match (signing, result) {
        (_, RedForfeit) => vec![black.to_string(), arbiter],
        (_, BlackForfeit) => vec![red.to_string(), arbiter],
        (_, DoubleForfeit) => vec![arbiter],
        (Some(ResultSigning::LoserSigns), RedWin) => vec![black.to_string()],
        (Some(ResultSigning::LoserSigns), BlackWin) => vec![red.to_string()],
        _ => vec![red.to_string(), black.to_string()],
    }
}

/// `result confirm`: the signed slips of every board of `round` (default: the last round)
/// that has a result and is not yet confirmed.
pub fn confirm(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: Option<u32>,
) -> Result<Vec<LogEntry>, DirectorError> {
    crate::permission::require(ctx, crate::permission::Action::ConfirmResults)?;
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let round = round.unwrap_or_else(|| rec.last_round());
    let rd = rec.round(round).ok_or_else(|| Refusal::RoundNotPaired {
        section: Sec::in_reg(&reg, section),
        round,
        paired: None,
    })?;
    let name = |p: PlayerId| {
        state
            .player(p)
            .map(|x| x.person.name.clone())
            .unwrap_or_default()
    };
    let out: Vec<LogEntry> = rd
        .boards
        .iter()
        .filter(|b| !b.confirmed)
        .filter_map(|b| {
            let result = b.result?;
            Some(LogEntry::ResultConfirmed {
                section: section.to_string(),
                round,
                board: b.board,
                signed_by: signatures(
                    reg.event.result_signing,
                    result,
                    &name(b.red),
                    &name(b.black),
                    &ctx.name,
                ),
            })
        })
        .collect();
    if out.is_empty() {
        return Err(Refusal::NothingToConfirm {
            section: Sec::in_reg(&reg, section),
            round,
        }
        .into());
    }
    Ok(out)
}

/// The words that open the reason of a correction that overrides a signed result where the
/// regulation makes it final (九江 补充五): the log and the slip show them.
pub const SIGNED_OVERRIDDEN: &str = "推翻签名确认 (overrides the signed result)";

/// Whether a correction's reason says it overrode a signed result ([`SIGNED_OVERRIDDEN`]).
pub fn overrode_signatures(reason: &str) -> bool {
    reason.starts_with(SIGNED_OVERRIDDEN)
}

/// `result correct`: the chief arbiter (the actor) corrects a result, with the reason (A12).
/// Where the regulation makes a signed result final (`signed_results_final`, 九江 补充五
/// 「经签名确认比赛结果，不予更改」), a signed board is refused unless `override_signed`: then
/// the reason is recorded after [`SIGNED_OVERRIDDEN`].
#[allow(clippy::too_many_arguments)]
pub fn correct(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    result: GameResult,
    reason: &str,
    override_signed: bool,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    crate::permission::require(ctx, crate::permission::Action::CorrectResult)?;
    if reason.trim().is_empty() {
        return Err(DirectorError::ReasonMissing(
            crate::permission::Action::CorrectResult,
        ));
    }
    let b = state
        .section(section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.board(board))
        .ok_or_else(|| Refusal::NoSuchBoard {
            section: Sec::in_reg(&reg, section),
            round,
            board,
            boards: None,
        })?;
    let Some(stored) = b.result else {
        return Err(Refusal::NoResultToCorrect {
            section: Sec::in_reg(&reg, section),
            round,
            board,
        }
        .into());
    };
    if stored == result {
        return Err(Refusal::SameResult {
            section: Sec::in_reg(&reg, section),
            round,
            board,
            result: stored,
        }
        .into());
    }
    super::records::check_result_against_record(&reg, section, round, b, result)?;
    let signed_final = reg.event.signed_results_final && b.confirmed;
    if signed_final && !override_signed {
        let signed_by = b
            .history
            .iter()
            .rev()
            .find_map(|h| match h {
                arbiter_core::ResultChange::Confirmed { signed_by, .. } => Some(signed_by.clone()),
                _ => None,
            })
            .unwrap_or_default();
        return Err(Refusal::SignedResultFinal {
            section: Sec::in_reg(&reg, section),
            round,
            board,
            signed_by,
        }
        .into());
    }
    let reason = if signed_final {
        format!("{SIGNED_OVERRIDDEN}: {}", reason.trim())
    } else {
        reason.trim().to_string()
    };
    super::text_checked(vec![LogEntry::ResultCorrected {
        section: section.to_string(),
        round,
        board,
        result,
        reason,
        by: ctx.actor.clone(),
    }])
}

/// One line of a results file: board, result, optional fouls of red and black.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportLine {
    pub line: usize,
    pub board: u32,
    pub result: GameResult,
    pub fouls_red: u32,
    pub fouls_black: u32,
}

/// Read a results file (`result import`): one game per line, `台号 成绩 [红方犯规 黑方犯规]`,
/// separated by spaces, tabs or commas; `#` starts a comment; a first line that starts with
/// 台号 / board is a header. Errors name the file and line.
pub fn parse_results_file(name: &str, text: &str) -> Result<Vec<ImportLine>, DirectorError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let cells: Vec<&str> = body
            .split([',', '\t', ' ', '，'])
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if out.is_empty()
            && cells
                .first()
                .is_some_and(|c| c.starts_with("台号") || c.eq_ignore_ascii_case("board"))
        {
            continue;
        }
        let err = |problem: LineProblem| -> DirectorError {
            Refusal::ResultsLine {
                file: name.to_string(),
                line,
                problem,
            }
            .into()
        };
        if cells.len() != 2 && cells.len() != 4 {
            return Err(err(LineProblem::Cells(cells.len())));
        }
        let board = cells[0]
            .parse::<u32>()
            .ok()
            .filter(|b| *b > 0)
            .ok_or_else(|| err(LineProblem::Board(cells[0].to_string())))?;
        let result = super::rounds::parse_result(cells[1])
            .map_err(|_| err(LineProblem::Result(cells[1].to_string())))?;
        let fouls = |k: usize, colour: Colour| -> Result<u32, DirectorError> {
            match cells.get(k) {
                None => Ok(0),
                Some(c) => foul_count(c).map_err(|_| {
                    err(LineProblem::Fouls {
                        column: k + 1,
                        colour,
                        text: c.to_string(),
                    })
                }),
            }
        };
        let fouls_red = fouls(2, Colour::Red)?;
        let fouls_black = fouls(3, Colour::Black)?;
        if let Some(prev) = out.iter().find(|l: &&ImportLine| l.board == board) {
            return Err(err(LineProblem::DuplicateBoard {
                board,
                line: prev.line,
            }));
        }
        out.push(ImportLine {
            line,
            board,
            result,
            fouls_red,
            fouls_black,
        });
    }
    if out.is_empty() {
        return Err(Refusal::ResultsFileEmpty {
            file: name.to_string(),
        }
        .into());
    }
    Ok(out)
}

/// `result import`: every line of a results file entered at once (all or nothing), each as
/// [`enter_result`] would.
pub fn import_results(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: Option<u32>,
    lines: &[ImportLine],
) -> Result<Vec<LogEntry>, DirectorError> {
    crate::permission::require(ctx, crate::permission::Action::EnterResult)?;
    let at = ctx.at_rfc3339();
    let mut scratch = state.clone();
    let mut out = Vec::new();
    for l in lines {
        let input = ResultInput {
            round,
            ..ResultInput::new(l.board, l.result)
        }
        .with_fouls(Colour::Red, l.fouls_red)
        .with_fouls(Colour::Black, l.fouls_black);
        let entries =
            enter_result(&scratch, ctx, section, &input).map_err(|e| Refusal::AtLine {
                line: l.line,
                refusal: Box::new(e),
            })?;
        for e in entries {
            apply_scratch(&mut scratch, &e, &at)?;
            out.push(e);
        }
    }
    Ok(out)
}

/// A foul of a team's leader or coach (K12, `foul_recorded` with the team as offender), in
/// round `round` (default: the last round paired). Only where the regulation records team
/// fouls; the team must play in `section`, and a reason is required.
pub fn team_foul(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    team: &str,
    round: Option<u32>,
    kind: FoulKind,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    let _ = ctx;
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    if !sec.discipline.team_fouls {
        return Err(Refusal::NoTeamFouls {
            section: Sec::in_reg(&reg, section),
        }
        .into());
    }
    let t = state.teams.get(team.trim()).ok_or_else(|| {
        let names: Vec<&str> = state.teams.keys().map(String::as_str).collect();
        Refusal::UnknownTeam {
            team: team.trim().to_string(),
            closest: arbiter_types::closest(team.trim(), names.iter().copied()).map(str::to_string),
        }
    })?;
    let plays_here = t.section.as_deref() == Some(section)
        || t.members
            .iter()
            .any(|m| state.player(*m).is_some_and(|p| p.section == section));
    if !plays_here {
        return Err(Refusal::TeamNotInSection {
            team: t.team.clone(),
            section: Sec::in_reg(&reg, section),
        }
        .into());
    }
    if reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::TeamFoul).into());
    }
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let round = round.unwrap_or_else(|| rec.last_round());
    if rec.round(round).is_none() {
        return Err(Refusal::RoundNotPaired {
            section: Sec::in_reg(&reg, section),
            round,
            paired: None,
        }
        .into());
    }
    super::text_checked(vec![LogEntry::FoulRecorded {
        section: section.to_string(),
        offender: Offender::Team(t.team.clone()),
        round: Some(round),
        board: None,
        kind,
        reason: reason.trim().to_string(),
    }])
}
