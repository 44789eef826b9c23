//! TRF-16 reader and writer.

use arbiter_pairing::Availability;
use arbiter_trf::{parse, write, TrfPlayer, TrfTournament};
use arbiter_types::{
    Colour, Outcome, PairingSettings, PlayerNo, PlayerResult, Round1Colour, Score, ScoringPreset,
    Sex,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

const SAMPLE: &str = include_str!("fixtures/sample.trf");

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

#[test]
fn reads_the_fixed_columns() {
    let t = parse(SAMPLE, "sample.trf").unwrap();
    assert_eq!(t.name, "Test Open 2026");
    assert_eq!(t.total_rounds, Some(5));
    assert_eq!(t.rounds_played, 3);
    assert_eq!(t.initial_colour, Some(Colour::Black));
    assert_eq!(
        t.scoring,
        ScoringPreset::Cxa.table(),
        "no XXS: 1/½/0 read as 2/1/0"
    );
    assert_eq!(t.players.len(), 5);
    let w = &t.players[0];
    assert_eq!(w.no, p(1));
    assert_eq!(w.sex, Some(Sex::Male));
    assert_eq!(w.title, "GM");
    assert_eq!(w.name, "Wang, Tianyi");
    assert_eq!(w.rating, Some(2650));
    assert_eq!(w.federation, "CHN");
    assert_eq!(w.fide_id, "8600123");
    assert_eq!(w.birth_date, "1990/01/01");
    assert_eq!(w.points, Some(Score::points(2)));
    assert_eq!(w.rank, Some(1));
    assert_eq!(w.team, Some(1), "013 team line");
    assert_eq!(t.players[3].team, Some(1));
    assert_eq!(t.players[1].team, None);
    assert_eq!(t.players[2].sex, Some(Sex::Female));
    assert_eq!(t.players[2].title, "WGM");
    assert_eq!(t.players[4].rating, None, "rating 0 = unrated");
    assert_eq!(
        t.extra_lines,
        vec![
            "022 Suzhou".to_string(),
            "XYZ unknown extension line".to_string()
        ]
    );
}

#[test]
fn maps_every_result_code() {
    let t = parse(SAMPLE, "sample.trf").unwrap();
    use Colour::*;
    let g = |o: u32, c, r| Outcome::Game {
        opponent: p(o),
        colour: c,
        result: r,
    };
    assert_eq!(
        t.outcomes[0],
        vec![
            g(3, Red, PlayerResult::Win),
            g(5, Black, PlayerResult::Win),
            Outcome::DoubleForfeit {
                opponent: p(2),
                colour: Red
            }
        ]
    );
    assert_eq!(
        t.outcomes[1],
        vec![
            g(4, Black, PlayerResult::Draw),
            Outcome::ForfeitWin {
                opponent: p(3),
                colour: Red
            },
            Outcome::DoubleForfeit {
                opponent: p(1),
                colour: Black
            }
        ]
    );
    assert_eq!(
        t.outcomes[2][1],
        Outcome::ForfeitLoss {
            opponent: p(2),
            colour: Black
        }
    );
    assert_eq!(t.outcomes[3][1], Outcome::HalfBye);
    assert_eq!(
        t.outcomes[4],
        vec![Outcome::Bye, g(1, Red, PlayerResult::Loss), Outcome::Absent]
    );
    assert_eq!(t.players[3].next_round, Some(Outcome::HalfBye));
    assert_eq!(t.players[0].next_round, None);
}

#[test]
fn full_bye_and_blank_blocks() {
    // Player 1: F in round 1; player 2: blank block in round 1. Blocks start at col 92.
    let head = |no: u32, name: &str| format!("001 {no:>4}      {name:<33}{}", " ".repeat(42));
    let text = format!(
        "{}  0000 - F     2 w 1\n{}               1 b 0\n",
        head(1, "A"),
        head(2, "B")
    );
    assert_eq!(text.lines().next().unwrap().find("0000"), Some(91));
    let t = parse(&text, "x.trf").unwrap();
    assert_eq!(t.rounds_played, 2);
    assert_eq!(t.outcomes[0][0], Outcome::FullBye);
    assert_eq!(t.outcomes[1][0], Outcome::Absent, "blank block = absent");
}

#[test]
fn crlf_and_cr_only_files_read_the_same() {
    let lf = parse(SAMPLE, "a.trf").unwrap();
    let crlf = parse(&SAMPLE.replace('\n', "\r\n"), "a.trf").unwrap();
    let cr = parse(&SAMPLE.replace('\n', "\r"), "a.trf").unwrap();
    let bom = parse(
        &format!("\u{feff}{}", SAMPLE.replace('\n', "\r\n")),
        "a.trf",
    )
    .unwrap();
    assert_eq!(lf, crlf);
    assert_eq!(lf, cr);
    assert_eq!(lf, bom);
}

#[test]
fn state_before_each_round() {
    let t = parse(SAMPLE, "sample.trf").unwrap();
    let s = t.state_before_round(2, PairingSettings::default());
    assert_eq!(s.players.len(), 5);
    assert!(s.players.iter().all(|e| e.history.len() == 1));
    assert_eq!(
        s.players[3].availability,
        Availability::Absent,
        "H in round 2: not paired"
    );
    assert_eq!(s.players[0].availability, Availability::Active);
    assert_eq!(s.total_rounds, 5);
    assert_eq!(
        s.settings.round1_colour,
        Round1Colour::OddBoardLargeRed,
        "XXC black1"
    );
    assert_eq!(s.players[0].team, Some(1));
    let next = t.next_round_state(PairingSettings::default());
    assert!(next.players.iter().all(|e| e.history.len() == 3));
    assert_eq!(
        next.players[3].availability,
        Availability::Absent,
        "requested bye in round 4"
    );
    assert_eq!(next.players[4].availability, Availability::Active);
}

#[test]
fn rebuilds_the_pairing_of_a_round() {
    let t = parse(SAMPLE, "sample.trf").unwrap();
    let r1 = t.pairing_of_round(1).unwrap();
    let boards: Vec<(u32, u32)> = r1
        .boards
        .iter()
        .map(|b| (b.red.get(), b.black.get()))
        .collect();
    assert_eq!(boards, vec![(1, 3), (4, 2)]);
    assert_eq!(r1.bye, Some(p(5)));
    let r2 = t.pairing_of_round(2).unwrap();
    assert_eq!(r2.bye, None);
    assert_eq!(r2.boards.len(), 2, "forfeits are boards too");
    assert!(t.pairing_of_round(4).is_none());
    assert!(t.pairing_of_round(0).is_none());
}

fn err_of(text: &str) -> arbiter_trf::TrfError {
    parse(text, "bad.trf").unwrap_err()
}

#[test]
fn errors_name_file_line_column_and_problem() {
    let bad_code = SAMPLE.replace("    3 w 1     5 b 1", "    3 w X     5 b 1");
    let e = err_of(&bad_code);
    assert_eq!((e.line, e.column), (7, 99));
    let msg = e.to_string();
    assert!(
        msg.starts_with("bad.trf:7:99: 第7行第99列: 第1轮未知的结果代码 `X`"),
        "{msg}"
    );
    assert!(msg.contains("unknown result code"), "{msg}");

    let e = err_of(&SAMPLE.replace("    3 w 1     5 b 1", "    9 w 1     5 b 1"));
    assert_eq!((e.line, e.column), (7, 92));
    assert!(e.message_zh.contains("9号 不存在"), "{e}");

    let e = err_of(&SAMPLE.replace("    3 w 1     5 b 1", "    4 w 1     5 b 1"));
    assert!(e.message_en.contains("does not list"), "{e}");

    let e = err_of(&SAMPLE.replace("001    2 m", "001    1 m"));
    assert_eq!((e.line, e.column), (8, 5));
    assert!(e.message_zh.contains("重复"));

    let e = err_of(&SAMPLE.replace("001    2 m", "001   x2 m"));
    assert_eq!((e.line, e.column), (8, 5));

    let e = err_of(&SAMPLE.replace("XXR 5", "XXR five"));
    assert_eq!(e.line, 3);

    let e = err_of(&SAMPLE.replace("    3 w 1     5 b 1", "    3 x 1     5 b 1"));
    assert_eq!((e.line, e.column), (7, 97));

    let e = err_of(&SAMPLE.replace("    3 w 1     5 b 1", "    3 b 1     5 b 1"));
    assert!(e.message_zh.contains("颜色相同"), "{e}");

    let e = err_of(&SAMPLE.replace(" 2650 ", " 26x0 "));
    assert_eq!((e.line, e.column), (7, 49));

    let e = err_of("XXS 5 2 3 0\n");
    assert!(e.message_zh.contains("8 个分数"), "{e}");
}

#[test]
fn xiangqi_extension_lines_round_trip() {
    let mut t = parse(SAMPLE, "sample.trf").unwrap();
    t.scoring = ScoringPreset::FiveTwoThreeZero.table();
    t.players[1].team = Some(7);
    t.players[2].team = Some(7);
    let text = write(&t);
    assert!(text.contains("XXS 5 2 3 0 5 5 0 0\n"), "{text}");
    assert!(text.contains("XXT    1    1    4\n"), "{text}");
    assert!(text.contains("XXT    7    2    3\n"), "{text}");
    assert!(text.contains("XXC black1\n"));
    assert!(text.contains("XXR 5\n"));
    assert_eq!(parse(&text, "w.trf").unwrap(), t);
}

#[test]
fn written_lines_use_the_fixed_columns() {
    let t = parse(SAMPLE, "sample.trf").unwrap();
    let text = write(&t);
    let line = text.lines().find(|l| l.starts_with("001    1")).unwrap();
    let chars: Vec<char> = line.chars().collect();
    let col = |a: usize, b: usize| chars[a - 1..b].iter().collect::<String>();
    assert_eq!(col(15, 47).trim(), "Wang, Tianyi");
    assert_eq!(col(49, 52), "2650");
    assert_eq!(col(81, 84), " 2.0");
    assert_eq!(col(92, 99), "   3 w 1");
    assert_eq!(col(102, 109), "   5 b 1");
}

/// A random complete tournament of `n` players and `rounds` rounds (Berger pairings,
/// seeded results), for round trips independent of the pairing engine.
fn random_tournament(n: usize, rounds: usize, seed: u64) -> TrfTournament {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let table = arbiter_pairing::round_robin::berger(n);
    let players = (1..=n)
        .map(|i| TrfPlayer {
            no: PlayerNo::from_index(i - 1),
            sex: if rng.gen() { Some(Sex::Male) } else { None },
            title: String::new(),
            name: format!("棋手{i} 张"),
            rating: rng.gen_bool(0.5).then(|| rng.gen_range(1000..2800)),
            federation: "CHN".into(),
            fide_id: String::new(),
            birth_date: String::new(),
            points: None,
            rank: None,
            team: rng.gen_bool(0.5).then(|| rng.gen_range(1..4)),
            next_round: None,
        })
        .collect();
    let mut t = TrfTournament {
        name: format!("随机赛 {seed}"),
        players,
        rounds_played: 0,
        total_rounds: Some(rounds as u32 + 1),
        initial_colour: Some(Colour::Red),
        scoring: ScoringPreset::ThreeOneTwoZero.table(),
        outcomes: vec![Vec::new(); n],
        extra_lines: vec!["102 Arbiter Li".into()],
    };
    for rr in table.iter().take(rounds) {
        let mut res = BTreeMap::new();
        for &(r, b) in &rr.boards {
            let (r, b) = (PlayerNo::from_index(r - 1), PlayerNo::from_index(b - 1));
            let x: u32 = rng.gen_range(0..100);
            let (or, ob) = match x {
                0..=39 => (PlayerResult::Win, PlayerResult::Loss),
                40..=69 => (PlayerResult::Loss, PlayerResult::Win),
                70..=89 => (PlayerResult::Draw, PlayerResult::Draw),
                _ => {
                    let (a, bb) = match x % 3 {
                        0 => (
                            Outcome::ForfeitWin {
                                opponent: b,
                                colour: Colour::Red,
                            },
                            Outcome::ForfeitLoss {
                                opponent: r,
                                colour: Colour::Black,
                            },
                        ),
                        1 => (
                            Outcome::ForfeitLoss {
                                opponent: b,
                                colour: Colour::Red,
                            },
                            Outcome::ForfeitWin {
                                opponent: r,
                                colour: Colour::Black,
                            },
                        ),
                        _ => (
                            Outcome::DoubleForfeit {
                                opponent: b,
                                colour: Colour::Red,
                            },
                            Outcome::DoubleForfeit {
                                opponent: r,
                                colour: Colour::Black,
                            },
                        ),
                    };
                    res.insert(r, a);
                    res.insert(b, bb);
                    continue;
                }
            };
            res.insert(
                r,
                Outcome::Game {
                    opponent: b,
                    colour: Colour::Red,
                    result: or,
                },
            );
            res.insert(
                b,
                Outcome::Game {
                    opponent: r,
                    colour: Colour::Black,
                    result: ob,
                },
            );
        }
        if let Some(b) = rr.bye {
            res.insert(PlayerNo::from_index(b - 1), Outcome::Bye);
        }
        t.push_round(&res);
    }
    t.fill_points_and_ranks();
    t
}

#[test]
fn random_tournaments_round_trip() {
    for (n, rounds, seed) in [(2, 1, 1), (5, 5, 2), (9, 7, 3), (16, 11, 4), (31, 9, 5)] {
        let t = random_tournament(n, rounds, seed);
        let text = write(&t);
        let back = parse(&text, "rt.trf").unwrap();
        assert_eq!(back, t, "n={n} rounds={rounds}\n{text}");
        assert_eq!(write(&back), text);
    }
}

#[test]
fn truncated_lines_never_panic_and_errors_name_their_line() {
    let base = write(&random_tournament(7, 5, 9));
    let lines: Vec<&str> = base.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        for cut in 0..=l.chars().count() {
            let short: String = l.chars().take(cut).collect();
            let mut text = String::new();
            for (j, m) in lines.iter().enumerate() {
                text.push_str(if i == j { &short } else { m });
                text.push('\n');
            }
            if let Err(e) = parse(&text, "cut.trf") {
                assert!(e.line >= 1, "{e}");
                assert!(e.to_string().starts_with("cut.trf:"), "{e}");
            }
        }
    }
}

