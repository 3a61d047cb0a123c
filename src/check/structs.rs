//! Structs and classes with data members: one local per scalar member in registers, one scalar access per member in memory.

// A struct is desugared here into what the typed program already has. A struct value in
// registers is one variable per scalar leaf (members of members and array elements included),
// so copies, arguments and results are assignments leaf by leaf. A struct in memory has C's
// layout (padding included): a homogeneous one (every leaf of one scalar type) is a buffer of
// that type with `stride` components per struct, and `p[i].x` is the scalar element `i * stride
// + offset(x)`; any other is its bytes (`unsigned char`, `stride` = `sizeof`), and `p[i].x` is
// an access of `x`'s own type and size at byte `i * sizeof + offset(x)` (its index counting
// `x`-sized elements, which C's alignment makes exact). Either way sectors and banks are the
// hardware's. A struct that holds an array, or a union one of whose members reads the bytes of
// another as a different type, is a one-element local array, so that the array may be indexed
// at run time and loads may reinterpret bytes.
// Member functions, constructors and operators are inlined calls whose body sees the members
// by name.

use std::collections::HashMap;
use std::rc::Rc;

use super::expr::{constant, load};
use super::intrinsics::RetShape;
use super::operators::{unresolved, Choice};
use super::template::Bindings;
use super::typed::*;
use super::vector::Place;
use super::{
    ArgumentProblem, Binding, CheckError, DimensionProblem, InitialiserProblem, KernelChecker,
    TemplateProblem,
};
use crate::source::Span;

/// Whether `e` says that no specialisation (or more than one) fits an instance.
fn chooses_nothing(e: &CheckError) -> bool {
    matches!(
        e,
        CheckError::TemplateArguments {
            problem: TemplateProblem::Ambiguous | TemplateProblem::NoSpecialisation,
            ..
        }
    )
}

/// How deep static members defined by other instances' may recurse: each level nests the
/// expression being checked two levels deeper, within the checker's bound of
/// [`crate::syntax::MAX_DEPTH`] (C++ compilers allow about 900 instances, gcc's
/// `-ftemplate-depth`).
const STATIC_DEPTH: u32 = 400;
use crate::syntax::ast::{self, BaseType, BinOp, UnOp};
use crate::value::{Scalar, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// A struct type (or an array or vector member inside one), flattened to scalar leaves.
#[derive(Debug)]
pub(crate) struct Layout {
    /// The type as written (`P<float>`, `float[4]`).
    pub name: String,
    /// The struct definition and its template arguments (`None` for an array or a vector).
    pub def: Option<(usize, Bindings)>,
    /// Members in order (`0`, `1`, ... for an array; `x`, `y`, ... for a vector); their leaves
    /// are the layout's, one after another. A union's is its storage: its first largest member.
    pub members: Vec<Member>,
    /// A union's other members (and those of a struct's anonymous unions): other views of
    /// leaves that `members` own, each of the same size and offset as the leaf it views.
    pub views: Vec<Member>,
    /// Some view (at any depth) reads leaves as another type of their size (`union { float f;
    /// int i; }`): a value of this type lives in memory, where a load may reinterpret bytes.
    pub retyped: bool,
    /// Some view (at any depth) splits or joins the scalars it views (`union { uint32_t u;
    /// half2 h; }`): a value of this type lives in memory as bytes, where each view reads its
    /// own scalars at their own offsets.
    pub split: bool,
    /// A union whose first member is not its storage: the first member, which `{...}` would
    /// initialise.
    pub init_view: Option<String>,
    /// `static` members: constants of the type.
    pub statics: Vec<(String, Value)>,
    /// Members that are objects of structs without data (`Op op;` beside `float s;`): one
    /// byte each in `size`, as in C++, and no leaves.
    pub objects: Vec<ObjectMember>,
    /// Every scalar leaf in order: its type and byte offset.
    pub leaves: Vec<(Scalar, u32)>,
    /// `sizeof`, padding included.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
    /// An array: members are reached by index.
    pub array: bool,
}

/// One member of a layout.
#[derive(Debug)]
pub(crate) struct Member {
    /// Its name.
    pub name: String,
    /// Its first leaf.
    pub first: usize,
    /// Its byte offset.
    pub offset: u32,
    /// A scalar, or a struct, array or vector of its own.
    pub kind: MemberKind,
}

/// A member of a layout that is an object of a struct without data.
#[derive(Debug)]
pub(crate) struct ObjectMember {
    /// Its name.
    pub name: String,
    /// Its type.
    pub object: super::objects::Object,
    /// How many of the layout's members come before it: where a braced list gives its item.
    pub before: usize,
}

/// What a member holds.
#[derive(Clone, Debug)]
pub(crate) enum MemberKind {
    /// One scalar leaf.
    Scalar(Scalar),
    /// Several leaves.
    Compound(Rc<Layout>),
    /// A pointer (`const half* data;`): one `i64` leaf holding the offset into the array it
    /// points into. Which array that is, is known where a struct value is given its pointer, as
    /// for a pointer variable; so a struct holding one lives in registers, never in memory.
    Pointer(PointerMember),
}

/// A pointer member's declared type.
#[derive(Clone, Debug)]
pub(crate) struct PointerMember {
    /// Component type and components of what it points to (a struct's as in a buffer; bytes
    /// for an opaque pointer).
    pub pointee: (Scalar, u32),
    /// `const T*`.
    pub is_const: bool,
    /// What it points to, beyond `pointee`.
    pub target: Target,
}

/// What a pointer member points to.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// A scalar or a vector: `pointee` says which.
    Data,
    /// A struct without pointers (`double4`, `Particle`), in memory as in a buffer of them.
    Struct(Rc<Layout>),
    /// Something simt holds but does not follow (`void`, a struct that holds pointers), as
    /// written: the launch leaves it unset or `NULL`, the kernel may copy it.
    Opaque(String),
    /// Pointers stored in memory (`hitable** list;`), each of this type (`hitable*`).
    Slots(ast::TypeName),
}

impl MemberKind {
    /// Size and alignment in bytes, and the leaves with their byte offsets.
    pub(crate) fn shape(&self) -> (u32, u32, Vec<(Scalar, u32)>) {
        match self {
            MemberKind::Scalar(s) => (s.size(), s.size(), vec![(*s, 0)]),
            MemberKind::Compound(l) => (l.size, l.align, l.leaves.clone()),
            MemberKind::Pointer(_) => (8, 8, vec![(Scalar::I64, 0)]),
        }
    }

    /// Whether some view of it reads its bytes as another type.
    fn retyped(&self) -> bool {
        match self {
            MemberKind::Compound(l) => l.retyped,
            MemberKind::Scalar(_) | MemberKind::Pointer(_) => false,
        }
    }

    /// Whether some view of it splits or joins the scalars it views.
    fn split(&self) -> bool {
        match self {
            MemberKind::Compound(l) => l.split,
            MemberKind::Scalar(_) | MemberKind::Pointer(_) => false,
        }
    }
}

impl Layout {
    /// Where its leaves lie in memory.
    pub fn image(&self) -> super::struct_image::StructImage {
        super::struct_image::StructImage {
            leaves: self.leaves.clone(),
            size: self.size,
        }
    }

    /// The scalar type of every leaf, if they share one (a struct that can live in a buffer).
    pub fn elem(&self) -> Option<Scalar> {
        if self.split {
            return None;
        }
        let first = self.leaves.first()?.0;
        self.leaves.iter().all(|l| l.0 == first).then_some(first)
    }

    /// The layout of a struct whose definition was refused: no members.
    fn refused(name: &str) -> Layout {
        Layout {
            name: name.to_string(),
            def: None,
            members: Vec::new(),
            views: Vec::new(),
            retyped: false,
            split: false,
            init_view: None,
            statics: Vec::new(),
            objects: Vec::new(),
            leaves: Vec::new(),
            size: 0,
            align: 1,
            array: false,
        }
    }

    /// The scalar type of every leaf but the pointers, if they share one (a struct that can
    /// live in a local array, its pointers in registers beside it).
    fn data_elem(&self) -> Option<Scalar> {
        if self.split {
            return None;
        }
        let mut data = (0..self.leaves.len())
            .filter(|&k| self.pointer_leaf(k).is_none())
            .map(|k| self.leaves[k].0);
        let first = data.next()?;
        data.all(|s| s == first).then_some(first)
    }

    /// Whether this is the layout of a refused struct (a real one has a scalar leaf).
    fn is_refused(&self) -> bool {
        self.leaves.is_empty()
    }

    /// Components of `elem` per struct in memory.
    fn stride(&self, elem: Scalar) -> u32 {
        self.size / elem.size()
    }

    /// The component type and the components per struct of a buffer of this type (a struct
    /// holding pointers, which simt refuses in memory, is counted as its 8-byte leaves).
    pub(crate) fn buffer_shape(&self) -> (Scalar, u32) {
        if self.has_pointer() {
            return (Scalar::I64, self.size / 8);
        }
        if let Some(e) = self.elem() {
            return (e, self.stride(e));
        }
        if self.is_refused() {
            return (Scalar::F32, 1);
        }
        if self.of_words() {
            return (Scalar::U32, self.size / 4);
        }
        (Scalar::U8, self.size)
    }

    /// Whether every scalar this layout holds or views, at any depth, is a 4- or 8-byte
    /// integer at an offset its size divides (`union { unsigned long long u64; uint2 u32; }`,
    /// altis' GUPS word): then its memory is 32-bit words rather than bytes, so that atomics
    /// of either width apply to it, a 64-bit one to two words as on any 32-bit integer memory.
    fn of_words(&self) -> bool {
        fn word((s, at): (Scalar, u32)) -> bool {
            s.is_integer() && matches!(s.size(), 4 | 8) && at.is_multiple_of(s.size())
        }
        fn words(kind: &MemberKind, at: u32) -> bool {
            let (_, _, leaves) = kind.shape();
            let inner = match kind {
                MemberKind::Compound(l) => l.views.iter().all(|v| words(&v.kind, at + v.offset)),
                MemberKind::Scalar(_) => true,
                MemberKind::Pointer(_) => false,
            };
            inner && leaves.iter().all(|&(s, o)| word((s, at + o)))
        }
        self.split
            && !self.array
            && self.size.is_multiple_of(4)
            && self.leaves.iter().all(|&l| word(l))
            && self
                .members
                .iter()
                .chain(&self.views)
                .all(|m| words(&m.kind, m.offset))
    }

    pub(crate) fn member(&self, name: &str) -> Option<&Member> {
        self.members
            .iter()
            .chain(&self.views)
            .find(|m| m.name == name)
    }

    fn leaf_count(kind: &MemberKind) -> usize {
        match kind {
            MemberKind::Scalar(_) | MemberKind::Pointer(_) => 1,
            MemberKind::Compound(l) => l.leaves.len(),
        }
    }

    /// The pointer member whose leaf is leaf `k`, if it is one.
    pub(crate) fn pointer_leaf(&self, k: usize) -> Option<PointerMember> {
        // Members hold consecutive runs of leaves in order: the last that starts at or before
        // `k` (a binary search, as an array of 65536 elements has as many members).
        let at = self
            .members
            .partition_point(|m| m.first <= k)
            .checked_sub(1)?;
        let m = &self.members[at];
        if k >= m.first + Self::leaf_count(&m.kind) {
            return None;
        }
        match &m.kind {
            MemberKind::Pointer(p) => Some(p.clone()),
            MemberKind::Compound(sub) => sub.pointer_leaf(k - m.first),
            MemberKind::Scalar(_) => None,
        }
    }

    /// Whether any leaf (at any depth) is a pointer.
    pub(crate) fn has_pointer(&self) -> bool {
        self.members.iter().any(|m| match &m.kind {
            MemberKind::Pointer(_) => true,
            MemberKind::Compound(sub) => sub.has_pointer(),
            MemberKind::Scalar(_) => false,
        })
    }
}

/// `(leaf, variable)` of each pointer leaf of a struct value.
pub(crate) type PointerLeaves = Vec<(usize, VarId)>;

/// Where a struct value lives.
#[derive(Clone, Debug)]
pub(crate) enum Home {
    /// One variable per leaf.
    Regs(Vec<VarId>),
    /// In memory (a buffer, a shared, constant or local array): leaf `k` is component
    /// `at + offset(k) / size(elem)` of `mem` (`mem.width` is 1), save the pointer leaves of
    /// a local struct holding arrays, which are registers as a pointer variable is.
    Mem {
        /// The buffer, seen as scalars.
        mem: Mem,
        /// The component index of the struct's first byte.
        at: Expr,
        /// The pointer leaves (none in a buffer, a shared or constant array, where simt
        /// refuses a pointer member).
        pointers: PointerLeaves,
    },
}

/// A struct in a place: its type and where it lives.
#[derive(Clone, Debug)]
pub(crate) struct StructPlace {
    /// Its type.
    pub layout: Rc<Layout>,
    /// Where it is.
    pub home: Home,
}

impl StructPlace {
    /// `(leaf, variable)` of each pointer leaf.
    fn pointer_vars(&self) -> PointerLeaves {
        match &self.home {
            Home::Regs(vars) => (0..vars.len())
                .filter(|&k| self.layout.pointer_leaf(k).is_some())
                .map(|k| (k, vars[k]))
                .collect(),
            Home::Mem { pointers, .. } => pointers.clone(),
        }
    }
}

/// `n` members of one kind in a row: an array, or a vector (named `x`, `y`, ...).
fn repeated(name: String, kind: &MemberKind, n: u32, align: u32, names: bool) -> Layout {
    let (size, _, leaves) = kind.shape();
    let mut members = Vec::new();
    let mut all = Vec::new();
    for k in 0..n {
        members.push(Member {
            name: if names {
                super::vector::COMPONENTS[k as usize].to_string()
            } else {
                k.to_string()
            },
            first: all.len(),
            offset: k * size,
            kind: kind.clone(),
        });
        all.extend(leaves.iter().map(|&(s, o)| (s, o + k * size)));
    }
    let retyped = kind.retyped();
    Layout {
        name,
        def: None,
        members,
        views: Vec::new(),
        retyped,
        split: kind.split(),
        init_view: None,
        statics: Vec::new(),
        objects: Vec::new(),
        leaves: all,
        size: (size * n).next_multiple_of(align),
        align,
        array: !names,
    }
}

fn unsupported(what: String, span: Span, help: &str) -> CheckError {
    CheckError::Unsupported {
        what,
        span,
        help: Some(help.into()),
    }
}

