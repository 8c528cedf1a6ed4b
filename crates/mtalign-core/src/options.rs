//! Options whose value is one name from a fixed list, declared once: `choice_enum!` writes
//! the enum, its list of names (exported to Python, so no list is typed twice), `parse` with
//! the one error message, and `name`. Every such option of every metric is in [`CHOICES`].

/// Declares an enum of named choices: `choice_enum! { /// doc  pub enum Name, "option" {
/// Variant => "name", ... } }`.
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident, $option:literal {
            $($(#[$vmeta:meta])* $variant:ident => $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every accepted name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text,)+];
            /// The option's name in messages and in [`crate::options::CHOICES`].
            pub const OPTION: &'static str = $option;

            /// The choice called `name`, or a `Config` error listing the names.
            pub fn parse(name: &str) -> $crate::Result<Self> {
                match name {
                    $($text => Ok(Self::$variant),)+
                    _ => Err($crate::Error::Config(format!(
                        "unknown {} '{}' (choose from: {})",
                        $option,
                        name,
                        Self::NAMES.join(", ")
                    ))),
                }
            }

            /// This choice's name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)+
                }
            }
        }
    };
}
pub(crate) use choice_enum;

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
