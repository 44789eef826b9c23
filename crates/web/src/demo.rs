//! `arbiter serve --demo`: the four reference events simulated part-way — some rounds
//! played, the next round paired and published, one result of it still missing — so a
//! newcomer sees a living system at once.
//!
//! The simulator is called in one place only, [`simulate_part_way`]; re-point that function
//! if the simulator moves.

use crate::error::WebError;
use arbiter_core::{EventState, LogEntry};
use arbiter_director::api::write::EventLog;
use arbiter_simulate::{Simulator, Sizes};
use arbiter_store::{EventId, EventStore, SqliteStore};

/// The bundled reference regulations: (file name, text).
pub const REFERENCE: [(&str, &str); 4] = [
    (
        "kunshan-2026.toml",
        include_str!("../../../regulations/kunshan-2026.toml"),
    ),
    (
        "suzhou-2025.toml",
        include_str!("../../../regulations/suzhou-2025.toml"),
    ),
    (
        "jiujiang-2020.toml",
        include_str!("../../../regulations/jiujiang-2020.toml"),
    ),
    (
        "tianshui-2024.toml",
        include_str!("../../../regulations/tianshui-2024.toml"),
    ),
];

/// How far to play.
#[derive(Debug, Clone)]
pub struct PartWay {
    /// Rounds of the first section to complete before stopping (0: stop once round 1 is
    /// paired and published); `None`: half of the rounds planned.
    pub rounds: Option<u32>,
    pub seed: u64,
    pub sizes: Sizes,
    /// Results of the last round left out (1: one missing; `usize::MAX`: none entered).
    pub results_left: usize,
}

impl Default for PartWay {
    fn default() -> Self {
        PartWay {
            rounds: None,
            seed: 1,
            sizes: Sizes::default(),
            results_left: 1,
        }
    }
}

/// Simulate the event of regulation `toml` into `store` until its first section has
/// completed `how.rounds` rounds and the next round is paired and published, then enter
/// that round's results except the last `how.results_left` boards'. Every entry goes through the store's
/// checked append. Returns the event id.
pub fn simulate_part_way(
    store: &SqliteStore,
    toml: &str,
    file_name: &str,
    how: &PartWay,
) -> Result<EventId, WebError> {
    let reg = arbiter_regulation::parse(toml, file_name)
        .map_err(|e| WebError::BadRequest(e.to_string()))?;
    let first =
        reg.sections.first().map(|s| s.id.clone()).ok_or_else(|| {
            WebError::BadRequest(format!("{file_name}: 规程没有组别 (no section)"))
        })?;
    let event = store.create_event(&reg.event.name)?;
    let mut sim = Simulator::new(reg.clone(), toml, file_name, how.seed, &how.sizes);
    let mut log = arbiter_store::write::KeptLog {
        store,
        event: event.clone(),
        state: EventState::new(),
    };
    let director = |e: arbiter_director::DirectorError| WebError::Internal(e.to_string());
    loop {
        let batch = match log.with_current(|st| sim.next_batch(st))? {
            Ok(Some(b)) => b,
            Ok(None) => break,
            Err(e) => return Err(director(e)),
        };
        if batch.entries.is_empty() {
            continue;
        }
        let state = &log.state;
        let target = how.rounds.unwrap_or_else(|| {
            reg.section(&first).map_or(1, |sec| {
                (arbiter_director::section_plan(sec, state).rounds_planned() / 2).max(1)
            })
        });
        let rec = state.section(&first);
        let done = rec.map_or(0, |r| r.completed_rounds());
        let next_published = rec
            .and_then(|r| r.round(done + 1))
            .is_some_and(|r| r.published);
        let results = batch
            .entries
            .iter()
            .filter(|e| matches!(e, LogEntry::ResultEntered { .. }))
            .count();
        let stop_here = done >= target && next_published && results > 0;
        let mut batch = batch;
        if stop_here {
            // Everything before the round's last `results_left` results.
            let keep = results.saturating_sub(how.results_left);
            let cut = batch
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| matches!(e, LogEntry::ResultEntered { .. }))
                .nth(keep)
                .map_or(batch.entries.len(), |(i, _)| i);
            batch.entries.truncate(cut);
        }
        let expected = log.state.last_seq;
        arbiter_simulate::append_batch(&mut log, expected, batch)?.map_err(director)?;
        if stop_here {
            break;
        }
    }
    Ok(event)
}

/// A fresh in-memory database holding the four reference events part-way.
pub fn demo_store() -> Result<SqliteStore, WebError> {
    let store = SqliteStore::open_in_memory()?;
    for (file, text) in REFERENCE {
        simulate_part_way(&store, text, file, &PartWay::default())?;
    }
    Ok(store)
}

/// The demo's login: a chief arbiter named `demo` with a fresh random password, so that the
/// arbiters' desk can be tried at once (`serve --demo` prints both). Returns (login, password).
pub fn demo_account(store: &SqliteStore) -> Result<(String, String), WebError> {
    use arbiter_store::accounts::User;
    use arbiter_store::{AccountStore, Role};
    // 12 hex digits of the OS's randomness: short enough to type, never the same twice; and,
    // as every password set, not a common one (a draw of 12 digits could be).
    let mut password = crate::auth::token::random_token()[..12].to_string();
    while crate::auth::password::check_new("demo", &password).is_err() {
        password = crate::auth::token::random_token()[..12].to_string();
    }
    let hash = crate::auth::password::hash(&password).map_err(WebError::Internal)?;
    let (created, _) = crate::write::now_at()?;
    store.add_user(&User {
        login: "demo".into(),
        display_name: "演示裁判长".into(),
        role: Role::ChiefArbiter,
        password_hash: hash,
        created,
    })?;
    Ok(("demo".into(), password))
}
