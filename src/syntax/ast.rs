//! The syntax tree of a `.sk` file: every node carries the span it was parsed from.

use crate::source::Span;

/// A whole `.sk` file.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// File-scope `const`/`constexpr` scalars.
    pub consts: Vec<GlobalConst>,
    /// `__global__` kernels.
    pub kernels: Vec<Kernel>,
    /// `__device__` functions, inlined where they are called.
    pub device_fns: Vec<Function>,
    /// `template <> __device__ float f<float>(...)`: explicit specialisations of function
    /// templates, used in place of the template for the arguments they name.
    pub specializations: Vec<Specialization>,
    /// Where each function template of `device_fns` declared without a body starts
    /// (`template <typename T> __device__ T f(T);`): only its explicit specialisations, or a
    /// definition of the same signature, give it one.
    pub declared: Vec<Span>,
    /// `launch NAME { ... }` host sections.
    pub launches: Vec<Launch>,
    /// `sequence { ... }` sections: launches run in order on shared arrays.
    pub sequences: Vec<Sequence>,
    /// `typedef T name;` / `using name = T;` at file scope.
    pub aliases: Vec<(Ident, TypeName)>,
    /// The names of array types among the aliases (`typedef float vec3[3];`), which `aliases`
    /// gives as their element type.
    pub array_aliases: std::collections::HashSet<String>,
    /// `typedef void (*name)(...);`: function pointer types, which template parameters take
    /// `__device__` functions through.
    pub fn_pointer_types: Vec<Ident>,
    /// `template <typename T> using Ptr = T* __restrict__;`: alias templates, by name.
    pub alias_templates: Vec<(Ident, Vec<TemplateParam>, TypeName)>,
    /// `template <typename T> constexpr int bitsof = sizeof(T) * 8;`: variable templates.
    pub var_templates: Vec<VarTemplate>,
    /// `__constant__ T name[N];` arrays.
    pub constants: Vec<ConstantArray>,
    /// Structs (and their `template <>` specialisations).
    pub structs: Vec<StructDef>,
    /// Host code of a `.cu` file that simt skips: what it is (`function main`) and where.
    pub host_items: Vec<(String, Span)>,
    /// The names of those host functions (the last part of `ns::f`), so that a kernel calling
    /// one is told it is host code.
    pub host_functions: Vec<Ident>,
    /// `__shared__` arrays declared at file scope (`StmtKind::Shared`), which each kernel that
    /// names them declares.
    pub shared: Vec<Stmt>,
    /// Declarations recognised but not supported yet (`__constant__` arrays): what, the declared
    /// name, and the span.
    pub unsupported: Vec<(String, String, Span)>,
    /// `#include "name"` lines whose header is neither beside the file nor one simt has: an
    /// unknown name's diagnostic says so.
    pub missing_headers: Vec<String>,
    /// The names a qualified call may start with: the namespaces, namespace aliases, classes,
    /// enums, type aliases and template parameters the file's text declares.
    pub scopes: std::collections::HashSet<String>,
    /// Of those, the names only namespaces take (`namespace detail {`): no class, enum or type
    /// alias of the file has the name, no namespace alias, and no such namespace has `using`
    /// lines (which may bring in what it does not declare).
    pub namespaces: std::collections::HashSet<String>,
    /// The names the front end gave classes in place of the ones written (`b__S` for `b::S`
    /// in a file with another `S`, `Outer__Inner` for a nested class), each with the name as
    /// the source writes it: diagnostics show that one.
    pub made_names: Vec<(String, String)>,
}

/// A name as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// `const int N = 4;` at file scope.
#[derive(Clone, Debug)]
pub struct GlobalConst {
    /// Declared type (must be `const`).
    pub ty: TypeName,
    /// The name.
    pub name: Ident,
    /// The initialiser (a constant expression).
    pub value: Expr,
}

/// `template <class T> inline constexpr bitsof_t<T> bitsof{};`: a variable template, a
/// constant for each instance.
#[derive(Clone, Debug)]
pub struct VarTemplate {
    /// Its template parameters.
    pub params: Vec<TemplateParam>,
    /// Its type.
    pub ty: TypeName,
    /// Its name.
    pub name: Ident,
    /// `= value` or `{value}`; `None` for `{}`.
    pub init: Option<Expr>,
}

/// `__global__ void name(params) { body }`.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Kernel name.
    pub name: Ident,
    /// `template <...>` parameters (empty for a plain kernel).
    pub template: Vec<TemplateParam>,
    /// `template <> __global__ void k<float>(float*)`: an explicit specialisation of the kernel
    /// template `k`, with the arguments written after its name (empty where they are deduced
    /// from its parameter types, `template <> __global__ void k(float*)`).
    pub specialization: Option<Vec<TemplateArg>>,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// `__global__ std::enable_if_t<c> k(...)`: the return type of a kernel template that
    /// exists only where `c` holds (`None`: `void`).
    pub enable_if: Option<TypeName>,
    /// The body.
    pub body: Vec<Stmt>,
    /// The whole definition.
    pub span: Span,
    /// The named namespace it is defined in (`a::b`; empty at file scope).
    pub namespace: String,
}

