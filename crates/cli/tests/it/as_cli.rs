//! `--as`: every writing command takes the same `--db --actor --at --as`, and an account's
//! role is judged by the director's table exactly as the desk judges it — the same refusal,
//! in the same words.

use crate::common;

use arbiter_director::permission::Action;
use arbiter_director::DirectorError;
use arbiter_types::Role;
use common::*;
use std::path::PathBuf;

const REGULATION: &str = r#"
[event]
name = "身份测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 3 }
tiebreaks = "cxa-2011-opp"
"#;

struct Event {
    _dir: tempfile::TempDir,
    db: PathBuf,
    id: String,
}

impl Event {
    fn db(&self) -> &str {
        self.db.to_str().expect("utf-8 path")
    }
}

/// An event of four players, no round paired, with the accounts `chief`, `arb`, `org` and
/// `desk` of those roles.
fn event() -> Event {
    let dir = tempfile::tempdir().expect("tempdir");
    let reg = dir.path().join("reg.toml");
    std::fs::write(&reg, REGULATION).expect("write");
    let db = dir.path().join("a.db");
    let out = ok(&[
        "event",
        "create",
        "--regulation",
        reg.to_str().expect("path"),
        "--db",
        db.to_str().expect("path"),
    ]);
    let id = out.lines().last().expect("id").trim().to_string();
    let e = Event { _dir: dir, db, id };
    for i in 1..=4 {
        let name = format!("棋手{i}");
        let unit = format!("单位{i}");
        ok(&[
            "player",
            "add",
            "--event",
            &e.id,
            "--section",
            "open",
            "--name",
            &name,
            "--unit",
            &unit,
            "--at",
            "2026-09-01T10:00:00+08:00",
            "--db",
            e.db(),
        ]);
    }
    for (login, role) in [
        ("chief", "chief_arbiter"),
        ("arb", "arbiter"),
        ("org", "organiser"),
        ("desk", "desk"),
    ] {
        let o = run_with_stdin(
            &[
                "user",
                "add",
                "--login",
                login,
                "--role",
                role,
                "--db",
                e.db(),
            ],
            "plum-blossom-99\n",
        );
        assert!(o.status.success(), "user add: {}", text(&o.stderr));
    }
    e
}

fn round(e: &Event, op: &str, who: &str) -> std::process::Output {
    let mut a = vec![
        "round",
        op,
        "--event",
        &e.id,
        "--section",
        "open",
        "--db",
        e.db(),
        "--as",
        who,
    ];
    if op == "undo" {
        a.extend(["--reason", "重新编排"]);
    }
    run(&a)
}

fn entries(e: &Event, kind: &str) -> usize {
    let out = ok(&["event", "export", &e.id, "--db", e.db()]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("log");
    v["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|x| x["entry"]["type"] == kind)
        .count()
}

/// The refusal the director gives `role` for `action`: the words the desk shows that
/// account (after its 「无权操作: 」) and the CLI prints for `--as`.
fn refusal(action: Action, role: Role) -> String {
    DirectorError::NotAllowed { action, role }.to_string()
}

#[test]
fn round_operations_as_an_account_are_judged_as_the_desk_judges_them() {
    let e = event();
    for (who, role) in [("desk", Role::Desk), ("org", Role::Organiser)] {
        let o = round(&e, "pair", who);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains(&refusal(Action::PairRound, role)), "{err}");
        assert!(
            err.contains(&format!(
                "编排轮次只能由裁判长或裁判进行, 当前身份是{}",
                role.zh()
            )),
            "{err}"
        );
        assert_eq!(entries(&e, "round_paired"), 0);
    }
    // The chief arbiter pairs; the desk may neither publish nor undo it; an arbiter publishes.
    let o = round(&e, "pair", "chief");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(entries(&e, "round_paired"), 1);
    for (op, action) in [
        ("publish", Action::PublishRound),
        ("undo", Action::UndoRound),
    ] {
        let o = round(&e, op, "desk");
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(&refusal(action, Role::Desk)),
            "{}",
            text(&o.stderr)
        );
    }
    assert_eq!(entries(&e, "round_published"), 0);
    assert_eq!(entries(&e, "round_undone"), 0);
    let o = round(&e, "publish", "arb");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(entries(&e, "round_published"), 1);
    let o = round(&e, "undo", "chief");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(entries(&e, "round_undone"), 1);
}

