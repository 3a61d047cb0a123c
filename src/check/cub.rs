//! CUB's warp and block reductions, checked into the shuffles, shared-memory accesses and barrier CUB builds them from.

// `cub::WarpReduce<T, L>` is CUB's `WarpReduceShfl`: log2(L) steps of `shfl.down` by 1, 2, 4, …
// each followed by the combine, so lane 0 of each logical warp ends with the aggregate (the other
// lanes hold partial values, as on the GPU); its TempStorage holds nothing. With `valid_items`,
// a step adds only where its source lane is below `valid_items`. `cub::BlockReduce<T, X,
// BLOCK_REDUCE_WARP_REDUCTIONS, Y, Z>` (the default algorithm) reduces each warp so, lane 0 of
// each warp stores its warp's aggregate into the TempStorage, `__syncthreads()`, and thread 0
// adds the other warps' aggregates in warp order: the result is thread 0's; every other thread
// keeps its own warp's partial value.

pub(crate) use super::cub_raking::RakingLayout;
use super::cub_reduce_raking::ReduceAlg;
use super::expr::{constant, load};
use super::groups::unqualified;
use super::typed::*;
use super::{Binding, CheckError, KernelChecker};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp};
use crate::value::{ArithOp, Scalar, ShflKind, Value};

type Result<T> = std::result::Result<T, CheckError>;

/// The CUB collectives simt models.
pub(super) const HAVE: &str = "simt has cub::WarpReduce<T, LOGICAL_WARP_THREADS> and cub::BlockReduce<T, BLOCK_DIM_X, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> (BLOCK_REDUCE_WARP_REDUCTIONS, the default, BLOCK_REDUCE_RAKING or BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY; the raking ones for blocks of whole warps or one logical warp of 1 to 32 threads, a power of two) with Sum(v), Sum(v, valid_items), Reduce(v, op) and Reduce(v, op, valid_items), op being cub::Sum(), cub::Max(), cub::Min(), cuda::std::plus<>{}, cuda::maximum<>{}, cuda::minimum<>{} or a functor or lambda variable, and Reduce of a struct item: cub::KeyValuePair<K, V> with cub::ArgMax() or cub::ArgMin(), or a struct of scalars with a function object, a lambda (a variable or written in the call) or a __device__ function; cub::WarpScan<T, LOGICAL_WARP_THREADS> with InclusiveSum(in, out), ExclusiveSum(in, out), each also with a warp_aggregate out-parameter, InclusiveScan(in, out, op), ExclusiveScan(in, out, op), each also with an initial value before op and a warp_aggregate after it; cub::BlockScan<T, BLOCK_DIM_X, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> (BLOCK_SCAN_RAKING, the default, BLOCK_SCAN_RAKING_MEMOIZE, or BLOCK_SCAN_WARP_SCANS of whole warps) with the same members on one item or a thread's items array T items[N] (block_aggregate for warp_aggregate; InclusiveScan without an initial value); cub::BlockLoad<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> with Load(ptr, items), Load(ptr, items, valid_items) and Load(ptr, items, valid_items, oob_default), and cub::BlockStore<...> with Store(ptr, items) and Store(ptr, items, valid_items), for the DIRECT, STRIPED, TRANSPOSE, WARP_TRANSPOSE and VECTORIZE algorithms";

/// Which collective a CUB class is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `cub::WarpReduce<T, L>`: `L` lanes (a power of two up to 32).
    WarpReduce(u32),
    /// `cub::BlockReduce<T, X, ALGORITHM, Y, Z>`: the block's shape and the algorithm.
    BlockReduce([u32; 3], ReduceAlg),
    /// `cub::WarpScan<T, L>`: `L` lanes (a power of two up to 32).
    WarpScan(u32),
    /// `cub::BlockScan<T, X, ALGORITHM, Y, Z>`: the block's shape and the algorithm.
    BlockScan([u32; 3], ScanAlg),
    /// `cub::BlockLoad<T, X, ITEMS_PER_THREAD, ALGORITHM, Y, Z>`.
    BlockLoad(Io),
    /// `cub::BlockStore<T, X, ITEMS_PER_THREAD, ALGORITHM, Y, Z>`.
    BlockStore(Io),
}

impl Kind {
    /// The block shape a block collective computes its threads' ranks from.
    pub(crate) fn block_shape(self) -> Option<[u32; 3]> {
        match self {
            Kind::WarpReduce(_) | Kind::WarpScan(_) => None,
            Kind::BlockReduce(d, _) | Kind::BlockScan(d, _) => Some(d),
            Kind::BlockLoad(io) | Kind::BlockStore(io) => Some(io.dims),
        }
    }
}

/// `BLOCK_SCAN_*`: how a BlockScan combines its warps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScanAlg {
    /// Each warp scans with shuffles; warp totals meet in shared memory (whole warps only).
    WarpScans,
    /// Items placed in a padded shared grid, raked serially by one warp (CUB's default);
    /// `memoize` keeps the raked segment in registers instead of reading it again.
    Raking { memoize: bool },
}

/// A `BlockLoad` or `BlockStore` specialisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Io {
    /// The block's shape.
    pub dims: [u32; 3],
    /// `ITEMS_PER_THREAD`.
    pub items: u32,
    /// How the tile is moved.
    pub alg: IoAlg,
}

/// `BLOCK_LOAD_*` / `BLOCK_STORE_*`: the arrangement the global accesses use and the shared
/// exchange that turns it into (or out of) the blocked one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IoAlg {
    /// Blocked accesses, no exchange.
    Direct,
    /// Striped accesses, no exchange (the items stay striped).
    Striped,
    /// Striped accesses and a block-wide exchange through shared memory (`__syncthreads()`).
    Transpose,
    /// Warp-striped accesses and a per-warp exchange through shared memory (`__syncwarp()`).
    WarpTranspose,
    /// Blocked accesses, no exchange; a full tile (no `valid_items`) is read or written with
    /// vector accesses (`cub_io::io_vectors`), and a partial one item by item, as `Direct`
    /// (CUB's `LoadDirectBlocked` / `StoreDirectBlocked` fallback).
    Vectorize,
}

impl Io {
    /// Threads of the block.
    pub(crate) fn threads(self) -> u32 {
        self.dims[0] * self.dims[1] * self.dims[2]
    }

    /// Whether the algorithm exchanges through its TempStorage.
    pub(crate) fn exchanges(self) -> bool {
        matches!(self.alg, IoAlg::Transpose | IoAlg::WarpTranspose)
    }

    /// BlockExchange pads its buffer by one item per 32 when ITEMS_PER_THREAD is a power of two
    /// above 4 (`INSERT_PADDING`), against bank conflicts.
    pub(crate) fn padded(self) -> bool {
        self.items > 4 && self.items.is_power_of_two()
    }
}

/// A CUB class specialised for an element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Class {
    /// Which collective.
    pub kind: Kind,
    /// Its item type: a scalar, or bytes standing for the struct `record` names.
    pub elem: Scalar,
    /// A struct item type as written (`cub::KeyValuePair<int, float>`), which a reduction
    /// combines member by member; `None` for a scalar.
    pub record: Option<String>,
    /// The class as written (`cub::WarpReduce<float>`), for messages.
    pub name: String,
}

