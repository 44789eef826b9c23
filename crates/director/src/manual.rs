//! Manual pairing (裁判长指定 / 调换): fixed pairs, swapping two players of the engine's
//! pairing, the checker's warnings on the result, an explanation of every board and how one
//! pairing is worse than the optimum under C0–C5. Used by `round pair` on an event and by
//! `pair` on a TRF file alike.

use arbiter_pairing::checker::{Objective, Violation};
use arbiter_pairing::{Pairing, PairingError, SectionState};
use arbiter_types::PlayerNo;

/// Why a manual pairing could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManualError {
    /// A fixed pair or a swap names a number the section does not have (1..=n).
    #[error("序号 {no} 不存在: 本组序号为 1–{n} (no such pairing number)")]
    NoSuchNumber { no: PlayerNo, n: u32 },
    /// The engine failed on the players nobody fixed (a bad input, or no pairing at all).
    #[error("{0}")]
    Engine(PairingError),
    /// The swap does not fit the pairing (same player twice, same board, not paired).
    #[error("{0}")]
    Swap(String),
}

/// A pairing with the arbiter's changes (A3b): the boards, every hard rule it breaks (the
/// arbiter decides and is told), and what the arbiter did, one line each, for the log.
#[derive(Debug, Clone)]
pub struct ByHand {
    pub pairing: Pairing,
    pub warnings: Vec<Violation>,
    pub notes: Vec<String>,
}

fn check_numbers(
    state: &SectionState,
    numbers: impl IntoIterator<Item = PlayerNo>,
) -> Result<(), ManualError> {
    let n = state.players.len() as u32;
    match numbers.into_iter().find(|x| x.get() > n) {
        Some(no) => Err(ManualError::NoSuchNumber { no, n }),
        None => Ok(()),
    }
}

/// The engine's pairing of Swiss round `round` around the pairs the arbiter fixed (A3b):
/// the fixed pairs are placed first and the engine pairs everyone else (nobody when every
/// player is fixed), so a round the engine alone cannot pair can always be paired by hand.
/// With nothing fixed: round 1 by A3 (lots from `seed`), later rounds by A2. Used by `round
/// pair` on an event and by `pair` on a TRF file alike.
pub fn engine_pairing(
    state: &SectionState,
    round: u32,
    seed: u64,
    fixed: &[(PlayerNo, PlayerNo)],
) -> Result<Pairing, ManualError> {
    check_numbers(state, fixed.iter().flat_map(|&(a, b)| [a, b]))?;
    if !fixed.is_empty() {
        arbiter_pairing::pair_with_fixed(state, round, fixed)
    } else if round == 1 {
        arbiter_pairing::round1::pair_round1(state, seed)
    } else {
        arbiter_pairing::pair_swiss(state, round)
    }
    .map_err(ManualError::Engine)
}

/// The arbiter's changes on top of the engine's pairing `engine` (A3b): the fixed boards
/// marked as his, then the swap, then every hard rule the result breaks as a warning.
pub fn by_hand(
    state: &SectionState,
    round: u32,
    engine: Pairing,
    fixed: &[(PlayerNo, PlayerNo)],
    swap: Option<(PlayerNo, PlayerNo)>,
) -> Result<ByHand, ManualError> {
    check_numbers(state, swap.iter().flat_map(|&(a, b)| [a, b]))?;
    let mut p = engine;
    mark_fixed(&mut p, fixed);
    let mut notes: Vec<String> = fixed
        .iter()
        .map(|(a, b)| format!("裁判长指定 {a}号–{b}号 (pair fixed by the arbiter)"))
        .collect();
    if let Some((a, b)) = swap {
        p = apply_swap(state, round, &p, a, b).map_err(ManualError::Swap)?;
        notes.push(format!(
            "裁判长调换 {a}号/{b}号 (players swapped by the arbiter)"
        ));
    }
    Ok(ByHand {
        warnings: warnings(state, round, &p),
        pairing: p,
        notes,
    })
}

