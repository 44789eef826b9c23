//! Text typed by people, checked before it is stored: one rule for every shell (the CLI,
//! the desk, the online form, a roster file). Every operation of the [`crate::api`] that
//! stores text — names, units, associations, teams, leaders and coaches, reasons, receipts,
//! evidence, flags, the event's name and venue — passes its entries through
//! [`check_entries`] before returning them.
//!
//! The rule is [`arbiter_types::text`]: no control characters (NUL, ESC — terminal escape
//! sequences in `round show` —, line breaks), no bidirectional formatting characters
//! (U+202E, which reverses a name on the standings), and at most [`Field::max`] characters
//! (100 by default, as the online form; 500 for a reason). A refusal names the field and what
//! is wrong, Chinese first, and never repeats the text itself.

use crate::DirectorError;
use arbiter_core::LogEntry;
pub use arbiter_types::text::{check_line, TextProblem, MAX_CHARS};
use std::fmt;

/// Longest reason (or note), in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// A field of text people type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Name,
    Unit,
    Association,
    Team,
    Leader,
    Coach,
    Reason,
    Receipt,
    Evidence,
    Flag,
    Venue,
}

impl Field {
    pub fn zh(self) -> &'static str {
        match self {
            Field::Name => "姓名",
            Field::Unit => "单位",
            Field::Association => "协会",
            Field::Team => "队名",
            Field::Leader => "领队",
            Field::Coach => "教练",
            Field::Reason => "理由",
            Field::Receipt => "收据",
            Field::Evidence => "证明",
            Field::Flag => "标记",
            Field::Venue => "地点",
        }
    }

    pub fn en(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Unit => "unit",
            Field::Association => "association",
            Field::Team => "team",
            Field::Leader => "leader",
            Field::Coach => "coach",
            Field::Reason => "reason",
            Field::Receipt => "receipt",
            Field::Evidence => "evidence",
            Field::Flag => "flag",
            Field::Venue => "venue",
        }
    }

    /// Longest text of the field, in characters.
    pub fn max(self) -> usize {
        match self {
            Field::Reason => MAX_REASON_CHARS,
            _ => MAX_CHARS,
        }
    }

    /// The field a key of a log entry holds, if it is text people type.
    fn of_key(key: &str) -> Option<Field> {
        Some(match key {
            "name" => Field::Name,
            "unit" => Field::Unit,
            "association" => Field::Association,
            "team" => Field::Team,
            "leader" => Field::Leader,
            "coach" => Field::Coach,
            "reason" | "late_reason" => Field::Reason,
            "receipt" => Field::Receipt,
            "evidence" => Field::Evidence,
            "flags" => Field::Flag,
            "venue" => Field::Venue,
            _ => return None,
        })
    }
}

/// A text refused: which field, and what is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextError {
    pub field: Field,
    pub problem: TextProblem,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) {}",
            self.field.zh(),
            self.field.en(),
            self.problem
        )
    }
}

impl std::error::Error for TextError {}

/// Check one text of `field`.
pub fn check(field: Field, s: &str) -> Result<(), TextError> {
    check_line(s, field.max()).map_err(|problem| TextError { field, problem })
}

/// Check every text people type in `entries` (the event's creation, whose text is the
/// organiser's regulation file, excepted).
pub fn check_entries(entries: &[LogEntry]) -> Result<(), DirectorError> {
    for e in entries {
        if matches!(e, LogEntry::EventCreated(_)) {
            continue;
        }
        let v = serde_json::to_value(e).map_err(|err| DirectorError::Serialise(err.to_string()))?;
        walk(&v).map_err(DirectorError::Text)?;
    }
    Ok(())
}

fn walk(v: &serde_json::Value) -> Result<(), TextError> {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            // A correction's change: {"field": "name", "value": …}.
            let tagged = map
                .get("field")
                .and_then(Value::as_str)
                .and_then(Field::of_key);
            for (k, v) in map {
                let field = if k == "value" {
                    tagged
                } else {
                    Field::of_key(k)
                };
                match (field, v) {
                    (Some(f), Value::String(s)) => check(f, s)?,
                    (Some(f), Value::Array(items)) if items.iter().all(Value::is_string) => {
                        for s in items.iter().filter_map(Value::as_str) {
                            check(f, s)?;
                        }
                    }
                    _ => walk(v)?,
                }
            }
            Ok(())
        }
        Value::Array(items) => items.iter().try_for_each(walk),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_of_an_entry_is_checked_and_the_field_named() {
        let ok = LogEntry::PlayerWithdrawn {
            player: arbiter_core::PlayerId(1),
            reason: "生病".into(),
            after_round: None,
        };
        assert!(check_entries(&[ok]).is_ok());
        let bad = LogEntry::PlayerWithdrawn {
            player: arbiter_core::PlayerId(1),
            reason: "x\u{1b}[2J".into(),
            after_round: None,
        };
        let e = check_entries(&[bad]).unwrap_err().to_string();
        assert!(
            e.starts_with("理由 (reason) 第 2 个字符是控制字符 U+001B"),
            "{e}"
        );
        let long = LogEntry::EntryRefused {
            name: "长".repeat(101),
            section: "men".into(),
            reason: "r".into(),
            id_number: None,
            unit: None,
            facts: None,
        };
        let e = check_entries(&[long]).unwrap_err().to_string();
        assert!(
            e.contains("姓名 (name) 过长: 101 个字符, 至多 100 个"),
            "{e}"
        );
    }
}
