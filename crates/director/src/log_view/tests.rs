use super::*;
use arbiter_core::{
    ClosedPrize, ClosedSection, ClosedTeams, EntryLimits, EventCreated, Offender, PlayerRegistered,
    RefusedFacts, TeamPairing, TimeControlSetting,
};
use arbiter_types::{Colour, IdNumber, Phone, Sex};

const ID: &str = "11010519491231002X";
const PHONE: &str = "13912345678";

fn id() -> IdNumber {
    ID.parse().expect("a valid ID number")
}

fn phone() -> Phone {
    PHONE.parse().expect("a valid phone")
}

fn registered(player: u32, name: &str, section: &str, unit: &str) -> LogEntry {
    LogEntry::PlayerRegistered(PlayerRegistered {
        player: PlayerId(player),
        section: section.into(),
        person: arbiter_types::Person {
            name: name.into(),
            sex: Some(Sex::Male),
            birth_date: None,
            id_number: Some(id()),
            phone: Some(phone()),
            social_security: None,
            unit: Some(unit.into()),
            association: None,
        },
        team: None,
        evidence: Vec::new(),
        local: false,
        rating: None,
        grade: None,
        flags: Vec::new(),
        late_reason: None,
        submission: None,
    })
}

/// The index of a variant in [`every_variant`]: a new variant of `LogEntry` does not compile
/// here until the test builds one (no wildcard).
fn variant_index(e: &LogEntry) -> usize {
    match e {
        LogEntry::EventCreated(_) => 0,
        LogEntry::PlayerRegistered(_) => 1,
        LogEntry::PlayerCorrected { .. } => 2,
        LogEntry::PlayerWithdrawn { .. } => 3,
        LogEntry::EntryRefused { .. } => 4,
        LogEntry::FeePaid { .. } => 5,
        LogEntry::CheckedIn { .. } => 6,
        LogEntry::PlayerAbsent { .. } => 7,
        LogEntry::TeamEntered { .. } => 8,
        LogEntry::TeamRosterChanged { .. } => 9,
        LogEntry::PairingNumbersDrawn { .. } => 10,
        LogEntry::RoundPaired { .. } => 11,
        LogEntry::ResultEntered { .. } => 12,
        LogEntry::ResultConfirmed { .. } => 13,
        LogEntry::ResultCorrected { .. } => 14,
        LogEntry::FoulRecorded { .. } => 15,
        LogEntry::RoundCompleted { .. } => 16,
        LogEntry::EventClosed { .. } => 17,
        LogEntry::EventReopened { .. } => 18,
        LogEntry::RoundPublished { .. } => 19,
        LogEntry::RoundUndone { .. } => 20,
        LogEntry::EntrySubmitted { .. } => 21,
        LogEntry::SubmissionDecided { .. } => 22,
        LogEntry::SettingsChanged { .. } => 23,
        LogEntry::KnockoutGameRecorded { .. } => 24,
        LogEntry::FeeCancelled { .. } => 25,
        LogEntry::CheckInCancelled { .. } => 26,
        LogEntry::DepositRefunded { .. } => 33,
        LogEntry::RefundConditionMarked { .. } => 34,
        LogEntry::ColoursPlayed { .. } => 27,
        LogEntry::FoulFlagDecided { .. } => 28,
        LogEntry::ProtestDecided { .. } => 29,
        LogEntry::GameRecorded { .. } => 30,
        LogEntry::GameRecordRemoved { .. } => 31,
        LogEntry::SpecialAwardGiven { .. } => 32,
        LogEntry::TeamNumbersDrawn { .. } => 35,
        LogEntry::MatchesPaired { .. } => 36,
        LogEntry::LineupGiven { .. } => 37,
        LogEntry::MatchConfirmed { .. } => 38,
        LogEntry::PlayerReinstated { .. } => 39,
        LogEntry::PlayerDisqualified { .. } => 40,
        LogEntry::DisqualificationRevoked { .. } => 41,
        LogEntry::RefusalWithdrawn { .. } => 42,
        LogEntry::PlayerSectionChanged { .. } => 43,
        LogEntry::ResultClaimed { .. } => 44,
        LogEntry::SectionsMerged { .. } => 45,
        LogEntry::KnockoutSeeded { .. } => 46,
        LogEntry::GroupsDrawn { .. } => 47,
        LogEntry::OfficialsAppointed { .. } => 48,
        LogEntry::KnockoutResultClaimed { .. } => 49,
    }
}

