//! Exhaustive optimum for small sections (≤ 12 players to pair): enumerates every pairing
//! the checker finds legal under H1–H5, and returns the best C0, CB, C1–C5 objective among
//! those that also keep H6 (completion). Used to test the engine's optimality; built only on
//! the checker's code.

use crate::checker::rules::{self, Ctx, Level};
use crate::checker::{h6_binds, Objective};
use crate::SectionState;

/// Largest number of players to pair that [`optimum`] accepts.
pub const MAX_PLAYERS: usize = 12;

/// One legal pairing: pairs and bye as positions among the players to pair.
struct Found {
    obj: Objective,
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

struct Search<'a> {
    pair: &'a [Vec<Option<Objective>>],
    bye: &'a [Option<Objective>],
    used: Vec<bool>,
    cur: Objective,
    pairs: Vec<(usize, usize)>,
    bye_at: Option<usize>,
    bye_left: bool,
    /// Keep every legal pairing (H6 binds) or only the best one.
    keep_all: bool,
    found: Vec<Found>,
}

impl Search<'_> {
    fn record(&mut self) {
        let f = Found {
            obj: self.cur.clone(),
            pairs: self.pairs.clone(),
            bye: self.bye_at,
        };
        if self.keep_all {
            self.found.push(f);
        } else if self.found.first().is_none_or(|b| f.obj < b.obj) {
            self.found = vec![f];
        }
    }

    fn go(&mut self) {
        let n = self.used.len();
        let Some(v) = (0..n).find(|&i| !self.used[i]) else {
            self.record();
            return;
        };
        self.used[v] = true;
        if self.bye_left {
            if let Some(o) = &self.bye[v] {
                self.bye_left = false;
                self.bye_at = Some(v);
                rules::add(&mut self.cur, o);
                self.go();
                rules::sub(&mut self.cur, o);
                self.bye_at = None;
                self.bye_left = true;
            }
        }
        for u in v + 1..n {
            if self.used[u] {
                continue;
            }
            if let Some(o) = &self.pair[v][u] {
                self.used[u] = true;
                self.pairs.push((v, u));
                rules::add(&mut self.cur, o);
                self.go();
                rules::sub(&mut self.cur, o);
                self.pairs.pop();
                self.used[u] = false;
            }
        }
        self.used[v] = false;
    }
}

/// The best objective over every pairing of round `round` that satisfies H1–H6,
/// `Ok(None)` when none does; an error for more than [`MAX_PLAYERS`] players, a bad state,
/// or an H6 search beyond its budget.
///
/// The rules relax as A2 (amended) has them: H5 into C0 when no pairing keeps it with
/// H1–H4 and H6, then H1 into the first criterion when no pairing keeps it with H3, H4 and
/// H6.
pub fn optimum(state: &SectionState, round: u32) -> Result<Option<Objective>, String> {
    rules::first_level(|level| optimum_at(state, round, level))
}

/// [`optimum`] at one relaxation level: the best pairing whose pairs are legal at `level`
/// and that keeps H6, `Ok(None)` when there is none.
pub fn optimum_at(
    state: &SectionState,
    round: u32,
    level: Level,
) -> Result<Option<Objective>, String> {
    let ctx = rules::contexts(state, round)?;
    let avail_idx: Vec<usize> = (0..ctx.len()).filter(|&i| ctx[i].available).collect();
    let avail: Vec<&Ctx> = avail_idx.iter().map(|&i| &ctx[i]).collect();
    let n = avail.len();
    if n > MAX_PLAYERS {
        return Err(format!(
            "{n} 名棋手: 穷举最多 {MAX_PLAYERS} 名 ({n} players: brute force handles at most {MAX_PLAYERS})"
        ));
    }
    let g = rules::groups(&ctx);
    let mut pair = vec![vec![None; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            pair[i][j] =
                rules::pair_terms(state, round, level, &g, avail[i], avail[j]).map(|t| t.obj);
        }
    }
    let bye: Vec<Option<Objective>> = avail
        .iter()
        .map(|c| {
            (n % 2 == 1 && rules::bye_eligible(state, &ctx, c)).then(|| rules::bye_terms(&g, c))
        })
        .collect();
    let h6 = h6_binds(state, round, &ctx, &avail_idx);
    let mut s = Search {
        pair: &pair,
        bye: &bye,
        used: vec![false; n],
        cur: rules::empty_objective(&g),
        pairs: Vec::new(),
        bye_at: None,
        bye_left: n % 2 == 1,
        keep_all: h6.is_some(),
        found: Vec::new(),
    };
    s.go();
    let mut found = s.found;
    let Some((field, left, mut search)) = h6 else {
        return Ok(found.into_iter().next().map(|f| f.obj));
    };
    found.sort_by(|a, b| a.obj.cmp(&b.obj));
    for f in found {
        let mut after = field.clone();
        after.play(&f.pairs, f.bye);
        match search.completable(&after, left) {
            Some(true) => return Ok(Some(f.obj)),
            Some(false) => {}
            None => return Err("H6 完成性搜索超出预算 (H6 completion search over budget)".into()),
        }
    }
    Ok(None)
}
