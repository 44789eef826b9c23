//! Knockout brackets of 2 to [`MAX_PLAYERS`] (1,024) players seeded from a ranking, in the
//! next power of two with byes to the top seeds: single elimination, with a 3rd-place match,
//! or a full placement bracket (定位表) that decides every place.

use crate::format::MatchFormat;
use crate::game_match::{Match, MatchSettings, NextGame};
use crate::KnockoutError;
use arbiter_types::{Colour, GameResult, PlayerNo};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The most players a bracket takes (a bracket of 1,024: ten rounds). A plain knockout
/// section of a regulation is refused above it (`arbiter_regulation::MAX_BRACKET`).
pub const MAX_PLAYERS: usize = 1024;

/// Which places a bracket decides by games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BracketKind {
    /// Only the winner advances; losers of a round share a place (SF losers 3rd, …).
    SingleElimination,
    /// Single elimination plus a match between the semi-final losers for 3rd place.
    ThirdPlace,
    /// 定位表: losers play on too, so every place is decided by games.
    Placement,
    /// 同名次决赛: seeds 1–2 play for places 1–2, seeds 3–4 for places 3–4, … — one round of
    /// independent matches (the same places of two groups, A1–B1, A2–B2, …).
    SamePlace,
}

impl BracketKind {
    pub fn zh(self) -> &'static str {
        match self {
            BracketKind::SingleElimination => "单淘汰",
            BracketKind::ThirdPlace => "单淘汰(含三四名)",
            BracketKind::Placement => "定位赛",
            BracketKind::SamePlace => "同名次决赛",
        }
    }

    /// Whether the group of `size` players competing for places `first..first+size` plays.
    fn plays(self, first: u32, size: u32) -> bool {
        match self {
            BracketKind::Placement | BracketKind::SamePlace => true,
            BracketKind::SingleElimination => first == 1,
            BracketKind::ThirdPlace => first == 1 || (first == 3 && size == 2),
        }
    }
}

/// Where a side of a bracket match comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Seed number (1 = first of the ranking); a seed beyond the field is a bye.
    Seed(u32),
    /// The winner of the match at this index of [`Bracket::matches`].
    Winner(usize),
    /// The loser of the match at this index.
    Loser(usize),
}

/// A side of a bracket match as far as known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Decided by a match not yet finished.
    Pending,
    /// Nobody (a bye, or the loser of a walkover).
    Absent,
    Player(PlayerNo),
}

/// The state of one bracket match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchState {
    /// A side is still pending.
    Waiting,
    /// At most one player: advances without games (`None` when both sides are absent).
    Walkover { winner: Option<PlayerNo> },
    /// Both players known: the match is played (finished once decided).
    Playing(Match),
}

/// One match of a bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BracketMatch {
    /// Stable id: "F", "SF1", "QF3", "R16-5", "P3", "P5-SF1", …
    pub id: String,
    /// 1-based round.
    pub round: usize,
    /// The best place its group competes for.
    pub first_place: u32,
    /// How many places its group competes for (2 for a final or placement match).
    pub group_size: u32,
    pub sources: [Source; 2],
    pub state: MatchState,
}

impl BracketMatch {
    /// Both players known and the match not decided: its next game can be played now.
    pub fn is_ready(&self) -> bool {
        matches!(&self.state, MatchState::Playing(g) if !g.is_decided())
    }

    pub fn is_finished(&self) -> bool {
        match &self.state {
            MatchState::Waiting => false,
            MatchState::Walkover { .. } => true,
            MatchState::Playing(m) => m.is_decided(),
        }
    }

    /// Chinese label: 决赛, 三四名, 半决赛, 五至八名半决赛, …
    pub fn label_zh(&self) -> String {
        let p = self.first_place;
        let m = self.group_size;
        if m == 2 {
            return if p == 1 {
                "决赛".into()
            } else {
                format!("{}{}名", zh_num(p), zh_num(p + 1))
            };
        }
        let stage = match m {
            4 => "半决赛".to_string(),
            8 => "四分之一决赛".to_string(),
            _ => format!("{}分之一决赛", zh_num(m / 2)),
        };
        if p == 1 {
            stage
        } else {
            format!("{}至{}名{}", zh_num(p), zh_num(p + m - 1), stage)
        }
    }
}

