//! Located errors.

use std::fmt;
use std::ops::Range;

/// An error in a regulation file, located at a line and column (both from 1; the column
/// counts characters, not bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegulationError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// Chinese first, then English in parentheses.
    pub message: String,
}

impl fmt::Display for RegulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: 错误: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for RegulationError {}

/// 1-based (line, column in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(source.len());
    while !source.is_char_boundary(off) {
        off -= 1;
    }
    let before = &source[..off];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = source[line_start..off].chars().count() + 1;
    (line, column)
}

impl RegulationError {
    pub fn at(source: &str, file: &str, span: Option<Range<usize>>, message: String) -> Self {
        let (line, column) = span.map(|s| line_col(source, s.start)).unwrap_or((1, 1));
        RegulationError {
            file: file.to_string(),
            line,
            column,
            message,
        }
    }
}

/// Turn serde/TOML messages into Chinese-first messages with did-you-mean.
pub fn translate(msg: &str) -> String {
    let joined = msg
        .trim()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("; ");
    let msg = joined.as_str();
    let ticks: Vec<&str> = msg.split('`').skip(1).step_by(2).collect();
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        let given = rest.split('`').next().unwrap_or_default();
        let candidates = ticks.iter().skip(1).copied();
        let hint = arbiter_types::closest(given, candidates);
        return match hint {
            Some(h) => format!(
                "未知的键 `{given}`，是否应为 `{h}`？ (unknown key `{given}`, did you mean `{h}`?)"
            ),
            None => format!("未知的键 `{given}` (unknown key `{given}`)"),
        };
    }
    if let Some(rest) = msg.strip_prefix("unknown variant `") {
        let given = rest.split('`').next().unwrap_or_default();
        let candidates = ticks.iter().skip(1).copied();
        let hint = arbiter_types::closest(given, candidates);
        let all = ticks.iter().skip(1).copied().collect::<Vec<_>>().join(", ");
        return match hint {
            Some(h) => format!(
                "未知的取值 `{given}`，是否应为 `{h}`？ (unknown value `{given}`, did you mean `{h}`?)"
            ),
            None => format!("未知的取值 `{given}`，可选: {all} (unknown value `{given}`, expected one of: {all})"),
        };
    }
    if let Some(rest) = msg.strip_prefix("missing field `") {
        let key = rest.split('`').next().unwrap_or_default();
        return format!("缺少必需的键 `{key}` (missing key `{key}`)");
    }
    if let Some(rest) = msg.strip_prefix("invalid type: ") {
        return in_words("类型错误", "invalid type", rest);
    }
    if let Some(rest) = msg.strip_prefix("invalid value: ") {
        return in_words("取值错误", "invalid value", rest);
    }
    if msg.starts_with("duplicate key") {
        return format!("重复的键 ({msg})");
    }
    if msg.contains('(') && msg.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
        // Already bilingual (our own custom errors).
        return msg.to_string();
    }
    format!("TOML 语法错误 (TOML syntax error: {msg})")
}

/// `found, expected T` in words, Chinese first: serde names the Rust type (`u32`), a
/// regulation author needs "a whole number ≥ 0".
fn in_words(zh: &str, en: &str, rest: &str) -> String {
    let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
    let (found_zh, found_en) = kind_words(found);
    let (exp_zh, exp_en) = kind_words(expected);
    if expected.is_empty() {
        return format!("{zh}: {found_zh} ({en}: {found_en})");
    }
    format!("{zh}: 应为{exp_zh}, 实为{found_zh} ({en}: expected {exp_en}, found {found_en})")
}

/// A serde type or value description in words (Chinese, English).
fn kind_words(t: &str) -> (String, String) {
    let t = t.trim();
    let (head, value) = t.split_once(' ').unwrap_or((t, ""));
    let v = |zh: &str, en: &str| {
        if value.is_empty() {
            (zh.to_string(), en.to_string())
        } else {
            (format!("{zh} {value}"), format!("{en} {value}"))
        }
    };
    match head {
        "u8" | "u16" | "u32" | "u64" | "usize" => ("非负整数".into(), "a whole number ≥ 0".into()),
        "i8" | "i16" | "i32" | "i64" | "isize" => ("整数".into(), "a whole number".into()),
        "f32" | "f64" => ("数值".into(), "a number".into()),
        "integer" => v("整数", "the whole number"),
        "floating" => v("小数", "the decimal number"),
        "string" => v("文本", "the text"),
        "boolean" => v("布尔值", "the boolean"),
        "sequence" => ("列表".into(), "a list".into()),
        "map" => ("表".into(), "a table".into()),
        "a" | "an" => match value {
            "string" => ("文本 (用引号)".into(), "a text in quotes".into()),
            "boolean" => ("true 或 false".into(), "true or false".into()),
            "sequence" => ("列表 [...]".into(), "a list [...]".into()),
            "map" => ("表".into(), "a table".into()),
            _ => (t.to_string(), t.to_string()),
        },
        "struct" => ("表".into(), "a table".into()),
        _ => (t.to_string(), t.to_string()),
    }
}

/// When an error about a quoted value `x` is reported on a whole array, point at the
/// element `"x"` inside it instead.
pub fn narrow(source: &str, span: Range<usize>, message: &str) -> Range<usize> {
    let Some(given) = message.split('`').nth(1) else {
        return span;
    };
    let Some(text) = source.get(span.clone()) else {
        return span;
    };
    if !text.starts_with('[') {
        return span;
    }
    let quoted = format!("\"{given}\"");
    match text.find(&quoted) {
        Some(i) => span.start + i..span.start + i + quoted.len(),
        None => span,
    }
}