impl Kernel {
    /// Its name with its namespace: `a::b::k`, or `k` at file scope.
    pub fn qualified_name(&self) -> String {
        if self.namespace.is_empty() {
            self.name.name.clone()
        } else {
            format!("{}::{}", self.namespace, self.name.name)
        }
    }
}

/// `__device__ T name(params) { body }`.
#[derive(Clone, Debug)]
pub struct Function {
    /// `template <...>` parameters (empty for a plain function).
    pub template: Vec<TemplateParam>,
    /// Return type (`void` allowed).
    pub ret: TypeName,
    /// `auto f(U a, V b) -> decltype(a + b)`: the expression whose type the function returns
    /// (`ret` is then `auto`), typed with the parameters of each call bound.
    pub ret_decltype: Option<Box<Expr>>,
    /// Function name.
    pub name: Ident,
    /// Parameters in order (scalars only).
    pub params: Vec<Param>,
    /// The body.
    pub body: Vec<Stmt>,
    /// `f(...) const`: a member function whose implicit object parameter is `const T&` (C++
    /// [over.match.funcs]); of two overloads that differ only in it, a `const` object calls this
    /// one and any other object the other.
    pub is_const: bool,
    /// The whole definition.
    pub span: Span,
}

impl Function {
    /// Whether this is a template declared without a body, `declared` being
    /// [`Module::declared`]. Every token of an included header has the `#include` line's span,
    /// so a definition in the same header shares the declaration's span: only a declaration
    /// has no body.
    pub fn declared_only(&self, declared: &[Span]) -> bool {
        self.body.is_empty() && declared.contains(&self.span)
    }
}

/// A lambda expression.
#[derive(Clone, Debug)]
pub struct Lambda {
    /// Names captured by value (`[x]`), copied where the lambda is made.
    pub by_value: Vec<Ident>,
    /// `[=]`: every variable the body uses is captured by value.
    pub copy_default: bool,
    /// The function: its parameters, return type and body.
    pub function: Function,
}

/// `template <> ... f<args>(...) { ... }`: a function template's explicit specialisation.
#[derive(Clone, Debug)]
pub struct Specialization {
    /// The template arguments as written after the name; empty when the declaration leaves
    /// them to be deduced from its return and parameter types (`template <> float f(int)`).
    pub args: Vec<TemplateArg>,
    /// The function, with no template parameters of its own.
    pub function: Function,
}

/// `struct Name { ... };` or a template of one.
#[derive(Clone, Debug)]
pub struct StructDef {
    /// The name.
    pub name: Ident,
    /// `template <...>` parameters (empty for a plain struct or a specialisation).
    pub template: Vec<TemplateParam>,
    /// The arguments of a `template <>` specialisation as written, spaces only between words (`<float>`).
    pub spec: String,
    /// Member functions; a conversion operator is named `operator` and returns its type, an
    /// overloaded operator is named `operator+`, `operator[]`...
    pub methods: Vec<Function>,
    /// Constructors, named after the struct; the initialiser list `: x(a), y(b)` is the start of
    /// the body (`x = a; y = b;`).
    pub ctors: Vec<Function>,
    /// `friend __device__ S operator+(S a, int n) { ... }`: functions defined in the class that
    /// are no members, each with its own template parameters (a friend template's); the checker
    /// makes them free functions of the file.
    pub friends: Vec<Function>,
    /// Data members in order, and `static` members.
    pub fields: Vec<Field>,
    /// `__align__(n)`, `alignas(n)` or `alignas(T)`.
    pub align: Option<Align>,
    /// `__attribute__((packed))`: members at the next byte, the struct aligned to one.
    pub packed: bool,
    /// A member simt cannot lay out (a bit-field), reported where the struct is used.
    pub unsupported: Option<(String, Span)>,
    /// A `union`: every member starts at byte 0.
    pub is_union: bool,
    /// Member types (`using hip_type = float;`, `typedef float T;`): `hip_type` inside the
    /// struct, `S::hip_type` outside.
    pub aliases: Vec<(Ident, TypeName)>,
    /// Copy and move members declared `= default` or `= delete`.
    pub specials: Vec<SpecialMember>,
    /// `: public hitable`: the class it derives from, whose members
    /// [`crate::syntax::inherit`] copies into it.
    pub base: Option<Ident>,
    /// The base's template arguments as written, spaces only between words (`<T>` of
    /// `: public DevPtr<T>`); empty for a plain base.
    pub base_args: String,
    /// Its virtual member functions, its own and those it inherits.
    pub virtuals: Vec<VirtualMember>,
    /// The named namespace it is defined in (`thrust`; empty at file scope), where an
    /// unqualified call given one of its objects also looks (argument-dependent lookup).
    pub namespace: String,
    /// The whole definition.
    pub span: Span,
}

