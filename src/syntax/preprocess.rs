//! The C preprocessor that runs before the grammar, with a map from its output back to the file.
//!
//! It follows C's translation phases 2–4 for what CUDA kernels use: `\` line splices (LF or
//! CRLF), comments and string literals kept whole, object-like and function-like `#define`
//! (`...`/`__VA_ARGS__`, `#` and `##`), `#undef`, `#if`/`#elif` over integer constant expressions
//! with `defined`, `#ifdef`, `#ifndef`, `#else`, `#endif` and `#error`. Substitution is on tokens
//! with C's hide sets (Prosser's algorithm), so a macro is never expanded again inside its own
//! expansion. `#include` lines are dropped (the built-ins are always there); `#pragma` lines pass
//! through for the grammar.
//!
//! Text that no macro touches is copied unchanged; each token a macro writes is put on its own,
//! after a space. [`SpanMap`] turns any span of that output back into a span of the file: copied
//! text maps byte for byte, a written token to where it came from (an argument's own text, or the
//! whole macro use for the tokens of a body).

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::error::ParseError;
use crate::source::Span;
use crate::value::{library_constant, Value};

/// Most tokens macro expansion may write in one file (some 4 MB of text, about what the parser's
/// step budget reads): a macro that uses another twice, twenty levels deep, stops here.
pub(crate) const MAX_EXPANSION: usize = 1 << 20;

/// Most macro calls nested inside each other's arguments, and most nesting in an `#if`.
const MAX_NESTING: usize = super::MAX_DEPTH;

/// Macros defined before the first line: nvcc 12.4's (release 12.4, V12.4.131) when it compiles
/// device code, besides `__CUDA_ARCH__`, which the GPU's compute capability sets. nvcc includes
/// cuda_runtime.h in every .cu file, and its cuda_runtime_api.h defines `CUDART_VERSION` as
/// major * 1000 + minor * 10.
const PREDEFINED: &[(&str, &str)] = &[
    ("__CUDACC__", "1"),
    ("__NVCC__", "1"),
    ("__CUDACC_VER_MAJOR__", "12"),
    ("__CUDACC_VER_MINOR__", "4"),
    ("__CUDACC_VER_BUILD__", "131"),
    ("CUDART_VERSION", "12040"),
    ("__cplusplus", "201703L"),
    // host_defines.h's mark of the CUDA headers' own declarations (`__location__(device_builtin)`,
    // ccminer's `extern __device__ __device_builtin__ void __syncthreads(void);`): no code.
    ("__device_builtin__", ""),
    // nvcc preprocesses device code with the host compiler's preprocessor, so the host's
    // macros hold there too (PhysX's PxPreprocessor.h stops with `#error "Unknown compiler"`
    // without them): g++ 11.4 (Ubuntu 22.04's, which CUDA 12.4 supports) on x86-64 Linux, as
    // `g++ -dM -E -x c++ /dev/null` lists them.
    ("__GNUC__", "11"),
    ("__GNUC_MINOR__", "4"),
    ("__GNUC_PATCHLEVEL__", "0"),
    ("__GNUG__", "11"),
    ("__linux__", "1"),
    ("__linux", "1"),
    ("__gnu_linux__", "1"),
    ("__unix__", "1"),
    ("__unix", "1"),
    ("__ELF__", "1"),
    ("__x86_64__", "1"),
    ("__x86_64", "1"),
    ("__amd64__", "1"),
    ("__amd64", "1"),
    ("__LP64__", "1"),
    ("_LP64", "1"),
    ("__CHAR_BIT__", "8"),
    ("__SIZEOF_SHORT__", "2"),
    ("__SIZEOF_INT__", "4"),
    ("__SIZEOF_LONG__", "8"),
    ("__SIZEOF_LONG_LONG__", "8"),
    ("__SIZEOF_POINTER__", "8"),
    ("__SIZEOF_SIZE_T__", "8"),
    ("__SIZEOF_FLOAT__", "4"),
    ("__SIZEOF_DOUBLE__", "8"),
    ("__ORDER_LITTLE_ENDIAN__", "1234"),
    ("__ORDER_BIG_ENDIAN__", "4321"),
    ("__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__"),
];

/// <cstdint>'s macros for integer constants of its types, as glibc's stdint.h defines them
/// for a 64-bit target (`INT64_C(c)` is `c ## L`, a `long`); simt's built-in headers are
/// always there, so these are too.
const INTEGER_CONSTANTS: &[(&str, &str)] = &[
    ("INT8_C(c)", "c"),
    ("INT16_C(c)", "c"),
    ("INT32_C(c)", "c"),
    ("INT64_C(c)", "c ## L"),
    ("UINT8_C(c)", "c"),
    ("UINT16_C(c)", "c"),
    ("UINT32_C(c)", "c ## U"),
    ("UINT64_C(c)", "c ## UL"),
    ("INTMAX_C(c)", "c ## L"),
    ("UINTMAX_C(c)", "c ## UL"),
];

/// C++'s alternative tokens ([lex.digraph]): `and` is `&&` wherever it stands, `#if` lines
/// included (tpoisonooo's how-to-optimize-gemm writes `if (row < m and col < n)`). C++ makes
/// them tokens, not macros; spelled here as macros, they expand the same.
const ALTERNATIVE_TOKENS: &[(&str, &str)] = &[
    ("and", "&&"),
    ("and_eq", "&="),
    ("bitand", "&"),
    ("bitor", "|"),
    ("compl", "~"),
    ("not", "!"),
    ("not_eq", "!="),
    ("or", "||"),
    ("or_eq", "|="),
    ("xor", "^"),
    ("xor_eq", "^="),
];

/// The execution-space and attribute keywords that nvcc's crt/host_defines.h makes macros on
/// Linux (`#define __device__ __location__(device)`, `#define __launch_bounds__(...) ...`), so
/// `#ifndef __host__` guards ("allow usage for non-CUDA files") are skipped as under nvcc. They
/// are defined for `#ifdef` and `defined(...)` only, never expanded: the grammar reads each
/// keyword as written. A file's own `#define` or `#undef` of one replaces it. `__restrict__`,
/// `__inline__` and `__inline` are not here: they are GCC keywords, which the header defines
/// only for MSVC.
const HOST_DEFINES: &[&str] = &[
    "__host__",
    "__device__",
    "__global__",
    "__shared__",
    "__constant__",
    "__managed__",
    "__forceinline__",
    "__noinline__",
    "__align__",
    "__launch_bounds__",
];

/// What `#include <cuda.h>` of CUDA 12.4 defines: `CUDA_VERSION`, major * 1000 + minor * 10.
/// It is not predefined: cuda.h is the driver API's header, which nvcc's implicit cuda_runtime.h
/// does not include (cuda_runtime_api.h defines `CUDART_VERSION` on its own).
const CUDA_VERSION: (&str, &str) = ("CUDA_VERSION", "12040");

/// `__CUDA_ARCH__` for compute capability `(major, minor)`: 900 for sm_90, as nvcc writes it.
pub(crate) fn cuda_arch((major, minor): (u32, u32)) -> u32 {
    major * 100 + minor * 10
}

/// `#if` operators that ask about the compiler. `__has_include` is 1: simt takes every
/// `#include` (reading the headers it models, dropping the rest), so a file's test for a header
/// takes the branch nvcc takes where the header is there (llama.cpp's CUB cumsum under
/// `#if __has_include(<cub/cub.cuh>)`); and it is defined, as in every C++17 compiler. The
/// others are 0: no builtin or attribute is promised.
const HAS_OPERATORS: &[&str] = &[
    "__has_include",
    "__has_include_next",
    "__has_builtin",
    "__has_attribute",
    "__has_cpp_attribute",
    "__has_feature",
    "__has_extension",
];

/// Punctuators of more than one character, longest first.
const PUNCTUATORS: &[&str] = &[
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::",
];

/// The preprocessed text and where each of its bytes came from.
#[derive(Debug)]
pub(crate) struct Expanded {
    /// What the grammar reads.
    pub(crate) text: String,
    /// Spans of `text` → spans of the file.
    pub(crate) map: SpanMap,
    /// Quoted `#include`s of headers found nowhere (see [`crate::syntax::ast::Module::missing_headers`]).
    pub(crate) missing: Vec<String>,
}

/// One stretch of the output.
#[derive(Clone, Copy, Debug)]
enum Seg {
    /// Copied unchanged from the file, from byte `src` on.
    Copy { out: u32, src: u32 },
    /// One token written by a macro, with the space before it: `at` is what it blames, `whole`
    /// the outermost macro use that wrote it, `def` the token in a `#define` it was copied from.
    Token {
        out: u32,
        at: Span,
        whole: Span,
        def: Option<Span>,
    },
}

impl Seg {
    fn out(&self) -> u32 {
        match *self {
            Seg::Copy { out, .. } | Seg::Token { out, .. } => out,
        }
    }
}

/// Maps spans of the preprocessed text to spans of the file.
#[derive(Debug)]
pub(crate) struct SpanMap {
    segs: Vec<Seg>,
    /// Length of the output.
    len: u32,
    /// Length of the file.
    src_len: u32,
}

impl SpanMap {
    /// The map of text that was not preprocessed (an `--arg` value).
    pub(crate) fn identity(len: usize) -> SpanMap {
        SpanMap {
            segs: vec![Seg::Copy { out: 0, src: 0 }],
            len: len as u32,
            src_len: len as u32,
        }
    }

    /// Where output byte `p` came from, and the macro use that wrote it if any.
    fn point(&self, p: u32) -> (Span, Option<Span>) {
        let i = self.segs.partition_point(|s| s.out() <= p);
        match i.checked_sub(1).and_then(|i| self.segs.get(i)) {
            Some(&Seg::Copy { out, src }) => {
                let at = src + (p - out);
                (
                    Span {
                        start: at,
                        end: at + 1,
                    },
                    None,
                )
            }
            Some(&Seg::Token { at, whole, .. }) => (at, Some(whole)),
            None => (self.eof(), None),
        }
    }

    fn eof(&self) -> Span {
        Span {
            start: self.src_len,
            end: self.src_len,
        }
    }

    /// The span of the file that output bytes `start..end` came from: from where the first byte
    /// came from to where the last did, or the whole macro use where those are out of order (a
    /// macro that puts its arguments the other way round).
    pub(crate) fn span(&self, start: usize, end: usize) -> Span {
        let (s, e) = (start as u32, (end as u32).min(self.len));
        if s >= self.len {
            return self.eof();
        }
        let (a, aw) = self.point(s);
        if e <= s {
            return match aw {
                Some(_) => a,
                None => Span {
                    start: a.start,
                    end: a.start,
                },
            };
        }
        let (b, bw) = self.point(e - 1);
        if a.start <= b.end {
            return Span {
                start: a.start,
                end: b.end,
            };
        }
        let all = [a, b, aw.unwrap_or(a), bw.unwrap_or(b)];
        Span {
            start: all.iter().map(|s| s.start).min().unwrap_or(a.start),
            end: all.iter().map(|s| s.end).max().unwrap_or(a.end),
        }
    }

