//! Registration (报名): creating the event from its regulation, checking each entry against
//! its section (eligibility → accepted or refused with the regulation's reason), team
//! entries, fees and check-in (T7), and drawing pairing numbers (A3).

use crate::{apply_scratch, derive_seed, DirectorError};
use arbiter_core::{
    validate_at, DivisionInfo, EntryLimits, EventCreated, EventState, LogEntry, PlayerId,
    PlayerRegistered, PlayerStatus, RefusedFacts, SectionInfo,
};
use arbiter_regulation::{EntryFacts, Evidence, Regulation, UnitKind};
use arbiter_types::{IdNumber, Numbering, Person, Phone, Sex};
use chrono::{NaiveDate, NaiveDateTime};
use std::collections::BTreeSet;

/// An entry form as the arbiter receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryForm {
    pub section: String,
    pub name: String,
    pub sex: Option<Sex>,
    pub birth: Option<NaiveDate>,
    pub id_number: Option<String>,
    pub phone: Option<String>,
    /// 社保号 (K5).
    pub social_security: Option<String>,
    pub unit: Option<String>,
    pub association: Option<String>,
    pub team: Option<String>,
    /// Evidence kinds by regulation name (`social_security`, `id_card`, …).
    pub evidence: Vec<String>,
    pub flags: Vec<String>,
    /// 等级分, if known.
    pub rating: Option<u32>,
    /// 段位/称号 as written (「业余五段」, 「国家级运动健将」): read on the regulation's
    /// `[grades]` scale and recorded by the scale's name.
    pub grade: Option<String>,
    /// The chief arbiter admits the entry after the deadline, for this reason (补报).
    pub late_reason: Option<String>,
}

