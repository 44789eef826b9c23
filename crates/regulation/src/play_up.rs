//! 越级 (playing up, issue 46): a child entering an age group older than his own. His own
//! group is the youngest of the regulation's age groups whose sex and age rules admit him; an
//! age group is a section whose age rule has an upper bound (`born_from`, or `max_age`). A
//! regulation says whether playing up is allowed and with what:
//!
//! ```toml
//! [registration.play_up]
//! allowed = true                      # false: 不得越级 (default: allowed)
//! evidence = ["pledge"]               # every one of these
//! flags = ["coach_letter"]            # every one of these conditions
//! min_grade = "业余3段"               # at least this grade of the [grades] scale
//! label = "须持教练推荐信"             # the clause's words, shown in refusals and summaries
//! ```
//!
//! Without `[registration.play_up]` the age rules alone decide (the regulations written before
//! it keep their meaning).

use crate::entry::{age_on, EntryFacts};
use crate::model::{Evidence, Regulation, Section};
use arbiter_types::Sex;
use chrono::{Datelike, NaiveDate};
use serde::Deserialize;

fn yes() -> bool {
    true
}

/// `[registration.play_up]`: whether, and with what, a child may enter an older age group.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayUp {
    /// false: 不得越级.
    #[serde(default = "yes")]
    pub allowed: bool,
    /// Every one of these documents.
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    /// Every one of these conditions (flags, as a section's `require_flags`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// At least this grade of the `[grades]` scale.
    #[serde(default)]
    pub min_grade: Option<String>,
    /// `min_grade` read on the scale (filled by validation).
    #[serde(skip)]
    pub grade: Option<crate::grades::Grade>,
    /// The clause's words (「须持教练推荐信」); unset: the conditions in Chinese.
    #[serde(default)]
    pub label: Option<String>,
}

impl PlayUp {
    /// What playing up needs, in Chinese (「须提供承诺书、教练推荐信，棋力业余3段及以上」), or
    /// 「不得越级」.
    pub fn zh(&self, reg: &Regulation) -> String {
        if !self.allowed {
            return "不得越级".into();
        }
        if let Some(l) = &self.label {
            return l.clone();
        }
        let mut parts: Vec<String> = self
            .evidence
            .iter()
            .map(|e| e.zh().to_string())
            .chain(self.flags.iter().map(|f| reg.flag_label(f)))
            .collect();
        if let Some(g) = &self.min_grade {
            parts.push(format!("棋力{g}及以上"));
        }
        if parts.is_empty() {
            "可越级，无其他条件".into()
        } else {
            format!("须{}", parts.join("、"))
        }
    }

    /// What playing up needs, in English.
    pub fn en(&self) -> String {
        if !self.allowed {
            return "not allowed".into();
        }
        let mut parts: Vec<String> = self
            .evidence
            .iter()
            .map(|e| e.name().to_string())
            .chain(self.flags.iter().cloned())
            .collect();
        if let Some(g) = &self.min_grade {
            parts.push(format!("grade {g} or above"));
        }
        if parts.is_empty() {
            "allowed, no further condition".into()
        } else {
            format!("requires {}", parts.join(", "))
        }
    }

    /// Whether the entry brings what playing up needs.
    pub fn met_by(&self, e: &EntryFacts) -> bool {
        self.allowed
            && self.evidence.iter().all(|ev| e.evidence.contains(ev))
            && self.flags.iter().all(|f| e.flags.contains(f))
            && self
                .grade
                .as_ref()
                .is_none_or(|min| e.grade.as_ref().is_some_and(|g| g.rank >= min.rank))
    }
}

/// Why an entry playing up is refused: the section entered, the child's own group, his age
/// on the regulation's day, and what the regulation asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayingUp {
    /// The section entered (its name).
    pub section: String,
    /// His own age group (its name).
    pub own: String,
    pub age: i32,
    pub on: NaiveDate,
    /// Whether the regulation allows playing up at all (then a condition is unmet).
    pub allowed: bool,
    /// The regulation's rule in Chinese and English ([`PlayUp::zh`], [`PlayUp::en`]).
    pub rule_zh: String,
    pub rule_en: String,
}

impl Section {
    /// The earliest birth date the section's age rule admits (its upper age limit as a day):
    /// `born_from`, or the day after one turning `max_age + 1` on `age_on`; the later of
    /// both. `None`: no upper age limit (not an age group).
    pub fn oldest_birth(&self) -> Option<NaiveDate> {
        let el = &self.eligibility;
        let by_age = match (el.max_age, el.age_on) {
            (Some(max), Some(on)) => i32::try_from(max)
                .ok()
                .and_then(|m| m.checked_add(1))
                .and_then(|m| on.year().checked_sub(m))
                .and_then(|y| {
                    on.with_year(y)
                        .or_else(|| NaiveDate::from_ymd_opt(y, on.month(), 28))
                })
                .and_then(|d| d.succ_opt()),
            _ => None,
        };
        match (el.born_from, by_age) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether the section's sex and age rules admit a person of this sex born on this day
    /// (an unknown fact fails a rule that needs it).
    pub fn admits_person(&self, sex: Option<Sex>, birth: Option<NaiveDate>) -> bool {
        let el = &self.eligibility;
        if el.sex.is_some_and(|want| sex != Some(want)) {
            return false;
        }
        let needs_birth = el.born_from.is_some()
            || el.born_to.is_some()
            || el.min_age.is_some()
            || el.max_age.is_some();
        if !needs_birth {
            return true;
        }
        let Some(b) = birth else { return false };
        if el.born_from.is_some_and(|f| b < f) || el.born_to.is_some_and(|t| b > t) {
            return false;
        }
        if let Some(on) = el.age_on {
            let age = i64::from(age_on(b, on));
            if el.min_age.is_some_and(|m| age < i64::from(m))
                || el.max_age.is_some_and(|m| age > i64::from(m))
            {
                return false;
            }
        }
        true
    }
}

impl Regulation {
    /// A person's own age group: the youngest of the age groups ([`Section::oldest_birth`])
    /// whose sex and age rules admit him; of equally young groups, the first in the file.
    pub fn own_group(&self, sex: Option<Sex>, birth: Option<NaiveDate>) -> Option<&Section> {
        let mut best: Option<(&Section, NaiveDate)> = None;
        for s in &self.sections {
            let Some(k) = s.oldest_birth() else { continue };
            if s.admits_person(sex, birth) && best.is_none_or(|(_, b)| k > b) {
                best = Some((s, k));
            }
        }
        best.map(|(s, _)| s)
    }

