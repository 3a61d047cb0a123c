//! C's `printf` formats: a format string parsed into pieces, and each value formatted as the C library does.

use std::fmt::Write;

/// One piece of a format string.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Text printed as it is (`%%` already turned into `%`).
    Text(String),
    /// A conversion taking one argument.
    Conv(Spec),
}

/// A conversion specification such as `%-08.3f`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// `-`: left-justify.
    pub left: bool,
    /// `+`: always a sign.
    pub plus: bool,
    /// ` `: a space where the sign would be.
    pub space: bool,
    /// `#`: the alternative form.
    pub alt: bool,
    /// `0`: pad with zeros.
    pub zero: bool,
    /// Minimum width.
    pub width: Option<usize>,
    /// Precision.
    pub precision: Option<usize>,
    /// Length modifier: 0 none, 1 `l`, 2 `ll`, -1 `h`, -2 `hh`, 8 `z`/`j`/`t`.
    pub length: i8,
    /// The conversion character.
    pub conv: char,
}

impl Spec {
    /// What the conversion takes: an integer (signed or not), a floating value, a C string, a pointer.
    pub fn kind(&self) -> ArgKind {
        match self.conv {
            'd' | 'i' | 'c' => ArgKind::Signed,
            'u' | 'x' | 'X' | 'o' => ArgKind::Unsigned,
            's' => ArgKind::String,
            'p' => ArgKind::Pointer,
            _ => ArgKind::Float,
        }
    }

    /// Bits of the integer argument (`%d` 32, `%ld`/`%lld` 64, `%hd` 16, `%hhd` 8).
    pub fn int_bits(&self) -> u32 {
        match self.length {
            -2 => 8,
            -1 => 16,
            0 => 32,
            _ => 64,
        }
    }
}

/// The kind of argument a conversion takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// `%d %i %c`
    Signed,
    /// `%u %x %X %o`
    Unsigned,
    /// `%f %e %g %a` and their capitals
    Float,
    /// `%s`
    String,
    /// `%p`
    Pointer,
}

/// A format string's pieces, or what is wrong with it (the byte offset and a message).
pub fn parse(format: &str) -> Result<Vec<Piece>, (usize, String)> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let chars: Vec<(usize, char)> = format.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (at, c) = chars[k];
        k += 1;
        if c != '%' {
            text.push(c);
            continue;
        }
        if chars.get(k).map(|x| x.1) == Some('%') {
            text.push('%');
            k += 1;
            continue;
        }
        let mut spec = Spec {
            left: false,
            plus: false,
            space: false,
            alt: false,
            zero: false,
            width: None,
            precision: None,
            length: 0,
            conv: ' ',
        };
        while let Some(&(_, f)) = chars.get(k) {
            match f {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '#' => spec.alt = true,
                '0' => spec.zero = true,
                _ => break,
            }
            k += 1;
        }
        let number = |k: &mut usize| {
            let mut n: Option<usize> = None;
            while let Some(&(_, d)) = chars.get(*k) {
                let Some(v) = d.to_digit(10) else { break };
                n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(v as usize));
                *k += 1;
            }
            n
        };
        if chars.get(k).map(|x| x.1) == Some('*') {
            return Err((
                at,
                "`*` widths are not supported; write the width in the format".into(),
            ));
        }
        spec.width = number(&mut k);
        if chars.get(k).map(|x| x.1) == Some('.') {
            k += 1;
            spec.precision = Some(number(&mut k).unwrap_or(0));
        }
        loop {
            match chars.get(k).map(|x| x.1) {
                Some('l') => spec.length = if spec.length == 1 { 2 } else { 1 },
                Some('h') => spec.length = if spec.length == -1 { -2 } else { -1 },
                Some('z' | 'j' | 't') => spec.length = 8,
                Some('L') => spec.length = 2,
                _ => break,
            }
            k += 1;
        }
        match chars.get(k).map(|x| x.1) {
            Some(
                conv @ ('d' | 'i' | 'u' | 'x' | 'X' | 'o' | 'c' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G'
                | 'a' | 'A' | 's' | 'p'),
            ) => {
                spec.conv = conv;
                k += 1;
            }
            Some(other) => {
                return Err((at, format!("`%{other}` is not a printf conversion")));
            }
            None => return Err((at, "the format ends inside a conversion".into())),
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut text)));
        }
        pieces.push(Piece::Conv(spec));
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// A value passed to a conversion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// An integer, already cast to the conversion's width and signedness.
    Int(i128),
    /// A floating value (promoted to `double`).
    Float(f64),
}

