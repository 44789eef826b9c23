//! Custom deserialisers: TOML dates, scoring tables by preset or table, tie-break lists.

use crate::model::{Scoring, Tiebreaks};
use crate::presets;
use arbiter_types::{closest, ScoringPreset, ScoringTable, TiebreakItem};
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use toml::value::Datetime;

fn to_date<E: de::Error>(d: &Datetime) -> Result<NaiveDate, E> {
    let Some(date) = d.date else {
        return Err(E::custom(format!("`{d}` 不是日期 (not a date)")));
    };
    NaiveDate::from_ymd_opt(
        i32::from(date.year),
        u32::from(date.month),
        u32::from(date.day),
    )
    .ok_or_else(|| E::custom(format!("`{d}` 不是有效日期 (not a valid date)")))
}

fn to_datetime<E: de::Error>(d: &Datetime) -> Result<NaiveDateTime, E> {
    let date = to_date(d)?;
    let Some(t) = d.time else {
        return Err(E::custom(format!(
            "`{d}` 缺少时间，应写作 2025-09-26T17:00:00 (a date and time is needed)"
        )));
    };
    if d.offset.is_some() {
        return Err(E::custom(format!(
            "`{d}` 请使用本地时间，不带时区 (use a local time without offset)"
        )));
    }
    let time = NaiveTime::from_hms_opt(u32::from(t.hour), u32::from(t.minute), u32::from(t.second))
        .ok_or_else(|| E::custom(format!("`{d}` 不是有效时间 (not a valid time)")))?;
    Ok(date.and_time(time))
}

pub fn date<'de, D: Deserializer<'de>>(d: D) -> Result<NaiveDate, D::Error> {
    let v = Datetime::deserialize(d)?;
    if v.time.is_some() {
        return Err(de::Error::custom(format!(
            "`{v}` 应为日期，不含时间 (a date without time)"
        )));
    }
    to_date(&v)
}

/// A time of day: a TOML local time (`13:00:00`) or a string `"13:00"` / `"13:00:00"`.
pub fn time_of_day<'de, D: Deserializer<'de>>(d: D) -> Result<NaiveTime, D::Error> {
    struct V;
    fn bad<E: de::Error>(v: &str) -> E {
        E::custom(format!(
            "「{v}」不是一天中的时刻，应写作 \"13:00\" 或 13:00:00 (a time of day such as \"13:00\")"
        ))
    }
    impl<'de> Visitor<'de> for V {
        type Value = NaiveTime;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a time of day")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<NaiveTime, E> {
            NaiveTime::parse_from_str(v.trim(), "%H:%M")
                .or_else(|_| NaiveTime::parse_from_str(v.trim(), "%H:%M:%S"))
                .map_err(|_| bad(v))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<NaiveTime, A::Error> {
            let d = Datetime::deserialize(de::value::MapAccessDeserializer::new(map))?;
            match (d.date, d.time, d.offset) {
                (None, Some(t), None) => NaiveTime::from_hms_opt(
                    u32::from(t.hour),
                    u32::from(t.minute),
                    u32::from(t.second),
                )
                .ok_or_else(|| bad(&d.to_string())),
                _ => Err(bad(&d.to_string())),
            }
        }
    }
    d.deserialize_any(V)
}

pub fn opt_time_of_day<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveTime>, D::Error> {
    time_of_day(d).map(Some)
}

pub fn opt_date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDate>, D::Error> {
    date(d).map(Some)
}

pub fn opt_datetime<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDateTime>, D::Error> {
    let v = Datetime::deserialize(d)?;
    to_datetime(&v).map(Some)
}

pub fn datetimes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<NaiveDateTime>, D::Error> {
    let v = Vec::<Datetime>::deserialize(d)?;
    v.iter().map(to_datetime).collect()
}

