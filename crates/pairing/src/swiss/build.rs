//! Building the pairing of a solved round: boards in print order, colours by A2's "Colour
//! of a pair", and the explanation of every pair, float and the bye in the arbiter's terms.

use super::*;

pub(super) fn score_str(h: i64) -> String {
    arbiter_types::Score::from_halves(h).to_string()
}

/// The explanation of a float (C1 counts boundaries crossed): the higher player of the pair
/// at ranking position `x` floats down to the group of `y`. "10号 4分组 为奇数，下调至 3分组
/// 对 7号": the group is odd (by itself, or with a player floated into it), or has no legal
/// opponent left for him; a float past a group says that the group between could not take
/// him.
pub(super) fn float_text(p: &Problem, x: usize, y: usize) -> String {
    let (a, b) = (&p.infos[p.order[x]], &p.infos[p.order[y]]);
    let (ga, gb) = (p.group_of[x], p.group_of[y]);
    let (hi, lo) = (score_str(a.score), score_str(b.score));
    // Players at or above group ga: odd means a float across the boundary below it.
    let above: usize = p.group_size[..=ga].iter().sum();
    let (why_zh, why_en) = if above.is_multiple_of(2) {
        (
            "组内无合规对手".to_string(),
            "no legal opponent left in the group".to_string(),
        )
    } else if p.group_size[ga] % 2 == 1 {
        ("为奇数".to_string(), "odd group".to_string())
    } else {
        (
            "连同下调来的棋手为奇数".to_string(),
            "odd with the player floated into it".to_string(),
        )
    };
    let mut zh = format!(
        "{}号 {hi}分组 {why_zh}，下调至 {lo}分组 对 {}号",
        a.no, b.no
    );
    let mut en = format!(
        "{} floats down from the {hi}-point group ({why_en}) to the {lo}-point group against {}",
        a.no, b.no
    );
    let skipped = gb - ga - 1;
    if skipped > 0 {
        zh.push_str(&format!("，越过 {skipped} 个分组 (其间分组无法合规接纳)"));
        en.push_str(&format!(
            ", past {skipped} group(s) that could not take him in a valid pairing"
        ));
    }
    format!("{zh} ({en})")
}

/// Why the rule was relaxed, in Chinese and English.
fn escalation_text(why: Escalation, rule_zh: &str, rule_en: &str) -> (String, String) {
    match why {
        Escalation::DeadEnd => (
            format!("本轮满足{rule_zh}的编排都会使余下轮次无法编完"),
            format!("every pairing of this round that keeps {rule_en} leaves the rest of the stage unpairable"),
        ),
        _ => (
            format!("本轮没有满足{rule_zh}的编排"),
            format!("no pairing of this round keeps {rule_en}"),
        ),
    }
}

/// The notes of the rules this pairing relaxes (A2 as amended): who breaks H5, which pairs
/// meet again (H1) and which team-mates meet (H4, a manual round only), with the reason.
/// The board texts of those pairs say the same.
fn relaxed_notes(
    p: &Problem,
    mate: &[Option<usize>],
    why: Escalation,
    group_text: &mut BTreeMap<usize, String>,
) -> Vec<String> {
    let infos = p.infos;
    let s = &p.state.settings;
    let md = i64::from(s.max_colour_diff);
    let nt = s.no_three_in_a_row;
    let in_field: BTreeSet<PlayerNo> = p.order.iter().map(|&i| infos[i].no).collect();
    let mut notes = Vec::new();
    for (x, m) in mate.iter().enumerate() {
        let Some(y) = *m else { continue };
        if y < x {
            continue;
        }
        let (a, b) = (&infos[p.order[x]], &infos[p.order[y]]);
        if let Some(&(times, last)) = a.meetings.get(&b.no) {
            let k = times + 1;
            // Whether one of the two has met everyone else in the field.
            let met_all = [a, b].into_iter().find(|i| {
                in_field
                    .iter()
                    .all(|no| *no == i.no || i.meetings.contains_key(no))
            });
            let (why_zh, why_en) = match met_all {
                Some(i) => (
                    format!("{}号 已与本轮其余所有棋手相遇", i.no),
                    format!("{} has met every other player of this round", i.no),
                ),
                None => escalation_text(why.max(Escalation::NoPairing), "不重复相遇", "H1"),
            };
            let text = format!(
                "H1 放宽: {}号 与 {}号 第{k}次相遇 (上次第{last}轮)：{why_zh}                  (rematch: {} and {} meet for time {k}, last in round {last}: {why_en})",
                a.no, b.no, a.no, b.no
            );
            group_text
                .entry(x)
                .or_default()
                .push_str(&format!("；第{k}次相遇 (rematch)"));
            notes.push(text);
        }
        let same_team = matches!((a.team, b.team), (Some(u), Some(v)) if u == v);
        if same_team && s.same_team == SameTeam::Hard && p.relax >= Relax::Teams {
            group_text
                .entry(x)
                .or_default()
                .push_str("；同队相遇 (team-mates)");
            notes.push(format!(
                "H4 放宽: {}号 与 {}号 同队：其余棋手在同队回避下无法配对                  (team-mates {} and {} meet: the other players cannot be paired without it)",
                a.no, b.no, a.no, b.no
            ));
        }
        let (red, _, _) = colours(a, b, p.round, s);
        let (ra, rb) = if red == a.no {
            (Colour::Red, Colour::Black)
        } else {
            (Colour::Black, Colour::Red)
        };
        for (i, c) in [(a, ra), (b, rb)] {
            if let Some((zh, en)) = colour::h5_reason(i, c, md, nt) {
                let (why_zh, why_en) = if p.relax >= Relax::Colours {
                    escalation_text(why, "颜色限制", "H5")
                } else {
                    (
                        "末轮放宽颜色限制".to_string(),
                        "the last round relaxes the colour limits".to_string(),
                    )
                };
                notes.push(format!(
                    "H5 放宽: {}号 {zh}：{why_zh}，取违反颜色限制人数最少的编排                      ({} {en}: {why_en}; the pairing with the fewest players breaking it)",
                    i.no, i.no
                ));
            }
        }
    }
    notes
}

