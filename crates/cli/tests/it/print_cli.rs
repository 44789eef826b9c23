//! `arbiter print`: every document of a 160-player event (Tianshui, simulated: Swiss then
//! knockout, teams, prizes) printed as PDF by the real binary, then read back with poppler
//! (`pdftotext -layout`, `pdftotext -bbox`, `pdftoppm`): the expected names, boards and
//! numbers (taken from the state) are on the pages, every page carries the event's name,
//! date and `第 x 页 / 共 y 页`, the page count is sensible, and no word lies outside the
//! page's margins.
//!
//! Needs poppler-utils (`.ci/run` installs it); without `pdftotext` the tests fail, saying so.
//! `ARBITER_PRINT_PNG=DIR` keeps the PNG of the first pages of every document in DIR.

use crate::common;

use arbiter_director::export::Export;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const PLAYERS: usize = 160;

/// The simulated event every test prints from, and its published export.
struct Event {
    sim: Simulated,
    export: Export,
}

impl std::ops::Deref for Event {
    type Target = Simulated;
    fn deref(&self) -> &Simulated {
        &self.sim
    }
}

/// Tianshui simulated (seed 3, 160 players), once for all the tests.
fn event() -> &'static Event {
    static E: OnceLock<Event> = OnceLock::new();
    E.get_or_init(|| {
        let sim = Simulated::new("tianshui-2024", 3, &["--players", &PLAYERS.to_string()]);
        let export = arbiter_director::export(&sim.state).unwrap();
        Event { sim, export }
    })
}

/// A printed PDF read back.
struct Printed {
    /// `pdftotext -layout` text of every page.
    pages: Vec<String>,
}

impl Printed {
    fn all(&self) -> String {
        self.pages.concat()
    }
    /// The text without any whitespace (a name is one word however the columns fall).
    fn flat(&self) -> String {
        self.all().split_whitespace().collect()
    }
    /// Whether one line of the layout text holds every needle (in order, spaces ignored).
    fn line_with(&self, needles: &[&str]) -> bool {
        self.all().lines().any(|l| {
            let flat: String = l.split_whitespace().collect();
            let mut at = 0;
            needles.iter().all(|n| match flat[at..].find(n) {
                Some(i) => {
                    at += i + n.len();
                    true
                }
                None => false,
            })
        })
    }
}

fn print(doc: &str, extra: &[&str]) -> Printed {
    let e = event();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join(format!("{doc}.pdf"));
    print_pdf(&e.db, &e.id, doc, &pdf, extra);
    let text = pdftotext(&pdf);
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_string).collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    check_boxes(&pdf, doc);
    check_png(&pdf, doc, pages.len());
    Printed { pages }
}

/// Every word's box lies inside its page, within the margins (10 mm less a little).
fn check_boxes(pdf: &Path, doc: &str) {
    let html = pdf.with_extension("bbox.html");
    let o = poppler("pdftotext")
        .args(["-bbox", "-enc", "UTF-8"])
        .arg(pdf)
        .arg(&html)
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = std::fs::read_to_string(&html).unwrap();
    let attr = |tag: &str, name: &str| -> f64 {
        let key = format!("{name}=\"");
        let i = tag.find(&key).unwrap() + key.len();
        let j = tag[i..].find('"').unwrap();
        tag[i..i + j].parse().unwrap()
    };
    let (mut w, mut h) = (0.0, 0.0);
    let mut words = 0;
    let margin = 25.0;
    for part in text.split('<').skip(1) {
        if part.starts_with("page ") {
            w = attr(part, "width");
            h = attr(part, "height");
        } else if part.starts_with("word ") {
            words += 1;
            let (x0, y0, x1, y1) = (
                attr(part, "xMin"),
                attr(part, "yMin"),
                attr(part, "xMax"),
                attr(part, "yMax"),
            );
            let word = part.split('>').nth(1).unwrap_or("");
            assert!(
                x0 >= margin && x1 <= w - margin && y0 >= margin && y1 <= h - margin,
                "{doc}: word `{word}` at ({x0},{y0})-({x1},{y1}) runs off the {w}x{h} page"
            );
        }
    }
    assert!(words > 0, "{doc}: no text in the PDF");
}

