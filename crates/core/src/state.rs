//! The state of an event: a deterministic fold over its log. [`EventState::apply`] checks an
//! entry ([`validate_at`]) and hands it to the fold of its family (`family/lifecycle.rs`,
//! `registration.rs`, `teams.rs`, `rounds.rs`, `results.rs`, `knockout.rs`), where it is
//! folded beside the rules it was checked by.

use crate::entry::*;
use crate::family::{
    knockout, lifecycle, matches, records, registration, results, rounds, teams, Family,
};
use crate::validate::{validate_at, Rejection};
use arbiter_types::{GameKind, GameResult, IdNumber, Outcome, Person, PlayerNo};
use chrono::NaiveDate;
use imbl::OrdMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What `EventCreated` declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventHeader {
    pub name: String,
    pub file_name: String,
    pub regulation: String,
    pub seed: u64,
    pub limits: EntryLimits,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerStatus {
    Active,
    /// 未缴费: the event has a fee and it is not paid; not paired (T7).
    Unpaid,
    /// 退赛: keeps past results (A5).
    Withdrawn,
    /// 取消比赛资格 (A17): not paired, no place, prize or title.
    Disqualified,
}

impl PlayerStatus {
    pub fn zh(self) -> &'static str {
        match self {
            PlayerStatus::Active => "正常",
            PlayerStatus::Unpaid => "未缴费",
            PlayerStatus::Withdrawn => "退赛",
            PlayerStatus::Disqualified => "取消比赛资格",
        }
    }

    /// Out of the event: withdrawn or disqualified (never paired again).
    pub fn is_out(self) -> bool {
        matches!(self, PlayerStatus::Withdrawn | PlayerStatus::Disqualified)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Foul {
    pub round: Option<u32>,
    /// The board (game) of `round`, when the foul was tied to one.
    #[serde(default)]
    pub board: Option<u32>,
    #[serde(default)]
    pub kind: FoulKind,
    pub reason: String,
    pub seq: u64,
    /// A foul in a knockout game (`knockout_game_recorded`): the match id and the game's
    /// index in the match; `round` and `board` are then empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockout: Option<(String, u32)>,
}

/// A player's foul in one game, kept on the board in recorded order (per-game limits).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFoulRecord {
    pub player: PlayerId,
    pub kind: FoulKind,
    pub reason: String,
    pub seq: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub id: PlayerId,
    pub section: String,
    /// Name and particulars as registered and corrected since.
    pub person: Person,
    pub team: Option<String>,
    pub evidence: Vec<String>,
    pub local: bool,
    pub rating: Option<u32>,
    /// 段位/称号, as the regulation's scale names it.
    #[serde(default)]
    pub grade: Option<String>,
    /// Eligibility flags of the entry form (`group_member`, `national_master`, …).
    #[serde(default)]
    pub flags: Vec<String>,
    pub paid_fen: u64,
    /// What he paid and was refunded, per money item of the regulation (「报名费」, 「押金」).
    #[serde(default)]
    pub money: BTreeMap<String, ItemMoney>,
    /// The deposits' refund conditions the organiser has marked for him (「完成全部对局」).
    #[serde(default)]
    pub conditions: std::collections::BTreeSet<String>,
    pub checked_in: bool,
    /// He signed the regulation's pledge at check-in (T7).
    #[serde(default)]
    pub pledge_signed: bool,
    /// `Some(after_round)` once withdrawn.
    pub withdrawn: Option<Option<u32>>,
    pub withdrawal_reason: Option<String>,
    /// The withdrawal followed from the forfeit rule (A16): a correction that removes the
    /// forfeits undoes it.
    #[serde(default)]
    pub withdrawn_by_forfeits: bool,
    /// The forfeit rule counts only the rounds after this one (the chief arbiter reinstated
    /// him after it, A16); 0: every round.
    #[serde(default)]
    pub forfeits_count_after: u32,
    /// (seq, reason) of every reinstatement (恢复参赛).
    #[serde(default)]
    pub reinstatements: Vec<(u64, String)>,
    /// The chief arbiter's disqualification in force (取消比赛资格, A17).
    #[serde(default)]
    pub disqualified: Option<Disqualification>,
    /// (seq, reason) of every correction of the registration.
    pub corrections: Vec<(u64, String)>,
    pub fouls: Vec<Foul>,
    /// Rounds the player is excused from (请假, `player_absent`), ascending.
    #[serde(default)]
    pub absent: Vec<u32>,
}

/// A disqualification in force (A17): the reason, the last completed round whose games
/// stand, and whether his results are void (成绩作废).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disqualification {
    pub reason: String,
    pub after_round: Option<u32>,
    pub void_results: bool,
}

