//! `arbiter knockout show`: the knockout bracket of a two-stage section (A9; K6, K7, T2, T3),
//! rebuilt from the event log (`arbiter_director::knockout_stage::bracket`: seeding from the
//! Swiss after stage 1, then every recorded knockout game replayed) and printed with player
//! names, or as JSON.

use arbiter_director::bracket_view::{bracket_view, BracketView, Entrant, SideView};
use arbiter_director::SectionPlan;
use arbiter_types::PlayerNo;
use clap::{Args, Subcommand};
use serde_json::{json, Value};
use std::path::PathBuf;

/// 淘汰赛 — the knockout stage of a two-stage section.
#[derive(Subcommand)]
pub enum KnockoutCmd {
    /// Show the bracket (对阵表): every match, its games and result, then the places.
    Show(ShowArgs),
}

/// `arbiter knockout show [--db PATH] --event ID [--section S] [--json]`.
///
/// Exit codes: 0 shown; 1 the database failed; 2 the request does not fit the data
/// (unknown event or section, a section without a knockout stage).
#[derive(Args)]
pub struct ShowArgs {
    /// 数据库文件 — event database (SQLite)
    #[arg(long, default_value = super::DEFAULT_DB)]
    pub db: PathBuf,
    /// 赛事编号 — event id in the database
    #[arg(long)]
    pub event: String,
    /// 组别 (默认: 唯一组别) — section id (default: the only section)
    #[arg(long)]
    pub section: Option<String>,
    /// JSON 输出 — JSON: {"section", "kind", "size", "seeds", "matches": [{"id", "label", "round",
    /// "players", "games": [{"kind", "name", "red", "black", "result"}], "winner",
    /// "decided_by" (`lot`, `higher_seed`, `last_game_black` or null), "finished"}],
    /// "places": [{"place", "shared", "no", "name"}] or null while unfinished}
    #[arg(long)]
    pub json: bool,
}

pub fn run(c: KnockoutCmd) -> anyhow::Result<u8> {
    match c {
        KnockoutCmd::Show(a) => show(&a),
    }
}

/// What `show` prints, or the message of a request that does not fit the data.
fn show(a: &ShowArgs) -> anyhow::Result<u8> {
    match load(a)? {
        Ok(view) => {
            if a.json {
                println!("{}", serde_json::to_string_pretty(&to_json(&view))?);
            } else {
                let name = |no: PlayerNo| match view.entrant(no) {
                    Some(e) if !e.name.is_empty() => format!("{}({no}号)", e.name),
                    _ => format!("{no}号"),
                };
                print!("{}", arbiter_knockout::render_text(&view.bracket, &name));
                if view.seeding.provisional {
                    println!(
                        "暂定: 种子按第{n}轮后的名次排出, 瑞士制阶段结束前可能变化 (provisional: seeded from the standings after round {n})",
                        n = view.seeding.after_round
                    );
                }
            }
            Ok(0)
        }
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            Ok(2)
        }
    }
}

/// Outer error: the database failed (exit 1); inner error: the request does not fit.
fn load(a: &ShowArgs) -> anyhow::Result<Result<BracketView, String>> {
    let super::EventSection {
        state,
        reg,
        section,
    } = match super::load_event_section(&a.db, &a.event, a.section.as_deref())? {
        Ok(x) => x,
        Err(msg) => return Ok(Err(msg)),
    };
    let Some(sec) = reg.section(&section) else {
        return Ok(Err(format!("未知的组别 「{section}」 (unknown section)")));
    };
    if !matches!(
        arbiter_director::section_plan(sec, &state),
        SectionPlan::TwoStage { .. }
    ) {
        return Ok(Err(format!(
            "组别「{}」没有淘汰赛阶段 (section 「{section}」 has no knockout stage: its \
             format is neither knockout nor swiss_then_knockout)",
            sec.name
        )));
    }
    let Some(rec) = state.section(&section) else {
        return Ok(Err(format!("未知的组别 「{section}」 (unknown section)")));
    };
    if rec.order.is_empty() {
        return Ok(Err(format!(
            "组别「{}」尚未抽签, 淘汰赛未开始 (numbers not drawn yet: no bracket)",
            sec.name
        )));
    }
    Ok(bracket_view(&reg, &state, &section).map_err(|e| e.to_string()))
}

fn player(e: &Entrant) -> Value {
    json!({ "no": e.no.get(), "name": Some(&e.name).filter(|n| !n.is_empty()) })
}

fn to_json(v: &BracketView) -> Value {
    let matches: Vec<Value> = v
        .rounds
        .iter()
        .flatten()
        .map(|m| {
            let players: Vec<Value> = m
                .sides
                .iter()
                .map(|s| match s {
                    SideView::Player(e) => player(e),
                    SideView::Bye => json!("bye"),
                    SideView::Pending => Value::Null,
                })
                .collect();
            let games: Vec<Value> = m
                .games
                .iter()
                .map(|x| {
                    json!({
                        "kind": x.kind.name(),
                        "name": x.label,
                        "red": x.red.no.get(),
                        "black": x.black.no.get(),
                        "result": x.result.name(),
                    })
                })
                .collect();
            json!({
                "id": m.id,
                "label": m.label,
                "round": m.round,
                "players": players,
                "games": games,
                "winner": m.winner.as_ref().map(player),
                "decided_by": m.decided_by,
                "finished": m.finished,
            })
        })
        .collect();
    let places = v.places.as_ref().map(|ps| {
        ps.iter()
            .map(|(place, e)| {
                json!({
                    "place": place,
                    // 并列: the bracket does not separate this place (the losers of a round).
                    "shared": ps.iter().filter(|(q, _)| q == place).count() > 1,
                    "no": e.no.get(),
                    "name": Some(&e.name).filter(|n| !n.is_empty()),
                })
            })
            .collect::<Vec<_>>()
    });
    json!({
        "section": v.section,
        "kind": v.kind.zh(),
        "size": v.size,
        "seeds": v.seeds.iter().map(|e| e.no.get()).collect::<Vec<_>>(),
        "seeded_after_round": v.seeding.after_round,
        "seeding_provisional": v.seeding.provisional,
        "matches": matches,
        "places": places,
    })
}
