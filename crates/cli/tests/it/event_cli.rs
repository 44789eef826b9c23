//! `arbiter event …` and `arbiter player …` run as a real process.

use crate::common;

use common::*;

const REGULATION: &str = r#"
[event]
name = "测试公开赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"

[sections.eligibility]
max_age = 65

[[sections]]
id = "women"
name = "女子组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"

[sections.eligibility]
sex = "F"
"#;

const BEFORE_DEADLINE: &str = "2026-09-01T10:00:00+08:00";

#[test]
fn create_prints_only_the_id_and_list_json_has_id_and_name() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    assert!(
        id.starts_with("ev-") && !id.contains(char::is_whitespace),
        "{id:?}"
    );
    let second = env.create();
    assert_ne!(id, second);
    let list: serde_json::Value =
        serde_json::from_str(&env.ok(&["event", "list", "--json"])).unwrap();
    let arr = list.as_array().unwrap();
    assert_eq!(arr.len(), 2);
    assert_eq!(arr[0]["id"], id.as_str());
    assert_eq!(arr[0]["name"], "测试公开赛");
}

/// Issue 45 item 13: this edition's name (not the regulation's 2024 one) is what
/// `event list` (and so the public home and the API) shows — given at creation with
/// `--name`, or changed later with `event settings --name`; the log says which regulation
/// the event was created from.
#[test]
fn this_editions_name_is_the_listed_name() {
    let env = EventDir::new(REGULATION);
    let id = env
        .ok(&[
            "event",
            "create",
            "--regulation",
            "reg.toml",
            "--name",
            "2027年测试公开赛",
        ])
        .trim()
        .to_string();
    let second = env.create();
    let list = env.ok(&["event", "list"]);
    assert!(list.contains(&format!("{id}\t2027年测试公开赛")), "{list}");
    assert!(list.contains(&format!("{second}\t测试公开赛")), "{list}");
    let log = env.ok(&["event", "log", &id]);
    assert!(log.contains("按规程 「测试公开赛」 创建赛事"), "{log}");
    assert!(log.contains("名称 → 2027年测试公开赛"), "{log}");
    env.ok(&[
        "event",
        "settings",
        "--event",
        &second,
        "--name",
        "第二届测试公开赛",
    ]);
    let list: serde_json::Value =
        serde_json::from_str(&env.ok(&["event", "list", "--json"])).unwrap();
    assert_eq!(list[1]["name"], "第二届测试公开赛", "{list}");
    let show = env.ok(&["event", "show", &second]);
    assert!(show.contains("第二届测试公开赛"), "{show}");
}

/// Issue 45 item 5: 换组 — a woman entered in the open section by mistake moves to the
/// women's section before the draw: the same entry (her fee goes with her, nothing owed
/// left on the open sheet); a man is refused by the women's rule; a reason is required.
#[test]
fn change_section_before_the_draw_keeps_the_entry_and_its_fee() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let woman = id_number("32058319900101122");
    let man = id_number("32058319900101131");
    for (name, idn) in [("王芳", &woman), ("张三", &man)] {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            name,
            "--id-number",
            idn,
            "--at",
            BEFORE_DEADLINE,
        ]);
    }
    env.ok(&[
        "fee",
        "--event",
        &id,
        "--player",
        "1",
        "--amount",
        "100",
        "--at",
        BEFORE_DEADLINE,
    ]);
    let change = |pid: &str, reason: &str| {
        env.run(&[
            "player",
            "change-section",
            "--event",
            &id,
            "--player",
            pid,
            "--section",
            "女子组",
            "--reason",
            reason,
        ])
    };
    let o = change("2", "报错组别");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("不符合女子组的参赛条件"),
        "{}",
        stderr(&o)
    );
    let o = change("1", " ");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("换组须说明理由"), "{}", stderr(&o));
    let o = change("1", "报错组别");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("换至") && stdout(&o).contains("报错组别"),
        "{}",
        stdout(&o)
    );
    let show = env.ok(&["event", "show", &id]);
    assert!(show.contains("公开组 [open]: 1 人"), "{show}");
    assert!(show.contains("女子组 [women]: 1 人"), "{show}");
    let log = env.ok(&["event", "log", &id]);
    assert!(
        log.contains("王芳 由公开组换至女子组, 理由: 报错组别"),
        "{log}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["event", "log", &id, "--json"])).unwrap();
    let moved: Vec<_> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["entry"]["type"] == "player_section_changed")
        .collect();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0]["entry"]["from"], "open");
    assert_eq!(moved[0]["entry"]["to"], "women");
    // Back again is the same entry: one fee, paid, in whichever section she plays.
    let o = change("1", "报错组别");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("已在女子组"), "{}", stderr(&o));
}