/// A virtual member function of a class: `virtual bool hit(...) const = 0;`, or a member that
/// overrides one.
#[derive(Clone, Debug)]
pub struct VirtualMember {
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub arity: usize,
    /// `= 0`: declared without a body, for derived classes to define.
    pub pure: bool,
    /// Where it is declared.
    pub span: Span,
}

/// A struct's alignment specifier.
#[derive(Clone, Debug)]
pub enum Align {
    /// `alignas(16)`, `__align__(8)`: bytes.
    Bytes(Expr),
    /// `alignas(float)`: the type's alignment (C++ [dcl.align]: `alignas(alignof(float))`).
    Type(TypeName),
}

/// `P(const P&) = default;` or `P& operator=(const P&) = delete;`: a copy or move member that
/// has no body of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecialMember {
    /// A constructor (`P(const P&)`) or an assignment (`operator=`).
    pub assignment: bool,
    /// A move member (`P&&`) rather than a copy member (`const P&`).
    pub moves: bool,
    /// `= delete` rather than `= default`.
    pub deleted: bool,
    /// The declaration.
    pub span: Span,
}

/// How the one member standing for an anonymous struct or union is named, before where it
/// starts (`union@48`): no identifier can take it.
pub const ANONYMOUS_MEMBER: &str = "union@";

/// `float v[4] = ...;` inside a struct: one data member.
#[derive(Clone, Debug)]
pub struct Field {
    /// Its type.
    pub ty: TypeName,
    /// Its name.
    pub name: Ident,
    /// `[N]` suffixes.
    pub dims: Vec<Option<Expr>>,
    /// The default member initialiser (or a `static` member's value).
    pub init: Option<Expr>,
    /// `static`: a constant of the struct, not a member of each object.
    pub is_static: bool,
    /// An anonymous union (`union { float4 s; float e[4]; };`): its members are the struct's.
    pub anonymous: bool,
    /// `T** p;` (`ty.pointer` is the outer `*`): a pointer to a pointer.
    pub pointer_to_pointer: bool,
    /// `alignas(T) unsigned char data_[N];`: its own alignment, at least its type's.
    pub align: Option<Align>,
}

/// `__constant__ float c_mask[9];` (or a scalar, `__constant__ float c_scale;`), or a
/// `__device__` global variable (`__device__ unsigned int count = 0;`).
#[derive(Clone, Debug)]
pub struct ConstantArray {
    /// Element type.
    pub ty: TypeName,
    /// The name.
    pub name: Ident,
    /// Dimensions.
    pub dims: Vec<Option<Expr>>,
    /// Which memory it is.
    pub memory: FileMemory,
    /// `= value` (a `__device__` scalar's initialiser).
    pub init: Option<Expr>,
    /// The namespace it is declared in (`a::b`; empty at file scope).
    pub namespace: String,
}

/// The memory a file-scope variable lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileMemory {
    /// `__constant__`: read-only, through the constant cache.
    Constant,
    /// `__device__` or `__managed__`: writable global memory.
    Device,
    /// A legacy texture reference (`texture<float, 1> tex;`): read-only global memory, read
    /// with `tex1Dfetch(tex, i)`, bound to a buffer of any length by the launch.
    Texture,
    /// A host array with its values (`static const uint32_t alpha_n[] = {...};`): not device
    /// memory, but a name the launch section may copy from.
    Host,
}

/// One parameter of a template.
#[derive(Clone, Debug)]
pub struct TemplateParam {
    /// Its name.
    pub name: Ident,
    /// A type or a value, with its default.
    pub kind: TemplateParamKind,
    /// `typename... Args`: a pack of any number of types (C++11), deduced from a call's
    /// arguments.
    pub pack: bool,
}

/// What a template parameter stands for.
#[derive(Clone, Debug)]
pub enum TemplateParamKind {
    /// `typename T` / `class T = float`.
    Type(Option<TypeName>),
    /// `int N` / `const uint BM = 64`.
    Value(TypeName, Option<Expr>),
    /// `scalar_t (*ACT_FN)(const scalar_t&)`: a function pointer written as a declarator; its
    /// type as C spells it without the name (`scalar_t (*)(const scalar_t&)`), and its default.
    Function(String, Option<Expr>),
    /// `template <typename> class ReduceOp`: a template template parameter, bound to a class
    /// template's name; how many parameters its own list declares, and its default's name.
    Template(usize, Option<String>),
}

