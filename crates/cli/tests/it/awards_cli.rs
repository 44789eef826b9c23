//! S10 (Suzhou): 「设最佳组织奖、最佳赛风赛纪奖各一个，各奖励500元」 — awards the organiser gives
//! by choice, through `arbiter award`, printed with the prizes and on certificates.

use crate::common;

use common::*;
use serde_json::Value;

const EV: &str = "ev-00000001";

#[test]
fn suzhou_best_organisation_award_is_given_by_the_organiser_and_printed_with_the_prizes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sim = simulate(dir.path(), "suzhou-2025");
    // The simulated log in a database of its own, away from simulate's export.json (which
    // the awards make stale).
    let file = dir.path().join("log.json");
    std::fs::write(&file, ok(&["event", "export", EV, "--db", &sim])).expect("write");
    let db = dir.path().join("suzhou.db").display().to_string();
    ok(&["event", "import", file.to_str().expect("p"), "--db", &db]);
    // The awards are named at the closing; the simulated event is closed already.
    ok(&[
        "event",
        "reopen",
        "--event",
        EV,
        "--db",
        &db,
        "--reason",
        "颁发组委会奖项",
    ]);
    let listed = ok(&["award", "--event", EV, "--db", &db]);
    assert!(
        listed.contains("最佳组织奖 (1 个, 每个 500 元): 尚未授予"),
        "{listed}"
    );
    assert!(listed.contains("最佳赛风赛纪奖"), "{listed}");
    // Refusals name what is wrong and write nothing.
    let refused = |args: &[&str], needle: &str| {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    };
    let base = ["award", "--event", EV, "--db", db.as_str()];
    let with = |extra: &[&'static str]| {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    refused(
        &with(&["--award", "最佳组织", "--to", "吴中区象棋协会"]),
        "规程中没有奖项「最佳组织」; 本赛事的奖项: 最佳组织奖、最佳赛风赛纪奖",
    );
    refused(
        &with(&["--award", "最佳组织奖", "--to", "火星象棋协会"]),
        "「火星象棋协会」不是本赛事的参赛单位、队伍或棋手",
    );
    refused(
        &with(&[
            "--award",
            "最佳赛风赛纪奖",
            "--to",
            "吴中区象棋协会",
            "--to",
            "相城区象棋协会",
        ]),
        "「最佳赛风赛纪奖」规程设 1 个, 不能授予 2 个获奖者",
    );
    refused(
        &with(&["--award", "最佳赛风赛纪奖", "--withdraw"]),
        "「最佳赛风赛纪奖」尚未授予",
    );
    let before: Value = serde_json::from_str(&ok(&[
        "event", "export", EV, "--format", "json", "--db", &db,
    ]))
    .expect("export");
    assert!(before.get("special_awards").is_none(), "none given yet");
    // Given: the log says so in words, the prize list and the export carry it.
    let given = ok(&with(&[
        "--award",
        "最佳组织奖",
        "--to",
        "吴中区象棋协会",
        "--reason",
        "组织工作出色",
    ]));
    assert!(
        given.contains("已授予 吴中区象棋协会「最佳组织奖」"),
        "{given}"
    );
    let log = ok(&["event", "log", EV, "--db", &db]);
    assert!(
        log.contains("授予 吴中区象棋协会「最佳组织奖」, 理由: 组织工作出色"),
        "{log}"
    );
    let prizes = ok(&["prizes", "--event", EV, "--db", &db]);
    assert!(
        prizes.contains("组委会奖项\t最佳组织奖\t吴中区象棋协会\t500元"),
        "{prizes}"
    );
    let after: Value = serde_json::from_str(&ok(&[
        "event", "export", EV, "--format", "json", "--db", &db,
    ]))
    .expect("export");
    assert_eq!(after["special_awards"][0]["award"], "最佳组织奖");
    assert_eq!(
        after["special_awards"][0]["recipients"][0],
        "吴中区象棋协会"
    );
    // The 500 yuan count in the prize money.
    let total = |x: &Value| x["prize_total"].as_i64().expect("total");
    assert_eq!(total(&after), total(&before) + 500);
    // Printed: a table of the organiser's awards after the places, and a certificate.
    let html = dir.path().join("prizes.html");
    ok(&[
        "print",
        "--db",
        &db,
        "--event",
        EV,
        "--doc",
        "prizes",
        "--format",
        "html",
        "--out",
        html.to_str().expect("path"),
    ]);
    let page = std::fs::read_to_string(&html).expect("html");
    assert!(
        page.contains("组委会奖项") && page.contains("最佳组织奖"),
        "prizes page"
    );
    let certs = dir.path().join("certs.html");
    ok(&[
        "print",
        "--db",
        &db,
        "--event",
        EV,
        "--doc",
        "certificates",
        "--format",
        "html",
        "--out",
        certs.to_str().expect("path"),
    ]);
    let page = std::fs::read_to_string(&certs).expect("html");
    assert!(page.contains("荣获最佳组织奖"), "certificate");
    // Taken back: gone from the export again; the event closes and verifies.
    ok(&with(&[
        "--award",
        "最佳组织奖",
        "--withdraw",
        "--reason",
        "评选有误",
    ]));
    let x: Value = serde_json::from_str(&ok(&[
        "event", "export", EV, "--format", "json", "--db", &db,
    ]))
    .expect("export");
    assert!(x.get("special_awards").is_none(), "{}", x["special_awards"]);
    ok(&with(&[
        "--award",
        "最佳赛风赛纪奖",
        "--to",
        "相城区象棋协会",
    ]));
    ok(&["event", "close", "--event", EV, "--db", &db]);
    ok(&["event", "verify", &db]);
    // A closed event takes no award until it is reopened.
    refused(
        &with(&["--award", "最佳组织奖", "--to", "吴中区象棋协会"]),
        "赛事已闭幕",
    );
}

/// 「不足8人则减1录取」 (青岛少年赛 九(一)): four players of a table of eight places, so three
/// places are awarded; the same table with eight players would award all eight.
#[test]
fn a_group_short_of_its_places_awards_one_fewer_than_its_players() {
    let regulation = r#"
[event]
name = "减1录取测试赛"
start = 2026-10-01
end = 2026-10-01

[registration]
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "少年组"
format = { kind = "round_robin" }
awards = { fewer_than = 8 }

[[sections.prizes]]
rank = 1
trophy = true
[[sections.prizes]]
from = 2
to = 8
"#;
    let env = EventDir::new(regulation);
    let check = ok(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert!(check.contains("不足8人则减1录取"), "{check}");
    let id = env.create();
    for name in ["甲", "乙", "丙", "丁"] {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            name,
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    crate::grades_cli::play_out(&env, &id, &["甲", "乙", "丙", "丁"]);
    let json: Value =
        serde_json::from_str(&env.ok(&["prizes", "--event", &id, "--json"])).expect("json");
    let ranks: Vec<u64> = json["prizes"]
        .as_array()
        .expect("prizes")
        .iter()
        .map(|p| p["rank"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(ranks, [1, 2, 3], "four players: three places");
    // Refused at its line: fewer than two makes no sense.
    let bad = env.path("bad.toml");
    std::fs::write(&bad, regulation.replace("fewer_than = 8", "fewer_than = 1")).expect("write");
    let o = run(&["regulation", "check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("bad.toml:14:") && err.contains("N 至少为 2"),
        "{err}"
    );
}
