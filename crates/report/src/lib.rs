//! The printed documents of an event (打印文档) as a layout-neutral model.
//!
//! [`build`] turns an event's folded state into a [`Document`]: a title, the event's name and
//! date, and a list of [`Block`]s — tables with typed cells, paragraphs, signature lines,
//! result slips kept together, certificates, page breaks. Renderers (HTML here in [`html`],
//! PDF and Excel in the shells) only lay the blocks out; every number, name and rule comes
//! from here, so the printed list, the web desk and the Excel workbook show the same tables.
//!
//! Pure: no I/O, no clock. Same state → same document. Personal data (ID numbers, phones)
//! appears only on the check-in sheet, and only unmasked with [`Privacy::Organiser`].
//!
//! Public types are stable: fields and variants are added, never renamed.

mod docs;
pub mod html;

use arbiter_core::EventState;
use arbiter_types::Score;
use serde::Serialize;

/// The documents of an event (`arbiter print --doc NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocKind {
    /// 检录表: entries with fees paid and due, a column to sign.
    Checkin,
    /// 对阵表: board, red, black, units, scores before the round.
    Pairings,
    /// 记录单: one result slip per board with signature lines.
    Slips,
    /// 成绩公告: the results of a round.
    Results,
    /// 名次表: standings with every tie-break column.
    Standings,
    /// 交叉表 / 轮次成绩表: every player's games round by round.
    Crosstable,
    /// 团体名次 and association standings.
    Teams,
    /// 淘汰赛对阵: the knockout bracket, match by match.
    Bracket,
    /// 获奖名单: prizes with amounts and titles.
    Prizes,
    /// 荣誉证书: one certificate per prize winner.
    Certificates,
    /// 台号卡: a board number to read across the hall, two to a page; with `--round` the
    /// round's players (red, black) under the number.
    TableCards,
    /// 姓名签: a folded name card per player (the upper half upside down).
    NameCards,
    /// 对阵表 (张贴用): the round's pairings in large type for the wall, A4 or A3.
    WallPairings,
    /// 奖励签收表: prize winners with amounts, ID number and a column to sign.
    PrizeReceipts,
    /// 收支表: the cash report for the treasurer, per item and per player.
    Cash,
    /// 秩序册: the event's programme booklet (cover, contents, regulation, schedule,
    /// entries, the first round's pairings).
    Programme,
    /// 成绩册: the results booklet (cover, contents, standings, crosstables, teams,
    /// knockout, prizes, corrections).
    ResultsBook,
    /// 报名回执: one block per player with his check-in code and a QR code of the check-in
    /// page (where the regulation sets a check-in; needs the event's public address).
    EntryReceipts,
}

impl DocKind {
    pub const ALL: [DocKind; 18] = [
        DocKind::Checkin,
        DocKind::Pairings,
        DocKind::Slips,
        DocKind::Results,
        DocKind::Standings,
        DocKind::Crosstable,
        DocKind::Teams,
        DocKind::Bracket,
        DocKind::Prizes,
        DocKind::Certificates,
        DocKind::TableCards,
        DocKind::NameCards,
        DocKind::WallPairings,
        DocKind::PrizeReceipts,
        DocKind::Cash,
        DocKind::Programme,
        DocKind::ResultsBook,
        DocKind::EntryReceipts,
    ];

