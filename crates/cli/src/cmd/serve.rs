//! `arbiter serve [--db PATH|postgres://…] [--addr 127.0.0.1:8080] [--demo]`: the web server (public pages, JSON
//! API, live updates). Flag parsing only; everything else is `arbiter_web::serve`.

use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Args)]
pub struct ServeArgs {
    /// 数据库文件 (不存在则创建) 或 PostgreSQL 地址 postgres://… — event database (a SQLite
    /// file, created if missing; or a PostgreSQL URL, several servers may share it)
    #[arg(long, default_value = super::DEFAULT_DB)]
    pub db: PathBuf,
    /// 监听地址 — address to listen on (0.0.0.0:8080 to reach it from phones on the network)
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// 演示: 四个参考赛事模拟到一半 (内存数据库, 不写文件) — demo: the four reference events
    /// simulated part-way, in an in-memory database (--db is not used)
    #[arg(long, conflicts_with = "db")]
    pub demo: bool,
}

pub fn run(a: ServeArgs) -> anyhow::Result<u8> {
    let mut config = arbiter_web::ServeConfig::new(a.db, a.addr);
    config.demo = a.demo;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match rt.block_on(arbiter_web::serve(config)) {
        Ok(()) => Ok(0),
        Err(e) => {
            eprintln!("错误 error: {e}");
            Ok(2)
        }
    }
}
