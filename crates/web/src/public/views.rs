//! View models of the public pages, built from a snapshot. Only names, units, teams, pairing
//! numbers and results go in: nothing here can carry an ID number or a phone.

use crate::cache::Snapshot;
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_director::api::rounds::RoundSheet;
use arbiter_types::Colour;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A section of the event, or 404.
pub fn section_name(snap: &Snapshot, section: &str) -> Result<String, WebError> {
    snap.state
        .section(section)
        .map(|s| s.name.clone())
        .ok_or_else(|| WebError::NotFound(format!("组别「{section}」(section)")))
}

/// The name of `section` in language `l` (the regulation's `name_en` in English), or 404.
pub fn section_name_in(snap: &Snapshot, l: Lang, section: &str) -> Result<String, WebError> {
    snap.section_title(l, section)
        .ok_or_else(|| WebError::NotFound(format!("组别「{section}」(section)")))
}

/// The pairing sheet of a published round (cached per state), or why not.
pub fn sheet(snap: &Snapshot, section: &str, round: u32) -> Result<Arc<RoundSheet>, WebError> {
    let name = section_name(snap, section)?;
    let published = snap
        .state
        .section(section)
        .and_then(|s| s.round(round))
        .map(|r| r.published);
    match published {
        None => {
            return Err(WebError::NotFound(format!(
                "{name} 第{round}轮尚未编排 (round {round} is not paired)"
            )))
        }
        Some(false) => {
            return Err(WebError::NotFound(format!(
                "{name} 第{round}轮对阵尚未公布 (round {round} is not published yet)"
            )))
        }
        Some(true) => {}
    }
    snap.memo(&format!("sheet/{section}/{round}"), || {
        arbiter_director::api::rounds::sheet(&snap.state, section, Some(round))
            .map_err(|e| WebError::NotFound(e.to_string()))
    })
}

/// A result as shown on the pairing sheet (read from red's side).
pub fn result_label(l: Lang, notation: &str) -> &'static str {
    match (l, notation) {
        (Lang::Zh, "1-0") => "红胜",
        (Lang::Zh, "0-1") => "黑胜",
        (Lang::Zh, "=") => "和",
        (Lang::Zh, "+-") => "黑弃权",
        (Lang::Zh, "-+") => "红弃权",
        (Lang::Zh, "--") => "双弃权",
        (Lang::En, "1-0") => "1-0",
        (Lang::En, "0-1") => "0-1",
        (Lang::En, "=") => "½-½",
        (Lang::En, "+-") => "+/−",
        (Lang::En, "-+") => "−/+",
        (Lang::En, "--") => "−/−",
        _ => "",
    }
}

/// A tie-break or fallback name (`opp_score`) in the page's language.
pub fn tiebreak_label(l: Lang, name: &str) -> String {
    if name == "points" {
        return l.t("积分", "points").to_string();
    }
    if name == "knockout" {
        return l.t("淘汰赛", "knockout").to_string();
    }
    if name == "group_place" {
        return l.t("小组名次", "group place").to_string();
    }
    if name == "final" {
        return l.t("决赛", "final").to_string();
    }
    if name == "pairing_no" {
        return l.t("序号", "pairing no.").to_string();
    }
    let zh = arbiter_types::TiebreakName::ALL
        .iter()
        .find(|t| t.name() == name)
        .map(|t| t.zh())
        .or_else(|| {
            arbiter_types::Fallback::ALL
                .iter()
                .find(|f| f.name() == name)
                .map(|f| f.zh())
        });
    match (l, zh) {
        (Lang::Zh, Some(z)) => z.to_string(),
        _ => name.replace('_', " "),
    }
}

