//! One entry at the desk (`/desk/e/{ev}/p/{pid}`): what is registered (ID number and phone
//! masked), its corrections, absences and withdrawal; edit it with a reason
//! (`entries::correct`: the section's sex and age rules and the team rules are judged again by
//! the director), withdraw the player (`entries::withdraw`, A5) or excuse him from a round not
//! yet paired (`entries::absent`, 请假).

use super::{back, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_core::{PlayerId, PlayerRecord};
use arbiter_director::api::entries as api;
use arbiter_director::command::money::MoneyCommand;
use arbiter_director::command::registration::{self as reg_cmd, EditedEntry, RegistrationCommand};
use arbiter_director::command::Outcome;
use arbiter_types::{IdNumber, Person, Phone, Sex};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

pub fn path(ev: &str, pid: u32) -> String {
    format!("/desk/e/{ev}/p/{pid}")
}

/// `/desk/e/{ev}/p/{pid}`: one entry (ID number and phone masked), its withdrawal, absences
/// and corrections; the edit form (registration desk), excuse and withdraw (arbiters).
#[derive(Template)]
#[template(path = "desk/player.html")]
struct PlayerPage<'a> {
    l: Lang,
    csrf: &'a str,
    pid: u32,
    /// 「序号 3 张三」 after the draw, 「P12 张三」 before.
    title: &'a str,
    /// The pairing number, once drawn.
    num: Option<String>,
    p: &'a PlayerRecord,
    /// This page's path (the forms post below it).
    here: &'a str,
    section: &'a str,
    sex: &'static str,
    birth: String,
    id_number: String,
    phone: String,
    unit: &'a str,
    team: &'a str,
    /// 段位/称号 (empty: none).
    grade: &'a str,
    /// The regulation's grades, lowest first (the edit form's select; empty: no scale).
    grades: Vec<String>,
    status: &'static str,
    /// The rounds excused, comma-separated.
    absent: String,
    /// The account edits entries.
    registrar: bool,
    male: bool,
    female: bool,
    /// The next round to excuse from, when the account may excuse or withdraw the player.
    next_round: Option<u32>,
    /// The section's flags the edit form offers: `(flag, 中文, " checked" when held)`.
    flags: Vec<(String, String, &'static str)>,
    /// The deposits he owes or holds, with their refund conditions.
    deposits: Vec<DepositView>,
    /// The account marks refund conditions (the organiser, the chief arbiter).
    organiser: bool,
    /// The player is withdrawn or disqualified and the account may reinstate him (the chief
    /// arbiter, A16, A17).
    reinstate: bool,
    /// The player is not disqualified and the account may disqualify him (the chief arbiter,
    /// A17).
    disqualify: bool,
    /// The sections he may move to (换组), `(id, name)`: every other section, while neither
    /// his nor theirs is drawn and he plays on; empty hides the form.
    move_to: Vec<(String, String)>,
}

/// A deposit of the player's on his page: what he holds, its refund rule and the conditions
/// the organiser marks for him.
pub struct DepositView {
    /// 「押金」.
    pub name: String,
    /// 「条件满足即退还」.
    pub rule: &'static str,
    /// Owed by the regulation (exact yuan).
    pub due: String,
    /// Held now: paid less refunded (exact yuan).
    pub held: String,
    /// Each refund condition of it and whether it is marked for him.
    pub conditions: Vec<(String, bool)>,
}

/// The deposits `p` owes or holds money of, in the regulation's order.
pub fn deposits_of(st: &arbiter_core::EventState, p: &PlayerRecord) -> Vec<DepositView> {
    use arbiter_director::api::money::yuan_exact;
    st.dues(p)
        .into_iter()
        .filter(|d| d.kind == arbiter_regulation::ChargeKind::Deposit)
        .filter_map(|d| {
            let held = p.money.get(&d.name).map_or(0, |m| m.held_fen());
            (d.fen > 0 || held > 0).then(|| DepositView {
                rule: d.refund_at.map_or("", |r| r.zh()),
                due: yuan_exact(d.fen),
                held: yuan_exact(held),
                conditions: d
                    .refund_conditions
                    .iter()
                    .map(|c| (c.clone(), p.conditions.contains(c)))
                    .collect(),
                name: d.name,
            })
        })
        .collect()
}

/// `GET /desk/e/{ev}/p/{pid}`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path((ev, pid)): Path<(String, u32)>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = &snap.state;
    let p = st
        .player(PlayerId(pid))
        .ok_or_else(|| WebError::NotFound(format!("棋手 P{pid} (player)")))?;
    let sec_name = st
        .section(&p.section)
        .map_or(p.section.clone(), |s| s.name.clone());
    let here = path(&ev, pid);
    let arb = auth.may(arbiter_director::permission::Action::Withdraw) && p.withdrawn.is_none();
    let title = api::named(st, PlayerId(pid));
    let num = api::pairing_no(st, PlayerId(pid)).map(|n| n.to_string());
    let page = PlayerPage {
        l,
        csrf: &auth.csrf,
        pid,
        title: &title,
        num,
        p,
        here: &here,
        section: &sec_name,
        sex: p.person.sex.map_or("", |s| s.zh()),
        birth: p
            .person
            .birth_date
            .map(|d| d.to_string())
            .unwrap_or_default(),
        id_number: p.person.id_number_masked(),
        phone: p.person.phone_masked(),
        unit: p.person.unit.as_deref().unwrap_or(""),
        team: p.team.as_deref().unwrap_or(""),
        grade: p.grade.as_deref().unwrap_or(""),
        grades: arbiter_director::regulation_of(st)
            .map(|r| r.grades.scale.iter().map(|g| g.name.clone()).collect())
            .unwrap_or_default(),
        status: st.status(p.id).map_or("", |s| s.zh()),
        absent: p
            .absent
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        registrar: auth.may(arbiter_director::permission::Action::EditEntry),
        male: p.person.sex == Some(Sex::Male),
        female: p.person.sex == Some(Sex::Female),
        next_round: arb.then(|| st.section(&p.section).map_or(1, |s| s.last_round() + 1)),
        flags: reg_cmd::offered_flags(st, &p.section)
            .into_iter()
            .map(|(f, zh)| {
                let held = if p.flags.contains(&f) { " checked" } else { "" };
                (f, zh, held)
            })
            .collect(),
        deposits: deposits_of(st, p),
        organiser: auth.may(arbiter_director::permission::Action::MarkRefundCondition),
        reinstate: (p.withdrawn.is_some() || p.disqualified.is_some())
            && auth.may(arbiter_director::permission::Action::Reinstate),
        disqualify: p.disqualified.is_none()
            && auth.may(arbiter_director::permission::Action::Disqualify),
        move_to: movable_to(st, p),
    };
    Desk::new(l, &auth, title.clone(), here.clone())
        .event(&ev, st)
        .crumb(
            format!("/desk/e/{ev}/s/{}/entries", p.section),
            format!("{sec_name} {}", l.t("报名", "entries")),
        )
        .crumb(here.clone(), api::number_of(st, PlayerId(pid)))
        .flash(f)
        .render(StatusCode::OK, &page)
}

