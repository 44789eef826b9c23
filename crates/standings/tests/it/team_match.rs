//! Team-match standings (A15): worked examples, computed by hand, one per criterion and one
//! per rule.
//!
//! Boards are written from the first team's view, one letter a board: `W` win, `D` draw,
//! `L` loss, `+` forfeit win, `-` forfeit loss, `=` double forfeit, `?` not over. Game
//! points are the cxa table's (win 2, draw 1, loss 0, forfeit win 2, forfeits 0).

use arbiter_standings::team_match::{
    board_standings, team_match_standings, BoardOutcome, BoardPoints, Ignored, MatchBoard,
    MatchCell, MatchResult, MatchTeam, PlayedMatch, TeamBye, TeamMatchInput, TeamMatchStandings,
};
use arbiter_standings::TbValue;
use arbiter_types::{PlayerNo, Score, ScoringPreset, Side, TeamTiebreak};
use std::collections::BTreeMap;

use TeamTiebreak::*;

const A: u32 = 1;
const B: u32 = 2;
const C: u32 = 3;
const D: u32 = 4;
const E: u32 = 5;

fn pts(p: i64) -> Score {
    Score::points(p)
}

fn board(no: u32, c: char) -> MatchBoard {
    let (result, f, s) = match c {
        'W' => (Some(BoardOutcome::Win), 2, 0),
        'D' => (Some(BoardOutcome::Draw), 1, 1),
        'L' => (Some(BoardOutcome::Loss), 0, 2),
        '+' => (Some(BoardOutcome::ForfeitWin), 2, 0),
        '-' => (Some(BoardOutcome::ForfeitLoss), 0, 2),
        '=' => (Some(BoardOutcome::DoubleForfeit), 0, 0),
        _ => (None, 0, 0),
    };
    MatchBoard {
        board: no,
        result,
        first_points: pts(f),
        second_points: pts(s),
        first_player: None,
        second_player: None,
    }
}

fn m(round: u32, first: u32, second: u32, boards: &str) -> PlayedMatch {
    PlayedMatch {
        round,
        first,
        second,
        boards: boards
            .chars()
            .enumerate()
            .map(|(i, c)| board(i as u32 + 1, c))
            .collect(),
    }
}

/// Teams 1..=n named "T1", "T2", …, the default criteria and match points (2/1/0).
fn input(n: u32, matches: Vec<PlayedMatch>) -> TeamMatchInput {
    TeamMatchInput {
        teams: (1..=n)
            .map(|no| MatchTeam {
                no,
                name: format!("T{no}"),
            })
            .collect(),
        matches,
        byes: Vec::new(),
        match_points: arbiter_standings::team_match::default_match_points(),
        tiebreaks: TeamTiebreak::DEFAULT.to_vec(),
        fouls: BTreeMap::new(),
    }
}

/// (team, rank, decided_by) in table order.
fn table(s: &TeamMatchStandings) -> Vec<(u32, u32, Option<TeamTiebreak>)> {
    s.rows
        .iter()
        .map(|r| (r.no, r.rank, r.decided_by))
        .collect()
}

fn row(s: &TeamMatchStandings, no: u32) -> &arbiter_standings::TeamMatchRow {
    s.rows.iter().find(|r| r.no == no).expect("team listed")
}

