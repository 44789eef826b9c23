//! The candidate graph of a large field: the pairs near each player's ideal partners and
//! at every scale, from which pricing starts.

use super::*;

/// The restricted graph's candidate pairs: a window of `width` places around each player's
/// ideal partners, and with `spread` also partners at every scale (see [`candidate_edges`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) width: usize,
    pub(super) spread: bool,
}

/// Candidate opponents (ranking positions > x) for position x in a large field: players of
/// its own group within `w.width` places of its adjacent and slide partners, the top of the
/// next group, and — for the bottom of a group, where floaters come from — the top of the
/// next three groups.
///
/// With `w.spread`, also partners at every scale: inside the group, those 1, 3, 9, 27, …
/// places from the adjacent and slide partners (powers of 3 solve 10 % faster than powers
/// of 2 at 10,000 players, with no difference at 1,000 or 3,000); and, for the players 0, 1,
/// 2, 4, 8, … places from the top or the bottom of their group, the players 0, 1, 3, 7, 15,
/// … places from the top of every lower group. A restricted graph needs more than a good
/// pairing: its optimal duals are only held by the pairs it contains, and with local pairs alone they
/// drift so far that pricing then finds far pairs violating them by the million (6.2 million
/// at 10,000 players) and re-solves most of the round. These O(n log n) pairs tie every
/// player's dual to its whole group and every group to every other at each scale; the first
/// pricing pass then finds hundreds of violating pairs instead.
pub(super) fn candidate_edges(p: &Problem, x: usize, w: Window) -> Vec<usize> {
    let n = p.order.len();
    let g = p.group_of[x];
    let start = x - p.pos_in_group[x];
    let size = p.group_size[g];
    let pos = p.pos_in_group[x];
    let width = w.width;
    // Gathered with repeats, then sorted and deduplicated: the same ascending list a set
    // gives, without a tree node per pair.
    let mut c = Vec::new();
    for centre in [pos, pos + size / 2] {
        for q in centre.saturating_sub(width)..(centre + width + 1).min(size) {
            if q > pos {
                c.push(start + q);
            }
        }
    }
    let bottom = size - pos <= 2 * width + 1;
    let mut next = start + size;
    for k in 0..3 {
        if next >= n {
            break;
        }
        let gs = p.group_size[p.group_of[next]];
        let take = if bottom {
            2 * width + 2
        } else if k == 0 {
            width / 2 + 1
        } else {
            0
        };
        for q in 0..gs.min(take) {
            c.push(next + q);
        }
        next += gs;
    }
    if w.spread {
        let mut d = 1usize;
        while d < size {
            for centre in [pos, pos + size / 2] {
                for q in [centre + d, centre.wrapping_sub(d)] {
                    if q > pos && q < size {
                        c.push(start + q);
                    }
                }
            }
            d *= 3;
        }
        let power = |k: usize| k == 0 || k.is_power_of_two();
        if power(pos) || power(size - 1 - pos) {
            let mut next = start + size;
            while next < n {
                let gs = p.group_size[p.group_of[next]];
                let (mut q, mut step) = (0usize, 1usize);
                while q < gs {
                    c.push(next + q);
                    q += step;
                    step *= 2;
                }
                next += gs;
            }
        }
    }
    c.sort_unstable();
    c.dedup();
    c
}

/// Candidate window of the restricted graph above [`DENSE_LIMIT`] players.
pub(super) const INITIAL_WINDOW: usize = 6;
