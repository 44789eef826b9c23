//! Team divisions inside a section (K1: 甲组/乙组 of the men's section).

use arbiter_core::*;

fn rec(seq: u64, entry: LogEntry) -> Recorded {
    Recorded {
        seq,
        at: "2026-09-10T08:30:00+08:00".into(),
        actor: "test".into(),
        entry,
    }
}

fn created() -> LogEntry {
    LogEntry::EventCreated(EventCreated {
        name: "职工象棋赛".into(),
        regulation: String::new(),
        file_name: "test.toml".into(),
        seed: 1,
        sections: vec![
            SectionInfo {
                id: "men".into(),
                name: "男子个人赛".into(),
                divisions: vec![
                    DivisionInfo {
                        id: "a".into(),
                        name: "甲组".into(),
                    },
                    DivisionInfo {
                        id: "b".into(),
                        name: "乙组".into(),
                    },
                ],
            },
            SectionInfo {
                id: "women".into(),
                name: "女子个人赛".into(),
                divisions: vec![],
            },
        ],
        limits: EntryLimits::default(),
    })
}

fn player(id: u32, section: &str) -> LogEntry {
    let mut v = serde_json::json!({
        "type": "player_registered", "player": id, "section": section, "name": format!("选手{id}")
    });
    v["unit"] = "华宇电子".into();
    serde_json::from_value(v).unwrap()
}

fn team(name: &str, division: Option<&str>, members: &[u32]) -> LogEntry {
    LogEntry::TeamEntered {
        team: name.into(),
        unit: "华宇电子".into(),
        division: division.map(str::to_string),
        members: members.iter().map(|&m| PlayerId(m)).collect(),
        leader: None,
        coach: None,
    }
}

fn base() -> EventState {
    let mut s = EventState::new();
    let entries = [
        created(),
        player(1, "men"),
        player(2, "men"),
        player(3, "women"),
    ];
    for (i, e) in entries.into_iter().enumerate() {
        s.apply(&rec(i as u64 + 1, e)).unwrap();
    }
    s
}

#[test]
fn a_division_of_the_members_section_is_accepted_and_stored() {
    let mut s = base();
    s.apply(&rec(5, team("华宇电子队", Some("a"), &[1, 2])))
        .unwrap();
    let t = &s.teams["华宇电子队"];
    assert_eq!(t.division.as_deref(), Some("a"));
    assert_eq!(t.section.as_deref(), Some("men"));
    assert_eq!(s.sections["men"].divisions[0].name, "甲组");
}

#[test]
fn an_unknown_division_or_one_of_another_section_is_refused() {
    let s = base();
    assert_eq!(
        validate(&s, &team("甲", Some("c"), &[1, 2])),
        Err(Rejection::UnknownDivision {
            division: "c".into(),
            section: "men".into()
        })
    );
    // the women's section declares no divisions
    assert!(matches!(
        validate(&s, &team("乙", Some("a"), &[3])),
        Err(Rejection::UnknownDivision { .. })
    ));
    // members from two sections cannot share a division
    assert!(matches!(
        validate(&s, &team("丙", Some("a"), &[1, 3])),
        Err(Rejection::UnknownDivision { .. })
    ));
    let e = validate(&s, &team("甲", Some("c"), &[1])).unwrap_err();
    assert!(
        e.to_string().starts_with("组别 `men` 没有团体组别 `c`"),
        "{e}"
    );
}

#[test]
fn old_logs_without_divisions_still_replay() {
    // event_created without `divisions`, a team division naming a section (the old meaning)
    let old_created = serde_json::json!({"v":1,"seq":1,"at":"2026-09-10T08:30:00+08:00","actor":"t",
        "entry":{"type":"event_created","name":"赛","regulation":"","file_name":"x.toml","seed":1,
        "sections":[{"id":"men","name":"男子"},{"id":"team_a","name":"团体甲组"}]}});
    let r1 = Recorded::from_value(old_created).unwrap();
    let LogEntry::EventCreated(c) = &r1.entry else {
        panic!("not event_created")
    };
    assert!(c.sections.iter().all(|s| s.divisions.is_empty()));
    let log = vec![
        r1,
        rec(2, player(1, "men")),
        rec(3, team("一队", Some("team_a"), &[1])),
    ];
    let s = EventState::replay(&log).unwrap();
    assert_eq!(s.teams["一队"].division.as_deref(), Some("team_a"));
    // and writing omits an empty division list, so old readers see the same JSON
    let json = serde_json::to_value(&log[0]).unwrap();
    assert!(json["entry"]["sections"][0].get("divisions").is_none());
}

#[test]
fn registration_flags_are_kept_and_corrected_and_default_to_none() {
    let mut s = base();
    // an old entry without `flags` reads as none
    assert!(s.players[&PlayerId(1)].flags.is_empty());
    let mut v = serde_json::json!({
        "type": "player_registered", "player": 4, "section": "men", "name": "选手4",
        "flags": ["group_member", "national_master"], "evidence": ["social_security"]
    });
    v["unit"] = "华宇电子".into();
    s.apply(&rec(5, serde_json::from_value(v).unwrap()))
        .unwrap();
    assert_eq!(
        s.players[&PlayerId(4)].flags,
        ["group_member", "national_master"]
    );
    s.apply(&rec(
        6,
        LogEntry::PlayerCorrected {
            player: PlayerId(4),
            changes: vec![FieldChange::Flags(vec!["group_member".into()])],
            reason: "资格更正".into(),
        },
    ))
    .unwrap();
    assert_eq!(s.players[&PlayerId(4)].flags, ["group_member"]);
    // a refusal keeps the form's facts
    let refused = LogEntry::EntryRefused {
        name: "某人".into(),
        section: "men".into(),
        reason: "出生日期不符".into(),
        id_number: None,
        unit: None,
        facts: Some(RefusedFacts {
            flags: vec!["local".into()],
            ..RefusedFacts::default()
        }),
    };
    let json = serde_json::to_string(&refused).unwrap();
    assert!(json.contains(r#""facts":{"flags":["local"]}"#), "{json}");
    assert_eq!(serde_json::from_str::<LogEntry>(&json).unwrap(), refused);
}
