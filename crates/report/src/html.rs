//! A [`Document`] as one self-contained HTML page for printing on A4: `@page` size and
//! margins, the table header in `<thead>` (repeated by the browser on every printed page),
//! rows never split across pages, a result slip or a certificate kept on one page.
//!
//! Pure: the caller writes the string where it wants.

use crate::{Align, Block, Document, Lang, Orientation, Paper, Table};

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
.codes { display: flex; gap: 6mm; margin-top: 3mm; }
.codes figure { flex: 1; display: flex; gap: 3mm; align-items: center; margin: 0; }
.codes svg { width: 24mm; height: 24mm; flex: none; }
.codes figcaption p { margin: 0 0 1mm; }
.pb { break-after: page; page-break-after: always; }
.tcard { break-inside: avoid; height: 128mm; border-bottom: 0.5pt dashed #999; text-align: center; display: flex; flex-direction: column; justify-content: center; }
.tcard .label { font-size: 18pt; } .tcard .no { font-size: 220pt; font-weight: bold; line-height: 1; } .tcard .line { font-size: 24pt; }
.ncard { break-inside: avoid; break-after: page; height: 260mm; display: flex; flex-direction: column; }
.ncard .half { flex: 1; display: flex; flex-direction: column; justify-content: center; text-align: center; }
.ncard .half.top { transform: rotate(180deg); border-bottom: 0.5pt dashed #999; }
.ncard .name { font-size: 72pt; font-weight: bold; } .ncard .unit { font-size: 24pt; } .ncard .note { font-size: 12pt; color: #333; }
.cover { break-after: page; text-align: center; padding-top: 60mm; min-height: 200mm; }
.cover .ev { font-size: 24pt; font-weight: bold; } .cover h1 { font-size: 40pt; letter-spacing: 6mm; margin: 20mm 0; } .cover p { font-size: 14pt; }
.toc { break-after: page; } .toc ol { list-style: none; font-size: 13pt; line-height: 2; }
h2.chapter { break-before: page; font-size: 16pt; }
body.large table { font-size: 16pt; }
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
    let paper = match doc.paper {
        Paper::A4 => "A4",
        Paper::A3 => "A3",
    };
    let (size, class) = match doc.orientation {
        Orientation::Portrait => (format!("{paper} portrait"), "portrait"),
        Orientation::Landscape => (format!("{paper} landscape"), "landscape"),
    };
    let class = if doc.type_size.is_some() {
        format!("{class} large")
    } else {
        class.to_string()
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
    let no_header = doc.blocks.iter().any(|b| {
        matches!(
            b,
            Block::Certificate(_) | Block::TableCard(_) | Block::NameCard(_) | Block::Cover(_)
        )
    });
    if !no_header {
        h.push_str(&header);
    }
    // The chapters, for the table of contents (a link each; the browser numbers the pages).
    let chapters: Vec<&str> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Chapter(c) => Some(c.as_str()),
            _ => None,
        })
        .collect();
    let mut out = String::new();
    blocks(&doc.blocks, &mut out);
    let mut toc = String::from("<ol>");
    for (i, c) in chapters.iter().enumerate() {
        toc.push_str(&format!(
            "<li><a href=\"#chapter-{}\">{}</a></li>",
            i + 1,
            escape(c)
        ));
    }
    toc.push_str("</ol>");
    h.push_str(&out.replace("<!--toc-->", &toc));
    h.push_str("</body>\n</html>\n");
    h
}

fn blocks(bs: &[Block], h: &mut String) {
    let mut chapter = 0;
    for b in bs {
        match b {
            Block::TableCard(c) => {
                h.push_str(&format!(
                    "<section class=\"tcard\"><div class=\"label\">{}</div><div class=\"no\">{}</div>",
                    escape(&c.label),
                    c.board
                ));
                for l in &c.lines {
                    h.push_str(&format!("<div class=\"line\">{}</div>", escape(l)));
                }
                h.push_str("</section>\n");
            }
            Block::NameCard(c) => {
                let half = |class: &str| {
                    format!(
                        "<div class=\"half {class}\"><div class=\"name\">{}</div><div class=\"unit\">{}</div><div class=\"note\">{}</div></div>",
                        escape(&c.name),
                        escape(c.unit.as_deref().unwrap_or("")),
                        escape(c.note.as_deref().unwrap_or(""))
                    )
                };
                h.push_str(&format!(
                    "<section class=\"ncard\">{}{}</section>\n",
                    half("top"),
                    half("bottom")
                ));
            }
            Block::Cover(c) => {
                h.push_str(&format!(
                    "<section class=\"cover\"><div class=\"ev\">{}</div><h1>{}</h1>",
                    escape(&c.event),
                    escape(&c.title)
                ));
                for l in &c.lines {
                    h.push_str(&format!("<p>{}</p>", escape(l)));
                }
                h.push_str("</section>\n");
            }
            Block::Contents(t) => {
                h.push_str(&format!(
                    "<nav class=\"toc\"><h2>{}</h2><!--toc--></nav>\n",
                    escape(t)
                ));
            }
            Block::Chapter(c) => {
                chapter += 1;
                h.push_str(&format!(
                    "<h2 class=\"chapter\" id=\"chapter-{chapter}\">{}</h2>\n",
                    escape(c)
                ));
            }
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
            Block::Codes(codes) => {
                h.push_str("<div class=\"codes\">");
                for c in codes {
                    h.push_str("<figure>");
                    qr_svg(c, h);
                    h.push_str("<figcaption>");
                    for l in &c.lines {
                        h.push_str(&format!("<p>{}</p>", escape(l)));
                    }
                    h.push_str("</figcaption></figure>");
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

/// A QR code as an inline SVG: one path of its dark modules, with a quiet zone of four.
fn qr_svg(c: &crate::QrCode, h: &mut String) {
    let side = c.width + 8;
    h.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"{}\"><rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/><path fill=\"#000\" d=\"",
        escape(&c.data)
    ));
    for y in 0..c.width {
        for x in 0..c.width {
            if c.is_dark(x, y) {
                h.push_str(&format!("M{} {}h1v1h-1z", x + 4, y + 4));
            }
        }
    }
    h.push_str("\"/></svg>");
}
