//! Players confirm their own results on the phone (选手手机确认成绩, J6 both sign, S11 the
//! loser signs).
//!
//! Each player of a published round gets a code for his board and his colour, printed on the
//! pairing slip: an HMAC-SHA256 of the section, round, board and colour under a secret of the
//! event that the store keeps beside the log (never in the log or an export), so a code
//! cannot be guessed from the pairing and names one board, one round and one side. The shell
//! finds the seat a code names ([`seat_of`]) and asks [`claim_result`] to decide the claim,
//! which is one `result_claimed` entry — followed by the `result_entered` when the claims now
//! agree as the regulation's signing rule asks ([`status`]). A disagreement, or a claim by a
//! side the regulation does not let sign, leaves the board to the arbiter, who enters or
//! overrides as always; once a result is in, claims are refused.

use crate::api::results::ResultInput;
use crate::api::Ctx;
use crate::permission::Action;
use crate::refusal::{Refusal, Sec};
use crate::{apply_scratch, regulation_of, DirectorError};
use arbiter_core::PlayerId;
use arbiter_core::{BoardRecord, EventState, LogEntry};
use arbiter_regulation::ResultSigning;
use arbiter_types::{Colour, GameResult};
use sha2::{Digest, Sha256};

/// The letters of a code: digits and capitals without 0, 1, I and O (read aloud or typed
/// from paper without mistaking one for another).
const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// Letters in a code: 8 × 5 = 40 bits, tried only at the rate the shell allows.
pub const CODE_LEN: usize = 8;

/// The bytes of a fresh event secret the store keeps (at least this many).
pub const SECRET_LEN: usize = 32;

/// One player's place in a round: his board and the colour he plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub section: String,
    pub round: u32,
    pub board: u32,
    pub side: Colour,
}

/// HMAC-SHA256 (RFC 2104) of `msg` under `key`.
fn hmac_sha256(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    inner.update(msg);
    let inner = inner.finalize();
    let mut outer = Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(inner);
    outer.finalize().into()
}

/// The code of `seat` under the event's `secret`: [`CODE_LEN`] letters of [`ALPHABET`].
pub fn code(secret: &[u8], seat: &Seat) -> String {
    let side = match seat.side {
        Colour::Red => "red",
        Colour::Black => "black",
    };
    let msg = format!(
        "arbiter-claim/1\u{0}{}\u{0}{}\u{0}{}\u{0}{side}",
        seat.section, seat.round, seat.board
    );
    letters(secret, &msg)
}

/// [`CODE_LEN`] letters of [`ALPHABET`] from the MAC of `msg` under `secret`.
fn letters(secret: &[u8], msg: &str) -> String {
    let mac = hmac_sha256(secret, msg.as_bytes());
    // The first 40 bits, five at a time.
    let mut bits: u64 = 0;
    for b in &mac[..5] {
        bits = (bits << 8) | u64::from(*b);
    }
    (0..CODE_LEN)
        .map(|i| {
            let v = (bits >> (5 * (CODE_LEN - 1 - i))) & 31;
            char::from(ALPHABET[v as usize])
        })
        .collect()
}

/// A code as a player types it: spaces and dashes dropped, small letters made capital.
/// `None` when what is left is not [`CODE_LEN`] letters of the code's alphabet.
pub fn normalize(typed: &str) -> Option<String> {
    let c: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (c.chars().count() == CODE_LEN && c.bytes().all(|b| ALPHABET.contains(&b))).then_some(c)
}

/// Two codes compared in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// The seat `code` names among the published rounds of every section, if any.
pub fn seat_of(state: &EventState, secret: &[u8], code_typed: &str) -> Option<Seat> {
    let typed = normalize(code_typed)?;
    let mut found = None;
    for (id, sec) in &state.sections {
        for (r, rd) in &sec.rounds {
            if !rd.published {
                continue;
            }
            for b in &rd.boards {
                for side in [Colour::Red, Colour::Black] {
                    let seat = Seat {
                        section: id.clone(),
                        round: *r,
                        board: b.board,
                        side,
                    };
                    // Every seat is compared, found or not: the time taken does not say
                    // how far a guess got.
                    if same(&code(secret, &seat), &typed) && found.is_none() {
                        found = Some(seat);
                    }
                }
            }
        }
    }
    found
}

