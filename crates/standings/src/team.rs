//! Team standings from individual results (队员总分制; rules.md A10, K3, K11, T5, Part B §7.1).
//!
//! A team is a set of players of one individual section. Its result is the sum of its best
//! `k` members' final individual ranks (lower first) or, in the points mode, the sum of its
//! best `k` members' scores (higher first). Ties: compare the counted members one by one —
//! the best individual rank (or highest individual score), then the second best, and so on;
//! teams still equal share the place. Teams with fewer than `k` ranked members are unranked
//! (listed after the ranked teams, in input order) unless the rule pads them (C1 option).
//! Divisions (甲组/乙组) are ranked separately, in the order they first appear in the input.

use arbiter_types::{PlayerNo, Score};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroU32;

/// One player's final individual result, as given by the individual standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerRank {
    pub no: PlayerNo,
    /// Final place, 1 = first.
    pub rank: u32,
    pub score: Score,
}

/// A team entry: a unit (单位) may enter several teams (一队, 二队, …).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Team {
    /// Display name, e.g. "昆山农商行一队".
    pub name: String,
    /// The entering unit, e.g. "昆山农商行".
    pub unit: String,
    /// 甲组 / 乙组; `None` when the event has one division.
    #[serde(default)]
    pub division: Option<String>,
    pub members: Vec<PlayerNo>,
}

/// What is added up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamMethod {
    /// Sum of the best k members' ranks, lower first (K11, T5, WXF).
    #[default]
    RankSum,
    /// Sum of the best k members' scores, higher first (Part B §7.1, C1 按个人积分总和).
    PointsSum,
}

/// What happens to a team with fewer than k ranked members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShortTeams {
    /// Not ranked; listed after the ranked teams (K3, T5, default).
    #[default]
    Unranked,
    /// Ranked, each missing member counted as rank = number of ranked players (C1 option;
    /// score 0 in the points mode).
    Padded,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamRule {
    /// k: how many members count (K: 3, T: 4).
    pub counted: NonZeroU32,
    #[serde(default)]
    pub method: TeamMethod,
    #[serde(default)]
    pub short_teams: ShortTeams,
}

impl TeamRule {
    /// Rank sum of the best `k` (0 is treated as 1); short teams unranked.
    pub fn rank_sum(k: u32) -> Self {
        TeamRule {
            counted: NonZeroU32::new(k).unwrap_or(NonZeroU32::MIN),
            method: TeamMethod::RankSum,
            short_teams: ShortTeams::Unranked,
        }
    }
    /// Points sum of the best `k` (0 is treated as 1); short teams unranked.
    pub fn points_sum(k: u32) -> Self {
        TeamRule {
            method: TeamMethod::PointsSum,
            ..TeamRule::rank_sum(k)
        }
    }
}

/// One member of a team row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemberResult {
    pub no: PlayerNo,
    /// `None`: the player has no final rank (never entered the individual standings).
    pub rank: Option<u32>,
    pub score: Option<Score>,
    /// One of the best k that make the team total.
    pub counted: bool,
}

/// What placed a team below the team before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Separation {
    /// The first row of its division.
    First,
    /// A worse total.
    Total,
    /// Equal totals; the `nth` best counted member (1 = best) was worse.
    NthBest { nth: u32 },
    /// Equal on everything: the place is shared (并列).
    Shared,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum TeamStatus {
    Ranked,
    /// Fewer than k ranked members: not ranked (不计团体成绩).
    Short {
        ranked_members: u32,
        required: u32,
    },
}

/// A row of a team table.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TeamRow {
    /// `None` for an unranked (short) team.
    pub rank: Option<u32>,
    pub team: String,
    pub unit: String,
    pub division: Option<String>,
    /// All members, best first (by rank; unranked members last, by number).
    pub members: Vec<MemberResult>,
    /// The counted members' ranks, best first (padding included in the padded mode).
    pub counted_ranks: Vec<u32>,
    /// The counted members' scores, best first.
    pub counted_scores: Vec<Score>,
    /// Sum of `counted_ranks` (the key in the rank-sum mode).
    pub total_ranks: u32,
    /// Sum of `counted_scores` (the key in the points mode).
    pub total_score: Score,
    pub status: TeamStatus,
    /// `None` for an unranked team.
    pub separated_by: Option<Separation>,
}

/// The standings of one division.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DivisionTable {
    pub division: Option<String>,
    pub method: TeamMethod,
    pub counted: u32,
    /// Ranked teams first (by rank), then unranked teams in input order.
    pub rows: Vec<TeamRow>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamError {
    #[error("队员 {no} 同时在队伍 `{first}` 和 `{second}` 中 (player {no} is in two teams: `{first}` and `{second}`)")]
    PlayerInTwoTeams {
        no: PlayerNo,
        first: String,
        second: String,
    },
    #[error("队伍 `{team}` 重复列出队员 {no} (team `{team}` lists player {no} twice)")]
    DuplicateMember { team: String, no: PlayerNo },
    #[error("队伍名称 `{team}` 重复 (team name `{team}` is used twice)")]
    DuplicateTeam { team: String },
    #[error("队员 {no} 的名次重复给出 (player {no} has two ranks in the individual standings)")]
    DuplicateRank { no: PlayerNo },
    #[error("队员 {no} 的名次为0, 名次从1开始 (player {no} has rank 0; ranks start at 1)")]
    ZeroRank { no: PlayerNo },
}