impl Class {
    /// Elements of `elem` one TempStorage of scalar items holds: a block reduction's warp aggregates and CUB's
    /// block prefix; the shuffle-based warp reduction's is an empty placeholder (one element).
    fn storage_len(&self) -> u64 {
        match self.kind {
            Kind::WarpReduce(_) | Kind::WarpScan(_) => 1,
            // BlockScanWarpScans: `warp_aggregates[WARPS]`, the shuffle scans' empty storages
            // and `block_prefix`.
            Kind::BlockReduce(d, ReduceAlg::WarpReductions)
            | Kind::BlockScan(d, ScanAlg::WarpScans) => u64::from(warps(d)) + 1,
            Kind::BlockReduce(d, _) => u64::from(ReduceAlg::storage_items(d, self.elem.size())),
            Kind::BlockScan(d, ScanAlg::Raking { .. }) => {
                u64::from(RakingLayout::new(d, self.elem).storage_len)
            }
            // BlockExchange's `buff[TILE_ITEMS + PADDING_ITEMS]`; the direct algorithms'
            // TempStorage is CUB's `NullType` (a placeholder element, never touched).
            Kind::BlockLoad(io) | Kind::BlockStore(io) if io.exchanges() => {
                let tile = u64::from(io.threads() * io.items);
                tile + if io.padded() { tile >> 5 } else { 0 }
            }
            Kind::BlockLoad(_) | Kind::BlockStore(_) => 1,
        }
    }
}

/// Warps of a block of shape `d`.
pub(super) fn warps(d: [u32; 3]) -> u32 {
    (d[0] * d[1] * d[2]).div_ceil(32)
}

/// How a reduction combines two items.
#[derive(Clone, Debug)]
pub(super) enum Op {
    /// `cub::Sum()` (also what `Sum(v)` uses), `cub::Max()`, `cub::Min()`.
    Arith(ArithOp),
    /// A functor or lambda variable, called as `op(a, b)`, or a function object made in place
    /// (dietgpu's `ReduceXor<uint32_t>()`), called as `ReduceXor<uint32_t>()(a, b)`.
    Call(ast::Expr),
}

/// The name of a CUB class if `base` is one: `cub::WarpReduce`, or `WarpReduce` after `using
/// namespace cub;`.
fn class_base(base: &str) -> Option<&str> {
    let last = unqualified(base);
    let qualified = base
        .strip_suffix(last)
        .is_some_and(|q| q == "cub::" || q.ends_with("::cub::"));
    let cub_name = matches!(
        last,
        "WarpReduce"
            | "BlockReduce"
            | "BlockScan"
            | "WarpScan"
            | "BlockLoad"
            | "BlockStore"
            | "BlockRadixSort"
            | "BlockExchange"
            | "BlockHistogram"
            | "BlockDiscontinuity"
            | "BlockAdjacentDifference"
            | "WarpLoad"
            | "WarpStore"
            | "WarpExchange"
            | "WarpMergeSort"
            | "BlockMergeSort"
    );
    (cub_name && (qualified || base == last)).then_some(last)
}

/// The scalar a type argument spells, after template substitution.
fn scalar_named(text: &str) -> Option<Scalar> {
    let words: Vec<&str> = text.split_whitespace().filter(|w| *w != "const").collect();
    // A substituted typedef spells its tokens without spaces (`unsignedchar`).
    let spelled = match words.join(" ").as_str() {
        "unsignedchar" => "unsigned char".to_string(),
        "signedchar" => "signed char".to_string(),
        "unsignedshort" => "unsigned short".to_string(),
        "unsignedint" => "unsigned int".to_string(),
        "longlong" => "long long".to_string(),
        "unsignedlong" => "unsigned long".to_string(),
        "unsignedlonglong" => "unsigned long long".to_string(),
        other => other.to_string(),
    };
    Some(match spelled.as_str() {
        "bool" => Scalar::Bool,
        "char" | "signed char" | "int8_t" => Scalar::I8,
        "unsigned char" | "uchar" | "uint8_t" => Scalar::U8,
        "short" | "short int" | "int16_t" => Scalar::I16,
        "unsigned short" | "ushort" | "uint16_t" => Scalar::U16,
        "int" | "signed" | "signed int" | "int32_t" => Scalar::I32,
        "unsigned" | "unsigned int" | "uint" | "uint32_t" => Scalar::U32,
        "long" | "long long" | "long int" | "long long int" | "int64_t" | "ptrdiff_t" => {
            Scalar::I64
        }
        "unsigned long" | "unsigned long long" | "uint64_t" | "size_t" => Scalar::U64,
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        "half" | "__half" => Scalar::F16,
        "__nv_bfloat16" | "nv_bfloat16" => Scalar::BF16,
        _ => return None,
    })
}

/// The enumerators of CUB's algorithm enumerations, in the order simt's `<cub/...>` header
/// declares them (`headers/cub.h`).
const LOAD_ALGORITHMS: &[&str] = &[
    "BLOCK_LOAD_DIRECT",
    "BLOCK_LOAD_STRIPED",
    "BLOCK_LOAD_VECTORIZE",
    "BLOCK_LOAD_TRANSPOSE",
    "BLOCK_LOAD_WARP_TRANSPOSE",
    "BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED",
];
const STORE_ALGORITHMS: &[&str] = &[
    "BLOCK_STORE_DIRECT",
    "BLOCK_STORE_STRIPED",
    "BLOCK_STORE_VECTORIZE",
    "BLOCK_STORE_TRANSPOSE",
    "BLOCK_STORE_WARP_TRANSPOSE",
    "BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED",
];
const REDUCE_ALGORITHMS: &[&str] = &[
    "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY",
    "BLOCK_REDUCE_RAKING",
    "BLOCK_REDUCE_WARP_REDUCTIONS",
];
const SCAN_ALGORITHMS: &[&str] = &[
    "BLOCK_SCAN_RAKING",
    "BLOCK_SCAN_RAKING_MEMOIZE",
    "BLOCK_SCAN_WARP_SCANS",
];

