//! `arbiter event verify`: replay the log from scratch and recompute everything — every
//! draw of numbers and every pairing (the engine re-run with the recorded seed, unless the
//! round records a manual pairing), the independent pairing checker on every Swiss round,
//! the withdrawal and foul-loss rules, every knockout game against its match format, every
//! score, standing and prize — and compare with what the log and the published export say.

use crate::export::Export;
use crate::plan::{due_withdrawals, section_plan, SectionPlan};
use crate::publish::{build, compute};
use crate::registration::{
    check_eligibility, check_team_roster, check_team_unit, draw_numbers, Applicant,
};
use crate::round::pair_round;
use crate::{knockout_stage, regulation_of};
use arbiter_core::{validate_at, EventState, LogEntry, Offender, PlayerRegistered, Recorded};
use arbiter_pairing::{Board as PBoard, Explanation, Pairing};
use arbiter_regulation::Regulation;
use arbiter_types::{Colour, Outcome, Score};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One thing that does not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub seq: Option<u64>,
    pub section: Option<String>,
    pub round: Option<u32>,
    pub what: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.seq {
            write!(f, "第{s}条日志 ")?;
        }
        if let Some(s) = &self.section {
            write!(f, "[{s}] ")?;
        }
        if let Some(r) = self.round {
            write!(f, "第{r}轮: ")?;
        }
        f.write_str(&self.what)
    }
}

fn diff(seq: Option<u64>, section: Option<&str>, round: Option<u32>, what: String) -> Difference {
    Difference {
        seq,
        section: section.map(str::to_string),
        round,
        what,
    }
}

/// Verify a log; `published` is the export that was published for it, if any.
pub fn verify(log: &[Recorded], published: Option<&Export>) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut state = EventState::new();
    let mut reg: Option<std::sync::Arc<Regulation>> = None;
    for r in log {
        if let Some(reg) = &reg {
            check_entry(reg, &state, r, &mut out);
        }
        if let Err(e) = state.apply(r) {
            out.push(diff(
                Some(r.seq),
                None,
                None,
                format!("日志无法重放: {e} (the log does not replay)"),
            ));
            return out;
        }
        // The settings in force change the regulation (the deadline, the date ages are
        // counted on): later entries are judged by the regulation as changed.
        let changed = matches!(r.entry, LogEntry::SettingsChanged { .. });
        if (reg.is_none() || changed) && state.header.is_some() {
            match regulation_of(&state) {
                Ok(x) => reg = Some(x),
                Err(e) => {
                    out.push(diff(Some(r.seq), None, None, e.to_string()));
                    return out;
                }
            }
        }
    }
    let Some(reg) = reg else {
        out.push(diff(
            None,
            None,
            None,
            "日志中没有赛事 (no event in the log)".into(),
        ));
        return out;
    };
    check_final(&reg, &state, published, &mut out);
    out
}

