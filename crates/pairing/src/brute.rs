//! Exhaustive optimum for small sections (≤ 12 players to pair): enumerates every pairing,
//! keeps those the checker finds legal, and returns the best C0, CB, C1–C5 objective. Used to test
//! the engine's optimality; built only on the checker's code.

use crate::checker::{self, Ctx, Objective};
use crate::SectionState;

/// Largest number of players to pair that [`optimum`] accepts.
pub const MAX_PLAYERS: usize = 12;

fn add(a: &mut Objective, b: &Objective) {
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

fn sub(a: &mut Objective, b: &Objective) {
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

struct Search<'a> {
    pair: &'a [Vec<Option<Objective>>],
    bye: &'a [Option<Objective>],
    used: Vec<bool>,
    cur: Objective,
    best: Option<Objective>,
    bye_left: bool,
}

impl Search<'_> {
    fn go(&mut self) {
        let n = self.used.len();
        let Some(v) = (0..n).find(|&i| !self.used[i]) else {
            if self.best.as_ref().is_none_or(|b| self.cur < *b) {
                self.best = Some(self.cur.clone());
            }
            return;
        };
        self.used[v] = true;
        if self.bye_left {
            if let Some(o) = &self.bye[v] {
                self.bye_left = false;
                add(&mut self.cur, o);
                self.go();
                sub(&mut self.cur, o);
                self.bye_left = true;
            }
        }
        for u in v + 1..n {
            if self.used[u] {
                continue;
            }
            if let Some(o) = &self.pair[v][u] {
                self.used[u] = true;
                add(&mut self.cur, o);
                self.go();
                sub(&mut self.cur, o);
                self.used[u] = false;
            }
        }
        self.used[v] = false;
    }
}

/// The best objective over every legal pairing of round `round`, `Ok(None)` when no legal
/// pairing exists; an error for more than [`MAX_PLAYERS`] players or a bad state.
pub fn optimum(state: &SectionState, round: u32) -> Result<Option<Objective>, String> {
    let ctx = checker::contexts(state, round)?;
    let avail: Vec<&Ctx> = ctx.iter().filter(|c| c.available).collect();
    let n = avail.len();
    if n > MAX_PLAYERS {
        return Err(format!(
            "{n} players: brute force handles at most {MAX_PLAYERS}"
        ));
    }
    let g = checker::groups(&ctx);
    let mut pair = vec![vec![None; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            if checker::pair_legal(state, round, avail[i], avail[j]).is_some() {
                let mut o = checker::empty_objective(&g);
                checker::add_pair(state, round, &g, avail[i], avail[j], &mut o);
                pair[i][j] = Some(o);
            }
        }
    }
    let bye: Vec<Option<Objective>> = avail
        .iter()
        .map(|c| {
            (n % 2 == 1 && checker::bye_eligible(state, &ctx, c)).then(|| {
                let mut o = checker::empty_objective(&g);
                checker::add_bye(&g, c, &mut o);
                o
            })
        })
        .collect();
    let mut s = Search {
        pair: &pair,
        bye: &bye,
        used: vec![false; n],
        cur: checker::empty_objective(&g),
        best: None,
        bye_left: n % 2 == 1,
    };
    s.go();
    Ok(s.best)
}
