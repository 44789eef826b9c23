//! Stage 2 of a two-stage section (A8, A9; K6, K7, T2, T3): the top k of the Swiss play a
//! knockout bracket whose matches are the knockout crate's state machines (slow → rapid →
//! armageddon; an armageddon draw advances black while the game stays a draw).
//!
//! The bracket is never stored in the log: it is built from it — seeding from the Swiss
//! standings after stage 1, then every `knockout_game_recorded` entry replayed in order —
//! and kept beside the state's games, so that a state one game on replays that game only
//! ([`bracket`]).
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
use std::sync::Arc;

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
        (EndingRule::FirstGameWinner, _) => Some(Decider::FirstGameWinner),
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
    if crate::groups::is_groups(sec)
        && sec.format.final_stage == Some(arbiter_regulation::FinalStage::SamePlace)
    {
        return BracketKind::SamePlace;
    }
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
    Ok(seeding_kept(reg, state, section, None)?.0)
}

/// What the seeds of a Swiss stage were read from: the standings' input after stage 1, which
/// players withdrew during stage 1 (by pairing number) and the knockout's size. The same
/// inputs give the same seeds.
#[derive(Clone, PartialEq, Eq)]
struct SeedsFrom {
    standings: Arc<standings::IndividualInput>,
    early: Vec<bool>,
    k: u32,
}

/// [`seeding`], and what the seeds of a Swiss stage were read from (`None` for a plain
/// knockout). `kept`: seeds read before and what from; when a Swiss stage's seeds are read
/// from the same inputs they are those, and the standings are not computed again.
fn seeding_kept(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    kept: Option<(&SeedsFrom, &[PlayerNo])>,
) -> Result<(Vec<PlayerNo>, Option<SeedsFrom>), DirectorError> {
    let sec = reg
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let plan = section_plan(sec, state);
    // A final round robin's field (fixed by `knockout_seeded` as its first round is paired):
    // the qualifiers in the order of its codes.
    if let SectionPlan::GroupsRoundRobin { .. } = plan {
        return Ok((crate::groups::final_seeds(sec, state, section)?, None));
    }
    let SectionPlan::TwoStage {
        swiss_rounds, k, ..
    } = plan
    else {
        return Ok((Vec::new(), None));
    };
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    if swiss_rounds > 0 && !rec.knockout_seeds.is_empty() {
        // Fixed by the log as the first game was entered (`knockout_seeded`).
        return Ok((rec.knockout_seeds.clone(), None));
    }
    // The final of a `groups` section: the qualifiers of the group tables in the order of
    // the final (`groups::final_seeds`).
    if crate::groups::is_groups(sec) {
        return Ok((crate::groups::final_seeds(sec, state, section)?, None));
    }
    if swiss_rounds == 0 {
        // A plain knockout: the numbers drawn are the seeds (`pairing.numbering`: lots,
        // given order or rating); a player withdrawn before the first game is left out.
        let seeds = rec
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
            .collect();
        return Ok((seeds, None));
    }
    // A player withdrawn during stage 1 is no seed, by his pairing number.
    let early = rec
        .order
        .iter()
        .map(|p| {
            state
                .player(*p)
                .and_then(|p| p.withdrawn)
                .is_some_and(|after| after.unwrap_or(0) <= swiss_rounds)
        })
        .collect();
    count(|w| w.stage_one_read += 1);
    let from = SeedsFrom {
        standings: Arc::new(standings::individual_input(
            sec,
            state,
            section,
            Some(swiss_rounds),
        )?),
        early,
        k,
    };
    if let Some((then, seeds)) = kept {
        if *then == from {
            return Ok((seeds.to_vec(), Some(from)));
        }
    }
    let st = standings::individual_from(sec, &from.standings)?;
    let seeds = st
        .rows
        .iter()
        .filter(|r| !from.early.get(r.no.index()).copied().unwrap_or(false))
        .take(k as usize)
        .map(|r| r.no)
        .collect();
    Ok((seeds, Some(from)))
}

