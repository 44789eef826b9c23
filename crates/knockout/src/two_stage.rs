//! Two-stage sections (A9): the stage-1 ranking split into the knockout field and the rest.
//! (The final ranking of such a section — knockout places, then everyone else in Swiss
//! order — is the director's `final_standings::final_ranking`.)

use arbiter_types::PlayerNo;

/// Splits a stage-1 ranking into the top `k` (the knockout field, seed 1 first) and the rest.
pub fn split_top(ranking: &[PlayerNo], k: usize) -> (Vec<PlayerNo>, Vec<PlayerNo>) {
    let k = k.min(ranking.len());
    (ranking[..k].to_vec(), ranking[k..].to_vec())
}
