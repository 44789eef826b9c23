//! The rounds (编排): pair the next round (with fixed pairs, swaps and the checker's
//! warnings), publish it, undo it, and the pairing sheet (对阵表) of a round or of the
//! knockout games due now.

use super::Ctx;
use crate::knockout_stage;
use crate::manual::{by_hand, explanation};
use crate::permission::{self, Action};
use crate::plan::{due_withdrawals, section_plan, SectionPlan};
use crate::refusal::{Refusal, Sec};
use crate::registration::draw_numbers;
use crate::round::pair_round_fixed;
use crate::step::{next_step, Step};
use crate::{apply_scratch, regulation_of, DirectorError};
use arbiter_core::{EventState, LogEntry, PlayerId, RoundRecord};
use arbiter_regulation::{Regulation, Section};
use arbiter_types::{GameResult, PlayerNo, Score};
use serde::Serialize;

pub(crate) fn section_of<'a>(
    reg: &'a Regulation,
    state: &EventState,
    section: &str,
) -> Result<&'a Section, DirectorError> {
    if state.section(section).is_none() {
        return Err(DirectorError::UnknownSection(section.to_string()));
    }
    reg.section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))
}

/// What the arbiter asks of a pairing: pairs he fixes and two players he swaps afterwards
/// (pairing numbers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairRequest {
    pub fix: Vec<(PlayerNo, PlayerNo)>,
    pub swap: Option<(PlayerNo, PlayerNo)>,
}

/// A paired round: the entries to append, and what the arbiter should read.
#[derive(Debug, Clone, Default)]
pub struct PairOutcome {
    pub entries: Vec<LogEntry>,
    pub round: u32,
    /// The checker's objections to a manual pairing (the pairing stands; A2 / H1–H5).
    pub warnings: Vec<String>,
    /// The same objections in an arbiter's words, the players named and no rule code (the
    /// desk's preview); a team section's are its warnings as they are.
    pub in_words: Vec<String>,
    /// The hard rules the engine had to relax to pair the round, who breaks them and why
    /// (A2 as amended: H5, then H1; H4 around fixed pairs).
    pub relaxed: Vec<String>,
    /// Every board with its reasons (`--explain`).
    pub explanation: String,
    /// What was done on the way (numbers drawn by lot, withdrawals by the forfeit rule).
    pub notes: Vec<String>,
}

/// `round pair`: the entries that pair the next round of `section`.
pub fn pair(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    req: &PairRequest,
) -> Result<Vec<LogEntry>, DirectorError> {
    pair_explained(state, ctx, section, req).map(|o| o.entries)
}

