//! `arbiter pair`, `arbiter generate`, `arbiter check`: the pairing engine on TRF-16 files,
//! in the manner of the established chess pairing programs (bbpPairings / JaVaFo).

use anyhow::Context;
use arbiter_pairing::{Pairing, PairingError};
use arbiter_trf::{TrfPlayer, TrfTournament};
use arbiter_types::{Colour, PairingSettings, Round1Colour};
use clap::Args;
use std::path::{Path, PathBuf};

/// Pair the next round of a TRF-16 file.
///
/// Output (stdout): the number of pairs (the bye counts as a pair), then one `red black`
/// pair of start numbers per line in board order, the bye last as `N 0`. With `--explain`
/// the reasons (score group / float, colour, bye) go to stderr, one line per board, so stdout
/// stays machine-readable. Exit codes: 0 paired, 2 bad input, 3 no valid pairing exists.
#[derive(Args)]
pub struct PairArgs {
    /// TRF-16 file with the rounds played so far (XXR = total rounds)
    #[arg(long)]
    pub trf: PathBuf,
    /// Explain every pair, colour and the bye (on stderr)
    #[arg(long)]
    pub explain: bool,
    /// Seed for round-1 lots (random pairing mode, colours by lot); recorded by the caller
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Write a random complete tournament as TRF-16 (via the pairing engine's generator).
#[derive(Args)]
pub struct GenerateArgs {
    /// Number of players
    #[arg(long)]
    pub players: u32,
    /// Number of rounds
    #[arg(long)]
    pub rounds: u32,
    /// Random seed (same seed → same file)
    #[arg(long)]
    pub seed: u64,
    /// Probability of a draw, 0..1
    #[arg(long, default_value_t = 0.3)]
    pub draws: f64,
    /// Probability of a forfeit, 0..1
    #[arg(long, default_value_t = 0.02)]
    pub forfeits: f64,
    /// Number of teams the players are drawn into (0: none); written as XXT lines
    #[arg(long, default_value_t = 0)]
    pub teams: u32,
    /// Output TRF file
    #[arg(long)]
    pub out: PathBuf,
}

/// Check every round of a TRF-16 file with the independent checker.
///
/// Each round's pairing is rebuilt from the file and checked against the state before that
/// round (H1–H5, A2 colours). TRF has no board numbers, so board order is not checked, and
/// round-1 colours (A3: by board parity) are not checked against the A2 colour rule.
/// Exit codes: 0 no violation, 1 violations found (listed on stdout), 2 bad input.
#[derive(Args)]
pub struct CheckArgs {
    /// TRF-16 file to check
    #[arg(long)]
    pub trf: PathBuf,
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
fn pair_round(t: &TrfTournament, round: u32, seed: u64) -> Result<Pairing, PairingError> {
    let state = t.state_before_round(round, PairingSettings::default());
    if round == 1 {
        arbiter_pairing::round1::pair_round1(&state, seed)
    } else {
        arbiter_pairing::pair_swiss(&state, round)
    }
}

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

fn explanation(p: &Pairing) -> String {
    let mut out = format!("第{}轮 编排说明 (round {} explanation)\n", p.round, p.round);
    for b in &p.boards {
        out.push_str(&format!(
            "第{}台 {}–{}: {}; {}\n",
            b.board, b.red, b.black, b.why.group, b.why.colour
        ));
    }
    if let Some(bye) = p.bye {
        out.push_str(&format!(
            "轮空 bye {bye}: {}\n",
            p.bye_why.as_deref().unwrap_or("")
        ));
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
    match pair_round(&t, round, a.seed) {
        Ok(p) => {
            print!("{}", format_pairs(&p));
            if a.explain {
                eprint!("{}", explanation(&p));
            }
            Ok(0)
        }
        Err(e @ PairingError::NoValidPairing { .. }) => {
            eprintln!("第{round}轮 round {round}: {e}");
            Ok(3)
        }
        Err(e @ PairingError::BadInput(_)) => {
            eprintln!("错误 error: {}: {e}", a.trf.display());
            Ok(2)
        }
    }
}

pub fn check(a: CheckArgs) -> anyhow::Result<u8> {
    use arbiter_pairing::checker::Violation;
    let t = match load(&a.trf) {
        Ok(t) => t,
        Err(code) => return Ok(code),
    };
    let mut found = 0usize;
    for round in 1..=t.rounds_played {
        let state = t.state_before_round(round, PairingSettings::default());
        let Some(pairing) = t.pairing_of_round(round) else {
            continue;
        };
        for v in arbiter_pairing::checker::check(&state, round, &pairing) {
            let skip = match v {
                Violation::BoardOrder { .. } => true,
                Violation::ColourRule { .. } => round == 1,
                _ => false,
            };
            if !skip {
                found += 1;
                println!("第{round}轮 round {round}: {v}");
            }
        }
    }
    if found == 0 {
        println!(
            "{}: {} 轮全部通过检查 (all {} rounds check)",
            a.trf.display(),
            t.rounds_played,
            t.rounds_played
        );
        Ok(0)
    } else {
        println!("{found} 处违规 ({found} violations)");
        Ok(1)
    }
}

pub fn generate(a: GenerateArgs) -> anyhow::Result<u8> {
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
