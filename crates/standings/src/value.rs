//! Exact tie-break values: scores (half-points), integers (ratings) and, where a
//! colour-dependent scoring table makes a Sonneborn-Berger share fractional, exact fractions.

use arbiter_types::Score;
use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// The value of one tie-break for one player. Never floating point; comparisons are exact.
#[derive(Debug, Clone, Copy)]
pub enum TbValue {
    /// A score-like value (对手分, 累进分, Buchholz, …) in exact half-points.
    Score(Score),
    /// A count (胜局, 犯规, 后走局数) or a rating (ARO, TPR).
    Int(i64),
    /// An exact fraction `num / den` (den > 0), reduced; only for Sonneborn-Berger shares that
    /// are not whole half-points.
    Fraction { num: i64, den: i64 },
}

impl TbValue {
    /// The value as a reduced fraction (numerator, denominator > 0).
    pub fn ratio(self) -> (i64, i64) {
        match self {
            TbValue::Score(s) => reduce(s.halves(), 2),
            TbValue::Int(i) => (i, 1),
            TbValue::Fraction { num, den } => (num, den),
        }
    }

    /// A fraction, normalised to [`TbValue::Score`] when it is a whole number of half-points.
    pub fn from_ratio(num: i64, den: i64) -> TbValue {
        let (n, d) = reduce(num, den);
        match d {
            1 => TbValue::Score(Score::from_halves(2 * n)),
            2 => TbValue::Score(Score::from_halves(n)),
            _ => TbValue::Fraction { num: n, den: d },
        }
    }

    /// `Some` when the value is a whole number of half-points.
    pub fn as_score(self) -> Option<Score> {
        let (n, d) = self.ratio();
        match d {
            1 => Some(Score::from_halves(2 * n)),
            2 => Some(Score::from_halves(n)),
            _ => None,
        }
    }
}

/// Serialises exactly: a whole value as a JSON integer (`4`, `2339`), a whole number of
/// half-points as a number with one decimal (`4.5`, exact in binary floating point), and any
/// other fraction — only a Sonneborn-Berger share under a colour-dependent draw scale such as
/// 5-2-3-0 — as the string `"num/den"` in lowest terms (`"22/5"`), never as a rounded float.
/// Ratings (ARO, APRO, TPR) are already whole numbers, rounded as FIDE rounds them.
impl Serialize for TbValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.ratio() {
            (n, 1) => s.serialize_i64(n),
            // n / 2 with n odd is exactly representable (|n| < 2^53 for any real table).
            (n, 2) => s.serialize_f64(n as f64 / 2.0),
            (n, d) => s.serialize_str(&format!("{n}/{d}")),
        }
    }
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a.max(1)
}

fn reduce(num: i64, den: i64) -> (i64, i64) {
    let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
    if den == 0 {
        return (0, 1);
    }
    let g = gcd(num, den);
    (num / g, den / g)
}

impl PartialEq for TbValue {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for TbValue {}
impl PartialOrd for TbValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for TbValue {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (TbValue::Score(a), TbValue::Score(b)) => a.halves().cmp(&b.halves()),
            (TbValue::Int(a), TbValue::Int(b)) => a.cmp(b),
            _ => {
                let (an, ad) = self.ratio();
                let (bn, bd) = other.ratio();
                (i128::from(an) * i128::from(bd)).cmp(&(i128::from(bn) * i128::from(ad)))
            }
        }
    }
}

impl fmt::Display for TbValue {
    /// Scores print like `4.5`, integers like `2339`, other fractions exactly (`9/4` style is
    /// avoided when a short decimal is exact: `2.25`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TbValue::Score(s) => s.fmt(f),
            TbValue::Int(i) => i.fmt(f),
            TbValue::Fraction { num, den } => {
                // Exact decimal when den has only factors 2 and 5 (at most 6 digits).
                let mut d = den;
                let mut digits = 0u32;
                while digits < 6 && (d % 2 == 0 || d % 5 == 0) {
                    if d % 2 == 0 {
                        d /= 2;
                    } else {
                        d /= 5;
                    }
                    digits += 1;
                }
                if d == 1 {
                    let scale = 10i128.pow(digits);
                    let scaled = i128::from(num) * scale / i128::from(den);
                    let sign = if scaled < 0 { "-" } else { "" };
                    let a = scaled.abs();
                    let int = a / scale;
                    let frac = format!("{:0width$}", a % scale, width = digits as usize);
                    write!(f, "{sign}{int}.{}", frac.trim_end_matches('0'))
                } else {
                    write!(f, "{num}/{den}")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_normalise_and_compare_exactly() {
        assert!(matches!(TbValue::from_ratio(9, 2), TbValue::Score(s) if s.halves() == 9));
        let q = TbValue::from_ratio(9, 4);
        assert_eq!(q.to_string(), "2.25");
        assert_eq!(TbValue::from_ratio(1, 3).to_string(), "1/3");
        assert!(q > TbValue::Int(2));
        assert!(q < TbValue::Score(Score::from_halves(5)));
        assert_eq!(TbValue::from_ratio(4, 2), TbValue::Int(2));
    }
}