#[test]
fn match_points_decide_a_won_match() {
    // A 2+2+1+0 = 5 : 3 → A 2 场分, B 0.
    let s = team_match_standings(&input(2, vec![m(1, A, B, "WWDL")]));
    assert_eq!(table(&s), [(A, 1, None), (B, 2, Some(MatchPoints))]);
    let a = row(&s, A);
    assert_eq!((a.match_points, a.game_points), (pts(2), pts(5)));
    assert_eq!((a.wins, a.draws, a.losses), (1, 0, 0));
    assert_eq!((a.game_wins, a.game_draws, a.game_losses), (2, 1, 1));
    let b = row(&s, B);
    assert_eq!((b.match_points, b.game_points), (pts(0), pts(3)));
    assert_eq!((b.wins, b.draws, b.losses), (0, 0, 1));
    assert_eq!(
        b.rounds,
        [MatchCell {
            round: 1,
            opponent: Some(A),
            side: Some(Side::Second),
            game_points: pts(3),
            opponent_game_points: pts(5),
            result: Some(MatchResult::Loss),
            match_points: Some(pts(0)),
        }]
    );
    // Default list: 场分, 局分, 直胜, 胜局, 犯规, 台次.
    assert_eq!(
        a.values,
        [
            TbValue::Score(pts(2)),
            TbValue::Score(pts(5)),
            TbValue::Score(pts(0)),
            TbValue::Int(2),
            TbValue::Int(0),
            TbValue::Score(pts(2)),
        ]
    );
}

#[test]
fn game_points_decide_between_two_winners_and_two_losers() {
    // A 8:0 over C, B 6:2 over D: A and B have 2 场分, C and D none.
    let s = team_match_standings(&input(4, vec![m(1, A, C, "WWWW"), m(1, B, D, "WWDD")]));
    assert_eq!(
        table(&s),
        [
            (A, 1, None),
            (B, 2, Some(GamePoints)),
            (D, 3, Some(MatchPoints)),
            (C, 4, Some(GamePoints)),
        ]
    );
    assert_eq!(row(&s, D).game_points, pts(2));
}

#[test]
fn match_wins_decide_a_win_and_a_loss_against_two_draws() {
    // R1: A beats C 8:0, B draws D 4:4. R2: A loses to D 0:8, B draws C 4:4.
    // A: 2+0 = 2 场分, 8 局分, 1 胜场. B: 1+1 = 2 场分, 8 局分, 0 胜场. C 1, D 3.
    let mut inp = input(
        4,
        vec![
            m(1, A, C, "WWWW"),
            m(1, B, D, "WDLD"),
            m(2, A, D, "LLLL"),
            m(2, B, C, "DDDD"),
        ],
    );
    inp.tiebreaks = vec![MatchPoints, GamePoints, MatchWins];
    let s = team_match_standings(&inp);
    assert_eq!(
        table(&s),
        [
            (D, 1, None),
            (A, 2, Some(MatchPoints)),
            (B, 3, Some(MatchWins)),
            (C, 4, Some(MatchPoints)),
        ]
    );
    assert_eq!(row(&s, A).values[1], row(&s, B).values[1]);
    assert_eq!(row(&s, A).values[2], TbValue::Int(1));
    assert_eq!(row(&s, B).values[2], TbValue::Int(0));
}

#[test]
fn game_wins_then_boards_then_a_shared_place() {
    // Two 4:4 draws: A–C won and lost two boards each, B–D drew all four. Every team has
    // 1 场分 and 4 局分; the four did not all meet, so 直胜 does not apply. 胜局 puts A and
    // C (2) above B and D (0); 直胜 (restarted for the pair) is 1:1; 台次: A won board 1.
    // B and D are equal on everything and share 3rd.
    let s = team_match_standings(&input(4, vec![m(1, A, C, "WWLL"), m(1, B, D, "DDDD")]));
    assert_eq!(
        table(&s),
        [
            (A, 1, None),
            (C, 2, Some(Boards)),
            (B, 3, Some(GameWins)),
            (D, 3, None),
        ]
    );
    assert_eq!(row(&s, A).values[2], TbValue::Score(pts(1)), "直胜 of A–C");
    assert_eq!(row(&s, B).values[2], TbValue::Score(pts(1)), "直胜 of B–D");
    assert_eq!(
        row(&s, C).board_points,
        [
            BoardPoints {
                board: 1,
                points: pts(0),
                games: 1
            },
            BoardPoints {
                board: 2,
                points: pts(0),
                games: 1
            },
            BoardPoints {
                board: 3,
                points: pts(2),
                games: 1
            },
            BoardPoints {
                board: 4,
                points: pts(2),
                games: 1
            },
        ]
    );
}

