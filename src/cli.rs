//! Command-line interface: clap definitions, flags turned into options once, output and exit codes.

mod color;
mod compare;
mod docs;
mod insight;
mod sweep;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args as ClapArgs, Parser, Subcommand};
use miette::GraphicalTheme;

use crate::gpu::{self, OccupancyRequest};
use crate::host::{ArgOverride, ArgValue, Overrides};
use crate::pipeline::{self, load_gpu, Failure, RunOptions, EXIT_RUN, EXIT_USAGE};
use crate::render;
pub use crate::render::{error_json, render};
use crate::report::json as report_json;
use crate::report::model::{self, ScalingOutput, Version};
use crate::report::style::Paint;
use crate::suite;
pub use color::ColorChoice;

const EXIT_CODES: &str =
    "Exit status: 0 success; 1 the kernel failed at run time (out of bounds, divergent barrier, \
division by zero, step limit, failed expect) or a gate (--max, --min, --deny) failed; \
2 usage, file, parse or type error.";

const TEST_HELP: &str = "A file whose kernels must fail says so in a comment line: \
`// simt-test: expect-error simt::run::out_of_bounds`. Prints one line per kernel and \
`N passed, M failed`; exit status 1 when any failed, 2 for a path that cannot be read.";

/// A paper GPU: run a CUDA kernel on the CPU and see what a profiler on an H100 would show.
#[derive(Debug, Parser)]
#[command(name = "simt", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// Colour in the output: auto (when the output is a terminal and NO_COLOR is not set), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a kernel and report memory, shared-memory, divergence, race, occupancy and time counters.
    #[command(after_help = EXIT_CODES)]
    Run(RunArgs),
    /// Parse and type-check a kernel file without running it.
    Check {
        /// The `.sk` file.
        file: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Define a macro before the file's first line, as nvcc's `-D` does: `-D NAME` (its
        /// value 1) or `-D NAME=VALUE`.
        #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]", value_parser = parse_define)]
        defines: Vec<(String, String)>,
    },
    /// Run every combination of block sizes, argument values and GPUs; one row each, the best marked.
    #[command(after_help = EXIT_CODES)]
    Sweep(sweep::SweepArgs),
    /// Run two kernels (two files, or two kernels of one file) with the same launch, side by side.
    #[command(after_help = EXIT_CODES)]
    Compare(compare::CompareArgs),
    /// Run every kernel that has a launch section, with its defaults, and check its expects.
    #[command(after_help = TEST_HELP)]
    Test(TestArgs),
    /// NVIDIA's occupancy calculator for one launch shape; with --blocks the waves, with
    /// --bytes-per-request the latency hiding (Little's law) of the resident warps.
    Occupancy(OccupancyArgs),
    /// Amdahl's and Gustafson's speedups for a serial fraction on N processors.
    Scaling {
        /// Serial fraction of the work, 0 to 1.
        #[arg(long)]
        serial: f64,
        /// Number of processors (or parallel units).
        #[arg(long)]
        procs: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the GPU presets and their numbers; with a NAME, that one (`--json` then prints a
    /// description `--gpu FILE.json` takes back, to edit into a GPU of your own).
    Gpus {
        /// One preset (`simt gpus h100-pcie --json > my.json`).
        #[arg(value_parser = GpuName, hide_possible_values = true)]
        name: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of every `--json` output (schema/simt-output.schema.json), generated
    /// from the output model.
    Schema,
    /// Print a shell completion script (e.g. `simt completions bash > /etc/bash_completion.d/simt`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), or write one page per subcommand into a directory.
    Man {
        /// Write simt.1, simt-run.1, ... into this directory instead.
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

/// `simt run` flags.
#[derive(Debug, ClapArgs)]
pub struct RunArgs {
    /// The `.sk` file.
    pub file: PathBuf,
    /// The kernel to run (needed when the file has several).
    #[arg(long)]
    pub kernel: Option<String>,
    /// A file of `launch` sections for the kernel, so that a `.cu` file stays untouched
    /// (`simt run program.cu --launch setup.sk`); it replaces the kernel file's own.
    #[arg(long, value_name = "FILE")]
    pub launch: Option<PathBuf>,
    /// Grid size: X[,Y[,Z]] (overrides the launch section).
    #[arg(long, value_parser = parse_dim)]
    pub grid: Option<[u32; 3]>,
    /// Block size: X[,Y[,Z]] (overrides the launch section).
    #[arg(long, value_parser = parse_dim)]
    pub block: Option<[u32; 3]>,
    /// Set a parameter or host variable: NAME=VALUE, e.g. n=4096, a=rand(4096), a=[1,2,3], a=@in.npy.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// GPU model: a preset name (see `simt gpus`) or a JSON file with the same fields.
    #[arg(long, default_value = "h100", value_parser = GpuName, hide_possible_values = true)]
    pub gpu: String,
    /// Print one JSON object on stdout instead of the report.
    #[arg(long)]
    pub json: bool,
    /// Write a buffer after the run: NAME=PATH.npy.
    #[arg(long = "save", value_name = "NAME=PATH")]
    pub saves: Vec<String>,
    /// Shared memory, registers, step limit and seed.
    #[command(flatten)]
    pub model: ModelFlags,
    /// Per-line counters, hints' lane maps and performance gates.
    #[command(flatten)]
    pub insight: insight::InsightArgs,
    /// Worker threads running blocks (default: every core). Results and counters do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `simt test`'s flags.
#[derive(Debug, ClapArgs)]
pub struct TestArgs {
    /// `.sk` files or folders (searched recursively).
    #[arg(default_value = "kernels")]
    pub paths: Vec<PathBuf>,
    /// Files run at once (default: every core); the output stays in file order.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Print one JSON record per case, one per line: `{schema, file, kernel, passed, verdict,
    /// details}` (`simt schema` describes it).
    #[arg(long)]
    pub json: bool,
    /// Stop a launch after this many warp steps.
    #[arg(long, default_value_t = pipeline::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Stop a block after this many warp-instruction slots.
    #[arg(long, default_value_t = pipeline::DEFAULT_MAX_BLOCK_STEPS)]
    pub max_block_steps: u64,
    /// Fail a launch that runs longer than this many seconds.
    #[arg(long, value_parser = parse_seconds)]
    pub timeout: Option<std::time::Duration>,
    /// Define a macro in every file before its first line, as nvcc's `-D` does: `-D NAME` (its
    /// value 1) or `-D NAME=VALUE`; repeatable, later ones win.
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]", value_parser = parse_define)]
    pub defines: Vec<(String, String)>,
    /// Let `load("...")` in a launch section read files outside the kernel file's folder.
    #[arg(long)]
    pub allow_paths: bool,
}

/// `--sample F` (0 < F ≤ 1) or `auto`.
fn parse_sample(s: &str) -> Result<pipeline::SampleSize, String> {
    if s == "auto" {
        return Ok(pipeline::SampleSize::Auto);
    }
    match s.parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1.0 => Ok(pipeline::SampleSize::Fraction(f)),
        _ => Err(format!(
            "`{s}` is not a fraction of the blocks: give a number above 0 and at most 1, or `auto`"
        )),
    }
}

/// A positive number of seconds.
fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x < 1e9 => Ok(std::time::Duration::from_secs_f64(x)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

/// Launch settings shared by `run`, `sweep` and `compare`.
#[derive(Debug, ClapArgs)]
pub struct ModelFlags {
    /// Bytes of `extern __shared__` memory per block.
    #[arg(long)]
    pub dyn_smem: Option<u64>,
    /// Opt in to more than the GPU's default 48 KB of shared memory per block, up to this many
    /// bytes of `extern __shared__` memory, as cudaFuncSetAttribute(kernel,
    /// cudaFuncAttributeMaxDynamicSharedMemorySize, BYTES) does.
    #[arg(long, value_name = "BYTES")]
    pub max_dyn_smem: Option<u64>,
    /// Registers per thread assumed by the occupancy calculator.
    #[arg(long, default_value_t = 32)]
    pub regs: u32,
    /// Launch as cudaLaunchCooperativeKernel does (as `cooperative;` in the launch section):
    /// every block resident at once, so that `this_grid().sync()` can wait for them all.
    #[arg(long)]
    pub cooperative: bool,
    /// Stop after this many warp steps: instructions, loop iterations and launches of warps (catches endless loops).
    #[arg(long, default_value_t = pipeline::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Stop a block after this many warp-instruction slots (each instruction it executes counts
    /// all its warps): catches a loop that never ends within seconds.
    #[arg(long, default_value_t = pipeline::DEFAULT_MAX_BLOCK_STEPS)]
    pub max_block_steps: u64,
    /// Refuse a launch whose arrays, buffers, registers and shared memory would need more than this: bytes, or with K, M, G or T (powers of 1024). Default: the smaller of 4G and half the memory the machine (or its container) has available.
    #[arg(long, value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Let `load("...")` in a launch section read files outside the kernel file's folder.
    #[arg(long)]
    pub allow_paths: bool,
    /// Simulate only this fraction of the blocks (0 < F ≤ 1; the grid's boundary blocks run
    /// whole) and extrapolate the counters, each with a 95% error bound; `auto` picks a fraction
    /// that answers in about a second. Results and expects are not checked.
    #[arg(long, value_name = "F|auto", value_parser = parse_sample)]
    pub sample: Option<pipeline::SampleSize>,
    /// Seed for `rand` and `randint`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Define a macro before the file's first line, as nvcc's `-D` does: `-D NAME` (its value
    /// 1) or `-D NAME=VALUE`; repeatable, later ones win.
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]", value_parser = parse_define)]
    pub defines: Vec<(String, String)>,
}

/// `-D NAME` (as `NAME=1`, as nvcc and gcc define it) or `-D NAME=VALUE`: an object-like macro.
fn parse_define(s: &str) -> Result<(String, String), String> {
    let (name, value) = s.split_once('=').unwrap_or((s, "1"));
    let mut chars = name.chars();
    let first = chars.next();
    let is_name = first.is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        let why = if name.contains('(') {
            "simt's -D defines object-like macros only: define a function-like macro with #define in the file"
        } else {
            "a macro name is a letter or `_` followed by letters, digits and `_`"
        };
        return Err(format!("`{name}` is not a macro name: {why}"));
    }
    Ok((name.to_string(), value.to_string()))
}

/// `simt occupancy` flags.
#[derive(Debug, ClapArgs)]
pub struct OccupancyArgs {
    /// Threads per block.
    #[arg(long)]
    pub threads: u32,
    /// Registers per thread.
    #[arg(long, default_value_t = 32)]
    pub regs: u32,
    /// Shared memory per block in bytes (static + dynamic).
    #[arg(long, default_value_t = 0)]
    pub smem: u32,
    /// Blocks in the grid: adds waves and tail utilisation.
    #[arg(long)]
    pub blocks: Option<u64>,
    /// Shared-memory carveout preference in percent, 0 to 100 (default: the calculator's
    /// default, all of it).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub carveout: Option<u32>,
    /// Bytes each warp's memory request moves (e.g. 128 for a coalesced float load): adds latency hiding.
    #[arg(long)]
    pub bytes_per_request: Option<f64>,
    /// Independent memory requests each warp keeps in flight (with --bytes-per-request).
    #[arg(long, default_value_t = 1.0)]
    pub in_flight: f64,
    /// GPU model: a preset name or a JSON file.
    #[arg(long, default_value = "h100", value_parser = GpuName, hide_possible_values = true)]
    pub gpu: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `4096`, `512K`, `64M`, `4G`, `1T`, also written `4GiB` or `4GB` (powers of 1024).
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(format!("`{s}` is not a size; write e.g. 4096, 512M or 4G")),
    };
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{s}` is not a size; write e.g. 4096, 512M or 4G"))?;
    n.checked_mul(1 << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{s}` must be between 1 byte and 16 EiB"))
}

/// `X`, `X,Y` or `X,Y,Z`.
fn parse_dim(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split([',', 'x']).map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err("expected X, X,Y or X,Y,Z".into());
    }
    let mut d = [1u32; 3];
    for (slot, p) in d.iter_mut().zip(&parts) {
        let v: u32 = p
            .parse()
            .map_err(|_| format!("`{p}` is not a positive whole number"))?;
        if v == 0 || v > i32::MAX as u32 {
            return Err(format!("`{p}` must be between 1 and 2147483647"));
        }
        *slot = v;
    }
    Ok(d)
}

/// `--gpu`'s value: any text (a preset name or a JSON file, read by `load_gpu`), with the preset
/// names as its possible values, so that shell completions offer them instead of file names.
/// They stay out of `--help` (`hide_possible_values`): a JSON file is as valid as a name.
#[derive(Clone, Debug)]
struct GpuName;

impl clap::builder::TypedValueParser for GpuName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            gpu::named_presets()
                .into_iter()
                .map(|(name, _)| clap::builder::PossibleValue::new(name)),
        ))
    }
}

