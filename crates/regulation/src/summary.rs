//! Human-readable summary of a regulation (Chinese or English).

use crate::model::Regulation;

/// Output language of summaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

impl Regulation {
    /// A readable summary of every section.
    pub fn summary(&self, lang: Lang) -> String {
        let mut out = String::new();
        out.push_str(&self.event.name);
        out.push('\n');
        for s in &self.sections {
            out.push_str(match lang {
                Lang::Zh => &s.name,
                Lang::En => s.name_en.as_deref().unwrap_or(&s.id),
            });
            out.push('\n');
        }
        out
    }
}
