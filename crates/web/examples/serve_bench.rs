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
//! - `serve_bench live DB EVENT SECTION ROUND SUBSCRIBERS ADDR [RESULTS]` — opens SUBSCRIBERS
//!   live-update streams (`/e/EVENT/live`, as the phones' pages do) to the server at ADDR,
//!   waits until every one has its first message, then enters RESULTS (default 5) results of
//!   that round one at a time through the arbiter's API on its own connection (another
//!   process, as the CLI's writes are: the server notices by its poll) and times, for each,
//!   how long after the write every stream received the change: received, p50, p99, last.

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
        Some("live") if args.len() == 7 || args.len() == 8 => live(&args[1..]),
        _ => Err(
            "usage: serve_bench fixture DB PLAYERS [ROUNDS_PLAYED] | enter DB EVENT SECTION ROUND PER_SECOND | serve DB ADDR | live DB EVENT SECTION ROUND SUBSCRIBERS ADDR [RESULTS]"
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

/// One live-update stream: connects, reads its first message, reports ready, then reports the
/// instant each later `change` message arrives (until the stream ends).
async fn subscriber(
    addr: std::net::SocketAddr,
    event: String,
    ready: tokio::sync::mpsc::UnboundedSender<bool>,
    got: tokio::sync::mpsc::UnboundedSender<Instant>,
) {
    let Ok(stream) = tokio::net::TcpStream::connect(addr).await else {
        let _ = ready.send(false);
        return;
    };
    let req =
        format!("GET /e/{event}/live HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n");
    let mut sent = 0;
    while sent < req.len() {
        if stream.writable().await.is_err() {
            let _ = ready.send(false);
            return;
        }
        match stream.try_write(&req.as_bytes()[sent..]) {
            Ok(n) => sent += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(_) => {
                let _ = ready.send(false);
                return;
            }
        }
    }
    // Messages are counted by their `event: change` lines; the first is the hello.
    let mut seen = 0usize;
    let mut text = String::new();
    let mut buf = vec![0u8; 4096];
    loop {
        if stream.readable().await.is_err() {
            break;
        }
        match stream.try_read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                text.push_str(&String::from_utf8_lossy(&buf[..n]));
                let now = Instant::now();
                let count = text.matches("event: change").count();
                while seen < count {
                    if seen == 0 {
                        if !text.starts_with("HTTP/1.1 200") {
                            let _ = ready.send(false);
                            return;
                        }
                        let _ = ready.send(true);
                    } else {
                        let _ = got.send(now);
                    }
                    seen += 1;
                }
                // Keep only the tail a split `event: change` could start in.
                if text.len() > 8192 {
                    let cut = text.len() - 64;
                    let cut = (cut..text.len())
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(text.len());
                    seen -= text[..cut].matches("event: change").count();
                    text.drain(..cut);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(_) => break,
        }
    }
    if seen == 0 {
        let _ = ready.send(false);
    }
}

fn live(a: &[String]) -> Result<(), String> {
    let db = a[0].clone();
    let event = a[1].clone();
    let section = a[2].clone();
    let round: u32 = a[3].parse().map_err(|_| "ROUND")?;
    let n: usize = a[4].parse().map_err(|_| "SUBSCRIBERS")?;
    let addr: std::net::SocketAddr = a[5]
        .parse()
        .map_err(|_| format!("`{}` 不是地址 (not an address)", a[5]))?;
    let results: usize = match a.get(6) {
        Some(r) => r.parse().map_err(|_| "RESULTS")?,
        None => 5,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel();
        let (got_tx, mut got_rx) = tokio::sync::mpsc::unbounded_channel();
        for _ in 0..n {
            tokio::spawn(subscriber(
                addr,
                event.clone(),
                ready_tx.clone(),
                got_tx.clone(),
            ));
        }
        drop(ready_tx);
        drop(got_tx);
        let opened = Instant::now();
        let (mut up, mut refused) = (0usize, 0usize);
        while up + refused < n {
            match tokio::time::timeout(Duration::from_secs(60), ready_rx.recv()).await {
                Ok(Some(true)) => up += 1,
                Ok(Some(false)) => refused += 1,
                _ => break,
            }
        }
        println!(
            "{up} streams open ({refused} refused or failed) in {:.2} s",
            opened.elapsed().as_secs_f64()
        );
        if up == 0 {
            return Err("no stream opened".to_string());
        }
        for k in 1..=results {
            let (db, event, section) = (db.clone(), event.clone(), section.clone());
            let written = tokio::task::spawn_blocking(move || {
                enter_one(&db, &event, &section, round)
            })
            .await
            .map_err(|e| e.to_string())??;
            let mut late: Vec<Duration> = Vec::with_capacity(up);
            while late.len() < up {
                match tokio::time::timeout(Duration::from_secs(10), got_rx.recv()).await {
                    Ok(Some(t)) => late.push(t.saturating_duration_since(written)),
                    _ => break,
                }
            }
            late.sort_unstable();
            let at = |q: usize| late.get((late.len() * q / 100).min(late.len().saturating_sub(1)));
            let ms = |d: Option<&Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
            println!(
                "result {k}: {} of {up} streams received it; after the write p50 {:.0} ms, p99 {:.0} ms, last {:.0} ms",
                late.len(),
                ms(at(50)),
                ms(at(99)),
                ms(late.last())
            );
            // Let the streams go quiet before the next write.
            tokio::time::sleep(Duration::from_millis(1500)).await;
            while got_rx.try_recv().is_ok() {}
        }
        Ok(())
    })
}

/// Enter one missing result of `round` (as `enter` does) and return the instant the append
/// returned.
fn enter_one(db: &str, event: &str, section: &str, round: u32) -> Result<Instant, String> {
    let store = SqliteStore::open(db).map_err(|e| e.to_string())?;
    let id = EventId(event.to_string());
    let state = store.state(&id).map_err(|e| e.to_string())?;
    let board = state
        .section(section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.boards.iter().find(|b| b.result.is_none()))
        .map(|b| b.board)
        .ok_or("no board left without a result")?;
    let at = chrono::NaiveDate::from_ymd_opt(2020, 11, 1)
        .and_then(|d| d.and_hms_opt(12, 0, 0))
        .ok_or("time")?;
    let ctx = Ctx::new("裁判员", arbiter_director::api::Role::Arbiter, at);
    let mut input = ResultInput::new(board, GameResult::Draw);
    input.round = Some(round);
    let entries = enter_result(&state, &ctx, section, &input).map_err(|e| e.to_string())?;
    store
        .append(&id, state.last_seq, &entries, &ctx.actor, &ctx.at_rfc3339())
        .map_err(|e| e.to_string())?;
    Ok(Instant::now())
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