/// `X`, `X,Y` or `X,Y,Z`, each from 0 (a `blockIdx`); missing ones are 0.
fn parse_index(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err("expected X, X,Y or X,Y,Z".into());
    }
    let mut d = [0u32; 3];
    for (slot, p) in d.iter_mut().zip(&parts) {
        *slot = p
            .parse()
            .map_err(|_| format!("`{p}` is not a whole number from 0"))?;
    }
    Ok(d)
}

/// Runs the parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    let json = match &cli.command {
        Command::Run(a) => a.json,
        Command::Sweep(a) => a.json,
        Command::Compare(a) => a.json,
        Command::Check { json, .. }
        | Command::Gpus { json, .. }
        | Command::Scaling { json, .. } => *json,
        Command::Occupancy(a) => a.json,
        Command::Test(a) => a.json,
        Command::Completions { .. } | Command::Man { .. } | Command::Schema => false,
    };
    let paint = Paint {
        on: cli.color.enabled(std::io::stdout().is_terminal()),
    };
    let result = match cli.command {
        Command::Run(a) => run_cmd(a, paint),
        Command::Sweep(a) => sweep::sweep_cmd(a, paint),
        Command::Compare(a) => compare::compare_cmd(a, paint),
        Command::Check {
            file,
            json,
            defines,
        } => check_cmd(file, json, &defines),
        Command::Test(a) => test_cmd(&a, cli.color),
        Command::Occupancy(a) => occupancy_cmd(a),
        Command::Gpus { name, json } => gpus_cmd(name.as_deref(), json),
        Command::Scaling {
            serial,
            procs,
            json,
        } => scaling_cmd(serial, procs, json),
        Command::Schema => {
            emit(&schema_text());
            Ok(0)
        }
        Command::Completions { shell } => docs::completions(shell),
        Command::Man { dir } => docs::man(dir),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            report_failure(&f, json, cli.color);
            ExitCode::from(f.exit)
        }
    }
}

