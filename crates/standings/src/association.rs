//! Association standings across sections (团体总分; rules.md A10, S9).
//!
//! For every association and every listed section, the association's best-ranked player in
//! that section gives one number; the numbers are added and the lower total wins. Ties: the
//! better best rank, then the next best, and so on; associations still equal share the
//! place. An association with no ranked player in some listed section is unranked (组别不全不与
//! 计算团体成绩) and listed after the ranked ones.

use arbiter_types::{closest, PlayerNo};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A ranked player of one section, with the association (协会 / 单位) that entered them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AssociationEntry {
    pub association: String,
    pub section: String,
    pub no: PlayerNo,
    /// Final place in `section`, 1 = first.
    pub rank: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct AssociationInput {
    /// The sections that count, in display order (a separately ranked category such as
    /// 公开组女子 is a section here).
    pub sections: Vec<String>,
    /// Every association in the event, in display order (so that an association without any
    /// ranked player is still listed). Associations that only appear in `entries` are added
    /// after these, in order of first appearance.
    #[serde(default)]
    pub associations: Vec<String>,
    pub entries: Vec<AssociationEntry>,
}

/// One association's best player in one section.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SectionBest {
    pub section: String,
    /// `None`: the association has no ranked player in this section.
    pub rank: Option<u32>,
    pub no: Option<PlayerNo>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum AssociationSeparation {
    First,
    Total,
    /// Equal totals; the `nth` best of the section bests (1 = best) was worse.
    NthBest {
        nth: u32,
    },
    Shared,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AssociationRow {
    /// `None`: missing a section, not ranked.
    pub rank: Option<u32>,
    pub association: String,
    /// The best rank in every listed section, in the order of `sections`.
    pub best_ranks: Vec<SectionBest>,
    /// Sum of the best ranks over the sections where the association has one.
    pub total: u32,
    /// Sections where the association has no ranked player.
    pub missing_sections: Vec<String>,
    pub separated_by: Option<AssociationSeparation>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssociationError {
    #[error("第{index}条成绩: 组别 `{section}` 不在计分组别中{hint} (entry {index}: section `{section}` is not one of the counted sections)")]
    UnknownSection {
        index: usize,
        section: String,
        hint: String,
    },
    #[error("第{index}条成绩: 名次为0, 名次从1开始 (entry {index}: rank 0; ranks start at 1)")]
    ZeroRank { index: usize },
    #[error("组别 `{section}` 重复列出 (section `{section}` is listed twice)")]
    DuplicateSection { section: String },
    #[error("未列出计分组别 (no section to count)")]
    NoSections,
}

/// Computes the association standings. Ranked associations first, then unranked ones in
/// display order.
///
/// Entries with an empty association (players entered individually) are ignored; such a
/// player's rank is not given to anyone else (the next association player keeps their own
/// rank).
pub fn association_standings(
    input: &AssociationInput,
) -> Result<Vec<AssociationRow>, AssociationError> {
    if input.sections.is_empty() {
        return Err(AssociationError::NoSections);
    }
    let mut section_index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, s) in input.sections.iter().enumerate() {
        if section_index.insert(s, i).is_some() {
            return Err(AssociationError::DuplicateSection { section: s.clone() });
        }
    }
    let mut order: Vec<&str> = Vec::new();
    let mut best: BTreeMap<&str, Vec<Option<(u32, PlayerNo)>>> = BTreeMap::new();
    for a in &input.associations {
        if !best.contains_key(a.as_str()) {
            order.push(a);
            best.insert(a, vec![None; input.sections.len()]);
        }
    }
    for (i, e) in input.entries.iter().enumerate() {
        let index = i + 1;
        let Some(&si) = section_index.get(e.section.as_str()) else {
            let hint = closest(&e.section, input.sections.iter().map(String::as_str))
                .map(|c| format!(", 是否为 `{c}`?"))
                .unwrap_or_default();
            return Err(AssociationError::UnknownSection {
                index,
                section: e.section.clone(),
                hint,
            });
        };
        if e.rank == 0 {
            return Err(AssociationError::ZeroRank { index });
        }
        if e.association.trim().is_empty() {
            // An individual entry (个人报名) belongs to no association.
            continue;
        }
        let slots = best.entry(&e.association).or_insert_with(|| {
            order.push(&e.association);
            vec![None; input.sections.len()]
        });
        let better = match slots[si] {
            None => true,
            Some((r, no)) => (e.rank, e.no) < (r, no),
        };
        if better {
            slots[si] = Some((e.rank, e.no));
        }
    }
    let mut ranked = Vec::new();
    let mut unranked = Vec::new();
    for a in order {
        let slots = best.get(a).cloned().unwrap_or_default();
        let best_ranks: Vec<SectionBest> = input
            .sections
            .iter()
            .zip(&slots)
            .map(|(s, b)| SectionBest {
                section: s.clone(),
                rank: b.map(|(r, _)| r),
                no: b.map(|(_, n)| n),
            })
            .collect();
        let missing_sections: Vec<String> = best_ranks
            .iter()
            .filter(|b| b.rank.is_none())
            .map(|b| b.section.clone())
            .collect();
        let row = AssociationRow {
            rank: None,
            association: a.to_string(),
            total: best_ranks.iter().filter_map(|b| b.rank).sum(),
            best_ranks,
            missing_sections,
            separated_by: None,
        };
        if row.missing_sections.is_empty() {
            ranked.push(row);
        } else {
            unranked.push(row);
        }
    }
    ranked.sort_by(|a, b| compare(a, b).0);
    for i in 0..ranked.len() {
        if i == 0 {
            ranked[0].rank = Some(1);
            ranked[0].separated_by = Some(AssociationSeparation::First);
            continue;
        }
        let (_, sep) = compare(&ranked[i - 1], &ranked[i]);
        ranked[i].rank = if sep == AssociationSeparation::Shared {
            ranked[i - 1].rank
        } else {
            Some(i as u32 + 1)
        };
        ranked[i].separated_by = Some(sep);
    }
    ranked.extend(unranked);
    Ok(ranked)
}

fn sorted_bests(r: &AssociationRow) -> Vec<u32> {
    let mut v: Vec<u32> = r.best_ranks.iter().filter_map(|b| b.rank).collect();
    v.sort_unstable();
    v
}

fn compare(a: &AssociationRow, b: &AssociationRow) -> (Ordering, AssociationSeparation) {
    let t = a.total.cmp(&b.total);
    if t != Ordering::Equal {
        return (t, AssociationSeparation::Total);
    }
    let (sa, sb) = (sorted_bests(a), sorted_bests(b));
    for (i, (x, y)) in sa.iter().zip(&sb).enumerate() {
        if x != y {
            return (
                x.cmp(y),
                AssociationSeparation::NthBest { nth: i as u32 + 1 },
            );
        }
    }
    (Ordering::Equal, AssociationSeparation::Shared)
}
