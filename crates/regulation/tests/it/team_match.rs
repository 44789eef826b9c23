//! A15: a team-match section (团体赛) in a regulation file — boards, reserves, match points
//! (with home and away draws), the line-up rule and the ranking list — and `regulation check`
//! refusing what cannot be run, naming the key.

use arbiter_regulation::summary::Lang;
use arbiter_regulation::*;
use arbiter_types::{Score, TeamTiebreak};

fn src(format: &str, team_match: &str) -> String {
    format!(
        "[event]\nname = \"市职工象棋团体赛\"\nstart = 2026-05-01\nend = 2026-05-02\n\
         [[sections]]\nid = \"teams\"\nname = \"团体赛\"\nformat = {format}\n\
         [sections.team_match]\n{team_match}\n"
    )
}

fn section(format: &str, team_match: &str) -> Section {
    let r = parse(&src(format, team_match), "team.toml").unwrap_or_else(|e| panic!("{e}"));
    r.sections[0].clone()
}

fn refused(format: &str, team_match: &str) -> String {
    match parse(&src(format, team_match), "team.toml") {
        Ok(_) => panic!("accepted: {team_match}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_team_swiss_with_the_defaults_of_a15() {
    let s = section(
        "{ kind = \"swiss\", rounds = 7 }",
        "boards = 4\nreserves = 2",
    );
    let tm = s.team_match.expect("team match");
    assert_eq!((tm.boards, tm.reserves, tm.max_players()), (4, 2, 6));
    assert_eq!(tm.lineup, LineupRule::Registered);
    assert_eq!(tm.tiebreaks, TeamTiebreak::DEFAULT.to_vec());
    let t = tm.match_points.table();
    assert_eq!(
        (
            t.win,
            t.draw_red,
            t.draw_black,
            t.loss,
            t.bye,
            t.forfeit_loss
        ),
        (
            Score::points(2),
            Score::points(1),
            Score::points(1),
            Score::ZERO,
            Score::points(2),
            Score::ZERO
        )
    );
}

#[test]
fn a_league_with_home_and_away_draws_and_its_own_ranking_in_chinese() {
    let s = section(
        "{ kind = \"double_round_robin\" }",
        "boards = 6\nlineup = \"free\"\n\
         match_points = { win = 3, draw = 1, draw_home = 1, draw_away = 2, loss = 0 }\n\
         tiebreaks = [\"场分\", \"局分\", \"direct\", \"台次\"]",
    );
    let tm = s.team_match.expect("team match");
    let t = tm.match_points.table();
    assert_eq!(
        (t.draw_red, t.draw_black),
        (Score::points(1), Score::points(2))
    );
    assert_eq!(tm.lineup, LineupRule::Free);
    assert_eq!(
        tm.tiebreaks,
        vec![
            TeamTiebreak::MatchPoints,
            TeamTiebreak::GamePoints,
            TeamTiebreak::Direct,
            TeamTiebreak::Boards
        ]
    );
}

#[test]
fn impossible_team_sections_are_refused_naming_the_key() {
    let e = refused("{ kind = \"swiss\", rounds = 7 }", "boards = 0");
    assert!(e.starts_with("team.toml:10:") && e.contains("台数"), "{e}");
    let e = refused("{ kind = \"swiss\", rounds = 7 }", "boards = 21");
    assert!(
        e.starts_with("team.toml:10:") && e.contains("1 至 20"),
        "{e}"
    );
    let e = refused("{ kind = \"knockout\" }", "boards = 4");
    assert!(
        e.starts_with("team.toml:8:") && e.contains("团体赛只能"),
        "{e}"
    );
    let e = refused("{ kind = \"auto\", rounds = 5 }", "boards = 4");
    assert!(e.contains("团体赛只能"), "{e}");
    let e = refused(
        "{ kind = \"swiss\", rounds = 7 }",
        "boards = 4\nmatch_points = { win = 1, draw = 1 }",
    );
    assert!(
        e.starts_with("team.toml:11:") && e.contains("胜 > 和"),
        "{e}"
    );
    let e = refused(
        "{ kind = \"swiss\", rounds = 7 }",
        "boards = 4\ntiebreaks = [\"match_points\", \"game_point\"]",
    );
    assert!(
        e.contains("game_points") && e.contains("未知的团体名次区分方法"),
        "{e}"
    );
    let e = refused(
        "{ kind = \"swiss\", rounds = 7 }",
        "boards = 4\ntiebreaks = [\"场分\", \"match_points\"]",
    );
    assert!(e.contains("重复"), "{e}");
    let e = refused("{ kind = \"swiss\", rounds = 7 }", "boards = 4\nbord = 3");
    assert!(e.contains("bord"), "{e}");
    let e = refused("{ kind = \"swiss\" }", "boards = 4");
    assert!(e.contains("rounds"), "{e}");
}

#[test]
fn a_team_section_cannot_also_rank_teams_by_individual_results() {
    let text = src("{ kind = \"swiss\", rounds = 7 }", "boards = 4")
        + "[sections.teams]\nmin_players = 4\ncounted = 4\n";
    let e = parse(&text, "team.toml").map(|_| ()).expect_err("refused");
    assert!(e.to_string().contains("teams"), "{e}");
}

#[test]
fn the_summary_says_how_the_teams_play_and_rank() {
    let text = src(
        "{ kind = \"swiss\", rounds = 7 }",
        "boards = 4\nreserves = 1\nmatch_points = { win = 3, draw_home = 1, draw_away = 2 }",
    );
    let r = parse(&text, "team.toml").unwrap_or_else(|e| panic!("{e}"));
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("每场4台，替补至多1人; 场分 胜3 和主1/客2 负0; 按报名台次顺序出场; 名次: 场分 → 局分 → 直胜 → 胜局 → 犯规 → 台次"),
        "{zh}"
    );
    // The section's own tie-break list ranks its players, not its teams.
    assert!(zh.contains("个人名次区分:"), "{zh}");
}

#[test]
fn a_board_rule_names_who_may_sit_there_and_an_impossible_one_is_refused() {
    let rules = "boards = 4\n\
                 [[sections.team_match.board_rules]]\nboard = 4\nsex = \"F\"\n\
                 [[sections.team_match.board_rules]]\nboard = 3\nborn_from = 2010-01-01\n";
    let text = src("{ kind = \"swiss\", rounds = 7 }", rules);
    let r = parse(&text, "team.toml").unwrap_or_else(|e| panic!("{e}"));
    let tm = r.sections[0].team_match.clone().expect("team match");
    assert_eq!(tm.board_rules.len(), 2);
    let four = &tm.board_rules[0];
    assert_eq!(four.words(), "第4台须为女棋手");
    assert!(four.admits(Some(arbiter_types::Sex::Female), None));
    assert!(!four.admits(Some(arbiter_types::Sex::Male), None));
    assert!(
        !four.admits(None, None),
        "an entry without its sex does not meet the rule"
    );
    let three = &tm.board_rules[1];
    assert_eq!(three.words(), "第3台须为2010-01-01及以后出生");
    let born = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
    assert!(three.admits(None, born("2010-01-01")));
    assert!(!three.admits(None, born("2009-12-31")));
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("台次条件: 第4台须为女棋手")
            && zh.contains("台次条件: 第3台须为2010-01-01及以后出生"),
        "{zh}"
    );

    for (rule, words) in [
        ("board = 5\nsex = \"F\"", "1 至 4"),
        ("board = 0\nsex = \"F\"", "1 至 4"),
        ("board = 2", "条件为空"),
        (
            "board = 2\nborn_from = 2012-01-01\nborn_to = 2010-01-01",
            "出生日期范围为空",
        ),
        ("board = 2\nsex = \"X\"", "未知的取值 `X`"),
        ("board = 2\nage = 12", "age"),
    ] {
        let e = refused(
            "{ kind = \"swiss\", rounds = 7 }",
            &format!("boards = 4\n[[sections.team_match.board_rules]]\n{rule}"),
        );
        assert!(
            e.starts_with("team.toml:") && e.contains(words),
            "{rule}: {e}"
        );
    }
    let twice = refused(
        "{ kind = \"swiss\", rounds = 7 }",
        "boards = 4\n[[sections.team_match.board_rules]]\nboard = 4\nsex = \"F\"\n\
         [[sections.team_match.board_rules]]\nboard = 4\nborn_to = 2000-01-01",
    );
    assert!(twice.contains("第4台的条件重复"), "{twice}");
}
