//! `arbiter pair`, `arbiter generate`, `arbiter check`: the pairing engine on TRF-16 files,
//! in the manner of the established chess pairing programs (bbpPairings / JaVaFo).

use anyhow::Context;
use arbiter_director::manual::{
    by_hand, engine_pairing, explanation, parse_fixes, parse_swap, worse_by, ManualError,
};
use arbiter_pairing::{Availability, Pairing, PairingError};
use arbiter_trf::{TrfPlayer, TrfTournament};
use arbiter_types::{Colour, PairingSettings, Round1Colour, SameTeam};
use clap::Args;
use std::path::{Path, PathBuf};

/// Pair the next round of a TRF-16 file.
///
/// Output (stdout): the number of pairs (the bye counts as a pair), then one `red black`
/// pair of start numbers per line in board order, the bye last as `N 0`. With `--explain`
/// the reasons (score group / float, colour, bye) go to stderr, one line per board, so stdout
/// stays machine-readable. `--fix A-B` / `--swap A B` make a manual pairing (裁判长指定),
/// which is then checked: violations are warnings on stderr, the exit code stays 0.
/// Exit codes: 0 paired, 2 bad input, 3 no valid pairing exists.
#[derive(Args)]
pub struct PairArgs {
    /// TRF 文件 (已赛轮次; XXR = 总轮数) — TRF-16 file with the rounds played so far
    #[arg(long)]
    pub trf: PathBuf,
    /// 说明每一对、颜色与轮空的理由 (stderr) — explain every pair, colour and the bye
    #[arg(long)]
    pub explain: bool,
    /// 第一轮抽签种子 — seed for round-1 lots (random pairing mode, colours by lot)
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// 指定对阵 A-B (裁判长指定, 可重复) — fix the pair A-B; the engine pairs everyone else
    #[arg(long, value_name = "A-B")]
    pub fix: Vec<String>,
    /// 调换 A 与 B 的台次 — swap players A and B between their boards (or the bye)
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub swap: Option<Vec<u32>>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// Same-team avoidance on the command line (TRF cannot carry it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SameTeamArg {
    /// 同队可以相遇 — team-mates may meet
    Off,
    /// 仅第一轮回避 (默认) — team-mates avoid each other in round 1 only (the default)
    Round1,
    /// 始终回避 — team-mates never meet (H4)
    Hard,
    /// 尽量回避 — team-mates meet only when otherwise a worse pairing results (C4)
    Soft,
}

/// Pairing settings a TRF file cannot carry (everything else comes from the file: `XXR`,
/// `XXC`, `XXS`, teams from `XXT` / `013`).
#[derive(Args, Clone, Debug, Default)]
pub struct SettingsArgs {
    /// 同队回避: off, round1 (默认), hard, soft — same-team avoidance
    #[arg(long, value_enum)]
    pub same_team: Option<SameTeamArg>,
    /// 先后手差上限 (H5, 默认 2) — largest |reds − blacks| after a round
    #[arg(long, value_name = "N")]
    pub max_colour_diff: Option<u8>,
}

impl SettingsArgs {
    /// The default settings with the flags given applied.
    pub fn settings(&self) -> PairingSettings {
        let mut s = PairingSettings::default();
        if let Some(t) = self.same_team {
            s.same_team = match t {
                SameTeamArg::Off => SameTeam::Off,
                SameTeamArg::Round1 => SameTeam::Round1,
                SameTeamArg::Hard => SameTeam::Hard,
                SameTeamArg::Soft => SameTeam::Soft,
            };
        }
        if let Some(d) = self.max_colour_diff {
            s.max_colour_diff = d;
        }
        s
    }
}

/// Write a random complete tournament as TRF-16 (via the pairing engine's generator).
#[derive(Args)]
pub struct GenerateArgs {
    /// 棋手人数 (至多 9999) — number of players (at most 9999)
    #[arg(long)]
    pub players: u32,
    /// 轮数 — number of rounds
    #[arg(long)]
    pub rounds: u32,
    /// 随机种子 (同种子同文件) — random seed (same seed → same file)
    #[arg(long)]
    pub seed: u64,
    /// 和棋概率 0..1 — probability of a draw
    #[arg(long, default_value_t = 0.3)]
    pub draws: f64,
    /// 弃权概率 0..1 — probability of a forfeit
    #[arg(long, default_value_t = 0.02)]
    pub forfeits: f64,
    /// 队伍数 (0: 无; 写为 XXT 行) — number of teams the players are drawn into
    #[arg(long, default_value_t = 0)]
    pub teams: u32,
    /// 输出的 TRF 文件 — output TRF file
    #[arg(long)]
    pub out: PathBuf,
}

