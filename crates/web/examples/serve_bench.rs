//! Helper of `scripts/bench-serve.sh` (the web server's load benchmark).
//!
//! - `serve_bench fixture DB PLAYERS [ROUNDS_PLAYED]` — a database with the Jiujiang senior
//!   section of PLAYERS players simulated through ROUNDS_PLAYED rounds (default 1) and the
//!   next round paired and published, none of its results entered. With 0 the page is
//!   round 1 (paired by the slide, no score-group matching): the 10,000-player fixture takes
//!   seconds that way, where pairing a round 2 of 10,000 takes many minutes. Prints
//!   `EVENT SECTION ROUND BOARDS`.
//! - `serve_bench enter DB EVENT SECTION ROUND PER_SECOND` — enter that round's results one
//!   by one through the arbiter's API (as the desk or the CLI would, on its own connection),
//!   PER_SECOND a second, until every board has one. The writer keeps its folded state and
//!   reads only the entries after it (not the whole log per result).
//! - `serve_bench serve DB ADDR` — the server of `arbiter serve --db DB --addr ADDR` (the same
//!   `arbiter_web::serve`), for measuring without building the whole CLI.

use arbiter_director::api::results::{enter_result, ResultInput};
use arbiter_director::api::Ctx;
use arbiter_store::{EventId, EventStore, SqliteStore};
use arbiter_types::GameResult;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("fixture") if args.len() == 3 => fixture(&args[1], &args[2], 1),
        Some("fixture") if args.len() == 4 => match args[3].parse() {
            Ok(rounds) => fixture(&args[1], &args[2], rounds),
            Err(_) => Err(format!("`{}` 不是轮数 (not a number of rounds)", args[3])),
        },
        Some("enter") if args.len() == 6 => enter(&args[1..]),
        Some("serve") if args.len() == 3 => serve(&args[1], &args[2]),
        _ => Err(
            "usage: serve_bench fixture DB PLAYERS [ROUNDS_PLAYED] | enter DB EVENT SECTION ROUND PER_SECOND | serve DB ADDR"
                .into(),
        ),
    };
    if let Err(e) = r {
        eprintln!("错误 error: {e}");
        std::process::exit(2);
    }
}

fn serve(db: &str, addr: &str) -> Result<(), String> {
    let addr = addr
        .parse()
        .map_err(|_| format!("`{addr}` 不是地址 (not an address)"))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(arbiter_web::serve(arbiter_web::ServeConfig::new(db, addr)))
        .map_err(|e| e.to_string())
}

fn fixture(db: &str, players: &str, rounds: u32) -> Result<(), String> {
    let n: usize = players
        .parse()
        .map_err(|_| format!("`{players}` 不是人数"))?;
    let store = SqliteStore::open(db).map_err(|e| e.to_string())?;
    let (file, text) = arbiter_web::demo::REFERENCE
        .iter()
        .find(|(f, _)| *f == "jiujiang-2020.toml")
        .ok_or("no bundled jiujiang-2020.toml")?;
    let mut sizes = arbiter_simulate::Sizes::default();
    sizes.by_section.insert("senior".into(), n);
    sizes.by_section.insert("group".into(), 8);
    let how = arbiter_web::demo::PartWay {
        rounds: Some(rounds),
        seed: 1,
        sizes,
        results_left: usize::MAX,
    };
    let id = arbiter_web::demo::simulate_part_way(&store, text, file, &how)
        .map_err(|e| e.to_string())?;
    let state = store.state(&id).map_err(|e| e.to_string())?;
    let sec = state.section("senior").ok_or("no senior section")?;
    let round = sec.rounds.values().next_back().ok_or("no round")?;
    println!("{} senior {} {}", id, round.round, round.boards.len());
    Ok(())
}

fn enter(a: &[String]) -> Result<(), String> {
    let store = SqliteStore::open(&a[0]).map_err(|e| e.to_string())?;
    let id = EventId(a[1].clone());
    let section = a[2].as_str();
    let round: u32 = a[3].parse().map_err(|_| "ROUND")?;
    let rate: f64 = a[4].parse().map_err(|_| "PER_SECOND")?;
    let every = Duration::from_secs_f64(1.0 / rate.max(0.1));
    let start = Instant::now();
    let mut n = 0u32;
    // Folded once, then kept current by applying only the entries after its last seq (as
    // the server's cache does): the writer's own CPU stays small beside the server's.
    let mut state = store.state(&id).map_err(|e| e.to_string())?;
    loop {
        for r in store
            .read_after(&id, state.last_seq)
            .map_err(|e| e.to_string())?
        {
            state.apply(&r).map_err(|e| e.to_string())?;
        }
        let Some(board) = state
            .section(section)
            .and_then(|s| s.round(round))
            .and_then(|r| r.boards.iter().find(|b| b.result.is_none()))
            .map(|b| b.board)
        else {
            break;
        };
        let at = chrono::NaiveDate::from_ymd_opt(2020, 11, 1)
            .and_then(|d| d.and_hms_opt(12, 0, 0))
            .ok_or("time")?;
        let ctx = Ctx::new("裁判员", arbiter_director::api::Role::Arbiter, at);
        let result =
            [GameResult::RedWin, GameResult::Draw, GameResult::BlackWin][board as usize % 3];
        let mut input = ResultInput::new(board, result);
        input.round = Some(round);
        let entries = enter_result(&state, &ctx, section, &input).map_err(|e| e.to_string())?;
        store
            .append(&id, state.last_seq, &entries, &ctx.actor, &ctx.at_rfc3339())
            .map_err(|e| e.to_string())?;
        n += 1;
        let due = start + every * n;
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    eprintln!(
        "entered {n} results in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
