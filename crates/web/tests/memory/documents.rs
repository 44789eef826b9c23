//! Issue 42, item 11: PDF documents at once. Before the fix 32 parallel slip PDFs ran on 32
//! of the runtime's blocking threads: +620 MiB, 780 MiB kept. Now they are made on the
//! server's document pool — two at once, sixteen waiting, the rest answered 503 with
//! `Retry-After` — so the peak and what is kept are those of a few documents.

use crate::common::desk::{login, with_accounts, Browser};
use crate::common::{reference_event, request, TestServer};
use crate::{one_at_a_time, rss_mib};

fn get(addr: std::net::SocketAddr, b: &Browser, path: &str) -> (u16, bool) {
    let r = request(addr, "GET", path, &[("Cookie", &b.cookie)], None);
    (r.status, r.body.starts_with(b"%PDF"))
}

#[test]
fn parallel_pdfs_are_made_a_few_at_a_time() {
    let _one = one_at_a_time();
    let mut id = None;
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        id = Some(reference_event(store, "kunshan-2026.toml", 2, Some(120)));
    });
    let ev = id.expect("event").0;
    let arb = login(&s, "arb");
    let path = format!("/desk/e/{ev}/print?doc=slips&section=men&format=pdf");
    // One first: the font is loaded and one document's memory is in the baseline.
    let (status, pdf) = get(s.addr, &arb, &path);
    if status == 503 {
        // No CJK font on this machine (scripts/test installs fonts-noto-cjk): nothing to
        // measure; the font's own test says so.
        eprintln!("no CJK font: PDFs are refused, nothing to measure");
        return;
    }
    assert!(status == 200 && pdf, "{status}");
    let (before, _) = rss_mib();
    let threads: Vec<_> = (0..32)
        .map(|_| {
            let (addr, b, p) = (
                s.addr,
                Browser {
                    cookie: arb.cookie.clone(),
                    csrf: arb.csrf.clone(),
                },
                path.clone(),
            );
            std::thread::spawn(move || get(addr, &b, &p))
        })
        .collect();
    let answers: Vec<(u16, bool)> = threads
        .into_iter()
        .map(|t| t.join().expect("client"))
        .collect();
    let (after, peak) = rss_mib();
    let made = answers
        .iter()
        .filter(|(st, pdf)| *st == 200 && *pdf)
        .count();
    let busy = answers.iter().filter(|(st, _)| *st == 503).count();
    eprintln!(
        "32 parallel slip PDFs: {made} made, {busy} answered 503; at most {} at once; resident {before} → {after} MiB, peak {peak} MiB",
        s.app.documents.peak()
    );
    assert_eq!(made + busy, 32, "{answers:?}");
    assert!(made >= 2 + 16 - 2, "{made} made");
    assert!(s.app.documents.peak() <= arbiter_web::pool::DOCUMENT_THREADS);
    // Before: +620 MiB and 780 MiB kept.
    assert!(after <= before + 200, "resident {before} → {after} MiB");
}
