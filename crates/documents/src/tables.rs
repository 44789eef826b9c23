//! The Excel and CSV exports of an event (`event export ID --format xlsx|csv`, the desk's
//! downloads): the tables of an event's documents (entry list, pairings and results of every round,
//! standings with every tie-break column, crosstable, team standings, knockout bracket,
//! prize list) as one Excel workbook (a sheet per table) or one CSV file per table. The
//! tables are those of the printed documents (`arbiter_report`): one model, two renderings.
//! A team-match section (团体赛, A15) adds, with the results, one table of every match of
//! every round, a row per board (`team-matches-<section>`, [`arbiter_report::team_matches`]);
//! its team standings (`team-standings-<section>`) are exported once.
//! ID numbers and phones only in the organiser's copy ([`Privacy::Organiser`]); masked
//! otherwise.

use arbiter_core::EventState;
use arbiter_report::{
    build, team_matches, Cell, DocKind, Lang, Options, Privacy, ReportError, Table,
};
use rust_xlsxwriter::{Format, Workbook, XlsxError};

/// A workbook or CSV file that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("无法生成 Excel 文件 (cannot write the workbook): {0}")]
    Xlsx(#[from] XlsxError),
    #[error("无法生成 CSV (cannot write the CSV): {0}")]
    Csv(String),
}

/// The documents exported when no `--doc` is given (slips and certificates are print-only).
pub const EXPORTED: [DocKind; 8] = [
    DocKind::Checkin,
    DocKind::Pairings,
    DocKind::Results,
    DocKind::Standings,
    DocKind::Crosstable,
    DocKind::Teams,
    DocKind::Bracket,
    DocKind::Prizes,
];

/// Every table of `docs` for the event, in order: per-round documents once per section and
/// round. A document with nothing to show yet (no team, no knockout, no round) is left out
/// with a notice; a request that does not fit (unknown section) is an error.
pub fn tables(
    state: &EventState,
    docs: &[DocKind],
    section: Option<&str>,
    privacy: Privacy,
    notices: &mut Vec<String>,
) -> Result<Vec<Table>, ReportError> {
    tables_with_progress(state, docs, section, privacy, notices, &mut |_| {})
}

/// [`tables`], telling `progress(tables built so far)` after each document.
pub fn tables_with_progress(
    state: &EventState,
    docs: &[DocKind],
    section: Option<&str>,
    privacy: Privacy,
    notices: &mut Vec<String>,
    progress: &mut dyn FnMut(&[Table]),
) -> Result<Vec<Table>, ReportError> {
    let mut out = Vec::new();
    let opts = |section: Option<String>, round: Option<u32>| Options {
        section,
        round,
        privacy,
        lang: Lang::Zh,
        // The exported tables are for publishing: never the players' claim codes.
        claims: None,
    };
    for &kind in docs {
        if kind.takes_round() {
            let ids: Vec<String> = match section {
                Some(s) => vec![s.to_string()],
                None => state.sections.keys().cloned().collect(),
            };
            for id in ids {
                let last = state.section(&id).map(|s| s.last_round());
                let Some(last) = last else {
                    // Unknown section: the report names the known ones.
                    build(state, kind, &opts(Some(id), None))?;
                    continue;
                };
                if last == 0 {
                    notices.push(format!(
                        "{} [{id}]: 尚未编排 (no round paired yet)",
                        kind.zh()
                    ));
                }
                for round in 1..=last {
                    let r = build(state, kind, &opts(Some(id.clone()), Some(round)));
                    keep(
                        r,
                        &mut out,
                        notices,
                        format!("{} [{id}] 第{round}轮", kind.zh()),
                    )?;
                    progress(&out);
                }
                // A team-match section (A15): every match of every round in one table, a
                // row per board, beside the results round by round.
                if kind == DocKind::Results && last > 0 {
                    for t in team_matches(state, &opts(Some(id.clone()), None))? {
                        push(&mut out, t);
                    }
                    progress(&out);
                }
            }
        } else {
            let r = build(state, kind, &opts(section.map(str::to_string), None));
            keep(r, &mut out, notices, kind.zh().to_string())?;
            progress(&out);
        }
    }
    Ok(out)
}

