//! Roster files from outside, read from their bytes (the shell reads the file): `.xlsx` and
//! `.xls` through calamine, CSV through the `csv` crate in UTF-8 (with or without BOM),
//! UTF-16 with BOM, or GBK/GB18030 (encoding_rs; bytes that are valid UTF-8 are UTF-8,
//! anything else is read as GB18030, the superset of GBK that Chinese Excel writes). The
//! rows of cells go to the pure half, [`roster`], which finds the header,
//! maps and validates the cells. Never panics on any bytes (fuzzed: `arbiter-fuzz xlsx|csv`).

use calamine::{Data, Reader};
pub use roster::{parse_roster_table, Cell, Column, Roster, RosterError, RosterRow, TableRow};
use std::fmt;
use std::io::Cursor;

pub mod roster;
pub mod xls_guard;

/// The kinds of file read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Office Open XML workbook (a zip file): `.xlsx`, `.xlsm`.
    Xlsx,
    /// The old binary workbook (OLE2 compound file): `.xls`.
    Xls,
    /// Text: comma (or tab) separated values.
    Csv,
}

impl Format {
    /// The kind of a file, by its first bytes (not by its name: a `.csv` that is really a
    /// workbook is read as the workbook).
    pub fn sniff(bytes: &[u8]) -> Format {
        if bytes.starts_with(b"PK\x03\x04") {
            Format::Xlsx
        } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            Format::Xls
        } else {
            Format::Csv
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Format::Xlsx => "xlsx",
            Format::Xls => "xls",
            Format::Csv => "CSV",
        }
    }
}

/// A file that cannot be read as a table at all (a problem of one cell is not this: it is
/// in [`Roster::problems`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pub file: String,
    /// The line of the problem, when known.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: 第 {l} 行: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// A file read: its kind, its encoding (text files), the sheet read (workbooks) and the
/// roster.
#[derive(Debug, Clone)]
pub struct Imported {
    pub format: Format,
    /// `UTF-8`, `UTF-8 (BOM)`, `GB18030`, `UTF-16LE`, … (CSV only).
    pub encoding: Option<&'static str>,
    /// The worksheet the roster was found on (workbooks only).
    pub sheet: Option<String>,
    pub roster: Roster,
}

/// Read a roster file from its bytes. `file` names it in messages; `overrides` map a header
/// of the file to a column (`--map`).
pub fn read_roster(
    bytes: &[u8],
    file: &str,
    overrides: &[(String, Column)],
) -> Result<Imported, ImportError> {
    let format = Format::sniff(bytes);
    match format {
        Format::Csv => {
            let (table, encoding) = read_csv(bytes, file)?;
            Ok(Imported {
                format,
                encoding: Some(encoding),
                sheet: None,
                roster: parse_roster_table(&table, file, overrides),
            })
        }
        Format::Xlsx | Format::Xls => {
            let sheets = read_workbook(bytes, file, format)?;
            // The first sheet with a header row (a form may keep its instructions on
            // another sheet); else the first sheet, for its problems.
            let mut first: Option<(String, Roster)> = None;
            for (name, table) in sheets {
                let roster = parse_roster_table(&table, file, overrides);
                if roster.header_line > 0 {
                    return Ok(Imported {
                        format,
                        encoding: None,
                        sheet: Some(name),
                        roster,
                    });
                }
                if first.is_none() {
                    first = Some((name, roster));
                }
            }
            let (sheet, roster) = first.ok_or_else(|| ImportError {
                file: file.into(),
                line: None,
                message: "工作簿中没有工作表 (the workbook has no sheet)".into(),
            })?;
            Ok(Imported {
                format,
                encoding: None,
                sheet: Some(sheet),
                roster,
            })
        }
    }
}

/// Decode CSV bytes: UTF-8 (BOM stripped), UTF-16 with a BOM, else GB18030. Returns the text
/// and the encoding's name, or the line of the first byte that is not GB18030 either.
pub fn decode(bytes: &[u8], file: &str) -> Result<(String, &'static str), ImportError> {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, had_errors) = enc.decode_without_bom_handling(&bytes[bom..]);
        if had_errors {
            return Err(ImportError {
                file: file.into(),
                line: first_bad_line(&text),
                message: format!(
                    "文件以 {} 标记开头, 但内容不是该编码 (the file starts with a {} byte-order mark but is not in that encoding)",
                    enc.name(),
                    enc.name()
                ),
            });
        }
        let name = match enc.name() {
            "UTF-8" => "UTF-8 (BOM)",
            "UTF-16LE" => "UTF-16LE",
            _ => "UTF-16BE",
        };
        return Ok((text.into_owned(), name));
    }
    if let Ok(t) = std::str::from_utf8(bytes) {
        return Ok((t.to_string(), "UTF-8"));
    }
    let (text, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    if had_errors {
        return Err(ImportError {
            file: file.into(),
            line: first_bad_line(&text),
            message: "文件既不是 UTF-8 也不是 GBK/GB18030 编码; 请在 Excel 中另存为「CSV UTF-8 (逗号分隔)」或直接导入 .xlsx 文件 (the file is neither UTF-8 nor GBK/GB18030; save it as \"CSV UTF-8\" or import the .xlsx)".into(),
        });
    }
    Ok((text.into_owned(), "GB18030"))
}

