//! `arbiter template entry-form --regulation FILE [--out FILE]`: the entry form (报名表) a
//! unit fills in Excel for an event: the unit, its leader and coach, then one row per player,
//! with drop-downs for sex and section, the ID column formatted as text, and the event's
//! entry rules in Chinese on a second sheet. `player import` reads the filled form back.

use anyhow::Context;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum TemplateCmd {
    /// 生成单位报名表 (.xlsx) — write the unit entry form of an event
    EntryForm {
        /// 规程文件 (TOML) — the event's regulation
        #[arg(long)]
        regulation: PathBuf,
        /// 输出文件, 默认 报名表.xlsx — output file
        #[arg(long, default_value = "报名表.xlsx")]
        out: PathBuf,
        /// 球员行数 (默认按规程每单位限报人数, 否则 60) — number of player rows
        #[arg(long)]
        rows: Option<u32>,
    },
}

pub fn run(c: TemplateCmd) -> anyhow::Result<u8> {
    match c {
        TemplateCmd::EntryForm {
            regulation,
            out,
            rows,
        } => {
            let name = regulation.display().to_string();
            let source = std::fs::read_to_string(&regulation)
                .with_context(|| format!("无法读取 {name} (cannot read file)"))?;
            let reg = match arbiter_regulation::parse(&source, &name) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{e}");
                    return Ok(2);
                }
            };
            let book = arbiter_documents::entry_form::entry_form(&reg, rows)?;
            std::fs::write(&out, book)
                .with_context(|| format!("无法写入 {} (cannot write)", out.display()))?;
            println!(
                "已生成报名表 entry form written: {} ({} 个组别 sections)",
                out.display(),
                reg.sections.len()
            );
            Ok(0)
        }
    }
}
