//! 居民身份证号码 (resident ID number, GB 11643-1999): 18 characters, 17 digits plus a check
//! character. Only the 18-character form is accepted (15-digit numbers were withdrawn in 2013).
//!
//! Masking shows the first 6 characters (the address code) and the last 2, hiding the birth
//! date and sequence: `320583**********3X`.

use crate::Sex;
use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Weights of the 17 body digits (GB 11643-1999 §6.2).
const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
/// Check character for each value of the weighted sum mod 11.
const CHECK: &[u8; 11] = b"10X98765432";

/// A valid 18-character ID number; the check character is stored upper-case.
///
/// `Display` and `as_str` give the full number (the arbiter's own records, exports);
/// `Debug` gives only the masked form, so `{:?}` in a log line, a panic or an error message
/// never leaks it: `IdNumber("320583**********3X")`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IdNumber(String);

/// Why a text is not an ID number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdNumberError {
    #[error("身份证号应为18位, 实为{0}位 (ID number must have 18 characters, found {0})")]
    Length(usize),
    #[error("身份证号第{position}位 `{found}` 不是数字 (character {position} is not a digit)")]
    NotDigit { position: usize, found: char },
    #[error("身份证号出生日期 `{0}` 不是有效日期 (birth date is not a real date)")]
    BirthDate(String),
    /// A real date, but before 1900-01-01: no living player's.
    #[error("身份证号出生日期 {0} 早于 1900-01-01, 不可能 (birth date before 1900)")]
    BirthBefore1900(NaiveDate),
    #[error("身份证号校验码应为 `{expected}`, 实为 `{found}` (wrong check character)")]
    CheckDigit { expected: char, found: char },
}

/// The check character for 17 body digits (`None` if they are not 17 ASCII digits).
pub fn id_check_char(body: &str) -> Option<char> {
    let b = body.as_bytes();
    if b.len() != 17 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let sum: u32 = b
        .iter()
        .zip(WEIGHTS)
        .map(|(d, w)| u32::from(d - b'0') * w)
        .sum();
    Some(CHECK[(sum % 11) as usize] as char)
}