/// Parse `--fix A-B` values into pairs of pairing numbers.
pub fn parse_fixes(items: &[String]) -> Result<Vec<(PlayerNo, PlayerNo)>, String> {
    items
        .iter()
        .map(|item| {
            let parse = |x: &str| -> Option<PlayerNo> {
                x.trim().parse::<u32>().ok().and_then(PlayerNo::new)
            };
            match item.split_once('-') {
                Some((x, y)) => match (parse(x), parse(y)) {
                    (Some(x), Some(y)) if x != y => Ok((x, y)),
                    (Some(_), Some(_)) => Err(format!(
                        "固定对阵 {item}: 不能与自己配对 (a player cannot be paired with itself)"
                    )),
                    _ => Err(format!(
                        "固定对阵 {item}: 序号应为正整数 (start numbers are positive whole numbers)"
                    )),
                },
                None => Err(format!(
                    "固定对阵 {item}: 应为 A-B, 如 3-7 (expected A-B, e.g. 3-7)"
                )),
            }
        })
        .collect()
}

/// The two players of a swap (调换), as numbers already read (`--swap 3 8`).
pub fn parse_swap(numbers: &[u32]) -> Result<(PlayerNo, PlayerNo), String> {
    match numbers {
        &[x, y] => match (PlayerNo::new(x), PlayerNo::new(y)) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err(format!(
                "调换 {x} {y}: 序号应为正整数 (pairing numbers are positive)"
            )),
        },
        _ => Err("调换需要两个序号, 例如 3 8 (a swap takes two pairing numbers)".into()),
    }
}

/// The two players of a swap typed as text: `3 8`, `3,8` or `3-8`.
pub fn parse_swap_text(text: &str) -> Result<(PlayerNo, PlayerNo), String> {
    let numbers: Option<Vec<u32>> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '，' || c == '-')
        .filter(|x| !x.is_empty())
        .map(|x| x.parse::<u32>().ok())
        .collect();
    match numbers {
        Some(n) if n.len() == 2 => parse_swap(&n),
        _ => Err(format!(
            "调换 「{text}」: 应为两个序号, 例如 3 8 (swap takes two pairing numbers)"
        )),
    }
}

/// Where a player sits in a pairing: board index and side (red = true), or the bye.
fn seat(p: &Pairing, no: PlayerNo) -> Option<(Option<usize>, bool)> {
    if p.bye == Some(no) {
        return Some((None, false));
    }
    p.boards.iter().enumerate().find_map(|(i, b)| {
        if b.red == no {
            Some((Some(i), true))
        } else if b.black == no {
            Some((Some(i), false))
        } else {
            None
        }
    })
}

/// Mark the boards of `p` that are fixed pairs as the arbiter's.
pub fn mark_fixed(p: &mut Pairing, fixed: &[(PlayerNo, PlayerNo)]) {
    let key = |x: PlayerNo, y: PlayerNo| (x.min(y), x.max(y));
    for board in &mut p.boards {
        if fixed
            .iter()
            .any(|&(x, y)| key(x, y) == key(board.red, board.black))
        {
            board.why.group = "裁判长指定 (fixed by the arbiter)".to_string();
        }
    }
}

