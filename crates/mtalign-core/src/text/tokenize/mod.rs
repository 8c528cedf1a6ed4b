//! Tokenizers: text → token spans.
//!
//! * `unicode` (default): splits on every character that is not a letter, digit or combining
//!   mark in any script; each CJK ideograph, kana and hangul character is a token of its own
//!   (with any combining marks that follow it), so non-Latin text never vanishes.
//! * `whitespace`: splits on Unicode whitespace only.
//! * `split`: splits on Python's `str.split()` whitespace (Unicode's plus U+001C..U+001F),
//!   as sacrebleu splits tokenized text (and TER its words).
//! * `char`: every code point that is not whitespace is a token.
//! * `codepoint`: every code point is a token, whitespace included.
//!
//! `lowercase` applies full Unicode lowercasing (`str::to_lowercase`) before splitting.
//! A tokenizer writes the (possibly lowercased) text into a caller-owned buffer and the token
//! spans into a caller-owned vector, so tokenizing a corpus allocates nothing per sentence.

pub mod compat;
pub mod sacrebleu;

use crate::choice::choice_enum;
use crate::error::{Error, Result};
use unicode_general_category::{get_general_category, GeneralCategory};

choice_enum! {
    /// How text is split into tokens (see the module docs).
    pub enum TokenizerKind, "tokenizer" {
        /// Letters, digits and combining marks in any script; each CJK ideograph, kana and
        /// hangul character a token of its own (the default).
        Unicode => "unicode",
        /// Words between Unicode whitespace.
        Whitespace => "whitespace",
        /// Words between Python whitespace (`str.split()`), as sacrebleu splits tokenized text.
        Split => "split",
        /// Every code point that is not whitespace.
        Char => "char",
        /// Every code point, whitespace included (character-level DCS keeps spaces).
        Codepoint => "codepoint",
        /// ROUGE-1.5.5's tokenization (see [`crate::text::tokenize::compat`]).
        Rouge155 => "rouge155",
        /// rouge-score 0.1.2's tokenization (see [`crate::text::tokenize::compat`]).
        RougeScore => "rouge_score",
        /// sacrebleu's `13a` (mteval-v13a.pl), see [`crate::text::tokenize::sacrebleu`].
        Sacre13a => "13a",
        /// sacrebleu's `intl` (mteval-v14.pl international), see
        /// [`crate::text::tokenize::sacrebleu`].
        SacreIntl => "intl",
        /// sacrebleu's `zh` (Chinese characters set apart, then 13a's passes), see
        /// [`crate::text::tokenize::sacrebleu`].
        SacreZh => "zh",
    }
}

impl TokenizerKind {
    /// Tokenizers that lowercase by definition, as the tool they reproduce does.
    pub fn always_lowercases(self) -> bool {
        matches!(self, Self::Rouge155 | Self::RougeScore)
    }
}

/// A tokenizer: a kind and whether text is lowercased first.
///
/// ```
/// use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
/// let t = Tokenizer::new(TokenizerKind::Sacre13a, false);
/// assert_eq!(t.tokenize("Hello, world!"), ["Hello", ",", "world", "!"]);
/// let t = Tokenizer::parse("rouge_score", true)?; // rouge-score's: lowercase, words only
/// assert_eq!(t.tokenize("Hello, World!"), ["hello", "world"]);
/// # Ok::<(), mtalign_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tokenizer {
    /// How text is split (see the module docs).
    pub kind: TokenizerKind,
    /// Lowercase before splitting.
    pub lowercase: bool,
}

impl Tokenizer {
    /// A tokenizer of `kind` (no check: [`Tokenizer::parse`] refuses `lowercase=false` for the
    /// tokenizers that always lowercase).
    pub fn new(kind: TokenizerKind, lowercase: bool) -> Self {
        Self { kind, lowercase }
    }

    /// The tokenizer named `name`; `lowercase=false` is refused for the tokenizers that
    /// always lowercase (it could not be honoured).
    pub fn parse(name: &str, lowercase: bool) -> Result<Self> {
        let kind = TokenizerKind::parse(name)?;
        if kind.always_lowercases() && !lowercase {
            return Err(Error::Config(format!(
                "tokenize='{name}' always lowercases (as the tool it reproduces); \
                 lowercase=False is not available with it"
            )));
        }
        Ok(Self::new(kind, lowercase))
    }