/// A text field as typed: trimmed, and empty (or only blanks) means not given — an entry
/// with `--unit ""` has no unit, so it is nobody's team-mate and no sheet prints "()".
pub fn given(v: Option<&str>) -> Option<String> {
    v.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

impl EntryForm {
    /// The form of a person whose particulars are already read (a roster row, an online
    /// submission), in `section`, with nothing else filled: its team, documents, flags,
    /// rating, grade and late reason are the caller's to set.
    pub fn of_person(section: String, p: &Person) -> EntryForm {
        EntryForm {
            section,
            name: p.name.trim().to_string(),
            sex: p.sex,
            birth: p.birth_date,
            id_number: p.id_number.as_ref().map(|i| i.as_str().to_string()),
            phone: p.phone.as_ref().map(|x| x.as_str().to_string()),
            social_security: p.social_security.as_ref().map(|x| x.as_str().to_string()),
            unit: p.unit.clone(),
            association: p.association.clone(),
            team: None,
            evidence: Vec::new(),
            flags: Vec::new(),
            rating: None,
            grade: None,
            late_reason: None,
        }
    }

    /// The form with its unit, association and team trimmed, blank ones not given
    /// ([`given`]), and its name trimmed.
    pub fn normalized(&self) -> EntryForm {
        EntryForm {
            name: self.name.trim().to_string(),
            id_number: given(self.id_number.as_deref()),
            phone: given(self.phone.as_deref()),
            social_security: given(self.social_security.as_deref()),
            unit: given(self.unit.as_deref()),
            association: given(self.association.as_deref()),
            team: given(self.team.as_deref()),
            grade: given(self.grade.as_deref()),
            ..self.clone()
        }
    }
}

/// The first field the regulation's `[registration] fields` asks for (K5, T7: 报名时需提供姓名、
/// 身份证号、手机号) that the form does not give, blank counting as not given. Sex and birth
/// date are given by an ID number too; the section is always given.
pub fn missing_field(reg: &Regulation, form: &EntryForm) -> Option<crate::refusal::Required> {
    use arbiter_regulation::EntryField as F;
    let has = |v: &Option<String>| given(v.as_deref()).is_some();
    let id = has(&form.id_number);
    // A section's own list (`[sections.entries] fields`) replaces the event's.
    let fields = reg
        .sections
        .iter()
        .find(|s| s.id == form.section || s.name == form.section)
        .and_then(|s| s.entries.fields.as_ref())
        .unwrap_or(&reg.registration.fields);
    fields.iter().copied().find_map(|f| {
        let ok = match f {
            F::Name => !form.name.trim().is_empty(),
            F::Section => true,
            F::Unit => has(&form.unit) || has(&form.association),
            F::IdNumber => id,
            F::SocialSecurityNumber => has(&form.social_security),
            F::Phone => has(&form.phone),
            F::Sex => form.sex.is_some() || id,
            F::BirthDate => form.birth.is_some() || id,
        };
        if ok {
            None
        } else {
            crate::refusal::Required::of_field(f)
        }
    })
}

/// The facts of a form that cannot be (D of issue 27): a birth date after the day of the
/// entry — the ID number's, or the one typed —, and a typed sex or birth date that
/// contradicts the ID number (which gives both). `on` is the day of the entry.
pub fn person_mistake(
    id: Option<&IdNumber>,
    sex: Option<Sex>,
    birth: Option<NaiveDate>,
    on: NaiveDate,
) -> Result<(), Box<crate::Refusal>> {
    use crate::Refusal;
    if let Some(i) = id {
        let b = i.birth_date();
        if b > on {
            return Err(Box::new(Refusal::BirthInFuture {
                birth: b,
                on,
                from_id: true,
            }));
        }
        if sex.is_some_and(|s| s != i.sex()) {
            return Err(Box::new(Refusal::SexContradictsId { id_sex: i.sex() }));
        }
        if birth.is_some_and(|x| x != b) {
            return Err(Box::new(Refusal::BirthContradictsId { id_birth: b }));
        }
    }
    if let Some(b) = birth.filter(|b| *b > on) {
        return Err(Box::new(Refusal::BirthInFuture {
            birth: b,
            on,
            from_id: false,
        }));
    }
    Ok(())
}

/// Time as RFC 3339 in China Standard Time (the events' local time).
pub fn rfc3339(t: NaiveDateTime) -> String {
    format!("{}+08:00", t.format("%Y-%m-%dT%H:%M:%S"))
}

/// The event's fee in fen, if the regulation charges one.
pub fn fee_fen(reg: &Regulation) -> Option<u64> {
    reg.registration.fee.map(|f| f.total_fen()).or_else(|| {
        reg.sections
            .iter()
            .find_map(|s| s.entries.fee.map(|f| f.total_fen()))
    })
}

/// `event_created`: the regulation text is copied into the log, so replay never depends on
/// the file.
pub fn event_created(reg: &Regulation, source: &str, file_name: &str, seed: u64) -> LogEntry {
    LogEntry::EventCreated(EventCreated {
        name: reg.event.name.clone(),
        regulation: source.to_string(),
        file_name: file_name.to_string(),
        seed,
        sections: reg
            .sections
            .iter()
            .map(|s| SectionInfo {
                id: s.id.clone(),
                name: s.name.clone(),
                divisions: s
                    .teams
                    .iter()
                    .flat_map(|t| &t.divisions)
                    .map(|d| DivisionInfo {
                        id: d.id.clone(),
                        name: d.name.clone(),
                    })
                    .collect(),
            })
            .collect(),
        limits: EntryLimits {
            // T7: the whole event's cap (`[registration] cap`).
            max_entries: reg.registration.cap,
            max_per_association: if reg.registration.unit_kind == UnitKind::Association {
                reg.registration.max_per_unit_overall
            } else {
                None
            },
            deadline: reg.registration.deadline.map(rfc3339),
            fee_fen: if reg.registration.unpaid_not_paired
                || reg
                    .sections
                    .iter()
                    .any(|s| s.entries.unpaid_not_paired == Some(true))
            {
                fee_fen(reg)
            } else {
                None
            },
            // The money items decide who is unpaid (`charges`, with `unpaid_not_paired`).
            charges_due: !reg.registration.charges.is_empty()
                && (reg.registration.unpaid_not_paired
                    || reg
                        .sections
                        .iter()
                        .any(|s| s.entries.unpaid_not_paired == Some(true))),
        },
    })
}

fn refused(form: &EntryForm, reason: String, checkable: bool) -> LogEntry {
    LogEntry::EntryRefused {
        name: form.name.clone(),
        section: form.section.clone(),
        reason,
        id_number: form
            .id_number
            .as_deref()
            .and_then(|s| IdNumber::parse(s).ok()),
        unit: form.unit.clone().or_else(|| form.association.clone()),
        facts: checkable.then(|| RefusedFacts {
            sex: form.sex,
            birth_date: form.birth,
            unit: form.unit.clone(),
            association: form.association.clone(),
            team: form.team.clone(),
            evidence: form.evidence.clone(),
            flags: form.flags.clone(),
            grade: form.grade.clone(),
        }),
    }
}

/// What the regulation's eligibility rules look at in one entry (birth date and sex as
/// recorded, i.e. already taken from the ID number).
#[derive(Debug, Clone, Copy)]
pub struct Applicant<'a> {
    pub section: &'a str,
    pub sex: Option<Sex>,
    pub birth: Option<NaiveDate>,
    pub unit: Option<&'a str>,
    pub association: Option<&'a str>,
    /// Evidence kinds by regulation name or Chinese name.
    pub evidence: &'a [String],
    pub flags: &'a [String],
    /// 段位/称号 by the scale's name ([`grade_name`]).
    pub grade: Option<&'a str>,
    /// Admitted after the deadline by the chief arbiter: the deadline is not checked.
    pub late: bool,
}

/// The unit an entry counts for: the association first in an association event (S3), the
/// work unit / club first otherwise.
fn counted_unit(reg: &Regulation, unit: Option<&str>, association: Option<&str>) -> Option<String> {
    match reg.registration.unit_kind {
        UnitKind::Association => association.or(unit),
        _ => unit.or(association),
    }
    .map(str::to_string)
}

/// The association a player counts for in the association standings (S9, 七 团体名次) and
/// the association's entry cap (S3): in a regulation whose units are associations
/// (`unit_kind = "association"`) the 单位 given is the 协会 — the association when one is
/// recorded, else the unit (an entry form or roster with one 「单位」 cell, an older log);
/// otherwise the association alone. `None`: the player counts for no association (the desk
/// warns of him, [`unassociated`]).
pub fn association_of(reg: &Regulation, p: &arbiter_core::PlayerRecord) -> Option<String> {
    let a = given(p.person.association.as_deref());
    match reg.registration.unit_kind {
        UnitKind::Association => a.or_else(|| given(p.person.unit.as_deref())),
        _ => a,
    }
}

/// S9: the players of the sections the association standings count who count for no
/// association ([`association_of`]), active ones only, in list order — the desk and `teams`
/// name them instead of leaving them out silently. Empty without `[associations]`.
pub fn unassociated<'a>(
    reg: &Regulation,
    state: &'a EventState,
) -> Vec<&'a arbiter_core::PlayerRecord> {
    let Some(a) = &reg.associations else {
        return Vec::new();
    };
    a.sections
        .iter()
        .flat_map(|s| state.players(s))
        .filter(|p| p.withdrawn.is_none() && association_of(reg, p).is_none())
        .collect()
}

