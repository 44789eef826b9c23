//! Solving one round: the complete graph up to [`DENSE_LIMIT`] players, the restricted
//! graph with pricing to the optimality certificate above it (column generation with warm
//! starts), the coarse first solve without the tie digit, and "no valid pairing".

use super::*;

/// Up to this many players, "no valid pairing" names a player left without any legal
/// opponent (an O(n²) search).
pub(super) const NAME_STUCK_LIMIT: usize = 3000;

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
///
/// A round is never left unpaired because a hard rule cannot be kept (A2 as amended
/// 2026-12-02): when no pairing keeps H5 with H1–H4 and H6, H5 becomes C0 (the fewest
/// players breaking it); when none keeps H1 with H3, H4 and H6 either, H1 becomes the first
/// criterion above C0 (the fewest repeated pairs, then the oldest meetings). With pairs
/// fixed by the arbiter (A3b) H4 `hard` relaxes last, so that a manual round is never
/// blocked. The pairing says which rules were relaxed and for whom
/// ([`Pairing::relaxed`]). "No valid pairing" is left only for `hard` team avoidance that
/// no pairing of the round can keep.
pub(crate) fn solve(
    state: &SectionState,
    round: u32,
    infos: &[Info],
    fixed: &[(usize, usize)],
    mode: Mode,
) -> Result<(Pairing, PricingStats), PairingError> {
    let last = if fixed.is_empty() {
        Relax::Rematches
    } else {
        Relax::Teams
    };
    let mut level = Relax::None;
    // The best pairing found at a lower level that is an H6 dead end.
    let mut dead_end: Option<(Pairing, PricingStats)> = None;
    let mut why = Escalation::None;
    loop {
        match solve_at(state, round, infos, fixed, mode, level, why) {
            Ok((pairing, stats, false)) => return Ok((pairing, stats)),
            Ok((pairing, stats, true)) => {
                if level == last {
                    return Ok((pairing, stats));
                }
                dead_end.get_or_insert((pairing, stats));
                why = why.max(Escalation::DeadEnd);
            }
            Err(e @ PairingError::NoValidPairing { .. }) => {
                if level == last {
                    return dead_end.ok_or(e);
                }
                why = why.max(Escalation::NoPairing);
            }
            Err(e) => return Err(e),
        }
        level = match level {
            Relax::None => Relax::Colours,
            Relax::Colours => Relax::Rematches,
            Relax::Rematches | Relax::Teams => Relax::Teams,
        };
    }
}

/// Why a solve relaxes a rule: nothing, every pairing at the stricter level left the stage
/// unfinishable (H6), or there was none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Escalation {
    None,
    DeadEnd,
    NoPairing,
}

/// One solve at relaxation level `relax`: the pairing, what the pricing did, and whether
/// it is a proved H6 dead end (H6 binds and no pairing at this level keeps it).
fn solve_at(
    state: &SectionState,
    round: u32,
    infos: &[Info],
    fixed: &[(usize, usize)],
    mode: Mode,
    relax: Relax,
    why: Escalation,
) -> Result<(Pairing, PricingStats, bool), PairingError> {
    let mut exclude = BTreeSet::new();
    for &(a, b) in fixed {
        exclude.insert(a);
        exclude.insert(b);
    }
    let p = Problem::relaxing(state, round, infos, &exclude, relax);
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
    let (mate, dead_end) = keep_completable(&p, fixed, mate);
    stats.tie_total = (0..n)
        .map(|x| match mate[x] {
            Some(y) if y > x => p.tie(x, y),
            Some(_) => 0,
            None => p.tie(x, n),
        })
        .sum();
    Ok((build(&p, fixed, &mate, why)?, stats, dead_end))
}

/// A re-solve after pricing is warm-started when at most `total / WARM_RATIO` edges were
/// added, and started from scratch otherwise (after a flood of violations the repaired
/// duals are far from optimal and a fresh solve is faster).
pub(super) const WARM_RATIO: usize = 1;

