//! An independent checker of a Swiss pairing (rules.md A2–A4): every hard-rule violation,
//! and the objective vector C0, CB, C1–C5. Written apart from the engine (no shared code besides the
//! value types) and kept simple, so that the two can be compared.

use crate::{Availability, Pairing, SectionState};
use arbiter_types::{ByeChoice, Colour, EqualHistoryColour, Outcome, PlayerNo, SameTeam};
use std::collections::BTreeMap;
use std::fmt;

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// The state itself is inconsistent (history lengths, unknown opponents).
    BadState(String),
    UnknownPlayer(PlayerNo),
    PairedTwice(PlayerNo),
    PairedWithSelf(PlayerNo),
    /// An available player is neither paired nor the bye.
    Missing(PlayerNo),
    /// H2: a withdrawn, unpaid or absent player is paired or given the bye.
    Unavailable(PlayerNo),
    /// H1.
    Rematch(PlayerNo, PlayerNo),
    /// H3: a bye with an even number of players, or none with an odd number.
    ByeCount {
        players: usize,
        bye: bool,
    },
    /// H3: the bye player is not eligible (another player has had fewer byes).
    ByeNotEligible(PlayerNo),
    /// H4 (setting `hard`).
    SameTeam(PlayerNo, PlayerNo),
    /// H5: the player's colours after the round break the limits.
    ColourLimit(PlayerNo),
    /// The pair's colours do not follow the A2 colour rule.
    ColourRule {
        board: u32,
        expected_red: PlayerNo,
    },
    /// Boards are not numbered 1, 2, … in score order (A2 / §3.7 step 7).
    BoardOrder {
        board: u32,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::BadState(s) => write!(f, "状态错误: {s} (bad state)"),
            Violation::UnknownPlayer(p) => write!(f, "{p}号 不存在 (unknown player {p})"),
            Violation::PairedTwice(p) => write!(f, "{p}号 被编排两次 (player {p} paired twice)"),
            Violation::PairedWithSelf(p) => write!(f, "{p}号 与自己配对 (player {p} paired with itself)"),
            Violation::Missing(p) => write!(f, "{p}号 未被编排 (player {p} not paired)"),
            Violation::Unavailable(p) => {
                write!(f, "H2: {p}号 本轮不可参赛却被编排 (player {p} is not available)")
            }
            Violation::Rematch(a, b) => write!(f, "H1: {a}号 与 {b}号 已相遇 (rematch {a}–{b})"),
            Violation::ByeCount { players, bye } => write!(
                f,
                "H3: {players} 名棋手, 轮空{} (bye {} with {players} players)",
                if *bye { "多余" } else { "缺失" },
                if *bye { "given" } else { "missing" }
            ),
            Violation::ByeNotEligible(p) => {
                write!(f, "H3: {p}号 不应轮空 (player {p} may not get the bye)")
            }
            Violation::SameTeam(a, b) => write!(f, "H4: {a}号 与 {b}号 同队 (team-mates {a}–{b})"),
            Violation::ColourLimit(p) => {
                write!(f, "H5: {p}号 颜色超限 (player {p} breaks the colour limits)")
            }
            Violation::ColourRule { board, expected_red } => write!(
                f,
                "第{board}台 应由 {expected_red}号 执红 (board {board}: {expected_red} should be red)"
            ),
            Violation::BoardOrder { board } => {
                write!(f, "第{board}台 台次顺序错误 (board {board} out of order)")
            }
        }
    }
}

/// The objective vector of A2 (with CB of A4), compared lexicographically field by field (smaller is better).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Objective {
    /// C0: players breaking H5 (only in a relaxed last round; 0 otherwise).
    pub c0: u32,
    /// CB: the bye recipient's score in half-points (0 without a bye), lower is better.
    /// Compared after C0 and before C1 because A4 gives the bye to the lowest-ranked
    /// eligible player (§3.8: lowest-scored without a bye): the bye stays in the lowest
    /// score group where a valid pairing allows it, and moves up only when none does. C1
    /// alone would count the bye as a float of the recipient's group and push it to the
    /// top group when that group is odd.
    pub bye_score: i64,
    /// C1: per score group, top down: players floating (or getting the bye).
    pub floaters: Vec<u32>,
    /// C2: per score group, top down: sum of score gaps (half-points) of pairs whose higher
    /// player is in the group.
    pub gaps: Vec<i64>,
    /// C3: pairs in which a player does not get the due colour.
    pub colour_misses: u32,
    /// C4: same-team pairs (setting `soft` only).
    pub same_team: u32,
    /// C5: players floating now who also floated in the previous round.
    pub repeated_floats: u32,
}

