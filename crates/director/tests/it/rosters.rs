//! One roster per team (issue 18; the rule is in docs/event-log.md § 队伍名单): a team entry of
//! three and a fourth player naming the team, through the registration desk's API; and the
//! four reference events simulated, every team's members in the export equal to the players
//! whose `team` names it, `verify` clean.
//!
//! By default seeds 1–3 of each event run; `ARBITER_ROSTER_SEEDS=20` runs seeds 1–20.

use crate::common;

use arbiter_core::{EventState, LogEntry, PlayerId};
use arbiter_director::api::entries::{self as desk, TeamForm};
use arbiter_director::api::Ctx;
use arbiter_director::command::registration::RegistrationCommand;
use arbiter_director::registration::EntryForm;
use arbiter_director::{apply_scratch, publish, verify};
use arbiter_simulate::Sizes;
use common::*;
use std::collections::BTreeMap;

/// The chief arbiter at the desk's time.
fn chief() -> Ctx {
    Ctx::new(
        "裁判长",
        arbiter_director::api::Role::ChiefArbiter,
        ctx().at,
    )
}

/// The registration desk on 2026-09-01 at 10:00, with the desk's role.
fn ctx() -> Ctx {
    desk_ctx().with_role(arbiter_director::api::Role::Desk)
}

fn man(name: &str, unit: &str, team: Option<&str>, id: &str) -> EntryForm {
    EntryForm {
        section: "men".into(),
        name: name.into(),
        sex: None,
        birth: None,
        id_number: Some(id.into()),
        // Kunshan requires the phone and the 社保号 (K5): the ID number's digits serve.
        phone: id.get(9..17).map(|d| format!("139{d}")),
        unit: Some(unit.into()),
        association: None,
        team: team.map(str::to_string),
        evidence: vec!["社保证明".into()],
        flags: vec![],
        rating: None,
        grade: None,
        late_reason: None,
        social_security: Some(id.into()),
    }
}

/// Registers `form` at the desk; the entry it recorded.
fn register_entry(state: &mut EventState, form: &EntryForm) -> LogEntry {
    let out = desk::register(state, &ctx(), form).unwrap();
    let e = out[0].clone();
    apply(state, out);
    e
}

fn registered(e: &LogEntry) -> PlayerId {
    match e {
        LogEntry::PlayerRegistered(p) => p.player,
        other => panic!("not registered: {other:?}"),
    }
}

const T: &str = "华宇电子一队";
const U: &str = "昆山华宇电子有限公司";

fn team_form(members: Vec<PlayerId>) -> TeamForm {
    TeamForm {
        team: T.into(),
        unit: U.into(),
        division: Some("甲组".into()),
        members,
        leader: Some("领队".into()),
        coach: Some("教练".into()),
    }
}

/// The roster as the state holds it, and the players naming the team: equal.
fn assert_one_roster(state: &EventState, team: &str) -> Vec<PlayerId> {
    let mut members = state.teams[team].members.clone();
    members.sort();
    let naming: Vec<PlayerId> = state
        .players
        .values()
        .filter(|p| p.team.as_deref() == Some(team))
        .map(|p| p.id)
        .collect();
    assert_eq!(
        members, naming,
        "team {team}: roster and players[].team disagree"
    );
    members
}

#[test]
fn a_fourth_player_naming_an_entered_team_of_three_joins_its_roster() {
    let mut s = event("kunshan-2026");
    let three: Vec<PlayerId> = (1..=3)
        .map(|k| {
            registered(&register_entry(
                &mut s,
                &man(&format!("队员{k}"), U, Some(T), &man_id(k)),
            ))
        })
        .collect();
    let e = desk::enter_team(&s, &ctx(), &team_form(three.clone())).unwrap();
    apply(&mut s, e);
    assert_eq!(assert_one_roster(&s, T).len(), 3);
    // The fourth, from the team's unit: registered onto the one roster.
    let fourth = registered(&register_entry(
        &mut s,
        &man("队员4", U, Some(T), &man_id(4)),
    ));
    assert_eq!(
        assert_one_roster(&s, T),
        vec![three[0], three[1], three[2], fourth]
    );
    // From another unit: refused (K2), the roster unchanged.
    match register_entry(&mut s, &man("外援", "昆山农商行", Some(T), &man_id(5))) {
        LogEntry::EntryRefused { reason, .. } => assert!(reason.contains("跨单位"), "{reason}"),
        other => panic!("cross-unit player accepted: {other:?}"),
    }
    assert_eq!(assert_one_roster(&s, T).len(), 4);
    // The export reads the same roster: players[].team and teams[].members agree.
    let ex = publish::export(&s).unwrap();
    let named: Vec<u32> = ex.sections[0]
        .players
        .iter()
        .filter(|p| p.team.as_deref() == Some(T))
        .map(|p| p.no)
        .collect();
    assert_eq!(named.len(), 4, "{:?}", ex.sections[0].players);
}

