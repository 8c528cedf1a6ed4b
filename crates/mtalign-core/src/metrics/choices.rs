//! Every option whose value is one name from a fixed list, in one catalogue that the bindings
//! export as `mtalign._mtalign.CHOICES` (Python's `choices=` lists and docs read it from
//! there). It sits above the metrics and text modules that declare the choices, so that the
//! option tables ([`crate::options`]) stay below the metrics.

use crate::metrics::bleu::{RefLength, Smooth};
use crate::metrics::error_rate::ErrorRate;
use crate::metrics::rouge::{Compat, MultiRef};
use crate::metrics::sia::Decay;
use crate::text::stem::Stemmer;
use crate::text::tokenize::TokenizerKind;

/// Every named-choice option: (option name, accepted names). The bindings export it as
/// `mtalign._mtalign.CHOICES`; Python's `choices=` lists and docs read it from there.
pub const CHOICES: &[(&str, &[&str])] = &[
    (TokenizerKind::OPTION, TokenizerKind::NAMES),
    (Stemmer::OPTION, Stemmer::NAMES),
    (MultiRef::OPTION, MultiRef::NAMES),
    (Compat::OPTION, Compat::NAMES),
    ("smooth", &Smooth::NAMES),
    (RefLength::OPTION, RefLength::NAMES),
    (ErrorRate::OPTION, ErrorRate::NAMES),
    (Decay::OPTION, Decay::NAMES),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_to_itself() {
        for name in TokenizerKind::NAMES {
            assert_eq!(TokenizerKind::parse(name).unwrap().name(), *name);
        }
        for name in MultiRef::NAMES {
            assert_eq!(MultiRef::parse(name).unwrap().name(), *name);
        }
        let err = Compat::parse("rouge156").unwrap_err().to_string();
        assert!(err.contains("unknown compat 'rouge156' (choose from: paper, rouge155"));
    }

    #[test]
    fn option_names_are_distinct() {
        let mut names: Vec<&str> = CHOICES.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CHOICES.len());
    }
}