/// From this many players up, a restricted graph's edges are built on two threads.
const PARALLEL_EDGES: usize = 500;

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
pub(super) fn run<W: Weight>(
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
    let tie = lay.len() - 1;
    // Per edge (in `ties`): its tie digit (the last, place value 1), for the coarse first
    // solve. The players' edges, in player order: above PARALLEL_EDGES players the two halves of
    // the field on two threads, joined in order (the same list either way).
    let edges_of = |xs: std::ops::Range<usize>| {
        let mut buf = Vec::new();
        let mut edges: Vec<(usize, usize, W)> = Vec::new();
        let mut ties: Vec<u64> = Vec::new();
        for x in xs {
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
        (edges, ties)
    };
    let (mut edges, mut ties);
    if n >= PARALLEL_EDGES && window.is_some() {
        let mid = n / 2;
        let (low, high) = std::thread::scope(|scope| {
            let high = scope.spawn(|| edges_of(mid..n));
            (edges_of(0..mid), high.join().ok())
        });
        let high = high.unwrap_or_else(|| edges_of(mid..n));
        edges = low.0;
        ties = low.1;
        edges.extend(high.0);
        ties.extend(high.1);
    } else {
        (edges, ties) = edges_of(0..n);
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
        } else if candidate_edges(p, x, w).binary_search(&y).is_err() {
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
    // Not needed once the solver is built (8 bytes an edge: 22 MB at 100,000 players).
    drop(ties);
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
pub(super) fn coarse_first<W: Weight>(
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
    // The full graph is the coarse one with each edge's tie as the low part of its weight:
    // copied from the coarse graph before that is solved (no second build) when every tie
    // fits, else built on a second thread while the coarse one is solved (building needs no
    // duals). It is started from the coarse duals once they are known.
    let mut start = IncrementalPerfect::unstarted(total, &coarse, None);
    let copied = start.with_lows(ties);
    let (solved, full) = match copied {
        Some(full) => {
            start.start_warm();
            (start.solve(), Some(full))
        }
        None => {
            drop(start);
            std::thread::scope(|scope| {
                let full =
                    scope.spawn(|| IncrementalPerfect::unstarted(total, &coarse, Some(ties)));
                let solved = IncrementalPerfect::split(total, &coarse, None, None).solve();
                (solved, full.join().ok())
            })
        }
    };
    match solved {
        Some((_, duals)) => {
            let init: Vec<W> = (0..total).map(|v| duals.flattened(v)).collect();
            let mut full =
                full.unwrap_or_else(|| IncrementalPerfect::unstarted(total, &coarse, Some(ties)));
            full.start_from(&init);
            full
        }
        None => IncrementalPerfect::new(total, edges),
    }
}

/// Whether `mate` is a perfect matching of the graph `edges` that `duals` prove optimal on
/// it: every edge has a non-negative reduced cost and every matched pair a zero one.
pub(super) fn certifies<W: Weight>(
    edges: &[(usize, usize, W)],
    mate: &[usize],
    duals: &Duals<W>,
) -> bool {
    let mut tight = 0usize;
    for &(i, j, w) in edges {
        // Blossom duals are never negative: an unmatched edge whose vertex duals alone
        // cover it needs no search for the blossoms around both ends.
        let vs = duals.vertex_slack(i, j, w);
        if vs >= W::zero() && mate[i] != j {
            continue;
        }
        let z = duals.common_z(i, j);
        let s = vs.add(z).add(z);
        if s < W::zero() {
            return false;
        }
        if mate[i] == j && s == W::zero() {
            tight += 1;
        }
    }
    tight * 2 >= mate.len()
}

pub(super) fn to_mates(mate: &[usize], n: usize) -> Vec<Option<usize>> {
    mate[..n].iter().map(|&y| (y < n).then_some(y)).collect()
}

pub(super) fn no_pairing(p: &Problem) -> PairingError {
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
