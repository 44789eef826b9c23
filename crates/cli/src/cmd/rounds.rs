//! `arbiter round …`, `arbiter result …`, `arbiter teams`, `arbiter prizes`: running the
//! rounds of an event stored in the database. Every writing command goes through
//! [`super::apply_op_as`] with an operation of `arbiter_director::api`; nothing here holds a rule.

use super::{load_event_section, Applied};
use arbiter_director::api::results::{
    due_knockout_game, parse_results_file, FoulInput, ResultInput,
};
use arbiter_director::api::rounds::{parse_result, sheet, PairOutcome, PairRequest, RoundSheet};
use arbiter_director::command::games::GameCommand;
use arbiter_director::command::rounds::RoundCommand;
use arbiter_director::command::Outcome;
use arbiter_types::{Colour, GameResult};
use clap::{Args, Subcommand};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The database and the actor of every command here.
#[derive(Args, Clone)]
pub struct DbActor {
    /// 数据库文件 — database file
    #[arg(long, default_value = super::DEFAULT_DB)]
    pub db: PathBuf,
    /// 操作人 — who makes the change (recorded in the log)
    #[arg(long, default_value = "arbiter")]
    pub actor: String,
}

/// The database, the actor and the time of every writing command here.
#[derive(Args, Clone)]
pub struct Writer {
    /// 数据库文件 — database file
    #[arg(long, default_value = super::DEFAULT_DB)]
    pub db: PathBuf,
    /// 操作人 — who makes the change (recorded in the log)
    #[arg(long, default_value = "arbiter")]
    pub actor: String,
    /// 记录时间 (RFC 3339, 例如 2026-09-01T10:00:00+08:00), 默认为当前时间 — time recorded (default now)
    #[arg(long)]
    pub at: Option<String>,
    /// 以账户身份操作 — act as this account of the database (its login is recorded and its
    /// role decides what is allowed); without it, the chief arbiter of a local database
    #[arg(long = "as", value_name = "USER")]
    pub as_user: Option<String>,
}

impl Writer {
    /// [`super::apply_op_as`] with this writer's database, actor and time; a bad `--at` is refused.
    pub(crate) fn apply(
        &self,
        event: &str,
        cmd: impl Into<arbiter_director::command::Command>,
    ) -> anyhow::Result<Result<Applied, String>> {
        self.apply_observed(event, cmd, &mut |_, _| {}, false)
    }

    /// [`Writer::apply`], telling `progress(done, total)` how far a long command has got;
    /// `dry_run`: decided as it would be, nothing written.
    pub(crate) fn apply_observed(
        &self,
        event: &str,
        cmd: impl Into<arbiter_director::command::Command>,
        progress: &mut dyn FnMut(usize, usize),
        dry_run: bool,
    ) -> anyhow::Result<Result<Applied, String>> {
        if let Some(e) = super::desk::checked_time(self.at.as_deref()) {
            return Ok(Err(e));
        }
        super::apply_op_as(self, event, &cmd.into(), progress, dry_run)
    }
}

#[derive(Args, Clone)]
pub struct EventSectionArgs {
    /// 赛事编号 — event id (as `event create` printed it)
    #[arg(long)]
    pub event: String,
    /// 组别 — section id
    #[arg(long)]
    pub section: String,
}

