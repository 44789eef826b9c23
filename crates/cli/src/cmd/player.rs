//! `arbiter player …`: add one player, import a CSV roster.

use super::event::{load, now, open_db};
use anyhow::Context;
use arbiter_core::roster::{parse_date, parse_sex};
use arbiter_core::{validate_at, EventState, LogEntry, PlayerRegistered, Recorded, RosterRow};
use arbiter_regulation::{EntryFacts, Evidence, Regulation, UnitKind};
use arbiter_store::EventStore;
use arbiter_types::{IdNumber, Phone};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum PlayerCmd {
    /// 报名一名棋手 — register one player (eligibility checked; refusals are recorded)
    Add(Box<AddArgs>),
    /// 导入报名表 — import a UTF-8 CSV roster (header row; Chinese or English headers)
    Import {
        #[arg(long)]
        event: String,
        file: PathBuf,
        /// 默认组别 — section for rows without a 组别 column
        #[arg(long)]
        section: Option<String>,
        /// 报名时间 (RFC 3339), default now
        #[arg(long)]
        at: Option<String>,
        #[arg(long, default_value = "arbiter")]
        actor: String,
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
    },
}

#[derive(Args)]
pub struct AddArgs {
    #[arg(long)]
    event: String,
    #[arg(long)]
    section: String,
    #[arg(long)]
    name: String,
    #[arg(long)]
    id_number: Option<String>,
    #[arg(long)]
    phone: Option<String>,
    #[arg(long)]
    unit: Option<String>,
    #[arg(long)]
    association: Option<String>,
    #[arg(long)]
    team: Option<String>,
    /// M|F (男|女)
    #[arg(long)]
    sex: Option<String>,
    /// YYYY-MM-DD
    #[arg(long)]
    birth: Option<String>,
    /// 证明材料 (social_security, business_licence, pledge, …), repeatable
    #[arg(long)]
    evidence: Vec<String>,
    /// 标记 (local, group_member, …), repeatable
    #[arg(long)]
    flag: Vec<String>,
    #[arg(long)]
    rating: Option<u32>,
    /// 报名时间 (RFC 3339), default now
    #[arg(long)]
    at: Option<String>,
    #[arg(long, default_value = "arbiter")]
    actor: String,
    #[arg(long, default_value = super::DEFAULT_DB)]
    db: PathBuf,
}

pub fn run(c: PlayerCmd) -> anyhow::Result<u8> {
    match c {
        PlayerCmd::Add(a) => add(*a),
        PlayerCmd::Import {
            event,
            file,
            section,
            at,
            actor,
            db,
        } => import(&event, &file, section, at, &actor, &db),
    }
}

fn invalid(msg: String) -> anyhow::Result<u8> {
    eprintln!("错误 error: {msg}");
    Ok(2)
}

