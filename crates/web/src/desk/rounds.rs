//! The rounds of a section at the desk: pair the next round (with fixed pairs and a swap,
//! the engine's explanation and the checker's warnings), publish, undo; the fast
//! result-entry grid (keyboard first, `desk.js`; plain forms without it); confirm the slips;
//! the chief arbiter's corrections with a reason.

use super::{back, event_id, opt, wants_json, Desk, EventSection, Flash};
use crate::app::AppState;
use crate::auth::login::Empty;
use crate::auth::{Authed, Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_director::api::results::{FoulInput, ResultInput};
use arbiter_director::api::rounds::{self as api, PairRequest};
use arbiter_director::command::games::{GameCommand, RecordInput};
use arbiter_director::command::rounds::RoundCommand;
use arbiter_director::command::Outcome;
use arbiter_types::{Colour, GameResult};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

fn round_path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/round")
}

fn results_path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/results")
}

/// `/desk/e/{ev}/s/{sec}/round`: the last round's sheet, the pairing's explanation and
/// warnings after a pairing, and (for arbiters) publish, undo and pair.
#[derive(Template)]
#[template(path = "desk/round.html")]
struct RoundPage<'a> {
    l: Lang,
    csrf: &'a str,
    ev: &'a str,
    sec: &'a str,
    name: &'a str,
    told: Option<Told>,
    sheet: Option<api::RoundSheet>,
    /// What the account may do now with the rounds, and what the section waits for
    /// (the director's `command::rounds::available`).
    now: arbiter_director::command::rounds::RoundsNow,
    /// The account may pair rounds (to say why it cannot now).
    arb: bool,
    /// 「N人已缴费未签到: …」, shown before the arbiter pairs.
    not_checked_in: Option<String>,
    /// Consecutive forfeits where the regulation states no withdrawal for them (A16): the
    /// chief arbiter decides.
    forfeits: Option<String>,
    /// A team-match section: the last round as its matches, with the line-up forms.
    team: Option<super::matches::TeamSheet>,
    /// The account may take a team's line-up.
    lineups: bool,
    /// Two players may be swapped on the sheet shown (an unpublished round without results
    /// of an individual section, for an account that may pair).
    may_swap: bool,
    /// A swap previewed: the sheet it would give and its warnings, nothing written yet.
    swap: Option<SwapPreview>,
    /// The boards of the sheet whose players' claims want the arbiter: red rows.
    disputed: Vec<u32>,
}

impl RoundPage<'_> {
    /// The board's row is red on the sheet ([`disputed_boards`]).
    fn disputed(&self, board: &u32) -> bool {
        self.disputed.contains(board)
    }
}

/// A swap on the sheet before it is recorded (预览): the director's [`api::repair`].
struct SwapPreview {
    a: u32,
    b: u32,
    sheet: api::RoundSheet,
    warnings: Vec<String>,
}

/// `GET /desk/e/{ev}/s/{sec}/round`.
pub async fn show(
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    es: EventSection,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    round_page(l, &auth, &es, f, None, None)
}

impl RoundPage<'_> {
    /// Why the next round cannot be paired yet, in the page's language.
    fn waiting_text(&self) -> String {
        use arbiter_director::command::rounds::Waiting;
        let l = self.l;
        match &self.now.waiting {
            Waiting::Nothing => String::new(),
            Waiting::Results { round, boards } => {
                let list: Vec<String> = boards.iter().map(u32::to_string).collect();
                format!(
                    "{}{round}{}{}",
                    l.t("第", "Round "),
                    l.t(
                        "轮成绩录完后才能编排下一轮; 尚缺第 ",
                        ": the next round is paired once every result is in; waiting for board "
                    ),
                    format_args!("{}{}", list.join(", "), l.t(" 台", "")),
                )
            }
            Waiting::Knockout { matches } => format!(
                "{} {}",
                l.t(
                    "淘汰赛对局进行中, 结束后才能编排下一轮:",
                    "Knockout games are due before the next round:"
                ),
                matches.join(", ")
            ),
            Waiting::Done => l
                .t(
                    "各轮均已编排, 比赛已无下一轮。",
                    "Every round has been paired: there is no next round.",
                )
                .to_string(),
        }
    }
}

/// What a pairing told the arbiter.
struct Told {
    explanation: String,
    warnings: Vec<String>,
    notes: Vec<String>,
}