    /// Tokenizes `text`: the normalised text goes to `buf` (cleared first) and the byte spans
    /// of its tokens, relative to `buf`, to `spans` (cleared first).
    pub fn tokenize_into(&self, text: &str, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
        if let TokenizerKind::Rouge155 | TokenizerKind::RougeScore = self.kind {
            let unicode = self.kind == TokenizerKind::RougeScore;
            return crate::text::tokenize::compat::tokenize_into(unicode, text, buf, spans);
        }
        if matches!(
            self.kind,
            TokenizerKind::Sacre13a | TokenizerKind::SacreIntl | TokenizerKind::SacreZh
        ) {
            return self.sacrebleu_into(text, buf, spans);
        }
        buf.clear();
        spans.clear();
        if self.lowercase {
            if text.is_ascii() {
                buf.push_str(text);
                buf.make_ascii_lowercase();
            } else {
                buf.push_str(&text.to_lowercase());
            }
        } else {
            buf.push_str(text);
        }
        match self.kind {
            TokenizerKind::Unicode => unicode_spans(buf, spans),
            TokenizerKind::Whitespace => whitespace_spans(buf, spans, char::is_whitespace),
            TokenizerKind::Split => {
                whitespace_spans(buf, spans, crate::text::tokenize::sacrebleu::py_isspace)
            }
            TokenizerKind::Char => char_spans(buf, spans, false),
            TokenizerKind::Codepoint => char_spans(buf, spans, true),
            // Returned above: they lowercase and rewrite the text their own way.
            TokenizerKind::Rouge155
            | TokenizerKind::RougeScore
            | TokenizerKind::Sacre13a
            | TokenizerKind::SacreIntl
            | TokenizerKind::SacreZh => {}
        }
    }

    /// sacrebleu's tokenizers rewrite the text, so the (lowercased) input is an argument and
    /// `buf` receives the tokenized line.
    fn sacrebleu_into(&self, text: &str, buf: &mut String, spans: &mut Vec<(u32, u32)>) {
        if self.kind == TokenizerKind::Sacre13a {
            // Lowercases as it scans.
            return crate::text::tokenize::sacrebleu::tokenize_13a(
                text,
                self.lowercase,
                buf,
                spans,
            );
        }
        let lowered;
        let text = if self.lowercase {
            lowered = if text.is_ascii() {
                text.to_ascii_lowercase()
            } else {
                text.to_lowercase()
            };
            lowered.as_str()
        } else {
            text
        };
        match self.kind {
            TokenizerKind::SacreZh => {
                crate::text::tokenize::sacrebleu::tokenize_zh(text, buf, spans)
            }
            _ => crate::text::tokenize::sacrebleu::tokenize_intl(text, buf, spans),
        }
    }

    /// Convenience for tests and one-off calls: the tokens as owned strings.
    pub fn tokenize(&self, text: &str) -> Vec<String> {
        let mut buf = String::new();
        let mut spans = Vec::new();
        self.tokenize_into(text, &mut buf, &mut spans);
        spans
            .iter()
            .map(|&(s, e)| buf[s as usize..e as usize].to_string())
            .collect()
    }
}

/// How the `unicode` tokenizer treats one character.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CharClass {
    /// Letter, digit or combining mark: part of a word.
    Word,
    /// A mark: joins whatever token precedes it (a word or an ideograph).
    Mark,
    /// CJK ideograph, kana or hangul: a token by itself.
    Ideograph,
    Separator,
}

fn classify(c: char) -> CharClass {
    if c.is_ascii() {
        return if c.is_ascii_alphanumeric() {
            CharClass::Word
        } else {
            CharClass::Separator
        };
    }
    match get_general_category(c) {
        // Marks first: some sit inside kana blocks (U+3099 voiced sound mark).
        GeneralCategory::NonspacingMark
        | GeneralCategory::SpacingMark
        | GeneralCategory::EnclosingMark => CharClass::Mark,
        _ if c.is_alphanumeric() => {
            if is_ideographic(c) {
                CharClass::Ideograph
            } else {
                CharClass::Word
            }
        }
        _ => CharClass::Separator,
    }
}

/// CJK ideographs (all blocks and extensions), kana, hangul: scripts written without spaces
/// between words (or, for hangul, where the issue asks for one token a character).
fn is_ideographic(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF      // Hangul Jamo
        | 0x2E80..=0x2FDF    // CJK radicals, Kangxi radicals
        | 0x3005..=0x3007    // 々 〆 〇
        | 0x3021..=0x3029    // Hangzhou numerals
        | 0x3031..=0x3035    // kana repeat marks
        | 0x3038..=0x303C
        | 0x3040..=0x309F    // Hiragana
        | 0x30A0..=0x30FF    // Katakana
        | 0x3130..=0x318F    // Hangul compatibility Jamo
        | 0x31F0..=0x31FF    // Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xA960..=0xA97F    // Hangul Jamo Extended-A
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xD7B0..=0xD7FF    // Hangul Jamo Extended-B
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width katakana
        | 0xFFA0..=0xFFDC    // half-width hangul
        | 0x1AFF0..=0x1B16F  // kana extensions and supplement
        | 0x20000..=0x3FFFF  // CJK Extensions B.. and compatibility supplement
    )
}