/// The check-in code of `player` (手机签到码) under the event's `secret`: the same letters as a
/// result code, made under its own label so that no result code is a check-in code.
pub fn check_in_code(secret: &[u8], player: PlayerId) -> String {
    letters(secret, &format!("arbiter-checkin/1\u{0}{}", player.0))
}

/// The player `code_typed` is the check-in code of, if any.
pub fn player_of_check_in_code(
    state: &EventState,
    secret: &[u8],
    code_typed: &str,
) -> Option<PlayerId> {
    let typed = normalize(code_typed)?;
    let mut found = None;
    for p in state.players.keys() {
        // Every player is compared, as for a result code.
        if same(&check_in_code(secret, *p), &typed) && found.is_none() {
            found = Some(*p);
        }
    }
    found
}

/// Whether the regulation lets players check in on the phone: it sets a check-in (报到,
/// `registration.check_in`); otherwise [`ClaimProblem::NoCheckIn`].
pub fn check_in_by_phone(state: &EventState) -> Result<(), ClaimProblem> {
    regulation_of(state)
        .ok()
        .and_then(|r| r.registration.check_in)
        .map(|_| ())
        .ok_or(ClaimProblem::NoCheckIn)
}

/// May `side` sign the slip of `result` under the regulation's signing rule (S11: the loser
/// signs, both a draw; J6 and by default: both)?
pub fn may_sign(signing: Option<ResultSigning>, side: Colour, result: GameResult) -> bool {
    match (signing, result) {
        (Some(ResultSigning::LoserSigns), GameResult::RedWin) => side == Colour::Black,
        (Some(ResultSigning::LoserSigns), GameResult::BlackWin) => side == Colour::Red,
        _ => true,
    }
}

/// Where a board's claims stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimStatus {
    /// No claim.
    None,
    /// The claims made so far agree, and a side that must sign has not claimed yet.
    Waiting,
    /// The claims agree as the signing rule asks: the result is the players'.
    Agreed(GameResult),
    /// Red and black claim different results: the arbiter decides.
    Disagree { red: GameResult, black: GameResult },
    /// A side claimed where the regulation does not let it sign (S11: the winner), and the
    /// loser has not confirmed: the arbiter decides.
    NotSigner { side: Colour, result: GameResult },
}

impl ClaimStatus {
    /// The board wants the arbiter's eye (the desk shows it red).
    pub fn flagged(self) -> bool {
        matches!(
            self,
            ClaimStatus::Disagree { .. } | ClaimStatus::NotSigner { .. }
        )
    }
}

/// The standing claims of `board` under the regulation's signing rule.
pub fn status(signing: Option<ResultSigning>, board: &BoardRecord) -> ClaimStatus {
    status_of(
        signing,
        board.claim(Colour::Red).map(|c| c.result),
        board.claim(Colour::Black).map(|c| c.result),
    )
}

/// The standing claims of a game, red's and black's, under the regulation's signing rule.
pub fn status_of(
    signing: Option<ResultSigning>,
    red: Option<GameResult>,
    black: Option<GameResult>,
) -> ClaimStatus {
    let result = match (red, black) {
        (None, None) => return ClaimStatus::None,
        (Some(r), Some(b)) if r != b => return ClaimStatus::Disagree { red: r, black: b },
        (Some(c), _) | (None, Some(c)) => c,
    };
    let signers: &[Colour] = match (signing, result) {
        (Some(ResultSigning::LoserSigns), GameResult::RedWin) => &[Colour::Black],
        (Some(ResultSigning::LoserSigns), GameResult::BlackWin) => &[Colour::Red],
        _ => &[Colour::Red, Colour::Black],
    };
    let claimed = |s: Colour| match s {
        Colour::Red => red.is_some(),
        Colour::Black => black.is_some(),
    };
    if signers.iter().all(|s| claimed(*s)) {
        return ClaimStatus::Agreed(result);
    }
    let claimed = if red.is_some() {
        Colour::Red
    } else {
        Colour::Black
    };
    if !may_sign(signing, claimed, result) {
        return ClaimStatus::NotSigner {
            side: claimed,
            result,
        };
    }
    ClaimStatus::Waiting
}

