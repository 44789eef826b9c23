//! Prize lists (录取名次及奖励) from final rankings: place prizes with amounts, titles and
//! items, team prizes, lucky prizes and qualification places (K13, S8, J7, T9).
//!
//! Everything is data: a prize table maps places (or place ranges) to an amount in whole
//! yuan, a title (棋王, 棋后) and/or an item (奖杯, 早餐券). The prize table is never code.
//!
//! ## Places and ranks
//! A ranking is a list of rows in final order. Place `k` of a table is the `k`-th row of the
//! ranking of the table's section (and category). Shared places (并列) are not split: each row
//! gets the prize of its position. A place beyond the end of the ranking is listed as vacant.
//!
//! ## Order of allocation
//! 1. Place tables, in the order given; inside a table, by place.
//! 2. Team prize tables, in the order given. Team prizes go to teams and never count as a
//!    person's award.
//! 3. Lucky prizes, table by table, each table by ascending lucky rank.
//!
//! ## One award per person (不可重复领奖)
//! With `one_award_per_person`, a person (a player number inside a section: a category is a
//! sub-ranking of its section, so the same person) gets at most one individual award (place,
//! title or lucky prize):
//! - in the place tables (A14), a player entitled to several awards receives the one worth
//!   most (equal amounts: the table listed first in the regulation, [`PrizeTable::listed`]),
//!   and each award he does not take goes to the next eligible player of its list: place `k`
//!   of a table goes to the `k`-th player of its ranking who does not take a better award
//!   elsewhere (顺延). This holds to a fixed point: a player already placed is reconsidered
//!   for a better prize vacated above him (the prizes are given out worth most first, see
//!   `one_award_draws`), so nobody keeps a lower prize while a better one of his lists passes
//!   to a player ranked below him. A prize passed down says so ([`Award::passed_down`]);
//! - a table may reserve places for a category ([`Reservation`]): the category's best
//!   players are among its winners (the places they fill count in the table), each receiving
//!   the larger of his place prize and the floor;
//! - a lucky rank that falls on a player already awarded follows `lucky_on_awarded`:
//!   `next_rank` (default) walks down the same ranking from the lucky rank + 1, one row at a
//!   time, skipping players who already hold an award and rows that are themselves lucky ranks
//!   of the same table (those keep their own prize), and gives the prize to the first player
//!   left; if the walk reaches the end of the ranking the prize is vacant. `unawarded` leaves
//!   the prize vacant.
//!
//! Without `one_award_per_person` every prize goes to the player at its place.

use crate::association::AssociationRow;
use crate::team::DivisionTable;
use arbiter_types::{closest, PlayerNo};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One line of a prize table: places `first..=last` each receive the same prize.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrizeEntry {
    pub first: u32,
    /// Last place of the range (inclusive); `None` = only `first`.
    #[serde(default)]
    pub last: Option<u32>,
    /// Amount per place, whole yuan.
    #[serde(default)]
    pub amount: Option<u64>,
    /// A title such as 棋王 / 棋后.
    #[serde(default)]
    pub title: Option<String>,
    /// A prize in kind: 早餐券2张, 景观房1晚 …
    #[serde(default)]
    pub item: Option<String>,
    /// 奖杯.
    #[serde(default)]
    pub trophy: bool,
    /// 奖牌.
    #[serde(default)]
    pub medal: bool,
    /// 荣誉证书 / 奖状.
    #[serde(default)]
    pub certificate: bool,
}

impl PrizeEntry {
    /// Places `first..=last`, `amount` yuan each.
    pub fn range(first: u32, last: u32, amount: u64) -> Self {
        PrizeEntry {
            first,
            last: Some(last),
            amount: Some(amount),
            ..PrizeEntry::default()
        }
    }
    /// One place, `amount` yuan.
    pub fn place(place: u32, amount: u64) -> Self {
        PrizeEntry {
            first: place,
            amount: Some(amount),
            ..PrizeEntry::default()
        }
    }
    pub fn with_title(mut self, title: &str) -> Self {
        self.title = Some(title.to_string());
        self
    }
    pub fn with_item(mut self, item: &str) -> Self {
        self.item = Some(item.to_string());
        self
    }
    /// Adds a trophy, a medal and/or a certificate.
    pub fn with_honours(mut self, trophy: bool, medal: bool, certificate: bool) -> Self {
        self.trophy = trophy;
        self.medal = medal;
        self.certificate = certificate;
        self
    }
    fn last_place(&self) -> u32 {
        self.last.unwrap_or(self.first)
    }
}

/// Place prizes of a section, or of a category inside it (公开组女子, 50岁以上 …).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrizeTable {
    pub section: String,
    #[serde(default)]
    pub category: Option<String>,
    pub entries: Vec<PrizeEntry>,
    /// Places of this (section) table reserved for a category, with a floor (A14).
    #[serde(default)]
    pub reserved: Option<Reservation>,
    /// Where the table is listed in the regulation (its first line): with one award per
    /// person, of two awards worth the same the one listed first is taken. `None`: its
    /// position in [`PrizeRules::places`].
    #[serde(default)]
    pub listed: Option<u32>,
}

