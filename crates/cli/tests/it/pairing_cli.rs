//! `arbiter pair / generate / check / bench pairing` run as the real binary.

use crate::common;

use common::*;
use std::path::{Path, PathBuf};

fn player_line(no: u32, name: &str, blocks: &str) -> String {
    let l = format!(
        "001 {no:>4}      {name:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
        "", "", "", "", "", ""
    );
    format!("{l}{blocks}").trim_end().to_string()
}

/// A TRF file with `n` players and no rounds played.
fn fresh(n: u32, rounds: u32) -> String {
    let mut s = format!("012 Fresh\nXXR {rounds}\n");
    for i in 1..=n {
        s.push_str(&player_line(i, &format!("Player {i}"), ""));
        s.push('\n');
    }
    s
}

/// Writes `text` to `dir/name`; its path.
fn write_in(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Parse the bbpPairings-style output: count line, then pairs.
fn pairs(out: &str) -> Vec<(u32, u32)> {
    let mut lines = out.lines();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let v: Vec<(u32, u32)> = lines
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u32>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    assert_eq!(v.len(), n, "count line matches");
    v
}

#[test]
fn round_one_pairs_and_bye_printed_as_n_0() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "r1.trf", &fresh(9, 7));
    let o = run(&["pair", "--trf", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Slide + default colours on 1..8, 9 has the bye (A3, A4).
    assert_eq!(
        pairs(&stdout(&o)),
        vec![(1, 5), (6, 2), (3, 7), (8, 4), (9, 0)]
    );
    assert_eq!(stdout(&o).lines().next(), Some("5"));
}

#[test]
fn explain_goes_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "r1.trf", &fresh(5, 5));
    let o = run(&["pair", "--trf", f.to_str().unwrap(), "--explain"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(pairs(&stdout(&o)), vec![(1, 3), (4, 2), (5, 0)]);
    let e = stderr(&o);
    assert!(e.contains("第1台 1–3"), "{e}");
    assert!(e.contains("拦腰"), "{e}");
    assert!(e.contains("轮空"), "{e}");
}

#[test]
fn malformed_file_gives_exit_2_with_the_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = fresh(4, 5);
    text.push_str("001   x7      Broken\n");
    let f = write_in(dir.path(), "bad.trf", &text);
    let o = run(&["pair", "--trf", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("bad.trf:7:5"), "{e}");
    assert!(e.contains("第7行"), "{e}");
    let o = run(&["check", "--trf", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&[
        "pair",
        "--trf",
        dir.path().join("missing.trf").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn all_rounds_played_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "gen.trf", "");
    let o = run(&[
        "generate",
        "--players",
        "6",
        "--rounds",
        "3",
        "--seed",
        "1",
        "--out",
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.contains("XXR 3"));
    let three_rounds = |l: &str| l.chars().count() > 91 + 20;
    assert!(text
        .lines()
        .filter(|l| l.starts_with("001"))
        .all(three_rounds));
    let o = run(&["pair", "--trf", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn generate_check_pair_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.trf");
    let fs = f.to_str().unwrap();
    let o = run(&[
        "generate",
        "--players",
        "11",
        "--rounds",
        "5",
        "--seed",
        "42",
        "--draws",
        "0.3",
        "--forfeits",
        "0.05",
        "--out",
        fs,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.contains("XXS "), "xiangqi scoring line");
    // Same seed → same file.
    let g = dir.path().join("t2.trf");
    let o = run(&[
        "generate",
        "--players",
        "11",
        "--rounds",
        "5",
        "--seed",
        "42",
        "--draws",
        "0.3",
        "--forfeits",
        "0.05",
        "--out",
        g.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&g).unwrap(), text);

    let o = run(&["check", "--trf", fs]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));

    // Drop the last round and pair it again: a complete pairing of 11 players.
    let cut = drop_last_round(&text, 5);
    let c = write_in(dir.path(), "cut.trf", &cut);
    let o = run(&["pair", "--trf", c.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ps = pairs(&stdout(&o));
    let mut seen: Vec<u32> = ps
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .filter(|&x| x != 0)
        .collect();
    seen.sort();
    assert_eq!(seen, (1..=11).collect::<Vec<_>>(), "everyone paired once");
    assert_eq!(
        ps.iter().filter(|p| p.1 == 0).count(),
        1,
        "11 players: one bye"
    );
    // Play the new round (red wins) and check the whole file again.
    let replayed = append_round(&cut, &ps);
    let r = write_in(dir.path(), "replayed.trf", &replayed);
    let o4 = run(&["check", "--trf", r.to_str().unwrap()]);
    assert_eq!(o4.status.code(), Some(0), "{}{}", stdout(&o4), stderr(&o4));

    // CRLF and CR-only copies give the same answers.
    for (name, ending) in [("crlf.trf", "\r\n"), ("cr.trf", "\r")] {
        let f2 = write_in(dir.path(), name, &cut.replace('\n', ending));
        let o2 = run(&["pair", "--trf", f2.to_str().unwrap()]);
        assert_eq!(o2.status.code(), Some(0), "{name}: {}", stderr(&o2));
        assert_eq!(stdout(&o2), stdout(&o), "{name}");
        let full = write_in(
            dir.path(),
            &format!("full-{name}"),
            &text.replace('\n', ending),
        );
        let o3 = run(&["check", "--trf", full.to_str().unwrap()]);
        assert_eq!(o3.status.code(), Some(0), "{name}: {}", stdout(&o3));
    }
}

/// Append a round in which red wins every board.
fn append_round(text: &str, ps: &[(u32, u32)]) -> String {
    text.lines()
        .map(|l| {
            let mut l = l.to_string();
            if l.starts_with("001") {
                let no: u32 = l[4..8].trim().parse().unwrap();
                let block = ps.iter().find_map(|&(r, b)| {
                    if r == no && b == 0 {
                        Some("  0000 - U".to_string())
                    } else if r == no {
                        Some(format!("  {b:>4} w 1"))
                    } else if b == no {
                        Some(format!("  {r:>4} b 0"))
                    } else {
                        None
                    }
                });
                l.push_str(&block.unwrap_or_else(|| "  0000 - Z".to_string()));
            }
            l + "\n"
        })
        .collect()
}

/// The file without round `r` (the last): the 10-column block is cut from every player line.
fn drop_last_round(text: &str, r: usize) -> String {
    let start = 91 + 10 * (r - 1) - 2;
    text.lines()
        .map(|l| {
            if l.starts_with("001") {
                l.chars()
                    .take(start)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect()
}

#[test]
fn check_reports_a_rematch() {
    let dir = tempfile::tempdir().unwrap();
    // Two rounds, 1 meets 2 twice.
    let mut s = String::from("012 Rematch\nXXR 3\n");
    s.push_str(&player_line(1, "A", "     2 w 1     2 b 1"));
    s.push('\n');
    s.push_str(&player_line(2, "B", "     1 b 0     1 w 0"));
    s.push('\n');
    s.push_str(&player_line(3, "C", "     4 w 1     4 b 1"));
    s.push('\n');
    s.push_str(&player_line(4, "D", "     3 b 0     3 w 0"));
    s.push('\n');
    let f = write_in(dir.path(), "rm.trf", &s);
    let o = run(&["check", "--trf", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("H1"), "{}", stdout(&o));
}

#[test]
fn bench_pairing_prints_a_time() {
    let o = run(&[
        "bench",
        "pairing",
        "--players",
        "40",
        "--round",
        "3",
        "--seed",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains(" ms"), "{}", stdout(&o));
}

#[test]
fn a_round_without_new_opponents_repeats_the_oldest_meetings() {
    let dir = tempfile::tempdir().unwrap();
    // 4 players, a full round robin played: nobody has a new opponent for round 4. H1
    // relaxes (A2 as amended): round 1's pairs (1–4, 2–3) meet again, and the arbiter is told.
    let mut s = String::from("012 Exhausted\nXXR 5\n");
    for (no, blocks) in [
        (1, "     4 w 1     2 w 1     3 b 1"),
        (2, "     3 w =     1 b 0     4 w 1"),
        (3, "     2 b =     4 b 0     1 w 0"),
        (4, "     1 b 0     3 w 1     2 b 0"),
    ] {
        s.push_str(&player_line(no, &format!("P{no}"), blocks));
        s.push('\n');
    }
    let f = write_in(dir.path(), "x.trf", &s);
    let o = run(&["pair", "--trf", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let mut pairs: Vec<Vec<u32>> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| {
            let mut v: Vec<u32> = l
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            v.sort_unstable();
            v
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![vec![1, 4], vec![2, 3]], "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("H1 放宽: 1号 与 4号 第2次相遇 (上次第1轮)"),
        "{err}"
    );
}

#[test]
fn generated_teams_are_written_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("teams.trf");
    let fs = f.to_str().unwrap();
    let o = run(&[
        "generate",
        "--players",
        "12",
        "--rounds",
        "4",
        "--seed",
        "3",
        "--teams",
        "3",
        "--out",
        fs,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.lines().any(|l| l.starts_with("XXT ")), "{text}");
    let o = run(&["check", "--trf", fs]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = run(&[
        "generate",
        "--players",
        "4",
        "--rounds",
        "2",
        "--seed",
        "1",
        "--draws",
        "1.5",
        "--out",
        fs,
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a probability above 1 is bad input"
    );
}

/// Start numbers of every pair (the bye as `(n, 0)`), each player exactly once.
fn players_once(ps: &[(u32, u32)]) -> Vec<u32> {
    let mut v: Vec<u32> = ps
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .filter(|&x| x != 0)
        .collect();
    v.sort_unstable();
    v
}

fn has_pair(ps: &[(u32, u32)], a: u32, b: u32) -> bool {
    ps.iter().any(|&p| p == (a, b) || p == (b, a))
}

#[test]
fn fix_pairs_the_rest_and_explains_the_fixed_pair() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "r1.trf", &fresh(8, 5));
    let o = run(&[
        "pair",
        "--trf",
        f.to_str().unwrap(),
        "--fix",
        "1-2",
        "--explain",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ps = pairs(&stdout(&o));
    assert!(has_pair(&ps, 1, 2), "{ps:?}");
    assert_eq!(players_once(&ps), (1..=8).collect::<Vec<_>>());
    let e = stderr(&o);
    assert!(e.contains("裁判长指定 (fixed by the arbiter)"), "{e}");
    assert!(
        !e.contains("警告"),
        "a legal fixed pair gives no warning: {e}"
    );
}

/// Four players after round 1 (1 beat 3, 2 beat 4); `XXR` rounds.
fn after_round_one(rounds: u32) -> String {
    let mut s = format!("012 Four\nXXR {rounds}\n");
    for (no, block) in [
        (1, "     3 w 1"),
        (2, "     4 b 1"),
        (3, "     1 b 0"),
        (4, "     2 w 0"),
    ] {
        s.push_str(&player_line(no, &format!("P{no}"), block));
        s.push('\n');
    }
    s
}

#[test]
fn fix_with_a_rematch_warns_but_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "r2.trf", &after_round_one(3));
    let o = run(&[
        "pair",
        "--trf",
        f.to_str().unwrap(),
        "--fix",
        "1-3",
        "--fix",
        "4-2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ps = pairs(&stdout(&o));
    assert!(has_pair(&ps, 1, 3) && has_pair(&ps, 2, 4), "{ps:?}");
    let e = stderr(&o);
    assert!(e.contains("警告 warning") && e.contains("H1"), "{e}");
    assert!(e.contains("退出码仍为 0"), "{e}");
}

#[test]
fn swap_exchanges_two_players_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "r1.trf", &fresh(8, 5));
    let fs = f.to_str().unwrap();
    let plain = pairs(&stdout(&run(&["pair", "--trf", fs])));
    assert_eq!(plain, vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    let o = run(&["pair", "--trf", fs, "--swap", "5", "6", "--explain"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Round 1: each takes the other's seat; boards 3 and 4 unchanged.
    assert_eq!(pairs(&stdout(&o)), vec![(1, 6), (5, 2), (3, 7), (8, 4)]);
    assert!(stderr(&o).contains("裁判长调换 5号/6号"), "{}", stderr(&o));
}

#[test]
fn swap_after_round_one_recolours_and_warns_on_a_rematch() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "r2.trf", &after_round_one(3));
    let fs = f.to_str().unwrap();
    let plain = pairs(&stdout(&run(&["pair", "--trf", fs])));
    assert!(
        has_pair(&plain, 1, 2) && has_pair(&plain, 3, 4),
        "{plain:?}"
    );
    let o = run(&["pair", "--trf", fs, "--swap", "2", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ps = pairs(&stdout(&o));
    assert!(has_pair(&ps, 1, 3) && has_pair(&ps, 2, 4), "{ps:?}");
    assert!(stderr(&o).contains("H1"), "{}", stderr(&o));
}

#[test]
fn bad_fix_and_swap_arguments_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "r1.trf", &fresh(8, 5));
    let fs = f.to_str().unwrap();
    for args in [
        vec!["--fix", "1x2"],
        vec!["--fix", "3-3"],
        vec!["--fix", "1-99"],
        vec!["--swap", "1", "5"],
        vec!["--swap", "1", "42"],
    ] {
        let mut all = vec!["pair", "--trf", fs];
        all.extend(&args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(stderr(&o).contains("错误"), "{args:?}: {}", stderr(&o));
    }
}

/// Round 2 is legal (no rematch, colours by A2, H5 kept) but floats both winners down:
/// 4–1 and 3–2 instead of 1–2 and 3–4.
fn suboptimal_round_two() -> String {
    let mut s = String::from("012 Suboptimal\nXXR 3\nXXT    1    1    4\n");
    for (no, blocks) in [
        (1, "     3 w 1     4 b 1"),
        (2, "     4 b 1     3 b 1"),
        (3, "     1 b 0     2 w 0"),
        (4, "     2 w 0     1 w 0"),
    ] {
        s.push_str(&player_line(no, &format!("P{no}"), blocks));
        s.push('\n');
    }
    s
}

#[test]
fn check_reports_a_better_pairing_and_strict_fails_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "sub.trf", &suboptimal_round_two());
    let fs = f.to_str().unwrap();
    let o = run(&["check", "--trf", fs]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "informational only: {out}");
    assert!(
        out.contains("第2轮: 存在更优编排 (a better pairing exists): C1"),
        "{out}"
    );
    assert!(!out.contains("第1轮: 存在更优编排"), "{out}");
    let o = run(&["check", "--trf", fs, "--strict"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}

#[test]
fn check_of_an_optimal_file_reports_no_better_pairing() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("g.trf");
    let fs = f.to_str().unwrap();
    let o = run(&[
        "generate",
        "--players",
        "11",
        "--rounds",
        "5",
        "--seed",
        "4",
        "--out",
        fs,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["check", "--trf", fs, "--strict"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("更优"), "{}", stdout(&o));
}

#[test]
fn check_settings_flags_the_file_cannot_carry() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_in(dir.path(), "sub.trf", &suboptimal_round_two());
    let fs = f.to_str().unwrap();
    // XXT puts 1 and 4 in one team: they met in round 2.
    let o = run(&["check", "--trf", fs, "--same-team", "hard"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("H4: 4号 与 1号 同队"), "{}", stdout(&o));
    // 4 played red twice: |reds − blacks| = 2 breaks a limit of 1.
    let o = run(&["check", "--trf", fs, "--max-colour-diff", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("H5: 4号"), "{}", stdout(&o));
    let o = run(&["check", "--trf", fs, "--same-team", "never"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn same_team_hard_in_round_one_is_exit_3_when_a_team_is_over_half() {
    let dir = tempfile::tempdir().unwrap();
    let text = fresh(4, 3).replacen("XXR 3\n", "XXR 3\nXXT    7    1    2    3\n", 1);
    let f = write_in(dir.path(), "t.trf", &text);
    let fs = f.to_str().unwrap();
    let o = run(&["pair", "--trf", fs, "--same-team", "hard"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("第7队"), "{}", stderr(&o));
    // The default (round1) pairs as far as possible.
    let o = run(&["pair", "--trf", fs]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
