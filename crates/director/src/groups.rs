//! A `groups` section (分组循环制, 规则 11.3; docs/rules.md A9): the entries split into
//! groups A, B, … (蛇形 by pairing number, or by lot from a recorded seed: `groups_drawn`),
//! each group a round robin by the Berger tables within the group, then a final stage of
//! the top `advance` of each group — a cross knockout (A1–B2, B1–A2 …) or same-place finals
//! (A1–B1 for places 1–2, A2–B2 for 3–4 …) — played as the knockout of a two-stage section
//! (`knockout_stage.rs`), or a final round robin of the qualifiers (their Berger table paired
//! round by round after the group stage, its field fixed in the log as it begins; same-place
//! finals of three groups or more are such round robins, one a place). The other
//! players are placed after the finalists by their group place; equal group places are shared.

use crate::standings::{individual_from, individual_input};
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, PlayerId, SectionRecord};
use arbiter_pairing::{Pairing, PairingError, SectionState};
use arbiter_regulation::{FinalStage, FormatKind, GroupFormat, GroupNames, GroupSplit, Section};
use arbiter_standings::Standings;
use arbiter_types::{Outcome, PlayerNo};

/// Whether the section plays groups and a final.
pub fn is_groups(sec: &Section) -> bool {
    sec.format.kind == FormatKind::Groups
}

/// The letter of group `i` (0 → A).
pub fn letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// The name of group `i` (0 first) before 「组」: its letter (A) or, with
/// `group_names = "numbers"`, its number (1, for 「1组」).
pub fn label(sec: &Section, i: usize) -> String {
    name(sec.format.group_names == GroupNames::Numbers, i)
}

/// Group `i`'s name before 「组」: its number when `numbers`, else its letter.
pub fn name(numbers: bool, i: usize) -> String {
    if numbers {
        (i + 1).to_string()
    } else {
        letter(i).to_string()
    }
}

/// Whether the section's groups are named by numbers (`group_names = "numbers"`).
pub fn numbered(state: &EventState, section: &str) -> bool {
    crate::regulation_of(state).is_ok_and(|r| {
        r.section(section)
            .is_some_and(|s| s.format.group_names == GroupNames::Numbers)
    })
}

/// The number of groups and the qualifiers of each of a `groups` section.
fn shape(sec: &Section) -> (usize, usize) {
    (
        sec.format.groups.unwrap_or(2).max(1) as usize,
        sec.format.advance.unwrap_or(1) as usize,
    )
}

/// 蛇形: the positions `0..n` of the pairing numbers dealt into `g` groups, 1 → A, 2 → B, …,
/// then back (with 2 groups: A gets 1, 4, 5, 8 …; B gets 2, 3, 6, 7 …).
pub fn snake(n: usize, g: usize) -> Vec<Vec<usize>> {
    let g = g.max(1);
    let mut out = vec![Vec::new(); g];
    for i in 0..n {
        let (row, col) = (i / g, i % g);
        let k = if row % 2 == 0 { col } else { g - 1 - col };
        out[k].push(i);
    }
    out
}

/// By lot: the positions `0..n` in the order of a lot drawn from `seed`, dealt A, B, … in
/// turn (the groups' sizes as the snake's), each group then in pairing-number order.
pub fn by_lot(n: usize, g: usize, seed: u64) -> Vec<Vec<usize>> {
    let g = g.max(1);
    let drawn = arbiter_pairing::round1::draw_numbers(n, seed);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| drawn[i]);
    let mut out = vec![Vec::new(); g];
    for (j, i) in order.into_iter().enumerate() {
        out[j % g].push(i);
    }
    for grp in &mut out {
        grp.sort_unstable();
    }
    out
}

/// 分档抽签: the positions `0..n` of the pairing numbers into `g` groups. The first `g`
/// numbers one a group, by pots that double: 1 → group 1, 2 → group 2, then 3–4 drawn into
/// groups 3–4, 5–8 into 5–8, 9–16 into 9–16 …; the rest in batches of `g`, each drawn into
/// every group, a last short batch of `r` into the last `r` groups (so the top seeds' groups
/// are the smaller: 126 players in 32 groups leave groups 1 and 2 with three). Within each
/// group the order — the codes of its Berger table — is drawn too. Every lot comes from `seed`.
pub fn by_pots(n: usize, g: usize, seed: u64) -> Vec<Vec<usize>> {
    let g = g.max(1);
    let mut out = vec![Vec::new(); g];
    // One batch: the numbers `from..to` drawn into the groups `groups`.
    let mut batch = |from: usize, groups: std::ops::Range<usize>, salt: usize| {
        let len = groups.len();
        let drawn = arbiter_pairing::round1::draw_numbers(len, mix(seed, salt as u64));
        for (j, grp) in groups.enumerate() {
            out[grp].push(from + drawn[j] - 1);
        }
    };
    // The first g, pot by pot: [0], [1], [2, 3], [4..8], …
    let first = n.min(g);
    let mut lo = 0;
    let mut salt = 0;
    while lo < first {
        let hi = if lo == 0 { 1 } else { (2 * lo).min(first) };
        batch(lo, lo..hi, salt);
        salt += 1;
        lo = hi;
    }
    // The rest, g at a time; the last short batch into the last groups.
    while lo < n {
        let r = (n - lo).min(g);
        batch(lo, g - r..g, salt);
        salt += 1;
        lo += r;
    }
    // Each group's order (its codes) by lot.
    for (k, grp) in out.iter_mut().enumerate() {
        let drawn =
            arbiter_pairing::round1::draw_numbers(grp.len(), mix(seed, (1 << 32) + k as u64));
        let mut coded: Vec<(usize, usize)> = grp
            .iter()
            .enumerate()
            .map(|(j, &i)| (drawn[j], i))
            .collect();
        coded.sort_unstable();
        *grp = coded.into_iter().map(|(_, i)| i).collect();
    }
    out
}

/// A seed for one lot of a split, from the split's seed.
fn mix(seed: u64, salt: u64) -> u64 {
    crate::derive_seed(seed, &format!("pot {salt}"))
}