/// Places of a prize table reserved for a category (A14: "3 of the 12 prize places for local
/// players; if they are not in the top 4, 500 yuan each"): the best `places` players of the
/// category are among the table's winners — the places they fill are counted in the table's
/// places — and each of them receives the larger of his place prize and `floor`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reservation {
    pub category: String,
    pub places: u32,
    /// Whole yuan.
    pub floor: u64,
}

/// Prizes for the team standings of one team section / division (团体甲组).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamPrizeTable {
    pub section: String,
    pub entries: Vec<PrizeEntry>,
}

/// A lucky prize at one rank of a ranking (K13: 男子组第55名 …).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LuckyEntry {
    pub rank: u32,
    #[serde(default)]
    pub amount: Option<u64>,
    #[serde(default)]
    pub item: Option<String>,
}

impl LuckyEntry {
    fn as_prize(&self) -> PrizeEntry {
        PrizeEntry {
            first: self.rank,
            amount: self.amount,
            item: self.item.clone(),
            ..PrizeEntry::default()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LuckyTable {
    pub section: String,
    #[serde(default)]
    pub category: Option<String>,
    pub entries: Vec<LuckyEntry>,
}

/// The best `places` of a ranking qualify for something (S8: 江苏省业余棋王赛资格).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Qualification {
    pub section: String,
    #[serde(default)]
    pub category: Option<String>,
    pub places: u32,
    /// What is qualified for, e.g. "江苏省业余棋王赛".
    pub label: String,
}

/// What to do when a lucky rank falls on a player who already has an award.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LuckyOnAwarded {
    /// Give it to the next player down the ranking without an award (see module docs).
    #[default]
    NextRank,
    /// The prize is not given.
    Unawarded,
}

/// All prize settings of an event.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PrizeRules {
    pub places: Vec<PrizeTable>,
    pub teams: Vec<TeamPrizeTable>,
    pub lucky: Vec<LuckyTable>,
    pub qualification: Vec<Qualification>,
    pub one_award_per_person: bool,
    pub lucky_on_awarded: LuckyOnAwarded,
}

/// One row of an individual final ranking.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RankedPlayer {
    pub rank: u32,
    pub no: PlayerNo,
    pub name: String,
    /// The player's unit / team, printed on the prize list.
    #[serde(default)]
    pub team: Option<String>,
}

/// The final ranking of a section (or of a category inside it), rows in final order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ranking {
    pub section: String,
    #[serde(default)]
    pub category: Option<String>,
    pub rows: Vec<RankedPlayer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RankedTeam {
    pub rank: u32,
    pub team: String,
}

/// The final team standings of one team section / division, rows in final order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TeamRanking {
    pub section: String,
    pub rows: Vec<RankedTeam>,
}

impl TeamRanking {
    /// The ranked teams of a team table (unranked, short teams get no place), under the
    /// name `section`.
    pub fn from_division(section: &str, table: &DivisionTable) -> Self {
        TeamRanking {
            section: section.to_string(),
            rows: table
                .rows
                .iter()
                .filter_map(|r| {
                    r.rank.map(|rank| RankedTeam {
                        rank,
                        team: r.team.clone(),
                    })
                })
                .collect(),
        }
    }

    /// The ranked associations of an association table (S9: top 3 get team prizes), under
    /// the name `section`; associations missing a section get no place.
    pub fn from_associations(section: &str, rows: &[AssociationRow]) -> Self {
        TeamRanking {
            section: section.to_string(),
            rows: rows
                .iter()
                .filter_map(|r| {
                    r.rank.map(|rank| RankedTeam {
                        rank,
                        team: r.association.clone(),
                    })
                })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AwardKind {
    /// A place prize (with amount / item, possibly with a title).
    Place,
    /// A place prize that is only a title.
    Title,
    Lucky,
    Team,
    /// 台次奖: a place on one board of a team-match section (A15).
    Board,
}

impl AwardKind {
    pub fn zh(self) -> &'static str {
        match self {
            AwardKind::Place => "名次奖",
            AwardKind::Title => "称号",
            AwardKind::Lucky => "幸运奖",
            AwardKind::Team => "团体奖",
            AwardKind::Board => "台次奖",
        }
    }
}

/// One line of the prize list.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Award {
    pub kind: AwardKind,
    pub section: String,
    pub category: Option<String>,
    /// The prize's place (the lucky rank for a lucky prize).
    pub place: u32,
    /// The winner's rank in the ranking (differs from `place` when the prize moved down).
    pub rank: u32,
    /// The player (`None` for a team prize).
    pub no: Option<PlayerNo>,
    pub name: Option<String>,
    /// The player's team / unit, or the team of a team prize.
    pub team: Option<String>,
    pub amount: Option<u64>,
    pub title: Option<String>,
    pub item: Option<String>,
    pub trophy: bool,
    pub medal: bool,
    pub certificate: bool,
    /// Why the prize went to someone else than the player at `place`.
    pub note: Option<String>,
    /// The prize was passed down (顺延): the player at `place` of its list takes another
    /// award (one award per person), so it went to the next eligible player.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub passed_down: bool,
    /// The board of a board prize (台次奖).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
}

impl Award {
    /// The award of prize line `e` at `place` (the winner ranked `rank`), nobody named yet.
    fn of_entry(kind: AwardKind, section: &str, place: u32, rank: u32, e: &PrizeEntry) -> Award {
        Award {
            kind,
            section: section.to_string(),
            category: None,
            place,
            rank,
            no: None,
            name: None,
            team: None,
            amount: e.amount,
            title: e.title.clone(),
            item: e.item.clone(),
            trophy: e.trophy,
            medal: e.medal,
            certificate: e.certificate,
            note: None,
            passed_down: false,
            board: None,
        }
    }
}

/// A prize nobody received, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VacantPrize {
    pub kind: AwardKind,
    pub section: String,
    pub category: Option<String>,
    pub place: u32,
    pub amount: Option<u64>,
    pub item: Option<String>,
    pub reason: String,
    /// The board of a board prize (台次奖).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct QualifiedPlayer {
    pub section: String,
    pub category: Option<String>,
    pub label: String,
    pub place: u32,
    pub rank: u32,
    pub no: PlayerNo,
    pub name: String,
}

