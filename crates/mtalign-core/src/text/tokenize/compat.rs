//! The tokenizers of the two reference ROUGE implementations.
//!
//! * `rouge155` — ROUGE-1.5.5: Perl works on UTF-8 *bytes*; `tr/A-Z/a-z/` lowercases ASCII
//!   only, `-` is set apart, every byte outside `[A-Za-z0-9-]` becomes a space, and only tokens
//!   starting with `[a-z0-9$]` are kept (which drops the lone `-`). The tokens are therefore
//!   the maximal runs of ASCII letters and digits after ASCII lowercasing: `café` → `caf`,
//!   `Zürich` → `z rich`, `100-mile` → `100 mile`.
//! * `rouge_score` — rouge-score 0.1.2: Python's `str.lower()` (full Unicode lowercasing, so
//!   `K` (U+212A KELVIN SIGN) becomes `k`), then `[^a-z0-9]+` → space: the maximal runs of
//!   ASCII letters and digits after Unicode lowercasing.
//!
//! Both ignore the `lowercase` option: lowercasing is part of their definition.

/// Normalises `text` into `buf` and writes the token spans (relative to `buf`) into `spans`.
pub fn tokenize_into(
    unicode_lowercase: bool,
    text: &str,
    buf: &mut String,
    spans: &mut Vec<(u32, u32)>,
) {
    buf.clear();
    spans.clear();
    if unicode_lowercase && !text.is_ascii() {
        buf.push_str(&text.to_lowercase());
    } else {
        buf.push_str(text);
        buf.make_ascii_lowercase();
    }
    let mut start: Option<usize> = None;
    for (pos, b) in buf.bytes().enumerate() {
        if b.is_ascii_alphanumeric() {
            start.get_or_insert(pos);
        } else if let Some(s) = start.take() {
            spans.push((s as u32, pos as u32));
        }
    }
    if let Some(s) = start {
        spans.push((s as u32, buf.len() as u32));
    }
}

#[cfg(test)]
mod tests {
    use crate::text::tokenize::{Tokenizer, TokenizerKind};

    fn toks(kind: TokenizerKind, text: &str) -> Vec<String> {
        // The lowercase flag must not matter.
        let a = Tokenizer::new(kind, true).tokenize(text);
        assert_eq!(a, Tokenizer::new(kind, false).tokenize(text));
        a
    }

    #[test]
    fn rouge155_matches_the_golden_readme() {
        let k = TokenizerKind::Rouge155;
        assert_eq!(toks(k, "100-mile-an-hour"), ["100", "mile", "an", "hour"]);
        assert_eq!(toks(k, "Mexico's"), ["mexico", "s"]);
        assert_eq!(toks(k, "café"), ["caf"]);
        assert_eq!(toks(k, "Zürich"), ["z", "rich"]);
        assert_eq!(
            toks(k, "The U.S. -- $5, 10%!"),
            ["the", "u", "s", "5", "10"]
        );
        assert_eq!(toks(k, "ÉCOLE"), ["cole"]);
        assert!(toks(k, "--- ... !!!").is_empty());
        // The Kelvin sign is three bytes outside [A-Za-z0-9] for Perl.
        assert_eq!(toks(k, "5\u{212A}m"), ["5", "m"]);
    }

    #[test]
    fn rouge_score_lowercases_unicode_first() {
        let k = TokenizerKind::RougeScore;
        assert_eq!(toks(k, "Hello, World! It's"), ["hello", "world", "it", "s"]);
        assert_eq!(toks(k, "Zürich café"), ["z", "rich", "caf"]);
        assert_eq!(toks(k, "5\u{212A}m"), ["5km"]);
        assert_eq!(toks(k, "\u{130}stanbul"), ["i", "stanbul"]);
    }
}
