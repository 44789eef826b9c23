//! Player lists (报名表) as UTF-8 CSV with a header row, Chinese or English headers.
//! Parsing is pure and all-or-nothing: every malformed cell of the file is reported, each
//! with its line and column, and no row is returned unless the whole file is well formed.

use arbiter_types::{IdNumber, Phone, Sex};
use chrono::NaiveDate;
use std::fmt;

/// The columns a roster may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// A column Arbiter does not read (序号, 备注, …): ignored, with a notice.
    Ignored,
}

/// (column, accepted header spellings). The first spelling is the Chinese one.
const HEADERS: &[(Column, &[&str])] = &[
    (Column::Name, &["姓名", "name"]),
    (Column::Section, &["组别", "section"]),
    (Column::Sex, &["性别", "sex"]),
    (
        Column::IdNumber,
        &["身份证号", "id_number", "身份证", "身份证号码"],
    ),
    (Column::Phone, &["手机", "phone", "手机号", "电话"]),
    (Column::Unit, &["单位", "unit"]),
    (Column::Association, &["协会", "association"]),
    (Column::Team, &["队名", "team"]),
    (Column::BirthDate, &["出生日期", "birth_date", "birth"]),
    (Column::Evidence, &["证明", "evidence"]),
    (Column::Flags, &["标记", "flags"]),
    (Column::Rating, &["等级分", "rating"]),
];

/// One row of a roster, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterRow {
    /// Line of the file where the row starts (the header is line 1).
    pub line: usize,
    pub name: String,
    pub section: Option<String>,
    pub sex: Option<Sex>,
    pub id_number: Option<IdNumber>,
    pub phone: Option<Phone>,
    pub unit: Option<String>,
    pub association: Option<String>,
    pub team: Option<String>,
    pub birth_date: Option<NaiveDate>,
    pub evidence: Vec<String>,
    pub flags: Vec<String>,
    pub rating: Option<u32>,
}

/// A problem at a line (and column) of a roster file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterError {
    pub file: String,
    pub line: usize,
    /// 1-based column (cell number), when the problem is in one cell.
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for RosterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(
                f,
                "{}:{}:{}: 第{}行第{}列: {}",
                self.file, self.line, c, self.line, c, self.message
            ),
            None => write!(
                f,
                "{}:{}: 第{}行: {}",
                self.file, self.line, self.line, self.message
            ),
        }
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

/// Parse a date cell: `2001-02-03`, `2001/2/3`, `2001.02.03` or `20010203`.
pub fn parse_date(s: &str) -> Option<NaiveDate> {
    let t = s.trim();
    if t.len() == 8 && t.bytes().all(|b| b.is_ascii_digit()) {
        return NaiveDate::parse_from_str(t, "%Y%m%d").ok();
    }
    let parts: Vec<&str> = t.split(['-', '/', '.']).collect();
    if parts.len() != 3 {
        return None;
    }
    let y = parts[0].parse().ok()?;
    let m = parts[1].parse().ok()?;
    let d = parts[2].parse().ok()?;
    NaiveDate::from_ymd_opt(y, m, d)
}

/// Split CSV text (RFC 4180: `,` separator, `"` quoting, `""` escape, quoted newlines) into
/// records, each with the line it starts on.
fn records(text: &str, file: &str) -> Result<Vec<(usize, Vec<String>)>, RosterError> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut start_line = 1;
    let mut field = String::new();
    let mut fields = Vec::new();
    let mut in_quotes = false;
    let mut quoted_field_line = 0;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push('\n');
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.trim().is_empty() => {
                field.clear();
                in_quotes = true;
                quoted_field_line = line;
            }
            ',' => fields.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                fields.push(std::mem::take(&mut field));
                out.push((start_line, std::mem::take(&mut fields)));
                line += 1;
                start_line = line;
                any = false;
            }
            _ => field.push(c),
        }
    }
    if in_quotes {
        return Err(RosterError {
            file: file.into(),
            line: quoted_field_line,
            column: None,
            message: "引号未闭合 (unterminated quoted field)".into(),
        });
    }
    if any {
        fields.push(field);
        out.push((start_line, fields));
    }
    // Blank lines are not rows.
    out.retain(|(_, f)| !(f.len() == 1 && f[0].trim().is_empty()));
    Ok(out)
}

/// Parse a roster. Returns every error found (all-or-nothing).
pub fn parse_roster(text: &str, file: &str) -> Result<Vec<RosterRow>, Vec<RosterError>> {
    parse_roster_with_notices(text, file).map(|(rows, _)| rows)
}

