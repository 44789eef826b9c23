//! The organiser's awards at the desk (`/desk/e/{ev}/awards`, S10: 「最佳组织奖、最佳赛风赛纪奖
//! 各一个」): the regulation's awards with who has them; the organiser or the chief arbiter
//! gives one (to units, teams or players) or takes it back — the same operation as
//! `arbiter award` (`awards::give_special_award`), which judges who may and what is refused.

use super::{back, event_id, Desk, Flash};
use crate::app::AppState;
use crate::auth::{Post, RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_director::api::awards;
use arbiter_director::command::event::EventCommand;
use arbiter_director::command::Outcome;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

pub fn path(ev: &str) -> String {
    format!("/desk/e/{ev}/awards")
}

#[derive(Template)]
#[template(path = "desk/awards.html")]
struct AwardsPage<'a> {
    l: Lang,
    csrf: &'a str,
    here: &'a str,
    event_name: &'a str,
    rows: Vec<awards::SpecialAwardRow>,
    /// The account gives and takes back awards (organiser, chief arbiter).
    gives: bool,
    /// The prize money's currency (the regulation's `prize_currency`).
    cur: arbiter_regulation::Currency,
    zh: bool,
}

impl AwardsPage<'_> {
    /// An award's amount in the prize money's currency (2000元, 新台币2000元 (NT$2000)).
    fn money(&self, yuan: &u32) -> String {
        self.cur.amount(yuan, self.zh)
    }
}

/// `GET /desk/e/{ev}/awards`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    Query(f): Query<Flash>,
) -> Result<Response, WebError> {
    let (snap, _) = app.refresh(&event_id(&ev)).await?;
    let st = &snap.state;
    let here = path(&ev);
    let rows = awards::special_awards(st).map_err(|e| WebError::Internal(e.to_string()))?;
    let page = AwardsPage {
        l,
        csrf: &auth.csrf,
        here: &here,
        event_name: st.name(),
        rows,
        gives: auth.may(arbiter_director::permission::Action::GiveSpecialAward),
        cur: arbiter_director::regulation_of(st)
            .map(|r| r.event.prize_currency)
            .unwrap_or_default(),
        zh: l == Lang::Zh,
    };
    Desk::new(
        l,
        &auth,
        format!(
            "{} · {}",
            st.name(),
            l.t("组委会奖项", "Organiser's awards")
        ),
        here.clone(),
    )
    .event(&ev, st)
    .crumb(here.clone(), l.t("组委会奖项", "Organiser's awards"))
    .flash(f)
    .render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct AwardForm {
    #[serde(default)]
    award: String,
    /// Recipients, one a line (or separated by 、 , ，).
    #[serde(default)]
    to: String,
    #[serde(default)]
    reason: String,
    /// `withdraw`: take the award back (the recipients are not read).
    #[serde(default, rename = "do")]
    action: String,
}

/// The recipients typed, one a line or separated by 、 , ，.
fn recipients(s: &str) -> Vec<String> {
    s.split(['\n', '\r', '、', ',', '，'])
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(str::to_string)
        .collect()
}

/// `POST /desk/e/{ev}/awards`.
pub async fn give(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<crate::auth::GiveSpecialAward, AwardForm>,
) -> Result<Response, WebError> {
    let f = p.form;
    let to = if f.action == "withdraw" {
        Vec::new()
    } else {
        recipients(&f.to)
    };
    if to.is_empty() && f.action != "withdraw" {
        return Ok(back(
            &path(&ev),
            Err("请在「获奖者」栏填写获奖单位、队伍或棋手, 或按「收回」 \
                 (name the recipients, or press Take back)"
                .into()),
        ));
    }
    let (award, reason) = (f.award, f.reason);
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        EventCommand::GiveSpecialAward {
            award,
            recipients: to,
            reason,
        },
    )
    .await?;
    Ok(back(
        &path(&ev),
        done.map(|a| match a.outcome {
            Outcome::Awarded { award, recipients } if recipients.is_empty() => {
                format!("已收回「{award}」 (award taken back)")
            }
            Outcome::Awarded { award, recipients } => {
                format!("已授予 {}「{award}」 (award given)", recipients.join("、"))
            }
            _ => "已记录 (recorded)".into(),
        }),
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn recipients_are_read_one_a_line_or_separated() {
        assert_eq!(
            super::recipients("苏州棋院\n 常熟队、P3, 张三\r\n\n"),
            vec!["苏州棋院", "常熟队", "P3", "张三"]
        );
        assert!(super::recipients(" \n、").is_empty());
    }
}
