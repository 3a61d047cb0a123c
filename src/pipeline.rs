//! The only module that knows the phase order: read → parse → check → set up → lower → launch → report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::check::{self, typed::Program, CheckError};
use crate::exec::{self, LaunchConfig, RunError};
use crate::gpu::GpuConfig;
use crate::host::{self, HostError, Origin, Overrides};
use crate::ir;
use crate::report::{LaunchInfo, Report, Timing};
use crate::source::{ShownSource, SourceFile};
use crate::syntax::{self, ast, ParseError};

/// Exit status: the kernel failed at run time (trap or failed `expect`).
pub const EXIT_RUN: u8 = 1;
/// Exit status: usage, I/O, parse or check error.
pub const EXIT_USAGE: u8 = 2;

/// Any diagnostic simt reports, by phase.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum SimtDiagnostic {
    /// The text could not be parsed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Parse(#[from] ParseError),
    /// Names or types are wrong.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Check(#[from] CheckError),
    /// The launch could not be set up.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Host(#[from] HostError),
    /// The kernel trapped.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Run(#[from] RunError),
    /// A file or command-line problem without a source span.
    #[error("{message}")]
    #[diagnostic(code(simt::usage))]
    Usage {
        /// What is wrong.
        message: String,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },
}

/// A diagnostic with the source its spans point into.
#[derive(Debug)]
pub struct Located {
    /// The text shown around the spans; `None` for a diagnostic about the command line.
    pub src: Option<ShownSource>,
    /// The diagnostic.
    pub inner: SimtDiagnostic,
    /// The names the front end made up for classes, with the names written
    /// ([`ast::Module::made_names`]): the diagnostic's text shows the latter.
    pub names: Vec<(String, String)>,
}

impl Located {
    /// Diagnostic `inner` about `src`, naming things as the front end does.
    pub fn new(src: Option<ShownSource>, inner: SimtDiagnostic) -> Located {
        Located {
            src,
            inner,
            names: Vec::new(),
        }
    }

    /// `text` with the names made up shown as written.
    fn shown(&self, text: impl std::fmt::Display) -> String {
        crate::diag::as_written(&text.to_string(), &self.names)
    }
}

impl std::fmt::Display for Located {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown(&self.inner))
    }
}

impl std::error::Error for Located {}

impl Diagnostic for Located {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.inner.code()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        let help = self.inner.help()?;
        Some(Box::new(self.shown(help)))
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        // Without a source, a span points at nothing.
        let labels = self.src.as_ref().and(self.inner.labels())?;
        Some(Box::new(labels.map(|mut l| {
            l.set_label(l.label().map(|t| self.shown(t)));
            l
        })))
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.src.as_ref().map(|s| s as &dyn SourceCode)
    }
}

/// Why a command failed: every diagnostic of the failing phase, and the exit status.
#[derive(Debug)]
pub struct Failure {
    /// The diagnostics, each with its source.
    pub errors: Vec<Located>,
    /// 1 for run-time failures, 2 for everything else.
    pub exit: u8,
}

impl Failure {
    fn new(
        src: Option<&SourceFile>,
        errors: impl IntoIterator<Item = SimtDiagnostic>,
        exit: u8,
    ) -> Failure {
        Failure {
            errors: errors
                .into_iter()
                .map(|inner| Located::new(src.map(SourceFile::named_source), inner))
                .collect(),
            exit,
        }
    }

    /// The failure of a file whose classes `module` renamed: its diagnostics show the names
    /// as written.
    fn written_as(mut self, module: &ast::Module) -> Failure {
        for e in &mut self.errors {
            e.names.clone_from(&module.made_names);
        }
        self
    }

    /// A usage error with no source.
    pub fn usage(message: impl Into<String>, help: Option<String>) -> Failure {
        Failure::new(
            None,
            [SimtDiagnostic::Usage {
                message: message.into(),
                help,
            }],
            EXIT_USAGE,
        )
    }
}

/// Reads a kernel file.
pub fn read(path: &Path) -> Result<SourceFile, Failure> {
    if path.is_dir() {
        return Err(Failure::usage(
            format!("`{}` is a directory", path.display()),
            None,
        ));
    }
    match std::fs::read(path) {
        Ok(bytes) => Ok(SourceFile::new(
            path.display().to_string(),
            crate::source::decode(bytes),
        )),
        Err(e) => Err(Failure::usage(
            format!("cannot read `{}`: {e}", path.display()),
            None,
        )),
    }
}

/// Parses and checks every kernel of a file (`simt check`): an error anywhere fails it.
pub fn compile(src: &SourceFile) -> Result<(ast::Module, Program), Failure> {
    compile_with(src, &[])
}

/// [`compile`] with the `-D` macros `defines`.
pub fn compile_with(
    src: &SourceFile,
    defines: &[(String, String)],
) -> Result<(ast::Module, Program), Failure> {
    let module = syntax::parse_with(src, syntax::DEFAULT_COMPUTE_CAPABILITY, defines)
        .map_err(|es| Failure::new(Some(src), es.into_iter().map(Into::into), EXIT_USAGE))?;
    let program = check::check(&module).map_err(|es| {
        Failure::new(Some(src), es.into_iter().map(Into::into), EXIT_USAGE).written_as(&module)
    })?;
    Ok((module, program))
}

/// Parses and checks a file for running `kernel`, or the kernels its launch sections name:
/// instantiates the template `kernel` names (`sgemm<64,64,8>`) if it names one, and leaves out
/// (in [`Program::unchecked`]) another kernel that has errors. The file is read as device code
/// for `gpu` (its `__CUDA_ARCH__`), with the `-D` macros `defines`.
pub fn compile_for(
    src: &SourceFile,
    kernel: Option<&str>,
    gpu: &GpuConfig,
    defines: &[(String, String)],
) -> Result<(ast::Module, Program), Failure> {
    let module = syntax::parse_with(src, gpu.compute_capability, defines)
        .map_err(|es| Failure::new(Some(src), es.into_iter().map(Into::into), EXIT_USAGE))?;
    compile_parsed(src, module, kernel)
}