/// The desk's warning of [`unassociated`] players: 「2人未填协会，不计入团体成绩: 张三 (P3), …」
/// (the first ten named), or `None`.
pub fn unassociated_warning(reg: &Regulation, state: &EventState) -> Option<String> {
    const NAMED: usize = 10;
    let ps = unassociated(reg, state);
    if ps.is_empty() {
        return None;
    }
    let mut names: Vec<String> = ps
        .iter()
        .take(NAMED)
        .map(|p| format!("{} ({})", p.person.name, p.id))
        .collect();
    if ps.len() > NAMED {
        names.push("…".into());
    }
    Some(format!(
        "{}人未填协会，不计入团体成绩: {} (no association recorded: not counted in the association standings; fill it in on the entry's edit form)",
        ps.len(),
        names.join(", ")
    ))
}

/// K5 (昆山 八(一)): 「于2026年9月15日前将…报名表发送至邮箱…逾期不再受理」 — a team form, and a
/// player entered into a team, after `[registration] team_deadline` is refused; an
/// individual entry is not (八(二) names no deadline). `late`: the chief arbiter admits the
/// entry after the deadline (补报).
pub fn check_team_deadline(
    reg: &Regulation,
    team: Option<&str>,
    at: NaiveDateTime,
    late: bool,
) -> Result<(), Ineligible> {
    match reg.registration.team_deadline {
        Some(d) if team.is_some() && !late && at > d => {
            Err(Ineligible::Rule(arbiter_regulation::Refusal {
                code: "team_late",
                zh: format!(
                    "团体报名表截止于 {}，逾期不再受理；个人报名不受此限 (team entries closed at the team deadline; an individual entry is still taken)",
                    d.format("%Y-%m-%d %H:%M")
                ),
                en: format!("team entries closed at {d}"),
            }))
        }
        _ => Ok(()),
    }
}

/// The entry index's counting rule for the regulation's `unit_kind` (as [`counted_unit`]).
pub fn count_by(reg: &Regulation) -> arbiter_core::CountBy {
    match reg.registration.unit_kind {
        UnitKind::Association => arbiter_core::CountBy::AssociationFirst,
        _ => arbiter_core::CountBy::UnitFirst,
    }
}

/// Why the registration rules refuse an entry, with the facts: a rule of the section
/// (`Section::check_entry`, its stable code and words), or a team rule (K2, one roster per
/// team). Worded as recorded in the log (`entry_refused`'s reason).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ineligible {
    /// A rule of the section: deadline, limits, sex, age, evidence, flags.
    Rule(arbiter_regulation::Refusal),
    /// The section is not the regulation's.
    UnknownSection(String),
    /// The section was merged into another (`sections_merged`; names of both): it takes no
    /// more entries.
    Merged { section: String, into: String },
    /// Evidence of a kind the regulation does not know.
    UnknownEvidence(String),
    /// K2: the team belongs to another unit.
    CrossUnitTeam {
        team: String,
        team_unit: String,
        unit: String,
    },
    /// The team plays in another section (names of both).
    TeamInOtherSection {
        team: String,
        team_section: String,
        section: String,
    },
    /// The team has as many players as the regulation allows.
    TeamFull {
        team: String,
        members: usize,
        max: u32,
    },
    /// A18: the same ID number is entered in another section whose rounds overlap this
    /// one's (section names), and the regulation does not allow it.
    InOtherSection { section: String, other: String },
    /// The log's own limits (the deadline, a cap, a person entered twice).
    Log(arbiter_core::Rejection),
    /// The ID number does not read (its parser's words); the desk's form check refuses it
    /// before the rules are judged.
    IdNumber(arbiter_types::IdNumberError),
    /// The phone number does not read.
    Phone(arbiter_types::PhoneError),
    /// The social security number (社保号) does not read.
    SocialSecurity(arbiter_types::SocialSecurityError),
    /// Evidence of a kind the regulation format does not know, as given.
    EvidenceKind(String),
    /// A flag the regulation does not know (the director's refusal, with the flags it does).
    Flag(Box<crate::Refusal>),
    /// A grade not on the regulation's scale (the director's refusal, with the scale).
    Grade(Box<crate::Refusal>),
    /// 越级: the section is an age group older than the child's own, and the regulation's
    /// `[registration.play_up]` does not let him in (not allowed, or what it asks is missing).
    PlayUp(Box<arbiter_regulation::PlayingUp>),
}

impl Ineligible {
    /// Whether the refusal is for evidence the regulation asks for and the entry lacks
    /// (the desk's form shows it beside the evidence boxes).
    pub fn wants_evidence(&self) -> bool {
        matches!(self, Ineligible::Rule(r) if r.code == "evidence_missing")
            || matches!(self, Ineligible::PlayUp(_))
    }

    /// Whether the refusal is about the grade (段位/称号): missing, too low or too high for
    /// the section, or not on the scale.
    pub fn about_grade(&self) -> bool {
        match self {
            Ineligible::Rule(r) => r.code.starts_with("grade_"),
            Ineligible::Grade(_) => true,
            _ => false,
        }
    }
}

