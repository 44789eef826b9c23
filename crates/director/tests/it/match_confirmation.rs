//! A captain confirms his team's match (队长确认, A15) the way the arbiter records it: after
//! every board of the match has its result, each team's captain signs the match's score sheet
//! (团体赛记分表). Refused in words for a match still in play (naming the board), twice (naming
//! who confirmed), a team the event does not have, the team with the bye, and a role that does
//! not enter results; a correction of one of the match's boards drops both confirmations.

use crate::common;

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::api::results::ResultInput;
use arbiter_director::api::{Ctx, Role};
use arbiter_director::command::games::GameCommand;
use arbiter_director::command::{decide, Outcome};
use arbiter_director::team_match::{self, MatchView};
use arbiter_director::DirectorError;
use arbiter_types::GameResult;
use common::*;

/// A team Swiss of nine teams on four boards (45 players): round 1 paired and published, one
/// team with the bye, no result yet.
fn round_one() -> (Vec<Recorded>, EventState) {
    let src = include_str!("../../../simulate/tests/fixtures/team-swiss.toml");
    let mut sim = simulator_of(src, "team-swiss", 2, &sizes_all(45));
    let mut state = EventState::new();
    let mut log = Vec::new();
    while let Some(b) = sim.next_batch(&state).expect("batch") {
        if b.entries
            .iter()
            .any(|e| matches!(e, LogEntry::ResultEntered { .. }))
        {
            break;
        }
        for r in b.recorded(state.last_seq) {
            state.apply(&r).expect("fold");
            log.push(r);
        }
    }
    let published = state
        .section("teams")
        .and_then(|s| s.round(1))
        .expect("round 1 paired")
        .published;
    if !published {
        let e =
            arbiter_director::api::rounds::publish(&state, &chief_ctx(), "teams").expect("publish");
        record(&mut log, &mut state, &chief_ctx(), e);
    }
    (log, state)
}

fn arbiter() -> Ctx {
    ctx_at("张裁判", 9, 20, 10).with_role(Role::Arbiter)
}

fn confirm(team: &str, by: &str) -> GameCommand {
    GameCommand::ConfirmMatch {
        section: "teams".into(),
        round: None,
        team: team.into(),
        by: by.into(),
    }
}

/// `cmd` decided by `ctx`, appended to `log` and folded into `state`: what it did.
fn done(log: &mut Vec<Recorded>, state: &mut EventState, ctx: &Ctx, cmd: GameCommand) -> Outcome {
    let d = decide(state, ctx, &cmd.into()).unwrap_or_else(|e| panic!("{e}"));
    record(log, state, ctx, d.entries);
    d.outcome
}

fn refused(state: &EventState, ctx: &Ctx, cmd: GameCommand) -> DirectorError {
    match decide(state, ctx, &cmd.into()) {
        Err(e) => e,
        Ok(d) => panic!("expected a refusal, got {:?}", d.entries),
    }
}

fn view(state: &EventState, m: usize) -> MatchView {
    let reg = arbiter_director::regulation_of(state).expect("regulation");
    team_match::round_view(&reg, state, "teams", 1)
        .expect("round 1")
        .matches[m]
        .clone()
}

fn enter(log: &mut Vec<Recorded>, state: &mut EventState, board: u32, result: GameResult) {
    done(
        log,
        state,
        &arbiter(),
        GameCommand::EnterResult {
            section: "teams".into(),
            input: ResultInput {
                round: Some(1),
                ..ResultInput::new(board, result)
            },
        },
    );
}