/// The prize list: awards in allocation order (see module docs), vacant prizes, qualified
/// players, and the sum of all amounts awarded.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct PrizeList {
    pub awards: Vec<Award>,
    pub vacant: Vec<VacantPrize>,
    pub qualified: Vec<QualifiedPlayer>,
    pub total_amount: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrizeError {
    #[error("{table} 第{entry}项: 名次范围 {first}-{last} 无效, 须在1至10000之间且不倒序 (entry {entry}: invalid place range {first}-{last}; places run from 1 to 10000)")]
    BadRange {
        table: String,
        entry: usize,
        first: u32,
        last: u32,
    },
    #[error("{table} 第{entry}项: 名次 {place} 与前面的项重复 (entry {entry}: place {place} is already in an earlier entry)")]
    Overlap {
        table: String,
        entry: usize,
        place: u32,
    },
    #[error("{table} 第{entry}项: 没有奖金、称号、奖品、奖杯、奖牌或证书 (entry {entry}: no amount, title, item, trophy, medal or certificate)")]
    EmptyPrize { table: String, entry: usize },
    #[error("{table}: 找不到该组别的排名{hint} (no ranking for this section)")]
    NoRanking { table: String, hint: String },
    #[error("{ranking}: 排名重复给出 (the ranking is given twice)")]
    DuplicateRanking { ranking: String },
    #[error("{ranking} 第{row}行: 名次 {rank} 无效, 名次须从1开始且不减 (row {row}: rank {rank} is out of order; ranks start at 1 and never decrease)")]
    RankOrder {
        ranking: String,
        row: usize,
        rank: u32,
    },
    #[error("{ranking} 第{row}行: 选手 {no} 重复 (row {row}: player {no} appears twice)")]
    DuplicatePlayer {
        ranking: String,
        row: usize,
        no: PlayerNo,
    },
    #[error("{ranking} 第{row}行: 队伍 `{team}` 重复 (row {row}: team `{team}` appears twice)")]
    DuplicateTeam {
        ranking: String,
        row: usize,
        team: String,
    },
    #[error("奖金总额超出范围 (the total amount overflows)")]
    AmountOverflow,
}

fn label(kind: &str, section: &str, category: Option<&str>) -> String {
    match category {
        Some(c) => format!("{kind} `{section}/{c}`"),
        None => format!("{kind} `{section}`"),
    }
}

type Key = (String, Option<String>);

/// The largest place a prize table may name (a guard against typos such as `1-1000000`).
pub const MAX_PLACE: u32 = 10_000;

fn check_entries(table: &str, entries: &[PrizeEntry]) -> Result<(), PrizeError> {
    let mut used = BTreeSet::new();
    for (i, e) in entries.iter().enumerate() {
        let entry = i + 1;
        let (first, last) = (e.first, e.last_place());
        if first == 0 || last < first || last > MAX_PLACE {
            return Err(PrizeError::BadRange {
                table: table.into(),
                entry,
                first,
                last,
            });
        }
        if e.amount.is_none()
            && e.title.is_none()
            && e.item.is_none()
            && !e.trophy
            && !e.medal
            && !e.certificate
        {
            return Err(PrizeError::EmptyPrize {
                table: table.into(),
                entry,
            });
        }
        for place in first..=last {
            if !used.insert(place) {
                return Err(PrizeError::Overlap {
                    table: table.into(),
                    entry,
                    place,
                });
            }
        }
    }
    Ok(())
}

