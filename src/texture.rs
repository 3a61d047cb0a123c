//! Texture objects: what `tex1Dfetch`/`tex1D`/`tex2D`/`tex3D` return, with CUDA's addressing, filtering and read modes.
//!
//! The rules are the CUDA C++ Programming Guide's appendix "Texture Fetching": nearest-point
//! sampling returns `T[floor(x)]`; linear filtering returns `(1 − α)·T[i] + α·T[i + 1]` with
//! `i = floor(x − 0.5)` and `α = frac(x − 0.5)`, "α, β, and γ are stored in 9-bit fixed point
//! format with 8 bits of fractional value (so 1.0 is exactly represented)". simt rounds the
//! fraction to the nearest 1/256 (ties away from zero): a fraction just below 1 becomes 1.0,
//! which is why the format needs its ninth bit. The weighted sum of the 2, 4 or 8 texels is
//! exact in `f64` (each weight has at most 24 significant bits, each texel 24) and rounded once
//! to `float`; the hardware's internal rounding of that sum is not documented.

use crate::value::{Scalar, Value};

/// How a texture is sampled between texels (`cudaTextureDesc::filterMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// `cudaFilterModePoint`: the texel the coordinate falls in.
    Point,
    /// `cudaFilterModeLinear`: the 2, 4 or 8 nearest texels weighted by distance.
    Linear,
}

/// What a coordinate outside the texture reads (`cudaTextureDesc::addressMode`), applied to
/// each texel index the fetch reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Address {
    /// `cudaAddressModeClamp`: the nearest edge texel.
    Clamp,
    /// `cudaAddressModeBorder`: zero.
    Border,
    /// `cudaAddressModeWrap`: the texture repeats (normalised coordinates only).
    Wrap,
    /// `cudaAddressModeMirror`: the texture repeats, every other copy mirrored (normalised
    /// coordinates only).
    Mirror,
}

/// What a fetch returns for integer texels (`cudaTextureDesc::readMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadMode {
    /// `cudaReadModeElementType`: the texel as stored.
    Element,
    /// `cudaReadModeNormalizedFloat`: an 8- or 16-bit integer texel as a `float` in [0, 1]
    /// (unsigned) or [-1, 1] (signed).
    Normalized,
}

/// A texture's sampling state (`cudaTextureDesc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desc {
    /// Point or linear.
    pub filter: Filter,
    /// The same for every dimension.
    pub address: Address,
    /// `normalizedCoords`: coordinates in [0, 1) span the texture.
    pub normalized: bool,
    /// Element type or normalised float.
    pub read: ReadMode,
    /// Components per texel: 1, 2 or 4 (`float4`, `uchar4`: the channels of
    /// `cudaChannelFormatDesc`), interleaved in the array, the last axis of its shape.
    pub channels: u8,
}

impl Default for Desc {
    /// A zeroed `cudaTextureDesc` but with clamp addressing: point filtering, unnormalised
    /// coordinates, the element type. (Zero is `cudaAddressModeWrap`, which with unnormalised
    /// coordinates CUDA does not support; clamp is what such a texture does in practice.)
    fn default() -> Desc {
        Desc {
            filter: Filter::Point,
            address: Address::Clamp,
            normalized: false,
            read: ReadMode::Element,
            channels: 1,
        }
    }
}

/// A texture object of a launch: its texels (row-major, x fastest) and sampling state.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// The parameter (or host array) it was made from, for messages.
    pub name: String,
    /// The texel type: an 8-, 16- or 32-bit integer, `half` or `float`.
    pub elem: Scalar,
    /// Texel values, exact in `f64`.
    pub texels: Vec<f64>,
    /// Width, height, depth (1 for the dimensions it does not have).
    pub extent: [usize; 3],
    /// 1, 2 or 3.
    pub dims: u8,
    /// Sampling state.
    pub desc: Desc,
}

/// Which fetch function reads a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fetch {
    /// `tex1Dfetch(t, i)`: the texel at integer index `i`, no filtering.
    Index,
    /// `tex1D`, `tex2D`, `tex3D`: float coordinates in this many dimensions.
    Coords(u8),
}

impl Fetch {
    /// The CUDA function's name.
    pub fn name(self) -> &'static str {
        match self {
            Fetch::Index => "tex1Dfetch",
            Fetch::Coords(1) => "tex1D",
            Fetch::Coords(2) => "tex2D",
            Fetch::Coords(_) => "tex3D",
        }
    }

    /// The function for a name, if it is one of them.
    pub fn of_name(name: &str) -> Option<Fetch> {
        Some(match name {
            "tex1Dfetch" => Fetch::Index,
            "tex1D" => Fetch::Coords(1),
            "tex2D" => Fetch::Coords(2),
            "tex3D" => Fetch::Coords(3),
            _ => return None,
        })
    }

    /// Coordinates it takes.
    pub fn dims(self) -> u8 {
        match self {
            Fetch::Index => 1,
            Fetch::Coords(d) => d,
        }
    }
}

