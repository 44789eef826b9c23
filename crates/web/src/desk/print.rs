//! `/desk/e/{ev}/print`: the printed documents of an event (the same `arbiter-report` model as
//! `arbiter print`) and its Excel/CSV exports (the same tables as `event export`), written by
//! `arbiter-documents`.
//!
//! - `GET /desk/e/{ev}/print` lists the documents and the downloads;
//!   `?doc=NAME[&section=S][&round=N]` returns the document as A4 HTML the browser prints,
//!   `&format=pdf` as an A4 PDF download, `&paper=a3` the wall pairings on A3 (as
//!   `arbiter print --paper a3`) (rendered on a blocking thread; a missing CJK font is
//!   a 503 page saying how to install one).
//! - `POST /desk/e/{ev}/print/officials`: the event's officials as the booklets print them
//!   (裁判长=张三, one role a line), recorded through the command table
//!   (`EventCommand::AppointOfficials`) by the organiser or the chief arbiter.
//! - `GET /desk/e/{ev}/export.xlsx`: every exported table, one workbook.
//! - `GET /desk/e/{ev}/csv/{file}`: one table as CSV (`<table id>.csv`, the names of
//!   `event export --format csv`).
//!
//! Personal data: ID numbers and phones are masked, as in every published copy. `organiser=1`
//! asks for the organiser's copy (`--organiser` of the CLI): given only to an organiser's
//! account, refused (403) to every other role.

use super::{back, event_id, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Authed, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_documents::tables;
use arbiter_report::{DocKind, Options, Paper, Privacy, Table};
use arbiter_store::Role;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use std::fmt::Write;

#[derive(Deserialize)]
pub struct PrintQuery {
    doc: Option<String>,
    section: Option<String>,
    round: Option<String>,
    format: Option<String>,
    organiser: Option<String>,
    paper: Option<String>,
    ok: Option<String>,
    err: Option<String>,
}

#[derive(Deserialize)]
pub struct ExportQuery {
    organiser: Option<String>,
}

const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// The privacy of a download: the organiser's copy only when asked for (`organiser=1`) by an
/// organiser's account; `None` (refused) for any other role that asks for it.
fn privacy(auth: &Authed, asked: Option<&str>) -> Option<Privacy> {
    let asked = matches!(asked.map(str::trim), Some("1" | "true" | "on" | "yes"));
    if !asked {
        return Some(Privacy::Published);
    }
    (auth.user.role == Role::Organiser).then_some(Privacy::Organiser)
}

/// The answer to anyone but an organiser asking for the organiser's copy.
fn refused() -> Response {
    page(
        StatusCode::FORBIDDEN,
        "无权操作: 含身份证号和电话的副本只给组委会账户 \
         (forbidden: the copy with ID numbers and phones is the organiser's alone)",
    )
}

fn page(status: StatusCode, msg: &str) -> Response {
    let body = crate::page::error_page(status, msg);
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        body,
    )
        .into_response()
}

