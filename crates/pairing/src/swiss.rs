//! The Swiss engine for rounds ≥ 2 (rules.md A2, A4): one minimum-cost perfect matching
//! whose edge costs encode the lexicographic objective C0, CB, C1–C5 (plus the `within_group`
//! tie-break) exactly, as one mixed-radix wide integer.
//!
//! Model. Vertices: the players to pair (H2), in ranking order (score, then number), plus one
//! dummy vertex when their number is odd; its edges go to the bye-eligible players (H3).
//! An edge joins two players only if they have not met (H1), are not team-mates under
//! `hard` (H4), and one of the pair's two colour orders keeps both within H5: H5 constrains
//! the colours, not the pair (outside a relaxed last round, where the order with fewer H5
//! breakers is taken and its breakers are counted as C0). The pair's colours follow A2's
//! "Colour of a pair" ([`pair_order`]): the order that keeps H5 if only one does, otherwise
//! the colour rule. The cost of an edge is the vector (C0, CB, x1…xG, d1…dG, C3, C4, C5, tie)
//! of that pair's contribution: xk counts the boundary between groups k and k+1 when the
//! pair crosses it (C1: a float over two groups crosses two boundaries, so a floater meets
//! the nearest group that can take him and that group's left-over player floats on), dk
//! the score gap of a pair whose higher player is in group k (C2), C3 a player missing his
//! due colour in the pair's better order; CB, the bye recipient's score group counted from
//! the bottom, is 0 on every pair edge, and the bye crosses no boundary. Every criterion of
//! A2 is a sum of such contributions, so a perfect matching of minimum total cost, compared
//! lexicographically, is an optimal pairing. Each component gets a radix larger than its
//! largest possible total (xk: the smaller side of the boundary), so the wide-integer sum
//! never carries between components and the order is exact.
//!
//! H6 (completion): in a small field the optimum is checked to leave the rest of the stage
//! pairable under H1, H3 and H4; if it does not, the best pairing that does is taken
//! ([`completion`]).
//!
//! Tie-break (`within_group`): inside a group, `slide` prefers partners half the group
//! apart, `adjacent` neighbours; a float prefers the lowest player of the upper group and
//! the highest of the lower; the bye prefers the lowest-ranked eligible player (A4). Before
//! all of these, CB (after C0, before C1) puts the bye in the lowest score group where a
//! valid pairing allows it.
//!
//! Exactness: up to [`DENSE_LIMIT`] players every legal pair is an edge and the result is
//! optimal. Above it the graph starts from candidates near each player's ideal partners,
//! plus partners at every scale that hold the duals in place ([`candidate_edges`]), and
//! is priced (column generation, see [`run`]): the optimal duals of the restricted graph,
//! blossom duals included, are checked against every legal pair left out, by an exact
//! structured bound (no O(n²) scan of pair costs), violating pairs are added and the
//! matching is solved again, warm-started from the previous matching and duals
//! ([`IncrementalPerfect`]; from scratch when more edges than players were added), until
//! the duals certify optimality for the complete graph.
//! Up to [`SPARSE_FALLBACK_LIMIT`] players this always runs to the certificate. Above it
//! the graph keeps the local candidates only, a feasible round stops after
//! [`PRICING_SOLVES`] solve(s) and [`PricingStats::certified`] reports whether the
//! certificate held; "no valid pairing" is only
//! ever reported with the certificate (artificial pairs with a leading cost digit keep the
//! restricted graph perfectly matchable, so their use in a certified optimum proves that
//! no legal pairing exists).
//!
//! The tie-break is part of the objective up to [`TIE_EXACT_LIMIT`] players (the blossom
//! trees then sweep whole score groups, so the certified time grows about as the square of
//! the field: 10,000 players take 0.55–0.6 s, 20,000 2.4–2.6 s, 50,000 10–17 s, 100,000
//! 43–46 s). Above it the round is solved and certified on C0–C5 alone and the tie settled
//! afterwards by exchanges of partners that keep every C0–C5 total ([`settle_ties`]):
//! 100,000 players in 12–22 s, still proved optimal under C0–C5; the tie is a local optimum
//! (1.4–1.7 times the exact minimum at 10,000 players, 1.6–1.8 times at 100,000).

mod completion;

use crate::matching::{max_weight_perfect_matching, Duals, IncrementalPerfect, Weight, Wide};
use crate::{Availability, Board, Explanation, Pairing, PairingError, SectionState};
use arbiter_types::{Colour, EqualHistoryColour, Outcome, PlayerNo, SameTeam, WithinGroup};
use std::collections::{BTreeMap, BTreeSet};

/// Above this many players to pair, the matching graph keeps only candidate opponents near
/// each player's ideal partners (see [`candidate_edges`]); at or below it every legal pair
/// is an edge and the result is provably optimal.
pub const DENSE_LIMIT: usize = 400;

/// Up to this many players, the restricted graph carries the spread candidates and pricing
/// runs until its optimum is proved optimal for the complete graph (see
/// [`PricingStats::certified`]).
pub const SPARSE_FALLBACK_LIMIT: usize = 100_000;

/// Up to this many players the tie-break (`within_group`) is one more digit of the objective
/// and minimized exactly with C0–C5. Above it the round is solved and certified on C0–C5
/// alone (the tie digit makes most pairs of a group differ in cost, and the blossom trees
/// then sweep whole groups: 33 of the 45 s of a round of 100,000 players), and the tie is
/// then settled by exchanges of partners that keep every C0–C5 total ([`settle_ties`]):
/// the pairing is still proved optimal under C0–C5, the choice among the pairings equal on
/// C0–C5 (which A2 leaves to the engine) is a local optimum of the same tie-break.
pub const TIE_EXACT_LIMIT: usize = 50_000;

/// Up to this many players, "no valid pairing" names a player left without any legal
/// opponent (an O(n²) search).
const NAME_STUCK_LIMIT: usize = 3000;

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
fn breakers(a: &Info, b: &Info, a_red: bool, max_diff: i64, no_three: bool) -> u64 {
    let (ca, cb) = if a_red {
        (Colour::Red, Colour::Black)
    } else {
        (Colour::Black, Colour::Red)
    };
    u64::from(a.breaks_h5(ca, max_diff, no_three)) + u64::from(b.breaks_h5(cb, max_diff, no_three))
}