    /// Where in a `#define` the token at output byte `p` of `text` was written, or, when only
    /// whitespace separates `p` from the end of a macro's expansion, the last token that expansion
    /// wrote (an error just after an expansion is often the expansion's fault).
    pub(crate) fn definition(&self, text: &str, p: usize) -> Option<Span> {
        let p = p.min(text.len()) as u32;
        let i = self.segs.partition_point(|s| s.out() <= p).checked_sub(1)?;
        match self.segs[i] {
            Seg::Token { def, .. } => def,
            Seg::Copy { out, .. } => {
                let gap = text.get(out as usize..p as usize)?;
                match (
                    gap.trim().is_empty(),
                    i.checked_sub(1).map(|j| self.segs[j]),
                ) {
                    (true, Some(Seg::Token { def, .. })) => def,
                    _ => None,
                }
            }
        }
    }
}

/// Preprocesses a whole file as device code for `__CUDA_ARCH__` `arch`, with the command line's
/// `-D NAME=VALUE` macros `defines` defined after the compiler's own (as nvcc's `-D` is): the
/// text for the grammar and its map, or every directive and macro use that went wrong.
#[cfg(test)]
pub(crate) fn preprocess(
    text: &str,
    arch: u32,
    defines: &[(String, String)],
) -> Result<Expanded, Vec<ParseError>> {
    preprocess_in(text, None, arch, defines)
}

/// [`preprocess`] of a file in the folder `dir`, where its `#include "name"` lines find the
/// headers it names.
pub(crate) fn preprocess_in(
    text: &str,
    dir: Option<&Path>,
    arch: u32,
    defines: &[(String, String)],
) -> Result<Expanded, Vec<ParseError>> {
    let (spliced, splices) = splice(text);
    let mut pp = Pp::over(&spliced, text, splices, dir);
    let arch = arch.to_string();
    let predefined = PREDEFINED
        .iter()
        .chain(ALTERNATIVE_TOKENS)
        .chain(INTEGER_CONSTANTS)
        .copied()
        .chain([("__CUDA_ARCH__", arch.as_str())]);
    for (name, value) in predefined {
        pp.define_builtin(name, value);
    }
    for (name, value) in defines {
        pp.define_builtin(name, value);
    }
    pp.file();
    if pp.errors.is_empty() {
        let len = pp.out.len() as u32;
        if pp.segs.is_empty() {
            pp.segs.push(Seg::Copy { out: 0, src: 0 });
        }
        Ok(Expanded {
            text: pp.out,
            map: SpanMap {
                segs: pp.segs,
                len,
                src_len: pp.src_len,
            },
            missing: pp.missing,
        })
    } else {
        Err(pp.errors)
    }
}

/// A C, C++ or CUDA toolkit header, which a file may name in quotes too (`#include
/// "cuda_runtime.h"`): dropped, its declarations being simt's built-ins.
fn system_header(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    let toolkit = ["cuda/", "cub/", "thrust/", "cooperative_groups", "sys/"];
    toolkit.iter().any(|t| name.starts_with(t))
        || base.starts_with("sm_")
        || base.starts_with("curand")
        || base.starts_with("cublas")
        || base.starts_with("cufft")
        || base.starts_with("cusparse")
        || matches!(
            base,
            "cuda.h"
                | "cuda_runtime.h"
                | "cuda_runtime_api.h"
                | "cuda_fp16.h"
                | "cuda_bf16.h"
                | "cuda_fp8.h"
                | "cuda_profiler_api.h"
                | "device_launch_parameters.h"
                | "device_functions.h"
                | "device_atomic_functions.h"
                | "math_functions.h"
                | "math_constants.h"
                | "vector_types.h"
                | "vector_functions.h"
                | "driver_types.h"
                | "nvrtc.h"
                | "mma.h"
                | "helper_cuda.h"
                | "helper_functions.h"
                | "helper_string.h"
                | "helper_timer.h"
                | "assert.h"
                | "limits.h"
                | "float.h"
                | "math.h"
                | "string.h"
                | "time.h"
                | "inttypes.h"
                | "stdint.h"
                | "stddef.h"
                | "stdio.h"
                | "stdlib.h"
        )
}

/// Removes every `\` at the end of a line (C's phase 2): the spliced text, and for each splice
/// its position in that text with the bytes removed up to and including it.
fn splice(text: &str) -> (String, Vec<(u32, u32)>) {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut splices = Vec::new();
    let (mut last, mut removed) = (0, 0u32);
    let mut i = 0;
    while let Some(k) = b[i..].iter().position(|&c| c == b'\\').map(|k| k + i) {
        let n = match &b[k + 1..] {
            [b'\n', ..] => 2,
            [b'\r', b'\n', ..] => 3,
            _ => {
                i = k + 1;
                continue;
            }
        };
        out.push_str(&text[last..k]);
        removed += n as u32;
        last = k + n;
        i = last;
        splices.push((out.len() as u32, removed));
    }
    out.push_str(&text[last..]);
    (out, splices)
}

/// What kind of preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Number,
    Str,
    Char,
    Punct,
    Other,
}

/// What the lexer found next.
enum Lexed {
    Tok {
        kind: Kind,
        start: usize,
        end: usize,
        /// Whitespace, a comment or a line end stands before it.
        space: bool,
    },
    /// A line end at this byte.
    Newline(usize),
    End,
}

