//! Synthetic fields of any size: generated team names stay distinct (a cap of 638 once gave
//! a unit a seventh team named like its sixth).

use crate::common;

use common::*;
use std::collections::BTreeSet;

#[test]
fn generated_team_names_are_distinct_at_large_caps() {
    for n in [638usize, 1000, 2000, 5000] {
        let sim = simulator("kunshan-2026", 1, &sizes_all(n));
        let teams = &sim.field.teams;
        assert!(!teams.is_empty(), "{n}: no teams");
        let mut seen = BTreeSet::new();
        for t in teams {
            assert!(
                seen.insert((t.section.clone(), t.name.clone())),
                "{n}: team name {} given twice",
                t.name
            );
        }
    }
}
