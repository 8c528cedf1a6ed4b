//! Options whose value is one name from a fixed list: `choice_enum!` writes the enum, its
//! list of names, `parse` with the one error message, and `name`. A leaf: `text/` and
//! `metrics/` declare their choices with it, and [`crate::metrics::choices::CHOICES`] lists them all.

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
            /// The option's name in messages and in [`crate::metrics::choices::CHOICES`].
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
