//! Everything an event publishes, computed from the log: final rankings, categories, team and
//! association standings, prizes, and the `arbiter-export/1` document.

use crate::export::*;
use crate::final_standings::{
    association_table, category_ranking, final_ranking, tb_score, team_tables, FinalRow,
};
use crate::knockout_stage;
use crate::plan::{section_plan, SectionPlan};
use crate::prizes::{allocate, PrizeInput, ASSOCIATIONS};
use crate::standings::individual;
use crate::{regulation_of, regulation_stem, DirectorError};
use arbiter_core::{EventState, PlayerId};
use arbiter_regulation::Regulation;
use arbiter_standings::association::AssociationRow as StAssociationRow;
use arbiter_standings::prize::{AwardKind, PrizeList};
use arbiter_standings::team::{DivisionTable, TeamMethod};
use arbiter_types::{Fallback, Outcome, PlayerNo, Score};
use std::collections::BTreeMap;

/// The computed results of an event.
#[derive(Debug, Clone)]
pub struct Computed {
    pub finals: BTreeMap<String, Vec<FinalRow>>,
    pub teams: BTreeMap<String, Vec<DivisionTable>>,
    pub associations: Vec<StAssociationRow>,
    pub prizes: PrizeList,
}

/// Final rankings, team and association standings and prizes of every section.
pub fn compute(reg: &Regulation, state: &EventState) -> Result<Computed, DirectorError> {
    let mut finals = BTreeMap::new();
    let mut teams = BTreeMap::new();
    for sec in &reg.sections {
        let rec = state.section(&sec.id);
        if rec.is_none_or(|r| r.order.is_empty()) {
            finals.insert(sec.id.clone(), Vec::new());
            continue;
        }
        let rows = final_ranking(reg, state, &sec.id)?;
        teams.insert(sec.id.clone(), team_tables(reg, state, &sec.id, &rows)?);
        finals.insert(sec.id.clone(), rows);
    }
    let associations = association_table(reg, state, &finals)?;
    let prizes = allocate(
        reg,
        state,
        &PrizeInput {
            finals: &finals,
            teams: &teams,
            associations: &associations,
        },
    )?;
    Ok(Computed {
        finals,
        teams,
        associations,
        prizes,
    })
}

/// The published export of the event in the log (regulation read from the log).
pub fn export(state: &EventState) -> Result<Export, DirectorError> {
    let reg = regulation_of(state)?;
    let c = compute(&reg, state)?;
    Ok(build(&reg, state, &c))
}

/// The player numbers of a section for publishing: pairing numbers, then players never
/// paired (no number drawn) numbered on in registration order.
pub fn publish_numbers(state: &EventState, section: &str) -> BTreeMap<PlayerId, u32> {
    let mut out = BTreeMap::new();
    let Some(rec) = state.section(section) else {
        return out;
    };
    for (i, p) in rec.order.iter().enumerate() {
        out.insert(*p, i as u32 + 1);
    }
    let mut next = rec.order.len() as u32;
    for p in &rec.entries {
        if !out.contains_key(p) {
            next += 1;
            out.insert(*p, next);
        }
    }
    out
}

fn fouls_in_round(state: &EventState, p: PlayerId, round: u32) -> u32 {
    state.player(p).map_or(0, |pl| {
        pl.fouls.iter().filter(|f| f.round == Some(round)).count() as u32
    })
}

/// The group tables of a `groups` section once split (`groups::tables`); none otherwise.
fn group_exports(
    sec: &arbiter_regulation::Section,
    state: &EventState,
) -> Vec<crate::export::GroupExport> {
    if !crate::groups::is_groups(sec) {
        return Vec::new();
    }
    let nos = publish_numbers(state, &sec.id);
    let Some(rec) = state.section(&sec.id) else {
        return Vec::new();
    };
    let Ok(tables) = crate::groups::tables(sec, state, &sec.id) else {
        return Vec::new();
    };
    tables
        .iter()
        .enumerate()
        .map(|(i, t)| crate::export::GroupExport {
            name: crate::groups::label(sec, i),
            standings: t
                .rows
                .iter()
                .map(|r| StandingRow {
                    rank: r.rank,
                    no: rec
                        .order
                        .get(r.no.index())
                        .and_then(|p| nos.get(p).copied())
                        .unwrap_or(r.no.get()),
                    points: r.points,
                    tiebreaks: r
                        .tiebreaks
                        .iter()
                        .map(|(n, v)| (n.name().to_string(), tb_score(*v)))
                        .collect(),
                    decided_by: r.decided_by.map(|d| d.name().to_string()),
                    corrected: false,
                })
                .collect(),
        })
        .collect()
}

