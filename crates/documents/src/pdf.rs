//! A [`Document`] as an A4 PDF, laid out here and written with `krilla` (the CJK font is
//! subset and embedded). Layout: margins, the event's name, the title and the date at the
//! top of every page, `第 x 页 / 共 y 页` at the bottom; table headers repeated on every page;
//! a row never split across pages; text wider than its column is shrunk a little or wrapped,
//! never cut; a result slip (kept together) never split; one certificate per page.

use crate::font::PrintFont;
use arbiter_report::{
    Align, Block, Certificate, Cover, Document, Lang, NameCard, Orientation, Paper, Table,
    TableCard,
};
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::text::{Font, TextDirection};
use skrifa::instance::{LocationRef, Size};
use skrifa::raw::TableProvider;
use skrifa::{FontRef, MetadataProvider};
use std::collections::HashMap;

/// Points per millimetre.
const MM: f32 = 72.0 / 25.4;
const A4_W: f32 = 210.0 * MM;
const A4_H: f32 = 297.0 * MM;
const A3_W: f32 = 297.0 * MM;
const A3_H: f32 = 420.0 * MM;
const MARGIN_X: f32 = 12.0 * MM;
const MARGIN_TOP: f32 = 10.0 * MM;
const MARGIN_BOTTOM: f32 = 12.0 * MM;
const BODY: f32 = 9.0;
/// Text is shrunk down to this share of its size before it is wrapped instead.
const MIN_SHRINK: f32 = 0.72;
const PAD: f32 = 2.0;

/// Text widths from the font's own advances.
struct Measure<'a> {
    cmap: skrifa::charmap::Charmap<'a>,
    metrics: skrifa::metrics::GlyphMetrics<'a>,
    upem: f32,
    cache: HashMap<char, f32>,
}

impl<'a> Measure<'a> {
    fn new(f: &'a FontRef<'a>) -> Measure<'a> {
        let upem = f.head().map(|h| h.units_per_em() as f32).unwrap_or(1000.0);
        Measure {
            cmap: f.charmap(),
            metrics: f.glyph_metrics(Size::unscaled(), LocationRef::default()),
            upem,
            cache: HashMap::new(),
        }
    }

    /// Width of `s` at `size` points.
    fn width(&mut self, s: &str, size: f32) -> f32 {
        let mut w = 0.0;
        for c in s.chars() {
            let adv = match self.cache.get(&c) {
                Some(a) => *a,
                None => {
                    let gid = self.cmap.map(c).unwrap_or(skrifa::GlyphId::NOTDEF);
                    let a = self.metrics.advance_width(gid).unwrap_or(self.upem / 2.0);
                    self.cache.insert(c, a);
                    a
                }
            };
            w += adv;
        }
        w * size / self.upem
    }

    /// Break `s` into lines no wider than `max` at `size` (by character: Chinese has no
    /// spaces; a Latin word is broken only when it alone is too wide).
    fn wrap(&mut self, s: &str, size: f32, max: f32) -> Vec<String> {
        wrap_by(s, |line| self.width(line, size) <= max)
    }
}

/// Punctuation a Chinese line never starts with (避头: ，。、；：？！ and closing brackets).
const NO_LINE_START: &str = "，。、；：？！）》」』】〕”’…·,.;:?!)]}%";
/// Punctuation a Chinese line never ends with (避尾: opening brackets and quotes).
const NO_LINE_END: &str = "（《「『【〔“‘([{";

/// Break `s` into lines for which `fits` holds, by character, keeping the Chinese
/// line-breaking rules (避头尾): a line that would start with a closing mark takes the last
/// character of the line before along, and an opening mark goes down with what follows it.
/// A line holding a single character is never broken further.
fn wrap_by(s: &str, mut fits: impl FnMut(&str) -> bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        let mut next = cur.clone();
        next.push(c);
        if cur.is_empty() || fits(&next) {
            cur = next;
            continue;
        }
        // `c` starts a new line: carry over what may not end this one or begin the next.
        let mut carry = String::new();
        if c != ' ' {
            carry.push(c);
        }
        let mut held: Vec<char> = cur.chars().collect();
        let must_carry = |held: &[char], carry: &str| {
            let starts_badly = carry
                .chars()
                .next()
                .is_some_and(|x| NO_LINE_START.contains(x));
            let ends_badly = held.last().is_some_and(|&x| NO_LINE_END.contains(x));
            starts_badly || ends_badly
        };
        while held.len() > 1 && must_carry(&held, &carry) {
            if let Some(x) = held.pop() {
                carry.insert(0, x);
            }
        }
        lines.push(held.into_iter().collect());
        cur = carry;
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap_by;

    fn at_most(n: usize) -> impl FnMut(&str) -> bool {
        move |l: &str| l.chars().count() <= n
    }

    /// 避头尾: no line starts with "，" or "。", none ends with "（".
    #[test]
    fn no_line_starts_with_a_comma_or_a_full_stop() {
        let s = "在天水公开赛中荣获第一名，颁发奖杯。特发此证，以资鼓励。";
        for n in 3..s.chars().count() {
            let lines = wrap_by(s, at_most(n));
            assert_eq!(lines.concat(), s, "width {n}");
            for l in &lines[1..] {
                assert!(
                    !l.starts_with('，') && !l.starts_with('。'),
                    "{n}: {lines:?}"
                );
            }
        }
        // Eleven a line would put "，" first on line 2: "名" goes down with it.
        let lines = wrap_by(s, at_most(11));
        assert_eq!(lines[0], "在天水公开赛中荣获第一");
        assert!(lines[1].starts_with("名，"), "{lines:?}");
        let lines = wrap_by("比赛（甲组）第一名", at_most(2));
        for l in &lines {
            assert!(!l.ends_with('（'), "{lines:?}");
            assert!(!l.starts_with('）'), "{lines:?}");
        }
        assert_eq!(lines.concat(), "比赛（甲组）第一名");
    }

    #[test]
    fn latin_words_still_break_at_the_width() {
        assert_eq!(wrap_by("abcdef", at_most(4)), vec!["abcd", "ef"]);
        assert_eq!(wrap_by("ab cd", at_most(2)), vec!["ab", "cd"]);
        assert_eq!(wrap_by("", at_most(2)), vec![String::new()]);
    }
}