/// The JSON Schema of the output, as `simt schema` prints it and `schema/simt-output.schema.json`
/// holds it: pretty-printed, with a final newline.
pub fn schema_text() -> String {
    let text = serde_json::to_string_pretty(&model::schema())
        .expect("a JSON Schema is a JSON object with string keys");
    format!("{text}\n")
}

/// Prints a line to stdout; a closed pipe (`| head`) is a quiet success.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn run_cmd(a: RunArgs, paint: Paint) -> Result<u8, Failure> {
    let gates = a.insight.gates()?;
    let gpu = load_gpu(&a.gpu)?;
    let options = a.model.options(a.grid, a.block, &a.args)?;
    let mut saves = Vec::new();
    for s in &a.saves {
        let Some((name, path)) = s.split_once('=') else {
            return Err(Failure::usage(
                format!("--save `{s}` is not NAME=PATH.npy"),
                None,
            ));
        };
        saves.push((name.trim().to_string(), PathBuf::from(path)));
    }
    let src = pipeline::read(&a.file)?;
    let opts = RunOptions {
        kernel: a.kernel,
        launch: a.launch.clone(),
        gpu,
        saves,
        threads: a.threads.unwrap_or_else(pipeline::default_threads).max(1),
        probe: a.insight.probe(),
        progress: std::io::stderr().is_terminal(),
        ..options
    };
    // A file with a `sequence` section runs it, unless --kernel or --launch picks one launch.
    let started = std::time::Instant::now();
    let module = pipeline::parse(&src, &opts)?;
    if opts.kernel.is_none() && opts.launch.is_none() && !module.sequences.is_empty() {
        insight::check_sequence_flags(&a.insight)?;
        let run = pipeline::run_sequence(&src, &opts, 0)?;
        return insight::output_sequence(src.name(), &run, &a.insight, a.json, paint);
    }
    let report = pipeline::run_parsed(&src, module, started, &opts)?;
    insight::output(&report, &a.insight, &gates, a.json, paint)
}