fn check_ranking(r: &Ranking) -> Result<(), PrizeError> {
    let name = label("排名", &r.section, r.category.as_deref());
    let mut prev = 1;
    let mut seen = BTreeSet::new();
    for (i, row) in r.rows.iter().enumerate() {
        if row.rank == 0 || row.rank < prev || row.rank as usize > i + 1 {
            return Err(PrizeError::RankOrder {
                ranking: name,
                row: i + 1,
                rank: row.rank,
            });
        }
        prev = row.rank;
        if !seen.insert(row.no) {
            return Err(PrizeError::DuplicatePlayer {
                ranking: name,
                row: i + 1,
                no: row.no,
            });
        }
    }
    Ok(())
}

fn check_team_ranking(r: &TeamRanking) -> Result<(), PrizeError> {
    let name = label("团体排名", &r.section, None);
    let mut prev = 1;
    let mut seen = BTreeSet::new();
    for (i, row) in r.rows.iter().enumerate() {
        if row.rank == 0 || row.rank < prev || row.rank as usize > i + 1 {
            return Err(PrizeError::RankOrder {
                ranking: name,
                row: i + 1,
                rank: row.rank,
            });
        }
        prev = row.rank;
        if !seen.insert(row.team.as_str()) {
            return Err(PrizeError::DuplicateTeam {
                ranking: name,
                row: i + 1,
                team: row.team.clone(),
            });
        }
    }
    Ok(())
}

fn no_ranking(table: String, wanted: &str, known: &[&str]) -> PrizeError {
    let hint = closest(wanted, known.iter().copied())
        .map(|c| format!(", 是否为 `{c}`?"))
        .unwrap_or_default();
    PrizeError::NoRanking { table, hint }
}

fn key_label(k: &Key) -> String {
    match &k.1 {
        Some(c) => format!("{}/{}", k.0, c),
        None => k.0.clone(),
    }
}

struct Allocator<'a> {
    one_award: bool,
    /// Persons (section, player number) holding an individual award.
    awarded: BTreeSet<(&'a str, PlayerNo)>,
    list: PrizeList,
}

impl<'a> Allocator<'a> {
    fn is_awarded(&self, section: &'a str, no: PlayerNo) -> bool {
        self.one_award && self.awarded.contains(&(section, no))
    }

    fn give(
        &mut self,
        kind: AwardKind,
        ranking: &'a Ranking,
        place: u32,
        row: &RankedPlayer,
        prize: &PrizeEntry,
        note: Option<String>,
    ) -> Result<(), PrizeError> {
        self.awarded.insert((ranking.section.as_str(), row.no));
        self.add_amount(prize.amount)?;
        self.list.awards.push(Award {
            kind,
            section: ranking.section.clone(),
            category: ranking.category.clone(),
            place,
            rank: row.rank,
            no: Some(row.no),
            name: Some(row.name.clone()),
            team: row.team.clone(),
            amount: prize.amount,
            title: prize.title.clone(),
            item: prize.item.clone(),
            trophy: prize.trophy,
            medal: prize.medal,
            certificate: prize.certificate,
            note,
            passed_down: false,
            board: None,
        });
        Ok(())
    }

    /// The award just given was passed down (顺延).
    fn mark_passed_down(&mut self) {
        if let Some(a) = self.list.awards.last_mut() {
            a.passed_down = true;
        }
    }

    fn add_amount(&mut self, amount: Option<u64>) -> Result<(), PrizeError> {
        self.list.total_amount = self
            .list
            .total_amount
            .checked_add(amount.unwrap_or(0))
            .ok_or(PrizeError::AmountOverflow)?;
        Ok(())
    }

    fn vacant(
        &mut self,
        kind: AwardKind,
        section: &str,
        category: Option<&String>,
        place: u32,
        prize: &PrizeEntry,
        reason: String,
    ) {
        self.list.vacant.push(VacantPrize {
            kind,
            section: section.to_string(),
            category: category.cloned(),
            place,
            amount: prize.amount,
            item: prize.item.clone(),
            reason,
            board: None,
        });
    }
}

fn entry_kind(e: &PrizeEntry) -> AwardKind {
    if e.amount.is_none() && e.item.is_none() && !e.trophy && !e.medal {
        AwardKind::Title
    } else {
        AwardKind::Place
    }
}

/// One winner of a place table.
struct TableWin<'a> {
    place: u32,
    no: PlayerNo,
    entry: &'a PrizeEntry,
    kind: AwardKind,
    /// The place's amount, or the reservation's floor if that is more.
    amount: Option<u64>,
    /// The winner is not the player at `place` of the ranking (players passed over).
    moved: bool,
    /// The winner fills a place reserved for a category.
    reserved: bool,
}

/// The winners of a place table and its places left vacant.
struct TableDraw<'a> {
    winners: Vec<TableWin<'a>>,
    vacant: Vec<(u32, &'a PrizeEntry)>,
    /// Players of the ranking who could win here.
    eligible: usize,
}

