//! The entry receipts (报名回执): one small block per player — name, section, 报名号 and unit,
//! never an ID number or a phone — with his check-in code (手机签到码,
//! `arbiter_director::claim::check_in_code`, the code the online entry's status page shows)
//! and a QR code of the check-in page with it. Handed to a player registered at the desk,
//! who has no status page. Only where the regulation lets players check in on the phone
//! (`arbiter_director::claim::check_in_by_phone`).

use super::{col, section_start, Ctx};
use crate::{Align, Block, Cell, Lang, QrCode, ReportError, Table};
use arbiter_director::claim;

pub(super) fn entry_receipts(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    claim::check_in_by_phone(cx.state).map_err(|p| ReportError::Nothing(p.to_string()))?;
    let Some(codes) = cx.claims.as_ref() else {
        return Err(ReportError::Nothing(
            cx.t(
                "报名回执印手机签到码和签到页的二维码, 需要赛事的公开地址",
                "The entry receipts carry the check-in codes and a QR code of the check-in page: they need the event's public address",
            )
            .to_string(),
        ));
    };
    let mut blocks = Vec::new();
    let mut any = false;
    for (i, sid) in cx.sections.iter().enumerate() {
        let players: Vec<_> = cx
            .state
            .players(sid)
            .into_iter()
            .filter(|p| p.withdrawn.is_none())
            .collect();
        if players.is_empty() {
            continue;
        }
        section_start(cx, i, sid, &mut blocks);
        let section = cx.section_name(sid);
        for p in players {
            any = true;
            let code = claim::check_in_code(codes.secret.as_bytes(), p.id);
            let url = &codes.url;
            let lines = vec![
                format!("{} {code}", cx.t("签到码", "Check-in code")),
                match cx.lang {
                    Lang::Zh => format!("扫码或打开 {url} 输入签到码 {code} 手机签到"),
                    Lang::En => {
                        format!("Scan the code or open {url} and enter the code {code} to check in")
                    }
                },
            ];
            let qr = QrCode::new(&format!("{url}?c={code}"), lines).ok_or_else(|| {
                ReportError::Nothing(
                    cx.t(
                        "公开地址过长, 无法生成二维码",
                        "The public address is too long for a QR code",
                    )
                    .to_string(),
                )
            })?;
            blocks.push(Block::KeepTogether(vec![
                Block::Heading(match cx.lang {
                    Lang::Zh => format!("报名回执 · {}", p.person.name),
                    Lang::En => format!("Entry receipt · {}", p.person.name),
                }),
                Block::Table(Table {
                    id: format!("entry-receipt-{}", p.id.0),
                    caption: None,
                    columns: vec![
                        col("entry", cx.t("报名号", "Entry id"), Align::Left, 6),
                        col("name", cx.t("姓名", "Name"), Align::Left, 10),
                        col("section", cx.t("组别", "Section"), Align::Left, 12),
                        col("unit", cx.t("单位", "Unit"), Align::Left, 20),
                    ],
                    rows: vec![vec![
                        Cell::text(format!("P{}", p.id.0)),
                        Cell::text(&p.person.name),
                        Cell::text(&section),
                        Cell::opt(p.person.unit.as_deref().or(p.person.association.as_deref())),
                    ]],
                }),
                Block::Codes(vec![qr]),
            ]));
        }
    }
    if !any {
        return Err(ReportError::Nothing(
            cx.t("尚无报名的棋手", "No player has entered yet")
                .to_string(),
        ));
    }
    Ok(blocks)
}