/// What the checker derives for one player (by position in `state.players`).
#[derive(Debug, Clone)]
pub(crate) struct Ctx {
    pub no: PlayerNo,
    pub team: Option<u32>,
    pub available: bool,
    pub score: i64,
    /// Counted colour per past round.
    pub col: Vec<Option<Colour>>,
    pub byes: u32,
    pub opponents: Vec<PlayerNo>,
    pub floated_prev: bool,
}

fn counted(state: &SectionState, o: &Outcome) -> Option<Colour> {
    match o {
        Outcome::Game { colour, .. } => Some(*colour),
        Outcome::ForfeitWin { colour, .. }
        | Outcome::ForfeitLoss { colour, .. }
        | Outcome::DoubleForfeit { colour, .. } => {
            if state.settings.forfeit_counts_for_colour {
                Some(*colour)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Position of each pairing number in `state.players`.
fn index(state: &SectionState) -> BTreeMap<PlayerNo, usize> {
    state
        .players
        .iter()
        .enumerate()
        .map(|(i, e)| (e.no, i))
        .collect()
}

pub(crate) fn contexts(state: &SectionState, round: u32) -> Result<Vec<Ctx>, String> {
    let played = round.saturating_sub(1) as usize;
    let idx = index(state);
    let pos = |_: &SectionState, no: PlayerNo| idx.get(&no).copied();
    let mut out = Vec::new();
    for e in &state.players {
        if e.history.len() != played {
            return Err(format!(
                "{}号 历史长度 {} ≠ {}",
                e.no,
                e.history.len(),
                played
            ));
        }
        let mut score = 0;
        let mut col = Vec::new();
        let mut byes = 0;
        let mut opponents = Vec::new();
        for o in &e.history {
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
            if meets {
                if let Some(op) = o.opponent() {
                    if pos(state, op).is_none() {
                        return Err(format!("{}号 的对手 {op}号 不存在", e.no));
                    }
                    opponents.push(op);
                }
            }
        }
        let mut floated_prev = false;
        if played >= 1 {
            if let Some(op) = e.history[played - 1].opponent() {
                if let Some(j) = pos(state, op) {
                    let before = |h: &[Outcome]| -> i64 {
                        h[..played - 1]
                            .iter()
                            .map(|o| o.points(&state.scoring).halves())
                            .sum()
                    };
                    floated_prev = before(&e.history) != before(&state.players[j].history);
                }
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
            floated_prev,
        });
    }
    Ok(out)
}

fn balance(c: &Ctx) -> (i64, i64) {
    let reds = c.col.iter().filter(|x| **x == Some(Colour::Red)).count() as i64;
    let blacks = c.col.iter().filter(|x| **x == Some(Colour::Black)).count() as i64;
    (reds, blacks)
}

fn last_colours(c: &Ctx) -> Vec<Colour> {
    c.col.iter().flatten().copied().collect()
}

fn due(c: &Ctx) -> Option<Colour> {
    let (r, b) = balance(c);
    let seq = last_colours(c);
    let last = *seq.last()?;
    Some(if r < b {
        Colour::Red
    } else if r > b {
        Colour::Black
    } else {
        last.opposite()
    })
}

/// Who must play red when `a` meets `b` (A2).
pub(crate) fn expected_red(state: &SectionState, round: u32, a: &Ctx, b: &Ctx) -> PlayerNo {
    let (ra, ba) = balance(a);
    let (rb, bb) = balance(b);
    if ra - ba < rb - bb {
        return a.no;
    }
    if rb - bb < ra - ba {
        return b.no;
    }
    let mut r = a.col.len();
    while r > 0 {
        r -= 1;
        match (a.col[r], b.col[r]) {
            (Some(Colour::Black), Some(Colour::Red)) => return a.no,
            (Some(Colour::Red), Some(Colour::Black)) => return b.no,
            _ => {}
        }
    }
    let small = if a.no < b.no { a.no } else { b.no };
    let large = if a.no < b.no { b.no } else { a.no };
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

/// Does `c` break H5 if it plays `colour` now?
fn breaks_h5(state: &SectionState, c: &Ctx, colour: Colour) -> bool {
    let (r, b) = balance(c);
    let (r, b) = if colour == Colour::Red {
        (r + 1, b)
    } else {
        (r, b + 1)
    };
    if (r - b).abs() > i64::from(state.settings.max_colour_diff) {
        return true;
    }
    let mut seq = last_colours(c);
    seq.push(colour);
    state.settings.no_three_in_a_row
        && seq.len() >= 3
        && seq[seq.len() - 3..].iter().all(|&x| x == colour)
}

pub(crate) fn relaxed(state: &SectionState, round: u32) -> bool {
    state.settings.relax_colours_in_last_round
        && state.total_rounds > 0
        && round >= state.total_rounds
}

fn same_team(a: &Ctx, b: &Ctx) -> bool {
    a.team.is_some() && a.team == b.team
}

/// Whether a pair is legal under H1, H4 and (outside a relaxed last round) H5, with colours
/// by the A2 rule. Returns the H5 breakers' count when legal.
pub(crate) fn pair_legal(state: &SectionState, round: u32, a: &Ctx, b: &Ctx) -> Option<u32> {
    if a.opponents.contains(&b.no) || b.opponents.contains(&a.no) {
        return None;
    }
    if state.settings.same_team == SameTeam::Hard && same_team(a, b) {
        return None;
    }
    let red = expected_red(state, round, a, b);
    let ca = if red == a.no {
        Colour::Red
    } else {
        Colour::Black
    };
    let breakers =
        u32::from(breaks_h5(state, a, ca)) + u32::from(breaks_h5(state, b, ca.opposite()));
    if breakers > 0 && !relaxed(state, round) {
        return None;
    }
    Some(breakers)
}

/// Bye eligibility (H3 and the `bye` setting) among the available players.
pub(crate) fn bye_eligible(state: &SectionState, ctx: &[Ctx], c: &Ctx) -> bool {
    let avail = ctx.iter().filter(|x| x.available);
    match state.settings.bye {
        ByeChoice::LowestWithoutBye => c.byes == 0 || avail.clone().all(|x| x.byes > 0),
        ByeChoice::LowestFewestByes => avail.map(|x| x.byes).min().is_none_or(|m| c.byes == m),
    }
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

/// Add the terms of one pair to an objective.
pub(crate) fn add_pair(
    state: &SectionState,
    round: u32,
    g: &[i64],
    a: &Ctx,
    b: &Ctx,
    obj: &mut Objective,
) {
    let red = expected_red(state, round, a, b);
    let ca = if red == a.no {
        Colour::Red
    } else {
        Colour::Black
    };
    if relaxed(state, round) {
        obj.c0 +=
            u32::from(breaks_h5(state, a, ca)) + u32::from(breaks_h5(state, b, ca.opposite()));
    }
    let gi = |s: i64| g.iter().position(|&x| x == s).unwrap_or(0);
    if a.score != b.score {
        obj.floaters[gi(a.score)] += 1;
        obj.floaters[gi(b.score)] += 1;
        let (hi, lo) = if a.score > b.score { (a, b) } else { (b, a) };
        obj.gaps[gi(hi.score)] += hi.score - lo.score;
        obj.repeated_floats += u32::from(a.floated_prev) + u32::from(b.floated_prev);
    }
    if due(a).is_some_and(|d| d != ca) || due(b).is_some_and(|d| d != ca.opposite()) {
        obj.colour_misses += 1;
    }
    if state.settings.same_team == SameTeam::Soft && same_team(a, b) {
        obj.same_team += 1;
    }
}

pub(crate) fn add_bye(g: &[i64], c: &Ctx, obj: &mut Objective) {
    obj.bye_score += c.score;
    if let Some(k) = g.iter().position(|&x| x == c.score) {
        obj.floaters[k] += 1;
    }
}

pub(crate) fn empty_objective(g: &[i64]) -> Objective {
    Objective {
        floaters: vec![0; g.len()],
        gaps: vec![0; g.len()],
        ..Objective::default()
    }
}

/// Every hard-rule violation of `pairing` for round `round` of `state`.
pub fn check(state: &SectionState, round: u32, pairing: &Pairing) -> Vec<Violation> {
    let ctx = match contexts(state, round) {
        Ok(c) => c,
        Err(e) => return vec![Violation::BadState(e)],
    };
    let idx = index(state);
    let pos = |_: &SectionState, no: PlayerNo| idx.get(&no).copied();
    let mut v = Vec::new();
    let mut count = vec![0u32; ctx.len()];
    let mut seen = |no: PlayerNo, v: &mut Vec<Violation>| -> Option<usize> {
        match pos(state, no) {
            None => {
                v.push(Violation::UnknownPlayer(no));
                None
            }
            Some(i) => {
                count[i] += 1;
                if count[i] == 2 {
                    v.push(Violation::PairedTwice(no));
                }
                if !ctx[i].available && count[i] == 1 {
                    v.push(Violation::Unavailable(no));
                }
                Some(i)
            }
        }
    };
    let mut keys = Vec::new();
    for b in &pairing.boards {
        if b.red == b.black {
            v.push(Violation::PairedWithSelf(b.red));
            continue;
        }
        let (Some(i), Some(j)) = (seen(b.red, &mut v), seen(b.black, &mut v)) else {
            continue;
        };
        let (a, c) = (&ctx[i], &ctx[j]);
        if a.opponents.contains(&c.no) || c.opponents.contains(&a.no) {
            v.push(Violation::Rematch(a.no, c.no));
        }
        if state.settings.same_team == SameTeam::Hard && same_team(a, c) {
            v.push(Violation::SameTeam(a.no, c.no));
        }
        let red = expected_red(state, round, a, c);
        if red != b.red {
            v.push(Violation::ColourRule {
                board: b.board,
                expected_red: red,
            });
        }
        if !relaxed(state, round) {
            if breaks_h5(state, a, Colour::Red) {
                v.push(Violation::ColourLimit(a.no));
            }
            if breaks_h5(state, c, Colour::Black) {
                v.push(Violation::ColourLimit(c.no));
            }
        }
        keys.push((b.board, a.score.max(c.score), a.score.min(c.score)));
    }
    for (k, w) in keys.iter().enumerate() {
        let out_of_order = k > 0 && (keys[k - 1].1, keys[k - 1].2) < (w.1, w.2);
        if w.0 != k as u32 + 1 || out_of_order {
            v.push(Violation::BoardOrder { board: w.0 });
        }
    }
    let navail = ctx.iter().filter(|c| c.available).count();
    if let Some(no) = pairing.bye {
        if let Some(i) = seen(no, &mut v) {
            if !bye_eligible(state, &ctx, &ctx[i]) {
                v.push(Violation::ByeNotEligible(no));
            }
        }
    }
    if (navail % 2 == 1) != pairing.bye.is_some() {
        v.push(Violation::ByeCount {
            players: navail,
            bye: pairing.bye.is_some(),
        });
    }
    for (i, c) in ctx.iter().enumerate() {
        if c.available && count[i] == 0 {
            v.push(Violation::Missing(c.no));
        }
    }
    v
}

/// The C0, CB, C1–C5 objective of `pairing` (players unknown to the state are ignored).
pub fn objective(state: &SectionState, round: u32, pairing: &Pairing) -> Objective {
    let ctx = contexts(state, round).unwrap_or_default();
    let g = groups(&ctx);
    let idx = index(state);
    let pos = |_: &SectionState, no: PlayerNo| idx.get(&no).copied();
    let mut obj = empty_objective(&g);
    for b in &pairing.boards {
        if let (Some(i), Some(j)) = (pos(state, b.red), pos(state, b.black)) {
            add_pair(state, round, &g, &ctx[i], &ctx[j], &mut obj);
        }
    }
    if let Some(i) = pairing.bye.and_then(|no| pos(state, no)) {
        add_bye(&g, &ctx[i], &mut obj);
    }
    obj
}