/// Computes the team standings, one table per division.
pub fn team_standings(
    teams: &[Team],
    ranks: &[PlayerRank],
    rule: &TeamRule,
) -> Result<Vec<DivisionTable>, TeamError> {
    let mut by_no: BTreeMap<PlayerNo, PlayerRank> = BTreeMap::new();
    for r in ranks {
        if r.rank == 0 {
            return Err(TeamError::ZeroRank { no: r.no });
        }
        if by_no.insert(r.no, *r).is_some() {
            return Err(TeamError::DuplicateRank { no: r.no });
        }
    }
    let mut owner: BTreeMap<PlayerNo, &str> = BTreeMap::new();
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for t in teams {
        if !names.insert(&t.name) {
            return Err(TeamError::DuplicateTeam {
                team: t.name.clone(),
            });
        }
        let mut seen = BTreeSet::new();
        for &no in &t.members {
            if !seen.insert(no) {
                return Err(TeamError::DuplicateMember {
                    team: t.name.clone(),
                    no,
                });
            }
            if let Some(first) = owner.insert(no, &t.name) {
                return Err(TeamError::PlayerInTwoTeams {
                    no,
                    first: first.to_string(),
                    second: t.name.clone(),
                });
            }
        }
    }
    let pad_rank = by_no.len() as u32;
    let k = rule.counted.get();

    let mut divisions: Vec<Option<String>> = Vec::new();
    for t in teams {
        if !divisions.contains(&t.division) {
            divisions.push(t.division.clone());
        }
    }
    let tables = divisions
        .into_iter()
        .map(|division| {
            let rows: Vec<TeamRow> = teams
                .iter()
                .filter(|t| t.division == division)
                .map(|t| build_row(t, &by_no, rule, k, pad_rank))
                .collect();
            DivisionTable {
                division,
                method: rule.method,
                counted: k,
                rows: rank_rows(rows, rule.method),
            }
        })
        .collect();
    Ok(tables)
}

fn build_row(
    t: &Team,
    by_no: &BTreeMap<PlayerNo, PlayerRank>,
    rule: &TeamRule,
    k: u32,
    pad_rank: u32,
) -> TeamRow {
    let mut members: Vec<MemberResult> = t
        .members
        .iter()
        .map(|&no| {
            let r = by_no.get(&no);
            MemberResult {
                no,
                rank: r.map(|r| r.rank),
                score: r.map(|r| r.score),
                counted: false,
            }
        })
        .collect();
    // Best first: by rank (or score, then rank, in the points mode); unranked last.
    members.sort_by(|a, b| match (a.rank, b.rank) {
        (Some(ra), Some(rb)) => {
            let by_score = match rule.method {
                TeamMethod::RankSum => Ordering::Equal,
                TeamMethod::PointsSum => b.score.cmp(&a.score),
            };
            by_score.then(ra.cmp(&rb)).then(a.no.cmp(&b.no))
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.no.cmp(&b.no),
    });
    let ranked = members.iter().filter(|m| m.rank.is_some()).count() as u32;
    let mut counted_ranks = Vec::new();
    let mut counted_scores = Vec::new();
    for m in members
        .iter_mut()
        .filter(|m| m.rank.is_some())
        .take(k as usize)
    {
        m.counted = true;
        counted_ranks.push(m.rank.unwrap_or(pad_rank));
        counted_scores.push(m.score.unwrap_or(Score::ZERO));
    }
    let short = ranked < k;
    let status = if short && rule.short_teams == ShortTeams::Unranked {
        TeamStatus::Short {
            ranked_members: ranked,
            required: k,
        }
    } else {
        while (counted_ranks.len() as u32) < k {
            counted_ranks.push(pad_rank);
            counted_scores.push(Score::ZERO);
        }
        TeamStatus::Ranked
    };
    TeamRow {
        rank: None,
        team: t.name.clone(),
        unit: t.unit.clone(),
        division: t.division.clone(),
        members,
        total_ranks: counted_ranks.iter().sum(),
        total_score: counted_scores.iter().copied().sum(),
        counted_ranks,
        counted_scores,
        status,
        separated_by: None,
    }
}

/// Compares two ranked rows: `Less` = `a` ahead. Also returns what decided it.
fn compare(a: &TeamRow, b: &TeamRow, method: TeamMethod) -> (Ordering, Separation) {
    let total = match method {
        TeamMethod::RankSum => a.total_ranks.cmp(&b.total_ranks),
        TeamMethod::PointsSum => b.total_score.cmp(&a.total_score),
    };
    if total != Ordering::Equal {
        return (total, Separation::Total);
    }
    let n = a.counted_ranks.len().max(a.counted_scores.len());
    for i in 0..n {
        let o = match method {
            TeamMethod::RankSum => a.counted_ranks.get(i).cmp(&b.counted_ranks.get(i)),
            TeamMethod::PointsSum => b.counted_scores.get(i).cmp(&a.counted_scores.get(i)),
        };
        if o != Ordering::Equal {
            return (o, Separation::NthBest { nth: i as u32 + 1 });
        }
    }
    (Ordering::Equal, Separation::Shared)
}

fn rank_rows(rows: Vec<TeamRow>, method: TeamMethod) -> Vec<TeamRow> {
    let (mut ranked, unranked): (Vec<TeamRow>, Vec<TeamRow>) = rows
        .into_iter()
        .partition(|r| r.status == TeamStatus::Ranked);
    // Stable sort: teams equal on everything keep input order (and share the place).
    ranked.sort_by(|a, b| compare(a, b, method).0);
    for i in 0..ranked.len() {
        if i == 0 {
            ranked[0].rank = Some(1);
            ranked[0].separated_by = Some(Separation::First);
            continue;
        }
        let (_, sep) = compare(&ranked[i - 1], &ranked[i], method);
        ranked[i].rank = if sep == Separation::Shared {
            ranked[i - 1].rank
        } else {
            Some(i as u32 + 1)
        };
        ranked[i].separated_by = Some(sep);
    }
    ranked.extend(unranked);
    ranked
}
