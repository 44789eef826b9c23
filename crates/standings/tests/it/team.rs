//! Team standings from individual ranks (A10, K3, K11, T5).

use arbiter_standings::team::{
    team_standings, PlayerRank, Separation, ShortTeams, Team, TeamError, TeamRule, TeamStatus,
};
use arbiter_types::{PlayerNo, Score};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

/// Individual standings where the player ranked r has number `r + 30` and score `40 - 2r`
/// half-points (so a better rank always has a higher score).
fn ranks(n: u32) -> Vec<PlayerRank> {
    (1..=n)
        .map(|r| PlayerRank {
            no: p(r + 30),
            rank: r,
            score: Score::from_halves(40 - 2 * r as i64),
        })
        .collect()
}

/// A team whose members are the players with these final ranks (0 = a registered member
/// without a rank, numbered 90+).
fn team(name: &str, unit: &str, division: Option<&str>, member_ranks: &[u32]) -> Team {
    let members = member_ranks
        .iter()
        .enumerate()
        .map(|(i, &r)| if r == 0 { p(90 + i as u32) } else { p(r + 30) })
        .collect();
    Team {
        name: name.into(),
        unit: unit.into(),
        division: division.map(Into::into),
        members,
    }
}

#[test]
fn kunshan_like_two_divisions_best_three() {
    let teams = vec![
        team("甲乙丙一队", "甲乙丙公司", Some("乙组"), &[7, 13, 12, 20]),
        team("农商行", "农商行", Some("甲组"), &[3, 8, 6]),
        team("供电公司", "供电公司", Some("甲组"), &[10, 2, 5]),
        team("甲乙丙二队", "甲乙丙公司", Some("甲组"), &[1, 4, 11, 14]),
        team("电信", "电信", Some("乙组"), &[9, 15, 19]),
        team("邮政", "邮政", Some("乙组"), &[16, 17]),
        team("港务", "港务", Some("乙组"), &[18, 0, 0]),
    ];
    let tables = team_standings(&teams, &ranks(20), &TeamRule::rank_sum(3)).unwrap();
    // Divisions in order of first appearance.
    let divs: Vec<_> = tables
        .iter()
        .map(|t| t.division.as_deref().unwrap())
        .collect();
    assert_eq!(divs, ["乙组", "甲组"]);

    let jia = &tables[1];
    let order: Vec<_> = jia
        .rows
        .iter()
        .map(|r| (r.rank, r.team.as_str(), r.total_ranks))
        .collect();
    assert_eq!(
        order,
        [
            (Some(1), "甲乙丙二队", 16),
            (Some(2), "供电公司", 17),
            (Some(3), "农商行", 17)
        ]
    );
    // 17 = 17: the best individual rank decides (2 beats 3).
    assert_eq!(
        jia.rows[2].separated_by,
        Some(Separation::NthBest { nth: 1 })
    );
    assert_eq!(jia.rows[1].separated_by, Some(Separation::Total));
    assert_eq!(jia.rows[1].counted_ranks, [2, 5, 10]);
    // The 4th member (rank 14) does not count.
    let first = &jia.rows[0];
    assert_eq!(first.counted_ranks, [1, 4, 11]);
    assert_eq!(first.members.iter().filter(|m| m.counted).count(), 3);
    assert_eq!(first.members[3].rank, Some(14));
    assert!(!first.members[3].counted);

    let yi = &tables[0];
    let order: Vec<_> = yi
        .rows
        .iter()
        .map(|r| (r.rank, r.team.as_str(), r.total_ranks))
        .collect();
    assert_eq!(
        order,
        [
            (Some(1), "甲乙丙一队", 32),
            (Some(2), "电信", 43),
            (None, "邮政", 33),
            (None, "港务", 18),
        ]
    );
    assert_eq!(
        yi.rows[2].status,
        TeamStatus::Short {
            ranked_members: 2,
            required: 3
        }
    );
    // A member without a final rank does not make up the numbers.
    assert_eq!(
        yi.rows[3].status,
        TeamStatus::Short {
            ranked_members: 1,
            required: 3
        }
    );
    assert_eq!(yi.rows[3].separated_by, None);
}

#[test]
fn tianshui_like_best_four_short_team_unranked() {
    let teams = vec![
        team("兰州", "兰州", None, &[3, 10, 12, 20, 25]),
        team("天水", "天水", None, &[1, 15, 14, 16]),
        team("西安", "西安", None, &[2, 5, 30]),
        team("宝鸡", "宝鸡", None, &[4, 6, 8, 40]),
    ];
    let tables = team_standings(&teams, &ranks(40), &TeamRule::rank_sum(4)).unwrap();
    assert_eq!(tables.len(), 1);
    let rows: Vec<_> = tables[0]
        .rows
        .iter()
        .map(|r| (r.rank, r.team.as_str(), r.total_ranks))
        .collect();
    assert_eq!(
        rows,
        [
            (Some(1), "兰州", 45),
            (Some(2), "天水", 46),
            (Some(3), "宝鸡", 58),
            (None, "西安", 37)
        ]
    );
}

