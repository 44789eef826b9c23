//! `cargo run --release -p arbiter-xiangqi --example perft -- DEPTH [FEN] [THREADS]`: the
//! node count and the time taken.

use arbiter_xiangqi::Position;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let p = match args.get(2).filter(|f| !f.is_empty()) {
        Some(f) => Position::from_fen(f).expect("FEN"),
        None => Position::start(),
    };
    let threads: usize = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(1);
    let t = Instant::now();
    let n = p.perft_parallel(depth, threads);
    let s = t.elapsed().as_secs_f64();
    println!(
        "depth {depth}: {n} nodes in {s:.3} s ({:.1} M nodes/s)",
        n as f64 / s / 1e6
    );
}
