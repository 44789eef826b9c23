//! Throw-away PostgreSQL for tests (of this crate, the CLI and the web server).
//!
//! [`test_db`] gives each test a database of its own, named `arbiter_t_<pid>_<n>`, dropped
//! when the guard drops. The server is:
//! - `ARBITER_TEST_PG` (a URL to an existing server whose user may create databases), if set;
//! - otherwise one cluster per test process, started on first use: `initdb` (found under
//!   `/usr/lib/postgresql/*/bin`, run as user `postgres` when we are root) into a temporary
//!   directory, `postgres` on a free port of 127.0.0.1 with its socket in that directory.
//!
//! The cluster is stopped and its directory removed when its [`PgCluster`] drops — and,
//! for the per-process one (a static, never dropped), by a small shell guard that waits on
//! a pipe from the test process: when the process ends, however it ends (panic, abort,
//! SIGKILL), the pipe closes and the guard stops the server and removes the directory.
//! Without PostgreSQL the tests fail with "请安装 postgresql (apt-get install postgresql)".

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What a test sees when no server can be had.
pub const INSTALL_HINT: &str = "请安装 postgresql (apt-get install postgresql)";

/// A running throw-away cluster; dropping it stops the server and removes its directory.
pub struct PgCluster {
    /// `postgres://postgres@127.0.0.1:<port>/postgres`
    pub admin_url: String,
    pub port: u16,
    dir: PathBuf,
    guard: Mutex<Option<(Child, ChildStdin)>>,
}

/// The directory holding `initdb` and `postgres` (the newest version installed).
pub fn find_bin() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, b)| b)
}

fn is_root() -> bool {
    // `id -u` avoids a libc dependency for one number.
    Command::new("id")
        .arg("-u")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .is_some_and(|s| s.trim() == "0")
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

fn wait_ready(url: &str, log: &Path, deadline: Instant) -> Result<(), String> {
    loop {
        match postgres::Client::connect(url, postgres::NoTls) {
            Ok(_) => return Ok(()),
            Err(e) if Instant::now() > deadline => {
                let log = std::fs::read_to_string(log).unwrap_or_default();
                return Err(format!("PostgreSQL 未能启动 (did not start): {e}\n{log}"));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

impl PgCluster {
    /// `initdb` and start a new cluster (see the module documentation).
    pub fn start() -> Result<PgCluster, String> {
        let bin = find_bin().ok_or_else(|| INSTALL_HINT.to_string())?;
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "arbiter-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let root = is_root();
        if root {
            // postgres refuses to run as root: the directory belongs to user `postgres`.
            let st = Command::new("chown")
                .arg("postgres:")
                .arg(&dir)
                .status()
                .map_err(|e| e.to_string())?;
            if !st.success() {
                return Err(format!("chown postgres {} failed", dir.display()));
            }
        }
        let as_pg = |prog: &str| {
            let mut c = if root {
                let mut c = Command::new("runuser");
                c.args(["-u", "postgres", "--"]).arg(bin.join(prog));
                c
            } else {
                Command::new(bin.join(prog))
            };
            c.stdin(Stdio::null());
            c
        };
        let data = dir.join("data");
        let out = as_pg("initdb")
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
            .args(["--locale=C.UTF-8"])
            .output()
            .map_err(|e| format!("initdb: {e}"))?;
        if !out.status.success() {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(format!(
                "initdb 失败 (failed): {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let port = free_port()?;
        let log = dir.join("server.log");
        let runner = if root { "runuser -u postgres --" } else { "" };
        // The guard: start the server, wait until stdin closes (the test process dropped
        // the cluster or ended), then stop the server and remove the directory.
        let script = format!(
            "{runner} \"$1/postgres\" -D \"$2/data\" -k \"$2\" -p {port} \
               -c listen_addresses=127.0.0.1 -c max_connections=200 \
               >\"$2/server.log\" 2>&1 </dev/null &
             read _ || true
             {runner} \"$1/pg_ctl\" -D \"$2/data\" -m fast -w stop >/dev/null 2>&1
             rm -rf \"$2\""
        );
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg("sh")
            .arg(&bin)
            .arg(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("sh: {e}"))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| "guard stdin".to_string())?;
        let cluster = PgCluster {
            admin_url: format!("postgres://postgres@127.0.0.1:{port}/postgres"),
            port,
            dir,
            guard: Mutex::new(Some((child, stdin))),
        };
        wait_ready(
            &cluster.admin_url,
            &log,
            Instant::now() + Duration::from_secs(60),
        )?;
        Ok(cluster)
    }

    /// Stop the server and remove its directory (also what `Drop` does).
    pub fn stop(&self) {
        let taken = self.guard.lock().ok().and_then(|mut g| g.take());
        if let Some((mut child, mut stdin)) = taken {
            let _ = stdin.write_all(b"stop\n");
            drop(stdin);
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    /// URL of database `name` on this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A database of one test; dropped (with any connections left) when the guard drops.
pub struct TestDb {
    /// The URL to pass as `--db`.
    pub url: String,
    pub name: String,
    admin_url: String,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let admin = self.admin_url.clone();
        let name = self.name.clone();
        // The sync client must not run on an async task: use a plain thread.
        let _ = std::thread::spawn(move || {
            if let Ok(mut c) = postgres::Client::connect(&admin, postgres::NoTls) {
                let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        })
        .join();
    }
}

/// The server tests use: `ARBITER_TEST_PG`'s admin URL, or this process's cluster.
fn server() -> Result<String, String> {
    if let Ok(url) = std::env::var("ARBITER_TEST_PG") {
        if !url.is_empty() {
            return Ok(url);
        }
    }
    static CLUSTER: OnceLock<Result<PgCluster, String>> = OnceLock::new();
    CLUSTER
        .get_or_init(PgCluster::start)
        .as_ref()
        .map(|c| c.admin_url.clone())
        .map_err(Clone::clone)
}

/// A fresh empty database for one test (see the module documentation). Panics with
/// [`INSTALL_HINT`] when PostgreSQL is not installed and `ARBITER_TEST_PG` is not set.
pub fn test_db() -> TestDb {
    try_test_db().unwrap_or_else(|e| panic!("{e}"))
}

/// [`test_db`] returning the error.
pub fn try_test_db() -> Result<TestDb, String> {
    let admin_url = server()?;
    static N: AtomicU32 = AtomicU32::new(0);
    let name = format!(
        "arbiter_t_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    );
    let admin = admin_url.clone();
    let create = format!("CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'");
    std::thread::spawn(move || -> Result<(), String> {
        let mut c = postgres::Client::connect(&admin, postgres::NoTls)
            .map_err(|e| format!("{admin}: {e}"))?;
        c.batch_execute(&create).map_err(|e| e.to_string())
    })
    .join()
    .map_err(|_| "create database panicked".to_string())??;
    let url = match admin_url.rfind('/') {
        Some(i) if admin_url[..i].contains("://") && admin_url[..i].len() > 12 => {
            let rest = &admin_url[i + 1..];
            let query = rest.find('?').map_or("", |q| &rest[q..]);
            format!("{}/{name}{query}", &admin_url[..i])
        }
        _ => format!("{admin_url}/{name}"),
    };
    Ok(TestDb {
        url,
        name,
        admin_url,
    })
}
