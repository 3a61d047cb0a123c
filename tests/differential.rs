//! The fast engine against the reference interpreter (`simt::reference`), which runs one
//! thread at a time over the checked program: identical output buffers, and counters that agree
//! with what the threads did.

use simt::check::typed::{Kernel, Program};
use simt::exec::{self, Args, BufData, Counters, LaunchConfig};
use simt::host::{self, Overrides};
use simt::reference::{self, RefError, Tally};
use simt::source::SourceFile;

/// Runs `kernel` on both interpreters from the same arguments; panics on any disagreement.
/// `Err` when the reference interpreter has no single answer to compare: warp-synchronous
/// operations, or a result that depends on how threads interleave.
fn agree(
    kernel: &Kernel,
    cfg: &LaunchConfig,
    args: &Args,
    what: &str,
) -> Result<(Counters, Tally), RefError> {
    let ir = simt::ir::lower(kernel);
    let mut fast = args.clone();
    let mut slow = args.clone();
    let engine = exec::launch(&ir, cfg, &mut fast);
    let oracle = reference::run(kernel, cfg, &mut slow);
    let (outcome, tally) = match (engine, oracle) {
        (_, Err(r @ (RefError::Unsupported { .. } | RefError::Interleaving { .. }))) => {
            return Err(r)
        }
        (Ok(o), Ok(t)) => (o, t),
        (Err(e), Err(r)) => {
            use miette::Diagnostic;
            let code = e.code().map(|c| c.to_string()).unwrap_or_default();
            assert_eq!(
                code,
                r.code(),
                "{what}: both fail, differently: {e} / {r:?}"
            );
            return Ok((Counters::default(), Tally::default()));
        }
        (e, r) => panic!(
            "{what}: engine {:?} but reference {r:?}",
            e.map(|o| o.counters)
        ),
    };
    for (i, (f, s)) in fast.buffers.iter().zip(&slow.buffers).enumerate() {
        assert!(
            reference::same_data(&f.data, &s.data),
            "{what}: buffer {} ({i}) differs:\n engine    {:?}\n reference {:?}",
            f.name,
            f.data,
            s.data
        );
    }
    let c = outcome.counters;
    invariants(&c, &tally, what);
    // The same uninitialised reads: each engine group is one instruction (no sites here).
    let uninit: std::collections::BTreeSet<(String, simt::source::Span)> = outcome
        .uninit
        .iter()
        .map(|g| (g.first.array.clone(), ir.spans[g.first.inst as usize]))
        .collect();
    assert_eq!(
        uninit, tally.uninit,
        "{what}: uninitialised reads differ (engine, reference)"
    );
    Ok((c, tally))
}

/// What must hold between the engine's warp-level counters and the threads' own counts.
fn invariants(c: &Counters, t: &Tally, what: &str) {
    if let Some(rule) = reference::counters_disagree(c, t) {
        panic!("{what}: {rule}:\n{c:?}\n{t:?}");
    }
}

/// Every launch of every `.sk` file in `dir` on both interpreters: the names compared, and those
/// skipped with the reason. `all_compile`: a file that does not compile, or whose launch section
/// does not run, fails the test (otherwise it is passed over, as in the real-kernel corpus, whose
/// known failures `tests/real.rs` tracks).
fn files_agree(dir: &std::path::Path, all_compile: bool) -> (Vec<String>, Vec<String>) {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("kernel folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sk"))
        .collect();
    paths.sort();
    let (mut compared, mut skipped) = (Vec::new(), Vec::new());
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("kernel text");
        let src = SourceFile::new(path.display().to_string(), text);
        let (module, program) = match simt::pipeline::compile(&src) {
            Ok(compiled) => compiled,
            Err(_) if !all_compile => continue,
            Err(f) => panic!("{} does not compile: {f:?}", path.display()),
        };
        for launch in &module.launches {
            let kernel = program
                .kernel(&launch.kernel.name)
                .expect("launched kernel");
            let setup = match host::prepare(
                kernel,
                Some(launch),
                &Overrides::default(),
                path.parent().expect("dir"),
            ) {
                Ok(setup) => setup,
                Err(_) if !all_compile => continue,
                Err(e) => panic!("{}: the launch section fails: {e:?}", path.display()),
            };
            let dyn_smem = match setup.env.vars.get("dyn_smem") {
                Some(host::HostValue::Num { v, .. }) if *v >= 0.0 => *v as u64,
                _ => 0,
            };
            let cfg = LaunchConfig {
                grid: setup.grid,
                block: setup.block,
                dyn_smem,
                max_steps: 1 << 32,
                max_block_steps: simt::pipeline::DEFAULT_MAX_BLOCK_STEPS,
                deadline: None,
                threads: 1,
                cooperative: false,
                parallel_min: exec::PARALLEL_MIN_THREADS,
                probe: exec::Probe::default(),
                cache: None,
            };
            let name = format!(
                "{} {}",
                path.file_name().expect("name").to_string_lossy(),
                kernel.name
            );
            match agree(kernel, &cfg, &setup.args, &name) {
                Ok(_) => compared.push(name),
                // Warp-synchronous code, or a result that depends on the order threads run in
                // (a race, or an exchange within a warp that relies on lock-step).
                Err(why) => skipped.push(format!("{name}: {why:?}")),
            }
        }
    }
    eprintln!("compared {}: {}", compared.len(), compared.join(", "));
    eprintln!("skipped {}:\n  {}", skipped.len(), skipped.join("\n  "));
    (compared, skipped)
}

#[test]
fn shipped_kernels_agree_with_the_reference() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels");
    let (compared, _) = files_agree(std::path::Path::new(dir), true);
    assert!(
        compared.len() >= 20,
        "only {} kernels compared",
        compared.len()
    );
}

/// The bug zoo (`tests/zoo`): the reference's own initcheck finds the engine's uninitialised
/// reads (shared, local, `empty` global, atomics); the racing kernels have no single answer and
/// are skipped.
#[test]
fn the_zoo_agrees_with_the_reference() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/zoo");
    let (compared, skipped) = files_agree(std::path::Path::new(dir), true);
    let uninit = compared.iter().filter(|n| n.starts_with("uninit_")).count();
    assert!(uninit >= 8, "compared {compared:?}, skipped {skipped:?}");
}

/// Small integer and 16-bit float types kept as themselves by deduction, `auto`, `sizeof` and
/// overload ranking (`tests/small_types`): every launch compared.
#[test]
fn small_types_agree_with_the_reference() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/small_types");
    let (compared, skipped) = files_agree(std::path::Path::new(dir), true);
    assert_eq!(
        (compared.len(), skipped.len()),
        (5, 0),
        "{compared:?} {skipped:?}"
    );
}

/// The fuzz targets' seeds of pointer programs (`fuzz/seeds`): every launch compared.
#[test]
fn fuzz_seeds_agree_with_the_reference() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds");
    let (compared, skipped) = files_agree(std::path::Path::new(dir), true);
    assert!(skipped.is_empty() && compared.len() >= 4, "{skipped:?}");
}

/// The real-kernel corpus (`tests/real`, kept out of git: see its README), where it is present:
/// pointers, local arrays, templates and `__constant__` memory as public kernels use them. About
/// 10 s, so it runs on request: `cargo test --test all differential:: -- --ignored`.
#[test]
#[ignore]
fn real_kernels_agree_with_the_reference() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real"));
    if dir.is_dir() {
        files_agree(dir, false);
    }
}

/// Launch sections that bind pointer parameters at offsets, two to one array, or to `NULL`.
const BOUND_POINTERS: &str = r#"
#define RADIUS 3
__global__ void stencil(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float r = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; k++) r += in[i + k];
        out[i] = r;
    }
}
__global__ void in_place(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f + 1.0f;
}
__global__ void halves(const int* lo, int* hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) hi[i] = lo[i] + hi[i] * 3;
}
__global__ void bias_add(float* x, const float* bias, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float b = 0.0f;
        if (bias != NULL) b = bias[i];
        x[i] = x[i] + b;
    }
}
__global__ void vec_sum(const float4* v, float* out) {
    float4 a = v[threadIdx.x];
    out[threadIdx.x] = a.x + a.y + a.z + a.w;
}
__global__ void realigned(const float* p, float* out) {
    const float4* v4 = reinterpret_cast<const float4*>(p + 2);
    float4 v = v4[threadIdx.x];
    const float* q = reinterpret_cast<const float*>(&v4[threadIdx.x]);
    out[threadIdx.x] = v.x + v.w + q[1];
}
__global__ void moved(const float* a, float* total, int n) {
    a += blockIdx.x * blockDim.x;
    atomicAdd(total, a[threadIdx.x]);
}
__global__ void past_the_end(const float* in, float* out) {
    out[threadIdx.x] = in[threadIdx.x];
}
__global__ void addresses(const float* p, const float* q, const unsigned* v, int* out) {
    int t = threadIdx.x;
    unsigned lanes = __vmaxs4(v[t], 0x01010101u) ^ __vsadu4(v[t], 0x80808080u);
    out[t] = (int)(((uintptr_t)(p + t) & 255) + ((uintptr_t)q - (uintptr_t)p)) + (int)lanes;
}
__global__ void null_read(float* x, const float* bias) {
    x[threadIdx.x] = bias[threadIdx.x];
}
launch stencil { n = 100; d = arange(n + 6); o = zeros(n); in = &d[RADIUS]; out = o; block = 64; grid = 2; }
launch in_place { n = 100; d = rand(n); in = &d[0]; out = &d[0]; block = 64; grid = 2; }
launch halves { n = 70; d = arange(2 * n); lo = &d[0]; hi = &d[n]; block = 32; grid = 3; }
launch bias_add { n = 50; x = ones(n); bias = NULL; block = 64; grid = 1; }
launch vec_sum { d = arange(4 * 40); v = &d[4 * 8]; out = zeros(32); block = 32; grid = 1; }
launch realigned { d = arange(200); p = &d[2]; out = zeros(32); block = 32; grid = 1; }
launch moved { n = 96; d = arange(n + 8); a = &d[8]; total = &d[3]; block = 32; grid = 3; }
launch past_the_end { d = arange(40); in = &d[10]; out = zeros(32); block = 32; grid = 1; }
launch addresses { d = arange(64); p = &d[1]; q = &d[5]; v = arange(32) * 33554467; out = zeros(32); block = 32; grid = 1; }
launch null_read { x = ones(32); bias = NULL; block = 32; grid = 1; }
"#;

#[test]
fn bound_pointers_agree_with_the_reference() {
    each_launch("bound.sk", BOUND_POINTERS, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
        // The last two stop, alike in both interpreters (`agree` compared the codes).
        let expected = match kernel.name.as_str() {
            "past_the_end" => Some("simt::run::out_of_bounds"),
            "null_read" => Some("simt::run::null_pointer"),
            _ => None,
        };
        assert_eq!(
            engine_code(kernel, cfg, args).as_deref(),
            expected,
            "{}",
            kernel.name
        );
    });
}

/// `T**` parameters bound to tables of the launch's arrays (`[a, &c[3], NULL]`): reads and
/// stores through the pointers they hold, and a read through a null entry.
const TABLES: &str = r#"
__global__ void gather(const float* const* planes, int count, float* out) {
    int i = threadIdx.x;
    float s = 0.0f;
    for (int d = 0; d < count; d++) s += planes[d][i] * (d + 1);
    out[i] = s;
}
__global__ void scatter(float** planes, int count) {
    int i = threadIdx.x;
    for (int d = i % 2; d < count; d += 2) {
        float* p = planes[d] + i;
        *p = *p * 2.0f + d;
    }
}
launch gather { a = arange(32); b = ones(40); c = rand(64); planes = [a, &b[3], &c[7]]; count = 3; out = zeros(32); block = 32; grid = 1; }
launch scatter { a = arange(32); b = ones(40); planes = [a, b, &b[8], a]; count = 4; block = 32; grid = 1; }
launch gather { a = arange(32); planes = [a, NULL]; count = 2; out = zeros(32); block = 32; grid = 1; }
"#;

