//! The arbiter's API for the rounds, used as a shell would: pair, publish, undo, results with
//! fouls, conflicts, confirmation, corrections, knockout games — and a whole event run
//! through these operations alone passes `verify`.

use crate::common;

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::api::results::{confirm, correct, enter_result, ResultInput};
use arbiter_director::api::rounds::{pair, pair_explained, publish, sheet, undo, PairRequest};
use arbiter_director::{next_step, Step};
use arbiter_director::{regulation_of, verify};
use arbiter_types::{Colour, GameResult, PlayerNo};
use common::*;

/// The event after registration, teams, fees and check-in (the simulator's first batches),
/// before anything is drawn or paired.
fn registered_event(stem: &str, sizes: &[(&str, usize)]) -> (Vec<Recorded>, EventState) {
    let mut sim = simulator(stem, 7, &sizes_by_section(sizes));
    let mut state = EventState::new();
    let mut log = Vec::new();
    while let Some(b) = sim.next_batch(&state).expect("batch") {
        if b.entries
            .iter()
            .any(|e| matches!(e, LogEntry::PairingNumbersDrawn { .. }))
        {
            break;
        }
        for r in b.recorded(state.last_seq) {
            state.apply(&r).expect("fold");
            log.push(r);
        }
    }
    (log, state)
}

/// Append as the store would (expected sequence), folding every entry: the chief arbiter's.
fn append(log: &mut Vec<Recorded>, state: &mut EventState, entries: Vec<LogEntry>) {
    record(log, state, &chief_ctx(), entries);
}