/// Whether a player misses his due colour (C3) when `a` gets red (`a_red`) or black.
fn misses_due(a: &Info, b: &Info, a_red: bool) -> bool {
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
fn h5_reason(i: &Info, c: Colour, max_diff: i64, no_three: bool) -> Option<(String, String)> {
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
    /// `within_group` is `slide` (else `adjacent`).
    slide: bool,
}

/// One cost vector: [art?] [C0?] [CB?] u.. d.. C3 C4 C5 tie.
struct Layout {
    /// Leading digit counting artificial (illegal) pairs, used by the restricted-graph path
    /// so that its graph always has a perfect matching (see [`run`]).
    art: bool,
    c0: bool,
    /// CB digit (odd field only): the bye recipient's group counted from the lowest (0),
    /// so the bye goes to the lowest score group where a valid pairing allows it (A4).
    cb: bool,
    groups: usize,
    bases: Vec<u64>,
}

impl Layout {
    fn len(&self) -> usize {
        self.bases.len()
    }
    fn off(&self) -> usize {
        usize::from(self.art) + usize::from(self.c0) + usize::from(self.cb)
    }
    fn cb(&self) -> usize {
        usize::from(self.art) + usize::from(self.c0)
    }
    fn u(&self, k: usize) -> usize {
        self.off() + k
    }
    fn d(&self, k: usize) -> usize {
        self.off() + self.groups + k
    }
    fn c3(&self) -> usize {
        self.off() + 2 * self.groups
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
            slide: state.settings.within_group == WithinGroup::Slide,
        }
    }

    fn layout(&self, art: bool) -> Layout {
        let n = self.order.len() as u64;
        let g = self.group_size.len();
        let mut bases = Vec::new();
        if art {
            bases.push(n / 2 + 2);
        }
        if self.relaxed {
            bases.push(n + 1);
        }
        // CB: one bye per round, value < g.
        let cb = n % 2 == 1;
        if cb {
            bases.push(g as u64 + 1);
        }
        // C1: x_k counts pairs crossing the boundary below group k, each with one player
        // above it and one below, so it stays within the smaller side (the last digit, below
        // the lowest group, is always 0).
        let mut above = 0u64;
        for k in 0..g {
            above += self.group_size[k] as u64;
            bases.push(above.min(n - above) + 1);
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
            art,
            c0: self.relaxed,
            cb,
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
        // H5 constrains the colours, not the pair: legal when one order keeps both within H5.
        let order = pair_order(a, b, self.round, s);
        if order.breakers > 0 && !self.relaxed {
            return false;
        }
        out.clear();
        out.resize(lay.len(), 0);
        if lay.c0 {
            out[usize::from(lay.art)] = order.breakers;
        }
        let (ga, gb) = (self.group_of[x], self.group_of[y]);
        let float = ga != gb;
        if float {
            // C1: one for every boundary crossed, from below group ga to above group gb.
            for k in ga..gb {
                out[lay.u(k)] += 1;
            }
            out[lay.d(ga)] = (a.score - b.score) as u64;
        }
        let c3 = lay.c3();
        out[c3] = u64::from(order.miss);
        out[c3 + 1] = u64::from(same_team && s.same_team == SameTeam::Soft);
        out[c3 + 2] = if float {
            u64::from(a.floated_prev) + u64::from(b.floated_prev)
        } else {
            0
        };
        out[c3 + 3] = self.tie(x, y);
        true
    }

    /// The tie digit of pairing ranking positions `x` and `y`, in either order (the player
    /// count stands for the bye): inside a group, how far the partner is from the ideal one
    /// (`slide`: half the group down; `adjacent`: the next); a float, how far the two are
    /// from the bottom of the upper group and the top of the lower; the bye, how far from
    /// the lowest player.
    fn tie(&self, x: usize, y: usize) -> u64 {
        let (x, y) = (x.min(y), x.max(y));
        if y >= self.order.len() {
            return (self.order.len() - 1 - x) as u64;
        }
        let (ga, gb) = (self.group_of[x], self.group_of[y]);
        let (px, py) = (self.pos_in_group[x], self.pos_in_group[y]);
        if ga != gb {
            return (self.group_size[ga] - 1 - px + py) as u64;
        }
        let dist = (py - px) as i64;
        if self.slide {
            (dist - (self.group_size[ga] / 2) as i64).unsigned_abs()
        } else {
            (dist - 1) as u64
        }
    }

    fn bye_cost(&self, lay: &Layout, x: usize, out: &mut Vec<u64>) {
        out.clear();
        out.resize(lay.len(), 0);
        if lay.cb {
            out[lay.cb()] = (self.group_size.len() - 1 - self.group_of[x]) as u64;
        }
        // The bye crosses no boundary (C1).
        out[lay.c3() + 3] = self.tie(x, self.order.len());
    }

    /// The C0–C5 cost vector (tie digit zeroed) of pairing ranking positions `x` and `y` in
    /// either order, `y` possibly the bye, into `out`; false when the pair is illegal.
    fn c0_c5_cost(&self, lay: &Layout, x: usize, y: usize, out: &mut Vec<u64>) -> bool {
        let (x, y) = (x.min(y), x.max(y));
        if y >= self.order.len() {
            if !self.bye_eligible[x] {
                return false;
            }
            self.bye_cost(lay, x, out);
        } else if !self.pair_cost(lay, x, y, out) {
            return false;
        }
        out[lay.len() - 1] = 0;
        true
    }
}

fn top<W: Weight>(lay: &Layout) -> W {
    // Π bases = encode of (0, …, 0) with a leading 1.
    let mut acc = W::zero().mul_add(1, 1);
    for &b in &lay.bases {
        acc = acc.mul_add(b, 0);
    }
    acc
}

/// The restricted graph's candidate pairs: a window of `width` places around each player's
/// ideal partners, and with `spread` also partners at every scale (see [`candidate_edges`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Window {
    width: usize,
    spread: bool,
}

/// Candidate opponents (ranking positions > x) for position x in a large field: players of
/// its own group within `w.width` places of its adjacent and slide partners, the top of the
/// next group, and — for the bottom of a group, where floaters come from — the top of the
/// next three groups.
///
/// With `w.spread`, also partners at every scale: inside the group, those 1, 3, 9, 27, …
/// places from the adjacent and slide partners (powers of 3 solve 10 % faster than powers
/// of 2 at 10,000 players, with no difference at 1,000 or 3,000); and, for the players 0, 1,
/// 2, 4, 8, … places from the top or the bottom of their group, the players 0, 1, 3, 7, 15,
/// … places from the top of every lower group. A restricted graph needs more than a good
/// pairing: its optimal duals are only held by the pairs it contains, and with local pairs alone they
/// drift so far that pricing then finds far pairs violating them by the million (6.2 million
/// at 10,000 players) and re-solves most of the round. These O(n log n) pairs tie every
/// player's dual to its whole group and every group to every other at each scale; the first
/// pricing pass then finds hundreds of violating pairs instead.
fn candidate_edges(p: &Problem, x: usize, w: Window) -> Vec<usize> {
    let n = p.order.len();
    let g = p.group_of[x];
    let start = x - p.pos_in_group[x];
    let size = p.group_size[g];
    let pos = p.pos_in_group[x];
    let width = w.width;
    let mut c = BTreeSet::new();
    for centre in [pos, pos + size / 2] {
        for q in centre.saturating_sub(width)..(centre + width + 1).min(size) {
            if q > pos {
                c.insert(start + q);
            }
        }
    }
    let bottom = size - pos <= 2 * width + 1;
    let mut next = start + size;
    for k in 0..3 {
        if next >= n {
            break;
        }
        let gs = p.group_size[p.group_of[next]];
        let take = if bottom {
            2 * width + 2
        } else if k == 0 {
            width / 2 + 1
        } else {
            0
        };
        for q in 0..gs.min(take) {
            c.insert(next + q);
        }
        next += gs;
    }
    if w.spread {
        let mut d = 1usize;
        while d < size {
            for centre in [pos, pos + size / 2] {
                for q in [centre + d, centre.wrapping_sub(d)] {
                    if q > pos && q < size {
                        c.insert(start + q);
                    }
                }
            }
            d *= 3;
        }
        let power = |k: usize| k == 0 || k.is_power_of_two();
        if power(pos) || power(size - 1 - pos) {
            let mut next = start + size;
            while next < n {
                let gs = p.group_size[p.group_of[next]];
                let (mut q, mut step) = (0usize, 1usize);
                while q < gs {
                    c.insert(next + q);
                    q += step;
                    step *= 2;
                }
                next += gs;
            }
        }
    }
    c.into_iter().collect()
}

