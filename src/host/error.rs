//! Host-section and `--arg` errors: values that cannot be built or bound to the kernel.

use crate::source::Span;

/// A launch that cannot be set up (exit status 2).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum HostError {
    /// `a = arange(m);` with no `m`
    #[error("unknown name `{name}` in the launch setup")]
    #[diagnostic(code(simt::host::unknown_name))]
    UnknownName {
        /// The name.
        name: String,
        /// Where.
        #[label("not set before this point")]
        span: Span,
        /// A close name.
        #[help]
        help: Option<String>,
    },
    /// `a = zeros(1.5);`, `x = foo(3);`
    #[error("{message}")]
    #[diagnostic(code(simt::host::bad_value))]
    BadValue {
        /// What is wrong.
        message: String,
        /// Where.
        #[label("{label}")]
        span: Span,
        /// Short label.
        label: String,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// `simt run k.sk` where `k` needs `n` and `a`
    #[error("missing kernel argument(s): {missing}")]
    #[diagnostic(code(simt::host::missing_argument))]
    MissingArguments {
        /// Names without a value.
        missing: String,
        /// The kernel.
        #[label("`{kernel}` takes: {signature}")]
        span: Span,
        /// The kernel name.
        kernel: String,
        /// Every parameter with its type.
        signature: String,
        /// How to give them.
        #[help]
        help: String,
    },
    /// `load("missing.npy")`
    #[error("cannot read `{path}`: {reason}")]
    #[diagnostic(code(simt::host::file))]
    File {
        /// The path.
        path: String,
        /// What went wrong.
        reason: String,
        /// Where it is named.
        #[label("this file")]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// `--block 2048`, `--grid 0`
    #[error("invalid launch shape: {message}")]
    #[diagnostic(code(simt::host::launch_shape))]
    LaunchShape {
        /// What is wrong.
        message: String,
        /// Where the shape was set (empty for command-line flags).
        #[label("set here")]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
}
