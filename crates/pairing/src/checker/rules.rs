//! The rules of A2 as the checker reads them, written apart from the engine: each player's
//! record before the round, H5 and the colour of a pair, and one pair's terms of the
//! objective C0, C1–C5 (CB and the bye's terms in [`bye_terms`]).

use super::Objective;
use crate::{Availability, SectionState};
use arbiter_types::{ByeChoice, Colour, EqualHistoryColour, Outcome, PlayerNo, SameTeam};
use std::collections::BTreeMap;

/// What the checker derives for one player (by position in `state.players`).
#[derive(Debug, Clone)]
pub(crate) struct Ctx {
    pub no: PlayerNo,
    pub team: Option<u32>,
    pub available: bool,
    pub score: i64,
    /// Counted colour per past round (`None`: no game, or a forfeit not counted).
    pub col: Vec<Option<Colour>>,
    pub byes: u32,
    pub opponents: Vec<PlayerNo>,
    /// The round (1-based) of each meeting in `opponents`.
    pub met_in: Vec<u32>,
    /// Played against a different score in the previous round (C5).
    pub floated_prev: bool,
}

fn counted(state: &SectionState, o: &Outcome) -> Option<Colour> {
    match o {
        Outcome::Game { colour, .. } => Some(*colour),
        Outcome::ForfeitWin { colour, .. }
        | Outcome::ForfeitLoss { colour, .. }
        | Outcome::DoubleForfeit { colour, .. } => {
            state.settings.forfeit_counts_for_colour.then_some(*colour)
        }
        _ => None,
    }
}

/// Position of each pairing number in `state.players`.
pub(crate) fn index(state: &SectionState) -> BTreeMap<PlayerNo, usize> {
    state
        .players
        .iter()
        .enumerate()
        .map(|(i, e)| (e.no, i))
        .collect()
}

/// Every player's record before round `round`; an error (Chinese) for an inconsistent state.
pub(crate) fn contexts(state: &SectionState, round: u32) -> Result<Vec<Ctx>, String> {
    let played = round.saturating_sub(1) as usize;
    let idx = index(state);
    if idx.len() != state.players.len() {
        return Err("棋手编号重复 (duplicate pairing numbers)".into());
    }
    let mut out = Vec::with_capacity(state.players.len());
    for e in &state.players {
        if e.history.len() != played {
            return Err(format!(
                "{}号 历史长度 {} ≠ {} ({} has {} rounds of history, expected {})",
                e.no,
                e.history.len(),
                played,
                e.no,
                e.history.len(),
                played
            ));
        }
        let mut score = 0;
        let mut col = Vec::with_capacity(played);
        let mut byes = 0;
        let mut opponents = Vec::new();
        let mut met_in = Vec::new();
        for (r, o) in e.history.iter().enumerate() {
            score += o.points(&state.scoring).halves();
            col.push(counted(state, o));
            if *o == Outcome::Bye {
                byes += 1;
            }
            let meets = match o {
                Outcome::Game { .. } => true,
                Outcome::ForfeitWin { .. }
                | Outcome::ForfeitLoss { .. }
                | Outcome::DoubleForfeit { .. } => state.settings.forfeit_is_meeting,
                _ => false,
            };
            if let (true, Some(op)) = (meets, o.opponent()) {
                if !idx.contains_key(&op) {
                    return Err(format!(
                        "{}号 的对手 {op}号 不存在 (opponent {op} of {} unknown)",
                        e.no, e.no
                    ));
                }
                opponents.push(op);
                met_in.push(r as u32 + 1);
            }
        }
        let mut floated_prev = false;
        if played >= 1 {
            if let Some(j) = e.history[played - 1]
                .opponent()
                .and_then(|op| idx.get(&op).copied())
            {
                let before = |h: &[Outcome]| -> i64 {
                    h.iter()
                        .take(played - 1)
                        .map(|o| o.points(&state.scoring).halves())
                        .sum()
                };
                floated_prev = before(&e.history) != before(&state.players[j].history);
            }
        }
        out.push(Ctx {
            no: e.no,
            team: e.team,
            available: e.availability == Availability::Active,
            score,
            col,
            byes,
            opponents,
            met_in,
            floated_prev,
        });
    }
    Ok(out)
}

