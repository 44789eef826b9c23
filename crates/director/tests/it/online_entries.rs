//! Online entries (网上报名) and the registration deadline: an entry submitted before the
//! deadline and approved after it is on time (the deadline is judged at the submission's time,
//! recorded in the log); one submitted after the deadline needs the chief arbiter's late-entry
//! override. `verify` agrees with both.

use crate::common;

use arbiter_core::{EventState, LogEntry, Recorded, Rejection};
use arbiter_director::api::entries as desk;
use arbiter_director::api::Ctx;
use arbiter_director::registration::event_created;
use arbiter_director::{verify, DirectorError, Refusal};
use common::*;

/// A log being written: the state and the recorded entries, each at its own time.
struct Log {
    state: EventState,
    recorded: Vec<Recorded>,
}

impl Log {
    /// Kunshan 2026 with its 15 September deadline (八(一), the team form's) closing every
    /// entry, as an event with one deadline for all entries has it.
    fn kunshan() -> Log {
        let (_, src, file) = regulation("kunshan-2026");
        let src = src.replace(
            "team_deadline = 2026-09-15T00:00:00",
            "deadline = 2026-09-15T00:00:00",
        );
        let reg = arbiter_regulation::parse(&src, &file).unwrap();
        let mut log = Log {
            state: EventState::new(),
            recorded: Vec::new(),
        };
        log.append(&desk_at(8, 1), vec![event_created(&reg, &src, &file, 7)]);
        log
    }

    fn append(&mut self, ctx: &Ctx, entries: Vec<LogEntry>) {
        record(&mut self.recorded, &mut self.state, ctx, entries);
    }

    fn submit(&mut self, ctx: &Ctx, name: &str, id: &str) -> u32 {
        let mut form = desk::online_form(
            "men",
            name,
            None,
            Some(id),
            Some("13912345678"),
            Some("昆山一厂"),
        );
        // Kunshan requires the 社保号 (K5); the ID number serves, as in many cities.
        form.social_security = Some(id.into());
        let out = desk::submit(&self.state, ctx, &form).unwrap();
        let n = match &out[0] {
            LogEntry::EntrySubmitted { submission, .. } => *submission,
            other => panic!("not a submission: {other:?}"),
        };
        self.append(ctx, out);
        n
    }
}

fn evidence() -> Vec<String> {
    vec!["社保证明".into()]
}

#[test]
fn submitted_on_time_and_approved_after_the_deadline_is_on_time() {
    let mut log = Log::kunshan();
    let n = log.submit(&desk_at(9, 10), "张三", &man_id(1));
    // Approved on 20 September, five days after the deadline, without any override.
    let late_desk = desk_at(9, 20);
    let out = desk::approve(&log.state, &late_desk, n, evidence(), None).unwrap();
    match &out[0] {
        LogEntry::PlayerRegistered(r) => {
            assert_eq!(r.submission, Some(n));
            assert_eq!(r.late_reason, None);
        }
        other => panic!("not registered: {other:?}"),
    }
    log.append(&late_desk, out);
    assert_eq!(log.state.players.len(), 1);
    // The registration is recorded on the 20th, judged at the submission's time.
    let reg = log
        .recorded
        .iter()
        .find(|r| r.entry.kind() == "player_registered")
        .unwrap();
    assert_eq!(reg.at, "2026-09-20T10:00:00+08:00");
    assert_eq!(
        log.state.submissions[&n].at, "2026-09-10T10:00:00+08:00",
        "the submission keeps its own time"
    );
    assert!(verify::verify(&log.recorded, None).is_empty());
}

#[test]
fn submitted_after_the_deadline_still_needs_the_override() {
    let mut log = Log::kunshan();
    // The online form itself refuses after the deadline …
    let form = desk::online_form(
        "men",
        "李四",
        None,
        Some(&man_id(2)),
        Some("13912345678"),
        None,
    );
    let err = desk::submit(&log.state, &desk_at(9, 16), &form).unwrap_err();
    assert!(err.to_string().contains("截止"), "{err}");
    // … and a submission recorded after it (a form opened before, posted after) is late.
    let n = log.submit(&desk_at(9, 10), "王五", &man_id(3));
    let mut late = log.state.clone();
    late.submissions.get_mut(&n).unwrap().at = "2026-09-16T09:00:00+08:00".into();
    let err = desk::approve(&late, &desk_at(9, 20), n, evidence(), None).unwrap_err();
    assert!(
        matches!(&err, DirectorError::Refused(r) if matches!(&**r, Refusal::CannotApprove { reason, .. } if reason.contains("截止"))),
        "{err}"
    );
    let out = desk::approve(
        &late,
        &desk_at(9, 20),
        n,
        evidence(),
        Some("裁判长同意补报".into()),
    )
    .unwrap();
    match &out[0] {
        LogEntry::PlayerRegistered(r) => {
            assert_eq!(r.late_reason.as_deref(), Some("裁判长同意补报"))
        }
        other => panic!("not registered: {other:?}"),
    }
}

#[test]
fn a_submission_posted_after_the_deadline_in_the_log_is_late_on_replay() {
    // The log itself: a submission appended after the deadline, then a registration naming
    // it without an override, is refused by the fold (whatever shell wrote it).
    let mut log = Log::kunshan();
    let n = log.submit(&desk_at(9, 10), "赵六", &man_id(4));
    let ok = desk::approve(&log.state, &desk_at(9, 20), n, evidence(), None).unwrap();
    let mut reg = match &ok[0] {
        LogEntry::PlayerRegistered(r) => r.clone(),
        other => panic!("not registered: {other:?}"),
    };
    // Without the submission named, the same registration on the 20th is after the deadline.
    reg.submission = None;
    let rej = arbiter_core::validate_at(
        &log.state,
        &LogEntry::PlayerRegistered(reg.clone()),
        Some("2026-09-20T10:00:00+08:00"),
    )
    .unwrap_err();
    assert!(matches!(rej, Rejection::AfterDeadline { .. }), "{rej}");
    // Naming a submission of another section or person is refused.
    reg.submission = Some(n);
    reg.person.id_number = Some(arbiter_types::IdNumber::parse(&man_id(5)).unwrap());
    let rej = arbiter_core::validate_at(
        &log.state,
        &LogEntry::PlayerRegistered(reg),
        Some("2026-09-20T10:00:00+08:00"),
    )
    .unwrap_err();
    assert_eq!(rej, Rejection::SubmissionMismatch(n));
}

#[test]
fn verify_judges_an_approved_entry_at_its_submission_time() {
    let mut log = Log::kunshan();
    let n = log.submit(&desk_at(9, 10), "钱七", &man_id(6));
    let out = desk::approve(&log.state, &desk_at(9, 20), n, evidence(), None).unwrap();
    log.append(&desk_at(9, 20), out);
    assert!(verify::verify(&log.recorded, None).is_empty());
    // Moving the submission's recorded time past the deadline: the log no longer replays.
    let mut tampered = log.recorded.clone();
    let sub = tampered
        .iter_mut()
        .find(|r| r.entry.kind() == "entry_submitted")
        .unwrap();
    sub.at = "2026-09-16T10:00:00+08:00".into();
    let diffs = verify::verify(&tampered, None);
    assert!(!diffs.is_empty());
    assert!(
        diffs.iter().any(|d| format!("{d:?}").contains("截止")),
        "{diffs:?}"
    );
}
