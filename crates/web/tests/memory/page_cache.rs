//! Issue 42, item 1: the public page cache against a visitor who asks for distinct URLs.
//! Before the fix every URL with unknown parts — `/e/{ev}/s/<any text>/r/1`, boards
//! `/r/1/b/<n>`, `screen?page=<n>`, players `/p/<n>` — was rendered and kept (or kept as an
//! empty slot) until the next log entry: 8,000 requests added 1.5 GiB. Now unknown parts are a
//! 404 before anything is cached, and the cache of a state keeps at most its bounds in pages
//! and bytes whatever arrives.

use crate::common::{reference_event, request_from, TestServer};
use crate::{one_at_a_time, rss_mib};
use arbiter_store::EventId;
use arbiter_web::cache::PageBounds;
use std::net::{IpAddr, Ipv4Addr};

/// GET every path of `paths` from four client addresses at once; the statuses in order.
fn get_all(s: &TestServer, paths: Vec<String>) -> Vec<u16> {
    let addr = s.addr;
    let chunks: Vec<Vec<(usize, String)>> = {
        let mut c: Vec<Vec<(usize, String)>> = vec![Vec::new(); 4];
        for (i, p) in paths.into_iter().enumerate() {
            c[i % 4].push((i, p));
        }
        c
    };
    let threads: Vec<_> = chunks
        .into_iter()
        .enumerate()
        .map(|(t, chunk)| {
            std::thread::spawn(move || {
                let from = IpAddr::V4(Ipv4Addr::new(127, 0, 7, t as u8 + 1));
                chunk
                    .into_iter()
                    .map(|(i, p)| (i, request_from(from, addr, "GET", &p, &[], None).status))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut out: Vec<(usize, u16)> = threads
        .into_iter()
        .flat_map(|t| t.join().expect("client thread"))
        .collect();
    out.sort();
    out.into_iter().map(|(_, s)| s).collect()
}

#[test]
fn distinct_urls_do_not_grow_the_page_cache() {
    let _one = one_at_a_time();
    let mut ev = None;
    let s = TestServer::start_with(|st| {
        ev = Some(reference_event(st, "tianshui-2024.toml", 2, Some(120)));
    });
    let ev = ev.expect("event");
    let id = EventId(ev.0.clone());
    let sec = s.app.cache.get(&id).map(|_| ());
    assert!(sec.is_none(), "nothing folded before the first request");
    // The legitimate pages: the event, its sections' round 1, standings, a player.
    assert_eq!(s.get(&format!("/e/{}", ev.0)).status, 200);
    let snap = s.app.cache.get(&id).expect("folded");
    let section = snap
        .state
        .sections
        .values()
        .find(|s| s.round(1).is_some_and(|r| r.published))
        .map(|s| s.id.clone())
        .expect("a section with round 1 published");
    let round = format!("/e/{}/s/{section}/r/1", ev.0);
    for p in [
        round.clone(),
        format!("{round}/screen"),
        format!("{round}/screen?page=1"),
        format!("/e/{}/s/{section}/standings", ev.0),
        format!("/e/{}/s/{section}/p/1", ev.0),
    ] {
        assert_eq!(s.get(&p).status, 200, "{p}");
    }
    let legit = snap.page_use();
    eprintln!("legitimate pages: {legit:?}");

    // The attack: 8,000 distinct URLs with parts the event does not have.
    let (before, _) = rss_mib();
    let paths: Vec<String> = (0..8000u32)
        .map(|i| match i % 6 {
            0 => format!("/e/{}/s/nosuch{i}/r/1", ev.0),
            1 => format!("{round}/b/{}", 1000 + i),
            2 => format!("{round}/screen?page={}", 2 + i),
            3 => format!("/e/{}/s/{section}/p/{}", ev.0, 5000 + i),
            4 => format!("/e/{}/s/{section}/r/{}", ev.0, 100 + i),
            _ => format!("/api/events/{}/sections/x{i}/rounds/1", ev.0),
        })
        .collect();
    let statuses = get_all(&s, paths);
    let (after, _) = rss_mib();
    let cached = snap.page_use();
    eprintln!(
        "8,000 unknown URLs: resident {before} MiB → {after} MiB; page cache {legit:?} → {cached:?}"
    );
    assert!(
        statuses.iter().all(|&st| st == 404),
        "every unknown URL is a 404: {:?}",
        statuses
            .iter()
            .filter(|&&st| st != 404)
            .take(10)
            .collect::<Vec<_>>()
    );
    assert_eq!(cached, legit, "nothing was added to the cache");
    // Before the fix: +1.5 GiB. The requests themselves (threads, sockets, 404 bodies) cost
    // a few MiB at most.
    assert!(
        after <= before + 64,
        "resident size grew from {before} to {after} MiB"
    );
}

#[test]
fn the_page_cache_keeps_its_bounds_with_every_page_a_visitor_can_name() {
    let _one = one_at_a_time();
    let mut ev = None;
    let s = TestServer::start_with(|st| {
        ev = Some(reference_event(st, "jiujiang-2020.toml", 2, Some(90)));
    });
    let ev = ev.expect("event");
    // Small bounds, so that the event's own pages exceed them: 20 pages, 256 KiB.
    let bounds = PageBounds {
        entries: 20,
        bytes: 256 << 10,
    };
    s.app.cache.set_page_bounds(bounds);
    assert_eq!(s.get(&format!("/e/{}", ev.0)).status, 200);
    let snap = s.app.cache.get(&EventId(ev.0.clone())).expect("folded");
    assert_eq!(snap.bounds(), bounds);
    let sections: Vec<String> = snap.state.sections.keys().cloned().collect();
    let mut paths = Vec::new();
    for sec in &sections {
        let players = snap.state.section(sec).map_or(0, |s| s.order.len());
        for no in 1..=players {
            paths.push(format!("/e/{}/s/{sec}/p/{no}", ev.0));
            paths.push(format!("/e/{}/s/{sec}/p/{no}?lang=en", ev.0));
        }
        paths.push(format!("/e/{}/s/{sec}/r/1", ev.0));
        paths.push(format!("/e/{}/s/{sec}/standings", ev.0));
        paths.push(format!("/e/{}/s/{sec}/crosstable", ev.0));
    }
    let n = paths.len();
    assert!(n > 100, "{n} pages");
    let statuses = get_all(&s, paths);
    let ok = statuses.iter().filter(|&&st| st == 200).count();
    let used = snap.page_use();
    eprintln!("{n} distinct pages asked for ({ok} answered 200): cache {used:?} under {bounds:?}");
    assert!(ok > 100, "{ok} of {n} answered");
    assert!(used.entries <= bounds.entries, "{used:?}");
    assert!(used.bytes <= bounds.bytes, "{used:?}");
    assert!(used.entries > 0 && used.bytes > 0, "{used:?}");
    // A page dropped from the cache is rendered again when asked for.
    assert_eq!(
        s.get(&format!("/e/{}/s/{}/p/1", ev.0, sections[0])).status,
        200
    );
}