#[test]
fn a_full_team_refuses_a_fourth_player() {
    let mut s = event_with("kunshan-2026", |x| {
        x.replace("min_players = 3 ", "min_players = 3\nmax_players = 3 ")
    });
    let three: Vec<PlayerId> = (1..=3)
        .map(|k| {
            registered(&register_entry(
                &mut s,
                &man(&format!("队员{k}"), U, Some(T), &man_id(k)),
            ))
        })
        .collect();
    let e = desk::enter_team(&s, &ctx(), &team_form(three)).unwrap();
    apply(&mut s, e);
    match register_entry(&mut s, &man("队员4", U, Some(T), &man_id(4))) {
        LogEntry::EntryRefused { reason, .. } => assert!(reason.contains("已有 3 人"), "{reason}"),
        other => panic!("a fourth player joined a full team: {other:?}"),
    }
    assert_eq!(assert_one_roster(&s, T).len(), 3);
}

#[test]
fn a_team_entry_must_list_everyone_who_named_the_team() {
    let mut s = event("kunshan-2026");
    let four: Vec<PlayerId> = (1..=4)
        .map(|k| {
            registered(&register_entry(
                &mut s,
                &man(&format!("队员{k}"), U, Some(T), &man_id(k)),
            ))
        })
        .collect();
    // Three listed, a fourth named the team at registration: refused, nothing recorded.
    let err = decided(
        &s,
        &ctx(),
        RegistrationCommand::EnterTeam {
            form: team_form(four[..3].to_vec()),
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("队伍名单未列入") && err.contains(&four[3].to_string()),
        "{err}"
    );
    // A player of another team cannot be listed either.
    let other = registered(&register_entry(
        &mut s,
        &man("二队队员", U, Some("华宇电子二队"), &man_id(6)),
    ));
    let mut with_other = four.clone();
    with_other.push(other);
    let err = decided(
        &s,
        &ctx(),
        RegistrationCommand::EnterTeam {
            form: team_form(with_other),
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("已属于队伍"), "{err}");
    // All four: accepted, one roster.
    let e = desk::enter_team(&s, &ctx(), &team_form(four.clone())).unwrap();
    apply(&mut s, e);
    assert_eq!(assert_one_roster(&s, T), four);
    // A correction of the team moves the player between rosters.
    let fix = desk::correct(
        &s,
        &ctx(),
        four[3],
        vec![arbiter_core::FieldChange::Team(None)],
        "报名表填错队名",
    )
    .unwrap();
    apply(&mut s, fix);
    assert_eq!(assert_one_roster(&s, T), four[..3].to_vec());
}

fn seeds() -> u64 {
    std::env::var("ARBITER_ROSTER_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

#[test]
fn simulated_events_hold_one_roster_per_team_and_verify() {
    let mut checked_teams = 0;
    for stem in [
        "kunshan-2026",
        "suzhou-2025",
        "jiujiang-2020",
        "tianshui-2024",
    ] {
        for seed in 1..=seeds() {
            let (log, state, _) = run(stem, seed, &Sizes::default());
            for t in state.teams.keys() {
                assert_one_roster(&state, t);
            }
            let ex = publish::export(&state).unwrap();
            for table in &ex.teams {
                let sec = ex.sections.iter().find(|s| s.id == table.section).unwrap();
                let mut naming: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
                for p in &sec.players {
                    if let Some(t) = &p.team {
                        naming.entry(t.as_str()).or_default().push(p.no);
                    }
                }
                for row in &table.standings {
                    let mut members = row.members.clone();
                    members.sort();
                    let mut named = naming.get(row.team.as_str()).cloned().unwrap_or_default();
                    named.sort();
                    assert_eq!(members, named, "{stem} seed {seed}: team {}", row.team);
                    checked_teams += 1;
                }
            }
            assert_eq!(verify(&log, Some(&ex)), vec![], "{stem} seed {seed}");
        }
    }
    assert!(checked_teams > 0, "no team was checked");
}

/// The desk's other operations on the same event: a player excused from round 1 (by an
/// arbiter) is not paired in it; a late entry needs the chief arbiter's reason; a draw after round 1 only
/// gives the late entry the next number.
#[test]
fn absent_late_entry_and_the_draw_after_round_one() {
    let mut s = event("kunshan-2026");
    let players: Vec<PlayerId> = (1..=6)
        .map(|k| {
            registered(&register_entry(
                &mut s,
                &man(&format!("棋手{k}"), U, None, &man_id(k)),
            ))
        })
        .collect();
    let e = desk::draw(&s, "men").unwrap();
    apply(&mut s, e);
    // An absence is the arbiters' to record, as at the desk; the registration desk is refused.
    assert!(matches!(
        desk::absent(&s, &ctx(), players[2], 1, Some("出差")),
        Err(arbiter_director::DirectorError::NotAllowed { .. })
    ));
    let arbiter = desk_ctx().with_role(arbiter_director::api::Role::Arbiter);
    let e = desk::absent(&s, &arbiter, players[2], 1, Some("出差")).unwrap();
    apply(&mut s, e);
    let reg = arbiter_director::regulation_of(&s).unwrap();
    let paired = arbiter_director::round::pair_round(&reg, &s, "men", 1, 1).unwrap();
    let LogEntry::RoundPaired { boards, byes, .. } = &paired.entry else {
        panic!("{:?}", paired.entry)
    };
    let seated: Vec<PlayerId> = boards
        .iter()
        .flat_map(|b| [b.red, b.black])
        .chain(byes.iter().copied())
        .collect();
    assert_eq!(seated.len(), 5, "{boards:?} {byes:?}");
    assert!(
        !seated.contains(&players[2]),
        "the excused player was paired"
    );
    apply(&mut s, vec![paired.entry.clone()]);
    // Absence for a paired round is refused (a forfeit is entered instead).
    let err = decided(
        &s,
        &arbiter,
        RegistrationCommand::Absence {
            player: players[3],
            round: 1,
            reason: None,
            without_leave: false,
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("已编排"), "{err}");
    // A team member after the team deadline (八(一)): refused unless the chief arbiter
    // admits it with a reason.
    let late_ctx = chief_ctx();
    let form = man("补报", U, Some("华宇一队"), &man_id(9));
    match &desk::register(&s, &late_ctx, &form).unwrap()[0] {
        LogEntry::EntryRefused { reason, .. } => assert!(reason.contains("截止"), "{reason}"),
        other => panic!("late entry accepted: {other:?}"),
    }
    let late = EntryForm {
        late_reason: Some("裁判长批准补报".into()),
        ..form
    };
    let out = desk::register(&s, &late_ctx, &late).unwrap();
    let new = registered(&out[0]);
    for e in out {
        apply_scratch(&mut s, &e, &late_ctx.at_rfc3339()).unwrap();
    }
    // The numbers stand; the late entry gets the next one.
    let before = s.section("men").unwrap().order.clone();
    let drawn = desk::draw(&s, "men").unwrap();
    let LogEntry::PairingNumbersDrawn { order, .. } = &drawn[0] else {
        panic!("{drawn:?}")
    };
    assert_eq!(order[..before.len()], before[..]);
    assert_eq!(order[before.len()..], [new]);
}

/// Roster changes after the team entry (`team_roster_changed`): add, remove, replace before
/// the first game; after it only the chief arbiter with a reason; one roster throughout.
#[test]
fn a_roster_is_changed_after_the_entry_and_after_the_first_game_only_by_the_chief() {
    use desk::RosterChange;
    let mut s = event_with("kunshan-2026", |x| {
        x.replace("min_players = 3 ", "min_players = 3\nmax_players = 4 ")
    });
    let ps: Vec<PlayerId> = (1..=6)
        .map(|k| {
            let team = (k <= 3).then_some(T);
            registered(&register_entry(
                &mut s,
                &man(&format!("队员{k}"), U, team, &man_id(k)),
            ))
        })
        .collect();
    let other = registered(&register_entry(
        &mut s,
        &man("外单位", "昆山农商行", None, &man_id(7)),
    ));
    let e = desk::enter_team(&s, &ctx(), &team_form(ps[..3].to_vec())).unwrap();
    apply(&mut s, e);
    let change = |add: Vec<PlayerId>, remove: Vec<PlayerId>, reason: &str| RosterChange {
        team: T.into(),
        add,
        remove,
        reason: reason.into(),
    };
    // Add a fourth (no reason needed before the first game).
    let e = desk::change_roster(&s, &ctx(), &change(vec![ps[3]], vec![], "")).unwrap();
    apply(&mut s, e);
    assert_eq!(assert_one_roster(&s, T), ps[..4].to_vec());
    // A fifth is over max_players = 4; a player of another unit is refused (K2).
    let err = desk::change_roster(&s, &ctx(), &change(vec![ps[4]], vec![], ""))
        .unwrap_err()
        .to_string();
    assert!(err.contains("至多 4 人"), "{err}");
    let err = desk::change_roster(&s, &ctx(), &change(vec![other], vec![ps[0]], ""))
        .unwrap_err()
        .to_string();
    assert!(err.contains("跨单位"), "{err}");
    // Remove one, then replace one by another.
    let e = desk::change_roster(&s, &ctx(), &change(vec![], vec![ps[3]], "")).unwrap();
    apply(&mut s, e);
    assert_eq!(assert_one_roster(&s, T), ps[..3].to_vec());
    assert_eq!(s.players[&ps[3]].team, None);
    // Three left: removing another would leave too few; replacing keeps three.
    let err = desk::change_roster(&s, &ctx(), &change(vec![], vec![ps[2]], ""))
        .unwrap_err()
        .to_string();
    assert!(err.contains("至少 3 人"), "{err}");
    let e = desk::change_roster(&s, &ctx(), &change(vec![ps[4]], vec![ps[2]], "伤病")).unwrap();
    assert!(matches!(&e[0], LogEntry::TeamRosterChanged { reason, .. } if reason == "伤病"));
    apply(&mut s, e);
    assert_eq!(assert_one_roster(&s, T), vec![ps[0], ps[1], ps[4]]);
    // A player who is on the team cannot join it twice, and one not on it cannot leave it.
    assert!(desk::change_roster(&s, &ctx(), &change(vec![ps[0]], vec![ps[1]], "")).is_err());
    assert!(desk::change_roster(&s, &ctx(), &change(vec![ps[5]], vec![ps[3]], "")).is_err());
    // Round 1 paired: the team has played its first game.
    let e = desk::draw(&s, "men").unwrap();
    apply(&mut s, e);
    let reg = arbiter_director::regulation_of(&s).unwrap();
    let paired = arbiter_director::round::pair_round(&reg, &s, "men", 1, 1).unwrap();
    apply(&mut s, vec![paired.entry]);
    assert!(desk::team_started(&s, T));
    let swap = change(vec![ps[5]], vec![ps[4]], "");
    let err = desk::change_roster(&s, &ctx(), &swap)
        .unwrap_err()
        .to_string();
    assert!(err.contains("只能由裁判长进行"), "{err}");
    let err = desk::change_roster(&s, &chief(), &swap)
        .unwrap_err()
        .to_string();
    assert!(err.contains("理由"), "{err}");
    let swap = change(vec![ps[5]], vec![ps[4]], "队员因公出差, 经裁判长批准替换");
    let e = desk::change_roster(&s, &chief(), &swap).unwrap();
    apply(&mut s, e);
    assert_eq!(assert_one_roster(&s, T), vec![ps[0], ps[1], ps[5]]);
    // The export reads the one roster.
    let ex = publish::export(&s).unwrap();
    let named = ex.sections[0]
        .players
        .iter()
        .filter(|p| p.team.as_deref() == Some(T))
        .count();
    assert_eq!(named, 3);
}

/// The log's own rule: a roster change cannot make a player half-belong to two teams.
#[test]
fn the_log_refuses_a_roster_change_that_breaks_one_roster() {
    let mut s = event("kunshan-2026");
    let ps: Vec<PlayerId> = (1..=4)
        .map(|k| {
            let team = (k <= 3).then_some(T);
            registered(&register_entry(
                &mut s,
                &man(&format!("队员{k}"), U, team, &man_id(k)),
            ))
        })
        .collect();
    let e = desk::enter_team(&s, &ctx(), &team_form(ps[..3].to_vec())).unwrap();
    apply(&mut s, e);
    let rej = |e: LogEntry| arbiter_core::validate(&s, &e).unwrap_err();
    let entry = |added: Vec<PlayerId>, removed: Vec<PlayerId>| LogEntry::TeamRosterChanged {
        team: T.into(),
        added,
        removed,
        reason: String::new(),
    };
    assert_eq!(
        rej(entry(vec![], vec![])),
        arbiter_core::Rejection::NoRosterChange
    );
    assert!(matches!(
        rej(entry(vec![ps[0]], vec![])),
        arbiter_core::Rejection::MemberOfOtherTeam { .. }
    ));
    assert!(matches!(
        rej(entry(vec![], vec![ps[3]])),
        arbiter_core::Rejection::NotOnRoster { .. }
    ));
}
