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
    /// `static_assert(sizeof(float) == 8, "...");`
    #[error("static assertion failed{message}")]
    #[diagnostic(
        code(simt::check::static_assert),
        help("the condition is a constant and false, so a C++ compiler stops here too")
    )]
    StaticAssert {
        /// `: ` and the assertion's message, or nothing.
        message: String,
        /// The condition.
        #[label("false")]
        span: Span,
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
    /// A launch section's name that is no parameter of its kernel, no launch setting, and that
    /// nothing in the section reads: most often a misspelt parameter or setting.
    ///
    /// Example: `launch k { bock = 8; ... }` gives "`bock` is set but nothing uses it".
    #[error("`{name}` is set but nothing uses it")]
    #[diagnostic(code(simt::check::unused_launch_name))]
    UnusedLaunchName {
        /// The name.
        name: String,
        /// Where it is set.
        #[label("no parameter, setting or later use")]
        span: Span,
        /// A close name, or what a section may set.
        #[help]
        help: String,
    },
    /// `launch k { ... }` of an overloaded kernel `k` whose section sets the parameters of no
    /// overload, or of several equally.
    ///
    /// Example: overloads `k(int n, float* a)` and `k(int n, int* a)` with `launch k { n = 4; a =
    /// zeros(4); }` give "`k` has 2 overloads and this launch section fits 2 of them".
    #[error("`{name}` has {count} overloads and this launch section fits {fits} of them")]
    #[diagnostic(code(simt::check::kernel_overload))]
    KernelOverload {
        /// The kernel's name.
        name: String,
        /// How many overloads it has.
        count: usize,
        /// How many the section fits best, equally (0: none).
        fits: usize,
        /// The launch section's kernel name.
        #[label("which overload?")]
        span: Span,
        /// The overloads' signatures and how to choose.
        #[help]
        help: String,
    },
    /// A name or expression that is not a single number (a struct, a vector, an
    /// object, a group of threads, a pointer) used where a number is needed.
    ///
    /// Example: `float y = p;` where `p` is a `Point` gives "`p` is a `Point`, not a number".
    #[error("{subject} is {what}, not {wanted}")]
    #[diagnostic(code(simt::check::not_a_value))]
    NotAValue {
        /// What was used: "`p`", "this element", "`tile()`".
        subject: String,
        /// What it is instead: "a `Point`", "a pointer", "a group of threads".
        what: String,
        /// What was needed: "a number", "a value", "a scalar".
        wanted: &'static str,
        /// Where it is used.
        #[label("{what}")]
        span: Span,
        /// How to get a value out of it.
        #[help]
        help: Option<String>,
    },
    /// A call, or a type, that gives no value used where one is needed.
    ///
    /// Example: `int x = __syncthreads();` gives "`__syncthreads()` has no value".
    #[error("{what} has no value{why}")]
    #[diagnostic(code(simt::check::no_value))]
    NoValue {
        /// What was used: "`f()`", "`sync()`", "`void`".
        what: String,
        /// Why, when it is not obvious: " (it returns `void`)", or empty.
        why: &'static str,
        /// Where it is used.
        #[label("used as a value")]
        span: Span,
        /// How to write it.
        #[help]
        help: Option<String>,
    },
    /// A non-integer where only an integer will do: an index, a pointer offset,
    /// an array size, the operand of `~`, a count of bits.
    ///
    /// Example: `a[0.5f]` gives "an index must be an integer, found `float`".
    #[error("{what} must be an integer, found `{found}`")]
    #[diagnostic(code(simt::check::not_an_integer))]
    NotAnInteger {
        /// What needed an integer: "an index", "a pointer offset".
        what: String,
        /// The type found.
        found: String,
        /// The expression.
        #[label("not an integer")]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// An operator that a struct does not define.
    ///
    /// Example: `a + b` with `a, b: Point` and no `operator+` gives "`+` is not defined on `Point`".
    #[error("`{op}` is not defined on `{ty}`")]
    #[diagnostic(code(simt::check::no_operator))]
    NoOperator {
        /// The operator's symbol.
        op: String,
        /// The struct.
        ty: String,
        /// The operator.
        #[label("no operator for this struct")]
        span: Span,
        /// The function to define.
        #[help]
        help: String,
    },
    /// A free operator with several overloads, of which none fits the arguments' types or
    /// several fit equally well.
    ///
    /// Example: `v * 2` with only `operator*(const V&, const V&)` and no constructor `V(int)`
    /// gives "no `operator*` fits `V` and `int`".
    #[error("{} `operator{op}` fits {args}", if *ambiguous { "more than one" } else { "no" })]
    #[diagnostic(code(simt::check::operator_overload))]
    OperatorOverload {
        /// The operator's symbol.
        op: String,
        /// The arguments' types: "`V` and `int`".
        args: String,
        /// Several candidates fit equally well (else none fits).
        ambiguous: bool,
        /// The operator.
        #[label(primary, "called with {args}")]
        span: Span,
        /// Each candidate, labelled with its parameter types.
        #[label(collection)]
        candidates: Vec<miette::LabeledSpan>,
        /// The overload to declare, or the conversion to write.
        #[help]
        help: String,
    },
    /// A call of a function that two or more overloads fit equally well: C++ refuses it
    /// ([over.match.best]) rather than take one.
    ///
    /// Example: `m(1.0f, 1.0f)` with `m(float, double)` and `m(double, float)`.
    #[error("more than one `{name}` fits {args}")]
    #[diagnostic(code(simt::check::ambiguous_call))]
    AmbiguousCall {
        /// The function's name.
        name: String,
        /// The arguments' types: "`float` and `float`".
        args: String,
        /// The arguments.
        #[label(primary, "called with {args}")]
        span: Span,
        /// Each overload that fits, labelled with its parameter types.
        #[label(collection)]
        candidates: Vec<miette::LabeledSpan>,
        /// The conversion to write.
        #[help]
        help: String,
    },
    /// A template's arguments make a type of its declaration name no type (its `enable_if`
    /// condition is false): C++ discards it from the call's candidates ([temp.deduct], SFINAE).
    ///
    /// Example: `f(2)` of `template <typename T> enable_if_t<is_same_v<T, float>, T> f(T x)`.
    #[error("`{name}` is not callable with {with}: {why}")]
    #[diagnostic(code(simt::check::substitution_failure))]
    SubstitutionFailure {
        /// The template.
        name: String,
        /// The arguments, as bound: "`T = int`".
        with: String,
        /// Which type names no type.
        why: String,
        /// The call (or the instance).
        #[label(primary, "called here")]
        span: Span,
        /// The type that names no type.
        #[label("names no type for these arguments")]
        at: Span,
        /// What to do.
        #[help]
        help: String,
    },
    /// A call of a function template declared without a body for arguments no explicit
    /// specialisation names: what the linker reports as an undefined reference.
    ///
    /// Example: `add_one(2)` of `template <typename T> T add_one(T);` where only `template <>
    /// float add_one(float v) { ... }` is defined.
    #[error("`{name}` is declared but never defined for {with}")]
    #[diagnostic(
        code(simt::check::undefined_function),
        help("define the template, or an explicit specialisation for these arguments (`template <> ... {name}(...) {{ ... }}`); nvcc compiles this call, and the link fails")
    )]
    Undefined {
        /// The template.
        name: String,
        /// The arguments, as bound: "`T = int`".
        with: String,
        /// The call.
        #[label(primary, "called here")]
        span: Span,
        /// Its declaration.
        #[label("declared without a body")]
        declared: Span,
    },
    /// A call none of whose overloads is left once those whose substitution fails are discarded.
    ///
    /// Example: `g(2.0f)` where every overload of `g` is enabled for integer types only.
    #[error("no overload of `{name}` is left for this call: {why}")]
    #[diagnostic(code(simt::check::no_viable_overload))]
    NoViableOverload {
        /// The function.
        name: String,
        /// Each candidate and why it was discarded.
        why: String,
        /// The call.
        #[label(primary, "called here")]
        span: Span,
        /// Each candidate, labelled with why it was discarded.
        #[label(collection)]
        candidates: Vec<miette::LabeledSpan>,
        /// What to do.
        #[help]
        help: String,
    },
    /// An expression statement whose value is computed and dropped.
    ///
    /// Example: `x + 1;`.
    #[error("this statement has no effect")]
    #[diagnostic(
        code(simt::check::no_effect),
        help("assign it to a variable or an element, e.g. `x = ...;`")
    )]
    NoEffect {
        /// The statement.
        #[label("the value is computed and dropped")]
        span: Span,
    },
    /// A host variable read from device code: a file-scope variable without `const`, a pointer,
    /// a host object (a `std::map`), or a `const` whose value is computed when the program
    /// starts (`const float PI = 2.0 * std::asin(1.0);`).
    ///
    /// Example: `int n = 4;` at file scope, then `a[i] = n;` in a kernel.
    #[error("`{name}` is a host variable: device code cannot read it")]
    #[diagnostic(
        code(simt::check::host_variable),
        help("a file-scope variable is the host's unless it is `__device__`, `__constant__` or a `const` number with a constant value: pass it to the kernel as a parameter, declare it `__constant__` (set in the launch section), or give it a constant value (`const float PI = 3.14159265f;`)")
    )]
    HostVariable {
        /// The variable.
        name: String,
        /// Where device code reads it.
        #[label("read in device code")]
        span: Span,
    },
    /// A host table (`static const uint32_t alpha_n[] = {...};`) read from device code, which
    /// CUDA refuses too.
    ///
    /// Example: `a[i] = alpha_n[i];` in a kernel.
    #[error("`{name}` is a host array: device code cannot read it")]
    #[diagnostic(
        code(simt::check::host_array),
        help("copy it into constant memory as the host does with cudaMemcpyToSymbol: declare `__constant__` storage of its type and size, read that in the kernel, and set it in the launch section (`d_{name} = {name};`)")
    )]
    HostArray {
        /// The array.
        name: String,
        /// Where device code reads it.
        #[label("a host array")]
        span: Span,
    },
    /// A function pointer template parameter given something other than a
    /// `__device__` function.
    ///
    /// Example: `launch k<3>` with `template <cpy_kernel_t cpy_1> __global__ void k(...)`
    /// gives "`cpy_1` takes a `__device__` function (a `cpy_kernel_t`)".
    #[error("`{param}` takes a `__device__` function (a `{ty}`)")]
    #[diagnostic(
        code(simt::check::not_a_function),
        help("name a `__device__` function defined in the file: `k<my_function>`")
    )]
    NotAFunction {
        /// The template parameter.
        param: String,
        /// Its function pointer type.
        ty: String,
        /// The argument.
        #[label("not a `__device__` function")]
        span: Span,
    },
    /// `sizeof...(x)` of a name that is not a parameter pack of the template it is in.
    ///
    /// Example: `template <typename T> __device__ int f(T v) { return sizeof...(T); }` gives
    /// "`T` is not a parameter pack".
    #[error("`{name}` is not a parameter pack")]
    #[diagnostic(
        code(simt::check::not_a_pack),
        help("`sizeof...` counts the elements of a pack: `template <typename... Args>`, `Args&&... args`")
    )]
    NotAPack {
        /// The name given.
        name: String,
        /// The `sizeof...`.
        #[label("not a pack")]
        span: Span,
    },
    /// Template arguments that do not fit: given to a non-template, too many,
    /// missing, a value for a type parameter or a type for a value one,
    /// unreadable, or a kernel template that nothing instantiates.
    ///
    /// Example: `f<int>(1)` where `f` is not a template gives "`f` is not a template".
    #[error("{}", .problem.message(.template))]
    #[diagnostic(code(simt::check::template_arguments))]
    TemplateArguments {
        /// The template (or non-template) as named: `f`, `k<32, float>`.
        template: String,
        /// What is wrong.
        problem: TemplateProblem,
        /// Where.
        #[label("{}", .problem.label())]
        span: Span,
        /// How to fix it: usually the template's signature.
        #[help]
        help: Option<String>,
    },
    /// A pointer used in a way that does not point into an array: dereferencing
    /// or moving `NULL` or an unassigned pointer, mixing pointee types, writing
    /// through a pointer to `const`, an operator pointers do not have, or a
    /// non-pointer where a pointer is needed.
    ///
    /// Example: `*p` with `float* p = NULL;` gives "this dereferences a null pointer".
    #[error("{problem}")]
    #[diagnostic(code(simt::check::pointer))]
    Pointer {
        /// What is wrong.
        problem: PointerProblem,
        /// Where.
        #[label("{}", .problem.label())]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// An initialiser of the wrong shape: too many values, a single value for an
    /// array, none where the type must be deduced, or a group of another kind.
    ///
    /// Example: `__device__ int lut[2] = {1, 2, 3};` gives "more values than `lut` holds (2)".
    #[error("{problem}")]
    #[diagnostic(code(simt::check::initialiser))]
    Initialiser {
        /// What does not fit.
        problem: InitialiserProblem,
        /// The variable or its initialiser.
        #[label("{}", .problem.label())]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// Indexing that does not fit the indexed thing: a scalar or vector indexed
    /// like an array, the wrong number of indices, a constant index outside a
    /// member array, or an array size that is not positive.
    ///
    /// Example: `tile[1]` with `__shared__ float tile[4][4]` gives "`tile` has 2 dimension(s) but is indexed with 1".
    #[error("{problem}")]
    #[diagnostic(code(simt::check::dimensions))]
    Dimensions {
        /// What does not fit.
        problem: DimensionProblem,
        /// Where.
        #[label("{}", .problem.label())]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// A `return` that does not match the function: a value from a `void`
    /// function or kernel, none from a non-`void` one, or an `auto` function
    /// returning two types.
    ///
    /// Example: `return 1;` in a kernel gives "a kernel returns `void`".
    #[error("{problem}")]
    #[diagnostic(code(simt::check::return_type))]
    ReturnType {
        /// What does not match.
        problem: ReturnProblem,
        /// The `return` or its value.
        #[label("{}", .problem.label())]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// An argument of the wrong type or kind for a function, an intrinsic, a
    /// parameter or a `printf` conversion: another group, a temporary for a
    /// reference parameter, an invalid shuffle width, a bad format.
    ///
    /// Example: `printf("%q", x)` gives "`%q` is not a printf conversion".
    #[error("{problem}")]
    #[diagnostic(code(simt::check::argument_type))]
    ArgumentType {
        /// What is wrong with the argument.
        problem: ArgumentProblem,
        /// The argument.
        #[label("{}", .problem.label())]
        span: Span,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
    /// A value of another type than the one needed: another struct, another
    /// vector type, a scalar where a vector's component is read.
    ///
    /// Example: `float4 v = make_int4(1, 2, 3, 4);` gives "expected a `float4`, found `make_int4(...)`, an `int4`".
    #[error("expected {expected}, found {found}")]
    #[diagnostic(code(simt::check::mismatched_types))]
    Mismatch {
        /// What was needed: "a `float4`", "a `P` for `v`".
        expected: String,
        /// What was given: "a `Q`", "`make_int4(...)`, an `int4`".
        found: String,
        /// The value.
        #[label("not {expected}")]
        span: Span,
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
    /// `cuda::memcpy_async(dst, src, n, x)` where `x` is neither a `cuda::barrier` nor a
    /// `cuda::pipeline`, or `pipe.arrive()` on a pipeline
    #[error("`{call}` needs {wanted}")]
    #[diagnostic(code(simt::check::async_object))]
    AsyncObject {
        /// The call or member.
        call: String,
        /// What it takes: "a `cuda::barrier` or a `cuda::pipeline`".
        wanted: &'static str,
        /// The argument or object.
        #[label("not {wanted}")]
        span: Span,
        /// How to make one.
        #[help]
        help: Option<String>,
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
    /// `asm("mov.u32 %0, %1;" : "=r"(x))`: an inline PTX operand missing, of a constraint simt
    /// does not know, or used as its constraint does not allow
    #[error("{what}")]
    #[diagnostic(code(simt::check::asm_operand))]
    AsmOperand {
        /// What is wrong.
        what: String,
        /// The `asm` statement.
        #[label("in this inline PTX")]
        span: Span,
        /// How the operands are written.
        #[help]
        help: String,
    },
    /// `wmma::mma_sync(d, a, b, c)` with `a` of another shape than `d`, or a fragment where
    /// WMMA takes another
    #[error("{what}")]
    #[diagnostic(code(simt::check::wmma))]
    Wmma {
        /// What is wrong.
        what: String,
        /// The argument.
        #[label("{label}")]
        span: Span,
        /// What the argument is.
        label: String,
        /// What WMMA takes.
        #[help]
        help: String,
    },
    /// `wmma::load_matrix_sync(a, p, 12)` for `half`: 24 bytes
    #[error("ldm {ldm} of `{elem}` is {bytes} bytes, not a multiple of 16")]
    #[diagnostic(
        code(simt::check::wmma_ldm),
        help("ldm must be a multiple of 8 for 16-bit elements, 4 for 32-bit ones, 16 for 8-bit ones and 2 for double (16 bytes; CUDA C++ Programming Guide, \"Warp Matrix Functions\"): pad the rows")
    )]
    WmmaLdm {
        /// The stride given.
        ldm: i64,
        /// The element type.
        elem: &'static str,
        /// In bytes.
        bytes: i128,
        /// The argument.
        #[label("the stride in elements between rows (or columns)")]
        span: Span,
    },
    /// `typename cub::WarpReduce<float>::TempStorage temp;` in a kernel body, without `__shared__`
    #[error("CUB's `{class}::TempStorage` must be in shared memory")]
    #[diagnostic(
        code(simt::check::cub_storage_not_shared),
        help("declare it `__shared__ typename {class}::TempStorage {name};`: the threads of a collective share it")
    )]
    CubStorageNotShared {
        /// The CUB class.
        class: String,
        /// The variable.
        name: String,
        /// The declaration.
        #[label("one per thread, not shared")]
        span: Span,
    },
    /// `cub::WarpReduce<float>(x).Sum(v)` where `x` is no `WarpReduce<float>::TempStorage`
    #[error("`{found}` is not a `{class}::TempStorage`")]
    #[diagnostic(
        code(simt::check::cub_storage),
        help("pass the collective a variable declared `__shared__ typename {class}::TempStorage name;`")
    )]
    CubStorage {
        /// The CUB class.
        class: String,
        /// What was passed.
        found: String,
        /// The argument.
        #[label("not this class's TempStorage")]
        span: Span,
    },
    /// `cub::BlockLoad<float, 48, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>`: a specialisation CUB's own
    /// static assertions refuse (nvcc stops there too).
    #[error("CUB does not compile `{class}`: {why}")]
    #[diagnostic(code(simt::check::cub_template))]
    CubTemplate {
        /// The class as written.
        class: String,
        /// CUB's requirement, as it applies here.
        why: String,
        /// The class.
        #[label("refused by CUB's static assertion")]
        span: Span,
    },
    /// `Load(temp).Load(in, v)` where `v` is not an array of the class's `T[ITEMS_PER_THREAD]`,
    /// or `in` is no pointer.
    #[error("`{class}::{method}` needs {expected} here, not {found}")]
    #[diagnostic(
        code(simt::check::cub_argument),
        help("CUB's signature: {method}(pointer, T (&items)[ITEMS_PER_THREAD], ...), with the class's own T and ITEMS_PER_THREAD")
    )]
    CubArgument {
        /// The class as written.
        class: String,
        /// `Load` or `Store`.
        method: String,
        /// What the parameter takes.
        expected: String,
        /// What was passed.
        found: String,
        /// The argument.
        #[label("this argument")]
        span: Span,
    },
    /// `cub::BlockRadixSort<int, 128, 4>`, or `BlockReduce(temp).Broadcast(v)`
    #[error("{what} is not one of the CUB collectives simt has")]
    #[diagnostic(code(simt::check::cub_unsupported))]
    CubUnsupported {
        /// The class or member.
        what: String,
        /// Where it is used.
        #[label("not modelled by simt")]
        span: Span,
        /// What simt has instead.
        #[help]
        help: String,
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
    /// `shape s;` where `shape` has `virtual float area() const = 0;` that it does not define.
    #[error("`{class}` is an abstract class: its virtual `{function}` has no body (`= 0`)")]
    #[diagnostic(code(simt::check::abstract_class))]
    AbstractClass {
        /// The class.
        class: String,
        /// Its pure virtual member.
        function: String,
        /// The object.
        #[label("an object of `{class}`")]
        span: Span,
        /// Where the member is declared pure.
        #[label("declared pure here")]
        declared: Span,
        /// How to fix it.
        #[help]
        help: String,
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
    /// `P b = a;` where `P(const P&) = delete;`, or `b = a;` where `P& operator=(const P&) =
    /// delete;`: a copy C++ forbids.
    #[error("`{name}` is copied, but its {member} is deleted")]
    #[diagnostic(
        code(simt::check::deleted_member),
        help("pass the object by reference or by pointer, or copy its members one by one; or declare the member `= default` if copying it is meant")
    )]
    DeletedMember {
        /// The struct.
        name: String,
        /// `copy constructor` or `copy assignment`.
        member: &'static str,
        /// The copy.
        #[label("copied here")]
        span: Span,
        /// The `= delete` declaration.
        #[label("deleted here")]
        declared: Span,
    },
    /// `__global__ void k() { helper(); }` where `helper` has no `__device__`: host code, which
    /// device code cannot call (nvcc's "calling a __host__ function from a __global__ function is
    /// not allowed").
    #[error("`{name}` is a host function: device code cannot call it")]
    #[diagnostic(
        code(simt::check::host_function),
        help("declare it `__device__` (or `__host__ __device__` to keep it callable from the CPU too)")
    )]
    HostFunction {
        /// The name.
        name: String,
        /// The call.
        #[label("called from device code")]
        span: Span,
        /// The function's definition.
        #[label("defined without `__device__`")]
        defined: Span,
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

/// What is wrong with the template arguments of a [`CheckError::TemplateArguments`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateProblem {
    /// Arguments given to a kernel or function that is not a template: `f<int>(1)`.
    NotATemplate,
    /// A kernel template that no launch section and no `--kernel` instantiates.
    NoInstance {
        /// Its parameter list, `template <int BM, typename T>`.
        signature: String,
    },
    /// Arguments that cannot be read: `Tile<32,>`.
    Unreadable,
    /// More arguments than parameters: `k<32, 7>` for `template <int N>`.
    TooMany {
        /// Arguments given.
        given: usize,
        /// Parameters declared.
        params: usize,
    },
    /// A value given for a type parameter: `k<32>` for `template <typename T>`.
    ValueForType {
        /// The parameter.
        param: String,
    },
    /// A type given for a value parameter: `k<float>` for `template <int N>`.
    TypeForValue {
        /// The parameter.
        param: String,
        /// Its type.
        ty: String,
    },
    /// Something other than a class template's name for a template template parameter:
    /// `warp_reduce<float, 2>` for `template <typename> class ReduceOp`.
    NotAClassTemplate {
        /// The parameter.
        param: String,
    },
    /// No argument, default or deduction for a parameter.
    Missing {
        /// The parameter.
        param: String,
    },
    /// An instance of a class template that is only declared, matching none of its
    /// specialisations: `num_elems<double>` with only `num_elems<float>` defined.
    NoSpecialisation,
    /// An instance that several partial specialisations match, none more specialised than the
    /// others: `X<float, float>` of `X<T, T>` and `X<T, float>`.
    Ambiguous,
}