fn round_page(
    l: Lang,
    auth: &Authed,
    es: &EventSection,
    f: Flash,
    told: Option<Told>,
    swap: Option<SwapPreview>,
) -> Result<Response, WebError> {
    let (ev, sec) = (es.ev.as_str(), es.sec.as_str());
    let st = &es.snap.state;
    let s = es.section()?;
    let sheet = api::current_sheet(st, sec).ok();
    // What the account may do now: the permission table and the state (the director's).
    let now = match crate::write::now_at() {
        Ok((_, local)) => arbiter_director::command::rounds::available(
            st,
            &arbiter_director::api::Ctx::new(auth.actor(), auth.role(), local),
            sec,
        ),
        Err(_) => Default::default(),
    };
    let may_swap = now.undo
        && auth.may(arbiter_director::permission::Action::PairRound)
        && sheet
            .as_ref()
            .is_some_and(|s| !s.published && s.knockout.is_empty())
        && team_sheet(l, st, sec, sheet.as_ref()).is_none();
    let page = RoundPage {
        l,
        may_swap,
        swap,
        csrf: &auth.csrf,
        ev,
        sec,
        name: &s.name,
        told,
        team: team_sheet(l, st, sec, sheet.as_ref()).map(|t| super::matches::TeamSheet {
            confirm: auth.may(arbiter_director::permission::Action::ConfirmMatch),
            page: "round",
            ..t
        }),
        disputed: disputed_boards(st, sec, sheet.as_ref()),
        sheet,
        now,
        arb: auth.may(arbiter_director::permission::Action::PairRound),
        lineups: auth.may(arbiter_director::permission::Action::GiveLineup),
        not_checked_in: arbiter_director::api::entries::not_checked_in_warning(st, sec),
        forfeits: arbiter_director::api::entries::forfeit_warning(st, sec),
    };
    Desk::new(
        l,
        auth,
        format!("{} · {}", s.name, l.t("编排", "Pairing")),
        round_path(ev, sec),
    )
    .event(ev, st)
    .crumb(
        round_path(ev, sec),
        format!("{} {}", s.name, l.t("编排", "pairing")),
    )
    .flash(f)
    .render(StatusCode::OK, &page)
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
    let swap = opt(&f.swap)
        .map(|s| arbiter_director::manual::parse_swap_text(&s))
        .transpose()?;
    Ok(PairRequest { fix, swap })
}

/// `POST /desk/e/{ev}/s/{sec}/pair`: the page again, with the explanation and warnings.
pub async fn pair(
    State(app): State<AppState>,
    l: Lang,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::PairRound, PairForm>,
) -> Result<Response, WebError> {
    let req = match parse_request(&p.form) {
        Ok(r) => r,
        Err(msg) => return Ok(back(&round_path(&ev, &sec), Err(msg))),
    };
    let s2 = sec.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RoundCommand::Pair {
            section: s2,
            request: req,
        },
    )
    .await?;
    match done {
        Ok(a) => {
            let told = match a.outcome {
                Outcome::Paired(o) => Some(Told {
                    explanation: l.say(&o.explanation),
                    warnings: o
                        .warnings
                        .into_iter()
                        .chain(o.relaxed)
                        .map(|w| l.say(&w))
                        .collect(),
                    notes: o.notes.iter().map(|n| l.say(n)).collect(),
                }),
                _ => None,
            };
            let f = Flash::ok_now("已编排 (paired)");
            let es = EventSection::load(&app, ev, sec).await?;
            round_page(l, &p.auth, &es, f, told, None)
        }
        Err(msg) => Ok(back(&round_path(&ev, &sec), Err(msg))),
    }
}

#[derive(Deserialize)]
pub struct SwapForm {
    a: Option<String>,
    b: Option<String>,
    /// Present on 确认调换: record it; absent on 预览: show it, write nothing.
    confirm: Option<String>,
}

