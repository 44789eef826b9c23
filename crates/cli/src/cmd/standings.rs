//! `arbiter standings`: the individual standings (名次) of a TRF-16 file or of a section of
//! an event in the database, with the value of every tie-break and what separated each row
//! from the row above (rules.md A6).
//!
//! Default tie-breaks for `--trf`: `opp_score,wins,fouls,black_games,previous_round_rank`
//! (the Kunshan / Tianshui order: 对手分, 胜局, 犯规, 后走局数, 比较前一轮名次). TRF files carry
//! no fouls, so 犯规 is 0 for everyone there. With `--db` the section's regulation decides
//! the scoring, the list and its options.

use anyhow::Context;
use arbiter_standings::{
    compute, ByeOppValue, DirectMode, PlayerEntry, Standings, StandingsInput, TbValue,
    TiebreakOptions,
};
use arbiter_types::{
    closest, Fallback, PlayerNo, ScoringPreset, ScoringTable, Sex, TiebreakItem, TiebreakName,
};
use clap::Args;
use std::path::{Path, PathBuf};

/// Standings with every tie-break value.
///
/// `arbiter standings --trf FILE [--tiebreaks LIST] [--scoring PRESET] [--json]` or
/// `arbiter standings --db PATH --event ID [--section S] [--json]`.
/// Exit codes: 0 ok, 1 error, 2 invalid input (bad file, unknown tie-break or preset).
#[derive(Args)]
pub struct StandingsArgs {
    /// TRF-16 file (rounds played so far)
    #[arg(long, conflicts_with_all = ["db", "event", "section"])]
    pub trf: Option<PathBuf>,
    /// Comma-separated tie-breaks after points, at most one fallback last, e.g.
    /// `opp_score,wins,fouls,black_games,previous_round_rank` (the default for --trf)
    #[arg(long)]
    pub tiebreaks: Option<String>,
    /// Scoring preset for --trf: cxa, 3-1-0, 3-1-2-0, 5-2-3-0, fide (default: the file's)
    #[arg(long)]
    pub scoring: Option<String>,
    /// Seed of the `lots` fallback
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Event database (SQLite)
    #[arg(long, requires = "event")]
    pub db: Option<PathBuf>,
    /// Event id in the database
    #[arg(long, requires = "db")]
    pub event: Option<String>,
    /// Section id (default: the only section)
    #[arg(long, requires = "db")]
    pub section: Option<String>,
    /// JSON output: {"standings": [{"rank", "no", "points", "tiebreaks", "decided_by"}]}
    #[arg(long)]
    pub json: bool,
}

/// The default list for TRF input (Kunshan / Tianshui order).
pub const DEFAULT_TIEBREAKS: &str = "opp_score,wins,fouls,black_games,previous_round_rank";

pub fn run(a: StandingsArgs) -> anyhow::Result<u8> {
    let input = match (&a.trf, &a.db) {
        (Some(path), _) => match from_trf(path, &a) {
            Ok(i) => i,
            Err(msg) => {
                eprintln!("错误 error: {msg}");
                return Ok(2);
            }
        },
        (None, Some(db)) => match from_db(db, &a)? {
            Ok(i) => i,
            Err(msg) => {
                eprintln!("错误 error: {msg}");
                return Ok(2);
            }
        },
        (None, None) => {
            eprintln!(
                "错误 error: 需要 --trf 或 --db/--event (give --trf FILE or --db PATH --event ID)"
            );
            return Ok(2);
        }
    };
    let standings = match compute(&input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&standings))?);
    } else {
        print!("{}", to_table(&standings, &input.tiebreaks));
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
                "--tiebreaks 第{}项: 未知的名次区分方法 `{item}` ({e})",
                i + 1
            )
        })?;
        if let Some(f) = fallback {
            return Err(format!(
                "--tiebreaks: 后备规则 `{f}` 必须在最后 (the fallback `{f}` must come last; found `{item}` after it)"
            ));
        }
        match parsed {
            TiebreakItem::Criterion(c) => {
                if criteria.contains(&c) {
                    return Err(format!("--tiebreaks: `{c}` 重复 (listed twice)"));
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
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            format!("--scoring: 未知的计分方案 `{name}` (unknown scoring preset){hint}")
        })
}