#[test]
fn tables_agree_with_the_reference() {
    let mut stopped = 0;
    each_launch("tables.sk", TABLES, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
        if engine_code(kernel, cfg, args).as_deref() == Some("simt::run::null_pointer") {
            stopped += 1;
        }
    });
    // Only the launch with a null entry it reads stops.
    assert_eq!(stopped, 1);
}

/// Struct parameters whose pointer members point to scalars, to `double4` and to a plain
/// struct, beside members simt holds but does not follow, and one the launch leaves unset.
const MEMBER_POINTERS: &str = r#"
struct P { float x; float y; };
struct Log { char* text; int fill; };
struct S { int n; const float* a; P* ps; double4* f; void* handle; void** config; Log* log; float* unset; };
__global__ void members(S s, float* out) {
    int i = threadIdx.x;
    S c = s;
    if (i < c.n) {
        out[i] = c.a[i] + c.ps[i].y;
        c.ps[i].x = c.f[i].w + c.f[i].x;
    }
}
__global__ void unset_read(S s, float* out) {
    out[threadIdx.x] = s.unset[threadIdx.x];
}
launch members { s.n = 20; s.a = arange(32); s.ps = arange(64); s.f = rand(128); s.handle = NULL; out = zeros(32); block = 32; grid = 1; }
launch unset_read { s.n = 1; out = zeros(32); block = 32; grid = 1; }
"#;

#[test]
fn member_pointers_agree_with_the_reference() {
    each_launch("members.sk", MEMBER_POINTERS, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
        let expected = (kernel.name == "unset_read").then_some("simt::run::unset_pointer");
        assert_eq!(
            engine_code(kernel, cfg, args).as_deref(),
            expected,
            "{}",
            kernel.name
        );
    });
}

/// Unions (views of the same bytes in registers, local memory and a global buffer), brace
/// elision, members defined outside their class and functions returning references.
const CPP_FRONT_END: &str = r#"
union FI { float f; int i; unsigned u; };
typedef union { float f[2]; int i[2]; } U2;
template <typename T, int N>
struct Packed { union { float4 storage; T elem[N]; }; };
struct Acc { float sum; Acc(); Acc& operator+=(float a); };
__device__ Acc::Acc() { sum = 1.0f; }
__device__ Acc& Acc::operator+=(float a) { sum += a; return *this; }
__device__ float& vec_at(float4& vec, int index) { return reinterpret_cast<float*>(&vec)[index]; }
__global__ void views(float* buf, int* out) {
    int t = threadIdx.x;
    FI w;
    w.f = t * 0.75f;
    w.u += 1;
    out[t] = w.i;
    U2* p = (U2*)buf;
    p[t].i[t % 2] ^= 0x1;
    union { unsigned w[4]; float f[4]; } v;
    for (int k = 0; k < 4; k++) v.f[k] = k * t;
    out[32 + t] = v.w[t % 4];
    Packed<float, 4> q = {1.0f, 2.0f, 3.0f, 4.0f};
    q.elem[t % 4] = t;
    Acc a;
    a += q.storage.x;
    a += q.storage.w;
    float4 r = make_float4(t, t, t, t);
    vec_at(r, t % 4) += a.sum;
    buf[64 + t] = r.x + 2.0f * r.y + 3.0f * r.z + 4.0f * r.w;
}
launch views { buf = rand(96); out = zeros(64); block = 32; grid = 1; }
"#;

/// Structs whose members differ in type, in a global buffer (bytes), behind a `void*` cast in a
/// callee, in shared memory and in local arrays, and unions whose views split scalars.
const MIXED_STRUCTS: &str = r#"
struct S { half d; uint8_t q[3]; float f; };
struct Pix { float z; int idx; float d; };
union H { uint32_t u; half2 h; };
union I2 { double d; int i[2]; };
__device__ float first(const void* vx, int ib) {
    const S* x = (const S*) vx;
    return __half2float(x[ib].d) * x[ib].q[ib % 3] + x[ib].f;
}
__global__ void mixed(S* s, const void* vs, float* out, int* oi) {
    int t = threadIdx.x;
    s[t].d = __float2half(t * 0.5f);
    s[t].q[t % 3] = t;
    s[t].f += 1.0f;
    out[t] = first(vs, t);
    __shared__ S m[32];
    m[t].f = t;
    m[t].q[1] = t;
    __syncthreads();
    out[32 + t] = m[31 - t].f + m[31 - t].q[1];
    Pix p[4];
    p[t % 4] = {t * 1.5f, t, 2.0f};
    out[64 + t] = p[t % 4].z + p[t % 4].idx * p[t % 4].d;
    H h;
    h.u = 0x3c004000u + t;
    h.h.y = __float2half(t);
    oi[t] = h.u;
    I2 w;
    w.d = t - 2.5;
    oi[32 + t] = w.i[t % 2];
}
launch mixed { s = randint(12 * 32, 0, 256); vs = randint(12 * 32, 0, 64); out = zeros(96); oi = zeros(64); block = 32; grid = 1; }
struct Det { float bbox[4]; float conf; };
__global__ void placed(const float* in, float* out) {
    int t = threadIdx.x;
    Det* d = (Det*)(out + 1 + t * 5);
    const Det* s = (const Det*)((const char*)in + 8) + t;
    d->conf = s->bbox[3] + (s + 1)->conf;
    d->bbox[1] = (float)(s - (const Det*)(in + 2));
    Det c = s[1];
    c.bbox[0] += 1.0f;
    Det* e = &d[0];
    e->bbox[2] = c.bbox[0];
}
launch placed { in = randint(200, 0, 64); out = zeros(161); block = 32; grid = 1; }
"#;

