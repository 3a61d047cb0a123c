//! PTX template text → scopes, register declarations and instructions, with `%n` operand references.

use super::Fail;

/// One piece of the template, in order.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Item {
    /// `{`: a scope opens (its `.reg` names end at the matching `}`).
    Open,
    /// `}`
    Close,
    /// `.reg .b32 t, u<2>;`: the type and the names (`u<2>` is `u0`, `u1`).
    Reg(String, Vec<String>),
    /// An instruction.
    Inst(Inst),
}

/// `@!p add.s32 d, a, b;`
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Inst {
    /// `@p` / `@!p`: the predicate and whether it is negated.
    pub guard: Option<(Arg, bool)>,
    /// `add`
    pub op: String,
    /// `["s32"]`: the dot-separated parts after the mnemonic.
    pub mods: Vec<String>,
    /// The operands.
    pub args: Vec<Arg>,
    /// The instruction as written (with `%n` for operands), for messages.
    pub text: String,
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Arg {
    /// `%0`: the asm statement's operand `n`.
    Operand(usize),
    /// `t`, `%p1` or `%laneid`, `%tid.x`: a declared register or a special register.
    Name(String),
    /// An integer constant (negative for `-4`).
    Int(i128),
    /// A floating constant: its value (`0f3F800000` is 1.0; `1.5` is a double).
    Float(f64),
    /// `!p`: a negated predicate.
    Not(Box<Arg>),
    /// `{a, b, c, d}`: a vector.
    Vector(Vec<Arg>),
    /// `d|p`: a destination and a second, predicate result.
    Pair(Box<Arg>, Box<Arg>),
    /// `[a]`, `[a+16]`: an address and a byte offset.
    Address(Box<Arg>, i64),
}

/// The template's items. `%%` is a literal `%`, `%n` names operand `n`.
pub(super) fn items(text: &str) -> Result<Vec<Item>, Fail> {
    let text = strip_comments(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            return Ok(out);
        };
        match c {
            '{' => {
                out.push(Item::Open);
                rest = &rest[1..];
            }
            '}' => {
                out.push(Item::Close);
                rest = &rest[1..];
            }
            ';' => rest = &rest[1..],
            _ => {
                let end = statement_end(rest);
                let stmt = rest[..end].trim();
                rest = &rest[end..];
                rest = rest.strip_prefix(';').unwrap_or(rest);
                out.push(statement(stmt)?);
            }
        }
    }
}

/// `//` and `/* */` comments dropped.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Where the statement starting `text` ends: its `;` outside brackets (or a `}` that closes a
/// scope, or the end).
fn statement_end(text: &str) -> usize {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            ']' => depth -= 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            ';' if depth == 0 => return i,
            _ => {}
        }
    }
    text.len()
}

fn statement(s: &str) -> Result<Item, Fail> {
    if let Some(decl) = s.strip_prefix(".reg") {
        return reg_decl(decl.trim(), s);
    }
    if s.starts_with('.') {
        let directive = s.split_whitespace().next().unwrap_or(s);
        return Err(Fail::unsupported(format!(
            "the PTX directive `{directive}`"
        )));
    }
    let (guard, body) = match s.strip_prefix('@') {
        Some(g) => {
            let (p, rest) = g.split_once(char::is_whitespace).ok_or_else(|| {
                Fail::invalid(format!("the PTX predicate `@{g}` guards no instruction"))
            })?;
            let (neg, p) = match p.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, p),
            };
            (Some((arg(p)?, neg)), rest.trim())
        }
        None => (None, s),
    };
    let (opcode, operands) = match body.split_once(char::is_whitespace) {
        Some((o, rest)) => (o, rest.trim()),
        None => (body, ""),
    };
    if opcode.ends_with(':') {
        return Err(Fail::unsupported(format!(
            "the PTX label `{opcode}` (branches)"
        )));
    }
    let mut parts = opcode.split('.');
    let op = parts.next().unwrap_or_default().to_string();
    let mods = parts.map(str::to_string).collect();
    let args = split_args(operands)
        .into_iter()
        .map(|a| arg(a.trim()))
        .collect::<Result<_, _>>()?;
    Ok(Item::Inst(Inst {
        guard,
        op,
        mods,
        args,
        text: s.split_whitespace().collect::<Vec<_>>().join(" "),
    }))
}

/// `.b32 t, u<2>` (after `.reg`).
fn reg_decl(decl: &str, whole: &str) -> Result<Item, Fail> {
    let (ty, names) = decl
        .split_once(char::is_whitespace)
        .ok_or_else(|| Fail::invalid(format!("`{whole}` declares no register")))?;
    let ty = ty.strip_prefix('.').unwrap_or(ty);
    let mut out = Vec::new();
    for name in names.split(',').map(str::trim) {
        match name.split_once('<') {
            Some((base, n)) => {
                let n: u32 = n
                    .strip_suffix('>')
                    .and_then(|n| n.trim().parse().ok())
                    .filter(|&n| n <= 64)
                    .ok_or_else(|| Fail::invalid(format!("`{name}` in `{whole}`")))?;
                let base = base.replace("%%", "%");
                out.extend((0..n).map(|i| format!("{base}{i}")));
            }
            None if !name.is_empty() && !name.contains(char::is_whitespace) => {
                out.push(name.replace("%%", "%"))
            }
            None => return Err(Fail::invalid(format!("`{whole}` declares no register"))),
        }
    }
    Ok(Item::Reg(ty.to_string(), out))
}

