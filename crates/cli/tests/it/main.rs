//! The crate's integration tests as one test binary: each file of this folder is a module of
//! it, so the tests (and the generic code they instantiate) are compiled and linked once, not
//! once per file. They still run in parallel, as threads of this one process; a test that
//! needs a process of its own (it sets the environment, or measures the process) stays a file
//! of its own in `tests/` and says why. A new test file goes here, with its `mod` line below.

#[path = "../common/mod.rs"]
mod common;

mod age_groups_cli;
mod as_cli;
mod awards_cli;
mod bench_cli;
mod clauses_cli;
mod close_cli;
mod crash;
mod desk_cli;
mod discipline_cli;
mod documents_cli;
mod event_cli;
mod export_cli;
mod games_cli;
mod grades_cli;
mod groups_cli;
mod import_cli;
mod knockout_blocks_cli;
mod knockout_cli;
mod knockout_games_cli;
mod knockout_plain_cli;
mod knockout_seeds_cli;
mod manual_pairing_cli;
mod money_cli;
mod numbering_cli;
mod pairing_cli;
mod postgres;
mod print_cli;
mod printset_cli;
mod qualification_cli;
mod readme;
mod records_cli;
mod registration_rules_cli;
mod regulation_cli;
mod regulation_settings_cli;
mod reliability;
mod rounds_cli;
mod rounds_e2e_cli;
mod serve;
mod serve_limits;
mod settings_cli;
mod simulate;
mod simulate_golden;
mod simulate_verify_cli;
mod standings_cli;
mod team_match_cli;
mod tidy;
mod user_cli;
mod xiangqi_cli;
