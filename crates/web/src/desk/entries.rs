//! The registration list of a section (报名): add an entry (eligibility checked by the
//! regulation; the chief arbiter's late-entry override with its reason), refuse one by
//! decision, fees and check-in; a section below the regulation's minimum before its draw is
//! merged into another by the chief arbiter (「对分组可作适当调整」). ID numbers and phones are
//! shown masked.

use super::{back, event_id, opt, Desk, EventSection, Flash};
use crate::app::AppState;
use crate::auth::{Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::PlayerId;
use arbiter_director::api::entries as api;
use arbiter_director::command::money::MoneyCommand;
use arbiter_director::command::registration::{Entered, RegistrationCommand};
use arbiter_director::command::{Command, Outcome};
use arbiter_director::registration::EntryForm;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::collections::HashMap;

fn path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/entries")
}

/// `/desk/e/{ev}/s/{sec}/entries`: the registration list, the online entries pending, the
/// refused entries, and (for the registration desk) the forms to add or refuse an entry.
#[derive(Template)]
#[template(path = "desk/entries.html")]
struct EntriesPage<'a> {
    l: Lang,
    csrf: &'a str,
    ev: &'a str,
    sec: &'a str,
    name: &'a str,
    rows: Vec<EntryRow<'a>>,
    /// The section's numbers are drawn: the list's number is the pairing number (序号).
    drawn: bool,
    pending: Vec<PendingRow<'a>>,
    /// Seq, name and reason of each refused entry.
    refused: Vec<(u64, &'a str, &'a str)>,
    /// The account may withdraw a refusal recorded by mistake (the chief arbiter).
    can_withdraw_refusal: bool,
    /// The account registers, takes fees and checks in.
    can: bool,
    /// 全选 ticked again (back from a 批量 action it asked for).
    all_ticked: bool,
    /// The message of the last fee or check-in, below its row (the page opens at the row,
    /// `#p12`): (ok, words).
    row_msg: Option<(bool, String)>,
    /// 查找: the words searched, and what was found.
    q: String,
    found: Option<Vec<Found>>,
    /// Columns in the list.
    cols: usize,
    /// Back from adding or refusing an entry: the add-entry form takes the focus for the
    /// next one (on a plain visit it does not, so a long list opens at its top).
    adding: bool,
    /// The entry form as typed (empty at first) and its errors.
    form: Typed,
    /// The section's conditions a player may claim: `(flag, 中文)`.
    conditions: Vec<(String, &'static str)>,
    /// The section's other flags (its categories' flags, the flags that bar an entry):
    /// `(flag, 中文)`.
    marks: Vec<(String, String)>,
    /// The regulation's documents for the section: `(name, 中文)`.
    documents: Vec<(&'static str, &'static str)>,
    /// The regulation's grades and titles (段位/称号), lowest first; empty: it keeps none.
    grades: Vec<String>,
    /// The section's grade rule in words (「须业余5段及以上」), if it has one.
    grade_rule: String,
    /// What the regulation asks, in words (`须提供: 意外伤害保险`).
    documents_rule: String,
    /// The pledge signed at check-in, if the regulation asks for one (T7: 个人安全承诺书).
    pledge: Option<String>,
    /// S9: players who count for no association in the association standings (「2人未填协会，
    /// 不计入团体成绩: …」), where the regulation ranks associations.
    unassociated: Option<String>,
    /// The section is below the regulation's minimum before its draw, and the account may
    /// merge it (the chief arbiter): the warning and the 并入 form.
    merge: Option<MergeOffer>,
}

/// A section too small, for the account that may merge it: the warning in words, the other
/// sections it may go into, and the form as typed (kept after a refusal).
struct MergeOffer {
    words: String,
    /// Whether this account may merge (else the warning alone, without the form).
    may: bool,
    /// `(id, name)` of each other section still taking entries.
    into: Vec<(String, String)>,
    chosen: String,
    reason: String,
    /// The director's refusal of the last merge, in words.
    err: Option<String>,
}

/// The 并入 form as posted, and its refusal in words.
#[derive(Default)]
struct MergeTyped {
    into: String,
    reason: String,
    err: Option<String>,
}

/// A player found by 查找, with his fee, his check-in and why he is not paired.
struct Found {
    id: u32,
    /// 「序号 3」 after the draw, 「报名号 P12」 before.
    num: String,
    name: String,
    section: String,
    unit: String,
    fee: String,
    checked_in: bool,
    /// Empty: he is paired in the next round.
    why: Vec<String>,
}

/// The entry form as the arbiter typed it, kept after a mistake, and the error of each field.
#[derive(Default)]
pub struct Typed {
    name: String,
    sex: String,
    birth: String,
    id_number: String,
    phone: String,
    /// 社保号 (K5).
    social_security: String,
    unit: String,
    team: String,
    late_reason: String,
    refuse_reason: String,
    evidence: Vec<String>,
    /// Documents typed by name (`社保证明`), beside the boxes ticked.
    evidence_text: String,
    flags: Vec<String>,
    /// 段位/称号 chosen from the regulation's scale.
    grade: String,
    /// `(field, message)`: the field is one of the form's names, or `form` for the whole.
    errors: Vec<(&'static str, String)>,
}

impl Typed {
    fn from_fields(f: &HashMap<String, String>) -> Typed {
        let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
        let mut evidence: Vec<String> = f
            .keys()
            .filter_map(|k| k.strip_prefix("ev."))
            .map(str::to_string)
            .collect();
        evidence.sort();
        let mut flags: Vec<String> = f
            .keys()
            .filter_map(|k| k.strip_prefix("flag."))
            .map(str::to_string)
            .collect();
        flags.sort();
        Typed {
            name: get("name"),
            sex: get("sex"),
            birth: get("birth"),
            id_number: get("id_number"),
            phone: get("phone"),
            social_security: get("social_security"),
            unit: get("unit"),
            team: get("team"),
            late_reason: get("late_reason"),
            refuse_reason: get("refuse_reason"),
            evidence,
            evidence_text: get("evidence"),
            flags,
            grade: get("grade"),
            errors: Vec::new(),
        }
    }