/// Operands split at top-level commas.
fn split_args(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn arg(s: &str) -> Result<Arg, Fail> {
    let bad = || Fail::invalid(format!("the PTX operand `{s}`"));
    if let Some(inner) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        return split_args(inner)
            .into_iter()
            .map(|a| arg(a.trim()))
            .collect::<Result<_, _>>()
            .map(Arg::Vector);
    }
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let inner = inner.trim();
        let (base, offset) = match inner.find(['+', '-']).filter(|&i| i > 0) {
            Some(i) => {
                let off = match int(inner[i + 1..].trim()) {
                    Some(v) => i64::try_from(v).map_err(|_| bad())?,
                    None => return Err(bad()),
                };
                let off = if inner.as_bytes()[i] == b'-' {
                    -off
                } else {
                    off
                };
                (inner[..i].trim(), off)
            }
            None => (inner, 0),
        };
        return Ok(Arg::Address(Box::new(arg(base)?), offset));
    }
    if let Some(p) = s.strip_prefix('!') {
        return Ok(Arg::Not(Box::new(arg(p.trim())?)));
    }
    if s == "_" {
        return Err(Fail::unsupported("the PTX sink operand `_`".into()));
    }
    // `r0|p`: a destination and the predicate some instructions also write (`shfl`).
    if let Some((d, p)) = s.split_once('|') {
        return Ok(Arg::Pair(
            Box::new(arg(d.trim())?),
            Box::new(arg(p.trim())?),
        ));
    }
    if let Some(n) = s.strip_prefix('%') {
        if let Some(name) = n.strip_prefix('%') {
            return Ok(Arg::Name(format!("%{name}")));
        }
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            return n.parse().map(Arg::Operand).map_err(|_| bad());
        }
        // nvcc passes `%` before a letter through unchanged (`mov.s32 %0, %laneid;`, as
        // tiny-cuda-nn and DeepEP write it): only a digit makes an operand.
        if n.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Ok(Arg::Name(s.to_string()));
        }
        return Err(Fail::invalid(format!(
            "`{s}` in the template (a register is `%%{n}` in an asm string, an operand `%0`, `%1`...)"
        )));
    }
    if let Some(v) = int(s) {
        return Ok(Arg::Int(v));
    }
    if let Some(v) = float(s) {
        return Ok(Arg::Float(v));
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    if s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && s.chars().all(ident)
    {
        return Ok(Arg::Name(s.to_string()));
    }
    Err(bad())
}

/// `42`, `-4`, `0x1F`, `0b101`, `017`, with an optional `U` suffix.
fn int(s: &str) -> Option<i128> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let s = s.strip_suffix(['U', 'u']).unwrap_or(s);
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()?
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()?
    } else if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse::<u64>().ok()?
    } else {
        return None;
    };
    let v = i128::from(v);
    Some(if neg { -v } else { v })
}

/// `0f3F800000` (the bits of a `float`), `0d3FF0000000000000` (of a `double`), `1.5`, `-2e3`.
fn float(s: &str) -> Option<f64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = body.strip_prefix("0f").or_else(|| body.strip_prefix("0F")) {
        (h.len() == 8)
            .then(|| u32::from_str_radix(h, 16).ok())
            .flatten()
            .map(|b| f64::from(f32::from_bits(b)))?
    } else if let Some(h) = body.strip_prefix("0d").or_else(|| body.strip_prefix("0D")) {
        (h.len() == 16)
            .then(|| u64::from_str_radix(h, 16).ok())
            .flatten()
            .map(f64::from_bits)?
    } else if body.contains(['.', 'e', 'E'])
        && body.starts_with(|c: char| c.is_ascii_digit() || c == '.')
    {
        body.parse::<f64>().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_with_registers_and_a_guard() {
        let items = items("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %5, 0;\n\t@!p ld.global.v4.u32 {%0, %1, %2, %3}, [%4+16];\n}\n").unwrap();
        assert_eq!(items[0], Item::Open);
        assert_eq!(items[1], Item::Reg("pred".into(), vec!["p".into()]));
        let Item::Inst(ld) = &items[3] else {
            panic!("{items:?}")
        };
        assert_eq!(ld.guard, Some((Arg::Name("p".into()), true)));
        assert_eq!(
            (ld.op.as_str(), ld.mods.join(".")),
            ("ld", "global.v4.u32".into())
        );
        assert_eq!(ld.args[1], Arg::Address(Box::new(Arg::Operand(4)), 16));
        assert_eq!(items[4], Item::Close);
    }

    #[test]
    fn constants_and_special_registers() {
        // 0f3F800000 is 1.0f (sign 0, exponent 127, mantissa 0); %%laneid is %laneid in C text.
        assert_eq!(arg("0f3F800000"), Ok(Arg::Float(1.0)));
        assert_eq!(arg("-0x10"), Ok(Arg::Int(-16)));
        assert_eq!(arg("%%laneid"), Ok(Arg::Name("%laneid".into())));
        assert_eq!(arg("%%tid.x"), Ok(Arg::Name("%tid.x".into())));
        assert_eq!(
            items(".reg .b32 r<3>;").unwrap(),
            vec![Item::Reg(
                "b32".into(),
                vec!["r0".into(), "r1".into(), "r2".into()]
            )]
        );
    }
}
