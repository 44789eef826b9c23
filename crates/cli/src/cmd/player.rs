//! `arbiter player …`: add one player, import a CSV roster, withdraw a player, mark him
//! absent for a round. Every one goes through the director's API
//! (`arbiter_director::api::entries`) and [`super::apply_op_at`]: this file only parses.

use super::desk::{checked_time, parse_player, refused, section_id};
use anyhow::Context;
use arbiter_core::roster::{parse_date, parse_sex};
use arbiter_core::{EventState, LogEntry, RosterRow};
use arbiter_director::api::entries as api;
use arbiter_director::registration::EntryForm;
use arbiter_types::{IdNumber, Phone};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum PlayerCmd {
    /// 报名一名棋手 — register one player (eligibility checked; refusals are recorded)
    Add(Box<AddArgs>),
    /// 导入报名表 — import a UTF-8 CSV roster (header row; Chinese or English headers)
    Import {
        /// 赛事编号 — event id (ev-00000001)
        #[arg(long)]
        event: String,
        /// 报名表 (CSV, UTF-8) — roster file; unknown columns (序号, 备注, …) are ignored
        file: PathBuf,
        /// 默认组别 — section for rows without a 组别 column
        #[arg(long)]
        section: Option<String>,
        /// 报名时间 (RFC 3339), default now
        #[arg(long)]
        at: Option<String>,
        /// 操作人 — who makes the change (recorded in the log)
        #[arg(long, default_value = "arbiter")]
        actor: String,
        /// 数据库文件 — database file (must exist: `event create` makes it)
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
    },
    /// 退赛 — withdraw a player, with the reason; his results so far stand
    Withdraw {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 棋手编号 — player id (P3 or 3)
        #[arg(long)]
        player: String,
        /// 退赛理由 — reason (recorded)
        #[arg(long)]
        reason: String,
        /// 数据库文件 — database file
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
        /// 操作人 — who makes the change (recorded in the log)
        #[arg(long, default_value = "arbiter")]
        actor: String,
        /// 记录时间 (RFC 3339), 默认为当前时间 — time recorded (default now)
        #[arg(long)]
        at: Option<String>,
    },
    /// 请假 — mark a player absent for a round not yet paired (not paired; scores as absent)
    Absent {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 棋手编号 — player id (P3 or 3)
        #[arg(long)]
        player: String,
        /// 轮次 — round number
        #[arg(long)]
        round: u32,
        /// 理由 — reason (optional, recorded)
        #[arg(long)]
        reason: Option<String>,
        /// 数据库文件 — database file
        #[arg(long, default_value = super::DEFAULT_DB)]
        db: PathBuf,
        /// 操作人 — who makes the change (recorded in the log)
        #[arg(long, default_value = "arbiter")]
        actor: String,
        /// 记录时间 (RFC 3339), 默认为当前时间 — time recorded (default now)
        #[arg(long)]
        at: Option<String>,
    },
}

