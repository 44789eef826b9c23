//! A `groups` section's public standings (上海杯 男子组: two groups of twelve, a Swiss in each):
//! each group's own table — its players only, ranked within the group — above the section's
//! places, as a player looks up where he stands in his group.

use crate::common::*;
use arbiter_store::{EventId, EventStore};

const MEN: &str = include_str!("../../../../regulations/shanghai-cup-men.toml");

fn boot(rounds: u32) -> (TestServer, EventId) {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        let how = arbiter_web::demo::PartWay {
            rounds: Some(rounds),
            seed: 1,
            sizes: arbiter_simulate::Sizes::default(),
            results_left: 1,
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, MEN, "shanghai-cup-men.toml", &how)
                .expect("simulated"),
        );
    });
    (srv, id.expect("event"))
}

/// The pairing numbers in the rows of the table that follows heading `h2` in `html`.
fn table_numbers(html: &str, h2: &str) -> Vec<u32> {
    let table = html
        .split(h2)
        .nth(1)
        .unwrap_or_else(|| panic!("no {h2} in {html}"))
        .split("</table>")
        .next()
        .unwrap_or_default();
    table
        .split("<tr><td class=\"n\">")
        .skip(1)
        .filter_map(|row| {
            row.split("<td class=\"n\">")
                .nth(1)?
                .split('<')
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

#[test]
fn each_group_has_its_own_table_on_the_public_standings() {
    let (srv, id) = boot(3);
    let state = srv.store().state(&id).expect("state");
    let rec = state.section("men").expect("men");
    assert_eq!(rec.groups.len(), 2, "split into A and B");
    let page = srv.get(&format!("/e/{id}/s/men/standings"));
    assert_eq!(page.status, 200);
    let html = page.text();
    let mut seen = Vec::new();
    for (i, letter) in ["A", "B"].iter().enumerate() {
        let nos = table_numbers(&html, &format!("\">{letter}组</h2>"));
        // The group's players, and only them.
        let mut want: Vec<u32> = rec.groups[i]
            .iter()
            .filter_map(|p| rec.pairing_no(*p).map(|n| n.get()))
            .collect();
        let mut got = nos.clone();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "group {letter}");
        seen.extend(nos);
    }
    assert_eq!(seen.len(), 24, "every player in one group table");
    // Every column of a group's table has its cell: no empty column for a tie-break the
    // group tables do not carry.
    let a = html
        .split("\">A组</h2>")
        .nth(1)
        .unwrap_or_default()
        .split("</table>")
        .next()
        .unwrap_or_default();
    let heads = a.matches("<th ").count() + a.matches("<th>").count();
    let first_row = a.split("<tbody>").nth(1).unwrap_or_default();
    let first_row = first_row.split("</tr>").next().unwrap_or_default();
    assert_eq!(first_row.matches("<td").count(), heads, "{a}");
    for row in a.split("<tbody>").nth(1).unwrap_or_default().split("</tr>") {
        let cells: Vec<&str> = row.split("<td class=\"n\">").skip(4).collect();
        for c in cells {
            assert!(!c.starts_with("</td>"), "an empty tie-break cell: {row}");
        }
    }
    // Ranks within a group start at 1 in each table.
    let b = html.split("\">B组</h2>").nth(1).unwrap_or_default();
    assert!(b.contains("<tbody>\n<tr><td class=\"n\">1</td>"), "{b}");
    // The section's places follow the group tables.
    let places = html.find("总名次").expect("the places heading");
    assert!(places > html.find("\">B组</h2>").unwrap_or(usize::MAX));
    // In English.
    let en = srv.get(&format!("/e/{id}/s/men/standings?lang=en")).text();
    assert!(en.contains("\">Group A</h2>"), "{en}");
}
