//! A seeded synthetic field (报名名单) for simulated events: Chinese names, units,
//! associations, teams with leaders and coaches, valid 18-digit ID numbers (GB 11643-1999)
//! whose birth dates and sexes fit each section, phone numbers — plus deliberately bad
//! entries that the regulation must refuse, and some players who never pay (T7).
//!
//! Pure: the same plan and seed give the same field.

use arbiter_types::Sex;
use chrono::{Datelike, NaiveDate};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

const SURNAMES: &[&str] = &[
    "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭",
    "何", "高", "林", "罗", "郑", "梁", "谢", "宋", "唐", "许", "韩", "冯", "邓", "曹", "彭", "曾",
    "肖", "田", "董", "袁", "潘", "于", "蒋", "蔡", "余", "杜", "叶", "程", "苏", "魏", "吕", "丁",
    "任", "沈", "姚", "卢", "姜", "崔", "钟", "谭", "陆", "汪", "范", "金", "石", "廖", "贾", "夏",
    "韦", "方", "白", "邹", "孟", "熊", "秦", "邱", "江", "尹", "薛", "段", "雷", "侯", "龙", "史",
    "陶", "黎", "贺", "顾", "毛", "郝", "龚", "邵", "万", "钱", "严", "武", "戴", "莫", "孔", "汤",
    "欧阳", "司马", "诸葛",
];
const GIVEN_MALE: &[&str] = &[
    "伟", "强", "磊", "军", "勇", "杰", "涛", "明", "超", "刚", "平", "辉", "鹏", "华", "飞", "鑫",
    "波", "宇", "浩", "凯", "健", "俊", "帆", "建", "国", "峰", "亮", "成", "志", "文", "斌", "林",
    "海", "东", "晨", "阳", "龙", "翔", "子", "轩", "博", "睿", "德", "荣", "庆", "祥", "兵", "春",
];
const GIVEN_FEMALE: &[&str] = &[
    "芳", "娜", "敏", "静", "丽", "艳", "娟", "霞", "燕", "玲", "婷", "雪", "琳", "洁", "颖", "慧",
    "莹", "倩", "晶", "月", "红", "梅", "兰", "萍", "瑶", "欣", "怡", "佳", "思", "雨", "诗", "涵",
];
const COMPANY_HEAD: &[&str] = &[
    "华宇",
    "鼎盛",
    "恒通",
    "富士康",
    "仁宝",
    "好孩子",
    "龙腾",
    "沪士",
    "恒力",
    "新宁",
    "中电",
    "协鑫",
    "通富",
    "立讯",
    "捷安",
    "丘钛",
    "瑞声",
    "国泰",
    "正新",
    "维信",
    "长风",
    "同心",
    "金鹰",
    "天合",
    "亨通",
    "永鼎",
    "宝时得",
    "嘉宏",
    "汇川",
    "南亚",
];
const COMPANY_TAIL: &[&str] = &[
    "电子有限公司",
    "精密机械有限公司",
    "光电科技有限公司",
    "物流有限公司",
    "实业有限公司",
    "汽车部件有限公司",
    "新材料有限公司",
    "智能装备有限公司",
];

/// What kind of deliberately bad entry this is (the regulation must refuse it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BadKind {
    /// Born outside the section's birth dates or ages (年龄不符: too old or too young).
    TooOld,
    /// Sex not admitted in the section.
    WrongSex,
    /// Listed in a team of another unit (跨单位组队).
    CrossUnitTeam,
    /// One entry more than the unit's / association's limit.
    UnitOverLimit,
    /// Arrives after the entry cap is reached.
    AfterCap,
}

impl BadKind {
    pub fn zh(self) -> &'static str {
        match self {
            BadKind::TooOld => "年龄不符",
            BadKind::WrongSex => "性别不符",
            BadKind::CrossUnitTeam => "跨单位组队",
            BadKind::UnitOverLimit => "超出单位报名人数",
            BadKind::AfterCap => "报名人数已满",
        }
    }
}

/// How the players of a section belong to units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Affiliation {
    /// Work units or clubs (K2, T5): players come in groups of `min..=max` per unit, from
    /// `units` units named from `names` (company names when empty).
    Units {
        units: usize,
        min: usize,
        max: usize,
        names: Vec<String>,
    },
    /// Associations (S3): every player belongs to one of these associations.
    Associations(Vec<String>),
    /// Clubs / no unit: a share of players have a club name from this list, others none.
    Clubs(Vec<String>),
}

