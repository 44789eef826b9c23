//! `arbiter team add` (enter a team's roster, K3), `arbiter team roster add|remove|replace`
//! (change it after the entry), `arbiter team withdraw` (整队退赛), `arbiter team confirm` (a
//! captain confirms his team's match, 队长确认) and `arbiter foul` (a team's leader or coach
//! earns the team a foul, K12). Each parses its flags and calls one operation of
//! `arbiter_director::api` through [`super::apply_op_as`]; nothing here holds a rule.

use super::desk::{checked_time, parse_player, refused};
use super::rounds::Writer;
use arbiter_core::FoulKind;
use arbiter_director::api::entries::{RosterChange, TeamForm};
use arbiter_director::command::games::GameCommand;
use arbiter_director::command::registration::RegistrationCommand;
use arbiter_director::command::Outcome;
use clap::{Args, Subcommand};

#[derive(Subcommand)]
pub enum TeamCmd {
    /// 报名队伍 — enter a team with its members (K1–K3: one section, one unit, the regulation's
    /// team size; every player who named the team at registration must be listed)
    Add(TeamAddArgs),
    /// 队伍名单 — change a team's roster after its entry (before its first game the desk; after
    /// it only the chief arbiter, with a reason)
    #[command(subcommand)]
    Roster(RosterCmd),
    /// 整队退赛 — withdraw a whole team (a team match, A15): every member not withdrawn yet;
    /// the team is not paired again, its matches so far stand
    Withdraw(TeamWithdrawArgs),
    /// 队长确认 — a team's captain confirms its match of a round (a team match, A15) by
    /// signing the match's score sheet, once every board of the match has a result
    Confirm(TeamConfirmArgs),
}

#[derive(Args)]
pub struct TeamConfirmArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 组别 — section id (or its Chinese name)
    #[arg(long)]
    section: String,
    /// 轮次 — round (default: the last round paired)
    #[arg(long)]
    round: Option<u32>,
    /// 队名 — the team whose captain confirms
    #[arg(long)]
    team: String,
    /// 队长 — the captain who signed (recorded)
    #[arg(long, default_value = "")]
    by: String,
    #[command(flatten)]
    who: Writer,
}

#[derive(Args)]
pub struct TeamWithdrawArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 队名 — the team
    #[arg(long)]
    team: String,
    /// 理由 — reason (recorded)
    #[arg(long)]
    reason: String,
    #[command(flatten)]
    who: Writer,
}

#[derive(Subcommand)]
pub enum RosterCmd {
    /// 增补队员 — add a player to the team
    Add(RosterArgs),
    /// 移出队员 — remove a player from the team
    Remove(RosterArgs),
    /// 替换队员 — replace a member (`--player`) by another player (`--by`)
    Replace(RosterArgs),
}

#[derive(Args)]
pub struct RosterArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 队名 — the team
    #[arg(long)]
    team: String,
    /// 队员 — the player added or removed (P3 or 3); for `replace`, the member who leaves
    #[arg(long)]
    player: String,
    /// 替换为 — for `replace`: the player who joins
    #[arg(long)]
    by: Option<String>,
    /// 理由 — reason (recorded; required after the team's first game)
    #[arg(long, default_value = "")]
    reason: String,
    /// 操作人是裁判长 — kept for existing scripts: the CLI on a local database acts as the
    /// chief arbiter, who alone changes a roster after the team's first game
    #[arg(long)]
    chief: bool,
    #[command(flatten)]
    who: Writer,
}

#[derive(Args)]
pub struct TeamAddArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 队名 — team name (unique in the event)
    #[arg(long)]
    name: String,
    /// 单位 — the team's unit (every member must belong to it)
    #[arg(long)]
    unit: String,
    /// 队员 — member's player id (P3 or 3), repeatable, in board order
    #[arg(long = "member", value_name = "PID", required = true)]
    members: Vec<String>,
    /// 团体组别 — team division (甲组/乙组), by id or name
    #[arg(long)]
    division: Option<String>,
    /// 领队 — team leader
    #[arg(long)]
    leader: Option<String>,
    /// 教练 — coach
    #[arg(long)]
    coach: Option<String>,
    #[command(flatten)]
    who: Writer,
}

/// `arbiter foul`: a foul of a team (its leader or coach, K12).
#[derive(Args)]
pub struct FoulArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 组别 — section id (or its Chinese name)
    #[arg(long)]
    section: String,
    /// 队名 — the team
    #[arg(long)]
    team: String,
    /// 轮次 — round (default: the last round paired)
    #[arg(long)]
    round: Option<u32>,
    /// 种类 — kind: coaching 场外指导 (default), general 一般犯规, phone 使用手机, records
    /// 不记录着法, short_draw 未满回合提和
    #[arg(long, default_value = "coaching")]
    kind: String,
    /// 理由 — what happened (recorded)
    #[arg(long)]
    reason: String,
    #[command(flatten)]
    who: Writer,
}

