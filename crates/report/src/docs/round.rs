//! The three documents of a round — pairings, results, score slips — built the same way,
//! section by section.

use super::pairings::pairings_table;
use super::results::results_table;
use super::slips::slips;
use super::team_match;
use super::Ctx;
use crate::{Block, Lang, Orientation, ReportError};
use arbiter_director::api::rounds;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum RoundDoc {
    Pairings,
    Slips,
    Results,
}

type Built = (Orientation, Option<String>, Vec<Block>);

pub(super) fn round_doc(
    cx: &Ctx,
    round: Option<u32>,
    which: RoundDoc,
) -> Result<Built, ReportError> {
    let mut blocks = Vec::new();
    let mut subtitle = None;
    let mut any = false;
    for sid in &cx.sections {
        let rec = cx.state.section(sid);
        let last = rec.map_or(0, |r| r.last_round());
        if let Some(n) = round {
            if rec.and_then(|r| r.round(n)).is_none() {
                // With one section an unknown round is an error; with several, a section
                // that has not reached it is left out (and an error if none has).
                if cx.sections.len() == 1 {
                    return Err(ReportError::UnknownRound {
                        section: rec.map_or_else(|| sid.clone(), |r| r.name.clone()),
                        round: n,
                        last,
                    });
                }
                continue;
            }
        } else if last == 0 && rec.is_none_or(|r| r.knockout.is_empty()) {
            // Nothing paired yet in this section: only the knockout sheet could show.
            match rounds::sheet(cx.state, sid, None) {
                Ok(s) if !s.boards.is_empty() => {}
                _ => continue,
            }
        }
        // Results are of a round played: the last paired round, not the knockout games due.
        let want = match (round, which) {
            (None, RoundDoc::Results) if last > 0 => Some(last),
            _ => round,
        };
        let sheet = match rounds::sheet(cx.state, sid, want) {
            Ok(s) => s,
            Err(_) if round.is_none() => continue,
            Err(e) => return Err(ReportError::Nothing(e.to_string())),
        };
        if sheet.boards.is_empty() && sheet.bye.is_none() {
            continue;
        }
        if any {
            blocks.push(Block::PageBreak);
        }
        any = true;
        let head = match cx.lang {
            Lang::Zh => format!("{} 第{}轮", cx.section_name(sid), sheet.round),
            Lang::En => format!("{} round {}", cx.section_name(sid), sheet.round),
        };
        // The pairing list names the time control of the games (比赛用时, K8).
        let head = match cx.reg.section(sid).map(|s| &s.time_controls) {
            Some(tcs) if which == RoundDoc::Pairings && !tcs.is_empty() => {
                let v: Vec<String> = tcs
                    .iter()
                    .map(|t| match cx.lang {
                        Lang::Zh => t.text_zh(),
                        Lang::En => t.text_en(),
                    })
                    .collect();
                format!(
                    "{head} · {} {}",
                    cx.t("比赛用时", "time control"),
                    v.join("; ")
                )
            }
            _ => head,
        };
        // The pairing list and the slips say when the round starts (J1: the schedule).
        let head = match &sheet.starts {
            Some(t) if which != RoundDoc::Results => {
                format!("{head} · {} {t}", cx.t("开始时间", "starts"))
            }
            _ => head,
        };
        if cx.sections.len() == 1 {
            subtitle = Some(head.clone());
        } else {
            blocks.push(Block::Heading(head.clone()));
        }
        // A team section (A15): its matches with both line-ups, one score sheet per match.
        let team = match which {
            RoundDoc::Results => None,
            _ => team_match::view(cx, sid, sheet.round),
        };
        if let Some(v) = team {
            match which {
                RoundDoc::Slips => team_match::slips(cx, &head, sid, &v, &mut blocks)?,
                _ => team_match::pairings(cx, sid, &v, &mut blocks),
            }
            continue;
        }
        match which {
            RoundDoc::Pairings => pairings_table(cx, sid, &sheet, &mut blocks),
            RoundDoc::Results => results_table(cx, sid, &sheet, &mut blocks),
            RoundDoc::Slips => slips(cx, &head, &sheet, &mut blocks),
        }
    }
    if !any {
        return Err(match round {
            Some(n) => cx.unknown_round(n),
            None => ReportError::Nothing("尚未编排任何一轮 (no round is paired yet)".to_string()),
        });
    }
    Ok((Orientation::Portrait, subtitle, blocks))
}