#[test]
fn opponent_match_points_decide() {
    // R1: A beats C 8:0, B beats D 8:0. R2: C beats D 7:1 (WWWD).
    // 场分: A 2, B 2, C 2, D 0. 对手分: A = C's 2, B = D's 0, C = A's 2 + D's 0 = 2.
    // A and C: 局分 8 against 0 + 7 = 7.
    let mut inp = input(
        4,
        vec![m(1, A, C, "WWWW"), m(1, B, D, "WWWW"), m(2, C, D, "WWWD")],
    );
    inp.tiebreaks = vec![MatchPoints, OpponentMatchPoints, GamePoints];
    let s = team_match_standings(&inp);
    assert_eq!(
        table(&s),
        [
            (A, 1, None),
            (C, 2, Some(GamePoints)),
            (B, 3, Some(OpponentMatchPoints)),
            (D, 4, Some(MatchPoints)),
        ]
    );
    assert_eq!(row(&s, C).values[1], TbValue::Score(pts(2)));
    assert_eq!(row(&s, B).values[1], TbValue::Score(pts(0)));
}

#[test]
fn direct_decides_between_two_teams_that_met() {
    // R1: A beats B 5:3. R2: A loses to C 3:5, B beats D 5:3.
    // A and B: 2 场分, 8 局分; A beat B. C: 2 场分, 5 局分.
    let s = team_match_standings(&input(
        4,
        vec![m(1, A, B, "WWDL"), m(2, A, C, "LLDW"), m(2, B, D, "WWDL")],
    ));
    assert_eq!(
        table(&s),
        [
            (A, 1, None),
            (B, 2, Some(Direct)),
            (C, 3, Some(GamePoints)),
            (D, 4, Some(MatchPoints)),
        ]
    );
    assert_eq!(row(&s, A).values[2], TbValue::Score(pts(2)));
    assert_eq!(row(&s, B).values[2], TbValue::Score(pts(0)));
}

#[test]
fn fouls_decide_a_drawn_match() {
    // 4:4 with every board drawn: equal on everything but the fouls (A 2, B 0).
    let mut inp = input(2, vec![m(1, A, B, "DDDD")]);
    inp.fouls.insert(A, 2);
    let s = team_match_standings(&inp);
    assert_eq!(table(&s), [(B, 1, None), (A, 2, Some(Fouls))]);
    assert_eq!(row(&s, A).fouls, 2);
    assert_eq!(row(&s, A).values[4], TbValue::Int(2));
}

#[test]
fn forfeits_decide() {
    // A beats C with W W + - (6:2, one board lost by forfeit); B beats D W W W L (6:2).
    let mut inp = input(4, vec![m(1, A, C, "WW+-"), m(1, B, D, "WWWL")]);
    inp.tiebreaks = vec![MatchPoints, GamePoints, Forfeits];
    let s = team_match_standings(&inp);
    assert_eq!(
        table(&s),
        [
            (B, 1, None),
            (A, 2, Some(Forfeits)),
            (D, 3, Some(MatchPoints)),
            (C, 4, Some(Forfeits)),
        ]
    );
    assert_eq!((row(&s, A).forfeits, row(&s, C).forfeits), (1, 1));
    assert_eq!((row(&s, B).forfeits, row(&s, D).forfeits), (0, 0));
    // The forfeit win counts as a game won, the forfeit loss as a game lost.
    assert_eq!(row(&s, A).game_wins, 3);
    assert_eq!(row(&s, A).game_losses, 1);
}

