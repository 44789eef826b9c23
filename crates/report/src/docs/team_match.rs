//! The documents of a team-match section (团体赛, rules.md A15): the pairings with both
//! line-ups (对阵表), one score sheet per match (团体赛记分表), the team standings (团体名次)
//! and the team crosstable (团体交叉表); for the spreadsheets, every match of every round a
//! row per board (团体对阵及成绩). Every value comes from the director's read models
//! (`team_match::round_view`, `team_match::standings`); nothing here scores or ranks.

use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, ReportError, Table};
use arbiter_director::crosstable::points_text;
use arbiter_director::team_match::{self, MatchBoardView, MatchView, SeatView, TeamRoundView};
use arbiter_standings::team_match::{BoardOutcome, MatchCell, MatchResult, TeamMatchStandings};
use arbiter_standings::TbValue;
use arbiter_types::{Colour, Score, TeamTiebreak};

/// Whether `sid` is a team-match section.
pub(super) fn is_team(cx: &Ctx, sid: &str) -> bool {
    team_match::is_team_section(&cx.reg, sid)
}

/// Round `round` of a team section as the director shows it.
pub(super) fn view(cx: &Ctx, sid: &str, round: u32) -> Option<TeamRoundView> {
    team_match::round_view(&cx.reg, cx.state, sid, round)
}

fn table_of(cx: &Ctx, sid: &str) -> Result<TeamMatchStandings, ReportError> {
    team_match::standings(&cx.reg, cx.state, sid).map_err(|e| ReportError::Event(e.to_string()))
}

/// 「第3场 花木群英 — 川沙群友」.
fn match_head(cx: &Ctx, m: &MatchView) -> String {
    match cx.lang {
        Lang::Zh => format!("第{}场 {} — {}", m.no, m.first, m.second),
        Lang::En => format!("Match {}: {} — {}", m.no, m.first, m.second),
    }
}

fn colour(cx: &Ctx, c: Colour) -> &'static str {
    match c {
        Colour::Red => cx.t("红", "Red"),
        Colour::Black => cx.t("黑", "Black"),
    }
}

fn seat_no(s: &Option<SeatView>) -> Cell {
    s.as_ref()
        .and_then(|s| s.no)
        .map_or(Cell::Empty, |n| Cell::Int(n as i64))
}

/// A player's name, or an empty seat (lost by forfeit, A15).
fn seat_name(cx: &Ctx, s: &Option<SeatView>) -> Cell {
    match s {
        Some(s) => Cell::text(&s.name),
        None => Cell::text(cx.t("(空台)", "(empty)")),
    }
}

fn board_result(cx: &Ctx, o: BoardOutcome) -> &'static str {
    match o {
        BoardOutcome::Win => cx.t("胜", "win"),
        BoardOutcome::Draw => cx.t("和", "draw"),
        BoardOutcome::Loss => cx.t("负", "loss"),
        BoardOutcome::ForfeitWin => cx.t("对方弃权", "forfeit win"),
        BoardOutcome::ForfeitLoss => cx.t("弃权", "forfeit"),
        BoardOutcome::DoubleForfeit => cx.t("双方弃权", "double forfeit"),
    }
}

fn match_result(cx: &Ctx, r: MatchResult) -> &'static str {
    match r {
        MatchResult::Win => cx.t("胜", "won"),
        MatchResult::Draw => cx.t("平", "drawn"),
        MatchResult::Loss => cx.t("负", "lost"),
        MatchResult::ForfeitWin => cx.t("对方弃权", "won by forfeit"),
        MatchResult::ForfeitLoss => cx.t("弃权", "lost by forfeit"),
        MatchResult::DoubleForfeit => cx.t("双方弃权", "double forfeit"),
        MatchResult::Bye => cx.t("轮空", "bye"),
    }
}

/// 「轮空: 临港群旺」.
fn bye_line(cx: &Ctx, team: &str) -> Block {
    Block::Paragraph(match cx.lang {
        Lang::Zh => format!("轮空: {team}"),
        Lang::En => format!("Bye: {team}"),
    })
}