const VARIANTS: usize = 50;

/// A small event's log with one entry (at least) of every variant, in an order that folds.
fn every_variant() -> Vec<LogEntry> {
    let p = PlayerId;
    vec![
        LogEntry::EventCreated(EventCreated {
            name: "2026年天水市象棋公开赛".into(),
            regulation: String::new(),
            file_name: "tianshui.toml".into(),
            seed: 7,
            sections: vec![
                SectionInfo {
                    id: "open".into(),
                    name: "公开组".into(),
                    divisions: vec![DivisionInfo {
                        id: "a".into(),
                        name: "甲组".into(),
                    }],
                },
                SectionInfo {
                    id: "women".into(),
                    name: "女子组".into(),
                    divisions: Vec::new(),
                },
                SectionInfo {
                    id: "girls".into(),
                    name: "少年女子组".into(),
                    divisions: Vec::new(),
                },
            ],
            limits: EntryLimits::default(),
        }),
        registered(1, "张三", "open", "天水市"),
        registered(2, "李四", "open", "秦州区"),
        registered(3, "王五", "open", "麦积区"),
        LogEntry::PlayerSectionChanged {
            player: p(3),
            from: "open".into(),
            to: "women".into(),
            reason: "报错组别".into(),
        },
        LogEntry::PlayerSectionChanged {
            player: p(3),
            from: "women".into(),
            to: "open".into(),
            reason: "核对后改回".into(),
        },
        LogEntry::PlayerCorrected {
            player: p(3),
            changes: vec![
                FieldChange::Name("王武".into()),
                FieldChange::IdNumber(Some(id())),
                FieldChange::Phone(Some(phone())),
                FieldChange::Evidence(vec!["social_security".into()]),
                FieldChange::Flags(vec!["group_member".into()]),
            ],
            reason: "身份证核对".into(),
        },
        LogEntry::EntryRefused {
            name: "赵六".into(),
            section: "women".into(),
            reason: "女子组只收女选手".into(),
            id_number: Some(id()),
            unit: Some("甘谷县".into()),
            facts: Some(RefusedFacts::default()),
        },
        LogEntry::RefusalWithdrawn {
            refusal: 6,
            reason: "误拒".into(),
        },
        LogEntry::FeePaid {
            player: p(1),
            amount_fen: 20050,
            receipt: Some("No.12".into()),
            item: None,
        },
        LogEntry::FeePaid {
            player: p(1),
            amount_fen: 20000,
            receipt: None,
            item: Some("押金".into()),
        },
        LogEntry::CheckedIn {
            player: p(1),
            pledge: false,
        },
        LogEntry::FeeCancelled {
            player: p(1),
            amount_fen: 50,
            item: None,
        },
        LogEntry::DepositRefunded {
            player: p(1),
            item: "押金".into(),
            amount_fen: 20000,
            reason: Some("完成全部对局".into()),
        },
        LogEntry::RefundConditionMarked {
            player: p(1),
            condition: "完成全部对局".into(),
            met: true,
        },
        LogEntry::CheckInCancelled { player: p(1) },
        LogEntry::CheckedIn {
            player: p(1),
            pledge: true,
        },
        LogEntry::PlayerAbsent {
            player: p(2),
            round: 2,
            reason: Some("工作".into()),
            without_leave: false,
        },
        LogEntry::TeamEntered {
            team: "天水一队".into(),
            unit: "天水市".into(),
            division: Some("a".into()),
            members: vec![p(1), p(2)],
            leader: Some("领队甲".into()),
            coach: None,
        },
        LogEntry::TeamRosterChanged {
            team: "天水一队".into(),
            added: vec![p(3)],
            removed: vec![p(2)],
            reason: "替换".into(),
        },
        LogEntry::EntrySubmitted {
            submission: 1,
            section: "open".into(),
            person: arbiter_types::Person {
                name: "孙七".into(),
                sex: Some(Sex::Male),
                birth_date: None,
                id_number: Some(id()),
                phone: Some(phone()),
                social_security: None,
                unit: Some("武山县".into()),
                ..arbiter_types::Person::default()
            },
            flags: Vec::new(),
            evidence: Vec::new(),
            status_key: None,
        },
        registered(4, "孙七", "open", "武山县"),
        LogEntry::SubmissionDecided {
            submission: 1,
            player: Some(p(4)),
            reason: None,
        },
        LogEntry::EntrySubmitted {
            submission: 2,
            section: "open".into(),
            person: arbiter_types::Person {
                name: "周八".into(),
                sex: None,
                birth_date: None,
                id_number: None,
                phone: None,
                social_security: None,
                unit: None,
                ..arbiter_types::Person::default()
            },
            flags: Vec::new(),
            evidence: Vec::new(),
            status_key: None,
        },
        LogEntry::SubmissionDecided {
            submission: 2,
            player: None,
            reason: Some("重复报名".into()),
        },
        LogEntry::TeamEntered {
            team: "武山队".into(),
            unit: "武山县".into(),
            division: None,
            members: vec![p(4)],
            leader: None,
            coach: None,
        },
        LogEntry::TeamNumbersDrawn {
            section: "open".into(),
            seed: 3,
            order: vec!["天水一队".into(), "武山队".into()],
        },
        LogEntry::MatchesPaired {
            section: "open".into(),
            round: 1,
            matches: vec![TeamPairing {
                first: "天水一队".into(),
                second: "武山队".into(),
            }],
            bye: None,
            seed: Some(3),
            manual: Vec::new(),
        },
        LogEntry::LineupGiven {
            section: "open".into(),
            round: 1,
            team: "天水一队".into(),
            boards: vec![Some(p(1)), None],
            by: "领队甲".into(),
        },
        LogEntry::MatchConfirmed {
            section: "open".into(),
            round: 1,
            team: "天水一队".into(),
            by: "队长乙".into(),
        },
        LogEntry::SettingsChanged {
            name: None,
            start: None,
            end: None,
            venue: Some("天水市体育馆".into()),
            rounds: [("open".to_string(), 7)].into(),
            time_controls: [(
                "open".to_string(),
                TimeControlSetting {
                    minutes: 60,
                    increment_seconds: 30,
                },
            )]
            .into(),
            reason: "场地调整".into(),
            deadline: None,
            age_on: None,
            placed_units: Default::default(),
        },
        LogEntry::PairingNumbersDrawn {
            section: "open".into(),
            seed: 1,
            order: vec![p(1), p(2), p(3), p(4)],
        },
        LogEntry::GroupsDrawn {
            section: "open".into(),
            groups: vec![vec![p(1), p(4)], vec![p(2), p(3)]],
            seed: Some(9),
        },
        LogEntry::RoundPaired {
            section: "open".into(),
            round: 1,
            stage: 1,
            boards: vec![
                Board {
                    board: 1,
                    red: p(1),
                    black: p(2),
                },
                Board {
                    board: 2,
                    red: p(3),
                    black: p(4),
                },
            ],
            byes: Vec::new(),
            seed: None,
            manual: Vec::new(),
        },
        LogEntry::RoundUndone {
            section: "open".into(),
            round: 1,
            reason: "漏排一人".into(),
        },
        LogEntry::RoundPaired {
            section: "open".into(),
            round: 1,
            stage: 1,
            boards: vec![Board {
                board: 1,
                red: p(1),
                black: p(2),
            }],
            byes: vec![p(4)],
            seed: None,
            manual: vec!["第1台红黑互换".into()],
        },
        LogEntry::RoundPublished {
            section: "open".into(),
            round: 1,
        },
        LogEntry::ColoursPlayed {
            section: "open".into(),
            round: 1,
            board: 1,
            swapped: false,
        },
        LogEntry::ResultClaimed {
            section: "open".into(),
            round: 1,
            board: 1,
            side: Colour::Black,
            result: GameResult::Draw,
        },
        LogEntry::ResultEntered {
            section: "open".into(),
            round: 1,
            board: 1,
            result: GameResult::Draw,
            ending: Some(Ending::AgreedDraw),
            moves: Some(42),
        },
        LogEntry::FoulFlagDecided {
            section: "open".into(),
            round: 1,
            board: 1,
            kind: FoulKind::ShortDraw,
            confirmed: false,
            reason: "回合数记错".into(),
        },
        LogEntry::GameRecorded {
            section: "open".into(),
            round: 1,
            board: 1,
            moves: vec!["h2e2".into(), "h9g7".into()],
            source: arbiter_core::RecordSource::Desk,
            recorded_by: Some("李四".into()),
        },
        LogEntry::GameRecordRemoved {
            section: "open".into(),
            round: 1,
            board: 1,
            reason: "录错台次".into(),
        },
        LogEntry::ProtestDecided {
            section: "open".into(),
            round: 1,
            board: 1,
            by: "天水一队 领队".into(),
            deposit_fen: 50000,
            upheld: false,
            deposit_returned: false,
            reason: "裁判判决无误".into(),
        },
        LogEntry::FoulRecorded {
            section: "open".into(),
            offender: Offender::Player(p(2)),
            round: Some(1),
            board: Some(1),
            kind: FoulKind::Phone,
            reason: "手机响铃".into(),
        },
        LogEntry::FoulRecorded {
            section: "open".into(),
            offender: Offender::Team("天水一队".into()),
            round: None,
            board: None,
            kind: FoulKind::Coaching,
            reason: String::new(),
        },
        LogEntry::ResultConfirmed {
            section: "open".into(),
            round: 1,
            board: 1,
            signed_by: vec!["张三".into(), "李四".into()],
        },
        LogEntry::ResultCorrected {
            section: "open".into(),
            round: 1,
            board: 1,
            result: GameResult::RedWin,
            reason: "成绩单误填".into(),
            by: "wq".into(),
        },
        LogEntry::RoundCompleted {
            section: "open".into(),
            round: 1,
        },
        LogEntry::PlayerWithdrawn {
            player: p(3),
            reason: "生病".into(),
            after_round: Some(1),
            by_forfeits: false,
        },
        LogEntry::PlayerReinstated {
            player: p(3),
            reason: "病愈".into(),
            by_correction: false,
        },
        LogEntry::PlayerDisqualified {
            player: p(3),
            reason: "作弊".into(),
            after_round: Some(1),
            void_results: false,
        },
        LogEntry::DisqualificationRevoked {
            player: p(3),
            reason: "复查".into(),
        },
        LogEntry::PlayerWithdrawn {
            player: p(3),
            reason: "生病".into(),
            after_round: Some(1),
            by_forfeits: false,
        },
        LogEntry::KnockoutSeeded {
            section: "open".into(),
            seeds: vec![
                arbiter_types::PlayerNo::from_index(1),
                arbiter_types::PlayerNo::from_index(0),
            ],
        },
        LogEntry::KnockoutResultClaimed {
            section: "open".into(),
            match_id: "SF1".into(),
            game: 1,
            side: Colour::Red,
            result: GameResult::BlackWin,
        },
        LogEntry::KnockoutGameRecorded {
            section: "open".into(),
            match_id: "SF1".into(),
            game: 1,
            kind: GameKind::Rapid,
            red: p(2),
            black: p(1),
            result: GameResult::BlackWin,
            fouls: Vec::new(),
        },
        LogEntry::SpecialAwardGiven {
            award: "最佳组织奖".into(),
            recipients: vec!["秦州区棋院".into()],
            reason: String::new(),
        },
        LogEntry::OfficialsAppointed {
            officials: vec![
                arbiter_core::Official {
                    role: "裁判长".into(),
                    name: "王建国".into(),
                },
                arbiter_core::Official {
                    role: "编排长".into(),
                    name: "李明".into(),
                },
            ],
            reason: String::new(),
        },
        LogEntry::EventClosed {
            standings: vec![ClosedSection {
                section: "open".into(),
                places: vec![(1, p(1)), (2, p(2))],
            }],
            teams: vec![ClosedTeams {
                section: "open".into(),
                division: None,
                places: vec![(1, "天水一队".into())],
            }],
            prizes: vec![ClosedPrize {
                section: "open".into(),
                category: None,
                rank: 1,
                player: Some(p(1)),
                team: None,
                amount: None,
            }],
        },
        LogEntry::EventReopened {
            reason: "成绩更正".into(),
            by: "wq".into(),
        },
        LogEntry::SectionsMerged {
            from: "girls".into(),
            into: "women".into(),
            reason: "报名不足, 对分组作适当调整".into(),
        },
    ]
}