    /// Blank every value the director refuses as text (too long, control or direction
    /// characters): the page does not repeat it.
    fn hide_unshowable(&mut self) {
        let bad = unshowable;
        for v in [
            &mut self.name,
            &mut self.sex,
            &mut self.birth,
            &mut self.id_number,
            &mut self.phone,
            &mut self.social_security,
            &mut self.unit,
            &mut self.team,
            &mut self.late_reason,
            &mut self.refuse_reason,
            &mut self.evidence_text,
            &mut self.grade,
        ] {
            if bad(v) {
                v.clear();
            }
        }
        self.evidence.retain(|v| !bad(v));
        self.flags.retain(|v| !bad(v));
    }

    /// The error of field `k`, if any.
    fn err(&self, k: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|(f, _)| *f == k)
            .map(|(_, m)| m.as_str())
    }

    fn has_evidence(&self, e: &str) -> bool {
        self.evidence.iter().any(|x| x == e)
    }

    fn has_flag(&self, f: &str) -> bool {
        self.flags.iter().any(|x| x == f)
    }

    fn opt(v: &str) -> Option<String> {
        Some(v.trim().to_string()).filter(|s| !s.is_empty())
    }

    /// The director's form, or the field and message of what cannot be read.
    fn entry_form(&self, sec: &str) -> Result<EntryForm, (&'static str, String)> {
        let sex = match Typed::opt(&self.sex) {
            None => None,
            Some(s) => Some(
                arbiter_import::roster::parse_sex(&s)
                    .ok_or_else(|| ("sex", format!("性别「{s}」应为 男/女 (unknown sex)")))?,
            ),
        };
        let birth = match Typed::opt(&self.birth) {
            None => None,
            Some(s) => Some(arbiter_import::roster::parse_date(&s).ok_or_else(|| {
                (
                    "birth",
                    format!("出生日期「{s}」应为 YYYY-MM-DD (bad date)"),
                )
            })?),
        };
        Ok(EntryForm {
            section: sec.to_string(),
            name: self.name.clone(),
            sex,
            birth,
            id_number: Typed::opt(&self.id_number),
            phone: Typed::opt(&self.phone),
            unit: Typed::opt(&self.unit),
            association: None,
            team: Typed::opt(&self.team),
            evidence: self
                .evidence
                .iter()
                .cloned()
                .chain(split_evidence(&Some(self.evidence_text.clone())))
                .collect(),
            flags: self.flags.clone(),
            rating: None,
            grade: Typed::opt(&self.grade),
            late_reason: Typed::opt(&self.late_reason),
            social_security: Typed::opt(&self.social_security),
        })
    }
}

/// A value the director refuses as text (too long, control or direction characters): the
/// page does not repeat it.
fn unshowable(v: &str) -> bool {
    v.chars().count() > 500
        || v.chars().any(|c| {
            c.is_control()
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
        })
}

/// The field of the entry form a director's refusal is about (`form` for the whole).
fn field_of(e: &arbiter_director::DirectorError) -> &'static str {
    use arbiter_director::{DirectorError, Refusal};
    match e {
        DirectorError::Refused(r) => match &**r {
            Refusal::Required(r) => {
                use arbiter_director::refusal::Required as R;
                match r {
                    R::Name => "name",
                    R::IdNumber => "id_number",
                    R::Phone => "phone",
                    R::Unit => "unit",
                    R::SocialSecurity => "social_security",
                    R::Sex => "sex",
                    R::BirthDate => "birth",
                }
            }
            Refusal::NameEmpty => "name",
            Refusal::BadIdNumber(_) => "id_number",
            Refusal::BadPhone => "phone",
            Refusal::BadSocialSecurity => "social_security",
            Refusal::SexContradictsId { .. } => "sex",
            Refusal::BirthContradictsId { .. } => "birth",
            Refusal::UnknownEvidence { .. } => "evidence",
            Refusal::UnknownFlag { .. } => "flags",
            Refusal::UnknownGrade { .. } => "grade",
            Refusal::NotEligible { why } if why.about_grade() => "grade",
            Refusal::NotEligible { why } if why.wants_evidence() => "evidence",
            Refusal::ReasonMissing(_) => "refuse_reason",
            _ => "form",
        },
        DirectorError::Text(_) => "form",
        DirectorError::NotAllowed { .. } | DirectorError::ReasonMissing(_) => "late_reason",
        _ => "form",
    }
}

/// One registered player (ID number and phone masked).
struct EntryRow<'a> {
    id: u32,
    /// The number read on the list: the pairing number after the draw, `P12` before.
    num: String,
    name: &'a str,
    withdrawn: bool,
    sex: &'static str,
    unit: &'a str,
    id_number: String,
    phone: String,
    /// The fee paid, in yuan (`None`: not paid).
    paid: Option<String>,
    /// With the regulation's money items: those he still owes (the 缴费 form's choice).
    owe_items: Vec<String>,
    /// The deposits he holds money of (a 退还 button each).
    refund_items: Vec<String>,
    checked_in: bool,
    /// The row of the last action.
    here: bool,
    /// Ticked for 批量缴费/签到 (kept when the desk comes back from a refusal).
    ticked: bool,
    /// Why the last 批量 action left this player out, below his row.
    note: Option<String>,
}

