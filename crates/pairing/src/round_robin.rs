//! Round robin (循环制, rules.md A7 / Part B §5.1): Berger tables and double round robin.
//! (The choice of format by field size, `auto` in a regulation, is the regulation crate's
//! `Format::effective`, with the thresholds the regulation sets.)
//!
//! Numbers in the tables are 1-based table numbers (签号); the first-listed number of a board
//! plays red. With an odd number of players the table's extra number `M = N + 1` is a dummy:
//! whoever meets it has the bye, which is returned explicitly and never as a board.

use crate::{Availability, Board, Explanation, Pairing, PairingError, SectionState};

/// One round of a round-robin table: boards `(red, black)` in print order, and the number
/// that meets the dummy (odd fields only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobinRound {
    pub boards: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// The table size `M` ("最大号"): `n` rounded up to even.
pub fn table_size(n: usize) -> usize {
    n + n % 2
}

/// Rounds of one cycle for `n` players (`M − 1`; 0 for fewer than 2 players).
pub fn rounds_per_cycle(n: usize) -> usize {
    if n < 2 {
        0
    } else {
        table_size(n) - 1
    }
}

/// The full Berger table for an even `m` (dummy included): `m − 1` rounds of `m / 2`
/// boards `(red, black)`, board 1 first. Part B §5.1 algorithm.
fn full_table(m: usize) -> Vec<Vec<(usize, usize)>> {
    if m < 2 {
        return Vec::new();
    }
    let cyc = m - 1;
    let half = m / 2;
    (0..cyc)
        .map(|k| {
            let s = (k * half) % cyc;
            let seq: Vec<usize> = (0..cyc).map(|i| (s + i) % cyc + 1).collect();
            let first = if k % 2 == 0 { (seq[0], m) } else { (m, seq[0]) };
            let mut boards = Vec::with_capacity(half);
            boards.push(first);
            boards.extend((1..half).map(|i| (seq[i], seq[cyc - i])));
            boards
        })
        .collect()
}

/// The single round-robin Berger table for `n` players: `rounds_per_cycle(n)` rounds. With
/// odd `n` the dummy's board is removed and its opponent is `bye`.
pub fn berger(n: usize) -> Vec<RoundRobinRound> {
    let m = table_size(n);
    full_table(m)
        .into_iter()
        .map(|boards| {
            if m == n {
                return RoundRobinRound { boards, bye: None };
            }
            let mut bye = None;
            let boards = boards
                .into_iter()
                .filter(|&(r, b)| {
                    if r == m {
                        bye = Some(b);
                    } else if b == m {
                        bye = Some(r);
                    }
                    r != m && b != m
                })
                .collect();
            RoundRobinRound { boards, bye }
        })
        .collect()
}

/// Double round robin: the Berger table, then the same table with colours swapped.
pub fn double_berger(n: usize) -> Vec<RoundRobinRound> {
    let first = berger(n);
    let second: Vec<RoundRobinRound> = first
        .iter()
        .map(|r| RoundRobinRound {
            boards: r.boards.iter().map(|&(a, b)| (b, a)).collect(),
            bye: r.bye,
        })
        .collect();
    first.into_iter().chain(second).collect()
}

/// The round-robin pairing of `round` (1-based) for a section.
///
/// Table number `k` is the `k`-th player of the section by pairing number (so numbers
/// 1..N give the table directly). `cycles` is 1 (single) or 2 (double; colours swapped in
/// the second cycle). The schedule of a round robin is fixed: a player who cannot play
/// (withdrawn, unpaid, absent) keeps the board, and the explanation says the game is to
/// be scored as a forfeit (Part B §5.4); annulment of results is the caller's decision.
pub fn pair_round_robin(
    state: &SectionState,
    round: u32,
    cycles: u32,
) -> Result<Pairing, PairingError> {
    let mut players: Vec<&crate::Entrant> = state.players.iter().collect();
    players.sort_by_key(|e| e.no);
    by_codes(players, round, cycles)
}

/// [`pair_round_robin`] with the Berger codes in the order of `state.players` (the first
/// player code 1), not by pairing number: a group whose codes were drawn (各小组再抽取比赛代号).
pub fn pair_round_robin_by_codes(
    state: &SectionState,
    round: u32,
    cycles: u32,
) -> Result<Pairing, PairingError> {
    by_codes(state.players.iter().collect(), round, cycles)
}

/// The round robin's round `round` with player `k` of `players` as code `k + 1`.
fn by_codes(
    players: Vec<&crate::Entrant>,
    round: u32,
    cycles: u32,
) -> Result<Pairing, PairingError> {
    let mut nos: Vec<_> = players.iter().map(|e| e.no).collect();
    nos.sort_unstable();
    if nos.windows(2).any(|w| w[0] == w[1]) {
        return Err(PairingError::BadInput(
            "棋手序号重复 (duplicate pairing numbers)".to_string(),
        ));
    }
    let n = players.len();
    if n < 2 {
        return Err(PairingError::BadInput(format!(
            "循环赛至少需要 2 名棋手，现有 {n} 名 (a round robin needs at least 2 players)"
        )));
    }
    if !(1..=2).contains(&cycles) {
        return Err(PairingError::BadInput(format!(
            "循环次数只能是 1 或 2，给出 {cycles} (cycles must be 1 or 2)"
        )));
    }
    let table = if cycles == 2 {
        double_berger(n)
    } else {
        berger(n)
    };
    let total = table.len();
    let idx = (round as usize)
        .checked_sub(1)
        .filter(|&i| i < total)
        .ok_or_else(|| PairingError::NoValidPairing {
            reason_zh: format!("第{round}轮超出循环赛轮数 {total}"),
            reason_en: format!("round {round} is outside the round robin's {total} rounds"),
        })?;
    let rr = &table[idx];
    let per_cycle = rounds_per_cycle(n);
    let cycle_zh = if idx >= per_cycle {
        "第二循环，先后手互换"
    } else {
        "第一循环"
    };
    let no = |k: usize| players[k - 1].no;
    let unavailable = |k: usize| players[k - 1].availability != Availability::Active;
    let boards = rr
        .boards
        .iter()
        .enumerate()
        .map(|(i, &(r, b))| {
            let mut group = format!(
                "贝格尔表 第{}轮 第{}台: {r}-{b} ({cycle_zh}; Berger table)",
                idx % per_cycle + 1,
                i + 1
            );
            for k in [r, b] {
                if unavailable(k) {
                    group.push_str(&format!(
                        "; {}号 不能出赛，按弃权处理 (cannot play: forfeit)",
                        no(k)
                    ));
                }
            }
            Board {
                board: i as u32 + 1,
                red: no(r),
                black: no(b),
                why: Explanation {
                    group,
                    colour: format!("表中先列者执红 ({} first-listed plays red)", no(r)),
                },
            }
        })
        .collect();
    Ok(Pairing {
        round,
        boards,
        bye: rr.bye.map(no),
        bye_why: rr.bye.map(|k| {
            format!(
                "人数为奇数，{}号 对空号轮空 (odd field: meets the dummy number {})",
                no(k),
                table_size(n)
            )
        }),
        relaxed: Vec::new(),
    })
}
