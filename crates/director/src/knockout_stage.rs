//! Stage 2 of a two-stage section (A8, A9; K6, K7, T2, T3): the top k of the Swiss play a
//! knockout bracket whose matches are the knockout crate's state machines (slow → rapid →
//! armageddon; an armageddon draw advances black while the game stays a draw).
//!
//! The bracket is never stored: it is rebuilt from the log — seeding from the Swiss standings
//! after stage 1, then every `knockout_game_recorded` entry replayed in order.
//!
//! A plain knockout (`format.kind = "knockout"`) is the same stage without stage 1: every
//! entry is in the bracket, seeded by the numbers drawn.

use crate::plan::{section_plan, SectionPlan};
use crate::standings;
use crate::{derive_seed, DirectorError, KnockoutFailure};
use arbiter_core::{EventState, LogEntry, PlayerId};
use arbiter_knockout::{
    Bracket, BracketKind, ColourRule, Decider, MatchFormat, MatchSettings, NextGame, Step,
};
use arbiter_regulation::match_blocks::{ArmageddonDraw, BlockColours, EndingRule};
use arbiter_regulation::{
    ColourChoice, Knockout, KnockoutVariant, MatchFormat as RegFormat, Regulation, Section,
};
use arbiter_types::{Colour, GameKind, GameResult, PlayerNo};

pub(crate) fn ko_err(section: &str, cause: crate::KnockoutFailure) -> DirectorError {
    DirectorError::Knockout {
        section: section.to_string(),
        cause,
    }
}

/// The knockout crate's match format for the regulation's settings: a preset (K1–K6) with
/// the regulation's colour rule and time controls, or the file's game blocks and ending.
pub fn match_format(sec: &Section) -> MatchFormat {
    let plain = Knockout::plain();
    let k = sec.format.knockout.as_ref().unwrap_or(&plain);
    if k.has_blocks() {
        if let Some(f) = blocks_format(k) {
            return f;
        }
    }
    let rule = match k.colour_choice() {
        ColourChoice::HigherSeed => ColourRule::HigherSeedChooses,
        ColourChoice::Lots => ColourRule::Lot,
    };
    let mut f = match k.preset() {
        RegFormat::K1 => MatchFormat::k1(rule, rule),
        RegFormat::K2 => MatchFormat::k2(rule),
        RegFormat::K3 => MatchFormat::k3(rule, rule),
        RegFormat::K4 => MatchFormat::k4(rule),
        RegFormat::K5 => MatchFormat::k5(),
        RegFormat::K6 => MatchFormat::k6(),
    };
    for tc in &k.time_controls {
        f = f.with_time_control(tc.kind, tc.short());
    }
    f
}

fn colour_rule(c: BlockColours) -> ColourRule {
    match c {
        BlockColours::Lot => ColourRule::Lot,
        BlockColours::Swap => ColourRule::SwapPrevious,
        BlockColours::HigherSeedChooses => ColourRule::HigherSeedChooses,
        BlockColours::OtherThanFirstChooser => ColourRule::OtherThanFirstChooser,
        BlockColours::PreviousBlackChooses => ColourRule::PreviousBlackChooses,
        BlockColours::LotDecidesChooser => ColourRule::LotDecidesChooser,
    }
}

/// The blocks of a regulation as the knockout crate's steps; `None` when the file's blocks
/// are not whole (the regulation check refuses such a file before it gets here).
fn blocks_format(k: &Knockout) -> Option<MatchFormat> {
    let ending = k.ending.as_ref()?;
    let named = |name: &str, kind: Option<GameKind>| {
        let tc = k.time_control_named(name)?;
        Some((
            kind.unwrap_or(tc.kind),
            tc.display_name().to_string(),
            tc.short(),
        ))
    };
    let mut steps = Vec::new();
    for (i, b) in k.blocks.iter().enumerate() {
        let (kind, name, time) = named(&b.time_control, None)?;
        let mut s = Step::block(kind, b.games, colour_rule(k.block_colours(i)));
        s.stop_when_decided = b.stop_when_decided;
        s.name = Some(name);
        s.time_control = Some(time);
        steps.push(s);
    }
    let mut repeat_from = None;
    let decider = match (ending.rule, ending.draw) {
        (EndingRule::Armageddon, draw) => {
            let (kind, name, time) =
                named(ending.time_control.as_deref()?, Some(GameKind::Armageddon))?;
            let colours = ending
                .colours
                .unwrap_or(BlockColours::OtherThanFirstChooser);
            let mut s = Step::single(kind, colour_rule(colours));
            s.name = Some(name);
            s.time_control = Some(time);
            steps.push(s);
            match draw {
                Some(ArmageddonDraw::HigherSeed) => Some(Decider::HigherSeed),
                Some(ArmageddonDraw::Lot) => Some(Decider::Lot),
                _ => None,
            }
        }
        (EndingRule::DrawBlackWins, _) => Some(Decider::LastGameBlack),
        (EndingRule::FirstGameBlack, _) => Some(Decider::FirstGameBlack),
        (EndingRule::HigherSeed, _) => Some(Decider::HigherSeed),
        (EndingRule::Lot, _) => Some(Decider::Lot),
        (EndingRule::Repeat, _) => {
            repeat_from = Some(steps.len().checked_sub(1)?);
            None
        }
    };
    Some(MatchFormat {
        name: k.blocks_text(true).unwrap_or_default(),
        steps,
        repeat_from,
        time_controls: Vec::new(),
        decider,
    })
}