#[test]
fn boards_decide_a_drawn_match() {
    // 4:4 with one win each (board 1 for A, board 2 for B): 直胜 1:1, 胜局 1:1, no fouls;
    // 台次: A has 2 on board 1, B 0.
    let s = team_match_standings(&input(2, vec![m(1, A, B, "WLDD")]));
    assert_eq!(table(&s), [(A, 1, None), (B, 2, Some(Boards))]);
    assert_eq!(row(&s, A).values[5], TbValue::Score(pts(2)));
    assert_eq!(row(&s, B).values[5], TbValue::Score(pts(0)));
}

/// Match points with distinct values to see which field applies.
fn marked_table() -> arbiter_types::ScoringTable {
    arbiter_types::ScoringTable {
        win: pts(3),
        draw_red: pts(1),
        draw_black: pts(2),
        loss: pts(0),
        bye: pts(3),
        forfeit_win: pts(4),
        forfeit_loss: pts(-1),
        double_forfeit: pts(-2),
    }
}

fn results(s: &TeamMatchStandings, no: u32) -> Vec<(Option<MatchResult>, Option<Score>)> {
    row(s, no)
        .rounds
        .iter()
        .map(|c| (c.result, c.match_points))
        .collect()
}

#[test]
fn forfeited_and_double_forfeited_matches() {
    let mut inp = input(
        6,
        vec![
            // B did not appear: every board of B is lost by forfeit.
            m(1, 1, 2, "++++"),
            // Every board of C forfeited, one of them a double forfeit: still C's forfeit.
            m(1, 3, 4, "--=-"),
            // Neither team appeared.
            m(1, 5, 6, "===="),
            // Three forfeits of 1 but one board played: a normal match, 2:6.
            m(2, 1, 2, "W---"),
        ],
    );
    inp.match_points = marked_table();
    let s = team_match_standings(&inp);
    assert_eq!(
        results(&s, 1),
        [
            (Some(MatchResult::ForfeitWin), Some(pts(4))),
            (Some(MatchResult::Loss), Some(pts(0))),
        ]
    );
    assert_eq!(
        results(&s, 2),
        [
            (Some(MatchResult::ForfeitLoss), Some(pts(-1))),
            (Some(MatchResult::Win), Some(pts(3))),
        ]
    );
    assert_eq!(
        results(&s, 3),
        [(Some(MatchResult::ForfeitLoss), Some(pts(-1)))]
    );
    assert_eq!(
        results(&s, 4),
        [(Some(MatchResult::ForfeitWin), Some(pts(4)))]
    );
    assert_eq!(
        results(&s, 5),
        [(Some(MatchResult::DoubleForfeit), Some(pts(-2)))]
    );
    assert_eq!(
        results(&s, 6),
        [(Some(MatchResult::DoubleForfeit), Some(pts(-2)))]
    );
    assert_eq!(row(&s, 1).forfeits, 3);
    assert_eq!(row(&s, 2).forfeits, 4);
    assert_eq!(row(&s, 3).forfeits, 4);
    assert_eq!(row(&s, 5).forfeits, 4);
    assert_eq!((row(&s, 5).wins, row(&s, 5).losses), (0, 1));
    // 场分: 1: 4+0 = 4, 4: 4, 2: -1+3 = 2, 3: -1, 5 and 6: -2.
    let mp: Vec<(u32, Score)> = s.rows.iter().map(|r| (r.no, r.match_points)).collect();
    assert_eq!(
        mp,
        [
            (1, pts(4)),
            (4, pts(4)),
            (2, pts(2)),
            (3, pts(-1)),
            (5, pts(-2)),
            (6, pts(-2)),
        ]
    );
    // 1 and 4: 局分 8+2 = 10 against 2+2+0+2 = 6: 1 first. 5 and 6: equal everywhere; a double
    // forfeit is no meeting for 直胜: they share the place.
    assert_eq!(table(&s)[1], (4, 2, Some(GamePoints)));
    assert_eq!(table(&s)[5], (6, 5, None));
}