/// A new entry into a `groups` section whose round 1 is paired is refused: the groups are
/// fixed and their tables played (a late entry before round 1 is split with the others when
/// the numbers are drawn again).
pub fn open_to_entries(
    reg: &arbiter_regulation::Regulation,
    state: &EventState,
    section: &str,
) -> Result<(), DirectorError> {
    let started = state.section(section).is_some_and(|r| !r.rounds.is_empty());
    match reg.section(section) {
        Some(sec) if is_groups(sec) && started => Err(crate::Refusal::GroupsStarted {
            section: crate::refusal::Sec::in_reg(reg, section),
        }
        .into()),
        _ => Ok(()),
    }
}

/// Whether the section's groups are still to be split: a `groups` section whose numbers
/// are drawn, before round 1, whose recorded groups do not hold exactly the numbered players.
pub fn needs_split(sec: &Section, rec: &SectionRecord) -> bool {
    if !is_groups(sec) || rec.order.is_empty() || !rec.rounds.is_empty() {
        return false;
    }
    let mut split: Vec<PlayerId> = rec.groups.iter().flatten().copied().collect();
    let mut order = rec.order.clone();
    split.sort_unstable();
    order.sort_unstable();
    split != order
}

/// The `groups_drawn` entry that splits the section, by the regulation's `split`: 蛇形 by
/// pairing number, or by lot from a seed derived from the event's (recorded). `None` when
/// the section needs no split ([`needs_split`]).
pub fn split_entry(sec: &Section, state: &EventState, section: &str) -> Option<LogEntry> {
    let rec = state.section(section)?;
    if !needs_split(sec, rec) {
        return None;
    }
    Some(split_of(sec, state, section, &rec.order))
}

/// The `groups_drawn` entry that splits the numbered players `order` (number 1 first).
pub fn split_of(sec: &Section, state: &EventState, section: &str, order: &[PlayerId]) -> LogEntry {
    let (g, _) = shape(sec);
    let n = order.len();
    let (positions, seed) = match sec.format.split {
        GroupSplit::Snake => (snake(n, g), None),
        GroupSplit::Lots | GroupSplit::Pots => {
            let seed = crate::derive_seed(
                state.header.as_ref().map_or(0, |h| h.seed),
                &format!("groups/{section}"),
            );
            if sec.format.split == GroupSplit::Pots {
                (by_pots(n, g, seed), Some(seed))
            } else {
                (by_lot(n, g, seed), Some(seed))
            }
        }
    };
    let mut groups: Vec<Vec<PlayerId>> = positions
        .into_iter()
        .map(|grp| grp.into_iter().map(|i| order[i]).collect())
        .collect();
    if sec.format.same_team_first {
        let teams = crate::plan::team_keys(state, section);
        for grp in &mut groups {
            *grp = same_team_first(grp, &teams);
        }
    }
    LogEntry::GroupsDrawn {
        section: section.to_string(),
        groups,
        seed,
    }
}

/// 同队先碰 (2025 全国锦标赛(个人) 抽签办法 二(三)): a group's order — its Berger codes —
/// rearranged so that players of one team (`teams`: team, else unit, else association) meet
/// in round 1: going through the group in its order, each player whose team has an earlier
/// player still unmatched is paired with him, and the pairs take round 1's boards in turn;
/// everybody else keeps his order in the codes left. A team of three has two meet in round
/// 1 (the Berger table then decides when the third meets them).
pub fn same_team_first(
    group: &[PlayerId],
    teams: &std::collections::BTreeMap<PlayerId, u32>,
) -> Vec<PlayerId> {
    let n = group.len();
    if n < 3 {
        return group.to_vec();
    }
    let mut open: std::collections::BTreeMap<u32, PlayerId> = Default::default();
    let mut pairs: Vec<(PlayerId, PlayerId)> = Vec::new();
    for p in group {
        let Some(t) = teams.get(p) else { continue };
        match open.remove(t) {
            Some(q) => pairs.push((q, *p)),
            None => {
                open.insert(*t, *p);
            }
        }
    }
    if pairs.is_empty() {
        return group.to_vec();
    }
    let round1 = arbiter_pairing::round_robin::berger(n);
    let boards = round1.first().map(|r| r.boards.clone()).unwrap_or_default();
    let mut slots: Vec<Option<PlayerId>> = vec![None; n];
    let mut placed = std::collections::BTreeSet::new();
    for ((q, p), (a, b)) in pairs.into_iter().zip(boards) {
        if a > n || b > n {
            continue;
        }
        slots[a - 1] = Some(q);
        slots[b - 1] = Some(p);
        placed.insert(q);
        placed.insert(p);
    }
    let mut rest = group.iter().filter(|p| !placed.contains(p));
    slots
        .into_iter()
        .map(|s| s.or_else(|| rest.next().copied()))
        .collect::<Option<Vec<_>>>()
        .unwrap_or_else(|| group.to_vec())
}

/// The group (0 = A) of a player, once split.
pub fn group_of(rec: &SectionRecord, p: PlayerId) -> Option<usize> {
    rec.groups.iter().position(|g| g.contains(&p))
}

/// The sizes of the groups: as recorded, else as a split of `n` players would make them.
fn sizes(sec: &Section, rec: Option<&SectionRecord>, n: u32) -> Vec<usize> {
    match rec {
        Some(r) if !r.groups.is_empty() => r.groups.iter().map(Vec::len).collect(),
        _ if sec.format.split == GroupSplit::Pots => by_pots(n as usize, shape(sec).0, 0)
            .iter()
            .map(Vec::len)
            .collect(),
        _ => snake(n as usize, shape(sec).0)
            .iter()
            .map(Vec::len)
            .collect(),
    }
}

/// The rounds of the group stage: the longest group's round robin, or the Swiss's rounds.
pub fn stage_rounds(sec: &Section, rec: Option<&SectionRecord>, n: u32) -> u32 {
    let Some(cycles) = sec.format.group_format.cycles() else {
        return sec.format.rounds.unwrap_or(0);
    };
    sizes(sec, rec, n)
        .into_iter()
        .map(|s| cycles * arbiter_pairing::round_robin::rounds_per_cycle(s) as u32)
        .max()
        .unwrap_or(0)
}

