//! `printf` in kernels: the format checked against its arguments, each converted to its conversion's C type.

use super::typed::*;
use super::{ArgumentProblem, CheckError, KernelChecker};
use crate::printf::{self, ArgKind, Piece};
use crate::source::Span;
use crate::syntax::ast;
use crate::value::Scalar;

type Result<T> = std::result::Result<T, CheckError>;

impl KernelChecker<'_, '_> {
    /// `printf("format", args...)` as a statement.
    pub(crate) fn printf(&mut self, args: &[ast::Expr], span: Span) -> Result<StmtKind> {
        let Some((first, rest)) = args.split_first() else {
            return Err(CheckError::ArgumentCount {
                name: "printf".into(),
                expected: "a format and its values".into(),
                found: 0,
                span,
            });
        };
        let ast::ExprKind::Str(raw) = &first.kind else {
            return Err(CheckError::Unsupported {
                what: "a `printf` format that is not a string literal".into(),
                span: first.span,
                help: Some("write the format in the call: `printf(\"%d\\n\", x)`".into()),
            });
        };
        let text = unescape(raw);
        let pieces = printf::parse(&text).map_err(|(_, message)| CheckError::ArgumentType {
            problem: ArgumentProblem::Format { reason: message },
            span: first.span,
            help: Some("conversions: %d %i %u %x %X %o %c %f %e %g %a %s %p %%".into()),
        })?;
        let convs = pieces
            .iter()
            .filter(|p| matches!(p, Piece::Conv(_)))
            .count();
        if convs != rest.len() {
            return Err(CheckError::ArgumentCount {
                name: "printf".into(),
                expected: format!("{convs} value(s) after the format"),
                found: rest.len(),
                span,
            });
        }
        let mut out_pieces = Vec::new();
        let mut values = Vec::new();
        let mut rest = rest.iter();
        for piece in pieces {
            let Piece::Conv(spec) = piece else {
                out_pieces.push(piece);
                continue;
            };
            let arg = rest.next().expect("printf: one value per conversion");
            match spec.kind() {
                ArgKind::String => {
                    // A literal string is part of the text; anything else has no storage here.
                    let ast::ExprKind::Str(s) = &arg.kind else {
                        return Err(CheckError::Unsupported {
                            what: "`%s` of something other than a string literal".into(),
                            span: arg.span,
                            help: Some(
                                "kernels have no strings; print the characters with `%c`".into(),
                            ),
                        });
                    };
                    let padded = pad_string(&spec, &unescape(s));
                    out_pieces.push(Piece::Text(padded));
                }
                // `%p`: the pointer's device address in hex (as the address an integer cast
                // of it gives, docs/heap.md), `0x0` for null.
                ArgKind::Pointer if self.is_pointer(arg) => {
                    let ptr = self.pointer(arg)?;
                    values.push(self.address_value(ptr, Scalar::U64, arg.span)?);
                    out_pieces.push(Piece::Conv(spec));
                }
                // `%d` of a pointer (nvcc warns): the low bits of its address.
                ArgKind::Signed | ArgKind::Unsigned if self.is_pointer(arg) => {
                    let to = int_type(spec.int_bits(), spec.kind() == ArgKind::Signed);
                    self.notes.push((
                        arg.span,
                        "printf",
                        format!("`%{}` prints an integer, but this is a pointer (nvcc warns): simt prints the low {} bits of its address; `%p` prints all of it", spec.conv, to.size() * 8),
                    ));
                    let ptr = self.pointer(arg)?;
                    values.push(self.address_value(ptr, to, arg.span)?);
                    out_pieces.push(Piece::Conv(spec));
                }
                kind => {
                    let value = self.expr(arg)?;
                    let to = match kind {
                        ArgKind::Float => Scalar::F64,
                        // `%p` of an integer (nvcc warns): the number in hex.
                        ArgKind::Pointer => Scalar::U64,
                        ArgKind::Signed => int_type(spec.int_bits(), true),
                        _ => int_type(spec.int_bits(), false),
                    };
                    // nvcc compiles it with a warning: the file runs, and a thread that
                    // reaches the call stops the launch.
                    if value.ty.is_float() != (kind == ArgKind::Float) {
                        let float = kind == ArgKind::Float;
                        let ty = value.ty.to_string();
                        let conv = format!("%{}", spec.conv);
                        self.notes.push((
                            arg.span,
                            "printf",
                            format!("`{conv}` prints {}, but this is a `{ty}` (nvcc warns): a thread that reaches this `printf` stops the launch with simt::run::printf_argument", if float { "a floating value" } else { "an integer" }),
                        ));
                        let fault = Fault::PrintfArgument { conv, float, ty };
                        return Ok(StmtKind::Fault(fault));
                    }
                    values.push(self.convert(value, to));
                    out_pieces.push(Piece::Conv(spec));
                }
            }
        }
        Ok(StmtKind::Printf {
            pieces: out_pieces,
            args: values,
        })
    }
}

/// The integer type of a conversion: `%d` int, `%ld`/`%lld` long long, `%hd` short, `%hhd` char.
fn int_type(bits: u32, signed: bool) -> Scalar {
    match (bits, signed) {
        (8, true) => Scalar::I8,
        (8, false) => Scalar::U8,
        (16, true) => Scalar::I16,
        (16, false) => Scalar::U16,
        (32, true) => Scalar::I32,
        (32, false) => Scalar::U32,
        (_, true) => Scalar::I64,
        (_, false) => Scalar::U64,
    }
}

/// `%10s` / `%-10s` / `%.3s` of a literal.
fn pad_string(spec: &printf::Spec, s: &str) -> String {
    let s: String = match spec.precision {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    };
    let n = s.chars().count();
    let fill = spec.width.unwrap_or(0).saturating_sub(n);
    if spec.left {
        format!("{s}{}", " ".repeat(fill))
    } else {
        format!("{}{s}", " ".repeat(fill))
    }
}

/// C's escape sequences in a string literal: `\n \t \\ \" \0 \x41 \101` ..., as text: UTF-8
/// where the bytes are (`"caf\xc3\xa9"` is café), else each byte the character of its value,
/// as `%c` prints one (`\xe9` is é).
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::new();
    for chunk in literal_bytes(raw).utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|&b| char::from(b)));
    }
    out
}

/// The bytes a string literal's text stands for, escapes read (`\x41` and `\101` are one byte
/// each, other characters their UTF-8 bytes); without the terminating zero.
pub(crate) fn literal_bytes(raw: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut chars = raw.chars().peekable();
    let push = |out: &mut Vec<u8>, c: char| {
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            push(&mut out, c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some('r') => out.push(b'\r'),
            Some('a') => out.push(7),
            Some('b') => out.push(8),
            Some('f') => out.push(12),
            Some('v') => out.push(11),
            Some('x') => {
                let mut v = 0u32;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = (v * 16 + d) & 0xff;
                    chars.next();
                }
                out.push(v as u8);
            }
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(x) => {
                            v = v * 8 + x;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push((v & 0xff) as u8);
            }
            Some(other) => push(&mut out, other),
            None => out.push(b'\\'),
        }
    }
    out
}
