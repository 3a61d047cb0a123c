//! Parse errors: what the grammar could not read, with a span into the whole file.

use crate::source::Span;

/// A failure to read the text of a `.sk` file or of an `--arg` value.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ParseError {
    /// `c[i] = a[i] +;` — the grammar expected something else here.
    #[error("syntax error: expected {expected}")]
    #[diagnostic(code(simt::parse::syntax))]
    Syntax {
        /// Friendly names of what would have been accepted.
        expected: String,
        /// Where reading stopped.
        #[label("{found}")]
        span: Span,
        /// What is at that place.
        found: String,
        /// A hint for the common causes.
        #[help]
        help: Option<String>,
    },
    /// `int x = 99999999999999999999;`
    #[error("integer literal `{text}` does not fit in 64 bits")]
    #[diagnostic(
        code(simt::parse::int_out_of_range),
        help("the largest literal is 18446744073709551615ull")
    )]
    IntOutOfRange {
        /// The literal.
        text: String,
        /// Where it is.
        #[label("too large")]
        span: Span,
    },
    /// `float x = 1e999f;`
    #[error("floating-point literal `{text}` is not a finite number")]
    #[diagnostic(
        code(simt::parse::float_out_of_range),
        help("use a value within the range of `double` (about 1.8e308)")
    )]
    FloatOutOfRange {
        /// The literal.
        text: String,
        /// Where it is.
        #[label("out of range")]
        span: Span,
    },
    /// `#define SQUARE(x) ((x)*(x))`
    #[error("`#define {name}` is not a constant expression")]
    #[diagnostic(
        code(simt::parse::bad_define),
        help("only object-like constants are supported, e.g. `#define N 1024`; write function-like macros as code")
    )]
    BadDefine {
        /// The macro name.
        name: String,
        /// The body.
        #[label("cannot read this as an expression")]
        span: Span,
    },
    /// `a[0] = ((((…1…))));` nested more than [`MAX_DEPTH`](super::MAX_DEPTH) levels, or past the parser's budget
    #[error("nested too deeply")]
    #[diagnostic(
        code(simt::parse::too_deep),
        help("at most 1000 levels of nested statements and expressions (an operator chain `a + b + …` counts one per operator); split it with temporary variables")
    )]
    TooDeep {
        /// Where the parser gave up.
        #[label("here")]
        span: Span,
    },
    /// A file of millions of statements: more than 100 million parser steps to read
    #[error("too large to read: the parser gave up after 100000000 steps")]
    #[diagnostic(
        code(simt::parse::too_large),
        help("split the file: keep each kernel in a file of its own, and long unrolled code in loops")
    )]
    TooLarge {
        /// Where the parser gave up.
        #[label("here")]
        span: Span,
    },
}