/// Splits (spliced) text into preprocessing tokens; comments are whitespace.
struct Lexer<'t> {
    text: &'t str,
    pos: usize,
    after_newline: bool,
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str) -> Lexer<'t> {
        Lexer {
            text,
            pos: 0,
            after_newline: false,
        }
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.text.as_bytes().get(at).copied()
    }

    /// Skips spaces and comments (a block comment may span lines); `true` if there were any.
    fn skip_space(&mut self) -> bool {
        let start = self.pos;
        let b = self.text.as_bytes();
        loop {
            match (self.byte(self.pos), self.byte(self.pos + 1)) {
                (Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c), _) => self.pos += 1,
                (Some(b'/'), Some(b'/')) => {
                    self.pos = b[self.pos..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(b.len(), |k| self.pos + k);
                }
                (Some(b'/'), Some(b'*')) => {
                    self.pos = b[self.pos + 2..]
                        .windows(2)
                        .position(|w| w == b"*/")
                        .map_or(b.len(), |k| self.pos + 2 + k + 2);
                }
                _ => break,
            }
        }
        self.pos > start
    }

    fn next(&mut self) -> Lexed {
        let skipped = self.skip_space();
        let space = skipped | std::mem::take(&mut self.after_newline);
        let start = self.pos;
        let Some(c) = self.byte(start) else {
            return Lexed::End;
        };
        let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let kind = if c == b'\n' {
            self.pos += 1;
            self.after_newline = true;
            return Lexed::Newline(start);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while self.byte(self.pos).is_some_and(is_ident) {
                self.pos += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit()
            || (c == b'.' && self.byte(start + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            // A pp-number: digits, letters, `_`, `.`, and a sign after an exponent letter.
            self.pos += 1;
            while let Some(d) = self.byte(self.pos) {
                if matches!(d, b'e' | b'E' | b'p' | b'P')
                    && matches!(self.byte(self.pos + 1), Some(b'+' | b'-'))
                {
                    self.pos += 2;
                } else if is_ident(d) || d == b'.' {
                    self.pos += 1;
                } else if d == b'\'' && self.byte(self.pos + 1).is_some_and(is_ident) {
                    // A C++14 digit separator (`1'000'000`), part of the number.
                    self.pos += 2;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if c == b'"' || c == b'\'' {
            self.quoted(c);
            if c == b'"' {
                Kind::Str
            } else {
                Kind::Char
            }
        } else if c.is_ascii() {
            let rest = &self.text.as_bytes()[start..];
            let len = PUNCTUATORS
                .iter()
                .find(|p| rest.starts_with(p.as_bytes()))
                .map_or(1, |p| p.len());
            self.pos += len;
            Kind::Punct
        } else {
            self.pos += self.text[start..].chars().next().map_or(1, char::len_utf8);
            Kind::Other
        };
        Lexed::Tok {
            kind,
            start,
            end: self.pos,
            space,
        }
    }

    /// A string or character literal; an unclosed one ends at the line end.
    fn quoted(&mut self, quote: u8) {
        self.pos += 1;
        while let Some(c) = self.byte(self.pos) {
            match c {
                b'\\' => self.pos += 2,
                b'\n' => break,
                _ if c == quote => {
                    self.pos += 1;
                    break;
                }
                _ => self.pos += 1,
            }
        }
        // An escape may have stepped into a multi-byte character or past the end; the loop only
        // stops on ASCII bytes or the end, both of them character boundaries.
        self.pos = self.pos.min(self.text.len());
    }
}

/// A preprocessing token on its way through expansion.
#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    text: Rc<str>,
    /// Whitespace stands before it (kept by `#` stringifying).
    space: bool,
    /// Where a diagnostic about it points: its own text in the file, or the macro use.
    at: Span,
    /// The outermost macro use that wrote it; `None` for a token of the file.
    whole: Option<Span>,
    /// The token of a `#define` body it is a copy of.
    def: Option<Span>,
    /// Its bytes in the spliced text while it is a token of the file not yet replaced.
    src: Option<(u32, u32)>,
    /// Macros that may not expand it again (C's hide set), sorted.
    hide: Rc<[u32]>,
}

impl Tok {
    fn is(&self, punct: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == punct
    }

    /// The macro use that wrote it, or its own text.
    fn origin(&self) -> Span {
        self.whole.unwrap_or(self.at)
    }
}

/// The variadic parameter's standard name.
const VA_ARGS: &str = "__VA_ARGS__";

/// A `#define`.
#[derive(Debug)]
struct Macro {
    /// Its name's number, for hide sets.
    id: u32,
    /// Named parameters; `None` for an object-like macro.
    params: Option<Vec<Rc<str>>>,
    /// Ends in `...`: `__VA_ARGS__` is the parameter after the named ones.
    variadic: bool,
    /// What the body calls the variadic parameter: `__VA_ARGS__`, or GNU's own name (`args`
    /// of `#define LogInfo(format, args...)`).
    va_name: Rc<str>,
    body: Vec<Tok>,
    /// The name in its `#define` (none for the predefined ones).
    def: Option<Span>,
}

impl Macro {
    /// This macro with every span it holds moved to `at` (one defined in a local header, whose
    /// text the diagnostics cannot show).
    fn blamed(&self, at: Span) -> Macro {
        let body = self
            .body
            .iter()
            .map(|t| Tok {
                at,
                whole: Some(at),
                def: Some(at),
                ..t.clone()
            })
            .collect();
        Macro {
            id: self.id,
            params: self.params.clone(),
            variadic: self.variadic,
            va_name: self.va_name.clone(),
            body,
            def: Some(at),
        }
    }

    /// Which parameter a body token names.
    fn param(&self, t: &Tok) -> Option<usize> {
        let params = self.params.as_ref()?;
        if t.kind != Kind::Ident {
            return None;
        }
        if self.variadic && t.text == self.va_name {
            return Some(params.len());
        }
        params.iter().position(|p| **p == *t.text)
    }
}

/// An open `#if`, `#ifdef` or `#ifndef`.
struct Cond {
    /// The directive that opened it, for an unterminated one.
    directive: String,
    span: Span,
    /// The text around it is kept.
    parent: bool,
    /// One of its branches was kept already.
    taken: bool,
    seen_else: bool,
}

/// One piece of a macro body after parameters are replaced, before `##` pastes.
enum Item {
    Tok(Tok),
    Paste,
    /// An empty argument next to `##` (C's placemarker).
    Mark,
}

/// The preprocessor's state for one file.
struct Pp<'s> {
    /// The spliced text.
    text: &'s str,
    /// The file as written, for `__LINE__`.
    original: &'s str,
    splices: Vec<(u32, u32)>,
    src_len: u32,
    /// The folder `#include "name"` looks in: the file's own.
    dir: Option<PathBuf>,
    /// Local headers read so far (each is read once, as if include-guarded).
    local: Vec<PathBuf>,
    /// Quoted includes of headers found nowhere.
    missing: Vec<String>,
    macros: HashMap<Rc<str>, Rc<Macro>>,
    /// The [`HOST_DEFINES`] keywords still defined (not `#define`d or `#undef`ed by the file).
    keywords: Vec<&'static str>,
    ids: HashMap<Rc<str>, u32>,
    /// Headers of [`super::headers`] read so far (each is read once, as if include-guarded).
    included: Vec<&'static str>,
    /// Tokens written by expansions so far (bounded by [`MAX_EXPANSION`]).
    produced: usize,
    errors: Vec<ParseError>,
    /// The expansion grew too large: stop.
    fatal: bool,
    out: String,
    segs: Vec<Seg>,
    /// The output ends in a written token (so copied text needs a space before it).
    after_token: bool,
    /// The spliced text before this byte is in the output, dropped or replaced.
    copied_to: u32,
    conds: Vec<Cond>,
    /// Text here is kept (not in a false branch).
    active: bool,
    no_hide: Rc<[u32]>,
}

impl<'s> Pp<'s> {
    /// A preprocessor at the start of the spliced text `text` of `original`, in the folder
    /// `dir`, with no macro defined yet.
    fn over(
        text: &'s str,
        original: &'s str,
        splices: Vec<(u32, u32)>,
        dir: Option<&Path>,
    ) -> Pp<'s> {
        Pp {
            text,
            original,
            splices,
            src_len: original.len() as u32,
            dir: dir.map(Path::to_path_buf),
            local: Vec::new(),
            missing: Vec::new(),
            macros: HashMap::new(),
            keywords: HOST_DEFINES.to_vec(),
            ids: HashMap::new(),
            included: Vec::new(),
            produced: 0,
            errors: Vec::new(),
            fatal: false,
            out: String::new(),
            segs: Vec::new(),
            after_token: false,
            copied_to: 0,
            conds: Vec::new(),
            active: true,
            no_hide: Rc::from(Vec::new()),
        }
    }

    fn id(&mut self, name: &str) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(Rc::from(name)).or_insert(next)
    }

    /// Byte `p` of the spliced text in the file.
    fn orig(&self, p: u32) -> u32 {
        let i = self.splices.partition_point(|&(q, _)| q <= p);
        match i.checked_sub(1) {
            Some(i) => p + self.splices[i].1,
            None => p,
        }
    }

    /// Bytes `start..end` of the spliced text in the file.
    fn orig_span(&self, start: usize, end: usize) -> Span {
        let (s, e) = (start as u32, end as u32);
        if e > s {
            Span {
                start: self.orig(s),
                end: self.orig(e - 1) + 1,
            }
        } else {
            let at = self.orig(s);
            Span { start: at, end: at }
        }
    }

    fn tok(&self, kind: Kind, start: usize, end: usize, space: bool, in_run: bool) -> Tok {
        Tok {
            kind,
            text: Rc::from(&self.text[start..end]),
            space,
            at: self.orig_span(start, end),
            whole: None,
            def: None,
            src: in_run.then_some((start as u32, end as u32)),
            hide: self.no_hide.clone(),
        }
    }

    /// Copies spliced text `from..to` to the output, one segment between splices.
    fn copy(&mut self, from: u32, to: u32) {
        if to <= from {
            return;
        }
        if std::mem::take(&mut self.after_token) {
            self.out.push(' ');
        }
        let first = self.splices.partition_point(|&(q, _)| q <= from);
        let inner = self.splices[first..]
            .iter()
            .map(|&(q, _)| q)
            .take_while(|&q| q < to);
        let mut starts = vec![from];
        starts.extend(inner);
        for (k, &a) in starts.iter().enumerate() {
            let b = starts.get(k + 1).copied().unwrap_or(to);
            let out = self.out.len() as u32;
            let src = self.orig(a);
            let contiguous = match self.segs.last() {
                Some(&Seg::Copy { out: o, src: s }) => s + (out - o) == src,
                _ => false,
            };
            if !contiguous {
                self.segs.push(Seg::Copy { out, src });
            }
            self.out.push_str(&self.text[a as usize..b as usize]);
        }
    }

    /// Writes a token a macro produced.
    fn write(&mut self, t: &Tok) {
        self.segs.push(Seg::Token {
            out: self.out.len() as u32,
            at: t.at,
            whole: t.origin(),
            def: t.def,
        });
        // `at::Half` from a macro stays one name: no space beside `::` (after a name or `>`).
        let joins = &*t.text == "::"
            && self
                .out
                .ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '>');
        if !(joins || self.out.ends_with("::")) {
            self.out.push(' ');
        }
        self.out.push_str(&t.text);
        self.after_token = true;
    }

    /// Walks the file: directives, and runs of lines between them to expand.
    fn file(&mut self) {
        let text = self.text;
        let mut lx = Lexer::new(text);
        let mut line_start = true;
        let mut run = Vec::new();
        loop {
            if self.fatal {
                return;
            }
            match lx.next() {
                Lexed::End => break,
                Lexed::Newline(_) => line_start = true,
                Lexed::Tok {
                    kind: Kind::Punct,
                    start,
                    end,
                    ..
                } if line_start && &text[start..end] == "#" => {
                    let mut toks = Vec::new();
                    let line_end = loop {
                        match lx.next() {
                            Lexed::Tok {
                                kind,
                                start,
                                end,
                                space,
                            } => toks.push(self.tok(kind, start, end, space, false)),
                            Lexed::Newline(at) => break at,
                            Lexed::End => break text.len(),
                        }
                    };
                    if self.active {
                        self.expand(std::mem::take(&mut run).into(), true, 0);
                        self.copy(self.copied_to, start as u32);
                        self.copied_to = start as u32;
                    }
                    let hash = self.orig_span(start, end);
                    let keep = self.directive(hash, &toks, end, line_end);
                    if !keep {
                        self.copied_to = line_end as u32;
                    }
                    line_start = true;
                }
                Lexed::Tok {
                    kind,
                    start,
                    end,
                    space,
                } => {
                    line_start = false;
                    if self.active {
                        run.push(self.tok(kind, start, end, space, true));
                    }
                }
            }
        }
        if self.active {
            self.expand(run.into(), true, 0);
            self.copy(self.copied_to, text.len() as u32);
        }
        for c in std::mem::take(&mut self.conds) {
            self.errors.push(ParseError::UnterminatedConditional {
                directive: c.directive,
                span: c.span,
            });
        }
    }

    /// Runs one directive (`hash` is its `#`, `toks` the rest of its line, which ends at spliced
    /// byte `line_end`); `true` to keep its line in the output (a `#pragma`).
    fn directive(&mut self, hash: Span, toks: &[Tok], after_hash: usize, line_end: usize) -> bool {
        let Some(first) = toks.first() else {
            return false; // `#` alone: the null directive
        };
        if first.kind != Kind::Ident {
            return false; // `# 12 "file"`: a line marker
        }
        let name = &*first.text;
        let span = hash.to(first.at);
        let directive = format!("#{name}");
        let args = &toks[1..];
        match name {
            "if" | "ifdef" | "ifndef" => {
                let taken = self.active && self.test(name, &directive, span, args);
                self.conds.push(Cond {
                    directive,
                    span,
                    parent: self.active,
                    taken,
                    seen_else: false,
                });
                self.active = self.active && taken;
            }
            "elif" | "elifdef" | "elifndef" | "else" => {
                let Some(c) = self.conds.last() else {
                    self.errors.push(ParseError::UnmatchedConditional {
                        directive,
                        problem: "without `#if`".into(),
                        span,
                    });
                    return false;
                };
                if c.seen_else {
                    self.errors.push(ParseError::UnmatchedConditional {
                        directive,
                        problem: "after `#else`".into(),
                        span,
                    });
                    self.active = false;
                    return false;
                }
                let (parent, taken) = (c.parent, c.taken);
                let now =
                    parent && !taken && (name == "else" || self.test(name, &directive, span, args));
                if let Some(c) = self.conds.last_mut() {
                    c.taken |= now;
                    c.seen_else = name == "else";
                }
                self.active = now;
            }
            "endif" => match self.conds.pop() {
                Some(c) => self.active = c.parent,
                None => self.errors.push(ParseError::UnmatchedConditional {
                    directive,
                    problem: "without `#if`".into(),
                    span,
                }),
            },
            _ if !self.active => {}
            "define" => self.define(span, args),
            "undef" => match args.first() {
                Some(t) if t.kind == Kind::Ident => {
                    self.macros.remove(&*t.text);
                    self.keywords.retain(|k| *k != &*t.text);
                }
                _ => self.bad(
                    "undef",
                    "a macro name must follow `#undef`",
                    args.first().map_or(span, |t| t.at),
                ),
            },
            "include" => self.include(hash, toks),
            "include_next" | "line" | "warning" | "ident" => {}
            "pragma" => return true,
            "error" => {
                let end = line_end.max(after_hash);
                let message = self.text[after_hash..end]
                    .trim()
                    .strip_prefix("error")
                    .unwrap_or("")
                    .trim()
                    .to_string();
                self.errors.push(ParseError::ErrorDirective {
                    message,
                    span: hash.to(self.orig_span(after_hash, end)),
                });
            }
            _ => self.errors.push(ParseError::UnknownDirective {
                name: name.to_string(),
                span,
            }),
        }
        false
    }

    /// Defines the macro `name` (`NAME(a, b)` for a function-like one) as `value`, as a header
    /// or the compiler does (no `#define` line of the file's to point at).
    fn define_builtin(&mut self, name: &str, value: &str) {
        let (name, params) = match name.split_once('(') {
            Some((name, rest)) => {
                let params = rest.trim_end_matches(')').split(',');
                (name, Some(params.map(|p| Rc::from(p.trim())).collect()))
            }
            None => (name, None),
        };
        let mut lx = Lexer::new(value);
        let mut body = Vec::new();
        while let Lexed::Tok {
            kind, start, end, ..
        } = lx.next()
        {
            body.push(Tok {
                kind,
                text: Rc::from(&value[start..end]),
                space: false,
                at: Span::default(),
                whole: None,
                def: None,
                src: None,
                hide: self.no_hide.clone(),
            });
        }
        let id = self.id(name);
        self.macros.insert(
            Rc::from(name),
            Rc::new(Macro {
                id,
                params,
                variadic: false,
                va_name: VA_ARGS.into(),
                body,
                def: None,
            }),
        );
    }

    /// `#include <thrust/complex.h>`: a header simt has is read in place, its tokens blaming the
    /// directive; any other is dropped (the built-ins are always there).
    fn include(&mut self, hash: Span, toks: &[Tok]) {
        let name: String = match toks.get(1) {
            Some(t) if t.kind == Kind::Str => t.text.trim_matches('"').to_string(),
            Some(t) if t.is("<") => toks[2..]
                .iter()
                .take_while(|t| !t.is(">"))
                .map(|t| &*t.text)
                .collect(),
            _ => return,
        };
        // cuda.h (the driver API) defines `CUDA_VERSION`; nvcc's implicit cuda_runtime.h does
        // not include it, so a file that does not include cuda.h has no `CUDA_VERSION`.
        if name == "cuda.h" && !self.macros.contains_key(CUDA_VERSION.0) {
            self.define_builtin(CUDA_VERSION.0, CUDA_VERSION.1);
        }
        for &(macro_name, body) in super::headers::defines(&name) {
            if !self.macros.contains_key(macro_name) {
                self.define_builtin(macro_name, body);
            }
        }
        let at = hash.to(toks.last().map_or(hash, |t| t.at));
        let quoted = toks.get(1).is_some_and(|t| t.kind == Kind::Str);
        let beside = self.dir.as_ref().map(|d| d.join(&name));
        match beside {
            // A project's header included as `<gpu_voxels/helpers/cuda_datatypes.h>` (its build
            // gives `-I` the tree's root) is read from beside the file too, as a quoted one.
            Some(path)
                if (super::headers::header(&name).is_none() || super::headers::is_alias(&name))
                    && path.is_file() =>
            {
                // One file under two spellings (`common.h`, `sub/../common.h`) is read once.
                let path = std::fs::canonicalize(&path).unwrap_or(path);
                self.read_local(path, &name, at)
            }
            _ => {
                // What the real header includes (PyTorch's extension headers give
                // `<functional>`).
                for &implied in super::headers::implied(&name) {
                    self.read_header(implied, at);
                }
                self.read_header(&name, at);
                if let Some(guard) = super::headers::guard(&name) {
                    if !self.macros.contains_key(guard) {
                        self.define_builtin(guard, "");
                    }
                }
                if quoted && super::headers::header(&name).is_none() && !system_header(&name) {
                    self.missing.push(name);
                }
            }
        }
    }

    /// `#include "name"` of a header beside the file: preprocessed in place with this file's
    /// macros, which keep what it defines. Its text and its macros' tokens blame the directive
    /// (a diagnostic inside it points at the `#include` line and names the header).
    fn read_local(&mut self, path: PathBuf, name: &str, at: Span) {
        if self.local.contains(&path) {
            return;
        }
        self.local.push(path.clone());
        let text = match std::fs::read(&path) {
            Ok(bytes) => crate::source::decode(bytes),
            Err(e) => return self.bad("include", &format!("`{name}` cannot be read: {e}"), at),
        };
        let before = self.macros.clone();
        let (spliced, splices) = splice(&text);
        let mut header = Pp::over(&spliced, &text, splices, path.parent());
        header.local = std::mem::take(&mut self.local);
        header.missing = std::mem::take(&mut self.missing);
        header.macros = std::mem::take(&mut self.macros);
        header.keywords = std::mem::take(&mut self.keywords);
        header.ids = std::mem::take(&mut self.ids);
        header.included = std::mem::take(&mut self.included);
        header.produced = self.produced;
        header.file();
        self.local = header.local;
        self.missing = header.missing;
        self.macros = header.macros;
        self.keywords = header.keywords;
        self.ids = header.ids;
        self.included = header.included;
        self.produced = header.produced;
        self.fatal |= header.fatal;
        for e in header.errors {
            self.bad("include", &format!("in `{name}`: {e}"), at);
        }
        for (key, m) in self.macros.iter_mut() {
            if before.get(key).is_none_or(|b| !Rc::ptr_eq(b, m)) {
                *m = Rc::new(m.blamed(at));
            }
        }
        if !header.out.trim().is_empty() {
            self.segs.push(Seg::Token {
                out: self.out.len() as u32,
                at,
                whole: at,
                def: None,
            });
            self.out.push(' ');
            self.out.push_str(&header.out);
            self.after_token = true;
        }
    }

    /// Reads simt's text of the header `name`, if it has one and has not read it, as if written
    /// at `at`.
    fn read_header(&mut self, name: &str, at: Span) {
        let Some(text) = super::headers::header(name) else {
            return;
        };
        // Two names of one header (`glm/glm.hpp` and `glm/gtc/type_ptr.hpp`) read it once.
        if self.included.iter().any(|t| std::ptr::eq(*t, text)) {
            return;
        }
        self.included.push(text);
        let mut lx = Lexer::new(text);
        let mut body = VecDeque::new();
        loop {
            match lx.next() {
                Lexed::Tok {
                    kind, start, end, ..
                } => body.push_back(Tok {
                    kind,
                    text: Rc::from(&text[start..end]),
                    space: true,
                    at,
                    whole: Some(at),
                    def: None,
                    src: None,
                    hide: self.no_hide.clone(),
                }),
                Lexed::Newline(_) => {}
                Lexed::End => break,
            }
        }
        self.expand(body, true, 0);
    }

    fn bad(&mut self, directive: &str, problem: &str, span: Span) {
        self.errors.push(ParseError::BadDirective {
            directive: directive.to_string(),
            problem: problem.to_string(),
            span,
        });
    }

    /// The condition of `#if`, `#elif`, `#ifdef` … with the rest of its line.
    fn test(&mut self, name: &str, directive: &str, span: Span, args: &[Tok]) -> bool {
        match name {
            "if" | "elif" => self.condition(directive, span, args),
            _ => match args.first() {
                Some(t) if t.kind == Kind::Ident => {
                    self.is_defined(&t.text) != name.ends_with("ndef")
                }
                _ => {
                    self.bad(
                        &directive[1..],
                        &format!("a macro name must follow `{directive}`"),
                        args.first().map_or(span, |t| t.at),
                    );
                    false
                }
            },
        }
    }

    /// Evaluates the expression of an `#if` or `#elif`.
    fn condition(&mut self, directive: &str, span: Span, args: &[Tok]) -> bool {
        let mut q = VecDeque::new();
        let mut i = 0;
        while let Some(t) = args.get(i) {
            if t.kind == Kind::Ident && HAS_OPERATORS.contains(&&*t.text) {
                // `__has_include(<x.h>)` and friends: 0 (headers are not read, builtins unknown).
                let mut j = i + 1;
                if args.get(j).is_some_and(|o| o.is("(")) {
                    let mut level = 0;
                    while let Some(a) = args.get(j) {
                        j += 1;
                        level += a.is("(") as i32 - a.is(")") as i32;
                        if level == 0 {
                            break;
                        }
                    }
                }
                let has = t.text.starts_with("__has_include");
                q.push_back(Tok {
                    kind: Kind::Number,
                    text: Rc::from(if has { "1" } else { "0" }),
                    ..t.clone()
                });
                i = j;
                continue;
            }
            if t.kind != Kind::Ident || &*t.text != "defined" {
                q.push_back(t.clone());
                i += 1;
                continue;
            }
            let (name, used) = match (args.get(i + 1), args.get(i + 2), args.get(i + 3)) {
                (Some(o), Some(n), Some(c)) if o.is("(") && n.kind == Kind::Ident && c.is(")") => {
                    (n, 4)
                }
                (Some(n), _, _) if n.kind == Kind::Ident => (n, 2),
                _ => {
                    self.errors.push(ParseError::BadCondition {
                        directive: directive.to_string(),
                        problem: "`defined` needs a macro name: `defined(NAME)`".into(),
                        span: t.at,
                    });
                    return false;
                }
            };
            let value = if self.is_defined(&name.text) {
                "1"
            } else {
                "0"
            };
            q.push_back(Tok {
                kind: Kind::Number,
                text: Rc::from(value),
                at: t.at.to(args[i + used - 1].at),
                ..t.clone()
            });
            i += used;
        }
        let toks = self.expand(q, false, 0);
        if self.fatal {
            return false;
        }
        if toks.is_empty() {
            self.errors.push(ParseError::BadCondition {
                directive: directive.to_string(),
                problem: "there is no expression".into(),
                span,
            });
            return false;
        }
        let mut eval = Eval {
            toks: &toks,
            pos: 0,
            depth: 0,
            end: toks.last().map_or(span, |t| t.at),
        };
        match eval.whole() {
            Ok(v) => v.v != 0,
            Err((problem, at)) => {
                self.errors.push(ParseError::BadCondition {
                    directive: directive.to_string(),
                    problem,
                    span: at,
                });
                false
            }
        }
    }

    /// `#define NAME body` or `#define NAME(params) body`.
    fn define(&mut self, span: Span, toks: &[Tok]) {
        let name = match toks.first() {
            Some(t) if t.kind == Kind::Ident && &*t.text != "defined" => t,
            other => {
                return self.bad(
                    "define",
                    "a macro name must follow `#define`",
                    other.map_or(span, |t| t.at),
                )
            }
        };
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        let mut va_name: Rc<str> = VA_ARGS.into();
        if toks.get(1).is_some_and(|t| t.is("(") && !t.space) {
            let mut names: Vec<Rc<str>> = Vec::new();
            i = 2;
            if toks.get(i).is_some_and(|t| t.is(")")) {
                i += 1;
            } else {
                loop {
                    let Some(t) = toks.get(i) else {
                        return self.bad("define", "the parameter list has no `)`", name.at);
                    };
                    if t.is("...") {
                        variadic = true;
                        i += 1;
                        if !toks.get(i).is_some_and(|t| t.is(")")) {
                            return self.bad("define", "`...` must be the last parameter", t.at);
                        }
                        i += 1;
                        break;
                    }
                    if t.kind != Kind::Ident || &*t.text == "__VA_ARGS__" {
                        return self.bad("define", "expected a parameter name", t.at);
                    }
                    if names.contains(&t.text) {
                        return self.bad("define", "a parameter is named twice", t.at);
                    }
                    // GNU's named variadic parameter: `args...`.
                    if toks.get(i + 1).is_some_and(|d| d.is("...")) {
                        variadic = true;
                        va_name = t.text.clone();
                        i += 2;
                        if !toks.get(i).is_some_and(|t| t.is(")")) {
                            return self.bad("define", "`...` must be the last parameter", t.at);
                        }
                        i += 1;
                        break;
                    }
                    names.push(t.text.clone());
                    i += 1;
                    match toks.get(i) {
                        Some(c) if c.is(",") => i += 1,
                        Some(c) if c.is(")") => {
                            i += 1;
                            break;
                        }
                        Some(c) => {
                            return self.bad(
                                "define",
                                "expected `,` or `)` after a parameter",
                                c.at,
                            )
                        }
                        None => {
                            return self.bad("define", "the parameter list has no `)`", name.at)
                        }
                    }
                }
            }
            params = Some(names);
        }
        let mut body: Vec<Tok> = toks[i..].to_vec();
        if let Some(first) = body.first_mut() {
            first.space = false;
        }
        if let Some(t) = [body.first(), body.last()]
            .into_iter()
            .flatten()
            .find(|t| t.is("##"))
        {
            return self.bad(
                "define",
                "`##` cannot be at either end of a macro body",
                t.at,
            );
        }
        let id = self.id(&name.text);
        let m = Macro {
            id,
            params,
            variadic,
            va_name,
            body,
            def: Some(name.at),
        };
        if m.params.is_some() {
            for (k, t) in m.body.iter().enumerate() {
                if t.is("#") && m.body.get(k + 1).is_none_or(|n| m.param(n).is_none()) {
                    return self.bad("define", "`#` must be followed by a macro parameter", t.at);
                }
            }
        }
        self.keywords.retain(|k| *k != &*name.text);
        self.macros.insert(name.text.clone(), Rc::new(m));
    }

    /// Whether `name` is a macro for `#ifdef` and `defined(...)`: the file's or the compiler's,
    /// one of [`HOST_DEFINES`], or a constant of the C headers simt provides (`INT_MAX`,
    /// `M_PI`: nvcc's cuda_runtime.h includes math.h, so `#ifndef M_PI` is false there too).
    fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name)
            || self.keywords.contains(&name)
            || matches!(name, "__has_include" | "__has_include_next")
            || library_constant(name).is_some()
    }

    /// Emits a token that stays: at the top level a token of the file is copied later, a
    /// written one goes out now; inside an argument or an `#if` it is collected.
    fn put(&mut self, t: Tok, top: bool, out: &mut Vec<Tok>) {
        if !top {
            out.push(t);
        } else if t.src.is_none() {
            self.write(&t);
        }
    }

    /// A token of the file taken by a macro use: the text before it goes out, it does not.
    fn consume(&mut self, mut t: Tok) -> Tok {
        if let Some((s, e)) = t.src.take() {
            self.copy(self.copied_to, s);
            self.copied_to = e;
        }
        t
    }

    /// Expands every macro in `q` and rescans (C's 6.10.3.4). At the top level the result goes
    /// to the output; otherwise (an argument, an `#if`) it is returned.
    fn expand(&mut self, mut q: VecDeque<Tok>, top: bool, depth: usize) -> Vec<Tok> {
        let mut out = Vec::new();
        while let Some(t) = q.pop_front() {
            if self.fatal {
                break;
            }
            let m = match self.macros.get(&*t.text) {
                Some(m) if t.kind == Kind::Ident && t.hide.binary_search(&m.id).is_err() => {
                    m.clone()
                }
                // `__LINE__`: the line where the outermost macro use that wrote it begins
                // (Paddle's PADDLE_ENFORCE prints it), or its own.
                None if t.kind == Kind::Ident && &*t.text == "__LINE__" => {
                    let t = self.consume(t);
                    let at = (t.origin().start as usize).min(self.original.len());
                    let line = 1 + self.original.as_bytes()[..at]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count();
                    let number = Tok {
                        kind: Kind::Number,
                        text: Rc::from(line.to_string()),
                        whole: Some(t.origin()),
                        ..t
                    };
                    self.put(number, top, &mut out);
                    continue;
                }
                _ => {
                    self.put(t, top, &mut out);
                    continue;
                }
            };
            let Some(params) = &m.params else {
                let name = self.consume(t);
                let hide = union(&name.hide, &[m.id]);
                let body = self.subst(&m, Vec::new(), hide, name.origin(), depth);
                push_front(&mut q, body);
                continue;
            };
            if !q.front().is_some_and(|n| n.is("(")) {
                self.put(t, top, &mut out);
                continue;
            }
            let name = self.consume(t);
            let open = q.pop_front().expect("checked: `(` follows");
            self.consume(open);
            let named = params.len();
            let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
            let mut level = 0u32;
            let close = loop {
                let Some(a) = q.pop_front() else {
                    break None;
                };
                let a = self.consume(a);
                if a.is("(") {
                    level += 1;
                } else if a.is(")") {
                    if level == 0 {
                        break Some(a);
                    }
                    level -= 1;
                } else if a.is(",") && level == 0 && (!m.variadic || args.len() <= named) {
                    args.push(Vec::new());
                    continue;
                }
                args.last_mut().expect("one argument at least").push(a);
            };
            let Some(close) = close else {
                self.errors.push(ParseError::UnterminatedMacroCall {
                    name: name.text.to_string(),
                    span: name.at,
                });
                continue;
            };
            let use_span = name.origin().to(close.origin());
            if named == 0 && args.len() == 1 && args[0].is_empty() {
                args.clear();
            }
            if m.variadic && args.len() == named {
                args.push(Vec::new());
            }
            let wanted = named + m.variadic as usize;
            if args.len() != wanted {
                self.errors.push(ParseError::MacroArguments {
                    name: name.text.to_string(),
                    expected: format!(
                        "{}{named} argument{}",
                        if m.variadic { "at least " } else { "" },
                        if named == 1 { "" } else { "s" }
                    ),
                    found: args.len(),
                    span: use_span,
                    def: m.def,
                });
                continue;
            }
            let hide = union(&intersect(&name.hide, &close.hide), &[m.id]);
            let body = self.subst(&m, args, hide, use_span, depth);
            push_front(&mut q, body);
        }
        out
    }

    /// The body of `m` with its parameters replaced by `args`, `#` and `##` applied, and `hide`
    /// added to every token (Prosser's `subst`).
    fn subst(
        &mut self,
        m: &Macro,
        args: Vec<Vec<Tok>>,
        hide: Rc<[u32]>,
        use_span: Span,
        depth: usize,
    ) -> Vec<Tok> {
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let mut items: Vec<Item> = Vec::with_capacity(m.body.len());
        let written = |t: &Tok| Tok {
            at: use_span,
            whole: Some(use_span),
            def: m.def.and(Some(t.at)),
            src: None,
            ..t.clone()
        };
        let mut i = 0;
        while let Some(b) = m.body.get(i) {
            i += 1;
            if m.params.is_some() && b.is("#") {
                if let Some(p) = m.body.get(i).and_then(|n| m.param(n)) {
                    i += 1;
                    items.push(Item::Tok(Tok {
                        space: b.space,
                        ..stringify(&args[p], written(b))
                    }));
                    continue;
                }
            }
            if b.is("##") {
                if !matches!(items.last(), Some(Item::Paste)) {
                    items.push(Item::Paste);
                }
                continue;
            }
            let Some(p) = m.param(b) else {
                items.push(Item::Tok(written(b)));
                continue;
            };
            let after_paste = matches!(items.last(), Some(Item::Paste));
            if after_paste || m.body.get(i).is_some_and(|n| n.is("##")) {
                // GNU's `, ## __VA_ARGS__`: no paste; the comma goes when there are no arguments.
                let comma = after_paste
                    && m.variadic
                    && p == args.len() - 1
                    && matches!(items.iter().rev().nth(1), Some(Item::Tok(c)) if c.is(","));
                if comma {
                    items.pop();
                    if args[p].is_empty() {
                        items.pop();
                    }
                }
                if args[p].is_empty() {
                    if !comma {
                        items.push(Item::Mark);
                    }
                } else {
                    items.extend(args[p].iter().map(|t| Item::Tok(t.clone())));
                }
                continue;
            }
            if expanded[p].is_none() {
                if depth + 1 >= MAX_NESTING {
                    self.errors.push(ParseError::TooDeep { span: use_span });
                    self.fatal = true;
                    return Vec::new();
                }
                let arg: VecDeque<Tok> = args[p].iter().cloned().collect();
                let e = crate::stack::grow(|| self.expand(arg, false, depth + 1));
                expanded[p] = Some(e);
            }
            items.extend(expanded[p].iter().flatten().map(|t| Item::Tok(t.clone())));
        }
        let mut res: Vec<Item> = Vec::with_capacity(items.len());
        let mut it = items.into_iter();
        while let Some(item) = it.next() {
            if !matches!(item, Item::Paste) {
                res.push(item);
                continue;
            }
            match (res.pop(), it.next()) {
                (Some(Item::Tok(l)), Some(Item::Tok(r))) => match self.paste(&l, &r, use_span) {
                    Some(t) => res.push(Item::Tok(t)),
                    None => res.extend([Item::Tok(l), Item::Tok(r)]),
                },
                (Some(Item::Tok(l)), _) => res.push(Item::Tok(l)),
                (_, Some(Item::Tok(r))) => res.push(Item::Tok(r)),
                _ => res.push(Item::Mark),
            }
        }
        if self.fatal {
            return Vec::new();
        }
        // Each token counts, and so does merging long hide sets (one per 64 entries), so that
        // the bound also caps the time spent.
        let merging: usize = res
            .iter()
            .map(|item| match item {
                Item::Tok(t) if !t.hide.is_empty() => t.hide.len() + hide.len(),
                _ => 0,
            })
            .sum();
        self.produced += res.len() + merging / 64;
        if self.produced > MAX_EXPANSION {
            self.errors
                .push(ParseError::MacroTooLarge { span: use_span });
            self.fatal = true;
            return Vec::new();
        }
        res.into_iter()
            .filter_map(|item| match item {
                Item::Tok(t) => Some(Tok {
                    hide: if t.hide.is_empty() {
                        hide.clone()
                    } else {
                        union(&t.hide, &hide)
                    },
                    whole: Some(use_span),
                    src: None,
                    ..t
                }),
                _ => None,
            })
            .collect()
    }

    /// `l ## r`: one token, or a diagnostic.
    fn paste(&mut self, l: &Tok, r: &Tok, use_span: Span) -> Option<Tok> {
        let text = format!("{}{}", l.text, r.text);
        let mut lx = Lexer::new(&text);
        match (lx.next(), lx.next()) {
            (
                Lexed::Tok {
                    kind,
                    start: 0,
                    end,
                    ..
                },
                Lexed::End,
            ) if end == text.len() => Some(Tok {
                kind,
                text: Rc::from(text),
                space: l.space,
                at: use_span,
                whole: Some(use_span),
                def: None,
                src: None,
                hide: self.no_hide.clone(),
            }),
            _ => {
                self.errors.push(ParseError::BadPaste {
                    text,
                    span: use_span,
                });
                None
            }
        }
    }
}