#[test]
fn mixed_structs_agree_with_the_reference() {
    each_launch("mixed.sk", MIXED_STRUCTS, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

#[test]
fn cpp_front_end_agrees_with_the_reference() {
    each_launch("cpp.sk", CPP_FRONT_END, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

/// Single inheritance with a base constructor, and virtual members called through base-class
/// references to objects of two classes, lane by lane.
const VIRTUAL_CLASSES: &str = r#"
struct counted {
    __device__ counted() { calls = 0; }
    int calls;
};
class shape : public counted {
    public:
        __device__ virtual float area() const = 0;
        __device__ virtual float scale() const { return 1.0f; }
        __device__ float twice() const { return 2.0f * area() * scale(); }
};
class square : public shape {
    public:
        __device__ square(float s) : side(s) { calls += 1; }
        __device__ float area() const override { return side * side; }
        float side;
};
class circle : public shape {
    public:
        __device__ circle(float r) { radius = r; calls += 2; }
        __device__ float area() const override { return 3.0f * radius * radius; }
        __device__ float scale() const override { return 10.0f + calls; }
        float radius;
};
__device__ float measure(const shape& s) { return s.area() + s.twice() + s.calls; }
__global__ void shapes(const float* in, float* out) {
    int t = threadIdx.x;
    square q(in[t]);
    circle c(in[t] + 1.0f);
    out[t] = (t % 3 == 0) ? measure(q) : measure(c);
    out[32 + t] = sizeof(circle) + q.__vptr + c.__vptr;
}
launch shapes { in = rand(32); out = zeros(64); block = 32; grid = 1; }
"#;

#[test]
fn virtual_classes_agree_with_the_reference() {
    each_launch("virtual.sk", VIRTUAL_CLASSES, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

/// The device heap: allocations in thread order, objects of mixed members read back, and
/// virtual calls through pointers stored in an array of pointers. Each thread allocates at most
/// once between barriers: the reference runs one thread at a time, so a thread's second
/// allocation would come before the next lane's first, where the engine's warp makes each
/// allocation of its lanes in lane order. Its kernels follow the classes of
/// [`crate::heap::LIST`].
const HEAP: &str = r#"
struct P { float x; int n; double d; };
__global__ void objects(const float* in, P** slots, float* out) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    P* p = new P{in[t], t, in[t] * 2.0};
    __syncthreads();
    float* f = (float*)malloc(3 * sizeof(float));
    f[t % 3] = in[t];
    slots[t] = p;
    out[t] = p->x + p->n + p->d + f[t % 3];
    free(f);
}
__global__ void world(const float* in, hitable **d_list, hitable **d_world, float* out) {
    int t = threadIdx.x;
    if (t < 3) d_list[t] = new sphere(in[t]);
    __syncthreads();
    if (t == 0) *d_world = new hitable_list(d_list, 3);
    __syncthreads();
    hitable* h = (t % 4 == 0) ? *d_world : d_list[t % 3];
    out[t] = h->hit(t);
}
launch objects { in = rand(64); slots = zeros(64); out = zeros(64); block = 32; grid = 2; }
launch world { in = rand(3); d_list = zeros(3); d_world = zeros(1); out = zeros(32); block = 32; grid = 1; }
"#;

#[test]
fn the_heap_agrees_with_the_reference() {
    let src = format!("{}{HEAP}", crate::heap::LIST);
    each_launch("heap.sk", &src, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

#[test]
fn sequences_agree_with_the_reference() {
    // Each launch of a sequence as it is about to run (the heap and the arrays as the launch
    // before left them): `make` allocates one int per thread (one allocation per thread between
    // barriers, as the reference needs), `read` follows the pointers, and
    // render follows the list's `hitable** list` member into d_list, which it does not take.
    let src = format!(
        "{}{}",
        crate::heap::LIST,
        r#"
__global__ void make(int** p, hitable **d_list, hitable **d_world) {
    int t = threadIdx.x;
    p[t] = new int(3 * t);
    __syncthreads();
    if (t < 2) d_list[t] = new sphere(t + 0.5f);
    __syncthreads();
    if (t == 0) *d_world = new hitable_list(d_list, 2);
}
__global__ void read(int** q, hitable **world, float* out) {
    int t = threadIdx.x;
    int* r = q[31 - t];
    out[t] = r[0] + (*world)->hit((float)t);
}
sequence {
    p = zeros(32); d_list = zeros(2); d_world = zeros(1); out = zeros(32);
    launch make { grid = 1; block = 32; }
    launch read { q = p; world = d_world; grid = 1; block = 32; }
}
"#
    );
    let mut compared = Vec::new();
    let run = simt::pipeline::run_sequence_observed(
        &SourceFile::new("sequence.sk", src),
        &simt::pipeline::RunOptions::default(),
        0,
        &mut |kernel, cfg, args| {
            let result = agree(kernel, cfg, args, &kernel.name);
            assert!(result.is_ok(), "{}: {result:?}", kernel.name);
            compared.push(kernel.name.clone());
        },
    );
    assert!(run.is_ok(), "{run:?}");
    assert_eq!(compared, ["make", "read"]);
}

/// Writes through member operators returning a reference, and ATen accessor parameters.
const REFERENCES_AND_ACCESSORS: &str = r#"
#include <ATen/ATen.h>
#include <glm/glm.hpp>
struct P {
    float v[4];
    __device__ float& operator[](int i) { return v[i]; }
    __device__ float& at(int i) { return v[i]; }
};
__global__ void through_refs(P* p, float* out) {
    int t = threadIdx.x;
    p[t][t % 4] = t;
    p[t].at(1) += 2.0f;
    ++p[t][3];
    glm::mat3 m = glm::mat3(1.0f);
    m[t % 3][(t + 1) % 3] += p[t][1];
    out[t] = m[0][0] + m[0][1] + m[1][2] + m[2][0] + m[2][2];
}
__global__ void accessors(
    const at::PackedTensorAccessor64<float, 3, at::RestrictPtrTraits> a,
    at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> b) {
    const int n = blockIdx.x;
    const int c = threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < a.size(2); ++k) s += a[n][c][k] * a.stride(1);
    b[n][c] = s;
    b[n][c] += b.size(1);
}
launch through_refs { p = rand(4 * 32); out = zeros(32); block = 32; grid = 1; }
launch accessors { a = reshape(rand(2 * 32 * 3), 2, 32, 3); b = zeros(2, 32); block = 32; grid = 2; }
"#;

#[test]
fn references_and_accessors_agree_with_the_reference() {
    each_launch("refs.sk", REFERENCES_AND_ACCESSORS, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

/// Trailing return types with `decltype`, lambdas and functor temporaries passed to templates,
/// and `return` of a `void` call, as the round-14 corpus writes them.
const CPP11_FUNCTIONS: &str = r#"
template <typename U, typename V>
constexpr __host__ __device__ auto divUp(U a, V b) -> decltype(a + b) { return (a + b - 1) / b; }
__device__ auto narrow(unsigned char c) -> decltype(c) { return c + 200; }
template <typename T> struct MaxOp { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <typename T, typename Op>
__device__ T fold(const T* a, int n, T init, Op op) {
    T acc = init;
    for (int i = 0; i < n; i++) acc = op(acc, a[i]);
    return acc;
}
__device__ void put(float* p, float v) { *p = v; }
__device__ void put_if(float* p, float v) { if (v > 2.0f) return put(p, v); *p = -v; }
__global__ void cpp11(const float* a, float* out, int* n) {
    int t = threadIdx.x;
    float s = 0.5f;
    out[t] = fold(a, t + 1, 0.0f, [s] __device__ (float x, float y) { return x + y * s; })
           + fold(a, t + 1, -1.0f, MaxOp<float>());
    n[t] = divUp(t * 7, 4) + narrow(t + 50);
    put_if(&out[32 + t], divUp(a[t], 2));
}
launch cpp11 { a = rand(32) * 8; out = zeros(64); n = zeros(32); block = 32; grid = 1; }
"#;

#[test]
fn cpp11_functions_agree_with_the_reference() {
    each_launch("cpp11.sk", CPP11_FUNCTIONS, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

/// Three-operand bit intrinsics on random words and shifts past 32: the engine's `Bits3::apply`
/// against the reference's exact-integer definitions.
const BIT_INTRINSICS: &str = r#"
__global__ void bits3(const unsigned* a, const unsigned* b, const unsigned* s, long long* out) {
    int i = threadIdx.x;
    unsigned x = a[i], y = b[i], k = s[i];
    out[8 * i + 0] = __byte_perm(x, y, k);
    out[8 * i + 1] = __funnelshift_l(x, y, k);
    out[8 * i + 2] = __funnelshift_lc(x, y, k);
    out[8 * i + 3] = __funnelshift_r(x, y, k);
    out[8 * i + 4] = __funnelshift_rc(x, y, k);
    out[8 * i + 5] = __sad((int)x, (int)y, k);
    out[8 * i + 6] = __usad(x, y, k);
    out[8 * i + 7] = __double2hiint(__hiloint2double((int)x, (int)y)) + __double2loint((double)k);
}
launch bits3 {
    a = randint(64, 0, 4294967295); b = randint(64, 0, 4294967295); s = randint(64, 0, 70000);
    out = zeros(512); block = 64; grid = 1;
}
"#;

#[test]
fn bit_intrinsics_agree_with_the_reference() {
    each_launch("bits3.sk", BIT_INTRINSICS, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

#[test]
fn atomics_whose_old_values_are_used_have_no_single_answer() {
    // `slot` depends on the order of the 64 atomics, which the reference, one thread at a time,
    // cannot stand for; a histogram's atomics, whose old values are unused, commute and compare.
    let text = r#"
__global__ void slots(int* n, int* out) {
    int slot = atomicAdd(&n[0], 1);
    out[slot] = threadIdx.x;
}
__global__ void histogram(int* n, int* out) {
    atomicAdd(&n[threadIdx.x % 4], 1);
    out[threadIdx.x] = threadIdx.x;
}
launch slots { n = zeros(1); out = zeros(64); block = 64; grid = 1; }
launch histogram { n = zeros(4); out = zeros(64); block = 64; grid = 1; }
"#;
    each_launch("atomics.sk", text, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        match kernel.name.as_str() {
            "slots" => assert!(
                matches!(result, Err(RefError::Interleaving { .. })),
                "{result:?}"
            ),
            _ => assert!(result.is_ok(), "{result:?}"),
        }
    });
}

/// Compiles `text` and calls `f` with every launch of it: the kernel, its configuration (one
/// worker) and its arguments.
fn each_launch(name: &str, text: &str, mut f: impl FnMut(&Kernel, &LaunchConfig, &Args)) {
    let src = SourceFile::new(name, text);
    let (module, program) = simt::pipeline::compile(&src).expect("compiles");
    for launch in &module.launches {
        let kernel = program.kernel(&launch.kernel.name).expect("kernel");
        let setup = host::prepare(
            kernel,
            Some(launch),
            &Overrides::default(),
            std::path::Path::new("."),
        )
        .expect("launch section runs");
        let cfg = LaunchConfig {
            grid: setup.grid,
            block: setup.block,
            dyn_smem: 0,
            max_steps: 1 << 32,
            max_block_steps: simt::pipeline::DEFAULT_MAX_BLOCK_STEPS,
            deadline: None,
            threads: 1,
            cooperative: false,
            parallel_min: exec::PARALLEL_MIN_THREADS,
            probe: exec::Probe::default(),
            cache: None,
        };
        f(kernel, &cfg, &setup.args);
    }
}

/// The code of the error the engine stops with, if it stops.
fn engine_code(kernel: &Kernel, cfg: &LaunchConfig, args: &Args) -> Option<String> {
    use miette::Diagnostic;
    let mut args = args.clone();
    exec::launch(&simt::ir::lower(kernel), cfg, &mut args)
        .err()
        .map(|e| e.code().map(|c| c.to_string()).unwrap_or_default())
}

/// Pointer variables, pointer walks, `__device__` helpers taking and returning pointers, local
/// arrays in registers and in local memory, and `float4` views, in one kernel; then local-array
/// and null-pointer failures.
const POINTERS_AND_LOCAL_ARRAYS: &str = r#"
__device__ float sum_n(const float* p, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += p[k];
    return s;
}
__device__ void bump(int* p, int v) { *p += v; }
__device__ const float* at(const float* p, int k) { return p + k; }
__device__ float walk(const float* p, const float* end) {
    float s = 0.0f;
    while (p < end) { s += *p; p++; }
    return s;
}
__global__ void mixed(const float* fa, const int* ia, float* out, int* oi, double* xd) {
    __shared__ int si[256];
    __shared__ float sf[256];
    int tid = threadIdx.x;
    int g = blockIdx.x * blockDim.x + tid;
    xd += g;
    float ra[4] = {1.0f, 2.0f};
    float rr[3] = {0.5f};
    int lm[8];
    double lq[2][4];
    const float* pf = fa + (g & 31);
    const int* pi = &ia[g & 31];
    int* ps = si + tid;
    int* pl = lm;
    const float* q0 = fa;
    const float* pn = (g & 1) ? fa + 3 : NULL;
    const float4* v4 = reinterpret_cast<const float4*>(fa);
    *ps = *pi + pi[3];
    sf[tid] = *(pf + 2);
    bump(ps, 1);
    __syncthreads();
    float f = 0.0f;
    for (q0 = pf; q0 < pf + (tid % 3); q0++) f += *q0;
    pi += 8;
    if (pi >= ia + 32) pi -= 32;
    pi++;
    if (pi > ia + 31) pi = ia;
    lm[g & 7] = *pi;
    lm[(g + 3) & 7] += 2;
    pl[(g * 5) & 7] += 1;
    lq[g & 1][(g >> 1) & 3] = 1.5;
    for (int u = 0; u < 4; u++) ra[u] = ra[u] * 0.5f + f;
    for (int u = 0; u < 3; u++) rr[u] += f * u;
    ra[2] += sum_n(ra, 4);
    f += sum_n(fa + (g & 31), tid & 31) + walk(pf, pf + (g & 7));
    f += *at(fa, g & 63) + (pn != NULL ? *pn : 1.0f);
    float4 q = v4[(g * 3) & 15];
    f += q.x * q.w;
    float4 q2 = reinterpret_cast<const float4*>(fa + 4 * (g & 3))[1];
    f += q2.z;
    const float* gs = (tid & 2) ? sf + (tid ^ 3) : fa + (g & 31);
    f += gs[0] * 0.25f;
    bump(&oi[g * 2], 3);
    out[g] = f + ra[0] + ra[1] + ra[2] + ra[3] + (float)lq[1][2] + si[(tid + 1) & 255] + sf[tid ^ 1];
    oi[g * 2 + 1] = lm[0] + lm[g & 7] + (int)(pi - ia) + (int)(pf - fa) + (pf < fa + 16);
    *xd = lq[0][0] + rr[0] - rr[2];
}
__global__ void local_past_the_end(int* out) {
    int r[4] = {1, 2, 3, 4};
    out[threadIdx.x] = r[threadIdx.x];
}
__global__ void local_null(int* out) {
    int r[4];
    int* p = r;
    if (threadIdx.x > 5) p = NULL;
    out[threadIdx.x] = *p;
}
__global__ void shared_null(int* out) {
    __shared__ int s[32];
    int* p = s + threadIdx.x;
    if (threadIdx.x == 7) p = NULL;
    *p = 1;
    out[threadIdx.x] = 0;
}
launch mixed { fa = rand(64); ia = randint(64, 0, 100); out = zeros(64); oi = zeros(128); xd = zeros(64); block = 32; grid = 2; }
launch local_past_the_end { out = zeros(32); block = 32; grid = 1; }
launch local_null { out = zeros(32); block = 32; grid = 1; }
launch shared_null { out = zeros(32); block = 32; grid = 1; }
"#;

#[test]
fn pointers_and_local_arrays_agree_with_the_reference() {
    each_launch(
        "pointers.sk",
        POINTERS_AND_LOCAL_ARRAYS,
        |kernel, cfg, args| {
            let result = agree(kernel, cfg, args, &kernel.name);
            let expected = match kernel.name.as_str() {
                "local_past_the_end" => Some("simt::run::out_of_bounds"),
                "local_null" | "shared_null" => Some("simt::run::null_pointer"),
                _ => None,
            };
            match (result, expected) {
                (Ok((c, t)), None) => {
                    // `rr` is in registers (free); the arrays indexed at run time are in local memory.
                    let placed: Vec<_> = kernel
                        .local_arrays
                        .iter()
                        .map(|a| (a.name.as_str(), a.in_registers))
                        .collect();
                    assert!(placed.contains(&("rr", true)), "{placed:?}");
                    assert!(placed.contains(&("lm", false)), "{placed:?}");
                    assert!(placed.contains(&("lq", false)), "{placed:?}");
                    assert!(c.local_ld_instr > 0 && c.local_st_instr > 0, "{c:?}");
                    assert!(t.local_loads > 0 && t.local_stores > 0, "{t:?}");
                }
                (Ok(_), Some(code)) => {
                    // `agree` compared the two codes; the engine's is the one expected.
                    let got = engine_code(kernel, cfg, args);
                    assert_eq!(got.as_deref(), Some(code), "{}", kernel.name);
                }
                (r, _) => panic!("{}: {r:?}", kernel.name),
            }
        },
    );
}

// ---------------------------------------------------------------- random kernels
//
// A generated kernel is race-free and synchronises correctly by construction, so that one thread
// at a time and all threads in lock-step must compute the same buffers:
//
// - barriers stand only at the top level of the body, at the top level of a loop whose trip
//   count is the same for every thread (with no `break`/`continue` of its own), or on both sides
//   of an `if` whose condition is the same for the whole block, so every thread that has not
//   returned reaches each of them;
// - between two barriers, threads either only touch their own slot of the shared arrays
//   (`si[tid]`) or only read them (anywhere): no word is written by one thread and touched by
//   another in one epoch;
// - global stores go to the thread's own slot; inputs are read-only;
// - indices are masked into range (`ia[e & 63]`) or guarded (`e >= 0 && e < 64 ? ia[e] : 7`);
// - loops run at most a few times, counted by variables nothing else assigns;
// - divisions use divisors that cannot be zero (`b | 1`, `b != 0 ? a / b : a`), except in a
//   fraction of kernels that divide freely: there the only possible failure is a division by
//   zero, which both must report.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::collections::HashMap;

/// The types expressions are generated at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum T {
    I,
    U,
    L,
    F,
    D,
    B,
}

const TYPES: [T; 6] = [T::I, T::U, T::L, T::F, T::D, T::B];

/// Expression strategies by (type, depth, whether shared arrays may be read anywhere).
struct Exprs {
    table: HashMap<(T, usize, bool), BoxedStrategy<String>>,
    raw_div: bool,
}

const DEPTH: usize = 3;

fn pick(items: &'static [&'static str]) -> BoxedStrategy<String> {
    proptest::sample::select(items)
        .prop_map(str::to_string)
        .boxed()
}

impl Exprs {
    fn new(raw_div: bool) -> Exprs {
        let mut e = Exprs {
            table: HashMap::new(),
            raw_div,
        };
        for depth in 0..=DEPTH {
            for read_all in [false, true] {
                for t in TYPES {
                    let s = e.build(t, depth, read_all);
                    e.table.insert((t, depth, read_all), s);
                }
            }
        }
        e
    }

    fn get(&self, t: T, depth: usize, read_all: bool) -> BoxedStrategy<String> {
        self.table[&(t, depth, read_all)].clone()
    }

    fn leaf(t: T, read_all: bool) -> BoxedStrategy<String> {
        match t {
            T::I => {
                let mut v = vec![
                    pick(&["i0", "i1", "c0", "h0", "tid", "g", "p", "k0", "w0"]),
                    pick(&[
                        "0",
                        "1",
                        "-1",
                        "7",
                        "31",
                        "32",
                        "33",
                        "255",
                        "65535",
                        "2147483647",
                        "(-2147483647 - 1)",
                        "0x7fffffff",
                    ]),
                    pick(&["si[tid]", "(int)threadIdx.y", "(int)blockIdx.x", "warpSize"]),
                    // Through pointers: into an input, the own shared and scratch slots, a local
                    // array; and pointer differences.
                    pick(&[
                        "*pi",
                        "*pl",
                        "*ps",
                        "*pxi",
                        "lm[3]",
                        "(int)(pi - ia)",
                        "(int)(pl - lm)",
                    ]),
                ];
                if read_all {
                    v.push(pick(&[
                        "si[(i0 * 7) & 255]",
                        "si[(g + 1) & 255]",
                        "si[255 - tid]",
                    ]));
                }
                proptest::strategy::Union::new(v).boxed()
            }
            T::U => pick(&[
                "u0",
                "threadIdx.x",
                "blockDim.x",
                "gridDim.y",
                "5u",
                "0u",
                "4294967295u",
                "0x80000000u",
                "(unsigned)tid",
            ]),
            T::L => proptest::strategy::Union::new([
                pick(&[
                    "l0",
                    "5ll",
                    "-3ll",
                    "4294967296ll",
                    "9223372036854775807ll",
                    "(-9223372036854775807ll - 1)",
                    "(long long)g",
                ]),
                // `ptrdiff_t` is `long`, 64 bits.
                pick(&["(pi - ia)", "(long long)(pf - q0)", "(q1 - fa)", "la[0]"]),
            ])
            .boxed(),
            T::F => {
                let mut v = vec![
                    pick(&[
                        "f0", "f1", "1.5f", "0.0f", "-0.0f", "0.1f", "-2.25f", "3.0e38f",
                        "1.0e-38f", "sf[tid]", "dyn[tid]",
                    ]),
                    pick(&[
                        "*pf",
                        "q0[1]",
                        "*pxf",
                        "ra[0]",
                        "ra[3]",
                        "rb[1]",
                        "(pn != NULL ? *pn : 0.5f)",
                    ]),
                ];
                if read_all {
                    v.push(pick(&[
                        "sf[(tid + 3) & 255]",
                        "sf[(i1 & 255)]",
                        "dyn[(g * 7) & 255]",
                    ]));
                }
                proptest::strategy::Union::new(v).boxed()
            }
            T::D => {
                let mut v = vec![
                    pick(&[
                        "d0",
                        "1.5",
                        "-0.5",
                        "0.1",
                        "1e300",
                        "sd[tid >> 4][tid & 15]",
                    ]),
                    pick(&["*pd", "*xd", "lq[1][2]", "lq[0][0]"]),
                ];
                if read_all {
                    v.push(pick(&[
                        "sd[(i0 & 15)][(tid * 5) & 15]",
                        "sd[15 - (tid & 15)][0]",
                    ]));
                }
                proptest::strategy::Union::new(v).boxed()
            }
            T::B => proptest::strategy::Union::new([
                pick(&["b0", "true", "false", "(tid < 5)", "((g & 1) == 0)"]),
                // Pointer comparisons, `NULL`, and a pointer as a truth value.
                pick(&[
                    "(pi < ia + 16)",
                    "(pf >= q0)",
                    "(pn == NULL)",
                    "(pn != NULL)",
                    "(!pn)",
                    "(pi == ia + 5)",
                    "(pl < lm + 2)",
                    "(pf != &fa[3])",
                    "(q0 <= pf)",
                ]),
            ])
            .boxed(),
        }
    }

    fn build(&self, t: T, depth: usize, ra: bool) -> BoxedStrategy<String> {
        let leaf = Self::leaf(t, ra);
        if depth == 0 {
            return leaf;
        }
        let s = |t: T| self.get(t, depth - 1, ra);
        let bin = |t: T, ops: &'static [&'static str]| {
            (s(t), pick(ops), s(t))
                .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                .boxed()
        };
        let tern = (s(T::B), s(t), s(t))
            .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})"))
            .boxed();
        let mut alts: Vec<(u32, BoxedStrategy<String>)> = vec![(4, leaf), (1, tern)];
        // An index masked into range, or guarded so it is only used in range.
        let index = s(T::I).prop_map(|e| format!("(({e}) & 63)")).boxed();
        let guarded = |arr: &'static str, fallback: &'static str| {
            s(T::I)
                .prop_map(move |e| {
                    format!("((({e}) >= 0 && ({e}) < 64) ? {arr}[{e}] : {fallback})")
                })
                .boxed()
        };
        let load = |arr: &'static str| {
            index
                .clone()
                .prop_map(move |i| format!("{arr}[{i}]"))
                .boxed()
        };
        match t {
            T::I | T::U | T::L => {
                let (ints, one): (&'static [&'static str], &'static str) = match t {
                    T::I => (&["+", "-", "*", "&", "|", "^", "<<", ">>"], "1"),
                    T::U => (&["+", "-", "*", "&", "|", "^", "<<", ">>"], "1u"),
                    _ => (&["+", "-", "*", "&", "|", "^", "<<", ">>"], "1ll"),
                };
                alts.push((4, bin(t, ints)));
                alts.push((
                    2,
                    (s(t), pick(&["/", "%"]), s(t))
                        .prop_map(move |(a, op, b)| format!("({a} {op} (({b}) | {one}))"))
                        .boxed(),
                ));
                alts.push((
                    1,
                    (s(t), pick(&["/", "%"]), s(t))
                        .prop_map(|(a, op, b)| format!("(({b}) != 0 ? ({a}) {op} ({b}) : ({a}))"))
                        .boxed(),
                ));
                if self.raw_div {
                    alts.push((1, bin(t, &["/", "%"])));
                }
                alts.push((1, s(t).prop_map(|a| format!("(-({a}))")).boxed()));
                alts.push((1, s(t).prop_map(|a| format!("(~{a})")).boxed()));
                alts.push((
                    1,
                    (pick(&["min", "max"]), s(t), s(t))
                        .prop_map(|(f, a, b)| format!("{f}({a}, {b})"))
                        .boxed(),
                ));
                let casts: &'static [(&'static str, T)] = match t {
                    T::I => &[
                        ("int", T::F),
                        ("int", T::D),
                        ("int", T::L),
                        ("int", T::U),
                        ("char", T::I),
                        ("unsigned char", T::F),
                        ("short", T::D),
                        ("unsigned short", T::L),
                        ("int", T::B),
                    ],
                    T::U => &[("unsigned", T::I), ("unsigned", T::F), ("unsigned", T::L)],
                    _ => &[
                        ("long long", T::I),
                        ("long long", T::U),
                        ("long long", T::F),
                        ("long long", T::D),
                    ],
                };
                for &(name, from) in casts {
                    alts.push((
                        1,
                        s(from)
                            .prop_map(move |a| format!("(({name})({a}))"))
                            .boxed(),
                    ));
                }
                match t {
                    T::I => {
                        alts.push((2, load("ia")));
                        alts.push((1, guarded("ia", "7")));
                        alts.push((1, s(T::I).prop_map(|a| format!("abs({a})")).boxed()));
                        // Mixed with bool: `true + 1` is an int.
                        alts.push((
                            1,
                            (s(T::B), s(T::I))
                                .prop_map(|(b, a)| format!("({b} + {a})"))
                                .boxed(),
                        ));
                    }
                    T::U => {
                        alts.push((2, load("ua")));
                        // int op unsigned is unsigned.
                        alts.push((
                            2,
                            (s(T::I), pick(&["+", "*", "-"]), s(T::U))
                                .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                                .boxed(),
                        ));
                    }
                    _ => {
                        alts.push((2, load("la")));
                        // unsigned op long long is long long.
                        alts.push((
                            2,
                            (s(T::U), pick(&["+", "*", "-"]), s(T::L))
                                .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                                .boxed(),
                        ));
                    }
                }
            }
            T::F | T::D => {
                let f = if t == T::F { "f" } else { "" };
                alts.push((4, bin(t, &["+", "-", "*", "/"])));
                alts.push((1, s(t).prop_map(|a| format!("(-({a}))")).boxed()));
                if t == T::F {
                    // Conversions rounded down, up or toward zero, from each kind of argument.
                    let directed: &'static [(&'static str, &'static str, T)] = &[
                        ("__half2float(__int2half_", ")", T::I),
                        ("__half2float(__float2half_", ")", T::F),
                        ("__half2float(__ll2half_", ")", T::L),
                        ("__bfloat162float(__uint2bfloat16_", ")", T::U),
                        ("__bfloat162float(__float2bfloat16_", ")", T::F),
                        ("__ll2float_", "", T::L),
                        ("__double2float_", "", T::D),
                        ("__int2float_", "", T::I),
                    ];
                    for &(call, close, from) in directed {
                        alts.push((
                            1,
                            (pick(&["rd", "ru", "rz"]), s(from))
                                .prop_map(move |(m, a)| format!("{call}{m}({a}){close}"))
                                .boxed(),
                        ));
                    }
                }
                let math1: &'static [&'static str] = &[
                    "sqrt", "rsqrt", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan",
                    "tanh", "fabs", "floor", "ceil", "round", "trunc",
                ];
                alts.push((
                    2,
                    (pick(math1), s(t))
                        .prop_map(move |(m, a)| format!("{m}{f}({a})"))
                        .boxed(),
                ));
                alts.push((
                    1,
                    (pick(&["pow", "fmin", "fmax", "atan2", "fmod"]), s(t), s(t))
                        .prop_map(move |(m, a, b)| format!("{m}{f}({a}, {b})"))
                        .boxed(),
                ));
                alts.push((
                    1,
                    (s(t), s(t), s(t))
                        .prop_map(move |(a, b, c)| format!("fma{f}({a}, {b}, {c})"))
                        .boxed(),
                ));
                let ty = if t == T::F { "float" } else { "double" };
                for from in [T::I, T::U, T::L, if t == T::F { T::D } else { T::F }] {
                    alts.push((
                        1,
                        s(from).prop_map(move |a| format!("(({ty})({a}))")).boxed(),
                    ));
                }
                // int op float is float; float op double is double.
                let other = if t == T::F { T::I } else { T::F };
                alts.push((
                    1,
                    (s(other), pick(&["+", "*"]), s(t))
                        .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                        .boxed(),
                ));
                if t == T::F {
                    alts.push((2, load("fa")));
                    alts.push((1, guarded("fa", "2.5f")));
                } else {
                    alts.push((2, load("da")));
                }
            }
            T::B => {
                for c in [T::I, T::U, T::L, T::F, T::D] {
                    alts.push((
                        1,
                        (s(c), pick(&["<", "<=", ">", ">=", "==", "!="]), s(c))
                            .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                            .boxed(),
                    ));
                }
                alts.push((1, bin(T::B, &["&&", "||", "==", "!="])));
                alts.push((1, s(T::B).prop_map(|a| format!("(!{a})")).boxed()));
                alts.push((1, s(T::I).prop_map(|a| format!("((bool)({a}))")).boxed()));
                alts.push((1, s(T::F).prop_map(|a| format!("(!{a})")).boxed()));
            }
        }
        // Through pointers, `&a[i]`, local arrays and `__device__` helpers taking pointers, at
        // an index masked into range (`@` in a form stands for it). Each pointer's offset stays
        // in a known range (see `HEAD` and `pointer_stmts`): `pi`, `pf` and `pn` at most 31, `pl`
        // at most 3, `pd` at most 3; the inputs hold 68 elements from where they are bound.
        let through = |weight: u32, forms: &'static [&'static str], mask: u32| {
            let index = s(T::I).prop_map(move |e| format!("(({e}) & {mask})"));
            (
                weight,
                (pick(forms), index)
                    .prop_map(|(f, i)| f.replace('@', &i))
                    .boxed(),
            )
        };
        match t {
            T::I => {
                alts.push(through(2, &["pi[@]", "*(pi + @)"], 31));
                alts.push(through(1, &["pl[@]"], 3));
                alts.push(through(2, &["lm[@]"], 7));
                alts.push(through(1, &["*(&ia[@])"], 63));
            }
            T::F => {
                alts.push(through(
                    2,
                    &["pf[@]", "*(pf + @)", "(pn ? pn[@] : 1.0f)", "sum_n(pf, @)"],
                    31,
                ));
                alts.push(through(1, &["rb[@]", "sum_n(rb, @)"], 3));
                alts.push(through(1, &["*at(fa, @)"], 63));
                // `q1` ends its walks at most 34 elements in.
                alts.push(through(1, &["q1[@]"], 31));
                alts.push(through(1, &["at(pf, 2)[@]", "dot4(v4, @)"], 15));
                alts.push(through(1, &["walk(pf, pf + @)"], 7));
                if ra {
                    alts.push(through(
                        1,
                        &["dot4(reinterpret_cast<const float4*>(sf), @)"],
                        63,
                    ));
                    // Pointers into shared memory, static and `extern`, read anywhere.
                    alts.push(through(1, &["sp[@]", "*(sp + @)", "dp[@]"], 127));
                }
            }
            T::D => {
                alts.push(through(1, &["pd[@]", "*(&da[@])"], 63));
                alts.push((
                    1,
                    (s(T::I), s(T::I))
                        .prop_map(|(a, b)| format!("lq[({a}) & 1][({b}) & 3]"))
                        .boxed(),
                ));
            }
            _ => {}
        }
        proptest::strategy::Union::new_weighted(alts).boxed()
    }
}