/// Build the `arbiter-export/1` document.
pub fn build(reg: &Regulation, state: &EventState, c: &Computed) -> Export {
    let mut sections = Vec::new();
    for sec in &reg.sections {
        let plan = section_plan(sec, state);
        let nos = publish_numbers(state, &sec.id);
        let no = |p: PlayerId| nos.get(&p).copied().unwrap_or(0);
        let system = match plan {
            _ if crate::groups::is_groups(sec) => System::Groups,
            SectionPlan::Swiss { .. } => System::Swiss,
            SectionPlan::RoundRobin { cycles: 1, .. } => System::RoundRobin,
            SectionPlan::RoundRobin { .. } => System::DoubleRoundRobin,
            SectionPlan::TwoStage {
                swiss_rounds: 0, ..
            } => System::Knockout,
            SectionPlan::TwoStage { .. } => System::SwissThenKnockout,
            SectionPlan::GroupsRoundRobin { .. } => System::Groups,
        };
        let mut tiebreaks: Vec<String> = crate::plan::played_tiebreaks(sec, state)
            .criteria
            .iter()
            .map(|t| t.name().to_string())
            .collect();
        let fallback = fallback_values(sec, state);
        if let Some((f, _)) = &fallback {
            tiebreaks.push(f.name().to_string());
        }
        let mut players: Vec<PlayerExport> = state
            .players(&sec.id)
            .into_iter()
            .map(|p| {
                let paired = state
                    .section(&sec.id)
                    .is_some_and(|r| r.pairing_no(p.id).is_some());
                PlayerExport {
                    no: no(p.id),
                    name: p.person.name.clone(),
                    sex: p.person.sex.unwrap_or(arbiter_types::Sex::Male),
                    unit: p.person.unit.clone(),
                    team: p.team.clone(),
                    status: if p.disqualified.is_some() {
                        PlayerStatus::Disqualified
                    } else if p.withdrawn.is_some() {
                        PlayerStatus::Withdrawn
                    } else if !paired {
                        PlayerStatus::NotPaired
                    } else {
                        PlayerStatus::Active
                    },
                    withdrawn_after_round: p.withdrawn.map(|a| a.unwrap_or(0)),
                    association: p.person.association.clone(),
                    grade: p.grade.clone(),
                }
            })
            .collect();
        players.sort_by_key(|p| p.no);
        let mut rounds: Vec<RoundExport> = Vec::new();
        if let Some(rec) = state.section(&sec.id) {
            let stage = if matches!(plan, SectionPlan::RoundRobin { .. })
                || (crate::groups::is_groups(sec) && sec.format.group_format.cycles().is_some())
            {
                Stage::RoundRobin
            } else {
                Stage::Swiss
            };
            // A final round robin's rounds are a round robin's whatever the groups played.
            let final_from = match plan {
                SectionPlan::GroupsRoundRobin { group_rounds, .. } => group_rounds + 1,
                _ => u32::MAX,
            };
            for r in rec.rounds.values() {
                rounds.push(RoundExport {
                    round: r.round,
                    stage: if r.round >= final_from {
                        Stage::RoundRobin
                    } else {
                        stage
                    },
                    games: r
                        .boards
                        .iter()
                        .filter_map(|b| {
                            Some(GameExport {
                                board: b.board,
                                red: no(b.red),
                                black: no(b.black),
                                result: b.result?,
                                fouls: Fouls {
                                    red: fouls_in_round(state, b.red, r.round),
                                    black: fouls_in_round(state, b.black, r.round),
                                },
                                match_id: None,
                                game_kind: None,
                                ending: b.ending,
                            })
                        })
                        .collect(),
                    byes: r.byes.iter().map(|p| no(*p)).collect(),
                });
            }
            if let (SectionPlan::TwoStage { swiss_rounds, .. }, false) =
                (plan, rec.knockout.is_empty())
            {
                if let Ok(b) = knockout_stage::bracket(reg, state, &sec.id) {
                    let mut by_round: BTreeMap<u32, Vec<GameExport>> = BTreeMap::new();
                    for g in &rec.knockout {
                        let round =
                            swiss_rounds + knockout_stage::match_round(&b, &g.match_id) as u32;
                        let games = by_round.entry(round).or_default();
                        games.push(GameExport {
                            board: games.len() as u32 + 1,
                            red: no(g.red),
                            black: no(g.black),
                            result: g.result,
                            fouls: Fouls { red: 0, black: 0 },
                            match_id: Some(g.match_id.clone()),
                            game_kind: Some(g.kind),
                            ending: None,
                        });
                    }
                    for (round, games) in by_round {
                        rounds.push(RoundExport {
                            round,
                            stage: Stage::Knockout,
                            games,
                            byes: Vec::new(),
                        });
                    }
                }
            }
        }
        rounds.sort_by_key(|r| (r.round, r.stage == Stage::Knockout));
        let rows = c.finals.get(&sec.id).map(Vec::as_slice).unwrap_or(&[]);
        let corrected = crate::standings_view::corrected_players(state, &sec.id);
        let standings = rows
            .iter()
            .map(|r| StandingRow {
                rank: r.rank,
                no: r.no.get(),
                points: r.points,
                tiebreaks: r
                    .tiebreaks
                    .iter()
                    .map(|(n, v)| (n.name().to_string(), tb_score(*v)))
                    .chain(fallback.as_ref().map(|(f, values)| {
                        let v = values.get(&r.no).copied().unwrap_or(Score::ZERO);
                        (f.name().to_string(), v)
                    }))
                    .collect(),
                decided_by: r.decided_by.clone(),
                corrected: corrected.contains(&r.player),
            })
            .collect();
        let categories = sec
            .categories
            .iter()
            .map(|cat| CategoryExport {
                id: cat.id.clone(),
                name: cat.name.clone(),
                standings: category_ranking(cat, state, rows)
                    .into_iter()
                    .map(|(rank, r)| CategoryRow {
                        rank,
                        no: r.no.get(),
                    })
                    .collect(),
            })
            .collect();
        sections.push(SectionExport {
            id: sec.id.clone(),
            name: sec.name.clone(),
            system,
            rounds_planned: plan.rounds_planned(),
            scoring: crate::plan::scoring_table(sec, state),
            settings: SettingsExport {
                same_team: sec.pairing.same_team,
                max_colour_diff: sec.pairing.max_colour_diff,
                no_three_in_a_row: sec.pairing.no_three_in_a_row,
                withdraw_after_consecutive_forfeits: sec
                    .discipline
                    .withdraw_after_consecutive_forfeits,
                withdraw_after_total_forfeits: sec.discipline.withdraw_after_total_forfeits,
            },
            tiebreaks,
            players,
            rounds,
            standings,
            categories,
            after_round: state.section(&sec.id).map_or(0, |r| r.completed_rounds()),
            // A section whose next step cannot be worked out is not called final.
            provisional: crate::next_step(reg, state, &sec.id)
                .map_or(true, |s| s != crate::Step::Done),
            groups: group_exports(sec, state),
        });
    }
    let provisional = sections.iter().any(|s| s.provisional);
    let mut teams = Vec::new();
    for (section, tables) in &c.teams {
        for t in tables {
            teams.push(TeamTable {
                section: section.clone(),
                division: t.division.clone(),
                standings: t
                    .rows
                    .iter()
                    .filter_map(|r| {
                        Some(TeamRow {
                            rank: r.rank?,
                            team: r.team.clone(),
                            members: r.members.iter().map(|m| m.no.get()).collect(),
                            counted_ranks: r.counted_ranks.clone(),
                            total: match t.method {
                                TeamMethod::RankSum => Score::points(i64::from(r.total_ranks)),
                                TeamMethod::PointsSum => r.total_score,
                            },
                        })
                    })
                    .collect(),
            });
        }
    }
    let associations = c
        .associations
        .iter()
        .filter_map(|a| {
            Some(AssociationRow {
                rank: a.rank?,
                association: a.association.clone(),
                best_ranks: a
                    .best_ranks
                    .iter()
                    .filter_map(|b| Some((b.section.clone(), b.rank?)))
                    .collect(),
                total: a.total,
            })
        })
        .collect();
    let prizes = c
        .prizes
        .awards
        .iter()
        .map(|a| {
            let (section, category) = if a.kind == AwardKind::Team {
                match a.section.split_once('/') {
                    Some((s, d)) => (s.to_string(), (!d.is_empty()).then(|| d.to_string())),
                    None if a.section == ASSOCIATIONS => (ASSOCIATIONS.to_string(), None),
                    None => (a.section.clone(), a.category.clone()),
                }
            } else {
                (a.section.clone(), a.category.clone())
            };
            PrizeRow {
                section,
                category,
                rank: a.rank,
                no: a.no.map(|n| n.get()),
                team: a.team.clone(),
                kind: match a.kind {
                    AwardKind::Place => PrizeKind::Place,
                    AwardKind::Title => PrizeKind::Title,
                    AwardKind::Lucky => PrizeKind::Lucky,
                    AwardKind::Team => PrizeKind::Team,
                    AwardKind::Board => PrizeKind::Board,
                },
                amount: a.amount.map(|x| Score::points(x as i64)),
                title: a.title.clone(),
                item: a.item.clone(),
                trophy: a.trophy,
                medal: a.medal,
                board: a.board,
                passed_down: a.passed_down.then(|| a.note.clone()).flatten(),
            }
        })
        .collect();
    let special_awards: Vec<SpecialAwardExport> = reg
        .special_awards
        .iter()
        .filter_map(|a| {
            let recipients = state.special_awards.get(&a.name)?.clone();
            Some(SpecialAwardExport {
                award: a.name.clone(),
                amount: a.amount_yuan.map(|y| Score::points(i64::from(y))),
                recipients,
            })
        })
        .collect();
    // The organiser's awards are prize money too (S10: 各500元).
    let special_total: i64 = reg
        .special_awards
        .iter()
        .filter_map(|a| {
            let n = state.special_awards.get(&a.name)?.len() as i64;
            Some(i64::from(a.amount_yuan?) * n)
        })
        .sum();
    let team_matches = reg
        .sections
        .iter()
        .filter(|sec| sec.team_match.is_some() && state.section(&sec.id).is_some())
        .filter_map(|sec| crate::team_match::export_table(reg, state, &sec.id))
        .collect();
    let grade_awards = crate::grade_awards::rows(reg, &sections);
    Export {
        team_matches,
        grade_awards,
        format: FORMAT.to_string(),
        event: EventHead {
            name: reg.event.name.clone(),
            regulation: regulation_stem(state),
            prizes_before_tax: reg.event.prizes_before_tax,
            prize_currency: reg.event.prize_currency,
        },
        sections,
        teams,
        associations,
        prizes,
        prize_total: Score::points(c.prizes.total_amount as i64 + special_total),
        provisional,
        special_awards,
        qualified: c
            .prizes
            .qualified
            .iter()
            .map(|q| QualifiedRow {
                section: q.section.clone(),
                category: q.category.clone(),
                to: q.label.clone(),
                place: q.place,
                rank: q.rank,
                no: q.no.get(),
            })
            .collect(),
    }
}

