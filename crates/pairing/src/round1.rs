//! Round 1 (rules.md A3, A4; Part B §3.2–3.4): drawing pairing numbers by lot, the four
//! pairing modes, round-1 colours, the bye and same-team avoidance.
//!
//! Randomness comes only from the `seed` argument (ChaCha8), which the caller stores in the
//! event log, so a draw can be repeated exactly.

use crate::{Availability, Board, Entrant, Explanation, Pairing, PairingError, SectionState};
use arbiter_types::{Colour, PlayerNo, Round1Colour, Round1Pairing, SameTeam};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Draw pairing numbers by lot (抽签): `result[i]` is the 1-based number drawn by the
/// `i`-th entrant (entry order). Always a permutation of `1..=n`; the same seed gives the
/// same draw.
pub fn draw_numbers(n: usize, seed: u64) -> Vec<usize> {
    let mut numbers: Vec<usize> = (1..=n).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    numbers.shuffle(&mut rng);
    numbers
}

/// One pair before colours: `top` is the upper-half (or first-listed) player, `bottom` the
/// lower-half player — the one exchanged by same-team avoidance.
#[derive(Debug, Clone)]
struct Slot<'a> {
    top: &'a Entrant,
    bottom: &'a Entrant,
    swapped: Option<String>,
}

fn same_team(a: &Entrant, b: &Entrant) -> bool {
    matches!((a.team, b.team), (Some(x), Some(y)) if x == y)
}

fn mode_zh(mode: Round1Pairing) -> &'static str {
    match mode {
        Round1Pairing::Slide => "拦腰 (slide: upper half v lower half)",
        Round1Pairing::Fold => "首尾 (fold: first v last)",
        Round1Pairing::Adjacent => "临近 (adjacent)",
        Round1Pairing::Random => "随机 (upper half v lower half by lot)",
    }
}