/// `round pair` with the explanation, the warnings and the notes.
///
/// On the way it draws the pairing numbers if nobody has (A3, seed recorded) and records
/// the withdrawals the forfeit rule demands (A5). A section whose last round still has
/// games without a result, or whose knockout games are due, is refused and nothing changes.
pub fn pair_explained(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    req: &PairRequest,
) -> Result<PairOutcome, DirectorError> {
    permission::require(ctx, Action::PairRound)?;
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    if crate::team_match::is_team_section(&reg, section) {
        // A15: the teams are paired; the games follow from the matches and the line-ups.
        // Fixed matches and a swap name team numbers.
        let t = crate::team_match::pair_by_hand(state, ctx, section, &req.fix, req.swap)?;
        return Ok(PairOutcome {
            entries: t.entries,
            round: t.round,
            in_words: t.warnings.clone(),
            warnings: t.warnings,
            relaxed: t.relaxed,
            explanation: t.explanation,
            notes: t.notes,
        });
    }
    let mut scratch = state.clone();
    let mut out = PairOutcome::default();
    if let Some(w) = super::entries::not_checked_in_warning(state, section) {
        out.notes.push(w);
    }
    // S9: a player of a counted section with no association is named, never dropped silently.
    if reg
        .associations
        .as_ref()
        .is_some_and(|a| a.sections.iter().any(|s| s == section))
    {
        if let Some(w) = crate::registration::unassociated_warning(&reg, state) {
            out.notes.push(w);
        }
    }
    if let Some(w) = super::entries::forfeit_warning(state, section) {
        out.notes.push(w);
    }
    let at = ctx.at_rfc3339();
    let push = |scratch: &mut EventState, out: &mut PairOutcome, e: LogEntry| {
        apply_scratch(scratch, &e, &at).map(|()| out.entries.push(e))
    };
    loop {
        match next_step(&reg, &scratch, section)? {
            Step::DrawNumbers => {
                if scratch.section(section).is_none_or(|r| r.order.is_empty()) {
                    let e = draw_numbers(&scratch, section);
                    if let LogEntry::PairingNumbersDrawn { order, seed, .. } = &e {
                        let how = crate::registration::numbering_words(
                            crate::registration::numbering_of(&scratch, section),
                        );
                        out.notes
                            .push(format!("已{how}: 1–{} (种子 {seed})", order.len()));
                    }
                    push(&mut scratch, &mut out, e)?;
                }
                // A `groups` section: the split into groups (`groups.rs`).
                if let Some(sec) = reg.section(section) {
                    if let Some(e) = crate::groups::split_entry(sec, &scratch, section) {
                        if let LogEntry::GroupsDrawn { groups, seed, .. } = &e {
                            let order = scratch
                                .section(section)
                                .map_or(&[][..], |r| r.order.as_slice());
                            out.notes.push(crate::groups::split_note(
                                order,
                                groups,
                                *seed,
                                sec.format.group_names == arbiter_regulation::GroupNames::Numbers,
                            ));
                        }
                        push(&mut scratch, &mut out, e)?;
                    }
                }
            }
            Step::CompleteRound { round } => {
                let e = LogEntry::RoundCompleted {
                    section: section.to_string(),
                    round,
                };
                push(&mut scratch, &mut out, e)?;
            }
            Step::Withdraw(list) => {
                for (p, after, why) in list {
                    out.notes.push(format!("{p} 按弃权规则退赛: {why}"));
                    push(&mut scratch, &mut out, withdrawn_by_rule(p, after, why))?;
                }
            }
            Step::Results { round, boards } => {
                return Err(Refusal::RoundUnfinished {
                    section: Sec::in_reg(&reg, section),
                    round,
                    boards,
                }
                .into());
            }
            Step::Knockout { matches } => {
                return Err(Refusal::KnockoutDue {
                    section: Sec::in_reg(&reg, section),
                    games: matches.len(),
                }
                .into());
            }
            Step::Done => {
                return Err(Refusal::AllRoundsPlayed {
                    section: Sec::in_reg(&reg, section),
                }
                .into());
            }
            Step::Pair { round, stage } => {
                out.round = round;
                let manual_asked = !req.fix.is_empty() || req.swap.is_some();
                if manual_asked && !is_swiss(&reg, &scratch, section) {
                    return Err(Refusal::RoundRobinFixed {
                        section: Sec::in_reg(&reg, section),
                    }
                    .into());
                }
                // A final round robin's field is fixed in the log before its first round.
                if let Some(sec) = reg.section(section) {
                    if let Some(e) =
                        crate::groups::final_field_entry(sec, &scratch, section, round)?
                    {
                        if let LogEntry::KnockoutSeeded { seeds, .. } = &e {
                            out.notes.push(final_field_note(&scratch, section, seeds));
                        }
                        push(&mut scratch, &mut out, e)?;
                    }
                }
                // Fixed pairs first, then the engine on the rest (A3b): the engine never
                // runs on players the arbiter has placed.
                let paired = pair_round_fixed(&reg, &scratch, section, round, stage, &req.fix)?;
                // The rules the engine had to relax, for the arbiter (A2 as amended).
                out.relaxed = paired
                    .pairing
                    .relaxed
                    .iter()
                    .map(|v| format!("第{round}轮 round {round}: {v}"))
                    .collect();
                if !manual_asked {
                    out.explanation = explanation(&paired.in_hall(&paired.pairing));
                    push(&mut scratch, &mut out, paired.entry.clone())?;
                    return Ok(out);
                }
                let hand = by_hand(
                    &paired.input,
                    round,
                    paired.pairing.clone(),
                    &req.fix,
                    req.swap,
                )
                .map_err(Refusal::Manual)?;
                out.warnings = hand
                    .warnings
                    .iter()
                    .map(|v| format!("第{round}轮 round {round}: {v}"))
                    .collect();
                let name = |no: PlayerNo| {
                    let who = paired
                        .order
                        .get(no.index())
                        .and_then(|id| scratch.player(*id))
                        .map_or("", |r| r.person.name.as_str());
                    format!("{no}号 {who}").trim_end().to_string()
                };
                out.in_words = hand
                    .warnings
                    .iter()
                    .map(|v| crate::manual::in_words(v, &paired.input, &name))
                    .collect();
                let (p, manual) = (hand.pairing, hand.notes);
                out.explanation = explanation(&paired.in_hall(&p));
                let entry = paired.entry_of(section, &p, manual)?;
                push(&mut scratch, &mut out, entry)?;
                return Ok(out);
            }
        }
    }
}

