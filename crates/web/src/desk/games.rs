//! The rules of a game at the desk, beside the results page (`/desk/e/{ev}/s/{sec}/results`):
//! a flagged short draw or missing record confirmed or dismissed and a refusal to record (T6),
//! the players who signed a result slip (S11, J6), a protest with its deposit and the
//! decision (S11) — each the same operation of `arbiter_director::api::games` as the CLI's
//! `result flag`, `result refuse-record`, `result sign` and `result protest`; the director
//! judges, the handlers only read the form and word the answer.

use super::{back, event_id};
use crate::app::AppState;
use crate::auth::Post;
use crate::error::WebError;
use crate::write;
use arbiter_core::FoulKind;
use arbiter_director::command::games::GameCommand;
use arbiter_types::Colour;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;

fn results_path(ev: &str, sec: &str) -> String {
    format!("/desk/e/{ev}/s/{sec}/results")
}

/// Round and board of a form, as numbers.
fn round_board(round: &str, board: &str) -> Result<(u32, u32), String> {
    match (round.trim().parse::<u32>(), board.trim().parse::<u32>()) {
        (Ok(r), Ok(b)) => Ok((r, b)),
        _ => Err("轮次和台号应为正整数 (round and board are numbers)".into()),
    }
}

/// 红方 / 黑方 from a form (`red`, `black`).
fn colour(s: &str) -> Result<Colour, String> {
    Colour::from_words(s).ok_or_else(|| format!("「{}」 应为红方或黑方 (red or black)", s.trim()))
}

#[derive(Deserialize)]
pub struct FlagForm {
    #[serde(default)]
    round: String,
    #[serde(default)]
    board: String,
    /// `short_draw` or `records`.
    kind: Option<String>,
    /// `confirm` or `dismiss`.
    #[serde(default, rename = "do")]
    action: String,
    #[serde(default)]
    reason: String,
    /// The row the page opens at when it comes back (the next flag's, `flag-3-12-records`).
    #[serde(default)]
    next: String,
}

/// Back to the results page at `anchor` (a flag's row, or the list of flags when none is
/// left), so a long list stays where the arbiter was. Only a row's id is taken.
fn back_at(here: &str, anchor: &str, outcome: Result<String, String>) -> Response {
    use axum::response::IntoResponse;
    let ok = !anchor.is_empty()
        && anchor.len() <= 64
        && anchor
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let anchor = if ok { anchor } else { "flags-title" };
    let (k, msg) = match outcome {
        Ok(m) => ("ok", m),
        Err(m) => ("err", m),
    };
    let code = super::remember(msg);
    axum::response::Redirect::to(&format!("{here}?{k}={code}#{anchor}")).into_response()
}

/// One ticked flag of the bulk form: `round.board.kind` (`3.12.records`).
fn ticked_flag(v: &str) -> Option<(u32, u32, FoulKind)> {
    let mut it = v.trim().splitn(3, '.');
    let round = it.next()?.parse().ok()?;
    let board = it.next()?.parse().ok()?;
    let kind = it.next()?.parse().ok()?;
    Some((round, board, kind))
}

