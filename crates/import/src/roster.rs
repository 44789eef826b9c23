//! Player lists (报名表): the pure half of an import. The readers of this crate
//! ([`crate::read_roster`]) turn a file's bytes (.xlsx, .xls, CSV) into a [`TableRow`] per row
//! of cells; this module finds the header row (a title row above it is common in Chinese
//! forms), maps Chinese or English headers (with overrides), validates every cell and gives
//! back typed [`RosterRow`]s and every problem with its row and column. A row with a problem is not among the rows: the
//! caller lists it, nothing is dropped silently.

use arbiter_types::{IdNumber, Person, Phone, Sex};
use chrono::NaiveDate;
use std::collections::BTreeMap;
use std::fmt;

/// The columns a roster may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Column {
    Name,
    Section,
    Sex,
    IdNumber,
    Phone,
    Unit,
    Association,
    Team,
    BirthDate,
    Evidence,
    Flags,
    Rating,
    /// 段位/称号 (issue 46), as written; the regulation's scale reads it.
    Grade,
    /// 社保号 (K5).
    SocialSecurity,
    /// A column Arbiter does not read (序号, 备注, 社保号, …): ignored, with a notice.
    Ignored,
}

/// (column, accepted header spellings, compared without case and blanks). The first
/// spelling is the Chinese one, the second the English field name (used by `--map`).
const HEADERS: &[(Column, &[&str])] = &[
    (
        Column::Name,
        &["姓名", "name", "棋手姓名", "运动员姓名", "选手姓名"],
    ),
    (
        Column::Section,
        &["组别", "section", "参赛组别", "组", "group"],
    ),
    (Column::Sex, &["性别", "sex", "gender"]),
    (
        Column::IdNumber,
        &[
            "身份证号",
            "id_number",
            "身份证",
            "身份证号码",
            "公民身份号码",
            "证件号码",
            "idnumber",
            "id",
        ],
    ),
    (
        Column::Phone,
        &[
            "电话",
            "phone",
            "手机",
            "手机号",
            "手机号码",
            "联系电话",
            "mobile",
        ],
    ),
    (
        Column::Unit,
        &["单位", "unit", "参赛单位", "工作单位", "单位名称", "club"],
    ),
    (Column::Association, &["协会", "association"]),
    (Column::Team, &["队名", "team", "队伍", "队伍名称"]),
    (
        Column::BirthDate,
        &[
            "出生日期",
            "birth_date",
            "birth",
            "出生年月",
            "生日",
            "birthdate",
            "dob",
        ],
    ),
    (
        Column::Evidence,
        &["证明", "evidence", "证明材料", "参赛证明"],
    ),
    (Column::Flags, &["标记", "flags", "参赛条件", "条件"]),
    (Column::Rating, &["等级分", "rating"]),
    (
        Column::Grade,
        &[
            "段位",
            "grade",
            "称号",
            "棋力",
            "段位/称号",
            "等级称号",
            "棋士等级",
            "技术等级",
        ],
    ),
    (
        Column::SocialSecurity,
        &[
            "社保号",
            "social_security",
            "社会保障号",
            "社保号码",
            "社会保障号码",
            "社保证号",
            "社保卡号",
            "social_security_no",
        ],
    ),
    (Column::Ignored, &["序号", "no", "备注", "notes", "remark"]),
];

/// Normalise a header: no blanks (full-width included), no trailing colon, lower case.
fn norm(h: &str) -> String {
    h.chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{3000}')
        .collect::<String>()
        .trim_end_matches([':', '：', '*'])
        .trim_start_matches('*')
        .to_lowercase()
}

/// The column a header or a field name means (`姓名`, `name`, `身份证号`, `id_number`, …).
pub fn column_named(s: &str) -> Option<Column> {
    let key = norm(s);
    HEADERS
        .iter()
        .find(|(_, names)| names.iter().any(|n| norm(n) == key))
        .map(|(c, _)| *c)
}