/// [`compile_for`] of a module already parsed from `src`.
fn compile_parsed(
    src: &SourceFile,
    module: ast::Module,
    kernel: Option<&str>,
) -> Result<(ast::Module, Program), Failure> {
    let plain = kernel.map(|k| plain_kernel_name(&module, k));
    let kernel = plain.as_deref();
    let mut requests = Vec::new();
    // An instance of a template (`k<64>`), or of one of a template's overloads
    // (`k<float>(T*,int)`).
    let instance = |k: &&str| !syntax::split_instance(k).1.is_empty();
    if let Some(text) = kernel.filter(instance) {
        let template = syntax::template_name(text);
        let signature = template.find('(').map_or("", |at| &template[at..]);
        let head = &text[..text.len() - signature.len()];
        let (name, base, targs) = syntax::parse_kernel_ref(head).map_err(|e| {
            Failure::new(
                Some(&SourceFile::new(format!("--kernel {text}"), text)),
                [e.into()],
                EXIT_USAGE,
            )
        })?;
        requests.push(check::KernelRef {
            name: format!("{name}{signature}"),
            base: format!("{base}{signature}"),
            targs,
            span: crate::source::Span::default(),
        });
    }
    let focus: Vec<String> = match kernel {
        Some(k) => vec![plain_kernel_name(&module, k)],
        None => module
            .launches
            .iter()
            .chain(module.sequences.iter().flat_map(|q| {
                q.items.iter().filter_map(|i| match i {
                    ast::SeqItem::Launch(l) => Some(l),
                    ast::SeqItem::Stmt(_) => None,
                })
            }))
            .map(|l| l.kernel.name.clone())
            .collect(),
    };
    let program = check::check_focused(
        &module,
        &requests,
        (!focus.is_empty()).then_some(&focus[..]),
    )
    .map_err(|es| {
        Failure::new(Some(src), es.into_iter().map(Into::into), EXIT_USAGE).written_as(&module)
    })?;
    Ok((module, program))
}

/// The kernels and functions a run left out, in a line: each one's name, line and first error.
pub fn unchecked_note(program: &Program, module: &ast::Module, src: &SourceFile) -> Option<String> {
    if program.unchecked.is_empty() {
        return None;
    }
    let items: Vec<String> = program
        .unchecked
        .iter()
        .map(|u| {
            format!(
                "{} `{}` (line {}: {} [{}])",
                u.what,
                u.name,
                src.line_of(u.span.start),
                crate::diag::as_written(&u.first, &module.made_names),
                u.code
            )
        })
        .collect();
    Some(format!(
        "left out what this run does not use and simt cannot check: {}; `simt check` reports all of their errors",
        items.join(", ")
    ))
}

/// A `.cu` file's host code, which simt skips: one line naming it, or `None` when there is none.
pub fn host_note(module: &ast::Module, src: &SourceFile) -> Option<String> {
    if module.host_items.is_empty() {
        return None;
    }
    let items: Vec<String> = module
        .host_items
        .iter()
        .map(|(what, span)| format!("{what} (line {})", src.line_of(span.start)))
        .collect();
    Some(format!(
        "skipped host code, which runs on the CPU: {}; the kernel's arguments come from the launch section or --arg",
        items.join(", ")
    ))
}

/// Everything `simt run` needs besides the file.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// `--kernel`.
    pub kernel: Option<String>,
    /// `--arg`, `--grid`, `--block`, `--seed`.
    pub overrides: Overrides,
    /// `--dyn-smem`.
    pub dyn_smem: Option<u64>,
    /// `--max-dyn-smem`: the kernel's opt-in to more dynamic shared memory than the GPU's
    /// default per-block limit.
    pub max_dyn_smem: Option<u64>,
    /// `--max-steps`.
    pub max_steps: u64,
    /// `--max-block-steps`.
    pub max_block_steps: u64,
    /// `simt test --timeout`: how long the launch may run.
    pub timeout: Option<std::time::Duration>,
    /// `--sample`: simulate only some blocks and extrapolate.
    pub sample: Option<SampleSize>,
    /// `--launch FILE`: the launch sections, in a file of their own (a `.cu` file stays as it is).
    pub launch: Option<std::path::PathBuf>,
    /// Which launch section runs, by its place in the file (`simt test` runs each in turn);
    /// `None`: the first one for the kernel.
    pub section: Option<usize>,
    /// `--regs`.
    pub regs: u32,
    /// `--gpu`.
    pub gpu: GpuConfig,
    /// `--save NAME=PATH`.
    pub saves: Vec<(String, PathBuf)>,
    /// `--threads`: workers running blocks.
    pub threads: usize,
    /// Launches of fewer threads run on one worker ([`exec::PARALLEL_MIN_THREADS`]; tests give 0
    /// to run every launch on `threads` workers).
    pub parallel_min: u64,
    /// `--map-block`, `--map-warp`, `--map-iteration`: which warp the lane maps draw.
    pub probe: exec::Probe,
    /// Show a progress bar on stderr when the launch takes more than a second.
    pub progress: bool,
    /// `--cooperative`: launch as `cudaLaunchCooperativeKernel` (as `cooperative;` in the launch
    /// section does).
    pub cooperative: bool,
    /// `-D NAME=VALUE`: macros defined before the file's first line, as nvcc's `-D` defines them.
    pub defines: Vec<(String, String)>,
}

impl Default for RunOptions {
    /// The defaults of `simt run`: the H100, 32 registers, every core.
    fn default() -> RunOptions {
        RunOptions {
            kernel: None,
            overrides: Overrides::default(),
            dyn_smem: None,
            max_dyn_smem: None,
            max_steps: DEFAULT_MAX_STEPS,
            max_block_steps: DEFAULT_MAX_BLOCK_STEPS,
            timeout: None,
            sample: None,
            launch: None,
            section: None,
            regs: 32,
            gpu: GpuConfig::h100_sxm(),
            saves: Vec::new(),
            threads: default_threads(),
            parallel_min: exec::PARALLEL_MIN_THREADS,
            probe: exec::Probe::default(),
            progress: false,
            cooperative: false,
            defines: Vec::new(),
        }
    }
}

/// Worker threads when `--threads` is not given: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The default `--max-steps`: warp instructions per launch.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 32;

/// `--max-block-steps` by default: 2^28 warp-instruction slots, a few seconds of one block on
/// a laptop core whatever its size. A tiled SGEMM block of 1024³ runs about 2^19 of them; a
/// single block of 1024 threads striding over 2^26 elements about 2^25.
pub const DEFAULT_MAX_BLOCK_STEPS: u64 = 1 << 28;

/// The GPU `--gpu NAME` names: a preset, or a `.json` file with a preset's fields.
pub fn load_gpu(name: &str) -> Result<GpuConfig, Failure> {
    if let Some(g) = crate::gpu::preset(name) {
        return Ok(g);
    }
    if name.ends_with(".json") {
        let text = std::fs::read_to_string(name)
            .map_err(|e| Failure::usage(format!("cannot read `{name}`: {e}"), None))?;
        return GpuConfig::from_json_str(&text)
            .map_err(|e| Failure::usage(format!("`{name}`: {e}"), None));
    }
    Err(Failure::usage(
        format!("unknown GPU `{name}`"),
        Some(format!(
            "presets: {} (or a .json file)",
            crate::gpu::preset_names().join(", ")
        )),
    ))
}

