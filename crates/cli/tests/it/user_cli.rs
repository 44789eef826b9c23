//! `arbiter user add | list | passwd` as a user runs them: the password comes from standard
//! input (never a flag), the account is stored with an argon2id hash that the web login
//! accepts, and bad input exits 2 with a message.

use crate::common;

use arbiter_store::{AccountStore, Role, SqliteStore};
use common::*;
use std::path::Path;

/// (stdout, stderr) of a run.
fn texts(o: &std::process::Output) -> (String, String) {
    (stdout(o), stderr(o))
}

fn db_arg(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn user_add_list_and_passwd() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("arbiter.db");
    let db = db_arg(&db);
    let o = run_with_stdin(
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
    let (out, err) = texts(&o);
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
            "plum-blossom-99\n",
            "已存在",
        ),
        (
            vec!["--login", "li", "--role", "referee"],
            "plum-blossom-99\n",
            "未知的角色",
        ),
        (vec!["--login", "li", "--role", "desk"], "short\n", "至少 8"),
        (
            vec!["--login", "li si", "--role", "desk"],
            "plum-blossom-99\n",
            "空白",
        ),
        (vec!["--login", "li", "--role", "desk"], "", "未读到密码"),
        // One of the 10,000 most common passwords; the login name inside the password.
        (
            vec!["--login", "li", "--role", "desk"],
            "password99\n",
            "密码过于常见",
        ),
        (
            vec!["--login", "zhang", "--role", "desk"],
            "Zhang-2026\n",
            "密码不能是登录名或包含登录名",
        ),
    ] {
        let mut a = vec!["user", "add", "--db", &db];
        a.extend(args.iter().copied());
        let o = run_with_stdin(&a, stdin);
        let (out, err) = texts(&o);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {out}{err}");
        assert!(err.contains(want), "{a:?}: {err}");
    }
    // A password is never a flag.
    let o = run_with_stdin(
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

    let o = run_with_stdin(
        &[
            "user", "add", "--db", &db, "--login", "li", "--role", "desk",
        ],
        "plum-blossom-99\r\n",
    );
    assert_eq!(o.status.code(), Some(0), "{:?}", texts(&o));
    let o = run_with_stdin(&["user", "list", "--db", &db], "");
    let (out, _) = texts(&o);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("li\t报名处 desk\tli\t"), "{out}");
    assert!(
        lines[2].starts_with("wang\t裁判长 chief_arbiter\t王裁判长\t"),
        "{out}"
    );
    assert!(!out.contains("argon2"), "the hash is never printed: {out}");

    let o = run_with_stdin(
        &["user", "passwd", "--db", &db, "--login", "li"],
        "another-pass\n",
    );
    assert_eq!(o.status.code(), Some(0), "{:?}", texts(&o));
    let store = SqliteStore::open(&db).expect("open");
    let u = store.user("li").expect("read").expect("stored");
    assert!(arbiter_web::auth::password::verify(
        "another-pass",
        &u.password_hash
    ));
    // `user passwd` keeps to the same rule.
    for pw in ["iloveyou1\n", "li-and-wang\n"] {
        let o = run_with_stdin(&["user", "passwd", "--db", &db, "--login", "wang"], pw);
        let (out, err) = texts(&o);
        assert_eq!(o.status.code(), Some(2), "{pw}: {out}{err}");
        assert!(err.contains("密码"), "{err}");
    }
    let o = run_with_stdin(
        &["user", "passwd", "--db", &db, "--login", "nobody"],
        "another-pass\n",
    );
    assert_eq!(o.status.code(), Some(2));
}
