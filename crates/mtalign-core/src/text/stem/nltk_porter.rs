//! nltk's `PorterStemmer()` in its default mode (`NLTK_EXTENSIONS`), which rouge-score uses.
//!
//! Porter (1980) with Martin Porter's later changes (`bli → ble`, `logi → log`, m>1 on the
//! whole word in step 5b) and nltk's own: a table of irregular forms, `-ies`/`-ied` of
//! four-letter words, `y → i` only after a consonant that is not the whole stem, `alli`
//! applied recursively, `fulli → ful`, and a two-letter `*o` (vowel, consonant). Written from
//! the algorithm's description in nltk's documentation; the tests compare it with nltk itself
//! over every distinct English word of the project's data.
//!
//! Words are sequences of Unicode scalar values (as Python strings are); a, e, i, o, u are
//! vowels, `y` is a consonant at the start or after a vowel, every other character is a
//! consonant. The word is not lowercased here (callers give lowercase tokens; nltk lowercases
//! before stemming, which rouge-score's lowercase tokens make a no-op).

type Word = Vec<char>;

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
}

/// Consonant flag of every character of `w`.
fn consonants(w: &[char]) -> impl Iterator<Item = bool> + '_ {
    let mut prev = true; // unused for the first character
    w.iter().enumerate().map(move |(i, &c)| {
        let cons = if is_vowel(c) {
            false
        } else if c == 'y' {
            i == 0 || !prev
        } else {
            true
        };
        prev = cons;
        cons
    })
}

/// Whether `w[i]` is a consonant: walks back over a run of y's only (nltk's own way).
fn is_consonant(w: &[char], mut i: usize) -> bool {
    if is_vowel(w[i]) {
        return false;
    }
    if w[i] != 'y' {
        return true;
    }
    let mut negate = false;
    while i > 0 && w[i] == 'y' {
        negate = !negate;
        i -= 1;
    }
    // A leading y stops the walk and counts as a consonant.
    is_vowel(w[i]) == negate
}

/// Porter's m: the number of vowel→consonant transitions.
fn measure(w: &[char]) -> usize {
    let mut m = 0;
    let mut prev_vowel = false;
    for cons in consonants(w) {
        if cons && prev_vowel {
            m += 1;
        }
        prev_vowel = !cons;
    }
    m
}

fn contains_vowel(w: &[char]) -> bool {
    consonants(w).any(|c| !c)
}

fn ends_double_consonant(w: &[char]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

/// *o: ends consonant-vowel-consonant, the last not w, x or y; or (nltk) is a two-letter
/// vowel-consonant word.
fn ends_cvc(w: &[char]) -> bool {
    let n = w.len();
    (n >= 3
        && is_consonant(w, n - 3)
        && !is_consonant(w, n - 2)
        && is_consonant(w, n - 1)
        && !matches!(w[n - 1], 'w' | 'x' | 'y'))
        || (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1))
}

/// Suffixes are ASCII, so their byte length is their length in characters.
fn ends_with(w: &[char], suffix: &str) -> bool {
    let n = suffix.len();
    n <= w.len()
        && w[w.len() - n..]
            .iter()
            .zip(suffix.bytes())
            .all(|(&c, b)| c == b as char)
}

fn replace(w: &mut Word, suffix_len: usize, with: &str) {
    w.truncate(w.len() - suffix_len);
    w.extend(with.chars());
}

type Cond = fn(&[char]) -> bool;

fn m_pos(stem: &[char]) -> bool {
    measure(stem) > 0
}

fn m_gt1(stem: &[char]) -> bool {
    measure(stem) > 1
}

/// The first rule whose suffix ends the word decides: replaced if its condition holds on the
/// stem, otherwise the word is returned unchanged (no later rule is tried).
fn apply_rules(w: &mut Word, rules: &[(&str, &str, Cond)]) {
    for &(suffix, with, cond) in rules {
        if ends_with(w, suffix) {
            let n = suffix.len();
            if cond(&w[..w.len() - n]) {
                replace(w, n, with);
            }
            return;
        }
    }
}

fn step1a(w: &mut Word) {
    if ends_with(w, "ies") && w.len() == 4 {
        return replace(w, 3, "ie");
    }
    let always: Cond = |_| true;
    apply_rules(
        w,
        &[
            ("sses", "ss", always),
            ("ies", "i", always),
            ("ss", "ss", always),
            ("s", "", always),
        ],
    );
}

fn step1b(w: &mut Word) {
    if ends_with(w, "ied") {
        let with = if w.len() == 4 { "ie" } else { "i" };
        return replace(w, 3, with);
    }
    if ends_with(w, "eed") {
        if measure(&w[..w.len() - 3]) > 0 {
            replace(w, 3, "ee");
        }
        return;
    }
    let cut = ["ed", "ing"].into_iter().find_map(|s| {
        let n = s.len();
        (ends_with(w, s) && contains_vowel(&w[..w.len() - n])).then_some(n)
    });
    let Some(n) = cut else { return };
    w.truncate(w.len() - n);
    if ends_with(w, "at") || ends_with(w, "bl") || ends_with(w, "iz") {
        w.push('e');
    } else if ends_double_consonant(w) {
        if !matches!(w[w.len() - 1], 'l' | 's' | 'z') {
            w.pop();
        }
    } else if measure(w) == 1 && ends_cvc(w) {
        w.push('e');
    }
}

