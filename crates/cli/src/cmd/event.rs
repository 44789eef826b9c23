//! `arbiter event …`: create, list, show, export, import.

use super::rounds::Writer;
use anyhow::Context;
use arbiter_core::{EventState, PlayerStatus};
use arbiter_director::command::event::EventCommand;
use arbiter_store::{AnyStore, EventId, EventStore};
use clap::{Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum EventCmd {
    /// 创建赛事 — create an event from a regulation file; prints the new event id
    Create {
        /// 竞赛规程文件 (TOML)
        #[arg(long)]
        regulation: PathBuf,
        /// 抽签种子 — seed of every lot in this event (default: derived from the file)
        #[arg(long)]
        seed: Option<u64>,
        /// 本届赛事名称 — this edition's name (the regulation's is kept in the log; the name
        /// is recorded as a settings change right after the creation, as the desk does)
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        who: Writer,
    },
    /// 赛事列表 — list events
    List {
        /// JSON: an array of objects with `id` and `name`
        #[arg(long)]
        json: bool,
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
    },
    /// 赛事概况 — event name, sections with player counts, rounds played
    Show {
        id: String,
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
    },
    /// 操作日志 — the event's log, one sentence an entry: who did what, when (names, not
    /// numbers; ID numbers and phones never shown)
    Log {
        id: String,
        /// JSON: an array of objects with `seq`, `at`, `actor`, `sentence` and the recorded
        /// `entry` (ID numbers and phones masked), for audit
        #[arg(long)]
        json: bool,
        /// 语言 (默认 zh) — language of the sentences: zh or en
        #[arg(long, default_value = "zh")]
        lang: String,
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
    },
    /// 导出 — write the event's log (`arbiter-log/1`) to stdout
    Export {
        id: String,
        #[arg(long, value_enum, default_value_t = ExportFormat::Log)]
        format: ExportFormat,
        /// 隐去身份证号和手机号 — mask ID numbers and phones (the result cannot be re-imported faithfully)
        #[arg(long)]
        mask: bool,
        /// 组别 — section (for `--format trf`; for xlsx/csv: only this section)
        #[arg(long)]
        section: Option<String>,
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
        /// 输出文件 (xlsx) 或目录 (csv, 每表一个文件) — output file (xlsx) or folder (csv)
        #[arg(long)]
        out: Option<PathBuf>,
        /// 文档 (xlsx/csv), 可重复: checkin pairings results standings crosstable teams bracket prizes; 默认全部 — documents to export, repeatable (default all)
        #[arg(long = "doc", value_name = "NAME")]
        docs: Vec<String>,
        /// 主办方副本: 含完整身份证号和电话 (xlsx/csv); 默认隐去 — the organiser's copy with ID numbers and phones (masked otherwise)
        #[arg(long)]
        organiser: bool,
        /// 在 stderr 显示进度 (xlsx/csv; 终端中默认显示) — progress on stderr (default only on a terminal)
        #[arg(long)]
        progress: bool,
    },
    /// 复核 — replay the log from scratch, recompute every pairing check, score, standing and
    /// prize; exits non-zero on any difference
    Verify {
        /// 数据库文件 (e.g. out/kunshan/arbiter.db)
        db: PathBuf,
    },
    /// 闭幕 — close the event once every section is finished: final standings, team standings
    /// and prizes are fixed in the log; no result or correction is taken afterwards until the
    /// chief arbiter reopens it (`event reopen`)
    Close {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 重新开启 — the chief arbiter reopens a closed event, with the reason (then `event close`
    /// again)
    Reopen {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 理由 — reason (recorded)
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 赛事设置 — change the event's settings (`settings_changed`): name, dates, venue, the
    /// registration deadline, the date ages are counted on, a section's Swiss rounds or slow
    /// time control. Only what differs from the settings in force is recorded; after round 1
    /// only the chief arbiter, with a reason
    Settings {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 赛事名称 — the event's name
        #[arg(long)]
        name: Option<String>,
        /// 开始日期 YYYY-MM-DD — first day
        #[arg(long)]
        start: Option<chrono::NaiveDate>,
        /// 结束日期 YYYY-MM-DD — last day
        #[arg(long)]
        end: Option<chrono::NaiveDate>,
        /// 地点 — venue
        #[arg(long)]
        venue: Option<String>,
        /// 报名截止 (北京时间) "YYYY-MM-DD HH:MM" 或 YYYY-MM-DDTHH:MM — registration deadline, China time
        #[arg(long, value_parser = parse_local_time)]
        deadline: Option<chrono::NaiveDateTime>,
        /// 年龄计算日期 YYYY-MM-DD — the date ages are counted on
        #[arg(long)]
        age_on: Option<chrono::NaiveDate>,
        /// 组别轮数 SECTION=N (可重复) — Swiss rounds of a section (repeatable)
        #[arg(long = "rounds", value_name = "SECTION=N")]
        rounds: Vec<String>,
        /// 慢棋用时 SECTION=60+30 (可重复) — slow time control of a section (repeatable)
        #[arg(long = "time-control", value_name = "SECTION=60+30")]
        time_controls: Vec<String>,
        /// 上届划入某组的单位 DIVISION=单位甲、单位乙 (可重复; 留空即清除) — last edition's units
        /// placed in a team division, separated by 、 or commas (昆山 五(一); repeatable)
        #[arg(long = "placed-units", value_name = "DIVISION=UNITS")]
        placed_units: Vec<String>,
        /// 理由 (第1轮编排后必填) — reason (required after round 1)
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 竞赛官员 — record the event's officials (`officials_appointed`: 裁判长, 副裁判长, 编排长,
    /// 仲裁委员会 …) as appointed, in the order the booklets print them; the list replaces the
    /// one in force. Without --set or --clear, the officials are listed
    Officials {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 职务=姓名 (可重复; 同一职务多人以 、 分隔), 如 --set "裁判长=张三" --set "裁判员=李四、王五"
        /// — ROLE=NAMES, repeatable, in order
        #[arg(long = "set", value_name = "ROLE=NAMES")]
        set: Vec<String>,
        /// 撤销全部官员名单 — take the whole list back
        #[arg(long, conflicts_with = "set")]
        clear: bool,
        /// 理由 — reason (recorded in the log)
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 导入 — import an `arbiter-log/1` file as a new event; prints the new id. The log is
    /// replayed and verified first; a log that verify would reject, or one already in the
    /// database, is refused (exit 2) and nothing is written
    Import {
        file: PathBuf,
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
        /// 允许重复导入 — import even when an identical log is already in the database
        #[arg(long)]
        allow_duplicate: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// 完整日志 arbiter-log/1
    Log,
    /// 公开导出 arbiter-export/1
    Json,
    /// 一个组别的 TRF-16 文件 (需 --section) — one section as TRF-16
    Trf,
    /// Excel 工作簿, 每表一个工作表 (需 --out) — one workbook, a sheet per table
    Xlsx,
    /// CSV, 每表一个文件 (需 --out 目录) — one CSV file per table into a folder
    Csv,
}

/// Open the database `--db` names — a SQLite file, or PostgreSQL for a `postgres://…` URL —
/// naming it (without a password) on failure.
pub(crate) fn open_db(db: &Path) -> anyhow::Result<AnyStore> {
    let opened = match db.to_str().filter(|s| arbiter_store::is_postgres_url(s)) {
        Some(url) => arbiter_store::PgStore::connect(url).map(AnyStore::Postgres),
        None => arbiter_store::SqliteStore::open(db).map(AnyStore::Sqlite),
    };
    opened.with_context(|| {
        format!(
            "无法打开数据库 {} (cannot open database)",
            super::shown_db(db)
        )
    })
}

/// Read-only commands never create a database: a missing file is an error naming it (exit 2).
fn missing(db: &Path) -> Option<u8> {
    super::db_missing(db).then(|| {
        eprintln!(
            "错误 error: {}: 数据库不存在; 「arbiter event create」 会创建它 (database not found; 「event create」 creates it)",
            db.display()
        );
        2
    })
}

/// Current time as RFC 3339 (UTC+8): the shell supplies the clock, never the core.
pub(crate) fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    arbiter_core::time::rfc3339_from_unix(secs)
}

/// Resolve an event id given on the command line, with its state.
pub(crate) fn load(store: &AnyStore, id: &str) -> anyhow::Result<(EventId, EventState)> {
    let ev = EventId(id.trim().to_string());
    let state = store.state(&ev).map_err(|e| match store.list_events() {
        Ok(list) if !list.iter().any(|x| x.id == ev) => {
            let ids: Vec<&str> = list.iter().map(|x| x.id.0.as_str()).collect();
            let hint = arbiter_types::closest(id, ids.iter().copied())
                .map(|s| format!(", 是否应为 「{s}」? (did you mean 「{s}」?)"))
                .unwrap_or_default();
            anyhow::anyhow!("赛事 「{id}」 不存在 (unknown event){hint}")
        }
        _ => anyhow::Error::new(e),
    })?;
    Ok((ev, state))
}

pub fn run(c: EventCmd) -> anyhow::Result<u8> {
    match c {
        EventCmd::Create {
            regulation,
            seed,
            name,
            who,
        } => create(&regulation, seed, name.as_deref(), &who),
        EventCmd::Close { event, who } => close(&event, &who),
        EventCmd::Officials {
            event,
            set,
            clear,
            reason,
            who,
        } => officials(&event, &set, clear, &reason, &who),
        EventCmd::Reopen { event, reason, who } => {
            if let Some(e) = super::desk::checked_time(who.at.as_deref()) {
                return Ok(super::desk::refused(&e));
            }
            match who.apply(
                &event,
                EventCommand::Reopen {
                    reason: reason.clone(),
                },
            )? {
                Ok(_) => {
                    println!(
                        "赛事已重新开启, 理由: {} (event reopened; close it again with 「event close」)",
                        reason.trim()
                    );
                    Ok(0)
                }
                Err(e) => Ok(super::desk::refused(&e)),
            }
        }
        EventCmd::Settings {
            event,
            name,
            start,
            end,
            venue,
            deadline,
            age_on,
            rounds,
            time_controls,
            placed_units,
            reason,
            who,
        } => {
            if let Some(e) = super::desk::checked_time(who.at.as_deref()) {
                return Ok(super::desk::refused(&e));
            }
            let mut form = arbiter_director::api::event::SettingsForm {
                name,
                start,
                end,
                venue,
                deadline,
                age_on,
                reason,
                ..Default::default()
            };
            for r in &rounds {
                let Some((sec, n)) = r.split_once('=') else {
                    anyhow::bail!("--rounds 「{r}」 应为 组别=轮数 (expected SECTION=N)");
                };
                let Ok(n) = n.trim().parse::<u32>() else {
                    anyhow::bail!("--rounds 「{r}」: 轮数应为正整数 (rounds: a number)");
                };
                form.rounds.insert(sec.trim().to_string(), n);
            }
            for t in &time_controls {
                let Some((sec, tc)) = t.split_once('=') else {
                    anyhow::bail!(
                        "--time-control 「{t}」 应为 组别=60+30 (expected SECTION=60+30)"
                    );
                };
                form.time_controls
                    .insert(sec.trim().to_string(), tc.trim().to_string());
            }
            for p in &placed_units {
                let Some((division, units)) = p.split_once('=') else {
                    anyhow::bail!(
                        "--placed-units 「{p}」 应为 组别=单位甲、单位乙 (expected DIVISION=UNITS)"
                    );
                };
                form.placed_units
                    .insert(division.trim().to_string(), units.to_string());
            }
            match who.apply(&event, EventCommand::ChangeSettings { form })? {
                Ok(done) => {
                    super::tell(&who.db, &event, &done);
                    Ok(0)
                }
                Err(e) => Ok(super::desk::refused(&e)),
            }
        }
        EventCmd::List { json, db } => {
            if let Some(code) = missing(&db) {
                return Ok(code);
            }
            let store = open_db(&db)?;
            let list = store.list_events()?;
            if json {
                println!("{}", serde_json::to_string_pretty(&list)?);
            } else if list.is_empty() {
                println!("(没有赛事 no events)");
            } else {
                for e in list {
                    println!("{}\t{}", e.id, e.name);
                }
            }
            Ok(0)
        }
        EventCmd::Show { id, db } => {
            if let Some(code) = missing(&db) {
                return Ok(code);
            }
            let store = open_db(&db)?;
            let (ev, state) = load(&store, &id)?;
            print!("{}", show(&ev, &state));
            Ok(0)
        }
        EventCmd::Log { id, json, lang, db } => log(&id, json, &lang, &db),
        EventCmd::Export {
            id,
            format,
            mask,
            section,
            db,
            out,
            docs,
            organiser,
            progress,
        } => {
            if matches!(format, ExportFormat::Xlsx | ExportFormat::Csv) {
                return export_tables(
                    &db,
                    &id,
                    format,
                    section.as_deref(),
                    out,
                    &docs,
                    (organiser, mask),
                    progress,
                );
            }
            if out.is_some() || !docs.is_empty() || organiser || progress {
                eprintln!(
                    "错误 error: 「--out」, 「--doc」, 「--organiser」, 「--progress」 只用于 「--format xlsx|csv」 (only with xlsx or csv)"
                );
                return Ok(2);
            }
            if format == ExportFormat::Trf {
                return super::director_cmds::export_trf(&db, &id, section.as_deref());
            }
            if format == ExportFormat::Json {
                if mask {
                    // A bad flag combination is invalid input (exit 2), like any bad flag.
                    eprintln!(
                        "错误 error: 「--mask」 只用于 「--format log」; 「--format json」 本身不含个人信息 (the published export never holds personal data)"
                    );
                    return Ok(2);
                }
                return super::director_cmds::export_json(&db, &id);
            }
            if let Some(code) = missing(&db) {
                return Ok(code);
            }
            let store = open_db(&db)?;
            let (ev, _) = load(&store, &id)?;
            let doc = store.export(&ev)?;
            let mut v = serde_json::to_value(&doc)?;
            if mask {
                arbiter_core::mask_value(&mut v);
            }
            println!("{}", serde_json::to_string_pretty(&v)?);
            Ok(0)
        }
        EventCmd::Verify { db } => super::director_cmds::verify(&db),
        EventCmd::Import {
            file,
            db,
            allow_duplicate,
        } => import(&file, &db, allow_duplicate),
    }
}

/// `event log`: every entry of the log as the director words it (`log_view`), grouped by
/// day; `--json` adds the recorded entries, masked.
fn log(id: &str, json: bool, lang: &str, db: &Path) -> anyhow::Result<u8> {
    use arbiter_director::log_view::{log_lines, Account, Language};
    use arbiter_store::AccountStore;
    let language = match lang.trim() {
        "zh" => Language::Zh,
        "en" => Language::En,
        other => {
            eprintln!(
                "错误 error: --lang: 未知的语言 「{other}」, 可选 zh 或 en (unknown language)"
            );
            return Ok(2);
        }
    };
    if let Some(code) = missing(db) {
        return Ok(code);
    }
    let store = open_db(db)?;
    let (ev, _) = load(&store, id)?;
    let records = store.read(&ev)?;
    let accounts: std::collections::BTreeMap<String, Account> = store
        .users()?
        .into_iter()
        .map(|u| {
            (
                u.login,
                Account {
                    role: u.role,
                    name: u.display_name,
                },
            )
        })
        .collect();
    let lines = log_lines(&records, language, &accounts, |_| true);
    if json {
        let list: Vec<serde_json::Value> = lines
            .iter()
            .zip(&records)
            .map(|(l, r)| {
                serde_json::json!({
                    "seq": r.seq,
                    "at": r.at,
                    "actor": r.actor,
                    "sentence": l.sentence(),
                    "entry": r.entry.masked_json(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(0);
    }
    let mut day = String::new();
    for l in &lines {
        if l.date != day {
            day = l.date.clone();
            println!("{day}");
        }
        println!("  {:>5}  {}", l.seq, l.sentence());
    }
    Ok(0)
}

/// `event import`: parse, replay and verify the log before anything is written; refuse a log
/// already in the database unless `allow_duplicate`. Refusals exit 2 with the reason.
fn import(file: &Path, db: &Path, allow_duplicate: bool) -> anyhow::Result<u8> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("无法读取 {} (cannot read file)", file.display()))?;
    let refuse = |why: &str| {
        eprintln!("错误 error: {}: {why}", file.display());
        Ok(2)
    };
    let doc = match arbiter_store::parse_export(&text) {
        Ok(d) => d,
        Err(e) => return refuse(&e.to_string()),
    };
    if doc.entries.is_empty() {
        return refuse("日志没有任何条目, 不是一个赛事 (the log has no entries)");
    }
    let diffs = arbiter_director::verify(&doc.entries, None);
    if !diffs.is_empty() {
        let list: Vec<String> = diffs.iter().take(10).map(|d| format!("  {d}")).collect();
        let more = diffs
            .len()
            .checked_sub(10)
            .filter(|&n| n > 0)
            .map(|n| format!("\n  … 另有 {n} 处 ({n} more)"))
            .unwrap_or_default();
        return refuse(&format!(
            "日志复核未通过, 未导入 (the log fails verify; nothing imported):\n{}{more}",
            list.join("\n")
        ));
    }
    let store = open_db(db)?;
    if !allow_duplicate {
        for ev in store.list_events()? {
            if ev.name == doc.name && store.read(&ev.id)? == doc.entries {
                return refuse(&format!(
                    "数据库中已有相同的赛事 {} {}, 未重复导入; 确需再导入一份请加 --allow-duplicate (the same log is already event {}; use --allow-duplicate to import a second copy)",
                    ev.id, ev.name, ev.id
                ));
            }
        }
    }
    match store.create_with_log(&doc.name, &doc.entries) {
        Ok(id) => {
            println!("{id}");
            Ok(0)
        }
        Err(e) => refuse(&e.to_string()),
    }
}

fn create(path: &Path, seed: Option<u64>, name: Option<&str>, who: &Writer) -> anyhow::Result<u8> {
    if let Some(e) = super::desk::checked_time(who.at.as_deref()) {
        eprintln!("错误 error: {e}");
        return Ok(2);
    }
    let source = std::fs::read_to_string(path).with_context(|| {
        format!(
            "无法读取规程文件 {} (cannot read regulation)",
            path.display()
        )
    })?;
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The regulation is checked with the path as given, so its errors name it.
    let notices = match arbiter_regulation::parse(&source, &path.display().to_string()) {
        Ok(reg) => reg.placement_units_missing(),
        Err(e) => {
            eprintln!("{e}");
            return Ok(2);
        }
    };
    let store = open_db(&who.db)?;
    let clock = || arbiter_director::api::write::at_or_now(who.at.as_deref(), now);
    let ctx = match super::ctx_of(&store, &who.actor, who.as_user.as_deref(), &clock)? {
        Ok(c) => c,
        Err(e) => return Ok(super::desk::refused(&e)),
    };
    let cmd = EventCommand::Create {
        source,
        file_name,
        seed,
        settings: name.map(str::trim).filter(|n| !n.is_empty()).map(|n| {
            arbiter_director::api::event::SettingsForm {
                name: Some(n.to_string()),
                ..Default::default()
            }
        }),
    }
    .into();
    // Event row and its first entry in one transaction.
    let mut book = arbiter_store::write::StoreBook(&store);
    match arbiter_director::api::write::create(&mut book, &ctx, &clock, &cmd)? {
        Ok(made) => {
            println!("{}", made.id);
            // 昆山 五(一): what this edition must fill in, and what happens until it does.
            for n in notices {
                eprintln!("注意 notice: {n}");
            }
            Ok(0)
        }
        Err(e) => Ok(super::desk::refused(&super::refusal::words(&e))),
    }
}

/// `event officials`: list the officials, or record a new list (`--set`, `--clear`).
fn officials(
    event: &str,
    set: &[String],
    clear: bool,
    reason: &str,
    who: &Writer,
) -> anyhow::Result<u8> {
    use arbiter_director::api::officials;
    if set.is_empty() && !clear {
        let state = match super::load_state(&who.db, event)? {
            Ok(s) => s,
            Err(msg) => {
                eprintln!("错误 error: {msg}");
                return Ok(2);
            }
        };
        let roles = officials::by_role(&state);
        if roles.is_empty() {
            println!("尚未登记竞赛官员 (no officials recorded)");
        }
        for (role, names) in roles {
            println!("{role}: {}", names.join("、"));
        }
        return Ok(0);
    }
    let list = match officials::parse_lines(set.iter().map(String::as_str)) {
        Ok(l) => l,
        Err(line) => {
            eprintln!(
                "错误 error: --set 「{line}」 应为 职务=姓名, 如 裁判长=张三 (expected ROLE=NAMES)"
            );
            return Ok(2);
        }
    };
    match who.apply(
        event,
        EventCommand::AppointOfficials {
            officials: list,
            reason: reason.to_string(),
        },
    )? {
        Ok(done) => {
            super::tell(&who.db, event, &done);
            Ok(0)
        }
        Err(e) => Ok(super::desk::refused(&e)),
    }
}

/// `event close`: the closing entry, and the final places it fixed.
fn close(event: &str, who: &Writer) -> anyhow::Result<u8> {
    if let Some(e) = super::desk::checked_time(who.at.as_deref()) {
        return Ok(super::desk::refused(&e));
    }
    match who.apply(event, EventCommand::Close)? {
        Ok(done) => {
            super::tell(&who.db, event, &done);
            Ok(0)
        }
        Err(e) => Ok(super::desk::refused(&e)),
    }
}

/// The `event show` text (Chinese; personal data never appears here).
fn show(ev: &EventId, s: &EventState) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(o, "赛事: {} ({ev})", s.name());
    if let Some(h) = &s.header {
        let _ = writeln!(o, "规程文件: {}  抽签种子: {}", h.file_name, h.seed);
    }
    let _ = writeln!(o, "组别:");
    for sec in s.sections.values() {
        let players = s.players(&sec.id);
        let count = |st: PlayerStatus| {
            players
                .iter()
                .filter(|p| s.status(p.id) == Some(st))
                .count()
        };
        let paired = sec.last_round();
        let done = sec.completed_rounds();
        // The knockout's rounds are counted beside the Swiss's (they are not paired rounds).
        let knockout = arbiter_director::regulation_of(s)
            .ok()
            .and_then(|reg| {
                arbiter_director::knockout_stage::progress(&reg, s, &sec.id)
                    .ok()
                    .flatten()
            })
            .map(|p| {
                format!(
                    "; 淘汰赛 {} 轮 (第{}–{}轮), 已开始 {} 轮, 已完成 {} 轮 (knockout: {} rounds, {} begun, {} finished)",
                    p.rounds,
                    p.first_round,
                    p.first_round + p.rounds - 1,
                    p.started,
                    p.finished,
                    p.rounds,
                    p.started,
                    p.finished
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "  {} [{}]: {} 人 (正常 {}, 未缴费 {}, 退赛 {}); 已编排 {} 轮, 已完成 {} 轮{}{knockout}",
            sec.name,
            sec.id,
            players.len(),
            count(PlayerStatus::Active),
            count(PlayerStatus::Unpaid),
            count(PlayerStatus::Withdrawn),
            paired,
            done,
            if sec.order.is_empty() {
                ", 未抽签"
            } else {
                ""
            }
        );
        if let Some(into) = &sec.merged_into {
            let name = s.section(into).map_or(into.as_str(), |x| x.name.as_str());
            let _ = writeln!(
                o,
                "    已并入{name} [{into}], 不再接受报名 (merged into {into}: no more entries)"
            );
        }
    }
    for b in arbiter_director::api::entries::below_minimum(s) {
        let _ = writeln!(o, "注意: {b}");
    }
    if !s.teams.is_empty() {
        let _ = writeln!(o, "队伍: {} 支", s.teams.len());
    }
    if !s.refused.is_empty() {
        let _ = writeln!(o, "拒绝报名: {} 人", s.refused.len());
        for r in &s.refused {
            let id = r
                .id_number
                .as_ref()
                .map(|i| format!(" {}", i.masked()))
                .unwrap_or_default();
            let sec = s
                .section(&r.section)
                .map_or(r.section.as_str(), |x| x.name.as_str());
            let _ = writeln!(o, "  {}{id} [{sec}]: {}", r.name, r.reason);
        }
    }
    let _ = writeln!(o, "日志条目: {}", s.last_seq);
    o
}

/// `event export --format xlsx|csv`: the tables of the event's documents.
#[allow(clippy::too_many_arguments)]
fn export_tables(
    db: &Path,
    id: &str,
    format: ExportFormat,
    section: Option<&str>,
    out: Option<PathBuf>,
    docs: &[String],
    (organiser, mask): (bool, bool),
    progress: bool,
) -> anyhow::Result<u8> {
    use arbiter_documents::tables as export;
    let show_progress = progress || std::io::IsTerminal::is_terminal(&std::io::stderr());
    let Some(out) = out else {
        eprintln!("错误 error: 「--format xlsx|csv」 需要 「--out」 (xlsx: 文件; csv: 目录) (an output path is required)");
        return Ok(2);
    };
    if mask && organiser {
        eprintln!("错误 error: 「--mask」 与 「--organiser」 不能同时使用 (contradictory flags)");
        return Ok(2);
    }
    let mut kinds = Vec::new();
    for d in docs {
        match arbiter_report::DocKind::parse(d) {
            Ok(k) if export::EXPORTED.contains(&k) => kinds.push(k),
            Ok(k) => {
                eprintln!(
                    "错误 error: 「{}」 只能打印, 不能导出为表格; 请用 「arbiter print」 (print-only document)",
                    k.name()
                );
                return Ok(2);
            }
            Err(e) => {
                eprintln!("错误 error: {e}");
                return Ok(2);
            }
        }
    }
    if kinds.is_empty() {
        kinds = export::EXPORTED.to_vec();
    }
    let state = match super::load_state(db, id)? {
        Ok(s) => s,
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    let privacy = if organiser {
        arbiter_report::Privacy::Organiser
    } else {
        arbiter_report::Privacy::Published
    };
    let mut notices = Vec::new();
    let mut built = |t: &[arbiter_report::Table]| {
        if show_progress {
            let rows: usize = t.iter().map(|t| t.rows.len()).sum();
            eprintln!(
                "进度 progress: {} 个表已生成 (tables built), {rows} 行 (rows)",
                t.len()
            );
        }
    };
    let tables = match export::tables_with_progress(
        &state,
        &kinds,
        section,
        privacy,
        &mut notices,
        &mut built,
    ) {
        Ok(t) => t,
        Err(arbiter_report::ReportError::Event(e)) => anyhow::bail!("{e}"),
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    for n in &notices {
        eprintln!("注意 notice: 未导出 not exported: {n}");
    }
    let title = state.name().to_string();
    match format {
        ExportFormat::Xlsx => {
            let total = tables.len();
            let mut written = |n: usize, rows: usize| {
                if show_progress {
                    eprintln!(
                        "进度 progress: {n}/{total} 个表已写入 (tables written), {rows} 行 (rows)"
                    );
                }
            };
            let bytes = export::xlsx_with_progress(&tables, &title, &mut written)?;
            std::fs::write(&out, bytes)
                .with_context(|| format!("无法写入 {} (cannot write)", out.display()))?;
            println!(
                "已导出 exported: {} ({} 个表 tables{})",
                out.display(),
                tables.len(),
                if organiser {
                    ", 主办方副本 organiser's copy"
                } else {
                    ""
                }
            );
        }
        _ => {
            std::fs::create_dir_all(&out).with_context(|| {
                format!("无法创建目录 {} (cannot create folder)", out.display())
            })?;
            let names = export::csv_names(&tables);
            let total = tables.len();
            let mut rows = 0;
            for (n, (t, name)) in tables.iter().zip(&names).enumerate() {
                let p = out.join(name);
                std::fs::write(&p, export::csv(t)?)
                    .with_context(|| format!("无法写入 {} (cannot write)", p.display()))?;
                rows += t.rows.len();
                if show_progress {
                    eprintln!(
                        "进度 progress: {}/{total} 个表已写入 (tables written), {rows} 行 (rows)",
                        n + 1
                    );
                }
            }
            println!(
                "已导出 exported: {} ({} 个 CSV 文件 files{})",
                out.display(),
                names.len(),
                if organiser {
                    ", 主办方副本 organiser's copy"
                } else {
                    ""
                }
            );
        }
    }
    Ok(0)
}

/// A local (China) time as typed (`arbiter_import::roster::parse_local_time`).
fn parse_local_time(s: &str) -> Result<chrono::NaiveDateTime, String> {
    arbiter_import::roster::parse_local_time(s).ok_or_else(|| {
        format!(
            "时间 「{}」 应为 YYYY-MM-DD HH:MM (expected a date and time)",
            s.trim()
        )
    })
}