/// Why a texture cannot be made, or a fetch cannot read it.
pub type Refusal = String;

/// Texel types a CUDA texture may hold (`cudaChannelFormatKind` of 8, 16 or 32 bits).
pub fn texel_type(elem: Scalar) -> Result<(), Refusal> {
    match elem {
        Scalar::I8
        | Scalar::U8
        | Scalar::I16
        | Scalar::U16
        | Scalar::I32
        | Scalar::U32
        | Scalar::F16
        | Scalar::F32 => Ok(()),
        other => Err(format!(
            "a texture's texels are 8-, 16- or 32-bit integers, `half` or `float`, not `{}`",
            other.c_name()
        )),
    }
}

impl Texture {
    /// A texture of `texels` in the shape `shape` (`[n]`, `[rows, cols]` or `[depth, rows,
    /// cols]`, as numpy orders them), or why CUDA would refuse it (`cudaCreateTextureObject`'s
    /// errors).
    pub fn new(
        name: &str,
        elem: Scalar,
        texels: Vec<f64>,
        shape: &[usize],
        desc: Desc,
    ) -> Result<Texture, Refusal> {
        texel_type(elem)?;
        let channels = usize::from(desc.channels);
        let shape = if channels > 1 {
            match shape.split_last() {
                Some((&c, rest)) if c == channels && !rest.is_empty() => rest,
                _ => {
                    return Err(format!(
                        "a texture of {channels} channels takes an array whose last axis holds them ({channels} elements); this one's shape is {shape:?}"
                    ))
                }
            }
        } else {
            shape
        };
        let extent = match *shape {
            [w] => [w, 1, 1],
            [h, w] => [w, h, 1],
            [d, h, w] => [w, h, d],
            _ => {
                return Err(format!(
                    "a texture has 1, 2 or 3 dimensions; this array has {}",
                    shape.len()
                ))
            }
        };
        if extent.contains(&0) {
            return Err("a texture has at least one texel in each dimension".into());
        }
        if desc.read == ReadMode::Normalized && (elem.is_float() || !matches!(elem.size(), 1 | 2)) {
            return Err(format!(
                "`read=normalized` is for 8- and 16-bit integer texels; these are `{}`",
                elem.c_name()
            ));
        }
        let float = elem.is_float() || desc.read == ReadMode::Normalized;
        if desc.filter == Filter::Linear && !float {
            return Err(format!(
                "linear filtering needs texels read as floating point (cudaErrorInvalidFilterSetting): these are `{}`; add `read=normalized` or use point filtering",
                elem.c_name()
            ));
        }
        // The programming guide supports wrap and mirror "only for normalized texture
        // coordinates"; cudaCreateTextureObject accepts them with unnormalised ones
        // (cuda-samples' SobelFilter and fluidsGL create such textures), and the coordinates
        // are clamped.
        let mut desc = desc;
        if matches!(desc.address, Address::Wrap | Address::Mirror) && !desc.normalized {
            desc.address = Address::Clamp;
        }
        Ok(Texture {
            name: name.to_string(),
            elem,
            texels,
            extent,
            dims: shape.len() as u8,
            desc,
        })
    }

    /// The type a fetch of this texture returns: `float` for normalised reads and `half`
    /// texels, the texel type otherwise.
    pub fn returns(&self) -> Scalar {
        if self.desc.read == ReadMode::Normalized || self.elem == Scalar::F16 {
            Scalar::F32
        } else {
            self.elem
        }
    }

    /// Whether `fetch` reading a `ty` with `width` components can read this texture, or why not.
    pub fn readable(&self, fetch: Fetch, (ty, width): (Scalar, u8)) -> Result<(), Refusal> {
        if width != self.desc.channels {
            let what = |n: u8| match n {
                1 => "one channel".to_string(),
                n => format!("{n} channels"),
            };
            return Err(format!(
                "`{}` reads {} but `{}` has {}",
                fetch.name(),
                what(width),
                self.name,
                what(self.desc.channels)
            ));
        }
        let dims = match fetch {
            Fetch::Index => 1,
            Fetch::Coords(d) => d,
        };
        if dims != self.dims {
            return Err(format!(
                "`{}` reads a {dims}-D texture but `{}` is {}-D",
                fetch.name(),
                self.name,
                self.dims
            ));
        }
        if ty != self.returns() {
            return Err(format!(
                "`{}<{}>` reads `{}`, whose fetches return `{}`",
                fetch.name(),
                ty.c_name(),
                self.name,
                self.returns().c_name()
            ));
        }
        Ok(())
    }

