//! The crate's integration tests as one test binary: each file of this folder is a module of
//! it, so the tests (and the generic code they instantiate) are compiled and linked once, not
//! once per file. They still run in parallel, as threads of this one process; a test that
//! needs a process of its own (it sets the environment, or measures the process) stays a file
//! of its own in `tests/` and says why. A new test file goes here, with its `mod` line below.

#[path = "../common/mod.rs"]
mod common;

mod api_rounds;
mod armageddon;
mod claims;
mod corrections;
mod desk_undo;
mod events;
mod export_fallback;
mod field_sizes;
mod fouls;
mod knockout_work;
mod match_confirmation;
mod money;
mod officials;
mod online_entries;
mod plain_knockout;
mod reentry;
mod rosters;
mod settings;
mod team_boards;
mod team_manual;
mod team_prizes;
mod verify_prefixes;
mod views;
