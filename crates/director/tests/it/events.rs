//! The four reference regulations simulated end to end in memory (no store): every expected
//! refusal happens with its own reason, every round is played, and `verify` finds nothing.

use crate::common;

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::{publish, verify};
use arbiter_simulate::synth::{BadKind, Expect};
use arbiter_simulate::Sizes;
use common::*;
use std::collections::BTreeMap;

fn refusals(log: &[Recorded]) -> BTreeMap<String, Vec<String>> {
    let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in log {
        if let LogEntry::EntryRefused {
            section, reason, ..
        } = &r.entry
        {
            m.entry(section.clone()).or_default().push(reason.clone());
        }
    }
    m
}

#[test]
fn four_events_refuse_the_bad_entries_and_verify() {
    for stem in [
        "kunshan-2026",
        "suzhou-2025",
        "jiujiang-2020",
        "tianshui-2024",
    ] {
        let (log, state, sim) = run(stem, 1, &Sizes::default());
        let expected: usize = sim
            .field
            .entries
            .iter()
            .filter(|e| e.expect != Expect::Accept)
            .count();
        let got = refusals(&log);
        let n: usize = got.values().map(Vec::len).sum();
        assert_eq!(n, expected, "{stem}: refusals {got:#?}");
        // Each bad kind is refused for its own reason.
        for e in sim.field.entries.iter() {
            let Expect::Refuse(kind) = e.expect else {
                continue;
            };
            let reason = log.iter().find_map(|r| match &r.entry {
                LogEntry::EntryRefused { name, reason, .. } if *name == e.name => {
                    Some(reason.clone())
                }
                _ => None,
            });
            let reason =
                reason.unwrap_or_else(|| panic!("{stem}: {} ({kind:?}) not refused", e.name));
            let needle = match kind {
                BadKind::TooOld => "出生",
                BadKind::WrongSex => "限",
                BadKind::CrossUnitTeam => "跨单位",
                BadKind::UnitOverLimit => "上限",
                BadKind::AfterCap => "已满",
            };
            assert!(
                reason.contains(needle) || (kind == BadKind::TooOld && reason.contains("岁")),
                "{stem}: {kind:?} refused as: {reason}"
            );
        }
        let diffs = verify(&log, None);
        assert!(
            diffs.is_empty(),
            "{stem}: {}",
            diffs
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
        let reg = arbiter_director::regulation_of(&state).unwrap();
        let c = publish::compute(&reg, &state).unwrap();
        let ex = publish::build(&reg, &state, &c);
        assert_eq!(verify(&log, Some(&ex)), vec![]);
        for s in &ex.sections {
            assert!(!s.standings.is_empty(), "{stem}/{}: no standings", s.id);
        }
    }
}

fn published(log: &[Recorded]) -> arbiter_director::Export {
    let state = EventState::replay(log).unwrap();
    arbiter_director::export(&state).unwrap()
}

#[test]
fn verify_finds_a_changed_pairing_a_changed_result_and_a_changed_draw() {
    let sizes = sizes_all(20);
    let (log, _, _) = run("jiujiang-2020", 5, &sizes);
    let export = published(&log);
    assert!(verify(&log, Some(&export)).is_empty());

    // A pairing changed by hand without saying so (no `manual` note): two blacks swapped.
    let mut t = log.clone();
    let i = t
        .iter()
        .position(|r| matches!(&r.entry, LogEntry::RoundPaired { round: 4, .. }))
        .unwrap();
    if let LogEntry::RoundPaired { boards, .. } = &mut t[i].entry {
        let b0 = boards[0].black;
        boards[0].black = boards[1].black;
        boards[1].black = b0;
    }
    let d = verify(&t, None);
    assert!(
        d.iter()
            .any(|d| d.what.contains("重新编排") && d.round == Some(4)),
        "{d:?}"
    );

    // The same change with the arbiter's note is accepted as a manual pairing (still checked).
    if let LogEntry::RoundPaired { manual, .. } = &mut t[i].entry {
        manual.push("裁判长调整第1、2台 (chief arbiter swapped boards 1 and 2)".into());
    }
    assert!(!verify(&t, None)
        .iter()
        .any(|d| d.what.contains("重新编排") && d.round == Some(4)));

    // A result changed after publication: later pairings and the export no longer match.
    let mut t = log.clone();
    let j = t
        .iter()
        .position(|r| matches!(&r.entry, LogEntry::ResultEntered { round: 2, result, .. } if *result == arbiter_types::GameResult::RedWin))
        .unwrap();
    if let LogEntry::ResultEntered { result, .. } = &mut t[j].entry {
        *result = arbiter_types::GameResult::BlackWin;
    }
    let d = verify(&t, Some(&export));
    assert!(d.iter().any(|d| d.what.contains("公开数据")), "{d:?}");

    // A draw of numbers that does not follow its seed.
    let mut t = log.clone();
    let k = t
        .iter()
        .position(|r| matches!(&r.entry, LogEntry::PairingNumbersDrawn { .. }))
        .unwrap();
    if let LogEntry::PairingNumbersDrawn { order, .. } = &mut t[k].entry {
        order.swap(0, 1);
    }
    assert!(verify(&t, None).iter().any(|d| d.what.contains("抽签")));
}

#[test]
fn verify_finds_a_knockout_game_that_the_match_did_not_need() {
    let sizes = sizes_by_section(&[("men", 16), ("women", 12)]);
    let (log, state, _) = run("kunshan-2026", 4, &sizes);
    let rec = state.section("women").unwrap();
    assert!(!rec.knockout.is_empty());
    assert!(verify(&log, None).is_empty());
    // Drop the first knockout game: the next recorded game is no longer the one the match needs.
    let mut t: Vec<Recorded> = Vec::new();
    let mut dropped = false;
    for r in &log {
        if !dropped && matches!(r.entry, LogEntry::KnockoutGameRecorded { .. }) {
            dropped = true;
            continue;
        }
        let mut r = r.clone();
        r.seq = t.len() as u64 + 1;
        t.push(r);
    }
    let d = verify(&t, None);
    assert!(
        d.iter().any(|d| d.section.as_deref() == Some("women")),
        "{d:?}"
    );
}

#[test]
fn two_stage_interleaves_continuing_swiss_and_knockout_rounds() {
    let sizes = sizes_by_section(&[("open", 30), ("local", 0)]);
    let (log, state, _) = run("tianshui-2024", 2, &sizes);
    // Order in the log: Swiss round 9, knockout round 1, Swiss 10, knockout round 2, Swiss 11, final round.
    let mut seq: Vec<String> = Vec::new();
    for r in &log {
        match &r.entry {
            LogEntry::RoundPaired {
                section,
                round,
                stage,
                ..
            } if section == "open" && *round > 8 => seq.push(format!("S{round}/{stage}")),
            LogEntry::KnockoutGameRecorded {
                section, match_id, ..
            } if section == "open" => {
                let tag = format!("K{}", match_id);
                if seq.last() != Some(&tag) {
                    seq.push(tag);
                }
            }
            _ => {}
        }
    }
    let s9 = seq.iter().position(|s| s == "S9/2").unwrap();
    let s10 = seq.iter().position(|s| s == "S10/2").unwrap();
    let s11 = seq.iter().position(|s| s == "S11/2").unwrap();
    assert!(
        seq[s9 + 1..s10].iter().all(|s| s.starts_with('K')) && s10 > s9 + 1,
        "{seq:?}"
    );
    assert!(
        seq[s10 + 1..s11].iter().all(|s| s.starts_with('K')) && s11 > s10 + 1,
        "{seq:?}"
    );
    assert!(
        seq[s11 + 1..].iter().all(|s| s.starts_with('K')) && seq.len() > s11 + 1,
        "{seq:?}"
    );
    let reg = arbiter_director::regulation_of(&state).unwrap();
    let b = arbiter_director::knockout_stage::bracket(&reg, &state, "open").unwrap();
    assert!(b.is_complete());
    assert_eq!(b.places().unwrap().len(), 8);
}

#[test]
fn default_fields_follow_the_real_events() {
    use arbiter_simulate::field_plan;
    let count = |stem: &str| -> BTreeMap<String, usize> {
        let (reg, _, _) = regulation(stem);
        field_plan(&reg, stem, 1, &Sizes::default())
            .sections
            .into_iter()
            .map(|s| (s.id, s.count))
            .collect()
    };
    let k = count("kunshan-2026");
    assert!(k["men"] >= 130 && k["women"] == 24, "{k:?}");
    let s = count("suzhou-2025");
    assert!(
        s.values().any(|n| *n < 5)
            && s.values().any(|n| (5..8).contains(n))
            && s.values().any(|n| *n >= 8),
        "{s:?}"
    );
    let j = count("jiujiang-2020");
    assert!(j.values().all(|n| *n == 60), "{j:?}");
    let t = count("tianshui-2024");
    assert_eq!(t.values().sum::<usize>(), 160, "T7: the event's cap {t:?}");
    // Every ID number fits its entry's birth date and sex; names are Chinese.
    let (reg, _, _) = regulation("tianshui-2024");
    let field =
        arbiter_simulate::synth::generate(&field_plan(&reg, "tianshui-2024", 9, &Sizes::default()));
    for e in &field.entries {
        let id = arbiter_types::IdNumber::parse(&e.id_number).unwrap();
        assert_eq!((id.birth_date(), id.sex()), (e.birth, e.sex));
        assert!(e.id_number.starts_with("62"), "Gansu address codes");
        assert!(
            e.name
                .chars()
                .all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}",
            e.name
        );
    }
}

