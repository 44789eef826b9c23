//! The desk's print page (issue 47): the event's officials — listed, and taken from the
//! organiser and the chief arbiter one role a line (裁判长=张三), recorded as one
//! `officials_appointed` entry through the command table, refused in the desk's words, printed
//! as a chapter of the programme (秩序册) — and the wall pairings on A3.

use crate::common::TestServer;
use crate::desk::{entries_of, flash, login, register_men, with_accounts};

#[test]
fn the_chief_arbiter_records_the_officials_and_the_programme_prints_them() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = crate::desk::create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 4);
    let print = format!("/desk/e/{ev}/print");
    let post = format!("/desk/e/{ev}/print/officials");

    // The registration desk sees the (empty) list, not the form, and may not post.
    let desk = login(&s, "desk");
    let page = desk.get(&s, &print).text();
    assert!(page.contains("尚未登记竞赛官员"), "{page}");
    assert!(!page.contains("id=\"officials-form\""), "{page}");
    let r = desk.post(&s, &post, &[("officials", "裁判长=王建国")]);
    assert_eq!(r.status, 403, "{}", r.text());

    // A line without 「=」 is refused, naming it; nothing is written.
    let page = chief.get(&s, &print).text();
    assert!(page.contains("id=\"officials-form\""), "{page}");
    let (ok, msg) = flash(&chief.post(
        &s,
        &post,
        &[("officials", "裁判长=王建国\n编排长 周敏"), ("reason", "")],
    ));
    assert!(
        !ok && msg.contains("「编排长 周敏」 应为 职务=姓名"),
        "{msg}"
    );
    let (ok, msg) = flash(&chief.post(
        &s,
        &post,
        &[("officials", "裁判员=李明、李明"), ("reason", "")],
    ));
    assert!(!ok && msg.contains("裁判员 李明 重复列出"), "{msg}");
    assert!(entries_of(&s, &ev, "officials_appointed").is_empty());

    let lines = "裁判长=王建国\r\n副裁判长：刘强\r\n\r\n编排长=周敏\r\n裁判员=李明、赵丽\r\n";
    let (ok, msg) =
        flash(&chief.post(&s, &post, &[("officials", lines), ("reason", "组委会聘任")]));
    assert!(ok && msg.contains("已登记竞赛官员"), "{msg}");
    let appointed = entries_of(&s, &ev, "officials_appointed");
    assert_eq!(appointed.len(), 1);
    assert_eq!(appointed[0].0, "chief");
    // Every account sees the list; the form holds it as typed back.
    let page = desk.get(&s, &print).text();
    assert!(
        page.contains("<tr><td>裁判员</td><td>李明、赵丽</td></tr>"),
        "{page}"
    );
    let page = chief.get(&s, &print).text();
    assert!(
        page.contains("裁判长=王建国\n副裁判长=刘强\n编排长=周敏\n裁判员=李明、赵丽\n</textarea>"),
        "{page}"
    );
    // The same list again changes nothing.
    let (ok, msg) = flash(&chief.post(&s, &post, &[("officials", lines), ("reason", "")]));
    assert!(!ok && msg.contains("竞赛官员名单没有变化"), "{msg}");

    // The programme has the chapter, after the regulation's summary.
    let programme = desk
        .get(&s, &format!("/desk/e/{ev}/print?doc=programme"))
        .text();
    assert!(
        programme.contains("二、竞赛官员") && programme.contains("三、竞赛日程"),
        "{programme}"
    );
    for name in ["王建国", "刘强", "周敏", "李明、赵丽"] {
        assert!(programme.contains(name), "{name}: {programme}");
    }
}

/// The size of a PDF's first page in points, read back with poppler's `pdfinfo`.
fn page_size(pdf: &[u8]) -> (f64, f64) {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join("doc.pdf");
    std::fs::write(&p, pdf).expect("write pdf");
    let o = std::process::Command::new("pdfinfo")
        .arg(&p)
        .output()
        .expect("pdfinfo (poppler-utils)");
    let info = String::from_utf8_lossy(&o.stdout).to_string();
    let line = info
        .lines()
        .find(|l| l.starts_with("Page size:"))
        .unwrap_or_else(|| panic!("{info}"));
    let n: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1])
}

/// 对阵表 (张贴用) on A3 from the desk, as `arbiter print --paper a3`: the picker and the
/// list offer it, the HTML asks the browser for an A3 sheet, the PDF is an A3 page named so;
/// A3 for another document, or an unknown paper, is refused.
#[test]
fn the_wall_pairings_print_on_a3_from_the_desk() {
    let mut id = None;
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        id = Some(crate::common::reference_event(
            store,
            "kunshan-2026.toml",
            3,
            Some(16),
        ));
    });
    let ev = id.expect("event").0;
    let arb = login(&s, "arb");
    let list = arb.get(&s, &format!("/desk/e/{ev}/print")).text();
    assert!(
        list.contains("<select name=\"paper\"><option value=\"a4\">A4</option><option value=\"a3\">A3</option></select>"),
        "{list}"
    );
    assert!(
        list.contains("doc=wall-pairings&amp;paper=a3&amp;format=pdf"),
        "{list}"
    );
    let wall = |extra: &str| {
        arb.get(
            &s,
            &format!("/desk/e/{ev}/print?doc=wall-pairings&section=men{extra}"),
        )
    };
    let a4 = wall("").text();
    assert!(a4.contains("size: A4 "), "{a4}");
    let a3 = wall("&paper=a3").text();
    assert!(
        a3.contains("size: A3 ") && !a3.contains("size: A4 "),
        "{a3}"
    );
    let r = wall("&paper=a3&format=pdf");
    assert_eq!(r.status, 200, "{}", r.text());
    let cd = r.header("content-disposition").unwrap_or("").to_string();
    assert!(
        cd.starts_with("attachment; filename=\"wall-pairings-men-a3.pdf\""),
        "{cd}"
    );
    let (w, h) = page_size(&r.body);
    let (short, long) = (w.min(h).round(), w.max(h).round());
    assert_eq!((short, long), (842.0, 1191.0), "A3 is 297 × 420 mm");
    let (w, h) = page_size(&wall("&format=pdf").body);
    assert_eq!((w.min(h).round(), w.max(h).round()), (595.0, 842.0), "A4");
    let bad = arb.get(
        &s,
        &format!("/desk/e/{ev}/print?doc=pairings&section=men&paper=a3"),
    );
    assert_eq!(bad.status, 400);
    assert!(
        bad.text().contains("A3 只用于张贴用对阵表"),
        "{}",
        bad.text()
    );
    assert_eq!(wall("&paper=b5").status, 400);
}