fn balance(c: &Ctx) -> i64 {
    c.col
        .iter()
        .map(|x| match x {
            Some(Colour::Red) => 1,
            Some(Colour::Black) => -1,
            None => 0,
        })
        .sum()
}

fn played_colours(c: &Ctx) -> impl DoubleEndedIterator<Item = Colour> + '_ {
    c.col.iter().flatten().copied()
}

/// Due colour (C3): red if reds < blacks, black if reds > blacks, else opposite to the last
/// colour played; none without games.
pub(crate) fn due(c: &Ctx) -> Option<Colour> {
    let last = played_colours(c).next_back()?;
    let d = balance(c);
    Some(match d.cmp(&0) {
        std::cmp::Ordering::Less => Colour::Red,
        std::cmp::Ordering::Greater => Colour::Black,
        std::cmp::Ordering::Equal => last.opposite(),
    })
}

/// Which part of H5 a colour breaks for a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum H5Break {
    /// The same colour three times in a row.
    ThreeInARow,
    /// |reds − blacks| above the limit.
    Balance,
}

/// Does `c` break H5 if it plays `colour` in this round?
pub(crate) fn h5_break(state: &SectionState, c: &Ctx, colour: Colour) -> Option<H5Break> {
    let d = balance(c)
        + match colour {
            Colour::Red => 1,
            Colour::Black => -1,
        };
    if state.settings.no_three_in_a_row {
        let mut last = played_colours(c).rev();
        if last.next() == Some(colour) && last.next() == Some(colour) {
            return Some(H5Break::ThreeInARow);
        }
    }
    (d.abs() > i64::from(state.settings.max_colour_diff)).then_some(H5Break::Balance)
}

fn breakers(state: &SectionState, red: &Ctx, black: &Ctx) -> u32 {
    u32::from(h5_break(state, red, Colour::Red).is_some())
        + u32::from(h5_break(state, black, Colour::Black).is_some())
}

/// The colour rule of A2 without H5: fewer (reds − blacks) red; equal → at the most recent
/// round both played where their colours differed, the one who had black; none → setting.
pub(crate) fn rule_red(state: &SectionState, round: u32, a: &Ctx, b: &Ctx) -> PlayerNo {
    let (da, db) = (balance(a), balance(b));
    if da != db {
        return if da < db { a.no } else { b.no };
    }
    for (x, y) in a.col.iter().zip(&b.col).rev() {
        match (x, y) {
            (Some(Colour::Black), Some(Colour::Red)) => return a.no,
            (Some(Colour::Red), Some(Colour::Black)) => return b.no,
            _ => {}
        }
    }
    let (small, large) = if a.no < b.no {
        (a.no, b.no)
    } else {
        (b.no, a.no)
    };
    let small_red = match state.settings.equal_history {
        EqualHistoryColour::OddRoundSmallRed => round % 2 == 1,
        EqualHistoryColour::NumberSumOddSmallRed => (a.no.get() + b.no.get()) % 2 == 1,
    };
    if small_red {
        small
    } else {
        large
    }
}

/// The last round relaxes H5 into C0 (setting).
pub(crate) fn relaxed(state: &SectionState, round: u32) -> bool {
    state.settings.relax_colours_in_last_round
        && state.total_rounds > 0
        && round >= state.total_rounds
}

/// Which hard rules a round relaxes into criteria (A2 as amended 2026-12-02): H5 when no
/// pairing keeps it with H1–H4 and H6 (C0); H1 when no pairing keeps it with H3, H4 and H6
/// (the first criterion, above C0); H4 `hard` only in a round the arbiter pairs by hand
/// (A3b), when nothing else can be paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Strict,
    Colours,
    Rematches,
    Teams,
}

/// The first answer over the levels a round relaxes to in turn (strict, H5, H1; H4 only
/// around an arbiter's fixed pairs, so not here): the optimum of the least relaxation that
/// has a pairing.
pub(crate) fn first_level<T>(
    mut at: impl FnMut(Level) -> Result<Option<T>, String>,
) -> Result<Option<T>, String> {
    for level in [Level::Strict, Level::Colours, Level::Rematches] {
        if let Some(o) = at(level)? {
            return Ok(Some(o));
        }
    }
    Ok(None)
}

