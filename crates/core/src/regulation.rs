//! The regulation in force: the TOML recorded by `event_created`, parsed once per state and
//! shared by its clones, with the settings changed since (`settings_changed`) applied.

use crate::state::EventState;
use arbiter_regulation::{Regulation, TimeControl};
use arbiter_types::GameKind;
use std::sync::{Arc, OnceLock};

/// Why an event has no regulation to run by.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegulationError {
    #[error("尚未创建赛事 (no event created)")]
    NoEvent,
    /// The recorded regulation no longer parses (the message names file, line and column).
    #[error("{0}")]
    Parse(String),
}

/// A state's parsed regulation, filled on first use. The fold replaces it with an empty cell
/// whenever the regulation or the settings change, so a cell never outlives what it was made
/// from; clones of a state share it.
#[derive(Clone, Default)]
pub(crate) struct RegulationCell(Arc<OnceLock<Result<Arc<Regulation>, RegulationError>>>);

impl std::fmt::Debug for RegulationCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0.get() {
            Some(Ok(_)) => "RegulationCell(parsed)",
            Some(Err(_)) => "RegulationCell(error)",
            None => "RegulationCell(empty)",
        })
    }
}

/// The cell is derived from the header and the settings, which the state compares itself.
impl PartialEq for RegulationCell {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for RegulationCell {}

impl EventState {
    /// The regulation in force: the recorded one with the settings changed since (name, dates,
    /// venue, Swiss rounds, the slow games' time control). Parsed on the first call and shared
    /// by every clone of this state until an entry changes the regulation or the settings.
    pub fn regulation(&self) -> Result<Arc<Regulation>, RegulationError> {
        self.regulation_cell()
            .0
            .get_or_init(|| self.parse_regulation().map(Arc::new))
            .clone()
    }

    fn parse_regulation(&self) -> Result<Regulation, RegulationError> {
        let h = self.header.as_ref().ok_or(RegulationError::NoEvent)?;
        let mut reg = arbiter_regulation::parse(&h.regulation, &h.file_name)
            .map_err(|e| RegulationError::Parse(e.to_string()))?;
        let st = &self.settings;
        if let Some(n) = &st.name {
            reg.event.name = n.clone();
        }
        if let Some(d) = st.start {
            reg.event.start = d;
        }
        if let Some(d) = st.end {
            reg.event.end = d;
        }
        if let Some(v) = &st.venue {
            reg.event.venue = Some(v.clone());
        }
        for s in &mut reg.sections {
            if let Some(n) = st.rounds.get(&s.id) {
                s.format.rounds = Some(*n);
            }
            // The slow games' time control (比赛用时) replaces the regulation's.
            if let Some(tc) = st.time_controls.get(&s.id) {
                let set = TimeControl {
                    kind: GameKind::Slow,
                    minutes: tc.minutes,
                    increment_seconds: tc.increment_seconds,
                    black_minutes: None,
                };
                match s
                    .time_controls
                    .iter_mut()
                    .find(|t| t.kind == GameKind::Slow)
                {
                    Some(t) => *t = set,
                    None => s.time_controls.insert(0, set),
                }
            }
        }
        Ok(reg)
    }
}