/// Two players exchanged on the sheet of an unpublished round (调换), before it is recorded:
/// the entries that would record it (the pairing undone, then the round paired again with
/// every other board of the sheet kept and the two players exchanged), the sheet as it
/// would then be and every warning in an arbiter's words. Nothing is written: the preview
/// shows this, and [`crate::command::RoundCommand::Repair`] appends these same entries.
#[derive(Debug, Clone)]
pub struct Repair {
    pub entries: Vec<LogEntry>,
    pub round: u32,
    pub sheet: RoundSheet,
    pub warnings: Vec<String>,
}

/// [`Repair`] of swapping `swap` (pairing numbers) in the open round of `section`. Refused
/// in words when the round is published, has a result or a foul, belongs to a team section,
/// or the swap does not fit the sheet.
pub fn repair(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    swap: (PlayerNo, PlayerNo),
) -> Result<Repair, DirectorError> {
    permission::require(ctx, Action::UndoRound)?;
    permission::require(ctx, Action::PairRound)?;
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    if crate::team_match::is_team_section(&reg, section) {
        return Err(Refusal::SwapInTeam {
            section: Sec::in_reg(&reg, section),
        }
        .into());
    }
    let r = open_round(state, section)?;
    let round = r.round;
    if r.published {
        return Err(Refusal::SwapPublished {
            section: Sec::in_reg(&reg, section),
            round,
        }
        .into());
    }
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let no = |p: PlayerId| rec.pairing_no(p);
    let fix: Vec<(PlayerNo, PlayerNo)> = r
        .boards
        .iter()
        .filter_map(|b| Some((no(b.red)?, no(b.black)?)))
        .collect();
    let (a, b) = swap;
    let mut entries = undo(
        state,
        ctx,
        section,
        &format!("裁判长调换 {a}号/{b}号 (players swapped by the arbiter)"),
    )?;
    let at = ctx.at_rfc3339();
    let mut scratch = state.clone();
    for e in &entries {
        apply_scratch(&mut scratch, e, &at)?;
    }
    let req = PairRequest {
        fix,
        swap: Some(swap),
    };
    let paired = pair_explained(&scratch, ctx, section, &req)?;
    for mut e in paired.entries {
        // The log tells what the arbiter did: one swap, not every board of the sheet kept.
        if let LogEntry::RoundPaired { manual, .. } = &mut e {
            *manual = vec![format!(
                "裁判长调换 {a}号/{b}号, 其余对阵不变 (players swapped by the arbiter, other boards kept)"
            )];
        }
        apply_scratch(&mut scratch, &e, &at)?;
        entries.push(e);
    }
    Ok(Repair {
        entries,
        round,
        sheet: sheet(&scratch, section, Some(round))?,
        warnings: paired.in_words,
    })
}

/// The field of a final round robin in words: 「决赛名单 (按小组名次): 1. 3号 张三 …」, by code.
fn final_field_note(state: &EventState, section: &str, seeds: &[PlayerNo]) -> String {
    let rec = state.section(section);
    let names: Vec<String> = seeds
        .iter()
        .enumerate()
        .map(|(i, no)| {
            let who = rec
                .and_then(|r| r.order.get(no.index()))
                .and_then(|p| state.player(*p))
                .map_or("", |p| p.person.name.as_str());
            format!("{}. {no}号 {who}", i + 1).trim_end().to_string()
        })
        .collect();
    format!(
        "决赛名单 (按小组名次，决赛单循环代号): {}",
        names.join("；")
    )
}

/// Whether `section` is paired by the Swiss engine now (not by Berger tables).
fn is_swiss(reg: &Regulation, state: &EventState, section: &str) -> bool {
    reg.section(section).is_some_and(|sec| {
        !matches!(
            section_plan(sec, state),
            SectionPlan::RoundRobin { .. } | SectionPlan::GroupsRoundRobin { .. }
        )
    })
}