/// Teams built from a section's units (K3, T5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPlan {
    /// Smallest team (K3: 3).
    pub min_players: usize,
    /// Largest team (a unit with more players enters 一队, 二队, …).
    pub max_players: usize,
    /// Divisions (甲组, 乙组); empty = no divisions.
    pub divisions: Vec<String>,
    /// A unit may enter several teams (K3); otherwise its players beyond one team play
    /// without a team.
    #[serde(default)]
    pub multiple_per_unit: bool,
}

/// One section of the plan: how many valid entries and what they must look like.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionPlan {
    pub id: String,
    /// Valid entries to generate.
    pub count: usize,
    /// `Some` = only this sex is admitted; `None` = mixed (about 3 men to 1 woman).
    pub sex: Option<Sex>,
    /// Valid birth dates (inclusive).
    pub born_from: NaiveDate,
    pub born_to: NaiveDate,
    pub affiliation: Affiliation,
    pub teams: Option<TeamPlan>,
    /// Entries per unit admitted in this section (adds one refused entry over it).
    pub max_per_unit: Option<usize>,
    /// Entry cap of the section (adds one refused entry after it when `count` reaches it).
    pub cap: Option<usize>,
    /// Flags every entry carries (e.g. `local`).
    pub flags: Vec<String>,
    /// Evidence kinds every entry provides (社保, 身份证, …).
    pub evidence: Vec<String>,
    /// Players who never pay the fee (T7): not paired.
    pub unpaid: usize,
    /// Whether deliberately bad entries are added.
    pub bad_entries: bool,
    /// Whether `born_from` is the regulation's limit (then a too-old entry is added).
    #[serde(default)]
    pub age_limited: bool,
    /// Whether `born_to` is the regulation's limit (a minimum age; a too-young entry is added).
    #[serde(default)]
    pub young_limited: bool,
    /// Whether the regulation restricts the sex (then a wrong-sex entry is added); `sex` may
    /// also come from the section's name only (男子个人赛).
    #[serde(default = "yes")]
    pub sex_enforced: bool,
}

fn yes() -> bool {
    true
}

/// The whole plan of a synthetic field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynthPlan {
    pub seed: u64,
    /// Address codes for ID numbers (first 6 digits), e.g. 320583 for Kunshan.
    pub regions: Vec<String>,
    pub sections: Vec<SectionPlan>,
    /// An association limit across all sections (S3: 30); adds one refused entry over it.
    pub max_per_association: Option<u32>,
}

/// What should happen to an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    Accept,
    Refuse(BadKind),
}

/// One entry form as the arbiter receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynthEntry {
    pub section: String,
    pub name: String,
    pub sex: Sex,
    pub birth: NaiveDate,
    /// 18-character ID number with a valid check character.
    pub id_number: String,
    /// 11-digit mainland mobile number.
    pub phone: String,
    pub unit: Option<String>,
    pub association: Option<String>,
    pub team: Option<String>,
    pub flags: Vec<String>,
    pub evidence: Vec<String>,
    /// Whether the fee is paid (T7).
    pub pays: bool,
    pub expect: Expect,
}

/// A team entry form (K3): unit, name, division, members (indices into `entries`), leader
/// and coach (the coach may be one of the players).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynthTeam {
    pub section: String,
    pub unit: String,
    pub name: String,
    pub division: Option<String>,
    pub members: Vec<usize>,
    pub leader: String,
    pub coach: String,
}

/// The generated field, in registration order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynthField {
    pub entries: Vec<SynthEntry>,
    pub teams: Vec<SynthTeam>,
}

/// The GB 11643-1999 check character of 17 digits.
pub fn check_char(body: &[u8; 17]) -> char {
    // Weight of position i (1-based from the left) is 2^(18-i) mod 11.
    let mut sum = 0u32;
    let mut w = 1u32; // 2^0 for the check position
    let mut weights = [0u32; 17];
    for slot in weights.iter_mut().rev() {
        w = (w * 2) % 11;
        *slot = w;
    }
    for (d, w) in body.iter().zip(weights) {
        sum += u32::from(*d) * w;
    }
    // check value c satisfies (sum + c) ≡ 1 (mod 11)
    let c = (12 - sum % 11) % 11;
    if c == 10 {
        'X'
    } else {
        char::from(b'0' + c as u8)
    }
}

