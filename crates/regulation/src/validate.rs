//! Validation beyond types, each error located at the offending key or value.

use crate::error::RegulationError;
use crate::locate::{Locator, Seg};
use crate::model::*;
use std::collections::{BTreeMap, BTreeSet};

macro_rules! p {
    ($($s:expr),* $(,)?) => { vec![$(Seg::from($s)),*] };
}

mod section;
use section::section;

struct Ctx<'a> {
    source: &'a str,
    file: &'a str,
    /// Parsed only when an error has to be located.
    loc: std::cell::OnceCell<Locator>,
}

type R = Result<(), RegulationError>;

impl Ctx<'_> {
    fn err(&self, path: Vec<Seg>, message: String) -> RegulationError {
        let loc = self.loc.get_or_init(|| Locator::new(self.source));
        RegulationError::at(self.source, self.file, loc.span(&path), message)
    }
    fn fail(&self, path: Vec<Seg>, message: String) -> R {
        Err(self.err(path, message))
    }
}

fn is_ascii_id(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
        && s.as_bytes()[0].is_ascii_lowercase()
}

/// The most entries an event may take (`[registration] cap`, across its sections).
pub const MAX_ENTRIES: u32 = 100_000;

/// The most players one section may hold: its `entries.cap`, else the event's cap, may not
/// exceed this, and without a cap the 20,001st entry of a section is refused. Measured: a
/// whole simulated Tianshui open of 20,010 players (11 rounds, knockout, prizes) takes 78 s
/// of CPU, so any event of a supported size runs within two minutes (BENCHMARKS.md); the
/// pairing solver grows faster than the field beyond that.
pub const MAX_SECTION_ENTRIES: u32 = 20_000;

/// The lowest place a prize or lucky prize may name (the prize tables stop here).
pub const MAX_PLACE: u32 = 10_000;

/// Validate `reg` and fill inherited values (section entries from `[registration]`, `age_on`).
pub fn validate(reg: &mut Regulation, source: &str, file: &str) -> R {
    let cx = Ctx {
        source,
        file,
        loc: std::cell::OnceCell::new(),
    };
    if reg.event.end < reg.event.start {
        return cx.fail(
            p!["event", "end"],
            format!(
                "结束日期 {} 早于开始日期 {} (event ends before it starts)",
                reg.event.end, reg.event.start
            ),
        );
    }
    if reg.sections.is_empty() {
        return cx.fail(
            p!["sections"],
            "至少需要一个组别 (at least one section is required)".into(),
        );
    }
    if let Some(c) = reg.registration.cap {
        check_cap(&cx, c, p!["registration", "cap"])?;
    }
    if let Some(d) = reg.registration.deadline {
        if d.date() > reg.event.end {
            return cx.fail(
                p!["registration", "deadline"],
                format!(
                    "报名截止 {d} 晚于比赛结束日期 {} (the entry deadline is after the event)",
                    reg.event.end
                ),
            );
        }
    }
    if reg
        .registration
        .check_in_pledge
        .as_deref()
        .is_some_and(|p| p.trim().is_empty())
    {
        return cx.fail(
            p!["registration", "check_in_pledge"],
            "报到时签署的文件名称为空, 如 \"个人安全承诺书\" (the pledge signed at check-in needs its name)"
                .into(),
        );
    }
    let mut ids = BTreeSet::new();
    for (i, s) in reg.sections.iter().enumerate() {
        if !is_ascii_id(&s.id) {
            return cx.fail(
                p!["sections", i, "id"],
                format!(
                    "组别编号 `{}` 须为小写英文字母开头的 ASCII (section id must be lowercase ASCII letters, digits, `_`)",
                    s.id
                ),
            );
        }
        if !ids.insert(s.id.clone()) {
            return cx.fail(
                p!["sections", i, "id"],
                format!("组别编号 `{}` 重复 (duplicate section id `{}`)", s.id, s.id),
            );
        }
        if s.name.trim().is_empty() {
            return cx.fail(
                p!["sections", i, "name"],
                "组别名称为空 (section name is empty)".into(),
            );
        }
    }
    if reg.registration.check_in_time.is_some() && reg.registration.check_in.is_none() {
        return cx.fail(
            p!["registration", "check_in_time"],
            "给出了报到时间，但没有报到日期 check_in (a check-in time needs the check-in day)"
                .into(),
        );
    }
    grades(&cx, reg)?;
    play_up(&cx, reg)?;
    let (start, end) = (reg.event.start, reg.event.end);
    for (i, s) in reg.sections.iter_mut().enumerate() {
        schedule_days(&cx, i, s, start, end)?;
        category_ages(&cx, i, s, start)?;
    }
    for i in 0..reg.sections.len() {
        section(&cx, reg, i)?;
    }
    if let Some(a) = &reg.associations {
        for (j, id) in a.sections.iter().enumerate() {
            if reg.section(id).is_none() {
                let known = reg.sections.iter().map(|s| s.id.as_str());
                return cx.fail(
                    p!["associations", "sections", j],
                    unknown_ref("组别", "section", id, known),
                );
            }
        }
        for (sid, cat) in &a.rank_in_category {
            let Some(sec) = reg.section(sid).filter(|_| a.sections.contains(sid)) else {
                let known = a.sections.iter().map(String::as_str);
                return cx.fail(
                    p!["associations", "rank_in_category", sid.as_str()],
                    unknown_ref("计分组别", "counted section", sid, known),
                );
            };
            if sec.category(cat).is_none() {
                let known = sec.categories.iter().map(|c| c.id.as_str());
                return cx.fail(
                    p!["associations", "rank_in_category", sid.as_str()],
                    unknown_ref("录取类别", "category", cat, known),
                );
            }
        }
        let base = p!["associations", "prizes"];
        prizes(&cx, &a.prizes, &base, &[], &[], None)?;
    }
    charges(&cx, reg)?;
    // Inherit registration values.
    let r = reg.registration.clone();
    let start = reg.event.start;
    for s in &mut reg.sections {
        // A silent round robin is ranked by the 2011 rule's round-robin list (14.1).
        let round_robins = match s.format.kind {
            FormatKind::RoundRobin | FormatKind::DoubleRoundRobin => true,
            FormatKind::Groups => s.format.group_format != crate::model::GroupFormat::Swiss,
            _ => false,
        };
        if s.tiebreaks.defaulted && round_robins {
            s.tiebreaks = Tiebreaks::rule_2011_named("cxa-2011-rr");
        }
        let e = &mut s.entries;
        e.deadline = e.deadline.or(r.deadline);
        e.fee = e.fee.or(r.fee);
        e.max_per_unit_overall = e.max_per_unit_overall.or(r.max_per_unit_overall);
        e.event_cap = e.event_cap.or(r.cap);
        e.min = e.min.or(r.min_per_section);
        e.unit_required = Some(e.unit_required.unwrap_or(r.unit_required));
        e.unpaid_not_paired = Some(e.unpaid_not_paired.unwrap_or(r.unpaid_not_paired));
        let el = &mut s.eligibility;
        if (el.min_age.is_some() || el.max_age.is_some()) && el.age_on.is_none() {
            el.age_on = Some(s.date.unwrap_or(start));
        }
        el.age_date = Some(el.age_on.or(s.date).unwrap_or(start));
    }
    Ok(())
}

