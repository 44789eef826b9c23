//! Importing a roster file (导入报名表): the rows a unit's entry form gives, each registered
//! through the same rules as one entry at the desk, checked against the rows before it. The
//! shells (CLI `player import`, the desk's 导入 page) read the file into an
//! [`arbiter_import::Roster`] and call [`import_roster`]; what to show and whether to
//! append (a dry run appends nothing) is theirs.

use super::entries::register_each;
use super::Ctx;
use crate::registration::EntryForm;
use crate::DirectorError;
use arbiter_core::{EventState, FieldChange, LogEntry};
use arbiter_import::{Roster, RosterRow};

/// Rows registered per step (each step checked against the ones before it); progress is
/// reported after each step.
pub const STEP: usize = 1000;

/// What kind of problem a row has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// The row itself is wrong (a cell, a missing section): not imported.
    Invalid,
    /// The entry was refused by the section's rules (recorded in the log, as at the desk).
    Refused,
    /// Refused for a reason already recorded for the same person: not recorded again.
    AlreadyRefused,
    /// The row is a player already registered (a corrected form imported again): skipped,
    /// nothing recorded.
    AlreadyRegistered,
    /// The row is a player already registered and the arbiter asked to update him: what the
    /// row says differently is corrected (`player_corrected`, by the same rules as the desk's
    /// edit).
    Updated,
}

impl ProblemKind {
    /// `invalid`, `refused`, `already_refused` (the `--json` report's `kind`).
    pub fn code(self) -> &'static str {
        match self {
            ProblemKind::Invalid => "invalid",
            ProblemKind::Refused => "refused",
            ProblemKind::AlreadyRefused => "already_refused",
            ProblemKind::AlreadyRegistered => "already_registered",
            ProblemKind::Updated => "updated",
        }
    }
}

/// One problem of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowProblem {
    pub row: usize,
    /// `身份证号 (D列)` — the header and column letter, when the problem is in one cell.
    pub column: Option<String>,
    /// `D7` — the cell, when known.
    pub cell: Option<String>,
    pub kind: ProblemKind,
    pub message: String,
    /// Who the row enters, and for which section, when the rules refused it.
    pub who: Option<(String, String)>,
}

/// A row that registers (or would, in a dry run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowRegistered {
    pub row: usize,
    /// `P17` (assigned against the state the entries are appended to).
    pub player: String,
    pub name: String,
    pub section: String,
}

/// The outcome of an import, row by row.
#[derive(Debug, Clone, Default)]
pub struct ImportReport {
    /// The entries to append (registrations and recorded refusals), in row order.
    pub entries: Vec<LogEntry>,
    pub registered: Vec<RowRegistered>,
    /// Every problem, by row.
    pub problems: Vec<RowProblem>,
    /// No header row, or one that cannot be read: nothing can be imported.
    pub header_broken: bool,
}

impl ImportReport {
    /// Rows of players already registered whose entry the file corrected.
    pub fn updated(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.kind == ProblemKind::Updated)
            .count()
    }

    /// Rows with at least one `invalid` problem (not imported).
    pub fn invalid_rows(&self) -> usize {
        let mut v: Vec<usize> = self
            .problems
            .iter()
            .filter(|p| p.kind == ProblemKind::Invalid)
            .map(|p| p.row)
            .collect();
        v.dedup();
        v.len()
    }

    /// Rows refused by the rules (recorded now or before).
    pub fn refused(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| matches!(p.kind, ProblemKind::Refused | ProblemKind::AlreadyRefused))
            .count()
    }

    /// Rows of players already registered, skipped.
    pub fn skipped(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.kind == ProblemKind::AlreadyRegistered)
            .count()
    }

    /// Refusals not recorded again.
    pub fn already_refused(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.kind == ProblemKind::AlreadyRefused)
            .count()
    }
}

/// The entry form of a roster row, for `section`.
pub fn form(r: &RosterRow, section: String, late_reason: Option<String>) -> EntryForm {
    EntryForm {
        team: r.team.clone(),
        evidence: r.evidence.clone(),
        flags: r.flags.clone(),
        rating: r.rating,
        grade: r.grade.clone(),
        late_reason,
        ..EntryForm::of_person(section, &r.person)
    }
}