/// One online submission waiting for the desk (ID number and phone masked).
struct PendingRow<'a> {
    submission: u32,
    /// When it was submitted, China time.
    at: String,
    name: &'a str,
    sex: &'static str,
    birth: String,
    unit: &'a str,
    id_number: String,
    phone: String,
    /// The documents the player said he would show, in Chinese (the approval's field).
    evidence: String,
    /// The conditions he claims, in Chinese.
    claims: String,
    /// The same ID number already registered or pending in the section (the desk decides).
    duplicate: String,
}

/// The list's query: the flash, the row of the last action, the search.
#[derive(Deserialize, Default)]
pub struct ListQuery {
    #[serde(flatten)]
    flash: Flash,
    row: Option<String>,
    q: Option<String>,
    /// The players still ticked after a 批量 action (`3.5.8`): those it refused.
    t: Option<String>,
    /// 全选 still ticked.
    all: Option<String>,
    /// Why the 批量 action left each player out (a code given by [`super::remember`]).
    notes: Option<String>,
}

/// Players of the event whose name holds `q`, or whose number is `q`: `P12` the registration
/// id; a bare `12` the pairing number in section `sec` once drawn, the registration id
/// before.
fn find(st: &arbiter_core::EventState, sec: &str, q: &str) -> Vec<Found> {
    let q = q.trim();
    let reg = q
        .strip_prefix(['P', 'p'])
        .and_then(|n| n.parse::<u32>().ok());
    let bare = q.parse::<u32>().ok();
    let drawn = st.section(sec).filter(|s| !s.order.is_empty());
    let by_no = match (drawn, bare) {
        (Some(s), Some(n)) => n
            .checked_sub(1)
            .and_then(|i| s.order.get(i as usize))
            .map(|p| p.0),
        _ => None,
    };
    let reg = reg.or(if drawn.is_some() { None } else { bare });
    st.players
        .values()
        .filter(|p| {
            Some(p.id.0) == reg
                || Some(p.id.0) == by_no
                || (!q.is_empty() && p.person.name.contains(q))
        })
        .take(50)
        .map(|p| Found {
            id: p.id.0,
            num: match api::pairing_no(st, p.id) {
                Some(n) => format!("序号 {n} · 报名号 {}", p.id),
                None => p.id.to_string(),
            },
            name: p.person.name.clone(),
            section: st
                .section(&p.section)
                .map_or(p.section.clone(), |s| s.name.clone()),
            unit: p.person.unit.clone().unwrap_or_default(),
            fee: api::fee_status(st, p.id).map_or_else(|| "未缴费".into(), |f| f.to_string()),
            checked_in: p.checked_in,
            why: api::why_not_paired(st, p.id)
                .iter()
                .map(ToString::to_string)
                .collect(),
        })
        .collect()
}

/// `GET /desk/e/{ev}/s/{sec}/entries[?q=…][&row=N]`.
pub async fn list(
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    es: EventSection,
    Query(lq): Query<ListQuery>,
) -> Result<Response, WebError> {
    let row = lq.row.as_deref().and_then(|r| r.trim().parse::<u32>().ok());
    let f = lq.flash;
    let (f, row_msg) = match row {
        // The message goes below the row, where the desk is looking.
        Some(_) => {
            let ok = f.ok.as_deref().and_then(super::flash_message);
            let err = f.err.as_deref().and_then(super::flash_message);
            (
                Flash::default(),
                err.map(|m| (false, m)).or(ok.map(|m| (true, m))),
            )
        }
        None => (f, None),
    };
    let adding = row.is_none() && lq.q.is_none() && (f.ok.is_some() || f.err.is_some());
    let q = lq.q.as_deref().map(str::trim).unwrap_or("").to_string();
    let ticked =
        lq.t.as_deref()
            .map(|t| t.split('.').filter_map(|n| n.parse().ok()).collect())
            .unwrap_or_default();
    let notes = lq
        .notes
        .as_deref()
        .and_then(super::flash_message)
        .and_then(|m| serde_json::from_str(&m).ok())
        .unwrap_or_default();
    let view = ListView {
        row,
        row_msg,
        q,
        adding,
        ticked,
        all: lq.all.is_some_and(|a| !a.is_empty()),
        notes,
        merge: MergeTyped::default(),
    };
    render(l, &auth, &es, f, Typed::default(), StatusCode::OK, view)
}

/// Where the list opens and what it says besides the entry form: the row of the last fee or
/// check-in and its message, the words searched (查找), whether the add-entry form takes the
/// focus (back from adding or refusing an entry).
#[derive(Default)]
struct ListView {
    row: Option<u32>,
    row_msg: Option<(bool, String)>,
    q: String,
    adding: bool,
    /// The boxes ticked again after a 批量 action refused them.
    ticked: Vec<u32>,
    /// 全选 ticked again.
    all: bool,
    /// Why a 批量 action left each player out, by registration id.
    notes: Vec<(u32, String)>,
    /// The 并入 form as posted, after a refusal.
    merge: MergeTyped,
}

