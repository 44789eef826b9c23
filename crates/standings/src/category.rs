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
    category_of_ranks(
        standings
            .rows
            .iter()
            .filter(|r| member(r))
            .map(|r| (r.rank, r.no)),
    )
}

/// Ranks the members of a category given as `(section rank, pairing number)` in section
/// order (e.g. the final ranking of a two-stage section, whose places 1..k come from the
/// knockout): ranks 1..m without gaps, shared exactly when the section ranks are shared.
pub fn category_of_ranks(members: impl IntoIterator<Item = (u32, PlayerNo)>) -> Vec<CategoryRow> {
    let mut out: Vec<CategoryRow> = Vec::new();
    for (section_rank, no) in members {
        let pos = out.len() as u32 + 1;
        let rank = match out.last() {
            Some(prev) if prev.section_rank == section_rank => prev.rank,
            _ => pos,
        };
        out.push(CategoryRow {
            rank,
            section_rank,
            no,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_without_gaps_and_shared_only_with_the_section() {
        let no = |i: u32| PlayerNo::new(i).unwrap_or(PlayerNo::from_index(0));
        // Section ranks 2, 5, 5, 9 (a shared 5th place): category 1, 2, 2, 4.
        let rows = category_of_ranks([(2, no(7)), (5, no(3)), (5, no(4)), (9, no(1))]);
        let ranks: Vec<(u32, u32)> = rows.iter().map(|r| (r.rank, r.section_rank)).collect();
        assert_eq!(ranks, vec![(1, 2), (2, 5), (2, 5), (4, 9)]);
        assert_eq!(rows[0].no, no(7));
    }
}
