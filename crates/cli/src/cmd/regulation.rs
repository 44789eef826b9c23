//! `arbiter regulation check FILE…`: validate regulation files and print their summary.

use arbiter_regulation::summary::Lang;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum RegulationCmd {
    /// 检查规程文件并打印摘要 — validate regulation files and print a summary of every section
    Check {
        /// 规程文件 (TOML) — regulation files
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// 输出语言 zh | en — output language
        #[arg(long, default_value = "zh")]
        lang: String,
    },
}

pub fn run(c: RegulationCmd) -> anyhow::Result<u8> {
    match c {
        RegulationCmd::Check { files, lang } => check(&files, &lang),
    }
}

fn check(files: &[PathBuf], lang: &str) -> anyhow::Result<u8> {
    let Some(lang) = Lang::from_code(lang) else {
        eprintln!(
            "未知的语言 「{lang}」，可选 zh、en (unknown language 「{lang}」, expected zh or en)"
        );
        return Ok(2);
    };
    let mut failed = false;
    for (i, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let source = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{name}: 错误: 无法读取文件 (cannot read file: {e})");
                failed = true;
                continue;
            }
        };
        match arbiter_regulation::parse(&source, &name) {
            Ok(reg) => {
                if i > 0 {
                    println!();
                }
                println!("== {name}");
                print!("{}", reg.summary(lang));
            }
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    Ok(if failed { 2 } else { 0 })
}
