//! The crate's integration tests as one test binary: each file of this folder is a module of
//! it, so the tests (and the generic code they instantiate) are compiled and linked once, not
//! once per file. They still run in parallel, as threads of this one process; a test that
//! needs a process of its own (it sets the environment, or measures the process) stays a file
//! of its own in `tests/` and says why. A new test file goes here, with its `mod` line below.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod browser;
mod browser_accounts;
mod browser_checkin;
mod browser_chief;
mod browser_claims;
mod browser_entries;
mod browser_live;
mod browser_phone_cache;
mod browser_results;
mod browser_team;
mod checkin_phone;
mod checkin_receipts;
mod claims;
mod claims_knockout;
mod connections;
mod connections_2;
mod crosstable;
mod desk;
mod desk_accounts;
mod desk_awards;
mod desk_entry_form;
mod desk_games;
mod desk_live;
mod desk_log;
mod desk_merge;
mod desk_money;
mod desk_numbering;
mod desk_print;
mod desk_registration;
mod desk_team_match;
mod groups_page;
mod http;
mod live;
mod login_attacks;
mod login_attacks_2;
mod online_privacy;
mod public;
mod public_url;
mod records;
mod redirects;
mod server_log;
mod team_match;
mod tls_proxy;
mod tls_redirect;
