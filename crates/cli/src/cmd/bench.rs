//! `arbiter bench …`: end-to-end timings of the engine on synthetic sections.

use arbiter_pairing::PairingError;
use clap::Subcommand;
use std::time::Instant;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// 编排一轮的耗时 — time the pairing of one round of a synthetic section
    Pairing {
        /// Players in the section
        #[arg(long)]
        players: usize,
        /// The round to pair (earlier rounds are simulated first)
        #[arg(long)]
        round: u32,
        /// Seed of the synthetic section
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Peak resident memory of this process in KiB (Linux `VmHWM`), if the system says.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn run(c: BenchCmd) -> anyhow::Result<u8> {
    match c {
        BenchCmd::Pairing {
            players,
            round,
            seed,
        } => {
            if round == 0 || players == 0 {
                eprintln!("错误 error: --players 与 --round 至少为 1 (--players and --round must be at least 1)");
                return Ok(2);
            }
            let t0 = Instant::now();
            let state = arbiter_pairing::generator::bench_state(players, round, seed);
            let build = t0.elapsed();
            let t1 = Instant::now();
            let result = if round == 1 {
                arbiter_pairing::round1::pair_round1(&state, seed)
            } else {
                arbiter_pairing::pair_swiss(&state, round)
            };
            let pair = t1.elapsed();
            let boards = match result {
                Ok(p) => p.boards.len(),
                Err(e @ PairingError::NoValidPairing { .. }) => {
                    eprintln!("{e}");
                    return Ok(3);
                }
                Err(e) => {
                    eprintln!("错误 error: {e}");
                    return Ok(2);
                }
            };
            println!(
                "pairing: {players} players, round {round}, seed {seed}: {:.3} ms ({boards} boards; \
                 state built in {:.3} ms)",
                pair.as_secs_f64() * 1e3,
                build.as_secs_f64() * 1e3
            );
            if let Some(kib) = peak_rss_kib() {
                println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
            }
            Ok(0)
        }
    }
}