/// `[grades]`: every step named, each name and alias once on the scale; a section's
/// `min_grade` and `below_grade` read on it (filled into `grade_bounds`), at least one grade
/// left between them, and numbering by grade only with a scale.
fn grades(cx: &Ctx, reg: &mut Regulation) -> R {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (j, step) in reg.grades.scale.iter().enumerate() {
        if step.name.trim().is_empty() {
            return cx.fail(
                p!["grades", "scale", j],
                "段位/称号名称为空 (a grade of the scale has no name)".into(),
            );
        }
        for w in std::iter::once(&step.name).chain(&step.aliases) {
            let key = crate::grades::fold(w);
            if key.is_empty() {
                return cx.fail(
                    p!["grades", "scale", j],
                    "段位/称号的别名为空 (an alias of the scale is empty)".into(),
                );
            }
            if let Some(k) = seen.insert(key, j) {
                return cx.fail(
                    p!["grades", "scale", j],
                    format!(
                        "「{w}」 在段位表中出现两次 (第 {} 与第 {} 级) (the grade is on the scale twice)",
                        k + 1,
                        j + 1
                    ),
                );
            }
        }
    }
    let scale = reg.grades.clone();
    for (i, s) in reg.sections.iter_mut().enumerate() {
        let el = &mut s.eligibility;
        let read = |key: &'static str,
                    v: &Option<String>|
         -> Result<Option<crate::Grade>, RegulationError> {
            let Some(v) = v else { return Ok(None) };
            if scale.is_empty() {
                return Err(cx.err(
                    p!["sections", i, "eligibility", key],
                    format!(
                        "`{key}` 需要段位表: 请在 [grades] scale 中由低到高列出段位和称号 (a grade rule needs the regulation's [grades] scale)"
                    ),
                ));
            }
            match scale.find(v) {
                Some(g) => Ok(Some(g)),
                None => Err(cx.err(
                    p!["sections", i, "eligibility", key],
                    format!(
                        "段位表中没有 「{v}」; 段位表: {} (the grade is not on the [grades] scale)",
                        scale.names()
                    ),
                )),
            }
        };
        let min = read("min_grade", &el.min_grade)?;
        let below = read("below_grade", &el.below_grade)?;
        if let (Some(m), Some(b)) = (&min, &below) {
            if m.rank >= b.rank {
                return cx.fail(
                    p!["sections", i, "eligibility", "below_grade"],
                    format!(
                        "无人可报名: 须 {} 及以上, 又须低于 {} (min_grade is not below below_grade: nobody can enter)",
                        m.name, b.name
                    ),
                );
            }
        }
        el.grade_bounds = (min, below);
        if let Some(k) = s.format.knockout.as_mut() {
            if let Some(g) = &k.seed_min_grade {
                if scale.is_empty() {
                    return cx.fail(
                        p!["sections", i, "format", "knockout", "seed_min_grade"],
                        "`seed_min_grade` 需要段位表: 请在 [grades] scale 中由低到高列出段位和称号 (a grade rule needs the regulation's [grades] scale)".into(),
                    );
                }
                match scale.find(g) {
                    Some(found) => k.seed_grade = Some(found),
                    None => {
                        return cx.fail(
                            p!["sections", i, "format", "knockout", "seed_min_grade"],
                            format!(
                                "段位表中没有 「{g}」; 段位表: {} (the grade is not on the [grades] scale)",
                                scale.names()
                            ),
                        )
                    }
                }
            }
        }
        grade_awards(cx, i, s, &scale)?;
        if s.pairing.numbering == arbiter_types::Numbering::Grade && scale.is_empty() {
            return cx.fail(
                p!["sections", i, "pairing", "numbering"],
                "按段位排定序号需要段位表: 请在 [grades] scale 中由低到高列出段位和称号 (numbering by grade needs the [grades] scale)".into(),
            );
        }
    }
    Ok(())
}

