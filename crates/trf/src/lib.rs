//! TRF-16 tournament files in and out, with Arbiter's xiangqi extension lines
//! (`docs/formats/trf.md`).
//!
//! The reader accepts LF, CRLF and CR-only line endings, a leading byte-order mark, blank
//! lines and unknown line codes (kept verbatim). Every error names the file, the line and the
//! column and says what is wrong, Chinese first. The parser never panics (property-tested).
//!
//! Colours: TRF `w` (white) is red (红, moves first), `b` is black.

use arbiter_pairing::{Availability, Board, Entrant, Explanation, Pairing, SectionState};
use arbiter_types::{
    Colour, Outcome, PairingSettings, PlayerNo, PlayerResult, Round1Colour, Score, ScoringPreset,
    ScoringTable, Sex,
};
use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::fmt;

/// One `001` player line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfPlayer {
    /// Starting rank = pairing number (cols 5–8).
    pub no: PlayerNo,
    /// Col 10: `m` / `w` (`f` also read as female).
    pub sex: Option<Sex>,
    /// Cols 11–13.
    pub title: String,
    /// Cols 15–47.
    pub name: String,
    /// Cols 49–52; blank or 0 = unrated.
    pub rating: Option<u32>,
    /// Cols 54–56.
    pub federation: String,
    /// Cols 58–68.
    pub fide_id: String,
    /// Cols 70–79.
    pub birth_date: String,
    /// Cols 81–84, as written in the file (in the file's own scale).
    pub points: Option<Score>,
    /// Cols 86–89.
    pub rank: Option<u32>,
    /// Team from an `XXT` (or standard `013`) line.
    pub team: Option<u32>,
    /// A block after the last played round with no opponent (`H`, `F`, `Z`, `-`): the player
    /// is not to be paired in the next round (a requested bye or an announced absence).
    pub next_round: Option<Outcome>,
}

/// A whole TRF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfTournament {
    /// `012` line.
    pub name: String,
    /// In file order; `outcomes[i]` belongs to `players[i]`.
    pub players: Vec<TrfPlayer>,
    /// Rounds with at least one pairing (a game, a forfeit or a `U` bye).
    pub rounds_played: u32,
    /// `XXR`; `None` when the file does not say.
    pub total_rounds: Option<u32>,
    /// `XXC white1` (player 1 red on board 1) / `black1`.
    pub initial_colour: Option<Colour>,
    /// `XXS`; without it, chess 1/½/0 read as 2/1/0 (preset `cxa`).
    pub scoring: ScoringTable,
    /// One row per player, `rounds_played` outcomes each.
    pub outcomes: Vec<Vec<Outcome>>,
    /// Lines this crate does not interpret (`022`, `042`, `102`, …), kept verbatim.
    pub extra_lines: Vec<String>,
}

/// An error in a TRF file: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct TrfError {
    pub file: String,
    /// 1-based; 0 when the error concerns the whole file.
    pub line: usize,
    /// 1-based character column; 0 when the whole line is meant.
    pub column: usize,
    pub message_zh: String,
    pub message_en: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
            write!(f, ": 第{}行", self.line)?;
            if self.column > 0 {
                write!(f, "第{}列", self.column)?;
            }
        }
        write!(f, ": {} ({})", self.message_zh, self.message_en)
    }
}

struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(
        &self,
        line: usize,
        column: usize,
        zh: impl Into<String>,
        en: impl Into<String>,
    ) -> TrfError {
        TrfError {
            file: self.file.to_string(),
            line,
            column,
            message_zh: zh.into(),
            message_en: en.into(),
        }
    }
}

