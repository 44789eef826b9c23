//! Counts of the active (not withdrawn) entries of an event, kept up to date by the fold so
//! that registration checks (cap, duplicate ID number, per-unit and per-association limits,
//! cross-unit teams) cost O(log n) instead of a scan of every player: registering n players
//! is n log n, not n².
//!
//! The index is a function of the players it has seen; [`crate::EventState::apply`] removes a
//! player's record before an entry that changes it and adds it back after, so it always
//! describes `EventState::players`. Two states folded from the same log have equal indexes.

use crate::entry::PlayerId;
use crate::state::PlayerRecord;
use chrono::NaiveDate;
use imbl::{OrdMap as BTreeMap, OrdSet as BTreeSet};
use serde::{Deserialize, Serialize};

/// Which field an entry counts for when limits are per unit: the work unit / club first
/// (then the association), or the association first (then the unit) — the regulation's
/// `unit_kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountBy {
    UnitFirst,
    AssociationFirst,
}

impl CountBy {
    /// The unit a player counts for under this rule.
    pub fn unit_of<'a>(
        self,
        unit: Option<&'a str>,
        association: Option<&'a str>,
    ) -> Option<&'a str> {
        match self {
            CountBy::UnitFirst => unit.or(association),
            CountBy::AssociationFirst => association.or(unit),
        }
    }
}

type Counts = BTreeMap<String, u32>;

/// Active-entry counts. Keys are plain strings so that the state stays serialisable.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryIndex {
    active: u32,
    /// section → active entries.
    section: Counts,
    /// section → ID number → active entries with it.
    id_number: BTreeMap<String, Counts>,
    /// association (as registered) → active entries.
    association: Counts,
    /// Counted unit, unit first: overall, and section → unit.
    unit_first: Counts,
    unit_first_in: BTreeMap<String, Counts>,
    /// Counted unit, association first: overall, and section → unit.
    association_first: Counts,
    association_first_in: BTreeMap<String, Counts>,
    /// team → unit (empty string: none) → active members.
    team_units: BTreeMap<String, Counts>,
    /// section → identity (trimmed name, unit, birth date; see [`identity`]) → the active
    /// players with it: an entry without an ID number that matches one of them is the same
    /// person entered twice.
    #[serde(default)]
    identity: BTreeMap<String, BTreeMap<String, BTreeSet<PlayerId>>>,
}

/// The identity of an entry without an ID number: trimmed name, unit and birth date (each
/// recorded or unknown), as one string key.
fn identity(name: &str, unit: Option<&str>, birth: Option<NaiveDate>) -> String {
    format!(
        "{}\u{1f}{}\u{1f}{}",
        name.trim(),
        unit.map_or_else(|| "\u{0}".to_string(), |u| format!("={u}")),
        birth.map_or_else(String::new, |d| d.to_string())
    )
}

fn bump(m: &mut Counts, k: &str, add: bool) {
    if add {
        *m.entry(k.to_string()).or_insert(0) += 1;
    } else if let Some(n) = m.get_mut(k) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            m.remove(k);
        }
    }
}

fn bump2(m: &mut BTreeMap<String, Counts>, a: &str, b: &str, add: bool) {
    if add {
        bump(m.entry(a.to_string()).or_default(), b, true);
    } else if let Some(inner) = m.get_mut(a) {
        bump(inner, b, false);
        if inner.is_empty() {
            m.remove(a);
        }
    }
}

fn get(m: &Counts, k: &str) -> u32 {
    m.get(k).copied().unwrap_or(0)
}

impl EntryIndex {
    /// Count `p` in (`add`) or out; players who withdrew are not counted.
    pub(crate) fn count(&mut self, p: &PlayerRecord, add: bool) {
        if p.withdrawn.is_some() {
            return;
        }
        self.active = if add {
            self.active + 1
        } else {
            self.active.saturating_sub(1)
        };
        bump(&mut self.section, &p.section, add);
        if let Some(id) = &p.person.id_number {
            bump2(&mut self.id_number, &p.section, id.as_str(), add);
        }
        if let Some(a) = &p.person.association {
            bump(&mut self.association, a, add);
        }
        let (u, a) = (p.person.unit.as_deref(), p.person.association.as_deref());
        if let Some(k) = CountBy::UnitFirst.unit_of(u, a) {
            bump(&mut self.unit_first, k, add);
            bump2(&mut self.unit_first_in, &p.section, k, add);
        }
        if let Some(k) = CountBy::AssociationFirst.unit_of(u, a) {
            bump(&mut self.association_first, k, add);
            bump2(&mut self.association_first_in, &p.section, k, add);
        }
        if let Some(t) = &p.team {
            bump2(&mut self.team_units, t, u.unwrap_or(""), add);
        }
        let key = identity(&p.person.name, u, p.person.birth_date);
        if add {
            self.identity
                .entry(p.section.clone())
                .or_default()
                .entry(key)
                .or_default()
                .insert(p.id);
        } else if let Some(inner) = self.identity.get_mut(&p.section) {
            if let Some(ids) = inner.get_mut(&key) {
                ids.remove(&p.id);
                if ids.is_empty() {
                    inner.remove(&key);
                }
            }
            if inner.is_empty() {
                self.identity.remove(&p.section);
            }
        }
    }

    /// The first active player of `section` with this name (trimmed), unit and birth date.
    pub fn same_person(
        &self,
        section: &str,
        name: &str,
        unit: Option<&str>,
        birth: Option<NaiveDate>,
    ) -> Option<PlayerId> {
        self.identity
            .get(section)?
            .get(&identity(name, unit, birth))?
            .get_min()
            .copied()
    }

    /// Active entries of the whole event.
    pub fn active(&self) -> u32 {
        self.active
    }

    /// Active entries of a section.
    pub fn in_section(&self, section: &str) -> u32 {
        get(&self.section, section)
    }

    /// Whether an active entry of `section` has this ID number.
    pub fn has_id_number(&self, section: &str, id: &str) -> bool {
        self.id_number.get(section).is_some_and(|m| get(m, id) > 0)
    }

    /// Active entries registered with this association.
    pub fn of_association(&self, association: &str) -> u32 {
        get(&self.association, association)
    }

    /// Active entries counted for `unit` under `by`, in `section` or (`None`) overall.
    pub fn of_unit(&self, by: CountBy, section: Option<&str>, unit: &str) -> u32 {
        let (all, per) = match by {
            CountBy::UnitFirst => (&self.unit_first, &self.unit_first_in),
            CountBy::AssociationFirst => (&self.association_first, &self.association_first_in),
        };
        match section {
            None => get(all, unit),
            Some(s) => per.get(s).map_or(0, |m| get(m, unit)),
        }
    }

    /// The units (`None`: no unit) of the active members of a team, with their counts.
    pub fn team_units(&self, team: &str) -> impl Iterator<Item = (Option<&str>, u32)> + '_ {
        self.team_units
            .get(team)
            .into_iter()
            .flat_map(|m| m.iter())
            .map(|(u, &n)| ((!u.is_empty()).then_some(u.as_str()), n))
    }
}
