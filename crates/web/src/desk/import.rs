//! `/desk/e/{ev}/import`: a unit's entry form (.xlsx, .xls or CSV in UTF-8 or GBK) uploaded at
//! the registration desk. 预检 (check) shows the report row by row and writes nothing; 导入
//! (import) registers every valid row through the same operation as `arbiter player import`
//! (`arbiter_director::api::import::import_roster`) and lists the rows not registered, with
//! row, column and cell. The file is read by `arbiter-import`, in a blocking task; a file
//! that cannot be read is reported with the reason, never a crash.

use super::{event_id, Desk};
use crate::app::AppState;
use crate::auth::session::check_csrf;
use crate::auth::token::ct_eq;
use crate::auth::{Authed, Refusal, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use crate::write::Applied;
use arbiter_director::api::import::{import_roster, ImportReport, ProblemKind, RowRegistered};
use arbiter_director::api::Ctx;
use arbiter_director::command::registration::RegistrationCommand;
use arbiter_director::command::Outcome;
use arbiter_director::permission::Action;
use askama::Template;
use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts, Multipart, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// Largest file accepted (an entry form of thousands of rows is far smaller).
pub const MAX_UPLOAD: usize = 16 << 20;

/// Uploads read and checked at once (the rest wait up to [`PARSE_WAIT`], then are answered
/// 503): one file of [`arbiter_import::MAX_FILE_ROWS`] bad rows takes a few hundred MB while it
/// is checked, so at most two are.
pub const MAX_PARSES: usize = 2;
/// How long an upload waits for its turn.
pub const PARSE_WAIT: std::time::Duration = std::time::Duration::from_secs(20);
/// Rows with problems listed on the page; the rest are counted.
pub const MAX_PROBLEMS_SHOWN: usize = 200;

static PARSES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(MAX_PARSES);

/// Files kept after 预检 so that 导入 needs no second choice of the file: at most this many
/// for the whole server (the oldest goes first) …
pub const MAX_STASHED: usize = 8;
/// … of at most this many bytes together …
pub const MAX_STASH_BYTES: usize = 2 * MAX_UPLOAD;
/// … each for this long.
pub const STASH_TTL: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// A file kept after 预检, under a random token, for the account and event that checked it.
struct Stashed {
    token: String,
    login: String,
    ev: String,
    file_name: String,
    bytes: axum::body::Bytes,
    at: std::time::Instant,
}

static STASH: std::sync::Mutex<Vec<Stashed>> = std::sync::Mutex::new(Vec::new());

fn stash_lock() -> std::sync::MutexGuard<'static, Vec<Stashed>> {
    STASH
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Keep `bytes` for `login` at `ev`; its token. The oldest files go when the stash is full,
/// so memory stays bounded whatever visitors upload.
fn stash(login: &str, ev: &str, file_name: &str, bytes: axum::body::Bytes) -> String {
    let token = crate::auth::token::random_token();
    let mut st = stash_lock();
    st.retain(|s| s.at.elapsed() < STASH_TTL && !(s.login == login && s.ev == ev));
    while !st.is_empty()
        && (st.len() >= MAX_STASHED
            || st.iter().map(|s| s.bytes.len()).sum::<usize>() + bytes.len() > MAX_STASH_BYTES)
    {
        st.remove(0);
    }
    st.push(Stashed {
        token: token.clone(),
        login: login.to_string(),
        ev: ev.to_string(),
        file_name: file_name.to_string(),
        bytes,
        at: std::time::Instant::now(),
    });
    token
}

/// The file kept under `token` for `login` at `ev` (its name and bytes); `take` removes it.
fn stashed(token: &str, login: &str, ev: &str, take: bool) -> Option<(String, axum::body::Bytes)> {
    let mut st = stash_lock();
    st.retain(|s| s.at.elapsed() < STASH_TTL);
    let i = st
        .iter()
        .position(|s| ct_eq(&s.token, token) && s.login == login && s.ev == ev)?;
    let found = (st[i].file_name.clone(), st[i].bytes.clone());
    if take {
        st.remove(i);
    }
    Some(found)
}

/// `GET /desk/e/{ev}/import`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    crate::auth::RequireRole(auth, ..): crate::auth::RequireRole<Staff>,
    Path(ev): Path<String>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let c = form(l, &auth, &ev, &snap.state, None);
    page(l, &auth, &ev, snap.title(), StatusCode::OK, &c, None)
}

fn page(
    l: Lang,
    auth: &Authed,
    ev: &str,
    title: &str,
    status: StatusCode,
    content: &ImportPage,
    err: Option<String>,
) -> Result<Response, WebError> {
    Desk::new(
        l,
        auth,
        l.t("导入报名表", "Import entries"),
        format!("/desk/e/{ev}/import"),
    )
    .crumb(format!("/desk/e/{ev}"), title.to_string())
    .closed_if(content.closed)
    .error(err)
    .render(status, content)
}

