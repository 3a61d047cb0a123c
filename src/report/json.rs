//! The JSON output of `simt run --json`: the report as the output model's [`RunOutput`].
//!
//! The wire format is the model's (`report::model`, whose doc comments are the field
//! descriptions of the generated JSON Schema, `simt schema`); README.md's "JSON" section
//! documents it for people, with every change from schema 1.

use serde_json::Value;

use super::model::RunOutput;
use super::Report;

pub use super::model::SCHEMA;

/// The report as a JSON value (keys in alphabetical order, as `simt run --json` prints them).
pub fn to_json(r: &Report) -> Value {
    to_value(&RunOutput::new(r))
}

/// Any part of the output model as a JSON value.
pub fn to_value<T: serde::Serialize>(doc: &T) -> Value {
    serde_json::to_value(doc).expect("the output model has string keys only, so it serialises")
}
