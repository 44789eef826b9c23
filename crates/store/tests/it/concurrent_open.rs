//! Several connections creating the same new database at the same moment (two arbiters
//! running `event create` on a fresh file, or two servers starting on an empty PostgreSQL
//! database): every one succeeds, the schema is migrated once, nothing is lost.

use crate::common;

use arbiter_store::{EventStore, SqliteStore};
use common::Backend;
use std::sync::{Arc, Barrier};

fn simultaneous_creation_of_a_new_database_never_reports_locked(b: &impl Backend) {
    const WRITERS: usize = 6;
    for round in 0..15 {
        let fresh = b.another();
        let path = fresh.db();
        let barrier = Arc::new(Barrier::new(WRITERS));
        let handles: Vec<_> = (0..WRITERS)
            .map(|w| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::spawn(move || -> Result<(), String> {
                    barrier.wait();
                    let s = arbiter_store::open(&path).map_err(|e| format!("open: {e}"))?;
                    s.create_event(&format!("赛事 {w}"))
                        .map_err(|e| format!("create: {e}"))?;
                    Ok(())
                })
            })
            .collect();
        for h in handles {
            h.join()
                .unwrap()
                .unwrap_or_else(|e| panic!("round {round}: {e}"));
        }
        let s = fresh.open();
        assert_eq!(s.list_events().unwrap().len(), WRITERS, "round {round}");
        assert_eq!(s.schema_version().unwrap(), SqliteStore::SCHEMA_VERSION);
    }
}

both!(simultaneous_creation_of_a_new_database_never_reports_locked);
