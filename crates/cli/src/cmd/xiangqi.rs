//! `arbiter xiangqi …` — the rules engine of game records (`arbiter-xiangqi`):
//!
//! - `perft --depth N [--fen FEN] [--divide] [--threads T]`: the number of leaf positions
//!   `N` half-moves below the position, on the last line of stdout (with `--divide`, one
//!   line per legal move first); the time taken on stderr.
//! - `play [--fen FEN] [--json] MOVE…`: plays a move list in any of the three notations
//!   (mixed; move numbers like `1.` are skipped; an argument may hold several moves) and
//!   prints the final FEN and every move in all three notations. `--json`:
//!   `{"fen": …, "moves": [{"iccs", "wxf", "chinese"}…], "status": …}` (status `ongoing`,
//!   `check`, `checkmate`, `stalemate`). An illegal, ambiguous or unreadable move: exit 2
//!   with its move number on stderr. `--natural-limit N [--claimant red|black
//!   [--checks-counted K]]`: whether the natural move limit (自然限着) of N moves since the
//!   last capture is reached, the claimant's checks counted up to K (0: not counted);
//!   `--json` adds `"natural_limit": {"limit", "moves", "reached"}`.
//!
//! The command names, flags and JSON shape are a contract (docs/cli.md).

use arbiter_xiangqi::{Colour, Game, GameError, Position, Status};
use clap::Subcommand;
use std::time::Instant;

#[derive(Subcommand)]
pub enum XiangqiCmd {
    /// 走法生成计数 (perft) — leaf positions N half-moves below a position
    Perft {
        /// 深度（半回合） — depth in half-moves
        #[arg(long)]
        depth: u32,
        /// 局面 FEN，默认开局 — the position (default: the start position)
        #[arg(long)]
        fen: Option<String>,
        /// 按第一步分列 — one line per legal move first (perft divide)
        #[arg(long)]
        divide: bool,
        /// 线程数，默认 1 — threads (the root moves shared among them)
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// 打谱 — play a move list (Chinese, WXF or ICCS, mixed) and print it in all notations
    Play {
        /// 起始局面 FEN，默认开局 — the start position (default: the start position)
        #[arg(long)]
        fen: Option<String>,
        /// JSON 输出 — `{"fen", "moves": [{"iccs", "wxf", "chinese"}], "status"}`
        #[arg(long)]
        json: bool,
        /// 自然限着回合数 — check the natural move limit of N moves since the last capture
        #[arg(long, value_name = "N")]
        natural_limit: Option<u32>,
        /// 提出方 (红/黑) — the side claiming the natural move limit: red or black
        #[arg(long, requires = "natural_limit")]
        claimant: Option<String>,
        /// 提出方将军计入的着数 (默认 0: 将军不计) — how many of the claimant's checks count
        #[arg(long, default_value_t = 0, requires = "claimant")]
        checks_counted: u32,
        /// 着法 — the moves (炮二平五 / C2=5 / h2e2 …)
        moves: Vec<String>,
    },
}

/// A natural move limit to check (`play --natural-limit`).
struct LimitAsked {
    limit: u32,
    claimant: Option<Colour>,
    checks_counted: u32,
}

pub fn run(c: XiangqiCmd) -> anyhow::Result<u8> {
    match c {
        XiangqiCmd::Perft {
            depth,
            fen,
            divide,
            threads,
        } => perft(depth, fen.as_deref(), divide, threads),
        XiangqiCmd::Play {
            fen,
            json,
            natural_limit,
            claimant,
            checks_counted,
            moves,
        } => {
            let claimant = match claimant.as_deref().map(str::trim) {
                None => None,
                Some("red" | "红" | "红方" | "r") => Some(Colour::Red),
                Some("black" | "黑" | "黑方" | "b") => Some(Colour::Black),
                Some(other) => {
                    eprintln!("提出方 「{other}」 应为 红 或 黑 (the claimant is red or black)");
                    return Ok(2);
                }
            };
            let asked = natural_limit.map(|limit| LimitAsked {
                limit,
                claimant,
                checks_counted,
            });
            play(fen.as_deref(), json, &moves, asked)
        }
    }
}

fn position(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("FEN: {e}")),
        None => Ok(Position::start()),
    }
}