#[test]
fn home_and_away_draws_score_differently() {
    // 3-1-2-0 at match level: a drawn match gives the first team 1, the second 2.
    let mut inp = input(2, vec![m(1, A, B, "DDDD"), m(2, B, A, "WLDD")]);
    inp.match_points = ScoringPreset::ThreeOneTwoZero.table();
    let s = team_match_standings(&inp);
    assert_eq!(
        results(&s, A),
        [
            (Some(MatchResult::Draw), Some(pts(1))),
            (Some(MatchResult::Draw), Some(pts(2)))
        ]
    );
    assert_eq!(
        results(&s, B),
        [
            (Some(MatchResult::Draw), Some(pts(2))),
            (Some(MatchResult::Draw), Some(pts(1)))
        ]
    );
    // Only round 1 played: B, the second team, is ahead on 场分.
    let mut one = input(2, vec![m(1, A, B, "DDDD")]);
    one.match_points = ScoringPreset::ThreeOneTwoZero.table();
    let s1 = team_match_standings(&one);
    assert_eq!(table(&s1), [(B, 1, None), (A, 2, Some(MatchPoints))]);
    assert_eq!(row(&s1, B).draws, 1);
}

#[test]
fn a_bye_gives_the_bye_points_and_counts_as_a_match_won() {
    // R1: A beats B 5:3, C has a bye worth 4 局分. R2: C draws A 4:4, B has a bye worth 4.
    let mut inp = input(3, vec![m(1, A, B, "WWDL"), m(2, C, A, "DDDD")]);
    inp.byes = vec![
        TeamBye {
            round: 1,
            team: C,
            game_points: pts(4),
        },
        TeamBye {
            round: 2,
            team: B,
            game_points: pts(4),
        },
    ];
    inp.tiebreaks = vec![MatchPoints, GamePoints, MatchWins];
    let s = team_match_standings(&inp);
    // A: 2+1 = 3 场分, 9 局分; C: 2+1 = 3, 8; B: 0+2 = 2, 7.
    assert_eq!(
        table(&s),
        [
            (A, 1, None),
            (C, 2, Some(GamePoints)),
            (B, 3, Some(MatchPoints))
        ]
    );
    let c = row(&s, C);
    assert_eq!((c.match_points, c.game_points), (pts(3), pts(8)));
    assert_eq!((c.wins, c.draws, c.losses, c.byes), (1, 1, 0, 1));
    assert_eq!(c.values[2], TbValue::Int(1));
    assert_eq!(
        c.rounds[0],
        MatchCell {
            round: 1,
            opponent: None,
            side: None,
            game_points: pts(4),
            opponent_game_points: pts(0),
            result: Some(MatchResult::Bye),
            match_points: Some(pts(2)),
        }
    );
    // A bye has no board: 台次 and 胜局 see only the boards played.
    assert_eq!(c.game_wins, 0);
    assert_eq!(c.board_points.iter().map(|b| b.games).sum::<u32>(), 4);
}

#[test]
fn an_unfinished_match_is_listed_but_gives_nothing() {
    let s = team_match_standings(&input(2, vec![m(1, A, B, "WWWW"), m(2, B, A, "WW??")]));
    let a = row(&s, A);
    assert_eq!(
        (a.match_points, a.game_points, a.game_wins),
        (pts(2), pts(8), 4)
    );
    assert_eq!(
        a.rounds[1],
        MatchCell {
            round: 2,
            opponent: Some(B),
            side: Some(Side::Second),
            game_points: pts(0),
            opponent_game_points: pts(4),
            result: None,
            match_points: None,
        }
    );
    assert_eq!((a.wins, a.draws, a.losses), (1, 0, 0));
    let b = row(&s, B);
    assert_eq!(
        (b.match_points, b.game_points, b.game_wins),
        (pts(0), pts(0), 0)
    );
    assert_eq!(b.board_points.iter().map(|x| x.games).sum::<u32>(), 4);
    // Nothing finished: nobody is separated.
    let s = team_match_standings(&input(2, vec![m(1, A, B, "W???")]));
    assert_eq!(table(&s), [(A, 1, None), (B, 1, None)]);
    // A match without boards is not over either.
    let s = team_match_standings(&input(2, vec![m(1, A, B, "")]));
    assert_eq!(row(&s, A).rounds[0].result, None);
    assert_eq!(table(&s), [(A, 1, None), (B, 1, None)]);
}