impl std::fmt::Display for Ineligible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ineligible::Rule(r) => write!(f, "{r}"),
            Ineligible::UnknownSection(s) => write!(f, "未知组别 「{s}」 (unknown section)"),
            Ineligible::Merged { section, into } => write!(
                f,
                "{section}已并入{into}, 不再接受报名; 请报{into} (the section was merged into {into}: enter {into})"
            ),
            Ineligible::UnknownEvidence(e) => {
                write!(f, "未知的证明材料 「{e}」 (unknown evidence kind)")
            }
            Ineligible::CrossUnitTeam {
                team,
                team_unit,
                unit,
            } => write!(
                f,
                "跨单位组队: 队伍 {team} 属于 {team_unit}, 报名者属于 {unit} (cross-unit team: the team belongs to another unit)"
            ),
            Ineligible::TeamInOtherSection {
                team,
                team_section,
                section,
            } => write!(
                f,
                "队伍 {team} 属于组别「{team_section}」, 不能在组别「{section}」报名 (the team plays in another section)"
            ),
            Ineligible::TeamFull { team, members, max } => write!(
                f,
                "队伍 {team} 已有 {members} 人, 达到规程上限 {max} 人 (the team is full)"
            ),
            Ineligible::InOtherSection { section, other } => write!(
                f,
                "同一身份证号已在组别「{other}」报名, 两组比赛时间重叠, 不能再报「{section}」 (the same ID number is entered in {other}, whose rounds overlap this section's)"
            ),
            Ineligible::Log(r) => write!(f, "{r}"),
            Ineligible::IdNumber(e) => write!(f, "{e}"),
            Ineligible::Phone(e) => write!(f, "{e}"),
            Ineligible::SocialSecurity(e) => write!(f, "{e}"),
            Ineligible::EvidenceKind(g) => write!(f, "{}", unknown_evidence_words(g)),
            Ineligible::Flag(r) | Ineligible::Grade(r) => write!(f, "{r}"),
            Ineligible::PlayUp(p) => write!(
                f,
                "越级报名: {} 时年满 {} 岁，本人年龄组为「{}」，报「{}」{} (playing up into {} from one's own age group {}, aged {} on {}: {})",
                p.on,
                p.age,
                p.own,
                p.section,
                if !p.allowed {
                    "不被允许: 规程规定不得越级".to_string()
                } else {
                    format!("须满足规程的越级条件: {}", p.rule_zh)
                },
                p.section,
                p.own,
                p.age,
                p.on,
                p.rule_en
            ),
        }
    }
}

/// `Section::check_entry` for an applicant against the entries already in `state` (the
/// entries before it), entered at `at`. Err is the refusal reason.
pub fn check_eligibility(
    reg: &Regulation,
    state: &EventState,
    a: &Applicant<'_>,
    at: NaiveDateTime,
) -> Result<(), Ineligible> {
    let Some(sec) = reg.section(a.section) else {
        return Err(Ineligible::UnknownSection(a.section.to_string()));
    };
    if let Some(into) = state
        .section(a.section)
        .and_then(|s| s.merged_into.as_ref())
    {
        let name = |id: &str| reg.section(id).map_or(id.to_string(), |s| s.name.clone());
        return Err(Ineligible::Merged {
            section: sec.name.clone(),
            into: name(into),
        });
    }
    let unit = counted_unit(reg, a.unit, a.association);
    // Counts from the state's entry index (no scan of the players).
    let by = count_by(reg);
    let of_unit = |section: Option<&str>| {
        unit.as_deref()
            .map_or(0, |u| state.index.of_unit(by, section, u))
    };
    let mut evidence = BTreeSet::new();
    for e in a.evidence {
        match Evidence::ALL
            .into_iter()
            .find(|x| x.name() == e || x.zh() == e)
        {
            Some(x) => {
                evidence.insert(x);
            }
            None => return Err(Ineligible::UnknownEvidence(e.to_string())),
        }
    }
    // EntryFacts grows (event totals, …): new fields keep their defaults here.
    #[allow(clippy::needless_update)]
    let facts = EntryFacts {
        birth_date: a.birth,
        sex: a.sex,
        unit: unit.clone(),
        evidence,
        entry_time: (!a.late).then_some(at),
        unit_in_section: of_unit(Some(a.section)),
        unit_overall: of_unit(None),
        section_total: state.index.in_section(a.section),
        flags: a.flags.iter().cloned().collect::<BTreeSet<_>>(),
        grade: match a.grade {
            None => None,
            Some(g) => Some(
                reg.grades
                    .find(g)
                    .ok_or_else(|| Ineligible::Grade(unknown_grade(reg, g)))?,
            ),
        },
        ..EntryFacts::default()
    };
    sec.check_entry(&facts).map_err(Ineligible::Rule)?;
    reg.check_play_up(a.section, &facts)
        .map_err(Ineligible::PlayUp)
}

/// The sex and age rules of a section (`Section::check_entry`, the same rule registration
/// uses) for a player with this sex and birth date; the section's other rules (deadline,
/// limits, evidence, flags) were judged when he registered and are not judged again here.
/// Err is the refusal reason.
pub fn check_person(
    reg: &Regulation,
    section: &str,
    sex: Option<Sex>,
    birth: Option<NaiveDate>,
) -> Result<(), Ineligible> {
    const PERSON: [&str; 6] = [
        "sex",
        "sex_unknown",
        "birth_date_unknown",
        "born_outside",
        "too_young",
        "too_old",
    ];
    let Some(sec) = reg.section(section) else {
        return Err(Ineligible::UnknownSection(section.to_string()));
    };
    // Only the person's facts: the deadline and the counts do not apply (no entry time, no
    // other entries), a unit is given so that the unit rule (judged at registration) does not
    // stop the check before the sex and age rules, and a refusal for anything but sex or age
    // is not this check's.
    #[allow(clippy::needless_update)]
    let facts = EntryFacts {
        birth_date: birth,
        sex,
        unit: Some(String::new()),
        ..EntryFacts::default()
    };
    match sec.check_entry(&facts) {
        Err(r) if PERSON.contains(&r.code) => Err(Ineligible::Rule(r)),
        _ => Ok(()),
    }
}