/// `POST /desk/e/{ev}/s/{sec}/swap`: two players exchanged on the sheet of the unpublished
/// round. 预览 shows the sheet after the swap and every warning in words, writing nothing;
/// 确认调换 records it as one command (the pairing undone and paired again).
pub async fn swap(
    State(app): State<AppState>,
    l: Lang,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::PairRound, SwapForm>,
) -> Result<Response, WebError> {
    let text = format!(
        "{} {}",
        opt(&p.form.a).unwrap_or_default(),
        opt(&p.form.b).unwrap_or_default()
    );
    let pair = match arbiter_director::manual::parse_swap_text(&text) {
        Ok(x) => x,
        Err(msg) => return Ok(back(&round_path(&ev, &sec), Err(msg))),
    };
    if opt(&p.form.confirm).is_some() {
        let done = write::apply(
            &app,
            &event_id(&ev),
            &p.auth,
            RoundCommand::Repair {
                section: sec.clone(),
                swap: pair,
            },
        )
        .await?;
        let (a, b) = pair;
        return Ok(back(
            &round_path(&ev, &sec),
            done.map(|_| format!("已调换 {a}号 与 {b}号, 其余对阵不变 (players swapped)")),
        ));
    }
    let es = EventSection::load(&app, ev.clone(), sec.clone()).await?;
    let preview = match crate::write::now_at() {
        Ok((_, local)) => api::repair(
            &es.snap.state,
            &arbiter_director::api::Ctx::new(p.auth.actor(), p.auth.role(), local),
            &sec,
            pair,
        )
        .map_err(|e| crate::refusal::words(&e)),
        Err(e) => Err(e.to_string()),
    };
    match preview {
        Ok(r) => {
            let swap = SwapPreview {
                a: pair.0.get(),
                b: pair.1.get(),
                sheet: r.sheet,
                warnings: r.warnings,
            };
            round_page(l, &p.auth, &es, Flash::default(), None, Some(swap))
        }
        Err(msg) => Ok(back(&round_path(&ev, &sec), Err(msg))),
    }
}

/// `POST /desk/e/{ev}/s/{sec}/publish`.
pub async fn publish(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::PublishRound, Empty>,
) -> Result<Response, WebError> {
    let s2 = sec.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RoundCommand::Publish { section: s2 },
    )
    .await?;
    Ok(back(
        &round_path(&ev, &sec),
        done.map(|_| "已公布对阵表 (pairing published)".to_string()),
    ))
}

/// `POST /desk/e/{ev}/s/{sec}/complete`: close the last round whose results are all in (a
/// round left open), with the withdrawals the forfeit rule then demands.
pub async fn complete(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::CompleteRound, Empty>,
) -> Result<Response, WebError> {
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RoundCommand::Complete {
            section: sec.clone(),
        },
    )
    .await?;
    Ok(back(
        &round_path(&ev, &sec),
        done.map(|d| match d.outcome {
            arbiter_director::command::Outcome::Round { round, .. } => {
                format!("第{round}轮已结束 (round {round} completed)")
            }
            _ => "已记录 (recorded)".to_string(),
        }),
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
    p: Post<crate::auth::UndoRound, UndoForm>,
) -> Result<Response, WebError> {
    let (s2, reason) = (sec.clone(), p.form.reason);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        RoundCommand::Undo {
            section: s2,
            reason,
        },
    )
    .await?;
    Ok(back(
        &round_path(&ev, &sec),
        done.map(|_| "已撤销本轮编排 (pairing undone)".to_string()),
    ))
}

/// `/desk/e/{ev}/s/{sec}/results`: the result-entry grid of the last round, confirm, and the
/// chief arbiter's corrections.
#[derive(Template)]
#[template(path = "desk/results.html")]
struct ResultsPage<'a> {
    l: Lang,
    csrf: &'a str,
    ev: &'a str,
    sec: &'a str,
    name: &'a str,
    /// The last round's sheet, or why there is none.
    sheet: Result<api::RoundSheet, String>,
    /// Boards with a result.
    entered: usize,
    /// Every board's slip of the round is signed (签字确认): the grid is read-only and a
    /// result changes only by the chief arbiter's correction.
    confirmed: bool,
    /// The account may enter results and confirm.
    arb: bool,
    /// The account may correct results.
    chief: bool,
    /// The flags waiting for the arbiter (T6): round, board, kind (`short_draw`, `records`),
    /// the flag in words, and the row the page comes back to once it is decided (the next
    /// flag's, `flag-3-12-records`).
    flags: Vec<(u32, u32, &'static str, String, String)>,
    /// The players' claims on boards without a result (选手手机确认), in words, and whether the
    /// board wants the arbiter (they disagree, or a side claimed that may not sign): red.
    claims: Vec<(String, bool)>,
    /// The protest deposit of the regulation (S11), in words (「500元」); empty: none.
    deposit: String,
    /// The fouls of a kind other than general the grid records (「红方 使用手机」): the
    /// form's value (`red:phone`) and its words.
    foul_kinds: Vec<(String, String)>,
    /// A team-match section: the round as its matches.
    team: Option<super::matches::TeamSheet>,
    /// The event's log ends at this entry (the grid's script asks for what is newer).
    seq: u64,
    /// The boards of the sheet whose players' claims want the arbiter: red rows.
    disputed: Vec<u32>,
}

