use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random graph on `n` vertices: each pair an edge with probability `p`, weights in
/// `1..=max_w`; with `paired`, the pairs (2k, 2k+1) always, so a perfect matching exists.
fn random_graph(
    rng: &mut ChaCha8Rng,
    n: usize,
    p: f64,
    max_w: i64,
    paired: bool,
) -> Vec<(usize, usize, i64)> {
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if paired && i % 2 == 0 && j == i + 1 || rng.gen_bool(p) {
                edges.push((i, j, rng.gen_range(1..=max_w)));
            }
        }
    }
    edges
}

fn brute(n: usize, edges: &[(usize, usize, i64)], maxcard: bool) -> (usize, i64) {
    let mut adj = vec![vec![None; n]; n];
    for &(i, j, w) in edges {
        adj[i][j] = Some(w);
        adj[j][i] = Some(w);
    }
    fn rec(
        v: usize,
        used: &mut Vec<bool>,
        adj: &Vec<Vec<Option<i64>>>,
        best: &mut Vec<(usize, i64)>,
        card: usize,
        w: i64,
    ) {
        let n = used.len();
        let mut v = v;
        while v < n && used[v] {
            v += 1;
        }
        if v == n {
            best.push((card, w));
            return;
        }
        used[v] = true;
        rec(v + 1, used, adj, best, card, w);
        for u in v + 1..n {
            if !used[u] {
                if let Some(x) = adj[v][u] {
                    used[u] = true;
                    rec(v + 1, used, adj, best, card + 1, w + x);
                    used[u] = false;
                }
            }
        }
        used[v] = false;
    }
    let mut all = Vec::new();
    rec(0, &mut vec![false; n], &adj, &mut all, 0, 0);
    if maxcard {
        all.into_iter().max().unwrap_or((0, 0))
    } else {
        let w = all.iter().map(|x| x.1).max().unwrap_or(0);
        (0, w)
    }
}

fn brute_perfect(n: usize, edges: &[(usize, usize, i64)]) -> Option<i64> {
    let mut best: Option<i64> = None;
    fn rec(
        v: usize,
        used: &mut Vec<bool>,
        edges: &[(usize, usize, i64)],
        w: i64,
        best: &mut Option<i64>,
    ) {
        let n = used.len();
        let Some(v) = (v..n).find(|&i| !used[i]) else {
            if best.is_none_or(|b| w > b) {
                *best = Some(w);
            }
            return;
        };
        used[v] = true;
        for &(i, j, x) in edges {
            let u = if i == v {
                j
            } else if j == v {
                i
            } else {
                continue;
            };
            if !used[u] {
                used[u] = true;
                rec(v + 1, used, edges, w + x, best);
                used[u] = false;
            }
        }
        used[v] = false;
    }
    rec(0, &mut vec![false; n], edges, 0, &mut best);
    best
}

#[test]
fn incremental_perfect_matching_after_added_edges_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut warm_resolves = 0usize;
    for case in 0..3000 {
        let n = 2 * rng.gen_range(2..=6);
        let mut all = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if (i % 2 == 1 || j != i + 1) && rng.gen_bool(0.8) {
                    // Few distinct weights: many ties, many blossoms.
                    all.push((i, j, rng.gen_range(1..6i64)));
                }
            }
        }
        // Start from a sparse subgraph that still has a perfect matching.
        let mut edges: Vec<(usize, usize, i64)> =
            (0..n / 2).map(|k| (2 * k, 2 * k + 1, 0)).collect();
        let mut rest = Vec::new();
        for &e in &all {
            if rng.gen_bool(0.3) {
                edges.push(e);
            } else {
                rest.push(e);
            }
        }
        let full: Vec<(usize, usize, i64)> = edges.iter().chain(&rest).copied().collect();
        let mut inc = IncrementalPerfect::new(n, &edges);
        loop {
            let (mate, duals) = inc.solve().expect("the pairs (2k, 2k+1) are perfect");
            for &(i, j, w) in &edges {
                let s = duals.slack(i, j, w);
                assert!(s >= 0, "case {case}: infeasible dual on {i}-{j}");
                if mate[i] == j {
                    assert_eq!(s, 0, "case {case}: matched edge {i}-{j} not tight");
                }
            }
            let (add, keep): (Vec<_>, Vec<_>) = rest
                .iter()
                .partition(|&&(i, j, w)| duals.slack(i, j, w) < 0);
            if add.is_empty() {
                let got: i64 = (0..n)
                    .filter(|&i| i < mate[i])
                    .map(|i| {
                        full.iter()
                            .filter(|&&(a, b, _)| (a, b) == (i, mate[i]))
                            .map(|e| e.2)
                            .max()
                            .unwrap_or(i64::MIN / 4)
                    })
                    .sum();
                assert_eq!(Some(got), brute_perfect(n, &full), "case {case} {full:?}");
                break;
            }
            // Add only some violating edges at a time, to exercise several warm re-solves.
            let take = add.len().div_ceil(2);
            inc.add_edges(&add[..take]);
            edges.extend_from_slice(&add[..take]);
            rest = keep
                .into_iter()
                .chain(add[take..].iter().copied())
                .collect();
            warm_resolves += 1;
        }
    }
    assert!(warm_resolves > 1000, "only {warm_resolves} warm re-solves");
}

