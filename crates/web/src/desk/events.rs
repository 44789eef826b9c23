//! `/desk`: the events; creating one from a bundled regulation or a pasted TOML file;
//! `/desk/e/{ev}`: an event's sections with their state and the way to each desk page.

use super::{back, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_director::command::event::EventCommand;
use arbiter_store::EventStore;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

/// The regulations bundled with the program (the four reference events).
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "kunshan-2026",
        "昆山 2026 (Kunshan)",
        include_str!("../../../../regulations/kunshan-2026.toml"),
    ),
    (
        "suzhou-2025",
        "苏州 2025 (Suzhou)",
        include_str!("../../../../regulations/suzhou-2025.toml"),
    ),
    (
        "tianshui-2024",
        "天水 2024 (Tianshui)",
        include_str!("../../../../regulations/tianshui-2024.toml"),
    ),
    (
        "jiujiang-2020",
        "九江 2020 (Jiujiang)",
        include_str!("../../../../regulations/jiujiang-2020.toml"),
    ),
];

/// `/desk`: the events, and (for an organiser) the form to create one.
#[derive(Template)]
#[template(path = "desk/events.html")]
struct EventsPage<'a> {
    l: Lang,
    csrf: &'a str,
    /// Id and name of each event.
    events: Vec<(&'a str, &'a str)>,
    /// The account creates events.
    organiser: bool,
    /// Each bundled regulation: id, label and this edition's dates as suggested.
    presets: Vec<Preset>,
}

/// A bundled regulation on the new-event form, with this year's edition's dates.
struct Preset {
    id: &'static str,
    label: &'static str,
    name: String,
    start: String,
    end: String,
    deadline: String,
    age_on: String,
}

/// The bundled regulations with the dates of this year's edition (`edition_dates`).
fn presets(today: chrono::NaiveDate) -> Vec<Preset> {
    PRESETS
        .iter()
        .map(|(id, label, text)| {
            let s = arbiter_regulation::parse(text, &format!("{id}.toml"))
                .map(|r| arbiter_director::api::event::edition_dates(&r, today))
                .unwrap_or_default();
            let ds = |d: Option<chrono::NaiveDate>| d.map(|d| d.to_string()).unwrap_or_default();
            Preset {
                id,
                label,
                name: s.name.clone().unwrap_or_default(),
                start: ds(s.start),
                end: ds(s.end),
                deadline: s
                    .deadline
                    .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
                    .unwrap_or_default(),
                age_on: ds(s.age_on),
            }
        })
        .collect()
}

/// `GET /desk`.
pub async fn list(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let events = app.with_store(|st| Ok(st.list_events()?)).await?;
    let page = EventsPage {
        l,
        csrf: &auth.csrf,
        events: events
            .iter()
            .filter(|ev| auth.access.reaches(&ev.id.0))
            .map(|ev| (ev.id.0.as_str(), ev.name.as_str()))
            .collect(),
        organiser: auth.may(arbiter_director::permission::Action::CreateEvent),
        presets: presets(crate::write::now_at()?.1.date()),
    };
    Desk::new(l, &auth, l.t("裁判台", "Arbiters' desk"), "/desk")
        .flash(f)
        .render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct CreateForm {
    preset: Option<String>,
    toml: Option<String>,
    seed: Option<String>,
    /// This edition's name and dates (given with a bundled regulation).
    name: Option<String>,
    start: Option<String>,
    end: Option<String>,
    deadline: Option<String>,
    age_on: Option<String>,
    /// Last edition's units placed in a team division (`units.{division}`, 昆山 五(一)).
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, String>,
}

impl CreateForm {
    /// The placed divisions' units as typed, by division id.
    fn placed_units(&self) -> std::collections::BTreeMap<String, String> {
        self.rest
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("units.")?.to_string(), v.clone())))
            .collect()
    }
}

/// The second step of creating an event from a bundled regulation: this edition's dates,
/// prefilled from the regulation's moved to this year.
#[derive(Template)]
#[template(path = "desk/edition.html")]
struct EditionPage<'a> {
    l: Lang,
    csrf: &'a str,
    preset: &'a str,
    label: &'a str,
    seed: String,
    name: String,
    /// The regulation's own dates, for comparison.
    was: String,
    start: String,
    end: String,
    deadline: String,
    age_on: String,
    /// The regulation counts ages or birth years.
    ages: bool,
    error: Option<String>,
    /// What the regulation leaves to be filled in for this edition (昆山 五(一): last
    /// edition's units placed in 甲组), and what happens while it is empty.
    notices: Vec<String>,
    /// The divisions placed from last edition's results: id, name, the units as typed.
    placed: Vec<(String, String, String)>,
}

