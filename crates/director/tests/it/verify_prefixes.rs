//! `verify` passes on every prefix of a valid log: an arbiter runs it mid-event, between a
//! result and the end of its round, between a round's pairing and its first result, in the
//! middle of a knockout. What verify recomputes and what the standings show follow one
//! definition of "standings so far" (the completed rounds).
//!
//! By default an even sample of prefixes of each reference event is checked (CI); with
//! `ARBITER_ALL_PREFIXES=1` every prefix is.

use crate::common;

use arbiter_director::verify;
use arbiter_simulate::Sizes;
use common::*;

/// Prefix lengths to check: all of them, or about `samples` spread evenly plus the first
/// entries and the last one.
fn lengths(n: usize, samples: usize) -> Vec<usize> {
    if std::env::var_os("ARBITER_ALL_PREFIXES").is_some() || n <= samples {
        return (1..=n).collect();
    }
    let mut v: Vec<usize> = (0..samples)
        .map(|i| 1 + i * (n - 1) / (samples - 1))
        .collect();
    v.extend(1..=3.min(n));
    v.sort_unstable();
    v.dedup();
    v
}

fn check_prefixes(stem: &str) {
    let log = run(stem, 1, &Sizes::default()).0;
    let mut failures = Vec::new();
    let lens = lengths(log.len(), 48);
    for &k in &lens {
        let diffs = verify(&log[..k], None);
        if !diffs.is_empty() {
            failures.push(format!(
                "prefix {k}/{} (seq {}): {}",
                log.len(),
                log[k - 1].seq,
                diffs
                    .iter()
                    .take(3)
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{stem}: {} of {} prefixes fail verify:\n{}",
        failures.len(),
        lens.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn kunshan_every_prefix_verifies() {
    check_prefixes("kunshan-2026");
}

#[test]
fn suzhou_every_prefix_verifies() {
    check_prefixes("suzhou-2025");
}

#[test]
fn jiujiang_every_prefix_verifies() {
    check_prefixes("jiujiang-2020");
}

#[test]
fn tianshui_every_prefix_verifies() {
    check_prefixes("tianshui-2024");
}

/// The prefix check can fail: a log whose last result disagrees with the points it implies
/// is still caught on a prefix (a doctored result in a completed round).
#[test]
fn a_prefix_with_a_doctored_result_fails() {
    use arbiter_core::LogEntry;
    let log = run("jiujiang-2020", 1, &Sizes::default()).0;
    // Cut after round 2 is marked complete, then swap a board's colours in round 1.
    let end = log
        .iter()
        .position(|r| matches!(&r.entry, LogEntry::RoundPaired { round: 3, .. }))
        .expect("round 3 paired");
    let mut t = log[..end].to_vec();
    let i = t
        .iter()
        .position(|r| matches!(&r.entry, LogEntry::RoundPaired { round: 2, .. }))
        .unwrap();
    if let LogEntry::RoundPaired { boards, .. } = &mut t[i].entry {
        let b = &mut boards[0];
        std::mem::swap(&mut b.red, &mut b.black);
    }
    assert!(!verify(&t, None).is_empty());
}
