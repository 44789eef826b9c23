//! Plain-text rendering of a bracket (Chinese labels) for the CLI and documents.

use crate::bracket::{Bracket, MatchState, Side, Source};
use crate::game_match::Match;
use arbiter_types::PlayerNo;
use std::fmt::Write;

fn side_text(b: &Bracket, s: Source, name: &dyn Fn(PlayerNo) -> String) -> String {
    match b.side(s) {
        Side::Player(p) => match b.seed_of(p) {
            Some(seed) => format!("[{seed}] {}", name(p)),
            None => name(p),
        },
        Side::Absent => "轮空".into(),
        Side::Pending => match s {
            Source::Winner(j) => {
                format!("{}胜者", b.matches().get(j).map_or("?", |m| m.id.as_str()))
            }
            Source::Loser(j) => {
                format!("{}负者", b.matches().get(j).map_or("?", |m| m.id.as_str()))
            }
            Source::Seed(k) => format!("{k}号种子"),
        },
    }
}

fn games_text(m: &Match, name: &dyn Fn(PlayerNo) -> String) -> String {
    let mut parts: Vec<String> = m
        .games()
        .iter()
        .map(|g| {
            let kind = m.format().game_label(g.step, g.kind);
            format!(
                "{kind} {}(红)-{}(黑) {}",
                name(g.red),
                name(g.black),
                g.result.zh()
            )
        })
        .collect();
    if let Some(d) = m.decided_by() {
        parts.push(d.zh().to_string());
    }
    parts.join("; ")
}

/// Renders the bracket round by round, then the places once complete. `name` gives a
/// player's display name (e.g. the registered name, or the number).
pub fn render_text(b: &Bracket, name: &dyn Fn(PlayerNo) -> String) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "淘汰赛 {} — {}人 ({}签)",
        b.kind().zh(),
        b.ranking().len(),
        b.size()
    );
    for r in 1..=b.rounds() {
        let _ = writeln!(out, "第{}轮", crate::bracket::zh_num(r as u32));
        for m in b.round(r) {
            let [sa, sb] = m.sources;
            let _ = write!(
                out,
                "  {:<8} {}: {} 对 {}",
                m.id,
                m.label_zh(),
                side_text(b, sa, name),
                side_text(b, sb, name)
            );
            match &m.state {
                MatchState::Waiting => out.push_str(" — 待定"),
                MatchState::Walkover { winner: Some(w) } => {
                    let _ = write!(out, " — {}轮空晋级", name(*w));
                }
                MatchState::Walkover { winner: None } => out.push_str(" — 不赛"),
                MatchState::Playing(g) => {
                    if let Some(w) = g.winner() {
                        let _ = write!(out, " — {}胜", name(w));
                    } else {
                        out.push_str(" — 进行中");
                    }
                    if !g.games().is_empty() {
                        let _ = write!(out, " ({})", games_text(g, name));
                    }
                }
            }
            out.push('\n');
        }
    }
    if let Some(places) = b.places() {
        out.push_str("名次\n");
        for (place, p) in &places {
            // A place the bracket does not decide (the losers of one round) is shared.
            let shared = places.iter().filter(|(q, _)| q == place).count() > 1;
            let _ = writeln!(
                out,
                "  {}第{}名 {}",
                if shared { "并列" } else { "" },
                place,
                name(*p)
            );
        }
    }
    out
}
