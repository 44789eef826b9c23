//! The entry form (报名表) a unit fills in Excel for an event: the unit, its leader and coach,
//! then one row per player, with drop-downs for sex and section, the ID column formatted as
//! text, and the event's entry rules in Chinese on a second sheet. `arbiter template
//! entry-form` writes it to a file, the desk's import page offers it for download, and the
//! roster import (`arbiter-import`) reads the filled form back.

use crate::tables::WriteError;
use arbiter_regulation::summary::Lang;
use arbiter_regulation::Regulation;
use rust_xlsxwriter::{
    DataValidation, DataValidationErrorStyle, Format, FormatAlign, FormatBorder, Workbook,
};

/// The header of the column of condition flags (本地棋手 …); the importer reads it as the
/// entry's flags (`arbiter_import::Column::Flags`).
pub const FLAGS_HEADER: &str = "参赛条件";
/// The header of the column of evidence (意外伤害保险 …).
pub const EVIDENCE_HEADER: &str = "证明";
/// The header of the 社保号 column (K5), when the regulation requires it.
pub const SOCIAL_SECURITY_HEADER: &str = "社保号";

/// The condition flags of `reg` as the form writes them (their Chinese labels), in the
/// file's order.
pub fn flag_words(reg: &Regulation) -> Vec<String> {
    reg.flags().iter().map(|f| reg.flag_label(f)).collect()
}

/// The evidence kinds any section of `reg` asks for, as the form writes them (Chinese),
/// each once.
pub fn evidence_words(reg: &Regulation) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in &reg.sections {
        let el = &s.eligibility;
        for e in el.evidence.iter().chain(el.evidence_any.iter().flatten()) {
            let w = e.zh().to_string();
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// The values a drop-down offers for a column of words a row may combine: each word, and
/// when there are at most three, every combination (joined by 「、」, which the importer
/// splits on).
pub fn choices(words: &[String]) -> Vec<String> {
    if words.len() > 3 {
        return words.to_vec();
    }
    let mut out = Vec::new();
    for mask in 1u32..(1 << words.len()) {
        let picked: Vec<&str> = words
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, w)| w.as_str())
            .collect();
        out.push(picked.join("、"));
    }
    // Single words first, then pairs, then all three.
    out.sort_by_key(|c| c.matches('、').count());
    out
}

/// The columns of the player table, in order: the person, then a column for every required
/// field, condition flag and evidence the regulation uses.
fn columns(reg: &Regulation) -> Vec<(&'static str, f64)> {
    let mut cols = vec![
        ("序号", 6.0),
        ("姓名", 12.0),
        ("性别", 6.0),
        ("出生日期", 12.0),
        ("身份证号", 22.0),
        ("组别", 14.0),
        ("电话", 14.0),
    ];
    if reg
        .registration
        .fields
        .contains(&arbiter_regulation::EntryField::SocialSecurityNumber)
    {
        cols.push((SOCIAL_SECURITY_HEADER, 22.0));
    }
    if reg.sections.iter().any(|s| s.teams.is_some()) {
        cols.push(("队名", 14.0));
    }
    if !flag_words(reg).is_empty() {
        cols.push((FLAGS_HEADER, 18.0));
    }
    if !evidence_words(reg).is_empty() {
        cols.push((EVIDENCE_HEADER, 18.0));
    }
    cols.push(("备注", 16.0));
    cols
}

fn yuan(fen: u64) -> String {
    if fen.is_multiple_of(100) {
        format!("{} 元", fen / 100)
    } else {
        format!("{}.{:02} 元", fen / 100, fen % 100)
    }
}

