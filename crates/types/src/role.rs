//! Who may do what at an event: the roles of the accounts, which the director's operations
//! check (`arbiter_director::api::Ctx::role`).

use std::fmt;
use std::str::FromStr;

/// What an account may do. Ordered from the most to the least powerful is *not* implied:
/// each page names the roles it admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// 组委会 — creates events, manages the registration desk; no results.
    Organiser,
    /// 裁判长 — everything, and the only one who corrects a confirmed result or changes
    /// settings after round 1.
    ChiefArbiter,
    /// 裁判 — pairs rounds and enters results.
    Arbiter,
    /// 报名处 — registration, fees, check-in.
    Desk,
}

impl Role {
    pub const ALL: [Role; 4] = [
        Role::Organiser,
        Role::ChiefArbiter,
        Role::Arbiter,
        Role::Desk,
    ];

    /// The stored (and command-line) spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Organiser => "organiser",
            Role::ChiefArbiter => "chief_arbiter",
            Role::Arbiter => "arbiter",
            Role::Desk => "desk",
        }
    }

    /// The Chinese name shown on pages.
    pub fn zh(self) -> &'static str {
        match self {
            Role::Organiser => "组委会",
            Role::ChiefArbiter => "裁判长",
            Role::Arbiter => "裁判",
            Role::Desk => "报名处",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "未知的角色 `{s}`, 应为 organiser | chief_arbiter | arbiter | desk (unknown role)"
                )
            })
    }
}