/// `/desk/e/{ev}/import`: the upload form (and, after an upload, the report above it).
#[derive(Template)]
#[template(path = "desk/import.html")]
struct ImportPage<'a> {
    l: Lang,
    csrf: &'a str,
    ev: &'a str,
    /// Id and name of each section.
    sections: Vec<(&'a str, &'a str)>,
    report: Option<Report<'a>>,
    /// The file kept after 预检: its token and name (导入 then needs no file).
    kept: Option<(String, String)>,
    /// 「已报名的棋手按表更新」 ticked (kept from the upload before).
    update: bool,
    /// The event is closed (闭幕): the page says so, as every desk page of it does.
    closed: bool,
}

/// The report of an upload: a summary line, the rows not registered (row, column, cell,
/// reason) and the rows registered.
struct Report<'a> {
    /// `ok` or `err` (the summary's flash).
    class: &'static str,
    summary: String,
    problems: Vec<ProblemRow<'a>>,
    /// Problems past [`MAX_PROBLEMS_SHOWN`], counted and not listed.
    more: usize,
    registered: &'a [RowRegistered],
    /// The rows were registered (not a dry run).
    written: bool,
    /// The reader's notices (ignored columns, a header below a title row), worded as
    /// `arbiter player import` prints them (`arbiter_import::RosterError`'s display).
    notices: Vec<String>,
}

/// A row with a problem.
struct ProblemRow<'a> {
    row: usize,
    /// The column and the cell, as far as known.
    at: String,
    kind: &'static str,
    /// `name [section]: ` when the row names a player.
    who: String,
    message: &'a str,
}

/// The upload form (and, after an upload, the report above it).
fn form<'a>(
    l: Lang,
    auth: &'a Authed,
    ev: &'a str,
    state: &'a arbiter_core::EventState,
    report: Option<Report<'a>>,
) -> ImportPage<'a> {
    ImportPage {
        l,
        csrf: &auth.csrf,
        ev,
        sections: state
            .sections
            .values()
            .map(|s| (s.id.as_str(), s.name.as_str()))
            .collect(),
        report,
        kept: None,
        update: false,
        closed: state.closed,
    }
}

/// What the upload carried.
#[derive(Default)]
struct Upload {
    csrf: Option<String>,
    file_name: Option<String>,
    file: Option<axum::body::Bytes>,
    section: Option<String>,
    import: bool,
    /// The token of a file kept after 预检.
    kept: Option<String>,
    /// A row of a player already registered updates him (otherwise it is skipped).
    update: bool,
}

async fn read_upload(req: Request, auth: &Authed) -> Result<Upload, Refusal> {
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_UPLOAD).await.map_err(|_| {
        Refusal::BadForm(format!(
            "文件过大, 上限 {} MB (the file is larger than {} MB)",
            MAX_UPLOAD >> 20,
            MAX_UPLOAD >> 20
        ))
    })?;
    if !multipart {
        // A plain form (no file): its token is checked like any other form's.
        check_csrf(auth, &bytes)?;
        return Ok(Upload::default());
    }
    let req = Request::from_parts(parts, Body::from(bytes));
    let mut mp = Multipart::from_request(req, &())
        .await
        .map_err(|_| Refusal::BadCsrf)?;
    let mut up = Upload::default();
    while let Some(field) = mp
        .next_field()
        .await
        .map_err(|err| Refusal::BadForm(err.to_string()))?
    {
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let data = field
            .bytes()
            .await
            .map_err(|err| Refusal::BadForm(err.to_string()))?;
        let text = || String::from_utf8_lossy(&data).trim().to_string();
        match name.as_str() {
            "csrf" => up.csrf = Some(text()),
            "section" => up.section = Some(text()).filter(|s| !s.is_empty()),
            "mode" => up.import = text() == "import",
            "kept" => up.kept = Some(text()).filter(|s| !s.is_empty()),
            "update" => up.update = !text().is_empty(),
            "file" => {
                up.file_name = file_name;
                up.file = Some(data);
            }
            _ => {}
        }
    }
    match &up.csrf {
        Some(t) if ct_eq(t, &auth.csrf) => Ok(up),
        _ => Err(Refusal::BadCsrf),
    }
}