/// A flag given by its regulation name (`local`) or its Chinese label (`本地棋手`, a
/// category's name), as its regulation name; a flag the regulation does not name is refused
/// with every flag it names.
pub fn flag_name(reg: &Regulation, given: &str) -> Result<String, Box<crate::Refusal>> {
    let given = given.trim();
    let known = reg.flags();
    if let Some(f) = known
        .iter()
        .find(|f| f.as_str() == given || reg.flag_label(f) == given)
    {
        return Ok(f.clone());
    }
    Err(Box::new(crate::Refusal::UnknownFlag {
        given: given.to_string(),
        known: known
            .iter()
            .map(|f| (f.clone(), reg.flag_label(f)))
            .collect(),
    }))
}

/// A grade (段位/称号) given by its name on the regulation's `[grades]` scale, an alias, or
/// with Chinese numerals (「业余五段」), as the scale's name; a grade not on the scale is
/// refused with the scale.
pub fn grade_name(reg: &Regulation, given: &str) -> Result<String, Box<crate::Refusal>> {
    reg.grades
        .find(given)
        .map(|g| g.name)
        .ok_or_else(|| unknown_grade(reg, given))
}

fn unknown_grade(reg: &Regulation, given: &str) -> Box<crate::Refusal> {
    Box::new(crate::Refusal::UnknownGrade {
        given: given.trim().to_string(),
        known: reg.grades.scale.iter().map(|s| s.name.clone()).collect(),
    })
}

/// The flags of a form as regulation names, each once ([`flag_name`]).
pub fn flag_names(reg: &Regulation, given: &[String]) -> Result<Vec<String>, Box<crate::Refusal>> {
    let mut out: Vec<String> = Vec::new();
    for g in given.iter().filter(|g| !g.trim().is_empty()) {
        let f = flag_name(reg, g)?;
        if !out.contains(&f) {
            out.push(f);
        }
    }
    Ok(out)
}

/// Evidence given by its regulation name (`accident_insurance`) or by the Chinese label that
/// `regulation check` prints (`意外伤害保险`), as its regulation name.
pub fn evidence_name(given: &str) -> Result<&'static str, Ineligible> {
    let g = given.trim();
    Evidence::ALL
        .into_iter()
        .find(|x| x.name() == g || x.zh() == g)
        .map(|x| x.name())
        .ok_or_else(|| Ineligible::EvidenceKind(g.to_string()))
}

/// An evidence kind the format does not know, with the kinds it does.
fn unknown_evidence_words(g: &str) -> String {
    let all: Vec<String> = Evidence::ALL
        .iter()
        .map(|x| format!("{} {}", x.zh(), x.name()))
        .collect();
    format!(
        "未知的证明材料 「{g}」 (unknown evidence kind; one of: {})",
        all.join(", ")
    )
}

/// One roster per team (issue 18): a player naming a team that is already entered joins its
/// roster, so he must come from the team's unit and section and fit under the regulation's
/// `max_players`.
pub fn check_team_roster(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    team: Option<&str>,
    unit: Option<&str>,
) -> Result<(), Ineligible> {
    let Some(t) = team.and_then(|t| state.teams.get(t)) else {
        return Ok(());
    };
    if unit != Some(t.unit.as_str()) {
        return Err(Ineligible::CrossUnitTeam {
            team: t.team.clone(),
            team_unit: t.unit.clone(),
            unit: unit.unwrap_or("-").to_string(),
        });
    }
    if t.section.as_deref().is_some_and(|s| s != section) {
        let name = |id: &str| reg.section(id).map_or(id.to_string(), |x| x.name.clone());
        return Err(Ineligible::TeamInOtherSection {
            team: t.team.clone(),
            team_section: t.section.as_deref().map_or("-".to_string(), name),
            section: name(section),
        });
    }
    let max = reg
        .section(section)
        .and_then(|s| s.entry_teams())
        .and_then(|tp| tp.max_players);
    if let Some(max) = max {
        if t.members.len() as u64 >= u64::from(max) {
            return Err(Ineligible::TeamFull {
                team: t.team.clone(),
                members: t.members.len(),
                max,
            });
        }
    }
    Ok(())
}

/// K2: no cross-unit teams — a team's members all come from one unit.
pub fn check_team_unit(
    state: &EventState,
    team: Option<&str>,
    unit: Option<&str>,
) -> Result<(), Ineligible> {
    let (Some(team), Some(u)) = (team, unit) else {
        return Ok(());
    };
    let other = state
        .index
        .team_units(team)
        .find(|&(unit, n)| n > 0 && unit != Some(u));
    match other {
        Some((unit, _)) => Err(Ineligible::CrossUnitTeam {
            team: team.to_string(),
            team_unit: unit.unwrap_or("-").to_string(),
            unit: u.to_string(),
        }),
        None => Ok(()),
    }
}

