//! `arbiter result record`: the game record (记谱) of a board — its moves as arguments or in a
//! file (Chinese, WXF or ICCS, mixed, with or without move numbers), a PGN file (its
//! `[Round]`/`[Board]` tags, or `--round`/`--board`, choose the game), `--show` (the moves in
//! Chinese notation) and `--remove`. Every rule is `arbiter_director::api::records`.

use super::load_event_section;
use super::rounds::Writer;
use arbiter_core::RecordSource;
use arbiter_director::api::records::{read_pgn_games, record_view};
use arbiter_director::command::games::{GameCommand, RecordInput};
use arbiter_director::command::Outcome;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct RecordArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    pub event: String,
    /// 组别 — section id
    #[arg(long)]
    pub section: String,
    /// 轮次 — round (with --pgn: default the file's [Round] tag)
    #[arg(long)]
    pub round: Option<u32>,
    /// 台号 — board (with --pgn: default the file's [Board] tag)
    #[arg(long)]
    pub board: Option<u32>,
    /// 着法 (中文 炮二平五、WXF C2=5 或 ICCS h2e2, 可混用, 可带回合数 1.) — the moves
    #[arg(value_name = "MOVE")]
    pub moves: Vec<String>,
    /// 着法文件 (UTF-8 或 GBK 文本) — the moves from a text file
    #[arg(long, conflicts_with_all = ["moves", "pgn", "show", "remove"])]
    pub file: Option<PathBuf>,
    /// PGN 文件 (XQBase, 象棋巫师) — import the game(s) of a PGN file
    #[arg(long, conflicts_with_all = ["moves", "show", "remove"])]
    pub pgn: Option<PathBuf>,
    /// 显示本台棋谱 (中文记谱) — print the board's record in Chinese notation
    #[arg(long, conflicts_with_all = ["moves", "remove"])]
    pub show: bool,
    /// 删除本台棋谱 — remove the board's record
    #[arg(long, conflicts_with = "moves")]
    pub remove: bool,
    /// 删除理由 — the reason of a removal
    #[arg(long, default_value = "")]
    pub reason: String,
    /// 记录人 — who wrote the record down
    #[arg(long)]
    pub recorded_by: Option<String>,
    #[command(flatten)]
    pub who: Writer,
}

/// A file's text: UTF-8 (with or without BOM), else GBK (XQBase's files).
fn read_text(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("{}: 无法读取 (cannot read): {e}", path.display()))?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s.trim_start_matches('\u{feff}').to_string()),
        Err(e) => {
            let (text, _, bad) = encoding_rs::GB18030.decode(e.as_bytes());
            if bad {
                Err(format!(
                    "{}: 既不是 UTF-8 也不是 GBK 文本 (neither UTF-8 nor GBK)",
                    path.display()
                ))
            } else {
                Ok(text.into_owned())
            }
        }
    }
}

fn need(v: Option<u32>, flag: &str) -> Result<u32, String> {
    v.ok_or_else(|| format!("请用 {flag} 指定 (give {flag})"))
}

fn report(round: u32, board: u32, outcome: &Outcome) {
    match outcome {
        Outcome::GameRecorded { moves } => println!(
            "第{round}轮第{board}台 棋谱已录入: {moves}回合 (game record kept: {moves} moves)"
        ),
        _ => println!("第{round}轮第{board}台 棋谱已删除 (game record removed)"),
    }
}

fn fail(msg: impl std::fmt::Display) -> anyhow::Result<u8> {
    eprintln!("错误 error: {msg}");
    Ok(2)
}

