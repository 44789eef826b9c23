//! View models of the public pages, built from a snapshot. Only names, units, teams, pairing
//! numbers and results go in: nothing here can carry an ID number or a phone.

use crate::cache::Snapshot;
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_core::PlayerId;
use arbiter_director::api::rounds::RoundSheet;
use arbiter_types::{Colour, Outcome, PlayerNo, Score, ScoringTable};
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
    section_name(snap, section)?;
    let published = snap
        .state
        .section(section)
        .and_then(|s| s.round(round))
        .map(|r| r.published);
    match published {
        None => {
            return Err(WebError::NotFound(format!(
                "{section} 第{round}轮尚未编排 (round {round} is not paired)"
            )))
        }
        Some(false) => {
            return Err(WebError::NotFound(format!(
                "{section} 第{round}轮对阵尚未公布 (round {round} is not published yet)"
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

/// What one round was for one player.
#[derive(Debug, Clone)]
pub struct Cell {
    pub round: u32,
    /// Opponent's number and name (None: bye or not paired).
    pub opponent: Option<(u32, String)>,
    pub colour: Option<Colour>,
    pub board: Option<u32>,
    /// Points scored this round (None: result not in yet).
    pub points: Option<Score>,
    /// Score after this round, counting every result entered so far.
    pub running: Score,
    pub kind: CellKind,
    /// The round counts in the standings (it is completed); a result of a round still being
    /// played is shown, but not yet counted.
    pub counted: bool,
    /// How the game ended (J5), when the arbiter entered it.
    pub ending: Option<arbiter_core::Ending>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    DoubleForfeit,
    Bye,
    /// Not paired this round (absent, withdrawn, late entry).
    Absent,
    /// Paired, result not in yet.
    Pending,
}

impl Cell {
    pub fn colour_label(&self, l: Lang) -> &'static str {
        match self.colour {
            Some(Colour::Red) => l.t("红", "red"),
            Some(Colour::Black) => l.t("黑", "black"),
            None => "",
        }
    }
    pub fn is_red(&self) -> bool {
        self.colour == Some(Colour::Red)
    }
    pub fn result_label(&self, l: Lang) -> &'static str {
        match self.kind {
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
    /// Short form for the crosstable, in the regulation's points: `12红2`, `7黑1`, `5红2+`
    /// (won by forfeit), `轮空2`, `—` (not paired), `12红…` (in play); a result of a round not
    /// yet completed in brackets, `(12红2)` (not yet counted).
    pub fn short(&self, l: Lang) -> String {
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
    pub fn tip(&self, l: Lang) -> String {
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

    /// Not yet counted: a result of a round still being played.
    pub fn uncounted(&self) -> bool {
        !self.counted && !matches!(self.kind, CellKind::Pending | CellKind::Absent)
    }
}

/// A player's rounds.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    pub no: u32,
    pub name: String,
    pub unit: Option<String>,
    pub team: Option<String>,
    pub withdrawn: bool,
    pub cells: Vec<Cell>,
    pub total: Score,
    /// The points the standings count: the rounds completed (the crosstable's total).
    pub counted: Score,
    /// On a board or given a bye in some round: a player never paired (withdrawn before
    /// round 1, a late entry not yet paired) has no row in the crosstable.
    pub paired: bool,
    /// Knockout games: (match label, game, colour, opponent, result label).
    pub knockout: Vec<KoGame>,
}

#[derive(Debug, Clone)]
pub struct KoGame {
    pub label: String,
    pub game: u32,
    pub red: bool,
    pub opponent: (u32, String),
    pub kind: CellKind,
}

/// Every player of a section with every round so far (cached per state).
pub struct SectionHistory {
    pub section: String,
    pub name: String,
    pub rounds: Vec<u32>,
    pub players: Vec<PlayerRow>,
    /// Rounds completed: counted in the standings and the crosstable's totals (第N轮后).
    pub after_round: u32,
    /// The crosstable's legend in the regulation's points (Chinese, English).
    pub legend: (String, String),
}

impl SectionHistory {
    pub fn player(&self, no: u32) -> Option<&PlayerRow> {
        self.players.iter().find(|p| p.no == no)
    }
}

fn kind_of(o: &Outcome) -> CellKind {
    use arbiter_types::PlayerResult;
    match o {
        Outcome::Game { result, .. } => match result {
            PlayerResult::Win => CellKind::Win,
            PlayerResult::Draw => CellKind::Draw,
            PlayerResult::Loss => CellKind::Loss,
        },
        Outcome::ForfeitWin { .. } => CellKind::ForfeitWin,
        Outcome::ForfeitLoss { .. } => CellKind::ForfeitLoss,
        Outcome::DoubleForfeit { .. } => CellKind::DoubleForfeit,
        Outcome::Bye | Outcome::FullBye | Outcome::HalfBye => CellKind::Bye,
        Outcome::Absent => CellKind::Absent,
    }
}

pub fn history(snap: &Snapshot, section: &str) -> Result<Arc<SectionHistory>, WebError> {
    let name = section_name(snap, section)?;
    snap.memo(&format!("history/{section}"), || {
        let st = &snap.state;
        let rec = st
            .section(section)
            .ok_or_else(|| WebError::NotFound(section.to_string()))?;
        let reg =
            arbiter_director::regulation_of(st).map_err(|e| WebError::Internal(e.to_string()))?;
        let table: ScoringTable = reg
            .section(section)
            .map(|s| s.scoring.table)
            .unwrap_or_default();
        let nos = arbiter_director::publish::publish_numbers(st, section);
        let no = |p: PlayerId| nos.get(&p).copied().unwrap_or(0);
        let name_of = |p: PlayerId| st.player(p).map(|x| x.name.clone()).unwrap_or_default();
        let mut rows: BTreeMap<PlayerId, PlayerRow> = st
            .players(section)
            .into_iter()
            .map(|p| {
                (
                    p.id,
                    PlayerRow {
                        no: no(p.id),
                        name: p.name.clone(),
                        unit: p.unit.clone().or_else(|| p.association.clone()),
                        team: p.team.clone(),
                        withdrawn: p.withdrawn.is_some(),
                        cells: Vec::new(),
                        total: Score::ZERO,
                        counted: Score::ZERO,
                        paired: false,
                        knockout: Vec::new(),
                    },
                )
            })
            .collect();
        let rounds: Vec<u32> = rec.rounds.keys().copied().collect();
        let after_round = rec.completed_rounds();
        for r in rec.rounds.values() {
            let counted = r.round <= after_round;
            let mut seen = std::collections::BTreeSet::new();
            for b in &r.boards {
                for (me, opp, colour) in [
                    (b.red, b.black, Colour::Red),
                    (b.black, b.red, Colour::Black),
                ] {
                    seen.insert(me);
                    let Some(row) = rows.get_mut(&me) else {
                        continue;
                    };
                    let opp_no = PlayerNo::new(no(opp)).unwrap_or(PlayerNo::from_index(0));
                    let (kind, points) = match b.result {
                        Some(res) => {
                            let o = res.outcome_for(colour, opp_no);
                            (kind_of(&o), Some(o.points(&table)))
                        }
                        None => (CellKind::Pending, None),
                    };
                    row.total += points.unwrap_or(Score::ZERO);
                    if counted {
                        row.counted += points.unwrap_or(Score::ZERO);
                    }
                    row.paired = true;
                    row.cells.push(Cell {
                        round: r.round,
                        opponent: Some((no(opp), name_of(opp))),
                        colour: Some(colour),
                        board: Some(b.board),
                        points,
                        running: row.total,
                        kind,
                        counted,
                        ending: b.result.and(b.ending),
                    });
                }
            }
            for p in &r.byes {
                seen.insert(*p);
                let Some(row) = rows.get_mut(p) else { continue };
                let pts = Outcome::Bye.points(&table);
                row.total += pts;
                if counted {
                    row.counted += pts;
                }
                row.paired = true;
                row.cells.push(Cell {
                    round: r.round,
                    opponent: None,
                    colour: None,
                    board: None,
                    points: Some(pts),
                    running: row.total,
                    kind: CellKind::Bye,
                    counted,
                    ending: None,
                });
            }
            for (id, row) in rows.iter_mut() {
                if !seen.contains(id) {
                    row.cells.push(Cell {
                        round: r.round,
                        opponent: None,
                        colour: None,
                        board: None,
                        points: Some(Outcome::Absent.points(&table)),
                        running: row.total,
                        kind: CellKind::Absent,
                        counted,
                        ending: None,
                    });
                }
            }
        }
        let bracket = arbiter_director::knockout_stage::bracket(&reg, st, section).ok();
        for g in &rec.knockout {
            let label = bracket
                .as_ref()
                .and_then(|b| b.get(&g.match_id))
                .map_or(g.match_id.clone(), |m| m.label_zh());
            for (me, opp, colour) in [
                (g.red, g.black, Colour::Red),
                (g.black, g.red, Colour::Black),
            ] {
                let Some(row) = rows.get_mut(&me) else {
                    continue;
                };
                let opp_no = PlayerNo::new(no(opp)).unwrap_or(PlayerNo::from_index(0));
                row.knockout.push(KoGame {
                    label: label.clone(),
                    game: g.game,
                    red: colour == Colour::Red,
                    opponent: (no(opp), name_of(opp)),
                    kind: kind_of(&g.result.outcome_for(colour, opp_no)),
                });
            }
        }
        let mut players: Vec<PlayerRow> = rows.into_values().collect();
        players.sort_by_key(|p| p.no);
        Ok(SectionHistory {
            section: section.to_string(),
            name,
            rounds,
            players,
            after_round,
            legend: (
                arbiter_director::crosstable::legend(&table, true),
                arbiter_director::crosstable::legend(&table, false),
            ),
        })
    })
}

/// "Find my board": the boards of `sheet` whose player has pairing number `q`, or whose name
/// is `q` (else contains it). Returns board indexes into `sheet.boards`, with the side found
/// (true = red), and whether `q` matched the player on the bye.
pub fn find(sheet: &RoundSheet, q: &str) -> (Vec<(usize, bool)>, bool) {
    let q = q.trim();
    if q.is_empty() {
        return (Vec::new(), false);
    }
    let num: Option<u32> = q
        .trim_start_matches('#')
        .trim_end_matches('号')
        .parse()
        .ok();
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
                    p.name.clone(),
                    p.unit.clone().or_else(|| p.association.clone()),
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
