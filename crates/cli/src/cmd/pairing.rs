use clap::Args;

#[derive(Args)]
pub struct PairArgs {}
#[derive(Args)]
pub struct GenerateArgs {}
#[derive(Args)]
pub struct CheckArgs {}

pub fn pair(_a: PairArgs) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
pub fn generate(_a: GenerateArgs) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
pub fn check(_a: CheckArgs) -> anyhow::Result<u8> {
    anyhow::bail!("not yet available")
}
