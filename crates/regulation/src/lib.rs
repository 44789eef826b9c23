//! Regulation files (竞赛规程 + 补充规定): the model of a whole event as TOML, parsing with
//! located errors (`file:line:column`), validation, tie-break presets, eligibility checks
//! and a printable summary. Pure: no I/O.

pub mod charges;
mod de;
pub mod entry;
pub mod error;
pub mod grades;
pub mod locate;
pub mod match_blocks;
pub mod model;
pub mod play_up;
pub mod presets;
pub mod summary;
pub mod texts;
mod validate;

pub use charges::{Charge, ChargeAmount, ChargeKind, Due, RefundAt, FEE_ITEM};
pub use entry::{age_on, EntryFacts, Refusal};
pub use error::RegulationError;
pub use grades::{Grade, GradeStep, Grades};
pub use model::*;
pub use play_up::{PlayUp, PlayingUp};
pub use validate::{max_rounds, MAX_BRACKET, MAX_ENTRIES, MAX_PLACE, MAX_SECTION_ENTRIES};

/// Parse and validate a regulation file. `file_name` is used in error messages only.
pub fn parse(source: &str, file_name: &str) -> Result<Regulation, RegulationError> {
    texts::check(source, file_name)?;
    let mut reg: Regulation = toml::from_str(source).map_err(|e| {
        let message = error::translate(e.message());
        let span = e.span().map(|s| error::narrow(source, s, &message));
        RegulationError::at(source, file_name, span, message)
    })?;
    validate::validate(&mut reg, source, file_name)?;
    Ok(reg)
}
