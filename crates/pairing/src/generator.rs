//! Random tournament generator: plays whole Swiss sections with the engine, with draws,
//! forfeits, withdrawals, late entries, one-round absences and teams. Deterministic per seed
//! (ChaCha8). Used by the property tests, the benchmarks and `arbiter bench pairing`.

use crate::{pair_swiss, round1, Availability, Entrant, Pairing, PairingError, SectionState};
use arbiter_types::{Colour, GameResult, Outcome, PairingSettings, PlayerNo, ScoringTable};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What to generate. Rates are probabilities per player (or board) and round.
#[derive(Debug, Clone)]
pub struct GeneratorConfig {
    pub players: usize,
    pub rounds: u32,
    pub seed: u64,
    pub draw_rate: f64,
    /// Share of boards ending in a forfeit (red, black or double).
    pub forfeit_rate: f64,
    /// Chance that an active player withdraws before a round (from round 2).
    pub withdrawal_rate: f64,
    /// Share of players entering late (in a round between 2 and half the rounds).
    pub late_entry_rate: f64,
    /// Chance that an active player is absent for one round (from round 2).
    pub absent_rate: f64,
    /// Number of teams (0: no teams); each player joins one at random, or none.
    pub teams: u32,
    pub settings: PairingSettings,
    pub scoring: ScoringTable,
    /// Keep the state before every round (for tests).
    pub keep_states: bool,
    /// Pair rounds ≥ 2 with a fast greedy (score order, first legal opponent, colours by the
    /// A2 rule) instead of the engine, falling back to the engine when the greedy gets stuck.
    /// Only for building large benchmark states quickly; the result is legal under H1–H3
    /// but not optimal.
    pub quick: bool,
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            players: 16,
            rounds: 7,
            seed: 1,
            draw_rate: 0.3,
            forfeit_rate: 0.02,
            withdrawal_rate: 0.01,
            late_entry_rate: 0.03,
            absent_rate: 0.01,
            teams: 0,
            settings: PairingSettings::default(),
            scoring: ScoringTable::default(),
            keep_states: false,
            quick: false,
        }
    }
}

/// One generated round.
#[derive(Debug, Clone)]
pub struct GeneratedRound {
    pub pairing: Pairing,
    /// One result per board of `pairing`, in board order.
    pub results: Vec<GameResult>,
    /// The state the round was paired from (only with `keep_states`).
    pub state_before: Option<SectionState>,
}

/// A generated section.
#[derive(Debug, Clone)]
pub struct GeneratedTournament {
    pub rounds: Vec<GeneratedRound>,
    /// The state after the last round played.
    pub state: SectionState,
    /// Set when a round could not be paired: the section stops there (`state` is the state
    /// before that round, with `stopped_round` its number).
    pub stopped: Option<PairingError>,
    pub stopped_round: Option<u32>,
}

fn check_rate(name: &str, r: f64) -> Result<(), PairingError> {
    if (0.0..=1.0).contains(&r) {
        Ok(())
    } else {
        Err(PairingError::BadInput(format!(
            "{name} 必须在 0 与 1 之间 ({name} must be within 0..=1, got {r})"
        )))
    }
}

