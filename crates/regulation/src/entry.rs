//! Eligibility check of one entry against a section (pure).

use crate::model::{Evidence, Section};
use arbiter_types::Sex;
use chrono::{NaiveDate, NaiveDateTime};
use std::collections::BTreeSet;
use std::fmt;

/// What is known about one entry when it is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryFacts {
    pub birth_date: Option<NaiveDate>,
    pub sex: Option<Sex>,
    /// Unit / association / club; `None` = individual.
    pub unit: Option<String>,
    pub evidence: BTreeSet<Evidence>,
    pub entry_time: Option<NaiveDateTime>,
    /// Entries of the same unit already in this section.
    pub unit_in_section: u32,
    /// Entries of the same unit already in all sections.
    pub unit_overall: u32,
    /// Entries already in this section.
    pub section_total: u32,
    /// Flags such as `local`, `group_member`, `national_master`.
    pub flags: BTreeSet<String>,
    /// 段位/称号 on the regulation's scale ([`crate::Grades::find`]); `None`: none given.
    pub grade: Option<crate::grades::Grade>,
}

/// Why an entry is refused: a stable code and the reason in Chinese and English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub zh: String,
    pub en: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.zh, self.en)
    }
}

fn refuse(code: &'static str, zh: String, en: String) -> Result<(), Refusal> {
    Err(Refusal { code, zh, en })
}

pub use arbiter_types::person::age_on;

impl crate::model::Category {
    /// Whether a player with these facts belongs to this category (every given test holds;
    /// an unknown birth date or sex fails a test that needs it).
    pub fn matches(&self, e: &EntryFacts) -> bool {
        if let Some(sex) = self.sex {
            if e.sex != Some(sex) {
                return false;
            }
        }
        if self.born_from.is_some() || self.born_to.is_some() {
            let Some(b) = e.birth_date else { return false };
            if self.born_from.is_some_and(|f| b < f) || self.born_to.is_some_and(|t| b > t) {
                return false;
            }
        }
        self.flag.as_ref().is_none_or(|f| e.flags.contains(f))
    }
}

impl Section {
    /// T7: whether one more entry fits the whole event's cap, given `event_total` entries
    /// already in the event (all sections).
    pub fn check_event_cap(&self, event_total: u32) -> Result<(), Refusal> {
        if let Some(cap) = self.entries.event_cap {
            if event_total >= cap {
                return refuse(
                    "event_full",
                    format!("本次比赛报名已满 {cap} 人"),
                    format!("the event is full ({cap} entries)"),
                );
            }
        }
        Ok(())
    }