    /// The name on the command line (`checkin`, `pairings`, …).
    pub fn name(self) -> &'static str {
        match self {
            DocKind::Checkin => "checkin",
            DocKind::Pairings => "pairings",
            DocKind::Slips => "slips",
            DocKind::Results => "results",
            DocKind::Standings => "standings",
            DocKind::Crosstable => "crosstable",
            DocKind::Teams => "teams",
            DocKind::Bracket => "bracket",
            DocKind::Prizes => "prizes",
            DocKind::Certificates => "certificates",
            DocKind::TableCards => "table-cards",
            DocKind::NameCards => "name-cards",
            DocKind::WallPairings => "wall-pairings",
            DocKind::PrizeReceipts => "prize-receipts",
            DocKind::Cash => "cash",
            DocKind::Programme => "programme",
            DocKind::ResultsBook => "results-book",
            DocKind::EntryReceipts => "entry-receipts",
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            DocKind::Checkin => "检录表",
            DocKind::Pairings => "对阵表",
            DocKind::Slips => "记录单",
            DocKind::Results => "成绩公告",
            DocKind::Standings => "名次表",
            DocKind::Crosstable => "轮次成绩表",
            DocKind::Teams => "团体名次",
            DocKind::Bracket => "淘汰赛对阵",
            DocKind::Prizes => "获奖名单",
            DocKind::Certificates => "荣誉证书",
            DocKind::TableCards => "台号卡",
            DocKind::NameCards => "姓名签",
            DocKind::WallPairings => "对阵表(张贴)",
            DocKind::PrizeReceipts => "奖励签收表",
            DocKind::Cash => "收支表",
            DocKind::Programme => "秩序册",
            DocKind::ResultsBook => "成绩册",
            DocKind::EntryReceipts => "报名回执",
        }
    }

    pub fn en(self) -> &'static str {
        match self {
            DocKind::Checkin => "Check-in sheet",
            DocKind::Pairings => "Pairings",
            DocKind::Slips => "Result slips",
            DocKind::Results => "Results",
            DocKind::Standings => "Standings",
            DocKind::Crosstable => "Crosstable",
            DocKind::Teams => "Team standings",
            DocKind::Bracket => "Knockout bracket",
            DocKind::Prizes => "Prize list",
            DocKind::Certificates => "Certificates",
            DocKind::TableCards => "Table cards",
            DocKind::NameCards => "Name cards",
            DocKind::WallPairings => "Pairings (wall)",
            DocKind::PrizeReceipts => "Prize receipts",
            DocKind::Cash => "Cash report",
            DocKind::Programme => "Programme",
            DocKind::ResultsBook => "Results book",
            DocKind::EntryReceipts => "Entry receipts",
        }
    }

    /// Parse a command-line name; the error names the known documents.
    pub fn parse(s: &str) -> Result<DocKind, ReportError> {
        DocKind::ALL
            .into_iter()
            .find(|d| d.name() == s.trim())
            .ok_or_else(|| ReportError::UnknownDoc(s.to_string()))
    }

    /// Whether the document is of one round (`--round`).
    pub fn takes_round(self) -> bool {
        matches!(
            self,
            DocKind::Pairings
                | DocKind::Slips
                | DocKind::Results
                | DocKind::TableCards
                | DocKind::WallPairings
        )
    }

    /// Whether the document carries ID numbers (masked unless the organiser's copy): the
    /// check-in sheet and the prize receipts.
    pub fn personal(self) -> bool {
        matches!(self, DocKind::Checkin | DocKind::PrizeReceipts)
    }
}

/// Who the document is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Privacy {
    /// Posted or handed out: ID numbers and phones masked (the default).
    #[default]
    Published,
    /// The organiser's own copy: the check-in sheet shows ID numbers and phones in full.
    Organiser,
}

/// Language of the labels (names and units are printed as registered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    /// The label in this language.
    pub fn t<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// What to build.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// One section (`--section`); `None`: every section of the event.
    pub section: Option<String>,
    /// The round of pairings, slips and results (`--round`); `None`: the last round paired
    /// (for pairings and slips: the knockout games due now, if any).
    pub round: Option<u32>,
    pub privacy: Privacy,
    pub lang: Lang,
    /// The players' codes: the claim codes on the result slips (the arbiter's copy only) or
    /// the check-in codes on the entry receipts — the event's secret and the address of the
    /// page the codes open. `None` (the default): no codes printed.
    pub claims: Option<ClaimCodes>,
}

/// What the result slips need to print each side's claim code and a QR code of its address,
/// and the entry receipts each player's check-in code and a QR code of the check-in page.
#[derive(Clone, PartialEq, Eq)]
pub struct ClaimCodes {
    /// The event's secret the codes are made under (`arbiter_director::claim::code`).
    pub secret: String,
    /// The page players open, e.g. `https://example.org/e/abc/claim` for the slips,
    /// `https://example.org/e/abc/checkin` for the entry receipts (no query).
    pub url: String,
}

impl std::fmt::Debug for ClaimCodes {
    /// The secret is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClaimCodes")
            .field("secret", &"…")
            .field("url", &self.url)
            .finish()
    }
}

