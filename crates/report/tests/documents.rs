//! Every document of a simulated two-stage event (Tianshui: Swiss, then knockout, teams,
//! prizes), checked against the state it was built from.

use arbiter_core::EventState;
use arbiter_report::{build, html, Block, Cell, DocKind, Options, Privacy, ReportError};
use arbiter_simulate::{Simulator, Sizes};
use std::sync::OnceLock;

fn event() -> &'static EventState {
    static S: OnceLock<EventState> = OnceLock::new();
    S.get_or_init(|| {
        let path = format!(
            "{}/../../regulations/tianshui-2024.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let src = std::fs::read_to_string(&path).unwrap();
        let reg = arbiter_regulation::parse(&src, &path).unwrap();
        let sizes = Sizes {
            all: Some(40),
            ..Sizes::default()
        };
        let mut sim = Simulator::new(reg, &src, "tianshui-2024.toml", 7, &sizes);
        sim.run_in_memory().unwrap().1
    })
}

fn opts() -> Options {
    Options::default()
}

/// The options a document is printed with: the entry receipts carry check-in codes, so they
/// need the event's code secret and the check-in page's address.
fn opts_for(kind: DocKind) -> Options {
    match kind {
        DocKind::EntryReceipts => Options {
            claims: Some(arbiter_report::ClaimCodes {
                secret: "secret of the event".into(),
                url: "https://xq.example.org/e/ev-1/checkin".into(),
            }),
            ..opts()
        },
        _ => opts(),
    }
}