/// Split on LF, CRLF or a lone CR.
fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Characters `from..to` (0-based, clipped to the line), trimmed.
fn field(chars: &[char], from: usize, to: usize) -> String {
    let to = to.min(chars.len());
    if from >= to {
        return String::new();
    }
    chars[from..to]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

fn char_at(chars: &[char], i: usize) -> char {
    chars.get(i).copied().unwrap_or(' ')
}

/// One round block as written.
#[derive(Debug, Clone, Copy)]
struct Block {
    opponent: Option<u32>,
    colour: char,
    result: char,
    /// 1-based column of the opponent field.
    column: usize,
}

impl Block {
    fn is_blank(&self) -> bool {
        self.opponent.is_none() && self.colour == ' ' && self.result == ' '
    }
    fn is_pairing(&self) -> bool {
        self.opponent.is_some() || self.result == 'U'
    }
}

struct RawPlayer {
    player: TrfPlayer,
    line: usize,
    blocks: Vec<Block>,
}

const VALID_RESULTS: &str = "10=+-WDLHFUZ ";

fn parse_player(ctx: &Ctx, ln: usize, chars: &[char]) -> Result<RawPlayer, TrfError> {
    let no_text = field(chars, 4, 8);
    let no = no_text
        .parse::<u32>()
        .ok()
        .and_then(PlayerNo::new)
        .ok_or_else(|| {
            ctx.err(
                ln,
                5,
                format!("起始序号 `{no_text}` 不是正整数 (第5–8列)"),
                format!("starting rank `{no_text}` is not a positive number (cols 5-8)"),
            )
        })?;
    let sex = match char_at(chars, 9) {
        'm' | 'M' => Some(Sex::Male),
        'w' | 'W' | 'f' | 'F' => Some(Sex::Female),
        _ => None,
    };
    let rating_text = field(chars, 48, 52);
    let rating = if rating_text.is_empty() {
        None
    } else {
        let r = rating_text.parse::<u32>().map_err(|_| {
            ctx.err(
                ln,
                49,
                format!("等级分 `{rating_text}` 不是数字 (第49–52列)"),
                format!("rating `{rating_text}` is not a number (cols 49-52)"),
            )
        })?;
        (r > 0).then_some(r)
    };
    let points_text = field(chars, 80, 84);
    let points = if points_text.is_empty() {
        None
    } else {
        Some(points_text.parse::<Score>().map_err(|_| {
            ctx.err(
                ln,
                81,
                format!("积分 `{points_text}` 不是有效分数 (第81–84列)"),
                format!("points `{points_text}` is not a score (cols 81-84)"),
            )
        })?)
    };
    let rank_text = field(chars, 85, 89);
    let rank = if rank_text.is_empty() {
        None
    } else {
        Some(rank_text.parse::<u32>().map_err(|_| {
            ctx.err(
                ln,
                86,
                format!("名次 `{rank_text}` 不是数字 (第86–89列)"),
                format!("rank `{rank_text}` is not a number (cols 86-89)"),
            )
        })?)
    };
    let mut blocks = Vec::new();
    let mut start = 91;
    while start < chars.len() {
        let opp_text = field(chars, start, start + 4);
        let opponent = if opp_text.is_empty() {
            None
        } else {
            let v = opp_text.parse::<u32>().map_err(|_| {
                ctx.err(
                    ln,
                    start + 1,
                    format!("第{}轮对手序号 `{opp_text}` 不是数字", blocks.len() + 1),
                    format!(
                        "round {} opponent `{opp_text}` is not a number",
                        blocks.len() + 1
                    ),
                )
            })?;
            (v > 0).then_some(v)
        };
        let colour = char_at(chars, start + 5);
        if !matches!(colour, 'w' | 'b' | 'W' | 'B' | '-' | ' ') {
            return Err(ctx.err(
                ln,
                start + 6,
                format!(
                    "第{}轮颜色代码 `{colour}` 无效，应为 w、b 或 -",
                    blocks.len() + 1
                ),
                format!(
                    "round {} colour `{colour}` is not w, b or -",
                    blocks.len() + 1
                ),
            ));
        }
        let result = char_at(chars, start + 7);
        let result = if result == 'h' || result == 'f' || result == 'u' || result == 'z' {
            result.to_ascii_uppercase()
        } else {
            result
        };
        if !VALID_RESULTS.contains(result) {
            return Err(ctx.err(
                ln,
                start + 8,
                format!("第{}轮未知的结果代码 `{result}`", blocks.len() + 1),
                format!("round {}: unknown result code `{result}`", blocks.len() + 1),
            ));
        }
        blocks.push(Block {
            opponent,
            colour: colour.to_ascii_lowercase(),
            result,
            column: start + 1,
        });
        start += 10;
    }
    while blocks.last().is_some_and(Block::is_blank) {
        blocks.pop();
    }
    Ok(RawPlayer {
        player: TrfPlayer {
            no,
            sex,
            title: field(chars, 10, 13),
            name: field(chars, 14, 47),
            rating,
            federation: field(chars, 53, 56),
            fide_id: field(chars, 57, 68),
            birth_date: field(chars, 69, 79),
            points,
            rank,
            team: None,
            next_round: None,
        },
        line: ln,
        blocks,
    })
}

/// A team line: (line, is `XXT`, team id, member numbers with their columns).
type TeamLine = (usize, bool, u32, Vec<(u32, usize)>);

fn rest_after_code(line: &str) -> &str {
    line.get(3..).unwrap_or("").trim()
}

fn parse_number(
    ctx: &Ctx,
    ln: usize,
    col: usize,
    text: &str,
    what_zh: &str,
    what_en: &str,
) -> Result<u32, TrfError> {
    text.parse::<u32>().map_err(|_| {
        ctx.err(
            ln,
            col,
            format!("{what_zh} `{text}` 不是非负整数"),
            format!("{what_en} `{text}` is not a whole number"),
        )
    })
}

/// Parse a TRF-16 file. `file_name` is used in error messages only.
pub fn parse(text: &str, file_name: &str) -> Result<TrfTournament, TrfError> {
    let ctx = Ctx { file: file_name };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut name = String::new();
    let mut total_rounds = None;
    let mut initial_colour = None;
    let mut scoring = None;
    let mut extra_lines = Vec::new();
    let mut raw: Vec<RawPlayer> = Vec::new();
    let mut team_lines: Vec<TeamLine> = Vec::new();
    let mut std_teams = 0u32;

    for (i, line) in lines(text).into_iter().enumerate() {
        let ln = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let code = line.get(..3).unwrap_or(line);
        match code {
            "001" => {
                let chars: Vec<char> = line.chars().collect();
                raw.push(parse_player(&ctx, ln, &chars)?);
            }
            "012" => name = rest_after_code(line).to_string(),
            "XXR" => {
                let t = rest_after_code(line);
                let n = parse_number(&ctx, ln, 5, t, "总轮数", "total rounds")?;
                total_rounds = Some(n);
            }
            "XXC" => {
                for tok in rest_after_code(line).split_whitespace() {
                    match tok {
                        "white1" => initial_colour = Some(Colour::Red),
                        "black1" => initial_colour = Some(Colour::Black),
                        _ => {}
                    }
                }
            }
            "XXS" => {
                let toks: Vec<&str> = rest_after_code(line).split_whitespace().collect();
                if toks.len() != 8 {
                    return Err(ctx.err(
                        ln,
                        0,
                        format!(
                            "XXS 计分行应有 8 个分数 (胜 红和 黑和 负 轮空 弃权胜 弃权负 双弃)，实有 {} 个",
                            toks.len()
                        ),
                        format!(
                            "XXS needs 8 scores (win, red draw, black draw, loss, bye, forfeit win, \
                             forfeit loss, double forfeit), found {}",
                            toks.len()
                        ),
                    ));
                }
                let mut v = [Score::ZERO; 8];
                for (k, tok) in toks.iter().enumerate() {
                    v[k] = tok.parse::<Score>().map_err(|_| {
                        ctx.err(
                            ln,
                            0,
                            format!("XXS 第{}个分数 `{tok}` 无效", k + 1),
                            format!("XXS score {} `{tok}` is not a score", k + 1),
                        )
                    })?;
                }
                scoring = Some(ScoringTable {
                    win: v[0],
                    draw_red: v[1],
                    draw_black: v[2],
                    loss: v[3],
                    bye: v[4],
                    forfeit_win: v[5],
                    forfeit_loss: v[6],
                    double_forfeit: v[7],
                });
            }
            "XXT" => {
                let rest = line.get(3..).unwrap_or("");
                let mut toks = tokens_with_columns(rest, 4);
                if toks.is_empty() {
                    return Err(ctx.err(ln, 0, "XXT 行缺少队号", "XXT line without a team id"));
                }
                let (id_text, id_col) = toks.remove(0);
                let id = parse_number(&ctx, ln, id_col, &id_text, "队号", "team id")?;
                let mut members = Vec::new();
                for (t, c) in toks {
                    members.push((
                        parse_number(&ctx, ln, c, &t, "队员序号", "member number")?,
                        c,
                    ));
                }
                team_lines.push((ln, true, id, members));
            }
            "013" => {
                std_teams += 1;
                let chars: Vec<char> = line.chars().collect();
                let rest: String = chars.iter().skip(36).collect();
                let mut members = Vec::new();
                for (t, c) in tokens_with_columns(&rest, 37) {
                    members.push((
                        parse_number(&ctx, ln, c, &t, "队员序号", "member number")?,
                        c,
                    ));
                }
                team_lines.push((ln, false, std_teams, members));
            }
            _ => extra_lines.push(line.to_string()),
        }
    }

    if raw.is_empty() {
        return Err(ctx.err(
            1,
            0,
            "文件中没有棋手行 (以 001 开头的行)",
            "no player lines (lines starting with 001) in the file",
        ));
    }
    // Numbers must be unique.
    let mut index: BTreeMap<u32, usize> = BTreeMap::new();
    for (k, r) in raw.iter().enumerate() {
        if let Some(&first) = index.get(&r.player.no.get()) {
            return Err(ctx.err(
                r.line,
                5,
                format!(
                    "起始序号 {} 重复 (已见于第{}行)",
                    r.player.no, raw[first].line
                ),
                format!(
                    "starting rank {} repeats line {}",
                    r.player.no, raw[first].line
                ),
            ));
        }
        index.insert(r.player.no.get(), k);
    }

    // Teams: standard 013 lines first, XXT lines override them.
    for pass_xxt in [false, true] {
        for (ln, is_xxt, id, members) in &team_lines {
            if *is_xxt != pass_xxt {
                continue;
            }
            for &(m, c) in members {
                let k = *index.get(&m).ok_or_else(|| {
                    ctx.err(
                        *ln,
                        c,
                        format!("队员序号 {m} 不是任何棋手的起始序号"),
                        format!("member {m} is not the starting rank of any player"),
                    )
                })?;
                raw[k].player.team = Some(*id);
            }
        }
    }

    let rounds_played = raw
        .iter()
        .filter_map(|r| r.blocks.iter().rposition(Block::is_pairing))
        .max()
        .map_or(0, |i| i + 1);

    let mut outcomes = Vec::with_capacity(raw.len());
    for r in &raw {
        let mut row = Vec::with_capacity(rounds_played);
        for round in 0..rounds_played {
            row.push(outcome_of(&ctx, &raw, &index, r, round)?);
        }
        outcomes.push(row);
    }
    let mut players = Vec::with_capacity(raw.len());
    for r in raw.iter() {
        let mut p = r.player.clone();
        if let Some(b) = r.blocks.get(rounds_played) {
            if b.opponent.is_none() {
                p.next_round = match b.result {
                    'F' | '1' | 'W' => Some(Outcome::FullBye),
                    'H' | '=' | 'D' => Some(Outcome::HalfBye),
                    'Z' | '0' | 'L' | '-' => Some(Outcome::Absent),
                    _ if b.colour == '-' => Some(Outcome::Absent),
                    _ => None,
                };
            }
        }
        players.push(p);
    }

    Ok(TrfTournament {
        name,
        players,
        rounds_played: rounds_played as u32,
        total_rounds,
        initial_colour,
        scoring: scoring.unwrap_or_else(|| ScoringPreset::Cxa.table()),
        outcomes,
        extra_lines,
    })
}

/// Whitespace-separated tokens with their 1-based columns (`first_col` = column of `s[0]`).
fn tokens_with_columns(s: &str, first_col: usize) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_col = 0;
    for (i, ch) in s.chars().enumerate() {
        if ch.is_whitespace() {
            if !cur.is_empty() {
                out.push((std::mem::take(&mut cur), cur_col));
            }
        } else {
            if cur.is_empty() {
                cur_col = first_col + i;
            }
            cur.push(ch);
        }
    }
    if !cur.is_empty() {
        out.push((cur, cur_col));
    }
    out
}

