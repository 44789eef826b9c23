//! A `cargo fuzz`-equivalent on stable Rust, without coverage instrumentation: one target per
//! parser that reads outside input, a corpus in the repository (`crates/fuzz/corpus/<target>`),
//! byte-level mutations and structure-aware splicing (whole lines of other corpus files,
//! numbers replaced by boundary values, tokens of the corpus inserted), every input run under
//! `catch_unwind`. Crude feedback instead of coverage: an input whose outcome (accepted, or the
//! first words of its error) was not seen before joins the corpus.
//!
//! A panic is a finding: the input is written to the findings folder and reported. An input
//! that runs longer than the hang limit is a finding too (a watchdog writes it and stops the
//! process).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One fuzz target: its name (also its corpus folder) and the function under test. The
/// function returns a short signature of the outcome, used as novelty feedback.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]) -> String,
}

/// The targets: the regulation parser (and the `regulation check` summary), the CSV roster
/// importer, the workbook (.xlsx/.xls) importer, the TRF-16 reader (and writer), `event import` (parse, replay, verify, store),
/// and the game-record readers of `arbiter-xiangqi` (PGN, the three move notations, FEN).
pub const TARGETS: &[Target] = &[
    Target {
        name: "regulation",
        run: targets::regulation,
    },
    Target {
        name: "csv",
        run: targets::csv,
    },
    Target {
        name: "xlsx",
        run: targets::xlsx,
    },
    Target {
        name: "trf",
        run: targets::trf,
    },
    Target {
        name: "log",
        run: targets::log,
    },
    Target {
        name: "xiangqi",
        run: targets::xiangqi,
    },
];

pub mod targets {
    /// The outcome signature of an error: its first few characters with digits dropped, so
    /// that "line 3" and "line 4" count as the same kind of error.
    fn sig(prefix: &str, e: impl std::fmt::Display) -> String {
        let s: String = e
            .to_string()
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .take(40)
            .collect();
        format!("{prefix}:{s}")
    }

    pub fn regulation(bytes: &[u8]) -> String {
        let text = String::from_utf8_lossy(bytes);
        match arbiter_regulation::parse(&text, "fuzz.toml") {
            Ok(reg) => {
                let zh = reg.summary(arbiter_regulation::summary::Lang::Zh);
                let en = reg.summary(arbiter_regulation::summary::Lang::En);
                format!("ok:{}:{}", reg.sections.len(), (zh.len() + en.len()) / 512)
            }
            Err(e) => sig("err", e),
        }
    }

    /// The roster importer on any bytes: encoding detection (UTF-8, BOM, UTF-16, GB18030),
    /// CSV splitting, header search, mapping and validation.
    pub fn csv(bytes: &[u8]) -> String {
        roster(bytes, "fuzz.csv")
    }

    /// The workbook reader (calamine: .xlsx and .xls) and the same mapping.
    pub fn xlsx(bytes: &[u8]) -> String {
        roster(bytes, "fuzz.xlsx")
    }

    fn roster(bytes: &[u8], name: &str) -> String {
        match arbiter_import::read_roster(bytes, name, &[]) {
            Ok(i) => {
                let r = &i.roster;
                match r.problems.first() {
                    Some(p) if r.rows.is_empty() => sig("err", &p.message),
                    _ => format!(
                        "ok:{}:{}:{}",
                        i.format.name(),
                        r.rows.len().min(8),
                        r.problems.len().min(8)
                    ),
                }
            }
            Err(e) => sig("unreadable", &e.message),
        }
    }

    pub fn trf(bytes: &[u8]) -> String {
        let text = String::from_utf8_lossy(bytes);
        match arbiter_trf::parse(&text, "fuzz.trf") {
            Ok(t) => {
                // What was read is written again; that text must read back.
                let again = arbiter_trf::write(&t);
                match arbiter_trf::parse(&again, "again.trf") {
                    Ok(u) => format!("ok:{}:{}", t.players.len().min(8), u.rounds_played),
                    Err(e) => sig("rewrite", e),
                }
            }
            Err(e) => sig("err", e),
        }
    }

