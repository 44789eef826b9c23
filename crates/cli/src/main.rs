//! `arbiter` — 象棋竞赛编排系统. This binary is wiring only: every rule lives in a library crate.
//! Command names and flags are a contract used by outside tools: add, never rename.

/// Standard output that never panics. Every `print!`/`println!` of the binary goes through
/// [`out::write`] (the two macros below shadow the standard ones in every module): when the
/// reader has gone away (`arbiter event export … | head -c 10`) the rest of the output is
/// dropped quietly and the command finishes with its usual exit code; any other write error
/// is reported once at the end (exit 1).
mod out {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;

    static CLOSED: AtomicBool = AtomicBool::new(false);
    static FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

    fn failed(e: std::io::Error) {
        CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            if let Ok(mut f) = FAILED.lock() {
                f.get_or_insert(e);
            }
        }
    }

    /// Write to stdout unless it is already known to be closed. Nothing the binary prints
    /// carries a control character (but line breaks and tabs) or a bidi formatting
    /// character: a text stored before the text rule held, or read from a file, is printed
    /// with such a character written out as `\u001b` (as JSON escapes it), so it cannot move the cursor, clear
    /// the screen or reverse a name on the arbiter's terminal.
    pub fn write(args: std::fmt::Arguments<'_>) {
        if CLOSED.load(Ordering::Relaxed) {
            return;
        }
        let r = match args.as_str() {
            Some(s) if !s.chars().any(refused) => std::io::stdout().lock().write_all(s.as_bytes()),
            _ => {
                let text = args.to_string();
                std::io::stdout()
                    .lock()
                    .write_all(neutralised(&text).as_bytes())
            }
        };
        if let Err(e) = r {
            failed(e);
        }
    }

    fn refused(c: char) -> bool {
        !matches!(c, '\n' | '\t' | '\r') && arbiter_types::text::is_refused(c)
    }

    /// `text` with every refused character written out as `\uXXXX`.
    pub fn neutralised(text: &str) -> std::borrow::Cow<'_, str> {
        if !text.chars().any(refused) {
            return std::borrow::Cow::Borrowed(text);
        }
        let mut o = String::with_capacity(text.len() + 16);
        for c in text.chars() {
            if refused(c) {
                // As JSON writes it: the same in a JSON string (read back as the character)
                // and plain to read in text.
                o.push_str(&format!("\\u{:04x}", c as u32));
            } else {
                o.push(c);
            }
        }
        std::borrow::Cow::Owned(o)
    }

    /// Flush stdout at the end; the first write error other than a closed pipe, if any.
    pub fn finish() -> Option<std::io::Error> {
        if !CLOSED.load(Ordering::Relaxed) {
            if let Err(e) = std::io::stdout().lock().flush() {
                failed(e);
            }
        }
        FAILED.lock().ok().and_then(|mut f| f.take())
    }

    /// Whether an error returned by a command is only the reader having gone away.
    pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
        e.chain().any(|c| {
            c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        })
    }
}