impl Column {
    /// The Chinese header of the column.
    pub fn zh(self) -> &'static str {
        HEADERS
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("", |(_, n)| n[0])
    }
    /// The English field name (the spelling `--map` takes).
    pub fn field(self) -> &'static str {
        HEADERS
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("", |(_, n)| n[1])
    }
}

/// One cell as the file held it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text (every CSV cell; a text cell of a spreadsheet). Empty text is an empty cell.
    Text(String),
    /// A spreadsheet number, as its digits (`620502199001011200`, `6.20502E+17`): an ID number
    /// stored this way has lost its last digits.
    Number(String),
    /// A spreadsheet date cell.
    Date(NaiveDate),
}

impl Cell {
    /// The cell as text.
    pub fn text(&self) -> String {
        match self {
            Cell::Text(s) | Cell::Number(s) => s.trim().to_string(),
            Cell::Date(d) => d.to_string(),
        }
    }
    fn is_empty(&self) -> bool {
        matches!(self, Cell::Text(s) | Cell::Number(s) if s.trim().is_empty())
    }
}

/// One row of the file: its row number (1-based, as the spreadsheet or editor shows it) and
/// its cells from column A on.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub line: usize,
    pub cells: Vec<Cell>,
}

/// One row of a roster, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterRow {
    /// Row of the file (1-based).
    pub line: usize,
    /// Name and particulars; sex and birth date filled from the ID number when it gives
    /// them.
    pub person: Person,
    pub section: Option<String>,
    pub team: Option<String>,
    pub evidence: Vec<String>,
    pub flags: Vec<String>,
    pub rating: Option<u32>,
    /// 段位/称号 as written (the regulation's scale reads it at registration).
    pub grade: Option<String>,
}

/// A problem (or a notice) at a row, and a column when it is about one cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterError {
    pub file: String,
    pub line: usize,
    /// 1-based column number (A = 1), when the problem is in one cell.
    pub column: Option<usize>,
    /// The header of that column, as the file wrote it.
    pub header: Option<String>,
    pub message: String,
}

/// The spreadsheet letters of a 1-based column number (1 → A, 27 → AA).
pub fn column_letters(mut n: usize) -> String {
    let mut s = Vec::new();
    while n > 0 {
        let r = (n - 1) % 26;
        s.push(b'A' + r as u8);
        n = (n - 1) / 26;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

impl RosterError {
    /// The cell reference (`C5`), when the problem is in one cell.
    pub fn cell(&self) -> Option<String> {
        self.column
            .map(|c| format!("{}{}", column_letters(c), self.line))
    }
    /// The column as a person names it: its header and letter (`身份证号 (C列)`).
    pub fn column_name(&self) -> Option<String> {
        self.column.map(|c| match &self.header {
            Some(h) if !h.trim().is_empty() => format!("{} ({}列)", h.trim(), column_letters(c)),
            _ => format!("{}列", column_letters(c)),
        })
    }
}

impl fmt::Display for RosterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.column_name(), self.cell()) {
            (Some(name), Some(cell)) => write!(
                f,
                "{}:{}: 第 {} 行 {name}, 单元格 {cell}: {}",
                self.file, self.line, self.line, self.message
            ),
            _ => write!(
                f,
                "{}:{}: 第 {} 行: {}",
                self.file, self.line, self.line, self.message
            ),
        }
    }
}

/// What a roster gave: the valid rows, the problems (each row with a problem is left out of
/// `rows`), and notices (ignored columns, a header found below a title row).
#[derive(Debug, Clone, Default)]
pub struct Roster {
    /// The row number of the header row (0 when none was found).
    pub header_line: usize,
    /// Data rows read (blank rows not counted).
    pub data_rows: usize,
    pub rows: Vec<RosterRow>,
    pub problems: Vec<RosterError>,
    pub notices: Vec<RosterError>,
    /// The columns read: what each is, its 1-based number and its header as written.
    pub columns: Vec<(Column, usize, String)>,
}

