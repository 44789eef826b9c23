//! Test helper for the crash test: appends entries to the first event of a database in a
//! loop (one transaction each) and prints every acknowledged seq on its own line, flushed,
//! until killed or `LIMIT` appends are done. Usage: `arbiter-crash-writer DB [LIMIT]`, DB a
//! SQLite file or a PostgreSQL URL.

use arbiter_core::{EventCreated, LogEntry, Person, PlayerId, PlayerRegistered, SectionInfo};
use arbiter_store::EventStore;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("错误 error: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let db = args
        .next()
        .ok_or("usage: arbiter-crash-writer DB [LIMIT]")?;
    let limit: u64 = match args.next() {
        Some(s) => s.parse().map_err(|_| format!("bad LIMIT `{s}`"))?,
        None => u64::MAX,
    };
    let store = arbiter_store::open(&db).map_err(|e| e.to_string())?;
    let at = "2026-01-01T00:00:00+08:00";
    let event = match store
        .list_events()
        .map_err(|e| e.to_string())?
        .into_iter()
        .next()
    {
        Some(e) => e.id,
        None => store.create_event("crash").map_err(|e| e.to_string())?,
    };
    // A kill between creating the event and its first append leaves an empty log.
    if store.read(&event).map_err(|e| e.to_string())?.is_empty() {
        let setup = [
            LogEntry::EventCreated(EventCreated {
                name: "crash".into(),
                regulation: String::new(),
                file_name: "crash.toml".into(),
                seed: 0,
                sections: vec![SectionInfo {
                    id: "open".into(),
                    name: "公开组".into(),
                    divisions: Vec::new(),
                }],
                limits: Default::default(),
            }),
            LogEntry::PlayerRegistered(PlayerRegistered {
                player: PlayerId(1),
                section: "open".into(),
                person: Person::named("甲"),
                team: None,
                evidence: vec![],
                local: false,
                rating: None,
                grade: None,
                flags: Vec::new(),
                late_reason: None,
                submission: None,
            }),
        ];
        store
            .append(&event, 0, &setup, "crash", at)
            .map_err(|e| e.to_string())?;
    }
    let mut seq = store.read(&event).map_err(|e| e.to_string())?.len() as u64;
    let out = std::io::stdout();
    for _ in 0..limit {
        let entry = LogEntry::FeePaid {
            player: PlayerId(1),
            amount_fen: 1,
            receipt: Some(format!("r{}", seq + 1)),
            item: None,
        };
        seq = store
            .append(&event, seq, &[entry], "crash", at)
            .map_err(|e| e.to_string())?;
        let mut o = out.lock();
        writeln!(o, "{seq}")
            .and_then(|_| o.flush())
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
