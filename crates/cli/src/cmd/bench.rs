//! `arbiter bench …`: end-to-end timings of the engine on synthetic sections.
//!
//! Every sub-command prints one human-readable line per figure (Chinese and English labels)
//! or, with `--json`, one JSON object on stdout. Timings are wall-clock (`Instant`); medians
//! are taken over `--repeat` runs. Nothing here asserts a time: the figures are for people.

use anyhow::Context;
use arbiter_core::EventState;
use arbiter_director::publish;
use arbiter_pairing::PairingError;
use arbiter_simulate::{Simulator, Sizes};
use arbiter_standings::{compute, DecidedBy};
use arbiter_store::{EventStore, SqliteStore};
use arbiter_types::{Fallback, TiebreakName};
use clap::Subcommand;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Subcommand)]
pub enum BenchCmd {
    /// 编排一轮的耗时 — time the pairing of one round of a synthetic section
    Pairing {
        /// Players in the section
        #[arg(long)]
        players: usize,
        /// The round to pair (earlier rounds are simulated first)
        #[arg(long)]
        round: u32,
        /// Seed of the synthetic section
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// 机器可读输出 — print one JSON object instead of text lines
        #[arg(long)]
        json: bool,
    },
    /// 团体编排一轮的耗时 — time pairing each round of a simulated team Swiss (A15): the
    /// director's whole operation (team standings, the engine over the teams, line-ups, seats)
    TeamPairing {
        /// Teams in the section
        #[arg(long)]
        teams: usize,
        /// Boards a match (each team registers one reserve more)
        #[arg(long, default_value_t = 4)]
        boards: u32,
        /// Rounds of the team Swiss
        #[arg(long, default_value_t = 7)]
        rounds: u32,
        /// Seed of the simulated event
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// 重复次数 — each round paired this many times (the median of each round is reported)
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// 机器可读输出 — print one JSON object instead of text lines
        #[arg(long)]
        json: bool,
    },
    /// 名次计算耗时 — time standings (all tie-breaks + previous_round_rank) of a synthetic section
    Standings {
        /// Players in the section
        #[arg(long)]
        players: usize,
        /// Rounds played
        #[arg(long)]
        rounds: usize,
        /// Seed of the synthetic history
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// 重复次数 — repetitions (the median is reported)
        #[arg(long, default_value_t = 5)]
        repeat: usize,
        /// 名次区分方法 — comma-separated tie-breaks, optionally ending with a fallback
        /// (default: all 15 tie-breaks, then previous_round_rank)
        #[arg(long, value_name = "LIST")]
        tiebreaks: Option<String>,
        /// 机器可读输出 — print one JSON object instead of text lines
        #[arg(long)]
        json: bool,
    },
    /// 逐个报名耗时 — time registering a field one operation at a time, each decided on the
    /// state the ones before it left (the desk's way), in memory
    Register {
        /// 竞赛规程文件 — regulation file (TOML)
        #[arg(long)]
        regulation: PathBuf,
        /// 报名人数: N (every section) or SECTION=N (repeatable) — field sizes
        #[arg(long = "players", value_name = "N|SECTION=N")]
        players: Vec<String>,
        /// 随机种子 — seed of the synthetic field
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// 机器可读输出 — print one JSON object instead of text lines
        #[arg(long)]
        json: bool,
    },
    /// 整个赛事模拟耗时 — time a whole simulated event, in memory and with SQLite in a temp dir
    Simulate {
        /// 竞赛规程文件 — regulation file (TOML)
        #[arg(long)]
        regulation: PathBuf,
        /// 随机种子 — seed of every lot and random result
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// 报名人数: N (every section) or SECTION=N (repeatable) — field sizes
        #[arg(long = "players", value_name = "N|SECTION=N")]
        players: Vec<String>,
        /// 重复次数 — repetitions of each variant (the median is reported)
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// 机器可读输出 — print one JSON object instead of text lines
        #[arg(long)]
        json: bool,
    },
}