impl ResultsPage<'_> {
    /// The board's row is red on the sheet ([`disputed_boards`]).
    fn disputed(&self, board: &u32) -> bool {
        self.disputed.contains(board)
    }
}

/// The boards of `sheet`'s round (a Swiss or round-robin round, not the knockout's games)
/// whose players' claims want the arbiter — they disagree, or a side claimed that may not
/// sign (`ClaimStatus::flagged`): their rows are red on the sheet, as the claims list above it.
fn disputed_boards(
    st: &arbiter_core::EventState,
    sec: &str,
    sheet: Option<&api::RoundSheet>,
) -> Vec<u32> {
    let Some(sheet) = sheet.filter(|s| s.knockout.is_empty()) else {
        return Vec::new();
    };
    arbiter_director::claim::pending(st, sec)
        .into_iter()
        .filter(|c| c.round == sheet.round && c.status.flagged())
        .map(|c| c.board)
        .collect()
}

/// The team sheet of `sheet`'s round when the section is a team match.
fn team_sheet(
    l: Lang,
    st: &arbiter_core::EventState,
    sec: &str,
    sheet: Option<&api::RoundSheet>,
) -> Option<super::matches::TeamSheet> {
    let reg = arbiter_director::regulation_of(st).ok()?;
    super::matches::team_sheet(l, st, &reg, sec, sheet?)
}

/// Whether every board of the sheet's round has its slip signed (a round of the Swiss or
/// round robin; the knockout's games are not confirmed board by board).
fn round_confirmed(st: &arbiter_core::EventState, sec: &str, sheet: &api::RoundSheet) -> bool {
    sheet.knockout.is_empty()
        && st
            .section(sec)
            .and_then(|s| s.round(sheet.round))
            .is_some_and(|r| !r.boards.is_empty() && r.boards.iter().all(|b| b.confirmed))
}

/// `GET /desk/e/{ev}/s/{sec}/results`: the result-entry grid of the last round.
pub async fn grid(
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    es: EventSection,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (ev, sec) = (es.ev.as_str(), es.sec.as_str());
    let st = &es.snap.state;
    let s = es.section()?;
    let sheet = api::current_sheet(st, sec).map_err(|err| err.to_string());
    let entered = sheet.as_ref().map_or(0, |sh| {
        sh.boards.iter().filter(|b| b.result.is_some()).count()
    });
    let none = sheet.is_err();
    let confirmed = sheet.as_ref().is_ok_and(|sh| round_confirmed(st, sec, sh));
    let team = team_sheet(l, st, sec, sheet.as_ref().ok()).map(|t| super::matches::TeamSheet {
        confirm: auth.may(arbiter_director::permission::Action::ConfirmMatch),
        page: "results",
        ..t
    });
    let disputed = disputed_boards(st, sec, sheet.as_ref().ok());
    let page = ResultsPage {
        team,
        seq: es.snap.last_seq(),
        l,
        csrf: &auth.csrf,
        ev,
        sec,
        name: &s.name,
        sheet,
        entered,
        confirmed,
        arb: auth.may(arbiter_director::permission::Action::EnterResult),
        chief: auth.may(arbiter_director::permission::Action::CorrectResult),
        flags: flag_rows(st, sec),
        foul_kinds: foul_kinds(l),
        disputed,
        claims: arbiter_director::claim::pending(st, sec)
            .into_iter()
            .map(|c| (l.say(&c.describe()), c.status.flagged()))
            .collect(),
        deposit: arbiter_director::regulation_of(st)
            .ok()
            .and_then(|r| r.event.protest_deposit_yuan)
            .map(|y| format!("{y}元"))
            .unwrap_or_default(),
    };
    if none {
        return Desk::new(l, &auth, s.name.clone(), results_path(ev, sec))
            .event(ev, st)
            .flash(f)
            .render(StatusCode::OK, &page);
    }
    Desk::new(
        l,
        &auth,
        format!("{} · {}", s.name, l.t("录入成绩", "Results")),
        results_path(ev, sec),
    )
    .event(ev, st)
    .crumb(
        results_path(ev, sec),
        format!("{} {}", s.name, l.t("成绩", "results")),
    )
    .flash(f)
    .render(StatusCode::OK, &page)
}

