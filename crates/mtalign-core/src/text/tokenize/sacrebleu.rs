//! sacrebleu's `13a` and `intl` tokenizers, character for character.
//!
//! Both are chains of regular-expression substitutions in sacrebleu. Every pattern matches a
//! fixed one or two characters, so Python's leftmost, non-overlapping `re.sub` is a scan that,
//! where the pattern matches at position `i`, writes the replacement and resumes at `i + 2`
//! (otherwise copies one character): `sub_pairs` reproduces exactly that, including the
//! cases where a character consumed by one match cannot start the next (`"a.,b"`).
//! `13a` runs its passes as one scan over the bytes ([`tokenize_13a`]: where each pass cuts
//! is decided from the characters around a period, comma or dash), proptested against the
//! passes run one after another ([`tokenize_13a_passes`], which `zh` still uses).
//!
//! As sacrebleu's BLEU does, the text is right-stripped (Python whitespace) before the
//! tokenizer runs: it matters for `intl` (`"1. "` and `"1."` tokenize differently) and for
//! `13a`'s `-\n` rule. Tokens are split on Python's whitespace (`str.split()`), which
//! includes U+001C..U+001F, unlike Rust's `char::is_whitespace`.

use crate::text::intern::{block_masks, ByteRanges};
use std::borrow::Cow;
use std::cell::RefCell;
use unicode_general_category::{get_general_category, GeneralCategory as G};

/// Python's `str.isspace()`.
pub fn py_isspace(c: char) -> bool {
    matches!(c,
        '\t'..='\r' | '\x1c'..='\x1f' | ' ' | '\u{85}' | '\u{a0}' | '\u{1680}'
        | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}'
        | '\u{3000}')
}

fn rstrip(s: &str) -> &str {
    s.trim_end_matches(py_isspace)
}

thread_local! {
    static SCRATCH: RefCell<(String, String)> = const { RefCell::new((String::new(), String::new())) };
}

/// One substitution pass of a two-character pattern: where `matches(a, b)`, `replace` writes
/// the replacement of the pair; scanning resumes after `b`.
fn sub_pairs(
    src: &str,
    dst: &mut String,
    matches: impl Fn(char, char) -> bool,
    replace: impl Fn(&mut String, char, char),
) {
    dst.clear();
    let mut it = src.chars();
    let mut cur = it.next();
    while let Some(a) = cur {
        let next = it.next();
        match next {
            Some(b) if matches(a, b) => {
                replace(dst, a, b);
                cur = it.next();
            }
            _ => {
                dst.push(a);
                cur = next;
            }
        }
    }
}

/// One substitution pass of a one-character pattern: `c` becomes `' c '` where `matches(c)`.
fn pad_chars(src: &str, dst: &mut String, matches: impl Fn(char) -> bool) {
    dst.clear();
    for c in src.chars() {
        if matches(c) {
            dst.push(' ');
            dst.push(c);
            dst.push(' ');
        } else {
            dst.push(c);
        }
    }
}

/// Splits `text` on Python whitespace and writes the tokens, one space apart, to `buf`.
fn split_join(text: &str, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
    buf.clear();
    spans.clear();
    if text.is_ascii() {
        // The same split on bytes: Python's ASCII whitespace.
        let is_space = |b: u8| matches!(b, b'\t'..=b'\r' | 0x1c..=0x1f | b' ');
        let bytes = text.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        loop {
            while i < n && is_space(bytes[i]) {
                i += 1;
            }
            if i == n {
                return;
            }
            let token_start = i;
            while i < n && !is_space(bytes[i]) {
                i += 1;
            }
            if !buf.is_empty() {
                buf.push(' ');
            }
            let start = buf.len();
            buf.push_str(&text[token_start..i]);
            spans.push((start as u32, buf.len() as u32));
        }
    }
    for token in text.split(py_isspace).filter(|t| !t.is_empty()) {
        if !buf.is_empty() {
            buf.push(' ');
        }
        let start = buf.len();
        buf.push_str(token);
        spans.push((start as u32, buf.len() as u32));
    }
}

fn replace_all<'a>(s: Cow<'a, str>, from: &str, to: &str) -> Cow<'a, str> {
    if s.contains(from) {
        Cow::Owned(s.replace(from, to))
    } else {
        s
    }
}

/// `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: the ASCII characters 13a always sets apart.
fn is_13a_symbol(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// 13a's replacements before its regular expressions (sacrebleu's `Tokenizer13a.__call__`),
/// on the right-stripped line.
fn replace_13a(text: &str) -> Cow<'_, str> {
    let mut line = Cow::Borrowed(rstrip(text));
    line = replace_all(line, "<skipped>", "");
    line = replace_all(line, "-\n", "");
    line = replace_all(line, "\n", " ");
    if line.contains('&') {
        line = replace_all(line, "&quot;", "\"");
        line = replace_all(line, "&amp;", "&");
        line = replace_all(line, "&lt;", "<");
        line = replace_all(line, "&gt;", ">");
    }
    line
}