/// Appends `arg` formatted by `spec` to `out`, as C's `printf` would.
pub fn format(out: &mut String, spec: &Spec, arg: Arg) {
    let body = match (spec.conv, arg) {
        ('c', Arg::Int(v)) => ((v as u8) as char).to_string(),
        ('d' | 'i', Arg::Int(v)) => signed(spec, v),
        ('u', Arg::Int(v)) => unsigned(spec, v.unsigned_abs(), 10, ""),
        ('x', Arg::Int(v)) => unsigned(spec, v as u128, 16, "0x"),
        ('X', Arg::Int(v)) => unsigned(spec, v as u128, 16, "0X").to_uppercase(),
        ('o', Arg::Int(v)) => unsigned(spec, v as u128, 8, "0"),
        ('p', Arg::Int(v)) => format!("0x{:x}", v as u128),
        (_, Arg::Float(x)) => float(spec, x),
        (_, Arg::Int(v)) => float(spec, v as f64),
    };
    pad(out, spec, &body);
}

/// Pads to the width: spaces left or right, or zeros after the sign and prefix.
fn pad(out: &mut String, spec: &Spec, body: &str) {
    let n = body.chars().count();
    let width = spec.width.unwrap_or(0);
    if n >= width {
        out.push_str(body);
        return;
    }
    let fill = width - n;
    let numeric = !matches!(spec.conv, 'c' | 's' | 'p');
    let finite = !body.contains("inf")
        && !body.contains("nan")
        && !body.contains("INF")
        && !body.contains("NAN");
    let zero_ok = spec.zero
        && !spec.left
        && numeric
        && finite
        && (spec.precision.is_none()
            || matches!(spec.conv, 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'a' | 'A'));
    if spec.left {
        out.push_str(body);
        out.extend(std::iter::repeat_n(' ', fill));
    } else if zero_ok {
        // Zeros go after the sign and the `0x` prefix.
        let signless = body.trim_start_matches(['-', '+', ' ']);
        let mut prefix_len = body.len() - signless.len();
        if signless.starts_with("0x") || signless.starts_with("0X") {
            prefix_len += 2;
        }
        out.push_str(&body[..prefix_len]);
        out.extend(std::iter::repeat_n('0', fill));
        out.push_str(&body[prefix_len..]);
    } else {
        out.extend(std::iter::repeat_n(' ', fill));
        out.push_str(body);
    }
}

fn sign(spec: &Spec, negative: bool) -> &'static str {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

fn signed(spec: &Spec, v: i128) -> String {
    let digits = with_precision(spec, v.unsigned_abs().to_string());
    format!("{}{digits}", sign(spec, v < 0))
}

fn unsigned(spec: &Spec, v: u128, radix: u32, alt: &str) -> String {
    let digits = match radix {
        16 => format!("{v:x}"),
        8 => format!("{v:o}"),
        _ => v.to_string(),
    };
    let digits = with_precision(spec, digits);
    if spec.alt && v != 0 && !(radix == 8 && digits.starts_with('0')) {
        format!("{alt}{digits}")
    } else {
        digits
    }
}

/// An integer's digits with at least `precision` of them (`%.0d` of 0 prints nothing).
fn with_precision(spec: &Spec, digits: String) -> String {
    match spec.precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if p > digits.len() => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    }
}

fn float(spec: &Spec, x: f64) -> String {
    let upper = spec.conv.is_ascii_uppercase();
    let s = sign(spec, x.is_sign_negative() && !x.is_nan());
    if !x.is_finite() {
        let word = if x.is_nan() { "nan" } else { "inf" };
        let word = if upper {
            word.to_uppercase()
        } else {
            word.to_string()
        };
        return format!("{s}{word}");
    }
    let a = x.abs();
    let p = spec.precision.unwrap_or(6);
    let body = match spec.conv.to_ascii_lowercase() {
        'f' => {
            let mut b = format!("{a:.p$}");
            if spec.alt && p == 0 {
                b.push('.');
            }
            b
        }
        'e' => exponent(a, p, spec.alt),
        'g' => general(a, p, spec.alt),
        _ => hex_float(a, spec.precision),
    };
    let body = if upper { body.to_uppercase() } else { body };
    format!("{s}{body}")
}

