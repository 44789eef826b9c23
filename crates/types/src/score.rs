//! Exact scores and scoring tables (A1).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

/// An exact score, stored as a whole number of half-points (1.5 points = 3).
///
/// Never floating point: every scoring table in use (2/1/0, 3-1-2-0, 5-2-3-0, 1/½/0) is a
/// multiple of ½. Serialised as a JSON number with at most one fractional digit (`2`, `1.5`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i64);

impl Score {
    pub const ZERO: Score = Score(0);

    pub const fn from_halves(h: i64) -> Self {
        Score(h)
    }
    pub const fn points(p: i64) -> Self {
        Score(p * 2)
    }
    pub const fn halves(self) -> i64 {
        self.0
    }
    pub fn is_whole(self) -> bool {
        self.0 % 2 == 0
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0)
    }
}
impl Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0)
    }
}
impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}
impl AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0
    }
}
impl SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0
    }
}
impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        Score(iter.map(|s| s.0).sum())
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(2) {
            write!(f, "{sign}{}", a / 2)
        } else {
            write!(f, "{sign}{}.5", a / 2)
        }
    }
}

/// Error for a text or number that is not a multiple of ½.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a score (a whole number or a number ending in .5, e.g. 2, 1.5)")]
pub struct ScoreParseError(pub String);

impl FromStr for Score {
    type Err = ScoreParseError;
    fn from_str(s: &str) -> Result<Score, ScoreParseError> {
        let t = s.trim();
        let err = || ScoreParseError(s.to_string());
        let (neg, body) = match t.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, t),
        };
        let halves = if body == "½" {
            1
        } else if let Some(w) = body.strip_suffix('½') {
            w.parse::<i64>().map_err(|_| err())? * 2 + 1
        } else if let Some((w, frac)) = body.split_once('.') {
            let whole: i64 = if w.is_empty() {
                0
            } else {
                w.parse().map_err(|_| err())?
            };
            let frac = frac.trim_end_matches('0');
            match frac {
                "" => whole * 2,
                "5" => whole * 2 + 1,
                _ => return Err(err()),
            }
        } else {
            body.parse::<i64>().map_err(|_| err())? * 2
        };
        if body.is_empty() || body.starts_with('+') {
            return Err(err());
        }
        Ok(Score(if neg { -halves } else { halves }))
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_whole() {
            s.serialize_i64(self.0 / 2)
        } else {
            // Exact: a multiple of 0.5 is exactly representable as f64.
            s.serialize_f64(self.0 as f64 / 2.0)
        }
    }
}

impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Score, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Score;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a score: a whole number or a multiple of 0.5")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Score, E> {
                Ok(Score::points(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Score, E> {
                i64::try_from(v)
                    .map(Score::points)
                    .map_err(|_| E::custom("score too large"))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Score, E> {
                let h = v * 2.0;
                if h.fract() != 0.0 || !h.is_finite() || h.abs() > 1e15 {
                    return Err(E::custom(format!("{v} is not a multiple of 0.5")));
                }
                Ok(Score(h as i64))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Score, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A section's scoring table (A1). The draw score depends on colour (S5: red 2, black 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringTable {
    pub win: Score,
    pub draw_red: Score,
    pub draw_black: Score,
    pub loss: Score,
    pub bye: Score,
    pub forfeit_win: Score,
    pub forfeit_loss: Score,
    pub double_forfeit: Score,
}

impl ScoringTable {
    /// Score for a draw played with the given colour.
    pub fn draw(&self, colour: crate::Colour) -> Score {
        match colour {
            crate::Colour::Red => self.draw_red,
            crate::Colour::Black => self.draw_black,
        }
    }
    /// Half-point byes (TRF `H`) exist only in imported chess files: half of a win.
    pub fn half_bye(&self) -> Score {
        Score(self.win.0 / 2)
    }
}

impl Default for ScoringTable {
    fn default() -> Self {
        ScoringPreset::Cxa.table()
    }
}

/// Named scoring tables of rules.md A1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScoringPreset {
    /// 2/1/1/0, bye 2 (中国象棋协会 2011 13.1).
    #[serde(rename = "cxa")]
    Cxa,
    #[serde(rename = "3-1-0")]
    ThreeOneZero,
    #[serde(rename = "3-1-2-0")]
    ThreeOneTwoZero,
    /// Suzhou S5: win 5, red draw 2, black draw 3, loss 0, bye 5.
    #[serde(rename = "5-2-3-0")]
    FiveTwoThreeZero,
    /// 1 / ½ / 0.
    #[serde(rename = "fide")]
    Fide,
}

impl ScoringPreset {
    pub const ALL: [ScoringPreset; 5] = [
        ScoringPreset::Cxa,
        ScoringPreset::ThreeOneZero,
        ScoringPreset::ThreeOneTwoZero,
        ScoringPreset::FiveTwoThreeZero,
        ScoringPreset::Fide,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ScoringPreset::Cxa => "cxa",
            ScoringPreset::ThreeOneZero => "3-1-0",
            ScoringPreset::ThreeOneTwoZero => "3-1-2-0",
            ScoringPreset::FiveTwoThreeZero => "5-2-3-0",
            ScoringPreset::Fide => "fide",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == s)
    }

    pub fn table(self) -> ScoringTable {
        let (w, dr, db) = match self {
            ScoringPreset::Cxa => (4, 2, 2),
            ScoringPreset::ThreeOneZero => (6, 2, 2),
            ScoringPreset::ThreeOneTwoZero => (6, 2, 4),
            ScoringPreset::FiveTwoThreeZero => (10, 4, 6),
            ScoringPreset::Fide => (2, 1, 1),
        };
        ScoringTable {
            win: Score(w),
            draw_red: Score(dr),
            draw_black: Score(db),
            loss: Score::ZERO,
            bye: Score(w),
            forfeit_win: Score(w),
            forfeit_loss: Score::ZERO,
            double_forfeit: Score::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for (t, h) in [
            ("0", 0),
            ("2", 4),
            ("1.5", 3),
            ("½", 1),
            ("3½", 7),
            ("-0.5", -1),
            ("4.0", 8),
        ] {
            let s: Score = t.parse().unwrap();
            assert_eq!(s.halves(), h, "{t}");
        }
        assert_eq!(Score::from_halves(7).to_string(), "3.5");
        assert_eq!(Score::from_halves(-3).to_string(), "-1.5");
        assert!("1.25".parse::<Score>().is_err());
        assert!("x".parse::<Score>().is_err());
        assert!("".parse::<Score>().is_err());
    }

    #[test]
    fn json_numbers_are_exact() {
        let v = serde_json::to_string(&[Score::from_halves(3), Score::points(5)]).unwrap();
        assert_eq!(v, "[1.5,5]");
        let back: Vec<Score> = serde_json::from_str(&v).unwrap();
        assert_eq!(back, vec![Score::from_halves(3), Score::points(5)]);
        assert!(serde_json::from_str::<Score>("0.3").is_err());
    }

    #[test]
    fn suzhou_table_is_colour_dependent() {
        let t = ScoringPreset::FiveTwoThreeZero.table();
        assert_eq!(t.draw(crate::Colour::Red), Score::points(2));
        assert_eq!(t.draw(crate::Colour::Black), Score::points(3));
        assert_eq!(t.bye, Score::points(5));
    }
}