/// Generate and play a section.
pub fn generate(cfg: &GeneratorConfig) -> Result<GeneratedTournament, PairingError> {
    for (n, r) in [
        ("draw_rate", cfg.draw_rate),
        ("forfeit_rate", cfg.forfeit_rate),
        ("withdrawal_rate", cfg.withdrawal_rate),
        ("late_entry_rate", cfg.late_entry_rate),
        ("absent_rate", cfg.absent_rate),
    ] {
        check_rate(n, r)?;
    }
    if cfg.players > u32::MAX as usize / 2 {
        return Err(PairingError::BadInput("棋手过多 (too many players)".into()));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let late_max = (cfg.rounds / 2).max(2);
    let mut entry_round = Vec::with_capacity(cfg.players);
    let mut players = Vec::with_capacity(cfg.players);
    for i in 0..cfg.players {
        let team = if cfg.teams > 0 && rng.gen_bool(0.8) {
            Some(rng.gen_range(0..cfg.teams))
        } else {
            None
        };
        let late = cfg.rounds >= 2 && rng.gen_bool(cfg.late_entry_rate);
        entry_round.push(if late {
            rng.gen_range(2..=late_max.min(cfg.rounds))
        } else {
            1
        });
        players.push(Entrant {
            no: PlayerNo::from_index(i),
            team,
            availability: Availability::Active,
            history: Vec::new(),
        });
    }
    let mut state = SectionState {
        players,
        scoring: cfg.scoring,
        settings: cfg.settings,
        total_rounds: cfg.rounds,
    };
    let mut rounds = Vec::new();
    for round in 1..=cfg.rounds {
        for (i, e) in state.players.iter_mut().enumerate() {
            e.availability = match e.availability {
                Availability::Withdrawn => Availability::Withdrawn,
                _ if round < entry_round[i] => Availability::Absent,
                _ if round >= 2 && round > entry_round[i] && rng.gen_bool(cfg.withdrawal_rate) => {
                    Availability::Withdrawn
                }
                _ if round >= 2 && rng.gen_bool(cfg.absent_rate) => Availability::Absent,
                _ => Availability::Active,
            };
        }
        let paired = if round == 1 {
            round1::pair_round1(&state, cfg.seed)
        } else if cfg.quick {
            match quick_pairing(&state, round) {
                Some(p) => Ok(p),
                None => pair_swiss(&state, round),
            }
        } else {
            pair_swiss(&state, round)
        };
        let pairing = match paired {
            Ok(p) => p,
            Err(e @ PairingError::NoValidPairing { .. }) => {
                return Ok(GeneratedTournament {
                    rounds,
                    state,
                    stopped: Some(e),
                    stopped_round: Some(round),
                });
            }
            Err(e) => return Err(e),
        };
        let before = cfg.keep_states.then(|| state.clone());
        let mut outcome: Vec<Outcome> = vec![Outcome::Absent; state.players.len()];
        let mut results = Vec::with_capacity(pairing.boards.len());
        for b in &pairing.boards {
            let r = if rng.gen_bool(cfg.forfeit_rate) {
                match rng.gen_range(0..10) {
                    0 => GameResult::DoubleForfeit,
                    1..=5 => GameResult::RedForfeit,
                    _ => GameResult::BlackForfeit,
                }
            } else if rng.gen_bool(cfg.draw_rate) {
                GameResult::Draw
            } else if rng.gen_bool(0.5) {
                GameResult::RedWin
            } else {
                GameResult::BlackWin
            };
            outcome[b.red.index()] = r.outcome_for(Colour::Red, b.black);
            outcome[b.black.index()] = r.outcome_for(Colour::Black, b.red);
            results.push(r);
        }
        if let Some(p) = pairing.bye {
            outcome[p.index()] = Outcome::Bye;
        }
        for (e, o) in state.players.iter_mut().zip(outcome) {
            e.history.push(o);
        }
        rounds.push(GeneratedRound {
            pairing,
            results,
            state_before: before,
        });
    }
    Ok(GeneratedTournament {
        rounds,
        state,
        stopped: None,
        stopped_round: None,
    })
}

/// Greedy pairing for building big states: `None` when it gets stuck.
fn quick_pairing(state: &SectionState, round: u32) -> Option<Pairing> {
    let infos = crate::swiss::prepare(state, round).ok()?;
    let mut order: Vec<usize> = (0..infos.len())
        .filter(|&i| state.players[i].availability == Availability::Active)
        .collect();
    order.sort_by(|&a, &b| {
        infos[b]
            .score
            .cmp(&infos[a].score)
            .then(infos[a].no.cmp(&infos[b].no))
    });
    let mut bye = None;
    if order.len() % 2 == 1 {
        let k = order
            .iter()
            .rposition(|&i| infos[i].byes == 0)
            .unwrap_or(order.len() - 1);
        bye = Some(infos[order.remove(k)].no);
    }
    let hard = state.settings.same_team == arbiter_types::SameTeam::Hard;
    let mut used = vec![false; order.len()];
    let mut boards = Vec::with_capacity(order.len() / 2);
    for x in 0..order.len() {
        if used[x] {
            continue;
        }
        used[x] = true;
        let a = &infos[order[x]];
        let s = &state.settings;
        let y = (x + 1..order.len()).find(|&y| {
            let b = &infos[order[y]];
            let team_clash = hard && a.team.is_some() && a.team == b.team;
            if used[y] || a.met.contains(&b.no) || team_clash {
                return false;
            }
            crate::swiss::pair_order(a, b, round, s).breakers == 0
        })?;
        used[y] = true;
        let (red, black, _) = crate::swiss::colours(a, &infos[order[y]], round, &state.settings);
        boards.push(crate::Board {
            board: boards.len() as u32 + 1,
            red,
            black,
            why: crate::Explanation::default(),
        });
    }
    Some(Pairing {
        round,
        boards,
        bye,
        bye_why: None,
        relaxed: Vec::new(),
    })
}

/// A realistic state before `round` of an 11-round section of `players` players (CXA
/// scoring, default settings, 30% draws, a few forfeits, withdrawals and late entries),
/// played with the engine. For benchmarks and `arbiter bench pairing`.
pub fn bench_state(players: usize, round: u32, seed: u64) -> SectionState {
    let cfg = GeneratorConfig {
        players,
        rounds: round.saturating_sub(1),
        seed,
        draw_rate: 0.3,
        forfeit_rate: 0.01,
        withdrawal_rate: 0.003,
        late_entry_rate: 0.01,
        absent_rate: 0.005,
        teams: 0,
        quick: players > 2000,
        ..GeneratorConfig::default()
    };
    let mut state = match generate(&cfg) {
        Ok(t) => t.state,
        Err(_) => SectionState {
            players: Vec::new(),
            scoring: cfg.scoring,
            settings: cfg.settings,
            total_rounds: 11,
        },
    };
    state.total_rounds = 11.max(round);
    for e in &mut state.players {
        if e.availability == Availability::Absent {
            e.availability = Availability::Active;
        }
    }
    state
}
