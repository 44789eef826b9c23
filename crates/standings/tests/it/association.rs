//! Association standings across sections (A10, S9).

use arbiter_standings::association::{
    association_standings, AssociationEntry, AssociationError, AssociationInput,
    AssociationSeparation,
};
use arbiter_types::PlayerNo;

const SECTIONS: [&str; 4] = ["老年组", "公开男子", "公开女子", "少年男子"];

/// (association, [(section index, rank)]); player numbers are made unique per entry.
fn input(data: &[(&str, &[(usize, u32)])], listed: &[&str]) -> AssociationInput {
    let mut entries = Vec::new();
    for (a, ranks) in data {
        for &(s, rank) in *ranks {
            entries.push(AssociationEntry {
                association: a.to_string(),
                section: SECTIONS[s].to_string(),
                no: PlayerNo::new(100 + entries.len() as u32).unwrap(),
                rank,
            });
        }
    }
    AssociationInput {
        sections: SECTIONS.iter().map(|s| s.to_string()).collect(),
        associations: listed.iter().map(|s| s.to_string()).collect(),
        entries,
    }
}

#[test]
fn suzhou_like_association_table() {
    let data: &[(&str, &[(usize, u32)])] = &[
        ("姑苏", &[(0, 5), (0, 1), (1, 3), (2, 2), (3, 4)]),
        ("吴中", &[(0, 2), (1, 2), (2, 3), (3, 3)]),
        ("相城", &[(0, 3), (1, 1), (2, 1), (3, 1)]),
        ("吴江", &[(0, 4), (1, 4), (1, 6), (2, 4), (3, 2)]),
        ("昆山", &[(0, 6), (1, 5), (2, 5)]),
    ];
    let mut inp = input(data, &["常熟"]);
    // A player entered individually (no association) is not listed as an association.
    inp.entries.push(AssociationEntry {
        association: " ".into(),
        section: "老年组".into(),
        no: PlayerNo::new(999).unwrap(),
        rank: 7,
    });
    let rows = association_standings(&inp).unwrap();
    let got: Vec<_> = rows
        .iter()
        .map(|r| (r.rank, r.association.as_str(), r.total))
        .collect();
    assert_eq!(
        got,
        [
            (Some(1), "相城", 6),
            (Some(2), "姑苏", 10),
            (Some(3), "吴中", 10),
            (Some(4), "吴江", 14),
            (None, "常熟", 0),
            (None, "昆山", 16),
        ]
    );
    // 10 = 10: the better best rank wins (姑苏 has a 1st place, 吴中's best is 2nd).
    assert_eq!(
        rows[2].separated_by,
        Some(AssociationSeparation::NthBest { nth: 1 })
    );
    // Only the best player of each section counts: 姑苏's 5th in 老年组 is ignored.
    let gusu: Vec<_> = rows[1]
        .best_ranks
        .iter()
        .map(|b| (b.section.as_str(), b.rank))
        .collect();
    assert_eq!(
        gusu,
        [
            ("老年组", Some(1)),
            ("公开男子", Some(3)),
            ("公开女子", Some(2)),
            ("少年男子", Some(4))
        ]
    );
    assert_eq!(rows[1].best_ranks[0].no, PlayerNo::new(101));
    assert_eq!(rows[5].missing_sections, ["少年男子"]);
    assert_eq!(rows[4].missing_sections.len(), 4);
    assert_eq!(rows[5].separated_by, None);
}

#[test]
fn equal_bests_share_the_place() {
    let data: &[(&str, &[(usize, u32)])] = &[
        ("甲", &[(0, 1), (1, 2), (2, 3), (3, 4)]),
        ("乙", &[(0, 2), (1, 1), (2, 4), (3, 3)]),
        ("丙", &[(0, 3), (1, 3), (2, 1), (3, 5)]),
    ];
    let rows = association_standings(&input(data, &[])).unwrap();
    let got: Vec<_> = rows
        .iter()
        .map(|r| (r.rank, r.association.as_str(), r.separated_by))
        .collect();
    assert_eq!(
        got,
        [
            (Some(1), "甲", Some(AssociationSeparation::First)),
            (Some(1), "乙", Some(AssociationSeparation::Shared)),
            (Some(3), "丙", Some(AssociationSeparation::Total)),
        ]
    );
}

#[test]
fn unknown_section_is_named_with_a_suggestion() {
    let mut inp = input(&[("甲", &[(0, 1)])], &[]);
    inp.entries[0].section = "公开男".into();
    let e = association_standings(&inp).unwrap_err();
    assert!(
        matches!(e, AssociationError::UnknownSection { index: 1, .. }),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("第1条成绩: 组别 `公开男` 不在计分组别中, 是否为 `公开男子`?"),
        "{e}"
    );

    let mut inp = input(&[("甲", &[(0, 1)])], &[]);
    inp.entries[0].rank = 0;
    assert_eq!(
        association_standings(&inp),
        Err(AssociationError::ZeroRank { index: 1 })
    );
    inp.sections.clear();
    assert_eq!(
        association_standings(&inp),
        Err(AssociationError::NoSections)
    );
}

#[test]
fn suzhou_association_prizes_top_three() {
    use arbiter_standings::prize::{
        allocate_prizes, PrizeEntry, PrizeRules, TeamPrizeTable, TeamRanking,
    };
    let data: &[(&str, &[(usize, u32)])] = &[
        ("姑苏", &[(0, 1), (1, 3), (2, 2), (3, 4)]),
        ("吴中", &[(0, 2), (1, 2), (2, 3), (3, 3)]),
        ("相城", &[(0, 3), (1, 1), (2, 1), (3, 1)]),
        ("吴江", &[(0, 4), (1, 4), (2, 4), (3, 2)]),
        ("昆山", &[(0, 5), (1, 5), (2, 5)]),
    ];
    let rows = association_standings(&input(data, &[])).unwrap();
    let ranking = TeamRanking::from_associations("团体", &rows);
    assert_eq!(ranking.rows.len(), 4);
    let rules = PrizeRules {
        teams: vec![TeamPrizeTable {
            section: "团体".into(),
            entries: vec![
                PrizeEntry::place(1, 5000),
                PrizeEntry::place(2, 3000),
                PrizeEntry::place(3, 2000),
            ],
        }],
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[], &[ranking]).unwrap();
    let got: Vec<_> = list
        .awards
        .iter()
        .map(|a| (a.team.clone().unwrap_or_default(), a.amount.unwrap_or(0)))
        .collect();
    assert_eq!(
        got,
        [
            ("相城".to_string(), 5000),
            ("姑苏".to_string(), 3000),
            ("吴中".to_string(), 2000)
        ]
    );
    assert_eq!(list.total_amount, 10000);
}
