//! The rules of a game the regulations state beyond its result: game records (T6 — the
//! boards that must record, who records, a refusal to record, a draw recorded short of the
//! minimum moves flagged for the arbiter), colours played the other way round (S6), protests
//! (S11: 申诉 with its deposit) and the signatures of a result slip (S11, J6).

use super::rounds::section_of;
use super::Ctx;
use crate::refusal::{GameProblem, Refusal, Sec};
use crate::{apply_scratch, regulation_of, DirectorError};
use arbiter_core::{BoardRecord, EventState, FoulKind, LogEntry, Offender, PlayerId};
use arbiter_regulation::{
    DrawRecorder, RecordRules, Recorder, Regulation, ResultSigning, ShortDrawFoul,
};
use arbiter_types::{Colour, GameResult};

/// The record duty of a round (T6), as the pairing list states it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RecordDuty {
    /// Boards 1..=boards must record.
    pub boards: u32,
    /// Who records, in words: 「获胜方录谱，和棋由黑方录谱」.
    pub recorder: String,
    pub recorder_en: String,
}

/// The record rules of a section, when it has any.
fn records<'a>(reg: &'a Regulation, section: &str) -> Option<&'a RecordRules> {
    reg.section(section).and_then(|s| s.records.as_ref())
}

/// The record duty of `round` in `section` (T6: boards 1–10 from round 4), `None` when no
/// board of that round must record.
pub fn record_duty(reg: &Regulation, section: &str, round: u32) -> Option<RecordDuty> {
    let r = records(reg, section)?;
    if !r.must_record(round, 1) {
        return None;
    }
    let (zh, en) = r.recorder_words();
    Some(RecordDuty {
        boards: r.boards,
        recorder: zh,
        recorder_en: en,
    })
}

/// Who records a game of this result (T6: the winner, black on a draw); both on a double
/// forfeit's empty board is nobody.
pub fn recorders(r: &RecordRules, result: GameResult) -> Vec<Colour> {
    use GameResult::*;
    let both = vec![Colour::Red, Colour::Black];
    match result {
        Draw => match r.draw_recorder {
            DrawRecorder::Red => vec![Colour::Red],
            DrawRecorder::Black => vec![Colour::Black],
            DrawRecorder::Both => both,
        },
        RedWin | BlackWin => match r.recorder {
            Recorder::Winner if result == RedWin => vec![Colour::Red],
            Recorder::Winner => vec![Colour::Black],
            Recorder::Red => vec![Colour::Red],
            Recorder::Black => vec![Colour::Black],
            Recorder::Both => both,
        },
        // No game was played: nothing to record.
        RedForfeit | BlackForfeit | DoubleForfeit => Vec::new(),
    }
}

fn player_of(b: &BoardRecord, c: Colour) -> PlayerId {
    match c {
        Colour::Red => b.red,
        Colour::Black => b.black,
    }
}

/// A flag on a game for the arbiter to confirm or dismiss (T6, A13: 和棋录谱不足25回合者，也记
/// 犯规一次).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameFlag {
    pub section: String,
    pub round: u32,
    pub board: u32,
    pub kind: FoulKind,
    /// Moves recorded.
    pub moves: u32,
    /// The regulation's minimum.
    pub min_moves: u32,
    /// The players the foul is recorded on once confirmed, by colour.
    #[serde(skip)]
    pub offenders: Vec<(Colour, PlayerId)>,
    /// Their names, for the lists.
    pub names: Vec<String>,
    /// A short draw the regulation forbids but makes no foul of here (苏州 补充四8 「25回合之内，
    /// 原则上双方不得提和…裁判员有权判无效」; 天水 八(五) on a board with no recording duty):
    /// the arbiter looks at it, and confirming it records no foul.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub review_only: bool,
}

impl GameFlag {
    /// 「第1轮第3台 和棋仅18回合 (规程: 25回合), 待确认: 记张三犯规」; 「第4轮第2台 未录谱,
    /// 待确认: 记张三拒不录谱犯规一次」.
    pub fn describe(&self) -> String {
        if self.kind == FoulKind::Records {
            return format!(
                "第{}轮第{}台 未录谱 (本台须录谱, 尚无棋谱), 待裁判确认: 记 {} 拒不录谱犯规一次, 或撤销 (round {} board {}: no game record on a board that must record: a foul to confirm or dismiss)",
                self.round,
                self.board,
                self.names.join("、"),
                self.round,
                self.board
            );
        }
        if self.review_only {
            return format!(
                "第{}轮第{}台 {}回合之内和棋 (仅{}回合; 规程: {}回合之内不得提和), 待裁判处理: 判和棋无效继续比赛, 或确认和棋 — 不记犯规 ({}、{}) (round {} board {}: a draw agreed after {} moves, before move {}: for the arbiter to void or let stand; no foul)",
                self.round,
                self.board,
                self.min_moves,
                self.moves,
                self.min_moves,
                self.names.first().map_or("", String::as_str),
                self.names.get(1).map_or("", String::as_str),
                self.round,
                self.board,
                self.moves,
                self.min_moves
            );
        }
        format!(
            "第{}轮第{}台 和棋录谱仅{}回合, 不足{}回合, 待裁判确认: 记 {} 犯规一次 (round {} board {}: a draw of {} moves, fewer than {}: a foul to confirm or dismiss)",
            self.round,
            self.board,
            self.moves,
            self.min_moves,
            self.names.join("、"),
            self.round,
            self.board,
            self.moves,
            self.min_moves
        )
    }
}