/// Checks of one entry against the state before it.
fn check_entry(reg: &Regulation, state: &EventState, r: &Recorded, out: &mut Vec<Difference>) {
    let seq = Some(r.seq);
    // A team section's numbers, matches and seated games (A15).
    if let Some(found) = crate::team_match::verify_entry(reg, state, &r.entry) {
        let (section, round) = match &r.entry {
            LogEntry::MatchesPaired { section, round, .. }
            | LogEntry::RoundPaired { section, round, .. } => (section.as_str(), Some(*round)),
            LogEntry::TeamNumbersDrawn { section, .. }
            | LogEntry::PairingNumbersDrawn { section, .. } => (section.as_str(), None),
            _ => ("", None),
        };
        for what in found {
            out.push(diff(seq, Some(section), round, what));
        }
        return;
    }
    match &r.entry {
        LogEntry::KnockoutSeeded { section, seeds } => {
            // The seeds fixed are the top of the standings after stage 1 as they stood.
            match crate::knockout_stage::seeding(reg, state, section) {
                Ok(due) if due == *seeds => {}
                Ok(due) => {
                    let words = |s: &[arbiter_types::PlayerNo]| {
                        s.iter()
                            .map(|n| n.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    out.push(diff(
                        seq,
                        Some(section),
                        None,
                        format!(
                            "淘汰赛种子应为 {} , 记录为 {} (the knockout's seeds differ from the standings after stage 1)",
                            words(&due),
                            words(seeds)
                        ),
                    ));
                }
                Err(e) => out.push(diff(seq, Some(section), None, e.to_string())),
            }
        }
        LogEntry::PlayerRegistered(p) => {
            // Eligibility again, from what the log recorded (K1, K2, S2, J2, T1).
            // An approved online entry is judged at the time it was submitted.
            let submitted = p
                .submission
                .and_then(|n| state.submissions.get(&n))
                .map(|s| s.at.as_str())
                .filter(|t| !t.is_empty());
            let Some(at) = arbiter_core::time::china_local(submitted.unwrap_or(&r.at)) else {
                return;
            };
            let mut flags = p.flags.clone();
            if p.local && !flags.iter().any(|f| f == "local") {
                flags.push("local".into());
            }
            let a = Applicant {
                section: &p.section,
                sex: p.person.sex,
                birth: p.person.birth_date,
                unit: p.person.unit.as_deref(),
                association: p.person.association.as_deref(),
                evidence: &p.evidence,
                flags: &flags,
                grade: p.grade.as_deref(),
                late: p.late_reason.is_some(),
            };
            if let Err(why) = check_eligibility(reg, state, &a, at) {
                out.push(diff(
                    seq,
                    Some(&p.section),
                    None,
                    format!(
                        "{} {} 的报名不符合规程: {why} (registration fails the section's eligibility)",
                        p.player, p.person.name
                    ),
                ));
            }
        }
        LogEntry::EntryRefused {
            name,
            section,
            reason,
            id_number,
            facts: Some(f),
            ..
        } => {
            // A refusal whose facts are recorded must still be refused.
            let Some(at) = arbiter_core::time::china_local(&r.at) else {
                return;
            };
            let a = Applicant {
                section,
                sex: id_number.as_ref().map(|i| i.sex()).or(f.sex),
                birth: id_number.as_ref().map(|i| i.birth_date()).or(f.birth_date),
                unit: f.unit.as_deref(),
                association: f.association.as_deref(),
                evidence: &f.evidence,
                flags: &f.flags,
                grade: f.grade.as_deref(),
                late: false,
            };
            let still_refused = check_eligibility(reg, state, &a, at)
                .and_then(|()| check_team_unit(state, f.team.as_deref(), f.unit.as_deref()))
                .and_then(|()| {
                    check_team_roster(reg, state, section, f.team.as_deref(), f.unit.as_deref())
                })
                .is_err()
                || {
                    let entry = LogEntry::PlayerRegistered(PlayerRegistered {
                        player: state.next_player_id(),
                        section: section.clone(),
                        person: arbiter_types::Person {
                            name: name.clone(),
                            sex: a.sex,
                            birth_date: a.birth,
                            id_number: id_number.clone(),
                            phone: None,
                            social_security: None,
                            unit: f.unit.clone(),
                            association: f.association.clone(),
                        },
                        team: f.team.clone(),
                        evidence: f.evidence.clone(),
                        local: f.flags.iter().any(|x| x == "local"),
                        rating: None,
                        grade: f.grade.clone(),
                        flags: f.flags.clone(),
                        late_reason: None,
                        submission: None,
                    });
                    validate_at(state, &entry, Some(&r.at)).is_err()
                };
            if !still_refused {
                out.push(diff(
                    seq,
                    Some(section),
                    None,
                    format!(
                        "{name} 的报名被拒绝 ({reason}), 但按规程应予接受 (a refused entry passes the regulation)"
                    ),
                ));
            }
        }
        LogEntry::EventClosed { .. } => {
            // The closing fixes what the log before it calls for.
            match crate::api::event::closing_entry(state) {
                Ok(e) if e == r.entry => {}
                Ok(_) => out.push(diff(
                    seq,
                    None,
                    None,
                    "闭幕时记录的名次、团体名次或奖项与按日志重新计算的不一致 \
                     (the closing entry differs from the standings recomputed from the log)"
                        .into(),
                )),
                Err(e) => out.push(diff(seq, None, None, e.to_string())),
            }
        }
        LogEntry::PairingNumbersDrawn {
            section,
            seed,
            order,
        } => {
            if let LogEntry::PairingNumbersDrawn {
                seed: s2,
                order: o2,
                ..
            } = draw_numbers(state, section)
            {
                if s2 != *seed || o2 != *order {
                    out.push(diff(
                        seq,
                        Some(section),
                        None,
                        "抽签结果与记录的种子不符 (drawn numbers differ from the recorded seed)"
                            .into(),
                    ));
                }
            }
        }
        LogEntry::RoundPaired {
            section,
            round,
            stage,
            boards,
            byes,
            seed,
            manual,
        } => {
            let sid = section.as_str();
            let paired = match pair_round(reg, state, sid, *round, *stage) {
                Ok(p) => p,
                Err(e) => {
                    out.push(diff(
                        seq,
                        Some(sid),
                        Some(*round),
                        format!("无法重新编排: {e} (cannot re-pair)"),
                    ));
                    return;
                }
            };
            let Some(rec) = state.section(sid) else {
                return;
            };
            let no = |p| rec.pairing_no(p);
            if manual.is_empty() {
                if let LogEntry::RoundPaired {
                    boards: b2,
                    byes: y2,
                    seed: s2,
                    ..
                } = &paired.entry
                {
                    if b2 != boards || y2 != byes || s2 != seed {
                        out.push(diff(seq, Some(sid), Some(*round), "重新编排的结果与记录不同 (re-running the pairing engine gives different boards)".into()));
                    }
                }
            }
            // The recorded pairing through the independent checker (rounds ≥ 2: round 1 has its
            // own colour rule, A3, and is checked by re-running the round-1 pairing above).
            if paired.swiss && *round >= 2 {
                let mut pb = Vec::new();
                for b in boards {
                    if let (Some(red), Some(black)) = (no(b.red), no(b.black)) {
                        pb.push(PBoard {
                            // The pairing's own numbering, 1…N (a continuing Swiss sits
                            // after the knockout's boards in the hall, T2).
                            board: b.board.saturating_sub(paired.first_board),
                            red,
                            black,
                            why: Explanation::default(),
                        });
                    }
                }
                let pairing = Pairing {
                    round: *round,
                    boards: pb,
                    bye: byes.first().and_then(|p| no(*p)),
                    bye_why: None,
                    relaxed: Vec::new(),
                };
                // A round the arbiter paired by hand keeps what he fixed (A3b): the rules
                // it breaks were his warnings, not a difference; it must still be a
                // well-formed pairing of the available players.
                let by_hand = !manual.is_empty();
                for v in arbiter_pairing::checker::check(&paired.input, *round, &pairing)
                    .into_iter()
                    .filter(|v| !(by_hand && v.is_rule()))
                {
                    out.push(diff(
                        seq,
                        Some(sid),
                        Some(*round),
                        format!("编排检查: {v} (pairing check)"),
                    ));
                }
            }
        }
        LogEntry::RoundCompleted { section, round } => {
            // Foul-loss rule per game (A11, K12, T8): a player who reaches the regulation's
            // limit in a game (all fouls, or phone fouls) loses that game.
            let Some(sec) = reg.section(section) else {
                return;
            };
            let Some(rd) = state.section(section).and_then(|s| s.round(*round)) else {
                return;
            };
            for b in &rd.boards {
                let Some(loss) = crate::results::game_foul_loss(sec, state, *round, b) else {
                    continue;
                };
                let lost = b
                    .result
                    .is_some_and(|x| crate::results::respects_foul_loss(x, &loss));
                if !lost {
                    out.push(diff(
                        Some(r.seq),
                        Some(section),
                        Some(*round),
                        format!(
                            "第{}台: {}, 应判负 (the foul rule makes this game a loss)",
                            b.board,
                            loss.explain()
                        ),
                    ));
                }
            }
        }
        LogEntry::FoulRecorded {
            offender: Offender::Team(_),
            ..
        } => {}
        LogEntry::KnockoutGameRecorded {
            section,
            match_id,
            game,
            result,
            fouls,
            ..
        } if !fouls.is_empty() => {
            // The foul rule applies to a knockout game as to any game (A11, K12, T8).
            let Some(sec) = reg.section(section) else {
                return;
            };
            let seen: Vec<arbiter_standings::withdrawal::GameFoul> = fouls
                .iter()
                .filter(|f| crate::results::counts_in_game(f.kind))
                .map(|f| arbiter_standings::withdrawal::GameFoul {
                    colour: f.colour,
                    kind: crate::results::rule_kind(f.kind),
                })
                .collect();
            let rule = crate::results::foul_rule(sec);
            if let Some(loss) = arbiter_standings::withdrawal::foul_loss_by_kind(&seen, &rule) {
                if !crate::results::respects_foul_loss(*result, &loss) {
                    out.push(diff(
                        Some(r.seq),
                        Some(section),
                        None,
                        format!(
                            "淘汰赛 {match_id} 第{}局: {}, 应判负 (the foul rule makes this game a loss)",
                            game + 1,
                            loss.explain()
                        ),
                    ));
                }
            }
        }
        _ => {}
    }
}

/// Whole-event checks on the final state.
fn check_final(
    reg: &Regulation,
    state: &EventState,
    published: Option<&Export>,
    out: &mut Vec<Difference>,
) {
    for sec in &reg.sections {
        let sid = sec.id.as_str();
        let Some(rec) = state.section(sid) else {
            continue;
        };
        // Every withdrawal the forfeit rule demands is recorded.
        for (p, after, _) in due_withdrawals(sec, state, sid) {
            out.push(diff(
                None,
                Some(sid),
                Some(after),
                format!("{p} 应按弃权规则退赛但未记录 (withdrawal by the forfeit rule missing)"),
            ));
        }
        // No two players meet twice in a round-robin cycle. (A Swiss round's rematches are
        // judged round by round by the checker above: H1 relaxes only where no pairing
        // keeps it, A2 as amended, and a manual round is the arbiter's, A3b.)
        let plan = section_plan(sec, state);
        let round_robin = matches!(plan, SectionPlan::RoundRobin { .. });
        let cycles = if let SectionPlan::RoundRobin { cycles, .. } = plan {
            cycles
        } else {
            1
        };
        let mut met: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        for rd in rec.rounds.values() {
            for b in &rd.boards {
                let key = (b.red.0.min(b.black.0), b.red.0.max(b.black.0));
                let n = met.entry(key).or_insert(0);
                *n += 1;
                if round_robin && *n > cycles {
                    out.push(diff(
                        None,
                        Some(sid),
                        Some(rd.round),
                        format!("{} 与 {} 重复相遇 (players met twice)", b.red, b.black),
                    ));
                }
            }
        }
        if let SectionPlan::TwoStage {
            swiss_rounds, k, ..
        } = plan
        {
            if rec.completed_rounds() >= swiss_rounds {
                match knockout_stage::bracket(reg, state, sid) {
                    // A knockout still being played is the state of an event in progress,
                    // not a difference (verify runs on every prefix of a log); a finished
                    // event's knockout is compared through the published export.
                    Ok(b) => {
                        if b.is_complete()
                            && b.ranking().len() as u32 != k.min(b.ranking().len() as u32)
                        {
                            out.push(diff(
                                None,
                                Some(sid),
                                None,
                                "淘汰赛人数不符 (knockout size)".into(),
                            ));
                        }
                    }
                    Err(e) => out.push(diff(None, Some(sid), None, e.to_string())),
                }
            }
        }
    }
    let computed = match compute(reg, state) {
        Ok(c) => c,
        Err(e) => {
            out.push(diff(None, None, None, format!("无法计算名次/奖项: {e}")));
            return;
        }
    };
    // Points recomputed independently from the recorded results of the rounds the standings
    // count so far (`standing_rounds`: a round still being played counts once completed).
    for sec in &reg.sections {
        let Some(rows) = computed.finals.get(&sec.id) else {
            continue;
        };
        let Some(rec) = state.section(&sec.id) else {
            continue;
        };
        let t = crate::plan::scoring_table(sec, state);
        // A final round robin's finalists are ranked by the final's games alone.
        let final_from = match section_plan(sec, state) {
            SectionPlan::GroupsRoundRobin { group_rounds, .. } => group_rounds + 1,
            _ => 0,
        };
        for row in rows {
            let mut pts = Score::ZERO;
            let finalist = rec.knockout_seeds.contains(&row.no);
            for rd in rec.standing_rounds() {
                if finalist && rd.round < final_from {
                    continue;
                }
                if let Some(b) = rd
                    .boards
                    .iter()
                    .find(|b| b.red == row.player || b.black == row.player)
                {
                    let (colour, opp) = if b.red == row.player {
                        (Colour::Red, b.black)
                    } else {
                        (Colour::Black, b.red)
                    };
                    if let (Some(res), Some(o)) = (b.result, rec.pairing_no(opp)) {
                        pts += res.outcome_for(colour, o).points(&t);
                    }
                } else if rd.byes.contains(&row.player) {
                    pts += Outcome::Bye.points(&t);
                }
                // 成绩带入: the group games a final round shows carried count with it.
                if finalist && rd.round >= final_from {
                    for (_, b) in crate::groups::carried_games(sec, state, &sec.id, rd.round) {
                        let (colour, opp) = if b.red == row.player {
                            (Colour::Red, b.black)
                        } else if b.black == row.player {
                            (Colour::Black, b.red)
                        } else {
                            continue;
                        };
                        if let (Some(res), Some(o)) = (b.result, rec.pairing_no(opp)) {
                            pts += res.outcome_for(colour, o).points(&t);
                        }
                    }
                }
            }
            if pts != row.points {
                out.push(diff(
                    None,
                    Some(&sec.id),
                    None,
                    format!(
                        "序号{} 积分应为 {pts}, 名次表为 {} (points differ)",
                        row.no, row.points
                    ),
                ));
            }
        }
        // Ranks 1..n without a gap unless shared.
        let mut seen = BTreeSet::new();
        for row in rows {
            if !seen.insert(row.no) {
                out.push(diff(
                    None,
                    Some(&sec.id),
                    None,
                    format!("序号{} 在名次表中出现两次 (listed twice)", row.no),
                ));
            }
        }
    }
    // Prize total and awards to ranked players only.
    let total: u64 = computed.prizes.awards.iter().filter_map(|a| a.amount).sum();
    if total != computed.prizes.total_amount {
        out.push(diff(
            None,
            None,
            None,
            format!(
                "奖金合计应为 {total}, 实为 {} (prize total)",
                computed.prizes.total_amount
            ),
        ));
    }
    let export = build(reg, state, &computed);
    // Personal data never published.
    let json = export.to_json();
    for p in state.players.values() {
        let leaks = p
            .person
            .id_number
            .as_ref()
            .is_some_and(|i| json.contains(i.as_str()))
            || p.person
                .phone
                .as_ref()
                .is_some_and(|x| json.contains(x.as_str()));
        if leaks {
            out.push(diff(
                None,
                Some(&p.section),
                None,
                format!(
                    "{} 的身份证号或手机号出现在公开数据中 (personal data in the export)",
                    p.id
                ),
            ));
        }
    }
    if let Some(pubd) = published {
        compare_exports(&export, pubd, out);
    }
}

fn compare_exports(mine: &Export, theirs: &Export, out: &mut Vec<Difference>) {
    if mine == theirs {
        return;
    }
    let a = serde_json::to_value(mine).unwrap_or_default();
    let b = serde_json::to_value(theirs).unwrap_or_default();
    let mut paths = Vec::new();
    walk("", &a, &b, &mut paths);
    for p in paths.into_iter().take(20) {
        out.push(diff(
            None,
            None,
            None,
            format!(
                "公开数据与重算结果不同: {p} (the published export differs from the recomputation)"
            ),
        ));
    }
}

fn walk(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = format!("{path}/{k}");
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => walk(&p, u, v, out),
                    _ => out.push(p),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                walk(&format!("{path}/{i}"), u, v, out);
            }
        }
        _ if a != b => out.push(path.to_string()),
        _ => {}
    }
}