/// The result board `b` of round `round` counts with, its players' disqualifications in
/// force being `red` and `black` ([`EventState::counted_result`]).
fn counted(
    round: u32,
    b: &BoardRecord,
    red: Option<&Disqualification>,
    black: Option<&Disqualification>,
) -> Option<GameResult> {
    let out = |d: Option<&Disqualification>| d.is_some_and(|d| d.forfeits(round));
    match (out(red), out(black)) {
        (false, false) => b.result,
        _ if b.result.is_none() => None,
        (true, true) => Some(GameResult::DoubleForfeit),
        (true, false) => Some(GameResult::RedForfeit),
        (false, true) => Some(GameResult::BlackForfeit),
    }
}

impl Disqualification {
    /// Whether his game of round `round` counts as his forfeit: every game when his results
    /// are void, otherwise the games after `after_round`.
    pub fn forfeits(&self, round: u32) -> bool {
        self.void_results || round > self.after_round.unwrap_or(0)
    }
}

/// One player's money of one item: paid (less what was cancelled) and refunded, fen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemMoney {
    pub paid_fen: u64,
    pub refunded_fen: u64,
}

impl ItemMoney {
    /// What is held of it: paid and not refunded.
    pub fn held_fen(&self) -> u64 {
        self.paid_fen.saturating_sub(self.refunded_fen)
    }
}

/// What a category or a money item can test about a registered player (S1, T1): birth date,
/// sex, and the flags of the entry — the form's flags, the evidence given, and `local`.
pub fn entry_facts(p: &PlayerRecord) -> arbiter_regulation::EntryFacts {
    let mut flags: std::collections::BTreeSet<String> =
        p.flags.iter().chain(&p.evidence).cloned().collect();
    if p.local {
        flags.insert("local".into());
    }
    arbiter_regulation::EntryFacts {
        birth_date: p.person.birth_date,
        sex: p.person.sex,
        flags,
        ..arbiter_regulation::EntryFacts::default()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedEntry {
    pub seq: u64,
    pub name: String,
    pub section: String,
    pub reason: String,
    pub id_number: Option<IdNumber>,
    pub unit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRecord {
    pub team: String,
    pub unit: String,
    /// The section of the team's members (None for a team without members).
    #[serde(default)]
    pub section: Option<String>,
    /// Division id within the section (`"a"` = 甲组), or a section id in older logs.
    pub division: Option<String>,
    pub members: Vec<PlayerId>,
    pub leader: Option<String>,
    pub coach: Option<String>,
    pub fouls: Vec<Foul>,
}

/// One change of a board's result, in log order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResultChange {
    Entered {
        seq: u64,
        result: GameResult,
    },
    Confirmed {
        seq: u64,
        signed_by: Vec<String>,
    },
    Corrected {
        seq: u64,
        result: GameResult,
        reason: String,
        by: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRecord {
    pub board: u32,
    pub red: PlayerId,
    pub black: PlayerId,
    pub result: Option<GameResult>,
    pub ending: Option<Ending>,
    pub moves: Option<u32>,
    pub confirmed: bool,
    /// True once a correction changed the result (A12: standings show it).
    pub corrected: bool,
    pub history: Vec<ResultChange>,
    /// Fouls tied to this game, in recorded order.
    #[serde(default)]
    pub fouls: Vec<GameFoulRecord>,
    /// Played with the colours the other way round (S6, `colours_played`): `red` and `black`
    /// above are the colours played.
    #[serde(default)]
    pub colours_swapped: bool,
    /// The flags the arbiter decided on this game (`foul_flag_decided`): kind, confirmed.
    #[serde(default)]
    pub flags_decided: Vec<(FoulKind, bool)>,
    /// Protests decided on this game (S11), in order.
    #[serde(default)]
    pub protests: Vec<Protest>,
    /// The game record (记谱, `game_recorded`): the last one entered, unless removed.
    #[serde(default)]
    pub record: Option<GameRecord>,
    /// The players' own claims of the result (`result_claimed`), in the order made; a side's
    /// later claim stands over its earlier one ([`BoardRecord::claim`]).
    #[serde(default)]
    pub claims: Vec<ResultClaim>,
}

/// A player's claim of his board's result, made on his phone (`result_claimed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultClaim {
    /// The colour the claiming player played.
    pub side: arbiter_types::Colour,
    pub result: GameResult,
    pub seq: u64,
}

impl BoardRecord {
    /// The standing claim of `side` (its last), if it made one.
    pub fn claim(&self, side: arbiter_types::Colour) -> Option<ResultClaim> {
        self.claims.iter().rev().find(|c| c.side == side).copied()
    }
}

/// A board's game record as folded: the moves (ICCS, from the start position) and what the
/// rules read from them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub moves: Vec<String>,
    /// Full moves (回合): red's and black's move count as one, red's last alone as one.
    pub full_moves: u32,
    pub source: crate::entry::RecordSource,
    pub recorded_by: Option<String>,
    /// How the final position decides the game, if it does (mate, stalemate 困毙).
    pub end: Option<RecordEnd>,
    pub seq: u64,
}

/// A final position that decides the game: the side to move is mated or stalemated (困毙),
/// and has lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordEnd {
    Checkmate { winner: arbiter_types::Colour },
    Stalemate { winner: arbiter_types::Colour },
}

impl RecordEnd {
    pub fn winner(self) -> arbiter_types::Colour {
        match self {
            RecordEnd::Checkmate { winner } | RecordEnd::Stalemate { winner } => winner,
        }
    }
    /// 「将死, 红方胜」/「困毙, 黑方胜」.
    pub fn zh(self) -> String {
        let (how, w) = match self {
            RecordEnd::Checkmate { winner } => ("将死", winner),
            RecordEnd::Stalemate { winner } => ("困毙", winner),
        };
        format!("{how}, {}方胜", w.zh())
    }
    /// The result the final position gives.
    pub fn result(self) -> arbiter_types::GameResult {
        match self.winner() {
            arbiter_types::Colour::Red => arbiter_types::GameResult::RedWin,
            arbiter_types::Colour::Black => arbiter_types::GameResult::BlackWin,
        }
    }
}

/// A protest about a game and its decision (S11, `protest_decided`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Protest {
    pub by: String,
    pub deposit_fen: u64,
    pub upheld: bool,
    pub deposit_returned: bool,
    pub reason: String,
    pub seq: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub round: u32,
    pub stage: u32,
    /// A persistent vector: a result entered on a shared state copies only its part of it.
    pub boards: imbl::Vector<BoardRecord>,
    pub byes: Vec<PlayerId>,
    pub seed: Option<u64>,
    pub manual: Vec<String>,
    pub completed: bool,
    /// The pairing has been published (`round_published`).
    #[serde(default)]
    pub published: bool,
}

