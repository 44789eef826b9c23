//! The four shipped regulation files parse and say what the seeds say.

use arbiter_regulation::*;
use arbiter_types::{Colour, Fallback, GameKind, SameTeam, Score, Sex, TiebreakName};
use chrono::NaiveDate;

const KUNSHAN: &str = include_str!("../../../../regulations/kunshan-2026.toml");
const SUZHOU: &str = include_str!("../../../../regulations/suzhou-2025.toml");
const JIUJIANG: &str = include_str!("../../../../regulations/jiujiang-2020.toml");
const TIANSHUI: &str = include_str!("../../../../regulations/tianshui-2024.toml");

fn load(src: &str, name: &str) -> Regulation {
    match parse(src, name) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}

fn sec<'a>(r: &'a Regulation, id: &str) -> &'a Section {
    r.section(id).unwrap_or_else(|| panic!("no section {id}"))
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn amounts(prizes: &[Prize], key: impl Fn(&Prize) -> bool) -> Vec<(u32, u32, Option<u32>)> {
    prizes
        .iter()
        .filter(|p| key(p))
        .map(|p| {
            let (a, b) = p.ranks();
            (a, b, p.amount_yuan)
        })
        .collect()
}

#[test]
fn kunshan_men_swiss_with_team_divisions_and_lucky_ranks() {
    let r = load(KUNSHAN, "kunshan-2026.toml");
    let ids: Vec<&str> = r.sections.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["men", "women"]);
    let men = sec(&r, "men");
    assert_eq!(
        men.format.effective(200),
        EffectiveFormat::Swiss { rounds: 9 }
    );
    assert_eq!(men.pairing.same_team, SameTeam::Round1);
    assert_eq!(men.scoring.table.win, Score::points(2));
    assert_eq!(
        men.tiebreaks.criteria,
        [
            TiebreakName::OppScore,
            TiebreakName::Wins,
            TiebreakName::Fouls,
            TiebreakName::BlackGames
        ]
    );
    assert_eq!(men.tiebreaks.fallback, Some(Fallback::PreviousRoundRank));
    assert_eq!(men.discipline.withdraw_after_consecutive_forfeits, Some(3));
    assert_eq!(men.discipline.late_forfeit_minutes, Some(10));
    // K12's 「第2次则判负」 is of phone fouls only; other fouls: three in a game (A11).
    assert_eq!(men.discipline.fouls_for_loss, Some(3));
    let mut lucky: Vec<u32> = men.lucky.iter().flat_map(|l| l.ranks.clone()).collect();
    lucky.sort_unstable();
    assert_eq!(lucky, [55, 66, 77, 88, 99, 111, 118, 128]);
    assert!(men.awards.one_award_per_person);
    let teams = men.teams.as_ref().unwrap();
    assert_eq!((teams.min_players, teams.counted), (3, 3));
    assert_eq!(
        teams
            .divisions
            .iter()
            .map(|d| d.name.as_str())
            .collect::<Vec<_>>(),
        ["甲组", "乙组"]
    );
    assert_eq!(teams.divisions[0].auto_from_previous.len(), 2);
    assert_eq!(
        amounts(&teams.prizes, |p| p.division.as_deref() == Some("a")),
        [
            (1, 1, Some(5000)),
            (2, 2, Some(3000)),
            (3, 3, Some(2000)),
            (4, 5, Some(1500)),
            (6, 8, Some(1000))
        ]
    );
    assert_eq!(
        amounts(&teams.prizes, |p| p.division.as_deref() == Some("b")),
        [
            (1, 1, Some(3000)),
            (2, 2, Some(2000)),
            (3, 3, Some(1500)),
            (4, 5, Some(1000)),
            (6, 8, Some(800))
        ]
    );
    assert_eq!(men.prizes[0].title.as_deref(), Some("昆山市职工象棋棋王"));
    assert_eq!(men.eligibility.evidence, [Evidence::SocialSecurity]);
}

#[test]
fn kunshan_women_swiss_five_then_placement_bracket_of_eight() {
    let r = load(KUNSHAN, "kunshan-2026.toml");
    let w = sec(&r, "women");
    assert_eq!(w.eligibility.sex, Some(Sex::Female));
    assert_eq!(
        w.format.effective(30),
        EffectiveFormat::SwissThenKnockout {
            rounds: 5,
            knockout_size: 8,
            continue_rounds: 0
        }
    );
    let k = w.format.knockout.as_ref().unwrap();
    assert_eq!(k.variant, KnockoutVariant::Placement);
    assert_eq!(k.preset(), MatchFormat::K1);
    assert_eq!(k.colour_choice(), ColourChoice::HigherSeed);
    assert!(k.armageddon_draw_black_wins());
    let arm = k
        .time_controls
        .iter()
        .find(|t| t.kind == GameKind::Armageddon)
        .unwrap();
    assert_eq!(
        (arm.minutes, arm.black_minutes, arm.increment_seconds),
        (6, Some(4), 3)
    );
    assert_eq!(max_rounds(&w.format), 8);
    assert_eq!(w.prizes[0].title.as_deref(), Some("昆山市职工象棋棋后"));
    assert_eq!(amounts(&w.prizes, |_| true).len(), 8);
}

