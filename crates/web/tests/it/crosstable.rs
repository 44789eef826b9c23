//! The crosstable, on the public page and printed: the regulation's points in every cell
//! (Kunshan scores 2-1-0), totals that count the rounds the standings count (a round still
//! being played is shown in brackets, not yet counted), the note 「第N轮后」 of the standings,
//! and no row for a player never paired.

use crate::common::{reference_event, TestServer};
use arbiter_core::EventState;
use arbiter_director::api::entries::register;
use arbiter_director::api::Ctx;
use arbiter_director::registration::EntryForm;
use arbiter_store::{EventId, EventStore};
use arbiter_types::Score;

/// The Kunshan event after 2 rounds, round 3 paired with one result missing, and a late
/// entry admitted now: registered, never paired.
fn mid_round() -> (TestServer, EventId) {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        let ev = reference_event(st, "kunshan-2026.toml", 2, Some(16));
        let state = st.state(&ev).expect("state");
        let at = chrono::NaiveDate::from_ymd_opt(2026, 10, 1)
            .and_then(|d| d.and_hms_opt(9, 0, 0))
            .expect("time");
        let form = EntryForm {
            section: "men".into(),
            name: "迟到的人".into(),
            sex: Some(arbiter_types::Sex::Male),
            birth: None,
            // K5: the ID number, phone and 社保号 Kunshan requires.
            id_number: Some(crate::desk::id_number("19800101", 901)),
            phone: Some("13912349901".into()),
            unit: Some("补报单位".into()),
            association: None,
            team: None,
            evidence: vec!["social_security".into()],
            flags: Vec::new(),
            rating: None,
            grade: None,
            late_reason: Some("组委会同意补报".into()),
            social_security: Some(crate::desk::id_number("19800101", 901)),
        };
        let entries = register(
            &state,
            &Ctx::new("chief", arbiter_director::api::Role::ChiefArbiter, at),
            &form,
        )
        .expect("late entry");
        st.append(
            &ev,
            state.last_seq,
            &entries,
            "chief",
            "2026-10-01T09:00:00+08:00",
        )
        .expect("appended");
        id = Some(ev);
    });
    (srv, id.expect("event"))
}

/// Each player's points in the standings, by pairing number.
fn standings_points(state: &EventState) -> Vec<(u32, Score)> {
    let reg = arbiter_director::regulation_of(state).expect("regulation");
    let view =
        arbiter_director::standings_view::standings_view(&reg, state, "men").expect("standings");
    assert_eq!(view.after_round, 2);
    let mut v: Vec<(u32, Score)> = view.lines.iter().map(|l| (l.no.get(), l.points)).collect();
    v.sort();
    v
}

/// The text of the cells of a table row: `<td …>text</td>`, tags inside removed.
fn cells(row: &str) -> Vec<String> {
    row.split("<td")
        .skip(1)
        .map(|c| {
            let c = &c[c.find('>').map_or(0, |i| i + 1)..];
            let c = c.split("</td>").next().unwrap_or("");
            let mut out = String::new();
            let mut tag = false;
            for ch in c.chars() {
                match ch {
                    '<' => tag = true,
                    '>' => tag = false,
                    _ if !tag => out.push(ch),
                    _ => {}
                }
            }
            out
        })
        .collect()
}