/// The 对阵表 of a team round: per match its heading and both line-ups board by board.
pub(super) fn pairings(cx: &Ctx, sid: &str, v: &TeamRoundView, blocks: &mut Vec<Block>) {
    for m in &v.matches {
        let mut inner = vec![Block::Heading(match_head(cx, m))];
        inner.push(Block::Table(Table {
            id: format!("pairings-{sid}-{}-{}", v.round, m.no),
            caption: None,
            columns: vec![
                col("board", cx.t("台次", "Board"), Align::Right, 5),
                col("round_board", cx.t("台号", "Table"), Align::Right, 5),
                col("first_no", cx.t("序号", "No."), Align::Right, 5),
                col("first_name", &m.first, Align::Left, 16),
                col("first_colour", cx.t("执", "Col."), Align::Center, 5),
                col("vs", "", Align::Center, 3),
                col("second_colour", cx.t("执", "Col."), Align::Center, 5),
                col("second_name", &m.second, Align::Left, 16),
                col("second_no", cx.t("序号", "No."), Align::Right, 5),
            ],
            rows: m
                .boards
                .iter()
                .map(|b| {
                    vec![
                        Cell::Int(b.board as i64),
                        Cell::Int(b.round_board as i64),
                        seat_no(&b.first),
                        seat_name(cx, &b.first),
                        Cell::text(colour(cx, b.first_colour)),
                        Cell::text("—"),
                        Cell::text(colour(cx, b.first_colour.opposite())),
                        seat_name(cx, &b.second),
                        seat_no(&b.second),
                    ]
                })
                .collect(),
        }));
        blocks.push(Block::KeepTogether(inner));
    }
    if let Some(b) = &v.bye {
        blocks.push(bye_line(cx, b));
    }
}

/// The match points (场分) a team took in `round`, from the standings (`None` while the match
/// is unfinished).
fn match_points(table: &TeamMatchStandings, team: &str, round: u32) -> Option<Score> {
    table
        .rows
        .iter()
        .find(|r| r.name == team)
        .and_then(|r| r.rounds.iter().find(|c| c.round == round))
        .and_then(|c| c.match_points)
}

