//! Tie-break names (A6). The names are a contract: outside tools pass them on the command
//! line and read them in `export.json`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One tie-break criterion, applied after points, in the order the regulation lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TiebreakName {
    /// 对手分: sum of all opponents' final scores (bye = lowest final score).
    OppScore,
    /// 累进分: sum of running totals.
    Progressive,
    /// 胜局
    Wins,
    /// 犯规 (fewer first)
    Fouls,
    /// 直胜
    Direct,
    /// 后走局数
    BlackGames,
    /// 后走胜局
    BlackWins,
    /// 小分 / Sonneborn-Berger
    Sb,
    Buchholz,
    BuchholzCut1,
    BuchholzMedian1,
    /// Average rating of opponents.
    Aro,
    AroCut1,
    /// Average performance rating of opponents.
    Apro,
    /// Tournament performance rating.
    Performance,
}

impl TiebreakName {
    pub const ALL: [TiebreakName; 15] = [
        TiebreakName::OppScore,
        TiebreakName::Progressive,
        TiebreakName::Wins,
        TiebreakName::Fouls,
        TiebreakName::Direct,
        TiebreakName::BlackGames,
        TiebreakName::BlackWins,
        TiebreakName::Sb,
        TiebreakName::Buchholz,
        TiebreakName::BuchholzCut1,
        TiebreakName::BuchholzMedian1,
        TiebreakName::Aro,
        TiebreakName::AroCut1,
        TiebreakName::Apro,
        TiebreakName::Performance,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TiebreakName::OppScore => "opp_score",
            TiebreakName::Progressive => "progressive",
            TiebreakName::Wins => "wins",
            TiebreakName::Fouls => "fouls",
            TiebreakName::Direct => "direct",
            TiebreakName::BlackGames => "black_games",
            TiebreakName::BlackWins => "black_wins",
            TiebreakName::Sb => "sb",
            TiebreakName::Buchholz => "buchholz",
            TiebreakName::BuchholzCut1 => "buchholz_cut1",
            TiebreakName::BuchholzMedian1 => "buchholz_median1",
            TiebreakName::Aro => "aro",
            TiebreakName::AroCut1 => "aro_cut1",
            TiebreakName::Apro => "apro",
            TiebreakName::Performance => "performance",
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            TiebreakName::OppScore => "对手分",
            TiebreakName::Progressive => "累进分",
            TiebreakName::Wins => "胜局",
            TiebreakName::Fouls => "犯规",
            TiebreakName::Direct => "直胜",
            TiebreakName::BlackGames => "后走局数",
            TiebreakName::BlackWins => "后走胜局",
            TiebreakName::Sb => "小分",
            TiebreakName::Buchholz => "布氏分",
            TiebreakName::BuchholzCut1 => "布氏分去最低",
            TiebreakName::BuchholzMedian1 => "布氏分去高低",
            TiebreakName::Aro => "对手平均等级分",
            TiebreakName::AroCut1 => "对手平均等级分去最低",
            TiebreakName::Apro => "对手平均表现分",
            TiebreakName::Performance => "表现分",
        }
    }

    /// Lower values rank higher only for fouls.
    pub fn lower_is_better(self) -> bool {
        matches!(self, TiebreakName::Fouls)
    }
}

impl fmt::Display for TiebreakName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The last resort after the tie-break list (A6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// 比较前一轮名次: the ranking after round N−1 by the same list, then N−2, … (K10, T4).
    PreviousRoundRank,
    /// 逐轮递减法: score after round N−1, then N−2, … (J3).
    PreviousRoundScore,
    /// 2011 14.3.2: total minus round-1 points, then minus rounds 1–2, …
    DropFirstRounds,
    /// Drawing lots, with a seed recorded in the event log.
    Lots,
    /// Tied places are shared.
    Shared,
}

impl Fallback {
    pub const ALL: [Fallback; 5] = [
        Fallback::PreviousRoundRank,
        Fallback::PreviousRoundScore,
        Fallback::DropFirstRounds,
        Fallback::Lots,
        Fallback::Shared,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fallback::PreviousRoundRank => "previous_round_rank",
            Fallback::PreviousRoundScore => "previous_round_score",
            Fallback::DropFirstRounds => "drop_first_rounds",
            Fallback::Lots => "lots",
            Fallback::Shared => "shared",
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            Fallback::PreviousRoundRank => "比较前一轮名次",
            Fallback::PreviousRoundScore => "逐轮递减法",
            Fallback::DropFirstRounds => "去除首轮积分",
            Fallback::Lots => "抽签",
            Fallback::Shared => "名次并列",
        }
    }
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown tie-break name, with the closest known name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tie-break `{given}`{}", suggestion.map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
pub struct UnknownTiebreak {
    pub given: String,
    pub suggestion: Option<&'static str>,
}

/// A criterion or a fallback, as written in a comma-separated list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TiebreakItem {
    Criterion(TiebreakName),
    Fallback(Fallback),
}

impl FromStr for TiebreakItem {
    type Err = UnknownTiebreak;
    fn from_str(s: &str) -> Result<Self, UnknownTiebreak> {
        let t = s.trim();
        if let Some(c) = TiebreakName::ALL.into_iter().find(|c| c.name() == t) {
            return Ok(TiebreakItem::Criterion(c));
        }
        if let Some(f) = Fallback::ALL.into_iter().find(|f| f.name() == t) {
            return Ok(TiebreakItem::Fallback(f));
        }
        let names = TiebreakName::ALL
            .iter()
            .map(|c| c.name())
            .chain(Fallback::ALL.iter().map(|f| f.name()));
        Err(UnknownTiebreak {
            given: t.to_string(),
            suggestion: closest(t, names),
        })
    }
}

/// The closest of `candidates` to `given` by edit distance, if it is close enough to be a
/// plausible typo. Used for every "did you mean" in the project.
pub fn closest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(given, c);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.filter(|(d, c)| *d <= 2.max(c.chars().count() / 3))
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back() {
        for c in TiebreakName::ALL {
            assert_eq!(
                c.name().parse::<TiebreakItem>(),
                Ok(TiebreakItem::Criterion(c))
            );
        }
        for f in Fallback::ALL {
            assert_eq!(
                f.name().parse::<TiebreakItem>(),
                Ok(TiebreakItem::Fallback(f))
            );
        }
    }

    #[test]
    fn typo_gets_a_suggestion() {
        let e = "opp_scor".parse::<TiebreakItem>().unwrap_err();
        assert_eq!(e.suggestion, Some("opp_score"));
        assert_eq!(
            e.to_string(),
            "unknown tie-break `opp_scor` (did you mean `opp_score`?)"
        );
        let e = "zzzzzzzzzzzz".parse::<TiebreakItem>().unwrap_err();
        assert_eq!(e.suggestion, None);
    }
}