    /// `event import`: parse the document, verify the log, then create it in a fresh
    /// in-memory store (which replays it again).
    pub fn log(bytes: &[u8]) -> String {
        use arbiter_store::EventStore;
        let text = String::from_utf8_lossy(bytes);
        let doc = match arbiter_store::parse_export(&text) {
            Ok(d) => d,
            Err(e) => return sig("parse", e),
        };
        if doc.entries.is_empty() {
            return "empty".into();
        }
        let diffs = arbiter_director::verify(&doc.entries, None);
        if let Some(d) = diffs.first() {
            return sig("verify", &d.what);
        }
        let store = match arbiter_store::SqliteStore::open_in_memory() {
            Ok(s) => s,
            Err(e) => return sig("store", e),
        };
        match store.create_with_log(&doc.name, &doc.entries) {
            Ok(_) => format!("ok:{}", doc.entries.len().min(8)),
            Err(e) => sig("import", e),
        }
    }

    /// The game-record readers: the text as PGN (every game read is written in its format
    /// and must read back as the same game), as a FEN on its first line, and as a move list
    /// in any notation from the start position (every move played must be written and read
    /// back in the three notations).
    pub fn xiangqi(bytes: &[u8]) -> String {
        use arbiter_xiangqi::{pgn, Game, Notation, Position};
        let text = String::from_utf8_lossy(bytes);
        let pgn_sig = match pgn::read_all(&text) {
            Ok(games) => {
                for g in &games {
                    let again = pgn::write(g);
                    match pgn::read(&again) {
                        Ok(back) => assert_eq!(back.game, g.game, "PGN rewrite differs:\n{again}"),
                        Err(e) => panic!("PGN rewrite does not read: {e}\n{again}"),
                    }
                }
                format!("pgn-ok:{}", games.len().min(4))
            }
            Err(e) => sig("pgn", e),
        };
        let fen_sig = match Position::from_fen(text.lines().next().unwrap_or("")) {
            Ok(p) => {
                assert_eq!(Position::from_fen(&p.fen()).as_ref(), Ok(&p));
                let n = p.clone().perft(2);
                format!("fen-ok:{}", n.min(8))
            }
            Err(e) => sig("fen", e),
        };
        let mut g = Game::new(Position::start());
        let mut played = 0;
        for tok in text.split_whitespace().take(400) {
            if g.play_text(tok).is_err() {
                break;
            }
            played += 1;
        }
        let mut p = g.start().clone();
        for &m in g.moves() {
            for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
                let t = p.to_notation(m, n);
                assert_eq!(p.parse_move(&t), Ok(m), "{n} `{t}` in {}", p.fen());
            }
            p.make_move(m);
        }
        // Accepted when any reader took it: a PGN, a FEN, or at least one move.
        let accepted =
            pgn_sig.starts_with("pgn-ok:") || fen_sig.starts_with("fen-ok:") || played > 0;
        let sig = format!("{pgn_sig}|{fen_sig}|moves:{}", played.min(4));
        if accepted {
            format!("ok:{sig}")
        } else {
            sig
        }
    }
}

/// How long and how hard to fuzz one target.
#[derive(Debug, Clone)]
pub struct Budget {
    pub duration: Duration,
    pub max_execs: Option<u64>,
    pub seed: u64,
    /// An input running longer than this is a hang.
    pub hang: Duration,
}

/// A panic or a hang, with the input that caused it.
#[derive(Debug, Clone)]
pub struct Finding {
    pub kind: &'static str,
    pub message: String,
    pub saved: Option<PathBuf>,
}

/// What a run of one target did.
#[derive(Debug, Clone)]
pub struct Report {
    pub target: &'static str,
    pub execs: u64,
    pub elapsed: Duration,
    pub corpus_start: usize,
    pub corpus_end: usize,
    pub outcomes: usize,
    pub findings: Vec<Finding>,
}

