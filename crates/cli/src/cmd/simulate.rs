//! `arbiter simulate`: run a whole reference event from its regulation file into a fresh
//! SQLite database, write `export.json`, one TRF-16 file per Swiss section and a summary.

use anyhow::{bail, Context};
use arbiter_core::EventState;
use arbiter_director::publish::{build, compute, summary_zh};
use arbiter_simulate::{Simulator, Sizes};
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
                    format!("--players 「{item}」: 「{n}」 不是人数 (not a number of players)")
                })?;
                s.by_section.insert(sec.trim().to_string(), n);
            }
            None => {
                let n: usize = item.trim().parse().map_err(|_| {
                    format!("--players 「{item}」: 应为 N 或 组别=N (expected N or SECTION=N)")
                })?;
                s.all = Some(n);
            }
        }
    }
    Ok(s)
}

/// Files a simulation writes into `--out`; anything else there is not ours to replace.
fn is_output(name: &str) -> bool {
    matches!(
        name,
        "arbiter.db" | "arbiter.db-wal" | "arbiter.db-shm" | "arbiter.db-journal" | "export.json"
    ) || name.ends_with(".trf")
}

pub(crate) enum StageError {
    /// The output folder cannot be replaced (message for the arbiter, exit 2).
    Refused(String),
    Io(anyhow::Error),
}

/// A simulation's output built in a temporary folder beside `--out` (same file system) and
/// moved into place by [`Staging::commit`]: `--out` then holds the complete new run, and until
/// then the complete old one (or nothing). Dropped without a commit, the folder is removed.
pub(crate) struct Staging {
    out: PathBuf,
    tmp: PathBuf,
    committed: bool,
}