/// The sheet a document is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    #[default]
    A4,
    /// A3 (the wall pairings, `--paper a3`): the same layout, type scaled to the sheet.
    A3,
}

/// Page orientation the document is meant for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    #[default]
    Portrait,
    Landscape,
}

/// A printed document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Document {
    pub kind: DocKind,
    /// e.g. `对阵表`.
    pub title: String,
    /// e.g. `公开组 第3轮`.
    pub subtitle: Option<String>,
    pub event_name: String,
    /// The event's dates from the regulation, e.g. `2024年5月1日—5月3日`.
    pub date: String,
    pub orientation: Orientation,
    pub lang: Lang,
    /// A4 unless the caller asks for A3 (`--paper a3`).
    pub paper: Paper,
    /// The size of the body type in points on A4, when larger than the usual 9 (a wall copy);
    /// a renderer scales it with the sheet.
    pub type_size: Option<u8>,
    pub blocks: Vec<Block>,
}

impl Document {
    /// Every table of the document, in order (including those inside kept-together groups).
    pub fn tables(&self) -> Vec<&Table> {
        fn walk<'a>(blocks: &'a [Block], out: &mut Vec<&'a Table>) {
            for b in blocks {
                match b {
                    Block::Table(t) => out.push(t),
                    Block::KeepTogether(inner) => walk(inner, out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.blocks, &mut out);
        out
    }
}

/// One piece of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Block {
    /// A heading inside the document (e.g. a section's name).
    Heading(String),
    Paragraph(String),
    Table(Table),
    /// Signature lines side by side (`红方签名 ____`).
    Signatures(Vec<String>),
    /// Blocks that must stay on one page (a result slip).
    KeepTogether(Vec<Block>),
    /// A certificate: one page.
    Certificate(Certificate),
    /// Start a new page.
    PageBreak,
    /// A table card (台号卡): half a page.
    TableCard(TableCard),
    /// A folded name card (姓名签): a page.
    NameCard(NameCard),
    /// A booklet's cover: a page of its own, without the running header.
    Cover(Cover),
    /// A booklet's table of contents: every [`Block::Chapter`] with the page it starts on
    /// (the renderer lays out twice to know them).
    Contents(String),
    /// A booklet's chapter: starts a new page; listed in the contents.
    Chapter(String),
    /// QR codes side by side, each with its lines of text beside it (the players' claim
    /// codes on a result slip).
    Codes(Vec<QrCode>),
}

/// A QR code as its modules, with the text printed beside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QrCode {
    /// What the code encodes (an address).
    pub data: String,
    /// Modules per side.
    pub width: usize,
    /// `width × width` modules row by row, `true` dark (no quiet zone: a renderer leaves it).
    pub dark: Vec<bool>,
    /// Beside the code: the lines to read (the side, the code, what to do).
    pub lines: Vec<String>,
}

impl QrCode {
    /// The QR code of `data` at error correction level M (15 %); `None` if it is too long
    /// for a QR code.
    pub fn new(data: &str, lines: Vec<String>) -> Option<QrCode> {
        let code = qrcode::QrCode::with_error_correction_level(data.as_bytes(), qrcode::EcLevel::M)
            .ok()?;
        let width = code.width();
        let dark = code
            .to_colors()
            .into_iter()
            .map(|c| c == qrcode::Color::Dark)
            .collect();
        Some(QrCode {
            data: data.to_string(),
            width,
            dark,
            lines,
        })
    }

    /// Whether the module at column `x`, row `y` is dark.
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.width && self.dark[y * self.width + x]
    }
}

/// A table card (台号卡).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableCard {
    /// The board number, printed as large as the half page allows.
    pub board: u32,
    /// Above the number: `台号` or the section's name (`公开组 第3轮`).
    pub label: String,
    /// Under the number: the players (`红方 张三 (天水市)`), if a round is given.
    pub lines: Vec<String>,
}

/// A folded name card (姓名签).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameCard {
    pub name: String,
    pub unit: Option<String>,
    /// Small, under the unit: the section's name.
    pub note: Option<String>,
}