/// The instructions: how to fill the form, then the regulation's entry rules per section.
fn instructions(reg: &Regulation) -> Vec<String> {
    let mut out = vec![
        format!("{} 报名表 填表说明", reg.event.name),
        format!(
            "比赛日期: {} 至 {}{}",
            reg.event.start,
            reg.event.end,
            reg.event
                .venue
                .as_deref()
                .map(|v| format!("; 地点: {v}"))
                .unwrap_or_default()
        ),
        "1. 「报名表」工作表上方填写单位、领队、教练及其电话; 每名棋手填一行, 姓名必填。".into(),
        "2. 性别、组别请从下拉列表中选择。".into(),
        "3. 身份证号列已设为文本格式, 请直接输入 18 位号码。若 Excel 显示为 6.20502E+17 之类, 说明号码被存成了数字、末几位已丢失, 请把该列设为文本后重新输入。".into(),
        "4. 有身份证号时性别和出生日期由号码推出, 可不填; 无身份证号时请填出生日期 (格式 2001-02-03)。".into(),
        "5. 请勿改动表头行和列的顺序; 可删除多余的空行。填好后保存为 .xlsx 发回 (也可另存为 CSV)。".into(),
    ];
    let mut n = 6;
    if reg.sections.iter().any(|s| s.teams.is_some()) {
        out.push(format!(
            "{n}. 队名: 同一单位的棋手组成团体时填写, 同队棋手队名相同。"
        ));
        n += 1;
    }
    let flags = flag_words(reg);
    if !flags.is_empty() {
        out.push(format!(
            "{n}. {FLAGS_HEADER}: 棋手具备的参赛条件从下拉列表中选择 ({}), 多项用 「、」 分隔; 不具备的留空。要求某项条件的组别 (见下文), 未填该条件的报名将被拒绝。",
            flags.join("、")
        ));
        n += 1;
    }
    let evidence = evidence_words(reg);
    if !evidence.is_empty() {
        out.push(format!(
            "{n}. {EVIDENCE_HEADER}: 已提交的证明材料从下拉列表中选择 ({}), 多项用 「、」 分隔。",
            evidence.join("、")
        ));
        n += 1;
    }
    if reg
        .registration
        .fields
        .contains(&arbiter_regulation::EntryField::SocialSecurityNumber)
    {
        out.push(format!(
            "{n}. {SOCIAL_SECURITY_HEADER}: 规程要求填写, 文本格式。"
        ));
    }
    if let Some(d) = reg.registration.deadline {
        out.push(format!("报名截止: {}", d.format("%Y-%m-%d %H:%M")));
    }
    if let Some(n) = reg.registration.max_per_unit_overall {
        out.push(format!("每单位限报 {n} 人 (各组合计)。"));
    }
    out.push(String::new());
    out.push("各组别参赛资格与报名规定 (摘自竞赛规程):".into());
    let summary = reg.summary(Lang::Zh);
    let mut section = 0usize;
    for line in summary.lines() {
        let t = line.trim();
        if line.starts_with('[') {
            let Some(s) = reg.sections.get(section) else {
                continue;
            };
            section += 1;
            out.push(String::new());
            out.push(format!("【{}】 (组别下拉值: {})", s.name, s.name));
            let fee = s
                .entries
                .fee
                .as_ref()
                .or(reg.registration.fee.as_ref())
                .map(|f| f.total_fen());
            out.push(match fee {
                Some(f) if f > 0 => format!("  报名费: {}", yuan(f)),
                _ => "  报名费: 无".into(),
            });
            if let Some(n) = s.entries.max_per_unit {
                out.push(format!("  每单位限报 {n} 人"));
            }
        } else if ["参赛资格", "报名", "团体:"]
            .iter()
            .any(|p| t.starts_with(p))
        {
            out.push(format!("  {t}"));
        }
    }
    for n in &reg.registration.notes {
        out.push(format!("注: {n}"));
    }
    out
}

/// Rows of the head, then the header row (0-based): the player table starts below it.
pub const HEADER_ROW: u32 = 4;

