//! Time one Swiss round on generated sections: `cargo run --release -p arbiter-pairing
//! --example measure -- 1000 5 [seed]`. Prints the pricing statistics of the exact
//! restricted-graph path (solves, edges added by pricing, suspects checked).

use arbiter_pairing::checker::check;
use arbiter_pairing::generator::bench_state;
use arbiter_pairing::swiss::pair_swiss_stats;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let round: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let t0 = Instant::now();
    let state = bench_state(players, round, seed);
    let gen = t0.elapsed();
    let t1 = Instant::now();
    match pair_swiss_stats(&state, round.max(2)) {
        Ok((p, st)) => {
            let el = t1.elapsed();
            let v = check(&state, round.max(2), &p);
            println!(
                "players {players} round {round}: generate {:.3}s, pair {:.3}s, boards {}, violations {}, \
                 solves {}, initial edges {}, priced-in edges {}, suspects {}, certified optimal {}",
                gen.as_secs_f64(),
                el.as_secs_f64(),
                p.boards.len(),
                v.len(),
                st.solves,
                st.initial_edges,
                st.added_edges,
                st.suspects,
                st.certified
            );
        }
        Err(e) => println!("players {players} round {round}: {e}"),
    }
}
