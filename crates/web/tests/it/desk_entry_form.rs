//! Issue 45 at the desk, as a chief arbiter meets it: a unit's entry form for a section that
//! asks for a condition (天水本地组, 「天水本地棋手」), a corrected form imported again, a refusal
//! recorded by mistake withdrawn, and the file kept after 预检 (item 1 and item 4).

use crate::common;
use crate::desk::{entries_of, flash, id_number, login, upload, with_accounts, Browser};
use arbiter_store::{EventId, EventStore};
use common::TestServer;
use rust_xlsxwriter::Workbook;

/// Tianshui 2024 moved to 2099 (entries still open), created at the desk from its file; its
/// age limit (65 in 2099: born in the future) left out.
fn create_open_tianshui(s: &TestServer, chief: &Browser) -> String {
    let src = include_str!("../../../../regulations/tianshui-2024.toml")
        .replace("2024-07-", "2099-07-")
        .replace("max_age = 65", "");
    let r = chief.post(s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}

/// Every cell of the first sheet of a workbook's bytes, by row, as text.
fn cells(bytes: &[u8]) -> Vec<Vec<String>> {
    use calamine::Reader;
    let mut book =
        calamine::open_workbook_auto_from_rs(std::io::Cursor::new(bytes.to_vec())).expect("xlsx");
    let names = book.sheet_names();
    let range = book.worksheet_range(&names[0]).expect("sheet");
    range
        .rows()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

/// The template as a unit fills it: its head (title, 单位) and header row, then `players`,
/// each a map from header to value.
fn filled(template: &[Vec<String>], header: &[String], players: &[&[(&str, &str)]]) -> Vec<u8> {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet();
    for (r, row) in template.iter().enumerate().take(4) {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                ws.write_string(r as u32, c as u16, v).expect("cell");
            }
        }
    }
    ws.write_string(1, 1, "天水棋院").expect("unit");
    for (c, h) in header.iter().enumerate() {
        ws.write_string(4, c as u16, h).expect("header");
    }
    for (i, p) in players.iter().enumerate() {
        for (h, v) in p.iter() {
            let c = header
                .iter()
                .position(|x| x == h)
                .unwrap_or_else(|| panic!("no column {h}"));
            ws.write_string(5 + i as u32, c as u16, *v).expect("cell");
        }
    }
    wb.save_to_buffer().expect("xlsx")
}

/// Issue 45 item 1. T1 「天水本地组」 is for 天水本地棋手 (`require_flags = ["local"]`): the
/// template the desk offers has a 参赛条件 column (drop-down: 本地棋手) and a 证明 column; a
/// unit fills it, the desk's 预检 shows the reader's notices (the words `arbiter player
/// import` prints) and keeps the file, and 导入 registers the local player without choosing
/// the file again. A file without the column (an old form) imports without a refusal per row.
#[test]
fn a_units_entry_form_enters_the_local_section_with_its_condition() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_open_tianshui(&s, &chief);
    let t = chief.get(&s, &format!("/desk/e/{ev}/entry-form.xlsx"));
    assert_eq!(t.status, 200, "{}", t.text());
    let template = cells(&t.body);
    let header: Vec<String> = template[4]
        .iter()
        .filter(|h| !h.is_empty())
        .cloned()
        .collect();
    assert!(
        header.iter().any(|h| h == "参赛条件") && header.iter().any(|h| h == "证明"),
        "{header:?}"
    );
    let (a, b) = (id_number("19900101", 11), id_number("19880808", 13));
    let xlsx = filled(
        &template,
        &header,
        &[
            &[
                ("序号", "1"),
                ("姓名", "本地一"),
                ("身份证号", &a),
                ("组别", "天水本地组"),
                ("电话", "13912340001"),
                ("参赛条件", "本地棋手"),
                ("证明", "意外伤害保险"),
            ],
            &[
                ("序号", "2"),
                ("姓名", "公开二"),
                ("身份证号", &b),
                ("组别", "公开组"),
                ("电话", "13912340002"),
                ("证明", "意外伤害保险"),
            ],
        ],
    );
    let path = format!("/desk/e/{ev}/import");
    let r = upload(
        &s,
        &chief,
        &path,
        &[("csrf", &chief.csrf), ("section", ""), ("mode", "check")],
        ("天水棋院.xlsx", &xlsx),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let page = r.text();
    assert!(
        page.contains("可报名 2 行") && page.contains("有错误 0 行"),
        "{page}"
    );
    // The notices the CLI prints, in its words: the 序号 and 备注 columns are not read.
    assert!(page.contains("class=\"notices\""), "{page}");
    assert!(page.contains("忽略列 「序号」 (column not read)"), "{page}");
    // The file is kept: 导入 with its token and no file.
    let kept = crate::desk::input_value(&page, "kept").expect("the kept file's token");
    let r = upload(
        &s,
        &chief,
        &path,
        &[
            ("csrf", &chief.csrf),
            ("section", ""),
            ("mode", "import"),
            ("kept", &kept),
        ],
        ("", b""),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("已报名 2 人"), "{}", r.text());
    let st = s.store().state(&EventId(ev.clone())).expect("state");
    let local: Vec<&str> = st
        .players("local")
        .iter()
        .map(|p| p.person.name.as_str())
        .collect();
    assert_eq!(local, vec!["本地一"]);
    // The token was for one import: used, it is gone.
    let r = upload(
        &s,
        &chief,
        &path,
        &[("csrf", &chief.csrf), ("mode", "import"), ("kept", &kept)],
        ("", b""),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.text().contains("请重新选择文件"), "{}", r.text());

    // An old form without the 参赛条件 column, 导入 pressed at once: the rows of the local
    // section are a fault of the file, listed, and no refusal is recorded for them.
    let old: Vec<String> = header
        .iter()
        .filter(|h| *h != "参赛条件")
        .cloned()
        .collect();
    let c = id_number("19770707", 15);
    let xlsx = filled(
        &template,
        &old,
        &[&[
            ("姓名", "本地三"),
            ("身份证号", &c),
            ("组别", "天水本地组"),
            ("电话", "13912340003"),
            ("证明", "意外伤害保险"),
        ]],
    );
    let r = upload(
        &s,
        &chief,
        &path,
        &[("csrf", &chief.csrf), ("mode", "import")],
        ("旧表.xlsx", &xlsx),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("文件缺少「参赛条件」列"), "{}", r.text());
    assert!(entries_of(&s, &ev, "entry_refused").is_empty());
}