fn first_bad_line(text: &str) -> Option<usize> {
    text.find('\u{FFFD}')
        .map(|i| 1 + text[..i].matches('\n').count())
}

/// Split CSV text into rows of text cells, each with the line it starts on. The separator is
/// a comma, or a tab when the first line has tabs and no comma (Excel's "Unicode text").
pub fn read_csv(bytes: &[u8], file: &str) -> Result<(Vec<TableRow>, &'static str), ImportError> {
    let (text, encoding) = decode(bytes, file)?;
    let first = text.lines().next().unwrap_or("");
    let delimiter = if first.contains('\t') && !first.contains(',') {
        b'\t'
    } else {
        b','
    };
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    // The csv crate counts records, not lines inside quoted cells: a record's line is the
    // count of newlines before its first byte.
    let bytes = text.as_bytes();
    let (mut seen, mut line_at) = (0usize, 1usize);
    let mut line_of = |byte: u64| {
        let b = (byte as usize).min(bytes.len());
        if b > seen {
            line_at += bytes[seen..b].iter().filter(|&&c| c == b'\n').count();
            seen = b;
        }
        line_at
    };
    let mut rec = csv::StringRecord::new();
    let (mut nonblank, mut cells) = (0usize, 0usize);
    loop {
        // Blank lines are skipped by the reader: the record starts after them.
        let mut start = rd.position().byte() as usize;
        while start < bytes.len() && matches!(bytes[start], b'\r' | b'\n') {
            start += 1;
        }
        match rd.read_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(ImportError {
                    file: file.into(),
                    line: Some(line_of(start as u64)),
                    message: format!("CSV 格式错误 (malformed CSV): {e}"),
                })
            }
        }
        let line = line_of(start as u64);
        if rec.iter().any(|c| !c.trim().is_empty()) {
            nonblank += 1;
            if nonblank > MAX_FILE_ROWS {
                return Err(too_many_rows(file, Some(line)));
            }
        }
        cells += rec.len();
        if cells > MAX_FILE_CELLS {
            return Err(too_many_cells(file, Some(line)));
        }
        rows.push(TableRow {
            line,
            cells: rec.iter().map(|s| Cell::Text(s.to_string())).collect(),
        });
    }
    Ok((rows, encoding))
}

/// The text of a spreadsheet number: whole numbers as their digits (`620502199001011200`),
/// others as Rust prints them.
fn number_text(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{f:.0}")
    } else {
        format!("{f}")
    }
}

fn cell(d: &Data) -> Cell {
    match d {
        Data::Empty => Cell::Text(String::new()),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => Cell::Text(s.clone()),
        Data::Int(i) => Cell::Number(i.to_string()),
        Data::Float(f) => Cell::Number(number_text(*f)),
        Data::Bool(b) => Cell::Text(if *b { "TRUE" } else { "FALSE" }.into()),
        Data::DateTime(dt) => match dt.as_datetime() {
            Some(t) if dt.is_datetime() => Cell::Date(t.date()),
            _ => Cell::Number(number_text(dt.as_f64())),
        },
        Data::Error(e) => Cell::Text(format!("#{e:?}")),
    }
}

/// Most rows read from one sheet (a roster is thousands, not millions; a damaged file that
/// claims a huge range does not make us allocate it).
const MAX_ROWS: usize = 200_000;

/// Most non-blank rows in one file, all its sheets together: an entry list of a whole event
/// is a few thousand rows; a larger file is refused (naming the limit) before its rows are
/// checked, so the memory and the report of one upload stay bounded.
pub const MAX_FILE_ROWS: usize = 50_000;
/// Most non-empty cells in one file, all its sheets together.
pub const MAX_FILE_CELLS: usize = 1_000_000;

fn too_many_rows(file: &str, line: Option<usize>) -> ImportError {
    ImportError {
        file: file.into(),
        line,
        message: format!(
            "超过 {MAX_FILE_ROWS} 行, 不像报名表; 请分成几个文件导入 (more than {MAX_FILE_ROWS} rows — not an entry list; split the file)"
        ),
    }
}

