use clap::Args;

#[derive(Args)]
pub struct StandingsArgs {}

pub fn run(_a: StandingsArgs) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
