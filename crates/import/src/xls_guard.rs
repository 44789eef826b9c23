//! A check of an `.xls` file's structure before calamine reads it.
//!
//! calamine trusts the numbers inside an `.xls`: a sector number, a stream length or a cell's
//! row and column become the size of a buffer it allocates at once. A damaged or crafted file
//! can therefore ask for hundreds of gigabytes, and a failed allocation aborts the process —
//! the CLI, or the web server with every arbiter on it. This module walks the compound file
//! (MS-CFB: header, DIFAT, FAT, directory, mini stream) and the workbook's BIFF records the
//! way calamine will, with every number bounded by the file's own size, and refuses the file
//! with a plain message when something points outside it, loops, or claims a sheet larger
//! than an entry list can be. What it lets through calamine can read with memory bounded by
//! a small multiple of the file's size.
//!
//! It also hides a macro project (`_VBA_PROJECT_CUR`) from calamine, which would otherwise
//! decompress it — a roster never needs its macros.

/// Most cells a sheet may span (rows × columns of its used range): 2,000,000 cells, far
/// beyond any entry list, and a bounded allocation (calamine keeps 32 bytes a cell).
pub const MAX_CELLS: u64 = 2_000_000;

const ENDOFCHAIN: u32 = 0xFFFF_FFFE;
const RESERVED_SECTORS: u32 = 0xFFFF_FFFA;
const DIFSECT: u32 = 0xFFFF_FFFC;

/// Why a file was refused (English detail; the caller adds the Chinese frame).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

fn refuse<T>(msg: impl Into<String>) -> Result<T, Refused> {
    Err(Refused(msg.into()))
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]]))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 8).map(|s| {
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        u64::from_le_bytes(a)
    })
}

/// The compound file, as far as calamine will read it.
struct Compound<'a> {
    bytes: &'a [u8],
    /// 512 or 4096.
    size: usize,
    /// Where sector 0 starts (the header takes one sector).
    base: usize,
    /// Sectors present in the file (the last one may be short).
    sectors: u32,
    fat: Vec<u32>,
}

impl<'a> Compound<'a> {
    fn sector(&self, id: u32) -> Result<&'a [u8], Refused> {
        if id >= self.sectors {
            return refuse(format!(
                "sector {id} is outside the file ({} sectors)",
                self.sectors
            ));
        }
        let start = self.base + id as usize * self.size;
        let end = (start + self.size).min(self.bytes.len());
        Ok(&self.bytes[start..end])
    }

    /// The sectors of a chain, in order, each inside the file and none twice.
    fn chain(&self, start: u32, what: &str) -> Result<Vec<u32>, Refused> {
        let mut ids = Vec::new();
        let mut id = start;
        while id != ENDOFCHAIN {
            if id >= self.sectors || id as usize >= self.fat.len() {
                return refuse(format!(
                    "the {what} chain points outside the file (sector {id})"
                ));
            }
            if ids.len() > self.sectors as usize {
                return refuse(format!("the {what} chain loops"));
            }
            ids.push(id);
            id = self.fat[id as usize];
        }
        Ok(ids)
    }

    fn read_chain(&self, start: u32, what: &str) -> Result<Vec<u8>, Refused> {
        let mut out = Vec::new();
        for id in self.chain(start, what)? {
            out.extend_from_slice(self.sector(id)?);
        }
        Ok(out)
    }
}

/// What the check lets through: the bytes to give calamine (a copy of the file, with the
/// macro project hidden if it had one).
pub struct Checked {
    pub bytes: Vec<u8>,
}

