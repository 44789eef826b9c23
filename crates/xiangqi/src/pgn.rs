//! PGN as XQBase and 象棋巫师 (XQWizard) write it, read and written.
//!
//! ```text
//! [Game "Chinese Chess"]
//! [Event "…"]
//! [Red "…"]
//! [Black "…"]
//! [Result "1-0"]
//! [FEN "…"]              (only when the game does not start from the start position)
//! [Format "Chinese"]     (or "WXF", "ICCS")
//!
//! {a comment before the first move}
//!  1. 炮二平五 马８进７ {a comment after a move}
//!  2. 马二进三 车９平８
//! 1-0
//! ```
//!
//! Read: tags, move numbers (`1.`, `1…`, `１．`, glued `1.炮二平五`), the moves in any of the
//! three notations whatever the `[Format]` tag says, comments `{…}` and `;…`, variations
//! `(…)` skipped, NAGs `$n` skipped, the result (`1-0`, `0-1`, `1/2-1/2`, `*`; the
//! `[Result]` tag when the move text ends without one). Several games in one text are read
//! by [`read_all`]. A result that contradicts a decided final position (mate, stalemate) is
//! an error. The text must already be decoded (XQBase's files are often GBK: the caller
//! decodes).

use crate::board::{Colour, Position};
use crate::fen::{FenError, START_FEN};
use crate::game::{Game, Status};
use crate::notation::{Notation, NotationError};
use std::fmt::Write as _;

/// A game's result as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    RedWins,
    BlackWins,
    Draw,
    Unknown,
}

impl PgnResult {
    pub fn as_str(self) -> &'static str {
        match self {
            PgnResult::RedWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }
    pub fn parse(s: &str) -> Option<PgnResult> {
        Some(match s.trim() {
            "1-0" => PgnResult::RedWins,
            "0-1" => PgnResult::BlackWins,
            "1/2-1/2" | "½-½" | "1/2" => PgnResult::Draw,
            "*" => PgnResult::Unknown,
            _ => return None,
        })
    }
    /// The winner, if any.
    pub fn winner(self) -> Option<Colour> {
        match self {
            PgnResult::RedWins => Some(Colour::Red),
            PgnResult::BlackWins => Some(Colour::Black),
            _ => None,
        }
    }
}

/// Why a PGN text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("第 {line} 行的标签无法识别 (line {line}: unreadable tag)")]
    Tag { line: usize },
    #[error("第 {line} 行开始的注释没有结束 (line {line}: comment not closed)")]
    Comment { line: usize },
    #[error("[FEN] 标签: {0}")]
    Fen(FenError),
    #[error("[Format] 标签「{0}」不是 Chinese、WXF 或 ICCS (unknown format)")]
    Format(String),
    #[error(transparent)]
    Move(#[from] NotationError),
    #[error("结果 {result} 与终局不符：{status} (the result contradicts the final position)", result = .result.as_str(), status = .status.zh())]
    Result { result: PgnResult, status: Status },
    #[error("没有棋局 (no game)")]
    Empty,
}

/// A game read from (or to be written as) PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags in their order, `Game`, `FEN`, `Format` and `Result` included as read.
    pub tags: Vec<(String, String)>,
    /// The notation of the moves as the `[Format]` tag gives it (Chinese by default).
    pub format: Notation,
    pub game: Game,
    /// Comments: `[0]` before the first move, `[i + 1]` after move `i`.
    pub comments: Vec<Option<String>>,
    pub result: PgnResult,
}

impl PgnGame {
    /// A game to write, with no tags yet.
    pub fn new(game: Game, format: Notation, result: PgnResult) -> PgnGame {
        let n = game.moves().len();
        PgnGame {
            tags: Vec::new(),
            format,
            game,
            comments: vec![None; n + 1],
            result,
        }
    }
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    /// Whether the result agrees with the final position, where that position decides the
    /// game (mate or stalemate: the side to move has lost).
    pub fn check_result(&self) -> Result<(), PgnError> {
        let status = self.game.status();
        match status.winner() {
            Some(w) if self.result != PgnResult::Unknown && self.result.winner() != Some(w) => {
                Err(PgnError::Result {
                    result: self.result,
                    status,
                })
            }
            _ => Ok(()),
        }
    }
}

/// Reads the first game of a PGN text.
pub fn read(text: &str) -> Result<PgnGame, PgnError> {
    let mut r = Reader::new(text);
    r.game()?.ok_or(PgnError::Empty)
}

