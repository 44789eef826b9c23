//! A person's particulars are one `Person` value flattened into `player_registered` and
//! `entry_submitted`: lines written before it read unchanged and are written back byte for
//! byte, keys in the same places, absent particulars still absent.

use arbiter_core::{LogEntry, Person, PlayerId, Recorded};
use arbiter_types::{IdNumber, Sex, SocialSecurityNo};
use chrono::NaiveDate;

/// Lines as a build without `Person` stored them (the first three from simulated Kunshan,
/// Suzhou and Shenzhen events), then every optional key present, then every one absent.
const OLD_LINES: &[&str] = &[
    r#"{"type":"player_registered","player":1,"section":"men","name":"欧阳东","sex":"M","birth_date":"1961-07-28","id_number":"320583196107281819","phone":"17751815481","social_security":"320583196107281819","unit":"昆山国泰精密机械有限公司","team":"国泰精密机械队","evidence":["social_security"],"local":false}"#,
    r#"{"type":"player_registered","player":1,"section":"entrepreneur","name":"高莹","sex":"F","birth_date":"1959-06-28","id_number":"320506195906284525","phone":"13687410072","association":"吴中区象棋协会","evidence":["pledge","residence","business_licence"],"local":false}"#,
    r#"{"type":"player_registered","player":1,"section":"boys14","name":"高海","sex":"M","birth_date":"1999-11-07","id_number":"310115199911075278","phone":"13337639577","evidence":["id_card"],"local":false}"#,
    r#"{"type":"player_registered","player":9,"section":"open","name":"钟帆","sex":"F","birth_date":"1986-03-14","id_number":"620503198603141530","phone":"15225798514","social_security":"6205031986","unit":"麦积区象棋队","association":"麦积区象棋协会","team":"麦积一队","evidence":["id_card","pledge"],"local":true,"rating":1850,"grade":"业余5段","flags":["local","group_member"],"late_reason":"补报","submission":3}"#,
    r#"{"type":"player_registered","player":2,"section":"open","name":"甲","local":false}"#,
    r#"{"type":"entry_submitted","submission":1,"section":"men","name":"孟倩","sex":"F","birth_date":"1999-03-26","id_number":"620502199903269905","phone":"19934034778","social_security":"620502199903269905","unit":"秦州区棋院","flags":["local"],"evidence":["residence"],"status_key":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}"#,
    r#"{"type":"entry_submitted","submission":2,"section":"men","name":"乙"}"#,
];

#[test]
fn old_lines_read_unchanged_and_are_written_back_byte_for_byte() {
    for line in OLD_LINES {
        let from_text: LogEntry = serde_json::from_str(line).expect(line);
        assert_eq!(serde_json::to_string(&from_text).expect(line), *line);
        // The store's way: through a JSON value and the envelope.
        let stored = format!(
            r#"{{"v":1,"seq":5,"at":"2026-09-20T08:30:00+08:00","actor":"desk","entry":{line}}}"#
        );
        let rec = Recorded::from_json(&stored).expect(line);
        assert_eq!(rec.entry, from_text);
        assert_eq!(serde_json::to_string(&rec.entry).expect(line), *line);
    }
}

#[test]
fn the_particulars_land_in_the_person_and_absent_ones_stay_none() {
    let LogEntry::PlayerRegistered(full) = serde_json::from_str(OLD_LINES[3]).expect("reads")
    else {
        panic!("a registration");
    };
    let birth = NaiveDate::from_ymd_opt(1986, 3, 14);
    assert_eq!(
        full.person,
        Person {
            name: "钟帆".into(),
            sex: Some(Sex::Female),
            birth_date: birth,
            id_number: IdNumber::parse("620503198603141530").ok(),
            phone: "15225798514".parse().ok(),
            social_security: SocialSecurityNo::parse("6205031986").ok(),
            unit: Some("麦积区象棋队".into()),
            association: Some("麦积区象棋协会".into()),
        }
    );
    assert_eq!(full.player, PlayerId(9));
    assert_eq!(full.team.as_deref(), Some("麦积一队"));
    assert_eq!(full.rating, Some(1850));
    assert_eq!(full.submission, Some(3));

    let LogEntry::PlayerRegistered(bare) = serde_json::from_str(OLD_LINES[4]).expect("reads")
    else {
        panic!("a registration");
    };
    assert_eq!(bare.person, Person::named("甲"));
    match serde_json::from_str(OLD_LINES[6]).expect("reads") {
        LogEntry::EntrySubmitted { person, .. } => assert_eq!(person, Person::named("乙")),
        other => panic!("a submission, not {}", other.kind()),
    }
}

#[test]
fn a_line_without_a_name_or_with_a_bad_id_number_is_still_refused() {
    let no_name = r#"{"type":"player_registered","player":2,"section":"open","local":false}"#;
    assert!(serde_json::from_str::<LogEntry>(no_name).is_err());
    let bad_id = r#"{"type":"player_registered","player":2,"section":"open","name":"甲","id_number":"123","local":false}"#;
    assert!(serde_json::from_str::<LogEntry>(bad_id).is_err());
}