#[test]
fn bad_regulation_is_invalid_input_with_location() {
    let env = EventDir::new(REGULATION);
    let p = write(&env.path("bad.toml"), "[event]\nname = 3\n");
    let o = env.run(&["event", "create", "--regulation", &p]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.toml:"), "{err}");
}

#[test]
fn player_import_registers_refuses_and_show_masks_personal_data() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let man = id_number("32058319850612123"); // male, born 1985
    let old = id_number("32058319400101123"); // too old for 65
    let csv = format!(
        "姓名,组别,性别,身份证号,手机,单位\n张三,公开组,,{man},138-1234-5678,昆山队\n老李,open,,{old},,\n王芳,women,女,,13900001111,\n赵六,women,,{man},,\n"
    );
    let f = write(&env.path("players.csv"), &csv);
    let out = env.ok(&[
        "player",
        "import",
        "--event",
        &id,
        &f,
        "--at",
        BEFORE_DEADLINE,
    ]);
    assert!(out.contains("已报名 2 人, 拒绝 2 人"), "{out}");
    assert!(out.contains("第3行 老李"), "{out}");
    let show = env.ok(&["event", "show", &id]);
    assert!(show.contains("测试公开赛"), "{show}");
    assert!(show.contains("公开组 [open]: 1 人"), "{show}");
    assert!(show.contains("女子组 [women]: 1 人"), "{show}");
    assert!(show.contains("拒绝报名: 2 人"), "{show}");
    assert!(
        !show.contains(&man) && !show.contains(&old),
        "ID numbers leak: {show}"
    );
    assert!(
        show.contains(&format!("{}**********{}", &old[..6], &old[16..])),
        "{show}"
    );
    let masked = env.ok(&["event", "export", &id, "--mask"]);
    assert!(
        !masked.contains(&man) && !masked.contains("13812345678"),
        "{masked}"
    );
    assert!(masked.contains("138****5678"), "{masked}");

    // One player added on the command line.
    let out = env.ok(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "open",
        "--name",
        "李雷",
        "--sex",
        "M",
        "--birth",
        "1990-05-06",
        "--at",
        BEFORE_DEADLINE,
    ]);
    assert!(out.contains("李雷"), "{out}");
    // After the deadline: refused, recorded, exit 2.
    let late = env.run(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "open",
        "--name",
        "迟到",
        "--birth",
        "1990-05-06",
        "--at",
        "2026-10-01T09:00:00+08:00",
    ]);
    assert_eq!(late.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&late.stderr).contains("截止"),
        "{}",
        String::from_utf8_lossy(&late.stderr)
    );
    assert!(env.ok(&["event", "show", &id]).contains("拒绝报名: 3 人"));
}

#[test]
fn bad_csv_rows_are_listed_with_row_and_column_and_the_valid_row_is_imported() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let good = id_number("32058319850612123");
    let bad = format!(
        "{}{}",
        &good[..17],
        if good.ends_with('0') { '1' } else { '0' }
    );
    let csv =
        format!("name,section,id_number,sex\nAnn,open,{good},M\nBob,open,{bad},M\nCid,open,,Q\n");
    let f = write(&env.path("bad.csv"), &csv);
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        &f,
        "--at",
        BEFORE_DEADLINE,
    ]);
    // Issue 15: the valid rows are committed, the bad ones listed with row and column, and
    // the exit code says not everything went in.
    assert_eq!(o.status.code(), Some(2));
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("bad.csv"), "{out}");
    assert!(out.contains("第3行") && out.contains("(C列)"), "{out}");
    assert!(out.contains("第4行") && out.contains("(D列)"), "{out}");
    let show = env.ok(&["event", "show", &id]);
    assert!(
        show.contains("公开组 [open]: 1 人"),
        "the valid row is imported: {show}"
    );
    // Unknown section is also a malformed file.
    let f = write(&env.path("sec.csv"), "姓名,组别\n甲,opne\n");
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        &f,
        "--at",
        BEFORE_DEADLINE,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("opne") && out.contains("open"), "{out}");
}

