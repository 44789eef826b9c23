//! `arbiter print --lang en` and the progress of `print` and `event export` (`--progress`),
//! by the real binary on a simulated event (Kunshan, 40 men and 12 women). The PDFs are read
//! back with poppler's `pdftotext` (`.ci/run` installs poppler-utils).

use crate::common;

use common::*;
use std::sync::OnceLock;

/// Kunshan simulated (seed 3, 40 men and 12 women), once for all the tests.
fn sim() -> &'static Simulated {
    static S: OnceLock<Simulated> = OnceLock::new();
    S.get_or_init(kunshan_40_12)
}

fn print(doc: &str, extra: &[&str]) -> (String, String) {
    let s = sim();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("doc.pdf");
    let o = print_pdf(&s.db, &s.id, doc, &pdf, extra);
    (pdftotext(&pdf), stderr(&o))
}

/// `--lang en`: English titles, headers and page footers; the players' names as entered.
#[test]
fn print_in_english_keeps_the_names() {
    let s = sim();
    let (text, _) = print("standings", &["--section", "men", "--lang", "en"]);
    let flat: String = text.split_whitespace().collect();
    for label in ["Standings", "Rank", "Name", "Pts", "Page1of"] {
        assert!(flat.contains(label), "{label} missing: {text}");
    }
    for zh in ["名次", "姓名", "积分", "第1页"] {
        assert!(!flat.contains(zh), "Chinese label {zh} in the English copy");
    }
    let men = s.state.players("men");
    assert_eq!(men.len(), 40);
    for p in men {
        assert!(flat.contains(&p.person.name), "{} missing", p.person.name);
    }
    let (text, _) = print(
        "pairings",
        &["--section", "men", "--round", "1", "--lang", "en"],
    );
    let flat: String = text.split_whitespace().collect();
    for label in ["Pairings", "Board", "Red", "Black"] {
        assert!(flat.contains(label), "{label} missing: {text}");
    }
    // The event's English name from its regulation (`name_en`), the time control in English.
    let reg = arbiter_regulation::parse(
        &std::fs::read_to_string(regulation("kunshan-2026")).unwrap(),
        "kunshan-2026.toml",
    )
    .unwrap();
    let name_en: String = reg
        .event
        .name_en
        .as_deref()
        .expect("name_en")
        .split_whitespace()
        .collect();
    assert!(flat.contains(&name_en), "the event's English name: {text}");
    let tc: String = reg
        .section("men")
        .expect("men")
        .time_controls
        .iter()
        .map(|t| t.text_en())
        .collect::<Vec<_>>()
        .join("; ")
        .split_whitespace()
        .collect();
    assert!(flat.contains(&format!("timecontrol{tc}")), "{tc}: {text}");
    for zh in ["对阵表", "台次", "慢棋", "每方"] {
        assert!(
            !flat.contains(zh),
            "Chinese {zh} in the English pairing list: {text}"
        );
    }
    // The Chinese default for comparison: the same names, Chinese labels.
    let (zh, _) = print("standings", &["--section", "men"]);
    let zh: String = zh.split_whitespace().collect();
    assert!(zh.contains("名次") && !zh.contains("Rank"));
}

/// The progress lines on stderr: `N/M` with the last equal to the total.
fn progress(stderr: &str, unit: &str) -> Vec<(usize, usize)> {
    stderr
        .lines()
        .filter(|l| l.starts_with("进度 progress:") && l.contains(unit))
        .map(|l| {
            let nm = l.split_whitespace().nth(2).unwrap();
            let (n, m) = nm.split_once('/').unwrap();
            (n.parse().unwrap(), m.parse().unwrap())
        })
        .collect()
}

#[test]
fn print_reports_pages_with_progress() {
    let (text, err) = print("crosstable", &["--progress"]);
    let p = progress(&err, "pages written");
    let (n, total) = *p.last().expect("progress lines");
    assert_eq!(n, total, "{err}");
    assert_eq!(
        text.matches('\u{c}').count(),
        total,
        "one line per page count"
    );
    assert!(p.windows(2).all(|w| w[0].0 < w[1].0), "{err}");
    // Without the flag (stderr not a terminal): quiet.
    let (_, err) = print("crosstable", &[]);
    assert!(!err.contains("进度"), "{err}");
}

#[test]
fn export_reports_tables_and_rows_with_progress() {
    let s = sim();
    let dir = tempfile::tempdir().unwrap();
    let xlsx = dir.path().join("e.xlsx");
    let base = ["event", "export", &s.id, "--db", &s.db];
    let mut args = base.to_vec();
    args.extend(["--format", "xlsx", "--out", xlsx.to_str().unwrap()]);
    let quiet = ok_output(&args);
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("进度"));
    args.push("--progress");
    let o = ok_output(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    let written = progress(&err, "tables written");
    let stdout = String::from_utf8_lossy(&o.stdout);
    // `已导出 exported: … (N 个表 tables)`.
    let tables: usize = stdout
        .split('(')
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(written.len(), tables, "{err}");
    assert_eq!(*written.last().unwrap(), (tables, tables));
    assert!(err.contains("tables built"), "{err}");
    // The rows counted are the rows of the tables: the last line's count is the sum.
    let rows: usize = err
        .lines()
        .rfind(|l| l.contains("tables written"))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        rows > 40 * 7,
        "{rows} rows for 40 men over 7 rounds and more"
    );
    // CSV: one progress line per file written.
    let csv = dir.path().join("csv");
    let mut args = base.to_vec();
    args.extend([
        "--format",
        "csv",
        "--out",
        csv.to_str().unwrap(),
        "--progress",
    ]);
    let o = ok_output(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    let files = std::fs::read_dir(&csv).unwrap().count();
    let written = progress(&err, "tables written");
    assert_eq!(written.len(), files, "{err}");
    assert_eq!(*written.last().unwrap(), (files, files));
    // `--progress` belongs to the table formats.
    let mut args = base.to_vec();
    args.push("--progress");
    let o = run(&args);
    assert_eq!(o.status.code(), Some(2));
}
