//! `arbiter user add | list | passwd`: the accounts of the web desk (`arbiter serve`). The
//! first account is made here. A password is never a flag (it would stay in the shell's
//! history and in `ps`): it is read from a prompt without echo, or as the first line of
//! standard input when that is not a terminal (scripts: `echo "$PW" | arbiter user add …`).

use anyhow::Context;
use arbiter_store::accounts::{check_login, User};
use arbiter_store::{AccountStore, Role};
use arbiter_web::auth::password;
use clap::{Args, Subcommand};
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum UserCmd {
    /// 新建账户 — add an account (password from a prompt or stdin)
    Add(AddArgs),
    /// 列出账户 — list the accounts
    List(ListArgs),
    /// 修改密码 — set an account's password (its sessions end)
    Passwd(PasswdArgs),
}

#[derive(Args)]
pub struct AddArgs {
    /// 登录名 — login name (recorded as the actor of every log entry the account makes)
    #[arg(long)]
    login: String,
    /// 角色 — role: organiser (组委会) | chief_arbiter (裁判长) | arbiter (裁判) | desk (报名处)
    #[arg(long)]
    role: String,
    /// 显示名 — name shown on pages (default: the login name)
    #[arg(long)]
    name: Option<String>,
    /// 数据库文件 — database file (created if missing)
    #[arg(long, default_value = super::DEFAULT_DB)]
    db: PathBuf,
}

#[derive(Args)]
pub struct ListArgs {
    /// 数据库文件 — database file
    #[arg(long, default_value = super::DEFAULT_DB)]
    db: PathBuf,
}

#[derive(Args)]
pub struct PasswdArgs {
    /// 登录名 — login name
    #[arg(long)]
    login: String,
    /// 数据库文件 — database file
    #[arg(long, default_value = super::DEFAULT_DB)]
    db: PathBuf,
}

pub fn run(c: UserCmd) -> anyhow::Result<u8> {
    match c {
        UserCmd::Add(a) => add(a),
        UserCmd::List(a) => list(a),
        UserCmd::Passwd(a) => passwd(a),
    }
}

/// The new password of the account `login`: prompted twice without echo on a terminal, else
/// stdin's first line; refused if too short or long, too common, or holding the login name.
fn read_password(login: &str) -> anyhow::Result<Result<String, String>> {
    let pw = if std::io::stdin().is_terminal() {
        let a = rpassword::prompt_password("密码 (password): ")
            .context("读取密码 (reading the password)")?;
        let b = rpassword::prompt_password("再输入一次 (again): ")
            .context("读取密码 (reading the password)")?;
        if a != b {
            return Ok(Err("两次输入的密码不同 (the passwords differ)".into()));
        }
        a
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("从标准输入读取密码 (reading the password from stdin)")?;
        line.trim_end_matches(['\r', '\n']).to_string()
    };
    if pw.is_empty() {
        return Ok(Err(
            "未读到密码: 请在提示时输入, 或从标准输入传入 (no password: type it at the prompt or pipe it to stdin)"
                .into(),
        ));
    }
    Ok(password::check_new(login, &pw).map(|()| pw))
}

fn fail(msg: &str) -> anyhow::Result<u8> {
    eprintln!("错误 error: {msg}");
    Ok(2)
}

fn add(a: AddArgs) -> anyhow::Result<u8> {
    let role: Role = match a.role.parse() {
        Ok(r) => r,
        Err(e) => return fail(&format!("--role: {e}")),
    };
    if let Err(e) = check_login(&a.login) {
        return fail(&format!("--login: {e}"));
    }
    let pw = match read_password(&a.login)? {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let hash = match password::hash(&pw) {
        Ok(h) => h,
        Err(e) => anyhow::bail!(e),
    };
    let store = super::event::open_db(&a.db)?;
    let user = User {
        display_name: a.name.unwrap_or_else(|| a.login.clone()),
        login: a.login,
        role,
        password_hash: hash,
        created: super::event::now(),
    };
    match store.add_user(&user) {
        Ok(()) => {}
        Err(arbiter_store::StoreError::Account(e)) => return fail(&e),
        Err(e) => return Err(e.into()),
    }
    println!(
        "已创建账户 account added: {} ({}, {} {})",
        user.login,
        user.display_name,
        role.zh(),
        role.as_str()
    );
    Ok(0)
}

fn list(a: ListArgs) -> anyhow::Result<u8> {
    if super::db_missing(&a.db) {
        return fail(&format!(
            "{}: 数据库不存在 (database not found)",
            a.db.display()
        ));
    }
    let store = super::event::open_db(&a.db)?;
    let users = store.users()?;
    if users.is_empty() {
        println!(
            "没有账户; 用 「arbiter user add」 创建 (no accounts; add one with 「arbiter user add」)"
        );
        return Ok(0);
    }
    println!("登录名 login\t角色 role\t显示名 name\t创建 created");
    for u in users {
        println!(
            "{}\t{} {}\t{}\t{}",
            u.login,
            u.role.zh(),
            u.role.as_str(),
            u.display_name,
            u.created
        );
    }
    Ok(0)
}

fn passwd(a: PasswdArgs) -> anyhow::Result<u8> {
    if super::db_missing(&a.db) {
        return fail(&format!(
            "{}: 数据库不存在 (database not found)",
            a.db.display()
        ));
    }
    let store = super::event::open_db(&a.db)?;
    if store.user(&a.login)?.is_none() {
        return fail(&format!("账户 「{}」 不存在 (unknown account)", a.login));
    }
    let pw = match read_password(&a.login)? {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let hash = match password::hash(&pw) {
        Ok(h) => h,
        Err(e) => anyhow::bail!(e),
    };
    store.set_password(&a.login, &hash)?;
    println!("已修改密码 password set: {}", a.login);
    Ok(0)
}
