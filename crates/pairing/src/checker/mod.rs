//! An independent checker of a Swiss pairing (rules.md A2–A4): every hard-rule violation
//! (H1–H6, the colour of each pair), and the objective vector C0, CB, C1–C5. Written apart
//! from the engine (no shared code besides the value types) and kept simple, so that the two
//! can be compared. [`brute`](crate::brute) (≤ 12 players) and [`optimum`] (its own
//! weighted matching, up to a few hundred players) compute the best objective from the same
//! rules.
//!
//! How the checker reads A2:
//! - H5 constrains colours, not pairs: a pair is legal when one of its two orders keeps both
//!   players within H5; its colours are that order when only one does (in a relaxed last
//!   round: the order with fewer H5 breakers), otherwise the colour rule's.
//! - C1 is the vector, top down, of the number of pairs crossing each boundary between two
//!   neighbouring score groups (a pair from g1 to g3 crosses two); the bye crosses none.
//! - C2 is the vector, per group of the higher player, of score gaps; C3 counts a pair once
//!   when even its better order (among those with the fewest H5 breakers) leaves a player
//!   without the due colour.
//! - H6: when the rest of the stage could be paired under H1, H3, H4 before this round, it
//!   must still be possible after it (searched for small fields, [`completion`]).

mod blossom;
pub mod completion;
mod optimum;
pub(crate) mod rules;

pub use optimum::{optimum, optimum_at, MAX_PLAYERS as OPTIMUM_MAX_PLAYERS};
pub use rules::Level;

use crate::{Pairing, SectionState};
use arbiter_types::{Colour, PlayerNo, SameTeam};
use rules::{ColourWhy, Ctx, H5Break};
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
    /// H5: with the colours given, `player` plays `colour` a third time in a row
    /// (`three_in_a_row`) or goes beyond the colour balance limit.
    ColourLimit {
        player: PlayerNo,
        colour: Colour,
        three_in_a_row: bool,
    },
    /// The pair's colours are not the order A2's "Colour of a pair" gives.
    ColourRule {
        board: u32,
        expected_red: PlayerNo,
        /// Why `expected_red` is red, in the arbiter's terms (Chinese first).
        reason: String,
    },
    /// H6: the rest of the stage (`rounds_left` rounds) could be paired under H1, H3, H4
    /// before this round, but not after this pairing.
    Completion {
        rounds_left: u32,
    },
    /// Boards are not numbered 1, 2, … in score order (A2 / §3.7 step 7).
    BoardOrder {
        board: u32,
    },
}

impl Violation {
    /// Whether this is a rule of A2 a pairing may break by the arbiter's decision (H1, H3's
    /// choice of player, H4, H5, H6, the colour of a pair), as opposed to a malformed
    /// pairing (a player missing, paired twice or unavailable, a bye too many, board order).
    pub fn is_rule(&self) -> bool {
        matches!(
            self,
            Violation::Rematch(..)
                | Violation::ByeNotEligible(_)
                | Violation::SameTeam(..)
                | Violation::ColourLimit { .. }
                | Violation::ColourRule { .. }
                | Violation::Completion { .. }
        )
    }
}

fn colour_zh(c: Colour) -> &'static str {
    match c {
        Colour::Red => "红",
        Colour::Black => "黑",
    }
}

fn colour_en(c: Colour) -> &'static str {
    match c {
        Colour::Red => "red",
        Colour::Black => "black",
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::BadState(s) => write!(f, "状态错误: {s} (bad state)"),
            Violation::UnknownPlayer(p) => write!(f, "{p}号 不存在 (unknown player {p})"),
            Violation::PairedTwice(p) => write!(f, "{p}号 被编排两次 (player {p} paired twice)"),
            Violation::PairedWithSelf(p) => {
                write!(f, "{p}号 与自己配对 (player {p} paired with itself)")
            }
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
            Violation::ColourLimit {
                player,
                colour,
                three_in_a_row,
            } => {
                if *three_in_a_row {
                    write!(
                        f,
                        "H5: {player}号 将连续三次走{} (player {player} would play {} three times in a row)",
                        colour_zh(*colour),
                        colour_en(*colour)
                    )
                } else {
                    write!(
                        f,
                        "H5: {player}号 走{}后红黑局数差超限 (player {player} playing {} exceeds the colour balance limit)",
                        colour_zh(*colour),
                        colour_en(*colour)
                    )
                }
            }
            Violation::ColourRule {
                board,
                expected_red,
                reason,
            } => write!(
                f,
                "第{board}台 应由 {expected_red}号 执红: {reason} (board {board}: {expected_red} should be red)"
            ),
            Violation::Completion { rounds_left } => write!(
                f,
                "H6: 本轮编排后, 余下 {rounds_left} 轮已无法在不重复相遇的前提下编完, 而另有编排可以 \
                 (after this pairing the remaining {rounds_left} rounds can no longer be paired \
                 under H1, H3, H4, although another pairing would allow it)"
            ),
            Violation::BoardOrder { board } => {
                write!(f, "第{board}台 台次顺序错误 (board {board} out of order)")
            }
        }
    }
}