/// The short label of a tie-break (or of what decided a rank) for a phone's narrow column:
/// two Chinese characters or a common abbreviation; the page's legend spells it out.
pub fn tiebreak_short(l: Lang, name: &str) -> String {
    use arbiter_types::{Fallback as F, TiebreakName as T};
    let (zh, en) = match name {
        "points" => ("积分", "Pts"),
        "knockout" => ("淘汰", "KO"),
        "group_place" => ("小组", "Grp"),
        "final" => ("决赛", "Fin"),
        "pairing_no" => ("序号", "No"),
        _ => {
            if let Some(t) = T::ALL.into_iter().find(|t| t.name() == name) {
                // Every tie-break has its short label: a new one does not compile without.
                match t {
                    T::OppScore => ("对手", "Opp"),
                    T::Progressive => ("累进", "Prog"),
                    T::Wins => ("胜局", "W"),
                    T::Fouls => ("犯规", "F"),
                    T::Direct => ("直胜", "DE"),
                    T::BlackGames => ("后走", "BG"),
                    T::BlackWins => ("后胜", "BW"),
                    T::Sb => ("小分", "SB"),
                    T::Buchholz => ("布氏", "Bh"),
                    T::BuchholzCut1 => ("布低", "Bh-1"),
                    T::BuchholzMedian1 => ("布中", "BhM"),
                    T::Aro => ("均分", "ARO"),
                    T::AroCut1 => ("均低", "ARO-1"),
                    T::Apro => ("均表", "APRO"),
                    T::Performance => ("表现", "Perf"),
                }
            } else if let Some(f) = F::ALL.into_iter().find(|f| f.name() == name) {
                match f {
                    F::PreviousRoundRank => ("前轮", "Prev"),
                    F::PreviousRoundScore => ("递减", "Back"),
                    F::DropFirstRounds => ("去首", "Drop"),
                    F::Lots => ("抽签", "Lots"),
                    F::Shared => ("并列", "Shared"),
                }
            } else {
                return tiebreak_label(l, name);
            }
        }
    };
    l.t(zh, en).to_string()
}

/// A label in full and short (for a phone's narrow column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub long: String,
    pub short: String,
}

impl Label {
    pub fn tiebreak(l: Lang, name: &str) -> Label {
        Label {
            long: tiebreak_label(l, name),
            short: tiebreak_short(l, name),
        }
    }

    /// Printed as `short = long` in a legend; empty when both are the same.
    pub fn legend(&self) -> Option<String> {
        (self.long != self.short).then(|| format!("{}={}", self.short, self.long))
    }
}

pub use arbiter_director::history::{Cell, CellKind, KoGame, PlayerRow, SectionHistory};

/// A round of a player's history in the page's language.
pub trait CellWords {
    /// 红 / 黑.
    fn colour_label(&self, l: Lang) -> &'static str;
    /// 胜, 和, 负, 对手弃权 胜 ….
    fn result_label(&self, l: Lang) -> &'static str;
    /// The crosstable's short form.
    fn short(&self, l: Lang) -> String;
    /// The crosstable cell's tooltip.
    fn tip(&self, l: Lang) -> String;
}