impl Roster {
    /// The column of the file that holds `c` (1-based number, header as written).
    pub fn column_of(&self, c: Column) -> Option<(usize, &str)> {
        self.columns
            .iter()
            .find(|(k, _, _)| *k == c)
            .map(|(_, n, h)| (*n, h.as_str()))
    }

    /// The rows with at least one problem.
    pub fn bad_lines(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.problems.iter().map(|p| p.line).collect();
        v.dedup();
        v
    }
}

/// Parse a sex cell: 男/女, M/F, male/female.
pub fn parse_sex(s: &str) -> Option<Sex> {
    match s.trim().to_lowercase().as_str() {
        "男" | "m" | "male" => Some(Sex::Male),
        "女" | "f" | "female" => Some(Sex::Female),
        _ => None,
    }
}

/// Parse a date cell: `2001-02-03`, `2001/2/3`, `2001.02.03`, `20010203` or `2001年2月3日`.
pub fn parse_date(s: &str) -> Option<NaiveDate> {
    let t = s.trim();
    if t.len() == 8 && t.bytes().all(|b| b.is_ascii_digit()) {
        return NaiveDate::parse_from_str(t, "%Y%m%d").ok();
    }
    // A date-time cell written as text (`2001-02-03 00:00:00`): the date part.
    let t = t.split_whitespace().next().unwrap_or("");
    let parts: Vec<&str> = t
        .trim_end_matches('日')
        .split(['-', '/', '.', '年', '月'])
        .collect();
    if parts.len() != 3 {
        return None;
    }
    let y = parts[0].parse().ok()?;
    let m = parts[1].parse().ok()?;
    let d = parts[2].parse().ok()?;
    NaiveDate::from_ymd_opt(y, m, d)
}

/// A local time as typed at the desk or on the command line: `2026-07-23 18:00`,
/// `2026-07-23T18:00` (a browser's datetime field), with or without seconds, or a date alone
/// (that day's end, 23:59:59).
pub fn parse_local_time(s: &str) -> Option<chrono::NaiveDateTime> {
    let t = s.trim();
    for f in [
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%dT%H:%M",
    ] {
        if let Ok(x) = chrono::NaiveDateTime::parse_from_str(t, f) {
            return Some(x);
        }
    }
    parse_date(t).and_then(|d| d.and_hms_opt(23, 59, 59))
}

/// The date of an Excel serial day number (1900 date system; serial 61 is 1900-03-01).
pub fn excel_serial_date(serial: i64) -> Option<NaiveDate> {
    if !(61..=2_958_465).contains(&serial) {
        return None;
    }
    NaiveDate::from_ymd_opt(1899, 12, 30)?.checked_add_days(chrono::Days::new(serial as u64))
}

/// Text that Excel made of a long number: `6.20502E+17`, `6.20502199001011e17`.
fn scientific(s: &str) -> bool {
    let t = s.trim().to_ascii_lowercase();
    let Some((m, e)) = t.split_once('e') else {
        return false;
    };
    let e = e.strip_prefix('+').unwrap_or(e);
    !m.is_empty()
        && m.chars().all(|c| c.is_ascii_digit() || c == '.')
        && m.chars().any(|c| c.is_ascii_digit())
        && !e.is_empty()
        && e.chars().all(|c| c.is_ascii_digit())
}

/// A typed ID number, readable or not, as an error message may show it: the first 6 and the
/// last 2 characters, the rest starred (`110105**********21`), as the masked number of a
/// registered player; shorter text keeps only its last 2 characters. Import errors are
/// shown at the desk and printed: they never repeat a whole ID number.
fn mask_typed(v: &str) -> String {
    let c: Vec<char> = v.chars().collect();
    let n = c.len();
    let (head, tail) = if n >= 10 { (6, 2) } else { (0, n.min(2)) };
    c[..head]
        .iter()
        .chain(std::iter::repeat_n(&'*', n - head - tail))
        .chain(&c[n - tail..])
        .collect()
}