/// The last round of a section that is paired and not finished.
fn open_round<'a>(state: &'a EventState, section: &str) -> Result<&'a RoundRecord, DirectorError> {
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    match rec.rounds.values().next_back() {
        Some(r) if !r.completed => Ok(r),
        Some(r) => Err(Refusal::LastRoundFinished {
            section: Sec::of(state, section),
            round: r.round,
        }
        .into()),
        None => Err(Refusal::NoRoundPaired {
            section: Sec::of(state, section),
        }
        .into()),
    }
}

/// `round publish`: publish the pairing of the open round (公布对阵表).
pub fn publish(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::PublishRound)?;
    let r = open_round(state, section)?;
    if r.published {
        return Err(Refusal::AlreadyPublished {
            section: Sec::of(state, section),
            round: r.round,
        }
        .into());
    }
    Ok(vec![LogEntry::RoundPublished {
        section: section.to_string(),
        round: r.round,
    }])
}

/// `round complete`: what is left of closing the section's last round — the round's
/// completion once every board has a result (a round the last result did not close, as in an
/// older log), then the withdrawals the forfeit rule demands (A5), as [`close_round`] records
/// them when the last result closes the round. A round with boards still open, or a finished
/// round with nobody to withdraw, is refused and nothing changes.
pub fn complete(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::CompleteRound)?;
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let Some(r) = rec.rounds.values().next_back() else {
        return Err(Refusal::NoRoundPaired {
            section: Sec::in_reg(&reg, section),
        }
        .into());
    };
    if !r.completed {
        let open: Vec<u32> = r
            .boards
            .iter()
            .filter(|b| b.result.is_none())
            .map(|b| b.board)
            .collect();
        if !open.is_empty() {
            return Err(Refusal::RoundUnfinished {
                section: Sec::in_reg(&reg, section),
                round: r.round,
                boards: open,
            }
            .into());
        }
        let mut scratch = state.clone();
        let mut out = Vec::new();
        close_round(
            sec,
            &mut scratch,
            section,
            r.round,
            &ctx.at_rfc3339(),
            &mut out,
        )?;
        return Ok(out);
    }
    let due = due_withdrawals(sec, state, section);
    if due.is_empty() {
        return Err(Refusal::LastRoundFinished {
            section: Sec::in_reg(&reg, section),
            round: r.round,
        }
        .into());
    }
    Ok(due
        .into_iter()
        .map(|(p, after, why)| withdrawn_by_rule(p, after, why))
        .collect())
}

/// The withdrawal the forfeit rule makes of `p` after round `after` (A5), with its reason.
fn withdrawn_by_rule(p: PlayerId, after: u32, why: String) -> LogEntry {
    LogEntry::PlayerWithdrawn {
        player: p,
        reason: why,
        after_round: Some(after),
        by_forfeits: true,
    }
}

/// `round undo`: withdraw the pairing of the open round — unpublished, or published while
/// no game has a result or a foul — so that it can be paired again.
pub fn undo(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::UndoRound)?;
    let r = open_round(state, section)?;
    if let Some(b) = r
        .boards
        .iter()
        .find(|b| b.result.is_some() || !b.fouls.is_empty())
    {
        return Err(Refusal::UndoWithResults {
            section: Sec::of(state, section),
            round: r.round,
            board: b.board,
        }
        .into());
    }
    super::text_checked(vec![LogEntry::RoundUndone {
        section: section.to_string(),
        round: r.round,
        reason: reason.trim().to_string(),
    }])
}

/// One side of a board on the pairing sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetSide {
    /// Pairing number.
    pub no: u32,
    pub name: String,
    pub unit: Option<String>,
    /// Points before the round (the Swiss score in the knockout).
    pub score: Score,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetBoard {
    pub board: u32,
    pub red: SheetSide,
    pub black: SheetSide,
    /// `1-0`, `0-1`, `=`, `+-`, `-+`, `--`; null until entered.
    pub result: Option<String>,
    /// How the game ended (J5: 困毙, 自然限着, 超时, 认输 …), when the arbiter entered it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<arbiter_core::Ending>,
    /// This board must keep a game record this round (T6: boards 1–10 from round 4).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub must_record: bool,
    /// Played with the colours the other way round (S6): red and black are as played.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub colours_swapped: bool,
}

/// A pair of a final round robin whose group game is carried into the final (预赛成绩带入):
/// shown on the round's sheet instead of a board; the two play no game this round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetCarried {
    /// The round of the group stage the game was played in.
    pub group_round: u32,
    /// The colours and the result as played in the group.
    pub red: SheetSide,
    pub black: SheetSide,
    pub result: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetBye {
    pub no: u32,
    pub name: String,
}