/// The tables of a built document, or a notice when it has nothing to show yet.
fn keep(
    r: Result<arbiter_report::Document, ReportError>,
    out: &mut Vec<Table>,
    notices: &mut Vec<String>,
    what: String,
) -> Result<(), ReportError> {
    match r {
        Ok(d) => {
            for t in d.tables() {
                push(out, t.clone());
            }
            Ok(())
        }
        Err(ReportError::Nothing(why)) => {
            notices.push(format!("{what}: {why}"));
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// Adds `t` unless the same table is there already: a team-match section's team standings
/// are in both the standings and the team standings documents, and are exported once.
fn push(out: &mut Vec<Table>, t: Table) {
    let same = |o: &Table| o.id == t.id && o.columns == t.columns && o.rows == t.rows;
    if !out.iter().any(same) {
        out.push(t);
    }
}

/// A worksheet name from a table id: at most 31 characters, none of `[]:*?/\`, unique.
fn sheet_name(id: &str, used: &mut Vec<String>) -> String {
    let clean: String = id
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '_' } else { c })
        .collect();
    let base: String = clean.chars().take(31).collect();
    let mut name = base.clone();
    let mut n = 2;
    while used.iter().any(|u| u.eq_ignore_ascii_case(&name)) {
        let tail = format!("~{n}");
        name = base.chars().take(31 - tail.len()).collect::<String>() + &tail;
        n += 1;
    }
    used.push(name.clone());
    name
}

/// The tables as one workbook, a sheet per table (named by the table's id; its caption in
/// the first row when it has one, then the header row, then the rows). Numbers stay numbers:
/// scores (exact half-points) and amounts (yuan, two decimals) are numeric cells.
pub fn xlsx(tables: &[Table], title: &str) -> Result<Vec<u8>, WriteError> {
    xlsx_with_progress(tables, title, &mut |_, _| {})
}

/// [`xlsx`], telling `progress(sheets written, rows written)` after each sheet.
pub fn xlsx_with_progress(
    tables: &[Table],
    title: &str,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<u8>, WriteError> {
    let mut rows_done = 0;
    let mut wb = Workbook::new();
    let bold = Format::new().set_bold();
    let head = Format::new().set_bold().set_background_color("#DDEBF7");
    let money = Format::new().set_num_format("0.00");
    let mut used = Vec::new();
    if tables.is_empty() {
        let ws = wb.add_worksheet();
        ws.write_string_with_format(0, 0, title, &bold)?;
        ws.write_string(1, 0, "没有可导出的表格 (nothing to export yet)")?;
    }
    for (n, t) in tables.iter().enumerate() {
        let ws = wb.add_worksheet();
        ws.set_name(sheet_name(&t.id, &mut used))?;
        let mut r = 0u32;
        let caption = t.caption.as_deref().unwrap_or(title);
        ws.write_string_with_format(r, 0, caption, &bold)?;
        r += 1;
        for (c, col) in t.columns.iter().enumerate() {
            ws.write_string_with_format(r, c as u16, &col.header, &head)?;
            ws.set_column_width(c as u16, f64::from(col.width.clamp(4, 40)) + 2.0)?;
        }
        ws.set_freeze_panes(r + 1, 0)?;
        for row in &t.rows {
            r += 1;
            for (c, cell) in row.iter().enumerate() {
                let c = c as u16;
                match cell {
                    Cell::Empty => {}
                    Cell::Text(s) => {
                        ws.write_string(r, c, s)?;
                    }
                    Cell::Int(n) => {
                        ws.write_number(r, c, *n as f64)?;
                    }
                    // Half-points are exact in binary floating point.
                    Cell::Score(s) => match s.to_string().parse::<f64>() {
                        Ok(v) => {
                            ws.write_number(r, c, v)?;
                        }
                        Err(_) => {
                            ws.write_string(r, c, s.to_string())?;
                        }
                    },
                    Cell::Money(fen) => {
                        ws.write_number_with_format(r, c, *fen as f64 / 100.0, &money)?;
                    }
                }
            }
        }
        rows_done += t.rows.len();
        progress(n + 1, rows_done);
    }
    Ok(wb.save_to_buffer()?)
}

fn csv_text(cell: &Cell) -> String {
    match cell {
        // A plain number for a spreadsheet, not `120元`.
        Cell::Money(fen) if fen.is_multiple_of(100) => (fen / 100).to_string(),
        Cell::Money(fen) => format!("{}.{:02}", fen / 100, fen % 100),
        Cell::Text(s) => csv_safe(s),
        c => c.display(),
    }
}

/// Text as a spreadsheet will not run it: a cell beginning with `=`, `+`, `-`, `@`, a tab or
/// a carriage return is a formula to Excel and its kin (`=cmd|' /C calc'!A0` in a player's
/// name, say), so it gets a leading `'` — unless it is a plain number (`-3`, `+1.5`), which
/// stays a number.
pub fn csv_safe(s: &str) -> String {
    let risky = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let number = s.starts_with(['-', '+'])
        && s.len() > 1
        && s[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && s[1..].bytes().filter(|&b| b == b'.').count() <= 1
        && s[1..].bytes().any(|b| b.is_ascii_digit());
    if risky && !number {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

/// One table as CSV: UTF-8 with a BOM (so that Excel opens the Chinese text right), header
/// row then rows.
pub fn csv(t: &Table) -> Result<Vec<u8>, WriteError> {
    let mut w = csv::Writer::from_writer(b"\xEF\xBB\xBF".to_vec());
    let err = |e: csv::Error| WriteError::Csv(e.to_string());
    w.write_record(t.columns.iter().map(|c| csv_safe(&c.header)))
        .map_err(err)?;
    for row in &t.rows {
        w.write_record(row.iter().map(csv_text)).map_err(err)?;
    }
    w.into_inner().map_err(|e| WriteError::Csv(e.to_string()))
}

/// The file name of each table as a CSV file, `<table id>.csv` (characters a file system
/// refuses replaced, duplicates numbered `~2`, `~3` …), in the order of `tables`.
pub fn csv_names(tables: &[Table]) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(tables.len());
    for t in tables {
        let base: String =
            t.id.chars()
                .map(|c| if "<>:\"/\\|?*".contains(c) { '_' } else { c })
                .collect();
        let mut name = format!("{base}.csv");
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{base}~{n}.csv");
            n += 1;
        }
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_neutralised_and_numbers_stay_numbers() {
        for bad in [
            "=cmd|' /C calc'!A0",
            "+SUM(A1)",
            "-2+3",
            "@SUM(1)",
            "\t=1",
            "\r=1",
            "-",
            "=1",
        ] {
            assert_eq!(csv_safe(bad), format!("'{bad}"), "{bad:?}");
        }
        for good in ["张三", "-3", "+1.5", "3-1", "a=b", "120"] {
            assert_eq!(csv_safe(good), good);
        }
        assert_eq!(csv_text(&Cell::Int(-3)), "-3");
        assert_eq!(csv_text(&Cell::text("=1+1")), "'=1+1");
    }
}