impl RoundRecord {
    pub fn board(&self, board: u32) -> Option<&BoardRecord> {
        self.board_index(board).and_then(|i| self.boards.get(i))
    }
    fn board_mut(&mut self, board: u32) -> Option<&mut BoardRecord> {
        let i = self.board_index(board)?;
        self.boards.get_mut(i)
    }
    /// Where board `board` is: boards are numbered 1, 2, … in order, so board `n` is found
    /// at `n - 1` at once; boards in increasing order with gaps (a team round's empty boards)
    /// by bisection; a round numbered otherwise is searched.
    fn board_index(&self, board: u32) -> Option<usize> {
        if let Some(at) = (board as usize).checked_sub(1) {
            if self.boards.get(at).is_some_and(|b| b.board == board) {
                return Some(at);
            }
        }
        if let Ok(at) = self.boards.binary_search_by_key(&board, |b| b.board) {
            if self.boards.get(at).is_some_and(|b| b.board == board) {
                return Some(at);
            }
        }
        self.boards.iter().position(|b| b.board == board)
    }
}

/// A player's claim of a knockout game's result (`knockout_result_claimed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutClaim {
    pub match_id: String,
    /// The game's index in the match, from 0.
    pub game: u32,
    pub claim: ResultClaim,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutGame {
    pub match_id: String,
    pub game: u32,
    pub kind: GameKind,
    pub red: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
    /// The game's fouls in the order they happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fouls: Vec<crate::entry::KnockoutFoul>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionRecord {
    pub id: String,
    pub name: String,
    /// Team divisions declared for the section (K1, K4).
    #[serde(default)]
    pub divisions: Vec<DivisionInfo>,
    /// Registered players in registration order.
    pub entries: Vec<PlayerId>,
    /// Pairing numbers: `order[i]` has number `i + 1`. Empty until drawn.
    pub order: Vec<PlayerId>,
    pub draw_seed: Option<u64>,
    /// The groups of a `groups` section (`groups_drawn`): `groups[0]` is group A, in the
    /// order of its table. Empty until split, and in any other section.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Vec<PlayerId>>,
    /// The seed of the lot the groups were drawn by (none for a 蛇形 split).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_seed: Option<u64>,
    pub rounds: OrdMap<u32, RoundRecord>,
    /// The knockout games in the order recorded (persistent: a state one game on shares the
    /// games before it).
    pub knockout: imbl::Vector<KnockoutGame>,
    /// The knockout's seeds as fixed when its first game was entered (`knockout_seeded`,
    /// pairing numbers in seed order); empty before, and in older logs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knockout_seeds: Vec<arbiter_types::PlayerNo>,
    /// The players' claims of knockout games (`knockout_result_claimed`) in the order made;
    /// a game's claims count only while it is not recorded.
    #[serde(default, skip_serializing_if = "imbl::Vector::is_empty")]
    pub knockout_claims: imbl::Vector<KnockoutClaim>,
    /// Team numbers of a team-match section (`team_numbers_drawn`): `team_order[i]` has
    /// number `i + 1`. Empty until drawn, and in an individual section.
    #[serde(default)]
    pub team_order: Vec<String>,
    #[serde(default)]
    pub team_seed: Option<u64>,
    /// The section this one was merged into (`sections_merged`): it holds no players and
    /// takes no more entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_into: Option<String>,
    /// The matches of each round of a team-match section (`matches_paired`), with the
    /// line-ups given.
    #[serde(default)]
    pub matches: OrdMap<u32, TeamRound>,
    /// `order` inverted: player → pairing number (kept by the fold with `order`).
    #[serde(skip)]
    pub(crate) numbers: OrdMap<PlayerId, PlayerNo>,
    /// What a shell derived from `knockout`, kept for the states that follow
    /// ([`crate::memo`]).
    #[serde(skip)]
    pub(crate) knockout_memo: crate::memo::KnockoutMemo,
}

