//! The event's settings at the desk (`/desk/e/{ev}/settings`): name, dates and venue shown on
//! every page, the Swiss rounds and the slow games' time control (比赛用时) of each section (`event::change_settings`, logged as
//! `settings_changed`). Once round 1 is paired only the chief arbiter changes them, with a
//! reason — the director decides; the page passes whether the account is the chief arbiter.

use super::{back, csrf_field, e, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Arbiters, Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_director::api::event::{self as api, SettingsForm};
use arbiter_store::Role;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

pub fn path(ev: &str) -> String {
    format!("/desk/e/{ev}/settings")
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
    let started = st.sections.values().any(|s| s.last_round() > 0);
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{} · {}</h1><table class=\"grid\" id=\"settings-now\"><tbody>\
         <tr><th>{nl}</th><td>{name}</td></tr><tr><th>{dl}</th><td>{start} — {end}</td></tr>\
         <tr><th>{vl}</th><td>{venue}</td></tr>",
        e(st.name()),
        l.t("赛事设置", "Settings"),
        nl = l.t("名称", "Name"),
        name = e(&reg.event.name),
        dl = l.t("日期", "Dates"),
        start = reg.event.start,
        end = reg.event.end,
        vl = l.t("地点", "Venue"),
        venue = e(reg.event.venue.as_deref().unwrap_or("")),
    );
    for s in &reg.sections {
        if let Some(n) = s.format.rounds {
            let _ = write!(
                c,
                "<tr><th>{} · {}</th><td>{n}</td></tr>",
                e(&s.name),
                l.t("轮数", "rounds")
            );
        }
        if !s.time_controls.is_empty() {
            let v: Vec<String> = s.time_controls.iter().map(|t| e(&t.text())).collect();
            let _ = write!(
                c,
                "<tr><th>{} · {}</th><td>{}</td></tr>",
                e(&s.name),
                l.t("比赛用时", "time control"),
                v.join("<br>")
            );
        }
    }
    c.push_str("</tbody></table>");
    if started {
        let _ = write!(
            c,
            "<p class=\"warn\">{}</p>",
            l.t(
                "第1轮已编排: 只有裁判长可以更改设置, 并须说明理由。",
                "Round 1 is paired: only the chief arbiter changes settings, with a reason."
            )
        );
    }
    let can = auth.is(&[Role::ChiefArbiter, Role::Arbiter]);
    if can {
        let csrf = csrf_field(&auth);
        let mut rounds = String::new();
        for s in &reg.sections {
            if let Some(n) = s.format.rounds {
                let _ = write!(
                    rounds,
                    "<label>{} · {} <input name=\"rounds.{}\" value=\"{n}\" inputmode=\"numeric\"></label>",
                    e(&s.name),
                    l.t("轮数", "rounds"),
                    e(&s.id),
                );
            }
            let slow = api::slow_time_control(s)
                .map(|t| format!("{}+{}", t.minutes, t.increment_seconds))
                .unwrap_or_default();
            let _ = write!(
                rounds,
                "<label>{} · {} <input name=\"time.{}\" value=\"{slow}\" placeholder=\"60+30\"></label>",
                e(&s.name),
                l.t("慢棋用时 (分钟+每步加秒, 如 60+30)", "slow games (minutes+seconds a move, e.g. 60+30)"),
                e(&s.id),
            );
        }
        let _ = write!(
            c,
            "<h2>{h}</h2><form method=\"post\" action=\"{action}\" class=\"stack\" id=\"settings\">{csrf}\
             <label>{nl} <input name=\"name\" value=\"{name}\"></label>\
             <label>{sl} <input name=\"start\" value=\"{start}\"></label>\
             <label>{el} <input name=\"end\" value=\"{end}\"></label>\
             <label>{vl} <input name=\"venue\" value=\"{venue}\"></label>{rounds}\
             <label>{rl} <input name=\"reason\"></label><button type=\"submit\">{b}</button></form>",
            h = l.t("更改设置", "Change the settings"),
            action = e(&here),
            nl = l.t("名称", "Name"),
            name = e(&reg.event.name),
            sl = l.t("开始日期", "Start"),
            start = reg.event.start,
            el = l.t("结束日期", "End"),
            end = reg.event.end,
            vl = l.t("地点", "Venue"),
            venue = e(reg.event.venue.as_deref().unwrap_or("")),
            rl = l.t("理由 (第1轮编排后必填)", "Reason (required after round 1)"),
            b = l.t("保存", "Save"),
        );
    }
    Desk::new(
        l,
        &auth,
        format!("{} · {}", st.name(), l.t("设置", "Settings")),
        here.clone(),
    )
    .crumb(format!("/desk/e/{ev}"), st.name().to_string())
    .crumb(here, l.t("设置", "Settings"))
    .flash(f)
    .render_html(StatusCode::OK, c)
}

fn date(field: &str, v: Option<String>) -> Result<Option<chrono::NaiveDate>, String> {
    match v {
        None => Ok(None),
        Some(s) => arbiter_core::roster::parse_date(&s)
            .map(Some)
            .ok_or_else(|| format!("{field} `{s}` 应为 YYYY-MM-DD (bad date)")),
    }
}

/// `POST /desk/e/{ev}/settings`.
pub async fn change(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<Arbiters, HashMap<String, String>>,
) -> Result<Response, WebError> {
    let here = path(&ev);
    let f = &p.form;
    let get = |k: &str| opt(&f.get(k).cloned());
    let parsed = (|| -> Result<SettingsForm, String> {
        let mut rounds = BTreeMap::new();
        let mut time_controls = BTreeMap::new();
        for (k, v) in f {
            if let Some(sec) = k.strip_prefix("rounds.") {
                let v = v.trim();
                if v.is_empty() {
                    continue;
                }
                let n: u32 = v.parse().map_err(|_| {
                    format!("组别 `{sec}` 的轮数 `{v}` 应为正整数 (rounds: a number)")
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
            rounds,
            time_controls,
            reason: get("reason").unwrap_or_default(),
        })
    })();
    let form = match parsed {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::change_settings(st, ctx, &form)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| "赛事设置已更改 (settings changed)".to_string()),
    ))
}