/// How the matching graph is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Complete graph up to [`DENSE_LIMIT`] players, restricted graph + pricing above.
    Auto,
    /// Always the restricted graph with this candidate window, then pricing (for tests).
    Restricted(usize),
    /// [`Mode::Auto`] with the tie settled by exchanges whatever the field size, as above
    /// [`TIE_EXACT_LIMIT`] (for tests and measurements).
    LocalTie,
}

/// What the restricted-graph path did (for tests and measurements).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PricingStats {
    /// Matchings solved (1 = the first restricted graph was already certified optimal).
    pub solves: usize,
    /// Edges of the first restricted graph.
    pub initial_edges: usize,
    /// Excluded legal edges found with negative reduced cost and added to the graph.
    pub added_edges: usize,
    /// Excluded pairs whose exact reduced cost had to be computed.
    pub suspects: usize,
    /// Whether the returned pairing carries an optimality proof: the final duals are
    /// feasible for every legal pair (always true up to [`SPARSE_FALLBACK_LIMIT`] players;
    /// above it pricing stops after [`PRICING_SOLVES`] solves and this may be false).
    pub certified: bool,
    /// Partner exchanges that settled the tie-break after a C0–C5 solve (above
    /// [`TIE_EXACT_LIMIT`] players; `None` when the tie was minimized exactly).
    pub tie_exchanges: Option<usize>,
    /// The pairing's tie-break total: the sum of the tie digits of its pairs and bye (see
    /// [`Problem::tie`]; smaller is nearer the `within_group` order).
    pub tie_total: u64,
}

/// Above [`SPARSE_FALLBACK_LIMIT`] players, the most matchings solved while pricing a
/// feasible round before the last restricted optimum is returned uncertified.
pub const PRICING_SOLVES: usize = 1;

/// Solve one round; `fixed` pairs (info indices) are taken as given.
pub(crate) fn solve(
    state: &SectionState,
    round: u32,
    infos: &[Info],
    fixed: &[(usize, usize)],
    mode: Mode,
) -> Result<(Pairing, PricingStats), PairingError> {
    let mut exclude = BTreeSet::new();
    for &(a, b) in fixed {
        exclude.insert(a);
        exclude.insert(b);
    }
    let p = Problem::new(state, round, infos, &exclude);
    let window = match mode {
        Mode::Auto | Mode::LocalTie if p.order.len() <= DENSE_LIMIT => None,
        Mode::Auto | Mode::LocalTie => Some(Window {
            width: INITIAL_WINDOW,
            spread: p.order.len() <= SPARSE_FALLBACK_LIMIT,
        }),
        Mode::Restricted(width) => Some(Window {
            width,
            spread: false,
        }),
    };
    let exact_tie = match mode {
        Mode::Auto => p.order.len() <= TIE_EXACT_LIMIT,
        Mode::Restricted(_) => true,
        Mode::LocalTie => false,
    };
    let lay = p.layout(window.is_some());
    let bits = lay.bits() + 8;
    let (mate, mut stats) = match bits.div_ceil(64) {
        0..=1 => run::<i64>(&p, &lay, window, exact_tie)?,
        2 => run::<Wide<2>>(&p, &lay, window, exact_tie)?,
        3 => run::<Wide<3>>(&p, &lay, window, exact_tie)?,
        4 => run::<Wide<4>>(&p, &lay, window, exact_tie)?,
        5 => run::<Wide<5>>(&p, &lay, window, exact_tie)?,
        6 => run::<Wide<6>>(&p, &lay, window, exact_tie)?,
        7 => run::<Wide<7>>(&p, &lay, window, exact_tie)?,
        8 => run::<Wide<8>>(&p, &lay, window, exact_tie)?,
        9 => run::<Wide<9>>(&p, &lay, window, exact_tie)?,
        10 => run::<Wide<10>>(&p, &lay, window, exact_tie)?,
        11..=12 => run::<Wide<12>>(&p, &lay, window, exact_tie)?,
        13..=16 => run::<Wide<16>>(&p, &lay, window, exact_tie)?,
        17..=32 => run::<Wide<32>>(&p, &lay, window, exact_tie)?,
        33..=64 => run::<Wide<64>>(&p, &lay, window, exact_tie)?,
        _ => run::<Wide<128>>(&p, &lay, window, exact_tie)?,
    };
    let n = p.order.len();
    let mut mate = mate;
    if !exact_tie {
        // The bye as position n, as in the matching.
        let mut m: Vec<usize> = (0..n).map(|x| mate[x].unwrap_or(n)).collect();
        if let Some(x) = m.iter().position(|&y| y == n) {
            m.push(x);
        }
        stats.tie_exchanges = Some(settle_ties(&p, &lay, &mut m));
        mate = to_mates(&m, n);
    }
    let mate = keep_completable(&p, fixed, mate);
    stats.tie_total = (0..n)
        .map(|x| match mate[x] {
            Some(y) if y > x => p.tie(x, y),
            Some(_) => 0,
            None => p.tie(x, n),
        })
        .sum();
    Ok((build(&p, fixed, &mate)?, stats))
}

/// H6 (A2): when the optimum leaves the stage unfinishable (a small field, see
/// [`completion`]), the best pairing under the same objective that does not; when every
/// pairing does (or the field is too large to search), the optimum. `mate` per ranking
/// position (`None` = bye); `fixed` pairs are part of the round.
fn keep_completable(
    p: &Problem,
    fixed: &[(usize, usize)],
    mate: Vec<Option<usize>>,
) -> Vec<Option<usize>> {
    let s = &p.state.settings;
    let left = p.state.total_rounds.saturating_sub(p.round);
    let n = p.order.len();
    // The field: the players to pair, ranking positions first, then the fixed pairs.
    let players: Vec<usize> = p
        .order
        .iter()
        .copied()
        .chain(fixed.iter().flat_map(|&(a, b)| [a, b]))
        .collect();
    if left == 0 || players.len() > completion::COMPLETION_LIMIT {
        return mate;
    }
    let hard = s.same_team == SameTeam::Hard;
    let infos = p.infos;
    let rule = match s.bye {
        arbiter_types::ByeChoice::LowestWithoutBye => completion::ByeRule::WithoutBye,
        arbiter_types::ByeChoice::LowestFewestByes => completion::ByeRule::FewestByes,
    };
    let field = completion::Field::new(
        players.len(),
        |i, j| {
            let (a, b) = (&infos[players[i]], &infos[players[j]]);
            let team_mates = matches!((a.team, b.team), (Some(x), Some(y)) if x == y);
            !(a.met.contains(&b.no) || hard && team_mates)
        },
        players.iter().map(|&i| infos[i].byes).collect(),
        rule,
    );
    let fixed_pairs: Vec<(usize, usize)> = (0..fixed.len())
        .map(|k| (n + 2 * k, n + 2 * k + 1))
        .collect();
    let ok = |mate: &[Option<usize>]| {
        let mut pairs = fixed_pairs.clone();
        let mut bye = None;
        for (x, m) in mate.iter().enumerate() {
            match *m {
                Some(y) if y > x => pairs.push((x, y)),
                Some(_) => {}
                None => bye = Some(x),
            }
        }
        field.after(&pairs, bye).completable(left) != Some(false)
    };
    // H6 asks for completion only when it exists from the present state: this round and
    // the later ones (unknown or too hard to search: no constraint).
    if ok(&mate) || field.completable(left + 1) != Some(true) {
        return mate;
    }
    // Every legal pairing of this round with its cost vector (digits summed: the bases keep
    // every total below its radix, so comparing the vectors compares the objective).
    let lay = p.layout(false);
    let mut cost: Vec<Option<Vec<u64>>> = vec![None; n * (n + 1)];
    let mut buf = Vec::new();
    for x in 0..n {
        for y in x + 1..n {
            if p.pair_cost(&lay, x, y, &mut buf) {
                cost[x * (n + 1) + y] = Some(buf.clone());
            }
        }
        if n % 2 == 1 && p.bye_eligible[x] {
            p.bye_cost(&lay, x, &mut buf);
            cost[x * (n + 1) + n] = Some(buf.clone());
        }
    }
    let mut all: Vec<(Vec<u64>, Vec<Option<usize>>)> = Vec::new();
    let mut cur = vec![None; n];
    let mut open = vec![true; n];
    enumerate_pairings(
        &cost,
        n,
        &mut open,
        &mut cur,
        &mut vec![0; lay.len()],
        n % 2 == 1,
        &mut all,
    );
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all.into_iter()
        .take(completion::CANDIDATE_LIMIT)
        .map(|(_, m)| m)
        .find(|m| ok(m))
        .unwrap_or(mate)
}

