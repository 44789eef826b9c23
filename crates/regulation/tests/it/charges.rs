//! Money items (`[[registration.charges]]`): fees and deposits by name, amounts by flag or
//! category, refund rules, and the refusals of nonsense with their line.

use arbiter_regulation::summary::Lang;
use arbiter_regulation::*;

const BASE: &str = include_str!("../fixtures/charges-base.toml");

fn facts(flags: &[&str], born: Option<&str>) -> EntryFacts {
    EntryFacts {
        flags: flags.iter().map(|s| s.to_string()).collect(),
        birth_date: born.and_then(|b| b.parse().ok()),
        ..EntryFacts::default()
    }
}

fn owed(reg: &Regulation, f: &EntryFacts) -> Vec<(String, u64)> {
    reg.dues("open", f)
        .into_iter()
        .map(|d| (d.name, d.fen))
        .collect()
}

#[test]
fn charges_owed_by_flag_locals_free() {
    let reg = parse(BASE, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        owed(&reg, &facts(&[], None)),
        vec![("报名费".to_string(), 10_000), ("押金".to_string(), 20_000)]
    );
    assert_eq!(
        owed(&reg, &facts(&["local"], None)),
        vec![("报名费".to_string(), 0), ("押金".to_string(), 0)]
    );
    let d = reg.dues("open", &facts(&[], None));
    assert_eq!(d[1].refund_at, Some(RefundAt::LastRound));
    assert_eq!(d[1].refund_conditions, vec!["完成全部对局", "未弃权"]);
    assert_eq!(reg.refund_conditions(), vec!["完成全部对局", "未弃权"]);
}

#[test]
fn charges_amount_by_category_first_that_applies() {
    let src = BASE.replace(
        "free_for_flags = [\"本地棋手\"]\n",
        "amounts = [{ category = \"u12\", yuan = 50 }, { flag = \"local\", yuan = 30, fen = 50 }]\n",
    );
    let reg = parse(&src, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(owed(&reg, &facts(&[], Some("2015-03-01")))[0].1, 5_000);
    assert_eq!(
        owed(&reg, &facts(&["local"], Some("2000-03-01")))[0].1,
        3_050
    );
    assert_eq!(owed(&reg, &facts(&[], Some("2000-03-01")))[0].1, 10_000);
}

#[test]
fn charges_the_single_fee_keeps_its_meaning() {
    let src = "[event]\nname = \"测试赛\"\nstart = 2026-01-01\nend = 2026-01-02\n\n[registration]\nfee = { yuan = 80, fen = 50 }\n\n[[sections]]\nid = \"open\"\nname = \"公开组\"\nformat = { kind = \"swiss\", rounds = 7 }\n";
    let reg = parse(src, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    assert!(reg.registration.charges.is_empty());
    assert_eq!(
        owed(&reg, &facts(&["local"], None)),
        vec![("报名费".to_string(), 8_050)]
    );
    assert_eq!(
        reg.charge_names(),
        vec![("报名费".to_string(), ChargeKind::Fee)]
    );
}

#[test]
fn charges_summary_lists_the_items_in_chinese() {
    let reg = parse(BASE, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    let zh = reg.summary(Lang::Zh);
    assert!(
        zh.contains("收费项目 报名费 (费用): 100元；本地棋手免缴\n"),
        "{zh}"
    );
    assert!(
        zh.contains("收费项目 押金 (押金): 200元；本地棋手免缴；最后一轮结束后退还；退还条件: 「完成全部对局」「未弃权」\n"),
        "{zh}"
    );
}

fn refused(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    match parse(&BASE.replacen(from, to, 1), "t.toml") {
        Ok(_) => panic!("accepted: {to}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn charges_nonsense_refused_with_its_line() {
    let cases = [
        ("yuan = 100", "yuan = -100", "应为非负整数, 实为整数 `-100`"),
        ("yuan = 100", "yuan = 0", "金额须大于0"),
        (
            "name = \"押金\"",
            "name = \"报名费\"",
            "收费项目「报名费」重复",
        ),
        (
            "free_for_flags = [\"本地棋手\"]",
            "free_for_flags = [\"本地\"]",
            "标记「本地」不是本规程的标记",
        ),
        (
            "yuan = 100\n",
            "yuan = 100\nfree_for_categories = [\"u99\"]\n",
            "类别 `u99` 不存在",
        ),
        (
            "yuan = 100\n",
            "yuan = 100\nrefund_at = \"closing\"\n",
            "费用不退还",
        ),
        ("refund_at = \"last_round\"\n", "", "须写明 refund_at"),
        (
            "refund_at = \"last_round\"\nrefund_conditions = [\"完成全部对局\", \"未弃权\"]",
            "refund_at = \"on_conditions\"",
            "须写明 refund_conditions",
        ),
        (
            "[registration]\n",
            "[registration]\nfee = { yuan = 100 }\n",
            "不能同时使用",
        ),
    ];
    for (from, to, want) in cases {
        let e = refused(from, to);
        assert!(e.contains(want), "{to}: {e}");
        assert!(e.starts_with("t.toml:"), "{to}: no line in {e}");
    }
    // The line of a duplicate name is the second item's.
    let e = refused("name = \"押金\"", "name = \"报名费\"");
    assert!(e.starts_with("t.toml:16:"), "{e}");
}