/// A board whose players have claimed and that has no result yet: what the desk shows (red
/// when [`ClaimStatus::flagged`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingClaim {
    pub round: u32,
    pub board: u32,
    pub red: Option<GameResult>,
    pub black: Option<GameResult>,
    pub status: ClaimStatus,
}

impl PendingClaim {
    /// The board's claims in words, Chinese first.
    pub fn describe(&self) -> String {
        format!(
            "第{}轮第{}台 选手确认: {}",
            self.round,
            self.board,
            claims_words(self.red, self.black, self.status, "board")
        )
    }
}

/// Two sides' claims and what they leave the arbiter, in words (「红方确认 …, 黑方未确认 —
/// 等待对方确认」); `what` names the board or game in the English gloss.
fn claims_words(
    red: Option<GameResult>,
    black: Option<GameResult>,
    status: ClaimStatus,
    what: &str,
) -> String {
    let said = |side: &str, r: Option<GameResult>| match r {
        Some(r) => format!("{side}确认 {}", r.zh()),
        None => format!("{side}未确认"),
    };
    let left = match status {
        ClaimStatus::Disagree { .. } => {
            "双方不一致, 请裁判录入成绩 (the players disagree: enter the result)".to_string()
        }
        ClaimStatus::NotSigner { .. } => format!(
            "按规程负方签名, 胜方的确认不算, 请裁判处理 (the regulation has the loser sign: decide the {what})"
        ),
        _ => "等待对方确认 (waiting for the other player)".to_string(),
    };
    format!("{}, {} — {left}", said("红方", red), said("黑方", black))
}

/// The boards of `section` (every round) with claims and no result, in round and board
/// order.
pub fn pending(state: &EventState, section: &str) -> Vec<PendingClaim> {
    let signing = regulation_of(state)
        .ok()
        .and_then(|r| r.event.result_signing);
    let Some(sec) = state.section(section) else {
        return Vec::new();
    };
    sec.rounds
        .iter()
        .flat_map(|(r, rd)| {
            rd.boards
                .iter()
                .filter(|b| b.result.is_none() && !b.claims.is_empty())
                .map(move |b| PendingClaim {
                    round: *r,
                    board: b.board,
                    red: b.claim(Colour::Red).map(|c| c.result),
                    black: b.claim(Colour::Black).map(|c| c.result),
                    status: status(signing, b),
                })
        })
        .collect()
}

/// Why a claim is refused, in the player's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimProblem {
    /// A phone claims a win, a draw or a loss only (forfeits are the arbiter's).
    NotAGameResult,
    /// The round's pairing is not published.
    NotPublished { section: Sec, round: u32 },
    /// The board has its result already (the players', or the arbiter's entry).
    ResultIn {
        round: u32,
        board: u32,
        stored: GameResult,
    },
    /// The slip is signed: the result is final unless the chief arbiter corrects it.
    Confirmed { round: u32, board: u32 },
    /// The same claim again from the same side.
    Repeated { round: u32, board: u32 },
    /// The code names another board than the page the claim came from.
    OtherBoard,
    /// No seat has this code.
    UnknownCode,
    /// The regulation sets no check-in, so none is taken on the phone.
    NoCheckIn,
    /// No player has this check-in code.
    UnknownCheckInCode,
    /// The knockout game (its match and game in words) has its result already.
    GameIn { game: String, stored: GameResult },
    /// The knockout game is not due now: its match is decided, or the game is not yet
    /// (or no longer) one the bracket plays.
    GameNotDue { game: String },
    /// A player chooses the colours of this knockout game at the board (K7): the arbiter
    /// enters it.
    ColoursChosen { game: String },
    /// The same claim of a knockout game again from the same side.
    RepeatedGame { game: String },
    /// The code names another knockout game than the page the claim came from.
    OtherGame,
}

