//! The harness shared by the director's integration tests: the shipped regulations, whole
//! events simulated in memory, an event created by hand and fed the API's entries, the
//! arbiter's context at a given time, and valid ID numbers.
//!
//! The test binary `tests/it` has this module (`mod common;` in its `main.rs`); every test
//! file uses a part of it (`use crate::common; use common::*;`), hence `dead_code` is
//! allowed.

#![allow(dead_code)]

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::api::Ctx;
use arbiter_director::registration::event_created;
use arbiter_director::{apply_scratch, DirectorError};
use arbiter_regulation::Regulation;
use arbiter_simulate::{Simulator, Sizes};

// ---------------------------------------------------------------------------------------
// Regulations.

/// The text of the shipped regulation `regulations/{stem}.toml`.
pub fn source(stem: &str) -> String {
    let path = format!(
        "{}/../../regulations/{stem}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("regulation file")
}

/// The shipped regulation `stem` parsed: (regulation, its text, its file name).
pub fn regulation(stem: &str) -> (Regulation, String, String) {
    let src = source(stem);
    let file = format!("{stem}.toml");
    let reg = arbiter_regulation::parse(&src, &file).expect("regulation parses");
    (reg, src, file)
}

// ---------------------------------------------------------------------------------------
// Simulated events.

/// Field sizes: `n` players in every section.
pub fn sizes_all(n: usize) -> Sizes {
    Sizes {
        all: Some(n),
        ..Sizes::default()
    }
}

/// Field sizes by section: `[("open", 24), ("local", 0)]`.
pub fn sizes_by_section(sizes: &[(&str, usize)]) -> Sizes {
    Sizes {
        by_section: sizes.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
        ..Sizes::default()
    }
}

/// The simulator of the regulation text `src` (the shipped `stem`'s, perhaps edited).
pub fn simulator_of(src: &str, stem: &str, seed: u64, sizes: &Sizes) -> Simulator {
    let file = format!("{stem}.toml");
    let reg = arbiter_regulation::parse(src, &file).expect("regulation parses");
    Simulator::new(reg, src, &file, seed, sizes)
}

/// The simulator of the shipped regulation `stem`.
pub fn simulator(stem: &str, seed: u64, sizes: &Sizes) -> Simulator {
    simulator_of(&source(stem), stem, seed, sizes)
}

/// A whole event of the shipped regulation `stem` simulated in memory: the log, the final
/// state and the simulator.
pub fn run(stem: &str, seed: u64, sizes: &Sizes) -> (Vec<Recorded>, EventState, Simulator) {
    let mut sim = simulator(stem, seed, sizes);
    let (log, state) = sim
        .run_in_memory()
        .unwrap_or_else(|e| panic!("{stem} seed {seed}: {e}"));
    (log, state, sim)
}

// ---------------------------------------------------------------------------------------
// The API by hand.

/// `actor` at `hour`:00 on 2026-`month`-`day` (venue time), as the chief arbiter's role.
pub fn ctx_at(actor: &str, month: u32, day: u32, hour: u32) -> Ctx {
    let at = chrono::NaiveDate::from_ymd_opt(2026, month, day)
        .and_then(|d| d.and_hms_opt(hour, 0, 0))
        .expect("time");
    Ctx::new(actor, arbiter_director::api::Role::ChiefArbiter, at)
}

/// The registration desk (报名处) on 2026-`month`-`day` at 10:00.
pub fn desk_at(month: u32, day: u32) -> Ctx {
    ctx_at("报名处", month, day, 10)
}

/// The registration desk (报名处) on 2026-09-01 at 10:00.
pub fn desk_ctx() -> Ctx {
    desk_at(9, 1)
}

/// The chief arbiter (裁判长) on 2026-09-20 at 09:00, after the registration deadlines.
pub fn chief_ctx() -> Ctx {
    ctx_at("裁判长", 9, 20, 9)
}

/// An event of the shipped regulation `stem`, its text edited by `edit`, created (seed 7)
/// at [`desk_ctx`]'s time; nothing else yet.
pub fn event_with(stem: &str, edit: impl Fn(String) -> String) -> EventState {
    let src = edit(source(stem));
    let file = format!("{stem}.toml");
    let reg = arbiter_regulation::parse(&src, &file).unwrap();
    let mut state = EventState::new();
    let e = event_created(&reg, &src, &file, 7);
    apply_scratch(&mut state, &e, &desk_ctx().at_rfc3339()).unwrap();
    state
}

/// An event of the shipped regulation `stem`, created; nothing else yet.
pub fn event(stem: &str) -> EventState {
    event_with(stem, |src| src)
}

/// Folds `entries` into `state` at [`desk_ctx`]'s time.
pub fn apply(state: &mut EventState, entries: Vec<LogEntry>) {
    for e in entries {
        apply_scratch(state, &e, &desk_ctx().at_rfc3339()).unwrap();
    }
}

/// Appends `entries` as the store would (the expected sequence, `ctx`'s time and actor),
/// folding every one into `state`.
pub fn record(log: &mut Vec<Recorded>, state: &mut EventState, ctx: &Ctx, entries: Vec<LogEntry>) {
    for e in entries {
        let r = Recorded {
            seq: state.last_seq + 1,
            at: ctx.at_rfc3339(),
            actor: ctx.actor.clone(),
            entry: e,
        };
        state.apply(&r).expect("the API returns entries that fold");
        log.push(r);
    }
}

/// The reason of a refusal; fails the test if the operation was accepted.
pub fn refusal(r: Result<Vec<LogEntry>, DirectorError>) -> String {
    match r {
        Err(e) => e.to_string(),
        Ok(v) => panic!("expected a refusal, got {v:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// ID numbers.

/// A valid 18-digit ID number of Kunshan (320583): born `yyyymmdd`, sequence `seq` (odd =
/// man, even = woman). The check character (ISO 7064 MOD 11-2) is computed here,
/// independently of the code under test.
pub fn id(born: &str, seq: u32) -> String {
    let body = format!("320583{born}{seq:03}");
    let sum: u64 = body
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| u64::from(c.to_digit(10).unwrap()) * ((1u64 << (i + 1)) % 11))
        .sum();
    let v = (12 - sum % 11) % 11;
    let c = if v == 10 {
        'X'
    } else {
        char::from_digit(v as u32, 10).unwrap()
    };
    format!("{body}{c}")
}

/// The `k`-th of a series of valid ID numbers of men born on 1990-01-01.
pub fn man_id(k: u32) -> String {
    id("19900101", 10 * k + 1)
}

/// `cmd` decided as `ctx`'s actor on `state` the way every shell writes
/// (`command::decide`: authority, the operation, the text rule and the log's rules): its
/// entries, or the refusal.
pub fn decided(
    state: &EventState,
    ctx: &Ctx,
    cmd: impl Into<arbiter_director::command::Command>,
) -> Result<Vec<LogEntry>, DirectorError> {
    arbiter_director::command::decide(state, ctx, &cmd.into()).map(|d| d.entries)
}