/// Check an `.xls` file (see the module's documentation).
pub fn check(bytes: &[u8]) -> Result<Checked, Refused> {
    let len = bytes.len() as u64;
    if bytes.len() < 512 {
        return refuse("shorter than a compound file's header");
    }
    if bytes[..8] != [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] {
        return refuse("not a compound file (signature)");
    }
    let version = u16_at(bytes, 26).unwrap_or(0);
    let size = match u16_at(bytes, 30) {
        Some(0x0009) => 512,
        Some(0x000C) => 4096,
        _ => return refuse("sector size is neither 512 nor 4096"),
    };
    if u16_at(bytes, 32) != Some(0x0006) {
        return refuse("mini sector size is not 64");
    }
    if bytes.len() < size {
        return refuse("shorter than its header");
    }
    let field = |at| u32_at(bytes, at).unwrap_or(u32::MAX);
    let dir_len = field(40) as u64;
    let fat_len = field(44) as u64;
    let dir_start = field(48);
    let mini_fat_start = field(60);
    let mini_fat_len = field(64) as u64;
    let difat_start = field(68);
    // calamine sizes its DIFAT list by the four bytes at offset 62.
    let difat_cap = field(62) as u64;
    let base = size;
    let sectors = (bytes.len() - base).div_ceil(size) as u32;
    let n = sectors as u64;
    if fat_len > n || difat_cap.saturating_mul(4) > 64 << 20 {
        return refuse("the header claims more sectors than the file holds");
    }
    if dir_len.saturating_mul(size as u64) > len || mini_fat_len.saturating_mul(size as u64) > len {
        return refuse("the header's directory or mini FAT is larger than the file");
    }
    let mut cf = Compound {
        bytes,
        size,
        base,
        sectors,
        fat: Vec::new(),
    };

    // DIFAT: 109 entries in the header, then a chain of DIFAT sectors whose last entry is
    // the next one (read exactly as calamine reads it).
    let mut difat: Vec<u32> = bytes[76..512]
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut id = difat_start;
    let mut hops = 0u64;
    while id < RESERVED_SECTORS {
        hops += 1;
        if hops > n {
            return refuse("the DIFAT chain loops");
        }
        let s = cf.sector(id)?;
        if s.len() % 4 != 0 || s.is_empty() {
            return refuse("a DIFAT sector is cut short");
        }
        difat.extend(
            s.chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        id = difat.pop().unwrap_or(ENDOFCHAIN);
    }
    let mut fat = Vec::new();
    for id in difat.into_iter().filter(|id| *id < DIFSECT) {
        let s = cf.sector(id)?;
        if s.len() % 4 != 0 {
            return refuse("a FAT sector is cut short");
        }
        fat.extend(
            s.chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        if fat.len() as u64 > n.saturating_mul(size as u64 / 4) {
            return refuse("the FAT is larger than the file");
        }
    }
    cf.fat = fat;

    // The directory: 128-byte entries.
    let dir_sectors = cf.chain(dir_start, "directory")?;
    let dir = cf.read_chain(dir_start, "directory")?;
    if dir.len() % 128 != 0 || dir.is_empty() {
        return refuse("the directory is cut short");
    }
    struct Entry {
        name: String,
        start: u32,
        len: u64,
    }
    let entries: Vec<Entry> = dir
        .chunks(128)
        .map(|e| {
            let units: Vec<u16> = e[..64]
                .chunks(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .take_while(|u| *u != 0)
                .collect();
            Entry {
                name: String::from_utf16_lossy(&units),
                start: u32_at(e, 116).unwrap_or(ENDOFCHAIN),
                len: if size == 512 {
                    u32_at(e, 120).unwrap_or(0) as u64
                } else {
                    u64_at(e, 120).unwrap_or(0)
                },
            }
        })
        .collect();
    if version != 3 && entries[0].start == ENDOFCHAIN {
        return refuse("the root directory is empty");
    }
    if let Some(e) = entries.iter().find(|e| e.len > len) {
        return refuse(format!(
            "the stream “{}” claims {} bytes, more than the file",
            e.name, e.len
        ));
    }

    // The mini stream and its FAT (read when the header names a mini FAT).
    let (mini_fat, mini_len) = if mini_fat_len > 0 {
        let root = &entries[0];
        let stream = cf.read_chain(root.start, "mini stream")?;
        let minifat = cf.read_chain(mini_fat_start, "mini FAT")?;
        if minifat.len() % 4 != 0 {
            return refuse("the mini FAT is cut short");
        }
        let minifat: Vec<u32> = minifat
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        (minifat, stream.len().min(root.len as usize))
    } else {
        (Vec::new(), 0)
    };

    // The workbook stream calamine reads: the first entry named Workbook, else Book.
    let book = entries
        .iter()
        .find(|e| e.name == "Workbook")
        .or_else(|| entries.iter().find(|e| e.name == "Book"));
    let Some(book) = book else {
        return refuse("no Workbook stream (not an Excel workbook?)");
    };
    let stream = if book.len < 4096 {
        let mini_sectors = mini_len.div_ceil(64) as u32;
        let mut ids = Vec::new();
        let mut id = book.start;
        while id != ENDOFCHAIN {
            if id >= mini_sectors || id as usize >= mini_fat.len() {
                return refuse("the workbook's mini chain points outside the mini stream");
            }
            if ids.len() > mini_sectors as usize {
                return refuse("the workbook's mini chain loops");
            }
            ids.push(id);
            id = mini_fat[id as usize];
        }
        // The mini stream's bytes are not needed for the records' bounds beyond this: a
        // workbook under 4 KB holds at most a few hundred records; read them anyway.
        let root = cf.read_chain(entries[0].start, "mini stream")?;
        let mut out = Vec::new();
        for id in ids {
            let s = id as usize * 64;
            out.extend_from_slice(root.get(s..(s + 64).min(root.len())).unwrap_or(&[]));
        }
        // calamine keeps the whole chain when the stream's length says 0: so do we.
        if book.len > 0 {
            out.truncate(book.len as usize);
        }
        out
    } else {
        let mut s = cf.read_chain(book.start, "workbook")?;
        s.truncate(book.len as usize);
        s
    };
    check_records(&stream)?;

    // Hide a macro project: rename its directory entry in a copy of the file.
    let mut out = bytes.to_vec();
    for (i, e) in entries.iter().enumerate() {
        if e.name == "_VBA_PROJECT_CUR" {
            let sector = dir_sectors[i * 128 / size];
            let at = base + sector as usize * size + (i * 128) % size;
            if let Some(b) = out.get_mut(at) {
                *b = b'X';
            }
        }
    }
    Ok(Checked { bytes: out })
}

/// Walk the BIFF records as calamine does — from the start to EOF for the globals, then
/// from each sheet's position (BOUNDSHEET) — and bound every sheet's used range.
fn check_records(stream: &[u8]) -> Result<(), Refused> {
    let mut sheets = Vec::new();
    for rec in Records::new(stream) {
        let (typ, data) = rec?;
        match typ {
            0x000A => break,
            0x0085 => {
                if let Some(pos) = u32_at(data, 0) {
                    sheets.push(pos as usize);
                }
            }
            _ => {}
        }
    }
    // calamine builds (and clones) a range for every sheet: the sheets together are bounded
    // too, so that many sheets just under the limit cannot add up to gigabytes.
    let mut total = 0u64;
    for pos in sheets {
        let Some(sheet) = stream.get(pos..) else {
            continue; // calamine reports it (an error, caught)
        };
        let mut span = Span::default();
        let mut declared = 0u64;
        let mut formula_at = (0u32, 0u32);
        for rec in Records::new(sheet) {
            let Ok((typ, data)) = rec else { break };
            match typ {
                0x000A => break,
                0x0200 => declared = declared.max(dimensions(data)?),
                0x0203 | 0x0204 | 0x0205 | 0x027E | 0x00FD => {
                    if let (Some(r), Some(c)) = (u16_at(data, 0), u16_at(data, 2)) {
                        span.add(r as u32, c as u32)?;
                    }
                }
                0x0006 => {
                    if let (Some(r), Some(c)) = (u16_at(data, 0), u16_at(data, 2)) {
                        formula_at = (r as u32, c as u32);
                        span.add(formula_at.0, formula_at.1)?;
                    }
                }
                0x0207 => span.add(formula_at.0, formula_at.1)?,
                0x00BD if data.len() >= 6 => {
                    let r = u16_at(data, 0).unwrap_or(0) as u32;
                    let first = u16_at(data, 2).unwrap_or(0) as u32;
                    let last = u16_at(data, data.len() - 2).unwrap_or(0) as u32;
                    span.add(r, first)?;
                    if last >= first {
                        span.add(r, last)?;
                    }
                }
                _ => {}
            }
        }
        total += declared.max(span.cells());
        if total > MAX_CELLS {
            return refuse(format!(
                "the sheets together span more than {MAX_CELLS} cells, more than an entry list can hold"
            ));
        }
    }
    Ok(())
}

/// A DIMENSIONS record: calamine reserves rows × columns cells for it (returned).
fn dimensions(d: &[u8]) -> Result<u64, Refused> {
    let (rf, rl, mut cf, cl) = match d.len() {
        10 => (
            u16_at(d, 0).unwrap_or(0) as u32,
            u16_at(d, 2).unwrap_or(0) as u32,
            u16_at(d, 4).unwrap_or(0) as u32,
            u16_at(d, 6).unwrap_or(0) as u32,
        ),
        14 => (
            u32_at(d, 0).unwrap_or(0),
            u32_at(d, 4).unwrap_or(0),
            u16_at(d, 8).unwrap_or(0) as u32,
            u16_at(d, 10).unwrap_or(0) as u32,
        ),
        _ => return Ok(0), // calamine refuses the record
    };
    if 0xFF < cf || cl < cf {
        cf = 0;
    }
    if rl >= 1 && cl >= 1 {
        if rl - 1 < rf {
            return refuse("a sheet's dimensions end before they start");
        }
        let cells = (rl - rf) as u64 * (cl - cf) as u64;
        if cells > MAX_CELLS {
            return refuse(format!(
                "a sheet declares {} rows × {} columns, more than an entry list can hold",
                rl - rf,
                cl - cf
            ));
        }
        return Ok(cells);
    }
    Ok(0)
}

/// The used range of one sheet, by its cells.
#[derive(Default)]
struct Span {
    rows: Option<(u32, u32)>,
    cols: Option<(u32, u32)>,
}

impl Span {
    /// Cells of the used range so far.
    fn cells(&self) -> u64 {
        match (self.rows, self.cols) {
            (Some((r0, r1)), Some((c0, c1))) => (r1 - r0 + 1) as u64 * (c1 - c0 + 1) as u64,
            _ => 0,
        }
    }

    fn add(&mut self, r: u32, c: u32) -> Result<(), Refused> {
        let grow = |v: &mut Option<(u32, u32)>, x: u32| {
            *v = Some(match *v {
                None => (x, x),
                Some((a, b)) => (a.min(x), b.max(x)),
            })
        };
        grow(&mut self.rows, r);
        grow(&mut self.cols, c);
        if let (Some((r0, r1)), Some((c0, c1))) = (self.rows, self.cols) {
            let cells = (r1 - r0 + 1) as u64 * (c1 - c0 + 1) as u64;
            if cells > MAX_CELLS {
                return refuse(format!(
                    "a sheet has cells from row {} to {} and column {} to {}, more than an entry list can hold",
                    r0 + 1,
                    r1 + 1,
                    c0 + 1,
                    c1 + 1
                ));
            }
        }
        Ok(())
    }
}

/// BIFF records (type, data), CONTINUE records skipped as calamine appends them.
struct Records<'a> {
    rest: &'a [u8],
}

impl<'a> Records<'a> {
    fn new(rest: &'a [u8]) -> Self {
        Records { rest }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<(u16, &'a [u8]), Refused>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.len() < 4 {
            return if self.rest.is_empty() {
                None
            } else {
                self.rest = &[];
                Some(refuse("a record is cut short"))
            };
        }
        let typ = u16_at(self.rest, 0).unwrap_or(0);
        let len = u16_at(self.rest, 2).unwrap_or(0) as usize;
        let Some(data) = self.rest.get(4..4 + len) else {
            self.rest = &[];
            return Some(refuse("a record is longer than the stream"));
        };
        self.rest = &self.rest[4 + len..];
        while self.rest.len() > 4 && u16_at(self.rest, 0) == Some(0x003C) {
            let l = u16_at(self.rest, 2).unwrap_or(0) as usize;
            match self.rest.get(4 + l..) {
                Some(r) => self.rest = r,
                None => {
                    self.rest = &[];
                    break;
                }
            }
        }
        Some(Ok((typ, data)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal compound file (512-byte sectors): header, one FAT sector (0), one directory
    /// sector (1), the workbook stream from sector 2 on (regular sectors: ≥ 4096 bytes).
    pub(crate) fn compound(workbook: &[u8]) -> Vec<u8> {
        let padded = {
            let mut w = workbook.to_vec();
            if w.len() < 4096 {
                w.resize(4096, 0);
            }
            w
        };
        let n_book = padded.len().div_ceil(512);
        let mut h = vec![0u8; 512];
        h[..8].copy_from_slice(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]);
        h[24..26].copy_from_slice(&0x3Eu16.to_le_bytes());
        h[26..28].copy_from_slice(&3u16.to_le_bytes());
        h[28..30].copy_from_slice(&0xFFFEu16.to_le_bytes());
        h[30..32].copy_from_slice(&9u16.to_le_bytes());
        h[32..34].copy_from_slice(&6u16.to_le_bytes());
        h[44..48].copy_from_slice(&1u32.to_le_bytes()); // one FAT sector
        h[48..52].copy_from_slice(&1u32.to_le_bytes()); // directory at sector 1
        h[56..60].copy_from_slice(&4096u32.to_le_bytes());
        h[60..64].copy_from_slice(&ENDOFCHAIN.to_le_bytes());
        h[68..72].copy_from_slice(&ENDOFCHAIN.to_le_bytes());
        for i in 0..109 {
            h[76 + 4 * i..80 + 4 * i].copy_from_slice(&0xFFFF_FFFFu32.to_le_bytes());
        }
        h[76..80].copy_from_slice(&0u32.to_le_bytes()); // FAT in sector 0
        let mut fat = vec![0xFFFF_FFFFu32; 128];
        fat[0] = 0xFFFF_FFFD;
        fat[1] = ENDOFCHAIN;
        for i in 0..n_book {
            fat[2 + i] = if i + 1 == n_book {
                ENDOFCHAIN
            } else {
                (3 + i) as u32
            };
        }
        let mut out = h;
        out.extend(fat.iter().flat_map(|v| v.to_le_bytes()));
        let mut dir = vec![0u8; 512];
        let entry = |dir: &mut Vec<u8>, i: usize, name: &str, typ: u8, start: u32, len: u32| {
            let e = &mut dir[i * 128..(i + 1) * 128];
            let units: Vec<u16> = name.encode_utf16().collect();
            for (k, u) in units.iter().enumerate() {
                e[2 * k..2 * k + 2].copy_from_slice(&u.to_le_bytes());
            }
            e[64..66].copy_from_slice(&(((units.len() + 1) * 2) as u16).to_le_bytes());
            e[66] = typ;
            e[68..72].copy_from_slice(&0xFFFF_FFFFu32.to_le_bytes());
            e[72..76].copy_from_slice(&0xFFFF_FFFFu32.to_le_bytes());
            e[76..80].copy_from_slice(&0xFFFF_FFFFu32.to_le_bytes());
            e[116..120].copy_from_slice(&start.to_le_bytes());
            e[120..124].copy_from_slice(&len.to_le_bytes());
        };
        entry(&mut dir, 0, "Root Entry", 5, ENDOFCHAIN, 0);
        entry(&mut dir, 1, "Workbook", 2, 2, padded.len() as u32);
        // The root's child is the workbook entry.
        dir[76..80].copy_from_slice(&1u32.to_le_bytes());
        out.extend(dir);
        out.extend(&padded);
        out.resize(512 + 512 * (2 + n_book), 0);
        out
    }

    fn record(typ: u16, data: &[u8]) -> Vec<u8> {
        let mut r = typ.to_le_bytes().to_vec();
        r.extend((data.len() as u16).to_le_bytes());
        r.extend(data);
        r
    }

    fn cell(row: u16, col: u16) -> Vec<u8> {
        let mut d = row.to_le_bytes().to_vec();
        d.extend(col.to_le_bytes());
        d.extend([0u8; 10]);
        record(0x0203, &d)
    }

    /// Globals with one BOUNDSHEET pointing at a sheet made of `cells`.
    fn workbook(cells: &[u8]) -> Vec<u8> {
        workbook_n(cells, 1)
    }

    /// Globals with `n` BOUNDSHEETs all pointing at one sheet made of `cells`.
    fn workbook_n(cells: &[u8], n: usize) -> Vec<u8> {
        let bof = record(0x0809, &[0x00, 0x06, 0x05, 0x00, 0, 0, 0, 0]);
        let eof = record(0x000A, &[]);
        let bs_len = 4 + 8;
        let sheet_pos = (bof.len() + n * bs_len + eof.len()) as u32;
        let mut bs = sheet_pos.to_le_bytes().to_vec();
        bs.extend([0, 0, 1, 0, b'A', 0]);
        let mut w = bof.clone();
        for _ in 0..n {
            w.extend(record(0x0085, &bs[..8]));
        }
        w.extend(eof.clone());
        w.extend(record(0x0809, &[0x00, 0x06, 0x10, 0x00, 0, 0, 0, 0]));
        w.extend(cells);
        w.extend(eof);
        w
    }

    #[test]
    fn a_sound_file_passes() {
        let mut cells = cell(0, 0);
        cells.extend(cell(30, 5));
        let f = compound(&workbook(&cells));
        assert!(check(&f).is_ok(), "{:?}", check(&f).err());
    }

    /// Many sheets each just under the limit would make calamine build and clone a range
    /// each: the sheets are bounded together.
    #[test]
    fn many_large_sheets_are_refused_together() {
        let mut cells = cell(0, 0);
        cells.extend(cell(999, 999)); // 1,000 × 1,000 cells
        assert!(check(&compound(&workbook_n(&cells, 2))).is_ok());
        let e = check(&compound(&workbook_n(&cells, 3)))
            .err()
            .expect("refused");
        assert!(e.0.contains("sheets together"), "{}", e.0);
    }

    #[test]
    fn a_cell_far_away_is_refused() {
        let mut cells = cell(0, 0);
        cells.extend(cell(65535, 65535));
        let f = compound(&workbook(&cells));
        let e = check(&f).err().map(|r| r.0).unwrap_or_default();
        assert!(e.contains("row 1 to 65536"), "{e}");
    }

    #[test]
    fn huge_dimensions_are_refused() {
        let mut d = 0u32.to_le_bytes().to_vec();
        d.extend(1_000_000u32.to_le_bytes());
        d.extend(0u16.to_le_bytes());
        d.extend(200u16.to_le_bytes());
        d.extend([0, 0]);
        let f = compound(&workbook(&record(0x0200, &d)));
        let e = check(&f).err().map(|r| r.0).unwrap_or_default();
        assert!(e.contains("1000000 rows × 200 columns"), "{e}");
    }

    #[test]
    fn a_sector_outside_the_file_is_refused() {
        let mut f = compound(&workbook(&cell(0, 0)));
        // The directory's start sector → far beyond the end.
        f[48..52].copy_from_slice(&0x0FFF_FFF0u32.to_le_bytes());
        let e = check(&f).err().map(|r| r.0).unwrap_or_default();
        assert!(e.contains("outside the file"), "{e}");
    }

    #[test]
    fn a_looping_chain_is_refused() {
        let mut f = compound(&workbook(&cell(0, 0)));
        // FAT entry of the directory sector (1) → itself.
        f[512 + 4..512 + 8].copy_from_slice(&1u32.to_le_bytes());
        let e = check(&f).err().map(|r| r.0).unwrap_or_default();
        assert!(e.contains("loops"), "{e}");
    }

    #[test]
    fn a_stream_longer_than_the_file_is_refused() {
        let mut f = compound(&workbook(&cell(0, 0)));
        // The workbook entry's length (directory sector 1 = file offset 1024, entry 1).
        let at = 1024 + 128 + 120;
        f[at..at + 4].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
        let e = check(&f).err().map(|r| r.0).unwrap_or_default();
        assert!(e.contains("more than the file"), "{e}");
    }

    #[test]
    fn a_macro_project_is_hidden_from_the_reader() {
        let mut f = compound(&workbook(&cell(0, 0)));
        // Name the root entry's second slot "_VBA_PROJECT_CUR" (entry 2, unused so far).
        let at = 1024 + 2 * 128;
        for (k, u) in "_VBA_PROJECT_CUR".encode_utf16().enumerate() {
            f[at + 2 * k..at + 2 * k + 2].copy_from_slice(&u.to_le_bytes());
        }
        f[at + 116..at + 120].copy_from_slice(&ENDOFCHAIN.to_le_bytes());
        let checked = check(&f).map(|c| c.bytes).unwrap_or_default();
        assert_eq!(checked[at], b'X');
        assert_eq!(checked.len(), f.len());
    }
}