/// Reads every game of a PGN text.
pub fn read_all(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut r = Reader::new(text);
    let mut out = Vec::new();
    while let Some(g) = r.game()? {
        out.push(g);
    }
    if out.is_empty() {
        return Err(PgnError::Empty);
    }
    Ok(out)
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Reader {
            chars: text.chars().peekable(),
            line: 1,
        }
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.next();
        }
    }

    /// `[Name "Value"]` (the opening bracket already read).
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        let line = self.line;
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            self.next();
        }
        self.skip_space();
        if self.next() != Some('"') || name.is_empty() {
            return Err(PgnError::Tag { line });
        }
        let mut value = String::new();
        loop {
            match self.next() {
                Some('\\') => match self.next() {
                    Some(c) => value.push(c),
                    None => return Err(PgnError::Tag { line }),
                },
                Some('"') => break,
                Some('\n') | None => return Err(PgnError::Tag { line }),
                Some(c) => value.push(c),
            }
        }
        self.skip_space();
        if self.next() != Some(']') {
            return Err(PgnError::Tag { line });
        }
        Ok((name, value))
    }

    fn until(&mut self, end: char) -> Result<String, PgnError> {
        let line = self.line;
        let mut s = String::new();
        loop {
            match self.next() {
                Some(c) if c == end => return Ok(s),
                Some(c) => s.push(c),
                None => return Err(PgnError::Comment { line }),
            }
        }
    }

    fn skip_variation(&mut self) -> Result<(), PgnError> {
        let line = self.line;
        let mut depth = 1;
        while depth > 0 {
            match self.next() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => {
                    self.until('}')?;
                }
                Some(_) => {}
                None => return Err(PgnError::Comment { line }),
            }
        }
        Ok(())
    }

    fn token(&mut self) -> String {
        let mut s = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() || matches!(c, '{' | '(' | ')' | ';' | '[') {
                break;
            }
            s.push(c);
            self.next();
        }
        s
    }

    /// The next game, or None at the end of the text.
    fn game(&mut self) -> Result<Option<PgnGame>, PgnError> {
        let mut tags: Vec<(String, String)> = Vec::new();
        // Tags.
        loop {
            self.skip_space();
            if self.chars.peek() == Some(&'[') {
                self.next();
                tags.push(self.tag()?);
            } else {
                break;
            }
        }
        let get = |n: &str| {
            tags.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|(_, v)| v.clone())
        };
        let start = match get("FEN") {
            Some(f) if !f.trim().is_empty() => Position::from_fen(&f).map_err(PgnError::Fen)?,
            _ => Position::start(),
        };
        let format = match get("Format") {
            Some(f) => Notation::from_pgn_name(&f).ok_or(PgnError::Format(f))?,
            None => Notation::Chinese,
        };
        let mut game = Game::new(start);
        let mut comments: Vec<Option<String>> = vec![None];
        let mut result: Option<PgnResult> = None;
        let mut any = !tags.is_empty();
        loop {
            self.skip_space();
            let Some(&c) = self.chars.peek() else { break };
            match c {
                '[' => break,
                '{' => {
                    self.next();
                    let text = self.until('}')?;
                    add_comment(comments.last_mut().expect("one slot"), text.trim());
                    any = true;
                }
                ';' => {
                    self.next();
                    let text = self.until('\n').unwrap_or_default();
                    add_comment(comments.last_mut().expect("one slot"), text.trim());
                }
                '(' => {
                    self.next();
                    self.skip_variation()?;
                }
                ')' => {
                    self.next();
                }
                _ => {
                    let tok = self.token();
                    any = true;
                    if let Some(r) = PgnResult::parse(&tok) {
                        result = Some(r);
                        break;
                    }
                    if tok.starts_with('$') {
                        continue;
                    }
                    let mv = strip_number(&tok);
                    if mv.is_empty() {
                        continue;
                    }
                    game.play_text(mv)?;
                    comments.push(None);
                }
            }
        }
        if !any {
            return Ok(None);
        }
        let result = result
            .filter(|r| *r != PgnResult::Unknown)
            .or_else(|| get("Result").and_then(|r| PgnResult::parse(&r)))
            .unwrap_or(PgnResult::Unknown);
        let g = PgnGame {
            tags,
            format,
            game,
            comments,
            result,
        };
        g.check_result()?;
        Ok(Some(g))
    }
}

fn add_comment(slot: &mut Option<String>, text: &str) {
    if text.is_empty() {
        return;
    }
    match slot {
        Some(s) => {
            s.push('\n');
            s.push_str(text);
        }
        None => *slot = Some(text.to_string()),
    }
}

/// A token without its move number (`1.`, `12...`, `１．`, `3、`) and dot placeholders.
fn strip_number(tok: &str) -> &str {
    let t = tok.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    // Only a number when followed by a dot of some kind (a WXF move may begin with a digit).
    let after = t.trim_start_matches(['.', '．', '。', '、', '…']);
    if after.len() != t.len() || t.is_empty() {
        after
    } else {
        tok
    }
}