/// A section's `grade_awards` (等级称号): each a grade of the scale (read into `step`) for a
/// range of places; the ranges apart, a better place never given a lower grade, and only in a
/// section with places of players (not a team match).
fn grade_awards(
    cx: &Ctx,
    i: usize,
    s: &mut crate::model::Section,
    scale: &crate::grades::Grades,
) -> R {
    if s.grade_awards.is_empty() {
        return Ok(());
    }
    if s.team_match.is_some() {
        return cx.fail(
            p!["sections", i, "grade_awards"],
            "团体赛的名次是队的名次, 不能据此授予个人等级称号 (a team match has no individual places to award grades by)".into(),
        );
    }
    let mut seen: Vec<(u32, u32, usize)> = Vec::new();
    for (j, a) in s.grade_awards.iter_mut().enumerate() {
        let at = |key: &'static str| p!["sections", i, "grade_awards", j, key];
        if scale.is_empty() {
            return cx.fail(
                at("grade"),
                "等级称号需要段位表: 请在 [grades] scale 中由低到高列出段位和称号 (grade awards need the regulation's [grades] scale)".into(),
            );
        }
        let Some(step) = scale.find(&a.grade) else {
            return cx.fail(
                at("grade"),
                format!(
                    "段位表中没有 「{}」; 段位表: {} (the grade is not on the [grades] scale)",
                    a.grade,
                    scale.names()
                ),
            );
        };
        if a.rank.is_some() && (a.from.is_some() || a.to.is_some()) {
            return cx.fail(
                at("rank"),
                "名次写 rank 或 from/to 之一, 不能同时写 (give rank or from/to, not both)".into(),
            );
        }
        if a.rank.is_none() && a.from.is_none() && a.to.is_none() {
            return cx.fail(
                at("grade"),
                format!(
                    "授予「{}」的名次未写: 请写 rank 或 from/to (no places given)",
                    step.name
                ),
            );
        }
        let (from, to) = a.places();
        if from == 0 || to < from || to > MAX_PLACE {
            return cx.fail(
                at(if a.rank.is_some() { "rank" } else { "to" }),
                format!(
                    "名次 {from}–{to} 无效: 须从第1名起, 且 from 不大于 to, 至多第 {} 名 (invalid places)",
                    MAX_PLACE
                ),
            );
        }
        for &(f, t, k) in &seen {
            if from <= t && f <= to {
                return cx.fail(
                    at(if a.rank.is_some() { "rank" } else { "from" }),
                    format!(
                        "第{from}–{to}名与第 {} 条等级称号的第{f}–{t}名重叠: 一个名次只授予一个称号 (the places overlap another grade award's)",
                        k + 1
                    ),
                );
            }
        }
        seen.push((from, to, j));
        a.step = Some(step);
    }
    // A better place never earns a lower grade than a worse one.
    let mut by_place: Vec<&crate::model::GradeAward> = s.grade_awards.iter().collect();
    by_place.sort_by_key(|a| a.places().0);
    for w in by_place.windows(2) {
        let (better, worse) = (w[0], w[1]);
        if let (Some(b), Some(x)) = (&better.step, &worse.step) {
            if b.rank < x.rank {
                let j = s
                    .grade_awards
                    .iter()
                    .position(|a| std::ptr::eq(a, better))
                    .unwrap_or(0);
                let (bf, bt) = better.places();
                let (wf, wt) = worse.places();
                return cx.fail(
                    p!["sections", i, "grade_awards", j, "grade"],
                    format!(
                        "第{bf}–{bt}名授予 {} 低于第{wf}–{wt}名的 {}: 名次靠前者的称号不能更低 (a better place cannot earn a lower grade)",
                        b.name, x.name
                    ),
                );
            }
        }
    }
    Ok(())
}

/// `[registration.play_up]`: conditions only when playing up is allowed, a `min_grade` on the
/// `[grades]` scale (read into `grade`).
fn play_up(cx: &Ctx, reg: &mut Regulation) -> R {
    let scale = reg.grades.clone();
    let Some(p) = reg.registration.play_up.as_mut() else {
        return Ok(());
    };
    if !p.allowed && (!p.evidence.is_empty() || !p.flags.is_empty() || p.min_grade.is_some()) {
        return cx.fail(
            p!["registration", "play_up", "allowed"],
            "不得越级 (allowed = false) 时不能再写越级条件 evidence / flags / min_grade (conditions for playing up that is not allowed)".into(),
        );
    }
    if let Some(g) = &p.min_grade {
        if scale.is_empty() {
            return cx.fail(
                p!["registration", "play_up", "min_grade"],
                "`min_grade` 需要段位表: 请在 [grades] scale 中由低到高列出段位和称号 (a grade rule needs the regulation's [grades] scale)".into(),
            );
        }
        match scale.find(g) {
            Some(found) => p.grade = Some(found),
            None => {
                return cx.fail(
                    p!["registration", "play_up", "min_grade"],
                    format!(
                        "段位表中没有 「{g}」; 段位表: {} (the grade is not on the [grades] scale)",
                        scale.names()
                    ),
                )
            }
        }
    }
    Ok(())
}

