//! Mainland China mobile numbers: 11 digits starting `1[3-9]`, optional `+86`/`86` prefix;
//! spaces and dashes are ignored. Stored as the bare 11 digits.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A valid mobile number. `Display` and `as_str` give all 11 digits (the arbiter's own
/// records); `Debug` gives only the masked form (`Phone("138****5678")`), so `{:?}` in a
/// log line, a panic or an error message never leaks it.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Phone(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` 不是有效的手机号 (not a mainland mobile number: 11 digits starting 13–19)")]
pub struct PhoneError(pub String);

impl Phone {
    pub fn parse(s: &str) -> Result<Self, PhoneError> {
        let err = || PhoneError(s.to_string());
        let cleaned: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '\u{3000}'))
            .collect();
        let digits = if let Some(r) = cleaned.strip_prefix("+86") {
            r
        } else if cleaned.len() == 13 {
            cleaned.strip_prefix("86").ok_or_else(err)?
        } else {
            &cleaned
        };
        let b = digits.as_bytes();
        if b.len() != 11
            || !b.iter().all(u8::is_ascii_digit)
            || b[0] != b'1'
            || !(b'3'..=b'9').contains(&b[1])
        {
            return Err(err());
        }
        Ok(Phone(digits.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `138****5678`.
    pub fn masked(&self) -> String {
        format!("{}****{}", &self.0[..3], &self.0[7..])
    }
}

impl FromStr for Phone {
    type Err = PhoneError;
    fn from_str(s: &str) -> Result<Self, PhoneError> {
        Phone::parse(s)
    }
}

impl fmt::Debug for Phone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Phone").field(&self.masked()).finish()
    }
}

impl fmt::Display for Phone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Phone {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Phone {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Phone::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_common_spellings() {
        for s in [
            "13812345678",
            "+86 138 1234 5678",
            "138-1234-5678",
            "8613812345678",
            "+8613812345678",
        ] {
            assert_eq!(Phone::parse(s).unwrap().as_str(), "13812345678", "{s}");
        }
        assert_eq!(Phone::parse("19912345678").unwrap().masked(), "199****5678");
    }

    #[test]
    fn refuses_non_mobile_numbers() {
        for s in [
            "12812345678",
            "1381234567",
            "138123456789",
            "0512-12345678",
            "1381234567a",
            "",
            "+1 13812345678",
        ] {
            assert!(Phone::parse(s).is_err(), "{s}");
        }
    }

    #[test]
    fn masked_hides_middle_four() {
        assert_eq!(Phone::parse("13812345678").unwrap().masked(), "138****5678");
    }

    #[test]
    fn debug_is_masked_display_is_full() {
        let p = Phone::parse("13812345678").unwrap();
        assert_eq!(p.to_string(), "13812345678");
        assert_eq!(format!("{p:?}"), "Phone(\"138****5678\")");
        let nested = format!("{:?} {:#?}", Some(&p), vec![p.clone()]);
        assert!(!nested.contains("1234"), "{nested}");
        assert!(nested.contains("138****5678"), "{nested}");
    }

    #[test]
    fn serde_validates() {
        let p: Phone = serde_json::from_str("\"139-0000-1111\"").unwrap();
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"13900001111\"");
        assert!(serde_json::from_str::<Phone>("\"123\"").is_err());
    }
}