impl<'g> KernelChecker<'g, '_> {
    /// The layout of a type that names a struct with data members; `None` for any other type.
    pub(crate) fn layout_of(&mut self, ty: &ast::TypeName) -> Option<Result<Rc<Layout>>> {
        if !matches!(ty.base, BaseType::Named | BaseType::Vector) {
            return None;
        }
        self.layout_named(&ty.base_text, ty.span)
    }

    /// `float3`, `int3`, `double4`…: CUDA's vectors of one or three components, or of more than
    /// 16 bytes, are structs of members (12 bytes for `float3`, aligned as one component; 16-byte
    /// aligned for `double4`), read one member at a time, which is what the hardware does.
    fn struct_vector(&mut self, name: &str) -> Option<Rc<Layout>> {
        let (s, n) = super::vector::cuda_vector(name)?;
        if !super::vector::is_struct_vector(s, n) {
            return None;
        }
        self.struct_vector_seen = true;
        if let Some(l) = self.layouts.get(name) {
            return Some(Rc::clone(l));
        }
        let align = if n == 3 {
            s.size()
        } else {
            (s.size() * n).min(16)
        };
        let l = Rc::new(repeated(
            name.to_string(),
            &MemberKind::Scalar(s),
            n,
            align,
            true,
        ));
        self.layouts.insert(name.to_string(), Rc::clone(&l));
        Some(l)
    }

    /// The alignment `__align__(16)` or `alignas(T)` asks for (1 where none is written).
    fn align_of(&mut self, align: &Option<ast::Align>, bindings: &Bindings) -> Result<u32> {
        Ok(match align {
            // `alignas(T)` of a type parameter reads as a name.
            Some(ast::Align::Bytes(ast::Expr {
                kind: ast::ExprKind::Name(n),
                ..
            })) if bindings.types.contains_key(n.as_str()) => {
                let ty = bindings.types[n.as_str()].clone();
                self.align_of(&Some(ast::Align::Type(ty)), bindings)?
            }
            Some(ast::Align::Bytes(a)) => {
                let mut a = a.clone();
                bindings.expr(&mut a);
                self.const_size(&a)? as u32
            }
            Some(ast::Align::Type(ty)) => {
                let mut ty = ty.clone();
                bindings.ty(&mut ty);
                if ty.pointer {
                    8
                } else {
                    self.member_kind(&ty)?.shape().1
                }
            }
            None => 1,
        })
    }

    /// Whether `ty` names a struct whose layout is being built: a pointer to it is a member of
    /// itself or of one of its members (`Node* next;`).
    fn layout_is_open(&mut self, ty: &ast::TypeName) -> bool {
        let key = layout_key(&canonical_targs(&ty.base_text));
        if self.layouts_open.contains(&key) {
            return true;
        }
        // `M<T>* next;` of `template <typename T, int K = 2> struct M`: kept as `M<float,2>`.
        match self.struct_def_of(&key, ty.span) {
            Some(Ok((def, bindings))) => {
                let full = with_defaults(key, &self.globals.structs[def], &bindings);
                self.layouts_open.contains(&full)
            }
            _ => false,
        }
    }

    /// The layout of the struct called `text` (`P`, `P<float>`), if it has data members.
    pub(crate) fn layout_named(&mut self, text: &str, span: Span) -> Option<Result<Rc<Layout>>> {
        // Only a class instance has arguments to spell one way.
        let canonical;
        let text = if text.contains('<') {
            canonical = canonical_targs(text);
            &canonical
        } else {
            text
        };
        let key = layout_key(text);
        if let Some(l) = self.struct_vector(&key) {
            return Some(Ok(l));
        }
        if let Some(l) = self.layouts.get(&key) {
            return Some(Ok(Rc::clone(l)));
        }
        let (def, mut bindings) = match self.struct_def_of(text, span)? {
            Ok(found) => found,
            Err(e) => return Some(Err(e)),
        };
        let d = &self.globals.structs[def];
        let key = with_defaults(key, d, &bindings);
        if let Some(l) = self.layouts.get(&key) {
            return Some(Ok(Rc::clone(l)));
        }
        if !d.template.is_empty() || !d.spec.is_empty() {
            // Inside a template or a specialisation, its own name stands for this instance
            // (`Pair` is `Pair<int>`).
            bindings
                .types
                .insert(d.name.name.clone(), ast::TypeName::named(key.clone(), span));
        }
        if !self.holds_data(def, &bindings, span) {
            return None;
        }
        if self.layouts_open.contains(&key) {
            return Some(Err(unsupported(
                format!("the struct `{key}` that contains itself"),
                span,
                "a struct cannot hold a member of its own type",
            )));
        }
        self.layouts_open.push(key.clone());
        let built = self.build_layout(&key, def, bindings, span);
        self.layouts_open.pop();
        // A struct simt cannot lay out is reported once; from then on it is a refused layout
        // that every use accepts silently (the kernel is refused already).
        let l = Rc::new(built.unwrap_or_else(|e| {
            self.errors.push(e);
            Layout::refused(&key)
        }));
        self.layouts.insert(key, Rc::clone(&l));
        Some(Ok(l))
    }

    fn build_layout(
        &mut self,
        name: &str,
        def: usize,
        bindings: Bindings,
        span: Span,
    ) -> Result<Layout> {
        let d = &self.globals.structs[def];
        if let Some((what, at)) = &d.unsupported {
            let help = if what.starts_with("the virtual") {
                "simt makes no virtual calls: make the function a plain member, or pick the \
                 implementation with a template parameter"
            } else if what.contains("simt derives a class template") {
                "write the class template's own parameters as its base's arguments (`: B<T>`), or \
                 copy the base's members into the class"
            } else if what.starts_with("the call of the base constructor") {
                "call a constructor the base declares, with one argument per parameter: simt \
                 picks a base constructor by its number of parameters"
            } else if what.starts_with("the base class") {
                "derive from a class this file defines, or copy the base's members into the class"
            } else if what.contains("hides the member") {
                "give the member a name of its own: C++ keeps both, and simt keeps one object's \
                 members by name"
            } else if what.contains("derived from itself") {
                "a class cannot be its own base: derive it from another class"
            } else {
                "declare plain members: simt lays a struct out as C does without bit-fields"
            };
            return Err(unsupported(format!("{what} (in `{name}`)"), *at, help));
        }
        let mut members = Vec::new();
        let mut views = Vec::new();
        let mut leaves = Vec::new();
        let mut statics = Vec::new();
        let mut objects = Vec::new();
        let mut offset = 0u32;
        let mut align = 1u32;
        // A union's members, each with its leaves, all at byte 0.
        let mut overlaid = Vec::new();
        // Static members are constants the later members (and the methods) may use.
        self.scopes.push(HashMap::new());
        let result = (|| {
            for f in &d.fields {
                let mut ty = f.ty.clone();
                bindings.ty(&mut ty);
                // `static const interval empty;` of a class type (the class itself, defined
                // out of the class, or a host `std::string`), declared without a value: no
                // constant of the layout.
                if f.is_static && declared_only(f) && self.names_class(&ty) {
                    continue;
                }
                if f.is_static {
                    let Some(init) = &f.init else {
                        return Err(unsupported(
                            format!("the static member `{}` without a value", f.name.name),
                            f.name.span,
                            "give it a value: `static constexpr int n = 4;`",
                        ));
                    };
                    let mut init = init.clone();
                    bindings.expr(&mut init);
                    // `static constexpr auto N = 4;`: the initialiser's type.
                    let value = match self.constant_expr(&init) {
                        Ok(value) => value,
                        // `: std::unary_function<A, R>` is read as a trait whose `value` the
                        // class has (syntax::inherit); a base the file does not define has none.
                        Err(_)
                            if ty.base == BaseType::Auto
                                && f.name.name == "value"
                                && matches!(&init.kind, ast::ExprKind::Name(n) if n.ends_with("::value")) =>
                        {
                            continue;
                        }
                        Err(e) => return Err(e),
                    };
                    let scalar = match ty.base {
                        BaseType::Auto if !ty.pointer => value.ty,
                        _ => super::scalar_of(&ty)?,
                    };
                    let ExprKind::Const(v) = self.convert(value, scalar).kind else {
                        return Err(CheckError::NotConstant {
                            what: format!("the static member `{}`", f.name.name),
                            span: init.span,
                            help: None,
                        });
                    };
                    self.declare(&f.name, Binding::Constant(v, scalar));
                    statics.push((f.name.name.clone(), v));
                    continue;
                }
                // `const int& size2_;` (torchaudio's Indexer2D): a pointer to what the
                // constructor binds it to, stored as the member `size2_&`.
                let reference = ty.reference;
                if reference {
                    let refuse = |what: &str| {
                        Err(unsupported(
                            format!("the reference member `{}` of `{name}` {what}", f.name.name),
                            f.name.span,
                            "hold a pointer instead (`T* p;`), or the value itself",
                        ))
                    };
                    if ty.pointer || f.pointer_to_pointer || !f.dims.is_empty() {
                        return refuse("to a pointer or an array");
                    }
                    if self.layout_of(&ty).is_some() {
                        return refuse("to a struct");
                    }
                    if f.init.is_some() {
                        return refuse("with a default member initialiser");
                    }
                    ty.pointer = true;
                    ty.reference = false;
                }
                // A function pointer member (`group_func_t<int> f;` of Mordred's `T (*)(T, T)`
                // alias) is a pointer simt holds but does not follow.
                ty.pointer |= self.is_function_pointer_type(&ty);
                if ty.pointer {
                    let mut member = self.pointer_member(&ty, f, name, d.is_union)?;
                    // An array of pointers (nvdiffrast's `const float* tex[TEX_MAX_MIP_LEVEL]`):
                    // an array member whose elements are pointer members.
                    let mut dims = Vec::new();
                    for dim in &f.dims {
                        dims.push(self.member_dim(dim.as_ref(), &f.name, &bindings)?);
                    }
                    for &n in dims.iter().rev() {
                        let el = match &member {
                            MemberKind::Compound(l) => l.name.clone(),
                            _ => format!("{}*", ty.base_text),
                        };
                        member = MemberKind::Compound(Rc::new(repeated(
                            format!("{el}[{n}]"),
                            &member,
                            n,
                            8,
                            false,
                        )));
                    }
                    let (size, al, sub) = member.shape();
                    let al = al.max(self.align_of(&f.align, &bindings)?);
                    align = align.max(al);
                    offset = offset.next_multiple_of(al);
                    let storage = if reference {
                        crate::syntax::reference_storage(&f.name.name)
                    } else {
                        f.name.name.clone()
                    };
                    members.push(Member {
                        name: storage,
                        first: leaves.len(),
                        offset,
                        kind: member,
                    });
                    leaves.extend(sub.into_iter().map(|(s, o)| (s, o + offset)));
                    offset += size;
                    continue;
                }
                if !d.is_union {
                    if let Some(o) = self.empty_field(f, &bindings, f.name.span) {
                        objects.push(ObjectMember {
                            name: f.name.name.clone(),
                            object: o,
                            before: members.len(),
                        });
                        offset += 1;
                        continue;
                    }
                }
                let mut kind = match self.anonymous_union(f) {
                    // Its members may use this struct's template parameters (`T elem[N];`).
                    Some(u) => MemberKind::Compound(Rc::new(self.build_layout(
                        &f.ty.base_text,
                        u,
                        bindings.clone(),
                        f.name.span,
                    )?)),
                    None => self.member_kind(&ty)?,
                };
                let mut dims = Vec::new();
                for dim in &f.dims {
                    dims.push(self.member_dim(dim.as_ref(), &f.name, &bindings)?);
                }
                for &n in dims.iter().rev() {
                    let (el_align, el_name) = match &kind {
                        MemberKind::Scalar(s) => (s.size(), s.c_name().to_string()),
                        MemberKind::Compound(l) => (l.align, l.name.clone()),
                        MemberKind::Pointer(_) => {
                            unreachable!("checker: pointer members are scalars")
                        }
                    };
                    kind = MemberKind::Compound(Rc::new(repeated(
                        format!("{el_name}[{n}]"),
                        &kind,
                        n,
                        el_align,
                        false,
                    )));
                }
                let (size, al, sub) = kind.shape();
                let al = al.max(self.align_of(&f.align, &bindings)?);
                align = align.max(al);
                if d.is_union {
                    let m = Member {
                        name: f.name.name.clone(),
                        first: 0,
                        offset: 0,
                        kind,
                    };
                    overlaid.push(Overlaid {
                        member: m,
                        leaves: sub,
                        size,
                    });
                    continue;
                }
                offset = offset.next_multiple_of(al);
                if let (true, MemberKind::Compound(u)) = (f.anonymous, &kind) {
                    // An anonymous union's members are this struct's, at the union's offset.
                    let shift = |m: &Member| Member {
                        name: m.name.clone(),
                        first: m.first + leaves.len(),
                        offset: m.offset + offset,
                        kind: m.kind.clone(),
                    };
                    members.extend(u.members.iter().map(shift));
                    views.extend(u.views.iter().map(shift));
                    leaves.extend(u.leaves.iter().map(|&(s, o)| (s, o + offset)));
                    offset += size;
                    continue;
                }
                members.push(Member {
                    name: f.name.name.clone(),
                    first: leaves.len(),
                    offset,
                    kind,
                });
                leaves.extend(sub.into_iter().map(|(s, o)| (s, o + offset)));
                offset += size;
            }
            align = align.max(self.align_of(&d.align, &bindings)?);
            Ok(())
        })();
        self.scopes.pop();
        result?;
        let (mut init_view, mut split) = (None, false);
        if d.is_union {
            (init_view, split) = union_storage(overlaid, &mut members, &mut views, &mut leaves);
            offset = members.first().map_or(0, |m| m.kind.shape().0);
            let anonymous: Vec<&str> = d
                .fields
                .iter()
                .filter(|f| f.anonymous)
                .map(|f| f.name.name.as_str())
                .collect();
            views.extend(anonymous_members(&anonymous, &members, &views));
        }
        split |= views.iter().chain(&members).any(|m| m.kind.split());
        let retyped = split
            || views.iter().chain(&members).any(|m| m.kind.retyped())
            || views.iter().any(|v| {
                v.kind
                    .shape()
                    .2
                    .iter()
                    .enumerate()
                    .any(|(k, (s, _))| leaves[v.first + k].0 != *s)
            });
        self.base_subobject(
            def,
            &bindings,
            &leaves,
            (offset.next_multiple_of(align), align),
            span,
        )?;
        // `__attribute__((packed))` changes nothing where no member needs padding; elsewhere
        // nvcc reads the members byte by byte, which simt does not model.
        let padded =
            || leaves.iter().map(|(s, _)| s.size()).sum::<u32>() != offset.next_multiple_of(align);
        if d.packed && padded() {
            return Err(unsupported(
                format!("the packed struct `{name}`, whose members need padding to be aligned"),
                span,
                "simt lays structs out aligned; order the members largest first so that none needs padding",
            ));
        }
        if leaves.is_empty() {
            return Err(unsupported(
                format!("the struct `{name}` without scalar members"),
                span,
                "give it at least one scalar member",
            ));
        }
        Ok(Layout {
            name: name.to_string(),
            def: Some((def, bindings)),
            members,
            views,
            retyped,
            split,
            init_view,
            statics,
            objects,
            leaves,
            size: offset.next_multiple_of(align),
            align,
            array: false,
        })
    }

    /// Checks that the members a class `def` inherits sit where C++ (the Itanium ABI, nvcc's and
    /// gcc's) puts its base subobject (at 0, or after the vtable pointer the class adds, at the
    /// base's alignment) and that its own members start after it: after its `sizeof` for a POD
    /// base, after its last member for another. The class is laid out with its base's members
    /// written into it ([`crate::syntax::ast::StructDef::base`]), which places them so unless a
    /// POD base has tail padding that a later member would fill, or the base an alignment of its
    /// own; those are refused rather than laid out differently from nvcc.
    fn base_subobject(
        &mut self,
        def: usize,
        bindings: &Bindings,
        leaves: &[(Scalar, u32)],
        (size, align): (u32, u32),
        span: Span,
    ) -> Result<()> {
        let d = &self.globals.structs[def];
        let Some(base) = d.base.clone() else {
            return Ok(());
        };
        let own_poly = !d.virtuals.is_empty();
        // `DevPtr<T>` of `PtrStep<float>`: the base's instance `DevPtr<float>`.
        let instance = format!("{}{}", base.name, bindings.substitute_text(&d.base_args));
        let Some(Ok(b)) = self.layout_named(&instance, span) else {
            return Ok(());
        };
        let added = usize::from(own_poly && !self.polymorphic(&b));
        let at = if added == 1 {
            8u32.next_multiple_of(b.align)
        } else {
            0
        };
        let inherited = b.leaves.len();
        let placed = b
            .leaves
            .iter()
            .zip(&leaves[added..])
            .all(|(&(_, o), &(_, p))| p == o + at);
        // Itanium places the members after a base that is not a POD (C++03's sense: it has
        // virtual members, constructors or a base) at the end of its data, where the
        // written-out members put them too; after a POD base, at its `sizeof`.
        let pod = b.def.as_ref().is_some_and(|(bd, _)| {
            let bd = &self.globals.structs[*bd];
            bd.virtuals.is_empty() && bd.ctors.is_empty() && bd.base.is_none()
        });
        let after = !pod
            || leaves
                .get(added + inherited)
                .is_none_or(|&(_, p)| p >= at + b.size);
        if placed && after && size >= at + b.size && align >= b.align {
            return Ok(());
        }
        Err(unsupported(
            format!(
                "deriving `{}` from `{}`, whose alignment or tail padding C++ keeps in the derived class,",
                d.name.name, base.name
            ),
            base.span,
            "copy the base's members into the class, or give the base no padding at its end (a member that fills it)",
        ))
    }

    /// One dimension of an array member, `[4]` or `[N]` of a template's `N`.
    fn member_dim(
        &mut self,
        dim: Option<&ast::Expr>,
        name: &ast::Ident,
        bindings: &Bindings,
    ) -> Result<u32> {
        let Some(e) = dim else {
            return Err(CheckError::NotConstant {
                what: format!("the size of the member `{}`", name.name),
                span: name.span,
                help: Some("give the size, e.g. `[4]`".into()),
            });
        };
        let mut e = e.clone();
        bindings.expr(&mut e);
        Ok(self.const_size(&e)? as u32)
    }

    /// The definition of the anonymous union a member stands for.
    fn anonymous_union(&self, f: &ast::Field) -> Option<usize> {
        if !f.anonymous {
            return None;
        }
        self.globals
            .structs
            .iter()
            .position(|s| s.name.name == f.ty.base_text)
    }

    /// Whether `ty` names a function pointer type: `void (*)(int)`, or a `typedef`, `using` or
    /// alias template of one (`fn_t`, `group_func_t<int>`).
    fn is_function_pointer_type(&self, ty: &ast::TypeName) -> bool {
        self.names_function_pointer(&ty.base_text)
    }

    /// [`Self::is_function_pointer_type`] of a type as written.
    fn names_function_pointer(&self, text: &str) -> bool {
        let name = text.split('<').next().unwrap_or_default().trim();
        text.contains("(*)") || self.globals.fn_pointer_types.contains(name)
    }

    /// A pointer member `T* name;`: a pointer to a scalar or a vector, outside any union and
    /// not in an array.
    fn pointer_member(
        &mut self,
        ty: &ast::TypeName,
        f: &ast::Field,
        name: &str,
        in_union: bool,
    ) -> Result<MemberKind> {
        let member = &f.name.name;
        let refuse = |what: String, help: &str| Err(unsupported(what, f.name.span, help));
        if in_union {
            return refuse(
                format!("the pointer member `{member}` inside the union `{name}`"),
                "keep the pointer in a struct beside the union",
            );
        }
        let opaque = |what: String| {
            Ok(MemberKind::Pointer(PointerMember {
                pointee: (Scalar::U8, 1),
                is_const: ty.is_const,
                target: Target::Opaque(what),
            }))
        };
        if self.is_function_pointer_type(ty) {
            return opaque(ty.base_text.clone());
        }
        if f.pointer_to_pointer && ty.base == BaseType::Void {
            return opaque("void*".into());
        }
        if f.pointer_to_pointer {
            return Ok(MemberKind::Pointer(PointerMember {
                pointee: (Scalar::U64, 1),
                is_const: false,
                target: Target::Slots(ty.clone()),
            }));
        }
        if ty.base == BaseType::Void {
            return opaque("void".into());
        }
        // A pointer to the struct being laid out (a list's `Node* next;`): a struct that holds
        // a pointer, held and not followed.
        if self.layout_is_open(ty) {
            return opaque(ty.base_text.clone());
        }
        if let Some(l) = self.layout_of(ty) {
            let l = l?;
            if l.has_pointer() {
                return opaque(l.name.clone());
            }
            return Ok(MemberKind::Pointer(PointerMember {
                pointee: self.buffer_of(&l, f.name.span),
                is_const: ty.is_const,
                target: Target::Struct(l),
            }));
        }
        if ty.base == BaseType::Named {
            // `Impl* impl_;` of a class only declared (`class Impl;`, the pimpl idiom): held,
            // never followed.
            return opaque(ty.base_text.clone());
        }
        Ok(MemberKind::Pointer(PointerMember {
            pointee: super::vector::elem_of(ty)?,
            is_const: ty.is_const,
            target: Target::Data,
        }))
    }

    /// A member's type: a scalar, a vector, or a struct.
    pub(crate) fn member_kind(&mut self, ty: &ast::TypeName) -> Result<MemberKind> {
        match ty.base {
            BaseType::Vector => {
                let Some((s, n)) = super::vector::cuda_vector(&ty.base_text) else {
                    return Err(unsupported(
                        format!("a `{}` member", ty.base_text),
                        ty.span,
                        "use one of CUDA's vector types, char1 … double4",
                    ));
                };
                let align = if n == 3 {
                    s.size()
                } else {
                    (s.size() * n).min(16)
                };
                Ok(MemberKind::Compound(Rc::new(repeated(
                    ty.base_text.clone(),
                    &MemberKind::Scalar(s),
                    n,
                    align,
                    true,
                ))))
            }
            BaseType::Named => match self.layout_of(ty) {
                Some(l) => Ok(MemberKind::Compound(l?)),
                None => Err(super::unknown_type(ty)),
            },
            _ => Ok(MemberKind::Scalar(super::scalar_of(ty)?)),
        }
    }

    /// `(elem, stride)` of a struct that lives in memory: its one leaf type, or, where its leaves
    /// differ in type (`struct { half d; uint8_t qs[16]; }`), its bytes (`unsigned char`, one
    /// component per byte), each leaf then read at its own byte offset as its own type.
    pub(crate) fn buffer_of(&mut self, l: &Layout, span: Span) -> (Scalar, u32) {
        if l.has_pointer() {
            self.errors.push(unsupported(
                format!("a buffer or array of struct `{}`, which holds a pointer", l.name),
                span,
                "simt follows a pointer member in a struct value (a local, a parameter), not in memory; pass the buffer it points to as a parameter of its own",
            ));
        }
        l.buffer_shape()
    }

    /// The components one struct spans where `e` is a pointer to a struct. A struct pointer's
    /// offset counts components (not structs), so that it may point wherever C's alignment
    /// lets it, as `(Det*)(floats + 1)` of a struct of floats does: `p + k` and `p[k]` step
    /// `k` times this many.
    pub(crate) fn struct_stride(&mut self, e: &ast::Expr) -> Option<u32> {
        self.struct_pointee(e).map(|l| l.buffer_shape().1)
    }

    /// A new struct in registers, one fresh variable per leaf, named `name.member`.
    pub(crate) fn new_struct(&mut self, name: &str, l: &Rc<Layout>, span: Span) -> StructPlace {
        self.new_struct_at(name, l, span, false)
    }

    /// A new struct, in registers unless it must be a one-element local array: `addressed`
    /// where the kernel takes its address (`((uint4*)&a)[0] = ...`, as exllamav2 copies a
    /// `half8`).
    fn new_struct_at(
        &mut self,
        name: &str,
        l: &Rc<Layout>,
        span: Span,
        addressed: bool,
    ) -> StructPlace {
        // A struct holding an array is a one-element local array, so that the array may be
        // indexed at run time; it stays in registers where every index is known (as the
        // compiler keeps it after unrolling), else it is local memory. Its pointer members
        // (ArrayFire's `Param<T> { T *ptr; dim_t dims[4]; dim_t strides[4]; }`) are registers
        // beside it, as a pointer variable is: which buffer one points into is known where it
        // is given its value, and local memory would hold only the offset.
        // A union read as another type than it was written is one too: a load reinterprets
        // the bytes. So is a struct whose address is taken, which a pointer may view as
        // another type.
        let in_memory = has_array(l) || l.retyped || addressed;
        if l.has_pointer() && l.retyped {
            self.errors.push(unsupported(
                format!(
                    "a union read as another type in the struct `{}`, which holds a pointer,",
                    l.name
                ),
                span,
                "keep the union in a struct of its own, beside the pointer",
            ));
        }
        if in_memory && !l.is_refused() {
            // Its bytes where its data leaves differ in type, as in a buffer.
            let elem = l.data_elem().unwrap_or(Scalar::U8);
            self.local_arrays.push(LocalArray::new(
                name.to_string(),
                (elem, l.stride(elem)),
                vec![1],
                span,
            ));
            let a = self.local_arrays.len() as u32 - 1;
            let mem = Mem {
                width: 1,
                ..self.local_array_mem(a)
            };
            let mut pointers = Vec::new();
            for k in 0..l.leaves.len() {
                if let Some(pm) = l.pointer_leaf(k) {
                    let leaf = format!("{name}.{}", leaf_name(l, k));
                    pointers.push((k, self.leaf_pointer(leaf, pm, span)));
                }
            }
            return StructPlace {
                layout: Rc::clone(l),
                home: Home::Mem {
                    mem,
                    at: constant(Value::I64(0), span),
                    pointers,
                },
            };
        }
        let mut vars = Vec::new();
        for (k, &(s, _)) in l.leaves.iter().enumerate() {
            let leaf = format!("{name}.{}", leaf_name(l, k));
            vars.push(match l.pointer_leaf(k) {
                Some(pm) => self.leaf_pointer(leaf, pm, span),
                None => self.new_local(&leaf, s, span),
            });
        }
        StructPlace {
            layout: Rc::clone(l),
            home: Home::Regs(vars),
        }
    }

    /// The variable of a pointer leaf: a pointer variable's offset, which the leaf's pointer
    /// variable keeps the array of.
    fn leaf_pointer(&mut self, name: String, pm: PointerMember, span: Span) -> VarId {
        let ident = ast::Ident { name, span };
        let i = self.new_pointer(&ident, pm.pointee, pm.is_const);
        self.ptr_vars[i as usize].in_struct = true;
        match pm.target {
            Target::Data => {}
            Target::Struct(l) => {
                self.struct_ptrs.insert(i, l);
            }
            Target::Opaque(what) => self.ptr_vars[i as usize].opaque = Some(what),
            Target::Slots(ty) => {
                self.slot_ptrs.insert(i, ty);
            }
        }
        let var = self.ptr_vars[i as usize].var;
        self.leaf_pointers.insert(var, i);
        var
    }

    /// The value of a pointer member given as `item`: the offset held in a fresh pointer
    /// variable (computed into `out`), which [`Self::writes`] takes the array from.
    fn pointer_leaf_value(
        &mut self,
        item: &ast::Expr,
        pm: PointerMember,
        member: &str,
        out: &mut Vec<Stmt>,
    ) -> Result<Expr> {
        let value = self.pointer(item)?;
        let var = self.leaf_pointer(member.to_string(), pm, item.span);
        out.push(self.point(self.leaf_pointers[&var], value, item.span)?);
        Ok(Expr {
            kind: ExprKind::Var(var),
            ty: Scalar::I64,
            span: item.span,
        })
    }

    pub(crate) fn bind_struct(&mut self, p: StructPlace) -> Binding {
        self.struct_vars.push(p);
        Binding::Struct(self.struct_vars.len() as u32 - 1)
    }

    // ------------------------------------------------------------------ types of expressions

    /// Whether `e` is an lvalue a range-based `for` binds by reference (C++'s `auto&&
    /// __range`): a name, `*p`, a call of a function of the file that returns a reference
    /// (`pick(r)` of `T& pick(T& a)`), or a member or element of one (`make(2.0f).a` is a
    /// temporary's member: copied).
    pub(crate) fn range_lvalue(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ast::ExprKind::Member { base, .. } | ast::ExprKind::Index { base, .. } => {
                self.range_lvalue(base)
            }
            ast::ExprKind::Name(_)
            | ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                ..
            } => true,
            ast::ExprKind::Call { callee, .. } => {
                let name = super::groups::unqualified(&callee.name);
                self.globals
                    .functions
                    .get(name)
                    .is_some_and(|f| f.ret.reference)
            }
            _ => false,
        }
    }

    /// Whether a struct of layout `l` has a `begin()` that returns a pointer (a `std::array`-like
    /// class), which a range-based `for` walks with the pointer's own `*` and `++`.
    pub(crate) fn begins_with_pointer(&self, l: &Layout) -> bool {
        l.def.as_ref().is_some_and(|(def, _)| {
            self.globals.structs[*def]
                .methods
                .iter()
                .any(|m| m.name.name == "begin" && m.params.is_empty() && m.ret.pointer)
        })
    }

    /// The struct type of an expression, decided from names and forms without typing it.
    pub(crate) fn struct_of(&mut self, e: &ast::Expr) -> Option<Rc<Layout>> {
        let makes_struct_vector = matches!(&e.kind, ast::ExprKind::Call { callee, .. }
            if callee.name == "dim3" || callee.name.strip_prefix("make_").is_some_and(|v| super::vector::cuda_vector(v).is_some_and(|(s, n)| super::vector::is_struct_vector(s, n))));
        if !self.globals.data_structs && !self.struct_vector_seen && !makes_struct_vector {
            return None;
        }
        crate::stack::grow(|| self.struct_of_at(e))
    }

    fn struct_of_at(&mut self, e: &ast::Expr) -> Option<Rc<Layout>> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Struct(i) => Some(Rc::clone(&self.struct_vars[i as usize].layout)),
                Binding::Shared(s) if self.shared[s as usize].is_scalar() => {
                    self.struct_spaces.get(&Space::Shared(s)).cloned()
                }
                Binding::Param(p) if self.file_scalar(p).is_some() => {
                    self.struct_spaces.get(&Space::Global(p)).cloned()
                }
                _ => None,
            },
            ast::ExprKind::Member { base, field } => {
                let l = self.struct_of(base)?;
                match &l.member(&field.name)?.kind {
                    MemberKind::Compound(sub) => Some(Rc::clone(sub)),
                    MemberKind::Scalar(_) | MemberKind::Pointer(_) => None,
                }
            }
            ast::ExprKind::Index { base, index } => {
                // `ps[i]` of `P ps[2][3]` is a row; `ps[i][j]` a struct.
                if self.row_of(e).is_some() {
                    return None;
                }
                if self.row_of(base).is_some() {
                    return self.struct_pointee(super::pointer::index_chain(e).0);
                }
                if let Some(l) = self.struct_of(base) {
                    if !l.array {
                        let index = std::slice::from_ref(index.as_ref());
                        return self.operator_ret(&l, "operator[]", index);
                    }
                    return match &l.members.first()?.kind {
                        MemberKind::Compound(sub) => Some(Rc::clone(sub)),
                        MemberKind::Scalar(_) | MemberKind::Pointer(_) => None,
                    };
                }
                self.struct_pointee(base)
            }
            ast::ExprKind::Unary {
                op: UnOp::Deref,
                operand,
            } => {
                if let ast::ExprKind::Name(n) = &operand.kind {
                    if n == "this" {
                        return self.struct_of(operand);
                    }
                }
                self.struct_pointee(operand)
            }
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                let found = self.adl(callee, args);
                let callee = found.as_ref().unwrap_or(callee);
                let name = super::groups::unqualified(&callee.name);
                // `op(a, b)` of a function object without data (faiss's `Min<Pair<K, V>>`
                // passed to warpReduceAll): its `operator()`'s struct result.
                let functor = ast::Expr {
                    kind: ast::ExprKind::Name(callee.name.clone()),
                    span: callee.span,
                };
                if targs.is_empty() {
                    if let Some(Ok(o)) = self.object_of(&functor) {
                        let f = self.member_fn_for(&o, "operator()", args)?;
                        return self.returned_layout(&f, &[], args, e.span);
                    }
                    // `op(a, b)` of a lambda variable.
                    if let Some(Binding::Lambda(i)) = self.lookup(&callee.name) {
                        let f = self.lambdas[i as usize].0.clone();
                        return self.returned_layout(&f, &[], args, e.span);
                    }
                    // `buf(y, x)` of a struct with data (badslam's `CUDABuffer_<uchar3>`).
                    if let Some((_, _, f)) = self.call_operator(callee, args) {
                        return self.returned_layout(&f?, &[], args, e.span);
                    }
                }
                if let Ok(Some(f)) = self.user_constructor(name, args) {
                    return self.returned_layout(f, targs, args, e.span);
                }
                // `Limits<P>::getMax()`: a static member function's struct result (before the
                // constructors, which would read `Limits<P>::getMax` as a type).
                if let Some(m) = self.static_member_fn(&callee.name, callee.span, args) {
                    // An `auto` one's body is read as its class reads it.
                    return self
                        .with_statics(&m, |s, f| Ok(s.returned_layout(f, targs, args, e.span)))
                        .ok()
                        .flatten();
                }
                if let Some(Ok(l)) = self.constructed(callee, targs) {
                    return Some(l);
                }
                if name == "reduce" && args.len() == 3 {
                    return self.struct_of(&args[1]);
                }
                // The overload these arguments call (helper_math.h's `clamp(float, ...)` returns
                // a scalar, its `clamp(float3, ...)` a struct).
                let f = match self.file_callee(name, &[], args) {
                    Ok(f) => f?,
                    // An ambiguous call, reported where it is made.
                    Err(_) => *self.globals.functions.get(name)?,
                };
                self.returned_layout(f, targs, args, e.span)
            }
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
            } => {
                if let Some(l) = self.cub_record_type(object, &method.name) {
                    return Some(l);
                }
                // `op.identity()` or `Min<P>().identity()` of an object without data (faiss's
                // `Min<Pair<K, V>>`).
                if matches!(
                    object.kind,
                    ast::ExprKind::Name(_) | ast::ExprKind::Call { .. }
                ) {
                    if let Some(Ok(o)) = self.object_of(object) {
                        let f = self.member_fn(&o, &method.name)?;
                        return self.returned_layout(&f, &[], &[], e.span);
                    }
                }
                let l = self.struct_of(object)?;
                let f = self.member_overload(&l, &method.name, (targs, args))?;
                // The overload the object's constness picks (`c.get()` of a `const` object).
                let f = self.for_object(object, &l, f);
                // A member template's return type is its instance's (`c.get<E>()`).
                self.returned_layout(&f, targs, args, e.span)
            }
            ast::ExprKind::Binary { op, lhs, rhs, .. } => {
                if !self.globals.operators {
                    return None;
                }
                let name = format!("operator{}", op.symbol());
                let left = self.struct_of(lhs);
                let right = self.struct_of(rhs);
                if let Some(l) = &left {
                    if !self.member_operator_loses(&name, (lhs, l), (rhs, &right), e.span) {
                        if let Some(r) =
                            self.operator_ret(l, &name, std::slice::from_ref(rhs.as_ref()))
                        {
                            return Some(r);
                        }
                    }
                }
                if left.is_none() && right.is_none() {
                    return None;
                }
                // Where no overload is best, the first one's type stands in until the call
                // reports which fit.
                let f = match self.free_operator(&name, &[(lhs, left), (rhs, right)]) {
                    Choice::One(f) => f,
                    Choice::Unresolved { candidates, .. } => candidates[0],
                    Choice::Undeclared => return None,
                };
                let args = [lhs.as_ref().clone(), rhs.as_ref().clone()];
                self.returned_layout(f, &[], &args, e.span)
            }
            ast::ExprKind::Ternary { then, els, .. } => {
                self.struct_of(then).or_else(|| self.struct_of(els))
            }
            ast::ExprKind::Unary { op, operand } => {
                let name = format!("operator{}", unary_symbol(*op)?);
                if !self.globals.operators {
                    return None;
                }
                let l = self.struct_of(operand)?;
                if let Some(r) = self.operator_ret(&l, &name, &[]) {
                    return Some(r);
                }
                let Choice::One(f) = self.free_operator(&name, &[(operand, Some(l))]) else {
                    return None;
                };
                self.returned_layout(f, &[], std::slice::from_ref(operand.as_ref()), e.span)
            }
            _ => None,
        }
    }

    /// The struct a pointer-valued expression points to, if it points to one.
    pub(crate) fn struct_pointee(&mut self, e: &ast::Expr) -> Option<Rc<Layout>> {
        if !self.globals.data_structs && !self.struct_vector_seen {
            return None;
        }
        crate::stack::grow(|| self.struct_pointee_at(e))
    }

    fn struct_pointee_at(&mut self, e: &ast::Expr) -> Option<Rc<Layout>> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Struct(i) if n == "this" => {
                    Some(Rc::clone(&self.struct_vars[i as usize].layout))
                }
                Binding::Param(p) => self.struct_spaces.get(&Space::Global(p)).cloned(),
                Binding::Shared(s) => self.struct_spaces.get(&Space::Shared(s)).cloned(),
                Binding::LocalArray(a) => self.struct_spaces.get(&Space::Local(a)).cloned(),
                Binding::Pointer(i) => self.struct_ptrs.get(&i).cloned(),
                // `SharedMemory<P> s;`: what its `operator P*()` points to.
                Binding::Object(i) => {
                    let o = self.objects[i as usize].clone();
                    let f = self.member_fn(&o, "operator")?;
                    self.layout_of(&f.ret)?.ok()
                }
                _ => None,
            },
            ast::ExprKind::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
                ..
            } => {
                if self.is_pointer(lhs) {
                    self.struct_pointee(lhs)
                } else {
                    self.struct_pointee(rhs)
                }
            }
            ast::ExprKind::IncDec { target, .. } => self.struct_pointee(target),
            ast::ExprKind::Member { .. } => match self.member_pointer(e) {
                Some(i) => self.struct_ptrs.get(&i).cloned(),
                // `s.v` of an array member `uint2 v[2]` in memory: `&s.v[0]`.
                None => {
                    let decayed = self.decayed_member(e)?;
                    self.struct_pointee(&decayed)
                }
            },
            ast::ExprKind::Ternary { then, .. } => self.struct_pointee(then),
            ast::ExprKind::Cast { ty, .. } if ty.pointer => self.layout_of(ty)?.ok(),
            // `&m[i].b` of a `float4` member is a vector pointer.
            ast::ExprKind::Unary {
                op: UnOp::AddrOf,
                operand,
            } if self.vector_member_in_memory(operand) => None,
            ast::ExprKind::Unary {
                op: UnOp::AddrOf,
                operand,
            } => self.struct_of(operand),
            // `d_list[i]`, `*world`: a pointer stored in memory, of its array's type.
            ast::ExprKind::Index { .. } | ast::ExprKind::Unary { .. } => {
                let ty = self.slot_type(e)?;
                self.layout_of(&ast::TypeName {
                    pointer: false,
                    ..ty
                })?
                .ok()
            }
            ast::ExprKind::New {
                ty, count: None, ..
            } if !ty.pointer => self.layout_of(ty)?.ok(),
            // `at(t, i)->index` of a `__device__ M* at(...)` (torch-quiver's `GetMutable`).
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                let name = super::groups::unqualified(&callee.name);
                let f = self.file_callee(name, &[], args).ok()??;
                self.returned_named(f, (targs, args), e.span, true)
            }
            // `table.Get(i)->idx` of a member `__device__ KV* Get(int)` (graphlearn's hash
            // table).
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
            } => {
                let l = self.struct_of(object)?;
                let f = self.member_overload(&l, &method.name, (targs, args))?;
                let f = self.for_object(object, &l, f);
                self.returned_named(&f, (targs, args), e.span, true)
            }
            _ => None,
        }
    }

    /// The struct a call of `f` returns (`pointer`: returns a pointer to), as its instance for
    /// these arguments names it; only a named or vector type may be one.
    fn returned_named(
        &mut self,
        f: &ast::Function,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        pointer: bool,
    ) -> Option<Rc<Layout>> {
        if f.ret.pointer != pointer || !matches!(f.ret.base, BaseType::Named | BaseType::Vector) {
            return None;
        }
        let mut ret = self.instance_ret(f, targs, args, span)?;
        if pointer {
            ret.pointer = false;
        }
        self.layout_of(&ret)?.ok()
    }

    /// The struct `P(...)`, `P{...}` or `P<float>(...)` builds, if `callee` names one.
    fn constructed(
        &mut self,
        callee: &ast::Ident,
        targs: &[ast::TemplateArg],
    ) -> Option<Result<Rc<Layout>>> {
        if targs.is_empty() {
            // `make_float3(x, y, z)` builds a `float3`.
            if let Some(l) = callee
                .name
                .strip_prefix("make_")
                .filter(|&v| v != "dim3")
                .and_then(|v| self.struct_vector(v))
            {
                return Some(Ok(l));
            }
            return self.layout_named(&callee.name, callee.span);
        }
        let text = format!("{}<{}>", callee.name, self.targs_text(targs)?);
        self.layout_named(&text, callee.span)
    }

    /// The struct type a call of `f` returns (a template's instance for these arguments).
    fn returned_layout(
        &mut self,
        f: &ast::Function,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Rc<Layout>> {
        if f.ret.base == BaseType::Auto && !f.ret.pointer && f.ret_decltype.is_none() {
            return self.auto_returned_layout(f, args, span);
        }
        self.returned_named(f, (targs, args), span, false)
    }

    /// The return type of a call of `f`: a template's instance's for these arguments.
    fn instance_ret(
        &mut self,
        f: &ast::Function,
        targs: &[ast::TemplateArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Option<ast::TypeName> {
        if f.template.is_empty() {
            return Some(f.ret.clone());
        }
        Some(self.function_instance(f, targs, args, span).ok()?.ret)
    }

    /// The struct an `auto` function returns (`[](auto const& a, auto const& b) { return a +
    /// b; }` of two structs): the type of its first `return`'s value, its struct parameters
    /// bound to the arguments' types; `None` where that value names anything else.
    fn auto_returned_layout(
        &mut self,
        f: &ast::Function,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Rc<Layout>> {
        // A recursive `auto` function is typed by no call of itself.
        if self.auto_typing.contains(&f.span) {
            return None;
        }
        let mut value = first_return(&f.body)?;
        // `P r = a + b; return r;`: the declared type of a local it returns; `auto r = a + b;`
        // its initialiser's.
        if let ast::ExprKind::Name(n) = &value.kind {
            if !f.params.iter().any(|p| p.name.name == *n) {
                let (ty, init) = declared(&f.body, n)?;
                if ty.base != BaseType::Auto {
                    return self.layout_of(ty)?.ok();
                }
                value = init?;
            }
        }
        let mut params = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            if let Some(l) = self.struct_of(a) {
                params.push((p.name.clone(), l));
            }
        }
        let saved = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
        for (name, l) in params {
            let fresh = self.new_struct(&name.name, &l, span);
            let b = self.bind_struct(fresh);
            self.declare(&name, b);
        }
        self.auto_typing.push(f.span);
        let l = self.struct_of(value);
        self.auto_typing.pop();
        self.scopes = saved;
        l
    }

    /// The struct type the member operator of `l` that a call with `args` calls returns.
    fn operator_ret(&mut self, l: &Layout, name: &str, args: &[ast::Expr]) -> Option<Rc<Layout>> {
        let f = self.operator_for(l, name, args)?;
        if f.ret.pointer {
            return None;
        }
        self.layout_of(&f.ret)?.ok()
    }

    /// The member function `name` of a struct type, with its template arguments applied.
    pub(crate) fn method(
        &self,
        l: &Layout,
        name: &str,
        arity: Option<usize>,
    ) -> Option<ast::Function> {
        let (def, bindings) = l.def.as_ref()?;
        let m = self.globals.structs[*def]
            .methods
            .iter()
            .find(|m| m.name.name == name && arity.is_none_or(|n| m.params.len() == n))?;
        Some(bindings.member(m))
    }

    /// The member functions of `l` that `keep` accepts, with its template arguments applied;
    /// `None` for a layout of no struct definition.
    pub(crate) fn methods_where(
        &self,
        l: &Layout,
        keep: impl Fn(&ast::Function) -> bool,
    ) -> Option<Vec<ast::Function>> {
        let (def, bindings) = l.def.as_ref()?;
        Some(self.methods_of(*def, bindings, keep))
    }

    /// The member functions of struct definition `def` that `keep` accepts, with `bindings`
    /// (its template arguments) applied.
    pub(crate) fn methods_of(
        &self,
        def: usize,
        bindings: &Bindings,
        keep: impl Fn(&ast::Function) -> bool,
    ) -> Vec<ast::Function> {
        self.globals.structs[def]
            .methods
            .iter()
            .filter(|m| keep(m))
            .map(|m| bindings.member(m))
            .collect()
    }

    /// The member function `name` of `l` a call with `args` calls ([`Self::best_member`]).
    pub(crate) fn member_overload(
        &mut self,
        l: &Layout,
        name: &str,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
    ) -> Option<ast::Function> {
        // Of member templates, those the explicit arguments can bind (`c.env<E>()` beside
        // `template <unsigned B, int S> X<B, S> env()`).
        let candidates = self.methods_where(l, |m| {
            m.name.name == name && super::operators::bindable(m, targs)
        })?;
        self.best_member(candidates, args)
    }

    /// The member operator `name` of `l` for `args`: the best of its overloads of that many
    /// parameters by C++'s ranking (`operator+=(float)` for `s += 1.0f` beside
    /// `operator+=(int)`, `operator+=(const S&)` for `s += t`).
    pub(crate) fn operator_for(
        &mut self,
        l: &Layout,
        name: &str,
        args: &[ast::Expr],
    ) -> Option<ast::Function> {
        let candidates =
            self.methods_where(l, |m| m.name.name == name && m.params.len() == args.len())?;
        self.best_member(candidates, args)
    }

    // ------------------------------------------------------------------ places and values

    /// The place a struct-typed expression names (a variable, an element, a member), or `None`
    /// for a value that is made (a call, an initialiser list).
    pub(crate) fn struct_place(&mut self, e: &ast::Expr) -> Option<Result<StructPlace>> {
        crate::stack::grow(|| self.struct_place_at(e))
    }

    fn struct_place_at(&mut self, e: &ast::Expr) -> Option<Result<StructPlace>> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Struct(i) => Some(Ok(self.struct_vars[i as usize].clone())),
                Binding::Shared(s) if self.shared[s as usize].is_scalar() => {
                    let layout = self.struct_spaces.get(&Space::Shared(s)).cloned()?;
                    let mem = self.shared_mem(s);
                    Some(Ok(scalar_place(layout, mem, e.span)))
                }
                // `__constant__ P c;`: the one struct of its buffer.
                Binding::Param(p) => {
                    let mem = self.file_scalar(p)?;
                    let layout = self.struct_spaces.get(&Space::Global(p)).cloned()?;
                    Some(Ok(scalar_place(layout, mem, e.span)))
                }
                _ => None,
            },
            ast::ExprKind::Member { base, field } => {
                let outer = match self.struct_place(base)? {
                    Ok(p) => p,
                    Err(err) => return Some(Err(err)),
                };
                let m = outer.layout.member(&field.name)?;
                let MemberKind::Compound(sub) = &m.kind else {
                    return None;
                };
                let (sub, first, offset) = (Rc::clone(sub), m.first, m.offset);
                Some(Ok(self.sub_place(&outer, sub, first, offset, e.span)))
            }
            ast::ExprKind::Index { base, index } => {
                if self.row_of(e).is_some() {
                    return None;
                }
                if self.row_of(base).is_some() {
                    self.struct_pointee(super::pointer::index_chain(e).0)?;
                    return Some(self.memory_place(e));
                }
                if let Some(outer) = self.struct_of(base) {
                    if !outer.array {
                        let index = std::slice::from_ref(index.as_ref());
                        let f = self.operator_for(&outer, "operator[]", index)?;
                        let f = self.for_object(base, &outer, f);
                        return self.returned_struct(base, &outer, &f, index, e.span);
                    }
                    let MemberKind::Compound(sub) = &outer.members[0].kind else {
                        return None;
                    };
                    let sub = Rc::clone(sub);
                    return Some(self.array_element_place(base, index, sub, e.span));
                }
                self.struct_pointee(base)?;
                Some(self.memory_place(e))
            }
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
            } => {
                let outer = self.struct_of(object)?;
                let f = self.member_overload(&outer, &method.name, (targs, args))?;
                let f = self.for_object(object, &outer, f);
                self.returned_struct(object, &outer, &f, args, e.span)
            }
            // `buf(y, x)` of a struct's call operator returning a reference to a struct
            // (badslam's `CUDABuffer_<uchar3>::operator()`).
            ast::ExprKind::Call { callee, args, .. } => {
                let (object, outer, f) = self.call_operator(callee, args)?;
                self.returned_struct(&object, &outer, &f?, args, e.span)
            }
            ast::ExprKind::Unary {
                op: UnOp::Deref,
                operand,
            } => {
                if let ast::ExprKind::Name(n) = &operand.kind {
                    if n == "this" {
                        return self.struct_place(operand);
                    }
                }
                self.struct_pointee(operand)?;
                Some(self.memory_place(e))
            }
            _ => None,
        }
    }

    /// `&s` of the struct variable `s` (binding `i`): a pointer to it, of its struct's pointer
    /// type. A struct whose address is taken lives in memory (a one-element local array, as
    /// [`Self::new_struct_at`] makes it, or the element a reference names); one kept in
    /// registers has none.
    pub(crate) fn struct_address(
        &mut self,
        i: u32,
        name: &str,
        span: Span,
    ) -> Result<super::pointer::Ptr> {
        let place = self.struct_vars[i as usize].clone();
        if place.layout.has_pointer() {
            return Err(unsupported(
                format!("the address of the struct `{name}`, which holds a pointer,"),
                span,
                "simt keeps a struct's pointer members in registers, so the struct has no address; pass the struct itself (by value or by reference)",
            ));
        }
        if let (Home::Regs(_), "this") = (&place.home, name) {
            return Err(unsupported(
                "`this` as a pointer, of an object simt keeps in registers,".into(),
                span,
                "call the function on an object in memory (an element of an array), or use the members themselves",
            ));
        }
        if let Home::Regs(_) = place.home {
            return Err(CheckError::Unsupported {
                what: format!("the address of the struct `{name}`"),
                span,
                help: Some(
                    "simt keeps a struct parameter passed by value in registers, one variable \
                     per member, so it has no address; copy it into a local (`S c = s;`) and \
                     take the local's address, or take the address of a member (`&s.x`)"
                        .into(),
                ),
            });
        }
        Ok(self.place_address(place, span))
    }

    /// A pointer to a struct in memory, of its struct's pointer type.
    pub(crate) fn place_address(&mut self, place: StructPlace, span: Span) -> super::pointer::Ptr {
        let Home::Mem { mem, at, .. } = place.home else {
            unreachable!("checked: a struct in memory")
        };
        let (elem, width) = self.buffer_of(&place.layout, span);
        // The offset counts the struct's own components (see `struct_stride`); a struct inside
        // one of another layout (a struct of floats in a struct of bytes) re-expresses it.
        let (from, to) = (mem.elem.size(), elem.size());
        let offset = match at.kind {
            _ if from == to => at,
            ExprKind::Const(v)
                if v.as_i64()
                    .is_some_and(|k| k * i64::from(from) % i64::from(to) == 0) =>
            {
                let k = v.as_i64().expect("checked: an integer constant");
                constant(Value::I64(k * i64::from(from) / i64::from(to)), span)
            }
            _ => Expr {
                kind: ExprKind::Rescale {
                    value: Box::new(at),
                    from,
                    to,
                    size: from,
                    space: mem.space,
                },
                ty: Scalar::I64,
                span,
            },
        };
        super::pointer::Ptr {
            mem: Some(Mem {
                elem,
                width,
                space: mem.space,
            }),
            offset,
            is_const: false,
        }
    }

    /// `p[i]` or `*p` of a struct pointer: the struct at that element.
    fn memory_place(&mut self, e: &ast::Expr) -> Result<StructPlace> {
        let root = match &e.kind {
            // An element of a multi-dimensional array: the array's struct type.
            ast::ExprKind::Index { base, .. } if self.row_of(base).is_some() => {
                super::pointer::index_chain(e).0
            }
            ast::ExprKind::Index { base, .. } => base,
            ast::ExprKind::Unary { operand, .. } => operand,
            _ => unreachable!("checker: a memory place is an element"),
        };
        let layout = self
            .struct_pointee(root)
            .expect("checked: a pointer to a struct");
        let (mem, index) = self.element(e)?;
        let at = self.scaled(index, mem.width, e.span)?;
        Ok(StructPlace {
            layout,
            home: Home::Mem {
                mem: Mem { width: 1, ..mem },
                at,
                pointers: Vec::new(),
            },
        })
    }

    /// `index * k` as an `i64` component index.
    pub(crate) fn scaled(&mut self, index: Expr, k: u32, span: Span) -> Result<Expr> {
        let index = self.widen(index);
        if k == 1 {
            return Ok(index);
        }
        self.binary(
            BinOp::Mul,
            span,
            index,
            constant(Value::I64(i64::from(k)), span),
        )
    }

    /// A component offset `at` (`i64`) counted in vectors of `width` components: the offset of
    /// a vector pointer to a vector member, which C's alignment puts at a multiple of `width`.
    pub(crate) fn counted_in_vectors(&mut self, at: Expr, width: u32, span: Span) -> Result<Expr> {
        self.binary(
            BinOp::Div,
            span,
            at,
            constant(Value::I64(i64::from(width)), span),
        )
    }

    /// `at + k` (`i64`), with a zero left out.
    fn plus(&mut self, at: Expr, k: i64, span: Span) -> Result<Expr> {
        if k == 0 {
            return Ok(at);
        }
        self.binary(BinOp::Add, span, at, constant(Value::I64(k), span))
    }

    /// Member `sub` (leaves from `first`, bytes from `offset`) of the struct in `outer`.
    fn sub_place(
        &mut self,
        outer: &StructPlace,
        sub: Rc<Layout>,
        first: usize,
        offset: u32,
        span: Span,
    ) -> StructPlace {
        let home = match &outer.home {
            Home::Regs(vars) => Home::Regs(vars[first..first + sub.leaves.len()].to_vec()),
            Home::Mem { mem, at, pointers } => {
                let k = i64::from(offset / mem.elem.size());
                let at = if k == 0 {
                    at.clone()
                } else {
                    Expr {
                        kind: ExprKind::Arith {
                            op: crate::value::ArithOp::Add,
                            lhs: Box::new(at.clone()),
                            rhs: Box::new(constant(Value::I64(k), span)),
                        },
                        ty: Scalar::I64,
                        span,
                    }
                };
                let pointers = pointers
                    .iter()
                    .filter(|&&(leaf, _)| (first..first + sub.leaves.len()).contains(&leaf))
                    .map(|&(leaf, var)| (leaf - first, var))
                    .collect();
                Home::Mem {
                    mem: *mem,
                    at,
                    pointers,
                }
            }
        };
        StructPlace { layout: sub, home }
    }

    /// Element `index` of an array member whose elements are structs.
    fn array_element_place(
        &mut self,
        base: &ast::Expr,
        index: &ast::Expr,
        sub: Rc<Layout>,
        span: Span,
    ) -> Result<StructPlace> {
        let outer = match self.struct_place(base) {
            Some(p) => p?,
            None => return Err(not_a_place(base.span)),
        };
        let i = self.expr(index)?;
        match (&outer.home, &i.kind) {
            (_, ExprKind::Const(v)) => {
                let k = self.constant_index(*v, outer.layout.members.len(), index.span)?;
                let m = &outer.layout.members[k];
                let (first, offset) = (m.first, m.offset);
                Ok(self.sub_place(&outer, sub, first, offset, span))
            }
            // A pointer leaf is a register: which element's is known only with the index.
            (Home::Mem { mem, at, .. }, _) if !sub.has_pointer() => {
                let (mem, at) = (*mem, at.clone());
                let step = sub.size / mem.elem.size();
                let k = self.scaled(i, step, span)?;
                let at = self.binary(BinOp::Add, span, at, k)?;
                Ok(StructPlace {
                    layout: sub,
                    home: Home::Mem {
                        mem,
                        at,
                        pointers: Vec::new(),
                    },
                })
            }
            (Home::Regs(_) | Home::Mem { .. }, _) => Err(dynamic_index(index.span)),
        }
    }

    fn constant_index(&self, v: Value, len: usize, span: Span) -> Result<usize> {
        match v.as_i64() {
            Some(k) if (0..len as i64).contains(&k) => Ok(k as usize),
            _ => Err(CheckError::Dimensions {
                problem: DimensionProblem::OutOfBounds {
                    index: v.to_string(),
                    len,
                },
                span,
                help: None,
            }),
        }
    }

    /// A place in memory whose element index loads, calls or steps a variable (`arr[n++]`,
    /// `p[idx[i]]`), with that index computed once into a variable first (in `out`): the
    /// place's members are each an access at the index, which C++ evaluates once.
    fn pinned(&mut self, p: StructPlace, span: Span, out: &mut Vec<Stmt>) -> StructPlace {
        let Home::Mem { mem, at, pointers } = p.home else {
            return p;
        };
        if is_plain(&at) {
            return StructPlace {
                home: Home::Mem { mem, at, pointers },
                ..p
            };
        }
        let var = self.new_local("&element", Scalar::I64, span);
        out.push(Stmt {
            kind: StmtKind::Assign { var, value: at },
            span,
        });
        StructPlace {
            home: Home::Mem {
                mem,
                at: Expr {
                    kind: ExprKind::Var(var),
                    ty: Scalar::I64,
                    span,
                },
                pointers,
            },
            ..p
        }
    }

    /// Leaf `k` of a place as a scalar place.
    pub(crate) fn leaf(&mut self, p: &StructPlace, k: usize, span: Span) -> Result<Place> {
        let (s, offset) = p.layout.leaves[k];
        Ok(match &p.home {
            Home::Regs(vars) => Place::Var(vars[k], s),
            Home::Mem { pointers, .. } if pointers.iter().any(|&(leaf, _)| leaf == k) => {
                let at = pointers.iter().position(|&(leaf, _)| leaf == k);
                Place::Var(pointers[at.expect("checked: a pointer leaf")].1, s)
            }
            Home::Mem { mem, at, .. } => {
                let at = self.plus(at.clone(), i64::from(offset / mem.elem.size()), span)?;
                // A union's view reads the bytes as its own type (of the same size); a leaf of
                // a struct kept as bytes is an access of its own size at its byte offset, whose
                // index counts its own elements (C's alignment makes the offset a multiple).
                Place::Elem(Mem { elem: s, ..*mem }, in_units(at, s, *mem, span))
            }
        })
    }

    pub(crate) fn read(&mut self, p: Place, span: Span) -> Expr {
        match p {
            Place::Var(var, s) => Expr {
                kind: ExprKind::Var(var),
                ty: s.promoted(),
                span,
            },
            Place::Elem(mem, index) => load(mem, index, span),
        }
    }

    pub(crate) fn write(&mut self, p: Place, value: Expr, span: Span) -> Result<Stmt> {
        Ok(Stmt {
            kind: match p {
                Place::Var(var, s) => StmtKind::Assign {
                    var,
                    value: self.convert(value, s),
                },
                Place::Elem(mem, index) => {
                    self.not_constant(mem, span)?;
                    StmtKind::Store {
                        mem,
                        index,
                        value: self.convert(value, mem.elem),
                    }
                }
            },
            span,
        })
    }

    /// Every leaf of a place, read.
    pub(crate) fn reads(&mut self, p: &StructPlace, span: Span) -> Result<Vec<Expr>> {
        (0..p.layout.leaves.len())
            .map(|k| {
                let leaf = self.leaf(p, k, span)?;
                let mut value = self.read(leaf, span);
                if let ExprKind::Load { copy, .. } = &mut value.kind {
                    *copy = true;
                }
                Ok(value)
            })
            .collect()
    }

    /// Stores `values` (one per leaf) into a place.
    pub(crate) fn writes(
        &mut self,
        p: &StructPlace,
        values: Vec<Expr>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        for (k, v) in values.into_iter().enumerate() {
            let leaf = self.leaf(p, k, span)?;
            if let (Some(_), &Place::Var(var, _)) = (p.layout.pointer_leaf(k), &leaf) {
                // A pointer leaf's value is another pointer leaf's offset, or null.
                let value = match v.kind {
                    ExprKind::Var(from) => {
                        let from = &self.ptr_vars[self.leaf_pointers[&from] as usize];
                        super::pointer::Ptr {
                            mem: from.mem,
                            offset: v,
                            is_const: from.is_const,
                        }
                    }
                    _ => super::pointer::null(span),
                };
                out.push(self.point(self.leaf_pointers[&var], value, span)?);
                continue;
            }
            out.push(self.write(leaf, v, span)?);
        }
        Ok(())
    }

    /// The leaves' default values: default member initialisers, else zero (a null pointer); a
    /// pointer's goes through `out`.
    fn defaults(
        &mut self,
        l: &Rc<Layout>,
        span: Span,
        pointers: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        let mut out = Vec::new();
        for m in &l.members {
            let init = match (&l.def, &m.kind) {
                (Some((def, b)), _) => self.globals.structs[*def]
                    .fields
                    .iter()
                    .find(|f| f.name.name == m.name && !f.is_static)
                    .and_then(|f| f.init.clone())
                    .map(|mut e| {
                        b.expr(&mut e);
                        e
                    }),
                _ => None,
            };
            match (&m.kind, init) {
                (MemberKind::Scalar(_), Some(e)) => out.push(self.expr(&e)?),
                (MemberKind::Pointer(pm), Some(e)) => {
                    out.push(self.pointer_leaf_value(&e, pm.clone(), &m.name, pointers)?);
                }
                (MemberKind::Pointer(_), None) => out.push(null_offset(span)),
                (MemberKind::Compound(sub), Some(e)) => {
                    let sub = Rc::clone(sub);
                    let mut pre = Vec::new();
                    let v = self.struct_value(&e, &sub, &mut pre)?;
                    if !pre.is_empty() {
                        return Err(unsupported(
                            "a default member initialiser that calls a function".into(),
                            e.span,
                            "initialise the member in a constructor",
                        ));
                    }
                    out.extend(v);
                }
                // A member of a class with a default constructor (or an array of them) is
                // constructed, as C++ default-initialises it.
                (MemberKind::Compound(sub), None)
                    if !self.trivial(sub) && self.default_constructible(sub) =>
                {
                    let sub = Rc::clone(sub);
                    out.extend(self.default_value(&sub, span, pointers)?);
                }
                (kind, None) => {
                    let n = Layout::leaf_count(kind);
                    for k in 0..n {
                        let s = l.leaves[m.first + k].0;
                        out.push(constant(Value::I32(0).cast(s), span));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Whether `l` (an array: its element) has a constructor taking no argument, or none.
    fn default_constructible(&self, l: &Layout) -> bool {
        match (&l.def, l.members.first()) {
            (Some((def, _)), _) => {
                let ctors = &self.globals.structs[*def].ctors;
                ctors.is_empty() || ctors.iter().any(|c| super::operators::takes(c, 0))
            }
            (
                None,
                Some(Member {
                    kind: MemberKind::Compound(sub),
                    ..
                }),
            ) if l.array => self.default_constructible(sub),
            _ => true,
        }
    }

    /// The leaves of a default-initialised `l` (`P p;`): its default constructor's work, or
    /// its members' defaults; an array's elements each so.
    fn default_value(
        &mut self,
        l: &Rc<Layout>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        if !l.array {
            return self.build(l, &[], span, out);
        }
        let mut values = Vec::new();
        for m in &l.members {
            match &m.kind {
                MemberKind::Compound(sub) => {
                    let sub = Rc::clone(sub);
                    values.extend(self.default_value(&sub, span, out)?);
                }
                MemberKind::Scalar(_) | MemberKind::Pointer(_) => {
                    return self.defaults(l, span, out)
                }
            }
        }
        Ok(values)
    }

    /// The leaves of a struct value of type `l`, with the statements that compute them in `out`.
    pub(crate) fn struct_value(
        &mut self,
        e: &ast::Expr,
        l: &Rc<Layout>,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        crate::stack::grow(|| self.struct_value_at(e, l, out, false))
    }

    /// A struct's copy from `e`, whose members (read as for `struct_value`) an assignment
    /// stores.
    fn assigned_value(
        &mut self,
        e: &ast::Expr,
        l: &Rc<Layout>,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        crate::stack::grow(|| self.struct_value_at(e, l, out, true))
    }

    /// Refuses a copy of an object of type `l` (by its copy assignment when `assignment`, else
    /// by its copy constructor) that its class declares `= delete`.
    fn copyable(&self, l: &Layout, assignment: bool, span: Span) -> Result<()> {
        let Some((def, _)) = &l.def else {
            return Ok(());
        };
        let deleted = self.globals.structs[*def]
            .specials
            .iter()
            .find(|m| m.deleted && !m.moves && m.assignment == assignment);
        match deleted {
            Some(m) => Err(CheckError::DeletedMember {
                name: l.name.clone(),
                member: if assignment {
                    "copy assignment"
                } else {
                    "copy constructor"
                },
                span,
                declared: m.span,
            }),
            None => Ok(()),
        }
    }

    /// Whether a `found` converts to its base class `l` by slicing: `l`'s members are the
    /// beginning of `found`'s, and `l` has no virtual members.
    fn slices_to(&self, found: &Layout, l: &Layout) -> bool {
        let polymorphic = l
            .def
            .as_ref()
            .is_some_and(|(def, _)| !self.globals.structs[*def].virtuals.is_empty());
        !polymorphic && self.derives_from(found, &l.name) && found.leaves.starts_with(&l.leaves)
    }

    /// A struct's vector member read whole (`h.x` of `struct half8 { half2 x, y; }`), when `e`
    /// is one of `width` `elem`s: its components.
    pub(crate) fn vector_member(
        &mut self,
        e: &ast::Expr,
        elem: Scalar,
        width: u32,
    ) -> Option<Result<Vec<Expr>>> {
        if !matches!(e.kind, ast::ExprKind::Member { .. }) {
            return None;
        }
        let l = self.struct_of(e)?;
        if super::vector::cuda_vector(&l.name) != Some((elem, width)) {
            return None;
        }
        let place = self.struct_place(e)?;
        Some(place.and_then(|p| self.reads(&p, e.span)))
    }

    fn struct_value_at(
        &mut self,
        e: &ast::Expr,
        l: &Rc<Layout>,
        out: &mut Vec<Stmt>,
        assignment: bool,
    ) -> Result<Vec<Expr>> {
        let span = e.span;
        if l.is_refused() {
            return Ok(Vec::new());
        }
        if let ast::ExprKind::List(items) = &e.kind {
            return self.build(l, items, span, out);
        }
        // A vector member (`P { float2 a; }`) given a vector (`p.a = make_float2(1, 2)`, a
        // vector variable, `__floats2half2_rn(x, y)`, an element of a `float2*`): its
        // components. (`float3` and the other vectors kept as structs read member by member.)
        if let Some((elem, width)) = super::vector::cuda_vector(&l.name) {
            if !super::vector::is_struct_vector(elem, width)
                && (self.vector_shape(e)?.is_some() || self.computed_vector(e)?.is_some())
            {
                return self.vector_components(e, elem, width, out);
            }
        }
        if let Some(parts) = self.index_vector(e, l) {
            return Ok(parts);
        }
        let Some(found) = self.struct_of(e) else {
            // `P p = x;` with a scalar: a constructor (or the first member) takes it.
            return self.build(l, std::slice::from_ref(e), span, out);
        };
        // `dim3` converts from and to `uint3` (its constructor and `operator uint3()`).
        let three = |n: &str| matches!(n, "dim3" | "uint3");
        if found.name != l.name && self.converts_from(l, &found.name) {
            // `state_t s(keys);` of `state_t(const keys_t&)`: that constructor (cuckoo).
            return self.build(l, std::slice::from_ref(e), span, out);
        }
        // `B b = d;` or `f(d)` of a `B` parameter, for `D` derived from `B`: the base subobject
        // (C++ slices), which `D`'s layout begins with. A polymorphic base would take the
        // derived object's class number, which the copy does not have: refused as before.
        if found.name != l.name && self.slices_to(&found, l) {
            // Copied as a `B`: by `B`'s copy constructor, bound to the derived object, where it
            // has one; `D`'s own copies (of members only `D` has) do not run.
            if !assignment {
                if let Some(ctor) = self.copy_constructor(l) {
                    return self.constructed_by(&ctor, l, std::slice::from_ref(e), span, out);
                }
            }
            let mut values = self.struct_value_at(e, &found, out, true)?;
            values.truncate(l.leaves.len());
            return Ok(values);
        }
        if found.name != l.name && !(three(&found.name) && three(&l.name)) {
            return Err(CheckError::Mismatch {
                expected: format!("a `{}`", l.name),
                found: format!("a `{}`", found.name),
                span,
                help: None,
            });
        }
        if let Some(p) = self.struct_place(e) {
            self.copyable(l, assignment, span)?;
            // `V b = a;`, `f(a)`: a copy runs the class's own copy constructor.
            if !assignment {
                if let Some(ctor) = self.copy_constructor(l) {
                    return self.constructed_by(&ctor, l, std::slice::from_ref(e), span, out);
                }
            }
            let p = p?;
            let p = self.pinned(p, span, out);
            let values = self.reads(&p, span)?;
            if assignment || !self.copies_specially(l, span) {
                return Ok(values);
            }
            // The members are copied from the object read once (`Box y = *p++;`), under a name
            // no source can spell.
            let source = ast::Ident {
                name: format!("copy source@{}", self.struct_vars.len()),
                span,
            };
            let binding = self.bind_struct(p);
            self.declare(&source, binding);
            let source = ast::Expr {
                kind: ast::ExprKind::Name(source.name),
                span,
            };
            return self.copy_members(&source, l, values, out);
        }
        match &e.kind {
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } => {
                let found = self.adl(callee, args);
                let callee = found.as_ref().unwrap_or(callee);
                let user = self.user_constructor(super::groups::unqualified(&callee.name), args)?;
                // `Limits<P>::getMax()`: a static member function's result, copied.
                if user.is_none() {
                    if let Some(m) = self.static_member_fn(&callee.name, callee.span, args) {
                        let call = self.inline_member(&m, (targs, args), span, true)?;
                        return self.returned(call, l, span, out);
                    }
                }
                if user.is_none() && self.constructed(callee, targs).is_some() {
                    return self.build(l, args, span, out);
                }
                if super::groups::unqualified(&callee.name) == "reduce" {
                    return self.reduce(args, l, span, out);
                }
                // `op(a, b)` of a function object without data: its `operator()`'s result.
                if let Some(Binding::Object(i)) = self.lookup(&callee.name) {
                    let o = self.objects[i as usize].clone();
                    if let Some(f) = self.member_fn(&o, "operator()") {
                        let call = self.inline_call(&f, (targs, args), span, true)?;
                        return self.returned(call, l, span, out);
                    }
                }
                // `op(a, b)` of a lambda variable returning a struct.
                if let Some(Binding::Lambda(_)) = self.lookup(&callee.name) {
                    if let Some(call) = self.object_call(callee, (targs, args), span, true) {
                        return self.returned(call?, l, span, out);
                    }
                }
                // `r(x, y, z)` of a struct with data whose call operator returns a struct by
                // value (kinfu's `Reprojector::operator()` giving a `float3`).
                let object = ast::Expr {
                    kind: ast::ExprKind::Name(callee.name.clone()),
                    span: callee.span,
                };
                if self.struct_of(&object).is_some_and(|o| !o.array) {
                    let call =
                        self.method_call(&object, "operator()", (targs, args), span, true)?;
                    return self.returned(call, l, span, out);
                }
                let name = super::groups::unqualified(&callee.name);
                let f = match self.overload(name, args)? {
                    Some(f) => f,
                    None => self.globals.functions[name],
                };
                let call = self.inline_call(f, (targs, args), span, true)?;
                self.returned(call, l, span, out)
            }
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
                ..
            } => {
                if let Some(leaves) = self.cub_record_value(object, method, args, span, out) {
                    return leaves;
                }
                // `op.identity()` of an object without data.
                if let Some(call) = self.temporary_call(e, true) {
                    return self.returned(call?, l, span, out);
                }
                let call = self.method_call(object, &method.name, (targs, args), span, true)?;
                self.returned(call, l, span, out)
            }
            ast::ExprKind::Binary { op, lhs, rhs, .. } => {
                let call = self.operator_call(*op, lhs, rhs, span)?;
                self.returned(call, l, span, out)
            }
            ast::ExprKind::Unary { op, operand } => {
                let call = self.unary_call(*op, operand, span)?;
                self.returned(call, l, span, out)
            }
            ast::ExprKind::Index { base, index } => {
                let call = self.method_call(
                    base,
                    "operator[]",
                    (&[], std::slice::from_ref(index)),
                    span,
                    true,
                )?;
                self.returned(call, l, span, out)
            }
            ast::ExprKind::Ternary { cond, then, els } => {
                let c = self.condition(cond)?;
                let mut pre_t = Vec::new();
                let t = self.struct_value_at(then, l, &mut pre_t, assignment)?;
                let mut pre_f = Vec::new();
                let f = self.struct_value_at(els, l, &mut pre_f, assignment)?;
                if pre_t.is_empty() && pre_f.is_empty() {
                    // Both sides are places: one select per leaf, as a compiler emits.
                    let flag = self.new_local("?:", Scalar::Bool, cond.span);
                    out.push(Stmt {
                        kind: StmtKind::Assign {
                            var: flag,
                            value: c,
                        },
                        span,
                    });
                    return Ok(t
                        .into_iter()
                        .zip(f)
                        .map(|(t, f)| {
                            let ty = t.ty;
                            let f = self.convert(f, ty);
                            Expr {
                                kind: ExprKind::Select {
                                    cond: Box::new(Expr {
                                        kind: ExprKind::Var(flag),
                                        ty: Scalar::Bool,
                                        span,
                                    }),
                                    then: Box::new(t),
                                    els: Box::new(f),
                                },
                                ty,
                                span,
                            }
                        })
                        .collect());
                }
                let tmp = self.new_struct("?:", l, span);
                self.writes(&tmp, t, span, &mut pre_t)?;
                self.writes(&tmp, f, span, &mut pre_f)?;
                out.push(Stmt {
                    kind: StmtKind::If {
                        cond: c,
                        then: pre_t,
                        els: pre_f,
                    },
                    span,
                });
                self.reads(&tmp, span)
            }
            _ => Err(unsupported(
                format!("this `{}` value", l.name),
                span,
                "use a variable, an element, a call, a constructor or `{...}`",
            )),
        }
    }

    /// `threadIdx`, `blockIdx`, `blockDim` or `gridDim` (not shadowed) as a whole `dim3` or
    /// `uint3` value: its three components.
    fn index_vector(&mut self, e: &ast::Expr, l: &Layout) -> Option<Vec<Expr>> {
        let ast::ExprKind::Name(name) = &e.kind else {
            return None;
        };
        let make: fn(u8) -> Builtin = match name.as_str() {
            "threadIdx" => Builtin::ThreadIdx,
            "blockIdx" => Builtin::BlockIdx,
            "blockDim" => Builtin::BlockDim,
            "gridDim" => Builtin::GridDim,
            _ => return None,
        };
        if !matches!(l.name.as_str(), "dim3" | "uint3") || self.lookup(name).is_some() {
            return None;
        }
        Some(
            (0..3)
                .map(|axis| Expr {
                    kind: ExprKind::Builtin(make(axis)),
                    ty: Scalar::U32,
                    span: e.span,
                })
                .collect(),
        )
    }

    /// The leaves an inlined call left in its result.
    pub(crate) fn returned(
        &mut self,
        call: Expr,
        l: &Rc<Layout>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        let (ExprKind::Inline { .. }, RetShape::Struct(i)) = (&call.kind, self.last_ret) else {
            // A function whose body was refused already stands for zeros (no second error).
            return Ok(l
                .leaves
                .iter()
                .map(|&(s, _)| constant(Value::I32(0).cast(s), span))
                .collect());
        };
        out.push(Stmt {
            kind: StmtKind::Eval(call),
            span,
        });
        let p = self.struct_vars[i as usize].clone();
        self.reads(&p, span)
    }

    /// `P{a, b}`, `P(a, b)`, `{a, b}`: a constructor of `l` where it has one, otherwise its
    /// members in order (the rest from their defaults).
    pub(crate) fn build(
        &mut self,
        l: &Rc<Layout>,
        items: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        // `P(p)` of a `P`: the implicit copy constructor.
        if let [item] = items {
            if self
                .struct_of(item)
                .is_some_and(|found| found.name == l.name)
            {
                return self.struct_value_at(item, l, out, false);
            }
        }
        if l.name == "dim3" && items.len() < 3 {
            // `dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1)`: `dim3 d(4, 2)`,
            // `dim3(4)`, `dim3 d{4, 2}` and `dim3 d;` leave the missing sizes 1.
            let one = ast::Expr {
                kind: ast::ExprKind::Int {
                    value: 1,
                    unsigned: true,
                    long: false,
                    hex: false,
                },
                span,
            };
            let mut all = items.to_vec();
            all.resize(3, one);
            return self.fill(l, &all, &mut 0, span, out);
        }
        if let Some((def, bindings)) = &l.def {
            let ctors = &self.globals.structs[*def].ctors;
            if !ctors.is_empty() {
                // Trailing parameters with a default may be left out (`Q(float a = 1)` is
                // also `Q q;`'s default constructor), as for any function. Several of the
                // arity are ranked by their arguments' types.
                // A copy constructor takes a value of its class, which one item of another type
                // (`P(2.0)`, a `Q`) is not: it would need this very conversion first. (A value
                // of the class itself was copied above.)
                let class = &self.globals.structs[*def];
                let viable = |c: &&ast::Function| items.len() != 1 || !copies(c, class);
                let exact: Vec<&ast::Function> = ctors
                    .iter()
                    .filter(|c| c.params.len() == items.len())
                    .filter(viable)
                    .collect();
                let exact = match exact.len() {
                    0 | 1 => exact.first().copied(),
                    _ => Some(self.best_constructor(&exact, items)),
                };
                let found = exact.or_else(|| {
                    ctors
                        .iter()
                        .filter(viable)
                        .find(|c| super::operators::takes(c, items.len()))
                });
                let Some(ctor) = found else {
                    return Err(CheckError::ArgumentCount {
                        // C++'s name for the constructor: "`V::V` takes 0 or 3 argument(s)".
                        name: format!("{}::{}", l.name, self.globals.structs[*def].name.name),
                        expected: ctors
                            .iter()
                            .map(super::operators::arity_text)
                            .collect::<Vec<_>>()
                            .join(" or "),
                        found: items.len(),
                        span,
                    });
                };
                let ctor = bindings.member(ctor);
                return self.constructed_by(&ctor, l, items, span, out);
            }
        }
        if let (Some(first), Some(item)) = (&l.init_view, items.first()) {
            return Err(unsupported(
                format!("initialising the union `{}` through its member `{first}`", l.name),
                item.span,
                "declare the union's largest member first, or assign the member after declaring the union",
            ));
        }
        if self.polymorphic(l) && !items.is_empty() {
            // A class with virtual members is no aggregate: only its implicit default and
            // copy constructors exist (C++ [dcl.init.aggr]).
            return Err(CheckError::ArgumentCount {
                name: format!("{}::{}", l.name, l.name),
                expected: "0".into(),
                found: items.len(),
                span,
            });
        }
        let mut pos = 0;
        let values = self.fill(l, items, &mut pos, span, out)?;
        if pos < items.len() {
            return Err(CheckError::Initialiser {
                problem: InitialiserProblem::TooManyMembers {
                    name: l.name.clone(),
                    members: l.leaves.len(),
                    given: items.len(),
                },
                span,
                help: None,
            });
        }
        Ok(values)
    }

    /// A new `l` made by its constructor `ctor` (an instance's member) from `items`: the
    /// members' defaults, then the constructor's body on them.
    fn constructed_by(
        &mut self,
        ctor: &ast::Function,
        l: &Rc<Layout>,
        items: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        // A constructor template (OpenCV's `template <typename U> PtrStepSz(const
        // PtrStepSz<U>& d)`): its parameters deduced from the arguments.
        let instance;
        let ctor = if ctor.template.is_empty() {
            ctor
        } else {
            instance = self.function_instance(ctor, &[], items, span)?;
            &instance
        };
        let tmp = self.new_struct(&l.name, l, span);
        let defaults = self.defaults(l, span, out)?;
        self.writes(&tmp, defaults, span, out)?;
        let call = self.inline_with_this(ctor, tmp.clone(), (&[], items), span, true)?;
        out.push(Stmt {
            kind: StmtKind::Eval(call),
            span,
        });
        self.reads(&tmp, span)
    }

    /// Whether copying an `l` runs a copy constructor written for its class or for the class of
    /// a member (at any depth).
    fn copies_specially(&mut self, l: &Layout, span: Span) -> bool {
        self.copy_constructor(l).is_some()
            || l.members.iter().any(|m| match &m.kind {
                MemberKind::Compound(ml) => self.copies_specially(ml, span),
                _ => false,
            })
            || self
                .base_layout(l, span)
                .is_some_and(|b| self.copies_specially(&b, span))
    }

    /// Whether `ty` names a class: one of the file's, or the standard library's
    /// (`std::string`), which device code never reads.
    fn names_class(&self, ty: &ast::TypeName) -> bool {
        let name = class(&ty.base_text);
        ty.base == BaseType::Named
            && (ty.base_text.starts_with("std::")
                || self.globals.structs.iter().any(|d| d.name.name == name))
    }

    /// The layout of the direct base class of `l`'s class, if it has one with data.
    fn base_layout(&mut self, l: &Layout, span: Span) -> Option<Rc<Layout>> {
        let (def, bindings) = l.def.as_ref()?;
        let d = &self.globals.structs[*def];
        let base = d.base.as_ref()?;
        let instance = format!("{}{}", base.name, bindings.substitute_text(&d.base_args));
        self.layout_named(&instance, span)?.ok()
    }

    /// A copy of the object `e` of type `l` whose members (read as `values`) are copied as the
    /// implicit copy constructor does: a member, or the base, whose class has a copy constructor
    /// of its own is copied by it.
    fn copy_members(
        &mut self,
        e: &ast::Expr,
        l: &Rc<Layout>,
        mut values: Vec<Expr>,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        let span = e.span;
        // The nearest base class with a copy constructor of its own is copied by it; the
        // members of those without are among `l`'s, copied below.
        let mut base = None;
        let mut ancestor = self.base_layout(l, span);
        while let Some(b) = ancestor {
            if let Some(ctor) = self.copy_constructor(&b) {
                base = Some((b, ctor));
                break;
            }
            ancestor = self.base_layout(&b, span);
        }
        let inherited = base.as_ref().map_or(0, |(b, _)| b.leaves.len());
        for m in &l.members {
            let MemberKind::Compound(ml) = &m.kind else {
                continue;
            };
            if m.first < inherited || !self.copies_specially(ml, span) {
                continue;
            }
            let member = member_of(e, m, l.array);
            let copy = self.struct_value_at(&member, ml, out, false)?;
            values.splice(m.first..m.first + ml.leaves.len(), copy);
        }
        if let Some((b, ctor)) = base {
            // The base class's copy constructor binds its `const B&` to the derived object. (A
            // class with virtual members begins with its vtable pointer, not the base's.)
            if self.polymorphic(l) {
                return Err(unsupported(
                    format!(
                        "copying a `{}`, a class with virtual members whose base class `{}` has a copy constructor",
                        l.name, b.name
                    ),
                    span,
                    "give the derived class a copy constructor of its own",
                ));
            }
            let copy = self.constructed_by(&ctor, &b, std::slice::from_ref(e), span, out)?;
            values.splice(..inherited, copy);
        }
        Ok(values)
    }

    /// The copy constructor written for `l`'s class that a copy of an `l` runs, unless it copies
    /// every member as the implicit one would (`V(const V& o) : x(o.x), y(o.y) {}`): such a copy
    /// is made member by member without inlining the constructor.
    fn copy_constructor(&self, l: &Layout) -> Option<ast::Function> {
        let (def, bindings) = l.def.as_ref()?;
        let class = &self.globals.structs[*def];
        let ctor = class.ctors.iter().find(|c| copies(c, class))?;
        // `: a(o.a)` and `{ a = o.a; }` read alike, and differ for a member of a class with
        // a copy constructor or assignment of its own: only scalar members copy as written.
        let scalars = l
            .members
            .iter()
            .all(|m| !matches!(m.kind, MemberKind::Compound(_)));
        (!(scalars && member_wise(ctor, class))).then(|| bindings.member(ctor))
    }

    /// The leaves of `l` from `items[*pos..]`, which advances past what they take. A member
    /// that is itself an aggregate takes one braced list or value of its type; given a scalar
    /// instead it takes as many items as it has members, as C fills an aggregate whose inner
    /// braces are left out (`Packed p = {1, 2, 3, 4};` of a struct holding a `float[4]`).
    /// Members past the last item get their defaults.
    fn fill(
        &mut self,
        l: &Rc<Layout>,
        items: &[ast::Expr],
        pos: &mut usize,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        // Computed only where an item is missing: a default may run a constructor.
        let mut defaults: Option<Vec<Expr>> = None;
        let mut values = Vec::new();
        for (k, m) in l.members.iter().enumerate() {
            self.fill_objects(l, k, items, pos)?;
            let n = Layout::leaf_count(&m.kind);
            match (items.get(*pos), &m.kind) {
                (Some(item), MemberKind::Scalar(s)) => {
                    *pos += 1;
                    let v = self.expr(item)?;
                    values.push(self.convert(v, *s));
                }
                (Some(item), MemberKind::Pointer(pm)) => {
                    *pos += 1;
                    // A reference member (stored as `r&`) is bound to the item: its address.
                    let bound;
                    let item = if crate::syntax::reference_of(&m.name).is_some() {
                        bound = ast::Expr {
                            kind: ast::ExprKind::Unary {
                                op: UnOp::AddrOf,
                                operand: Box::new(item.clone()),
                            },
                            span: item.span,
                        };
                        &bound
                    } else {
                        item
                    };
                    values.push(self.pointer_leaf_value(item, pm.clone(), &m.name, out)?);
                }
                (Some(item), MemberKind::Compound(sub)) => {
                    let sub = Rc::clone(sub);
                    // A type with constructors takes the item as their argument, as C++ does.
                    let constructed = sub
                        .def
                        .as_ref()
                        .is_some_and(|(def, _)| !self.globals.structs[*def].ctors.is_empty());
                    let whole = constructed
                        || matches!(item.kind, ast::ExprKind::List(_))
                        || self.struct_of(item).is_some()
                        || self.value_vector_shape(item)?.is_some();
                    if whole {
                        *pos += 1;
                        values.extend(self.struct_value(item, &sub, out)?);
                    } else {
                        values.extend(self.fill(&sub, items, pos, span, out)?);
                    }
                }
                (None, _) => {
                    if defaults.is_none() {
                        defaults = Some(self.defaults(l, span, out)?);
                    }
                    let all = defaults.as_ref().expect("set just above");
                    values.extend(all[m.first..m.first + n].iter().cloned());
                }
            }
        }
        self.fill_objects(l, l.members.len(), items, pos)?;
        Ok(values)
    }

    /// Refuses the items of an array of structs `l` that list members' values without their
    /// braces (`S s[4] = {1, 2, 3, 4}` of an aggregate): C fills members across elements
    /// (brace elision), which simt does not do, rather than one element per item.
    pub(crate) fn braced_elements(&mut self, l: &Layout, items: &[ast::Expr]) -> Result<()> {
        let aggregate = l
            .def
            .as_ref()
            .is_none_or(|(def, _)| self.globals.structs[*def].ctors.is_empty());
        match items.iter().find(|item| {
            aggregate
                && !matches!(item.kind, ast::ExprKind::List(_))
                && self.struct_of(item).is_none()
        }) {
            Some(item) => Err(unsupported(
                "an array of structs listing its members' values without their braces".into(),
                item.span,
                "brace each element: `S s[2] = {{1, 2}, {3, 4}};`",
            )),
            None => Ok(()),
        }
    }

    /// The items of a braced list that initialise the object members before member `k` of
    /// `l` (`{Mul(), 3.0f}` of `struct { Mul m; float a; }`): each must be an object of the
    /// member's type or `{}`; objects hold no data, so they give no values.
    fn fill_objects(
        &mut self,
        l: &Layout,
        k: usize,
        items: &[ast::Expr],
        pos: &mut usize,
    ) -> Result<()> {
        for m in l.objects.iter().filter(|m| m.before == k) {
            let Some(item) = items.get(*pos) else {
                return Ok(());
            };
            *pos += 1;
            self.object_value(&m.object, item)?;
        }
        Ok(())
    }

    // ------------------------------------------------------------------ statements

    /// `P v;`, `P v = ...;`, `P v(a, b);`, `P v{a, b};` and `P* p = ...;`.
    pub(crate) fn declare_struct(
        &mut self,
        l: Rc<Layout>,
        ty: &ast::TypeName,
        d: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if d.pointer {
            let pointee = self.buffer_of(&l, d.name.span);
            let i = self.new_pointer(&d.name, pointee, ty.is_const);
            self.struct_ptrs.insert(i, Rc::clone(&l));
            self.declare(&d.name, Binding::Pointer(i));
            if let Some(init) = &d.init {
                out.push(self.initialise_pointer(i, init, d.name.span)?);
            }
            return Ok(());
        }
        self.concrete(&l, d.name.span)?;
        if !d.dims.is_empty() {
            // A local array of structs is the array of their members, like a buffer.
            let list = d.list.clone().or_else(|| match &d.init {
                Some(ast::Expr {
                    kind: ast::ExprKind::List(items),
                    span,
                }) => Some((items.clone(), *span)),
                _ => None,
            });
            let mut declared = d.clone();
            declared.list = None;
            declared.init = None;
            // `S s[] = {a, b}`: sized by its list.
            if let (Some(first @ None), Some((items, span))) = (declared.dims.first_mut(), &list) {
                *first = Some(ast::Expr {
                    kind: ast::ExprKind::Int {
                        value: items.len() as u64,
                        unsigned: false,
                        long: false,
                        hex: false,
                    },
                    span: *span,
                });
            }
            let shape = self.buffer_of(&l, d.name.span);
            self.local_array(shape, &declared, out)?;
            let a = self.local_arrays.len() as u32 - 1;
            self.struct_spaces.insert(Space::Local(a), Rc::clone(&l));
            let count = self.local_arrays[a as usize].components() / u64::from(shape.1);
            if let Some((items, span)) = &list {
                self.braced_elements(&l, items)?;
                super::local::too_many_items(d, (items, *span), count)?;
            }
            if list.is_some() || !self.trivial(&l) {
                // `S s[4]{}` or `S s[2] = {{1, 2}, {3, 4}}`: each element from its item, the
                // rest value-initialised (`{}`). Without a list, C++ default-initialises each
                // element: `Point<float> pts[24];` runs `Point()` 24 times, in order.
                let mem = Mem {
                    width: 1,
                    ..self.local_array_mem(a)
                };
                for k in 0..count {
                    let at = constant(Value::I64((k * u64::from(shape.1)) as i64), d.name.span);
                    let place = StructPlace {
                        layout: Rc::clone(&l),
                        home: Home::Mem {
                            mem,
                            at,
                            pointers: Vec::new(),
                        },
                    };
                    let values = match &list {
                        Some((items, span)) => {
                            let empty = ast::Expr {
                                kind: ast::ExprKind::List(Vec::new()),
                                span: *span,
                            };
                            let item = items.get(k as usize).unwrap_or(&empty);
                            self.struct_value(item, &l, out)?
                        }
                        None => self.default_value(&l, d.name.span, out)?,
                    };
                    self.writes(&place, values, d.name.span, out)?;
                }
            }
            return Ok(());
        }
        let addressed = self.addressed.contains(&d.name.name);
        let p = self.new_struct_at(&d.name.name, &l, d.name.span, addressed);
        let init = match (&d.init, &d.list) {
            (Some(e), _) => Some(e.clone()),
            (None, Some((items, span))) => Some(ast::Expr {
                kind: ast::ExprKind::List(items.clone()),
                span: *span,
            }),
            (None, None) => None,
        };
        // A struct in local memory with nothing to initialise starts uninitialised, as a local
        // array does (no stores to count).
        if init.is_none() && matches!(p.home, Home::Mem { .. }) && self.trivial(&l) {
            let binding = self.bind_struct(p);
            self.declare(&d.name, binding);
            return Ok(());
        }
        let values = match &init {
            Some(e) => self.struct_value(e, &l, out),
            None => self.build(&l, &[], d.name.span, out),
        };
        // Declared before an error in its initialiser is reported: its uses are not errors too.
        let binding = self.bind_struct(p.clone());
        self.mark_const(&binding, ty.is_const);
        self.declare(&d.name, binding);
        self.writes(&p, values?, d.name.span, out)
    }

    /// Whether `l` has a constructor that one object of the struct `from` calls (`T(const S&)`,
    /// trailing parameters defaulted).
    fn converts_from(&self, l: &Layout, from: &str) -> bool {
        let Some((def, _)) = &l.def else {
            return false;
        };
        // A constructor template's `const Box<U>&` takes any `Box<...>`.
        let base = |t: &str| t.split('<').next().unwrap_or(t).to_string();
        self.globals.structs[*def].ctors.iter().any(|c| {
            c.params.first().is_some_and(|p| {
                let written = super::groups::unqualified(&p.ty.base_text);
                let takes = written == from
                    || (!c.template.is_empty()
                        && written.contains('<')
                        && base(written) == base(from));
                !p.ty.pointer && takes && c.params[1..].iter().all(|q| q.default.is_some())
            })
        })
    }

    /// Whether a struct (and every struct in it) has no constructor and no default member
    /// initialiser.
    fn trivial(&self, l: &Layout) -> bool {
        if l.name == "dim3" {
            // Its default constructor makes (1, 1, 1).
            return false;
        }
        let own = l.def.as_ref().is_none_or(|(def, _)| {
            let d = &self.globals.structs[*def];
            d.ctors.is_empty() && d.fields.iter().all(|f| f.is_static || f.init.is_none())
        });
        own && l.members.iter().all(|m| match &m.kind {
            MemberKind::Compound(sub) => self.trivial(sub),
            MemberKind::Scalar(_) | MemberKind::Pointer(_) => true,
        })
    }

    /// Whether an assignment's target is a whole struct.
    pub(crate) fn is_struct_place(&mut self, target: &ast::Expr) -> bool {
        self.struct_of(target).is_some()
    }

    /// `s = value;` or `s op= value;` for a whole struct.
    pub(crate) fn struct_assignment(
        &mut self,
        target: &ast::Expr,
        op: Option<BinOp>,
        value: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if let Some(op) = op {
            let name = format!("operator{}=", op.symbol());
            let l = self.struct_of(target).expect("checked: a struct");
            if self.method(&l, &name, Some(1)).is_some() {
                let call = self.method_call(
                    target,
                    &name,
                    (&[], std::slice::from_ref(value)),
                    span,
                    true,
                )?;
                out.push(Stmt {
                    kind: StmtKind::Eval(call),
                    span,
                });
                return Ok(());
            }
            // A free or friend `S& operator+=(S& lhs, const S& rhs)` (InfiniTAM's vectors).
            let right = self.struct_of(value);
            if let Choice::One(f) =
                self.free_operator(&name, &[(target, Some(Rc::clone(&l))), (value, right)])
            {
                let first = &f.params[0].ty;
                if first.reference && !first.is_const && class(&first.base_text) == class(&l.name) {
                    let args = [target.clone(), value.clone()];
                    let call = self.inline_call(f, (&[], &args), span, true)?;
                    out.push(Stmt {
                        kind: StmtKind::Eval(call),
                        span,
                    });
                    return Ok(());
                }
            }
            let combined = ast::Expr {
                kind: ast::ExprKind::Binary {
                    op,
                    op_span: span,
                    lhs: Box::new(target.clone()),
                    rhs: Box::new(value.clone()),
                },
                span,
            };
            return self.struct_assignment(target, None, &combined, span, out);
        }
        // `: a(x)` of a constructor (`this.a`, a form no source can write): the member is
        // initialised, by its class's constructors, never assigned by its `operator=`.
        let initialised = is_member_init(target);
        if !initialised {
            if let Some(call) = self.declared_assignment(target, value, span) {
                out.push(Stmt {
                    kind: StmtKind::Eval(call?),
                    span,
                });
                return Ok(());
            }
        }
        // `access(i, out) = c;` of a function returning a `Color&` (nvblox): the struct it
        // refers to, `*&access(i, out)`, as a C++ compiler takes a reference.
        let through_ref;
        let target = match &target.kind {
            ast::ExprKind::Call { .. } | ast::ExprKind::Method { .. } => {
                let addr = ast::Expr {
                    kind: ast::ExprKind::Unary {
                        op: UnOp::AddrOf,
                        operand: Box::new(target.clone()),
                    },
                    span: target.span,
                };
                through_ref = super::expr::deref(&addr);
                &through_ref
            }
            _ => target,
        };
        let p = match self.struct_place(target) {
            Some(p) => p?,
            None => return Err(not_a_place(target.span)),
        };
        if let Home::Mem { .. } = p.home {
            self.writable(target)?;
        }
        let p = self.pinned(p, span, out);
        let values = if initialised {
            self.struct_value(value, &p.layout, out)?
        } else {
            self.assigned_value(value, &p.layout, out)?
        };
        // `v = {v.y, v.x}`: the new leaves are computed before any is written.
        let values = if matches!(p.home, Home::Regs(_)) && mentions(value, &root_name(target)) {
            let tmp = self.new_struct("copy", &p.layout, span);
            self.writes(&tmp, values, span, out)?;
            self.reads(&tmp, span)?
        } else {
            values
        };
        self.writes(&p, values, span, out)
    }

    /// `s = value;` where the struct declares `operator=` (DLRM's `VecType4& operator=(float4&
    /// in)`): the call C++ makes of it, `s.operator=(value)`. Copying another `S` stays the
    /// implicit member-wise copy unless the struct declares one taking an `S`.
    fn declared_assignment(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
    ) -> Option<Result<Expr>> {
        let l = self.struct_of(target)?;
        let assigns =
            self.methods_where(&l, |m| m.name.name == "operator=" && m.params.len() == 1)?;
        // A copy assignment the struct declares: no template (C++ [class.copy.assign]), taking
        // the struct by its name, its injected name or a typedef of it.
        let mut copies_own = false;
        for m in assigns.iter().filter(|m| m.template.is_empty()) {
            let ty = &m.params[0].ty;
            copies_own |= class(&ty.base_text) == class(&l.name)
                || matches!(self.layout_of(ty), Some(Ok(p)) if p.name == l.name);
        }
        let copy = self.struct_of(value).is_some_and(|v| v.name == l.name);
        // `s = {a, b}` builds an `S` for the implicit copy; `s = {x}` may call `operator=(float)`.
        let list = matches!(&value.kind, ast::ExprKind::List(items) if items.len() != 1);
        if assigns.is_empty() || ((copy || list) && !copies_own) {
            return None;
        }
        Some(self.method_call(
            target,
            "operator=",
            (&[], std::slice::from_ref(value)),
            span,
            true,
        ))
    }

    /// `return value;` in a function that returns a struct.
    pub(crate) fn return_struct(
        &mut self,
        i: u32,
        value: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let p = self.struct_vars[i as usize].clone();
        // `return r;` of a local `r`: compilers build `r` in the result (the named return value
        // optimisation), so no copy constructor runs; a parameter is copied.
        let values = match self.returned_local(value) {
            Some(local) if local.layout.name == p.layout.name => {
                let local = self.pinned(local, value.span, out);
                self.reads(&local, value.span)?
            }
            _ => self.struct_value(value, &p.layout, out)?,
        };
        self.writes(&p, values, value.span, out)
    }

    /// The local struct variable that `return name;` names, where the function returns it
    /// from every `return` and declares it itself (not a parameter, not a reference): the one
    /// the compiler builds in the result.
    fn returned_local(&self, value: &ast::Expr) -> Option<StructPlace> {
        let ast::ExprKind::Name(n) = &value.kind else {
            return None;
        };
        if self.named_result.as_deref() != Some(n.as_str()) {
            return None;
        }
        let depth = self.scopes.iter().rposition(|s| s.contains_key(n))?;
        match self.scopes[depth][n].0 {
            Binding::Struct(i) if depth > self.params_scope => {
                Some(self.struct_vars[i as usize].clone())
            }
            _ => None,
        }
    }

    /// The pointer variable of a pointer member an expression names (`v.data`, `this->data`,
    /// `a.b.data`), found from names alone.
    pub(crate) fn member_pointer(&self, e: &ast::Expr) -> Option<u32> {
        let ast::ExprKind::Member { base, field } = &e.kind else {
            return None;
        };
        let (layout, pointers) = self.struct_pointers(base)?;
        let m = layout.member(&field.name)?;
        let MemberKind::Pointer(_) = m.kind else {
            return None;
        };
        let &(_, var) = pointers.iter().find(|&&(k, _)| k == m.first)?;
        self.leaf_pointers.get(&var).copied()
    }

    /// `p.tex[i]` of an array of pointer members (nvdiffrast's `const float* tex[16]`), or
    /// `srcs[i]` of a thread's own `const float* srcs[3]`: the pointer variable of each element,
    /// in order, and the index.
    pub(crate) fn pointer_elements<'e>(
        &self,
        e: &'e ast::Expr,
    ) -> Option<(Vec<u32>, &'e ast::Expr)> {
        let ast::ExprKind::Index { base, index } = &e.kind else {
            return None;
        };
        if let ast::ExprKind::Name(n) = &base.kind {
            if let Some(Binding::PointerArray(a)) = self.lookup(n) {
                return Some((self.pointer_arrays[a as usize].clone(), index));
            }
        }
        let (layout, pointers) = self.struct_pointers(base)?;
        if !layout.array {
            return None;
        }
        let vars = layout
            .members
            .iter()
            .map(|m| {
                let MemberKind::Pointer(_) = m.kind else {
                    return None;
                };
                let &(_, var) = pointers.iter().find(|&&(k, _)| k == m.first)?;
                self.leaf_pointers.get(&var).copied()
            })
            .collect::<Option<Vec<u32>>>()?;
        Some((vars, index))
    }

    /// The member function `name` of the struct `object` names (in registers, or an element in
    /// memory: `cells[i].getCell(0)`), if it returns a pointer (`view.item_ptr(r, c)`).
    pub(crate) fn pointer_method(&self, object: &ast::Expr, name: &str) -> Option<ast::Function> {
        let l = self
            .struct_layout(object)
            .or_else(|| self.named_layout(object))?;
        if name == "operator" {
            // Of several conversion operators (`operator bool()` beside `operator T*()`), the
            // one to a pointer.
            let (def, bindings) = l.def.as_ref()?;
            return self.globals.structs[*def]
                .methods
                .iter()
                .find(|m| m.name.name == "operator" && m.ret.pointer)
                .map(|m| bindings.member(m));
        }
        self.method(&l, name, None).filter(|f| f.ret.pointer)
    }

    /// The layout of the struct variable `e` names (a variable, `this`, `*this`, a struct
    /// member of one), wherever it lives.
    fn struct_layout(&self, e: &ast::Expr) -> Option<Rc<Layout>> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Struct(i) => Some(Rc::clone(&self.struct_vars[i as usize].layout)),
                _ => None,
            },
            ast::ExprKind::Unary {
                op: UnOp::Deref,
                operand,
            } if matches!(&operand.kind, ast::ExprKind::Name(n) if n == "this") => {
                self.struct_layout(operand)
            }
            ast::ExprKind::Member { base, field } => {
                match &self.struct_layout(base)?.member(&field.name)?.kind {
                    MemberKind::Compound(sub) => Some(Rc::clone(sub)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The layout and pointer leaves (`(leaf, variable)`) of a struct in registers, or of a
    /// local one holding arrays and pointers, named by `e` (a variable, `this`, `*this`, a
    /// struct member of one).
    fn struct_pointers(&self, e: &ast::Expr) -> Option<(Rc<Layout>, PointerLeaves)> {
        match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(n)? {
                Binding::Struct(i) => {
                    let p = &self.struct_vars[i as usize];
                    match &p.home {
                        Home::Mem { .. } if !p.layout.has_pointer() => None,
                        _ => Some((Rc::clone(&p.layout), p.pointer_vars())),
                    }
                }
                _ => None,
            },
            ast::ExprKind::Unary {
                op: UnOp::Deref,
                operand,
            } if matches!(&operand.kind, ast::ExprKind::Name(n) if n == "this") => {
                self.struct_pointers(operand)
            }
            ast::ExprKind::Member { base, field } => {
                let (layout, pointers) = self.struct_pointers(base)?;
                let m = layout.member(&field.name)?;
                let MemberKind::Compound(sub) = &m.kind else {
                    return None;
                };
                let leaves = m.first..m.first + sub.leaves.len();
                let pointers = pointers
                    .into_iter()
                    .filter(|(k, _)| leaves.contains(k))
                    .map(|(k, var)| (k - m.first, var))
                    .collect();
                Some((Rc::clone(sub), pointers))
            }
            _ => None,
        }
    }

    // ------------------------------------------------------------------ scalar members

    /// `v.x`, `p[i].x`, `p->x`, `v.a[2]`: the scalar member an expression names, if it names
    /// one of a struct.
    pub(crate) fn member_place(&mut self, e: &ast::Expr) -> Option<Result<Place>> {
        match &e.kind {
            ast::ExprKind::Member { base, field } => {
                let l = self.struct_of(base)?;
                if l.is_refused() {
                    return Some(Ok(self.sink(e.span)));
                }
                if let Some((_, v)) = l.statics.iter().find(|(n, _)| *n == field.name) {
                    let v = *v;
                    return Some(Err(CheckError::NotAssignable {
                        what: format!("the static member `{}` ({v})", field.name),
                        span: e.span,
                        help: None,
                    }));
                }
                let Some(m) = l.member(&field.name) else {
                    let names: Vec<&str> = l.members.iter().map(|m| m.name.as_str()).collect();
                    return Some(Err(CheckError::UnknownName {
                        name: field.name.clone(),
                        span: field.span,
                        suggestion: Some(
                            crate::diag::did_you_mean(&field.name, names.iter().copied())
                                .unwrap_or_else(|| {
                                    format!("the members of `{}` are {}", l.name, names.join(", "))
                                }),
                        ),
                    }));
                };
                let MemberKind::Scalar(own) = m.kind else {
                    return None;
                };
                let (k, offset) = (m.first, m.offset);
                Some(self.scalar_member(base, (k, offset, own), e.span))
            }
            ast::ExprKind::Index { base, index } => {
                // An array member of a refused struct (reported already) is as silent as its
                // scalar members.
                if let ast::ExprKind::Member { base: outer, .. } = &base.kind {
                    if self.struct_of(outer).is_some_and(|l| l.is_refused()) {
                        return Some(Ok(self.sink(e.span)));
                    }
                }
                let l = self.struct_of(base).filter(|l| l.array)?;
                if !matches!(l.members[0].kind, MemberKind::Scalar(_)) {
                    return None;
                }
                Some(self.scalar_element(base, index, &l, e.span))
            }
            _ => None,
        }
    }

    /// A scalar that stands for any member of a refused struct: reads give zero, writes vanish.
    fn sink(&mut self, span: Span) -> Place {
        Place::Var(self.new_local("refused", Scalar::I32, span), Scalar::I32)
    }

    /// Scalar member `own` (leaf `k`, at byte `offset`) of the struct `base`. A union member of
    /// another type than its storage's leaf is its bytes as `own`, at its own offset: in memory
    /// a view may split or join the storage's leaves.
    fn scalar_member(
        &mut self,
        base: &ast::Expr,
        (k, offset, own): (usize, u32, Scalar),
        span: Span,
    ) -> Result<Place> {
        let p = match self.struct_place(base) {
            Some(p) => p?,
            None => return Err(not_a_place(base.span)),
        };
        match &p.home {
            Home::Mem { mem, at, pointers } if !pointers.iter().any(|&(leaf, _)| leaf == k) => {
                let mem = *mem;
                let at = self.plus(at.clone(), i64::from(offset / mem.elem.size()), span)?;
                Ok(Place::Elem(
                    Mem { elem: own, ..mem },
                    in_units(at, own, mem, span),
                ))
            }
            _ => self.leaf(&p, k, span),
        }
    }

    fn scalar_element(
        &mut self,
        base: &ast::Expr,
        index: &ast::Expr,
        l: &Layout,
        span: Span,
    ) -> Result<Place> {
        let p = match self.struct_place(base) {
            Some(p) => p?,
            None => return Err(not_a_place(base.span)),
        };
        let i = self.expr(index)?;
        if let ExprKind::Const(v) = i.kind {
            let k = self.constant_index(v, l.members.len(), index.span)?;
            return self.leaf(&p, k, span);
        }
        match &p.home {
            Home::Mem { mem, at, .. } => {
                let (mem, at) = (*mem, at.clone());
                let elem = l.leaves[0].0;
                let first = in_units(at, elem, mem, span);
                let i = self.widen(i);
                let at = self.binary(BinOp::Add, span, first, i)?;
                Ok(Place::Elem(Mem { elem, ..mem }, at))
            }
            Home::Regs(_) => Err(dynamic_index(index.span)),
        }
    }

    /// `v.x` (and `f(v).x`, `(a + b).x`, `v.n` of a static member) as a value; `None` when
    /// `base` is no struct.
    pub(crate) fn struct_member_value(
        &mut self,
        base: &ast::Expr,
        field: &ast::Ident,
        span: Span,
    ) -> Option<Result<Expr>> {
        let l = self.struct_of(base)?;
        if l.is_refused() {
            return Some(Ok(constant(Value::I32(0), span)));
        }
        if let Some((_, v)) = l.statics.iter().find(|(n, _)| *n == field.name) {
            return Some(Ok(constant(*v, span)));
        }
        let whole = ast::Expr {
            kind: ast::ExprKind::Member {
                base: Box::new(base.clone()),
                field: field.clone(),
            },
            span,
        };
        if self.struct_place(base).is_some() || l.member(&field.name).is_none() {
            return Some(self.member_place(&whole).map_or_else(
                || Err(not_scalar(&l, &field.name, span)),
                |p| p.map(|p| self.read(p, span)),
            ));
        }
        let m = l.member(&field.name).expect("checked: a member");
        let MemberKind::Scalar(s) = m.kind else {
            return Some(Err(not_scalar(&l, &field.name, span)));
        };
        let k = m.first;
        Some((|| {
            let mut body = Vec::new();
            let values = self.struct_value(base, &l, &mut body)?;
            let value = values
                .into_iter()
                .nth(k)
                .expect("checker: a leaf per member");
            // A union member of another type than its storage's leaf: the leaf's bits.
            let stored = l.leaves[k].0;
            let value = if stored == s {
                self.convert(value, s)
            } else {
                let value = self.convert(value, stored);
                Expr {
                    kind: ExprKind::Call {
                        func: Func::View {
                            from: stored,
                            to: s,
                        },
                        args: vec![value],
                    },
                    ty: s.promoted(),
                    span,
                }
            };
            let var = self.new_local(&format!("().{}", field.name), s, span);
            body.push(Stmt {
                kind: StmtKind::Assign { var, value },
                span,
            });
            Ok(Expr {
                kind: ExprKind::Inline {
                    name: l.name.clone(),
                    body,
                    result: Some(var),
                },
                ty: s.promoted(),
                span,
            })
        })())
    }

    /// A scalar-valued call of a member function or operator (`a.norm()`, `a == b`), or a
    /// `void` one used as a statement.
    pub(crate) fn struct_call(&mut self, e: &ast::Expr, allow_void: bool) -> Option<Result<Expr>> {
        match &e.kind {
            ast::ExprKind::Method {
                object,
                method,
                targs,
                args,
                ..
            } => {
                self.struct_of(object)?;
                Some(self.method_call(object, &method.name, (targs, args), e.span, allow_void))
            }
            ast::ExprKind::Binary { op, lhs, rhs, .. } => {
                // `this == o`: two pointers.
                let this = |e: &ast::Expr| matches!(&e.kind, ast::ExprKind::Name(n) if n == "this");
                if this(lhs) || this(rhs) {
                    return None;
                }
                if self.struct_of(lhs).is_none() && self.struct_of(rhs).is_none() {
                    return None;
                }
                Some(self.operator_call(*op, lhs, rhs, e.span))
            }
            ast::ExprKind::Unary { op, operand } => {
                unary_symbol(*op)?;
                self.struct_of(operand)?;
                Some(self.unary_call(*op, operand, e.span))
            }
            ast::ExprKind::Index { base, index } => {
                let l = self.struct_of(base)?;
                // `s[i]` of a struct without `operator[]` that converts to a pointer indexes
                // the pointer (C++ [over.built]).
                if l.array || self.indexes_converted(base, &l) {
                    return None;
                }
                let index = std::slice::from_ref(index.as_ref());
                Some(self.method_call(base, "operator[]", (&[], index), e.span, allow_void))
            }
            _ => None,
        }
    }

    /// Whether `target = value` is `this.r& = &x`, a constructor binding the reference member
    /// `r` to a variable `x` simt holds in a register (which has no address) or to a temporary
    /// (`: r(a + b)`, which C++ refuses: [class.base.init]).
    pub(crate) fn binds_to_register(&mut self, target: &ast::Expr, value: &ast::Expr) -> bool {
        let ast::ExprKind::Member { field, .. } = &target.kind else {
            return false;
        };
        let ast::ExprKind::Unary {
            op: UnOp::AddrOf,
            operand,
        } = &value.kind
        else {
            return false;
        };
        let this = is_member_init(target);
        let register = matches!(&operand.kind, ast::ExprKind::Name(x)
            if matches!(self.lookup(x), Some(Binding::Local { is_const: false, .. })));
        // A call may return a reference (`: n(at(i))`): its own check says.
        let temporary = !matches!(
            &operand.kind,
            ast::ExprKind::Name(_)
                | ast::ExprKind::Index { .. }
                | ast::ExprKind::Member { .. }
                | ast::ExprKind::Call { .. }
                | ast::ExprKind::Method { .. }
                | ast::ExprKind::Unary {
                    op: UnOp::Deref,
                    ..
                }
        );
        crate::syntax::reference_of(&field.name).is_some()
            && this
            && (register || temporary)
            && self.pointer_var(target).is_some()
    }

    /// [`Self::binds_to_register`]'s binding. A `const` reference refers to a copy of `x` made
    /// here (nothing writes through it), and assigning `x` later is refused, since the copy
    /// would not see it (torchaudio's `Indexer2D idx(maxU)`). Another is refused, its member
    /// pointed into a placeholder so that its uses add no errors of their own.
    pub(crate) fn bind_to_register(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
    ) -> Result<Stmt> {
        let (ast::ExprKind::Member { field, .. }, ast::ExprKind::Unary { operand, .. }) =
            (&target.kind, &value.kind)
        else {
            unreachable!("checked: `this.r& = &x`");
        };
        let i = self.pointer_var(target).expect("checked: a pointer member");
        let member = crate::syntax::reference_of(&field.name)
            .expect("checked: a reference's storage")
            .to_string();
        let pv = &self.ptr_vars[i as usize];
        let refusal = match &operand.kind {
            ast::ExprKind::Name(x) if pv.is_const => {
                let Some(Binding::Local { var, .. }) = self.lookup(x) else {
                    unreachable!("checked: a register variable");
                };
                let copy = self.const_address(x, var, span)?;
                self.held_by_reference.insert(var, member);
                return self.point(i, copy, span);
            }
            ast::ExprKind::Name(x) => unsupported(
                format!("binding the reference member `{member}` to `{x}`, a variable simt holds in a register,"),
                span,
                "simt gives addresses to arrays and memory: bind it to an element (`S s(out[i]);`), or hold a pointer member instead",
            ),
            _ => unsupported(
                format!("binding the reference member `{member}` to a temporary (C++ refuses it in an initialiser list: [class.base.init])"),
                operand.span,
                "bind it to a variable or an element the object outlives",
            ),
        };
        let (elem, width) = pv.pointee;
        self.errors.push(refusal);
        let nowhere = super::pointer::Ptr {
            mem: Some(super::Mem {
                space: super::Space::Global(u32::MAX),
                elem,
                width,
            }),
            offset: constant(Value::I64(0), span),
            is_const: false,
        };
        self.point(i, nowhere, span)
    }

    /// An assignment to the variable `var`, refused where a `const` reference member holds a
    /// copy of it ([`Self::bind_to_register`]).
    pub(crate) fn not_held_by_reference(&self, var: VarId, span: Span) -> Result<()> {
        let Some(member) = self.held_by_reference.get(&var) else {
            return Ok(());
        };
        let name = &self.locals[var.0 as usize].name;
        Err(unsupported(
            format!("assigning `{name}` after the reference member `{member}` was bound to it"),
            span,
            "simt holds a variable's value, not its address, where a `const` reference member is bound to it: assign it before the object is made, or give the member the value (`const int n;`)",
        ))
    }

    /// The place `e` names, written as simt reads it, where that differs from `e`: `s.r` of a
    /// reference member `r` is `*s.r&` (what its storage points to); `s[i]` of a struct that
    /// converts to a pointer is `s.operator T*()[i]`, and `s[i].x` a member of that.
    pub(crate) fn rewritten_place(&mut self, e: &ast::Expr) -> Option<ast::Expr> {
        let ast::ExprKind::Member { base, field } = &e.kind else {
            return self.converted_index(e);
        };
        if let Some(base) = self.converted_index(base) {
            return Some(ast::Expr {
                kind: ast::ExprKind::Member {
                    base: Box::new(base),
                    field: field.clone(),
                },
                span: e.span,
            });
        }
        let storage = crate::syntax::reference_storage(&field.name);
        self.struct_of(base)?.member(&storage)?;
        let member = ast::Expr {
            kind: ast::ExprKind::Member {
                base: base.clone(),
                field: ast::Ident {
                    name: storage,
                    span: field.span,
                },
            },
            span: e.span,
        };
        Some(ast::Expr {
            kind: ast::ExprKind::Unary {
                op: UnOp::Deref,
                operand: Box::new(member),
            },
            span: e.span,
        })
    }

    /// `s[i]` of a struct without `operator[]` that converts to a pointer: `s.operator T*()[i]`.
    pub(crate) fn converted_index(&mut self, e: &ast::Expr) -> Option<ast::Expr> {
        let ast::ExprKind::Index { base, index } = &e.kind else {
            return None;
        };
        let l = self.struct_of(base)?;
        if l.array || !self.indexes_converted(base, &l) {
            return None;
        }
        Some(ast::Expr {
            kind: ast::ExprKind::Index {
                base: Box::new(self.pointer_conversion(base)?),
                index: index.clone(),
            },
            span: e.span,
        })
    }

    /// Whether `s[i]` of the struct `base` (of layout `l`) is the built-in subscript of the
    /// pointer it converts to: it has no `operator[]` of its own.
    pub(crate) fn indexes_converted(&mut self, base: &ast::Expr, l: &Rc<Layout>) -> bool {
        self.method(l, "operator[]", Some(1)).is_none() && self.pointer_conversion(base).is_some()
    }

    /// Whether `lhs op rhs` (`name`, `lhs` of class `l`, `rhs` of class `right`) takes a free
    /// operator over `l`'s member: C++ ranks both, and a member whose parameter is of another
    /// class than `rhs` (jdftx's `vector3<int> + vector3<double>`) loses to a free operator that
    /// takes both as they are.
    fn member_operator_loses(
        &mut self,
        name: &str,
        (lhs, l): (&ast::Expr, &Rc<Layout>),
        (rhs, right): (&ast::Expr, &Option<Rc<Layout>>),
        span: Span,
    ) -> bool {
        let (Some(m), Some(r)) = (self.method(l, name, Some(1)), right) else {
            return false;
        };
        let t = &m.params[0].ty;
        let other = if t.pointer {
            false
        } else if t.base_text == class(&l.name) {
            // The class's own name, bare, is this instance.
            r.name != l.name
        } else if t.base_text.contains('<') {
            matches!(self.layout_named(&t.base_text, span), Some(Ok(p)) if p.name != r.name)
        } else {
            false
        };
        other
            && matches!(
                self.free_operator(name, &[(lhs, Some(Rc::clone(l))), (rhs, right.clone())]),
                Choice::One(_)
            )
    }

    /// `a op b` with a struct operand: the member `operator op` of `a`, or a free one.
    fn operator_call(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Result<Expr> {
        let name = format!("operator{}", op.symbol());
        let refused = |l: Option<Rc<Layout>>| l.is_some_and(|l| l.is_refused());
        if refused(self.struct_of(lhs)) || refused(self.struct_of(rhs)) {
            return Ok(constant(Value::I32(0), span));
        }
        let (left, right) = (self.struct_of(lhs), self.struct_of(rhs));
        if let Some(l) = &left {
            if self.method(l, &name, Some(1)).is_some()
                && !self.member_operator_loses(&name, (lhs, l), (rhs, &right), span)
            {
                return self.method_call(lhs, &name, (&[], std::slice::from_ref(rhs)), span, false);
            }
        }
        match self.free_operator(&name, &[(lhs, left), (rhs, right)]) {
            Choice::One(f) => {
                let args = [lhs.clone(), rhs.clone()];
                self.inline_call(f, (&[], &args), span, false)
            }
            Choice::Unresolved {
                candidates,
                args,
                ambiguous,
            } => Err(unresolved(op.symbol(), &candidates, &args, ambiguous, span)),
            Choice::Undeclared => {
                let l = self.struct_of(lhs).or_else(|| self.struct_of(rhs));
                let ty = l.map_or_else(|| "this struct".into(), |l| l.name.clone());
                Err(self.missing_operator(op.symbol(), ty, span))
            }
        }
    }

    /// No device `operator<symbol>` for a struct of type `ty`: a host one the file defines is
    /// host code called from the device (as nvcc says), else there is none.
    pub(crate) fn missing_operator(&self, symbol: &str, ty: String, span: Span) -> CheckError {
        let name = format!("operator{symbol}");
        if let Some(&defined) = self.globals.host_functions.get(name.as_str()) {
            return CheckError::HostFunction {
                name,
                span,
                defined,
            };
        }
        let help = format!(
            "define `{name}` as a member function or a `__device__` function, or work on the members"
        );
        CheckError::NoOperator {
            op: symbol.to_string(),
            ty,
            span,
            // A header the file includes but simt did not find (a project's helper_math.h) is the
            // likelier cause.
            help: self.missing_header_hint(Some(help.clone())).unwrap_or(help),
        }
    }

    /// `v[k] = x` of a struct `v` whose `operator[]` returns no reference (a value, or nothing).
    pub(crate) fn index_assignment(&mut self, base: &ast::Expr, span: Span) -> CheckError {
        let name = self
            .struct_of(base)
            .map_or_else(String::new, |l| l.name.clone());
        unsupported(
            format!("assigning through `operator[]` of `{name}`, which returns no reference,"),
            span,
            "declare it returning a reference (`float& operator[](int i) { return data[i]; }`), or assign the member itself (`v.data[k] = x;`)",
        )
    }

    /// `-a`, `!a`, `~a` of a struct: the member `operator-()` of `a`, or a free one.
    fn unary_call(&mut self, op: UnOp, operand: &ast::Expr, span: Span) -> Result<Expr> {
        let symbol = unary_symbol(op).expect("checked: an overloadable operator");
        let name = format!("operator{symbol}");
        let l = self.struct_of(operand).expect("checked: a struct");
        if l.is_refused() {
            return Ok(constant(Value::I32(0), span));
        }
        if self.method(&l, &name, Some(0)).is_some() {
            return self.method_call(operand, &name, (&[], &[]), span, false);
        }
        match self.free_operator(&name, &[(operand, Some(Rc::clone(&l)))]) {
            Choice::One(f) => {
                self.inline_call(f, (&[], std::slice::from_ref(operand)), span, false)
            }
            Choice::Unresolved {
                candidates,
                args,
                ambiguous,
            } => Err(unresolved(symbol, &candidates, &args, ambiguous, span)),
            Choice::Undeclared => Err(self.missing_operator(symbol, l.name.clone(), span)),
        }
    }

    /// `object.name(args)`: the member function inlined with the members of `object` in scope.
    pub(crate) fn method_call(
        &mut self,
        object: &ast::Expr,
        name: &str,
        (targs, args): (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Result<Expr> {
        let l = self.struct_of(object).expect("checked: a struct");
        if l.is_refused() {
            return Ok(constant(Value::I32(0), span));
        }
        if let Some(call) = self.virtual_call(object, &l, name, args, (span, allow_void)) {
            return call;
        }
        // `r.op(a, b)` of an object member: its `operator()`.
        if let Some(m) = l.objects.iter().find(|m| m.name == name) {
            let callee = ast::Ident {
                name: name.to_string(),
                span,
            };
            return self
                .call_object(
                    &m.object.clone(),
                    "operator()",
                    (targs, args),
                    span,
                    allow_void,
                )
                .unwrap_or_else(|| Err(super::expr::not_callable(&callee)));
        }
        let arity = name.starts_with("operator").then_some(args.len());
        let f = match arity {
            Some(_) => self.operator_for(&l, name, args),
            None => self.member_overload(&l, name, (targs, args)),
        };
        let Some(f) = f else {
            let through_pointer = l.members.iter().any(|m| {
                m.name == name
                    && matches!(&m.kind, MemberKind::Pointer(PointerMember { target: Target::Opaque(t), .. }) if self.names_function_pointer(t))
            });
            if through_pointer {
                return Err(unsupported(
                    format!("a call through the function pointer member `{name}` of `{}`", l.name),
                    span,
                    "call the `__device__` function itself, or pass it as a template argument or a function pointer parameter (simt resolves those where the kernel is checked)",
                ));
            }
            if let Some(&defined) = self.globals.host_functions.get(name) {
                return Err(CheckError::HostFunction {
                    name: name.to_string(),
                    span,
                    defined,
                });
            }
            return Err(CheckError::UnknownName {
                name: name.to_string(),
                span,
                suggestion: Some(format!("`{}` has no member function `{name}`", l.name)),
            });
        };
        let f = self.for_object(object, &l, f);
        self.call_on(object, &l, &f, (targs, args), (span, allow_void))
    }

    /// The member function `f` of `l` called on `object`: on the place `object` names, or on a
    /// copy of the value it makes.
    pub(crate) fn call_on(
        &mut self,
        object: &ast::Expr,
        l: &Rc<Layout>,
        f: &ast::Function,
        call: (&[ast::TemplateArg], &[ast::Expr]),
        (span, allow_void): (Span, bool),
    ) -> Result<Expr> {
        let name = &f.name.name;
        let mut pre = Vec::new();
        let this = match self.struct_place(object) {
            Some(p) => {
                let p = p?;
                self.pinned(p, span, &mut pre)
            }
            None => {
                let values = self.struct_value(object, l, &mut pre)?;
                let tmp = self.new_struct("this", l, span);
                self.writes(&tmp, values, span, &mut pre)?;
                tmp
            }
        };
        let call = self.inline_with_this(f, this, call, span, allow_void)?;
        Ok(after(pre, call, name, span))
    }

    /// The vector type a struct's member function `name` returns, if `object` is a struct and
    /// it returns a vector.
    pub(crate) fn vector_method(
        &mut self,
        object: &ast::Expr,
        name: &str,
    ) -> Option<(Scalar, u32)> {
        let l = self.struct_of(object)?;
        let f = self.method(&l, name, None)?;
        if f.ret.base != BaseType::Vector || f.ret.pointer || f.ret.reference {
            return None;
        }
        super::vector::elem_of(&f.ret).ok()
    }

    /// `auto [a, b] = s;` (C++17 [dcl.struct.bind]): a hidden copy of `s`, each name one of its
    /// data members in order; `auto& [a, b] = s;` names `s`'s own members.
    pub(crate) fn structured_binding(
        &mut self,
        names: &[ast::Ident],
        by_ref: bool,
        init: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if let Some(n) = self.array_length(init) {
            return self.array_binding(names, by_ref, init, n, span, out);
        }
        if self.struct_of(init).is_none() {
            if let Some((elem, width)) = self.value_vector_shape(init)?.filter(|v| v.1 > 1) {
                return self.vector_binding(names, by_ref, init, (elem, width), span, out);
            }
        }
        let Some(l) = self.struct_of(init) else {
            return Err(unsupported(
                "a structured binding of anything but a struct or a vector".into(),
                init.span,
                "bind the members of a struct (`auto [a, b] = pair;`), or declare one variable per value",
            ));
        };
        if l.array || l.members.len() != names.len() {
            return Err(CheckError::Mismatch {
                expected: format!(
                    "{} names, one per data member of `{}`",
                    l.members.len(),
                    l.name
                ),
                found: format!("{}", names.len()),
                span,
                help: Some(format!(
                    "name every member: `auto [{}] = ...;`",
                    l.members
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            });
        }
        let place = match (by_ref, self.struct_place(init)) {
            (true, Some(p)) => {
                let p = p?;
                self.pinned(p, span, out)
            }
            (true, None) => {
                return Err(unsupported(
                    "`auto&` bound to a temporary".into(),
                    init.span,
                    "bind a copy (`auto [a, b] = ...;`), or name a variable or an element",
                ))
            }
            (false, _) => {
                let values = self.struct_value(init, &l, out)?;
                let joined = names.iter().map(|n| n.name.as_str()).collect::<Vec<_>>();
                let copy = self.new_struct(&format!("[{}]", joined.join(", ")), &l, span);
                self.writes(&copy, values, span, out)?;
                copy
            }
        };
        for (k, name) in names.iter().enumerate() {
            let binding = self.member_binding(&place, k, false, name.span, out)?;
            self.declare(name, binding);
        }
        Ok(())
    }

    /// The length of the one-dimensional local or shared array `e` names.
    pub(crate) fn array_length(&self, e: &ast::Expr) -> Option<u64> {
        let ast::ExprKind::Name(n) = &e.kind else {
            return None;
        };
        let dims = match self.lookup(n)? {
            Binding::LocalArray(a) => &self.local_arrays[a as usize].dims,
            Binding::Shared(s) if !self.shared[s as usize].is_extern => {
                &self.shared[s as usize].dims
            }
            _ => return None,
        };
        match dims.as_slice() {
            [n] => Some(*n),
            _ => None,
        }
    }

    /// `auto [a, b] = arr;` of an array of two: `auto a = arr[0]; auto b = arr[1];`, as C++
    /// defines it ([dcl.struct.bind]/1: copies of the elements), or with `auto&` references to
    /// them.
    fn array_binding(
        &mut self,
        names: &[ast::Ident],
        by_ref: bool,
        init: &ast::Expr,
        n: u64,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if names.len() as u64 != n {
            return Err(CheckError::Mismatch {
                expected: format!("{n} names, one per element of the array"),
                found: format!("{}", names.len()),
                span,
                help: Some("name every element, or index the array instead".into()),
            });
        }
        for (k, name) in names.iter().enumerate() {
            let element = ast::Expr {
                kind: ast::ExprKind::Index {
                    base: Box::new(init.clone()),
                    index: Box::new(ast::Expr {
                        kind: ast::ExprKind::Int {
                            value: k as u64,
                            unsigned: false,
                            long: false,
                            hex: false,
                        },
                        span: name.span,
                    }),
                },
                span: init.span,
            };
            let mut decl = ast::Declarator::plain(name.clone(), Some(element));
            decl.reference = by_ref;
            let ty = ast::TypeName {
                base: ast::BaseType::Auto,
                base_text: "auto".into(),
                pointer: false,
                reference: by_ref,
                is_const: false,
                span,
            };
            let stmt = ast::Stmt {
                kind: ast::StmtKind::Decl {
                    ty,
                    decls: vec![decl],
                    of: None,
                },
                span,
            };
            self.stmt(&stmt, out)?;
        }
        Ok(())
    }

    /// `auto [x, y] = v;` of a vector (`float2` is a struct of `x`, `y` in CUDA's headers): a
    /// copy's components; `auto& [x, y] = v;` of a vector variable names its own components.
    fn vector_binding(
        &mut self,
        names: &[ast::Ident],
        by_ref: bool,
        init: &ast::Expr,
        (elem, width): (Scalar, u32),
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if names.len() != width as usize {
            return Err(CheckError::Mismatch {
                expected: format!("{width} names, one per component of the vector"),
                found: format!("{}", names.len()),
                span,
                help: Some(format!(
                    "name every component: `auto [{}] = ...;`",
                    super::vector::COMPONENTS[..width as usize].join(", ")
                )),
            });
        }
        let vars = match (&init.kind, by_ref) {
            (ast::ExprKind::Name(n), true) => match self.lookup(n) {
                Some(Binding::Vector { vars, .. }) => vars[..width as usize].to_vec(),
                _ => return Err(unsupported(
                    "`auto&` bound to a vector in memory".into(),
                    init.span,
                    "bind a copy (`auto [x, y] = v;`), or copy the element into a variable first",
                )),
            },
            (_, true) => {
                return Err(unsupported(
                    "`auto&` bound to a temporary vector".into(),
                    init.span,
                    "bind a copy (`auto [x, y] = ...;`)",
                ))
            }
            (_, false) => {
                let vars: Vec<VarId> = names
                    .iter()
                    .map(|n| self.new_local(&n.name, elem, n.span))
                    .collect();
                self.assign_vector(&vars, elem, width, init, out)?;
                vars
            }
        };
        for (name, var) in names.iter().zip(vars) {
            self.declare(
                name,
                Binding::Local {
                    var,
                    is_const: false,
                },
            );
        }
        Ok(())
    }

    /// The binding of member `k` of the struct at `this` (`is_const`: read-only), as a name for
    /// it in a member function's body or a structured binding; `binds` gets the statements
    /// that point a reference at a member in memory.
    fn member_binding(
        &mut self,
        this: &StructPlace,
        k: usize,
        is_const: bool,
        span: Span,
        binds: &mut Vec<Stmt>,
    ) -> Result<Binding> {
        let layout = Rc::clone(&this.layout);
        let m = &layout.members[k];
        Ok(match &m.kind {
            MemberKind::Scalar(_) => match self.leaf(this, m.first, span)? {
                Place::Var(var, _) => Binding::Local {
                    var,
                    is_const: false,
                },
                Place::Elem(mem, at) => {
                    let ident = ast::Ident {
                        name: m.name.clone(),
                        span,
                    };
                    let i = self.new_pointer(&ident, (mem.elem, 1), false);
                    let ptr = super::pointer::Ptr {
                        mem: Some(mem),
                        offset: at,
                        is_const: false,
                    };
                    binds.push(self.point(i, ptr, span)?);
                    Binding::Ref(i)
                }
            },
            MemberKind::Compound(sub) => {
                let sub = Rc::clone(sub);
                let p = self.sub_place(this, sub, m.first, layout.members[k].offset, span);
                // `v1` of a `uint2 v1;` member in registers, named without `this->`: the
                // vector its leaves hold, as a `uint2` local is.
                match (super::vector::value_vector_layout(&p.layout), &p.home) {
                    (Some((elem, width)), Home::Regs(leaves)) => {
                        let mut vars = [leaves[0]; 4];
                        vars[..leaves.len()].copy_from_slice(leaves);
                        return Ok(Binding::Vector { vars, elem, width });
                    }
                    // Of an object in memory (`g[0].step()`), a reference to its vector, where
                    // the memory holds the vector's components.
                    (Some((elem, width)), Home::Mem { mem, at, .. }) if mem.elem == elem => {
                        let ident = ast::Ident {
                            name: m.name.clone(),
                            span,
                        };
                        let (mem, at) = (Mem { width, ..*mem }, at.clone());
                        let offset = self.counted_in_vectors(at, width, span)?;
                        let i = self.new_pointer(&ident, (elem, width), false);
                        let ptr = super::pointer::Ptr {
                            mem: Some(mem),
                            offset,
                            is_const: false,
                        };
                        binds.push(self.point(i, ptr, span)?);
                        return Ok(Binding::Ref(i));
                    }
                    _ => {}
                }
                let b = self.bind_struct(p);
                self.mark_const(&b, is_const);
                b
            }
            MemberKind::Pointer(pm) => match self.leaf(this, m.first, span)? {
                Place::Var(var, _) => Binding::Pointer(self.leaf_pointers[&var]),
                // A heap object's pointer member: a copy of the pointer its word holds.
                Place::Elem(mem, at) => {
                    let word = load(mem, at, span);
                    let value = self.stored_pointer(word, &pm.target, pm.pointee, span);
                    let var = self.leaf_pointer(m.name.clone(), pm.clone(), span);
                    let i = self.leaf_pointers[&var];
                    self.ptr_vars[i as usize].in_struct = false;
                    binds.push(self.point(i, value, span)?);
                    Binding::Pointer(i)
                }
            },
        })
    }

    /// Inlines `f` (a member function or a constructor) with the members of `this` visible by
    /// name, and `this` itself.
    pub(crate) fn inline_with_this(
        &mut self,
        f: &ast::Function,
        this: StructPlace,
        call: (&[ast::TemplateArg], &[ast::Expr]),
        span: Span,
        allow_void: bool,
    ) -> Result<Expr> {
        let mut scope = HashMap::new();
        let mut binds = Vec::new();
        let layout = Rc::clone(&this.layout);
        for k in 0..layout.members.len() {
            let binding = self.member_binding(&this, k, f.is_const, span, &mut binds)?;
            let name = &layout.members[k].name;
            // A reference member `r` (stored as `r&`): reads and writes go where it points.
            match (crate::syntax::reference_of(name), binding) {
                (Some(r), Binding::Pointer(i)) => {
                    scope.insert(r.to_string(), (Binding::Ref(i), span))
                }
                (_, binding) => scope.insert(name.clone(), (binding, span)),
            };
        }
        for (n, v) in &layout.statics {
            scope.insert(n.clone(), (Binding::Constant(*v, v.ty()), span));
        }
        for m in &layout.objects {
            self.objects.push(m.object.clone());
            let i = self.objects.len() as u32 - 1;
            scope.insert(m.name.clone(), (Binding::Object(i), span));
        }
        let rewritten;
        let f = match &layout.def {
            Some((def, _)) => {
                rewritten = self.in_class(*def, f, None);
                &rewritten
            }
            None => f,
        };
        let this_binding = self.bind_struct(this);
        self.mark_const(&this_binding, f.is_const);
        scope.insert("this".into(), (this_binding, span));
        self.pending_this = Some(scope);
        let call = self.inline_call(f, call, span, allow_void);
        self.pending_this = None;
        Ok(after(binds, call?, &f.name.name, span))
    }

    // ------------------------------------------------------------------ functions

    /// The argument for a struct parameter: a reference to a place is that place; anything else
    /// is a copy made where the call is.
    pub(crate) fn struct_argument(
        &mut self,
        l: Rc<Layout>,
        p: &ast::Param,
        a: &ast::Expr,
    ) -> Result<(Binding, Vec<Stmt>)> {
        if p.ty.reference {
            if let Some(place) = self.struct_place(a) {
                let mut place = place?;
                // A base-class reference to a derived object is the object itself: its
                // virtual members are the derived class's, as C++ calls them through it.
                if place.layout.name != l.name && !self.derives_from(&place.layout, &l.name) {
                    return Err(CheckError::Mismatch {
                        expected: format!("a `{}` for `{}`", l.name, p.name.name),
                        found: format!("a `{}`", place.layout.name),
                        span: a.span,
                        help: None,
                    });
                }
                let mut fill = Vec::new();
                // The element a reference names is fixed where the call is.
                if let Home::Mem { mem, at, pointers } = place.home {
                    let var = self.new_local(&format!("&{}", p.name.name), Scalar::I64, a.span);
                    fill.push(Stmt {
                        kind: StmtKind::Assign { var, value: at },
                        span: a.span,
                    });
                    place.home = Home::Mem {
                        mem,
                        at: Expr {
                            kind: ExprKind::Var(var),
                            ty: Scalar::I64,
                            span: a.span,
                        },
                        pointers,
                    };
                }
                let b = self.bind_struct(place);
                self.mark_const(&b, p.ty.is_const);
                return Ok((b, fill));
            }
            if !p.ty.is_const {
                return Err(CheckError::ArgumentType {
                    problem: ArgumentProblem::Reference {
                        param: p.name.name.clone(),
                    },
                    span: a.span,
                    help: Some(format!(
                        "declare it `const {}&`, or pass a variable",
                        l.name
                    )),
                });
            }
        }
        self.concrete(&l, p.name.span)?;
        let mut fill = Vec::new();
        let values = self.struct_value(a, &l, &mut fill)?;
        let copy = self.new_struct(&p.name.name, &l, p.name.span);
        self.writes(&copy, values, a.span, &mut fill)?;
        let b = self.bind_struct(copy);
        self.mark_const(&b, p.ty.is_const);
        Ok((b, fill))
    }

    /// An object of `l` may exist: its class defines every virtual member it has (C++ refuses
    /// an object of an abstract class, whose pure virtual member a call could not run).
    pub(crate) fn concrete(&self, l: &Layout, span: Span) -> Result<()> {
        let Some((def, _)) = &l.def else {
            return Ok(());
        };
        let Some(v) = self.globals.structs[*def].virtuals.iter().find(|v| v.pure) else {
            return Ok(());
        };
        Err(CheckError::AbstractClass {
            class: l.name.clone(),
            function: v.name.clone(),
            span,
            declared: v.span,
            help: format!(
                "make an object of a class derived from `{}` that defines `{}`, and pass it where a `{}&` is wanted",
                l.name, v.name, l.name
            ),
        })
    }

    /// Whether the class of `l` has virtual members (and so a `__vptr`).
    pub(crate) fn polymorphic(&self, l: &Layout) -> bool {
        l.def
            .as_ref()
            .is_some_and(|(d, _)| !self.globals.structs[*d].virtuals.is_empty())
    }

    /// Whether the class of `l` derives from the class `base`, directly or through others.
    pub(crate) fn derives_from(&self, l: &Layout, base: &str) -> bool {
        self.base_depth(l, base).is_some()
    }

    /// How many derivations lie between `l` and its base class `base` (1 for a direct base).
    pub(crate) fn base_depth(&self, l: &Layout, base: &str) -> Option<usize> {
        let (d, bindings) = l.def.as_ref()?;
        // A direct base that is a class template's instance (`D<T> : B<T>`), by its arguments
        // (`B<float>` for `D<float>`).
        let def = &self.globals.structs[*d];
        if let (Some(b), false) = (&def.base, def.base_args.is_empty()) {
            let instance = format!("{}{}", b.name, bindings.substitute_text(&def.base_args));
            if layout_key(&canonical_targs(&instance)) == layout_key(&canonical_targs(base)) {
                return Some(1);
            }
        }
        self.bases_of(*d)
            .iter()
            .position(|b| b == base)
            .map(|k| k + 1)
    }

    /// The member function `f` of the struct `def` as its body reads inside the class: a plain
    /// call of another member function is a call through `this` (C++ [class.mfct.non-static]),
    /// or, in a static member function called as `owner::f` without an object, a call of
    /// `owner::g`; and the class's name and its bases' qualify its members (`DevPtr<T>::data`
    /// is `data`, C++ [class.qual]). A member function's name hides the file's function of that
    /// name (C++ [basic.lookup.unqual]), also one inherited from a base.
    pub(crate) fn in_class(
        &self,
        def: usize,
        f: &ast::Function,
        owner: Option<&str>,
    ) -> ast::Function {
        let mut classes = self.bases_of(def);
        classes.push(self.globals.structs[def].name.name.clone());
        // A parameter or local of the name (a function object `op`, a lambda `g`) hides the
        // member function in the body (all of it: simt does not tell where the local's scope
        // ends).
        let mut own = crate::syntax::local_names(&f.body);
        own.extend(f.params.iter().map(|p| p.name.name.clone()));
        let b = super::template::Bindings {
            methods: self.globals.structs[def]
                .methods
                .iter()
                .map(|m| m.name.name.clone())
                .filter(|m| !own.contains(m))
                .collect(),
            classes: classes.into_iter().collect(),
            owner: owner.map(str::to_string),
            ..Default::default()
        };
        let mut copy = f.clone();
        b.stmts(&mut copy.body);
        copy
    }

    /// The names of the class `def`'s bases, nearest first (`PtrStep`, `DevPtr` of PCL's
    /// `PtrStepSz<T> : PtrStep<T> : DevPtr<T>`).
    fn bases_of(&self, def: usize) -> Vec<String> {
        let structs = &self.globals.structs;
        let mut out = Vec::new();
        let mut at = Some(def);
        while let Some(d) = at.filter(|_| out.len() < structs.len()) {
            let Some(b) = structs[d].base.as_ref() else {
                break;
            };
            out.push(b.name.clone());
            let template = !structs[d].base_args.is_empty();
            at = structs.iter().position(|s| {
                s.name.name == b.name && s.spec.is_empty() && s.template.is_empty() != template
            });
        }
        out
    }

    /// A `void*` member `name` (`params.x_ptr`) as a pointer to the type of the kernel's first
    /// cast of it (`reinterpret_cast<float*>(params.x_ptr)`), with the casts' types as written
    /// when their element types differ (as for a `void*` parameter); one never cast, or cast to
    /// a struct that holds pointers, stays opaque.
    fn cast_void_member(
        &mut self,
        pm: PointerMember,
        (root, name): (&str, &str),
        body: &[ast::Stmt],
    ) -> (PointerMember, Vec<String>) {
        if !matches!(&pm.target, Target::Opaque(what) if what == "void") {
            return (pm, Vec::new());
        }
        let mut casts = self.casts_of(body, name);
        casts.extend(self.member_function_casts(root, name));
        let casts: Vec<&ast::TypeName> = casts.iter().collect();
        let Some(&cast) = casts.first() else {
            return (pm, Vec::new());
        };
        let typed = match self.layout_of(cast) {
            Some(Ok(l)) if l.has_pointer() => return (pm, Vec::new()),
            Some(Ok(l)) => Ok((self.buffer_of(&l, cast.span), Target::Struct(l))),
            Some(Err(e)) => Err(e),
            None => super::vector::elem_of(cast).map(|shape| (shape, Target::Data)),
        };
        match typed {
            Ok((pointee, target)) => {
                let views = self.void_views(&casts);
                let is_const = pm.is_const;
                (
                    PointerMember {
                        pointee,
                        is_const,
                        target,
                    },
                    views,
                )
            }
            Err(e) => {
                self.errors.push(e);
                (pm, Vec::new())
            }
        }
    }

    /// The pointer types the member functions of the structs holding a `void*` member named as
    /// `path` ends (`p.in.val`: `val`) cast it to, `val` or `this->val` (nvdiffrec's `struct
    /// Tensor { void* val; ... float fetch(unsigned i) const { return ((float*)val)[i]; } }`),
    /// after the kernel's own casts.
    fn member_function_casts(&self, root: &str, path: &str) -> Vec<ast::TypeName> {
        // The struct holding the member: the parameter's type, then each member's on the path.
        let named = |t: &str| {
            let bare = t.split('<').next().unwrap_or(t).trim();
            let bare = bare.rsplit("::").next().unwrap_or(bare);
            self.globals.structs.iter().find(|s| s.name.name == bare)
        };
        let parts: Vec<&str> = path.split('.').skip(1).collect();
        let Some((member, inner)) = parts.split_last() else {
            return Vec::new();
        };
        let mut holder = named(root);
        for part in inner {
            let field = holder.and_then(|s| s.fields.iter().find(|f| f.name.name == *part));
            holder = field.and_then(|f| named(&f.ty.base_text));
        }
        let void_member = |s: &&ast::StructDef| {
            s.fields
                .iter()
                .any(|f| f.name.name == *member && f.ty.pointer && f.ty.base == ast::BaseType::Void)
        };
        let Some(holder) = holder.filter(void_member) else {
            return Vec::new();
        };
        let mut casts = Vec::new();
        for f in holder.methods.iter().chain(&holder.ctors) {
            for name in [member.to_string(), format!("this.{member}")] {
                casts.extend(self.casts_of(&f.body, &name));
            }
        }
        casts
    }

    /// A kernel parameter `P p` passed by value: one parameter per member, named `p.x` (the
    /// launch section sets `p.x = 1.5;`, an array member's elements `p.e[0]`, ... at once as
    /// `p.e = [1, 2, 3];`, and a pointer member's buffer `p.data = zeros(n);`),
    /// whose locals are the struct's leaves. A pointer leaf points at its buffer's start from
    /// the kernel's first statement, which goes to `prologue`. A `void*` member is typed by the
    /// casts of it in the kernel's `body`, as a `void*` parameter is.
    pub(crate) fn struct_kernel_parameter(
        &mut self,
        l: Rc<Layout>,
        p: &ast::Param,
        body: &[ast::Stmt],
        prologue: &mut Vec<Stmt>,
    ) -> Binding {
        let mut vars = Vec::new();
        let mut cast_members = Vec::new();
        for (k, &(ty, _)) in l.leaves.iter().enumerate() {
            let name = format!("{}.{}", p.name.name, leaf_name(&l, k));
            if let Some(mut pm) = l.pointer_leaf(k) {
                // A `T**` member the host set points to host-made pointers: held, not followed.
                if let Target::Slots(ty) = &pm.target {
                    pm.target = Target::Opaque(format!("{}*", ty.base_text));
                }
                // A `void*` member, like a `void*` parameter, takes any file's bytes.
                let untyped = matches!(&pm.target, Target::Opaque(what) if what == "void");
                let (pm, views) = self.cast_void_member(pm, (&p.ty.base_text, &name), body);
                if untyped {
                    cast_members.push((k, pm.clone()));
                }
                let (elem, width) = pm.pointee;
                let is_const = pm.is_const;
                let (layout, opaque) = match &pm.target {
                    Target::Data => (None, None),
                    Target::Slots(_) => unreachable!("checker: made opaque above"),
                    Target::Struct(l) => (Some(Rc::clone(l)), None),
                    Target::Opaque(what) => (None, Some(what.clone())),
                };
                let var = self.leaf_pointer(name.clone(), pm, p.name.span);
                let kind = ParamKind::Buffer {
                    elem,
                    width,
                    is_const,
                };
                self.params.push(Param {
                    name,
                    span: p.name.span,
                    kind,
                    default: None,
                    views,
                    opaque,
                    untyped,
                });
                let param = self.params.len() as u32 - 1;
                if let Some(l) = layout {
                    self.struct_spaces.insert(Space::Global(param), l);
                }
                let start = super::pointer::Ptr {
                    mem: Some(Mem {
                        space: Space::Global(param),
                        elem,
                        width,
                    }),
                    offset: Expr {
                        kind: ExprKind::ParamBase(param),
                        ty: Scalar::I64,
                        span: p.name.span,
                    },
                    is_const,
                };
                match self.point(self.leaf_pointers[&var], start, p.name.span) {
                    Ok(s) => prologue.push(s),
                    Err(e) => self.errors.push(e),
                }
                vars.push(var);
                continue;
            }
            let var = self.new_local(&name, ty, p.name.span);
            self.params.push(Param {
                name,
                span: p.name.span,
                kind: ParamKind::Scalar { ty, var },
                default: None,
                views: Vec::new(),
                opaque: None,
                untyped: false,
            });
            vars.push(var);
        }
        let place = self.new_struct(&p.name.name, &l, p.name.span);
        // The struct's own `void*` members point to what the casts made of the parameters'.
        for (k, var) in place.pointer_vars() {
            if let Some((_, pm)) = cast_members.iter().find(|(m, _)| *m == k) {
                let i = self.leaf_pointers[&var];
                self.ptr_vars[i as usize].pointee = pm.pointee;
                match &pm.target {
                    Target::Struct(l) => {
                        self.struct_ptrs.insert(i, Rc::clone(l));
                        self.ptr_vars[i as usize].opaque = None;
                    }
                    Target::Data => self.ptr_vars[i as usize].opaque = None,
                    Target::Opaque(_) | Target::Slots(_) => {}
                }
            }
        }
        if let Home::Mem { .. } = place.home {
            // A struct holding an array lives in local memory (it may be indexed at run time):
            // the kernel starts by storing the parameters there.
            let values = vars
                .iter()
                .zip(&l.leaves)
                .map(|(&var, &(ty, _))| Expr {
                    kind: ExprKind::Var(var),
                    ty: ty.promoted(),
                    span: p.name.span,
                })
                .collect();
            if let Err(e) = self.writes(&place, values, p.name.span, prologue) {
                self.errors.push(e);
            }
            return self.bind_struct(place);
        }
        self.bind_struct(StructPlace {
            layout: l,
            home: Home::Regs(vars),
        })
    }

    /// A struct parameter of a function checked on its own (no caller): fresh leaves, a pointer
    /// member pointing into a placeholder array of its type.
    pub(crate) fn struct_parameter(&mut self, l: Rc<Layout>, p: &ast::Param) -> Binding {
        let fresh = self.new_struct(&p.name.name, &l, p.name.span);
        for (k, var) in fresh.pointer_vars() {
            let pm = l.pointer_leaf(k).expect("checked: a pointer leaf");
            let i = self.leaf_pointers[&var];
            let pv = &mut self.ptr_vars[i as usize];
            pv.assigned = true;
            pv.mem = Some(Mem {
                space: Space::Global(u32::MAX),
                elem: pm.pointee.0,
                width: pm.pointee.1,
            });
        }
        let b = self.bind_struct(fresh);
        self.mark_const(&b, p.ty.is_const);
        b
    }

    /// Where a struct-returning function's `return` puts its value.
    pub(crate) fn struct_ret_slot(&mut self, f: &ast::Function) -> Option<Result<RetShape>> {
        if f.ret.pointer {
            return None;
        }
        let l = match self.layout_of(&f.ret)? {
            Ok(l) => l,
            Err(e) => return Some(Err(e)),
        };
        let p = self.new_struct(&format!("{}()", f.name.name), &l, f.name.span);
        let Binding::Struct(i) = self.bind_struct(p) else {
            unreachable!("checker: a struct binding")
        };
        Some(Ok(RetShape::Struct(i)))
    }

    /// `cg::reduce(tile, v, f)` of a struct `v` with a `__device__` function `f(a, b)`: the
    /// butterfly of `__shfl_xor_sync` on each leaf, combined by `f`.
    fn reduce(
        &mut self,
        args: &[ast::Expr],
        l: &Rc<Layout>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        let Some(super::groups::Group::Tile(n)) = self.group(&args[0])? else {
            return Err(unsupported(
                "`cg::reduce` over this group".into(),
                args[0].span,
                "reduce over a warp tile: `cg::tiled_partition<32>(block)`",
            ));
        };
        let f = match &args[2].kind {
            ast::ExprKind::Name(name) => self.globals.functions.get(name.as_str()).copied(),
            _ => None,
        };
        let Some(f) = f else {
            return Err(unsupported(
                format!("`cg::reduce` of a `{}` with this operation", l.name),
                args[2].span,
                "pass a `__device__` function that combines two values: `cg::reduce(warp, v, combine)`",
            ));
        };
        let acc = self.new_struct("reduce()", l, span);
        let values = self.struct_value(&args[1], l, out)?;
        self.writes(&acc, values, span, out)?;
        let other = self.new_struct("reduce().other", l, span);
        // The inlined function sees the two values through names no kernel can write.
        self.scopes.push(HashMap::new());
        let a = self.bind_struct(acc.clone());
        let b = self.bind_struct(other.clone());
        let ident = |name: &str| ast::Ident {
            name: name.into(),
            span,
        };
        self.declare(&ident("reduce()#a"), a);
        self.declare(&ident("reduce()#b"), b);
        let names = [
            ast::Expr {
                kind: ast::ExprKind::Name("reduce()#a".into()),
                span,
            },
            ast::Expr {
                kind: ast::ExprKind::Name("reduce()#b".into()),
                span,
            },
        ];
        let result = (|| {
            let mut offset = n / 2;
            while offset > 0 {
                for k in 0..l.leaves.len() {
                    let src = self.leaf(&acc, k, span)?;
                    let value = self.read(src, span);
                    let arg = constant(Value::U32(offset), span);
                    let moved =
                        self.tile_shuffle(n, crate::value::ShflKind::Xor, value, arg, span)?;
                    let dst = self.leaf(&other, k, span)?;
                    out.push(self.write(dst, moved, span)?);
                }
                let call = self.inline_call(f, (&[], &names), span, false)?;
                let combined = self.returned(call, l, span, out)?;
                self.writes(&acc, combined, span, out)?;
                offset /= 2;
            }
            self.reads(&acc, span)
        })();
        self.scopes.pop();
        result
    }

    /// `P::n`: a static member of a struct, or of a trait without data members
    /// (`num_elems<float2>::value`, `int_constant<4>::value`).
    /// An instance no specialisation (or more than one) fits is an error of its own.
    pub(crate) fn static_member(&mut self, name: &str, span: Span) -> Option<Result<Value>> {
        let (ty, member) = name.rsplit_once("::")?;
        // A class simt cannot lay out (paracrypt's `BlockCipher`, full of host virtual members)
        // still has its constants and enumerators (`BlockCipher::CTR`): read from its
        // definition, the class refused only where it is used as a value.
        let refused = match self.struct_def_of(ty, span) {
            Some(Ok(found)) if self.globals.structs[found.0].unsupported.is_some() => Some(found),
            _ => None,
        };
        if refused.is_none() {
            if let Some(l) = self.layout_named(ty, span) {
                let l = match l {
                    Ok(l) => l,
                    Err(e) if chooses_nothing(&e) => return Some(Err(e)),
                    Err(_) => return None,
                };
                return l
                    .statics
                    .iter()
                    .find(|(n, _)| n == member)
                    .map(|(_, v)| Ok(*v));
            }
        }
        let (def, bindings) = match refused.map(Ok).or_else(|| self.struct_def_of(ty, span))? {
            Ok(found) => found,
            Err(e) if chooses_nothing(&e) => return Some(Err(e)),
            Err(_) => return None,
        };
        match self.static_values((def, &bindings), (ty, span), Some(member)) {
            Ok(values) => values
                .into_iter()
                .find(|(n, _)| n.name == member)
                .map(|(_, v)| Ok(v)),
            Err(e) => Some(Err(e)),
        }
    }

    /// The static members of the struct `def` with the template arguments `bindings` (the type
    /// `ty` names, where `span` is), in order up to `until` (all where `None`), each evaluated
    /// with the ones before it in scope; the first one that is not a constant ends the list.
    /// Instantiating too deep is the error.
    pub(crate) fn static_values(
        &mut self,
        (def, bindings): (usize, &Bindings),
        (ty, span): (&str, Span),
        until: Option<&str>,
    ) -> Result<Vec<(ast::Ident, Value)>> {
        // A static member defined by another instance's (`Pow2<N - 1>::value`) recurses.
        if self.static_depth >= STATIC_DEPTH {
            return Err(unsupported(
                format!("instantiating `{ty}` more than {STATIC_DEPTH} levels deep"),
                span,
                "give the recursion a base case: an explicit specialisation that ends it, such as `template <> struct Pow2<0> { ... };`",
            ));
        }
        let d = &self.globals.structs[def];
        self.static_depth += 1;
        self.scopes.push(HashMap::new());
        let mut found = Vec::new();
        let mut deep = None;
        for f in d.fields.iter().filter(|f| f.is_static) {
            let mut ty = f.ty.clone();
            bindings.ty(&mut ty);
            // `auto` (or a base trait's `value`) has its initialiser's type.
            // A static member of a class type declared without a value (`static const
            // std::string kMetaFile;`) is no constant here; the members after it may be.
            let scalar = match ty.base {
                ast::BaseType::Auto => None,
                _ => match super::scalar_of(&ty) {
                    Ok(s) => Some(s),
                    Err(_) if declared_only(f) && self.names_class(&ty) => continue,
                    Err(_) => break,
                },
            };
            let Some(init) = &f.init else { break };
            let mut init = init.clone();
            bindings.expr(&mut init);
            let value = match self.constant_expr(&init) {
                Ok(value) => value,
                Err(e) => {
                    // Too deep a recursion is the error; any other leaves the name unknown.
                    if matches!(&e, CheckError::Unsupported { what, .. } if what.contains(" levels deep"))
                    {
                        deep = Some(e);
                    }
                    break;
                }
            };
            let value = match scalar {
                Some(s) => self.convert(value, s),
                None => value,
            };
            let ExprKind::Const(v) = value.kind else {
                break;
            };
            self.declare(&f.name, Binding::Constant(v, scalar.unwrap_or(v.ty())));
            found.push((f.name.clone(), v));
            if until == Some(f.name.name.as_str()) {
                break;
            }
        }
        self.scopes.pop();
        self.static_depth -= 1;
        match deep {
            Some(e) => Err(e),
            None => Ok(found),
        }
    }

    /// The names a struct type's template arguments are written with in `pattern` (`Pair<T>`,
    /// `Array<T, N>`), each with the type or value that struct `l` binds at its position.
    pub(crate) fn struct_arguments(
        &self,
        l: &Layout,
        pattern: &str,
    ) -> Vec<(String, ast::TemplateArg)> {
        let Some((def, bindings)) = &l.def else {
            return Vec::new();
        };
        let d = &self.globals.structs[*def];
        let (Some(base), Some(args)) = (pattern.split('<').next(), pattern.find('<')) else {
            return Vec::new();
        };
        if super::groups::unqualified(base) != d.name.name {
            return Vec::new();
        }
        let inner = pattern[args + 1..].trim_end_matches('>');
        let written = inner.split(',').map(|w| w.trim().to_string());
        // A specialisation's arguments are the ones written after its name, its own
        // parameters in place (`V<float>` of `template <> class V<float>`, `A<int, 4>` of
        // `template <class T> struct A<T, 4>` for T = int).
        if let Some(spec) = super::template::spec_args(&d.spec) {
            return written
                .zip(spec)
                .map(|(w, mut arg)| {
                    match &mut arg {
                        ast::TemplateArg::Type(t) => bindings.ty(t),
                        ast::TemplateArg::Value(e) => match &e.kind {
                            ast::ExprKind::Name(n) if bindings.types.contains_key(n) => {
                                arg = ast::TemplateArg::Type(bindings.types[n].clone());
                            }
                            _ => bindings.expr(e),
                        },
                    }
                    (w, arg)
                })
                .collect();
        }
        written
            .zip(&d.template)
            .filter_map(|(written, param)| {
                let n = &param.name.name;
                let arg = match (bindings.types.get(n), bindings.values.get(n)) {
                    (Some(ty), _) => ast::TemplateArg::Type(ty.clone()),
                    (None, Some(e)) => ast::TemplateArg::Value(e.clone()),
                    (None, None) => return None,
                };
                Some((written, arg))
            })
            .collect()
    }

    /// Whether `f` returns a struct with data members.
    pub(crate) fn returns_struct(&mut self, f: &ast::Function) -> bool {
        !f.ret.pointer && self.layout_of(&f.ret).is_some()
    }

    /// `sizeof` of a struct type or of a struct-typed expression.
    pub(crate) fn struct_size(&mut self, e: &ast::Expr) -> Option<u64> {
        self.struct_of(e).map(|l| u64::from(l.size))
    }
}

/// The key a struct type's layout is kept under: its name as written without spaces,
/// qualified names by their last part (`thrust::complex<float>` is `complex<float>`).
fn layout_key(text: &str) -> String {
    let key: String = text.split_whitespace().collect();
    let head = key.find('<').unwrap_or(key.len());
    match key[..head].rfind("::") {
        Some(at) => key[at + 2..].to_string(),
        None => key,
    }
}

/// The symbol of a prefix operator a struct may overload.
fn unary_symbol(op: UnOp) -> Option<&'static str> {
    match op {
        UnOp::Neg => Some("-"),
        UnOp::Plus => Some("+"),
        UnOp::Not => Some("!"),
        UnOp::BitNot => Some("~"),
        UnOp::Deref | UnOp::AddrOf => None,
    }
}

/// A union's member before the union is laid out: with its leaves (offsets from its start), its
/// size and where it is declared.
#[derive(Debug)]
struct Overlaid {
    member: Member,
    leaves: Vec<(Scalar, u32)>,
    size: u32,
}

/// A union's members laid over one another: the first largest is its storage (its leaves are
/// the union's); every other one is a view, whose leaves coincide with storage leaves of the
/// same size, or split or join them. Returns the first member when it is not the storage, and
/// whether some view splits or joins.
fn union_storage(
    overlaid: Vec<Overlaid>,
    members: &mut Vec<Member>,
    views: &mut Vec<Member>,
    leaves: &mut Vec<(Scalar, u32)>,
) -> (Option<String>, bool) {
    let Some(big) = overlaid.iter().map(|o| o.size).max() else {
        return (None, false);
    };
    let at = overlaid
        .iter()
        .position(|o| o.size == big)
        .expect("checked: a largest member");
    let init_view = (at != 0).then(|| overlaid[0].member.name.clone());
    *leaves = overlaid[at].leaves.clone();
    let mut split = false;
    for (k, o) in overlaid.into_iter().enumerate() {
        let (m, sub) = (o.member, o.leaves);
        if k == at {
            members.push(m);
            continue;
        }
        let first = leaves.iter().position(|l| l.1 == sub[0].1);
        let fits = first.is_some_and(|first| {
            sub.iter().enumerate().all(|(j, (s, o))| {
                leaves
                    .get(first + j)
                    .is_some_and(|(t, p)| p == o && t.size() == s.size())
            })
        });
        // A view that splits or joins the storage's scalars (`half2` of a `uint32_t`) reads
        // the union's bytes in memory, never its leaves in registers.
        split |= !fits;
        views.push(Member {
            first: first.filter(|_| fits).unwrap_or(0),
            ..m
        });
    }
    (init_view, split)
}

/// The members of a union's anonymous structs (`union { struct { float x, y; }; float v[2]; }`,
/// a C11 and compiler extension of C++): views of the union, each where its struct puts it.
/// `anonymous` names the members that stand for them among the union's `members` and `views`.
fn anonymous_members(anonymous: &[&str], members: &[Member], views: &[Member]) -> Vec<Member> {
    let mut out = Vec::new();
    for m in members.iter().chain(views) {
        if let (true, MemberKind::Compound(s)) = (anonymous.contains(&m.name.as_str()), &m.kind) {
            out.extend(s.members.iter().chain(&s.views).map(|i| Member {
                name: i.name.clone(),
                first: m.first + i.first,
                offset: m.offset + i.offset,
                kind: i.kind.clone(),
            }));
        }
    }
    out
}

/// Whether a layout has an array among its members or a union's views (at any depth).
fn has_array(l: &Layout) -> bool {
    l.array
        || l.members.iter().chain(&l.views).any(|m| match &m.kind {
            MemberKind::Compound(sub) => has_array(sub),
            MemberKind::Scalar(_) | MemberKind::Pointer(_) => false,
        })
}

/// Whether a file overloads an operator (`operator+`, not the conversion `operator T*`), as a
/// `__device__` function or a member function.
pub(crate) fn overloads_operators(module: &ast::Module) -> bool {
    let overloads = |f: &ast::Function| {
        f.name.name.len() > "operator".len() && f.name.name.starts_with("operator")
    };
    module.device_fns.iter().any(overloads)
        || module
            .structs
            .iter()
            .any(|d| d.methods.iter().any(overloads))
}

/// Whether a struct holds data (or members simt refuses), not only functions.
pub(crate) fn has_data(d: &ast::StructDef) -> bool {
    d.unsupported.is_some() || d.fields.iter().any(|f| !f.is_static)
}

/// The struct a single-struct array (`__shared__ P s;`, `__constant__ P c;`) holds.
pub(crate) fn scalar_place(layout: Rc<Layout>, mem: Mem, span: Span) -> StructPlace {
    StructPlace {
        layout,
        home: Home::Mem {
            mem: Mem { width: 1, ..mem },
            at: constant(Value::I64(0), span),
            pointers: Vec::new(),
        },
    }
}

/// The name of leaf `k` below a layout (`a.x`, `e[2]`, `m[1][0].y`).
/// Component index `at` of `mem` as an index of `elem`s, where the memory holds a struct's bytes
/// and `elem` is wider (a free rescale; C's alignment makes it exact).
fn in_units(at: Expr, elem: Scalar, mem: Mem, span: Span) -> Expr {
    match elem.size() / mem.elem.size() {
        1 => at,
        k => Expr {
            kind: ExprKind::Rescale {
                value: Box::new(at),
                from: mem.elem.size(),
                to: k * mem.elem.size(),
                size: mem.elem.size(),
                space: mem.space,
            },
            ty: Scalar::I64,
            span,
        },
    }
}

fn leaf_name(l: &Layout, k: usize) -> String {
    let m = l
        .members
        .iter()
        .rev()
        .find(|m| m.first <= k)
        .expect("checker: every leaf belongs to a member");
    let own = if l.array {
        format!("[{}]", m.name)
    } else {
        m.name.clone()
    };
    match &m.kind {
        MemberKind::Scalar(_) | MemberKind::Pointer(_) => own,
        MemberKind::Compound(sub) => {
            let rest = leaf_name(sub, k - m.first);
            // An anonymous struct or union's members are named as the enclosing one's.
            if m.name.starts_with(ast::ANONYMOUS_MEMBER) {
                return rest;
            }
            let dot = if rest.starts_with('[') { "" } else { "." };
            format!("{own}{dot}{rest}")
        }
    }
}

/// The variable an assignment target starts from (`v` of `v.a.x`).
fn root_name(e: &ast::Expr) -> String {
    match &e.kind {
        ast::ExprKind::Name(n) => n.clone(),
        ast::ExprKind::Member { base, .. } | ast::ExprKind::Index { base, .. } => root_name(base),
        _ => String::new(),
    }
}

/// Whether `e` may read the variable `name` (conservatively: any form not looked into may).
fn mentions(e: &ast::Expr, name: &str) -> bool {
    crate::stack::grow(|| mentions_at(e, name))
}

fn mentions_at(e: &ast::Expr, name: &str) -> bool {
    use ast::ExprKind as K;
    match &e.kind {
        K::Name(n) => n == name,
        K::Int { .. } | K::Float { .. } | K::Bool(_) | K::Str(_) | K::SizeOfType(_) => false,
        K::Unary { operand: a, .. } | K::Cast { expr: a, .. } | K::Member { base: a, .. } => {
            mentions(a, name)
        }
        K::Binary { lhs, rhs, .. }
        | K::Index {
            base: lhs,
            index: rhs,
        } => mentions(lhs, name) || mentions(rhs, name),
        K::Ternary { cond, then, els } => {
            mentions(cond, name) || mentions(then, name) || mentions(els, name)
        }
        K::List(items) | K::Call { args: items, .. } => items.iter().any(|a| mentions(a, name)),
        _ => true,
    }
}

fn not_a_place(span: Span) -> CheckError {
    CheckError::NotAssignable {
        what: "a struct value that is not a variable or an element".into(),
        span,
        help: Some("copy it into a variable first".into()),
    }
}

fn not_scalar(l: &Layout, field: &str, span: Span) -> CheckError {
    CheckError::NotAValue {
        subject: format!("`{field}` of `{}`", l.name),
        what: "a member of several values".into(),
        wanted: "a scalar",
        span,
        help: Some("use one of its own members, or copy it into a variable of its type".into()),
    }
}

fn dynamic_index(span: Span) -> CheckError {
    unsupported(
        "a run-time index into an array member of a struct kept in registers".into(),
        span,
        "simt keeps this struct (or the pointers in the array's elements) in registers, where every index must be known: index it with a constant, or keep the array in a local array of its own",
    )
}

/// `call` run after the statements `before` (nothing to wrap when there are none), as one
/// inlined expression with `call`'s value.
fn after(mut before: Vec<Stmt>, call: Expr, name: &str, span: Span) -> Expr {
    if before.is_empty() {
        return call;
    }
    let ty = call.ty;
    let result = match &call.kind {
        ExprKind::Inline { result, .. } => *result,
        _ => None,
    };
    before.push(Stmt {
        kind: StmtKind::Eval(call),
        span,
    });
    Expr {
        kind: ExprKind::Inline {
            name: name.to_string(),
            body: before,
            result,
        },
        ty,
        span,
    }
}

/// The offset a null pointer member holds.
fn null_offset(span: Span) -> Expr {
    super::pointer::null(span).offset
}

/// Whether computing `e` again has no effect and reads no memory: arithmetic on variables and
/// constants, which a place's members may each repeat.
fn is_plain(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Builtin(_) | ExprKind::ParamBase(_) => {
            true
        }
        ExprKind::Neg(a) | ExprKind::Widen(a) | ExprKind::Cast { operand: a, .. } => is_plain(a),
        ExprKind::Rescale { value, .. } => is_plain(value),
        ExprKind::Arith { lhs, rhs, .. } => is_plain(lhs) && is_plain(rhs),
        _ => false,
    }
}

/// The local a function returns by name from each of its `return`s, where it declares that
/// local itself as an object (not a reference): the named return value compilers elide.
pub(crate) fn named_result(body: &[ast::Stmt]) -> Option<String> {
    fn returns<'b>(s: &'b ast::Stmt, out: &mut Vec<&'b ast::Expr>) {
        match &s.kind {
            ast::StmtKind::Return(Some(v)) => out.push(v),
            ast::StmtKind::Block(inner) => inner.iter().for_each(|s| returns(s, out)),
            ast::StmtKind::If { then, els, .. } => {
                returns(then, out);
                if let Some(e) = els {
                    returns(e, out);
                }
            }
            ast::StmtKind::For { body, .. }
            | ast::StmtKind::While { body, .. }
            | ast::StmtKind::DoWhile { body, .. } => returns(body, out),
            ast::StmtKind::RangeFor {
                array,
                class,
                pointer,
                ..
            } => {
                returns(array, out);
                returns(class, out);
                returns(pointer, out);
            }
            _ => {}
        }
    }
    let mut all = Vec::new();
    body.iter().for_each(|s| returns(s, &mut all));
    let ast::ExprKind::Name(n) = &all.first()?.kind else {
        return None;
    };
    let same = all
        .iter()
        .all(|v| matches!(&v.kind, ast::ExprKind::Name(m) if m == n));
    (same && declared(body, n).is_some()).then(|| n.clone())
}

/// The value of the first `return` in `body`, in the order the statements are written.
fn first_return(body: &[ast::Stmt]) -> Option<&ast::Expr> {
    body.iter().find_map(returned_by)
}

/// The value of the first `return` in `s`.
fn returned_by(s: &ast::Stmt) -> Option<&ast::Expr> {
    match &s.kind {
        ast::StmtKind::Return(Some(v)) => Some(v),
        ast::StmtKind::Block(inner) => first_return(inner),
        ast::StmtKind::If { then, els, .. } => {
            returned_by(then).or_else(|| els.as_deref().and_then(returned_by))
        }
        _ => None,
    }
}

/// The type a local `name` is declared with in `body`, and its initialiser, if `body` declares
/// it (neither a pointer nor a reference).
fn declared<'b>(
    body: &'b [ast::Stmt],
    name: &str,
) -> Option<(&'b ast::TypeName, Option<&'b ast::Expr>)> {
    body.iter().find_map(|s| match &s.kind {
        ast::StmtKind::Decl {
            ty,
            decls,
            of: None,
        } => decls
            .iter()
            .find(|d| d.name.name == name && !d.pointer && !d.reference)
            .map(|d| (ty, d.init.as_ref())),
        ast::StmtKind::Block(inner) => declared(inner, name),
        _ => None,
    })
}

/// `Array<uint16_t, 4>` as `Array<unsigned short, 4>`: each template argument that spells a
/// scalar type by another name (`uint16_t`, `ushort`, `unsigned short int`) by its C name, at
/// any depth, so that one type has one layout however its arguments are written.
fn canonical_targs(text: &str) -> String {
    let (Some(open), Some(close)) = (text.find('<'), text.rfind('>')) else {
        return text.to_string();
    };
    if close < open {
        return text.to_string();
    }
    let args: Vec<String> = crate::syntax::top_level_args(&text[open..=close])
        .into_iter()
        .map(|a| {
            let spelled = a.split_whitespace().collect::<Vec<_>>().join(" ");
            match super::scalar_of_base(&ast::TypeName {
                base: crate::syntax::base_type(&spelled),
                ..ast::TypeName::named(spelled.clone(), Span::default())
            }) {
                Ok(s) if !spelled.contains('<') => s.c_name().to_string(),
                _ => canonical_targs(&spelled),
            }
        })
        .collect();
    format!(
        "{}<{}>{}",
        &text[..open],
        args.join(","),
        &text[close + 1..]
    )
}

/// A class's name without its namespace and template arguments (`P` of `ns::P<float>`).
fn class(t: &str) -> &str {
    let bare = t.split('<').next().unwrap_or(t);
    bare.rsplit("::").next().unwrap_or(bare)
}

/// Whether constructor `c` of class `d` is its copy (or move) constructor: not a template, one
/// parameter, of the class itself (`P(const P&)`, `P(const P<T>&)` in `template <class T>`,
/// `P(P&&)`); `template <class U> P(const P<U>&)` converts another instance.
fn copies(c: &ast::Function, d: &ast::StructDef) -> bool {
    let own = d
        .template
        .iter()
        .map(|p| p.name.name.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let name = &d.name.name;
    let written = |t: &str| t.split_whitespace().collect::<String>();
    c.template.is_empty()
        && matches!(&c.params[..], [p] if !p.ty.pointer && !p.moves
            && (written(&p.ty.base_text) == *name
                || written(&p.ty.base_text) == format!("{name}<{own}>")))
}

/// Whether a static member is declared without a value (`static const std::string name;`,
/// which the builder gives static storage's `= {}`).
fn declared_only(f: &ast::Field) -> bool {
    f.init
        .as_ref()
        .is_none_or(|e| matches!(&e.kind, ast::ExprKind::List(items) if items.is_empty()))
}

/// Whether `e` is the target of a constructor's initialiser `: x(a)`: `this.x`, a form no
/// source can write (`this` is a pointer), which the builder makes for it.
fn is_member_init(e: &ast::Expr) -> bool {
    matches!(&e.kind, ast::ExprKind::Member { base, .. }
        if matches!(&base.kind, ast::ExprKind::Name(n) if n == "this"))
}

/// The member `m` of the struct or array `e` as an expression: `e.m` or `e[k]`.
fn member_of(e: &ast::Expr, m: &Member, array: bool) -> ast::Expr {
    let base = Box::new(e.clone());
    let kind = match m.name.parse::<i64>() {
        Ok(k) if array => ast::ExprKind::Index {
            base,
            index: Box::new(super::template::int_expr(k, e.span)),
        },
        _ => ast::ExprKind::Member {
            base,
            field: ast::Ident {
                name: m.name.clone(),
                span: e.span,
            },
        },
    };
    ast::Expr { kind, span: e.span }
}

/// Whether the copy constructor `c` of `d` copies each data member from the same member of its
/// parameter and does nothing else (`: x(o.x), y(o.y) {}` or `{ x = o.x; this->y = o.y; }`),
/// as the implicit copy constructor does.
fn member_wise(c: &ast::Function, d: &ast::StructDef) -> bool {
    let from = &c.params[0].name.name;
    let target = |e: &ast::Expr| match &e.kind {
        ast::ExprKind::Name(n) => Some(n.clone()),
        ast::ExprKind::Member { base, field } => match &base.kind {
            ast::ExprKind::Name(t) if t == "this" => Some(field.name.clone()),
            ast::ExprKind::Unary {
                op: ast::UnOp::Deref,
                operand,
            } if matches!(&operand.kind, ast::ExprKind::Name(t) if t == "this") => {
                Some(field.name.clone())
            }
            _ => None,
        },
        _ => None,
    };
    let mut copied = Vec::new();
    for s in &c.body {
        let ast::StmtKind::Assign {
            target: t,
            op: None,
            value,
            ..
        } = &s.kind
        else {
            return false;
        };
        let ast::ExprKind::Member { base, field } = &value.kind else {
            return false;
        };
        let same = matches!(&base.kind, ast::ExprKind::Name(n) if n == from)
            && target(t).as_ref() == Some(&field.name);
        if !same {
            return false;
        }
        copied.push(field.name.as_str());
    }
    let mut members: Vec<&str> = d
        .fields
        .iter()
        .filter(|f| !f.is_static)
        .map(|f| f.name.name.as_str())
        .collect();
    copied.sort_unstable();
    members.sort_unstable();
    d.base.is_none() && copied == members
}

/// `V<>` or `V<float>` of `template <class T = double, int N = 4> struct V` with the arguments
/// its defaults give written out (`V<double,4>`, `V<float,4>`): one instance, one name, so that
/// `V<>` and `V<double>` are one type. `key` as it is when a default is not known as text.
fn with_defaults(key: String, d: &ast::StructDef, b: &super::template::Bindings) -> String {
    let Some(open) = key.find('<') else {
        return key;
    };
    if !d.spec.is_empty() || !key.ends_with('>') {
        return key;
    }
    let mut args = crate::syntax::top_level_args(&key[open..]);
    args.retain(|a| !a.is_empty());
    if args.len() >= d.template.len() || d.template.iter().any(|p| p.pack) {
        return key;
    }
    for p in &d.template[args.len()..] {
        let name = p.name.name.as_str();
        let text = match &p.kind {
            ast::TemplateParamKind::Type(_) => b
                .types
                .get(name)
                .map(|t| super::template::type_key(t, t.pointer)),
            ast::TemplateParamKind::Value(t, _) => {
                let v = b.values.get(name).and_then(super::specialise::fold);
                // As a `bool` argument is written: `V<float, true>`.
                match t.base {
                    BaseType::Bool => v.map(|v| (v != 0).to_string()),
                    _ => v.map(|v| v.to_string()),
                }
            }
            _ => None,
        };
        match text {
            Some(t) => args.push(t),
            None => return key,
        }
    }
    format!("{}<{}>", &key[..open], args.join(","))
}