/// Pair round 1 of a section (A3).
///
/// Players who are not `Active` are skipped (H2); the others are taken in pairing-number
/// order. With an odd count the highest number (the lowest-ranked player in round 1) gets the
/// bye (A4), printed after the last board. Modes: `slide` 1–(h+1), 2–(h+2), …; `fold` 1–n,
/// 2–(n−1), …; `adjacent` 1–2, 3–4, …; `random` each upper-half player against a lower-half
/// player drawn by lot. Boards are numbered in the order of their upper-half player.
/// Colours per `round1_colour`: the default gives red to the smaller number on odd boards
/// and to the larger number on even boards; `lots` draws each board's colours.
/// When `same_team` is `round1`, `hard` or `soft`, a pair of team-mates exchanges its
/// lower-half player with the nearest pair (the following pair first, then the preceding
/// one, then further away) for which neither new pair is a team-mate pair; this repeats
/// until no such pair is left or no exchange can remove one. With `round1` and `soft` a pair
/// left then stays ("as far as possible"). With `hard` (H4: team-mates never meet) the
/// lower-half players are then re-assigned by a bipartite matching (augmenting paths from the
/// clashing pairs, nearest boards first), which parts every team-mate pair whenever any
/// pairing does: that is exactly when no team has more than half of the players to pair. With
/// an odd count the bye moves up from the last number only if the last number's bye would
/// leave such a team. Otherwise [`PairingError::NoValidPairing`] names the team.
pub fn pair_round1(state: &SectionState, seed: u64) -> Result<Pairing, PairingError> {
    let mut all: Vec<&Entrant> = state.players.iter().collect();
    all.sort_by_key(|e| e.no);
    if let Some(w) = all.windows(2).find(|w| w[0].no == w[1].no) {
        return Err(PairingError::BadInput(format!(
            "棋手序号 {} 重复 (duplicate pairing number {})",
            w[0].no, w[0].no
        )));
    }
    let mut players: Vec<&Entrant> = all
        .into_iter()
        .filter(|e| e.availability == Availability::Active)
        .collect();
    let settings = &state.settings;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);

    let hard = settings.same_team == SameTeam::Hard;
    let (bye, bye_why) = if players.len() % 2 == 1 {
        // H4 (hard): the last number takes the bye unless that leaves a team with more than
        // half of the others (team-mates would have to meet); then the highest number that
        // does not.
        let last_idx = players.len() - 1;
        let idx = if hard {
            (0..players.len())
                .rev()
                .find(|&k| crowded_team(&players, Some(k)).is_none())
                .unwrap_or(last_idx)
        } else {
            last_idx
        };
        let moved_from = players[last_idx].no;
        let e = players.remove(idx);
        let no = e.no;
        let why = if idx == last_idx {
            format!(
                "人数为奇数，末位 {no}号 轮空，按胜局计分 (odd number of players: the last number \
                 gets the bye, scored as a win)"
            )
        } else {
            format!(
                "人数为奇数; 同队回避 (H4): 末位 {moved_from}号 轮空将使队友必然相遇, 改由 {no}号 \
                 轮空，按胜局计分 (odd number of players: a bye for the last number would force \
                 team-mates to meet, so the highest number that avoids it gets the bye)"
            )
        };
        (Some(no), Some(why))
    } else {
        (None, None)
    };
    if hard {
        if let Some((team, count)) = crowded_team(&players, None) {
            return Err(no_pairing_crowded(team, count, players.len()));
        }
    }

    let n = players.len();
    let h = n / 2;
    let mut slots: Vec<Slot> = match settings.round1 {
        Round1Pairing::Slide => (0..h)
            .map(|i| Slot {
                top: players[i],
                bottom: players[h + i],
                swapped: None,
            })
            .collect(),
        Round1Pairing::Fold => (0..h)
            .map(|i| Slot {
                top: players[i],
                bottom: players[n - 1 - i],
                swapped: None,
            })
            .collect(),
        Round1Pairing::Adjacent => (0..h)
            .map(|i| Slot {
                top: players[2 * i],
                bottom: players[2 * i + 1],
                swapped: None,
            })
            .collect(),
        Round1Pairing::Random => {
            let mut lower: Vec<&Entrant> = players[h..].to_vec();
            lower.shuffle(&mut rng);
            (0..h)
                .map(|i| Slot {
                    top: players[i],
                    bottom: lower[i],
                    swapped: None,
                })
                .collect()
        }
    };

    if settings.same_team != SameTeam::Off {
        avoid_team_mates(&mut slots);
    }
    if hard && slots.iter().any(|s| same_team(s.top, s.bottom)) {
        repair_by_matching(&mut slots)?;
    }

    let boards =
        slots
            .into_iter()
            .enumerate()
            .map(|(i, slot)| {
                let board = i as u32 + 1;
                let (small, large) = if slot.top.no < slot.bottom.no {
                    (slot.top.no, slot.bottom.no)
                } else {
                    (slot.bottom.no, slot.top.no)
                };
                let odd = board % 2 == 1;
                let (small_colour, colour_why) = match settings.round1_colour {
                Round1Colour::OddBoardSmallRed => (
                    if odd { Colour::Red } else { Colour::Black },
                    "单数台次小号先，双数台次大号先 (odd boards smaller number red, even boards \
                     larger number red)",
                ),
                Round1Colour::OddBoardLargeRed => (
                    if odd { Colour::Black } else { Colour::Red },
                    "单数台次大号先，双数台次小号先 (odd boards larger number red, even boards \
                     smaller number red)",
                ),
                Round1Colour::SmallRed => {
                    (Colour::Red, "小号先 (the smaller number plays red)")
                }
                Round1Colour::Lots => (
                    if rng.gen::<bool>() { Colour::Red } else { Colour::Black },
                    "抽签决定先后手 (colours drawn by lot)",
                ),
            };
                let (red, black) = if small_colour == Colour::Red {
                    (small, large)
                } else {
                    (large, small)
                };
                let mut group = format!(
                    "首轮 {}: {}号 对 {}号",
                    mode_zh(settings.round1),
                    slot.top.no,
                    slot.bottom.no
                );
                if let Some(s) = slot.swapped {
                    group.push_str("; ");
                    group.push_str(&s);
                } else if same_team(slot.top, slot.bottom) {
                    group.push_str("; 同队相遇，无法调开 (team-mates: no exchange avoids it)");
                }
                Board {
                    board,
                    red,
                    black,
                    why: Explanation {
                        group,
                        colour: format!("第{board}台 {red}号 执红: {colour_why}"),
                    },
                }
            })
            .collect();

    Ok(Pairing {
        round: 1,
        boards,
        bye,
        bye_why,
        relaxed: Vec::new(),
    })
}

