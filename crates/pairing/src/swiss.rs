//! The Swiss engine for rounds ≥ 2 (rules.md A2, A4): one minimum-cost perfect matching
//! whose edge costs encode the lexicographic objective C0–C5 (plus the `within_group`
//! tie-break) exactly, as one mixed-radix wide integer.
//!
//! Model. Vertices: the players to pair (H2), in ranking order (score, then number), plus one
//! dummy vertex when their number is odd; its edges go to the bye-eligible players (H3).
//! An edge joins two players only if they have not met (H1), are not team-mates under
//! `hard` (H4), and the colours the A2 rule gives them keep both within H5 (outside a
//! relaxed last round, where H5 breakers are counted as C0 instead). The cost of an edge is
//! the vector (C0, u1…uG, d1…dG, C3, C4, C5, tie) of that pair's contribution; every
//! criterion of A2 is a sum of such contributions, so a perfect matching of minimum total
//! cost, compared lexicographically, is an optimal pairing. Each component gets a radix
//! larger than its largest possible total, so the wide-integer sum never carries between
//! components and the order is exact.
//!
//! Tie-break (`within_group`): inside a group, `slide` prefers partners half the group
//! apart, `adjacent` neighbours; a float prefers the lowest player of the upper group and
//! the highest of the lower; the bye prefers the lowest-ranked eligible player (A4).
//!
//! Exactness: up to [`DENSE_LIMIT`] players every legal pair is an edge and the result is
//! optimal. Above it, each player's edges are limited to candidates near its ideal partners
//! (own group around the slide/adjacent partner, the top of the next groups); if that graph
//! has no perfect matching the window widens, then (up to [`SPARSE_FALLBACK_LIMIT`]) the
//! complete graph is used. The result is always legal (H1–H5); for large fields it is
//! optimal whenever the optimum uses candidate edges only.

use crate::matching::{max_weight_perfect_matching, Weight, Wide};
use crate::{Availability, Board, Explanation, Pairing, PairingError, SectionState};
use arbiter_types::{Colour, EqualHistoryColour, Outcome, PlayerNo, SameTeam, WithinGroup};
use std::collections::{BTreeMap, BTreeSet};

/// Above this many players to pair, the matching graph keeps only candidate opponents near
/// each player's ideal partners (see [`candidate_edges`]); at or below it every legal pair
/// is an edge and the result is provably optimal.
pub const DENSE_LIMIT: usize = 400;

/// Up to this many players, a failed candidate graph falls back to the complete graph.
pub const SPARSE_FALLBACK_LIMIT: usize = 3000;

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
    pub byes: u32,
    pub floated_prev: bool,
}