/// The pages turn into PNG images (kept in `ARBITER_PRINT_PNG` if set).
fn check_png(pdf: &Path, doc: &str, pages: usize) {
    let dir = pdf.parent().unwrap();
    let prefix = dir.join(doc);
    let o = poppler("pdftoppm")
        .args(["-png", "-r", "60", "-f", "1", "-l", "2"])
        .arg(pdf)
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pngs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .collect();
    assert_eq!(pngs.len(), pages.min(2), "{doc}: PNG pages");
    for p in &pngs {
        let bytes = std::fs::read(p).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{}", p.display());
        if let Some(keep) = std::env::var_os("ARBITER_PRINT_PNG") {
            std::fs::create_dir_all(&keep).unwrap();
            std::fs::copy(p, Path::new(&keep).join(p.file_name().unwrap())).unwrap();
        }
    }
}

/// Every page: the event's name, the date, `第 i 页 / 共 n 页`.
fn check_pages(p: &Printed, doc: &str, running_header: bool) {
    let e = event();
    let n = p.pages.len();
    let name: String = e.state.name().split_whitespace().collect();
    for (i, page) in p.pages.iter().enumerate() {
        let flat: String = page.split_whitespace().collect();
        assert!(flat.contains(&name), "{doc} page {}: no event name", i + 1);
        if running_header {
            assert!(
                flat.contains(&format!("第{}页/共{}页", i + 1, n)),
                "{doc} page {}: no page number\n{page}",
                i + 1
            );
            assert!(flat.contains("2024年"), "{doc} page {}: no date", i + 1);
        }
    }
}

fn section() -> &'static arbiter_director::export::SectionExport {
    &event().export.sections[0]
}

fn name_of(no: u32) -> String {
    section()
        .players
        .iter()
        .find(|p| p.no == no)
        .map(|p| p.name.clone())
        .unwrap()
}

#[test]
fn checkin_lists_every_player_with_masked_id() {
    let e = event();
    let p = print("checkin", &[]);
    check_pages(&p, "checkin", true);
    let flat = p.flat();
    let players: Vec<_> = e.state.players.values().collect();
    assert!(players.len() >= PLAYERS, "{}", players.len());
    for pl in &players {
        assert!(flat.contains(&pl.person.name), "{} missing", pl.person.name);
        if let Some(id) = &pl.person.id_number {
            assert!(!flat.contains(id.as_str()), "ID number unmasked");
            assert!(flat.contains(&id.masked()), "masked ID missing");
        }
    }
    // Landscape A4 holds 20–40 rows a page.
    let n = p.pages.len();
    assert!(
        n >= players.len() / 40 && n <= players.len() / 12 + 2,
        "{n} pages"
    );
    // The organiser's copy shows the full ID numbers.
    let full = print("checkin", &["--organiser"]).flat();
    let id = players
        .iter()
        .find_map(|p| p.person.id_number.as_ref())
        .unwrap();
    assert!(full.contains(id.as_str()));
}

#[test]
fn pairings_show_every_board_with_names_and_scores() {
    let e = event();
    let sid = section().id.clone();
    let p = print("pairings", &["--section", &sid, "--round", "5"]);
    check_pages(&p, "pairings", true);
    let round = e.state.section(&sid).unwrap().round(5).unwrap();
    let sheet = arbiter_director::api::rounds::sheet(&e.state, &sid, Some(5)).unwrap();
    assert_eq!(sheet.boards.len(), round.boards.len());
    assert!(round.boards.len() >= PLAYERS / 2 - 10);
    for b in &sheet.boards {
        let (board, rs, bs) = (
            b.board.to_string(),
            b.red.score.to_string(),
            b.black.score.to_string(),
        );
        assert!(
            p.line_with(&[&board, &b.red.name, &rs, &bs, &b.black.name]),
            "board {board}: {} {} — {} {} not on one line",
            b.red.name,
            rs,
            bs,
            b.black.name
        );
    }
    assert!(
        p.pages.len() <= 4,
        "{} pages for {} boards",
        p.pages.len(),
        sheet.boards.len()
    );
}

#[test]
fn slips_one_per_board_with_signature_lines() {
    let e = event();
    let sid = section().id.clone();
    let p = print("slips", &["--section", &sid, "--round", "2"]);
    check_pages(&p, "slips", true);
    let sheet = arbiter_director::api::rounds::sheet(&e.state, &sid, Some(2)).unwrap();
    let flat = p.flat();
    for b in &sheet.boards {
        assert!(
            flat.contains(&format!("第{}台记录单", b.board)),
            "slip {}",
            b.board
        );
        assert!(flat.contains(&b.red.name) && flat.contains(&b.black.name));
    }
    assert_eq!(flat.matches("裁判员签名").count(), sheet.boards.len());
    let n = p.pages.len();
    assert!(
        n >= sheet.boards.len() / 8 && n <= sheet.boards.len() / 2,
        "{n} pages for {} slips",
        sheet.boards.len()
    );
}

