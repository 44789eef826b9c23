//! The architecture of ARCHITECTURE.md, checked: each rule is a function over the text of a
//! file (a `Cargo.toml`, a Rust source, a document) that returns what breaks it, run here over
//! the repository and, in the unit tests at the end, over a planted violation that it must
//! find.
//!
//! - the pure crates depend on no I/O crate and use no file, network, process or clock;
//! - log entries (`LogEntry::Variant { … }`) are constructed only by `crates/core` and
//!   `crates/director`, apart from a listed set of known exceptions that may only shrink;
//! - every path and `module::name` that ARCHITECTURE.md and docs/rules.md cite exists;
//! - the web server builds no HTML in Rust strings: its pages are askama templates.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

// ---------------------------------------------------------------------------------------
// The repository.

/// Every file of the repository (relative paths with `/`), without build output and VCS data.
fn repo_files(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if matches!(name.as_str(), "target" | ".git" | "out" | "node_modules") {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, out);
            } else if let Ok(rel) = p.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The Rust sources of `crates/{krate}/src` that are not tests (`tests.rs` modules excluded).
fn crate_sources<'a>(files: &'a [String], krate: &str) -> impl Iterator<Item = &'a String> {
    let prefix = format!("crates/{krate}/src/");
    files
        .iter()
        .filter(move |f| f.starts_with(&prefix) && f.ends_with(".rs") && !f.ends_with("/tests.rs"))
}

// ---------------------------------------------------------------------------------------
// Reading Rust source: comments and literals told apart from code, test items left out.

/// A Rust source with its comments and the contents of its string and character literals
/// blanked (same byte offsets, same lines), and its string literals apart.
struct Lexed {
    code: String,
    /// Each string literal: the byte offset of its opening quote and its text as written.
    strings: Vec<(usize, String)>,
}

fn lex(src: &str) -> Lexed {
    let b = src.as_bytes();
    let mut code = b.to_vec();
    let mut strings = Vec::new();
    let blank = |code: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut code[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            let end = b[i..]
                .iter()
                .position(|&x| x == b'\n')
                .map_or(b.len(), |p| i + p);
            blank(&mut code, i, end);
            i = end;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                    depth += 1;
                    j += 2;
                } else if b[j] == b'*' && b.get(j + 1) == Some(&b'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut code, i, j);
            i = j;
        } else if c == b'"' || ((c == b'r' || c == b'b') && starts_literal(b, i)) {
            let prev_ident = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
            if prev_ident && c != b'"' {
                i += 1;
                continue;
            }
            let start = i;
            let mut j = i;
            while b[j] != b'"' && b[j] != b'r' {
                j += 1; // a `b` prefix
            }
            if b[j] == b'r' {
                // A raw string: r#…"…"#…
                j += 1;
                let hashes = b[j..].iter().take_while(|&&x| x == b'#').count();
                j += hashes + 1;
                let body = j;
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let end = b[j..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map_or(b.len(), |p| j + p);
                strings.push((start, String::from_utf8_lossy(&b[body..end]).into_owned()));
                blank(&mut code, body, end);
                i = (end + close.len()).min(b.len());
            } else {
                j += 1;
                let body = j;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let end = j.min(b.len());
                strings.push((start, String::from_utf8_lossy(&b[body..end]).into_owned()));
                blank(&mut code, body, end);
                i = end + 1;
            }
        } else if c == b'\'' {
            // A character literal ('x', '\n', '\'', '{') or a lifetime ('a).
            if b.get(i + 1) == Some(&b'\\') {
                let mut j = i + 3;
                while j < b.len() && b[j] != b'\'' {
                    j += 1;
                }
                blank(&mut code, i + 1, j);
                i = j + 1;
            } else {
                let ch_len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                if b.get(i + 1 + ch_len) == Some(&b'\'') {
                    blank(&mut code, i + 1, i + 1 + ch_len);
                    i += 2 + ch_len;
                } else {
                    i += 1;
                }
            }
        } else {
            i += 1;
        }
    }
    Lexed {
        code: String::from_utf8_lossy(&code).into_owned(),
        strings,
    }
}