impl ModelFlags {
    /// What these flags and the launch flags `run`, `sweep` and `compare` share (`--grid`,
    /// `--block`, the `--arg NAME=VALUE`s, each parsed here once) give a launch; the command
    /// sets the rest (kernel, GPU, threads...).
    fn options(
        &self,
        grid: Option<[u32; 3]>,
        block: Option<[u32; 3]>,
        args: &[String],
    ) -> Result<RunOptions, Failure> {
        Ok(RunOptions {
            overrides: Overrides {
                args: args.iter().map(|a| arg(a)).collect::<Result<_, _>>()?,
                grid,
                block,
                seed: self.seed,
                max_memory: self
                    .max_memory
                    .unwrap_or_else(crate::host::default_max_memory),
                allow_paths: self.allow_paths,
                max_steps: self.max_steps,
            },
            dyn_smem: self.dyn_smem,
            max_dyn_smem: self.max_dyn_smem,
            max_steps: self.max_steps,
            max_block_steps: self.max_block_steps,
            sample: self.sample,
            regs: self.regs,
            cooperative: self.cooperative,
            defines: self.defines.clone(),
            ..RunOptions::default()
        })
    }
}

/// One `--arg NAME=VALUE`: the name checked, the value parsed (or `@FILE` noted).
fn arg(text: &str) -> Result<ArgOverride, Failure> {
    let Some((name, value)) = text.split_once('=') else {
        return Err(Failure::usage(
            format!("--arg `{text}` is not NAME=VALUE"),
            Some("e.g. --arg n=4096 or --arg a=rand(4096)".into()),
        ));
    };
    let name = name.trim();
    if !crate::syntax::is_host_name(name) {
        return Err(Failure::usage(
            format!("--arg `{text}`: `{name}` is not a name"),
            None,
        ));
    }
    let parsed = match value.trim().strip_prefix('@') {
        Some(path) => ArgValue::File(PathBuf::from(path)),
        None => ArgValue::Expr(crate::syntax::parse_value(value).map_err(|e| Failure {
            errors: vec![pipeline::Located::new(
                Some(
                    crate::source::SourceFile::new(format!("--arg {name}="), value).named_source(),
                ),
                e.into(),
            )],
            exit: EXIT_USAGE,
        })?),
    };
    Ok(ArgOverride::flag(name, parsed, value))
}