/// A section given by id or by its Chinese name (`公开组`), as the state spells its id.
pub fn section_id(state: &EventState, given: &str) -> String {
    let g = given.trim();
    if state.sections.contains_key(g) {
        return g.to_string();
    }
    state
        .sections
        .values()
        .find(|s| s.name == g)
        .map_or_else(|| g.to_string(), |s| s.id.clone())
}

/// A section given by id or name, or an error with a did-you-mean.
pub fn known_section(state: &EventState, given: &str) -> Result<String, crate::DirectorError> {
    let id = section_id(state, given);
    if state.sections.contains_key(&id) {
        return Ok(id);
    }
    Err(crate::Refusal::UnknownSection {
        given: given.to_string(),
        closest: arbiter_types::closest(given, state.sections.keys().map(String::as_str))
            .map(str::to_string),
    }
    .into())
}

/// The section of a row: its own 组别, the default given by the arbiter, or the event's only
/// one.
pub fn row_section(
    state: &EventState,
    r: &RosterRow,
    default_section: Option<&str>,
) -> Result<String, String> {
    let only = (state.sections.len() == 1)
        .then(|| state.sections.keys().next().cloned())
        .flatten();
    let given = r
        .section
        .clone()
        .or_else(|| default_section.map(str::to_string))
        .or(only);
    match given {
        Some(s) => known_section(state, &s).map_err(|r| r.to_string()),
        None => Err("未指定组别 (no section: add a 组别 column or choose a section)".into()),
    }
}

/// The problem of a row that leaves out a field the regulation requires: its cell when the
/// file has the column, else the column the file lacks.
fn missing(roster: &Roster, line: usize, field: crate::refusal::Required) -> RowProblem {
    use crate::refusal::Required as R;
    use arbiter_import::roster::column_letters;
    use arbiter_import::Column as C;
    let col = match field {
        R::Name => Some(C::Name),
        R::IdNumber => Some(C::IdNumber),
        R::Phone => Some(C::Phone),
        R::Unit => Some(C::Unit),
        R::SocialSecurity => Some(C::SocialSecurity),
        R::Sex => Some(C::Sex),
        R::BirthDate => Some(C::BirthDate),
    };
    match col.and_then(|c| roster.column_of(c)) {
        Some((n, header)) => RowProblem {
            row: line,
            column: Some(format!("{} ({}列)", header.trim(), column_letters(n))),
            cell: Some(format!("{}{line}", column_letters(n))),
            kind: ProblemKind::Invalid,
            message: format!(
                "规程要求填写{}, 本行为空 ({} is required by the regulation)",
                field.zh(),
                field.en()
            ),
            who: None,
        },
        None => RowProblem {
            row: line,
            column: Some(field.zh().to_string()),
            cell: None,
            kind: ProblemKind::Invalid,
            message: format!(
                "规程要求填写{0}, 文件缺少「{0}」列 ({1} is required by the regulation; the file has no such column)",
                field.zh(),
                field.en()
            ),
            who: None,
        },
    }
}

/// The player a roster row names who is already registered (in any section): the same ID
/// number, or — when the row has none — the same name and unit and the same birth date (both
/// given or both missing). A corrected form imported again skips him rather than recording a
/// refusal (issue 45, item 4).
pub fn registered_match<'a>(
    state: &'a EventState,
    r: &RosterRow,
) -> Option<&'a arbiter_core::state::PlayerRecord> {
    let name = r.person.name.trim();
    state
        .players
        .values()
        .find(|p| match (&r.person.id_number, &p.person.id_number) {
            (Some(a), Some(b)) => a == b,
            (Some(_), None) => false,
            (None, _) => {
                p.person.name == name
                    && p.person.unit.as_deref().or(p.person.association.as_deref())
                        == r.person.unit.as_deref().or(r.person.association.as_deref())
                    && p.person.birth_date == r.person.birth_date
            }
        })
}