#[test]
fn full_solve_from_flattened_coarse_duals_matches_brute_force() {
    // Weights high·16 − low, solved first as high·16 (the low digit dropped); the
    // flattened duals of that optimum start the full solve, which must still reach the
    // full optimum, blossoms and all.
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for case in 0..3000 {
        let n = 2 * rng.gen_range(1..=6);
        let p = rng.gen_range(0.3..1.0);
        let mut edges = random_graph(&mut rng, n, p, 9, true);
        let lows: Vec<i64> = edges.iter().map(|_| rng.gen_range(0..16)).collect();
        for (e, &l) in edges.iter_mut().zip(&lows) {
            e.2 = e.2 * 16 - l;
        }
        let coarse: Vec<(usize, usize, i64)> = edges
            .iter()
            .zip(&lows)
            .map(|(&(i, j, w), &l)| (i, j, w + l))
            .collect();
        let (_, duals) = max_weight_perfect_matching_with_duals(n, &coarse)
            .unwrap_or_else(|| panic!("case {case}: the pairs (2k, 2k+1) are a perfect matching"));
        let init: Vec<i64> = (0..n).map(|v| duals.flattened(v)).collect();
        for &(i, j, w) in &edges {
            assert!(
                init[i] + init[j] >= 4 * w,
                "case {case}: flattened duals infeasible"
            );
        }
        let got = IncrementalPerfect::split(n, &edges, None, Some(&init))
            .solve()
            .map(|(mate, duals)| {
                assert!(
                    certifies_all(&edges, &mate, &duals),
                    "case {case}: no certificate"
                );
                matched_weight(&edges, &mate)
            });
        assert_eq!(got, brute_perfect(n, &edges), "case {case} {edges:?}");
    }
}

#[test]
fn coarse_first_on_larger_graphs_reaches_the_plain_optimum_with_a_proof() {
    // As above on graphs too large for brute force, through the split form the Swiss
    // engine uses (shared high parts, per-edge lows; every 4th graph with lows too large
    // to keep apart): the full solve from the coarse duals must carry an optimality
    // proof and match the plain solve's weight.
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    for case in 0..200 {
        let n = 2 * rng.gen_range(10..=80);
        let p = rng.gen_range(0.05..0.6);
        let scale: i64 = if case % 4 == 3 { 1 << 33 } else { 64 };
        let mut edges = random_graph(&mut rng, n, p, 12, true);
        let lows: Vec<u64> = edges
            .iter()
            .map(|_| rng.gen_range(0..scale as u64))
            .collect();
        let coarse: Vec<(usize, usize, i64)> =
            edges.iter().map(|&(i, j, w)| (i, j, w * scale)).collect();
        for (e, &l) in edges.iter_mut().zip(&lows) {
            e.2 = e.2 * scale - l as i64;
        }
        let (_, duals) = IncrementalPerfect::split(n, &coarse, None, None)
            .solve()
            .unwrap_or_else(|| panic!("case {case}: no perfect matching"));
        let init: Vec<i64> = (0..n).map(|v| duals.flattened(v)).collect();
        let (mate, duals) = IncrementalPerfect::split(n, &coarse, Some(&lows), Some(&init))
            .solve()
            .unwrap_or_else(|| panic!("case {case}: no perfect matching from the coarse duals"));
        assert!(
            certifies_all(&edges, &mate, &duals),
            "case {case}: no certificate"
        );
        let plain = max_weight_perfect_matching(n, &edges)
            .unwrap_or_else(|| panic!("case {case}: no perfect matching"));
        assert_eq!(
            matched_weight(&edges, &mate),
            matched_weight(&edges, &plain),
            "case {case}"
        );
    }
}