fn excel_mangled_id(shown: &str) -> String {
    let shown = mask_typed(shown);
    format!(
        "Excel 把身份证号存成了数字 ({shown}, 末几位已丢失)，请把该列设为文本后重新填写 (Excel stored the ID number as a number and lost its last digits; format the column as Text and type the numbers again)"
    )
}

/// How many leading rows are searched for the header row.
const HEADER_SEARCH_ROWS: usize = 30;

/// Map a row of cells to columns: `Some` when it reads as a header row (it has the name
/// column and at least one other known column, or only the name column when the row is
/// one cell wide).
fn header_columns(cells: &[Cell], overrides: &[(String, Column)]) -> Option<Vec<Option<Column>>> {
    let cols: Vec<Option<Column>> = cells
        .iter()
        .map(|c| {
            let t = c.text();
            if t.is_empty() {
                return None;
            }
            overrides
                .iter()
                .find(|(h, _)| norm(h) == norm(&t))
                .map(|(_, c)| *c)
                .or_else(|| column_named(&t))
        })
        .collect();
    let known = cols.iter().filter(|c| c.is_some()).count();
    let non_empty = cells.iter().filter(|c| !c.is_empty()).count();
    let has_name = cols.contains(&Some(Column::Name));
    (has_name && (known >= 2 || non_empty == 1)).then_some(cols)
}

