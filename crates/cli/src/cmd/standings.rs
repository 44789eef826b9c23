//! `arbiter standings`: the individual standings (名次) of a TRF-16 file or of a section of
//! an event in the database, with the value of every tie-break and what separated each row
//! from the row above (rules.md A6).
//!
//! Default tie-breaks for `--trf`: `opp_score,wins,fouls,black_games,previous_round_rank`
//! (the Kunshan / Tianshui order: 对手分, 胜局, 犯规, 后走局数, 比较前一轮名次). TRF files carry
//! no fouls, so 犯规 is 0 for everyone there.
//!
//! With `--event` (database `--db`, default `arbiter.db`) the section is ranked exactly as the
//! published export ranks it (`arbiter_director::final_standings::final_ranking`): the
//! regulation decides the scoring, the list and its options, and a two-stage section lists
//! the knockout places 1..k first, then the continuing Swiss from k+1. Rows carry the ids of
//! the regulation's categories the player belongs to (`Category::matches`); `--category ID`
//! prints that category's table (S1, T1). Players with a corrected result (A12) are marked
//! 更正 / `"corrected": true`.

use arbiter_core::PlayerId;
use arbiter_director::standings_view::{standings_view, StandingLine, StandingsView};
use arbiter_standings::{compute, CategoryRow, PlayerEntry, StandingsInput, TiebreakOptions};
use arbiter_types::{closest, Fallback, ScoringPreset, ScoringTable, TiebreakItem, TiebreakName};
use clap::Args;
use std::path::{Path, PathBuf};

/// Standings with every tie-break value.
///
/// `arbiter standings --trf FILE [--tiebreaks LIST] [--scoring PRESET] [--json]` or
/// `arbiter standings [--db PATH] --event ID [--section S] [--category C] [--json]`.
/// Exit codes: 0 ok, 1 error, 2 invalid input (bad file, unknown tie-break or preset).
#[derive(Args)]
pub struct StandingsArgs {
    /// TRF 文件 (已赛轮次) — TRF-16 file (rounds played so far)
    #[arg(long, conflicts_with_all = ["event", "section", "category"])]
    pub trf: Option<PathBuf>,
    /// 比分后的排名依据, 逗号分隔 — comma-separated tie-breaks after points, at most one fallback last, e.g.
    /// `opp_score,wins,fouls,black_games,previous_round_rank` (the default for --trf)
    #[arg(long)]
    pub tiebreaks: Option<String>,
    /// 计分方式 (--trf) — scoring preset: cxa, 3-1-0, 3-1-2-0, 5-2-3-0, fide (default: the file's)
    #[arg(long, requires = "trf")]
    pub scoring: Option<String>,
    /// 抽签种子 (`lots`, --trf) — seed of the `lots` fallback (with --event: the event's recorded seed)
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// 数据库文件 — event database (SQLite)
    #[arg(long, default_value = super::DEFAULT_DB)]
    pub db: PathBuf,
    /// 赛事编号 — event id in the database
    #[arg(long)]
    pub event: Option<String>,
    /// 组别 (默认: 唯一组别) — section id (default: the only section)
    #[arg(long, requires = "event")]
    pub section: Option<String>,
    /// 类别 (如 `women`) — category id of the section's regulation: that category's table
    #[arg(long, requires = "event")]
    pub category: Option<String>,
    /// JSON 输出 — JSON output: {"standings": [{"rank", "no", "points", "tiebreaks", "decided_by", …}]}
    #[arg(long)]
    pub json: bool,
}

/// The list for TRF input without `--tiebreaks`: the regulation crate's preset for a table
/// that names no regulation.
fn default_tiebreaks() -> (Vec<TiebreakName>, Option<Fallback>) {
    let t = arbiter_regulation::presets::tiebreaks(arbiter_regulation::presets::WITHOUT_REGULATION)
        .unwrap_or_else(arbiter_regulation::Tiebreaks::rule_2011);
    (t.criteria, t.fallback)
}

/// What `run` prints: the director's standings view (`--event`) or one built from a TRF
/// file, and the category shown (`--category`): (id, name).
struct Table {
    view: StandingsView,
    category: Option<(String, String)>,
}

pub fn run(a: StandingsArgs) -> anyhow::Result<u8> {
    let table = match (&a.trf, &a.event) {
        (Some(path), _) => match from_trf(path, &a) {
            Ok(t) => t,
            Err(msg) => {
                eprintln!("错误 error: {msg}");
                return Ok(2);
            }
        },
        (None, Some(event)) => match from_db(&a.db, event, &a)? {
            Ok(t) => t,
            Err(msg) => {
                eprintln!("错误 error: {msg}");
                return Ok(2);
            }
        },
        (None, None) => {
            eprintln!(
                "错误 error: 需要 --trf 或 --event (give --trf FILE or [--db PATH] --event ID)"
            );
            return Ok(2);
        }
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&table))?);
    } else {
        print!("{}", to_table(&table));
    }
    Ok(0)
}

