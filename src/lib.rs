//! simt: a paper GPU. Parse a CUDA kernel, run it over lane arrays, count what a profiler would.

#![deny(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms, missing_debug_implementations)]

pub mod async_copy;
pub mod check;
pub mod cli;
pub mod curand;
pub mod diag;
pub mod exec;
pub mod gpu;
pub mod host;
pub mod ir;
pub mod pipeline;
pub mod printf;
pub mod progress;
/// The reference interpreter: an oracle for the engine, built for the tests only (the
/// `reference` feature, which the test targets turn on), so that nothing can share code with it.
#[cfg(feature = "reference")]
pub mod reference;
pub mod render;
pub mod report;
pub mod rng;
pub mod source;
pub mod special;
mod stack;
pub mod suite;
pub mod syntax;
pub mod texture;
pub mod value;
pub mod wmma;