proptest! {
    #[test]
    fn parser_never_panics_on_arbitrary_text(s in "\\PC*") {
        let _ = parse(&s, "p.trf");
    }

    #[test]
    fn parser_never_panics_on_trf_like_lines(
        lines in prop::collection::vec(
            ("(001|012|XXR|XXC|XXS|XXT|013|   )", "[ 0-9a-zA-Z=+\\-.½]{0,130}"),
            0..12,
        ),
        ending in "(\n|\r\n|\r)",
    ) {
        let text: String = lines.iter().map(|(c, r)| format!("{c}{r}{ending}")).collect();
        let _ = parse(&text, "p.trf");
    }

    #[test]
    fn parser_never_panics_on_mutated_files(pos in 0usize..2000, ch in any::<char>()) {
        let mut chars: Vec<char> = SAMPLE.chars().collect();
        let i = pos % chars.len();
        chars[i] = ch;
        let text: String = chars.into_iter().collect();
        let _ = parse(&text, "p.trf");
    }
}

#[test]
fn two_winners_of_one_game_are_refused() {
    // Round 1: player 1 beat player 3 — and player 3's line says he won too.
    let bad = SAMPLE.replace(
        "1.0    4     1 b 0     2 b -",
        "1.0    4     1 b 1     2 b -",
    );
    assert_ne!(bad, SAMPLE);
    let e = parse(&bad, "bad.trf").unwrap_err().to_string();
    assert!(e.contains("第1轮与对手"), "{e}");
    assert!(e.contains("does not match"), "{e}");
    // A win against a draw is refused as well; a double loss (0–0) is a possible ruling.
    let draw = SAMPLE.replace(
        "1.0    4     1 b 0     2 b -",
        "1.0    4     1 b =     2 b -",
    );
    assert!(parse(&draw, "draw.trf").is_err());
    let both_lose = SAMPLE.replace(
        "1990/01/01  2.0    1     3 w 1",
        "1990/01/01  2.0    1     3 w 0",
    );
    assert!(parse(&both_lose, "zero.trf").is_ok());
}

#[test]
fn a_file_without_players_is_refused() {
    for (text, what) in [("", "empty"), ("012 Nobody\nXXR 5\n", "no 001 lines")] {
        let e = parse(text, "none.trf").unwrap_err().to_string();
        assert!(e.contains("没有棋手行"), "{what}: {e}");
        assert!(e.contains("none.trf"), "{what}: {e}");
    }
}
