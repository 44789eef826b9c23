//! `arbiter print`: a printed document of an event (检录表, 对阵表, 记录单, 成绩公告, 名次表,
//! 轮次成绩表, 团体名次, 淘汰赛对阵, 获奖名单, 荣誉证书, 台号卡, 姓名签, 张贴用对阵表,
//! 奖励签收表, 收支表, 秩序册, 成绩册, 报名回执) as A4 (or A3) PDF or HTML.
//!
//! The document is built by `arbiter-report` from the folded log (the same tables the web
//! desk and the Excel exports use); this command only reads the database, chooses the font
//! and writes the file. Exit codes: 0 written, 1 error (database, font, file), 2 the request
//! does not fit the event (unknown document, section or round, nothing to print yet).

use arbiter_documents::{find_font, pdf};
use arbiter_report::{DocKind, Lang, Options, Paper, Privacy};
use clap::Args;
use std::path::PathBuf;

/// 打印文档 — a printed document of an event, A4 PDF or HTML.
///
/// `arbiter print --db PATH --event ID --doc NAME [--section S] [--round N]
/// --format pdf|html --out FILE`.
#[derive(Args)]
pub struct PrintArgs {
    /// 数据库文件 — event database (SQLite)
    #[arg(long, default_value = super::DEFAULT_DB)]
    pub db: PathBuf,
    /// 赛事编号 — event id in the database
    #[arg(long)]
    pub event: String,
    /// 文档 — checkin, pairings, slips, results, standings, crosstable, teams, bracket, prizes, certificates, table-cards, name-cards, wall-pairings, prize-receipts, cash, programme, results-book, entry-receipts
    #[arg(long)]
    pub doc: String,
    /// 组别 (默认: 全部组别) — section id (default: every section)
    #[arg(long)]
    pub section: Option<String>,
    /// 轮次 (对阵表/记录单/成绩公告/台号卡/张贴用对阵表; 默认: 最后编排的一轮) — round (default: the last paired)
    #[arg(long)]
    pub round: Option<u32>,
    /// 纸张 (张贴用对阵表可用 a3; 默认 a4) — paper: a4, or a3 for wall-pairings
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// 格式 — pdf or html
    #[arg(long)]
    pub format: String,
    /// 输出文件 — output file
    #[arg(long)]
    pub out: PathBuf,
    /// 语言 (默认 zh) — language of the labels: zh or en
    #[arg(long, default_value = "zh")]
    pub lang: String,
    /// 组委会用 (检录表、奖励签收表显示完整身份证号) — organiser's copy: full ID numbers on the check-in sheet and the prize receipts
    #[arg(long)]
    pub organiser: bool,
    /// 公开地址 (同 serve --public-url, 如 https://xq.example.org): 记录单印各方的确认码和确认页的
    /// 二维码, 报名回执印各人的签到码和签到页的二维码, 与服务台打印的相同 — the server's public
    /// address: the result slips carry each side's claim code and a QR code of the claim page,
    /// the entry receipts each player's check-in code and a QR code of the check-in page, as
    /// the desk's do (slips and entry-receipts only; entry-receipts need it)
    #[arg(long, value_name = "URL", value_parser = arbiter_web::parse_public_url)]
    pub public_url: Option<String>,
    /// 中文字体文件 (.ttf/.otf/.ttc; 默认自动查找, 或环境变量 ARBITER_FONT) — CJK font file
    #[arg(long)]
    pub font: Option<PathBuf>,
    /// 在 stderr 显示进度 (终端中默认显示) — progress on stderr (default only on a terminal)
    #[arg(long)]
    pub progress: bool,
}

fn refuse(msg: impl std::fmt::Display) -> anyhow::Result<u8> {
    eprintln!("错误 error: {msg}");
    Ok(2)
}