/// `Content-Disposition: attachment` with an ASCII `filename` for old clients and the real
/// (Chinese) name in `filename*` (RFC 5987/6266: UTF-8, percent-encoded).
pub fn attachment(ascii: &str, name: &str) -> HeaderValue {
    let mut enc = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            enc.push(b as char);
        } else {
            let _ = write!(enc, "%{b:02X}");
        }
    }
    let ascii: String = ascii
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect();
    HeaderValue::from_str(&format!(
        "attachment; filename=\"{ascii}\"; filename*=UTF-8''{enc}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

fn download(content_type: &'static str, ascii: &str, name: &str, bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CONTENT_DISPOSITION, attachment(ascii, name)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        bytes,
    )
        .into_response()
}

/// A name for a file: the characters a file system refuses replaced.
fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if "<>:\"/\\|?*".contains(c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect()
}

fn report_lang(l: Lang) -> arbiter_report::Lang {
    if l.t("zh", "en") == "en" {
        arbiter_report::Lang::En
    } else {
        arbiter_report::Lang::Zh
    }
}

/// `GET /desk/e/{ev}/print[?doc=NAME&section=S&round=N&format=html|pdf&organiser=1]`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    headers: axum::http::HeaderMap,
    Query(q): Query<PrintQuery>,
) -> Result<Response, WebError> {
    let id = event_id(&ev);
    let (snap, _) = app.refresh(&id).await?;
    let Some(doc) = q.doc.as_deref().filter(|d| !d.trim().is_empty()) else {
        let flash = Flash {
            ok: q.ok,
            err: q.err,
        };
        return list(app, l, &auth, &ev, &headers, flash).await;
    };
    let kind = DocKind::parse(doc).map_err(|err| WebError::BadRequest(err.to_string()))?;
    let pdf = match q.format.as_deref().map(str::trim) {
        None | Some("" | "html") => false,
        Some("pdf") => true,
        Some(f) => {
            return Err(WebError::BadRequest(format!(
                "未知的格式 「{f}」, 可选 pdf 或 html (unknown format)"
            )))
        }
    };
    let paper = match q.paper.as_deref().map(str::trim) {
        None | Some("" | "a4" | "A4") => Paper::A4,
        Some("a3" | "A3") if kind == DocKind::WallPairings => Paper::A3,
        Some("a3" | "A3") => {
            return Err(WebError::BadRequest(format!(
                "A3 只用于张贴用对阵表, 不用于 {} (A3 is for the wall pairings)",
                kind.zh()
            )))
        }
        Some(p) => {
            return Err(WebError::BadRequest(format!(
                "未知的纸张 「{p}」, 可选 A4 或 A3 (unknown paper)"
            )))
        }
    };
    let round = match q.round.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => None,
        Some(r) => Some(r.parse::<u32>().map_err(|_| {
            WebError::BadRequest(format!("轮次 「{r}」 不是数字 (round must be a number)"))
        })?),
    };
    let privacy = match privacy(&auth, q.organiser.as_deref()) {
        Some(p) => p,
        None => return Ok(refused()),
    };
    // The result slips are the arbiter's: they carry each player's claim code and a QR code
    // of the claim page (`/e/{ev}/claim`) at the event's public address; the entry receipts
    // each player's check-in code and a QR code of the check-in page (`/e/{ev}/checkin`).
    let claims = match kind {
        DocKind::Slips | DocKind::EntryReceipts => {
            let (base, _) = crate::public::event::public_address(&app, &headers, &snap.event.0);
            Some(arbiter_report::ClaimCodes {
                secret: crate::claim::secret(&app, &snap.event.0).await?,
                url: match kind {
                    DocKind::EntryReceipts => format!("{base}/checkin"),
                    _ => format!("{base}/claim"),
                },
            })
        }
        _ => None,
    };
    let opts = Options {
        section: q.section.filter(|s| !s.trim().is_empty()),
        round,
        privacy,
        lang: report_lang(l),
        claims,
    };
    if !pdf {
        let html = tokio::task::spawn_blocking(move || {
            arbiter_report::build(&snap.state, kind, &opts).map(|mut d| {
                d.paper = paper;
                arbiter_report::html::render(&d)
            })
        })
        .await
        .map_err(|err| WebError::Internal(err.to_string()))?
        .map_err(|err| WebError::BadRequest(err.to_string()))?;
        return Ok(Html(html).into_response());
    }
    // Build, find the font and lay out on a blocking thread: a long document takes seconds.
    let section = opts.section.clone();
    let rendered = app
        .documents
        .run(crate::pool::DOCUMENT_WAIT, move || {
            let mut doc = arbiter_report::build(&snap.state, kind, &opts).map_err(|err| {
                (
                    StatusCode::BAD_REQUEST,
                    format!("请求有误: {err} (bad request)"),
                )
            })?;
            doc.paper = paper;
            let font = arbiter_documents::find_font_cached(None).map_err(|err| {
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("无法生成 PDF: {err}"),
                )
            })?;
            let bytes = arbiter_documents::pdf::render(&doc, &font)
                .map_err(|err| (StatusCode::INTERNAL_SERVER_ERROR, err))?;
            Ok::<_, (StatusCode, String)>((doc, bytes))
        })
        .await;
    let (doc, bytes) = match rendered {
        Ok(Ok(r)) => r,
        Ok(Err((status, msg))) => return Ok(page(status, &msg)),
        Err(_) => return Ok(busy(l)),
    };
    let mut name = format!("{}-{}", doc.event_name, l.t(kind.zh(), kind.en()));
    let mut ascii = kind.name().to_string();
    if let Some(s) = &section {
        let _ = write!(name, "-{s}");
        let _ = write!(ascii, "-{s}");
    }
    if let Some(r) = round {
        let _ = write!(name, "-{}", l.t(&format!("第{r}轮"), &format!("round{r}")));
        let _ = write!(ascii, "-{r}");
    }
    if paper == Paper::A3 {
        name.push_str("-A3");
        ascii.push_str("-a3");
    }
    if privacy == Privacy::Organiser {
        name.push_str(l.t("-组委会用", "-organiser"));
        ascii.push_str("-organiser");
    }
    Ok(download(
        "application/pdf",
        &format!("{ascii}.pdf"),
        &format!("{}.pdf", file_safe(&name)),
        bytes,
    ))
}

