//! The crosstable (交叉表): every player's games round by round.

use super::standings::section_export;
use super::{col, section_start, Ctx};
use crate::{Align, Block, Cell, Lang, ReportError, Table};
use arbiter_director::export::Stage;
use arbiter_types::GameResult;
use std::collections::BTreeMap;

/// One player's game as printed in the crosstable, in the regulation's points: `45红2`,
/// `12黑1`, `7红2+` (won by forfeit), `7黑0−` (lost by forfeit); in brackets when the round is
/// not completed (shown, not yet counted): `(45红2)`.
fn cross_cell(
    cx: &Ctx,
    table: &arbiter_types::ScoringTable,
    opp: u32,
    red: bool,
    r: GameResult,
    counted: bool,
) -> String {
    use arbiter_types::{Colour, Outcome, PlayerNo};
    let colour = if red { Colour::Red } else { Colour::Black };
    let o = r.outcome_for(
        colour,
        PlayerNo::new(opp).unwrap_or(PlayerNo::from_index(0)),
    );
    let pts = arbiter_director::crosstable::points_text(o.points(table));
    let mark = match o {
        Outcome::ForfeitWin { .. } => format!("{pts}+"),
        Outcome::ForfeitLoss { .. } => format!("{pts}−"),
        Outcome::DoubleForfeit { .. } => format!("{pts}−−"),
        _ => pts,
    };
    let c = match (cx.lang, red) {
        (Lang::En, true) => "r",
        (Lang::En, false) => "b",
        (Lang::Zh, true) => "红",
        (Lang::Zh, false) => "黑",
    };
    if counted {
        format!("{opp}{c}{mark}")
    } else {
        format!("({opp}{c}{mark})")
    }
}

pub(super) fn crosstable(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let mut blocks = Vec::new();
    for (i, sid) in cx.sections.iter().enumerate() {
        let Some(sec) = section_export(&ex, sid) else {
            continue;
        };
        // A team section (A15): teams × teams with the 局分 of each match.
        if super::team_match::is_team(cx, sid) {
            if cx.state.section(sid).is_none_or(|r| r.matches.is_empty()) {
                continue;
            }
            section_start(cx, i, sid, &mut blocks);
            let caption = format!("{} · {}", cx.section_name(sid), cx.note(sec.note()));
            blocks.extend(super::team_match::crosstable(cx, sid, caption)?);
            continue;
        }
        let rounds: Vec<_> = sec
            .rounds
            .iter()
            .filter(|r| r.stage != Stage::Knockout)
            .collect();
        if rounds.is_empty() {
            continue;
        }
        section_start(cx, i, sid, &mut blocks);
        // (player no, round) → text; the totals count the rounds the standings count.
        let mut cells: BTreeMap<(u32, u32), String> = BTreeMap::new();
        let counted = |round: u32| round <= sec.after_round;
        for r in &rounds {
            let c = counted(r.round);
            for g in &r.games {
                cells.insert(
                    (g.red, r.round),
                    cross_cell(cx, &sec.scoring, g.black, true, g.result, c),
                );
                cells.insert(
                    (g.black, r.round),
                    cross_cell(cx, &sec.scoring, g.red, false, g.result, c),
                );
            }
            for b in &r.byes {
                let pts = arbiter_director::crosstable::points_text(sec.scoring.bye);
                let bye = format!("{}{pts}", cx.t("轮空", "bye "));
                cells.insert((*b, r.round), if c { bye } else { format!("({bye})") });
            }
        }
        // Boards still in play (no result yet) and the players ever paired: a player never
        // on a board nor given a bye has no row.
        let nos = arbiter_director::publish::publish_numbers(cx.state, sid);
        let no = |p| nos.get(&p).copied().unwrap_or(0);
        let mut paired: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
        if let Some(rec) = cx.state.section(sid) {
            for r in rec.rounds.values().filter(|r| r.stage == 1) {
                for b in r.boards.iter() {
                    paired.extend([no(b.red), no(b.black)]);
                    if b.result.is_none() {
                        let (zr, zb) = (cx.t("红", "r"), cx.t("黑", "b"));
                        cells.insert((no(b.red), r.round), format!("{}{zr}…", no(b.black)));
                        cells.insert((no(b.black), r.round), format!("{}{zb}…", no(b.red)));
                    }
                }
                paired.extend(r.byes.iter().map(|p| no(*p)));
            }
        }
        let players: BTreeMap<u32, _> = sec.players.iter().map(|p| (p.no, p)).collect();
        let mut columns = vec![
            col("rank", cx.t("名次", "Rank"), Align::Right, 4),
            col("no", cx.t("序号", "No."), Align::Right, 4),
            col("name", cx.t("姓名", "Name"), Align::Left, 9),
            col("unit", cx.t("单位", "Unit"), Align::Left, 14),
        ];
        for r in &rounds {
            columns.push(col(
                &format!("r{}", r.round),
                &match cx.lang {
                    Lang::Zh => format!("第{}轮", r.round),
                    Lang::En => format!("R{}", r.round),
                },
                Align::Center,
                7,
            ));
        }
        columns.push(col("points", cx.t("积分", "Pts"), Align::Right, 5));
        let rows = sec
            .standings
            .iter()
            .filter(|s| paired.contains(&s.no))
            .map(|s| {
                let p = players.get(&s.no);
                let mut row = vec![
                    Cell::Int(s.rank as i64),
                    Cell::Int(s.no as i64),
                    Cell::opt(p.map(|p| p.name.as_str())),
                    Cell::opt(p.and_then(|p| p.unit.as_deref().or(p.association.as_deref()))),
                ];
                for r in &rounds {
                    row.push(
                        cells
                            .get(&(s.no, r.round))
                            .map_or(Cell::Text("—".to_string()), |t| Cell::Text(t.clone())),
                    );
                }
                row.push(Cell::Score(s.points));
                row
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: format!("crosstable-{sid}"),
            caption: Some(format!(
                "{} · {}",
                cx.section_name(sid),
                cx.note(sec.note())
            )),
            columns,
            rows,
        }));
        blocks.push(Block::Paragraph(arbiter_director::crosstable::legend(
            &sec.scoring,
            cx.lang == Lang::Zh,
        )));
    }
    if blocks.is_empty() {
        return Err(ReportError::Nothing(
            "没有已编排的积分编排制或循环赛轮次 (no Swiss or round-robin round yet)".to_string(),
        ));
    }
    Ok(blocks)
}