fn block_colour(c: char) -> Option<Colour> {
    match c {
        'w' => Some(Colour::Red),
        'b' => Some(Colour::Black),
        _ => None,
    }
}

fn outcome_of(
    ctx: &Ctx,
    raw: &[RawPlayer],
    index: &BTreeMap<u32, usize>,
    me: &RawPlayer,
    round: usize,
) -> Result<Outcome, TrfError> {
    let rd = round + 1;
    let Some(b) = me.blocks.get(round).copied() else {
        return Ok(Outcome::Absent);
    };
    let ln = me.line;
    let Some(opp) = b.opponent else {
        return match b.result {
            'U' | '+' => Ok(Outcome::Bye),
            'F' | '1' | 'W' => Ok(Outcome::FullBye),
            'H' | '=' | 'D' => Ok(Outcome::HalfBye),
            _ => Ok(Outcome::Absent),
        };
    };
    let opp_no = PlayerNo::new(opp).ok_or_else(|| {
        ctx.err(
            ln,
            b.column,
            format!("第{rd}轮对手序号无效"),
            format!("round {rd}: bad opponent"),
        )
    })?;
    let &k = index.get(&opp).ok_or_else(|| {
        ctx.err(
            ln,
            b.column,
            format!("第{rd}轮对手 {opp}号 不存在"),
            format!("round {rd}: opponent {opp} is not a player in this file"),
        )
    })?;
    if opp_no == me.player.no {
        return Err(ctx.err(
            ln,
            b.column,
            format!("第{rd}轮对手是自己"),
            format!("round {rd}: a player cannot meet himself"),
        ));
    }
    let other = &raw[k];
    let theirs = other.blocks.get(round).copied();
    if theirs.and_then(|t| t.opponent) != Some(me.player.no.get()) {
        return Err(ctx.err(
            ln,
            b.column,
            format!(
                "第{rd}轮对手为 {opp}号，但 {opp}号(第{}行) 该轮的对手不是 {}号",
                other.line, me.player.no
            ),
            format!(
                "round {rd}: opponent {opp} (line {}) does not list {} as his opponent",
                other.line, me.player.no
            ),
        ));
    }
    let their_colour = theirs.and_then(|t| block_colour(t.colour));
    let colour = match (block_colour(b.colour), their_colour) {
        (Some(c), Some(t)) if c == t => {
            return Err(ctx.err(
                ln,
                b.column + 5,
                format!("第{rd}轮与对手 {opp}号 颜色相同"),
                format!("round {rd}: same colour as opponent {opp}"),
            ))
        }
        (Some(c), _) => c,
        (None, Some(t)) => t.opposite(),
        (None, None) => {
            if me.player.no < opp_no {
                Colour::Red
            } else {
                Colour::Black
            }
        }
    };
    let their_result = theirs.map_or(' ', |t| t.result);
    // The two sides of one game must tell the same result: never two winners.
    let norm = |c: char| match c {
        'W' => '1',
        'L' => '0',
        'D' => '=',
        x => x,
    };
    let known = |c: char| "10=+-".contains(c);
    let (mine, other_says) = (norm(b.result), norm(their_result));
    if known(mine)
        && known(other_says)
        && !matches!(
            (mine, other_says),
            ('1', '0')
                | ('0', '1')
                | ('=', '=')
                | ('+', '-')
                | ('-', '+')
                | ('-', '-')
                | ('0', '0')
        )
    {
        return Err(ctx.err(
            ln,
            b.column + 7,
            format!(
                "第{rd}轮与对手 {opp}号 的结果不一致: 本行记 `{}`, {opp}号(第{}行) 记 `{}`",
                b.result, other.line, their_result
            ),
            format!(
                "round {rd}: result `{}` does not match opponent {opp}'s `{}` (line {})",
                b.result, their_result, other.line
            ),
        ));
    }
    let missing_colour = || {
        ctx.err(
            ln,
            b.column + 5,
            format!("第{rd}轮对局缺少颜色代码 (w 或 b)"),
            format!("round {rd}: a played game needs a colour (w or b)"),
        )
    };
    let game = |result| -> Result<Outcome, TrfError> {
        if block_colour(b.colour).is_none() && their_colour.is_none() {
            return Err(missing_colour());
        }
        Ok(Outcome::Game {
            opponent: opp_no,
            colour,
            result,
        })
    };
    match b.result {
        '1' | 'W' => game(PlayerResult::Win),
        '0' | 'L' => game(PlayerResult::Loss),
        '=' | 'D' => game(PlayerResult::Draw),
        '+' => Ok(Outcome::ForfeitWin {
            opponent: opp_no,
            colour,
        }),
        '-' if their_result == '-' => Ok(Outcome::DoubleForfeit {
            opponent: opp_no,
            colour,
        }),
        '-' => Ok(Outcome::ForfeitLoss {
            opponent: opp_no,
            colour,
        }),
        ' ' => Err(ctx.err(
            ln,
            b.column + 7,
            format!("第{rd}轮有对手但缺少结果代码"),
            format!("round {rd}: opponent given but no result code"),
        )),
        c => Err(ctx.err(
            ln,
            b.column + 7,
            format!("第{rd}轮结果代码 `{c}` 不能与对手一起使用"),
            format!("round {rd}: result code `{c}` cannot go with an opponent"),
        )),
    }
}

