//! Time conversions (pure: the current time is always passed in by the shell).
//!
//! Regulations give local times without an offset (`deadline = 2024-07-23T18:00:00`); they
//! are read as China Standard Time (UTC+8), the time of every event this program runs.

use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone};

/// UTC+8.
pub fn china() -> FixedOffset {
    // Evaluated at compile time: 8 h is always a valid offset.
    const CHINA: FixedOffset = match FixedOffset::east_opt(8 * 3600) {
        Some(o) => o,
        None => panic!("UTC+8 is a valid offset"),
    };
    CHINA
}

/// RFC 3339 text (in UTC+8) of a Unix time in seconds.
pub fn rfc3339_from_unix(secs: i64) -> String {
    DateTime::from_timestamp(secs, 0)
        .unwrap_or_default()
        .with_timezone(&china())
        .to_rfc3339()
}

/// The wall-clock time in China of an RFC 3339 time (`None` if it does not parse).
pub fn china_local(at: &str) -> Option<NaiveDateTime> {
    DateTime::parse_from_rfc3339(at)
        .ok()
        .map(|t| t.with_timezone(&china()).naive_local())
}

/// RFC 3339 text of a regulation's local time, read as UTC+8.
pub fn rfc3339_from_china_local(t: NaiveDateTime) -> String {
    china()
        .from_local_datetime(&t)
        .single()
        .map(|d| d.to_rfc3339())
        .unwrap_or_else(|| t.and_utc().to_rfc3339())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_use_china_time() {
        assert_eq!(rfc3339_from_unix(0), "1970-01-01T08:00:00+08:00");
        let t = china_local("2024-07-23T10:00:00Z").unwrap();
        assert_eq!(t.to_string(), "2024-07-23 18:00:00");
        assert_eq!(rfc3339_from_china_local(t), "2024-07-23T18:00:00+08:00");
        assert_eq!(china_local("yesterday"), None);
    }
}