/// `POST /desk/e/{ev}/s/{sec}/flags`: the ticked flags (`f`, `round.board.kind`; `all`: every
/// flag of the section still waiting) decided alike, `do` = `confirm` (记犯规) or `dismiss`
/// (撤销提示), with one reason. Each flag is the director's `DecideFlag`; one refused leaves
/// the others decided and is said in words.
pub async fn flags(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    p: Post<crate::auth::DecideFlag, Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let here = results_path(&ev, &sec);
    let mut ticked = Vec::new();
    let mut confirm = None;
    let mut reason = String::new();
    let mut all = false;
    for (k, v) in &p.form {
        match k.as_str() {
            "all" => all = !v.is_empty(),
            "f" => match ticked_flag(v) {
                Some(f) => ticked.push(f),
                None => {
                    return Ok(back_at(
                        &here,
                        "flags-title",
                        Err(format!("「{v}」 不是一条提示 (not a flag)")),
                    ))
                }
            },
            "do" => {
                confirm = match v.as_str() {
                    "confirm" => Some(true),
                    "dismiss" => Some(false),
                    _ => None,
                }
            }
            "reason" => reason = v.clone(),
            _ => {}
        }
    }
    let Some(confirm) = confirm else {
        return Ok(back_at(
            &here,
            "flags-title",
            Err("请按「确认犯规」或「撤销提示」 (confirm or dismiss)".into()),
        ));
    };
    // 全选: every flag of the section still waiting, ticked or not (no script needed).
    if all {
        let (snap, _) = app.refresh(&event_id(&ev)).await?;
        ticked = arbiter_director::api::games::pending_flags(&snap.state, Some(&sec))
            .unwrap_or_default()
            .into_iter()
            .map(|f| (f.round, f.board, f.kind))
            .collect();
    }
    if ticked.is_empty() {
        return Ok(back_at(
            &here,
            "flags-title",
            Err("请先勾选提示 (tick the flags first)".into()),
        ));
    }
    let mut done = Vec::new();
    let mut refused = Vec::new();
    for (round, board, kind) in ticked {
        let r = write::apply(
            &app,
            &event_id(&ev),
            &p.auth,
            GameCommand::DecideFlag {
                section: sec.clone(),
                round,
                board,
                kind: Some(kind),
                confirm,
                reason: reason.clone(),
            },
        )
        .await?;
        match r {
            Ok(_) => done.push(()),
            Err(e) => refused.push(format!("第{round}轮第{board}台: {e}")),
        }
    }
    let n = done.len();
    let mut msg = if confirm {
        format!("{n}条提示已确认 ({n} flags confirmed)")
    } else {
        format!("{n}条提示已撤销 ({n} flags dismissed)")
    };
    if !refused.is_empty() {
        msg.push_str(&format!(
            "; 未处理 {}条 ({} not decided): {}",
            refused.len(),
            refused.len(),
            refused.join("; ")
        ));
    }
    let outcome = if n == 0 { Err(msg) } else { Ok(msg) };
    Ok(back_at(&here, "flags-title", outcome))
}

/// `POST /desk/e/{ev}/s/{sec}/flag`: confirm or dismiss a board's flag (T6: a draw short of
/// the minimum moves, a board that must record without its record).
pub async fn flag(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    l: crate::i18n::Lang,
    p: Post<crate::auth::DecideFlag, FlagForm>,
) -> Result<Response, WebError> {
    let here = results_path(&ev, &sec);
    let f = p.form;
    let (round, board) = match round_board(&f.round, &f.board) {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let kind = match f.kind.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        None => None,
        Some(k) => match k.parse::<FoulKind>() {
            Ok(k) => Some(k),
            Err(e) => return Ok(back(&here, Err(e.to_string()))),
        },
    };
    let confirm = match f.action.as_str() {
        "confirm" => true,
        "dismiss" => false,
        _ => {
            return Ok(back(
                &here,
                Err("请按「确认犯规」或「撤销提示」 (confirm or dismiss)".into()),
            ))
        }
    };
    let (s2, reason, next) = (sec.clone(), f.reason, f.next);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::DecideFlag {
            section: s2,
            round,
            board,
            kind,
            confirm,
            reason,
        },
    )
    .await?;
    // Decided: the page opens where the next flag now stands; refused: at this one.
    let own = kind.map_or_else(String::new, |k| {
        format!("flag-{round}-{board}-{}", k.code())
    });
    let at = if done.is_ok() { next } else { own };
    let said = match done {
        Ok(a) => Ok(write::told(&app, &event_id(&ev), &a, l).await?),
        Err(e) => Err(e),
    };
    Ok(back_at(&here, &at, said))
}