/// Writes a game as PGN (module doc): `[Game "Chinese Chess"]` first, the game's other tags in
/// their order, `[Result]`, `[FEN]` when not from the start, `[Format]`, then the moves.
pub fn write(g: &PgnGame) -> String {
    let mut s = String::new();
    let esc = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(s, "[Game \"Chinese Chess\"]");
    for (k, v) in &g.tags {
        if ["Game", "Result", "FEN", "Format"]
            .iter()
            .any(|x| x.eq_ignore_ascii_case(k))
        {
            continue;
        }
        let _ = writeln!(s, "[{k} \"{}\"]", esc(v));
    }
    let _ = writeln!(s, "[Result \"{}\"]", g.result.as_str());
    let start = g.game.start();
    if start.fen() != START_FEN {
        let _ = writeln!(s, "[FEN \"{}\"]", start.fen());
    }
    let _ = writeln!(s, "[Format \"{}\"]", g.format.pgn_name());
    s.push('\n');
    let comment = |s: &mut String, c: &Option<String>| {
        if let Some(c) = c {
            let _ = writeln!(s, "{{{}}}", c.replace('}', "）").replace('{', "（"));
        }
    };
    comment(&mut s, g.comments.first().unwrap_or(&None));
    let mut p = start.clone();
    let moves = g.game.moves();
    let mut line = String::new();
    for (i, &m) in moves.iter().enumerate() {
        let side = g.game.side_of(i);
        if side == Colour::Red || i == 0 {
            let _ = write!(line, "{:>3}.", g.game.move_number(i));
            if side == Colour::Black {
                line.push_str(" ...");
            }
        }
        line.push(' ');
        line.push_str(&p.to_notation(m, g.format));
        p.make_move(m);
        let c = g.comments.get(i + 1).cloned().flatten();
        if side == Colour::Black || c.is_some() || i + 1 == moves.len() {
            s.push_str(&line);
            s.push('\n');
            line.clear();
            if c.is_some() {
                comment(&mut s, &c);
                // The next black move continues with a placeholder number.
                if side == Colour::Red && i + 1 < moves.len() {
                    let _ = write!(line, "{:>3}. ...", g.game.move_number(i + 1));
                }
            }
        }
    }
    let _ = writeln!(s, "{}", g.result.as_str());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"[Game "Chinese Chess"]
[Event "测试"]
[Red "甲"]
[Black "乙"]
[Result "1-0"]
[Format "Chinese"]

{中炮对屏风马}
  1. 炮二平五 马８进７
  2. 马二进三 车９平８ {常见}
  3.车一平二 马２进３ (3... 卒７进１ 4. 车二进六) 4. 兵七进一 $1 卒７进１
1-0
"#;

    #[test]
    fn reads_tags_moves_comments_and_result() {
        let g = read(SAMPLE).unwrap();
        assert_eq!(g.tag("Red"), Some("甲"));
        assert_eq!(g.format, Notation::Chinese);
        assert_eq!(g.game.moves().len(), 8);
        assert_eq!(g.comments[0].as_deref(), Some("中炮对屏风马"));
        assert_eq!(g.comments[4].as_deref(), Some("常见"));
        assert_eq!(g.result, PgnResult::RedWins);
        let iccs: Vec<String> = g.game.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(iccs[..4], ["h2e2", "h9g7", "h0g2", "i9h9"]);
    }

    #[test]
    fn write_read_round_trip_in_every_format() {
        let g = read(SAMPLE).unwrap();
        for f in [Notation::Chinese, Notation::Wxf, Notation::Iccs] {
            let mut h = g.clone();
            h.format = f;
            let text = write(&h);
            let back = read(&text).unwrap();
            assert_eq!(back.game, g.game, "{text}");
            assert_eq!(back.comments, g.comments, "{text}");
            assert_eq!(back.result, g.result);
            assert_eq!(back.tag("Event"), Some("测试"));
        }
    }

    #[test]
    fn black_first_from_a_fen() {
        let text = r#"[Game "Chinese Chess"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"]
[Format "WXF"]
1. ... H8+7
2. H2+3 R9.8
*"#;
        let g = read(text).unwrap();
        assert_eq!(g.game.moves().len(), 3);
        let again = read(&write(&g)).unwrap();
        assert_eq!(again.game, g.game);
    }

    #[test]
    fn errors_name_the_move() {
        let text = "[Game \"Chinese Chess\"]\n1. 炮二平五 马８进７ 2. 马二进三 车九进三\n";
        match read(text) {
            Err(PgnError::Move(e)) => {
                assert_eq!(e.number, 2);
                assert_eq!(e.text, "车九进三");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read("[Game \"Chinese"),
            Err(PgnError::Tag { line: 1 })
        ));
        assert!(matches!(
            read("1. h2e2 {open"),
            Err(PgnError::Comment { .. })
        ));
        assert!(matches!(read("   "), Err(PgnError::Empty)));
    }

    #[test]
    fn result_against_a_mate() {
        // Black is mated after red's move: 0-1 is refused.
        let text = "[FEN \"4k4/R8/1R7/9/9/9/9/9/9/3K5 w\"]\n1. b7b9 0-1\n";
        assert!(matches!(read(text), Err(PgnError::Result { .. })));
        let ok = "[FEN \"4k4/R8/1R7/9/9/9/9/9/9/3K5 w\"]\n1. b7b9 1-0\n";
        assert_eq!(
            read(ok).unwrap().game.status(),
            Status::Checkmate {
                winner: Colour::Red
            }
        );
    }

    #[test]
    fn several_games() {
        let two = format!("{SAMPLE}\n{SAMPLE}");
        assert_eq!(read_all(&two).unwrap().len(), 2);
    }
}