/// A template argument as written: a scalar type, or an expression (a bare name may also be a
/// type; the parameter it binds to decides).
#[derive(Clone, Debug)]
pub enum TemplateArg {
    /// `float`, `unsigned int*`.
    Type(TypeName),
    /// `64`, `BM * 2`, `T`; a function template's instance `f<float>` is the name
    /// `f<float>`, as written without spaces.
    Value(Expr),
}

/// One kernel parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its type.
    pub ty: TypeName,
    /// Its name.
    pub name: Ident,
    /// `= value`: the default argument.
    pub default: Option<Expr>,
    /// `volatile T* p`: overloads may differ in it alone (the simulation reads and writes
    /// through it as through `T* p`).
    pub volatile: bool,
    /// `P&& p`: an rvalue reference (a move constructor's parameter).
    pub moves: bool,
    /// `Args&&... args`: a function parameter pack, one parameter per element of its type's
    /// pack.
    pub pack: bool,
    /// `T** p`: a pointer to a pointer, which simt refuses where the parameter is bound.
    pub pointer_to_pointer: bool,
    /// `float t[4][8]`: the sizes after the first, which the pointer `t` (to rows of 8) indexes
    /// with (`t[r][c]` is element `8 r + c`).
    pub rows: Vec<Expr>,
    /// `unsigned (&bins)[N]`: the size of the array a reference-to-array parameter refers to,
    /// from which a call deduces a template's `N` ([temp.deduct.type]).
    pub extent: Option<Expr>,
}

/// A scalar type name as written in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    /// `void`
    Void,
    /// `bool`
    Bool,
    /// `char`, `signed char`, `int8_t`
    I8,
    /// `unsigned char`, `uint8_t`
    U8,
    /// `short`, `int16_t`
    I16,
    /// `unsigned short`, `uint16_t`
    U16,
    /// `int`, `int32_t`
    I32,
    /// `unsigned`, `unsigned int`, `uint32_t`
    U32,
    /// `long long`, `long`, `int64_t`
    I64,
    /// `unsigned long long`, `uint64_t`, `size_t`
    U64,
    /// `float`
    F32,
    /// `double`
    F64,
    /// `half`, `__half` (cuda_fp16.h)
    F16,
    /// `__nv_bfloat16`, `nv_bfloat16` (cuda_bf16.h)
    BF16,
    /// A CUDA vector type such as `float4`.
    Vector,
    /// A type named by an identifier (a template parameter, an alias, a cooperative-groups type),
    /// resolved by the checker.
    Named,
    /// `auto`: the type of the initialiser.
    Auto,
}

impl BaseType {
    /// The type an identifier names before the checker resolves it: cuda_fp16.h's and
    /// cuda_bf16.h's types, which are identifiers to the grammar (a variable may be called
    /// `half`), or a name for the checker (`Named`).
    pub fn named(text: &str) -> BaseType {
        match text {
            // PyTorch's `c10::Half` / `at::Half` (and bfloat16) hold the same 16 bits.
            "half" | "__half" | "c10::Half" | "at::Half" => BaseType::F16,
            "__nv_bfloat16" | "nv_bfloat16" | "c10::BFloat16" | "at::BFloat16" => BaseType::BF16,
            "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162" => BaseType::Vector,
            // `typedef unsigned long long cudaTextureObject_t;` (CUDA's texture_types.h): a
            // handle the launch binds to a texture ([`crate::texture`]); a surface's, whose
            // reads and writes simt refuses by name.
            "cudaTextureObject_t" | "cudaSurfaceObject_t" => BaseType::U64,
            // Host handles (pointers to the runtime's own structs in CUDA) that a parameter
            // struct may carry and device code never follows (decoding_attention's
            // `cudaStream_t stream;`): 8 bytes.
            "cudaStream_t" | "cudaEvent_t" => BaseType::U64,
            _ => BaseType::Named,
        }
    }
}

/// The name the parser gives an unnamed parameter (`__global__ void k(uint64_t, float* out)`):
/// no source text can spell it.
pub fn unnamed_param(k: usize) -> String {
    format!("<parameter {k}>")
}

/// Whether `name` is an unnamed parameter's ([`unnamed_param`]).
pub fn is_unnamed_param(name: &str) -> bool {
    name.starts_with("<parameter ")
}

/// A type as written: base, pointer-ness and qualifiers.
#[derive(Clone, Debug)]
pub struct TypeName {
    /// The scalar part.
    pub base: BaseType,
    /// The scalar part's spelling (for messages).
    pub base_text: String,
    /// `T*`.
    pub pointer: bool,
    /// `T&` (a reference parameter of a `__device__` function).
    pub reference: bool,
    /// `const` appears on the scalar part.
    pub is_const: bool,
    /// The whole type.
    pub span: Span,
}