macro_rules! print {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

macro_rules! println {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "象棋竞赛编排系统 Arbiter — xiangqi competition management"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
// Parsed once per process: the size of the largest command does not matter.
#[allow(clippy::large_enum_variant)]
enum Command {
    /// 竞赛规程文件 — regulation files
    #[command(subcommand)]
    Regulation(cmd::regulation::RegulationCmd),
    /// 赛事 — events (create, list, show, export, import, verify)
    #[command(subcommand)]
    Event(cmd::event::EventCmd),
    /// 棋手 — players (add, import, withdraw, reinstate, absent)
    #[command(subcommand)]
    Player(cmd::player::PlayerCmd),
    /// 组别 — sections (merge: a section too small into another before the draw)
    #[command(subcommand)]
    Section(cmd::section::SectionCmd),
    /// 表格模板 — templates (entry-form: the unit entry form, .xlsx)
    #[command(subcommand)]
    Template(cmd::template::TemplateCmd),
    /// 缴费 — mark a player's entry fee paid (or a money item of the regulation: --item 押金)
    Fee(cmd::desk::FeeArgs),
    /// 退还押金 — refund a player's deposit, or every deposit due back (--due last_round|closing|on_conditions)
    Refund(cmd::money::RefundArgs),
    /// 退还条件 — mark a deposit's refund condition for a player (完成全部对局, 未弃权)
    RefundCondition(cmd::money::ConditionArgs),
    /// 收支表 — the event's cash report: collected, refunded, owed per item (--json)
    Cash(cmd::money::CashArgs),
    /// 检录 — check a player in
    Checkin(cmd::desk::CheckinArgs),
    /// 抽签 — draw a section's pairing numbers by lot (seed recorded)
    Draw(cmd::desk::DrawArgs),
    /// 队伍 — enter a team (roster, leader, coach)
    #[command(subcommand)]
    Team(cmd::team::TeamCmd),
    /// 团体犯规 — record a foul of a team's leader or coach (K12)
    Foul(cmd::team::FoulArgs),
    /// 编排下一轮 — pair the next round of a TRF file
    Pair(cmd::pairing::PairArgs),
    /// 生成随机赛事 — write a random complete tournament as TRF
    Generate(cmd::pairing::GenerateArgs),
    /// 检查编排 — check every round of a TRF file
    Check(cmd::pairing::CheckArgs),
    /// 名次 — standings
    Standings(cmd::standings::StandingsArgs),
    /// 模拟整个赛事 — run a whole event from its regulation
    Simulate(cmd::simulate::SimulateArgs),
    /// 性能测试 — end-to-end benchmarks
    #[command(subcommand)]
    Bench(cmd::bench::BenchCmd),
    /// 淘汰赛 — show the knockout bracket of a two-stage section
    #[command(subcommand)]
    Knockout(cmd::knockout::KnockoutCmd),
    /// 轮次 — pair, show, publish, undo a round of an event
    #[command(subcommand)]
    Round(cmd::rounds::RoundCmd),
    /// 成绩 — enter a result (RESULT read from red's side), or import | confirm | correct
    Result(cmd::rounds::ResultCmd),
    /// 团体名次 — team standings of an event
    Teams(cmd::rounds::TableArgs),
    /// 奖项 — prizes of an event
    Prizes(cmd::rounds::TableArgs),
    /// 组委会奖项 — give (or list) the organiser's awards: 最佳组织奖 …
    Award(cmd::award::AwardArgs),
    /// 账户 — accounts of the web desk (add, list, passwd)
    #[command(subcommand)]
    User(cmd::user::UserCmd),
    /// 网页服务 — serve the public pages, JSON API and live updates
    Serve(cmd::serve::ServeArgs),
    /// 打印 — printed documents (A4 PDF or HTML): checkin, pairings, slips, results, standings, crosstable, teams, bracket, prizes, certificates, table-cards, name-cards, wall-pairings, prize-receipts, cash, programme (秩序册), results-book (成绩册)
    Print(cmd::print::PrintArgs),
    /// 象棋规则 — perft and playing a move list in Chinese, WXF or ICCS notation
    #[command(subcommand)]
    Xiangqi(cmd::xiangqi::XiangqiCmd),
}

/// A value of a clap error's context, as text (`--event <EVENT>`, 「x」…).
fn clap_context(e: &clap::Error, kind: clap::error::ContextKind) -> Option<String> {
    use clap::error::ContextValue;
    match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => Some(v.join("、")),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        ContextValue::StyledStrs(v) => Some(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("、"),
        ),
        ContextValue::Number(n) => Some(n.to_string()),
        ContextValue::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The usage line of the (sub)command `args` name, as clap prints it (`Usage: arbiter …`).
fn usage_of(args: &[String]) -> String {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    cmd.build();
    let mut at = cmd;
    for a in args.iter().skip(1) {
        if a.starts_with('-') {
            continue;
        }
        match at.find_subcommand(a) {
            Some(sub) => at = sub.clone(),
            None => break,
        }
    }
    at.render_usage().to_string()
}

/// The Chinese sentence of an argument error (X4: Chinese first); clap's own English, with
/// the usage line, follows it.
fn clap_error_zh(e: &clap::Error) -> String {
    use clap::error::{ContextKind as C, ErrorKind as K};
    let arg = clap_context(e, C::InvalidArg).unwrap_or_default();
    let value = clap_context(e, C::InvalidValue).unwrap_or_default();
    let mut s = match e.kind() {
        K::MissingRequiredArgument => format!("缺少必填参数 {arg}"),
        K::UnknownArgument => format!("未知参数「{arg}」"),
        K::InvalidSubcommand => format!(
            "未知子命令「{}」",
            clap_context(e, C::InvalidSubcommand).unwrap_or(arg)
        ),
        K::InvalidValue => format!("参数 {arg} 的值「{value}」无效"),
        K::ValueValidation => format!("参数 {arg} 的值「{value}」无效"),
        K::ArgumentConflict => {
            let other = clap_context(e, C::PriorArg).unwrap_or_default();
            format!("参数 {arg} 不能与 {other} 同时使用")
        }
        K::NoEquals => format!("参数 {arg} 须用 = 给值"),
        K::TooManyValues => format!("参数 {arg} 的值「{value}」多余"),
        K::TooFewValues | K::WrongNumberOfValues => format!("参数 {arg} 的值个数不对"),
        K::MissingSubcommand | K::DisplayHelpOnMissingArgumentOrSubcommand => {
            "缺少子命令".to_string()
        }
        K::InvalidUtf8 => "参数不是有效的 UTF-8 文字".to_string(),
        _ => "命令行参数有误".to_string(),
    };
    if let Some(valid) = clap_context(e, C::ValidValue) {
        s.push_str(&format!("; 可选值: {valid}"));
    }
    if let Some(hint) =
        clap_context(e, C::SuggestedArg).or_else(|| clap_context(e, C::SuggestedSubcommand))
    {
        s.push_str(&format!("; 是否应为「{hint}」?"));
    }
    s.push_str("; 用 --help 查看用法");
    s
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(cmd::rounds::rewrite_double_forfeit(
        std::env::args().collect(),
    )) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind as K;
            if matches!(e.kind(), K::DisplayHelp | K::DisplayVersion) {
                e.exit();
            }
            // Chinese first, then clap's English with the usage line; exit code 2 as clap's.
            eprintln!("错误 error: {}", clap_error_zh(&e));
            let english = e.render().to_string();
            eprint!("{english}");
            if !english.contains("Usage:") {
                // clap leaves the usage out of a bad value's error: the command's own.
                eprint!("\n{}\n", usage_of(&std::env::args().collect::<Vec<_>>()));
            }
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Regulation(c) => cmd::regulation::run(c),
        Command::Event(c) => cmd::event::run(c),
        Command::Player(c) => cmd::player::run(c),
        Command::Section(c) => cmd::section::run(c),
        Command::Template(c) => cmd::template::run(c),
        Command::Fee(a) => cmd::desk::fee(a),
        Command::Refund(a) => cmd::money::refund(a),
        Command::RefundCondition(a) => cmd::money::condition(a),
        Command::Cash(a) => cmd::money::cash(a),
        Command::Checkin(a) => cmd::desk::checkin(a),
        Command::Draw(a) => cmd::desk::draw(a),
        Command::Team(c) => cmd::team::run(c),
        Command::Foul(a) => cmd::team::foul(a),
        Command::Pair(a) => cmd::pairing::pair(a),
        Command::Generate(a) => cmd::pairing::generate(a),
        Command::Check(a) => cmd::pairing::check(a),
        Command::Standings(a) => cmd::standings::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
        Command::Bench(c) => cmd::bench::run(c),
        Command::Knockout(c) => cmd::knockout::run(c),
        Command::Round(c) => cmd::rounds::run_round(c),
        Command::Result(c) => cmd::rounds::run_result(c),
        Command::Teams(a) => cmd::rounds::run_teams(a),
        Command::Prizes(a) => cmd::rounds::run_prizes(a),
        Command::Award(a) => cmd::award::run(a),
        Command::User(c) => cmd::user::run(c),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Print(a) => cmd::print::run(a),
        Command::Xiangqi(c) => cmd::xiangqi::run(c),
    };
    let code = match result {
        Ok(code) => code,
        // The reader went away (e.g. `| head`): nothing more to say.
        Err(e) if out::is_closed_pipe(&e) => 0,
        Err(e) => {
            eprintln!("错误 error: {e:#}");
            1
        }
    };
    if let Some(e) = out::finish() {
        eprintln!("错误 error: 无法写出标准输出 (cannot write to stdout): {e}");
        return ExitCode::from(1);
    }
    ExitCode::from(code)
}