/// The sections `p` may be moved to before the draw (换组): the others not drawn, while his
/// own is not drawn and he plays on. The director judges the move; this only offers it.
fn movable_to(st: &arbiter_core::EventState, p: &PlayerRecord) -> Vec<(String, String)> {
    let undrawn = |id: &str| st.section(id).is_some_and(|s| s.order.is_empty());
    if p.withdrawn.is_some() || p.disqualified.is_some() || !undrawn(&p.section) {
        return Vec::new();
    }
    st.sections
        .values()
        .filter(|s| s.id != p.section && s.order.is_empty())
        .map(|s| (s.id.clone(), s.name.clone()))
        .collect()
}

/// The flags the forms offer for a section: its conditions, its categories' flags and the
/// flags that bar an entry, `(flag, 中文)` (the director's `section_offer`).
#[derive(Deserialize)]
pub struct EditForm {
    name: String,
    sex: Option<String>,
    birth: Option<String>,
    id_number: Option<String>,
    phone: Option<String>,
    unit: Option<String>,
    team: Option<String>,
    /// 段位/称号, present when the form shows the grade select.
    grade: Option<String>,
    #[serde(default)]
    reason: String,
    /// Present when the form shows the flag boxes (`flags_shown`), with one `flag.<name>` per
    /// box ticked.
    #[serde(flatten)]
    rest: std::collections::HashMap<String, String>,
}