impl TypeName {
    /// The type a struct, union or class is named by, plain (no pointer, reference or `const`).
    pub fn named(name: impl Into<String>, span: Span) -> TypeName {
        let text = name.into();
        // `std::uint32_t` (<cstdint>, a template argument read as a name): the C type.
        if let Some(c) = text.trim_start_matches("::").strip_prefix("std::") {
            let base = super::base_type(c);
            if c.ends_with("_t") && base != BaseType::Vector {
                return TypeName {
                    base,
                    base_text: c.to_string(),
                    pointer: false,
                    reference: false,
                    is_const: false,
                    span,
                };
            }
        }
        TypeName {
            base: BaseType::Named,
            base_text: text,
            pointer: false,
            reference: false,
            is_const: false,
            span,
        }
    }
}

/// A statement with its span.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// The statement forms of the kernel language.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// `auto [a, b] = s;` (C++17 structured bindings): each name a member of `init`'s struct,
    /// in order, of a copy of it or (`by_ref`, `auto&`) of the object itself.
    Bindings {
        /// The names, one per data member.
        names: Vec<Ident>,
        /// `auto&`: the names refer to `init`'s own members.
        by_ref: bool,
        /// The struct.
        init: Expr,
    },
    /// `int i = 0, j;`
    Decl {
        /// The declared type.
        ty: TypeName,
        /// One or more names.
        decls: Vec<Declarator>,
        /// `decltype(a + b) c = a + b;`: the expression whose type the names have (not run);
        /// `ty` is then `auto`.
        of: Option<Box<Expr>>,
    },
    /// `__shared__ float tile[32][33];`
    Shared {
        /// Element type.
        ty: TypeName,
        /// Array name.
        name: Ident,
        /// Dimensions; `None` for `[]`.
        dims: Vec<Option<Expr>>,
        /// `extern __shared__`.
        is_extern: bool,
    },
    /// `target op= value`
    Assign {
        /// The assigned place.
        target: Expr,
        /// `None` for `=`, the arithmetic operator for `+=` etc.
        op: Option<BinOp>,
        /// The operator's span.
        op_span: Span,
        /// The right side.
        value: Expr,
    },
    /// `x++`, `++x`, `x--`, `--x` as a statement.
    IncDec {
        /// The place.
        target: Expr,
        /// `++` (true) or `--`.
        inc: bool,
    },
    /// An expression evaluated for its effect (a call such as `__syncthreads()`).
    Expr(Expr),
    /// `if (cond) then else els`
    If {
        /// Condition.
        cond: Expr,
        /// Taken branch.
        then: Box<Stmt>,
        /// Optional else branch.
        els: Option<Box<Stmt>>,
        /// `if constexpr`: the condition is a constant and only the branch it takes is checked
        /// (C++17), as in a template instantiation.
        constexpr: bool,
    },
    /// `for (init; cond; step) body`
    For {
        /// Init statements.
        init: Vec<Stmt>,
        /// Condition (`None` = forever).
        cond: Option<Expr>,
        /// Step statements.
        step: Vec<Stmt>,
        /// Body.
        body: Box<Stmt>,
    },
    /// `for (int i : range) body` (C++11): the loop over an array's elements and the loop
    /// through an object's `begin()`/`end()` iterators, of which the checker runs the one the
    /// range's type calls for (a struct: `class`, or `pointer` where its `begin()` returns one;
    /// anything else: `array`).
    RangeFor {
        /// The range as written.
        range: Expr,
        /// `for (int __i1 = 0; __i1 < N; ++__i1) { DECL = range[__i1]; body }`.
        array: Box<Stmt>,
        /// `{ auto __range1 = range; auto __begin1 = __range1.begin(); … for (; __begin1 !=
        /// __end1; __begin1.operator++()) { DECL = __begin1.operator*(); body } }`.
        class: Box<Stmt>,
        /// The same through the pointers a class's `begin()` and `end()` return: `{ auto&&
        /// __range1 = range; … for (; __begin1 != __end1; ++__begin1) { DECL = *__begin1; body
        /// } }` (`std::array`-like classes).
        pointer: Box<Stmt>,
    },
    /// `while (cond) body`
    While {
        /// Condition.
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`
    DoWhile {
        /// Body.
        body: Box<Stmt>,
        /// Condition.
        cond: Expr,
    },
    /// `break;`
    Break,
    /// `delete p;` or `delete[] p;`: frees what `new` allocated.
    Delete {
        /// The pointer.
        ptr: Expr,
        /// `delete[]`.
        array: bool,
    },
    /// A statement the builder read but simt does not run (a `switch` whose cases fall through
    /// into each other): reported by the checker as unsupported.
    Unsupported {
        /// What it is.
        what: String,
        /// The way to write it.
        help: String,
        /// Not valid CUDA either (an `asm` operand that does not match its use): reported as
        /// `simt::check::asm_operand` rather than unsupported.
        invalid: bool,
        /// The names a refused declaration declares (`float ***x;`), which later statements
        /// name without a cascade of unknown names.
        declares: Vec<Ident>,
    },
    /// `goto label;` that [`super::goto`] could not read as structured statements (a jump
    /// backward, or into a block): reported by the checker as unsupported.
    Goto(Ident),
    /// `label:`, a `goto`'s target (nothing to run).
    Label(Ident),
    /// `continue;`
    Continue,
    /// `return;` (a value is rejected by the checker)
    Return(Option<Expr>),
    /// `;` or `#pragma ...`
    Empty,
    /// `typedef T name;` / `using name = T;` inside a function.
    TypeAlias {
        /// The new name.
        name: Ident,
        /// The type it stands for.
        ty: TypeName,
    },
}

