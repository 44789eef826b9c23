//! The crate's integration tests as one test binary: each file of this folder is a module of
//! it, so the tests (and the generic code they instantiate) are compiled and linked once, not
//! once per file. They still run in parallel, as threads of this one process; a test that
//! needs a process of its own (it sets the environment, or measures the process) stays a file
//! of its own in `tests/` and says why. A new test file goes here, with its `mod` line below.

mod association;
mod previous_round_rank;
mod prize;
mod prize_props;
mod real_events;
mod team;
mod team_match;
mod team_match_props;
mod team_props;
mod withdrawal;
mod worked_examples;
