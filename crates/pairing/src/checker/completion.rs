//! H6 completion, checked by the checker's own search: can the rest of the stage still be
//! paired under H1, H3 and H4 (colours and scores unknown)? The field of the remaining
//! rounds is taken to be the players paired in this round (withdrawals and absences to
//! come are unknown). Only small fields are searched ([`MAX_FIELD`]); in larger ones the
//! search is not run, and a search that exceeds its budget answers "unknown".

use arbiter_types::ByeChoice;
use std::collections::HashSet;

const NONE: usize = usize::MAX;

/// Largest field the completion search runs on.
pub const MAX_FIELD: usize = 16;

/// Search nodes (partial pairings tried) before giving up with "unknown".
pub const BUDGET: u64 = 2_000_000;

/// One field as the search sees it: players 0..n.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    /// `forbidden[i]` bit `j`: `i` and `j` may not meet (met before, or team-mates under
    /// `hard`).
    pub forbidden: Vec<u16>,
    /// Byes had so far.
    pub byes: Vec<u8>,
    pub bye_rule: ByeChoice,
}

impl Field {
    /// Record a round: `pairs` met, `bye` had the bye.
    pub fn play(&mut self, pairs: &[(usize, usize)], bye: Option<usize>) {
        for &(a, b) in pairs {
            self.forbidden[a] |= 1 << b;
            self.forbidden[b] |= 1 << a;
        }
        if let Some(b) = bye {
            self.byes[b] = self.byes[b].saturating_add(1);
        }
    }
}

struct Search {
    n: usize,
    bye_rule: ByeChoice,
    failed: HashSet<(Vec<u16>, Vec<u8>, u32)>,
    nodes: u64,
}

struct OutOfBudget;

impl Search {
    fn key_byes(&self, byes: &[u8]) -> Vec<u8> {
        let m = byes.iter().copied().min().unwrap_or(0);
        match self.bye_rule {
            ByeChoice::LowestWithoutBye => byes.iter().map(|&b| u8::from(b > 0 || m > 0)).collect(),
            ByeChoice::LowestFewestByes => byes.iter().map(|&b| b - m).collect(),
        }
    }

    fn eligible(&self, byes: &[u8], p: usize) -> bool {
        let m = byes.iter().copied().min().unwrap_or(0);
        match self.bye_rule {
            ByeChoice::LowestWithoutBye => byes[p] == 0 || m > 0,
            ByeChoice::LowestFewestByes => byes[p] == m,
        }
    }

    /// Can `rounds` more rounds be paired from here?
    fn rounds(&mut self, forb: &[u16], byes: &[u8], rounds: u32) -> Result<bool, OutOfBudget> {
        if rounds == 0 || self.n < 2 {
            return Ok(true);
        }
        let key = (forb.to_vec(), self.key_byes(byes), rounds);
        if self.failed.contains(&key) {
            return Ok(false);
        }
        let all: u16 = if self.n == 16 {
            u16::MAX
        } else {
            (1u16 << self.n) - 1
        };
        let mut forb2 = forb.to_vec();
        let found = if self.n % 2 == 1 {
            let mut ok = false;
            for p in 0..self.n {
                if !self.eligible(byes, p) {
                    continue;
                }
                let mut byes2 = byes.to_vec();
                byes2[p] = byes2[p].saturating_add(1);
                if self.matchings(all & !(1 << p), &mut forb2, &byes2, rounds)? {
                    ok = true;
                    break;
                }
            }
            ok
        } else {
            self.matchings(all, &mut forb2, byes, rounds)?
        };
        if !found {
            self.failed.insert(key);
        }
        Ok(found)
    }

    /// Pair everyone in `free` (adding the pairs to `forb`), then go on to the next round.
    fn matchings(
        &mut self,
        free: u16,
        forb: &mut Vec<u16>,
        byes: &[u8],
        rounds: u32,
    ) -> Result<bool, OutOfBudget> {
        self.nodes += 1;
        if self.nodes > BUDGET {
            return Err(OutOfBudget);
        }
        if free == 0 {
            let next = forb.clone();
            return self.rounds(&next, byes, rounds - 1);
        }
        // The player with the fewest possible opponents first; the opponents likewise.
        let options = |x: usize, forb: &[u16]| (free & !forb[x] & !(1u16 << x)).count_ones();
        let mut v = NONE;
        let mut fewest = u32::MAX;
        let mut rest = free;
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let o = options(x, forb);
            if o < fewest {
                fewest = o;
                v = x;
            }
        }
        if fewest == 0 || v == NONE {
            return Ok(false);
        }
        let rest = free & !(1 << v);
        let mut cand: Vec<(u32, usize)> = Vec::with_capacity(fewest as usize);
        let mut bits = rest & !forb[v];
        while bits != 0 {
            let u = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cand.push((options(u, forb), u));
        }
        cand.sort_unstable();
        for (_, u) in cand {
            forb[v] |= 1 << u;
            forb[u] |= 1 << v;
            let ok = self.matchings(rest & !(1 << u), forb, byes, rounds)?;
            forb[v] &= !(1 << u);
            forb[u] &= !(1 << v);
            if ok {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Whether `rounds` rounds can still be paired in `field` under H1, H3, H4: `None` when the
/// field is larger than [`MAX_FIELD`] or the search ran out of budget.
pub(crate) fn completable(field: &Field, rounds: u32) -> Option<bool> {
    let n = field.forbidden.len();
    if n > MAX_FIELD {
        return None;
    }
    let mut s = Search {
        n,
        bye_rule: field.bye_rule,
        failed: HashSet::new(),
        nodes: 0,
    };
    s.rounds(&field.forbidden, &field.byes, rounds).ok()
}