/// `--kernel a::b::k` (or `a::b::k<64>`): the name kernel `k` of namespace `a::b` is known by;
/// any other name as given.
fn plain_kernel_name(module: &ast::Module, name: &str) -> String {
    let name = syntax::canonical_kernel_name(name);
    let name = syntax::resolve_kernel_name(&module.kernels, &name).unwrap_or(name);
    syntax::sole_signature(module, &name).unwrap_or(name)
}

/// Picks the kernel to run: `--kernel`, the only one in the file, or the only one a launch section
/// names.
fn pick<'p>(
    program: &'p Program,
    module: &ast::Module,
    src: &SourceFile,
    name: Option<&str>,
) -> Result<&'p check::typed::Kernel, Failure> {
    let names: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
    // `k<64, 8>` names the instance `k<64,8>`, `k(int, float*)` an overload; `a::b::k` the
    // kernel `k` of namespace `a::b`.
    let canonical = name.map(|n| plain_kernel_name(module, n));
    match canonical.as_deref() {
        Some(n) => program.kernel(n).ok_or_else(|| {
            let known = program.names_like(module, n);
            Failure::usage(
                format!("no kernel named `{n}` in {}", src.name()),
                Some(
                    crate::diag::did_you_mean(n, known.iter().map(String::as_str))
                        .unwrap_or_else(|| format!("the kernels are: {}", known.join(", "))),
                ),
            )
        }),
        None if program.kernels.len() == 1 => Ok(&program.kernels[0]),
        None if module.launches.len() == 1
            && program.kernel(&module.launches[0].kernel.name).is_some() =>
        {
            Ok(program
                .kernel(&module.launches[0].kernel.name)
                .expect("checked: launched"))
        }
        None => Err(Failure::usage(
            format!(
                "{} has {} kernels; choose one with --kernel",
                src.name(),
                names.len()
            ),
            Some(format!("the kernels are: {}", names.join(", "))),
        )),
    }
}

/// The launch section of `kernel`: the `section`th of the file when one is chosen, else the
/// first for the kernel. An instance of a template without a launch section of its own takes the
/// template's: one without arguments, or failing that one for another instance.
fn launch_for<'m>(
    module: &'m ast::Module,
    kernel: &check::typed::Kernel,
    section: Option<usize>,
) -> Option<&'m ast::Launch> {
    if let Some(i) = section {
        return module.launches.get(i);
    }
    let base = syntax::template_name(&kernel.name);
    module
        .launches
        .iter()
        .find(|l| l.kernel.name == kernel.name)
        .or_else(|| module.launches.iter().find(|l| l.kernel.name == base))
        .or_else(|| {
            module
                .launches
                .iter()
                .find(|l| syntax::template_name(&l.kernel.name) == base)
        })
}

/// When several launch sections name the kernel and the run chose none: a line saying which one
/// ran, so the others are not taken for checked.
fn sections_note(module: &ast::Module, kernel: &str, src: &SourceFile) -> Option<String> {
    let lines: Vec<usize> = module
        .launches
        .iter()
        .filter(|l| l.kernel.name == kernel)
        .map(|l| src.line_of(l.span.start))
        .collect();
    (lines.len() > 1).then(|| {
        let all: Vec<String> = lines.iter().map(usize::to_string).collect();
        format!(
            "{} launch sections name `{kernel}` (lines {}): this run used the first, at line {}; `simt test` runs each",
            lines.len(),
            all.join(", "),
            lines[0]
        )
    })
}

/// Checks, without running anything, that the kernel `opts` names exists and that every
/// `--arg` names something the kernel or its launch section uses.
pub fn check_args(src: &SourceFile, opts: &RunOptions) -> Result<(), Failure> {
    let (module, program) = compile_for(src, opts.kernel.as_deref(), &opts.gpu, &opts.defines)?;
    let kernel = pick(&program, &module, src, opts.kernel.as_deref())?;
    host::check_arg_names(
        kernel,
        launch_for(&module, kernel, opts.section),
        &opts.overrides,
    )
    .map_err(|e| Failure::new(None, [e.into()], EXIT_USAGE))
}

/// How much of a grid `--sample` simulates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SampleSize {
    /// This fraction of the blocks (0 < f ≤ 1), the boundary whole.
    Fraction(f64),
    /// A fraction that answers in about a second ([`auto_fraction`]).
    Auto,
}

/// Buffers up to this size are copied for the pilot blocks of `--sample auto`.
const PILOT_COPY_LIMIT: u64 = 256 << 20;

/// The fraction of the grid `--sample auto` runs: what [`WARP_INSTRUCTIONS_PER_SECOND`] gets
/// through in about a second on the launch's workers; `None` when the whole launch takes about
/// that already (three passes of it with the cache model). The work per block is measured on two pilot blocks (the first and the middle
/// one) run on a copy of the buffers, in warp instructions, so the fraction is the same on every
/// machine; with buffers too large to copy, the kernel's instruction count stands in (a lower
/// bound: loops add to it).
pub fn auto_fraction(ir: &ir::KernelIr, cfg: &LaunchConfig, args: &exec::Args) -> Option<f64> {
    let blocks = cfg.blocks();
    let pilot = (buffer_bytes(args) <= PILOT_COPY_LIMIT && blocks > 2)
        .then(|| {
            let ids = [0, blocks / 2];
            exec::launch_blocks(ir, cfg, &mut args.clone(), &exec::Progress::default(), &ids)
                .ok()
                .map(|o| o.counters.warp_instr as f64 / 2.0)
        })
        .flatten();
    let per_block = pilot.unwrap_or_else(|| static_steps(ir, cfg) as f64 / blocks as f64);
    // With the cache model, the fraction runs three times: the counters' blocks, the cache
    // clusters' and their warm-ups (`sample::cache_plan`).
    let passes = if cfg.cache.is_some() { 3.0 } else { 1.0 };
    let work = per_block * blocks as f64 * passes;
    let affordable = WARP_INSTRUCTIONS_PER_SECOND * cfg.threads.max(1) as f64;
    (work > affordable).then(|| affordable / work)
}

