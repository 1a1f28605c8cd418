//! qd-run: compile and run one kernel of a file on a device, and print fields.
//!
//! ```text
//! qd-run FILE.mlir --kernel NAME [--set FIELD=VALUES]... [--arg NAME=VALUES]... [--print FIELD]...
//!        [--grad OUTPUT=SEED]... [--ad-stack-size N] [--report-adstack] [--device NAME]
//!        [--shuffle SEED] [--json]
//! ```
//!
//! See `cli` for the options, `values` for VALUES, `output` for what is printed, `runner` for a
//! run. Kernels and gradients come from the runtime's compile pipeline (`qd_runtime::pipeline`),
//! devices from the registry (`qd_devices::all_devices`). Exit status: 0 on success, 1 on input
//! and runtime errors (with a located diagnostic where there is a location), 2 on usage errors
//! (an unknown device among them).

mod cli;
mod npy;
mod output;
mod params;
mod runner;
mod values;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let devices = qd_devices::all_devices();
    let parsed = cli::parse(&args).and_then(|c| match c {
        cli::Command::Run(o) => cli::check_device(&o.device, &devices).map(|()| Some(o)),
        cli::Command::Help => Ok(None),
    });
    let opts = match parsed {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{}", cli::help(&devices));
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("qd-run: error: {msg}\n(run 'qd-run --help' for usage)");
            return ExitCode::from(2);
        }
    };
    match runner::run(&opts, &devices) {
        Ok(out) => {
            // A closed stdout (`qd-run ... | head`) is not an error worth a panic.
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(out.as_bytes());
            let _ = stdout.flush();
            ExitCode::SUCCESS
        }
        Err(runner::Failure(text)) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
    }
}
