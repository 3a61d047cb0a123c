//! Parse errors: what the preprocessor refused or the grammar could not read, spanned in the file.

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
        #[label(primary, "{found}")]
        span: Span,
        /// What is at that place.
        found: String,
        /// The token of a `#define` that a macro put there (or that ends the expansion just before).
        #[label("from this macro")]
        macro_body: Option<Span>,
        /// A hint for the common causes.
        #[help]
        help: Option<String>,
    },
    /// `int i = threadIdx.x` with the `;` forgotten: the next line cannot continue it
    #[error("missing `;` at the end of this statement")]
    #[diagnostic(
        code(simt::parse::missing_semicolon),
        help("end the statement with `;`")
    )]
    MissingSemicolon {
        /// The end of the statement that lacks it.
        #[label("`;` expected after this")]
        span: Span,
        /// Where the next statement starts.
        #[label("the next statement starts here")]
        next: Span,
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
    /// `'ab'`, `'\q'`, `''`: not one character
    #[error("character literal {text} is not one character")]
    #[diagnostic(
        code(simt::parse::char_literal),
        help("write one character or an escape: 'a', '\\n', '\\0', '\\x41', '\\101'")
    )]
    CharLiteral {
        /// The literal.
        text: String,
        /// Where it is.
        #[label("not one character")]
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
    /// `#foo` on a line of its own: a directive the preprocessor does not know
    #[error("unknown preprocessor directive `#{name}`")]
    #[diagnostic(
        code(simt::parse::unknown_directive),
        help("the preprocessor runs #define, #undef, #if, #ifdef, #ifndef, #elif, #else, #endif and #error, keeps #pragma and drops #include")
    )]
    UnknownDirective {
        /// The word after `#`.
        name: String,
        /// The directive.
        #[label("not a directive")]
        span: Span,
    },
    /// `#define 3 4`, `#define F(a, a) a`, `#ifdef` with no name
    #[error("malformed `#{directive}`: {problem}")]
    #[diagnostic(
        code(simt::parse::bad_directive),
        help(
            "write `#define NAME body`, `#define NAME(a, b) body`, `#undef NAME` or `#ifdef NAME`"
        )
    )]
    BadDirective {
        /// The directive, without `#`.
        directive: String,
        /// What is wrong with it.
        problem: String,
        /// Where.
        #[label("here")]
        span: Span,
    },
    /// `#if 0` with no `#endif` before the end of the file
    #[error("`{directive}` is never closed")]
    #[diagnostic(
        code(simt::parse::unterminated_conditional),
        help("close it with `#endif`")
    )]
    UnterminatedConditional {
        /// `#if`, `#ifdef` or `#ifndef`.
        directive: String,
        /// The directive that opened it.
        #[label("opened here")]
        span: Span,
    },
    /// `#endif` or `#else` without `#if`, `#else` after `#else`
    #[error("`{directive}` {problem}")]
    #[diagnostic(
        code(simt::parse::unmatched_conditional),
        help("conditionals go `#if` … `#elif` … `#else` … `#endif`, each `#if` with one `#endif`")
    )]
    UnmatchedConditional {
        /// `#elif`, `#else` or `#endif`.
        directive: String,
        /// "without `#if`" or "after `#else`".
        problem: String,
        /// The directive.
        #[label("here")]
        span: Span,
    },
    /// `#if N +`, `#if 1 / 0`, `#if 1.5`
    #[error("cannot evaluate `{directive}`: {problem}")]
    #[diagnostic(
        code(simt::parse::bad_condition),
        help("`#if` takes an integer constant expression of literals, macros, `defined(NAME)` and C's operators; names that are not macros count as 0")
    )]
    BadCondition {
        /// `#if` or `#elif`.
        directive: String,
        /// What is wrong.
        problem: String,
        /// Where.
        #[label("here")]
        span: Span,
    },
    /// `MAX(1, 2, 3)` for `#define MAX(a, b) ((a) > (b) ? (a) : (b))`
    #[error("macro `{name}` takes {expected}, but this use has {found}")]
    #[diagnostic(
        code(simt::parse::macro_arguments),
        help("arguments are split at commas outside parentheses; wrap an argument that has a comma in `( )`")
    )]
    MacroArguments {
        /// The macro.
        name: String,
        /// How many it takes: `2 arguments`, `at least 1 argument` (with `...`).
        expected: String,
        /// How many the use has.
        found: usize,
        /// The use.
        #[label(primary, "this use")]
        span: Span,
        /// The macro's name in its `#define`.
        #[label("defined here")]
        def: Option<Span>,
    },
    /// `MAX(1, 2` with no `)` before the next directive or the end of the file
    #[error("the arguments of macro `{name}` are never closed")]
    #[diagnostic(
        code(simt::parse::unterminated_macro_call),
        help("a macro's arguments end with `)` before the next `#` line")
    )]
    UnterminatedMacroCall {
        /// The macro.
        name: String,
        /// Its name at the use.
        #[label("this use has no `)`")]
        span: Span,
    },
    /// `#define A1 A0 A0`, `#define A2 A1 A1`, … `#define A30 A29 A29`, then `A30`
    #[error("macro expansion writes more than 1048576 tokens")]
    #[diagnostic(
        code(simt::parse::macro_too_large),
        help("a macro that uses another several times grows exponentially with each level; compute the value once in a variable instead")
    )]
    MacroTooLarge {
        /// The macro use being expanded.
        #[label("while expanding this")]
        span: Span,
    },
    /// `CAT(+, /)` for `#define CAT(a, b) a ## b`
    #[error("`##` gives `{text}`, which is not one token")]
    #[diagnostic(
        code(simt::parse::bad_paste),
        help("`##` joins two tokens into one name, number or operator")
    )]
    BadPaste {
        /// The joined text.
        text: String,
        /// The macro use.
        #[label("in this macro use")]
        span: Span,
    },
    /// `#error this kernel needs sm_80`
    #[error("#error {message}")]
    #[diagnostic(
        code(simt::parse::error_directive),
        help("the file stops itself with `#error`; simt defines nvcc 12.4's __CUDACC__, __NVCC__, __CUDACC_VER_MAJOR__ (12), __CUDACC_VER_MINOR__ (4), CUDART_VERSION (12040), __CUDA_ARCH__ (900 on the default H100) and __cplusplus (201703L)")
    )]
    ErrorDirective {
        /// The text after `#error`.
        message: String,
        /// The directive.
        #[label("here")]
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
    #[error(
        "too large to read: the parser gave up after {} steps per byte",
        crate::syntax::CALLS_PER_BYTE
    )]
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