/// The published value of a section's fallback (A6) for every player: the first level of the
/// comparison, which is what an arbiter reads off the sheet — `previous_round_rank`: the rank
/// after round N−1 by the same list; `previous_round_score`: the score after round N−1;
/// `drop_first_rounds`: the total without round 1. `lots` and `shared` have no per-player value
/// and are not listed (a lot shows only in `decided_by`). Deeper levels (N−2, …) are used only
/// when the first one ties, as the standings engine does.
pub fn fallback_values(
    sec: &arbiter_regulation::Section,
    state: &EventState,
) -> Option<(Fallback, BTreeMap<PlayerNo, Score>)> {
    let f = crate::plan::played_tiebreaks(sec, state).fallback?;
    let rec = state.section(&sec.id)?;
    let n = rec.completed_rounds() as usize;
    let scoring = crate::plan::scoring_table(sec, state);
    let all = state.section_outcomes(&sec.id);
    let per_player = |f: &dyn Fn(&[Outcome]) -> Score| -> BTreeMap<PlayerNo, Score> {
        rec.order
            .iter()
            .enumerate()
            .map(|(i, pid)| {
                let o = all.get(pid).map_or(&[][..], Vec::as_slice);
                (PlayerNo::from_index(i), f(o))
            })
            .collect()
    };
    let points = |o: &[Outcome]| o.iter().map(|x| x.points(&scoring)).sum::<Score>();
    let values = match f {
        Fallback::PreviousRoundRank => {
            let upto = n.saturating_sub(1) as u32;
            let st = individual(sec, state, &sec.id, Some(upto)).ok()?;
            st.rows
                .iter()
                .map(|r| (r.no, Score::points(i64::from(r.rank))))
                .collect()
        }
        Fallback::PreviousRoundScore => {
            per_player(&|o: &[Outcome]| points(&o[..o.len().min(n.saturating_sub(1))]))
        }
        Fallback::DropFirstRounds => per_player(&|o: &[Outcome]| points(o.get(1..).unwrap_or(&[]))),
        Fallback::Lots | Fallback::Shared => return None,
    };
    Some((f, values))
}

