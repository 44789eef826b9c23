use clap::Subcommand;

#[derive(Subcommand)]
pub enum EventCmd {
    /// (not yet available)
    Todo,
}

pub fn run(_c: EventCmd) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
