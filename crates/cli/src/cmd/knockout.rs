//! `arbiter knockout show`: the knockout bracket of a two-stage section (A9; K6, K7, T2, T3),
//! rebuilt from the event log (`arbiter_director::knockout_stage::bracket`: seeding from the
//! Swiss after stage 1, then every recorded knockout game replayed) and printed with player
//! names, or as JSON.

use arbiter_core::EventState;
use arbiter_director::SectionPlan;
use arbiter_knockout::{Bracket, MatchState, Side};
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
    /// "players", "games": [{"kind", "red", "black", "result"}], "winner", "finished"}],
    /// "places": [{"place", "no", "name"}] or null while unfinished}
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
        Ok((section, state, bracket)) => {
            let names = Names {
                state: &state,
                section: &section,
            };
            if a.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&to_json(&bracket, &names, &section))?
                );
            } else {
                let name = |no: PlayerNo| names.label(no);
                print!("{}", arbiter_knockout::render_text(&bracket, &name));
            }
            Ok(0)
        }
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            Ok(2)
        }
    }
}

type Loaded = (String, EventState, Bracket);

/// Outer error: the database failed (exit 1); inner error: the request does not fit.
fn load(a: &ShowArgs) -> anyhow::Result<Result<Loaded, String>> {
    let super::EventSection {
        state,
        reg,
        section,
    } = match super::load_event_section(&a.db, &a.event, a.section.as_deref())? {
        Ok(x) => x,
        Err(msg) => return Ok(Err(msg)),
    };
    let Some(sec) = reg.section(&section) else {
        return Ok(Err(format!("未知的组别 `{section}` (unknown section)")));
    };
    if !matches!(
        arbiter_director::section_plan(sec, &state),
        SectionPlan::TwoStage { .. }
    ) {
        return Ok(Err(format!(
            "组别 `{section}` 没有淘汰赛阶段 (section `{section}` has no knockout stage: its \
             format is not swiss_then_knockout)"
        )));
    }
    let Some(rec) = state.section(&section) else {
        return Ok(Err(format!("未知的组别 `{section}` (unknown section)")));
    };
    if rec.order.is_empty() {
        return Ok(Err(format!(
            "组别 `{section}` 尚未抽签, 淘汰赛未开始 (numbers not drawn yet: no bracket)"
        )));
    }
    let bracket = match arbiter_director::knockout_stage::bracket(&reg, &state, &section) {
        Ok(b) => b,
        Err(e) => return Ok(Err(e.to_string())),
    };
    Ok(Ok((section, state, bracket)))
}

/// Registered names by pairing number.
struct Names<'a> {
    state: &'a EventState,
    section: &'a str,
}

impl Names<'_> {
    fn name(&self, no: PlayerNo) -> Option<String> {
        let rec = self.state.section(self.section)?;
        let id = rec.order.get(no.index())?;
        self.state.player(*id).map(|p| p.name.clone())
    }
    /// `name(no号)`, or `no号` for an unknown number.
    fn label(&self, no: PlayerNo) -> String {
        match self.name(no) {
            Some(n) => format!("{n}({no}号)"),
            None => format!("{no}号"),
        }
    }
    fn player(&self, no: PlayerNo) -> Value {
        json!({ "no": no.get(), "name": self.name(no) })
    }
}

fn to_json(b: &Bracket, names: &Names, section: &str) -> Value {
    let matches: Vec<Value> = b
        .matches()
        .iter()
        .map(|m| {
            let players: Vec<Value> = m
                .sources
                .iter()
                .map(|&s| match b.side(s) {
                    Side::Player(p) => names.player(p),
                    Side::Absent => json!("bye"),
                    Side::Pending => Value::Null,
                })
                .collect();
            let (games, winner) = match &m.state {
                MatchState::Waiting => (Vec::new(), None),
                MatchState::Walkover { winner } => (Vec::new(), *winner),
                MatchState::Playing(g) => (
                    g.games()
                        .iter()
                        .map(|x| {
                            json!({
                                "kind": x.kind.name(),
                                "red": x.red.get(),
                                "black": x.black.get(),
                                "result": x.result.name(),
                            })
                        })
                        .collect(),
                    g.winner(),
                ),
            };
            json!({
                "id": m.id,
                "label": m.label_zh(),
                "round": m.round,
                "players": players,
                "games": games,
                "winner": winner.map(|w| names.player(w)),
                "finished": m.is_finished(),
            })
        })
        .collect();
    let places = b.places().map(|ps| {
        ps.into_iter()
            .map(|(place, no)| json!({ "place": place, "no": no.get(), "name": names.name(no) }))
            .collect::<Vec<_>>()
    });
    json!({
        "section": section,
        "kind": b.kind().zh(),
        "size": b.size(),
        "seeds": b.ranking().iter().map(|p| p.get()).collect::<Vec<_>>(),
        "matches": matches,
        "places": places,
    })
}