/// Read every file of a corpus folder, in name order (deterministic).
pub fn load_corpus(dir: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    names.iter().map(std::fs::read).collect()
}

/// Values at the edges of what numbers in these formats can hold.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "255",
    "256",
    "638",
    "10000",
    "10001",
    "65535",
    "65536",
    "1000000",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551616",
    "99999999999999999999999",
    "-9223372036854775808",
    "1e309",
    "0.5",
    "-0",
    "nan",
    "inf",
];

/// Bytes that mean something to the formats (quotes, separators, brackets, line ends).
const SPECIAL: &[u8] = b"\"',=[]{}\n\r\t #:;-+.0\\\x00\xff\xe4\xbd\xa0";

fn tokens(corpus: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut set = BTreeSet::new();
    for c in corpus {
        let text = String::from_utf8_lossy(c);
        for t in text.split(|ch: char| ch.is_whitespace() || ",=[]{}\"".contains(ch)) {
            if !t.is_empty() && t.len() <= 40 {
                set.insert(t.as_bytes().to_vec());
            }
        }
    }
    for n in NUMBERS {
        set.insert(n.as_bytes().to_vec());
    }
    set.into_iter().collect()
}

fn lines(b: &[u8]) -> Vec<&[u8]> {
    b.split_inclusive(|&c| c == b'\n').collect()
}

/// Upper bound of a mutated input's length.
const MAX_LEN: usize = 512 * 1024;

/// One mutation of `input`, drawing from the corpus and the dictionary.
fn mutate(rng: &mut ChaCha8Rng, input: &mut Vec<u8>, corpus: &[Vec<u8>], dict: &[Vec<u8>]) {
    let len = input.len();
    match rng.gen_range(0..12) {
        // Flip a bit.
        0 if len > 0 => {
            let i = rng.gen_range(0..len);
            input[i] ^= 1 << rng.gen_range(0..8);
        }
        // A meaningful byte.
        1 if len > 0 => {
            let i = rng.gen_range(0..len);
            input[i] = SPECIAL[rng.gen_range(0..SPECIAL.len())];
        }
        // Delete a range.
        2 if len > 0 => {
            let a = rng.gen_range(0..len);
            let b = (a + rng.gen_range(1..=64.min(len - a))).min(len);
            input.drain(a..b);
        }
        // Duplicate a range somewhere.
        3 if len > 0 => {
            let a = rng.gen_range(0..len);
            let b = (a + rng.gen_range(1..=128.min(len - a))).min(len);
            let piece = input[a..b].to_vec();
            let at = rng.gen_range(0..=input.len());
            input.splice(at..at, piece);
        }
        // Insert a token of the corpus or a boundary number.
        4 | 5 => {
            let t = &dict[rng.gen_range(0..dict.len())];
            let at = rng.gen_range(0..=len);
            input.splice(at..at, t.iter().copied());
        }
        // Replace a run of digits with a boundary number.
        6 | 7 => {
            let starts: Vec<usize> = (0..len)
                .filter(|&i| {
                    input[i].is_ascii_digit() && (i == 0 || !input[i - 1].is_ascii_digit())
                })
                .collect();
            if let Some(&a) = starts.get(rng.gen_range(0..starts.len().max(1))) {
                let mut b = a;
                while b < len && input[b].is_ascii_digit() {
                    b += 1;
                }
                let n = NUMBERS[rng.gen_range(0..NUMBERS.len())];
                input.splice(a..b, n.bytes());
            }
        }
        // Splice: some lines of another corpus file replace some lines of this one.
        8 | 9 if !corpus.is_empty() => {
            let other = &corpus[rng.gen_range(0..corpus.len())];
            let theirs = lines(other);
            let mine = lines(input);
            if theirs.is_empty() {
                return;
            }
            let ta = rng.gen_range(0..theirs.len());
            let tb = (ta + rng.gen_range(1..=8)).min(theirs.len());
            let ma = rng.gen_range(0..=mine.len());
            let mb = (ma + rng.gen_range(0..=4)).min(mine.len());
            let mut out = Vec::with_capacity(input.len() + 256);
            for l in &mine[..ma] {
                out.extend_from_slice(l);
            }
            for l in &theirs[ta..tb] {
                out.extend_from_slice(l);
            }
            for l in &mine[mb..] {
                out.extend_from_slice(l);
            }
            *input = out;
        }
        // Repeat a line many times (large files, many rows, duplicate keys).
        10 => {
            let mine = lines(input);
            if mine.is_empty() {
                return;
            }
            let i = rng.gen_range(0..mine.len());
            let line = mine[i].to_vec();
            let at: usize = mine[..=i].iter().map(|l| l.len()).sum();
            let k = rng.gen_range(1..=64);
            let rep: Vec<u8> = line.iter().copied().cycle().take(line.len() * k).collect();
            input.splice(at..at, rep);
        }
        // Truncate.
        _ if len > 0 => {
            let n = rng.gen_range(0..len);
            input.truncate(n);
        }
        _ => input.push(SPECIAL[rng.gen_range(0..SPECIAL.len())]),
    }
    input.truncate(MAX_LEN);
}