fn from_trf(path: &Path, a: &StandingsArgs) -> Result<StandingsInput, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: 无法读取文件 (cannot read file): {e}", path.display()))?;
    let file_name = path.display().to_string();
    let t = arbiter_trf::parse(&text, &file_name).map_err(|e| e.to_string())?;
    let (tiebreaks, fallback) = parse_list(a.tiebreaks.as_deref().unwrap_or(DEFAULT_TIEBREAKS))?;
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
            if p.sex == Some(Sex::Female) {
                e.categories.insert("women".into());
            }
            e
        })
        .collect();
    let options = TiebreakOptions {
        lots_seed: a.seed,
        ..TiebreakOptions::default()
    };
    Ok(StandingsInput {
        players,
        outcomes: t.outcomes,
        scoring,
        tiebreaks,
        fallback,
        options,
    })
}

/// Reads the event log, folds it, and takes the section's scoring and tie-breaks from the
/// regulation stored in the log. Outer error: the database itself failed (exit 1); inner
/// error: the request does not fit the data (exit 2).
fn from_db(db: &Path, a: &StandingsArgs) -> anyhow::Result<Result<StandingsInput, String>> {
    use arbiter_store::{EventId, EventStore, SqliteStore};
    if !db.exists() {
        return Ok(Err(format!(
            "{}: 数据库不存在 (database not found)",
            db.display()
        )));
    }
    let store = SqliteStore::open(db).with_context(|| format!("{}", db.display()))?;
    let event = a.event.clone().unwrap_or_default();
    let log = match store.read(&EventId(event.clone())) {
        Ok(l) => l,
        Err(arbiter_store::StoreError::UnknownEvent(e)) => {
            return Ok(Err(format!("赛事 `{e}` 不存在 (unknown event)")))
        }
        Err(e) => return Err(e.into()),
    };
    let state = arbiter_core::EventState::replay(&log).context("replay")?;
    let Some(header) = &state.header else {
        return Ok(Err(format!(
            "赛事 `{event}` 没有创建记录 (the event log has no EventCreated)"
        )));
    };
    let reg = match arbiter_regulation::parse(&header.regulation, &header.file_name) {
        Ok(r) => r,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let ids: Vec<&str> = state.sections.keys().map(String::as_str).collect();
    let section_id = match &a.section {
        Some(s) => s.clone(),
        None if ids.len() == 1 => ids[0].to_string(),
        None => {
            return Ok(Err(format!(
                "赛事有多个组别, 请用 --section 指定 (several sections, choose with --section): {}",
                ids.join(", ")
            )))
        }
    };
    let Some(section) = state.sections.get(&section_id) else {
        let hint = closest(&section_id, ids.iter().copied())
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        return Ok(Err(format!(
            "未知的组别 `{section_id}` (unknown section){hint}"
        )));
    };
    let Some(rs) = reg.sections.iter().find(|s| s.id == section_id) else {
        return Ok(Err(format!(
            "规程中没有组别 `{section_id}` (section not in the regulation)"
        )));
    };
    let (tiebreaks, fallback) = match &a.tiebreaks {
        Some(list) => match parse_list(list) {
            Ok(x) => x,
            Err(e) => return Ok(Err(e)),
        },
        None => (rs.tiebreaks.criteria.clone(), rs.tiebreaks.fallback),
    };
    let o = &rs.tiebreak_options;
    let options = TiebreakOptions {
        wins_include_forfeit: o.wins_include_forfeits,
        wins_include_bye: o.wins_include_byes,
        black_count_forfeits: o.black_games_include_forfeits,
        direct: match o.direct {
            arbiter_regulation::DirectMode::TwoOnly => DirectMode::TwoOnly,
            arbiter_regulation::DirectMode::MiniTable => DirectMode::MiniTable,
        },
        bye_opp_value: match o.opp_score_bye {
            arbiter_regulation::ByeOppValue::LowestFinalScore => ByeOppValue::Lowest,
            arbiter_regulation::ByeOppValue::Zero => ByeOppValue::Zero,
            arbiter_regulation::ByeOppValue::OwnScore => ByeOppValue::OwnScore,
        },
        lots_seed: header.seed,
        ..TiebreakOptions::default()
    };
    // Players with a pairing number, in pairing-number order.
    let mut players = Vec::new();
    let mut outcomes = Vec::new();
    for (i, &id) in section.order.iter().enumerate() {
        let Some(p) = state.players.get(&id) else {
            continue;
        };
        let mut e = PlayerEntry::new(PlayerNo::from_index(i));
        e.name = Some(p.name.clone());
        e.rating = p.rating;
        e.fouls = u32::try_from(p.fouls.len()).unwrap_or(u32::MAX);
        e.withdrawn = p.withdrawn.is_some();
        if p.sex == Some(Sex::Female) {
            e.categories.insert("women".into());
        }
        if p.local {
            e.categories.insert("local".into());
        }
        players.push(e);
        outcomes.push(state.outcomes(id));
    }
    Ok(Ok(StandingsInput {
        players,
        outcomes,
        scoring: rs.scoring.table,
        tiebreaks,
        fallback,
        options,
    }))
}

fn to_json(s: &Standings) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = s
        .rows
        .iter()
        .map(|r| {
            let tbs: serde_json::Map<String, serde_json::Value> = r
                .tiebreaks
                .iter()
                .map(|(n, v)| {
                    (
                        n.name().to_string(),
                        serde_json::to_value(v).unwrap_or_default(),
                    )
                })
                .collect();
            serde_json::json!({
                "rank": r.rank,
                "no": r.no.get(),
                "name": r.name,
                "points": TbValue::Score(r.points),
                "tiebreaks": tbs,
                "decided_by": r.decided_by.map(|d| d.name()),
                "withdrawn": r.withdrawn,
            })
        })
        .collect();
    serde_json::json!({ "standings": rows })
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

fn to_table(s: &Standings, list: &[TiebreakName]) -> String {
    let mut header: Vec<String> = ["名次", "序号", "姓名", "积分"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    header.extend(list.iter().map(|t| t.zh().to_string()));
    header.push("区分".into());
    header.push("备注".into());
    let mut lines: Vec<Vec<String>> = vec![header];
    for r in &s.rows {
        let mut line = vec![
            r.rank.to_string(),
            r.no.to_string(),
            r.name.clone().unwrap_or_default(),
            r.points.to_string(),
        ];
        line.extend(r.tiebreaks.iter().map(|(_, v)| v.to_string()));
        line.push(r.decided_by.map(|d| d.zh().to_string()).unwrap_or_default());
        line.push(if r.withdrawn {
            "退赛".into()
        } else {
            String::new()
        });
        lines.push(line);
    }
    let cols = lines[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| lines.iter().map(|l| width(&l[c])).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for l in &lines {
        let mut cells = Vec::with_capacity(cols);
        for (c, cell) in l.iter().enumerate() {
            let pad = widths[c].saturating_sub(width(cell));
            // Numbers right-aligned, text (name, reason, note) left-aligned.
            if c == 2 || c + 2 >= cols {
                cells.push(format!("{cell}{}", " ".repeat(pad)));
            } else {
                cells.push(format!("{}{cell}", " ".repeat(pad)));
            }
        }
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_parsing() {
        let (c, f) = parse_list(DEFAULT_TIEBREAKS).unwrap();
        assert_eq!(c.len(), 4);
        assert_eq!(f, Some(Fallback::PreviousRoundRank));
        let e = parse_list("opp_scor").unwrap_err();
        assert!(e.contains("did you mean `opp_score`"), "{e}");
        assert!(parse_list("lots,wins").is_err());
        assert!(parse_list("wins,wins").is_err());
        assert!(parse_scoring("fid").unwrap_err().contains("`fide`"));
    }

    #[test]
    fn cjk_width() {
        assert_eq!(width("名次"), 4);
        assert_eq!(width("ab"), 2);
    }
}