#[test]
fn a_desk_account_may_not_withdraw_a_player_nor_change_settings() {
    let e = event();
    let o = run(&[
        "player",
        "withdraw",
        "--event",
        &e.id,
        "--player",
        "P1",
        "--reason",
        "伤病",
        "--db",
        e.db(),
        "--as",
        "desk",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(&refusal(Action::Withdraw, Role::Desk)),
        "{}",
        text(&o.stderr)
    );
    let o = run(&[
        "event",
        "settings",
        "--event",
        &e.id,
        "--venue",
        "昆山",
        "--db",
        e.db(),
        "--as",
        "org",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(&refusal(Action::ChangeSettings, Role::Organiser)),
        "{}",
        text(&o.stderr)
    );
    let o = run(&[
        "player",
        "withdraw",
        "--event",
        &e.id,
        "--player",
        "P1",
        "--reason",
        "伤病",
        "--db",
        e.db(),
        "--as",
        "arb",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// Every writing command, as its words on the command line.
const WRITERS: &[&[&str]] = &[
    &["round", "pair"],
    &["round", "publish"],
    &["round", "undo"],
    &["result"],
    &["result", "import"],
    &["result", "confirm"],
    &["result", "flag"],
    &["result", "record"],
    &["result", "refuse-record"],
    &["result", "sign"],
    &["result", "protest"],
    &["result", "correct"],
    &["player", "add"],
    &["player", "import"],
    &["player", "withdraw"],
    &["player", "absent"],
    &["fee"],
    &["refund"],
    &["refund-condition"],
    &["checkin"],
    &["draw"],
    &["team", "add"],
    &["team", "roster", "add"],
    &["team", "roster", "remove"],
    &["team", "roster", "replace"],
    &["foul"],
    &["award"],
    &["event", "create"],
    &["event", "close"],
    &["event", "reopen"],
    &["event", "settings"],
];

#[test]
fn every_writing_command_takes_db_actor_at_and_as() {
    let mut missing = Vec::new();
    for cmd in WRITERS {
        let mut a = cmd.to_vec();
        a.push("--help");
        let o = run(&a);
        assert!(o.status.success(), "{cmd:?} --help: {}", text(&o.stderr));
        let help = text(&o.stdout);
        for flag in ["--db <DB>", "--actor <ACTOR>", "--at <AT>", "--as <USER>"] {
            if !help.contains(flag) {
                missing.push(format!("{} {flag}", cmd.join(" ")));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

/// `args` as account `who`; must be refused (exit 2) with the director's words for `action`
/// and `role`, and change nothing in the log.
fn refused_as(e: &Event, args: &[&str], who: &str, action: Action, role: Role) {
    let before = ok(&["event", "export", &e.id, "--db", e.db()]);
    let mut a = args.to_vec();
    a.extend(["--db", e.db(), "--as", who]);
    let o = run(&a);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?} as {who}: {}",
        text(&o.stderr)
    );
    assert!(
        text(&o.stderr).contains(&refusal(action, role)),
        "{args:?} as {who}: {}",
        text(&o.stderr)
    );
    assert_eq!(ok(&["event", "export", &e.id, "--db", e.db()]), before);
}

#[test]
fn registration_money_and_game_commands_are_judged_by_the_same_table() {
    let e = event();
    let add = [
        "player",
        "add",
        "--event",
        &e.id,
        "--section",
        "open",
        "--name",
        "棋手5",
        "--unit",
        "单位5",
        "--at",
        "2026-09-01T11:00:00+08:00",
    ];
    // The registration desk registers; an arbiter does not (the desk's page answers 403).
    refused_as(&e, &add, "arb", Action::Register, Role::Arbiter);
    let mut a = add.to_vec();
    a.extend(["--db", e.db(), "--as", "desk"]);
    let o = run(&a);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Money: the desk takes a fee; an arbiter may not, nor mark a refund condition.
    refused_as(
        &e,
        &["fee", "--event", &e.id, "--player", "P1", "--amount", "50"],
        "arb",
        Action::TakePayment,
        Role::Arbiter,
    );
    refused_as(
        &e,
        &["checkin", "--event", &e.id, "--player", "P1"],
        "arb",
        Action::CheckIn,
        Role::Arbiter,
    );
    // The games: the desk draws no numbers, decides no protest, records no team foul.
    refused_as(
        &e,
        &["draw", "--event", &e.id, "--section", "open"],
        "desk",
        Action::DrawNumbers,
        Role::Desk,
    );
    refused_as(
        &e,
        &[
            "result",
            "protest",
            "--event",
            &e.id,
            "--section",
            "open",
            "--round",
            "1",
            "--board",
            "1",
            "--by",
            "领队",
            "--rejected",
            "--reason",
            "无理",
        ],
        "desk",
        Action::DecideProtest,
        Role::Desk,
    );
    refused_as(
        &e,
        &["event", "close", "--event", &e.id],
        "arb",
        Action::CloseEvent,
        Role::Arbiter,
    );
}

#[test]
fn an_event_is_created_as_an_account_that_may_create_one() {
    let e = event();
    let dir = tempfile::tempdir().expect("tempdir");
    let reg = dir.path().join("reg.toml");
    std::fs::write(&reg, REGULATION).expect("write");
    let create = |who: &str| {
        run(&[
            "event",
            "create",
            "--regulation",
            reg.to_str().expect("path"),
            "--db",
            e.db(),
            "--as",
            who,
        ])
    };
    let o = create("desk");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(&refusal(Action::CreateEvent, Role::Desk)),
        "{}",
        text(&o.stderr)
    );
    let listed = ok(&["event", "list", "--db", e.db()]);
    assert_eq!(listed.lines().count(), 1, "{listed}");
    let o = create("org");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listed = ok(&["event", "list", "--db", e.db()]);
    assert_eq!(listed.lines().count(), 2, "{listed}");
    // The organiser's login is who created it.
    let id = text(&o.stdout).trim().to_string();
    let log = ok(&["event", "export", &id, "--db", e.db()]);
    let v: serde_json::Value = serde_json::from_str(&log).expect("log");
    assert_eq!(v["entries"][0]["actor"], "org");
}
