//! `/desk`: the events; creating one from a bundled regulation or a pasted TOML file;
//! `/desk/e/{ev}`: an event's sections with their state and the way to each desk page.

use super::{back, csrf_field, e, event_id, opt, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Organisers, Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_store::EventStore;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use std::fmt::Write;

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

/// `GET /desk`.
pub async fn list(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let events = app.with_store(|st| Ok(st.list_events()?)).await?;
    let mut c = String::new();
    let _ = write!(c, "<h1>{}</h1>", l.t("赛事", "Events"));
    if events.is_empty() {
        let _ = write!(c, "<p>{}</p>", l.t("还没有赛事。", "No event yet."));
    } else {
        c.push_str("<ul class=\"cards\">");
        for ev in events.iter() {
            let _ = write!(
                c,
                "<li><a href=\"/desk/e/{id}\">{name}</a> <span class=\"muted\">{id}</span></li>",
                id = e(&ev.id.0),
                name = e(&ev.name)
            );
        }
        c.push_str("</ul>");
    }
    if auth.is(<Organisers as crate::auth::Roles>::ALLOWED) {
        let _ = write!(
            c,
            "<h2>{h}</h2><form method=\"post\" action=\"/desk/events\" class=\"stack\">{csrf}\
             <label>{p} <select name=\"preset\"><option value=\"\">{none}</option>",
            h = l.t("新建赛事", "New event"),
            csrf = csrf_field(&auth),
            p = l.t("内置规程", "Bundled regulation"),
            none = l.t("（使用下方粘贴的规程）", "(use the TOML below)"),
        );
        for (id, label, _) in PRESETS {
            let _ = write!(c, "<option value=\"{id}\">{}</option>", e(label));
        }
        let _ = write!(
            c,
            "</select></label>\
             <label>{t} <textarea name=\"toml\" rows=\"8\" placeholder=\"[event]\nname = …\"></textarea></label>\
             <label>{s} <input name=\"seed\" inputmode=\"numeric\" size=\"12\"></label>\
             <button type=\"submit\">{b}</button></form>",
            t = l.t(
                "或粘贴规程文件 (TOML)",
                "or paste a regulation file (TOML)"
            ),
            s = l.t("抽签种子 (可空)", "Seed (optional)"),
            b = l.t("创建赛事", "Create event"),
        );
    }
    Desk::new(l, &auth, l.t("裁判台", "Arbiters' desk"), "/desk")
        .flash(f)
        .render_html(StatusCode::OK, c)
}

#[derive(Deserialize)]
pub struct CreateForm {
    preset: Option<String>,
    toml: Option<String>,
    seed: Option<String>,
}

/// `POST /desk/events`.
pub async fn create(
    State(app): State<AppState>,
    p: Post<Organisers, CreateForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let (source, file_name) = match (opt(&f.preset), opt(&f.toml)) {
        (Some(id), _) => match PRESETS.iter().find(|(k, _, _)| *k == id) {
            Some((k, _, text)) => (text.to_string(), format!("{k}.toml")),
            None => {
                return Ok(back(
                    "/desk",
                    Err(format!(
                        "未知的内置规程 `{id}` (unknown bundled regulation)"
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
                        "抽签种子 `{s}` 应为非负整数 (the seed must be a whole number)"
                    )),
                ))
            }
        },
    };
    let (name, entries) = match arbiter_director::api::event::create(&source, &file_name, seed) {
        Ok(x) => x,
        Err(err) => {
            return Ok(back(
                "/desk",
                Err(format!("规程有误 (the regulation does not check): {err}")),
            ))
        }
    };
    match crate::write::create(&app, &name, p.auth.actor(), entries).await? {
        Ok(id) => Ok(Redirect::to(&format!("/desk/e/{id}")).into_response()),
        Err(msg) => Ok(back("/desk", Err(msg))),
    }
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
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{name}</h1><p class=\"muted\">{ev} · <a href=\"/e/{ev}\">{public}</a> · <a href=\"/desk/e/{ev}/log\">{log}</a> · <a href=\"/desk/e/{ev}/settings\">{settings}</a> · <a href=\"/desk/e/{ev}/teams\">{teams}</a> · <a href=\"/desk/e/{ev}/print\">{print}</a> · <a href=\"/desk/e/{ev}/import\">{import}</a> · <a href=\"/e/{ev}/entry\">{online}</a> ({pending} {waiting})</p>",
        name = e(st.name()),
        ev = e(&ev),
        public = l.t("公开页面", "public pages"),
        log = l.t("操作日志", "event log"),
        settings = l.t("赛事设置", "settings"),
        teams = l.t("队伍", "teams"),
        print = l.t("打印", "print"),
        import = l.t("导入报名表", "import entries"),
        online = l.t("网上报名表", "online entry form"),
        pending = st.pending(None).len(),
        waiting = l.t("条待审核", "pending"),
    );
    let _ = write!(
        c,
        "<table class=\"grid\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead><tbody>",
        l.t("组别", "Section"),
        l.t("报名", "Entries"),
        l.t("已编排轮次", "Rounds paired"),
        l.t("本轮成绩", "Results this round"),
    );
    for s in st.sections.values() {
        let entries = st.players(&s.id).len();
        let last = s.rounds.values().next_back();
        let progress = last.map_or("—".to_string(), |r| {
            let done = r.boards.iter().filter(|b| b.result.is_some()).count();
            format!("{done} / {}", r.boards.len())
        });
        let _ = write!(
            c,
            "<tr><td>{name}</td><td>{entries}</td><td>{rounds}</td><td>{progress}</td><td class=\"links\">\
             <a href=\"/desk/e/{ev}/s/{id}/entries\">{a}</a> \
             <a href=\"/desk/e/{ev}/s/{id}/round\">{b}</a> \
             <a href=\"/desk/e/{ev}/s/{id}/results\">{r}</a> \
             <a href=\"/desk/e/{ev}/s/{id}/knockout\">{ko}</a> \
             <a href=\"/e/{ev}/s/{id}/standings\">{s}</a></td></tr>",
            name = e(&s.name),
            rounds = s.last_round(),
            ev = e(&ev),
            id = e(&s.id),
            a = l.t("报名", "entries"),
            b = l.t("编排", "pairing"),
            r = l.t("录入成绩", "results"),
            ko = l.t("淘汰赛", "knockout"),
            s = l.t("名次", "standings"),
        );
    }
    c.push_str("</tbody></table>");
    Desk::new(l, &auth, st.name().to_string(), format!("/desk/e/{ev}"))
        .crumb(format!("/desk/e/{ev}"), st.name().to_string())
        .flash(f)
        .render_html(StatusCode::OK, c)
}
