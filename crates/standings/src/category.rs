//! Category rankings (女子组, 本地棋手, age bands …): a subset of a section ranked 1..m in the
//! section's order.

use crate::input::{Row, Standings};
use arbiter_types::PlayerNo;

/// One line of a category ranking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryRow {
    /// Rank inside the category (1..m); shared exactly when the section ranks are shared.
    pub rank: u32,
    /// Rank in the whole section.
    pub section_rank: u32,
    pub no: PlayerNo,
}

/// Ranks the rows of `standings` for which `member` holds, keeping the section order. Two
/// members share a category rank only if they share the section rank (`shared` fallback);
/// otherwise ranks are 1..m without gaps.
pub fn category(standings: &Standings, member: impl Fn(&Row) -> bool) -> Vec<CategoryRow> {
    let mut out: Vec<CategoryRow> = Vec::new();
    for row in standings.rows.iter().filter(|r| member(r)) {
        let pos = out.len() as u32 + 1;
        let rank = match out.last() {
            Some(prev) if prev.section_rank == row.rank => prev.rank,
            _ => pos,
        };
        out.push(CategoryRow {
            rank,
            section_rank: row.rank,
            no: row.no,
        });
    }
    out
}

/// Category by tag: the players whose [`crate::PlayerEntry::categories`] contain `tag`.
pub fn category_by_tag(
    standings: &Standings,
    players: &[crate::PlayerEntry],
    tag: &str,
) -> Vec<CategoryRow> {
    let tagged: std::collections::BTreeSet<PlayerNo> = players
        .iter()
        .filter(|p| p.categories.contains(tag))
        .map(|p| p.no)
        .collect();
    category(standings, |r| tagged.contains(&r.no))
}