/// A, B, C end on 2 场分 and 8 局分; A–B and B–C met, A–C did not. D and E are above them.
fn three_tied_not_all_met() -> TeamMatchInput {
    input(
        5,
        vec![
            m(1, A, B, "WWDL"), // A 5:3
            m(1, C, D, "WWDL"), // C 5:3
            m(2, B, C, "WWDL"), // B 5:3
            m(2, D, A, "WWDL"), // D 5:3
            m(3, E, B, "WWWW"), // E 8:0
            m(4, D, E, "WWWD"), // D 7:1
        ],
    )
}

#[test]
fn direct_is_not_applied_when_the_tied_teams_did_not_all_meet() {
    // D 4 场分; E 2 场分, 9 局分; A, B, C 2 场分, 8 局分, 3 胜局 each and 2 on every board.
    // A partial mini-table (A 2, B 2, C 0) would put C last: not applied, a shared 3rd.
    let s = team_match_standings(&three_tied_not_all_met());
    assert_eq!(
        table(&s),
        [
            (D, 1, None),
            (E, 2, Some(MatchPoints)),
            (A, 3, Some(GamePoints)),
            (B, 3, None),
            (C, 3, None),
        ]
    );
    for no in [A, B, C] {
        assert_eq!(
            row(&s, no).values[2],
            TbValue::Score(pts(0)),
            "直胜 of {no}"
        );
        assert_eq!(row(&s, no).game_wins, 3);
    }
}

#[test]
fn direct_restarts_for_a_pair_split_off_by_a_later_criterion() {
    // C has a foul: A and B stay tied, and they met (A won): 直胜 puts A first.
    let mut inp = three_tied_not_all_met();
    inp.fouls.insert(C, 1);
    let s = team_match_standings(&inp);
    assert_eq!(
        &table(&s)[2..],
        [
            (A, 3, Some(GamePoints)),
            (B, 4, Some(Direct)),
            (C, 5, Some(Fouls))
        ]
    );
    assert_eq!(row(&s, A).values[2], TbValue::Score(pts(2)));
    // B has the foul instead: A and C stay tied but never met: they share the place.
    let mut inp = three_tied_not_all_met();
    inp.fouls.insert(B, 1);
    let s = team_match_standings(&inp);
    assert_eq!(
        &table(&s)[2..],
        [(A, 3, Some(GamePoints)), (C, 3, None), (B, 5, Some(Fouls))]
    );
}

#[test]
fn direct_is_a_mini_table_when_the_tied_teams_all_met() {
    // A, B, C met each other (A beat B, drew C; B beat C) and each played D; D also beat E.
    // 场分: A 2+1+0 = 3, B 0+2+1 = 3, C 1+0+2 = 3, D 0+1+2+2 = 5, E 0.
    // 局分: A 5+4+3 = 12, B 3+5+4 = 12, C 4+3+5 = 12.
    // Mini-table: A 2+1 = 3, B 0+2 = 2, C 1+0 = 1.
    let inp = input(
        5,
        vec![
            m(1, A, B, "WWDL"),
            m(1, C, D, "WWDL"),
            m(2, A, C, "DDDD"),
            m(2, B, D, "DDDD"),
            m(3, B, C, "WWDL"),
            m(3, D, A, "WWDL"),
            m(4, D, E, "WWWW"),
        ],
    );
    let s = team_match_standings(&inp);
    assert_eq!(
        table(&s),
        [
            (D, 1, None),
            (A, 2, Some(MatchPoints)),
            (B, 3, Some(Direct)),
            (C, 4, Some(Direct)),
            (E, 5, Some(MatchPoints)),
        ]
    );
    let direct: Vec<TbValue> = [A, B, C].iter().map(|&no| row(&s, no).values[2]).collect();
    assert_eq!(
        direct,
        [
            TbValue::Score(pts(3)),
            TbValue::Score(pts(2)),
            TbValue::Score(pts(1))
        ]
    );
    for no in [A, B, C] {
        assert_eq!(row(&s, no).game_points, pts(12));
    }
}