/// `#x`: the argument's spelling as a string literal (one space where it had any).
fn stringify(arg: &[Tok], template: Tok) -> Tok {
    let mut s = String::from("\"");
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space {
            s.push(' ');
        }
        if matches!(t.kind, Kind::Str | Kind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    Tok {
        kind: Kind::Str,
        text: Rc::from(s),
        ..template
    }
}

fn push_front(q: &mut VecDeque<Tok>, toks: Vec<Tok>) {
    for t in toks.into_iter().rev() {
        q.push_front(t);
    }
}

/// The union of two sorted sets.
fn union(a: &[u32], b: &[u32]) -> Rc<[u32]> {
    let mut v: Vec<u32> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v.dedup();
    Rc::from(v)
}

/// The intersection of two sorted sets.
fn intersect(a: &[u32], b: &[u32]) -> Vec<u32> {
    a.iter()
        .copied()
        .filter(|x| b.binary_search(x).is_ok())
        .collect()
}

/// A value in an `#if`: C's `intmax_t` or `uintmax_t`.
#[derive(Clone, Copy, Debug)]
struct Val {
    v: i64,
    unsigned: bool,
}

impl Val {
    fn int(v: i64) -> Val {
        Val { v, unsigned: false }
    }
}

/// A value, or what is wrong and where.
type EvalResult<T> = Result<T, (String, Span)>;

/// Evaluates the tokens of an `#if` after macro expansion; unknown names are 0.
struct Eval<'a> {
    toks: &'a [Tok],
    pos: usize,
    depth: usize,
    /// Where "the line ended" points.
    end: Span,
}