/// `r"`, `r#"`, `b"`, `br"`, `br#"` at `i`.
fn starts_literal(b: &[u8], i: usize) -> bool {
    let rest = &b[i..];
    let rest = rest.strip_prefix(b"b").unwrap_or(rest);
    if rest.first() == Some(&b'"') && b[i] == b'b' {
        return true;
    }
    match rest.strip_prefix(b"r") {
        Some(r) => {
            let r = &r[r.iter().take_while(|&&x| x == b'#').count()..];
            r.first() == Some(&b'"')
        }
        None => false,
    }
}

/// The byte ranges of the items under `#[cfg(test)]` in `code` (a lexed source).
fn test_ranges(code: &str) -> Vec<std::ops::Range<usize>> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = code[from..].find("#[cfg(test)]") {
        let start = from + p;
        let mut j = start + "#[cfg(test)]".len();
        let (mut depth, mut parens) = (0i32, 0i32);
        while j < b.len() {
            match b[j] {
                b'(' | b'[' => parens += 1,
                b')' | b']' => parens -= 1,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                b';' if depth == 0 && parens == 0 => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        out.push(start..j);
        from = j;
    }
    out
}

fn line_of(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].matches('\n').count() + 1
}

// ---------------------------------------------------------------------------------------
// (a) The pure crates: no I/O crate, no file, network, process or clock.

/// The crates ARCHITECTURE.md calls pure (or "no I/O"): they compute, the shells do the rest.
const PURE: &[&str] = &[
    "types",
    "regulation",
    "core",
    "pairing",
    "standings",
    "knockout",
    "director",
    "simulate",
    "report",
    "xiangqi",
    "trf",
    "import",
];

/// Crates that do I/O (files, sockets, databases, an async runtime), and the workspace's
/// shells.
const IO_CRATES: &[&str] = &[
    "tokio",
    "async-std",
    "smol",
    "mio",
    "axum",
    "hyper",
    "hyper-util",
    "tower",
    "tower-http",
    "reqwest",
    "ureq",
    "rustls",
    "tokio-rustls",
    "socket2",
    "rusqlite",
    "sqlx",
    "postgres",
    "tokio-postgres",
    "r2d2",
    "r2d2_postgres",
    "libc",
    "tempfile",
    "arbiter-store",
    "arbiter-web",
    "arbiter-documents",
    "arbiter-cli",
];

/// The names of the normal dependencies of a `Cargo.toml` (`[dependencies]`,
/// `[dependencies.NAME]`, `[target.….dependencies]`; a `package = "…"` rename resolved),
/// not the dev- or build-dependencies.
fn dependencies(cargo_toml: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in cargo_toml.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            let h = line.trim_matches(['[', ']']).trim();
            let table = h.strip_prefix("target.").map_or(h, |t| {
                t.rsplit_once(".dependencies").map_or(t, |_| "dependencies")
            });
            in_deps = table == "dependencies";
            if let Some(name) = h.strip_prefix("dependencies.") {
                out.push(name.trim_matches('"').to_string());
            }
            continue;
        }
        if !in_deps {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.split('.').next().unwrap_or("").trim().trim_matches('"');
        if key.is_empty() {
            continue;
        }
        let renamed = value.split("package").nth(1).and_then(|r| {
            r.trim_start()
                .strip_prefix('=')
                .and_then(|r| r.trim_start().strip_prefix('"'))
                .and_then(|r| r.split('"').next())
        });
        out.push(renamed.unwrap_or(key).to_string());
    }
    out
}

/// The I/O crates among the dependencies of a `Cargo.toml`.
fn io_dependencies(cargo_toml: &str) -> Vec<String> {
    dependencies(cargo_toml)
        .into_iter()
        .filter(|d| IO_CRATES.contains(&d.as_str()))
        .collect()
}