/// The 团体赛记分表 of a team round: one sheet per match — the boards with the result to fill
/// in (or as entered), each side's 局分 and total, the 场分, and the signatures of both
/// captains and the arbiter.
pub(super) fn slips(
    cx: &Ctx,
    head: &str,
    sid: &str,
    v: &TeamRoundView,
    blocks: &mut Vec<Block>,
) -> Result<(), ReportError> {
    let table = table_of(cx, sid)?;
    let circle = cx.t("胜 · 和 · 负", "win · draw · loss");
    for m in &v.matches {
        let mut inner = vec![Block::Heading(match cx.lang {
            Lang::Zh => format!("{head} 团体赛记分表 · {}", match_head(cx, m)),
            Lang::En => format!("{head} team score sheet · {}", match_head(cx, m)),
        })];
        let mut rows: Vec<Vec<Cell>> = m
            .boards
            .iter()
            .map(|b| {
                let (res, fp, sp) = match b.result {
                    Some(o) => (
                        Cell::text(board_result(cx, o)),
                        Cell::Score(b.first_points),
                        Cell::Score(b.second_points),
                    ),
                    None => (Cell::text(circle), Cell::Empty, Cell::Empty),
                };
                vec![
                    Cell::Int(b.board as i64),
                    Cell::text(colour(cx, b.first_colour)),
                    seat_no(&b.first),
                    seat_name(cx, &b.first),
                    res,
                    fp,
                    sp,
                    seat_name(cx, &b.second),
                    seat_no(&b.second),
                ]
            })
            .collect();
        let finished = m.result.is_some();
        let total = |s: Score| {
            if finished {
                Cell::Score(s)
            } else {
                Cell::Empty
            }
        };
        rows.push(vec![
            Cell::Empty,
            Cell::Empty,
            Cell::Empty,
            Cell::text(cx.t("局分合计", "Game points")),
            m.result
                .map_or(Cell::Empty, |r| Cell::text(match_result(cx, r))),
            total(m.first_points),
            total(m.second_points),
            Cell::Empty,
            Cell::Empty,
        ]);
        let mp = |team: &str| {
            if finished {
                match_points(&table, team, v.round).map_or(Cell::Empty, Cell::Score)
            } else {
                Cell::Empty
            }
        };
        rows.push(vec![
            Cell::Empty,
            Cell::Empty,
            Cell::Empty,
            Cell::text(cx.t("场分", "Match points")),
            Cell::Empty,
            mp(&m.first),
            mp(&m.second),
            Cell::Empty,
            Cell::Empty,
        ]);
        inner.push(Block::Table(Table {
            id: format!("slip-{sid}-{}-{}", v.round, m.no),
            caption: None,
            columns: vec![
                col("board", cx.t("台次", "Board"), Align::Right, 4),
                col("first_colour", cx.t("执", "Col."), Align::Center, 4),
                col("first_no", cx.t("序号", "No."), Align::Right, 4),
                col("first_name", &m.first, Align::Left, 14),
                col(
                    "result",
                    cx.t("结果(甲队)", "Result (first team)"),
                    Align::Center,
                    14,
                ),
                col("first_points", cx.t("甲队局分", "Pts"), Align::Right, 6),
                col("second_points", cx.t("乙队局分", "Pts"), Align::Right, 6),
                col("second_name", &m.second, Align::Left, 14),
                col("second_no", cx.t("序号", "No."), Align::Right, 4),
            ],
            rows,
        }));
        inner.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!("甲队: {}    乙队: {}", m.first, m.second),
            Lang::En => format!("First: {}    Second: {}", m.first, m.second),
        }));
        inner.push(Block::Signatures(vec![
            cx.t("甲队队长签字", "First captain").to_string(),
            cx.t("乙队队长签字", "Second captain").to_string(),
            cx.t("裁判员签字", "Arbiter").to_string(),
        ]));
        blocks.push(Block::KeepTogether(inner));
    }
    if let Some(b) = &v.bye {
        blocks.push(bye_line(cx, b));
    }
    Ok(())
}

/// The criteria of the regulation's list whose value is already a column of the team
/// standings (场分, 局分, 胜 = 胜场, 胜局, 弃权, 犯规); the others (对手分, 直胜, 台次) get one.
fn shown_as_column(t: TeamTiebreak) -> bool {
    matches!(
        t,
        TeamTiebreak::MatchPoints
            | TeamTiebreak::GamePoints
            | TeamTiebreak::MatchWins
            | TeamTiebreak::GameWins
            | TeamTiebreak::Forfeits
            | TeamTiebreak::Fouls
    )
}

fn tb_cell(v: TbValue) -> Cell {
    match v {
        TbValue::Score(s) => Cell::Score(s),
        TbValue::Int(n) => Cell::Int(n),
        TbValue::Fraction { num, den } => Cell::Text(format!("{num}/{den}")),
    }
}

