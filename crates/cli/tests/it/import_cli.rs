//! `player import` of the files units really send: an .xlsx with a title row above Chinese
//! headers, a GBK CSV as Chinese Excel saves it, an .xls (fixture), bad rows each reported
//! with row and column, an ID column that Excel turned into numbers, a duplicate person;
//! `--dry-run` writes nothing, `--json` gives one object per problem.

use crate::common;

use common::*;
use rust_xlsxwriter::{Format, Workbook};
use std::path::Path;
use std::process::{Command, Output};

const REGULATION: &str = r#"
[event]
name = "导入测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
unit_kind = "club"
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"

[[sections]]
id = "women"
name = "女子组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"

[sections.eligibility]
sex = "F"
"#;

const AT: &str = "2026-09-01T10:00:00+08:00";

/// An [`EventDir`] with its event created: the rosters of this file are imported into it.
struct Roster {
    env: EventDir,
    id: String,
}

impl std::ops::Deref for Roster {
    type Target = EventDir;
    fn deref(&self) -> &EventDir {
        &self.env
    }
}

impl Roster {
    fn new() -> Self {
        let env = EventDir::new(REGULATION);
        let id = env.create();
        Roster { env, id }
    }
    fn import(&self, file: &Path, extra: &[&str]) -> Output {
        let mut args = vec![
            "player",
            "import",
            "--event",
            &self.id,
            file.to_str().unwrap(),
            "--at",
            AT,
        ];
        args.extend_from_slice(extra);
        self.run(&args)
    }
    /// (name, section, unit) of every registered player.
    fn players(&self) -> Vec<(String, String, String)> {
        let o = self.run(&["event", "export", &self.id]);
        let log: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        entries_of_kind(&log, "player_registered")
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap_or("").to_string(),
                    e["section"].as_str().unwrap_or("").to_string(),
                    e["unit"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }
}

/// The form a unit fills in Excel: a title row, the unit's name, then the header and the
/// players. Row 7 has an ID number Excel stored as a number (a float cell), row 8 a bad sex,
/// row 9 the same person as row 5 (same ID), row 10 a birth date as an Excel date cell.
fn unit_workbook(path: &Path) {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name("报名表").unwrap();
    ws.write_string(0, 0, "2026年导入测试赛报名表").unwrap();
    ws.write_string(1, 0, "单位:").unwrap();
    ws.write_string(1, 1, "昆山市棋院").unwrap();
    let headers = [
        "序号",
        "姓名",
        "性别",
        "出生日期",
        "身份证号",
        "组别",
        "电话",
        "备注",
    ];
    for (c, h) in headers.iter().enumerate() {
        ws.write_string(3, c as u16, *h).unwrap();
    }
    let a = id_number("32058319850612123");
    let b = id_number("32058319900101002");
    let rows: [[&str; 8]; 4] = [
        [
            "1",
            "张三",
            "男",
            "1985-06-12",
            &a,
            "公开组",
            "13812345678",
            "队长",
        ],
        ["2", "李芳", "女", "", &b, "women", "", ""],
        ["4", "赵六", "X", "", "", "open", "", ""],
        ["5", "张三", "男", "", &a, "公开组", "", ""],
    ];
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let mut r = 4u32;
    for (i, row) in rows.iter().enumerate() {
        if i == 2 {
            // Row 7: the ID column typed as a number: Excel keeps 15 digits.
            ws.write_string(r, 0, "3").unwrap();
            ws.write_string(r, 1, "王五").unwrap();
            ws.write_number(r, 4, 620502199001011234.0).unwrap();
            ws.write_string(r, 5, "open").unwrap();
            r += 1;
        }
        for (c, v) in row.iter().enumerate() {
            ws.write_string(r, c as u16, *v).unwrap();
        }
        r += 1;
    }
    // Row 10: a birth date typed into Excel (a date cell), no ID number.
    ws.write_string(r, 0, "6").unwrap();
    ws.write_string(r, 1, "钱七").unwrap();
    ws.write_string(r, 2, "男").unwrap();
    ws.write_datetime_with_format(
        r,
        3,
        rust_xlsxwriter::ExcelDateTime::from_ymd(1992, 3, 4).unwrap(),
        &date,
    )
    .unwrap();
    ws.write_string(r, 5, "open").unwrap();
    wb.save(path).unwrap();
}

#[test]
fn an_xlsx_with_a_title_row_bad_rows_a_mangled_id_and_a_duplicate() {
    let env = Roster::new();
    let f = env.path("昆山市棋院.xlsx");
    unit_workbook(&f);

    // Dry run: the per-row report, nothing written.
    let o = env.import(&f, &["--dry-run"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}{}", text(&o.stderr));
    assert!(out.contains("表头第 4 行"), "{out}");
    assert!(out.contains("可报名 3 行, 有错误 3 行"), "{out}");
    assert!(
        out.contains("第7行 身份证号 (E列), 单元格 E7: Excel 把身份证号存成了数字"),
        "{out}"
    );
    assert!(out.contains("设为文本"), "{out}");
    assert!(
        out.contains("第8行 性别 (C列), 单元格 C8: 性别 「X」"),
        "{out}"
    );
    assert!(
        out.contains("第9行 身份证号 (E列), 单元格 E9: 与第 5 行是同一人"),
        "{out}"
    );
    assert!(out.contains("未写入任何数据"), "{out}");
    assert!(env.players().is_empty(), "a dry run writes nothing");

    // --json: one object per problem with row, column and message.
    let o = env.import(&f, &["--dry-run", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let problems = doc["problems"].as_array().unwrap();
    let at: Vec<(u64, &str)> = problems
        .iter()
        .map(|p| (p["row"].as_u64().unwrap(), p["column"].as_str().unwrap()))
        .collect();
    assert_eq!(
        at,
        vec![
            (7, "身份证号 (E列)"),
            (8, "性别 (C列)"),
            (9, "身份证号 (E列)")
        ]
    );
    assert!(problems
        .iter()
        .all(|p| !p["message"].as_str().unwrap().is_empty()));
    assert_eq!(doc["header_row"], 4);
    assert_eq!(doc["sheet"], "报名表");

    // The import: the valid rows are registered, the bad ones listed, exit 2.
    let o = env.import(&f, &[]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("已报名 3 人, 拒绝 0 人, 有错误未导入 3 行"),
        "{out}"
    );
    assert!(text(&o.stderr).contains("3 行有错误, 未导入; 其余已导入"));
    let players = env.players();
    let expect = |n: &str, s: &str| (n.to_string(), s.to_string(), "昆山市棋院".to_string());
    assert_eq!(
        players,
        vec![
            expect("张三", "open"),
            expect("李芳", "women"),
            expect("钱七", "open")
        ]
    );
    // The birth date cell was read as a date.
    let o = env.run(&["event", "export", &env.id]);
    assert!(text(&o.stdout).contains("1992-03-04"));
}

#[test]
fn a_gbk_csv_as_chinese_excel_saves_it() {
    let env = Roster::new();
    let csv =
        "姓名,性别,组别,单位\r\n张三,男,公开组,太仓象棋协会\r\n李芳,女,女子组,\"昆山,棋院\"\r\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(csv);
    assert!(std::str::from_utf8(&gbk).is_err());
    let f = env.path("报名表.csv");
    std::fs::write(&f, &gbk).unwrap();
    let o = env.import(&f, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("已报名 2 人"));
    assert_eq!(
        env.players(),
        vec![
            ("张三".into(), "open".into(), "太仓象棋协会".into()),
            ("李芳".into(), "women".into(), "昆山,棋院".into())
        ]
    );
    // A CSV whose ID column Excel wrote in scientific notation.
    let f = env.path("sci.csv");
    std::fs::write(&f, "姓名,身份证号\n王五,6.20502E+17\n").unwrap();
    let o = env.import(&f, &["--dry-run", "--section", "open"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        out.contains("第2行 身份证号 (B列), 单元格 B2: Excel 把身份证号存成了数字 (6.2050***17"),
        "{out}"
    );
}

#[test]
fn an_xls_fixture_is_read() {
    let env = Roster::new();
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/roster.xls");
    let o = env.import(&f, &["--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["format"], "xls", "{doc}");
    assert!(o.status.success(), "{doc}");
    let names: Vec<String> = env.players().into_iter().map(|p| p.0).collect();
    assert_eq!(names, vec!["张三", "李芳", "王五"]);
}

#[test]
fn headers_mapped_by_hand_and_a_file_without_a_header() {
    let env = Roster::new();
    let f = env.path("m.csv");
    std::fs::write(&f, "棋手,所属单位,组\n张三,甲单位,open\n").unwrap();
    let o = env.import(&f, &["--dry-run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("找不到表头"),
        "{}",
        text(&o.stderr)
    );
    let o = env.import(&f, &["--map", "棋手=姓名", "--map", "所属单位=unit"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        env.players(),
        vec![("张三".into(), "open".into(), "甲单位".into())]
    );
    let o = env.import(&f, &["--map", "棋手=外号"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("未知字段 「外号」"));
}

/// Every cell of the first sheet of a workbook as text, by (row, column), 0-based.
fn sheet_cells(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    use calamine::Reader;
    let mut book = calamine::open_workbook_auto(path).unwrap();
    let names = book.sheet_names();
    let range = book.worksheet_range(&names[0]).unwrap();
    let rows = range
        .rows()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect();
    (names, rows)
}

#[test]
fn the_entry_form_template_has_drop_downs_instructions_and_imports_when_filled() {
    let env = Roster::new();
    let form = env.path("报名表.xlsx");
    let o = Command::new(BIN)
        .args(["template", "entry-form", "--regulation"])
        .arg(env.path("reg.toml"))
        .arg("--out")
        .arg(&form)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (names, rows) = sheet_cells(&form);
    assert_eq!(names, vec!["报名表", "填表说明"]);
    assert_eq!(rows[0][0], "导入测试赛 报名表");
    assert_eq!(rows[1][0], "单位:");
    assert_eq!(rows[1][3], "领队:");
    assert_eq!(rows[2][3], "教练:");
    let header: Vec<&str> = rows[4].iter().map(String::as_str).collect();
    assert_eq!(
        header,
        vec![
            "序号",
            "姓名",
            "性别",
            "出生日期",
            "身份证号",
            "组别",
            "电话",
            "备注"
        ]
    );
    // The instructions sheet: eligibility and the deadline from the regulation.
    {
        use calamine::Reader;
        let mut book = calamine::open_workbook_auto(&form).unwrap();
        let r = book.worksheet_range("填表说明").unwrap();
        let all: String = r.rows().map(|r| r[0].to_string() + "\n").collect();
        assert!(all.contains("【女子组】"), "{all}");
        assert!(all.contains("限女子"), "{all}");
        assert!(all.contains("报名截止: 2026-09-30 18:00"), "{all}");
        assert!(all.contains("设为文本"), "{all}");
    }
    // Drop-downs (data validation) for sex and section, the ID column as text.
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&form).unwrap()).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(
        &mut zip.by_name("xl/worksheets/sheet1.xml").unwrap(),
        &mut xml,
    )
    .unwrap();
    assert!(
        xml.contains(r#"<dataValidation type="list""#),
        "no list validation"
    );
    assert!(xml.contains(r#"sqref="C6:C65"><formula1>"男,女"</formula1>"#));
    assert!(xml.contains(r#"sqref="F6:F65"><formula1>"公开组,女子组"</formula1>"#));
    let mut styles = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("xl/styles.xml").unwrap(), &mut styles).unwrap();
    assert!(
        styles.contains(r#"numFmtId="49""#) || styles.contains(r#"formatCode="@""#),
        "text format (@) is used: {styles}"
    );

    // A unit fills it: the template's own cells, read back, plus the unit and players.
    let filled = env.path("已填报名表.xlsx");
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name("报名表").unwrap();
    for (r, row) in rows.iter().enumerate().take(5) {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                ws.write_string(r as u32, c as u16, v).unwrap();
            }
        }
    }
    ws.write_string(1, 1, "太仓市棋院").unwrap();
    ws.write_string(1, 4, "周领队").unwrap();
    let woman = id_number("32058519950304002");
    let players: [[&str; 6]; 2] = [
        ["1", "陈一", "男", "1980-01-02", "", "公开组"],
        ["2", "林二", "", "", &woman, "女子组"],
    ];
    for (i, p) in players.iter().enumerate() {
        for (c, v) in p.iter().enumerate() {
            ws.write_string(5 + i as u32, c as u16, *v).unwrap();
        }
    }
    wb.save(&filled).unwrap();
    let o = env.import(&filled, &[]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(
        env.players(),
        vec![
            ("陈一".into(), "open".into(), "太仓市棋院".into()),
            ("林二".into(), "women".into(), "太仓市棋院".into())
        ]
    );
}

/// Issue 24, items 4, 6 and 7 at the CLI and in a roster file: control characters, a bidi
/// override and 100,000 characters are refused naming the field (the file's cell for an
/// import), and a formula name is written harmless to the CSV export.
#[test]
fn hostile_text_is_refused_at_the_cli_and_in_a_roster_and_neutralised_in_csv() {
    let env = Roster::new();
    let add = |name: &str, unit: &str| {
        env.run(&[
            "player",
            "add",
            "--event",
            &env.id,
            "--section",
            "open",
            "--name",
            name,
            "--sex",
            "男",
            "--unit",
            unit,
            "--at",
            AT,
        ])
    };
    // (one argument is at most 128 KiB on Linux: 100,000 ASCII characters)
    let long = "a".repeat(100_000);
    for (name, unit, why) in [
        (
            "张\u{1b}[2J三",
            "昆山",
            "姓名 (name) 第 2 个字符是控制字符 U+001B",
        ),
        (
            "王\u{202E}五",
            "昆山",
            "姓名 (name) 第 2 个字符是文字方向控制符 U+202E",
        ),
        (
            long.as_str(),
            "昆山",
            "姓名 (name) 过长: 100000 个字符, 至多 100 个",
        ),
        (
            "赵六",
            "昆\u{7}山",
            "单位 (unit) 第 2 个字符是控制字符 U+0007",
        ),
    ] {
        let o = add(name, unit);
        assert!(!o.status.success());
        let err = text(&o.stderr);
        assert!(err.contains(why), "{err}");
        assert!(!err.contains('\u{1b}') && err.len() < 2000, "{err}");
    }
    assert!(env.players().is_empty());
    // A roster file: the bad cells reported with their cell, the good row imported.
    let csv = env.path("roster.csv");
    std::fs::write(
        &csv,
        "姓名,性别,组别,单位\n孙七,男,公开组,昆山\n周\u{1b}[31m八,男,公开组,昆山\n吴九,男,公开组,昆\u{202E}山\n",
    )
    .unwrap();
    let o = env.import(&csv, &[]);
    let out = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert!(
        out.contains("A3") && out.contains("控制字符 U+001B"),
        "{out}"
    );
    assert!(
        out.contains("D4") && out.contains("文字方向控制符 U+202E"),
        "{out}"
    );
    assert_eq!(env.players().len(), 1, "{out}");
    // A formula name is a name; the CSV export neutralises it.
    let formula = "=cmd|' /C calc'!A0";
    assert!(add(formula, "昆山").status.success());
    let dir = env.path("csv");
    let o = env.run(&[
        "event",
        "export",
        &env.id,
        "--format",
        "csv",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut seen = false;
    for f in std::fs::read_dir(&dir).unwrap() {
        let body = std::fs::read_to_string(f.unwrap().path()).unwrap();
        if body.contains(formula) {
            seen = true;
            assert!(body.contains(&format!("'{formula}")), "{body}");
        }
    }
    assert!(seen, "the formula name is in some table");
}

/// A regulation whose open section ranks two categories marked by flags (本地棋手, 元老).
const FLAGGED: &str = r#"
[event]
name = "标记测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
unit_kind = "club"
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }

[[sections.categories]]
id = "locals"
name = "本地组"
flag = "local"

[[sections.categories]]
id = "seniors"
name = "元老组"
flag = "senior"
"#;

/// Issue 31: flags set in the roster's 标记 column, by regulation name or Chinese label; a
/// flag the regulation does not name is that row's problem, with its cell and the known flags.
#[test]
fn the_flag_column_sets_category_flags_and_names_an_unknown_one() {
    let env = EventDir::new(FLAGGED);
    let id = env.create();
    let f = env.path("flags.csv");
    std::fs::write(
        &f,
        "姓名,单位,标记\n张三,甲单位,本地棋手\n李四,乙单位,外地\n王五,丙单位,元老组、local\n",
    )
    .unwrap();
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        f.to_str().unwrap(),
        "--at",
        AT,
    ]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}{}", text(&o.stderr));
    assert!(
        out.contains("第3行 标记 (C列), 单元格 C3: 标记「外地」不是本规程的条件"),
        "{out}"
    );
    assert!(out.contains("「local」本地棋手、「senior」元老组"), "{out}");
    assert!(out.contains("已报名 2 人"), "{out}");
    let o = env.run(&["event", "export", &id]);
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let flags: Vec<(String, Vec<String>)> = entries_of_kind(&log, "player_registered")
        .iter()
        .map(|e| {
            let mut fl: Vec<String> = e["flags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            fl.sort();
            (e["name"].as_str().unwrap().to_string(), fl)
        })
        .collect();
    assert_eq!(
        flags,
        vec![
            ("张三".to_string(), vec!["local".to_string()]),
            (
                "王五".to_string(),
                vec!["local".to_string(), "senior".to_string()]
            ),
        ]
    );
}

/// Issue 31: `player add --flag` takes a flag by name or Chinese label; one the regulation
/// does not name is refused (exit 2) with its name and the known ones, and nothing recorded.
#[test]
fn player_add_sets_a_category_flag_and_refuses_an_unknown_one() {
    let env = EventDir::new(FLAGGED);
    let id = env.create();
    let add = |name: &str, flag: &str| {
        env.run(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            name,
            "--unit",
            "甲单位",
            "--flag",
            flag,
            "--at",
            AT,
        ])
    };
    let o = add("张三", "外地");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("标记「外地」不是本规程的条件"), "{err}");
    assert!(err.contains("「local」本地棋手、「senior」元老组"), "{err}");
    let o = add("张三", "元老组");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = env.run(&["event", "export", &id]);
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let entries = entries_of_kind(&log, "player_registered");
    assert_eq!(entries.len(), 1, "the refused form recorded nothing");
    assert_eq!(entries[0]["flags"], serde_json::json!(["senior"]));
    assert!(entries_of_kind(&log, "entry_refused").is_empty());
}

/// Issue 45 item 1. Tianshui's 天水本地组 is for 「天水本地棋手」 (T1, `require_flags =
/// ["local"]`) and every section asks for 「个人意外保险证明」 (T7): the entry-form template
/// has a 参赛条件 column and a 证明 column, each with a drop-down of the words the regulation
/// uses, and a form filled with them registers the local player in the local section.
#[test]
fn the_entry_form_template_has_a_column_for_each_condition_and_evidence_it_asks_for() {
    let env = EventDir::new(include_str!("../../../../regulations/tianshui-2024.toml"));
    let id = env.create();
    let form = env.path("报名表.xlsx");
    let o = Command::new(BIN)
        .args(["template", "entry-form", "--regulation"])
        .arg(env.path("reg.toml"))
        .arg("--out")
        .arg(&form)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (_, rows) = sheet_cells(&form);
    let header: Vec<&str> = rows[4].iter().map(String::as_str).collect();
    assert_eq!(
        header,
        vec![
            "序号",
            "姓名",
            "性别",
            "出生日期",
            "身份证号",
            "组别",
            "电话",
            "队名",
            "参赛条件",
            "证明",
            "备注"
        ]
    );
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&form).unwrap()).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(
        &mut zip.by_name("xl/worksheets/sheet1.xml").unwrap(),
        &mut xml,
    )
    .unwrap();
    assert!(
        xml.contains(r#"sqref="I6:I65"><formula1>"本地棋手"</formula1>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"sqref="J6:J65"><formula1>"意外伤害保险"</formula1>"#),
        "{xml}"
    );
    // Filled: the header row as the template has it, one local player.
    let filled = env.path("已填.xlsx");
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet();
    for (c, h) in header.iter().enumerate() {
        ws.write_string(4, c as u16, *h).unwrap();
    }
    let who = id_number("62050219900101011");
    for (c, v) in [
        "1",
        "本地一",
        "",
        "",
        &who,
        "天水本地组",
        "13912340001",
        "",
        "本地棋手",
        "意外伤害保险",
        "",
    ]
    .iter()
    .enumerate()
    {
        ws.write_string(5, c as u16, *v).unwrap();
    }
    wb.save(&filled).unwrap();
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        filled.to_str().unwrap(),
        "--at",
        "2024-07-01T10:00:00+08:00",
    ]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    // The notices it prints are the ones the desk shows (the reader's list).
    assert!(
        text(&o.stderr).contains("忽略列 「序号」 (column not read)"),
        "{}",
        text(&o.stderr)
    );
    let log = env.log(&id);
    let reg = entries_of_kind(&log, "player_registered");
    assert_eq!(reg.len(), 1);
    assert_eq!(reg[0]["section"], "local");
    assert_eq!(reg[0]["flags"][0], "local");
}