/// An algorithm argument as written (`cub::BLOCK_SCAN_WARP_SCANS`), or as the value a template
/// parameter of the enumeration's type bound (`2`): the enumerator's name.
fn algorithm<'a>(arg: &'a str, names: &[&'a str]) -> &'a str {
    let arg = unqualified(arg);
    match arg
        .trim_start_matches('(')
        .trim_end_matches(')')
        .parse::<usize>()
    {
        Ok(k) => names.get(k).copied().unwrap_or(arg),
        Err(_) => arg,
    }
}

/// Splits `A, B<C, D>, E` at its top-level commas.
fn split_args(text: &str) -> Vec<&str> {
    // Inside parentheses `<` and `>` are comparisons (`N*((D > 0) ? 2 : 1)`), not brackets.
    let (mut out, mut depth, mut parens, mut start) = (Vec::new(), 0i32, 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => parens += 1,
            ')' => parens -= 1,
            '<' if parens == 0 => depth += 1,
            '>' if parens == 0 => depth -= 1,
            ',' if depth == 0 && parens == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

/// `cub::X<args>` as written, if `text` names a CUB class: its class or why simt has none.
pub(crate) fn class_of(text: &str, span: Span) -> Option<Result<Class>> {
    let (base, args) = match text.split_once('<') {
        Some((b, rest)) => (b.trim(), rest.strip_suffix('>')?),
        None => (text.trim(), ""),
    };
    let name = class_base(base)?;
    Some(class_from(name, text, &split_args(args), span))
}

fn class_from(name: &str, text: &str, args: &[&str], span: Span) -> Result<Class> {
    let unsupported = |what: String| CheckError::CubUnsupported {
        what,
        span,
        help: HAVE.into(),
    };
    // A struct item (resolved where the checker sees the file's structs) for the reductions;
    // the other collectives move and scan scalars only.
    let (elem, record) = match args.first().map(|a| (scalar_named(a), a)) {
        Some((Some(s), _)) => (s, None),
        Some((None, a)) if matches!(name, "WarpReduce" | "BlockReduce") => {
            (Scalar::U8, Some(a.to_string()))
        }
        _ => {
            return Err(unsupported(format!(
                "`{text}` (an item type other than a scalar)"
            )))
        }
    };
    let int = |k: usize, default: u32| -> Result<u32> {
        match args.get(k) {
            None => Ok(default),
            Some(a) => const_int(a)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| CheckError::NotConstant {
                    what: format!("`{a}`, a dimension of `{text}`,"),
                    span,
                    help: Some("CUB's dimensions are template arguments: constants".into()),
                }),
        }
    };
    let kind = match name {
        "WarpReduce" | "WarpScan" => {
            let lanes = int(1, 32)?;
            if !(lanes.is_power_of_two() && lanes <= 32) {
                return Err(unsupported(format!(
                    "`{text}` (a logical warp of {lanes} threads)"
                )));
            }
            if name == "WarpScan" {
                Kind::WarpScan(lanes)
            } else {
                Kind::WarpReduce(lanes)
            }
        }
        "BlockScan" => {
            // BlockScan's default algorithm is BLOCK_SCAN_RAKING.
            let alg = match args
                .get(2)
                .map_or("BLOCK_SCAN_RAKING", |a| algorithm(a, SCAN_ALGORITHMS))
            {
                "BLOCK_SCAN_WARP_SCANS" => ScanAlg::WarpScans,
                "BLOCK_SCAN_RAKING_MEMOIZE" => ScanAlg::Raking { memoize: true },
                _ => ScanAlg::Raking { memoize: false },
            };
            let dims = [int(1, 1)?, int(3, 1)?, int(4, 1)?];
            let threads = dims[0] * dims[1] * dims[2];
            match alg {
                ScanAlg::WarpScans if !threads.is_multiple_of(32) => {
                    return Err(CheckError::CubUnsupported {
                        what: format!("`{text}` ({threads} threads, not whole warps: CUB runs BLOCK_SCAN_RAKING for them)"),
                        span,
                        help: "simt models BLOCK_SCAN_WARP_SCANS of whole warps: make the block a multiple of 32 threads".into(),
                    });
                }
                ScanAlg::Raking { .. } if !RakingLayout::modelled(threads) => {
                    return Err(CheckError::CubUnsupported {
                        what: format!("`{text}` ({threads} threads: CUB rakes them with a guarded or shared-memory warp scan)"),
                        span,
                        help: "simt models BLOCK_SCAN_RAKING for blocks of whole warps and for one logical warp of 1, 2, 4, 8, 16 or 32 threads: make the block such a size, or name cub::BLOCK_SCAN_WARP_SCANS".into(),
                    });
                }
                _ => {}
            }
            Kind::BlockScan(dims, alg)
        }
        "BlockReduce" => {
            let dims = [int(1, 1)?, int(3, 1)?, int(4, 1)?];
            let alg = match args.get(2).map(|a| algorithm(a, REDUCE_ALGORITHMS)) {
                None => ReduceAlg::WarpReductions,
                Some(a) => ReduceAlg::named(a)
                    .ok_or_else(|| unsupported(format!("`{text}` (the algorithm `{a}`)")))?,
            };
            let threads = dims[0] * dims[1] * dims[2];
            if alg != ReduceAlg::WarpReductions && !ReduceAlg::modelled(threads) {
                return Err(CheckError::CubUnsupported {
                    what: format!("`{text}` ({threads} threads: CUB rakes them with a guarded segment or a shared-memory warp reduction)"),
                    span,
                    help: "simt models the raking BlockReduce algorithms for blocks of whole warps and for one logical warp of 1, 2, 4, 8, 16 or 32 threads: make the block such a size, or leave the algorithm out (BLOCK_REDUCE_WARP_REDUCTIONS)".into(),
                });
            }
            Kind::BlockReduce(dims, alg)
        }
        "BlockLoad" | "BlockStore" => {
            let load = name == "BlockLoad";
            let names = if load {
                LOAD_ALGORITHMS
            } else {
                STORE_ALGORITHMS
            };
            let alg = match args.get(3).map(|a| algorithm(a, names)) {
                None if load => "BLOCK_LOAD_DIRECT",
                None => "BLOCK_STORE_DIRECT",
                Some(a) => a,
            };
            let prefix = if load { "BLOCK_LOAD_" } else { "BLOCK_STORE_" };
            let alg = match alg.strip_prefix(prefix) {
                Some("DIRECT") => IoAlg::Direct,
                Some("STRIPED") => IoAlg::Striped,
                Some("TRANSPOSE") => IoAlg::Transpose,
                Some("WARP_TRANSPOSE") => IoAlg::WarpTranspose,
                Some("VECTORIZE") => IoAlg::Vectorize,
                _ => {
                    return Err(CheckError::CubUnsupported {
                        what: format!("`{text}` (the {alg} algorithm)"),
                        span,
                        help: format!("simt models {prefix}DIRECT, {prefix}STRIPED, {prefix}TRANSPOSE, {prefix}WARP_TRANSPOSE and {prefix}VECTORIZE"),
                    })
                }
            };
            if args.len() < 3 {
                return Err(unsupported(format!(
                    "`{text}` (BLOCK_DIM_X and ITEMS_PER_THREAD are needed)"
                )));
            }
            let io = Io {
                dims: [int(1, 1)?, int(4, 1)?, int(5, 1)?],
                items: int(2, 1)?,
                alg,
            };
            // CUB_STATIC_ASSERT in block_load.cuh / block_store.cuh.
            if alg == IoAlg::WarpTranspose && !io.threads().is_multiple_of(32) {
                return Err(CheckError::CubTemplate {
                    class: text.to_string(),
                    why: format!(
                        "its {} threads are not a multiple of the warp's 32",
                        io.threads()
                    ),
                    span,
                });
            }
            if load {
                Kind::BlockLoad(io)
            } else {
                Kind::BlockStore(io)
            }
        }
        _ => return Err(unsupported(format!("`cub::{name}`"))),
    };
    Ok(Class {
        kind,
        elem,
        record,
        name: text.to_string(),
    })
}

impl KernelChecker<'_, '_> {
    /// `__shared__ typename Class::TempStorage name[dims];`: a shared array of the class's items.
    pub(crate) fn declare_cub_storage(
        &mut self,
        class: Class,
        name: &ast::Ident,
        dims: &[Option<ast::Expr>],
    ) -> Result<()> {
        let mut count = 1;
        for d in dims {
            match d {
                Some(e) => count *= self.const_size(e)?,
                None => {
                    return Err(CheckError::NotConstant {
                        what: "the number of TempStorages".into(),
                        span: name.span,
                        help: Some("give the count: `[4]`".into()),
                    })
                }
            }
        }
        let (elem, len) = self.storage_shape(&class, name.span)?;
        let shared = Shared {
            name: name.name.clone(),
            elem,
            width: 1,
            dims: vec![count * len],
            is_extern: false,
            stored: elem,
            span: name.span,
            overlay: self.union_member,
        };
        let before = super::typed::static_bytes(&self.shared);
        let s = self.shared.len() as u32;
        self.shared.push(shared);
        // BlockStore's exchanging algorithms keep `volatile int valid_items` beside the buffer:
        // an `int` array of its own, always the next shared array.
        if let Kind::BlockStore(io) = class.kind {
            if io.exchanges() {
                let aux = Shared {
                    name: format!("{}.valid_items", name.name),
                    elem: Scalar::I32,
                    width: 1,
                    dims: vec![count],
                    is_extern: false,
                    stored: Scalar::I32,
                    span: name.span,
                    overlay: self.union_member,
                };
                self.shared.push(aux);
            }
        }
        self.static_smem += super::typed::static_bytes(&self.shared) - before;
        if self.static_smem > super::STATIC_SMEM_LIMIT {
            return Err(CheckError::SharedTooLarge {
                bytes: self.static_smem,
                span: name.span,
            });
        }
        self.cub_storages.insert(s, (class, !dims.is_empty()));
        self.declare(name, Binding::Shared(s));
        Ok(())
    }

    /// `__shared__ union { typename Load::TempStorage load; typename Scan::TempStorage scan; }
    /// temp;`, CUB's idiom for one block of shared memory that several collectives take turns
    /// with (a struct of them too): each member a TempStorage of its own, named `temp.load`.
    /// `None` where `ty` is no union or struct of TempStorages.
    pub(crate) fn declare_cub_union(
        &mut self,
        ty: &ast::TypeName,
        name: &ast::Ident,
        dims: &[Option<ast::Expr>],
    ) -> Option<Result<()>> {
        // One declared in a kernel template is a template of the kernel's parameters (see
        // `nest_in_function`); its members name no parameter but through the block's aliases.
        let base = ty.base_text.split('<').next().unwrap_or(&ty.base_text);
        let def = self.globals.structs.iter().find(|d| d.name.name == base)?;
        let storages = !def.fields.is_empty()
            && def
                .fields
                .iter()
                .all(|f| !f.is_static && f.ty.base_text.ends_with("::TempStorage"));
        if !storages {
            return None;
        }
        if !dims.is_empty() {
            return Some(Err(CheckError::Unsupported {
                what: "an array of unions of CUB TempStorages".into(),
                span: name.span,
                help: Some("declare one union per collective group, or an array of each TempStorage: `__shared__ typename BlockReduce::TempStorage temp[4];`".into()),
            }));
        }
        let (fields, is_union) = (def.fields.clone(), def.is_union);
        let union = self.shared.len() as u32;
        Some((|| {
            for (k, f) in fields.iter().enumerate() {
                let mut fty = f.ty.clone();
                let outer = fty.base_text.trim_end_matches("::TempStorage");
                if let Some((_, _, t)) = self.local_types.iter().rev().find(|(_, n, _)| n == outer)
                {
                    fty.base_text = format!("{}::TempStorage", t.base_text);
                }
                fty.span = f.name.span;
                let Some(class) = self.cub_storage_class(&fty) else {
                    return Err(CheckError::UnknownType {
                        name: fty.base_text.clone(),
                        span: f.ty.span,
                        suggestion: None,
                    });
                };
                let member = ast::Ident {
                    name: format!("{}.{}", name.name, f.name.name),
                    span: name.span,
                };
                let class = class?;
                // A struct's members each take their own bytes; a union's share them.
                self.union_member = is_union.then_some((union, k as u32));
                let declared = self.declare_cub_storage(class, &member, &f.dims);
                self.union_member = None;
                declared?;
            }
            Ok(())
        })())
    }

    /// The class of the collective `e` makes, from its form alone.
    pub(super) fn cub_class(&mut self, e: &ast::Expr) -> Option<Result<Class>> {
        Some(self.cub_made(e)?.0)
    }

    /// `cub::X<args>::TempStorage` (or `cub::X<args>`) with each argument that names a static
    /// member of a class (mamba's `Ktraits::kNThreads`, bound as `Traits<32>::kNThreads`) or
    /// is another constant expression (a file's `constexpr int kMaxBlockSize`, `2 * WARPS`)
    /// written as its value: CUB's dimensions are constants.
    pub(crate) fn cub_constants(&mut self, text: &str, span: Span) -> String {
        let (Some(open), Some(close)) = (text.find('<'), text.rfind('>')) else {
            return text.to_string();
        };
        let args = split_args(&text[open + 1..close]);
        if args
            .iter()
            .all(|a| const_int(a).is_some() || scalar_named(a).is_some())
        {
            return text.to_string();
        }
        let mut folded = Vec::with_capacity(args.len());
        for a in args {
            let value = match self.static_member(a, span).filter(|_| a.contains("::")) {
                Some(Ok(v)) if v.ty().is_integer() => v.as_i64(),
                _ if const_int(a).is_some() || scalar_named(a).is_some() => None,
                _ => self.constant_text(a),
            };
            folded.push(value.map_or_else(|| a.to_string(), |v| v.to_string()));
        }
        format!(
            "{}<{}>{}",
            &text[..open],
            folded.join(", "),
            &text[close + 1..]
        )
    }

    /// The integer value of a template argument written as a constant expression, if it is
    /// one; nothing is reported where it is not (a type, a name known only at the launch).
    fn constant_text(&mut self, text: &str) -> Option<i64> {
        let e = crate::syntax::parse_value(text).ok()?;
        let errors = self.errors.len();
        let value = self.constant_expr(&e).ok();
        self.errors.truncate(errors);
        match value?.kind {
            ExprKind::Const(v) if v.ty().is_integer() => v.as_i64(),
            _ => None,
        }
    }

    /// `cub::X<...>::TempStorage`: the class whose storage a type is, its arguments read as
    /// [`Self::cub_constants`] reads them.
    pub(crate) fn cub_storage_class(&mut self, ty: &ast::TypeName) -> Option<Result<Class>> {
        let outer = ty.base_text.strip_suffix("::TempStorage")?;
        class_base(outer.split('<').next()?.trim())?;
        let outer = self.cub_constants(outer, ty.span);
        class_of(&outer, ty.span)
    }

    /// The class `e` makes a collective of (`BlockReduce(temp)`), and the TempStorage it names.
    fn cub_made<'e>(&mut self, e: &'e ast::Expr) -> Option<(Result<Class>, &'e ast::Expr)> {
        Some(match &e.kind {
            ast::ExprKind::Cast { ty, expr } if ty.base == ast::BaseType::Named => {
                class_base(ty.base_text.split('<').next()?.trim())?;
                let text = self.cub_constants(&ty.base_text, ty.span);
                (class_of(&text, ty.span)?, &**expr)
            }
            ast::ExprKind::Call {
                callee,
                targs,
                args,
            } if args.len() == 1 => {
                // `typename Ktraits::BlockScanT(temp)` reaches here as the instance it names.
                let text = match callee.name.split_once('<') {
                    Some((base, _)) if targs.is_empty() => {
                        class_base(base.trim())?;
                        callee.name.clone()
                    }
                    _ => {
                        class_base(&callee.name)?;
                        // A value argument is its constant (a kernel template's `BlockDim`);
                        // one that is none is `?`, which the class's check names.
                        let targs: Vec<String> = targs
                            .iter()
                            .map(|a| {
                                let one = std::slice::from_ref(a);
                                self.targs_text(one).unwrap_or_else(|| "?".into())
                            })
                            .collect();
                        format!("{}<{}>", callee.name, targs.join(", "))
                    }
                };
                let text = self.cub_constants(&text, callee.span);
                (class_of(&text, callee.span)?, &args[0])
            }
            _ => return None,
        })
    }

    /// The shared array one TempStorage is: its element type and length. A struct item's holds
    /// one struct per slot, laid out as a buffer of them is.
    fn storage_shape(&mut self, class: &Class, span: Span) -> Result<(Scalar, u64)> {
        if class.record.is_none() {
            return Ok((class.elem, class.storage_len()));
        }
        let l = self.record_layout(class, span)?;
        let (elem, stride) = l.buffer_shape();
        let slots = match class.kind {
            Kind::BlockReduce(d, ReduceAlg::WarpReductions) => u64::from(warps(d)) + 1,
            Kind::BlockReduce(d, _) => {
                let size = elem.size() * stride;
                u64::from(ReduceAlg::storage_items(d, size))
            }
            _ => 1,
        };
        Ok((elem, slots * u64::from(stride)))
    }

    /// The collective `e` makes (`BlockReduce(temp)`, `cub::WarpReduce<float>(temp[w])`): its
    /// class, the storage's shared array and the storage's first element.
    fn cub_object(&mut self, e: &ast::Expr) -> Option<Result<(Class, u32, Expr)>> {
        let (class, storage) = self.cub_made(e)?;
        Some(class.and_then(|class| {
            let (s, first) = self.cub_storage(&class, storage)?;
            Ok((class, s, first))
        }))
    }

    /// The TempStorage `e` names for `class`: its shared array and first element.
    fn cub_storage(&mut self, class: &Class, e: &ast::Expr) -> Result<(u32, Expr)> {
        let wrong = || CheckError::CubStorage {
            class: class.name.clone(),
            found: describe(e),
            span: e.span,
        };
        let (name, index) = match &e.kind {
            ast::ExprKind::Name(n) => (n, None),
            // A member of a union of TempStorages ([`Self::declare_cub_union`]).
            ast::ExprKind::Member { base, field } => match &base.kind {
                ast::ExprKind::Name(n) => (&format!("{n}.{}", field.name), None),
                _ => return Err(wrong()),
            },
            ast::ExprKind::Index { base, index } => match &base.kind {
                ast::ExprKind::Name(n) => (n, Some(&**index)),
                _ => return Err(wrong()),
            },
            _ => return Err(wrong()),
        };
        let Some(Binding::Shared(s)) = self.lookup(name) else {
            return Err(wrong());
        };
        let Some((have, array)) = self.cub_storages.get(&s).cloned() else {
            return Err(wrong());
        };
        if have.kind != class.kind
            || have.elem != class.elem
            || have.record != class.record
            || array != index.is_some()
        {
            return Err(wrong());
        }
        let first = match index {
            None => constant(Value::I32(0), e.span),
            Some(i) => {
                let i = self.expr(i)?;
                let i = self.convert(i, Scalar::I32);
                let per = self.storage_shape(class, e.span)?.1;
                let per = constant(Value::I32(per as i32), e.span);
                self.binary(BinOp::Mul, e.span, i, per)?
            }
        };
        Ok((s, first))
    }

    /// The collective `object` makes, as [`Self::cub_object`], noting the block shape its
    /// member `method` with `args` needs: a `BlockReduce` given `valid_items` runs in a smaller
    /// block too ([`BlockShape::smaller`]).
    pub(super) fn cub_used(
        &mut self,
        object: &ast::Expr,
        method: &str,
        args: &[ast::Expr],
    ) -> Option<Result<(Class, u32, Expr)>> {
        let made = self.cub_object(object)?;
        Some(made.inspect(|(class, _, _)| {
            if let Some(dims) = class.kind.block_shape() {
                let smaller = matches!(class.kind, Kind::BlockReduce(..))
                    && matches!((method, args.len()), ("Sum", 2) | ("Reduce", 3));
                self.block_shapes.push(BlockShape {
                    span: object.span,
                    dims,
                    smaller,
                });
            }
        }))
    }

    /// In a block smaller than `dims` (which [`BlockShape::fits`] lets a reduction with
    /// `valid_items` run in), `valid_items` may not exceed the block's threads: CUB's thread 0
    /// would combine the TempStorage slots of warps the launch does not have, never written.
    pub(super) fn valid_within_block(
        &mut self,
        n: Expr,
        dims: [u32; 3],
        span: Span,
    ) -> Result<Stmt> {
        let dim = |a: u8| Expr {
            kind: ExprKind::Builtin(Builtin::BlockDim(a)),
            ty: Scalar::U32,
            span,
        };
        let threads = self.binary(BinOp::Mul, span, dim(0), dim(1))?;
        let threads = self.binary(BinOp::Mul, span, threads, dim(2))?;
        let threads = self.convert(threads, Scalar::I64);
        let whole = constant(Value::I64(i64::from(dims[0] * dims[1] * dims[2])), span);
        let full = self.binary(BinOp::Eq, span, threads.clone(), whole)?;
        let n = self.convert(n, Scalar::I64);
        let within = self.binary(BinOp::Le, span, n, threads)?;
        let yes = constant(Value::Bool(true), span);
        Ok(Stmt {
            kind: StmtKind::Assert(
                Expr {
                    kind: ExprKind::Select {
                        cond: Box::new(full),
                        then: Box::new(yes),
                        els: Box::new(within),
                    },
                    ty: Scalar::Bool,
                    span,
                },
                false,
            ),
            span,
        })
    }

    /// `Class(temp).Sum(v)` and the other members, if `object` makes a CUB collective.
    pub(crate) fn cub_method(
        &mut self,
        object: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr>> {
        let made = self.cub_used(object, &method.name, args)?;
        Some(made.and_then(|(class, s, first)| {
            if let Kind::BlockLoad(_)
            | Kind::BlockStore(_)
            | Kind::WarpScan(_)
            | Kind::BlockScan(..) = class.kind
            {
                return Err(CheckError::NoValue {
                    what: format!("`{}::{}(...)`", class.name, method.name),
                    why: " (it returns `void`)",
                    span,
                    help: Some(
                        "call it as a statement: it writes its output arguments, the items array or memory".into(),
                    ),
                });
            }
            self.collective(class, s, first, method, args, span)
        }))
    }

    /// `Class(temp).Load(p, items);` and any other CUB call made as a statement, if `object`
    /// makes a CUB collective.
    pub(crate) fn cub_statement(
        &mut self,
        object: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr>> {
        let made = self.cub_used(object, &method.name, args)?;
        Some(made.and_then(|(class, s, first)| match class.kind {
            Kind::BlockLoad(io) | Kind::BlockStore(io) => {
                self.block_io(&class, io, (s, first), method, args, span)
            }
            Kind::WarpScan(_) | Kind::BlockScan(..) => {
                self.cub_scan(&class, (s, first), method, args, span)
            }
            _ => self.collective(class, s, first, method, args, span),
        }))
    }

    fn collective(
        &mut self,
        class: Class,
        s: u32,
        first: Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr> {
        if let Some(record) = &class.record {
            return Err(CheckError::Mismatch {
                expected: "a scalar".into(),
                found: format!(
                    "`{}::{}`, which makes a `{record}`",
                    class.name, method.name
                ),
                span,
                help: Some(format!(
                    "use the result as a `{record}`: a variable of that type, or a member (`.key`)"
                )),
            });
        }
        let (value, op, valid) = match (method.name.as_str(), args) {
            ("Sum", [v]) => (v, Op::Arith(ArithOp::Add), None),
            ("Sum", [v, n]) => (v, Op::Arith(ArithOp::Add), Some(n)),
            ("Reduce", [v, op]) => (v, self.reduction_op(op)?, None),
            ("Reduce", [v, op, n]) => (v, self.reduction_op(op)?, Some(n)),
            (name @ ("Sum" | "Reduce"), _) => {
                return Err(CheckError::ArgumentCount {
                    name: name.into(),
                    expected: if name == "Sum" {
                        "1 or 2 (an item, and the number of valid items)".into()
                    } else {
                        "2 or 3 (an item, an operation, and the number of valid items)".into()
                    },
                    found: args.len(),
                    span,
                })
            }
            (other, _) => {
                return Err(CheckError::CubUnsupported {
                    what: format!("`{}::{other}`", class.name),
                    span: method.span,
                    help: HAVE.into(),
                })
            }
        };
        let ty = class.elem.promoted();
        let value = match self.thread_items(value, &class, valid.is_some()) {
            // `BlockReduce::Sum(items)` of a thread's `T items[N]`: CUB's ThreadReduce first,
            // `items[0] op items[1] op ...` in order (thread/thread_reduce.cuh).
            Some(n) => {
                let item = |k: u64| ast::Expr {
                    kind: ast::ExprKind::Index {
                        base: Box::new(value.clone()),
                        index: Box::new(super::template::int_expr(k as i64, value.span)),
                    },
                    span: value.span,
                };
                let first = self.expr(&item(0))?;
                let mut acc = self.convert(first, class.elem);
                for k in 1..n {
                    let next = self.expr(&item(k))?;
                    let next = self.convert(next, class.elem);
                    let combined = self.combine(&op, acc, next, class.elem, span)?;
                    acc = self.convert(combined, class.elem);
                }
                acc
            }
            None => {
                let value = self.expr(value)?;
                self.convert(value, class.elem)
            }
        };
        let valid = match valid {
            Some(n) => {
                let n = self.expr(n)?;
                Some(self.convert(n, Scalar::I32))
            }
            None => None,
        };
        let acc = self.new_local("cub aggregate", class.elem, span);
        let mut body = vec![assign(acc, value, span)];
        match class.kind {
            Kind::WarpReduce(lanes) => {
                self.warp_reduce(acc, class.elem, lanes, &op, valid, &mut body, span)?;
            }
            Kind::BlockReduce(dims, ReduceAlg::WarpReductions) => {
                self.block_reduce(acc, &class, dims, (s, first), &op, valid, &mut body, span)?;
            }
            Kind::BlockReduce(dims, alg) => {
                let shape = (dims, alg);
                let storage = (s, first);
                self.raking_reduce(acc, class.elem, shape, storage, &op, valid, &mut body, span)?;
            }
            Kind::BlockLoad(_) | Kind::BlockStore(_) | Kind::WarpScan(_) | Kind::BlockScan(..) => {
                unreachable!("cub: loads, stores and scans are statements (cub_statement)")
            }
        }
        Ok(Expr {
            kind: ExprKind::Inline {
                name: format!("{}::{}", class.name, method.name),
                body,
                result: Some(acc),
            },
            ty,
            span,
        })
    }

    /// The length of `value`, a thread's items array given to `BlockReduce`'s `Sum` or `Reduce`
    /// (which have no valid-items form for one); `None` for a single item.
    fn thread_items(&self, value: &ast::Expr, class: &Class, valid: bool) -> Option<u64> {
        if valid || !matches!(class.kind, Kind::BlockReduce(..)) {
            return None;
        }
        match self.lookup(name_of(value)?)? {
            Binding::LocalArray(_) => self.array_length(value).filter(|&n| n > 0),
            _ => None,
        }
    }

    /// CUB's shuffle warp reduction of `acc` over logical warps of `lanes` lanes, into lane 0.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn warp_reduce(
        &mut self,
        acc: VarId,
        elem: Scalar,
        lanes: u32,
        op: &Op,
        valid: Option<Expr>,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let ty = elem.promoted();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty,
            span,
        };
        // The lane within its logical warp, for `valid_items`.
        let logical_lane = match valid {
            Some(_) => {
                let tid = self.cub_tid(None, span)?;
                let mask = constant(Value::U32(lanes - 1), span);
                let lane = self.binary(BinOp::BitAnd, span, tid, mask)?;
                Some(self.convert(lane, Scalar::I32))
            }
            None => None,
        };
        let mut offset = 1;
        while offset < lanes {
            let shuffled = self.tile_shuffle(
                lanes,
                ShflKind::Down,
                var(acc),
                constant(Value::U32(offset), span),
                span,
            )?;
            let other = self.new_local("cub shuffled", elem, span);
            let shuffled = self.convert(shuffled, elem);
            body.push(assign(other, shuffled, span));
            let combined = self.combine(op, var(acc), var(other), elem, span)?;
            let next = match (&valid, &logical_lane) {
                (Some(n), Some(lane)) => {
                    let src = self.binary(
                        BinOp::Add,
                        span,
                        lane.clone(),
                        constant(Value::I32(offset as i32), span),
                    )?;
                    let inside = self.binary(BinOp::Lt, span, src, n.clone())?;
                    Expr {
                        kind: ExprKind::Select {
                            cond: Box::new(inside),
                            then: Box::new(combined),
                            els: Box::new(var(acc)),
                        },
                        ty,
                        span,
                    }
                }
                _ => combined,
            };
            body.push(assign(acc, next, span));
            offset *= 2;
        }
        Ok(())
    }

    /// CUB's BLOCK_REDUCE_WARP_REDUCTIONS: warp reductions, lane 0 of each warp stores its
    /// aggregate, a barrier, thread 0 adds the others in warp order.
    #[allow(clippy::too_many_arguments)]
    fn block_reduce(
        &mut self,
        acc: VarId,
        class: &Class,
        dims: [u32; 3],
        (s, first): (u32, Expr),
        op: &Op,
        valid: Option<Expr>,
        body: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<()> {
        let elem = class.elem;
        let ty = elem.promoted();
        let threads = dims[0] * dims[1] * dims[2];
        if let Some(n) = &valid {
            body.push(self.valid_within_block(n.clone(), dims, span)?);
        }
        let lanes = threads.min(32);
        let n_warps = warps(dims);
        let tid = self.cub_tid(Some(dims), span)?;
        let tid = self.convert(tid, Scalar::I32);
        let warp = self.binary(
            BinOp::Div,
            span,
            tid.clone(),
            constant(Value::I32(32), span),
        )?;
        // A warp reduces only its valid items: all of them in a full block whose size is a
        // multiple of the warp's, else those before `valid_items` (or the block's end).
        let warp_valid = match (&valid, threads.is_multiple_of(lanes)) {
            (None, true) => None,
            (n, _) => {
                let n = n
                    .clone()
                    .unwrap_or_else(|| constant(Value::I32(threads as i32), span));
                let base = self.binary(
                    BinOp::Mul,
                    span,
                    warp.clone(),
                    constant(Value::I32(32), span),
                )?;
                Some(self.binary(BinOp::Sub, span, n, base)?)
            }
        };
        let lanes_pow2 = lanes.next_power_of_two();
        self.warp_reduce(acc, elem, lanes_pow2, op, warp_valid, body, span)?;
        let mem = Mem {
            space: Space::Shared(s),
            elem,
            width: 1,
        };
        let at = |k: Expr, this: &mut Self| this.binary(BinOp::Add, span, first.clone(), k);
        let lane = self.binary(
            BinOp::Rem,
            span,
            tid.clone(),
            constant(Value::I32(32), span),
        )?;
        let lane0 = self.binary(BinOp::Eq, span, lane, constant(Value::I32(0), span))?;
        let slot = at(warp, self)?;
        let store = Stmt {
            kind: StmtKind::Store {
                mem,
                index: slot,
                value: Expr {
                    kind: ExprKind::Var(acc),
                    ty,
                    span,
                },
            },
            span,
        };
        body.push(Stmt {
            kind: StmtKind::If {
                cond: lane0,
                then: vec![store],
                els: Vec::new(),
            },
            span,
        });
        body.push(Stmt {
            kind: StmtKind::Barrier,
            span,
        });
        let mut thread0 = Vec::new();
        for w in 1..n_warps {
            let slot = at(constant(Value::I32(w as i32), span), self)?;
            let other = self.new_local("cub warp aggregate", elem, span);
            let mut step = vec![assign(other, load(mem, slot, span), span)];
            let var = |v: VarId| Expr {
                kind: ExprKind::Var(v),
                ty,
                span,
            };
            let combined = self.combine(op, var(acc), var(other), elem, span)?;
            step.push(assign(acc, combined, span));
            match &valid {
                // Only warps that hold a valid item.
                Some(n) => {
                    let start = constant(Value::I32((w * 32) as i32), span);
                    let has = self.binary(BinOp::Lt, span, start, n.clone())?;
                    thread0.push(Stmt {
                        kind: StmtKind::If {
                            cond: has,
                            then: step,
                            els: Vec::new(),
                        },
                        span,
                    });
                }
                None => thread0.extend(step),
            }
        }
        if !thread0.is_empty() {
            let is0 = self.binary(BinOp::Eq, span, tid, constant(Value::I32(0), span))?;
            body.push(Stmt {
                kind: StmtKind::If {
                    cond: is0,
                    then: thread0,
                    els: Vec::new(),
                },
                span,
            });
        }
        Ok(())
    }

    /// `op(a, b)` as a value of `elem`'s type (a functor's or lambda's call inlined).
    pub(super) fn combine(
        &mut self,
        op: &Op,
        a: Expr,
        b: Expr,
        elem: Scalar,
        span: Span,
    ) -> Result<Expr> {
        let out = match op {
            Op::Arith(ArithOp::Add) => self.binary(BinOp::Add, span, a, b)?,
            Op::Arith(arith) => {
                let ty = a.ty;
                Expr {
                    kind: ExprKind::Arith {
                        op: *arith,
                        lhs: Box::new(a),
                        rhs: Box::new(b),
                    },
                    ty,
                    span,
                }
            }
            Op::Call(f) => {
                let (ExprKind::Var(va), ExprKind::Var(vb)) = (&a.kind, &b.kind) else {
                    unreachable!("cub: combine gets two variables")
                };
                let (va, vb) = (*va, *vb);
                self.scopes.push(Default::default());
                let names = ["<cub a>", "<cub b>"];
                for (n, v) in names.iter().zip([va, vb]) {
                    let ident = ast::Ident {
                        name: (*n).into(),
                        span,
                    };
                    self.declare(
                        &ident,
                        Binding::Local {
                            var: v,
                            is_const: true,
                        },
                    );
                }
                let args = names
                    .iter()
                    .map(|n| ast::Expr {
                        kind: ast::ExprKind::Name((*n).into()),
                        span,
                    })
                    .collect();
                let kind = match &f.kind {
                    ast::ExprKind::Name(n) => ast::ExprKind::Call {
                        callee: ast::Ident {
                            name: n.clone(),
                            span: f.span,
                        },
                        targs: Vec::new(),
                        args,
                    },
                    _ => ast::ExprKind::Method {
                        object: Box::new(f.clone()),
                        method: ast::Ident {
                            name: "operator()".into(),
                            span: f.span,
                        },
                        targs: Vec::new(),
                        args,
                    },
                };
                let call = ast::Expr { kind, span };
                let out = self.expr(&call);
                self.scopes.pop();
                out?
            }
        };
        Ok(self.convert(out, elem))
    }

    /// The thread's rank in its block: in the block's shape `dims` as CUB computes it
    /// (`x + X * (y + Y * z)`), or the launch's when `None`.
    pub(super) fn cub_tid(&mut self, dims: Option<[u32; 3]>, span: Span) -> Result<Expr> {
        let b = |f: fn(u8) -> Builtin, a: u8| Expr {
            kind: ExprKind::Builtin(f(a)),
            ty: Scalar::U32,
            span,
        };
        let dim = |a: u8| match dims {
            Some(d) => constant(Value::U32(d[a as usize]), span),
            None => b(Builtin::BlockDim, a),
        };
        let yz = self.binary(BinOp::Mul, span, dim(1), b(Builtin::ThreadIdx, 2))?;
        let yz = self.binary(BinOp::Add, span, b(Builtin::ThreadIdx, 1), yz)?;
        let yz = self.binary(BinOp::Mul, span, dim(0), yz)?;
        self.binary(BinOp::Add, span, b(Builtin::ThreadIdx, 0), yz)
    }
}

impl KernelChecker<'_, '_> {
    /// The combining operation a `Reduce` names: CUB's own or a function object of the file
    /// made in place (`cub::Sum()`, `Xor<unsigned>()`), or a variable (a functor, a lambda).
    pub(super) fn reduction_op(&self, e: &ast::Expr) -> Result<Op> {
        match &e.kind {
            ast::ExprKind::Call { callee, args, .. } if args.is_empty() => {
                // `cuda::std::plus<>{}` names its class with the (empty) template arguments.
                let name = callee.name.split('<').next().unwrap_or_default();
                match unqualified(name.trim()) {
                    "Sum" | "plus" => Ok(Op::Arith(ArithOp::Add)),
                    "Max" | "maximum" => Ok(Op::Arith(ArithOp::Max)),
                    "Min" | "minimum" => Ok(Op::Arith(ArithOp::Min)),
                    own if self.globals.structs.iter().any(|d| d.name.name == own) => {
                        Ok(Op::Call(e.clone()))
                    }
                    other => Err(CheckError::CubUnsupported {
                        what: format!("the reduction operation `{other}()` made in place"),
                        span: e.span,
                        help: format!(
                            "`{other}` is neither CUB's `Sum`, `Max` or `Min` nor a struct of this file: pass one of those, or a function object or lambda variable (`Op op; ... Reduce(v, op)`)"
                        ),
                    }),
                }
            }
            ast::ExprKind::Name(_) => Ok(Op::Call(e.clone())),
            _ => Err(CheckError::CubUnsupported {
                what: "this reduction operation".into(),
                span: e.span,
                help: HAVE.into(),
            }),
        }
    }
}

pub(super) fn assign(var: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign { var, value },
        span,
    }
}

/// The name `e` is, if it is one.
fn name_of(e: &ast::Expr) -> Option<&str> {
    match &e.kind {
        ast::ExprKind::Name(n) => Some(n),
        _ => None,
    }
}

/// A short description of what was passed as a TempStorage.
fn describe(e: &ast::Expr) -> String {
    match &e.kind {
        ast::ExprKind::Name(n) => n.clone(),
        ast::ExprKind::Member { base, field } => match &base.kind {
            ast::ExprKind::Name(n) => format!("{n}.{}", field.name),
            _ => "this expression".into(),
        },
        _ => "this expression".into(),
    }
}

/// The value of a template argument that is constant integer arithmetic once the template's
/// parameters are substituted (`512/4`, `4*((1 > 0) ? 2 : 1)`), as C++ evaluates it on `long
/// long`; `None` for anything else (or a division by zero).
fn const_int(text: &str) -> Option<i64> {
    let tokens = const_tokens(text)?;
    let mut p = ConstParser { tokens, at: 0 };
    let v = p.ternary()?;
    (p.at == p.tokens.len()).then_some(v)
}

/// The tokens of a constant expression: numbers and operators.
fn const_tokens(text: &str) -> Option<Vec<String>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i] as char).is_ascii_alphanumeric() {
                i += 1;
            }
            let digits = text[start..i].trim_end_matches(['u', 'U', 'l', 'L']);
            let v = if let Some(h) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
                i64::from_str_radix(h, 16).ok()?
            } else {
                digits.parse::<i64>().ok()?
            };
            out.push(v.to_string());
        } else if text[i..].starts_with("true") || text[i..].starts_with("false") {
            let t = text[i..].starts_with("true");
            out.push(if t { "1" } else { "0" }.into());
            i += if t { 4 } else { 5 };
        } else {
            let two = text.get(i..i + 2).unwrap_or("");
            if matches!(two, "<<" | ">>" | "<=" | ">=" | "==" | "!=" | "&&" | "||") {
                out.push(two.into());
                i += 2;
            } else if "+-*/%<>()?:!".contains(c) {
                out.push(c.to_string());
                i += 1;
            } else {
                return None;
            }
        }
    }
    Some(out)
}

