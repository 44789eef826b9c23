//! The simulator (`arbiter simulate`): a scripted arbiter that runs a whole event from its
//! regulation — a synthetic field ([`synth`]) registered at the desk (refusals included),
//! teams, fees and check-in, then every section round by round with random results
//! ([`results`]) and its knockout, and the closing. It is a shell like the CLI and the desk:
//! every write is a [`Command`] decided by the director ([`command::decide`]), which holds
//! every rule (eligibility, pairing, the foul rule, who signs a slip, …); what is the
//! simulator's own is only what a real event would bring from outside — the entry forms, the
//! games' results, the arbiter's choices (a team foul now and then, an illness withdrawal, one
//! correction of a signed slip). No log entry is built here.
//!
//! Pure: [`Simulator::next_batch`] returns the entries to append — the decisions of one or
//! more commands of one actor at one time, each decided on the state the ones before it leave;
//! the shell appends them (expected-seq) and passes the new state back.

pub mod results;
pub mod synth;

use crate::results::{simulate_knockout_game, simulate_round, ResultModel};
use crate::synth::{
    generate, Affiliation, BadKind, Expect, SectionPlan as FieldSection, SynthEntry, SynthField,
    SynthPlan, TeamPlan,
};
use arbiter_core::{EventState, LogEntry, PlayerId, PlayerStatus, Recorded};
use arbiter_director::api::entries::{fee_due, TeamForm};
use arbiter_director::api::results::ResultInput;
use arbiter_director::api::rounds::PairRequest;
use arbiter_director::api::write::{Append, EventLog, MemoryLog};
use arbiter_director::api::{self, Ctx, Role};
use arbiter_director::command::event::EventCommand;
use arbiter_director::command::games::GameCommand;
use arbiter_director::command::money::MoneyCommand;
use arbiter_director::command::registration::RegistrationCommand;
use arbiter_director::command::rounds::RoundCommand;
use arbiter_director::command::{self, Command, Outcome};
use arbiter_director::plan::{section_plan, SectionPlan};
use arbiter_director::registration::{fee_fen, rfc3339, EntryForm};
use arbiter_director::step::{knockout_due, next_step, Step};
use arbiter_director::{derive_seed, knockout_stage, DirectorError};
use arbiter_regulation::{age_on, FormatKind, Regulation, Section, UnitKind};
use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// Entries to append together, with the (simulated) time they are recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    pub at: String,
    pub actor: String,
    pub entries: Vec<LogEntry>,
}

impl Batch {
    /// The batch as recorded after a log whose last sequence number is `last_seq`: what a
    /// store returns for it, and what the fold applies.
    pub fn recorded(&self, last_seq: u64) -> impl Iterator<Item = Recorded> + '_ {
        self.entries
            .iter()
            .zip(last_seq + 1..)
            .map(|(e, seq)| Recorded {
                seq,
                at: self.at.clone(),
                actor: self.actor.clone(),
                entry: e.clone(),
            })
    }
}

/// Append `batch` after `expected` (a batch the simulator decided, or part of one).
pub fn append_batch<L: EventLog>(
    log: &mut L,
    expected: u64,
    batch: Batch,
) -> Result<Result<Option<Batch>, DirectorError>, L::Error> {
    Ok(
        match log.append(expected, &batch.entries, &batch.actor, &batch.at)? {
            Append::Done(_) => Ok(Some(batch)),
            Append::Conflict => Err(arbiter_director::Refusal::Busy { attempts: 1 }.into()),
            Append::Refused(why) => Err(DirectorError::Rejected(why)),
        },
    )
}

/// The fields the regulation asks of an entry in `sec`: the section's own list, else the
/// event's (`[registration] fields`).
fn required_fields<'a>(
    reg: &'a Regulation,
    sec: &'a arbiter_regulation::Section,
) -> &'a [arbiter_regulation::EntryField] {
    sec.entries
        .fields
        .as_deref()
        .unwrap_or(&reg.registration.fields)
}

/// The entry form of a synthetic entry; `social_security`: the regulation asks for the 社保号
/// (K5), which the synthetic player gives as his ID number (as many cities number it).
fn form(e: &SynthEntry, social_security: bool) -> EntryForm {
    EntryForm {
        section: e.section.clone(),
        name: e.name.clone(),
        sex: Some(e.sex),
        birth: Some(e.birth),
        id_number: Some(e.id_number.clone()),
        phone: Some(e.phone.clone()),
        unit: e.unit.clone(),
        association: e.association.clone(),
        team: e.team.clone(),
        evidence: e.evidence.clone(),
        flags: e.flags.clone(),
        rating: None,
        grade: None,
        late_reason: None,
        social_security: social_security.then(|| e.id_number.clone()),
    }
}

/// A rating between 1200 and 2399 read from an ID number's digits (FNV-1a), so a synthetic
/// field has ratings without drawing from the field's random numbers.
fn synthetic_rating(id_number: &str) -> u32 {
    let h = id_number.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    1200 + (h % 1200) as u32
}

/// The entries of one command, decided as `ctx`'s actor on `state`.
fn decided(
    state: &EventState,
    ctx: &Ctx,
    cmd: impl Into<Command>,
) -> Result<Vec<LogEntry>, DirectorError> {
    Ok(command::decide(state, ctx, &cmd.into())?.entries)
}

/// Commands decided one after the other as one actor at one time, each on the state the ones
/// before it leave (as a desk entering them one by one would): the entries of all their
/// decisions, which make one batch.
struct Fold {
    ctx: Ctx,
    /// The state the decisions so far leave.
    now: EventState,
    entries: Vec<LogEntry>,
}

impl Fold {
    fn new(state: &EventState, ctx: Ctx) -> Fold {
        Fold {
            ctx,
            now: state.clone(),
            entries: Vec::new(),
        }
    }

    /// Decide `cmd` on the state so far; its entries join the batch. A refusal of the
    /// command's operation leaves the fold as it was (one of the log's rules refusing an
    /// entry is an error of the simulation).
    fn run(&mut self, cmd: impl Into<Command>) -> Result<Outcome, DirectorError> {
        let d = command::decide_folding(&mut self.now, &self.ctx, &cmd.into())?;
        self.entries.extend(d.entries);
        Ok(d.outcome)
    }
}