/// `--swap A B`: the engine's pairing with A and B exchanged between their boards (or the
/// bye), everything else kept. After round 1 the new pairs get their colours and board order
/// by A2 (via the engine with every pair fixed); in round 1 (A3: colours by board parity), or
/// if the engine refuses, each player simply takes the other's seat.
pub fn apply_swap(
    state: &SectionState,
    round: u32,
    p: &Pairing,
    a: PlayerNo,
    b: PlayerNo,
) -> Result<Pairing, String> {
    if a == b {
        return Err(format!(
            "调换 {a} {b}: 两个序号相同 (the same player twice)"
        ));
    }
    let (Some(sa), Some(sb)) = (seat(p, a), seat(p, b)) else {
        let missing = if seat(p, a).is_none() { a } else { b };
        return Err(format!(
            "调换: {missing}号 不在本轮编排中 (player {missing} is not paired this round)"
        ));
    };
    if sa.0.is_some() && sa.0 == sb.0 {
        return Err(format!(
            "调换 {a} {b}: 两人同台, 无可调换 (same board: nothing to swap)"
        ));
    }
    let sub = |x: PlayerNo| {
        if x == a {
            b
        } else if x == b {
            a
        } else {
            x
        }
    };
    let mut manual = p.clone();
    for board in &mut manual.boards {
        board.red = sub(board.red);
        board.black = sub(board.black);
    }
    manual.bye = p.bye.map(sub);
    let pairs: Vec<(PlayerNo, PlayerNo)> = manual.boards.iter().map(|b| (b.red, b.black)).collect();
    let mut out = if round > 1 {
        match arbiter_pairing::pair_with_fixed(state, round, &pairs) {
            Ok(q) if q.bye == manual.bye => q,
            _ => manual,
        }
    } else {
        manual
    };
    let key = |x: PlayerNo, y: PlayerNo| (x.min(y), x.max(y));
    for board in &mut out.boards {
        let k = key(board.red, board.black);
        match p.boards.iter().find(|o| key(o.red, o.black) == k) {
            Some(o) => board.why.group = o.why.group.clone(),
            None => {
                board.why.group = format!("裁判长调换 {a}号/{b}号 (players swapped by the arbiter)")
            }
        }
    }
    if out.bye != p.bye {
        out.bye_why = out
            .bye
            .map(|no| format!("裁判长调换 {a}号/{b}号: {no}号 轮空 (bye swapped by the arbiter)"));
    } else {
        out.bye_why = p.bye_why.clone();
    }
    Ok(out)
}

/// Every hard rule a manual pairing breaks, none relaxed (A3b: the arbiter decides and is
/// told; round 1 follows A3's colours, not A2).
pub fn warnings(state: &SectionState, round: u32, p: &Pairing) -> Vec<Violation> {
    arbiter_pairing::checker::check_strict(state, round, p)
        .into_iter()
        .filter(|v| !(round == 1 && matches!(v, Violation::ColourRule { .. })))
        .collect()
}

/// A warning of the checker in an arbiter's words, with the players named (`name` gives
/// 「3号 张三」) and no rule code: what the desk shows before a change is recorded. The CLI
/// keeps the checker's own wording ([`Violation`]'s `Display`).
pub fn in_words(v: &Violation, state: &SectionState, name: &dyn Fn(PlayerNo) -> String) -> String {
    use arbiter_types::Colour;
    let colour = |c: Colour| match c {
        Colour::Red => "红",
        Colour::Black => "黑",
    };
    match v {
        Violation::Rematch(a, b) => {
            let met: Vec<String> = state
                .players
                .iter()
                .find(|p| p.no == *a)
                .map(|p| {
                    p.history
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| o.opponent() == Some(*b))
                        .map(|(i, _)| format!("第{}轮", i + 1))
                        .collect()
                })
                .unwrap_or_default();
            if met.is_empty() {
                format!("{} 与 {} 已交手", name(*a), name(*b))
            } else {
                format!("{} 与 {} {}已交手", name(*a), name(*b), met.join("、"))
            }
        }
        Violation::SameTeam(a, b) => format!("{} 与 {} 同单位相遇", name(*a), name(*b)),
        Violation::ColourLimit {
            player,
            colour: c,
            three_in_a_row: true,
        } => format!("{} 连续三轮执{}", name(*player), colour(*c)),
        Violation::ColourLimit {
            player, colour: c, ..
        } => format!("{} 再执{}则红黑局数相差过多", name(*player), colour(*c)),
        Violation::ColourRule {
            board,
            expected_red,
            reason,
        } => format!("第{board}台 应由 {} 执红 ({reason})", name(*expected_red)),
        Violation::ByeNotEligible(p) => {
            format!("{} 不应轮空: 另有棋手轮空次数更少", name(*p))
        }
        Violation::Unavailable(p) => format!("{} 本轮不能上场, 却被编排", name(*p)),
        Violation::Completion { rounds_left } => {
            format!("这样编排后, 余下{rounds_left}轮将无法避免重复交手")
        }
        Violation::Missing(p) => format!("{} 没有被编排", name(*p)),
        Violation::PairedTwice(p) => format!("{} 被编排了两次", name(*p)),
        other => other.to_string(),
    }
}

