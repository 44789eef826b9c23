//! The harness shared by the CLI's integration tests: running the real `arbiter` binary,
//! reading what it printed, the repository's regulations, simulated events, a temporary
//! folder with its own regulation and database, servers started for a test, and poppler.
//!
//! The test binary `tests/it` has this module (`mod common;` in its `main.rs`); every test
//! file uses a part of it (`use crate::common; use common::*;`), hence `dead_code` is
//! allowed.

#![allow(dead_code)]

use arbiter_core::EventState;
use arbiter_store::{EventStore, SqliteStore};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `arbiter` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

// ---------------------------------------------------------------------------------------
// Running the binary.

/// Runs `arbiter ARGS` to the end; its exit status and output.
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run arbiter")
}

/// Runs `arbiter ARGS` with `stdin` written to its standard input (a password, say). A
/// command that refuses before it reads its input closes it: that is not an error here.
pub fn run_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn arbiter");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("wait")
}

/// Runs `arbiter ARGS`, which must succeed (its stdout and stderr are shown otherwise).
pub fn ok_output(args: &[&str]) -> Output {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}\n{}",
        stdout(&o),
        stderr(&o)
    );
    o
}

/// Runs `arbiter ARGS`, which must succeed; its stdout (UTF-8).
pub fn ok(args: &[&str]) -> String {
    String::from_utf8(ok_output(args).stdout).expect("stdout is UTF-8")
}

/// Runs `arbiter ARGS`, which must succeed; its (stdout, stderr).
pub fn ok_with_stderr(args: &[&str]) -> (String, String) {
    let o = ok_output(args);
    (stdout(&o), stderr(&o))
}

/// Bytes the binary printed, as text (invalid UTF-8 replaced).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What the process printed on stdout, as text.
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// What the process printed on stderr, as text.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// The JSON document on stdout of a run that exited 0.
pub fn json_of(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("json")
}

/// One JSON object on stdout, on one line and nothing else, of a run that exited 0.
pub fn json_line(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    let out = stdout(o);
    assert_eq!(out.trim().lines().count(), 1, "one JSON line: {out}");
    serde_json::from_str(out.trim()).expect("valid JSON")
}

/// The entries (each record's `entry`) of type `kind` in an exported log.
pub fn entries_of_kind(log: &Value, kind: &str) -> Vec<Value> {
    log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["entry"]["type"] == kind)
        .map(|e| e["entry"].clone())
        .collect()
}

// ---------------------------------------------------------------------------------------
// Files of the repository and of a test.

/// The workspace's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The path of the shipped regulation `regulations/{stem}.toml`.
pub fn regulation(stem: &str) -> String {
    format!(
        "{}/../../regulations/{stem}.toml",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Writes `text` to `p`; the path as a string.
pub fn write(p: &Path, text: &str) -> String {
    std::fs::write(p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// An 18-digit ID number from its first 17 digits (ISO 7064 MOD 11-2 check character,
/// computed here independently of the code under test).
pub fn id_number(first17: &str) -> String {
    const W: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    let sum: u32 = first17
        .chars()
        .zip(W)
        .map(|(c, w)| c.to_digit(10).unwrap() * w)
        .sum();
    let check = ['1', '0', 'X', '9', '8', '7', '6', '5', '4', '3', '2'][(sum % 11) as usize];
    format!("{first17}{check}")
}

/// A small deterministic generator (a linear congruential one), for seeded moments at which
/// a test kills a process.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number, below 2^31.
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

// ---------------------------------------------------------------------------------------
// Simulated events.

/// `--players P` for each of `players` (`"men=20"`, `"160"`, …), as `simulate` takes them.
pub fn players_flags<'a>(players: &[&'a str]) -> Vec<&'a str> {
    players.iter().flat_map(|&p| ["--players", p]).collect()
}

/// The command `arbiter simulate` of the shipped regulation `stem` with `seed` into `out`.
pub fn simulate_command(stem: &str, seed: u64, out: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.arg("simulate")
        .arg("--regulation")
        .arg(regulation(stem))
        .args(["--seed", &seed.to_string(), "--out"])
        .arg(out);
    c
}

/// `arbiter simulate` of the shipped regulation `stem` with `seed` into `out`, plus `extra`
/// flags; must succeed; its stdout.
pub fn simulate_into(stem: &str, seed: u64, out: &Path, extra: &[&str]) -> String {
    let o = simulate_command(stem, seed, out)
        .args(extra)
        .output()
        .unwrap();
    let stdout = stdout(&o);
    assert!(
        o.status.success(),
        "{stem} seed {seed}: exit {:?}\n{stdout}\n{}",
        o.status.code(),
        stderr(&o)
    );
    stdout
}

/// `arbiter simulate` of `stem` with seed 1 into `dir/{stem}`; the path of its database.
pub fn simulate(dir: &Path, stem: &str) -> String {
    let out = dir.join(stem);
    simulate_into(stem, 1, &out, &[]);
    out.join("arbiter.db").display().to_string()
}

/// A simulated event in a temporary folder of its own (removed when this is dropped).
pub struct Simulated {
    _dir: tempfile::TempDir,
    /// The folder `simulate` wrote (the database and `export.json`).
    pub out: PathBuf,
    /// The database.
    pub db: String,
    /// The event's id.
    pub id: String,
    /// The event's state, replayed from the database's log.
    pub state: EventState,
}

impl Simulated {
    /// `arbiter simulate` of `stem` with `seed` and `extra` flags.
    pub fn new(stem: &str, seed: u64, extra: &[&str]) -> Simulated {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("sim");
        simulate_into(stem, seed, &out, extra);
        let db = out.join("arbiter.db").to_str().unwrap().to_string();
        let store = SqliteStore::open(&db).unwrap();
        let ev = store.list_events().unwrap().remove(0);
        let state = EventState::replay(&store.read(&ev.id).unwrap()).unwrap();
        Simulated {
            _dir: dir,
            out,
            db,
            id: ev.id.0,
            state,
        }
    }
}

/// The `export.json` that `simulate` wrote into `out`.
pub fn export_json(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("export.json")).unwrap()).unwrap()
}