/// The objective of A2 (with CB of A4), compared lexicographically field by field, each
/// vector from its first element (smaller is better).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Objective {
    /// H1 as a criterion (only in a round where no pairing keeps H1; 0 otherwise):
    /// repeated meetings (a pair meeting for the third time counts two).
    pub rematches: u32,
    /// Then the sum of the rounds in which the repeated pairs last met (smaller: older
    /// meetings are repeated).
    pub rematch_rounds: u32,
    /// C0: players breaking H5 (only in a round where no pairing keeps H5; 0 otherwise).
    pub c0: u32,
    /// CB: the bye recipient's score in half-points (0 without a bye), lower is better — the
    /// same order as the recipient's score group counted from the bottom.
    pub bye_score: i64,
    /// C1 (floats): per boundary between neighbouring score groups, top down (G − 1
    /// entries), the number of pairs crossing it. The bye crosses none.
    pub floaters: Vec<u32>,
    /// C2: per score group, top down: sum of score gaps (half-points) of pairs whose higher
    /// player is in the group.
    pub gaps: Vec<i64>,
    /// C3: pairs in which a player does not get the due colour (each pair in its better
    /// order).
    pub colour_misses: u32,
    /// C4: same-team pairs (setting `soft` only).
    pub same_team: u32,
    /// C5: players floating now who also floated in the previous round.
    pub repeated_floats: u32,
}

fn colour_reason(state: &SectionState, round: u32, a: &Ctx, b: &Ctx) -> (PlayerNo, String) {
    let pc = rules::pair_colour(state, round, a, b);
    let text = match pc.why {
        ColourWhy::Rule => "按颜色规则 (by the colour rule)".to_string(),
        ColourWhy::H5 { player, how } => {
            let rule = rules::rule_red(state, round, a, b);
            let colour = if player == rule { "红" } else { "黑" };
            let how_zh = match how {
                H5Break::ThreeInARow => format!("将连续三次走{colour}"),
                H5Break::Balance => format!("走{colour}后红黑局数差超限"),
            };
            format!(
                "按颜色规则应由 {rule}号 走红, 但 {player}号 {how_zh}, 故 {}号 走红 \
                 (the colour rule gives {rule} red, but that order breaks H5 for {player})",
                pc.red
            )
        }
    };
    (pc.red, text)
}

/// The field of the remaining rounds (H6): this round's players, with `pairs`/`bye` (as
/// positions in `avail`) played if given.
fn field(state: &SectionState, ctx: &[Ctx], avail: &[usize]) -> Option<completion::Field> {
    if avail.len() > completion::MAX_FIELD {
        return None;
    }
    let hard = state.settings.same_team == SameTeam::Hard;
    let mut forbidden = vec![0u16; avail.len()];
    for (x, &i) in avail.iter().enumerate() {
        for (y, &j) in avail.iter().enumerate() {
            let (a, b) = (&ctx[i], &ctx[j]);
            if x != y
                && (a.opponents.contains(&b.no)
                    || b.opponents.contains(&a.no)
                    || (hard && rules::same_team(a, b)))
            {
                forbidden[x] |= 1 << y;
            }
        }
    }
    Some(completion::Field {
        forbidden,
        byes: avail
            .iter()
            .map(|&i| u8::try_from(ctx[i].byes).unwrap_or(u8::MAX))
            .collect(),
        bye_rule: state.settings.bye,
    })
}