/// `d.ddde±XX`.
fn exponent(a: f64, p: usize, alt: bool) -> String {
    let r = format!("{a:.p$e}");
    let (mantissa, exp) = r.split_once('e').expect("rust's {:e} has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let mut m = mantissa.to_string();
    if alt && p == 0 {
        m.push('.');
    }
    let mut out = String::new();
    let _ = write!(
        out,
        "{m}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    );
    out
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    if a == 0.0 {
        let zeros = if alt {
            format!(".{}", "0".repeat(p - 1))
        } else {
            String::new()
        };
        return format!("0{}", if p > 1 { zeros } else { String::new() });
    }
    // The exponent after rounding to p significant digits.
    let e = format!("{a:.prec$e}", prec = p - 1);
    let exp: i32 = e.split_once('e').expect("exponent").1.parse().expect("int");
    let s = if exp < -4 || exp >= p as i32 {
        exponent(a, p - 1, alt)
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        format!("{a:.decimals$}")
    };
    if alt {
        return s;
    }
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{e}", trim_zeros(m)),
        None => trim_zeros(&s).to_string(),
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// `%a`: `0x1.8p+1`.
fn hex_float(a: f64, precision: Option<usize>) -> String {
    if a == 0.0 {
        return "0x0p+0".into();
    }
    let bits = a.to_bits();
    let mut exp = ((bits >> 52) & 0x7ff) as i64;
    let mut mant = bits & ((1u64 << 52) - 1);
    let lead = if exp == 0 {
        exp = -1022;
        0
    } else {
        exp -= 1023;
        1
    };
    let mut digits = format!("{mant:013x}");
    if let Some(p) = precision {
        if p < 13 {
            // Round to p hex digits, half to even on the dropped bits.
            let drop = (13 - p) * 4;
            let rem = mant & ((1u64 << drop) - 1);
            mant >>= drop;
            let half = 1u64 << (drop - 1);
            if rem > half || (rem == half && mant & 1 == 1) {
                mant += 1;
            }
            digits = if p == 0 {
                String::new()
            } else {
                format!("{mant:0p$x}")
            };
        }
    } else {
        digits = digits.trim_end_matches('0').to_string();
    }
    let dot = if digits.is_empty() { "" } else { "." };
    format!(
        "0x{lead}{dot}{digits}p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Formats one value with a one-conversion format.
    fn one(f: &str, arg: Arg) -> String {
        let pieces = parse(f).expect("a valid format");
        let mut out = String::new();
        for p in pieces {
            match p {
                Piece::Text(t) => out.push_str(&t),
                Piece::Conv(s) => format(&mut out, &s, arg),
            }
        }
        out
    }

    #[test]
    fn conversions_match_the_c_library() {
        // Expected strings are glibc's printf output for the same format and value.
        let cases: &[(&str, Arg, &str)] = &[
            ("%d", Arg::Int(-42), "-42"),
            ("%5d|", Arg::Int(42), "   42|"),
            ("%-5d|", Arg::Int(42), "42   |"),
            ("%05d", Arg::Int(-42), "-0042"),
            ("%+d", Arg::Int(7), "+7"),
            ("% d", Arg::Int(7), " 7"),
            ("%.3d", Arg::Int(7), "007"),
            ("%u", Arg::Int(4294967295), "4294967295"),
            ("%x", Arg::Int(255), "ff"),
            ("%#X", Arg::Int(255), "0XFF"),
            ("%08x", Arg::Int(48879), "0000beef"),
            ("%#o", Arg::Int(8), "010"),
            ("%c", Arg::Int(65), "A"),
            ("%f", Arg::Float(1.5), "1.500000"),
            ("%.2f", Arg::Float(1.23456), "1.23"),
            ("%8.3f|", Arg::Float(-2.5), "  -2.500|"),
            ("%08.2f", Arg::Float(-2.5), "-0002.50"),
            ("%e", Arg::Float(12345.678), "1.234568e+04"),
            ("%.2E", Arg::Float(0.000123), "1.23E-04"),
            ("%g", Arg::Float(0.0001), "0.0001"),
            ("%g", Arg::Float(0.00001), "1e-05"),
            ("%g", Arg::Float(123456.0), "123456"),
            ("%g", Arg::Float(1234567.0), "1.23457e+06"),
            ("%g", Arg::Float(100.0), "100"),
            ("%.3g", Arg::Float(1.23456), "1.23"),
            ("%#g", Arg::Float(1.0), "1.00000"),
            ("%g", Arg::Float(0.0), "0"),
            ("%f", Arg::Float(f64::INFINITY), "inf"),
            ("%5.1f", Arg::Float(f64::NEG_INFINITY), " -inf"),
            ("%F", Arg::Float(f64::NAN), "NAN"),
            ("%a", Arg::Float(1.0), "0x1p+0"),
            ("%a", Arg::Float(3.0), "0x1.8p+1"),
            (
                "%lld",
                Arg::Int(-9223372036854775808),
                "-9223372036854775808",
            ),
            ("100%%", Arg::Int(0), "100%"),
        ];
        for (f, arg, want) in cases {
            assert_eq!(one(f, *arg), *want, "{f}");
        }
    }

    #[test]
    fn bad_formats_are_reported_where_they_are() {
        assert_eq!(parse("x = %q").unwrap_err().0, 4);
        assert!(parse("%").is_err());
        assert!(parse("%*d").is_err());
        assert_eq!(
            parse("a%-3ldb").expect("valid"),
            vec![
                Piece::Text("a".into()),
                Piece::Conv(Spec {
                    left: true,
                    plus: false,
                    space: false,
                    alt: false,
                    zero: false,
                    width: Some(3),
                    precision: None,
                    length: 1,
                    conv: 'd'
                }),
                Piece::Text("b".into())
            ]
        );
    }
}
