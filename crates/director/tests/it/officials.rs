//! The event's officials (竞赛官员): the chief arbiter records them through the command table
//! as one `officials_appointed` entry; a later list replaces the earlier, the text rule and
//! the log's rules refuse an empty role, a name listed twice, a list that changes nothing;
//! the registration desk may not record them.

use crate::common::*;

use arbiter_core::Official;
use arbiter_director::api::officials::{by_role, parse_lines};
use arbiter_director::api::{Ctx, Role};
use arbiter_director::command::event::EventCommand;

fn appoint(lines: &[&str]) -> EventCommand {
    EventCommand::AppointOfficials {
        officials: parse_lines(lines.iter().copied()).expect("lines"),
        reason: String::new(),
    }
}

#[test]
fn the_chief_arbiter_records_the_officials_and_a_new_list_replaces_the_old() {
    let mut state = event("tianshui-2024");
    let chief = chief_ctx();
    let first = decided(
        &state,
        &chief,
        appoint(&["裁判长=王建国", "副裁判长=刘强", "裁判员=李明、赵丽"]),
    )
    .expect("appointed");
    apply(&mut state, first);
    assert_eq!(
        by_role(&state),
        vec![
            ("裁判长".to_string(), vec!["王建国".to_string()]),
            ("副裁判长".to_string(), vec!["刘强".to_string()]),
            (
                "裁判员".to_string(),
                vec!["李明".to_string(), "赵丽".to_string()]
            ),
        ]
    );
    // The same list again changes nothing: refused, nothing recorded.
    let same = decided(
        &state,
        &chief,
        appoint(&["裁判长=王建国", "副裁判长=刘强", "裁判员=李明、赵丽"]),
    );
    assert!(
        refusal(same).contains("竞赛官员名单没有变化"),
        "unchanged list refused"
    );
    let second =
        decided(&state, &chief, appoint(&["裁判长=王建国", "编排长=周敏"])).expect("replaced");
    apply(&mut state, second);
    assert_eq!(
        state.officials,
        vec![
            Official {
                role: "裁判长".into(),
                name: "王建国".into()
            },
            Official {
                role: "编排长".into(),
                name: "周敏".into()
            },
        ]
    );
    // An empty list takes it back.
    let none = decided(&state, &chief, appoint(&[])).expect("taken back");
    apply(&mut state, none);
    assert!(state.officials.is_empty());
}

#[test]
fn empty_twice_or_bad_text_and_the_desk_are_refused() {
    let state = event("tianshui-2024");
    let chief = chief_ctx();
    let twice = decided(&state, &chief, appoint(&["裁判员=李明、李明"]));
    assert!(refusal(twice).contains("裁判员 李明 重复列出"));
    let blank = EventCommand::AppointOfficials {
        officials: vec![Official {
            role: "  ".into(),
            name: "李明".into(),
        }],
        reason: String::new(),
    };
    assert!(refusal(decided(&state, &chief, blank)).contains("职务"));
    let bidi = EventCommand::AppointOfficials {
        officials: vec![Official {
            role: "裁判长".into(),
            name: "王\u{202E}建国".into(),
        }],
        reason: String::new(),
    };
    let e = refusal(decided(&state, &chief, bidi));
    assert!(e.contains("U+202E"), "{e}");
    let desk = Ctx::new("报名处", Role::Desk, chief.at);
    let e = refusal(decided(&state, &desk, appoint(&["裁判长=王建国"])));
    assert!(e.contains("登记竞赛官员"), "{e}");
    // Nothing of it reached the state.
    assert!(state.officials.is_empty());
}
