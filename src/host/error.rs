//! Host-section and `--arg` errors: values that cannot be built or bound to the kernel.

use crate::source::Span;

/// A launch that cannot be set up (exit status 2).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum HostError {
    /// `sequence { d = zeros(2); expect d == 0; }`
    #[error("the sequence launches no kernel")]
    #[diagnostic(
        code(simt::host::empty_sequence),
        help("add a `launch KERNEL {{ grid = ...; block = ...; }}` item to it, or make it a `launch` section")
    )]
    EmptySequence {
        /// The section.
        #[label("no `launch` item in this sequence")]
        span: Span,
    },
    /// `sequence { launch renderr { ... } }`
    #[error("`launch {name}` names no kernel of the file")]
    #[diagnostic(code(simt::host::unknown_kernel))]
    UnknownKernel {
        /// The name given.
        name: String,
        /// Where.
        #[label("no kernel of this name")]
        span: Span,
        /// A close name, or the kernels there are.
        #[help]
        help: String,
    },
    /// `sequence { launch render { grid = 1; block = 1; } }` where `render` takes `fb`
    #[error("`launch {kernel}` leaves the parameter(s) {missing} unbound")]
    #[diagnostic(code(simt::host::unbound_parameter))]
    UnboundParameter {
        /// The kernel.
        kernel: String,
        /// The parameters, `` `fb`, `n` ``.
        missing: String,
        /// The launch item.
        #[label("binds no value to {missing}")]
        span: Span,
        /// How to bind them.
        #[help]
        help: String,
    },
    /// `--arg N=2000` for a kernel whose parameter is `n`
    #[error("--arg `{name}` names nothing the kernel or its launch section uses")]
    #[diagnostic(code(simt::host::unknown_argument))]
    UnknownArgument {
        /// The name given.
        name: String,
        /// A close name, or the names it could be.
        #[help]
        help: String,
    },
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
    /// `w = [1, 2, 3, 4];` for `__constant__ float w[2];`
    #[error("`{name}` holds {declared} value(s) but was given {given}")]
    #[diagnostic(code(simt::host::symbol_size))]
    SymbolSize {
        /// The `__device__` or `__constant__` variable.
        name: String,
        /// Its declared number of values.
        declared: u64,
        /// How many it was given.
        given: u64,
        /// The value.
        #[label("{given} value(s)")]
        span: Span,
        /// The values it takes.
        #[help]
        help: String,
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
    /// `t = texture(img, filter=liner);`, or a texture CUDA would not create
    #[error("{message}")]
    #[diagnostic(code(simt::host::texture))]
    Texture {
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
    /// `a = zeros(1000000000);`: 8 GB of doubles under the default `--max-memory 4G`
    #[error("the launch needs {needed} of memory, more than --max-memory {limit}")]
    #[diagnostic(
        code(simt::host::memory_limit),
        help("a launch-section array is computed in 8-byte doubles, then kept in its buffer's own type; use smaller arrays, or raise the limit, e.g. --max-memory 16G")
    )]
    MemoryLimit {
        /// Bytes needed, readable.
        needed: String,
        /// The limit, readable.
        limit: String,
        /// What would cross the limit.
        #[label("{what}")]
        span: Span,
        /// Its description.
        what: String,
    },
    /// `a = zeros(536870912)` where the process may not have 2 GiB more (`ulimit -v`, a
    /// container's limit)
    #[error("out of memory: the machine would not give {bytes} for {what}")]
    #[diagnostic(
        code(simt::host::out_of_memory),
        help("this process (its container, or `ulimit -v`) has less memory than --max-memory allows; use smaller arrays, or set --max-memory to what is really available so the limit says so first")
    )]
    OutOfMemory {
        /// Bytes asked for, readable.
        bytes: String,
        /// What they were for.
        what: String,
        /// Where.
        #[label("needs {bytes}")]
        span: Span,
    },
    /// `o = matmul(a, b, 4096, 4096, 4096)` in a launch section
    #[error(
        "too much host work: {what} needs {ops} operations, more than --max-steps ({limit}) allows"
    )]
    #[diagnostic(
        code(simt::host::work_limit),
        help("compute the expected result once with numpy and load it (`load(\"expected.npy\")`), use smaller sizes, or raise --max-steps")
    )]
    WorkLimit {
        /// The operation.
        what: String,
        /// Operations it needs.
        ops: u64,
        /// The limit.
        limit: u64,
        /// Where.
        #[label("{ops} operations")]
        span: Span,
    },
    /// `float* a` given `--arg a=@ints.npy` (an int32 file), or an int32 numpy array in Python
    #[error(
        "`{param}` is `{elem}*` but the array it is given holds `{found}` values (numpy `{numpy}`)"
    )]
    #[diagnostic(
        code(simt::host::dtype_mismatch),
        help("convert it in numpy first, e.g. a.astype(numpy.{want})")
    )]
    DtypeMismatch {
        /// The parameter.
        param: String,
        /// Its element type.
        elem: crate::value::Scalar,
        /// The array's element type.
        found: crate::value::Scalar,
        /// The array's numpy dtype.
        numpy: &'static str,
        /// The numpy dtype the parameter needs.
        want: &'static str,
        /// Where the array is named.
        #[label("a `{numpy}` array")]
        span: Span,
    },
    /// `x = arange(n);` for a `void* x` the kernel reads as `half*` in one branch and `float*` in
    /// another: which type the array is would be a guess
    #[error("`{param}` is a `void*` the kernel reads as {views}, and the array it is given has no type of its own (and is not all zeros)")]
    #[diagnostic(
        code(simt::host::void_type),
        help("simt gives the buffer the first cast's type (`{first}`): load the array from a .npy file of that type (`{param} = load(\"x.npy\");`), so that data meant for another branch is refused rather than read as the wrong bytes")
    )]
    VoidType {
        /// The parameter.
        param: String,
        /// The types it is cast to, as `` `half*` and `float*` ``.
        views: String,
        /// The first of them, the buffer's.
        first: String,
        /// Where the array is given.
        #[label("an array computed here, of no declared type")]
        span: Span,
    },
    /// A float32 file for a `__nv_bfloat16*` parameter with a value bfloat16 cannot hold.
    #[error("`{param}` is `__nv_bfloat16*` but element {index} of its float32 array, {value}, is not a bfloat16 value")]
    #[diagnostic(
        code(simt::host::not_bfloat16),
        help("numpy has no bfloat16, so simt takes float32 values that are bfloat16 values already; round them first, e.g. with ml_dtypes: a.astype(ml_dtypes.bfloat16).astype(numpy.float32)")
    )]
    NotBfloat16 {
        /// The parameter.
        param: String,
        /// The first element that is not a bfloat16 value.
        index: usize,
        /// Its value.
        value: f64,
        /// Where the array is named.
        #[label("a float32 array")]
        span: Span,
    },
    /// `points = rand(12);` for an `at::PackedTensorAccessor64<float, 3, ...> points`
    #[error("`{name}` is an accessor of {rank} dimensions but was given {given}")]
    #[diagnostic(
        code(simt::host::accessor_rank),
        help("give an array of {rank} dimensions, e.g. `{name} = zeros({example});` or `{name} = reshape(load(\"x.npy\"), {example});`: its sizes and strides are the array's")
    )]
    AccessorRank {
        /// The accessor parameter.
        name: String,
        /// Its rank.
        rank: usize,
        /// What it was given (`an array of shape (12)`, `a pointer`).
        given: String,
        /// `2, 3, 4`: a shape of that rank, for the help.
        example: String,
        /// Where it was set.
        #[label("not {rank} dimensions")]
        span: Span,
    },
    /// `--arg a=@small.npy` where the launch section makes `a = zeros(n)` with `n = 1000`
    #[error("`{name}` has shape {found} but the launch section makes it {expected}")]
    #[diagnostic(
        code(simt::host::shape_mismatch),
        help("give an array of shape {expected}, or also override the sizes the launch section uses (e.g. --arg n=...)")
    )]
    ShapeMismatch {
        /// The overridden name.
        name: String,
        /// The shape given.
        found: String,
        /// The shape the launch section gives it.
        expected: String,
        /// The value given.
        #[label("shape {found}")]
        span: Span,
    },
    /// `load("../data/x.npy")` or `load("/tmp/x.npy")` without `--allow-paths`
    #[error("`{path}` is outside the kernel's folder")]
    #[diagnostic(
        code(simt::host::path_escape),
        help("a launch section reads files beside its kernel file, or below it; pass --allow-paths to read {path} anyway")
    )]
    PathEscape {
        /// The path as written.
        path: String,
        /// Where it is written.
        #[label("leaves the kernel's folder")]
        span: Span,
    },
    /// `p = &d[n + 5];` where `d` has `n` elements
    #[error("offset {offset} is outside `{array}`, which has {len} elements")]
    #[diagnostic(
        code(simt::host::offset_out_of_bounds),
        help("a pointer may point at element 0 to {len} of `{array}` ({len}: one past the end)")
    )]
    OffsetOutOfBounds {
        /// The offset as computed.
        offset: String,
        /// The array.
        array: String,
        /// Its elements.
        len: usize,
        /// The index.
        #[label("outside `{array}`")]
        span: Span,
    },
    /// `p = &n[3];` where `n` is a number
    #[error("`&{name}[...]` needs an array, but `{name}` is {kind}")]
    #[diagnostic(
        code(simt::host::not_an_array),
        help("a pointer parameter points at an element of an array named earlier in the launch: `d = zeros(n); p = &d[3];`")
    )]
    NotAnArray {
        /// What was indexed, as written.
        name: String,
        /// What it is.
        kind: &'static str,
        /// Where.
        #[label("not an array")]
        span: Span,
    },
    /// `idx = &d[0];` with `int* idx` where `d` already holds the floats of `float* in`
    #[error("{message}")]
    #[diagnostic(
        code(simt::host::pointer_type_mismatch),
        help("parameters that share an array need its element type; give `{param}` a copy of its own in its type, e.g. `{param} = {array} + 0;`")
    )]
    PointerTypeMismatch {
        /// What is wrong: the parameter with its type, the array with its own and why.
        message: String,
        /// The parameter.
        param: String,
        /// The array.
        array: String,
        /// The array's element type.
        elem: crate::value::Scalar,
        /// The value bound.
        #[label("a `{elem}` array")]
        span: Span,
    },
    /// `n = NULL;` for `int n`
    #[error("`{param}` is `{ty}`, not a pointer: it cannot be NULL")]
    #[diagnostic(
        code(simt::host::null_scalar),
        help("NULL binds a pointer parameter to nothing; give `{param}` a number")
    )]
    NullScalar {
        /// The parameter.
        param: String,
        /// Its type.
        ty: String,
        /// The value.
        #[label("NULL")]
        span: Span,
    },
    /// `expect out == sum(a)` on 64-bit integers beyond 2^53, which doubles cannot hold exactly
    #[error("{what} cannot be computed exactly: doubles hold integers only up to 2^53")]
    #[diagnostic(
        code(simt::host::inexact_integer),
        help("compare 64-bit integers with literals, arrays, `arange` and `+ - * / % & | ^ << >>` on them, which are computed exactly; or compare smaller values")
    )]
    InexactInteger {
        /// What could not be exact.
        what: String,
        /// Where.
        #[label("beyond 2^53")]
        span: Span,
    },
    /// `v = &d[2];` for `float4* v`
    #[error("{message}")]
    #[diagnostic(
        code(simt::host::misaligned_offset),
        help("a {bytes}-byte vector starts at a multiple of {bytes} bytes (the GPU traps with \"misaligned address\"); point at an element that is a multiple of {width}")
    )]
    MisalignedOffset {
        /// What is wrong: the parameter, the array and the element.
        message: String,
        /// The parameter's type.
        param_ty: String,
        /// Components per vector.
        width: u32,
        /// Bytes per vector.
        bytes: u32,
        /// The value.
        #[label("misaligned for `{param_ty}`")]
        span: Span,
    },
    /// `extern __shared__ float s[];` launched with `--dyn-smem 65536` on an H100, without
    /// `--max-dyn-smem 65536` (CUDA's launch fails unless `cudaFuncSetAttribute(k,
    /// cudaFuncAttributeMaxDynamicSharedMemorySize, 65536)` came first)
    #[error("{bytes} bytes of dynamic shared memory per block are more than the {limit} this kernel may use {why}")]
    #[diagnostic(code(simt::host::dynamic_shared_memory), help("{help}"))]
    DynamicSharedMemory {
        /// Bytes the launch gives.
        bytes: u64,
        /// Bytes it may give.
        limit: u64,
        /// Why that is the limit: no opt-in (and the static bytes beside it), or the opt-in's size.
        why: String,
        /// How to opt in, or in further.
        help: String,
        /// The `extern __shared__` array (or the kernel).
        #[label("sized by the launch's {bytes} bytes")]
        span: Span,
    },
    /// `--max-dyn-smem 262144` on an H100, whose blocks may have at most 227 KB of shared memory
    /// (`cudaFuncSetAttribute` fails with `cudaErrorInvalidValue`)
    #[error("an opt-in to {bytes} bytes of dynamic shared memory is more than {gpu} allows: {limit} beside the kernel's {static_bytes} bytes of static shared memory")]
    #[diagnostic(
        code(simt::host::shared_memory_opt_in),
        help("give --max-dyn-smem (or `max_dyn_smem`) at most {limit}: a block's static and dynamic shared memory together fit in the GPU's opt-in limit (sharedMemPerBlockOptin)")
    )]
    SharedMemoryOptIn {
        /// The opt-in.
        bytes: u64,
        /// The most it may be.
        limit: u64,
        /// The kernel's static shared memory.
        static_bytes: u64,
        /// The GPU's name.
        gpu: String,
        /// The `extern __shared__` array (or the kernel).
        #[label("opted in to {bytes} bytes")]
        span: Span,
    },
    /// `cooperative;` with `grid = 1000;` for a kernel of which 2 blocks of 1024 threads fit on an SM
    #[error("cudaErrorCooperativeLaunchTooLarge: {blocks} blocks cannot all be resident on {gpu}: {per_sm} per SM × {sms} SMs = {most}")]
    #[diagnostic(
        code(simt::host::cooperative_too_large),
        help("a cooperative launch's blocks must all run at once (their grid barriers wait for each other); launch at most {most} blocks and loop over the data in each (a grid-stride loop), or use fewer threads, registers or shared memory per block so that more fit on an SM")
    )]
    CooperativeTooLarge {
        /// Blocks in the grid.
        blocks: u64,
        /// Resident blocks per SM (the occupancy calculator's).
        per_sm: u32,
        /// SMs of the GPU.
        sms: u32,
        /// `per_sm × sms`.
        most: u64,
        /// The GPU's name.
        gpu: String,
        /// The grid, or the kernel when the grid is given on the command line.
        #[label("{blocks} blocks; at most {most} fit")]
        span: Span,
    },
}