#[test]
fn suzhou_sections_scoring_auto_format_and_associations() {
    let r = load(SUZHOU, "suzhou-2025.toml");
    let ids: Vec<&str> = r.sections.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "entrepreneur",
            "senior",
            "open",
            "junior",
            "child_a",
            "child_b"
        ]
    );
    for s in &r.sections {
        let t = s.scoring.table;
        assert_eq!(t.win, Score::points(5), "{}", s.id);
        assert_eq!(t.draw(Colour::Red), Score::points(2));
        assert_eq!(t.draw(Colour::Black), Score::points(3));
        assert_eq!(t.loss, Score::ZERO);
        assert_eq!(s.format.effective(20), EffectiveFormat::Swiss { rounds: 7 });
        assert_eq!(s.format.effective(7), EffectiveFormat::RoundRobin);
        assert_eq!(s.format.effective(4), EffectiveFormat::DoubleRoundRobin);
        assert_eq!(s.entries.max_per_unit_overall, Some(30));
        assert_eq!(s.entries.fee.map(|f| f.total_fen()), Some(20_000));
        assert_eq!(s.discipline.withdraw_after_total_forfeits, Some(2));
    }
    let open = sec(&r, "open");
    assert_eq!(open.eligibility.born_from, Some(date(1966, 1, 1)));
    assert_eq!(open.eligibility.born_to, Some(date(2008, 12, 31)));
    assert_eq!(
        open.categories
            .iter()
            .map(|c| c.id.as_str())
            .collect::<Vec<_>>(),
        ["men", "women"]
    );
    assert_eq!(open.prizes[0].title.as_deref(), Some("苏州市业余棋王"));
    assert_eq!(
        amounts(&open.prizes, |p| p.category.as_deref() == Some("women")).len(),
        3
    );
    let a = r.associations.as_ref().unwrap();
    assert_eq!(a.sections.len(), 6);
    assert!(a.incomplete_unranked);
    assert_eq!(r.special_awards.len(), 2);
    assert_eq!(sec(&r, "child_b").eligibility.born_to, None);
    // S4: a small section plays a round robin and is ranked by the round-robin list.
    let rr = open.tiebreaks_for(open.format.effective(6));
    assert_eq!(rr.criteria[0], TiebreakName::Sb);
    assert_eq!(
        open.tiebreaks_for(open.format.effective(30)),
        open.tiebreaks
    );
}

#[test]
fn jiujiang_two_days_schedule_and_later_prize_table() {
    let r = load(JIUJIANG, "jiujiang-2020.toml");
    let s = sec(&r, "senior");
    assert_eq!(s.eligibility.min_age, Some(55));
    assert_eq!(s.eligibility.age_on, Some(date(2020, 10, 24)));
    assert_eq!(s.schedule.len(), 7);
    assert_eq!(s.schedule[0].to_string(), "2020-10-24 08:30:00");
    assert_eq!(s.discipline.late_forfeit_minutes, Some(15));
    assert_eq!(s.tiebreaks.fallback, Some(Fallback::PreviousRoundScore));
    assert!(s.tiebreaks.criteria.contains(&TiebreakName::Direct));
    assert_eq!(
        amounts(&s.prizes, |_| true).last(),
        Some(&(11, 16, Some(50))),
        "J7: the later 1–16 table"
    );
    assert!(r
        .summary(summary::Lang::Zh)
        .contains("第1轮 10-24 08:30, 第2轮 10-24 09:30"));
    let g = sec(&r, "group");
    // 十二: 九江户籍 or a member of the 九江象棋群 (either, A19).
    assert!(g.eligibility.require_flags.is_empty());
    let ways: Vec<_> = g.eligibility.any_of.iter().map(|c| c.zh()).collect();
    assert_eq!(ways, ["九江户籍", "九江象棋群成员"]);
    assert_eq!(g.schedule[0].to_string(), "2020-10-25 08:30:00");
}

#[test]
fn tianshui_knockout_of_eight_after_eight_rounds_then_three_more() {
    let r = load(TIANSHUI, "tianshui-2024.toml");
    let o = sec(&r, "open");
    assert_eq!(
        o.format.effective(160),
        EffectiveFormat::SwissThenKnockout {
            rounds: 8,
            knockout_size: 8,
            continue_rounds: 3
        }
    );
    assert_eq!(max_rounds(&o.format), 11);
    let k = o.format.knockout.as_ref().unwrap();
    assert_eq!(k.colour_choice(), ColourChoice::Lots);
    assert_eq!(o.entries.event_cap, Some(160));
    assert_eq!(o.entries.unpaid_not_paired, Some(true));
    let rec = o.records.unwrap();
    assert_eq!(
        (rec.boards, rec.from_round, rec.min_moves_before_draw),
        (10, 4, Some(25))
    );
    let t = o.teams.as_ref().unwrap();
    assert_eq!((t.min_players, t.counted), (4, 4));
    let ind = amounts(&o.prizes, |_| true);
    assert_eq!(ind.first(), Some(&(1, 1, Some(10000))));
    assert_eq!(ind.last(), Some(&(19, 24, Some(200))));
    let local = sec(&r, "local");
    assert!(local.teams.is_none());
    assert_eq!(
        amounts(&local.prizes, |_| true).last(),
        Some(&(13, 16, Some(200)))
    );
    assert_eq!(o.eligibility.max_age, Some(65));
    assert_eq!(o.eligibility.age_on, Some(date(2024, 7, 26)));
}

#[test]
fn summaries_name_every_section_in_both_languages() {
    for (src, n) in [
        (KUNSHAN, "k"),
        (SUZHOU, "s"),
        (JIUJIANG, "j"),
        (TIANSHUI, "t"),
    ] {
        let r = load(src, n);
        let zh = r.summary(summary::Lang::Zh);
        let en = r.summary(summary::Lang::En);
        for s in &r.sections {
            assert!(zh.contains(&s.name), "{n}: {}", s.name);
            assert!(
                en.contains(s.name_en.as_deref().unwrap_or(&s.id)),
                "{n}: {}",
                s.id
            );
        }
    }
}
