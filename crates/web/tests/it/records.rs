//! Game records (记谱, issue 28) on the web: typed or pasted at the desk's results page through
//! the director's operation (a refused move named by its move number), and the public replay
//! page of a recorded board — the board as inline SVG, the moves in Chinese notation, the
//! step script served by the binary — linked from the public round page.

use crate::common::TestServer;
use crate::desk::{create_kunshan, flash, login, pair_and_publish, register_men, with_accounts};

const MOVES_18: &str = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３\n\
    4. 兵七进一 卒７进１ 5. 马八进七 象３进５ 6. 炮八平九 车１平２ 7. 车九平八 士４进５\n\
    8. 仕四进五 炮８平９ 9. 相三进一 炮２进２ 10. 车二进四 车８进４ 11. 兵三进一 卒３进１\n\
    12. 车八进四 卒７进１ 13. 车二平三 车８平７ 14. 车三进一 象５进７ 15. 车八进一 象７退５\n\
    16. 帅五平四 将５平４ 17. 帅四平五 将４平５ 18. 车八退一 炮９平８";

#[test]
fn a_record_typed_at_the_desk_is_refused_by_move_number_then_replayed_on_the_public_page() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let arb = login(&s, "arb");
    pair_and_publish(&s, &arb, &ev);

    let grid = arb.get(&s, &format!("/desk/e/{ev}/s/men/results")).text();
    assert!(
        grid.contains(&format!("action=\"/desk/e/{ev}/s/men/record\"")),
        "the results page has the record form: {grid}"
    );
    let path = format!("/desk/e/{ev}/s/men/record");
    // An illegal move: refused, naming its move number and side; nothing kept.
    let (ok, msg) = flash(&arb.post(
        &s,
        &path,
        &[
            ("round", "1"),
            ("board", "1"),
            ("moves", "1. 炮二平五 马８进７ 2. 炮五进七"),
        ],
    ));
    assert!(!ok && msg.contains("第2回合红方「炮五进七」"), "{msg}");
    let round = s.get(&format!("/e/{ev}/s/men/r/1")).text();
    assert!(
        !round.contains(&format!("/e/{ev}/s/men/r/1/b/1\"")),
        "{round}"
    );

    // WXF is read too; then the full record (pasted with its move numbers) replaces it.
    let (ok, msg) = flash(&arb.post(
        &s,
        &path,
        &[("round", "1"), ("board", "1"), ("moves", "C2=5 H8+7")],
    ));
    assert!(ok && msg.contains("1回合"), "{msg}");
    let (ok, msg) = flash(&arb.post(
        &s,
        &path,
        &[
            ("round", "1"),
            ("board", "1"),
            ("moves", MOVES_18),
            ("recorded_by", "记录员"),
        ],
    ));
    assert!(ok && msg.contains("18回合"), "{msg}");

    // The public round page links the recorded board.
    let round = s.get(&format!("/e/{ev}/s/men/r/1")).text();
    let link = format!("href=\"/e/{ev}/s/men/r/1/b/1\"");
    assert!(round.contains(&link) && round.contains("棋谱"), "{round}");
    assert!(!round.contains(&format!("/e/{ev}/s/men/r/1/b/2\"")));

    // The replay page: the board as SVG, the moves in Chinese, every position for the script.
    let r = s.get(&format!("/e/{ev}/s/men/r/1/b/1"));
    assert_eq!(r.status, 200, "{}", r.text());
    let page = r.text();
    for want in [
        "<svg class=\"xq\"",
        "楚 河",
        "汉 界",
        "炮二平五",
        "马８进７",
        "炮９平８",
        "data-fens=",
        "/assets/replay.js",
        "|&lt;",
        "18回合",
        "棋手",
    ] {
        assert!(page.contains(want), "{want} missing: {page}");
    }
    // The final position is drawn without the script: both kings, red's 帥 and black's 将.
    assert!(
        page.contains(">帥</text>") && page.contains(">将</text>"),
        "{page}"
    );
    // 37 positions (start + 36 half-moves).
    let fens = page
        .split("data-fens=\"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .unwrap();
    assert_eq!(fens.split('|').count(), 37, "{fens}");
    // No personal data: no unit, no recorder.
    assert!(!page.contains("单位") && !page.contains("记录员"), "{page}");
    // A board without a record has no page.
    assert_eq!(s.get(&format!("/e/{ev}/s/men/r/1/b/2")).status, 404);
    // The script is served by the binary, same origin (the CSP allows only 'self').
    let js = s.get("/assets/replay.js");
    assert_eq!(js.status, 200);
    assert!(js.text().contains("ArrowLeft"));
}