/// A schedule by days (`schedule_days`) into the rounds' start times (`schedule`): each day
/// inside the event's dates, after the day before, its rounds within the day; never both forms.
fn schedule_days(
    cx: &Ctx,
    i: usize,
    s: &mut Section,
    start: chrono::NaiveDate,
    end: chrono::NaiveDate,
) -> R {
    if s.schedule_days.is_empty() {
        return Ok(());
    }
    let at = |j: usize, key: &'static str| {
        let mut v = p!["sections", i, "schedule_days", j];
        if !key.is_empty() {
            v.push(Seg::from(key));
        }
        v
    };
    if !s.schedule.is_empty() {
        return cx.fail(
            at(0, ""),
            "赛程已逐轮给出 (schedule)，不能再按天给出 (schedule_days)：二者只用其一 \
             (give the schedule by rounds or by days, not both)"
                .into(),
        );
    }
    let mut times: Vec<chrono::NaiveDateTime> = Vec::new();
    for (j, d) in s.schedule_days.iter().enumerate() {
        if d.date < start || d.date > end {
            return cx.fail(
                at(j, "date"),
                format!(
                    "比赛日 {} 不在赛期 {start} 至 {end} 之内 (the day is outside the event's dates)",
                    d.date
                ),
            );
        }
        if d.rounds == 0 {
            return cx.fail(
                at(j, "rounds"),
                "每天至少一轮 (a day of the schedule plays at least one round)".into(),
            );
        }
        let step = match d.interval_minutes {
            Some(m) if m > 0 => i64::from(m),
            _ if d.rounds == 1 => 0,
            _ => {
                return cx.fail(
                    at(j, ""),
                    format!(
                        "一天 {} 轮须给出每轮间隔 interval_minutes (several rounds a day need the minutes between rounds)",
                        d.rounds
                    ),
                )
            }
        };
        let first = d.date.and_time(d.start);
        if let Some(prev) = times.last() {
            if first <= *prev {
                return cx.fail(
                    at(j, "date"),
                    format!(
                        "本日第一轮 {} 不晚于前一天的最后一轮 {prev} (a day's rounds must come after the day before)",
                        first.format("%Y-%m-%d %H:%M")
                    ),
                );
            }
        }
        for k in 0..i64::from(d.rounds) {
            let t = first + chrono::Duration::minutes(step * k);
            if t.date() != d.date {
                return cx.fail(
                    at(j, "rounds"),
                    format!(
                        "{} 起每 {step} 分钟一轮，第 {} 轮已到次日 (the day's last round would start on the next day)",
                        d.start.format("%H:%M"),
                        k + 1
                    ),
                );
            }
            times.push(t);
        }
    }
    let max = crate::max_rounds(&s.format);
    if max > 0 && times.len() as u32 > max {
        return cx.fail(
            at(s.schedule_days.len() - 1, "rounds"),
            format!(
                "按天的赛程共 {} 轮，但本组最多 {max} 轮 (the days hold more rounds than the section plays)",
                times.len()
            ),
        );
    }
    s.schedule = times;
    Ok(())
}

/// Categories stated as ages (「8岁以下」: `max_age = 7`; 「9–10岁」: `min_age = 9`,
/// `max_age = 10`) on their reference date into birth dates: at least `min_age` full years on
/// the date is born on or before it `min_age` years back; at most `max_age` is born after it
/// `max_age + 1` years back.
fn category_ages(cx: &Ctx, i: usize, s: &mut Section, start: chrono::NaiveDate) -> R {
    use chrono::Months;
    let default_on = s.eligibility.age_on.or(s.date).unwrap_or(start);
    for (j, c) in s.categories.iter_mut().enumerate() {
        let at = |key: &str| p!["sections", i, "categories", j, key];
        if c.min_age.is_none() && c.max_age.is_none() {
            if c.age_on.is_some() {
                return cx.fail(
                    at("age_on"),
                    "给出了计算年龄的日期，但没有 min_age / max_age (a reference date without ages)"
                        .into(),
                );
            }
            continue;
        }
        if c.born_from.is_some() || c.born_to.is_some() {
            let key = if c.min_age.is_some() {
                "min_age"
            } else {
                "max_age"
            };
            return cx.fail(
                at(key),
                "类别的年龄与出生日期二者只用其一 (give a category ages or birth dates, not both)"
                    .into(),
            );
        }
        if let (Some(a), Some(b)) = (c.min_age, c.max_age) {
            if a > b {
                return cx.fail(
                    at("max_age"),
                    format!(
                        "年龄范围为空: {a} 至 {b} 岁 (empty age range: min_age is above max_age)"
                    ),
                );
            }
        }
        let on = c.age_on.unwrap_or(default_on);
        let back = |years: u32| on.checked_sub_months(Months::new(years.saturating_mul(12)));
        if let Some(a) = c.min_age {
            c.born_to = back(a);
        }
        if let Some(b) = c.max_age {
            c.born_from = back(b.saturating_add(1)).and_then(|d| d.succ_opt());
        }
        if (c.min_age.is_some() && c.born_to.is_none())
            || (c.max_age.is_some() && c.born_from.is_none())
        {
            return cx.fail(
                at(if c.min_age.is_some() {
                    "min_age"
                } else {
                    "max_age"
                }),
                "年龄过大 (age out of range)".into(),
            );
        }
        c.age_on = Some(on);
    }
    Ok(())
}