fn hash(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3)
    })
}

thread_local! {
    /// Whether this thread is running a target under [`caught`].
    static CAPTURING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The message of this thread's last panic under [`caught`].
    static LAST: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Installs, once per process, the panic hook that records a panic of a target run under
/// [`caught`] on its own thread (quietly) and leaves every other panic to the default hook.
/// Installed once and never taken down: two fuzz runs on two threads (the tests) do not
/// swap each other's hook.
fn install_hook() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CAPTURING.with(|c| c.get()) {
                return default(info);
            }
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            LAST.with(|l| *l.borrow_mut() = Some(format!("{msg} at {at}")));
        }));
    });
}

/// Runs `f`, a panic returned as its message.
fn caught<T>(f: impl FnOnce() -> T + std::panic::UnwindSafe) -> Result<T, String> {
    install_hook();
    CAPTURING.with(|c| c.set(true));
    let r = std::panic::catch_unwind(f);
    CAPTURING.with(|c| c.set(false));
    r.map_err(|_| {
        LAST.with(|l| l.borrow_mut().take())
            .unwrap_or_else(|| "panic".into())
    })
}

fn save(dir: &Path, target: &str, kind: &str, input: &[u8]) -> Option<PathBuf> {
    std::fs::create_dir_all(dir).ok()?;
    let p = dir.join(format!("{target}-{kind}-{:016x}", hash(input)));
    std::fs::write(&p, input).ok()?;
    Some(p)
}

/// Run one input of a target (no mutation): a panic is returned as its message.
pub fn run_one(target: &Target, input: &[u8]) -> Result<String, String> {
    caught(|| (target.run)(input))
}

