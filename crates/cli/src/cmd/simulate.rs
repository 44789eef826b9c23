//! `arbiter simulate`: run a whole reference event from its regulation file into a fresh
//! SQLite database, write `export.json`, one TRF-16 file per Swiss section and a summary.

use anyhow::{bail, Context};
use arbiter_core::EventState;
use arbiter_director::publish::{build, compute, summary_zh};
use arbiter_director::simulate::{Simulator, Sizes};
use arbiter_store::{EventStore, SqliteStore};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct SimulateArgs {
    /// 竞赛规程文件 — regulation file (TOML)
    #[arg(long)]
    pub regulation: PathBuf,
    /// 随机种子 — seed of every lot and random result
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// 输出目录 — output directory (arbiter.db, export.json, <section>.trf)
    #[arg(long)]
    pub out: PathBuf,
    /// 报名人数: N (every section) or SECTION=N (repeatable) — field sizes
    #[arg(long = "players", value_name = "N|SECTION=N")]
    pub players: Vec<String>,
    /// 覆盖已有数据库 — replace an existing DIR/arbiter.db (otherwise it is refused)
    #[arg(long)]
    pub force: bool,
}

/// `--players` values: `N` for every section, or `SECTION=N` (repeatable).
pub(crate) fn parse_sizes(list: &[String]) -> Result<Sizes, String> {
    let mut s = Sizes::default();
    for item in list {
        match item.split_once('=') {
            Some((sec, n)) => {
                let n: usize = n.trim().parse().map_err(|_| {
                    format!("--players `{item}`: `{n}` 不是人数 (not a number of players)")
                })?;
                s.by_section.insert(sec.trim().to_string(), n);
            }
            None => {
                let n: usize = item.trim().parse().map_err(|_| {
                    format!("--players `{item}`: 应为 N 或 组别=N (expected N or SECTION=N)")
                })?;
                s.all = Some(n);
            }
        }
    }
    Ok(s)
}

fn remove_db(db: &Path) -> anyhow::Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        let p = PathBuf::from(format!("{}{suffix}", db.display()));
        if p.exists() {
            std::fs::remove_file(&p)
                .with_context(|| format!("无法删除 {} (cannot remove)", p.display()))?;
        }
    }
    Ok(())
}

/// What a simulation starts from: the regulation file's text and name, the parsed
/// regulation, and the field sizes of `--players` checked against its sections.
pub(crate) struct SimulationInput {
    pub source: String,
    pub file_name: String,
    pub reg: arbiter_regulation::Regulation,
    pub sizes: Sizes,
}

/// Read and parse the regulation file and `--players`; the error is the message to print
/// (the caller exits 2).
pub(crate) fn load_input(regulation: &Path, players: &[String]) -> Result<SimulationInput, String> {
    let source = std::fs::read_to_string(regulation).map_err(|e| {
        format!(
            "错误 error: 无法读取规程文件 {}: {e} (cannot read the regulation file)",
            regulation.display()
        )
    })?;
    let file_name = regulation
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_else(|| regulation.display().to_string());
    let reg = arbiter_regulation::parse(&source, &regulation.display().to_string())
        .map_err(|e| e.to_string())?;
    let sizes = parse_sizes(players).map_err(|e| format!("错误 error: {e}"))?;
    for sec in sizes.by_section.keys() {
        if reg.section(sec).is_none() {
            let ids: Vec<&str> = reg.sections.iter().map(|s| s.id.as_str()).collect();
            let hint = arbiter_types::closest(sec, ids.iter().copied())
                .map(|c| format!("，是否为 `{c}`? (did you mean `{c}`?)"))
                .unwrap_or_default();
            return Err(format!(
                "错误 error: --players: 规程中没有组别 `{sec}`{hint} (unknown section)"
            ));
        }
    }
    Ok(SimulationInput {
        source,
        file_name,
        reg,
        sizes,
    })
}

pub fn run(a: SimulateArgs) -> anyhow::Result<u8> {
    let SimulationInput {
        source,
        file_name,
        reg,
        sizes,
    } = match load_input(&a.regulation, &a.players) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("{msg}");
            return Ok(2);
        }
    };
    std::fs::create_dir_all(&a.out).with_context(|| {
        format!(
            "无法创建目录 {} (cannot create the output directory)",
            a.out.display()
        )
    })?;
    let db = a.out.join("arbiter.db");
    if db.exists() {
        if a.force {
            eprintln!(
                "注意: 覆盖已有数据库 {} (replacing the existing database)",
                db.display()
            );
            remove_db(&db)?;
        } else {
            eprintln!(
                "错误 error: 数据库 {} 已存在，拒绝覆盖；请换一个目录或加 --force (the database exists; refusing to overwrite it — use another --out or --force)",
                db.display()
            );
            return Ok(2);
        }
    }
    let store = SqliteStore::open(&db)?;
    let event = store.create_event(&reg.event.name)?;
    let mut sim = Simulator::new(reg.clone(), &source, &file_name, a.seed, &sizes);
    let mut state = EventState::new();
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(reg.sections.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} 组")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    loop {
        let batch = match sim.next_batch(&state) {
            Ok(Some(b)) => b,
            Ok(None) => break,
            Err(e) => {
                if let Some(b) = &bar {
                    b.abandon();
                }
                eprintln!("错误 error: {e}");
                return Ok(
                    if matches!(e, arbiter_director::DirectorError::Pairing { .. }) {
                        3
                    } else {
                        1
                    },
                );
            }
        };
        if batch.entries.is_empty() {
            continue;
        }
        let expected = state.last_seq;
        store.append(&event, expected, &batch.entries, &batch.actor, &batch.at)?;
        for r in batch.recorded(expected) {
            state.apply(&r).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        if let Some(b) = &bar {
            let (done, _) = sim.progress();
            b.set_position(done as u64);
            b.set_message(format!("第{}条日志", state.last_seq));
            b.tick();
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let computed = compute(&reg, &state)?;
    let export = build(&reg, &state, &computed);
    std::fs::write(a.out.join("export.json"), export.to_json())
        .context("无法写入 export.json (cannot write export.json)")?;
    // One TRF-16 file per Swiss section.
    for sec in &reg.sections {
        let Some(t) = arbiter_director::trf_export::section_trf(&reg, &state, &computed, &sec.id)?
        else {
            continue;
        };
        std::fs::write(
            a.out.join(format!("{}.trf", sec.id)),
            arbiter_trf::write(&t),
        )
        .with_context(|| format!("无法写入 {}.trf (cannot write the TRF file)", sec.id))?;
    }
    let refused = state.refused.len();
    let registered = state.players.len();
    print!("{}", summary_zh(&reg, &state, &computed));
    println!(
        "  报名 {registered} 人，拒绝 {refused} 人；日志 {} 条；输出目录 {}",
        state.last_seq,
        a.out.display()
    );
    if state.last_seq == 0 {
        bail!("没有写入任何日志 (nothing was recorded)");
    }
    Ok(0)
}
