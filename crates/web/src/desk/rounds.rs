//! The rounds of a section at the desk: pair the next round (with fixed pairs and a swap,
//! the engine's explanation and the checker's warnings), publish, undo; the fast
//! result-entry grid (keyboard first, `desk.js`; plain forms without it); confirm the slips;
//! the chief arbiter's corrections with a reason.

use super::{back, csrf_field, e, event_id, opt, wants_json, Desk, Flash};
use crate::app::AppState;
use crate::auth::login::Empty;
use crate::auth::{Arbiters, Authed, ChiefArbiter, Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_director::api::results::{self as res, ResultInput};
use arbiter_director::api::rounds::{self as api, PairRequest};
use arbiter_store::Role;
use arbiter_types::{Colour, GameResult, PlayerNo};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

fn round_path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/round")
}

fn results_path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/results")
}

/// The sheet of the last round as a table (results column included).
fn sheet_table(l: Lang, sheet: &api::RoundSheet) -> String {
    let mut c = String::new();
    let _ = write!(
        c,
        "<table class=\"grid sheet\" id=\"sheet\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        l.t("台", "Board"),
        l.t("红方", "Red"),
        l.t("积分", "Pts"),
        l.t("成绩", "Result"),
        l.t("黑方", "Black"),
    );
    for b in &sheet.boards {
        let _ = write!(
            c,
            "<tr data-board=\"{n}\"><td>{n}</td><td>{rn}. {red}</td><td>{rs} : {bs}</td><td class=\"res\">{res}</td><td>{bn}. {black}</td></tr>",
            n = b.board,
            rn = b.red.no,
            red = e(&b.red.name),
            rs = b.red.score,
            bs = b.black.score,
            res = b.result.as_deref().map(e).unwrap_or_default(),
            bn = b.black.no,
            black = e(&b.black.name),
        );
    }
    c.push_str("</tbody></table>");
    if let Some(bye) = &sheet.bye {
        let _ = write!(
            c,
            "<p>{}: {}. {}</p>",
            l.t("轮空", "Bye"),
            bye.no,
            e(&bye.name)
        );
    }
    c
}

/// `GET /desk/e/{ev}/s/{sec}/round`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path((ev, sec)): Path<(String, String)>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    round_page(&app, l, &auth, &ev, &sec, f, None, StatusCode::OK).await
}

/// What a pairing told the arbiter.
struct Told {
    explanation: String,
    warnings: Vec<String>,
    notes: Vec<String>,
}