/// Peak resident memory of this process in KiB (Linux `VmHWM`), if the system says.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Milliseconds rounded to 3 decimals (for JSON).
fn ms3(d: Duration) -> f64 {
    (ms(d) * 1e3).round() / 1e3
}

/// Median of a non-empty list of durations (the lower middle for an even count).
fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or_default()
}

pub fn run(c: BenchCmd) -> anyhow::Result<u8> {
    match c {
        BenchCmd::Pairing {
            players,
            round,
            seed,
            json,
        } => bench_pairing(players, round, seed, json),
        BenchCmd::TeamPairing {
            teams,
            boards,
            rounds,
            seed,
            repeat,
            json,
        } => bench_team_pairing(teams, boards, rounds, seed, repeat, json),
        BenchCmd::Standings {
            players,
            rounds,
            seed,
            repeat,
            tiebreaks,
            json,
        } => {
            let (list, fallback) = match tiebreaks.as_deref().map(super::standings::parse_list) {
                None => (
                    TiebreakName::ALL.to_vec(),
                    Some(Fallback::PreviousRoundRank),
                ),
                Some(Ok(x)) => x,
                Some(Err(e)) => {
                    eprintln!("错误 error: {e}");
                    return Ok(2);
                }
            };
            bench_standings(players, rounds, seed, repeat, (list, fallback), json)
        }
        BenchCmd::Register {
            regulation,
            players,
            seed,
            json,
        } => bench_register(&regulation, &players, seed, json),
        BenchCmd::Simulate {
            regulation,
            seed,
            players,
            repeat,
            json,
        } => bench_simulate(&regulation, seed, &players, repeat, json),
    }
}

