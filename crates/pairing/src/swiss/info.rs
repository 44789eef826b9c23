//! What the engine knows about each player before a round (scores, colour histories,
//! opponents met, byes, previous floats), validated from the section state.

use super::*;

/// What the engine knows about one player before the round.
#[derive(Debug, Clone)]
pub(crate) struct Info {
    pub no: PlayerNo,
    pub team: Option<u32>,
    pub score: i64,
    /// Counted colours, oldest first, with the round (1-based) they were played in.
    pub colours: Vec<(u32, Colour)>,
    pub diff: i64,
    pub reds: i64,
    pub blacks: i64,
    pub met: BTreeSet<PlayerNo>,
    /// Per opponent met: how many times, and the last round (1-based) they met (H1 as a
    /// criterion, A2 as amended).
    pub meetings: BTreeMap<PlayerNo, (u32, u32)>,
    pub byes: u32,
    pub floated_prev: bool,
}

impl Info {
    pub(super) fn last(&self) -> Option<Colour> {
        self.colours.last().map(|c| c.1)
    }
    pub(super) fn streak(&self) -> usize {
        match self.last() {
            None => 0,
            Some(c) => self.colours.iter().rev().take_while(|x| x.1 == c).count(),
        }
    }
    pub fn due(&self) -> Option<Colour> {
        if self.colours.is_empty() {
            None
        } else if self.diff < 0 {
            Some(Colour::Red)
        } else if self.diff > 0 {
            Some(Colour::Black)
        } else {
            self.last().map(Colour::opposite)
        }
    }
    /// Whether playing `c` this round would break H5.
    pub(crate) fn breaks_h5(&self, c: Colour, max_diff: i64, no_three: bool) -> bool {
        let d = self.diff + if c == Colour::Red { 1 } else { -1 };
        d.abs() > max_diff || (no_three && self.last() == Some(c) && self.streak() >= 2)
    }
}

pub(super) fn bad(msg: String) -> PairingError {
    PairingError::BadInput(msg)
}

/// Validate the state for pairing `round` and compute every player's info (index-aligned
/// with `state.players`).
pub(crate) fn prepare(state: &SectionState, round: u32) -> Result<Vec<Info>, PairingError> {
    if round == 0 {
        return Err(bad("轮次必须从1开始 (round numbers start at 1)".into()));
    }
    let played = (round - 1) as usize;
    let mut by_no: BTreeMap<PlayerNo, usize> = BTreeMap::new();
    for (i, e) in state.players.iter().enumerate() {
        if by_no.insert(e.no, i).is_some() {
            return Err(bad(format!(
                "棋手序号 {} 重复 (duplicate pairing number {})",
                e.no, e.no
            )));
        }
    }
    let s = &state.settings;
    let mut infos = Vec::with_capacity(state.players.len());
    for e in &state.players {
        if e.history.len() != played {
            return Err(bad(format!(
                "{}号 有 {} 轮记录，编排第{}轮需要 {} 轮 (player {} has {} rounds of history; pairing round {} needs {})",
                e.no,
                e.history.len(),
                round,
                played,
                e.no,
                e.history.len(),
                round,
                played
            )));
        }
        let mut info = Info {
            no: e.no,
            team: e.team,
            score: 0,
            colours: Vec::new(),
            diff: 0,
            reds: 0,
            blacks: 0,
            met: BTreeSet::new(),
            meetings: BTreeMap::new(),
            byes: 0,
            floated_prev: false,
        };
        for (r, o) in e.history.iter().enumerate() {
            info.score += o.points(&state.scoring).halves();
            if let Some(opp) = o.opponent() {
                let Some(&oi) = by_no.get(&opp) else {
                    return Err(bad(format!(
                        "{}号 第{}轮的对手 {}号 不存在 (player {}: round {} opponent {} does not exist)",
                        e.no,
                        r + 1,
                        opp,
                        e.no,
                        r + 1,
                        opp
                    )));
                };
                if opp == e.no || state.players[oi].history[r].opponent() != Some(e.no) {
                    return Err(bad(format!(
                        "{}号 第{}轮的对手 {}号 记录不对称 (player {}: round {} opponent {} does not list this player back)",
                        e.no,
                        r + 1,
                        opp,
                        e.no,
                        r + 1,
                        opp
                    )));
                }
                if s.forfeit_is_meeting || o.is_played() {
                    info.met.insert(opp);
                    let m = info.meetings.entry(opp).or_insert((0, 0));
                    m.0 += 1;
                    m.1 = r as u32 + 1;
                }
            }
            let c = if s.forfeit_counts_for_colour {
                o.assigned_colour()
            } else {
                o.played_colour()
            };
            if let Some(c) = c {
                info.colours.push((r as u32 + 1, c));
                match c {
                    Colour::Red => info.reds += 1,
                    Colour::Black => info.blacks += 1,
                }
            }
            if matches!(o, Outcome::Bye) {
                info.byes += 1;
            }
        }
        info.diff = info.reds - info.blacks;
        infos.push(info);
    }
    // Previous-round floats (C5): opponent's score before that round differed.
    if played >= 1 {
        let before_prev: Vec<i64> = state
            .players
            .iter()
            .map(|e| {
                e.history[..played - 1]
                    .iter()
                    .map(|o| o.points(&state.scoring).halves())
                    .sum()
            })
            .collect();
        for (i, e) in state.players.iter().enumerate() {
            if let Some(opp) = e.history[played - 1].opponent() {
                if let Some(&oi) = by_no.get(&opp) {
                    infos[i].floated_prev = before_prev[i] != before_prev[oi];
                }
            }
        }
    }
    Ok(infos)
}