/// The registration list with the entry form as `form` has it.
fn render(
    l: Lang,
    auth: &crate::auth::Authed,
    es: &EventSection,
    f: Flash,
    form: Typed,
    status: StatusCode,
    view: ListView,
) -> Result<Response, WebError> {
    let ListView {
        row,
        row_msg,
        q,
        adding,
        ticked,
        all,
        notes,
        merge,
    } = view;
    let (ev, sec) = (es.ev.as_str(), es.sec.as_str());
    let st = &es.snap.state;
    let s = es.section()?;
    let reg = arbiter_director::regulation_of(st).map_err(|e| WebError::Internal(e.to_string()))?;
    let offer = reg
        .section(sec)
        .map(|s| api::section_offer_in(&reg, s))
        .unwrap_or_default();
    let mut rule = Vec::new();
    if !offer.evidence.is_empty() {
        let all: Vec<&str> = offer.evidence.iter().map(|e| e.zh()).collect();
        rule.push(format!("须出示: {}", all.join("、")));
    }
    for any in &offer.evidence_any {
        let one: Vec<&str> = any.iter().map(|e| e.zh()).collect();
        rule.push(format!("以下之一: {}", one.join("、")));
    }
    // 越级: what the regulation asks of a child entering an age group older than his own.
    if let Some(p) = reg
        .registration
        .play_up
        .as_ref()
        .filter(|_| reg.section(sec).is_some_and(|s| s.oldest_birth().is_some()))
    {
        rule.push(format!("越级报名: {}", p.zh(&reg)));
    }
    let money_reg = st.regulation().ok();
    let charges = money_reg
        .as_ref()
        .is_some_and(|r| !r.registration.charges.is_empty());
    let deposits: Vec<String> = money_reg
        .as_ref()
        .map(|r| {
            r.charge_names()
                .into_iter()
                .filter(|(_, k)| *k == arbiter_regulation::ChargeKind::Deposit)
                .map(|(n, _)| n)
                .collect()
        })
        .unwrap_or_default();
    let rows = st
        .players(sec)
        .into_iter()
        .map(|p| EntryRow {
            id: p.id.0,
            num: api::pairing_no(st, p.id).map_or_else(|| p.id.to_string(), |n| n.to_string()),
            name: &p.person.name,
            withdrawn: p.withdrawn.is_some(),
            sex: p.person.sex.map_or("", |s| s.zh()),
            unit: p.person.unit.as_deref().unwrap_or(""),
            id_number: p.person.id_number_masked(),
            phone: p.person.phone_masked(),
            paid: (p.paid_fen > 0).then(|| match api::fee_status(st, p.id) {
                Some(f) if f.owed_fen() > 0 => format!(
                    "{} ({}{})",
                    api::yuan(p.paid_fen),
                    l.t("尚欠 ", "owed "),
                    api::yuan(f.owed_fen())
                ),
                _ => api::yuan(p.paid_fen),
            }),
            owe_items: if charges {
                st.dues(p)
                    .into_iter()
                    .filter(|d| p.money.get(&d.name).map_or(0, |m| m.paid_fen) < d.fen)
                    .map(|d| d.name)
                    .collect()
            } else {
                Vec::new()
            },
            refund_items: deposits
                .iter()
                .filter(|i| p.money.get(*i).is_some_and(|m| m.held_fen() > 0))
                .cloned()
                .collect(),
            checked_in: p.checked_in,
            here: row == Some(p.id.0),
            ticked: ticked.contains(&p.id.0),
            note: notes
                .iter()
                .find(|(n, _)| *n == p.id.0)
                .map(|(_, m)| m.clone()),
        })
        .collect();
    let pending = st
        .pending(Some(sec))
        .into_iter()
        .map(|x| PendingRow {
            submission: x.submission,
            at: arbiter_core::time::china_local(&x.at)
                .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default(),
            name: &x.person.name,
            sex: x.person.sex.map_or("", |s| s.zh()),
            birth: x
                .person
                .birth_date
                .map(|d| d.to_string())
                .unwrap_or_default(),
            unit: x.person.unit.as_deref().unwrap_or(""),
            id_number: x.person.id_number_masked(),
            phone: x.person.phone_masked(),
            evidence: x
                .evidence
                .iter()
                .filter_map(|e| {
                    arbiter_regulation::Evidence::ALL
                        .into_iter()
                        .find(|k| k.name() == e)
                        .map(|k| k.zh())
                })
                .collect::<Vec<_>>()
                .join("、"),
            claims: x
                .flags
                .iter()
                .map(|f| arbiter_regulation::flag_zh(f))
                .collect::<Vec<_>>()
                .join("、"),
            duplicate: match arbiter_director::api::entries::submission_duplicate(st, x) {
                None => String::new(),
                Some(arbiter_director::api::entries::SubmissionDuplicate::Registered {
                    player,
                    name,
                }) => format!(
                    "{} {player} {name}",
                    l.t("身份证号已报名:", "ID number already registered:")
                ),
                Some(arbiter_director::api::entries::SubmissionDuplicate::Pending {
                    submission,
                    name,
                }) => format!(
                    "{} #{submission} {name}",
                    l.t("与待审报名身份证号相同:", "same ID number as pending")
                ),
            },
        })
        .collect();
    let refused = st
        .refused
        .iter()
        .filter(|r| r.section == sec)
        .map(|r| (r.seq, r.name.as_str(), r.reason.as_str()))
        .collect();
    let may_merge = auth.may(arbiter_director::permission::Action::MergeSections);
    // Every desk account sees the warning; only an account that may merge gets the form.
    let merge_offer = api::below_minimum(st)
        .into_iter()
        .find(|b| b.section.id == sec)
        .map(|b| MergeOffer {
            words: match l {
                Lang::Zh if may_merge => format!(
                    "报名 {} 人，少于规程规定的每组最少 {} 人：可并入其他组别",
                    b.entries, b.min
                ),
                Lang::Zh => format!(
                    "报名 {} 人，少于规程规定的每组最少 {} 人：可否并入其他组别由裁判长决定",
                    b.entries, b.min
                ),
                Lang::En if may_merge => format!(
                    "{} entries, fewer than the regulation's minimum of {} per section: it may be merged into another section",
                    b.entries, b.min
                ),
                Lang::En => format!(
                    "{} entries, fewer than the regulation's minimum of {} per section: the chief arbiter decides whether to merge it into another section",
                    b.entries, b.min
                ),
            },
            may: may_merge,
            into: reg
                .sections
                .iter()
                .filter(|x| x.id != sec)
                .filter(|x| st.section(&x.id).is_some_and(|r| r.merged_into.is_none()))
                .map(|x| (x.id.clone(), x.name.clone()))
                .collect(),
            chosen: merge.into.clone(),
            reason: merge.reason.clone(),
            err: merge.err.as_deref().map(|e| l.say(e)),
        });
    // A refusal with no form to show it beside (the section was merged meanwhile): above.
    let merge_err = merge.err.filter(|_| merge_offer.is_none());
    let page = EntriesPage {
        l,
        csrf: &auth.csrf,
        ev,
        sec,
        name: &s.name,
        rows,
        drawn: !s.order.is_empty(),
        pending,
        refused,
        can_withdraw_refusal: auth.may(arbiter_director::permission::Action::WithdrawRefusal),
        can: auth.may(arbiter_director::permission::Action::Register),
        all_ticked: all,
        row_msg,
        found: (!q.is_empty()).then(|| find(st, sec, &q)),
        q,
        cols: 0,
        adding,
        form,
        conditions: offer.conditions.clone(),
        marks: offer.marks.clone(),
        documents: offer
            .all_evidence()
            .into_iter()
            .map(|e| (e.name(), e.zh()))
            .collect(),
        documents_rule: rule.join("; "),
        grades: reg.grades.scale.iter().map(|g| g.name.clone()).collect(),
        grade_rule: reg
            .section(sec)
            .map(|s| grade_rule(l, &s.eligibility))
            .unwrap_or_default(),
        pledge: reg.registration.check_in_pledge.clone(),
        unassociated: arbiter_director::registration::unassociated_warning(&reg, st),
        merge: merge_offer,
    };
    let page = EntriesPage {
        cols: 8 + usize::from(page.can),
        ..page
    };
    Desk::new(
        l,
        auth,
        format!("{} · {}", s.name, l.t("报名", "Entries")),
        path(ev, sec),
    )
    .event(ev, st)
    .crumb(
        path(ev, sec),
        format!("{} {}", s.name, l.t("报名", "entries")),
    )
    .flash(f)
    .error(merge_err)
    .render(status, &page)
}

