//! Tie-break presets (A6).

use crate::model::Tiebreaks;
use arbiter_types::{Fallback, TiebreakName};

/// Every tie-break preset name.
pub const TIEBREAK_PRESETS: [&str; 6] = [
    "cxa-2011-opp",
    "cxa-2011-prog",
    "kunshan",
    "suzhou",
    "jiujiang",
    "tianshui",
];

/// The preset of a table that names no regulation (a TRF file read by `arbiter standings`):
/// the 2011 rule's list (14.3.1: 对手分, 胜局, 犯规, 后走局数) with the ranking fallback that
/// Kunshan (K10) states, 「比较前一轮名次」.
pub const WITHOUT_REGULATION: &str = "kunshan";

/// The tie-break list of a preset, or `None` for an unknown name.
pub fn tiebreaks(name: &str) -> Option<Tiebreaks> {
    use Fallback::*;
    use TiebreakName::*;
    if name == "cxa-2011-rr" {
        // 2011 14.1, round robin: 小分, 胜局, 直胜, 犯规, 后走局数; no fallback named.
        return Some(Tiebreaks {
            preset: Some(name.to_string()),
            criteria: vec![Sb, Wins, Direct, Fouls, BlackGames],
            fallback: None,
            defaulted: false,
        });
    }
    let (criteria, fallback): (&[TiebreakName], Fallback) = match name {
        // 2011 14.3.1
        "cxa-2011-opp" => (&[OppScore, Wins, Fouls, BlackGames], PreviousRoundScore),
        // 2011 14.3.2
        "cxa-2011-prog" => (&[Progressive, Wins, Fouls, BlackGames], DropFirstRounds),
        // K10
        "kunshan" => (&[OppScore, Wins, Fouls, BlackGames], PreviousRoundRank),
        // S: the regulation names no order; 2011 14.3.1 with the ranking fallback.
        "suzhou" => (&[OppScore, Wins, Fouls, BlackGames], PreviousRoundRank),
        // J3
        "jiujiang" => (
            &[OppScore, Wins, Fouls, Direct, BlackGames, BlackWins],
            PreviousRoundScore,
        ),
        // T4
        // 天水 八(七): 「如无法区分，则比较前一轮成绩，直至区分」 — the previous round's score
        // (成绩), then the round before, not its ranking (昆山's 「比较前一轮名次」 is the rank).
        "tianshui" => (
            &[OppScore, Wins, Fouls, BlackGames, BlackWins],
            PreviousRoundScore,
        ),
        _ => return None,
    };
    Some(Tiebreaks {
        preset: Some(name.to_string()),
        criteria: criteria.to_vec(),
        fallback: Some(fallback),
        defaulted: false,
    })
}