/// Check one entry and return `player_registered` or `entry_refused` with the reason.
pub fn register(
    reg: &Regulation,
    state: &EventState,
    form: &EntryForm,
    at: NaiveDateTime,
) -> LogEntry {
    register_as(reg, state, form, at, Duplicates::Refuse)
}

/// What [`register_as`] does with a person already entered in the section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duplicates {
    /// Refused (a registration).
    Refuse,
    /// Judged as if he were not (an online submission: the form must not tell a stranger
    /// whether an ID number is registered; the desk sees the duplicate and decides).
    Ignore,
}

/// [`register`], with what to do about a person already entered in the section.
pub fn register_as(
    reg: &Regulation,
    state: &EventState,
    form: &EntryForm,
    at: NaiveDateTime,
    duplicates: Duplicates,
) -> LogEntry {
    register_judged(reg, state, form, at, duplicates).0
}

/// [`register_as`], with why a refused entry is refused (typed, as the `entry_refused` it
/// returns words it).
pub fn register_judged(
    reg: &Regulation,
    state: &EventState,
    form: &EntryForm,
    at: NaiveDateTime,
    duplicates: Duplicates,
) -> (LogEntry, Option<Ineligible>) {
    let form = &form.normalized();
    let id_number = match form.id_number.as_deref().map(IdNumber::parse) {
        None => None,
        Some(Ok(i)) => Some(i),
        Some(Err(e)) => {
            return (
                refused(form, e.to_string(), false),
                Some(Ineligible::IdNumber(e)),
            )
        }
    };
    let phone = match form.phone.as_deref().map(Phone::parse) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => {
            return (
                refused(form, e.to_string(), false),
                Some(Ineligible::Phone(e)),
            )
        }
    };
    let social_security = match form
        .social_security
        .as_deref()
        .map(arbiter_types::SocialSecurityNo::parse)
    {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            return (
                refused(form, e.to_string(), false),
                Some(Ineligible::SocialSecurity(e)),
            )
        }
    };
    // Birth date and sex come from the ID number when there is one.
    let birth = id_number.as_ref().map(IdNumber::birth_date).or(form.birth);
    let sex = id_number.as_ref().map(IdNumber::sex).or(form.sex);
    let mut evidence = Vec::with_capacity(form.evidence.len());
    for e in &form.evidence {
        match evidence_name(e) {
            Ok(n) => evidence.push(n.to_string()),
            Err(r) => return (refused(form, r.to_string(), false), Some(r)),
        }
    }
    let flags = match flag_names(reg, &form.flags) {
        Ok(f) => f,
        Err(r) => {
            return (
                refused(form, r.to_string(), false),
                Some(Ineligible::Flag(r)),
            )
        }
    };
    let grade = match form
        .grade
        .as_deref()
        .map(|g| grade_name(reg, g))
        .transpose()
    {
        Ok(g) => g,
        Err(r) => {
            return (
                refused(form, r.to_string(), false),
                Some(Ineligible::Grade(r)),
            )
        }
    };
    // A refusal's facts carry the flags and grade as the regulation names them (a replay
    // re-checks them).
    let form = &EntryForm {
        flags: flags.clone(),
        grade: grade.clone(),
        ..form.clone()
    };
    let late_reason = form
        .late_reason
        .as_ref()
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    let applicant = Applicant {
        section: &form.section,
        sex,
        birth,
        unit: form.unit.as_deref(),
        association: form.association.as_deref(),
        evidence: &evidence,
        flags: &flags,
        grade: grade.as_deref(),
        late: late_reason.is_some(),
    };
    if let Err(r) = check_eligibility(reg, state, &applicant, at)
        .and_then(|()| check_team_deadline(reg, form.team.as_deref(), at, applicant.late))
        .and_then(|()| check_team_unit(state, form.team.as_deref(), form.unit.as_deref()))
        .and_then(|()| {
            check_team_roster(
                reg,
                state,
                &form.section,
                form.team.as_deref(),
                form.unit.as_deref(),
            )
        })
    {
        return (refused(form, r.to_string(), late_reason.is_none()), Some(r));
    }
    if duplicates == Duplicates::Refuse {
        if let Some(r) = id_number
            .as_ref()
            .and_then(|id| in_overlapping_section(reg, state, &form.section, id))
        {
            return (refused(form, r.to_string(), true), Some(r));
        }
    }
    let entry = LogEntry::PlayerRegistered(PlayerRegistered {
        player: state.next_player_id(),
        section: form.section.clone(),
        person: Person {
            name: form.name.clone(),
            sex,
            birth_date: birth,
            id_number,
            phone,
            social_security,
            unit: form.unit.clone(),
            // S3/S9: in an association event the 单位 given is the 协会 (one meaning: the
            // entry form's and a roster's one 「单位」 cell fill the association).
            association: match reg.registration.unit_kind {
                UnitKind::Association => form.association.clone().or_else(|| form.unit.clone()),
                _ => form.association.clone(),
            },
        },
        team: form.team.clone(),
        evidence,
        local: flags.iter().any(|f| f == "local"),
        rating: form.rating,
        grade,
        flags,
        late_reason,
        submission: None,
    });
    // The log's own limits (deadline, association cap) have the last word.
    match validate_at(state, &entry, Some(&rfc3339(at))) {
        Ok(()) => (entry, None),
        Err(
            arbiter_core::Rejection::DuplicateIdNumber(..)
            | arbiter_core::Rejection::DuplicateEntry { .. },
        ) if duplicates == Duplicates::Ignore => (entry, None),
        Err(rej) => (
            refused(form, rej.to_string(), true),
            Some(Ineligible::Log(rej)),
        ),
    }
}