pub(crate) fn unicode_spans(text: &str, spans: &mut Vec<(u32, u32)>) {
    if text.is_ascii() {
        return ascii_word_spans(text.as_bytes(), spans);
    }
    // `open` is the start of the token being built; `ideograph` says whether that token is a
    // single ideograph (which only marks may extend).
    let mut open: Option<usize> = None;
    let mut ideograph = false;
    for (pos, c) in text.char_indices() {
        match classify(c) {
            CharClass::Word => {
                if ideograph {
                    close(&mut open, pos, spans);
                    ideograph = false;
                }
                open.get_or_insert(pos);
            }
            CharClass::Mark => {
                open.get_or_insert(pos);
            }
            CharClass::Ideograph => {
                close(&mut open, pos, spans);
                open = Some(pos);
                ideograph = true;
            }
            CharClass::Separator => {
                close(&mut open, pos, spans);
                ideograph = false;
            }
        }
    }
    close(&mut open, text.len(), spans);
}

fn close(open: &mut Option<usize>, end: usize, spans: &mut Vec<(u32, u32)>) {
    if let Some(start) = open.take() {
        spans.push((start as u32, end as u32));
    }
}

fn ascii_word_spans(bytes: &[u8], spans: &mut Vec<(u32, u32)>) {
    let mut start: Option<usize> = None;
    for (pos, b) in bytes.iter().enumerate() {
        if b.is_ascii_alphanumeric() {
            start.get_or_insert(pos);
        } else if let Some(s) = start.take() {
            spans.push((s as u32, pos as u32));
        }
    }
    if let Some(s) = start {
        spans.push((s as u32, bytes.len() as u32));
    }
}

fn whitespace_spans(text: &str, spans: &mut Vec<(u32, u32)>, is_space: fn(char) -> bool) {
    let mut start: Option<usize> = None;
    for (pos, c) in text.char_indices() {
        if is_space(c) {
            close(&mut start, pos, spans);
        } else {
            start.get_or_insert(pos);
        }
    }
    close(&mut start, text.len(), spans);
}

fn char_spans(text: &str, spans: &mut Vec<(u32, u32)>, keep_spaces: bool) {
    for (pos, c) in text.char_indices() {
        if keep_spaces || !c.is_whitespace() {
            spans.push((pos as u32, (pos + c.len_utf8()) as u32));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(kind: TokenizerKind, lowercase: bool, text: &str) -> Vec<String> {
        Tokenizer::new(kind, lowercase).tokenize(text)
    }

    #[test]
    fn unicode_splits_on_non_alphanumerics_and_lowercases() {
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "Hello, World! It's 3.5-km"),
            ["hello", "world", "it", "s", "3", "5", "km"]
        );
        assert_eq!(
            toks(TokenizerKind::Unicode, false, "Zürich CAFÉ"),
            ["Zürich", "CAFÉ"]
        );
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "ÉTÉ Σοφία"),
            ["été", "σοφία"]
        );
    }

    #[test]
    fn unicode_splits_cjk_into_characters() {
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "我爱NLP。東京タワー・ビル"),
            ["我", "爱", "nlp", "東", "京", "タ", "ワ", "ー", "ビ", "ル"]
        );
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "한국어"),
            ["한", "국", "어"]
        );
        // An ideograph outside the BMP (Extension B).
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "𠮷野家"),
            ["𠮷", "野", "家"]
        );
    }

    #[test]
    fn unicode_keeps_combining_marks_in_words() {
        // Devanagari vowel signs are combining marks: the word must stay whole.
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "नमस्ते दुनिया"),
            ["नमस्ते", "दुनिया"]
        );
        // Decomposed é (e + U+0301).
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "cafe\u{301} x"),
            ["cafe\u{301}", "x"]
        );
        // A combining voiced mark after kana stays with it.
        assert_eq!(
            toks(TokenizerKind::Unicode, true, "か\u{3099}き"),
            ["か\u{3099}", "き"]
        );
    }

    #[test]
    fn split_is_python_str_split() {
        assert_eq!(
            toks(
                TokenizerKind::Split,
                true,
                "A\u{1c}b\u{1f}C d\u{3000}e\u{85}f"
            ),
            ["a", "b", "c", "d", "e", "f"]
        );
        assert_eq!(
            toks(TokenizerKind::Whitespace, false, "a\u{1c}b"),
            ["a\u{1c}b"]
        );
    }

    #[test]
    fn whitespace_and_char() {
        assert_eq!(
            toks(TokenizerKind::Whitespace, false, " a,b\u{3000}C\td "),
            ["a,b", "C", "d"]
        );
        assert_eq!(
            toks(TokenizerKind::Char, true, "Ab c𠮷"),
            ["a", "b", "c", "𠮷"]
        );
    }

    #[test]
    fn empty_and_punctuation_only() {
        assert!(toks(TokenizerKind::Unicode, true, "").is_empty());
        assert!(toks(TokenizerKind::Unicode, true, " ... !!").is_empty());
        assert_eq!(
            toks(TokenizerKind::Whitespace, true, " ... !!"),
            ["...", "!!"]
        );
    }

    #[test]
    fn parse_names() {
        assert_eq!(TokenizerKind::parse("char").unwrap(), TokenizerKind::Char);
        let err = TokenizerKind::parse("13b").unwrap_err();
        assert!(err.to_string().contains("unknown tokenizer '13b'"));
    }
}
