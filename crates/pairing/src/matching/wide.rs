//! Fixed-width two's-complement integers used as exact lexicographic matching weights.

use std::cmp::Ordering;

/// Arithmetic a matching weight needs: exact, totally ordered, closed under + and −, and
/// halving of even values.
pub trait Weight: Copy + Ord + std::hash::Hash + std::fmt::Debug + Send + Sync {
    fn zero() -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    /// Arithmetic shift right by one (exact on even values).
    fn half(self) -> Self;
    /// `self * m + a` for non-negative `self` (used to build mixed-radix weights).
    fn mul_add(self, m: u64, a: u64) -> Self;
}

impl Weight for i64 {
    #[inline(always)]
    fn zero() -> Self {
        0
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn half(self) -> Self {
        self >> 1
    }
    fn mul_add(self, m: u64, a: u64) -> Self {
        self * m as i64 + a as i64
    }
}

/// A signed integer of `64 * L` bits, little-endian limbs, two's complement.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const L: usize>(pub [u64; L]);

impl<const L: usize> std::fmt::Debug for Wide<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Wide{:x?}", self.0)
    }
}

impl<const L: usize> Ord for Wide<L> {
    #[inline(always)]
    fn cmp(&self, o: &Self) -> Ordering {
        let (a, b) = (self.0[L - 1] as i64, o.0[L - 1] as i64);
        match a.cmp(&b) {
            Ordering::Equal => {}
            ord => return ord,
        }
        for i in (0..L - 1).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => {}
                ord => return ord,
            }
        }
        Ordering::Equal
    }
}
impl<const L: usize> PartialOrd for Wide<L> {
    #[inline(always)]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<const L: usize> Weight for Wide<L> {
    #[inline(always)]
    fn zero() -> Self {
        Wide([0; L])
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // The carry as a bool: the compiler then emits one add-with-carry chain.
        let mut r = [0u64; L];
        let mut carry = false;
        for (i, slot) in r.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *slot = s2;
            carry = c1 | c2;
        }
        Wide(r)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        let mut r = [0u64; L];
        let mut borrow = false;
        for (i, slot) in r.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
            *slot = d2;
            borrow = b1 | b2;
        }
        Wide(r)
    }
    #[inline(always)]
    fn half(self) -> Self {
        let mut r = [0u64; L];
        for (i, slot) in r.iter_mut().enumerate() {
            let hi = if i + 1 < L {
                self.0[i + 1] << 63
            } else {
                ((self.0[i] as i64) >> 63) as u64 & (1 << 63)
            };
            *slot = (self.0[i] >> 1) | hi;
        }
        Wide(r)
    }
    fn mul_add(self, m: u64, a: u64) -> Self {
        let mut r = [0u64; L];
        let mut carry = u128::from(a);
        for (i, slot) in r.iter_mut().enumerate() {
            let v = u128::from(self.0[i]) * u128::from(m) + carry;
            *slot = v as u64;
            carry = v >> 64;
        }
        Wide(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: i128) -> Wide<2> {
        Wide([v as u64, (v >> 64) as u64])
    }

    #[test]
    fn wide_matches_i128() {
        let vals = [
            0i128,
            1,
            -1,
            7,
            -8,
            1 << 70,
            -(1 << 70) + 3,
            i64::MAX as i128 * 5,
        ];
        for &a in &vals {
            assert_eq!(w(a).half(), w(a >> 1), "half {a}");
            for &b in &vals {
                assert_eq!(w(a).add(w(b)), w(a.wrapping_add(b)));
                assert_eq!(w(a).sub(w(b)), w(a.wrapping_sub(b)));
                assert_eq!(w(a).cmp(&w(b)), a.cmp(&b), "{a} vs {b}");
            }
        }
        assert_eq!(w(1 << 70).mul_add(1000, 7), w((1i128 << 70) * 1000 + 7));
    }
}