/// The players of the final and its rounds: `(k, rounds)`.
pub fn final_field(sec: &Section) -> (u32, u32) {
    let (g, a) = shape(sec);
    let k = (g * a).max(2) as u32;
    match sec.format.final_stage {
        Some(FinalStage::SamePlace) if g >= 3 => {
            (k, arbiter_pairing::round_robin::rounds_per_cycle(g) as u32)
        }
        Some(FinalStage::SamePlace) => (k, 1),
        Some(FinalStage::RoundRobin) => (
            k,
            arbiter_pairing::round_robin::rounds_per_cycle(k as usize) as u32,
        ),
        _ => (k, k.next_power_of_two().trailing_zeros()),
    }
}

/// Whether the section's final is played as round robins: one of all the qualifiers
/// (`final = "round_robin"`), or same-place finals of three groups or more (each place's
/// players a round robin of their own, [`pool_size`]).
pub fn final_round_robin(sec: &Section) -> bool {
    is_groups(sec)
        && match sec.format.final_stage {
            Some(FinalStage::RoundRobin) => true,
            Some(FinalStage::SamePlace) => shape(sec).0 >= 3,
            _ => false,
        }
}

/// The players of one round robin of the final: every group's k-th for same-place finals of
/// three groups or more (places (k−1)·g+1 … k·g), else the whole field (`None`).
pub fn pool_size(sec: &Section) -> Option<usize> {
    match sec.format.final_stage {
        Some(FinalStage::SamePlace) if final_round_robin(sec) => Some(shape(sec).0),
        _ => None,
    }
}

/// The field of a final played as round robins cut into its pools, in order (the first pool
/// plays for the first places). Same-place finals list the field place by place, group by
/// group (A1 B1 C1 A2 C2 …): a pool ends where the next player's group is not a later one, so
/// a group short of a k-th qualifier leaves its place's pool one short and shifts no one.
fn pools<'a>(sec: &Section, rec: &SectionRecord, field: &'a [PlayerNo]) -> Vec<&'a [PlayerNo]> {
    if pool_size(sec).is_none() {
        return vec![field];
    }
    let group = |no: &PlayerNo| {
        rec.order
            .get(no.index())
            .and_then(|p| group_of(rec, *p))
            .unwrap_or(0)
    };
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..field.len() {
        if group(&field[i]) <= group(&field[i - 1]) {
            out.push(&field[start..i]);
            start = i;
        }
    }
    if start < field.len() {
        out.push(&field[start..]);
    }
    out
}

/// The players of a final round robin and its rounds, `(k, rounds)`: the field fixed in the
/// log as its first round was paired (`knockout_seeded`), else groups × advance. With the
/// group results carried (`carry_over`) a round of the Berger table whose every pair met in
/// the groups is not played ([`FinalPlan`]).
pub fn final_table_size(sec: &Section, rec: Option<&SectionRecord>) -> (u32, u32) {
    if carries(sec) {
        let plan = match rec {
            Some(r) if !r.knockout_seeds.is_empty() => final_plan(sec, r, &r.knockout_seeds),
            _ => {
                let (g, a) = shape(sec);
                let slots = seed_slots(Some(FinalStage::RoundRobin), g, a);
                FinalPlan::of(slots.len(), |x, y| slots[x - 1].0 == slots[y - 1].0)
            }
        };
        return (plan.codes as u32, plan.played.len() as u32);
    }
    let (k, pool) = match rec {
        Some(r) if !r.knockout_seeds.is_empty() => (
            r.knockout_seeds.len(),
            pools(sec, r, &r.knockout_seeds)
                .iter()
                .map(|p| p.len())
                .max()
                .unwrap_or(0),
        ),
        _ => {
            let k = final_field(sec).0 as usize;
            (k, pool_size(sec).map_or(k, |g| g.min(k)))
        }
    };
    (
        k as u32,
        arbiter_pairing::round_robin::rounds_per_cycle(pool) as u32,
    )
}

/// The field of a final round robin in the order of its Berger codes (A1, B1 …, A2, B2 …):
/// as fixed in the log when its first round was paired, else as the group tables give it now.
pub fn final_players(
    sec: &Section,
    state: &EventState,
    section: &str,
) -> Result<Vec<PlayerNo>, DirectorError> {
    match state.section(section) {
        Some(rec) if !rec.knockout_seeds.is_empty() => Ok(rec.knockout_seeds.clone()),
        Some(_) => final_seeds(sec, state, section),
        None => Err(DirectorError::UnknownSection(section.to_string())),
    }
}

/// The `knockout_seeded` entry that fixes the field of a final round robin — the qualifiers
/// of the group tables, in the order of the final's codes — before its first round, `round`,
/// is paired; `None` for any other round or section, or once the field is fixed. From then
/// on a finalist who withdraws keeps his code (his games are dropped, as in any round robin)
/// and no later qualifier moves up.
pub fn final_field_entry(
    sec: &Section,
    state: &EventState,
    section: &str,
    round: u32,
) -> Result<Option<LogEntry>, DirectorError> {
    let Some(rec) = state.section(section) else {
        return Err(DirectorError::UnknownSection(section.to_string()));
    };
    if !final_round_robin(sec) || !rec.knockout_seeds.is_empty() {
        return Ok(None);
    }
    if round <= stage_rounds(sec, Some(rec), rec.order.len() as u32) {
        return Ok(None);
    }
    let seeds = final_seeds(sec, state, section)?;
    if seeds.is_empty() {
        return Ok(None);
    }
    Ok(Some(LogEntry::KnockoutSeeded {
        section: section.to_string(),
        seeds,
    }))
}

/// Round `round` of the section, round `j` of its final: each pool's Berger table (the whole
/// field, or each place's players of same-place finals), the first pool's boards first,
/// numbered from 1; the byes of odd pools returned apart.
pub fn pair_final(
    sec: &Section,
    rec: &SectionRecord,
    input: &SectionState,
    field: &[PlayerNo],
    round: u32,
    j: u32,
) -> Result<(Pairing, Vec<PlayerNo>), PairingError> {
    let mut boards = Vec::new();
    let mut byes = Vec::new();
    for pool in pools(sec, rec, field) {
        if pool.len() < 2 {
            continue;
        }
        // The Berger round final round `j` plays, and the pairs of it carried from the groups
        // (成绩带入: they are not paired again).
        let plan = final_plan(sec, rec, pool);
        let Some(&b) = plan.played.get((j as usize).wrapping_sub(1)) else {
            return Err(PairingError::NoValidPairing {
                reason_zh: format!("决赛第{j}轮超出决赛轮数 {}", plan.played.len()),
                reason_en: format!(
                    "final round {j} is outside the final's {} rounds",
                    plan.played.len()
                ),
            });
        };
        let carried = plan.carried_nos(pool, b);
        let (mut p, b) = pair_pool(input, pool, round, b)?;
        p.boards.retain(|x| {
            !carried
                .iter()
                .any(|&(r, k)| (x.red, x.black) == (r, k) || (x.red, x.black) == (k, r))
        });
        boards.extend(p.boards);
        byes.extend(b);
    }
    Ok(one_round(round, boards, byes))
}