/// A section's grade rule in words: 「须业余5段及以上; 未获得象棋大师以上称号」.
fn grade_rule(l: Lang, el: &arbiter_regulation::Eligibility) -> String {
    el.grade_rule(l == Lang::Zh).join("; ")
}

/// `POST /desk/e/{ev}/s/{sec}/entries`: register the entry. A mistake in the form (a field
/// that cannot be read, an ID number that is not one, a document not on the list) or an
/// entry the section's rules refuse shows the form again as typed, the error beside its
/// field; nothing is recorded — refusing is the arbiter's decision ([`refuse`]).
pub async fn add(
    State(app): State<AppState>,
    l: Lang,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::Register, HashMap<String, String>>,
) -> Result<Response, WebError> {
    let mut typed = Typed::from_fields(&p.form);
    let form = match typed.entry_form(&sec) {
        Ok(f) => f,
        Err(e) => return again(&app, l, &p.auth, ev, sec, typed, e).await,
    };
    let done = write::apply_raw(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::Register {
            form,
            record_refusal: false,
        },
    )
    .await?;
    match done {
        Ok(a) => {
            let msg = match registered(&a.outcome) {
                Some((player, name)) => format!("已报名 registered: P{} {}", player.0, name),
                None => "已记录 (recorded)".into(),
            };
            Ok(back(&path(&ev, &sec), Ok(msg)))
        }
        Err(e) => {
            let field = field_of(&e);
            typed.refuse_reason = match &e {
                arbiter_director::DirectorError::Refused(r) => match &**r {
                    arbiter_director::Refusal::NotEligible { why } => why.to_string(),
                    _ => typed.refuse_reason,
                },
                _ => typed.refuse_reason,
            };
            let msg = crate::refusal::words(&e);
            again(&app, l, &p.auth, ev, sec, typed, (field, msg)).await
        }
    }
}