/// The winners of one table from its ranking without the players `left_out` (who hold a
/// better award): place k goes to the k-th of them (递补). With a reservation, the best
/// `places` players of the category among them are winners whatever their rank, the others
/// fill the rest of the table's places in ranking order, every winner takes the place of his
/// position among the winners, and the category's winners receive at least the floor (A14).
fn table_draw<'a>(
    t: &'a PrizeTable,
    ranking: &'a Ranking,
    left_out: &BTreeSet<PlayerNo>,
    members: Option<&BTreeSet<PlayerNo>>,
) -> TableDraw<'a> {
    let eligible: Vec<&RankedPlayer> = ranking
        .rows
        .iter()
        .filter(|r| !left_out.contains(&r.no))
        .collect();
    let mut entries: Vec<&PrizeEntry> = t.entries.iter().collect();
    entries.sort_by_key(|e| e.first);
    let last = entries.iter().map(|e| e.last_place()).max().unwrap_or(0) as usize;
    // The table's winners in ranking order, each marked if he fills a reserved place.
    let winners: Vec<(&RankedPlayer, bool)> = match (&t.reserved, members) {
        (Some(r), Some(m)) => {
            let reserved: BTreeSet<PlayerNo> = eligible
                .iter()
                .filter(|row| m.contains(&row.no))
                .take(r.places as usize)
                .map(|row| row.no)
                .collect();
            let mut open = last.saturating_sub(reserved.len());
            eligible
                .iter()
                .filter_map(|row| {
                    if reserved.contains(&row.no) {
                        Some((*row, true))
                    } else if open > 0 {
                        open -= 1;
                        Some((*row, false))
                    } else {
                        None
                    }
                })
                .take(last)
                .collect()
        }
        _ => eligible
            .iter()
            .take(last)
            .map(|row| (*row, false))
            .collect(),
    };
    let mut draw = TableDraw {
        winners: Vec::new(),
        vacant: Vec::new(),
        eligible: eligible.len(),
    };
    for e in entries {
        for place in e.first..=e.last_place() {
            let Some(&(row, reserved)) = winners.get(place as usize - 1) else {
                draw.vacant.push((place, e));
                continue;
            };
            let amount = match (&t.reserved, reserved) {
                (Some(r), true) => Some(e.amount.unwrap_or(0).max(r.floor)),
                _ => e.amount,
            };
            draw.winners.push(TableWin {
                place,
                no: row.no,
                entry: e,
                kind: if amount.is_some() && e.amount.is_none() {
                    AwardKind::Place
                } else {
                    entry_kind(e)
                },
                amount,
                moved: ranking.rows.get(place as usize - 1).map(|r| r.no) != Some(row.no),
                reserved,
            });
        }
    }
    draw
}

