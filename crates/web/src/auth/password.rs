//! Password hashes: argon2id (RFC 9106) in the PHC string format, a fresh random salt per
//! hash. Verification reads the parameters from the stored string, so a later change of the
//! cost keeps old hashes working.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::RngCore;
use std::sync::OnceLock;

/// Shortest password accepted.
pub const MIN_CHARS: usize = 8;
/// Longest password accepted (a very long one only costs hashing time).
pub const MAX_CHARS: usize = 256;

fn hasher() -> Argon2<'static> {
    // The argon2 crate's defaults (m = 19 MiB, t = 2, p = 1), as OWASP recommends for argon2id.
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// Check a new password's length, Chinese first.
pub fn check_new(password: &str) -> Result<(), String> {
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
        assert!(check_new("1234567").unwrap_err().contains("至少 8"));
        assert!(check_new("12345678").is_ok());
        assert!(check_new(&"长".repeat(257)).is_err());
    }
}
