//! Two-stage sections (A9): the knockout decides the top places, everyone else follows by
//! the stage-1 (or continuing Swiss) order.

use arbiter_types::PlayerNo;

/// Splits a stage-1 ranking into the top `k` (the knockout field, seed 1 first) and the rest.
pub fn split_top(ranking: &[PlayerNo], k: usize) -> (Vec<PlayerNo>, Vec<PlayerNo>) {
    let k = k.min(ranking.len());
    (ranking[..k].to_vec(), ranking[k..].to_vec())
}

/// The final ranking of a two-stage section: the knockout places first (as given by
/// [`crate::Bracket::places`], shared places kept), then `rest` in its own order from the
/// place after the knockout field. Players of `rest` already placed by the knockout are
/// skipped.
pub fn final_ranking(knockout: &[(u32, PlayerNo)], rest: &[PlayerNo]) -> Vec<(u32, PlayerNo)> {
    let mut out: Vec<(u32, PlayerNo)> = knockout.to_vec();
    let mut next = out.len() as u32 + 1;
    for &p in rest {
        if out.iter().all(|&(_, q)| q != p) {
            out.push((next, p));
            next += 1;
        }
    }
    out
}
