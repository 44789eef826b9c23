use clap::Subcommand;

#[derive(Subcommand)]
pub enum PlayerCmd {
    /// (not yet available)
    Todo,
}

pub fn run(_c: PlayerCmd) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
