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
/// until no such pair is left or no exchange can remove one.
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

    let (bye, bye_why) = if players.len() % 2 == 1 {
        let last = players.pop().map(|e| e.no);
        let why = last.map(|no| {
            format!(
                "人数为奇数，末位 {no}号 轮空，按胜局计分 (odd number of players: the last number \
                 gets the bye, scored as a win)"
            )
        });
        (last, why)
    } else {
        (None, None)
    };

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