impl std::fmt::Display for ClaimProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use ClaimProblem::*;
        match self {
            NotAGameResult => write!(
                f,
                "手机上只能确认红胜、和棋或黑胜, 弃权由裁判录入 (a phone claims a win, a draw or a loss; forfeits are entered by the officials)"
            ),
            NotPublished { section, round } => write!(
                f,
                "{section} 第{round}轮对阵表尚未公布, 不能确认成绩 (the pairing of round {round} is not published)"
            ),
            ResultIn { round, board, stored } => write!(
                f,
                "第{round}轮第{board}台成绩已录入 ({}), 不再接受手机确认; 如有异议请找裁判 \
                 (the result is in: see the officials about any objection)",
                stored.zh()
            ),
            Confirmed { round, board } => write!(
                f,
                "第{round}轮第{board}台成绩已签字确认, 只能由裁判长更正 (the result is confirmed: only the chief arbiter corrects it)"
            ),
            Repeated { round, board } => write!(
                f,
                "第{round}轮第{board}台: 您已确认过这一成绩 (you have claimed this result already)"
            ),
            OtherBoard => write!(
                f,
                "确认码不属于本台 (the code is not this board's)"
            ),
            UnknownCode => write!(
                f,
                "确认码不正确, 请核对记录单上的确认码 (the code is wrong: check it on your result slip)"
            ),
            NoCheckIn => write!(
                f,
                "本赛事规程未安排报到, 不能用手机签到 (the regulation sets no check-in: none is taken on the phone)"
            ),
            UnknownCheckInCode => write!(
                f,
                "签到码不正确, 请核对报名状态页上的签到码 (the check-in code is wrong: check it on your entry status page)"
            ),
            GameIn { game, stored } => write!(
                f,
                "{game} 成绩已录入 ({}), 不再接受手机确认; 如有异议请找裁判 \
                 (the result is in: see the officials about any objection)",
                stored.zh()
            ),
            GameNotDue { game } => write!(
                f,
                "{game} 现在不是待下的对局 (本场已决出胜负, 或该局尚未开始), 不能确认成绩 \
                 (the game is not due: its match is decided, or the game is not on yet)"
            ),
            ColoursChosen { game } => write!(
                f,
                "{game} 由选手临场选色, 成绩由裁判录入 (the colours of this game are chosen at the board: the officials enter it)"
            ),
            RepeatedGame { game } => write!(
                f,
                "{game}: 您已确认过这一成绩 (you have claimed this result already)"
            ),
            OtherGame => write!(
                f,
                "确认码不属于本局 (the code is not this game's)"
            ),
        }
    }
}

/// What a claim did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub seat: Seat,
    pub result: GameResult,
    /// The board's claims after this one.
    pub status: ClaimStatus,
    /// The result entered as the players' (their claims agree and the entry passed the
    /// rules of an arbiter's entry).
    pub entered: Option<GameResult>,
}

/// What every claim checks first: the phone may claim, the result is a game's (not a
/// forfeit's), and the section is the regulation's. Returns the regulation.
fn admit(
    state: &EventState,
    ctx: &Ctx,
    section: &str,
    result: GameResult,
) -> Result<std::sync::Arc<arbiter_regulation::Regulation>, DirectorError> {
    crate::permission::require(ctx, Action::ClaimResult)?;
    if !matches!(
        result,
        GameResult::RedWin | GameResult::Draw | GameResult::BlackWin
    ) {
        return Err(Refusal::Claim(ClaimProblem::NotAGameResult).into());
    }
    let reg = regulation_of(state)?;
    crate::api::rounds::section_of(&reg, state, section)?;
    Ok(reg)
}