/// The pairing sheet (对阵表) of a round, or of the knockout games due now. Serialises to the
/// `round show --json` contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundSheet {
    pub section: String,
    pub round: u32,
    pub published: bool,
    pub boards: Vec<SheetBoard>,
    pub bye: Option<SheetBye>,
    /// A final round robin with the group results carried over: the pairs of this round
    /// who do not play, their group game counting in the final (「预赛成绩带入」).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<SheetCarried>,
    /// When the round starts by the regulation's schedule (J1 "上午8点半开赛"), as
    /// `YYYY-MM-DD HH:MM`; absent when the schedule names no time for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts: Option<String>,
    /// Knockout games (not in the JSON contract): the match of every board.
    #[serde(skip)]
    pub knockout: Vec<String>,
    /// The boards that must keep a game record this round and who records (T6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<super::games::RecordDuty>,
}

/// The result notation read from red's side: `1-0`, `0-1`, `=`, `+-`, `-+`, `--`.
pub fn notation(r: GameResult) -> &'static str {
    match r {
        GameResult::RedWin => "1-0",
        GameResult::BlackWin => "0-1",
        GameResult::Draw => "=",
        GameResult::BlackForfeit => "+-",
        GameResult::RedForfeit => "-+",
        GameResult::DoubleForfeit => "--",
    }
}

/// Read a result in the notation of [`notation`] (also `1:0`, `0:1`, `½-½`, `1/2`, `和`).
pub fn parse_result(s: &str) -> Result<GameResult, String> {
    let t = s.trim();
    Ok(match t {
        "1-0" | "1:0" | "红胜" => GameResult::RedWin,
        "0-1" | "0:1" | "黑胜" => GameResult::BlackWin,
        "=" | "½-½" | "1/2" | "0.5-0.5" | "和" | "和棋" => GameResult::Draw,
        "+-" | "+:-" | "黑弃权" => GameResult::BlackForfeit,
        "-+" | "-:+" | "红弃权" => GameResult::RedForfeit,
        "--" | "-:-" | "双方弃权" => GameResult::DoubleForfeit,
        _ => {
            return Err(format!(
                "成绩 「{t}」 无法识别: 应为 1-0, 0-1, =, +-(红方判胜), -+(黑方判胜), --(双方弃权), 均以红方在前 \
                 (unknown result; one of 1-0 0-1 = +- -+ --, read from red's side)"
            ))
        }
    })
}

fn side(
    state: &EventState,
    sec: &Section,
    section: &str,
    p: PlayerId,
    before_round: u32,
) -> SheetSide {
    let rec = state.section(section);
    let no = rec.and_then(|r| r.pairing_no(p)).map_or(0, |n| n.get());
    let pl = state.player(p);
    let score = state
        .outcomes(p)
        .iter()
        .take(before_round.saturating_sub(1) as usize)
        .map(|o| o.points(&crate::plan::scoring_table(sec, state)))
        .sum();
    SheetSide {
        no,
        name: pl.map(|x| x.person.name.clone()).unwrap_or_default(),
        unit: pl.and_then(|x| {
            x.person
                .unit
                .clone()
                .or_else(|| x.person.association.clone())
                .or_else(|| x.team.clone())
        }),
        score,
    }
}

/// The board of a knockout match in the hall: its board within its round (the round's
/// matches played, numbered 1…N in bracket order, [`arbiter_knockout::Bracket::board`]).
/// The knockout takes the top boards; a Swiss played beside it comes after them
/// ([`swiss_board_offset`]). `None` for a match with a bye.
pub fn knockout_board(b: &arbiter_knockout::Bracket, match_id: &str) -> Option<u32> {
    b.board(match_id)
}

