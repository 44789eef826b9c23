//! H6 completion (rules.md A2): a pairing must leave the rest of the stage pairable — a
//! sequence of pairings for the remaining rounds that keeps H1 (no rematch), H3 (the bye to
//! a player without one while such a player exists) and H4 (`hard` team avoidance) must
//! exist whenever one exists from the present state. Colours and scores of later rounds are
//! unknown, so H5 and the criteria play no part here.
//!
//! It only matters when few players face many rounds (7 or 8 players in a 7-round Swiss),
//! so the search runs for fields of at most [`COMPLETION_LIMIT`] players: a depth-first
//! search over the remaining rounds, round by round and pair by pair (the player with the
//! fewest possible partners first), remembering the states proved to be dead ends. The
//! players of the later rounds are the players paired now.

use std::collections::HashSet;

/// Largest field (players to pair this round) for which H6 is searched.
pub(crate) const COMPLETION_LIMIT: usize = 12;

/// Search nodes after which the search gives up (the pairing is then taken as completable:
/// H6 is only ever enforced with a proof of the dead end).
const NODE_BUDGET: u64 = 100_000;

/// Pairings of the round, best first, tried for completion when the optimum is a dead end;
/// past them the optimum is kept (with 7 or 8 players every pairing of the round is tried).
pub(crate) const CANDIDATE_LIMIT: usize = 1000;

/// Which players may still get the bye (H3 and the `bye` setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ByeRule {
    /// Players without a bye, while there are any; otherwise everyone.
    WithoutBye,
    /// The players with the fewest byes.
    FewestByes,
}

/// The field as the completion search sees it: who may still meet whom, and the byes had.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    /// Per player: bit mask of the players he may still meet (not met, not `hard` team-mates).
    free: Vec<u32>,
    byes: Vec<u32>,
    rule: ByeRule,
}

impl Field {
    /// `may_meet(i, j)` for players `0..n` (n ≤ [`COMPLETION_LIMIT`]), `byes` per player.
    pub(crate) fn new(
        n: usize,
        may_meet: impl Fn(usize, usize) -> bool,
        byes: Vec<u32>,
        rule: ByeRule,
    ) -> Self {
        let mut free = vec![0u32; n];
        for i in 0..n {
            for j in i + 1..n {
                if may_meet(i, j) {
                    free[i] |= 1 << j;
                    free[j] |= 1 << i;
                }
            }
        }
        Field { free, byes, rule }
    }

    /// The field after this round's `pairs` and `bye`.
    pub(crate) fn after(&self, pairs: &[(usize, usize)], bye: Option<usize>) -> Field {
        let mut f = self.clone();
        for &(i, j) in pairs {
            f.free[i] &= !(1 << j);
            f.free[j] &= !(1 << i);
        }
        if let Some(b) = bye {
            f.byes[b] += 1;
        }
        f
    }

    /// Whether `rounds` more rounds can be paired keeping H1, H3 and H4: `Some(true)` or
    /// `Some(false)` when the search decided, `None` when it gave up.
    pub(crate) fn completable(&self, rounds: u32) -> Option<bool> {
        let n = self.free.len();
        if rounds == 0 || n <= 1 {
            return Some(true);
        }
        let mut s = Search {
            n,
            rule: self.rule,
            dead: HashSet::new(),
            nodes: 0,
        };
        let mut free = self.free.clone();
        let mut byes = self.byes.clone();
        s.rounds(&mut free, &mut byes, rounds)
    }
}

struct Search {
    n: usize,
    rule: ByeRule,
    /// States (pairs still open, byes, rounds left) proved to be dead ends.
    dead: HashSet<(u128, u64, u32)>,
    nodes: u64,
}