/// sacrebleu's `13a` (mteval-v13a.pl) tokenization of `text`, lowercased first if asked.
///
/// One scan over the bytes (`scan_13a`) gives the tokens of the replacements and the four
/// regular-expression passes. A text with `<`, `&` or a line feed (where the replacements
/// may change something) is lowercased and replaced first, then scanned.
pub fn tokenize_13a(text: &str, lowercase: bool, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
    let lowered;
    let (text, lower_ascii) = if lowercase && !text.is_ascii() {
        lowered = text.to_lowercase();
        (lowered.as_str(), false)
    } else {
        (text, lowercase)
    };
    if !scan_13a(text, false, into_buf(text, lower_ascii, buf, spans)) {
        let lowered;
        let text = if lower_ascii {
            lowered = text.to_ascii_lowercase();
            lowered.as_str()
        } else {
            text
        };
        let line = replace_13a(text);
        scan_13a(&line, true, into_buf(&line, false, buf, spans));
    }
}

/// The sink of `scan_13a` that writes the tokens of `text` to `buf` one space apart
/// (ASCII-lowercased if asked) and their spans to `spans` (both cleared first).
fn into_buf<'a>(
    text: &'a str,
    lower_ascii: bool,
    buf: &'a mut String,
    spans: &'a mut Vec<(u32, u32)>,
) -> impl FnMut(usize, usize) + 'a {
    buf.clear();
    spans.clear();
    move |s, e| {
        if !buf.is_empty() {
            buf.push(' ');
        }
        let at = buf.len();
        buf.push_str(&text[s..e]);
        if lower_ascii {
            buf[at..].make_ascii_lowercase();
        }
        spans.push((at as u32, buf.len() as u32));
    }
}

/// The 13a tokens of `text` (not lowercased) as byte ranges of `text` itself, into `spans`
/// (cleared first): no copy of the text. False when 13a's replacements might change the
/// text (it has `<`, `&` or a line feed); [`tokenize_13a`] then gives the tokens.
pub fn spans_13a_in_place(text: &str, spans: &mut Vec<(u32, u32)>) -> bool {
    spans.clear();
    scan_13a(text, false, |s, e| spans.push((s as u32, e as u32)))
}

/// The 13a tokenization by its passes, one after the other, as sacrebleu runs them
/// (`text` already lowercased if asked): the oracle of `scan_13a`.
pub fn tokenize_13a_passes(text: &str, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
    let line = replace_13a(text);
    BYTES.with(|cell| {
        let (a, b) = &mut *cell.borrow_mut();
        b.clear();
        b.push(b' ');
        b.extend_from_slice(line.as_bytes());
        b.push(b' ');
        regexp_passes(a, b, buf, spans);
    });
}

/// Byte classes of `scan_13a`.
const WORD: u8 = 0; // ASCII letters, digits, `'`, and non-ASCII bytes that start no space
const SPACE: u8 = 1; // ASCII whitespace of `str.split()`
const SYMBOL: u8 = 2; // 13a's symbols, always a token of their own
const PERIOD_COMMA: u8 = 3;
const DASH: u8 = 4;
const LEAD: u8 = 5; // first byte of a character that may be Python whitespace
const REPLACE: u8 = 6; // `<`, `&`, `\n`: the replacements may apply

const CLASS_13A: [u8; 256] = {
    let mut t = [WORD; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if matches!(c, b'\t'..=b'\r' | 0x1c..=0x1f | b' ') {
            SPACE
        } else if matches!(c, b'{'..=b'~' | b'['..=b'`' | b'!'..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
        {
            SYMBOL
        } else if c == b'.' || c == b',' {
            PERIOD_COMMA
        } else if c == b'-' {
            DASH
        } else {
            WORD
        };
        b += 1;
    }
    // U+0085, U+00A0, U+1680, U+2000..U+205F and U+3000 start with these bytes.
    t[0xC2] = LEAD;
    t[0xE1] = LEAD;
    t[0xE2] = LEAD;
    t[0xE3] = LEAD;
    t[b'<' as usize] = REPLACE;
    t[b'&' as usize] = REPLACE;
    t[b'\n' as usize] = REPLACE;
    t
};

/// The end of the run of [`WORD`] bytes of `bytes` from `i`: eight bytes classified at a
/// time with no branch per byte (where a word ends is not predictable).
#[inline]
fn word_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(eight) = bytes.get(i..i + 8) {
        let mut words = 0u32;
        for (k, &b) in eight.iter().enumerate() {
            words |= u32::from(CLASS_13A[b as usize] == WORD) << k;
        }
        let run = (!words).trailing_zeros() as usize;
        i += run;
        if run < 8 {
            return i;
        }
    }
    while i < bytes.len() && CLASS_13A[bytes[i] as usize] == WORD {
        i += 1;
    }
    i
}