/// The boards before the continuing Swiss's first board. In a two-stage section whose other
/// players continue the Swiss (T2), the knockout and the Swiss are played side by side: the
/// knockout's matches sit on the top boards (1…N, N the most matches one of its rounds
/// plays, [`arbiter_knockout::Bracket::boards`]) and the Swiss's boards follow them, so a
/// board number names one game and 「前十台录谱」 falls on the knockout first (in a
/// 16-player open, the quarter-finals on boards 1–4 and the Swiss on boards 5–8).
/// 0 for any other section.
pub fn swiss_board_offset(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<u32, DirectorError> {
    let sec = section_of(reg, state, section)?;
    match section_plan(sec, state) {
        SectionPlan::TwoStage {
            continue_rounds, ..
        } if continue_rounds > 0 => Ok(knockout_stage::bracket(reg, state, section)?.boards()),
        _ => Ok(0),
    }
}

/// The schedule's round number of a knockout match: the Swiss rounds plus its bracket round.
pub(crate) fn knockout_round(sec: &Section, state: &EventState, bracket_round: usize) -> u32 {
    let swiss = match section_plan(sec, state) {
        SectionPlan::TwoStage { swiss_rounds, .. } => swiss_rounds,
        _ => 0,
    };
    swiss + bracket_round as u32
}

/// `round show`: the sheet of round `round` (default: the knockout games due now, else the
/// last paired round).
pub fn sheet(
    state: &EventState,
    section: &str,
    round: Option<u32>,
) -> Result<RoundSheet, DirectorError> {
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    if round.is_none() {
        let matches = crate::step::knockout_due(&reg, state, section)?;
        if !matches.is_empty() {
            if let Some(first) = knockout_sheets(&reg, sec, state, section, &matches)?
                .into_iter()
                .next()
            {
                return Ok(first);
            }
        }
    }
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let r = match round {
        Some(n) => rec.round(n).ok_or_else(|| Refusal::RoundNotPaired {
            section: Sec::in_reg(&reg, section),
            round: n,
            paired: Some(rec.last_round()),
        })?,
        None => rec
            .rounds
            .values()
            .next_back()
            .ok_or_else(|| Refusal::NoRoundPaired {
                section: Sec::in_reg(&reg, section),
            })?,
    };
    let duty = super::games::record_duty(&reg, section, r.round);
    // A round of a final played as round robins shows the final's points (its earlier rounds
    // and the group games carried into them), as the final is ranked by.
    let final_points = crate::groups::final_points_before(sec, state, section, r.round)?;
    let side = |state: &EventState, sec: &Section, section: &str, p: PlayerId, round: u32| {
        let mut s = side(state, sec, section, p, round);
        if let Some(fp) = &final_points {
            s.score = rec
                .pairing_no(p)
                .and_then(|no| fp.get(&no).copied())
                .unwrap_or(Score::ZERO);
        }
        s
    };
    let carried = crate::groups::carried_games(sec, state, section, r.round)
        .into_iter()
        .map(|(group_round, g)| SheetCarried {
            group_round,
            red: side(state, sec, section, g.red, r.round),
            black: side(state, sec, section, g.black, r.round),
            result: g.result.map(|x| notation(x).to_string()),
        })
        .collect();
    let boards = r
        .boards
        .iter()
        .map(|b| SheetBoard {
            board: b.board,
            red: side(state, sec, section, b.red, r.round),
            black: side(state, sec, section, b.black, r.round),
            result: b.result.map(|x| notation(x).to_string()),
            ending: b.result.and(b.ending),
            must_record: duty.as_ref().is_some_and(|d| b.board <= d.boards),
            colours_swapped: b.colours_swapped,
        })
        .collect();
    let bye = r.byes.first().map(|p| {
        let s = side(state, sec, section, *p, r.round);
        SheetBye {
            no: s.no,
            name: s.name,
        }
    });
    Ok(RoundSheet {
        section: section.to_string(),
        round: r.round,
        published: r.published,
        boards,
        bye,
        carried,
        starts: round_start(sec, r.round),
        knockout: Vec::new(),
        records: duty,
    })
}

/// The sheet the result grid works on: the Swiss round being played (paired, results
/// missing) when there is one — also while the knockout's games are due beside it (T2),
/// which have their own page — otherwise [`sheet`] without a round.
pub fn current_sheet(state: &EventState, section: &str) -> Result<RoundSheet, DirectorError> {
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    if rec.last_round() > rec.completed_rounds() {
        return sheet(state, section, Some(rec.last_round()));
    }
    sheet(state, section, None)
}

/// Every sheet open now in `section`: the Swiss round being played (paired, results
/// missing) and the knockout games due, which a two-stage section plays side by side (T2);
/// otherwise the one sheet of [`sheet`] without a round.
pub fn open_sheets(state: &EventState, section: &str) -> Result<Vec<RoundSheet>, DirectorError> {
    let reg = regulation_of(state)?;
    let sec = section_of(&reg, state, section)?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let matches = crate::step::knockout_due(&reg, state, section)?;
    let open = rec.last_round() > rec.completed_rounds();
    if matches.is_empty() {
        return Ok(vec![sheet(state, section, None)?]);
    }
    let mut out = Vec::new();
    if open {
        out.push(sheet(state, section, Some(rec.last_round()))?);
    }
    out.extend(knockout_sheets(&reg, sec, state, section, &matches)?);
    if out.is_empty() {
        out.push(sheet(state, section, None)?);
    }
    Ok(out)
}

/// The start of `round` by the section's schedule (J1), `YYYY-MM-DD HH:MM`.
pub fn round_start(sec: &Section, round: u32) -> Option<String> {
    let i = usize::try_from(round.checked_sub(1)?).ok()?;
    sec.schedule
        .get(i)
        .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
}

/// The knockout games due now, one sheet per round of the schedule (earliest first): a
/// sheet's boards are the matches' boards within that round ([`knockout_board`]), each with
/// its record duty (the regulation's `records`: the game's kind, its round and its board
/// within the knockout's round, [`arbiter_regulation::RecordRules::knockout_must_record`]).
fn knockout_sheets(
    reg: &Regulation,
    sec: &Section,
    state: &EventState,
    section: &str,
    matches: &[String],
) -> Result<Vec<RoundSheet>, DirectorError> {
    let b = knockout_stage::bracket(reg, state, section)?;
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let after = rec.completed_rounds() + 1;
    let format = crate::knockout_stage::match_format(sec);
    // (round, board, sheet board, label, must record)
    let mut games = Vec::new();
    for (mid, g) in knockout_stage::next_games(&b, matches, section)? {
        let (Some(&red), Some(&black)) =
            (rec.order.get(g.red.index()), rec.order.get(g.black.index()))
        else {
            continue;
        };
        let m = b.get(&mid);
        let round = knockout_round(sec, state, m.map_or(0, |m| m.round));
        let within = b.board(&mid).unwrap_or(0);
        let must_record = sec
            .records
            .as_ref()
            .is_some_and(|r| r.knockout_must_record(round, within, g.kind));
        let board = SheetBoard {
            board: within,
            red: side(state, sec, section, red, after),
            black: side(state, sec, section, black, after),
            result: None,
            ending: None,
            must_record,
            colours_swapped: false,
        };
        let label = format!(
            "{} 第{}局 {}{}",
            m.map_or(mid.clone(), |m| m.label_zh()),
            g.index + 1,
            format.game_label(g.step, g.kind),
            if g.chooser.is_some() { " (选色)" } else { "" }
        );
        games.push((round, board, label));
    }
    games.sort_by_key(|(round, board, _)| (*round, board.board));
    let mut out: Vec<RoundSheet> = Vec::new();
    for (round, board, label) in games {
        if out.last().is_none_or(|s| s.round != round) {
            out.push(RoundSheet {
                section: section.to_string(),
                round,
                published: true,
                boards: Vec::new(),
                bye: None,
                carried: Vec::new(),
                starts: round_start(sec, round),
                knockout: Vec::new(),
                records: None,
            });
        }
        if let Some(s) = out.last_mut() {
            if board.must_record && s.records.is_none() {
                s.records = sec.records.as_ref().map(|r| {
                    let (zh, en) = r.recorder_words();
                    super::games::RecordDuty {
                        boards: r.boards,
                        recorder: zh,
                        recorder_en: en,
                    }
                });
            }
            s.boards.push(board);
            s.knockout.push(label);
        }
    }
    Ok(out)
}

/// The withdrawals the forfeit rule demands once `round` is complete (A5), applied to
/// `scratch` and pushed to `out`.
pub(crate) fn close_round(
    sec: &Section,
    scratch: &mut EventState,
    section: &str,
    round: u32,
    at: &str,
    out: &mut Vec<LogEntry>,
) -> Result<(), DirectorError> {
    let e = LogEntry::RoundCompleted {
        section: section.to_string(),
        round,
    };
    apply_scratch(scratch, &e, at)?;
    out.push(e);
    for (p, after, why) in due_withdrawals(sec, scratch, section) {
        let e = withdrawn_by_rule(p, after, why);
        apply_scratch(scratch, &e, at)?;
        out.push(e);
    }
    Ok(())
}