/// One award per person (A14), to a fixed point: every person keeps the award worth most
/// to him, and no prize is held by a player ranked below someone of its list who would
/// rather have it than what he holds. All persons value the prizes alike — the amount
/// (a reserved winner's floor counted), then the table listed first, then the better place —
/// so this allocation is the only one, and it is reached by giving the prizes out one at a
/// time, the prize worth most first, each to the best player of its list who holds no award
/// yet; a table's places go out in order (its next place is the only one on offer). A player
/// who first looked placed in a lower prize is thus reconsidered for a better prize vacated
/// above him: he takes it, and his lower place passes down its own list (顺延).
///
/// A table with reserved places gives its next place to the best player left unless the
/// places still to give are all needed for the category's players left (up to the reserved
/// number): then to the best of those — the same winners as [`table_draw`] for the same
/// players. A place between a table's entries (no prize) is passed without an award.
fn one_award_draws<'a>(
    rules: &'a PrizeRules,
    rankings_of: &[&'a Ranking],
    members: &[Option<BTreeSet<PlayerNo>>],
) -> Vec<TableDraw<'a>> {
    struct Open<'a> {
        /// The table's places 1..=last, each with its prize line (`None`: a gap).
        places: Vec<Option<&'a PrizeEntry>>,
        next: usize,
        /// Players this table has passed over or given a place.
        taken: BTreeSet<PlayerNo>,
        reserved_given: u32,
        draw: TableDraw<'a>,
    }
    let mut open: Vec<Open> = rules
        .places
        .iter()
        .map(|t| {
            let last = t.entries.iter().map(|e| e.last_place()).max().unwrap_or(0);
            let places = (1..=last)
                .map(|k| {
                    t.entries
                        .iter()
                        .find(|e| (e.first..=e.last_place()).contains(&k))
                })
                .collect();
            Open {
                places,
                next: 0,
                taken: BTreeSet::new(),
                reserved_given: 0,
                draw: TableDraw {
                    winners: Vec::new(),
                    vacant: Vec::new(),
                    eligible: 0,
                },
            }
        })
        .collect();
    /// The place on offer of a table and who would win it.
    struct Offer {
        /// What it is worth: (amount, table listed first, better place).
        key: (u64, std::cmp::Reverse<u32>, std::cmp::Reverse<u32>),
        table: usize,
        no: PlayerNo,
        reserved: bool,
        amount: Option<u64>,
    }
    let mut awarded: BTreeSet<(&str, PlayerNo)> = BTreeSet::new();
    loop {
        // The place on offer of every open table: (amount, listed, place) and its winner.
        let mut best: Option<Offer> = None;
        for (i, o) in open.iter_mut().enumerate() {
            let t = &rules.places[i];
            let ranking = rankings_of[i];
            let section = t.section.as_str();
            let Some(&slot) = o.places.get(o.next) else {
                continue;
            };
            let place = o.next as u32 + 1;
            let left: Vec<&RankedPlayer> = ranking
                .rows
                .iter()
                .filter(|r| !o.taken.contains(&r.no) && !awarded.contains(&(section, r.no)))
                .collect();
            let winner = match (&t.reserved, members[i].as_ref()) {
                (Some(r), Some(m)) => {
                    let is_member = |row: &&&RankedPlayer| m.contains(&row.no);
                    let still = (r.places.saturating_sub(o.reserved_given) as usize)
                        .min(left.iter().filter(is_member).count());
                    let to_give = o.places.len() - o.next;
                    match left.first() {
                        Some(row) if m.contains(&row.no) && still > 0 => Some((row.no, true)),
                        Some(row) if to_give > still => Some((row.no, false)),
                        _ => left.iter().find(is_member).map(|row| (row.no, true)),
                    }
                }
                _ => left.first().map(|row| (row.no, false)),
            };
            let Some(e) = slot else {
                // A gap between the table's entries: its player is passed, with no award.
                if let Some((no, _)) = winner {
                    o.taken.insert(no);
                }
                o.next += 1;
                continue;
            };
            let Some(winner) = winner else {
                o.draw.vacant.push((place, e));
                o.next += 1;
                continue;
            };
            let amount = match (&t.reserved, winner.1) {
                (Some(r), true) => Some(e.amount.unwrap_or(0).max(r.floor)),
                _ => e.amount,
            };
            let listed = t.listed.unwrap_or(i as u32);
            let key = (
                amount.unwrap_or(0),
                std::cmp::Reverse(listed),
                std::cmp::Reverse(place),
            );
            if best.as_ref().is_none_or(|b| key > b.key) {
                best = Some(Offer {
                    key,
                    table: i,
                    no: winner.0,
                    reserved: winner.1,
                    amount,
                });
            }
        }
        let Some(Offer {
            table: i,
            no,
            reserved,
            amount,
            ..
        }) = best
        else {
            if open.iter().all(|o| o.next >= o.places.len()) {
                break;
            }
            continue;
        };
        let t = &rules.places[i];
        let o = &mut open[i];
        let place = o.next as u32 + 1;
        let Some(Some(e)) = o.places.get(o.next).copied() else {
            break;
        };
        awarded.insert((t.section.as_str(), no));
        o.taken.insert(no);
        if reserved {
            o.reserved_given += 1;
        }
        o.draw.winners.push(TableWin {
            place,
            no,
            entry: e,
            kind: if amount.is_some() && e.amount.is_none() {
                AwardKind::Place
            } else {
                entry_kind(e)
            },
            amount,
            moved: rankings_of[i].rows.get(o.next).map(|r| r.no) != Some(no),
            reserved,
        });
        o.next += 1;
    }
    open.into_iter()
        .enumerate()
        .map(|(i, o)| {
            let mut draw = o.draw;
            let section = rules.places[i].section.as_str();
            draw.eligible = rankings_of[i]
                .rows
                .iter()
                .filter(|r| {
                    !awarded.contains(&(section, r.no)) || draw.winners.iter().any(|w| w.no == r.no)
                })
                .count();
            draw.winners.sort_by_key(|w| w.place);
            draw.vacant.sort_by_key(|v| v.0);
            draw
        })
        .collect()
}