fn check_cmd(file: PathBuf, json: bool, defines: &[(String, String)]) -> Result<u8, Failure> {
    let src = pipeline::read(&file)?;
    let (module, program) = pipeline::compile_with(&src, defines)?;
    if json {
        emit(&format!(
            "{}\n",
            render::check_json(&src, &module, &program)
        ));
    } else {
        let mut s = format!("{}: ok\n", src.name());
        for k in &program.kernels {
            let params: Vec<String> = k
                .params
                .iter()
                .map(|p| format!("{} {}", p.kind.describe(), p.name))
                .collect();
            s.push_str(&format!(
                "  __global__ void {}({})\n",
                k.name,
                params.join(", ")
            ));
        }
        if let Some(note) = pipeline::host_note(&module, &src) {
            s.push_str(&format!("  note: {note}\n"));
        }
        emit(&s);
    }
    Ok(0)
}

/// `simt test`: each case's line as soon as it and every earlier file are done (flushed, so a
/// run that is stopped keeps what it printed), then the totals.
fn test_cmd(a: &TestArgs, color: ColorChoice) -> Result<u8, Failure> {
    let opts = suite::TestOptions {
        jobs: a.jobs.unwrap_or_else(pipeline::default_threads),
        max_steps: a.max_steps,
        max_block_steps: a.max_block_steps,
        timeout: a.timeout,
        defines: a.defines.clone(),
        allow_paths: a.allow_paths,
    };
    if opts.jobs == 0 {
        return Err(Failure::usage("--jobs must be at least 1", None));
    }
    let summary = suite::run_each(&a.paths, &opts, |cases| {
        for case in cases {
            if a.json {
                emit(&format!("{}\n", case.to_json()));
                continue;
            }
            if let suite::Verdict::Error(f) = &case.verdict {
                report_failure(f, false, color);
            }
            emit(&case.render());
        }
    })?;
    if !a.json {
        emit(&summary.totals());
    }
    Ok(if summary.failed() == 0 { 0 } else { EXIT_RUN })
}