/// Every pairing of the open ranking positions from the pair costs of [`keep_completable`]
/// (`cost[x·(n+1)+y]`, y = n the bye), with its summed cost vector, into `out`.
fn enumerate_pairings(
    cost: &[Option<Vec<u64>>],
    n: usize,
    open: &mut [bool],
    cur: &mut [Option<usize>],
    sum: &mut Vec<u64>,
    bye_open: bool,
    out: &mut Vec<(Vec<u64>, Vec<Option<usize>>)>,
) {
    let Some(x) = open.iter().position(|&o| o) else {
        if !bye_open {
            out.push((sum.clone(), cur.to_vec()));
        }
        return;
    };
    let mut take = |y: usize, open: &mut [bool], cur: &mut [Option<usize>], sum: &mut Vec<u64>| {
        let Some(c) = &cost[x * (n + 1) + y] else {
            return;
        };
        for (s, &d) in sum.iter_mut().zip(c) {
            *s += d;
        }
        open[x] = false;
        if y < n {
            open[y] = false;
            cur[x] = Some(y);
            cur[y] = Some(x);
        } else {
            cur[x] = None;
        }
        enumerate_pairings(cost, n, open, cur, sum, bye_open && y < n, out);
        open[x] = true;
        if y < n {
            open[y] = true;
        }
        for (s, &d) in sum.iter_mut().zip(c) {
            *s -= d;
        }
    };
    for y in x + 1..n {
        if open[y] {
            take(y, open, cur, sum);
        }
    }
    if bye_open {
        take(n, open, cur, sum);
    }
}

/// A re-solve after pricing is warm-started when at most `total / WARM_RATIO` edges were
/// added, and started from scratch otherwise (after a flood of violations the repaired
/// duals are far from optimal and a fresh solve is faster).
const WARM_RATIO: usize = 1;

/// Candidate window of the restricted graph above [`DENSE_LIMIT`] players.
const INITIAL_WINDOW: usize = 6;

/// Returns mate per ranking position (`None` = bye).
///
/// `window: None`: every legal pair is an edge; no perfect matching means no valid pairing.
///
/// `window: Some(w)`: column generation. The graph holds the candidate pairs of
/// [`candidate_edges`], every bye edge, the pairs (2k, 2k+1) of consecutive players, and
/// for those that may not meet an artificial edge instead, costed by a leading digit above
/// every criterion so that the graph always has a perfect matching and a legal one is always preferred. After each
/// solve, [`price`] finds every legal pair outside the graph whose reduced cost under the
/// optimal duals (vertex and blossom) is negative; those pairs are added and the matching is
/// solved again. When none is left, the duals are feasible for the COMPLETE legal graph, so
/// by LP duality the matching is optimal there: exact for any field size. If it still uses
/// an artificial pair, no legal pairing exists (proved, not guessed).
///
/// Without `exact_tie` every edge gets its tie digit zeroed: the graph is solved and priced
/// on C0–C5 alone, and the certified optimum's tie is then settled by [`settle_ties`].
fn run<W: Weight>(
    p: &Problem,
    lay: &Layout,
    window: Option<Window>,
    exact_tie: bool,
) -> Result<(Vec<Option<usize>>, PricingStats), PairingError> {
    let n = p.order.len();
    let odd = n % 2 == 1;
    let total = n + usize::from(odd);
    let units = Units::<W>::new(lay);
    let topw: W = top(lay);
    let mut buf = Vec::new();
    let mut stats = PricingStats::default();
    let mut edges: Vec<(usize, usize, W)> = Vec::new();
    // Per edge: its tie digit (the last, place value 1), for the coarse first solve.
    let mut ties: Vec<u64> = Vec::new();
    let tie = lay.len() - 1;
    for x in 0..n {
        let cands: Vec<usize> = match window {
            None => (x + 1..n).collect(),
            Some(w) => candidate_edges(p, x, w),
        };
        for y in cands {
            if p.pair_cost(lay, x, y, &mut buf) {
                ties.push(buf[tie]);
                if !exact_tie {
                    buf[tie] = 0;
                }
                edges.push((x, y, topw.sub(units.encode(&buf))));
            }
        }
    }
    if odd {
        for x in 0..n {
            if p.bye_eligible[x] {
                p.bye_cost(lay, x, &mut buf);
                ties.push(buf[tie]);
                if !exact_tie {
                    buf[tie] = 0;
                }
                edges.push((x, n, topw.sub(units.encode(&buf))));
            }
        }
    }
    let Some(w) = window else {
        stats.solves = 1;
        stats.certified = true;
        stats.initial_edges = edges.len();
        let mate = max_weight_perfect_matching(total, &edges).ok_or_else(|| no_pairing(p))?;
        return Ok((to_mates(&mate, n), stats));
    };
    // Artificial pairs.
    let mut art = vec![0u64; lay.len()];
    art[0] = 1;
    let art_w = topw.sub(units.encode(&art));
    let mut artificial = BTreeSet::new();
    for k in 0..total / 2 {
        let (x, y) = (2 * k, 2 * k + 1);
        if y == n {
            if !p.bye_eligible[x] {
                artificial.insert(x);
                edges.push((x, y, art_w));
                ties.push(0);
            }
        } else if !p.pair_cost(lay, x, y, &mut buf) {
            artificial.insert(x);
            edges.push((x, y, art_w));
            ties.push(0);
        } else if !candidate_edges(p, x, w).contains(&y) {
            // Legal but outside the window: keep it, so the graph has a perfect matching.
            ties.push(buf[tie]);
            if !exact_tie {
                buf[tie] = 0;
            }
            edges.push((x, y, topw.sub(units.encode(&buf))));
        }
    }
    stats.initial_edges = edges.len();
    let pricer = Pricer::new(p, lay, topw, units, exact_tie);
    let mut solver = if exact_tie {
        coarse_first(total, &edges, &ties)
    } else {
        // The ties are all zero: the coarse solve is the whole solve; the real ties only
        // steer which of the equal optima it finds.
        IncrementalPerfect::preferring(total, &edges, &ties)
    };
    // Whether the next solve is warm-started (its result is then re-checked).
    let mut warm = false;
    loop {
        stats.solves += 1;
        let mut solved = solver.solve();
        if warm
            && !solved
                .as_ref()
                .is_some_and(|(m, d)| certifies(&edges, m, d))
        {
            // Safety net for the warm start: re-solve from scratch.
            solver = IncrementalPerfect::new(total, &edges);
            solved = solver.solve();
        }
        let Some((mate, duals)) = solved else {
            // Unreachable: the artificial pairs form a perfect matching.
            return Err(no_pairing(p));
        };
        let big = n > SPARSE_FALLBACK_LIMIT;
        let first_only = big && stats.solves >= PRICING_SOLVES;
        let added = pricer.price(&duals, &mut stats, first_only);
        let uses_artificial = mate
            .iter()
            .enumerate()
            .any(|(x, &y)| y == x + 1 && artificial.contains(&x));
        if added.is_empty() {
            stats.certified = true;
            if uses_artificial {
                return Err(no_pairing(p));
            }
            return Ok((to_mates(&mate, n), stats));
        }
        // A legal pairing in hand: above the fallback limit, stop after a few solves
        // (legal, optimal on the graph solved, not proven optimal). "No valid pairing" is
        // only ever reported with the certificate.
        if !uses_artificial && big && stats.solves >= PRICING_SOLVES {
            return Ok((to_mates(&mate, n), stats));
        }
        stats.added_edges += added.len();
        // Few violations: warm start from the current matching and duals (only the freed
        // vertices are re-matched). Many: the repaired duals would be far from optimal and a
        // fresh solve is faster.
        warm = added.len() * WARM_RATIO <= total;
        if warm {
            solver.add_edges(&added);
        }
        edges.extend(added);
        if !warm {
            solver = IncrementalPerfect::new(total, &edges);
        }
    }
}