/// Every board with its reasons (score group / float, colour) and the bye, one line each.
pub fn explanation(p: &Pairing) -> String {
    let mut out = format!("第{}轮 编排说明 (round {} explanation)\n", p.round, p.round);
    for b in &p.boards {
        out.push_str(&format!(
            "第{}台 {}–{}: {}; {}\n",
            b.board, b.red, b.black, b.why.group, b.why.colour
        ));
    }
    if let Some(bye) = p.bye {
        out.push_str(&format!(
            "轮空 bye {bye}: {}\n",
            p.bye_why.as_deref().unwrap_or("")
        ));
    }
    out
}

/// How the objective `rec` is worse than the optimum `opt`: the first criterion (C0–C5) on
/// which they differ.
pub fn worse_by(rec: &Objective, opt: &Objective) -> String {
    if (rec.rematches, rec.rematch_rounds) != (opt.rematches, opt.rematch_rounds) {
        format!(
            "H1 重复相遇 (rematches, then the rounds of their last meetings) {}/{} > {}/{}",
            rec.rematches, rec.rematch_rounds, opt.rematches, opt.rematch_rounds
        )
    } else if rec.c0 != opt.c0 {
        format!(
            "C0 颜色超限人数 (players breaking H5) {} > {}",
            rec.c0, opt.c0
        )
    } else if rec.bye_score != opt.bye_score {
        format!(
            "CB 轮空者分数 (score of the bye's recipient, half-points) {} > {}",
            rec.bye_score, opt.bye_score
        )
    } else if rec.floaters != opt.floaters {
        format!(
            "C1 跨越各分组界线的对局数 (pairs crossing each score-group boundary, top down) {:?} > {:?}",
            rec.floaters, opt.floaters
        )
    } else if rec.gaps != opt.gaps {
        format!(
            "C2 各分组分差 (score gaps in half-points per group) {:?} > {:?}",
            rec.gaps, opt.gaps
        )
    } else if rec.colour_misses != opt.colour_misses {
        format!(
            "C3 未得应得颜色的对局 (pairs missing a due colour) {} > {}",
            rec.colour_misses, opt.colour_misses
        )
    } else if rec.same_team != opt.same_team {
        format!(
            "C4 同队对局 (team-mate pairs) {} > {}",
            rec.same_team, opt.same_team
        )
    } else {
        format!(
            "C5 连续浮动 (repeated floats) {} > {}",
            rec.repeated_floats, opt.repeated_floats
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_reads_two_positive_numbers_however_typed() {
        let p = |n| PlayerNo::new(n).unwrap();
        for text in ["3 8", "3,8", "3-8", " 3，8 "] {
            assert_eq!(parse_swap_text(text), Ok((p(3), p(8))), "{text}");
        }
        for text in ["3", "3 8 9", "3 x", "0 8", ""] {
            let e = parse_swap_text(text).unwrap_err();
            assert!(e.contains("序号"), "{text}: {e}");
        }
        assert_eq!(parse_swap(&[5, 1]), Ok((p(5), p(1))));
        assert!(parse_swap(&[5]).is_err());
        assert!(parse_swap(&[0, 1]).is_err());
    }
}