#[derive(Args)]
pub struct AddArgs {
    /// 赛事编号 — event id (ev-00000001)
    #[arg(long)]
    event: String,
    /// 组别 — section id or its Chinese name
    #[arg(long)]
    section: String,
    /// 姓名 — name
    #[arg(long)]
    name: String,
    /// 身份证号 — ID number (18 digits; gives sex and birth date)
    #[arg(long)]
    id_number: Option<String>,
    /// 手机号 — mobile phone
    #[arg(long)]
    phone: Option<String>,
    /// 单位 — work unit / club
    #[arg(long)]
    unit: Option<String>,
    /// 协会 — county / district association
    #[arg(long)]
    association: Option<String>,
    /// 队名 — team name (joins that team's roster)
    #[arg(long)]
    team: Option<String>,
    /// 性别 M|F (男|女)
    #[arg(long)]
    sex: Option<String>,
    /// 出生日期 YYYY-MM-DD
    #[arg(long)]
    birth: Option<String>,
    /// 证明材料, 规程名或中文名 (social_security / 社保证明, accident_insurance / 意外伤害保险, …), repeatable
    #[arg(long)]
    evidence: Vec<String>,
    /// 标记 (local, group_member, …), repeatable
    #[arg(long)]
    flag: Vec<String>,
    /// 等级分 — rating
    #[arg(long)]
    rating: Option<u32>,
    /// 报名时间 (RFC 3339), default now
    #[arg(long)]
    at: Option<String>,
    /// 补报理由 — the chief arbiter admits this entry after the deadline, for this reason (recorded)
    #[arg(long)]
    late_reason: Option<String>,
    /// 操作人 — who makes the change (recorded in the log)
    #[arg(long, default_value = "arbiter")]
    actor: String,
    /// 数据库文件 — database file (must exist: `event create` makes it)
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
        PlayerCmd::Withdraw {
            event,
            player,
            reason,
            db,
            actor,
            at,
        } => {
            let p = match parse_player(&player) {
                Ok(p) => p,
                Err(e) => return Ok(refused(&e)),
            };
            if let Some(e) = checked_time(at.as_deref()) {
                return Ok(refused(&e));
            }
            match super::apply_op_at(&db, &event, &actor, at.as_deref(), |s, c| {
                api::withdraw(s, c, p, &reason)
            })? {
                Ok(_) => {
                    println!("已退赛 withdrawn: {p} ({})", reason.trim());
                    Ok(0)
                }
                Err(e) => Ok(refused(&e)),
            }
        }
        PlayerCmd::Absent {
            event,
            player,
            round,
            reason,
            db,
            actor,
            at,
        } => {
            let p = match parse_player(&player) {
                Ok(p) => p,
                Err(e) => return Ok(refused(&e)),
            };
            if let Some(e) = checked_time(at.as_deref()) {
                return Ok(refused(&e));
            }
            match super::apply_op_at(&db, &event, &actor, at.as_deref(), |s, c| {
                api::absent(s, c, p, round, reason.as_deref())
            })? {
                Ok(_) => {
                    println!("已登记请假 marked absent: {p} 第{round}轮 (round {round})");
                    Ok(0)
                }
                Err(e) => Ok(refused(&e)),
            }
        }
    }
}

fn invalid(msg: String) -> anyhow::Result<u8> {
    Ok(refused(&msg))
}