/// One name in a declaration.
#[derive(Clone, Debug)]
pub struct Declarator {
    /// The name.
    pub name: Ident,
    /// Declared a pointer: `*` in the type of the first name (`float* p`) or before this one (`*q`).
    pub pointer: bool,
    /// `T** p` (or `T* *p`): a pointer to pointers stored in memory.
    pub pointer_to_pointer: bool,
    /// `&` before the name: a reference local (`const auto& q = p[1];`), another name for
    /// the object its initialiser names.
    pub reference: bool,
    /// `[N]` suffixes: a per-thread local array.
    pub dims: Vec<Option<Expr>>,
    /// A pointer to arrays (`float (*p)[A][B]`, or a reference to an array, `float (&s)[R][A]
    /// [B]`, read as a pointer to its rows): the sizes of what it steps over, so that
    /// `p[i][j][k]` is element `(i A + j) B + k`.
    pub rows: Vec<Expr>,
    /// `= value`.
    pub init: Option<Expr>,
    /// `= {a, b, ...}`: a local array's initialiser, with its span.
    pub list: Option<(Vec<Expr>, Span)>,
}

impl Declarator {
    /// `T name` or `T name = init`: no pointer, reference or array.
    pub fn plain(name: Ident, init: Option<Expr>) -> Declarator {
        Declarator {
            name,
            pointer: false,
            pointer_to_pointer: false,
            reference: false,
            dims: Vec::new(),
            rows: Vec::new(),
            init,
            list: None,
        }
    }
}

/// An expression with its span.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// Binary operators, C precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            And => "&&",
            Or => "||",
        }
    }

    /// `<`, `>`, `<=`, `>=`, `==`, `!=`.
    pub fn is_comparison(self) -> bool {
        use BinOp::*;
        matches!(self, Lt | Gt | Le | Ge | Eq | Ne)
    }
}

impl std::fmt::Display for BinOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.symbol())
    }
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
    /// `*p`
    Deref,
    /// `&x`
    AddrOf,
}

impl TemplateArg {
    /// Gives every part of an argument parsed from text simt made (`CTAReduce__Storage<4,float>`,
    /// a type's arguments put in place) the span of what it was made from: a diagnostic about it
    /// then points there, not at the same offset of the file.
    pub fn respan(&mut self, span: Span) {
        match self {
            TemplateArg::Type(t) => t.span = span,
            TemplateArg::Value(e) => e.respan(span),
        }
    }
}

impl Expr {
    /// The integer `v` as a literal (`-literal` where it is negative), `long` where it does not
    /// fit in `int` and `unsigned` where it does not fit in `long long`.
    pub fn integer(v: i128, span: Span) -> Expr {
        let literal = Expr {
            kind: ExprKind::Int {
                value: v.unsigned_abs() as u64,
                unsigned: v > i128::from(i64::MAX),
                long: v.unsigned_abs() > i32::MAX as u128,
                hex: false,
            },
            span,
        };
        if v < 0 {
            Expr {
                kind: ExprKind::Unary {
                    op: UnOp::Neg,
                    operand: Box::new(literal),
                },
                span,
            }
        } else {
            literal
        }
    }

    /// Whether the expression names `name` anywhere (a variable, a function, a member).
    pub fn mentions(&self, name: &str) -> bool {
        let any = |es: &[Expr]| es.iter().any(|e| e.mentions(name));
        let arg = |t: &TemplateArg| matches!(t, TemplateArg::Value(e) if e.mentions(name));
        match &self.kind {
            ExprKind::Name(n) => n == name,
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::SizeOfType(_)
            | ExprKind::Lambda(_) => false,
            ExprKind::SizeOfPack(i) => i.name == name,
            ExprKind::Unary { operand: e, .. }
            | ExprKind::Designated { value: e, .. }
            | ExprKind::SizeOfExpr(e)
            | ExprKind::Pack(e)
            | ExprKind::IncDec { target: e, .. }
            | ExprKind::Cast { expr: e, .. } => e.mentions(name),
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign {
                target: lhs,
                value: rhs,
                ..
            }
            | ExprKind::Index {
                base: lhs,
                index: rhs,
            } => lhs.mentions(name) || rhs.mentions(name),
            ExprKind::Ternary { cond, then, els } => {
                cond.mentions(name) || then.mentions(name) || els.mentions(name)
            }
            ExprKind::Member { base, .. } => base.mentions(name),
            ExprKind::Call {
                callee,
                targs,
                args,
            } => callee.name == name || targs.iter().any(arg) || any(args),
            ExprKind::Method {
                object,
                targs,
                args,
                ..
            } => object.mentions(name) || targs.iter().any(arg) || any(args),
            ExprKind::List(es) | ExprKind::Tuple(es) => any(es),
            ExprKind::New { args, count, .. } => {
                any(args) || count.as_ref().is_some_and(|c| c.mentions(name))
            }
        }
    }