/// `result_claimed`: the player at `seat` claims `result` (the shell has found the seat by
/// his code, [`seat_of`]). When the claims then agree as the regulation's signing rule asks,
/// the result is entered as an arbiter's entry would be (the round closes when it is the
/// last) and waits for the round's confirmation as any result; if that entry is refused (a
/// foul rule decides the game), the claim stands alone for the arbiter.
pub fn claim_result(
    state: &EventState,
    ctx: &Ctx,
    seat: &Seat,
    result: GameResult,
) -> Result<(Vec<LogEntry>, Claimed), DirectorError> {
    let reg = admit(state, ctx, &seat.section, result)?;
    let refuse = |p: ClaimProblem| -> DirectorError { Refusal::Claim(p).into() };
    let (round, board) = (seat.round, seat.board);
    let rd = state
        .section(&seat.section)
        .and_then(|s| s.round(round))
        .ok_or_else(|| refuse(ClaimProblem::UnknownCode))?;
    if !rd.published {
        return Err(refuse(ClaimProblem::NotPublished {
            section: Sec::in_reg(&reg, &seat.section),
            round,
        }));
    }
    let b = rd
        .board(board)
        .ok_or_else(|| refuse(ClaimProblem::UnknownCode))?;
    if b.confirmed {
        return Err(refuse(ClaimProblem::Confirmed { round, board }));
    }
    if let Some(stored) = b.result {
        return Err(refuse(ClaimProblem::ResultIn {
            round,
            board,
            stored,
        }));
    }
    if b.claim(seat.side).is_some_and(|c| c.result == result) {
        return Err(refuse(ClaimProblem::Repeated { round, board }));
    }
    let at = ctx.at_rfc3339();
    let claim = LogEntry::ResultClaimed {
        section: seat.section.clone(),
        round,
        board,
        side: seat.side,
        result,
    };
    let mut scratch = state.clone();
    apply_scratch(&mut scratch, &claim, &at)?;
    let signing = reg.event.result_signing;
    let now = scratch
        .section(&seat.section)
        .and_then(|s| s.round(round))
        .and_then(|r| r.board(board))
        .map_or(ClaimStatus::None, |b| status(signing, b));
    let mut out = vec![claim];
    let mut entered = None;
    if let ClaimStatus::Agreed(r) = now {
        let input = ResultInput {
            round: Some(round),
            ..ResultInput::new(board, r)
        };
        // The players' agreement stands where an arbiter's entry would: the same rules.
        if let Ok(es) = crate::api::results::enter(&scratch, ctx, &seat.section, &input) {
            out.extend(es);
            entered = Some(r);
        }
    }
    Ok((
        out,
        Claimed {
            seat: seat.clone(),
            result,
            status: now,
            entered,
        },
    ))
}

/// One player's place in a knockout game (淘汰赛): the section, the match, the game (its
/// index in the match, from 0) and the colour the game's slip gives him.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KoSeat {
    pub section: String,
    pub match_id: String,
    pub game: u32,
    pub side: Colour,
}

/// The code of a knockout game's `seat` under the event's `secret`: the letters of a board's
/// code, made under its own label, so that no board's code opens a knockout game and no
/// knockout game's code opens a board.
pub fn knockout_code(secret: &[u8], seat: &KoSeat) -> String {
    let side = match seat.side {
        Colour::Red => "red",
        Colour::Black => "black",
    };
    letters(
        secret,
        &format!(
            "arbiter-ko-claim/1\u{0}{}\u{0}{}\u{0}{}\u{0}{side}",
            seat.section, seat.match_id, seat.game
        ),
    )
}

/// A knockout game a code may name: one due now, or one recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KoGame {
    pub section: String,
    pub match_id: String,
    /// The game's index in the match, from 0.
    pub game: u32,
    /// The match and game in words: 「半决赛 1 第2局」.
    pub label: String,
    /// The players as the slip gives them (due) or as they played (recorded).
    pub red: PlayerId,
    pub black: PlayerId,
    /// Due now: the schedule's round of the match and the board the game is entered on.
    pub due: Option<(u32, u32)>,
    /// A player chooses the colours at the board (K7).
    pub chooser: bool,
    /// The recorded result.
    pub result: Option<GameResult>,
}

