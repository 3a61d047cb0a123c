//! The pest parser generated from `grammar/sk.pest` (nothing else lives here).

/// The generated parser; `Rule` never leaves `syntax`.
#[derive(pest_derive::Parser)]
#[grammar = "../grammar/sk.pest"]
pub(crate) struct SkParser;