impl TemplateProblem {
    /// The diagnostic's message for `template`.
    fn message(&self, template: &str) -> String {
        match self {
            Self::NotATemplate => format!("`{template}` is not a template"),
            Self::NoInstance { .. } => {
                format!("`{template}` is a kernel template and nothing names an instance of it")
            }
            Self::Unreadable => format!("cannot read the template arguments of `{template}`"),
            Self::TooMany { given, params } => {
                format!("`{template}` has {given} template arguments but {params} parameters")
            }
            Self::ValueForType { param } => format!("template parameter `{param}` is a type"),
            Self::TypeForValue { param, ty } => {
                format!("template parameter `{param}` is a value of type `{ty}`")
            }
            Self::Missing { param } => {
                format!("`{template}` needs a template argument for `{param}`")
            }
            Self::NotAClassTemplate { param } => {
                format!("template parameter `{param}` takes a class template")
            }
            Self::NoSpecialisation => {
                format!(
                    "`{template}` matches no specialisation of a template that is only declared"
                )
            }
            Self::Ambiguous => {
                format!("`{template}` matches more than one partial specialisation")
            }
        }
    }

    /// The label at the arguments (or the name).
    fn label(&self) -> String {
        match self {
            Self::NotATemplate => "template arguments given".into(),
            Self::NoInstance { signature } => signature.clone(),
            Self::Unreadable => "here".into(),
            Self::TooMany { .. } => "too many template arguments".into(),
            Self::ValueForType { .. } => "a value, not a type".into(),
            Self::TypeForValue { .. } => "a type, not a value".into(),
            Self::Missing { .. } => "missing template arguments".into(),
            Self::NotAClassTemplate { .. } => "not the name of a struct template".into(),
            Self::NoSpecialisation => "no definition for these arguments".into(),
            Self::Ambiguous => "ambiguous instance".into(),
        }
    }
}