/// The short-draw flag of one board, pending or not (`None`: the rule does not apply).
fn short_draw_flag(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    round: u32,
    b: &BoardRecord,
) -> Option<GameFlag> {
    let r = records(reg, section)?;
    let min = r.min_moves_before_draw?;
    if b.result != Some(GameResult::Draw) {
        return None;
    }
    // The record's count when the board has one (回合), else the count typed with the result.
    let moves = b.record.as_ref().map(|r| r.full_moves).or(b.moves)?;
    if moves >= min {
        return None;
    }
    // A foul only where the regulation makes one: of both players (`both`), or of the player
    // who records the draw (天水 八(四) 「和棋录谱不足25回合者，也记犯规一次」) — and he records
    // only on a board with the duty (boards 1–10 from round 4: 「从第四轮开始前十台获胜方录谱，
    // 和棋由黑方录谱」). Anywhere else the draw before the minimum is forbidden but no foul
    // (苏州 补充四8, 天水 八(五) 「25回合之内不准提和」): a flag for the arbiter on both players.
    let foul = r.violation_is_foul
        && match r.short_draw_foul {
            ShortDrawFoul::Both => true,
            ShortDrawFoul::Recorder => r.must_record(round, b.board),
        };
    let colours = match r.short_draw_foul {
        ShortDrawFoul::Recorder if foul => recorders(r, GameResult::Draw),
        _ => vec![Colour::Red, Colour::Black],
    };
    let offenders = colours.iter().map(|c| (*c, player_of(b, *c))).collect();
    let mut flag = game_flag(
        state,
        section,
        round,
        b,
        FoulKind::ShortDraw,
        (moves, min),
        offenders,
    );
    flag.review_only = !foul;
    Some(flag)
}

/// A flag of board `b` on `offenders`, named as registered; `moves` is (moves, minimum) of a
/// short draw, (0, 0) otherwise.
fn game_flag(
    state: &EventState,
    section: &str,
    round: u32,
    b: &BoardRecord,
    kind: FoulKind,
    (moves, min_moves): (u32, u32),
    offenders: Vec<(Colour, PlayerId)>,
) -> GameFlag {
    let names = offenders
        .iter()
        .map(|(_, p)| {
            state
                .player(*p)
                .map(|x| x.person.name.clone())
                .unwrap_or_default()
        })
        .collect();
    GameFlag {
        section: section.to_string(),
        round,
        board: b.board,
        kind,
        moves,
        min_moves,
        offenders,
        names,
        review_only: false,
    }
}

/// The missing-record flag of one board (T6: 拒不录谱): a board that must record (the
/// regulation's `boards` from `from_round`), with a played result and no record. `None`: the
/// rule does not apply, or the board has its record.
fn missing_record_flag(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    round: u32,
    b: &BoardRecord,
) -> Option<GameFlag> {
    let r = records(reg, section)?;
    if !r.violation_is_foul || !r.must_record(round, b.board) || b.record.is_some() {
        return None;
    }
    let offenders: Vec<(Colour, PlayerId)> = recorders(r, b.result?)
        .into_iter()
        .map(|c| (c, player_of(b, c)))
        .collect();
    if offenders.is_empty() {
        return None;
    }
    Some(game_flag(
        state,
        section,
        round,
        b,
        FoulKind::Records,
        (0, 0),
        offenders,
    ))
}

/// Every flag of a board, pending or decided.
fn flags_of(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    round: u32,
    b: &BoardRecord,
) -> Vec<GameFlag> {
    short_draw_flag(reg, state, section, round, b)
        .into_iter()
        .chain(missing_record_flag(reg, state, section, round, b))
        .collect()
}

/// Whether the arbiter decided the flag of this kind on the board — for a missing record,
/// a refusal to record already recorded on the board (`result refuse-record`) decides it too.
fn decided(b: &BoardRecord, kind: FoulKind) -> bool {
    b.flags_decided.iter().any(|(k, _)| *k == kind)
        || (kind == FoulKind::Records && b.fouls.iter().any(|f| f.kind == FoulKind::Records))
}