#[test]
fn pair_publish_enter_conflict_confirm_correct() {
    let (mut log, mut state) = registered_event("kunshan-2026", &[("men", 9), ("women", 0)]);
    let c = chief_ctx();
    // Results before any pairing: refused.
    assert!(refusal(enter_result(
        &state,
        &c,
        "men",
        &ResultInput::new(1, GameResult::RedWin)
    ))
    .contains("尚未编排"));
    // Pairing round 1 draws the numbers first.
    let out = pair_explained(&state, &c, "men", &PairRequest::default()).expect("pair");
    assert!(matches!(
        out.entries[0],
        LogEntry::PairingNumbersDrawn { .. }
    ));
    assert!(matches!(
        out.entries.last(),
        Some(LogEntry::RoundPaired { round: 1, .. })
    ));
    assert!(!out.notes.is_empty());
    {
        let v = out.entries;
        append(&mut log, &mut state, v)
    };
    // Pairing again while round 1 is open says so and returns nothing.
    let before = state.clone();
    let msg = refusal(pair(&state, &c, "men", &PairRequest::default()));
    assert!(
        msg.contains("尚未结束") && msg.contains("未作任何改动"),
        "{msg}"
    );
    assert_eq!(state, before);
    // Not published: no results yet.
    let msg = refusal(enter_result(
        &state,
        &c,
        "men",
        &ResultInput::new(1, GameResult::RedWin),
    ));
    assert!(msg.contains("尚未公布"), "{msg}");
    // An unpublished round can be undone, and pairing again gives the same round (seeded).
    let first = state
        .section("men")
        .expect("men")
        .round(1)
        .expect("r1")
        .clone();
    {
        let v = undo(&state, &c, "men", "排错").expect("undo");
        append(&mut log, &mut state, v)
    };
    assert!(state.section("men").expect("men").round(1).is_none());
    {
        let v = pair(&state, &c, "men", &PairRequest::default()).expect("pair");
        append(&mut log, &mut state, v)
    };
    let again = state
        .section("men")
        .expect("men")
        .round(1)
        .expect("r1")
        .clone();
    assert_eq!(again.boards, first.boards);
    {
        let v = publish(&state, &c, "men").expect("publish");
        append(&mut log, &mut state, v)
    };
    assert!(refusal(publish(&state, &c, "men")).contains("已经公布"));
    let boards: Vec<u32> = again.boards.iter().map(|b| b.board).collect();
    assert_eq!(boards, vec![1, 2, 3, 4]);
    // Board 1: red wins. The same board again is a conflict showing the stored value.
    {
        let v = enter_result(&state, &c, "men", &ResultInput::new(1, GameResult::RedWin))
            .expect("enter");
        append(&mut log, &mut state, v)
    };
    let msg = refusal(enter_result(
        &state,
        &c,
        "men",
        &ResultInput::new(1, GameResult::Draw),
    ));
    assert!(msg.contains("冲突") && msg.contains("1-0"), "{msg}");
    // A published round with a result cannot be undone.
    assert!(refusal(undo(&state, &c, "men", "")).contains("不能撤销"));
    // A11 (Kunshan's K12 limit of 2 counts phone fouls only): the 3rd foul in a game loses
    // it; a result that ignores it is refused.
    let three_red = ResultInput::new(2, GameResult::RedWin).with_fouls(Colour::Red, 3);
    let msg = refusal(enter_result(&state, &c, "men", &three_red));
    assert!(msg.contains("0-1"), "{msg}");
    let two_red = ResultInput::new(2, GameResult::BlackWin).with_fouls(Colour::Red, 2);
    let v = enter_result(&state, &c, "men", &two_red).expect("foul loss");
    assert_eq!(
        v.iter()
            .filter(|e| matches!(e, LogEntry::FoulRecorded { .. }))
            .count(),
        2
    );
    append(&mut log, &mut state, v);
    {
        let v = enter_result(
            &state,
            &c,
            "men",
            &ResultInput::new(3, GameResult::DoubleForfeit),
        )
        .expect("enter");
        append(&mut log, &mut state, v)
    };
    // The last result closes the round.
    let v = enter_result(&state, &c, "men", &ResultInput::new(4, GameResult::Draw)).expect("enter");
    assert!(matches!(
        v.last(),
        Some(LogEntry::RoundCompleted { round: 1, .. }) | Some(LogEntry::PlayerWithdrawn { .. })
    ));
    append(&mut log, &mut state, v);
    assert!(
        state
            .section("men")
            .expect("men")
            .round(1)
            .expect("r1")
            .completed
    );
    // Signed slips: both players sign a played game, the arbiter who confirms (by the
    // account's display name) a double forfeit.
    let signer = c.clone().with_name("王强");
    let v = confirm(&state, &signer, "men", None).expect("confirm");
    assert_eq!(v.len(), 4);
    let signers: Vec<Vec<String>> = v
        .iter()
        .filter_map(|e| match e {
            LogEntry::ResultConfirmed { signed_by, .. } => Some(signed_by.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(signers[2], vec!["王强".to_string()]);
    assert_eq!(signers[0].len(), 2);
    append(&mut log, &mut state, v);
    assert!(refusal(confirm(&state, &c, "men", Some(1))).contains("没有待确认"));
    // A correction needs a reason and a different result; it records the chief arbiter.
    assert!(refusal(correct(
        &state,
        &c,
        "men",
        1,
        4,
        GameResult::RedWin,
        " ",
        false
    ))
    .contains("理由"));
    assert!(refusal(correct(
        &state,
        &c,
        "men",
        1,
        4,
        GameResult::Draw,
        "核对",
        false
    ))
    .contains("已是"));
    let v = correct(
        &state,
        &c,
        "men",
        1,
        4,
        GameResult::RedWin,
        "成绩单误填",
        false,
    )
    .expect("correct");
    assert!(matches!(&v[0], LogEntry::ResultCorrected { by, .. } if by == "裁判长"));
    append(&mut log, &mut state, v);
    // Round 2 with a fixed pair: recorded as manual, the checker's objections as warnings.
    let no = |n| PlayerNo::new(n).expect("no");
    let req = PairRequest {
        fix: vec![(no(1), no(2))],
        swap: None,
    };
    let out = pair_explained(&state, &c, "men", &req).expect("pair 2");
    let Some(LogEntry::RoundPaired {
        manual, round: 2, ..
    }) = out.entries.last()
    else {
        panic!("round 2 paired");
    };
    assert_eq!(manual.len(), 1);
    {
        let v = out.entries;
        append(&mut log, &mut state, v)
    };
    let rd = state.section("men").expect("men").round(2).expect("r2");
    let order = &state.section("men").expect("men").order;
    assert!(rd.boards.iter().any(|b| {
        let mut pair = [b.red, b.black];
        pair.sort();
        let mut want = [order[0], order[1]];
        want.sort();
        pair == want
    }));
    // A number that does not exist is refused by name.
    let req = PairRequest {
        fix: vec![],
        swap: Some((no(1), no(99))),
    };
    {
        let v = undo(&state, &c, "men", "").expect("undo 2");
        append(&mut log, &mut state, v)
    };
    assert!(refusal(pair(&state, &c, "men", &req)).contains("99"));
    // Everything above replays and verifies.
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

/// The scripted result of a board (a test's stand-in for the games).
fn scripted(round: u32, board: u32) -> GameResult {
    match (round * 7 + board * 3) % 6 {
        0 | 1 => GameResult::RedWin,
        2 | 3 => GameResult::BlackWin,
        4 => GameResult::Draw,
        _ => GameResult::BlackWin,
    }
}

/// Run every section to the end through the API alone: pair, publish, enter every board of
/// the sheet, confirm; knockout games from the sheet of the games due.
fn run_through_api(log: &mut Vec<Recorded>, state: &mut EventState) -> usize {
    let c = chief_ctx();
    let reg = regulation_of(state).expect("reg");
    let mut knockout_games = 0;
    for sec in &reg.sections {
        let id = sec.id.as_str();
        for _ in 0..200 {
            match next_step(&reg, state, id).expect("step") {
                Step::Done => break,
                Step::Knockout { .. } => {
                    let s = sheet(state, id, None).expect("knockout sheet");
                    assert!(!s.boards.is_empty());
                    for b in &s.boards {
                        // A drawn decider is played again (天水 八(二)): the script moves on
                        // with every game entered, so a replay is not drawn for ever.
                        let r = scripted(s.round + knockout_games as u32, b.board);
                        let v = enter_result(state, &c, id, &ResultInput::new(b.board, r))
                            .expect("knockout game");
                        knockout_games += v.len();
                        append(log, state, v);
                    }
                }
                _ => {
                    let v = match pair(state, &c, id, &PairRequest::default()) {
                        Ok(v) => v,
                        Err(e) if e.to_string().contains("全部轮次") => break,
                        Err(e) => panic!("{id}: {e}"),
                    };
                    append(log, state, v);
                    append(log, state, publish(state, &c, id).expect("publish"));
                    // The round just paired (in stage 2 the default sheet is the knockout's
                    // games due beside it, T2).
                    let last = state.section(id).expect("section").last_round();
                    let s = sheet(state, id, Some(last)).expect("sheet");
                    assert!(s.published);
                    for b in &s.boards {
                        let v = enter_result(
                            state,
                            &c,
                            id,
                            &ResultInput::new(b.board, scripted(s.round, b.board)),
                        )
                        .expect("result");
                        append(log, state, v);
                    }
                    if let Ok(v) = confirm(state, &c, id, Some(s.round)) {
                        append(log, state, v);
                    }
                }
            }
        }
        assert_eq!(
            next_step(&reg, state, id).expect("step"),
            Step::Done,
            "{id}"
        );
    }
    knockout_games
}

#[test]
fn a_whole_swiss_with_teams_runs_through_the_api_and_verifies() {
    let (mut log, mut state) = registered_event("kunshan-2026", &[("men", 14), ("women", 10)]);
    run_through_api(&mut log, &mut state);
    let men = state.section("men").expect("men");
    assert_eq!(men.completed_rounds(), 9);
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
    let export = arbiter_director::export(&state).expect("export");
    assert!(!export.teams.is_empty());
}

#[test]
fn swiss_then_knockout_runs_through_the_api_and_verifies() {
    let (mut log, mut state) = registered_event("tianshui-2024", &[("open", 24), ("local", 0)]);
    let games = run_through_api(&mut log, &mut state);
    assert!(
        games >= 7,
        "a top-8 knockout has at least 7 games, got {games}"
    );
    let open = state.section("open").expect("open");
    assert!(open.completed_rounds() >= 8);
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

/// Pair, publish and enter every board of the section's next Swiss round (and confirm);
/// returns the round.
fn play_swiss_round(log: &mut Vec<Recorded>, state: &mut EventState, id: &str) -> u32 {
    let c = chief_ctx();
    append(
        log,
        state,
        pair(state, &c, id, &PairRequest::default()).expect("pair"),
    );
    append(log, state, publish(state, &c, id).expect("publish"));
    let last = state.section(id).expect("section").last_round();
    enter_swiss_results(log, state, id, last);
    last
}

fn enter_swiss_results(log: &mut Vec<Recorded>, state: &mut EventState, id: &str, round: u32) {
    let c = chief_ctx();
    let s = sheet(state, id, Some(round)).expect("sheet");
    for b in &s.boards {
        let input = ResultInput {
            round: Some(round),
            ..ResultInput::new(b.board, scripted(round, b.board))
        };
        append(
            log,
            state,
            enter_result(state, &c, id, &input).expect("result"),
        );
    }
    if let Ok(v) = confirm(state, &c, id, Some(round)) {
        append(log, state, v);
    }
}

/// T2, A9: after round 8 of a 16-player Tianshui open, the knockout's quarter-finals and
/// Swiss round 9 are open at once. Results go in in any order; the knockout sits on the top
/// boards and the Swiss after them (a board number names one game); Swiss round 10 is paired as soon
/// as Swiss round 9 is finished, with the quarter-finals unplayed; the semi-finals wait only
/// for the quarter-finals; the interim standings list the knockout players apart.
#[test]
fn knockout_and_continuing_swiss_are_played_side_by_side() {
    let (mut log, mut state) = registered_event("tianshui-2024", &[("open", 16), ("local", 0)]);
    let c = chief_ctx();
    let id = "open";
    for _ in 0..8 {
        play_swiss_round(&mut log, &mut state, id);
    }
    let reg = regulation_of(&state).expect("reg");
    assert_eq!(
        state.section(id).expect("open").completed_rounds(),
        8,
        "stage 1 done"
    );
    // Both open: the quarter-finals are due, and the Swiss pairs round 9.
    let ko = arbiter_director::step::knockout_due(&reg, &state, id).expect("due");
    assert_eq!(ko.len(), 4, "{ko:?}");
    let v = pair(&state, &c, id, &PairRequest::default()).expect("Swiss round 9");
    append(&mut log, &mut state, v);
    let v = publish(&state, &c, id).expect("publish");
    append(&mut log, &mut state, v);
    let swiss9 = sheet(&state, id, Some(9)).expect("round 9");
    let due = arbiter_director::api::results::due_knockout_games(&state, id).expect("due");
    assert_eq!(due.len(), 4);
    // The knockout takes the top boards of the hall, 1–4; the Swiss follows on 5–10.
    let swiss_boards: Vec<u32> = swiss9.boards.iter().map(|b| b.board).collect();
    let ko_boards: Vec<u32> = due.iter().map(|g| g.board).collect();
    assert_eq!(ko_boards, vec![1, 2, 3, 4]);
    assert_eq!(
        swiss_boards,
        (5..5 + swiss9.boards.len() as u32).collect::<Vec<_>>(),
        "the Swiss after the knockout's boards"
    );
    // Both lists are open sheets.
    let open = arbiter_director::api::rounds::open_sheets(&state, id).expect("open sheets");
    assert_eq!(open.len(), 2);
    assert!(open[0].knockout.is_empty() && !open[1].knockout.is_empty());
    // One quarter-final game first, then a Swiss board, on their own board numbers without
    // a round: each lands on its own game.
    let qf = &due[0];
    let v = enter_result(
        &state,
        &c,
        id,
        &ResultInput::new(qf.board, GameResult::RedWin),
    )
    .expect("knockout game while Swiss round 9 is open");
    assert!(v
        .iter()
        .any(|e| matches!(e, LogEntry::KnockoutGameRecorded { .. })));
    append(&mut log, &mut state, v);
    let v = enter_result(
        &state,
        &c,
        id,
        &ResultInput::new(swiss9.boards[0].board, GameResult::Draw),
    )
    .expect("Swiss board while the quarter-finals are open");
    assert!(v
        .iter()
        .any(|e| matches!(e, LogEntry::ResultEntered { .. })));
    append(&mut log, &mut state, v);
    // The rest of Swiss round 9; the quarter-finals not finished.
    let s = sheet(&state, id, Some(9)).expect("round 9");
    for b in s.boards.iter().filter(|b| b.result.is_none()) {
        let input = ResultInput {
            round: Some(9),
            ..ResultInput::new(b.board, scripted(9, b.board))
        };
        let v = enter_result(&state, &c, id, &input).expect("r9");
        append(&mut log, &mut state, v);
    }
    if let Ok(v) = confirm(&state, &c, id, Some(9)) {
        append(&mut log, &mut state, v);
    }
    assert!(!arbiter_director::step::knockout_due(&reg, &state, id)
        .expect("due")
        .is_empty());
    // Swiss round 10 waits only for Swiss round 9.
    let r10 = play_swiss_round(&mut log, &mut state, id);
    assert_eq!(r10, 10);
    // The knockout goes on by itself: its games due, round after round, until decided.
    for _ in 0..40 {
        let due = arbiter_director::api::results::due_knockout_games(&state, id).expect("due");
        let Some(g) = due.first() else { break };
        let v = enter_result(
            &state,
            &c,
            id,
            &ResultInput::new(g.board, GameResult::RedWin),
        )
        .expect("knockout game");
        append(&mut log, &mut state, v);
    }
    assert!(
        arbiter_director::api::results::due_knockout_games(&state, id)
            .expect("due")
            .is_empty()
    );
    let r11 = play_swiss_round(&mut log, &mut state, id);
    assert_eq!(r11, 11);
    assert_eq!(next_step(&reg, &state, id).expect("step"), Step::Done);
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

/// The interim standings of stage 2 (after Swiss round 9, the knockout under way) list the
/// knockout players apart: ranks 1..8 are the eight seeds, the continuing Swiss follows
/// from 9 by its own standings (A9).
#[test]
fn interim_standings_of_stage_2_keep_the_knockout_apart() {
    let (mut log, mut state) = registered_event("tianshui-2024", &[("open", 16), ("local", 0)]);
    let id = "open";
    for _ in 0..9 {
        play_swiss_round(&mut log, &mut state, id);
    }
    let reg = regulation_of(&state).expect("reg");
    let seeds = arbiter_director::knockout_stage::seeding(&reg, &state, id).expect("seeds");
    assert_eq!(seeds.len(), 8);
    let rows = arbiter_director::final_standings::final_ranking(&reg, &state, id).expect("rank");
    let top: Vec<_> = rows.iter().take(8).map(|r| r.no).collect();
    assert_eq!(top, seeds);
    assert!(rows[8..]
        .iter()
        .all(|r| !seeds.contains(&r.no) && r.rank > 8));
    // The continuing Swiss in its own order: points never rise down the list.
    assert!(rows[8..].windows(2).all(|w| w[0].points >= w[1].points));
}

/// A round whose every result is in but which is not closed (an older log, whose last result
/// did not close its round): `RoundCommand::Complete` closes it — refused while a board is
/// open, the arbiters' to take, and nothing more to do once it is closed.
#[test]
fn a_round_left_open_is_completed_by_the_command() {
    use arbiter_director::command::rounds::RoundCommand;
    use arbiter_director::command::{decide, Command, Outcome};
    use arbiter_director::permission::Action;
    let (mut log, mut state) = registered_event("kunshan-2026", &[("men", 8), ("women", 0)]);
    let c = chief_ctx();
    let v = pair(&state, &c, "men", &PairRequest::default()).expect("pair");
    append(&mut log, &mut state, v);
    let v = publish(&state, &c, "men").expect("publish");
    append(&mut log, &mut state, v);
    let complete: Command = RoundCommand::Complete {
        section: "men".into(),
    }
    .into();
    let boards: Vec<u32> = state
        .section("men")
        .expect("men")
        .round(1)
        .expect("r1")
        .boards
        .iter()
        .map(|b| b.board)
        .collect();
    // The results as an older log holds them: entered, the round left open.
    for &board in &boards {
        let e = LogEntry::ResultEntered {
            section: "men".into(),
            round: 1,
            board,
            result: GameResult::Draw,
            ending: None,
            moves: None,
        };
        let refused = decide(&state, &c, &complete).expect_err("a board is open");
        assert!(
            refused.to_string().contains(&board.to_string()),
            "{refused}"
        );
        append(&mut log, &mut state, vec![e]);
    }
    assert_eq!(
        next_step(&regulation_of(&state).expect("reg"), &state, "men").expect("step"),
        Step::CompleteRound { round: 1 }
    );
    // The registration desk may not close a round.
    let desk = arbiter_director::api::Ctx {
        role: arbiter_director::api::Role::Desk,
        ..c.clone()
    };
    assert!(matches!(
        decide(&state, &desk, &complete),
        Err(arbiter_director::DirectorError::NotAllowed {
            action: Action::CompleteRound,
            ..
        })
    ));
    let d = decide(&state, &c, &complete).expect("complete");
    assert!(matches!(
        d.entries[0],
        LogEntry::RoundCompleted { round: 1, .. }
    ));
    assert!(d.entries[1..].iter().all(|e| matches!(
        e,
        LogEntry::PlayerWithdrawn {
            after_round: Some(1),
            ..
        }
    )));
    assert!(matches!(d.outcome, Outcome::Round { round: 1, .. }));
    append(&mut log, &mut state, d.entries);
    assert!(
        state
            .section("men")
            .expect("men")
            .round(1)
            .expect("r1")
            .completed
    );
    // Closed, nobody due to withdraw: nothing more to do.
    assert!(decide(&state, &c, &complete).is_err());
}

/// 天水 八(四): 「前三轮由裁判组指定获胜者配合录谱，从第四轮开始前十台获胜方录谱，和棋由黑方录谱」
/// — the knockout's games are on the top boards of their round: the quarter-finals of round 9
/// must record, on the knockout's list (`open_sheets`, `due_knockout_games`: the desk), beside
/// the Swiss round 9 list, whose boards 1–10 record as before. The knockout's boards are
/// numbered 1…N within their round and take the hall's top boards, the Swiss after them
/// (T2), and a foul entered with a
/// quarter-final counts as the player's foul.
#[test]
fn tianshui_knockout_games_are_marked_for_recording() {
    let (mut log, mut state) = registered_event("tianshui-2024", &[("open", 16), ("local", 0)]);
    let c = chief_ctx();
    let id = "open";
    for _ in 0..8 {
        play_swiss_round(&mut log, &mut state, id);
    }
    let v = pair(&state, &c, id, &PairRequest::default()).expect("Swiss round 9");
    append(&mut log, &mut state, v);
    let v = publish(&state, &c, id).expect("publish");
    append(&mut log, &mut state, v);
    let due = arbiter_director::api::results::due_knockout_games(&state, id).expect("due");
    assert_eq!(due.len(), 4);
    assert!(due.iter().all(|g| g.round == 9 && g.must_record), "{due:?}");
    let swiss = sheet(&state, id, Some(9)).expect("round 9");
    let boards: Vec<u32> = due.iter().map(|g| g.board).collect();
    assert_eq!(
        boards,
        vec![1, 2, 3, 4],
        "the quarter-finals on the top boards"
    );
    let swiss_boards: Vec<u32> = swiss.boards.iter().map(|b| b.board).collect();
    assert!(!swiss_boards.is_empty());
    assert_eq!(
        swiss_boards,
        (5..5 + swiss_boards.len() as u32).collect::<Vec<_>>(),
        "the Swiss after them"
    );
    let open = arbiter_director::api::rounds::open_sheets(&state, id).expect("open sheets");
    assert_eq!(open.len(), 2);
    // 「前十台」 of the hall: the Swiss's boards from 5 on are within them.
    assert!(open[0].records.is_some() && open[0].boards.iter().all(|b| b.must_record));
    let ko = &open[1];
    assert_eq!(ko.round, 9);
    assert!(ko.records.is_some(), "the knockout list states the duty");
    assert!(ko.boards.iter().all(|b| b.must_record), "{:?}", ko.boards);
    // A phone foul (T8: 「若发现则本轮判负」) in a quarter-final: red's loss, the player's foul.
    let g = &due[0];
    let red = state.section(id).expect("section").order[g.game.red.index()];
    let before = state.foul_count(red);
    let input = ResultInput {
        fouls: vec![arbiter_director::api::results::FoulInput {
            colour: Colour::Red,
            kind: arbiter_core::FoulKind::Phone,
            reason: String::new(),
        }],
        ..ResultInput::new(g.board, GameResult::Draw)
    };
    let refused = refusal(enter_result(&state, &c, id, &input));
    assert!(refused.contains("判负"), "{refused}");
    let input = ResultInput {
        result: GameResult::BlackWin,
        ..input
    };
    let v = enter_result(&state, &c, id, &input).expect("red's loss");
    append(&mut log, &mut state, v);
    assert_eq!(state.foul_count(red), before + 1);
    let reg = regulation_of(&state).expect("reg");
    let b = arbiter_director::knockout_stage::bracket(&reg, &state, id).expect("bracket");
    let m = b.get(&g.match_id).expect("match");
    let arbiter_knockout::MatchState::Playing(mm) = &m.state else {
        panic!("the quarter-final is played");
    };
    assert_eq!(mm.winner(), Some(g.game.black), "the match saw red's loss");
    assert!(verify(&log, None).is_empty());
}

/// A swap on the sheet of an unpublished round: the preview shows the sheet after it and
/// the rematch in an arbiter's words (no rule code), writes nothing, and the command records
/// exactly the previewed entries; a published round is refused in words.
#[test]
fn a_swap_on_the_sheet_is_previewed_then_recorded_as_one_command() {
    use arbiter_director::api::rounds::repair;
    use arbiter_director::command::rounds::RoundCommand;
    use arbiter_director::command::{decide, Command};
    let (mut log, mut state) = registered_event("kunshan-2026", &[("men", 9), ("women", 0)]);
    let c = chief_ctx();
    let v = pair(&state, &c, "men", &PairRequest::default()).expect("pair 1");
    append(&mut log, &mut state, v);
    let v = publish(&state, &c, "men").expect("publish 1");
    append(&mut log, &mut state, v);
    let boards = sheet(&state, "men", Some(1)).expect("sheet 1").boards;
    for b in &boards {
        let v = enter_result(
            &state,
            &c,
            "men",
            &ResultInput::new(b.board, scripted(1, b.board)),
        )
        .expect("enter");
        append(&mut log, &mut state, v);
    }
    let v = pair(&state, &c, "men", &PairRequest::default()).expect("pair 2");
    append(&mut log, &mut state, v);
    let r2 = sheet(&state, "men", Some(2)).expect("sheet 2");
    let seat_of = |no: u32| {
        r2.boards
            .iter()
            .find_map(|b| (b.red.no == no).then_some(b.black.no))
            .or_else(|| {
                r2.boards
                    .iter()
                    .find_map(|b| (b.black.no == no).then_some(b.red.no))
            })
    };
    // Two players who met in round 1, both on a board in round 2: bring them together again.
    let (x, y, z) = boards
        .iter()
        .find_map(|b| {
            let (x, y) = (b.red.no, b.black.no);
            Some((x, y, seat_of(x)?)).filter(|_| seat_of(y).is_some())
        })
        .expect("a round-1 pair both paired in round 2");
    let no = |n| PlayerNo::new(n).expect("no");
    let before = state.clone();
    let preview = repair(&state, &c, "men", (no(y), no(z))).expect("preview");
    assert_eq!(state, before, "the preview writes nothing");
    assert_eq!(preview.round, 2);
    assert!(preview.sheet.boards.iter().any(|b| {
        let mut p = [b.red.no, b.black.no];
        p.sort();
        p == [x.min(y), x.max(y)]
    }));
    let met = preview
        .warnings
        .iter()
        .find(|w| w.contains("第1轮已交手"))
        .unwrap_or_else(|| panic!("rematch in words: {:?}", preview.warnings));
    assert!(
        met.contains(&format!("{x}号")) && met.contains(&format!("{y}号")),
        "{met}"
    );
    assert!(
        preview.warnings.iter().all(|w| !w.contains("H1")),
        "{:?}",
        preview.warnings
    );
    // Confirmed: the command records the previewed entries, and the log still verifies.
    let cmd: Command = RoundCommand::Repair {
        section: "men".into(),
        swap: (no(y), no(z)),
    }
    .into();
    let entries = decide(&state, &c, &cmd).expect("confirm").entries;
    assert_eq!(entries, preview.entries);
    assert!(matches!(entries[0], LogEntry::RoundUndone { round: 2, .. }));
    let Some(LogEntry::RoundPaired { manual, .. }) = entries.last() else {
        panic!("paired again: {entries:?}");
    };
    assert_eq!(manual.len(), 1);
    append(&mut log, &mut state, entries);
    assert_eq!(
        sheet(&state, "men", Some(2)).expect("sheet").boards,
        preview.sheet.boards
    );
    // Published: refused in words, nothing changes.
    let v = publish(&state, &c, "men").expect("publish 2");
    append(&mut log, &mut state, v);
    let msg = repair(&state, &c, "men", (no(y), no(z)))
        .expect_err("published")
        .to_string();
    assert!(msg.contains("已经公布") && msg.contains("撤销"), "{msg}");
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}
