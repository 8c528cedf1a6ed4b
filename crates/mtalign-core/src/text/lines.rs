//! A file's text as the lines sacrebleu reads: split on `"\n"` alone (it opens files with
//! `newline="\n"`), the empty piece after a final newline dropped, each line right-stripped
//! as Python's `str.rstrip()` strips (its `isspace`, which is Unicode's White_Space plus the
//! separators U+001C..U+001F).

use rayon::prelude::*;

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

/// [`stripped_lines`] of a file's bytes, or `Err(n)` when they are not UTF-8 (`n`: the
/// offset of the first byte that is not). Read in pieces of whole lines on the current rayon
/// pool: each piece checked and split on its own.
///
/// ```
/// use mtalign_core::text::lines::utf8_lines;
/// assert_eq!(utf8_lines(b"a \nb\n").unwrap(), ["a", "b"]);
/// assert_eq!(utf8_lines(b"ok\ncaf\xe9\n"), Err(6));
/// ```
pub fn utf8_lines(data: &[u8]) -> std::result::Result<Vec<&str>, usize> {
    // Piece boundaries: just after the first newline at or past every PIECE bytes.
    let mut cuts = vec![0];
    let mut at = PIECE;
    while at < data.len() {
        match data[at..].iter().position(|&b| b == b'\n') {
            Some(p) => {
                cuts.push(at + p + 1);
                at += p + 1 + PIECE;
            }
            None => break,
        }
    }
    if *cuts.last().unwrap_or(&0) < data.len() || cuts.len() == 1 {
        cuts.push(data.len());
    }
    let pieces: Vec<std::result::Result<Vec<&str>, usize>> = cuts
        .par_windows(2)
        .map(|w| match std::str::from_utf8(&data[w[0]..w[1]]) {
            Ok(text) => Ok(stripped_lines(text)),
            Err(e) => Err(w[0] + e.valid_up_to()),
        })
        .collect();
    let mut lines = Vec::new();
    for piece in pieces {
        lines.extend(piece?);
    }
    Ok(lines)
}

/// Bytes of a piece of [`utf8_lines`] (a piece ends at a newline).
const PIECE: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    /// Python's `str.isspace()` over the BMP's whitespace candidates (from CPython 3.11's
    /// `_PyUnicode_IsWhitespace` table).
    #[test]
    fn python_spaces() {
        let python: Vec<u32> = [
            0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
            0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
            0x2029, 0x202f, 0x205f, 0x3000,
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

    /// Pieces split at newlines give the lines of the whole (small pieces: many cuts).
    #[test]
    fn pieces_give_the_lines_of_the_whole() {
        let mut text = String::new();
        for i in 0..3 * PIECE / 10 {
            text.push_str(&"é x ".repeat(i % 7));
            text.push_str(if i % 3 == 0 { " \n" } else { "\n" });
        }
        for end in [text.len(), text.len() - 1, PIECE, PIECE + 1, 0] {
            let part = &text.as_bytes()[..end];
            match std::str::from_utf8(part) {
                Ok(s) => assert_eq!(utf8_lines(part).unwrap(), stripped_lines(s)),
                Err(e) => assert_eq!(utf8_lines(part), Err(e.valid_up_to())),
            }
        }
        let mut bad = text.clone().into_bytes();
        bad[PIECE + 5] = 0xff;
        let at = std::str::from_utf8(&bad).unwrap_err().valid_up_to();
        assert_eq!(utf8_lines(&bad), Err(at));
    }

    #[test]
    fn only_newline_splits() {
        assert_eq!(stripped_lines("a\rb\u{85}c\nd"), ["a\rb\u{85}c", "d"]);
        assert_eq!(stripped_lines("\n"), [""]);
        assert_eq!(stripped_lines("\n\n"), ["", ""]);
    }
}
