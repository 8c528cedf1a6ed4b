//! The Porter (1980) stemmer as ROUGE-1.5.5 runs it.
//!
//! ROUGE-1.5.5 uses Jim Richardson's Perl formulation of the original algorithm (Porter.pm),
//! which works on the *reversed* word with anchored regular expressions and counts a
//! "syllable" as `[aeiou]*[^aeiou][^aeiouy]*[aeiouy]` read backwards from the end of the word
//! instead of Porter's measure m. It has Richardson's extra British `-ise` rules and m>0 (not
//! m>1) in step 5b. One departure from Porter.pm was established by running ROUGE-1.5.5: step 4
//! tries every suffix rule in turn on the word as the previous rules left it (so
//! `environmental → environ`, not `environment`), whereas steps 2 and 3 pick one rule by the
//! word's last letters.
//!
//! The regular expressions never need backtracking in the end: a syllable matched from a
//! given position has exactly one possible end, which is what [`syl_end`] computes. The
//! twin `tests/twins_stem.py` runs the regular expressions themselves with Python's `re`.

const fn is_v(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

const fn is_vy(c: u8) -> bool {
    is_v(c) || c == b'y'
}

/// End of the one match of `[aeiou]*[^aeiou][^aeiouy]*[aeiouy]` starting at `q` in `r`.
fn syl_end(r: &[u8], q: usize) -> Option<usize> {
    let a = q + r.get(q..)?.iter().position(|&c| !is_v(c))?;
    let b = a + 1 + r[a + 1..].iter().position(|&c| is_vy(c))?;
    Some(b + 1)
}

/// `$syl$syl` matches at `q` (m > 1 for the stem `r[q..]`).
fn two_syl(r: &[u8], q: usize) -> bool {
    syl_end(r, q).and_then(|e| syl_end(r, e)).is_some()
}

/// `[^aeiouy]*([aeiou]|y.)` matches at `q`: the stem `r[q..]` contains a vowel.
fn has_vowel(r: &[u8], q: usize) -> bool {
    match r.get(q..).and_then(|s| s.iter().position(|&c| is_vy(c))) {
        Some(k) => is_v(r[q + k]) || q + k + 1 < r.len(),
        None => false,
    }
}

/// Replaces the first `cut` bytes of `r` with `with` (a reversed suffix).
fn replace_prefix(r: &mut Vec<u8>, cut: usize, with: &[u8]) {
    r.splice(0..cut, with.iter().copied());
}

/// `^pat` for a literal (reversed) suffix.
fn starts(r: &[u8], pat: &[u8]) -> bool {
    r.starts_with(pat)
}

/// A rule group of steps 2 and 3: the word's last three letters (reversed) select it; its
/// rules are tried in order and the first whose suffix ends the word with a syllable before it
/// replaces the suffix (both reversed), as the Perl's `s/a/../ || s/b/../`.
type Group = (&'static [u8], &'static [(&'static [u8], &'static [u8])]);

const STEP2: [Group; 14] = [
    (b"lan", &[(b"lanoita", b"eta"), (b"lanoit", b"noit")]),
    (b"icn", &[(b"icna", b"ecna"), (b"icne", b"ecne")]),
    (b"rez", &[(b"rezi", b"ezi")]),
    (b"res", &[(b"resi", b"esi")]),
    (b"ilb", &[(b"ilba", b"elba"), (b"ilbi", b"elbi")]),
    (b"ill", &[(b"illa", b"la")]),
    (b"ilt", &[(b"iltne", b"tne")]),
    (b"ile", &[(b"ile", b"e")]),
    (b"ils", &[(b"ilsuo", b"suo")]),
    // -ization → -ize, -isation → -ise, else -ation → -ate.
    (
        b"noi",
        &[
            (b"noitazi", b"ezi"),
            (b"noitasi", b"esi"),
            (b"noita", b"eta"),
        ],
    ),
    (b"rot", &[(b"rota", b"eta")]),
    (b"msi", &[(b"msila", b"la")]),
    (
        b"sse",
        &[
            (b"ssenevi", b"evi"),
            (b"ssenluf", b"luf"),
            (b"ssensuo", b"suo"),
        ],
    ),
    // aliti → al, biliti → ble, iviti → ive.
    (
        b"iti",
        &[(b"itila", b"la"), (b"itilib", b"elb"), (b"itivi", b"evi")],
    ),
];

const STEP3: [Group; 8] = [
    (b"eta", &[(b"etaci", b"ci")]),
    (b"evi", &[(b"evita", b"")]),
    (b"ezi", &[(b"ezila", b"la")]),
    (b"esi", &[(b"esila", b"la")]),
    (b"iti", &[(b"itici", b"ci")]),
    (b"lac", &[(b"laci", b"ci")]),
    (b"luf", &[(b"luf", b"")]),
    (b"sse", &[(b"ssen", b"")]),
];

fn apply_group(r: &mut Vec<u8>, groups: &[Group]) {
    let key = &r[..r.len().min(3)];
    let Some((_, rules)) = groups.iter().find(|(k, _)| *k == key) else {
        return;
    };
    let hit = rules
        .iter()
        .find(|(suffix, _)| r.starts_with(suffix) && syl_end(r, suffix.len()).is_some());
    if let Some((suffix, with)) = hit {
        replace_prefix(r, suffix.len(), with);
    }
}

/// Step 4: every rule in turn, each on the word the previous ones left (see module docs).
/// A rule is a list of alternative reversed suffixes tried in the Perl's order; the first whose
/// remainder has two syllables is cut, except its last `keep` bytes (the s/t of -sion/-tion).
fn step4(r: &mut Vec<u8>) {
    const RULES: [(&[&[u8]], usize); 15] = [
        (&[b"la"], 0),
        (&[b"ecna", b"ecne"], 0),
        (&[b"re"], 0),
        (&[b"ci"], 0),
        (&[b"elba", b"elbi"], 0),
        // `^tn(a|e(me?)?)`: -ant, then -ement, -ment, -ent.
        (&[b"tna", b"tneme", b"tnem", b"tne"], 0),
        (&[b"noit", b"nois"], 1),
        (&[b"uo"], 0),
        (&[b"msi"], 0),
        (&[b"eta"], 0),
        (&[b"iti"], 0),
        (&[b"suo"], 0),
        (&[b"evi"], 0),
        (&[b"ezi"], 0),
        (&[b"esi"], 0),
    ];
    for (alternatives, keep) in RULES {
        let cut = alternatives
            .iter()
            .find(|s| r.starts_with(s) && two_syl(r, s.len()));
        if let Some(s) = cut {
            replace_prefix(r, s.len() - keep, b"");
        }
    }
}

/// Stems one lowercase ASCII word (other bytes count as consonants).
pub fn stem(word: &str) -> String {
    let mut r: Vec<u8> = word.bytes().rev().collect();
    // Step 1a: plurals.
    if r.first() == Some(&b's') {
        if starts(&r, b"sess") || starts(&r, b"sei") {
            replace_prefix(&mut r, 2, b"");
        } else if r.len() > 1 && r[1] != b's' {
            r.remove(0);
        }
    }
    // Step 1b: -eed, -ed, -ing.
    if starts(&r, b"dee") && syl_end(&r, 3).is_some() {
        r.remove(0);
    } else {
        let cut = if starts(&r, b"de") {
            2
        } else if starts(&r, b"gni") {
            3
        } else {
            0
        };
        if cut > 0 && has_vowel(&r, cut) {
            replace_prefix(&mut r, cut, b"");
            if starts(&r, b"ta") || starts(&r, b"lb") || starts(&r, b"si") || starts(&r, b"zi") {
                r.insert(0, b'e');
            } else if r.len() > 1
                && r[0] == r[1]
                && !matches!(r[0], b'a' | b'e' | b'i' | b'o' | b'u' | b'l' | b's' | b'z')
            {
                r.remove(0);
            } else if r.len() >= 3
                && !matches!(r[0], b'a' | b'e' | b'i' | b'o' | b'u' | b'w' | b'x' | b'y')
                && is_vy(r[1])
                && r[2..].iter().all(|&c| !is_v(c))
            {
                r.insert(0, b'e');
            }
        }
    }
    // Step 1c: y → i when the rest has a vowel.
    if r.first() == Some(&b'y') && has_vowel(&r, 1) {
        r[0] = b'i';
    }
    apply_group(&mut r, &STEP2);
    apply_group(&mut r, &STEP3);
    step4(&mut r);
    // Step 5a: final e, when m > 1, or m = 1 and not *o.
    if r.first() == Some(&b'e') {
        if two_syl(&r, 1) {
            r.remove(0);
        } else {
            let cvd = r.len() >= 4
                && !matches!(r[1], b'a' | b'e' | b'i' | b'o' | b'u' | b'w' | b'x' | b'y')
                && is_vy(r[2])
                && !is_v(r[3]);
            // `^e($syl[aeiouy]*[^aeiou]*)$`
            let m1 = syl_end(&r, 1).is_some_and(|e| {
                let k = e + r[e..].iter().take_while(|&&c| is_vy(c)).count();
                r[k..].iter().all(|&c| !is_v(c))
            });
            if !cvd && m1 {
                r.remove(0);
            }
        }
    }
    // Step 5b: -ll → -l when the rest has a syllable.
    if starts(&r, b"ll") && syl_end(&r, 2).is_some() {
        r.remove(0);
    }
    r.reverse();
    // Only ASCII letters are removed or inserted, so non-ASCII input stays valid UTF-8 unless
    // a doubled byte inside a multi-byte character was undoubled; callers stem ASCII only.
    String::from_utf8(r).unwrap_or_else(|_| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn rouge155_documented_stems() {
        for (w, s) in [
            ("monday", "mondai"),
            ("agreement", "agreem"),
            ("trying", "try"),
            ("environmental", "environ"),
            ("government", "govern"),
            ("successful", "success"),
            ("forests", "forest"),
            ("ministry", "ministri"),
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("relational", "relat"),
            ("controll", "control"),
            ("hopping", "hop"),
            ("filing", "file"),
            ("realise", "realis"),
            ("organisation", "organ"),
            ("adjustment", "adjust"),
            ("replacement", "replac"),
            ("adoption", "adopt"),
            ("feed", "fe"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }

    #[test]
    fn short_and_odd_words() {
        for w in ["", "s", "ss", "y", "is", "1990", "ab1"] {
            let _ = stem(w);
        }
        assert_eq!(stem("1990s"), "1990");
    }
}