#[test]
fn entries_naming_unknown_teams_are_ignored_and_reported() {
    let mut inp = input(
        2,
        vec![m(1, A, B, "WWWW"), m(1, A, 9, "LLLL"), m(2, B, B, "WWWW")],
    );
    inp.teams.push(MatchTeam {
        no: A,
        name: "again".into(),
    });
    inp.byes.push(TeamBye {
        round: 2,
        team: 7,
        game_points: pts(4),
    });
    inp.fouls.insert(8, 1);
    let s = team_match_standings(&inp);
    assert_eq!(table(&s), [(A, 1, None), (B, 2, Some(MatchPoints))]);
    assert_eq!(row(&s, A).name, "T1");
    assert_eq!(row(&s, A).rounds.len(), 1);
    assert_eq!(row(&s, A).match_points, pts(2));
    assert_eq!(
        s.ignored,
        [
            Ignored::DuplicateTeam {
                no: A,
                name: "again".into()
            },
            Ignored::UnknownTeamInMatch {
                round: 1,
                first: A,
                second: 9
            },
            Ignored::MatchAgainstItself { round: 2, team: B },
            Ignored::UnknownTeamBye { round: 2, team: 7 },
            Ignored::UnknownTeamFouls { team: 8 },
        ]
    );
}

#[test]
fn input_reads_from_json_with_defaults() {
    let json = r#"{
        "teams": [{"no": 1, "name": "苏州"}, {"no": 2, "name": "无锡"}],
        "matches": [{"round": 1, "first": 1, "second": 2, "boards": [
            {"board": 1, "result": "win", "first_points": 2, "second_points": 0},
            {"board": 2, "result": "forfeit_loss", "first_points": 0, "second_points": 2,
             "first_player": null, "second_player": 21}
        ]}]
    }"#;
    let inp: TeamMatchInput = serde_json::from_str(json).expect("valid input");
    assert_eq!(inp.tiebreaks, TeamTiebreak::DEFAULT);
    assert_eq!(inp.match_points.draw_black, pts(1));
    let s = team_match_standings(&inp);
    // 2:2, one win each; 直胜 1:1; 胜局 1:1; 台次: board 1 to 苏州.
    assert_eq!(table(&s), [(1, 1, None), (2, 2, Some(Boards))]);
    let out = serde_json::to_value(&s).expect("serialises");
    assert_eq!(out["rows"][0]["decided_by"], serde_json::Value::Null);
    assert_eq!(out["rows"][1]["decided_by"], "boards");
    assert_eq!(out["rows"][1]["rounds"][0]["result"], "draw");
}

/// (rank, player, team, games, points).
type BoardBrief = (Option<u32>, u32, u32, u32, Score);

fn seat(no: u32, c: char, first: Option<u32>, second: Option<u32>) -> MatchBoard {
    MatchBoard {
        first_player: first.and_then(PlayerNo::new),
        second_player: second.and_then(PlayerNo::new),
        ..board(no, c)
    }
}