impl IdNumber {
    pub fn parse(s: &str) -> Result<Self, IdNumberError> {
        let t = s.trim();
        let chars: Vec<char> = t.chars().collect();
        if chars.len() != 18 {
            return Err(IdNumberError::Length(chars.len()));
        }
        for (i, c) in chars[..17].iter().enumerate() {
            if !c.is_ascii_digit() {
                return Err(IdNumberError::NotDigit {
                    position: i + 1,
                    found: *c,
                });
            }
        }
        let last = chars[17].to_ascii_uppercase();
        if !(last.is_ascii_digit() || last == 'X') {
            return Err(IdNumberError::NotDigit {
                position: 18,
                found: chars[17],
            });
        }
        let body: String = chars[..17].iter().collect();
        let date = &body[6..14];
        if birth_from(date).is_none() {
            return Err(match real_date(date) {
                Some(d) => IdNumberError::BirthBefore1900(d),
                None => IdNumberError::BirthDate(date.to_string()),
            });
        }
        let expected = id_check_char(&body).ok_or(IdNumberError::Length(chars.len()))?;
        if expected != last {
            return Err(IdNumberError::CheckDigit {
                expected,
                found: chars[17],
            });
        }
        Ok(IdNumber(format!("{body}{last}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Birth date from positions 7–14. Always a real date on or after 1900-01-01; whether it
    /// lies in the future is for the caller to judge (it needs a clock).
    pub fn birth_date(&self) -> NaiveDate {
        // Validated at construction; the fallback is unreachable but never panics.
        birth_from(&self.0[6..14]).unwrap_or(NaiveDate::MIN)
    }

    /// Sex from the 17th digit: odd male, even female.
    pub fn sex(&self) -> Sex {
        let d = self.0.as_bytes()[16] - b'0';
        if d % 2 == 1 {
            Sex::Male
        } else {
            Sex::Female
        }
    }

    /// The 6-digit administrative division code of the place of first registration.
    pub fn region_code(&self) -> &str {
        &self.0[..6]
    }

    /// First 6 and last 2 characters shown: `320583**********3X`.
    pub fn masked(&self) -> String {
        format!("{}{}{}", &self.0[..6], "*".repeat(10), &self.0[16..])
    }
}

/// The birth date of positions 7–14, if it is a real date on or after 1900-01-01.
fn birth_from(yyyymmdd: &str) -> Option<NaiveDate> {
    real_date(yyyymmdd).filter(|d| d.year() >= 1900)
}

/// `yyyymmdd` as a calendar date, whatever the year.
fn real_date(yyyymmdd: &str) -> Option<NaiveDate> {
    let y: i32 = yyyymmdd.get(0..4)?.parse().ok()?;
    let m: u32 = yyyymmdd.get(4..6)?.parse().ok()?;
    let d: u32 = yyyymmdd.get(6..8)?.parse().ok()?;
    NaiveDate::from_ymd_opt(y, m, d)
}

impl FromStr for IdNumber {
    type Err = IdNumberError;
    fn from_str(s: &str) -> Result<Self, IdNumberError> {
        IdNumber::parse(s)
    }
}

impl fmt::Debug for IdNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("IdNumber").field(&self.masked()).finish()
    }
}

impl fmt::Display for IdNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for IdNumber {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for IdNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        IdNumber::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent check-character computation: ISO 7064 MOD 11-2 done the textbook way,
    /// weight of position i (from the right, check = position 1) is 2^(i-1) mod 11, and the
    /// check value is (12 - sum mod 11) mod 11, with 10 written `X`.
    fn reference_check(body: &str) -> char {
        let mut sum = 0u64;
        for (k, c) in body.chars().rev().enumerate() {
            let weight = (1u64 << (k + 1)) % 11;
            sum += u64::from(c.to_digit(10).unwrap_or(0)) * weight;
        }
        let v = (12 - sum % 11) % 11;
        if v == 10 {
            'X'
        } else {
            char::from_digit(v as u32, 10).unwrap_or('?')
        }
    }

    fn make(body: &str) -> String {
        format!("{body}{}", reference_check(body))
    }

    #[test]
    fn reference_and_table_agree_on_many_bodies() {
        let mut x: u64 = 12345;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let body = format!("{:017}", x % 100_000_000_000_000_000);
            assert_eq!(id_check_char(&body), Some(reference_check(&body)), "{body}");
        }
    }

    #[test]
    fn known_public_example_is_valid() {
        // The sample number printed in GB 11643-1999 itself.
        let id = IdNumber::parse("11010519491231002X").unwrap();
        assert_eq!(
            id.birth_date(),
            NaiveDate::from_ymd_opt(1949, 12, 31).unwrap()
        );
        assert_eq!(id.sex(), Sex::Female);
        assert_eq!(id.region_code(), "110105");
    }

    #[test]
    fn valid_numbers_derive_birth_and_sex() {
        let s = make("32058319850612123");
        let id: IdNumber = s.parse().unwrap();
        assert_eq!(
            id.birth_date(),
            NaiveDate::from_ymd_opt(1985, 6, 12).unwrap()
        );
        assert_eq!(id.sex(), Sex::Male);
        assert_eq!(id.to_string(), s);
        let f: IdNumber = make("32058320000229124").parse().unwrap();
        assert_eq!(f.sex(), Sex::Female);
        assert_eq!(
            f.birth_date(),
            NaiveDate::from_ymd_opt(2000, 2, 29).unwrap()
        );
    }

    #[test]
    fn lowercase_x_is_accepted_and_normalised() {
        // Find a body whose check character is X.
        let body = (0..1000)
            .map(|n| format!("32058319900101{:03}", n))
            .find(|b| reference_check(b) == 'X')
            .unwrap();
        let id = IdNumber::parse(&format!("{body}x")).unwrap();
        assert!(id.as_str().ends_with('X'));
        assert_eq!(
            id.masked(),
            format!("320583{}{}X", "*".repeat(10), &body[16..])
        );
    }

    #[test]
    fn wrong_check_digit_is_refused() {
        let good = make("32058319850612123");
        let last = good.chars().last().unwrap();
        let wrong = if last == '0' { '1' } else { '0' };
        let bad = format!("{}{wrong}", &good[..17]);
        match IdNumber::parse(&bad) {
            Err(IdNumberError::CheckDigit { expected, .. }) => assert_eq!(expected, last),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn impossible_dates_are_refused() {
        for body in [
            "32058319990230123",
            "32058319991301123",
            "32058319990000123",
            "32058318990229123",
        ] {
            let s = make(body);
            assert!(
                matches!(IdNumber::parse(&s), Err(IdNumberError::BirthDate(_))),
                "{s}"
            );
        }
    }

    /// A real date before 1900 says so, not that the date is not real.
    #[test]
    fn a_birth_before_1900_is_named_as_such() {
        let s = make("32058318991231123");
        let e = IdNumber::parse(&s).unwrap_err();
        assert_eq!(
            e,
            IdNumberError::BirthBefore1900(NaiveDate::from_ymd_opt(1899, 12, 31).unwrap())
        );
        assert!(e.to_string().contains("1900"), "{e}");
        assert!(e.to_string().contains("1899-12-31"), "{e}");
    }

    #[test]
    fn shape_errors_name_the_problem() {
        assert_eq!(IdNumber::parse("123"), Err(IdNumberError::Length(3)));
        assert!(matches!(
            IdNumber::parse("3205831985A612123X"),
            Err(IdNumberError::NotDigit {
                position: 11,
                found: 'A'
            })
        ));
        let msg = IdNumber::parse("123").unwrap_err().to_string();
        assert!(msg.contains("18位"), "{msg}");
    }

    #[test]
    fn masked_keeps_first_six_and_last_two() {
        let id: IdNumber = make("32058319850612123").parse().unwrap();
        let m = id.masked();
        assert_eq!(m.len(), 18);
        assert!(m.starts_with("320583**********"));
        assert_eq!(&m[16..], &id.as_str()[16..]);
    }

    #[test]
    fn debug_is_masked_display_is_full() {
        let full = make("32058319850612123");
        let id: IdNumber = full.parse().unwrap();
        assert_eq!(id.to_string(), full);
        let dbg = format!("{id:?}");
        assert_eq!(dbg, format!("IdNumber(\"{}\")", id.masked()));
        assert!(!dbg.contains(&full[6..16]), "{dbg}");
        // Nested in derived Debug output (an Option, a struct, a pretty print) too.
        let nested = format!("{:?} {:#?}", Some(&id), vec![id.clone()]);
        assert!(!nested.contains(&full[6..16]), "{nested}");
        assert!(nested.contains("320583**********"), "{nested}");
    }

    #[test]
    fn serde_round_trip_validates() {
        let id: IdNumber = make("32058319850612123").parse().unwrap();
        let j = serde_json::to_string(&id).unwrap();
        assert_eq!(serde_json::from_str::<IdNumber>(&j).unwrap(), id);
        let good = make("32058319850612123");
        let wrong = if good.ends_with('0') { '1' } else { '0' };
        let bad = format!("\"{}{wrong}\"", &good[..17]);
        assert!(serde_json::from_str::<IdNumber>(&bad).is_err());
        assert!(serde_json::from_str::<IdNumber>("\"32058319990230123X\"").is_err());
    }
}