#[test]
fn the_crosstable_shows_the_regulations_points_and_counts_like_the_standings() {
    let (srv, id) = mid_round();
    let state = srv.store().state(&id).expect("state");
    let rec = state.section("men").expect("men");
    assert_eq!(rec.completed_rounds(), 2);
    let r3 = rec.round(3).expect("round 3 paired");
    assert!(r3.boards.iter().any(|b| b.result.is_none()), "mid-round");
    assert!(r3.boards.iter().any(|b| b.result.is_some()), "mid-round");
    let late = state
        .players("men")
        .into_iter()
        .find(|p| p.person.name == "迟到的人")
        .expect("the late entry");
    assert!(rec
        .round(3)
        .expect("r3")
        .boards
        .iter()
        .all(|b| b.red != late.id && b.black != late.id));
    let want = standings_points(&state);

    let html = srv.get(&format!("/e/{}/s/men/crosstable", id.0)).text();
    // The standings' note and the legend in the regulation's points.
    assert!(html.contains("第2轮后 · 暂定"), "{html}");
    assert!(html.contains("胜 2 分, 和 1 分, 负 0 分"), "{html}");
    assert!(
        html.contains("括号内为本轮尚未结束、未计入积分的成绩"),
        "{html}"
    );
    // Never paired: no row.
    assert!(!html.contains("迟到的人"), "{html}");
    let body = html
        .split("<tbody>")
        .nth(1)
        .and_then(|b| b.split("</tbody>").next())
        .expect("table body");
    let rows: Vec<Vec<String>> = body.split("<tr>").skip(1).map(cells).collect();
    let paired: std::collections::BTreeSet<u32> = rec
        .rounds
        .values()
        .flat_map(|r| {
            r.boards
                .iter()
                .flat_map(|b| [b.red, b.black])
                .chain(r.byes.iter().copied())
                .collect::<Vec<_>>()
        })
        .filter_map(|p| rec.pairing_no(p))
        .map(|n| n.get())
        .collect();
    assert_eq!(
        rows.len(),
        paired.len(),
        "every paired player, one row each"
    );
    let mut got: Vec<(u32, Score)> = Vec::new();
    let (mut wins, mut uncounted, mut pending) = (0, 0, 0);
    for r in &rows {
        // No, name, rounds 1–3, total.
        assert_eq!(r.len(), 6, "{r:?}");
        let no: u32 = r[0].parse().expect("number");
        let total: Score = r[5].parse().expect("total");
        got.push((no, total));
        for c in &r[2..4] {
            assert!(!c.starts_with('('), "rounds 1–2 are counted: {c}");
            assert!(!c.contains('½'), "no half points in a 2-1-0 table: {c}");
            if c.ends_with("红2") || c.ends_with("黑2") {
                wins += 1;
            }
        }
        let c3 = &r[4];
        if c3.starts_with('(') {
            uncounted += 1;
            assert!(c3.ends_with(')'), "{c3}");
        } else if c3.ends_with('…') {
            pending += 1;
        }
    }
    assert!(wins > 0, "a win scores 2: {rows:?}");
    assert!(
        uncounted > 0 && pending == 2,
        "round 3: {uncounted} entered, {pending} in play"
    );
    // The totals are the standings' points (round 3 not counted yet).
    got.sort();
    let want_paired: Vec<(u32, Score)> = want
        .iter()
        .copied()
        .filter(|(no, _)| paired.contains(no))
        .collect();
    assert_eq!(got, want_paired);

    // Printed: the same points, the same totals, the same rows.
    let doc = arbiter_report::build(
        &state,
        arbiter_report::DocKind::Crosstable,
        &arbiter_report::Options {
            section: Some("men".into()),
            round: None,
            privacy: Default::default(),
            lang: arbiter_report::Lang::Zh,
            ..Default::default()
        },
    )
    .expect("printed crosstable");
    let mut paragraphs = String::new();
    let mut printed: Vec<(u32, Score)> = Vec::new();
    let mut printed_cells: Vec<String> = Vec::new();
    for b in &doc.blocks {
        match b {
            arbiter_report::Block::Paragraph(p) => paragraphs.push_str(p),
            arbiter_report::Block::Table(t) => {
                assert!(
                    t.caption
                        .as_deref()
                        .is_some_and(|c| c.contains("第2轮后 · 暂定")),
                    "{:?}",
                    t.caption
                );
                for row in &t.rows {
                    let no = match row[1] {
                        arbiter_report::Cell::Int(n) => n as u32,
                        ref c => panic!("number: {c:?}"),
                    };
                    let pts = match row.last() {
                        Some(arbiter_report::Cell::Score(s)) => *s,
                        c => panic!("points: {c:?}"),
                    };
                    printed.push((no, pts));
                    for c in &row[4..row.len() - 1] {
                        if let arbiter_report::Cell::Text(t) = c {
                            printed_cells.push(t.clone());
                        }
                    }
                    if let arbiter_report::Cell::Text(n) = &row[2] {
                        assert_ne!(n, "迟到的人", "never paired, not printed");
                    }
                }
            }
            _ => {}
        }
    }
    printed.sort();
    assert_eq!(printed, got, "printed totals = page totals = standings");
    assert!(
        paragraphs.contains("胜 2 分, 和 1 分, 负 0 分"),
        "{paragraphs}"
    );
    assert!(printed_cells
        .iter()
        .any(|c| c.ends_with("红2") || c.ends_with("黑2")));
    assert!(printed_cells
        .iter()
        .any(|c| c.starts_with('(') && c.ends_with(')')));
    assert!(printed_cells
        .iter()
        .all(|c| !c.contains('½') && !c.contains("胜")));
}