/// Field sizes: one size for every section, and/or sizes by section id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sizes {
    pub all: Option<usize>,
    pub by_section: BTreeMap<String, usize>,
}

const ASSOCIATIONS: &[&str] = &[
    "姑苏区象棋协会",
    "吴中区象棋协会",
    "相城区象棋协会",
    "吴江区象棋协会",
    "虎丘区象棋协会",
    "工业园区象棋协会",
    "常熟市象棋协会",
    "张家港市象棋协会",
    "昆山市象棋协会",
    "太仓市象棋协会",
];
/// Tianshui's own clubs (T1: the local section draws only from these).
const TIANSHUI_CLUBS: &[&str] = &[
    "天水市象棋协会",
    "秦州区棋院",
    "麦积区象棋队",
    "甘谷县象棋协会",
    "武山县棋协",
    "清水县象棋队",
    "秦安县棋社",
    "张家川县象棋协会",
    "天水师范学院象棋社",
    "天水市工人文化宫棋社",
];
/// Clubs from elsewhere in Gansu (the Tianshui open attracts the province).
const GANSU_CLUBS: &[&str] = &[
    "兰州弈友棋社",
    "兰州市象棋协会",
    "定西象棋俱乐部",
    "平凉市棋院",
    "陇南象棋队",
    "庆阳市象棋协会",
    "白银市棋社",
    "张掖市象棋队",
    "酒泉象棋俱乐部",
    "武威市棋协",
    "嘉峪关棋社",
    "临夏州象棋协会",
];
/// Jiujiang (Jiangxi) units of retired workers and local chess clubs.
const JIUJIANG_UNITS: &[&str] = &[
    "九江市职工象棋协会",
    "浔阳区象棋协会",
    "濂溪区棋协",
    "柴桑区象棋队",
    "九江经开区棋社",
    "八里湖新区棋社",
    "共青城市象棋协会",
    "瑞昌市象棋协会",
    "庐山市棋协",
    "都昌县象棋协会",
    "湖口县棋社",
    "彭泽县象棋协会",
    "修水县象棋协会",
    "武宁县棋社",
    "永修县象棋队",
    "德安县棋协",
    "九江石化退休职工象棋队",
    "九江供电公司老年棋社",
    "九江市工人文化宫棋社",
    "九江学院象棋社",
];

/// Clubs / units of an event's city (Kunshan companies come from `synth`, Suzhou
/// associations from [`ASSOCIATIONS`]). `local`: only the host city's own (T1).
fn clubs(stem: &str, local: bool) -> Vec<String> {
    let list: Vec<&str> = match stem {
        s if s.starts_with("jiujiang") => JIUJIANG_UNITS.to_vec(),
        s if s.starts_with("tianshui") && local => TIANSHUI_CLUBS.to_vec(),
        s if s.starts_with("tianshui") => {
            TIANSHUI_CLUBS.iter().chain(GANSU_CLUBS).copied().collect()
        }
        s if s.starts_with("suzhou") || s.starts_with("kunshan") => ASSOCIATIONS.to_vec(),
        _ => TIANSHUI_CLUBS.iter().chain(GANSU_CLUBS).copied().collect(),
    };
    list.into_iter().map(str::to_string).collect()
}

/// Region (address) codes for ID numbers by regulation.
fn regions(stem: &str) -> Vec<String> {
    let r: &[&str] = match stem {
        s if s.starts_with("kunshan") => &["320583"],
        s if s.starts_with("suzhou") => &[
            "320505", "320506", "320507", "320508", "320509", "320581", "320582", "320583",
            "320585",
        ],
        s if s.starts_with("jiujiang") => &["360402", "360403", "360404", "360423", "360429"],
        s if s.starts_with("tianshui") => &[
            "620502", "620503", "620521", "620522", "620523", "620524", "620525", "620102",
        ],
        _ => &["110105", "310115", "440305"],
    };
    r.iter().map(|s| s.to_string()).collect()
}

/// The default number of valid entries of a section (follows the real events).
fn default_count(reg: &Regulation, sec: &Section, idx: usize) -> usize {
    if let Some(cap) = sec.entries.cap {
        return cap as usize;
    }
    if let Some(cap) = reg.registration.cap {
        // T7: the event fills up to its cap; the first section takes what the others leave.
        let others = 30 * reg.sections.len().saturating_sub(1);
        return if idx == 0 {
            (cap as usize).saturating_sub(others).max(2)
        } else {
            30
        };
    }
    if let Some(tm) = &sec.team_match {
        // A15: ten teams of a full line-up and one reserve.
        return 10 * team_size(tm);
    }
    if sec.format.kind == FormatKind::Knockout {
        // A plain knockout: an invitational field, a bracket of 16.
        return 16;
    }
    if let Some(max) = sec.lucky.iter().flat_map(|l| l.ranks.iter()).max() {
        return *max as usize + 4; // K13: the lucky ranks go down to 128
    }
    if sec.format.kind == FormatKind::Auto {
        // S4: some sections under 8 (round robin) and under 5 (double round robin).
        const SIZES: [usize; 6] = [12, 9, 40, 7, 4, 6];
        return SIZES[idx % SIZES.len()];
    }
    if sec.format.kind == FormatKind::SwissThenKnockout {
        return 24;
    }
    let _ = reg;
    60
}

/// The players a simulated team registers: its boards and one reserve, if it may have one.
fn team_size(tm: &arbiter_regulation::TeamMatch) -> usize {
    (tm.boards + tm.reserves.min(1)) as usize
}