/// The first solve of the restricted graph, in two steps. The tie digit (slide or adjacent
/// distance) makes most pairs of a score group differ in cost, so that each free player's
/// alternating tree sweeps its whole group before it finds a partner; without it, the graph
/// is solved more than twice as fast. So the graph is solved first with every tie digit
/// zeroed (weights `w + tie ≥ w`), and its optimal duals, blossoms flattened onto the
/// vertices, start the full solve: they are feasible for the full weights and already carry
/// the structure of the optimum under C0–C5 (floats, colours), so mostly the tie is left to
/// settle. The result is the same optimum (the full solve is exact from any feasible
/// start). At 10,000 players the two solves took 0.6–0.7 s where the single one took
/// 0.6–1.0 s; a certified round of 20,000 players 3.3–3.9 s instead of 9–10 s.
fn coarse_first<W: Weight>(
    total: usize,
    edges: &[(usize, usize, W)],
    ties: &[u64],
) -> IncrementalPerfect<W> {
    if ties.len() != edges.len() {
        return IncrementalPerfect::new(total, edges);
    }
    // The coarse weights; the full ones are these less the tie (few distinct coarse
    // weights, so the solvers keep them in a small shared table).
    let coarse: Vec<(usize, usize, W)> = edges
        .iter()
        .zip(ties)
        .map(|(&(i, j, w), &t)| (i, j, w.add(small(t))))
        .collect();
    // Bound first, so that the coarse solver is dropped before the full one is built.
    let solved = IncrementalPerfect::split(total, &coarse, None, None).solve();
    match solved {
        Some((_, duals)) => {
            let init: Vec<W> = (0..total).map(|v| duals.flattened(v)).collect();
            IncrementalPerfect::split(total, &coarse, Some(ties), Some(&init))
        }
        None => IncrementalPerfect::new(total, edges),
    }
}

/// Most passes of [`settle_ties`] over the field.
const TIE_PASSES: usize = 64;

/// Partners tried for a player in [`settle_ties`]: `r` places either side of each ideal
/// partner, and `r` players at the bottom and top of the neighbouring groups, with `r` one
/// in [`TIE_REACH_PER`] of the player's group size, between these bounds. Wider reaches
/// leave smaller ties in large groups (100,000 players, round 9: 12 places 1.99 million,
/// 48 places 1.27 million; the exact minimum is 0.86 million) at some cost in time (8.1 s
/// → 12.2 s); at 10,000 players 40 places gave no better than 12.
const TIE_REACH: (usize, usize) = (12, 48);

/// See [`TIE_REACH`].
const TIE_REACH_PER: usize = 256;

/// Settle the tie-break of a pairing that is optimal under C0–C5 (`mate` per ranking
/// position, the bye as position `n`; see [`TIE_EXACT_LIMIT`]). Two pairs (a, b), (c, d)
/// are exchanged for (a, c), (b, d) or (a, d), (b, c) when both new pairs are legal, their
/// C0–C5 costs add up to exactly the old ones (so the pairing stays optimal under C0–C5,
/// proved by the same certificate) and their ties to less. Each player is tried, in ranking
/// order, with the players near its ideal partners (see [`Problem::tie`]) and at the edges
/// of the neighbouring groups, pass after pass until no exchange helps. Deterministic: the
/// same pairing in, the same pairing out. Returns the number of exchanges made.
fn settle_ties(p: &Problem, lay: &Layout, mate: &mut [usize]) -> usize {
    let n = p.order.len();
    let total = mate.len();
    let mut ex = Exchanger {
        p,
        lay,
        buf: Vec::new(),
        sums: [Vec::new(), Vec::new()],
    };
    let mut exchanges = 0;
    let mut cands: Vec<usize> = Vec::new();
    let mut near: Vec<usize> = Vec::new();
    // Players to try in this pass: all at first, then those near a player whose partner
    // changed (the candidate relation is symmetric but for the group edges, which every
    // player of a group shares).
    let mut dirty = vec![true; n];
    for _ in 0..TIE_PASSES {
        let before = exchanges;
        let mut next = vec![false; n];
        for a in 0..n {
            let b = mate[a];
            if !dirty[a] || b >= total || p.tie(a, b) == 0 {
                continue;
            }
            tie_candidates(p, a, &mut cands);
            let mut changed = None;
            for &c in &cands {
                let d = mate[c];
                if c == a || c == b || d >= total {
                    continue;
                }
                let old = [(a, b), (c, d)];
                if ex.apply(mate, &old, &[(a, c), (b, d)])
                    || ex.apply(mate, &old, &[(a, d), (b, c)])
                {
                    changed = Some([a, b, c, d]);
                    break;
                }
            }
            if let Some(players) = changed {
                exchanges += 1;
                for x in players.into_iter().filter(|&x| x < n) {
                    tie_candidates(p, x, &mut near);
                    for &y in near.iter().chain(std::iter::once(&x)) {
                        if y > a {
                            dirty[y] = true;
                        } else {
                            next[y] = true;
                        }
                    }
                }
            }
        }
        if exchanges == before {
            break;
        }
        dirty = next;
    }
    exchanges
}

/// Checks and makes one exchange of partners for [`settle_ties`].
struct Exchanger<'a, 'b> {
    p: &'a Problem<'b>,
    lay: &'a Layout,
    buf: Vec<u64>,
    /// Digit-wise C0–C5 cost sums of the new and the old pairs.
    sums: [Vec<u64>; 2],
}

impl Exchanger<'_, '_> {
    /// Replace the pairs `old` by `new` (the same players) when every new pair is legal, the
    /// C0–C5 costs add up to the same, digit by digit, and the ties to less; whether it was
    /// done.
    fn apply(
        &mut self,
        mate: &mut [usize],
        old: &[(usize, usize)],
        new: &[(usize, usize)],
    ) -> bool {
        let p = self.p;
        let tie_sum =
            |pairs: &[(usize, usize)]| pairs.iter().map(|&(x, y)| p.tie(x, y)).sum::<u64>();
        if tie_sum(new) >= tie_sum(old) {
            return false;
        }
        for (sum, pairs) in self.sums.iter_mut().zip([new, old]) {
            sum.clear();
            sum.resize(self.lay.len(), 0);
            for &(x, y) in pairs {
                if !p.c0_c5_cost(self.lay, x, y, &mut self.buf) {
                    return false;
                }
                for (s, &c) in sum.iter_mut().zip(&self.buf) {
                    *s += c;
                }
            }
        }
        if self.sums[0] != self.sums[1] {
            return false;
        }
        for &(x, y) in new {
            mate[x] = y;
            mate[y] = x;
        }
        true
    }
}