/// What does not fit in a [`CheckError::Dimensions`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DimensionProblem {
    /// A scalar or vector variable indexed like an array: `n[0]` with `int n`.
    #[error("`{name}` is a `{ty}`, not an array")]
    NotAnArray {
        /// The variable.
        name: String,
        /// Its type.
        ty: String,
    },
    /// Fewer or more indices than dimensions: `tile[1]` with `tile[4][4]`.
    #[error("{what} has {dims} dimension(s) but is indexed with {indices}")]
    IndexCount {
        /// The array: "`tile`", "this pointer".
        what: String,
        /// Its dimensions.
        dims: usize,
        /// The indices given.
        indices: usize,
    },
    /// A constant index outside a member array of a struct: `p.v[4]` with `float v[4]`.
    #[error("index {index} is outside this member array of {len}")]
    OutOfBounds {
        /// The index.
        index: String,
        /// The member array's length.
        len: usize,
    },
    /// An array size of zero or less: `float a[0]`.
    #[error("array size must be positive, found {size}")]
    NotPositive {
        /// The size.
        size: String,
    },
}

impl DimensionProblem {
    fn label(&self) -> &'static str {
        match self {
            Self::NotAnArray { .. } => "cannot be indexed",
            Self::IndexCount { .. } => "wrong number of indices",
            Self::OutOfBounds { .. } => "out of bounds",
            Self::NotPositive { .. } => "not a positive size",
        }
    }
}

