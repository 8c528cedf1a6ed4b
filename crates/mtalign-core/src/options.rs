//! Metric options, declared once in the core: each native metric's option table
//! ([`OptionSpec`]: name, kind, default, doc, choices), the map of values a configuration is
//! built from ([`Options`], kinds and required options checked). The bindings export the
//! tables as `mtalign._mtalign.OPTIONS`, so Python does not type them twice. Named choices
//! are declared where they are used, with `choice_enum!` ([`crate::choice`]), and listed in
//! [`crate::metrics::choices::CHOICES`]: this module sits below the metrics, which build
//! from it, so it imports none of them.

use crate::text::tokenize::TokenizerKind;
use crate::{Error, Result};
use std::any::Any;
use std::sync::Arc;

/// The kind of value an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// A whole number (`usize` options refuse negative ones when read).
    Int,
    /// A number (a whole number is taken as a float).
    Float,
    /// A string (a name from `choices` where the table gives them).
    Str,
    /// A list of distinct names (ROUGE's variants, METEOR's stages).
    Names,
    /// A file or directory path (read when the configuration is built).
    Path,
    /// An object made by the bindings (SIA's similarity table).
    Object,
}

impl Kind {
    /// The kind with its article, for messages: "an int", "a float", ...
    pub fn described(self) -> &'static str {
        match self {
            Kind::Bool => "a bool",
            Kind::Int => "an int",
            Kind::Float => "a float",
            Kind::Str => "a str",
            Kind::Names => "a list of names",
            Kind::Path => "a path",
            Kind::Object => "an object",
        }
    }

    /// The kind's name in messages and in the exported tables.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bool => "bool",
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Str => "str",
            Kind::Names => "names",
            Kind::Path => "path",
            Kind::Object => "object",
        }
    }
}

/// An option's default, as a table can hold it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DefaultValue {
    /// The option must be given.
    Required,
    /// No value (the option is optional).
    None,
    /// A bool.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// A string.
    Str(&'static str),
    /// A list of names.
    Names(&'static [&'static str]),
}

/// One row of a metric's option table.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    /// The keyword (the same in Python, the CLI and the docs).
    pub name: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// Its default.
    pub default: DefaultValue,
    /// `None` is accepted (a default computed elsewhere, or "no limit").
    pub optional: bool,
    /// One line for documentation.
    pub doc: &'static str,
    /// The accepted names of a `Str` or `Names` option, where the list is fixed.
    pub choices: Option<&'static [&'static str]>,
}

impl OptionSpec {
    /// A required-kind option with a default and a doc line (`optional` and `choices` off).
    pub const fn new(
        name: &'static str,
        kind: Kind,
        default: DefaultValue,
        doc: &'static str,
    ) -> Self {
        Self {
            name,
            kind,
            default,
            optional: matches!(default, DefaultValue::None),
            doc,
            choices: None,
        }
    }

    /// The same option, `None` accepted.
    pub const fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// The same option with its list of accepted names.
    pub const fn choices(mut self, names: &'static [&'static str]) -> Self {
        self.choices = Some(names);
        self
    }
}

/// The `tokenize` option of the word-level baselines: sacrebleu's `13a` by default.
pub const TOKENIZE_13A: OptionSpec = OptionSpec::new(
    "tokenize",
    Kind::Str,
    DefaultValue::Str("13a"),
    "the tokenizer",
)
.choices(TokenizerKind::NAMES);
/// The `lowercase` option of the word-level baselines: case kept by default (as sacrebleu).
pub const LOWERCASE_NO: OptionSpec = OptionSpec::new(
    "lowercase",
    Kind::Bool,
    DefaultValue::Bool(false),
    "lowercase before tokenizing",
);

/// The `tokenize` option of the metrics that read any script (ROUGE, SIA): `unicode` by default.
pub const TOKENIZE_UNICODE: OptionSpec = OptionSpec::new(
    "tokenize",
    Kind::Str,
    DefaultValue::Str("unicode"),
    "the tokenizer",
)
.choices(TokenizerKind::NAMES);
/// The `lowercase` option of ROUGE and SIA: lowercased by default (as rouge-score).
pub const LOWERCASE_YES: OptionSpec = OptionSpec::new(
    "lowercase",
    Kind::Bool,
    DefaultValue::Bool(true),
    "lowercase before tokenizing",
);

/// The `max_words` option of a metric that refuses pairs over a size up front
/// (`None`: no limit), with its default limit.
pub const fn max_words(default: usize) -> OptionSpec {
    OptionSpec::new(
        "max_words",
        Kind::Int,
        DefaultValue::Int(default as i64),
        "the size limit of a pair (None: no limit); does not change any score",
    )
    .optional()
}

/// One option's value.
#[derive(Clone)]
pub enum Value {
    /// No value.
    None,
    /// A bool.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// A string.
    Str(String),
    /// A list of names.
    Names(Vec<String>),
    /// An object made by the bindings.
    Object(Arc<dyn Any + Send + Sync>),
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::None => f.write_str("None"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Names(n) => write!(f, "{n:?}"),
            Value::Object(_) => f.write_str("<object>"),
        }
    }
}

impl Value {
    fn of_default(d: DefaultValue) -> Self {
        match d {
            DefaultValue::Required | DefaultValue::None => Value::None,
            DefaultValue::Bool(b) => Value::Bool(b),
            DefaultValue::Int(i) => Value::Int(i),
            DefaultValue::Float(f) => Value::Float(f),
            DefaultValue::Str(s) => Value::Str(s.to_string()),
            DefaultValue::Names(n) => Value::Names(n.iter().map(|s| s.to_string()).collect()),
        }
    }