/// Where a statement is generated.
#[derive(Clone, Copy, Debug)]
struct Ctx {
    /// Statement nesting left.
    depth: usize,
    /// Loops around it (0, 1 or 2): names its counters and allows `break`/`continue`.
    loops: usize,
    /// The epoch reads shared arrays anywhere (and writes none).
    read_all: bool,
}

fn stmts(e: &Exprs, cx: Ctx) -> BoxedStrategy<String> {
    proptest::collection::vec(stmt(e, cx), 0..4)
        .prop_map(|v| v.join("\n"))
        .boxed()
}

fn stmt(e: &Exprs, cx: Ctx) -> BoxedStrategy<String> {
    let x = |t: T| e.get(t, 2, cx.read_all);
    let mut alts: Vec<(u32, BoxedStrategy<String>)> = Vec::new();
    for (t, vars) in [
        (T::I, &["i0", "i1", "c0", "h0"][..]),
        (T::U, &["u0"][..]),
        (T::L, &["l0"][..]),
        (T::F, &["f0", "f1"][..]),
        (T::D, &["d0"][..]),
        (T::B, &["b0"][..]),
    ] {
        let vars: &'static [&'static str] = vars;
        alts.push((
            3,
            (pick(vars), x(t))
                .prop_map(|(v, a)| format!("{v} = {a};"))
                .boxed(),
        ));
        let ops: &'static [&'static str] = match t {
            T::I | T::U | T::L => &["+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>="],
            T::F | T::D => &["+=", "-=", "*=", "/="],
            T::B => continue,
        };
        alts.push((
            2,
            (pick(vars), pick(ops), x(t))
                .prop_map(|(v, op, a)| format!("{v} {op} {a};"))
                .boxed(),
        ));
        alts.push((
            1,
            (pick(vars), pick(&["++", "--"]))
                .prop_map(|(v, op)| format!("{v}{op};"))
                .boxed(),
        ));
    }
    // Stores to the thread's own slot of the scratch buffers.
    for (target, t) in [
        ("xi[g]", T::I),
        ("xf[g]", T::F),
        ("*xd", T::D),
        ("xc[g]", T::F),
        ("xs[g]", T::L),
        ("xb[g]", T::B),
        ("xl[g]", T::L),
    ] {
        let ops: &'static [&'static str] = match t {
            T::B => &["="],
            T::F | T::D => &["=", "+=", "*="],
            _ => &["=", "+=", "^=", "-="],
        };
        alts.push((
            2,
            (pick(ops), x(t))
                .prop_map(move |(op, a)| format!("{target} {op} {a};"))
                .boxed(),
        ));
    }
    if !cx.read_all {
        for (target, t) in [
            ("si[tid]", T::I),
            ("sf[tid]", T::F),
            ("dyn[tid]", T::F),
            ("sd[tid >> 4][tid & 15]", T::D),
        ] {
            alts.push((
                2,
                (pick(&["=", "+="]), x(t))
                    .prop_map(move |(op, a)| format!("{target} {op} {a};"))
                    .boxed(),
            ));
        }
    }
    alts.extend(pointer_stmts(e, cx));
    alts.push((1, x(T::B).prop_map(|c| format!("if ({c}) return;")).boxed()));
    if cx.loops > 0 {
        alts.push((1, pick(&["break;", "continue;"])));
        alts.push((
            1,
            (x(T::B), pick(&["break;", "continue;"]))
                .prop_map(|(c, j)| format!("if ({c}) {j}"))
                .boxed(),
        ));
    }
    if cx.depth > 0 {
        let inner = Ctx {
            depth: cx.depth - 1,
            ..cx
        };
        alts.push((
            3,
            (x(T::B), stmts(e, inner), stmts(e, inner), any::<bool>())
                .prop_map(|(c, a, b, has_else)| {
                    if has_else {
                        format!("if ({c}) {{\n{a}\n}} else {{\n{b}\n}}")
                    } else {
                        format!("if ({c}) {{\n{a}\n}}")
                    }
                })
                .boxed(),
        ));
        if cx.loops < 2 {
            let body = stmts(
                e,
                Ctx {
                    depth: cx.depth - 1,
                    loops: cx.loops + 1,
                    ..cx
                },
            );
            let n = cx.loops;
            // Trip counts of at most 3, some different per thread; `i0 & 3` may change while
            // the loop runs, and stays at most 3.
            let bound = pick(&[
                "0",
                "1",
                "3",
                "(tid % 3)",
                "(i0 & 3)",
                "((int)u0 & 3)",
                "(g % 4)",
            ]);
            alts.push((
                3,
                (bound, body, 0..5usize)
                    .prop_map(move |(b, body, kind)| match kind {
                        0 => format!("for (k{n} = 0; k{n} < {b}; k{n}++) {{\n{body}\n}}"),
                        1 => format!("w{n} = {b};\nwhile (w{n} > 0) {{\nw{n}--;\n{body}\n}}"),
                        2 => format!("w{n} = {b};\ndo {{\nw{n}--;\n{body}\n}} while (w{n} > 0);"),
                        // Pointer walks: `q{n}` goes from `pf` to a fixed end `e{n}` at most 3
                        // further (whatever the body does to `pf`).
                        3 => format!(
                            "e{n} = pf + {b};\nfor (q{n} = pf; q{n} < e{n}; q{n}++) {{\nf1 += *q{n};\n{body}\n}}"
                        ),
                        _ => format!(
                            "q{n} = pf;\ne{n} = pf + {b};\nwhile (q{n} != e{n}) {{\nq{n}++;\nf0 -= q{n}[-1];\n{body}\n}}"
                        ),
                    })
                    .boxed(),
            ));
        }
    }
    proptest::strategy::Union::new_weighted(alts).boxed()
}