fn recorded(entries: Vec<LogEntry>) -> Vec<Recorded> {
    entries
        .into_iter()
        .enumerate()
        .map(|(i, entry)| Recorded {
            seq: i as u64 + 1,
            at: format!("2026-09-20T09:{:02}:00+08:00", i % 60),
            actor: if i % 2 == 0 { "wq" } else { "lm" }.into(),
            entry,
        })
        .collect()
}

fn accounts() -> BTreeMap<String, Account> {
    [
        (
            "wq".to_string(),
            Account {
                role: Role::ChiefArbiter,
                name: "王强".into(),
            },
        ),
        (
            "lm".to_string(),
            Account {
                role: Role::Arbiter,
                name: "李明".into(),
            },
        ),
    ]
    .into()
}

#[test]
fn every_entry_variant_is_worded_with_names_and_no_ids_or_personal_data() {
    let entries = every_variant();
    let mut seen = [false; VARIANTS];
    for e in &entries {
        seen[variant_index(e)] = true;
    }
    assert!(
        seen.iter().all(|s| *s),
        "one entry of every variant: {seen:?}"
    );
    let records = recorded(entries);
    let accounts = accounts();
    for lang in [Language::Zh, Language::En] {
        let lines = log_lines(&records, lang, &accounts, |_| true);
        assert_eq!(lines.len(), records.len());
        for (line, r) in lines.iter().zip(&records) {
            let s = line.sentence();
            let kind = r.entry.kind();
            assert!(!line.what.trim().is_empty(), "{kind}: {s}");
            assert!(s.starts_with("09:"), "{kind}: the time first: {s}");
            for bad in [
                "`",
                "{",
                "\"",
                "P1",
                "P2",
                "social_security",
                ID,
                PHONE,
                "group_member",
                "SF1",
            ] {
                assert!(!s.contains(bad), "{kind} ({lang:?}) shows 「{bad}」: {s}");
            }
            // Section ids: none in Chinese (English words may hold "open", as "reopened").
            if lang == Language::Zh {
                for bad in ["open", "women", "girls"] {
                    assert!(!s.contains(bad), "{kind} shows 「{bad}」: {s}");
                }
            }
            if lang == Language::Zh {
                assert!(
                    s.contains("裁判长 王强") || s.contains("裁判 李明"),
                    "{kind}: who: {s}"
                );
            }
        }
    }
    let zh = log_lines(&records, Language::Zh, &accounts, |_| true);
    let find = |kind: &str| -> Vec<String> {
        zh.iter()
            .zip(&records)
            .filter(|(_, r)| r.entry.kind() == kind)
            .map(|(l, _)| l.sentence())
            .collect()
    };
    assert_eq!(
        find("player_registered")[0],
        "09:01 裁判 李明 登记 张三 (天水市, 公开组)"
    );
    let entered = &find("result_entered")[0];
    assert!(
        entered.contains("录入 公开组 第1轮 第1台: 张三 (红) 和 李四 (议和, 42 回合)"),
        "{entered}"
    );
    let corrected = &find("result_corrected")[0];
    assert!(
        corrected
            .contains("更正 公开组 第1轮 第1台 和棋 → 红胜 (张三 (红) 胜 李四), 理由: 成绩单误填"),
        "{corrected}"
    );
    let confirmed = &find("result_confirmed")[0];
    assert!(confirmed.contains("签字: 张三、李四"), "{confirmed}");
    // The name at that point of the log: 王五 was renamed 王武 by the correction.
    let roster = &find("team_roster_changed")[0];
    assert!(
        roster.contains("加入 王武") && roster.contains("退出 李四"),
        "{roster}"
    );
    let fixed = &find("player_corrected")[0];
    assert!(
        fixed.contains("更正 王五 的报名信息: 姓名 → 王武"),
        "{fixed}"
    );
    assert!(fixed.contains("110105**********2X"), "masked: {fixed}");
    assert!(fixed.contains("139****5678"), "masked: {fixed}");
    assert!(fixed.contains("社保证明"), "{fixed}");
    let paired = find("round_paired");
    assert!(paired[1].contains("轮空: 孙七"), "{}", paired[1]);
    let seeded = &find("knockout_seeded")[0];
    assert!(
        // The section was split into groups: the seeds are its final's field.
        seeded.contains("确定 公开组 决赛名单 (小组名次): 第1位 序号 2 "),
        "{seeded}"
    );
    let ko = &find("knockout_game_recorded")[0];
    assert!(
        ko.contains("淘汰赛 半决赛 1 第2局 (快棋): 李四 (红) 负 张三"),
        "{ko}"
    );
    let refused = &find("entry_refused")[0];
    assert!(
        refused.contains("不予登记 赵六 (甘谷县, 女子组)"),
        "{refused}"
    );
    assert!(find("fee_paid")[0].contains("¥200.50"));
    assert!(find("submission_decided")[0].contains("批准网上报名第1号 孙七"));
    assert!(find("submission_decided")[1].contains("理由: 重复报名"));
    assert!(find("event_closed")[0].contains("公开组 第1名 张三"));
    assert!(find("special_award_given")[0].contains("授予 秦州区棋院「最佳组织奖」"));
    assert!(find("officials_appointed")[0].contains("任命竞赛官员: 裁判长 王建国; 编排长 李明"));
    assert!(find("settings_changed")[0].contains("公开组 轮数 → 7"));
    assert!(find("groups_drawn")[0].contains("抽签分组: 公开组 A2 B2 (种子 9)"));
    let en = log_lines(&records, Language::En, &accounts, |_| true);
    assert_eq!(
        en[1].sentence(),
        "09:01 arbiter 李明 registered 张三 (天水市, 公开组)"
    );
}