/// The dates as typed, or the field's error.
fn edition_form(f: &CreateForm) -> Result<arbiter_director::api::event::SettingsForm, String> {
    use arbiter_import::roster::{parse_date, parse_local_time};
    let date = |field: &str, v: &Option<String>| match opt(v) {
        None => Ok(None),
        Some(s) => parse_date(&s)
            .map(Some)
            .ok_or_else(|| format!("{field}「{s}」应为 YYYY-MM-DD (bad date)")),
    };
    Ok(arbiter_director::api::event::SettingsForm {
        name: opt(&f.name),
        start: date("开始日期", &f.start)?,
        end: date("结束日期", &f.end)?,
        deadline: match opt(&f.deadline) {
            None => None,
            Some(s) => Some(parse_local_time(&s).ok_or_else(|| {
                format!("报名截止「{s}」应为 YYYY-MM-DD HH:MM (bad date and time)")
            })?),
        },
        age_on: date("年龄计算日期", &f.age_on)?,
        placed_units: f.placed_units(),
        ..Default::default()
    })
}

/// `POST /desk/events`.
pub async fn create(
    State(app): State<AppState>,
    l: Lang,
    p: Post<crate::auth::CreateEvent, CreateForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let (source, file_name) = match (opt(&f.preset), opt(&f.toml)) {
        (Some(id), _) => match PRESETS.iter().find(|(k, _, _)| *k == id) {
            Some((k, _, text)) => (text.to_string(), format!("{k}.toml")),
            None => {
                return Ok(back(
                    "/desk",
                    Err(format!(
                        "未知的内置规程 「{id}」 (unknown bundled regulation)"
                    )),
                ))
            }
        },
        (None, Some(text)) => (text, "上传的规程.toml".to_string()),
        (None, None) => {
            return Ok(back(
                "/desk",
                Err(
                    "请选择内置规程或粘贴规程文件 (choose a bundled regulation or paste one)"
                        .into(),
                ),
            ))
        }
    };
    let seed = match opt(&f.seed) {
        None => None,
        Some(s) => match s.parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                return Ok(back(
                    "/desk",
                    Err(format!(
                        "抽签种子 「{s}」 应为非负整数 (the seed must be a whole number)"
                    )),
                ))
            }
        },
    };
    let preset = opt(&f.preset);
    let (_, today) = crate::write::now_at()?;
    let settings = match &preset {
        // A bundled regulation is an earlier edition: this one's dates as given, or (none
        // given) as suggested — the regulation's moved to this year.
        // A request without the date fields (not the form's) creates the event as the
        // regulation says.
        Some(_)
            if f.start.is_none()
                && f.end.is_none()
                && f.deadline.is_none()
                && f.age_on.is_none()
                && f.placed_units().is_empty() =>
        {
            None
        }
        Some(id) => match edition_form(&f).map(|form| {
            // A field left empty: as suggested.
            let s = arbiter_regulation::parse(&source, &file_name)
                .map(|r| arbiter_director::api::event::edition_dates(&r, today.date()))
                .unwrap_or_default();
            arbiter_director::api::event::SettingsForm {
                name: form.name.or(s.name),
                start: form.start.or(s.start),
                end: form.end.or(s.end),
                deadline: form.deadline.or(s.deadline),
                age_on: form.age_on.or(s.age_on),
                ..form
            }
        }) {
            Ok(form) => Some(form),
            Err(m) => return edition_page(l, &p.auth, id, &source, &f, Some(m)),
        },
        None => None,
    };
    let cmd = EventCommand::Create {
        source: source.clone(),
        file_name,
        seed,
        settings,
    };
    match crate::write::create(&app, &p.auth, cmd).await? {
        Ok(id) => {
            // An account limited to named events reaches the event it made.
            if !p.auth.access.events.is_empty() {
                let mut access = p.auth.access.clone();
                access.events.push(id.to_string());
                let login = p.auth.actor().to_string();
                app.with_store(move |s| {
                    use arbiter_store::AccountStore;
                    Ok(s.set_access(&login, &access)?)
                })
                .await?;
            }
            Ok(Redirect::to(&format!("/desk/e/{id}")).into_response())
        }
        Err(err) => {
            if let Some(id) = &preset {
                let m = crate::refusal::words(&err);
                return edition_page(l, &p.auth, id, &source, &f, Some(m));
            }
            Ok(back(
                "/desk",
                Err(format!("规程有误 (the regulation does not check): {err}")),
            ))
        }
    }
}

