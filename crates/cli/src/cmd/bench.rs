use clap::Subcommand;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// (not yet available)
    Todo,
}

pub fn run(_c: BenchCmd) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