fn fmt_score(s: Score) -> String {
    let t = s.to_string();
    if s.is_whole() && t.len() <= 2 {
        format!("{t}.0")
    } else {
        t
    }
}

fn block(o: &Outcome) -> String {
    let c = |c: Colour| if c == Colour::Red { 'w' } else { 'b' };
    let (opp, col, res) = match *o {
        Outcome::Game {
            opponent,
            colour,
            result,
        } => (
            opponent.get(),
            c(colour),
            match result {
                PlayerResult::Win => '1',
                PlayerResult::Draw => '=',
                PlayerResult::Loss => '0',
            },
        ),
        Outcome::ForfeitWin { opponent, colour } => (opponent.get(), c(colour), '+'),
        Outcome::ForfeitLoss { opponent, colour } | Outcome::DoubleForfeit { opponent, colour } => {
            (opponent.get(), c(colour), '-')
        }
        Outcome::Bye => (0, '-', 'U'),
        Outcome::FullBye => (0, '-', 'F'),
        Outcome::HalfBye => (0, '-', 'H'),
        Outcome::Absent => (0, '-', 'Z'),
    };
    format!("  {opp:>4} {col} {res}")
}

fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Write a tournament as TRF-16 with Arbiter's extension lines (`XXR`, `XXC`, `XXS`,
/// `XXT`). Lines end with LF. `parse(&write(t), _) == t` for every tournament whose fields
/// fit their columns (names up to 33 characters, trimmed; see `docs/formats/trf.md`).
pub fn write(t: &TrfTournament) -> String {
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", t.name));
    for l in &t.extra_lines {
        out.push_str(l);
        out.push('\n');
    }
    if let Some(r) = t.total_rounds {
        out.push_str(&format!("XXR {r}\n"));
    }
    match t.initial_colour {
        Some(Colour::Red) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    let s = &t.scoring;
    out.push_str(&format!(
        "XXS {} {} {} {} {} {} {} {}\n",
        s.win,
        s.draw_red,
        s.draw_black,
        s.loss,
        s.bye,
        s.forfeit_win,
        s.forfeit_loss,
        s.double_forfeit
    ));
    let mut teams: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for p in &t.players {
        if let Some(team) = p.team {
            teams.entry(team).or_default().push(p.no.get());
        }
    }
    for (id, mut members) in teams {
        members.sort_unstable();
        let list: Vec<String> = members.iter().map(|m| format!("{m:>4}")).collect();
        out.push_str(&format!("XXT {id:>4} {}\n", list.join(" ")));
    }
    for (i, p) in t.players.iter().enumerate() {
        let sex = match p.sex {
            Some(Sex::Male) => 'm',
            Some(Sex::Female) => 'w',
            None => ' ',
        };
        let mut line = format!(
            "001 {:>4} {}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            p.no.get(),
            sex,
            clip(&p.title, 3),
            clip(&p.name, 33),
            p.rating.map(|r| r.to_string()).unwrap_or_default(),
            clip(&p.federation, 3),
            clip(&p.fide_id, 11),
            clip(&p.birth_date, 10),
            p.points.map(fmt_score).unwrap_or_default(),
            p.rank.map(|r| r.to_string()).unwrap_or_default(),
        );
        if let Some(row) = t.outcomes.get(i) {
            for o in row {
                line.push_str(&block(o));
            }
        }
        if let Some(o) = &p.next_round {
            line.push_str(&block(o));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

impl TrfTournament {
    /// Points of player `i` after the first `rounds` rounds under the file's scoring table.
    pub fn score_after(&self, i: usize, rounds: u32) -> Score {
        self.outcomes
            .get(i)
            .map(|row| {
                row.iter()
                    .take(rounds as usize)
                    .map(|o| o.points(&self.scoring))
                    .sum()
            })
            .unwrap_or(Score::ZERO)
    }

    /// The pairing state before `round` (1-based, at most `rounds_played + 1`): histories of
    /// the earlier rounds; a player not paired in that round (absent, `F`/`H` bye) — or, for
    /// the next round, one with a `next_round` block — is `Absent`. Teams come from the
    /// file. `XXC black1` sets round-1 colours to `odd_board_large_red`, `white1` to the
    /// default. Without `XXR` the stage is taken to end with `round`.
    pub fn state_before_round(&self, round: u32, settings: PairingSettings) -> SectionState {
        let mut settings = settings;
        match self.initial_colour {
            Some(Colour::Black) => settings.round1_colour = Round1Colour::OddBoardLargeRed,
            Some(Colour::Red) => settings.round1_colour = Round1Colour::OddBoardSmallRed,
            None => {}
        }
        let past = round.saturating_sub(1) as usize;
        let players = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let row = self.outcomes.get(i).map(Vec::as_slice).unwrap_or(&[]);
                let this_round = if round <= self.rounds_played {
                    row.get(round.saturating_sub(1) as usize).copied()
                } else {
                    p.next_round
                };
                let availability = match this_round {
                    Some(Outcome::Absent | Outcome::FullBye | Outcome::HalfBye) => {
                        Availability::Absent
                    }
                    _ => Availability::Active,
                };
                Entrant {
                    no: p.no,
                    team: p.team,
                    availability,
                    history: row.iter().take(past).copied().collect(),
                }
            })
            .collect();
        SectionState {
            players,
            scoring: self.scoring,
            settings,
            total_rounds: self.total_rounds.unwrap_or(round.max(self.rounds_played)),
        }
    }

    /// The state for pairing the next round (`rounds_played + 1`).
    pub fn next_round_state(&self, settings: PairingSettings) -> SectionState {
        self.state_before_round(self.rounds_played + 1, settings)
    }

    /// The pairing actually played in `round` (1-based), rebuilt from the outcomes: boards
    /// (forfeits included) ordered by the higher score before the round, then the lower
    /// score, then the smaller number (TRF has no board numbers); the `U` bye. `None` if the round is not in the file.
    pub fn pairing_of_round(&self, round: u32) -> Option<Pairing> {
        if round == 0 || round > self.rounds_played {
            return None;
        }
        let r = round as usize - 1;
        let mut pairs = Vec::new();
        let mut bye = None;
        for (i, p) in self.players.iter().enumerate() {
            let o = self.outcomes.get(i)?.get(r)?;
            match *o {
                Outcome::Bye => bye = Some(p.no),
                _ => {
                    if let (Some(opp), Some(Colour::Red)) = (o.opponent(), o.assigned_colour()) {
                        let j = self.players.iter().position(|q| q.no == opp)?;
                        let (a, b) = (
                            self.score_after(i, round - 1),
                            self.score_after(j, round - 1),
                        );
                        let key = (Reverse(a.max(b)), Reverse(a.min(b)), p.no.min(opp));
                        pairs.push((key, p.no, opp));
                    }
                }
            }
        }
        pairs.sort();
        let boards = pairs
            .into_iter()
            .enumerate()
            .map(|(k, (_, red, black))| Board {
                board: k as u32 + 1,
                red,
                black,
                why: Explanation::default(),
            })
            .collect();
        Some(Pairing {
            round,
            boards,
            bye,
            bye_why: None,
            relaxed: Vec::new(),
        })
    }

    /// Append a played round: `results` gives each paired player's outcome by number;
    /// players without an entry get `Absent`.
    pub fn push_round(&mut self, results: &BTreeMap<PlayerNo, Outcome>) {
        for (i, p) in self.players.iter().enumerate() {
            let o = results.get(&p.no).copied().unwrap_or(Outcome::Absent);
            if let Some(row) = self.outcomes.get_mut(i) {
                row.push(o);
            }
        }
        self.rounds_played += 1;
    }

    /// Set every player's points column to the total under the scoring table, and ranks by
    /// points (ties by the smaller number).
    pub fn fill_points_and_ranks(&mut self) {
        let totals: Vec<Score> = (0..self.players.len())
            .map(|i| self.score_after(i, self.rounds_played))
            .collect();
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by(|&a, &b| {
            totals[b]
                .cmp(&totals[a])
                .then(self.players[a].no.cmp(&self.players[b].no))
        });
        for (rank, &i) in order.iter().enumerate() {
            self.players[i].points = Some(totals[i]);
            self.players[i].rank = Some(rank as u32 + 1);
        }
    }
}