/// Issue 45 item 4. A unit sends its form, then a corrected one: the players registered from
/// the first are 「已报名, 跳过」, not refused, and only the corrected row registers. A refusal
/// recorded by mistake is withdrawn by the chief arbiter (`refusal_withdrawn`) and leaves
/// 未通过的报名; a desk account may not withdraw one.
#[test]
fn a_corrected_entry_form_imports_again_and_a_mistaken_refusal_is_withdrawn() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_open_tianshui(&s, &chief);
    let path = format!("/desk/e/{ev}/import");
    let (a, b) = (id_number("19900101", 11), id_number("19910202", 13));
    let first = format!(
        "姓名,身份证号,组别,电话,证明\n张一,{a},公开组,13912340001,意外伤害保险\n李二,{b},公开组,1391234,意外伤害保险\n"
    );
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("mode", "import")],
        ("一.csv", first.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("已报名 1 人"), "{}", r.text());
    // The corrected form: 张一 again, 李二's phone right.
    let second = first.replace(",1391234,", ",13912340002,");
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("mode", "import")],
        ("二.csv", second.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.text();
    assert!(
        t.contains("已报名 1 人, 拒绝 0 人") && t.contains("已报名跳过 1 行"),
        "{t}"
    );
    assert!(t.contains("已报名, 跳过") && t.contains("张一"), "{t}");
    assert!(entries_of(&s, &ev, "entry_refused").is_empty());
    assert_eq!(entries_of(&s, &ev, "player_registered").len(), 2);

    // The unit sends a third form with 张一's phone changed: by the arbiter's choice the
    // players already registered are updated — checked first (nothing written), then
    // imported with the box still ticked; 李二, unchanged, is skipped.
    let third = second.replace(",13912340001,", ",13912340009,");
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("mode", "check"), ("update", "1")],
        ("三.csv", third.as_bytes()),
    );
    let t = r.text();
    assert!(
        t.contains("将按表更新 1") && t.contains("已报名, 将更新"),
        "{t}"
    );
    assert!(
        t.contains(r#"name="update" value="1" checked"#),
        "kept ticked: {t}"
    );
    assert!(entries_of(&s, &ev, "player_corrected").is_empty());
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("mode", "import"), ("update", "1")],
        ("三.csv", third.as_bytes()),
    );
    let t = r.text();
    assert!(
        t.contains("已报名按表更新 1") && t.contains("已报名, 已更新") && t.contains("电话"),
        "{t}"
    );
    assert!(t.contains("与已报名资料相同"), "李二 unchanged: {t}");
    assert!(
        !t.contains("(registered"),
        "no English tail in Chinese: {t}"
    );
    let corrected = entries_of(&s, &ev, "player_corrected");
    assert_eq!(corrected.len(), 1, "{corrected:?}");
    assert_eq!(entries_of(&s, &ev, "player_registered").len(), 2);

    // A refusal recorded by mistake (by decision at the desk), withdrawn by the chief arbiter.
    let r = desk.post(
        &s,
        &format!("/desk/e/{ev}/s/open/refuse"),
        &[
            ("name", "王三"),
            ("id_number", &id_number("19920303", 15)),
            ("phone", "13912340003"),
            ("refuse_reason", "未交保险"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let refusals = entries_of(&s, &ev, "entry_refused");
    assert_eq!(refusals.len(), 1);
    let log = s.store().read(&EventId(ev.clone())).expect("log");
    let seq = log
        .iter()
        .find(|r| r.entry.kind() == "entry_refused")
        .expect("refusal")
        .seq;
    let list = format!("/desk/e/{ev}/s/open/entries");
    let page = chief.get(&s, &list).text();
    assert!(
        page.contains("未通过的报名") && page.contains("撤销拒绝"),
        "{page}"
    );
    assert!(!desk.get(&s, &list).text().contains("撤销拒绝"));
    let withdraw = format!("/desk/e/{ev}/s/open/refusal/{seq}/withdraw");
    assert_eq!(desk.post(&s, &withdraw, &[("reason", "误拒")]).status, 403);
    let (ok, msg) = flash(&chief.post(&s, &withdraw, &[("reason", "")]));
    assert!(!ok && msg.contains("理由"), "{msg}");
    let (ok, msg) = flash(&chief.post(&s, &withdraw, &[("reason", "已交保险, 误拒")]));
    assert!(ok, "{msg}");
    let w = entries_of(&s, &ev, "refusal_withdrawn");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].0, "chief");
    assert!(!chief.get(&s, &list).text().contains("未通过的报名"));
    // Twice: there is no refusal in force at that seq any more.
    let (ok, msg) = flash(&chief.post(&s, &withdraw, &[("reason", "again")]));
    assert!(!ok && msg.contains("不是未撤销的拒绝报名"), "{msg}");
    // The log reads the withdrawal as a sentence.
    let log_page = chief.get(&s, &format!("/desk/e/{ev}/log")).text();
    assert!(
        log_page.contains(&format!("撤销第 {seq} 条的拒绝报名")),
        "{log_page}"
    );
}
