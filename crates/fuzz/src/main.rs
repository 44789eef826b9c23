//! `arbiter-fuzz [TARGET|all] [--seconds S] [--execs N] [--seed N] [--hang S]
//!               [--corpus DIR] [--findings DIR]`
//! `arbiter-fuzz TARGET --replay FILE`
//!
//! Fuzz the parsers (targets: regulation, csv, xlsx, trf, log, xiangqi). The time budget is shared evenly by
//! the chosen targets. Prints executions per target; exits 1 when a target panicked or hung
//! (the input is written to the findings folder, default `target/fuzz-findings`).

use arbiter_fuzz::{fuzz, load_corpus, run_one, Budget, TARGETS};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

fn usage() -> ExitCode {
    eprintln!(
        "用法 usage: arbiter-fuzz [regulation|csv|xlsx|trf|log|xiangqi|all] [--seconds S] [--execs N] [--seed N] [--hang S] [--corpus DIR] [--findings DIR] [--replay FILE]"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut which = "all".to_string();
    let mut seconds = 20.0f64;
    let mut execs: Option<u64> = None;
    let mut seed = 1u64;
    let mut hang = 10.0f64;
    let mut corpus = root.join("corpus");
    let mut findings = root.join("../../target/fuzz-findings");
    let mut replay: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next();
        match a.as_str() {
            "--seconds" => match value().and_then(|v| v.parse().ok()) {
                Some(v) => seconds = v,
                None => return usage(),
            },
            "--execs" => match value().and_then(|v| v.parse().ok()) {
                Some(v) => execs = Some(v),
                None => return usage(),
            },
            "--seed" => match value().and_then(|v| v.parse().ok()) {
                Some(v) => seed = v,
                None => return usage(),
            },
            "--hang" => match value().and_then(|v| v.parse().ok()) {
                Some(v) => hang = v,
                None => return usage(),
            },
            "--corpus" => match value() {
                Some(v) => corpus = v.into(),
                None => return usage(),
            },
            "--findings" => match value() {
                Some(v) => findings = v.into(),
                None => return usage(),
            },
            "--replay" => match value() {
                Some(v) => replay = Some(v.into()),
                None => return usage(),
            },
            t if !t.starts_with('-') => which = t.to_string(),
            _ => return usage(),
        }
    }
    let chosen: Vec<_> = TARGETS
        .iter()
        .filter(|t| which == "all" || t.name == which)
        .collect();
    if chosen.is_empty() {
        eprintln!("未知的目标 `{which}` (unknown target)");
        return usage();
    }
    if let Some(file) = replay {
        let input = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("无法读取 {}: {e} (cannot read)", file.display());
                return ExitCode::from(2);
            }
        };
        let mut bad = false;
        for t in &chosen {
            match run_one(t, &input) {
                Ok(sig) => println!("{}: {sig}", t.name),
                Err(msg) => {
                    bad = true;
                    println!("{}: 崩溃 panic: {msg}", t.name);
                }
            }
        }
        return ExitCode::from(u8::from(bad));
    }
    let share = Duration::from_secs_f64((seconds / chosen.len() as f64).max(0.1));
    let mut bad = false;
    for (i, t) in chosen.iter().enumerate() {
        let dir = corpus.join(t.name);
        let files = match load_corpus(&dir) {
            Ok(f) => f,
            Err(e) => {
                eprintln!(
                    "{}: 无法读取语料 {}: {e} (cannot read the corpus)",
                    t.name,
                    dir.display()
                );
                return ExitCode::from(2);
            }
        };
        let budget = Budget {
            duration: share,
            max_execs: execs,
            seed: seed.wrapping_add(i as u64),
            hang: Duration::from_secs_f64(hang),
        };
        let r = fuzz(t, files, &budget, &findings);
        println!(
            "{}: {} 次执行 executions in {:.1} s ({:.0}/s), 语料 corpus {} → {}, {} 种结果 outcomes, {} 个发现 findings",
            r.target,
            r.execs,
            r.elapsed.as_secs_f64(),
            r.execs as f64 / r.elapsed.as_secs_f64().max(1e-9),
            r.corpus_start,
            r.corpus_end,
            r.outcomes,
            r.findings.len()
        );
        for f in &r.findings {
            bad = true;
            println!(
                "  {}: {} — {}",
                f.kind,
                f.message,
                f.saved
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            );
        }
    }
    ExitCode::from(u8::from(bad))
}