/// The page asking for this edition's dates (prefilled unless typed).
fn edition_page(
    l: Lang,
    auth: &crate::auth::Authed,
    id: &str,
    source: &str,
    f: &CreateForm,
    error: Option<String>,
) -> Result<Response, WebError> {
    let reg = arbiter_regulation::parse(source, &format!("{id}.toml"))
        .map_err(|e| WebError::Internal(e.to_string()))?;
    let (_, now) = crate::write::now_at()?;
    let s = arbiter_director::api::event::edition_dates(&reg, now.date());
    let label = PRESETS
        .iter()
        .find(|(k, _, _)| *k == id)
        .map_or("", |(_, label, _)| *label);
    let or = |typed: &Option<String>, v: String| opt(typed).unwrap_or(v);
    let ds = |d: Option<chrono::NaiveDate>| d.map(|d| d.to_string()).unwrap_or_default();
    let was = format!(
        "{} — {}{}",
        reg.event.start,
        reg.event.end,
        reg.registration
            .deadline
            .map(|d| format!(", 报名截止 {}", d.format("%Y-%m-%d %H:%M")))
            .unwrap_or_default()
    );
    let page = EditionPage {
        l,
        csrf: &auth.csrf,
        preset: id,
        label,
        seed: opt(&f.seed).unwrap_or_default(),
        name: or(&f.name, s.name.clone().unwrap_or(reg.event.name.clone())),
        was,
        start: or(&f.start, ds(s.start)),
        end: or(&f.end, ds(s.end)),
        deadline: or(
            &f.deadline,
            s.deadline
                .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default(),
        ),
        age_on: or(&f.age_on, ds(s.age_on)),
        ages: s.age_on.is_some(),
        error,
        notices: reg.placement_units_missing(),
        placed: {
            let typed = f.placed_units();
            reg.placed_divisions()
                .iter()
                .map(|d| {
                    let units = typed
                        .get(&d.id)
                        .cloned()
                        .unwrap_or_else(|| d.units.join("、"));
                    (d.id.clone(), d.name.clone(), units)
                })
                .collect()
        },
    };
    let status = if page.error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    Desk::new(
        l,
        auth,
        l.t("本届赛事日期", "This edition's dates"),
        "/desk",
    )
    .render(status, &page)
}

/// `/desk/e/{ev}`: the event's sections with their state and the way to each desk page.
#[derive(Template)]
#[template(path = "desk/event.html")]
struct EventPage<'a> {
    l: Lang,
    ev: &'a str,
    name: &'a str,
    /// Online entries waiting for the desk.
    pending: usize,
    /// The account manages the event's accounts (the chief arbiter).
    accounts: bool,
    sections: Vec<SectionRow<'a>>,
    csrf: &'a str,
    /// The account may close the event now (its role; the director judges the state).
    may_close: bool,
    /// The account may reopen the closed event.
    may_reopen: bool,
}

/// One section of the event page.
struct SectionRow<'a> {
    id: &'a str,
    name: &'a str,
    entries: usize,
    /// Rounds paired.
    rounds: u32,
    /// Results in the last round (`done / boards`, `—` before round 1).
    progress: String,
}

/// `GET /desk/e/{ev}`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = &snap.state;
    let sections = st
        .sections
        .values()
        .map(|s| SectionRow {
            id: &s.id,
            name: &s.name,
            entries: st.players(&s.id).len(),
            rounds: s.last_round(),
            progress: s.rounds.values().next_back().map_or("—".to_string(), |r| {
                let done = r.boards.iter().filter(|b| b.result.is_some()).count();
                format!("{done} / {}", r.boards.len())
            }),
        })
        .collect();
    let page = EventPage {
        l,
        ev: &ev,
        name: st.name(),
        pending: st.pending(None).len(),
        accounts: auth.may(arbiter_director::permission::Action::ManageAccounts),
        sections,
        csrf: &auth.csrf,
        may_close: !st.closed && auth.may(arbiter_director::permission::Action::CloseEvent),
        may_reopen: st.closed && auth.may(arbiter_director::permission::Action::Reopen),
    };
    Desk::new(l, &auth, st.name().to_string(), format!("/desk/e/{ev}"))
        .event(&ev, st)
        .flash(f)
        .render(StatusCode::OK, &page)
}

/// `POST /desk/e/{ev}/close`: 闭幕 — the final standings, team standings and prizes fixed in
/// the log; refused while a section is not finished.
pub async fn close(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::CloseEvent, crate::auth::login::Empty>,
) -> Result<Response, WebError> {
    let done = crate::write::apply(&app, &event_id(&ev), &p.auth, EventCommand::Close).await?;
    Ok(back(
        &format!("/desk/e/{ev}"),
        done.map(|_| "赛事已闭幕: 名次与奖项已确定 (the event is closed)".to_string()),
    ))
}

#[derive(Deserialize)]
pub struct ReopenForm {
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/reopen`: the chief arbiter reopens a closed event, with the reason.
pub async fn reopen(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::Reopen, ReopenForm>,
) -> Result<Response, WebError> {
    let done = crate::write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        EventCommand::Reopen {
            reason: p.form.reason.clone(),
        },
    )
    .await?;
    Ok(back(
        &format!("/desk/e/{ev}"),
        done.map(|_| "赛事已重新开放 (the event is reopened)".to_string()),
    ))
}
