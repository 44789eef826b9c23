//! The event's settings at the desk (`/desk/e/{ev}/settings`): name, dates and venue shown on
//! every page, the registration deadline and the date ages are counted on, the Swiss rounds and the slow games' time control (比赛用时) of each section (`event::change_settings`, logged as
//! `settings_changed`). Once round 1 is paired only the chief arbiter changes them, with a
//! reason — the director decides; the page passes whether the account is the chief arbiter.

use super::{back, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_director::api::event::{self as api, SettingsForm};
use arbiter_director::command::event::EventCommand;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use std::collections::{BTreeMap, HashMap};

pub fn path(ev: &str) -> String {
    format!("/desk/e/{ev}/settings")
}

/// `/desk/e/{ev}/settings`: the settings now, and (for arbiters) the form to change them.
#[derive(Template)]
#[template(path = "desk/settings.html")]
struct SettingsPage<'a> {
    l: Lang,
    csrf: &'a str,
    here: &'a str,
    /// The event's name as the log has it (the heading).
    event_name: &'a str,
    /// The regulation's name, dates and venue.
    name: &'a str,
    start: String,
    end: String,
    venue: &'a str,
    /// The registration deadline in force (`2026-07-23 18:00`), empty if none.
    deadline: String,
    /// Whether the deadline has passed (China time, now).
    deadline_passed: bool,
    /// The date ages are counted on, empty if the regulation counts no age.
    age_on: String,
    sections: Vec<SectionSettings<'a>>,
    /// The team divisions placed from last edition's results (昆山 五(一)): id, name and the
    /// units placed now (joined by 、, empty if none is filled in).
    placed: Vec<(String, String, String)>,
    /// What happens while a placed division's units are empty.
    notices: Vec<String>,
    /// Round 1 is paired.
    started: bool,
    /// The account may change the settings.
    can: bool,
}

/// One section's settings.
struct SectionSettings<'a> {
    id: &'a str,
    name: &'a str,
    /// The Swiss rounds (none in a format without them).
    rounds: Option<u32>,
    time_controls: Vec<String>,
    /// The slow games' time control as typed in the form (`60+30`).
    slow: String,
}

/// `GET /desk/e/{ev}/settings`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = snap.state.clone();
    let reg = tokio::task::spawn_blocking(move || arbiter_director::regulation_of(&st))
        .await
        .map_err(|e| WebError::Internal(e.to_string()))?
        .map_err(|e| WebError::Internal(e.to_string()))?;
    let st = &snap.state;
    let here = path(&ev);
    let page = SettingsPage {
        l,
        csrf: &auth.csrf,
        here: &here,
        event_name: st.name(),
        name: &reg.event.name,
        start: reg.event.start.to_string(),
        end: reg.event.end.to_string(),
        venue: reg.event.venue.as_deref().unwrap_or(""),
        deadline: reg
            .registration
            .deadline
            .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
            .unwrap_or_default(),
        deadline_passed: reg
            .registration
            .deadline
            .is_some_and(|d| write::now_at().is_ok_and(|(_, now)| d < now)),
        age_on: api::age_on_in_force(&reg, st)
            .map(|d| d.to_string())
            .unwrap_or_default(),
        sections: reg
            .sections
            .iter()
            .map(|s| SectionSettings {
                id: &s.id,
                name: &s.name,
                rounds: s.format.rounds,
                time_controls: s
                    .time_controls
                    .iter()
                    .map(|t| match l {
                        crate::i18n::Lang::Zh => t.text_zh(),
                        crate::i18n::Lang::En => t.text_en(),
                    })
                    .collect(),
                slow: api::slow_time_control(s)
                    .map(|t| format!("{}+{}", t.minutes, t.increment_seconds))
                    .unwrap_or_default(),
            })
            .collect(),
        placed: reg
            .placed_divisions()
            .iter()
            .map(|d| (d.id.clone(), d.name.clone(), d.units.join("、")))
            .collect(),
        notices: reg.placement_units_missing(),
        started: st.sections.values().any(|s| s.last_round() > 0),
        can: auth.may(arbiter_director::permission::Action::ChangeSettings),
    };
    Desk::new(
        l,
        &auth,
        format!("{} · {}", st.name(), l.t("设置", "Settings")),
        here.clone(),
    )
    .event(&ev, st)
    .crumb(here.clone(), l.t("设置", "Settings"))
    .flash(f)
    .render(StatusCode::OK, &page)
}

fn date(field: &str, v: Option<String>) -> Result<Option<chrono::NaiveDate>, String> {
    match v {
        None => Ok(None),
        Some(s) => arbiter_import::roster::parse_date(&s)
            .map(Some)
            .ok_or_else(|| format!("{field} 「{s}」 应为 YYYY-MM-DD (bad date)")),
    }
}

/// `POST /desk/e/{ev}/settings`.
pub async fn change(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::ChangeSettings, HashMap<String, String>>,
) -> Result<Response, WebError> {
    let here = path(&ev);
    let f = &p.form;
    let get = |k: &str| opt(&f.get(k).cloned());
    // Sections are named in the message as the arbiter knows them.
    let snap = app.snapshot(&ev).await?;
    let sec_name = |id: &str| {
        snap.section_title(crate::i18n::Lang::Zh, id)
            .unwrap_or_else(|| id.to_string())
    };
    let parsed = (|| -> Result<SettingsForm, String> {
        let mut rounds = BTreeMap::new();
        let mut time_controls = BTreeMap::new();
        let mut placed_units = BTreeMap::new();
        for (k, v) in f {
            if let Some(division) = k.strip_prefix("units.") {
                placed_units.insert(division.to_string(), v.clone());
            }
            if let Some(sec) = k.strip_prefix("rounds.") {
                let v = v.trim();
                if v.is_empty() {
                    continue;
                }
                let n: u32 = v.parse().map_err(|_| {
                    format!(
                        "组别「{}」的轮数 「{v}」 应为正整数 (rounds: a number)",
                        sec_name(sec)
                    )
                })?;
                rounds.insert(sec.to_string(), n);
            }
            if let Some(sec) = k.strip_prefix("time.") {
                if !v.trim().is_empty() {
                    time_controls.insert(sec.to_string(), v.trim().to_string());
                }
            }
        }
        Ok(SettingsForm {
            name: get("name"),
            start: date("开始日期", get("start"))?,
            end: date("结束日期", get("end"))?,
            venue: get("venue"),
            deadline: match get("deadline") {
                None => None,
                Some(s) => Some(arbiter_import::roster::parse_local_time(&s).ok_or_else(|| {
                    format!("报名截止 「{s}」 应为 YYYY-MM-DD HH:MM (bad date and time)")
                })?),
            },
            age_on: date("年龄计算日期", get("age_on"))?,
            rounds,
            time_controls,
            placed_units,
            reason: get("reason").unwrap_or_default(),
        })
    })();
    let form = match parsed {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        EventCommand::ChangeSettings { form },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|_| "赛事设置已更改 (settings changed)".to_string()),
    ))
}