/// Chinese numeral (小写) for 0..=9999: 三, 十六, 一百零五, 一百一十二, 一千零二十四;
/// larger numbers in Arabic digits.
pub fn zh_num(n: u32) -> String {
    const D: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    if n >= 10_000 {
        return n.to_string();
    }
    if n < 10 {
        return D[n as usize].to_string();
    }
    if n < 100 {
        // 十, 十六, 二十, 二十三: no leading 一 before 十.
        let (t, d) = ((n / 10) as usize, (n % 10) as usize);
        let tens = if t == 1 {
            "十".to_string()
        } else {
            format!("{}十", D[t])
        };
        return if d == 0 {
            tens
        } else {
            format!("{tens}{}", D[d])
        };
    }
    // 100..=9999: 千, 百, 十 with one 零 for each run of missing digits before a non-zero one.
    let digits = [n / 1000, n / 100 % 10, n / 10 % 10, n % 10];
    let units = ["千", "百", "十", ""];
    let mut out = String::new();
    let mut zero = false;
    for (i, &d) in digits.iter().enumerate() {
        if d == 0 {
            if !out.is_empty() {
                zero = true;
            }
            continue;
        }
        if zero {
            out.push('零');
            zero = false;
        }
        out.push_str(D[d as usize]);
        out.push_str(units[i]);
    }
    out
}

/// Seed order of the first round for a bracket of `size` (a power of two ≥ 2): consecutive
/// pairs meet. For 8: 1–8, 5–4, 3–6, 7–2, so the semi-finals are W(1–8) v W(4–5) and
/// W(3–6) v W(2–7).
pub fn seed_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32, 2];
    while (order.len() as u32) < size {
        let m = order.len() as u32 * 2;
        order = order
            .iter()
            .enumerate()
            .flat_map(|(i, &s)| {
                if i & 1 == 0 {
                    [s, m + 1 - s]
                } else {
                    [m + 1 - s, s]
                }
            })
            .collect();
    }
    order.truncate(size.max(2) as usize);
    order
}

fn match_id(first: u32, size: u32, i: usize) -> String {
    if size == 2 {
        return if first == 1 {
            "F".into()
        } else {
            format!("P{first}")
        };
    }
    let stage = match size {
        4 => format!("SF{i}"),
        8 => format!("QF{i}"),
        _ => format!("R{size}-{i}"),
    };
    if first == 1 {
        stage
    } else {
        format!("P{first}-{stage}")
    }
}

/// A knockout bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    kind: BracketKind,
    /// The ranking: seed 1 first.
    ranking: Vec<PlayerNo>,
    size: u32,
    format: MatchFormat,
    settings: MatchSettings,
    matches: Vec<BracketMatch>,
    /// Groups that play no games: their players share the group's first place.
    shared: Vec<(u32, Vec<Source>)>,
    /// Lookups derived from the fields above, built on first use (not serialised).
    #[serde(skip)]
    lookup: Lookup,
}

/// Indexes of a bracket: a match by id, a player's seed, the matches fed by each match. A
/// replay of a bracket of 1,024 records thousands of games; without them every game would
/// scan every match.
#[derive(Debug, Clone, Default)]
struct Lookup(std::sync::OnceLock<Indexes>);

#[derive(Debug, Clone)]
struct Indexes {
    by_id: HashMap<String, usize>,
    seed: HashMap<PlayerNo, u32>,
    /// The matches whose sources name match i (its winner or its loser).
    fed: Vec<Vec<usize>>,
    /// The board of match i within its round ([`Bracket::board`]).
    boards: Vec<Option<u32>>,
    /// `boards` inverted: (round, board) → match.
    on_board: HashMap<(usize, u32), usize>,
}

/// Derived data never makes two brackets differ.
impl PartialEq for Lookup {
    fn eq(&self, _: &Lookup) -> bool {
        true
    }
}
impl Eq for Lookup {}