/// The birth-date range a section admits (today's date is the event's start).
fn birth_range(reg: &Regulation, sec: &Section) -> (NaiveDate, NaiveDate) {
    let el = &sec.eligibility;
    let on = el.age_on.unwrap_or(reg.event.start);
    let mut from = NaiveDate::from_ymd_opt(on.year() - 70, 1, 1).unwrap_or(on);
    let mut to = NaiveDate::from_ymd_opt(on.year() - 18, 12, 31).unwrap_or(on);
    if let Some(f) = el.born_from {
        from = f;
        if to < from {
            to = NaiveDate::from_ymd_opt(from.year() + 30, 12, 31).unwrap_or(from);
        }
    }
    if let Some(t) = el.born_to {
        to = t;
        if from > to {
            from = NaiveDate::from_ymd_opt(to.year() - 30, 1, 1).unwrap_or(to);
        }
    }
    // Nobody is born after the entries (an ID number born after the day of the entry is
    // refused): a section open upwards ("2018年1月1日以后出生") gets players of five and over.
    let latest = NaiveDate::from_ymd_opt(reg.event.start.year() - 5, 12, 31).unwrap_or(on);
    if to > latest {
        to = latest.max(from);
    }
    if let Some(max) = el.max_age {
        // age_on(born, on) <= max  ⇔  born > on − (max+1) years
        let limit =
            NaiveDate::from_ymd_opt(on.year() - max as i32 - 1, on.month(), on.day().min(28))
                .unwrap_or(on)
                + Duration::days(2);
        from = from.max(limit);
        // A youth section ("14岁以下") with no lower limit: players from five up to the limit,
        // so that age categories inside it are filled.
        if from > to && el.born_to.is_none() && el.min_age.is_none() {
            to = latest.max(from);
        }
    }
    if let Some(min) = el.min_age {
        let limit = NaiveDate::from_ymd_opt(on.year() - min as i32, on.month(), on.day().min(28))
            .unwrap_or(on)
            - Duration::days(2);
        to = to.min(limit);
        if from >= to {
            from = NaiveDate::from_ymd_opt(to.year() - 20, 1, 1).unwrap_or(to);
        }
    }
    // Keep only dates that really pass (guards rounding at the edges).
    while from < to && el.max_age.is_some_and(|m| age_on(from, on) > m as i32) {
        from += Duration::days(1);
    }
    (from, to.max(from))
}

