use clap::Args;

#[derive(Args)]
pub struct SimulateArgs {}

pub fn run(_a: SimulateArgs) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