/// Statements with pointers and local arrays. What keeps them well defined:
/// - `pi`, `pf` and `pn` point at most 31 elements into their input, `pd` at most 3, `pl` at most
///   3 into `lm`: re-pointing and walking keep to that; `pn` is `pf` or `NULL`; `sp` and `dp`
///   point at most 127 into `sf` and `dyn` and are read only where shared memory is read anywhere;
/// - `ps`, `pxf`, `pxi` and the re-pointed parameter `xd` are the thread's own slots (shared
///   stores only in epochs that write own slots);
/// - `ra` is indexed only by constants and by an unrolled loop's counter, so it stays in
///   registers; `rb`, `lm`, `lq`, `hs` and `hv` are indexed at run time (masked), so they are
///   in local memory;
/// - `float4` views start `VOFF` elements into `fa`, where its real address is 16-byte aligned
///   (`VOFF` is defined from the offset `fa` is bound at), and at multiples of 4 from there.
fn pointer_stmts(e: &Exprs, cx: Ctx) -> Vec<(u32, BoxedStrategy<String>)> {
    let x = |t: T| e.get(t, 2, cx.read_all);
    let masked = |mask: u32| {
        e.get(T::I, 1, cx.read_all)
            .prop_map(move |a| format!("(({a}) & {mask})"))
    };
    // `@` is a masked index, `$` a value.
    let form = |weight: u32, forms: &'static [&'static str], mask: u32, t: T| {
        (
            weight,
            (pick(forms), masked(mask), x(t))
                .prop_map(|(f, i, v)| f.replace('@', &i).replace('$', &v))
                .boxed(),
        )
    };
    let mut alts = vec![
        // Re-pointing within the same array.
        form(
            2,
            &[
                "pi = ia + @;",
                "pi = &ia[@];",
                "pf = fa + @;",
                "pf = &fa[@];",
            ],
            31,
            T::I,
        ),
        form(
            1,
            &["pl = lm + @;", "pl = &lm[@];", "pd = da + @;"],
            3,
            T::I,
        ),
        (
            1,
            x(T::B)
                .prop_map(|c| format!("pn = ({c}) ? pf : NULL;"))
                .boxed(),
        ),
        // Walks that wrap around within the range.
        (
            2,
            pick(&[
                "pi += 8;\nif (pi >= ia + 32) pi -= 32;",
                "pi++;\nif (pi > ia + 31) pi = ia;",
                "if (pf < fa + 3) pf += 28;\nelse pf -= 3;",
                "++pl;\nif (pl == lm + 4) pl = lm;",
                "if (pl > lm) pl--;",
                "pd++;\nif (pd - da > 3) pd = da;",
                "if (pn != NULL && pn < fa + 31) pn++;",
            ]),
        ),
        // Stores through pointers to the thread's own slots, and `__device__` helpers.
        form(
            2,
            &[
                "*pxf = $;",
                "*pxf += $;",
                "pxf[0] *= $;",
                "fill(pxf, 1, $);",
            ],
            1,
            T::F,
        ),
        form(
            2,
            &[
                "*pxi ^= $;",
                "pxi[0] = $;",
                "bump(pxi, $);",
                "bump(&xi[g], $);",
            ],
            1,
            T::I,
        ),
        form(1, &["*xd = $;", "xd[0] += $;"], 1, T::D),
        // Local arrays: in local memory at run-time indices, in registers at constant ones.
        form(
            2,
            &[
                "lm[@] = $;",
                "lm[@] += $;",
                "*pl = $;",
                "pl[@] -= $;",
                "bump(pl, $);",
                "bump(&lm[@], $);",
            ],
            3,
            T::I,
        ),
        form(
            2,
            &[
                "ra[0] = $;",
                "ra[1] += $;",
                "ra[3] *= $;",
                "for (int u = 0; u < 4; u++) ra[u] = ra[u] * 0.5f + $;",
                "rb[@] = $;",
                "fill(rb + 1, @, $);",
            ],
            3,
            T::F,
        ),
        (
            1,
            (masked(1), masked(3), x(T::D))
                .prop_map(|(a, b, v)| format!("lq[{a}][{b}] = {v};"))
                .boxed(),
        ),
        // `float4` loads through reinterpreted pointers, at aligned offsets.
        form(
            1,
            &[
                "{\nfloat4 t4 = v4[@];\nf0 += t4.x * t4.w;\nf1 = t4.y - t4.z;\n}",
                "{\nconst float4* w4 = reinterpret_cast<const float4*>(fa + VOFF + 4 * @);\nfloat4 t4 = *w4;\nf0 += t4.y;\n}",
                "{\nfloat4 t4 = ((const float4*)(fa + VOFF))[@];\nf1 *= t4.z;\n}",
            ],
            15,
            T::F,
        ),
        // The same bytes seen as another type of the same size: float bits as integers, an
        // integer slot written as a float, signedness swapped, `int4` over floats.
        form(
            1,
            &[
                "f0 += (float)(((const int*)(fa + @))[0] & 255);",
                "xi[g] += (int)(*reinterpret_cast<const unsigned*>(&ia[@]) >> 3);",
                "{\nint4 q4 = reinterpret_cast<const int4*>(fa + VOFF)[@];\nf1 += (float)((q4.y ^ q4.w) & 15);\n}",
            ],
            15,
            T::I,
        ),
        // Narrow local elements seen as one wider vector (packed, lowest first): 16-bit
        // integers as `uint4`, halves (integers, exact) as `float4`, swapped and stored back;
        // indexed by `g` too, so in local memory.
        form(
            1,
            &[
                "{\nunsigned short hs[8];\nfor (int jh = 0; jh < 8; jh++) hs[jh] = (unsigned short)(($) + 977 * jh);\nuint4 q4 = reinterpret_cast<const uint4*>(hs)[0];\nxi[g] += (int)((q4.y ^ q4.w) >> 7) + hs[(g + @) & 7];\n}",
                "{\nhalf hv[8];\nfor (int jh = 0; jh < 8; jh++) hv[jh] = __int2half_rn((($) & 1023) + jh);\nfloat4 t4 = reinterpret_cast<const float4*>(hv)[0];\nreinterpret_cast<float4*>(hv)[0] = make_float4(t4.w, t4.z, t4.y, t4.x);\nxi[g] += __half2int_rn(hv[(g ^ @) & 7]);\n}",
            ],
            7,
            T::I,
        ),
        // A local seen as narrower components (issue 12, HeCBench's relu reads a `float4` as
        // `half2`s): an `int4` as 16-bit integers, an `int` as bytes, written through the view
        // and read whole; indexed by `g` too, so in local memory.
        form(
            1,
            &[
                "{\nint4 n4 = make_int4($, 7, -1, g);\nunsigned short* u2 = reinterpret_cast<unsigned short*>(&n4);\nu2[(g + @) & 7] ^= (unsigned short)(g * 977);\nxi[g] += (n4.x ^ n4.z) + (int)u2[@];\n}",
                "{\nint nb = $;\nunsigned char* cb = (unsigned char*)&nb;\ncb[@] = (unsigned char)g;\nxi[g] ^= nb + cb[(g + 1) & 3];\n}",
            ],
            3,
            T::I,
        ),
        // Locals whose address is taken: one-element local arrays behind a reference.
        form(
            1,
            &[
                "{\nint av = $;\nbump(&av, (@));\nxi[g] += av;\n}",
                "{\nint aw;\nint* pw = &aw;\n*pw = $;\naw += pw[0];\nxi[g] ^= aw;\n}",
            ],
            7,
            T::I,
        ),
        form(
            1,
            &["{\nfloat fv = $;\nfloat* pv = &fv;\n*pv += 1.0f;\nf0 += fv;\n}"],
            1,
            T::F,
        ),
        form(
            1,
            &[
                "((float*)pxi)[0] = $;",
                "*reinterpret_cast<unsigned*>(pxi) += (unsigned)($);",
                "xd[0] = (double)(*(const long long*)xd & 1023) + $;",
            ],
            1,
            T::F,
        ),
    ];
    if cx.read_all {
        alts.push(form(
            1,
            &[
                "{\nfloat4 t4 = reinterpret_cast<const float4*>(sf)[@];\nf1 += t4.x - t4.z;\n}",
                "f0 += (float)((((const unsigned long long*)si)[@] >> 28) & 255);",
            ],
            63,
            T::F,
        ));
    } else {
        alts.push(form(
            2,
            &[
                "*ps = $;",
                "ps[0] += $;",
                "bump(ps, $);",
                "bump(&si[tid], $);",
            ],
            1,
            T::I,
        ));
        // The own slot's bytes (issue 12, ISPASS's md5 reads its shared words as bytes).
        alts.push(form(
            1,
            &[
                "((unsigned char*)si)[4 * tid + @] = (unsigned char)($);",
                "xi[g] += ((const unsigned char*)si)[4 * tid + @] + ($);",
            ],
            3,
            T::I,
        ));
    }
    alts
}