/// Allocates every prize of `rules` from the final rankings.
pub fn allocate_prizes(
    rules: &PrizeRules,
    rankings: &[Ranking],
    team_rankings: &[TeamRanking],
) -> Result<PrizeList, PrizeError> {
    let mut by_key: BTreeMap<Key, &Ranking> = BTreeMap::new();
    for r in rankings {
        check_ranking(r)?;
        if by_key
            .insert((r.section.clone(), r.category.clone()), r)
            .is_some()
        {
            return Err(PrizeError::DuplicateRanking {
                ranking: label("排名", &r.section, r.category.as_deref()),
            });
        }
    }
    let mut teams_by: BTreeMap<&str, &TeamRanking> = BTreeMap::new();
    for r in team_rankings {
        check_team_ranking(r)?;
        if teams_by.insert(&r.section, r).is_some() {
            return Err(PrizeError::DuplicateRanking {
                ranking: label("团体排名", &r.section, None),
            });
        }
    }
    let known: Vec<String> = by_key.keys().map(key_label).collect();
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    let find = |kind: &str, section: &str, category: &Option<String>| {
        let key = (section.to_string(), category.clone());
        by_key.get(&key).copied().ok_or_else(|| {
            no_ranking(
                label(kind, section, category.as_deref()),
                &key_label(&key),
                &known,
            )
        })
    };

    // Validate everything before allocating anything.
    for t in &rules.places {
        check_entries(
            &label("奖项表", &t.section, t.category.as_deref()),
            &t.entries,
        )?;
        find("奖项表", &t.section, &t.category)?;
    }
    for t in &rules.teams {
        let name = label("团体奖项表", &t.section, None);
        check_entries(&name, &t.entries)?;
        if !teams_by.contains_key(t.section.as_str()) {
            let known: Vec<&str> = teams_by.keys().copied().collect();
            return Err(no_ranking(name, &t.section, &known));
        }
    }
    for t in &rules.lucky {
        let name = label("幸运奖", &t.section, t.category.as_deref());
        let as_entries: Vec<PrizeEntry> = t.entries.iter().map(LuckyEntry::as_prize).collect();
        check_entries(&name, &as_entries)?;
        find("幸运奖", &t.section, &t.category)?;
    }
    for q in &rules.qualification {
        find("录取资格", &q.section, &q.category)?;
    }

    let mut al = Allocator {
        one_award: rules.one_award_per_person,
        awarded: BTreeSet::new(),
        list: PrizeList::default(),
    };

    // Place tables (A14): every table's winners from its ranking; with one award per person
    // every prize goes, the prize worth most first, to the best player of its list who holds
    // no award yet ([`one_award_draws`]).
    let mut members: Vec<Option<BTreeSet<PlayerNo>>> = Vec::with_capacity(rules.places.len());
    for t in &rules.places {
        members.push(match &t.reserved {
            Some(r) => {
                let c = find("奖项表", &t.section, &Some(r.category.clone()))?;
                Some(c.rows.iter().map(|row| row.no).collect())
            }
            None => None,
        });
    }
    let rankings_of: Vec<&Ranking> = rules
        .places
        .iter()
        .map(|t| find("奖项表", &t.section, &t.category))
        .collect::<Result<_, _>>()?;
    let draws: Vec<TableDraw> = if rules.one_award_per_person {
        one_award_draws(rules, &rankings_of, &members)
    } else {
        let none = BTreeSet::new();
        rules
            .places
            .iter()
            .enumerate()
            .map(|(i, t)| table_draw(t, rankings_of[i], &none, members[i].as_ref()))
            .collect()
    };
    for (i, (t, d)) in rules.places.iter().zip(&draws).enumerate() {
        let ranking = rankings_of[i];
        for w in &d.winners {
            let Some(row) = ranking.rows.iter().find(|r| r.no == w.no) else {
                continue;
            };
            let mut prize = w.entry.clone();
            prize.amount = w.amount;
            let mut notes = Vec::new();
            let passed_down = w.moved && !w.reserved;
            if passed_down {
                notes.push(format!(
                    "第{}名奖项顺延至第{}名: 名次在前的选手已领取其他奖项, 不可重复领奖 (place {} passed down to rank {}: the players above take another award)",
                    w.place, row.rank, w.place, row.rank
                ));
            }
            if let (Some(r), true) = (&t.reserved, w.reserved) {
                notes.push(format!(
                    "「{}」保留名额，保底{}元 (a place reserved for the category, at least {} yuan)",
                    r.category, r.floor, r.floor
                ));
            }
            let note = (!notes.is_empty()).then(|| notes.join("; "));
            al.give(w.kind, ranking, w.place, row, &prize, note)?;
            if passed_down {
                al.mark_passed_down();
            }
        }
        for &(place, e) in &d.vacant {
            let kind = entry_kind(e);
            al.vacant(
                kind,
                &t.section,
                t.category.as_ref(),
                place,
                e,
                format!(
                    "无第{place}名可获奖选手 (no eligible player for place {place}: {} ranked, {} without an award)",
                    ranking.rows.len(),
                    d.eligible
                ),
            );
        }
    }

    for t in &rules.teams {
        let Some(ranking) = teams_by.get(t.section.as_str()) else {
            continue;
        };
        let mut entries: Vec<&PrizeEntry> = t.entries.iter().collect();
        entries.sort_by_key(|e| e.first);
        for e in entries {
            for place in e.first..=e.last_place() {
                match ranking.rows.get(place as usize - 1) {
                    Some(row) => {
                        al.add_amount(e.amount)?;
                        al.list.awards.push(Award {
                            team: Some(row.team.clone()),
                            ..Award::of_entry(AwardKind::Team, &t.section, place, row.rank, e)
                        });
                    }
                    None => al.vacant(
                        AwardKind::Team,
                        &t.section,
                        None,
                        place,
                        e,
                        format!(
                            "参赛队伍不足, 无第{place}名 (no team for place {place}: {} ranked)",
                            ranking.rows.len()
                        ),
                    ),
                }
            }
        }
    }

    for t in &rules.lucky {
        let ranking = find("幸运奖", &t.section, &t.category)?;
        let reserved: BTreeSet<u32> = t.entries.iter().map(|e| e.rank).collect();
        let mut entries: Vec<&LuckyEntry> = t.entries.iter().collect();
        entries.sort_by_key(|e| e.rank);
        for lucky in entries {
            let place = lucky.rank;
            let e = &lucky.as_prize();
            let vacant = |al: &mut Allocator, reason: String| {
                al.vacant(
                    AwardKind::Lucky,
                    &t.section,
                    t.category.as_ref(),
                    place,
                    e,
                    reason,
                )
            };
            let Some(row) = ranking.rows.get(place as usize - 1) else {
                vacant(
                    &mut al,
                    format!(
                        "参赛人数不足, 无第{place}名 (no player at rank {place}: {} ranked)",
                        ranking.rows.len()
                    ),
                );
                continue;
            };
            if !al.is_awarded(&ranking.section, row.no) {
                al.give(AwardKind::Lucky, ranking, place, row, e, None)?;
                continue;
            }
            match rules.lucky_on_awarded {
                LuckyOnAwarded::Unawarded => vacant(
                    &mut al,
                    format!(
                        "第{place}名选手 {} 已获奖, 不可重复领奖 (the player at rank {place} already holds an award)",
                        row.name
                    ),
                ),
                LuckyOnAwarded::NextRank => {
                    let to = ranking
                        .rows
                        .iter()
                        .enumerate()
                        .skip(place as usize)
                        .find(|(i, r)| {
                            !reserved.contains(&(*i as u32 + 1)) && !al.is_awarded(&ranking.section, r.no)
                        })
                        .map(|(_, r)| r);
                    match to {
                        Some(to) => {
                            let note = format!(
                                "第{place}名选手 {} 已获奖, 顺延至第{}名 (the player at rank {place} already holds an award; moved down to rank {})",
                                row.name, to.rank, to.rank
                            );
                            al.give(AwardKind::Lucky, ranking, place, to, e, Some(note))?;
                            al.mark_passed_down();
                        }
                        None => vacant(
                            &mut al,
                            format!(
                                "第{place}名选手 {} 已获奖, 顺延至名单末尾仍无未获奖选手 (the player at rank {place} already holds an award and nobody below is left)",
                                row.name
                            ),
                        ),
                    }
                }
            }
        }
    }

    for q in &rules.qualification {
        let ranking = find("录取资格", &q.section, &q.category)?;
        for (i, row) in ranking.rows.iter().take(q.places as usize).enumerate() {
            al.list.qualified.push(QualifiedPlayer {
                section: q.section.clone(),
                category: q.category.clone(),
                label: q.label.clone(),
                place: i as u32 + 1,
                rank: row.rank,
                no: row.no,
                name: row.name.clone(),
            });
        }
    }
    Ok(al.list)
}

