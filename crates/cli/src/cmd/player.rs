//! `arbiter player …`: add one player, import a CSV roster, withdraw a player, mark him
//! absent for a round. Every one goes through the director's API
//! (`arbiter_director::api::entries`) and [`super::apply_op_as`]: this file only parses.

use super::desk::{checked_time, parse_player, refused};
use super::rounds::Writer;
use super::Applied;
use anyhow::Context;
use arbiter_director::api::import;
use arbiter_director::command::registration::{Entered, RegistrationCommand};
use arbiter_director::command::Outcome;
use arbiter_import::roster::{parse_date, parse_sex};
use arbiter_import::RosterRow;
use arbiter_types::{IdNumber, Person, Phone};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum PlayerCmd {
    /// 报名一名棋手 — register one player (eligibility checked; refusals are recorded)
    Add(Box<AddArgs>),
    /// 导入报名表 — import a roster: .xlsx, .xls or CSV (UTF-8 or GBK); Chinese or English headers
    Import {
        /// 赛事编号 — event id (ev-00000001)
        #[arg(long)]
        event: String,
        /// 报名表 (.xlsx / .xls / CSV, UTF-8 或 GBK) — roster file; the header row may be below a title; unknown columns (序号, 备注, …) are ignored
        file: PathBuf,
        /// 默认组别 — section for rows without a 组别 column
        #[arg(long)]
        section: Option<String>,
        /// 预检: 逐行报告问题, 不写入 — dry run: a per-row report, nothing written
        #[arg(long)]
        dry_run: bool,
        /// 以 JSON 输出报告 (每个问题含 row, column, message) — the report as JSON
        #[arg(long)]
        json: bool,
        /// 列名映射 列名=字段, 可重复 (如 `棋手=姓名`) — map a header of the file to a field, repeatable
        #[arg(long, value_name = "列名=字段")]
        map: Vec<String>,
        /// 在 stderr 显示进度 (终端中默认显示) — progress on stderr (default only on a terminal)
        #[arg(long)]
        progress: bool,
        /// 已报名的棋手按表更新资料 (否则跳过) — a row of a player already registered corrects his entry where it differs (otherwise it is skipped)
        #[arg(long)]
        update_registered: bool,
        #[command(flatten)]
        who: Writer,
    },
    /// 退赛 — withdraw a player, with the reason; his results so far stand
    Withdraw {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 报名号 — registration id (P3 or 3), also after the draw (`draw` lists it beside each 序号)
        #[arg(long)]
        player: String,
        /// 退赛理由 — reason (recorded)
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 换组 — move a player to another section before the draw, with the reason: the same
    /// entry, his fees and check-in go with him
    ChangeSection {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 报名号 — registration id (P3 or 3)
        #[arg(long)]
        player: String,
        /// 新组别 — the section to move to (id or name)
        #[arg(long)]
        section: String,
        /// 换组理由 — reason (recorded)
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 更正报名信息 — correct a registered entry (name, unit, ID number …), with the reason;
    /// only the fields given change, `--clear FIELD` empties one
    Correct(Box<CorrectArgs>),
    /// 恢复参赛 — reinstate a withdrawn player (the chief arbiter, with the reason; A16): paired
    /// again from the next round
    Reinstate {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 报名号 — registration id (P3 or 3), also after the draw (`draw` lists it beside each 序号)
        #[arg(long)]
        player: String,
        /// 理由 — reason (recorded)
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 取消比赛资格 — disqualify a player (the chief arbiter, with the reason; A17): not paired
    /// again, his later games his forfeits, no place, prize or title
    Disqualify {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 报名号 — registration id (P3 or 3), also after the draw (`draw` lists it beside each 序号)
        #[arg(long)]
        player: String,
        /// 理由 — reason (recorded)
        #[arg(long)]
        reason: String,
        /// 成绩作废: 其全部对局判对手弃权胜 (规程对所有取消资格均如此规定时不必加) — his results are
        /// void in this case: every game of his counts as his opponent's forfeit win
        #[arg(long)]
        void_results: bool,
        #[command(flatten)]
        who: Writer,
    },
    /// 请假 — mark a player absent for a round not yet paired (not paired; scores as absent)
    Absent {
        /// 赛事编号 — event id
        #[arg(long)]
        event: String,
        /// 报名号 — registration id (P3 or 3), also after the draw (`draw` lists it beside each 序号)
        #[arg(long)]
        player: String,
        /// 轮次 — round number
        #[arg(long)]
        round: u32,
        /// 理由 — reason (optional, recorded)
        #[arg(long)]
        reason: Option<String>,
        /// 无故缺席 (未请假); 规程规定无故缺席按退赛处理时同时记退赛 — absent without leave
        /// (not excused); withdraws the player where the regulation says so (S7)
        #[arg(long)]
        without_leave: bool,
        #[command(flatten)]
        who: Writer,
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
    /// 社保号 — social-security number (K5)
    #[arg(long, value_name = "SSN")]
    social_security: Option<String>,
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
    /// 段位/称号 — grade or title on the regulation's [grades] scale (业余5段, 象棋大师 …)
    #[arg(long)]
    grade: Option<String>,
    /// 补报理由 — the chief arbiter admits this entry after the deadline, for this reason (recorded)
    #[arg(long)]
    late_reason: Option<String>,
    #[command(flatten)]
    who: Writer,
}

/// `player correct`: the fields to change; each given one is set, each `--clear` one emptied.
#[derive(Args)]
pub struct CorrectArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 报名号 — registration id (P3 or 3)
    #[arg(long)]
    player: String,
    /// 更正理由 — reason (recorded)
    #[arg(long)]
    reason: String,
    /// 姓名 — name
    #[arg(long)]
    name: Option<String>,
    /// 身份证号 — ID number (18 digits; the director sets sex and birth date from it)
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
    /// 队名 — team name
    #[arg(long)]
    team: Option<String>,
    /// 性别 M|F (男|女)
    #[arg(long)]
    sex: Option<String>,
    /// 出生日期 YYYY-MM-DD
    #[arg(long)]
    birth: Option<String>,
    /// 等级分 — rating
    #[arg(long)]
    rating: Option<u32>,
    /// 段位/称号 — grade or title on the regulation's [grades] scale (业余5段, 象棋大师 …)
    #[arg(long)]
    grade: Option<String>,
    /// 证明材料 (替换原有) — evidence, replacing the recorded list, repeatable
    #[arg(long)]
    evidence: Vec<String>,
    /// 标记 (替换原有) — flags, replacing the recorded list, repeatable
    #[arg(long)]
    flag: Vec<String>,
    /// 清空字段 — empty a field: id-number phone unit association team sex birth rating grade evidence flag (repeatable)
    #[arg(long, value_name = "FIELD")]
    clear: Vec<String>,
    #[command(flatten)]
    who: Writer,
}

pub fn run(c: PlayerCmd) -> anyhow::Result<u8> {
    match c {
        PlayerCmd::Add(a) => add(*a),
        PlayerCmd::Correct(a) => correct(*a),
        PlayerCmd::Import {
            event,
            file,
            section,
            who,
            dry_run,
            json,
            map,
            progress,
            update_registered,
        } => import(ImportOpts {
            event: &event,
            file: &file,
            default_section: section,
            who: &who,
            dry_run,
            json,
            map: &map,
            progress,
            update_registered,
        }),
        PlayerCmd::Withdraw {
            event,
            player,
            reason,
            who: w,
        } => {
            match on_player(&w, &event, &player, |p| RegistrationCommand::Withdraw {
                player: p,
                reason: reason.clone(),
            })? {
                Ok(done) => {
                    let who = super::desk::who(&done.outcome);
                    println!("已退赛 withdrawn: {who} ({})", reason.trim());
                    Ok(0)
                }
                Err(e) => Ok(refused(&e)),
            }
        }
        PlayerCmd::ChangeSection {
            event,
            player,
            section,
            reason,
            who: w,
        } => {
            match on_player(&w, &event, &player, |p| {
                RegistrationCommand::ChangeSection {
                    player: p,
                    section: section.clone(),
                    reason: reason.clone(),
                }
            })? {
                Ok(done) => {
                    super::tell(&w.db, &event, &done);
                    println!("缴费与签到随之转入 (fees and check-in go with him)");
                    Ok(0)
                }
                Err(e) => Ok(refused(&e)),
            }
        }
        PlayerCmd::Reinstate {
            event,
            player,
            reason,
            who: w,
        } => {
            match on_player(&w, &event, &player, |p| RegistrationCommand::Reinstate {
                player: p,
                reason: reason.clone(),
            })? {
                Ok(done) => {
                    super::tell(&w.db, &event, &done);
                    Ok(0)
                }
                Err(e) => Ok(refused(&e)),
            }
        }
        PlayerCmd::Disqualify {
            event,
            player,
            reason,
            void_results,
            who: w,
        } => {
            match on_player(&w, &event, &player, |p| RegistrationCommand::Disqualify {
                player: p,
                reason: reason.clone(),
                void_results,
            })? {
                Ok(done) => {
                    super::tell(&w.db, &event, &done);
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
            without_leave,
            who: w,
        } => {
            match on_player(&w, &event, &player, |p| RegistrationCommand::Absence {
                player: p,
                round,
                reason,
                without_leave,
            })? {
                Ok(a) => {
                    let p = super::desk::who(&a.outcome);
                    if without_leave {
                        println!(
                            "已登记无故缺席 absent without leave: {p} 第{round}轮 (round {round})"
                        );
                    } else {
                        println!("已登记请假 marked absent: {p} 第{round}轮 (round {round})");
                    }
                    if let Outcome::Player {
                        withdrawn: Some(reason),
                        ..
                    } = &a.outcome
                    {
                        println!("已退赛 withdrawn: {p} ({reason})");
                    }
                    Ok(0)
                }
                Err(e) => Ok(refused(&e)),
            }
        }
    }
}

/// A write about one player named on the command line (`--player P3`): the name read, then
/// the command applied as the writer (`--at` is judged by [`Writer::apply`]).
fn on_player(
    w: &Writer,
    event: &str,
    player: &str,
    cmd: impl FnOnce(arbiter_core::PlayerId) -> RegistrationCommand,
) -> anyhow::Result<Result<Applied, String>> {
    match parse_player(player) {
        Ok(p) => w.apply(event, cmd(p)),
        Err(e) => Ok(Err(e)),
    }
}

fn invalid(msg: String) -> anyhow::Result<u8> {
    Ok(refused(&msg))
}

fn parsed_sex(s: &str) -> Result<arbiter_types::Sex, String> {
    parse_sex(s).ok_or_else(|| format!("--sex: 「{s}」 应为 M/F 或 男/女 (unknown sex)"))
}

fn parsed_birth(s: &str) -> Result<chrono::NaiveDate, String> {
    parse_date(s)
        .ok_or_else(|| format!("--birth: 「{s}」 不是有效日期, 应为 YYYY-MM-DD (bad date)"))
}

/// The changes `player correct` asks for, each flag read as `player add` reads it.
fn changes(a: &CorrectArgs) -> Result<Vec<arbiter_core::FieldChange>, String> {
    use arbiter_core::FieldChange as F;
    let mut out = Vec::new();
    if let Some(n) = &a.name {
        out.push(F::Name(n.trim().to_string()));
    }
    if let Some(s) = &a.id_number {
        let id = IdNumber::parse(s).map_err(|e| format!("--id-number: {e}"))?;
        out.push(F::IdNumber(Some(id)));
    }
    if let Some(s) = &a.phone {
        out.push(F::Phone(Some(
            Phone::parse(s).map_err(|e| format!("--phone: {e}"))?,
        )));
    }
    if let Some(s) = &a.sex {
        out.push(F::Sex(Some(parsed_sex(s)?)));
    }
    if let Some(s) = &a.birth {
        out.push(F::BirthDate(Some(parsed_birth(s)?)));
    }
    let text = |v: &String| Some(v.trim().to_string()).filter(|v| !v.is_empty());
    if let Some(v) = &a.unit {
        out.push(F::Unit(text(v)));
    }
    if let Some(v) = &a.association {
        out.push(F::Association(text(v)));
    }
    if let Some(v) = &a.team {
        out.push(F::Team(text(v)));
    }
    if let Some(r) = a.rating {
        out.push(F::Rating(Some(r)));
    }
    if let Some(g) = &a.grade {
        out.push(F::Grade(text(g)));
    }
    if !a.evidence.is_empty() {
        out.push(F::Evidence(a.evidence.clone()));
    }
    if !a.flag.is_empty() {
        out.push(F::Flags(a.flag.clone()));
    }
    for c in &a.clear {
        out.push(match c.trim().trim_start_matches("--") {
            "id-number" | "id_number" | "身份证号" => F::IdNumber(None),
            "phone" | "手机号" | "电话" => F::Phone(None),
            "unit" | "单位" => F::Unit(None),
            "association" | "协会" => F::Association(None),
            "team" | "队名" => F::Team(None),
            "sex" | "性别" => F::Sex(None),
            "birth" | "出生日期" => F::BirthDate(None),
            "rating" | "等级分" => F::Rating(None),
            "grade" | "段位" | "称号" => F::Grade(None),
            "evidence" | "证明材料" => F::Evidence(Vec::new()),
            "flag" | "flags" | "标记" => F::Flags(Vec::new()),
            other => {
                return Err(format!(
                    "--clear 「{other}」: 可清空 id-number phone unit association team sex birth rating grade evidence flag (unknown field)"
                ))
            }
        });
    }
    if out.is_empty() {
        return Err(
            "没有要更正的字段: 请给出 --name、--unit 等, 或 --clear FIELD (nothing to correct)"
                .into(),
        );
    }
    Ok(out)
}

fn correct(a: CorrectArgs) -> anyhow::Result<u8> {
    let p = match parse_player(&a.player) {
        Ok(p) => p,
        Err(e) => return Ok(refused(&e)),
    };
    let changes = match changes(&a) {
        Ok(c) => c,
        Err(e) => return invalid(e),
    };
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return invalid(e);
    }
    match a.who.apply(
        &a.event,
        RegistrationCommand::Correct {
            player: p,
            changes,
            reason: a.reason.clone(),
        },
    )? {
        Ok(done) => {
            let who = super::desk::who(&done.outcome);
            if done.entries.is_empty() {
                println!("无变化 nothing changed: {who}");
            } else {
                println!("已更正 corrected: {who} ({})", a.reason.trim());
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
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
    let social_security = match a
        .social_security
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(arbiter_types::SocialSecurityNo::parse)
        .transpose()
    {
        Ok(v) => v,
        Err(e) => return invalid(format!("--social-security: {e}")),
    };
    let sex = match a.sex.as_deref().map(parsed_sex).transpose() {
        Ok(v) => v,
        Err(e) => return invalid(e),
    };
    let birth_date = match a.birth.as_deref().map(parsed_birth).transpose() {
        Ok(v) => v,
        Err(e) => return invalid(e),
    };
    if let (Some(id), Some(s)) = (&id_number, sex) {
        if id.sex() != s {
            return invalid("--sex 性别与身份证号不符 (sex does not match the ID number)".into());
        }
    }
    if let (Some(id), Some(b)) = (&id_number, birth_date) {
        if id.birth_date() != b {
            return invalid(
                "--birth 出生日期与身份证号不符 (birth date does not match the ID number)".into(),
            );
        }
    }
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return invalid(e);
    }
    let row = RosterRow {
        line: 0,
        person: Person {
            name: a.name.trim().to_string(),
            sex,
            birth_date,
            id_number,
            phone,
            social_security,
            unit: a.unit,
            association: a.association,
        },
        section: Some(a.section.clone()),
        team: a.team,
        evidence: a.evidence,
        flags: a.flag,
        rating: a.rating,
        grade: a.grade,
    };
    let done = a.who.apply(
        &a.event,
        RegistrationCommand::Register {
            form: import::form(&row, a.section.clone(), a.late_reason.clone()),
            record_refusal: true,
        },
    )?;
    match done {
        Ok(done) => match &done.outcome {
            Outcome::Entries(es) => match es.first() {
                Some(Entered::Registered {
                    player,
                    name,
                    section_name,
                    ..
                }) => {
                    println!("已报名 registered: {player} {name} [{section_name}]");
                    Ok(0)
                }
                Some(Entered::Refused {
                    section_name,
                    reason,
                    ..
                }) => {
                    eprintln!(
                        "拒绝报名 refused: {} [{section_name}]: {reason}",
                        row.person.name
                    );
                    Ok(2)
                }
                _ => Ok(0),
            },
            _ => Ok(0),
        },
        Err(e) => Ok(refused(&e)),
    }
}

/// The options of `player import`.
struct ImportOpts<'a> {
    event: &'a str,
    file: &'a Path,
    default_section: Option<String>,
    who: &'a Writer,
    dry_run: bool,
    json: bool,
    map: &'a [String],
    progress: bool,
    update_registered: bool,
}

fn import(o: ImportOpts) -> anyhow::Result<u8> {
    let bytes = std::fs::read(o.file)
        .with_context(|| format!("无法读取 {} (cannot read file)", o.file.display()))?;
    let fname = o.file.display().to_string();
    let mut overrides = Vec::new();
    for m in o.map {
        let Some((h, f)) = m.split_once('=') else {
            return invalid(format!(
                "--map 「{m}」: 应为 列名=字段, 如 「棋手=姓名」 (expected HEADER=FIELD)"
            ));
        };
        match arbiter_import::roster::column_named(f) {
            Some(c) => overrides.push((h.trim().to_string(), c)),
            None => {
                return invalid(format!(
                    "--map 「{m}」: 未知字段 「{f}」; 可用: 姓名 性别 出生日期 身份证号 单位 组别 电话 协会 队名 证明 标记 等级分 序号 备注 (unknown field)"
                ))
            }
        }
    }
    if let Some(e) = checked_time(o.who.at.as_deref()) {
        return invalid(e);
    }
    let show_progress = o.progress || std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut imported = match arbiter_import::read_roster(&bytes, &fname, &overrides) {
        Ok(i) => i,
        Err(e) => return invalid(format!("{e}; 未导入任何棋手 (nothing imported)")),
    };
    let roster = std::sync::Arc::new(std::mem::take(&mut imported.roster));
    if !o.json {
        for n in &roster.notices {
            eprintln!("注意 notice: {n}");
        }
    }
    if show_progress {
        eprintln!(
            "已读取 read {fname}: {} 行数据 (data rows), {} 行可导入 (valid)",
            roster.data_rows,
            roster.rows.len()
        );
    }
    // No header row, or a header that cannot be read (a column twice): nothing to import.
    let header_broken =
        roster.header_line == 0 || (roster.data_rows == 0 && !roster.problems.is_empty());
    if header_broken && !o.json {
        for p in &roster.problems {
            eprintln!("{p}");
        }
        eprintln!("错误 error: {fname}: 未导入任何棋手 (nothing imported)");
        return Ok(2);
    }
    // Every row through the arbiter's API (`import::import_roster`); appended at once, or
    // not at all (dry run).
    let dry_run = o.dry_run;
    let done = o.who.apply_observed(
        o.event,
        RegistrationCommand::ImportRoster {
            roster: roster.clone(),
            default_section: o.default_section.clone(),
            update_registered: o.update_registered,
        },
        &mut |done, total| {
            if show_progress && total > import::STEP {
                eprintln!("进度 progress: {done}/{total} 行已校验 (rows checked)");
            }
        },
        dry_run,
    )?;
    let report = match done {
        Ok(Applied {
            outcome: Outcome::Imported(report),
            ..
        }) => report,
        Ok(_) => import::ImportReport::default(),
        Err(e) => {
            eprintln!("{e}");
            eprintln!("错误 error: {fname}: 未导入任何棋手 (nothing imported)");
            return Ok(2);
        }
    };
    let names = match super::load_state(&o.who.db, o.event)? {
        Ok(s) => super::rounds::section_names(&s),
        Err(_) => Default::default(),
    };
    let problems = &report.problems;
    let registered = &report.registered;
    let invalid_rows = report.invalid_rows();
    let refused_n = report.refused();
    let again = report.already_refused();
    if o.json {
        let doc = serde_json::json!({
            "file": fname,
            "format": imported.format.name(),
            "encoding": imported.encoding,
            "sheet": imported.sheet,
            "header_row": roster.header_line,
            "dry_run": dry_run,
            "data_rows": roster.data_rows,
            "registered": registered.iter().map(|r| serde_json::json!({
                "row": r.row, "player": if dry_run { None } else { Some(&r.player) }, "name": r.name, "section": r.section
            })).collect::<Vec<_>>(),
            "problems": problems.iter().map(|p| serde_json::json!({
                "row": p.row, "column": p.column, "cell": p.cell, "kind": p.kind.code(), "message": p.message
            })).collect::<Vec<_>>(),
            "notices": roster.notices.iter().map(|p| serde_json::json!({
                "row": p.line, "column": p.column_name(), "message": p.message
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        let what = match (imported.encoding, &imported.sheet) {
            (Some(e), _) => format!("{}, {e}", imported.format.name()),
            (None, Some(s)) => format!("{}, 工作表 sheet 「{s}」", imported.format.name()),
            (None, None) => imported.format.name().to_string(),
        };
        if dry_run {
            println!(
                "预检 dry run: {fname} ({what}), 表头第 {} 行 (header row), 数据 {} 行: 可报名 {} 行, 有错误 {} 行, 将被拒绝 {} 行; 未写入任何数据 (would register {}, {} rows invalid, {} refused; nothing written)",
                roster.header_line,
                roster.data_rows,
                registered.len(),
                invalid_rows,
                refused_n,
                registered.len(),
                invalid_rows,
                refused_n
            );
        } else {
            println!(
                "已报名 {} 人, 拒绝 {} 人, 有错误未导入 {} 行 (registered {}, refused {}, invalid rows not imported {}){}{}",
                registered.len(),
                refused_n,
                invalid_rows,
                registered.len(),
                refused_n,
                invalid_rows,
                if again > 0 {
                    format!("; 其中 {again} 人此前已记录 ({again} already recorded)")
                } else {
                    String::new()
                },
                if report.skipped() > 0 {
                    format!(
                        "; 已报名跳过 {} 行 ({} already registered, skipped)",
                        report.skipped(),
                        report.skipped()
                    )
                } else {
                    String::new()
                }
            );
            if report.updated() > 0 {
                println!(
                    "已报名按表更新 {} 人 ({} already registered, updated)",
                    report.updated(),
                    report.updated()
                );
            }
        }
        for r in registered {
            let (line, n) = (r.row, &r.name);
            let s = names.get(&r.section).unwrap_or(&r.section);
            if dry_run {
                println!("  可报名 ok: {fname}:{line}: 第{line}行 {n} [{s}]");
            } else {
                println!(
                    "  已报名 registered: {fname}:{line}: 第{line}行 {n} [{s}]: {}",
                    r.player
                );
            }
        }
        for p in problems {
            let label = match p.kind {
                import::ProblemKind::Invalid => "错误 invalid",
                import::ProblemKind::AlreadyRegistered => "已报名跳过 already registered",
                import::ProblemKind::Updated => "已报名更新 updated",
                _ => "拒绝 refused",
            };
            let at = match (&p.column, &p.cell) {
                (Some(c), Some(cell)) => format!(" {c}, 单元格 {cell}"),
                _ => String::new(),
            };
            let who = match &p.who {
                Some((n, s)) => format!(" {n} [{}]", names.get(s).unwrap_or(s)),
                None => String::new(),
            };
            println!(
                "  {label}: {fname}:{}: 第{}行{who}{at}: {}",
                p.row, p.row, p.message
            );
        }
    }
    if header_broken {
        return Ok(2);
    }
    if invalid_rows > 0 {
        if !o.json {
            eprintln!(
                "错误 error: {fname}: {invalid_rows} 行有错误{} (rows with errors{})",
                if dry_run {
                    ""
                } else {
                    ", 未导入; 其余已导入"
                },
                if dry_run {
                    ""
                } else {
                    " were not imported; the others were"
                }
            );
        }
        return Ok(2);
    }
    Ok(0)
}
