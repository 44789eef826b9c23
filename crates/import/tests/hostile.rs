//! Workbooks that ask the reader for more memory than an entry list needs: refused or read
//! within bounds, never an abort.

use arbiter_import::{read_roster, Format};
use std::io::Write;

/// A real .xls (LibreOffice) still reads through the structure check.
#[test]
fn a_real_xls_passes_the_check_and_reads() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/fixtures/roster.xls"
    ))
    .expect("fixture");
    assert!(arbiter_import::xls_guard::check(&bytes).is_ok());
    let imported = read_roster(&bytes, "roster.xls", &[]).expect("reads");
    assert_eq!(imported.format, Format::Xls);
    assert!(!imported.roster.rows.is_empty());
}

/// The same file with a sheet's cell moved to row 65,536, column 65,536: calamine would
/// allocate 2³² cells (137 GB) for that sheet; the check refuses it with the reason.
#[test]
fn an_xls_cell_far_away_is_refused_before_calamine() {
    let mut bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/fixtures/roster.xls"
    ))
    .expect("fixture");
    // Find a LABELSST record (0x00FD, length 10) and set its row and column to 0xFFFF.
    let at = bytes
        .windows(4)
        .position(|w| w == [0xFD, 0x00, 0x0A, 0x00])
        .expect("a LABELSST record");
    bytes[at + 4..at + 8].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF]);
    let e = read_roster(&bytes, "roster.xls", &[]).expect_err("refused");
    assert!(e.message.contains("无法读取 xls 工作簿"), "{}", e.message);
    assert!(
        e.message.contains("more than an entry list can hold"),
        "{}",
        e.message
    );
}

/// An .xlsx with one cell in A1 and one at XFD1048576 (the last cell of a sheet): read cell
/// by cell, the far cell is outside the rows and columns an entry list has and is skipped.
#[test]
fn an_xlsx_cell_far_away_is_read_without_the_rectangle() {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.write_string(0, 0, "姓名").expect("write");
    ws.write_string(1, 0, "张三").expect("write");
    ws.write_string(1_048_575, 16_383, "far").expect("write");
    let bytes = wb.save_to_buffer().expect("save");
    let sheets = arbiter_import::read_workbook(&bytes, "far.xlsx", Format::Xlsx).expect("reads");
    let rows = &sheets[0].1;
    assert_eq!(rows.len(), 2, "the far row is skipped");
    assert_eq!(rows[1].line, 2);
}

/// A zip bomb: a part that unpacks to 100 MB of zeros is refused before calamine unpacks it.
#[test]
fn an_xlsx_zip_bomb_is_refused() {
    let mut wb = rust_xlsxwriter::Workbook::new();
    wb.add_worksheet()
        .write_string(0, 0, "姓名")
        .expect("write");
    let good = wb.save_to_buffer().expect("save");
    // Copy every part and add a big one.
    let mut src = zip::ZipArchive::new(std::io::Cursor::new(good)).expect("zip");
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for i in 0..src.len() {
        let mut f = src.by_index(i).expect("part");
        let name = f.name().to_string();
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut data).expect("read");
        out.start_file(name, opts).expect("start");
        out.write_all(&data).expect("write");
    }
    out.start_file("xl/media/big.bin", opts).expect("start");
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..100 {
        out.write_all(&zeros).expect("write");
    }
    let bytes = out.finish().expect("finish").into_inner();
    assert!(bytes.len() < 1 << 20, "compressed: {} bytes", bytes.len());
    let e = arbiter_import::read_workbook(&bytes, "bomb.xlsx", Format::Xlsx).expect_err("refused");
    assert!(e.message.contains("big.bin"), "{}", e.message);
    assert!(e.message.contains("64 MB"), "{}", e.message);
}

/// Found by the fuzzer: a workbook stream whose directory entry gives length 0. calamine
/// then reads its whole chain, where a label sits at row 23,810, column 4,098 (a 97-million
/// cell range, 8–9 s of allocation); the check read the declared length only (nothing) and
/// let it through. It now reads what calamine reads and refuses the far cell.
#[test]
fn a_zero_length_workbook_stream_is_checked_as_calamine_reads_it() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/zero-length-stream.xls"
    ))
    .expect("fixture");
    let e = arbiter_import::xls_guard::check(&bytes)
        .err()
        .expect("refused");
    assert!(e.0.contains("row 1 to 23810"), "{}", e.0);
    assert!(read_roster(&bytes, "x.xls", &[]).is_err());
}

/// Issue 42, item 5: a CSV of hundreds of thousands of bad rows (a 15 MB upload) was read
/// whole and checked row by row. The file's rows are counted as they are read: past
/// `MAX_FILE_ROWS` it is refused, naming the limit and the line, before any row is checked.
#[test]
fn a_csv_past_the_row_limit_is_refused_while_it_is_read() {
    let mut text = String::from("姓名,性别,出生日期\n");
    for i in 0..(arbiter_import::MAX_FILE_ROWS + 10) {
        text.push_str(&format!("x{i},?,bad\n"));
    }
    let e = read_roster(text.as_bytes(), "bad.csv", &[]).expect_err("refused");
    assert!(e.message.contains("超过 50000 行"), "{}", e.message);
    assert_eq!(e.line, Some(arbiter_import::MAX_FILE_ROWS + 1));
    // At the limit it is read, and every bad row is reported.
    let mut ok = String::from("姓名,性别,出生日期\n");
    for i in 0..(arbiter_import::MAX_FILE_ROWS - 1) {
        ok.push_str(&format!("x{i},?,bad\n"));
    }
    let r = read_roster(ok.as_bytes(), "ok.csv", &[]).expect("read");
    assert_eq!(r.roster.data_rows, arbiter_import::MAX_FILE_ROWS - 1);
}

/// A workbook of four sheets of 300,000 cells each: every sheet alone is under the sheet's
/// limit, together they pass the file's `MAX_FILE_CELLS`, and the file is refused naming the
/// sheet where it went past (calamine stops there: the rest is never read).
#[test]
fn a_workbook_past_the_cell_limit_is_refused_over_all_its_sheets() {
    let mut wb = rust_xlsxwriter::Workbook::new();
    for _ in 0..4 {
        let ws = wb.add_worksheet();
        for r in 0..10_000u32 {
            for c in 0..30u16 {
                ws.write_number(r, c, 1.0).expect("write");
            }
        }
    }
    let bytes = wb.save_to_buffer().expect("save");
    let e = read_roster(&bytes, "big.xlsx", &[]).expect_err("refused");
    assert!(e.message.contains("超过 1000000 个单元格"), "{}", e.message);
    assert!(e.message.contains("Sheet4"), "{}", e.message);
}