/// One board of the grid as its script reads it: the result stored now (`1-0` …), or none.
#[derive(Serialize)]
pub struct GridBoard {
    pub board: u32,
    pub result: Option<String>,
}

/// `GET /desk/e/{ev}/s/{sec}/results.json`: what the grid of the last round shows now, for
/// the grid's script to fill in the rows other arbiters entered (after each change of the
/// event's log, which the live stream `/e/{ev}/live` announces, and after a reconnection).
#[derive(Serialize)]
pub struct GridNow {
    /// The last round (none: the section has no round yet).
    pub round: Option<u32>,
    /// The event's log ends at this entry: the state these results are of.
    pub last_seq: u64,
    pub entered: usize,
    pub total: usize,
    /// Every slip of the round is signed: the grid no longer takes results.
    pub confirmed: bool,
    pub boards: Vec<GridBoard>,
    /// A team match: each match's line (「第3场 甲队 2½:1½ 乙队 · 进行中」) and its boards'
    /// 局分, as the match sheet shows them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<GridMatch>,
}

/// One match of a team round as the grid's script reads it.
#[derive(Serialize)]
pub struct GridMatch {
    pub no: u32,
    pub line: String,
    /// Each board's 局分 (「1 : 0」; empty until it has a result), by the round's board number.
    pub points: Vec<(u32, String)>,
}