/// Precedence climbing over [`const_tokens`].
struct ConstParser {
    tokens: Vec<String>,
    at: usize,
}

impl ConstParser {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn eat(&mut self, t: &str) -> bool {
        let hit = self.peek() == Some(t);
        self.at += usize::from(hit);
        hit
    }

    fn ternary(&mut self) -> Option<i64> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Some(c);
        }
        let t = self.ternary()?;
        self.eat(":").then_some(())?;
        let f = self.ternary()?;
        Some(if c != 0 { t } else { f })
    }

    fn binary(&mut self, min: u8) -> Option<i64> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek() {
            let prec = match op {
                "||" => 1,
                "&&" => 2,
                "==" | "!=" => 3,
                "<" | ">" | "<=" | ">=" => 4,
                "<<" | ">>" => 5,
                "+" | "-" => 6,
                "*" | "/" | "%" => 7,
                _ => break,
            };
            if prec < min.max(1) {
                break;
            }
            let op = op.to_string();
            self.at += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = match op.as_str() {
                "||" => i64::from(lhs != 0 || rhs != 0),
                "&&" => i64::from(lhs != 0 && rhs != 0),
                "==" => i64::from(lhs == rhs),
                "!=" => i64::from(lhs != rhs),
                "<" => i64::from(lhs < rhs),
                ">" => i64::from(lhs > rhs),
                "<=" => i64::from(lhs <= rhs),
                ">=" => i64::from(lhs >= rhs),
                "<<" => lhs.checked_shl(u32::try_from(rhs).ok()?)?,
                ">>" => lhs.checked_shr(u32::try_from(rhs).ok()?)?,
                "+" => lhs.checked_add(rhs)?,
                "-" => lhs.checked_sub(rhs)?,
                "*" => lhs.checked_mul(rhs)?,
                "/" => lhs.checked_div(rhs)?,
                _ => lhs.checked_rem(rhs)?,
            };
        }
        Some(lhs)
    }

    fn unary(&mut self) -> Option<i64> {
        if self.eat("-") {
            return self.unary()?.checked_neg();
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("!") {
            return Some(i64::from(self.unary()? == 0));
        }
        if self.eat("(") {
            let v = self.ternary()?;
            return self.eat(")").then_some(v);
        }
        let v = self.peek()?.parse::<i64>().ok()?;
        self.at += 1;
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::{const_int, split_args};

    #[test]
    fn template_arithmetic_is_evaluated() {
        assert_eq!(const_int("512/4"), Some(128));
        assert_eq!(const_int("4*((1 > 0) ? 2 : 1)"), Some(8));
        assert_eq!(const_int("4*((0>0)?2:1)"), Some(4));
        assert_eq!(const_int("1 << 5 + 1"), Some(64));
        assert_eq!(const_int("256u"), Some(256));
        assert_eq!(const_int("N/4"), None);
        assert_eq!(const_int("4/0"), None);
    }

    #[test]
    fn comparisons_in_parentheses_do_not_close_the_argument_list() {
        assert_eq!(
            split_args("T, 64, N*((D > 0) ? 2 : 1), cub::X"),
            ["T", "64", "N*((D > 0) ? 2 : 1)", "cub::X"]
        );
    }
}