/// The partners [`settle_ties`] tries for ranking position `a`: near its ideal partners in
/// its group, the bottom of its group and the top of the next (floats down), the top of its
/// group and the bottom of the one above (floats up), and the lowest players (the bye).
fn tie_candidates(p: &Problem, a: usize, out: &mut Vec<usize>) {
    out.clear();
    let n = p.order.len();
    let g = p.group_of[a];
    let size = p.group_size[g];
    let pos = p.pos_in_group[a];
    let start = a - pos;
    let r = (size / TIE_REACH_PER).clamp(TIE_REACH.0, TIE_REACH.1);
    // Ranges of ranking positions `[lo, hi)`, each clipped to where it applies.
    let mut ranges: Vec<(usize, usize)> = Vec::with_capacity(7);
    let mut near = |centre: usize, lo: usize, hi: usize| {
        let (from, to) = (centre.saturating_sub(r).max(lo), (centre + r + 1).min(hi));
        if from < to {
            ranges.push((from, to));
        }
    };
    let ideal = if p.slide {
        [pos + size / 2, pos.wrapping_sub(size / 2)]
    } else {
        [pos + 1, pos.wrapping_sub(1)]
    };
    for c in ideal {
        if c < size {
            near(start + c, start, start + size);
        }
    }
    near(start + size - 1, start, start + size);
    near(start + size, start + size, n);
    near(start, start, start + size);
    near(start.saturating_sub(1), 0, start);
    near(n - 1, 0, n);
    ranges.sort_unstable();
    let mut next = 0;
    for (lo, hi) in ranges {
        out.extend(lo.max(next)..hi);
        next = next.max(hi);
    }
}

/// Whether `mate` is a perfect matching of the graph `edges` that `duals` prove optimal on
/// it: every edge has a non-negative reduced cost and every matched pair a zero one.
fn certifies<W: Weight>(edges: &[(usize, usize, W)], mate: &[usize], duals: &Duals<W>) -> bool {
    let mut tight = 0usize;
    for &(i, j, w) in edges {
        let s = duals.slack(i, j, w);
        if s < W::zero() {
            return false;
        }
        if mate[i] == j && s == W::zero() {
            tight += 1;
        }
    }
    tight * 2 >= mate.len()
}

fn to_mates(mate: &[usize], n: usize) -> Vec<Option<usize>> {
    mate[..n].iter().map(|&y| (y < n).then_some(y)).collect()
}

/// Range-minimum tree over keys, reporting every index whose key is below a threshold.
struct MinTree<W> {
    size: usize,
    t: Vec<Option<W>>,
}

impl<W: Weight> MinTree<W> {
    fn new(keys: &[W]) -> Self {
        let size = keys.len().next_power_of_two().max(1);
        let mut t = vec![None; 2 * size];
        for (i, &k) in keys.iter().enumerate() {
            t[size + i] = Some(k);
        }
        for i in (1..size).rev() {
            t[i] = match (t[2 * i], t[2 * i + 1]) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, None) => a,
                (None, b) => b,
            };
        }
        MinTree { size, t }
    }

    /// Push every index in `lo..hi` with key < `thr` onto `out`.
    fn report(&self, lo: usize, hi: usize, thr: W, out: &mut Vec<usize>) {
        if lo < hi {
            self.rec(1, 0, self.size, lo, hi, thr, out);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn rec(
        &self,
        node: usize,
        l: usize,
        r: usize,
        lo: usize,
        hi: usize,
        thr: W,
        out: &mut Vec<usize>,
    ) {
        if r <= lo || hi <= l || self.t[node].is_none_or(|m| m >= thr) {
            return;
        }
        if r - l == 1 {
            out.push(l);
            return;
        }
        let mid = (l + r) / 2;
        self.rec(2 * node, l, mid, lo, hi, thr, out);
        self.rec(2 * node + 1, mid, r, lo, hi, thr, out);
    }
}

/// Exact pricing of the pairs left out of the restricted graph.
///
/// With `A_x = y_x − 2·top`, the reduced cost of a pair is at least
/// `A_x + A_y + 4·enc(c)` (blossom duals are ≥ 0), where `enc(c)` is the mixed-radix cost.
/// The cost is bounded below by a vector that depends only on the two players' groups,
/// positions, previous floats and due-colour classes (C3 ≥ 1 when both are due the same
/// colour; C0, C4 and the hard rules are dropped). Per group and due class the pairs whose
/// bound is negative are enumerated with range-minimum trees (inside a group, where the
/// tie-break is a function of the position difference) or sorted lists (floats); each such
/// suspect gets its exact legality, cost and reduced cost including blossom duals. Every
/// legal pair with a negative reduced cost is returned; none is missed because the bound
/// never exceeds the true cost.
struct Pricer<'a, W: Weight> {
    p: &'a Problem<'a>,
    lay: &'a Layout,
    topw: W,
    class: Vec<u8>,
    /// Per group: start position.
    start: Vec<usize>,
    /// Per group and class: ranking positions, ascending.
    members: Vec<[Vec<usize>; 3]>,
    /// C1 as prefix sums: `cu[k]` is 4·(R_u0 + … + R_u(k−1)), so a float from group ga
    /// down to group gb, which crosses the boundaries ga … gb−1, costs `cu[gb] − cu[ga]`.
    cu: Vec<W>,
    /// 4·R_k for the other digits used by the bound.
    q_d: Vec<W>,
    q3: W,
    q5: W,
    units: Units<W>,
    /// Whether the weights carry the tie digit (see [`run`]); without it the bounds leave
    /// the tie out too.
    tie: bool,
}

/// The weight of one unit of each cost digit, so that a cost vector (mostly zeros) is
/// encoded with one multiplication per non-zero digit.
struct Units<W> {
    unit: Vec<W>,
}

impl<W: Weight> Units<W> {
    fn new(lay: &Layout) -> Self {
        let mut unit = vec![W::zero(); lay.len()];
        let mut acc = W::zero().mul_add(1, 1);
        for (k, &b) in lay.bases.iter().enumerate().rev() {
            unit[k] = acc;
            acc = acc.mul_add(b, 0);
        }
        Units { unit }
    }

    /// The mixed-radix value of the cost vector `v` (its digits stay below their bases).
    fn encode(&self, v: &[u64]) -> W {
        let mut acc = W::zero();
        for (u, &c) in self.unit.iter().zip(v) {
            if c != 0 {
                acc = acc.add(u.mul_add(c, 0));
            }
        }
        acc
    }
}

fn small<W: Weight>(v: u64) -> W {
    W::zero().mul_add(1, v)
}

impl<'a, W: Weight> Pricer<'a, W> {
    fn new(p: &'a Problem<'a>, lay: &'a Layout, topw: W, units: Units<W>, tie: bool) -> Self {
        let n = p.order.len();
        let class: Vec<u8> = p
            .order
            .iter()
            .map(|&i| match p.infos[i].due() {
                None => 0,
                Some(Colour::Red) => 1,
                Some(Colour::Black) => 2,
            })
            .collect();
        let g = p.group_size.len();
        let mut start = Vec::with_capacity(g);
        let mut members: Vec<[Vec<usize>; 3]> = vec![Default::default(); g];
        for x in 0..n {
            if p.pos_in_group[x] == 0 {
                start.push(x);
            }
            members[p.group_of[x]][class[x] as usize].push(x);
        }
        let unit = |k: usize| -> W { units.unit[k].mul_add(4, 0) };
        Pricer {
            p,
            lay,
            topw,
            class,
            start,
            members,
            cu: std::iter::once(W::zero())
                .chain((0..g).scan(W::zero(), |acc, k| {
                    *acc = acc.add(unit(lay.u(k)));
                    Some(*acc)
                }))
                .collect(),
            q_d: (0..g).map(|k| unit(lay.d(k))).collect(),
            q3: unit(lay.c3()),
            q5: unit(lay.c3() + 2),
            units,
            tie,
        }
    }

