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

pub(super) fn build(
    p: &Problem,
    fixed: &[(usize, usize)],
    mate: &[Option<usize>],
) -> Result<Pairing, PairingError> {
    let infos = p.infos;
    let s = &p.state.settings;
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
                let group = if ga == gb {
                    format!("同分组 {}分 (same score group)", score_str(infos[a].score))
                } else {
                    float_text(p, x, y)
                };
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
    })
}