fn add(a: AddArgs) -> anyhow::Result<u8> {
    let id_number = match a.id_number.as_deref().map(IdNumber::parse).transpose() {
        Ok(v) => v,
        Err(e) => return invalid(format!("--id-number: {e}")),
    };
    let phone = match a.phone.as_deref().map(Phone::parse).transpose() {
        Ok(v) => v,
        Err(e) => return invalid(format!("--phone: {e}")),
    };
    let sex = match a.sex.as_deref() {
        None => None,
        Some(s) => match parse_sex(s) {
            Some(x) => Some(x),
            None => return invalid(format!("--sex: `{s}` 应为 M/F 或 男/女 (unknown sex)")),
        },
    };
    let birth_date = match a.birth.as_deref() {
        None => None,
        Some(s) => match parse_date(s) {
            Some(d) => Some(d),
            None => {
                return invalid(format!(
                    "--birth: `{s}` 不是有效日期, 应为 YYYY-MM-DD (bad date)"
                ))
            }
        },
    };
    if let (Some(id), Some(s)) = (&id_number, sex) {
        if id.sex() != s {
            return invalid("--sex 与身份证号不符 (sex does not match the ID number)".into());
        }
    }
    if let (Some(id), Some(b)) = (&id_number, birth_date) {
        if id.birth_date() != b {
            return invalid(
                "--birth 与身份证号不符 (birth date does not match the ID number)".into(),
            );
        }
    }
    let row = RosterRow {
        line: 0,
        name: a.name.trim().to_string(),
        section: Some(a.section.clone()),
        sex: sex.or(id_number.as_ref().map(IdNumber::sex)),
        birth_date: birth_date.or(id_number.as_ref().map(IdNumber::birth_date)),
        id_number,
        phone,
        unit: a.unit,
        association: a.association,
        team: a.team,
        evidence: a.evidence,
        flags: a.flag,
        rating: a.rating,
    };
    let store = open_db(&a.db)?;
    let (ev, state) = load(&store, &a.event)?;
    let Some(section) = section_id(&state, &a.section) else {
        let hint = arbiter_types::closest(&a.section, state.sections.keys().map(String::as_str))
            .map(|h| format!(", 是否应为 `{h}`? (did you mean `{h}`?)"))
            .unwrap_or_default();
        return invalid(format!(
            "--section: 组别 `{}` 不存在 (unknown section){hint}",
            a.section
        ));
    };
    let reg = regulation(&state)?;
    let at = checked_time(a.at)?;
    let outcome = append_fresh(&store, &ev, state, &a.actor, &at, |pending| {
        pending.register(&reg, &row, &section, &at, &a.actor)
    })?;
    match outcome {
        Ok(pid) => {
            println!("已报名 registered: {pid} {} [{}]", row.name, section);
            Ok(0)
        }
        Err(reason) => {
            eprintln!("拒绝报名 refused: {} [{}]: {reason}", row.name, section);
            Ok(2)
        }
    }
}

fn import(
    event: &str,
    file: &Path,
    default_section: Option<String>,
    at: Option<String>,
    actor: &str,
    db: &Path,
) -> anyhow::Result<u8> {
    let bytes = std::fs::read(file)
        .with_context(|| format!("无法读取 {} (cannot read file)", file.display()))?;
    let fname = file.display().to_string();
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => return invalid(not_utf8(&fname, e.as_bytes(), e.utf8_error().valid_up_to())),
    };
    let rows = match arbiter_core::parse_roster(&text, &fname) {
        Ok(r) => r,
        Err(errs) => {
            for e in &errs {
                eprintln!("{e}");
            }
            eprintln!(
                "错误 error: {fname}: {} 处错误, 未导入任何棋手 ({} errors; nothing imported)",
                errs.len(),
                errs.len()
            );
            return Ok(2);
        }
    };
    let store = open_db(db)?;
    let (ev, state) = load(&store, event)?;
    // Rows naming no section or an unknown section make the file malformed (all-or-nothing).
    let mut errs = Vec::new();
    let only = (state.sections.len() == 1)
        .then(|| state.sections.keys().next().cloned())
        .flatten();
    let mut sections = Vec::new();
    for r in &rows {
        match r
            .section
            .clone()
            .or_else(|| default_section.clone())
            .or_else(|| only.clone())
        {
            Some(s) if section_id(&state, &s).is_some() => {
                sections.push(section_id(&state, &s).unwrap_or(s))
            }
            Some(s) => {
                let hint = arbiter_types::closest(&s, state.sections.keys().map(String::as_str))
                    .map(|h| format!(", 是否应为 `{h}`? (did you mean `{h}`?)"))
                    .unwrap_or_default();
                errs.push(format!(
                    "{fname}:{}: 第{}行: 组别 `{s}` 不存在 (unknown section){hint}",
                    r.line, r.line
                ))
            }
            None => errs.push(format!(
                "{fname}:{}: 第{}行: 未指定组别 (no section: add a 组别 column or --section)",
                r.line, r.line
            )),
        }
    }
    if !errs.is_empty() {
        for e in &errs {
            eprintln!("{e}");
        }
        eprintln!("错误 error: {fname}: 未导入任何棋手 (nothing imported)");
        return Ok(2);
    }
    let reg = regulation(&state)?;
    let at = checked_time(at)?;
    let (registered, refused) = append_fresh(&store, &ev, state, actor, &at, |pending| {
        let mut registered = 0;
        let mut refused = Vec::new();
        for (r, s) in rows.iter().zip(&sections) {
            match pending.register(&reg, r, s, &at, actor) {
                Ok(_) => registered += 1,
                Err(reason) => refused.push(format!(
                    "{fname}:{}: 第{}行 {} [{s}]: {reason}",
                    r.line, r.line, r.name
                )),
            }
        }
        (registered, refused)
    })?;
    println!(
        "已报名 {registered} 人, 拒绝 {} 人 (registered {registered}, refused {})",
        refused.len(),
        refused.len()
    );
    for r in &refused {
        println!("  拒绝 refused: {r}");
    }
    Ok(0)
}

