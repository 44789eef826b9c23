//! Colours (rules.md A2): the colour rule (fewer reds − blacks plays red, then the latest
//! round where the colours differed, then the `equal_history` setting), and A2's "Colour
//! of a pair": H5 constrains the colours, not the pair, so the order that keeps H5 wins
//! over the colour rule.

use super::*;

/// The A2 colour rule alone (fewer reds − blacks plays red, then the latest round where the
/// colours differed, then the `equal_history` setting): returns (red, black, reason).
/// [`colours`] lets H5 overrule it.
pub(crate) fn allocate(
    a: &Info,
    b: &Info,
    round: u32,
    rule: EqualHistoryColour,
) -> (PlayerNo, PlayerNo, String) {
    let rb = |i: &Info| format!("红黑 {}:{}", i.reds, i.blacks);
    if a.diff != b.diff {
        let (r, k) = if a.diff < b.diff { (a, b) } else { (b, a) };
        let why = format!(
            "{}号 红黑差较少应走红 ({}号 {}, {}号 {}; fewer reds minus blacks plays red)",
            r.no,
            r.no,
            rb(r),
            k.no,
            rb(k)
        );
        return (r.no, k.no, why);
    }
    // Same difference: the latest round where both had a colour and they differ.
    let ca: BTreeMap<u32, Colour> = a.colours.iter().copied().collect();
    for &(rd, cb) in b.colours.iter().rev() {
        if let Some(&col_a) = ca.get(&rd) {
            if col_a != cb {
                let (r, k) = if col_a == Colour::Black {
                    (a, b)
                } else {
                    (b, a)
                };
                let why = format!(
                    "红黑差相同，第{rd}轮 {}号 走黑，本轮走红 (equal balance; {} had black in round {rd})",
                    r.no, r.no
                );
                return (r.no, k.no, why);
            }
        }
    }
    let (small, large) = if a.no < b.no {
        (a.no, b.no)
    } else {
        (b.no, a.no)
    };
    let small_red = match rule {
        EqualHistoryColour::OddRoundSmallRed => round % 2 == 1,
        EqualHistoryColour::NumberSumOddSmallRed => (small.get() + large.get()) % 2 == 1,
    };
    let why = match (rule, small_red) {
        (EqualHistoryColour::OddRoundSmallRed, true) => {
            "同色历史，奇数轮小号先 (identical histories: odd round, smaller number red)"
        }
        (EqualHistoryColour::OddRoundSmallRed, false) => {
            "同色历史，偶数轮大号先 (identical histories: even round, larger number red)"
        }
        (EqualHistoryColour::NumberSumOddSmallRed, true) => {
            "同色历史，序号和为奇数小号先 (identical histories: odd number sum, smaller number red)"
        }
        (EqualHistoryColour::NumberSumOddSmallRed, false) => {
            "同色历史，序号和为偶数大号先 (identical histories: even number sum, larger number red)"
        }
    };
    if small_red {
        (small, large, why.to_string())
    } else {
        (large, small, why.to_string())
    }
}

/// Whether `a` gets red against `b` under the A2 rule: the same decision as [`allocate`],
/// without building the explanation (the matching asks this for every candidate pair).
pub(crate) fn a_gets_red(a: &Info, b: &Info, round: u32, rule: EqualHistoryColour) -> bool {
    if a.diff != b.diff {
        return a.diff < b.diff;
    }
    // Latest round where both had a colour and the colours differ: black then gets red.
    let (mut i, mut j) = (a.colours.len(), b.colours.len());
    while i > 0 && j > 0 {
        let (ra, ca) = a.colours[i - 1];
        let (rb, cb) = b.colours[j - 1];
        match ra.cmp(&rb) {
            std::cmp::Ordering::Greater => i -= 1,
            std::cmp::Ordering::Less => j -= 1,
            std::cmp::Ordering::Equal => {
                if ca != cb {
                    return ca == Colour::Black;
                }
                i -= 1;
                j -= 1;
            }
        }
    }
    let small_red = match rule {
        EqualHistoryColour::OddRoundSmallRed => round % 2 == 1,
        EqualHistoryColour::NumberSumOddSmallRed => (a.no.get() + b.no.get()) % 2 == 1,
    };
    (a.no < b.no) == small_red
}

/// The colour order of one pair under A2 ("Colour of a pair"): H5 constrains the colours,
/// not the pair, so the two orders are weighed before the colour rule speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PairOrder {
    /// Whether `a` gets red.
    pub a_red: bool,
    /// Whether the colour rule alone gives `a` red.
    pub rule_a_red: bool,
    /// Players breaking H5 in the chosen order: 0 when an order keeps both within H5 (then
    /// the pair is legal); otherwise the fewest of the two orders (C0 in a relaxed last
    /// round; the pair is illegal in any other round).
    pub breakers: u64,
    /// C3 of the pair: whether a player misses his due colour in every order with the
    /// fewest H5 breakers (A2 counts each pair in its better order).
    pub miss: bool,
}

