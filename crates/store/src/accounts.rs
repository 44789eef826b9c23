//! Accounts of the people who run an event (组委会, 裁判长, 裁判, 报名处), their login
//! sessions and the failed-login counters behind the login rate limit.
//!
//! The store keeps only what it is given: password hashes (argon2id strings made by the web
//! shell), session tokens already hashed (the raw token lives only in the browser's cookie),
//! and times as Unix seconds supplied by the caller. No hashing, randomness or clock here.
//! [`AccountStore`] is the interface; [`crate::SqliteStore`] implements it (tables created
//! by schema migration v2), and a PostgreSQL store can implement the same trait.

use crate::StoreError;

pub use arbiter_types::Role;

/// A stored account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Login name, unique; also the `actor` recorded with every log entry the account makes.
    pub login: String,
    /// Name shown on pages (e.g. 王裁判).
    pub display_name: String,
    pub role: Role,
    /// PHC string of the password hash (argon2id).
    pub password_hash: String,
    /// When the account was made (RFC 3339).
    pub created: String,
}

/// A login session. The token itself is never stored, only its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// Hash of the session token (hex), the key the cookie is looked up by.
    pub token_hash: String,
    pub login: String,
    /// The session's CSRF token, sent back in every form.
    pub csrf: String,
    /// Unix seconds.
    pub created: i64,
    /// Unix seconds; the session is void from this time on.
    pub expires: i64,
}

/// What an account may reach and whether it may log in, beside its [`User`] row (schema
/// v3, table `account_access`). An account without a row has the default: enabled, every
/// event, no password to change.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Access {
    /// The account may not log in; its sessions ended when it was disabled.
    pub disabled: bool,
    /// The events (ids) the account may open; empty: every event.
    pub events: Vec<String>,
    /// The password is a one-time password (given by a chief arbiter's reset or at
    /// creation): the account must set its own before anything else.
    pub must_change_password: bool,
}

impl Access {
    /// Whether the account may open the event `ev`.
    pub fn reaches(&self, ev: &str) -> bool {
        self.events.is_empty() || self.events.iter().any(|e| e == ev)
    }
    /// The events as stored (one id a line).
    pub(crate) fn events_text(&self) -> String {
        self.events.join("\n")
    }
    pub(crate) fn from_row(disabled: i64, events: &str, must_change: i64) -> Access {
        Access {
            disabled: disabled != 0,
            events: events
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
            must_change_password: must_change != 0,
        }
    }
}

/// Failed logins counted under one key (a login name or a client address).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failures {
    pub count: u32,
    /// Unix seconds of the latest failure.
    pub last: i64,
}

/// Check a login name: 1–64 characters, no whitespace or control characters.
pub fn check_login(login: &str) -> Result<(), String> {
    let n = login.chars().count();
    if n == 0 || n > 64 {
        return Err(format!(
            "登录名应为 1–64 个字符, `{login}` 有 {n} 个 (login name must be 1–64 characters)"
        ));
    }
    if let Some(c) = login.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "登录名 `{login}` 含有空白或控制字符 {c:?} (login name must not contain spaces or control characters)"
        ));
    }
    Ok(())
}

/// Storage of accounts, sessions and failed-login counters.
pub trait AccountStore {
    /// A new account; refused if the login name is taken ([`StoreError::Account`]).
    fn add_user(&self, user: &User) -> Result<(), StoreError>;
    /// The account with this login name.
    fn user(&self, login: &str) -> Result<Option<User>, StoreError>;
    /// Every account, by login name.
    fn users(&self) -> Result<Vec<User>, StoreError>;
    /// Replace an account's password hash; all its sessions end.
    fn set_password(&self, login: &str, password_hash: &str) -> Result<(), StoreError>;