pub fn run(c: TeamCmd) -> anyhow::Result<u8> {
    match c {
        TeamCmd::Add(a) => add(a),
        TeamCmd::Roster(r) => roster(r),
        TeamCmd::Withdraw(a) => withdraw(a),
        TeamCmd::Confirm(a) => confirm(a),
    }
}

fn confirm(a: TeamConfirmArgs) -> anyhow::Result<u8> {
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    let cmd = GameCommand::ConfirmMatch {
        section: a.section.clone(),
        round: a.round,
        team: a.team.clone(),
        by: a.by.clone(),
    };
    match a.who.apply(&a.event, cmd)? {
        Ok(done) => {
            if let Outcome::MatchConfirmed {
                team,
                by,
                round,
                match_no,
                opponent,
                opponent_by,
            } = &done.outcome
            {
                let captain = if by.is_empty() {
                    "队长".to_string()
                } else {
                    format!("队长 {by}")
                };
                let both = if opponent_by.is_some() {
                    "; 双方队长均已确认 (both captains have confirmed)".to_string()
                } else {
                    format!("; 待 {opponent} 队长确认 (waiting for the other captain)")
                };
                println!(
                    "第{round}轮 第{match_no}场 {team} {captain} 已确认{both} (match {match_no} of round {round} confirmed by {team})"
                );
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

fn withdraw(a: TeamWithdrawArgs) -> anyhow::Result<u8> {
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    let cmd = RegistrationCommand::WithdrawTeam {
        team: a.team.clone(),
        reason: a.reason.clone(),
    };
    match a.who.apply(&a.event, cmd)? {
        Ok(done) => {
            println!(
                "{} 整队退赛: {} 名队员已退赛, 不再编排 (team withdrawn: {} players)",
                a.team,
                done.entries.len(),
                done.entries.len()
            );
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

fn roster(c: RosterCmd) -> anyhow::Result<u8> {
    let (a, add, remove) = match c {
        RosterCmd::Add(a) => (a, true, false),
        RosterCmd::Remove(a) => (a, false, true),
        RosterCmd::Replace(a) => (a, true, true),
    };
    let p = match parse_player(&a.player) {
        Ok(p) => p,
        Err(e) => return Ok(refused(&e)),
    };
    let by =
        match (add && remove, a.by.as_deref()) {
            (true, Some(b)) => match parse_player(b) {
                Ok(b) => Some(b),
                Err(e) => return Ok(refused(&e.replace("--player", "--by"))),
            },
            (true, None) => return Ok(refused(
                "替换队员须用 --by 指明替换上场的棋手 (replace needs --by: the player who joins)",
            )),
            (false, Some(_)) => {
                return Ok(refused(
                    "--by 只用于 replace (--by is for 「team roster replace」 only)",
                ))
            }
            (false, None) => None,
        };
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    let change = RosterChange {
        team: a.team.clone(),
        add: match (by, add) {
            (Some(b), _) => vec![b],
            (None, true) => vec![p],
            (None, false) => Vec::new(),
        },
        remove: if remove { vec![p] } else { Vec::new() },
        reason: a.reason.clone(),
    };
    match a
        .who
        .apply(&a.event, RegistrationCommand::ChangeRoster { change })?
    {
        Ok(done) => {
            if let Outcome::Team {
                team,
                added,
                removed,
                ..
            } = &done.outcome
            {
                println!(
                    "队伍名单已更改 roster changed: {team} 增补 added: {} 移出 removed: {}",
                    added.join("、"),
                    removed.join("、")
                );
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

fn add(a: TeamAddArgs) -> anyhow::Result<u8> {
    let mut members = Vec::with_capacity(a.members.len());
    for m in &a.members {
        match parse_player(m) {
            Ok(p) => members.push(p),
            Err(e) => return Ok(refused(&e.replace("--player", "--member"))),
        }
    }
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    let form = TeamForm {
        team: a.name.clone(),
        unit: a.unit.clone(),
        division: a.division.clone(),
        members,
        leader: a.leader.clone(),
        coach: a.coach.clone(),
    };
    match a
        .who
        .apply(&a.event, RegistrationCommand::EnterTeam { form })?
    {
        Ok(done) => {
            if let Outcome::Team {
                team, unit, added, ..
            } = &done.outcome
            {
                println!(
                    "已报名队伍 team entered: {team} ({unit}) 队员 members: {}",
                    added.join("、")
                );
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

pub fn foul(a: FoulArgs) -> anyhow::Result<u8> {
    let kind = match a.kind.parse::<FoulKind>() {
        Ok(k) => k,
        Err(e) => return Ok(refused(&format!("--kind: {e}"))),
    };
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    match a.who.apply(
        &a.event,
        GameCommand::TeamFoul {
            section: a.section.clone(),
            team: a.team.clone(),
            round: a.round,
            kind,
            reason: a.reason.clone(),
        },
    )? {
        Ok(done) => {
            if let Outcome::TeamFoul {
                team: t,
                round: Some(r),
                kind,
            } = &done.outcome
            {
                println!(
                    "已记录团体犯规 team foul recorded: {t} 第{r}轮 {} ({})",
                    kind.zh(),
                    kind.code()
                );
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}
