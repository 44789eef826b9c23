//! The board standings of a team event (台次成绩, for 台次奖, A15) counted again from the games
//! and the line-ups alone, without the standings code: every player's games, points, wins,
//! draws and losses, the board he played most, and the order — score rate, then points, then
//! games, then pairing number — with the players short of the regulation's minimum of games
//! after the ranked ones.

use arbiter_core::{EventState, PlayerId};
use arbiter_director::team_match::{self, BoardPrizes};
use arbiter_regulation::Regulation;
use arbiter_simulate::{Simulator, Sizes};
use arbiter_types::{Colour, GameResult, Score};
use std::cmp::Ordering;
use std::collections::BTreeMap;

fn simulate(path: &str, players: Option<usize>, seed: u64) -> (Regulation, EventState) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let src = std::fs::read_to_string(format!("{root}{path}")).expect("regulation file");
    let reg = arbiter_regulation::parse(&src, path).unwrap_or_else(|e| panic!("{e}"));
    let sizes = Sizes {
        all: players,
        by_section: BTreeMap::new(),
    };
    let mut sim = Simulator::new(reg.clone(), &src, path, seed, &sizes);
    let (_, state) = sim
        .run_in_memory()
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    (reg, state)
}

#[derive(Default, Debug)]
struct Tally {
    games: u32,
    points: Score,
    wins: u32,
    draws: u32,
    losses: u32,
    boards: BTreeMap<u32, u32>,
}