fn unknown_ref<'a>(
    zh: &str,
    en: &str,
    given: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> String {
    let known: Vec<&str> = known.into_iter().collect();
    match arbiter_types::closest(given, known.iter().copied()) {
        Some(h) => format!(
            "未知的{zh} `{given}`，是否应为 `{h}`？ (unknown {en} `{given}`, did you mean `{h}`?)"
        ),
        None => format!(
            "未知的{zh} `{given}`，已定义: {} (unknown {en} `{given}`)",
            if known.is_empty() {
                "无".to_string()
            } else {
                known.join(", ")
            }
        ),
    }
}

/// The most players a plain knockout section takes: the knockout crate's largest bracket
/// (`arbiter_knockout::MAX_PLAYERS`, 1,024 — ten rounds; a test of the director checks that
/// the two agree). A cap above it is refused; without a cap the 1,025th entry is.
pub const MAX_BRACKET: u32 = 1024;

/// The most rounds a section can play (0 = depends on entries: round robin).
pub fn max_rounds(f: &Format) -> u32 {
    let r = f.rounds.unwrap_or(0);
    match (&f.knockout, f.kind) {
        (Some(k), FormatKind::SwissThenKnockout) => {
            r.saturating_add(k.continue_rounds.max(k.size.max(1).ilog2()))
        }
        (_, FormatKind::Swiss) => r,
        // A bracket of at most MAX_BRACKET players.
        (_, FormatKind::Knockout) => MAX_BRACKET.ilog2(),
        _ => 0,
    }
}

fn time_controls(cx: &Ctx, tcs: &[TimeControl], base: Vec<Seg>) -> R {
    let mut kinds = Vec::new();
    for (j, tc) in tcs.iter().enumerate() {
        let mut path = base.clone();
        path.push(Seg::Index(j));
        if tc.minutes == 0 && tc.increment_seconds == 0 {
            path.push(Seg::from("minutes"));
            return cx.fail(path, "用时不能为 0 (a time control needs time)".into());
        }
        if kinds.contains(&tc.kind) {
            path.push(Seg::from("kind"));
            return cx.fail(
                path,
                format!(
                    "{}用时重复 (time control for `{}` given twice)",
                    tc.kind.zh(),
                    tc.kind.name()
                ),
            );
        }
        kinds.push(tc.kind);
    }
    Ok(())
}

fn check_cap(cx: &Ctx, cap: u32, path: Vec<Seg>) -> R {
    if cap == 0 {
        return cx.fail(path, "报名上限不能为 0 (cap must be at least 1)".into());
    }
    if cap > MAX_ENTRIES {
        return cx.fail(
            path,
            format!("报名上限 {cap} 超过本程序支持的 {MAX_ENTRIES} 人 (cap {cap} is above the supported {MAX_ENTRIES} entries)"),
        );
    }
    Ok(())
}

/// A section's cap (its own, or the event's when it has none) within what one section
/// supports ([`MAX_SECTION_ENTRIES`]).
fn check_section_size(cx: &Ctx, cap: u32, path: Vec<Seg>, id: &str, inherited: bool) -> R {
    if cap <= MAX_SECTION_ENTRIES {
        return Ok(());
    }
    let (zh, en) = if inherited {
        (
            format!("组别 `{id}` 没有自己的报名上限, 将可容纳全部 {cap} 人; 请为该组设 entries.cap 或降低总上限"),
            format!("section `{id}` has no cap of its own and could take all {cap} entries: give it an entries.cap or lower this cap"),
        )
    } else {
        (
            format!("组别 `{id}` 报名上限 {cap} 人"),
            format!("section `{id}` cap {cap}"),
        )
    };
    cx.fail(
        path,
        format!(
            "{zh}, 超过本程序支持的每组 {MAX_SECTION_ENTRIES} 人 ({en}: one section supports at most {MAX_SECTION_ENTRIES} players)"
        ),
    )
}

/// Why place `rank` cannot be reached: beyond the prize tables, or beyond the entry cap.
fn beyond_places(rank: u32, places: Option<u32>, zh: &str, en: &str) -> Option<String> {
    if rank > MAX_PLACE {
        return Some(format!(
            "{zh}名次 {rank} 超过程序支持的第 {MAX_PLACE} 名 ({en} place {rank} is beyond place {MAX_PLACE}, the last one supported)"
        ));
    }
    match places {
        Some(cap) if rank > cap => Some(format!(
            "{zh}名次 {rank} 超过报名上限 {cap} 人, 这一名次不会存在 ({en} place {rank} is beyond the entry cap of {cap}: the place cannot exist)"
        )),
        _ => None,
    }
}