/// Every flag waiting for the arbiter's decision in `section` (every section: `None`), in
/// round and board order.
pub fn pending_flags(
    state: &EventState,
    section: Option<&str>,
) -> Result<Vec<GameFlag>, DirectorError> {
    let reg = regulation_of(state)?;
    let mut out = Vec::new();
    for (sid, rec) in state.sections.iter() {
        if section.is_some_and(|s| s != sid.as_str()) {
            continue;
        }
        for rd in rec.rounds.values() {
            for b in rd.boards.iter() {
                for f in flags_of(&reg, state, sid, rd.round, b) {
                    if !decided(b, f.kind) {
                        out.push(f);
                    }
                }
            }
        }
    }
    Ok(out)
}

pub(super) fn board_of<'a>(
    reg: &Regulation,
    state: &'a EventState,
    section: &str,
    round: u32,
    board: u32,
) -> Result<&'a BoardRecord, DirectorError> {
    state
        .section(section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.board(board))
        .ok_or_else(|| {
            Refusal::NoSuchBoard {
                section: Sec::in_reg(reg, section),
                round,
                board,
                boards: None,
            }
            .into()
        })
}

pub(super) fn game_rule(
    reg: &Regulation,
    section: &str,
    round: u32,
    board: u32,
    p: GameProblem,
) -> DirectorError {
    Refusal::GameRule {
        section: Sec::in_reg(reg, section),
        round,
        board,
        problem: p,
    }
    .into()
}

/// `result flag`: the arbiter confirms (the foul is recorded on the players the regulation
/// names: kind `short_draw` for a short draw, `records` — the refusal to record — for a
/// missing record) or dismisses the pending flag of a board; `kind` chooses among two
/// (none: the first pending, the short draw before the missing record).
#[allow(clippy::too_many_arguments)]
pub fn decide_flag(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    kind: Option<FoulKind>,
    confirm: bool,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    let b = board_of(&reg, state, section, round, board)?;
    let flag = flags_of(&reg, state, section, round, b)
        .into_iter()
        .find(|f| !decided(b, f.kind) && kind.is_none_or(|k| k == f.kind))
        .ok_or_else(|| game_rule(&reg, section, round, board, GameProblem::NoPendingFlag))?;
    let mut out = Vec::new();
    if confirm && flag.kind == FoulKind::Records {
        for (_, p) in &flag.offenders {
            out.push(LogEntry::FoulRecorded {
                section: section.to_string(),
                offender: Offender::Player(*p),
                round: Some(round),
                board: Some(board),
                kind: FoulKind::Records,
                reason: "拒不录谱 (未录谱), 记犯规一次 (no game record: refused to record)"
                    .to_string(),
            });
        }
    } else if confirm && !flag.review_only {
        for (_, p) in &flag.offenders {
            out.push(LogEntry::FoulRecorded {
                section: section.to_string(),
                offender: Offender::Player(*p),
                round: Some(round),
                board: Some(board),
                kind: FoulKind::ShortDraw,
                reason: format!(
                    "和棋录谱不足{}回合 (仅{}回合), 记犯规一次 (a draw recorded with {} moves, fewer than {})",
                    flag.min_moves, flag.moves, flag.moves, flag.min_moves
                ),
            });
        }
    }
    out.push(LogEntry::FoulFlagDecided {
        section: section.to_string(),
        round,
        board,
        kind: flag.kind,
        confirmed: confirm,
        reason: reason.trim().to_string(),
    });
    check(state, ctx, &out)?;
    Ok(out)
}

/// Every entry folds on the state (the log's own rules), before it is returned.
fn check(state: &EventState, ctx: &Ctx, out: &[LogEntry]) -> Result<(), DirectorError> {
    let mut scratch = state.clone();
    let at = ctx.at_rfc3339();
    for e in out {
        apply_scratch(&mut scratch, e, &at)?;
    }
    Ok(())
}

