//! The check-in sheet (签到表): every player of the sections, with what he has paid.

use super::{col, section_start, Ctx};
use crate::{Align, Block, Cell, Lang, Privacy, ReportError, Table};
use arbiter_director::api::entries::fee_due;

pub(super) fn checkin(cx: &Ctx, privacy: Privacy) -> Result<Vec<Block>, ReportError> {
    let mut blocks = Vec::new();
    for (i, sid) in cx.sections.iter().enumerate() {
        section_start(cx, i, sid, &mut blocks);
        let due = fee_due(&cx.reg, sid);
        let nos = arbiter_director::publish::publish_numbers(cx.state, sid);
        let mut players = cx.state.players(sid);
        // The desk works unit by unit: by unit, then by registration.
        players.sort_by(|a, b| (&a.person.unit, a.id).cmp(&(&b.person.unit, b.id)));
        // K5: the 社保号 when the regulation asks for it (masked unless the organiser's copy).
        let ss = cx
            .reg
            .registration
            .fields
            .contains(&arbiter_regulation::EntryField::SocialSecurityNumber);
        let mut columns = vec![
            col("seq", cx.t("序", "#"), Align::Right, 4),
            col("no", cx.t("编号", "No."), Align::Right, 5),
            col("name", cx.t("姓名", "Name"), Align::Left, 10),
            col("sex", cx.t("性别", "Sex"), Align::Center, 4),
            col("unit", cx.t("单位", "Unit"), Align::Left, 20),
            col("id_number", cx.t("身份证号", "ID number"), Align::Left, 19),
            col("phone", cx.t("电话", "Phone"), Align::Left, 12),
            col("fee_due", cx.t("应缴", "Fee"), Align::Right, 7),
            col("fee_paid", cx.t("已缴", "Paid"), Align::Right, 7),
            col("fee_owed", cx.t("欠缴", "Owed"), Align::Right, 7),
            col("checked_in", cx.t("检录", "In"), Align::Center, 5),
            col("signature", cx.t("本人签名", "Signature"), Align::Left, 14),
        ];
        if ss {
            columns.insert(
                7,
                col(
                    "social_security",
                    cx.t("社保号", "Social-security no."),
                    Align::Left,
                    19,
                ),
            );
        }
        let mut rows = Vec::new();
        let (mut total_due, mut total_paid) = (0u64, 0u64);
        for (k, p) in players.iter().enumerate() {
            let owed = due.map(|d| d.saturating_sub(p.paid_fen));
            total_due += due.unwrap_or(0);
            total_paid += p.paid_fen;
            let id = p.person.id_number.as_ref().map(|n| match privacy {
                Privacy::Organiser => n.as_str().to_string(),
                Privacy::Published => n.masked(),
            });
            let phone = p.person.phone.as_ref().map(|n| match privacy {
                Privacy::Organiser => n.as_str().to_string(),
                Privacy::Published => n.masked(),
            });
            let social = p.person.social_security.as_ref().map(|n| match privacy {
                Privacy::Organiser => n.as_str().to_string(),
                Privacy::Published => n.masked(),
            });
            let status = if p.withdrawn.is_some() {
                cx.t("退赛", "out")
            } else if p.checked_in {
                cx.t("已检录", "yes")
            } else {
                ""
            };
            let mut row = vec![
                Cell::Int(k as i64 + 1),
                nos.get(&p.id).map_or(Cell::Empty, |n| Cell::Int(*n as i64)),
                Cell::text(&p.person.name),
                p.person
                    .sex
                    .map_or(Cell::Empty, |s| Cell::text(cx.t(s.zh(), sex_en(s)))),
                Cell::opt(p.person.unit.as_deref().or(p.person.association.as_deref())),
                id.map_or(Cell::Empty, Cell::Text),
                phone.map_or(Cell::Empty, Cell::Text),
                due.map_or(Cell::Empty, Cell::Money),
                Cell::Money(p.paid_fen),
                match owed {
                    Some(0) | None => Cell::Empty,
                    Some(o) => Cell::Money(o),
                },
                Cell::text(status),
                Cell::Empty,
            ];
            if ss {
                row.insert(7, social.map_or(Cell::Empty, Cell::Text));
            }
            rows.push(row);
        }
        let checked = players.iter().filter(|p| p.checked_in).count();
        blocks.push(Block::Table(Table {
            id: format!("checkin-{sid}"),
            caption: Some(cx.section_name(sid)),
            columns,
            rows,
        }));
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!(
                "共 {} 人, 已检录 {} 人; 应缴 {}, 已缴 {}, 欠缴 {}",
                players.len(),
                checked,
                Cell::Money(total_due).display(),
                Cell::Money(total_paid).display(),
                Cell::Money(total_due.saturating_sub(total_paid)).display()
            ),
            Lang::En => format!(
                "{} players, {} checked in; fees due {}, paid {}, owed {}",
                players.len(),
                checked,
                Cell::Money(total_due).display(),
                Cell::Money(total_paid).display(),
                Cell::Money(total_due.saturating_sub(total_paid)).display()
            ),
        }));
    }
    Ok(blocks)
}

fn sex_en(s: arbiter_types::Sex) -> &'static str {
    match s {
        arbiter_types::Sex::Male => "M",
        arbiter_types::Sex::Female => "F",
    }
}