/// A short human summary in Chinese: champions, team winners, prize total.
pub fn summary_zh(reg: &Regulation, state: &EventState, c: &Computed) -> String {
    let mut s = format!("{}\n", reg.event.name);
    for sec in &reg.sections {
        // A team-match section (A15): its champion is a team, by 场分 and 局分.
        if let Some(tm) = &sec.team_match {
            let table = crate::team_match::standings(reg, state, &sec.id).ok();
            let rows = table.as_ref().map_or(&[][..], |t| t.rows.as_slice());
            let teams = rows.len() as u32;
            match rows.first() {
                Some(r) => s.push_str(&format!(
                    "  {}（{}队，每场{}台，{}轮）冠军：{}（场分 {}，局分 {}）\n",
                    sec.name,
                    teams,
                    tm.boards,
                    crate::team_match::planned_rounds(sec, teams),
                    r.name,
                    r.match_points,
                    r.game_points
                )),
                None => s.push_str(&format!("  {}：无参赛队伍\n", sec.name)),
            }
            continue;
        }
        let rows = c.finals.get(&sec.id).map(Vec::as_slice).unwrap_or(&[]);
        let n = rows.len();
        let plan = section_plan(sec, state);
        let champion = rows.first().and_then(|r| state.player(r.player));
        match champion {
            Some(p) => s.push_str(&format!(
                "  {}（{}人，{}轮）冠军：{}{}\n",
                sec.name,
                n,
                plan.rounds_planned(),
                p.person.name,
                p.person
                    .unit
                    .as_deref()
                    .or(p.person.association.as_deref())
                    .map(|u| format!("（{u}）"))
                    .unwrap_or_default()
            )),
            None => s.push_str(&format!("  {}：无参赛者\n", sec.name)),
        }
        // S8: who qualifies, one line per qualification of the section or of a category.
        let mut lists: Vec<(Option<&str>, &str, Vec<&str>)> = Vec::new();
        for q in c.prizes.qualified.iter().filter(|q| q.section == sec.id) {
            match lists.last_mut() {
                Some((cat, to, names)) if *cat == q.category.as_deref() && *to == q.label => {
                    names.push(&q.name)
                }
                _ => lists.push((q.category.as_deref(), &q.label, vec![&q.name])),
            }
        }
        for (cat, to, names) in lists {
            let of = cat.map_or(String::new(), |id| {
                let name = sec
                    .categories
                    .iter()
                    .find(|x| x.id == id)
                    .map_or(id, |x| x.name.as_str());
                format!("{name} ")
            });
            s.push_str(&format!("    {of}取得「{to}」资格：{}\n", names.join("、")));
        }
        for t in c.teams.get(&sec.id).into_iter().flatten() {
            if let Some(first) = t.rows.iter().find(|r| r.rank == Some(1)) {
                s.push_str(&format!(
                    "    团体{}第一名：{}\n",
                    t.division.as_deref().unwrap_or(""),
                    first.team
                ));
            }
        }
    }
    if let Some(a) = c.associations.iter().find(|a| a.rank == Some(1)) {
        s.push_str(&format!("  协会团体第一名：{}\n", a.association));
    }
    s.push_str(&format!(
        "  奖项 {} 项，奖金合计 {}\n",
        c.prizes.awards.len(),
        reg.event
            .prize_currency
            .amount_apart(c.prizes.total_amount, true)
    ));
    s
}
