//! The director (裁判长的流程): runs an event by its regulation — registration, pairing each
//! round, results, knockouts, standings, prizes — as log entries, and builds the published
//! export (`arbiter-export/1`).
//!
//! Invariant: pure. No files, no printing, no clocks; randomness only from explicit seeds.

pub mod export;
pub mod synth;