    /// [`TemplateArg::respan`] of an expression: it and each expression, type and name in it.
    pub fn respan(&mut self, span: Span) {
        self.span = span;
        let each = |es: &mut [Expr]| es.iter_mut().for_each(|e| e.respan(span));
        match &mut self.kind {
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::Name(_)
            | ExprKind::Lambda(_) => {}
            ExprKind::Unary { operand: e, .. }
            | ExprKind::Designated { value: e, .. }
            | ExprKind::SizeOfExpr(e)
            | ExprKind::Pack(e)
            | ExprKind::IncDec { target: e, .. } => e.respan(span),
            ExprKind::Binary {
                op_span, lhs, rhs, ..
            } => {
                *op_span = span;
                lhs.respan(span);
                rhs.respan(span);
            }
            ExprKind::Assign {
                target,
                op_span,
                value,
                ..
            } => {
                *op_span = span;
                target.respan(span);
                value.respan(span);
            }
            ExprKind::Ternary { cond, then, els } => {
                cond.respan(span);
                then.respan(span);
                els.respan(span);
            }
            ExprKind::Cast { ty, expr } => {
                ty.span = span;
                expr.respan(span);
            }
            ExprKind::Index { base, index } => {
                base.respan(span);
                index.respan(span);
            }
            ExprKind::Member { base, field } => {
                field.span = span;
                base.respan(span);
            }
            ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                callee.span = span;
                targs.iter_mut().for_each(|t| t.respan(span));
                each(args);
            }
            ExprKind::Method {
                object,
                method,
                targs,
                args,
            } => {
                method.span = span;
                object.respan(span);
                targs.iter_mut().for_each(|t| t.respan(span));
                each(args);
            }
            ExprKind::List(es) | ExprKind::Tuple(es) => each(es),
            ExprKind::SizeOfType(t) => t.span = span,
            ExprKind::SizeOfPack(i) => i.span = span,
            ExprKind::New {
                ty, args, count, ..
            } => {
                ty.span = span;
                each(args);
                if let Some(c) = count {
                    c.respan(span);
                }
            }
        }
    }
}