struct Gen {
    rng: ChaCha8Rng,
    names: BTreeSet<String>,
    ids: BTreeSet<String>,
    phones: BTreeSet<String>,
    regions: Vec<String>,
}

impl Gen {
    fn name(&mut self, sex: Sex) -> String {
        let given = match sex {
            Sex::Male => GIVEN_MALE,
            Sex::Female => GIVEN_FEMALE,
        };
        for attempt in 0..1000 {
            let s = SURNAMES[self.rng.gen_range(0..SURNAMES.len())];
            let mut n = s.to_string();
            let len = if attempt > 50 || self.rng.gen_bool(0.6) {
                2
            } else {
                1
            };
            for _ in 0..len {
                n.push_str(given[self.rng.gen_range(0..given.len())]);
            }
            if self.names.insert(n.clone()) {
                return n;
            }
        }
        // Practically unreachable; keep names unique with a numeral suffix.
        let n = format!("{}{}", SURNAMES[0], self.names.len());
        self.names.insert(n.clone());
        n
    }

    fn birth(&mut self, from: NaiveDate, to: NaiveDate) -> NaiveDate {
        let a = from.num_days_from_ce();
        let b = to.num_days_from_ce().max(a);
        let d = self.rng.gen_range(a..=b);
        NaiveDate::from_num_days_from_ce_opt(d).unwrap_or(from)
    }

    fn id_number(&mut self, birth: NaiveDate, sex: Sex) -> String {
        loop {
            let region = if self.regions.is_empty() {
                "320583".to_string()
            } else {
                self.regions[self.rng.gen_range(0..self.regions.len())].clone()
            };
            let mut seq: u32 = self.rng.gen_range(0..1000);
            let odd = seq % 2 == 1;
            if odd != (sex == Sex::Male) {
                seq = if seq == 999 { 998 } else { seq + 1 };
                if (seq % 2 == 1) != (sex == Sex::Male) {
                    seq -= 1;
                }
            }
            let body = format!("{region:0>6.6}{}{seq:03}", birth.format("%Y%m%d"));
            let mut digits = [0u8; 17];
            for (slot, b) in digits.iter_mut().zip(body.bytes()) {
                *slot = b.wrapping_sub(b'0') % 10;
            }
            let id = format!("{body}{}", check_char(&digits));
            if self.ids.insert(id.clone()) {
                return id;
            }
        }
    }

    fn phone(&mut self) -> String {
        const PREFIX: &[&str] = &[
            "133", "135", "136", "138", "139", "150", "152", "158", "177", "180", "186", "189",
            "199",
        ];
        loop {
            let p = format!(
                "{}{:08}",
                PREFIX[self.rng.gen_range(0..PREFIX.len())],
                self.rng.gen_range(0..100_000_000u32)
            );
            if self.phones.insert(p.clone()) {
                return p;
            }
        }
    }
}

/// Names of `n` distinct company units (deterministic for the rng).
fn company_units(rng: &mut ChaCha8Rng, n: usize) -> Vec<String> {
    let mut all: Vec<String> = COMPANY_HEAD
        .iter()
        .flat_map(|h| COMPANY_TAIL.iter().map(move |t| format!("昆山{h}{t}")))
        .collect();
    all.shuffle(rng);
    all.truncate(n);
    all
}