/// The row of a player already registered: skipped, with where he plays.
fn already_registered(state: &EventState, r: &RosterRow, f: &EntryForm) -> Option<RowProblem> {
    let p = registered_match(state, r)?;
    let sec = state
        .sections
        .get(&p.section)
        .map_or(p.section.as_str(), |s| s.name.as_str());
    let other = if p.section == f.section {
        String::new()
    } else {
        "; 表中组别与报名组别不同, 如需换组请在棋手页面办理 (the row names another section)"
            .to_string()
    };
    Some(RowProblem {
        row: r.line,
        column: None,
        cell: None,
        kind: ProblemKind::AlreadyRegistered,
        message: format!(
            "已报名 ({} {}, 组别 {sec}), 跳过{other} (already registered as {}, skipped)",
            p.id, p.person.name, p.id
        ),
        who: Some((f.name.clone(), f.section.clone())),
    })
}

/// The problem of a row whose section asks for what the file has no column for: a
/// condition flag (`require_flags`) without a 参赛条件/标记 column, evidence without a 证明
/// column. A fault of the file, not of the player: the row is invalid (nothing recorded), not
/// refused, so that importing such a file records no refusal per row.
fn structural(
    reg: &arbiter_regulation::Regulation,
    roster: &Roster,
    line: usize,
    section: &str,
) -> Option<RowProblem> {
    use arbiter_import::Column as C;
    let sec = reg.section(section)?;
    let el = &sec.eligibility;
    let (column, what) = if !el.require_flags.is_empty() && roster.column_of(C::Flags).is_none() {
        let labels: Vec<String> = el.require_flags.iter().map(|f| reg.flag_label(f)).collect();
        ("参赛条件", labels.join("、"))
    } else if (!el.evidence.is_empty() || !el.evidence_any.is_empty())
        && roster.column_of(C::Evidence).is_none()
    {
        let words: Vec<&str> = el
            .evidence
            .iter()
            .chain(el.evidence_any.iter().flatten())
            .map(|e| e.zh())
            .collect();
        ("证明", words.join("、"))
    } else {
        return None;
    };
    Some(RowProblem {
        row: line,
        column: Some(column.to_string()),
        cell: None,
        kind: ProblemKind::Invalid,
        message: format!(
            "组别 {} 要求 {what}, 文件缺少「{column}」列; 请用本赛事的报名表模板 (the section requires {what}; the file has no 「{column}」 column: use the event's entry-form template)",
            sec.name
        ),
        who: None,
    })
}