/// The refusal of a file that is not UTF-8, naming the file and the line of the first bad
/// byte. Excel saves "CSV" in the local code page (GBK / GB18030 on Chinese Windows).
pub(crate) fn not_utf8(fname: &str, bytes: &[u8], valid_up_to: usize) -> String {
    let line = 1 + bytes[..valid_up_to].iter().filter(|&&b| b == b'\n').count();
    format!(
        "{fname}:{line}: 文件不是 UTF-8 编码, 可能是 Excel 保存的 GBK/GB18030 文件; 请在 Excel 中另存为「CSV UTF-8 (逗号分隔)」后再导入, 未导入任何棋手 (the file is not UTF-8 — probably GBK from Excel; save it as \"CSV UTF-8\" and import again; nothing imported)"
    )
}

/// Attempts of [`append_fresh`] before giving up on a log that keeps moving.
const ATTEMPTS: usize = 50;

/// Build the entries on `state` with `build` and append them expecting its last seq. When
/// another writer got in first, they are built again on the fresh state: a player id is
/// assigned against the log it is appended to, so a lost race never reaches the arbiter as a
/// refusal. Returns what `build` returned for the entries that were appended.
fn append_fresh<T>(
    store: &arbiter_store::SqliteStore,
    ev: &arbiter_store::EventId,
    mut state: EventState,
    actor: &str,
    at: &str,
    mut build: impl FnMut(&mut Pending) -> T,
) -> anyhow::Result<T> {
    for _ in 0..ATTEMPTS {
        let expected = state.last_seq;
        let mut pending = Pending::new(state);
        let out = build(&mut pending);
        if pending.entries.is_empty() {
            return Ok(out);
        }
        match store.append(ev, expected, &pending.entries, actor, at) {
            Ok(_) => return Ok(out),
            Err(arbiter_store::StoreError::Conflict { .. }) => state = store.state(ev)?,
            Err(e) => return Err(e.into()),
        }
    }
    anyhow::bail!(
        "数据库繁忙: {ATTEMPTS} 次追加均与其他写入冲突, 请重试 (the log kept moving on; try again)"
    )
}

/// A section given by id (`open`) or by its Chinese name (`公开组`).
fn section_id(state: &EventState, given: &str) -> Option<String> {
    let g = given.trim();
    if state.sections.contains_key(g) {
        return Some(g.to_string());
    }
    state
        .sections
        .values()
        .find(|s| s.name == g)
        .map(|s| s.id.clone())
}

fn checked_time(at: Option<String>) -> anyhow::Result<String> {
    match at {
        None => Ok(now()),
        Some(t) => {
            if arbiter_core::time::china_local(&t).is_none() {
                anyhow::bail!(
                    "--at `{t}` 不是 RFC 3339 时间, 例如 2026-09-01T10:00:00+08:00 (bad time)"
                );
            }
            Ok(t)
        }
    }
}

/// The regulation recorded in the event's log.
fn regulation(state: &EventState) -> anyhow::Result<Regulation> {
    let h = state
        .header
        .as_ref()
        .context("赛事没有规程 (event has no regulation)")?;
    arbiter_regulation::parse(&h.regulation, &h.file_name).map_err(|e| {
        anyhow::anyhow!("赛事记录的规程无法解析 (the event's regulation does not parse): {e}")
    })
}

/// Entries to append, built against a running copy of the state.
struct Pending {
    state: EventState,
    entries: Vec<LogEntry>,
}