pub fn run(a: PrintArgs) -> anyhow::Result<u8> {
    let kind = match DocKind::parse(&a.doc) {
        Ok(k) => k,
        Err(e) => return refuse(e),
    };
    let pdf = match a.format.trim() {
        "pdf" => true,
        "html" => false,
        f => {
            return refuse(format!(
                "未知的格式 「{f}」, 可选 pdf 或 html (unknown format)"
            ))
        }
    };
    let lang = match a.lang.trim() {
        "zh" => Lang::Zh,
        "en" => Lang::En,
        l => {
            return refuse(format!(
                "未知的语言 「{l}」, 可选 zh 或 en (unknown language)"
            ))
        }
    };
    if a.round.is_some() && !kind.takes_round() {
        return refuse(format!(
            "--round 只用于 pairings, slips, results, table-cards, wall-pairings, 不用于 {} (--round is for the documents of a round)",
            kind.name()
        ));
    }
    let paper = match a.paper.trim() {
        "a4" | "A4" => Paper::A4,
        "a3" | "A3" if kind == DocKind::WallPairings => Paper::A3,
        "a3" | "A3" => {
            return refuse(format!(
                "--paper a3 只用于 wall-pairings, 不用于 {} (A3 is for the wall pairings)",
                kind.name()
            ))
        }
        p => return refuse(format!("未知的纸张 「{p}」, 可选 a4 或 a3 (unknown paper)")),
    };
    if a.public_url.is_some() && !matches!(kind, DocKind::Slips | DocKind::EntryReceipts) {
        return refuse(format!(
            "--public-url 只用于 slips (记录单的确认码) 和 entry-receipts (报名回执的签到码), 不用于 {} (the codes are on the result slips and the entry receipts)",
            kind.name()
        ));
    }
    if kind == DocKind::EntryReceipts && a.public_url.is_none() {
        return refuse(
            "entry-receipts 印签到页的地址和二维码, 请用 --public-url 给出赛事的公开地址 (the entry receipts need the event's public address: --public-url)",
        );
    }
    if a.round == Some(0) {
        return refuse("轮次从 1 开始 (rounds start at 1)");
    }
    let state = match super::load_state(&a.db, &a.event)? {
        Ok(s) => s,
        Err(e) => return refuse(e),
    };
    if state.header.is_none() {
        return refuse(format!(
            "赛事 「{}」 没有创建记录 (the event log has no EventCreated)",
            a.event
        ));
    }
    // The claim and check-in codes are made under the event's secret kept in the database
    // beside the log:
    // the one the server uses, or a fresh one stored now (the server then uses it too).
    let claims = match &a.public_url {
        None => None,
        Some(base) => {
            use arbiter_store::AccountStore;
            let store = super::event::open_db(&a.db)?;
            let ev = a.event.trim();
            let secret = store.claim_secret(ev, &arbiter_web::auth::token::random_token())?;
            Some(arbiter_report::ClaimCodes {
                secret,
                url: match kind {
                    DocKind::EntryReceipts => format!("{base}/e/{ev}/checkin"),
                    _ => format!("{base}/e/{ev}/claim"),
                },
            })
        }
    };
    let opts = Options {
        section: a.section.clone(),
        round: a.round,
        privacy: if a.organiser {
            Privacy::Organiser
        } else {
            Privacy::Published
        },
        lang,
        claims,
    };
    let doc = match arbiter_report::build(&state, kind, &opts) {
        Ok(mut d) => {
            d.paper = paper;
            d
        }
        Err(e @ arbiter_report::ReportError::Event(_)) => anyhow::bail!("{e}"),
        Err(e) => return refuse(e),
    };
    let show_progress = a.progress || std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bytes = if pdf {
        let font = match find_font(a.font.as_deref()) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("错误 error: {e}");
                return Ok(1);
            }
        };
        if show_progress {
            eprintln!("字体 font: {}", font.path.display());
        }
        let mut report = |done: usize, total: usize| {
            // Every tenth page and the last: a line per page would flood a long document.
            if show_progress && (done.is_multiple_of(10) || done == total) {
                eprintln!("进度 progress: {done}/{total} 页已生成 (pages written)");
            }
        };
        match pdf::render_with_progress(&doc, &font, &mut report) {
            Ok(b) => b,
            Err(e) => anyhow::bail!("{e}"),
        }
    } else {
        arbiter_report::html::render(&doc).into_bytes()
    };
    // Write beside the target, then rename: a reader never sees half a file.
    let tmp = a.out.with_extension("partial");
    std::fs::write(&tmp, &bytes)
        .map_err(|e| anyhow::anyhow!("{}: 无法写入 (cannot write): {e}", tmp.display()))?;
    std::fs::rename(&tmp, &a.out)
        .map_err(|e| anyhow::anyhow!("{}: 无法写入 (cannot write): {e}", a.out.display()))?;
    println!(
        "已写入 {} ({}, {} 字节) (written)",
        a.out.display(),
        // The document's own title: a team section's slips are its 团体赛记分表.
        doc.title,
        bytes.len()
    );
    Ok(0)
}
