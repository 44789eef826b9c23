//! The text of a regulation file under the one rule of stored text
//! ([`arbiter_types::text`]): the event's and sections' names, the venue, the organisers, the
//! prizes' and items' names are printed on every page and document, so a file cannot carry a
//! terminal escape (ESC), a bidi override (U+202E) or a 30,000-character name into them.
//! Every string of the file is checked where it is written (line and column): no control
//! character (line breaks and tabs only in longer texts), no bidi formatting character; a
//! name (`name`, `name_en`, `short`, `venue`, `organisers` …) at most
//! [`arbiter_types::text::MAX_CHARS`] characters, any other string at most [`MAX_TEXT_CHARS`].

use crate::error::RegulationError;
use arbiter_types::text::{check_line, is_bidi_control, TextProblem, MAX_CHARS};
use toml_edit::{ImDocument, Item, Value};

/// Longest string of a regulation file that is not a name, in characters.
pub const MAX_TEXT_CHARS: usize = 2000;

/// Keys whose strings are one-line names, shown on every page.
fn is_name(key: &str) -> bool {
    matches!(
        key,
        "name" | "name_en" | "short" | "venue" | "organisers" | "organiser" | "title" | "label"
    ) || key.ends_with("_name")
}

/// Check a longer text: line breaks and tabs allowed, nothing else of the refused.
fn check_text(s: &str, max: usize) -> Result<(), TextProblem> {
    let mut n = 0;
    for (i, c) in s.chars().enumerate() {
        n = i + 1;
        if is_bidi_control(c) {
            return Err(TextProblem::Bidi { at: i + 1, ch: c });
        }
        if matches!(c, '\n' | '\t' | '\r') {
            continue;
        }
        if arbiter_types::text::is_refused(c) {
            return Err(TextProblem::Control { at: i + 1, ch: c });
        }
    }
    if n > max {
        return Err(TextProblem::TooLong { chars: n, max });
    }
    Ok(())
}

/// Every string of `source` checked; the first refused, located.
pub fn check(source: &str, file: &str) -> Result<(), RegulationError> {
    // A file TOML cannot read is reported by the parser, with its own message.
    let Ok(doc) = ImDocument::parse(source.to_string()) else {
        return Ok(());
    };
    let mut path = Vec::new();
    walk_table(doc.as_table(), &mut path).map_err(|(key, span, problem)| {
        RegulationError::at(source, file, span, format!("「{key}」 的文字{problem}"))
    })
}

type Found = (String, Option<std::ops::Range<usize>>, TextProblem);

fn walk_table(t: &toml_edit::Table, path: &mut Vec<String>) -> Result<(), Found> {
    for (k, item) in t.iter() {
        path.push(k.to_string());
        walk_item(item, k, path)?;
        path.pop();
    }
    Ok(())
}

fn walk_item(item: &Item, key: &str, path: &mut Vec<String>) -> Result<(), Found> {
    match item {
        Item::Value(v) => walk_value(v, key, path),
        Item::Table(t) => walk_table(t, path),
        Item::ArrayOfTables(a) => {
            for t in a.iter() {
                walk_table(t, path)?;
            }
            Ok(())
        }
        Item::None => Ok(()),
    }
}

fn walk_value(v: &Value, key: &str, path: &mut Vec<String>) -> Result<(), Found> {
    match v {
        Value::String(s) => {
            let text = s.value();
            let r = if is_name(key) {
                check_line(text, MAX_CHARS)
            } else {
                check_text(text, MAX_TEXT_CHARS)
            };
            r.map_err(|p| (path.join("."), s.span(), p))
        }
        Value::Array(a) => a.iter().try_for_each(|x| walk_value(x, key, path)),
        Value::InlineTable(t) => {
            for (k, x) in t.iter() {
                path.push(k.to_string());
                walk_value(x, k, path)?;
                path.pop();
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_overrides_and_long_names_are_refused_where_they_are_written() {
        let ok = "[event]\nname = \"2026年昆山市职工象棋赛\"\nnote = \"第一行\\n第二行\"\n";
        assert!(check(ok, "r.toml").is_ok());
        let esc = "[event]\nname = \"昆山\\u001b[2J\"\n";
        let e = check(esc, "r.toml").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert!(
            e.message.contains("event.name") && e.message.contains("U+001B"),
            "{e}"
        );
        let bidi = "[event]\nvenue = \"a\u{202E}b\"\n";
        let e = check(bidi, "r.toml").unwrap_err();
        assert!(e.message.contains("文字方向控制符 U+202E"), "{e}");
        let long = format!(
            "[[sections]]\nid = \"men\"\nname = \"{}\"\n",
            "长".repeat(30_000)
        );
        let e = check(&long, "r.toml").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message.contains("sections.name") && e.message.contains("30000 个字符"),
            "{e}"
        );
        let nul = "[event]\nname = \"x\"\nnote = \"a\\u0000b\"\n";
        assert!(check(nul, "r.toml").is_err());
    }
}
