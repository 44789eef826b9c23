//! What a team-match section publishes (A15): team and board prizes — 「团体前N名」 by the
//! team standings, 台次奖 on every board by the board standings — allocated, exported and
//! worded; and the TRF-16 file's team record.

use arbiter_director::export::PrizeKind;
use arbiter_director::publish::{build, compute};
use arbiter_director::team_match::{board_prizes, standings};
use arbiter_simulate::{Simulator, Sizes};

const PATH: &str = "crates/simulate/tests/fixtures/team-swiss.toml";
const SRC: &str = include_str!("../../../simulate/tests/fixtures/team-swiss.toml");

/// The test regulation with team places 1–3 (amounts, a title) and a board table.
fn with_prizes() -> String {
    SRC.replace(
        "[sections.team_match]\n",
        "[sections.team_match]\n\
         prizes = [{ rank = 1, amount_yuan = 6000, title = \"冠军\", trophy = true }, \
                   { from = 2, to = 3, amount_yuan = 3000 }]\n\
         board_prizes = [{ rank = 1, amount_yuan = 500 }, { rank = 2, item = \"象棋一副\" }]\n",
    )
}

#[test]
fn team_places_and_each_boards_places_go_by_the_team_and_board_standings() {
    let src = with_prizes();
    let reg = arbiter_regulation::parse(&src, PATH).expect("regulation");
    let summary = reg.summary(arbiter_regulation::summary::Lang::Zh);
    assert!(
        summary.contains("团体奖励: 第1名 6000元 “冠军” 奖杯；第2–3名 各3000元"),
        "{summary}"
    );
    assert!(
        summary.contains("台次奖 (每台): 第1名 500元；第2名 象棋一副"),
        "{summary}"
    );
    let sec = reg.sections[0].id.clone();
    let mut sim = Simulator::new(reg.clone(), &src, PATH, 5, &Sizes::default());
    let (_, state) = sim.run_in_memory().expect("simulated");

    let c = compute(&reg, &state).expect("computed");
    let teams = standings(&reg, &state, &sec).expect("team standings");
    let team_awards: Vec<(u32, String, Option<u64>)> = c
        .prizes
        .awards
        .iter()
        .filter(|a| a.kind == arbiter_standings::prize::AwardKind::Team)
        .map(|a| (a.place, a.team.clone().unwrap_or_default(), a.amount))
        .collect();
    let expected: Vec<(u32, String, Option<u64>)> = teams.rows[..3]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let amount = if i == 0 { 6000 } else { 3000 };
            (i as u32 + 1, r.name.clone(), Some(amount))
        })
        .collect();
    assert_eq!(team_awards, expected);

    let boards = board_prizes(&reg, &state, &sec).expect("board standings");
    assert_eq!(boards.boards.len(), 4);
    let mut expected = Vec::new();
    for t in &boards.boards {
        let ranked: Vec<_> = t.rows.iter().filter(|r| r.rank.is_some()).collect();
        for (place, r) in ranked.iter().take(2).enumerate() {
            expected.push((Some(t.board), place as u32 + 1, r.no, r.team.clone()));
        }
    }
    let board_awards: Vec<(Option<u32>, u32, u32, String)> = c
        .prizes
        .awards
        .iter()
        .filter(|a| a.kind == arbiter_standings::prize::AwardKind::Board)
        .map(|a| {
            (
                a.board,
                a.place,
                a.no.map_or(0, |n| n.get()),
                a.team.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(board_awards, expected);
    assert_eq!(expected.len(), 8, "two places on each of four boards");
    // 6000 + 2 × 3000 + 4 boards × 500 (the second places are items).
    assert_eq!(c.prizes.total_amount, 6000 + 6000 + 4 * 500);

    // The export names the board of a board prize and the kind.
    let ex = build(&reg, &state, &c);
    let rows: Vec<_> = ex
        .prizes
        .iter()
        .filter(|p| p.kind == PrizeKind::Board)
        .collect();
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0].board, Some(1));
    assert_eq!(rows[0].section, sec);
    let json = ex.to_json();
    assert!(
        json.contains("\"kind\": \"board\""),
        "board prizes in the JSON"
    );
    let team_rows: Vec<_> = ex
        .prizes
        .iter()
        .filter(|p| p.kind == PrizeKind::Team)
        .collect();
    assert_eq!(team_rows.len(), 3);
    assert_eq!(team_rows[0].section, sec, "the section, not `section/`");
    assert_eq!(team_rows[0].title.as_deref(), Some("冠军"));
    assert!(team_rows[0].trophy);
}

#[test]
fn a_team_prize_naming_a_division_or_category_is_refused_with_its_place() {
    let src = SRC.replace(
        "[sections.team_match]\n",
        "[sections.team_match]\nboard_prizes = [{ rank = 1, amount_yuan = 100, category = \"u12\" }]\n",
    );
    let err = arbiter_regulation::parse(&src, PATH).expect_err("a category in a board table");
    let text = err.to_string();
    assert!(text.contains("不分类别或分组"), "{text}");
    assert!(text.contains("category"), "{text}");
    let src = SRC.replace(
        "[sections.team_match]\n",
        "[sections.team_match]\nprizes = [{ rank = 1, amount_yuan = 100 }, { from = 1, to = 2, amount_yuan = 50 }]\n",
    );
    let err = arbiter_regulation::parse(&src, PATH).expect_err("overlapping places");
    let text = err.to_string();
    assert!(
        text.contains("team-swiss.toml:17:"),
        "the line of the table: {text}"
    );
    assert!(text.contains("重叠"), "{text}");
}

/// The TRF-16 file of a team Swiss carries FIDE's team record: one `013` line per team in
/// team-number order with its players' pairing numbers in board order, read back as the
/// players' teams.
#[test]
fn a_team_swiss_trf_carries_one_013_line_per_team() {
    let reg = arbiter_regulation::parse(SRC, PATH).expect("regulation");
    let mut sim = Simulator::new(reg.clone(), SRC, PATH, 2, &Sizes::default());
    let (_, state) = sim.run_in_memory().expect("simulated");
    let c = compute(&reg, &state).expect("computed");
    let t = arbiter_director::trf_export::section_trf(&reg, &state, &c, "teams")
        .expect("trf")
        .expect("a Swiss section");
    let text = arbiter_trf::write(&t);
    let rec = state.section("teams").expect("section");
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("013 ")).collect();
    assert_eq!(lines.len(), rec.team_order.len());
    let back = arbiter_trf::parse(&text, "teams.trf").expect("reads back");
    for (k, name) in rec.team_order.iter().enumerate() {
        assert!(lines[k].starts_with(&format!("013 {name}")), "{}", lines[k]);
        let team = state.teams.get(name).expect("team");
        let mut seen = 0;
        for p in &team.members {
            let Some(i) = rec.order.iter().position(|x| x == p) else {
                continue;
            };
            seen += 1;
            assert_eq!(back.players[i].team, Some(k as u32 + 1), "{name}");
        }
        assert!(seen >= 4, "{name}: its boards");
    }
}
