//! Prize lists: place prizes, titles, team prizes, lucky prizes, qualification (K13, S8, J7,
//! T9).

use arbiter_regulation::{parse, Prize, Regulation, Section};
use arbiter_standings::prize::{
    allocate_prizes, AwardKind, LuckyEntry, LuckyOnAwarded, LuckyTable, PrizeEntry, PrizeError,
    PrizeList, PrizeRules, PrizeTable, Qualification, RankedPlayer, RankedTeam, Ranking,
    Reservation, TeamPrizeTable, TeamRanking,
};
use arbiter_standings::team::{team_standings, PlayerRank, Team, TeamRule};
use arbiter_types::{PlayerNo, Score};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

fn row(rank: u32, no: u32) -> RankedPlayer {
    RankedPlayer {
        rank,
        no: p(no),
        name: format!("选手{no}"),
        team: Some(format!("单位{}", no % 7)),
    }
}

/// A section ranking where player `i` finished `i`-th.
fn ranking(section: &str, n: u32) -> Ranking {
    Ranking {
        section: section.into(),
        category: None,
        rows: (1..=n).map(|i| row(i, i)).collect(),
    }
}

/// A category ranking of the given players of a section, in that order.
fn category(section: &str, cat: &str, players: &[u32]) -> Ranking {
    Ranking {
        section: section.into(),
        category: Some(cat.into()),
        rows: players
            .iter()
            .enumerate()
            .map(|(i, &no)| row(i as u32 + 1, no))
            .collect(),
    }
}

fn table(section: &str, entries: Vec<PrizeEntry>) -> PrizeTable {
    PrizeTable {
        section: section.into(),
        category: None,
        entries,
        ..Default::default()
    }
}

fn amounts(list: &[(u32, u32, u64)]) -> Vec<PrizeEntry> {
    list.iter()
        .map(|&(a, b, x)| PrizeEntry::range(a, b, x))
        .collect()
}

const MEN: &str = "男子个人赛";

/// The shipped Kunshan regulation (K13 prize tables, lucky ranks, team prizes).
const KUNSHAN: &str = include_str!("../../../../regulations/kunshan-2026.toml");
/// Kunshan section ids (`[[sections]] id`), used as the prize list's section names.
const K_MEN: &str = "men";
const K_WOMEN: &str = "women";
const VETERANS: &str = "50岁以上";