    /// The value `fetch` returns at `coords` (the integer index for [`Fetch::Index`]; `float`
    /// values otherwise). [`Texture::readable`] has accepted the fetch.
    /// `channel`: which component of a texel of several.
    pub fn fetch(&self, fetch: Fetch, coords: [f64; 3], channel: u8) -> Value {
        let v = match fetch {
            Fetch::Index => {
                // No filtering, no coordinate scaling: the texel at the index.
                let i = coords[0] as i64;
                self.texel([i, 0, 0], channel)
            }
            Fetch::Coords(d) => self.sample(d as usize, coords, channel),
        };
        Value::F64(v).cast(self.returns())
    }

    /// Filtered value at float coordinates in `d` dimensions.
    fn sample(&self, d: usize, coords: [f64; 3], channel: u8) -> f64 {
        // Unnormalised coordinates, computed in `float` as the hardware does.
        let mut x = [0f32; 3];
        for k in 0..d {
            let c = coords[k] as f32;
            x[k] = if self.desc.normalized {
                c * self.extent[k] as f32
            } else {
                c
            };
        }
        match self.desc.filter {
            Filter::Point => {
                let mut i = [0i64; 3];
                for k in 0..d {
                    i[k] = x[k].floor() as i64;
                }
                self.texel(i, channel)
            }
            Filter::Linear => {
                // Base index and 9-bit weight of the upper neighbour, per dimension.
                let mut base = [0i64; 3];
                let mut alpha = [0f64; 3];
                for k in 0..d {
                    let xb = x[k] - 0.5;
                    let i = xb.floor();
                    base[k] = i as i64;
                    alpha[k] = weight(xb - i);
                }
                let mut sum = 0f64;
                for corner in 0..(1usize << d) {
                    let mut w = 1f64;
                    let mut i = [0i64; 3];
                    for k in 0..d {
                        let up = corner >> k & 1 == 1;
                        i[k] = base[k] + i64::from(up);
                        w *= if up { alpha[k] } else { 1.0 - alpha[k] };
                    }
                    sum += w * self.texel(i, channel);
                }
                f64::from(sum as f32)
            }
        }
    }

    /// The texel at integer indices after addressing, as the fetch reads it (normalised when
    /// the read mode says so); 0 outside a border-addressed texture.
    fn texel(&self, i: [i64; 3], channel: u8) -> f64 {
        let mut at = 0usize;
        let mut stride = 1usize;
        for (k, &ik) in i.iter().enumerate().take(self.dims as usize) {
            let Some(j) = address(self.desc.address, ik, self.extent[k] as i64) else {
                return 0.0;
            };
            at += j * stride;
            stride *= self.extent[k];
        }
        let t = self.texels[at * usize::from(self.desc.channels) + usize::from(channel)];
        if self.desc.read == ReadMode::Element {
            return t;
        }
        normalized(self.elem, t)
    }
}

/// The 9-bit fixed-point weight (8 fractional bits) of a fraction in [0, 1): the nearest
/// multiple of 1/256, 1.0 included.
pub fn weight(frac: f32) -> f64 {
    (f64::from(frac) * 256.0).round() / 256.0
}

/// Texel index `i` of a dimension of `n` texels under `mode`; `None` outside a border.
fn address(mode: Address, i: i64, n: i64) -> Option<usize> {
    let j = match mode {
        Address::Clamp => i.clamp(0, n - 1),
        Address::Border if (0..n).contains(&i) => i,
        Address::Border => return None,
        Address::Wrap => i.rem_euclid(n),
        Address::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m < n {
                m
            } else {
                2 * n - 1 - m
            }
        }
    };
    Some(j as usize)
}

/// An integer texel read as normalised float (`cudaReadModeNormalizedFloat`): unsigned
/// `v / max`, signed `max(v / max, -1)` (so -128 and -127 both read -1.0), in `float`.
fn normalized(elem: Scalar, t: f64) -> f64 {
    let max = match elem {
        Scalar::U8 => 255.0,
        Scalar::I8 => 127.0,
        Scalar::U16 => 65535.0,
        Scalar::I16 => 32767.0,
        _ => return t,
    };
    f64::from((t as f32 / max).max(-1.0))
}