#[test]
fn a_page_of_a_long_log_is_worded_in_one_pass() {
    // 10,000 entries: registrations, then rounds of boards and their results.
    let mut entries = every_variant()[..1].to_vec();
    for i in 1..=2000 {
        entries.push(registered(i, &format!("选手{i}"), "open", "天水市"));
    }
    for round in 1..=8 {
        entries.push(LogEntry::RoundPaired {
            section: "open".into(),
            round,
            stage: 1,
            boards: (0..1000)
                .map(|b| Board {
                    board: b + 1,
                    red: PlayerId(2 * b + 1),
                    black: PlayerId(2 * b + 2),
                })
                .collect(),
            byes: Vec::new(),
            seed: None,
            manual: Vec::new(),
        });
        for b in 1..=1000 {
            entries.push(LogEntry::ResultEntered {
                section: "open".into(),
                round,
                board: b,
                result: GameResult::RedWin,
                ending: None,
                moves: None,
            });
        }
    }
    let records = recorded(entries);
    assert!(records.len() > 10_000);
    let started = std::time::Instant::now();
    let last = records.len() as u64;
    let page = log_lines(&records, Language::Zh, &accounts(), |r| r.seq + 200 > last);
    let took = started.elapsed();
    assert_eq!(page.len(), 200);
    assert!(
        page[199].what.contains("选手1999 (红) 胜 选手2000"),
        "{}",
        page[199].what
    );
    assert!(
        took.as_secs() < 2,
        "a page of a 10,000-entry log took {took:?}"
    );
}