impl<'a> Eval<'a> {
    fn whole(&mut self) -> EvalResult<Val> {
        let v = self.ternary(true)?;
        match self.toks.get(self.pos) {
            Some(t) => Err((format!("`{}` does not belong here", t.text), t.at)),
            None => Ok(v),
        }
    }

    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, punct: &str) -> bool {
        let yes = self.peek().is_some_and(|t| t.is(punct));
        self.pos += yes as usize;
        yes
    }

    fn found(&self) -> (String, Span) {
        match self.peek() {
            Some(t) => (format!("found `{}`", t.text), t.at),
            None => ("found the end of the line".into(), self.end),
        }
    }

    /// `c ? a : b`; `live` is false where C does not evaluate (no division-by-zero error there).
    fn ternary(&mut self, live: bool) -> EvalResult<Val> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let at = self.peek().map_or(self.end, |t| t.at);
            return Err(("nested too deeply".into(), at));
        }
        let c = crate::stack::grow(|| self.binary(1, live))?;
        let v = if self.eat("?") {
            let a = crate::stack::grow(|| self.ternary(live && c.v != 0))?;
            if !self.eat(":") {
                let (found, at) = self.found();
                return Err((format!("expected `:`, {found}"), at));
            }
            let b = crate::stack::grow(|| self.ternary(live && c.v == 0))?;
            Val {
                v: if c.v != 0 { a.v } else { b.v },
                unsigned: a.unsigned || b.unsigned,
            }
        } else {
            c
        };
        self.depth -= 1;
        Ok(v)
    }

    /// Binary operators from precedence `min` up (precedence climbing).
    fn binary(&mut self, min: u8, live: bool) -> EvalResult<Val> {
        let mut lhs = self.unary(live)?;
        while let Some(t) = self.peek() {
            let prec = match (t.kind, &*t.text) {
                (Kind::Punct, "||") => 1,
                (Kind::Punct, "&&") => 2,
                (Kind::Punct, "|") => 3,
                (Kind::Punct, "^") => 4,
                (Kind::Punct, "&") => 5,
                (Kind::Punct, "==" | "!=") => 6,
                (Kind::Punct, "<" | ">" | "<=" | ">=") => 7,
                (Kind::Punct, "<<" | ">>") => 8,
                (Kind::Punct, "+" | "-") => 9,
                (Kind::Punct, "*" | "/" | "%") => 10,
                _ => break,
            };
            if prec < min {
                break;
            }
            let (op, at) = (t.text.clone(), t.at);
            self.pos += 1;
            let rhs_live = match &*op {
                "&&" => live && lhs.v != 0,
                "||" => live && lhs.v == 0,
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = apply(&op, lhs, rhs, live, at)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, live: bool) -> EvalResult<Val> {
        let Some(t) = self.peek() else {
            let (found, at) = self.found();
            return Err((format!("expected a value, {found}"), at));
        };
        let op = match (t.kind, &*t.text) {
            (Kind::Punct, op @ ("-" | "+" | "~" | "!")) => op.to_string(),
            _ => return self.primary(live),
        };
        self.pos += 1;
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(("nested too deeply".into(), t.at));
        }
        let a = crate::stack::grow(|| self.unary(live))?;
        self.depth -= 1;
        Ok(match &*op {
            "-" => Val {
                v: a.v.wrapping_neg(),
                ..a
            },
            "~" => Val { v: !a.v, ..a },
            "!" => Val::int((a.v == 0) as i64),
            _ => a,
        })
    }

    fn primary(&mut self, live: bool) -> EvalResult<Val> {
        let Some(t) = self.peek() else {
            let (found, at) = self.found();
            return Err((format!("expected a value, {found}"), at));
        };
        let (kind, text, at) = (t.kind, t.text.clone(), t.at);
        self.pos += 1;
        match kind {
            Kind::Number => int_value(&text).map_err(|p| (p, at)),
            Kind::Char => char_value(&text).map_err(|p| (p, at)),
            // C++: `true` is 1; every other name left after expansion is 0, but for the
            // integer limits of `<climits>` and `<stdint.h>`, which simt's headers always
            // define (`#if UINT32_MAX == 0xffffffffu`).
            Kind::Ident => Ok(match library_constant(&text) {
                Some(Value::I32(v)) => Val::int(v.into()),
                Some(Value::I64(v)) => Val::int(v),
                Some(Value::U32(v)) => Val {
                    v: v.into(),
                    unsigned: true,
                },
                Some(Value::U64(v)) => Val {
                    v: v as i64,
                    unsigned: true,
                },
                Some(_) => {
                    return Err((
                        format!("`{text}` is a floating constant, which an `#if` cannot hold"),
                        at,
                    ))
                }
                None => Val::int((&*text == "true") as i64),
            }),
            Kind::Punct if &*text == "(" => {
                let v = self.ternary(live)?;
                if !self.eat(")") {
                    let (found, at) = self.found();
                    return Err((format!("expected `)`, {found}"), at));
                }
                Ok(v)
            }
            _ => Err((format!("expected a value, found `{text}`"), at)),
        }
    }
}