/// `bench team-pairing`: a team Swiss of `teams` teams simulated to the end in memory, then
/// each round's pairing decided again on the state it was paired on, timed (`repeat` times a
/// round, the median kept).
fn bench_team_pairing(
    teams: usize,
    boards: u32,
    rounds: u32,
    seed: u64,
    repeat: usize,
    json: bool,
) -> anyhow::Result<u8> {
    if teams < 2 || boards == 0 || rounds == 0 || repeat == 0 {
        eprintln!("错误 error: --teams 至少为 2, --boards、--rounds 与 --repeat 至少为 1 (at least 2 teams, 1 board, 1 round, 1 repetition)");
        return Ok(2);
    }
    let source = format!(
        "[event]\nname = \"团体赛性能测试\"\nstart = 2026-05-01\nend = 2026-05-03\n\
         [registration]\nunit_kind = \"work_unit\"\nunit_required = true\n\
         [[sections]]\nid = \"teams\"\nname = \"团体赛\"\n\
         format = {{ kind = \"swiss\", rounds = {rounds} }}\n\
         [sections.team_match]\nboards = {boards}\nreserves = 1\n"
    );
    let reg = match arbiter_regulation::parse(&source, "bench-team.toml") {
        Ok(r) => r,
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    let sizes = Sizes {
        all: Some(teams * (boards as usize + 1)),
        by_section: Default::default(),
    };
    let t0 = Instant::now();
    let mut sim = Simulator::new(reg, &source, "bench-team.toml", seed, &sizes);
    let (log, _) = sim
        .run_in_memory()
        .map_err(|e| anyhow::anyhow!("模拟失败 (simulation failed): {e}"))?;
    let simulate = t0.elapsed();
    let mut state = EventState::new();
    let mut times = Vec::new();
    let (mut view_times, mut engine_times) = (Vec::new(), Vec::new());
    let mut paired_teams = 0;
    for r in &log {
        if let arbiter_core::LogEntry::MatchesPaired { matches, .. } = &r.entry {
            paired_teams = paired_teams.max(matches.len() * 2);
            let at = arbiter_core::time::china_local(&r.at).unwrap_or_default();
            let ctx =
                arbiter_director::api::Ctx::new("bench", arbiter_types::Role::ChiefArbiter, at);
            // The parts: the engine's view of the teams (team standings), and the engine.
            if let (Ok(reg), Some(round)) = (
                arbiter_director::regulation_of(&state),
                state.section("teams").map(|s| s.last_round() + 1),
            ) {
                if let Some((sec, tm)) = arbiter_director::team_match::rules_of(&reg, "teams") {
                    let teams = state.section("teams").map_or(0, |s| s.team_order.len()) as u32;
                    let planned = arbiter_director::team_match::planned_rounds(sec, teams);
                    let (mut view, mut engine) = (Vec::new(), Vec::new());
                    for _ in 0..repeat {
                        let t = Instant::now();
                        let _ =
                            arbiter_director::team_match::pairing_state(sec, tm, &state, planned);
                        view.push(t.elapsed());
                        let t = Instant::now();
                        let _ = arbiter_director::team_match::pair_matches(
                            sec, tm, &state, "teams", round,
                        );
                        engine.push(t.elapsed());
                    }
                    view_times.push(median(view));
                    engine_times.push(median(engine));
                }
            }
            let mut whole = Vec::new();
            for _ in 0..repeat {
                let t = Instant::now();
                let again = arbiter_director::team_match::pair(&state, &ctx, "teams")
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                whole.push(t.elapsed());
                anyhow::ensure!(
                    again.entries.iter().any(|e| e == &r.entry),
                    "第{}轮重新编排与记录不同 (re-pairing differs from the log)",
                    again.round
                );
            }
            times.push(median(whole));
        }
        state
            .apply(r)
            .map_err(|e| anyhow::anyhow!("日志无法重放 (the log does not replay): {e}"))?;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let worst = times.iter().copied().max().unwrap_or_default();
    let mut sorted = times.clone();
    sorted.sort();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or_default();
    if json {
        let v = json!({
            "teams": teams, "boards": boards, "rounds": times.len(), "repeat": repeat,
            "paired_teams": paired_teams,
            "simulate_ms": ms(simulate),
            "round_ms": times.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
            "team_view_ms": view_times.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
            "pair_matches_ms": engine_times.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
            "median_ms": ms(median), "max_ms": ms(worst),
        });
        println!("{v}");
    } else {
        println!(
            "团体积分编排 team Swiss: {teams} 队 teams × {boards} 台 boards, {} 轮 rounds (每轮 {repeat} 次取中位数 median of {repeat} a round)",
            times.len()
        );
        for (i, d) in times.iter().enumerate() {
            println!(
                "  第{}轮 round {}: {:.2} ms (其中 of which: 队伍积分表 team view {:.2} ms, 含编排引擎 with the engine {:.2} ms)",
                i + 1,
                i + 1,
                ms(*d),
                view_times.get(i).map_or(0.0, |d| ms(*d)),
                engine_times.get(i).map_or(0.0, |d| ms(*d))
            );
        }
        println!(
            "  中位数 median {:.2} ms, 最长 max {:.2} ms",
            ms(median),
            ms(worst)
        );
        println!("  (整场模拟 whole simulation {:.0} ms)", ms(simulate));
    }
    Ok(0)
}

fn bench_pairing(players: usize, round: u32, seed: u64, json: bool) -> anyhow::Result<u8> {
    if round == 0 || players == 0 {
        eprintln!(
            "错误 error: --players 与 --round 至少为 1 (--players and --round must be at least 1)"
        );
        return Ok(2);
    }
    let t0 = Instant::now();
    let state = arbiter_pairing::generator::bench_state(players, round, seed);
    let build = t0.elapsed();
    let t1 = Instant::now();
    // Round 1 follows a fixed scheme; later rounds report whether the engine proved its
    // pairing optimal under C0–C5 (always up to SPARSE_FALLBACK_LIMIT players).
    let result = if round == 1 {
        arbiter_pairing::round1::pair_round1(&state, seed).map(|p| (p, None))
    } else {
        arbiter_pairing::swiss::pair_swiss_stats(&state, round).map(|(p, st)| (p, Some(st)))
    };
    let pair = t1.elapsed();
    let (boards, stats) = match result {
        Ok((p, st)) => (p.boards.len(), st),
        Err(e @ PairingError::NoValidPairing { .. }) => {
            eprintln!("{e}");
            return Ok(3);
        }
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    let certified = stats.as_ref().map(|s| s.certified);
    // Whether the within-group tie-break was minimized exactly or settled by exchanges
    // (above TIE_EXACT_LIMIT players), and its total.
    let tie = stats.as_ref().map(|s| {
        let mode = if s.tie_exchanges.is_some() {
            "exchanges"
        } else {
            "exact"
        };
        (mode, s.tie_exchanges, s.tie_total)
    });
    let peak = peak_rss_kib();
    if json {
        let v = json!({
            "bench": "pairing",
            "players": players,
            "round": round,
            "seed": seed,
            "pair_ms": ms3(pair),
            "boards": boards,
            "certified_optimal": certified,
            "tie_break": tie.map(|(mode, _, _)| mode),
            "tie_exchanges": tie.and_then(|(_, k, _)| k),
            "tie_total": tie.map(|(_, _, t)| t),
            "state_build_ms": ms3(build),
            "peak_rss_kib": peak,
        });
        println!("{v}");
    } else {
        println!(
            "编排 pairing: {players} players, round {round}, seed {seed}: {:.3} ms ({boards} boards)",
            ms(pair)
        );
        match certified {
            Some(true) => println!("最优性 optimality: 已证明 proven (dual certificate, C0–C5)"),
            Some(false) => println!(
                "最优性 optimality: 未证明 not proven (legal; above {} players one restricted solve)",
                arbiter_pairing::swiss::SPARSE_FALLBACK_LIMIT
            ),
            None => {}
        }
        match tie {
            Some(("exact", _, total)) => println!(
                "同分组内次序 tie-break: 精确最小 minimized exactly (total {total})"
            ),
            Some((_, k, total)) => println!(
                "同分组内次序 tie-break: 交换调整 settled by {} exchanges (total {total}; above {} players)",
                k.unwrap_or(0),
                arbiter_pairing::swiss::TIE_EXACT_LIMIT
            ),
            None => {}
        }
        println!(
            "构建对局历史 state built: {:.3} ms (rounds 1–{} played first)",
            ms(build),
            round.saturating_sub(1)
        );
        if let Some(kib) = peak {
            println!("内存峰值 peak memory: {:.1} MiB", kib as f64 / 1024.0);
        }
    }
    Ok(0)
}

fn bench_standings(
    players: usize,
    rounds: usize,
    seed: u64,
    repeat: usize,
    (tiebreaks, fallback): (Vec<TiebreakName>, Option<Fallback>),
    json: bool,
) -> anyhow::Result<u8> {
    if players == 0 || rounds == 0 || repeat == 0 {
        eprintln!(
            "错误 error: --players、--rounds 与 --repeat 至少为 1 (--players, --rounds and --repeat must be at least 1)"
        );
        return Ok(2);
    }
    let t0 = Instant::now();
    let mut input = arbiter_standings::synthetic::synthetic_section(players, rounds, seed);
    input.tiebreaks = tiebreaks;
    input.fallback = fallback;
    let build = t0.elapsed();
    let mut times = Vec::with_capacity(repeat);
    let mut last = None;
    for _ in 0..repeat {
        let t = Instant::now();
        let s =
            compute(&input).map_err(|e| anyhow::anyhow!("名次计算失败: {e} (standings failed)"))?;
        times.push(t.elapsed());
        last = Some(s);
    }
    let Some(s) = last else {
        anyhow::bail!("没有计算名次 (standings were not computed)");
    };
    let by_fallback = s
        .rows
        .iter()
        .filter(|r| matches!(r.decided_by, Some(DecidedBy::Fallback(_))))
        .count();
    let tb_names: Vec<&str> = input.tiebreaks.iter().map(|t| t.name()).collect();
    let fb_name = fallback.map(|f| f.name()).unwrap_or("none");
    let min = times.iter().min().copied().unwrap_or_default();
    let max = times.iter().max().copied().unwrap_or_default();
    let med = median(times);
    let peak = peak_rss_kib();
    if json {
        let v = json!({
            "bench": "standings",
            "players": players,
            "rounds": rounds,
            "seed": seed,
            "repeat": repeat,
            "tiebreaks": tb_names,
            "fallback": fallback.map(|f| f.name()),
            "median_ms": ms3(med),
            "min_ms": ms3(min),
            "max_ms": ms3(max),
            "rows": s.rows.len(),
            "decided_by_fallback": by_fallback,
            "history_build_ms": ms3(build),
            "peak_rss_kib": peak,
        });
        println!("{v}");
    } else {
        println!(
            "名次计算 standings: {players} players × {rounds} rounds, seed {seed}, {} tie-breaks + fallback {fb_name}: {:.3} ms median of {repeat} (min {:.3}, max {:.3})",
            tb_names.len(),
            ms(med),
            ms(min),
            ms(max)
        );
        println!(
            "后备规则决定 decided by fallback ({fb_name}): {by_fallback} of {} rows",
            s.rows.len()
        );
        println!("构建对局历史 history built: {:.3} ms", ms(build));
        if let Some(kib) = peak {
            println!("内存峰值 peak memory: {:.1} MiB", kib as f64 / 1024.0);
        }
    }
    Ok(0)
}

/// A temporary directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(seed: u64) -> anyhow::Result<TempDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!(
            "arbiter-bench-{}-{seed}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).with_context(|| {
            format!(
                "无法创建临时目录 {} (cannot create a temp dir)",
                p.display()
            )
        })?;
        Ok(TempDir(p))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where the log goes during a simulation run.
enum Sink<'a> {
    /// Folded into an [`EventState`] only (every entry validated, nothing stored).
    Memory,
    /// Appended to a SQLite store (validated by the store too), as `arbiter simulate` does.
    Sqlite(&'a SqliteStore),
}

/// Why a simulation run failed: exit code and message.
struct SimFailure(u8, String);

/// One whole simulation; returns the final state and the loop's wall time.
fn simulate_once(
    reg: &arbiter_regulation::Regulation,
    source: &str,
    file_name: &str,
    seed: u64,
    sizes: &Sizes,
    sink: Sink<'_>,
) -> Result<(EventState, Duration), SimFailure> {
    let fail = |e: &dyn std::fmt::Display| SimFailure(1, format!("错误 error: {e}"));
    let t = Instant::now();
    let mut sim = Simulator::new(reg.clone(), source, file_name, seed, sizes);
    let failed = |e: arbiter_director::DirectorError| {
        let code = if matches!(e, arbiter_director::DirectorError::Pairing { .. }) {
            3
        } else {
            1
        };
        SimFailure(code, format!("错误 error: {e}"))
    };
    let state = match &sink {
        Sink::Sqlite(store) => {
            let event = store.create_event(&reg.event.name).map_err(|e| fail(&e))?;
            let mut log = arbiter_store::write::KeptLog {
                store: *store,
                event,
                state: EventState::new(),
            };
            while sim
                .step(&mut log)
                .map_err(|e| fail(&e))?
                .map_err(failed)?
                .is_some()
            {}
            log.state
        }
        Sink::Memory => {
            let mut log = arbiter_director::api::write::MemoryLog::default();
            let infallible = |e: std::convert::Infallible| match e {};
            while sim
                .step(&mut log)
                .map_err(infallible)?
                .map_err(failed)?
                .is_some()
            {}
            log.state
        }
    };
    Ok((state, t.elapsed()))
}

/// Entries per second, rounded to a whole number.
fn per_second(entries: u64, d: Duration) -> u64 {
    let s = d.as_secs_f64();
    if s > 0.0 {
        (entries as f64 / s).round() as u64
    } else {
        0
    }
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// `bench register`: the field's entry forms registered one operation at a time, each on
/// the state the ones before it left; the time of every tenth of them shows whether an
/// operation's cost grows with the field.
fn bench_register(
    regulation: &Path,
    players: &[String],
    seed: u64,
    json: bool,
) -> anyhow::Result<u8> {
    let super::simulate::SimulationInput {
        source,
        file_name,
        reg,
        sizes,
    } = match super::simulate::load_input(regulation, players) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("{msg}");
            return Ok(2);
        }
    };
    let fail = |e: &dyn std::fmt::Display| anyhow::anyhow!("报名失败 (registration failed): {e}");
    let mut sim = Simulator::new(reg, &source, &file_name, seed, &sizes);
    let mut state = EventState::new();
    // The event itself (the simulator's first batch).
    if let Some(b) = sim.next_batch(&state).map_err(|e| fail(&e))? {
        for r in b.recorded(0) {
            state.apply(&r).map_err(|e| fail(&e))?;
        }
    }
    let (forms, at) = sim.registration_forms();
    let ctx = arbiter_director::api::Ctx::new("报名处", arbiter_director::api::Role::Desk, at);
    let at = arbiter_core::time::rfc3339_from_china_local(at);
    let n = forms.len();
    let tenth = n.div_ceil(10).max(1);
    let mut slices = Vec::new();
    let t0 = Instant::now();
    let mut t = Instant::now();
    for (i, form) in forms.into_iter().enumerate() {
        // The write path every shell takes: the command, decided on the state before it.
        let cmd = arbiter_director::command::registration::RegistrationCommand::Register {
            form,
            record_refusal: true,
        }
        .into();
        let decided =
            arbiter_director::command::decide(&state, &ctx, &cmd).map_err(|e| fail(&e))?;
        for e in decided.entries {
            let r = arbiter_core::Recorded {
                seq: state.last_seq + 1,
                at: at.clone(),
                actor: "报名处".into(),
                entry: e,
            };
            state.apply(&r).map_err(|e| fail(&e))?;
        }
        if (i + 1) % tenth == 0 || i + 1 == n {
            slices.push(t.elapsed());
            t = Instant::now();
        }
    }
    let total = t0.elapsed();
    let registered = state.players.len();
    let refused = state.refused.len();
    let first = slices.first().copied().unwrap_or_default();
    let last = slices.last().copied().unwrap_or_default();
    if json {
        let v = json!({
            "bench": "register",
            "forms": n,
            "registered": registered,
            "refused": refused,
            "total_ms": ms3(total),
            "per_form_us": if n > 0 { total.as_secs_f64() * 1e6 / n as f64 } else { 0.0 },
            "tenths_ms": slices.iter().map(|d| ms3(*d)).collect::<Vec<_>>(),
            "peak_rss_kib": peak_rss_kib(),
        });
        println!("{v}");
    } else {
        println!(
            "报名 register: {n} forms one operation at a time: {registered} registered, {refused} refused"
        );
        println!("总耗时 total: {:.3} ms", ms3(total));
        println!(
            "每十分之一 each tenth: {} ms (first {:.3}, last {:.3})",
            slices
                .iter()
                .map(|d| format!("{:.1}", ms3(*d)))
                .collect::<Vec<_>>()
                .join(" / "),
            ms3(first),
            ms3(last)
        );
        if let Some(k) = peak_rss_kib() {
            println!("内存峰值 peak memory: {:.1} MiB", k as f64 / 1024.0);
        }
    }
    Ok(0)
}

