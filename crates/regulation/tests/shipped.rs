//! The four shipped regulation files parse and say what the seeds say.

use arbiter_regulation::*;
use arbiter_types::{Fallback, GameKind, SameTeam, Score, Sex, TiebreakName};

const KUNSHAN: &str = include_str!("../../../regulations/kunshan-2026.toml");

fn load(src: &str, name: &str) -> Regulation {
    match parse(src, name) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn kunshan_parses_with_men_and_women() {
    let r = load(KUNSHAN, "kunshan-2026.toml");
    let ids: Vec<&str> = r.sections.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["men", "women"]);
}

#[test]
fn all_parse_smoke() {
    for (src, n) in [
        (
            include_str!("../../../regulations/suzhou-2025.toml"),
            "suzhou",
        ),
        (
            include_str!("../../../regulations/jiujiang-2020.toml"),
            "jiujiang",
        ),
        (
            include_str!("../../../regulations/tianshui-2024.toml"),
            "tianshui",
        ),
    ] {
        load(src, n);
    }
}
