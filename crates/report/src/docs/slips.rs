//! The score slips (记分单) of a round: one per board.

use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, QrCode, Table};
use arbiter_director::api::{results, rounds};
use arbiter_director::claim::{self, KoSeat, Seat};
use arbiter_regulation::ResultSigning;
use arbiter_types::Colour;

/// Each side's claim code of a board, or of a knockout game due on it, and a QR code of the
/// claim page with it, when the document is asked to carry them. A knockout game whose
/// colours a player chooses at the board (K7) has none, and says the arbiter enters it.
fn claim_codes(cx: &Ctx, sheet: &rounds::RoundSheet, board: u32) -> Option<Block> {
    let claims = cx.claims.as_ref()?;
    let game = if sheet.knockout.is_empty() {
        cx.state
            .section(&sheet.section)
            .and_then(|s| s.round(sheet.round))
            .and_then(|r| r.board(board))?;
        None
    } else {
        let g = claim::knockout_games(cx.state, &sheet.section)
            .into_iter()
            .find(|g| g.due == Some((sheet.round, board)))?;
        if g.chooser {
            return Some(Block::Paragraph(
                cx.t(
                    "本局由选手临场选色, 成绩由裁判录入, 不用手机确认。",
                    "A player chooses the colours of this game at the board: the officials enter its result, not the phones.",
                )
                .to_string(),
            ));
        }
        Some(g)
    };
    let mut codes = Vec::new();
    for side in [Colour::Red, Colour::Black] {
        let secret = claims.secret.as_bytes();
        let code = match &game {
            None => claim::code(
                secret,
                &Seat {
                    section: sheet.section.clone(),
                    round: sheet.round,
                    board,
                    side,
                },
            ),
            Some(g) => claim::knockout_code(
                secret,
                &KoSeat {
                    section: sheet.section.clone(),
                    match_id: g.match_id.clone(),
                    game: g.game,
                    side,
                },
            ),
        };
        let url = &claims.url;
        let side_word = match side {
            Colour::Red => cx.t("红方", "Red"),
            Colour::Black => cx.t("黑方", "Black"),
        };
        let lines = vec![
            format!("{side_word} {} {code}", cx.t("确认码", "claim code")),
            match cx.lang {
                Lang::Zh => format!(
                    "扫码或打开 {url} 输入确认码 {code} 确认本{}成绩",
                    if game.is_some() { "局" } else { "台" }
                ),
                Lang::En => format!(
                    "Scan the code or open {url} and enter the code {code} to confirm this {}'s result",
                    if game.is_some() { "game" } else { "board" }
                ),
            },
        ];
        codes.push(QrCode::new(&format!("{url}?c={code}"), lines)?);
    }
    Some(Block::Codes(codes))
}

pub(super) fn slips(cx: &Ctx, head: &str, sheet: &rounds::RoundSheet, blocks: &mut Vec<Block>) {
    for (i, b) in sheet.boards.iter().enumerate() {
        let mut inner = Vec::new();
        let mut h = match cx.lang {
            Lang::Zh => format!("{head} 第{}台 记录单", b.board),
            Lang::En => format!("{head} board {} result slip", b.board),
        };
        if let Some(m) = sheet.knockout.get(i) {
            h.push_str(&format!(" · {m}"));
        }
        inner.push(Block::Heading(h));
        inner.push(Block::Table(Table {
            id: format!("slip-{}-{}-{}", sheet.section, sheet.round, b.board),
            caption: None,
            columns: vec![
                col("side", "", Align::Center, 5),
                col("no", cx.t("序号", "No."), Align::Right, 5),
                col("name", cx.t("姓名", "Name"), Align::Left, 12),
                col("unit", cx.t("单位", "Unit"), Align::Left, 20),
                col("score", cx.t("积分", "Pts"), Align::Right, 5),
                col(
                    "result",
                    cx.t("结果(请圈选)", "Result (circle)"),
                    Align::Center,
                    18,
                ),
            ],
            rows: vec![
                vec![
                    Cell::text(cx.t("红方", "Red")),
                    Cell::Int(b.red.no as i64),
                    Cell::text(&b.red.name),
                    Cell::opt(b.red.unit.as_deref()),
                    Cell::Score(b.red.score),
                    Cell::text(cx.t("胜 · 和 · 负", "win · draw · loss")),
                ],
                vec![
                    Cell::text(cx.t("黑方", "Black")),
                    Cell::Int(b.black.no as i64),
                    Cell::text(&b.black.name),
                    Cell::opt(b.black.unit.as_deref()),
                    Cell::Score(b.black.score),
                    Cell::text(cx.t("胜 · 和 · 负", "win · draw · loss")),
                ],
            ],
        }));
        // Who signs, as the regulation says (苏州 补充二2, 九江 补充五).
        let final_ = cx.reg.event.signed_results_final;
        let (rule, signs) = match cx.reg.event.result_signing {
            Some(ResultSigning::LoserSigns) => (
                Some(cx.t(
                    "负方签名，和棋双方签名。（赢棋签了名，按输棋处理。）",
                    "The loser signs; both sign a draw. (A winner who signs is recorded as the loser.)",
                )),
                vec![
                    cx.t("负方签名", "Loser signs").to_string(),
                    cx.t("和棋时另一方签名", "Draw: the other player signs").to_string(),
                ],
            ),
            Some(ResultSigning::BothSign) => (
                Some(if final_ {
                    cx.t(
                        "对局结束后，双方运动员必须签名确认。经签名确认比赛结果，不予更改。",
                        "Both players sign the result; a signed result is not changed.",
                    )
                } else {
                    cx.t(
                        "对局结束后，双方运动员签名确认。",
                        "Both players sign the result.",
                    )
                }),
                vec![
                    cx.t("红方签名", "Red signs").to_string(),
                    cx.t("黑方签名", "Black signs").to_string(),
                ],
            ),
            None => (
                None,
                vec![
                    cx.t("红方签名", "Red signs").to_string(),
                    cx.t("黑方签名", "Black signs").to_string(),
                ],
            ),
        };
        if let Some(rule) = rule {
            inner.push(Block::Paragraph(rule.to_string()));
        }
        // A signed result the chief arbiter corrected all the same (九江 补充五) says so.
        let overridden = cx
            .state
            .section(&sheet.section)
            .and_then(|s| s.round(sheet.round))
            .and_then(|r| r.board(b.board))
            .into_iter()
            .flat_map(|x| x.history.iter().rev())
            .find_map(|h| match h {
                arbiter_core::ResultChange::Corrected { reason, by, .. }
                    if results::overrode_signatures(reason) =>
                {
                    Some((reason, by))
                }
                _ => None,
            });
        if let Some((reason, by)) = overridden {
            inner.push(Block::Paragraph(match cx.lang {
                Lang::Zh => format!("本台成绩签名确认后经裁判长更正 ({by}): {reason}"),
                Lang::En => format!(
                    "This signed result was corrected by the chief arbiter ({by}): {reason}"
                ),
            }));
        }
        let mut signs = signs;
        signs.push(cx.t("裁判员签名", "Arbiter").to_string());
        inner.push(Block::Signatures(signs));
        if let Some(codes) = claim_codes(cx, sheet, b.board) {
            inner.push(codes);
        }
        blocks.push(Block::KeepTogether(inner));
    }
}