/// What does not match in a [`CheckError::ReturnType`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReturnProblem {
    /// An `auto` function whose `return`s give two types: `return 1.0; ... return 2;`.
    #[error("this `auto` function returns `{first}` (its first `return`), and `{found}` here")]
    TwoTypes {
        /// The type of the first `return`.
        first: String,
        /// The type of this one.
        found: String,
    },
    /// `return;` in a function that returns a value.
    #[error("this function returns `{ty}`; `return` needs a value")]
    NeedsValue {
        /// The function's return type.
        ty: String,
    },
    /// `return x;` in a kernel (`kernel`) or a `void` function.
    #[error("{} returns `void`", if *.kernel { "a kernel" } else { "this function" })]
    ValueFromVoid {
        /// Whether it is a kernel.
        kernel: bool,
    },
}

impl ReturnProblem {
    fn label(&self) -> String {
        match self {
            Self::TwoTypes { found, .. } => format!("`{found}`"),
            Self::NeedsValue { .. } => "no value".into(),
            Self::ValueFromVoid { .. } => "a value is returned here".into(),
        }
    }
}

/// What does not fit in a [`CheckError::Initialiser`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InitialiserProblem {
    /// `cg::thread_block b;`
    #[error("the group `{name}` needs a value")]
    GroupWithoutValue {
        /// The variable.
        name: String,
    },
    /// `cg::thread_block b = cg::coalesced_threads();`
    #[error("`{name}` is initialised with another group")]
    OtherGroup {
        /// The variable.
        name: String,
    },
    /// `auto x;`
    #[error("`auto {name}` needs an initialiser")]
    AutoWithoutValue {
        /// The variable.
        name: String,
    },
    /// `float a[4] = 0.0f;`
    #[error("the array `{name}` needs a brace initialiser")]
    ArrayWithoutBraces {
        /// The array.
        name: String,
    },
    /// `__device__ int n[2] = 0;` (`array`), or `__device__ int n = {1};`
    #[error("`{name}` is initialised with the wrong shape")]
    WrongShape {
        /// The variable.
        name: String,
        /// Whether it is an array (given one value) rather than a scalar (given a list).
        array: bool,
    },
    /// `float a[2] = {1, 2, 3};`
    #[error("{given} initialisers for the {count} elements of `{name}`")]
    TooManyElements {
        /// The array.
        name: String,
        /// Values given.
        given: usize,
        /// Elements it has.
        count: u64,
    },
    /// `__device__ int lut[2] = {1, 2, 3};`
    #[error("more values than `{name}` holds ({dims})")]
    TooManyForDims {
        /// The variable.
        name: String,
        /// Its dimensions, `2 × 3`.
        dims: String,
    },
    /// `P p = {1, 2, 3};` for a struct of two members.
    #[error("`{name}` has {members} members; {given} values are given")]
    TooManyMembers {
        /// The struct.
        name: String,
        /// Its members.
        members: usize,
        /// Values given.
        given: usize,
    },
    /// `int{1.5}`, `uint8_t{300}`, `unsigned{-1}`: a constant that braces would narrow.
    #[error("narrowing conversion of `{value}` from `{from}` to `{to}` inside braces")]
    Narrowing {
        /// The constant.
        value: String,
        /// Its type.
        from: String,
        /// The braced cast's type.
        to: String,
    },
}