/// One round of a team-match section: its matches, the bye and the line-ups given.
///
/// The line-ups are persistent (as a round's boards): a state that pairs or seats the next
/// round copies the rounds before it without copying every team's line-up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRound {
    pub round: u32,
    pub matches: Vec<crate::entry::TeamPairing>,
    pub bye: Option<String>,
    pub seed: Option<u64>,
    pub manual: Vec<String>,
    /// Team → its line-up for the round (`lineup_given`), `None` on an empty board.
    pub lineups: OrdMap<String, Vec<Option<PlayerId>>>,
    /// Team → the captain who confirmed its match (`match_confirmed`; the name may be empty).
    /// A result of the match entered or corrected later drops both of its teams.
    #[serde(default)]
    pub confirmed: std::collections::BTreeMap<String, String>,
    /// `matches` inverted: team → its match and whether it is named first, as
    /// [`TeamRound::match_of`] finds it (kept by the fold with `matches`; empty in a round
    /// built otherwise, which is then searched).
    #[serde(skip)]
    pub(crate) index: std::sync::Arc<BTreeMap<String, (u32, bool)>>,
}

impl TeamRound {
    /// A round as the fold records it, with its index of the teams and no confirmation.
    pub(crate) fn new(
        round: u32,
        matches: Vec<crate::entry::TeamPairing>,
        bye: Option<String>,
        seed: Option<u64>,
        manual: Vec<String>,
        lineups: OrdMap<String, Vec<Option<PlayerId>>>,
    ) -> Self {
        let mut index = BTreeMap::new();
        for (i, m) in matches.iter().enumerate() {
            // The first match naming a team, and in it the first side: as the search finds.
            index.entry(m.first.clone()).or_insert((i as u32 + 1, true));
            index
                .entry(m.second.clone())
                .or_insert((i as u32 + 1, false));
        }
        TeamRound {
            round,
            matches,
            bye,
            seed,
            manual,
            lineups,
            confirmed: Default::default(),
            index: std::sync::Arc::new(index),
        }
    }

    /// Which teams of match `m` (1-based) confirmed it (队长确认): the captain's name for the
    /// team named first and for the second, `None` for a team that has not; `None` when the
    /// round has no match `m`.
    pub fn confirmations(&self, m: u32) -> Option<(Option<&str>, Option<&str>)> {
        let pairing = self.matches.get((m as usize).checked_sub(1)?)?;
        let by = |t: &str| self.confirmed.get(t).map(String::as_str);
        Some((by(&pairing.first), by(&pairing.second)))
    }

    /// Whether both teams of match `m` confirmed it.
    pub fn both_confirmed(&self, m: u32) -> bool {
        matches!(self.confirmations(m), Some((Some(_), Some(_))))
    }

    /// The match of team `t` (its number, 1-based, and whether `t` is named first).
    pub fn match_of(&self, t: &str) -> Option<(u32, bool)> {
        if !self.index.is_empty() {
            return self.index.get(t).copied();
        }
        self.matches.iter().enumerate().find_map(|(i, m)| {
            if m.first == t {
                Some((i as u32 + 1, true))
            } else if m.second == t {
                Some((i as u32 + 1, false))
            } else {
                None
            }
        })
    }
}

impl SectionRecord {
    /// Team number of a team, once drawn (1-based).
    pub fn team_no(&self, t: &str) -> Option<u32> {
        self.team_order
            .iter()
            .position(|x| x == t)
            .map(|i| i as u32 + 1)
    }

    /// The memo of the knockout games ([`crate::memo`]): the director keeps its bracket there.
    pub fn knockout_memo(&self) -> &crate::memo::KnockoutMemo {
        &self.knockout_memo
    }

    /// The knockout game `game` (index from 0) of match `match_id`, once recorded.
    pub fn knockout_game(&self, match_id: &str, game: u32) -> Option<&KnockoutGame> {
        self.knockout
            .iter()
            .find(|g| g.match_id == match_id && g.game == game)
    }

    /// The standing claim (its last) of `side` for knockout game `game` of `match_id`.
    pub fn knockout_claim(
        &self,
        match_id: &str,
        game: u32,
        side: arbiter_types::Colour,
    ) -> Option<ResultClaim> {
        self.knockout_claims
            .iter()
            .rev()
            .find(|c| c.match_id == match_id && c.game == game && c.claim.side == side)
            .map(|c| c.claim)
    }