/// One thing to draw.
#[derive(Clone)]
enum Op {
    Text {
        x: f32,
        y: f32,
        size: f32,
        text: String,
        bold: bool,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
    },
    /// A filled grey rectangle (table header background).
    Shade { x: f32, y: f32, w: f32, h: f32 },
    /// Filled black squares `[x, y, side]` (the modules of a QR code), drawn as one path.
    Dark(Vec<[f32; 3]>),
    /// Ops drawn turned half a circle about the page's centre (the upper half of a folded
    /// name card, upside down so that it reads from the other side of the table).
    Flipped(Vec<Op>),
}

impl Op {
    fn shifted(&self, dy: f32) -> Op {
        match self.clone() {
            Op::Text {
                x,
                y,
                size,
                text,
                bold,
            } => Op::Text {
                x,
                y: y + dy,
                size,
                text,
                bold,
            },
            Op::Line {
                x1,
                y1,
                x2,
                y2,
                width,
            } => Op::Line {
                x1,
                y1: y1 + dy,
                x2,
                y2: y2 + dy,
                width,
            },
            Op::Shade { x, y, w, h } => Op::Shade { x, y: y + dy, w, h },
            Op::Dark(squares) => Op::Dark(
                squares
                    .into_iter()
                    .map(|[x, y, side]| [x, y + dy, side])
                    .collect(),
            ),
            Op::Flipped(ops) => Op::Flipped(ops.iter().map(|o| o.shifted(dy)).collect()),
        }
    }
}

/// A cell laid out: its lines at a size.
struct CellLines {
    lines: Vec<String>,
    size: f32,
}

struct Layout<'m, 'a> {
    m: &'m mut Measure<'a>,
    page_w: f32,
    page_h: f32,
    /// Pages done; each is a list of ops. Certificates pages get no running header.
    pages: Vec<(Vec<Op>, bool)>,
    cur: Vec<Op>,
    y: f32,
    /// Something other than the running header is on the current page.
    used: bool,
    doc_title: String,
    event: String,
    date: String,
    /// The body type size (9 pt, larger on a wall copy and on A3).
    body: f32,
    /// A table card's half of the page (0 upper, 1 lower) where the next card goes, while
    /// a page of cards is open.
    card_slot: Option<usize>,
    /// The chapters of a booklet with the page each starts on, from the last layout.
    toc: Vec<(String, Option<usize>)>,
    /// The page each chapter starts on in this layout, in order.
    chapter_pages: Vec<usize>,
}

impl Layout<'_, '_> {
    fn content_w(&self) -> f32 {
        self.page_w - 2.0 * MARGIN_X
    }
    fn bottom(&self) -> f32 {
        self.page_h - MARGIN_BOTTOM - 6.0
    }

    fn text(&mut self, x: f32, y: f32, size: f32, text: &str, bold: bool) {
        self.cur.push(Op::Text {
            x,
            y,
            size,
            text: text.to_string(),
            bold,
        });
    }

    /// The running header at the top of a page.
    fn header(&mut self) {
        let w = self.page_w;
        let mut y = MARGIN_TOP + 9.0;
        let ev = self.event.clone();
        let ew = self.m.width(&ev, 9.0);
        if ew <= self.content_w() {
            self.text((w - ew) / 2.0, y, 9.0, &ev, false);
        } else {
            let size = 9.0 * self.content_w() / ew;
            self.text(MARGIN_X, y, size, &ev, false);
        }
        y += 17.0;
        let t = self.doc_title.clone();
        // Measured with the regular face but drawn bold, whose Latin letters are wider: keep
        // a 6 % allowance so a long title shrunk to the line still fits inside the margins.
        let size = 14.0_f32.min(14.0 * 0.94 * self.content_w() / self.m.width(&t, 14.0).max(1.0));
        let tw = self.m.width(&t, size);
        self.text((w - tw) / 2.0, y, size, &t, true);
        y += 6.0;
        let d = self.date.clone();
        let dw = self.m.width(&d, 8.0);
        self.text(w - MARGIN_X - dw, y + 6.0, 8.0, &d, false);
        y += 9.0;
        self.cur.push(Op::Line {
            x1: MARGIN_X,
            y1: y,
            x2: w - MARGIN_X,
            y2: y,
            width: 0.6,
        });
        self.y = y + 8.0;
        self.used = false;
    }