/// A booklet's cover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cover {
    /// The event's name.
    pub event: String,
    /// `秩序册`, `成绩册`.
    pub title: String,
    /// Lines under the title (dates, venue, organisers), each `label：text`.
    pub lines: Vec<String>,
}

/// Horizontal alignment of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Align {
    Left,
    Center,
    Right,
}

/// A table column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Column {
    /// Stable machine key (`rank`, `no`, `name`, `unit`, `points`, `tb:opp_score`, `r3`, …).
    pub key: String,
    /// Printed header.
    pub header: String,
    pub align: Align,
    /// Relative width (a renderer shares the page width in proportion; text longer than its
    /// column is wrapped or shrunk, never cut).
    pub width: u16,
}

/// A table: the unit a renderer repeats the header of on every page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Table {
    /// Stable id, unique in the document (`standings-open`, `pairings-open-3`, …): an Excel
    /// sheet name, an HTML id.
    pub id: String,
    pub caption: Option<String>,
    pub columns: Vec<Column>,
    /// Every row has exactly `columns.len()` cells.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// The index of the column with this key.
    pub fn column(&self, key: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.key == key)
    }
}

/// A typed cell: numbers stay numbers (an Excel writer writes them as numbers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cell {
    Empty,
    Text(String),
    Int(i64),
    /// An exact score or amount in half-points (`4.5`).
    Score(Score),
    /// Money in fen, printed in yuan (`120元`, `120.50元`).
    Money(u64),
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// Text of an optional string (`None` → empty).
    pub fn opt(s: Option<&str>) -> Cell {
        s.map_or(Cell::Empty, |s| Cell::Text(s.to_string()))
    }

    /// The printed text.
    pub fn display(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(s) => s.clone(),
            Cell::Int(n) => n.to_string(),
            Cell::Score(s) => s.to_string(),
            Cell::Money(fen) => arbiter_director::api::entries::yuan(*fen),
        }
    }
}

/// A certificate (荣誉证书).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Certificate {
    /// `荣誉证书`.
    pub heading: String,
    /// The winner: a player's name or a team's.
    pub recipient: String,
    /// The player's unit, if any.
    pub unit: Option<String>,
    /// The citation, e.g. `在2024……公开组比赛中荣获第一名`.
    pub citation: String,
    /// Title or prize named (`棋王`, `一等奖`), if any.
    pub award: Option<String>,
    /// A team's players named under the citation, as one line (「队员：张三、李四」).
    pub members: Option<String>,
    /// Issuing bodies (the organisers).
    pub issuers: Vec<String>,
    /// Date of issue (the event's last day).
    pub date: String,
}

/// Why a document cannot be built. Every variant is a request that does not fit the event
/// (exit 2 in the CLI) except [`ReportError::Event`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    #[error("未知的文档 「{0}」, 可选: checkin, pairings, slips, results, standings, crosstable, teams, bracket, prizes, certificates, table-cards, name-cards, wall-pairings, prize-receipts, cash, programme, results-book, entry-receipts (unknown document)")]
    UnknownDoc(String),
    #[error("未知的组别 「{section}」 (unknown section); 本赛事的组别: {known}")]
    UnknownSection { section: String, known: String },
    #[error("{section} 第{round}轮尚未编排 (round {round} is not paired); 已编排 {last} 轮")]
    UnknownRound {
        section: String,
        round: u32,
        last: u32,
    },
    #[error("{0}")]
    Nothing(String),
    #[error("赛事数据无法读取 (the event cannot be read): {0}")]
    Event(String),
}

/// Build document `kind` of the event in `state`.
pub fn build(state: &EventState, kind: DocKind, opts: &Options) -> Result<Document, ReportError> {
    docs::build(state, kind, opts)
}

/// The table of every match of a team-match section (团体对阵及成绩, rules.md A15), one row
/// per board with the match's round, number, teams, score, 局分, 场分 and result repeated (a
/// bye a row of its own) — a table for the spreadsheets, not a printed document. One table
/// per team-match section of `opts.section` (every section when `None`) with a round paired;
/// none for an event without team matches. `opts.round` is ignored.
pub fn team_matches(state: &EventState, opts: &Options) -> Result<Vec<Table>, ReportError> {
    docs::team_matches(state, opts)
}
