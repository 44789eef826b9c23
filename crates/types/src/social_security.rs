//! 社保号 (social-security number, K5): 6–30 letters and digits as the card prints them
//! (often the ID number, sometimes a city's own number); spaces and dashes are ignored,
//! letters kept upper case. Personal data: masked wherever a player's page, a log line or a
//! published export shows it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A social-security number. `Display` and `as_str` give it whole (the arbiter's own
/// records); `Debug` gives only the masked form.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SocialSecurityNo(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("社保号应为 6–30 位数字或字母 (a social-security number is 6–30 letters and digits)")]
pub struct SocialSecurityError;

impl SocialSecurityNo {
    pub fn parse(s: &str) -> Result<Self, SocialSecurityError> {
        let cleaned: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '\u{3000}'))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let n = cleaned.chars().count();
        if !(6..=30).contains(&n) || !cleaned.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(SocialSecurityError);
        }
        Ok(SocialSecurityNo(cleaned))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Like an ID number's: the first 6 and last 2 shown of a long one
    /// (`320583**********3X`), the first 2 and last 2 of a short one (`32****18`).
    pub fn masked(&self) -> String {
        let n = self.0.len();
        let (head, tail) = if n >= 12 { (6, 2) } else { (2, 2) };
        format!(
            "{}{}{}",
            &self.0[..head],
            "*".repeat(n - head - tail),
            &self.0[n - tail..]
        )
    }
}

impl FromStr for SocialSecurityNo {
    type Err = SocialSecurityError;
    fn from_str(s: &str) -> Result<Self, SocialSecurityError> {
        SocialSecurityNo::parse(s)
    }
}

impl fmt::Debug for SocialSecurityNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SocialSecurityNo")
            .field(&self.masked())
            .finish()
    }
}

impl fmt::Display for SocialSecurityNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for SocialSecurityNo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SocialSecurityNo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        SocialSecurityNo::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_masks_like_an_id_number() {
        let s = SocialSecurityNo::parse("3205 8319-9001 0100 1x").unwrap();
        assert_eq!(s.as_str(), "32058319900101001X");
        assert_eq!(s.masked(), "320583**********1X");
        assert_eq!(
            SocialSecurityNo::parse("32000118").unwrap().masked(),
            "32****18"
        );
        assert!(format!("{s:?}").contains("320583**********1X"));
        assert!(!format!("{s:?}").contains("19900101"));
        for bad in ["", "12345", "社保号123456", &"1".repeat(31)] {
            assert!(SocialSecurityNo::parse(bad).is_err(), "{bad}");
        }
    }
}