/// The section `id` of a published export.
pub fn section_of<'a>(ex: &'a Value, id: &str) -> &'a Value {
    ex["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap()
}

/// Kunshan 2026 simulated with seed 3, 40 men and 12 women (Swiss, teams, a knockout stage,
/// prizes).
pub fn kunshan_40_12() -> Simulated {
    Simulated::new(
        "kunshan-2026",
        3,
        &["--players", "men=40", "--players", "women=12"],
    )
}

// ---------------------------------------------------------------------------------------
// A folder of its own.

/// A temporary folder holding a regulation (`reg.toml`) and a database (`arbiter.db`):
/// every command runs in the folder, on that database.
pub struct EventDir {
    dir: tempfile::TempDir,
}

impl EventDir {
    /// A fresh folder with `regulation` as its `reg.toml`, no database yet.
    pub fn new(regulation: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("reg.toml"), regulation).unwrap();
        EventDir { dir }
    }
    /// The path of `name` in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    /// The database.
    pub fn db(&self) -> PathBuf {
        self.path("arbiter.db")
    }
    /// Runs `arbiter ARGS --db DB` in the folder.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(BIN)
            .args(args)
            .arg("--db")
            .arg(self.db())
            .current_dir(self.dir.path())
            .output()
            .unwrap()
    }
    /// Runs, which must succeed; stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args);
        assert!(o.status.success(), "{args:?}: {}{}", stdout(&o), stderr(&o));
        String::from_utf8(o.stdout).unwrap()
    }
    /// Runs, expects exit 2 (refused, nothing written); stderr.
    pub fn refused(&self, args: &[&str]) -> String {
        let o = self.run(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        err
    }
    /// `event create` from `reg.toml`; the new event's id.
    pub fn create(&self) -> String {
        let reg = self.path("reg.toml");
        self.ok(&["event", "create", "--regulation", reg.to_str().unwrap()])
            .trim()
            .to_string()
    }
    /// The log of event `id` (`event export`).
    pub fn log(&self, id: &str) -> Value {
        serde_json::from_str(&self.ok(&["event", "export", id])).unwrap()
    }
    /// The entries of type `kind` in the log of event `id`.
    pub fn entries_of(&self, id: &str, kind: &str) -> Vec<Value> {
        entries_of_kind(&self.log(id), kind)
    }
}

// ---------------------------------------------------------------------------------------
// Servers.

/// A spawned process, killed and waited for when the test ends, however it ends.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Reads the stderr of a starting `arbiter serve` until the line announcing
/// `http://ADDR/…`: ADDR, or `None` if the process ends or `timeout` passes first. The rest
/// of stderr is drained on a thread, so the server never blocks on a full pipe.
pub fn announced_address(child: &mut Child, timeout: Duration) -> Option<String> {
    let err = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(err).lines();
    let deadline = Instant::now() + timeout;
    let mut addr = None;
    while Instant::now() < deadline {
        let Some(Ok(line)) = lines.next() else { break };
        if let Some(rest) = line.split("http://").nth(1) {
            addr = rest.split('/').next().map(str::to_string);
            break;
        }
    }
    std::thread::spawn(move || for _ in lines.by_ref() {});
    addr
}

// ---------------------------------------------------------------------------------------
// PDF.

/// The poppler tool `tool`, failing the test with a clear message if it is not installed.
pub fn poppler(tool: &str) -> Command {
    let probe = Command::new(tool).arg("-v").output();
    if probe.is_err() {
        panic!(
            "{tool} 未安装: 打印测试需要 poppler-utils (apt-get install poppler-utils) — \
             {tool} not found: the print tests need poppler-utils"
        );
    }
    Command::new(tool)
}

/// `arbiter print` of the document `doc` of event `id` in database `db` as a PDF into `pdf`,
/// plus `extra` flags; must succeed.
pub fn print_pdf(db: &str, id: &str, doc: &str, pdf: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "print",
        "--db",
        db,
        "--event",
        id,
        "--doc",
        doc,
        "--format",
        "pdf",
        "--out",
        pdf.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok_output(&args)
}

/// The text of `pdf` as `pdftotext -layout` lays it out (pages separated by form feeds).
pub fn pdftotext(pdf: &Path) -> String {
    let o = poppler("pdftotext")
        .args(["-layout", "-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap()
}
