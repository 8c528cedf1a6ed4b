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

/// Step 2 (reversed suffix → reversed replacement, when the stem has a syllable).
fn step2(r: &mut Vec<u8>) {
    let key: &[u8] = &r[..r.len().min(3)];
    let syl = |r: &[u8], q| syl_end(r, q).is_some();
    match key {
        b"lan" => {
            if starts(r, b"lanoita") && syl(r, 7) {
                replace_prefix(r, 7, b"eta");
            } else if starts(r, b"lanoit") && syl(r, 6) {
                replace_prefix(r, 6, b"noit");
            }
        }
        b"icn" => {
            if r.len() > 3 && matches!(r[3], b'a' | b'e') && syl(r, 4) {
                replace_prefix(r, 3, b"ecn");
            }
        }
        // `^re(.)i($syl)`: -izer, -iser (the key already fixed the middle letter).
        b"rez" | b"res" => {
            if r.len() > 3 && r[3] == b'i' && syl(r, 4) {
                r.remove(0);
            }
        }
        b"ilb" => {
            if r.len() > 3 && matches!(r[3], b'a' | b'i') && syl(r, 4) {
                r[0] = b'e';
            }
        }
        b"ill" => {
            if starts(r, b"illa") && syl(r, 4) {
                replace_prefix(r, 4, b"la");
            }
        }
        b"ilt" => {
            if starts(r, b"iltne") && syl(r, 5) {
                replace_prefix(r, 5, b"tne");
            }
        }
        b"ile" => {
            if syl(r, 3) {
                replace_prefix(r, 3, b"e");
            }
        }
        b"ils" => {
            if starts(r, b"ilsuo") && syl(r, 5) {
                replace_prefix(r, 5, b"suo");
            }
        }
        b"noi" => {
            if starts(r, b"noita")
                && r.len() > 6
                && matches!(r[5], b's' | b'z')
                && r[6] == b'i'
                && syl(r, 7)
            {
                // -ization → -ize, -isation → -ise
                let z = r[5];
                replace_prefix(r, 7, &[b'e', z, b'i']);
            } else if starts(r, b"noita") && syl(r, 5) {
                replace_prefix(r, 5, b"eta");
            }
        }
        b"rot" => {
            if starts(r, b"rota") && syl(r, 4) {
                replace_prefix(r, 4, b"eta");
            }
        }
        b"msi" => {
            if starts(r, b"msila") && syl(r, 5) {
                replace_prefix(r, 5, b"la");
            }
        }
        b"sse" => {
            for end in [&b"evi"[..], b"luf", b"suo"] {
                if r.len() >= 7 && &r[4..7] == end && starts(r, b"ssen") && syl(r, 7) {
                    replace_prefix(r, 4, b"");
                    break;
                }
            }
        }
        b"iti" => {
            // aliti → al, biliti → ble, iviti → ive (tried in this order).
            if starts(r, b"itila") && syl(r, 5) {
                replace_prefix(r, 5, b"la");
            } else if starts(r, b"itilib") && syl(r, 6) {
                replace_prefix(r, 6, b"elb");
            } else if starts(r, b"itivi") && syl(r, 5) {
                replace_prefix(r, 5, b"evi");
            }
        }
        _ => {}
    }
}

/// Step 3.
fn step3(r: &mut Vec<u8>) {
    let key: &[u8] = &r[..r.len().min(3)];
    let rules: &[(&[u8], &[u8])] = match key {
        b"eta" => &[(b"etaci", b"ci")],
        b"evi" => &[(b"evita", b"")],
        b"ezi" => &[(b"ezila", b"la")],
        b"esi" => &[(b"esila", b"la")],
        b"iti" => &[(b"itici", b"ci")],
        b"lac" => &[(b"laci", b"ci")],
        b"luf" => &[(b"luf", b"")],
        b"sse" => &[(b"ssen", b"")],
        _ => &[],
    };
    for &(suffix, with) in rules {
        if starts(r, suffix) && syl_end(r, suffix.len()).is_some() {
            replace_prefix(r, suffix.len(), with);
        }
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
    step2(&mut r);
    step3(&mut r);
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
