//! 段位、棋士等级与称号 (issue 46): a regulation's ordered scale of grades and titles, lowest
//! first, and reading a grade as a player's form gives it.
//!
//! ```toml
//! [grades]
//! scale = ["业余1段", "业余2段", "业余3段", "地方大师", "棋协大师",
//!          { name = "象棋大师", aliases = ["国家级运动健将"] }, "特级大师"]
//! ```
//!
//! A grade is matched by its name or an alias, ignoring blanks, full-width letters and digits,
//! and Chinese numerals written for digits (「业余五段」 is 「业余5段」).

use serde::Deserialize;

/// One step of the scale: its name, as printed, and other ways of writing it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "StepDef")]
pub struct GradeStep {
    pub name: String,
    pub aliases: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StepDef {
    Name(String),
    Full {
        name: String,
        #[serde(default)]
        aliases: Vec<String>,
    },
}

impl From<StepDef> for GradeStep {
    fn from(d: StepDef) -> Self {
        match d {
            StepDef::Name(name) => GradeStep {
                name,
                aliases: Vec::new(),
            },
            StepDef::Full { name, aliases } => GradeStep { name, aliases },
        }
    }
}

/// `[grades]`: the scale, lowest first. Empty: the regulation keeps no grades.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grades {
    #[serde(default)]
    pub scale: Vec<GradeStep>,
}

/// A grade as the rules compare it: its place on the scale (0 the lowest) and its name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Grade {
    pub rank: usize,
    pub name: String,
}

/// The form of a grade's words compared: blanks dropped, full-width ASCII made half-width,
/// Chinese numerals 〇一二…九 made digits, letters lower case.
pub fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '〇' | '零' => '0',
            '一' => '1',
            '二' | '两' => '2',
            '三' => '3',
            '四' => '4',
            '五' => '5',
            '六' => '6',
            '七' => '7',
            '八' => '8',
            '九' => '9',
            _ => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

impl Grades {
    pub fn is_empty(&self) -> bool {
        self.scale.is_empty()
    }

    /// The grade written `given` (its name or an alias, [`fold`]ed), if the scale has it.
    pub fn find(&self, given: &str) -> Option<Grade> {
        let g = fold(given);
        if g.is_empty() {
            return None;
        }
        self.scale
            .iter()
            .position(|s| fold(&s.name) == g || s.aliases.iter().any(|a| fold(a) == g))
            .map(|rank| Grade {
                rank,
                name: self.scale[rank].name.clone(),
            })
    }

    /// The names of the scale, lowest first, joined for a message: 「业余1段、…、特级大师」.
    pub fn names(&self) -> String {
        self.scale
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join("、")
    }
}

impl crate::model::Eligibility {
    /// The section's grade rules in words, as the summary and the desk's entry form say them:
    /// 「须业余5段及以上」, 「未获得象棋大师以上称号」 (`zh`), else in English.
    pub fn grade_rule(&self, zh: bool) -> Vec<String> {
        let (min, below) = &self.grade_bounds;
        let mut v = Vec::new();
        if let Some(g) = min {
            v.push(if zh {
                format!("须{}及以上", g.name)
            } else {
                format!("grade {} or above", g.name)
            });
        }
        if let Some(g) = below {
            v.push(if zh {
                format!("未获得{}以上称号", g.name)
            } else {
                format!("below {}", g.name)
            });
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale() -> Grades {
        Grades {
            scale: vec![
                GradeStep {
                    name: "业余5段".into(),
                    aliases: vec![],
                },
                GradeStep {
                    name: "象棋大师".into(),
                    aliases: vec!["国家级运动健将".into()],
                },
            ],
        }
    }

    #[test]
    fn a_grade_is_found_by_name_alias_and_chinese_numerals() {
        let g = scale();
        assert_eq!(g.find("业余五段").map(|x| x.rank), Some(0));
        assert_eq!(g.find(" 业余５段 ").map(|x| x.rank), Some(0));
        let m = g.find("国家级运动健将");
        assert_eq!(m.as_ref().map(|x| x.name.as_str()), Some("象棋大师"));
        assert_eq!(m.map(|x| x.rank), Some(1));
        assert_eq!(g.find("业余6段"), None);
        assert_eq!(g.find("  "), None);
    }
}