/// The 团体名次 of a team section: rank, team, 场分, 局分, matches won/drawn/lost, games won,
/// boards forfeited, fouls, the value of each criterion of the regulation's list not shown
/// already (对手分, 直胜, 台次: the points on the first board) and what decided each place.
pub(super) fn standings(cx: &Ctx, sid: &str, caption: String) -> Result<Block, ReportError> {
    let table = table_of(cx, sid)?;
    let list: Vec<(usize, TeamTiebreak)> = team_match::rules_of(&cx.reg, sid)
        .map(|(_, tm)| tm.tiebreaks.clone())
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .filter(|&(_, t)| !shown_as_column(t))
        .collect();
    let mut columns = vec![
        col("rank", cx.t("名次", "Rank"), Align::Right, 5),
        col("no", cx.t("队号", "No."), Align::Right, 5),
        col("team", cx.t("队名", "Team"), Align::Left, 18),
        col("match_points", cx.t("场分", "MP"), Align::Right, 5),
        col("game_points", cx.t("局分", "GP"), Align::Right, 5),
        col("wins", cx.t("胜", "W"), Align::Right, 4),
        col("draws", cx.t("和", "D"), Align::Right, 4),
        col("losses", cx.t("负", "L"), Align::Right, 4),
        col("game_wins", cx.t("胜局", "Games won"), Align::Right, 5),
        col("forfeits", cx.t("弃权", "Forfeits"), Align::Right, 5),
        col("fouls", cx.t("犯规", "Fouls"), Align::Right, 5),
    ];
    for (_, t) in &list {
        columns.push(col(
            &format!("tb:{}", t.name()),
            match cx.lang {
                Lang::Zh => t.zh(),
                Lang::En => t.name(),
            },
            Align::Right,
            6,
        ));
    }
    columns.push(col(
        "decided_by",
        cx.t("区分", "Decided by"),
        Align::Left,
        8,
    ));
    Ok(Block::Table(Table {
        id: format!("team-standings-{sid}"),
        caption: Some(caption),
        columns,
        rows: table
            .rows
            .iter()
            .map(|r| {
                let mut row = vec![
                    Cell::Int(r.rank as i64),
                    Cell::Int(r.no as i64),
                    Cell::text(&r.name),
                    Cell::Score(r.match_points),
                    Cell::Score(r.game_points),
                    Cell::Int(r.wins as i64),
                    Cell::Int(r.draws as i64),
                    Cell::Int(r.losses as i64),
                    Cell::Int(r.game_wins as i64),
                    Cell::Int(r.forfeits as i64),
                    Cell::Int(r.fouls as i64),
                ];
                for (i, _) in &list {
                    row.push(r.values.get(*i).map_or(Cell::Empty, |v| tb_cell(*v)));
                }
                row.push(r.decided_by.map_or(Cell::Empty, |d| match cx.lang {
                    Lang::Zh => Cell::text(d.zh()),
                    Lang::En => Cell::text(d.name()),
                }));
                row
            })
            .collect(),
    }))
}

/// The 台次成绩 of a team section (for 台次奖): one table per board — rank (「—」 for a player
/// short of the regulation's minimum of games), number, name, team, games (on this board),
/// points, won/drawn/lost and the score rate.
pub(super) fn board_standings(cx: &Ctx, sid: &str) -> Vec<Block> {
    let Some(p) = arbiter_director::team_match::board_prizes(&cx.reg, cx.state, sid) else {
        return Vec::new();
    };
    let mut blocks = Vec::new();
    for t in &p.boards {
        let caption = match cx.lang {
            Lang::Zh => format!(
                "{} · 第{}台 台次成绩 (至少{}局方可排名)",
                cx.section_name(sid),
                t.board,
                p.min_games
            ),
            Lang::En => format!(
                "{} · Board {} (ranked from {} games)",
                cx.section_name(sid),
                t.board,
                p.min_games
            ),
        };
        blocks.push(Block::Table(Table {
            id: format!("board-standings-{sid}-{}", t.board),
            caption: Some(caption),
            columns: vec![
                col("rank", cx.t("名次", "Rank"), Align::Right, 5),
                col("no", cx.t("序号", "No."), Align::Right, 5),
                col("name", cx.t("姓名", "Name"), Align::Left, 10),
                col("team", cx.t("队名", "Team"), Align::Left, 16),
                col("games", cx.t("局数", "Games"), Align::Right, 5),
                col("on_board", cx.t("本台", "On board"), Align::Right, 5),
                col("points", cx.t("得分", "Points"), Align::Right, 5),
                col("wins", cx.t("胜", "W"), Align::Right, 4),
                col("draws", cx.t("和", "D"), Align::Right, 4),
                col("losses", cx.t("负", "L"), Align::Right, 4),
                col("rate", cx.t("得分率", "Rate"), Align::Right, 7),
            ],
            rows: t
                .rows
                .iter()
                .map(|r| {
                    vec![
                        r.rank
                            .map_or_else(|| Cell::text("—"), |n| Cell::Int(i64::from(n))),
                        Cell::Int(i64::from(r.no)),
                        Cell::text(&r.name),
                        Cell::text(&r.team),
                        Cell::Int(i64::from(r.games)),
                        Cell::Int(i64::from(r.games_on_board)),
                        Cell::Score(r.points),
                        Cell::Int(i64::from(r.wins)),
                        Cell::Int(i64::from(r.draws)),
                        Cell::Int(i64::from(r.losses)),
                        Cell::text(r.rate_text()),
                    ]
                })
                .collect(),
        }));
    }
    blocks
}