#[test]
fn results_of_a_round() {
    let e = event();
    let sid = section().id.clone();
    let p = print("results", &["--section", &sid, "--round", "4"]);
    check_pages(&p, "results", true);
    let round = e.state.section(&sid).unwrap().round(4).unwrap();
    for b in &round.boards {
        let red = &e.state.player(b.red).unwrap().person.name;
        let black = &e.state.player(b.black).unwrap().person.name;
        let word = match b.result.unwrap() {
            arbiter_types::GameResult::RedWin => "红胜",
            arbiter_types::GameResult::BlackWin => "黑胜",
            arbiter_types::GameResult::Draw => "和棋",
            arbiter_types::GameResult::BlackForfeit => "黑方弃权",
            arbiter_types::GameResult::RedForfeit => "红方弃权",
            arbiter_types::GameResult::DoubleForfeit => "双方弃权",
        };
        assert!(
            p.line_with(&[&b.board.to_string(), red, word, black]),
            "board {}: {red} {word} {black}",
            b.board
        );
    }
}

#[test]
fn standings_with_every_tiebreak_value() {
    let p = print("standings", &["--section", &section().id]);
    check_pages(&p, "standings", true);
    let sec = section();
    for r in &sec.standings {
        let mut needles = vec![r.rank.to_string(), name_of(r.no), r.points.to_string()];
        for t in &sec.tiebreaks {
            if let Some(v) = r.tiebreaks.get(t) {
                needles.push(v.to_string());
            }
        }
        let refs: Vec<&str> = needles.iter().map(String::as_str).collect();
        assert!(p.line_with(&refs), "row {needles:?} not on one line");
    }
    assert!(p.flat().contains("对手分"));
    assert!(
        p.pages.len() >= 3 && p.pages.len() <= 10,
        "{} pages",
        p.pages.len()
    );
}

#[test]
fn crosstable_has_every_players_rounds() {
    let p = print("crosstable", &["--section", &section().id]);
    check_pages(&p, "crosstable", true);
    let sec = section();
    let swiss: Vec<_> = sec
        .rounds
        .iter()
        .filter(|r| r.stage != arbiter_director::export::Stage::Knockout)
        .collect();
    for s in &sec.standings {
        // The player's first-round cell: opponent number and colour.
        let cell = swiss[0].games.iter().find_map(|g| {
            if g.red == s.no {
                Some(format!("{}红", g.black))
            } else if g.black == s.no {
                Some(format!("{}黑", g.red))
            } else {
                None
            }
        });
        let name = name_of(s.no);
        match cell {
            Some(c) => assert!(p.line_with(&[&name, &c]), "{name}: {c}"),
            None => assert!(p.flat().contains(&name), "{name}"),
        }
    }
}

#[test]
fn teams_list_every_team() {
    let p = print("teams", &[]);
    check_pages(&p, "teams", true);
    let ex = &event().export;
    assert!(!ex.teams.is_empty());
    for t in &ex.teams {
        for r in &t.standings {
            assert!(
                p.line_with(&[&r.rank.to_string(), &r.team]),
                "team {} {}",
                r.rank,
                r.team
            );
        }
    }
}