impl Info {
    fn last(&self) -> Option<Colour> {
        self.colours.last().map(|c| c.1)
    }
    fn streak(&self) -> usize {
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

fn bad(msg: String) -> PairingError {
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

/// The colours of a pair (A2): returns (red, black, reason). `a` and `b` are info indices.
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

/// The problem of one round, players to pair in ranking order.
struct Problem<'a> {
    state: &'a SectionState,
    round: u32,
    infos: &'a [Info],
    /// Info indices of players to pair, ranking order (score desc, number asc).
    order: Vec<usize>,
    /// Per ranking position: group index, position in group.
    group_of: Vec<usize>,
    pos_in_group: Vec<usize>,
    group_size: Vec<usize>,
    group_score: Vec<i64>,
    relaxed: bool,
    bye_eligible: Vec<bool>,
}

/// One cost vector: [C0?] u.. d.. C3 C4 C5 tie.
struct Layout {
    c0: bool,
    groups: usize,
    bases: Vec<u64>,
}

impl Layout {
    fn len(&self) -> usize {
        self.bases.len()
    }
    fn u(&self, k: usize) -> usize {
        usize::from(self.c0) + k
    }
    fn d(&self, k: usize) -> usize {
        usize::from(self.c0) + self.groups + k
    }
    fn c3(&self) -> usize {
        usize::from(self.c0) + 2 * self.groups
    }
    fn bits(&self) -> u32 {
        self.bases.iter().map(|&b| 64 - b.leading_zeros()).sum()
    }
}

impl<'a> Problem<'a> {
    fn new(
        state: &'a SectionState,
        round: u32,
        infos: &'a [Info],
        exclude: &BTreeSet<usize>,
    ) -> Self {
        let mut order: Vec<usize> = (0..infos.len())
            .filter(|&i| {
                state.players[i].availability == Availability::Active && !exclude.contains(&i)
            })
            .collect();
        order.sort_by(|&a, &b| {
            infos[b]
                .score
                .cmp(&infos[a].score)
                .then(infos[a].no.cmp(&infos[b].no))
        });
        let mut group_of = Vec::with_capacity(order.len());
        let mut pos_in_group = Vec::with_capacity(order.len());
        let mut group_size: Vec<usize> = Vec::new();
        let mut group_score: Vec<i64> = Vec::new();
        for &i in &order {
            if group_score.last() != Some(&infos[i].score) {
                group_score.push(infos[i].score);
                group_size.push(0);
            }
            let g = group_score.len() - 1;
            group_of.push(g);
            pos_in_group.push(group_size[g]);
            group_size[g] += 1;
        }
        let s = &state.settings;
        let relaxed =
            s.relax_colours_in_last_round && state.total_rounds > 0 && round >= state.total_rounds;
        let min_byes = match s.bye {
            arbiter_types::ByeChoice::LowestWithoutBye => {
                if order.iter().any(|&i| infos[i].byes == 0) {
                    0
                } else {
                    u32::MAX
                }
            }
            arbiter_types::ByeChoice::LowestFewestByes => {
                order.iter().map(|&i| infos[i].byes).min().unwrap_or(0)
            }
        };
        let bye_eligible = order
            .iter()
            .map(|&i| min_byes == u32::MAX || infos[i].byes == min_byes)
            .collect();
        Problem {
            state,
            round,
            infos,
            order,
            group_of,
            pos_in_group,
            group_size,
            group_score,
            relaxed,
            bye_eligible,
        }
    }

    fn layout(&self) -> Layout {
        let n = self.order.len() as u64;
        let g = self.group_size.len();
        let mut bases = Vec::new();
        if self.relaxed {
            bases.push(n + 1);
        }
        for k in 0..g {
            bases.push(self.group_size[k] as u64 + 1);
        }
        let min_score = self.group_score.last().copied().unwrap_or(0);
        for k in 0..g {
            let gap = (self.group_score[k] - min_score).max(0) as u64;
            bases.push(self.group_size[k] as u64 * gap + 1);
        }
        bases.push(n / 2 + 1); // C3
        bases.push(n / 2 + 1); // C4
        bases.push(n + 1); // C5
        bases.push(n * (n / 2 + 2) + 1); // tie
        Layout {
            c0: self.relaxed,
            groups: g,
            bases,
        }
    }

    /// Cost vector of pairing ranking positions x < y, or None when a hard rule forbids it.
    fn pair_cost(&self, lay: &Layout, x: usize, y: usize, out: &mut Vec<u64>) -> bool {
        let s = &self.state.settings;
        let (a, b) = (&self.infos[self.order[x]], &self.infos[self.order[y]]);
        if a.met.contains(&b.no) {
            return false;
        }
        let same_team = matches!((a.team, b.team), (Some(p), Some(q)) if p == q);
        if same_team && s.same_team == SameTeam::Hard {
            return false;
        }
        let (red, _, _) = allocate(a, b, self.round, s.equal_history);
        let (ca, cb) = if red == a.no {
            (Colour::Red, Colour::Black)
        } else {
            (Colour::Black, Colour::Red)
        };
        let md = i64::from(s.max_colour_diff);
        let nt = s.no_three_in_a_row;
        let breaks = u64::from(a.breaks_h5(ca, md, nt)) + u64::from(b.breaks_h5(cb, md, nt));
        if breaks > 0 && !self.relaxed {
            return false;
        }
        out.clear();
        out.resize(lay.len(), 0);
        if lay.c0 {
            out[0] = breaks;
        }
        let (ga, gb) = (self.group_of[x], self.group_of[y]);
        let float = ga != gb;
        if float {
            out[lay.u(ga)] += 1;
            out[lay.u(gb)] += 1;
            out[lay.d(ga)] = (a.score - b.score) as u64;
        }
        let miss = a.due().is_some_and(|d| d != ca) || b.due().is_some_and(|d| d != cb);
        let c3 = lay.c3();
        out[c3] = u64::from(miss);
        out[c3 + 1] = u64::from(same_team && s.same_team == SameTeam::Soft);
        out[c3 + 2] = if float {
            u64::from(a.floated_prev) + u64::from(b.floated_prev)
        } else {
            0
        };
        let (px, py) = (self.pos_in_group[x], self.pos_in_group[y]);
        out[c3 + 3] = if float {
            (self.group_size[ga] - 1 - px + py) as u64
        } else {
            let dist = (py - px) as i64;
            match s.within_group {
                WithinGroup::Slide => (dist - (self.group_size[ga] / 2) as i64).unsigned_abs(),
                WithinGroup::Adjacent => (dist - 1) as u64,
            }
        };
        true
    }

    fn bye_cost(&self, lay: &Layout, x: usize, out: &mut Vec<u64>) {
        out.clear();
        out.resize(lay.len(), 0);
        out[lay.u(self.group_of[x])] = 1;
        out[lay.c3() + 3] = (self.order.len() - 1 - x) as u64;
    }
}

fn encode<W: Weight>(lay: &Layout, v: &[u64]) -> W {
    let mut acc = W::zero();
    for (c, &b) in v.iter().zip(&lay.bases) {
        acc = acc.mul_add(b, *c);
    }
    acc
}

fn top<W: Weight>(lay: &Layout) -> W {
    // Π bases = encode of (0, …, 0) with a leading 1.
    let mut acc = W::zero().mul_add(1, 1);
    for &b in &lay.bases {
        acc = acc.mul_add(b, 0);
    }
    acc
}

/// Candidate opponents (ranking positions > x) for position x in a large field: players of
/// its own group within `w` places of its adjacent and slide partners, the top of the next
/// group, and — for the bottom of a group, where floaters come from — the top of the next
/// three groups.
fn candidate_edges(p: &Problem, x: usize, w: usize) -> Vec<usize> {
    let n = p.order.len();
    let g = p.group_of[x];
    let start = x - p.pos_in_group[x];
    let size = p.group_size[g];
    let pos = p.pos_in_group[x];
    let mut c = BTreeSet::new();
    for centre in [pos, pos + size / 2] {
        for q in centre.saturating_sub(w)..(centre + w + 1).min(size) {
            if q > pos {
                c.insert(start + q);
            }
        }
    }
    let bottom = size - pos <= 2 * w + 1;
    let mut next = start + size;
    for k in 0..3 {
        if next >= n {
            break;
        }
        let gs = p.group_size[p.group_of[next]];
        let take = if bottom {
            2 * w + 2
        } else if k == 0 {
            w / 2 + 1
        } else {
            0
        };
        for q in 0..gs.min(take) {
            c.insert(next + q);
        }
        next += gs;
    }
    c.into_iter().collect()
}

/// Solve one round; `fixed` pairs (info indices) are taken as given.
pub(crate) fn solve(
    state: &SectionState,
    round: u32,
    infos: &[Info],
    fixed: &[(usize, usize)],
) -> Result<Pairing, PairingError> {
    let mut exclude = BTreeSet::new();
    for &(a, b) in fixed {
        exclude.insert(a);
        exclude.insert(b);
    }
    let p = Problem::new(state, round, infos, &exclude);
    let lay = p.layout();
    let bits = lay.bits() + 8;
    let mate = match bits.div_ceil(64) {
        0..=1 => run::<i64>(&p, &lay)?,
        2 => run::<Wide<2>>(&p, &lay)?,
        3..=4 => run::<Wide<4>>(&p, &lay)?,
        5..=8 => run::<Wide<8>>(&p, &lay)?,
        9..=16 => run::<Wide<16>>(&p, &lay)?,
        17..=32 => run::<Wide<32>>(&p, &lay)?,
        33..=64 => run::<Wide<64>>(&p, &lay)?,
        _ => run::<Wide<128>>(&p, &lay)?,
    };
    build(&p, fixed, &mate)
}

/// Returns mate per ranking position (`None` = bye).
fn run<W: Weight>(p: &Problem, lay: &Layout) -> Result<Vec<Option<usize>>, PairingError> {
    let n = p.order.len();
    let odd = n % 2 == 1;
    let topw: W = top(lay);
    let mut buf = Vec::new();
    // Candidate windows to try, widest last; `None` = every pair (small fields, or a
    // last resort up to SPARSE_FALLBACK_LIMIT players).
    let plan: Vec<Option<usize>> = if n <= DENSE_LIMIT {
        vec![None]
    } else if n <= SPARSE_FALLBACK_LIMIT {
        vec![Some(6), Some(24), None]
    } else {
        vec![Some(6), Some(24), Some(96)]
    };
    for window in plan {
        let mut edges: Vec<(usize, usize, W)> = Vec::new();
        for x in 0..n {
            let cands: Vec<usize> = match window {
                None => (x + 1..n).collect(),
                Some(w) => candidate_edges(p, x, w),
            };
            for y in cands {
                if p.pair_cost(lay, x, y, &mut buf) {
                    edges.push((x, y, topw.sub(encode(lay, &buf))));
                }
            }
        }
        if odd {
            for x in 0..n {
                if p.bye_eligible[x] {
                    p.bye_cost(lay, x, &mut buf);
                    edges.push((x, n, topw.sub(encode(lay, &buf))));
                }
            }
        }
        let total = n + usize::from(odd);
        if let Some(mate) = max_weight_perfect_matching(total, &edges) {
            return Ok(mate[..n].iter().map(|&y| (y < n).then_some(y)).collect());
        }
    }
    Err(no_pairing(p))
}

fn no_pairing(p: &Problem) -> PairingError {
    let n = p.order.len();
    let mut buf = Vec::new();
    let lay = p.layout();
    // Naming the stuck player costs O(n²); only for fields where that is cheap.
    for x in (0..n).take_while(|_| n <= SPARSE_FALLBACK_LIMIT) {
        let any = (0..n).any(|y| y != x && p.pair_cost(&lay, x.min(y), x.max(y), &mut buf));
        if !(any || n % 2 == 1 && p.bye_eligible[x]) {
            let no = p.infos[p.order[x]].no;
            return PairingError::NoValidPairing {
                reason_zh: format!("{no}号 已与所有可配对手相遇或受颜色/同队限制，无对手可配"),
                reason_en: format!(
                    "player {no} has no legal opponent left (all met, or blocked by colour or team rules)"
                ),
            };
        }
    }
    PairingError::NoValidPairing {
        reason_zh: format!(
            "剩余 {n} 名棋手无法在不重复相遇、颜色与同队规则下全部配对 (轮次可能多于参赛人数所能容纳)"
        ),
        reason_en: format!(
            "the {n} players cannot all be paired without rematches and within the colour/team rules (too many rounds for the field?)"
        ),
    }
}

fn score_str(h: i64) -> String {
    arbiter_types::Score::from_halves(h).to_string()
}

fn build(
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
        let (red, black, why) = allocate(ia, ib, p.round, s.equal_history);
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
                bye_why = Some(format!(
                    "人数为奇数，{no}号 ({}分) 为{prior}的排名最低可轮空棋手，轮空按胜局计分 (odd number of players: lowest-ranked eligible player gets the bye, scored as a win)",
                    score_str(infos[i].score)
                ));
            }
            Some(y) if y > x => {
                let (a, b) = (p.order[x], p.order[y]);
                let (ga, gb) = (p.group_of[x], p.group_of[y]);
                let group = if ga == gb {
                    format!("同分组 {}分 (same score group)", score_str(infos[a].score))
                } else {
                    let reason = if p.group_size[ga] % 2 == 1 {
                        "该组人数为奇数 (odd group)"
                    } else {
                        "组内无合规对手 (no legal opponent left in the group)"
                    };
                    format!(
                        "{}分组 {}号 下调至 {}分组 对 {}号: {reason} (float down from {} to {})",
                        score_str(infos[a].score),
                        infos[a].no,
                        score_str(infos[b].score),
                        infos[b].no,
                        score_str(infos[a].score),
                        score_str(infos[b].score)
                    )
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

/// Pair a round (A2–A4). Round 1 is paired by [`crate::round1::pair_round1`] with seed 0
/// (callers that draw lots call it directly with their recorded seed).
pub fn pair_swiss(state: &SectionState, round: u32) -> Result<Pairing, PairingError> {
    if round == 1 {
        prepare(state, round)?;
        return crate::round1::pair_round1(state, 0);
    }
    let infos = prepare(state, round)?;
    solve(state, round, &infos, &[])
}

/// Pair a round with some pairs fixed by the arbiter; the engine pairs everyone else.
/// Fixed pairs get colours by the A2 rule and are not checked against H1–H5 (the arbiter
/// decides), but both players must exist, be available and appear only once.
pub fn pair_with_fixed(
    state: &SectionState,
    round: u32,
    fixed: &[(PlayerNo, PlayerNo)],
) -> Result<Pairing, PairingError> {
    let infos = prepare(state, round)?;
    let by_no: BTreeMap<PlayerNo, usize> =
        infos.iter().enumerate().map(|(i, f)| (f.no, i)).collect();
    let mut seen = BTreeSet::new();
    let mut pairs = Vec::new();
    for (k, &(a, b)) in fixed.iter().enumerate() {
        let mut ids = [0usize; 2];
        for (slot, no) in ids.iter_mut().zip([a, b]) {
            let Some(&i) = by_no.get(&no) else {
                return Err(bad(format!(
                    "指定配对第{}对: {no}号 不存在 (fixed pair {}: player {no} does not exist)",
                    k + 1,
                    k + 1
                )));
            };
            if state.players[i].availability != Availability::Active {
                return Err(bad(format!(
                    "指定配对第{}对: {no}号 本轮不可参赛 (fixed pair {}: player {no} is not available)",
                    k + 1,
                    k + 1
                )));
            }
            if !seen.insert(no) {
                return Err(bad(format!(
                    "指定配对第{}对: {no}号 重复出现 (fixed pair {}: player {no} appears twice)",
                    k + 1,
                    k + 1
                )));
            }
            *slot = i;
        }
        pairs.push((ids[0], ids[1]));
    }
    solve(state, round, &infos, &pairs)
}