/// Parses `LIST`: tie-break names, then at most one fallback, last.
pub fn parse_list(list: &str) -> Result<(Vec<TiebreakName>, Option<Fallback>), String> {
    let mut criteria = Vec::new();
    let mut fallback: Option<Fallback> = None;
    for (i, item) in list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        let parsed: TiebreakItem = item.parse().map_err(|e| {
            format!(
                "--tiebreaks 第{}项: 未知的名次区分方法 「{item}」 ({e})",
                i + 1
            )
        })?;
        if let Some(f) = fallback {
            return Err(format!(
                "--tiebreaks: 后备规则 「{f}」 必须在最后 (the fallback 「{f}」 must come last; found 「{item}」 after it)"
            ));
        }
        match parsed {
            TiebreakItem::Criterion(c) => {
                if criteria.contains(&c) {
                    return Err(format!("--tiebreaks: 「{c}」 重复 (listed twice)"));
                }
                criteria.push(c);
            }
            TiebreakItem::Fallback(f) => fallback = Some(f),
        }
    }
    Ok((criteria, fallback))
}

fn parse_scoring(name: &str) -> Result<ScoringTable, String> {
    ScoringPreset::from_name(name)
        .map(ScoringPreset::table)
        .ok_or_else(|| {
            let hint = closest(name, ScoringPreset::ALL.iter().map(|p| p.name()))
                .map(|s| format!(" (did you mean 「{s}」?)"))
                .unwrap_or_default();
            format!("--scoring: 未知的计分方案 「{name}」 (unknown scoring preset){hint}")
        })
}

fn from_trf(path: &Path, a: &StandingsArgs) -> Result<Table, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: 无法读取文件 (cannot read file): {e}", path.display()))?;
    let file_name = path.display().to_string();
    let t = arbiter_trf::parse(&text, &file_name).map_err(|e| e.to_string())?;
    let (tiebreaks, fallback) = match a.tiebreaks.as_deref() {
        Some(list) => parse_list(list)?,
        None => default_tiebreaks(),
    };
    let scoring = match &a.scoring {
        Some(s) => parse_scoring(s)?,
        None => t.scoring,
    };
    let players = t
        .players
        .iter()
        .map(|p| {
            let mut e = PlayerEntry::new(p.no);
            e.name = Some(p.name.clone()).filter(|n| !n.is_empty());
            e.rating = p.rating;
            e
        })
        .collect();
    let options = TiebreakOptions {
        lots_seed: a.seed,
        ..TiebreakOptions::default()
    };
    let input = StandingsInput {
        players,
        outcomes: t.outcomes,
        scoring,
        tiebreaks: tiebreaks.clone(),
        fallback,
        options,
    };
    let standings = compute(&input).map_err(|e| e.to_string())?;
    let lines = standings
        .rows
        .into_iter()
        .map(|r| StandingLine {
            rank: r.rank,
            no: r.no,
            // A TRF file has no event log: the row is known by its number only.
            player: PlayerId(r.no.get()),
            name: r.name.unwrap_or_default(),
            points: r.points,
            tiebreaks: r.tiebreaks,
            decided_by: r.decided_by.map(|d| d.name().to_string()),
            withdrawn: r.withdrawn,
            // A TRF file records no corrections (A12 lives in the event log).
            corrected: false,
            categories: Vec::new(),
            fallback: None,
        })
        .collect();
    Ok(Table {
        view: StandingsView {
            section: file_name,
            criteria: tiebreaks,
            lines,
            categories: Vec::new(),
            after_round: t.rounds_played,
            provisional: t.total_rounds.is_some_and(|n| t.rounds_played < n),
            disqualified: Vec::new(),
            groups: Vec::new(),
        },
        category: None,
    })
}