/// The body between barriers: an epoch that writes own shared slots, or one that reads any.
fn epoch(e: &Exprs, read_all: bool) -> BoxedStrategy<String> {
    stmts(
        e,
        Ctx {
            depth: 2,
            loops: 0,
            read_all,
        },
    )
}

/// A whole kernel.
fn kernel(raw_div: bool) -> BoxedStrategy<String> {
    let e = Exprs::new(raw_div);
    let own = epoch(&e, false);
    let all = epoch(&e, true);
    // Epochs separated by barriers, some of them inside a loop every thread runs the same number
    // of times, with a barrier at its top and another before its read-all half.
    // A condition every thread of a block agrees on, for a barrier on each side of an `if`.
    let uniform = pick(&[
        "p > 100",
        "(p & 1) == 0",
        "blockIdx.x == 0",
        "gridDim.y > 1",
    ]);
    let sync = prop_oneof![
        3 => Just("__syncthreads();".to_string()),
        1 => uniform.prop_map(|c| format!(
            "if ({c}) {{\n__syncthreads();\n}} else {{\ni1 = i1 + 1;\n__syncthreads();\n}}"
        )),
        1 => (1..3u32, own.clone(), all.clone()).prop_map(|(r, a, b)| format!(
            "for (r0 = 0; r0 < {r}; r0++) {{\n__syncthreads();\n{a}\n__syncthreads();\n{b}\n}}\n__syncthreads();"
        )),
    ];
    let item = (sync, any::<bool>(), own, all)
        .prop_map(|(s, read, a, b)| format!("{s}\n{}", if read { b } else { a }));
    (epoch(&e, false), proptest::collection::vec(item, 0..3))
        .prop_map(|(first, rest)| {
            format!("{HELPERS}\n{HEAD}\n{first}\n{}\n{TAIL}", rest.join("\n"))
        })
        .boxed()
}

/// `__device__` helpers that take pointers (one returns one), inlined at each call.
const HELPERS: &str = r#"__device__ float sum_n(const float* p, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += p[k];
    return s;
}
__device__ void bump(int* p, int v) { *p += v; }
__device__ void fill(float* p, int n, float v) {
    for (int k = 0; k < n; k++) p[k] = v + (float)k;
}
__device__ const float* at(const float* p, int k) { return p + k; }
__device__ float walk(const float* p, const float* end) {
    float s = 0.0f;
    while (p < end) {
        s += *p;
        p++;
    }
    return s;
}
__device__ float dot4(const float4* v, int i) {
    float4 t = v[i];
    return t.x * t.y + t.z * t.w;
}"#;

const HEAD: &str = r#"__global__ void k(const int* ia, const unsigned* ua, const long long* la,
        const float* fa, const double* da, int* oi, unsigned* ou, long long* ol, float* of,
        double* od, int* xi, float* xf, double* xd, unsigned char* xc, short* xs, bool* xb,
        unsigned long long* xl, int p, int* oq, float* ox) {
    __shared__ int si[256];
    __shared__ float sf[256];
    __shared__ double sd[16][16];
    extern __shared__ float dyn[];
    int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int g = (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z))
            * (blockDim.x * blockDim.y * blockDim.z) + tid;
    la += g & 3;
    xd += g;
    int i0 = ia[g & 63], i1 = ia[(g * 5 + 3) & 63];
    unsigned u0 = ua[(g + p) & 63];
    long long l0 = la[g & 63];
    float f0 = fa[g & 63], f1 = fa[(g * 3) & 63];
    double d0 = da[(g + 1) & 63];
    bool b0 = (i0 & 1) != 0;
    unsigned char c0 = (unsigned char)i1;
    short h0 = (short)u0;
    int k0 = 0, k1 = 0, w0 = 0, w1 = 0, r0 = 0;
    const int* pi = ia + (g & 31);
    const float* pf = &fa[(g * 3) & 31];
    const double* pd = da + (g & 3);
    const float *q0 = fa, *q1 = fa, *e0 = fa, *e1 = fa;
    const float* pn = (g & 1) ? fa + (g & 7) : NULL;
    int* ps = &si[tid];
    const float* sp = sf + (tid & 127);
    const float* dp = &dyn[tid >> 1];
    float* pxf = xf + g;
    int* pxi = &xi[g];
    const float4* v4 = reinterpret_cast<const float4*>(fa + VOFF);
    float ra[4] = {1.5f, -2.0f};
    float rb[4];
    int lm[8];
    double lq[2][4];
    int* pl = lm + (tid & 3);"#;