    fn new_page(&mut self) {
        let done = std::mem::take(&mut self.cur);
        self.pages.push((done, false));
        self.header();
    }

    fn ensure(&mut self, h: f32) {
        if self.y + h > self.bottom() && self.used {
            self.new_page();
        }
    }

    fn cell(&mut self, text: &str, size: f32, avail: f32) -> CellLines {
        let w = self.m.width(text, size);
        if w <= avail {
            return CellLines {
                lines: vec![text.to_string()],
                size,
            };
        }
        let shrunk = size * avail / w;
        if shrunk >= size * MIN_SHRINK {
            // A hair under, so rounding in the viewer never makes it touch the border.
            return CellLines {
                lines: vec![text.to_string()],
                size: shrunk * 0.98,
            };
        }
        let s = size * 0.85;
        CellLines {
            lines: self.m.wrap(text, s, avail),
            size: s,
        }
    }

    fn col_x(&self, t: &Table) -> Vec<f32> {
        let total: f32 = t.columns.iter().map(|c| c.width.max(1) as f32).sum();
        let mut xs = vec![MARGIN_X];
        let mut x = MARGIN_X;
        for c in &t.columns {
            x += self.content_w() * c.width.max(1) as f32 / total;
            xs.push(x);
        }
        xs
    }

    /// Lay out a row of cells; returns its ops (at y = 0) and height.
    fn row(
        &mut self,
        xs: &[f32],
        cells: &[(String, Align)],
        size: f32,
        bold: bool,
    ) -> (Vec<Op>, f32) {
        let laid: Vec<CellLines> = cells
            .iter()
            .enumerate()
            .map(|(i, (t, _))| {
                let avail = xs[i + 1] - xs[i] - 2.0 * PAD;
                self.cell(t, size, avail)
            })
            .collect();
        let h = laid
            .iter()
            .map(|c| c.lines.len() as f32 * c.size * 1.25)
            .fold(size * 1.25, f32::max)
            + 2.0 * PAD;
        let mut ops = Vec::new();
        for (i, c) in laid.iter().enumerate() {
            let (x0, x1) = (xs[i] + PAD, xs[i + 1] - PAD);
            for (k, line) in c.lines.iter().enumerate() {
                let lw = self.m.width(line, c.size);
                let x = match cells[i].1 {
                    Align::Left => x0,
                    Align::Right => (x1 - lw).max(x0),
                    Align::Center => (x0 + (x1 - x0 - lw) / 2.0).max(x0),
                };
                ops.push(Op::Text {
                    x,
                    // Every cell's first line on the row's baseline.
                    y: PAD + size + c.size * 1.25 * k as f32,
                    size: c.size,
                    text: line.clone(),
                    bold,
                });
            }
        }
        // Borders: top line and the vertical lines.
        ops.push(Op::Line {
            x1: xs[0],
            y1: 0.0,
            x2: xs[xs.len() - 1],
            y2: 0.0,
            width: 0.4,
        });
        for x in xs {
            ops.push(Op::Line {
                x1: *x,
                y1: 0.0,
                x2: *x,
                y2: h,
                width: 0.4,
            });
        }
        (ops, h)
    }

    fn close_table(&mut self, xs: &[f32]) {
        self.cur.push(Op::Line {
            x1: xs[0],
            y1: self.y,
            x2: xs[xs.len() - 1],
            y2: self.y,
            width: 0.4,
        });
    }

    fn table(&mut self, t: &Table, size: f32, paginate: bool) {
        let xs = self.col_x(t);
        let heads: Vec<(String, Align)> = t
            .columns
            .iter()
            .map(|c| (c.header.clone(), Align::Center))
            .collect();
        let (head_ops, head_h) = self.row(&xs, &heads, size, true);
        let cont = match self.lang_zh() {
            true => "(续)",
            false => "(continued)",
        };
        let put_head = |l: &mut Self, continued: bool| {
            if let Some(c) = &t.caption {
                let c = if continued {
                    format!("{c} {cont}")
                } else {
                    c.clone()
                };
                l.ensure(size * 1.6 + head_h + size * 2.0);
                let y = l.y + size * 1.1;
                l.text(MARGIN_X, y, size * 1.05, &c, true);
                l.y += size * 1.6;
            }
            let w = xs[xs.len() - 1] - xs[0];
            l.cur.push(Op::Shade {
                x: xs[0],
                y: l.y,
                w,
                h: head_h,
            });
            let y0 = l.y;
            l.cur.extend(head_ops.iter().map(|o| o.shifted(y0)));
            l.y += head_h;
            l.used = true;
        };
        // The caption, the header and the first row together.
        let first_h = t
            .rows
            .first()
            .map(|r| {
                let cells = row_cells(t, r);
                self.row(&xs, &cells, size, false).1
            })
            .unwrap_or(0.0);
        if paginate {
            self.ensure(size * 1.6 + head_h + first_h);
        }
        put_head(self, false);
        for r in &t.rows {
            let cells = row_cells(t, r);
            let (ops, h) = self.row(&xs, &cells, size, false);
            if paginate && self.y + h > self.bottom() {
                self.close_table(&xs);
                self.new_page();
                put_head(self, true);
            }
            let y0 = self.y;
            self.cur.extend(ops.iter().map(|o| o.shifted(y0)));
            self.y += h;
        }
        self.close_table(&xs);
        self.y += size;
    }

