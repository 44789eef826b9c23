//! Director commands wired into `arbiter event …`: `verify` (replay and recompute everything)
//! and the published JSON export (`arbiter-export/1`).

use anyhow::Context;
use arbiter_core::EventState;
use arbiter_director::export::Export;
use arbiter_store::{AnyStore, EventId, EventStore};
use std::path::Path;

fn open(db: &Path) -> anyhow::Result<AnyStore> {
    if super::db_missing(db) {
        anyhow::bail!("数据库 {} 不存在 (database not found)", db.display());
    }
    super::event::open_db(db)
}

/// `arbiter event verify DB`: replays every event's log from scratch and recomputes every
/// pairing, score, standing and prize; compares with `export.json` next to the database when
/// there is one. Exit 0 when everything matches, 1 on any difference (listed on stdout).
pub fn verify(db: &Path) -> anyhow::Result<u8> {
    let store = open(db)?;
    // Next to a SQLite file only; a PostgreSQL database has no folder.
    let published: Option<Export> = (!super::is_postgres(db))
        .then(|| db.parent())
        .flatten()
        .map(|d| d.join("export.json"))
        .filter(|p| p.exists())
        .map(|p| -> anyhow::Result<Export> {
            let text = std::fs::read_to_string(&p)
                .with_context(|| format!("无法读取 {} (cannot read)", p.display()))?;
            serde_json::from_str(&text).with_context(|| {
                format!(
                    "{}: 不是 arbiter-export/1 文档 (not an export document)",
                    p.display()
                )
            })
        })
        .transpose()?;
    let events = store.list_events()?;
    if events.is_empty() {
        println!("数据库中没有赛事 (no events in the database)");
        return Ok(1);
    }
    let mut bad = 0usize;
    for ev in &events {
        let log = store.read(&ev.id)?;
        let state = EventState::replay(&log).ok();
        // The published export belongs to this event when the name and regulation agree.
        let mine = published.as_ref().filter(|p| {
            state.as_ref().is_some_and(|s| {
                p.event.name == s.name()
                    && p.event.regulation == arbiter_director::regulation_stem(s)
            })
        });
        let diffs = arbiter_director::verify(&log, mine);
        if diffs.is_empty() {
            println!(
                "{} {}: 通过 — {} 条日志全部重放、重新编排与重新计算一致{} (verified)",
                ev.id,
                ev.name,
                log.len(),
                if mine.is_some() {
                    "，与 export.json 一致"
                } else {
                    ""
                }
            );
        } else {
            bad += diffs.len();
            println!(
                "{} {}: {} 处不一致 (differences):",
                ev.id,
                ev.name,
                diffs.len()
            );
            for d in &diffs {
                println!("  {d}");
            }
        }
    }
    Ok(if bad == 0 { 0 } else { 1 })
}

/// `arbiter event export ID --format json`: the published `arbiter-export/1` document on stdout.
pub fn export_json(db: &Path, event_id: &str) -> anyhow::Result<u8> {
    let store = open(db)?;
    let id = EventId(event_id.to_string());
    let log = match store.read(&id) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    let state = EventState::replay(&log).map_err(|e| anyhow::anyhow!("{e}"))?;
    let export = arbiter_director::export(&state)?;
    print!("{}", export.to_json());
    Ok(0)
}

/// `arbiter event export ID --format trf --section S`: the section as a TRF-16 file on stdout.
pub fn export_trf(db: &Path, event_id: &str, section: Option<&str>) -> anyhow::Result<u8> {
    let es = match super::load_event_section(db, event_id, section)? {
        Ok(es) => es,
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            return Ok(2);
        }
    };
    let computed = arbiter_director::publish::compute(&es.reg, &es.state)?;
    match arbiter_director::trf_export::section_trf(&es.reg, &es.state, &computed, &es.section)? {
        Some(t) => {
            print!("{}", arbiter_trf::write(&t));
            Ok(0)
        }
        None => {
            eprintln!(
                "错误 error: 组别 「{}」 尚未抽签或为循环赛, 没有 TRF 可导出 (no numbers drawn yet, or a round robin: no TRF)",
                es.section
            );
            Ok(2)
        }
    }
}