/// `GET /desk/e/{ev}/s/{sec}/results.json` (any desk account, as the grid's page).
pub async fn grid_json(
    l: Lang,
    RequireRole(_auth, ..): RequireRole<Staff>,
    es: EventSection,
) -> Result<Response, WebError> {
    let st = &es.snap.state;
    es.section()?;
    let sheet = api::current_sheet(st, &es.sec).ok();
    let matches = team_sheet(l, st, &es.sec, sheet.as_ref())
        .map(|t| {
            t.matches
                .into_iter()
                .map(|m| GridMatch {
                    no: m.no,
                    line: m.line,
                    points: m
                        .rows
                        .into_iter()
                        .filter(|r| r.game)
                        .map(|r| (r.board, r.points))
                        .collect(),
                })
                .collect()
        })
        .unwrap_or_default();
    let now = GridNow {
        round: sheet.as_ref().map(|s| s.round),
        last_seq: es.snap.last_seq(),
        entered: sheet.as_ref().map_or(0, |s| {
            s.boards.iter().filter(|b| b.result.is_some()).count()
        }),
        total: sheet.as_ref().map_or(0, |s| s.boards.len()),
        confirmed: sheet
            .as_ref()
            .is_some_and(|s| round_confirmed(st, &es.sec, s)),
        boards: sheet
            .map(|s| {
                s.boards
                    .into_iter()
                    .map(|b| GridBoard {
                        board: b.board,
                        result: b.result,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        matches,
    };
    let mut resp = Json(now).into_response();
    resp.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    Ok(resp)
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
        Some(x) => {
            arbiter_director::api::results::foul_count(&x).map_err(|e| format!("{what}: {e}"))
        }
    }
}

/// The grid's choice of a foul by kind: each colour with each kind but the general one
/// (those are counted in 红方犯规 / 黑方犯规).
fn foul_kinds(l: Lang) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (c, zh, en) in [
        (Colour::Red, "红方", "red"),
        (Colour::Black, "黑方", "black"),
    ] {
        for k in arbiter_core::FoulKind::ALL {
            if k.is_general() {
                continue;
            }
            let side = if c == Colour::Red { "red" } else { "black" };
            out.push((
                format!("{side}:{}", k.code()),
                format!(
                    "{} {}",
                    l.t(zh, en),
                    l.t(k.zh(), &k.code().replace('_', " "))
                ),
            ));
        }
    }
    out
}

/// A foul by kind as the grid sends it (`red:phone`).
fn foul_of(s: &str) -> Result<FoulInput, String> {
    let (who, kind) = s.split_once(':').unwrap_or((s, ""));
    let colour = Colour::from_words(who)
        .ok_or_else(|| format!("犯规 「{s}」: 应为红方或黑方 (red or black)"))?;
    let kind = kind
        .parse::<arbiter_core::FoulKind>()
        .map_err(|e| format!("犯规 「{s}」: {e}"))?;
    Ok(FoulInput {
        colour,
        kind,
        reason: String::new(),
    })
}

#[derive(Deserialize)]
pub struct EnterForm {
    round: Option<String>,
    board: String,
    result: String,
    fouls_red: Option<String>,
    fouls_black: Option<String>,
    /// The game's fouls by kind, in the order they happened (`red:phone`; empty: none).
    foul1: Option<String>,
    foul2: Option<String>,
    foul3: Option<String>,
    /// A re-entry: the result the arbiter saw on the board (the grid's script fills it in
    /// when the typed board already has one).
    replaces: Option<String>,
    /// The board was played with the colours the other way round (S6: 开赛后不予纠正): the
    /// result and fouls are as played.
    colours_swapped: Option<String>,
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
    /// A team match: the match of the board and its line (「第3场 甲队 2½:1½ 乙队 · 进行中」).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_no: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_line: Option<String>,
}

/// `POST /desk/e/{ev}/s/{sec}/results`.
pub async fn enter(
    State(app): State<AppState>,
    l: Lang,
    headers: HeaderMap,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::EnterResult, EnterForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let before = app.snapshot(&ev).await?;
    let reg = arbiter_director::regulation_of(&before.state).ok();
    let parsed = (|| {
        let round = match opt(&f.round) {
            None => None,
            Some(r) => Some(
                r.parse::<u32>()
                    .map_err(|_| format!("轮次 「{r}」 应为正整数 (round number)"))?,
            ),
        };
        let board =
            match &reg {
                Some(reg) => arbiter_director::team_match::board_from_text(
                    reg,
                    &before.state,
                    &sec,
                    round,
                    &f.board,
                )?,
                None => f.board.trim().parse::<u32>().map_err(|_| {
                    format!("台号 「{}」 应为正整数 (board number)", f.board.trim())
                })?,
            };
        let result = parse_key(&f.result)?;
        let replaces = match opt(&f.replaces) {
            None => None,
            Some(r) => Some(parse_key(&r).map_err(|e| format!("原成绩 (replaced result): {e}"))?),
        };
        let mut input = ResultInput::new(board, result);
        for x in [&f.foul1, &f.foul2, &f.foul3] {
            if let Some(x) = opt(x) {
                input.fouls.push(foul_of(&x)?);
            }
        }
        let mut input = input
            .with_fouls(Colour::Red, count(&f.fouls_red, "红方犯规")?)
            .with_fouls(Colour::Black, count(&f.fouls_black, "黑方犯规")?);
        input.round = round;
        input.replaces = replaces;
        if opt(&f.colours_swapped).is_some() {
            input.colours_swapped = Some(true);
        }
        Ok::<_, String>(input)
    })();
    let outcome = match parsed {
        Err(msg) => Err(msg),
        Ok(input) => {
            let s2 = sec.clone();
            let (board, replaces, result) = (input.board, input.replaces, input.result);
            let swapped = if input.colours_swapped == Some(true) {
                ", 红黑颠倒, 按实际执红/执黑记分 (colours swapped: scored as played)"
            } else {
                ""
            };
            let done = write::apply(
                &app,
                &event_id(&ev),
                &p.auth,
                GameCommand::EnterResult { section: s2, input },
            )
            .await?;
            let at = super::matches::board_words(reg.as_deref(), &sec, board);
            done.map(|_| match replaces {
                // The director took it as a re-entry only if it named what was stored.
                Some(old) => format!(
                    "{at}已改为 {} ({}), 原成绩 {} 保留在日志中 (board {board} re-entered)",
                    api::notation(result),
                    result.zh(),
                    api::notation(old)
                ),
                None => format!("{at}已录入{swapped} (board {board} entered)"),
            })
        }
    };
    if !wants_json(&headers) {
        return Ok(back(&results_path(&ev, &sec), outcome));
    }
    let snap = app.snapshot(&ev).await?;
    let sheet = api::current_sheet(&snap.state, &sec).ok();
    let board = match &reg {
        Some(reg) => arbiter_director::team_match::board_from_text(
            reg,
            &before.state,
            &sec,
            opt(&f.round).and_then(|r| r.parse().ok()),
            &f.board,
        )
        .ok(),
        None => f.board.trim().parse::<u32>().ok(),
    };
    let (match_no, match_line) = board
        .zip(sheet.as_ref())
        .and_then(|(b, sh)| super::matches::match_of_board(l, &snap.state, &sec, sh, b))
        .unzip();
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
        Ok(m) => (true, l.say(&m)),
        Err(m) => (false, l.say(&m)),
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
            match_no,
            match_line,
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
    p: Post<crate::auth::ConfirmResults, RoundForm>,
) -> Result<Response, WebError> {
    let round = opt(&p.form.round).and_then(|r| r.parse::<u32>().ok());
    let s2 = sec.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::Confirm { section: s2, round },
    )
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
    /// 「推翻签名确认」 ticked: the correction overrides a result the regulation makes final
    /// once signed (九江 补充五).
    #[serde(default)]
    override_signed: Option<String>,
}

/// `POST /desk/e/{ev}/s/{sec}/correct` (the chief arbiter only).
pub async fn correct(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::CorrectResult, CorrectForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let here = results_path(&ev, &sec);
    let Ok(round) = f.round.trim().parse::<u32>() else {
        return Ok(back(&here, Err("轮次应为正整数 (round number)".into())));
    };
    let before = app.snapshot(&ev).await?;
    let reg = arbiter_director::regulation_of(&before.state).ok();
    let board = match &reg {
        Some(reg) => arbiter_director::team_match::board_from_text(
            reg,
            &before.state,
            &sec,
            Some(round),
            &f.board,
        ),
        None => f
            .board
            .trim()
            .parse::<u32>()
            .map_err(|_| "台号应为正整数 (board number)".to_string()),
    };
    let board = match board {
        Ok(b) => b,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let result = match parse_key(&f.result) {
        Ok(r) => r,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let (s2, reason) = (sec.clone(), f.reason);
    let override_signed = f.override_signed.is_some();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::CorrectResult {
            section: s2,
            round,
            board,
            result,
            reason,
            override_signed,
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|_| {
            let at = super::matches::board_words(reg.as_deref(), &sec, board);
            format!("第{round}轮{at}已更正 (result corrected)")
        }),
    ))
}

#[derive(Deserialize)]
pub struct RecordForm {
    round: String,
    board: String,
    /// The moves as typed or pasted: Chinese, WXF or ICCS, with or without move numbers.
    #[serde(default)]
    moves: String,
    #[serde(default)]
    recorded_by: String,
}

/// `POST /desk/e/{ev}/s/{sec}/record`: a board's game record (记谱), typed or pasted; a
/// refused move is named by its move number.
pub async fn record(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::RecordGame, RecordForm>,
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
    let (s2, moves, by) = (sec.clone(), f.moves, f.recorded_by);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::Record {
            section: s2,
            round,
            board,
            record: RecordInput::Text(moves),
            source: arbiter_core::RecordSource::Desk,
            recorded_by: Some(by),
        },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|a| {
            let n = match a.outcome {
                Outcome::GameRecorded { moves } => moves,
                _ => 0,
            };
            format!("第{round}轮第{board}台棋谱已录入, {n}回合 (game record kept: {n} moves)")
        }),
    ))
}

/// The pending flags of the results page, each with the row the page comes back to once it
/// is decided: the next flag's (the previous one's for the last; the list's title for the
/// only one).
fn flag_rows(
    st: &arbiter_core::EventState,
    sec: &str,
) -> Vec<(u32, u32, &'static str, String, String)> {
    let flags = arbiter_director::api::games::pending_flags(st, Some(sec)).unwrap_or_default();
    let ids: Vec<String> = flags
        .iter()
        .map(|f| format!("flag-{}-{}-{}", f.round, f.board, f.kind.code()))
        .collect();
    flags
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            let next = ids
                .get(i + 1)
                .or(i.checked_sub(1).and_then(|j| ids.get(j)))
                .cloned()
                .unwrap_or_else(|| "flags-title".into());
            (f.round, f.board, f.kind.code(), f.describe(), next)
        })
        .collect()
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
