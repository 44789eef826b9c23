//! The regulation's `armageddon_draw_black_wins` reaches the knockout matches (K7, T3).

use crate::common;

use arbiter_core::LogEntry;
use arbiter_director::knockout_stage::match_settings;
use arbiter_director::verify;
use arbiter_types::{GameKind, GameResult};
use common::*;
use std::collections::BTreeMap;

#[test]
fn the_setting_follows_the_regulation() {
    // 天水 八(二) gives the 附加赛 no 「和棋黑胜」 (a reading, docs/rules.md A19); 昆山 K7 does.
    let src = source("tianshui-2024");
    let reg = arbiter_regulation::parse(&src, "tianshui-2024.toml").unwrap();
    assert!(!match_settings(reg.section("open").unwrap(), 1).armageddon_draw_black_wins);
    let on = src.replace(
        "armageddon_draw_black_wins = false",
        "armageddon_draw_black_wins = true",
    );
    assert_ne!(on, src);
    let reg = arbiter_regulation::parse(&on, "tianshui-2024.toml").unwrap();
    assert!(match_settings(reg.section("open").unwrap(), 1).armageddon_draw_black_wins);
}

#[test]
fn without_black_wins_no_match_ends_on_a_drawn_armageddon_and_verify_passes() {
    // 天水 as written: a drawn 附加赛 is played again (八(二)).
    let off = source("tianshui-2024");
    assert!(off.contains("armageddon_draw_black_wins = false"));
    let sizes = sizes_by_section(&[("open", 24), ("local", 0)]);
    for seed in 1..=3 {
        let (log, state) = simulator_of(&off, "tianshui-2024", seed, &sizes)
            .run_in_memory()
            .unwrap();
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