#[test]
fn kunshan_teams_carry_their_division_and_clean_names() {
    let sizes = sizes_by_section(&[("men", 40), ("women", 8)]);
    let (_, state, _) = run("kunshan-2026", 2, &sizes);
    let mut seen = std::collections::BTreeSet::new();
    for t in state.teams.values() {
        assert_eq!(t.section.as_deref(), Some("men"));
        let d = t.division.as_deref().unwrap_or_default();
        assert!(d == "a" || d == "b", "{}: division {d:?}", t.team);
        seen.insert(d.to_string());
        assert!(
            !t.team.contains('（') && !t.team.contains("队队"),
            "{}",
            t.team
        );
    }
    assert_eq!(seen.len(), 2, "both divisions used");
    let reg = arbiter_director::regulation_of(&state).unwrap();
    let c = publish::compute(&reg, &state).unwrap();
    let ex = publish::build(&reg, &state, &c);
    let divisions: Vec<Option<String>> = ex.teams.iter().map(|t| t.division.clone()).collect();
    assert_eq!(divisions, [Some("甲组".into()), Some("乙组".into())]);
}

#[test]
fn tianshui_team_names_do_not_double_the_suffix() {
    let sizes = sizes_by_section(&[("open", 60), ("local", 30)]);
    let (_, state, _) = run("tianshui-2024", 1, &sizes);
    assert!(!state.teams.is_empty());
    for t in state.teams.values() {
        assert!(!t.team.contains("队队"), "{}", t.team);
    }
}