fn prizes(
    cx: &Ctx,
    list: &[Prize],
    base: &[Seg],
    cats: &[&str],
    divs: &[&str],
    places: Option<u32>,
) -> R {
    let at = |j: usize, key: &str| {
        let mut v = base.to_vec();
        v.push(Seg::Index(j));
        v.push(Seg::from(key));
        v
    };
    type Slot<'a> = (Option<&'a str>, Option<&'a str>);
    let mut taken: BTreeMap<Slot, Vec<(u32, u32)>> = BTreeMap::new();
    for (j, pz) in list.iter().enumerate() {
        let key = if pz.rank.is_some() { "rank" } else { "from" };
        if pz.rank.is_some() && (pz.from.is_some() || pz.to.is_some()) {
            return cx.fail(
                at(j, "rank"),
                "`rank` 与 `from`/`to` 不能同时使用 (use either rank or from/to)".into(),
            );
        }
        if pz.rank.is_none() && pz.from.is_none() {
            return cx.fail(
                at(j, "to"),
                "奖项须给出名次 `rank` 或 `from` (a prize needs `rank` or `from`)".into(),
            );
        }
        let (a, b) = pz.ranks();
        if a == 0 {
            return cx.fail(at(j, key), "名次从 1 开始 (ranks start at 1)".into());
        }
        if b < a {
            return cx.fail(
                at(j, "to"),
                format!("名次范围为空: 第{a}至{b}名 (empty rank range: from is after to)"),
            );
        }
        let last_key = if pz.rank.is_none() && pz.to.is_some() {
            "to"
        } else {
            key
        };
        if let Some(why) = beyond_places(b, places, "奖励", "prize") {
            return cx.fail(at(j, last_key), why);
        }
        if let Some(c) = &pz.category {
            if !cats.contains(&c.as_str()) {
                return cx.fail(
                    at(j, "category"),
                    unknown_ref("类别", "category", c, cats.iter().copied()),
                );
            }
        }
        match &pz.division {
            Some(d) if !divs.contains(&d.as_str()) => {
                return cx.fail(
                    at(j, "division"),
                    unknown_ref("分组", "division", d, divs.iter().copied()),
                );
            }
            None if !divs.is_empty() => {
                return cx.fail(
                    at(j, key),
                    "团体奖须注明分组 `division` (a team prize needs its division)".into(),
                );
            }
            _ => {}
        }
        let slot = taken
            .entry((pz.category.as_deref(), pz.division.as_deref()))
            .or_default();
        if let Some(&(x, y)) = slot.iter().find(|&&(x, y)| a <= y && x <= b) {
            return cx.fail(
                at(j, key),
                format!(
                    "奖励名次 {a}–{b} 与已有的 {x}–{y} 重叠 (prize ranks {a}-{b} overlap {x}-{y})"
                ),
            );
        }
        slot.push((a, b));
    }
    Ok(())
}