/// Whether the section's final round robin carries the group results (`carry_over`: 预赛中
/// 已相遇的选手，其成绩带入决赛，不再比赛): two finalists of one group do not meet again;
/// their group game counts as the final's game between them.
pub fn carries(sec: &Section) -> bool {
    is_groups(sec)
        && sec.format.final_stage == Some(FinalStage::RoundRobin)
        && sec.format.carry_over
}

/// The schedule of one round robin of a final: its Berger table of `codes` players (code 1
/// the pool's first), the pairs of each Berger round carried from the group stage, and the
/// Berger rounds played. A pair carried sits in the Berger round it would be in: its two
/// players rest that round (no game and no bye point; the group game counts instead). A
/// Berger round every pair of which is carried is not played and the later rounds move up;
/// its pairs are shown and counted with the played round before it (the first played round
/// when none is before it, [`FinalPlan::home`]). Without carry-over nothing is carried and
/// the final plays every Berger round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalPlan {
    /// The players of the table.
    pub codes: usize,
    /// `carried[b − 1]`: the pairs of Berger round `b` carried (codes, red first as the
    /// table lists them).
    pub carried: Vec<Vec<(usize, usize)>>,
    /// The Berger rounds played in order: final round `j` plays Berger round `played[j − 1]`.
    pub played: Vec<u32>,
}

impl FinalPlan {
    /// The plan of the Berger table of `codes` players in which the pairs `met(a, b)` (codes
    /// from 1) are carried.
    pub fn of(codes: usize, met: impl Fn(usize, usize) -> bool) -> FinalPlan {
        let table = arbiter_pairing::round_robin::berger(codes);
        let mut carried = Vec::with_capacity(table.len());
        let mut played = Vec::new();
        for (i, r) in table.iter().enumerate() {
            let c: Vec<(usize, usize)> = r
                .boards
                .iter()
                .copied()
                .filter(|&(a, b)| met(a, b))
                .collect();
            if c.len() < r.boards.len() {
                played.push(i as u32 + 1);
            }
            carried.push(c);
        }
        FinalPlan {
            codes,
            carried,
            played,
        }
    }

    /// The final round (from 1) that shows the pairs carried in Berger round `b` and counts
    /// them once it is complete: the round that plays `b`, else the last played round before
    /// it, else the first.
    pub fn home(&self, b: u32) -> usize {
        self.played.iter().rposition(|&p| p <= b).unwrap_or(0) + 1
    }

    /// The partner (code) of `code` in a pair carried in Berger round `b`.
    fn partner(&self, b: u32, code: usize) -> Option<usize> {
        self.carried
            .get((b as usize).checked_sub(1)?)?
            .iter()
            .find_map(|&(x, y)| {
                if x == code {
                    Some(y)
                } else if y == code {
                    Some(x)
                } else {
                    None
                }
            })
    }

    /// The pairs carried in Berger round `b` as the pool's pairing numbers.
    pub fn carried_nos(&self, pool: &[PlayerNo], b: u32) -> Vec<(PlayerNo, PlayerNo)> {
        let no = |c: usize| pool.get(c.wrapping_sub(1)).copied();
        self.carried
            .get((b as usize).wrapping_sub(1))
            .into_iter()
            .flatten()
            .filter_map(|&(x, y)| Some((no(x)?, no(y)?)))
            .collect()
    }

    /// The Berger rounds whose carried pairs final round `j` (from 1) shows.
    pub fn shown_in(&self, j: usize) -> Vec<u32> {
        (1..=self.carried.len() as u32)
            .filter(|&b| self.home(b) == j && !self.carried[b as usize - 1].is_empty())
            .collect()
    }

    /// The final's outcomes of the player of `code`, Berger round by Berger round, as far as
    /// the final's first `done` rounds reach (a round carried counts once its home round is
    /// complete): `played[i]` is his outcome in final round `i + 1` as the log has it, and a
    /// pair carried takes `carried(partner)`, his group game against the partner. A Berger
    /// round not played in which he has no pair carried is [`Outcome::Absent`] (an odd
    /// table's bye).
    pub fn outcomes(
        &self,
        code: usize,
        played: &[Outcome],
        done: usize,
        carried: impl Fn(usize) -> Outcome,
    ) -> Vec<Outcome> {
        let mut out = Vec::with_capacity(self.carried.len());
        for b in 1..=self.carried.len() as u32 {
            if self.home(b) > done {
                continue;
            }
            let at = self.played.iter().position(|&p| p == b);
            out.push(match (self.partner(b, code), at) {
                (Some(q), _) => carried(q),
                (None, Some(i)) => played.get(i).copied().unwrap_or(Outcome::Absent),
                (None, None) => Outcome::Absent,
            });
        }
        out
    }
}

/// The plan of the final round robin of `pool` (its players in code order): the pairs of one
/// group carried when the section carries the group results ([`carries`]).
pub fn final_plan(sec: &Section, rec: &SectionRecord, pool: &[PlayerNo]) -> FinalPlan {
    let carry = carries(sec);
    let group = |c: usize| {
        pool.get(c.wrapping_sub(1))
            .and_then(|no| rec.order.get(no.index()))
            .and_then(|p| group_of(rec, *p))
    };
    FinalPlan::of(pool.len(), |a, b| {
        carry && group(a).is_some() && group(a) == group(b)
    })
}