#[test]
fn entry_receipts_without_the_public_address_are_refused_in_words() {
    match build(event(), DocKind::EntryReceipts, &opts()) {
        Err(ReportError::Nothing(why)) => {
            assert!(why.contains("需要赛事的公开地址"), "{why}");
            assert!(!why.contains("--"), "no flag in the words: {why}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_document_builds_with_full_rows() {
    for kind in DocKind::ALL {
        let doc = build(event(), kind, &opts_for(kind)).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert_eq!(doc.event_name, event().name());
        assert!(doc.date.contains("2024年"), "{}", doc.date);
        assert!(!doc.blocks.is_empty(), "{kind:?} empty");
        for t in doc.tables() {
            assert!(!t.rows.is_empty(), "{kind:?} {} has no rows", t.id);
            for r in &t.rows {
                assert_eq!(r.len(), t.columns.len(), "{kind:?} {}", t.id);
            }
        }
        if kind == DocKind::Certificates {
            assert!(doc
                .blocks
                .iter()
                .any(|b| matches!(b, Block::Certificate(_))));
        }
    }
}

#[test]
fn pairings_are_the_rounds_boards() {
    let state = event();
    let sec = state.sections.keys().next().unwrap().clone();
    let o = Options {
        round: Some(3),
        section: Some(sec.clone()),
        ..opts()
    };
    let doc = build(state, DocKind::Pairings, &o).unwrap();
    let t = doc.tables()[0];
    let rec = state.section(&sec).unwrap();
    let round = rec.round(3).unwrap();
    assert_eq!(t.rows.len(), round.boards.len());
    let name = t.column("red_name").unwrap();
    let black = t.column("black_name").unwrap();
    for (row, b) in t.rows.iter().zip(&round.boards) {
        assert_eq!(
            row[name],
            Cell::Text(state.player(b.red).unwrap().person.name.clone())
        );
        assert_eq!(
            row[black],
            Cell::Text(state.player(b.black).unwrap().person.name.clone())
        );
    }
    assert!(doc.subtitle.unwrap().contains("第3轮"));
}

#[test]
fn standings_have_every_tiebreak_column() {
    let ex = arbiter_director::export(event()).unwrap();
    let doc = build(event(), DocKind::Standings, &opts()).unwrap();
    let t = doc.tables()[0];
    let sec = &ex.sections[0];
    for tb in &sec.tiebreaks {
        if sec.standings.iter().any(|r| r.tiebreaks.contains_key(tb)) {
            assert!(t.column(&format!("tb:{tb}")).is_some(), "{tb} missing");
        }
    }
    assert_eq!(t.rows.len(), sec.standings.len());
    let pts = t.column("points").unwrap();
    for (row, s) in t.rows.iter().zip(&sec.standings) {
        assert_eq!(row[pts], Cell::Score(s.points));
    }
}

#[test]
fn checkin_masks_personal_data_unless_organiser() {
    let state = event();
    let ids: Vec<String> = state
        .players
        .values()
        .filter_map(|p| p.person.id_number.as_ref().map(|n| n.as_str().to_string()))
        .collect();
    assert!(!ids.is_empty());
    let published = format!("{:?}", build(state, DocKind::Checkin, &opts()).unwrap());
    for id in &ids {
        assert!(!published.contains(id.as_str()), "{id} unmasked");
    }
    let organiser = Options {
        privacy: Privacy::Organiser,
        ..opts()
    };
    let full = format!("{:?}", build(state, DocKind::Checkin, &organiser).unwrap());
    assert!(ids.iter().all(|id| full.contains(id.as_str())));
    // No other document shows an ID number, even for the organiser (the prize receipts show
    // the winners' in the organiser's copy: they are not all the players').
    for kind in DocKind::ALL.into_iter().filter(|k| !k.personal()) {
        let with = Options {
            privacy: organiser.privacy,
            ..opts_for(kind)
        };
        let d = format!("{:?}", build(state, kind, &with).unwrap());
        assert!(ids.iter().all(|id| !d.contains(id.as_str())), "{kind:?}");
    }
}

#[test]
fn bad_requests_are_refused_with_the_reason() {
    assert!(matches!(
        DocKind::parse("pairing"),
        Err(ReportError::UnknownDoc(_))
    ));
    let o = Options {
        section: Some("nope".into()),
        ..opts()
    };
    let e = build(event(), DocKind::Standings, &o).unwrap_err();
    assert!(e.to_string().contains("未知的组别"), "{e}");
    let o = Options {
        round: Some(99),
        ..opts()
    };
    let e = build(event(), DocKind::Pairings, &o).unwrap_err();
    assert!(
        matches!(e, ReportError::UnknownRound { round: 99, .. }),
        "{e}"
    );
}

#[test]
fn html_has_a4_page_repeated_header_and_escapes() {
    let doc = build(event(), DocKind::Standings, &opts()).unwrap();
    let h = html::render(&doc);
    assert!(h.contains("@page { size: A4 portrait"));
    assert!(h.contains("<thead>"));
    assert!(h.contains(&html::escape(event().name())));
    let tables = doc.tables();
    let rows: usize = tables.iter().map(|t| t.rows.len() + 1).sum();
    assert_eq!(h.matches("<tr>").count(), rows);
    assert_eq!(h.matches("<thead>").count(), tables.len());
    assert_eq!(html::escape("<a&b>"), "&lt;a&amp;b&gt;");
    // Deterministic.
    assert_eq!(
        h,
        html::render(&build(event(), DocKind::Standings, &opts()).unwrap())
    );
}

/// The printed 名次表 follows the rounds the arbiters set (赛事设置) rather than the
/// regulation's number, and says 暂定 while rounds remain.
#[test]
fn printed_standings_follow_a_changed_number_of_rounds() {
    use arbiter_core::{LogEntry, Recorded};
    let path = format!(
        "{}/../../regulations/kunshan-2026.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).unwrap();
    let reg = arbiter_regulation::parse(&src, &path).unwrap();
    let sizes = Sizes {
        all: Some(12),
        ..Sizes::default()
    };
    let mut sim = Simulator::new(reg.clone(), &src, "kunshan-2026.toml", 3, &sizes);
    let (log, _) = sim.run_in_memory().unwrap();
    let at = log
        .iter()
        .position(|r| matches!(r.entry, LogEntry::RoundPaired { .. }))
        .unwrap();
    let mut state = EventState::replay(&log[..at]).unwrap();
    let sec = reg.sections[0].id.clone();
    let planned = reg.sections[0].format.rounds.unwrap();
    let caption = |state: &EventState| {
        let o = Options {
            section: Some(sec.clone()),
            ..opts()
        };
        let doc = build(state, DocKind::Standings, &o).unwrap();
        doc.tables()[0].caption.clone().unwrap()
    };
    let before = caption(&state);
    assert!(before.contains(&format!("共{planned}轮")), "{before}");
    assert!(before.ends_with("暂定"), "{before}");
    state
        .apply(&Recorded {
            seq: state.last_seq + 1,
            at: log[at].at.clone(),
            actor: "裁判长".into(),
            entry: LogEntry::SettingsChanged {
                name: None,
                start: None,
                end: None,
                venue: None,
                deadline: None,
                age_on: None,
                rounds: [(sec.clone(), planned - 2)].into_iter().collect(),
                time_controls: Default::default(),
                placed_units: Default::default(),
                reason: "场地时间缩短".into(),
            },
        })
        .unwrap();
    let after = caption(&state);
    assert!(after.contains(&format!("共{}轮", planned - 2)), "{after}");
    assert!(after.ends_with("暂定"), "{after}");
}

/// A plain knockout of 100 players (a bracket of 128, placement): every document builds,
/// and the printed bracket has its seven rounds (六十四分之一决赛 first, 64 matches a round,
/// byes shown) and all the places.
#[test]
fn the_bracket_of_a_plain_knockout_of_100_prints_every_round_and_place() {
    let src = r#"
[event]
name = "百人淘汰赛"
start = 2026-10-01
end = 2026-10-04

[[sections]]
id = "open"
name = "公开组"
pairing = { numbering = "lots" }
entries = { cap = 100 }

[sections.format]
kind = "knockout"

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10
increment_seconds = 5

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
black_minutes = 3

[[sections.prizes]]
rank = 1
amount_yuan = 1000
"#;
    let reg = arbiter_regulation::parse(src, "ko100.toml").unwrap();
    let mut sim = Simulator::new(reg, src, "ko100.toml", 3, &Sizes::default());
    let state = sim.run_in_memory().unwrap().1;
    // The documents of a knockout (no Swiss round: no pairing sheet, slips or crosstable).
    for kind in [
        DocKind::Checkin,
        DocKind::Standings,
        DocKind::Bracket,
        DocKind::Prizes,
        DocKind::Certificates,
    ] {
        build(&state, kind, &opts()).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
    }
    let doc = build(&state, DocKind::Bracket, &opts()).unwrap();
    let rounds: Vec<_> = doc
        .tables()
        .into_iter()
        .filter(|t| t.id != "bracket-open-places")
        .collect();
    assert_eq!(rounds.len(), 7, "a bracket of 128: seven rounds");
    for t in &rounds {
        assert_eq!(t.rows.len(), 64, "{}: every player plays every round", t.id);
    }
    let label = |r: &[Cell]| match &r[1] {
        Cell::Text(s) => s.clone(),
        other => format!("{other:?}"),
    };
    assert_eq!(label(&rounds[0].rows[0]), "六十四分之一决赛");
    assert!(
        rounds[6]
            .rows
            .iter()
            .any(|r| label(r) == "一百二十七一百二十八名"),
        "the last placement match"
    );
    let byes = rounds[0]
        .rows
        .iter()
        .filter(|r| {
            r[2..4]
                .iter()
                .any(|c| matches!(c, Cell::Text(s) if s == "轮空"))
        })
        .count();
    let places = doc
        .tables()
        .into_iter()
        .find(|t| t.id == "bracket-open-places")
        .expect("places once decided");
    assert_eq!(
        byes + places.rows.len(),
        128,
        "byes fill the bracket of 128"
    );
    assert!(places.rows.len() > 64);
    let page = html::render(&doc);
    assert!(page.contains("淘汰赛第7轮"), "seven round captions");
}

/// A14 「不可重复领奖」: a Swiss open with a women's list; every prize passed down (顺延) says so
/// in the printed prize list, and nobody holds two.
#[test]
fn the_prize_list_says_which_prizes_were_passed_down() {
    let src = r#"
[event]
name = "顺延测试公开赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }

[[sections.categories]]
id = "women"
name = "女子组"
sex = "F"

[[sections.prizes]]
rank = 1
amount_yuan = 1000
[[sections.prizes]]
rank = 2
amount_yuan = 600
[[sections.prizes]]
rank = 3
amount_yuan = 400
[[sections.prizes]]
from = 4
to = 6
amount_yuan = 200
[[sections.prizes]]
category = "women"
rank = 1
amount_yuan = 500
[[sections.prizes]]
category = "women"
rank = 2
amount_yuan = 250

[sections.awards]
one_award_per_person = true
"#;
    let reg = arbiter_regulation::parse(src, "passdown.toml").unwrap_or_else(|e| panic!("{e}"));
    let sizes = Sizes {
        all: Some(24),
        ..Sizes::default()
    };
    let mut sim = Simulator::new(reg, src, "passdown.toml", 5, &sizes);
    let state = sim.run_in_memory().unwrap().1;
    let doc = build(&state, DocKind::Prizes, &opts()).unwrap();
    let t = doc
        .tables()
        .into_iter()
        .find(|t| t.id == "prizes")
        .expect("a prize table");
    let col = |id: &str| t.columns.iter().position(|c| c.key == id);
    let why = col("passed_down").expect("a 顺延说明 column");
    let winner = col("winner").unwrap();
    let passed: Vec<&String> = t
        .rows
        .iter()
        .filter_map(|r| match &r[why] {
            Cell::Text(s) => Some(s),
            _ => None,
        })
        .collect();
    assert!(!passed.is_empty());
    assert!(passed.iter().all(|s| s.contains("顺延至")), "{passed:?}");
    let mut names: Vec<String> = t.rows.iter().map(|r| format!("{:?}", r[winner])).collect();
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "one award per person");
    assert!(html::render(&doc).contains("顺延说明"));
}

/// Every QR block of the document, slip by slip (inside the kept-together groups).
fn codes(doc: &arbiter_report::Document) -> Vec<&Vec<arbiter_report::QrCode>> {
    doc.blocks
        .iter()
        .filter_map(|b| match b {
            Block::KeepTogether(inner) => inner.iter().find_map(|b| match b {
                Block::Codes(c) => Some(c),
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

#[test]
fn slips_carry_each_sides_claim_code_only_when_asked() {
    use arbiter_director::claim::{code, seat_of, Seat};
    use arbiter_types::Colour;
    let state = event();
    let sec = state.sections.keys().next().unwrap().clone();
    let secret = "the event's secret of this test";
    let url = "https://xq.example.org/e/tianshui/claim";
    let o = Options {
        round: Some(3),
        section: Some(sec.clone()),
        claims: Some(arbiter_report::ClaimCodes {
            secret: secret.to_string(),
            url: url.to_string(),
        }),
        ..opts()
    };
    let doc = build(state, DocKind::Slips, &o).unwrap();
    let round = state.section(&sec).unwrap().round(3).unwrap();
    let slips = codes(&doc);
    assert_eq!(slips.len(), round.boards.len());
    for (qrs, b) in slips.iter().zip(&round.boards) {
        assert_eq!(qrs.len(), 2, "board {}", b.board);
        for (qr, side) in qrs.iter().zip([Colour::Red, Colour::Black]) {
            let seat = Seat {
                section: sec.clone(),
                round: 3,
                board: b.board,
                side,
            };
            let c = code(secret.as_bytes(), &seat);
            // The code the slip prints is the one the claim page takes for this seat.
            assert!(qr.lines[0].contains(&c), "{:?}", qr.lines);
            assert!(qr.lines[0].starts_with(match side {
                Colour::Red => "红方",
                Colour::Black => "黑方",
            }));
            assert_eq!(
                qr.lines[1],
                format!("扫码或打开 {url} 输入确认码 {c} 确认本台成绩")
            );
            assert_eq!(qr.data, format!("{url}?c={c}"));
            assert_eq!(seat_of(state, secret.as_bytes(), &c), Some(seat));
            assert_eq!(qr.dark.len(), qr.width * qr.width);
            // The three finder patterns' corners are dark, the module beside each is not.
            let w = qr.width;
            assert!(qr.is_dark(0, 0) && qr.is_dark(w - 1, 0) && qr.is_dark(0, w - 1));
            assert!(!qr.is_dark(7, 0) && !qr.is_dark(w - 8, 0));
        }
    }
    let page = html::render(&doc);
    let first = code(
        secret.as_bytes(),
        &Seat {
            section: sec.clone(),
            round: 3,
            board: round.boards[0].board,
            side: Colour::Black,
        },
    );
    assert!(page.contains(&first) && page.contains("<svg"));

    // Without the option, and on every other document even with it: no code.
    let plain = build(
        state,
        DocKind::Slips,
        &Options {
            claims: None,
            ..o.clone()
        },
    )
    .unwrap();
    assert!(codes(&plain).is_empty());
    assert!(!html::render(&plain).contains(&first));
    for kind in [DocKind::Pairings, DocKind::WallPairings, DocKind::Results] {
        let d = build(state, kind, &o).unwrap();
        assert!(!html::render(&d).contains(&first), "{kind:?}");
    }
}