/// The token being read: 13a only inserts spaces, so every token is a range of the text,
/// read piece by piece (`start..end`, open or not), and handed to `sink` when it ends.
struct Tokens<F: FnMut(usize, usize)> {
    sink: F,
    /// Start of the open token, if one is open, and its end so far.
    open: Option<usize>,
    end: usize,
}

impl<F: FnMut(usize, usize)> Tokens<F> {
    /// Extends the open token (or opens one) with the piece `start..end`, which follows
    /// the open token's end.
    #[inline]
    fn push(&mut self, start: usize, end: usize) {
        if self.open.is_none() {
            self.open = Some(start);
        }
        self.end = end;
    }

    #[inline]
    fn close(&mut self) {
        if let Some(start) = self.open.take() {
            (self.sink)(start, self.end);
        }
    }

    /// `start..end` as a token of its own.
    #[inline]
    fn alone(&mut self, start: usize, end: usize) {
        self.close();
        (self.sink)(start, end);
    }
}

/// 13a's four regular-expression passes over ` {text} ` in one scan, each token handed to
/// `sink` as its byte range of `text`, in order. Unless `replaced`, `false` (with some
/// tokens handed over already) when `text` has a byte where 13a's replacements might apply
/// (`<`, `&`, a line feed).
///
/// Every pass only inserts spaces, so the tokens are the runs of non-space characters of
/// `text` cut where some pass inserts a space. Where each pass does, decided locally:
/// * symbols (`[{-~[-` -&(-+:-@/]`) are cut on both sides;
/// * a dash right after an ASCII digit is cut on both sides (`([0-9])(-)` never has a
///   match consumed by another, and the passes before it insert spaces only next to
///   periods, commas and symbols, none of which is a digit or a dash);
/// * a run of `m` periods and commas between `l` and `r` (the characters around it, a space
///   beyond the ends): with `m = 1` it is kept whole when `l` and `r` are both digits
///   (`3.5`) and cut on both sides otherwise. With `m ≥ 2` (`a..5`) the second pass matches
///   the run pairwise from its left end, so every mark is cut from the next, from `l`
///   (by the second or the third pass), and the last one from `r` unless `r` is a digit and
///   the pairing left it next to `r` (`m` odd after a digit, even after a non-digit).
fn scan_13a(text: &str, replaced: bool, sink: impl FnMut(usize, usize)) -> bool {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let digit_at = |k: usize| k < n && bytes[k].is_ascii_digit();
    let mut out = Tokens {
        sink,
        open: None,
        end: 0,
    };
    let mut i = 0;
    while i < n {
        let c = bytes[i];
        match CLASS_13A[c as usize] {
            WORD => {
                let start = i;
                i = word_end(bytes, i + 1);
                // Ends at an ASCII byte, a lead byte or the end: a character boundary.
                out.push(start, i);
                // The usual next byte, one space, without another turn of the loop.
                if i < n && bytes[i] == b' ' {
                    out.close();
                    i += 1;
                }
            }
            SPACE => {
                out.close();
                i += 1;
            }
            SYMBOL => {
                out.alone(i, i + 1);
                i += 1;
            }
            DASH => {
                if i > 0 && bytes[i - 1].is_ascii_digit() {
                    out.alone(i, i + 1);
                } else {
                    out.push(i, i + 1);
                }
                i += 1;
            }
            PERIOD_COMMA => {
                let start = i;
                while i < n && CLASS_13A[bytes[i] as usize] == PERIOD_COMMA {
                    i += 1;
                }
                let m = i - start;
                let left_digit = start > 0 && bytes[start - 1].is_ascii_digit();
                let right_digit = digit_at(i);
                if m == 1 && left_digit && right_digit {
                    out.push(start, i);
                    continue;
                }
                let last_joins_right = right_digit && left_digit == (m % 2 == 1);
                out.close();
                for k in start..i - 1 {
                    out.alone(k, k + 1);
                }
                if last_joins_right {
                    out.push(i - 1, i);
                } else {
                    out.alone(i - 1, i);
                }
            }
            LEAD => {
                let ch = text[i..].chars().next().unwrap_or(' ');
                let len = ch.len_utf8();
                if py_isspace(ch) {
                    out.close();
                } else {
                    out.push(i, i + len);
                }
                i += len;
            }
            REPLACE if replaced => {
                if c == b'\n' {
                    out.close();
                } else {
                    out.alone(i, i + 1);
                }
                i += 1;
            }
            _ => return false,
        }
    }
    out.close();
    true
}