/// Check every round of a TRF-16 file with the independent checker.
///
/// Each round's pairing is rebuilt from the file and checked against the state before that
/// round (H1–H5, A2 colours). TRF has no board numbers, so board order is not checked, and
/// round-1 colours (A3: by board parity) are not checked against the A2 colour rule.
/// For every round from 2 on with at most 12 players to pair, the recorded pairing's C0–C5
/// objective is compared with the exhaustive optimum; a worse one is reported as
/// "存在更优编排 (a better pairing exists)" — informational unless `--strict`.
/// Exit codes: 0 no violation, 1 violations found (listed on stdout) or, with `--strict`, a
/// better pairing exists; 2 bad input.
#[derive(Args)]
pub struct CheckArgs {
    /// 要检查的 TRF 文件 — TRF-16 file to check
    #[arg(long)]
    pub trf: PathBuf,
    /// 小轮次的编排非 C0–C5 最优时也判失败 (exit 1) — also fail when a small round is not optimal
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// Read and parse a TRF file; on failure print the error and give exit code 2.
fn load(path: &Path) -> Result<TrfTournament, u8> {
    let name = path.display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("错误 error: {name}: 无法读取文件 (cannot read file): {e}");
            return Err(2);
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            eprintln!(
                "错误 error: {name}:{line}: 第{line}行: 文件不是 UTF-8 编码 (file is not UTF-8)"
            );
            return Err(2);
        }
    };
    arbiter_trf::parse(&text, &name).map_err(|e| {
        eprintln!("错误 error: {e}");
        2
    })
}

/// The pairing of `round` of `t`: round 1 by A3, later rounds by the Swiss engine.
/// The bbpPairings / JaVaFo output: count, then `red black`, the bye as `N 0`.
pub fn format_pairs(p: &Pairing) -> String {
    let mut out = format!("{}\n", p.boards.len() + usize::from(p.bye.is_some()));
    for b in &p.boards {
        out.push_str(&format!("{} {}\n", b.red, b.black));
    }
    if let Some(b) = p.bye {
        out.push_str(&format!("{b} 0\n"));
    }
    out
}

pub fn pair(a: PairArgs) -> anyhow::Result<u8> {
    let t = match load(&a.trf) {
        Ok(t) => t,
        Err(code) => return Ok(code),
    };
    let round = t.rounds_played + 1;
    if let Some(total) = t.total_rounds {
        if round > total {
            eprintln!(
                "错误 error: {}: 全部 {total} 轮已赛完，没有下一轮 (all {total} rounds are played; \
                 XXR says there is no next round)",
                a.trf.display()
            );
            return Ok(2);
        }
    }
    let fixed = match parse_fixes(&a.fix) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    let swap = match a.swap.as_deref().map(parse_swap).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("错误 error: --swap: {e}");
            return Ok(2);
        }
    };
    let state = t.state_before_round(round, a.settings.settings());
    // The same sequence as `round pair` on an event (A3b): fixed pairs first, the engine
    // on the rest, then the swap, then the rules the result breaks.
    let manual = !fixed.is_empty() || swap.is_some();
    let found = match engine_pairing(&state, round, a.seed, &fixed)
        .and_then(|p| by_hand(&state, round, p, &fixed, swap))
    {
        Ok(found) => found,
        Err(ManualError::Engine(e @ PairingError::NoValidPairing { .. })) => {
            eprintln!("第{round}轮 round {round}: {e}");
            return Ok(3);
        }
        Err(ManualError::Engine(e @ PairingError::BadInput(_))) => {
            eprintln!("错误 error: {}: {e}", a.trf.display());
            return Ok(2);
        }
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    let p = found.pairing;
    print!("{}", format_pairs(&p));
    let notes: Vec<String> = p
        .relaxed
        .iter()
        .map(|v| format!("第{round}轮 round {round}: {v}"))
        .collect();
    print_relaxed(&notes);
    if a.explain {
        eprint!("{}", explanation(&p));
    }
    if manual && !found.warnings.is_empty() {
        let n = found.warnings.len();
        eprintln!(
            "警告 warning: 人工编排违反 {n} 条规则 (the manual pairing breaks {n} rules); \
             编排照常输出, 退出码仍为 0 (printed anyway, exit code stays 0):"
        );
        for v in &found.warnings {
            eprintln!("  第{round}轮 round {round}: {v}");
        }
    }
    Ok(0)
}

