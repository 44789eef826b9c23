//! One suite, two implementations: every store test is written once against [`Backend`]
//! and instantiated for SQLite (a file in a temporary directory) and PostgreSQL (a fresh
//! database on the throw-away cluster of `arbiter_store::pgtest`) by [`both!`].

#![allow(dead_code)]

use arbiter_store::{open, AnyStore};

pub trait Backend {
    /// A new connection (pool) to this test's database; every call sees the same data.
    fn open(&self) -> AnyStore;
    /// The `--db` value naming the database.
    fn db(&self) -> String;
    /// Another, separate database of the same kind.
    fn another(&self) -> Self
    where
        Self: Sized;
}

pub struct Sqlite(tempfile::TempDir);

impl Sqlite {
    pub fn new() -> Self {
        Sqlite(tempfile::tempdir().unwrap())
    }
}

impl Backend for Sqlite {
    fn open(&self) -> AnyStore {
        open(&self.db()).unwrap()
    }
    fn db(&self) -> String {
        self.0.path().join("t.db").to_str().unwrap().to_string()
    }
    fn another(&self) -> Self {
        Sqlite::new()
    }
}

pub struct Pg(arbiter_store::pgtest::TestDb);

impl Pg {
    pub fn new() -> Self {
        Pg(arbiter_store::pgtest::test_db())
    }
}

impl Backend for Pg {
    fn open(&self) -> AnyStore {
        let s = open(&self.0.url).unwrap();
        assert_eq!(s.backend(), "postgres");
        s
    }
    fn db(&self) -> String {
        self.0.url.clone()
    }
    fn another(&self) -> Self {
        Pg::new()
    }
}

/// `both!(a, b)`: tests `sqlite::a`, `postgres::a`, … calling `a(&backend)`.
#[macro_export]
macro_rules! both {
    ($($t:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $t() { super::$t(&$crate::common::Sqlite::new()) } )*
        }
        mod postgres {
            $( #[test] fn $t() { super::$t(&$crate::common::Pg::new()) } )*
        }
    };
}
