//! A plain knockout section (`format.kind = "knockout"`) of any size up to MAX_BRACKET
//! (1,024): the cap checked against the largest bracket with the section named, the entry
//! past it refused without a cap, and the summary's rounds and places lines.

use arbiter_regulation::summary::Lang;
use arbiter_regulation::*;

fn knockout(entries: &str, variant: &str, extra: &str) -> String {
    format!(
        r#"
[event]
name = "淘汰赛"
start = 2026-10-01
end = 2026-10-03
{extra}
[[sections]]
id = "open"
name = "公开组"
{entries}
[sections.format]
kind = "knockout"

[sections.format.knockout]
variant = "{variant}"

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10
increment_seconds = 5

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
black_minutes = 3
"#
    )
}

/// The file without its knockout table (the last table of [`knockout`]), for the same section
/// as a Swiss or a two-stage one.
fn without_knockout_table(s: String) -> String {
    match s.find("[sections.format.knockout]") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

fn section_block(summary: &str, id: &str) -> Vec<String> {
    let head = format!("[{id}]");
    summary
        .lines()
        .skip_while(|l| !l.starts_with(&head))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

fn line<'a>(block: &'a [String], label: &str) -> Option<&'a str> {
    block
        .iter()
        .find(|l| l.starts_with(label))
        .map(|s| s.as_str())
}

#[test]
fn a_knockout_takes_up_to_1024_and_a_larger_cap_is_refused_naming_the_section() {
    assert_eq!(MAX_BRACKET, 1024);
    for cap in [33, 64, 100, 200, 1024] {
        let src = knockout(&format!("entries = {{ cap = {cap} }}"), "single", "");
        let r = parse(&src, "k.toml").unwrap_or_else(|e| panic!("cap {cap}: {e}"));
        assert_eq!(r.sections[0].entries.cap, Some(cap));
    }
    let src = knockout("entries = { cap = 1025 }", "single", "");
    let e = parse(&src, "k.toml").unwrap_err().to_string();
    assert!(e.starts_with("k.toml:12:"), "{e}");
    assert!(
        e.contains("组别「公开组」为淘汰赛，最多 1024 人，但报名上限为 1025 人"),
        "{e}"
    );
    assert!(
        e.contains("section `open` is a knockout of at most 1024 players"),
        "{e}"
    );
    // The event's cap, inherited by a section without its own, is named as such.
    let src = knockout("", "placement", "\n[registration]\ncap = 2000\n");
    let e = parse(&src, "k.toml").unwrap_err().to_string();
    assert!(
        e.contains("本组没有自己的报名上限，将可容纳全部 2000 人"),
        "{e}"
    );
    assert!(e.contains("give it an entries.cap"), "{e}");
    // A placement bracket of any size is accepted: every player plays every round.
    let src = knockout("entries = { cap = 1024 }", "placement", "");
    assert!(parse(&src, "k.toml").is_ok());
}