#[test]
fn a_graph_given_its_lows_by_copy_solves_as_one_built_with_them() {
    // `with_lows` on the coarse graph must be the graph `unstarted` builds with the lows:
    // from the same starting duals, the same matching and the same duals. Lows too large
    // to keep apart (every 4th graph) are refused, for the caller to build instead.
    let mut rng = ChaCha8Rng::seed_from_u64(48);
    for case in 0..120 {
        let n = 2 * rng.gen_range(5..=60);
        let p = rng.gen_range(0.05..0.6);
        let scale: u64 = if case % 4 == 3 { 1 << 33 } else { 64 };
        let edges = random_graph(&mut rng, n, p, 12, true);
        let lows: Vec<u64> = edges.iter().map(|_| rng.gen_range(0..scale)).collect();
        let coarse: Vec<(usize, usize, i64)> = edges
            .iter()
            .map(|&(i, j, w)| (i, j, w * scale as i64))
            .collect();
        let copied = IncrementalPerfect::unstarted(n, &coarse, None).with_lows(&lows);
        if lows.iter().any(|&l| l * 4 > u64::from(u32::MAX)) {
            assert!(copied.is_none(), "case {case}: lows too large were copied");
            continue;
        }
        let Some(mut copied) = copied else {
            panic!("case {case}: lows that fit were refused");
        };
        let mut built = IncrementalPerfect::unstarted(n, &coarse, Some(&lows));
        assert!(
            IncrementalPerfect::unstarted(n, &coarse, None)
                .with_lows(&lows[1..])
                .is_none(),
            "case {case}: a low missing"
        );
        let (_, duals) = IncrementalPerfect::split(n, &coarse, None, None)
            .solve()
            .unwrap_or_else(|| panic!("case {case}: no perfect matching"));
        let init: Vec<i64> = (0..n).map(|v| duals.flattened(v)).collect();
        copied.start_from(&init);
        built.start_from(&init);
        let (a, b) = (copied.solve(), built.solve());
        let (Some((ma, da)), Some((mb, db))) = (a, b) else {
            panic!("case {case}: no perfect matching from the coarse duals");
        };
        assert_eq!(ma, mb, "case {case}: matchings differ");
        let ys = |d: &Duals<i64>| (0..n).map(|v| d.vertex(v)).collect::<Vec<_>>();
        assert_eq!(ys(&da), ys(&db), "case {case}: vertex duals differ");
        assert_eq!(da.blossom, db.blossom, "case {case}: blossom duals differ");
        // Not started, the copy starts where the built graph does.
        let (mut c, mut b) = (
            IncrementalPerfect::unstarted(n, &coarse, None)
                .with_lows(&lows)
                .unwrap_or_else(|| panic!("case {case}")),
            IncrementalPerfect::unstarted(n, &coarse, Some(&lows)),
        );
        c.start_warm();
        b.start_warm();
        assert_eq!(
            c.solve().map(|x| x.0),
            b.solve().map(|x| x.0),
            "case {case}"
        );
    }
}

/// The total weight of the edges `mate` uses.
fn matched_weight(edges: &[(usize, usize, i64)], mate: &[usize]) -> i64 {
    edges
        .iter()
        .filter(|&&(i, j, _)| mate[i] == j && mate[j] == i)
        .map(|e| e.2)
        .sum()
}

/// Every edge feasible under `duals`, every matched edge tight.
fn certifies_all(edges: &[(usize, usize, i64)], mate: &[usize], duals: &Duals<i64>) -> bool {
    edges.iter().all(|&(i, j, w)| {
        let s = duals.slack(i, j, w);
        s >= 0 && (mate[i] != j || s == 0)
    })
}

#[test]
fn preferred_edges_first_still_reach_the_optimum() {
    // Few distinct weights, so that many optima tie and the preference decides which.
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let (mut preferred, mut plain) = (0usize, 0usize);
    for case in 0..3000 {
        let n = 2 * rng.gen_range(1..=6);
        let p = rng.gen_range(0.3..1.0);
        let edges = random_graph(&mut rng, n, p, 3, false);
        let prefer: Vec<u64> = edges.iter().map(|_| rng.gen_range(0..4)).collect();
        let got = IncrementalPerfect::preferring(n, &edges, &prefer).solve();
        let got_weight = got.as_ref().map(|(mate, _)| matched_weight(&edges, mate));
        assert_eq!(
            got_weight,
            brute_perfect(n, &edges),
            "case {case} {edges:?}"
        );
        let first = |mate: &[usize]| {
            edges
                .iter()
                .zip(&prefer)
                .filter(|&(&(i, j, _), &q)| q == 0 && mate[i] == j)
                .count()
        };
        if let Some((mate, duals)) = got {
            assert!(certifies_all(&edges, &mate, &duals), "case {case}");
            preferred += first(&mate);
        }
        if let Some((mate, _)) = IncrementalPerfect::new(n, &edges).solve() {
            plain += first(&mate);
        }
    }
    // Among tied optima, the preferred edges are taken more often than without it.
    assert!(preferred * 20 > plain * 21, "{preferred} vs {plain}");
}