/// The option names of `texture(...)` in a launch section, and the values each takes.
pub const OPTIONS: [(&str, &[&str]); 4] = [
    ("filter", &["point", "linear"]),
    ("address", &["clamp", "border", "wrap", "mirror"]),
    ("normalized", &["false", "true"]),
    ("read", &["element", "normalized"]),
];

impl Desc {
    /// Sets option `name` to `value` (both as written in a launch section), or says why not.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), Refusal> {
        let Some((_, values)) = OPTIONS.iter().find(|(n, _)| *n == name) else {
            let names = OPTIONS
                .iter()
                .map(|(n, _)| *n)
                .chain(["type", "width", "height", "depth", "channels"]);
            let hint = crate::diag::did_you_mean(name, names)
                .map_or_else(String::new, |d| format!("; {d}"));
            return Err(format!(
                "`texture(...)` has no option `{name}`: it has filter, address, normalized, read, type, width, height, depth and channels{hint}"
            ));
        };
        if !values.contains(&value) {
            let hint = crate::diag::did_you_mean(value, values.iter().copied())
                .map_or_else(String::new, |d| format!("; {d}"));
            return Err(format!(
                "`{name}` is one of {}, not `{value}`{hint}",
                values.join(", ")
            ));
        }
        match (name, value) {
            ("filter", "point") => self.filter = Filter::Point,
            ("filter", _) => self.filter = Filter::Linear,
            ("address", "clamp") => self.address = Address::Clamp,
            ("address", "border") => self.address = Address::Border,
            ("address", "wrap") => self.address = Address::Wrap,
            ("address", _) => self.address = Address::Mirror,
            ("normalized", v) => self.normalized = v == "true",
            (_, "element") => self.read = ReadMode::Element,
            _ => self.read = ReadMode::Normalized,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_to_the_nearest_256th_and_reach_one() {
        // 0.25·256 = 64 exactly; 0.3·256 = 76.8 → 77; 0.999·256 = 255.74 → 256, so 1.0.
        assert_eq!(weight(0.25), 64.0 / 256.0);
        assert_eq!(weight(0.3), 77.0 / 256.0);
        assert_eq!(weight(0.999), 1.0);
        // A tie (0.5/256 → 0.5 units) rounds away from zero: 1/256.
        assert_eq!(weight(0.5 / 256.0), 1.0 / 256.0);
    }

    #[test]
    fn addressing_of_out_of_range_indices() {
        // n = 4: clamp -1 → 0, 5 → 3; border outside → none; wrap -1 → 3, 5 → 1;
        // mirror (period 8: 0 1 2 3 3 2 1 0): 4 → 3, 7 → 0, -1 → 0, -5 → 3.
        assert_eq!(address(Address::Clamp, -1, 4), Some(0));
        assert_eq!(address(Address::Clamp, 5, 4), Some(3));
        assert_eq!(address(Address::Border, 4, 4), None);
        assert_eq!(address(Address::Border, 3, 4), Some(3));
        assert_eq!(address(Address::Wrap, -1, 4), Some(3));
        assert_eq!(address(Address::Wrap, 5, 4), Some(1));
        assert_eq!(address(Address::Mirror, 4, 4), Some(3));
        assert_eq!(address(Address::Mirror, 7, 4), Some(0));
        assert_eq!(address(Address::Mirror, -1, 4), Some(0));
        assert_eq!(address(Address::Mirror, -5, 4), Some(3));
    }

    #[test]
    fn normalised_reads_of_integers() {
        // 51/255 = 0.2 (as a float); 65535/65535 = 1; -32768/32767 < -1 → -1.
        assert_eq!(normalized(Scalar::U8, 51.0), f64::from(0.2f32));
        assert_eq!(normalized(Scalar::U16, 65535.0), 1.0);
        assert_eq!(normalized(Scalar::I16, -32768.0), -1.0);
        assert_eq!(normalized(Scalar::I8, 127.0), 1.0);
    }

    #[test]
    fn half_texels_read_as_float_and_doubles_are_refused() {
        let t = Texture::new("t", Scalar::F16, vec![1.5], &[1], Desc::default()).unwrap();
        assert_eq!(t.returns(), Scalar::F32);
        assert!(t.readable(Fetch::Coords(1), (Scalar::F32, 1)).is_ok());
        assert!(Texture::new("t", Scalar::F64, vec![1.0], &[1], Desc::default()).is_err());
        assert!(Texture::new("t", Scalar::F32, vec![], &[0], Desc::default()).is_err());
    }
}