fn occupancy_cmd(a: OccupancyArgs) -> Result<u8, Failure> {
    let gpu = load_gpu(&a.gpu)?;
    let mut req = OccupancyRequest::new(a.threads, a.regs, a.smem);
    req.carveout_percent = a.carveout;
    let occ = gpu::occupancy(&gpu, &req);
    let waves = a.blocks.map(|b| gpu::waves(&gpu, b, occ.blocks_per_sm));
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if a.bytes_per_request.is_some_and(|b| !positive(b)) || !positive(a.in_flight) {
        return Err(Failure::usage(
            "--bytes-per-request and --in-flight must be positive",
            None,
        ));
    }
    let hiding = a
        .bytes_per_request
        .map(|b| gpu::latency_hiding(&gpu, f64::from(occ.active_warps), b, a.in_flight));
    if a.json {
        emit(&format!(
            "{}\n",
            render::occupancy_json(&gpu, &occ, waves.as_ref(), hiding.as_ref())
        ));
    } else {
        let mut s = format!(
            "{}: {} threads/block, {} regs/thread, {} B shared/block\n",
            gpu.name, a.threads, a.regs, a.smem
        );
        match &occ.cannot_launch {
            Some(why) => s.push_str(&format!("cannot launch: {why}\n")),
            None => {
                let limiters: Vec<&str> = occ.limiters.iter().map(|l| l.as_str()).collect();
                s.push_str(&format!(
                    "blocks/SM {}   active warps {} of {}   occupancy {:.1}%   limited by {}\n",
                    occ.blocks_per_sm,
                    occ.active_warps,
                    gpu.max_warps_per_sm,
                    occ.occupancy * 100.0,
                    limiters.join(" + ")
                ));
            }
        }
        let lim = &occ.limits;
        let show = |v: Option<u32>| v.map_or("-".to_string(), |x| x.to_string());
        s.push_str(&format!(
            "limits: warps {}  blocks {}  registers {}  shared memory {}  barriers {}\n",
            lim.warps,
            lim.blocks,
            show(lim.registers),
            show(lim.shared_mem),
            show(lim.barriers)
        ));
        s.push_str(&format!(
            "allocated per block: {} registers, {} B shared memory\n",
            occ.allocated_regs_per_block, occ.allocated_smem_per_block
        ));
        if let Some(w) = &waves {
            s.push_str(&format!(
                "waves {}   last wave {:.1}% full   overall utilisation {:.1}%\n",
                w.waves,
                w.last_wave_utilisation * 100.0,
                w.overall_utilisation * 100.0
            ));
        }
        if let Some(h) = &hiding {
            s.push_str(&format!(
                "latency hiding: {:.0} B in flight per SM of {:.0} B needed → {:.1}% of the bandwidth reachable\n",
                h.have_bytes,
                h.need_bytes,
                h.fraction * 100.0
            ));
        }
        emit(&s);
    }
    Ok(if occ.cannot_launch.is_some() {
        EXIT_RUN
    } else {
        0
    })
}