#[test]
fn export_then_import_gives_the_same_log() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let f = write(
        &env.path("p.csv"),
        &format!(
            "姓名,组别,身份证号\n张三,open,{}\n",
            id_number("32058319850612123")
        ),
    );
    env.ok(&[
        "player",
        "import",
        "--event",
        &id,
        &f,
        "--at",
        BEFORE_DEADLINE,
    ]);
    let doc = env.ok(&["event", "export", &id]);
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(v["format"], "arbiter-log/1");
    assert_eq!(v["entries"].as_array().unwrap().len(), 2);
    let file = write(&env.path("log.json"), &doc);
    // The same database already holds this log: a second copy must be asked for.
    let dup = env.run(&["event", "import", &file]);
    assert_eq!(dup.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&dup.stderr).contains(&id));
    let new_id = env
        .ok(&["event", "import", &file, "--allow-duplicate"])
        .trim()
        .to_string();
    assert_ne!(new_id, id);
    let again: serde_json::Value =
        serde_json::from_str(&env.ok(&["event", "export", &new_id])).unwrap();
    assert_eq!(again["entries"], v["entries"]);
    assert_eq!(
        env.ok(&["event", "show", &new_id]).replace(&new_id, "X"),
        env.ok(&["event", "show", &id]).replace(&id, "X")
    );
    // Garbage is refused with a location.
    let junk = write(
        &env.path("junk.json"),
        "{\"format\": \"arbiter-log/1\",\n \"entries\": [1,]}",
    );
    let o = env.run(&["event", "import", &junk]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("第2行"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The published export (`arbiter-export/1`) works on any event and holds no personal data.
    let o = env.run(&["event", "export", &id, "--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let published: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("export.json is JSON");
    assert_eq!(published["format"], "arbiter-export/1");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        !text.contains("id_number") && !text.contains("phone"),
        "{text}"
    );
}

#[test]
fn unknown_event_suggests_the_nearest_id() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let o = env.run(&["event", "show", "ev-0000001"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("不存在") && err.contains(&id), "{err}");
}

/// Issue 42, item 6: a regulation's names under the text rule at `event create` (and
/// `regulation check`), and a stored log holding control and bidi characters — from before
/// the rule, or imported — printed by `event log`, `event list` and `event show` with none of
/// them: each written out as `\u001b`.
#[test]
fn hostile_names_are_refused_at_creation_and_never_printed_raw() {
    let env = EventDir::new(REGULATION);
    for (bad, why) in [
        (
            REGULATION.replace("name = \"测试公开赛\"", "name = \"测试\\u001b[2J公开赛\""),
            "「event.name」 的文字第 3 个字符是控制字符 U+001B",
        ),
        (
            REGULATION.replace("name = \"公开组\"", "name = \"公开\u{202E}组\""),
            "文字方向控制符 U+202E",
        ),
        (
            REGULATION.replace(
                "name = \"公开组\"",
                &format!("name = \"{}\"", "长".repeat(30_000)),
            ),
            "过长: 30000 个字符, 至多 100 个",
        ),
    ] {
        let p = write(&env.path("bad.toml"), &bad);
        for cmd in [
            vec!["event", "create", "--regulation", p.as_str()],
            vec!["regulation", "check", p.as_str()],
        ] {
            let o = if cmd[0] == "event" {
                env.run(&cmd)
            } else {
                run(&cmd)
            };
            assert_eq!(o.status.code(), Some(2), "{cmd:?}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("bad.toml:") && err.contains(why),
                "{cmd:?}: {err}"
            );
            assert!(
                !err.contains('\u{1b}') && !err.contains('\u{202E}'),
                "{err}"
            );
        }
    }
    // A log holding a name with ESC and U+202E (the fold does not judge text: a log from
    // before the rule still replays), imported.
    let id = env.create();
    env.ok(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "open",
        "--name",
        "张三",
        "--sex",
        "男",
        "--birth",
        "1990-01-01",
        "--at",
        BEFORE_DEADLINE,
    ]);
    let doc = env
        .ok(&["event", "export", &id])
        .replace("张三", "张\\u001b[2J\\u202e三");
    let file = write(&env.path("log.json"), &doc);
    let hostile = env
        .ok(&["event", "import", &file, "--allow-duplicate"])
        .trim()
        .to_string();
    for cmd in [
        vec!["event", "log", hostile.as_str()],
        vec!["event", "log", hostile.as_str(), "--json"],
        vec!["event", "list"],
        vec!["event", "show", hostile.as_str()],
    ] {
        let o = env.run(&cmd);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            !out.chars()
                .any(|c| (c.is_control() && !matches!(c, '\n' | '\t' | '\r')) || c == '\u{202E}'),
            "{cmd:?} printed a control character: {out:?}"
        );
        if cmd[1] == "log" {
            assert!(out.contains("张\\u001b[2J\\u202e三"), "{cmd:?}: {out}");
        }
    }
}
