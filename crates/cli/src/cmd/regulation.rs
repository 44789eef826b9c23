use clap::Subcommand;

#[derive(Subcommand)]
pub enum RegulationCmd {
    /// (not yet available)
    Todo,
}

pub fn run(_c: RegulationCmd) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