/// The colour the first team's player had on board `b` of `round`: as played once the game
/// is on the round's sheet (a board played the other way round, S6, shows it), else as paired.
fn played_colour(cx: &Ctx, sid: &str, round: u32, b: &MatchBoardView) -> Colour {
    let game = cx
        .state
        .section(sid)
        .and_then(|r| r.rounds.get(&round))
        .and_then(|r| r.board(b.round_board));
    match (game, &b.first) {
        (Some(g), Some(s)) if g.red == s.id => Colour::Red,
        (Some(g), Some(s)) if g.black == s.id => Colour::Black,
        _ => b.first_colour,
    }
}

/// 「2½:1½」 (局分 first:second), in brackets while the match is unfinished.
fn match_score(m: &MatchView) -> String {
    let s = format!(
        "{}:{}",
        points_text(m.first_points),
        points_text(m.second_points)
    );
    if m.result.is_some() {
        s
    } else {
        format!("({s})")
    }
}

/// The 团体对阵及成绩 of a team section, for the spreadsheets: every board of every match of
/// every round paired, one row each with its match's columns repeated (round, match, both
/// teams, the match's score, 局分, 场分 and result), then the board (its number in the match
/// and in the round, both players, the colour the first team's player had, the game's result
/// and points), so that a filter on a team, a round or a player finds its rows; a bye is a
/// row of its own. `None` while no round is paired.
pub(super) fn matches_table(cx: &Ctx, sid: &str) -> Result<Option<Table>, ReportError> {
    let Some(rec) = cx.state.section(sid) else {
        return Ok(None);
    };
    if rec.matches.is_empty() || !is_team(cx, sid) {
        return Ok(None);
    }
    let columns = vec![
        col("round", cx.t("轮次", "Round"), Align::Right, 4),
        col("match", cx.t("场次", "Match"), Align::Right, 4),
        col("first", cx.t("甲队", "First team"), Align::Left, 14),
        col("second", cx.t("乙队", "Second team"), Align::Left, 14),
        col("score", cx.t("比分", "Score"), Align::Center, 7),
        col(
            "first_points",
            cx.t("甲队局分", "First GP"),
            Align::Right,
            5,
        ),
        col(
            "second_points",
            cx.t("乙队局分", "Second GP"),
            Align::Right,
            5,
        ),
        col(
            "first_match_points",
            cx.t("甲队场分", "First MP"),
            Align::Right,
            5,
        ),
        col(
            "second_match_points",
            cx.t("乙队场分", "Second MP"),
            Align::Right,
            5,
        ),
        col(
            "result",
            cx.t("结果(甲队)", "Result (first team)"),
            Align::Center,
            8,
        ),
        col("board", cx.t("台次", "Board"), Align::Right, 4),
        col("round_board", cx.t("台号", "Table"), Align::Right, 4),
        col("first_no", cx.t("甲方序号", "First no."), Align::Right, 5),
        col(
            "first_player",
            cx.t("甲方棋手", "First player"),
            Align::Left,
            10,
        ),
        col(
            "first_colour",
            cx.t("甲方执", "First col."),
            Align::Center,
            4,
        ),
        col(
            "second_player",
            cx.t("乙方棋手", "Second player"),
            Align::Left,
            10,
        ),
        col("second_no", cx.t("乙方序号", "Second no."), Align::Right, 5),
        col(
            "board_result",
            cx.t("本台结果(甲方)", "Game (first team)"),
            Align::Center,
            8,
        ),
        col(
            "board_first_points",
            cx.t("甲方得分", "First pts"),
            Align::Right,
            5,
        ),
        col(
            "board_second_points",
            cx.t("乙方得分", "Second pts"),
            Align::Right,
            5,
        ),
    ];
    let table = table_of(cx, sid)?;
    let mut rows = Vec::new();
    for &round in rec.matches.keys() {
        let Some(v) = view(cx, sid, round) else {
            continue;
        };
        for m in &v.matches {
            let finished = m.result.is_some();
            let mp = |team: &str| {
                if finished {
                    match_points(&table, team, round).map_or(Cell::Empty, Cell::Score)
                } else {
                    Cell::Empty
                }
            };
            let head = [
                Cell::Int(round as i64),
                Cell::Int(m.no as i64),
                Cell::text(&m.first),
                Cell::text(&m.second),
                Cell::Text(match_score(m)),
                Cell::Score(m.first_points),
                Cell::Score(m.second_points),
                mp(&m.first),
                mp(&m.second),
                m.result
                    .map_or(Cell::Empty, |r| Cell::text(match_result(cx, r))),
            ];
            for b in &m.boards {
                let mut row = head.to_vec();
                let (res, fp, sp) = match b.result {
                    Some(o) => (
                        Cell::text(board_result(cx, o)),
                        Cell::Score(b.first_points),
                        Cell::Score(b.second_points),
                    ),
                    None => (Cell::Empty, Cell::Empty, Cell::Empty),
                };
                row.extend([
                    Cell::Int(b.board as i64),
                    Cell::Int(b.round_board as i64),
                    seat_no(&b.first),
                    seat_name(cx, &b.first),
                    Cell::text(colour(cx, played_colour(cx, sid, round, b))),
                    seat_name(cx, &b.second),
                    seat_no(&b.second),
                    res,
                    fp,
                    sp,
                ]);
                rows.push(row);
            }
        }
        if let Some(team) = &v.bye {
            // The bye's 局分 and 场分 as the standings count them.
            let cell = table.rows.iter().find(|r| &r.name == team).and_then(|r| {
                r.rounds
                    .iter()
                    .find(|c| c.round == round && c.opponent.is_none())
            });
            let mut row = vec![
                Cell::Int(round as i64),
                Cell::Empty,
                Cell::text(team),
                Cell::text(cx.t("(轮空)", "(bye)")),
                Cell::Empty,
                cell.map_or(Cell::Empty, |c| Cell::Score(c.game_points)),
                Cell::Empty,
                cell.and_then(|c| c.match_points)
                    .map_or(Cell::Empty, Cell::Score),
                Cell::Empty,
                Cell::text(match_result(cx, MatchResult::Bye)),
            ];
            row.resize(columns.len(), Cell::Empty);
            rows.push(row);
        }
    }
    Ok(Some(Table {
        id: format!("team-matches-{sid}"),
        caption: Some(format!(
            "{} · {}",
            cx.section_name(sid),
            cx.t("团体对阵及成绩", "Team matches and results")
        )),
        columns,
        rows,
    }))
}