const TAIL: &str = r#"    oi[g * 4] = i0;
    oi[g * 4 + 1] = i1;
    oi[g * 4 + 2] = c0;
    oi[g * 4 + 3] = h0 + k0 + k1 + w0 + w1;
    ou[g] = u0;
    ol[g * 2] = l0;
    ol[g * 2 + 1] = b0;
    of[g * 2] = f0;
    of[g * 2 + 1] = f1;
    od[g] = d0;
    oq[g * 4] = lm[g & 7] + 3 * lm[(g + 5) & 7] + 7 * *pl;
    oq[g * 4 + 1] = (int)(pi - ia) + 64 * (int)(pf - fa) + 4096 * (int)(pl - lm) + 32768 * (int)(pd - da);
    oq[g * 4 + 2] = (pn == NULL) + 2 * (int)(q0 - fa) + 128 * (int)(q1 - fa) + 8192 * (int)(e0 - e1);
    oq[g * 4 + 3] = lm[0] ^ lm[7];
    ox[g * 8] = ra[0];
    ox[g * 8 + 1] = ra[1];
    ox[g * 8 + 2] = ra[2];
    ox[g * 8 + 3] = ra[3];
    ox[g * 8 + 4] = rb[0];
    ox[g * 8 + 5] = rb[tid & 3];
    ox[g * 8 + 6] = (float)lq[g & 1][tid & 3];
    ox[g * 8 + 7] = (float)lq[1][3];
}"#;

/// A launch: block and grid shapes (at most 256 threads per block, as the shared arrays hold).
fn shape() -> impl Strategy<Value = ([u32; 3], [u32; 3])> {
    let block = prop_oneof![
        (1..=256u32).prop_map(|x| [x, 1, 1]),
        (1..=32u32, 1..=4u32, 1..=2u32).prop_map(|(x, y, z)| [x, y, z]),
    ];
    let grid = prop_oneof![
        (1..=3u32).prop_map(|x| [x, 1, 1]),
        (1..=2u32, 1..=2u32, 1..=2u32).prop_map(|(x, y, z)| [x, y, z]),
    ];
    (block, grid)
}

/// How the launch binds pointer parameters, as a launch section may: each of `ia ua la fa da`
/// at an element of its array (0 to 3, so at least 68 elements from there), and `xi` either to
/// an array of its own or into `oi`'s array, past `oi`'s elements (two parameters, one array).
#[derive(Clone, Debug)]
struct Binding {
    offsets: [usize; 5],
    xi_after_oi: bool,
}

impl Binding {
    /// `VOFF`: elements from where `fa` points to the first one at a 16-byte aligned address
    /// (arrays start aligned), where `float4` views of `fa` start.
    fn voff(&self) -> usize {
        (4 - self.offsets[3] % 4) % 4
    }
}

/// The input arrays of `ia ua la fa da` (71 elements each), the scalar `p` and the binding.
type Inputs = (
    Vec<i32>,
    Vec<u32>,
    Vec<i64>,
    Vec<f32>,
    Vec<f64>,
    i32,
    Binding,
);

/// Elements of each input array.
const INPUT_LEN: usize = 71;

/// Input values: mostly small, with the edges of each type mixed in.
fn inputs() -> impl Strategy<Value = Inputs> {
    let i =
        prop_oneof![4 => -100..100i32, 1 => any::<i32>(), 1 => Just(i32::MIN), 1 => Just(i32::MAX)];
    let u = prop_oneof![4 => 0..200u32, 1 => any::<u32>(), 1 => Just(u32::MAX)];
    let l = prop_oneof![4 => -1000..1000i64, 1 => any::<i64>(), 1 => Just(i64::MIN)];
    let f = prop_oneof![
        4 => -100.0..100.0f32,
        1 => any::<f32>(),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(-0.0f32),
        1 => Just(1e10f32),
    ];
    let d = prop_oneof![4 => -100.0..100.0f64, 1 => any::<f64>(), 1 => Just(f64::NAN), 1 => Just(1e300)];
    let binding =
        ([0..4usize, 0..4, 0..4, 0..4, 0..4], any::<bool>()).prop_map(|(offsets, xi_after_oi)| {
            Binding {
                offsets,
                xi_after_oi,
            }
        });
    (
        proptest::collection::vec(i, INPUT_LEN),
        proptest::collection::vec(u, INPUT_LEN),
        proptest::collection::vec(l, INPUT_LEN),
        proptest::collection::vec(f, INPUT_LEN),
        proptest::collection::vec(d, INPUT_LEN),
        -5..300i32,
        binding,
    )
}

/// Cases per run: `PROPTEST_CASES`, or 1500 for CI (about 8 s on 2 cores; most of it parsing).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500)
}

fn is_constant_division(f: &simt::pipeline::Failure) -> bool {
    use miette::Diagnostic;
    f.errors.iter().all(|e| {
        e.code().map(|c| c.to_string()).as_deref() == Some("simt::check::division_by_zero")
    })
}

/// The buffers and scalar of a generated kernel launched on `threads` threads, bound as
/// `ins`' binding says.
fn random_args(kernel: &Kernel, threads: usize, ins: &Inputs) -> Args {
    let (ia, ua, la, fa, da, p, binding) = ins;
    let n = kernel.params.len();
    let mut scalars = vec![None; n];
    scalars[17] = Some(simt::value::Value::I32(*p));
    let mut args = Args {
        scalars,
        buffers: Vec::new(),
        pointers: vec![None; n],
        textures: Vec::new(),
    };
    let data = [
        BufData::I32(ia.clone()),
        BufData::U32(ua.clone()),
        BufData::I64(la.clone()),
        BufData::F32(fa.clone()),
        BufData::F64(da.clone()),
        BufData::I32(vec![0; threads * 4]),
        BufData::U32(vec![0; threads]),
        BufData::I64(vec![0; threads * 2]),
        BufData::F32(vec![0.0; threads * 2]),
        BufData::F64(vec![0.0; threads]),
        BufData::I32(vec![0; threads]),
        BufData::F32(vec![0.0; threads]),
        BufData::F64(vec![0.0; threads]),
        BufData::U8(vec![0; threads]),
        BufData::I16(vec![0; threads]),
        BufData::Bool(vec![false; threads]),
        BufData::U64(vec![0; threads]),
    ];
    let outputs = [
        (18, BufData::I32(vec![0; threads * 4])),
        (19, BufData::F32(vec![0.0; threads * 8])),
    ];
    for (i, d) in data.into_iter().enumerate().chain(outputs) {
        let name = kernel.params[i].name.clone();
        let (buffer, offset) = match i {
            0..=4 => (args.buffers.len(), binding.offsets[i]),
            // `oi` (5) holds `threads * 4` elements: `xi` points just past them.
            10 if binding.xi_after_oi => {
                let pointer = args.pointers[5].as_ref().expect("oi is bound");
                let b = pointer.buffer.expect("oi is not NULL");
                let BufData::I32(v) = &mut args.buffers[b].data else {
                    unreachable!("oi is an int array")
                };
                v.extend(vec![0; threads]);
                args.pointers[i] = Some(simt::exec::Pointer {
                    name,
                    buffer: Some(b),
                    offset: threads * 4,
                    unset: false,
                });
                continue;
            }
            _ => (args.buffers.len(), 0),
        };
        args.buffers.push(simt::exec::Buffer {
            name: name.clone(),
            written: None,
            data: d,
        });
        args.pointers[i] = Some(simt::exec::Pointer {
            name,
            buffer: Some(buffer),
            offset,
            unset: false,
        });
    }
    args
}

/// The generated kernel's text as compiled: `VOFF` defined for the binding.
fn source(text: &str, ins: &Inputs) -> String {
    format!("#define VOFF {}\n{text}", ins.6.voff())
}

/// A generated kernel, compiled; a case rejected if a divisor folds to a constant zero (refused
/// even where it cannot run), failed if it does not compile otherwise.
fn compile_random(text: &str) -> Result<Program, TestCaseError> {
    let src = SourceFile::new("random.sk", text);
    match simt::pipeline::compile(&src) {
        Ok((_, p)) => Ok(p),
        Err(f) if is_constant_division(&f) => {
            Err(TestCaseError::reject("constant division by zero"))
        }
        Err(f) => Err(TestCaseError::fail(format!(
            "generated kernel does not compile:\n{}\n{text}",
            simt::cli::render(&f)
        ))),
    }
}

/// One generated case: the kernel's text, the launch shape (block, grid) and the inputs.
type Case = (String, ([u32; 3], [u32; 3]), Inputs);

/// A runner of `n` cases, and the strategy that generates them.
fn random_cases(n: u32) -> (TestRunner, impl Strategy<Value = Case>) {
    // About 1 kernel in 100 divides by a constant zero and is rejected: allow that many in long runs.
    let config = Config {
        cases: n,
        max_global_rejects: cases() / 10 + 1024,
        failure_persistence: None,
        ..Config::default()
    };
    let strategy = (
        prop_oneof![4 => kernel(false), 1 => kernel(true)],
        shape(),
        inputs(),
    );
    (TestRunner::new(config), strategy)
}

fn check_random(
    text: &str,
    block: [u32; 3],
    grid: [u32; 3],
    ins: &Inputs,
) -> Result<(), TestCaseError> {
    let text = &source(text, ins);
    let program = compile_random(text)?;
    let kernel = &program.kernels[0];
    // `ra` is indexed only by constants and unrolled loops, and the locals whose address is
    // taken (`av`, `aw`, `fv`) only at their one element; the other local arrays at run time.
    for a in &kernel.local_arrays {
        let known = ["ra", "av", "aw", "fv"].contains(&a.name.as_str());
        prop_assert_eq!(a.in_registers, known, "{}\n{}", a.name, text);
    }
    let threads = (block.iter().product::<u32>() * grid.iter().product::<u32>()) as usize;
    let args = random_args(kernel, threads, ins);
    let cfg = LaunchConfig {
        grid,
        block,
        // 256 floats of `extern __shared__` memory.
        dyn_smem: 1024,
        max_steps: 1 << 26,
        max_block_steps: simt::pipeline::DEFAULT_MAX_BLOCK_STEPS,
        deadline: None,
        threads: 1,
        cooperative: false,
        parallel_min: exec::PARALLEL_MIN_THREADS,
        probe: exec::Probe::default(),
        cache: None,
    };
    let what = format!("block {block:?} grid {grid:?}\n{:?}\n{text}", ins.6);
    let result = std::panic::catch_unwind(|| agree(kernel, &cfg, &args, &what));
    match result {
        Ok(Ok((c, _))) => {
            prop_assert_eq!(c.race_count, 0, "a generated kernel raced:\n{}", what);
            Ok(())
        }
        Ok(Err(r)) => Err(TestCaseError::fail(format!(
            "the reference cannot run a generated kernel ({r:?}):\n{what}"
        ))),
        Err(e) => Err(TestCaseError::fail(
            e.downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "panic".into()),
        )),
    }
}

#[test]
fn random_kernels_agree_with_the_reference() {
    let (mut runner, strategy) = random_cases(cases());
    runner
        .run(&strategy, |(text, (block, grid), ins)| {
            check_random(&text, block, grid, &ins)
        })
        .unwrap();
}