/// Generate the field of a plan.
pub fn generate(plan: &SynthPlan) -> SynthField {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(plan.seed),
        names: BTreeSet::new(),
        ids: BTreeSet::new(),
        phones: BTreeSet::new(),
        regions: plan.regions.clone(),
    };
    let mut entries: Vec<SynthEntry> = Vec::new();
    let mut teams: Vec<SynthTeam> = Vec::new();
    let mut per_association: std::collections::BTreeMap<String, usize> = Default::default();
    let mut association_bad_done = false;

    for sp in &plan.sections {
        let first = entries.len();
        // Units for this section.
        let unit_of: Vec<Option<String>> = match &sp.affiliation {
            Affiliation::Units {
                units,
                min,
                max,
                names,
            } => {
                let names = if names.is_empty() {
                    company_units(&mut g.rng, *units)
                } else {
                    names.clone()
                };
                let mut v = Vec::with_capacity(sp.count);
                let mut ui = 0usize;
                while v.len() < sp.count {
                    let lo = (*min).max(1);
                    let hi = (*max).max(lo);
                    let k = g.rng.gen_range(lo..=hi).min(sp.count - v.len());
                    let k = match sp.max_per_unit {
                        Some(m) => k.min(m),
                        None => k,
                    };
                    let name = names.get(ui % names.len().max(1)).cloned();
                    for _ in 0..k {
                        v.push(name.clone());
                    }
                    ui += 1;
                    if ui >= names.len() && !names.is_empty() {
                        ui = 0;
                    }
                }
                v
            }
            Affiliation::Associations(list) => {
                // S3: the section with the most entries gets one association at its overall
                // limit (so that one more entry is refused); every other entry goes round the
                // remaining associations, so the small sections share the same few.
                let hot = plan.max_per_association.filter(|m| {
                    list.len() > 1
                        && sp.count >= *m as usize + 5
                        && plan.sections.iter().all(|o| o.count <= sp.count)
                        && per_association.get(&list[0]).copied().unwrap_or(0) == 0
                });
                let rest = if plan.max_per_association.is_some() && list.len() > 1 {
                    &list[1..]
                } else {
                    &list[..]
                };
                (0..sp.count)
                    .map(|i| {
                        let a = match hot {
                            Some(m) if i < m as usize => list[0].clone(),
                            _ if rest.is_empty() => return None,
                            _ => rest[i % rest.len()].clone(),
                        };
                        *per_association.entry(a.clone()).or_default() += 1;
                        Some(a)
                    })
                    .collect()
            }
            Affiliation::Clubs(list) => (0..sp.count)
                .map(|_| {
                    if !list.is_empty() && g.rng.gen_bool(0.5) {
                        Some(list[g.rng.gen_range(0..list.len())].clone())
                    } else {
                        None
                    }
                })
                .collect(),
        };
        let is_assoc = matches!(sp.affiliation, Affiliation::Associations(_));
        for unit in &unit_of {
            let sex = match sp.sex {
                Some(s) => s,
                None => {
                    if g.rng.gen_bool(0.75) {
                        Sex::Male
                    } else {
                        Sex::Female
                    }
                }
            };
            let birth = g.birth(sp.born_from, sp.born_to);
            let id_number = g.id_number(birth, sex);
            entries.push(SynthEntry {
                section: sp.id.clone(),
                name: g.name(sex),
                sex,
                birth,
                id_number,
                phone: g.phone(),
                unit: if is_assoc { None } else { unit.clone() },
                association: if is_assoc { unit.clone() } else { None },
                team: None,
                flags: sp.flags.clone(),
                evidence: sp.evidence.clone(),
                pays: true,
                expect: Expect::Accept,
            });
        }
        // Unpaid players (T7): the last-registered ones of a random choice.
        let mut idx: Vec<usize> = (first..entries.len()).collect();
        idx.shuffle(&mut g.rng);
        for &i in idx.iter().take(sp.unpaid.min(sp.count)) {
            entries[i].pays = false;
        }
        // Teams from units.
        if let (Some(tp), Affiliation::Units { .. }) = (&sp.teams, &sp.affiliation) {
            // Units in order of first appearance, found through an index (linear).
            let mut units: Vec<(String, Vec<usize>)> = Vec::new();
            let mut unit_at: std::collections::HashMap<String, usize> = Default::default();
            for (i, e) in entries.iter().enumerate().skip(first) {
                if !e.pays {
                    continue;
                }
                if let Some(u) = &e.unit {
                    match unit_at.get(u) {
                        Some(&k) => units[k].1.push(i),
                        None => {
                            unit_at.insert(u.clone(), units.len());
                            units.push((u.clone(), vec![i]));
                        }
                    }
                }
            }
            let mut ti = 0usize;
            for (unit, members) in units {
                if members.len() < tp.min_players.max(1) {
                    continue; // individual results only (K3)
                }
                let division = if tp.divisions.is_empty() {
                    None
                } else {
                    let d = tp.divisions[ti % tp.divisions.len()].clone();
                    ti += 1;
                    Some(d)
                };
                let mut chunks: Vec<Vec<usize>> = members
                    .chunks(tp.max_players.max(tp.min_players).max(1))
                    .filter(|c| c.len() >= tp.min_players)
                    .map(|c| c.to_vec())
                    .collect();
                if !tp.multiple_per_unit {
                    chunks.truncate(1);
                }
                let many = chunks.len() > 1;
                for (k, chunk) in chunks.into_iter().enumerate() {
                    let name = team_name(&unit, many.then_some(k));
                    for &m in &chunk {
                        entries[m].team = Some(name.clone());
                    }
                    let leader = g.name(Sex::Male);
                    let coach = if g.rng.gen_bool(0.3) {
                        entries[chunk[0]].name.clone()
                    } else {
                        g.name(Sex::Male)
                    };
                    teams.push(SynthTeam {
                        section: sp.id.clone(),
                        unit: unit.clone(),
                        name,
                        division: division.clone(),
                        members: chunk,
                        leader,
                        coach,
                    });
                }
            }
        }
        if !sp.bad_entries {
            continue;
        }
        // Deliberately bad entries, each refused by the regulation.
        // Bad entries come through a unit of the section (its last valid entry's).
        // A section with no valid entry borrows an earlier section's unit, or its own first
        // unit's name, so that a regulation requiring the unit gets one (K5).
        let (mut base_unit, base_assoc) = entries[first..]
            .iter()
            .rev()
            .find(|e| e.expect == Expect::Accept)
            .or_else(|| {
                entries[..first]
                    .iter()
                    .rev()
                    .find(|e| e.expect == Expect::Accept && e.unit.is_some())
            })
            .map(|e| (e.unit.clone(), e.association.clone()))
            .unwrap_or((None, None));
        if base_unit.is_none() {
            if let Affiliation::Units { names, .. } = &sp.affiliation {
                base_unit = Some(
                    names
                        .first()
                        .cloned()
                        .unwrap_or_else(|| "参赛单位".to_string()),
                );
            }
        }
        let template = |g: &mut Gen, sex: Sex, birth: NaiveDate, kind: BadKind| {
            let id_number = g.id_number(birth, sex);
            SynthEntry {
                section: sp.id.clone(),
                name: g.name(sex),
                sex,
                birth,
                id_number,
                phone: g.phone(),
                unit: base_unit.clone(),
                association: base_assoc.clone(),
                team: None,
                flags: sp.flags.clone(),
                evidence: sp.evidence.clone(),
                pays: true,
                expect: Expect::Refuse(kind),
            }
        };
        let ok_sex = sp.sex.unwrap_or(Sex::Male);
        let ok_birth = sp.born_from;
        if sp.age_limited {
            let too_old = sp.born_from - chrono::Days::new(400);
            let e = template(&mut g, ok_sex, too_old, BadKind::TooOld);
            entries.push(e);
        }
        if sp.young_limited {
            let too_young = sp.born_to + chrono::Days::new(400);
            let e = template(&mut g, ok_sex, too_young, BadKind::TooOld);
            entries.push(e);
        }
        if let (Some(s), true) = (sp.sex, sp.sex_enforced) {
            let other = if s == Sex::Male {
                Sex::Female
            } else {
                Sex::Male
            };
            let e = template(&mut g, other, ok_birth, BadKind::WrongSex);
            entries.push(e);
        }
        // A team of another unit than the entry's (a unit's 一队 and 二队 share the unit, and
        // naming one's own unit's team is no cross-unit entry).
        let section_teams: Vec<&SynthTeam> = teams.iter().filter(|t| t.section == sp.id).collect();
        if let Some((own, other)) = section_teams.first().and_then(|own| {
            section_teams
                .iter()
                .find(|t| t.unit != own.unit)
                .map(|other| (own, other))
        }) {
            let mut e = template(&mut g, ok_sex, ok_birth, BadKind::CrossUnitTeam);
            e.unit = Some(own.unit.clone());
            e.team = Some(other.name.clone());
            entries.push(e);
        }
        if let (Some(m), Affiliation::Units { .. }) = (sp.max_per_unit, &sp.affiliation) {
            // A unit already at its limit tries one more.
            let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
            for e in &entries[first..] {
                if let (Some(u), Expect::Accept) = (&e.unit, e.expect) {
                    *counts.entry(u.as_str()).or_default() += 1;
                }
            }
            if let Some((u, _)) = counts.iter().find(|(_, c)| **c >= m) {
                let u = u.to_string();
                let mut e = template(&mut g, ok_sex, ok_birth, BadKind::UnitOverLimit);
                e.unit = Some(u);
                entries.push(e);
            }
        }
        if let (Some(m), Affiliation::Associations(_)) = (plan.max_per_association, &sp.affiliation)
        {
            if !association_bad_done {
                if let Some((a, _)) = per_association.iter().find(|(_, c)| **c >= m as usize) {
                    let mut e = template(&mut g, ok_sex, ok_birth, BadKind::UnitOverLimit);
                    e.association = Some(a.clone());
                    entries.push(e);
                    association_bad_done = true;
                }
            }
        }
        if let Some(cap) = sp.cap {
            if sp.count >= cap {
                let e = template(&mut g, ok_sex, ok_birth, BadKind::AfterCap);
                entries.push(e);
            }
        }
    }
    SynthField { entries, teams }
}