/// Read a roster from its rows. `overrides` map a header of the file to a column
/// (`--map 棋手=姓名`), taking precedence over the built-in spellings.
pub fn parse_roster_table(
    table: &[TableRow],
    file: &str,
    overrides: &[(String, Column)],
) -> Roster {
    let mut out = Roster::default();
    let err =
        |line: usize, column: Option<usize>, header: Option<&str>, message: String| RosterError {
            file: file.into(),
            line,
            column,
            header: header.map(str::to_string),
            message,
        };
    let nonblank: Vec<&TableRow> = table
        .iter()
        .filter(|r| r.cells.iter().any(|c| !c.is_empty()))
        .collect();
    let Some(first) = nonblank.first() else {
        out.problems.push(err(
            1,
            None,
            None,
            "文件为空, 缺少表头 (empty file: a header row is required)".into(),
        ));
        return out;
    };
    let found = nonblank
        .iter()
        .take(HEADER_SEARCH_ROWS)
        .enumerate()
        .find_map(|(i, r)| header_columns(&r.cells, overrides).map(|c| (i, c)));
    let Some((hidx, cols)) = found else {
        out.problems.push(err(
            first.line,
            None,
            None,
            format!(
                "前 {HEADER_SEARCH_ROWS} 行中找不到表头: 需要一行含 「姓名」 列及其他列 (性别, 身份证号, 单位, 组别 …), 或用 --map 列名=字段 指明 (no header row found: it needs a 「姓名」/「name」 column and another known column; or map columns with --map)"
            ),
        ));
        return out;
    };
    let header_row = nonblank[hidx];
    out.header_line = header_row.line;
    let headers: Vec<String> = header_row.cells.iter().map(Cell::text).collect();
    if hidx > 0 {
        out.notices.push(err(
            header_row.line,
            None,
            None,
            format!(
                "表头在第 {} 行, 其上 {} 行 (标题等) 不作为棋手读取 (header found on row {}; the rows above it are not read as players)",
                header_row.line, hidx, header_row.line
            ),
        ));
    }
    // A unit named above the header (`单位: 昆山农商行` in the form's head) is the unit of
    // every row that has none of its own.
    let mut form_unit: Option<String> = None;
    for r in &nonblank[..hidx] {
        let texts: Vec<String> = r.cells.iter().map(Cell::text).collect();
        for (i, t) in texts.iter().enumerate() {
            // The cell right of the label, unless it is empty or another label.
            if column_named(t) == Some(Column::Unit) {
                if let Some(v) = texts.get(i + 1).filter(|v| {
                    !v.is_empty() && column_named(v).is_none() && !v.ends_with([':', '：'])
                }) {
                    form_unit = Some(v.clone());
                }
            }
        }
    }
    let mut seen: BTreeMap<Column, usize> = BTreeMap::new();
    let mut bad_header = false;
    for (i, c) in cols.iter().enumerate() {
        let h = headers[i].as_str();
        match c {
            Some(Column::Ignored) => out.notices.push(err(
                header_row.line,
                Some(i + 1),
                Some(h),
                format!("忽略列 「{h}」 (column not read)"),
            )),
            Some(c) => {
                out.columns.push((*c, i + 1, h.to_string()));
                if let Some(prev) = seen.insert(*c, i + 1) {
                    bad_header = true;
                    out.problems.push(err(
                        header_row.line,
                        Some(i + 1),
                        Some(h),
                        format!(
                            "列 「{h}」 与 {} 列重复, 都是 「{}」 (duplicate column)",
                            column_letters(prev),
                            c.zh()
                        ),
                    ));
                }
            }
            None if h.is_empty() => {}
            None => {
                // A spelling hint only for a longer header close to a known one (`phon`).
                let key = norm(h);
                let all = HEADERS.iter().flat_map(|(_, n)| n.iter().copied());
                let hint = arbiter_types::closest(&key, all)
                    .filter(|_| key.chars().count() >= 4)
                    .map(|s| format!("; 如为 「{s}」 请改正列名 (did you mean 「{s}」?)"));
                out.notices.push(err(
                    header_row.line,
                    Some(i + 1),
                    Some(h),
                    format!(
                        "忽略未知列 「{h}」 (unknown column ignored){}",
                        hint.unwrap_or_default()
                    ),
                ));
            }
        }
    }
    if bad_header {
        return out;
    }
    // Per section as written (the log's own rule: one entry per person and section).
    let mut by_id: BTreeMap<(String, String), usize> = BTreeMap::new();
    type PersonKey = (String, String, String, Option<NaiveDate>);
    let mut by_name_unit: BTreeMap<PersonKey, usize> = BTreeMap::new();
    for r in &nonblank[hidx + 1..] {
        out.data_rows += 1;
        let line = r.line;
        let mut mine: Vec<RosterError> = Vec::new();
        let mk = |col: usize, message: String| {
            err(
                line,
                Some(col + 1),
                headers.get(col).map(String::as_str),
                message,
            )
        };
        macro_rules! problem {
            ($c:expr, $m:expr $(,)?) => {
                mine.push(mk($c, $m))
            };
        }
        let mut row = RosterRow {
            line,
            person: Person::default(),
            section: None,
            team: None,
            evidence: Vec::new(),
            flags: Vec::new(),
            rating: None,
            grade: None,
        };
        let mut sex_col = None;
        let mut birth_col = None;
        let mut id_col = None;
        let mut name_col = 0;
        for (i, col) in cols.iter().enumerate() {
            let Some(col) = col else { continue };
            let empty = Cell::Text(String::new());
            let cell = r.cells.get(i).unwrap_or(&empty);
            let v = cell.text();
            // The text rule of every shell (arbiter_types::text): a bad cell is reported here,
            // with its cell, rather than refused later by the registration.
            let text_col = matches!(
                col,
                Column::Name
                    | Column::Section
                    | Column::Unit
                    | Column::Association
                    | Column::Team
                    | Column::Evidence
                    | Column::Flags
            );
            if text_col {
                let max = if matches!(col, Column::Evidence | Column::Flags) {
                    usize::MAX
                } else {
                    arbiter_types::text::MAX_CHARS
                };
                if let Err(p) = arbiter_types::text::check_line(&v, max) {
                    if *col == Column::Name {
                        name_col = i;
                    }
                    problem!(i, format!("{} {p}", col.zh()));
                    continue;
                }
            }
            let opt = || (!v.is_empty()).then(|| v.clone());
            match col {
                Column::Ignored => {}
                Column::Name => {
                    name_col = i;
                    row.person.name = v.clone();
                }
                Column::Section => row.section = opt(),
                Column::Sex if v.is_empty() => {}
                Column::Sex => match parse_sex(&v) {
                    Some(s) => {
                        row.person.sex = Some(s);
                        sex_col = Some(i);
                    }
                    None => problem!(
                        i,
                        format!("性别 「{v}」 无法识别, 应为 男/女 或 M/F (unknown sex)"),
                    ),
                },
                Column::IdNumber if v.is_empty() => {}
                Column::IdNumber => {
                    id_col = Some(i);
                    if matches!(cell, Cell::Number(_)) || scientific(&v) {
                        problem!(i, excel_mangled_id(&v));
                    } else {
                        match IdNumber::parse(&v) {
                            Ok(id) => row.person.id_number = Some(id),
                            Err(e) => problem!(i, format!("身份证号 {}: {e}", mask_typed(&v))),
                        }
                    }
                }
                Column::Phone if v.is_empty() => {}
                Column::Phone => match Phone::parse(&v) {
                    Ok(p) => row.person.phone = Some(p),
                    Err(e) => problem!(i, e.to_string()),
                },
                Column::SocialSecurity if v.is_empty() => {}
                Column::SocialSecurity => match arbiter_types::SocialSecurityNo::parse(&v) {
                    Ok(s) => row.person.social_security = Some(s),
                    // The message does not repeat the number.
                    Err(e) => problem!(i, e.to_string()),
                },
                Column::Unit => row.person.unit = opt(),
                Column::Association => row.person.association = opt(),
                Column::Team => row.team = opt(),
                Column::Grade => row.grade = opt(),
                Column::BirthDate if v.is_empty() => {}
                Column::BirthDate => {
                    let d = match cell {
                        Cell::Date(d) => Some(*d),
                        Cell::Number(n) => n.parse::<i64>().ok().and_then(excel_serial_date),
                        Cell::Text(t) => parse_date(t),
                    };
                    match d {
                        Some(d) => {
                            row.person.birth_date = Some(d);
                            birth_col = Some(i);
                        }
                        None => problem!(
                            i,
                            format!("出生日期 「{v}」 不是有效日期, 应为 YYYY-MM-DD (bad date)"),
                        ),
                    }
                }
                Column::Evidence | Column::Flags => {
                    let items = v
                        .split([';', '；', '、', '|', ',', '，'])
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect();
                    if *col == Column::Evidence {
                        row.evidence = items;
                    } else {
                        row.flags = items;
                    }
                }
                Column::Rating if v.is_empty() => {}
                Column::Rating => match v.parse() {
                    Ok(r) => row.rating = Some(r),
                    Err(_) => problem!(
                        i,
                        format!("等级分 「{v}」 不是整数 (rating must be a whole number)"),
                    ),
                },
            }
        }
        if row.person.name.is_empty() {
            problem!(name_col, "姓名为空 (name is empty)".into());
        }
        if row.person.unit.is_none() {
            row.person.unit.clone_from(&form_unit);
        }
        if let Some(id) = &row.person.id_number {
            if let (Some(s), Some(c)) = (row.person.sex, sex_col) {
                if s != id.sex() {
                    problem!(
                        c,
                        format!(
                            "性别 {} 与身份证号不符 (sex does not match the ID number)",
                            s.zh()
                        ),
                    );
                }
            }
            if let (Some(b), Some(c)) = (row.person.birth_date, birth_col) {
                if b != id.birth_date() {
                    problem!(
                        c,
                        format!(
                            "出生日期 {b} 与身份证号 ({}) 不符 (birth date does not match the ID number)",
                            id.birth_date()
                        ),
                    );
                }
            }
            row.person.sex = Some(id.sex());
            row.person.birth_date = Some(id.birth_date());
        }
        // The same person twice in the file (in the same section): same ID number, or same
        // name, unit and birth date (both given or both missing) when the row has no ID number.
        if mine.is_empty() {
            let sec = row.section.clone().unwrap_or_default();
            if let Some(id) = &row.person.id_number {
                let c = id_col.unwrap_or(name_col);
                let key = (sec, id.as_str().to_string());
                match by_id.get(&key) {
                    Some(first) => problem!(
                        c,
                        format!(
                            "与第 {first} 行是同一人 (身份证号相同), 重复报名 (same ID number as row {first}: duplicate person)"
                        ),
                    ),
                    None => {
                        by_id.insert(key, line);
                    }
                }
            } else {
                let key = (
                    sec,
                    row.person.name.clone(),
                    row.person.unit.clone().unwrap_or_default(),
                    row.person.birth_date,
                );
                match by_name_unit.get(&key) {
                    Some(first) => problem!(
                        name_col,
                        format!(
                            "与第 {first} 行姓名、单位、出生日期相同且都无身份证号, 视为同一人重复报名 (same name, unit and birth date as row {first}, no ID number: duplicate person)"
                        ),
                    ),
                    None => {
                        by_name_unit.insert(key, line);
                    }
                }
            }
        }
        if mine.is_empty() {
            out.rows.push(row);
        }
        out.problems.extend(mine);
    }
    out
}