/// The knockout games of `section` a code may name, in board order: the games due now, then
/// the games recorded (empty for a section with no knockout stage).
pub fn knockout_games(state: &EventState, section: &str) -> Vec<KoGame> {
    let Some(rec) = state.section(section) else {
        return Vec::new();
    };
    let reg = regulation_of(state).ok();
    let bracket = reg
        .as_ref()
        .and_then(|r| crate::knockout_stage::bracket(r, state, section).ok());
    let label = |mid: &str, game: u32| {
        let m = bracket
            .as_ref()
            .and_then(|b| b.get(mid).map(|m| m.label_zh()))
            .unwrap_or_else(|| mid.to_string());
        format!("{m} 第{}局", game + 1)
    };
    let mut out = Vec::new();
    if !rec.knockout.is_empty() || bracket.is_some() {
        let due = crate::api::results::due_knockout_games(state, section).unwrap_or_default();
        for g in due {
            let (Some(&red), Some(&black)) = (
                rec.order.get(g.game.red.index()),
                rec.order.get(g.game.black.index()),
            ) else {
                continue;
            };
            let game = g.game.index as u32;
            out.push(KoGame {
                section: section.to_string(),
                label: label(&g.match_id, game),
                match_id: g.match_id,
                game,
                red,
                black,
                due: Some((g.round, g.board)),
                chooser: g.game.chooser.is_some(),
                result: None,
            });
        }
    }
    for g in &rec.knockout {
        out.push(KoGame {
            section: section.to_string(),
            match_id: g.match_id.clone(),
            game: g.game,
            label: label(&g.match_id, g.game),
            red: g.red,
            black: g.black,
            due: None,
            chooser: false,
            result: Some(g.result),
        });
    }
    out
}

/// The knockout game `seat` names, if it is due now or recorded.
pub fn knockout_game(state: &EventState, seat: &KoSeat) -> Option<KoGame> {
    knockout_games(state, &seat.section)
        .into_iter()
        .find(|g| g.match_id == seat.match_id && g.game == seat.game)
}

/// The knockout seat `code_typed` names among the games due now and recorded in every
/// section, if any.
pub fn knockout_seat_of(state: &EventState, secret: &[u8], code_typed: &str) -> Option<KoSeat> {
    let typed = normalize(code_typed)?;
    let mut found = None;
    for id in state.sections.keys() {
        for g in knockout_games(state, id) {
            for side in [Colour::Red, Colour::Black] {
                let seat = KoSeat {
                    section: id.clone(),
                    match_id: g.match_id.clone(),
                    game: g.game,
                    side,
                };
                // Every seat is compared, as for a board's code.
                if same(&knockout_code(secret, &seat), &typed) && found.is_none() {
                    found = Some(seat);
                }
            }
        }
    }
    found
}

/// The standing claims of knockout game `game` of `match_id` in `section`, red's and black's.
pub fn knockout_claims(
    state: &EventState,
    section: &str,
    match_id: &str,
    game: u32,
) -> (Option<GameResult>, Option<GameResult>) {
    let Some(rec) = state.section(section) else {
        return (None, None);
    };
    let of = |side| rec.knockout_claim(match_id, game, side).map(|c| c.result);
    (of(Colour::Red), of(Colour::Black))
}

/// A knockout game due now whose players have claimed: what the desk's knockout page shows
/// (red when [`ClaimStatus::flagged`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingKoClaim {
    pub match_id: String,
    pub game: u32,
    /// The match and game in words.
    pub label: String,
    /// The board the game is entered on.
    pub board: u32,
    pub red: Option<GameResult>,
    pub black: Option<GameResult>,
    pub status: ClaimStatus,
}

