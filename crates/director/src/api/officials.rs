//! The event's officials (竞赛官员: 裁判长, 副裁判长, 编排长, 仲裁委员会 …) as the chief arbiter
//! records their appointment: one `officials_appointed` entry holding the whole list, in the
//! order the booklets (秩序册, 成绩册) print it. Names only — an official's phone or ID number
//! is never recorded.

use super::Ctx;
use crate::permission::{require, Action};
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, Official};

/// One line of an appointment as the CLI's `--set` and the desk's form take it:
/// `裁判长=张三`, `裁判长：张三` or `裁判长: 张三`; several names of one role separated by
/// 、 , ， or spaces (`裁判员=张三、李四`) give one official each. `None`: no separator, or an
/// empty role or name.
pub fn parse_line(line: &str) -> Option<Vec<Official>> {
    let (role, names) = line
        .split_once(['=', '：', ':'])
        .map(|(r, n)| (r.trim(), n.trim()))?;
    let names: Vec<&str> = names
        .split(['、', ',', '，', ' ', '\u{3000}'])
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if role.is_empty() || names.is_empty() {
        return None;
    }
    Some(
        names
            .into_iter()
            .map(|name| Official {
                role: role.to_string(),
                name: name.to_string(),
            })
            .collect(),
    )
}

/// A whole list from lines of [`parse_line`] (blank lines skipped): `Err(line)` names the
/// first line that is not `职务=姓名`.
pub fn parse_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Result<Vec<Official>, String> {
    let mut out = Vec::new();
    for line in lines {
        if line.trim().is_empty() {
            continue;
        }
        out.extend(parse_line(line).ok_or_else(|| line.trim().to_string())?);
    }
    Ok(out)
}

/// The officials as recorded, each role's names together in the order of their first
/// appearance: `[(裁判长, [张三]), (裁判员, [李四, 王五])]`.
pub fn by_role(state: &EventState) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for o in &state.officials {
        match out.iter_mut().find(|(r, _)| *r == o.role) {
            Some((_, names)) => names.push(o.name.clone()),
            None => out.push((o.role.clone(), vec![o.name.clone()])),
        }
    }
    out
}

/// `event officials`: record `officials` (trimmed) as the event's list, replacing the one in
/// force; an empty list takes it back. Refused by the log's rules when a role or a name is
/// empty, an official is listed twice or nothing changes.
pub fn appoint(
    ctx: &Ctx,
    officials: &[Official],
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    require(ctx, Action::AppointOfficials)?;
    let officials = officials
        .iter()
        .map(|o| Official {
            role: o.role.trim().to_string(),
            name: o.name.trim().to_string(),
        })
        .collect();
    super::text_checked(vec![LogEntry::OfficialsAppointed {
        officials,
        reason: reason.trim().to_string(),
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(role: &str, name: &str) -> Official {
        Official {
            role: role.into(),
            name: name.into(),
        }
    }

    #[test]
    fn a_line_gives_one_official_per_name_of_its_role() {
        assert_eq!(parse_line("裁判长=张三"), Some(vec![o("裁判长", "张三")]));
        assert_eq!(
            parse_line(" 裁判员：李四、王五，赵六 "),
            Some(vec![
                o("裁判员", "李四"),
                o("裁判员", "王五"),
                o("裁判员", "赵六")
            ])
        );
        assert_eq!(
            parse_line("仲裁委员会主任: 孙七"),
            Some(vec![o("仲裁委员会主任", "孙七")])
        );
        assert_eq!(parse_line("裁判长 张三"), None, "no separator");
        assert_eq!(parse_line("=张三"), None, "no role");
        assert_eq!(parse_line("裁判长="), None, "no name");
    }

    #[test]
    fn lines_skip_blanks_and_name_the_bad_one() {
        let ok = parse_lines(["裁判长=张三", "", "编排长=李四"]).unwrap();
        assert_eq!(ok, vec![o("裁判长", "张三"), o("编排长", "李四")]);
        assert_eq!(
            parse_lines(["裁判长=张三", "编排长 李四"]),
            Err("编排长 李四".to_string())
        );
    }
}
