//! The public pairings page of a 1,000-player round (500 boards), in process (no sockets,
//! no load generator): what one render costs (once per change of the log), and what one
//! request for the cached page costs through the whole router (routing, extractors, cache
//! lookup, ETag check, headers). `cargo bench -p arbiter-web --bench serve`.

use arbiter_store::{EventId, EventStore, SqliteStore};
use arbiter_web::cache::Snapshot;
use arbiter_web::demo::{simulate_part_way, PartWay, REFERENCE};
use arbiter_web::i18n::Lang;
use arbiter_web::AppState;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::path::PathBuf;
use tower::ServiceExt;

/// The Jiujiang senior section with `players` players, round 1 played, round 2 paired and
/// published (no result of it entered); returns the store, the event and round 2.
fn fixture(players: usize) -> (SqliteStore, EventId, u32) {
    let store = SqliteStore::open_in_memory().expect("in-memory store");
    let (file, text) = REFERENCE
        .iter()
        .find(|(f, _)| *f == "jiujiang-2020.toml")
        .expect("bundled regulation");
    let mut how = PartWay {
        rounds: Some(1),
        results_left: usize::MAX,
        ..PartWay::default()
    };
    how.sizes.by_section.insert("senior".into(), players);
    how.sizes.by_section.insert("group".into(), 8);
    let id = simulate_part_way(&store, text, file, &how).expect("fixture");
    let state = store.state(&id).expect("state");
    let round = state
        .section("senior")
        .and_then(|s| s.rounds.values().next_back())
        .map(|r| r.round)
        .expect("a paired round");
    (store, id, round)
}

fn pairings_page(c: &mut Criterion) {
    let (store, id, round) = fixture(1000);
    let state = store.state(&id).expect("state");
    let path = format!("/e/{id}/s/senior/r/{round}");

    let mut g = c.benchmark_group("pairings_1000_players");
    g.sample_size(20);
    // A render for a new state: the round sheet, the template and the gzip copy.
    g.bench_function("render_after_change", |b| {
        b.iter_batched(
            || Snapshot::new(id.clone(), "bench".into(), state.clone()),
            |snap| {
                let page = arbiter_web::public::pairings_page(&snap, Lang::Zh, "senior", round)
                    .expect("render");
                black_box(page.body.len() + page.gzip.as_ref().map_or(0, |z| z.len()))
            },
            BatchSize::LargeInput,
        )
    });

    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let app = AppState::with(PathBuf::from(":memory:"), store);
    let router = arbiter_web::router(app);
    let get = |gzip: bool| {
        let mut r = Request::get(&path);
        if gzip {
            r = r.header(header::ACCEPT_ENCODING, "gzip, deflate, br");
        }
        r.body(Body::empty()).expect("request")
    };
    // Fill the cache once.
    let first = rt
        .block_on(router.clone().oneshot(get(true)))
        .expect("response");
    assert_eq!(first.status(), StatusCode::OK);
    for (name, gzip) in [("cached_gzip", true), ("cached_plain", false)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let resp = rt
                    .block_on(router.clone().oneshot(get(gzip)))
                    .expect("response");
                assert_eq!(resp.status(), StatusCode::OK);
                black_box(resp)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, pairings_page);
criterion_main!(benches);