/// The match settings of a section's knockout: lots from the event seed, the chooser's
/// default colour red, and whether a drawn armageddon advances black (the preset's
/// `armageddon_draw_black_wins`, K7, T3; or the blocks' `ending.draw`).
pub fn match_settings(sec: &Section, event_seed: u64) -> MatchSettings {
    MatchSettings {
        chooser_default: Colour::Red,
        lot_seed: derive_seed(event_seed, &format!("knockout/{}", sec.id)),
        armageddon_draw_black_wins: sec
            .format
            .knockout
            .as_ref()
            .is_none_or(|k| k.armageddon_draw_black_wins()),
    }
}

fn bracket_kind(sec: &Section) -> BracketKind {
    match sec
        .format
        .knockout
        .as_ref()
        .map(|k| k.variant)
        .unwrap_or_default()
    {
        KnockoutVariant::Single => BracketKind::SingleElimination,
        KnockoutVariant::ThirdPlace => BracketKind::ThirdPlace,
        KnockoutVariant::Placement => BracketKind::Placement,
    }
}

/// The knockout's seeds: the top k active players of the Swiss standings after stage 1.
pub fn seeding(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Vec<PlayerNo>, DirectorError> {
    let sec = reg
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let SectionPlan::TwoStage {
        swiss_rounds, k, ..
    } = section_plan(sec, state)
    else {
        return Ok(Vec::new());
    };
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    if swiss_rounds == 0 {
        // A plain knockout: the numbers drawn are the seeds (`pairing.numbering`: lots,
        // given order or rating); a player withdrawn before the first game is left out.
        return Ok(rec
            .order
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                state
                    .player(**p)
                    .and_then(|p| p.withdrawn)
                    .is_none_or(|after| after.unwrap_or(0) != 0)
            })
            .map(|(i, _)| PlayerNo::from_index(i))
            .take(k as usize)
            .collect());
    }
    let st = standings::individual(sec, state, section, Some(swiss_rounds))?;
    Ok(st
        .rows
        .iter()
        .filter(|r| {
            let withdrawn_early = rec
                .order
                .get(r.no.index())
                .and_then(|p| state.player(*p))
                .and_then(|p| p.withdrawn)
                .is_some_and(|after| after.unwrap_or(0) <= swiss_rounds);
            !withdrawn_early
        })
        .take(k as usize)
        .map(|r| r.no)
        .collect())
}

