//! The chief arbiter sets this edition's registration deadline and the date ages are counted
//! on (`settings_changed`): registration, the online form and the log's own check follow the
//! new deadline; ages and birth-year ranges follow the new date; form mistakes are errors,
//! never recorded refusals.

use crate::common;

use arbiter_core::{EventState, LogEntry};
use arbiter_director::api::entries as desk;
use arbiter_director::api::event::{change_settings, SettingsForm};
use arbiter_director::registration::{event_created, EntryForm};
use arbiter_director::{regulation_of, verify, Refusal};
use chrono::{Datelike, NaiveDate, NaiveDateTime};
use common::*;

fn at(y: i32, m: u32, d: u32, h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .and_then(|d| d.and_hms_opt(h, 0, 0))
        .expect("time")
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("date")
}

fn ctx(actor: &str, t: NaiveDateTime) -> arbiter_director::api::Ctx {
    arbiter_director::api::Ctx::new(actor, arbiter_director::api::Role::ChiefArbiter, t)
}

/// Tianshui 2024 (deadline 2024-07-23 18:00) created in 2026 as this year's edition.
fn tianshui(log: &mut Vec<arbiter_core::Recorded>) -> EventState {
    let (reg, src, file) = regulation("tianshui-2024");
    let mut state = EventState::new();
    let c = ctx("裁判长", at(2026, 7, 1, 9));
    record(
        log,
        &mut state,
        &c,
        vec![event_created(&reg, &src, &file, 7)],
    );
    state
}

fn open_form(name: &str, id: &str) -> EntryForm {
    let mut f = desk::online_form("open", name, None, Some(id), Some("13912345678"), None);
    f.evidence = vec!["意外伤害保险".into()];
    f
}

#[test]
fn the_chief_arbiter_sets_this_years_deadline_and_age_date_and_entries_are_on_time() {
    let mut log = Vec::new();
    let mut state = tianshui(&mut log);
    let desk_now = ctx("报名处", at(2026, 7, 10, 10));
    // The regulation's 2024 deadline has passed: without the settings an entry is late.
    let err = desk::register_form(&state, &desk_now, &open_form("张三", &man_id(1))).unwrap_err();
    assert!(err.to_string().contains("截止"), "{err}");
    let form = SettingsForm {
        start: Some(date(2026, 7, 24)),
        end: Some(date(2026, 7, 26)),
        deadline: Some(at(2026, 7, 21, 18)),
        age_on: Some(date(2026, 7, 24)),
        ..SettingsForm::default()
    };
    let chief = ctx("裁判长", at(2026, 7, 1, 9));
    let out = change_settings(&state, &chief, &form).unwrap();
    match &out[0] {
        LogEntry::SettingsChanged {
            deadline, age_on, ..
        } => {
            assert_eq!(deadline.as_deref(), Some("2026-07-21T18:00:00+08:00"));
            assert_eq!(*age_on, Some(date(2026, 7, 24)));
        }
        other => panic!("not a settings change: {other:?}"),
    }
    record(&mut log, &mut state, &chief, out);
    let reg = regulation_of(&state).unwrap();
    assert_eq!(reg.registration.deadline, Some(at(2026, 7, 21, 18)));
    for s in &reg.sections {
        assert_eq!(s.entries.deadline, Some(at(2026, 7, 21, 18)), "{}", s.id);
        assert_eq!(s.eligibility.age_on, Some(date(2026, 7, 24)), "{}", s.id);
    }
    // On time now: registered without a late reason.
    let out = desk::register_form(&state, &desk_now, &open_form("张三", &man_id(1))).unwrap();
    assert!(matches!(&out[0], LogEntry::PlayerRegistered(r) if r.late_reason.is_none()));
    record(&mut log, &mut state, &desk_now, out);
    // The online form is open before the deadline and closed after it.
    assert!(desk::online_open(&state, at(2026, 7, 21, 17)).is_ok());
    let closed = desk::online_open(&state, at(2026, 7, 21, 19)).unwrap_err();
    assert!(closed.to_string().contains("报名已截止"), "{closed}");
    // After the new deadline the desk's entry is late again (the log's own check too).
    let late = ctx("报名处", at(2026, 7, 22, 10));
    let err = desk::register_form(&state, &late, &open_form("李四", &man_id(2))).unwrap_err();
    assert!(err.to_string().contains("截止"), "{err}");
    assert!(verify(&log, None).is_empty(), "{:?}", verify(&log, None));
}

