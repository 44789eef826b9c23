//! 段位、棋士等级与称号 (issue 46): the `[grades]` scale, the sections' grade rules and numbering
//! by grade — each impossible or unknown one refused at its line.

use arbiter_regulation::parse;

const BASE: &str = r#"[event]
name = "测试赛"
start = 2026-01-01
end = 2026-01-02

[grades]
scale = ["业余1段", "业余2段", "业余3段", "业余4段", "业余5段", "地方大师",
         { name = "象棋大师", aliases = ["国家级运动健将"] }]

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 7 }
tiebreaks = "cxa-2011-opp"
"#;

fn err(src: &str) -> String {
    match parse(src, "t.toml") {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_section_reads_its_grade_rules_on_the_scale() {
    let src = format!(
        "{BASE}[sections.eligibility]\nmin_grade = \"业余五段\"\nbelow_grade = \"国家级运动健将\"\n"
    );
    let reg = parse(&src, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    let el = &reg.sections[0].eligibility;
    let (min, below) = &el.grade_bounds;
    assert_eq!(
        min.as_ref().map(|g| (g.rank, g.name.as_str())),
        Some((4, "业余5段"))
    );
    assert_eq!(
        below.as_ref().map(|g| (g.rank, g.name.as_str())),
        Some((6, "象棋大师"))
    );
    let sec = &reg.sections[0];
    assert_eq!(sec.check_grade(None).unwrap_err().code, "grade_required");
    let four = reg.grades.find("业余4段");
    assert_eq!(
        sec.check_grade(four.as_ref()).unwrap_err().code,
        "grade_too_low"
    );
    let master = reg.grades.find("地方大师");
    assert!(sec.check_grade(master.as_ref()).is_ok());
    let top = reg.grades.find("象棋大师");
    assert_eq!(
        sec.check_grade(top.as_ref()).unwrap_err().code,
        "grade_too_high"
    );
    // The summary 「regulation check」 prints says the rule in words.
    let text = reg.summary(arbiter_regulation::summary::Lang::Zh);
    assert!(text.contains("须业余5段及以上"), "{text}");
    assert!(text.contains("未获得象棋大师以上称号"), "{text}");
    assert!(text.contains("段位/称号 (由低到高): 业余1段、"), "{text}");
}

#[test]
fn a_grade_not_on_the_scale_is_refused_at_its_line() {
    let src = format!("{BASE}[sections.eligibility]\nmin_grade = \"业余9段\"\n");
    let e = err(&src);
    assert!(e.starts_with("t.toml:16:13:"), "{e}");
    assert!(e.contains("段位表中没有 「业余9段」"), "{e}");
    assert!(e.contains("业余1段、业余2段"), "{e}");
}

#[test]
fn rules_that_admit_nobody_are_refused() {
    let src = format!(
        "{BASE}[sections.eligibility]\nmin_grade = \"地方大师\"\nbelow_grade = \"业余3段\"\n"
    );
    let e = err(&src);
    assert!(e.starts_with("t.toml:17:15:"), "{e}");
    assert!(e.contains("无人可报名"), "{e}");
}

#[test]
fn a_grade_rule_or_numbering_by_grade_needs_a_scale() {
    let no_scale = BASE.replace(
        "[grades]\nscale = [\"业余1段\", \"业余2段\", \"业余3段\", \"业余4段\", \"业余5段\", \"地方大师\",\n         { name = \"象棋大师\", aliases = [\"国家级运动健将\"] }]\n",
        "",
    );
    assert_ne!(no_scale, BASE);
    let e = err(&format!(
        "{no_scale}[sections.eligibility]\nbelow_grade = \"象棋大师\"\n"
    ));
    assert!(e.contains("`below_grade` 需要段位表"), "{e}");
    let e = err(&format!(
        "{no_scale}pairing = {{ numbering = \"grade\" }}\n"
    ));
    assert!(e.contains("按段位排定序号需要段位表"), "{e}");
    // With the scale, numbering by grade is accepted.
    assert!(parse(
        &format!("{BASE}pairing = {{ numbering = \"grade\" }}\n"),
        "t.toml"
    )
    .is_ok());
}

#[test]
fn a_grade_written_twice_on_the_scale_is_refused() {
    let src = BASE.replace("\"业余2段\"", "\"业余二段\", \"业余2段\"");
    let e = err(&src);
    assert!(e.starts_with("t.toml:7:"), "{e}");
    assert!(e.contains("在段位表中出现两次"), "{e}");
}

/// 种子签 (周庄杯 十二a2 「设8个种子签，七段以上棋手得列种子签」): a plain knockout's seeds and
/// their grade read on the scale; the impossible ones refused at their line.
#[test]
fn a_knockouts_seeded_places_and_their_grade() {
    let knockout = |extra: &str| {
        BASE.replace(
            "format = { kind = \"swiss\", rounds = 7 }\n",
            "",
        ) + "[sections.format]\nkind = \"knockout\"\n[sections.format.knockout]\nvariant = \"single\"\n"
            + "time_controls = [{ kind = \"slow\", minutes = 30 }, { kind = \"rapid\", minutes = 10 }, { kind = \"armageddon\", minutes = 5 }]\n"
            + extra
    };
    let r = parse(
        &knockout("seeds = 8\nseed_min_grade = \"业余五段\"\n"),
        "t.toml",
    )
    .unwrap();
    let k = r.sections[0].format.knockout.as_ref().unwrap();
    assert_eq!(k.seeds, Some(8));
    assert_eq!(
        k.seed_grade.as_ref().map(|g| g.name.as_str()),
        Some("业余5段")
    );
    let summary = r.summary(arbiter_regulation::summary::Lang::Zh);
    assert!(
        summary.contains("设8个种子签，业余5段及以上棋手得列种子签"),
        "{summary}"
    );

    let src = knockout("seeds = 0\n");
    let line = src.lines().position(|l| l == "seeds = 0").unwrap() + 1;
    let e = err(&src);
    assert!(e.starts_with(&format!("t.toml:{line}:")), "{e}");
    assert!(e.contains("种子签数须至少为 1"), "{e}");
    let e = err(&knockout("seeds = 600\n"));
    assert!(e.contains("超过最大对阵表"), "{e}");
    let e = err(&knockout("seed_min_grade = \"业余五段\"\n"));
    assert!(e.contains("须与种子签数 `seeds` 一起给出"), "{e}");
    let e = err(&knockout("seeds = 4\nseed_min_grade = \"业余九段\"\n"));
    assert!(e.contains("段位表中没有 「业余九段」"), "{e}");
    // A later stage's seeds are the earlier stage's places.
    let two_stage = BASE.replace(
        "format = { kind = \"swiss\", rounds = 7 }\n",
        "",
    ) + "[sections.format]\nkind = \"swiss_then_knockout\"\nrounds = 7\n[sections.format.knockout]\nsize = 8\nseeds = 4\n";
    let e = err(&two_stage);
    assert!(e.contains("种子签只用于淘汰赛"), "{e}");
}