#[test]
fn without_a_cap_the_entry_past_the_largest_bracket_is_refused() {
    let r = parse(&knockout("", "single", ""), "k.toml").unwrap();
    let open = &r.sections[0];
    let facts = |n: u32| EntryFacts {
        section_total: n,
        ..EntryFacts::default()
    };
    assert_eq!(open.check_entry(&facts(1023)), Ok(()));
    let refusal = open.check_entry(&facts(1024)).unwrap_err();
    assert_eq!(refusal.code, "section_full");
    assert!(
        refusal.zh.contains("淘汰赛") && refusal.zh.contains("1024"),
        "{refusal:?}"
    );
    // A Swiss section keeps the larger bound.
    let swiss = without_knockout_table(
        knockout("", "single", "").replace("kind = \"knockout\"", "kind = \"swiss\"\nrounds = 7"),
    );
    let r = parse(&swiss, "s.toml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.sections[0].check_entry(&facts(1024)), Ok(()));
}

#[test]
fn max_rounds_of_a_plain_knockout_is_that_of_the_largest_bracket() {
    let r = parse(&knockout("", "single", ""), "k.toml").unwrap();
    assert_eq!(max_rounds(&r.sections[0].format), 10);
    // Seven scheduled rounds fit a bracket of 128 (100 players).
    let src = knockout(
        "entries = { cap = 100 }\nschedule = [2026-10-01T09:00:00, 2026-10-01T14:00:00, 2026-10-02T09:00:00, 2026-10-02T14:00:00, 2026-10-03T09:00:00, 2026-10-03T13:00:00, 2026-10-03T16:00:00]",
        "third_place",
        "",
    );
    assert!(parse(&src, "k.toml").is_ok());
}

#[test]
fn the_summary_of_a_knockout_states_how_places_are_decided_not_tiebreaks() {
    for (variant, zh, en) in [
        ("single", "并列第三、并列第五", "share a place (3rd, 5th"),
        ("third_place", "第一至第四名", "1st to 4th"),
        (
            "placement",
            "每个名次都由对局决出",
            "every place is decided by games",
        ),
    ] {
        let r = parse(&knockout("entries = { cap = 100 }", variant, ""), "k.toml").unwrap();
        let zh_text = r.summary(Lang::Zh);
        let b = section_block(&zh_text, "open");
        assert_eq!(line(&b, "名次区分:"), None, "{variant}: {b:#?}");
        let places = line(&b, "名次:").unwrap_or_else(|| panic!("{b:#?}"));
        assert!(
            places.starts_with("名次: 由对阵决出") && places.contains(zh),
            "{places}"
        );
        assert!(!places.contains("不适用"), "{places}");
        assert_eq!(
            line(&b, "轮数:"),
            Some("轮数: 由人数决定（报名上限100人，最多7轮）")
        );
        let en_text = r.summary(Lang::En);
        let b = section_block(&en_text, "open");
        assert_eq!(line(&b, "Tie-breaks:"), None, "{b:#?}");
        let places = line(&b, "Places:").unwrap_or_else(|| panic!("{b:#?}"));
        assert!(places.contains(en), "{places}");
    }
    // Without a cap: the largest bracket; tie-breaks named anyway are said not to apply.
    let src = knockout("tiebreaks = \"kunshan\"", "single", "");
    let r = parse(&src, "k.toml").unwrap_or_else(|e| panic!("{e}"));
    let zh_text = r.summary(Lang::Zh);
    let b = section_block(&zh_text, "open");
    assert_eq!(
        line(&b, "轮数:"),
        Some("轮数: 由人数决定（最多1024人、10轮）")
    );
    assert!(
        line(&b, "名次:").is_some_and(|l| l.ends_with("规程所列名次区分方法不适用于淘汰赛")),
        "{b:#?}"
    );
    // A Swiss section keeps its tie-break line.
    let swiss = without_knockout_table(
        knockout("", "single", "").replace("kind = \"knockout\"", "kind = \"swiss\"\nrounds = 7"),
    );
    let r = parse(&swiss, "s.toml").unwrap();
    let zh_text = r.summary(Lang::Zh);
    assert!(line(&section_block(&zh_text, "open"), "名次区分:").is_some());
}

#[test]
fn swiss_then_knockout_sizes_are_the_powers_of_two_up_to_1024() {
    let two_stage = |size: u32| {
        without_knockout_table(knockout("", "single", "").replace(
            "kind = \"knockout\"",
            &format!("kind = \"swiss_then_knockout\"\nrounds = 9\nknockout = {{ size = {size} }}"),
        ))
    };
    for size in [2, 8, 32, 64, 128, 1024] {
        let r = parse(&two_stage(size), "t.toml").unwrap_or_else(|e| panic!("{size}: {e}"));
        assert_eq!(
            r.sections[0].format.knockout.as_ref().map(|k| k.size),
            Some(size)
        );
    }
    for size in [6, 48, 2048] {
        let e = parse(&two_stage(size), "t.toml").unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "淘汰人数 {size} 须为 2、4、8、16、32 …… 至 1024 之一"
            )),
            "{e}"
        );
    }
}
