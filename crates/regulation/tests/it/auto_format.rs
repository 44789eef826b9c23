//! A7 / S4: a section of `kind = "auto"` plays a double round robin below 5 entries, a single
//! round robin below 8, and the Swiss from 8 on — the defaults when the regulation sets no
//! thresholds — and the regulation's own thresholds when it sets them.

use arbiter_regulation::*;

fn section_format(format: &str) -> Format {
    let src = format!(
        "[event]\nname = \"x\"\nstart = 2024-07-26\nend = 2024-07-28\n[[sections]]\nid = \"open\"\nname = \"公开组\"\nformat = {format}\ntiebreaks = \"tianshui\"\n"
    );
    let r = parse(&src, "auto.toml").unwrap_or_else(|e| panic!("{e}"));
    r.sections[0].format.clone()
}

#[test]
fn default_thresholds_double_below_5_single_below_8() {
    let f = section_format("{ kind = \"auto\", rounds = 7 }");
    assert_eq!(f.effective(2), EffectiveFormat::DoubleRoundRobin);
    assert_eq!(f.effective(4), EffectiveFormat::DoubleRoundRobin);
    assert_eq!(f.effective(5), EffectiveFormat::RoundRobin);
    assert_eq!(f.effective(7), EffectiveFormat::RoundRobin);
    assert_eq!(f.effective(8), EffectiveFormat::Swiss { rounds: 7 });
    assert_eq!(f.effective(100), EffectiveFormat::Swiss { rounds: 7 });
}

#[test]
fn thresholds_set_by_the_regulation() {
    let f = section_format(
        "{ kind = \"auto\", rounds = 9, single_rr_below = 11, double_rr_below = 4 }",
    );
    assert_eq!(f.effective(3), EffectiveFormat::DoubleRoundRobin);
    assert_eq!(f.effective(4), EffectiveFormat::RoundRobin);
    assert_eq!(f.effective(10), EffectiveFormat::RoundRobin);
    assert_eq!(f.effective(11), EffectiveFormat::Swiss { rounds: 9 });
}
