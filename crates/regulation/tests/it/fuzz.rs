//! `parse` never panics, whatever the input.

use proptest::prelude::*;

const FILES: [&str; 4] = [
    include_str!("../../../../regulations/kunshan-2026.toml"),
    include_str!("../../../../regulations/suzhou-2025.toml"),
    include_str!("../../../../regulations/jiujiang-2020.toml"),
    include_str!("../../../../regulations/tianshui-2024.toml"),
];

/// Cut at a char boundary at or below `i`.
fn floor(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,400}") {
        let _ = arbiter_regulation::parse(&s, "fuzz.toml");
    }

    #[test]
    fn mutated_shipped_files_never_panic(
        file in 0usize..4,
        at in 0usize..20_000,
        len in 0usize..40,
        insert in "[\\PC\\n\\[\\]=\"{},0-9]{0,12}",
    ) {
        let src = FILES[file];
        let a = floor(src, at % (src.len() + 1));
        let b = floor(src, a + len);
        let mutated = format!("{}{}{}", &src[..a], insert, &src[b..]);
        if let Err(e) = arbiter_regulation::parse(&mutated, "m.toml") {
            // Every error is located inside the file.
            prop_assert!(e.line >= 1 && e.line <= mutated.lines().count() + 1);
            prop_assert!(e.column >= 1);
        }
    }

    #[test]
    fn mutated_numbers_never_panic(file in 0usize..4, n in any::<u64>(), which in 0usize..200) {
        let src = FILES[file];
        let mut count = 0;
        let mut out = String::new();
        let mut replaced = false;
        for (i, tok) in src.split(" = ").enumerate() {
            if i > 0 { out.push_str(" = "); }
            let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
            if !replaced && digits > 0 && !tok[digits..].starts_with('-') {
                if count == which {
                    out.push_str(&n.to_string());
                    out.push_str(&tok[digits..]);
                    replaced = true;
                    continue;
                }
                count += 1;
            }
            out.push_str(tok);
        }
        let _ = arbiter_regulation::parse(&out, "n.toml");
    }
}
