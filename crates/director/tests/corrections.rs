//! Editing an entry (`entries::correct`): a new sex, birth date or ID number is judged by the
//! section's sex and age rules, the same rule registration uses; a new ID number brings its sex
//! and birth date with it.

use arbiter_core::{EventState, FieldChange, LogEntry, PlayerId};
use arbiter_director::api::entries as desk;
use arbiter_director::api::Ctx;
use arbiter_director::apply_scratch;
use arbiter_director::registration::{event_created, EntryForm};
use arbiter_types::{IdNumber, Sex};

fn ctx() -> Ctx {
    let at = chrono::NaiveDate::from_ymd_opt(2026, 9, 1)
        .unwrap()
        .and_hms_opt(10, 0, 0)
        .unwrap();
    Ctx::new("报名处", at)
}

fn event(stem: &str) -> EventState {
    let path = format!(
        "{}/../../regulations/{stem}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(path).unwrap();
    let file = format!("{stem}.toml");
    let reg = arbiter_regulation::parse(&src, &file).unwrap();
    let mut state = EventState::new();
    let e = event_created(&reg, &src, &file, 7);
    apply_scratch(&mut state, &e, &ctx().at_rfc3339()).unwrap();
    state
}

fn apply(state: &mut EventState, entries: Vec<LogEntry>) {
    for e in entries {
        apply_scratch(state, &e, &ctx().at_rfc3339()).unwrap();
    }
}

/// A valid 18-digit ID number: born `yyyymmdd`, sequence `seq` (odd = man, even = woman).
fn id(born: &str, seq: u32) -> String {
    let body = format!("320583{born}{seq:03}");
    let sum: u64 = body
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| u64::from(c.to_digit(10).unwrap()) * ((1u64 << (i + 1)) % 11))
        .sum();
    let v = (12 - sum % 11) % 11;
    let c = if v == 10 {
        'X'
    } else {
        char::from_digit(v as u32, 10).unwrap()
    };
    format!("{body}{c}")
}

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
        evidence: vec!["social_security".into(), "id_card".into()],
        flags: vec![],
        rating: None,
        // Both events' deadlines are past on the test's date: the chief arbiter's override.
        late_reason: Some("组委会同意补报".into()),
    }
}

fn register(state: &mut EventState, f: &EntryForm) -> PlayerId {
    let out = desk::register(state, &ctx(), f).unwrap();
    let p = match &out[0] {
        LogEntry::PlayerRegistered(r) => r.player,
        other => panic!("not registered: {other:?}"),
    };
    apply(state, out);
    p
}

fn refusal(r: Result<Vec<LogEntry>, arbiter_director::DirectorError>) -> String {
    r.expect_err("the correction should be refused").to_string()
}

#[test]
fn a_correction_keeps_the_sections_sex_rule() {
    let mut s = event("kunshan-2026");
    // Without an ID number: the sex as written.
    let p = register(&mut s, &form("men", "李四", None, Some(Sex::Male)));
    let err = refusal(desk::correct(
        &s,
        &ctx(),
        p,
        vec![FieldChange::Sex(Some(Sex::Female))],
        "报名表填错性别",
    ));
    assert!(
        err.contains("不符合组别 `men` 的参赛条件") && err.contains("本组限男子"),
        "{err}"
    );
    // A woman's ID number brings her sex: refused in the men's section, nothing changed.
    let err = refusal(desk::correct(
        &s,
        &ctx(),
        p,
        vec![FieldChange::IdNumber(Some(
            IdNumber::parse(&id("19900101", 2)).unwrap(),
        ))],
        "补录身份证号",
    ));
    assert!(err.contains("本组限男子"), "{err}");
    assert_eq!(s.player(p).unwrap().sex, Some(Sex::Male));
    // A man's ID number is accepted, and his birth date comes with it.
    let ok = desk::correct(
        &s,
        &ctx(),
        p,
        vec![FieldChange::IdNumber(Some(
            IdNumber::parse(&id("19900101", 1)).unwrap(),
        ))],
        "补录身份证号",
    )
    .unwrap();
    apply(&mut s, ok);
    let rec = s.player(p).unwrap();
    assert_eq!(rec.sex, Some(Sex::Male));
    assert_eq!(rec.birth_date, chrono::NaiveDate::from_ymd_opt(1990, 1, 1));
    // Now a sex that contradicts the ID number is refused as such.
    let err = refusal(desk::correct(
        &s,
        &ctx(),
        p,
        vec![FieldChange::Sex(Some(Sex::Female))],
        "x",
    ));
    assert!(err.contains("性别与身份证号不符"), "{err}");
    // A correction needs a reason and something to correct.
    assert!(refusal(desk::correct(&s, &ctx(), p, vec![], "x")).contains("没有要更正"));
    let err = refusal(desk::correct(
        &s,
        &ctx(),
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
        &ctx(),
        p,
        vec![FieldChange::IdNumber(Some(
            IdNumber::parse(&id("19900101", 1)).unwrap(),
        ))],
        "身份证号抄错",
    ));
    assert!(
        err.contains("时年满 30 岁，不足 55 岁") && err.contains("senior"),
        "{err}"
    );
    // Without an ID number, a birth date alone is judged the same way.
    let mut s2 = event("jiujiang-2020");
    let mut f = form("senior", "钱老", None, Some(Sex::Male));
    f.birth = chrono::NaiveDate::from_ymd_opt(1950, 5, 1);
    let r = register(&mut s2, &f);
    let err = refusal(desk::correct(
        &s2,
        &ctx(),
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
        &ctx(),
        r,
        vec![FieldChange::BirthDate(chrono::NaiveDate::from_ymd_opt(
            1951, 5, 1,
        ))],
        "出生年份抄错",
    )
    .unwrap();
    apply(&mut s2, ok);
    assert_eq!(
        s2.player(r).unwrap().birth_date,
        chrono::NaiveDate::from_ymd_opt(1951, 5, 1)
    );
}