impl Bracket {
    /// A bracket for `ranking` (seed 1 first, 2 to [`MAX_PLAYERS`] players) in the smallest
    /// power-of-two size; missing seeds are byes, so the top seeds advance without playing.
    pub fn new(
        kind: BracketKind,
        ranking: Vec<PlayerNo>,
        format: MatchFormat,
        settings: MatchSettings,
    ) -> Result<Bracket, KnockoutError> {
        let n = ranking.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(KnockoutError::FieldSize(n));
        }
        let mut sorted = ranking.clone();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(KnockoutError::DuplicatePlayer(w[0]));
        }
        format.validate()?;
        if kind == BracketKind::SamePlace {
            return Bracket::same_place(ranking, format, settings);
        }
        let size = (n as u32).next_power_of_two();
        let mut matches = Vec::new();
        let mut shared = Vec::new();
        let mut groups: Vec<(u32, Vec<Source>)> =
            vec![(1, seed_order(size).into_iter().map(Source::Seed).collect())];
        let mut round = 1;
        while !groups.is_empty() {
            let mut next = Vec::new();
            for (first, sources) in groups {
                let gsize = sources.len() as u32;
                if !kind.plays(first, gsize) {
                    shared.push((first, sources));
                    continue;
                }
                let mut winners = Vec::new();
                let mut losers = Vec::new();
                for (i, pair) in sources.chunks(2).enumerate() {
                    let idx = matches.len();
                    matches.push(BracketMatch {
                        id: match_id(first, gsize, i + 1),
                        round,
                        first_place: first,
                        group_size: gsize,
                        sources: [pair[0], pair[1]],
                        state: MatchState::Waiting,
                    });
                    winners.push(Source::Winner(idx));
                    losers.push(Source::Loser(idx));
                }
                if gsize > 2 {
                    next.push((first, winners));
                    next.push((first + gsize / 2, losers));
                }
            }
            groups = next;
            round += 1;
        }
        let mut b = Bracket {
            kind,
            ranking,
            size,
            format,
            settings,
            matches,
            shared,
            lookup: Lookup::default(),
        };
        b.resolve()?;
        Ok(b)
    }

    /// The same-place finals of `ranking` (an even number of players): seeds 2i−1 and 2i
    /// play one match for places 2i−1 and 2i.
    fn same_place(
        ranking: Vec<PlayerNo>,
        format: MatchFormat,
        settings: MatchSettings,
    ) -> Result<Bracket, KnockoutError> {
        let n = ranking.len();
        if !n.is_multiple_of(2) {
            return Err(KnockoutError::FieldSize(n));
        }
        let matches = (0..n as u32 / 2)
            .map(|i| {
                let first = 2 * i + 1;
                BracketMatch {
                    id: match_id(first, 2, 1),
                    round: 1,
                    first_place: first,
                    group_size: 2,
                    sources: [Source::Seed(first), Source::Seed(first + 1)],
                    state: MatchState::Waiting,
                }
            })
            .collect();
        let mut b = Bracket {
            kind: BracketKind::SamePlace,
            ranking,
            size: n as u32,
            format,
            settings,
            matches,
            shared: Vec::new(),
            lookup: Lookup::default(),
        };
        b.resolve()?;
        Ok(b)
    }

    /// The match format every match of the bracket plays.
    pub fn format(&self) -> &MatchFormat {
        &self.format
    }

    fn indexes(&self) -> &Indexes {
        self.lookup.0.get_or_init(|| {
            let mut fed = vec![Vec::new(); self.matches.len()];
            for (j, m) in self.matches.iter().enumerate() {
                for s in m.sources {
                    if let Source::Winner(i) | Source::Loser(i) = s {
                        if let Some(f) = fed.get_mut(i) {
                            f.push(j);
                        }
                    }
                }
            }
            // Which sources can never be a player (a seed beyond the field, the loser of a
            // match with a bye, the winner of a match of two byes): sources name earlier
            // matches, so one pass in order settles them.
            let mut no_winner = vec![false; self.matches.len()];
            let mut no_loser = vec![false; self.matches.len()];
            let never = |s: Source, nw: &[bool], nl: &[bool]| match s {
                Source::Seed(k) => k == 0 || k as usize > self.ranking.len(),
                Source::Winner(i) => nw.get(i).copied().unwrap_or(true),
                Source::Loser(i) => nl.get(i).copied().unwrap_or(true),
            };
            let mut boards = vec![None; self.matches.len()];
            let mut next_board: HashMap<usize, u32> = HashMap::new();
            for (j, m) in self.matches.iter().enumerate() {
                let [a, b] = m.sources.map(|s| never(s, &no_winner, &no_loser));
                no_winner[j] = a && b;
                no_loser[j] = a || b;
                if !(a || b) {
                    let n = next_board.entry(m.round).or_insert(0);
                    *n += 1;
                    boards[j] = Some(*n);
                }
            }
            let on_board = boards
                .iter()
                .enumerate()
                .filter_map(|(j, b)| Some(((self.matches[j].round, (*b)?), j)))
                .collect();
            Indexes {
                on_board,
                boards,
                by_id: self
                    .matches
                    .iter()
                    .enumerate()
                    .map(|(i, m)| (m.id.clone(), i))
                    .collect(),
                seed: self
                    .ranking
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (p, i as u32 + 1))
                    .collect(),
                fed,
            }
        })
    }

    /// The index of match `id` in [`Bracket::matches`].
    fn index_of(&self, id: &str) -> Option<usize> {
        self.indexes().by_id.get(id).copied()
    }

    pub fn kind(&self) -> BracketKind {
        self.kind
    }
    pub fn size(&self) -> u32 {
        self.size
    }
    pub fn ranking(&self) -> &[PlayerNo] {
        &self.ranking
    }
    pub fn matches(&self) -> &[BracketMatch] {
        &self.matches
    }
    /// Number of rounds.
    pub fn rounds(&self) -> usize {
        // Matches are made round by round: the last is in the last round.
        self.matches.last().map_or(0, |m| m.round)
    }
    /// The matches of round `round` (1-based).
    pub fn round(&self, round: usize) -> Vec<&BracketMatch> {
        self.matches.iter().filter(|m| m.round == round).collect()
    }
    /// The seed (1-based) of a player.
    pub fn seed_of(&self, p: PlayerNo) -> Option<u32> {
        self.indexes().seed.get(&p).copied()
    }
    /// The board of match `id` within its round: the matches of the round that are played
    /// (neither side a bye by the draw) numbered 1…N in bracket order; `None` for a match
    /// with a bye, or an unknown id. Stable from the draw on: it depends on the field's size
    /// only, never on results.
    pub fn board(&self, id: &str) -> Option<u32> {
        self.index_of(id)
            .and_then(|i| self.indexes().boards.get(i).copied().flatten())
    }
    /// The most boards one round of the bracket plays ([`Bracket::board`]): the knockout
    /// sits on boards 1…N in the hall, so a Swiss played beside it starts after them.
    pub fn boards(&self) -> u32 {
        self.indexes()
            .boards
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
    }
    /// The match played on `board` of round `round` ([`Bracket::board`] inverted).
    pub fn on_board(&self, round: usize, board: u32) -> Option<&BracketMatch> {
        self.indexes()
            .on_board
            .get(&(round, board))
            .and_then(|&i| self.matches.get(i))
    }
    pub fn get(&self, id: &str) -> Option<&BracketMatch> {
        self.index_of(id).and_then(|i| self.matches.get(i))
    }

    /// What a source stands for now.
    pub fn side(&self, s: Source) -> Side {
        let finished = |j: usize, want_winner: bool| match self.matches.get(j).map(|m| &m.state) {
            None | Some(MatchState::Waiting) => Side::Pending,
            Some(MatchState::Walkover { winner }) => match (want_winner, winner) {
                (true, Some(p)) => Side::Player(*p),
                _ => Side::Absent,
            },
            Some(MatchState::Playing(m)) => {
                let p = if want_winner { m.winner() } else { m.loser() };
                p.map_or(Side::Pending, Side::Player)
            }
        };
        match s {
            Source::Seed(k) => match self.ranking.get((k as usize).wrapping_sub(1)) {
                Some(&p) => Side::Player(p),
                None => Side::Absent,
            },
            Source::Winner(j) => finished(j, true),
            Source::Loser(j) => finished(j, false),
        }
    }

    /// Starts every waiting match whose sides are known, in order. A match's sources always
    /// name earlier matches, so one pass settles walkovers in a chain.
    fn resolve(&mut self) -> Result<(), KnockoutError> {
        for i in 0..self.matches.len() {
            self.start(i)?;
        }
        Ok(())
    }

    /// After match `i` is decided: starts the matches it feeds, and on through the walkovers
    /// that follow — only the matches that can change, not the whole bracket.
    fn resolve_after(&mut self, i: usize) -> Result<(), KnockoutError> {
        let mut todo: std::collections::BTreeSet<usize> = self
            .indexes()
            .fed
            .get(i)
            .into_iter()
            .flatten()
            .copied()
            .collect();
        while let Some(j) = todo.pop_first() {
            if self.start(j)? {
                todo.extend(self.indexes().fed.get(j).into_iter().flatten().copied());
            }
        }
        Ok(())
    }

    /// Starts match `i` if it waits and both sides are known; true if it is a walkover (so
    /// decided at once).
    fn start(&mut self, i: usize) -> Result<bool, KnockoutError> {
        if self
            .matches
            .get(i)
            .is_none_or(|m| m.state != MatchState::Waiting)
        {
            return Ok(false);
        }
        let [a, b] = self.matches[i].sources;
        let state = match (self.side(a), self.side(b)) {
            (Side::Pending, _) | (_, Side::Pending) => return Ok(false),
            (Side::Player(x), Side::Player(y)) => {
                let (high, low) = if self.seed_of(x) <= self.seed_of(y) {
                    (x, y)
                } else {
                    (y, x)
                };
                let settings = MatchSettings {
                    lot_seed: self
                        .settings
                        .lot_seed
                        .wrapping_add((i as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D)),
                    ..self.settings
                };
                MatchState::Playing(Match::new(self.format.clone(), settings, high, low)?)
            }
            (Side::Player(x), Side::Absent) | (Side::Absent, Side::Player(x)) => {
                MatchState::Walkover { winner: Some(x) }
            }
            (Side::Absent, Side::Absent) => MatchState::Walkover { winner: None },
        };
        let walkover = matches!(state, MatchState::Walkover { .. });
        self.matches[i].state = state;
        Ok(walkover)
    }

    fn playing_mut(&mut self, id: &str) -> Result<&mut Match, KnockoutError> {
        let i = self
            .index_of(id)
            .ok_or_else(|| KnockoutError::UnknownMatch(id.to_string()))?;
        let m = &mut self.matches[i];
        match &mut m.state {
            MatchState::Playing(g) => Ok(g),
            MatchState::Waiting => Err(KnockoutError::MatchNotReady(id.to_string())),
            MatchState::Walkover { .. } => Err(KnockoutError::MatchDecided),
        }
    }

    /// Ids of the matches that can be played now (both players known, not decided).
    pub fn ready(&self) -> Vec<&str> {
        self.matches
            .iter()
            .filter(|m| m.is_ready())
            .map(|m| m.id.as_str())
            .collect()
    }

    /// The next game of match `id` (`None` when decided).
    pub fn next_game(&self, id: &str) -> Result<Option<NextGame>, KnockoutError> {
        let m = self
            .get(id)
            .ok_or_else(|| KnockoutError::UnknownMatch(id.to_string()))?;
        match &m.state {
            MatchState::Playing(g) => Ok(g.next_game()),
            MatchState::Waiting => Err(KnockoutError::MatchNotReady(id.to_string())),
            MatchState::Walkover { .. } => Ok(None),
        }
    }

    /// Records the chooser's colour for the next game of match `id`.
    pub fn choose_colour(
        &mut self,
        id: &str,
        player: PlayerNo,
        colour: Colour,
    ) -> Result<(), KnockoutError> {
        self.playing_mut(id)?.choose_colour(player, colour)
    }

    /// Records game `index` of match `id`; a decided match advances its winner and loser.
    pub fn record(
        &mut self,
        id: &str,
        index: usize,
        result: GameResult,
    ) -> Result<(), KnockoutError> {
        let m = self.playing_mut(id)?;
        m.record_game(index, result)?;
        if !m.is_decided() {
            return Ok(());
        }
        match self.index_of(id) {
            Some(i) => self.resolve_after(i),
            None => Ok(()),
        }
    }

    pub fn is_complete(&self) -> bool {
        self.matches.iter().all(BracketMatch::is_finished)
    }

    /// Final places once complete, best first: (place, player). Places are decided by games
    /// in a placement bracket; otherwise the losers of a round share a place (1, 2, 3, 3, 5,
    /// 5, 5, 5). Places freed by byes are closed up, so the places of n players run from 1.
    pub fn places(&self) -> Option<Vec<(u32, PlayerNo)>> {
        if !self.is_complete() {
            return None;
        }
        let mut nominal: Vec<(u32, PlayerNo)> = Vec::new();
        for (idx, m) in self
            .matches
            .iter()
            .enumerate()
            .filter(|(_, m)| m.group_size == 2)
        {
            if let Side::Player(w) = self.side(Source::Winner(idx)) {
                nominal.push((m.first_place, w));
            }
            if let Side::Player(l) = self.side(Source::Loser(idx)) {
                nominal.push((m.first_place + 1, l));
            }
        }
        for (first, sources) in &self.shared {
            for s in sources {
                if let Side::Player(p) = self.side(*s) {
                    nominal.push((*first, p));
                }
            }
        }
        // A player's place: 1 + how many players have a better nominal place.
        let mut better: Vec<u32> = nominal.iter().map(|&(q, _)| q).collect();
        better.sort_unstable();
        let mut out: Vec<(u32, PlayerNo)> = nominal
            .iter()
            .map(|&(place, p)| (1 + better.partition_point(|&q| q < place) as u32, p))
            .collect();
        out.sort_by_key(|&(place, p)| (place, self.seed_of(p)));
        Some(out)
    }

    /// Like [`Bracket::places`], but players sharing a place are separated by their seed
    /// (stage-1 rank), giving places 1..=n (rules.md §6.3 option (b)).
    pub fn places_split_by_seed(&self) -> Option<Vec<(u32, PlayerNo)>> {
        let places = self.places()?;
        Some(
            places
                .into_iter()
                .enumerate()
                .map(|(i, (_, p))| (i as u32 + 1, p))
                .collect(),
        )
    }
}