/// sacrebleu's `TokenizerRegexp`, the passes `13a` and `zh` share, on the text in `b`; the
/// tokens go to `buf` and `spans`.
///
/// Every pattern has an ASCII character on at least one side and "not a digit" on the
/// other, so the passes run on bytes: a multi-byte character is never split by a match, and
/// its last byte matches "not a digit" exactly where the character does.
fn regexp_passes(a: &mut Vec<u8>, b: &mut Vec<u8>, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
    a.clear();
    let symbol = |c: &u8| c.is_ascii() && is_13a_symbol(*c as char);
    let mut rest: &[u8] = b;
    while let Some(k) = rest.iter().position(symbol) {
        a.extend_from_slice(&rest[..k]);
        a.extend_from_slice(&[b' ', rest[k], b' ']);
        rest = &rest[k + 1..];
    }
    a.extend_from_slice(rest);
    let digit = |c: u8| c.is_ascii_digit();
    let period_comma = |c: u8| c == b'.' || c == b',';
    // period and comma unless preceded by a digit
    sub_bytes(
        a,
        b,
        period_comma,
        true,
        |x, y| !digit(x) && period_comma(y),
        |d, x, y| d.extend_from_slice(&[x, b' ', y, b' ']),
    );
    // period and comma unless followed by a digit
    sub_bytes(
        b,
        a,
        period_comma,
        false,
        |x, y| period_comma(x) && !digit(y),
        |d, x, y| d.extend_from_slice(&[b' ', x, b' ', y]),
    );
    // dash preceded by a digit
    sub_bytes(
        a,
        b,
        |c| c == b'-',
        true,
        |x, y| digit(x) && y == b'-',
        |d, x, y| d.extend_from_slice(&[x, b' ', y, b' ']),
    );
    // The passes only insert ASCII spaces between whole characters.
    let text = std::str::from_utf8(b).unwrap_or_default();
    split_join(text, buf, spans);
}

/// sacrebleu's `TokenizerZh._is_chinese_char`, range for range as Python evaluates it: two
/// of its bounds are written with five hex digits after `\u` (`'\u20000'` is U+2000 then
/// `'0'`), so as string comparisons they cover U+2001..=U+2A6D (general punctuation, arrows,
/// symbols) and U+2F81..=U+2FA1 instead of CJK Extension B and the compatibility supplement.
pub fn is_zh_char(c: char) -> bool {
    matches!(c as u32,
        0x2001..=0x2A6D | 0x2E80..=0x2FDF | 0x2FF0..=0x303F | 0x3100..=0x312F
        | 0x31A0..=0x31EF | 0x3200..=0x4DB5 | 0x4E00..=0x9FBB | 0xF900..=0xFA2D
        | 0xFA30..=0xFA6A | 0xFA70..=0xFAD9 | 0xFE10..=0xFE1F | 0xFE30..=0xFE4F
        | 0xFF00..=0xFFEF)
}

/// sacrebleu's `zh`: the text stripped (Python whitespace), each Chinese character (see
/// [`is_zh_char`]) set apart by spaces, then the regular-expression passes of `13a` (without
/// 13a's padding of the line with spaces, as sacrebleu).
pub fn tokenize_zh(text: &str, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
    let line = text.trim_matches(py_isspace);
    BYTES.with(|cell| {
        let (a, b) = &mut *cell.borrow_mut();
        b.clear();
        let mut utf8 = [0u8; 4];
        for c in line.chars() {
            let bytes = c.encode_utf8(&mut utf8).as_bytes();
            if is_zh_char(c) {
                b.push(b' ');
                b.extend_from_slice(bytes);
                b.push(b' ');
            } else {
                b.extend_from_slice(bytes);
            }
        }
        regexp_passes(a, b, buf, spans);
    });
}