/// Players breaking H5 when `a` gets red (`a_red`) or black against `b`.
pub(super) fn breakers(a: &Info, b: &Info, a_red: bool, max_diff: i64, no_three: bool) -> u64 {
    let (ca, cb) = if a_red {
        (Colour::Red, Colour::Black)
    } else {
        (Colour::Black, Colour::Red)
    };
    u64::from(a.breaks_h5(ca, max_diff, no_three)) + u64::from(b.breaks_h5(cb, max_diff, no_three))
}

/// Whether a player misses his due colour (C3) when `a` gets red (`a_red`) or black.
pub(super) fn misses_due(a: &Info, b: &Info, a_red: bool) -> bool {
    let (ca, cb) = if a_red {
        (Colour::Red, Colour::Black)
    } else {
        (Colour::Black, Colour::Red)
    };
    a.due().is_some_and(|d| d != ca) || b.due().is_some_and(|d| d != cb)
}

/// A2 "Colour of a pair": if one order has fewer players breaking H5 than the other (outside
/// a relaxed last round: if only one keeps both within H5), that order; otherwise the colour
/// rule ([`a_gets_red`]).
pub(crate) fn pair_order(
    a: &Info,
    b: &Info,
    round: u32,
    s: &arbiter_types::PairingSettings,
) -> PairOrder {
    let rule = a_gets_red(a, b, round, s.equal_history);
    let md = i64::from(s.max_colour_diff);
    let nt = s.no_three_in_a_row;
    let (by_rule, other) = (breakers(a, b, rule, md, nt), breakers(a, b, !rule, md, nt));
    let a_red = if other < by_rule { !rule } else { rule };
    let miss = if other == by_rule {
        misses_due(a, b, rule) && misses_due(a, b, !rule)
    } else {
        misses_due(a, b, a_red)
    };
    PairOrder {
        a_red,
        rule_a_red: rule,
        breakers: by_rule.min(other),
        miss,
    }
}

/// Why playing `c` this round breaks H5 for `i`, in Chinese and English, or `None`.
pub(super) fn h5_reason(
    i: &Info,
    c: Colour,
    max_diff: i64,
    no_three: bool,
) -> Option<(String, String)> {
    let (zh, en) = match c {
        Colour::Red => ("红", "red"),
        Colour::Black => ("黑", "black"),
    };
    if no_three && i.last() == Some(c) && i.streak() >= 2 {
        return Some((
            format!("将连续三次走{zh}"),
            format!("would play {en} a third time in a row"),
        ));
    }
    let d = i.diff + if c == Colour::Red { 1 } else { -1 };
    (d.abs() > max_diff).then(|| {
        (
            format!("走{zh}后红黑之差将超过 {max_diff}"),
            format!("would have reds and blacks more than {max_diff} apart after playing {en}"),
        )
    })
}

/// The colours of a pair with the reason (A2 "Colour of a pair"): returns (red, black,
/// reason). The colour rule's order ([`allocate`]) unless H5 overrules it.
pub(crate) fn colours(
    a: &Info,
    b: &Info,
    round: u32,
    s: &arbiter_types::PairingSettings,
) -> (PlayerNo, PlayerNo, String) {
    let o = pair_order(a, b, round, s);
    let (rule_red, rule_black, why) = allocate(a, b, round, s.equal_history);
    let md = i64::from(s.max_colour_diff);
    let nt = s.no_three_in_a_row;
    if o.a_red == o.rule_a_red {
        if o.breakers == 0 {
            return (rule_red, rule_black, why);
        }
        let note = "两种颜色顺序违反颜色限制的人数相同，按颜色规则 (both orders break the colour limits for as many players: the colour rule decides)";
        return (rule_red, rule_black, format!("{why}; {note}"));
    }
    // H5 overrules the colour rule: name who would break it in the rule's order.
    let (ra, rb) = if o.rule_a_red {
        (Colour::Red, Colour::Black)
    } else {
        (Colour::Black, Colour::Red)
    };
    let (breaker, reason) = [(a, ra), (b, rb)]
        .into_iter()
        .find_map(|(i, c)| h5_reason(i, c, md, nt).map(|r| (i.no, r)))
        .unwrap_or((rule_black, (String::new(), String::new())));
    let (red, black) = (rule_black, rule_red);
    let text = if o.breakers == 0 {
        format!(
            "按颜色规则 {rule_red}号 应走红，但 {breaker}号 {}，故 {red}号 走红 (by the colour rule {rule_red} would play red, but {breaker} {}; so {red} plays red)",
            reason.0, reason.1
        )
    } else {
        format!(
            "按颜色规则 {rule_red}号 应走红，但 {breaker}号 {}，取违反颜色限制人数较少的顺序，{red}号 走红 (by the colour rule {rule_red} would play red, but {breaker} {}; the order with fewer players breaking the colour limits: {red} plays red)",
            reason.0, reason.1
        )
    };
    (red, black, text)
}
