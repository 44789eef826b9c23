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
    /// Who signed, recorded or protested (`by`, `recorded_by`, `signed_by`).
    Signature,
    /// The name of an award.
    Award,
    /// An official's role (裁判长, 编排长 …).
    Role,
    /// Any other text of an entry: no control or bidi character, at most
    /// [`MAX_OTHER_CHARS`].
    Other,
}

/// Longest text of a field the rule has no length of its own for.
pub const MAX_OTHER_CHARS: usize = 2000;

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
            Field::Signature => "签名",
            Field::Award => "奖项",
            Field::Role => "职务",
            Field::Other => "文字",
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
            Field::Signature => "signed by",
            Field::Award => "award",
            Field::Role => "role",
            Field::Other => "text",
        }
    }

    /// Longest text of the field, in characters.
    pub fn max(self) -> usize {
        match self {
            Field::Reason => MAX_REASON_CHARS,
            Field::Other => MAX_OTHER_CHARS,
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
            "by" | "recorded_by" | "signed_by" | "decided_by" => Field::Signature,
            "award" => Field::Award,
            "role" => Field::Role,
            "recipients" => Field::Name,
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
    let mut json = Vec::new();
    for e in entries {
        if matches!(e, LogEntry::EventCreated(_)) {
            continue;
        }
        json.clear();
        if serde_json::to_writer(&mut json, e).is_ok() && plainly_clean(&json) {
            continue;
        }
        let v = serde_json::to_value(e).map_err(|err| DirectorError::Serialise(err.to_string()))?;
        walk(&v).map_err(DirectorError::Text)?;
    }
    Ok(())
}

/// Whether an entry written as JSON (`json`) plainly passes the rule, whatever field each of
/// its texts is: nothing escaped (so every text stands in it as it is), no refused character
/// anywhere, and no text (nor key) longer than the shortest field allows. Most entries are;
/// for the others [`walk`] judges each text by its field and names what is wrong.
fn plainly_clean(json: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(json) else {
        return false;
    };
    let mut inside = false;
    let mut chars = 0usize;
    for (i, &b) in json.iter().enumerate() {
        match b {
            b'"' => {
                inside = !inside;
                chars = 0;
                continue;
            }
            // An escape, or a control character (serde_json escapes those below U+0020).
            b'\\' | 0x00..=0x1f | 0x7f => return false,
            // The rest of a character counted at its first byte.
            0x80..=0xbf => continue,
            0xc0..=0xff => {
                let refused = text
                    .get(i..)
                    .and_then(|rest| rest.chars().next())
                    .is_none_or(arbiter_types::text::is_refused);
                if refused {
                    return false;
                }
            }
            _ => {}
        }
        if inside {
            chars += 1;
            if chars > MAX_CHARS {
                return false;
            }
        }
    }
    true
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
        // Every other text of an entry: the rule without a field's own length.
        Value::String(s) => check(Field::Other, s),
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
            by_forfeits: false,
        };
        assert!(check_entries(&[ok]).is_ok());
        let bad = LogEntry::PlayerWithdrawn {
            player: arbiter_core::PlayerId(1),
            reason: "x\u{1b}[2J".into(),
            after_round: None,
            by_forfeits: false,
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

    /// The quick look lets through only what every field admits; anything longer than the
    /// shortest field, escaped or refused goes to the field-by-field walk.
    #[test]
    fn the_quick_look_passes_only_plainly_clean_entries() {
        assert!(!plainly_clean(br#"{"kind":"x","reason":"\u751f\u75c5"}"#));
        assert!(plainly_clean(
            "{\"reason\":\"生病\",\"n\":[1,2]}".as_bytes()
        ));
        assert!(!plainly_clean("{\"name\":\"张\u{202E}三\"}".as_bytes()));
        assert!(!plainly_clean("{\"name\":\"张\u{7f}三\"}".as_bytes()));
        let long = format!("{{\"name\":\"{}\"}}", "长".repeat(MAX_CHARS + 1));
        assert!(!plainly_clean(long.as_bytes()));
        let just = format!("{{\"name\":\"{}\"}}", "长".repeat(MAX_CHARS));
        assert!(plainly_clean(just.as_bytes()));
        // A long reason still passes, by its field's own length.
        let reason = LogEntry::PlayerWithdrawn {
            player: arbiter_core::PlayerId(1),
            reason: "长".repeat(MAX_REASON_CHARS),
            after_round: None,
            by_forfeits: false,
        };
        assert!(check_entries(&[reason]).is_ok());
    }

    /// Issue 42, item 6: the texts the rule missed — a protest's `by` and reason, a record's
    /// `recorded_by`, an award's recipients and reason, a slip's signatures — and any other
    /// text of an entry.
    #[test]
    fn signatures_awards_and_every_other_text_are_checked() {
        let protest = |by: &str, reason: &str| LogEntry::ProtestDecided {
            section: "men".into(),
            round: 1,
            board: 1,
            by: by.into(),
            deposit_fen: 0,
            upheld: false,
            deposit_returned: false,
            reason: reason.into(),
        };
        assert!(check_entries(&[protest("红方领队", "判定无误")]).is_ok());
        let e = check_entries(&[protest("领\u{1b}]0;x\u{7}队", "")])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("签名 (signed by) 第 2 个字符是控制字符 U+001B"),
            "{e}"
        );
        let e = check_entries(&[protest("领队", &"x".repeat(30_000))])
            .unwrap_err()
            .to_string();
        assert!(e.contains("理由 (reason) 过长: 30000 个字符"), "{e}");
        let award = LogEntry::SpecialAwardGiven {
            award: "最佳组织奖".into(),
            recipients: vec!["昆山\u{202E}队".into()],
            reason: String::new(),
        };
        let e = check_entries(&[award]).unwrap_err().to_string();
        assert!(e.contains("文字方向控制符 U+202E"), "{e}");
        let signed = LogEntry::ResultConfirmed {
            section: "men".into(),
            round: 1,
            board: 1,
            signed_by: vec!["red\u{0}".into()],
        };
        assert!(check_entries(&[signed]).is_err());
        // A text the rule names no field for: still no control character.
        let undone = LogEntry::RoundUndone {
            section: "men\u{1b}".into(),
            round: 1,
            reason: "r".into(),
        };
        let e = check_entries(&[undone]).unwrap_err().to_string();
        assert!(e.starts_with("文字 (text)"), "{e}");
    }
}