impl<'de> Deserialize<'de> for Scoring {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scoring, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scoring;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a scoring preset name or a scoring table")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scoring, E> {
                match ScoringPreset::from_name(v) {
                    Some(p) => Ok(Scoring {
                        preset: Some(p),
                        table: p.table(),
                        defaulted: false,
                    }),
                    None => {
                        let names = ScoringPreset::ALL.iter().map(|p| p.name());
                        let hint = closest(v, names)
                            .map(|s| format!("，是否应为 `{s}`？"))
                            .unwrap_or_default();
                        let hint_en = closest(v, ScoringPreset::ALL.iter().map(|p| p.name()))
                            .map(|s| format!(", did you mean `{s}`?"))
                            .unwrap_or_default();
                        Err(E::custom(format!(
                            "未知的计分方案 `{v}`{hint} (unknown scoring preset{hint_en})"
                        )))
                    }
                }
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scoring, A::Error> {
                let table = ScoringTable::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Scoring {
                    preset: None,
                    table,
                    defaulted: false,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// One item of a tie-break list, parsed with did-you-mean.
struct Item(TiebreakItem);

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        let s = String::deserialize(d)?;
        s.parse::<TiebreakItem>().map(Item).map_err(|e| {
            let hint = e
                .suggestion
                .map(|s| format!("，是否应为 `{s}`？"))
                .unwrap_or_default();
            de::Error::custom(format!("未知的名次区分方法 `{}`{hint} ({e})", e.given))
        })
    }
}

impl<'de> Deserialize<'de> for Tiebreaks {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tiebreaks, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tiebreaks;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tie-break preset name or a list of tie-breaks")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Tiebreaks, E> {
                presets::tiebreaks(v).ok_or_else(|| {
                    let c = closest(v, presets::TIEBREAK_PRESETS.iter().copied());
                    let hint = c.map(|s| format!("，是否应为 `{s}`？")).unwrap_or_default();
                    let hint_en = c
                        .map(|s| format!(", did you mean `{s}`?"))
                        .unwrap_or_default();
                    E::custom(format!(
                        "未知的名次区分方案 `{v}`{hint} (unknown tie-break preset{hint_en})"
                    ))
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tiebreaks, A::Error> {
                let mut t = Tiebreaks {
                    preset: None,
                    criteria: Vec::new(),
                    fallback: None,
                    defaulted: false,
                };
                while let Some(Item(item)) = seq.next_element()? {
                    if let Some(f) = t.fallback {
                        let name = match item {
                            TiebreakItem::Criterion(c) => c.name(),
                            TiebreakItem::Fallback(g) => g.name(),
                        };
                        return Err(de::Error::custom(format!(
                            "`{name}` 不能排在最后手段 `{f}` 之后：最后手段只能有一个且必须在最后 \
                             (`{name}` after the fallback `{f}`: only one fallback, and it must be last)"
                        )));
                    }
                    match item {
                        TiebreakItem::Criterion(c) => {
                            if t.criteria.contains(&c) {
                                return Err(de::Error::custom(format!(
                                    "名次区分方法 `{c}` 重复 (tie-break `{c}` listed twice)"
                                )));
                            }
                            t.criteria.push(c)
                        }
                        TiebreakItem::Fallback(f) => t.fallback = Some(f),
                    }
                }
                Ok(t)
            }
        }
        d.deserialize_any(V)
    }
}

/// A team-match ranking list (A15): names in English or Chinese, each once, with did-you-mean.
pub(crate) fn team_tiebreaks<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<arbiter_types::TeamTiebreak>, D::Error> {
    use arbiter_types::TeamTiebreak;
    let names = Vec::<String>::deserialize(d)?;
    let mut out = Vec::new();
    for n in names {
        let t = TeamTiebreak::from_name(&n).ok_or_else(|| {
            let c = closest(&n, TeamTiebreak::ALL.iter().map(|t| t.name()));
            let hint = c.map(|s| format!("，是否应为 `{s}`？")).unwrap_or_default();
            let all: Vec<String> = TeamTiebreak::ALL
                .iter()
                .map(|t| format!("{} ({})", t.name(), t.zh()))
                .collect();
            de::Error::custom(format!(
                "未知的团体名次区分方法 `{n}`{hint} (unknown team tie-break; one of: {})",
                all.join(", ")
            ))
        })?;
        if out.contains(&t) {
            return Err(de::Error::custom(format!(
                "团体名次区分方法 `{n}` 重复 (team tie-break `{}` listed twice)",
                t.name()
            )));
        }
        out.push(t);
    }
    if out.is_empty() {
        return Err(de::Error::custom(
            "团体名次区分方法不能为空 (the team ranking list is empty)",
        ));
    }
    Ok(out)
}

/// A section's qualifications (S8): one table (`[sections.qualification]`, as before) or an
/// array of tables (`[[sections.qualification]]`), read as a list either way.
pub(crate) fn qualifications<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<crate::model::Qualification>, D::Error> {
    use crate::model::Qualification;
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<Qualification>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("晋级资格表或其数组 (a qualification table or an array of them)")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            Qualification::deserialize(de::value::MapAccessDeserializer::new(map)).map(|q| vec![q])
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(q) = seq.next_element::<Qualification>()? {
                out.push(q);
            }
            Ok(out)
        }
    }
    d.deserialize_any(V)
}