fn scaling_cmd(serial: f64, procs: f64, json: bool) -> Result<u8, Failure> {
    if !(0.0..=1.0).contains(&serial) || !procs.is_finite() || procs < 1.0 {
        return Err(Failure::usage(
            "--serial must be between 0 and 1 and --procs at least 1",
            None,
        ));
    }
    let (a, g) = (gpu::amdahl(serial, procs), gpu::gustafson(serial, procs));
    if json {
        emit(&format!(
            "{}\n",
            report_json::to_value(&ScalingOutput {
                schema: Version,
                serial,
                procs,
                amdahl: a,
                gustafson: g,
            })
        ));
    } else {
        emit(&format!(
            "serial fraction {serial}, {procs} processors\namdahl    {a:.3}× (fixed problem size)\ngustafson {g:.3}× (problem grows with processors)\n"
        ));
    }
    Ok(0)
}

fn gpus_cmd(name: Option<&str>, json: bool) -> Result<u8, Failure> {
    let presets = match name {
        Some(n) => {
            let g = load_gpu(n)?;
            if json {
                // The description alone: what `--gpu FILE.json` reads.
                emit(&format!("{}\n", report_json::to_value(&g)));
                return Ok(0);
            }
            vec![(n, g)]
        }
        None => gpu::named_presets(),
    };
    if json {
        emit(&format!("{}\n", render::gpus_json(&presets)));
    } else {
        let mut s = format!(
            "{:<11} {:<22} {:>5} {:>5} {:>9} {:>10} {:>9} {:>9}\n",
            "--gpu", "name", "CC", "SMs", "clock", "DRAM BW", "smem/SM", "L2"
        );
        for (preset, g) in &presets {
            s.push_str(&format!(
                "{:<11} {:<22} {:>5} {:>5} {:>5} MHz {:>6} GB/s {:>6} KB {:>6.1} MB\n",
                preset,
                g.name,
                format!("{}.{}", g.compute_capability.0, g.compute_capability.1),
                g.n_sm,
                (g.clock_hz / 1e6).round(),
                (g.mem_bw / 1e9).round(),
                g.smem_per_sm / 1024,
                g.l2_bytes as f64 / (1024.0 * 1024.0)
            ));
        }
        emit(&s);
    }
    Ok(0)
}