#[test]
fn ages_are_counted_on_the_date_set() {
    let mut log = Vec::new();
    let mut state = tianshui(&mut log);
    let chief = ctx("裁判长", at(2026, 7, 1, 9));
    // Born 1961-07-20: 65 on 2026-07-19, 65 (and under 66) on 2026-07-24, so eligible by
    // `max_age = 65`; born 1960-07-20 is 66 on 2026-07-24.
    let form = SettingsForm {
        deadline: Some(at(2026, 7, 21, 18)),
        age_on: Some(date(2026, 7, 24)),
        start: Some(date(2026, 7, 24)),
        end: Some(date(2026, 7, 26)),
        ..SettingsForm::default()
    };
    let out = change_settings(&state, &chief, &form).unwrap();
    record(&mut log, &mut state, &chief, out);
    let desk_now = ctx("报名处", at(2026, 7, 10, 10));
    let old = open_form("老王", &id("19600720", 11));
    let err = desk::register_form(&state, &desk_now, &old).unwrap_err();
    assert!(err.to_string().contains("超过 65 岁"), "{err}");
    assert!(state.refused.is_empty(), "no refusal recorded for a form");
    let ok = open_form("老李", &id("19610720", 11));
    assert!(desk::register_form(&state, &desk_now, &ok).is_ok());
}

#[test]
fn birth_year_ranges_move_with_the_age_date() {
    let (reg, src, file) = regulation("suzhou-2025");
    let mut state = EventState::new();
    let mut log = Vec::new();
    let c = ctx("裁判长", at(2026, 8, 1, 9));
    record(
        &mut log,
        &mut state,
        &c,
        vec![event_created(&reg, &src, &file, 7)],
    );
    let before: Vec<_> = reg
        .sections
        .iter()
        .map(|s| s.eligibility.born_from)
        .collect();
    let form = SettingsForm {
        start: Some(date(2026, 10, 7)),
        end: Some(date(2026, 10, 8)),
        deadline: Some(at(2026, 9, 26, 17)),
        age_on: Some(date(2026, 10, 7)),
        ..SettingsForm::default()
    };
    let out = change_settings(&state, &c, &form).unwrap();
    record(&mut log, &mut state, &c, out);
    let after = regulation_of(&state).unwrap();
    for (s, b) in after.sections.iter().zip(before) {
        let moved = b.map(|d| d.with_year(d.year() + 1).expect("date"));
        assert_eq!(s.eligibility.born_from, moved, "{}", s.id);
    }
}

#[test]
fn a_deadline_after_the_event_or_nothing_new_is_refused() {
    let mut log = Vec::new();
    let state = tianshui(&mut log);
    let chief = ctx("裁判长", at(2026, 7, 1, 9));
    let after_end = SettingsForm {
        deadline: Some(at(2026, 8, 1, 18)),
        ..SettingsForm::default()
    };
    match change_settings(&state, &chief, &after_end) {
        Err(arbiter_director::DirectorError::Refused(r)) => {
            assert!(matches!(*r, Refusal::DeadlineAfterEnd { .. }), "{r}");
            assert!(r.to_string().contains("晚于比赛结束日期"), "{r}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let reg = regulation_of(&state).unwrap();
    let same = SettingsForm {
        deadline: reg.registration.deadline,
        ..SettingsForm::default()
    };
    assert!(change_settings(&state, &chief, &same)
        .unwrap_err()
        .to_string()
        .contains("没有任何更改"));
}

#[test]
fn a_form_mistake_is_an_error_and_only_a_decision_is_a_recorded_refusal() {
    let mut log = Vec::new();
    let mut state = tianshui(&mut log);
    let chief = ctx("裁判长", at(2026, 7, 1, 9));
    let out = change_settings(
        &state,
        &chief,
        &SettingsForm {
            deadline: Some(at(2026, 7, 21, 18)),
            start: Some(date(2026, 7, 24)),
            end: Some(date(2026, 7, 26)),
            ..SettingsForm::default()
        },
    )
    .unwrap();
    record(&mut log, &mut state, &chief, out);
    let d = ctx("报名处", at(2026, 7, 10, 10));
    let mut bad_id = open_form("张三", &man_id(1));
    bad_id.id_number = Some("62050219900101001".into());
    assert!(desk::register(&state, &d, &bad_id).is_err());
    let mut typo = open_form("张三", &man_id(1));
    typo.evidence = vec!["意外保险".into()];
    let err = desk::register(&state, &d, &typo).unwrap_err();
    assert!(err.to_string().contains("意外保险"), "{err}");
    let mut missing = open_form("张三", &man_id(1));
    missing.evidence.clear();
    let err = desk::register_form(&state, &d, &missing).unwrap_err();
    assert!(err.to_string().contains("意外伤害保险"), "{err}");
    assert!(state.refused.is_empty());
    let out = desk::refuse(&state, &missing, "未带保险证明").unwrap();
    assert!(matches!(&out[0], LogEntry::EntryRefused { .. }));
}