/// The board standings of one board of a team-match section (台次成绩, A15): the players
/// ranked on it, in rank order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRanking {
    pub section: String,
    pub board: u32,
    pub rows: Vec<RankedPlayer>,
}

/// 台次奖 (A15): the same places `entries` given on every board's ranking of `section`,
/// appended to `list` after its other prizes. Place `k` of a board goes to the `k`-th player
/// ranked on it (a player is ranked on one board only); a place beyond the players ranked
/// there is vacant. Board prizes are a person's awards but never move another prize.
pub fn allocate_board_prizes(
    list: &mut PrizeList,
    section: &str,
    entries: &[PrizeEntry],
    boards: &[BoardRanking],
) -> Result<(), PrizeError> {
    let table = label("台次奖", section, None);
    check_entries(&table, entries)?;
    for b in boards {
        check_ranking(&Ranking {
            section: format!("{section} 第{}台", b.board),
            category: None,
            rows: b.rows.clone(),
        })?;
    }
    let mut sorted: Vec<&PrizeEntry> = entries.iter().collect();
    sorted.sort_by_key(|e| e.first);
    let mut al = Allocator {
        one_award: false,
        awarded: BTreeSet::new(),
        list: std::mem::take(list),
    };
    let mut boards: Vec<&BoardRanking> = boards.iter().collect();
    boards.sort_by_key(|b| b.board);
    for b in boards {
        for e in &sorted {
            for place in e.first..=e.last_place() {
                match b.rows.get(place as usize - 1) {
                    Some(row) => {
                        al.add_amount(e.amount)?;
                        al.list.awards.push(Award {
                            no: Some(row.no),
                            name: Some(row.name.clone()),
                            team: row.team.clone(),
                            board: Some(b.board),
                            ..Award::of_entry(AwardKind::Board, section, place, row.rank, e)
                        });
                    }
                    None => {
                        al.vacant(
                            AwardKind::Board,
                            section,
                            None,
                            place,
                            e,
                            format!(
                                "第{}台有名次的棋手不足, 无第{place}名 (board {}: no player ranked at place {place}, {} ranked)",
                                b.board,
                                b.board,
                                b.rows.len()
                            ),
                        );
                        if let Some(v) = al.list.vacant.last_mut() {
                            v.board = Some(b.board);
                        }
                    }
                }
            }
        }
    }
    *list = al.list;
    Ok(())
}