/// Renders diagnostics on stderr, and with `--json` also as one object on stdout.
fn report_failure(f: &Failure, json: bool, color: ColorChoice) {
    let theme = if color.enabled(std::io::stderr().is_terminal()) {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // Not `eprint!`: it panics when stderr is closed.
    let _ = std::io::stderr().write_all(render::render_with(f, theme).as_bytes());
    if json {
        emit(&format!("{}\n", render::failure_json(f)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_bytes() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("512K"), Ok(512 * 1024));
        assert_eq!(parse_bytes("4G"), Ok(4 << 30));
        assert_eq!(parse_bytes("4GiB"), Ok(4 << 30));
        assert_eq!(parse_bytes("2 mb"), Ok(2 << 20));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("-1").is_err());
        assert!(parse_bytes("4X").is_err());
        assert!(parse_bytes("99999999999T").is_err());
        assert!(parse_bytes("").is_err());
    }

    #[test]
    fn gpu_completions_offer_the_preset_names_not_file_names() {
        use clap::CommandFactory;
        let mut out = Vec::new();
        clap_complete::generate(
            clap_complete::Shell::Bash,
            &mut Cli::command(),
            "simt",
            &mut out,
        );
        let bash = String::from_utf8(out).expect("a bash script is text");
        // run, sweep, compare and occupancy take --gpu; each arm offers the 11 preset names.
        let arms: Vec<&str> = bash.split("--gpu)\n").skip(1).collect();
        assert_eq!(arms.len(), 4, "{bash}");
        for arm in arms {
            let reply = arm.lines().next().expect("the arm's reply");
            assert!(
                reply.contains("compgen -W \"h100-sxm h100-pcie h200 a100-sxm a100-pcie l4 rtx4090 rtx3090 b200 v100 t4\""),
                "{reply}"
            );
        }
        // The names are completions, not a closed list: a JSON file still parses.
        let cli =
            Cli::try_parse_from(["simt", "run", "k.sk", "--gpu", "mine.json"]).expect("parses");
        let Command::Run(a) = cli.command else {
            unreachable!("a run command")
        };
        assert_eq!(a.gpu, "mine.json");
    }

    #[test]
    fn the_shared_flags_become_one_set_of_options_for_run_sweep_and_compare() {
        let flags = [
            "--dyn-smem",
            "512",
            "--max-dyn-smem",
            "1024",
            "--regs",
            "40",
            "--max-steps",
            "99",
            "--max-block-steps",
            "77",
            "--max-memory",
            "1M",
            "--allow-paths",
            "--sample",
            "0.5",
            "--seed",
            "7",
        ];
        let model = |head: &[&str]| {
            let cli = Cli::try_parse_from(head.iter().chain(&flags)).expect("parses");
            match cli.command {
                Command::Run(a) => a.model,
                Command::Sweep(a) => a.model,
                Command::Compare(a) => a.model,
                _ => unreachable!("run, sweep or compare"),
            }
        };
        let args = ["n=256".to_string(), "a=@in.npy".to_string()];
        let options = |m: ModelFlags| {
            let o = m
                .options(Some([4, 1, 1]), None, &args)
                .expect("valid flags");
            format!("{o:?}")
        };
        let run = model(&["simt", "run", "k.sk"]);
        let o = run
            .options(Some([4, 1, 1]), None, &args)
            .expect("valid flags");
        assert_eq!(
            (o.dyn_smem, o.max_dyn_smem, o.regs),
            (Some(512), Some(1024), 40)
        );
        assert_eq!((o.max_steps, o.max_block_steps), (99, 77));
        assert_eq!(o.sample, Some(pipeline::SampleSize::Fraction(0.5)));
        let ov = &o.overrides;
        assert_eq!((ov.grid, ov.block, ov.seed), (Some([4, 1, 1]), None, 7));
        assert_eq!(
            (ov.max_memory, ov.allow_paths, ov.max_steps),
            (1 << 20, true, 99)
        );
        // Each --arg is parsed once, with the text and name its diagnostics show.
        let n = &ov.args[0];
        assert_eq!(
            (n.name.as_str(), n.text.as_str(), n.label.as_str()),
            ("n", "256", "--arg 256")
        );
        assert!(
            matches!(&ov.args[1].value, ArgValue::File(p) if p == std::path::Path::new("in.npy"))
        );
        // Sweep and compare give the same options from the same flags.
        let want = options(run);
        assert_eq!(options(model(&["simt", "sweep", "k.sk"])), want);
        assert_eq!(options(model(&["simt", "compare", "a.sk", "b.sk"])), want);
    }

    #[test]
    fn block_indices_count_from_zero() {
        assert_eq!(parse_index("3"), Ok([3, 0, 0]));
        assert_eq!(parse_index("0, 2"), Ok([0, 2, 0]));
        assert_eq!(parse_index("1,2,3"), Ok([1, 2, 3]));
        assert!(parse_index("1,2,3,4").is_err());
        assert!(parse_index("-1").is_err());
        assert!(parse_index("").is_err());
    }
}
