//! The certificates (获奖证书): one page per winner.

use super::prizes::winners;
use super::{one_date, Ctx};
use crate::{Block, Certificate, Lang, ReportError};
use arbiter_director::export::PrizeKind;

pub(super) fn certificates(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let ws = winners(cx, &ex);
    // 等级称号: one certificate for each player a place awards a grade to.
    let graded: Vec<&arbiter_director::export::GradeAwardRow> = ex
        .grade_awards
        .iter()
        .filter(|g| g.awarded && cx.sections.contains(&g.section))
        .collect();
    if ws.is_empty() && ex.special_awards.is_empty() && graded.is_empty() {
        return Err(ReportError::Nothing(
            "尚无获奖者: 赛事结束(event close)后才确定奖项 (no prize winners yet)".to_string(),
        ));
    }
    // 「荣获第一名」 is printed once the place is final: a winner's section with games still to
    // play (暂定) is refused, naming it, rather than a certificate that may prove wrong.
    let unfinished: Vec<String> = ex
        .sections
        .iter()
        .filter(|s| {
            s.provisional
                && (ws.iter().any(|w| w.section == s.id)
                    || graded.iter().any(|g| g.section == s.id))
        })
        .map(|s| cx.section_name(&s.id))
        .collect();
    if !unfinished.is_empty() {
        return Err(ReportError::Nothing(match cx.lang {
            Lang::Zh => format!(
                "{} 尚有对局未结束, 名次为暂定, 不能打印获奖证书; 请在该组全部对局结束后打印, 或只选已结束的组别",
                unfinished.join("、")
            ),
            Lang::En => format!(
                "{} still has games to play: its places are provisional, so no certificate is printed yet; print them once it is finished, or choose the finished sections only",
                unfinished.join(", ")
            ),
        }));
    }
    let mut blocks = Vec::new();
    let date = one_date(cx.reg.event.end, cx.lang);
    let issuers = if cx.reg.event.organisers.is_empty() {
        cx.reg.event.hosts.clone()
    } else {
        cx.reg.event.organisers.clone()
    };
    for (i, w) in ws.iter().enumerate() {
        if i > 0 {
            blocks.push(Block::PageBreak);
        }
        let event_en = || {
            cx.reg
                .event
                .name_en
                .clone()
                .unwrap_or_else(|| cx.reg.event.name.clone())
        };
        if w.kind == PrizeKind::Lucky {
            // A lucky draw is no honour: its winner gets a voucher (兑奖凭证) for the prize.
            let item = w.item.clone().unwrap_or_default();
            let citation = match cx.lang {
                Lang::Zh => format!(
                    "在{}{}比赛中获得幸运奖：{item}。凭此证兑奖。",
                    cx.reg.event.name,
                    cx.section_name(&w.section)
                ),
                Lang::En => format!(
                    "won a lucky prize in {} of {}: {item}. Hand this voucher in for it.",
                    cx.section_name(&w.section),
                    event_en()
                ),
            };
            blocks.push(Block::Certificate(Certificate {
                heading: cx.t("兑奖凭证", "Prize voucher").to_string(),
                recipient: w.who.clone(),
                unit: w.unit.clone(),
                citation,
                award: None,
                members: None,
                issuers: issuers.clone(),
                date: date.clone(),
            }));
            continue;
        }
        // A team prize names its division ("荣获团体甲组第一名"); the team is not the
        // individual section it is ranked from.
        let group = match (&w.category, w.kind) {
            (_, PrizeKind::Team) => String::new(),
            // A board prize: the section, then the board in the award ("第一台第一名").
            (_, PrizeKind::Board) => cx.section_name(&w.section),
            (Some(c), _) => format!("{}{c}", cx.section_name(&w.section)),
            (None, _) => cx.section_name(&w.section),
        };
        let division = w.category.clone().unwrap_or_default();
        let what = match (cx.lang, w.kind) {
            (Lang::Zh, PrizeKind::Team) => format!("团体{division}第{}名", zh_rank(w.rank)),
            (Lang::Zh, PrizeKind::Board) => format!(
                "{}第{}名",
                w.board
                    .map(|b| format!("第{}台", zh_rank(b)))
                    .unwrap_or_default(),
                zh_rank(w.rank)
            ),
            (Lang::En, PrizeKind::Board) => match w.board {
                Some(b) => format!("place {} on board {b}", w.rank),
                None => format!("board place {}", w.rank),
            },
            (Lang::Zh, _) => format!("第{}名", zh_rank(w.rank)),
            (Lang::En, PrizeKind::Team) if division.is_empty() => {
                format!("team place {}", w.rank)
            }
            (Lang::En, PrizeKind::Team) => format!("team place {} of {division}", w.rank),
            (Lang::En, _) => format!("place {}", w.rank),
        };
        // K13 "颁发奖杯、荣誉证书" / "颁发奖牌、证书": the certificate names them.
        let honours = w.honours(cx.lang);
        let citation = match cx.lang {
            Lang::Zh => {
                let with = if honours.is_empty() {
                    String::new()
                } else {
                    format!("，颁发{}", honours.join("、"))
                };
                format!(
                    "在{}{}比赛中荣获{what}{with}。特发此证，以资鼓励。",
                    cx.reg.event.name, group
                )
            }
            Lang::En => {
                let with = if honours.is_empty() {
                    String::new()
                } else {
                    format!(", with a {}", honours.join(" and a "))
                };
                if group.is_empty() {
                    format!("for {what} in {}{with}.", event_en())
                } else {
                    format!("for {what} in {group} of {}{with}.", event_en())
                }
            }
        };
        blocks.push(Block::Certificate(Certificate {
            heading: cx.t("荣誉证书", "Certificate").to_string(),
            recipient: w.who.clone(),
            unit: w.unit.clone(),
            citation,
            award: w.title.clone(),
            members: (!w.members.is_empty()).then(|| match cx.lang {
                Lang::Zh => format!("队员：{}", w.members.join("、")),
                Lang::En => format!("Players: {}", w.members.join(", ")),
            }),
            issuers: issuers.clone(),
            date: date.clone(),
        }));
    }
    // S10: a certificate for each organiser's award given.
    for a in &ex.special_awards {
        for r in &a.recipients {
            if !blocks.is_empty() {
                blocks.push(Block::PageBreak);
            }
            let citation = match cx.lang {
                Lang::Zh => format!(
                    "在{}中荣获{}。特发此证，以资鼓励。",
                    cx.reg.event.name, a.award
                ),
                Lang::En => format!(
                    "for 「{}」 at {}.",
                    a.award,
                    cx.reg
                        .event
                        .name_en
                        .clone()
                        .unwrap_or_else(|| cx.reg.event.name.clone())
                ),
            };
            blocks.push(Block::Certificate(Certificate {
                heading: cx.t("荣誉证书", "Certificate").to_string(),
                recipient: r.clone(),
                unit: None,
                citation,
                award: None,
                members: None,
                issuers: issuers.clone(),
                date: date.clone(),
            }));
        }
    }
    for g in graded {
        if !blocks.is_empty() {
            blocks.push(Block::PageBreak);
        }
        let player = ex
            .sections
            .iter()
            .find(|s| s.id == g.section)
            .and_then(|s| s.players.iter().find(|x| x.no == g.no));
        let citation = match cx.lang {
            Lang::Zh => format!(
                "在{}{}比赛中获得第{}名，依照竞赛规程授予{}称号。特发此证。",
                cx.reg.event.name,
                cx.section_name(&g.section),
                zh_rank(g.rank),
                g.grade
            ),
            Lang::En => format!(
                "placed {} in {} of {}, and is awarded the grade {} by the regulation.",
                g.rank,
                cx.section_name(&g.section),
                cx.reg
                    .event
                    .name_en
                    .clone()
                    .unwrap_or_else(|| cx.reg.event.name.clone()),
                g.grade
            ),
        };
        blocks.push(Block::Certificate(Certificate {
            heading: cx.t("等级称号证书", "Grade certificate").to_string(),
            recipient: player.map_or_else(|| format!("{}号", g.no), |x| x.name.clone()),
            unit: player.and_then(|x| x.unit.clone().or_else(|| x.association.clone())),
            citation,
            award: Some(g.grade.clone()),
            members: None,
            issuers: issuers.clone(),
            date: date.clone(),
        }));
    }
    Ok(blocks)
}

fn zh_rank(n: u32) -> String {
    if (1..=99).contains(&n) {
        arbiter_knockout::bracket::zh_num(n)
    } else {
        n.to_string()
    }
}