/// `POST /desk/e/{ev}/import` (multipart: `csrf`, `file`, `section`, `mode=check|import`).
pub async fn upload(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    req: Request,
) -> Result<Response, WebError> {
    let (mut parts, body) = req.into_parts();
    let auth = match Authed::from_request_parts(&mut parts, &app).await {
        Ok(a) => a,
        Err(r) => return Ok(r.into_response()),
    };
    // The file is read and checked only in one of the few slots: memory stays bounded
    // whatever arrives at once.
    let Ok(Ok(_slot)) = tokio::time::timeout(PARSE_WAIT, PARSES.acquire()).await else {
        return Ok(busy(l));
    };
    let up = match read_upload(Request::from_parts(parts, body), &auth).await {
        Ok(u) => u,
        Err(r) => return Ok(r.into_response()),
    };
    if !auth.may(Action::ImportRoster) {
        return Ok(Refusal::Forbidden {
            role: auth.role(),
            allowed: Action::ImportRoster.allowed(),
            action: Some(Action::ImportRoster),
        }
        .into_response());
    }
    let id = event_id(&ev);
    let (snap, _) = app.refresh(&id).await?;
    let title = snap.title().to_string();
    let chosen = up.file.filter(|b| !b.is_empty());
    // No file chosen: the one kept after 预检, if any (taken when imported).
    let kept = match (&chosen, &up.kept) {
        (None, Some(t)) => stashed(t, auth.actor(), &ev, up.import),
        _ => None,
    };
    if chosen.is_none() && kept.is_none() && up.kept.is_some() {
        let c = form(l, &auth, &ev, &snap.state, None);
        let msg = l.t(
            "预检的文件已不在服务器上 (已过期或已导入), 请重新选择文件 (the checked file is no longer kept: choose it again)",
            "The checked file is no longer kept: choose it again",
        );
        return page(
            l,
            &auth,
            &ev,
            &title,
            StatusCode::BAD_REQUEST,
            &c,
            Some(msg.into()),
        );
    }
    let (up_name, bytes) = match (chosen, kept) {
        (Some(b), _) => (up.file_name, Some(b)),
        (None, Some((n, b))) => (Some(n), Some(b)),
        (None, None) => (None, None),
    };
    let Some(bytes) = bytes else {
        let c = form(l, &auth, &ev, &snap.state, None);
        let msg = l.t("请选择报名表文件 (choose a file)", "Choose a file");
        return page(
            l,
            &auth,
            &ev,
            &title,
            StatusCode::BAD_REQUEST,
            &c,
            Some(msg.into()),
        );
    };
    let fname = up_name
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "upload".into());
    let fname2 = fname.clone();
    let bytes2 = bytes.clone();
    let read =
        tokio::task::spawn_blocking(move || arbiter_import::read_roster(&bytes2, &fname2, &[]))
            .await
            .map_err(|err| WebError::Internal(err.to_string()))?;
    let imported = match read {
        Ok(i) => i,
        Err(err) => {
            let c = form(l, &auth, &ev, &snap.state, None);
            let msg = format!("{err}; 未导入任何棋手 (nothing imported)");
            return page(
                l,
                &auth,
                &ev,
                &title,
                StatusCode::UNPROCESSABLE_ENTITY,
                &c,
                Some(msg),
            );
        }
    };
    let roster = std::sync::Arc::new(imported.roster);
    let section = up.section;
    let update = up.update;
    let (report, written) = if up.import {
        let r = roster.clone();
        let done = write::apply(
            &app,
            &id,
            &auth,
            RegistrationCommand::ImportRoster {
                roster: r,
                default_section: section,
                update_registered: update,
            },
        )
        .await?;
        match done {
            Ok(Applied {
                entries,
                outcome: Outcome::Imported(mut rep),
                ..
            }) => {
                rep.entries = entries;
                (rep, true)
            }
            Ok(_) => (Default::default(), true),
            Err(msg) => {
                let c = form(l, &auth, &ev, &snap.state, None);
                return page(
                    l,
                    &auth,
                    &ev,
                    &title,
                    StatusCode::CONFLICT,
                    &c,
                    Some(format!("{msg}; 未导入任何棋手 (nothing imported)")),
                );
            }
        }
    } else {
        let (_, local) = write::now_at()?;
        let ctx = Ctx::new(auth.actor(), auth.role(), local);
        let s2 = snap.clone();
        let r = roster.clone();
        let rep = tokio::task::spawn_blocking(move || {
            import_roster(
                &s2.state,
                &ctx,
                &r,
                section.as_deref(),
                update,
                &mut |_, _| {},
            )
        })
        .await
        .map_err(|err| WebError::Internal(err.to_string()))?;
        match rep {
            Ok(rep) => (rep, false),
            Err(err) => {
                let c = form(l, &auth, &ev, &snap.state, None);
                return page(
                    l,
                    &auth,
                    &ev,
                    &title,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &c,
                    Some(err.to_string()),
                );
            }
        }
    };
    let rep = report_of(l, &fname, imported.format.name(), &roster, &report, written);
    let (snap, _) = app.refresh(&id).await?;
    let mut c = form(l, &auth, &ev, &snap.state, Some(rep));
    c.update = update;
    // Checked and readable: kept, so that 导入 follows without choosing the file again.
    if !written && !report.header_broken {
        c.kept = Some((stash(auth.actor(), &ev, &fname, bytes), fname.clone()));
    }
    let status = if report.header_broken {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    page(l, &auth, &ev, &title, status, &c, None)
}

