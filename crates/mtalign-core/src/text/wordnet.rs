//! A WordNet database directory read as nltk's `WordNetCorpusReader` reads it, for METEOR's
//! synonym stage: `synonyms(word)` is the set of lemma names of every synset
//! `wordnet.synsets(word)` returns (nltk's morphy over the four parts of speech).
//!
//! Files read (the Princeton WordNet 3.0 layout, as Debian's `wordnet-base` installs it):
//! `index.{noun,verb,adj,adv}` (lemma → synset offsets), `data.{noun,verb,adj,adv}` (only the
//! lemma names of each synset) and `{noun,verb,adj,adv}.exc` (irregular forms). Lines that
//! start with a space are the license header, skipped as nltk skips them.

use crate::{Error, Result};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// nltk's part-of-speech order (`POS_LIST`) and file names.
const POS: [(char, &str); 4] = [('n', "noun"), ('v', "verb"), ('a', "adj"), ('r', "adv")];

/// nltk's `MORPHOLOGICAL_SUBSTITUTIONS`, per part of speech in [`POS`] order.
const SUBSTITUTIONS: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

/// One part of speech: lemma → synsets, irregular form → base forms.
#[derive(Debug, Default)]
struct PartOfSpeech {
    index: FxHashMap<Box<str>, Vec<u32>>,
    exceptions: FxHashMap<Box<str>, Vec<Box<str>>>,
}

/// A loaded WordNet database.
#[derive(Debug, Default)]
pub struct WordNet {
    pos: [PartOfSpeech; 4],
    /// Lemma names of synset `s`: `names[name_ends[s]..name_ends[s + 1]]`.
    names: Vec<Box<str>>,
    name_ends: Vec<u32>,
    /// Where it was read from.
    pub dir: PathBuf,
}

fn bad(path: &Path, what: &str) -> Error {
    Error::Config(format!(
        "wordnet: {} is not a WordNet database file ({what})",
        path.display()
    ))
}

fn read(dir: &Path, name: &str) -> Result<(PathBuf, String)> {
    let path = dir.join(name);
    match std::fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(s) => Ok((path, s)),
            // WordNet 3.0's files are ASCII; accept Latin-1 bytes as nltk's reader would not
            // choke on them either.
            Err(e) => Ok((path, e.into_bytes().iter().map(|&b| b as char).collect())),
        },
        Err(e) => Err(Error::Config(format!(
            "wordnet: {} is not a WordNet database directory: cannot read {name} ({e})",
            dir.display()
        ))),
    }
}

/// A lemma name as nltk keeps it: a syntactic marker such as `(a)`, `(p)` or `(ip)` at the
/// end cut off (nltk's `(.*?)(\([^()]*\))?$`).
fn lemma_name(raw: &str) -> &str {
    if let Some(body) = raw.strip_suffix(')') {
        if let Some(k) = body.rfind('(') {
            if !body[k + 1..].contains(')') {
                return &raw[..k];
            }
        }
    }
    raw
}