    /// Pairing number of a player, once drawn.
    pub fn pairing_no(&self, p: PlayerId) -> Option<PlayerNo> {
        self.numbers.get(&p).copied()
    }
    pub fn last_round(&self) -> u32 {
        self.rounds.keys().next_back().copied().unwrap_or(0)
    }
    /// Rounds marked completed, counted from 1 without a gap.
    pub fn completed_rounds(&self) -> u32 {
        let mut n = 0;
        while self.rounds.get(&(n + 1)).is_some_and(|r| r.completed) {
            n += 1;
        }
        n
    }
    pub fn round(&self, r: u32) -> Option<&RoundRecord> {
        self.rounds.get(&r)
    }
    /// The rounds that count in the standings so far: rounds `1..=completed_rounds()`. A round
    /// whose results are still coming in counts once it is completed. This is the one
    /// definition of "standings so far": [`EventState::outcomes`] (hence the standings, the
    /// export) and the independent recomputation of `event verify` both follow it.
    pub fn standing_rounds(&self) -> impl Iterator<Item = &RoundRecord> + '_ {
        // Half-open: `1..=0` would be an inverted range.
        self.rounds
            .range(1..self.completed_rounds() + 1)
            .map(|(_, r)| r)
    }
}

/// An online submission (`entry_submitted`) and the desk's decision on it, if made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    pub submission: u32,
    /// Seq of the `entry_submitted`.
    pub seq: u64,
    /// RFC 3339 time the `entry_submitted` was recorded (the registration deadline is judged
    /// at it when the desk approves the submission).
    #[serde(default)]
    pub at: String,
    pub section: String,
    /// Name and particulars as the form gave them.
    pub person: Person,
    /// The conditions claimed (`local` …).
    #[serde(default)]
    pub flags: Vec<String>,
    /// The documents the player says he will show.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// SHA-256 (hex) of the status page's token.
    #[serde(default)]
    pub status_key: Option<String>,
    /// `None` while pending.
    pub decision: Option<Decision>,
}

/// The desk's decision on an online submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Approved(PlayerId),
    Refused(String),
}

/// The event's settings as changed by `settings_changed` (the regulation's values otherwise;
/// a changed name is the header's `name`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSettings {
    /// The name as last changed (also the header's `name`).
    pub name: Option<String>,
    pub start: Option<NaiveDate>,
    pub end: Option<NaiveDate>,
    pub venue: Option<String>,
    /// The registration deadline as last changed, RFC 3339 (also the header's limits').
    #[serde(default)]
    pub deadline: Option<String>,
    /// The date ages are counted on, as last changed.
    #[serde(default)]
    pub age_on: Option<NaiveDate>,
    /// Swiss rounds by section.
    pub rounds: BTreeMap<String, u32>,
    /// The slow games' time control (比赛用时) by section.
    #[serde(default)]
    pub time_controls: BTreeMap<String, TimeControlSetting>,
    /// Last edition's units placed in a team division, by division id (昆山 五(一)).
    #[serde(default)]
    pub placed_units: BTreeMap<String, Vec<String>>,
    /// Seqs of the `settings_changed` entries, in order.
    pub changes: Vec<u64>,
}

/// The fold of an event's log. `PartialEq` and serialisable, so states can be compared.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventState {
    pub header: Option<EventHeader>,
    pub sections: OrdMap<String, SectionRecord>,
    pub players: OrdMap<PlayerId, PlayerRecord>,
    pub teams: OrdMap<String, TeamRecord>,
    pub refused: imbl::Vector<RefusedEntry>,
    /// Seq of the last applied entry (0 for an empty log).
    pub last_seq: u64,
    /// Counts of the active entries (kept by the fold; see [`EntryIndex`]).
    #[serde(default)]
    pub index: crate::index::EntryIndex,
    /// The event is closed (`event_closed`, not reopened since).
    #[serde(default)]
    pub closed: bool,
    /// Online submissions by number (`entry_submitted`, `submission_decided`).
    #[serde(default)]
    pub submissions: OrdMap<u32, Submission>,
    /// Settings changed since the event was created (`settings_changed`).
    #[serde(default)]
    pub settings: EventSettings,
    /// The organiser's awards (S10, `special_award_given`): award → recipients.
    #[serde(default)]
    pub special_awards: OrdMap<String, Vec<String>>,
    /// The event's officials as last appointed (`officials_appointed`), in order.
    #[serde(default)]
    pub officials: Vec<crate::entry::Official>,
    /// The refusals by what they refused ([`EventState::refusal_recorded`]).
    #[serde(skip)]
    pub(crate) refusal_keys: imbl::OrdSet<String>,
    /// The regulation in force, parsed once (see [`EventState::regulation`]).
    #[serde(skip)]
    regulation: crate::regulation::RegulationCell,
}