fn perft(depth: u32, fen: Option<&str>, divide: bool, threads: usize) -> anyhow::Result<u8> {
    let mut p = match position(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return Ok(2);
        }
    };
    let t = Instant::now();
    let n = if divide {
        let mut total = 0;
        for (m, k) in p.perft_divide(depth) {
            println!("{m} {k}");
            total += k;
        }
        total
    } else {
        p.perft_parallel(depth, threads.max(1))
    };
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "深度 depth {depth}: {n} 个节点 nodes, {s:.3} s ({:.1} M/s)",
        n as f64 / s.max(1e-9) / 1e6
    );
    println!("{n}");
    Ok(0)
}

/// The moves of the arguments: each split at whitespace, move numbers (`1.`, `12...`) and
/// results (`1-0`, `*`) left out.
fn move_tokens(args: &[String]) -> Vec<&str> {
    args.iter()
        .flat_map(|a| a.split_whitespace())
        .filter_map(|t| {
            let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
            let rest2 = rest.trim_start_matches(['.', '．', '…']);
            if rest.len() != t.len() && rest2.len() != rest.len() {
                // `1.` or `1.炮二平五`.
                (!rest2.is_empty()).then_some(rest2)
            } else if matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
                || t.chars().all(|c| c == '.' || c == '…')
            {
                None
            } else {
                Some(t)
            }
        })
        .collect()
}

fn play(
    fen: Option<&str>,
    json: bool,
    args: &[String],
    asked: Option<LimitAsked>,
) -> anyhow::Result<u8> {
    let game = match Game::from_moves(fen, move_tokens(args)) {
        Ok(g) => g,
        Err(GameError::Fen(e)) => {
            eprintln!("FEN: {e}");
            return Ok(2);
        }
        Err(GameError::Move(e)) => {
            eprintln!("{e}");
            return Ok(2);
        }
    };
    let texts = game.move_texts();
    let status = game.status();
    let limit = asked
        .as_ref()
        .map(|a| (a, game.natural_limit(a.limit, a.claimant, a.checks_counted)));
    if json {
        let moves: Vec<serde_json::Value> = texts
            .iter()
            .map(|t| serde_json::json!({"iccs": t.iccs, "wxf": t.wxf, "chinese": t.chinese}))
            .collect();
        let mut doc = serde_json::json!({
            "fen": game.position().fen(),
            "moves": moves,
            "status": status.as_str(),
        });
        if let Some((a, n)) = &limit {
            doc["natural_limit"] = serde_json::json!({
                "limit": a.limit,
                "moves": n.moves,
                "reached": n.reached,
            });
        }
        println!("{doc}");
        return Ok(0);
    }
    println!("FEN {}", game.position().fen());
    for (i, t) in texts.iter().enumerate() {
        let side = match game.side_of(i) {
            Colour::Red => "红",
            Colour::Black => "黑",
        };
        println!(
            "{:>3}. {side} {}  {:<5} {}",
            game.move_number(i),
            t.chinese,
            t.wxf,
            t.iccs
        );
    }
    let en = match status {
        Status::Ongoing => "ongoing".to_string(),
        Status::Check => "check".to_string(),
        Status::Checkmate { winner } | Status::Stalemate { winner } => format!(
            "{}, {} wins",
            status.as_str(),
            if winner == Colour::Red {
                "red"
            } else {
                "black"
            }
        ),
    };
    println!("状态 status: {} ({en})", status.zh());
    if let Some((a, n)) = limit {
        let checks = match (a.claimant, a.checks_counted) {
            (None, _) => "双方将军均计入".to_string(),
            (Some(c), 0) => format!("提出方{}将军不计", side_zh(c)),
            (Some(c), k) => format!("提出方{}将军最多计{k}着", side_zh(c)),
        };
        println!(
            "自然限着 natural move limit: 自上次吃子 {} 回合 ({checks}), {} {} 回合 ({} moves since the last capture: {} the limit of {})",
            n.moves,
            if n.reached { "已到" } else { "未到" },
            a.limit,
            n.moves,
            if n.reached { "reached" } else { "short of" },
            a.limit
        );
    }
    Ok(0)
}

fn side_zh(c: Colour) -> &'static str {
    match c {
        Colour::Red => "红方",
        Colour::Black => "黑方",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let args: Vec<String> = ["1. 炮二平五 马８进７", "2.马二进三", "h9h7", "1-0"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            move_tokens(&args),
            ["炮二平五", "马８进７", "马二进三", "h9h7"]
        );
        // A WXF move that begins with a digit (tandem pawns) is a move, not a number.
        let args = vec!["3+=4".to_string()];
        assert_eq!(move_tokens(&args), ["3+=4"]);
    }
}
