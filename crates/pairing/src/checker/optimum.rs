//! The checker's own optimum for rounds of up to [`MAX_PLAYERS`] players: a maximum-weight
//! matching ([`super::blossom`]) on the complete graph of legal pairs (plus one dummy vertex
//! for the bye), with exact lexicographic weights — the number of pairs first, then minus
//! C0, CB, C1…, C2…, C3, C4, C5 — packed into integer limbs whose digit bases exceed any
//! total a pairing can reach. Independent of the engine's cost model and solver.

use super::blossom::{self, Lex};
use super::rules::{self, Ctx, Level};
use super::{h6_binds, Objective};
use crate::SectionState;

/// Largest number of players to pair that [`optimum`] accepts (it is O(n³) and not fast).
pub const MAX_PLAYERS: usize = 400;

/// Capacity of one limb: the product of the digit bases packed into it stays below this.
const LIMB: i64 = 1 << 40;

/// How the objective's digits are packed: per digit, its limb and multiplier.
struct Packing {
    at: Vec<(usize, i64)>,
    limbs: usize,
}

fn packing(bounds: &[i64]) -> Packing {
    // Pack from the last (least significant) digit upwards, starting a new limb (to the
    // left) when the next base would overflow the current one.
    let mut at = vec![(0usize, 0i64); bounds.len()];
    let mut limb = 0usize;
    let mut mult = 1i64;
    for d in (0..bounds.len()).rev() {
        let base = bounds[d] + 1;
        if mult.saturating_mul(base) >= LIMB {
            limb += 1;
            mult = 1;
        }
        at[d] = (limb, mult);
        mult = mult.saturating_mul(base);
    }
    let limbs = limb + 1;
    // Limb numbers counted from the most significant one.
    for x in &mut at {
        x.0 = limbs - 1 - x.0;
    }
    Packing { at, limbs }
}

/// An objective's digits, in order: C0, CB, C1…, C2…, C3, C4, C5 (CB shifted by the
/// lowest score so that it is never negative).
fn digits(o: &Objective, low: i64, bye: bool) -> Vec<i64> {
    let mut d = vec![
        i64::from(o.rematches),
        i64::from(o.rematch_rounds),
        i64::from(o.c0),
        if bye { o.bye_score - low } else { 0 },
    ];
    d.extend(o.floaters.iter().map(|&x| i64::from(x)));
    d.extend(o.gaps.iter().copied());
    d.push(i64::from(o.colour_misses));
    d.push(i64::from(o.same_team));
    d.push(i64::from(o.repeated_floats));
    d
}

fn weight<const N: usize>(p: &Packing, digits: &[i64]) -> Lex<N> {
    let mut w = [0i64; N];
    w[0] = 1; // one more pair
    for (d, &(limb, mult)) in digits.iter().zip(&p.at) {
        w[1 + limb] -= d * mult;
    }
    Lex(w)
}

fn solve<const N: usize>(
    p: &Packing,
    n: usize,
    edges: &[(usize, usize, Vec<i64>)],
) -> Result<Vec<Option<usize>>, String> {
    let e = edges
        .iter()
        .map(|(i, j, d)| (*i, *j, weight::<N>(p, d)))
        .collect();
    blossom::max_weight_matching(n, e)
        .map_err(|_| "匹配求解失去整数性 (matching lost integrality)".into())
}

/// The best objective over every pairing of round `round` that satisfies H1–H5, computed by
/// the checker's own weighted matching; `Ok(None)` when no legal pairing exists. An error
/// for more than [`MAX_PLAYERS`] players, a bad state, or when H6 binds and the best
/// pairing found leaves the stage unfinishable (the optimum under H6 is then brute force's
/// job, for small fields only).
///
/// The rules relax as A2 (amended) has them: H5 into C0 when no pairing keeps it, then H1
/// into the first criterion when no pairing keeps that either.
pub fn optimum(state: &SectionState, round: u32) -> Result<Option<Objective>, String> {
    rules::first_level(|level| optimum_at(state, round, level))
}

/// [`optimum`] at one relaxation level.
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
            "{n} 名棋手: 最多 {MAX_PLAYERS} 名 ({n} players: at most {MAX_PLAYERS})"
        ));
    }
    let g = rules::groups(&ctx);
    let low = g.last().copied().unwrap_or(0);
    let high = g.first().copied().unwrap_or(0);
    let odd = n % 2 == 1;
    // The largest total each digit can reach in one pairing.
    let half = (n / 2) as i64;
    let past = i64::from(round.saturating_sub(1));
    let mut bounds = vec![half * past, half * past, n as i64, high - low];
    for &gk in g.iter().take(g.len().saturating_sub(1)) {
        let above = avail.iter().filter(|c| c.score >= gk).count() as i64;
        let below = n as i64 - above;
        bounds.push(above.min(below));
    }
    for &s in &g {
        let size = avail.iter().filter(|c| c.score == s).count() as i64;
        bounds.push(size.min(half) * (s - low));
    }
    bounds.extend([half, half, n as i64]);
    let p = packing(&bounds);
    let mut terms: Vec<Vec<Option<Objective>>> = vec![vec![None; n]; n];
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if let Some(t) = rules::pair_terms(state, round, level, &g, avail[i], avail[j]) {
                edges.push((i, j, digits(&t.obj, low, false)));
                terms[i][j] = Some(t.obj);
            }
        }
    }
    let mut bye_terms = vec![None; n];
    if odd {
        for (i, c) in avail.iter().enumerate() {
            if rules::bye_eligible(state, &ctx, c) {
                let o = rules::bye_terms(&g, c);
                edges.push((i, n, digits(&o, low, true)));
                bye_terms[i] = Some(o);
            }
        }
    }
    let nv = n + usize::from(odd);
    let mate = match 1 + p.limbs {
        0..=4 => solve::<4>(&p, nv, &edges)?,
        5..=8 => solve::<8>(&p, nv, &edges)?,
        9..=16 => solve::<16>(&p, nv, &edges)?,
        17..=32 => solve::<32>(&p, nv, &edges)?,
        33..=64 => solve::<64>(&p, nv, &edges)?,
        l => return Err(format!("目标向量过长 ({l} limbs)")),
    };
    let mut obj = rules::empty_objective(&g);
    let mut pairs = Vec::new();
    let mut bye = None;
    for (i, m) in mate.iter().enumerate().take(n) {
        match *m {
            None => return Ok(None),
            Some(j) if j == n => {
                bye = Some(i);
                if let Some(o) = &bye_terms[i] {
                    rules::add(&mut obj, o);
                }
            }
            Some(j) if i < j => {
                pairs.push((i, j));
                if let Some(o) = &terms[i][j] {
                    rules::add(&mut obj, o);
                }
            }
            Some(_) => {}
        }
    }
    if let Some((mut f, left, mut search)) = h6_binds(state, round, &ctx, &avail_idx) {
        f.play(&pairs, bye);
        if search.completable(&f, left) != Some(true) {
            return Err(
                "H6 生效: 最优匹配无法完成余下轮次 (H6 binds: the best matching leaves the stage unfinishable)"
                    .into(),
            );
        }
    }
    Ok(Some(obj))
}