/// Warp instructions one worker simulates per second, about (a full warp of simple arithmetic on
/// this project's CI machine; divergent or memory-heavy code is slower).
pub const WARP_INSTRUCTIONS_PER_SECOND: f64 = 5e7;

/// A note for a launch predicted to take more than a few seconds: its warps times the kernel's
/// instructions (a lower bound: loops run more), and the time that takes at
/// [`WARP_INSTRUCTIONS_PER_SECOND`] on the launch's workers.
pub fn long_work_note(ir: &ir::KernelIr, cfg: &LaunchConfig) -> Option<String> {
    let warps = cfg
        .blocks()
        .saturating_mul(cfg.threads_per_block().div_ceil(32));
    let work = static_steps(ir, cfg);
    let workers = cfg.threads.max(1) as f64;
    let seconds = work as f64 / WARP_INSTRUCTIONS_PER_SECOND / workers;
    (seconds >= 5.0).then(|| {
        format!(
            "note: a large launch: {warps} warps × {} steps = {work} warp steps or more (loops add to it), about {seconds:.0} s or more on {} worker(s); a smaller grid runs faster",
            ir.insts.len() + 1,
            cfg.threads.max(1)
        )
    })
}

/// The warp steps a launch takes at least: each warp's launch and each of the kernel's
/// instructions once (loops run more).
fn static_steps(ir: &ir::KernelIr, cfg: &LaunchConfig) -> u64 {
    let warps = cfg
        .blocks()
        .saturating_mul(cfg.threads_per_block().div_ceil(32));
    warps.saturating_mul(ir.insts.len() as u64 + 1)
}

/// The cache model's sizes for a launch of `setup`'s shape on `gpu`: the L1 the carveout leaves
/// each SM, shared by the blocks resident on it, the GPU's L2, and the blocks of one wave; `None`
/// when no block fits on an SM.
fn cache_config(
    gpu: &crate::gpu::GpuConfig,
    setup: &host::Setup,
    smem_per_block: u64,
    (regs, opt_in): (u32, bool),
) -> Option<exec::CacheConfig> {
    let threads: u64 = setup.block.iter().map(|&d| u64::from(d)).product();
    let request = crate::gpu::OccupancyRequest {
        opt_in,
        ..crate::gpu::OccupancyRequest::new(
            u32::try_from(threads).unwrap_or(u32::MAX),
            regs,
            u32::try_from(smem_per_block).unwrap_or(u32::MAX),
        )
    };
    let occ = crate::gpu::occupancy(gpu, &request);
    (occ.blocks_per_sm > 0).then(|| exec::CacheConfig {
        l1_bytes_per_block: crate::gpu::l1_bytes_per_sm(gpu, &occ) / u64::from(occ.blocks_per_sm),
        l2_bytes: gpu.l2_bytes,
        wave_blocks: u64::from(gpu.n_sm) * u64::from(occ.blocks_per_sm),
    })
}

/// Where a launch section says `cooperative;`, if it does.
fn cooperative_stmt(launch: Option<&ast::Launch>) -> Option<crate::source::Span> {
    launch?.stmts.iter().find_map(|s| match s {
        ast::HostStmt::Cooperative(span) => Some(*span),
        _ => None,
    })
}

/// CUDA's rule for a cooperative launch (`cudaErrorCooperativeLaunchTooLarge`): every block
/// resident at once, at most the occupancy calculator's blocks per SM × the GPU's SMs.
fn check_resident(
    gpu: &GpuConfig,
    cfg: &LaunchConfig,
    smem_per_block: u64,
    (regs, opt_in): (u32, bool),
    span: crate::source::Span,
) -> Result<(), HostError> {
    let request = crate::gpu::OccupancyRequest {
        opt_in,
        ..crate::gpu::OccupancyRequest::new(
            u32::try_from(cfg.threads_per_block()).unwrap_or(u32::MAX),
            regs,
            u32::try_from(smem_per_block).unwrap_or(u32::MAX),
        )
    };
    let per_sm = crate::gpu::occupancy(gpu, &request).blocks_per_sm;
    let most = u64::from(per_sm) * u64::from(gpu.n_sm);
    if cfg.blocks() > most {
        return Err(HostError::CooperativeTooLarge {
            blocks: cfg.blocks(),
            per_sm,
            sms: gpu.n_sm,
            most,
            gpu: gpu.name.clone(),
            span,
        });
    }
    Ok(())
}

/// Dynamic shared memory as the CUDA runtime allows it: up to the GPU's default per-block limit
/// (48 KB) beside the static arrays, more only with an opt-in (`--max-dyn-smem`, `max_dyn_smem =
/// …;`, as `cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)`), which
/// itself fits in the GPU's opt-in limit.
fn check_dyn_smem(
    gpu: &GpuConfig,
    kernel: &check::typed::Kernel,
    static_smem: u64,
    dyn_smem: u64,
    max_dyn_smem: Option<u64>,
) -> Result<(), HostError> {
    // What the diagnostics point at: the `extern __shared__` array, or else the kernel.
    let span = kernel
        .shared
        .iter()
        .find(|s| s.is_extern)
        .map_or(kernel.span, |s| s.span);
    let opt_in_limit = u64::from(gpu.max_smem_per_block).saturating_sub(static_smem);
    if let Some(bytes) = max_dyn_smem.filter(|&b| b > opt_in_limit) {
        return Err(HostError::SharedMemoryOptIn {
            bytes,
            limit: opt_in_limit,
            static_bytes: static_smem,
            gpu: gpu.name.clone(),
            span,
        });
    }
    let default_limit = u64::from(gpu.default_smem_per_block).saturating_sub(static_smem);
    let (limit, why, help) = match max_dyn_smem {
        Some(max) => (
            max,
            format!("with its opt-in of {max} bytes"),
            format!("raise the opt-in to {dyn_smem}: --max-dyn-smem {dyn_smem}, or `max_dyn_smem = {dyn_smem};` in the launch section"),
        ),
        None => (
            default_limit,
            format!(
                "without an opt-in on {} ({} bytes per block, {static_smem} of them static)",
                gpu.name, gpu.default_smem_per_block
            ),
            format!("opt in as cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, {dyn_smem}) does: --max-dyn-smem {dyn_smem}, or `max_dyn_smem = {dyn_smem};` in the launch section (at most {opt_in_limit} on {})", gpu.name),
        ),
    };
    if dyn_smem <= limit {
        return Ok(());
    }
    Err(HostError::DynamicSharedMemory {
        bytes: dyn_smem,
        limit,
        why,
        help,
        span,
    })
}