    fn lang_zh(&self) -> bool {
        !self.doc_title.is_ascii()
    }

    fn paragraph(&mut self, s: &str, size: f32) {
        let lines = self.m.wrap(s, size, self.content_w());
        for l in lines {
            self.ensure(size * 1.5);
            let y = self.y + size;
            self.text(MARGIN_X, y, size, &l, false);
            self.y += size * 1.5;
            self.used = true;
        }
        self.y += size * 0.4;
    }

    fn heading(&mut self, s: &str, size: f32) {
        // Keep a heading with a little of what follows.
        self.ensure(size * 1.8 + 60.0);
        let y = self.y + size * 1.2;
        let s = s.to_string();
        let sz = size.min(size * self.content_w() / self.m.width(&s, size).max(1.0));
        self.text(MARGIN_X, y, sz, &s, true);
        self.y += size * 1.8;
        self.used = true;
    }

    fn signatures(&mut self, labels: &[String], size: f32) {
        let n = labels.len().max(1) as f32;
        let slot = self.content_w() / n;
        self.ensure(size * 3.5);
        let y = self.y + size * 2.2;
        for (i, l) in labels.iter().enumerate() {
            let x = MARGIN_X + slot * i as f32;
            let label = format!("{l}:");
            let lw = self.m.width(&label, size);
            self.text(x, y, size, &label, false);
            self.cur.push(Op::Line {
                x1: x + lw + 3.0,
                y1: y + 2.0,
                x2: x + slot - 10.0,
                y2: y + 2.0,
                width: 0.5,
            });
        }
        self.y += size * 3.5;
        self.used = true;
    }

    /// QR codes side by side, each with its lines wrapped to its right.
    fn codes(&mut self, codes: &[arbiter_report::QrCode], size: f32) {
        const QR: f32 = 62.0;
        const GAP: f32 = 6.0;
        let n = codes.len().max(1) as f32;
        let slot = self.content_w() / n;
        let text_w = (slot - QR - 2.0 * GAP).max(size * 4.0);
        let wrapped: Vec<Vec<String>> = codes
            .iter()
            .map(|c| {
                c.lines
                    .iter()
                    .flat_map(|l| self.m.wrap(l, size, text_w))
                    .collect()
            })
            .collect();
        let text_h = wrapped
            .iter()
            .map(|ls| ls.len() as f32 * size * 1.4)
            .fold(0.0_f32, f32::max);
        let h = QR.max(text_h) + size;
        self.ensure(h);
        let top = self.y + size * 0.5;
        for (i, (c, lines)) in codes.iter().zip(&wrapped).enumerate() {
            let x = MARGIN_X + slot * i as f32;
            let module = QR / c.width.max(1) as f32;
            let mut squares = Vec::new();
            for my in 0..c.width {
                for mx in 0..c.width {
                    if c.is_dark(mx, my) {
                        squares.push([x + mx as f32 * module, top + my as f32 * module, module]);
                    }
                }
            }
            self.cur.push(Op::Dark(squares));
            for (j, l) in lines.iter().enumerate() {
                let y = top + size + j as f32 * size * 1.4;
                // The first line (the side and its code) in bold.
                self.text(x + QR + GAP, y, size, l, j == 0);
            }
        }
        self.y += h;
        self.used = true;
    }

    fn blocks(&mut self, bs: &[Block], paginate: bool) {
        let body = self.body;
        for b in bs {
            if self.card_slot.is_some() && !matches!(b, Block::TableCard(_)) {
                self.close_cards();
            }
            match b {
                Block::Heading(s) => self.heading(s, 12.0_f32.max(body * 1.2)),
                Block::Paragraph(s) => self.paragraph(s, body),
                Block::Table(t) => self.table(t, body, paginate),
                Block::Signatures(s) => self.signatures(s, body),
                Block::Codes(c) => self.codes(c, body),
                Block::TableCard(c) => self.table_card(c),
                Block::NameCard(c) => self.name_card(c),
                Block::Cover(c) => self.cover(c),
                Block::Contents(t) => self.contents(t),
                Block::Chapter(c) => self.chapter(c),
                Block::KeepTogether(inner) => self.keep_together(inner),
                Block::Certificate(c) => self.certificate(c),
                Block::PageBreak => {
                    if self.used {
                        self.new_page();
                    }
                }
            }
        }
    }