    /// Whether `e` may enter this section, by the regulation's rules. Call on a validated
    /// regulation (inherited registration limits are filled in by `parse`).
    pub fn check_entry(&self, e: &EntryFacts) -> Result<(), Refusal> {
        let el = &self.eligibility;
        let en = &self.entries;
        if let (Some(deadline), Some(t)) = (en.deadline, e.entry_time) {
            if t > deadline {
                return refuse(
                    "late",
                    format!("报名时间 {t} 晚于截止时间 {deadline}"),
                    format!("entered at {t}, after the deadline {deadline}"),
                );
            }
        }
        if let Some(cap) = en.cap {
            if e.section_total >= cap {
                return refuse(
                    "section_full",
                    format!("本组报名已满 {cap} 人"),
                    format!("the section is full ({cap} entries)"),
                );
            }
        } else if self.format.kind == crate::FormatKind::Knockout
            && e.section_total >= crate::MAX_BRACKET
        {
            // A plain knockout puts every entry in one bracket, of at most MAX_BRACKET.
            let max = crate::MAX_BRACKET;
            return refuse(
                "section_full",
                format!("本组为淘汰赛，已达最大对阵表的 {max} 人"),
                format!("the section is a knockout and holds {max} players, the largest bracket"),
            );
        } else if e.section_total >= crate::MAX_SECTION_ENTRIES {
            let max = crate::MAX_SECTION_ENTRIES;
            return refuse(
                "section_full",
                format!("本组已达本程序支持的每组 {max} 人"),
                format!("the section holds {max} players, the most one section supports"),
            );
        }
        if en.unit_required == Some(true) && e.unit.is_none() {
            return refuse(
                "unit_required",
                "须通过单位报名".into(),
                "entries must come through a unit".into(),
            );
        }
        if let (Some(max), Some(u)) = (en.max_per_unit, &e.unit) {
            if e.unit_in_section >= max {
                return refuse(
                    "unit_section_limit",
                    format!("{u} 在本组已报 {} 人，上限 {max} 人", e.unit_in_section),
                    format!(
                        "{u} already has {} entries in this section (limit {max})",
                        e.unit_in_section
                    ),
                );
            }
        }
        if let (Some(max), Some(u)) = (en.max_per_unit_overall, &e.unit) {
            if e.unit_overall >= max {
                return refuse(
                    "unit_overall_limit",
                    format!("{u} 各组别合计已报 {} 人，上限 {max} 人", e.unit_overall),
                    format!(
                        "{u} already has {} entries across all sections (limit {max})",
                        e.unit_overall
                    ),
                );
            }
        }
        if let Some(sex) = el.sex {
            match e.sex {
                Some(s) if s == sex => {}
                Some(s) => {
                    return refuse(
                        "sex",
                        format!("本组限{}子，报名者为{}", sex.zh(), s.zh()),
                        "the section is for the other sex".into(),
                    )
                }
                None => {
                    return refuse("sex_unknown", "性别未知".into(), "sex is not known".into());
                }
            }
        }
        let needs_birth = el.born_from.is_some()
            || el.born_to.is_some()
            || el.min_age.is_some()
            || el.max_age.is_some();
        if needs_birth {
            let Some(b) = e.birth_date else {
                return refuse(
                    "birth_date_unknown",
                    "出生日期未知".into(),
                    "birth date is not known".into(),
                );
            };
            let out = match (el.born_from, el.born_to) {
                (Some(f), Some(t)) if b < f || b > t => {
                    Some((format!("{f} 至 {t} 之间"), format!("{f}..{t}")))
                }
                (Some(f), None) if b < f => {
                    Some((format!("{f} 或以后"), format!("on or after {f}")))
                }
                (None, Some(t)) if b > t => {
                    Some((format!("{t} 或以前"), format!("on or before {t}")))
                }
                _ => None,
            };
            if let Some((zh, en)) = out {
                // The age on the regulation's day, when validation named one.
                let (age_zh, age_en) = el.age_date.map_or_else(Default::default, |on| {
                    let age = age_on(b, on);
                    (
                        format!(" ({on} 时年满 {age} 岁)"),
                        format!(" (aged {age} on {on})"),
                    )
                });
                return refuse(
                    "born_outside",
                    format!("出生日期 {b} 不在 {zh}{age_zh}"),
                    format!("born {b}, outside the section's range {en}{age_en}"),
                );
            }
            if let Some(on) = el.age_on {
                let age = age_on(b, on);
                if let Some(min) = el.min_age {
                    if i64::from(age) < i64::from(min) {
                        return refuse(
                            "too_young",
                            format!("{on} 时年满 {age} 岁，不足 {min} 岁"),
                            format!("aged {age} on {on}, under the minimum age {min}"),
                        );
                    }
                }
                if let Some(max) = el.max_age {
                    if i64::from(age) > i64::from(max) {
                        return refuse(
                            "too_old",
                            format!("{on} 时年满 {age} 岁，超过 {max} 岁"),
                            format!("aged {age} on {on}, over the maximum age {max}"),
                        );
                    }
                }
            }
        }
        for ev in &el.evidence {
            if !e.evidence.contains(ev) {
                return refuse(
                    "evidence_missing",
                    format!("缺少证明材料: {}", ev.zh()),
                    format!("missing evidence: {}", ev.name()),
                );
            }
        }
        for any in &el.evidence_any {
            if !any.iter().any(|ev| e.evidence.contains(ev)) {
                let zh: Vec<&str> = any.iter().map(|e| e.zh()).collect();
                let en: Vec<&str> = any.iter().map(|e| e.name()).collect();
                return refuse(
                    "evidence_missing",
                    format!("须提供以下证明之一: {}", zh.join("、")),
                    format!("one of these is required: {}", en.join(", ")),
                );
            }
        }
        if !el.any_of.is_empty()
            && !el.any_of.iter().any(|c| {
                c.evidence.iter().all(|ev| e.evidence.contains(ev))
                    && c.flags.iter().all(|f| e.flags.contains(f))
            })
        {
            let zh: Vec<String> = el.any_of.iter().map(|c| c.zh()).collect();
            let en: Vec<String> = el.any_of.iter().map(|c| c.en()).collect();
            return refuse(
                "condition_any",
                format!("须满足以下条件之一: {}", zh.join("、")),
                format!("one of these conditions is required: {}", en.join(" / ")),
            );
        }
        for f in &el.require_flags {
            if !e.flags.contains(f) {
                return refuse(
                    "flag_required",
                    format!("不具备参赛条件 `{f}`"),
                    format!("required condition `{f}` not met"),
                );
            }
        }
        for f in &el.forbid_flags {
            if e.flags.contains(f) {
                return refuse(
                    "flag_forbidden",
                    format!("具有 `{f}`，不得参加本组"),
                    format!("`{f}` may not enter this section"),
                );
            }
        }
        self.check_grade(e.grade.as_ref())
    }

    /// The section's grade rules (`min_grade`, `below_grade`) for a player of grade `g`.
    pub fn check_grade(&self, g: Option<&crate::grades::Grade>) -> Result<(), Refusal> {
        let (min, below) = &self.eligibility.grade_bounds;
        if let Some(min) = min {
            match g {
                None => {
                    return refuse(
                        "grade_required",
                        format!("本组须{}及以上棋力, 报名未填段位/称号", min.name),
                        format!(
                            "the section requires {} or above, and no grade was given",
                            min.name
                        ),
                    )
                }
                Some(g) if g.rank < min.rank => {
                    return refuse(
                        "grade_too_low",
                        format!("段位/称号 {} 低于本组要求的 {}", g.name, min.name),
                        format!("grade {} is below the section's {}", g.name, min.name),
                    )
                }
                Some(_) => {}
            }
        }
        if let (Some(below), Some(g)) = (below, g) {
            if g.rank >= below.rank {
                return refuse(
                    "grade_too_high",
                    format!(
                        "已具有 {} (不低于 {}), 本组限未获得{}以上称号的棋手",
                        g.name, below.name, below.name
                    ),
                    format!(
                        "holds {} (not below {}): the section is for players below {}",
                        g.name, below.name, below.name
                    ),
                );
            }
        }
        Ok(())
    }
}