fn too_many_cells(file: &str, line: Option<usize>) -> ImportError {
    ImportError {
        file: file.into(),
        line,
        message: format!(
            "超过 {MAX_FILE_CELLS} 个单元格, 不像报名表; 请分成几个文件导入 (more than {MAX_FILE_CELLS} cells — not an entry list; split the file)"
        ),
    }
}
/// Most columns read.
const MAX_COLS: usize = 256;

/// Every worksheet of a workbook as rows of cells (row numbers as Excel shows them).
pub fn read_workbook(
    bytes: &[u8],
    file: &str,
    format: Format,
) -> Result<Vec<(String, Vec<TableRow>)>, ImportError> {
    // calamine can panic on a damaged workbook (e.g. a shared-string index past the table);
    // such a file is reported as damaged, never a crash.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        read_workbook_unguarded(bytes, file, format)
    }))
    .unwrap_or_else(|_| {
        Err(ImportError {
            file: file.into(),
            line: None,
            message: format!(
                "无法读取 {} 工作簿, 文件已损坏 (cannot read the {} workbook: the file is damaged)",
                format.name(),
                format.name()
            ),
        })
    })
}

fn read_workbook_unguarded(
    bytes: &[u8],
    file: &str,
    format: Format,
) -> Result<Vec<(String, Vec<TableRow>)>, ImportError> {
    let bad = |e: String| {
        ImportError {
        file: file.into(),
        line: None,
        message: format!(
            "无法读取 {} 工作簿, 文件可能已损坏或加密 (cannot read the {} workbook: damaged or encrypted?): {e}",
            format.name(),
            format.name()
        ),
    }
    };
    let over = |o: Over, sheet: &str| match o {
        Over::Sheet => bad(format!(
            "{sheet}: more than {MAX_GRID_CELLS} cells on one sheet — not an entry list"
        )),
        Over::Rows(line) => ImportError {
            message: format!("工作表 {sheet}: {}", too_many_rows(file, None).message),
            ..too_many_rows(file, Some(line))
        },
        Over::Cells(line) => ImportError {
            message: format!("工作表 {sheet}: {}", too_many_cells(file, None).message),
            ..too_many_cells(file, Some(line))
        },
    };
    match format {
        Format::Xls => {
            // calamine sizes buffers by numbers in the file: check them first (xls_guard).
            let checked = xls_guard::check(bytes).map_err(|r| bad(r.0))?;
            let mut book =
                calamine::Xls::new(Cursor::new(checked.bytes)).map_err(|e| bad(e.to_string()))?;
            let mut out = Vec::new();
            let mut budget = Budget::default();
            for name in book.sheet_names() {
                let range = book
                    .worksheet_range(&name)
                    .map_err(|e| bad(format!("{name}: {e}")))?;
                let mut grid = Grid::default();
                let (r0, c0) = range.start().unwrap_or((0, 0));
                for (i, row) in range.rows().enumerate() {
                    for (j, d) in row.iter().enumerate() {
                        if !matches!(d, Data::Empty) {
                            grid.put(&mut budget, r0 + i as u32, c0 + j as u32, cell(d))
                                .map_err(|o| over(o, &name))?;
                        }
                    }
                }
                out.push((name, grid.rows()));
            }
            Ok(out)
        }
        _ => {
            check_zip(bytes).map_err(bad)?;
            let mut book =
                calamine::Xlsx::new(Cursor::new(bytes)).map_err(|e| bad(e.to_string()))?;
            let mut out = Vec::new();
            let mut budget = Budget::default();
            for name in book.sheet_names() {
                // Cell by cell (calamine's `worksheet_range` would allocate the whole
                // rectangle a single far-away cell spans).
                let mut reader = match book.worksheet_cells_reader(&name) {
                    Ok(r) => r,
                    Err(calamine::XlsxError::NotAWorksheet(_)) => continue,
                    Err(e) => return Err(bad(format!("{name}: {e}"))),
                };
                let mut grid = Grid::default();
                while let Some(c) = reader
                    .next_cell()
                    .map_err(|e| bad(format!("{name}: {e}")))?
                {
                    let (r, col) = c.get_position();
                    let d: Data = c.get_value().clone().into();
                    if !matches!(d, Data::Empty) {
                        grid.put(&mut budget, r, col, cell(&d))
                            .map_err(|o| over(o, &name))?;
                    }
                }
                drop(reader);
                out.push((name, grid.rows()));
            }
            Ok(out)
        }
    }
}

/// Most bytes one part of an .xlsx may unpack to, and all parts together.
const MAX_PART: u64 = 64 << 20;
const MAX_UNPACKED: u64 = 256 << 20;