/// The edit form, parsed: `None` in an ID number or phone keeps the one registered.
fn parse_edit(f: &EditForm) -> Result<EditedEntry, String> {
    let sex = match opt(&f.sex) {
        None => None,
        Some(s) => Some(
            arbiter_import::roster::parse_sex(&s)
                .ok_or_else(|| format!("性别 「{s}」 应为 男/女 (unknown sex)"))?,
        ),
    };
    let birth = match opt(&f.birth) {
        None => None,
        Some(s) => Some(
            arbiter_import::roster::parse_date(&s)
                .ok_or_else(|| format!("出生日期 「{s}」 应为 YYYY-MM-DD (bad date)"))?,
        ),
    };
    let id_number = match opt(&f.id_number) {
        None => None,
        Some(s) => Some(IdNumber::parse(&s).map_err(|e| e.to_string())?),
    };
    let phone = match opt(&f.phone) {
        None => None,
        Some(s) => Some(Phone::parse(&s).map_err(|e| e.to_string())?),
    };
    Ok(EditedEntry {
        person: Person {
            name: f.name.trim().to_string(),
            sex,
            birth_date: birth,
            id_number,
            phone,
            unit: opt(&f.unit),
            ..Person::default()
        },
        team: opt(&f.team),
        grade: f.grade.as_ref().map(|_| opt(&f.grade)),
        flags: f.rest.contains_key("flags_shown").then(|| {
            let mut v: Vec<String> = f
                .rest
                .keys()
                .filter_map(|k| k.strip_prefix("flag."))
                .map(str::to_string)
                .collect();
            v.sort();
            v
        }),
    })
}

/// `POST /desk/e/{ev}/p/{pid}/edit`.
pub async fn edit(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::EditEntry, EditForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, pid);
    let edited = match parse_edit(&p.form) {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let reason = p.form.reason.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::Edit {
            player: PlayerId(pid),
            edited,
            reason,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|a| format!("{} 报名信息已更正 (entry corrected)", who(&a.outcome))),
    ))
}

#[derive(Deserialize)]
pub struct WithdrawForm {
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/p/{pid}/withdraw`.
pub async fn withdraw(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::Withdraw, WithdrawForm>,
) -> Result<Response, WebError> {
    let reason = p.form.reason;
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::Withdraw {
            player: PlayerId(pid),
            reason,
        },
    )
    .await?;
    Ok(back(
        &path(&ev, pid),
        done.map(|a| format!("{} 已退赛 (withdrawn)", who(&a.outcome))),
    ))
}

/// `POST /desk/e/{ev}/p/{pid}/reinstate`: the chief arbiter reinstates a withdrawn player
/// (恢复参赛, A16), with the reason.
pub async fn reinstate(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::Reinstate, WithdrawForm>,
) -> Result<Response, WebError> {
    let reason = p.form.reason;
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::Reinstate {
            player: PlayerId(pid),
            reason,
        },
    )
    .await?;
    Ok(back(
        &path(&ev, pid),
        done.map(|a| format!("{} 已恢复参赛 (reinstated)", who(&a.outcome))),
    ))
}

#[derive(Deserialize)]
pub struct SectionForm {
    #[serde(default)]
    section: String,
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/p/{pid}/section`: move the player to another section before the draw
/// (换组), with the reason; his fees and check-in go with him.
pub async fn change_section(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::EditEntry, SectionForm>,
) -> Result<Response, WebError> {
    let SectionForm { section, reason } = p.form;
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::ChangeSection {
            player: PlayerId(pid),
            section,
            reason,
        },
    )
    .await?;
    Ok(back(
        &path(&ev, pid),
        done.map(|a| {
            format!(
                "{} 已换组, 缴费与签到随之转入 (moved to the new section, with fees and check-in)",
                who(&a.outcome)
            )
        }),
    ))
}

#[derive(Deserialize)]
pub struct DisqualifyForm {
    #[serde(default)]
    reason: String,
    /// The box 成绩作废 ticked: his results are void in this case.
    void_results: Option<String>,
}