/// Fuzz one target over `corpus` within `budget`; findings are written to `findings`.
pub fn fuzz(target: &Target, corpus: Vec<Vec<u8>>, budget: &Budget, findings: &Path) -> Report {
    let start = Instant::now();
    let dict = tokens(&corpus);
    let mut pool = corpus;
    if pool.is_empty() {
        pool.push(Vec::new());
    }
    let corpus_start = pool.len();
    let mut rng = ChaCha8Rng::seed_from_u64(budget.seed);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut panics: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();

    // Watchdog: an input still running after the hang limit is written and the process stops.
    let current: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
    let began = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let (current, began, done) = (current.clone(), began.clone(), done.clone());
        let (hang, dir, name) = (budget.hang, findings.to_path_buf(), target.name);
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let b = began.load(Ordering::Relaxed);
                let now = start.elapsed().as_millis() as u64;
                if b > 0 && now.saturating_sub(b) > hang.as_millis() as u64 {
                    let input = current.lock().map(|c| c.clone()).unwrap_or_default();
                    let p = save(&dir, name, "hang", &input);
                    eprintln!(
                        "{name}: 输入运行超过 {:?}, 视为挂起 (hang): {}",
                        hang,
                        p.map(|p| p.display().to_string()).unwrap_or_default()
                    );
                    std::process::exit(1);
                }
            }
        })
    };

    let mut execs = 0u64;
    // The corpus itself first, then mutants.
    let seeds: Vec<Vec<u8>> = pool.clone();
    let mut seeds = seeds.into_iter();
    loop {
        if start.elapsed() >= budget.duration || budget.max_execs.is_some_and(|m| execs >= m) {
            break;
        }
        let input = match seeds.next() {
            Some(s) => s,
            None => {
                let mut x = pool[rng.gen_range(0..pool.len())].clone();
                for _ in 0..rng.gen_range(1..=4) {
                    mutate(&mut rng, &mut x, &pool, &dict);
                }
                x
            }
        };
        if let Ok(mut c) = current.lock() {
            c.clone_from(&input);
        }
        began.store(start.elapsed().as_millis().max(1) as u64, Ordering::Relaxed);
        let r = caught(|| (target.run)(&input));
        began.store(0, Ordering::Relaxed);
        execs += 1;
        match r {
            Ok(signature) => {
                if seen.insert(signature) && pool.len() < 4096 {
                    pool.push(input);
                }
            }
            Err(msg) => {
                if panics.insert(msg.clone()) {
                    let saved = save(findings, target.name, "panic", &input);
                    out.push(Finding {
                        kind: "panic",
                        message: msg,
                        saved,
                    });
                }
            }
        }
    }
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    Report {
        target: target.name,
        execs,
        elapsed: start.elapsed(),
        corpus_start,
        corpus_end: pool.len(),
        outcomes: seen.len(),
        findings: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parser with a planted bug: it panics on a line that starts with `=`.
    fn planted(bytes: &[u8]) -> String {
        let text = String::from_utf8_lossy(bytes);
        for line in text.lines() {
            if line.starts_with('=') {
                let v: Vec<u8> = Vec::new();
                let _ = v[line.len()]; // index out of range
            }
        }
        format!("ok:{}", text.lines().count().min(4))
    }

    #[test]
    fn the_loop_finds_a_planted_panic_and_saves_its_input() {
        let dir = std::env::temp_dir().join(format!("arbiter-fuzz-test-{}", std::process::id()));
        let target = Target {
            name: "planted",
            run: planted,
        };
        let corpus = vec![b"name = 1\nrounds = 7\n".to_vec(), b"a,b\n1,2\n".to_vec()];
        let budget = Budget {
            duration: Duration::from_secs(20),
            max_execs: Some(200_000),
            seed: 7,
            hang: Duration::from_secs(10),
        };
        let r = fuzz(&target, corpus, &budget, &dir);
        assert!(r.execs > 100, "{r:?}");
        let f = r
            .findings
            .first()
            .unwrap_or_else(|| panic!("not found: {r:?}"));
        assert_eq!(f.kind, "panic");
        assert!(f.message.contains("index out of bounds"), "{}", f.message);
        let saved = std::fs::read(f.saved.as_ref().expect("saved")).unwrap();
        assert!(
            run_one(&target, &saved).is_err(),
            "the saved input replays the panic"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_real_targets_accept_their_corpus_without_panicking() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        for t in TARGETS {
            let files = load_corpus(&root.join(t.name)).unwrap();
            assert!(files.len() >= 2, "{}: corpus too small", t.name);
            for f in &files {
                let sig = run_one(t, f).unwrap_or_else(|e| panic!("{}: {e}", t.name));
                assert!(
                    sig.starts_with("ok"),
                    "{}: a corpus file is refused: {sig}",
                    t.name
                );
            }
        }
    }
}