#[derive(Subcommand)]
pub enum RoundCmd {
    /// 编排下一轮 — pair the next round (draws the numbers first if nobody has)
    Pair {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 裁判长指定对阵 A-B (序号, 团体积分编排为队号, 可重复) — fix the pair A-B (pairing numbers; team numbers in a team Swiss; repeatable)
        #[arg(long, value_name = "A-B")]
        fix: Vec<String>,
        /// 调换两名棋手 (团体积分编排为两队) — swap players (teams, in a team Swiss) A and B of the engine's pairing
        #[arg(long, num_args = 2, value_names = ["A", "B"])]
        swap: Option<Vec<u32>>,
        /// 说明每台的编排理由 (stderr) — explain every board
        #[arg(long)]
        explain: bool,
        #[command(flatten)]
        who: Writer,
    },
    /// 对阵表 — the pairing sheet of a round (default: the knockout games due now, else the
    /// last round)
    Show {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round
        #[arg(long)]
        round: Option<u32>,
        /// JSON: {"section","round","published","boards":[{"board","red":{"no","name","unit","score"},"black":{…},"result"}],"bye","starts"}
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        who: DbActor,
    },
    /// 公布对阵表 — publish the open round's pairing
    Publish {
        #[command(flatten)]
        at: EventSectionArgs,
        #[command(flatten)]
        who: Writer,
    },
    /// 结束本轮 — close the open round once every result is in, and record the withdrawals
    /// the forfeit rule then demands (a round closes by itself with its last result; this is
    /// for a round left open, or withdrawals still due)
    Complete {
        #[command(flatten)]
        at: EventSectionArgs,
        #[command(flatten)]
        who: Writer,
    },
    /// 撤销编排 — undo the open round's pairing (unpublished, or without any result)
    Undo {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 撤销理由 — reason
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 出场名单 — a team's line-up for a round of a team match (A15): its players board by
    /// board, by registration id (P3) or name, `-` for an empty board (lost by forfeit); with
    /// the registered order kept they sit in their registered order
    Lineup {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round (default: the last round paired)
        #[arg(long)]
        round: Option<u32>,
        /// 队名 — the team
        #[arg(long)]
        team: String,
        /// 提交人 (领队/教练) — who handed it in
        #[arg(long, default_value = "")]
        by: String,
        /// 棋手, 第1台起 — the players, board 1 first
        #[arg(value_name = "PLAYER", required = true)]
        players: Vec<String>,
        #[command(flatten)]
        who: Writer,
    },
}

/// A player of a line-up: `-` (an empty board), a registration id (`P3`) or a name of the
/// team's roster.
fn lineup_player(
    state: &arbiter_core::EventState,
    team: &str,
    s: &str,
) -> Result<Option<arbiter_core::PlayerId>, String> {
    let t = s.trim();
    if t == "-" || t == "空" {
        return Ok(None);
    }
    let members = state
        .teams
        .get(team)
        .map(|r| r.members.clone())
        .ok_or_else(|| format!("队伍 「{team}」 不存在 (unknown team)"))?;
    if let Ok(p) = super::desk::parse_player(t) {
        return Ok(Some(p));
    }
    let named: Vec<_> = members
        .iter()
        .copied()
        .filter(|p| state.player(*p).is_some_and(|r| r.person.name == t))
        .collect();
    match named.as_slice() {
        [p] => Ok(Some(*p)),
        [] => Err(format!(
            "「{t}」 不是 {team} 的队员, 也不是报名号 (not on the team's roster, nor a registration id such as P3)"
        )),
        _ => Err(format!(
            "{team} 有 {} 名队员叫 「{t}」, 请用报名号 (several members by that name: give the registration id)",
            named.len()
        )),
    }
}

/// `arbiter result --event ID --section S --board B RESULT`, or `result import | confirm |
/// correct`. (The entering form's options are required unless a subcommand is given.)
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ResultCmd {
    #[command(subcommand)]
    pub sub: Option<ResultSub>,
    /// 赛事编号 — event id
    #[arg(long, required = true)]
    event: Option<String>,
    /// 组别 — section id
    #[arg(long, required = true)]
    section: Option<String>,
    /// 台号 — board
    #[arg(long, required = true)]
    board: Option<u32>,
    /// 成绩 (红方在前) — 1-0, 0-1, =, +- (红方判胜), -+ (黑方判胜), -- (双方弃权)
    #[arg(value_name = "RESULT", allow_hyphen_values = true, required = true)]
    result: Option<String>,
    /// 轮次 — round (default: the knockout games due now, else the last round)
    #[arg(long)]
    round: Option<u32>,
    /// 红方本局犯规次数 — red's fouls in this game
    #[arg(long, default_value_t = 0)]
    fouls_red: u32,
    /// 黑方本局犯规次数 — black's fouls in this game
    #[arg(long, default_value_t = 0)]
    fouls_black: u32,
    /// 本局犯规, 按发生顺序: 红方|黑方[:种类] (red|black[:KIND]), 种类 general 一般犯规 (默认), phone
    /// 使用手机, records 不记录着法, short_draw 未满回合提和, coaching 场外指导; 可重复 — a foul
    /// of this game with its kind, in order (repeatable)
    #[arg(long, value_name = "COLOUR[:KIND]")]
    foul: Vec<String>,
    /// 终局方式 — how the game ended: checkmate 将死, stalemate 困毙, self_check 送将, time 超时,
    /// resignation 认输, three_fouls 三次犯规, perpetual_check 长将/禁着, late 迟到, discipline 违纪,
    /// agreed_draw 议和, rule_draw 判和, natural_move_limit 自然限着
    #[arg(long)]
    ending: Option<String>,
    /// 回合数 — number of moves played
    #[arg(long)]
    moves: Option<u32>,
    /// 淘汰赛: 选色方执黑 — knockout: the player choosing colours took black
    #[arg(long)]
    chooser_black: bool,
    /// 重新录入: 该台现有的成绩 (签字确认前改正录入错误) — re-entry: the result stored on the
    /// board that this one replaces (before the slips are confirmed)
    #[arg(long, value_name = "RESULT", allow_hyphen_values = true)]
    replaces: Option<String>,
    /// 红黑颠倒: 本台实际对弈时先后手与对阵表相反 (开赛后不予纠正, 按实际先后手计分); 成绩与犯规
    /// 按实际执红/执黑填写 — the board was played with colours swapped (S6); the result and
    /// fouls are read from the colours played
    #[arg(long)]
    colours_swapped: bool,
    #[command(flatten)]
    who: Writer,
}

#[derive(Subcommand)]
pub enum ResultSub {
    /// 导入成绩文件 — enter a round's results from a file (`台号 成绩 [红犯规 黑犯规]` per line)
    Import {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 成绩文件 — results file
        file: PathBuf,
        /// 轮次 — round (default: the last round)
        #[arg(long)]
        round: Option<u32>,
        #[command(flatten)]
        who: Writer,
    },
    /// 签字确认 — confirm a round's results (signed slips)
    Confirm {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round (default: the last round)
        #[arg(long)]
        round: Option<u32>,
        #[command(flatten)]
        who: Writer,
    },
    /// 整队弃权 (团体赛, A15) — a team that does not appear: every game of its match is
    /// entered as its forfeit, and the match is its forfeit loss
    TeamAbsent {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round (default: the last round paired)
        #[arg(long)]
        round: Option<u32>,
        /// 队名 — the team that did not appear
        #[arg(long)]
        team: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 待确认的犯规提示 (和棋不足规定回合数, T6) — list the flags waiting for the arbiter
    Flags {
        #[command(flatten)]
        at: EventSectionArgs,
        #[command(flatten)]
        who: DbActor,
    },
    /// 确认或撤销一台的犯规提示 — confirm (the foul is recorded) or dismiss a board's flag
    Flag {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round
        #[arg(long)]
        round: u32,
        /// 台号 — board
        #[arg(long)]
        board: u32,
        /// 确认: 记犯规 — confirm: record the foul
        #[arg(long, conflicts_with = "dismiss", required_unless_present = "dismiss")]
        confirm: bool,
        /// 撤销提示 — dismiss the flag
        #[arg(long)]
        dismiss: bool,
        /// 哪一种提示: short_draw (和棋不足回合) 或 records (未录谱); 默认: 本台待确认的第一个 —
        /// which flag, when a board has two
        #[arg(long)]
        kind: Option<arbiter_core::FoulKind>,
        /// 理由 — reason (recorded)
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 棋谱 (记谱): 录入 (着法, --file, --pgn)、显示 (--show)、删除 (--remove) — a board's game
    /// record: enter it, show it in Chinese notation, remove it
    Record(super::records::RecordArgs),
    /// 拒不录谱 (记犯规一次, T6) — the player who must record this game refused (a foul)
    RefuseRecord {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round
        #[arg(long)]
        round: u32,
        /// 台号 — board
        #[arg(long)]
        board: u32,
        /// 拒不录谱方: red|black (红方/黑方) — who refused
        #[arg(long)]
        player: String,
        /// 说明 — what happened (recorded)
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 成绩单签字: 记录实际签字的棋手 (S11, J6) — record who signed a board's result slip
    Sign {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round
        #[arg(long)]
        round: u32,
        /// 台号 — board
        #[arg(long)]
        board: u32,
        /// 签字人: red|black|both (红方/黑方/双方) — who signed
        #[arg(long)]
        signed_by: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 申诉及仲裁结果 (S11: 申诉费) — a protest about a game and its decision
    Protest {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round
        #[arg(long)]
        round: u32,
        /// 台号 — board
        #[arg(long)]
        board: u32,
        /// 申诉人 (领队/教练) — who filed it
        #[arg(long)]
        by: String,
        /// 申诉成立 — upheld
        #[arg(
            long,
            conflicts_with = "rejected",
            required_unless_present = "rejected"
        )]
        upheld: bool,
        /// 申诉不成立 — rejected
        #[arg(long)]
        rejected: bool,
        /// 仲裁理由 — the decision in words
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        who: Writer,
    },
    /// 更正成绩 (裁判长) — correct a result, with the reason (A12)
    Correct {
        #[command(flatten)]
        at: EventSectionArgs,
        /// 轮次 — round
        #[arg(long)]
        round: u32,
        /// 台号 — board
        #[arg(long)]
        board: u32,
        /// 更正后的成绩 — the corrected result (1-0, 0-1, =, +-, -+, --)
        #[arg(value_name = "RESULT", allow_hyphen_values = true)]
        result: String,
        /// 更正理由 — reason
        #[arg(long)]
        reason: String,
        /// 推翻签名确认 — the regulation makes a signed result final (九江 补充五 「经签名确认比赛结果，
        /// 不予更改」); correct it all the same, recorded and printed as overriding the signatures
        #[arg(long)]
        override_signed: bool,
        #[command(flatten)]
        who: Writer,
    },
}

/// `arbiter teams` / `arbiter prizes`.
#[derive(Args)]
pub struct TableArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    pub event: String,
    /// JSON output
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub who: DbActor,
}

/// `arbiter result … --` means a double forfeit, but clap reads a bare `--` as the end of the
/// options. Rewrite it (to 双方弃权, which the result parser reads) when it stands where a
/// result stands: last, or followed by a flag.
pub fn rewrite_double_forfeit(args: Vec<String>) -> Vec<String> {
    if args.get(1).map(String::as_str) != Some("result") {
        return args;
    }
    let mut out = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        let next = args.get(i + 1);
        if a == "--" && next.is_none_or(|n| n.starts_with("--") && n != "--") {
            out.push("双方弃权".to_string());
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// Report an operation's outcome; returns the exit code.
/// The name of the regulation's association standings (S9: 团体), if it has them.
fn association_table_name(state: &arbiter_core::EventState) -> Option<String> {
    let reg = arbiter_director::regulation_of(state).ok()?;
    reg.associations.as_ref().map(|a| a.name.clone())
}

/// The name of each section by its id, for the lines the arbiter reads.
pub(crate) fn section_names(state: &arbiter_core::EventState) -> BTreeMap<String, String> {
    state
        .sections
        .iter()
        .map(|(id, s)| (id.clone(), s.name.clone()))
        .collect()
}

fn finish(
    r: anyhow::Result<Result<Applied, String>>,
    ok: impl FnOnce(&Applied),
) -> anyhow::Result<u8> {
    match r? {
        Ok(applied) => {
            ok(&applied);
            Ok(0)
        }
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            Ok(2)
        }
    }
}

fn print_sheet(s: &RoundSheet) {
    if s.knockout.is_empty() {
        println!(
            "{} 第{}轮对阵表{} (round {} pairings)",
            s.section,
            s.round,
            if s.published {
                ""
            } else {
                " [未公布 not published]"
            },
            s.round
        );
    } else {
        println!(
            "{} 淘汰赛 第{}轮 待下对局 (knockout games due now)",
            s.section, s.round
        );
    }
    if let Some(t) = &s.starts {
        println!("开始时间 starts: {t}");
    }
    match &s.records {
        // A knockout's duty is per game (its kind, its board within the knockout's round).
        Some(d) if !s.knockout.is_empty() => println!(
            "录谱: 标「录谱」的对局, {} (game records: the games marked, {})",
            d.recorder, d.recorder_en
        ),
        Some(d) => println!(
            "录谱: 第1–{}台, {} (game records: boards 1–{}, {})",
            d.boards, d.recorder, d.boards, d.recorder_en
        ),
        None => {}
    }
    println!("台号\t红方\t\t\t\t黑方\t\t\t\t成绩");
    for (i, b) in s.boards.iter().enumerate() {
        let side = |x: &arbiter_director::api::rounds::SheetSide| {
            format!(
                "{}号 {} ({}) {}分",
                x.no,
                x.name,
                x.unit.as_deref().unwrap_or("-"),
                x.score
            )
        };
        println!(
            "{}\t{}\t{}\t{}{}{}{}",
            b.board,
            side(&b.red),
            side(&b.black),
            b.result.as_deref().unwrap_or("—"),
            b.ending
                .map(|e| format!(" ({} {})", e.zh(), e.name()))
                .unwrap_or_default(),
            format!(
                "{}{}",
                if b.must_record {
                    "\t录谱 records"
                } else {
                    ""
                },
                if b.colours_swapped {
                    "\t红黑颠倒 colours swapped"
                } else {
                    ""
                }
            ),
            s.knockout
                .get(i)
                .map(|l| format!("\t{l}"))
                .unwrap_or_default()
        );
    }
    // 成绩带入: the pairs who met in their group play no game; their group game counts.
    for c in &s.carried {
        println!(
            "预赛成绩带入 carried\t{}号 {}\t{}号 {}\t{} (小组赛第{}轮 group round {})",
            c.red.no,
            c.red.name,
            c.black.no,
            c.black.name,
            c.result.as_deref().unwrap_or("—"),
            c.group_round,
            c.group_round
        );
    }
    if let Some(b) = &s.bye {
        println!("轮空 bye: {}号 {}", b.no, b.name);
    }
}

fn show(
    at: &EventSectionArgs,
    db: &std::path::Path,
    round: Option<u32>,
    json: bool,
) -> anyhow::Result<u8> {
    let es = match load_event_section(db, &at.event, Some(&at.section))? {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            return Ok(2);
        }
    };
    if round.is_none() {
        // Both lists when the continuing Swiss and the knockout are played side by side (and
        // a list per knockout round with games due); `--json`: the one sheet as an object,
        // several as an array in the same order.
        return match arbiter_director::api::rounds::open_sheets(&es.state, &es.section) {
            Ok(sheets) if json => {
                match sheets.as_slice() {
                    [one] => println!("{}", serde_json::to_string_pretty(one)?),
                    all => println!("{}", serde_json::to_string_pretty(all)?),
                }
                Ok(0)
            }
            Ok(sheets) => {
                for (i, s) in sheets.iter().enumerate() {
                    if i > 0 {
                        println!();
                    }
                    print_sheet(s);
                }
                Ok(0)
            }
            Err(e) => {
                eprintln!("错误 error: {e}");
                Ok(2)
            }
        };
    }
    match sheet(&es.state, &es.section, round) {
        Ok(s) if json => {
            println!("{}", serde_json::to_string_pretty(&s)?);
            Ok(0)
        }
        Ok(s) => {
            print_sheet(&s);
            Ok(0)
        }
        Err(e) => {
            eprintln!("错误 error: {e}");
            Ok(2)
        }
    }
}

fn parse_pair_request(fix: &[String], swap: Option<&[u32]>) -> Result<PairRequest, String> {
    let fix = arbiter_director::manual::parse_fixes(fix)?;
    let swap = swap
        .map(arbiter_director::manual::parse_swap)
        .transpose()
        .map_err(|e| format!("--swap: {e}"))?;
    Ok(PairRequest { fix, swap })
}

pub fn run_round(c: RoundCmd) -> anyhow::Result<u8> {
    match c {
        RoundCmd::Pair {
            at,
            fix,
            swap,
            explain,
            who,
        } => {
            let req = match parse_pair_request(&fix, swap.as_deref()) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("错误 error: {e}");
                    return Ok(2);
                }
            };
            let r = who.apply(
                &at.event,
                RoundCommand::Pair {
                    section: at.section.clone(),
                    request: req,
                },
            );
            let mut last = PairOutcome::default();
            let code = finish(r, |a| {
                if let Outcome::Paired(o) = &a.outcome {
                    last = o.clone();
                }
            })?;
            if code != 0 {
                return Ok(code);
            }
            for n in &last.notes {
                println!("{n}");
            }
            if let Ok(Ok(es)) = load_event_section(&who.db, &at.event, Some(&at.section)) {
                if let Ok(s) = sheet(&es.state, &es.section, Some(last.round)) {
                    print_sheet(&s);
                }
            }
            if explain {
                eprint!("{}", last.explanation);
            }
            super::pairing::print_relaxed(&last.relaxed);
            if !last.warnings.is_empty() {
                eprintln!(
                    "警告 warning: 人工编排违反 {} 条规则 (the manual pairing breaks {} rules); 编排照常记录 (recorded anyway):",
                    last.warnings.len(),
                    last.warnings.len()
                );
                for w in &last.warnings {
                    eprintln!("  {w}");
                }
            }
            println!("请核对后用 「arbiter round publish」 公布 (check, then publish)");
            Ok(0)
        }
        RoundCmd::Show {
            at,
            round,
            json,
            who,
        } => show(&at, &who.db, round, json),
        RoundCmd::Publish { at, who } => {
            let r = who.apply(
                &at.event,
                RoundCommand::Publish {
                    section: at.section.clone(),
                },
            );
            finish(r, |a| {
                if let Outcome::Round {
                    section_name: section,
                    round,
                } = &a.outcome
                {
                    println!("{section} 第{round}轮对阵表已公布 (round {round} published)");
                }
            })
        }
        RoundCmd::Lineup {
            at,
            round,
            team,
            by,
            players,
            who,
        } => {
            let state = match load_event_section(&who.db, &at.event, Some(&at.section))? {
                Ok(es) => es.state,
                Err(msg) => {
                    eprintln!("错误 error: {msg}");
                    return Ok(2);
                }
            };
            let mut named = Vec::with_capacity(players.len());
            for p in &players {
                match lineup_player(&state, &team, p) {
                    Ok(p) => named.push(p),
                    Err(e) => {
                        eprintln!("错误 error: {e}");
                        return Ok(2);
                    }
                }
            }
            let round = round.unwrap_or_else(|| {
                state
                    .section(&at.section)
                    .map_or(0, |s| s.matches.keys().next_back().copied().unwrap_or(0))
            });
            let r = who.apply(
                &at.event,
                RoundCommand::Lineup {
                    section: at.section.clone(),
                    round,
                    team,
                    players: named,
                    by,
                },
            );
            finish(r, |a| {
                if let Outcome::Lineup {
                    team,
                    round,
                    boards,
                } = &a.outcome
                {
                    println!("{team} 第{round}轮出场名单 (line-up, round {round}):");
                    for (i, p) in boards.iter().enumerate() {
                        println!(
                            "  第{}台 {}",
                            i + 1,
                            p.as_deref().unwrap_or("(空台, 判负 empty: forfeit)")
                        );
                    }
                }
            })
        }
        RoundCmd::Complete { at, who } => {
            let r = who.apply(
                &at.event,
                RoundCommand::Complete {
                    section: at.section.clone(),
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        RoundCmd::Undo { at, reason, who } => {
            let r = who.apply(
                &at.event,
                RoundCommand::Undo {
                    section: at.section.clone(),
                    reason,
                },
            );
            finish(r, |a| {
                if let Outcome::Round {
                    section_name: section,
                    round,
                } = &a.outcome
                {
                    println!(
                        "{section} 第{round}轮编排已撤销, 可重新编排 (round {round} undone; pair it again)"
                    );
                }
            })
        }
    }
}

/// `--foul red|black[:KIND]` (also 红/黑 and the kinds' Chinese names).
fn parse_foul(s: &str) -> Result<FoulInput, String> {
    let (who, kind) = s.split_once(':').unwrap_or((s, "general"));
    let Some(colour) = Colour::from_words(who) else {
        return Err(format!(
            "--foul 「{s}」: 「{}」 应为 red 或 black (红方/黑方) (expected red or black)",
            who.trim()
        ));
    };
    let kind = kind
        .parse::<arbiter_core::FoulKind>()
        .map_err(|e| format!("--foul 「{s}」: {e}"))?;
    Ok(FoulInput {
        colour,
        kind,
        reason: String::new(),
    })
}

/// A colour as typed: red|black, 红/黑, 红方/黑方.
fn parse_colour(flag: &str, s: &str) -> Result<Colour, String> {
    Colour::from_words(s).ok_or_else(|| {
        format!(
            "{flag} 「{}」 应为 red 或 black (红方/黑方) (expected red or black)",
            s.trim()
        )
    })
}

/// `--ending` by its log name (`resignation`) or Chinese label (`认输`).
fn parse_ending(s: &str) -> Result<arbiter_core::Ending, String> {
    s.parse().map_err(|e| format!("--ending {e}"))
}

fn parse_or_exit(s: &str) -> Result<GameResult, u8> {
    parse_result(s).map_err(|e| {
        eprintln!("错误 error: {e}");
        2
    })
}

pub fn run_result(c: ResultCmd) -> anyhow::Result<u8> {
    match c.sub {
        Some(ResultSub::Import {
            at,
            file,
            round,
            who,
        }) => {
            let text = match std::fs::read_to_string(&file) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!(
                        "错误 error: {}: 无法读取 (cannot read): {e}",
                        file.display()
                    );
                    return Ok(2);
                }
            };
            let lines = match parse_results_file(&file.display().to_string(), &text) {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("错误 error: {e}");
                    return Ok(2);
                }
            };
            let r = who.apply(
                &at.event,
                GameCommand::ImportResults {
                    section: at.section.clone(),
                    round,
                    lines,
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        Some(ResultSub::Confirm { at, round, who }) => {
            let r = who.apply(
                &at.event,
                GameCommand::Confirm {
                    section: at.section.clone(),
                    round,
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        Some(ResultSub::TeamAbsent {
            at,
            round,
            team,
            who,
        }) => {
            let r = who.apply(
                &at.event,
                GameCommand::TeamAbsent {
                    section: at.section.clone(),
                    round,
                    team,
                },
            );
            finish(r, |a| {
                if let Outcome::TeamAbsent {
                    team,
                    round,
                    boards,
                } = &a.outcome
                {
                    let list: Vec<String> = boards.iter().map(u32::to_string).collect();
                    println!(
                        "{team} 第{round}轮整队弃权: 第 {} 台判负, 该场判负 (the team forfeits round {round}: boards {})",
                        list.join("、"),
                        list.join(", ")
                    );
                }
            })
        }
        Some(ResultSub::Flags { at, who }) => {
            let es = match load_event_section(&who.db, &at.event, Some(&at.section))? {
                Ok(es) => es,
                Err(msg) => {
                    eprintln!("错误 error: {msg}");
                    return Ok(2);
                }
            };
            match arbiter_director::api::games::pending_flags(&es.state, Some(&es.section)) {
                Ok(flags) if flags.is_empty() => {
                    println!("没有待确认的犯规提示 (no flags waiting)");
                    Ok(0)
                }
                Ok(flags) => {
                    for f in &flags {
                        println!("待确认 pending: {}", f.describe());
                    }
                    Ok(0)
                }
                Err(e) => {
                    eprintln!("错误 error: {e}");
                    Ok(2)
                }
            }
        }
        Some(ResultSub::Flag {
            at,
            round,
            board,
            confirm,
            dismiss: _,
            kind,
            reason,
            who,
        }) => {
            let r = who.apply(
                &at.event,
                GameCommand::DecideFlag {
                    section: at.section.clone(),
                    round,
                    board,
                    kind,
                    confirm,
                    reason,
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        Some(ResultSub::Record(a)) => super::records::run(a),
        Some(ResultSub::RefuseRecord {
            at,
            round,
            board,
            player,
            reason,
            who,
        }) => {
            let colour = match parse_colour("--player", &player) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("错误 error: {e}");
                    return Ok(2);
                }
            };
            let r = who.apply(
                &at.event,
                GameCommand::RefuseRecord {
                    section: at.section.clone(),
                    round,
                    board,
                    colour,
                    reason,
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        Some(ResultSub::Sign {
            at,
            round,
            board,
            signed_by,
            who,
        }) => {
            let signed = match signed_by.trim() {
                "both" | "双方" => vec![Colour::Red, Colour::Black],
                other => match parse_colour("--signed-by", other) {
                    Ok(c) => vec![c],
                    Err(e) => {
                        eprintln!("错误 error: {e} / both (双方)");
                        return Ok(2);
                    }
                },
            };
            let r = who.apply(
                &at.event,
                GameCommand::Sign {
                    section: at.section.clone(),
                    round,
                    board,
                    signed,
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        Some(ResultSub::Protest {
            at,
            round,
            board,
            by,
            upheld,
            rejected: _,
            reason,
            who,
        }) => {
            let r = who.apply(
                &at.event,
                GameCommand::Protest {
                    section: at.section.clone(),
                    round,
                    board,
                    by,
                    upheld,
                    reason,
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        Some(ResultSub::Correct {
            at,
            round,
            board,
            result,
            reason,
            override_signed,
            who,
        }) => {
            let result = match parse_or_exit(&result) {
                Ok(r) => r,
                Err(code) => return Ok(code),
            };
            let r = who.apply(
                &at.event,
                GameCommand::CorrectResult {
                    section: at.section.clone(),
                    round,
                    board,
                    result,
                    reason,
                    override_signed,
                },
            );
            finish(r, |a| super::tell(&who.db, &at.event, a))
        }
        None => {
            let (Some(event), Some(section), Some(board), Some(result)) =
                (c.event, c.section, c.board, c.result)
            else {
                eprintln!("错误 error: 缺少参数: 「arbiter result --event ID --section S --board B RESULT」 或 「result import|confirm|correct」 (missing arguments)");
                return Ok(2);
            };
            let result = match parse_or_exit(&result) {
                Ok(r) => r,
                Err(code) => return Ok(code),
            };
            let replaces = match c.replaces.as_deref().map(parse_or_exit).transpose() {
                Ok(r) => r,
                Err(code) => return Ok(code),
            };
            // The knockout game the arbiter sees due on this board now: if someone enters it
            // first, this one is a conflict rather than the match's next game.
            let mut fouls = Vec::new();
            for f in &c.foul {
                match parse_foul(f) {
                    Ok(x) => fouls.push(x),
                    Err(e) => {
                        eprintln!("错误 error: {e}");
                        return Ok(2);
                    }
                }
            }
            let ending = match c.ending.as_deref().map(parse_ending).transpose() {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("错误 error: {e}");
                    return Ok(2);
                }
            };
            let expect_game = match load_event_section(&c.who.db, &event, Some(&section))? {
                Ok(es) => due_knockout_game(&es.state, &es.section, c.round, board)
                    .ok()
                    .flatten()
                    .map(|(m, g)| (m, g.index as u32)),
                Err(msg) => {
                    eprintln!("错误 error: {msg}");
                    return Ok(2);
                }
            };
            let input = ResultInput {
                round: c.round,
                chooser_takes_black: c.chooser_black,
                expect_game,
                fouls,
                ending,
                moves: c.moves,
                replaces,
                colours_swapped: c.colours_swapped.then_some(true),
                ..ResultInput::new(board, result)
            }
            .with_fouls(Colour::Red, c.fouls_red)
            .with_fouls(Colour::Black, c.fouls_black);
            let r = c.who.apply(
                &event,
                GameCommand::EnterResult {
                    section: section.clone(),
                    input,
                },
            );
            let code = finish(r, |a| super::tell(&c.who.db, &event, a))?;
            if code == 0 {
                // A flag the result raised (T6: a draw short of the minimum moves) is listed
                // at once, for the arbiter to confirm or dismiss.
                if let Ok(es) = load_event_section(&c.who.db, &event, Some(&section))? {
                    let flags =
                        arbiter_director::api::games::pending_flags(&es.state, Some(&es.section))
                            .unwrap_or_default();
                    for f in flags.iter().filter(|f| f.board == board) {
                        println!("待确认 pending: {}", f.describe());
                    }
                }
            }
            Ok(code)
        }
    }
}

fn load_export(
    db: &std::path::Path,
    event: &str,
) -> anyhow::Result<Result<(arbiter_core::EventState, arbiter_director::Export), String>> {
    let state = match super::load_state(db, event)? {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    match arbiter_director::export(&state) {
        Ok(x) => Ok(Ok((state, x))),
        Err(e) => Ok(Err(e.to_string())),
    }
}

fn player_name(state: &arbiter_core::EventState, section: &str, no: u32) -> String {
    state
        .section(section)
        .and_then(|s| s.order.get(no.saturating_sub(1) as usize))
        .and_then(|p| state.player(*p))
        .map(|p| p.person.name.clone())
        .unwrap_or_default()
}

/// `arbiter teams`: team standings (and the association table) of the event as it stands.
pub fn run_teams(a: TableArgs) -> anyhow::Result<u8> {
    let (state, x) = match load_export(&a.who.db, &a.event)? {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            return Ok(2);
        }
    };
    let reg = arbiter_director::regulation_of(&state)?;
    let mut matches = Vec::new();
    for sec in &reg.sections {
        if sec.team_match.is_some() {
            let table = arbiter_director::team_match::standings(&reg, &state, &sec.id)?;
            let boards = arbiter_director::team_match::board_prizes(&reg, &state, &sec.id);
            matches.push((sec.id.clone(), sec.name.clone(), table, boards));
        }
    }
    if a.json {
        let team_matches: Vec<_> = matches
            .iter()
            .map(|(id, name, t, b)| {
                serde_json::json!({"section": id, "name": name, "standings": t.rows, "boards": b})
            })
            .collect();
        let v = serde_json::json!({"teams": x.teams, "associations": x.associations, "team_matches": team_matches});
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    for (_, name, t, boards) in &matches {
        print!("{}", arbiter_director::team_match::standings_text(name, t));
        if let Some(b) = boards {
            print!("{}", arbiter_director::team_match::board_prizes_text(b));
        }
    }
    if x.teams.is_empty() && x.associations.is_empty() && matches.is_empty() {
        println!("本赛事没有团体名次 (no team standings in this event)");
    }
    for t in &x.teams {
        println!(
            "{} {} 团体名次 (team standings)",
            t.section,
            t.division.as_deref().unwrap_or("")
        );
        for r in &t.standings {
            let names: Vec<String> = r
                .members
                .iter()
                .map(|no| format!("{no}号{}", player_name(&state, &t.section, *no)))
                .collect();
            println!(
                "  {}\t{}\t{}分\t{}",
                r.rank,
                r.team,
                r.total,
                names.join(" ")
            );
        }
    }
    if !x.associations.is_empty() {
        println!("协会团体 (associations)");
        for r in &x.associations {
            println!("  {}\t{}\t{}", r.rank, r.association, r.total);
        }
    }
    // S9 「组别不全不与计算团体成绩」: the associations not ranked are listed, with what they miss.
    if reg.associations.is_some() {
        let computed = arbiter_director::publish::compute(&reg, &state)?;
        let unranked: Vec<_> = computed
            .associations
            .iter()
            .filter(|a| a.rank.is_none())
            .collect();
        if !unranked.is_empty() && x.associations.is_empty() {
            println!("协会团体 (associations)");
        }
        for a in unranked {
            let missing: Vec<String> = a
                .missing_sections
                .iter()
                .map(|s| reg.section(s).map_or(s.clone(), |x| x.name.clone()))
                .collect();
            println!(
                "  —\t{}\t组别不全, 不计算团体成绩: 缺{} (not ranked: missing {})",
                a.association,
                missing.join("、"),
                a.missing_sections.join(", ")
            );
        }
    }
    // S9: who counts for no association is said, never left out silently.
    if let Some(w) = arbiter_director::registration::unassociated_warning(&reg, &state) {
        eprintln!("注意 notice: {w}");
    }
    Ok(0)
}

/// `arbiter prizes`: the prizes of the event as it stands (final once every round is played).
pub fn run_prizes(a: TableArgs) -> anyhow::Result<u8> {
    let (state, x) = match load_export(&a.who.db, &a.event)? {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            return Ok(2);
        }
    };
    if a.json {
        let v = serde_json::json!({
            "prizes": x.prizes,
            "prize_total": x.prize_total,
            "prizes_before_tax": x.event.prizes_before_tax,
            "prize_currency": x.event.prize_currency,
            "special_awards": x.special_awards,
            "qualified": x.qualified,
            "grade_awards": x.grade_awards,
            "provisional": x.provisional,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    if x.prizes.is_empty() {
        println!("尚无奖项 (no prizes yet)");
    }
    // T9 "奖金为税前": every amount says so.
    let tax = if x.event.prizes_before_tax {
        "（税前）"
    } else {
        ""
    };
    let cur = x.event.prize_currency;
    for p in &x.prizes {
        let who = match (p.no, &p.team) {
            (Some(no), _) => format!("{no}号 {}", player_name(&state, &p.section, no)),
            (None, Some(t)) => t.clone(),
            _ => String::new(),
        };
        // K13: the trophy (奖杯) and the medal (奖牌) are part of the prize.
        let honours: String = [(p.trophy, "奖杯 "), (p.medal, "奖牌 ")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, w)| *w)
            .collect();
        // Association prizes (S9) are keyed `associations`: the table's own name (团体).
        let se = x.sections.iter().find(|s| s.id == p.section);
        let category = p.category.as_deref().map_or(String::new(), |c| {
            se.and_then(|s| s.categories.iter().find(|x| x.id == c))
                .map_or(c.to_string(), |x| x.name.clone())
        });
        let section = match se {
            Some(s) => s.name.clone(),
            None if p.section == arbiter_director::prizes::ASSOCIATIONS => {
                association_table_name(&state).unwrap_or_else(|| p.section.clone())
            }
            None => p.section.clone(),
        };
        println!(
            "{}\t{}\t第{}名\t{}\t{}{honours}{}",
            section,
            category,
            p.rank,
            who,
            p.amount
                .map(|a| format!("{}{tax} ", cur.amount(a, true)))
                .unwrap_or_default(),
            p.title.as_deref().or(p.item.as_deref()).unwrap_or("")
        );
    }
    // S10: the organiser's awards given.
    for a in &x.special_awards {
        for r in &a.recipients {
            println!(
                "组委会奖项\t{}\t{r}\t{}",
                a.award,
                a.amount
                    .map(|m| format!("{}{tax}", cur.amount(m, true)))
                    .unwrap_or_default()
            );
        }
    }
    println!("奖金合计 (total): {}{tax}", cur.amount(x.prize_total, true));
    // S8: the players who qualify for a later event, one list per qualification of a
    // section's ranking or of a category's.
    let mut heading = None;
    for q in &x.qualified {
        let se = x.sections.iter().find(|s| s.id == q.section);
        let mut section = se.map_or(q.section.clone(), |s| s.name.clone());
        if let Some(c) = &q.category {
            let name = se
                .and_then(|s| s.categories.iter().find(|x| &x.id == c))
                .map_or(c.as_str(), |x| x.name.as_str());
            section = format!("{section} {name}");
        }
        let head = (q.section.clone(), q.category.clone(), q.to.clone());
        if heading.as_ref() != Some(&head) {
            println!("取得「{}」资格 (qualified): {section}", q.to);
            heading = Some(head);
        }
        println!(
            "  第{}名	{}号 {}",
            q.place,
            q.no,
            player_name(&state, &q.section, q.no)
        );
    }
    // 等级称号: the grades the places earn, section by section.
    let mut heading = None;
    for g in &x.grade_awards {
        if heading.as_ref() != Some(&g.section) {
            let section = x
                .sections
                .iter()
                .find(|s| s.id == g.section)
                .map_or(g.section.clone(), |s| s.name.clone());
            println!("等级称号 (grades awarded): {section}");
            heading = Some(g.section.clone());
        }
        let who = format!("{}号 {}", g.no, player_name(&state, &g.section, g.no));
        match (&g.held, g.awarded) {
            (_, true) => println!(
                "  第{}名\t{who}\t授予 {}{}",
                g.rank,
                g.grade,
                g.held
                    .as_deref()
                    .map(|h| format!(" (原 {h})"))
                    .unwrap_or_default()
            ),
            (held, false) => println!(
                "  第{}名\t{who}\t已具有 {}, 不再授予 {} (already holds it or higher)",
                g.rank,
                held.as_deref().unwrap_or(""),
                g.grade
            ),
        }
    }
    if x.provisional {
        println!(
            "暂定: 尚有对局未结束, 获奖名单以最终名次为准 (provisional: games remain to be played)"
        );
    }
    Ok(0)
}
