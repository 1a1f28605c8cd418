//! qd-run: compile and run kernels of a file on a device (a sequence: `--kernel a --kernel b`),
//! differentiate them, and print fields and ndarray arguments.
//!
//! ```text
//! qd-run FILE.mlir --kernel NAME [--kernel NAME]... [--set FIELD=VALUES]...
//!        [--arg [KERNEL.]NAME=VALUES]... [--print NAME]...
//!        [--save NAME=PATH.npy]... [--grad OUTPUT=VALUES]... [--ad-stack-size N]
//!        [--report-adstack] [--device NAME] [--shuffle SEED] [--check-bounds] [--repeat N]
//!        [--timeout SECONDS] [--json]
//! qd-run --completions SHELL
//! ```
//!
//! See `cli` for the options, `launches` for kernel sequences and their arguments, `values` for
//! VALUES, `output` for what is printed, `npy` for .npy
//! files, `runner` for a run. Kernels and gradients come from the runtime's compile pipeline
//! (`qd_runtime::pipeline`), devices from the registry (`qd_devices::all_devices`). Exit status:
//! 0 on success, 1 on input and runtime errors (with a located diagnostic where there is a
//! location), 2 on usage errors (an unknown device among them).

mod cli;
mod launches;
mod npy;
mod output;
mod params;
mod runner;
mod values;

use std::io::Write;
use std::process::ExitCode;

/// Writes `text` to stdout; a closed stdout (`qd-run ... | head`) is not an error worth a panic.
fn print_out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

fn main() -> ExitCode {
    let devices = qd_devices::all_devices();
    let opts = match cli::parse(std::env::args_os(), &devices) {
        Ok(cli::Command::Run(o)) => o,
        Ok(cli::Command::Completions(script)) => {
            print_out(&script);
            return ExitCode::SUCCESS;
        }
        // --help (exit 0, on stdout) or a usage error (exit 2, on stderr).
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    // Written as it is made (a printed field is streamed), through one buffer.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match runner::run(&opts, &devices, &mut out) {
        Ok(()) => {
            let _ = out.flush();
            ExitCode::SUCCESS
        }
        Err(runner::Failure(text)) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
    }
}