pub(super) fn build(
    p: &Problem,
    fixed: &[(usize, usize)],
    mate: &[Option<usize>],
    why: Escalation,
) -> Result<Pairing, PairingError> {
    let infos = p.infos;
    let s = &p.state.settings;
    let mut extra: BTreeMap<usize, String> = BTreeMap::new();
    let relaxed = relaxed_notes(p, mate, why, &mut extra);
    // (high score, low score, best rank, board)
    let mut rows: Vec<((i64, i64, usize), Board)> = Vec::new();
    let rank_of: BTreeMap<usize, usize> =
        p.order.iter().enumerate().map(|(r, &i)| (i, r)).collect();
    let mut bye = None;
    let mut bye_why = None;
    let push = |a: usize, b: usize, group: String, rows: &mut Vec<((i64, i64, usize), Board)>| {
        let (ia, ib) = (&infos[a], &infos[b]);
        let (red, black, why) = colours(ia, ib, p.round, s);
        let hi = ia.score.max(ib.score);
        let lo = ia.score.min(ib.score);
        let rank = |i: usize| rank_of.get(&i).copied().unwrap_or(usize::MAX);
        let best = rank(a).min(rank(b));
        rows.push((
            (-hi, -lo, best),
            Board {
                board: 0,
                red,
                black,
                why: Explanation { group, colour: why },
            },
        ));
    };
    for &(a, b) in fixed {
        push(
            a,
            b,
            "裁判指定配对 (pair fixed by the arbiter)".to_string(),
            &mut rows,
        );
    }
    for (x, m) in mate.iter().enumerate() {
        match *m {
            None => {
                let i = p.order[x];
                let no = infos[i].no;
                bye = Some(no);
                let prior = if infos[i].byes == 0 {
                    "未轮空过"
                } else {
                    "轮空次数最少"
                };
                let sc = score_str(infos[i].score);
                // Lowest score among the bye-eligible players (H3): CB puts the bye there
                // unless no valid pairing allows it.
                let lowest = (0..p.order.len())
                    .filter(|&z| p.bye_eligible[z])
                    .map(|z| infos[p.order[z]].score)
                    .min()
                    .unwrap_or(infos[i].score);
                let last_in_group = !(x + 1..p.order.len())
                    .any(|z| p.group_of[z] == p.group_of[x] && p.bye_eligible[z]);
                let (who_zh, who_en) = if last_in_group {
                    ("组内排名最低的", "the lowest-ranked eligible player there")
                } else {
                    (
                        "组内按配对优化选定的",
                        "chosen in the group by the pairing criteria",
                    )
                };
                bye_why = Some(if infos[i].score == lowest {
                    format!(
                        "人数为奇数，{sc}分组是可轮空的最低分组，{no}号 ({sc}分) 为{who_zh}{prior}棋手，轮空按胜局计分 (odd number of players: the {sc}-point group is the lowest score group where a bye is possible; player {no} is {who_en}; the bye scores as a win)"
                    )
                } else {
                    format!(
                        "人数为奇数，{ls}分组的可轮空棋手轮空后其余棋手无法合规配对，轮空上移至 {sc}分组，{no}号 ({sc}分) 为{who_zh}{prior}棋手，轮空按胜局计分 (odd number of players: no valid pairing gives the bye to the {ls}-point group, so it moves up; the {sc}-point group is the lowest score group where a bye is possible; player {no} is {who_en}; the bye scores as a win)",
                        ls = score_str(lowest)
                    )
                });
            }
            Some(y) if y > x => {
                let (a, b) = (p.order[x], p.order[y]);
                let (ga, gb) = (p.group_of[x], p.group_of[y]);
                let mut group = if ga == gb {
                    format!("同分组 {}分 (same score group)", score_str(infos[a].score))
                } else {
                    float_text(p, x, y)
                };
                if let Some(t) = extra.get(&x) {
                    group.push_str(t);
                }
                push(a, b, group, &mut rows);
            }
            Some(_) => {}
        }
    }
    rows.sort_by_key(|r| r.0);
    let boards = rows
        .into_iter()
        .enumerate()
        .map(|(k, (_, mut bd))| {
            bd.board = k as u32 + 1;
            bd
        })
        .collect();
    Ok(Pairing {
        round: p.round,
        boards,
        bye,
        bye_why,
        relaxed,
    })
}