/// The bracket of a two-stage section with every recorded knockout game replayed.
///
/// The bracket is kept in the section's knockout memo ([`arbiter_core::memo`]) with what it
/// was built from (kind, seeds, match format and settings, the numbers drawn) and the games
/// it has replayed; the next state — the same games and more — replays only the games it
/// adds, so entering a game costs the games it adds, not the log. Anything else that
/// differs (a seed, the regulation, a game not among the kept ones) builds it again.
pub fn bracket(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Arc<Bracket>, DirectorError> {
    let (sec, rec) = crate::section_parts(reg, state, section)?;
    let games = rec.knockout.len();
    let memo = rec.knockout_memo();
    let stamps = memo.stamps(games);
    let kept = memo.take::<Kept>();
    // A plain knockout's seeds are the numbers drawn less the players withdrawn before the
    // first game: the kept bracket's seeds hold while the numbers and the players are the
    // ones it was seeded from (no player changed since: the same persistent map).
    let plain = match section_plan(sec, state) {
        SectionPlan::TwoStage {
            swiss_rounds: 0, k, ..
        } => Some(k),
        _ => None,
    };
    let (seeds, seeded) = match &kept {
        Some(kept)
            if plain.is_some()
                && kept.plain == plain
                && kept.players.ptr_eq(&state.players)
                && kept.from.order == rec.order =>
        {
            (kept.from.seeds.clone(), None)
        }
        // A Swiss stage's seeds: the standings after stage 1 are computed again only when
        // what they are read from changed.
        _ => seeding_kept(
            reg,
            state,
            section,
            kept.as_ref()
                .and_then(|k| Some((k.seeded.as_ref()?, k.from.seeds.as_slice()))),
        )?,
    };
    let seed = state.header.as_ref().map_or(0, |h| h.seed);
    let key = Built {
        kind: bracket_kind(sec),
        seeds,
        format: match_format(sec),
        settings: match_settings(sec, seed),
        order: rec.order.clone(),
    };
    let kept = kept.filter(|k| k.from == key && k.leads(rec, stamps));
    let mut kept = match kept {
        Some(k) => k,
        None => {
            count(|w| w.built += 1);
            let b = Bracket::new(
                key.kind,
                key.seeds.clone(),
                key.format.clone(),
                key.settings,
            )
            .map_err(|e| ko_err(&sec.name, KnockoutFailure::Bracket(e)))?;
            Kept {
                from: key,
                plain,
                players: state.players.clone(),
                seeded: None,
                replayed: imbl::Vector::new(),
                stamps: None,
                bracket: Arc::new(b),
            }
        }
    };
    if kept.replayed.len() < games {
        if Arc::get_mut(&mut kept.bracket).is_none() {
            count(|w| w.copied += 1);
        }
        let b = Arc::make_mut(&mut kept.bracket);
        for g in rec.knockout.skip(kept.replayed.len()).iter() {
            count(|w| w.games += 1);
            replay(b, sec, rec, section, g)?;
        }
    }
    let out = kept.bracket.clone();
    kept.replayed = rec.knockout.clone();
    kept.stamps = stamps.cloned();
    kept.plain = plain;
    kept.players = state.players.clone();
    kept.seeded = seeded;
    memo.put(kept);
    Ok(out)
}

/// What a kept bracket was built from: the same inputs build the same bracket.
#[derive(Clone, PartialEq)]
struct Built {
    kind: BracketKind,
    seeds: Vec<PlayerNo>,
    format: MatchFormat,
    settings: MatchSettings,
    order: Vec<PlayerId>,
}

/// A bracket in a section's knockout memo: built from `from`, with `replayed` replayed (the
/// games of the state it was last used for, with their stamps, and its players).
struct Kept {
    from: Built,
    /// The knockout's size when it is a plain knockout (no Swiss stage).
    plain: Option<u32>,
    /// The players the seeds were read from.
    players: imbl::OrdMap<PlayerId, arbiter_core::PlayerRecord>,
    /// What a Swiss stage's seeds were read from.
    seeded: Option<SeedsFrom>,
    replayed: imbl::Vector<arbiter_core::KnockoutGame>,
    stamps: Option<imbl::Vector<u64>>,
    bracket: Arc<Bracket>,
}

impl Kept {
    /// The games replayed are the first games of `rec`: those up to the last stamp both
    /// share are the same games; any after it are compared one by one (the games of one
    /// batch, folded once on a scratch state and once by the log).
    fn leads(&self, rec: &arbiter_core::SectionRecord, stamps: Option<&imbl::Vector<u64>>) -> bool {
        let k = self.replayed.len();
        if k > rec.knockout.len() {
            return false;
        }
        let mut same = 0;
        if let (Some(now), Some(then)) = (stamps, &self.stamps) {
            same = k;
            while same > 0 && now.get(same - 1) != then.get(same - 1) {
                same -= 1;
            }
        }
        count(|w| w.compared += (k - same) as u64);
        // `Vector::skip` cuts the persistent vector (O(log n)); an iterator's would walk.
        self.replayed
            .skip(same)
            .iter()
            .zip(rec.knockout.skip(same).iter())
            .all(|(a, b)| a == b)
    }
}

/// The work [`bracket`] did on this thread: brackets built from their seeds, games replayed
/// into a bracket, games compared with a kept bracket's (those folded apart), kept brackets
/// copied because a caller still held the one kept. The cost
/// of a knockout is in these counts; a test reads them to see that entering each game
/// costs the same however long the log ([`replay_work`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayWork {
    pub built: u64,
    pub games: u64,
    pub compared: u64,
    pub copied: u64,
    /// Times the standings' input after a Swiss stage was read to seed the knockout (once
    /// its first game is entered the seeds are read from the log, `knockout_seeded`).
    pub stage_one_read: u64,
}

thread_local! {
    static WORK: std::cell::Cell<ReplayWork> = const {
        std::cell::Cell::new(ReplayWork { built: 0, games: 0, compared: 0, copied: 0, stage_one_read: 0 })
    };
}

fn count(f: impl FnOnce(&mut ReplayWork)) {
    WORK.with(|w| {
        let mut v = w.get();
        f(&mut v);
        w.set(v);
    });
}

/// The work [`bracket`] has done on this thread so far (see [`ReplayWork`]).
pub fn replay_work() -> ReplayWork {
    WORK.with(|w| w.get())
}

/// Replays one recorded game into the bracket: the game must be the one its match plays
/// next, between the players and in the kind the bracket says.
fn replay(
    b: &mut Bracket,
    sec: &Section,
    rec: &arbiter_core::SectionRecord,
    section: &str,
    g: &arbiter_core::KnockoutGame,
) -> Result<(), DirectorError> {
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
        .map_err(|e| ko_err(&sec.name, KnockoutFailure::Bracket(e)))
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

/// `knockout_seeded` for a Swiss stage's knockout whose first game is about to be entered
/// (its seeds as the standings after stage 1 give them now); nothing for a plain knockout
/// (its seeds are the numbers drawn), once a game is recorded, or once the seeds are fixed.
pub fn seeds_to_fix(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    let (sec, rec) = crate::section_parts(reg, state, section)?;
    let staged = matches!(
        section_plan(sec, state),
        SectionPlan::TwoStage { swiss_rounds, .. } if swiss_rounds > 0
    );
    if !staged || !rec.knockout.is_empty() || !rec.knockout_seeds.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![LogEntry::KnockoutSeeded {
        section: section.to_string(),
        seeds: seeding(reg, state, section)?,
    }])
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