/// H6 for round `round`: `None` when it does not bind (last round, round 1, a large field,
/// no completion from the present state, or a search beyond its budget); otherwise the
/// field before the round, the number of rounds left after it, and the search (to ask
/// about the field after a pairing with the same memory).
pub(crate) fn h6_binds(
    state: &SectionState,
    round: u32,
    ctx: &[Ctx],
    avail: &[usize],
) -> Option<(completion::Field, u32, completion::Completion)> {
    if round < 2 || state.total_rounds <= round {
        return None;
    }
    let left = state.total_rounds - round;
    let f = field(state, ctx, avail)?;
    let mut search = completion::Completion::new(&f);
    (search.completable(&f, left + 1) == Some(true)).then_some((f, left, search))
}

/// The least relaxation under which round `round` of `state` can be paired (A2 as
/// amended): [`Level::Strict`] when a pairing keeps every hard rule, [`Level::Colours`]
/// when only one that breaks H5 exists, [`Level::Rematches`] when only one with a rematch,
/// [`Level::Teams`] when even that fails (`hard` team avoidance). Decided by brute force up
/// to 12 players, by the checker's matching up to [`OPTIMUM_MAX_PLAYERS`] (where H6 is not
/// searched beyond 16 players); larger fields are taken as strict.
pub fn round_level(state: &SectionState, round: u32) -> Result<Level, String> {
    let ctx = rules::contexts(state, round)?;
    let n = ctx.iter().filter(|c| c.available).count();
    if n > OPTIMUM_MAX_PLAYERS {
        return Ok(Level::Strict);
    }
    for level in [Level::Strict, Level::Colours, Level::Rematches] {
        let found = if n <= crate::brute::MAX_PLAYERS {
            match crate::brute::optimum_at(state, round, level) {
                Ok(o) => o.is_some(),
                // The H6 search gave up: a pairing exists at this level.
                Err(e) if e.starts_with("H6") => true,
                Err(e) => return Err(e),
            }
        } else {
            match optimum::optimum_at(state, round, level) {
                Ok(o) => o.is_some(),
                Err(e) if e.starts_with("H6") => true,
                Err(e) => return Err(e),
            }
        };
        if found {
            return Ok(level);
        }
    }
    Ok(Level::Teams)
}

/// Every hard-rule violation of `pairing` for round `round` of `state`, by A2 as amended:
/// breaking H5 is a violation only when some pairing of the round keeps it (with H1–H4 and
/// H6), a rematch only when some pairing keeps H1 (with H3, H4 and H6); otherwise they are
/// criteria ([`Objective::c0`], [`Objective::rematches`]) and the optimum decides.
pub fn check(state: &SectionState, round: u32, pairing: &Pairing) -> Vec<Violation> {
    check_at(state, round, pairing, None)
}

/// Every hard rule `pairing` breaks, none relaxed: what an arbiter's manual pairing is
/// warned of (A3b).
pub fn check_strict(state: &SectionState, round: u32, pairing: &Pairing) -> Vec<Violation> {
    check_at(state, round, pairing, Some(Level::Strict))
}