#[test]
fn verify_rechecks_eligibility_of_registrations_and_refusals() {
    let sizes = sizes_all(10);
    let (log, _, _) = run("suzhou-2025", 1, &sizes);
    assert!(verify(&log, None).is_empty());
    let reg = regulation("suzhou-2025").0;
    // A registration in a section with a birth range, its birth date moved outside it.
    let (i, section) = log
        .iter()
        .enumerate()
        .find_map(|(i, r)| match &r.entry {
            LogEntry::PlayerRegistered(p)
                if reg
                    .section(&p.section)
                    .is_some_and(|s| s.eligibility.born_from.is_some()) =>
            {
                Some((i, p.section.clone()))
            }
            _ => None,
        })
        .unwrap();
    let mut t = log.clone();
    if let LogEntry::PlayerRegistered(p) = &mut t[i].entry {
        p.person.birth_date = chrono::NaiveDate::from_ymd_opt(1930, 5, 1);
        p.person.id_number = None;
    }
    let d = verify(&t, None);
    assert!(
        d.iter().any(|d| d.seq == Some(t[i].seq)
            && d.section.as_deref() == Some(section.as_str())
            && d.what.contains("出生日期 1930-05-01")),
        "{d:?}"
    );
    // The same registration with a title the section bars (S2: 国家级运动健将 — 象棋大师).
    let mut t = log.clone();
    if let LogEntry::PlayerRegistered(p) = &mut t[i].entry {
        p.grade = Some("象棋大师".into());
    }
    let d = verify(&t, None);
    assert!(
        d.iter()
            .any(|d| d.seq == Some(t[i].seq) && d.what.contains("本组限未获得象棋大师以上称号")),
        "{d:?}"
    );
    // And a grade no longer on the scale.
    let mut t = log.clone();
    if let LogEntry::PlayerRegistered(p) = &mut t[i].entry {
        p.grade = Some("业余九段".into());
    }
    let d = verify(&t, None);
    assert!(d.iter().any(|d| d.seq == Some(t[i].seq)), "{d:?}");
    // A refusal for age whose recorded facts no longer justify it.
    let j = log
        .iter()
        .position(|r| {
            matches!(&r.entry, LogEntry::EntryRefused { reason, facts: Some(_), .. } if reason.contains("出生"))
        })
        .unwrap();
    let mut t = log.clone();
    if let LogEntry::EntryRefused {
        id_number, facts, ..
    } = &mut t[j].entry
    {
        *id_number = None;
        if let Some(f) = facts {
            f.birth_date = chrono::NaiveDate::from_ymd_opt(1990, 5, 1);
        }
    }
    let d = verify(&t, None);
    assert!(
        d.iter()
            .any(|d| d.seq == Some(t[j].seq) && d.what.contains("应予接受")),
        "{d:?}"
    );
}