/// The page again with the form as typed and the error beside `field`.
async fn again(
    app: &AppState,
    l: Lang,
    auth: &crate::auth::Authed,
    ev: String,
    sec: String,
    mut typed: Typed,
    (field, msg): (&'static str, String),
) -> Result<Response, WebError> {
    typed.hide_unshowable();
    typed.errors.push((field, msg));
    let es = EventSection::load(app, ev, sec).await?;
    render(
        l,
        auth,
        &es,
        Flash::default(),
        typed,
        StatusCode::UNPROCESSABLE_ENTITY,
        ListView {
            adding: true,
            ..ListView::default()
        },
    )
}

/// `POST /desk/e/{ev}/s/{sec}/refuse`: the arbiter refuses the entry typed in the form, with
/// the reason (`entry_refused`, the only recorded refusal).
pub async fn refuse(
    State(app): State<AppState>,
    l: Lang,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::RefuseEntry, HashMap<String, String>>,
) -> Result<Response, WebError> {
    let typed = Typed::from_fields(&p.form);
    let mut form = match typed.entry_form(&sec) {
        Ok(f) => f,
        Err(e) => return again(&app, l, &p.auth, ev, sec, typed, e).await,
    };
    form.late_reason = None;
    let reason = typed.refuse_reason.clone();
    let done = write::apply_raw(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::RefuseEntry { form, reason },
    )
    .await?;
    match done {
        Ok(_) => Ok(back(
            &path(&ev, &sec),
            Ok(format!(
                "已记录拒绝: {} (refusal recorded)",
                typed.name.trim()
            )),
        )),
        Err(e) => {
            let field = match field_of(&e) {
                "form" => "refuse_reason",
                f => f,
            };
            let msg = crate::refusal::words(&e);
            again(&app, l, &p.auth, ev, sec, typed, (field, msg)).await
        }
    }
}

#[derive(Deserialize)]
pub struct WithdrawRefusalForm {
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/s/{sec}/refusal/{seq}/withdraw`: the chief arbiter withdraws a refusal
/// recorded by mistake (`refusal_withdrawn`), with the reason.
pub async fn withdraw_refusal(
    State(app): State<AppState>,
    Path((ev, sec, seq)): Path<(String, String, u64)>,
    p: Post<crate::auth::WithdrawRefusal, WithdrawRefusalForm>,
) -> Result<Response, WebError> {
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::WithdrawRefusal {
            refusal: seq,
            reason: p.form.reason,
        },
    )
    .await?;
    Ok(back(
        &path(&ev, &sec),
        done.map(|_| format!("已撤销第 {seq} 条的拒绝报名 (refusal withdrawn)")),
    ))
}

#[derive(Deserialize)]
pub struct MergeForm {
    #[serde(default)]
    into: String,
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/s/{sec}/merge`: the chief arbiter merges the section into another before
/// the draw, with the reason (`sections_merged`); the desk goes on to the section it went
/// into. A refusal shows this page again, the form as posted and the director's words beside
/// it.
pub async fn merge(
    State(app): State<AppState>,
    l: Lang,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::MergeSections, MergeForm>,
) -> Result<Response, WebError> {
    let into = p.form.into.trim().to_string();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::MergeSections {
            from: sec.clone(),
            into: into.clone(),
            reason: p.form.reason.clone(),
        },
    )
    .await?;
    match done {
        Ok(_) => {
            let snap = app.snapshot(&ev).await?;
            let st = &snap.state;
            let name = |id: &str| st.section(id).map_or(id.to_string(), |s| s.name.clone());
            let to = st
                .section(&sec)
                .and_then(|s| s.merged_into.clone())
                .unwrap_or(into);
            let (from_name, to_name) = (name(&sec), name(&to));
            Ok(back(
                &path(&ev, &to),
                Ok(format!(
                    "已将{from_name}并入{to_name}: {from_name}的棋手均转入{to_name} ({from_name} merged into {to_name})"
                )),
            ))
        }
        Err(msg) => {
            let es = EventSection::load(&app, ev, sec).await?;
            render(
                l,
                &p.auth,
                &es,
                Flash::default(),
                Typed::default(),
                StatusCode::UNPROCESSABLE_ENTITY,
                ListView {
                    merge: MergeTyped {
                        into,
                        reason: Some(p.form.reason.trim().to_string())
                            .filter(|r| !unshowable(r))
                            .unwrap_or_default(),
                        err: Some(msg),
                    },
                    ..ListView::default()
                },
            )
        }
    }
}

#[derive(Deserialize)]
pub struct FeeForm {
    amount: Option<String>,
    /// The regulation's money item paid (「押金」); none: the first he still owes.
    item: Option<String>,
    /// The receipt number written on the slip, if any.
    receipt: Option<String>,
}

/// Yuan with at most two decimals as fen.
fn fen(s: &str) -> Option<u64> {
    let (y, f) = s.split_once('.').unwrap_or((s, ""));
    if y.is_empty() || f.len() > 2 || !y.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !f.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: u64 = y.parse().ok()?;
    let f: u64 = format!("{f:0<2}").parse().ok()?;
    y.checked_mul(100)?.checked_add(f)
}

async fn section_of_player(app: &AppState, ev: &str, pid: u32) -> Result<String, WebError> {
    let snap = app.snapshot(ev).await?;
    Ok(snap
        .state
        .player(PlayerId(pid))
        .map(|p| p.section.clone())
        .unwrap_or_default())
}

/// `POST /desk/e/{ev}/p/{pid}/fee` (amount: the regulation's fee unless given, in yuan).
pub async fn fee(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::TakePayment, FeeForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_player(&app, &ev, pid).await?);
    let amount = match opt(&p.form.amount) {
        None => None,
        Some(s) => match fen(&s) {
            Some(x) => Some(x),
            None => {
                return Ok(back(
                    &here,
                    Err(format!("金额 「{s}」 应为元, 至多两位小数 (expected yuan)")),
                ))
            }
        },
    };
    let receipt = opt(&p.form.receipt);
    let item = opt(&p.form.item);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        MoneyCommand::Pay {
            player: PlayerId(pid),
            item,
            amount_fen: amount,
            receipt,
        },
    )
    .await?;
    Ok(back_to_row(
        &here,
        pid,
        done.map(|a| {
            let Outcome::Money { moved, .. } = a.outcome else {
                return "已记录 (recorded)".into();
            };
            let Some(m) = moved.first() else {
                return "已记录 (recorded)".into();
            };
            let who = &m.who;
            match &m.item {
                // A money item of the regulation's `charges` is named with what was taken.
                Some(i) => format!("{who} 已缴「{i}」 {} (paid)", api::yuan(m.amount_fen)),
                // A part of the one fee paid says what is still owed.
                None if m.owed_fen() > 0 => format!("{who} 已收部分费用: {}", m.status()),
                None => format!("{who} 已缴费 (fee paid)"),
            }
        }),
    ))
}

#[derive(Deserialize)]
pub struct RefundForm {
    /// The deposit refunded (「押金」).
    item: Option<String>,
}