/// The bracket of a two-stage section with every recorded knockout game replayed.
pub fn bracket(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Bracket, DirectorError> {
    let (sec, rec) = crate::section_parts(reg, state, section)?;
    let seeds = seeding(reg, state, section)?;
    let seed = state.header.as_ref().map_or(0, |h| h.seed);
    let settings = match_settings(sec, seed);
    let mut b = Bracket::new(bracket_kind(sec), seeds, match_format(sec), settings)
        .map_err(|e| ko_err(&sec.name, KnockoutFailure::Bracket(e)))?;
    for g in &rec.knockout {
        let next = b
            .next_game(&g.match_id)
            .map_err(|error| {
                ko_err(
                    &sec.name,
                    KnockoutFailure::Match {
                        match_id: g.match_id.clone(),
                        error,
                    },
                )
            })?
            .ok_or_else(|| {
                ko_err(
                    &sec.name,
                    KnockoutFailure::GameNotNeeded {
                        match_id: g.match_id.clone(),
                        game: g.game,
                    },
                )
            })?;
        let red = rec.pairing_no(g.red);
        let black = rec.pairing_no(g.black);
        // A colour chosen by the chooser (K7: the higher Swiss rank) shows in the recorded
        // colours: replay the choice, then the game must match.
        let next = match next.chooser {
            Some(c) if Some(next.red) == black && Some(next.black) == red => {
                let took = if Some(c) == red {
                    Colour::Red
                } else {
                    Colour::Black
                };
                b.choose_colour(&g.match_id, c, took)
                    .map_err(|e| ko_err(&sec.name, KnockoutFailure::Bracket(e)))?;
                b.next_game(&g.match_id)
                    .map_err(|e| ko_err(&sec.name, KnockoutFailure::Bracket(e)))?
                    .unwrap_or(next)
            }
            _ => next,
        };
        if next.index as u32 != g.game
            || Some(next.red) != red
            || Some(next.black) != black
            || next.kind != g.kind
        {
            return Err(ko_err(
                section,
                KnockoutFailure::GameMismatch {
                    match_id: g.match_id.clone(),
                    game: g.game,
                    red: next.red,
                    black: next.black,
                    kind: next.kind,
                },
            ));
        }
        b.record(&g.match_id, next.index, g.result)
            .map_err(|e| ko_err(&sec.name, KnockoutFailure::Bracket(e)))?;
    }
    Ok(b)
}

/// Bracket rounds finished, counted from round 1 without a gap.
pub fn rounds_finished(b: &Bracket) -> usize {
    let mut n = 0;
    while n < b.rounds() && b.round(n + 1).iter().all(|m| m.is_finished()) {
        n += 1;
    }
    n
}

/// Ready matches of bracket round `round`.
pub fn ready_in_round(b: &Bracket, round: usize) -> Vec<String> {
    let ready = b.ready();
    b.round(round)
        .iter()
        .filter(|m| ready.contains(&m.id.as_str()))
        .map(|m| m.id.clone())
        .collect()
}

/// The bracket round of a match (1-based), 0 if unknown.
pub fn match_round(b: &Bracket, id: &str) -> usize {
    b.get(id).map_or(0, |m| m.round)
}

/// The next game of each match.
pub fn next_games(
    b: &Bracket,
    matches: &[String],
    section: &str,
) -> Result<Vec<(String, NextGame)>, DirectorError> {
    let mut out = Vec::new();
    for id in matches {
        if let Some(g) = b
            .next_game(id)
            .map_err(|e| ko_err(section, KnockoutFailure::Bracket(e)))?
        {
            out.push((id.clone(), g));
        }
    }
    Ok(out)
}

/// The log entry of one knockout game.
pub fn game_entry(
    state: &EventState,
    section: &str,
    match_id: &str,
    g: &NextGame,
    result: GameResult,
) -> Result<LogEntry, DirectorError> {
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let id = |no: PlayerNo| -> Result<PlayerId, DirectorError> {
        rec.order
            .get(no.index())
            .copied()
            .ok_or_else(|| ko_err(section, KnockoutFailure::NoSuchNumber(no)))
    };
    Ok(LogEntry::KnockoutGameRecorded {
        section: section.to_string(),
        match_id: match_id.to_string(),
        game: g.index as u32,
        kind: g.kind,
        red: id(g.red)?,
        black: id(g.black)?,
        result,
        fouls: Vec::new(),
    })
}

/// How far a section's knockout has come, for `event show`: its rounds as the schedule
/// numbers them (after the Swiss stage's rounds), how many have begun (a game played, or a
/// match ready) and how many are finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The knockout's rounds in all.
    pub rounds: u32,
    /// The schedule's number of the knockout's first round.
    pub first_round: u32,
    /// Rounds begun.
    pub started: u32,
    /// Rounds finished (from the first, without a gap).
    pub finished: u32,
}

/// The knockout's [`Progress`] in `section`; `None` for a section without a knockout, or
/// before its stage 1 is over (a plain knockout: before the draw).
pub fn progress(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Option<Progress>, DirectorError> {
    let Some((b, due)) = crate::step::knockout_stage_due(reg, state, section)? else {
        return Ok(None);
    };
    let sec = reg
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let played: Vec<&str> = state
        .section(section)
        .map(|r| r.knockout.iter().map(|g| g.match_id.as_str()).collect())
        .unwrap_or_default();
    let started = (1..=b.rounds())
        .filter(|&r| {
            b.round(r).iter().any(|m| {
                played.contains(&m.id.as_str())
                    || due.contains(&m.id)
                    || matches!(m.state, arbiter_knockout::MatchState::Walkover { .. })
            })
        })
        .count();
    Ok(Some(Progress {
        rounds: b.rounds() as u32,
        first_round: crate::api::rounds::knockout_round(sec, state, 1),
        started: started as u32,
        finished: rounds_finished(&b) as u32,
    }))
}