/// The answer while the server makes as many documents as it may: 503 with `Retry-After`.
fn busy(l: Lang) -> Response {
    let mut r = page(
        StatusCode::SERVICE_UNAVAILABLE,
        l.t(
            "服务器正在生成其他文件, 请稍后再试 (the server is making other documents; try again in a moment)",
            "The server is making other documents; try again in a moment",
        ),
    );
    r.headers_mut().insert(
        axum::http::header::RETRY_AFTER,
        axum::http::HeaderValue::from_static("10"),
    );
    r
}

/// `/desk/e/{ev}/print`: the documents (HTML and PDF) and the downloads (Excel, a CSV per
/// table).
#[derive(Template)]
#[template(path = "desk/print.html")]
struct PrintPage<'a> {
    l: Lang,
    ev: &'a str,
    /// Each document's name, label, and whether it carries ID numbers (the check-in list,
    /// the prize receipts: an organiser also gets the copy with them in full).
    docs: Vec<(&'static str, &'static str, bool)>,
    organiser: bool,
    /// The CSV files, one a table.
    csv: Vec<String>,
    /// The pickers: each section's id and name; the rounds paired (1..=n of the section that
    /// has paired the most).
    sections: Vec<(String, String)>,
    rounds: Vec<u32>,
    /// The public address of the event (in the QR code), and whether the server was given it
    /// (`--public-url`) or it is the address this browser reached.
    public_url: String,
    configured: bool,
    csrf: &'a str,
    /// The officials as recorded (role, names), and the same as the form's lines
    /// (`裁判长=张三`); whether the account records them (organiser, chief arbiter).
    officials: Vec<(String, Vec<String>)>,
    officials_text: String,
    appoints: bool,
}

