//! Issue 42, item 5: entry-form uploads at the desk against memory. Before the fix a 15 MB
//! CSV of 514,543 bad rows gave a 187 MB page and +1.2 GiB resident; three at once peaked at
//! 3.8 GiB; a 524 KB .xlsx of 4 × 2 M cells took 8.6 s and +500 MiB. Now a file past
//! `MAX_FILE_ROWS` rows or `MAX_FILE_CELLS` cells is refused while it is read (naming the
//! limit and the line), the page lists the first problems and counts the rest, and at most
//! `MAX_PARSES` uploads are read at once.

use crate::common::desk::{create_open_kunshan, login, upload, with_accounts};
use crate::common::TestServer;
use crate::{one_at_a_time, rss_mib};

/// A CSV of `rows` rows that are all wrong (a sex and a date no one can read).
fn bad_csv(rows: usize) -> Vec<u8> {
    let mut t = String::from("姓名,性别,出生日期,身份证号,单位,组别\n");
    for i in 0..rows {
        t.push_str(&format!("棋手{i},?,bad,1,单位{}\n", i % 7));
    }
    t.into_bytes()
}

#[test]
fn uploads_of_huge_entry_forms_keep_memory_bounded() {
    let _one = one_at_a_time();
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_open_kunshan(&s, &chief);
    let path = format!("/desk/e/{ev}/import");
    let fields = [("csrf", chief.csrf.as_str()), ("mode", "check")];

    // 1. The attack's file: 514,543 bad rows, 13 MB.
    let huge = bad_csv(514_543);
    assert!(huge.len() > 12 << 20, "{} bytes", huge.len());
    let (rss0, _) = rss_mib();
    let r = upload(&s, &chief, &path, &fields, ("huge.csv", &huge));
    let (rss1, peak1) = rss_mib();
    eprintln!(
        "13 MB CSV of 514,543 bad rows: {} ({} bytes page); resident {rss0} → {rss1} MiB, peak {peak1} MiB",
        r.status,
        r.body.len()
    );
    assert_eq!(r.status, 422, "{}", r.text());
    let t = r.text();
    assert!(t.contains("超过 50000 行"), "{t}");
    assert!(t.contains("huge.csv:50001"), "names the line: {t}");
    assert!(r.body.len() < 100_000, "{} bytes", r.body.len());

    // 2. Three at once: each is refused, and the process stays bounded.
    let threads: Vec<_> = (0..3)
        .map(|_| {
            let (addr, cookie, csrf) = (s.addr, chief.cookie.clone(), chief.csrf.clone());
            let huge = huge.clone();
            let path = path.clone();
            std::thread::spawn(move || {
                let b = crate::common::desk::Browser { cookie, csrf };
                let fields = [("csrf", b.csrf.as_str()), ("mode", "check")];
                crate::common::desk::upload_at(addr, &b, &path, &fields, ("huge.csv", &huge)).status
            })
        })
        .collect();
    let statuses: Vec<u16> = threads
        .into_iter()
        .map(|t| t.join().expect("upload thread"))
        .collect();
    let (rss2, peak2) = rss_mib();
    eprintln!("three at once: {statuses:?}; resident {rss2} MiB, peak {peak2} MiB");
    assert!(
        statuses.iter().all(|&st| st == 422 || st == 503),
        "{statuses:?}"
    );
    // Before: +1.2 GiB for one, 3.8 GiB peak for three. The test's own copies of the file
    // (four of 15 MB) and its request bodies count here too.
    assert!(rss2 <= rss0 + 400, "resident {rss0} → {rss2} MiB");
    assert!(peak2 <= rss0 + 900, "peak {peak2} MiB from {rss0} MiB");

    // 3. Under the limit, a file of 20,000 bad rows is reported: the first problems listed,
    //    the rest counted, the page small.
    let many = bad_csv(20_000);
    let r = upload(&s, &chief, &path, &fields, ("many.csv", &many));
    let t = r.text();
    assert_eq!(r.status, 200, "{t}");
    assert!(t.contains("数据 20000 行"), "{t}");
    let listed = t.matches("<tr><td>").count();
    assert!((200..=201).contains(&listed), "{listed} rows listed");
    assert!(t.contains("个问题未列出"), "{t}");
    assert!(r.body.len() < 400_000, "{} bytes", r.body.len());

    // 4. A workbook of four sheets of 300,000 cells each (each sheet under the sheet's
    //    limit, the four past the file's): refused at the file's cell limit, on its last
    //    sheet.
    let mut wb = rust_xlsxwriter::Workbook::new();
    for _ in 0..4 {
        let ws = wb.add_worksheet();
        for row in 0..10_000u32 {
            for col in 0..30u16 {
                ws.write_number(row, col, 1.0).expect("write");
            }
        }
    }
    let xlsx = wb.save_to_buffer().expect("save");
    let start = std::time::Instant::now();
    let r = upload(&s, &chief, &path, &fields, ("cells.xlsx", &xlsx));
    eprintln!(
        "xlsx of {} bytes, 4 × 300,000 cells: {} in {:?}",
        xlsx.len(),
        r.status,
        start.elapsed()
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text().contains("工作表 Sheet4: 超过 1000000 个单元格"),
        "{}",
        r.text()
    );
}
