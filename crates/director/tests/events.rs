//! The four reference regulations simulated end to end in memory (no store): every expected
//! refusal happens with its own reason, every round is played, and `verify` finds nothing.

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::simulate::{Simulator, Sizes};
use arbiter_director::synth::{BadKind, Expect};
use arbiter_director::{publish, verify};
use std::collections::BTreeMap;

fn regulation(stem: &str) -> (arbiter_regulation::Regulation, String, String) {
    let path = format!(
        "{}/../../regulations/{stem}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).unwrap();
    let reg = arbiter_regulation::parse(&src, &path).unwrap();
    (reg, src, format!("{stem}.toml"))
}

/// Run a whole event; returns the log and the simulator.
pub fn run(stem: &str, seed: u64, sizes: &Sizes) -> (Vec<Recorded>, EventState, Simulator) {
    let (reg, src, file) = regulation(stem);
    let mut sim = Simulator::new(reg, &src, &file, seed, sizes);
    let mut state = EventState::new();
    let mut log = Vec::new();
    while let Some(b) = sim
        .next_batch(&state)
        .unwrap_or_else(|e| panic!("{stem} seed {seed}: {e}"))
    {
        for e in b.entries {
            let r = Recorded {
                seq: state.last_seq + 1,
                at: b.at.clone(),
                actor: b.actor.clone(),
                entry: e,
            };
            state
                .apply(&r)
                .unwrap_or_else(|e| panic!("{stem} seed {seed}: {e}"));
            log.push(r);
        }
    }
    (log, state, sim)
}

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
