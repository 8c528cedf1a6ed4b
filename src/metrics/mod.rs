//! The native metrics: one list, [`native_metrics!`], from which the one Python class
//! `NativeMetric` ([`native`]) and the exported option tables are made. A metric is its
//! core file (a `mtalign_core::metrics::contract::Contract`) plus one line here. SIA's
//! tables (translation and word similarity) and its `explain` are in [`sia`].

/// Writes, from the list of native metrics, `AnyMetric` (one variant per metric, holding its
/// `Configured` core), `AnyMetric::build` (by name, from option values), `AnyMetric::TABLES`
/// (every option table) and `dispatch!` (one expression over whichever metric it holds, its
/// generic code instantiated once per metric). `$d` is a `$`, for the inner macro.
macro_rules! native_metrics {
    ($d:tt $($variant:ident => $module:ident :: $ty:ident,)+) => {
        /// One configured native metric, whichever it is.
        pub(crate) enum AnyMetric {
            $(
                #[doc = concat!("`", stringify!($module), "::", stringify!($ty), "`.")]
                $variant(
                    mtalign_core::metrics::contract::Configured<
                        mtalign_core::metrics::$module::$ty,
                    >,
                ),
            )+
        }

        impl AnyMetric {
            /// Every native metric's (name, option table), in list order.
            pub(crate) const TABLES: &'static [(
                &'static str,
                &'static [mtalign_core::options::OptionSpec],
            )] = &[$((
                <mtalign_core::metrics::$module::$ty as mtalign_core::metrics::contract::Contract>::NAME,
                <mtalign_core::metrics::$module::$ty as mtalign_core::metrics::contract::Contract>::OPTIONS,
            ),)+];

            /// The metric called `name`, configured by `given` (option name, value) pairs.
            pub(crate) fn build(
                name: &str,
                given: Vec<(String, mtalign_core::options::Value)>,
            ) -> Result<Self, mtalign_core::Error> {
                use mtalign_core::metrics::contract::{configure, Contract};
                $(
                    if name == <mtalign_core::metrics::$module::$ty as Contract>::NAME {
                        return Ok(Self::$variant(configure(given)?));
                    }
                )+
                Err(Self::unknown(name))
            }

            /// The refusal of a name that is not in the list.
            pub(crate) fn unknown(name: &str) -> mtalign_core::Error {
                let names: Vec<&str> = Self::TABLES.iter().map(|(n, _)| *n).collect();
                mtalign_core::Error::Config(format!(
                    "unknown native metric '{name}' (choose from: {})",
                    names.join(", ")
                ))
            }
        }

        /// `dispatch!(any, m => expr)`: `expr` with `m` bound to the `Configured` core of
        /// whichever metric `any` (an `&AnyMetric`) holds.
        macro_rules! dispatch {
            ($d any:expr, $d m:ident => $d body:expr) => {
                match $d any {
                    $(crate::metrics::AnyMetric::$variant($d m) => $d body,)+
                }
            };
        }
    };
}

native_metrics! { $
    Bleu => bleu::BleuConfig,
    Cer => cer::Cer,
    Chrf => chrf::ChrfConfig,
    Dcs => dcs::Dcs,
    ErrorRate => error_rate::ErrorRate,
    Gtm => gtm::GtmConfig,
    Meteor => meteor::MeteorConfig,
    Nist => nist::Nist,
    Ribes => ribes::RibesConfig,
    Rouge => rouge::RougeConfig,
    Sia => sia::SiaMetric,
    Ter => ter::TerConfig,
}

mod native;
mod sia;

use pyo3::prelude::*;

/// Every native metric class, once, and the option tables.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<native::NativeMetric>()?;
    native::register_tables(m)?;
    m.add_class::<sia::WordSimilarityCore>()?;
    m.add_class::<sia::TranslationTableCore>()?;
    Ok(())
}