/// A generated kernel on a grid of at least 2^15 threads, the size from which blocks are spread
/// over workers: buffers, counters, per-line counters and races are the same on one worker and on
/// three (the reference interpreter is not needed for this; it would take too long at this size).
#[test]
fn random_kernels_count_alike_on_one_and_several_workers() {
    let (mut runner, strategy) = random_cases(cases() / 20 + 10);
    runner
        .run(&strategy, |(text, (block, _), ins)| {
            let text = source(&text, &ins);
            let program = compile_random(&text)?;
            let kernel = &program.kernels[0];
            let per_block = block.iter().product::<u32>();
            let grid = [(1u32 << 15).div_ceil(per_block), 1, 1];
            let threads = (per_block * grid[0]) as usize;
            let ir = simt::ir::lower(kernel);
            let run = |workers| {
                let cfg = LaunchConfig {
                    grid,
                    block,
                    dyn_smem: 1024,
                    max_steps: 1 << 32,
                    max_block_steps: simt::pipeline::DEFAULT_MAX_BLOCK_STEPS,
                    deadline: None,
                    threads: workers,
                    cooperative: false,
                    parallel_min: exec::PARALLEL_MIN_THREADS,
                    probe: exec::Probe::default(),
                    cache: None,
                };
                let mut args = random_args(kernel, threads, &ins);
                let outcome = exec::launch(&ir, &cfg, &mut args)
                    .map(|o| (o.counters, o.per_inst, o.races))
                    .map_err(|e| e.to_string());
                (outcome, args)
            };
            let (one, one_args) = run(1);
            let (three, three_args) = run(3);
            let ok = one.is_ok();
            prop_assert_eq!(one, three, "block {:?}\n{}", block, text);
            // A launch that traps reports the first failing block in grid order whatever the
            // workers; what other blocks wrote before it stopped is not a result.
            if !ok {
                return Ok(());
            }
            for (a, b) in one_args.buffers.iter().zip(&three_args.buffers) {
                prop_assert!(
                    reference::same_data(&a.data, &b.data),
                    "{}: {}",
                    a.name,
                    text
                );
            }
            Ok(())
        })
        .unwrap();
}

/// Pointers into one of several arrays: swapped in loops, chosen lane by lane with `?:`, walked,
/// passed to a `__device__` function, compared, used by atomics, and null.
const CHOICES: &str = r#"
__device__ void add_to(float* p, int i, float v) { p[i] += v; }
__global__ void swapped(float* a, float* b, int* counts, int steps) {
    __shared__ float s0[64];
    __shared__ float s1[64];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    float* src = a;
    float* dst = b;
    float* sh = s0;
    float* other = s1;
    sh[t] = a[g];
    other[t] = 0.0f;
    __syncthreads();
    for (int s = 0; s < steps; s++) {
        dst[g] = src[g] * 0.5f + sh[(t + s) & 63];
        other[t] = sh[t ^ 1] + 1.0f;
        __syncthreads();
        float* x = src; src = dst; dst = x;
        float* y = sh; sh = other; other = y;
    }
    int* c = (g % 3 == 0) ? counts : counts + 1;
    atomicAdd(c, 1);
    float* q = (t & 4) ? a : b;
    q += g;
    add_to(q, 0, (q == a + g) ? 1.0f : 2.0f);
}
__global__ void null_chosen(float* a, float* b) {
    float* p = a;
    for (int s = 0; s < 3; s++) {
        p[threadIdx.x] = 1.0f;
        p = s == 0 ? b : NULL;
    }
}
launch swapped { a = rand(128); b = rand(128); counts = zeros(2); steps = 3; grid = 2; block = 64; }
launch null_chosen { a = zeros(32); b = zeros(32); grid = 1; block = 32; }
"#;

#[test]
fn pointers_into_several_arrays_agree_with_the_reference() {
    each_launch("choices.sk", CHOICES, |kernel, cfg, args| {
        match (agree(kernel, cfg, args, &kernel.name), kernel.name.as_str()) {
            (Ok((c, _)), "swapped") => assert!(c.gatom_instr > 0 && c.smem_instr > 0, "{c:?}"),
            (Ok(_), "null_chosen") => assert_eq!(
                engine_code(kernel, cfg, args).as_deref(),
                Some("simt::run::null_pointer")
            ),
            (r, name) => panic!("{name}: {r:?}"),
        }
    });
}

/// cuRAND's device API (docs/curand.md): XORWOW's skip-ahead (the engine's byte tables against
/// the reference's bit-by-bit powers), Philox, and states in a global buffer and in registers.
const CURAND: &str = r#"#include <curand_kernel.h>
__global__ void xorwow(curandState* states, unsigned int* out, float* f) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(1234 + (id % 3), id * 977, id * 12345, &states[id]);
    curandState s = states[id];
    out[id] = curand(&s);
    skipahead(id, &s);
    skipahead_sequence(id % 5, &s);
    f[id] = curand_uniform(&s) + curand_normal(&s) + (float)curand_uniform_double(&s);
    states[id] = s;
}
__global__ void philox(unsigned int* out, float* f) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t s;
    curand_init(99, id, id * 7, &s);
    uint4 r = curand4(&s);
    out[id] = r.x ^ r.y ^ r.z ^ r.w ^ curand(&s);
    float4 u = curand_uniform4(&s);
    f[id] = u.x + u.w + curand_normal(&s) + (float)curand_normal_double(&s);
}
launch xorwow { states = zeros(12 * 64); out = zeros(64); f = zeros(64); block = 32; grid = 2; }
launch philox { out = zeros(64); f = zeros(64); block = 32; grid = 2; }
"#;

#[test]
fn curand_agrees_with_the_reference() {
    each_launch("curand.sk", CURAND, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

/// `__syncthreads_count/_and/_or` as a statement and as the value of an assignment, in a loop
/// and with threads that returned first; nested in a larger expression the reference cannot
/// pause at it and says so.
const BLOCK_VOTES: &str = r#"
__global__ void votes(int* out, float* s) {
    __shared__ float buf[64];
    int t = threadIdx.x;
    if (blockIdx.x == 1 && t >= 40) return;
    buf[t] = s[t];
    __syncthreads();
    int n = __syncthreads_count(buf[(t + 32) % 40] > 0.5f);
    int a;
    a = __syncthreads_and(t < 50);
    __syncthreads_or(t == 3);
    int i = 0;
    for (int r = 0; r < 3; r++) {
        int more = __syncthreads_or(i < t % 4);
        if (more) i++;
    }
    out[blockIdx.x * 64 + t] = n + 100 * a + 1000 * i;
}
__global__ void nested(int* out) {
    out[threadIdx.x] = 1 + __syncthreads_count(threadIdx.x % 2);
}
__global__ void divergent(int* out) {
    int c = 0;
    if (threadIdx.x < 16) c = __syncthreads_count(1);
    out[threadIdx.x] = c;
}
launch votes { out = zeros(128); s = rand(64); block = 64; grid = 2; }
launch nested { out = zeros(64); block = 64; grid = 1; }
launch divergent { out = zeros(64); block = 64; grid = 1; }
"#;

#[test]
fn block_votes_agree_with_the_reference() {
    each_launch("votes.sk", BLOCK_VOTES, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        match kernel.name.as_str() {
            "nested" => assert!(
                matches!(result, Err(RefError::Unsupported { .. })),
                "{result:?}"
            ),
            "divergent" => {
                assert!(result.is_ok(), "{result:?}");
                assert_eq!(
                    engine_code(kernel, cfg, args).as_deref(),
                    Some("simt::run::divergent_barrier")
                );
            }
            _ => {
                let (c, t) = result.expect("votes agree");
                // Block 0: 4 statements + 3 loop iterations = 7 barriers; block 1 the same.
                assert_eq!((c.barriers, t.barriers), (14, 14));
            }
        }
    });
}

/// Device-side `memcpy` and `memset`: pieces as wide as the alignment allows, byte loops, copies
/// between types and between a thread's own arrays.
const MEMFN: &str = r#"
__global__ void pieces(const float* a, float* b, int* words) {
    int t = threadIdx.x;
    memcpy(b + 4 * t, a + 4 * t, 16);
    float f = a[t];
    int bits;
    memcpy(&bits, &f, sizeof(f));
    unsigned char bytes[8];
    memset(bytes, t, 8);
    unsigned long long w;
    memcpy(&w, bytes, sizeof(w));
    words[t] = bits ^ (int)w;
}
__global__ void bytes(unsigned char* dst, const unsigned char* src, int n) {
    int t = threadIdx.x;
    memcpy(dst + t * n, src + t * n, n - t % 3);
    memset(dst + t * n + n - t % 3, 0x5a, t % 3);
}
launch pieces { a = rand(128); b = zeros(128); words = zeros(32); block = 32; grid = 1; }
launch bytes { n = 5; src = arange(160); dst = zeros(160); block = 32; grid = 1; }
"#;

#[test]
fn memcpy_and_memset_agree_with_the_reference() {
    each_launch("memfn.sk", MEMFN, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

/// Inline PTX without warp-synchronous instructions: conversions, bit fields, permutes, a
/// guarded vector load and a store, which the reference interpreter runs from the same lowered
/// C++ the engine does.
const INLINE_PTX: &str = r#"
__global__ void ptx(const float* in, unsigned* out) {
    int i = threadIdx.x;
    unsigned s8, field, perm, table, lane;
    asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(s8) : "f"(in[i] * 40.0f - 600.0f));
    asm("bfe.s32 %0, %1, %2, 5;" : "=r"(field) : "r"(i * 0x01010101), "r"(i % 30));
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(perm) : "r"(i), "r"(~i), "r"(0x40c8 + i));
    asm("lop3.b32 %0, %1, %2, %3, 0xCA;" : "=r"(table) : "r"(i), "r"(0xFF00FF00), "r"(s8));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    float a = 0, b = 0;
    asm("{ .reg .pred p; setp.lt.u32 p, %2, 16; @p ld.global.nc.v2.f32 {%0, %1}, [%3]; }"
        : "+f"(a), "+f"(b) : "r"(lane), "l"(in + 2 * (i / 2)));
    asm volatile("st.global.v2.u32 [%0], {%1, %2};" :: "l"(out + 2 * i), "r"(s8 ^ field), "r"(perm + table + __float_as_uint(a + b)) : "memory");
}
launch ptx { in = arange(64); out = zeros(128); block = 64; grid = 1; }
"#;

#[test]
fn inline_ptx_agrees_with_the_reference() {
    each_launch("ptx.sk", INLINE_PTX, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}

const COMPOUND_ORDER: &str = r#"
__device__ int f(int* p) { *p += 2; return 2; }
__device__ int g(int* p) { *p = 10; return 3; }
__device__ float h(float* p) { *p = 0.5f; return 4.0f; }
__global__ void k(int* o, int* p, float* q, unsigned* s) {
    int i = threadIdx.x;
    o[i] += f(o + i);
    p[i] -= g(p + i);
    q[i] *= h(q + i);
    float x = i, y = 2.0f;
    q[i] += x * y;
    s[i] <<= g(p + i);
}
launch k { o = zeros(32); p = zeros(32); q = ones(32); s = ones(32); block = 32; grid = 1; }
"#;

#[test]
fn compound_assignments_run_their_right_operand_first_in_both_interpreters() {
    // C++17 sequences the right operand (a call that stores the element) before the read of
    // the element: both interpreters give o = 4, p = 7, q = 0.5 * 4 + 2i, s = 8.
    each_launch("compound.sk", COMPOUND_ORDER, |kernel, cfg, args| {
        let result = agree(kernel, cfg, args, &kernel.name);
        assert!(result.is_ok(), "{}: {result:?}", kernel.name);
    });
}