/// Read a roster from CSV-like text already split into rows of text cells (tests, tools).
pub fn text_table(rows: &[&[&str]]) -> Vec<TableRow> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| TableRow {
            line: i + 1,
            cells: r.iter().map(|s| Cell::Text(s.to_string())).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(rows: &[&[&str]]) -> Roster {
        parse_roster_table(&text_table(rows), "t.csv", &[])
    }

    #[test]
    fn an_id_number_in_an_error_is_masked_like_a_registered_one() {
        assert_eq!(mask_typed("110105194912310021"), "110105**********21");
        assert_eq!(mask_typed("11010519491231002"), "110105*********02");
        assert_eq!(mask_typed("1234567"), "*****67");
        assert_eq!(mask_typed("7"), "7");
        assert_eq!(mask_typed("1.10105E+17"), "1.1010***17");
        let r = parse(&[&["姓名", "身份证号"], &["张三", "110105194912310099"]]);
        let all: String = r.problems.iter().map(|p| p.to_string()).collect();
        assert!(!r.problems.is_empty());
        assert!(!all.contains("110105194912310099"), "{all}");
        assert!(all.contains("110105**********99"), "{all}");
    }

    #[test]
    fn chinese_headers_below_a_title_row_and_derived_fields() {
        let r = parse(&[
            &["2026年昆山市象棋比赛报名表", "", ""],
            &["单位:", "昆山农商行", ""],
            &["序号", "姓名", "组别", "身份证号", "手机"],
            &["1", "张三", "men", "11010519491231002X", "138-1234-5678"],
            &["", "", "", "", ""],
            &["2", "李四", "women", "", ""],
        ]);
        assert_eq!(r.header_line, 3);
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.rows.len(), 2);
        assert_eq!(r.rows[0].line, 4);
        assert_eq!(r.rows[0].person.unit.as_deref(), Some("昆山农商行"));
        assert_eq!(r.rows[0].person.sex, Some(Sex::Female));
        assert_eq!(
            r.rows[0].person.birth_date,
            NaiveDate::from_ymd_opt(1949, 12, 31)
        );
        assert_eq!(r.rows[1].line, 6);
        assert!(r.notices.iter().any(|n| n.message.contains("第 3 行")));
    }

    #[test]
    fn every_bad_cell_is_reported_with_row_and_column_and_the_good_rows_stay() {
        let r = parse(&[
            &["姓名", "身份证号", "性别"],
            &["张三", "110105194912310021", "男"],
            &["李四", "", "X"],
            &["王五", "6.20502E+17", ""],
            &["赵六", "", "女"],
        ]);
        let at: Vec<(usize, Option<String>)> =
            r.problems.iter().map(|e| (e.line, e.cell())).collect();
        assert_eq!(
            at,
            vec![
                (2, Some("B2".into())),
                (3, Some("C3".into())),
                (4, Some("B4".into()))
            ],
            "{:?}",
            r.problems
        );
        assert!(r.problems[2].message.contains("Excel 把身份证号存成了数字"));
        assert_eq!(r.rows.len(), 1);
        assert_eq!(r.rows[0].person.name, "赵六");
        assert!(r.problems[0]
            .to_string()
            .starts_with("t.csv:2: 第 2 行 身份证号 (B列), 单元格 B2: 身份证号 110105**********21: 身份证号校验码"));
    }

    #[test]
    fn numbers_and_serial_dates_from_a_spreadsheet() {
        let t = vec![
            TableRow {
                line: 1,
                cells: vec![
                    Cell::Text("name".into()),
                    Cell::Text("id_number".into()),
                    Cell::Text("birth_date".into()),
                ],
            },
            TableRow {
                line: 2,
                cells: vec![
                    Cell::Text("Ann".into()),
                    Cell::Number("620502199001011200".into()),
                    Cell::Text(String::new()),
                ],
            },
            TableRow {
                line: 3,
                cells: vec![
                    Cell::Text("Bob".into()),
                    Cell::Text(String::new()),
                    Cell::Number("36892".into()),
                ],
            },
        ];
        let r = parse_roster_table(&t, "x.xlsx", &[]);
        assert_eq!(r.problems.len(), 1);
        assert_eq!(r.problems[0].cell().as_deref(), Some("B2"));
        assert!(r.problems[0].message.contains("设为文本"));
        assert_eq!(
            r.rows[0].person.birth_date,
            NaiveDate::from_ymd_opt(2001, 1, 1)
        );
    }

    #[test]
    fn duplicates_by_id_or_by_name_and_unit() {
        let r = parse(&[
            &["姓名", "身份证号", "单位"],
            &["张三", "11010519491231002X", "甲"],
            &["张三丰", "11010519491231002X", "乙"],
            &["李四", "", "甲"],
            &["李四", "", "乙"],
            &["李四", "", "甲"],
        ]);
        let at: Vec<_> = r.problems.iter().map(|p| p.cell()).collect();
        assert_eq!(at, vec![Some("B3".into()), Some("A6".into())]);
        assert!(r.problems[0].message.contains("第 2 行"));
        assert_eq!(r.rows.len(), 3);
    }

    #[test]
    fn overrides_unknown_columns_and_no_header() {
        let r = parse_roster_table(
            &text_table(&[&["棋手", "队员单位", "phon"], &["张三", "甲", "1"]]),
            "m.csv",
            &[
                ("棋手".into(), Column::Name),
                ("队员单位".into(), Column::Unit),
            ],
        );
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.rows[0].person.unit.as_deref(), Some("甲"));
        assert!(
            r.notices[0].message.contains("「phone」"),
            "{:?}",
            r.notices
        );
        let r = parse(&[&["a", "b"], &["1", "2"]]);
        assert!(r.problems[0].message.contains("找不到表头"));
        assert!(parse(&[]).problems[0].message.contains("文件为空"));
        let r = parse(&[&["姓名", "电话", "手机"], &["x", "", ""]]);
        assert!(r.problems[0].message.contains("重复"), "{:?}", r.problems);
        assert!(r.rows.is_empty());
    }

    #[test]
    fn dates_and_columns() {
        assert_eq!(
            parse_date("2001年2月3日"),
            NaiveDate::from_ymd_opt(2001, 2, 3)
        );
        assert_eq!(
            parse_date("2001-02-03 00:00:00"),
            NaiveDate::from_ymd_opt(2001, 2, 3)
        );
        assert_eq!(
            excel_serial_date(45658),
            NaiveDate::from_ymd_opt(2025, 1, 1)
        );
        assert_eq!(column_letters(28), "AB");
        assert!(scientific("6.20502E+17") && !scientific("620502"));
        assert_eq!(column_named("ID_Number"), Some(Column::IdNumber));
    }
}