fn bench_simulate(
    regulation: &Path,
    seed: u64,
    players: &[String],
    repeat: usize,
    json: bool,
) -> anyhow::Result<u8> {
    if repeat == 0 {
        eprintln!("错误 error: --repeat 至少为 1 (--repeat must be at least 1)");
        return Ok(2);
    }
    let super::simulate::SimulationInput {
        source,
        file_name,
        reg,
        sizes,
    } = match super::simulate::load_input(regulation, players) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("{msg}");
            return Ok(2);
        }
    };

    // In memory: no database at all, every entry validated by the fold.
    let mut mem_times = Vec::with_capacity(repeat);
    let mut final_state = None;
    for _ in 0..repeat {
        match simulate_once(&reg, &source, &file_name, seed, &sizes, Sink::Memory) {
            Ok((s, d)) => {
                mem_times.push(d);
                final_state = Some(s);
            }
            Err(SimFailure(code, msg)) => {
                eprintln!("{msg}");
                return Ok(code);
            }
        }
    }
    let Some(state) = final_state else {
        anyhow::bail!("没有运行模拟 (no simulation ran)");
    };
    let entries = state.last_seq;
    if entries == 0 {
        anyhow::bail!("没有写入任何日志 (nothing was recorded)");
    }

    // SQLite in a fresh temporary directory (removed afterwards), as `arbiter simulate`.
    let mut db_times = Vec::with_capacity(repeat);
    let mut db_bytes = 0;
    for _ in 0..repeat {
        let tmp = TempDir::new(seed)?;
        let store = SqliteStore::open(tmp.0.join("arbiter.db"))?;
        match simulate_once(
            &reg,
            &source,
            &file_name,
            seed,
            &sizes,
            Sink::Sqlite(&store),
        ) {
            Ok((s, d)) => {
                if s.last_seq != entries {
                    anyhow::bail!(
                        "两次模拟日志条数不同: {entries} 与 {} (the two runs differ: the simulation is not deterministic)",
                        s.last_seq
                    );
                }
                db_times.push(d);
            }
            Err(SimFailure(code, msg)) => {
                eprintln!("{msg}");
                return Ok(code);
            }
        }
        drop(store);
        db_bytes = dir_bytes(&tmp.0);
    }

    // Publishing: final standings, prizes and the export document.
    let t = Instant::now();
    let computed = publish::compute(&reg, &state)?;
    let export_len = publish::build(&reg, &state, &computed).to_json().len();
    let publish_time = t.elapsed();

    let mem = median(mem_times);
    let db = median(db_times);
    let cost = db.saturating_sub(mem);
    let cost_pct = if mem.as_secs_f64() > 0.0 {
        (db.as_secs_f64() / mem.as_secs_f64() - 1.0) * 100.0
    } else {
        0.0
    };
    let registered = state.players.len();
    let sizes_json: serde_json::Map<String, serde_json::Value> = reg
        .sections
        .iter()
        .map(|s| {
            let n = state.section(&s.id).map(|r| r.order.len()).unwrap_or(0);
            (s.id.clone(), json!(n))
        })
        .collect();
    if json {
        let v = json!({
            "bench": "simulate",
            "regulation": file_name,
            "seed": seed,
            "repeat": repeat,
            "players": registered,
            "sections": sizes_json,
            "entries": entries,
            "memory": {
                "wall_ms": ms3(mem),
                "entries": entries,
                "entries_per_s": per_second(entries, mem),
            },
            "sqlite": {
                "wall_ms": ms3(db),
                "entries": entries,
                "entries_per_s": per_second(entries, db),
                "db_bytes": db_bytes,
            },
            "storage_cost_ms": ms3(cost),
            "storage_cost_pct": (cost_pct * 10.0).round() / 10.0,
            "publish_ms": ms3(publish_time),
            "export_bytes": export_len,
            "peak_rss_kib": peak_rss_kib(),
        });
        println!("{v}");
    } else {
        let drawn: Vec<String> = sizes_json.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!(
            "赛事 event: {file_name}, seed {seed}: {registered} players registered, drawn by section: {}; median of {repeat} run(s)",
            drawn.join(" ")
        );
        println!(
            "模拟(内存) simulate in memory: {:.3} ms, {entries} log entries, {} entries/s",
            ms(mem),
            per_second(entries, mem)
        );
        println!(
            "模拟(SQLite 临时目录) simulate with SQLite in a temp dir: {:.3} ms, {entries} log entries, {} entries/s, database {:.1} KiB",
            ms(db),
            per_second(entries, db),
            db_bytes as f64 / 1024.0
        );
        println!(
            "存储开销 storage cost: {:.3} ms ({cost_pct:+.1}%)",
            ms(cost)
        );
        println!(
            "发布 publish (standings, prizes, export JSON): {:.3} ms, {export_len} bytes",
            ms(publish_time)
        );
        if let Some(kib) = peak_rss_kib() {
            println!("内存峰值 peak memory: {:.1} MiB", kib as f64 / 1024.0);
        }
    }
    Ok(0)
}