/// Where a Rust source (its non-test code) uses files, the network, processes or the clock:
/// `(line, what)`.
fn io_uses(src: &str) -> Vec<(usize, String)> {
    const USES: &[&str] = &[
        "std::fs",
        "std::net",
        "std::process",
        "SystemTime::now",
        "Instant::now",
        "Utc::now",
        "Local::now",
    ];
    let lexed = lex(src);
    let tests = test_ranges(&lexed.code);
    let code = &lexed.code;
    let mut out = Vec::new();
    let in_test = |p: usize| tests.iter().any(|r| r.contains(&p));
    for u in USES {
        for (p, _) in code.match_indices(u) {
            if !in_test(p) {
                out.push((line_of(src, p), u.to_string()));
            }
        }
    }
    // `use std::{fs, …}`
    for (p, _) in code.match_indices("std::{") {
        let group = &code[p..code[p..].find('}').map_or(code.len(), |e| p + e)];
        for m in ["fs", "net", "process"] {
            let named = group
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == m);
            if named && !in_test(p) {
                out.push((line_of(src, p), format!("std::{m}")));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn pure_crates_do_no_io() {
    let root = common::root();
    let files = repo_files(&root);
    let mut bad = Vec::new();
    for krate in PURE {
        let manifest = format!("crates/{krate}/Cargo.toml");
        for d in io_dependencies(&read(&root, &manifest)) {
            bad.push(format!("{manifest}: depends on {d}"));
        }
        for f in crate_sources(&files, krate) {
            for (line, what) in io_uses(&read(&root, f)) {
                bad.push(format!("{f}:{line}: {what}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "纯计算的 crate 不做 I/O (a pure crate does I/O):\n{}",
        bad.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// (b) Log entries are made by the core and the director.

/// The crates that may construct a `LogEntry`: the log itself and the director.
const ENTRY_MAKERS: &[&str] = &["crates/core/", "crates/director/"];

/// Known exceptions: `(file, variant)` — a log entry built outside the director. Each is a
/// write still to be moved into a director operation; the list only shrinks (an exception
/// that no longer occurs fails `log_entries_are_made_by_the_director`).
const ENTRY_EXCEPTIONS: &[(&str, &str)] = &[
    // The SIGKILL crash test's writer appends raw entries to a store as fast as it can.
    (
        "crates/store/src/bin/arbiter-crash-writer.rs",
        "EventCreated",
    ),
    ("crates/store/src/bin/arbiter-crash-writer.rs", "FeePaid"),
    (
        "crates/store/src/bin/arbiter-crash-writer.rs",
        "PlayerRegistered",
    ),
];

/// Where a Rust source (its non-test code) constructs a log entry: `(line, variant)`.
/// Patterns (`match` arms, `if let`, `matches!`, `..`) are not constructions.
fn log_entry_constructions(src: &str) -> Vec<(usize, String)> {
    let lexed = lex(src);
    let code = lexed.code.as_str();
    let b = code.as_bytes();
    let tests = test_ranges(code);
    let mut out = Vec::new();
    for (p, m) in code.match_indices("LogEntry::") {
        if tests.iter().any(|r| r.contains(&p)) {
            continue;
        }
        if p > 0 && (b[p - 1].is_ascii_alphanumeric() || b[p - 1] == b'_') {
            continue; // `MyLogEntry::`
        }
        let name_at = p + m.len();
        let name: String = code[name_at..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let mut j = name_at + name.len();
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        // The variant's fields, if any.
        let mut fields = "";
        if j < b.len() && (b[j] == b'{' || b[j] == b'(') {
            let open = j;
            let mut depth = 0;
            while j < b.len() {
                match b[j] {
                    b'{' | b'(' | b'[' => depth += 1,
                    b'}' | b')' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            j += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            fields = &code[open + 1..j.saturating_sub(1)];
        }
        // What follows, past closing brackets: `=>`, `=`, `|` or `if` make it a pattern.
        let after = code[j..].trim_start_matches(|c: char| c.is_whitespace() || c == ')');
        let pattern = fields.trim_end().ends_with("..")
            || after.starts_with("=>")
            || (after.starts_with('=') && !after.starts_with("=="))
            || (after.starts_with('|') && !after.starts_with("||"))
            || after.starts_with("if ")
            || in_matches(code, p);
        if !pattern {
            out.push((line_of(src, p), name));
        }
    }
    out
}

/// `p` is within the pattern of a `matches!(value, PATTERN)`.
fn in_matches(code: &str, p: usize) -> bool {
    let Some(m) = code[..p].rfind("matches!(") else {
        return false;
    };
    let between = &code[m + "matches!(".len()..p];
    let mut depth = 0i32;
    for c in between.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0 && between.contains(',')
}

/// Non-test Rust sources outside the crates that make log entries.
fn entry_checked_file(f: &str) -> bool {
    f.starts_with("crates/")
        && f.ends_with(".rs")
        && !ENTRY_MAKERS.iter().any(|m| f.starts_with(m))
        && !f.contains("/tests/")
        && !f.contains("/benches/")
        && !f.ends_with("/tests.rs")
        && !f.starts_with("crates/fuzz/corpus/")
}

#[test]
fn log_entries_are_made_by_the_director() {
    let root = common::root();
    let files = repo_files(&root);
    let mut found = BTreeSet::new();
    let mut bad = Vec::new();
    for f in files.iter().filter(|f| entry_checked_file(f)) {
        for (line, variant) in log_entry_constructions(&read(&root, f)) {
            if ENTRY_EXCEPTIONS.contains(&(f.as_str(), variant.as_str())) {
                found.insert((f.clone(), variant));
            } else {
                bad.push(format!("{f}:{line}: LogEntry::{variant}"));
            }
        }
    }
    let stale: Vec<String> = ENTRY_EXCEPTIONS
        .iter()
        .filter(|(f, v)| !found.contains(&(f.to_string(), v.to_string())))
        .map(|(f, v)| format!("{f}: LogEntry::{v}"))
        .collect();
    assert!(
        bad.is_empty(),
        "日志条目只由 director 生成 (a log entry built outside crates/core and crates/director; \
         add a director operation):\n{}",
        bad.join("\n")
    );
    assert!(
        stale.is_empty(),
        "已不存在的例外, 请从 ENTRY_EXCEPTIONS 删去 (exceptions that no longer occur; remove them):\n{}",
        stale.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// (c) What the documents cite exists.

/// A backticked span of a document that names a file or folder of the repository: no
/// space, no URL, no placeholder; a folder (`…/`), a file with an extension, or a path under
/// a top-level folder.
fn cited_path(span: &str) -> Option<&str> {
    let s = span.split("::").next().unwrap_or(span);
    if s.is_empty()
        || s.contains(char::is_whitespace)
        || s.starts_with('/')
        || s.starts_with('-')
        || s.contains("://")
        || s.contains(['{', '<', '*', '(', '…'])
    {
        return None;
    }
    let top = [
        "crates/",
        "docs/",
        "regulations/",
        "examples/",
        "scripts/",
        ".ci/",
    ];
    let ext = [
        ".rs", ".md", ".toml", ".html", ".js", ".css", ".json", ".sh",
    ];
    let file_name = s.rsplit('/').next().unwrap_or(s);
    let has_ext = ext
        .iter()
        .any(|e| file_name.ends_with(e) && file_name.len() > e.len());
    (s.ends_with('/') || has_ext || top.iter().any(|t| s.starts_with(t))).then_some(s)
}

/// The file names a document mentions that are outputs, not files of the repository.
const NOT_FILES: &[&str] = &["export.json"];

/// Whether `path` (a cited path: from the root, or the tail of a path — `api/entries.rs`,
/// `family/`) exists among `files`.
fn path_exists(files: &[String], path: &str) -> bool {
    let dir = path.ends_with('/');
    let p = path.trim_end_matches('/');
    files.iter().any(|f| {
        let tail_at = |f: &str, p: &str| f == p || f.ends_with(&format!("/{p}"));
        if dir {
            let mut cur = f.as_str();
            while let Some((parent, _)) = cur.rsplit_once('/') {
                if tail_at(parent, p) {
                    return true;
                }
                cur = parent;
            }
            false
        } else {
            tail_at(f, p) || f.starts_with(&format!("{p}/")) || f.contains(&format!("/{p}/"))
        }
    })
}

/// A backticked `a::b::c` name (`arbiter_types::Role`, `api::event::create`,
/// `IdNumber::masked`, `results.rs::counts_in_game`): its file part (a cited path before
/// `.rs::`, if any) and its segments.
fn cited_name(span: &str) -> Option<(Option<&str>, Vec<&str>)> {
    let s = span.trim_end_matches("()");
    if s.contains(char::is_whitespace) {
        return None;
    }
    let (file, rest) = match s.find(".rs::") {
        Some(i) => (Some(&s[..i + 3]), &s[i + 5..]),
        None => (None, s),
    };
    if file.is_none() && !rest.contains("::") {
        return None;
    }
    let segs: Vec<&str> = rest.split("::").collect();
    segs.iter().all(|x| is_ident(x)).then_some((file, segs))
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// `word` occurs in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(word).any(|(p, _)| {
        !ident(text[..p].chars().next_back()) && !ident(text[p + word.len()..].chars().next())
    })
}

/// Whether a cited name resolves among the Rust sources `rust` (path → text): the file part
/// names files; a first segment `arbiter_x` is the crate `crates/x`; a segment that is a
/// module (`seg.rs`, `seg/mod.rs`, `seg/`) narrows the search to it, any other must be a
/// word of the files searched, which it narrows to those holding it (`IdNumber::masked`:
/// `masked` in a file that names `IdNumber`).
fn name_exists(rust: &BTreeMap<String, String>, file: Option<&str>, segs: &[&str]) -> bool {
    let mut scope: Vec<&String> = match file {
        Some(f) => rust
            .keys()
            .filter(|x| x.as_str() == f || x.ends_with(&format!("/{f}")))
            .collect(),
        None => rust.keys().collect(),
    };
    let mut segs = segs;
    if let (None, Some(krate)) = (file, segs.first().and_then(|s| s.strip_prefix("arbiter_"))) {
        let dir = format!("crates/{krate}/src/");
        scope.retain(|f| f.starts_with(&dir));
        segs = &segs[1..];
    }
    for seg in segs {
        if scope.is_empty() {
            return false;
        }
        let module: Vec<&String> = scope
            .iter()
            .copied()
            .filter(|f| f.ends_with(&format!("/{seg}.rs")) || f.contains(&format!("/{seg}/")))
            .collect();
        scope = if module.is_empty() {
            scope
                .into_iter()
                .filter(|f| has_word(&rust[f.as_str()], seg))
                .collect()
        } else {
            module
        };
    }
    !scope.is_empty()
}

/// The backticked spans of a Markdown text, outside fenced code blocks: `(line, span)`.
fn backticked(md: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in md.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(span), Some(_)) = (parts.next(), parts.next()) {
            out.push((n + 1, span));
        }
    }
    out
}

/// What a document cites in backticks that does not exist: `(line, span)`.
fn missing_citations(
    md: &str,
    files: &[String],
    rust: &BTreeMap<String, String>,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (line, span) in backticked(md) {
        if NOT_FILES.contains(&span) {
            continue;
        }
        let path_ok = cited_path(span).is_none_or(|p| path_exists(files, p));
        let name_ok = cited_name(span).is_none_or(|(file, segs)| {
            file.is_none_or(|f| path_exists(files, f)) && name_exists(rust, file, &segs)
        });
        if !path_ok || !name_ok {
            out.push((line, span.to_string()));
        }
    }
    out
}

/// The documents whose citations are checked.
const CITING: &[&str] = &["ARCHITECTURE.md", "docs/rules.md"];

#[test]
fn what_the_architecture_cites_exists() {
    let root = common::root();
    let files = repo_files(&root);
    let rust: BTreeMap<String, String> = files
        .iter()
        .filter(|f| f.starts_with("crates/") && f.ends_with(".rs"))
        .map(|f| (f.clone(), read(&root, f)))
        .collect();
    let mut bad = Vec::new();
    for doc in CITING {
        for (line, span) in missing_citations(&read(&root, doc), &files, &rust) {
            bad.push(format!("{doc}:{line}: `{span}`"));
        }
    }
    assert!(
        bad.is_empty(),
        "文档引用的路径或名称不存在 (cited but not in the repository):\n{}",
        bad.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// (d) The web server's HTML is in templates.

/// Known exceptions: files of `crates/web/src` that may hold HTML in a string. The list only
/// shrinks (an exception without HTML fails `web_html_is_in_templates`).
const HTML_EXCEPTIONS: &[&str] = &[
    // `error_page`: the page of an error, written without a template so that it renders
    // whatever failed (a template, the state, the cache).
    "crates/web/src/page.rs",
];

/// Whether a string literal holds an HTML (or SVG) tag: `<name` (lower case first) followed
/// by a space, `>` or `/`, or `</name`, or `<!doctype`.
fn has_tag(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        if c != b'<' {
            return false;
        }
        let rest = &b[i + 1..];
        let rest = rest.strip_prefix(b"/").unwrap_or(rest);
        if rest.starts_with(b"!") {
            return true;
        }
        let n = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        n > 0
            && rest[0].is_ascii_lowercase()
            && matches!(rest.get(n), Some(b' ' | b'>' | b'/' | b'\\' | b'\n'))
    })
}

/// Where a Rust source (its non-test code) writes HTML in a string literal: `(line, text)`.
fn html_in_strings(src: &str) -> Vec<(usize, String)> {
    let lexed = lex(src);
    let tests = test_ranges(&lexed.code);
    lexed
        .strings
        .iter()
        .filter(|(p, s)| !tests.iter().any(|r| r.contains(p)) && has_tag(s))
        .map(|(p, s)| (line_of(src, *p), s.chars().take(60).collect()))
        .collect()
}

#[test]
fn web_html_is_in_templates() {
    let root = common::root();
    let files = repo_files(&root);
    let mut bad = Vec::new();
    let mut stale: Vec<&str> = HTML_EXCEPTIONS.to_vec();
    for f in crate_sources(&files, "web") {
        let found = html_in_strings(&read(&root, f));
        if HTML_EXCEPTIONS.contains(&f.as_str()) {
            if !found.is_empty() {
                stale.retain(|x| x != f);
            }
            continue;
        }
        for (line, s) in found {
            bad.push(format!("{f}:{line}: \"{s}…\""));
        }
    }
    assert!(
        bad.is_empty(),
        "网页的 HTML 应在模板中 (HTML built in Rust; put it in crates/web/templates):\n{}",
        bad.join("\n")
    );
    assert!(
        stale.is_empty(),
        "已不存在的例外, 请从 HTML_EXCEPTIONS 删去 (exceptions that no longer occur):\n{}",
        stale.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// Each check finds a planted violation.

#[test]
fn planted_io_dependency_is_found() {
    let toml = r#"
[package]
name = "arbiter-x"

[dependencies]
serde.workspace = true
tokio = { workspace = true }
"arbiter-store" = { path = "../store" }
net = { version = "1", package = "reqwest" }

[dependencies.rusqlite]
version = "0.32"

[target.'cfg(unix)'.dependencies]
libc = "0.2"

[dev-dependencies]
tempfile = "3"
"#;
    assert_eq!(
        io_dependencies(toml),
        ["tokio", "arbiter-store", "reqwest", "rusqlite", "libc"]
    );
    assert!(
        io_dependencies("[dependencies]\nserde = \"1\"\n[dev-dependencies]\ntokio = \"1\"\n")
            .is_empty()
    );
}

#[test]
fn planted_io_use_is_found() {
    let src = r#"
use std::{collections::BTreeMap, fs};
// std::net in a comment is fine
const S: &str = "std::process in a string is fine";
fn f() { let _ = std::net::TcpStream::connect("x"); let _ = std::time::Instant::now(); }
#[cfg(test)]
mod tests { fn g() { std::fs::read("fixture").ok(); } }
"#;
    assert_eq!(
        io_uses(src),
        [
            (2, "std::fs".to_string()),
            (5, "Instant::now".to_string()),
            (5, "std::net".to_string())
        ]
    );
}

#[test]
fn planted_log_entry_is_found() {
    let src = r#"
fn write(st: &EventState) -> Vec<LogEntry> {
    let seen = st.log.iter().filter(|e| matches!(e, LogEntry::FeePaid { .. })).count();
    if let LogEntry::EventClosed { at } = &st.last { let _ = at; }
    match e {
        LogEntry::ResultEntered { round, board } => {}
        Some(LogEntry::PlayerRegistered(r)) | None => {}
        _ => {}
    }
    // LogEntry::Commented { }
    vec![LogEntry::FeePaid { player, amount_fen: 100 }, LogEntry::EventReopened(r)]
}
#[cfg(test)]
mod tests { fn t() { let _ = LogEntry::FeePaid { player, amount_fen: 1 }; } }
"#;
    assert_eq!(
        log_entry_constructions(src),
        [
            (11, "FeePaid".to_string()),
            (11, "EventReopened".to_string())
        ]
    );
}

#[test]
fn planted_missing_citation_is_found() {
    let files: Vec<String> = [
        "crates/core/src/family/mod.rs",
        "crates/core/src/state.rs",
        "crates/types/src/lib.rs",
        "docs/rules.md",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let rust: BTreeMap<String, String> = [
        ("crates/types/src/lib.rs", "pub enum Role { Chief }"),
        ("crates/core/src/family/mod.rs", "pub fn open_header() {}"),
        ("crates/core/src/state.rs", ""),
    ]
    .iter()
    .map(|(f, t)| (f.to_string(), t.to_string()))
    .collect();
    let md = "`crates/core/src/state.rs`, `family/`, `family/mod.rs::open_header`, \
              `arbiter_types::Role`, `docs/rules.md`, `arbiter serve`, `/e/{ev}`\n\
              `crates/core/src/gone.rs` `docs/nowhere.md` `arbiter_types::Gone` \
              `family/mod.rs::closed_header` `arbiter_nothing::X` `lost/`\n\
              ```\n`crates/in/a/code/block.rs`\n```\n";
    let missing: Vec<String> = missing_citations(md, &files, &rust)
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert_eq!(
        missing,
        [
            "crates/core/src/gone.rs",
            "docs/nowhere.md",
            "arbiter_types::Gone",
            "family/mod.rs::closed_header",
            "arbiter_nothing::X",
            "lost/"
        ]
    );
}

#[test]
fn planted_html_is_found() {
    let src = r##"
fn page(c: &mut String, name: &str) {
    let _ = write!(c, "<h1>{}</h1>", name);
    c.push_str(r#"<svg viewBox="0 0 1 1">"#);
    let n: u32 = "3".parse::<u32>().unwrap_or(0);
    let s = format!("a < b, x<3");
}
#[cfg(test)]
mod tests { const T: &str = "<p>in a test</p>"; }
"##;
    let found: Vec<usize> = html_in_strings(src).into_iter().map(|(l, _)| l).collect();
    assert_eq!(found, [3, 4]);
    assert!(has_tag("</ul>") && has_tag("<!doctype html>") && has_tag("<br/>"));
    assert!(!has_tag("<>:\"/\\|?*") && !has_tag("x<3") && !has_tag("Vec<String>"));
}