    /// A tie digit of `t` as a bound counts it: `4·t` in the solver's scale, or nothing when
    /// the weights leave the tie out.
    fn tw(&self, t: u64) -> W {
        if self.tie {
            small(4 * t)
        } else {
            W::zero()
        }
    }

    /// `A_x + A_y + 4·b` where `b` is the lower bound of the pair's cost that the pricing
    /// queries use (the hard rules, C0 and C4 left out): a lower bound of its reduced cost
    /// before the blossom term.
    fn bound(&self, a: &[W], x: usize, y: usize) -> W {
        let p = self.p;
        let (x, y) = (x.min(y), x.max(y));
        let (ga, gb) = (p.group_of[x], p.group_of[y]);
        let (px, py) = (p.pos_in_group[x], p.pos_in_group[y]);
        let mut b = a[x].add(a[y]);
        if self.class[x] != 0 && self.class[x] == self.class[y] {
            b = b.add(self.q3);
        }
        if ga == gb {
            let dist = (py - px) as i64;
            let tie = match p.state.settings.within_group {
                WithinGroup::Slide => (dist - (p.group_size[ga] / 2) as i64).unsigned_abs(),
                WithinGroup::Adjacent => (dist - 1) as u64,
            };
            b.add(self.tw(tie))
        } else {
            b = b
                .add(self.cu[gb])
                .sub(self.cu[ga])
                .add(self.tw((p.group_size[ga] - 1 - px + py) as u64));
            for _ in 0..(p.group_score[ga] - p.group_score[gb]) {
                b = b.add(self.q_d[ga]);
            }
            for z in [x, y] {
                if p.infos[p.order[z]].floated_prev {
                    b = b.add(self.q5);
                }
            }
            b
        }
    }

    /// Every legal pair outside the graph with a negative reduced cost (or, with
    /// `first_only`, at most one: enough to know the certificate fails).
    #[allow(clippy::needless_range_loop)]
    fn price(
        &self,
        duals: &Duals<W>,
        stats: &mut PricingStats,
        first_only: bool,
    ) -> Vec<(usize, usize, W)> {
        let p = self.p;
        let n = p.order.len();
        let two_top = self.topw.add(self.topw);
        let a: Vec<W> = (0..n).map(|x| duals.vertex(x).sub(two_top)).collect();
        let slide = p.state.settings.within_group == WithinGroup::Slide;
        let mut suspects: Vec<(usize, usize)> = Vec::new();
        let mut found = Vec::new();
        let mut buf = Vec::new();
        let mut out = Vec::new();
        let g = p.group_size.len();
        // Pairs inside one blossom also pay twice the duals of the blossoms holding both
        // (see [`Part`]): the queries use the lowest blossom holding x and a whole part.
        let tops = duals.top_blossoms(n);
        // Exact check of the suspects gathered so far; true when pricing may stop. The
        // pair's legality and cost only when its bound with the exact blossom term fails.
        let mut flush = |suspects: &mut Vec<(usize, usize)>, out: &mut Vec<(usize, usize, W)>| {
            stats.suspects += suspects.len();
            for (x, y) in suspects.drain(..) {
                // The query's bound with the exact blossom term first: most suspects end here,
                // before the pair's legality and cost are computed.
                let z = duals.common_z(x, y);
                if self.bound(&a, x, y).add(z).add(z) >= W::zero() {
                    continue;
                }
                if p.pair_cost(self.lay, x, y, &mut buf) {
                    if !self.tie {
                        buf[self.lay.len() - 1] = 0;
                    }
                    let w = self.topw.sub(self.units.encode(&buf));
                    if duals.vertex_slack(x, y, w).add(z).add(z) < W::zero() {
                        out.push((x, y, w));
                        if first_only {
                            return true;
                        }
                    }
                }
            }
            false
        };
        // Same group.
        for k in 0..g {
            let size = p.group_size[k];
            let st = self.start[k];
            for kc in 0..3 {
                for part in parts(&self.members[k][kc], &tops, duals) {
                    let list = &part.members;
                    let pos: Vec<usize> = list.iter().map(|&y| y - st).collect();
                    let k1: Vec<W> = list
                        .iter()
                        .zip(&pos)
                        .map(|(&y, &py)| a[y].add(self.tw(py as u64)))
                        .collect();
                    let k2: Vec<W> = list
                        .iter()
                        .zip(&pos)
                        .map(|(&y, &py)| a[y].sub(self.tw(py as u64)))
                        .collect();
                    let t1 = MinTree::new(&k1);
                    let t2 = MinTree::new(&k2);
                    for x in st..st + size {
                        let px = x - st;
                        let mut extra = if kc != 0 && self.class[x] as usize == kc {
                            self.q3
                        } else {
                            W::zero()
                        };
                        let z = part.blossom_z(x, &tops, duals);
                        extra = extra.add(z).add(z);
                        // Violation suspected when A_x + extra + A_y + 4·tie < 0.
                        let t = W::zero().sub(a[x].add(extra));
                        let after = pos.partition_point(|&py| py <= px);
                        found.clear();
                        if slide {
                            let c = px + size / 2;
                            let mid = pos.partition_point(|&py| py < c).max(after);
                            t1.report(mid, pos.len(), t.add(self.tw(c as u64)), &mut found);
                            t2.report(after, mid, t.sub(self.tw(c as u64)), &mut found);
                        } else {
                            t1.report(
                                after,
                                pos.len(),
                                t.add(self.tw((px + 1) as u64)),
                                &mut found,
                            );
                        }
                        suspects.extend(found.iter().map(|&i| (x, list[i])));
                        if flush(&mut suspects, &mut out) {
                            return out;
                        }
                    }
                }
            }
        }
        // Floats: x in group ga, y in a lower group gb. Per group and class, each part's
        // players sorted by the part of the bound that depends on y alone.
        let mut sorted: Vec<[Vec<KeyedPart<W>>; 3]> = Vec::with_capacity(g);
        for k in 0..g {
            let st = self.start[k];
            let mut per: [Vec<KeyedPart<W>>; 3] = Default::default();
            for (kc, slot) in per.iter_mut().enumerate() {
                for part in parts(&self.members[k][kc], &tops, duals) {
                    let mut keyed: Vec<(W, usize)> = part
                        .members
                        .iter()
                        .map(|&y| {
                            let mut key = a[y].add(self.tw((y - st) as u64));
                            if p.infos[p.order[y]].floated_prev {
                                key = key.add(self.q5);
                            }
                            (key, y)
                        })
                        .collect();
                    keyed.sort();
                    slot.push((part, keyed));
                }
            }
            sorted.push(per);
        }
        for x in 0..n {
            let ga = p.group_of[x];
            let px = p.pos_in_group[x];
            let mut base = a[x]
                .sub(self.cu[ga])
                .add(self.tw((p.group_size[ga] - 1 - px) as u64));
            if p.infos[p.order[x]].floated_prev {
                base = base.add(self.q5);
            }
            for gb in ga + 1..g {
                let diff = (p.group_score[ga] - p.group_score[gb]) as u64;
                let mut bx = base.add(self.cu[gb]);
                for _ in 0..diff {
                    bx = bx.add(self.q_d[ga]);
                }
                for (kc, class_parts) in sorted[gb].iter().enumerate() {
                    let extra = if kc != 0 && self.class[x] as usize == kc {
                        self.q3
                    } else {
                        W::zero()
                    };
                    let t = W::zero().sub(bx.add(extra));
                    for (part, list) in class_parts {
                        let z = part.blossom_z(x, &tops, duals);
                        let thr = t.sub(z).sub(z);
                        for &(key, y) in list {
                            if key >= thr {
                                break;
                            }
                            suspects.push((x, y));
                        }
                    }
                }
            }
            if flush(&mut suspects, &mut out) {
                return out;
            }
        }
        out
    }
}