/// [`parse_roster`], with a notice for every column it ignores: a header Arbiter does not
/// read (序号, 备注, …) is not an error, its cells are skipped.
pub fn parse_roster_with_notices(
    text: &str,
    file: &str,
) -> Result<(Vec<RosterRow>, Vec<RosterError>), Vec<RosterError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let recs = records(text, file).map_err(|e| vec![e])?;
    let err = |line: usize, column: Option<usize>, message: String| RosterError {
        file: file.into(),
        line,
        column,
        message,
    };
    let Some((hline, header)) = recs.first() else {
        return Err(vec![err(
            1,
            None,
            "文件为空, 缺少表头 (empty file: a header row is required)".into(),
        )]);
    };
    let mut cols: Vec<Column> = Vec::new();
    let mut errors = Vec::new();
    let mut notices = Vec::new();
    for (i, h) in header.iter().enumerate() {
        let key = h.trim().to_lowercase();
        match HEADERS
            .iter()
            .find(|(_, names)| names.contains(&key.as_str()))
        {
            Some((c, _)) if cols.contains(c) => errors.push(err(
                *hline,
                Some(i + 1),
                format!("列名 `{}` 重复 (duplicate column)", h.trim()),
            )),
            Some((c, _)) => cols.push(*c),
            None => {
                // A spelling hint only for a longer header close to a known one (`phon`);
                // a short Chinese header (序号) is a column of its own, not a typo.
                let all = HEADERS.iter().flat_map(|(_, n)| n.iter().copied());
                let hint = arbiter_types::closest(&key, all)
                    .filter(|_| key.chars().count() >= 4)
                    .map(|s| format!("; 如为 `{s}` 请改正列名 (did you mean `{s}`?)"));
                notices.push(err(
                    *hline,
                    Some(i + 1),
                    format!(
                        "忽略未知列 `{}` (unknown column ignored){}",
                        h.trim(),
                        hint.unwrap_or_default()
                    ),
                ));
                cols.push(Column::Ignored);
            }
        }
    }
    if !cols.contains(&Column::Name) {
        errors.push(err(
            *hline,
            None,
            "缺少 `姓名`/`name` 列 (the name column is required)".into(),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut rows = Vec::new();
    for (line, fields) in &recs[1..] {
        let line = *line;
        if fields.len() != cols.len() {
            errors.push(err(
                line,
                Some(fields.len().min(cols.len()) + 1),
                format!(
                    "本行有 {} 列, 表头有 {} 列 (wrong number of cells)",
                    fields.len(),
                    cols.len()
                ),
            ));
            continue;
        }
        let mut row = RosterRow {
            line,
            name: String::new(),
            section: None,
            sex: None,
            id_number: None,
            phone: None,
            unit: None,
            association: None,
            team: None,
            birth_date: None,
            evidence: Vec::new(),
            flags: Vec::new(),
            rating: None,
        };
        let mut sex_col = 0;
        let mut birth_col = 0;
        for (i, (col, raw)) in cols.iter().zip(fields).enumerate() {
            let v = raw.trim();
            let c = Some(i + 1);
            let opt = || (!v.is_empty()).then(|| v.to_string());
            match col {
                Column::Ignored => {}
                Column::Name => {
                    if v.is_empty() {
                        errors.push(err(line, c, "姓名为空 (name is empty)".into()));
                    }
                    row.name = v.to_string();
                }
                Column::Section => row.section = opt(),
                Column::Sex if v.is_empty() => {}
                Column::Sex => match parse_sex(v) {
                    Some(s) => {
                        row.sex = Some(s);
                        sex_col = i + 1;
                    }
                    None => errors.push(err(
                        line,
                        c,
                        format!("性别 `{v}` 无法识别, 应为 男/女 或 M/F (unknown sex)"),
                    )),
                },
                Column::IdNumber if v.is_empty() => {}
                Column::IdNumber => match IdNumber::parse(v) {
                    Ok(id) => row.id_number = Some(id),
                    Err(e) => errors.push(err(line, c, e.to_string())),
                },
                Column::Phone if v.is_empty() => {}
                Column::Phone => match Phone::parse(v) {
                    Ok(p) => row.phone = Some(p),
                    Err(e) => errors.push(err(line, c, e.to_string())),
                },
                Column::Unit => row.unit = opt(),
                Column::Association => row.association = opt(),
                Column::Team => row.team = opt(),
                Column::BirthDate if v.is_empty() => {}
                Column::BirthDate => match parse_date(v) {
                    Some(d) => {
                        row.birth_date = Some(d);
                        birth_col = i + 1;
                    }
                    None => errors.push(err(
                        line,
                        c,
                        format!("出生日期 `{v}` 不是有效日期, 应为 YYYY-MM-DD (bad date)"),
                    )),
                },
                Column::Evidence | Column::Flags => {
                    let items = v
                        .split([';', '；', '、', '|'])
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
                    Err(_) => errors.push(err(
                        line,
                        c,
                        format!("等级分 `{v}` 不是整数 (rating must be a whole number)"),
                    )),
                },
            }
        }
        if let Some(id) = &row.id_number {
            if let Some(s) = row.sex {
                if s != id.sex() {
                    errors.push(err(
                        line,
                        Some(sex_col),
                        format!(
                            "性别 {} 与身份证号不符 (sex does not match the ID number)",
                            s.zh()
                        ),
                    ));
                }
            }
            if let Some(b) = row.birth_date {
                if b != id.birth_date() {
                    errors.push(err(
                        line,
                        Some(birth_col),
                        format!("出生日期 {b} 与身份证号 ({}) 不符 (birth date does not match the ID number)", id.birth_date()),
                    ));
                }
            }
            row.sex = Some(id.sex());
            row.birth_date = Some(id.birth_date());
        }
        rows.push(row);
    }
    if errors.is_empty() {
        Ok((rows, notices))
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_headers_quotes_and_derived_fields() {
        let text = "\u{feff}姓名,组别,身份证号,手机,单位\n张三,men,11010519491231002X,138-1234-5678,\"昆山,农商行\"\n\n李四,women,,,\n";
        let rows = parse_roster(text, "a.csv").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].line, 2);
        assert_eq!(rows[0].unit.as_deref(), Some("昆山,农商行"));
        assert_eq!(rows[0].sex, Some(Sex::Female));
        assert_eq!(rows[0].birth_date, NaiveDate::from_ymd_opt(1949, 12, 31));
        assert_eq!(
            rows[0].phone.as_ref().map(|p| p.as_str()),
            Some("13812345678")
        );
        assert_eq!(rows[1].line, 4);
        assert_eq!(rows[1].id_number, None);
    }

    #[test]
    fn english_headers_and_crlf() {
        let rows = parse_roster(
            "name,section,sex,birth_date\r\nAnn,open,F,2001/2/3\r\n",
            "b.csv",
        )
        .unwrap();
        assert_eq!(rows[0].sex, Some(Sex::Female));
        assert_eq!(rows[0].birth_date, NaiveDate::from_ymd_opt(2001, 2, 3));
    }

    #[test]
    fn every_bad_cell_is_reported_with_line_and_column() {
        let text = "姓名,身份证号,性别\n张三,110105194912310021,男\n李四,,X\n王五,1\n";
        let errs = parse_roster(text, "c.csv").unwrap_err();
        let at: Vec<(usize, Option<usize>)> = errs.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(
            at,
            vec![(2, Some(2)), (3, Some(3)), (4, Some(3))],
            "{errs:?}"
        );
        assert!(
            errs[0]
                .to_string()
                .starts_with("c.csv:2:2: 第2行第2列: 身份证号校验码"),
            "{}",
            errs[0]
        );
    }

    #[test]
    fn sex_that_contradicts_id_number_is_an_error() {
        let errs =
            parse_roster("姓名,身份证号,性别\n张三,11010519491231002X,男\n", "d.csv").unwrap_err();
        assert_eq!((errs[0].line, errs[0].column), (2, Some(3)));
    }

    #[test]
    fn unknown_columns_are_ignored_with_a_notice() {
        let (rows, notes) =
            parse_roster_with_notices("序号,姓名,phon,备注\n1,张三,1,队长\n", "e.csv").unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].name, "张三");
        assert_eq!(rows[0].phone, None);
        let at: Vec<_> = notes.iter().map(|n| (n.line, n.column)).collect();
        assert_eq!(at, vec![(1, Some(1)), (1, Some(3)), (1, Some(4))]);
        assert!(
            notes[0].message.contains("忽略未知列 `序号`"),
            "{}",
            notes[0]
        );
        assert!(!notes[0].message.contains("did you mean"), "{}", notes[0]);
        assert!(notes[1].message.contains("`phone`"), "{}", notes[1]);
        assert!(parse_roster("", "f.csv").is_err());
        assert!(parse_roster("name\n\"open", "g.csv").is_err());
    }
}