/// The synthetic field's plan from the regulation.
pub fn field_plan(reg: &Regulation, stem: &str, seed: u64, sizes: &Sizes) -> SynthPlan {
    let event_cap = reg.registration.cap.map(|c| c as usize);
    let mut so_far = 0usize;
    let paid_rule = reg.registration.unpaid_not_paired
        || reg
            .sections
            .iter()
            .any(|s| s.entries.unpaid_not_paired == Some(true));
    let sections = reg
        .sections
        .iter()
        .enumerate()
        .map(|(i, sec)| {
            let count = sizes
                .by_section
                .get(&sec.id)
                .copied()
                .or(sizes.all)
                .unwrap_or_else(|| default_count(reg, sec, i));
            let count = match event_cap {
                Some(c) => count.min(c.saturating_sub(so_far)),
                None => count,
            };
            so_far += count;
            // The section that fills the event's cap gets the entry after the cap.
            let cap = sec.entries.cap.map(|c| c as usize).or(event_cap
                .filter(|c| so_far >= *c && count > 0)
                .map(|_| count));
            let (born_from, born_to) = birth_range(reg, sec);
            let local = sec.eligibility.require_flags.iter().any(|f| f == "local");
            // Every field the regulation asks of an entry is filled: a section that requires
            // the unit (`fields`) gets a unit for every player.
            let unit_required =
                required_fields(reg, sec).contains(&arbiter_regulation::EntryField::Unit);
            let affiliation = match reg.registration.unit_kind {
                // A15: every unit sends one full team (its boards and a reserve).
                _ if sec.team_match.is_some() => {
                    let per = sec.team_match.as_ref().map_or(1, team_size);
                    Affiliation::Units {
                        units: count.div_ceil(per) + 1,
                        min: per,
                        max: per,
                        names: vec![],
                    }
                }
                UnitKind::WorkUnit => Affiliation::Units {
                    units: count.div_ceil(4).max(2),
                    min: 1,
                    max: 6,
                    names: vec![],
                },
                UnitKind::Association => {
                    Affiliation::Associations(ASSOCIATIONS.iter().map(|s| s.to_string()).collect())
                }
                UnitKind::Club | UnitKind::None if sec.teams.is_some() => {
                    let names = clubs(stem, local);
                    Affiliation::Units {
                        units: names.len(),
                        min: 1,
                        max: 6,
                        names,
                    }
                }
                _ if unit_required => Affiliation::Units {
                    units: count.div_ceil(4).max(2),
                    min: 1,
                    max: 6,
                    names: clubs(stem, local),
                },
                _ => Affiliation::Clubs(clubs(stem, local)),
            };
            // Teams bigger than a synthetic unit (min_players 7–8): units sized to the
            // regulation's teams, so that team standings and team prizes exist.
            let affiliation = match (affiliation, sec.entry_teams()) {
                (
                    Affiliation::Units {
                        units,
                        min: _,
                        max,
                        names,
                    },
                    Some(t),
                ) if t.min_players as usize > max => {
                    let lo = t.min_players as usize;
                    let hi = t.max_players.map_or(lo, |m| m as usize).max(lo);
                    Affiliation::Units {
                        units: units.min(count.div_ceil(lo)).max(1),
                        min: lo,
                        max: hi,
                        names,
                    }
                }
                (a, _) => a,
            };
            let mut evidence: Vec<String> = sec
                .eligibility
                .evidence
                .iter()
                .map(|e| e.name().to_string())
                .collect();
            for group in &sec.eligibility.evidence_any {
                if let Some(first) = group.first() {
                    evidence.push(first.name().to_string());
                }
            }
            // Ways to qualify (`any_of`): every entry qualifies by the first.
            let way = sec.eligibility.any_of.first();
            for e in way.iter().flat_map(|c| &c.evidence) {
                if !evidence.iter().any(|x| x == e.name()) {
                    evidence.push(e.name().to_string());
                }
            }
            let mut flags = sec.eligibility.require_flags.clone();
            for f in way.iter().flat_map(|c| &c.flags) {
                if !flags.contains(f) {
                    flags.push(f.clone());
                }
            }
            FieldSection {
                id: sec.id.clone(),
                count,
                // A section named 男子/女子 is generated with that sex even when the
                // regulation does not check it.
                sex: sec.eligibility.sex.or(if sec.name.contains("男子") {
                    Some(arbiter_types::Sex::Male)
                } else if sec.name.contains("女子") {
                    Some(arbiter_types::Sex::Female)
                } else {
                    None
                }),
                born_from,
                born_to,
                affiliation,
                teams: sec.entry_teams().map(|t| TeamPlan {
                    min_players: t.min_players as usize,
                    max_players: t
                        .max_players
                        .map_or(5, |m| m as usize)
                        .max(t.min_players as usize),
                    divisions: t.divisions.iter().map(|d| d.name.clone()).collect(),
                    multiple_per_unit: t.multiple_per_unit,
                }),
                max_per_unit: sec.entries.max_per_unit.map(|m| m as usize),
                cap,
                flags,
                evidence,
                unpaid: if paid_rule && fee_fen(reg).is_some() && count >= 10 {
                    2
                } else {
                    0
                },
                bad_entries: true,
                age_limited: sec.eligibility.born_from.is_some()
                    || sec.eligibility.max_age.is_some(),
                young_limited: sec.eligibility.born_to.is_some()
                    || sec.eligibility.min_age.is_some(),
                sex_enforced: sec.eligibility.sex.is_some(),
            }
        })
        .collect();
    SynthPlan {
        seed: derive_seed(seed, "field"),
        regions: regions(stem),
        sections,
        max_per_association: if reg.registration.unit_kind == UnitKind::Association {
            reg.registration.max_per_unit_overall
        } else {
            None
        },
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Create,
    Register,
    Teams,
    Fees,
    Play(usize),
    Close,
    Done,
}

/// The simulation of a whole event.
pub struct Simulator {
    reg: Regulation,
    source: String,
    file_name: String,
    seed: u64,
    pub field: SynthField,
    phase: Phase,
    rng: ChaCha8Rng,
    clock: NaiveDateTime,
    model: ResultModel,
    /// Whether the one correction of a signed result (A12) has been made.
    corrected: bool,
}

impl Simulator {
    pub fn new(
        reg: Regulation,
        source: &str,
        file_name: &str,
        seed: u64,
        sizes: &Sizes,
    ) -> Simulator {
        let stem = file_name
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(file_name)
            .trim_end_matches(".toml")
            .to_string();
        let field = generate(&field_plan(&reg, &stem, seed, sizes));
        // Entries come ten days before the first deadline (the team forms' where it is the
        // only one, 昆山 八(一)).
        let first_deadline = match (reg.registration.deadline, reg.registration.team_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let reg_day = first_deadline
            .map(|d| d.date() - Duration::days(10))
            .unwrap_or(reg.event.start - Duration::days(10));
        let clock = reg_day.and_time(NaiveTime::from_hms_opt(9, 0, 0).unwrap_or_default());
        Simulator {
            reg,
            source: source.to_string(),
            file_name: file_name.to_string(),
            seed,
            field,
            phase: Phase::Create,
            rng: ChaCha8Rng::seed_from_u64(derive_seed(seed, "results")),
            clock,
            model: ResultModel::default(),
            corrected: false,
        }
    }

    pub fn regulation(&self) -> &Regulation {
        &self.reg
    }

    /// What the regulation promises that the simulated field cannot produce (Chinese, then
    /// English): a section with team standings or team prizes where no unit sends a team of
    /// `min_players`, a team division no team enters. Empty when the field can produce all.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for sec in &self.reg.sections {
            let Some(t) = sec.teams.as_ref() else {
                continue;
            };
            let teams: Vec<&synth::SynthTeam> = self
                .field
                .teams
                .iter()
                .filter(|x| x.section == sec.id)
                .collect();
            let players = self
                .field
                .entries
                .iter()
                .filter(|e| e.section == sec.id)
                .count();
            if teams.is_empty() {
                let what = if t.prizes.is_empty() {
                    "团体成绩"
                } else {
                    "团体成绩和团体奖"
                };
                out.push(format!(
                    "「{}」: 模拟的 {players} 名选手中没有单位凑满一队 (至少 {} 人), {what}无法产生 \
                     (the simulated field of {players} forms no team of {}: no team standings or team prizes)",
                    sec.name, t.min_players, t.min_players
                ));
                continue;
            }
            for d in &t.divisions {
                if !teams
                    .iter()
                    .any(|x| x.division.as_deref() == Some(d.name.as_str()))
                {
                    out.push(format!(
                        "「{}」{}: 模拟的报名中没有队伍, 该组团体成绩和团体奖无法产生 \
                         (no simulated team enters division {}: no standings or prizes there)",
                        sec.name, d.name, d.name
                    ));
                }
            }
        }
        out
    }

    /// The same simulator with other result rates (e.g. more foul losses for a test).
    pub fn with_model(mut self, model: ResultModel) -> Self {
        self.model = model;
        self
    }

    /// Valid entries expected (for a progress bar) and the refusals the field contains.
    pub fn expected_refusals(&self) -> BTreeMap<BadKind, usize> {
        let mut m = BTreeMap::new();
        for e in &self.field.entries {
            if let Expect::Refuse(k) = e.expect {
                *m.entry(k).or_insert(0) += 1;
            }
        }
        m
    }

    /// Rough progress: sections finished out of all sections.
    pub fn progress(&self) -> (usize, usize) {
        let n = self.reg.sections.len();
        match self.phase {
            Phase::Play(i) => (i, n),
            Phase::Close | Phase::Done => (n, n),
            _ => (0, n),
        }
    }

    fn tick(&mut self, minutes: i64) -> String {
        self.clock += Duration::minutes(minutes);
        rfc3339(self.clock)
    }

    /// The synthetic teams as entry forms, with the ids of their accepted members (K3); a
    /// team none of whose members was accepted is not entered.
    fn team_forms(&self, state: &EventState) -> Vec<TeamForm> {
        // The registered player of each (section, name, team), built once.
        let mut by_form: BTreeMap<(&str, &str, &str), arbiter_core::PlayerId> = BTreeMap::new();
        for p in state.players.values() {
            if let Some(team) = p.team.as_deref() {
                by_form
                    .entry((p.section.as_str(), p.person.name.as_str(), team))
                    .or_insert(p.id);
            }
        }
        let entries = &self.field.entries;
        self.field
            .teams
            .iter()
            .filter_map(|t| {
                let members: Vec<_> = t
                    .members
                    .iter()
                    .filter_map(|&i| entries.get(i))
                    .filter_map(|e| {
                        by_form
                            .get(&(e.section.as_str(), e.name.as_str(), t.name.as_str()))
                            .copied()
                    })
                    .collect();
                (!members.is_empty()).then(|| TeamForm {
                    team: t.name.clone(),
                    unit: t.unit.clone(),
                    division: t.division.clone(),
                    members,
                    leader: Some(t.leader.clone()),
                    coach: Some(t.coach.clone()),
                })
            })
            .collect()
    }

    /// The entry forms of the field in the order the desk receives them, and the time the
    /// desk registers them (what `arbiter bench register` enters one by one).
    pub fn registration_forms(&self) -> (Vec<EntryForm>, NaiveDateTime) {
        (self.forms(), self.clock + Duration::minutes(60))
    }

    /// Registration order: valid entries, with the bad entries placed where they show their
    /// own reason (before the section fills; cross-unit team after its team; after the cap last).
    fn forms(&self) -> Vec<EntryForm> {
        let ss_event = self
            .reg
            .registration
            .fields
            .contains(&arbiter_regulation::EntryField::SocialSecurityNumber);
        let mut out = Vec::new();
        for sec in &self.reg.sections {
            let ss = ss_event
                || required_fields(&self.reg, sec)
                    .contains(&arbiter_regulation::EntryField::SocialSecurityNumber);
            // A section numbered by rating (A3) gets rated players, as its entry list would.
            let rated = sec.pairing.numbering == arbiter_types::Numbering::Rating;
            // Flags the section's categories rank by (本地, …) that its entries are not all
            // required or forbidden to carry: about a third of the players have each, so a
            // trial run fills every category table.
            let el = &sec.eligibility;
            let category_flags: Vec<&str> = sec
                .categories
                .iter()
                .filter_map(|c| c.flag.as_deref())
                .filter(|f| {
                    !el.require_flags
                        .iter()
                        .chain(&el.forbid_flags)
                        .any(|r| r == f)
                })
                .collect();
            // A section that asks for a grade (`min_grade`) or numbers by grade gets graded
            // players, each a grade the section admits, read from his ID number.
            let (lo, hi) = (
                el.grade_bounds.0.as_ref().map_or(0, |g| g.rank),
                el.grade_bounds
                    .1
                    .as_ref()
                    .map_or(self.reg.grades.scale.len(), |g| g.rank),
            );
            let graded = !self.reg.grades.is_empty()
                && hi > lo
                && (el.grade_bounds.0.is_some()
                    || sec.pairing.numbering == arbiter_types::Numbering::Grade);
            let awards_grades =
                !self.reg.grades.is_empty() && hi > lo && !sec.grade_awards.is_empty();
            let form = |e: &SynthEntry| {
                let mut f = form(e, ss);
                if rated {
                    f.rating = Some(synthetic_rating(&e.id_number));
                }
                let key = format!("{}/grade", e.id_number);
                // A section whose places earn grades (`grade_awards`) gets a third of its
                // players graded, so that some already hold what their place earns.
                if graded
                    || (awards_grades && synthetic_rating(&format!("{key}/held")).is_multiple_of(3))
                {
                    let rank = lo + (synthetic_rating(&key) as usize) % (hi - lo);
                    f.grade = self.reg.grades.scale.get(rank).map(|g| g.name.clone());
                }
                for flag in &category_flags {
                    let key = format!("{}/{flag}", e.id_number);
                    if synthetic_rating(&key).is_multiple_of(3)
                        && !f.flags.iter().any(|x| x == flag)
                    {
                        f.flags.push(flag.to_string());
                    }
                }
                f
            };
            let mine: Vec<_> = self
                .field
                .entries
                .iter()
                .filter(|e| e.section == sec.id)
                .collect();
            let valid: Vec<_> = mine.iter().filter(|e| e.expect == Expect::Accept).collect();
            let bad = |k: BadKind| mine.iter().filter(move |e| e.expect == Expect::Refuse(k));
            let cut = valid.len().saturating_sub(3);
            out.extend(valid[..cut].iter().map(|e| form(e)));
            for k in [
                BadKind::TooOld,
                BadKind::WrongSex,
                BadKind::UnitOverLimit,
                BadKind::CrossUnitTeam,
            ] {
                out.extend(bad(k).map(|e| form(e)));
            }
            out.extend(valid[cut..].iter().map(|e| form(e)));
            out.extend(bad(BadKind::AfterCap).map(|e| form(e)));
        }
        out
    }

    /// Run the whole event without a store: every batch is folded as it comes (so every
    /// entry is validated); returns the log and the final state.
    pub fn run_in_memory(&mut self) -> Result<(Vec<Recorded>, EventState), DirectorError> {
        let mut log = MemoryLog::default();
        let infallible = |e: std::convert::Infallible| -> DirectorError { match e {} };
        while self.step(&mut log).map_err(infallible)??.is_some() {}
        Ok((log.log, log.state))
    }

    /// The simulator's one write path: the next batch, decided on the log's current state
    /// and appended with the expected sequence number. `None` when the event is over. The
    /// simulator is the log's only writer: a lost race or an entry the log refuses is an
    /// error of the simulation.
    pub fn step<L: EventLog>(
        &mut self,
        log: &mut L,
    ) -> Result<Result<Option<Batch>, DirectorError>, L::Error> {
        loop {
            let (next, expected) = log.with_current(|st| (self.next_batch(st), st.last_seq))?;
            let batch = match next {
                Ok(Some(b)) => b,
                Ok(None) => return Ok(Ok(None)),
                Err(e) => return Ok(Err(e)),
            };
            if batch.entries.is_empty() {
                continue;
            }
            return append_batch(log, expected, batch);
        }
    }

    /// The next batch of entries, or `None` when the event is over.
    pub fn next_batch(&mut self, state: &EventState) -> Result<Option<Batch>, DirectorError> {
        loop {
            match self.phase {
                Phase::Create => {
                    self.phase = Phase::Register;
                    let at = self.tick(0);
                    let entries = decided(
                        state,
                        &self.ctx("裁判长"),
                        EventCommand::Create {
                            source: self.source.clone(),
                            file_name: self.file_name.clone(),
                            seed: Some(self.seed),
                            settings: None,
                        },
                    )?;
                    return Ok(Some(Batch {
                        at,
                        actor: "裁判长".into(),
                        entries,
                    }));
                }
                Phase::Register => {
                    self.phase = Phase::Teams;
                    let at = self.tick(60);
                    let entries = decided(
                        state,
                        &Ctx::new("报名处", Role::ChiefArbiter, self.clock),
                        RegistrationCommand::RegisterEach {
                            forms: self.forms(),
                        },
                    )?;
                    return Ok(Some(Batch {
                        at,
                        actor: "报名处".into(),
                        entries,
                    }));
                }
                Phase::Teams => {
                    self.phase = Phase::Fees;
                    // The desk enters the teams (recorded 30 minutes on, when there are any).
                    let ctx = Ctx::new(
                        "报名处",
                        Role::ChiefArbiter,
                        self.clock + Duration::minutes(30),
                    );
                    let mut fold = Fold::new(state, ctx);
                    for form in self.team_forms(state) {
                        fold.run(RegistrationCommand::EnterTeam { form })?;
                    }
                    let entries = fold.entries;
                    if !entries.is_empty() {
                        let at = self.tick(30);
                        return Ok(Some(Batch {
                            at,
                            actor: "报名处".into(),
                            entries,
                        }));
                    }
                }
                Phase::Fees => {
                    self.phase = Phase::Play(0);
                    // Check-in day: everyone pays except the field's unpaid players (T7).
                    self.clock = self
                        .reg
                        .event
                        .start
                        .pred_opt()
                        .unwrap_or(self.reg.event.start)
                        .and_time(NaiveTime::from_hms_opt(14, 0, 0).unwrap_or_default());
                    let unpaid: Vec<(&str, &str)> = self
                        .field
                        .entries
                        .iter()
                        .filter(|e| !e.pays)
                        .map(|e| (e.section.as_str(), e.name.as_str()))
                        .collect();
                    let payers: Vec<_> = state
                        .players
                        .values()
                        .filter(|p| !unpaid.contains(&(p.section.as_str(), p.person.name.as_str())))
                        .map(|p| p.id)
                        .collect();
                    // Each payer pays his section's fee (receipt numbered by player) and is
                    // checked in (T7), through the registration desk's operations.
                    let mut fold = Fold::new(state, self.ctx("检录处"));
                    let reg = &self.reg;
                    // He signs the regulation's pledge, if it asks for one (T7).
                    let pledge = api::entries::pledge_required(state).is_some();
                    let charges = !reg.registration.charges.is_empty();
                    for &p in &payers {
                        let pays = state
                            .player(p)
                            .is_some_and(|r| fee_due(reg, &r.section).is_some());
                        if charges {
                            // Every item he owes (fees and deposits), one payment each.
                            let owed: Vec<String> = state
                                .player(p)
                                .map(|r| {
                                    state
                                        .dues(r)
                                        .into_iter()
                                        .filter(|d| d.fen > 0)
                                        .map(|d| d.name)
                                        .collect()
                                })
                                .unwrap_or_default();
                            for item in owed {
                                fold.run(MoneyCommand::Pay {
                                    player: p,
                                    item: Some(item),
                                    amount_fen: None,
                                    receipt: Some(format!("R{:05}", p.0)),
                                })?;
                            }
                        } else if pays {
                            // The event's one fee (no money items).
                            fold.run(MoneyCommand::Pay {
                                player: p,
                                item: None,
                                amount_fen: None,
                                receipt: Some(format!("R{:05}", p.0)),
                            })?;
                        }
                        fold.run(RegistrationCommand::CheckIn {
                            player: p,
                            pledge: Some(pledge),
                        })?;
                    }
                    let entries = fold.entries;
                    if !entries.is_empty() {
                        let at = self.tick(0);
                        return Ok(Some(Batch {
                            at,
                            actor: "检录处".into(),
                            entries,
                        }));
                    }
                }
                Phase::Play(i) => {
                    let Some(sec) = self.reg.sections.get(i).cloned() else {
                        self.phase = Phase::Close;
                        continue;
                    };
                    if i == 0 && self.clock.date() < self.reg.event.start {
                        self.clock = self
                            .reg
                            .event
                            .start
                            .and_time(NaiveTime::from_hms_opt(8, 0, 0).unwrap_or_default());
                    }
                    let step = match side_by_side(&self.reg, &sec, state)? {
                        Some(ko) => ko,
                        None => next_step(&self.reg, state, &sec.id)?,
                    };
                    let entries = self.play(&sec, state, step)?;
                    match entries {
                        Some(entries) => {
                            let at = self.tick(5);
                            return Ok(Some(Batch {
                                at,
                                actor: "裁判长".into(),
                                entries,
                            }));
                        }
                        None => {
                            self.phase = Phase::Play(i + 1);
                            // The section's last round is played: deposits back (the organiser
                            // marks the conditions of those who played on).
                            if let Some(b) = self.refunds(state, Some(&sec.id))? {
                                return Ok(Some(b));
                            }
                        }
                    }
                }
                Phase::Close => {
                    // Deposits refunded at the closing, before the event is closed.
                    if let Some(b) = self.refunds(state, None)? {
                        return Ok(Some(b));
                    }
                    // The chief arbiter closes the event: standings and prizes fixed.
                    self.phase = Phase::Done;
                    self.clock += Duration::minutes(30);
                    let ctx = self.ctx("裁判长");
                    let entries = decided(state, &ctx, EventCommand::Close)?;
                    return Ok(Some(Batch {
                        at: ctx.at_rfc3339(),
                        actor: "裁判长".into(),
                        entries,
                    }));
                }
                Phase::Done => return Ok(None),
            }
        }
    }

    /// The deposits due back once `section` has played its last round (`None`: at the
    /// closing): the organiser marks every refund condition of each player of it who has not
    /// withdrawn and holds a deposit, then the deposits of the rule are refunded. `None` when
    /// the regulation has no deposit or nothing is due back.
    fn refunds(
        &mut self,
        state: &EventState,
        section: Option<&str>,
    ) -> Result<Option<Batch>, DirectorError> {
        use arbiter_regulation::{ChargeKind, RefundAt};
        let rules: Vec<RefundAt> = match section {
            Some(_) => vec![RefundAt::LastRound, RefundAt::OnConditions],
            None => vec![RefundAt::Closing],
        };
        let deposits = self.reg.registration.charges.iter().any(|c| {
            c.kind == ChargeKind::Deposit && c.refund_at.is_some_and(|r| rules.contains(&r))
        });
        if !deposits {
            return Ok(None);
        }
        let conditions = self.reg.refund_conditions();
        let marked: Vec<(PlayerId, String)> = state
            .players
            .values()
            .filter(|p| section.is_none_or(|s| p.section == s))
            .filter(|p| p.withdrawn.is_none())
            .filter(|p| p.money.values().any(|m| m.held_fen() > 0))
            .flat_map(|p| {
                conditions
                    .iter()
                    .filter(|c| !p.conditions.contains(*c))
                    .map(move |c| (p.id, c.clone()))
            })
            .collect();
        self.clock += Duration::minutes(10);
        let mut fold = Fold::new(state, self.ctx("组委会"));
        for (player, condition) in marked {
            fold.run(MoneyCommand::MarkCondition {
                player,
                condition,
                met: true,
            })?;
        }
        for rule in rules {
            // Nobody due back under a rule is no error for the simulated organiser.
            match fold.run(MoneyCommand::RefundDue { rule }) {
                Err(DirectorError::Refused(r))
                    if matches!(
                        *r,
                        arbiter_director::Refusal::NobodyToRefund { .. }
                            | arbiter_director::Refusal::RefundNotYet { .. }
                    ) => {}
                other => {
                    other?;
                }
            }
        }
        let Fold { ctx, entries, .. } = fold;
        if entries.is_empty() {
            return Ok(None);
        }
        Ok(Some(Batch {
            at: ctx.at_rfc3339(),
            actor: "组委会".into(),
            entries,
        }))
    }

    /// The simulated arbiter's context: who acts, at the simulated time.
    fn ctx(&self, actor: &str) -> Ctx {
        Ctx::new(actor, Role::ChiefArbiter, self.clock)
    }

    /// The simulated results of a round entered board by board (the last one closes the
    /// round), the slips signed when the regulation asks for signatures (S11, J6), and once
    /// per event a chief arbiter's correction of a signed slip (A12): commands on `fold`.
    fn enter_round(
        &mut self,
        fold: &mut Fold,
        section: &str,
        round: u32,
        simulated: Vec<ResultInput>,
    ) -> Result<(), DirectorError> {
        let mut correctable = None;
        for input in simulated {
            if correctable.is_none()
                && input.result == arbiter_types::GameResult::RedWin
                && input.ending == Some(arbiter_core::Ending::Resignation)
            {
                correctable = Some(input.board);
            }
            fold.run(GameCommand::EnterResult {
                section: section.to_string(),
                input,
            })?;
        }
        if self.reg.event.result_signing.is_none() {
            return Ok(());
        }
        fold.run(GameCommand::Confirm {
            section: section.to_string(),
            round: Some(round),
        })?;
        if let (Some(board), false, 2) = (correctable, self.corrected, round) {
            self.corrected = true;
            fold.run(GameCommand::CorrectResult {
                section: section.to_string(),
                round,
                board,
                result: arbiter_types::GameResult::Draw,
                reason: "成绩单误填为红胜，经双方与裁判员核实为和棋 (the slip said red won; both players and the arbiter confirm a draw)".into(),
                // 九江 补充五: a signed result is final — this correction says it overrides it.
                override_signed: self.reg.event.signed_results_final,
            })?;
        }
        Ok(())
    }

    /// What the simulated arbiter adds once a round is complete: now and then a team foul
    /// (K12) and, after round 3 of a big Swiss, a withdrawal (伤病), as commands.
    /// `state` is the state before the round's results, `now` the state after them; players
    /// already withdrawn in `now` are left alone.
    fn after_round(
        &mut self,
        sec: &Section,
        state: &EventState,
        now: &EventState,
        round: u32,
    ) -> Vec<Command> {
        let id = sec.id.as_str();
        let mut cmds: Vec<Command> = Vec::new();
        // K12: a leader or coach earns the team a foul (once in a while).
        if sec.discipline.team_fouls && self.rng.gen_bool(0.1) {
            let teams: Vec<&String> = state
                .teams
                .values()
                .filter(|t| {
                    t.members
                        .iter()
                        .any(|m| state.player(*m).is_some_and(|p| p.section == id))
                })
                .map(|t| &t.team)
                .collect();
            if let Some(t) = teams.choose(&mut self.rng) {
                cmds.push(
                    GameCommand::TeamFoul {
                        section: id.to_string(),
                        team: (*t).clone(),
                        round: Some(round),
                        kind: arbiter_core::FoulKind::Coaching,
                        reason: "领队在比赛区域内指导队员 (the team leader coached during play)"
                            .into(),
                    }
                    .into(),
                );
            }
        }
        // Now and then a player withdraws (伤病) after round 3 of a big Swiss.
        let plan = section_plan(sec, state);
        if round == 3 && matches!(plan, SectionPlan::Swiss { .. }) && self.rng.gen_bool(0.5) {
            let active: Vec<_> = state
                .players(id)
                .into_iter()
                .filter(|p| state.status(p.id) == Some(PlayerStatus::Active))
                .filter(|p| {
                    state
                        .section(id)
                        .is_some_and(|s| s.pairing_no(p.id).is_some())
                })
                .map(|p| p.id)
                .collect();
            if active.len() >= 16 {
                if let Some(&p) = active.choose(&mut self.rng) {
                    if now.status(p) == Some(PlayerStatus::Active) {
                        cmds.push(
                            RegistrationCommand::Withdraw {
                                player: p,
                                reason: "伤病退赛 (withdrew: illness)".into(),
                            }
                            .into(),
                        );
                    }
                }
            }
        }
        cmds
    }

    /// The line-ups handed in before a team round (A15): now and then a team plays its
    /// reserve instead of a starter (the players below move down), and once in a while a
    /// team comes one player short (its last board is lost by forfeit).
    fn lineups(
        &mut self,
        tm: &arbiter_regulation::TeamMatch,
        section: &str,
        state: &EventState,
    ) -> Vec<Command> {
        let Some(rec) = state.section(section) else {
            return Vec::new();
        };
        let round = rec.last_round();
        let Some(tr) = rec.matches.get(&round) else {
            return Vec::new();
        };
        let mut cmds = Vec::new();
        for m in &tr.matches {
            for team in [&m.first, &m.second] {
                let Some(t) = state.teams.get(team) else {
                    continue;
                };
                let playing: Vec<_> = t
                    .members
                    .iter()
                    .copied()
                    .filter(|p| !state.status(*p).is_some_and(|s| s.is_out()))
                    .collect();
                let boards = tm.boards as usize;
                let mut named: Vec<_> = playing.iter().copied().take(boards).collect();
                let roll: f64 = self.rng.gen();
                if roll < 0.2 && playing.len() > boards && !named.is_empty() {
                    // The reserve plays instead of one of the starters.
                    let out = self.rng.gen_range(0..named.len());
                    named.remove(out);
                    named.push(playing[boards]);
                } else if roll < 0.23 && named.len() > 1 {
                    named.pop();
                } else {
                    continue;
                }
                let given: Vec<_> = named.iter().copied().map(Some).collect();
                if arbiter_director::team_match::seat_lineup(state, tm, t, &given).is_err() {
                    // A captain hands in a line-up the regulation's board rules admit.
                    continue;
                }
                cmds.push(
                    RoundCommand::Lineup {
                        section: section.to_string(),
                        round,
                        team: team.clone(),
                        players: named.into_iter().map(Some).collect(),
                        by: format!("{team}领队"),
                    }
                    .into(),
                );
            }
        }
        cmds
    }

    fn play(
        &mut self,
        sec: &Section,
        state: &EventState,
        step: Step,
    ) -> Result<Option<Vec<LogEntry>>, DirectorError> {
        let id = sec.id.as_str();
        let section = || id.to_string();
        Ok(Some(match step {
            Step::Done => return Ok(None),
            Step::DrawNumbers => decided(
                state,
                &self.ctx("裁判长"),
                RegistrationCommand::Draw { section: section() },
            )?,
            Step::Pair { .. } => {
                // The arbiter pairs the round and publishes it.
                self.clock += Duration::minutes(100);
                let mut fold = Fold::new(state, self.ctx("裁判长"));
                fold.run(RoundCommand::Pair {
                    section: section(),
                    request: PairRequest::default(),
                })?;
                if let Some(tm) = &sec.team_match {
                    for cmd in self.lineups(tm, id, &fold.now) {
                        fold.run(cmd)?;
                    }
                }
                fold.run(RoundCommand::Publish { section: section() })?;
                fold.entries
            }
            Step::Results { round, boards } => {
                let rr = matches!(section_plan(sec, state), SectionPlan::RoundRobin { .. });
                let simulated =
                    simulate_round(sec, state, round, &boards, rr, &self.model, &mut self.rng);
                let mut fold = Fold::new(state, self.ctx("裁判长"));
                self.enter_round(&mut fold, id, round, simulated)?;
                if fold
                    .now
                    .section(id)
                    .and_then(|s| s.round(round))
                    .is_some_and(|r| r.completed)
                {
                    for cmd in self.after_round(sec, state, &fold.now, round) {
                        fold.run(cmd)?;
                    }
                }
                fold.entries
            }
            Step::CompleteRound { round } => {
                // Only an older log stops here: every result is in, the round is not closed.
                let mut fold = Fold::new(state, self.ctx("裁判长"));
                fold.run(RoundCommand::Complete { section: section() })?;
                for cmd in self.after_round(sec, state, &fold.now, round) {
                    fold.run(cmd)?;
                }
                fold.entries
            }
            // The forfeit rule's withdrawals still due after a closed round (A5).
            Step::Withdraw(_) => decided(
                state,
                &self.ctx("裁判长"),
                RoundCommand::Complete { section: section() },
            )?,
            Step::Knockout { matches } => {
                // The games and their boards are read before any is entered, and the bracket
                // let go: each game entered carries the kept bracket one game on, which a
                // bracket still held here would make a copy of.
                let games = {
                    let b = knockout_stage::bracket(&self.reg, state, id)?;
                    knockout_stage::next_games(&b, &matches, id)?
                        .into_iter()
                        .map(|(mid, g)| {
                            let board = api::rounds::knockout_board(&b, &mid);
                            (mid, g, board)
                        })
                        .collect::<Vec<_>>()
                };
                let mut fold = Fold::new(state, self.ctx("裁判长"));
                for (mid, g, board) in games {
                    let rec = state
                        .section(id)
                        .ok_or_else(|| DirectorError::UnknownSection(id.to_string()))?;
                    let (Some(&red), Some(&black)) =
                        (rec.order.get(g.red.index()), rec.order.get(g.black.index()))
                    else {
                        continue;
                    };
                    // The chooser (K7) takes black now and then; the colours follow the choice.
                    let chooser_black = g.chooser.is_some() && self.rng.gen_bool(0.3);
                    let (red, black) = if chooser_black {
                        (black, red)
                    } else {
                        (red, black)
                    };
                    let result = simulate_knockout_game(state, g.kind, red, black, &mut self.rng);
                    let board = board.ok_or_else(|| DirectorError::Knockout {
                        section: id.to_string(),
                        cause: arbiter_director::KnockoutFailure::NotInBracket(mid.clone()),
                    })?;
                    fold.run(GameCommand::EnterResult {
                        section: section(),
                        input: ResultInput {
                            chooser_takes_black: chooser_black,
                            expect_game: Some((mid.clone(), g.index as u32)),
                            ..ResultInput::new(board, result)
                        },
                    })?;
                }
                fold.entries
            }
        }))
    }
}