/// The answer while every slot is taken: 503 with `Retry-After`.
fn busy(l: Lang) -> Response {
    let msg = l.t(
        "正在处理其他报名表, 请稍后再试 (other entry files are being read; try again in a moment)",
        "Other entry files are being read; try again in a moment",
    );
    let mut r = (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        crate::page::error_page(StatusCode::SERVICE_UNAVAILABLE, msg),
    )
        .into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("10"));
    r
}

/// The report: a summary line, the rows not registered (row, column, cell, reason) and the
/// rows registered.
fn report_of<'a>(
    l: Lang,
    fname: &str,
    format: &str,
    roster: &arbiter_import::Roster,
    r: &'a ImportReport,
    written: bool,
) -> Report<'a> {
    let summary = if r.header_broken {
        l.t(
            "找不到表头行 (姓名 等列名)，未导入任何棋手。",
            "No header row (姓名 …) found: nothing imported.",
        )
        .to_string()
    } else if written {
        let updated = if r.updated() > 0 {
            format!("{}{}", l.t(", 已报名按表更新 ", ", updated "), r.updated())
        } else {
            String::new()
        };
        format!(
            "{fname}: {}{}{}{}{}{}{}{}{}{updated}",
            l.t("已报名 ", "registered "),
            r.registered.len(),
            l.t(" 人, 拒绝 ", ", refused "),
            r.refused(),
            l.t(" 人, 有错误未导入 ", ", rows not imported "),
            r.invalid_rows(),
            l.t(" 行, 已报名跳过 ", ", already registered (skipped) "),
            r.skipped(),
            l.t(" 行", ""),
        )
    } else {
        let updated = if r.updated() > 0 {
            format!("{}{}", l.t(", 将按表更新 ", ", would update "), r.updated())
        } else {
            String::new()
        };
        format!(
            "{}{fname} ({format}): {}{}{}{}{}{}{}{}{}{}{}{}{}{updated}{}",
            l.t("预检 ", "Check "),
            l.t("表头第 ", "header row "),
            roster.header_line,
            l.t(" 行, 数据 ", ", data rows "),
            roster.data_rows,
            l.t(" 行: 可报名 ", ": would register "),
            r.registered.len(),
            l.t(" 行, 有错误 ", ", invalid "),
            r.invalid_rows(),
            l.t(" 行, 将被拒绝 ", ", would be refused "),
            r.refused(),
            l.t(" 行, 已报名跳过 ", ", already registered (skipped) "),
            r.skipped(),
            l.t(" 行", ""),
            l.t("; 未写入任何数据", "; nothing written"),
        )
    };
    let class = if r.problems.iter().all(|p| {
        matches!(
            p.kind,
            ProblemKind::AlreadyRegistered | ProblemKind::Updated
        )
    }) && !r.header_broken
    {
        "ok"
    } else {
        "err"
    };
    let more = r.problems.len().saturating_sub(MAX_PROBLEMS_SHOWN);
    let problems = r
        .problems
        .iter()
        .take(MAX_PROBLEMS_SHOWN)
        .map(|p| ProblemRow {
            row: p.row,
            at: match (&p.column, &p.cell) {
                (Some(col), Some(cell)) => format!("{col} {cell}"),
                (Some(col), None) => col.clone(),
                _ => String::new(),
            },
            kind: match p.kind {
                ProblemKind::Invalid => l.t("错误, 未导入", "invalid"),
                ProblemKind::Refused if written => l.t("不符合报名条件, 已记录拒绝", "refused"),
                ProblemKind::Refused => l.t("不符合报名条件", "would be refused"),
                ProblemKind::AlreadyRefused => l.t("此前已拒绝", "already refused"),
                ProblemKind::AlreadyRegistered => {
                    l.t("已报名, 跳过", "already registered, skipped")
                }
                ProblemKind::Updated if written => {
                    l.t("已报名, 已更新", "already registered, updated")
                }
                ProblemKind::Updated => l.t("已报名, 将更新", "already registered, would update"),
            },
            who: match &p.who {
                Some((n, s)) => format!("{n} [{s}]: "),
                None => String::new(),
            },
            message: &p.message,
        })
        .collect();
    Report {
        class,
        summary,
        problems,
        more,
        registered: &r.registered,
        written,
        notices: roster.notices.iter().map(ToString::to_string).collect(),
    }
}