fn check_at(
    state: &SectionState,
    round: u32,
    pairing: &Pairing,
    level: Option<Level>,
) -> Vec<Violation> {
    let ctx = match rules::contexts(state, round) {
        Ok(c) => c,
        Err(e) => return vec![Violation::BadState(e)],
    };
    let idx = rules::index(state);
    let mut v = Vec::new();
    let mut count = vec![0u32; ctx.len()];
    let mut seen = |no: PlayerNo, v: &mut Vec<Violation>| -> Option<usize> {
        let Some(&i) = idx.get(&no) else {
            v.push(Violation::UnknownPlayer(no));
            return None;
        };
        count[i] += 1;
        if count[i] == 2 {
            v.push(Violation::PairedTwice(no));
        }
        if !ctx[i].available && count[i] == 1 {
            v.push(Violation::Unavailable(no));
        }
        Some(i)
    };
    let relax = rules::relaxed(state, round);
    // H1, H4 and H5 breaks: violations unless the round relaxes them (A2 as amended).
    let mut relaxable = Vec::new();
    let mut keys = Vec::new();
    let mut pairs = Vec::new();
    for b in &pairing.boards {
        if b.red == b.black {
            v.push(Violation::PairedWithSelf(b.red));
            continue;
        }
        let (Some(i), Some(j)) = (seen(b.red, &mut v), seen(b.black, &mut v)) else {
            continue;
        };
        pairs.push((i, j));
        let (a, c) = (&ctx[i], &ctx[j]);
        if a.opponents.contains(&c.no) || c.opponents.contains(&a.no) {
            relaxable.push(Violation::Rematch(a.no, c.no));
        }
        if state.settings.same_team == SameTeam::Hard && rules::same_team(a, c) {
            relaxable.push(Violation::SameTeam(a.no, c.no));
        }
        if !relax {
            for (p, colour) in [(a, Colour::Red), (c, Colour::Black)] {
                if let Some(how) = rules::h5_break(state, p, colour) {
                    relaxable.push(Violation::ColourLimit {
                        player: p.no,
                        colour,
                        three_in_a_row: how == H5Break::ThreeInARow,
                    });
                }
            }
        }
        let (red, reason) = colour_reason(state, round, a, c);
        if red != b.red {
            v.push(Violation::ColourRule {
                board: b.board,
                expected_red: red,
                reason,
            });
        }
        keys.push((b.board, a.score.max(c.score), a.score.min(c.score)));
    }
    if !relaxable.is_empty() {
        let level = match level {
            Some(l) => l,
            None => round_level(state, round).unwrap_or(Level::Strict),
        };
        v.extend(relaxable.into_iter().filter(|x| match x {
            Violation::ColourLimit { .. } => level < Level::Colours,
            Violation::Rematch(..) => level < Level::Rematches,
            _ => level < Level::Teams,
        }));
    }
    for (k, w) in keys.iter().enumerate() {
        let out_of_order = k > 0 && (keys[k - 1].1, keys[k - 1].2) < (w.1, w.2);
        if w.0 != k as u32 + 1 || out_of_order {
            v.push(Violation::BoardOrder { board: w.0 });
        }
    }
    let navail = ctx.iter().filter(|c| c.available).count();
    let mut bye_at = None;
    if let Some(no) = pairing.bye {
        if let Some(i) = seen(no, &mut v) {
            bye_at = Some(i);
            if !rules::bye_eligible(state, &ctx, &ctx[i]) {
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
    // H6, only on an otherwise well-formed pairing of the available players.
    if v.iter().all(|x| {
        matches!(
            x,
            Violation::ColourRule { .. }
                | Violation::ColourLimit { .. }
                | Violation::BoardOrder { .. }
                | Violation::ByeNotEligible(_)
        )
    }) {
        let avail: Vec<usize> = (0..ctx.len()).filter(|&i| ctx[i].available).collect();
        if let Some((mut f, left, mut search)) = h6_binds(state, round, &ctx, &avail) {
            let at = |i: usize| avail.iter().position(|&x| x == i);
            let local: Vec<(usize, usize)> = pairs
                .iter()
                .filter_map(|&(i, j)| Some((at(i)?, at(j)?)))
                .collect();
            f.play(&local, bye_at.and_then(at));
            if search.completable(&f, left) == Some(false) {
                v.push(Violation::Completion { rounds_left: left });
            }
        }
    }
    v
}

/// The C0, CB, C1–C5 objective of `pairing` (players unknown to the state are ignored).
/// Every pair counts its terms by A2, legal or not (the hard rules are [`check`]'s); a pair
/// whose colours break H5 either way counts its H5 breakers in C0.
pub fn objective(state: &SectionState, round: u32, pairing: &Pairing) -> Objective {
    let ctx = rules::contexts(state, round).unwrap_or_default();
    let g = rules::groups(&ctx);
    let idx = rules::index(state);
    let mut obj = rules::empty_objective(&g);
    for b in &pairing.boards {
        if let (Some(&i), Some(&j)) = (idx.get(&b.red), idx.get(&b.black)) {
            rules::add(
                &mut obj,
                &rules::terms(state, round, &g, &ctx[i], &ctx[j]).obj,
            );
        }
    }
    if let Some(&i) = pairing.bye.and_then(|no| idx.get(&no)) {
        rules::add(&mut obj, &rules::bye_terms(&g, &ctx[i]));
    }
    obj
}
