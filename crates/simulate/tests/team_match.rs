//! Team matches (团体赛, rules.md A15) simulated to the end and checked from the outside: a
//! team Swiss of 40 teams on 4 boards and a team round robin of 8 teams on 6 boards, and the
//! bundled team regulations. Every event replays and verifies; every team Swiss round from the
//! second is checked at team level by the project's own pairing checker (no rematch, score
//! groups, colours); the games sit where A15 puts them. The team standings are counted again
//! here from the games, the line-ups and the fouls of the log alone — 场分, 局分, 胜场, 胜局,
//! 对手分, 直胜, 犯规, 弃权, 台次 — and the teams ranked again without the standings code,
//! under the regulation's list and under lists that put each criterion first in turn.

use arbiter_core::{EventState, LogEntry, Offender, Recorded};
use arbiter_director::team_match;
use arbiter_regulation::Regulation;
use arbiter_simulate::{Simulator, Sizes};
use arbiter_standings::TbValue;
use arbiter_types::{Colour, GameResult, PlayerNo, Score, TeamTiebreak};
use std::collections::{BTreeMap, BTreeSet};

fn simulate(
    path: &str,
    players: Option<usize>,
    seed: u64,
) -> (Regulation, Vec<Recorded>, EventState) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let src = std::fs::read_to_string(format!("{root}{path}")).expect("regulation file");
    let reg = arbiter_regulation::parse(&src, path).unwrap_or_else(|e| panic!("{e}"));
    let sizes = Sizes {
        all: players,
        by_section: BTreeMap::new(),
    };
    let mut sim = Simulator::new(reg.clone(), &src, path, seed, &sizes);
    let (log, state) = sim
        .run_in_memory()
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    (reg, log, state)
}