impl Staging {
    pub(crate) fn begin(out: &Path, force: bool) -> Result<Staging, StageError> {
        let io =
            |what: String| move |e: std::io::Error| StageError::Io(anyhow::anyhow!("{what}: {e}"));
        // `--out .` or `--out ..`: name the folder by its absolute path.
        let out = if out.file_name().is_none() {
            std::fs::canonicalize(out).map_err(io(format!("{}", out.display())))?
        } else {
            out.to_path_buf()
        };
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(io(format!(
            "无法创建目录 {} (cannot create the output directory)",
            parent.display()
        )))?;
        if out.exists() {
            if !out.is_dir() {
                return Err(StageError::Refused(format!(
                    "错误 error: {} 不是目录 (not a directory)",
                    out.display()
                )));
            }
            let db = out.join("arbiter.db");
            if db.exists() && !force {
                return Err(StageError::Refused(format!(
                    "错误 error: 数据库 {} 已存在，拒绝覆盖；请换一个目录或加 --force (the database exists; refusing to overwrite it — use another --out or --force)",
                    db.display()
                )));
            }
            let entries = std::fs::read_dir(&out).map_err(io(format!("{}", out.display())))?;
            for e in entries.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                if !is_output(&n) {
                    return Err(StageError::Refused(format!(
                        "错误 error: 输出目录 {} 中有不属于模拟结果的文件 「{n}」，拒绝替换该目录；请换一个目录 (the output folder holds 「{n}」, which a simulation did not write; refusing to replace the folder — use another --out)",
                        out.display()
                    )));
                }
            }
            if db.exists() {
                eprintln!(
                    "注意: 完成后将替换已有的 {} (the existing run is replaced when this one is complete)",
                    out.display()
                );
            }
        }
        sweep(&parent, &name);
        let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp).map_err(io(format!("{}", tmp.display())))?;
        }
        std::fs::create_dir(&tmp).map_err(io(format!(
            "无法创建临时目录 {} (cannot create the staging folder)",
            tmp.display()
        )))?;
        Ok(Staging {
            out,
            tmp,
            committed: false,
        })
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.tmp
    }

    /// Move the finished run into place: the old folder aside, the new one in, the old one
    /// removed. Each step is a rename, so `--out` is always a complete run or absent.
    pub(crate) fn commit(mut self) -> anyhow::Result<()> {
        let old = self.tmp.with_file_name(
            self.tmp
                .file_name()
                .map(|n| n.to_string_lossy().replace(".tmp-", ".old-"))
                .unwrap_or_default(),
        );
        let had_old = self.out.exists();
        if had_old {
            std::fs::rename(&self.out, &old).with_context(|| {
                format!(
                    "无法移开旧的 {} (cannot move the old run aside)",
                    self.out.display()
                )
            })?;
        }
        std::fs::rename(&self.tmp, &self.out).with_context(|| {
            format!(
                "无法写入 {} (cannot move the run into place)",
                self.out.display()
            )
        })?;
        self.committed = true;
        if had_old {
            let _ = std::fs::remove_dir_all(&old);
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Remove staging folders of `--out NAME` left by runs that were killed (their process is
/// gone). A run killed between moving the old folder aside and moving the new one in leaves
/// `--out` absent and the old run in `.NAME.old-PID`; it is put back if `--out` is still absent.
fn sweep(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let alive = |pid: &str| {
        pid.parse::<u32>()
            .is_ok_and(|p| p == std::process::id() || Path::new(&format!("/proc/{p}")).exists())
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = n.strip_prefix(&format!(".{name}.")) else {
            continue;
        };
        let (kind, pid) = match rest.split_once('-') {
            Some(x) => x,
            None => continue,
        };
        if !matches!(kind, "tmp" | "old") || alive(pid) {
            continue;
        }
        let out = parent.join(name);
        if kind == "old" && !out.exists() && std::fs::rename(e.path(), &out).is_ok() {
            continue;
        }
        let _ = std::fs::remove_dir_all(e.path());
    }
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
                .map(|c| format!("，是否为 「{c}」? (did you mean 「{c}」?)"))
                .unwrap_or_default();
            return Err(format!(
                "错误 error: --players: 规程中没有组别 「{sec}」{hint} (unknown section)"
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
    // All or nothing: the run is built in a folder beside `--out` and renamed into place at
    // the end; a run killed or failed before that leaves `--out` as it was.
    let stage = match Staging::begin(&a.out, a.force) {
        Ok(s) => s,
        Err(StageError::Refused(msg)) => {
            eprintln!("{msg}");
            return Ok(2);
        }
        Err(StageError::Io(e)) => return Err(e),
    };
    let dir = stage.dir().to_path_buf();
    let db = dir.join("arbiter.db");
    let store = SqliteStore::open(&db)?;
    let event = store.create_event(&reg.event.name)?;
    let mut sim = Simulator::new(reg.clone(), &source, &file_name, a.seed, &sizes);
    // What the regulation promises that this simulated field cannot produce.
    for w in sim.warnings() {
        eprintln!("警告 (warning): {w}");
    }
    let mut log = arbiter_store::write::KeptLog {
        store: &store,
        event,
        state: EventState::new(),
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(reg.sections.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} 组")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    loop {
        match sim.step(&mut log)? {
            Ok(Some(_)) => {}
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
        }
        if let Some(b) = &bar {
            let (done, _) = sim.progress();
            b.set_position(done as u64);
            b.set_message(format!("第{}条日志", log.state.last_seq));
            b.tick();
        }
    }
    let state = log.state;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let computed = compute(&reg, &state)?;
    let export = build(&reg, &state, &computed);
    std::fs::write(dir.join("export.json"), export.to_json())
        .context("无法写入 export.json (cannot write export.json)")?;
    // One TRF-16 file per Swiss section.
    for sec in &reg.sections {
        let Some(t) = arbiter_director::trf_export::section_trf(&reg, &state, &computed, &sec.id)?
        else {
            continue;
        };
        std::fs::write(dir.join(format!("{}.trf", sec.id)), arbiter_trf::write(&t))
            .with_context(|| format!("无法写入 {}.trf (cannot write the TRF file)", sec.id))?;
    }
    if state.last_seq == 0 {
        bail!("没有写入任何日志 (nothing was recorded)");
    }
    drop(store);
    stage.commit()?;
    let refused = state.refused.len();
    let registered = state.players.len();
    print!("{}", summary_zh(&reg, &state, &computed));
    println!(
        "  报名 {registered} 人，拒绝 {refused} 人；日志 {} 条；输出目录 {}",
        state.last_seq,
        a.out.display()
    );
    Ok(0)
}