/// Exchange lower-half players between pairs until no team-mate pair is left, or none can be
/// removed by a single exchange with another pair.
fn avoid_team_mates(slots: &mut [Slot]) {
    let n = slots.len();
    // Each exchange strictly lowers the number of team-mate pairs, so this terminates.
    loop {
        let mut changed = false;
        for i in 0..n {
            if !same_team(slots[i].top, slots[i].bottom) {
                continue;
            }
            // Nearest pairs first, the following pair before the preceding one.
            let candidates = (1..n).flat_map(|d| [i.checked_add(d), i.checked_sub(d)]);
            let target = candidates.flatten().filter(|&j| j < n).find(|&j| {
                !same_team(slots[i].top, slots[j].bottom)
                    && !same_team(slots[j].top, slots[i].bottom)
            });
            if let Some(j) = target {
                let (bi, bj) = (slots[i].bottom, slots[j].bottom);
                let note = |moved_out: PlayerNo, moved_in: PlayerNo| {
                    format!(
                        "同队回避: 与第{}台对调下半区棋手 {moved_out}号/{moved_in}号 (same-team \
                         avoidance: lower-half players exchanged)",
                        j + 1
                    )
                };
                slots[i].swapped = Some(note(bi.no, bj.no));
                let back = format!(
                    "同队回避: 与第{}台对调下半区棋手 {}号/{}号 (same-team avoidance: lower-half \
                     players exchanged)",
                    i + 1,
                    bj.no,
                    bi.no
                );
                slots[j].swapped = Some(back);
                slots[i].bottom = bj;
                slots[j].bottom = bi;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// The first team (by id) holding more than half of the players to pair — the bye `skip`
/// left out —, with its size: with `hard` such a team cannot avoid meeting itself.
fn crowded_team(players: &[&Entrant], skip: Option<usize>) -> Option<(u32, usize)> {
    let mut count: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    let mut n = 0;
    for (k, e) in players.iter().enumerate() {
        if Some(k) == skip {
            continue;
        }
        n += 1;
        if let Some(t) = e.team {
            *count.entry(t).or_default() += 1;
        }
    }
    count.into_iter().find(|&(_, c)| 2 * c > n)
}

fn no_pairing_crowded(team: u32, count: usize, n: usize) -> PairingError {
    PairingError::NoValidPairing {
        reason_zh: format!(
            "同队回避 (H4): 第{team}队 有 {count} 名棋手, 超过首轮可配对 {n} 人的一半, 队友必然相遇"
        ),
        reason_en: format!(
            "same-team avoidance is hard (H4) but team {team} has {count} of the {n} players \
             to pair in round 1, more than half: team-mates would have to meet"
        ),
    }
}

/// H4 (hard): re-assign lower-half players so that no pair is a team-mate pair, changing
/// only what the augmenting paths (Kuhn) need, nearest boards first. Succeeds whenever a
/// perfect matching of the upper to the lower players without team-mates exists.
fn repair_by_matching(slots: &mut [Slot]) -> Result<(), PairingError> {
    let n = slots.len();
    let bottoms: Vec<&Entrant> = slots.iter().map(|s| s.bottom).collect();
    let mut top_of: Vec<Option<usize>> = vec![None; n];
    let mut bottom_of: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        if !same_team(slots[i].top, bottoms[i]) {
            top_of[i] = Some(i);
            bottom_of[i] = Some(i);
        }
    }
    fn augment(
        i: usize,
        slots: &[Slot],
        bottoms: &[&Entrant],
        top_of: &mut [Option<usize>],
        bottom_of: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        let n = bottoms.len();
        let near = (0..n).flat_map(|d| [i.checked_add(d), i.checked_sub(d).filter(|_| d > 0)]);
        for j in near.flatten().filter(|&j| j < n) {
            if seen[j] || same_team(slots[i].top, bottoms[j]) {
                continue;
            }
            seen[j] = true;
            let free = match top_of[j] {
                None => true,
                Some(k) => augment(k, slots, bottoms, top_of, bottom_of, seen),
            };
            if free {
                top_of[j] = Some(i);
                bottom_of[i] = Some(j);
                return true;
            }
        }
        false
    }
    for i in 0..n {
        if bottom_of[i].is_some() {
            continue;
        }
        let mut seen = vec![false; n];
        if !augment(i, slots, &bottoms, &mut top_of, &mut bottom_of, &mut seen) {
            return Err(PairingError::NoValidPairing {
                reason_zh: format!(
                    "同队回避 (H4): {}号 在下半区找不到非队友对手",
                    slots[i].top.no
                ),
                reason_en: format!(
                    "same-team avoidance is hard (H4): no lower-half opponent of player {} is \
                     outside the team",
                    slots[i].top.no
                ),
            });
        }
    }
    for i in 0..n {
        let Some(j) = bottom_of[i] else { continue };
        if j != i {
            slots[i].bottom = bottoms[j];
            slots[i].swapped = Some(format!(
                "同队回避 (H4): 下半区对手调整为 {}号 (same-team avoidance, hard: lower-half \
                 opponent re-assigned)",
                bottoms[j].no
            ));
        }
    }
    Ok(())
}