/// What the regulation's category tests need to know about a registered player.
/// Reads the event log, folds it and ranks the section the way the published export does
/// (`arbiter_director::final_standings::final_ranking`): the regulation's scoring, tie-breaks
/// and options, and for a two-stage section the knockout places 1..k before the continuing
/// Swiss. Outer error: the database itself failed (exit 1); inner error: the request does
/// not fit the data (exit 2).
fn from_db(db: &Path, event: &str, a: &StandingsArgs) -> anyhow::Result<Result<Table, String>> {
    let super::EventSection {
        state,
        mut reg,
        section: section_id,
    } = match super::load_event_section(db, event, a.section.as_deref())? {
        Ok(x) => x,
        Err(msg) => return Ok(Err(msg)),
    };
    // `--tiebreaks` overrides the regulation's for this table only.
    if let Some(list) = &a.tiebreaks {
        let reg = std::sync::Arc::make_mut(&mut reg);
        let Some(rs) = reg.sections.iter_mut().find(|s| s.id == section_id) else {
            return Ok(Err(format!(
                "规程中没有组别 「{section_id}」 (section not in the regulation)"
            )));
        };
        match parse_list(list) {
            Ok((criteria, fallback)) => {
                rs.tiebreaks.criteria = criteria;
                rs.tiebreaks.fallback = fallback;
                // Whatever system the section plays (S4).
                rs.round_robin_tiebreaks = Some(rs.tiebreaks.clone());
            }
            Err(e) => return Ok(Err(e)),
        }
    }
    let view = match standings_view(&reg, &state, &section_id) {
        Ok(v) => v,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let category = match &a.category {
        None => None,
        Some(id) => {
            if let Err(e) = view.category(id) {
                return Ok(Err(e.to_string()));
            }
            Some((
                id.clone(),
                view.category_name(id).unwrap_or_default().to_string(),
            ))
        }
    };
    Ok(Ok(Table { view, category }))
}

/// The category's rows (category rank, line), in section order (S1, T1).
fn category_lines<'a>(t: &'a Table, id: &str) -> Vec<(CategoryRow, &'a StandingLine)> {
    t.view.category(id).unwrap_or_default()
}

fn tiebreak_json(l: &StandingLine) -> serde_json::Map<String, serde_json::Value> {
    l.tiebreaks
        .iter()
        .map(|(n, v)| {
            (
                n.name().to_string(),
                serde_json::to_value(v).unwrap_or_default(),
            )
        })
        .chain(l.fallback.map(|(name, v)| {
            (
                name.to_string(),
                serde_json::to_value(v).unwrap_or_default(),
            )
        }))
        .collect()
}

fn to_json(t: &Table) -> serde_json::Value {
    if let Some((id, name)) = &t.category {
        let rows: Vec<serde_json::Value> = category_lines(t, id)
            .into_iter()
            .map(|(c, l)| {
                serde_json::json!({
                    "rank": c.rank,
                    "section_rank": c.section_rank,
                    "no": l.no.get(),
                    "name": l.name,
                    "points": l.points,
                    "tiebreaks": tiebreak_json(l),
                    "withdrawn": l.withdrawn,
                    "corrected": l.corrected,
                })
            })
            .collect();
        return serde_json::json!({
            "category": { "id": id, "name": name },
            "standings": rows,
            "after_round": t.view.after_round,
            "provisional": t.view.provisional,
        });
    }
    let rows: Vec<serde_json::Value> = t
        .view
        .lines
        .iter()
        .map(|l| {
            serde_json::json!({
                "rank": l.rank,
                "no": l.no.get(),
                "name": l.name,
                "points": l.points,
                "tiebreaks": tiebreak_json(l),
                "decided_by": l.decided_by,
                "withdrawn": l.withdrawn,
                "corrected": l.corrected,
                "categories": l.categories,
            })
        })
        .collect();
    let apart: Vec<serde_json::Value> = t
        .view
        .disqualified
        .iter()
        .map(|(no, name, reason)| serde_json::json!({ "no": no, "name": name, "reason": reason }))
        .collect();
    serde_json::json!({
        "standings": rows,
        "after_round": t.view.after_round,
        "provisional": t.view.provisional,
        "disqualified": apart,
    })
}

/// Display width: CJK and full-width characters count 2.
fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let u = c as u32;
            if (0x1100..=0x115F).contains(&u)
                || (0x2E80..=0xA4CF).contains(&u)
                || (0xAC00..=0xD7A3).contains(&u)
                || (0xF900..=0xFAFF).contains(&u)
                || (0xFE30..=0xFE4F).contains(&u)
                || (0xFF00..=0xFF60).contains(&u)
                || (0xFFE0..=0xFFE6).contains(&u)
            {
                2
            } else {
                1
            }
        })
        .sum()
}

/// Chinese name of a `decided_by` value.
fn decided_zh(name: &str) -> String {
    match name {
        "points" => "积分".into(),
        "knockout" => "淘汰赛".into(),
        "group_place" => "小组名次".into(),
        "final" => "决赛".into(),
        "pairing_no" => "序号".into(),
        other => match other.parse::<TiebreakItem>() {
            Ok(TiebreakItem::Criterion(c)) => c.zh().into(),
            Ok(TiebreakItem::Fallback(f)) => f.zh().into(),
            Err(_) => other.into(),
        },
    }
}