/// The event replays, verifies and is closed.
fn verified(log: &[Recorded], state: &EventState) {
    assert!(state.closed, "the event is closed at the end");
    let replayed = EventState::replay(log).expect("replays");
    assert_eq!(&replayed, state);
    let diffs = arbiter_director::verify::verify(log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

/// Every team Swiss round, checked at team level on the state it was paired on.
fn team_rounds_pass_the_checker(reg: &Regulation, log: &[Recorded], section: &str) -> u32 {
    let sec = reg.section(section).expect("section");
    let tm = sec.team_match.as_ref().expect("team match");
    let mut state = EventState::new();
    let mut checked = 0;
    for r in log {
        if let LogEntry::MatchesPaired {
            round,
            matches,
            bye,
            ..
        } = &r.entry
        {
            // Round 1 has its own colour rule (A3): `verify` re-runs it instead.
            if *round == 1 {
                state.apply(r).expect("folds");
                continue;
            }
            let rec = state.section(section).expect("section record");
            let teams = rec.team_order.len() as u32;
            let input =
                team_match::pairing_state(sec, tm, &state, team_match::planned_rounds(sec, teams));
            let no =
                |t: &str| PlayerNo::new(rec.team_no(t).expect("team number")).expect("positive");
            let pairing = arbiter_pairing::Pairing {
                round: *round,
                boards: matches
                    .iter()
                    .enumerate()
                    .map(|(i, m)| arbiter_pairing::Board {
                        board: i as u32 + 1,
                        red: no(&m.first),
                        black: no(&m.second),
                        why: Default::default(),
                    })
                    .collect(),
                bye: bye.as_deref().map(no),
                bye_why: None,
                relaxed: Vec::new(),
            };
            let broken: Vec<_> = arbiter_pairing::checker::check(&input, *round, &pairing)
                .into_iter()
                .filter(|v| v.is_rule())
                .collect();
            assert!(broken.is_empty(), "round {round}: {broken:?}");
            checked += 1;
        }
        state.apply(r).expect("folds");
    }
    checked
}

/// What the games, the line-ups and the fouls of the log say of every team, counted here:
/// 场分, 局分, matches won, boards won, boards lost by forfeit, the teams met, the game points
/// board by board, the fouls. A bye is no game: it gives its 场分 and 局分 and is a match won
/// (胜场), but it is on no board (台次), wins no board (胜局) and meets nobody (对手分, 直胜).
#[derive(Debug, Default, PartialEq, Eq)]
struct Counted {
    match_points: Score,
    game_points: Score,
    /// 胜场: matches won, forfeit wins and byes included (a bye scores as a won match).
    match_wins: u32,
    game_wins: u32,
    forfeits: u32,
    /// Every team met in a finished match (a double forfeit included), once per match.
    opponents: Vec<String>,
    /// 对手分: the match points of `opponents`, summed once everything is counted.
    opponent_match_points: Score,
    /// 台次: the game points on board 1, 2, … over the event (a bye is on no board).
    boards: Vec<Score>,
    /// 犯规: the fouls recorded in the section against the team or one of its players.
    fouls: u32,
}

/// The section counted again: every team, and for 直胜 the match points each team took from
/// each team it met.
struct Recount {
    teams: BTreeMap<String, Counted>,
    /// (a, b) → the match points a took from b over their matches. Only pairs that met: a
    /// double forfeit (neither team appeared) is no meeting.
    took: BTreeMap<(String, String), Score>,
    /// Team → its number (its place in the section's team order, from 1).
    numbers: BTreeMap<String, u32>,
}

fn count_from_games(
    reg: &Regulation,
    log: &[Recorded],
    state: &EventState,
    section: &str,
) -> Recount {
    let sec = reg.section(section).expect("section");
    let tm = sec.team_match.as_ref().expect("team match");
    let table = sec.scoring.table;
    let mp = tm.match_points.table();
    let rec = state.section(section).expect("section record");
    let n = tm.boards;
    let team_of = |p| {
        state
            .player(p)
            .and_then(|r| r.team.clone())
            .unwrap_or_default()
    };
    let fresh = || Counted {
        boards: vec![Score::ZERO; n as usize],
        ..Counted::default()
    };
    // Every team of the section, with a match or not.
    let mut out: BTreeMap<String, Counted> = rec
        .team_order
        .iter()
        .map(|t| (t.clone(), fresh()))
        .collect();
    let mut took: BTreeMap<(String, String), Score> = BTreeMap::new();
    for (round, tr) in rec.matches.iter() {
        let games = &rec.rounds[round];
        for (i, m) in tr.matches.iter().enumerate() {
            let mut pts: BTreeMap<&str, Score> = BTreeMap::new();
            let mut forfeited: BTreeMap<&str, u32> = BTreeMap::new();
            for b in 1..=n {
                let no = i as u32 * n + b;
                match games.board(no) {
                    Some(g) => {
                        // A15: the team named first is red on the odd boards.
                        let first_red = team_of(g.red) == m.first;
                        assert_eq!(
                            first_red,
                            b % 2 == 1 || g.colours_swapped,
                            "round {round} board {no}"
                        );
                        let res = g.result.expect("every game has a result");
                        for (p, colour) in [(g.red, Colour::Red), (g.black, Colour::Black)] {
                            let t = if team_of(p) == m.first {
                                &m.first
                            } else {
                                &m.second
                            };
                            let won = matches!(
                                (res, colour),
                                (GameResult::RedWin | GameResult::BlackForfeit, Colour::Red)
                                    | (
                                        GameResult::BlackWin | GameResult::RedForfeit,
                                        Colour::Black
                                    )
                            );
                            let lost_by_forfeit = matches!(
                                (res, colour),
                                (
                                    GameResult::RedForfeit | GameResult::DoubleForfeit,
                                    Colour::Red
                                ) | (
                                    GameResult::BlackForfeit | GameResult::DoubleForfeit,
                                    Colour::Black
                                )
                            );
                            let p = match res {
                                GameResult::Draw => table.draw(colour),
                                GameResult::DoubleForfeit => table.double_forfeit,
                                _ if won && res.is_forfeit() => table.forfeit_win,
                                _ if won => table.win,
                                _ if res.is_forfeit() => table.forfeit_loss,
                                _ => table.loss,
                            };
                            *pts.entry(t).or_default() += p;
                            *forfeited.entry(t).or_default() += u32::from(lost_by_forfeit);
                            let c = out.entry(t.clone()).or_insert_with(fresh);
                            c.game_points += p;
                            c.boards[(b - 1) as usize] += p;
                            c.game_wins += u32::from(won);
                            c.forfeits += u32::from(lost_by_forfeit);
                        }
                    }
                    None => {
                        // No game: an empty seat, lost by forfeit (the line-up given says
                        // which side was empty).
                        for t in [&m.first, &m.second] {
                            let empty = tr.lineups.get(t).is_some_and(|l| {
                                l.get((b - 1) as usize).copied().flatten().is_none()
                            });
                            let p = if empty {
                                table.forfeit_loss
                            } else {
                                table.forfeit_win
                            };
                            *pts.entry(t).or_default() += p;
                            *forfeited.entry(t).or_default() += u32::from(empty);
                            let c = out.entry(t.clone()).or_insert_with(fresh);
                            c.game_points += p;
                            c.boards[(b - 1) as usize] += p;
                            c.game_wins += u32::from(!empty);
                            c.forfeits += u32::from(empty);
                        }
                    }
                }
            }
            let (f, s) = (pts[m.first.as_str()], pts[m.second.as_str()]);
            let all_out = |t: &str| forfeited.get(t).copied().unwrap_or(0) == n;
            // (first's 场分, second's, first won, second won)
            let (fm, sm, fw, sw) = if all_out(&m.first) && all_out(&m.second) {
                (mp.double_forfeit, mp.double_forfeit, false, false)
            } else if all_out(&m.first) {
                (mp.forfeit_loss, mp.forfeit_win, false, true)
            } else if all_out(&m.second) {
                (mp.forfeit_win, mp.forfeit_loss, true, false)
            } else if f > s {
                (mp.win, mp.loss, true, false)
            } else if f < s {
                (mp.loss, mp.win, false, true)
            } else {
                (mp.draw_red, mp.draw_black, false, false)
            };
            if !(all_out(&m.first) && all_out(&m.second)) {
                *took.entry((m.first.clone(), m.second.clone())).or_default() += fm;
                *took.entry((m.second.clone(), m.first.clone())).or_default() += sm;
            }
            for (t, o, points, won) in
                [(&m.first, &m.second, fm, fw), (&m.second, &m.first, sm, sw)]
            {
                let c = out.entry(t.clone()).or_insert_with(fresh);
                c.match_points += points;
                c.match_wins += u32::from(won);
                c.opponents.push(o.clone());
            }
        }
        if let Some(b) = &tr.bye {
            let c = out.entry(b.clone()).or_insert_with(fresh);
            c.match_points += mp.bye;
            c.match_wins += 1;
            c.game_points += team_match::bye_game_points(sec, tm);
        }
    }
    // 犯规: every foul of the section in the log, a player's counted to his team.
    for r in log {
        if let LogEntry::FoulRecorded {
            section: s,
            offender,
            ..
        } = &r.entry
        {
            if s != section {
                continue;
            }
            let team = match offender {
                Offender::Player(p) => team_of(*p),
                Offender::Team(t) => t.clone(),
            };
            // A player without a team (none in a team-match section) fouls for nobody.
            if let Some(c) = out.get_mut(&team) {
                c.fouls += 1;
            }
        }
    }
    let points: BTreeMap<String, Score> = out
        .iter()
        .map(|(t, c)| (t.clone(), c.match_points))
        .collect();
    for c in out.values_mut() {
        c.opponent_match_points = c.opponents.iter().fold(Score::ZERO, |a, o| a + points[o]);
    }
    let numbers = rec
        .team_order
        .iter()
        .enumerate()
        .map(|(i, t)| (t.clone(), i as u32 + 1))
        .collect();
    Recount {
        teams: out,
        took,
        numbers,
    }
}

/// One place of the recounted ranking.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    rank: u32,
    team: String,
    /// The criterion that put the team below the one above; `None` for the first and for a
    /// shared place.
    decided_by: Option<TeamTiebreak>,
}

/// The teams ranked here by a list from the recount, without the standings code.
struct Ranking {
    places: Vec<Place>,
    /// 直胜 as last evaluated for a team: on the smallest group holding it that reached 直胜
    /// (0 where the group had not all met); teams never in such a group are absent.
    direct: BTreeMap<String, Score>,
    /// How often 直胜 separated teams of a group split off by 直胜 itself or by a criterion
    /// listed after it — where a reading that applies 直胜 once would have gone on down the
    /// list.
    direct_again: u32,
}

/// The key of `team` on `c` in `group`: the larger, the better.
fn key(rc: &Recount, c: TeamTiebreak, team: &str, group: &[&str]) -> Vec<i64> {
    let t = &rc.teams[team];
    let count = |n: u32| i64::from(n);
    match c {
        TeamTiebreak::MatchPoints => vec![t.match_points.halves()],
        TeamTiebreak::GamePoints => vec![t.game_points.halves()],
        TeamTiebreak::MatchWins => vec![count(t.match_wins)],
        TeamTiebreak::GameWins => vec![count(t.game_wins)],
        TeamTiebreak::OpponentMatchPoints => vec![t.opponent_match_points.halves()],
        TeamTiebreak::Direct => vec![direct(rc, team, group).halves()],
        TeamTiebreak::Fouls => vec![-count(t.fouls)],
        TeamTiebreak::Forfeits => vec![-count(t.forfeits)],
        TeamTiebreak::Boards => t.boards.iter().map(|s| s.halves()).collect(),
    }
}

/// 直胜 of `team` in `group`: the match points it took from the others, when every two teams
/// of the group met; 0 otherwise.
fn direct(rc: &Recount, team: &str, group: &[&str]) -> Score {
    let met = |a: &str, b: &str| rc.took.contains_key(&(a.to_string(), b.to_string()));
    let all_met = group
        .iter()
        .enumerate()
        .all(|(i, a)| group[i + 1..].iter().all(|b| met(a, b)));
    if !all_met {
        return Score::ZERO;
    }
    group
        .iter()
        .filter(|&&o| o != team)
        .fold(Score::ZERO, |a, o| {
            a + rc.took[&(team.to_string(), o.to_string())]
        })
}

/// Ranks the recounted teams by `list`.
///
/// A15 and the standings' documented reading of it: criterion k only separates teams equal
/// on the criteria before it; 直胜 is the match points the teams of a group still tied took
/// from one another, and only when every two of them met (else it separates nobody). Every
/// group that a criterion splits off is ranked again from the top of the list, as the
/// individual standings do (Part B §4.3): only 直胜 depends on the group, so this is where
/// it applies again to teams split off a larger tie (by 直胜 itself or a later criterion).
/// Teams equal on the whole list share the place and are listed by team number — the team
/// standings draw no lots and break no tie by anything the recount cannot know, so the
/// whole order, every rank and every `decided_by` are compared, not only the rank groups.
fn rank_recounted(rc: &Recount, list: &[TeamTiebreak]) -> Ranking {
    let mut teams: Vec<&str> = rc.teams.keys().map(String::as_str).collect();
    teams.sort_by_key(|t| rc.numbers[*t]);
    let mut out = Ranking {
        places: Vec::new(),
        direct: BTreeMap::new(),
        direct_again: 0,
    };
    place(rc, list, &teams, None, &mut out);
    for i in 0..out.places.len() {
        let shared = i > 0 && out.places[i].decided_by.is_none();
        out.places[i].rank = if shared {
            out.places[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    out
}

/// Places `group` (in team-number order) after the places already in `out`. `split_by`: the
/// position in the list of the criterion that split `group` off a larger group.
fn place(
    rc: &Recount,
    list: &[TeamTiebreak],
    group: &[&str],
    split_by: Option<usize>,
    out: &mut Ranking,
) {
    if let [one] = group {
        out.places.push(Place {
            rank: 0,
            team: one.to_string(),
            decided_by: None,
        });
        return;
    }
    for (level, &c) in list.iter().enumerate() {
        let keys: Vec<Vec<i64>> = group.iter().map(|t| key(rc, c, t, group)).collect();
        if c == TeamTiebreak::Direct {
            for (t, k) in group.iter().zip(&keys) {
                out.direct.insert(t.to_string(), Score::from_halves(k[0]));
            }
        }
        if keys.iter().all(|k| *k == keys[0]) {
            continue;
        }
        if c == TeamTiebreak::Direct && split_by.is_some_and(|s| s >= level) {
            out.direct_again += 1;
        }
        let mut sorted: Vec<(&str, &Vec<i64>)> = group.iter().copied().zip(&keys).collect();
        // Stable: teams with equal keys stay in team-number order.
        sorted.sort_by(|a, b| b.1.cmp(a.1));
        let mut start = 0;
        for i in 1..=sorted.len() {
            if i == sorted.len() || sorted[i].1 != sorted[start].1 {
                let run: Vec<&str> = sorted[start..i].iter().map(|x| x.0).collect();
                let first = out.places.len();
                place(rc, list, &run, Some(level), out);
                if start > 0 {
                    out.places[first].decided_by = Some(c);
                }
                start = i;
            }
        }
        return;
    }
    // Equal on the whole list: one shared place.
    for t in group {
        out.places.push(Place {
            rank: 0,
            team: t.to_string(),
            decided_by: None,
        });
    }
}

/// The closing fixes the team places by 场分 and 局分 as the standings give them, and the
/// published export carries the same table.
fn closed_with_the_team_places(
    reg: &Regulation,
    log: &[Recorded],
    state: &EventState,
    section: &str,
) {
    let table = team_match::standings(reg, state, section).expect("standings");
    let places: Vec<(u32, String)> = table
        .rows
        .iter()
        .map(|r| (r.rank, r.name.clone()))
        .collect();
    let closed = log
        .iter()
        .rev()
        .find_map(|r| match &r.entry {
            LogEntry::EventClosed { teams, .. } => Some(teams.clone()),
            _ => None,
        })
        .expect("event_closed");
    let fixed = closed
        .iter()
        .find(|t| t.section == section)
        .expect("the team-match section's places");
    assert_eq!(fixed.places, places);
    let x = arbiter_director::export(state).expect("export");
    let published = x
        .team_matches
        .iter()
        .find(|t| t.section == section)
        .expect("published team table");
    let ranked: Vec<(u32, String)> = published
        .standings
        .iter()
        .map(|r| (r.rank, r.team.clone()))
        .collect();
    assert_eq!(ranked, places);
}

/// The standings of `section` with the ranking `list` agree with the recount: every number
/// counted, the values shown for the list, the order, the ranks and what decided each place.
/// Adds to `decided` how many places each criterion decided; returns how often 直胜
/// separated teams of a group it (or a later criterion) had split off.
fn standings_agree_under(
    reg: &Regulation,
    log: &[Recorded],
    state: &EventState,
    section: &str,
    list: &[TeamTiebreak],
    decided: &mut BTreeMap<TeamTiebreak, u32>,
) -> u32 {
    let mut reg = reg.clone();
    let sec = reg
        .sections
        .iter_mut()
        .find(|s| s.id == section)
        .expect("section");
    sec.team_match.as_mut().expect("team match").tiebreaks = list.to_vec();
    let table = team_match::standings(&reg, state, section).expect("standings");
    let rc = count_from_games(&reg, log, state, section);
    assert_eq!(table.rows.len(), rc.teams.len());
    let ranking = rank_recounted(&rc, list);
    for r in &table.rows {
        let c = &rc.teams[&r.name];
        assert_eq!(r.no, rc.numbers[&r.name], "{}", r.name);
        assert_eq!(
            (
                r.match_points,
                r.game_points,
                r.wins,
                r.game_wins,
                r.forfeits,
                r.fouls
            ),
            (
                c.match_points,
                c.game_points,
                c.match_wins,
                c.game_wins,
                c.forfeits,
                c.fouls
            ),
            "{}",
            r.name
        );
        let boards: Vec<Score> = (1..=c.boards.len() as u32)
            .map(|b| {
                r.board_points
                    .iter()
                    .find(|p| p.board == b)
                    .map_or(Score::ZERO, |p| p.points)
            })
            .collect();
        assert_eq!(boards, c.boards, "{}: 台次", r.name);
        assert!(
            r.board_points
                .iter()
                .all(|p| (1..=c.boards.len() as u32).contains(&p.board)),
            "{}",
            r.name
        );
        let shown: Vec<TbValue> = list
            .iter()
            .map(|&t| match t {
                TeamTiebreak::MatchPoints => TbValue::Score(c.match_points),
                TeamTiebreak::GamePoints => TbValue::Score(c.game_points),
                TeamTiebreak::MatchWins => TbValue::Int(c.match_wins.into()),
                TeamTiebreak::GameWins => TbValue::Int(c.game_wins.into()),
                TeamTiebreak::OpponentMatchPoints => TbValue::Score(c.opponent_match_points),
                TeamTiebreak::Direct => {
                    TbValue::Score(ranking.direct.get(&r.name).copied().unwrap_or(Score::ZERO))
                }
                TeamTiebreak::Fouls => TbValue::Int(c.fouls.into()),
                TeamTiebreak::Forfeits => TbValue::Int(c.forfeits.into()),
                TeamTiebreak::Boards => TbValue::Score(c.boards[0]),
            })
            .collect();
        assert_eq!(r.values, shown, "{}: {list:?}", r.name);
    }
    let places: Vec<Place> = table
        .rows
        .iter()
        .map(|r| Place {
            rank: r.rank,
            team: r.name.clone(),
            decided_by: r.decided_by,
        })
        .collect();
    if let Some(i) = (0..places.len()).find(|&i| places.get(i) != ranking.places.get(i)) {
        panic!(
            "{section} {list:?}, place {}: the standings {:?}, the recount {:?}",
            i + 1,
            &places[i.saturating_sub(1)..(i + 2).min(places.len())],
            &ranking.places[i.saturating_sub(1)..(i + 2).min(ranking.places.len())],
        );
    }
    assert_eq!(places.len(), ranking.places.len());
    for p in &ranking.places {
        if let Some(c) = p.decided_by {
            *decided.entry(c).or_default() += 1;
        }
    }
    ranking.direct_again
}

/// The standings under the regulation's own list agree with the recount.
fn standings_agree(reg: &Regulation, log: &[Recorded], state: &EventState, section: &str) {
    let list = reg
        .section(section)
        .and_then(|s| s.team_match.as_ref())
        .expect("tm")
        .tiebreaks
        .clone();
    standings_agree_under(reg, log, state, section, &list, &mut BTreeMap::new());
}

#[test]
fn a_team_swiss_of_40_teams_on_4_boards_is_played_to_the_end() {
    let (reg, log, state) = simulate(
        "crates/simulate/tests/fixtures/team-swiss.toml",
        Some(200),
        1,
    );
    verified(&log, &state);
    let rec = state.section("teams").expect("section");
    assert_eq!(rec.team_order.len(), 40);
    assert_eq!(rec.matches.len(), 7);
    for tr in rec.matches.values() {
        assert_eq!(tr.matches.len(), 20);
    }
    // The simulated captains handed in line-ups (a reserve playing, a team one short).
    let lineups = log
        .iter()
        .filter(|r| matches!(r.entry, LogEntry::LineupGiven { .. }))
        .count();
    assert!(lineups > 40 * 7, "{lineups} line-ups");
    assert_eq!(team_rounds_pass_the_checker(&reg, &log, "teams"), 6);
    standings_agree(&reg, &log, &state, "teams");
    closed_with_the_team_places(&reg, &log, &state, "teams");
    // The match sheets every shell shows: both line-ups board by board, the running score
    // and the result, the named-first team red on the odd boards.
    for round in 1..=7 {
        let view = team_match::round_view(&reg, &state, "teams", round).expect("paired round");
        assert!(view.published);
        assert_eq!(view.matches.len(), 20);
        for (i, m) in view.matches.iter().enumerate() {
            assert_eq!(m.boards.len(), 4);
            assert!(m.result.is_some(), "round {round} match {}: finished", m.no);
            let sum = |f: fn(&team_match::MatchBoardView) -> Score| {
                m.boards.iter().map(f).fold(Score::ZERO, |a, b| a + b)
            };
            assert_eq!(m.first_points, sum(|b| b.first_points));
            assert_eq!(m.second_points, sum(|b| b.second_points));
            for b in &m.boards {
                assert_eq!(b.round_board, i as u32 * 4 + b.board);
                let red = if b.board % 2 == 1 {
                    Colour::Red
                } else {
                    Colour::Black
                };
                assert_eq!(b.first_colour, red);
            }
        }
    }
    assert!(team_match::round_view(&reg, &state, "teams", 8).is_none());
    // No two teams met twice.
    let mut met = BTreeSet::new();
    for tr in rec.matches.values() {
        for m in &tr.matches {
            let key = if m.first < m.second {
                (m.first.clone(), m.second.clone())
            } else {
                (m.second.clone(), m.first.clone())
            };
            assert!(met.insert(key), "{} and {} met twice", m.first, m.second);
        }
    }
}

#[test]
fn a_team_round_robin_of_8_teams_on_6_boards_meets_every_team_once() {
    let (reg, log, state) = simulate(
        "crates/simulate/tests/fixtures/team-round-robin.toml",
        Some(48),
        2,
    );
    verified(&log, &state);
    let rec = state.section("teams").expect("section");
    assert_eq!(rec.team_order.len(), 8);
    assert_eq!(rec.matches.len(), 7);
    let mut met = BTreeSet::new();
    for tr in rec.matches.values() {
        assert_eq!(tr.matches.len(), 4);
        for m in &tr.matches {
            let mut k = [m.first.clone(), m.second.clone()];
            k.sort();
            assert!(met.insert(k));
        }
    }
    assert_eq!(met.len(), 28, "every two of the eight teams met once");
    standings_agree(&reg, &log, &state, "teams");
    closed_with_the_team_places(&reg, &log, &state, "teams");
}

#[test]
fn the_bundled_team_regulations_run_to_the_end() {
    for (path, section) in [
        ("regulations/yanhe-2018-league.toml", "league"),
        ("regulations/pudong-2014-clubs.toml", "clubs"),
    ] {
        let (reg, log, state) = simulate(path, None, 1);
        verified(&log, &state);
        let rec = state.section(section).expect("section");
        assert!(rec.team_order.len() >= 6, "{path}");
        let planned = team_match::planned_rounds(
            reg.section(section).expect("section"),
            rec.team_order.len() as u32,
        );
        assert_eq!(rec.matches.len() as u32, planned, "{path}");
        standings_agree(&reg, &log, &state, section);
    }
}

/// Ranking lists beside a regulation's own: A15's default, 场分 alone (every tie shared), each
/// criterion right after 场分 and each criterion first, the others following in their order.
fn lists(own: &[TeamTiebreak]) -> Vec<Vec<TeamTiebreak>> {
    let mut out = vec![
        own.to_vec(),
        TeamTiebreak::DEFAULT.to_vec(),
        vec![TeamTiebreak::MatchPoints],
    ];
    let rest = |skip: &[TeamTiebreak]| -> Vec<TeamTiebreak> {
        TeamTiebreak::ALL
            .into_iter()
            .filter(|t| !skip.contains(t))
            .collect()
    };
    for c in TeamTiebreak::ALL {
        if c != TeamTiebreak::MatchPoints {
            let head = [TeamTiebreak::MatchPoints, c];
            out.push(head.into_iter().chain(rest(&head)).collect());
        }
        out.push(std::iter::once(c).chain(rest(&[c])).collect());
    }
    let mut reversed = TeamTiebreak::ALL.to_vec();
    reversed.reverse();
    out.push(reversed);
    out
}

#[test]
fn every_criterion_decides_places_as_the_recount_does() {
    let mut decided: BTreeMap<TeamTiebreak, u32> = BTreeMap::new();
    let mut direct_again = 0;
    let mut byes = 0;
    // The four events of the tests above, and a team Swiss of 39 teams (a bye every round).
    for (path, players, seed, section) in [
        (
            "crates/simulate/tests/fixtures/team-swiss.toml",
            Some(200),
            1,
            "teams",
        ),
        (
            "crates/simulate/tests/fixtures/team-round-robin.toml",
            Some(48),
            2,
            "teams",
        ),
        (
            "crates/simulate/tests/fixtures/team-swiss.toml",
            Some(195),
            3,
            "teams",
        ),
        ("regulations/yanhe-2018-league.toml", None, 1, "league"),
        ("regulations/pudong-2014-clubs.toml", None, 1, "clubs"),
    ] {
        let (reg, log, state) = simulate(path, players, seed);
        byes += state
            .section(section)
            .expect("section")
            .matches
            .values()
            .filter(|t| t.bye.is_some())
            .count();
        let own = reg
            .section(section)
            .and_then(|s| s.team_match.as_ref())
            .expect("team match")
            .tiebreaks
            .clone();
        for list in lists(&own) {
            // Counted only under lists that start with 场分, as real regulations do; the
            // others are checked all the same.
            let mut scratch = BTreeMap::new();
            let counts = if list[0] == TeamTiebreak::MatchPoints {
                &mut decided
            } else {
                &mut scratch
            };
            let again = standings_agree_under(&reg, &log, &state, section, &list, counts);
            if list[0] == TeamTiebreak::MatchPoints {
                direct_again += again;
            }
        }
    }
    eprintln!("places decided: {decided:?}; 直胜 on a group it split off: {direct_again}");
    // Not vacuous: every criterion put some team below another in some ranking that starts
    // with 场分, 直胜 also inside a group split off by itself or a later criterion, and byes
    // were counted.
    for c in TeamTiebreak::ALL {
        assert!(
            decided.get(&c).copied().unwrap_or(0) > 0,
            "{c} decided no place: {decided:?}"
        );
    }
    assert!(direct_again > 0, "直胜 never applied to a smaller group");
    assert!(byes > 0);
}
