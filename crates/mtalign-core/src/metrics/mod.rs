//! One module per metric: its configuration, sufficient statistics per sentence pair and
//! scores, built from [`crate::kernels`] over ids from [`crate::text`]. Every metric
//! implements [`metric::Metric`]; [`metric::statistics_batch`] runs any of them over a batch.

pub mod bleu;
pub mod bleu_lines;
pub mod cer;
pub mod choices;
pub mod chrf;
pub mod chunked;
pub mod contract;
pub mod dcs;
pub mod error_rate;
pub mod gtm;
pub mod ids;
pub mod matrix;
pub mod meteor;
pub mod metric;
pub mod nist;
pub mod orange;
pub mod ribes;
pub mod rouge;
pub mod sia;
pub mod ter;