/// The expression forms.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal with its C suffix.
    Int {
        /// The value (fits in 64 bits).
        value: u64,
        /// `u` suffix.
        unsigned: bool,
        /// `l`/`ll` suffix.
        long: bool,
        /// Written in hex (C types hex literals differently).
        hex: bool,
    },
    /// A floating literal; `single` for an `f` suffix.
    Float {
        /// The value.
        value: f64,
        /// `f` suffix: `float`, otherwise `double`.
        single: bool,
    },
    /// `true`/`false`
    Bool(bool),
    /// `"text"` (host sections only).
    Str(String),
    /// A name.
    Name(String),
    /// `op operand`
    Unary {
        /// Operator.
        op: UnOp,
        /// Operand.
        operand: Box<Expr>,
    },
    /// `lhs op rhs`
    Binary {
        /// Operator.
        op: BinOp,
        /// Its span.
        op_span: Span,
        /// Left.
        lhs: Box<Expr>,
        /// Right.
        rhs: Box<Expr>,
    },
    /// `cond ? then : els`
    Ternary {
        /// Condition.
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        els: Box<Expr>,
    },
    /// `(T)e`, `static_cast<T>(e)`
    Cast {
        /// Target type.
        ty: TypeName,
        /// Operand.
        expr: Box<Expr>,
    },
    /// `base[index]`
    Index {
        /// Indexed expression.
        base: Box<Expr>,
        /// Index.
        index: Box<Expr>,
    },
    /// `base.field`
    Member {
        /// Accessed expression.
        base: Box<Expr>,
        /// Field name.
        field: Ident,
    },
    /// `callee(args)` or `callee<targs>(args)`
    Call {
        /// The function name.
        callee: Ident,
        /// Explicit template arguments.
        targs: Vec<TemplateArg>,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `[captures](params) { body }`: a lambda; its name is `<lambda>`, its return type
    /// `auto` unless written after `->`.
    Lambda(Box<Lambda>),
    /// `object.method<targs>(args)`: a member function call (cooperative groups).
    Method {
        /// The object.
        object: Box<Expr>,
        /// The member function.
        method: Ident,
        /// Explicit template arguments.
        targs: Vec<TemplateArg>,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `[a, b, c]` in a host section; `{a, b}` in a kernel (a struct's initialiser).
    List(Vec<Expr>),
    /// `.x = v` in a declaration's braced initialiser (C99, C++20): the member it sets.
    Designated {
        /// The member.
        field: Ident,
        /// Its value.
        value: Box<Expr>,
    },
    /// `(a, b)` (host sections only: a dimension tuple)
    Tuple(Vec<Expr>),
    /// `sizeof(float)`, or `sizeof(x)` of a name that may be a variable.
    SizeOfType(TypeName),
    /// `sizeof a[0]`, `sizeof(a[0])`.
    SizeOfExpr(Box<Expr>),
    /// `sizeof...(Args)`: the number of elements of a pack, known in an instance.
    SizeOfPack(Ident),
    /// `pattern...` in a call's arguments (or a template argument): the pattern once for each
    /// element of the packs it names, in an instance of a variadic template.
    Pack(Box<Expr>),
    /// `(target op= value)`: an assignment in parentheses, used as a value (the target's new
    /// value, of its type).
    Assign {
        /// The assigned place.
        target: Box<Expr>,
        /// `None` for `=`, the arithmetic operator for `+=` etc.
        op: Option<BinOp>,
        /// The operator's span.
        op_span: Span,
        /// The right side.
        value: Box<Expr>,
    },
    /// `new T(args)`, `new T{args}`, `new T`, `new T[n]`: an object or an array of the device
    /// heap; its value is a pointer to it.
    New {
        /// `T` (`hitable*` for `new hitable*[n]`).
        ty: TypeName,
        /// The constructor's arguments.
        args: Vec<Expr>,
        /// `[n]`: an array of `n` elements.
        count: Option<Box<Expr>>,
        /// `new (where) T`: placement `new`, which simt refuses.
        place: Option<Span>,
    },
    /// `x++`, `++x`, `x--`, `--x` inside a larger expression (`a[n++] = v`, `*p++`).
    IncDec {
        /// The variable.
        target: Box<Expr>,
        /// `++` (true) or `--`.
        inc: bool,
        /// `x++` (true: the value before) or `++x` (the value after).
        post: bool,
    },
}

/// `launch kernel { ... }`.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The kernel it launches: its name, with the template arguments as written and without
    /// spaces for an instance (`sgemm<64,64,8>`).
    pub kernel: Ident,
    /// The template arguments of an instance.
    pub targs: Vec<TemplateArg>,
    /// Assignments and expectations in order.
    pub stmts: Vec<HostStmt>,
    /// The whole section.
    pub span: Span,
}

impl Module {
    /// The launch sections inside the file's `sequence`s, in order.
    pub fn sequence_launches(&self) -> impl Iterator<Item = &Launch> {
        self.sequences.iter().flat_map(|s| {
            s.items.iter().filter_map(|i| match i {
                SeqItem::Launch(l) => Some(l),
                SeqItem::Stmt(_) => None,
            })
        })
    }

    /// Every launch section of the file: its own, then those inside its `sequence`s.
    pub fn all_launches_mut(&mut self) -> impl Iterator<Item = &mut Launch> {
        self.launches
            .iter_mut()
            .chain(self.sequences.iter_mut().flat_map(|s| {
                s.items.iter_mut().filter_map(|i| match i {
                    SeqItem::Launch(l) => Some(l),
                    SeqItem::Stmt(_) => None,
                })
            }))
    }
}

/// `sequence { ... }`: host statements and `launch k { ... }` items, run in order.
#[derive(Clone, Debug)]
pub struct Sequence {
    /// The statements and launches, in order.
    pub items: Vec<SeqItem>,
    /// The whole section.
    pub span: Span,
}

/// One item of a [`Sequence`].
#[derive(Clone, Debug)]
pub enum SeqItem {
    /// A statement of the launch-section language (an array, a scalar, an `expect`).
    Stmt(HostStmt),
    /// `launch k { ... }`: a launch, with its own parameter bindings and grid.
    Launch(Launch),
}

/// A host-section statement.
#[derive(Clone, Debug)]
pub enum HostStmt {
    /// `name = value;`
    Assign {
        /// The assigned name (a parameter, `grid`, `block`, or a host variable).
        name: Ident,
        /// Its value.
        value: Expr,
    },
    /// `expect expr;`
    Expect(Expr),
    /// `cooperative;`: a cooperative launch (`cudaLaunchCooperativeKernel`).
    Cooperative(Span),
}