/// Whether sections `a` and `b` of `reg` play at the same time (A18, the project's reading):
/// they have a playing day in common — a day on which a round of each starts by its
/// `schedule` (or `schedule_days`). A section without a schedule overlaps every other
/// section of its event.
pub fn sections_overlap(reg: &Regulation, a: &str, b: &str) -> bool {
    let (Some(sa), Some(sb)) = (reg.section(a), reg.section(b)) else {
        return true;
    };
    if sa.schedule.is_empty() || sb.schedule.is_empty() {
        return true;
    }
    let days: BTreeSet<chrono::NaiveDate> = sa.schedule.iter().map(|t| t.date()).collect();
    sb.schedule.iter().any(|t| days.contains(&t.date()))
}

/// A18: the refusal of an entry whose ID number is entered (and not withdrawn) in another
/// section whose rounds overlap `section`'s, unless the regulation allows it
/// (`registration.allow_overlapping_sections`).
fn in_overlapping_section(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    id: &IdNumber,
) -> Option<Ineligible> {
    if reg.registration.allow_overlapping_sections {
        return None;
    }
    let name = |s: &str| {
        reg.section(s)
            .map_or_else(|| s.to_string(), |x| x.name.clone())
    };
    state
        .sections
        .keys()
        .filter(|s| s.as_str() != section)
        .find(|s| state.index.has_id_number(s, id.as_str()) && sections_overlap(reg, section, s))
        .map(|other| Ineligible::InOtherSection {
            section: name(section),
            other: name(other),
        })
}

/// The key of a refusal: a refusal equal to one already recorded is not recorded again, so
/// importing the same failing file twice leaves the log as it was.
type RefusalKey = (String, String, String, Option<IdNumber>, Option<String>);

fn refusal_key(e: &LogEntry) -> Option<RefusalKey> {
    match e {
        LogEntry::EntryRefused {
            name,
            section,
            reason,
            id_number,
            unit,
            ..
        } => Some((
            name.clone(),
            section.clone(),
            reason.clone(),
            id_number.clone(),
            unit.clone(),
        )),
        _ => None,
    }
}

/// Whether `state` already records this refusal (same name, section, reason, ID number and
/// unit).
pub fn already_refused(state: &EventState, e: &LogEntry) -> bool {
    refusal_key(e)
        .is_some_and(|k| state.refusal_recorded(&k.0, &k.1, &k.2, k.3.as_ref(), k.4.as_deref()))
}

/// Register a whole batch of forms in order (each checked against the entries before it).
/// A refusal already recorded (an earlier import of the same file) is not recorded again.
pub fn register_all(
    reg: &Regulation,
    state: &EventState,
    forms: &[EntryForm],
    at: NaiveDateTime,
) -> Result<Vec<LogEntry>, DirectorError> {
    Ok(register_each(reg, state, forms, at)?
        .into_iter()
        .flatten()
        .collect())
}

/// [`register_all`], one answer per form: `None` for a refusal that was already recorded.
pub fn register_each(
    reg: &Regulation,
    state: &EventState,
    forms: &[EntryForm],
    at: NaiveDateTime,
) -> Result<Vec<Option<LogEntry>>, DirectorError> {
    let mut scratch = state.clone();
    let at_s = rfc3339(at);
    let mut seen: std::collections::HashSet<RefusalKey> = state
        .refused
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                r.section.clone(),
                r.reason.clone(),
                r.id_number.clone(),
                r.unit.clone(),
            )
        })
        .collect();
    let mut out = Vec::with_capacity(forms.len());
    for f in forms {
        let e = register(reg, &scratch, f, at);
        if let Some(k) = refusal_key(&e) {
            if !seen.insert(k) {
                out.push(None);
                continue;
            }
        }
        apply_scratch(&mut scratch, &e, &at_s)?;
        out.push(Some(e));
    }
    Ok(out)
}

/// The section's numbering (A3) in the regulation in force; by lot if it cannot be read.
pub fn numbering_of(state: &EventState, section: &str) -> Numbering {
    state
        .regulation()
        .ok()
        .and_then(|r| r.section(section).map(|s| s.pairing.numbering))
        .unwrap_or_default()
}

/// How the numbers were given, in words: 抽签 / 按报名顺序 / 按等级分.
pub fn numbering_words(n: Numbering) -> &'static str {
    match n {
        Numbering::Lots => "抽签排定序号 (numbers by lot)",
        Numbering::Given => "按报名顺序排定序号 (numbers in registration order)",
        Numbering::Rating => "按等级分排定序号 (numbers by rating)",
        Numbering::Grade => "按段位/称号排定序号 (numbers by grade)",
    }
}

