//! Qualification (录取) for a category and several per section (issue 46): a section's own
//! ranking qualifies for one event, its local players' ranking and its U15 players' ranking
//! for others (2020 全国青少年象棋冠军赛 十一: 「U15组冠军…世界象棋公开赛资格」「U17组前三名、U15组
//! 冠军可获得参加…全国象棋锦标赛资格」; 「本地选手前N名获得…资格」).

use crate::common::*;
use serde_json::Value;

/// A four-player knockout (seeds by entry order, red the higher seed) with two categories and
/// the given qualification tables; `knockout` goes into `[sections.format.knockout]`.
fn regulation(knockout: &str, qualification: &str) -> String {
    format!(
        r#"
[event]
name = "资格测试赛"
start = 2026-10-01
end = 2026-10-03

[[sections]]
id = "open"
name = "公开组"
pairing = {{ numbering = "given" }}

[sections.format]
kind = "knockout"

[sections.format.knockout]
variant = "single"
{knockout}

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10
increment_seconds = 5

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
black_minutes = 3

[[sections.categories]]
id = "u15"
name = "U15组"
born_from = 2012-01-01

[[sections.categories]]
id = "local"
name = "本地选手"
flag = "local"
{qualification}
"#
    )
}

/// 棋手01 an adult, 棋手02 under 15, 棋手03 a local adult, 棋手04 a local under 15; the
/// draw, then the higher seed wins every game: places 1–4 follow the seeds, 3–4 shared
/// unless the regulation separates them.
fn play(d: &EventDir) -> String {
    let id = d.create();
    for (name, birth, local) in [
        ("棋手01", "1990-05-01", false),
        ("棋手02", "2013-05-01", false),
        ("棋手03", "1991-05-01", true),
        ("棋手04", "2014-05-01", true),
    ] {
        let mut args = vec![
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            name,
            "--birth",
            birth,
            "--sex",
            "M",
            "--at",
            "2026-09-01T10:00:00+08:00",
        ];
        if local {
            args.extend(["--flag", "local"]);
        }
        d.ok(&args);
    }
    d.ok(&["draw", "--event", &id, "--section", "open"]);
    for board in ["1", "2", "1"] {
        d.ok(&[
            "result",
            "--event",
            &id,
            "--section",
            "open",
            "--board",
            board,
            "1-0",
        ]);
    }
    id
}

const SEVERAL: &str = r#"
[[sections.qualification]]
places = 1
to = "全国象棋公开赛"

[[sections.qualification]]
places = 2
to = "全国象棋公开赛"
category = "local"

[[sections.qualification]]
places = 1
to = "世界象棋公开赛U15组"
category = "u15"
"#;

/// Three qualifications of one section: `regulation check` prints each, `arbiter prizes`
/// lists each one's players — the category ones from the category's ranking, with the place
/// in it — and `--json` and export.json carry the category.
#[test]
fn several_qualifications_each_from_its_own_ranking() {
    let d = EventDir::new(&regulation("shared_places = \"seed\"", SEVERAL));
    let summary = ok(&["regulation", "check", d.path("reg.toml").to_str().unwrap()]);
    for line in [
        "晋级: 本组 第1名 获得「全国象棋公开赛」资格",
        "晋级: 本地选手 前2名 获得「全国象棋公开赛」资格",
        "晋级: U15组 第1名 获得「世界象棋公开赛U15组」资格",
    ] {
        assert!(summary.contains(line), "{line}\n{summary}");
    }
    let id = play(&d);
    let prizes = d.ok(&["prizes", "--event", &id]);
    let lists: Vec<&str> = prizes.split("取得「").skip(1).map(str::trim_end).collect();
    assert_eq!(
        lists,
        vec![
            "全国象棋公开赛」资格 (qualified): 公开组\n  第1名\t1号 棋手01",
            "全国象棋公开赛」资格 (qualified): 公开组 本地选手\n  第1名\t3号 棋手03\n  第2名\t4号 棋手04",
            "世界象棋公开赛U15组」资格 (qualified): 公开组 U15组\n  第1名\t2号 棋手02",
        ],
        "{prizes}"
    );
    let json: Value =
        serde_json::from_str(&d.ok(&["prizes", "--event", &id, "--json"])).expect("json");
    let rows: Vec<(Option<&str>, &str, u64, u64, u64)> = json["qualified"]
        .as_array()
        .expect("qualified")
        .iter()
        .map(|r| {
            (
                r["category"].as_str(),
                r["to"].as_str().unwrap_or(""),
                r["place"].as_u64().unwrap_or(0),
                r["rank"].as_u64().unwrap_or(0),
                r["no"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    // (category, to, place, rank in that ranking, number).
    assert_eq!(
        rows,
        vec![
            (None, "全国象棋公开赛", 1, 1, 1),
            (Some("local"), "全国象棋公开赛", 1, 1, 3),
            (Some("local"), "全国象棋公开赛", 2, 2, 4),
            (Some("u15"), "世界象棋公开赛U15组", 1, 1, 2),
        ]
    );
    let export: Value =
        serde_json::from_str(&d.ok(&["event", "export", &id, "--format", "json"])).expect("export");
    assert_eq!(export["qualified"], json["qualified"]);
    // The printed prize list: one table per qualification, the category's named.
    let html = d.path("prizes.html");
    d.ok(&[
        "print",
        "--event",
        &id,
        "--doc",
        "prizes",
        "--format",
        "html",
        "--out",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&html).expect("prizes.html");
    let captions: Vec<&str> = page
        .match_indices("资格名单")
        .map(|(i, _)| {
            let start = page[..i].rfind('>').map_or(0, |s| s + 1);
            &page[start..i]
        })
        .collect();
    assert_eq!(
        captions,
        vec![
            "公开组 取得「全国象棋公开赛」",
            "公开组 本地选手 取得「全国象棋公开赛」",
            "公开组 U15组 取得「世界象棋公开赛U15组」",
        ],
        "{page}"
    );
}

/// The two local players share 3rd place (the semi-final losers, no `shared_places`): one
/// local place would tell them apart by the list's order, so `prizes` is refused naming the
/// category and its shared place; two local places take both and are allowed.
#[test]
fn a_shared_place_across_a_category_qualification_line_is_refused() {
    let one = "\n[[sections.qualification]]\nplaces = 1\nto = \"市赛\"\ncategory = \"local\"\n";
    let d = EventDir::new(&regulation("", one));
    let id = play(&d);
    let err = d.refused(&["prizes", "--event", &id]);
    assert!(
        err.contains("公开组 本地选手 并列第1名共 2 人, 但参赛资格不同"),
        "{err}"
    );
    let d = EventDir::new(&regulation("", &one.replace("places = 1", "places = 2")));
    let id = play(&d);
    let prizes = d.ok(&["prizes", "--event", &id]);
    assert!(
        prizes.contains("取得「市赛」资格 (qualified): 公开组 本地选手\n  第1名\t3号 棋手03\n  第2名\t4号 棋手04"),
        "{prizes}"
    );
}
