//! The regulation's `armageddon_draw_black_wins` reaches the knockout matches (K7, T3).

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::knockout_stage::match_settings;
use arbiter_director::verify;
use arbiter_simulate::{Simulator, Sizes};
use arbiter_types::{GameKind, GameResult};
use std::collections::BTreeMap;

fn source(stem: &str) -> String {
    let path = format!(
        "{}/../../regulations/{stem}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn run(src: &str, file: &str, seed: u64, sizes: &Sizes) -> (Vec<Recorded>, EventState) {
    let reg = arbiter_regulation::parse(src, file).unwrap();
    Simulator::new(reg, src, file, seed, sizes)
        .run_in_memory()
        .unwrap()
}

#[test]
fn the_setting_follows_the_regulation() {
    let src = source("tianshui-2024");
    let reg = arbiter_regulation::parse(&src, "tianshui-2024.toml").unwrap();
    let open = reg.section("open").unwrap();
    assert!(match_settings(open, 1).armageddon_draw_black_wins);
    let off = src.replace(
        "armageddon_draw_black_wins = true",
        "armageddon_draw_black_wins = false",
    );
    assert_ne!(off, src);
    let reg = arbiter_regulation::parse(&off, "tianshui-2024.toml").unwrap();
    assert!(!match_settings(reg.section("open").unwrap(), 1).armageddon_draw_black_wins);
}

#[test]
fn without_black_wins_no_match_ends_on_a_drawn_armageddon_and_verify_passes() {
    let off = source("tianshui-2024").replace(
        "armageddon_draw_black_wins = true",
        "armageddon_draw_black_wins = false",
    );
    let sizes = Sizes {
        by_section: [("open".to_string(), 24), ("local".to_string(), 0)].into(),
        ..Sizes::default()
    };
    for seed in 1..=3 {
        let (log, state) = run(&off, "tianshui-2024.toml", seed, &sizes);
        assert!(verify(&log, None).is_empty(), "seed {seed}");
        let mut last: BTreeMap<String, (GameKind, GameResult)> = BTreeMap::new();
        for g in &state.section("open").unwrap().knockout {
            last.insert(g.match_id.clone(), (g.kind, g.result));
        }
        assert!(!last.is_empty());
        for (id, (kind, result)) in &last {
            assert!(
                !(*kind == GameKind::Armageddon && *result == GameResult::Draw),
                "seed {seed}: match {id} ended on a drawn armageddon"
            );
        }
        assert!(log
            .iter()
            .any(|r| matches!(r.entry, LogEntry::KnockoutGameRecorded { .. })));
    }
}