pub fn run(a: RecordArgs) -> anyhow::Result<u8> {
    let section = a.section.clone();
    if a.show {
        return show(&a);
    }
    if let Some(path) = &a.pgn {
        return import_pgn(&a, path);
    }
    let (round, board) = match (need(a.round, "--round"), need(a.board, "--board")) {
        (Ok(r), Ok(b)) => (r, b),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    if a.remove {
        let r = a.who.apply(
            &a.event,
            GameCommand::RemoveRecord {
                section,
                round,
                board,
                reason: a.reason.clone(),
            },
        )?;
        return match r {
            Ok(applied) => {
                report(round, board, &applied.outcome);
                Ok(0)
            }
            Err(e) => fail(e),
        };
    }
    let (text, name) =
        match &a.file {
            Some(p) => match read_text(p) {
                Ok(t) => (t, Some(p.display().to_string())),
                Err(e) => return fail(e),
            },
            None if a.moves.is_empty() => return fail(
                "没有着法: 请给出着法或 --file / --pgn (no moves: give them, or --file / --pgn)",
            ),
            None => (a.moves.join(" "), None),
        };
    let r = a.who.apply(
        &a.event,
        GameCommand::Record {
            section,
            round,
            board,
            record: RecordInput::Text(text),
            source: RecordSource::Desk,
            recorded_by: a.recorded_by.clone(),
        },
    )?;
    match r {
        Ok(applied) => {
            report(round, board, &applied.outcome);
            Ok(0)
        }
        Err(e) => match name {
            Some(n) => fail(format!("{n}: {e}")),
            None => fail(e),
        },
    }
}

/// A number tag of a PGN game (`[Round "4"]`, `[Board "3"]`, also `第4轮`).
fn tag_number(tags: &[(String, String)], names: &[&str]) -> Option<u32> {
    let v = tags
        .iter()
        .find(|(k, _)| names.iter().any(|n| k.eq_ignore_ascii_case(n)))?
        .1
        .clone();
    let digits: String = v.chars().filter(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

fn import_pgn(a: &RecordArgs, path: &std::path::Path) -> anyhow::Result<u8> {
    let file = path.display().to_string();
    let text = match read_text(path) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let games = match read_pgn_games(&text) {
        Ok(g) => g,
        Err(e) => return fail(format!("{file}: {e}")),
    };
    if games.len() > 1 && (a.round.is_some() || a.board.is_some()) {
        return fail(format!(
            "{file}: 文件有 {} 局棋, --round/--board 只能用于一局; 请用各局的 [Round]/[Board] 标签 \
             (several games: their [Round]/[Board] tags choose the boards)",
            games.len()
        ));
    }
    for (i, g) in games.iter().enumerate() {
        let round = a.round.or_else(|| tag_number(&g.tags, &["Round"]));
        let board = a.board.or_else(|| tag_number(&g.tags, &["Board", "Table"]));
        let (Some(round), Some(board)) = (round, board) else {
            return fail(format!(
                "{file}: 第{}局没有 [Round] 与 [Board] 标签, 请用 --round 与 --board 指定 \
                 (game {}: no [Round]/[Board] tags: give --round and --board)",
                i + 1,
                i + 1
            ));
        };
        let r = a.who.apply(
            &a.event,
            GameCommand::Record {
                section: a.section.clone(),
                round,
                board,
                record: RecordInput::Game(Box::new(g.game.clone())),
                source: RecordSource::Pgn,
                recorded_by: a.recorded_by.clone(),
            },
        )?;
        match r {
            Ok(applied) => report(round, board, &applied.outcome),
            Err(e) => return fail(format!("{file}: {e}")),
        }
    }
    Ok(0)
}

fn show(a: &RecordArgs) -> anyhow::Result<u8> {
    let (round, board) = match (need(a.round, "--round"), need(a.board, "--board")) {
        (Ok(r), Ok(b)) => (r, b),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let es = match load_event_section(&a.who.db, &a.event, Some(&a.section))? {
        Ok(es) => es,
        Err(e) => return fail(e),
    };
    let Some(b) = es
        .state
        .section(&es.section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.board(board))
    else {
        return fail(format!(
            "第{round}轮没有第{board}台 (no board {board} in round {round})"
        ));
    };
    let Some(view) = b.record.as_ref().and_then(record_view) else {
        return fail(format!(
            "第{round}轮第{board}台没有棋谱 (no game record on round {round} board {board})"
        ));
    };
    let name = |p| {
        es.state
            .player(p)
            .map(|x| x.person.name.clone())
            .unwrap_or_default()
    };
    println!(
        "第{round}轮第{board}台 红方 {} 对 黑方 {} — {}回合{}",
        name(b.red),
        name(b.black),
        view.full_moves,
        b.result
            .map(|r| format!(", {}", r.zh()))
            .unwrap_or_default()
    );
    for p in &view.pairs {
        match &p.black {
            Some(bl) => println!("{:>3}. {} {}", p.number, p.red, bl),
            None => println!("{:>3}. {}", p.number, p.red),
        }
    }
    if let Some(end) = &view.end {
        println!("终局 final position: {end}");
    }
    Ok(0)
}
