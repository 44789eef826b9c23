//! Text people type (names, units, teams, reasons …): the one rule of what may be stored.
//!
//! Refused: control characters (NUL, ESC — terminal escape sequences —, tabs and line
//! breaks in a one-line field …), and the bidirectional formatting characters (U+202E
//! RIGHT-TO-LEFT OVERRIDE and its kin, which reverse the text after them on a page and can
//! make one name look like another); and text longer than its field allows. The message
//! never repeats the text (it may be 100,000 characters, or carry the very escapes refused):
//! it names the position and the code point.

use std::fmt;

/// The default longest text of a field, in characters (the online form's limit).
pub const MAX_CHARS: usize = 100;

/// What is wrong with a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextProblem {
    TooLong {
        chars: usize,
        max: usize,
    },
    /// A control character at a position (1-based, in characters).
    Control {
        at: usize,
        ch: char,
    },
    /// A bidirectional formatting character at a position.
    Bidi {
        at: usize,
        ch: char,
    },
}

impl fmt::Display for TextProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TextProblem::TooLong { chars, max } => write!(
                f,
                "过长: {chars} 个字符, 至多 {max} 个 (too long: {chars} characters, at most {max})"
            ),
            TextProblem::Control { at, ch } => write!(
                f,
                "第 {at} 个字符是控制字符 U+{:04X}, 不可使用 (control character U+{:04X} at position {at})",
                ch as u32, ch as u32
            ),
            TextProblem::Bidi { at, ch } => write!(
                f,
                "第 {at} 个字符是文字方向控制符 U+{:04X}, 不可使用 (bidirectional formatting character U+{:04X} at position {at})",
                ch as u32, ch as u32
            ),
        }
    }
}

/// Whether `c` is a bidirectional formatting character (marks, embeddings, overrides,
/// isolates).
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// Whether `c` may not be stored in one line of text: a control character, a bidi
/// formatting character, or a line/paragraph separator.
pub fn is_refused(c: char) -> bool {
    c.is_control() || is_bidi_control(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Check one line of text against the rule, at most `max` characters.
pub fn check_line(s: &str, max: usize) -> Result<(), TextProblem> {
    let mut chars = 0;
    for (i, c) in s.chars().enumerate() {
        chars = i + 1;
        if is_bidi_control(c) {
            return Err(TextProblem::Bidi { at: i + 1, ch: c });
        }
        if is_refused(c) {
            return Err(TextProblem::Control { at: i + 1, ch: c });
        }
    }
    if chars > max {
        return Err(TextProblem::TooLong { chars, max });
    }
    Ok(())
}

/// `s` with every refused character removed (for text shown from outside the log, e.g. an
/// old log written before the rule).
pub fn strip(s: &str) -> String {
    s.chars().filter(|&c| !is_refused(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_bidi_and_length_are_refused() {
        assert_eq!(check_line("张三", MAX_CHARS), Ok(()));
        assert_eq!(check_line("O'Brien-Smith (昆山)", MAX_CHARS), Ok(()));
        assert_eq!(
            check_line("张\u{1b}[2J三", MAX_CHARS),
            Err(TextProblem::Control {
                at: 2,
                ch: '\u{1b}'
            })
        );
        assert!(matches!(
            check_line("a\0", MAX_CHARS),
            Err(TextProblem::Control { at: 2, .. })
        ));
        assert!(matches!(
            check_line("a\u{202E}b", MAX_CHARS),
            Err(TextProblem::Bidi { at: 2, .. })
        ));
        assert!(matches!(
            check_line("a\nb", MAX_CHARS),
            Err(TextProblem::Control { .. })
        ));
        assert_eq!(check_line(&"长".repeat(100), MAX_CHARS), Ok(()));
        assert_eq!(
            check_line(&"长".repeat(101), MAX_CHARS),
            Err(TextProblem::TooLong {
                chars: 101,
                max: 100
            })
        );
        let msg = TextProblem::Control {
            at: 2,
            ch: '\u{1b}',
        }
        .to_string();
        assert!(msg.contains("U+001B") && !msg.contains('\u{1b}'), "{msg}");
        assert_eq!(strip("a\u{202E}b\u{1b}c"), "abc");
    }
}
