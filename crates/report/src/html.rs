//! A [`Document`] as one self-contained HTML page for printing on A4: `@page` size and
//! margins, the table header in `<thead>` (repeated by the browser on every printed page),
//! rows never split across pages, a result slip or a certificate kept on one page.
//!
//! Pure: the caller writes the string where it wants.

use crate::{Align, Block, Document, Lang, Orientation, Table};

/// Escape text for HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = r#"
:root { font-family: "Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC", sans-serif; }
body { margin: 0; font-size: 10pt; color: #000; line-break: strict; }
header.doc { text-align: center; margin-bottom: 4mm; }
header.doc h1 { font-size: 15pt; margin: 0 0 1mm; }
header.doc .event { font-size: 11pt; }
header.doc .meta { font-size: 9pt; color: #333; }
h2 { font-size: 12pt; margin: 4mm 0 2mm; }
h3 { font-size: 10.5pt; margin: 2mm 0 1mm; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; margin-bottom: 3mm; }
caption { font-weight: bold; text-align: left; padding: 1mm 0; }
th, td { border: 0.3pt solid #555; padding: 0.6mm 1mm; overflow-wrap: anywhere; vertical-align: top; }
th { background: #eee; font-weight: bold; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
td.l { text-align: left; } td.c { text-align: center; } td.r { text-align: right; }
.keep { break-inside: avoid; page-break-inside: avoid; border: 0.5pt dashed #999; padding: 2mm; margin-bottom: 4mm; }
.sigs { display: flex; gap: 8mm; margin-top: 3mm; }
.sigs span { flex: 1; border-bottom: 0.5pt solid #000; padding-bottom: 6mm; }
.pb { break-after: page; page-break-after: always; }
.cert { break-inside: avoid; text-align: center; padding: 25mm 20mm; border: 3pt double #a00; min-height: 130mm; }
.cert h1 { font-size: 32pt; color: #a00; letter-spacing: 8mm; margin-bottom: 12mm; }
.cert .who { font-size: 22pt; margin-bottom: 2mm; }
.cert .unit { font-size: 12pt; margin-bottom: 10mm; }
.cert .cit { font-size: 15pt; line-height: 1.8; text-align: left; text-indent: 2em; line-break: strict; word-break: normal; }
.cert .award { font-size: 20pt; margin: 8mm 0; }
.cert .members { font-size: 13pt; line-height: 1.7; text-align: left; }
.cert .by { text-align: right; font-size: 13pt; margin-top: 15mm; }
@media screen { body { max-width: 190mm; margin: 10mm auto; } body.landscape { max-width: 277mm; } }
"#;

/// The whole page.
pub fn render(doc: &Document) -> String {
    let mut h = String::new();
    let lang = match doc.lang {
        Lang::Zh => "zh-CN",
        Lang::En => "en",
    };
    let (size, class) = match doc.orientation {
        Orientation::Portrait => ("A4 portrait", "portrait"),
        Orientation::Landscape => ("A4 landscape", "landscape"),
    };
    let title = match &doc.subtitle {
        Some(s) => format!("{} {} — {}", doc.title, s, doc.event_name),
        None => format!("{} — {}", doc.title, doc.event_name),
    };
    h.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n@page {{ size: {size}; margin: 12mm 10mm 14mm; @bottom-center {{ content: \"{}\"; font-size: 8pt; }} }}{CSS}</style>\n</head>\n<body class=\"{class}\">\n",
        escape(&title),
        match doc.lang {
            Lang::Zh => "第 \" counter(page) \" 页 / 共 \" counter(pages) \" 页",
            Lang::En => "page \" counter(page) \" of \" counter(pages) \"",
        }
    ));
    let header = format!(
        "<header class=\"doc\"><div class=\"event\">{}</div><h1>{}</h1>{}<div class=\"meta\">{}</div></header>\n",
        escape(&doc.event_name),
        escape(&doc.title),
        doc.subtitle
            .as_ref()
            .map(|s| format!("<div>{}</div>", escape(s)))
            .unwrap_or_default(),
        escape(&doc.date)
    );
    let certificates = doc
        .blocks
        .iter()
        .any(|b| matches!(b, Block::Certificate(_)));
    if !certificates {
        h.push_str(&header);
    }
    blocks(&doc.blocks, &mut h);
    h.push_str("</body>\n</html>\n");
    h
}

fn blocks(bs: &[Block], h: &mut String) {
    for b in bs {
        match b {
            Block::Heading(s) => h.push_str(&format!("<h2>{}</h2>\n", escape(s))),
            Block::Paragraph(s) => h.push_str(&format!("<p>{}</p>\n", escape(s))),
            Block::Table(t) => table(t, h),
            Block::Signatures(s) => {
                h.push_str("<div class=\"sigs\">");
                for x in s {
                    h.push_str(&format!("<span>{}:</span>", escape(x)));
                }
                h.push_str("</div>\n");
            }
            Block::KeepTogether(inner) => {
                h.push_str("<div class=\"keep\">\n");
                // A heading inside a slip is a smaller one.
                for b in inner {
                    match b {
                        Block::Heading(s) => h.push_str(&format!("<h3>{}</h3>\n", escape(s))),
                        other => blocks(std::slice::from_ref(other), h),
                    }
                }
                h.push_str("</div>\n");
            }
            Block::Certificate(c) => {
                h.push_str(&format!(
                    "<section class=\"cert\"><h1>{}</h1><div class=\"who\">{}</div><div class=\"unit\">{}</div><p class=\"cit\">{}</p>{}{}<div class=\"by\">{}<br>{}</div></section>\n",
                    escape(&c.heading),
                    escape(&c.recipient),
                    escape(c.unit.as_deref().unwrap_or("")),
                    escape(&c.citation),
                    c.members
                        .as_ref()
                        .map(|m| format!("<p class=\"members\">{}</p>", escape(m)))
                        .unwrap_or_default(),
                    c.award
                        .as_ref()
                        .map(|a| format!("<div class=\"award\">{}</div>", escape(a)))
                        .unwrap_or_default(),
                    c.issuers.iter().map(|i| escape(i)).collect::<Vec<_>>().join("<br>"),
                    escape(&c.date)
                ));
            }
            Block::PageBreak => h.push_str("<div class=\"pb\"></div>\n"),
        }
    }
}

fn table(t: &Table, h: &mut String) {
    let total: u32 = t
        .columns
        .iter()
        .map(|c| c.width.max(1) as u32)
        .sum::<u32>()
        .max(1);
    h.push_str(&format!("<table id=\"{}\">\n", escape(&t.id)));
    if let Some(c) = &t.caption {
        h.push_str(&format!("<caption>{}</caption>\n", escape(c)));
    }
    h.push_str("<colgroup>");
    for c in &t.columns {
        // Exact percentages in tenths, from integers (deterministic output).
        let tenths = c.width.max(1) as u32 * 1000 / total;
        h.push_str(&format!(
            "<col style=\"width:{}.{}%\">",
            tenths / 10,
            tenths % 10
        ));
    }
    h.push_str("</colgroup>\n<thead><tr>");
    for c in &t.columns {
        h.push_str(&format!("<th>{}</th>", escape(&c.header)));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        h.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let a = match t.columns.get(i).map(|c| c.align) {
                Some(Align::Right) => "r",
                Some(Align::Center) => "c",
                _ => "l",
            };
            h.push_str(&format!(
                "<td class=\"{a}\">{}</td>",
                escape(&cell.display())
            ));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody>\n</table>\n");
}