impl PendingKoClaim {
    /// The game's claims in words, Chinese first.
    pub fn describe(&self) -> String {
        format!(
            "第{}台 {} 选手确认: {}",
            self.board,
            self.label,
            claims_words(self.red, self.black, self.status, "game")
        )
    }
}

/// The knockout games of `section` due now with claims, in board order.
pub fn pending_knockout(state: &EventState, section: &str) -> Vec<PendingKoClaim> {
    let signing = regulation_of(state)
        .ok()
        .and_then(|r| r.event.result_signing);
    knockout_games(state, section)
        .into_iter()
        .filter_map(|g| {
            let (_, board) = g.due?;
            let (red, black) = knockout_claims(state, section, &g.match_id, g.game);
            (red.is_some() || black.is_some()).then(|| PendingKoClaim {
                status: status_of(signing, red, black),
                match_id: g.match_id,
                game: g.game,
                label: g.label,
                board,
                red,
                black,
            })
        })
        .collect()
}

/// What a claim of a knockout game did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KoClaimed {
    pub seat: KoSeat,
    /// The match and game in words.
    pub label: String,
    pub result: GameResult,
    /// The game's claims after this one.
    pub status: ClaimStatus,
    /// The game recorded as the players' (their claims agree and the entry passed the rules
    /// of an arbiter's entry).
    pub entered: Option<GameResult>,
}