impl CellWords for Cell {
    fn colour_label(&self, l: Lang) -> &'static str {
        match self.colour {
            Some(Colour::Red) => l.t("红", "red"),
            Some(Colour::Black) => l.t("黑", "black"),
            None => "",
        }
    }
    fn result_label(&self, l: Lang) -> &'static str {
        kind_label(l, self.kind)
    }
    /// Short form for the crosstable, in the regulation's points: `12红2`, `7黑1`, `5红2+`
    /// (won by forfeit), `轮空2`, `—` (not paired), `12红…` (in play); a result of a round not
    /// yet completed in brackets, `(12红2)` (not yet counted).
    fn short(&self, l: Lang) -> String {
        let pts = || {
            self.points
                .map(arbiter_director::crosstable::points_text)
                .unwrap_or_default()
        };
        let mark = match self.kind {
            CellKind::Win | CellKind::Draw | CellKind::Loss => pts(),
            CellKind::ForfeitWin => format!("{}+", pts()),
            CellKind::ForfeitLoss => format!("{}−", pts()),
            CellKind::DoubleForfeit => format!("{}−−", pts()),
            CellKind::Pending => "…".to_string(),
            CellKind::Bye => format!("{}{}", l.t("轮空", "bye "), pts()),
            CellKind::Absent => return "—".to_string(),
        };
        let c = match self.colour {
            Some(Colour::Red) => l.t("红", "r"),
            Some(Colour::Black) => l.t("黑", "b"),
            None => "",
        };
        let text = match &self.opponent {
            Some((no, _)) => format!("{no}{c}{mark}"),
            None => mark,
        };
        if self.counted || self.kind == CellKind::Pending {
            text
        } else {
            format!("({text})")
        }
    }

    /// The crosstable cell's tooltip: the board and how the game ended (J5), 「第3台 · 困毙」.
    fn tip(&self, l: Lang) -> String {
        let mut t = match self.board {
            Some(b) => format!("{}{b}{}", l.t("第", "board "), l.t("台", "")),
            None => String::new(),
        };
        if let Some(e) = self.ending {
            t.push_str(" · ");
            t.push_str(l.t(e.zh(), &e.en()));
        }
        t
    }
}
/// A round's result in words: 胜, 和, 负, 对手弃权 胜 ….
pub fn kind_label(l: Lang, kind: CellKind) -> &'static str {
    match kind {
        CellKind::Win => l.t("胜", "won"),
        CellKind::Draw => l.t("和", "draw"),
        CellKind::Loss => l.t("负", "lost"),
        CellKind::ForfeitWin => l.t("对手弃权 胜", "won by forfeit"),
        CellKind::ForfeitLoss => l.t("弃权 负", "lost by forfeit"),
        CellKind::DoubleForfeit => l.t("双方弃权", "double forfeit"),
        CellKind::Bye => l.t("轮空", "bye"),
        CellKind::Absent => l.t("未赛", "not paired"),
        CellKind::Pending => l.t("进行中", "in play"),
    }
}

/// The section's history ([`arbiter_director::history::section_history`]), cached per state.
pub fn history(snap: &Snapshot, section: &str) -> Result<Arc<SectionHistory>, WebError> {
    section_name(snap, section)?;
    snap.memo(&format!("history/{section}"), || {
        arbiter_director::history::section_history(&snap.state, section).map_err(|e| match e {
            arbiter_director::DirectorError::UnknownSection(s) => WebError::NotFound(s),
            e => WebError::Internal(e.to_string()),
        })
    })
}

/// A "find my board" query read as a pairing number (「12」, 「#12」, 「12号」), if it is one.
fn query_number(q: &str) -> Option<u32> {
    q.trim_start_matches('#')
        .trim_end_matches('号')
        .parse()
        .ok()
}

/// "Find my board": the boards of `sheet` whose player has pairing number `q`, or whose name
/// is `q` (else contains it). Returns board indexes into `sheet.boards`, with the side found
/// (true = red), and whether `q` matched the player on the bye.
pub fn find(sheet: &RoundSheet, q: &str) -> (Vec<(usize, bool)>, bool) {
    let q = q.trim();
    if q.is_empty() {
        return (Vec::new(), false);
    }
    let num = query_number(q);
    let hit = |no: u32, name: &str, exact: bool| match num {
        Some(n) => no == n,
        None if exact => name == q,
        None => name.contains(q),
    };
    for exact in [true, false] {
        let mut out = Vec::new();
        for (i, b) in sheet.boards.iter().enumerate() {
            if hit(b.red.no, &b.red.name, exact) {
                out.push((i, true));
            }
            if hit(b.black.no, &b.black.name, exact) {
                out.push((i, false));
            }
        }
        let bye = sheet
            .bye
            .as_ref()
            .is_some_and(|y| hit(y.no, &y.name, exact));
        if !out.is_empty() || bye || num.is_some() {
            return (out, bye);
        }
    }
    (Vec::new(), false)
}