/// The entry form of `reg` as .xlsx bytes.
pub fn entry_form(reg: &Regulation, rows: Option<u32>) -> Result<Vec<u8>, WriteError> {
    let cols = columns(reg);
    let last = (cols.len() - 1) as u16;
    let rows = rows
        .or(reg.registration.max_per_unit_overall)
        .unwrap_or(60)
        .clamp(1, 2000);
    let mut wb = Workbook::new();
    let title = Format::new()
        .set_bold()
        .set_font_size(16)
        .set_align(FormatAlign::Center);
    let label = Format::new().set_bold().set_align(FormatAlign::Right);
    let fill = Format::new().set_border_bottom(FormatBorder::Thin);
    let head = Format::new()
        .set_bold()
        .set_border(FormatBorder::Thin)
        .set_align(FormatAlign::Center)
        .set_background_color("#DDEBF7");
    let cell = Format::new().set_border(FormatBorder::Thin);
    let text = Format::new()
        .set_border(FormatBorder::Thin)
        .set_num_format("@");
    let note = Format::new().set_italic().set_font_color("#C00000");

    let ws = wb.add_worksheet();
    ws.set_name("报名表")?;
    ws.merge_range(0, 0, 0, last, &format!("{} 报名表", reg.event.name), &title)?;
    // Unit, leader and coach: label, then a cell to fill.
    let pairs = [
        (1u32, 0u16, "单位:"),
        (1, 3, "领队:"),
        (1, 5, "电话:"),
        (2, 0, "联系人:"),
        (2, 3, "教练:"),
        (2, 5, "电话:"),
    ];
    for (r, c, l) in pairs {
        ws.write_string_with_format(r, c, l, &label)?;
        ws.write_blank(r, c + 1, &fill)?;
    }
    ws.merge_range(1, 1, 1, 2, "", &fill)?;
    ws.merge_range(2, 1, 2, 2, "", &fill)?;
    ws.write_string_with_format(
        3,
        0,
        "填表说明见「填表说明」工作表; 身份证号列为文本格式, 请勿改为数字。",
        &note,
    )?;
    for (i, (h, w)) in cols.iter().enumerate() {
        ws.write_string_with_format(HEADER_ROW, i as u16, *h, &head)?;
        ws.set_column_width(i as u16, *w)?;
    }
    let first = HEADER_ROW + 1;
    let end = HEADER_ROW + rows;
    for r in first..=end {
        for (i, (h, _)) in cols.iter().enumerate() {
            let f = if matches!(*h, "身份证号" | "电话" | "出生日期" | "社保号") {
                &text
            } else {
                &cell
            };
            ws.write_blank(r, i as u16, f)?;
        }
    }
    let col = |name: &str| cols.iter().position(|(h, _)| *h == name).map(|i| i as u16);
    if let Some(c) = col("性别") {
        let v = DataValidation::new()
            .allow_list_strings(&["男", "女"])?
            .set_error_message("请选择 男 或 女")?;
        ws.add_data_validation(first, c, end, c, &v)?;
    }
    if let Some(c) = col("组别") {
        let names: Vec<&str> = reg.sections.iter().map(|s| s.name.as_str()).collect();
        let v = DataValidation::new()
            .allow_list_strings(&names)?
            .set_error_message("请从下拉列表中选择组别")?;
        ws.add_data_validation(first, c, end, c, &v)?;
    }
    for (header, words, what) in [
        (FLAGS_HEADER, flag_words(reg), "参赛条件"),
        (EVIDENCE_HEADER, evidence_words(reg), "证明材料"),
    ] {
        let Some(c) = col(header) else { continue };
        let list = choices(&words);
        let refs: Vec<&str> = list.iter().map(String::as_str).collect();
        let v = DataValidation::new()
            .allow_list_strings(&refs)?
            .ignore_blank(true)
            .set_error_style(DataValidationErrorStyle::Warning)
            .set_input_title(what)?
            .set_input_message(format!("不具备的留空; 可选: {}", words.join("、")))?
            .set_error_message(format!("请从下拉列表中选择{what}"))?;
        ws.add_data_validation(first, c, end, c, &v)?;
    }
    if let Some(c) = col("身份证号") {
        let v = DataValidation::new()
            .allow_any_value()
            .set_input_title("身份证号")?
            .set_input_message("18位号码, 文本格式; 请勿存成数字")?;
        ws.add_data_validation(first, c, end, c, &v)?;
    }
    ws.set_freeze_panes(first, 0)?;

    let wi = wb.add_worksheet();
    wi.set_name("填表说明")?;
    wi.set_column_width(0, 110)?;
    let wrap = Format::new().set_text_wrap();
    for (i, l) in instructions(reg).iter().enumerate() {
        if i == 0 {
            wi.write_string_with_format(0, 0, l, &Format::new().set_bold().set_font_size(14))?;
        } else {
            wi.write_string_with_format(i as u32, 0, l, &wrap)?;
        }
    }
    Ok(wb.save_to_buffer()?)
}
