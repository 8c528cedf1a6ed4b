//! The native metrics: one file each, registered in one list.

mod bleu;
mod chrf;
mod dcs;
mod error_rate;
mod gtm;
mod meteor;
mod nist;
mod ribes;
mod rouge;
mod sia;
mod ter;

use pyo3::prelude::*;

/// Every native metric class, once.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<rouge::RougeCore>()?;
    m.add_class::<dcs::DcsCore>()?;
    m.add_class::<bleu::BleuCore>()?;
    m.add_class::<chrf::ChrfCore>()?;
    m.add_class::<nist::NistCore>()?;
    m.add_class::<error_rate::ErrorRateCore>()?;
    m.add_class::<ribes::RibesCore>()?;
    m.add_class::<gtm::GtmCore>()?;
    m.add_class::<meteor::MeteorCore>()?;
    m.add_class::<sia::SiaCore>()?;
    m.add_class::<ter::TerCore>()?;
    m.add_class::<sia::WordSimilarityCore>()?;
    m.add_class::<sia::TranslationTableCore>()?;
    Ok(())
}
