//! `arbiter section merge`: the chief arbiter merges a section too small into another before
//! the draw (「对分组可作适当调整」), one recorded decision with the reason. It parses its flags
//! and calls one operation of `arbiter_director::api::entries` through [`Writer::apply`];
//! nothing here holds a rule.

use super::desk::refused;
use super::rounds::Writer;
use arbiter_director::command::registration::RegistrationCommand;
use clap::{Args, Subcommand};

#[derive(Subcommand)]
pub enum SectionCmd {
    /// 合并组别 — merge a section into another before the draw (the chief arbiter's, with the
    /// reason): every player moves with his fees and check-in, and the merged section takes no
    /// more entries
    Merge(MergeArgs),
}

#[derive(Args)]
pub struct MergeArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 并入的组别 — the section merged (id or name)
    #[arg(long)]
    from: String,
    /// 接收的组别 — the section it is merged into (id or name)
    #[arg(long)]
    into: String,
    /// 合并理由 — reason (recorded)
    #[arg(long)]
    reason: String,
    #[command(flatten)]
    who: Writer,
}

pub fn run(c: SectionCmd) -> anyhow::Result<u8> {
    match c {
        SectionCmd::Merge(a) => {
            let cmd = RegistrationCommand::MergeSections {
                from: a.from.clone(),
                into: a.into.clone(),
                reason: a.reason.clone(),
            };
            match a.who.apply(&a.event, cmd)? {
                Ok(done) => {
                    super::tell(&a.who.db, &a.event, &done);
                    Ok(0)
                }
                Err(e) => Ok(refused(&e)),
            }
        }
    }
}