#[test]
fn registrations_keep_their_eligibility_flags() {
    // 九江 十二: 九江户籍 (residence) *or* a member of the 九江象棋群 (the `group_member` flag).
    let sizes = sizes_all(8);
    let (_, state, _) = run("jiujiang-2020", 1, &sizes);
    let reg = arbiter_director::regulation_of(&state).unwrap();
    let either: Vec<_> = reg
        .sections
        .iter()
        .filter(|s| {
            s.eligibility
                .any_of
                .iter()
                .any(|c| c.flags.iter().any(|f| f == "group_member"))
        })
        .collect();
    assert!(!either.is_empty());
    let players: Vec<_> = state
        .players
        .values()
        .filter(|p| either.iter().any(|s| s.id == p.section))
        .collect();
    assert!(!players.is_empty());
    // Every entry keeps what admitted it: the flag, or the evidence, of one alternative.
    assert!(players.iter().all(|p| {
        let sec = either.iter().find(|s| s.id == p.section).unwrap();
        sec.eligibility.any_of.iter().any(|c| {
            c.flags.iter().all(|f| p.flags.contains(f))
                && c.evidence
                    .iter()
                    .all(|e| p.evidence.iter().any(|x| x == e.name() || x == e.zh()))
        })
    }));
}

#[test]
fn synthetic_units_fit_each_events_city_and_are_deterministic() {
    use arbiter_simulate::field_plan;
    use arbiter_simulate::synth::generate;
    let places: [(&str, &[&str]); 4] = [
        ("kunshan-2026", &["昆山"]),
        (
            "suzhou-2025",
            &[
                "姑苏",
                "吴中",
                "相城",
                "吴江",
                "虎丘",
                "工业园区",
                "常熟",
                "张家港",
                "昆山",
                "太仓",
            ],
        ),
        (
            "jiujiang-2020",
            &[
                "九江",
                "浔阳",
                "濂溪",
                "柴桑",
                "八里湖",
                "共青城",
                "瑞昌",
                "庐山",
                "都昌",
                "湖口",
                "彭泽",
                "修水",
                "武宁",
                "永修",
                "德安",
            ],
        ),
        (
            "tianshui-2024",
            &[
                "天水",
                "秦州",
                "麦积",
                "甘谷",
                "武山",
                "清水",
                "秦安",
                "张家川",
                "兰州",
                "定西",
                "平凉",
                "陇南",
                "庆阳",
                "白银",
                "张掖",
                "酒泉",
                "武威",
                "嘉峪关",
                "临夏",
            ],
        ),
    ];
    const TIANSHUI_OWN: &[&str] = &[
        "天水",
        "秦州",
        "麦积",
        "甘谷",
        "武山",
        "清水",
        "秦安",
        "张家川",
    ];
    for (stem, names) in places {
        let (reg, _, _) = regulation(stem);
        let plan = field_plan(&reg, stem, 5, &Sizes::default());
        let field = generate(&plan);
        assert_eq!(
            field,
            generate(&field_plan(&reg, stem, 5, &Sizes::default()))
        );
        let mut n = 0;
        for e in &field.entries {
            for u in [&e.unit, &e.association].into_iter().flatten() {
                n += 1;
                assert!(names.iter().any(|p| u.contains(p)), "{stem}: {u}");
                if stem.starts_with("tianshui") && e.section == "local" {
                    assert!(TIANSHUI_OWN.iter().any(|p| u.contains(p)), "local: {u}");
                }
            }
        }
        assert!(n > 0, "{stem}: no units at all");
    }
}