/// "Find my board" for players not on the round's sheet: the section's players whose
/// pairing number is `q` (else whose name is `q`, else contains it), each with why he has
/// no board this round — excused (本轮请假), withdrawn, disqualified, not paid, or not
/// paired. Number (or 「—」 before the draw), name, reason; nothing personal.
pub fn find_away(
    state: &arbiter_core::EventState,
    l: Lang,
    section: &str,
    round: u32,
    q: &str,
) -> Vec<(String, String, String)> {
    use arbiter_core::PlayerStatus;
    let q = q.trim();
    let Some(sec) = state.section(section) else {
        return Vec::new();
    };
    if q.is_empty() {
        return Vec::new();
    }
    let num = query_number(q);
    let players = || {
        sec.entries
            .iter()
            .filter_map(|&p| state.player(p).map(|r| (p, r)))
    };
    let chosen: Vec<_> = match num {
        Some(n) => players()
            .filter(|(p, _)| sec.pairing_no(*p).is_some_and(|no| no.get() == n))
            .collect(),
        None => {
            let exact: Vec<_> = players().filter(|(_, r)| r.person.name == q).collect();
            if exact.is_empty() {
                players()
                    .filter(|(_, r)| r.person.name.contains(q))
                    .collect()
            } else {
                exact
            }
        }
    };
    chosen
        .into_iter()
        .map(|(p, r)| {
            let why = match state.status(p) {
                Some(PlayerStatus::Disqualified) => {
                    l.t("已取消比赛资格", "disqualified").to_string()
                }
                Some(PlayerStatus::Withdrawn) => match r.withdrawn.flatten() {
                    Some(after) if after > 0 => format!(
                        "{}{after}{}",
                        l.t("已退赛 (第", "withdrawn (after round "),
                        l.t("轮后)", ")")
                    ),
                    _ => l.t("已退赛", "withdrawn").to_string(),
                },
                _ if r.absent.binary_search(&round).is_ok() => {
                    l.t("本轮请假", "excused from this round").to_string()
                }
                Some(PlayerStatus::Unpaid) => l
                    .t("未缴费, 未编排", "fee not paid: not paired")
                    .to_string(),
                _ => l.t("本轮未编排", "not paired this round").to_string(),
            };
            let no = sec
                .pairing_no(p)
                .map_or_else(|| "—".to_string(), |n| n.get().to_string());
            (no, r.person.name.clone(), why)
        })
        .collect()
}

/// The answer to "find my board" for one side of one board.
pub struct Found {
    pub board: u32,
    pub red: bool,
    pub me: (u32, String),
    pub opponent: (u32, String),
}

pub fn found(sheet: &RoundSheet, hits: &[(usize, bool)]) -> Vec<Found> {
    hits.iter()
        .filter_map(|&(i, red)| {
            let b = sheet.boards.get(i)?;
            let (me, opp) = if red {
                (&b.red, &b.black)
            } else {
                (&b.black, &b.red)
            };
            Some(Found {
                board: b.board,
                red,
                me: (me.no, me.name.clone()),
                opponent: (opp.no, opp.name.clone()),
            })
        })
        .collect()
}

/// Names, units and teams of a section by published number.
pub fn names(snap: &Snapshot, section: &str) -> BTreeMap<u32, (String, Option<String>)> {
    let st = &snap.state;
    arbiter_director::publish::publish_numbers(st, section)
        .into_iter()
        .filter_map(|(id, no)| {
            let p = st.player(id)?;
            Some((
                no,
                (
                    p.person.name.clone(),
                    p.person
                        .unit
                        .clone()
                        .or_else(|| p.person.association.clone()),
                ),
            ))
        })
        .collect()
}

/// Whether a game result is in (for progress lines).
pub fn entered(sheet: &RoundSheet) -> usize {
    sheet.boards.iter().filter(|b| b.result.is_some()).count()
}

/// One section of the published export (a 404 naming the section if it has none).
pub fn export_section<'a>(
    e: &'a arbiter_director::Export,
    section: &str,
) -> Result<&'a arbiter_director::export::SectionExport, WebError> {
    e.sections
        .iter()
        .find(|x| x.id == section)
        .ok_or_else(|| WebError::NotFound(format!("组别 「{section}」 (section)")))
}