/// The group games carried into round `round` of a final round robin (成绩带入), as its page
/// shows them: for each pair, the group round and the group's board (its colours and result
/// as played). Empty for any other round or section.
pub fn carried_games(
    sec: &Section,
    state: &EventState,
    section: &str,
    round: u32,
) -> Vec<(u32, arbiter_core::BoardRecord)> {
    let Some(rec) = state.section(section) else {
        return Vec::new();
    };
    if !carries(sec) || rec.knockout_seeds.is_empty() {
        return Vec::new();
    }
    let group_rounds = stage_rounds(sec, Some(rec), rec.order.len() as u32);
    let Some(j) = round.checked_sub(group_rounds).filter(|j| *j > 0) else {
        return Vec::new();
    };
    let pid = |no: PlayerNo| rec.order.get(no.index()).copied();
    let mut out = Vec::new();
    for pool in pools(sec, rec, &rec.knockout_seeds) {
        let plan = final_plan(sec, rec, pool);
        for b in plan.shown_in(j as usize) {
            for (x, y) in plan.carried_nos(pool, b) {
                let (Some(x), Some(y)) = (pid(x), pid(y)) else {
                    continue;
                };
                let game = (1..=group_rounds).find_map(|r| {
                    rec.round(r)?
                        .boards
                        .iter()
                        .find(|g| (g.red == x && g.black == y) || (g.red == y && g.black == x))
                        .map(|g| (r, g.clone()))
                });
                out.extend(game);
            }
        }
    }
    out
}

/// The boards of every group or pool as one round, numbered from 1 in order; the byes apart.
fn one_round(
    round: u32,
    mut boards: Vec<arbiter_pairing::Board>,
    byes: Vec<PlayerNo>,
) -> (Pairing, Vec<PlayerNo>) {
    for (i, b) in boards.iter_mut().enumerate() {
        b.board = i as u32 + 1;
    }
    (
        Pairing {
            round,
            boards,
            bye: None,
            bye_why: None,
            relaxed: Vec::new(),
        },
        byes,
    )
}

/// Round `j` of one pool's Berger table, by the pool's codes (its first player is code 1).
fn pair_pool(
    input: &SectionState,
    field: &[PlayerNo],
    round: u32,
    j: u32,
) -> Result<(Pairing, Vec<PlayerNo>), PairingError> {
    let sub = SectionState {
        players: field
            .iter()
            .filter_map(|no| input.players.iter().find(|e| e.no == *no))
            .cloned()
            .collect(),
        scoring: input.scoring,
        settings: input.settings,
        total_rounds: arbiter_pairing::round_robin::rounds_per_cycle(field.len()) as u32,
    };
    let mut p = arbiter_pairing::round_robin::pair_round_robin_by_codes(&sub, j, 1)?;
    p.round = round;
    let byes = p.bye.take().into_iter().collect();
    for (i, b) in p.boards.iter_mut().enumerate() {
        b.board = i as u32 + 1;
    }
    Ok((p, byes))
}

/// The standings of a final played as round robins once its field is fixed, one table a pool
/// (the first pool plays for the first places): the finalists' games of the rounds after the
/// group stage, by the section's tie-breaks (the group games are not carried into the final).
/// `None` before the final's first round is paired.
pub fn final_tables(
    sec: &Section,
    state: &EventState,
    section: &str,
) -> Result<Option<Vec<Standings>>, DirectorError> {
    let Some(rec) = state.section(section) else {
        return Err(DirectorError::UnknownSection(section.to_string()));
    };
    if !final_round_robin(sec) || rec.knockout_seeds.is_empty() {
        return Ok(None);
    }
    let group_rounds = stage_rounds(sec, Some(rec), rec.order.len() as u32) as usize;
    let all = individual_input(sec, state, section, None)?;
    let mut out = Vec::new();
    for field in pools(sec, rec, &rec.knockout_seeds) {
        let from = final_input(sec, rec, &all, field, group_rounds, None);
        out.push(individual_from(sec, &from)?);
    }
    Ok(Some(out))
}

/// The standings input of the finalists `field` (one pool, in code order): their outcomes in
/// the final ([`FinalPlan::outcomes`]: the rounds after `group_rounds`, with the group games
/// carried into it), as far as the final's first `upto` rounds (all completed if `None`).
fn final_input(
    sec: &Section,
    rec: &SectionRecord,
    all: &crate::standings::IndividualInput,
    field: &[PlayerNo],
    group_rounds: usize,
    upto: Option<usize>,
) -> crate::standings::IndividualInput {
    let plan = final_plan(sec, rec, field);
    let mut from = only(all, field);
    for (e, o) in from
        .input
        .players
        .iter()
        .zip(from.input.outcomes.iter_mut())
    {
        let group: Vec<Outcome> = o.drain(..group_rounds.min(o.len())).collect();
        let done = upto.map_or(o.len(), |u| u.min(o.len()));
        let Some(code) = field.iter().position(|f| *f == e.no).map(|i| i + 1) else {
            continue;
        };
        let met = |partner: usize| {
            field
                .get(partner - 1)
                .and_then(|q| group.iter().find(|x| x.opponent() == Some(*q)))
                .copied()
                .unwrap_or(Outcome::Absent)
        };
        *o = plan.outcomes(code, o, done, met);
    }
    from
}

/// The final's points of each finalist before round `round` of a final played as round
/// robins (its earlier rounds and the group games they carried): what the round's page shows
/// beside each name. `None` for a round of the group stage, any other section, or before
/// the final's field is fixed.
pub fn final_points_before(
    sec: &Section,
    state: &EventState,
    section: &str,
    round: u32,
) -> Result<Option<std::collections::BTreeMap<PlayerNo, arbiter_types::Score>>, DirectorError> {
    let Some(rec) = state.section(section) else {
        return Err(DirectorError::UnknownSection(section.to_string()));
    };
    if !final_round_robin(sec) || rec.knockout_seeds.is_empty() {
        return Ok(None);
    }
    let group_rounds = stage_rounds(sec, Some(rec), rec.order.len() as u32);
    let Some(j) = round.checked_sub(group_rounds).filter(|j| *j > 0) else {
        return Ok(None);
    };
    let all = individual_input(sec, state, section, None)?;
    let table = crate::plan::scoring_table(sec, state);
    let mut out = std::collections::BTreeMap::new();
    for field in pools(sec, rec, &rec.knockout_seeds) {
        let from = final_input(
            sec,
            rec,
            &all,
            field,
            group_rounds as usize,
            Some(j as usize - 1),
        );
        for (e, o) in from.input.players.iter().zip(&from.input.outcomes) {
            out.insert(e.no, o.iter().map(|x| x.points(&table)).sum());
        }
    }
    Ok(Some(out))
}