#[test]
fn bracket_shows_every_knockout_player() {
    let p = print("bracket", &[]);
    check_pages(&p, "bracket", true);
    let flat = p.flat();
    let sec = section();
    let mut seen = 0;
    for r in sec
        .rounds
        .iter()
        .filter(|r| r.stage == arbiter_director::export::Stage::Knockout)
    {
        for g in &r.games {
            for no in [g.red, g.black] {
                assert!(flat.contains(&name_of(no)), "{}", name_of(no));
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "no knockout game in the simulated event");
    assert!(flat.contains("决赛"));
}

#[test]
fn prizes_with_amounts_and_titles() {
    let p = print("prizes", &[]);
    check_pages(&p, "prizes", true);
    let ex = &event().export;
    assert!(!ex.prizes.is_empty());
    for pr in &ex.prizes {
        let who = match (pr.no, &pr.team) {
            (Some(n), _) => {
                let sec = ex.sections.iter().find(|s| s.id == pr.section).unwrap();
                sec.players.iter().find(|x| x.no == n).unwrap().name.clone()
            }
            (None, Some(t)) => t.clone(),
            (None, None) => continue,
        };
        let mut needles = vec![pr.rank.to_string(), who];
        if let Some(a) = pr.amount {
            needles.push(a.to_string());
        }
        let refs: Vec<&str> = needles.iter().map(String::as_str).collect();
        assert!(p.line_with(&refs), "prize {needles:?}");
    }
    assert!(p.flat().contains(&format!("奖金合计{}元", ex.prize_total)));
}

#[test]
fn certificates_one_page_per_winner() {
    let p = print("certificates", &[]);
    check_pages(&p, "certificates", false);
    let ex = &event().export;
    assert_eq!(p.pages.len(), ex.prizes.len());
    for (page, pr) in p.pages.iter().zip(&ex.prizes) {
        let flat: String = page.split_whitespace().collect();
        assert!(flat.contains("荣誉证书"));
        if let Some(n) = pr.no {
            let sec = ex.sections.iter().find(|s| s.id == pr.section).unwrap();
            let who = &sec.players.iter().find(|x| x.no == n).unwrap().name;
            assert!(flat.contains(who.as_str()), "{who}");
        }
    }
}

#[test]
fn bad_requests_exit_2_with_the_reason() {
    let e = event();
    let run = |args: &[&str]| {
        let o = Command::new(BIN)
            .arg("print")
            .arg("--db")
            .arg(&e.db)
            .args(["--event", &e.id, "--format", "pdf", "--out", "/dev/null"])
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let (code, err) = run(&["--doc", "pairing"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("未知的文档"), "{err}");
    let (code, err) = run(&["--doc", "standings", "--section", "nope"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("未知的组别"), "{err}");
    let (code, err) = run(&[
        "--doc",
        "pairings",
        "--section",
        &section().id,
        "--round",
        "99",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("第99轮尚未编排"), "{err}");
}

#[test]
fn html_has_the_same_rows() {
    let e = event();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.html");
    let o = Command::new(BIN)
        .arg("print")
        .arg("--db")
        .arg(&e.db)
        .args([
            "--event",
            &e.id,
            "--doc",
            "standings",
            "--format",
            "html",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let h = std::fs::read_to_string(&out).unwrap();
    assert!(h.contains("@page") && h.contains("<thead>"));
    for r in &section().standings {
        assert!(h.contains(&name_of(r.no)));
    }
}

/// J1: "上午8点半开赛，上午三轮、下午四轮" — the round's start time from the regulation's
/// schedule is on the pairing list (`round show` and the printed 对阵表) and on the slips.
#[test]
fn the_schedule_s_start_time_is_on_the_pairing_list_and_the_slips() {
    let sim = Simulated::new("jiujiang-2020", 1, &["--players", "12"]);
    let show = ok(&[
        "round",
        "show",
        "--db",
        &sim.db,
        "--event",
        &sim.id,
        "--section",
        "senior",
        "--round",
        "4",
    ]);
    assert!(show.contains("开始时间 starts: 2020-10-24 13:30"), "{show}");
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("p.pdf");
    print_pdf(
        &sim.db,
        &sim.id,
        "pairings",
        &pdf,
        &["--section", "senior", "--round", "1"],
    );
    let flat: String = pdftotext(&pdf).split_whitespace().collect();
    assert!(flat.contains("开始时间2020-10-2408:30"), "{flat}");
    let html = dir.path().join("s.html");
    ok(&[
        "print",
        "--db",
        &sim.db,
        "--event",
        &sim.id,
        "--doc",
        "slips",
        "--section",
        "senior",
        "--round",
        "2",
        "--format",
        "html",
        "--out",
        html.to_str().unwrap(),
    ]);
    let h = std::fs::read_to_string(&html).unwrap();
    assert!(h.contains("开始时间 2020-10-24 09:30"), "{h}");
    assert!(h.contains("第1台 记录单"), "{h}");
}

/// K13: "团体前3名：分别颁发奖杯、荣誉证书及相应奖励" and "冠军……颁发奖牌、荣誉证书" — the
/// trophy and the medal are on the prize list (`arbiter prizes`, the printed 获奖名单) and on
/// the certificates; T9: "录取名次及奖励办法(奖金为税前)" — Tianshui's amounts say 税前.
#[test]
fn trophies_medals_and_amounts_before_tax_are_printed_with_the_prizes() {
    let ks = Simulated::new("kunshan-2026", 1, &["--players", "40"]);
    let list = ok(&["prizes", "--db", &ks.db, "--event", &ks.id]);
    let line = |section: &str, rank: &str| {
        list.lines()
            .find(|l| l.starts_with(section) && l.contains(rank))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("男子个人赛\t", "第1名").contains("奖牌"), "{list}");
    assert!(!line("男子个人赛\t", "第4名").contains("奖牌"), "{list}");
    let team_first = list
        .lines()
        .find(|l| l.contains("第1名") && l.contains("奖杯"));
    assert!(team_first.is_some(), "no team trophy in\n{list}");
    assert!(!list.contains("税前"), "Kunshan does not say 税前: {list}");
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("p.html");
    let print = |db: &str, id: &str, doc: &str| {
        ok(&[
            "print",
            "--db",
            db,
            "--event",
            id,
            "--doc",
            doc,
            "--format",
            "html",
            "--out",
            html.to_str().unwrap(),
        ]);
        std::fs::read_to_string(&html).unwrap()
    };
    let doc = print(&ks.db, &ks.id, "prizes");
    assert!(doc.contains("奖杯/奖牌") && doc.contains("奖杯") && doc.contains("奖牌"));
    let certs = print(&ks.db, &ks.id, "certificates");
    assert!(certs.contains("荣获第一名，颁发奖牌。"), "{certs}");
    assert!(certs.contains("，颁发奖杯。"), "{certs}");

    let ts = Simulated::new("tianshui-2024", 1, &["--players", "30"]);
    let list = ok(&["prizes", "--db", &ts.db, "--event", &ts.id]);
    assert!(list.contains("10000元（税前）"), "{list}");
    let total = list
        .lines()
        .find(|l| l.starts_with("奖金合计"))
        .unwrap_or_default();
    assert!(total.ends_with("元（税前）"), "{total}");
    let json = json_of(&run(&[
        "prizes", "--db", &ts.db, "--event", &ts.id, "--json",
    ]));
    assert_eq!(json["prizes_before_tax"], true);
    let doc = print(&ts.db, &ts.id, "prizes");
    assert!(doc.contains("奖金(元，税前)"), "{doc}");
    assert!(doc.contains("（税前）"), "{doc}");
}

/// Certificates as K13 words them: "甲、乙组团体前3名：分别颁发奖杯、荣誉证书" — a team's
/// certificate names its division ("荣获团体甲组第一名"); a lucky prize ("幸运奖", an
/// 早餐券) is handed over against a voucher (兑奖凭证), not a 荣誉证书; and no printed line
/// starts with "，" or "。" (避头尾).
#[test]
fn certificates_name_the_division_and_lucky_winners_get_a_voucher() {
    let ks = Simulated::new(
        "kunshan-2026",
        1,
        &["--players", "men=130", "--players", "women=20"],
    );
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("c.html");
    ok(&[
        "print",
        "--db",
        &ks.db,
        "--event",
        &ks.id,
        "--doc",
        "certificates",
        "--format",
        "html",
        "--out",
        html.to_str().unwrap(),
    ]);
    let h = std::fs::read_to_string(&html).unwrap();
    assert!(h.contains("荣获团体甲组第一名，颁发奖杯。"), "{h}");
    assert!(h.contains("荣获团体乙组第一名"), "{h}");
    assert!(h.contains("兑奖凭证"), "no voucher in {h}");
    assert!(h.contains("获得幸运奖：裕元花园酒店"), "{h}");
    // Every lucky prize is a voucher: as many vouchers as lucky prizes.
    let prizes = json_of(&run(&[
        "prizes", "--db", &ks.db, "--event", &ks.id, "--json",
    ]));
    let lucky = prizes["prizes"]
        .as_array()
        .expect("prizes")
        .iter()
        .filter(|p| p["kind"] == "lucky")
        .count();
    assert!(lucky > 0);
    assert_eq!(h.matches("获得幸运奖").count(), lucky);
    assert!(!h.contains("荣获幸运奖"), "{h}");
    // The browser keeps the rules too.
    assert!(h.contains("line-break: strict"));
    let pdf = dir.path().join("c.pdf");
    print_pdf(&ks.db, &ks.id, "certificates", &pdf, &[]);
    let text = pdftotext(&pdf);
    for line in text.lines() {
        let t = line.trim_start();
        assert!(!t.starts_with('，') && !t.starts_with('。'), "{line}");
    }
    assert!(text.contains("兑奖凭证") || text.contains("兑 奖 凭 证"));
}