/// `昆山华宇电子有限公司` → `华宇电子`: the short unit name used for team names.
/// The team name of a unit: "华宇电子队", or "华宇电子一队", "华宇电子二队" for the `k`-th of
/// several teams (K3). A unit already ending in 队 gets no second 队 ("张掖市象棋队").
pub fn team_name(unit: &str, k: Option<usize>) -> String {
    let short = short_unit(unit);
    let base = short.strip_suffix('队').unwrap_or(&short);
    match k {
        Some(k) => format!("{base}{}队", chinese_number(k + 1)),
        None => format!("{base}队"),
    }
}

/// 1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 105 → 一百零五: every team of a unit gets its own
/// number, however many teams the unit sends.
fn chinese_number(n: usize) -> String {
    const D: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    const U: [&str; 4] = ["", "十", "百", "千"];
    if n == 0 {
        return D[0].into();
    }
    if n >= 10_000 {
        return n.to_string();
    }
    let digits: Vec<usize> = n.to_string().bytes().map(|b| (b - b'0') as usize).collect();
    let len = digits.len();
    let mut out = String::new();
    let mut zero = false;
    for (i, &d) in digits.iter().enumerate() {
        let unit = len - 1 - i;
        if d == 0 {
            zero = true;
            continue;
        }
        if zero && !out.is_empty() {
            out.push_str(D[0]);
        }
        zero = false;
        // 十二, not 一十二, when ten is the leading unit.
        if !(d == 1 && unit == 1 && i == 0) {
            out.push_str(D[d]);
        }
        out.push_str(U[unit]);
    }
    out
}