impl WordNet {
    /// Reads the database in `dir`; [`Error::Config`] naming the file if one is missing or
    /// malformed.
    pub fn load(dir: &Path) -> Result<Self> {
        if !dir.is_dir() {
            return Err(Error::Config(format!(
                "wordnet: {} is not a directory (give the WordNet database directory, e.g. \
                 /usr/share/wordnet from Debian's wordnet-base)",
                dir.display()
            )));
        }
        let mut wn = WordNet {
            dir: dir.to_path_buf(),
            name_ends: vec![0],
            ..Default::default()
        };
        for (p, &(_, file)) in POS.iter().enumerate() {
            // Synsets of this part of speech: data-file offset → synset number.
            let (path, data) = read(dir, &format!("data.{file}"))?;
            let mut by_offset: FxHashMap<u32, u32> = FxHashMap::default();
            for (lineno, line) in data.lines().enumerate() {
                if line.starts_with(' ') || line.is_empty() {
                    continue;
                }
                let mut it = line.split_ascii_whitespace();
                let parsed = (|| {
                    let offset: u32 = it.next()?.parse().ok()?;
                    it.next()?; // lex_filenum
                    it.next()?; // ss_type
                    let n = usize::from_str_radix(it.next()?, 16).ok()?;
                    let mut names = Vec::with_capacity(n);
                    for _ in 0..n {
                        names.push(lemma_name(it.next()?));
                        it.next()?; // lex_id
                    }
                    Some((offset, names))
                })();
                let Some((offset, names)) = parsed else {
                    return Err(bad(&path, &format!("line {} malformed", lineno + 1)));
                };
                by_offset.insert(offset, (wn.name_ends.len() - 1) as u32);
                wn.names.extend(names.into_iter().map(Box::from));
                wn.name_ends.push(wn.names.len() as u32);
            }
            let (path, index) = read(dir, &format!("index.{file}"))?;
            let part = &mut wn.pos[p];
            for (lineno, line) in index.lines().enumerate() {
                if line.starts_with(' ') || line.is_empty() {
                    continue;
                }
                let mut it = line.split_ascii_whitespace();
                let parsed = (|| {
                    let lemma = it.next()?;
                    it.next()?; // pos
                    let n_synsets: usize = it.next()?.parse().ok()?;
                    let n_pointers: usize = it.next()?.parse().ok()?;
                    for _ in 0..n_pointers {
                        it.next()?;
                    }
                    let n_senses: usize = it.next()?.parse().ok()?;
                    if n_senses != n_synsets || n_synsets == 0 {
                        return None;
                    }
                    it.next()?; // tagsense count
                    let mut synsets = Vec::with_capacity(n_synsets);
                    for _ in 0..n_synsets {
                        let offset: u32 = it.next()?.parse().ok()?;
                        synsets.push(*by_offset.get(&offset)?);
                    }
                    Some((lemma, synsets))
                })();
                let Some((lemma, synsets)) = parsed else {
                    return Err(bad(&path, &format!("line {} malformed", lineno + 1)));
                };
                part.index.insert(lemma.into(), synsets);
            }
            if part.index.is_empty() {
                return Err(bad(&path, "no entries"));
            }
            let (_, exc) = read(dir, &format!("{file}.exc"))?;
            for line in exc.lines() {
                let mut terms = line.split_whitespace();
                if let Some(form) = terms.next() {
                    let bases = terms.map(Box::from).collect();
                    part.exceptions.insert(form.into(), bases);
                }
            }
        }
        Ok(wn)
    }

    /// nltk's `_morphy(form, pos)`: the exception list's base forms if `form` is in it, else
    /// the substitution rules applied once; with `form` itself first, each kept if it is a
    /// lemma of that part of speech. Calls `f` with each (duplicates possible).
    fn morphy(&self, p: usize, form: &str, mut f: impl FnMut(&[u32])) {
        let part = &self.pos[p];
        let mut visit = |candidate: &str| {
            if let Some(s) = part.index.get(candidate) {
                f(s);
            }
        };
        visit(form);
        if let Some(bases) = part.exceptions.get(form) {
            for b in bases {
                visit(b);
            }
            return;
        }
        for &(old, new) in SUBSTITUTIONS[p] {
            if let Some(stem) = form.strip_suffix(old) {
                visit(&format!("{stem}{new}"));
            }
        }
    }

    /// Calls `f` with the lemma name of every lemma of every synset of `wordnet.synsets(word)`
    /// (nltk lowercases `word` first); names repeat when synsets share them.
    pub fn for_each_synonym(&self, word: &str, mut f: impl FnMut(&str)) {
        let lower;
        let word = if word.chars().any(|c| c.is_uppercase()) {
            lower = word.to_lowercase();
            lower.as_str()
        } else {
            word
        };
        for p in 0..POS.len() {
            self.morphy(p, word, |synsets| {
                for &s in synsets {
                    let (a, b) = (self.name_ends[s as usize], self.name_ends[s as usize + 1]);
                    for name in &self.names[a as usize..b as usize] {
                        f(name);
                    }
                }
            });
        }
    }

    /// The number of synsets read.
    pub fn n_synsets(&self) -> usize {
        self.name_ends.len() - 1
    }