/// The order of `players` (given in registration order) by the section's numbering (A3):
/// by lot with `seed`; in registration order (the entry list's); or by rating, highest first,
/// equal ratings in registration order, the unrated after the rated, by lot.
pub fn number_players(
    state: &EventState,
    players: &[PlayerId],
    numbering: Numbering,
    seed: u64,
) -> Vec<PlayerId> {
    let by_lot = |players: &[PlayerId]| by_lot(players, seed);
    match numbering {
        Numbering::Lots => by_lot(players),
        Numbering::Given => players.to_vec(),
        Numbering::Rating => {
            let rating = |p: &PlayerId| state.player(*p).and_then(|r| r.rating);
            let mut rated: Vec<PlayerId> = players
                .iter()
                .copied()
                .filter(|p| rating(p).is_some())
                .collect();
            // A stable sort keeps registration order among equal ratings.
            rated.sort_by_key(|p| std::cmp::Reverse(rating(p)));
            let unrated: Vec<PlayerId> = players
                .iter()
                .copied()
                .filter(|p| rating(p).is_none())
                .collect();
            rated.extend(by_lot(&unrated));
            rated
        }
        Numbering::Grade => {
            // The rank on the scale of the regulation in force (a grade no longer on it
            // counts as none).
            let reg = state.regulation().ok();
            let rank = |p: &PlayerId| {
                let g = state.player(*p).and_then(|r| r.grade.clone())?;
                reg.as_ref().and_then(|r| r.grades.find(&g)).map(|g| g.rank)
            };
            let rating = |p: &PlayerId| state.player(*p).and_then(|r| r.rating);
            // Each player's rank read once: the graded with their rating, the others apart.
            let mut graded: Vec<(usize, Option<u32>, PlayerId)> = Vec::new();
            let mut ungraded: Vec<PlayerId> = Vec::new();
            for p in players {
                match rank(p) {
                    Some(g) => graded.push((g, rating(p), *p)),
                    None => ungraded.push(*p),
                }
            }
            // Highest grade first, then the higher rating (unrated last); a stable sort
            // keeps registration order among equals.
            graded.sort_by_key(|&(g, r, _)| (std::cmp::Reverse(g), std::cmp::Reverse(r)));
            let mut order: Vec<PlayerId> = graded.into_iter().map(|(_, _, p)| p).collect();
            order.extend(by_lot(&ungraded));
            order
        }
    }
}

/// 种子签 of a plain knockout (`format.knockout.seeds`, 「设8个种子签，七段以上棋手得列种子签」):
/// the first `seeds` players of the numbering's `order` who reach `seed_min_grade` keep
/// numbers 1…k in that order, so their seeded places in the bracket; every other player's
/// number is drawn by lot from a seed derived from the draw's (recorded in the log). Fewer
/// players of the grade than seeds: the seed numbers left over go to the lot too. Any other
/// section: `order` unchanged.
pub fn seeded_lots(
    state: &EventState,
    section: &str,
    order: Vec<PlayerId>,
    seed: u64,
) -> Vec<PlayerId> {
    let reg = state.regulation().ok();
    let Some(k) = reg
        .as_ref()
        .and_then(|r| r.section(section))
        .filter(|s| s.format.kind == arbiter_regulation::FormatKind::Knockout)
        .and_then(|s| s.format.knockout.as_ref())
    else {
        return order;
    };
    let Some(seeds) = k.seeds else { return order };
    let reaches = |p: &PlayerId| match &k.seed_grade {
        None => true,
        Some(min) => state
            .player(*p)
            .and_then(|r| r.grade.clone())
            .and_then(|g| reg.as_ref().and_then(|r| r.grades.find(&g)))
            .is_some_and(|g| g.rank >= min.rank),
    };
    let mut seeded = Vec::new();
    let mut others = Vec::new();
    for p in order {
        if seeded.len() < seeds as usize && reaches(&p) {
            seeded.push(p);
        } else {
            others.push(p);
        }
    }
    seeded.extend(by_lot(&others, derive_seed(seed, "seeds")));
    seeded
}

/// `players` in the order of numbers drawn by lot from `seed`.
fn by_lot(players: &[PlayerId], seed: u64) -> Vec<PlayerId> {
    let numbers = arbiter_pairing::round1::draw_numbers(players.len(), seed);
    let mut order = vec![PlayerId(0); players.len()];
    for (i, &n) in numbers.iter().enumerate() {
        if let Some(slot) = order.get_mut(n.saturating_sub(1)) {
            *slot = players[i];
        }
    }
    order
}

/// `pairing_numbers_drawn`: numbers for the section's players who play (A3), by the
/// section's `numbering` (by lot, in registration order, or by rating); the seed is recorded. Once a round is paired the numbers stand: late entries who play get the next
/// numbers, in registration order.
pub fn draw_numbers(state: &EventState, section: &str) -> LogEntry {
    let seed = derive_seed(
        state.header.as_ref().map_or(0, |h| h.seed),
        &format!("draw/{section}"),
    );
    let plays = |p: &&arbiter_core::PlayerRecord| {
        state.status(p.id) != Some(PlayerStatus::Unpaid) && p.withdrawn.is_none()
    };
    if let Some(rec) = state.section(section).filter(|r| !r.rounds.is_empty()) {
        let drawn: BTreeSet<PlayerId> = rec.order.iter().copied().collect();
        let mut order = rec.order.clone();
        order.extend(
            rec.entries
                .iter()
                .filter(|p| !drawn.contains(p))
                .filter_map(|p| state.player(*p))
                .filter(plays)
                .map(|p| p.id),
        );
        return LogEntry::PairingNumbersDrawn {
            section: section.to_string(),
            seed: rec.draw_seed.unwrap_or(seed),
            order,
        };
    }
    // In registration order, so that a new draw of the same players gives the same numbers.
    let players: Vec<PlayerId> = state
        .section(section)
        .map_or(&[][..], |r| r.entries.as_slice())
        .iter()
        .filter_map(|p| state.player(*p))
        .filter(plays)
        .map(|p| p.id)
        .collect();
    let numbering = numbering_of(state, section);
    let order = number_players(state, &players, numbering, seed);
    let order = seeded_lots(state, section, order, seed);
    LogEntry::PairingNumbersDrawn {
        section: section.to_string(),
        seed,
        order,
    }
}