/// `POST /desk/e/{ev}/p/{pid}/refund`: give back all the player holds of a deposit.
pub async fn refund(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::Refund, RefundForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_player(&app, &ev, pid).await?);
    let item = opt(&p.form.item).unwrap_or_default();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        MoneyCommand::Refund {
            player: PlayerId(pid),
            item: Some(item.clone()),
            amount_fen: None,
            reason: None,
        },
    )
    .await?;
    Ok(back_to_row(
        &here,
        pid,
        done.map(|a| match a.outcome {
            Outcome::Money { moved, .. } => {
                let got: u64 = moved.iter().map(|m| m.amount_fen).sum();
                let who = moved.first().map_or("", |m| m.who.as_str());
                format!("{who} 已退还「{item}」 {} (refunded)", api::yuan(got))
            }
            _ => "已记录 (recorded)".into(),
        }),
    ))
}

/// After a fee or check-in: back to the list at the player's row (`#p12`), the message
/// below it, so a long list stays where the desk was.
fn back_to_row(list: &str, pid: u32, outcome: Result<String, String>) -> Response {
    let (k, msg) = match outcome {
        Ok(m) => ("ok", m),
        Err(m) => ("err", m),
    };
    let code = super::remember(msg);
    axum::response::Redirect::to(&format!("{list}?{k}={code}&row={pid}#p{pid}")).into_response()
}

/// `POST /desk/e/{ev}/p/{pid}/fee/cancel`: take back a fee recorded by mistake.
pub async fn cancel_fee(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::CancelFee, super::super::auth::login::Empty>,
) -> Result<Response, WebError> {
    take_back(
        &app,
        &ev,
        pid,
        &p.auth,
        MoneyCommand::CancelFee {
            player: PlayerId(pid),
        }
        .into(),
        "已撤销缴费 (fee cancelled)",
    )
    .await
}

/// `POST /desk/e/{ev}/p/{pid}/checkin/cancel`: take back a check-in recorded by mistake.
pub async fn cancel_check_in(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::CheckIn, super::super::auth::login::Empty>,
) -> Result<Response, WebError> {
    take_back(
        &app,
        &ev,
        pid,
        &p.auth,
        RegistrationCommand::CancelCheckIn {
            player: PlayerId(pid),
        }
        .into(),
        "已撤销签到 (check-in cancelled)",
    )
    .await
}

/// One player's fee or check-in taken back by the director's `op`; back at his row in the
/// list with `done` (or the refusal) beneath it.
async fn take_back(
    app: &AppState,
    ev: &str,
    pid: u32,
    auth: &crate::auth::Authed,
    cmd: Command,
    done: &'static str,
) -> Result<Response, WebError> {
    let here = path(ev, &section_of_player(app, ev, pid).await?);
    let outcome = write::apply(app, &event_id(ev), auth, cmd).await?;
    Ok(back_to_row(
        &here,
        pid,
        outcome.map(|a| {
            let who = match &a.outcome {
                Outcome::Player { who, .. } => who.clone(),
                Outcome::Money { moved, .. } => {
                    moved.first().map(|m| m.who.clone()).unwrap_or_default()
                }
                _ => String::new(),
            };
            format!("{who} {done}")
        }),
    ))
}

/// `POST /desk/e/{ev}/s/{sec}/many`: 缴费 or 签到 for every player ticked (`do=fee` or
/// `do=checkin`, `p=12&p=15…`), one append; those already done are left out and named.
pub async fn many(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::CheckIn, Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let here = path(&ev, &sec);
    let mut what = None;
    let mut players = Vec::new();
    let mut pledge = false;
    let mut all = false;
    for (k, v) in &p.form {
        match k.as_str() {
            "do" => what = Some(v.clone()),
            "pledge" => pledge = !v.is_empty(),
            "all" => all = !v.is_empty(),
            "p" => match v.trim().parse::<u32>() {
                Ok(n) => players.push(PlayerId(n)),
                Err(_) => {
                    return Ok(back(
                        &here,
                        Err(format!("棋手编号 「{v}」 不是数字 (bad player number)")),
                    ))
                }
            },
            _ => {}
        }
    }
    let fee = match what.as_deref() {
        Some("fee") => true,
        Some("checkin") => false,
        _ => {
            return Ok(back(
                &here,
                Err("请选择 缴费 或 签到 (choose fee or check-in)".into()),
            ))
        }
    };
    // 全选: every player of the section still playing, ticked or not (no script needed);
    // those who need nothing are left out by the command, as for ticked ones.
    if all {
        let (snap, _) = app.refresh(&event_id(&ev)).await?;
        players = snap
            .state
            .section(&sec)
            .map(|s| {
                s.entries
                    .iter()
                    .copied()
                    .filter(|p| {
                        snap.state
                            .player(*p)
                            .is_some_and(|r| r.withdrawn.is_none() && r.disqualified.is_none())
                    })
                    .collect()
            })
            .unwrap_or_default();
    }
    let first = players.first().map(|p| p.0);
    let chosen = players.clone();
    let cmd: Command = if fee {
        MoneyCommand::PayEach { players: chosen }.into()
    } else {
        RegistrationCommand::CheckInEach {
            players: chosen,
            pledge,
        }
        .into()
    };
    let done = write::apply(&app, &event_id(&ev), &p.auth, cmd).await?;
    let (msg, still, notes) = match done {
        // Refused as a whole: every tick stays, the refusal below the row it names.
        Err(e) => (Err(e), players.iter().map(|p| p.0).collect(), Vec::new()),
        Ok(a) => {
            let left: Vec<(u32, String)> = match &a.outcome {
                Outcome::Money { left_out, .. } | Outcome::LeftOut(left_out) => left_out
                    .iter()
                    // 全选 passes over those who need nothing without a word.
                    .filter(|(_, e)| !(all && needs_nothing(e)))
                    .map(|(p, e)| (p.0, crate::refusal::words(e)))
                    .collect(),
                _ => Vec::new(),
            };
            let n = a.entries.len();
            let mut m = if fee {
                format!("{n}人已缴费 ({n} fees paid)")
            } else {
                format!("{n}人已签到 ({n} checked in)")
            };
            if !left.is_empty() {
                m.push_str(&format!(
                    "; 未处理 {}人, 原因见其行下 ({} left out, why below their rows)",
                    left.len(),
                    left.len()
                ));
            }
            let still: Vec<u32> = left.iter().map(|(p, _)| *p).collect();
            (Ok(m), still, left)
        }
    };
    let Some(pid) = first else {
        return Ok(back(&here, msg));
    };
    let (k, m) = match msg {
        Ok(m) => ("ok", m),
        Err(m) => ("err", m),
    };
    let mut to = format!("{here}?{k}={}&row={pid}", super::remember(m));
    if !still.is_empty() {
        let t: Vec<String> = still.iter().map(u32::to_string).collect();
        to.push_str(&format!("&t={}", t.join(".")));
    }
    if all && k == "err" {
        to.push_str("&all=1");
    }
    if !notes.is_empty() {
        let kept = serde_json::to_string(&notes).map_err(|e| WebError::Internal(e.to_string()))?;
        to.push_str(&format!("&notes={}", super::remember(kept)));
    }
    to.push_str(&format!("#p{pid}"));
    Ok(axum::response::Redirect::to(&to).into_response())
}

