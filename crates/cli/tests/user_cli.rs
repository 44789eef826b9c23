//! `arbiter user add | list | passwd` as a user runs them: the password comes from standard
//! input (never a flag), the account is stored with an argon2id hash that the web login
//! accepts, and bad input exits 2 with a message.

use arbiter_store::{AccountStore, Role, SqliteStore};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn arbiter");
    // A command that refuses before it reads the password closes its stdin: not an error.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("wait")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn db_arg(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn user_add_list_and_passwd() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("arbiter.db");
    let db = db_arg(&db);
    let o = run(
        &[
            "user",
            "add",
            "--db",
            &db,
            "--login",
            "wang",
            "--role",
            "chief_arbiter",
            "--name",
            "王裁判长",
        ],
        "长城长12345\n",
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains("已创建账户 account added: wang (王裁判长, 裁判长 chief_arbiter)"),
        "{out}"
    );

    let store = SqliteStore::open(&db).expect("open");
    let u = store.user("wang").expect("read").expect("stored");
    assert_eq!(u.role, Role::ChiefArbiter);
    assert!(
        u.password_hash.starts_with("$argon2id$"),
        "{}",
        u.password_hash
    );
    assert!(arbiter_web::auth::password::verify(
        "长城长12345",
        &u.password_hash
    ));
    assert!(!arbiter_web::auth::password::verify(
        "长城长12346",
        &u.password_hash
    ));
    drop(store);

    // The same login again, an unknown role, a short password, spaces in the name: exit 2.
    for (args, stdin, want) in [
        (
            vec!["--login", "wang", "--role", "arbiter"],
            "password99\n",
            "已存在",
        ),
        (
            vec!["--login", "li", "--role", "referee"],
            "password99\n",
            "未知的角色",
        ),
        (vec!["--login", "li", "--role", "desk"], "short\n", "至少 8"),
        (
            vec!["--login", "li si", "--role", "desk"],
            "password99\n",
            "空白",
        ),
        (vec!["--login", "li", "--role", "desk"], "", "未读到密码"),
    ] {
        let mut a = vec!["user", "add", "--db", &db];
        a.extend(args.iter().copied());
        let o = run(&a, stdin);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {out}{err}");
        assert!(err.contains(want), "{a:?}: {err}");
    }
    // A password is never a flag.
    let o = run(
        &[
            "user",
            "add",
            "--db",
            &db,
            "--login",
            "li",
            "--role",
            "desk",
            "--password",
            "x",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));

    let o = run(
        &[
            "user", "add", "--db", &db, "--login", "li", "--role", "desk",
        ],
        "password99\r\n",
    );
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    let o = run(&["user", "list", "--db", &db], "");
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("li\t报名处 desk\tli\t"), "{out}");
    assert!(
        lines[2].starts_with("wang\t裁判长 chief_arbiter\t王裁判长\t"),
        "{out}"
    );
    assert!(!out.contains("argon2"), "the hash is never printed: {out}");

    let o = run(
        &["user", "passwd", "--db", &db, "--login", "li"],
        "another-pass\n",
    );
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    let store = SqliteStore::open(&db).expect("open");
    let u = store.user("li").expect("read").expect("stored");
    assert!(arbiter_web::auth::password::verify(
        "another-pass",
        &u.password_hash
    ));
    let o = run(
        &["user", "passwd", "--db", &db, "--login", "nobody"],
        "another-pass\n",
    );
    assert_eq!(o.status.code(), Some(2));
}