/// Players of one group and class as the pricing queries see them: those outside any
/// blossom in one part, those of each top-level blossom in a part of their own, with the
/// lowest blossom holding the whole part.
struct Part {
    members: Vec<usize>,
    /// Top-level blossom and the lowest blossom holding every member (`None` for the part
    /// of players outside any blossom).
    blossom: Option<(usize, usize)>,
}

impl Part {
    /// A lower bound of the blossom term `Σ z` of any pair (x, y) with y in this part: the
    /// dual sum of the lowest blossom holding x and the whole part (every blossom holding x
    /// and y lies inside it).
    fn blossom_z<W: Weight>(&self, x: usize, tops: &[(usize, W)], duals: &Duals<W>) -> W {
        match self.blossom {
            Some((top, low)) if tops[x].0 == top => {
                duals.lca(x, low).map_or(W::zero(), |b| duals.zsum(b))
            }
            _ => W::zero(),
        }
    }
}

/// A part with its members keyed and sorted for the float queries.
type KeyedPart<W> = (Part, Vec<(W, usize)>);

/// Split `list` (ranking positions) into [`Part`]s, members in their original order.
fn parts<W: Weight>(list: &[usize], tops: &[(usize, W)], duals: &Duals<W>) -> Vec<Part> {
    let mut single = Vec::new();
    let mut by_top: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &y in list {
        if tops[y].0 == y {
            single.push(y);
        } else {
            by_top.entry(tops[y].0).or_default().push(y);
        }
    }
    let mut out = Vec::with_capacity(by_top.len() + 1);
    if !single.is_empty() {
        out.push(Part {
            members: single,
            blossom: None,
        });
    }
    for (top, members) in by_top {
        let mut low = members[0];
        for &y in &members[1..] {
            low = duals.lca(low, y).unwrap_or(top);
        }
        out.push(Part {
            members,
            blossom: Some((top, low)),
        });
    }
    out
}

fn no_pairing(p: &Problem) -> PairingError {
    let n = p.order.len();
    let mut buf = Vec::new();
    let lay = p.layout(false);
    // Naming the stuck player costs O(n²); only for fields where that is cheap.
    for x in (0..n).take_while(|_| n <= NAME_STUCK_LIMIT) {
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

/// The explanation of a float (C1 counts boundaries crossed): the higher player of the pair
/// at ranking position `x` floats down to the group of `y`. "10号 4分组 为奇数，下调至 3分组
/// 对 7号": the group is odd (by itself, or with a player floated into it), or has no legal
/// opponent left for him; a float past a group says that the group between could not take
/// him.
fn float_text(p: &Problem, x: usize, y: usize) -> String {
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

/// Pair a round (A2–A4). Round 1 is paired by [`crate::round1::pair_round1`] with seed 0
/// (callers that draw lots call it directly with their recorded seed).
pub fn pair_swiss(state: &SectionState, round: u32) -> Result<Pairing, PairingError> {
    if round == 1 {
        prepare(state, round)?;
        return crate::round1::pair_round1(state, 0);
    }
    let infos = prepare(state, round)?;
    solve(state, round, &infos, &[], Mode::Auto).map(|r| r.0)
}

/// [`pair_swiss`] for rounds ≥ 2, also returning what the pricing did (for measurements).
#[doc(hidden)]
pub fn pair_swiss_stats(
    state: &SectionState,
    round: u32,
) -> Result<(Pairing, PricingStats), PairingError> {
    let infos = prepare(state, round)?;
    solve(state, round, &infos, &[], Mode::Auto)
}

/// [`pair_swiss_stats`] with the tie-break settled by exchanges after a C0–C5 solve, as
/// above [`TIE_EXACT_LIMIT`] players, whatever the field size (on the restricted graph above
/// [`DENSE_LIMIT`]). For tests and measurements.
#[doc(hidden)]
pub fn pair_swiss_local_tie(
    state: &SectionState,
    round: u32,
) -> Result<(Pairing, PricingStats), PairingError> {
    let infos = prepare(state, round)?;
    solve(state, round, &infos, &[], Mode::LocalTie)
}

/// Pair a round (rounds ≥ 2) on a restricted candidate graph of the given window, made
/// exact by pricing, whatever the field size; returns what the pricing did. For tests and
/// measurements; [`pair_swiss`] chooses the graph itself.
#[doc(hidden)]
pub fn pair_restricted(
    state: &SectionState,
    round: u32,
    window: usize,
) -> Result<(Pairing, PricingStats), PairingError> {
    let infos = prepare(state, round)?;
    solve(state, round, &infos, &[], Mode::Restricted(window))
}

/// The engine's own cost digits of a complete pairing of `round` under C0, CB, C1–C5 (tie
/// left out, top down as in the module docs), or `None` when a pair breaks a hard rule or a
/// player to pair is missing. For tests that compare two paths of the engine (restricted
/// graph, tie exchanges) with each other; the independent judge is [`crate::checker`].
#[doc(hidden)]
pub fn objective_digits(
    state: &SectionState,
    round: u32,
    pairing: &Pairing,
) -> Result<Option<Vec<u64>>, PairingError> {
    let infos = prepare(state, round)?;
    let p = Problem::new(state, round, &infos, &BTreeSet::new());
    let lay = p.layout(false);
    let n = p.order.len();
    let pos: BTreeMap<PlayerNo, usize> = p
        .order
        .iter()
        .enumerate()
        .map(|(x, &i)| (infos[i].no, x))
        .collect();
    let mut sum = vec![0u64; lay.len()];
    let mut buf = Vec::new();
    let mut seen = BTreeSet::new();
    let units = pairing
        .boards
        .iter()
        .map(|b| (b.red, Some(b.black)))
        .chain(pairing.bye.map(|b| (b, None)));
    for (a, b) in units {
        let Some(&x) = pos.get(&a) else {
            return Ok(None);
        };
        let y = match b {
            Some(b) => match pos.get(&b) {
                Some(&y) => y,
                None => return Ok(None),
            },
            None => n,
        };
        if !seen.insert(x) || (y < n && !seen.insert(y)) || !p.c0_c5_cost(&lay, x, y, &mut buf) {
            return Ok(None);
        }
        for (s, c) in sum.iter_mut().zip(&buf) {
            *s += c;
        }
    }
    Ok((seen.len() == n).then_some(sum))
}

/// Pair a round with some pairs fixed by the arbiter; the engine pairs everyone else.
/// Fixed pairs get colours by A2's "Colour of a pair" and are not checked against H1–H5 (the arbiter
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
    solve(state, round, &infos, &pairs, Mode::Auto).map(|r| r.0)
}

#[cfg(test)]
mod tests;
