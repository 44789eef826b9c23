//! A person's particulars as an entry form gives them: name, sex, birth date, ID number
//! (身份证号), phone, 社保号, unit (单位) and association (协会).
//!
//! One value for what registrations, online submissions and the state's player records all
//! carry. In the log it is flattened into its entry (`#[serde(flatten)]`), so the keys stay
//! where they have always been: `"name":…,"sex":…,"birth_date":…` and an absent particular
//! is left out, as before.

use crate::{IdNumber, Phone, Sex, SocialSecurityNo};
use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

/// Name and particulars of one person. Only `name` is always known.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<Sex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birth_date: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_number: Option<IdNumber>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<Phone>,
    /// 社保号 (K5). Absent in older logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub social_security: Option<SocialSecurityNo>,
    /// Work unit / club (单位).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// County / district association (协会, S3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub association: Option<String>,
}

/// Full years of age on `on` for someone born on `born` (the birthday itself counts).
pub fn age_on(born: NaiveDate, on: NaiveDate) -> i32 {
    let mut age = on.year() - born.year();
    if (on.month(), on.day()) < (born.month(), born.day()) {
        age -= 1;
    }
    age
}

impl Person {
    /// A person known by name only.
    pub fn named(name: impl Into<String>) -> Self {
        Person {
            name: name.into(),
            ..Person::default()
        }
    }

    /// Full years of age on `on`; `None` when the birth date is not known.
    pub fn age_on(&self, on: NaiveDate) -> Option<i32> {
        self.birth_date.map(|b| age_on(b, on))
    }

    /// The ID number as a public page may show it (`320583**********3X`); empty when none.
    pub fn id_number_masked(&self) -> String {
        self.id_number
            .as_ref()
            .map(IdNumber::masked)
            .unwrap_or_default()
    }

    /// The phone as a public page may show it; empty when none.
    pub fn phone_masked(&self) -> String {
        self.phone.as_ref().map(Phone::masked).unwrap_or_default()
    }

    /// The 社保号 as a public page may show it; empty when none.
    pub fn social_security_masked(&self) -> String {
        self.social_security
            .as_ref()
            .map(SocialSecurityNo::masked)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).expect("a real date")
    }

    fn full() -> Person {
        Person {
            name: "张三".into(),
            sex: Some(Sex::Male),
            birth_date: Some(date(1990, 3, 7)),
            id_number: Some(IdNumber::parse("11010519491231002X").expect("valid")),
            phone: Some(Phone::parse("13800138000").expect("valid")),
            social_security: Some(SocialSecurityNo::parse("11010519491231002X").expect("valid")),
            unit: Some("天水棋院".into()),
            association: Some("秦州区象棋协会".into()),
        }
    }

    #[test]
    fn keys_are_written_in_the_order_of_the_form_and_absent_ones_left_out() {
        let json = serde_json::to_string(&full()).expect("serialises");
        let keys: Vec<usize> = [
            "\"name\"",
            "\"sex\"",
            "\"birth_date\"",
            "\"id_number\"",
            "\"phone\"",
            "\"social_security\"",
            "\"unit\"",
            "\"association\"",
        ]
        .iter()
        .map(|k| json.find(k).unwrap_or(usize::MAX))
        .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{json}");
        assert_eq!(
            serde_json::to_string(&Person::named("李四")).expect("serialises"),
            r#"{"name":"李四"}"#
        );
        let back: Person = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, full());
    }

    #[test]
    fn age_counts_full_years_and_is_unknown_without_a_birth_date() {
        let p = full();
        assert_eq!(p.age_on(date(2026, 3, 6)), Some(35));
        assert_eq!(p.age_on(date(2026, 3, 7)), Some(36));
        assert_eq!(Person::named("李四").age_on(date(2026, 3, 7)), None);
        assert_eq!(age_on(date(2000, 2, 29), date(2001, 2, 28)), 0);
        assert_eq!(age_on(date(2000, 2, 29), date(2001, 3, 1)), 1);
    }

    #[test]
    fn masked_views_hide_the_middle_and_are_empty_when_absent() {
        let p = full();
        assert_eq!(p.id_number_masked(), "110105**********2X");
        assert!(!p.phone_masked().contains("0013"));
        assert!(!p.social_security_masked().contains("19491231"));
        let none = Person::named("李四");
        assert_eq!(none.id_number_masked(), "");
        assert_eq!(none.phone_masked(), "");
        assert_eq!(none.social_security_masked(), "");
    }
}
