//! Synthetic fields of any size: generated team names stay distinct (a cap of 638 once gave
//! a unit a seventh team named like its sixth).

use arbiter_simulate::{Simulator, Sizes};
use std::collections::BTreeSet;

#[test]
fn generated_team_names_are_distinct_at_large_caps() {
    let path = format!(
        "{}/../../regulations/kunshan-2026.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).unwrap();
    let reg = arbiter_regulation::parse(&src, &path).unwrap();
    for n in [638usize, 1000, 2000, 5000] {
        let sizes = Sizes {
            all: Some(n),
            ..Sizes::default()
        };
        let sim = Simulator::new(reg.clone(), &src, "kunshan-2026.toml", 1, &sizes);
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
