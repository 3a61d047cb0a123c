//! The `simt` binary: parse the command line, run, exit with the status the library chose.

use clap::Parser;

fn main() -> std::process::ExitCode {
    simt::cli::run(simt::cli::Cli::parse())
}