/// The standings input of the players `nos` alone (a group, the finalists): their rows,
/// their outcomes and who of them stands apart.
fn only(
    all: &crate::standings::IndividualInput,
    nos: &[PlayerNo],
) -> crate::standings::IndividualInput {
    let mut from = all.clone();
    let keep: Vec<bool> = from
        .input
        .players
        .iter()
        .map(|e| nos.contains(&e.no))
        .collect();
    let mut k = keep.iter();
    from.input.players.retain(|_| *k.next().unwrap_or(&false));
    let mut k = keep.iter();
    from.input.outcomes.retain(|_| *k.next().unwrap_or(&false));
    from.apart.retain(|no| nos.contains(no));
    from
}

/// Round `round` of the group stage: each group's round on its own boards, group A's
/// first — a round robin's Berger table round (a group whose table is played out sits the
/// round out), or a Swiss round of the group's players alone, paired by the engine as a
/// Swiss section's (`seed` draws round 1; each group's lot its own, derived from it). The
/// boards are numbered 1… across the groups; the byes (a group of odd size) are returned
/// apart.
pub fn pair_round(
    input: &SectionState,
    rec: &SectionRecord,
    round: u32,
    format: GroupFormat,
    swiss_rounds: u32,
    seed: u64,
) -> Result<(Pairing, Vec<PlayerNo>), PairingError> {
    let mut boards = Vec::new();
    let mut byes = Vec::new();
    for (g, grp) in rec.groups.iter().enumerate() {
        let nos: Vec<PlayerNo> = grp.iter().filter_map(|p| rec.pairing_no(*p)).collect();
        let per = match format.cycles() {
            Some(c) => c * arbiter_pairing::round_robin::rounds_per_cycle(nos.len()) as u32,
            None => swiss_rounds,
        };
        if round > per {
            continue;
        }
        // The group's players in the group's order (its Berger codes: the pairing numbers'
        // order, or the codes drawn by a pots split).
        let sub = SectionState {
            players: nos
                .iter()
                .filter_map(|no| input.players.iter().find(|e| e.no == *no))
                .cloned()
                .collect(),
            scoring: input.scoring,
            settings: input.settings,
            total_rounds: per,
        };
        let p = match format.cycles() {
            Some(c) => arbiter_pairing::round_robin::pair_round_robin_by_codes(&sub, round, c)?,
            None if sub.players.len() < 2 => continue,
            None if round == 1 => arbiter_pairing::round1::pair_round1(
                &sub,
                crate::derive_seed(seed, &format!("group {}", letter(g))),
            )?,
            None => arbiter_pairing::pair_swiss(&sub, round)?,
        };
        boards.extend(p.boards);
        byes.extend(p.bye);
    }
    Ok(one_round(round, boards, byes))
}

/// The standings of each group (A first) after the group stage's rounds played so far, by
/// the section's tie-breaks: the section's standings input restricted to the group.
pub fn tables(
    sec: &Section,
    state: &EventState,
    section: &str,
) -> Result<Vec<Standings>, DirectorError> {
    let Some(rec) = state.section(section) else {
        return Err(DirectorError::UnknownSection(section.to_string()));
    };
    let n = rec.order.len() as u32;
    let upto = stage_rounds(sec, Some(rec), n);
    let all = individual_input(sec, state, section, Some(upto))?;
    let mut out = Vec::with_capacity(rec.groups.len());
    for grp in &rec.groups {
        let nos: Vec<PlayerNo> = grp.iter().filter_map(|p| rec.pairing_no(*p)).collect();
        out.push(individual_from(sec, &only(&all, &nos))?);
    }
    Ok(out)
}

/// The qualifiers of each group (its first `advance` rows, a withdrawn or disqualified
/// player left out), group A first.
fn qualifiers(
    state: &EventState,
    rec: &SectionRecord,
    tables: &[Standings],
    a: usize,
) -> Vec<Vec<PlayerNo>> {
    tables
        .iter()
        .map(|t| {
            t.rows
                .iter()
                .filter(|r| {
                    rec.order
                        .get(r.no.index())
                        .and_then(|p| state.player(*p))
                        .is_some_and(|p| p.withdrawn.is_none() && p.disqualified.is_none())
                })
                .take(a)
                .map(|r| r.no)
                .collect()
        })
        .collect()
}

/// The seeds of the final, in the order the knockout crate pairs them. Cross knockout
/// (groups in pairs A–B, C–D …): the group winners are seeds 1…g, and each second faces
/// the winner of the paired group, so the first round is A1–B2, B1–A2, C1–D2 … (with one
/// qualifier a group: A1–B1, C1–D1 …). Same-place finals: A1, B1, A2, B2 … (seeds 1–2 play
/// for places 1–2). A place whose group has no qualifier left is dropped.
pub fn final_seeds(
    sec: &Section,
    state: &EventState,
    section: &str,
) -> Result<Vec<PlayerNo>, DirectorError> {
    let Some(rec) = state.section(section) else {
        return Err(DirectorError::UnknownSection(section.to_string()));
    };
    let (g, a) = shape(sec);
    let q = qualifiers(state, rec, &tables(sec, state, section)?, a);
    let at = |grp: usize, place: usize| q.get(grp).and_then(|v| v.get(place)).copied();
    Ok(seed_slots(sec.format.final_stage, g, a)
        .into_iter()
        .filter_map(|(grp, place)| at(grp, place))
        .collect())
}

/// Which (group, place) — both from 0 — holds each seed of the final, seed 1 first.
pub fn seed_slots(fin: Option<FinalStage>, g: usize, a: usize) -> Vec<(usize, usize)> {
    let k = g * a;
    let mut slots = vec![(0, 0); k];
    match fin {
        Some(FinalStage::SamePlace | FinalStage::Knockout | FinalStage::RoundRobin) => {
            for place in 0..a {
                for grp in 0..g {
                    slots[place * g + grp] = (grp, place);
                }
            }
        }
        _ if a == 1 => {
            // A1–B1, C1–D1 …: the pair p's first winner is seed p + 1, the second's
            // opponent seed k − p.
            for p in 0..g / 2 {
                slots[p] = (2 * p, 0);
                slots[k - 1 - p] = (2 * p + 1, 0);
            }
        }
        _ => {
            // Winners are seeds 1…g; group j's second faces the winner of group j ^ 1,
            // whose seed s meets seed k + 1 − s.
            for grp in 0..g {
                slots[grp] = (grp, 0);
                let partner = grp ^ 1;
                slots[k - 1 - partner] = (grp, 1);
            }
        }
    }
    slots
}