    fn kind_name(&self) -> &'static str {
        match self {
            Value::None => "None",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Names(_) => "list of names",
            Value::Object(_) => "object",
        }
    }

    /// The value as an option of `kind` takes it (an int given for a float becomes one).
    fn of_kind(self, kind: Kind) -> Option<Self> {
        match (kind, self) {
            (Kind::Float, Value::Int(i)) => Some(Value::Float(i as f64)),
            (Kind::Names, Value::Str(s)) => Some(Value::Names(vec![s])),
            (k, v) => {
                let ok = matches!(
                    (k, &v),
                    (Kind::Bool, Value::Bool(_))
                        | (Kind::Int, Value::Int(_))
                        | (Kind::Float, Value::Float(_))
                        | (Kind::Str | Kind::Path, Value::Str(_))
                        | (Kind::Names, Value::Names(_))
                        | (Kind::Object, Value::Object(_))
                );
                ok.then_some(v)
            }
        }
    }
}

/// The values of one metric's options: every option of its table, given or defaulted, each
/// of its kind. A metric builds its configuration from it (`Contract::build`), which
/// checks ranges and names.
///
/// ```
/// use mtalign_core::options::{DefaultValue, Kind, OptionSpec, Options, Value};
/// const TABLE: &[OptionSpec] = &[
///     OptionSpec::new("order", Kind::Int, DefaultValue::Int(4), "the longest n-gram"),
///     OptionSpec::new("beta", Kind::Float, DefaultValue::Float(1.0), "recall's weight"),
/// ];
/// let o = Options::parse("toy", TABLE, vec![("beta".into(), Value::Int(2))])?;
/// assert_eq!((o.usize("order")?, o.f64("beta")), (4, 2.0));
/// let err = Options::parse("toy", TABLE, vec![("gamma".into(), Value::Int(2))]);
/// assert!(err.unwrap_err().to_string().contains("toy has no option 'gamma'"));
/// # Ok::<(), mtalign_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Options {
    table: &'static [OptionSpec],
    values: Vec<Value>,
}

impl Options {
    /// The options of `metric` (named in messages) with table `table`, from the `given`
    /// (name, value) pairs: unknown names, values of the wrong kind and missing required
    /// options are refused; the rest take their defaults.
    pub fn parse(
        metric: &str,
        table: &'static [OptionSpec],
        given: Vec<(String, Value)>,
    ) -> Result<Self> {
        let mut values: Vec<Option<Value>> = vec![None; table.len()];
        for (name, value) in given {
            let Some(k) = table.iter().position(|o| o.name == name) else {
                let known: Vec<&str> = table.iter().map(|o| o.name).collect();
                return Err(Error::Config(format!(
                    "{metric} has no option '{name}' (options: {})",
                    known.join(", ")
                )));
            };
            let spec = &table[k];
            let value = match value {
                Value::None if spec.optional => Value::None,
                v => {
                    let got = v.kind_name();
                    v.of_kind(spec.kind).ok_or_else(|| {
                        Error::Config(format!(
                            "{name} must be {}{} (got {got})",
                            spec.kind.described(),
                            if spec.optional { " or None" } else { "" }
                        ))
                    })?
                }
            };
            values[k] = Some(value);
        }
        let values = table
            .iter()
            .zip(values)
            .map(|(spec, v)| match (v, spec.default) {
                (Some(v), _) => Ok(v),
                (None, DefaultValue::Required) => Err(Error::Config(format!(
                    "{metric} needs option '{}'",
                    spec.name
                ))),
                (None, d) => Ok(Value::of_default(d)),
            })
            .collect::<Result<_>>()?;
        Ok(Self { table, values })
    }

    fn get(&self, name: &str) -> &Value {
        match self.table.iter().position(|o| o.name == name) {
            Some(k) => &self.values[k],
            None => panic!("option '{name}' is not in the metric's table"),
        }
    }

    /// A `Bool` option.
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), Value::Bool(true))
    }

    /// An `Int` option as a count (a negative one refused).
    pub fn usize(&self, name: &str) -> Result<usize> {
        self.opt_usize(name)?
            .ok_or_else(|| Error::Config(format!("{name} must be given")))
    }

    /// An optional `Int` option as a count (a negative one refused).
    pub fn opt_usize(&self, name: &str) -> Result<Option<usize>> {
        match self.get(name) {
            Value::Int(i) => usize::try_from(*i)
                .map(Some)
                .map_err(|_| Error::Config(format!("{name} must be >= 0 (got {i})"))),
            _ => Ok(None),
        }
    }

    /// A `Float` option (NaN when absent; only optional ones can be).
    pub fn f64(&self, name: &str) -> f64 {
        self.opt_f64(name).unwrap_or(f64::NAN)
    }

    /// An optional `Float` option.
    pub fn opt_f64(&self, name: &str) -> Option<f64> {
        match self.get(name) {
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// A `Str` option ("" when absent; only optional ones can be).
    pub fn str(&self, name: &str) -> &str {
        self.opt_str(name).unwrap_or("")
    }

    /// An optional `Str` option.
    pub fn opt_str(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A `Names` option.
    pub fn names(&self, name: &str) -> &[String] {
        match self.get(name) {
            Value::Names(n) => n,
            _ => &[],
        }
    }

    /// An `Object` option of type `T` (None when absent or of another type).
    pub fn object<T: Any + Send + Sync>(&self, name: &str) -> Option<Arc<T>> {
        match self.get(name) {
            Value::Object(o) => o.clone().downcast::<T>().ok(),
            _ => None,
        }
    }
}