impl InitialiserProblem {
    fn label(&self) -> &'static str {
        match self {
            Self::GroupWithoutValue { .. } => "not initialised",
            Self::OtherGroup { .. } => "not this kind of group",
            Self::AutoWithoutValue { .. } => "no value to take the type from",
            Self::ArrayWithoutBraces { .. } => "initialised with a single value",
            Self::WrongShape { array: true, .. } => "one value for an array",
            Self::WrongShape { array: false, .. } => "a list for a scalar",
            Self::TooManyElements { .. }
            | Self::TooManyForDims { .. }
            | Self::TooManyMembers { .. } => "too many values",
            Self::Narrowing { .. } => "narrowed by the braces",
        }
    }
}

/// What is wrong in a [`CheckError::ArgumentType`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgumentProblem {
    /// `tiled_partition(g, 16)` where `g` is a coalesced group.
    #[error("`tiled_partition` needs the thread block or a larger tile")]
    PartitionParent,
    /// `__shfl_sync(mask, v, 0, 3)`
    #[error("the width of `{function}` must be a power of two from 1 to 32, found {width}")]
    ShuffleWidth {
        /// The shuffle.
        function: String,
        /// The width given.
        width: i64,
    },
    /// `atomicSub(&a[0], 1.0f)` with `float* a`
    #[error("`{function}` is not defined for `{ty}`")]
    PointeeType {
        /// The intrinsic.
        function: String,
        /// The pointee type.
        ty: String,
    },
    /// `f(tile16)` for a parameter `cg::thread_block_tile<32> w`
    #[error("`{param}` needs a `{group}`")]
    Group {
        /// The parameter.
        param: String,
        /// Its group type.
        group: String,
    },
    /// `f(x + 1)` for a parameter `float& r`
    #[error("the reference parameter `{param}` needs a variable or an element")]
    Reference {
        /// The parameter.
        param: String,
    },
    /// `printf("%q", x)`
    #[error("{reason}")]
    Format {
        /// What the format parser says.
        reason: String,
    },
}