/// `POST /desk/e/{ev}/p/{pid}/disqualify`: the chief arbiter disqualifies a player
/// (取消比赛资格, A17), with the reason.
pub async fn disqualify(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::Disqualify, DisqualifyForm>,
) -> Result<Response, WebError> {
    let void_results = p
        .form
        .void_results
        .as_deref()
        .is_some_and(|v| !v.is_empty());
    let reason = p.form.reason;
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::Disqualify {
            player: PlayerId(pid),
            reason,
            void_results,
        },
    )
    .await?;
    Ok(back(
        &path(&ev, pid),
        done.map(|a| format!("{} 已取消比赛资格 (disqualified)", who(&a.outcome))),
    ))
}

#[derive(Deserialize)]
pub struct AbsentForm {
    #[serde(default)]
    round: String,
    reason: Option<String>,
    /// The box 无故缺席 ticked: absent without leave (S7), which the regulation may make a
    /// withdrawal.
    without_leave: Option<String>,
}

/// `POST /desk/e/{ev}/p/{pid}/absent`.
pub async fn absent(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::RecordAbsence, AbsentForm>,
) -> Result<Response, WebError> {
    let here = path(&ev, pid);
    let round: u32 = match p.form.round.trim().parse() {
        Ok(r) => r,
        Err(_) => {
            return Ok(back(
                &here,
                Err(format!(
                    "轮次 「{}」 应为正整数 (the round is a number)",
                    p.form.round.trim()
                )),
            ))
        }
    };
    let reason = opt(&p.form.reason);
    let without_leave = p
        .form
        .without_leave
        .as_deref()
        .is_some_and(|v| !v.is_empty());
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RegistrationCommand::Absence {
            player: PlayerId(pid),
            round,
            reason,
            without_leave,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|a| {
            let who = who(&a.outcome);
            let mut m = if without_leave {
                format!("{who} 第{round}轮无故缺席已登记 (absent without leave in round {round})")
            } else {
                format!("{who} 第{round}轮请假已登记 (excused from round {round})")
            };
            if let Outcome::Player {
                withdrawn: Some(reason),
                ..
            } = &a.outcome
            {
                m.push_str(&format!("; 已退赛 (withdrawn): {reason}"));
            }
            m
        }),
    ))
}

#[derive(Deserialize)]
pub struct ConditionForm {
    /// The refund condition (「完成全部对局」).
    condition: Option<String>,
    /// `1` marks it met, `0` takes the mark back.
    met: Option<String>,
    /// `cash`: back to the cash report's table of conditions; else the player's page.
    back: Option<String>,
}

/// `POST /desk/e/{ev}/p/{pid}/condition`: mark (or take back) a refund condition of the
/// regulation's deposits for the player (`api::money::mark_condition`, the organiser's and
/// the chief arbiter's).
pub async fn condition(
    State(app): State<AppState>,
    Path((ev, pid)): Path<(String, u32)>,
    p: Post<crate::auth::MarkRefundCondition, ConditionForm>,
) -> Result<Response, WebError> {
    let here = match p.form.back.as_deref() {
        Some("cash") => format!("/desk/e/{ev}/cash"),
        _ => path(&ev, pid),
    };
    let Some(condition) = opt(&p.form.condition) else {
        return Ok(back(
            &here,
            Err("请选择退还条件 (choose a refund condition)".into()),
        ));
    };
    let met = match p.form.met.as_deref().map(str::trim) {
        Some("1") => true,
        Some("0") => false,
        other => {
            return Ok(back(
                &here,
                Err(format!(
                    "met 「{}」 应为 1 (已满足) 或 0 (取消) (met is 1 or 0)",
                    other.unwrap_or("")
                )),
            ))
        }
    };
    let c = condition.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        MoneyCommand::MarkCondition {
            player: PlayerId(pid),
            condition: c,
            met,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|a| {
            let who = who(&a.outcome);
            if met {
                format!("{who} 已确认退还条件「{condition}」 (condition marked)")
            } else {
                format!("{who} 已取消退还条件「{condition}」 (condition taken back)")
            }
        }),
    ))
}

/// The player a command was about, as the director named him.
fn who(o: &Outcome) -> &str {
    match o {
        Outcome::Player { who, .. } => who,
        _ => "",
    }
}