/// `[[registration.charges]]`: named, positive, known flags and categories, a deposit's
/// refund rule only on a deposit; flags written by their Chinese label become their name.
fn charges(cx: &Ctx, reg: &mut Regulation) -> R {
    use crate::charges::{ChargeKind, RefundAt};
    if reg.registration.charges.is_empty() {
        return Ok(());
    }
    if reg.registration.fee.is_some() {
        return cx.fail(
            p!["registration", "fee"],
            "`fee` 与 `charges` 不能同时使用: 请把报名费写成一个 kind = \"fee\" 的收费项目 (`fee` and `charges` cannot both be given: write the fee as a charge of kind \"fee\")".into(),
        );
    }
    for (i, s) in reg.sections.iter().enumerate() {
        if s.entries.fee.is_some() {
            return cx.fail(
                p!["sections", i, "entries", "fee"],
                format!(
                    "组别「{}」的 `fee` 与 `[[registration.charges]]` 不能同时使用, 请用收费项目的 sections (a section's `fee` cannot be used with `charges`: give the charge `sections`)",
                    s.name
                ),
            );
        }
    }
    let flags = reg.flags();
    let label_of: Vec<(String, String)> = flags
        .iter()
        .map(|f| (reg.flag_label(f), f.clone()))
        .collect();
    let flag_name = |f: &str| -> Option<String> {
        if flags.iter().any(|k| k == f) || f == "local" {
            return Some(f.to_string());
        }
        label_of
            .iter()
            .find(|(l, _)| l == f)
            .map(|(_, k)| k.clone())
            .or_else(|| (f == "本地棋手").then(|| "local".to_string()))
    };
    let known_flags = || {
        let mut v: Vec<String> = label_of
            .iter()
            .map(|(l, k)| format!("{k}「{l}」"))
            .collect();
        if !flags.iter().any(|k| k == "local") {
            v.push("local「本地棋手」".into());
        }
        v.join(", ")
    };
    let categories: BTreeSet<String> = reg
        .sections
        .iter()
        .flat_map(|s| s.categories.iter().map(|c| c.id.clone()))
        .collect();
    let section_ids: BTreeSet<String> = reg.sections.iter().map(|s| s.id.clone()).collect();
    let amount_ok = |yuan: u32, fen: u32, path: Vec<Seg>| -> R {
        if fen >= 100 {
            return cx.fail(
                path,
                format!("分须小于100, 写作 yuan 与 fen (fen must be below 100, got {fen})"),
            );
        }
        if yuan == 0 && fen == 0 {
            return cx.fail(
                path,
                "金额须大于0; 免缴请用 free_for_flags 或 free_for_categories (the amount must be more than zero; use free_for_flags / free_for_categories for nothing owed)".into(),
            );
        }
        Ok(())
    };
    let mut names = BTreeSet::new();
    let mut charges = std::mem::take(&mut reg.registration.charges);
    let out = (|| -> R {
        for (i, c) in charges.iter_mut().enumerate() {
            let at = |k: &str| p!["registration", "charges", i, k];
            if c.name.trim().is_empty() {
                return cx.fail(
                    at("name"),
                    "收费项目名称为空 (a charge needs its name)".into(),
                );
            }
            if !names.insert(c.name.clone()) {
                return cx.fail(
                    at("name"),
                    format!("收费项目「{}」重复 (charge named twice)", c.name),
                );
            }
            if c.fen >= 100 || (c.yuan == 0 && c.fen == 0) {
                amount_ok(c.yuan, c.fen, at(if c.fen >= 100 { "fen" } else { "name" }))?;
            }
            for s in &c.sections {
                if !section_ids.contains(s) {
                    return cx.fail(
                        at("sections"),
                        format!(
                            "收费项目「{}」的组别 `{s}` 不存在 (unknown section; known: {})",
                            c.name,
                            section_ids.iter().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    );
                }
            }
            let unknown_flag = |f: &str, key: &str| {
                cx.fail(
                    at(key),
                    format!(
                        "收费项目「{}」的标记「{f}」不是本规程的标记 (unknown flag; known: {})",
                        c.name,
                        known_flags()
                    ),
                )
            };
            let unknown_cat = |k: &str, key: &str| {
                cx.fail(
                    at(key),
                    format!(
                        "收费项目「{}」的类别 `{k}` 不存在 (unknown category; known: {})",
                        c.name,
                        categories.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                )
            };
            for f in c.free_for_flags.iter_mut() {
                match flag_name(f) {
                    Some(n) => *f = n,
                    None => return unknown_flag(f, "free_for_flags"),
                }
            }
            for k in &c.free_for_categories {
                if !categories.contains(k) {
                    return unknown_cat(k, "free_for_categories");
                }
            }
            for (j, a) in c.amounts.iter_mut().enumerate() {
                let here = p!["registration", "charges", i, "amounts", j];
                match (&a.flag, &a.category) {
                    (Some(_), Some(_)) | (None, None) => {
                        return cx.fail(
                            here,
                            format!(
                                "收费项目「{}」的金额须写明 flag 或 category 之一 (an amount names one flag or one category)",
                                c.name
                            ),
                        )
                    }
                    (Some(f), None) => match flag_name(f) {
                        Some(n) => a.flag = Some(n),
                        None => return unknown_flag(f, "amounts"),
                    },
                    (None, Some(k)) => {
                        if !categories.contains(k) {
                            return unknown_cat(k, "amounts");
                        }
                    }
                }
                amount_ok(a.yuan, a.fen, here)?;
            }
            match c.kind {
                ChargeKind::Fee => {
                    if c.refund_at.is_some() || !c.refund_conditions.is_empty() {
                        return cx.fail(
                            at(if c.refund_at.is_some() {
                                "refund_at"
                            } else {
                                "refund_conditions"
                            }),
                            format!(
                                "「{}」是费用, 费用不退还; 退还规则只用于押金 kind = \"deposit\" (a fee is not refunded: refund rules are for deposits)",
                                c.name
                            ),
                        );
                    }
                }
                ChargeKind::Deposit => {
                    let Some(r) = c.refund_at else {
                        return cx.fail(
                            at("kind"),
                            format!(
                                "押金「{}」须写明 refund_at = \"last_round\" | \"closing\" | \"on_conditions\" (a deposit needs its refund rule)",
                                c.name
                            ),
                        );
                    };
                    if r == RefundAt::OnConditions && c.refund_conditions.is_empty() {
                        return cx.fail(
                            at("refund_at"),
                            format!(
                                "押金「{}」按条件退还, 须写明 refund_conditions, 如 [\"完成全部对局\", \"未弃权\"] (refund on conditions needs refund_conditions)",
                                c.name
                            ),
                        );
                    }
                    let mut seen = BTreeSet::new();
                    for k in &c.refund_conditions {
                        if k.trim().is_empty() || !seen.insert(k.clone()) {
                            return cx.fail(
                                at("refund_conditions"),
                                format!(
                                    "押金「{}」的退还条件「{k}」为空或重复 (a refund condition is empty or named twice)",
                                    c.name
                                ),
                            );
                        }
                    }
                }
            }
        }
        Ok(())
    })();
    reg.registration.charges = charges;
    out
}

/// The knockout's match: a preset (`match_format`, K1 by default) or game blocks with their
/// ending; every time control named by a block exists and every one given is played. A plain
/// knockout (`plain`) must give the time controls of its preset; a two-stage section that gives
/// none keeps the meaning it had (the documents print no time).
fn knockout_match(cx: &Ctx, k: &Knockout, base: Vec<Seg>, plain: bool) -> R {
    use crate::match_blocks::EndingRule;
    let at = |rest: &[Seg]| {
        let mut v = base.clone();
        v.extend(rest.iter().cloned());
        v
    };
    let tcs = &k.time_controls;
    let tc_at =
        |j: usize, key: &str| at(&[Seg::from("time_controls"), Seg::Index(j), Seg::from(key)]);
    for (j, tc) in tcs.iter().enumerate() {
        if tc.minutes == 0 && tc.increment_seconds == 0 {
            return cx.fail(
                tc_at(j, "minutes"),
                "用时不能为 0 (a time control needs time)".into(),
            );
        }
        if tc.name.as_deref().is_some_and(|n| n.trim().is_empty()) {
            return cx.fail(
                tc_at(j, "name"),
                "用时名称不能为空 (`name` is empty)".into(),
            );
        }
    }
    let names = || {
        tcs.iter()
            .map(|t| format!("「{}」", t.display_name()))
            .collect::<Vec<_>>()
            .join("、")
    };
    if !k.has_blocks() {
        if k.ending.is_some() {
            return cx.fail(
                at(&[Seg::from("ending")]),
                "`ending` 只用于按段写出的赛制 `blocks`；预设赛制 K1–K6 自带结局 (`ending` needs `blocks`; the presets K1–K6 end by themselves)".into(),
            );
        }
        // A preset: one time control per kind, and only kinds the preset plays.
        let preset = k.preset();
        let mut kinds = Vec::new();
        for (j, tc) in tcs.iter().enumerate() {
            if kinds.contains(&tc.kind) {
                return cx.fail(
                    tc_at(j, "kind"),
                    format!(
                        "{}用时重复 (time control for `{}` given twice)",
                        tc.kind.zh(),
                        tc.kind.name()
                    ),
                );
            }
            kinds.push(tc.kind);
            if !preset.games().contains(&tc.kind) {
                return cx.fail(
                    tc_at(j, "kind"),
                    format!(
                        "赛制 {} 不下{}，此用时不会用到 (format {} plays no {} game; this time control would never apply)",
                        preset.name(),
                        tc.kind.zh(),
                        preset.name(),
                        tc.kind.name()
                    ),
                );
            }
        }
        if !tcs.is_empty() || plain {
            if let Some(missing) = preset.games().iter().find(|g| !kinds.contains(g)) {
                return cx.fail(
                    at(&[Seg::from("time_controls")]),
                    format!(
                        "赛制 {} 要下{}，但没有{}的用时 (format {} plays {} games but gives no time control for them)",
                        preset.name(),
                        missing.zh(),
                        missing.zh(),
                        preset.name(),
                        missing.name()
                    ),
                );
            }
        }
        return Ok(());
    }
    for (key, given) in [
        ("match_format", k.match_format.is_some()),
        ("colour_choice", k.colour_choice.is_some()),
        (
            "armageddon_draw_black_wins",
            k.armageddon_draw_black_wins.is_some(),
        ),
    ] {
        if given {
            return cx.fail(
                at(&[Seg::from(key)]),
                format!("已按段写出赛制 `blocks`，`{key}` 只用于预设赛制 K1–K6；先后手写在各段的 `colours`，附加赛和棋写在 `ending.draw` (with `blocks`, `{key}` does not apply: colours go in each block's `colours`, an armageddon draw in `ending.draw`)"),
            );
        }
    }
    let Some(ending) = &k.ending else {
        return cx.fail(
            at(&[Seg::from("blocks")]),
            "按段写出的赛制须给出 `ending`：仍平时如何决出胜负 (blocks need an `ending`: what settles a level match)".into(),
        );
    };
    // Names must be unambiguous: an unnamed control answers to its class name.
    let mut keys: Vec<String> = Vec::new();
    for (j, tc) in tcs.iter().enumerate() {
        let own: Vec<String> = match &tc.name {
            Some(n) => vec![n.clone()],
            None => vec![tc.kind.zh().to_string(), tc.kind.name().to_string()],
        };
        if let Some(dup) = own.iter().find(|n| keys.contains(n)) {
            return cx.fail(
                tc_at(j, if tc.name.is_some() { "name" } else { "kind" }),
                format!("用时「{dup}」重复，各段无法区分 (time control 「{dup}」 given twice)"),
            );
        }
        keys.extend(own);
    }
    let mut used = vec![false; tcs.len()];
    let mut resolve = |name: &str, path: Vec<Seg>| -> Result<usize, RegulationError> {
        match tcs.iter().position(|t| t.answers_to(name)) {
            Some(j) => {
                used[j] = true;
                Ok(j)
            }
            None if tcs.is_empty() => Err(cx.err(
                path,
                format!("用时「{name}」未定义：`time_controls` 为空，每段对局都须有用时 (time control 「{name}」 is not defined: give it in `time_controls`)"),
            )),
            None => Err(cx.err(
                path,
                format!("用时「{name}」未定义，已有: {} (time control 「{name}」 is not defined)", names()),
            )),
        }
    };
    for (i, b) in k.blocks.iter().enumerate() {
        let bat = |key: &str| at(&[Seg::from("blocks"), Seg::Index(i), Seg::from(key)]);
        if !(1..=9).contains(&b.games) {
            return cx.fail(
                bat("games"),
                format!(
                    "每段 1–9 局，此处为 {} (a block has 1 to 9 games, not {})",
                    b.games, b.games
                ),
            );
        }
        let j = resolve(&b.time_control, bat("time_control"))?;
        if tcs[j].kind == arbiter_types::GameKind::Armageddon {
            return cx.fail(
                bat("time_control"),
                format!("「{}」是附加赛用时，只能用于 `ending` (an armageddon time control belongs to the ending)", b.time_control),
            );
        }
    }
    let eat = |key: &str| at(&[Seg::from("ending"), Seg::from(key)]);
    if ending.rule == EndingRule::Armageddon {
        let Some(name) = &ending.time_control else {
            return cx.fail(
                eat("rule"),
                "附加赛须给出用时 `time_control` (an armageddon needs its `time_control`)".into(),
            );
        };
        resolve(name, eat("time_control"))?;
    } else {
        for (key, given) in [
            ("time_control", ending.time_control.is_some()),
            ("colours", ending.colours.is_some()),
            ("draw", ending.draw.is_some()),
        ] {
            if given {
                return cx.fail(
                    eat(key),
                    format!("`{key}` 只用于 `rule = \"armageddon\"` (`{key}` applies to an armageddon ending only)"),
                );
            }
        }
    }
    if let Some(j) = used.iter().position(|u| !u) {
        return cx.fail(
            tc_at(
                j,
                if tcs[j].name.is_some() {
                    "name"
                } else {
                    "kind"
                },
            ),
            format!(
                "用时「{}」没有任何一段用到 (time control 「{}」 is used by no block)",
                tcs[j].display_name(),
                tcs[j].display_name()
            ),
        );
    }
    Ok(())
}
