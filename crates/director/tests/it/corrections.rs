//! Editing an entry (`entries::correct`): a new sex, birth date or ID number is judged by the
//! section's sex and age rules, the same rule registration uses; a new ID number brings its sex
//! and birth date with it.

use crate::common;

use arbiter_core::{EventState, FieldChange, LogEntry, PlayerId};
use arbiter_director::api::entries as desk;
use arbiter_director::registration::EntryForm;
use arbiter_types::{IdNumber, Sex};
use common::*;

fn form(section: &str, name: &str, id_number: Option<String>, sex: Option<Sex>) -> EntryForm {
    EntryForm {
        section: section.into(),
        name: name.into(),
        sex,
        birth: None,
        id_number,
        phone: None,
        unit: Some("昆山一厂".into()),
        association: None,
        team: None,
        // 九江 十二's 九江户籍 (residence) for its sections; 昆山's ignore it.
        evidence: vec![
            "social_security".into(),
            "id_card".into(),
            "residence".into(),
        ],
        flags: vec![],
        rating: None,
        grade: None,
        // Both events' deadlines are past on the test's date: the chief arbiter's override.
        late_reason: Some("组委会同意补报".into()),
        social_security: None,
    }
}

fn register(state: &mut EventState, f: &EntryForm) -> PlayerId {
    let out = desk::register(state, &desk_ctx(), f).unwrap();
    let p = match &out[0] {
        LogEntry::PlayerRegistered(r) => r.player,
        other => panic!("not registered: {other:?}"),
    };
    apply(state, out);
    p
}

#[test]
fn a_correction_keeps_the_sections_sex_rule() {
    // Kunshan's men's section, its entries without the ID number, phone and 社保号 the
    // regulation requires (K5), to correct an entry whose sex is only written.
    let mut s = event_with("kunshan-2026", |src| {
        src.replace(
            r#"fields = ["name", "section", "unit", "id_number", "social_security_number", "phone"]"#,
            r#"fields = ["name", "section", "unit"]"#,
        )
    });
    // Without an ID number: the sex as written.
    let p = register(&mut s, &form("men", "李四", None, Some(Sex::Male)));
    let err = refusal(desk::correct(
        &s,
        &desk_ctx(),
        p,
        vec![FieldChange::Sex(Some(Sex::Female))],
        "报名表填错性别",
    ));
    assert!(
        err.contains("更正后不符合男子个人赛的参赛条件") && err.contains("本组限男子"),
        "{err}"
    );
    // A woman's ID number brings her sex: refused in the men's section, nothing changed.
    let err = refusal(desk::correct(
        &s,
        &desk_ctx(),
        p,
        vec![FieldChange::IdNumber(Some(
            IdNumber::parse(&id("19900101", 2)).unwrap(),
        ))],
        "补录身份证号",
    ));
    assert!(err.contains("本组限男子"), "{err}");
    assert_eq!(s.player(p).unwrap().person.sex, Some(Sex::Male));
    // A man's ID number is accepted, and his birth date comes with it.
    let ok = desk::correct(
        &s,
        &desk_ctx(),
        p,
        vec![FieldChange::IdNumber(Some(
            IdNumber::parse(&id("19900101", 1)).unwrap(),
        ))],
        "补录身份证号",
    )
    .unwrap();
    apply(&mut s, ok);
    let rec = s.player(p).unwrap();
    assert_eq!(rec.person.sex, Some(Sex::Male));
    assert_eq!(
        rec.person.birth_date,
        chrono::NaiveDate::from_ymd_opt(1990, 1, 1)
    );
    // Now a sex that contradicts the ID number is refused as such.
    let err = refusal(desk::correct(
        &s,
        &desk_ctx(),
        p,
        vec![FieldChange::Sex(Some(Sex::Female))],
        "x",
    ));
    assert!(err.contains("性别与身份证号不符"), "{err}");
    // A correction needs a reason and something to correct.
    assert!(refusal(desk::correct(&s, &desk_ctx(), p, vec![], "x")).contains("没有要更正"));
    let err = refusal(desk::correct(
        &s,
        &desk_ctx(),
        p,
        vec![FieldChange::Name("李四四".into())],
        " ",
    ));
    assert!(err.contains("理由"), "{err}");
}

#[test]
fn a_correction_keeps_the_sections_age_rule() {
    // Jiujiang seniors: at least 55 on 2020-10-24 (J1).
    let mut s = event("jiujiang-2020");
    let p = register(
        &mut s,
        &form("senior", "王老", Some(id("19600101", 1)), None),
    );
    // An ID number of a man born in 1990: 30 on the day, refused with the age rule's words.
    let err = refusal(desk::correct(
        &s,
        &desk_ctx(),
        p,
        vec![FieldChange::IdNumber(Some(
            IdNumber::parse(&id("19900101", 1)).unwrap(),
        ))],
        "身份证号抄错",
    ));
    assert!(
        err.contains("时年满 30 岁，不足 55 岁") && err.contains("老年组"),
        "{err}"
    );
    // Without an ID number, a birth date alone is judged the same way.
    let mut s2 = event("jiujiang-2020");
    let mut f = form("senior", "钱老", None, Some(Sex::Male));
    f.birth = chrono::NaiveDate::from_ymd_opt(1950, 5, 1);
    let r = register(&mut s2, &f);
    let err = refusal(desk::correct(
        &s2,
        &desk_ctx(),
        r,
        vec![FieldChange::BirthDate(chrono::NaiveDate::from_ymd_opt(
            1980, 5, 1,
        ))],
        "出生年份抄错",
    ));
    assert!(err.contains("不足 55 岁"), "{err}");
    // An eligible birth date passes.
    let ok = desk::correct(
        &s2,
        &desk_ctx(),
        r,
        vec![FieldChange::BirthDate(chrono::NaiveDate::from_ymd_opt(
            1951, 5, 1,
        ))],
        "出生年份抄错",
    )
    .unwrap();
    apply(&mut s2, ok);
    assert_eq!(
        s2.player(r).unwrap().person.birth_date,
        chrono::NaiveDate::from_ymd_opt(1951, 5, 1)
    );
}