#[test]
fn knockout_matches_are_named() {
    assert_eq!(match_label("F", Language::Zh), "决赛");
    assert_eq!(match_label("P3", Language::Zh), "三四名");
    assert_eq!(match_label("QF2", Language::Zh), "四分之一决赛 2");
    assert_eq!(match_label("P5-SF1", Language::Zh), "五至八名半决赛 1");
    assert_eq!(match_label("R16-3", Language::Zh), "八分之一决赛 3");
    assert_eq!(match_label("SF1", Language::En), "semi-final 1");
    // Brackets past 32 (a plain knockout of up to 1,024).
    assert_eq!(match_label("R128-40", Language::Zh), "六十四分之一决赛 40");
    assert_eq!(
        match_label("P65-R64-3", Language::Zh),
        "六十五至一百二十八名三十二分之一决赛 3"
    );
    assert_eq!(match_label("P127", Language::Zh), "一百二十七一百二十八名");
    assert_eq!(
        match_label("R1024-512", Language::Zh),
        "五百一十二分之一决赛 512"
    );
    assert_eq!(match_label("R128-40", Language::En), "round of 128 40");
}

#[test]
fn an_unknown_actor_is_shown_as_recorded_and_the_online_form_by_name() {
    let accounts = BTreeMap::new();
    let r = LogReader::new(Language::Zh, &accounts);
    assert_eq!(r.who("arbiter"), "arbiter");
    assert_eq!(r.who(ONLINE), "网上报名");
}