/// A player a 批量 action leaves out because he needs nothing (paid, checked in already).
fn needs_nothing(e: &arbiter_director::DirectorError) -> bool {
    use arbiter_director::refusal::Refusal;
    matches!(
        e,
        arbiter_director::DirectorError::Refused(r)
            if matches!(**r, Refusal::FeePaid { .. } | Refusal::CheckedIn(_))
    )
}

#[derive(Deserialize)]
pub struct CheckinForm {
    /// The box 已签承诺书 ticked: he signed the regulation's pledge (T7).
    pledge: Option<String>,
}

/// `POST /desk/e/{ev}/p/{pid}/checkin` (`pledge`: the regulation's pledge is signed).
pub async fn checkin(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::CheckIn, CheckinForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_player(&app, &ev, pid).await?);
    let pledge = p.form.pledge.as_deref().is_some_and(|v| !v.is_empty());
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::CheckIn {
            player: PlayerId(pid),
            pledge: Some(pledge),
        },
    )
    .await?;
    Ok(back_to_row(
        &here,
        pid,
        done.map(|a| {
            let who = match &a.outcome {
                Outcome::Player { who, .. } => who.as_str(),
                _ => "",
            };
            format!("{who} 已签到 (checked in)")
        }),
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn yuan_to_fen() {
        assert_eq!(super::fen("120"), Some(12000));
        assert_eq!(super::fen("80.5"), Some(8050));
        assert_eq!(super::fen("80.05"), Some(8005));
        assert_eq!(super::fen("80.055"), None);
        assert_eq!(super::fen("-1"), None);
        assert_eq!(super::fen(".5"), None);
    }
}

#[derive(Deserialize)]
pub struct ApproveForm {
    evidence: Option<String>,
    late_reason: Option<String>,
}

/// The section of an online submission (for the page to go back to).
async fn section_of_submission(app: &AppState, ev: &str, n: u32) -> Result<String, WebError> {
    let snap = app.snapshot(ev).await?;
    Ok(snap
        .state
        .submissions
        .get(&n)
        .map(|s| s.section.clone())
        .unwrap_or_default())
}

/// `POST /desk/e/{ev}/sub/{n}/approve`: the normal registration with the submission's facts.
pub async fn approve(
    State(app): State<AppState>,
    Path((ev, n)): Path<(String, u32)>,
    p: Post<crate::auth::DecideSubmission, ApproveForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_submission(&app, &ev, n).await?);
    let late_reason = opt(&p.form.late_reason);
    let evidence = split_evidence(&p.form.evidence);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::Approve {
            submission: n,
            evidence,
            late_reason,
        },
    )
    .await?;
    let msg = done.map(|a| match registered(&a.outcome) {
        Some((player, name)) => format!(
            "网上报名 #{n} 已批准, 登记为 P{} {} (approved and registered)",
            player.0, name
        ),
        None => format!("网上报名 #{n} 已批准 (approved)"),
    });
    Ok(back(&here, msg))
}

#[derive(Deserialize)]
pub struct RefuseSubmissionForm {
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/sub/{n}/refuse`.
pub async fn refuse_submission(
    State(app): State<AppState>,
    Path((ev, n)): Path<(String, u32)>,
    p: Post<crate::auth::DecideSubmission, RefuseSubmissionForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, &section_of_submission(&app, &ev, n).await?);
    let reason = p.form.reason;
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::RefuseSubmission {
            submission: n,
            reason,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("网上报名 #{n} 已拒绝 (refused)")),
    ))
}

/// Evidence kinds from a form field (comma, Chinese comma or space separated).
fn split_evidence(s: &Option<String>) -> Vec<String> {
    opt(s)
        .map(|s| {
            s.split([',', '，', ' ', '、'])
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The player a command registered: his number and name.
fn registered(o: &Outcome) -> Option<(PlayerId, &str)> {
    match o {
        Outcome::Entries(es) => es.iter().find_map(|e| match e {
            Entered::Registered { player, name, .. } => Some((*player, name.as_str())),
            _ => None,
        }),
        _ => None,
    }
}
