//! Players confirm their own results on the phone (选手确认成绩, issue 47): `GET/POST
//! /e/{ev}/claim`, public, no login.
//!
//! The pairing slip gives each player of a published round a code for his board and his
//! colour (`arbiter_director::claim::code`, under the event's secret that the store keeps
//! beside the log: `AccountStore::claim_secret`) and this page's address with the code. The
//! page finds the seat the code names (`claim::seat_of`) and shows the board — round, board,
//! the two names and units, never a person's data — with three buttons, 红胜 / 和 / 黑胜. A
//! tap is the director's command `GameCommand::ClaimResult`, recorded as the players
//! (`log_view::PHONE`); the director decides everything (agreement, the signing rule,
//! refusals). A code is its own authority: it is a secret of the form, so no other token is
//! asked for.
//!
//! Safeguards: every wrong code (unknown, or another board's than the page it came from)
//! counts against the client's address (an IPv6 client by its /64); after [`MAX_WRONG`]
//! within [`limit::WINDOW`] seconds the address waits before any code is checked (as
//! logins do: [`limit::wait`]). The body is at most [`MAX_BODY`] bytes. The page sets
//! `Referrer-Policy: no-referrer` (the code is in its address) and is revalidated, not
//! stored, as the public pages are (`no-cache`): a phone that wakes up on the page asks again.

use crate::app::AppState;
use crate::auth::limit;
use crate::auth::session::now;
use crate::auth::token::random_token;
use crate::desk::event_id;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::public::Layout;
use crate::write::{self, Writer};
use arbiter_core::EventState;
use arbiter_director::api::Role;
use arbiter_director::claim::{self, ClaimProblem, ClaimStatus, KoSeat, Seat};
use arbiter_director::command::games::GameCommand;
use arbiter_director::command::Outcome;
use arbiter_director::{DirectorError, Refusal};
use arbiter_store::AccountStore;
use arbiter_types::{Colour, GameResult};
use askama::Template;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

/// Wrong codes one address may try within [`limit::WINDOW`] before it waits.
pub const MAX_WRONG: u32 = 10;
/// Largest form body accepted (bytes).
pub const MAX_BODY: usize = 1024;

pub fn routes() -> Router<AppState> {
    Router::new().route("/e/{ev}/claim", get(show).post(post))
}

/// The phone pages write as the players (`log_view::PHONE`); they call only
/// `GameCommand::ClaimResult` here and `RegistrationCommand::CheckIn` on the check-in page
/// (`checkin.rs`), whose authority is the code, and act with the desk's role.
pub struct PhoneClaim;

impl Writer for PhoneClaim {
    fn actor(&self) -> &str {
        arbiter_director::log_view::PHONE
    }
    fn role(&self) -> Role {
        Role::Desk
    }
}

/// The page (`templates/claim.html`): the code form, or the board the code names.
#[derive(Template)]
#[template(path = "claim.html")]
struct ClaimPage {
    layout: Layout,
    ok: Option<String>,
    err: Option<String>,
    event_name: String,
    action: String,
    code: String,
    board: Option<BoardView>,
}

/// What a code names: a board of a round, or a knockout game.
#[derive(Debug, Clone)]
enum Found {
    Board(Seat),
    Game(KoSeat),
}

