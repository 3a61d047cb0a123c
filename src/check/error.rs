//! Check errors: names, types and constructs the simulator cannot run.

use crate::source::Span;

/// A kernel that parses but is not a valid program of the `.sk` language.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum CheckError {
    /// `y[i] = x[j];` where `j` was never declared
    #[error("unknown name `{name}`")]
    #[diagnostic(code(simt::check::unknown_name))]
    UnknownName {
        /// The name.
        name: String,
        /// Where it is used.
        #[label("not declared here")]
        span: Span,
        /// A close name, if any.
        #[help]
        suggestion: Option<String>,
    },
    /// `flaot x = 1.0f;`
    #[error("unknown type `{name}`")]
    #[diagnostic(code(simt::check::unknown_type))]
    UnknownType {
        /// The name.
        name: String,
        /// Where it is used.
        #[label("not a type")]
        span: Span,
        /// A close type name, or the list of types.
        #[help]
        suggestion: Option<String>,
    },
    /// `float y = sqrtff(x);`
    #[error("unknown function `{name}`")]
    #[diagnostic(code(simt::check::unknown_function))]
    UnknownFunction {
        /// The name.
        name: String,
        /// Where it is called.
        #[label("no such function")]
        span: Span,
        /// A close name, or the list of math functions.
        #[help]
        suggestion: Option<String>,
    },
    /// `launch vecad { ... }` with no kernel `vecad`
    #[error("no kernel named `{name}`")]
    #[diagnostic(code(simt::check::unknown_kernel))]
    UnknownKernel {
        /// The name.
        name: String,
        /// Where it is used.
        #[label("not a `__global__` function of this file")]
        span: Span,
        /// A close name or the kernels of the file.
        #[help]
        help: String,
    },
    /// `float x = a;` where `a` is a `float*`
    #[error("{message}")]
    #[diagnostic(code(simt::check::type_error))]
    Type {
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
    /// `a % b` with `a: float`
    #[error("`{op}` cannot be applied to `{lhs}` and `{rhs}`")]
    #[diagnostic(code(simt::check::operand_types))]
    OperandTypes {
        /// The operator.
        op: String,
        /// Left type.
        lhs: String,
        /// Right type.
        rhs: String,
        /// The operator's span.
        #[label("this operator")]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// `threadIdx.x = 0;` or `n = 4;` with `const int n`
    #[error("cannot assign to {what}")]
    #[diagnostic(code(simt::check::not_assignable))]
    NotAssignable {
        /// What the target is.
        what: String,
        /// The target.
        #[label("not assignable")]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// `fminf(a)`
    #[error("`{name}` takes {expected} argument(s), found {found}")]
    #[diagnostic(code(simt::check::argument_count))]
    ArgumentCount {
        /// The function.
        name: String,
        /// How many it takes.
        expected: String,
        /// How many were given.
        found: usize,
        /// The call.
        #[label("wrong number of arguments")]
        span: Span,
    },
    /// `atomicAdd(&x, 1)` — valid CUDA the simulator does not run (yet)
    #[error("{what} is not supported")]
    #[diagnostic(code(simt::check::unsupported))]
    Unsupported {
        /// The construct.
        what: String,
        /// Where it is.
        #[label("not supported by simt")]
        span: Span,
        /// What to write instead.
        #[help]
        help: Option<String>,
    },
    /// `__shared__ float s[n];` with a run-time `n`
    #[error("{what} must be a constant expression")]
    #[diagnostic(code(simt::check::not_constant))]
    NotConstant {
        /// What needed a constant.
        what: String,
        /// The expression.
        #[label("not known before the launch")]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// `int x = 1 / 0;`
    #[error("integer division by zero in a constant expression")]
    #[diagnostic(
        code(simt::check::division_by_zero),
        help("the divisor is always zero here")
    )]
    DivisionByZero {
        /// The division.
        #[label("divides by zero")]
        span: Span,
    },
    /// `int i; int i;`
    #[error("`{name}` is declared twice")]
    #[diagnostic(code(simt::check::duplicate), help("rename one of them"))]
    Duplicate {
        /// The name.
        name: String,
        /// The second declaration.
        #[label("declared again here")]
        span: Span,
        /// The first one.
        #[label("first declared here")]
        first: Span,
    },
    /// `break;` outside a loop
    #[error("`{what}` outside a loop")]
    #[diagnostic(
        code(simt::check::outside_loop),
        help("`break` and `continue` must be inside `for`, `while` or `do`")
    )]
    OutsideLoop {
        /// `break` or `continue`.
        what: String,
        /// Where.
        #[label("not in a loop")]
        span: Span,
    },
    /// `__shared__ float big[20000];` (80 KB)
    #[error(
        "static shared memory of {bytes} bytes exceeds the 48 KB (49152 bytes) per-block limit"
    )]
    #[diagnostic(
        code(simt::check::shared_too_large),
        help("CUDA rejects static __shared__ arrays above 48 KB; use `extern __shared__` with --dyn-smem, or smaller tiles")
    )]
    SharedTooLarge {
        /// Total static bytes.
        bytes: u64,
        /// The declaration that crossed the limit.
        #[label("this array crosses the limit")]
        span: Span,
    },
    /// `__device__` functions that each call the previous one twice, forty levels deep
    #[error("{what}")]
    #[diagnostic(
        code(simt::check::too_complex),
        help("each call of a `__device__` function expands its whole body; compute the value once in a variable instead")
    )]
    TooComplex {
        /// What grew too large.
        what: String,
        /// The use being expanded.
        #[label("while expanding this")]
        span: Span,
    },
    /// `x = 1;` as a host-section name that does not exist, or a bad `--kernel`
    #[error("the file has no kernel")]
    #[diagnostic(
        code(simt::check::no_kernel),
        help("declare one with `__global__ void name(...) {{ ... }}`")
    )]
    NoKernel {
        /// The file start.
        #[label("no `__global__` function in this file")]
        span: Span,
    },
}