    /// Store a new session (its user must exist).
    fn create_session(&self, session: &Session) -> Result<(), StoreError>;
    /// The session with this token hash and its account, if it has not expired at `now`.
    fn session(&self, token_hash: &str, now: i64) -> Result<Option<(Session, User)>, StoreError>;
    /// End a session (logout). Ending an unknown session is not an error.
    fn delete_session(&self, token_hash: &str) -> Result<(), StoreError>;
    /// Remove sessions expired at `now`; returns how many.
    fn purge_sessions(&self, now: i64) -> Result<usize, StoreError>;

    /// Count one failed login under `key` at `now`. Failures older than `window` seconds
    /// before `now` are forgotten first. Returns the count after this one.
    fn record_failure(&self, key: &str, now: i64, window: i64) -> Result<Failures, StoreError>;
    /// Failures under `key` within `window` seconds before `now`.
    fn failures(&self, key: &str, now: i64, window: i64) -> Result<Option<Failures>, StoreError>;
    /// Forget the failures under `key` (after a successful login).
    fn clear_failures(&self, key: &str) -> Result<(), StoreError>;
    /// The secret of `event` for the players' result codes (`arbiter_director::claim`): the
    /// one stored, or `fresh` (random, from the caller) stored now if there is none. Kept
    /// beside the log, never in it or in an export.
    fn claim_secret(&self, event: &str, fresh: &str) -> Result<String, StoreError>;
    /// Remove every counter whose latest failure is more than `window` seconds before `now`
    /// (they count for nothing any more); returns how many.
    fn purge_failures(&self, now: i64, window: i64) -> Result<usize, StoreError>;

    /// What the account may reach ([`Access`]; the default for an account without a row).
    fn access(&self, login: &str) -> Result<Access, StoreError>;
    /// Set what the account may reach; disabling it ends its sessions.
    fn set_access(&self, login: &str, access: &Access) -> Result<(), StoreError>;
}

mod sqlite_impl {
    use super::*;
    use crate::SqliteStore;
    use rusqlite::{params, OptionalExtension, Row};