/// `3:1` (局分 own:opponent), in brackets while the match is unfinished.
fn score_cell(c: &MatchCell) -> String {
    let s = format!(
        "{}:{}",
        points_text(c.game_points),
        points_text(c.opponent_game_points)
    );
    if c.result.is_some() {
        s
    } else {
        format!("({s})")
    }
}

/// Up to this many teams the crosstable is teams × teams; beyond, a column per round.
const GRID_MAX: usize = 16;

/// The 团体交叉表 of a team section: teams × teams with 局分 `3:1` in each cell (a column per
/// round, `12 3:1`, for a field too large for the grid), with 场分, 局分 and 名次.
pub(super) fn crosstable(cx: &Ctx, sid: &str, caption: String) -> Result<Vec<Block>, ReportError> {
    let table = table_of(cx, sid)?;
    let mut rows: Vec<_> = table.rows.iter().collect();
    rows.sort_by_key(|r| r.no);
    let grid = rows.len() <= GRID_MAX;
    let rounds: Vec<u32> = {
        let mut v: Vec<u32> = rows
            .iter()
            .flat_map(|r| r.rounds.iter().map(|c| c.round))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut columns = vec![
        col("no", cx.t("队号", "No."), Align::Right, 4),
        col("team", cx.t("队名", "Team"), Align::Left, 14),
    ];
    if grid {
        for r in &rows {
            columns.push(col(
                &format!("t{}", r.no),
                &r.no.to_string(),
                Align::Center,
                6,
            ));
        }
    } else {
        for n in &rounds {
            columns.push(col(
                &format!("r{n}"),
                &match cx.lang {
                    Lang::Zh => format!("第{n}轮"),
                    Lang::En => format!("R{n}"),
                },
                Align::Center,
                7,
            ));
        }
    }
    let any_bye = grid
        && rows
            .iter()
            .any(|r| r.rounds.iter().any(|c| c.opponent.is_none()));
    if any_bye {
        columns.push(col("bye", cx.t("轮空", "Bye"), Align::Center, 6));
    }
    columns.extend([
        col("match_points", cx.t("场分", "MP"), Align::Right, 5),
        col("game_points", cx.t("局分", "GP"), Align::Right, 5),
        col("rank", cx.t("名次", "Rank"), Align::Right, 5),
    ]);
    let body = rows
        .iter()
        .map(|r| {
            let mut row = vec![Cell::Int(r.no as i64), Cell::text(&r.name)];
            if grid {
                for o in &rows {
                    if o.no == r.no {
                        row.push(Cell::text("╳"));
                        continue;
                    }
                    // A double round robin meets twice: both scores, in round order.
                    let met: Vec<String> = r
                        .rounds
                        .iter()
                        .filter(|c| c.opponent == Some(o.no))
                        .map(score_cell)
                        .collect();
                    row.push(if met.is_empty() {
                        Cell::Empty
                    } else {
                        Cell::Text(met.join(" "))
                    });
                }
            } else {
                for n in &rounds {
                    row.push(match r.rounds.iter().find(|c| c.round == *n) {
                        Some(c) => match c.opponent {
                            Some(o) => Cell::Text(format!("{o} {}", score_cell(c))),
                            None => Cell::Text(format!(
                                "{} {}",
                                cx.t("轮空", "bye"),
                                points_text(c.game_points)
                            )),
                        },
                        None => Cell::text("—"),
                    });
                }
            }
            if any_bye {
                let byes: Vec<String> = r
                    .rounds
                    .iter()
                    .filter(|c| c.opponent.is_none())
                    .map(|c| points_text(c.game_points))
                    .collect();
                row.push(if byes.is_empty() {
                    Cell::Empty
                } else {
                    Cell::Text(byes.join(" "))
                });
            }
            row.extend([
                Cell::Score(r.match_points),
                Cell::Score(r.game_points),
                Cell::Int(r.rank as i64),
            ]);
            row
        })
        .collect();
    let legend = match cx.lang {
        Lang::Zh if grid => "格式: 本队局分:对方局分 (横行为本队); 括号内为尚未结束的场次",
        Lang::Zh => "格式: 对方队号 本队局分:对方局分; 括号内为尚未结束的场次",
        Lang::En if grid => "Cells: own game points : opponent's (the row's team); in brackets: match not finished",
        Lang::En => "Cells: opponent's number, own game points : opponent's; in brackets: match not finished",
    };
    Ok(vec![
        Block::Table(Table {
            id: format!("team-crosstable-{sid}"),
            caption: Some(caption),
            columns,
            rows: body,
        }),
        Block::Paragraph(legend.to_string()),
    ])
}