impl Pending {
    fn new(state: EventState) -> Self {
        Pending {
            state,
            entries: Vec::new(),
        }
    }

    fn push(&mut self, e: LogEntry, at: &str, actor: &str) -> anyhow::Result<()> {
        let r = Recorded {
            seq: self.state.last_seq + 1,
            at: at.into(),
            actor: actor.into(),
            entry: e,
        };
        self.state.apply(&r)?;
        self.entries.push(r.entry);
        Ok(())
    }

    /// Register a row, or record the refusal and return its reason.
    fn register(
        &mut self,
        reg: &Regulation,
        r: &RosterRow,
        section: &str,
        at: &str,
        actor: &str,
    ) -> Result<arbiter_core::PlayerId, String> {
        let reason = match self.refusal(reg, r, section, at) {
            None => {
                let e = LogEntry::PlayerRegistered(PlayerRegistered {
                    player: self.state.next_player_id(),
                    section: section.to_string(),
                    name: r.name.clone(),
                    sex: r.sex,
                    birth_date: r.birth_date,
                    id_number: r.id_number.clone(),
                    phone: r.phone.clone(),
                    unit: r.unit.clone(),
                    association: r.association.clone(),
                    team: r.team.clone(),
                    evidence: r.evidence.clone(),
                    local: r.flags.iter().any(|f| f == "local"),
                    rating: r.rating,
                    flags: r.flags.clone(),
                });
                match validate_at(&self.state, &e, Some(at)) {
                    Ok(()) => {
                        let id = self.state.next_player_id();
                        return self
                            .push(e, at, actor)
                            .map(|_| id)
                            .map_err(|e| e.to_string());
                    }
                    Err(rej) => rej.to_string(),
                }
            }
            Some(reason) => reason,
        };
        let refused = LogEntry::EntryRefused {
            name: if r.name.is_empty() {
                "?".into()
            } else {
                r.name.clone()
            },
            section: section.to_string(),
            reason: reason.clone(),
            id_number: r.id_number.clone(),
            unit: r.unit.clone(),
            facts: Some(arbiter_core::RefusedFacts {
                sex: r.sex,
                birth_date: r.birth_date,
                unit: r.unit.clone(),
                association: r.association.clone(),
                team: r.team.clone(),
                evidence: r.evidence.clone(),
                flags: r.flags.clone(),
            }),
        };
        if let Err(e) = self.push(refused, at, actor) {
            return Err(format!("{reason}; {e}"));
        }
        Err(reason)
    }

    /// The regulation's eligibility verdict (`Section::check_entry`).
    fn refusal(&self, reg: &Regulation, r: &RosterRow, section: &str, at: &str) -> Option<String> {
        let sec = reg.sections.iter().find(|s| s.id == section)?;
        let unit = match reg.registration.unit_kind {
            UnitKind::Association => r.association.clone().or_else(|| r.unit.clone()),
            _ => r.unit.clone().or_else(|| r.association.clone()),
        };
        // Counts from the state's entry index (no scan of the players).
        let by = arbiter_director::registration::count_by(reg);
        let index = &self.state.index;
        let of_unit =
            |section: Option<&str>| unit.as_deref().map_or(0, |u| index.of_unit(by, section, u));
        let mut evidence = std::collections::BTreeSet::new();
        for e in &r.evidence {
            match serde_json::from_value::<Evidence>(serde_json::Value::String(e.clone())) {
                Ok(x) => {
                    evidence.insert(x);
                }
                Err(_) => return Some(format!("未知的证明材料 `{e}` (unknown evidence kind)")),
            }
        }
        let facts = EntryFacts {
            birth_date: r.birth_date,
            sex: r.sex,
            unit: unit.clone(),
            evidence,
            entry_time: arbiter_core::time::china_local(at),
            unit_in_section: of_unit(Some(section)),
            unit_overall: of_unit(None),
            section_total: index.in_section(section),
            flags: r.flags.iter().cloned().collect(),
        };
        sec.check_entry(&facts).err().map(|e| e.to_string())
    }
}