#[allow(clippy::too_many_arguments)]
async fn round_page(
    app: &AppState,
    l: Lang,
    auth: &Authed,
    ev: &str,
    sec: &str,
    f: Flash,
    told: Option<Told>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(ev)).await?;
    let st = &snap.state;
    let s = st
        .section(sec)
        .ok_or_else(|| WebError::NotFound(format!("组别 {sec} (section)")))?;
    let mut c = String::new();
    let _ = write!(c, "<h1>{} · {}</h1>", e(&s.name), l.t("编排", "Pairing"));
    if let Some(t) = &told {
        for w in &t.warnings {
            let _ = write!(
                c,
                "<p class=\"flash err\">{} {}</p>",
                l.t("检查:", "Check:"),
                e(w)
            );
        }
        for n in &t.notes {
            let _ = write!(c, "<p class=\"flash ok\">{}</p>", e(n));
        }
        if !t.explanation.is_empty() {
            let _ = write!(
                c,
                "<details open><summary>{}</summary><pre class=\"explain\">{}</pre></details>",
                l.t("编排说明", "Why these pairs"),
                e(&t.explanation)
            );
        }
    }
    let last = s.rounds.values().next_back();
    match api::current_sheet(st, sec) {
        Ok(sheet) => {
            let _ = write!(
                c,
                "<h2>{} {} {}</h2>",
                l.t("第", "Round"),
                sheet.round,
                if sheet.published {
                    l.t("轮 (已公布)", "(published)")
                } else {
                    l.t("轮 (未公布)", "(not published)")
                }
            );
            c.push_str(&sheet_table(l, &sheet));
        }
        Err(_) => {
            let _ = write!(
                c,
                "<p>{}</p>",
                l.t("尚未编排任何一轮。", "No round paired yet.")
            );
        }
    }
    let arb = auth.is(&[Role::ChiefArbiter, Role::Arbiter]);
    if arb {
        let csrf = csrf_field(auth);
        let open = last.is_some_and(|r| !r.completed);
        if last.is_some_and(|r| !r.published) {
            let _ = write!(
                c,
                "<form method=\"post\" action=\"/desk/e/{ev}/s/{sec}/publish\" class=\"inline\">{csrf}<button>{}</button></form>",
                l.t("公布对阵表", "Publish the pairing"),
                ev = e(ev),
                sec = e(sec)
            );
        }
        if open {
            let _ = write!(
                c,
                "<form method=\"post\" action=\"/desk/e/{ev}/s/{sec}/undo\" class=\"inline\">{csrf}\
                 <input name=\"reason\" placeholder=\"{r}\"><button>{b}</button></form>",
                r = l.t("撤销理由", "reason"),
                b = l.t("撤销本轮编排", "Undo this pairing"),
                ev = e(ev),
                sec = e(sec)
            );
        }
        let _ = write!(
            c,
            "<h2>{h}</h2><form method=\"post\" action=\"/desk/e/{ev}/s/{sec}/pair\" class=\"stack\">{csrf}\
             <label>{fx} <input name=\"fix\" placeholder=\"3-8, 5-12\"></label>\
             <label>{sw} <input name=\"swap\" placeholder=\"3 8\"></label>\
             <button type=\"submit\">{b}</button></form>",
            h = l.t("编排下一轮", "Pair the next round"),
            fx = l.t("指定对阵 (序号)", "Fixed pairs (numbers)"),
            sw = l.t("调换两名棋手 (序号)", "Swap two players (numbers)"),
            b = l.t("编排", "Pair"),
            ev = e(ev),
            sec = e(sec)
        );
    }
    let _ = write!(
        c,
        "<p><a href=\"{}\">{}</a></p>",
        e(&results_path(ev, sec)),
        l.t("录入成绩 →", "Enter results →")
    );
    Desk::new(
        l,
        auth,
        format!("{} · {}", s.name, l.t("编排", "Pairing")),
        round_path(ev, sec),
    )
    .crumb(format!("/desk/e/{ev}"), st.name().to_string())
    .crumb(
        round_path(ev, sec),
        format!("{} {}", s.name, l.t("编排", "pairing")),
    )
    .flash(f)
    .render_html(status, c)
}

#[derive(Deserialize)]
pub struct PairForm {
    fix: Option<String>,
    swap: Option<String>,
}

fn parse_request(f: &PairForm) -> Result<PairRequest, String> {
    let fixes: Vec<String> = opt(&f.fix)
        .map(|s| {
            s.split([',', '，', ';'])
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let fix = arbiter_director::manual::parse_fixes(&fixes)?;
    let swap = match opt(&f.swap) {
        None => None,
        Some(s) => {
            let nums: Vec<Option<PlayerNo>> = s
                .split(|c: char| c.is_whitespace() || c == ',' || c == '-')
                .filter(|x| !x.is_empty())
                .map(|x| x.parse::<u32>().ok().and_then(PlayerNo::new))
                .collect();
            match nums.as_slice() {
                [Some(a), Some(b)] => Some((*a, *b)),
                _ => {
                    return Err(format!(
                        "调换 `{s}`: 应为两个序号, 例如 3 8 (swap takes two pairing numbers)"
                    ))
                }
            }
        }
    };
    Ok(PairRequest { fix, swap })
}

/// `POST /desk/e/{ev}/s/{sec}/pair`: the page again, with the explanation and warnings.
pub async fn pair(
    State(app): State<AppState>,
    l: Lang,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Arbiters, PairForm>,
) -> Result<Response, WebError> {
    let req = match parse_request(&p.form) {
        Ok(r) => r,
        Err(msg) => return Ok(back(&round_path(&ev, &sec), Err(msg))),
    };
    let s2 = sec.clone();
    let done = write::apply_with(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        let o = api::pair_explained(st, ctx, &s2, &req)?;
        Ok((
            o.entries,
            Told {
                explanation: o.explanation,
                warnings: o.warnings.into_iter().chain(o.relaxed).collect(),
                notes: o.notes,
            },
        ))
    })
    .await?;
    match done {
        Ok((_, told)) => {
            let f = Flash::ok_now("已编排 (paired)");
            round_page(&app, l, &p.auth, &ev, &sec, f, Some(told), StatusCode::OK).await
        }
        Err(msg) => Ok(back(&round_path(&ev, &sec), Err(msg))),
    }
}

/// `POST /desk/e/{ev}/s/{sec}/publish`.
pub async fn publish(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Arbiters, Empty>,
) -> Result<Response, WebError> {
    let s2 = sec.clone();
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::publish(st, ctx, &s2)
    })
    .await?;
    Ok(back(
        &round_path(&ev, &sec),
        done.map(|_| "已公布对阵表 (pairing published)".to_string()),
    ))
}