#[test]
fn board_standings_list_a_player_on_his_most_played_board() {
    // Two boards. Team A: 11, 12, 13; B: 21, 22; C: 31, 32.
    let mut matches = vec![
        PlayedMatch {
            round: 1,
            first: A,
            second: B,
            boards: vec![
                seat(1, 'W', Some(11), Some(21)),
                seat(2, 'D', Some(12), Some(22)),
            ],
        },
        PlayedMatch {
            round: 2,
            first: C,
            second: A,
            boards: vec![
                seat(1, 'L', Some(31), Some(11)),
                seat(2, 'W', Some(32), Some(12)),
            ],
        },
        // 11 is absent: 12 moves up to board 1, 13 plays board 2.
        PlayedMatch {
            round: 3,
            first: A,
            second: C,
            boards: vec![
                seat(1, 'D', Some(12), Some(31)),
                seat(2, 'W', Some(13), Some(32)),
            ],
        },
        // 11 seated but lost by forfeit (a game of his); B's board 2 empty (nobody's game).
        PlayedMatch {
            round: 4,
            first: B,
            second: A,
            boards: vec![
                seat(1, '+', Some(21), Some(11)),
                seat(2, '-', None, Some(12)),
            ],
        },
        // Not over: does not count.
        PlayedMatch {
            round: 5,
            first: A,
            second: B,
            boards: vec![
                seat(1, 'W', Some(11), Some(21)),
                seat(2, '?', Some(12), Some(22)),
            ],
        },
    ];
    // Order of the matches does not matter.
    matches.reverse();
    let inp = input(3, matches);
    let tables = board_standings(&inp, 2, pts(2));
    let brief: Vec<(u32, Vec<BoardBrief>)> = tables
        .iter()
        .map(|t| {
            (
                t.board,
                t.rows
                    .iter()
                    .map(|r| (r.rank, r.player.get(), r.team, r.games, r.points))
                    .collect(),
            )
        })
        .collect();
    // Board 1: 11 4/(3×2) = 2/3, 21 2/4 = 1/2, 31 1/4.
    // Board 2: 12 (3 games there, 1 on board 1) 4/8 = 1/2 with 4 points, 32 2/4 = 1/2 with
    // 2 points; 13 (2/2) and 22 (1/2) played one game only: unranked.
    assert_eq!(
        brief,
        [
            (
                1,
                vec![
                    (Some(1), 11, A, 3, pts(4)),
                    (Some(2), 21, B, 2, pts(2)),
                    (Some(3), 31, C, 2, pts(1)),
                ]
            ),
            (
                2,
                vec![
                    (Some(1), 12, A, 4, pts(4)),
                    (Some(2), 32, C, 2, pts(2)),
                    (None, 13, A, 1, pts(2)),
                    (None, 22, B, 1, pts(1)),
                ]
            ),
        ]
    );
    let p12 = &tables[1].rows[0];
    assert_eq!((p12.wins, p12.draws, p12.losses), (1, 2, 1));
    assert_eq!(p12.games_on_board, 3);
    assert_eq!(p12.rate, Some(TbValue::from_ratio(1, 2)));
    let p11 = &tables[0].rows[0];
    assert_eq!((p11.wins, p11.draws, p11.losses), (2, 0, 1));
    assert_eq!(p11.rate, Some(TbValue::Fraction { num: 2, den: 3 }));
    assert_eq!(p11.rate.map(|r| r.to_string()), Some("2/3".to_string()));
    // With no minimum, 13 (rate 1) leads board 2.
    let all = board_standings(&inp, 0, pts(2));
    assert_eq!(all[1].rows[0].player.get(), 13);
    assert_eq!(all[1].rows[0].rank, Some(1));
    // A player with one game on each board is listed on the lower one.
    let one_each = input(
        2,
        vec![
            PlayedMatch {
                round: 1,
                first: A,
                second: B,
                boards: vec![
                    seat(1, 'W', Some(11), Some(21)),
                    seat(2, 'W', Some(12), Some(22)),
                ],
            },
            PlayedMatch {
                round: 2,
                first: A,
                second: B,
                boards: vec![
                    seat(1, 'W', Some(12), Some(22)),
                    seat(2, 'W', Some(11), Some(21)),
                ],
            },
        ],
    );
    let t = board_standings(&one_each, 0, pts(2));
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].board, 1);
    assert_eq!(t[0].rows.len(), 4);
}