    /// Whether a regulation has two age groups of which one admits some children the other
    /// does too while being older: playing up is possible there.
    pub fn has_nested_age_groups(&self) -> bool {
        let groups: Vec<(&Section, NaiveDate)> = self
            .sections
            .iter()
            .filter_map(|s| s.oldest_birth().map(|k| (s, k)))
            .collect();
        groups.iter().any(|(a, ka)| {
            groups.iter().any(|(b, kb)| {
                // `b` older than `a`, and a child of `a`'s youngest bound sits in `b` too.
                kb < ka
                    && match (a.eligibility.sex, b.eligibility.sex) {
                        (Some(x), Some(y)) => x == y,
                        _ => true,
                    }
                    && b.eligibility.born_to.is_none_or(|t| t >= *ka)
            })
        })
    }

    /// 越级: the refusal of an entry into `section` when it is older than the child's own age
    /// group and the regulation's `[registration.play_up]` does not let him (not allowed, or
    /// a condition unmet). Without `play_up` the age rules alone decide.
    pub fn check_play_up(&self, section: &str, e: &EntryFacts) -> Result<(), Box<PlayingUp>> {
        let Some(rule) = &self.registration.play_up else {
            return Ok(());
        };
        let Some(sec) = self.section(section) else {
            return Ok(());
        };
        let (Some(k), Some(birth)) = (sec.oldest_birth(), e.birth_date) else {
            return Ok(());
        };
        let Some(own) = self.own_group(e.sex, e.birth_date) else {
            return Ok(());
        };
        let older = own.oldest_birth().is_some_and(|ko| k < ko);
        if !older || rule.met_by(e) {
            return Ok(());
        }
        let on = own
            .eligibility
            .age_date
            .or(own.eligibility.age_on)
            .unwrap_or(self.event.start);
        Err(Box::new(PlayingUp {
            section: sec.name.clone(),
            own: own.name.clone(),
            age: age_on(birth, on),
            on,
            allowed: rule.allowed,
            rule_zh: rule.zh(self),
            rule_en: rule.en(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REG: &str = r#"
[event]
name = "少儿赛"
start = 2026-07-10
end = 2026-07-11

[registration]
play_up = { allowed = false }

[[sections]]
id = "u10"
name = "10岁以下组"
format = { kind = "swiss", rounds = 5 }
eligibility = { max_age = 10, age_on = 2026-01-01 }

[[sections]]
id = "u8"
name = "8岁以下组"
format = { kind = "swiss", rounds = 5 }
eligibility = { max_age = 8, age_on = 2026-01-01 }

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }
"#;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).expect("date")
    }

    /// Ages as `max_age` on `age_on`: 8 on 2026-01-01 at most is born on 2017-01-02 or later;
    /// a child of 8 plays in 8岁以下组, and 10岁以下组 is playing up, refused naming his age.
    #[test]
    fn own_group_by_max_age_and_playing_up_refused() {
        let reg = crate::parse(REG, "t.toml").expect("valid");
        let u8 = reg.section("u8").expect("u8");
        assert_eq!(u8.oldest_birth(), Some(d(2017, 1, 2)));
        assert_eq!(reg.section("open").and_then(Section::oldest_birth), None);
        let facts = EntryFacts {
            birth_date: Some(d(2017, 1, 2)),
            ..EntryFacts::default()
        };
        let own = reg.own_group(None, facts.birth_date).map(|s| s.id.as_str());
        assert_eq!(own, Some("u8"));
        assert!(reg.check_play_up("u8", &facts).is_ok());
        // 公开组 has no age rule: not an age group, so not playing up.
        assert!(reg.check_play_up("open", &facts).is_ok());
        let no = reg.check_play_up("u10", &facts).expect_err("playing up");
        assert_eq!(
            (no.own.as_str(), no.age, no.allowed),
            ("8岁以下组", 8, false)
        );
        assert_eq!(no.on, d(2026, 1, 1));
        // A day older, he is 9: 10岁以下组 is his own.
        let nine = Some(d(2017, 1, 1));
        let own = reg.own_group(None, nine).map(|s| s.id.as_str());
        assert_eq!(own, Some("u10"));
        assert!(reg.has_nested_age_groups());
    }
}