fn step1c(w: &mut Word) {
    if ends_with(w, "y") {
        let n = w.len() - 1;
        if n > 1 && is_consonant(w, n - 1) {
            w[n] = 'i';
        }
    }
}

fn step2(w: &mut Word) {
    if ends_with(w, "alli") && m_pos(&w[..w.len() - 4]) {
        replace(w, 4, "al");
        return step2(w);
    }
    // `logi → log` checks the measure of the word without `ogi` (nltk keeps the `l`).
    let rules: [(&str, &str, Cond); 22] = [
        ("ational", "ate", m_pos),
        ("tional", "tion", m_pos),
        ("enci", "ence", m_pos),
        ("anci", "ance", m_pos),
        ("izer", "ize", m_pos),
        ("bli", "ble", m_pos),
        ("alli", "al", m_pos),
        ("entli", "ent", m_pos),
        ("eli", "e", m_pos),
        ("ousli", "ous", m_pos),
        ("ization", "ize", m_pos),
        ("ation", "ate", m_pos),
        ("ator", "ate", m_pos),
        ("alism", "al", m_pos),
        ("iveness", "ive", m_pos),
        ("fulness", "ful", m_pos),
        ("ousness", "ous", m_pos),
        ("aliti", "al", m_pos),
        ("iviti", "ive", m_pos),
        ("biliti", "ble", m_pos),
        ("fulli", "ful", m_pos),
        ("logi", "log", |stem| measure(&[stem, &['l']].concat()) > 0),
    ];
    apply_rules(w, &rules);
}

fn step3(w: &mut Word) {
    apply_rules(
        w,
        &[
            ("icate", "ic", m_pos),
            ("ative", "", m_pos),
            ("alize", "al", m_pos),
            ("iciti", "ic", m_pos),
            ("ical", "ic", m_pos),
            ("ful", "", m_pos),
            ("ness", "", m_pos),
        ],
    );
}

fn step4(w: &mut Word) {
    let ion: Cond = |stem| measure(stem) > 1 && matches!(stem.last(), Some('s' | 't'));
    apply_rules(
        w,
        &[
            ("al", "", m_gt1),
            ("ance", "", m_gt1),
            ("ence", "", m_gt1),
            ("er", "", m_gt1),
            ("ic", "", m_gt1),
            ("able", "", m_gt1),
            ("ible", "", m_gt1),
            ("ant", "", m_gt1),
            ("ement", "", m_gt1),
            ("ment", "", m_gt1),
            ("ent", "", m_gt1),
            ("ion", "", ion),
            ("ou", "", m_gt1),
            ("ism", "", m_gt1),
            ("ate", "", m_gt1),
            ("iti", "", m_gt1),
            ("ous", "", m_gt1),
            ("ive", "", m_gt1),
            ("ize", "", m_gt1),
        ],
    );
}

fn step5(w: &mut Word) {
    if ends_with(w, "e") {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            w.pop();
        }
    }
    // 5b: the condition is on the word minus one `l`.
    if ends_with(w, "ll") && measure(&w[..w.len() - 1]) > 1 {
        w.pop();
    }
}

/// nltk's irregular forms (checked before any rule).
fn irregular(word: &str) -> Option<&'static str> {
    Some(match word {
        "sky" | "skies" => "sky",
        "dying" => "die",
        "lying" => "lie",
        "tying" => "tie",
        "news" => "news",
        "innings" | "inning" => "inning",
        "outings" | "outing" => "outing",
        "cannings" | "canning" => "canning",
        "howe" => "howe",
        "proceed" => "proceed",
        "exceed" => "exceed",
        "succeed" => "succeed",
        _ => return None,
    })
}

/// Stems one word as `nltk.stem.PorterStemmer().stem(word)` does for a lowercase word.
pub fn stem(word: &str) -> String {
    if let Some(s) = irregular(word) {
        return s.to_string();
    }
    let mut w: Word = word.chars().collect();
    if w.len() <= 2 {
        return word.to_string();
    }
    step1a(&mut w);
    step1b(&mut w);
    step1c(&mut w);
    step2(&mut w);
    step3(&mut w);
    step4(&mut w);
    step5(&mut w);
    w.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn porter_paper_and_nltk_examples() {
        for (w, s) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("filing", "file"),
            ("happy", "happi"),
            ("enjoy", "enjoy"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("generalization", "gener"),
            ("agreement", "agreement"),
            ("adjustment", "adjust"),
            ("adoption", "adopt"),
            ("controll", "control"),
            ("roll", "roll"),
            ("dying", "die"),
            ("skies", "sky"),
            ("monday", "monday"),
            ("running", "run"),
            ("generously", "gener"),
            ("analogies", "analog"),
            ("environmental", "environment"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }
}
