//! A file's text as the lines sacrebleu reads: split on `"\n"` alone (it opens files with
//! `newline="\n"`), the empty piece after a final newline dropped, each line right-stripped
//! as Python's `str.rstrip()` strips (its `isspace`, which is Unicode's White_Space plus the
//! separators U+001C..U+001F).

/// Whether Python's `str.isspace` is true for `c`.
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `line` without its trailing whitespace, as Python's `line.rstrip()`.
///
/// ```
/// use mtalign_core::text::lines::rstrip;
/// assert_eq!(rstrip("a b \t\r\u{3000}\u{1f}"), "a b");
/// assert_eq!(rstrip("a\u{200b}"), "a\u{200b}"); // a zero-width space is not a space
/// ```
pub fn rstrip(line: &str) -> &str {
    // Lines almost always end in ASCII: one look at the last byte settles most of them.
    match line.as_bytes().last() {
        Some(&b) if b.is_ascii() && !is_python_space(char::from(b)) => line,
        _ => line.trim_end_matches(is_python_space),
    }
}

/// The lines of `text` as sacrebleu reads them from a file (see the module): split on
/// `"\n"`, no empty last line for a final newline, each line right-stripped.
///
/// ```
/// use mtalign_core::text::lines::stripped_lines;
/// assert_eq!(stripped_lines("a \r\nb\u{2028}c\n\n  "), ["a", "b\u{2028}c", "", ""]);
/// assert_eq!(stripped_lines("a\n"), ["a"]);
/// assert!(stripped_lines("").is_empty());
/// ```
pub fn stripped_lines(text: &str) -> Vec<&str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split('\n').map(rstrip).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python's `str.isspace()` over the BMP's whitespace candidates (from CPython 3.11's
    /// `_PyUnicode_IsWhitespace` table).
    #[test]
    fn python_spaces() {
        let python: Vec<u32> = [
            0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
            0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
            0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
        ]
        .to_vec();
        let ours: Vec<u32> = (0..0x11_0000u32)
            .filter_map(char::from_u32)
            .filter(|&c| is_python_space(c))
            .map(u32::from)
            .collect();
        assert_eq!(ours, python);
    }

    #[test]
    fn rstrip_every_ascii_end() {
        for b in 0u8..128 {
            let line = format!("x{}", b as char);
            let expected = line.trim_end_matches(is_python_space);
            assert_eq!(rstrip(&line), expected, "byte {b:#x}");
        }
    }

    #[test]
    fn only_newline_splits() {
        assert_eq!(stripped_lines("a\rb\u{85}c\nd"), ["a\rb\u{85}c", "d"]);
        assert_eq!(stripped_lines("\n"), [""]);
        assert_eq!(stripped_lines("\n\n"), ["", ""]);
    }
}
