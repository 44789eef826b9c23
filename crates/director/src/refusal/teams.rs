//! The refusals of team entries and rosters (队伍) in words.

use super::Refusal;
use std::fmt;

impl Refusal {
    /// The `Display` of a refusal of the teams family.
    pub(super) fn fmt_teams(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            RosterEmpty => write!(f, "队伍名单为空 (a team needs members)"),
            NoTeamCompetition { section } => write!(
                f,
                "{section} 不设团体赛 (the section has no team competition)"
            ),
            MemberElsewhere {
                player,
                section,
                team_section,
            } => write!(
                f,
                "棋手 {player} 属于{section}, 队伍属于{team_section} (members of one team play in one section)"
            ),
            CrossUnit {
                player,
                unit,
                team_unit,
            } => write!(
                f,
                "跨单位组队: 棋手 {player} 属于 {}, 队伍属于 {team_unit} (K2: cross-unit team)",
                unit.as_deref().unwrap_or("-")
            ),
            UnitHasTeam { unit, team } => write!(
                f,
                "单位 {unit} 已报名队伍 {team}, 规程不允许一个单位报多支队伍 (one team per unit)"
            ),
            TooFewMembers {
                team,
                members,
                min,
                change,
            } => {
                if *change {
                    write!(
                        f,
                        "队伍 {team} 将只有 {members} 人, 规程要求至少 {min} 人 (too few members; replace a player instead)"
                    )
                } else {
                    write!(
                        f,
                        "队伍 {team} 只有 {members} 人, 规程要求至少 {min} 人 (too few members)"
                    )
                }
            }
            TooManyMembers {
                team,
                members,
                max,
                change,
            } => {
                if *change {
                    write!(
                        f,
                        "队伍 {team} 将有 {members} 人, 规程允许至多 {max} 人 (too many members; replace a player instead)"
                    )
                } else {
                    write!(
                        f,
                        "队伍 {team} 有 {members} 人, 规程允许至多 {max} 人 (too many members)"
                    )
                }
            }
            LeaderRequired => write!(f, "规程要求填写领队 (a leader is required)"),
            CoachRequired => write!(f, "规程要求填写教练 (a coach is required)"),
            UnknownDivision {
                section,
                division,
                known,
            } => {
                let all: Vec<String> = known.iter().map(|(n, id)| format!("{n} {id}")).collect();
                write!(
                    f,
                    "{section} 没有团体组别「{division}」(unknown division; one of: {})",
                    all.join(", ")
                )
            }
            DivisionRequired { section, known } => {
                let all: Vec<&str> = known.iter().map(|(n, _)| n.as_str()).collect();
                write!(
                    f,
                    "{section} 的团体分{}, 请选择其一 (the team must name its division: {})",
                    all.join("、"),
                    all.join(", ")
                )
            }
            DivisionPlaced {
                unit,
                placed,
                named,
            } => write!(
                f,
                "{unit} 按上届成绩自动划入{placed}, 不能报{named} (the unit is placed in {placed} by last edition's results)"
            ),
            DivisionNotOpen { unit, division } => write!(
                f,
                "{division}只收按上届成绩划入的单位, {unit} 不在其中 (the division takes only the units placed in it)"
            ),
            UnknownTeam { team, closest } => {
                write!(f, "队伍「{team}」不存在 (unknown team)")?;
                if let Some(h) = closest {
                    write!(f, ", 是否应为「{h}」? (did you mean {h}?)")?;
                }
                Ok(())
            }
            NobodyToAddOrRemove => write!(f, "没有要增加或移出的队员 (nobody to add or remove)"),
            NotOnRoster { player, team } => write!(
                f,
                "棋手 {player} 不在队伍 {team} 的名单中 (not on the team's roster)"
            ),
            AlreadyOnRoster { player, team } => write!(
                f,
                "棋手 {player} 已在队伍 {team} 的名单中 (already on the roster)"
            ),
            OnAnotherTeam { player, team } => write!(
                f,
                "棋手 {player} 属于队伍 {team}, 请先将其从该队移出 (the player belongs to another team: remove him there first)"
            ),
            TeamWithdrawn { team } => write!(
                f,
                "队伍 {team} 的队员均已退赛 (every member of the team has withdrawn already)"
            ),
            _ => unreachable!("not a refusal of the teams family"),
        }
    }
}