/// Import a roster read from a file: every valid row registered through the registration
/// rules (each against the rows before it), refusals recorded as at the desk, bad rows
/// listed with row and column. `progress(done, total)` is called after each step of
/// [`STEP`] rows. Never partial and silent: the report names every row not registered.
pub fn import_roster(
    state: &EventState,
    ctx: &Ctx,
    roster: &Roster,
    default_section: Option<&str>,
    update: bool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ImportReport, DirectorError> {
    let mut report = ImportReport {
        problems: roster
            .problems
            .iter()
            .map(|p| RowProblem {
                row: p.line,
                column: p.column_name(),
                cell: p.cell(),
                kind: ProblemKind::Invalid,
                message: p.message.clone(),
                who: None,
            })
            .collect(),
        header_broken: roster.header_line == 0
            || (roster.data_rows == 0 && !roster.problems.is_empty()),
        ..ImportReport::default()
    };
    if report.header_broken {
        return Ok(report);
    }
    let reg = crate::regulation_of(state)?;
    let mut forms = Vec::new();
    let mut rows = Vec::new();
    let mut updates = Vec::new();
    for r in &roster.rows {
        match row_section(state, r, default_section) {
            Ok(sec) => {
                let f = form(r, sec, None);
                if let Some(field) = crate::registration::missing_field(&reg, &f) {
                    report.problems.push(missing(roster, r.line, field));
                    continue;
                }
                if let Some(p) = already_registered(state, r, &f) {
                    if update {
                        if let Some(rec) = registered_match(state, r) {
                            updates.push((r.line, rec.id, row_changes(state, r, rec), p));
                            continue;
                        }
                    }
                    report.problems.push(p);
                    continue;
                }
                if let Some(p) = structural(&reg, roster, r.line, &f.section) {
                    report.problems.push(p);
                    continue;
                }
                if let Some(id) = r.person.id_number.as_ref() {
                    if let Err(e) =
                        crate::registration::person_mistake(Some(id), None, None, ctx.at.date())
                    {
                        let (n, header) = roster
                            .column_of(arbiter_import::Column::IdNumber)
                            .unwrap_or((1, ""));
                        let letters = arbiter_import::roster::column_letters(n);
                        report.problems.push(RowProblem {
                            row: r.line,
                            column: Some(format!("{} ({letters}列)", header.trim())),
                            cell: Some(format!("{letters}{}", r.line)),
                            kind: ProblemKind::Invalid,
                            message: e.to_string(),
                            who: None,
                        });
                        continue;
                    }
                }
                if let Err(e) = crate::registration::flag_names(&reg, &f.flags) {
                    let (n, header) = roster
                        .column_of(arbiter_import::Column::Flags)
                        .unwrap_or((1, ""));
                    let letters = arbiter_import::roster::column_letters(n);
                    report.problems.push(RowProblem {
                        row: r.line,
                        column: Some(format!("{} ({letters}列)", header.trim())),
                        cell: Some(format!("{letters}{}", r.line)),
                        kind: ProblemKind::Invalid,
                        message: e.to_string(),
                        who: None,
                    });
                    continue;
                }
                forms.push(f);
                rows.push(r);
            }
            Err(message) => report.problems.push(RowProblem {
                row: r.line,
                column: None,
                cell: None,
                kind: ProblemKind::Invalid,
                message,
                who: None,
            }),
        }
    }
    let mut scratch = state.clone();
    let at = ctx.at_rfc3339();
    let mut done = 0;
    for (k, chunk) in forms.chunks(STEP).enumerate() {
        let answers = register_each(&scratch, ctx, chunk)?;
        for (j, answer) in answers.into_iter().enumerate() {
            let i = k * STEP + j;
            let (row, form) = (rows[i], &forms[i]);
            match &answer {
                Some(e) => {
                    crate::apply_scratch(&mut scratch, e, &at)?;
                    match e {
                        LogEntry::PlayerRegistered(p) => report.registered.push(RowRegistered {
                            row: row.line,
                            player: p.player.to_string(),
                            name: p.person.name.clone(),
                            section: p.section.clone(),
                        }),
                        LogEntry::EntryRefused { reason, .. } => report.problems.push(RowProblem {
                            row: row.line,
                            column: None,
                            cell: None,
                            kind: ProblemKind::Refused,
                            message: reason.clone(),
                            who: Some((form.name.clone(), form.section.clone())),
                        }),
                        _ => {}
                    }
                    report.entries.push(e.clone());
                }
                None => report.problems.push(RowProblem {
                    row: row.line,
                    column: None,
                    cell: None,
                    kind: ProblemKind::AlreadyRefused,
                    message: "此前已因同一理由被拒绝, 未重复记录 (refusal already recorded)".into(),
                    who: Some((form.name.clone(), form.section.clone())),
                }),
            }
            done += 1;
        }
        progress(done, forms.len());
    }
    // The players already registered, corrected as the file says (the arbiter's choice):
    // each by the rules of the desk's edit, against the registrations before it.
    for (line, player, changes, skipped) in updates {
        if changes.is_empty() {
            report.problems.push(RowProblem {
                message: format!("{}; 与已报名资料相同 (nothing to update)", skipped.message),
                ..skipped
            });
            continue;
        }
        let what: Vec<&str> = changes.iter().map(field_word).collect();
        let reason = format!("按报名表第{line}行更新 (updated from the entry file, row {line})");
        match super::entries::correct(&scratch, ctx, player, changes, &reason) {
            Ok(es) => {
                for e in &es {
                    crate::apply_scratch(&mut scratch, e, &at)?;
                }
                report.entries.extend(es);
                report.problems.push(RowProblem {
                    kind: ProblemKind::Updated,
                    message: format!(
                        "已报名, 按表更新: {} (already registered: updated)",
                        what.join("、")
                    ),
                    ..skipped
                });
            }
            Err(DirectorError::Refused(why)) => report.problems.push(RowProblem {
                message: format!(
                    "{}; 更新未获准: {why} (the update is refused)",
                    skipped.message
                ),
                ..skipped
            }),
            Err(e) => return Err(e),
        }
    }
    report.problems.sort_by_key(|p| p.row);
    Ok(report)
}

/// What a row says differently from the registration of the player it matches: only the
/// cells the row fills (an empty cell changes nothing); the section's flags as the desk's
/// edit form takes them (those the section offers replaced, the others kept).
pub fn row_changes(
    state: &EventState,
    r: &RosterRow,
    rec: &arbiter_core::state::PlayerRecord,
) -> Vec<FieldChange> {
    let (x, was) = (&r.person, &rec.person);
    let mut c = Vec::new();
    let name = x.name.trim();
    if !name.is_empty() && name != was.name {
        c.push(FieldChange::Name(name.to_string()));
    }
    if x.sex.is_some() && x.sex != was.sex {
        c.push(FieldChange::Sex(x.sex));
    }
    if x.birth_date.is_some() && x.birth_date != was.birth_date {
        c.push(FieldChange::BirthDate(x.birth_date));
    }
    if x.id_number.is_some() && x.id_number != was.id_number {
        c.push(FieldChange::IdNumber(x.id_number.clone()));
    }
    if x.phone.is_some() && x.phone != was.phone {
        c.push(FieldChange::Phone(x.phone.clone()));
    }
    let given = |v: &Option<String>| crate::registration::given(v.as_deref());
    if let Some(u) = given(&x.unit).filter(|u| Some(u) != was.unit.as_ref()) {
        c.push(FieldChange::Unit(Some(u)));
    }
    if let Some(a) = given(&x.association).filter(|a| Some(a) != was.association.as_ref()) {
        c.push(FieldChange::Association(Some(a)));
    }
    if let Some(t) = given(&r.team).filter(|t| Some(t) != rec.team.as_ref()) {
        c.push(FieldChange::Team(Some(t)));
    }
    if r.rating.is_some() && r.rating != rec.rating {
        c.push(FieldChange::Rating(r.rating));
    }
    if let Some(g) = given(&r.grade) {
        let named = crate::regulation_of(state)
            .ok()
            .and_then(|reg| crate::registration::grade_name(&reg, &g).ok())
            .unwrap_or(g);
        if Some(&named) != rec.grade.as_ref() {
            c.push(FieldChange::Grade(Some(named)));
        }
    }
    if !r.flags.is_empty() {
        let offered = crate::command::registration::offered_flags(state, &rec.section);
        let mut flags: Vec<String> = rec
            .flags
            .iter()
            .filter(|f| !offered.iter().any(|(o, _)| o == *f))
            .cloned()
            .collect();
        flags.extend(r.flags.iter().cloned());
        let (mut a, mut b) = (flags.clone(), rec.flags.clone());
        a.sort();
        b.sort();
        if a != b {
            c.push(FieldChange::Flags(flags));
        }
    }
    c
}

/// A correction's field in an arbiter's word.
fn field_word(c: &FieldChange) -> &'static str {
    match c {
        FieldChange::Name(_) => "姓名",
        FieldChange::Sex(_) => "性别",
        FieldChange::BirthDate(_) => "出生日期",
        FieldChange::IdNumber(_) => "身份证号",
        FieldChange::Phone(_) => "电话",
        FieldChange::Unit(_) => "单位",
        FieldChange::Association(_) => "协会",
        FieldChange::Team(_) => "队名",
        FieldChange::Rating(_) => "等级分",
        FieldChange::Grade(_) => "段位",
        FieldChange::Local(_) => "本地",
        FieldChange::Evidence(_) => "证明",
        FieldChange::Flags(_) => "参赛条件",
    }
}