/// How often `a` met `b` before the round, and the last round they met (0 if never).
pub(crate) fn meetings(a: &Ctx, b: &Ctx) -> (u32, u32) {
    let mut times = 0;
    let mut last = 0;
    for (op, &r) in a.opponents.iter().zip(&a.met_in) {
        if *op == b.no {
            times += 1;
            last = last.max(r);
        }
    }
    (times, last)
}

pub(crate) fn same_team(a: &Ctx, b: &Ctx) -> bool {
    a.team.is_some() && a.team == b.team
}

/// Why a pair gets its colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColourWhy {
    /// Both orders are equal under H5: the colour rule decides.
    Rule,
    /// Only this order keeps H5 (or, relaxed, breaks it for fewer players); the rule's
    /// order would make `player` break H5 that way.
    H5 { player: PlayerNo, how: H5Break },
}

/// The colours of a pair by A2's "Colour of a pair".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PairColour {
    pub red: PlayerNo,
    /// H5 breakers in that order.
    pub breakers: u32,
    pub why: ColourWhy,
}

pub(crate) fn pair_colour(state: &SectionState, round: u32, a: &Ctx, b: &Ctx) -> PairColour {
    let a_red = breakers(state, a, b);
    let b_red = breakers(state, b, a);
    let rule = rule_red(state, round, a, b);
    if a_red == b_red {
        return PairColour {
            red: rule,
            breakers: a_red,
            why: ColourWhy::Rule,
        };
    }
    let red = if a_red < b_red { a.no } else { b.no };
    // The rule's order is the worse one: name who would break H5 in it.
    let (r, k) = if rule == a.no { (a, b) } else { (b, a) };
    let why = match (
        h5_break(state, r, Colour::Red),
        h5_break(state, k, Colour::Black),
    ) {
        (Some(how), _) => ColourWhy::H5 { player: r.no, how },
        (None, Some(how)) => ColourWhy::H5 { player: k.no, how },
        (None, None) => ColourWhy::Rule,
    };
    PairColour {
        red,
        breakers: a_red.min(b_red),
        why,
    }
}

/// Players of the pair who miss their due colour with `red` playing red.
fn misses(red: &Ctx, black: &Ctx) -> u32 {
    u32::from(due(red).is_some_and(|d| d != Colour::Red))
        + u32::from(due(black).is_some_and(|d| d != Colour::Black))
}

/// One legal pair's colours and its terms of the objective.
#[derive(Debug, Clone)]
pub(crate) struct PairTerms {
    pub obj: Objective,
}

/// Score groups (distinct scores of available players), highest first.
pub(crate) fn groups(ctx: &[Ctx]) -> Vec<i64> {
    let mut g: Vec<i64> = ctx
        .iter()
        .filter(|c| c.available)
        .map(|c| c.score)
        .collect();
    g.sort_unstable_by(|a, b| b.cmp(a));
    g.dedup();
    g
}

/// Index of score `s` in the groups (top = 0).
pub(crate) fn group_of(g: &[i64], s: i64) -> usize {
    g.iter()
        .position(|&x| x == s)
        .unwrap_or(g.len().saturating_sub(1))
}

pub(crate) fn empty_objective(g: &[i64]) -> Objective {
    Objective {
        floaters: vec![0; g.len().saturating_sub(1)],
        gaps: vec![0; g.len()],
        ..Objective::default()
    }
}

/// Whether `a`–`b` may meet at all this round: H1, H4 (`hard`), and H5 (outside a relaxed
/// last round) as a constraint on colours — legal when one of the two orders keeps both
/// within H5.
pub(crate) fn pair_legal(state: &SectionState, round: u32, level: Level, a: &Ctx, b: &Ctx) -> bool {
    let met = a.opponents.contains(&b.no) || b.opponents.contains(&a.no);
    if met && level < Level::Rematches {
        return false;
    }
    if state.settings.same_team == SameTeam::Hard && same_team(a, b) && level < Level::Teams {
        return false;
    }
    level >= Level::Colours || rules_h5_ok(state, round, a, b)
}

fn rules_h5_ok(state: &SectionState, round: u32, a: &Ctx, b: &Ctx) -> bool {
    relaxed(state, round) || breakers(state, a, b) == 0 || breakers(state, b, a) == 0
}