/// `knockout_result_claimed`: the player at `seat` claims `result` of a knockout game due
/// now (the shell has found the seat by his code, [`knockout_seat_of`]). When the claims then
/// agree as the regulation's signing rule asks, the game is recorded as the arbiter's entry
/// of that game would record it ([`crate::api::results::enter`], the operation of the desk's
/// knockout page, with the game named as seen); if that entry is refused, the claims stand
/// for the arbiter. A game recorded, a match decided, a game whose colours are chosen at the
/// board are refused in words.
pub fn claim_knockout(
    state: &EventState,
    ctx: &Ctx,
    seat: &KoSeat,
    result: GameResult,
) -> Result<(Vec<LogEntry>, KoClaimed), DirectorError> {
    let reg = admit(state, ctx, &seat.section, result)?;
    let refuse = |p: ClaimProblem| -> DirectorError { Refusal::Claim(p).into() };
    let g = knockout_game(state, seat).ok_or_else(|| refuse(ClaimProblem::UnknownCode))?;
    if let Some(stored) = g.result {
        return Err(refuse(ClaimProblem::GameIn {
            game: g.label,
            stored,
        }));
    }
    let Some((round, board)) = g.due else {
        return Err(refuse(ClaimProblem::GameNotDue { game: g.label }));
    };
    if g.chooser {
        return Err(refuse(ClaimProblem::ColoursChosen { game: g.label }));
    }
    let (red, black) = knockout_claims(state, &seat.section, &seat.match_id, seat.game);
    let mine = match seat.side {
        Colour::Red => red,
        Colour::Black => black,
    };
    if mine == Some(result) {
        return Err(refuse(ClaimProblem::RepeatedGame { game: g.label }));
    }
    let at = ctx.at_rfc3339();
    let claim = LogEntry::KnockoutResultClaimed {
        section: seat.section.clone(),
        match_id: seat.match_id.clone(),
        game: seat.game,
        side: seat.side,
        result,
    };
    let mut scratch = state.clone();
    apply_scratch(&mut scratch, &claim, &at)?;
    let (red, black) = knockout_claims(&scratch, &seat.section, &seat.match_id, seat.game);
    let now = status_of(reg.event.result_signing, red, black);
    let mut out = vec![claim];
    let mut entered = None;
    if let ClaimStatus::Agreed(r) = now {
        let input = ResultInput {
            round: Some(round),
            expect_game: Some((seat.match_id.clone(), seat.game)),
            ..ResultInput::new(board, r)
        };
        // The players' agreement records the game where the arbiter's entry would.
        if let Ok(es) = crate::api::results::enter(&scratch, ctx, &seat.section, &input) {
            out.extend(es);
            entered = Some(r);
        }
    }
    Ok((
        out,
        KoClaimed {
            seat: seat.clone(),
            label: g.label,
            result,
            status: now,
            entered,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn the_mac_is_rfc_4231s() {
        // RFC 4231, test case 2.
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than the block is hashed first.
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn a_check_in_code_is_one_players_and_never_a_seats() {
        let a = check_in_code(b"secret-one", PlayerId(3));
        assert_eq!(a.len(), CODE_LEN);
        assert_ne!(a, check_in_code(b"secret-one", PlayerId(4)));
        assert_ne!(a, check_in_code(b"secret-two", PlayerId(3)));
        let seat = Seat {
            section: "3".into(),
            round: 0,
            board: 0,
            side: Colour::Red,
        };
        assert_ne!(a, code(b"secret-one", &seat));
        assert_eq!(normalize(&a.to_lowercase()).as_deref(), Some(a.as_str()));
    }

    #[test]
    fn a_knockout_code_is_one_games_and_never_a_boards() {
        let ko = |game, side| KoSeat {
            section: "open".into(),
            match_id: "R1M1".into(),
            game,
            side,
        };
        let a = knockout_code(b"secret-one", &ko(0, Colour::Red));
        assert_eq!(normalize(&a).as_deref(), Some(a.as_str()));
        assert_ne!(a, knockout_code(b"secret-one", &ko(0, Colour::Black)));
        assert_ne!(a, knockout_code(b"secret-one", &ko(1, Colour::Red)));
        assert_ne!(a, knockout_code(b"secret-two", &ko(0, Colour::Red)));
        // The same numbers as a board's seat give another code.
        let seat = Seat {
            section: "open".into(),
            round: 0,
            board: 0,
            side: Colour::Red,
        };
        assert_ne!(
            knockout_code(b"secret-one", &ko(0, Colour::Red)),
            code(b"secret-one", &seat)
        );
    }

    #[test]
    fn agreement_and_the_signing_rule_read_the_same_for_any_game() {
        use GameResult::*;
        let both = Some(ResultSigning::BothSign);
        let loser = Some(ResultSigning::LoserSigns);
        assert_eq!(status_of(both, None, None), ClaimStatus::None);
        assert_eq!(status_of(both, Some(RedWin), None), ClaimStatus::Waiting);
        assert_eq!(
            status_of(both, Some(RedWin), Some(RedWin)),
            ClaimStatus::Agreed(RedWin)
        );
        assert_eq!(
            status_of(both, Some(RedWin), Some(Draw)),
            ClaimStatus::Disagree {
                red: RedWin,
                black: Draw
            }
        );
        // S11: the loser's claim alone is enough; the winner's alone is not his to sign.
        assert_eq!(
            status_of(loser, None, Some(RedWin)),
            ClaimStatus::Agreed(RedWin)
        );
        assert_eq!(
            status_of(loser, Some(RedWin), None),
            ClaimStatus::NotSigner {
                side: Colour::Red,
                result: RedWin
            }
        );
    }

    #[test]
    fn a_code_is_one_seats_and_reads_back_as_typed() {
        let seat = |board, side| Seat {
            section: "open".into(),
            round: 2,
            board,
            side,
        };
        let a = code(b"secret-one", &seat(1, Colour::Red));
        assert_eq!(a.len(), CODE_LEN);
        assert_ne!(a, code(b"secret-one", &seat(1, Colour::Black)));
        assert_ne!(a, code(b"secret-one", &seat(2, Colour::Red)));
        assert_ne!(a, code(b"secret-two", &seat(1, Colour::Red)));
        let typed = format!(" {}-{} ", a[..4].to_lowercase(), &a[4..]);
        assert_eq!(normalize(&typed).as_deref(), Some(a.as_str()));
        assert_eq!(normalize("ABCD"), None);
        assert_eq!(normalize("ABCDEFG0"), None);
    }
}
