//! Password hashes: argon2id (RFC 9106) in the PHC string format, a fresh random salt per
//! hash. Verification reads the parameters from the stored string, so a later change of the
//! cost keeps old hashes working.
//!
//! A new password ([`check_new`], wherever one is set: `arbiter user add`, `arbiter user
//! passwd`) has 8 to 256 characters, is not one of the 10,000 most common passwords
//! ([`COMMON`]) and neither is the account's login name nor contains it (a name of at least
//! 3 characters).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::RngCore;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Shortest password accepted.
pub const MIN_CHARS: usize = 8;
/// Longest password accepted (a very long one only costs hashing time).
pub const MAX_CHARS: usize = 256;

fn hasher() -> Argon2<'static> {
    // The argon2 crate's defaults (m = 19 MiB, t = 2, p = 1), as OWASP recommends for argon2id.
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// The 10,000 most common passwords, most common first, one a line, lower case: the first
/// 10,000 lines of the list Django 5.2 ships (`django/contrib/auth/common-passwords.txt.gz`,
/// BSD licence; 20,000 passwords compiled by Royce Williams from breached-password
/// frequencies). Built into the binary; a new password is compared in lower case.
pub const COMMON: &str = include_str!("common-passwords.txt");

fn common() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| COMMON.lines().filter(|l| !l.is_empty()).collect())
}

/// Whether `password` is one of the [`COMMON`] passwords (letter case aside).
pub fn is_common(password: &str) -> bool {
    common().contains(password.to_lowercase().as_str())
}

/// Check a new password for the account `login`: its length, not a common password, not
/// the login name nor containing it. The reason is given Chinese first.
pub fn check_new(login: &str, password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if n < MIN_CHARS {
        return Err(format!(
            "密码至少 {MIN_CHARS} 个字符, 现为 {n} 个 (password must be at least {MIN_CHARS} characters)"
        ));
    }
    if n > MAX_CHARS {
        return Err(format!(
            "密码最多 {MAX_CHARS} 个字符 (password must be at most {MAX_CHARS} characters)"
        ));
    }
    if is_common(password) {
        return Err(
            "密码过于常见, 是最常用的一万个密码之一, 猜测者会最先试它 (this password is one of the \
             10,000 most common ones: a guesser tries it first)"
                .into(),
        );
    }
    // Contained: a name of at least 3 characters (`li` is in too many good passwords).
    let (pw, name) = (password.to_lowercase(), login.trim().to_lowercase());
    if pw == name || (name.chars().count() >= 3 && pw.contains(&name)) {
        return Err(
            "密码不能是登录名或包含登录名, 知道登录名的人会先试它 (the password must not be or \
             contain the login name: anyone who knows the name tries it first)"
                .into(),
        );
    }
    Ok(())
}

/// The argon2id PHC string of `password` with a fresh 16-byte salt from the OS.
pub fn hash(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| format!("盐值编码失败 (salt): {e}"))?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("密码散列失败 (hashing failed): {e}"))
}

/// Whether `password` matches the stored PHC string (a malformed string matches nothing).
pub fn verify(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(h) => hasher().verify_password(password.as_bytes(), &h).is_ok(),
        Err(_) => false,
    }
}

/// Spend the time of one verification for a login name that has no account, so the answer
/// time does not tell which names exist.
pub fn verify_nobody(password: &str) {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let phc = DUMMY.get_or_init(|| hash("no account has this password").unwrap_or_default());
    let _ = verify(password, phc);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = hash("正确的密码123").unwrap();
        let b = hash("正确的密码123").unwrap();
        assert!(a.starts_with("$argon2id$v=19$"), "{a}");
        assert_ne!(a, b, "a fresh salt each time");
        assert!(verify("正确的密码123", &a));
        assert!(verify("正确的密码123", &b));
        assert!(!verify("正确的密码124", &a));
        assert!(!verify("x", "not a phc string"));
    }

    #[test]
    fn short_and_long_passwords_are_refused() {
        assert!(check_new("wang", "1234567").unwrap_err().contains("至少 8"));
        assert!(check_new("wang", "59371846").is_ok());
        assert!(check_new("wang", &"长".repeat(257)).is_err());
    }

    #[test]
    fn common_passwords_and_the_login_name_are_refused() {
        assert_eq!(COMMON.lines().count(), 10_000);
        for pw in [
            "12345678",
            "password",
            "Password1",
            "QWERTYUIOP",
            "woaini1314",
        ] {
            let e = check_new("wang", pw).unwrap_err();
            assert!(
                e.starts_with("密码过于常见") && e.contains("10,000"),
                "{pw}: {e}"
            );
        }
        for pw in ["chief2026", "MyChief-pass", "chiefchief"] {
            let e = check_new("chief", pw).unwrap_err();
            assert!(e.starts_with("密码不能是登录名"), "{pw}: {e}");
        }
        assert!(check_new("王裁判", "王裁判王裁判王裁判").is_err());
        assert!(
            check_new("li", "Olivia-2026").is_ok(),
            "a short name may be inside"
        );
        assert!(check_new("chief", "correct horse 8").is_ok());
        assert!(check_new("wang", "长城长12345").is_ok());
    }
}