#[test]
fn both_captains_confirm_their_match_and_a_correction_drops_it() {
    let (mut log, mut state) = round_one();
    let m = view(&state, 0);
    let (first, second) = (m.first.clone(), m.second.clone());
    // The boards of match 1 where a game is played (an empty seat is a forfeit already).
    let games: Vec<u32> = m
        .boards
        .iter()
        .filter(|b| b.first.is_some() && b.second.is_some())
        .map(|b| b.round_board)
        .collect();
    assert!(games.len() >= 2, "{m:?}");

    // Still in play: refused, naming the first board without a result.
    let b = m
        .boards
        .iter()
        .find(|b| b.round_board == games[0])
        .expect("board");
    let e = refused(&state, &arbiter(), confirm(&first, "张三")).to_string();
    assert!(
        e.contains(&format!(
            "第1轮第1场第{}台 (本轮第{}台) 尚无成绩",
            b.board, games[0]
        )),
        "{e}"
    );
    let (last, before) = games.split_last().expect("games");
    for &g in before {
        enter(&mut log, &mut state, g, GameResult::RedWin);
    }
    let e = refused(&state, &arbiter(), confirm(&second, "李四")).to_string();
    assert!(e.contains(&format!("(本轮第{last}台) 尚无成绩")), "{e}");
    enter(&mut log, &mut state, *last, GameResult::Draw);

    // The registration desk does not enter results: it records no confirmation either.
    let desk = ctx_at("报名处", 9, 20, 10).with_role(Role::Desk);
    assert!(matches!(
        refused(&state, &desk, confirm(&first, "张三")),
        DirectorError::NotAllowed { .. }
    ));

    // The first captain confirms.
    match done(&mut log, &mut state, &arbiter(), confirm(&first, " 张三 ")) {
        Outcome::MatchConfirmed {
            team,
            by,
            round,
            match_no,
            opponent,
            opponent_by,
        } => {
            assert_eq!(
                (team.as_str(), by.as_str(), round, match_no),
                (first.as_str(), "张三", 1, 1)
            );
            assert_eq!(opponent, second);
            assert_eq!(opponent_by, None);
        }
        other => panic!("{other:?}"),
    }
    let m = view(&state, 0);
    assert_eq!(m.first_confirmed.as_deref(), Some("张三"));
    assert_eq!(m.second_confirmed, None);
    assert!(!m.both_confirmed());

    // Twice: refused, saying by whom.
    let e = refused(&state, &arbiter(), confirm(&first, "王五")).to_string();
    assert!(e.contains("已由队长 张三 确认"), "{e}");

    // The second captain confirms (his name not given): both have.
    match done(&mut log, &mut state, &arbiter(), confirm(&second, "")) {
        Outcome::MatchConfirmed { opponent_by, .. } => {
            assert_eq!(opponent_by.as_deref(), Some("张三"))
        }
        other => panic!("{other:?}"),
    }
    assert!(view(&state, 0).both_confirmed());
    let tr = &state.section("teams").expect("section").matches[&1];
    assert_eq!(tr.confirmations(1), Some((Some("张三"), Some(""))));
    // The export says which teams' captains confirmed their round-1 match: these two only.
    let ex = arbiter_director::publish::export(&state).expect("export");
    let t = ex
        .team_matches
        .iter()
        .find(|t| t.section == "teams")
        .expect("team table");
    for row in &t.standings {
        let cell = row.rounds.iter().find(|c| c.round == 1).expect("round 1");
        assert_eq!(
            cell.confirmed,
            row.team == first || row.team == second,
            "{}",
            row.team
        );
    }
    assert!(ex.to_json().contains("\"confirmed\": true"));

    // The chief arbiter corrects a board of the match: the captains confirmed another result.
    done(
        &mut log,
        &mut state,
        &chief_ctx(),
        GameCommand::CorrectResult {
            section: "teams".into(),
            round: 1,
            board: *last,
            result: GameResult::BlackWin,
            reason: "记分表填错".into(),
            override_signed: false,
        },
    );
    let m = view(&state, 0);
    assert_eq!((m.first_confirmed, m.second_confirmed), (None, None));
    // The other matches are left as they were; the captains confirm again.
    done(&mut log, &mut state, &arbiter(), confirm(&first, "张三"));
    assert_eq!(view(&state, 0).first_confirmed.as_deref(), Some("张三"));

    // The whole log replays and verifies.
    let found = arbiter_director::verify::verify(&log, None);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_team_without_a_match_is_refused_in_words() {
    let (_, state) = round_one();
    let tr = &state.section("teams").expect("section").matches[&1];
    let bye = tr.bye.clone().expect("nine teams: one has the bye");
    let e = refused(&state, &arbiter(), confirm(&bye, "赵六")).to_string();
    assert!(e.contains(&format!("{bye} 第1轮轮空")), "{e}");

    // A team the event does not have, with the closest name.
    let m = view(&state, 0);
    let typo = format!("{}x", m.first);
    let e = refused(&state, &arbiter(), confirm(&typo, "赵六")).to_string();
    assert!(e.contains(&format!("队伍「{typo}」不存在")), "{e}");

    // A round not paired yet.
    let e = refused(
        &state,
        &arbiter(),
        GameCommand::ConfirmMatch {
            section: "teams".into(),
            round: Some(2),
            team: m.first.clone(),
            by: String::new(),
        },
    )
    .to_string();
    assert!(e.contains("第2轮尚未排出团体对阵"), "{e}");
}
