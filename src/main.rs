//! The `simt` binary: parse the command line, run, exit with the status the library chose.

use clap::Parser;

mod huge_pages;

#[global_allocator]
static ALLOCATOR: huge_pages::HugePages = huge_pages::HugePages;

fn main() -> std::process::ExitCode {
    huge_pages::keep_large_blocks_fresh();
    simt::cli::run(simt::cli::Cli::parse())
}