/// A zip bomb is refused before calamine unpacks it: every part is unpacked once, counting
/// (not keeping) its bytes, against the limits above.
fn check_zip(bytes: &[u8]) -> Result<(), String> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
    if zip.len() > 10_000 {
        return Err(format!(
            "{} parts in the file, too many for a workbook",
            zip.len()
        ));
    }
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut part = match zip.by_index(i) {
            Ok(p) => p,
            // An unreadable part (unsupported compression, encryption): calamine reports it
            // if it needs it.
            Err(_) => continue,
        };
        let name = part.name().to_string();
        let n = std::io::copy(
            &mut std::io::Read::take(&mut part, MAX_PART + 1),
            &mut std::io::sink(),
        )
        .unwrap_or(0);
        total += n;
        if n > MAX_PART || total > MAX_UNPACKED {
            return Err(format!(
                "“{name}” unpacks to more than {} MB — not an entry list",
                MAX_PART >> 20
            ));
        }
    }
    Ok(())
}

/// Cells of one sheet kept by position, bounded in rows, columns and count.
#[derive(Default)]
struct Grid {
    rows: std::collections::BTreeMap<u32, Vec<(u32, Cell)>>,
    count: usize,
}

/// Most cells kept from one sheet.
const MAX_GRID_CELLS: usize = 2_000_000;

/// Rows and cells of a workbook's sheets read so far (the file's limits are for all sheets).
#[derive(Default)]
struct Budget {
    rows: usize,
    cells: usize,
}

/// Which limit a cell went past.
enum Over {
    Sheet,
    Rows(usize),
    Cells(usize),
}

impl Grid {
    fn put(&mut self, budget: &mut Budget, r: u32, c: u32, v: Cell) -> Result<(), Over> {
        // Rows and columns beyond the limits are not an entry list's: skipped, as before.
        if r as usize >= MAX_ROWS || c as usize >= MAX_COLS {
            return Ok(());
        }
        self.count += 1;
        if self.count > MAX_GRID_CELLS {
            return Err(Over::Sheet);
        }
        budget.cells += 1;
        if budget.cells > MAX_FILE_CELLS {
            return Err(Over::Cells(r as usize + 1));
        }
        let row = self.rows.entry(r).or_insert_with(|| {
            budget.rows += 1;
            Vec::new()
        });
        row.push((c, v));
        if budget.rows > MAX_FILE_ROWS {
            return Err(Over::Rows(r as usize + 1));
        }
        Ok(())
    }

    /// Rows as Excel numbers them (1-based), each with its cells from column A on; blank
    /// rows are left out.
    fn rows(self) -> Vec<TableRow> {
        self.rows
            .into_iter()
            .map(|(r, mut cells)| {
                cells.sort_by_key(|(c, _)| *c);
                let width = cells.last().map_or(0, |(c, _)| *c as usize + 1);
                let mut row = vec![Cell::Text(String::new()); width];
                for (c, v) in cells {
                    row[c as usize] = v;
                }
                TableRow {
                    line: r as usize + 1,
                    cells: row,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        let zh = "姓名,单位\n张三,昆山\n";
        let (t, e) = decode(zh.as_bytes(), "a").unwrap();
        assert_eq!((t.as_str(), e), (zh, "UTF-8"));
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(zh.as_bytes());
        let (t, e) = decode(&bom, "a").unwrap();
        assert_eq!((t.as_str(), e), (zh, "UTF-8 (BOM)"));
        let (gbk, _, _) = encoding_rs::GBK.encode(zh);
        assert!(std::str::from_utf8(&gbk).is_err());
        let (t, e) = decode(&gbk, "a").unwrap();
        assert_eq!((t.as_str(), e), (zh, "GB18030"));
        assert_eq!(Format::sniff(b"PK\x03\x04..."), Format::Xlsx);
        assert_eq!(Format::sniff(zh.as_bytes()), Format::Csv);
    }

    #[test]
    fn csv_lines_with_quoted_newlines() {
        let (rows, _) = read_csv("a,b\n\"x\ny\",2\r\nz,3\n".as_bytes(), "q.csv").unwrap();
        let lines: Vec<usize> = rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![1, 2, 4]);
        assert_eq!(rows[1].cells[0], Cell::Text("x\ny".into()));
    }

    #[test]
    fn a_damaged_workbook_is_an_error_not_a_panic() {
        let e = read_roster(b"PK\x03\x04garbage", "d.xlsx", &[]).unwrap_err();
        assert!(e.message.contains("无法读取 xlsx 工作簿"), "{e}");
    }

    #[test]
    fn numbers_keep_their_digits() {
        assert_eq!(number_text(620502199001011200.0), "620502199001011200");
        assert_eq!(number_text(6.5), "6.5");
    }
}