#[derive(Deserialize)]
pub struct RefuseRecordForm {
    #[serde(default)]
    round: String,
    #[serde(default)]
    board: String,
    /// Who refused: `red` or `black`.
    #[serde(default)]
    player: String,
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/s/{sec}/refuse-record`: the player who must record refused (T6: 拒不
/// 录谱，每次记犯规一次).
pub async fn refuse_record(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    l: crate::i18n::Lang,
    p: Post<crate::auth::RefuseRecord, RefuseRecordForm>,
) -> Result<Response, WebError> {
    let here = results_path(&ev, &sec);
    let f = p.form;
    let parsed = round_board(&f.round, &f.board).and_then(|rb| Ok((rb, colour(&f.player)?)));
    let ((round, board), c) = match parsed {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let (s2, reason) = (sec.clone(), f.reason);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::RefuseRecord {
            section: s2,
            round,
            board,
            colour: c,
            reason,
        },
    )
    .await?;
    let said = match done {
        Ok(a) => Ok(write::told(&app, &event_id(&ev), &a, l).await?),
        Err(e) => Err(e),
    };
    Ok(back(&here, said))
}

#[derive(Deserialize)]
pub struct SignForm {
    #[serde(default)]
    round: String,
    #[serde(default)]
    board: String,
    /// `red`, `black` or `both`.
    #[serde(default)]
    signed_by: String,
}

/// `POST /desk/e/{ev}/s/{sec}/sign`: who signed a board's result slip, as signed (S11: 负方
/// 签名，和棋双方签名; 赢棋签了名，按输棋处理).
pub async fn sign(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    l: crate::i18n::Lang,
    p: Post<crate::auth::RecordSignatures, SignForm>,
) -> Result<Response, WebError> {
    let here = results_path(&ev, &sec);
    let f = p.form;
    let parsed = round_board(&f.round, &f.board).and_then(|rb| {
        let signed = match f.signed_by.trim() {
            "both" | "双方" => vec![Colour::Red, Colour::Black],
            other => vec![colour(other)?],
        };
        Ok((rb, signed))
    });
    let ((round, board), signed) = match parsed {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let s2 = sec.clone();
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::Sign {
            section: s2,
            round,
            board,
            signed,
        },
    )
    .await?;
    let said = match done {
        Ok(a) => Ok(write::told(&app, &event_id(&ev), &a, l).await?),
        Err(e) => Err(e),
    };
    Ok(back(&here, said))
}

#[derive(Deserialize)]
pub struct ProtestForm {
    #[serde(default)]
    round: String,
    #[serde(default)]
    board: String,
    /// Who filed it (领队, 教练).
    #[serde(default)]
    by: String,
    /// `upheld` or `rejected`.
    #[serde(default)]
    decision: String,
    #[serde(default)]
    reason: String,
}

/// `POST /desk/e/{ev}/s/{sec}/protest`: a protest about a game and the arbitration's
/// decision (S11: 申诉费 returned when upheld, kept otherwise).
pub async fn protest(
    State(app): State<AppState>,
    Path((ev, sec)): Path<(String, String)>,
    l: crate::i18n::Lang,
    p: Post<crate::auth::DecideProtest, ProtestForm>,
) -> Result<Response, WebError> {
    let here = results_path(&ev, &sec);
    let f = p.form;
    let (round, board) = match round_board(&f.round, &f.board) {
        Ok(x) => x,
        Err(m) => return Ok(back(&here, Err(m))),
    };
    let upheld = match f.decision.as_str() {
        "upheld" => true,
        "rejected" => false,
        _ => {
            return Ok(back(
                &here,
                Err("请选择仲裁结果: 申诉成立或不成立 (choose the decision)".into()),
            ))
        }
    };
    let (s2, by, reason) = (sec.clone(), f.by, f.reason);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        GameCommand::Protest {
            section: s2,
            round,
            board,
            by,
            upheld,
            reason,
        },
    )
    .await?;
    let said = match done {
        Ok(a) => Ok(write::told(&app, &event_id(&ev), &a, l).await?),
        Err(e) => Err(e),
    };
    Ok(back(&here, said))
}

#[cfg(test)]
mod tests {
    #[test]
    fn colours_and_numbers_are_read_or_refused_in_words() {
        assert_eq!(super::colour("red"), Ok(arbiter_types::Colour::Red));
        assert_eq!(super::colour(" 黑方 "), Ok(arbiter_types::Colour::Black));
        assert!(super::colour("绿").unwrap_err().contains("「绿」"));
        assert_eq!(super::round_board("2", " 3"), Ok((2, 3)));
        assert!(super::round_board("x", "3").is_err());
    }
}
