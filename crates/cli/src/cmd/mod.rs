//! One module per command group. Each `run` returns the process exit code:
//! 0 success, 1 error, 2 invalid input (e.g. a regulation that does not check),
//! 3 no valid pairing exists.

pub mod bench;
pub mod director_cmds;
pub mod event;
pub mod knockout;
pub mod pairing;
pub mod player;
pub mod regulation;
pub mod simulate;
pub mod standings;

#[allow(dead_code)]
/// Default database file of every command that takes `--db`.
pub const DEFAULT_DB: &str = "arbiter.db";
