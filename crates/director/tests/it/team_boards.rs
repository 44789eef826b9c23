//! A board of a team round typed as 「场次.台次」 (match 3, board 2 → the round's board 10 when
//! a match has four boards), and every wrong text refused in words.

use arbiter_director::team_match::board_from_text;
use arbiter_simulate::{Simulator, Sizes};

#[test]
fn a_match_board_is_the_rounds_board_and_a_wrong_one_is_refused_in_words() {
    let path = "crates/simulate/tests/fixtures/team-swiss.toml";
    let src = include_str!("../../../simulate/tests/fixtures/team-swiss.toml");
    let reg = arbiter_regulation::parse(src, path).expect("regulation");
    let sec = reg
        .sections
        .iter()
        .find(|s| s.team_match.is_some())
        .expect("a team section");
    let n = sec.team_match.as_ref().expect("team match").boards;
    let mut sim = Simulator::new(reg.clone(), src, path, 3, &Sizes::default());
    let (_, state) = sim.run_in_memory().expect("simulated");
    let rec = state.section(&sec.id).expect("section");
    let (&last, tr) = rec.matches.iter().next_back().expect("a paired round");
    let matches = tr.matches.len() as u32;
    let at = |t: &str| board_from_text(&reg, &state, &sec.id, None, t);

    assert_eq!(at("7"), Ok(7), "a plain board number is the round's");
    for t in ["3.2", "3-2", " 3．2 ", "3 . 2"] {
        assert_eq!(at(t), Ok(2 * n + 2), "{t}");
    }
    assert_eq!(at(&format!("{matches}.{n}")), Ok(matches * n));
    assert_eq!(
        board_from_text(&reg, &state, &sec.id, Some(last), "1.1"),
        Ok(1)
    );

    let err = at(&format!("{}.1", matches + 1)).expect_err("no such match");
    assert!(err.contains(&format!("没有第{}场", matches + 1)), "{err}");
    let err = at(&format!("1.{}", n + 1)).expect_err("no such board");
    assert!(err.contains(&format!("每场只有 {n} 台")), "{err}");
    for t in ["0", "x", "1.", ".2", "1.2.3", ""] {
        assert!(at(t).is_err(), "{t}");
    }

    // An individual section takes board numbers only.
    let kunshan = arbiter_regulation::parse(
        include_str!("../../../../regulations/kunshan-2026.toml"),
        "kunshan-2026.toml",
    )
    .expect("Kunshan");
    let ind = &kunshan.sections[0].id;
    let err = board_from_text(&kunshan, &state, ind, None, "1.2").expect_err("not a team match");
    assert!(err.contains("不是团体赛"), "{err}");
    assert_eq!(board_from_text(&kunshan, &state, ind, None, "12"), Ok(12));
}