/// The board or knockout game a code names, as its player sees it.
struct BoardView {
    section_name: String,
    /// The head and the words of the seat's line (「轮次 · 台号」 / 「场次 · 局」).
    seat_head: String,
    seat: String,
    /// The fields the claim form sends back to name the board or game the page showed.
    hidden: Vec<(&'static str, String)>,
    /// What happens once both claim, in words.
    note: String,
    /// 「红方」 / 「黑方」: the side of the code's player.
    side: String,
    red: String,
    black: String,
    red_unit: String,
    black_unit: String,
    /// The board's result once in, in words.
    result: Option<String>,
    /// The player's own standing claim, in words.
    mine: Option<String>,
    /// Where the board's claims stand, in words.
    status: String,
    /// Claims are still taken (published, no result, not confirmed).
    open: bool,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CodeQuery {
    c: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ClaimForm {
    code: String,
    /// `red_win`, `draw` or `black_win`; empty: only look the code up.
    result: String,
    /// The board the page showed (a claim must come with that board's code).
    section: String,
    round: String,
    board: String,
    /// The knockout game the page showed (its match and game index).
    match_id: String,
    game: String,
}

/// The board or game the page showed, as the form sends it back.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expect {
    Board(String, u32, u32),
    Game(String, String, u32),
}

fn side_words(l: Lang, c: Colour) -> &'static str {
    match c {
        Colour::Red => l.t("红方", "red"),
        Colour::Black => l.t("黑方", "black"),
    }
}

fn result_words(l: Lang, r: GameResult) -> String {
    match l {
        Lang::En => match r {
            GameResult::RedWin => "red wins",
            GameResult::BlackWin => "black wins",
            GameResult::Draw => "draw",
            GameResult::RedForfeit => "red forfeits",
            GameResult::BlackForfeit => "black forfeits",
            GameResult::DoubleForfeit => "both forfeit",
        }
        .to_string(),
        Lang::Zh => r.zh().to_string(),
    }
}

fn board_view(l: Lang, st: &EventState, seat: &Seat) -> Option<BoardView> {
    let sec = st.section(&seat.section)?;
    let rd = sec.round(seat.round)?;
    let b = rd.board(seat.board)?;
    let name = |p| name_of(st, p);
    let unit = |p| unit_of(st, p);
    let signing = arbiter_director::regulation_of(st)
        .ok()
        .and_then(|r| r.event.result_signing);
    Some(BoardView {
        section_name: sec.name.clone(),
        seat_head: l.t("轮次 · 台号", "Round · board").to_string(),
        seat: match l {
            Lang::Zh => format!("第{}轮 第{}台", seat.round, seat.board),
            Lang::En => format!("Round {}, board {}", seat.round, seat.board),
        },
        hidden: vec![
            ("section", seat.section.clone()),
            ("round", seat.round.to_string()),
            ("board", seat.board.to_string()),
        ],
        note: l
            .t(
                "双方确认一致后成绩即录入, 由裁判确认本轮; 不一致时由裁判处理。",
                "When both players agree the result is entered for the officials to confirm; otherwise the officials decide.",
            )
            .to_string(),
        side: side_words(l, seat.side).to_string(),
        red: name(b.red),
        black: name(b.black),
        red_unit: unit(b.red),
        black_unit: unit(b.black),
        result: b.result.map(|r| result_words(l, r)),
        mine: b.claim(seat.side).map(|c| result_words(l, c.result)),
        status: status_words(l, claim::status(signing, b), b.result.is_some()),
        open: rd.published && b.result.is_none() && !b.confirmed,
    })
}

/// A player's name as his board shows it (empty when unknown).
fn name_of(st: &EventState, p: arbiter_core::PlayerId) -> String {
    st.player(p)
        .map(|x| x.person.name.clone())
        .unwrap_or_default()
}

/// A player's unit as his board shows it (empty when none).
fn unit_of(st: &EventState, p: arbiter_core::PlayerId) -> String {
    st.player(p)
        .and_then(|x| x.person.unit.clone())
        .unwrap_or_default()
}

/// The knockout game `seat` names, as its player sees it.
fn game_view(l: Lang, st: &EventState, seat: &KoSeat) -> Option<BoardView> {
    let sec = st.section(&seat.section)?;
    let g = claim::knockout_game(st, seat)?;
    let name = |p| name_of(st, p);
    let unit = |p| unit_of(st, p);
    let signing = arbiter_director::regulation_of(st)
        .ok()
        .and_then(|r| r.event.result_signing);
    let (red, black) = claim::knockout_claims(st, &seat.section, &seat.match_id, seat.game);
    let mine = match seat.side {
        Colour::Red => red,
        Colour::Black => black,
    };
    let board = match (g.due, l) {
        (Some((_, b)), Lang::Zh) => format!(" · 第{b}台"),
        (Some((_, b)), Lang::En) => format!(", board {b}"),
        (None, _) => String::new(),
    };
    let status = if g.result.is_none() && g.due.is_none() {
        l.t(
            "本局现在不是待下的对局, 不接受确认",
            "the game is not due: no claims",
        )
        .to_string()
    } else {
        status_words(l, claim::status_of(signing, red, black), g.result.is_some())
    };
    Some(BoardView {
        section_name: sec.name.clone(),
        seat_head: l.t("淘汰赛 · 局", "Knockout · game").to_string(),
        seat: format!("{}{board}", g.label),
        hidden: vec![
            ("section", seat.section.clone()),
            ("match_id", seat.match_id.clone()),
            ("game", seat.game.to_string()),
        ],
        note: l
            .t(
                "双方确认一致后本局成绩即录入; 不一致时由裁判处理。",
                "When both players agree the game's result is entered; otherwise the officials decide.",
            )
            .to_string(),
        side: side_words(l, seat.side).to_string(),
        red: name(g.red),
        black: name(g.black),
        red_unit: unit(g.red),
        black_unit: unit(g.black),
        result: g.result.map(|r| result_words(l, r)),
        mine: mine.map(|r| result_words(l, r)),
        status,
        open: g.result.is_none() && g.due.is_some() && !g.chooser,
    })
}

/// Where a board's or game's claims stand, in words.
fn status_words(l: Lang, status: ClaimStatus, result_in: bool) -> String {
    match status {
        _ if result_in => l.t("成绩已录入", "the result is in").to_string(),
        ClaimStatus::None => l.t("尚无确认", "no claim yet").to_string(),
        ClaimStatus::Waiting => l
            .t("等待对方确认", "waiting for the other player")
            .to_string(),
        ClaimStatus::Agreed(_) => l.t("双方一致", "both agree").to_string(),
        ClaimStatus::Disagree { .. } => l
            .t(
                "双方确认不一致, 已交裁判处理",
                "the claims disagree: the officials decide",
            )
            .to_string(),
        ClaimStatus::NotSigner { .. } => l
            .t(
                "按本赛事规程由负方签名确认, 已交裁判处理",
                "here the loser signs: the officials decide",
            )
            .to_string(),
    }
}

/// The event's secret for the codes: the stored one, or a fresh one stored now.
pub(crate) async fn secret(app: &AppState, ev: &str) -> Result<String, WebError> {
    let ev = ev.to_string();
    let fresh = random_token();
    app.with_store(move |st| Ok(st.claim_secret(&ev, &fresh)?))
        .await
}

/// The code of `seat` in event `ev`, as printed on the pairing slip.
pub async fn seat_code(app: &AppState, ev: &str, seat: &Seat) -> Result<String, WebError> {
    let s = secret(app, ev).await?;
    Ok(claim::code(s.as_bytes(), seat))
}

#[allow(clippy::too_many_arguments)]
async fn render(
    app: &AppState,
    l: Lang,
    ev: &str,
    status: StatusCode,
    code: &str,
    seat: Option<&Found>,
    ok: Option<String>,
    err: Option<String>,
) -> Result<Response, WebError> {
    let snap = app.snapshot(ev).await?;
    let st = &snap.state;
    let here = format!("/e/{ev}/claim");
    let page = ClaimPage {
        layout: Layout::plain(
            l,
            format!("{} · {}", l.t("确认成绩", "Confirm your result"), st.name()),
            here.clone(),
        ),
        ok,
        err,
        event_name: st.name().to_string(),
        action: here,
        code: seat.map(|_| code.to_string()).unwrap_or_default(),
        board: seat.and_then(|s| match s {
            Found::Board(s) => board_view(l, st, s),
            Found::Game(s) => game_view(l, st, s),
        }),
    };
    let body = page
        .render()
        .map_err(|e| WebError::Internal(e.to_string()))?;
    Ok(phone_page(status, body))
}

/// A phone page's response (a result or a check-in code): HTML, sent with no referrer (its
/// address holds the code) and never cached.
pub(crate) fn phone_page(status: StatusCode, body: String) -> Response {
    let mut resp = (status, [(header::CONTENT_TYPE, crate::page::HTML)], body).into_response();
    let h = resp.headers_mut();
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

/// The wait of `addr` before any code of a phone page (a result or a check-in code) is
/// checked: 429 in words once it has tried [`MAX_WRONG`] wrong codes within
/// [`limit::WINDOW`] seconds. The two pages count together.
pub(crate) async fn held(
    app: &AppState,
    addr: std::net::IpAddr,
) -> Result<Option<(StatusCode, String)>, WebError> {
    let key = wrong_key(&addr);
    let now = now();
    let wait = app
        .with_store(move |st| {
            Ok(limit::wait(
                st.failures(&key, now, limit::WINDOW)?,
                MAX_WRONG,
                now,
            ))
        })
        .await?;
    Ok(wait.map(|w| {
        (
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "确认码错误次数过多, 请 {w} 秒后再试 (too many wrong codes; try again in {w} s)"
            ),
        )
    }))
}

/// Count a wrong code against `addr`.
pub(crate) async fn count_wrong(app: &AppState, addr: std::net::IpAddr) -> Result<(), WebError> {
    let key = wrong_key(&addr);
    let now = now();
    app.with_store(move |st| {
        st.purge_failures(now, limit::WINDOW)?;
        st.record_failure(&key, now, limit::WINDOW)?;
        Ok(())
    })
    .await
}

fn wrong_key(addr: &std::net::IpAddr) -> String {
    format!("claim:{}", limit::client_net(addr))
}

/// A code tried from `addr`: the seat it names, or the refusal (the address's wait, or a
/// wrong code, which counts).
async fn lookup(
    app: &AppState,
    ev: &str,
    addr: std::net::IpAddr,
    code: &str,
    expect: Option<Expect>,
) -> Result<Result<Found, (StatusCode, String)>, WebError> {
    if let Some(wait) = held(app, addr).await? {
        return Ok(Err(wait));
    }
    let secret = secret(app, ev).await?;
    let snap = app.snapshot(ev).await?;
    // A board's code, else a knockout game's: each under its own label, so neither opens
    // the other.
    let st = &snap.state;
    let found = claim::seat_of(st, secret.as_bytes(), code)
        .map(Found::Board)
        .or_else(|| claim::knockout_seat_of(st, secret.as_bytes(), code).map(Found::Game));
    let problem = match (&found, &expect) {
        (None, _) => Some(ClaimProblem::UnknownCode),
        (Some(_), None) => None,
        (Some(Found::Board(s)), Some(Expect::Board(sec, r, b)))
            if (sec, r, b) == (&s.section, &s.round, &s.board) =>
        {
            None
        }
        (Some(Found::Game(s)), Some(Expect::Game(sec, m, g)))
            if (sec, m, g) == (&s.section, &s.match_id, &s.game) =>
        {
            None
        }
        (Some(_), Some(Expect::Board(..))) => Some(ClaimProblem::OtherBoard),
        (Some(_), Some(Expect::Game(..))) => Some(ClaimProblem::OtherGame),
    };
    match (found, problem) {
        (Some(seat), None) => Ok(Ok(seat)),
        (_, p) => {
            count_wrong(app, addr).await?;
            let words = p.map(|p| Refusal::Claim(p).to_string()).unwrap_or_default();
            Ok(Err((StatusCode::FORBIDDEN, words)))
        }
    }
}

/// `GET /e/{ev}/claim[?c=CODE]`: the code form, or the board the code names.
async fn show(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    Query(q): Query<CodeQuery>,
    client: crate::net::ClientInfo,
) -> Result<Response, WebError> {
    app.snapshot(&ev).await?;
    if q.c.trim().is_empty() {
        return render(&app, l, &ev, StatusCode::OK, "", None, None, None).await;
    }
    match lookup(&app, &ev, client.addr, &q.c, None).await? {
        Ok(seat) => {
            let code = claim::normalize(&q.c).unwrap_or_default();
            render(&app, l, &ev, StatusCode::OK, &code, Some(&seat), None, None).await
        }
        Err((status, m)) => render(&app, l, &ev, status, "", None, None, Some(m)).await,
    }
}

/// `POST /e/{ev}/claim`: look a code up (no `result`), or claim a result with it.
async fn post(
    State(app): State<AppState>,
    l: Lang,
    Path(ev): Path<String>,
    client: crate::net::ClientInfo,
    req: Request,
) -> Result<Response, WebError> {
    app.snapshot(&ev).await?;
    let bad = |m: &str| m.to_string();
    let Ok(bytes) = axum::body::to_bytes(req.into_body(), MAX_BODY).await else {
        let m = format!("表单过大, 至多 {MAX_BODY} 字节 (the form is too large)");
        return render(
            &app,
            l,
            &ev,
            StatusCode::PAYLOAD_TOO_LARGE,
            "",
            None,
            None,
            Some(m),
        )
        .await;
    };
    let Ok(f) = serde_urlencoded::from_bytes::<ClaimForm>(&bytes) else {
        let m = bad("表单无法读取 (malformed form)");
        return render(
            &app,
            l,
            &ev,
            StatusCode::BAD_REQUEST,
            "",
            None,
            None,
            Some(m),
        )
        .await;
    };
    let section = f.section.trim().to_string();
    let expect = match (
        f.round.trim().parse::<u32>(),
        f.board.trim().parse::<u32>(),
        f.game.trim().parse::<u32>(),
    ) {
        _ if section.is_empty() => None,
        (Ok(r), Ok(b), _) => Some(Expect::Board(section, r, b)),
        (_, _, Ok(g)) if !f.match_id.trim().is_empty() => {
            Some(Expect::Game(section, f.match_id.trim().to_string(), g))
        }
        _ => None,
    };
    let seat = match lookup(&app, &ev, client.addr, &f.code, expect).await? {
        Ok(s) => s,
        Err((status, m)) => return render(&app, l, &ev, status, "", None, None, Some(m)).await,
    };
    let code = claim::normalize(&f.code).unwrap_or_default();
    let result = match f.result.trim() {
        "" => {
            return render(&app, l, &ev, StatusCode::OK, &code, Some(&seat), None, None).await;
        }
        "red_win" => GameResult::RedWin,
        "draw" => GameResult::Draw,
        "black_win" => GameResult::BlackWin,
        _ => {
            let m = Refusal::Claim(ClaimProblem::NotAGameResult).to_string();
            return render(
                &app,
                l,
                &ev,
                StatusCode::UNPROCESSABLE_ENTITY,
                &code,
                Some(&seat),
                None,
                Some(m),
            )
            .await;
        }
    };
    let cmd = match &seat {
        Found::Board(s) => GameCommand::ClaimResult {
            seat: s.clone(),
            result,
        },
        Found::Game(s) => GameCommand::ClaimKnockout {
            seat: s.clone(),
            result,
        },
    };
    let done = write::apply_raw(&app, &event_id(&ev), &PhoneClaim, cmd).await?;
    let (status, ok, err) = match done {
        Ok(a) => {
            let words = match &a.outcome {
                Outcome::Claimed(c) => claimed_words(l, c.result, c.entered, c.status, false),
                Outcome::KnockoutClaimed(c) => {
                    claimed_words(l, c.result, c.entered, c.status, true)
                }
                _ => l.t("已收到 (received)", "received").to_string(),
            };
            (StatusCode::OK, Some(words), None)
        }
        Err(e) => (StatusCode::CONFLICT, None, Some(refused(&e))),
    };
    render(&app, l, &ev, status, &code, Some(&seat), ok, err).await
}

/// A refusal as the player reads it: the director's words, never a page of the desk.
fn refused(e: &DirectorError) -> String {
    e.to_string()
}

/// What a claim did, in the player's words (`knockout`: a knockout game's, which waits for
/// no round's confirmation).
fn claimed_words(
    l: Lang,
    result: GameResult,
    entered: Option<GameResult>,
    status: ClaimStatus,
    knockout: bool,
) -> String {
    let said = result_words(l, result);
    if let (Some(r), true) = (entered, knockout) {
        return match l {
            Lang::En => format!(
                "Both players agree: {} is entered for this game.",
                result_words(l, r)
            ),
            Lang::Zh => format!("双方确认一致, 本局成绩已录入: {}。", r.zh()),
        };
    }
    if let Some(r) = entered {
        return match l {
            Lang::En => format!(
                "Both players agree: {} is entered, pending the round's confirmation.",
                result_words(l, r)
            ),
            Lang::Zh => format!(
                "双方确认一致, 成绩已录入: {}, 等待裁判确认本轮成绩。",
                r.zh()
            ),
        };
    }
    let next = match status {
        ClaimStatus::Disagree { .. } => l.t(
            "双方确认不一致, 已交裁判处理。",
            "The claims disagree: the officials decide.",
        ),
        ClaimStatus::NotSigner { .. } => l.t(
            "按本赛事规程由负方签名确认, 已交裁判处理。",
            "Here the loser signs: the officials decide.",
        ),
        _ => l.t("等待对方确认。", "Waiting for the other player."),
    };
    match l {
        Lang::En => format!("Your claim is recorded: {said}. {next}"),
        Lang::Zh => format!("已收到您的确认: {said}。{next}"),
    }
}