/// `--map-block` inside the grid and `--map-warp` inside the block, before anything runs.
fn check_probe(cfg: &LaunchConfig) -> Result<(), Failure> {
    let dims = |[x, y, z]: [u32; 3]| format!("({x},{y},{z})");
    if let Some(b) = cfg.probe.block {
        if b.iter().zip(cfg.grid).any(|(&i, n)| i >= n) {
            return Err(Failure::usage(
                format!(
                    "--map-block {}: the grid is {} blocks",
                    dims(b),
                    dims(cfg.grid)
                ),
                Some("blockIdx counts from 0 in each dimension".into()),
            ));
        }
    }
    let warps = cfg.threads_per_block().div_ceil(32);
    match cfg.probe.warp {
        Some(w) if u64::from(w) >= warps => Err(Failure::usage(
            format!(
                "--map-warp {w}: a block of {} threads has {warps} warp(s)",
                cfg.threads_per_block()
            ),
            Some(format!("give a warp from 0 to {}", warps - 1)),
        )),
        _ => Ok(()),
    }
}

/// Bytes of the launch's buffers.
fn buffer_bytes(args: &exec::Args) -> u64 {
    args.buffers
        .iter()
        .map(|b| b.data.len() as u64 * u64::from(b.data.elem().size()))
        .sum()
}

/// Runs every block of the launch, with a progress bar (and a note if it will take long) when
/// `progress`.
fn launch_whole(
    ir: &ir::KernelIr,
    cfg: &LaunchConfig,
    args: &mut exec::Args,
    progress: bool,
    src: &SourceFile,
) -> Result<exec::Outcome, Failure> {
    if progress {
        if let Some(note) = long_work_note(ir, cfg) {
            eprintln!("{note}");
        }
        crate::progress::with_bar(cfg.blocks(), |p| exec::launch_counting(ir, cfg, args, p))
    } else {
        exec::launch(ir, cfg, args)
    }
    .map_err(|e| Failure::new(Some(src), [e.into()], EXIT_RUN))
}

/// Runs a kernel and builds its report. A failed `expect` is in the report, not an error.
pub fn run(src: &SourceFile, opts: &RunOptions) -> Result<Report, Failure> {
    run_keeping(src, opts, None).map(|f| f.report)
}

/// A finished run: the report, and the arrays the launch named, after the run.
#[derive(Debug)]
pub struct Finished {
    /// What `simt run` prints.
    pub report: Report,
    /// Every name that held an array, in name order; empty for a sampled run, whose arrays hold
    /// the sampled blocks' writes only.
    pub arrays: Vec<host::HeldArray>,
}

/// [`run`], keeping the launch's arrays; a raised `interrupt` stops the launch with
/// `simt::run::interrupted`.
pub fn run_keeping(
    src: &SourceFile,
    opts: &RunOptions,
    interrupt: Option<&exec::Interrupt>,
) -> Result<Finished, Failure> {
    run_from(src, None, opts, interrupt)
}

/// [`run`] of a file [`parse`] has read already, from `started`, when parsing began (`simt run`
/// parses once to look for `sequence` sections, and runs from that module; the parse phase of
/// the report's timing counts from `started`).
pub fn run_parsed(
    src: &SourceFile,
    module: ast::Module,
    started: Instant,
    opts: &RunOptions,
) -> Result<Report, Failure> {
    run_from(src, Some((module, started)), opts, None).map(|f| f.report)
}

fn run_from(
    src: &SourceFile,
    parsed: Option<(ast::Module, Instant)>,
    opts: &RunOptions,
    interrupt: Option<&exec::Interrupt>,
) -> Result<Finished, Failure> {
    let clock = parsed
        .as_ref()
        .map_or_else(Instant::now, |(_, started)| *started);
    let (module, program) = match parsed {
        Some((module, _)) => compile_parsed(src, module, opts.kernel.as_deref())?,
        None => compile_for(src, opts.kernel.as_deref(), &opts.gpu, &opts.defines)?,
    };
    let parsed = clock.elapsed();
    let kernel = pick(&program, &module, src, opts.kernel.as_deref())?;
    // The launch section comes from `--launch FILE` when one is given; its diagnostics, `load`
    // paths and `expect`s are that file's.
    let setup_file = opts.launch.as_deref().map(read).transpose()?;
    let setup_module = match &setup_file {
        Some(s) => Some(
            syntax::parse_with(s, opts.gpu.compute_capability, &opts.defines)
                .map_err(|es| Failure::new(Some(s), es.into_iter().map(Into::into), EXIT_USAGE))?,
        ),
        None => None,
    };
    let (launch, launch_src) = match (&setup_module, &setup_file) {
        (Some(m), Some(s)) => match launch_for(m, kernel, opts.section) {
            Some(l) => (Some(l), s),
            None => {
                let found: Vec<&str> = m.launches.iter().map(|l| l.kernel.name.as_str()).collect();
                return Err(Failure::usage(
                    format!("{} has no `launch {}` section", s.name(), kernel.name),
                    Some(if found.is_empty() {
                        "write one: `launch NAME { n = 1024; ... }`".to_string()
                    } else {
                        format!("its launch sections are for: {}", found.join(", "))
                    }),
                ));
            }
        },
        _ => (launch_for(&module, kernel, opts.section), src),
    };
    let dir = Path::new(launch_src.name())
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let setup = host::prepare(kernel, launch, &opts.overrides, &dir).map_err(|(e, origin)| {
        match origin {
            Origin::Arg(i) => {
                let arg = opts
                    .overrides
                    .args
                    .get(i)
                    .expect("host: Origin::Arg(i) indexes Overrides::args");
                let shown = SourceFile::new(arg.label.clone(), arg.text.clone());
                Failure::new(Some(&shown), [e.into()], EXIT_USAGE)
            }
            Origin::File => Failure::new(Some(launch_src), [e.into()], EXIT_USAGE),
            // A launch shape given by --grid/--block: nothing in the file to point at.
            Origin::Flag => Failure::new(None, [e.into()], EXIT_USAGE),
        }
        .written_as(&module)
    })?;
    execute(
        Launched {
            src,
            opts,
            interrupt,
            module: &module,
            program: &program,
            kernel,
            launch,
            launch_src,
            launch_module: setup_module.as_ref().unwrap_or(&module),
            sections_note: opts.section.is_none(),
            clock,
            parsed,
            observe: None,
        },
        setup,
    )
    .map_err(|f| f.written_as(&module))
}