/// S6, T6, S11, S7: the new entries read as the arbiter would say them.
#[test]
fn colours_played_flags_protests_and_absences_without_leave_are_worded() {
    let entries = every_variant();
    let records = recorded(entries);
    let lines = log_lines(&records, Language::Zh, &accounts(), |_| true);
    let all: Vec<String> = lines.iter().map(|l| l.sentence()).collect();
    let has = |w: &str| all.iter().any(|s| s.contains(w));
    assert!(has("红黑颠倒"), "{all:?}");
    assert!(
        has("撤销 第1轮 第1台 的犯规提示") || has("的犯规提示 (未满回合提和)"),
        "{all:?}"
    );
    assert!(
        has("申诉不成立") && has("申诉费 500元") && has("申诉费不退还"),
        "{all:?}"
    );
    let absent = recorded(vec![
        every_variant().remove(0),
        registered(1, "张三", "open", "天水市"),
        LogEntry::PlayerAbsent {
            player: PlayerId(1),
            round: 2,
            reason: None,
            without_leave: true,
        },
    ]);
    let lines = log_lines(&absent, Language::Zh, &accounts(), |_| true);
    assert!(
        lines[2].sentence().contains("张三 第2轮无故缺席"),
        "{}",
        lines[2].sentence()
    );
}