#[test]
fn perfect_matching_with_warm_start_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for case in 0..4000 {
        let n = 2 * rng.gen_range(1..=6);
        let p = rng.gen_range(0.3..1.0);
        let edges = random_graph(&mut rng, n, p, 29, false);
        let got = max_weight_perfect_matching(n, &edges).map(|mate| matched_weight(&edges, &mate));
        assert_eq!(got, brute_perfect(n, &edges), "case {case} {edges:?}");
    }
}

#[test]
fn duals_certify_optimality_and_catch_missing_edges() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let (mut caught, mut certified) = (0, 0);
    for case in 0..3000 {
        let n = 2 * rng.gen_range(1..=6);
        let edges = random_graph(&mut rng, n, 0.8, 39, false);
        let Some((mate, duals)) = max_weight_perfect_matching_with_duals(n, &edges) else {
            continue;
        };
        for &(i, j, w) in &edges {
            let s = duals.slack(i, j, w);
            assert!(s >= 0, "case {case}: edge {i}-{j} slack {s}");
            if mate[i] == j {
                assert_eq!(s, 0, "case {case}: matched edge {i}-{j} not tight");
            }
        }
        // Restrict: drop a random part of the edges and solve again.
        let keep: Vec<bool> = edges.iter().map(|_| rng.gen_bool(0.6)).collect();
        let sub: Vec<_> = edges
            .iter()
            .zip(&keep)
            .filter(|x| *x.1)
            .map(|x| *x.0)
            .collect();
        let Some((m2, d2)) = max_weight_perfect_matching_with_duals(n, &sub) else {
            continue;
        };
        let weight = |m: &[usize], es: &[(usize, usize, i64)]| -> i64 {
            es.iter().filter(|e| m[e.0] == e.1).map(|e| e.2).sum()
        };
        let violated = edges
            .iter()
            .zip(&keep)
            .any(|(&(i, j, w), &k)| !k && d2.slack(i, j, w) < 0);
        let (full, restricted) = (weight(&mate, &edges), weight(&m2, &sub));
        if violated {
            caught += 1;
        } else {
            certified += 1;
            assert_eq!(
                restricted, full,
                "case {case}: certificate passed a worse matching"
            );
        }
        if restricted < full {
            assert!(violated, "case {case}: worse matching not caught");
        }
    }
    assert!(caught > 100 && certified > 100, "{caught} {certified}");
}

/// The lowest common blossom found by binary lifting over the Euler tour gives the same
/// blossom sum as a plain walk up both parent chains, on graphs large and odd-cycled
/// enough to nest blossoms several levels deep.
#[test]
fn common_blossom_sum_matches_a_parent_walk() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let (mut nested, mut positive) = (0, 0);
    for case in 0..200 {
        let n = 2 * rng.gen_range(4..=40);
        let edges = random_graph(&mut rng, n, 0.3, 24, false);
        let Some((_, duals)) = max_weight_perfect_matching_with_duals(n, &edges) else {
            continue;
        };
        let chain = |v: usize| -> Vec<usize> {
            let mut out = Vec::new();
            let mut b = duals.parent[v];
            while b != NONE {
                out.push(b);
                b = duals.parent[b];
            }
            out
        };
        for i in 0..n {
            let ci = chain(i);
            if ci.len() >= 2 {
                nested += 1;
            }
            for j in 0..n {
                let cj = chain(j);
                let naive = if i == j {
                    0
                } else {
                    ci.iter()
                        .find(|b| cj.contains(b))
                        .map_or(0, |&b| duals.zsum[b])
                };
                positive += usize::from(naive > 0);
                assert_eq!(duals.common_z(i, j), naive, "case {case}: {i}-{j}");
            }
        }
    }
    assert!(nested > 50, "only {nested} vertices in nested blossoms");
    assert!(
        positive > 500,
        "only {positive} pairs share a blossom with a dual"
    );
}