/// The split in words: each group's pairing numbers (「分组 (蛇形): A组 1 4 5 8；B组 2 3 6 7」),
/// with the lot's seed; `order` is the section's players in number order (number 1 first);
/// `numbers`: the groups named 1组, 2组 ….
pub fn split_note(
    order: &[PlayerId],
    groups: &[Vec<PlayerId>],
    seed: Option<u64>,
    numbers: bool,
) -> String {
    let parts: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let nos: Vec<String> = g
                .iter()
                .map(|p| {
                    order
                        .iter()
                        .position(|q| q == p)
                        .map_or_else(|| p.to_string(), |n| (n + 1).to_string())
                })
                .collect();
            format!("{}组 {}", name(numbers, i), nos.join(" "))
        })
        .collect();
    let how = match seed {
        Some(s) => format!("抽签, 种子 {s}"),
        None => "蛇形".to_string(),
    };
    format!("已分组 ({how}): {}", parts.join("；"))
}

/// Each player's group place in the tables, `(group, place from 1, pairing number)`, group
/// A first, best first.
pub fn places(tables: &[Standings]) -> Vec<(usize, u32, PlayerNo)> {
    tables
        .iter()
        .enumerate()
        .flat_map(|(g, t)| t.rows.iter().map(move |r| (g, r.rank, r.no)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_of_ten_in_four_groups() {
        // 1 2 3 4 → A B C D; 5 6 7 8 → D C B A; 9 10 → A B.
        let s = snake(10, 4);
        let one_based: Vec<Vec<usize>> = s
            .iter()
            .map(|g| g.iter().map(|i| i + 1).collect())
            .collect();
        assert_eq!(
            one_based,
            vec![vec![1, 8, 9], vec![2, 7, 10], vec![3, 6], vec![4, 5]]
        );
    }

    #[test]
    fn snake_of_eight_in_two_groups() {
        let s = snake(8, 2);
        assert_eq!(s, vec![vec![0, 3, 4, 7], vec![1, 2, 5, 6]]);
    }

    #[test]
    fn lots_deal_every_number_once_and_depend_on_the_seed() {
        let a = by_lot(11, 3, 7);
        let mut all: Vec<usize> = a.iter().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..11).collect::<Vec<_>>());
        assert_eq!(a.iter().map(Vec::len).collect::<Vec<_>>(), vec![4, 4, 3]);
        assert_eq!(a, by_lot(11, 3, 7));
        assert_ne!(a, by_lot(11, 3, 8));
    }

    /// The first-round pairs of a bracket seeded by `slots`, as group letters and places (each
    /// pair's names in order).
    fn first_round(slots: &[(usize, usize)]) -> Vec<String> {
        let k = slots.len() as u32;
        let name = |s: u32| {
            let (g, p) = slots[s as usize - 1];
            format!("{}{}", letter(g), p + 1)
        };
        arbiter_knockout::seed_order(k)
            .chunks(2)
            .map(|c| {
                let mut pair = [name(c[0]), name(c[1])];
                pair.sort();
                pair.join("–")
            })
            .collect()
    }

    #[test]
    fn cross_of_two_groups_is_a1_b2_and_b1_a2() {
        let slots = seed_slots(Some(FinalStage::CrossKnockout), 2, 2);
        let mut pairs = first_round(&slots);
        pairs.sort();
        assert_eq!(pairs, vec!["A1–B2", "A2–B1"]);
    }

    #[test]
    fn cross_of_four_groups_pairs_a_with_b_and_c_with_d() {
        let slots = seed_slots(Some(FinalStage::CrossKnockout), 4, 2);
        let mut pairs = first_round(&slots);
        pairs.sort();
        assert_eq!(pairs, vec!["A1–B2", "A2–B1", "C1–D2", "C2–D1"]);
        let one = seed_slots(Some(FinalStage::CrossKnockout), 4, 1);
        let mut pairs = first_round(&one);
        pairs.sort();
        assert_eq!(pairs, vec!["A1–B1", "C1–D1"]);
    }

    /// The group (from 0) of each position of a split.
    fn group_of_position(split: &[Vec<usize>], n: usize) -> Vec<usize> {
        let mut at = vec![usize::MAX; n];
        for (g, grp) in split.iter().enumerate() {
            for &i in grp {
                at[i] = g;
            }
        }
        at
    }

    #[test]
    fn pots_of_the_national_championship_men() {
        // 2025 全国象棋锦标赛(个人): 男子组 126 人分 32 组，第1、2组各3人，其余各4人；排名第1、2名
        // 直接入第1、2组，第3–4名抽签至第3–4组，第5–8名至第5–8组，第9–16名至第9–16组，
        // 第17–32名至第17–32组，其余按组数分批次抽签入组。
        for seed in [1, 2, 99] {
            let split = by_pots(126, 32, seed);
            let sizes: Vec<usize> = split.iter().map(Vec::len).collect();
            assert_eq!(&sizes[..2], &[3, 3]);
            assert!(sizes[2..].iter().all(|&s| s == 4), "{sizes:?}");
            let at = group_of_position(&split, 126);
            assert!(at.iter().all(|&g| g < 32), "every number placed once");
            assert_eq!((at[0], at[1]), (0, 1));
            for (pot, range) in [(2..4, 2..4), (4..8, 4..8), (8..16, 8..16), (16..32, 16..32)] {
                let mut gs: Vec<usize> = pot.map(|i| at[i]).collect();
                gs.sort_unstable();
                assert_eq!(gs, range.collect::<Vec<_>>());
            }
            // Each later batch puts one player in each group (the last, short one in the
            // last groups).
            for b in 1..3 {
                let mut gs: Vec<usize> = (32 * b..32 * (b + 1)).map(|i| at[i]).collect();
                gs.sort_unstable();
                assert_eq!(gs, (0..32).collect::<Vec<_>>());
            }
            let mut last: Vec<usize> = (96..126).map(|i| at[i]).collect();
            last.sort_unstable();
            assert_eq!(last, (2..32).collect::<Vec<_>>());
        }
        // The lots depend on the seed (a pot of 16 drawn twice the same way is unlikely).
        assert_ne!(by_pots(126, 32, 1), by_pots(126, 32, 2));
        assert_eq!(by_pots(126, 32, 1), by_pots(126, 32, 1));
    }

    #[test]
    fn pots_of_the_national_championship_women() {
        // 女子组 56 人分 16 组，第1–8组各3人，其余各4人。
        let split = by_pots(56, 16, 7);
        let sizes: Vec<usize> = split.iter().map(Vec::len).collect();
        assert_eq!(sizes, [vec![3; 8], vec![4; 8]].concat());
        let at = group_of_position(&split, 56);
        assert_eq!((at[0], at[1]), (0, 1));
        let mut last: Vec<usize> = (48..56).map(|i| at[i]).collect();
        last.sort_unstable();
        assert_eq!(last, (8..16).collect::<Vec<_>>());
    }

    #[test]
    fn a_knockout_final_seeds_group_winners_by_group_number() {
        let slots = seed_slots(Some(FinalStage::Knockout), 16, 1);
        assert_eq!(slots, (0..16).map(|g| (g, 0)).collect::<Vec<_>>());
        // Group 1's winner meets group 16's in the first round, 1 and 2 only in the final.
        let pairs = first_round(&slots);
        assert!(pairs.contains(&"A1–P1".to_string()), "{pairs:?}");
        let two = seed_slots(Some(FinalStage::Knockout), 4, 2);
        assert_eq!(two[..4], [(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert_eq!(two[4], (0, 1));
    }

    #[test]
    fn players_of_one_team_meet_in_round_one() {
        let ids: Vec<PlayerId> = (1..=4).map(PlayerId).collect();
        // Players 1 and 3 of team 7, 2 and 4 of teams 8 and 9.
        let teams = [(1, 7), (2, 8), (3, 7), (4, 9)]
            .into_iter()
            .map(|(p, t)| (PlayerId(p), t))
            .collect();
        let coded = same_team_first(&ids, &teams);
        let mut sorted = coded.clone();
        sorted.sort();
        assert_eq!(sorted, ids, "the same players");
        let r1 = &arbiter_pairing::round_robin::berger(4)[0];
        let met = r1.boards.iter().any(|&(a, b)| {
            let pair = [coded[a - 1], coded[b - 1]];
            pair.contains(&PlayerId(1)) && pair.contains(&PlayerId(3))
        });
        assert!(met, "{coded:?} {:?}", r1.boards);
        // No two of one team: the order is kept.
        let apart = [(1, 1), (2, 2), (3, 3), (4, 4)]
            .into_iter()
            .map(|(p, t)| (PlayerId(p), t))
            .collect();
        assert_eq!(same_team_first(&ids, &apart), ids);
        // Three players (a bye each round): the pair takes the board, not the bye.
        let three: Vec<PlayerId> = (1..=3).map(PlayerId).collect();
        let t3 = [(1, 1), (2, 5), (3, 5)]
            .into_iter()
            .map(|(p, t)| (PlayerId(p), t))
            .collect();
        let coded = same_team_first(&three, &t3);
        let r1 = &arbiter_pairing::round_robin::berger(3)[0];
        let (a, b) = r1.boards[0];
        let mut pair = [coded[a - 1], coded[b - 1]];
        pair.sort();
        assert_eq!(pair, [PlayerId(2), PlayerId(3)], "{coded:?}");
    }

    #[test]
    fn carried_pairs_of_two_groups_of_two_leave_a_round_unplayed() {
        // Codes A1 B1 A2 B2: Berger round 3 is 2–4 (B1–B2) and 3–1 (A2–A1), both of one
        // group; rounds 1 and 2 play across the groups.
        let group = |c: usize| (c - 1) % 2;
        let plan = FinalPlan::of(4, |a, b| group(a) == group(b));
        assert_eq!(plan.played, vec![1, 2]);
        assert!(plan.carried[0].is_empty() && plan.carried[1].is_empty());
        let mut third = plan.carried[2].clone();
        third.sort();
        assert_eq!(third, vec![(2, 4), (3, 1)]);
        // Shown and counted with the final's second round.
        assert_eq!(plan.home(3), 2);
        assert_eq!(plan.shown_in(2), vec![3]);
        assert!(plan.shown_in(1).is_empty());
        // A1's outcomes: his two games, then the carried one once round 2 is done.
        let game = |opp: u32| Outcome::Game {
            opponent: PlayerNo::new(opp).unwrap(),
            colour: arbiter_types::Colour::Red,
            result: arbiter_types::PlayerResult::Win,
        };
        let played = [game(40), game(20)];
        let carried = |q: usize| game(q as u32 * 100);
        assert_eq!(plan.outcomes(1, &played, 1, carried), vec![game(40)]);
        assert_eq!(
            plan.outcomes(1, &played, 2, carried),
            vec![game(40), game(20), game(300)]
        );
        // Without carry-over every round is played and nothing carried.
        let none = FinalPlan::of(4, |_, _| false);
        assert_eq!(none.played, vec![1, 2, 3]);
        assert_eq!(none.outcomes(1, &played, 2, carried), played.to_vec());
    }

    #[test]
    fn carried_pairs_of_three_groups_of_two_leave_every_round_played() {
        // A1 B1 C1 A2 B2 C2: the three pairs of one group are spread over the Berger rounds;
        // no round is all carried, and each of them is carried once.
        let group = |c: usize| (c - 1) % 3;
        let plan = FinalPlan::of(6, |a, b| group(a) == group(b));
        assert_eq!(plan.played, vec![1, 2, 3, 4, 5]);
        let mut all: Vec<(usize, usize)> = plan
            .carried
            .iter()
            .flatten()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        all.sort();
        assert_eq!(all, vec![(1, 4), (2, 5), (3, 6)]);
    }

    #[test]
    fn same_place_seeds_go_a1_b1_a2_b2() {
        let slots = seed_slots(Some(FinalStage::SamePlace), 2, 3);
        assert_eq!(slots, vec![(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]);
    }
}