fn short_unit(unit: &str) -> String {
    let s = unit.strip_prefix("昆山").unwrap_or(unit);
    let s = s.strip_suffix("有限公司").unwrap_or(s);
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_types::IdNumber;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn team_names_never_double_the_suffix() {
        assert_eq!(team_name("张掖市象棋队", None), "张掖市象棋队");
        assert_eq!(team_name("张掖市象棋队", Some(1)), "张掖市象棋二队");
        assert_eq!(team_name("昆山华宇电子有限公司", None), "华宇电子队");
        assert_eq!(team_name("昆山华宇电子有限公司", Some(0)), "华宇电子一队");
        assert_eq!(team_name("秦州区棋院", None), "秦州区棋院队");
        // A unit with more than six teams: each still gets its own name.
        assert_eq!(team_name("华宇电子", Some(6)), "华宇电子七队");
        assert_eq!(team_name("华宇电子", Some(11)), "华宇电子十二队");
        let names: std::collections::BTreeSet<String> =
            (0..300).map(|k| team_name("华宇电子", Some(k))).collect();
        assert_eq!(names.len(), 300);
        assert_eq!(chinese_number(20), "二十");
        assert_eq!(chinese_number(105), "一百零五");
        assert_eq!(chinese_number(1010), "一千零一十");
    }

    fn plan(seed: u64) -> SynthPlan {
        SynthPlan {
            seed,
            regions: vec!["320583".into(), "320505".into()],
            max_per_association: Some(30),
            sections: vec![
                SectionPlan {
                    id: "men".into(),
                    count: 130,
                    sex: Some(Sex::Male),
                    born_from: d(1961, 1, 1),
                    born_to: d(2008, 12, 31),
                    affiliation: Affiliation::Units {
                        units: 40,
                        min: 1,
                        max: 6,
                        names: vec![],
                    },
                    teams: Some(TeamPlan {
                        min_players: 3,
                        max_players: 5,
                        divisions: vec!["甲组".into(), "乙组".into()],
                        multiple_per_unit: true,
                    }),
                    max_per_unit: Some(6),
                    cap: None,
                    flags: vec![],
                    evidence: vec!["社保".into()],
                    unpaid: 2,
                    bad_entries: true,
                    age_limited: true,
                    young_limited: false,
                    sex_enforced: true,
                },
                SectionPlan {
                    id: "open".into(),
                    count: 40,
                    sex: None,
                    born_from: d(1966, 1, 1),
                    born_to: d(2008, 12, 31),
                    affiliation: Affiliation::Associations(vec!["姑苏区".into(), "吴中区".into()]),
                    teams: None,
                    max_per_unit: None,
                    cap: Some(40),
                    flags: vec![],
                    evidence: vec![],
                    unpaid: 0,
                    bad_entries: true,
                    age_limited: true,
                    young_limited: false,
                    sex_enforced: true,
                },
            ],
        }
    }

    #[test]
    fn check_char_matches_gb11643_examples() {
        // Independent reference: the standard's published example 11010519491231002X.
        let body: [u8; 17] = [1, 1, 0, 1, 0, 5, 1, 9, 4, 9, 1, 2, 3, 1, 0, 0, 2];
        assert_eq!(check_char(&body), 'X');
        let body2: [u8; 17] = [4, 4, 0, 5, 2, 4, 1, 8, 8, 0, 0, 1, 0, 1, 0, 0, 1];
        assert_eq!(check_char(&body2), '4'); // 440524188001010014
    }

    #[test]
    fn valid_entries_fit_their_section_and_ids_parse() {
        let f = generate(&plan(7));
        let p = plan(7);
        for e in &f.entries {
            let id = IdNumber::parse(&e.id_number)
                .unwrap_or_else(|err| panic!("{}: {err}", e.id_number));
            assert_eq!(id.birth_date(), e.birth);
            assert_eq!(id.sex(), e.sex);
            assert_eq!(e.phone.len(), 11);
            assert!(e.phone.starts_with('1'));
            let sp = p.sections.iter().find(|s| s.id == e.section).unwrap();
            if e.expect == Expect::Accept {
                assert!(e.birth >= sp.born_from && e.birth <= sp.born_to);
                if let Some(s) = sp.sex {
                    assert_eq!(e.sex, s);
                }
            }
        }
        let men = f
            .entries
            .iter()
            .filter(|e| e.section == "men" && e.expect == Expect::Accept)
            .count();
        assert_eq!(men, 130);
        assert_eq!(f.entries.iter().filter(|e| !e.pays).count(), 2);
        let kinds: BTreeSet<BadKind> = f
            .entries
            .iter()
            .filter_map(|e| match e.expect {
                Expect::Refuse(k) => Some(k),
                Expect::Accept => None,
            })
            .collect();
        for k in [
            BadKind::TooOld,
            BadKind::WrongSex,
            BadKind::CrossUnitTeam,
            BadKind::UnitOverLimit,
            BadKind::AfterCap,
        ] {
            assert!(kinds.contains(&k), "{k:?} missing");
        }
        // Teams: every member in the team's unit, at least 3, both divisions used.
        assert!(f.teams.len() >= 4);
        for t in &f.teams {
            assert!(t.members.len() >= 3);
            for &m in &t.members {
                assert_eq!(f.entries[m].unit.as_deref(), Some(t.unit.as_str()));
                assert_eq!(f.entries[m].team.as_deref(), Some(t.name.as_str()));
            }
        }
        assert!(f
            .teams
            .iter()
            .any(|t| t.division.as_deref() == Some("甲组")));
        assert!(f
            .teams
            .iter()
            .any(|t| t.division.as_deref() == Some("乙组")));
        let names: BTreeSet<&str> = f.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names.len(), f.entries.len(), "names are unique");
    }

    #[test]
    fn same_seed_same_field_other_seed_other_field() {
        assert_eq!(generate(&plan(3)), generate(&plan(3)));
        assert_ne!(generate(&plan(3)), generate(&plan(4)));
    }
}
