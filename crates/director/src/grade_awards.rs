//! 等级称号: the grades a section's places earn by its regulation (`grade_awards`), read off
//! the final standings and the grade each player entered with. A player placed in a range
//! earns its grade unless he already holds that step of the `[grades]` scale or a higher one
//! (已具有同级或更高称号者不再授予); players sharing a place share it.

use crate::export::{GradeAwardRow, SectionExport};
use arbiter_regulation::Regulation;

/// Every player placed in a range of a section's `grade_awards`, section by section in the
/// regulation's order, each in place order (then by number): the grade, the grade held, and
/// whether it is awarded.
pub fn rows(reg: &Regulation, sections: &[SectionExport]) -> Vec<GradeAwardRow> {
    let mut out = Vec::new();
    for sec in &reg.sections {
        if sec.grade_awards.is_empty() {
            continue;
        }
        let Some(ex) = sections.iter().find(|s| s.id == sec.id) else {
            continue;
        };
        let mut rows: Vec<_> = ex.standings.iter().collect();
        rows.sort_by_key(|r| (r.rank, r.no));
        for row in rows {
            let Some(award) = sec.grade_awards.iter().find(|a| {
                let (f, t) = a.places();
                (f..=t).contains(&row.rank)
            }) else {
                continue;
            };
            let Some(step) = award.step.clone().or_else(|| reg.grades.find(&award.grade)) else {
                continue;
            };
            let held = ex
                .players
                .iter()
                .find(|p| p.no == row.no)
                .and_then(|p| p.grade.clone());
            let held_step = held.as_deref().and_then(|g| reg.grades.find(g));
            let awarded = held_step.is_none_or(|h| h.rank < step.rank);
            out.push(GradeAwardRow {
                section: sec.id.clone(),
                rank: row.rank,
                no: row.no,
                grade: step.name,
                held,
                awarded,
            });
        }
    }
    out
}