pub fn check(a: CheckArgs) -> anyhow::Result<u8> {
    use arbiter_pairing::checker::Violation;
    let t = match load(&a.trf) {
        Ok(t) => t,
        Err(code) => return Ok(code),
    };
    let settings = a.settings.settings();
    let mut found = 0usize;
    let mut better = 0usize;
    for round in 1..=t.rounds_played {
        let state = t.state_before_round(round, settings);
        let Some(pairing) = t.pairing_of_round(round) else {
            continue;
        };
        let mut here = 0usize;
        for v in arbiter_pairing::checker::check(&state, round, &pairing) {
            let skip = match v {
                Violation::BoardOrder { .. } => true,
                Violation::ColourRule { .. } => round == 1,
                _ => false,
            };
            if !skip {
                here += 1;
                println!("第{round}轮 round {round}: {v}");
            }
        }
        found += here;
        // Round 1 follows A3 (lots, slide/fold, colours by board), not the C0–C5 objective.
        let to_pair = state
            .players
            .iter()
            .filter(|e| e.availability == Availability::Active)
            .count();
        if here > 0 || round == 1 {
            continue;
        }
        // Exhaustive up to 12 players (H1–H6); the checker's own matching above (H1–H5; it
        // gives no answer when H6 binds, which happens only in small fields).
        let best = if to_pair <= arbiter_pairing::brute::MAX_PLAYERS {
            arbiter_pairing::brute::optimum(&state, round)
        } else if to_pair <= arbiter_pairing::checker::OPTIMUM_MAX_PLAYERS {
            arbiter_pairing::checker::optimum(&state, round)
        } else {
            continue;
        };
        if let Ok(Some(opt)) = best {
            let rec = arbiter_pairing::checker::objective(&state, round, &pairing);
            if rec > opt {
                better += 1;
                println!(
                    "第{round}轮: 存在更优编排 (a better pairing exists): {}",
                    worse_by(&rec, &opt)
                );
            }
        }
    }
    if found == 0 {
        println!(
            "{}: {} 轮全部通过检查 (all {} rounds check){}",
            a.trf.display(),
            t.rounds_played,
            t.rounds_played,
            if better > 0 {
                format!(
                    "; {better} 轮并非最优 (not optimal in {better} rounds){}",
                    if a.strict { " — --strict" } else { "" }
                )
            } else {
                String::new()
            }
        );
        Ok(if a.strict && better > 0 { 1 } else { 0 })
    } else {
        println!("{found} 处违规 ({found} violations)");
        Ok(1)
    }
}

pub fn generate(a: GenerateArgs) -> anyhow::Result<u8> {
    // TRF-16's start-number field (columns 5–8) holds 4 digits: a larger field could not be
    // read back.
    if a.players > 9999 {
        eprintln!(
            "错误 error: --players {}: TRF 文件的起始序号只有 4 位, 至多 9999 名棋手 (TRF start numbers have 4 digits: at most 9999 players)",
            a.players
        );
        return Ok(2);
    }
    for (name, p) in [("--draws", a.draws), ("--forfeits", a.forfeits)] {
        if !(0.0..=1.0).contains(&p) {
            eprintln!("错误 error: {name} {p}: 概率应在 0 到 1 之间 (a probability is 0..1)");
            return Ok(2);
        }
    }
    let t = match generated_tournament(&a) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    let text = arbiter_trf::write(&t);
    std::fs::write(&a.out, text)
        .with_context(|| format!("{}: 无法写入 (cannot write)", a.out.display()))?;
    println!(
        "{}: {} 名棋手 {} 轮 (players, rounds), seed {}",
        a.out.display(),
        a.players,
        t.rounds_played,
        a.seed
    );
    Ok(0)
}

fn generated_tournament(a: &GenerateArgs) -> Result<TrfTournament, String> {
    use arbiter_pairing::generator::{generate, GeneratorConfig};
    let cfg = GeneratorConfig {
        players: a.players as usize,
        rounds: a.rounds,
        seed: a.seed,
        draw_rate: a.draws,
        forfeit_rate: a.forfeits,
        teams: a.teams,
        ..GeneratorConfig::default()
    };
    let g = generate(&cfg).map_err(|e| e.to_string())?;
    if let (Some(e), Some(r)) = (&g.stopped, g.stopped_round) {
        eprintln!("注意 note: 第{r}轮无法编排，赛事在此停止 (round {r} could not be paired): {e}");
    }
    let played = g.rounds.len() as u32;
    let players = g
        .state
        .players
        .iter()
        .map(|e| TrfPlayer {
            no: e.no,
            sex: None,
            title: String::new(),
            name: format!("棋手 {}", e.no),
            rating: None,
            federation: String::new(),
            fide_id: String::new(),
            birth_date: String::new(),
            points: None,
            rank: None,
            team: e.team,
            next_round: None,
        })
        .collect();
    let mut t = TrfTournament {
        name: format!("随机赛事 random tournament, seed {}", a.seed),
        players,
        rounds_played: played,
        total_rounds: Some(a.rounds),
        initial_colour: Some(match cfg.settings.round1_colour {
            Round1Colour::OddBoardLargeRed => Colour::Black,
            _ => Colour::Red,
        }),
        scoring: cfg.scoring,
        outcomes: g
            .state
            .players
            .iter()
            .map(|e| e.history.iter().take(played as usize).copied().collect())
            .collect(),
        extra_lines: Vec::new(),
    };
    t.fill_points_and_ranks();
    Ok(t)
}

/// The rules the engine relaxed to pair a round (A2 as amended), as a note on stderr.
pub fn print_relaxed(notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    eprintln!(
        "注意 note: 本轮无法满足全部编排规则, 已按规则放宽 (A2) \
         (no pairing of this round keeps every hard rule; relaxed as A2 allows):"
    );
    for v in notes {
        eprintln!("  {v}");
    }
}