/// 备注: 退赛 (withdrawn) and 更正 (a confirmed result was corrected, A12).
fn note(l: &StandingLine) -> String {
    let mut n = Vec::new();
    if l.withdrawn {
        n.push("退赛");
    }
    if l.corrected {
        n.push("更正");
    }
    n.join(" ")
}

fn to_table(t: &Table) -> String {
    // (cells, left-aligned) per column.
    let mut header: Vec<(String, bool)> = Vec::new();
    let category = t.category.as_ref();
    if category.is_some() {
        header.push(("名次".into(), false));
        header.push(("总名次".into(), false));
    } else {
        header.push(("名次".into(), false));
    }
    header.push(("序号".into(), false));
    header.push(("姓名".into(), true));
    header.push(("积分".into(), false));
    header.extend(t.view.criteria.iter().map(|n| (n.zh().to_string(), false)));
    let show_categories = category.is_none() && !t.view.categories.is_empty();
    if show_categories {
        header.push(("类别".into(), true));
    }
    if category.is_none() {
        header.push(("区分".into(), true));
    }
    header.push(("备注".into(), true));
    let left: Vec<bool> = header.iter().map(|(_, l)| *l).collect();
    let mut lines: Vec<Vec<String>> = vec![header.into_iter().map(|(h, _)| h).collect()];
    let body = |l: &StandingLine| {
        let mut line = vec![l.no.to_string(), l.name.clone(), l.points.to_string()];
        line.extend(l.tiebreaks.iter().map(|(_, v)| v.to_string()));
        line
    };
    if let Some((id, _)) = category {
        for (c, l) in category_lines(t, id) {
            let mut line = vec![c.rank.to_string(), c.section_rank.to_string()];
            line.extend(body(l));
            line.push(note(l));
            lines.push(line);
        }
    } else {
        let names: std::collections::BTreeMap<&str, &str> = t
            .view
            .categories
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str()))
            .collect();
        for l in &t.view.lines {
            let mut line = vec![l.rank.to_string()];
            line.extend(body(l));
            if show_categories {
                let cats: Vec<&str> = l
                    .categories
                    .iter()
                    .map(|c| names.get(c.as_str()).copied().unwrap_or(c.as_str()))
                    .collect();
                line.push(cats.join("、"));
            }
            line.push(l.decided_by.as_deref().map(decided_zh).unwrap_or_default());
            line.push(note(l));
            lines.push(line);
        }
    }
    let cols = left.len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| lines.iter().map(|l| width(&l[c])).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    if let Some((id, name)) = category {
        out.push_str(&format!("类别 category: {name} ({id})\n"));
    }
    for l in &lines {
        let mut cells = Vec::with_capacity(cols);
        for (c, cell) in l.iter().enumerate() {
            let pad = " ".repeat(widths[c].saturating_sub(width(cell)));
            // Numbers right-aligned, text (name, categories, reason, note) left-aligned.
            if left[c] {
                cells.push(format!("{cell}{pad}"));
            } else {
                cells.push(format!("{pad}{cell}"));
            }
        }
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    for (no, name, reason) in &t.view.disqualified {
        out.push_str(&format!(
            "取消比赛资格 (disqualified, no place): 序号 {no} {name} — {reason}\n"
        ));
    }
    // A `groups` section: each group's table after the final standings.
    for (g, rows) in &t.view.groups {
        out.push_str(&format!("{g}组 (group {g}):"));
        for (rank, no, name, points) in rows {
            out.push_str(&format!("  {rank}. {no}号 {name} {points}分"));
        }
        out.push('\n');
    }
    let n = arbiter_director::export::StandingNote::of(&t.view);
    out.push_str(&format!("{} ({})\n", n.zh(), n.en()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_parsing() {
        let (c, f) = parse_list("opp_score,wins,fouls,black_games,previous_round_rank").unwrap();
        assert_eq!(c.len(), 4);
        assert_eq!(f, Some(Fallback::PreviousRoundRank));
        // The documented default for a TRF file (docs/cli.md) is that list.
        assert_eq!(default_tiebreaks(), (c, f));
        let e = parse_list("opp_scor").unwrap_err();
        assert!(e.contains("did you mean `opp_score`"), "{e}");
        assert!(parse_list("lots,wins").is_err());
        assert!(parse_list("wins,wins").is_err());
        assert!(parse_scoring("fid").unwrap_err().contains("「fide」"));
    }

    #[test]
    fn cjk_width() {
        assert_eq!(width("名次"), 4);
        assert_eq!(width("ab"), 2);
    }
}