/// One string for what a refusal refused (fields separated by U+001F, absent ones by U+0000).
pub(crate) fn refusal_key(
    name: &str,
    section: &str,
    reason: &str,
    id_number: Option<&IdNumber>,
    unit: Option<&str>,
) -> String {
    let id = id_number.map_or_else(|| "\u{0}".to_string(), |i| format!("={}", i.as_str()));
    let unit = unit.map_or_else(|| "\u{0}".to_string(), |u| format!("={u}"));
    format!("{name}\u{1f}{section}\u{1f}{reason}\u{1f}{id}\u{1f}{unit}")
}

/// A log that does not fold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FoldError {
    #[error("日志序号应为 {expected}, 实为 {found} (log sequence gap)")]
    Sequence { expected: u64, found: u64 },
    #[error("第 {seq} 条日志 ({kind}) 被拒绝: {rejection}")]
    Rejected {
        seq: u64,
        kind: &'static str,
        rejection: Rejection,
    },
}

impl EventState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Fold a whole log, checking every entry as it would have been checked on append.
    pub fn replay(log: &[Recorded]) -> Result<EventState, FoldError> {
        let mut s = EventState::new();
        for r in log {
            s.apply(r)?;
        }
        Ok(s)
    }

    /// Apply one recorded entry: checks the sequence number and [`validate_at`] first, and
    /// changes nothing if either fails.
    /// What [`EventState::apply`] checks of the next entry recorded at `at` (RFC 3339),
    /// without folding it: its time, then the log's rules ([`validate_at`]).
    pub fn check_next(&self, entry: &LogEntry, at: &str) -> Result<(), Rejection> {
        if chrono::DateTime::parse_from_rfc3339(at).is_err() {
            Err(Rejection::BadTime(at.to_string()))
        } else {
            validate_at(self, entry, Some(at))
        }
    }

    pub fn apply(&mut self, r: &Recorded) -> Result<(), FoldError> {
        if r.seq != self.last_seq + 1 {
            return Err(FoldError::Sequence {
                expected: self.last_seq + 1,
                found: r.seq,
            });
        }
        self.check_next(&r.entry, &r.at)
            .map_err(|rejection| FoldError::Rejected {
                seq: r.seq,
                kind: r.entry.kind(),
                rejection,
            })?;
        // The entry index follows the players an entry registers or changes.
        let touched: Vec<PlayerId> = match &r.entry {
            LogEntry::PlayerRegistered(p) => vec![p.player],
            LogEntry::PlayerCorrected { player, .. }
            | LogEntry::PlayerWithdrawn { player, .. }
            | LogEntry::PlayerReinstated { player, .. }
            | LogEntry::PlayerDisqualified { player, .. }
            | LogEntry::PlayerSectionChanged { player, .. }
            | LogEntry::DisqualificationRevoked { player, .. } => {
                vec![*player]
            }
            LogEntry::TeamRosterChanged { added, removed, .. } => {
                added.iter().chain(removed).copied().collect()
            }
            LogEntry::SectionsMerged { from, .. } => self
                .sections
                .get(from)
                .map(|s| s.entries.clone())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        for id in &touched {
            if let Some(p) = self.players.get(id) {
                self.index.count(p, false);
            }
        }
        self.apply_valid(r.seq, &r.entry);
        if let LogEntry::EntrySubmitted { submission, .. } = &r.entry {
            if let Some(s) = self.submissions.get_mut(submission) {
                s.at = r.at.clone();
            }
        }
        for id in &touched {
            if let Some(p) = self.players.get(id) {
                self.index.count(p, true);
            }
        }
        self.last_seq = r.seq;
        Ok(())
    }

    pub fn name(&self) -> &str {
        self.header.as_ref().map_or("", |h| h.name.as_str())
    }

    /// Id the next registration should use.
    pub fn next_player_id(&self) -> PlayerId {
        PlayerId(self.players.keys().next_back().map_or(1, |p| p.0 + 1))
    }

    pub fn section(&self, id: &str) -> Option<&SectionRecord> {
        self.sections.get(id)
    }

    pub fn player(&self, p: PlayerId) -> Option<&PlayerRecord> {
        self.players.get(&p)
    }

    pub fn status(&self, p: PlayerId) -> Option<PlayerStatus> {
        let pl = self.players.get(&p)?;
        Some(if pl.disqualified.is_some() {
            PlayerStatus::Disqualified
        } else if pl.withdrawn.is_some() {
            PlayerStatus::Withdrawn
        } else if self
            .header
            .as_ref()
            .and_then(|h| h.limits.fee_fen)
            .is_some_and(|fee| pl.paid_fen < fee)
            || (self.header.as_ref().is_some_and(|h| h.limits.charges_due)
                && self.owed_before_play(pl).0 > 0)
        {
            PlayerStatus::Unpaid
        } else {
            PlayerStatus::Active
        })
    }

    /// The money items a player owes, as the regulation in force says from his section, flags
    /// and category (empty without a regulation or a fee).
    pub fn dues(&self, pl: &PlayerRecord) -> Vec<arbiter_regulation::Due> {
        self.regulation()
            .map(|reg| reg.dues(&pl.section, &entry_facts(pl)))
            .unwrap_or_default()
    }

    /// The name a payment without an item is recorded under: the regulation's first fee item
    /// (「报名费」 of its `fee`).
    pub fn default_item(&self) -> String {
        self.regulation()
            .ok()
            .and_then(|reg| {
                reg.charge_names()
                    .into_iter()
                    .find(|(_, k)| *k == arbiter_regulation::ChargeKind::Fee)
                    .map(|(n, _)| n)
            })
            .unwrap_or_else(|| arbiter_regulation::FEE_ITEM.to_string())
    }

    /// The deposit refunded when none is named: the regulation's first deposit item (the
    /// default fee item when the regulation has no deposit, which a refund then refuses).
    pub fn default_deposit(&self) -> String {
        self.regulation()
            .ok()
            .and_then(|reg| {
                reg.charge_names()
                    .into_iter()
                    .find(|(_, k)| *k == arbiter_regulation::ChargeKind::Deposit)
                    .map(|(n, _)| n)
            })
            .unwrap_or_else(|| self.default_item())
    }

    /// What a player still owes before play and what he paid of those items (fen): the
    /// items due before play (`before_play`), what is owed of each, summed.
    pub fn owed_before_play(&self, pl: &PlayerRecord) -> (u64, u64) {
        let mut owed = 0;
        let mut paid = 0;
        for d in self.dues(pl).into_iter().filter(|d| d.before_play) {
            let m = pl.money.get(&d.name).copied().unwrap_or_default();
            owed += d.fen.saturating_sub(m.paid_fen);
            paid += m.paid_fen;
        }
        (owed, paid)
    }

    /// Players of a section: by pairing number once drawn (late, undrawn entries after them
    /// in registration order), otherwise in registration order.
    pub fn players(&self, section: &str) -> Vec<&PlayerRecord> {
        let Some(s) = self.sections.get(section) else {
            return Vec::new();
        };
        let mut ids: Vec<PlayerId> = s.order.clone();
        ids.extend(s.entries.iter().filter(|p| !s.numbers.contains_key(*p)));
        ids.iter().filter_map(|p| self.players.get(p)).collect()
    }

    /// One [`Outcome`] per completed round of the player's section (rounds 1..=n), in round
    /// order; `Absent` for a round the player was not paired in. Opponents are given by
    /// pairing number. Knockout games are not included (see `SectionRecord::knockout`).
    pub fn outcomes(&self, p: PlayerId) -> Vec<Outcome> {
        let Some(pl) = self.players.get(&p) else {
            return Vec::new();
        };
        let Some(s) = self.sections.get(&pl.section) else {
            return Vec::new();
        };
        let n = s.completed_rounds();
        let mut out = Vec::with_capacity(n as usize);
        for r in 1..=n {
            let Some(round) = s.rounds.get(&r) else {
                out.push(Outcome::Absent);
                continue;
            };
            let o = if round.byes.contains(&p) {
                Outcome::Bye
            } else if let Some(b) = round.boards.iter().find(|b| b.red == p || b.black == p) {
                let (colour, opp) = if b.red == p {
                    (arbiter_types::Colour::Red, b.black)
                } else {
                    (arbiter_types::Colour::Black, b.red)
                };
                match (self.counted_result(r, b), s.pairing_no(opp)) {
                    (Some(res), Some(no)) => res.outcome_for(colour, no),
                    _ => Outcome::Absent,
                }
            } else {
                Outcome::Absent
            };
            out.push(o);
        }
        out
    }

    /// The result a board of round `round` counts with: as entered, except that a
    /// disqualified player's game counts as his forfeit where his disqualification says so
    /// (A17: the games after it, or every game when his results are void).
    pub fn counted_result(&self, round: u32, b: &BoardRecord) -> Option<GameResult> {
        let dq = |p: PlayerId| self.players.get(&p).and_then(|pl| pl.disqualified.as_ref());
        counted(round, b, dq(b.red), dq(b.black))
    }

    /// [`EventState::outcomes`] of every player of a section (its entries and numbered
    /// players), from one pass over its completed rounds.
    pub fn section_outcomes(&self, section: &str) -> BTreeMap<PlayerId, Vec<Outcome>> {
        let Some(s) = self.sections.get(section) else {
            return BTreeMap::new();
        };
        let n = s.completed_rounds() as usize;
        // The section's players, ascending (a player's row is found by bisection), with the
        // disqualification in force and the pairing number of each.
        let mut players: Vec<(PlayerId, Option<&Disqualification>)> = s
            .entries
            .iter()
            .chain(s.order.iter())
            .filter_map(|p| {
                let pl = self.players.get(p).filter(|pl| pl.section == section)?;
                Some((*p, pl.disqualified.as_ref()))
            })
            .collect();
        players.sort_unstable_by_key(|(p, _)| *p);
        players.dedup_by_key(|(p, _)| *p);
        let ids: Vec<PlayerId> = players.iter().map(|(p, _)| *p).collect();
        let numbers: Vec<Option<PlayerNo>> = ids.iter().map(|p| s.pairing_no(*p)).collect();
        // Of any player: read from the section's players, else from the state.
        let disqualified = |p: PlayerId| match ids.binary_search(&p) {
            Ok(i) => players[i].1,
            Err(_) => self.players.get(&p).and_then(|pl| pl.disqualified.as_ref()),
        };
        let number = |p: PlayerId| match ids.binary_search(&p) {
            Ok(i) => numbers[i],
            Err(_) => s.pairing_no(p),
        };
        let mut rows = vec![vec![Outcome::Absent; n]; ids.len()];
        // The last round a row was given its outcome in (0: none yet): as in `outcomes`, a
        // bye first, else the first board the player is on.
        let mut seen = vec![0usize; ids.len()];
        for r in 1..=n {
            let Some(round) = s.rounds.get(&(r as u32)) else {
                continue;
            };
            for p in &round.byes {
                if let Ok(i) = ids.binary_search(p) {
                    seen[i] = r;
                }
            }
            for b in round.boards.iter() {
                // The board's counted result, read once for both of its players.
                let mut result = None;
                for (p, colour, opp) in [
                    (b.red, arbiter_types::Colour::Red, b.black),
                    (b.black, arbiter_types::Colour::Black, b.red),
                ] {
                    let Ok(i) = ids.binary_search(&p) else {
                        continue;
                    };
                    if seen[i] == r {
                        continue;
                    }
                    seen[i] = r;
                    let res = *result.get_or_insert_with(|| {
                        counted(r as u32, b, disqualified(b.red), disqualified(b.black))
                    });
                    rows[i][r - 1] = match (res, number(opp)) {
                        (Some(res), Some(no)) => res.outcome_for(colour, no),
                        _ => Outcome::Absent,
                    };
                }
            }
            for p in &round.byes {
                if let Ok(i) = ids.binary_search(p) {
                    rows[i][r - 1] = Outcome::Bye;
                }
            }
        }
        ids.into_iter().zip(rows).collect()
    }

    /// Whether a refusal of this entry (name, section, reason, ID number and unit) is
    /// recorded already.
    pub fn refusal_recorded(
        &self,
        name: &str,
        section: &str,
        reason: &str,
        id_number: Option<&IdNumber>,
        unit: Option<&str>,
    ) -> bool {
        self.refusal_keys
            .contains(&refusal_key(name, section, reason, id_number, unit))
    }

    /// Players of `section` excused from round `round` (`player_absent`).
    pub fn absent_in(&self, section: &str, round: u32) -> Vec<PlayerId> {
        self.sections.get(section).map_or_else(Vec::new, |s| {
            s.entries
                .iter()
                .filter(|p| {
                    self.players
                        .get(*p)
                        .is_some_and(|p| p.absent.binary_search(&round).is_ok())
                })
                .copied()
                .collect()
        })
    }

    /// Number the next online submission gets.
    pub fn next_submission(&self) -> u32 {
        self.submissions.keys().next_back().map_or(1, |n| n + 1)
    }

    /// Online submissions waiting for the desk's decision (of one section, or all), in order.
    pub fn pending(&self, section: Option<&str>) -> Vec<&Submission> {
        self.submissions
            .values()
            .filter(|s| s.decision.is_none() && section.is_none_or(|x| x == s.section))
            .collect()
    }

    /// Number of fouls of a player (A11, 犯规).
    pub fn foul_count(&self, p: PlayerId) -> usize {
        self.players.get(&p).map_or(0, |pl| pl.fouls.len())
    }

    pub(crate) fn regulation_cell(&self) -> &crate::regulation::RegulationCell {
        &self.regulation
    }

    fn apply_valid(&mut self, seq: u64, e: &LogEntry) {
        if matches!(
            e,
            LogEntry::EventCreated(_) | LogEntry::SettingsChanged { .. }
        ) {
            // The regulation in force is parsed again on its next use.
            self.regulation = Default::default();
        }
        match Family::of(e) {
            Family::Lifecycle => lifecycle::apply(self, seq, e),
            Family::Registration => registration::apply(self, seq, e),
            Family::Teams => teams::apply(self, seq, e),
            Family::Matches => matches::apply(self, seq, e),
            Family::Rounds => rounds::apply(self, seq, e),
            Family::Results => results::apply(self, seq, e),
            Family::Knockout => knockout::apply(self, seq, e),
            Family::Records => records::apply(self, seq, e),
        }
    }

    pub(crate) fn board_mut(
        &mut self,
        section: &str,
        round: u32,
        board: u32,
    ) -> Option<&mut BoardRecord> {
        self.sections
            .get_mut(section)?
            .rounds
            .get_mut(&round)?
            .board_mut(board)
    }
}
