//! The `arbiter` binary killed with SIGKILL while importing rosters: the database stays
//! sound, every import that printed its summary is present, and work continues.

use crate::common;

use common::*;
use std::process::{Command, Stdio};
use std::time::Duration;

const REGULATION: &str = r#"
[event]
name = "崩溃测试"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"
"#;

#[test]
fn killed_cli_leaves_a_sound_database() {
    let env = EventDir::new(REGULATION);
    let db = env.db();
    let id = env.create();
    let mut csv = String::from("姓名\n");
    for i in 0..300 {
        csv.push_str(&format!("棋手{i}\n"));
    }
    let roster = env.path("p.csv");
    std::fs::write(&roster, csv).unwrap();
    // Seeded kill times (a small LCG: this crate has no rand dependency).
    let mut lcg = Lcg(20261001);
    let mut next_delay = move || 5 + lcg.next() % 145;
    let mut acknowledged = 0;
    for _ in 0..5 {
        let mut child = Command::new(BIN)
            .args(["player", "import", "--event", &id])
            .arg(&roster)
            .arg("--db")
            .arg(&db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(next_delay()));
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        if String::from_utf8_lossy(&out.stdout).contains("已报名 300 人") {
            acknowledged += 1;
        }
        let (count, text) = count_players(&db, &id);
        // Imports are atomic: a whole roster or nothing, and none that was acknowledged is lost.
        assert_eq!(count % 300, 0, "{text}");
        assert!(count >= acknowledged * 300, "{text}");
    }
    // Work continues after the kills (new players: the same names without ID numbers again
    // would be refused as duplicates).
    let (before, _) = count_players(&db, &id);
    let mut csv = String::from("姓名\n");
    for i in 0..300 {
        csv.push_str(&format!("新棋手{i}\n"));
    }
    let roster = env.path("q.csv");
    std::fs::write(&roster, csv).unwrap();
    let out = Command::new(BIN)
        .args(["player", "import", "--event", &id])
        .arg(&roster)
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(count_players(&db, &id).0, before + 300);
}

/// Players in the `open` section according to `event show`, and the text shown.
fn count_players(db: &std::path::Path, id: &str) -> (usize, String) {
    let show = Command::new(BIN)
        .args(["event", "show", id])
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    assert!(
        show.status.success(),
        "{}",
        String::from_utf8_lossy(&show.stderr)
    );
    let text = String::from_utf8_lossy(&show.stdout).into_owned();
    let count: usize = text
        .split("公开组 [open]: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    (count, text)
}
