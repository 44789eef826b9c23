//! One numbering for players at the desk (issue 27: 「the pairing number (序号) wherever a
//! person reads a number after the draw … the desk list, the event log」): before the draw the
//! registration list numbers its rows by registration id (报名号 P12); from the draw on by the
//! pairing number, and the player's page, the messages of his forms and the event log name
//! him by it, his registration id labelled where it finds his entry.

use crate::common::TestServer;
use crate::desk::{
    create_kunshan, entries_of, flash, login, pair_and_publish, register_men, with_accounts,
};
use arbiter_core::{LogEntry, PlayerId};

#[test]
fn after_the_draw_the_desk_reads_a_player_by_his_pairing_number() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let list = format!("/desk/e/{ev}/s/men/entries");
    let before = chief.get(&s, &list).text();
    assert!(before.contains("<th>报名号</th>"), "{before}");
    assert!(before.contains("<td>P5</td>"), "{before}");

    let arb = login(&s, "arb");
    pair_and_publish(&s, &arb, &ev);
    let drawn = entries_of(&s, &ev, "pairing_numbers_drawn");
    let Some((_, LogEntry::PairingNumbersDrawn { order, .. })) = drawn.first() else {
        panic!("no draw: {drawn:?}");
    };
    // A player whose pairing number is not his registration id.
    let (no, pid) = order
        .iter()
        .enumerate()
        .map(|(i, p)| (i as u32 + 1, *p))
        .find(|(n, p)| *p != PlayerId(*n))
        .expect("the lot moves someone");
    let name = format!("棋手{:02}", pid.0 - 1);

    // The list: the column is 序号 and his row reads his pairing number.
    let after = chief.get(&s, &list).text();
    assert!(after.contains("<th>序号</th>"), "{after}");
    assert!(
        after.contains(&format!(
            "<td>{no}</td><td><a href=\"/desk/e/{ev}/p/{}\">{name}</a>",
            pid.0
        )),
        "{after}"
    );
    // 查找 by the pairing number finds him, his registration id labelled beside it.
    let found = chief.get(&s, &format!("{list}?q={no}")).text();
    assert!(
        found.contains(&format!("序号 {no} · 报名号 {pid}")),
        "{found}"
    );
    // His page: titled by the pairing number, the registration id a labelled row.
    let page = chief.get(&s, &format!("/desk/e/{ev}/p/{}", pid.0)).text();
    assert!(
        page.contains(&format!("<h1>序号 {no} {name}</h1>")),
        "{page}"
    );
    assert!(
        page.contains(&format!("<th>报名号</th><td>{pid}</td>")),
        "{page}"
    );
    // An absence recorded from his page says who by the pairing number.
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/{}/absent", pid.0),
        &[("round", "2"), ("reason", "请假")],
    ));
    assert!(ok, "{msg}");
    assert!(
        msg.starts_with(&format!("序号 {no} {name} 第2轮请假已登记")),
        "{msg}"
    );
    // The event log's sentence likewise.
    let log = chief.get(&s, &format!("/desk/e/{ev}/log")).text();
    assert!(
        log.contains(&format!("准许 序号 {no} {name} 第2轮请假")),
        "{log}"
    );
}