    /// Lay the blocks out on a scratch page to learn their height; start a new page if
    /// they do not fit in what is left, then place them.
    fn keep_together(&mut self, inner: &[Block]) {
        let saved_cur = std::mem::take(&mut self.cur);
        let saved_y = self.y;
        let saved_used = self.used;
        self.y = 0.0;
        for b in inner {
            match b {
                Block::Heading(s) => self.heading_plain(s, 10.5),
                other => self.blocks(std::slice::from_ref(other), false),
            }
        }
        let h = self.y;
        let ops = std::mem::replace(&mut self.cur, saved_cur);
        self.y = saved_y;
        self.used = saved_used;
        if self.y + h > self.bottom() && self.used {
            self.new_page();
        }
        let y0 = self.y;
        self.cur.extend(ops.iter().map(|o| o.shifted(y0)));
        self.y += h;
        // A dashed-looking cut line between slips: a thin rule.
        self.cur.push(Op::Line {
            x1: MARGIN_X,
            y1: self.y,
            x2: self.page_w - MARGIN_X,
            y2: self.y,
            width: 0.2,
        });
        self.y += 10.0;
        self.used = true;
    }

    /// Ends the page of the page being built without a running header (a cover, a page
    /// of cards): the page so far is kept if anything is on it.
    fn take_page(&mut self) {
        let done = std::mem::take(&mut self.cur);
        if self.used {
            self.pages.push((done, false));
        }
        self.used = false;
    }

    /// Text centred on the page at `y`, shrunk to `max` wide.
    fn centred(&mut self, ops: &mut Vec<Op>, y: f32, size: f32, s: &str, bold: bool, max: f32) {
        let size = size.min(size * max / self.m.width(s, size).max(1.0));
        let sw = self.m.width(s, size);
        ops.push(Op::Text {
            x: (self.page_w - sw) / 2.0,
            y,
            size,
            text: s.to_string(),
            bold,
        });
    }

    /// A table card on half a page: the label, the board number as large as the half
    /// allows, the players under it; a cut line between the halves.
    fn table_card(&mut self, c: &TableCard) {
        let slot = match self.card_slot {
            Some(s) => s,
            None => {
                self.take_page();
                0
            }
        };
        let (w, h) = (self.page_w, self.page_h / 2.0);
        let top = h * slot as f32;
        let inner = w - 2.0 * 20.0 * MM;
        let mut ops = Vec::new();
        self.centred(&mut ops, top + 22.0 * MM, 20.0, &c.label, false, inner);
        let no = c.board.to_string();
        // Digits are about 0.73 of the size tall: the number fills some 80 mm of the half.
        let size = 300.0_f32.min(300.0 * inner / self.m.width(&no, 300.0).max(1.0));
        let y_no = top + 22.0 * MM + 10.0 * MM + size * 0.76;
        self.centred(&mut ops, y_no, size, &no, true, inner);
        let mut y = y_no + 14.0 * MM;
        for l in &c.lines {
            self.centred(&mut ops, y, 26.0, l, false, inner);
            y += 26.0 * 1.5;
        }
        if slot == 0 {
            ops.push(Op::Line {
                x1: 8.0 * MM,
                y1: h,
                x2: w - 8.0 * MM,
                y2: h,
                width: 0.3,
            });
        }
        self.cur.extend(ops);
        self.used = true;
        if slot == 0 {
            self.card_slot = Some(1);
        } else {
            self.close_cards();
        }
    }

    /// Ends a page of table cards (with one card or two).
    fn close_cards(&mut self) {
        if self.card_slot.take().is_some() {
            let done = std::mem::take(&mut self.cur);
            self.pages.push((done, true));
            self.used = false;
            self.header();
        }
    }

    /// A folded name card: a page folded across the middle, the name large on each half,
    /// the upper half upside down so that both faces read right once it stands.
    fn name_card(&mut self, c: &NameCard) {
        self.take_page();
        let (w, h) = (self.page_w, self.page_h);
        let inner = w - 2.0 * 18.0 * MM;
        let mut face = Vec::new();
        // The lower half: from h/2 to h; the name a little above its middle.
        let mid = h * 0.75;
        self.centred(&mut face, mid, 84.0, &c.name, true, inner);
        if let Some(u) = &c.unit {
            self.centred(&mut face, mid + 20.0 * MM, 26.0, u, false, inner);
        }
        if let Some(n) = &c.note {
            self.centred(&mut face, h - 16.0 * MM, 12.0, n, false, inner);
        }
        let mut ops = face.clone();
        ops.push(Op::Flipped(face));
        // The fold.
        ops.push(Op::Line {
            x1: 8.0 * MM,
            y1: h / 2.0,
            x2: w - 8.0 * MM,
            y2: h / 2.0,
            width: 0.3,
        });
        self.pages.push((ops, true));
        self.cur = Vec::new();
        self.used = false;
        self.header();
    }