    fn user_of(r: &Row<'_>) -> rusqlite::Result<(String, String, String, String, String)> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    }

    fn to_user(
        (login, display_name, role, password_hash, created): (
            String,
            String,
            String,
            String,
            String,
        ),
    ) -> Result<User, StoreError> {
        let role = role
            .parse()
            .map_err(|e: String| StoreError::Database(format!("users `{login}`: {e}")))?;
        Ok(User {
            login,
            display_name,
            role,
            password_hash,
            created,
        })
    }

    const USER_COLUMNS: &str = "login, display_name, role, password_hash, created";

    impl AccountStore for SqliteStore {
        fn add_user(&self, u: &User) -> Result<(), StoreError> {
            check_login(&u.login).map_err(StoreError::Account)?;
            let n = self.conn.execute(
                "INSERT INTO users (login, display_name, role, password_hash, created)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(login) DO NOTHING",
                params![
                    u.login,
                    u.display_name,
                    u.role.as_str(),
                    u.password_hash,
                    u.created
                ],
            )?;
            if n == 0 {
                return Err(StoreError::Account(format!(
                    "账户 `{}` 已存在 (login name taken)",
                    u.login
                )));
            }
            Ok(())
        }

        fn user(&self, login: &str) -> Result<Option<User>, StoreError> {
            let row = self
                .conn
                .query_row(
                    &format!("SELECT {USER_COLUMNS} FROM users WHERE login = ?1"),
                    [login],
                    user_of,
                )
                .optional()?;
            row.map(to_user).transpose()
        }

        fn users(&self) -> Result<Vec<User>, StoreError> {
            let mut st = self
                .conn
                .prepare(&format!("SELECT {USER_COLUMNS} FROM users ORDER BY login"))?;
            let rows = st.query_map([], user_of)?;
            let mut out = Vec::new();
            for r in rows {
                out.push(to_user(r?)?);
            }
            Ok(out)
        }

        fn set_password(&self, login: &str, password_hash: &str) -> Result<(), StoreError> {
            let tx = self.conn.unchecked_transaction()?;
            let n = tx.execute(
                "UPDATE users SET password_hash = ?1 WHERE login = ?2",
                params![password_hash, login],
            )?;
            if n == 0 {
                return Err(StoreError::Account(format!(
                    "账户 `{login}` 不存在 (unknown account)"
                )));
            }
            tx.execute("DELETE FROM sessions WHERE login = ?1", [login])?;
            tx.commit()?;
            Ok(())
        }

        fn create_session(&self, s: &Session) -> Result<(), StoreError> {
            if self.user(&s.login)?.is_none() {
                return Err(StoreError::Account(format!(
                    "账户 `{}` 不存在 (unknown account)",
                    s.login
                )));
            }
            self.conn.execute(
                "INSERT INTO sessions (token_hash, login, csrf, created, expires)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![s.token_hash, s.login, s.csrf, s.created, s.expires],
            )?;
            Ok(())
        }

        fn session(
            &self,
            token_hash: &str,
            now: i64,
        ) -> Result<Option<(Session, User)>, StoreError> {
            let row = self
                .conn
                .query_row(
                    "SELECT s.token_hash, s.login, s.csrf, s.created, s.expires,
                            u.login, u.display_name, u.role, u.password_hash, u.created
                     FROM sessions s JOIN users u ON u.login = s.login
                     WHERE s.token_hash = ?1 AND s.expires > ?2",
                    params![token_hash, now],
                    |r| {
                        Ok((
                            Session {
                                token_hash: r.get(0)?,
                                login: r.get(1)?,
                                csrf: r.get(2)?,
                                created: r.get(3)?,
                                expires: r.get(4)?,
                            },
                            (r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?),
                        ))
                    },
                )
                .optional()?;
            match row {
                None => Ok(None),
                Some((s, u)) => Ok(Some((s, to_user(u)?))),
            }
        }

        fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
            self.conn
                .execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])?;
            Ok(())
        }

        fn purge_sessions(&self, now: i64) -> Result<usize, StoreError> {
            Ok(self
                .conn
                .execute("DELETE FROM sessions WHERE expires <= ?1", [now])?)
        }

        fn record_failure(&self, key: &str, now: i64, window: i64) -> Result<Failures, StoreError> {
            let (count, last): (i64, i64) = self.conn.query_row(
                "INSERT INTO login_failures (key, count, last) VALUES (?1, 1, ?2)
                 ON CONFLICT(key) DO UPDATE SET
                     count = CASE WHEN last < ?2 - ?3 THEN 1 ELSE count + 1 END,
                     last = ?2
                 RETURNING count, last",
                params![key, now, window],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            Ok(Failures {
                count: u32::try_from(count).unwrap_or(u32::MAX),
                last,
            })
        }

        fn failures(
            &self,
            key: &str,
            now: i64,
            window: i64,
        ) -> Result<Option<Failures>, StoreError> {
            let row: Option<(i64, i64)> = self
                .conn
                .query_row(
                    "SELECT count, last FROM login_failures WHERE key = ?1 AND last >= ?2 - ?3",
                    params![key, now, window],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            Ok(row.map(|(count, last)| Failures {
                count: u32::try_from(count).unwrap_or(u32::MAX),
                last,
            }))
        }

        fn clear_failures(&self, key: &str) -> Result<(), StoreError> {
            self.conn
                .execute("DELETE FROM login_failures WHERE key = ?1", [key])?;
            Ok(())
        }

        fn claim_secret(&self, event: &str, fresh: &str) -> Result<String, StoreError> {
            self.conn.execute(
                "INSERT INTO event_secrets (event, secret) VALUES (?1, ?2)
                 ON CONFLICT(event) DO NOTHING",
                params![event, fresh],
            )?;
            Ok(self.conn.query_row(
                "SELECT secret FROM event_secrets WHERE event = ?1",
                [event],
                |r| r.get(0),
            )?)
        }

        fn access(&self, login: &str) -> Result<Access, StoreError> {
            let row: Option<(i64, String, i64)> = self
                .conn
                .query_row(
                    "SELECT disabled, events, must_change FROM account_access WHERE login = ?1",
                    [login],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
            Ok(row.map_or_else(Access::default, |(d, e, m)| Access::from_row(d, &e, m)))
        }

        fn set_access(&self, login: &str, a: &Access) -> Result<(), StoreError> {
            if self.user(login)?.is_none() {
                return Err(StoreError::Account(format!(
                    "账户 `{login}` 不存在 (unknown account)"
                )));
            }
            let tx = self.conn.unchecked_transaction()?;
            tx.execute(
                "INSERT INTO account_access (login, disabled, events, must_change)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(login) DO UPDATE SET disabled = ?2, events = ?3, must_change = ?4",
                params![
                    login,
                    i64::from(a.disabled),
                    a.events_text(),
                    i64::from(a.must_change_password)
                ],
            )?;
            if a.disabled {
                tx.execute("DELETE FROM sessions WHERE login = ?1", [login])?;
            }
            tx.commit()?;
            Ok(())
        }

        fn purge_failures(&self, now: i64, window: i64) -> Result<usize, StoreError> {
            Ok(self.conn.execute(
                "DELETE FROM login_failures WHERE last < ?1 - ?2",
                params![now, window],
            )?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SqliteStore;

    fn user(login: &str, role: Role) -> User {
        User {
            login: login.into(),
            display_name: format!("{login} 显示名"),
            role,
            password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
            created: "2026-05-01T08:00:00+08:00".into(),
        }
    }

    fn session(token: &str, login: &str, expires: i64) -> Session {
        Session {
            token_hash: token.into(),
            login: login.into(),
            csrf: format!("csrf-{token}"),
            created: 1000,
            expires,
        }
    }

    #[test]
    fn roles_round_trip_and_unknown_is_named() {
        for r in Role::ALL {
            assert_eq!(r.as_str().parse::<Role>().unwrap(), r);
        }
        let e = "referee".parse::<Role>().unwrap_err();
        assert!(
            e.contains("`referee`") && e.contains("chief_arbiter"),
            "{e}"
        );
    }

    #[test]
    fn login_names_are_checked() {
        assert!(check_login("wang").is_ok());
        assert!(check_login("王裁判").is_ok());
        assert!(check_login("").unwrap_err().contains("1–64"));
        assert!(check_login("a b").unwrap_err().contains("空白"));
        assert!(check_login(&"x".repeat(65)).is_err());
    }

    fn users_are_added_listed_and_unique(s: &dyn AccountStore) {
        s.add_user(&user("wang", Role::ChiefArbiter)).unwrap();
        s.add_user(&user("li", Role::Desk)).unwrap();
        let e = s.add_user(&user("wang", Role::Arbiter)).unwrap_err();
        assert!(e.to_string().contains("`wang` 已存在"), "{e}");
        let all = s.users().unwrap();
        assert_eq!(
            all.iter().map(|u| u.login.as_str()).collect::<Vec<_>>(),
            ["li", "wang"]
        );
        assert_eq!(s.user("wang").unwrap().unwrap().role, Role::ChiefArbiter);
        assert_eq!(s.user("nobody").unwrap(), None);
    }

    fn sessions_expire_and_end(s: &dyn AccountStore) {
        s.add_user(&user("wang", Role::Arbiter)).unwrap();
        s.create_session(&session("t1", "wang", 2000)).unwrap();
        s.create_session(&session("t2", "wang", 5000)).unwrap();
        let (sess, u) = s.session("t1", 1999).unwrap().unwrap();
        assert_eq!((sess.csrf.as_str(), u.login.as_str()), ("csrf-t1", "wang"));
        assert_eq!(s.session("t1", 2000).unwrap(), None, "expired at its time");
        assert_eq!(s.session("nope", 0).unwrap(), None);
        assert_eq!(s.purge_sessions(2000).unwrap(), 1);
        s.delete_session("t2").unwrap();
        assert_eq!(s.session("t2", 0).unwrap(), None);
        s.delete_session("t2").unwrap();
        // A session of an unknown account is refused.
        assert!(s.create_session(&session("t3", "ghost", 9000)).is_err());
    }

    fn a_new_password_ends_every_session(s: &dyn AccountStore) {
        s.add_user(&user("wang", Role::Arbiter)).unwrap();
        s.create_session(&session("t1", "wang", 9000)).unwrap();
        s.set_password("wang", "$argon2id$new").unwrap();
        assert_eq!(s.session("t1", 0).unwrap(), None);
        assert_eq!(
            s.user("wang").unwrap().unwrap().password_hash,
            "$argon2id$new"
        );
        let e = s.set_password("ghost", "x").unwrap_err();
        assert!(e.to_string().contains("`ghost`"), "{e}");
    }

    fn failures_count_within_the_window_and_clear(s: &dyn AccountStore) {
        for i in 1..=3 {
            let f = s.record_failure("login:wang", 100 + i, 60).unwrap();
            assert_eq!(
                f,
                Failures {
                    count: i as u32,
                    last: 100 + i
                }
            );
        }
        assert_eq!(s.failures("login:wang", 120, 60).unwrap().unwrap().count, 3);
        // Past the window the old failures are forgotten.
        assert_eq!(s.failures("login:wang", 200, 60).unwrap(), None);
        let f = s.record_failure("login:wang", 200, 60).unwrap();
        assert_eq!(f.count, 1);
        assert_eq!(s.failures("ip:127.0.0.1", 200, 60).unwrap(), None);
        s.clear_failures("login:wang").unwrap();
        assert_eq!(s.failures("login:wang", 200, 60).unwrap(), None);
    }

    fn old_failures_are_purged(s: &dyn AccountStore) {
        s.record_failure("login:old", 100, 60).unwrap();
        s.record_failure("addr:10.0.0.1", 150, 60).unwrap();
        s.record_failure("login:new", 200, 60).unwrap();
        // At 210 only `login:old` is more than 60 s old.
        assert_eq!(s.purge_failures(210, 60).unwrap(), 1);
        assert_eq!(s.failures("login:old", 100, 1_000_000).unwrap(), None);
        assert_eq!(
            s.failures("addr:10.0.0.1", 210, 60).unwrap().unwrap().count,
            1
        );
        assert_eq!(s.purge_failures(300, 60).unwrap(), 2);
        assert_eq!(s.failures("login:new", 300, 1_000_000).unwrap(), None);
        assert_eq!(s.purge_failures(300, 60).unwrap(), 0);
    }

    fn an_events_claim_secret_is_made_once_and_kept(s: &dyn AccountStore) {
        assert_eq!(s.claim_secret("1", "aa11").unwrap(), "aa11");
        // A later caller's fresh secret does not replace the stored one.
        assert_eq!(s.claim_secret("1", "bb22").unwrap(), "aa11");
        assert_eq!(s.claim_secret("2", "cc33").unwrap(), "cc33");
    }

    /// Each account test once on SQLite (in memory) and once on PostgreSQL.
    macro_rules! both {
        ($($t:ident),* $(,)?) => {
            mod sqlite {
                $( #[test] fn $t() { super::$t(&crate::SqliteStore::open_in_memory().unwrap()) } )*
            }
            mod postgres {
                $( #[test] fn $t() {
                    let db = crate::pgtest::test_db();
                    super::$t(&crate::PgStore::connect(&db.url).unwrap())
                } )*
            }
        };
    }

    both!(
        users_are_added_listed_and_unique,
        sessions_expire_and_end,
        a_new_password_ends_every_session,
        failures_count_within_the_window_and_clear,
        old_failures_are_purged,
        an_events_claim_secret_is_made_once_and_kept,
    );

    #[test]
    fn accounts_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.db");
        {
            let s = SqliteStore::open(&p).unwrap();
            s.add_user(&user("wang", Role::Organiser)).unwrap();
        }
        let s = SqliteStore::open(&p).unwrap();
        assert_eq!(
            s.user("wang").unwrap().unwrap(),
            user("wang", Role::Organiser)
        );
    }
}