fn kunshan() -> Regulation {
    parse(KUNSHAN, "kunshan-2026.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn kunshan_section(id: &str) -> Section {
    kunshan()
        .section(id)
        .cloned()
        .unwrap_or_else(|| panic!("kunshan-2026.toml has no section `{id}`"))
}

/// A regulation prize line as a prize-table entry.
fn prize_entry(p: &Prize) -> PrizeEntry {
    let (first, last) = p.ranks();
    PrizeEntry {
        first,
        last: (last != first).then_some(last),
        amount: p.amount_yuan.map(u64::from),
        title: p.title.clone(),
        item: p.item.clone(),
        trophy: p.trophy,
        medal: p.medal,
        certificate: p.certificate,
    }
}

/// The section's own place prizes (no category), in rank order.
fn kunshan_places(id: &str) -> PrizeTable {
    let sec = kunshan_section(id);
    let mut entries: Vec<PrizeEntry> = sec
        .prizes
        .iter()
        .filter(|p| p.category.is_none())
        .map(prize_entry)
        .collect();
    entries.sort_by_key(|e| e.first);
    assert!(
        !entries.is_empty(),
        "kunshan-2026.toml: `{id}` has no prizes"
    );
    table(id, entries)
}

fn kunshan_men() -> PrizeTable {
    kunshan_places(K_MEN)
}

fn kunshan_women() -> PrizeTable {
    kunshan_places(K_WOMEN)
}

/// One lucky table per `[[sections.lucky]]` group of the men's section (one per item).
fn kunshan_lucky() -> Vec<LuckyTable> {
    let sec = kunshan_section(K_MEN);
    assert!(!sec.lucky.is_empty(), "kunshan-2026.toml: no lucky ranks");
    sec.lucky
        .iter()
        .map(|l| {
            let mut ranks = l.ranks.clone();
            ranks.sort_unstable();
            LuckyTable {
                section: K_MEN.into(),
                category: l.category.clone(),
                entries: ranks
                    .into_iter()
                    .map(|rank| LuckyEntry {
                        rank,
                        amount: None,
                        item: Some(l.item.clone()),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// `one_award_per_person` and `lucky_on_awarded` of the men's section.
fn kunshan_award_rules() -> (bool, LuckyOnAwarded) {
    let a = kunshan_section(K_MEN).awards;
    let on_awarded = match a.lucky_on_awarded {
        arbiter_regulation::LuckyOnAwarded::NextRank => LuckyOnAwarded::NextRank,
        arbiter_regulation::LuckyOnAwarded::Unawarded => LuckyOnAwarded::Unawarded,
    };
    (a.one_award_per_person, on_awarded)
}

/// Team prize tables of the men's section, one per division, named by the division.
fn kunshan_team_prizes() -> Vec<TeamPrizeTable> {
    let sec = kunshan_section(K_MEN);
    let teams = sec.teams.unwrap_or_else(|| panic!("kunshan: no teams"));
    teams
        .divisions
        .iter()
        .map(|d| {
            let mut entries: Vec<PrizeEntry> = teams
                .prizes
                .iter()
                .filter(|p| p.division.as_deref() == Some(d.id.as_str()))
                .map(prize_entry)
                .collect();
            entries.sort_by_key(|e| e.first);
            TeamPrizeTable {
                section: d.name.clone(),
                entries,
            }
        })
        .collect()
}

/// An INVENTED veterans' category inside the men's section, with an invented prize table.
/// The Kunshan regulation has no category; this one exists only so that lucky ranks 55 and
/// 66 fall on players who already hold a (category) place prize, which the real tables
/// alone cannot produce (men's place prizes stop at 8th, lucky ranks start at 55, and team
/// prizes are not personal awards). Player 8 (8th overall) is its best, then every
/// eleventh player.
fn veterans() -> (Ranking, PrizeTable) {
    let players = [8, 11, 22, 33, 44, 55, 66, 77, 88, 99, 110, 121];
    let t = PrizeTable {
        section: K_MEN.into(),
        category: Some(VETERANS.into()),
        entries: amounts(&[
            (1, 1, 500),
            (2, 2, 400),
            (3, 3, 300),
            (4, 4, 200),
            (5, 6, 100),
        ]),
        ..Default::default()
    };
    (category(K_MEN, VETERANS, &players), t)
}

/// (lucky rank, winner) pairs, by lucky rank.
fn lucky_winners(list: &arbiter_standings::prize::PrizeList) -> Vec<(u32, u32)> {
    let mut v: Vec<_> = list
        .awards
        .iter()
        .filter(|a| a.kind == AwardKind::Lucky)
        .map(|a| (a.place, a.no.map(|n| n.get()).unwrap_or(0)))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn kunshan_individual_prizes_and_lucky_ranks_simple_path() {
    let (one_award, on_awarded) = kunshan_award_rules();
    assert!(one_award, "K13: 不可重复领奖");
    let rules = PrizeRules {
        places: vec![kunshan_men(), kunshan_women()],
        lucky: kunshan_lucky(),
        one_award_per_person: one_award,
        lucky_on_awarded: on_awarded,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[ranking(K_MEN, 140), ranking(K_WOMEN, 30)], &[]).unwrap();
    // K13: men 3000+1500+1000+600+500+400+300+200, women 2000+1200+800+600+500+400+300+200.
    assert_eq!(list.total_amount, 7500 + 6000);
    let king = &list.awards[0];
    assert_eq!(
        (king.kind, king.no, king.amount),
        (AwardKind::Place, Some(p(1)), Some(3000))
    );
    assert_eq!(king.title.as_deref(), Some("昆山市职工象棋棋王"));
    assert!(king.medal && king.certificate && !king.trophy);
    assert_eq!(list.awards[8].title.as_deref(), Some("昆山市职工象棋棋后"));
    assert_eq!(list.awards[8].section, K_WOMEN);
    assert!(list
        .awards
        .iter()
        .all(|a| !a.title.as_deref().unwrap_or("").contains("第二届")));
    assert_eq!(
        lucky_winners(&list),
        [
            (55, 55),
            (66, 66),
            (77, 77),
            (88, 88),
            (99, 99),
            (111, 111),
            (118, 118),
            (128, 128)
        ]
    );
    let night = &list
        .awards
        .iter()
        .find(|a| a.place == 66 && a.kind == AwardKind::Lucky);
    assert_eq!(
        night.and_then(|a| a.item.as_deref()),
        Some("裕元花园酒店景观房1晚")
    );
    assert!(list.vacant.is_empty());
}

#[test]
fn kunshan_lucky_rank_on_a_category_prize_winner_moves_down() {
    let (vet_ranking, vet_table) = veterans();
    let (one_award, on_awarded) = kunshan_award_rules();
    assert_eq!(
        (one_award, on_awarded),
        (true, LuckyOnAwarded::NextRank),
        "kunshan-2026.toml [sections.awards]"
    );
    let rules = PrizeRules {
        places: vec![kunshan_men(), vet_table],
        lucky: kunshan_lucky(),
        one_award_per_person: one_award,
        lucky_on_awarded: on_awarded,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[ranking(K_MEN, 130), vet_ranking], &[]).unwrap();
    // A14: player 8 (8th overall, 200 yuan) is the veterans' best (500 yuan): he takes the
    // larger and the men's 8th place passes to player 9. The veterans' places stay in order.
    let vet: Vec<_> = list
        .awards
        .iter()
        .filter(|a| a.category.as_deref() == Some(VETERANS))
        .map(|a| (a.place, a.rank, a.no.map(|n| n.get()).unwrap_or(0)))
        .collect();
    assert_eq!(
        vet,
        [
            (1, 1, 8),
            (2, 2, 11),
            (3, 3, 22),
            (4, 4, 33),
            (5, 5, 44),
            (6, 6, 55)
        ]
    );
    let eighth = list
        .awards
        .iter()
        .find(|a| a.category.is_none() && a.place == 8 && a.kind != AwardKind::Lucky);
    assert_eq!(eighth.and_then(|a| a.no), Some(p(9)));
    assert!(eighth
        .and_then(|a| a.note.as_deref())
        .unwrap_or("")
        .starts_with("第8名奖项顺延至第9名"));
    // Men's rank 55 holds a category prize: his lucky prize goes one rank down; 66 holds none.
    assert_eq!(
        lucky_winners(&list),
        [
            (55, 56),
            (66, 66),
            (77, 77),
            (88, 88),
            (99, 99),
            (111, 111),
            (118, 118),
            (128, 128)
        ]
    );
    let moved = list
        .awards
        .iter()
        .find(|a| a.kind == AwardKind::Lucky && a.place == 55);
    let moved = moved.and_then(|a| a.note.clone()).unwrap_or_default();
    assert!(
        moved.starts_with("第55名选手 选手55 已获奖, 顺延至第56名"),
        "{moved}"
    );
    assert_eq!(list.total_amount, 7500 + 1600);
    // Nobody got two individual awards.
    let mut persons: Vec<_> = list.awards.iter().filter_map(|a| a.no).collect();
    persons.sort();
    let before = persons.len();
    persons.dedup();
    assert_eq!(before, persons.len());
}

#[test]
fn lucky_on_awarded_unawarded_leaves_the_prize_vacant() {
    // The other setting than the file's `next_rank`.
    let (vet_ranking, vet_table) = veterans();
    let rules = PrizeRules {
        places: vec![kunshan_men(), vet_table],
        lucky: kunshan_lucky(),
        one_award_per_person: true,
        lucky_on_awarded: LuckyOnAwarded::Unawarded,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[ranking(K_MEN, 130), vet_ranking], &[]).unwrap();
    // Only rank 55 holds a (veterans') prize (A14: player 66 is passed over by none).
    assert_eq!(lucky_winners(&list).len(), 7);
    let mut vacant: Vec<_> = list.vacant.iter().map(|v| (v.kind, v.place)).collect();
    vacant.sort_by_key(|v| v.1);
    assert_eq!(vacant, [(AwardKind::Lucky, 55)]);
}

#[test]
fn without_one_award_per_person_prizes_stack() {
    let (vet_ranking, vet_table) = veterans();
    let rules = PrizeRules {
        places: vec![kunshan_men(), vet_table],
        lucky: kunshan_lucky(),
        one_award_per_person: false,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[ranking(K_MEN, 130), vet_ranking], &[]).unwrap();
    let vet_first = list
        .awards
        .iter()
        .find(|a| a.category.is_some() && a.place == 1);
    assert_eq!(vet_first.and_then(|a| a.no), Some(p(8)));
    assert_eq!(lucky_winners(&list)[0], (55, 55));
}

#[test]
fn lucky_walk_skips_other_lucky_ranks_and_can_run_off_the_end() {
    // Ten players; places 1–3 and a category prize for player 10; lucky ranks 3, 4, 9, 10.
    let cat = category("S", "C", &[10]);
    let rules = PrizeRules {
        places: vec![
            table("S", amounts(&[(1, 3, 100)])),
            PrizeTable {
                section: "S".into(),
                category: Some("C".into()),
                entries: vec![PrizeEntry::place(1, 50)],
                ..Default::default()
            },
        ],
        lucky: vec![LuckyTable {
            section: "S".into(),
            category: None,
            entries: [3, 4, 9, 10]
                .map(|rank| LuckyEntry {
                    rank,
                    amount: Some(10),
                    item: None,
                })
                .to_vec(),
        }],
        one_award_per_person: true,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[ranking("S", 10), cat], &[]).unwrap();
    // Rank 3 holds a place prize; rank 4 is a lucky rank of its own, so lucky 3 goes to 5.
    // Lucky 9 is fine; lucky 10 falls on the category winner and nobody is below: vacant.
    assert_eq!(lucky_winners(&list), [(3, 5), (4, 4), (9, 9)]);
    assert_eq!(list.vacant.len(), 1);
    assert_eq!(list.vacant[0].place, 10);
    assert!(
        list.vacant[0].reason.contains("顺延至名单末尾"),
        "{}",
        list.vacant[0].reason
    );
    assert_eq!(list.total_amount, 300 + 50 + 30);
}

fn teams(section: &str, n: u32) -> TeamRanking {
    TeamRanking {
        section: section.into(),
        rows: (1..=n)
            .map(|r| RankedTeam {
                rank: r,
                team: format!("{section}{r}队"),
            })
            .collect(),
    }
}

#[test]
fn kunshan_team_prizes_per_division() {
    let tables = kunshan_team_prizes();
    let names: Vec<&str> = tables.iter().map(|t| t.section.as_str()).collect();
    assert_eq!(names, ["甲组", "乙组"], "kunshan-2026.toml team divisions");
    let rules = PrizeRules {
        teams: tables,
        one_award_per_person: true,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[], &[teams("甲组", 9), teams("乙组", 7)]).unwrap();
    // K13 甲组 5000+3000+2000+1500×2+1000×3; 乙组 3000+2000+1500+1000×2 and 800 for 6th
    // and 7th (only seven teams).
    assert_eq!(
        list.total_amount,
        16000 + 3000 + 2000 + 1500 + 2000 + 800 * 2
    );
    let jia: Vec<_> = list
        .awards
        .iter()
        .filter(|a| a.section == "甲组")
        .map(|a| {
            (
                a.place,
                a.team.clone().unwrap_or_default(),
                a.amount.unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(jia.len(), 8);
    assert_eq!(jia[4], (5, "甲组5队".to_string(), 1500));
    assert_eq!(jia[7], (8, "甲组8队".to_string(), 1000));
    // Trophies for places 1–3 of each division, as the file says.
    let trophies = list.awards.iter().filter(|a| a.trophy).count();
    assert_eq!(trophies, 6);
    assert!(list
        .awards
        .iter()
        .all(|a| a.kind == AwardKind::Team && a.no.is_none()));
    // Only seven teams in 乙组: the 8th prize is vacant.
    assert_eq!(list.vacant.len(), 1);
    assert_eq!(
        (list.vacant[0].section.as_str(), list.vacant[0].place),
        ("乙组", 8)
    );
}

#[test]
fn team_prizes_from_team_standings_skip_short_teams() {
    let r = |no: u32| PlayerRank {
        no: p(no),
        rank: no,
        score: Score::ZERO,
    };
    let ranks: Vec<_> = (1..=9).map(r).collect();
    let t = |name: &str, m: &[u32]| Team {
        name: name.into(),
        unit: name.into(),
        division: None,
        members: m.iter().map(|&n| p(n)).collect(),
    };
    let tt = vec![t("甲", &[1, 5, 9]), t("乙", &[2, 3]), t("丙", &[4, 6, 8])];
    let tables = team_standings(&tt, &ranks, &TeamRule::rank_sum(3)).unwrap();
    let ranking = TeamRanking::from_division("团体", &tables[0]);
    let rules = PrizeRules {
        teams: vec![TeamPrizeTable {
            section: "团体".into(),
            entries: amounts(&[(1, 3, 100)]),
        }],
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[], &[ranking]).unwrap();
    let got: Vec<_> = list
        .awards
        .iter()
        .map(|a| a.team.clone().unwrap_or_default())
        .collect();
    assert_eq!(got, ["甲", "丙"]);
    assert_eq!(list.vacant.len(), 1);
}

fn tianshui_open() -> PrizeTable {
    table(
        "公开组",
        amounts(&[
            (1, 1, 10000),
            (2, 2, 5000),
            (3, 3, 3000),
            (4, 4, 2000),
            (5, 5, 1000),
            (6, 6, 800),
            (7, 8, 600),
            (9, 10, 500),
            (11, 12, 400),
            (13, 18, 300),
            (19, 24, 200),
        ]),
    )
}

#[test]
fn tianshui_prize_totals() {
    let local = table(
        "天水本地组",
        amounts(&[
            (1, 1, 2000),
            (2, 2, 1000),
            (3, 3, 800),
            (4, 4, 500),
            (5, 8, 400),
            (9, 12, 300),
            (13, 16, 200),
        ]),
    );
    let team = TeamPrizeTable {
        section: "公开组团体".into(),
        entries: amounts(&[
            (1, 1, 1000),
            (2, 2, 500),
            (3, 3, 400),
            (4, 4, 300),
            (5, 8, 200),
        ]),
    };
    let rules = PrizeRules {
        places: vec![tianshui_open(), local],
        teams: vec![team],
        one_award_per_person: true,
        ..Default::default()
    };
    let list = allocate_prizes(
        &rules,
        &[ranking("公开组", 160), ranking("天水本地组", 40)],
        &[teams("公开组团体", 20)],
    )
    .unwrap();
    let sum = |s: &str| -> u64 {
        list.awards
            .iter()
            .filter(|a| a.section == s)
            .filter_map(|a| a.amount)
            .sum()
    };
    assert_eq!(sum("公开组"), 27800);
    assert_eq!(sum("天水本地组"), 7900);
    assert_eq!(sum("公开组团体"), 3000);
    assert_eq!(list.total_amount, 27800 + 7900 + 3000);
    assert_eq!(
        list.awards.iter().filter(|a| a.section == "公开组").count(),
        24
    );

    // Twenty players only: places 21–24 stay vacant.
    let rules = PrizeRules {
        places: vec![tianshui_open()],
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[ranking("公开组", 20)], &[]).unwrap();
    assert_eq!(list.total_amount, 27800 - 4 * 200);
    let vacant: Vec<_> = list.vacant.iter().map(|v| v.place).collect();
    assert_eq!(vacant, [21, 22, 23, 24]);
}

#[test]
fn jiujiang_both_versions_of_the_prize_table() {
    let top6 = [
        (1, 1, 1000),
        (2, 2, 800),
        (3, 3, 600),
        (4, 4, 400),
        (5, 5, 300),
        (6, 6, 200),
    ];
    let v8: Vec<_> = top6.iter().copied().chain([(7, 8, 100)]).collect();
    let v16: Vec<_> = top6
        .iter()
        .copied()
        .chain([(7, 10, 100), (11, 16, 50)])
        .collect();
    for (entries, total, count) in [(v8, 3500, 8), (v16, 4000, 16)] {
        let rules = PrizeRules {
            places: vec![table("老年组", amounts(&entries))],
            ..Default::default()
        };
        let list = allocate_prizes(&rules, &[ranking("老年组", 60)], &[]).unwrap();
        assert_eq!(list.total_amount, total);
        assert_eq!(list.awards.len(), count);
        assert_eq!(list.awards[count - 1].place as usize, count);
    }
}

#[test]
fn suzhou_title_only_and_qualification() {
    let king = PrizeEntry {
        first: 1,
        title: Some("苏州市业余棋王".into()),
        certificate: true,
        ..PrizeEntry::default()
    };
    let rules = PrizeRules {
        places: vec![
            table("公开组", vec![king]),
            PrizeTable {
                section: "公开组".into(),
                category: Some("男子".into()),
                entries: amounts(&[
                    (1, 1, 5000),
                    (2, 2, 3000),
                    (3, 3, 2000),
                    (4, 4, 1000),
                    (5, 5, 800),
                    (6, 6, 500),
                ]),
                ..Default::default()
            },
        ],
        qualification: vec![Qualification {
            section: "公开组".into(),
            category: Some("男子".into()),
            places: 3,
            label: "江苏省业余棋王赛".into(),
        }],
        one_award_per_person: false,
        ..Default::default()
    };
    let men = category("公开组", "男子", &[3, 1, 4, 5, 9, 2, 6]);
    let list = allocate_prizes(&rules, &[ranking("公开组", 9), men], &[]).unwrap();
    assert_eq!(list.awards[0].kind, AwardKind::Title);
    assert_eq!(list.awards[0].amount, None);
    assert!(list.awards[0].certificate);
    assert_eq!(list.total_amount, 12300);
    let q: Vec<_> = list
        .qualified
        .iter()
        .map(|q| (q.place, q.no.get()))
        .collect();
    assert_eq!(q, [(1, 3), (2, 1), (3, 4)]);
}

#[test]
fn bad_tables_and_rankings_are_named() {
    let rules = PrizeRules {
        places: vec![table(MEN, amounts(&[(1, 3, 100), (3, 4, 50)]))],
        ..Default::default()
    };
    let e = allocate_prizes(&rules, &[ranking(MEN, 9)], &[]).unwrap_err();
    assert!(
        matches!(
            e,
            PrizeError::Overlap {
                entry: 2,
                place: 3,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("奖项表 `男子个人赛` 第2项: 名次 3 与前面的项重复"),
        "{e}"
    );

    let rules = PrizeRules {
        places: vec![table(MEN, amounts(&[(4, 2, 100)]))],
        ..Default::default()
    };
    let e = allocate_prizes(&rules, &[ranking(MEN, 9)], &[]).unwrap_err();
    assert!(
        matches!(
            e,
            PrizeError::BadRange {
                first: 4,
                last: 2,
                ..
            }
        ),
        "{e:?}"
    );

    let rules = PrizeRules {
        places: vec![table(MEN, amounts(&[(1, 4_000_000_000, 1)]))],
        ..Default::default()
    };
    let e = allocate_prizes(&rules, &[ranking(MEN, 9)], &[]).unwrap_err();
    assert!(
        matches!(
            e,
            PrizeError::BadRange {
                last: 4_000_000_000,
                ..
            }
        ),
        "{e:?}"
    );

    let empty = PrizeEntry {
        first: 1,
        ..PrizeEntry::default()
    };
    let rules = PrizeRules {
        places: vec![table(MEN, vec![empty])],
        ..Default::default()
    };
    let e = allocate_prizes(&rules, &[ranking(MEN, 9)], &[]).unwrap_err();
    assert!(
        matches!(e, PrizeError::EmptyPrize { entry: 1, .. }),
        "{e:?}"
    );

    let rules = PrizeRules {
        places: vec![table("男子个人", amounts(&[(1, 1, 1)]))],
        ..Default::default()
    };
    let e = allocate_prizes(&rules, &[ranking(MEN, 9)], &[]).unwrap_err();
    assert!(e.to_string().contains("是否为 `男子个人赛`?"), "{e}");

    let mut bad = ranking(MEN, 5);
    bad.rows[3].rank = 2;
    let e = allocate_prizes(&PrizeRules::default(), &[bad], &[]).unwrap_err();
    assert!(
        matches!(
            e,
            PrizeError::RankOrder {
                row: 4,
                rank: 2,
                ..
            }
        ),
        "{e:?}"
    );
    let mut bad = ranking(MEN, 5);
    bad.rows[4].no = p(1);
    let e = allocate_prizes(&PrizeRules::default(), &[bad], &[]).unwrap_err();
    assert!(
        matches!(e, PrizeError::DuplicatePlayer { row: 5, .. }),
        "{e:?}"
    );
}

// ---------------------------------------------------------------- A14 awards

/// Ten players ranked 1..10 (player k at rank k); locals are players 3, 7, 9 and 10.
fn county() -> (Ranking, Ranking) {
    (ranking("S", 10), category("S", "local", &[3, 7, 9, 10]))
}

/// Six place prizes: 1000, 600, 400, 300, 200, 100.
fn six_places() -> Vec<PrizeEntry> {
    amounts(&[
        (1, 1, 1000),
        (2, 2, 600),
        (3, 3, 400),
        (4, 4, 300),
        (5, 5, 200),
        (6, 6, 100),
    ])
}

fn winners(list: &arbiter_standings::prize::PrizeList) -> Vec<(u32, u32, u64)> {
    list.awards
        .iter()
        .filter(|a| a.kind == AwardKind::Place && a.category.is_none())
        .map(|a| {
            (
                a.place,
                a.no.map(|n| n.get()).unwrap_or(0),
                a.amount.unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn reserved_places_count_in_the_table_and_pay_at_least_the_floor() {
    // 3 of the 6 places for locals, floor 350. Locals by rank: 3, 7, 9. The other places
    // go to the best 3 others: 1, 2, 4. Winners in rank order: 1, 2, 3, 4, 7, 9.
    let (all, locals) = county();
    let rules = PrizeRules {
        places: vec![PrizeTable {
            section: "S".into(),
            entries: six_places(),
            reserved: Some(Reservation {
                category: "local".into(),
                places: 3,
                floor: 350,
            }),
            ..Default::default()
        }],
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[all, locals], &[]).unwrap();
    assert_eq!(
        winners(&list),
        [
            (1, 1, 1000),
            (2, 2, 600),
            (3, 3, 400), // a local above the floor keeps his place prize
            (4, 4, 300),
            (5, 7, 350), // 200 raised to the floor
            (6, 9, 350)  // 100 raised to the floor
        ]
    );
    assert!(list.awards[4]
        .note
        .as_deref()
        .unwrap_or("")
        .contains("「local」保留名额，保底350元"));
    assert_eq!(list.total_amount, 1000 + 600 + 400 + 300 + 350 + 350);
    assert!(list.vacant.is_empty());
}

#[test]
fn reserved_places_held_high_keep_their_place_prize() {
    // Locals 1 and 2 lead: they fill 2 of their 3 places where they stand (above the floor);
    // the third goes to local 7, so only three others fit — player 6 drops out.
    let all = ranking("S", 10);
    let locals = category("S", "local", &[1, 2, 7]);
    let rules = PrizeRules {
        places: vec![PrizeTable {
            section: "S".into(),
            entries: six_places(),
            reserved: Some(Reservation {
                category: "local".into(),
                places: 3,
                floor: 150,
            }),
            ..Default::default()
        }],
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[all, locals], &[]).unwrap();
    assert_eq!(
        winners(&list),
        [
            (1, 1, 1000),
            (2, 2, 600),
            (3, 3, 400),
            (4, 4, 300),
            (5, 5, 200),
            (6, 7, 150) // 100 raised to 150
        ]
    );
}

#[test]
fn one_award_gives_the_larger_and_passes_the_other_on() {
    // Section: 1000, 600, 400, 300, 200, 100. Locals' own table: 500, 250.
    // Local 3 (3rd, 400) takes the locals' 500 and leaves his 3rd place, which passes to
    // player 4; every place below moves up one (5th → 6, 6th → 7 — but 7 is a local).
    // Locals' 2nd (250) goes to local 7, whose section place (6th, 100) is worth less, so
    // 6th passes on to 8.
    let (all, locals) = county();
    let rules = PrizeRules {
        places: vec![
            table("S", six_places()),
            PrizeTable {
                section: "S".into(),
                category: Some("local".into()),
                entries: amounts(&[(1, 1, 500), (2, 2, 250)]),
                ..Default::default()
            },
        ],
        one_award_per_person: true,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[all, locals], &[]).unwrap();
    assert_eq!(
        winners(&list),
        [
            (1, 1, 1000),
            (2, 2, 600),
            (3, 4, 400),
            (4, 5, 300),
            (5, 6, 200),
            (6, 8, 100)
        ]
    );
    let cat: Vec<_> = list
        .awards
        .iter()
        .filter(|a| a.category.is_some())
        .map(|a| (a.place, a.no.map(|n| n.get()).unwrap_or(0)))
        .collect();
    assert_eq!(cat, [(1, 3), (2, 7)]);
    assert_eq!(
        list.total_amount,
        1000 + 600 + 400 + 300 + 200 + 100 + 500 + 250
    );
}

#[test]
fn one_award_equal_amounts_take_the_table_listed_first() {
    // Player 1 wins 1st of both tables, both 100: he keeps the one listed first.
    let all = ranking("S", 4);
    let cat = category("S", "C", &[1, 2]);
    let section = |listed| PrizeTable {
        section: "S".into(),
        entries: amounts(&[(1, 1, 100)]),
        listed: Some(listed),
        ..Default::default()
    };
    let category_table = |listed| PrizeTable {
        section: "S".into(),
        category: Some("C".into()),
        entries: amounts(&[(1, 1, 100)]),
        listed: Some(listed),
        ..Default::default()
    };
    for (s_listed, c_listed, keeps_section) in [(0, 5, true), (5, 0, false)] {
        let rules = PrizeRules {
            places: vec![section(s_listed), category_table(c_listed)],
            one_award_per_person: true,
            ..Default::default()
        };
        let list = allocate_prizes(&rules, &[all.clone(), cat.clone()], &[]).unwrap();
        let of = |category: bool| {
            list.awards
                .iter()
                .find(|a| a.category.is_some() == category)
                .and_then(|a| a.no)
                .map(|n| n.get())
        };
        if keeps_section {
            assert_eq!((of(false), of(true)), (Some(1), Some(2)));
        } else {
            assert_eq!((of(false), of(true)), (Some(2), Some(1)));
        }
    }
}

/// 台次奖 (A15): the same places on every board, each board's own ranking; a place beyond the
/// players ranked on a board is vacant on that board only; the amounts add to the total.
#[test]
fn board_prizes_give_each_board_its_places() {
    use arbiter_standings::prize::{allocate_board_prizes, BoardRanking};
    let rules = PrizeRules {
        places: vec![table("open", amounts(&[(1, 1, 300)]))],
        ..Default::default()
    };
    let mut list = allocate_prizes(&rules, &[ranking("open", 3)], &[]).unwrap();
    let boards = vec![
        BoardRanking {
            section: "clubs".into(),
            board: 2,
            rows: vec![row(1, 12)],
        },
        BoardRanking {
            section: "clubs".into(),
            board: 1,
            rows: vec![row(1, 5), row(2, 9)],
        },
    ];
    let entries = vec![
        PrizeEntry::place(1, 200).with_title("台次奖"),
        PrizeEntry::place(2, 100),
    ];
    allocate_board_prizes(&mut list, "clubs", &entries, &boards).unwrap();
    let board: Vec<(Option<u32>, u32, u32, Option<u64>)> = list
        .awards
        .iter()
        .filter(|a| a.kind == AwardKind::Board)
        .map(|a| (a.board, a.place, a.no.unwrap().get(), a.amount))
        .collect();
    // Board 1 first, then board 2; the first place carries the title.
    assert_eq!(
        board,
        vec![
            (Some(1), 1, 5, Some(200)),
            (Some(1), 2, 9, Some(100)),
            (Some(2), 1, 12, Some(200)),
        ]
    );
    assert_eq!(list.awards[1].title.as_deref(), Some("台次奖"));
    assert_eq!(list.total_amount, 300 + 200 + 100 + 200);
    assert_eq!(list.vacant.len(), 1);
    assert_eq!(list.vacant[0].board, Some(2));
    assert_eq!(list.vacant[0].place, 2);
    assert!(list.vacant[0].reason.contains("第2台"));
    // An empty prize is refused as in any table.
    let mut l2 = PrizeList::default();
    let err = allocate_board_prizes(
        &mut l2,
        "clubs",
        &[PrizeEntry {
            amount: None,
            ..PrizeEntry::range(1, 1, 0)
        }],
        &boards,
    )
    .unwrap_err();
    assert!(matches!(err, PrizeError::EmptyPrize { .. }), "{err}");
}

/// A14 「不可重复领奖」, to a fixed point: player 4 first holds the section's 4th place (300)
/// and the category's 2nd (250), so he keeps the 300. Player 2, the category's best, keeps
/// the section's 2nd (600) and vacates the category's 1st (500): that prize passes down the
/// category's list, and player 4 — already placed — is reconsidered for it and takes it
/// rather than leave it to player 9 ranked far below him; his 4th place then passes to
/// player 5, and the category's 2nd to player 9. The prizes passed down say so (顺延).
#[test]
fn one_award_a_placed_player_is_reconsidered_for_a_category_prize_vacated_above_him() {
    let all = ranking("S", 10);
    let cat = category("S", "C", &[2, 4, 9]);
    let rules = PrizeRules {
        places: vec![
            table(
                "S",
                amounts(&[(1, 1, 1000), (2, 2, 600), (3, 3, 400), (4, 4, 300)]),
            ),
            PrizeTable {
                section: "S".into(),
                category: Some("C".into()),
                entries: amounts(&[(1, 1, 500), (2, 2, 250)]),
                ..Default::default()
            },
        ],
        one_award_per_person: true,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[all, cat], &[]).unwrap();
    assert_eq!(
        winners(&list),
        [(1, 1, 1000), (2, 2, 600), (3, 3, 400), (4, 5, 300)]
    );
    let cat: Vec<_> = list
        .awards
        .iter()
        .filter(|a| a.category.is_some())
        .map(|a| {
            (
                a.place,
                a.rank,
                a.no.map(|n| n.get()).unwrap_or(0),
                a.passed_down,
            )
        })
        .collect();
    // The category's 1st goes to its 2nd-ranked player (4), its 2nd to its 3rd (9).
    assert_eq!(cat, [(1, 2, 4, true), (2, 3, 9, true)]);
    let fourth = list
        .awards
        .iter()
        .find(|a| a.category.is_none() && a.place == 4)
        .unwrap();
    assert!(fourth.passed_down);
    assert!(
        fourth
            .note
            .as_deref()
            .unwrap_or("")
            .starts_with("第4名奖项顺延至第5名"),
        "{:?}",
        fourth.note
    );
    assert!(list.vacant.is_empty());
    assert_eq!(list.total_amount, 1000 + 600 + 400 + 300 + 500 + 250);
}

/// Reserved places with one award per person: the same winners as without it when the
/// table is the only one (the places are given out one at a time, the category's players
/// taken where the places left are all needed for them).
#[test]
fn one_award_keeps_reserved_places_and_their_floor() {
    let (all, locals) = county();
    let rules = PrizeRules {
        places: vec![PrizeTable {
            section: "S".into(),
            entries: six_places(),
            reserved: Some(Reservation {
                category: "local".into(),
                places: 3,
                floor: 350,
            }),
            ..Default::default()
        }],
        one_award_per_person: true,
        ..Default::default()
    };
    let list = allocate_prizes(&rules, &[all, locals], &[]).unwrap();
    assert_eq!(
        winners(&list),
        [
            (1, 1, 1000),
            (2, 2, 600),
            (3, 3, 400),
            (4, 4, 300),
            (5, 7, 350),
            (6, 9, 350)
        ]
    );
    assert!(list.awards.iter().all(|a| !a.passed_down));
}