/// A legal pair's colours and terms ([`pair_legal`] and [`terms`]).
pub(crate) fn pair_terms(
    state: &SectionState,
    round: u32,
    level: Level,
    g: &[i64],
    a: &Ctx,
    b: &Ctx,
) -> Option<PairTerms> {
    pair_legal(state, round, level, a, b).then(|| terms(state, round, g, a, b))
}

/// A pair's colours and its terms of C0, C1–C5, legal or not (C0 counts the H5 breakers
/// of its colour order; that is 0 for a legal pair outside a relaxed last round).
pub(crate) fn terms(state: &SectionState, round: u32, g: &[i64], a: &Ctx, b: &Ctx) -> PairTerms {
    let colour = pair_colour(state, round, a, b);
    let mut obj = empty_objective(g);
    let (times, last) = meetings(a, b);
    obj.rematches = times;
    obj.rematch_rounds = if times > 0 { last } else { 0 };
    obj.c0 = colour.breakers;
    let (hi, lo) = if a.score >= b.score { (a, b) } else { (b, a) };
    let (gh, gl) = (group_of(g, hi.score), group_of(g, lo.score));
    // C1: the pair crosses every boundary between its two groups.
    for x in obj.floaters.iter_mut().take(gl).skip(gh) {
        *x += 1;
    }
    if let Some(d) = obj.gaps.get_mut(gh) {
        *d += hi.score - lo.score;
    }
    // C3: the pair in its better order among those with the fewest H5 breakers.
    let mut best = u32::MAX;
    if breakers(state, a, b) == colour.breakers {
        best = best.min(misses(a, b));
    }
    if breakers(state, b, a) == colour.breakers {
        best = best.min(misses(b, a));
    }
    obj.colour_misses = u32::from(best > 0);
    // C4: `soft` team-mates, and `hard` ones where H4 is relaxed (a pair breaking H4
    // is illegal anywhere else, so counting it changes no legal pairing's objective).
    let counted = matches!(state.settings.same_team, SameTeam::Soft | SameTeam::Hard);
    if counted && same_team(a, b) {
        obj.same_team = 1;
    }
    if a.score != b.score {
        obj.repeated_floats = u32::from(a.floated_prev) + u32::from(b.floated_prev);
    }
    PairTerms { obj }
}

/// Bye eligibility (H3 and the `bye` setting) among the available players.
pub(crate) fn bye_eligible(state: &SectionState, ctx: &[Ctx], c: &Ctx) -> bool {
    let mut avail = ctx.iter().filter(|x| x.available);
    match state.settings.bye {
        ByeChoice::LowestWithoutBye => c.byes == 0 || avail.all(|x| x.byes > 0),
        ByeChoice::LowestFewestByes => avail.map(|x| x.byes).min().is_none_or(|m| c.byes == m),
    }
}

/// The bye's terms: CB only (the bye crosses no boundary).
pub(crate) fn bye_terms(g: &[i64], c: &Ctx) -> Objective {
    let mut o = empty_objective(g);
    o.bye_score = c.score;
    o
}

/// `a += b`, field by field.
pub(crate) fn add(a: &mut Objective, b: &Objective) {
    a.rematches += b.rematches;
    a.rematch_rounds += b.rematch_rounds;
    a.c0 += b.c0;
    a.bye_score += b.bye_score;
    for (x, y) in a.floaters.iter_mut().zip(&b.floaters) {
        *x += *y;
    }
    for (x, y) in a.gaps.iter_mut().zip(&b.gaps) {
        *x += *y;
    }
    a.colour_misses += b.colour_misses;
    a.same_team += b.same_team;
    a.repeated_floats += b.repeated_floats;
}

/// `a -= b`, field by field (`b` was added before).
pub(crate) fn sub(a: &mut Objective, b: &Objective) {
    a.rematches -= b.rematches;
    a.rematch_rounds -= b.rematch_rounds;
    a.c0 -= b.c0;
    a.bye_score -= b.bye_score;
    for (x, y) in a.floaters.iter_mut().zip(&b.floaters) {
        *x -= *y;
    }
    for (x, y) in a.gaps.iter_mut().zip(&b.gaps) {
        *x -= *y;
    }
    a.colour_misses -= b.colour_misses;
    a.same_team -= b.same_team;
    a.repeated_floats -= b.repeated_floats;
}