/// The section-wide outcomes (one pass over the rounds) and the pairing-number index the
/// fold keeps agree with the per-player reading of the log, at every 150th entry of the four
/// simulated events and at their end.
#[test]
fn section_outcomes_and_numbers_agree_with_the_per_player_reading() {
    for stem in [
        "kunshan-2026",
        "suzhou-2025",
        "jiujiang-2020",
        "tianshui-2024",
    ] {
        let (log, _, _) = run(stem, 3, &Sizes::default());
        let mut state = EventState::new();
        let mut checked = 0;
        for (i, r) in log.iter().enumerate() {
            state.apply(r).unwrap();
            if i % 150 != 0 && i + 1 != log.len() {
                continue;
            }
            for (id, rec) in &state.sections {
                let all = state.section_outcomes(id);
                for p in state.players(id) {
                    assert_eq!(
                        all.get(&p.id).cloned().unwrap_or_default(),
                        state.outcomes(p.id),
                        "{stem} seq {}: {id} player {:?}",
                        r.seq,
                        p.id
                    );
                    let by_scan = rec
                        .order
                        .iter()
                        .position(|&q| q == p.id)
                        .map(arbiter_types::PlayerNo::from_index);
                    assert_eq!(rec.pairing_no(p.id), by_scan, "{stem} {id} {:?}", p.id);
                    checked += 1;
                }
            }
        }
        assert!(checked > 300, "{stem}: only {checked} players checked");
    }
}

/// A settings change reaches the regulation the next operation reads, though the state
/// before it had its regulation parsed already (the fold drops the parsed copy).
#[test]
fn a_settings_change_is_read_after_the_regulation_was_parsed() {
    let (log, _, _) = run("tianshui-2024", 1, &Sizes::default());
    let at = log
        .iter()
        .position(|r| matches!(r.entry, LogEntry::RoundPaired { .. }))
        .unwrap();
    let mut state = EventState::replay(&log[..at]).unwrap();
    let before = arbiter_director::regulation_of(&state).unwrap();
    let sec = before.sections[0].id.clone();
    let rounds = before.sections[0].format.rounds.unwrap_or(7) + 2;
    let shared = state.clone();
    state
        .apply(&Recorded {
            seq: state.last_seq + 1,
            at: log[at].at.clone(),
            actor: "裁判长".into(),
            entry: LogEntry::SettingsChanged {
                name: Some("改名后的赛事".into()),
                start: None,
                end: None,
                venue: None,
                deadline: None,
                age_on: None,
                rounds: [(sec.clone(), rounds)].into_iter().collect(),
                time_controls: Default::default(),
                placed_units: Default::default(),
                reason: "测试".into(),
            },
        })
        .unwrap();
    let after = arbiter_director::regulation_of(&state).unwrap();
    assert_eq!(after.event.name, "改名后的赛事");
    assert_eq!(after.section(&sec).unwrap().format.rounds, Some(rounds));
    // The clone taken before the change still reads the regulation it was made with.
    let old = arbiter_director::regulation_of(&shared).unwrap();
    assert_eq!(old.event.name, before.event.name);
    assert_ne!(old.event.name, after.event.name);
}
