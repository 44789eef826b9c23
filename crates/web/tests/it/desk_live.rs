//! The result grid of two arbiters keeps up with each other: the grid's script hears of every
//! change of the event's log on the public live stream (only the log's last entry number, as
//! any phone does) and asks the desk for the round's results now,
//! `GET /desk/e/{ev}/s/{sec}/results.json` — a desk login, no personal data.

use crate::common::TestServer;
use crate::desk::{create_kunshan, login, pair_and_publish, register_men, with_accounts};
use std::time::Duration;

fn last_seq(data: &str) -> u64 {
    let v: serde_json::Value = serde_json::from_str(data).expect("change message");
    v["last_seq"].as_u64().expect("last_seq")
}

#[test]
fn the_grid_hears_of_another_arbiters_result_and_reads_the_rounds_results_now() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let a = login(&s, "arb");
    let b = login(&s, "arb2");
    pair_and_publish(&s, &a, &ev);
    let now_path = format!("/desk/e/{ev}/s/men/results.json");

    // B's grid page names the state it shows and where to ask for what is newer.
    let page = b.get(&s, &format!("/desk/e/{ev}/s/men/results")).text();
    let before = b.get(&s, &now_path);
    assert_eq!(before.status, 200, "{}", before.text());
    assert_eq!(before.header("cache-control"), Some("no-store"));
    let j = before.json();
    let seq0 = j["last_seq"].as_u64().expect("last_seq");
    assert!(
        page.contains(&format!(r#"data-seq="{seq0}""#))
            && page.contains(&format!(r#"data-now="{now_path}""#)),
        "{page}"
    );
    assert_eq!(j["round"], 1);
    assert_eq!(
        (j["entered"].as_u64(), j["total"].as_u64()),
        (Some(0), Some(6))
    );
    assert_eq!(j["confirmed"], false);
    assert!(j.get("matches").is_none(), "not a team match: {j}");
    let boards = j["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), 6);
    assert!(boards.iter().all(|x| x["result"].is_null()), "{j}");
    // Boards and results only: no name, unit or number of a player.
    assert!(
        !before.text().contains("棋手") && !before.text().contains("单位"),
        "{}",
        before.text()
    );

    // The public stream B's page listens to: first the log's end as the page knows it.
    let mut live = s.sse(&ev);
    let first = live.next(Duration::from_secs(5)).expect("first message");
    assert_eq!(last_seq(&first.data), seq0);

    // A enters board 2: the stream announces a newer entry, and B reads the board's result.
    let r = a.post_json(
        &s,
        &format!("/desk/e/{ev}/s/men/results"),
        &[("board", "2"), ("result", "0")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let change = live
        .next(Duration::from_secs(10))
        .expect("a change message");
    let seq1 = last_seq(&change.data);
    assert!(seq1 > seq0, "{seq1} > {seq0}");
    let j = b.get(&s, &now_path).json();
    assert_eq!(j["last_seq"].as_u64(), Some(seq1));
    assert_eq!(j["entered"].as_u64(), Some(1));
    let results: Vec<(u64, Option<&str>)> = j["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|x| (x["board"].as_u64().unwrap_or(0), x["result"].as_str()))
        .collect();
    assert_eq!(
        results,
        vec![
            (1, None),
            (2, Some("0-1")),
            (3, None),
            (4, None),
            (5, None),
            (6, None)
        ]
    );

    // A re-entry (the result replaced) reaches B the same way.
    let r = a.post_json(
        &s,
        &format!("/desk/e/{ev}/s/men/results"),
        &[("board", "2"), ("result", "5"), ("replaces", "0-1")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let seq2 = last_seq(&live.next(Duration::from_secs(10)).expect("a change").data);
    assert!(seq2 > seq1);
    let j = b.get(&s, &now_path).json();
    assert_eq!(j["boards"][1]["result"], "=");
    assert_eq!(j["entered"].as_u64(), Some(1));

    // Every desk account may read it (the registration desk too, as it may see the grid);
    // without a login it is the login page.
    let desk = login(&s, "desk");
    assert_eq!(desk.get(&s, &now_path).status, 200);
    let anon = s.get(&now_path);
    assert_eq!(anon.status, 303);
    assert!(anon.header("location").unwrap_or("").starts_with("/login"));
    // A section that does not exist is not found.
    assert_eq!(
        b.get(&s, &format!("/desk/e/{ev}/s/nosuch/results.json"))
            .status,
        404
    );
}