/// What [`execute`] runs: a kernel, its launch section and where they come from.
struct Launched<'a> {
    src: &'a SourceFile,
    opts: &'a RunOptions,
    interrupt: Option<&'a exec::Interrupt>,
    module: &'a ast::Module,
    program: &'a Program,
    kernel: &'a check::typed::Kernel,
    launch: Option<&'a ast::Launch>,
    launch_src: &'a SourceFile,
    launch_module: &'a ast::Module,
    /// Whether to note the file's other launch sections.
    sections_note: bool,
    clock: Instant,
    parsed: std::time::Duration,
    /// Called with the launch as it is about to run (the differential tests run it on the
    /// reference interpreter too).
    observe: Option<&'a mut Observer<'a>>,
}

/// What [`run_sequence_observed`] calls before each launch: its kernel, configuration and
/// bound arguments.
pub type Observer<'a> = dyn FnMut(&check::typed::Kernel, &LaunchConfig, &exec::Args) + 'a;

/// Runs a launch that is set up, checks its `expect`s and builds its report.
fn execute(l: Launched<'_>, mut setup: host::Setup) -> Result<Finished, Failure> {
    let Launched {
        src,
        opts,
        interrupt,
        module,
        program,
        kernel,
        launch,
        launch_src,
        launch_module,
        sections_note: note_sections,
        clock,
        parsed,
        observe,
    } = l;
    let mut ir = ir::lower(kernel);
    ir.sites = ir
        .spans
        .iter()
        .map(|s| src.line_of(s.start) as u32)
        .collect();
    let dyn_smem = match opts.dyn_smem {
        Some(b) => b,
        None => match setup.env.vars.get(&host::setting_key(kernel, "dyn_smem")) {
            Some(host::HostValue::Num { v, .. }) if *v >= 0.0 => *v as u64,
            _ => 0,
        },
    };
    let static_smem = crate::check::typed::static_bytes(&kernel.shared);
    let max_dyn_smem = match opts.max_dyn_smem {
        Some(b) => Some(b),
        None => match setup
            .env
            .vars
            .get(&host::setting_key(kernel, "max_dyn_smem"))
        {
            Some(host::HostValue::Num { v, .. }) if *v >= 0.0 => Some(*v as u64),
            _ => None,
        },
    };
    let smem_per_block = static_smem.saturating_add(dyn_smem);
    if smem_per_block > u64::from(opts.gpu.max_smem_per_block) {
        return Err(Failure::usage(
            format!(
                "{smem_per_block} bytes of shared memory per block exceeds the {} bytes a block may use on {}",
                opts.gpu.max_smem_per_block, opts.gpu.name
            ),
            Some("lower --dyn-smem or the size of the __shared__ arrays".into()),
        ));
    }
    check_dyn_smem(&opts.gpu, kernel, static_smem, dyn_smem, max_dyn_smem)
        .map_err(|e| Failure::new(Some(src), [e.into()], EXIT_USAGE))?;
    let cfg = LaunchConfig {
        grid: setup.grid,
        block: setup.block,
        dyn_smem,
        max_steps: opts.max_steps,
        max_block_steps: opts.max_block_steps,
        deadline: deadline(opts.timeout, interrupt),
        threads: opts.threads,
        cooperative: opts.cooperative || cooperative_stmt(launch).is_some(),
        parallel_min: opts.parallel_min,
        probe: opts.probe,
        cache: cache_config(
            &opts.gpu,
            &setup,
            smem_per_block,
            (opts.regs, max_dyn_smem.is_some()),
        ),
    };
    check_probe(&cfg)?;
    if cfg.cooperative {
        let (stmt, shown) = match cooperative_stmt(launch) {
            Some(span) => (span, launch_src),
            None => (kernel.span, src),
        };
        check_resident(
            &opts.gpu,
            &cfg,
            smem_per_block,
            (opts.regs, max_dyn_smem.is_some()),
            stmt,
        )
        .map_err(|e| Failure::new(Some(shown), [e.into()], EXIT_USAGE))?;
        if let Some(SampleSize::Fraction(f)) = opts
            .sample
            .filter(|_| ir.insts.iter().any(|i| matches!(i, ir::Inst::GridSync)))
        {
            return Err(Failure::usage(
                format!("--sample {f}: a cooperative launch with grid barriers runs every block"),
                Some(
                    "its blocks wait for each other at `this_grid().sync()`; run without --sample"
                        .into(),
                ),
            ));
        }
    }
    let buffer_bytes = buffer_bytes(&setup.args);
    // The buffers exist already; the engine's state is allocated next.
    let state = exec::state_bytes(&ir, &cfg);
    setup
        .env
        .check_limit(
            buffer_bytes.saturating_add(state),
            kernel.span,
            "the buffers, and each worker's block registers and shared memory",
        )
        .and_then(|()| {
            host::check_alloc(
                state,
                kernel.span,
                "each worker's block registers, shared memory and race history",
            )
        })
        .map_err(|e| Failure::new(Some(src), [e.into()], EXIT_USAGE))?;
    let set_up = clock.elapsed();
    let fraction = match opts.sample {
        Some(SampleSize::Fraction(f)) if f < 1.0 => Some(f),
        // The blocks of a cooperative launch wait for each other: every one runs.
        Some(SampleSize::Auto) if !cfg.cooperative => auto_fraction(&ir, &cfg, &setup.args),
        _ => None,
    };
    // Every --save names an array before anything runs.
    for (name, _) in &opts.saves {
        setup
            .check_save(kernel, name)
            .map_err(|why| Failure::usage(format!("--save {name}: {why}"), None))?;
    }
    if let (Some(_), Some((name, _))) = (fraction, opts.saves.first()) {
        return Err(Failure::usage(
            format!("--save {name}: a sampled run does not compute whole results"),
            Some("run without --sample to save buffers".into()),
        ));
    }
    if let Some(observe) = observe {
        observe(kernel, &cfg, &setup.args);
    }
    let (outcome, sample) = match fraction {
        Some(f) => {
            let mut runs = Vec::new();
            for stratum in exec::sample::plan(&cfg, f) {
                if stratum.ids.is_empty() {
                    continue;
                }
                let o = exec::launch_blocks(
                    &ir,
                    &cfg,
                    &mut setup.args,
                    &exec::Progress::default(),
                    &stratum.ids,
                )
                .map_err(|e| Failure::new(Some(src), [e.into()], EXIT_RUN))?;
                runs.push((stratum, o));
            }
            let (mut o, mut s) = exec::sample::combine(&ir, &cfg, f, runs);
            if let Some(cache) = cfg.cache {
                // The cache model runs on clusters of its own, after the counters' blocks (on
                // the buffers those wrote: a sampled run's results are not checked anyway).
                let plan = exec::sample::cache_plan(&cfg, cache, f);
                let (ids, groups) = plan.groups();
                let clustered = LaunchConfig {
                    cache: Some(plan.cache),
                    ..cfg.clone()
                };
                let run = exec::launch_groups(
                    &ir,
                    &clustered,
                    &mut setup.args,
                    &exec::Progress::default(),
                    &ids,
                    &groups,
                )
                .map_err(|e| Failure::new(Some(src), [e.into()], EXIT_RUN))?;
                let (stats, info) = plan.combine(&run.group_cache);
                o.cache = Some(stats);
                s.cache = Some(info);
            }
            (o, Some(s))
        }
        None => (
            launch_whole(&ir, &cfg, &mut setup.args, opts.progress, src)?,
            None,
        ),
    };
    let simulated = clock.elapsed();
    for (name, path) in &opts.saves {
        let (data, shape) = setup
            .array(kernel, name)
            .map_err(|why| Failure::usage(format!("--save {name}: {why}"), None))?;
        host::save(path, &data, &shape)
            .map_err(|e| Failure::usage(format!("cannot write `{}`: {e}", path.display()), None))?;
    }
    // A sampled run's buffers hold the sampled blocks' writes only: nothing to check.
    let expects = match sample {
        Some(_) => Vec::new(),
        None => host::check_expects(&mut setup, launch_src)
            .map_err(|e| Failure::new(Some(launch_src), [e.into()], EXIT_USAGE))?,
    };
    let threads = cfg.threads_per_block();
    let info = LaunchInfo {
        grid: cfg.grid,
        block: cfg.block,
        threads_per_block: threads,
        warps_per_block: threads.div_ceil(32),
        smem_per_block,
        max_dyn_smem,
        regs_per_thread: opts.regs,
        cache: outcome.cache.and(cfg.cache),
    };
    let mut report = Report::new(src, kernel, &ir, &outcome, &opts.gpu, info, expects);
    report.sample = sample;
    if let Some(note) = host_note(module, src) {
        report.hints.push(crate::report::hints::Hint {
            rule: "host-code",
            line: None,
            message: note,
        });
    }
    if !setup.zeroed.is_empty() {
        let names: Vec<String> = setup.zeroed.iter().map(|n| format!("`{n}`")).collect();
        report.hints.push(crate::report::hints::Hint {
            rule: "unset-constant",
            line: None,
            message: format!(
                "{} {} `__constant__` memory the launch does not set: the kernel reads zeros, as CUDA zero-initialises a symbol that host code never copies to (`cudaMemcpyToSymbol`); set {} in the launch section (`{} = ...;`) if the kernel needs values",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 { "it" } else { "them" },
                setup.zeroed[0]
            ),
        });
    }
    if let Some(note) = unchecked_note(program, module, src) {
        report.hints.push(crate::report::hints::Hint {
            rule: "unchecked-kernels",
            line: None,
            message: note,
        });
    }
    if let Some(note) = note_sections
        .then(|| sections_note(launch_module, &kernel.name, launch_src))
        .flatten()
    {
        report.hints.push(crate::report::hints::Hint {
            rule: "launch-sections",
            line: None,
            message: note,
        });
    }
    let arrays = match report.sample {
        Some(_) => Vec::new(),
        None => setup.into_arrays(),
    };
    report.timing = Timing {
        parse: parsed.as_secs_f64(),
        setup: (set_up - parsed).as_secs_f64(),
        simulate: (simulated - set_up).as_secs_f64(),
        report: (clock.elapsed() - simulated).as_secs_f64(),
    };
    Ok(Finished { report, arrays })
}

