//! `Section::check_entry` against the shipped regulations' eligibility rules.

use arbiter_regulation::*;
use arbiter_types::Sex;
use chrono::{NaiveDate, NaiveDateTime};
use std::collections::BTreeSet;

fn reg(src: &str) -> Regulation {
    parse(src, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn at(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
}

fn ev(list: &[Evidence]) -> BTreeSet<Evidence> {
    list.iter().copied().collect()
}

fn suzhou_open_ok() -> EntryFacts {
    EntryFacts {
        birth_date: Some(d(1980, 5, 1)),
        sex: Some(Sex::Male),
        unit: Some("姑苏区象棋协会".into()),
        evidence: ev(&[Evidence::SocialSecurity]),
        entry_time: Some(at("2025-09-20 10:00")),
        ..EntryFacts::default()
    }
}

const SUZHOU: &str = include_str!("../../../../regulations/suzhou-2025.toml");
const KUNSHAN: &str = include_str!("../../../../regulations/kunshan-2026.toml");
const JIUJIANG: &str = include_str!("../../../../regulations/jiujiang-2020.toml");
const TIANSHUI: &str = include_str!("../../../../regulations/tianshui-2024.toml");

#[test]
fn suzhou_senior_refuses_birth_outside_range_with_reason() {
    let r = reg(SUZHOU);
    let senior = r.section("senior").unwrap();
    let e = EntryFacts {
        birth_date: Some(d(1950, 3, 2)),
        ..suzhou_open_ok()
    };
    let refusal = senior.check_entry(&e).unwrap_err();
    assert_eq!(refusal.code, "born_outside");
    assert_eq!(
        refusal.zh,
        "出生日期 1950-03-02 不在 1956-01-01 至 1965-12-31 之间 (2025-10-07 时年满 75 岁)"
    );
    assert_eq!(
        refusal.en,
        "born 1950-03-02, outside the section's range 1956-01-01..1965-12-31 (aged 75 on 2025-10-07)"
    );
    // Both ends are inclusive.
    for b in [d(1956, 1, 1), d(1965, 12, 31)] {
        assert_eq!(
            senior.check_entry(&EntryFacts {
                birth_date: Some(b),
                ..suzhou_open_ok()
            }),
            Ok(())
        );
    }
}

#[test]
fn suzhou_open_accepts_and_limits_per_association_and_deadline() {
    let r = reg(SUZHOU);
    let open = r.section("open").unwrap();
    assert_eq!(open.check_entry(&suzhou_open_ok()), Ok(()));
    let full = EntryFacts {
        unit_overall: 30,
        ..suzhou_open_ok()
    };
    assert_eq!(
        open.check_entry(&full).unwrap_err().code,
        "unit_overall_limit"
    );
    assert_eq!(
        open.check_entry(&EntryFacts {
            unit_overall: 29,
            ..suzhou_open_ok()
        }),
        Ok(())
    );
    let late = EntryFacts {
        entry_time: Some(at("2025-09-26 17:01")),
        ..suzhou_open_ok()
    };
    let refusal = late.clone();
    assert_eq!(open.check_entry(&refusal).unwrap_err().code, "late");
    let no_unit = EntryFacts {
        unit: None,
        ..suzhou_open_ok()
    };
    assert_eq!(
        open.check_entry(&no_unit).unwrap_err().code,
        "unit_required"
    );
    // S2 「未获得国家级运动健将（象棋大师）以上称号」: the title read on the regulation's scale,
    // by its name or an alias; 象棋大师 and above refused, below it or none admitted.
    let s = reg(SUZHOU);
    let holding = |g: &str| EntryFacts {
        grade: s.grades.find(g),
        ..suzhou_open_ok()
    };
    for g in ["象棋大师", "国家级运动健将", "特级大师", "国际级运动健将"] {
        let r = open.check_entry(&holding(g)).unwrap_err();
        assert_eq!(r.code, "grade_too_high", "{g}");
        assert!(r.zh.contains("本组限未获得象棋大师以上称号"), "{}", r.zh);
    }
    assert!(open.check_entry(&holding("棋协大师")).is_ok());
    assert!(open.check_entry(&suzhou_open_ok()).is_ok());
    let no_residence = EntryFacts {
        evidence: ev(&[Evidence::Pledge]),
        ..suzhou_open_ok()
    };
    let refusal = open.check_entry(&no_residence).unwrap_err();
    assert_eq!(refusal.code, "evidence_missing");
    assert_eq!(refusal.zh, "须提供以下证明之一: 户籍证明、社保证明、房产证");
}

#[test]
fn suzhou_entrepreneur_needs_pledge_and_licence_or_appointment() {
    let r = reg(SUZHOU);
    let s = r.section("entrepreneur").unwrap();
    let base = EntryFacts {
        birth_date: Some(d(1960, 1, 1)),
        ..suzhou_open_ok()
    };
    assert_eq!(s.check_entry(&base).unwrap_err().zh, "缺少证明材料: 承诺书");
    let pledge = EntryFacts {
        evidence: ev(&[Evidence::SocialSecurity, Evidence::Pledge]),
        ..base.clone()
    };
    assert_eq!(
        s.check_entry(&pledge).unwrap_err().en,
        "one of these is required: business_licence, appointment_certificate"
    );
    let ok = EntryFacts {
        evidence: ev(&[
            Evidence::SocialSecurity,
            Evidence::Pledge,
            Evidence::AppointmentCertificate,
        ]),
        ..base
    };
    assert_eq!(s.check_entry(&ok), Ok(()));
}

#[test]
fn kunshan_women_only_and_evidence_alternatives() {
    let r = reg(KUNSHAN);
    let w = r.section("women").unwrap();
    let e = EntryFacts {
        sex: Some(Sex::Female),
        evidence: ev(&[Evidence::PropertyCertificate]),
        ..EntryFacts::default()
    };
    assert_eq!(w.check_entry(&e), Ok(()));
    let man = EntryFacts {
        sex: Some(Sex::Male),
        ..e.clone()
    };
    let refusal = w.check_entry(&man).unwrap_err();
    assert_eq!(
        (refusal.code, refusal.zh.as_str()),
        ("sex", "本组限女子，报名者为男")
    );
    let unknown = EntryFacts {
        sex: None,
        ..e.clone()
    };
    assert_eq!(w.check_entry(&unknown).unwrap_err().code, "sex_unknown");
    let men = r.section("men").unwrap();
    let no_ss = EntryFacts {
        sex: Some(Sex::Male),
        unit: Some("某公司".into()),
        ..EntryFacts::default()
    };
    assert_eq!(
        men.check_entry(&no_ss).unwrap_err().zh,
        "缺少证明材料: 社保证明"
    );
    assert_eq!(
        men.check_entry(&EntryFacts {
            unit: None,
            ..no_ss
        })
        .unwrap_err()
        .code,
        "unit_required"
    );
}

#[test]
fn jiujiang_seniors_must_be_55_on_the_day() {
    let r = reg(JIUJIANG);
    let s = r.section("senior").unwrap();
    // 十二: a 九江户籍 (residence) entry; 十一: 55 on the day.
    let id = EntryFacts {
        evidence: ev(&[Evidence::IdCard, Evidence::Residence]),
        ..EntryFacts::default()
    };
    let turns_55_on_the_day = EntryFacts {
        birth_date: Some(d(1965, 10, 24)),
        ..id.clone()
    };
    assert_eq!(s.check_entry(&turns_55_on_the_day), Ok(()));
    let one_day_short = EntryFacts {
        birth_date: Some(d(1965, 10, 25)),
        ..id
    };
    let refusal = s.check_entry(&one_day_short).unwrap_err();
    assert_eq!(refusal.code, "too_young");
    assert_eq!(refusal.zh, "2020-10-24 时年满 54 岁，不足 55 岁");
    let unknown = EntryFacts::default();
    assert_eq!(
        s.check_entry(&unknown).unwrap_err().code,
        "birth_date_unknown"
    );
    // 十二 「九江户籍的以及九江象棋群的象棋爱好者均可以报名」: either one admits.
    let g = r.section("group").unwrap();
    assert_eq!(
        g.check_entry(&EntryFacts::default()).unwrap_err().code,
        "condition_any"
    );
    let member = EntryFacts {
        flags: ["group_member".to_string()].into(),
        ..EntryFacts::default()
    };
    assert_eq!(g.check_entry(&member), Ok(()));
    let resident = EntryFacts {
        evidence: ev(&[Evidence::Residence]),
        ..EntryFacts::default()
    };
    assert_eq!(g.check_entry(&resident), Ok(()));
}

#[test]
fn tianshui_age_limit_event_cap_and_local_flag() {
    let r = reg(TIANSHUI);
    let open = r.section("open").unwrap();
    let ok = EntryFacts {
        birth_date: Some(d(1959, 7, 26)),
        evidence: ev(&[Evidence::AccidentInsurance]),
        entry_time: Some(at("2024-07-23 18:00")),
        ..EntryFacts::default()
    };
    assert_eq!(
        open.check_entry(&ok),
        Ok(()),
        "65 on the first day is allowed"
    );
    let old = EntryFacts {
        birth_date: Some(d(1958, 7, 26)),
        ..ok.clone()
    };
    let refusal = open.check_entry(&old).unwrap_err();
    assert_eq!(
        (refusal.code, refusal.zh.as_str()),
        ("too_old", "2024-07-26 时年满 66 岁，超过 65 岁")
    );
    assert_eq!(open.check_event_cap(159), Ok(()));
    let full = open.check_event_cap(160).unwrap_err();
    assert_eq!(
        (full.code, full.zh.as_str()),
        ("event_full", "本次比赛报名已满 160 人")
    );
    let local = r.section("local").unwrap();
    assert_eq!(local.check_entry(&ok).unwrap_err().code, "flag_required");
    let l = EntryFacts {
        flags: ["local".to_string()].into(),
        ..ok
    };
    assert_eq!(local.check_entry(&l), Ok(()));
}

#[test]
fn age_is_counted_in_full_years() {
    assert_eq!(age_on(d(2000, 2, 29), d(2020, 2, 28)), 19);
    assert_eq!(age_on(d(2000, 2, 29), d(2020, 2, 29)), 20);
    assert_eq!(age_on(d(2000, 3, 1), d(2000, 3, 1)), 0);
}

#[test]
fn categories_match_by_sex_and_flag() {
    let r = reg(SUZHOU);
    let open = r.section("open").unwrap();
    let women = open.category("women").unwrap();
    let men = open.category("men").unwrap();
    let f = EntryFacts {
        sex: Some(Sex::Female),
        ..EntryFacts::default()
    };
    assert!(women.matches(&f));
    assert!(!men.matches(&f));
    assert!(
        !women.matches(&EntryFacts::default()),
        "unknown sex is in no sex category"
    );
    let src = "[event]\nname = \"x\"\nstart = 2024-07-26\nend = 2024-07-28\n[[sections]]\nid = \"open\"\nname = \"公开组\"\nformat = { kind = \"swiss\", rounds = 7 }\ntiebreaks = \"tianshui\"\ncategories = [{ id = \"local\", name = \"本地\", flag = \"local\", born_to = 2000-12-31 }]\n";
    let r = reg(src);
    let local = r.section("open").unwrap().category("local").unwrap();
    let l = EntryFacts {
        flags: ["local".to_string()].into(),
        birth_date: Some(d(1990, 1, 1)),
        ..EntryFacts::default()
    };
    assert!(local.matches(&l));
    assert!(!local.matches(&EntryFacts {
        birth_date: Some(d(2001, 1, 1)),
        ..l.clone()
    }));
    assert!(!local.matches(&EntryFacts {
        flags: BTreeSet::new(),
        ..l
    }));
}