#[test]
fn padded_short_team_counts_missing_members_last() {
    let teams = vec![
        team("A", "A", None, &[1, 2]),
        team("B", "B", None, &[3, 4, 5]),
    ];
    let rule = TeamRule {
        short_teams: ShortTeams::Padded,
        ..TeamRule::rank_sum(3)
    };
    let t = &team_standings(&teams, &ranks(10), &rule).unwrap()[0];
    // A: 1 + 2 + 10 (ten ranked players) = 13 > B: 12.
    assert_eq!(t.rows[0].team, "B");
    assert_eq!(t.rows[1].counted_ranks, [1, 2, 10]);
    assert_eq!(t.rows[1].status, TeamStatus::Ranked);
}

#[test]
fn points_mode_sums_scores_and_breaks_ties_on_the_best_score() {
    let r = |no, rank, halves| PlayerRank {
        no: p(no),
        rank,
        score: Score::from_halves(halves),
    };
    let ranks = vec![
        r(1, 1, 14),
        r(2, 2, 12),
        r(3, 3, 12),
        r(4, 4, 10),
        r(5, 5, 8),
        r(6, 6, 6),
    ];
    let t = |name: &str, m: &[u32]| Team {
        name: name.into(),
        unit: name.into(),
        division: None,
        members: m.iter().map(|&n| p(n)).collect(),
    };
    // X: 14 + 6 = 20; Y: 12 + 8 = 20 → X has the higher best score. Z: 12 + 10 = 22.
    let teams = vec![t("Y", &[2, 5]), t("X", &[6, 1]), t("Z", &[4, 3])];
    let table = &team_standings(&teams, &ranks, &TeamRule::points_sum(2)).unwrap()[0];
    let rows: Vec<_> = table
        .rows
        .iter()
        .map(|r| (r.rank, r.team.as_str(), r.total_score))
        .collect();
    assert_eq!(
        rows,
        [
            (Some(1), "Z", Score::points(11)),
            (Some(2), "X", Score::points(10)),
            (Some(3), "Y", Score::points(10)),
        ]
    );
    assert_eq!(
        table.rows[2].separated_by,
        Some(Separation::NthBest { nth: 1 })
    );
}

#[test]
fn equal_teams_share_the_place() {
    // Shared individual places (setting `shared`) can make two teams identical.
    let r = |no, rank| PlayerRank {
        no: p(no),
        rank,
        score: Score::ZERO,
    };
    let ranks = vec![r(1, 1), r(2, 1), r(3, 3), r(4, 3), r(5, 5)];
    let t = |name: &str, m: [u32; 2]| Team {
        name: name.into(),
        unit: name.into(),
        division: None,
        members: m.iter().map(|&n| p(n)).collect(),
    };
    // P: 1 + 5 = 6; Q: 1 + 3 = 4; R has member 6, who has no rank: short.
    let teams = vec![t("P", [5, 1]), t("Q", [2, 3]), t("R", [4, 6])];
    let table = &team_standings(&teams, &ranks, &TeamRule::rank_sum(2)).unwrap()[0];
    let rows: Vec<_> = table
        .rows
        .iter()
        .map(|r| (r.rank, r.team.as_str()))
        .collect();
    assert_eq!(rows, [(Some(1), "Q"), (Some(2), "P"), (None, "R")]);

    // P and Q: 1 + 3 each, best ranks 1 and 1: shared first place, input order kept.
    let teams = vec![t("P", [1, 3]), t("Q", [2, 4])];
    let table = &team_standings(&teams, &ranks, &TeamRule::rank_sum(2)).unwrap()[0];
    let rows: Vec<_> = table
        .rows
        .iter()
        .map(|r| (r.rank, r.team.as_str(), r.separated_by))
        .collect();
    assert_eq!(
        rows,
        [
            (Some(1), "P", Some(Separation::First)),
            (Some(1), "Q", Some(Separation::Shared))
        ]
    );
}

#[test]
fn bad_input_is_reported_with_names() {
    let teams = vec![team("A", "A", None, &[1, 2]), team("B", "B", None, &[2, 3])];
    let e = team_standings(&teams, &ranks(5), &TeamRule::rank_sum(2)).unwrap_err();
    assert_eq!(
        e,
        TeamError::PlayerInTwoTeams {
            no: p(32),
            first: "A".into(),
            second: "B".into()
        }
    );
    assert!(
        e.to_string()
            .starts_with("队员 32 同时在队伍 `A` 和 `B` 中"),
        "{e}"
    );

    let teams = vec![team("A", "A", None, &[1, 1])];
    let e = team_standings(&teams, &ranks(5), &TeamRule::rank_sum(2)).unwrap_err();
    assert_eq!(
        e,
        TeamError::DuplicateMember {
            team: "A".into(),
            no: p(31)
        }
    );

    let mut bad = ranks(3);
    bad[1].rank = 0;
    let e = team_standings(&[], &bad, &TeamRule::rank_sum(2)).unwrap_err();
    assert_eq!(e, TeamError::ZeroRank { no: p(32) });
}
