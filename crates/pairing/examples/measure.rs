//! Time one Swiss round on generated sections: `cargo run --release -p arbiter-pairing
//! --example measure -- 1000 5 [seed]`. Prints the pricing statistics of the exact
//! restricted-graph path (solves, edges added by pricing, suspects checked) and a digest of
//! the pairing (boards in order, colours, bye), so that two builds can be compared for
//! identical output.

use arbiter_pairing::checker::check;
use arbiter_pairing::generator::bench_state;
use arbiter_pairing::swiss::{pair_swiss_local_tie, pair_swiss_stats};
use arbiter_pairing::Pairing;
use std::time::Instant;

/// FNV-1a over the boards (red, black, in board order) and the bye.
fn digest(p: &Pairing) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for b in &p.boards {
        eat(u64::from(b.red.get()));
        eat(u64::from(b.black.get()));
    }
    eat(p.bye.map_or(u64::MAX, |b| u64::from(b.get())));
    h
}

/// This thread's time on a CPU so far (Linux: `/proc/thread-self/schedstat`, nanoseconds),
/// which other work on a busy machine does not inflate as much as the wall clock.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let round: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let t0 = Instant::now();
    let state = bench_state(players, round, seed);
    let gen = t0.elapsed();
    // A fourth argument `local`: the tie settled by exchanges whatever the field size.
    let local = args.get(4).is_some_and(|a| a == "local");
    let solve = || {
        if local {
            pair_swiss_local_tie(&state, round.max(2))
        } else {
            pair_swiss_stats(&state, round.max(2))
        }
    };
    // `MEASURE_REPEAT=N`: pair the same round N more times first (for `perf record` of the
    // pairing alone, and a best-of-N figure); the printed time is the last run's.
    let repeat: usize = std::env::var("MEASURE_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut best = None::<f64>;
    for _ in 0..repeat {
        let t = Instant::now();
        let _ = solve();
        let e = t.elapsed().as_secs_f64();
        best = Some(best.map_or(e, |b: f64| b.min(e)));
    }
    if let Some(b) = best {
        println!("best of {repeat}: {b:.4}s");
    }
    let t1 = Instant::now();
    let c1 = cpu_ns();
    let solved = solve();
    match solved {
        Ok((p, st)) => {
            let el = t1.elapsed();
            let cpu = match (c1, cpu_ns()) {
                (Some(a), Some(b)) => format!(" (cpu {:.3}s)", (b - a) as f64 / 1e9),
                _ => String::new(),
            };
            let v = check(&state, round.max(2), &p);
            println!(
                "players {players} round {round}: generate {:.3}s, pair {:.3}s{cpu}, boards {}, violations {}, \
                 solves {}, initial edges {}, priced-in edges {}, suspects {}, certified optimal {}, tie exchanges {:?}, tie sum {}, digest {:016x}",
                gen.as_secs_f64(),
                el.as_secs_f64(),
                p.boards.len(),
                v.len(),
                st.solves,
                st.initial_edges,
                st.added_edges,
                st.suspects,
                st.certified,
                st.tie_exchanges,
                st.tie_total,
                digest(&p)
            );
        }
        Err(e) => println!("players {players} round {round}: {e}"),
    }
}