impl Search {
    fn key(&self, free: &[u32], byes: &[u32], left: u32) -> (u128, u64, u32) {
        let mut edges = 0u128;
        let mut bit = 0;
        for (i, &f) in free.iter().enumerate() {
            for j in i + 1..self.n {
                if f >> j & 1 == 1 {
                    edges |= 1 << bit;
                }
                bit += 1;
            }
        }
        let sig = byes
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &b)| acc | (u64::from(b.min(15)) << (4 * i)));
        (edges, sig, left)
    }

    /// Pair `left` more rounds.
    fn rounds(&mut self, free: &mut [u32], byes: &mut [u32], left: u32) -> Option<bool> {
        if left == 0 {
            return Some(true);
        }
        let key = self.key(free, byes, left);
        if self.dead.contains(&key) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > NODE_BUDGET {
            return None;
        }
        let all: u32 = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        let odd = self.n % 2 == 1;
        // Without a bye this round, everyone needs a partner in each of the `left` rounds.
        if !odd && (0..self.n).any(|v| free[v].count_ones() < left) {
            self.dead.insert(key);
            return Some(false);
        }
        let candidates: Vec<Option<usize>> = if odd {
            let min = match self.rule {
                ByeRule::WithoutBye => {
                    if byes.contains(&0) {
                        0
                    } else {
                        u32::MAX
                    }
                }
                ByeRule::FewestByes => byes.iter().copied().min().unwrap_or(0),
            };
            (0..self.n)
                .rev()
                .filter(|&v| min == u32::MAX || byes[v] == min)
                .map(Some)
                .collect()
        } else {
            vec![None]
        };
        for bye in candidates {
            let open = match bye {
                Some(b) => all & !(1 << b),
                None => all,
            };
            if let Some(b) = bye {
                byes[b] += 1;
            }
            let r = self.pairs(free, byes, open, left);
            if let Some(b) = bye {
                byes[b] -= 1;
            }
            match r {
                Some(false) => {}
                other => return other,
            }
        }
        self.dead.insert(key);
        Some(false)
    }

    /// Pair the players of `open` in this round, then the rounds after it.
    fn pairs(&mut self, free: &mut [u32], byes: &mut [u32], open: u32, left: u32) -> Option<bool> {
        if open == 0 {
            return self.rounds(free, byes, left - 1);
        }
        // The open player with the fewest open partners first.
        let mut v = usize::MAX;
        let mut fewest = u32::MAX;
        let mut rest = open;
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let c = (free[x] & open).count_ones();
            if c < fewest {
                fewest = c;
                v = x;
            }
        }
        let mut opts = free[v] & open;
        while opts != 0 {
            let w = opts.trailing_zeros() as usize;
            opts &= opts - 1;
            free[v] &= !(1 << w);
            free[w] &= !(1 << v);
            let r = self.pairs(free, byes, open & !(1 << v) & !(1 << w), left);
            free[v] |= 1 << w;
            free[w] |= 1 << v;
            match r {
                Some(false) => {}
                other => return other,
            }
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(n: usize) -> Field {
        Field::new(n, |_, _| true, vec![0; n], ByeRule::WithoutBye)
    }

    #[test]
    fn a_round_robin_is_completable_and_one_round_too_many_is_not() {
        for n in [4, 6, 8] {
            assert_eq!(complete(n).completable(n as u32 - 1), Some(true), "{n}");
            assert_eq!(complete(n).completable(n as u32), Some(false), "{n}");
        }
        // Odd: every player gets one bye in n rounds; n + 1 rounds would rematch or re-bye.
        for n in [5, 7] {
            assert_eq!(complete(n).completable(n as u32), Some(true), "{n}");
            assert_eq!(complete(n).completable(n as u32 + 1), Some(false), "{n}");
        }
    }

    #[test]
    fn a_dead_end_pairing_is_detected() {
        // 6 players (0–5), 5 rounds. After 0–1, 2–3, 4–5 and 0–2, 1–4, 3–5 the pairs left
        // form a 3-regular graph: two triangles {0, 3, 4}, {1, 2, 5} joined by 0–5, 1–3, 2–4.
        let g = complete(6)
            .after(&[(0, 1), (2, 3), (4, 5)], None)
            .after(&[(0, 2), (1, 4), (3, 5)], None);
        assert_eq!(g.completable(3), Some(true));
        // Pairing the joining edges leaves the two triangles: no round can follow.
        let dead = g.after(&[(0, 5), (1, 3), (2, 4)], None);
        assert_eq!(dead.completable(1), Some(false));
        // 0–3, 1–5, 2–4 leaves the 6-cycle 0–4–3–1–2–5–0: two more rounds.
        let good = g.after(&[(0, 3), (1, 5), (2, 4)], None);
        assert_eq!(good.completable(2), Some(true));
        assert_eq!(good.completable(3), Some(false));
    }

    #[test]
    fn byes_follow_h3() {
        // Three players, 1 and 2 have had a bye and have met: the bye must go to 0 and 1–2
        // cannot play again.
        for rule in [ByeRule::WithoutBye, ByeRule::FewestByes] {
            let f = Field::new(3, |_, _| true, vec![0, 1, 1], rule);
            assert_eq!(f.completable(1), Some(true));
            assert_eq!(f.after(&[(1, 2)], None).completable(1), Some(false));
        }
        // Everyone has had a bye: under H3 anyone may take the next one.
        let f = Field::new(3, |_, _| true, vec![1, 1, 1], ByeRule::WithoutBye);
        assert_eq!(f.after(&[(1, 2)], None).completable(1), Some(true));
    }
}
