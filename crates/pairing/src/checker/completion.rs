//! H6 completion, checked by the checker's own search: can the rest of the stage still be
//! paired under H1, H3 and H4 (colours and scores unknown)? The field of the remaining
//! rounds is taken to be the players paired in this round (withdrawals and absences to
//! come are unknown). Only small fields are searched ([`MAX_FIELD`]); in larger ones the
//! search is not run, and a search that exceeds its budget answers "unknown".
//!
//! The search pairs round after round, the player with the fewest possible opponents
//! first, prunes a field in which someone has fewer possible opponents than rounds left
//! (byes aside), and remembers the states proved unfinishable.

use arbiter_types::ByeChoice;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Largest field the completion search runs on.
pub const MAX_FIELD: usize = 16;

/// Search nodes (partial pairings tried) per question before answering "unknown".
pub const BUDGET: u64 = 2_000_000;

const NONE: usize = usize::MAX;

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

/// A state of the search: who may not meet, byes (normalised), rounds left.
type Key = ([u16; MAX_FIELD], [u8; MAX_FIELD], u32);

/// A small multiplicative hasher for the fixed-size keys.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u16(&mut self, x: u16) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, x: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The completion search with its memory of unfinishable states; reuse one for several
/// questions about the same round (the states are absolute, so the memory stays true).
pub(crate) struct Completion {
    n: usize,
    bye_rule: ByeChoice,
    failed: HashSet<Key, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
}

struct OutOfBudget;

impl Completion {
    pub fn new(field: &Field) -> Self {
        Completion {
            n: field.forbidden.len(),
            bye_rule: field.bye_rule,
            failed: HashSet::default(),
            nodes: 0,
        }
    }

    /// Whether `rounds` rounds can still be paired in `field` under H1, H3, H4: `None`
    /// when the field is larger than [`MAX_FIELD`] or the search ran out of budget.
    pub fn completable(&mut self, field: &Field, rounds: u32) -> Option<bool> {
        if field.forbidden.len() != self.n || self.n > MAX_FIELD {
            return None;
        }
        let mut forb = [0u16; MAX_FIELD];
        let mut byes = [0u8; MAX_FIELD];
        forb[..self.n].copy_from_slice(&field.forbidden);
        byes[..self.n].copy_from_slice(&field.byes);
        self.nodes = 0;
        self.rounds(&forb, &byes, rounds).ok()
    }

    fn key_byes(&self, byes: &[u8; MAX_FIELD]) -> [u8; MAX_FIELD] {
        let m = byes[..self.n].iter().copied().min().unwrap_or(0);
        let mut k = [0u8; MAX_FIELD];
        for (x, &b) in k.iter_mut().zip(&byes[..self.n]) {
            *x = match self.bye_rule {
                ByeChoice::LowestWithoutBye => u8::from(b > 0 || m > 0),
                ByeChoice::LowestFewestByes => b - m,
            };
        }
        k
    }

    fn eligible(&self, byes: &[u8; MAX_FIELD], p: usize) -> bool {
        let m = byes[..self.n].iter().copied().min().unwrap_or(0);
        match self.bye_rule {
            ByeChoice::LowestWithoutBye => byes[p] == 0 || m > 0,
            ByeChoice::LowestFewestByes => byes[p] == m,
        }
    }

    /// Can `rounds` more rounds be paired from here?
    fn rounds(
        &mut self,
        forb: &[u16; MAX_FIELD],
        byes: &[u8; MAX_FIELD],
        rounds: u32,
    ) -> Result<bool, OutOfBudget> {
        if rounds == 0 || self.n < 2 {
            return Ok(true);
        }
        let key = (*forb, self.key_byes(byes), rounds);
        if self.failed.contains(&key) {
            return Ok(false);
        }
        let all: u16 = if self.n == 16 {
            u16::MAX
        } else {
            (1u16 << self.n) - 1
        };
        // Necessary: everyone still has an opponent for each round left, but for byes (one
        // per round when the field is odd).
        let short: u32 = (0..self.n)
            .map(|v| rounds.saturating_sub((all & !forb[v] & !(1u16 << v)).count_ones()))
            .sum();
        let byes_left = if self.n % 2 == 1 { rounds } else { 0 };
        if short > byes_left {
            self.failed.insert(key);
            return Ok(false);
        }
        let mut forb2 = *forb;
        let found = if self.n % 2 == 1 {
            let mut ok = false;
            for p in 0..self.n {
                if !self.eligible(byes, p) {
                    continue;
                }
                let mut byes2 = *byes;
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
        forb: &mut [u16; MAX_FIELD],
        byes: &[u8; MAX_FIELD],
        rounds: u32,
    ) -> Result<bool, OutOfBudget> {
        self.nodes += 1;
        if self.nodes > BUDGET {
            return Err(OutOfBudget);
        }
        if free == 0 {
            let next = *forb;
            return self.rounds(&next, byes, rounds - 1);
        }
        // The player with the fewest possible opponents first; the opponents likewise.
        let options =
            |x: usize, forb: &[u16; MAX_FIELD]| (free & !forb[x] & !(1u16 << x)).count_ones();
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
        let mut cand = [(0u32, 0usize); MAX_FIELD];
        let mut len = 0;
        let mut bits = rest & !forb[v];
        while bits != 0 {
            let u = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cand[len] = (options(u, forb), u);
            len += 1;
        }
        cand[..len].sort_unstable();
        for &(_, u) in &cand[..len] {
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
