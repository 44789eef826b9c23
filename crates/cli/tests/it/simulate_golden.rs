//! Same behaviour, byte for byte: every bundled regulation simulated with seeds 1 and 2 gives
//! the exports and the log recorded in `tests/fixtures/simulate-golden.tsv` (SHA-256 of
//! `export.json`, each section's TRF, the `arbiter-log/1` export and the log's sentences in
//! Chinese and English). A refactoring of the director or a shell must leave every line as it
//! is; a change of behaviour that is meant updates the file, with the reason in its commit:
//!
//! ```text
//! ARBITER_BLESS=1 cargo test --release -p arbiter-cli --test it simulate_golden
//! ```

use crate::common::*;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

const SEEDS: [u64; 2] = [1, 2];

fn golden_path() -> std::path::PathBuf {
    root().join("crates/cli/tests/fixtures/simulate-golden.tsv")
}

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `arbiter ARGS`'s stdout; the command must succeed.
fn output(args: &[&str]) -> Vec<u8> {
    let o = run(args);
    assert!(
        o.status.success(),
        "arbiter {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

/// The hashes of one simulated event: `(stem-seed/file, sha256)`.
fn hashes(stem: &str, seed: u64, out: &Path) -> Vec<(String, String)> {
    simulate_into(stem, seed, out, &[]);
    let db = out.join("arbiter.db");
    let db = db.to_str().unwrap();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") || n.ends_with(".trf"))
        .collect();
    names.sort();
    for n in names {
        files.push((n.clone(), std::fs::read(out.join(&n)).unwrap()));
    }
    let id = "ev-00000001";
    files.push((
        "event-export".into(),
        output(&["event", "export", id, "--db", db]),
    ));
    files.push((
        "event-log-zh".into(),
        output(&["event", "log", id, "--db", db]),
    ));
    files.push((
        "event-log-en".into(),
        output(&["event", "log", id, "--db", db, "--lang", "en"]),
    ));
    files
        .into_iter()
        .map(|(n, b)| (format!("{stem}-{seed}/{n}"), sha(&b)))
        .collect()
}

#[test]
fn every_bundled_regulation_simulates_to_the_recorded_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut stems: Vec<String> = std::fs::read_dir(root().join("regulations"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    assert!(stems.len() >= 7, "bundled regulations: {stems:?}");
    let mut now = BTreeMap::new();
    for stem in &stems {
        for seed in SEEDS {
            let out = dir.path().join(format!("{stem}-{seed}"));
            now.extend(hashes(stem, seed, &out));
        }
    }
    let text: String = now.iter().map(|(k, v)| format!("{k}\t{v}\n")).collect();
    if std::env::var_os("ARBITER_BLESS").is_some() {
        std::fs::write(golden_path(), &text).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(golden_path()).unwrap();
    let was: BTreeMap<&str, &str> = recorded
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let mut diffs = Vec::new();
    for (k, v) in &now {
        match was.get(k.as_str()) {
            Some(w) if w == v => {}
            Some(_) => diffs.push(format!("changed: {k}")),
            None => diffs.push(format!("new: {k}")),
        }
    }
    for k in was.keys() {
        if !now.contains_key(*k) {
            diffs.push(format!("gone: {k}"));
        }
    }
    assert!(
        diffs.is_empty(),
        "the simulated events differ from tests/fixtures/simulate-golden.tsv:\n{}",
        diffs.join("\n")
    );
}