thread_local! {
    static BYTES: RefCell<(Vec<u8>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// `sub_pairs` on bytes, for patterns whose pair can only match where one side is a
/// `trigger` byte (the second side when `trigger_second`): the bytes up to the next place
/// a trigger allows a match are copied in one piece, not one by one.
fn sub_bytes(
    src: &[u8],
    dst: &mut Vec<u8>,
    trigger: impl Fn(u8) -> bool,
    trigger_second: bool,
    matches: impl Fn(u8, u8) -> bool,
    replace: impl Fn(&mut Vec<u8>, u8, u8),
) {
    dst.clear();
    let n = src.len();
    let mut i = 0;
    while i + 1 < n {
        // The first pair (k, k + 1), k ≥ i, whose trigger side holds a trigger byte.
        let from = if trigger_second { i + 1 } else { i };
        let Some(offset) = src[from..].iter().position(|&c| trigger(c)) else {
            break;
        };
        let k = from + offset - usize::from(trigger_second);
        if k + 1 >= n {
            break;
        }
        dst.extend_from_slice(&src[i..k]);
        if matches(src[k], src[k + 1]) {
            replace(dst, src[k], src[k + 1]);
            i = k + 2;
        } else {
            dst.push(src[k]);
            i = k + 1;
        }
    }
    dst.extend_from_slice(&src[i.min(n)..]);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Number,
    Punct,
    Symbol,
    Other,
}

/// Unicode general category groups N, P and S (the `regex` module's `\p{N}`, `\p{P}`, `\p{S}`).
fn class(c: char) -> Class {
    if c.is_ascii() {
        return match c {
            '0'..='9' => Class::Number,
            '!' | '"' | '#' | '%' | '&' | '\'' | '(' | ')' | '*' | ',' | '-' | '.' | '/' | ':'
            | ';' | '?' | '@' | '[' | '\\' | ']' | '_' | '{' | '}' => Class::Punct,
            '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~' => Class::Symbol,
            _ => Class::Other,
        };
    }
    match get_general_category(c) {
        G::DecimalNumber | G::LetterNumber | G::OtherNumber => Class::Number,
        G::ConnectorPunctuation
        | G::DashPunctuation
        | G::OpenPunctuation
        | G::ClosePunctuation
        | G::InitialPunctuation
        | G::FinalPunctuation
        | G::OtherPunctuation => Class::Punct,
        G::MathSymbol | G::CurrencySymbol | G::ModifierSymbol | G::OtherSymbol => Class::Symbol,
        _ => Class::Other,
    }
}

/// sacrebleu's `intl` (mteval-v14.pl international) tokenization of `text`.
pub fn tokenize_intl(text: &str, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
    let text = rstrip(text);
    SCRATCH.with(|cell| {
        let (a, b) = &mut *cell.borrow_mut();
        // punctuation preceded by a non-number
        sub_pairs(
            text,
            a,
            |x, y| class(x) != Class::Number && class(y) == Class::Punct,
            |d, x, y| {
                d.push(x);
                d.push(' ');
                d.push(y);
                d.push(' ');
            },
        );
        // punctuation followed by a non-number
        sub_pairs(
            a,
            b,
            |x, y| class(x) == Class::Punct && class(y) != Class::Number,
            |d, x, y| {
                d.push(' ');
                d.push(x);
                d.push(' ');
                d.push(y);
            },
        );
        pad_chars(b, a, |c| class(c) == Class::Symbol);
        split_join(a, buf, spans);
    });
}

/// Byte classes of [`scan_13a_plain`], for [`range_masks`].
const PLAIN_CLASSES: [ByteRanges; 6] = [
    // Python's ASCII whitespace (the line feed is in `REPLACED`, where it counts first).
    &[(b'\t', b'\r'), (0x1c, b' ')],
    // 13a's symbols (`&` and `<` are in `REPLACED`, where they count first).
    &[
        (b'!', b'&'),
        (b'(', b'+'),
        (b'/', b'/'),
        (b':', b'@'),
        (b'[', b'`'),
        (b'{', b'~'),
    ],
    &[(b'.', b'.'), (b',', b',')],
    &[(b'-', b'-')],
    &[(b'0', b'9')],
    // Where 13a's replacements might apply.
    &[(b'\n', b'\n'), (b'&', b'&'), (b'<', b'<')],
];

/// Columns of the block masks of [`scan_13a_plain`].
const SPACE_BITS: usize = 0; // whitespace, and the bytes past the text's end
const SYMBOL_BITS: usize = 1;
const PC_BITS: usize = 2; // periods and commas
const DASH_BITS: usize = 3;
const DIGIT_BITS: usize = 4;
const CUT_BITS: usize = 5; // a token boundary before the byte

/// Column `c` of block `k` shifted one byte later (bit j: byte j - 1); `before` is the bit
/// of the byte before the text.
#[inline]
fn shift_in(blocks: &[[u64; 6]], k: usize, c: usize, before: u64) -> u64 {
    let carry = if k == 0 {
        before
    } else {
        blocks[k - 1][c] >> 63
    };
    blocks[k][c] << 1 | carry
}

/// Column `c` of block `k` shifted one byte earlier (bit j: byte j + 1); `after` is the bit
/// of the byte after the last block.
#[inline]
fn shift_out(blocks: &[[u64; 6]], k: usize, c: usize, after: u64) -> u64 {
    let carry = blocks.get(k + 1).map_or(after, |next| next[c] & 1);
    blocks[k][c] >> 1 | carry << 63
}

/// Whether a character that starts at one of the bytes of `non_ascii` (bit j: byte i + j)
/// is Python whitespace (the other non-ASCII characters are word characters to 13a).
#[inline]
fn has_python_space(text: &str, i: usize, mut non_ascii: u64) -> bool {
    let bytes = text.as_bytes();
    while non_ascii != 0 {
        let at = i + non_ascii.trailing_zeros() as usize;
        non_ascii &= non_ascii - 1;
        if CLASS_13A[bytes[at] as usize] == LEAD
            && text[at..].chars().next().is_some_and(py_isspace)
        {
            return true;
        }
    }
    false
}

/// [`scan_13a`] of plain text, 64 bytes at a time by bit masks ([`range_masks`]): text
/// with no byte where 13a's replacements might apply (`<`, `&`, a line feed), no non-ASCII
/// whitespace and no run of two or more periods and commas (a non-ASCII character is part
/// of a word, and no cut falls inside it). Each token goes to `sink` as its byte range of
/// `text`, in order. False, with nothing handed over, for any other text. `blocks` is
/// scratch.
///
/// The tokens are the runs of non-space bytes cut before byte j where byte j or j - 1 is a
/// symbol, a dash after a digit, or a period or comma that is not alone between two digits
/// (see [`scan_13a`]).
pub(crate) fn scan_13a_plain(
    text: &str,
    blocks: &mut Vec<[u64; 6]>,
    mut sink: impl FnMut(usize, usize),
) -> bool {
    let bytes = text.as_bytes();
    let n = bytes.len();
    blocks.clear();
    let mut i = 0;
    while i < n {
        let ([space, symbol, pc, dash, digit, replaced], non_ascii) =
            block_masks(bytes, i, &PLAIN_CLASSES);
        let past_end = if n - i >= 64 { 0 } else { u64::MAX << (n - i) };
        if replaced & !past_end != 0 || has_python_space(text, i, non_ascii) {
            return false;
        }
        blocks.push([space | past_end, symbol, pc, dash, digit, 0]);
        i += 64;
    }
    for k in 0..blocks.len() {
        let b = blocks[k];
        let prev_pc = shift_in(blocks, k, PC_BITS, 0);
        if b[PC_BITS] & prev_pc != 0 {
            return false; // a run of periods and commas
        }
        let prev_digit = shift_in(blocks, k, DIGIT_BITS, 0);
        let dash_after_digit = b[DASH_BITS] & prev_digit;
        let joined = b[PC_BITS] & prev_digit & shift_out(blocks, k, DIGIT_BITS, 0);
        let alone = b[SYMBOL_BITS] | dash_after_digit | b[PC_BITS] & !joined;
        // Cut before the byte and after it: the "after" of the block's last byte is carried
        // into the next block's first bit.
        blocks[k][CUT_BITS] |= alone | alone << 1;
        if let Some(next) = blocks.get_mut(k + 1) {
            next[CUT_BITS] |= alone >> 63;
        }
    }
    let mut open = 0;
    for k in 0..blocks.len() {
        let base = 64 * k;
        let word = !blocks[k][SPACE_BITS];
        let mut starts = word & (shift_in(blocks, k, SPACE_BITS, 1) | blocks[k][CUT_BITS]);
        let mut ends =
            word & (shift_out(blocks, k, SPACE_BITS, 1) | shift_out(blocks, k, CUT_BITS, 0));
        while ends != 0 {
            let e = ends.trailing_zeros() as usize;
            ends &= ends - 1;
            let upto = starts & (u64::MAX >> (63 - e));
            if upto != 0 {
                open = base + upto.trailing_zeros() as usize;
                starts &= !upto;
            }
            sink(open, base + e + 1);
        }
        if starts != 0 {
            open = base + starts.trailing_zeros() as usize;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass as the regular expression runs it: at each byte, a match consumes the pair,
    /// else the byte is copied.
    fn sub_bytes_naive(
        src: &[u8],
        matches: impl Fn(u8, u8) -> bool,
        replace: impl Fn(&mut Vec<u8>, u8, u8),
    ) -> Vec<u8> {
        let mut dst = Vec::new();
        let mut i = 0;
        while i < src.len() {
            if i + 1 < src.len() && matches(src[i], src[i + 1]) {
                replace(&mut dst, src[i], src[i + 1]);
                i += 2;
            } else {
                dst.push(src[i]);
                i += 1;
            }
        }
        dst
    }

    proptest::proptest! {
        /// Skipping to the next trigger byte changes nothing, for the three 13a passes.
        #[test]
        fn sub_bytes_skips_only_bytes_that_cannot_match(text in "[0-9.,a -]{0,40}") {
            let src = text.as_bytes();
            let digit = |c: u8| c.is_ascii_digit();
            let pc = |c: u8| c == b'.' || c == b',';
            let mut got = Vec::new();
            let m2 = |x: u8, y: u8| !digit(x) && pc(y);
            let r2 = |d: &mut Vec<u8>, x: u8, y: u8| d.extend_from_slice(&[x, b' ', y, b' ']);
            sub_bytes(src, &mut got, pc, true, m2, r2);
            proptest::prop_assert_eq!(&got, &sub_bytes_naive(src, m2, r2));
            let m3 = |x: u8, y: u8| pc(x) && !digit(y);
            let r3 = |d: &mut Vec<u8>, x: u8, y: u8| d.extend_from_slice(&[b' ', x, b' ', y]);
            sub_bytes(src, &mut got, pc, false, m3, r3);
            proptest::prop_assert_eq!(&got, &sub_bytes_naive(src, m3, r3));
            let m4 = |x: u8, y: u8| digit(x) && y == b'-';
            sub_bytes(src, &mut got, |c| c == b'-', true, m4, r2);
            proptest::prop_assert_eq!(&got, &sub_bytes_naive(src, m4, r2));
        }
    }

    /// Pieces of adversarial 13a input: runs of periods and commas beside digits and
    /// letters, dashes, symbols, the replacements' patterns (whole, cut or cased), Python's
    /// whitespace (ASCII and not), and non-ASCII letters, digits and punctuation.
    const PIECES: &[&str] = &[
        "a",
        "B",
        "x",
        "7",
        "0",
        "12",
        ".",
        ",",
        ".",
        ",",
        "-",
        "--",
        " ",
        "  ",
        "\t",
        "\n",
        "\r",
        "\x1c",
        "\x0b",
        "'",
        "\"",
        "(",
        ")",
        "$",
        "%",
        "/",
        "\\",
        "@",
        "_",
        "`",
        "~",
        "{",
        "}",
        "[",
        "^",
        "|",
        "+",
        "=",
        ":",
        ";",
        "?",
        "!",
        "#",
        "*",
        "<",
        ">",
        "&",
        "&quot;",
        "&amp;",
        "&lt;",
        "&gt;",
        "&QUOT;",
        "&amp",
        "<skipped>",
        "<SKIPPED>",
        "<skip",
        "-\n",
        "é",
        "É",
        "ß",
        "Σ",
        "İ",
        "\u{212a}",
        "’",
        "“",
        "…",
        "€",
        "£",
        "\u{85}",
        "\u{a0}",
        "\u{1680}",
        "\u{2000}",
        "\u{200a}",
        "\u{200b}",
        "\u{2028}",
        "\u{202f}",
        "\u{205f}",
        "\u{3000}",
        "\u{3001}",
        "中",
        "٣",
        "\u{ff0c}",
        "\u{e1}",
        "\u{2212}",
    ];

    /// The oracle: lowercased as `Tokenizer::sacrebleu_into` did, then the passes in turn.
    fn passes(text: &str, lowercase: bool) -> Vec<String> {
        let lowered = match (lowercase, text.is_ascii()) {
            (false, _) => text.to_string(),
            (true, true) => text.to_ascii_lowercase(),
            (true, false) => text.to_lowercase(),
        };
        run(tokenize_13a_passes, &lowered)
    }

    fn scanned(text: &str, lowercase: bool) -> Vec<String> {
        let (mut buf, mut spans) = (String::from("stale"), vec![(0, 1)]);
        tokenize_13a(text, lowercase, &mut buf, &mut spans);
        let tokens: Vec<String> = spans
            .iter()
            .map(|&(s, e)| buf[s as usize..e as usize].to_string())
            .collect();
        // The buffer is the tokens one space apart, as `' '.join(line.split())`.
        assert_eq!(buf, tokens.join(" "));
        // The same tokens as ranges of the text, unless the replacements might apply.
        let mut in_place = vec![(0, 1)];
        let replaces = text.contains(['<', '&', '\n']);
        assert_eq!(
            spans_13a_in_place(text, &mut in_place),
            !replaces,
            "{text:?}"
        );
        if !replaces && !lowercase {
            let same: Vec<&str> = in_place
                .iter()
                .map(|&(s, e)| &text[s as usize..e as usize])
                .collect();
            assert_eq!(same, tokens);
        }
        tokens
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// The one-scan 13a equals the passes run one after another.
        #[test]
        fn scan_equals_the_passes(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..24),
            lowercase: bool,
        ) {
            let text = pieces.concat();
            proptest::prop_assert_eq!(scanned(&text, lowercase), passes(&text, lowercase));
        }

        /// The same on ASCII text drawn byte by byte around digits, periods, commas, dashes.
        #[test]
        fn scan_equals_the_passes_ascii(text in "[0-9.,a-c \\-&;<>()'\"\n]{0,40}", lowercase: bool) {
            proptest::prop_assert_eq!(scanned(&text, lowercase), passes(&text, lowercase));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// The 64-byte reader of plain text gives the one-scan 13a's token ranges, and
        /// reads every text that is plain (no `<`, `&`, line feed, non-ASCII whitespace, no
        /// run of periods and commas), the others left to the scan with nothing handed over.
        #[test]
        fn plain_reader_equals_the_scan(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..60),
            ascii in "[0-9a-c .,\\-'!(/:@\\[`{~\t\r\x0b\x0c\x1c-\x1f\x00\x7f]{0,200}",
            use_pieces: bool,
        ) {
            let text = if use_pieces { pieces.concat() } else { ascii };
            let mut want = Vec::new();
            let scanned = spans_13a_in_place(&text, &mut want);
            let mut got = Vec::new();
            let mut blocks = Vec::new();
            let read = scan_13a_plain(&text, &mut blocks, |s, e| got.push((s as u32, e as u32)));
            let bytes = text.as_bytes();
            let plain = !text.chars().any(|c| !c.is_ascii() && py_isspace(c))
                && !text.contains(['<', '&', '\n'])
                && !bytes.windows(2).any(|w| w.iter().all(|&b| b == b'.' || b == b','));
            proptest::prop_assert_eq!(read, plain, "{:?}", text);
            if read {
                proptest::prop_assert!(scanned);
                proptest::prop_assert_eq!(got, want, "{:?}", text);
            } else {
                proptest::prop_assert!(got.is_empty());
            }
        }
    }

    #[test]
    fn scan_runs_of_periods_and_commas() {
        // Figures from sacrebleu 2.6.0's Tokenizer13a.
        let cases: [(&str, &[&str]); 10] = [
            ("a..5", &["a", ".", ".5"]),
            ("a...5", &["a", ".", ".", ".", "5"]),
            ("3..5", &["3", ".", ".", "5"]),
            ("3...5", &["3", ".", ".", ".5"]),
            ("3.,5", &["3", ".", ",", "5"]),
            ("x.5", &["x", ".", "5"]),
            (".5", &[".", "5"]),
            ("3,000.50", &["3,000.50"]),
            ("1--x", &["1", "-", "-x"]),
            ("e.g.,5", &["e", ".", "g", ".", ",5"]),
        ];
        for (text, want) in cases {
            assert_eq!(scanned(text, false), want, "{text:?}");
        }
    }

    fn run(f: fn(&str, &mut String, &mut Vec<(u32, u32)>), text: &str) -> Vec<String> {
        let (mut buf, mut spans) = (String::new(), Vec::new());
        f(text, &mut buf, &mut spans);
        spans
            .iter()
            .map(|&(s, e)| buf[s as usize..e as usize].to_string())
            .collect()
    }

    fn thirteen_a(text: &str, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
        tokenize_13a(text, false, buf, spans)
    }

    #[test]
    fn thirteen_a_examples() {
        // Figures from sacrebleu 2.6.0's Tokenizer13a.
        assert_eq!(
            run(thirteen_a, "Hello, world! It's 3.5-km (1,000 m)."),
            ["Hello", ",", "world", "!", "It's", "3.5", "-", "km", "(", "1,000", "m", ")", "."]
        );
        assert_eq!(run(thirteen_a, "a.,b"), ["a", ".", ",", "b"]);
        assert_eq!(
            run(thirteen_a, "&amp;lt; &quot;x&quot;"),
            ["<", "\"", "x", "\""]
        );
        assert_eq!(run(thirteen_a, "foo-\n"), ["foo-"]);
        assert_eq!(run(thirteen_a, "a<skipped>b"), ["ab"]);
        assert!(run(thirteen_a, " \u{3000}").is_empty());
    }

    #[test]
    fn intl() {
        assert_eq!(run(tokenize_intl, "Year 2021."), ["Year", "2021."]);
        assert_eq!(run(tokenize_intl, "1,000.5 €x"), ["1,000.5", "€", "x"]);
        assert_eq!(
            run(tokenize_intl, "„Hallo“, sagte er."),
            ["„", "Hallo", "“", ",", "sagte", "er", "."]
        );
    }

    #[test]
    fn python_whitespace_splits() {
        assert_eq!(run(tokenize_intl, "a\u{1c}b"), ["a", "b"]);
    }
}