/// Larger graphs than brute force can check: the returned duals must prove the matching
/// optimal by LP duality — every edge has a non-negative reduced cost, matched edges a
/// zero one, blossom duals are non-negative and every blossom with a positive dual holds
/// as many matched pairs as it can (complementary slackness).
#[test]
fn larger_graphs_carry_an_optimality_proof() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut blossoms_seen = 0usize;
    for case in 0..300 {
        let n = 2 * rng.gen_range(10..=80);
        let p = rng.gen_range(0.05..0.6);
        let top = rng.gen_range(3..60i64);
        let edges = random_graph(&mut rng, n, p, top, true);
        let (mate, duals) = max_weight_perfect_matching_with_duals(n, &edges)
            .unwrap_or_else(|| panic!("case {case}: no perfect matching"));
        for v in 0..n {
            assert_eq!(mate[mate[v]], v, "case {case}");
            assert!(
                edges
                    .iter()
                    .any(|&(i, j, _)| (i, j) == (v.min(mate[v]), v.max(mate[v]))),
                "case {case}: {v}-{} is not an edge",
                mate[v]
            );
        }
        for &(i, j, w) in &edges {
            let sl = duals.slack(i, j, w);
            assert!(sl >= 0, "case {case}: edge {i}-{j} slack {sl}");
            if mate[i] == j {
                assert_eq!(sl, 0, "case {case}: matched {i}-{j} not tight");
            }
        }
        for b in n..duals.parent.len() {
            let z = duals.blossom[b];
            assert!(z >= 0, "case {case}: blossom dual {z}");
            if z == 0 {
                continue;
            }
            let inside: Vec<usize> = (0..n)
                .filter(|&v| {
                    let mut x = duals.parent[v];
                    while x != NONE && x != b {
                        x = duals.parent[x];
                    }
                    x == b
                })
                .collect();
            if inside.is_empty() {
                continue;
            }
            blossoms_seen += 1;
            assert_eq!(inside.len() % 2, 1, "case {case}: even blossom");
            let pairs = inside
                .iter()
                .filter(|&&v| inside.contains(&mate[v]))
                .count()
                / 2;
            assert_eq!(pairs, inside.len() / 2, "case {case}: blossom not full");
        }
    }
    assert!(
        blossoms_seen > 100,
        "only {blossoms_seen} blossoms with a dual"
    );
}

#[test]
fn random_graphs_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..3000 {
        let n = rng.gen_range(1..=10);
        let p = rng.gen_range(0.2..1.0);
        let edges = random_graph(&mut rng, n, p, 19, false);
        for maxcard in [false, true] {
            let mate = max_weight_matching(n, &edges, maxcard);
            let mut w = 0;
            let mut card = 0;
            for &(i, j, x) in &edges {
                if mate[i] == Some(j) {
                    assert_eq!(mate[j], Some(i));
                    w += x;
                    card += 1;
                }
            }
            let (bc, bw) = brute(n, &edges, maxcard);
            if maxcard {
                assert_eq!((card, w), (bc, bw), "case {case} {edges:?}");
            } else {
                assert_eq!(w, bw, "case {case} {edges:?}");
            }
        }
    }
}

#[test]
fn a_packed_dual_step_orders_and_unpacks_as_its_triple() {
    // The steps heap compares packed words: their order must be that of (kind, x, edge)
    // with no edge last, and unpacking must give the triple back.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let edge = |rng: &mut ChaCha8Rng| match rng.gen_range(0..4) {
        0 => NONE,
        1 => (1 << 31) - 2,
        _ => rng.gen_range(0..1000),
    };
    let mut triples: Vec<(u8, usize, usize)> = (0..2000)
        .map(|_| {
            let x = match rng.gen_range(0..3) {
                0 => (1 << 31) - 2,
                _ => rng.gen_range(0..50),
            };
            (rng.gen_range(2..=4), x, edge(&mut rng))
        })
        .collect();
    triples.push((2, 0, 0));
    triples.push((4, (1 << 31) - 2, NONE));
    for &t in &triples {
        assert_eq!(unpack_step(pack_step(t.0, t.1, t.2)), t);
    }
    for w in triples.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (pa, pb) = (pack_step(a.0, a.1, a.2), pack_step(b.0, b.1, b.2));
        assert_eq!(pa.cmp(&pb), a.cmp(&b), "{a:?} {b:?}");
    }
}