#[derive(Deserialize)]
pub struct UndoForm {
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/s/{sec}/undo`.
pub async fn undo(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Arbiters, UndoForm>,
) -> Result<Response, WebError> {
    let (s2, reason) = (sec.clone(), p.form.reason);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        api::undo(st, ctx, &s2, &reason)
    })
    .await?;
    Ok(back(
        &round_path(&ev, &sec),
        done.map(|_| "已撤销本轮编排 (pairing undone)".to_string()),
    ))
}

/// `GET /desk/e/{ev}/s/{sec}/results`: the result-entry grid of the last round.
pub async fn grid(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path((ev, sec)): Path<(String, String)>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = &snap.state;
    let s = st
        .section(&sec)
        .ok_or_else(|| WebError::NotFound(format!("组别 {sec} (section)")))?;
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{} · {}</h1>",
        e(&s.name),
        l.t("录入成绩", "Results")
    );
    let sheet = match api::current_sheet(st, &sec) {
        Ok(x) => x,
        Err(err) => {
            let _ = write!(c, "<p>{}</p>", e(&err.to_string()));
            return Desk::new(l, &auth, s.name.clone(), results_path(&ev, &sec))
                .crumb(format!("/desk/e/{ev}"), st.name().to_string())
                .flash(f)
                .render_html(StatusCode::OK, c);
        }
    };
    let entered = sheet.boards.iter().filter(|b| b.result.is_some()).count();
    let _ = write!(
        c,
        "<p class=\"progress\" id=\"progress\" data-entered=\"{entered}\" data-total=\"{total}\">{} {} · <b>{entered} / {total}</b> {}</p>",
        l.t("第", "Round"),
        sheet.round,
        l.t("台已录入", "boards entered"),
        total = sheet.boards.len(),
    );
    let csrf = csrf_field(&auth);
    let arb = auth.is(&[Role::ChiefArbiter, Role::Arbiter]);
    if arb {
        let _ = write!(
            c,
            "<form method=\"post\" action=\"{action}\" class=\"entry\" id=\"entry\">{csrf}\
             <input type=\"hidden\" name=\"round\" value=\"{round}\">\
             <label>{bl} <input name=\"board\" id=\"board\" inputmode=\"numeric\" size=\"4\" required autofocus autocomplete=\"off\"></label>\
             <label>{rl} <select name=\"result\" id=\"result\">\
               <option value=\"1-0\">1 {rw}</option><option value=\"0-1\">0 {bw}</option><option value=\"=\">5 / = {dr}</option>\
               <option value=\"+-\">f {bf}</option><option value=\"-+\">F {rf}</option><option value=\"--\">d {df}</option></select></label>\
             <label>{fr} <input name=\"fouls_red\" id=\"fouls_red\" inputmode=\"numeric\" size=\"2\" value=\"0\"></label>\
             <label>{fb} <input name=\"fouls_black\" id=\"fouls_black\" inputmode=\"numeric\" size=\"2\" value=\"0\"></label>\
             <button type=\"submit\">{ok}</button></form>\
             <p class=\"muted keys\">{help}</p><p id=\"answer\" class=\"flash\" role=\"status\" hidden></p>",
            action = e(&results_path(&ev, &sec)),
            round = sheet.round,
            bl = l.t("台号", "Board"),
            rl = l.t("成绩", "Result"),
            rw = l.t("红胜", "red wins"),
            bw = l.t("黑胜", "black wins"),
            dr = l.t("和", "draw"),
            bf = l.t("黑方弃权 (红判胜)", "black forfeits"),
            rf = l.t("红方弃权 (黑判胜)", "red forfeits"),
            df = l.t("双方弃权", "both forfeit"),
            fr = l.t("红方犯规", "Red fouls"),
            fb = l.t("黑方犯规", "Black fouls"),
            ok = l.t("录入", "Enter"),
            help = l.t(
                "键盘: 输入台号, 回车, 再按一个键: 1 红胜 · 0 黑胜 · 5 或 = 和 · f 黑方弃权 · F 红方弃权 · d 双方弃权 · r / b 加一次红方 / 黑方犯规 · Esc 重来",
                "Keys: type the board, Enter, then one key: 1 red wins · 0 black wins · 5 or = draw · f black forfeits · F red forfeits · d both forfeit · r / b add a red / black foul · Esc starts again"
            ),
        );
    }
    c.push_str(&sheet_table(l, &sheet));
    if arb {
        let _ = write!(
            c,
            "<form method=\"post\" action=\"/desk/e/{ev}/s/{sec}/confirm\" class=\"inline\">{csrf}<input type=\"hidden\" name=\"round\" value=\"{r}\"><button>{b}</button></form>",
            ev = e(&ev),
            sec = e(&sec),
            r = sheet.round,
            b = l.t("签字确认本轮成绩", "Confirm this round's slips"),
        );
    }
    if auth.role() == Role::ChiefArbiter {
        let _ = write!(
            c,
            "<h2>{h}</h2><form method=\"post\" action=\"/desk/e/{ev}/s/{sec}/correct\" class=\"stack\">{csrf}\
             <label>{rd} <input name=\"round\" value=\"{round}\" size=\"3\" inputmode=\"numeric\"></label>\
             <label>{bd} <input name=\"board\" size=\"4\" inputmode=\"numeric\" required></label>\
             <label>{rs} <input name=\"result\" placeholder=\"1-0 0-1 = +- -+ --\" required size=\"6\"></label>\
             <label>{why} <input name=\"reason\" required></label><button>{b}</button></form>",
            h = l.t("更正成绩 (裁判长)", "Correct a result (chief arbiter)"),
            ev = e(&ev),
            sec = e(&sec),
            rd = l.t("轮次", "Round"),
            round = sheet.round,
            bd = l.t("台号", "Board"),
            rs = l.t("成绩", "Result"),
            why = l.t("理由", "Reason"),
            b = l.t("更正", "Correct"),
        );
    }
    let _ = write!(
        c,
        "<p><a href=\"/e/{ev}/s/{sec}/standings\">{}</a></p>",
        l.t("名次 →", "Standings →"),
        ev = e(&ev),
        sec = e(&sec)
    );
    Desk::new(
        l,
        &auth,
        format!("{} · {}", s.name, l.t("录入成绩", "Results")),
        results_path(&ev, &sec),
    )
    .crumb(format!("/desk/e/{ev}"), st.name().to_string())
    .crumb(
        results_path(&ev, &sec),
        format!("{} {}", s.name, l.t("成绩", "results")),
    )
    .flash(f)
    .render_html(StatusCode::OK, c)
}

/// A result as typed: the grid's one-key codes or the notation read from red's side.
pub fn parse_key(s: &str) -> Result<GameResult, String> {
    match s.trim() {
        "1" => Ok(GameResult::RedWin),
        "0" => Ok(GameResult::BlackWin),
        "5" => Ok(GameResult::Draw),
        "f" => Ok(GameResult::BlackForfeit),
        "F" => Ok(GameResult::RedForfeit),
        "d" => Ok(GameResult::DoubleForfeit),
        t => api::parse_result(t),
    }
}

fn count(s: &Option<String>, what: &str) -> Result<u32, String> {
    match opt(s) {
        None => Ok(0),
        Some(x) => x
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 20)
            .ok_or_else(|| format!("{what} `{x}` 应为 0–20 的整数 (expected a count)")),
    }
}

#[derive(Deserialize)]
pub struct EnterForm {
    round: Option<String>,
    board: String,
    result: String,
    fouls_red: Option<String>,
    fouls_black: Option<String>,
}

/// The grid's answer to its script.
#[derive(Serialize)]
pub struct EnterAnswer {
    pub ok: bool,
    pub message: String,
    pub board: Option<u32>,
    /// The result now stored on the board (after a refusal too: the value someone else
    /// entered first).
    pub stored: Option<String>,
    pub entered: usize,
    pub total: usize,
}

/// `POST /desk/e/{ev}/s/{sec}/results`.
pub async fn enter(
    State(app): State<AppState>,
    headers: HeaderMap,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Arbiters, EnterForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let parsed = (|| {
        let board = f
            .board
            .trim()
            .parse::<u32>()
            .map_err(|_| format!("台号 `{}` 应为正整数 (board number)", f.board.trim()))?;
        let round = match opt(&f.round) {
            None => None,
            Some(r) => Some(
                r.parse::<u32>()
                    .map_err(|_| format!("轮次 `{r}` 应为正整数 (round number)"))?,
            ),
        };
        let result = parse_key(&f.result)?;
        let mut input = ResultInput::new(board, result)
            .with_fouls(Colour::Red, count(&f.fouls_red, "红方犯规")?)
            .with_fouls(Colour::Black, count(&f.fouls_black, "黑方犯规")?);
        input.round = round;
        Ok::<_, String>(input)
    })();
    let outcome = match parsed {
        Err(msg) => Err(msg),
        Ok(input) => {
            let s2 = sec.clone();
            let board = input.board;
            let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
                res::enter_result(st, ctx, &s2, &input)
            })
            .await?;
            done.map(|_| board)
        }
    };
    if !wants_json(&headers) {
        return Ok(back(
            &results_path(&ev, &sec),
            outcome.map(|b| format!("第{b}台已录入 (board {b} entered)")),
        ));
    }
    let snap = app.snapshot(&ev).await?;
    let sheet = api::current_sheet(&snap.state, &sec).ok();
    let board = f.board.trim().parse::<u32>().ok();
    let stored = sheet.as_ref().and_then(|s| {
        s.boards
            .iter()
            .find(|b| Some(b.board) == board)
            .and_then(|b| b.result.clone())
    });
    let (entered, total) = sheet.as_ref().map_or((0, 0), |s| {
        (
            s.boards.iter().filter(|b| b.result.is_some()).count(),
            s.boards.len(),
        )
    });
    let (ok, message) = match outcome {
        Ok(b) => (true, format!("第{b}台已录入 (board {b} entered)")),
        Err(m) => (false, m),
    };
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::CONFLICT
    };
    Ok((
        status,
        Json(EnterAnswer {
            ok,
            message,
            board,
            stored,
            entered,
            total,
        }),
    )
        .into_response())
}

#[derive(Deserialize)]
pub struct RoundForm {
    round: Option<String>,
}

/// `POST /desk/e/{ev}/s/{sec}/confirm`.
pub async fn confirm(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<Arbiters, RoundForm>,
) -> Result<Response, WebError> {
    let round = opt(&p.form.round).and_then(|r| r.parse::<u32>().ok());
    let s2 = sec.clone();
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        res::confirm(st, ctx, &s2, round)
    })
    .await?;
    Ok(back(
        &results_path(&ev, &sec),
        done.map(|a| format!("已确认 {} 台 (slips confirmed)", a.entries.len())),
    ))
}

#[derive(Deserialize)]
pub struct CorrectForm {
    round: String,
    board: String,
    result: String,
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/s/{sec}/correct` (the chief arbiter only).
pub async fn correct(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<ChiefArbiter, CorrectForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let here = results_path(&ev, &sec);
    let (Ok(round), Ok(board)) = (f.round.trim().parse::<u32>(), f.board.trim().parse::<u32>())
    else {
        return Ok(back(
            &here,
            Err("轮次和台号应为正整数 (round and board are numbers)".into()),
        ));
    };
    let result = match parse_key(&f.result) {
        Ok(r) => r,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let (s2, reason) = (sec.clone(), f.reason);
    let done = write::apply(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        res::correct(st, ctx, &s2, round, board, result, &reason)
    })
    .await?;
    Ok(back(
        &here,
        done.map(|_| format!("第{round}轮第{board}台已更正 (result corrected)")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_results() {
        assert_eq!(parse_key("1"), Ok(GameResult::RedWin));
        assert_eq!(parse_key("0"), Ok(GameResult::BlackWin));
        assert_eq!(parse_key("5"), Ok(GameResult::Draw));
        assert_eq!(parse_key("="), Ok(GameResult::Draw));
        assert_eq!(parse_key("f"), Ok(GameResult::BlackForfeit));
        assert_eq!(parse_key("F"), Ok(GameResult::RedForfeit));
        assert_eq!(parse_key("-+"), Ok(GameResult::RedForfeit));
        assert!(parse_key("x").is_err());
    }

    #[test]
    fn pair_requests_parse() {
        let r = parse_request(&PairForm {
            fix: Some("3-8, 5-12".into()),
            swap: Some("1 2".into()),
        })
        .unwrap();
        assert_eq!(r.fix.len(), 2);
        assert!(r.swap.is_some());
        assert!(parse_request(&PairForm {
            fix: None,
            swap: Some("1".into())
        })
        .is_err());
    }
}