impl ArgumentProblem {
    fn label(&self) -> String {
        match self {
            Self::PartitionParent => "not a group to partition".into(),
            Self::ShuffleWidth { .. } => "invalid width".into(),
            Self::PointeeType { ty, .. } => format!("points to `{ty}`"),
            Self::Group { .. } => "not that group".into(),
            Self::Reference { .. } => "not a variable or an element".into(),
            Self::Format { .. } => "in this format".into(),
        }
    }
}

/// What is wrong in a [`CheckError::Pointer`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointerProblem {
    /// `*x` with `int x`
    #[error("`*` needs a pointer, found `{found}`")]
    DerefNonPointer {
        /// The operand's type.
        found: String,
    },
    /// `float* p = x;` with `float x`
    #[error("expected a pointer, found `{found}`")]
    NotAPointer {
        /// The value's type.
        found: String,
    },
    /// `obj.get()` where the object's `get` returns no pointer
    #[error("this object has no `{method}` returning a pointer")]
    NoPointerMethod {
        /// The member function.
        method: String,
    },
    /// `atomicAdd(x, 1)` with `int x`
    #[error("`{function}` needs the address of a global or shared element")]
    NotAnAddress {
        /// The intrinsic.
        function: String,
    },
    /// `*p` with `p = NULL`
    #[error("this dereferences a null pointer")]
    NullDereference,
    /// `auto p = NULL;`
    #[error("`auto {name} = NULL` has no pointee type")]
    AutoNull {
        /// The variable.
        name: String,
    },
    /// `float* p; p[0] = 1;` (`moved`: `p += 1` before any assignment)
    #[error("`{name}` is {} before it points anywhere", if *.moved { "moved" } else { "used" })]
    Unassigned {
        /// The pointer.
        name: String,
        /// Whether it is moved rather than read.
        moved: bool,
    },
    /// A `__device__` function whose returned pointer points into no array
    #[error("`{function}` returns no pointer into an array")]
    ReturnsNowhere {
        /// The function.
        function: String,
    },
    /// `c ? a : b` with `float* a`, `int* b`
    #[error("`{lhs}*` and `{rhs}*` are different pointer types")]
    MixedTypes {
        /// One pointee type.
        lhs: String,
        /// The other.
        rhs: String,
    },
    /// `float* p = b + 1;` with `int* b`
    #[error("`{name}` is a `{declared}*`; this points to `{found}`")]
    Pointee {
        /// The pointer variable.
        name: String,
        /// Its pointee type.
        declared: String,
        /// The pointee type of the value.
        found: String,
    },
    /// `float* p = a;` with `const float* a`
    #[error("`{name}` would let a `const` array be written through it")]
    ConstPointee {
        /// The pointer variable.
        name: String,
    },
    /// `vx[i]` or `*vx` with a `const void* vx` parameter
    #[error("`{name}` is a `void*`: its elements have no type")]
    VoidAccess {
        /// The pointer.
        name: String,
    },
    /// `p * 2`, `p - q` into two arrays, `p *= 2`
    #[error("`{op}` {what}")]
    Operator {
        /// The operator.
        op: String,
        /// What is wrong with it: "is not defined on a pointer".
        what: &'static str,
    },
}

impl PointerProblem {
    fn label(&self) -> &'static str {
        match self {
            Self::DerefNonPointer { .. }
            | Self::NotAPointer { .. }
            | Self::NoPointerMethod { .. } => "not a pointer",
            Self::NotAnAddress { .. } => "not an address",
            Self::NullDereference => "`NULL` points nowhere",
            Self::AutoNull { .. } => "a null pointer",
            Self::Unassigned { .. } => "no array assigned yet",
            Self::ReturnsNowhere { .. } => "its `return` points nowhere",
            Self::MixedTypes { .. } => "mixed pointer types",
            Self::Pointee { .. } => "another pointee type",
            Self::ConstPointee { .. } => "points to `const` elements",
            Self::Operator { .. } => "on a pointer",
            Self::VoidAccess { .. } => "a `void*`, read without a cast",
        }
    }
}