/// One binary operator of an `#if`, with C's usual conversions between signed and unsigned.
fn apply(op: &str, a: Val, b: Val, live: bool, at: Span) -> EvalResult<Val> {
    let unsigned = a.unsigned || b.unsigned;
    let (ua, ub) = (a.v as u64, b.v as u64);
    let cmp =
        |signed: bool, unsigned_: bool| Val::int(if unsigned { unsigned_ } else { signed } as i64);
    let arith = |v: i64| Val { v, unsigned };
    Ok(match op {
        "*" => arith(a.v.wrapping_mul(b.v)),
        "/" | "%" if b.v == 0 => {
            if live {
                return Err(("division by zero".into(), at));
            }
            arith(0)
        }
        "/" if unsigned => arith((ua / ub) as i64),
        "/" => arith(a.v.wrapping_div(b.v)),
        "%" if unsigned => arith((ua % ub) as i64),
        "%" => arith(a.v.wrapping_rem(b.v)),
        "+" => arith(a.v.wrapping_add(b.v)),
        "-" => arith(a.v.wrapping_sub(b.v)),
        "<<" | ">>" => {
            let n = if !b.unsigned && b.v < 0 {
                64
            } else {
                ub.min(64)
            } as u32;
            let v = match (op, n) {
                ("<<", 64) => 0,
                ("<<", n) => a.v.wrapping_shl(n),
                (_, 64) if !a.unsigned && a.v < 0 => -1,
                (_, 64) => 0,
                (_, n) if a.unsigned => (ua >> n) as i64,
                (_, n) => a.v >> n,
            };
            Val {
                v,
                unsigned: a.unsigned,
            }
        }
        "<" => cmp(a.v < b.v, ua < ub),
        ">" => cmp(a.v > b.v, ua > ub),
        "<=" => cmp(a.v <= b.v, ua <= ub),
        ">=" => cmp(a.v >= b.v, ua >= ub),
        "==" => Val::int((a.v == b.v) as i64),
        "!=" => Val::int((a.v != b.v) as i64),
        "&" => arith(a.v & b.v),
        "^" => arith(a.v ^ b.v),
        "|" => arith(a.v | b.v),
        "&&" => Val::int((a.v != 0 && b.v != 0) as i64),
        _ => Val::int((a.v != 0 || b.v != 0) as i64),
    })
}

/// An integer literal of an `#if`: decimal, hex, octal or binary, with `u`/`l` suffixes.
fn int_value(text: &str) -> Result<Val, String> {
    let lower = text.to_ascii_lowercase().replace('\'', "");
    let body = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[body.len()..];
    let not_int = || format!("`{text}` is not an integer (`#if` takes integers only)");
    if !matches!(suffix, "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu") {
        return Err(not_int());
    }
    let (radix, digits) = if let Some(h) = body.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = body.strip_prefix("0b") {
        (2, b)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(not_int());
    }
    let v = u64::from_str_radix(digits, radix)
        .map_err(|_| format!("integer literal `{text}` does not fit in 64 bits"))?;
    Ok(Val {
        v: v as i64,
        unsigned: suffix.contains('u') || v > i64::MAX as u64,
    })
}