/// The list of documents (HTML and PDF) and downloads (Excel, a CSV per table).
async fn list(
    app: AppState,
    l: Lang,
    auth: &Authed,
    ev: &str,
    headers: &axum::http::HeaderMap,
    flash: Flash,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(ev)).await?;
    let title = snap.title().to_string();
    let officials = arbiter_director::api::officials::by_role(&snap.state);
    let officials_text = officials
        .iter()
        .map(|(role, names)| format!("{role}={}\n", names.join("、")))
        .collect();
    let closed = snap.state.closed;
    let (public_url, configured) =
        crate::public::event::public_address(&app, headers, &snap.event.0);
    let sections = snap
        .state
        .sections
        .values()
        .map(|s| (s.id.clone(), s.name.clone()))
        .collect();
    let last = snap
        .state
        .sections
        .values()
        .map(|s| s.last_round())
        .max()
        .unwrap_or(0);
    let names = tokio::task::spawn_blocking(move || {
        let mut notices = Vec::new();
        tables::tables(
            &snap.state,
            &tables::EXPORTED,
            None,
            Privacy::Published,
            &mut notices,
        )
        .map(|t| tables::csv_names(&t))
    })
    .await
    .map_err(|err| WebError::Internal(err.to_string()))?
    .map_err(|err| WebError::BadRequest(err.to_string()))?;
    let page = PrintPage {
        l,
        ev,
        docs: DocKind::ALL
            .iter()
            .map(|kind| (kind.name(), l.t(kind.zh(), kind.en()), kind.personal()))
            .collect(),
        organiser: auth.user.role == Role::Organiser,
        csv: names,
        sections,
        rounds: (1..=last).collect(),
        public_url,
        configured,
        csrf: &auth.csrf,
        officials,
        officials_text,
        appoints: auth.may(arbiter_director::permission::Action::AppointOfficials),
    };
    Desk::new(l, auth, l.t("打印", "Print"), format!("/desk/e/{ev}/print"))
        .crumb(format!("/desk/e/{ev}"), title)
        .closed_if(closed)
        .flash(flash)
        .render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct OfficialsForm {
    /// One role a line: `裁判长=张三`, several names separated by 、.
    #[serde(default)]
    officials: String,
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/print/officials`: record the officials typed (the whole list; empty:
/// taken back), then back to the print page.
pub async fn officials(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: crate::auth::Post<crate::auth::AppointOfficials, OfficialsForm>,
) -> Result<Response, WebError> {
    let here = format!("/desk/e/{ev}/print");
    let list = match arbiter_director::api::officials::parse_lines(p.form.officials.lines()) {
        Ok(list) => list,
        Err(line) => {
            return Ok(back(
                &here,
                Err(format!(
                    "「{line}」 应为 职务=姓名, 如 裁判长=张三, 每行一个职务 \
                     (one role a line: ROLE=NAMES)"
                )),
            ))
        }
    };
    let done = crate::write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        arbiter_director::command::event::EventCommand::AppointOfficials {
            officials: list,
            reason: p.form.reason,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|_| "已登记竞赛官员, 秩序册和成绩册将列出 (officials recorded)".to_string()),
    ))
}

/// The tables of `event export` for the event (every section, every round).
async fn event_tables(
    app: &AppState,
    ev: &str,
    privacy: Privacy,
) -> Result<(String, Vec<Table>), WebError> {
    let (snap, _) = app.refresh(&event_id(ev)).await?;
    tokio::task::spawn_blocking(move || {
        let mut notices = Vec::new();
        tables::tables(&snap.state, &tables::EXPORTED, None, privacy, &mut notices)
            .map(|t| (snap.state.name().to_string(), t))
    })
    .await
    .map_err(|err| WebError::Internal(err.to_string()))?
    .map_err(|err| WebError::BadRequest(err.to_string()))
}

/// `GET /desk/e/{ev}/export.xlsx[?organiser=1]`: every exported table, one workbook.
pub async fn xlsx(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, WebError> {
    let privacy = match privacy(&auth, q.organiser.as_deref()) {
        Some(p) => p,
        None => return Ok(refused()),
    };
    let (title, tables) = event_tables(&app, &ev, privacy).await?;
    let t = title.clone();
    let bytes = match app
        .documents
        .run(crate::pool::DOCUMENT_WAIT, move || {
            tables::xlsx(&tables, &t)
        })
        .await
    {
        Ok(b) => b.map_err(|err| WebError::Internal(err.to_string()))?,
        Err(_) => return Ok(busy(l)),
    };
    let (name, ascii) = match privacy {
        Privacy::Organiser => (
            format!(
                "{}-{}.xlsx",
                file_safe(&title),
                l.t("组委会用", "organiser")
            ),
            format!("{ev}-organiser.xlsx"),
        ),
        Privacy::Published => (format!("{}.xlsx", file_safe(&title)), format!("{ev}.xlsx")),
    };
    Ok(download(XLSX, &ascii, &name, bytes))
}

/// `GET /desk/e/{ev}/csv/{file}[?organiser=1]`: one table as CSV (UTF-8 with a BOM).
pub async fn csv(
    State(app): State<AppState>,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path((ev, file)): Path<(String, String)>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, WebError> {
    let privacy = match privacy(&auth, q.organiser.as_deref()) {
        Some(p) => p,
        None => return Ok(refused()),
    };
    let (_, tables) = event_tables(&app, &ev, privacy).await?;
    let names = tables::csv_names(&tables);
    let Some(i) = names.iter().position(|n| *n == file) else {
        return Err(WebError::NotFound(format!(
            "表格 「{file}」 不存在; 可选: {} (no such table)",
            names.join(", ")
        )));
    };
    let bytes = tables::csv(&tables[i]).map_err(|err| WebError::Internal(err.to_string()))?;
    let ascii: String = file
        .chars()
        .map(|c| if c.is_ascii() { c } else { '_' })
        .collect();
    Ok(download("text/csv; charset=utf-8", &ascii, &file, bytes))
}

/// `GET /desk/e/{ev}/entry-form.xlsx`: the unit entry form (报名表) of the event's regulation,
/// the file `arbiter template entry-form` writes and the import reads back.
pub async fn entry_form(
    State(app): State<AppState>,
    RequireRole(_auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let title = snap.title().to_string();
    let bytes = tokio::task::spawn_blocking(move || {
        let reg = arbiter_director::regulation_of(&snap.state)
            .map_err(|err| WebError::Internal(err.to_string()))?;
        arbiter_documents::entry_form::entry_form(&reg, None)
            .map_err(|err| WebError::Internal(err.to_string()))
    })
    .await
    .map_err(|err| WebError::Internal(err.to_string()))??;
    Ok(download(
        XLSX,
        &format!("{ev}-entry-form.xlsx"),
        &format!("{}-报名表.xlsx", file_safe(&title)),
        bytes,
    ))
}