/// `result refuse-record`: the player who must record this game refused to (T6: 拒不录谱，每次
/// 记犯规一次) — a foul of kind `records` on the board. Only where the regulation makes it a
/// foul, on a board that must record (before the duty's first round the arbiters name the
/// recorder, so any player of the board).
pub fn refuse_record(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    colour: Colour,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    let b = board_of(&reg, state, section, round, board)?;
    let rules = records(&reg, section).filter(|r| r.violation_is_foul);
    let Some(r) = rules else {
        return Err(game_rule(
            &reg,
            section,
            round,
            board,
            GameProblem::NoRecordDuty {
                boards: 0,
                from_round: 0,
            },
        ));
    };
    let Some(result) = b.result else {
        return Err(game_rule(
            &reg,
            section,
            round,
            board,
            GameProblem::NoResultYet,
        ));
    };
    if round >= r.from_round {
        if !r.must_record(round, board) {
            return Err(game_rule(
                &reg,
                section,
                round,
                board,
                GameProblem::NoRecordDuty {
                    boards: r.boards,
                    from_round: r.from_round,
                },
            ));
        }
        let who = recorders(r, result);
        if !who.contains(&colour) {
            let recorder = match who.as_slice() {
                [] => "无人 (nobody)".to_string(),
                [c] => format!("{}方", c.zh()),
                _ => "双方".to_string(),
            };
            return Err(game_rule(
                &reg,
                section,
                round,
                board,
                GameProblem::NotTheRecorder { recorder },
            ));
        }
    }
    let why = reason.trim();
    let out = vec![LogEntry::FoulRecorded {
        section: section.to_string(),
        offender: Offender::Player(player_of(b, colour)),
        round: Some(round),
        board: Some(board),
        kind: FoulKind::Records,
        reason: if why.is_empty() {
            "拒不录谱, 记犯规一次 (refused to record the game)".to_string()
        } else {
            why.to_string()
        },
    }];
    check(state, ctx, &out)?;
    Ok(out)
}

/// `result protest`: a protest (申诉) about a game and the arbitration's decision (S11: 「递交
/// 仲裁，并交纳500元申述费，胜述退还，如不胜述则不退还」): the deposit is the regulation's
/// `protest_deposit_yuan` (none: 0), returned when the protest is upheld and kept otherwise.
#[allow(clippy::too_many_arguments)]
pub fn protest(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    by: &str,
    upheld: bool,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    board_of(&reg, state, section, round, board)?;
    let deposit_fen = u64::from(reg.event.protest_deposit_yuan.unwrap_or(0)) * 100;
    let out = vec![LogEntry::ProtestDecided {
        section: section.to_string(),
        round,
        board,
        by: by.trim().to_string(),
        deposit_fen,
        upheld,
        deposit_returned: upheld && deposit_fen > 0,
        reason: reason.trim().to_string(),
    }];
    check(state, ctx, &out)?;
    Ok(out)
}

/// The words of the rule applied when the winner signs where the loser should (S11).
pub const WINNER_SIGNED: &str =
    "赢棋签了名，按输棋处理 (the winner signed the slip where the loser signs: it counts as his loss)";

/// `result sign`: the players who signed a board's result slip, as signed (S11, J6). Who
/// must sign is the regulation's `result_signing`: `loser_signs` (S11: 「负方签名，和棋双方签名」
/// — and 「赢棋签了名，按输棋处理」: a slip the winner signed instead of the loser records the
/// game as his loss), `both_sign` (J6: both players). A forfeit's slip takes whoever signed.
pub fn sign(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    round: u32,
    board: u32,
    signed: &[Colour],
) -> Result<Vec<LogEntry>, DirectorError> {
    use GameResult::*;
    let reg = regulation_of(state)?;
    section_of(&reg, state, section)?;
    let b = board_of(&reg, state, section, round, board)?;
    let err = |p| game_rule(&reg, section, round, board, p);
    let Some(result) = b.result else {
        return Err(err(GameProblem::NoResultYet));
    };
    if b.confirmed {
        return Err(err(GameProblem::AlreadySigned));
    }
    if signed.is_empty() {
        return Err(err(GameProblem::NoSignature));
    }
    let has = |c: Colour| signed.contains(&c);
    let both = has(Colour::Red) && has(Colour::Black);
    let name = |c: Colour| {
        state
            .player(player_of(b, c))
            .map(|x| x.person.name.clone())
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    let played = !result.is_forfeit();
    match (reg.event.result_signing, result) {
        (_, _) if !played => {}
        (Some(ResultSigning::BothSign), _) | (Some(ResultSigning::LoserSigns), Draw) if !both => {
            return Err(err(GameProblem::MissingSignature {
                need: "双方".to_string(),
            }));
        }
        (Some(ResultSigning::LoserSigns), RedWin | BlackWin) => {
            let (winner, loser) = if result == RedWin {
                (Colour::Red, Colour::Black)
            } else {
                (Colour::Black, Colour::Red)
            };
            if has(winner) && !has(loser) {
                out.push(LogEntry::ResultCorrected {
                    section: section.to_string(),
                    round,
                    board,
                    result: if result == RedWin { BlackWin } else { RedWin },
                    reason: WINNER_SIGNED.to_string(),
                    by: ctx.actor.clone(),
                });
            }
        }
        _ => {}
    }
    let mut names: Vec<String> = [Colour::Red, Colour::Black]
        .into_iter()
        .filter(|c| has(*c))
        .map(name)
        .collect();
    names.retain(|n| !n.trim().is_empty());
    out.push(LogEntry::ResultConfirmed {
        section: section.to_string(),
        round,
        board,
        signed_by: names,
    });
    check(state, ctx, &out)?;
    Ok(out)
}