    /// The database in `dir`, read once per process (per canonical path) and shared.
    pub fn load_cached(dir: &Path) -> Result<Arc<WordNet>> {
        static CACHE: OnceLock<Mutex<FxHashMap<PathBuf, Arc<WordNet>>>> = OnceLock::new();
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let cache = CACHE.get_or_init(Default::default);
        if let Some(wn) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(wn.clone());
        }
        let wn = Arc::new(WordNet::load(dir)?);
        cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, wn.clone());
        Ok(wn)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A three-synset database in the WordNet file layout.
    pub(crate) fn tiny() -> tempdir::Dir {
        let dir = tempdir::Dir::new("wn");
        let noun_data = "  license line\n00000100 05 n 02 dog 0 domestic_dog 0 000 | a dog\n\
                         00000200 05 n 02 hound 0 hound_dog 0 000 | a hound\n";
        dir.write("data.noun", noun_data);
        dir.write(
            "index.noun",
            "  license\ndog n 1 0 1 0 00000100\nhound n 2 0 2 0 00000200 00000100\n",
        );
        dir.write("data.verb", "00000300 30 v 02 run 0 go 0 000 | to run\n");
        dir.write("index.verb", "run n 1 0 1 0 00000300\n");
        dir.write("data.adj", "00000400 00 s 01 quick(a) 0 000 | fast\n");
        dir.write("index.adj", "quick a 1 0 1 0 00000400\n");
        dir.write("data.adv", "00000500 02 r 01 fast 0 000 | quickly\n");
        dir.write("index.adv", "fast r 1 0 1 0 00000500\n");
        dir.write("noun.exc", "");
        dir.write("verb.exc", "ran run\n");
        dir.write("adj.exc", "");
        dir.write("adv.exc", "");
        dir
    }

    pub(crate) mod tempdir {
        use std::path::PathBuf;
        pub struct Dir(pub PathBuf);
        impl Dir {
            pub fn new(tag: &str) -> Self {
                let p = std::env::temp_dir().join(format!(
                    "mtalign-{tag}-{}-{:?}",
                    std::process::id(),
                    std::thread::current().id()
                ));
                let _ = std::fs::remove_dir_all(&p);
                std::fs::create_dir_all(&p).unwrap();
                Dir(p)
            }
            pub fn write(&self, name: &str, text: &str) {
                std::fs::write(self.0.join(name), text).unwrap();
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    fn synonyms(wn: &WordNet, w: &str) -> Vec<String> {
        let mut out = Vec::new();
        wn.for_each_synonym(w, |n| out.push(n.to_string()));
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn reads_the_layout_and_applies_morphy() {
        let dir = tiny();
        let wn = WordNet::load(&dir.0).unwrap();
        assert_eq!(wn.n_synsets(), 5);
        assert_eq!(synonyms(&wn, "dog"), ["dog", "domestic_dog"]);
        // "dogs" → "dog" by the noun rule s → "".
        assert_eq!(synonyms(&wn, "dogs"), ["dog", "domestic_dog"]);
        assert_eq!(
            synonyms(&wn, "Hound"),
            ["dog", "domestic_dog", "hound", "hound_dog"]
        );
        // The verb exception list: ran → run.
        assert_eq!(synonyms(&wn, "ran"), ["go", "run"]);
        // Adjective markers are cut off; "quicker" → "quick" by er → "".
        assert_eq!(synonyms(&wn, "quicker"), ["quick"]);
        assert!(synonyms(&wn, "cat").is_empty());
    }

    #[test]
    fn missing_or_malformed_files_are_named() {
        let dir = tiny();
        std::fs::remove_file(dir.0.join("verb.exc")).unwrap();
        let e = WordNet::load(&dir.0).unwrap_err().to_string();
        assert!(e.contains("verb.exc"), "{e}");
        let dir = tiny();
        dir.write("index.adv", "fast r x 0 1 0 00000500\n");
        let e = WordNet::load(&dir.0).unwrap_err().to_string();
        assert!(e.contains("index.adv") && e.contains("line 1"), "{e}");
        let e = WordNet::load(Path::new("/nonexistent/wordnet")).unwrap_err();
        assert!(e.to_string().contains("not a directory"));
    }
}