/// The entry form of a roster row, for `section`.
fn form(r: &RosterRow, section: String, late_reason: Option<String>) -> EntryForm {
    EntryForm {
        section,
        name: r.name.trim().to_string(),
        sex: r.sex,
        birth: r.birth_date,
        id_number: r.id_number.as_ref().map(|i| i.as_str().to_string()),
        phone: r.phone.as_ref().map(|p| p.as_str().to_string()),
        unit: r.unit.clone(),
        association: r.association.clone(),
        team: r.team.clone(),
        evidence: r.evidence.clone(),
        flags: r.flags.clone(),
        rating: r.rating,
        late_reason,
    }
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
    if let Some(e) = checked_time(a.at.as_deref()) {
        return invalid(e);
    }
    let row = RosterRow {
        line: 0,
        name: a.name.trim().to_string(),
        section: Some(a.section.clone()),
        sex,
        birth_date,
        id_number,
        phone,
        unit: a.unit,
        association: a.association,
        team: a.team,
        evidence: a.evidence,
        flags: a.flag,
        rating: a.rating,
    };
    let mut section = a.section.clone();
    let done = super::apply_op_at(&a.db, &a.event, &a.actor, a.at.as_deref(), |s, c| {
        section = match known_section(s, &a.section) {
            Ok(x) => x,
            Err(e) => return Err(arbiter_director::DirectorError::Refused(e)),
        };
        api::register(s, c, &form(&row, section.clone(), a.late_reason.clone()))
    })?;
    match done {
        Ok(done) => match done.entries.first() {
            Some(LogEntry::PlayerRegistered(p)) => {
                println!("已报名 registered: {} {} [{}]", p.player, p.name, p.section);
                Ok(0)
            }
            Some(LogEntry::EntryRefused { reason, .. }) => {
                eprintln!("拒绝报名 refused: {} [{section}]: {reason}", row.name);
                Ok(2)
            }
            _ => Ok(0),
        },
        Err(e) => Ok(refused(&e)),
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
    let (rows, notices) = match arbiter_core::parse_roster_with_notices(&text, &fname) {
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
    for n in &notices {
        eprintln!("注意 notice: {n}");
    }
    if let Some(e) = checked_time(at.as_deref()) {
        return invalid(e);
    }
    let mut each: Vec<Option<LogEntry>> = Vec::new();
    let mut sections: Vec<String> = Vec::new();
    let done = super::apply_op_at(db, event, actor, at.as_deref(), |s, c| {
        // Rows naming no section or an unknown section make the file malformed
        // (all-or-nothing).
        sections = row_sections(s, &rows, default_section.as_deref(), &fname)
            .map_err(|errs| arbiter_director::DirectorError::Refused(errs.join("\n")))?;
        let forms: Vec<EntryForm> = rows
            .iter()
            .zip(&sections)
            .map(|(r, s)| form(r, s.clone(), None))
            .collect();
        each = api::register_each(s, c, &forms)?;
        Ok(each.iter().flatten().cloned().collect())
    })?;
    if let Err(e) = done {
        eprintln!("{e}");
        eprintln!("错误 error: {fname}: 未导入任何棋手 (nothing imported)");
        return Ok(2);
    }
    let mut registered = Vec::new();
    let mut refused_rows = Vec::new();
    let mut again = 0;
    for ((r, s), e) in rows.iter().zip(&sections).zip(&each) {
        let at = format!("{fname}:{}: 第{}行 {} [{s}]", r.line, r.line, r.name);
        match e {
            Some(LogEntry::PlayerRegistered(p)) => registered.push(format!("{at}: {}", p.player)),
            Some(LogEntry::EntryRefused { reason, .. }) => {
                refused_rows.push(format!("{at}: {reason}"))
            }
            Some(_) => {}
            None => {
                again += 1;
                refused_rows.push(format!(
                    "{at}: 此前已因同一理由被拒绝, 未重复记录 (refusal already recorded)"
                ));
            }
        }
    }
    println!(
        "已报名 {} 人, 拒绝 {} 人 (registered {}, refused {}){}",
        registered.len(),
        refused_rows.len(),
        registered.len(),
        refused_rows.len(),
        if again > 0 {
            format!("; 其中 {again} 人此前已记录 ({again} already recorded)")
        } else {
            String::new()
        }
    );
    for r in &registered {
        println!("  已报名 registered: {r}");
    }
    for r in &refused_rows {
        println!("  拒绝 refused: {r}");
    }
    Ok(0)
}

/// The section of every row (its own, `--section`, or the event's only one), or every
/// problem with a line number.
fn row_sections(
    state: &EventState,
    rows: &[RosterRow],
    default_section: Option<&str>,
    fname: &str,
) -> Result<Vec<String>, Vec<String>> {
    let only = (state.sections.len() == 1)
        .then(|| state.sections.keys().next().cloned())
        .flatten();
    let mut errs = Vec::new();
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let given = r
            .section
            .clone()
            .or_else(|| default_section.map(str::to_string))
            .or_else(|| only.clone());
        match given {
            Some(s) => match known_section(state, &s) {
                Ok(id) => out.push(id),
                Err(e) => errs.push(format!("{fname}:{}: 第{}行: {e}", r.line, r.line)),
            },
            None => errs.push(format!(
                "{fname}:{}: 第{}行: 未指定组别 (no section: add a 组别 column or --section)",
                r.line, r.line
            )),
        }
    }
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(errs)
    }
}

/// The refusal of a file that is not UTF-8, naming the file and the line of the first bad
/// byte. Excel saves "CSV" in the local code page (GBK / GB18030 on Chinese Windows).
pub(crate) fn not_utf8(fname: &str, bytes: &[u8], valid_up_to: usize) -> String {
    let line = 1 + bytes[..valid_up_to].iter().filter(|&&b| b == b'\n').count();
    format!(
        "{fname}:{line}: 文件不是 UTF-8 编码, 可能是 Excel 保存的 GBK/GB18030 文件; 请在 Excel 中另存为「CSV UTF-8 (逗号分隔)」后再导入, 未导入任何棋手 (the file is not UTF-8 — probably GBK from Excel; save it as \"CSV UTF-8\" and import again; nothing imported)"
    )
}

/// A section given by id or Chinese name, or an error with a did-you-mean.
fn known_section(state: &EventState, given: &str) -> Result<String, String> {
    let id = section_id(state, given);
    if state.sections.contains_key(&id) {
        return Ok(id);
    }
    let hint = arbiter_types::closest(given, state.sections.keys().map(String::as_str))
        .map(|h| format!(", 是否应为 `{h}`? (did you mean `{h}`?)"))
        .unwrap_or_default();
    Err(format!("组别 `{given}` 不存在 (unknown section){hint}"))
}
