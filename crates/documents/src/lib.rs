//! The files of an event's printed documents and exports, made from the layout-neutral model
//! of `arbiter-report`: each writer is a function from the model (and its options) to bytes.
//! Reading the database, writing files, progress on a terminal and HTTP are the callers' (the
//! CLI's `print` and `event export`, the web desk's downloads).
//!
//! - [`pdf`]: a [`arbiter_report::Document`] as an A4 PDF (`krilla`), laid out here.
//! - [`font`]: finding the CJK font the PDF embeds.
//! - [`tables`]: the tables of an event's documents as one Excel workbook, or a CSV per table.
//! - [`entry_form`]: the unit entry form (报名表, .xlsx) of a regulation, which the roster
//!   import reads back.

pub mod entry_form;
pub mod font;
pub mod pdf;
pub mod tables;

pub use font::{find_font, find_font_cached, load_font, PrintFont, FONT_ENV};
pub use tables::{csv, csv_names, xlsx, WriteError, EXPORTED};