/// A character literal of an `#if`: `'a'`, `'\n'`, `'\x41'`, `'\101'`.
fn char_value(text: &str) -> Result<Val, String> {
    let inner = text
        .trim_start_matches(['L', 'u', 'U', '8'])
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("`{text}` is not a character literal"))?;
    let mut chars = inner.chars();
    let v = match chars.next() {
        Some('\\') => {
            let rest = chars.as_str();
            let e = rest.chars().next().unwrap_or('\\');
            let (v, used) = match e {
                'n' => (10, 1),
                't' => (9, 1),
                'r' => (13, 1),
                'a' => (7, 1),
                'b' => (8, 1),
                'f' => (12, 1),
                'v' => (11, 1),
                'x' => {
                    let hex: String = rest[1..]
                        .chars()
                        .take_while(char::is_ascii_hexdigit)
                        .collect();
                    let v = u32::from_str_radix(&hex, 16)
                        .map_err(|_| format!("`{text}` is not a character literal"))?;
                    (v as i64, 1 + hex.len())
                }
                '0'..='7' => {
                    let oct: String = rest.chars().take_while(|c| c.is_digit(8)).take(3).collect();
                    (i64::from_str_radix(&oct, 8).unwrap_or(0), oct.len())
                }
                c => (c as i64, c.len_utf8()),
            };
            chars = rest.get(used..).unwrap_or("").chars();
            v
        }
        Some(c) => c as i64,
        None => 0,
    };
    if chars.next().is_some() {
        return Err(format!(
            "`{text}` has more than one character (`#if` takes one)"
        ));
    }
    Ok(Val::int(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::Diagnostic;

    /// The tokens of a text, one space apart (how `gcc -E -P` output is compared).
    fn tokens(text: &str) -> String {
        let mut lx = Lexer::new(text);
        let mut out = Vec::new();
        loop {
            match lx.next() {
                Lexed::Tok { start, end, .. } => out.push(&text[start..end]),
                Lexed::Newline(_) => {}
                Lexed::End => return out.join(" "),
            }
        }
    }

    fn expand(text: &str) -> String {
        match preprocess(text, 900, &[]) {
            Ok(e) => tokens(&e.text),
            Err(es) => panic!("{text:?}: {es:?}"),
        }
    }

    fn codes(text: &str) -> Vec<String> {
        match preprocess(text, 900, &[]) {
            Ok(e) => panic!("{text:?} expanded to {:?}", e.text),
            Err(es) => es
                .iter()
                .map(|e| e.code().map(|c| c.to_string()).unwrap_or_default())
                .collect(),
        }
    }

    /// (what, input, expected tokens). Each expectation is what `gcc -E -P -x c` writes for the
    /// input (see `agrees_with_gcc`), written out here so the test needs no gcc.
    const CASES: &[(&str, &str, &str)] = &[
        ("object-like: tokens, not a value", "#define K 3 + 4\nK * 2", "3 + 4 * 2"),
        (
            "function-like",
            "#define IMUL(a, b) __mul24(a, b)\nIMUL(x + 1, y)",
            "__mul24 ( x + 1 , y )",
        ),
        ("a type", "#define DATA_TYPE float\nDATA_TYPE v;", "float v ;"),
        (
            "arguments are expanded first",
            "#define SQ(x) ((x)*(x))\nSQ(SQ(2))",
            "( ( ( ( 2 ) * ( 2 ) ) ) * ( ( ( 2 ) * ( 2 ) ) ) )",
        ),
        ("self-reference expands once", "#define N (N + 1)\nN", "( N + 1 )"),
        ("mutual reference", "#define A B\n#define B A\nA B", "A B"),
        ("a name without `(` is not a call", "#define F(x) x\nF + F(1)", "F + 1"),
        ("arguments across lines", "#define F(a,b) a+b\nF(1,\n2)", "1 + 2"),
        ("commas inside parentheses", "#define F(a) [a]\nF((1, 2))", "[ ( 1 , 2 ) ]"),
        ("an empty argument", "#define F(a) [a]\nF()", "[ ]"),
        ("no parameters", "#define F() 7\nF()", "7"),
        (
            "variadic",
            "#define P(f, ...) g(f, __VA_ARGS__)\nP(1, 2, 3)",
            "g ( 1 , 2 , 3 )",
        ),
        (
            "GNU comma before empty __VA_ARGS__",
            "#define P(f, ...) g(f, ## __VA_ARGS__)\nP(1) P(1, 2)",
            "g ( 1 ) g ( 1 , 2 )",
        ),
        (
            "GNU named variadic parameter",
            "#define L(fmt, args...) p(fmt, ## args)\nL(1) L(1, 2, 3) args",
            "p ( 1 ) p ( 1 , 2 , 3 ) args",
        ),
        (
            "stringify",
            "#define S(x) #x\nS(a  +  \"b\\n\" 'c')",
            r#""a + \"b\\n\" 'c'""#,
        ),
        (
            "paste, with empty sides",
            "#define CAT(a, b) a ## b\nCAT(x, 1) CAT(, y) CAT(1, ) CAT(0x, 1F)",
            "x1 y 1 0x1F",
        ),
        (
            "stringify the expansion through a second macro",
            "#define STR(x) #x\n#define XSTR(x) STR(x)\n#define N 4\nSTR(N) XSTR(N)",
            "\"N\" \"4\"",
        ),
        (
            "a macro name written by another, with arguments from the text",
            "#define G F\n#define F(x) [x]\nG(1)",
            "[ 1 ]",
        ),
        (
            "#if arithmetic and defined",
            "#if (2 + 3) * 4 == 20 && !defined(FOO) && !defined FOO\nyes\n#else\nno\n#endif",
            "yes",
        ),
        (
            "#elif chain",
            "#define V 2\n#if V == 1\none\n#elif V == 2\ntwo\n#else\nother\n#endif",
            "two",
        ),
        (
            "nested conditionals",
            "#if 0\n#if 1\na\n#else\nb\n#endif\nc\n#else\nd\n#endif",
            "d",
        ),
        (
            "#ifdef, #ifndef, #undef",
            "#define X\n#ifdef X\na\n#endif\n#undef X\n#ifndef X\nb\n#endif",
            "a b",
        ),
        (
            "unsigned and signed #if arithmetic",
            "#if -1 > 0u\nwraps\n#endif\n#if -7 / 2 == -3 && -7 % 2 == -1 && (1 << 62) > 0\ntruncates\n#endif",
            "wraps truncates",
        ),
        (
            "unknown names are 0 in #if",
            "#if UNKNOWN == 0 && !UNKNOWN\nzero\n#endif",
            "zero",
        ),
        (
            // glibc's values and types: UINT32_MAX is `4294967295U` (so -1 < it is false, as
            // -1 converts to unsigned), INT_MIN the int -2147483648, INT64_MAX a long.
            "<climits> and <stdint.h> limits in #if",
            "#if UINT32_MAX == 4294967295 && INT_MIN < 0 && INT64_MAX > UINT32_MAX\nknown\n#endif\n#if -1 < UINT32_MAX\nsigned\n#else\nunsigned\n#endif",
            "known unsigned",
        ),
        (
            "header constants are defined",
            "#if defined(UINT32_MAX) && CHAR_MIN < 0\nboth\n#endif\n#ifndef M_PI\n#define M_PI 3\n#endif\nM_PI",
            "both M_PI",
        ),
        (
            "no division error where C does not evaluate",
            "#if 0 && (1 / 0)\nx\n#elif 1 || 1 / 0\ny\n#endif\n#if 1 ? 2 : 1 / 0\nz\n#endif",
            "y z",
        ),
        (
            "__has_include is 1 and defined, __has_builtin 0",
            "#if defined(__has_include) && __has_include(<cub/cub.cuh>) && __has_include(\"x.h\")\nh\n#endif\n#if __has_builtin(__builtin_expect)\nb\n#else\nnone\n#endif",
            "h none",
        ),
        (
            "character literals and hex in #if",
            "#if 'A' == 65 && '\\n' == 10 && 0x10 == 16 && 010 == 8\nc\n#endif",
            "c",
        ),
        (
            "comments and strings are not expanded",
            "#define K 3\n/* K */ \"K\" K // K",
            "\"K\" 3",
        ),
        ("a continued #define", "#define LONG 1 + \\\n 2\nLONG", "1 + 2"),
        (
            "a continued #define with CRLF",
            "#define LONG 1 + \\\r\n 2\r\nLONG\r\n",
            "1 + 2",
        ),
        (
            "#include is dropped, #pragma kept",
            "#include <cuda_runtime.h>\n#include \"helper.h\"\n#pragma unroll\nfor",
            "# pragma unroll for",
        ),
        (
            "skipped text is not read for directives",
            "#if 0\n#foo\n#define 3\n#error no\n#else\nkept\n#endif",
            "kept",
        ),
        (
            "the C standard's example 3 (6.10.3.5)",
            "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n\
             #define z z[0]\n#define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n\
             #define p() int\n#define q(x) x\n#define r(x,y) x ## y\n#define str(x) # x\n\
             f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n\
             p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n\
             char c[2][6] = { str(hello), str() };",
            "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
             f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ; \
             int i [ ] = { 1 , 23 , 4 , 5 , } ; char c [ 2 ] [ 6 ] = { \"hello\" , \"\" } ;",
        ),
    ];

    #[test]
    fn expands_as_c_does() {
        for (what, input, want) in CASES {
            assert_eq!(expand(input), *want, "{what}");
        }
    }

    #[test]
    fn predefined_macros_are_nvccs() {
        assert_eq!(
            expand("__CUDA_ARCH__ __CUDACC__ __NVCC__ __cplusplus"),
            "900 1 1 201703L"
        );
        // nvcc 12.4: `#if __CUDACC_VER_MAJOR__ < 11` (LAMMPS's texture path) is false.
        assert_eq!(
            expand("__CUDACC_VER_MAJOR__ __CUDACC_VER_MINOR__ __CUDACC_VER_BUILD__"),
            "12 4 131"
        );
        // cuda_runtime_api.h for 12.4: 12 * 1000 + 4 * 10 (FasterTransformer's `#ifndef CUDART_VERSION #error`).
        assert_eq!(expand("CUDART_VERSION"), "12040");
        // cuda.h defines CUDA_VERSION (12.4: 12040); nvcc's implicit cuda_runtime.h does not
        // include cuda.h, so without it the name stays a name (`#if` reads it as 0).
        assert_eq!(expand("CUDA_VERSION"), "CUDA_VERSION");
        assert_eq!(expand("#include <cuda.h>\nCUDA_VERSION"), "12040");
        // PyTorch's headers define C10_WARP_SIZE (c10/macros/Macros.h), 32 for CUDA.
        assert_eq!(expand("C10_WARP_SIZE"), "C10_WARP_SIZE");
        assert!(expand("#include <torch/extension.h>\nC10_WARP_SIZE").ends_with(" 32"));
        assert_eq!(
            expand("#include <c10/macros/Macros.h>\nC10_WARP_SIZE"),
            "32"
        );
        assert_eq!(expand("#include \"cuda.h\"\nCUDA_VERSION"), "12040");
        assert_eq!(
            expand("#if CUDA_VERSION >= 9000\nnew\n#else\nold\n#endif"),
            "old"
        );
        // A file's own definition before the include stands.
        assert_eq!(
            expand("#define CUDA_VERSION 8000\n#include <cuda.h>\nCUDA_VERSION"),
            "8000"
        );
        // crt/host_defines.h makes the execution spaces macros: faiss's `#ifndef __host__`
        // fallback is skipped, and each keyword is still itself after expansion.
        assert_eq!(
            expand("#ifndef __host__\n#define __device__\n#endif\n__device__ __host__"),
            "__device__ __host__"
        );
        assert_eq!(
            expand("#if defined(__global__) && defined(__launch_bounds__)\nyes\n#endif"),
            "yes"
        );
        assert_eq!(
            expand("__launch_bounds__(256, 2) __forceinline__"),
            "__launch_bounds__ ( 256 , 2 ) __forceinline__"
        );
        // The file's own definition replaces one, and `#undef` removes it.
        assert_eq!(
            expand("#undef __device__\n#ifdef __device__\nyes\n#else\nno\n#endif"),
            "no"
        );
        assert_eq!(expand("#define __noinline__\n__noinline__ f"), "f");
        // GCC keywords, not macros on Linux (the header defines them only for MSVC).
        assert_eq!(
            expand("#ifdef __restrict__\nmacro\n#else\nkeyword\n#endif"),
            "keyword"
        );
        // sm_80 (A100), sm_89 (L4, RTX 4090), sm_100 (B200).
        assert_eq!(
            [cuda_arch((8, 0)), cuda_arch((8, 9)), cuda_arch((10, 0))],
            [800, 890, 1000]
        );
    }

    /// Runs every case through `gcc -E -P` (where gcc is installed) and compares tokens.
    #[test]
    #[ignore = "needs gcc; run with --ignored to re-derive the expectations"]
    fn agrees_with_gcc() {
        // gcc would look for the headers; simt drops `#include` lines.
        for (what, input, want) in CASES.iter().filter(|c| !c.1.contains("#include")) {
            let mut child = std::process::Command::new("gcc")
                .args(["-E", "-P", "-x", "c", "-"])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("gcc runs");
            std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes())
                .expect("write");
            let out = child.wait_with_output().expect("gcc output");
            let got = tokens(&String::from_utf8_lossy(&out.stdout));
            assert_eq!(got, *want, "{what}: gcc wrote {got:?}");
        }
    }

    #[test]
    fn every_mistake_is_a_diagnostic() {
        let cases: &[(&str, &str)] = &[
            ("#if 1\n", "simt::parse::unterminated_conditional"),
            ("#endif", "simt::parse::unmatched_conditional"),
            ("#else\n", "simt::parse::unmatched_conditional"),
            ("#elif 1\n", "simt::parse::unmatched_conditional"),
            (
                "#if 1\n#else\n#elif 1\n#endif",
                "simt::parse::unmatched_conditional",
            ),
            (
                "#if 0\n#else\n#else\n#endif",
                "simt::parse::unmatched_conditional",
            ),
            ("#define F(a) a\nF(1, 2)", "simt::parse::macro_arguments"),
            ("#define F(a, b) a\nF(1)", "simt::parse::macro_arguments"),
            ("#define F() 1\nF(2)", "simt::parse::macro_arguments"),
            (
                "#define F(a) a\nF(1",
                "simt::parse::unterminated_macro_call",
            ),
            (
                "#define F(a) a\nF(1\n#pragma x\n)",
                "simt::parse::unterminated_macro_call",
            ),
            ("#if\n#endif", "simt::parse::bad_condition"),
            ("#if 1 +\n#endif", "simt::parse::bad_condition"),
            ("#if (1\n#endif", "simt::parse::bad_condition"),
            ("#if 1 ? 2\n#endif", "simt::parse::bad_condition"),
            ("#if 1 2\n#endif", "simt::parse::bad_condition"),
            ("#if 1 / 0\n#endif", "simt::parse::bad_condition"),
            ("#if 1 % 0\n#endif", "simt::parse::bad_condition"),
            // A floating constant, as GCC: "floating constant in preprocessor expression".
            ("#if FLT_MAX > 1\n#endif", "simt::parse::bad_condition"),
            (
                "#if 99999999999999999999\n#endif",
                "simt::parse::bad_condition",
            ),
            ("#if 1.0\n#endif", "simt::parse::bad_condition"),
            ("#if 1x\n#endif", "simt::parse::bad_condition"),
            ("#if 'ab'\n#endif", "simt::parse::bad_condition"),
            ("#if \"s\"\n#endif", "simt::parse::bad_condition"),
            ("#if defined\n#endif", "simt::parse::bad_condition"),
            ("#if defined(\n#endif", "simt::parse::bad_condition"),
            ("#ifdef\n#endif", "simt::parse::bad_directive"),
            ("#ifndef 3\n#endif", "simt::parse::bad_directive"),
            ("#define\n", "simt::parse::bad_directive"),
            ("#define defined 1\n", "simt::parse::bad_directive"),
            ("#define F(a\n", "simt::parse::bad_directive"),
            ("#define F(a,)\n", "simt::parse::bad_directive"),
            ("#define F(a b)\n", "simt::parse::bad_directive"),
            ("#define F(..., a)\n", "simt::parse::bad_directive"),
            ("#define F(__VA_ARGS__)\n", "simt::parse::bad_directive"),
            ("#define F(a) #b\n", "simt::parse::bad_directive"),
            ("#define F ## x\n", "simt::parse::bad_directive"),
            ("#define F(x) x ##\n", "simt::parse::bad_directive"),
            ("#undef 3\n", "simt::parse::bad_directive"),
            ("#undef\n", "simt::parse::bad_directive"),
            ("#error stop here\n", "simt::parse::error_directive"),
            ("#foo\n", "simt::parse::unknown_directive"),
            (
                "#define CAT(a, b) a ## b\nCAT(+, -)",
                "simt::parse::bad_paste",
            ),
            (
                "#define CAT(a, b) a ## b\nCAT(/, /)",
                "simt::parse::bad_paste",
            ),
        ];
        for (input, code) in cases {
            assert_eq!(codes(input), [*code], "{input:?}");
        }
    }

    #[test]
    fn every_mistake_in_a_file_is_reported() {
        assert_eq!(
            codes("#foo\n#define\n#if 1\n"),
            [
                "simt::parse::unknown_directive",
                "simt::parse::bad_directive",
                "simt::parse::unterminated_conditional"
            ]
        );
    }

    #[test]
    fn endless_expansion_stops_at_the_bound() {
        // Each level uses the one below twice: A40 would be 2^40 tokens.
        let mut text = String::from("#define A0 x\n");
        for i in 1..=40 {
            text += &format!("#define A{i} A{} A{}\n", i - 1, i - 1);
        }
        text += "A40";
        assert_eq!(codes(&text), ["simt::parse::macro_too_large"]);
        // Arguments expanded once and used twice grow the same way.
        let text = format!("#define D(x) x x\n{}1{}", "D(".repeat(40), ")".repeat(40));
        assert_eq!(codes(&text), ["simt::parse::macro_too_large"]);
    }

    #[test]
    fn deep_nesting_is_a_diagnostic_not_an_overflow() {
        let text = format!("#define F(x) x\n{}1{}", "F(".repeat(5000), ")".repeat(5000));
        assert_eq!(codes(&text), ["simt::parse::too_deep"]);
        let text = format!("#if {}1{}\n#endif", "(".repeat(5000), ")".repeat(5000));
        assert_eq!(codes(&text), ["simt::parse::bad_condition"]);
        let text = format!("#if {}1\n#endif", "-".repeat(5000));
        assert_eq!(codes(&text), ["simt::parse::bad_condition"]);
        let text = format!("#if {}1\n#endif", "1 ? ".repeat(5000));
        assert_eq!(codes(&text), ["simt::parse::bad_condition"]);
    }

    /// The span of the file that the output text `needle` (its `n`th occurrence) came from.
    fn origin(input: &str, needle: &str, n: usize) -> String {
        let e = preprocess(input, 900, &[]).expect("preprocesses");
        let at = e
            .text
            .match_indices(needle)
            .nth(n)
            .unwrap_or_else(|| panic!("{needle:?} in {:?}", e.text))
            .0;
        let s = e.map.span(at, at + needle.len());
        input[s.start as usize..s.end as usize].to_string()
    }

    #[test]
    fn spans_map_back_into_the_file() {
        let text = "#define K 3 + 4\nint x = K * 2;";
        // Untouched text maps to itself; a body's tokens to the use; a run that mixes both
        // from the first one's origin to the last one's.
        assert_eq!(origin(text, "int x", 0), "int x");
        assert_eq!(origin(text, "3", 0), "K");
        assert_eq!(origin(text, "4", 0), "K");
        assert_eq!(origin(text, "4  * 2", 0), "K * 2");
        // An argument passed through maps to its own text; the body around it to the use.
        let text = "#define SQ(x) ((x) * (x))\ny = SQ(a + b);";
        assert_eq!(origin(text, "a", 1), "a");
        assert_eq!(origin(text, "b", 0), "b");
        assert_eq!(origin(text, "*", 0), "SQ(a + b)");
        // Arguments put the other way round: the whole use.
        let text = "#define SUB(a, b) b - a\nz = SUB(x, y);";
        assert_eq!(origin(text, "y - x", 0), "SUB(x, y)");
        // After a spliced line, and after dropped directives, offsets still line up.
        let text = "#if 1\nint a = 1 + \\\r\n  bad;\n#endif\nint c;";
        assert_eq!(origin(text, "bad", 0), "bad");
        assert_eq!(origin(text, "int c", 0), "int c");
        assert_eq!(origin(text, "1 +   bad", 0), "1 + \\\r\n  bad");
    }

    #[test]
    fn diagnostics_point_into_the_file() {
        let err = |text: &str| match preprocess(text, 900, &[]) {
            Err(es) => {
                let s = es[0]
                    .labels()
                    .and_then(|mut l| l.next())
                    .expect("a label")
                    .inner()
                    .to_owned();
                text[s.offset()..s.offset() + s.len()].to_string()
            }
            Ok(_) => panic!("{text:?} expanded"),
        };
        assert_eq!(err("#define F(a) a\nx = F(1, 2);"), "F(1, 2)");
        assert_eq!(err("#define F(a) a\nx = F(1;"), "F");
        assert_eq!(err("#define N 0\n#if 4 / N\n#endif"), "/");
        assert_eq!(err("#if 1\n#else\n  #  else\n#endif"), "#  else");
        assert_eq!(err("#ifndef X\n"), "#ifndef");
        assert_eq!(
            err("#error  needs \\\n sm_80\n"),
            "#error  needs \\\n sm_80"
        );
    }

    #[test]
    fn text_without_directives_is_copied_unchanged() {
        let text = "__global__ void k(float* a) { /* c */ a[0] = 1.0f; } // end\r\n";
        let e = preprocess(text, 900, &[]).expect("preprocesses");
        assert_eq!(e.text, text);
        assert_eq!(e.map.span(3, 9), Span::new(3, 9));
    }

    proptest::proptest! {
        /// Any mix of directives, macros and stray pieces: no panic, and every span of the output
        /// or of a diagnostic lies inside the file, in order, on character boundaries.
        #[test]
        fn spans_stay_inside_the_file(
            pieces in proptest::collection::vec(proptest::sample::select(&FRAGMENTS[..]), 0..60),
            cuts in proptest::collection::vec((0usize..400, 0usize..400), 8),
        ) {
            let text: String = pieces.concat();
            // The whole parse, with spans mapped through the expansion, never panics either.
            let _ = super::super::parse(&crate::source::SourceFile::new("p.sk", text.clone()));
            let inside = |s: Span| {
                s.start <= s.end
                    && (s.end as usize) <= text.len()
                    && text.is_char_boundary(s.start as usize)
                    && text.is_char_boundary(s.end as usize)
            };
            match preprocess(&text, 900, &[]) {
                Ok(e) => {
                    let len = e.text.len();
                    // The parser cuts the output on character boundaries only.
                    let boundary = |mut p: usize| {
                        p = p.min(len);
                        while !e.text.is_char_boundary(p) {
                            p -= 1;
                        }
                        p
                    };
                    for (a, b) in cuts {
                        let (a, b) = (boundary(a), boundary(b));
                        let s = e.map.span(a.min(b), a.max(b));
                        proptest::prop_assert!(inside(s), "{s:?} of {text:?}");
                    }
                }
                Err(es) => {
                    for err in es {
                        for l in err.labels().into_iter().flatten() {
                            let s = Span::new(l.offset(), l.offset() + l.len());
                            proptest::prop_assert!(inside(s), "{err:?} of {text:?}");
                        }
                    }
                }
            }
        }
    }

    const FRAGMENTS: [&str; 50] = [
        "#define ",
        "#undef ",
        "#if ",
        "#ifdef ",
        "#ifndef ",
        "#elif ",
        "#else",
        "#endif",
        "#error x",
        "#pragma unroll",
        "#include <a.h>",
        "#",
        "\n",
        "\\\n",
        "\\\r\n",
        "\r\n",
        " ",
        "F",
        "G",
        "x",
        "(",
        ")",
        ",",
        "##",
        "...",
        "__VA_ARGS__",
        "defined",
        "1",
        "0",
        "+",
        "/",
        "\"s\"",
        "'c'",
        "/*",
        "*/",
        "//",
        "é",
        "(x)",
        "F(",
        "G(a,b)",
        "F(x) x",
        "G(a, ...) a ## __VA_ARGS__ #a",
        "x x",
        "1 ? 2 : 3",
        "__global__ void k(int* a) {",
        "}",
        "a[0] = ",
        ";",
        "float",
        "-",
    ];

    #[test]
    fn int_literals_in_if() {
        let v = |t: &str| int_value(t).map(|v| (v.v, v.unsigned));
        assert_eq!(v("42"), Ok((42, false)));
        assert_eq!(v("42u"), Ok((42, true)));
        assert_eq!(v("0xffULL"), Ok((255, true)));
        assert_eq!(v("0b101"), Ok((5, false)));
        assert_eq!(v("017"), Ok((15, false)));
        assert_eq!(v("18446744073709551615"), Ok((-1, true)));
        assert!(v("18446744073709551616").is_err());
        assert!(v("09").is_err());
        assert!(v("1e3").is_err());
        assert!(v("1uu").is_err());
    }
}