    /// A booklet's cover: the event, the title, the dates, the venue, the organisers.
    fn cover(&mut self, c: &Cover) {
        self.take_page();
        let inner = self.content_w() - 20.0 * MM;
        let mut ops = Vec::new();
        let h = self.page_h;
        self.centred(&mut ops, h * 0.28, 26.0, &c.event, true, inner);
        let spaced: String = c
            .title
            .chars()
            .map(|ch| ch.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        self.centred(&mut ops, h * 0.42, 44.0, &spaced, true, inner);
        let mut y = h * 0.62;
        for l in &c.lines {
            for line in self.m.wrap(l, 15.0, inner) {
                self.centred(&mut ops, y, 15.0, &line, false, inner);
                y += 15.0 * 1.8;
            }
        }
        self.pages.push((ops, true));
        self.cur = Vec::new();
        self.used = false;
        self.header();
    }

    /// The table of contents: every chapter with its page (from the last layout).
    fn contents(&mut self, title: &str) {
        if self.used {
            self.new_page();
        }
        self.heading(title, 16.0);
        let size = 12.0;
        let toc = self.toc.clone();
        for (name, page) in &toc {
            self.ensure(size * 2.0);
            let y = self.y + size * 1.3;
            let no = page.map_or_else(|| "…".to_string(), |p| p.to_string());
            let nw = self.m.width(&no, size);
            let name_w = self.m.width(name, size).min(self.content_w() * 0.8);
            let x_no = self.page_w - MARGIN_X - nw;
            self.text(MARGIN_X, y, size, name, false);
            self.text(x_no, y, size, &no, false);
            // A dotted leader: short dashes from the name to the number.
            let mut x = MARGIN_X + name_w + 6.0;
            while x + 2.0 < x_no - 6.0 {
                self.cur.push(Op::Line {
                    x1: x,
                    y1: y,
                    x2: x + 1.0,
                    y2: y,
                    width: 0.8,
                });
                x += 4.0;
            }
            self.y += size * 2.0;
            self.used = true;
        }
    }

    /// A booklet's chapter: a new page, the chapter's heading; its page is remembered for
    /// the contents.
    fn chapter(&mut self, name: &str) {
        if self.used {
            self.new_page();
        }
        self.chapter_pages.push(self.pages.len() + 1);
        let size = 16.0;
        let y = self.y + size * 1.2;
        let sz = size.min(size * self.content_w() / self.m.width(name, size).max(1.0));
        self.text(MARGIN_X, y, sz, name, true);
        self.y += size * 2.2;
        self.used = true;
    }

    fn heading_plain(&mut self, s: &str, size: f32) {
        let y = self.y + size * 1.2;
        let sz = size.min(size * self.content_w() / self.m.width(s, size).max(1.0));
        self.text(MARGIN_X, y, sz, s, true);
        self.y += size * 1.8;
    }

    /// One certificate on a page of its own, without the running header.
    fn certificate(&mut self, c: &Certificate) {
        if self.used || !self.cur.is_empty() {
            let done = std::mem::take(&mut self.cur);
            if self.used {
                self.pages.push((done, false));
            }
        }
        let (w, h) = (self.page_w, self.page_h);
        let mut ops = Vec::new();
        // Double frame.
        for (inset, width) in [(10.0 * MM, 2.0), (12.5 * MM, 0.6)] {
            let (x0, y0, x1, y1) = (inset, inset, w - inset, h - inset);
            for (a, b, cx, d) in [
                (x0, y0, x1, y0),
                (x1, y0, x1, y1),
                (x1, y1, x0, y1),
                (x0, y1, x0, y0),
            ] {
                ops.push(Op::Line {
                    x1: a,
                    y1: b,
                    x2: cx,
                    y2: d,
                    width,
                });
            }
        }
        let inner = w - 2.0 * 30.0 * MM;
        let centred =
            |m: &mut Measure, ops: &mut Vec<Op>, y: f32, size: f32, s: &str, bold: bool| {
                let size = size.min(size * inner / m.width(s, size).max(1.0));
                let sw = m.width(s, size);
                ops.push(Op::Text {
                    x: (w - sw) / 2.0,
                    y,
                    size,
                    text: s.to_string(),
                    bold,
                });
            };
        let spaced: String = c
            .heading
            .chars()
            .map(|ch| ch.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        centred(self.m, &mut ops, 45.0 * MM, 40.0, &spaced, true);
        centred(self.m, &mut ops, 75.0 * MM, 26.0, &c.recipient, true);
        let mut y = 75.0 * MM;
        if let Some(u) = &c.unit {
            y += 12.0 * MM;
            centred(self.m, &mut ops, y, 13.0, u, false);
        }
        y += 16.0 * MM;
        for line in self.m.wrap(&format!("　　{}", c.citation), 16.0, inner) {
            ops.push(Op::Text {
                x: 30.0 * MM,
                y,
                size: 16.0,
                text: line,
                bold: false,
            });
            y += 16.0 * 1.7;
        }
        if let Some(m) = &c.members {
            y += 2.0 * MM;
            for line in self.m.wrap(m, 14.0, inner) {
                ops.push(Op::Text {
                    x: 30.0 * MM,
                    y,
                    size: 14.0,
                    text: line,
                    bold: false,
                });
                y += 14.0 * 1.6;
            }
        }
        if let Some(a) = &c.award {
            y += 8.0 * MM;
            centred(self.m, &mut ops, y, 24.0, a, true);
        }
        let mut by = h - 30.0 * MM - (c.issuers.len() as f32) * 18.0;
        for i in &c.issuers {
            let size = 13.0_f32.min(13.0 * (inner / 2.0) / self.m.width(i, 13.0).max(1.0));
            let iw = self.m.width(i, size);
            ops.push(Op::Text {
                x: w - 30.0 * MM - iw,
                y: by,
                size,
                text: i.clone(),
                bold: false,
            });
            by += 18.0;
        }
        let dw = self.m.width(&c.date, 13.0);
        ops.push(Op::Text {
            x: w - 30.0 * MM - dw,
            y: by + 4.0,
            size: 13.0,
            text: c.date.clone(),
            bold: false,
        });
        self.pages.push((ops, true));
        self.cur = Vec::new();
        self.used = false;
        self.y = MARGIN_TOP;
    }
}

fn row_cells(t: &Table, r: &[arbiter_report::Cell]) -> Vec<(String, Align)> {
    t.columns
        .iter()
        .enumerate()
        .map(|(i, c)| (r.get(i).map(|x| x.display()).unwrap_or_default(), c.align))
        .collect()
}

/// Lay the document out: its pages (ops, and whether the page has no running header and
/// footer) and the page each chapter starts on. `toc`: the chapters with their pages as far
/// as known.
#[allow(clippy::type_complexity)]
fn layout(
    doc: &Document,
    m: &mut Measure,
    page_w: f32,
    page_h: f32,
    toc: Vec<(String, Option<usize>)>,
) -> (Vec<(Vec<Op>, bool)>, Vec<usize>) {
    let doc_title = match &doc.subtitle {
        Some(s) => format!("{} · {s}", doc.title),
        None => doc.title.clone(),
    };
    // A3 is A4 enlarged: the type grows with the sheet.
    let scale = match doc.paper {
        Paper::A4 => 1.0,
        Paper::A3 => A3_W / A4_W,
    };
    let mut l = Layout {
        m,
        page_w,
        page_h,
        pages: Vec::new(),
        cur: Vec::new(),
        y: 0.0,
        used: false,
        doc_title,
        event: doc.event_name.clone(),
        date: doc.date.clone(),
        body: doc.type_size.map_or(BODY, f32::from) * scale,
        card_slot: None,
        toc,
        chapter_pages: Vec::new(),
    };
    let certificates = doc
        .blocks
        .iter()
        .all(|b| matches!(b, Block::Certificate(_) | Block::PageBreak));
    if !certificates {
        l.header();
    }
    l.blocks(&doc.blocks, true);
    if l.card_slot.is_some() {
        l.close_cards();
    }
    if l.used || l.pages.is_empty() {
        let done = std::mem::take(&mut l.cur);
        l.pages.push((done, false));
    }
    (std::mem::take(&mut l.pages), l.chapter_pages)
}

/// Render the document as PDF bytes with `font` (and its bold sibling file, if there is one).
pub fn render(doc: &Document, font: &PrintFont) -> Result<Vec<u8>, String> {
    render_with_progress(doc, font, &mut |_, _| {})
}

/// [`render`], telling `progress(pages written, pages in all)` after each page.
pub fn render_with_progress(
    doc: &Document,
    font: &PrintFont,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<u8>, String> {
    let face = FontRef::from_index(font.data.as_slice(), font.index)
        .map_err(|e| format!("{}: 字体无法读取 (bad font): {e}", font.path.display()))?;
    let mut m = Measure::new(&face);
    let (page_w, page_h) = match (doc.paper, doc.orientation) {
        (Paper::A4, Orientation::Portrait) => (A4_W, A4_H),
        (Paper::A4, Orientation::Landscape) => (A4_H, A4_W),
        (Paper::A3, Orientation::Portrait) => (A3_W, A3_H),
        (Paper::A3, Orientation::Landscape) => (A3_H, A3_W),
    };
    // The contents need the pages the chapters start on: lay out, note them, lay out again
    // with them (the contents take as many lines either way; a third time if they moved).
    let chapters: Vec<String> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Chapter(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    let mut toc: Vec<(String, Option<usize>)> =
        chapters.iter().map(|c| (c.clone(), None)).collect();
    let mut pages = Vec::new();
    for _ in 0..3 {
        let (p, starts) = layout(doc, &mut m, page_w, page_h, toc.clone());
        pages = p;
        let known: Vec<(String, Option<usize>)> = chapters
            .iter()
            .cloned()
            .zip(starts.into_iter().map(Some))
            .collect();
        if known == toc {
            break;
        }
        toc = known;
    }
    let total = pages.len();
    let mut footers = Vec::with_capacity(total);
    for i in 0..total {
        let f = match doc.lang {
            Lang::Zh => format!("第 {} 页 / 共 {} 页", i + 1, total),
            Lang::En => format!("Page {} of {}", i + 1, total),
        };
        let fw = m.width(&f, 8.0);
        footers.push(Op::Text {
            x: (page_w - fw) / 2.0,
            y: page_h - MARGIN_BOTTOM + 2.0,
            size: 8.0,
            text: f,
            bold: false,
        });
    }
    let regular =
        Font::new(krilla::Data::from(font.data.clone()), font.index).ok_or_else(|| {
            format!(
                "{}: 字体无法嵌入 (cannot embed the font)",
                font.path.display()
            )
        })?;
    let bold = bold_sibling(font).unwrap_or_else(|| regular.clone());
    let mut pdf = krilla::Document::new();
    for (n, ((ops, cert), footer)) in pages.iter().zip(footers).enumerate() {
        let settings = PageSettings::from_wh(page_w, page_h)
            .ok_or_else(|| "页面尺寸无效 (bad page size)".to_string())?;
        let mut page = pdf.start_page_with(settings);
        let mut s = page.surface();
        let all: Vec<&Op> = if *cert {
            ops.iter().collect()
        } else {
            ops.iter().chain(std::iter::once(&footer)).collect()
        };
        let fonts = (&regular, &bold);
        for op in all {
            draw(&mut s, op, *cert, fonts, (page_w, page_h));
        }
        s.finish();
        page.finish();
        progress(n + 1, total);
    }
    pdf.finish()
        .map_err(|e| format!("无法生成 PDF (cannot write the PDF): {e:?}"))
}

/// Draw one op on the page's surface.
fn draw(
    s: &mut krilla::surface::Surface,
    op: &Op,
    cert: bool,
    fonts: (&Font, &Font),
    page: (f32, f32),
) {
    match op {
        Op::Dark(squares) => {
            let mut pb = PathBuilder::new();
            for [x, y, side] in squares {
                // A hair larger than the module, so that neighbours leave no seam.
                if let Some(r) = Rect::from_xywh(*x, *y, *side + 0.05, *side + 0.05) {
                    pb.push_rect(r);
                }
            }
            if let Some(path) = pb.finish() {
                s.set_stroke(None);
                s.set_fill(Some(Fill {
                    paint: rgb::Color::new(0, 0, 0).into(),
                    ..Fill::default()
                }));
                s.draw_path(&path);
            }
        }
        Op::Shade { x, y, w, h } => {
            let mut pb = PathBuilder::new();
            if let Some(r) = Rect::from_xywh(*x, *y, *w, *h) {
                pb.push_rect(r);
            }
            if let Some(path) = pb.finish() {
                s.set_stroke(None);
                s.set_fill(Some(Fill {
                    paint: rgb::Color::new(232, 232, 232).into(),
                    ..Fill::default()
                }));
                s.draw_path(&path);
            }
        }
        Op::Line {
            x1,
            y1,
            x2,
            y2,
            width,
        } => {
            let mut pb = PathBuilder::new();
            pb.move_to(*x1, *y1);
            pb.line_to(*x2, *y2);
            if let Some(p) = pb.finish() {
                s.set_fill(None);
                s.set_stroke(Some(Stroke {
                    width: *width,
                    paint: if cert && *width > 1.0 {
                        rgb::Color::new(170, 20, 20).into()
                    } else {
                        rgb::Color::new(60, 60, 60).into()
                    },
                    ..Stroke::default()
                }));
                s.draw_path(&p);
            }
        }
        Op::Text {
            x,
            y,
            size,
            text,
            bold: b,
        } => {
            s.set_stroke(None);
            s.set_fill(Some(Fill::default()));
            s.draw_text(
                Point::from_xy(*x, *y),
                if *b { fonts.1.clone() } else { fonts.0.clone() },
                *size,
                text,
                false,
                TextDirection::Auto,
            );
        }
        Op::Flipped(inner) => {
            // Half a turn about the page's centre: (x, y) → (w − x, h − y).
            s.push_transform(&krilla::geom::Transform::from_row(
                -1.0, 0.0, 0.0, -1.0, page.0, page.1,
            ));
            for o in inner {
                draw(s, o, cert, fonts, page);
            }
            s.pop();
        }
    }
}

/// `…-Regular.ttc` → `…-Bold.ttc` beside it, same face index, when it exists.
fn bold_sibling(font: &PrintFont) -> Option<Font> {
    let name = font.path.file_name()?.to_str()?;
    if !name.contains("Regular") {
        return None;
    }
    let p = font.path.with_file_name(name.replace("Regular", "Bold"));
    let data = std::fs::read(p).ok()?;
    Font::new(krilla::Data::from(data), font.index)
}