/// The knockout games the hall plays beside an open round of the continuing Swiss (T2,
/// A9): while Swiss round 8+j is being played, the knockout's matches of bracket round j
/// and earlier that are ready. The simulated arbiter enters them before the Swiss round's
/// results, as the two are played at the same time; `None` when no Swiss round is open.
fn side_by_side(
    reg: &Regulation,
    sec: &Section,
    state: &EventState,
) -> Result<Option<Step>, DirectorError> {
    let SectionPlan::TwoStage { swiss_rounds, .. } = section_plan(sec, state) else {
        return Ok(None);
    };
    let Some(rec) = state.section(&sec.id) else {
        return Ok(None);
    };
    let paired = rec.last_round().saturating_sub(swiss_rounds) as usize;
    if rec.last_round() <= rec.completed_rounds() || paired == 0 {
        return Ok(None);
    }
    let due = knockout_due(reg, state, &sec.id)?;
    if due.is_empty() {
        return Ok(None);
    }
    let b = knockout_stage::bracket(reg, state, &sec.id)?;
    let now: Vec<String> = due
        .into_iter()
        .filter(|m| b.get(m).is_some_and(|x| x.round <= paired))
        .collect();
    Ok((!now.is_empty()).then_some(Step::Knockout { matches: now }))
}