/// When a launch must stop: after `timeout`, or when `interrupt` is raised; `None` for neither.
fn deadline(
    timeout: Option<std::time::Duration>,
    interrupt: Option<&exec::Interrupt>,
) -> Option<exec::Deadline> {
    let mut d = timeout.map(exec::Deadline::after).unwrap_or_default();
    d.interrupt = interrupt.cloned();
    (d != exec::Deadline::default()).then_some(d)
}

/// A finished `sequence` section: each launch's report, in order, and its own `expect`s.
#[derive(Debug)]
pub struct SequenceRun {
    /// Each launch, as `simt run` reports one.
    pub launches: Vec<Report>,
    /// The sequence's `expect`s, after its last launch.
    pub expects: Vec<host::ExpectResult>,
}

impl SequenceRun {
    /// Whether every `expect`, the launches' and the sequence's, held.
    pub fn expects_passed(&self) -> bool {
        self.launches.iter().all(Report::expects_passed) && self.expects.iter().all(|e| e.passed)
    }
}

/// The module of a file, parsed as `opts` reads it (its launch and `sequence` sections
/// included).
pub fn parse(src: &SourceFile, opts: &RunOptions) -> Result<ast::Module, Failure> {
    syntax::parse_with(src, opts.gpu.compute_capability, &opts.defines)
        .map_err(|es| Failure::new(Some(src), es.into_iter().map(Into::into), EXIT_USAGE))
}

/// Runs the `index`-th `sequence` section of a file: its statements and launches in order, on
/// one set of arrays and one device heap (DESIGN.md; docs/heap.md).
pub fn run_sequence(
    src: &SourceFile,
    opts: &RunOptions,
    index: usize,
) -> Result<SequenceRun, Failure> {
    run_sequence_observed(src, opts, index, &mut |_, _, _| {})
}