/// Every player's tally from the rounds' games and the line-ups' empty seats.
fn tally(reg: &Regulation, state: &EventState, section: &str) -> BTreeMap<PlayerId, Tally> {
    let sec = reg.section(section).expect("section");
    let n = sec.team_match.as_ref().expect("team match").boards;
    let table = sec.scoring.table;
    let rec = state.section(section).expect("section record");
    let mut out: BTreeMap<PlayerId, Tally> = BTreeMap::new();
    let mut add = |p: PlayerId, board: u32, points: Score, won: bool, drawn: bool| {
        let t = out.entry(p).or_default();
        t.games += 1;
        t.points += points;
        if won {
            t.wins += 1;
        } else if drawn {
            t.draws += 1;
        } else {
            t.losses += 1;
        }
        *t.boards.entry(board).or_default() += 1;
    };
    for (round, tr) in rec.matches.iter() {
        let games = &rec.rounds[round];
        for (i, m) in tr.matches.iter().enumerate() {
            for b in 1..=n {
                let no = i as u32 * n + b;
                match games.board(no) {
                    Some(g) => {
                        let res = g.result.expect("a finished event");
                        for (p, colour) in [(g.red, Colour::Red), (g.black, Colour::Black)] {
                            let won = matches!(
                                (res, colour),
                                (GameResult::RedWin | GameResult::BlackForfeit, Colour::Red)
                                    | (
                                        GameResult::BlackWin | GameResult::RedForfeit,
                                        Colour::Black
                                    )
                            );
                            let drawn = res == GameResult::Draw;
                            let pts = match res {
                                GameResult::Draw => table.draw(colour),
                                GameResult::DoubleForfeit => table.double_forfeit,
                                _ if won && res.is_forfeit() => table.forfeit_win,
                                _ if won => table.win,
                                _ if res.is_forfeit() => table.forfeit_loss,
                                _ => table.loss,
                            };
                            add(p, b, pts, won, drawn);
                        }
                    }
                    None => {
                        // An empty seat: the player facing it wins by forfeit; the empty
                        // seat is nobody's game.
                        for t in [&m.first, &m.second] {
                            let seat = tr
                                .lineups
                                .get(t)
                                .and_then(|l| l.get((b - 1) as usize).copied().flatten());
                            if let Some(p) = seat {
                                add(p, b, table.forfeit_win, true, false);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// a/b compared exactly: a.0 / a.1 against b.0 / b.1 (denominators positive).
fn cmp_ratio(a: (i64, i64), b: (i64, i64)) -> Ordering {
    (i128::from(a.0) * i128::from(b.1)).cmp(&(i128::from(b.0) * i128::from(a.1)))
}

fn check(reg: &Regulation, state: &EventState, section: &str) -> BoardPrizes {
    let got = team_match::board_prizes(reg, state, section).expect("a team section");
    let rec = state.section(section).expect("section");
    let sec = reg.section(section).expect("section");
    let win = sec.scoring.table.win.halves();
    let tallies = tally(reg, state, section);
    // The board each played most (the lower one on a tie), and the order.
    let mut expected: BTreeMap<u32, Vec<(PlayerId, &Tally)>> = BTreeMap::new();
    for (p, t) in &tallies {
        let (&board, _) = t
            .boards
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .expect("a game");
        expected.entry(board).or_default().push((*p, t));
    }
    let no = |p: PlayerId| rec.pairing_no(p).expect("numbered").get();
    for rows in expected.values_mut() {
        rows.sort_by(|(pa, a), (pb, b)| {
            let ranked = |t: &Tally| t.games >= got.min_games;
            ranked(b)
                .cmp(&ranked(a))
                .then(cmp_ratio(
                    (b.points.halves(), i64::from(b.games) * win),
                    (a.points.halves(), i64::from(a.games) * win),
                ))
                .then(b.points.cmp(&a.points))
                .then(b.games.cmp(&a.games))
                .then(no(*pa).cmp(&no(*pb)))
        });
    }
    assert_eq!(
        got.boards.iter().map(|t| t.board).collect::<Vec<_>>(),
        expected.keys().copied().collect::<Vec<_>>()
    );
    for t in &got.boards {
        let want = &expected[&t.board];
        assert_eq!(t.rows.len(), want.len(), "board {}", t.board);
        let mut rank = 0;
        for (r, (p, w)) in t.rows.iter().zip(want) {
            let player = state.player(*p).expect("player");
            assert_eq!(
                (r.no, r.name.as_str(), r.team.as_str()),
                (
                    no(*p),
                    player.person.name.as_str(),
                    player.team.as_deref().unwrap_or("")
                ),
                "board {}",
                t.board
            );
            assert_eq!(
                (r.games, r.points, r.wins, r.draws, r.losses),
                (w.games, w.points, w.wins, w.draws, w.losses),
                "{}",
                r.name
            );
            assert_eq!(r.games_on_board, w.boards[&t.board], "{}", r.name);
            let expected_rank = (w.games >= got.min_games).then(|| {
                rank += 1;
                rank
            });
            assert_eq!(r.rank, expected_rank, "{}", r.name);
            // The rate in per mille, rounded half up.
            let den = i64::from(w.games) * win;
            let want_rate = (2 * w.points.halves() * 1000 + den) / (2 * den);
            assert_eq!(r.rate_permille, Some(want_rate), "{}", r.name);
        }
    }
    got
}

#[test]
fn the_board_standings_of_a_team_swiss_are_counted_again_from_the_games() {
    let (reg, state) = simulate(
        "crates/simulate/tests/fixtures/team-swiss.toml",
        Some(200),
        1,
    );
    let got = check(&reg, &state, "teams");
    // Seven rounds: four games to be ranked, four boards, the reserves on board 4 mostly.
    assert_eq!(got.min_games, 4);
    assert_eq!(got.boards.len(), 4);
    let unranked = got
        .boards
        .iter()
        .flat_map(|t| &t.rows)
        .filter(|r| r.rank.is_none())
        .count();
    assert!(
        unranked > 0,
        "the reserves with few games are listed unranked"
    );
    let text = team_match::board_prizes_text(&got);
    assert!(
        text.contains("第1台") && text.contains("至少 4 局方可排名"),
        "{text}"
    );
}

#[test]
fn the_board_standings_of_a_team_round_robin_and_the_bundled_leagues() {
    for path in [
        "crates/simulate/tests/fixtures/team-round-robin.toml",
        "regulations/pudong-2014-clubs.toml",
        "regulations/yanhe-2018-league.toml",
    ] {
        let (reg, state) = simulate(path, None, 5);
        let sections: Vec<String> = reg
            .sections
            .iter()
            .filter(|s| s.team_match.is_some())
            .map(|s| s.id.clone())
            .collect();
        assert!(!sections.is_empty(), "{path}");
        for s in sections {
            // The rounds planned are the teams' (a round robin of 10 clubs: 9), not the
            // players'; every one of them was played.
            let x = arbiter_director::export(&state).expect("export");
            let planned = x
                .sections
                .iter()
                .find(|e| e.id == s)
                .expect("section export")
                .rounds_planned;
            let played = state.section(&s).expect("section").matches.len() as u32;
            assert_eq!(planned, played, "{path} {s}");
            let got = check(&reg, &state, &s);
            assert!(
                got.boards
                    .iter()
                    .any(|t| t.rows.iter().any(|r| r.rank == Some(1))),
                "{path} {s}: somebody is first on a board"
            );
        }
    }
}