/// [`run_sequence`], calling `observe` with each launch as it is about to run.
pub fn run_sequence_observed(
    src: &SourceFile,
    opts: &RunOptions,
    index: usize,
    observe: &mut Observer<'_>,
) -> Result<SequenceRun, Failure> {
    let clock = Instant::now();
    let refuse = |flag: &str| {
        Failure::usage(
            format!("{flag} does not apply to a `sequence` section"),
            Some(format!(
                "set the value in the sequence or in its launch items, or pick one launch section with --kernel and pass {flag} there"
            )),
        )
    };
    if !opts.overrides.args.is_empty() {
        return Err(refuse("--arg"));
    }
    if opts.overrides.grid.is_some() || opts.overrides.block.is_some() {
        return Err(refuse("--grid/--block"));
    }
    if !opts.saves.is_empty() {
        return Err(refuse("--save"));
    }
    if opts.launch.is_some() {
        return Err(refuse("--launch"));
    }
    let (module, program) = compile_for(src, None, &opts.gpu, &opts.defines)?;
    let parsed = clock.elapsed();
    let in_file =
        |e: HostError| Failure::new(Some(src), [e.into()], EXIT_USAGE).written_as(&module);
    let seq = module
        .sequences
        .get(index)
        .ok_or_else(|| Failure::usage(format!("the file has no sequence {index}"), None))?;
    let mut kernels = Vec::new();
    for item in &seq.items {
        if let ast::SeqItem::Launch(l) = item {
            let Some(k) = program.kernel(&l.kernel.name) else {
                let names = program.kernels.iter().map(|k| k.name.as_str());
                let help =
                    crate::diag::did_you_mean(&l.kernel.name, names.clone()).unwrap_or_else(|| {
                        format!(
                            "the file's kernels: {}",
                            names.collect::<Vec<_>>().join(", ")
                        )
                    });
                return Err(in_file(HostError::UnknownKernel {
                    name: l.kernel.name.clone(),
                    span: l.kernel.span,
                    help,
                }));
            };
            kernels.push(k);
        }
    }
    if kernels.is_empty() {
        return Err(in_file(HostError::EmptySequence { span: seq.span }));
    }
    let dir = Path::new(src.name())
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut env = host::Env::new(&opts.overrides, dir.clone());
    // The file's constants, where no launched kernel has a parameter of their name.
    if let Some(first) = kernels.first() {
        host::file_constants(&mut env, first);
        env.vars.retain(|n, _| {
            !kernels
                .iter()
                .any(|k| k.params.iter().any(|p| &p.name == n))
        });
    }
    // The heap, its allocator's word and its record of allocations come first: the same numbers
    // in every launch, and a later launch sees what an earlier one freed.
    let mut order: Vec<String> = Vec::new();
    for name in [
        check::heap::HEAP,
        check::heap::HEAP_TOP,
        check::heap::HEAP_BLOCKS,
    ] {
        let data = check::heap::hidden_buffer(name).expect("heap: a hidden buffer");
        let float = data.elem().is_float();
        env.vars.insert(
            name.to_string(),
            host::HostValue::Array {
                data: std::sync::Arc::new(data),
                shape: vec![],
                float,
                dtype: None,
            },
        );
        order.push(name.to_string());
    }
    let mut expects = Vec::new();
    let mut launches = Vec::new();
    let mut kernels = kernels.into_iter();
    let per_launch = RunOptions {
        sample: None,
        ..opts.clone()
    };
    for item in &seq.items {
        match item {
            ast::SeqItem::Stmt(ast::HostStmt::Assign { name, value }) => {
                let v = match host::sequence::elem_of(seq, &program, &name.name) {
                    Some(elem) => env.eval_as(value, elem),
                    None => env.eval(value),
                }
                .and_then(|v| host::sequence::symbol_value(seq, &program, name, v))
                .map_err(in_file)?;
                if matches!(v, host::HostValue::Array { .. }) && !order.contains(&name.name) {
                    order.push(name.name.clone());
                }
                env.vars.insert(name.name.clone(), v);
            }
            ast::SeqItem::Stmt(ast::HostStmt::Expect(e)) => expects.push(e.clone()),
            ast::SeqItem::Stmt(ast::HostStmt::Cooperative(span)) => {
                return Err(in_file(HostError::BadValue {
                    message: "`cooperative;` sets one launch, not a sequence".into(),
                    span: *span,
                    label: "in the sequence".into(),
                    help: Some(
                        "write it in the launch item it applies to: `launch k { cooperative; ... }`"
                            .into(),
                    ),
                }))
            }
            ast::SeqItem::Launch(l) => {
                let kernel = kernels.next().expect("sequence: a kernel per launch item");
                host::sequence::check_bound(kernel, l, &env).map_err(in_file)?;
                let tied = host::sequence::tied_pointers(&env.vars);
                let mut launch_env = host::Env::new(&opts.overrides, dir.clone());
                launch_env.vars = env.vars.clone();
                env.share_uninit(&mut launch_env);
                host::sequence::number(&mut launch_env, &order, &env.vars);
                let setup = host::prepare_in(kernel, Some(l), &opts.overrides, launch_env)
                    .map_err(|(e, _)| in_file(e))?;
                let finished = execute(
                    Launched {
                        src,
                        opts: &per_launch,
                        interrupt: None,
                        module: &module,
                        program: &program,
                        kernel,
                        launch: Some(l),
                        launch_src: src,
                        launch_module: &module,
                        sections_note: false,
                        // Each launch's timing: the file's parse, then its own phases.
                        clock: Instant::now().checked_sub(parsed).unwrap_or(clock),
                        parsed,
                        observe: Some(&mut *observe),
                    },
                    setup,
                )
                .map_err(|f| f.written_as(&module))?;
                // A name the item sets (`out = a;`) is that item's binding, not the sequence's
                // `out`: what the launch left under it goes back under the sequence's own names.
                // `t = t;` and `t = &t[1];` bind the sequence's own `t`.
                let bound = |n: &str, own: bool| {
                    l.stmts.iter().any(|s| {
                        matches!(s, ast::HostStmt::Assign { name, value } if name.name == n
                            && host::sequence::names_array(value, n) == own)
                    })
                };
                let set_here = |n: &str| bound(n, false);
                let self_bound = |n: &str| bound(n, true);
                // A `__device__` variable lives as long as the program: what one launch left
                // in it, the next launch reads (its initialiser applies once).
                let symbols = host::sequence::device_variables(kernel);
                for a in finished.arrays {
                    if symbols.contains(&a.name.as_str()) {
                        if !order.contains(&a.name) {
                            order.push(a.name.clone());
                        }
                        host::sequence::keep_symbol(&mut env.vars, a.name, a.data, a.shape);
                        continue;
                    }
                    if order.contains(&a.name) && !set_here(&a.name) {
                        // `t = &t[1];` left the sequence's whole `t`.
                        // Which elements of an `empty(n)` array no launch has written, the next
                        // launch knows: reading one is still reported.
                        let whole = self_bound(&a.name)
                            || std::sync::Arc::ptr_eq(&a.data, &a.whole.0);
                        let written = a.written.filter(|_| whole);
                        let (data, shape) = match self_bound(&a.name) {
                            true => a.whole,
                            false => (a.data, a.shape),
                        };
                        if let Some(bits) = written {
                            env.written(&data, bits);
                        }
                        host::sequence::keep(&mut env.vars, a.name, data, shape);
                    }
                }
                host::sequence::repoint(&mut env.vars, &tied);
                launches.push(finished.report);
            }
        }
    }
    let expects = host::sequence::expects(&mut env, &expects, src).map_err(in_file)?;
    Ok(SequenceRun { launches, expects })
}
