//! The command line, parsed by clap (derive). The devices come from the registry: `--device`
//! accepts exactly its names (an unknown one is a usage error that lists them, and shell
//! completion offers them) and `--help` lists each with its description. Usage errors and
//! `--help` are [`clap::Error`]s, `--completions SHELL` a [`Command`]; `main` prints them.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser};
use clap_complete::Shell;
use qd_ir::text::DEFAULT_MAX_INPUT_BYTES;
use qd_runtime::{DeviceRegistry, MemoryLimit};
use std::ffi::OsString;
use std::time::Duration;

/// `--timeout SECONDS`: a positive decimal number of seconds.
fn timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    // NaN fails this too.
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!("the timeout must be positive, got {s}"));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("the timeout {s} is too large"))
}

/// The largest `--ad-stack-size`: an adstack's capacity is a signed 64-bit count on the
/// devices, so larger values cannot be meant.
const MAX_AD_STACK_SIZE: u64 = i64::MAX as u64;

/// `--memory-limit BYTES|auto`.
fn memory_limit(s: &str) -> Result<MemoryLimit, String> {
    s.parse()
}

/// The default `--device`.
pub const DEFAULT_DEVICE: &str = qd_devices::DEFAULT_DEVICE;

const USAGE: &str =
    "qd-run FILE.mlir --kernel NAME [--kernel NAME]... [OPTIONS]\n       qd-run --completions SHELL";

const AFTER_HELP: &str = "\
VALUES: a comma list (1,2,3), fill(v), linspace(a,b), arange(), or a .npy file;
for an ndarray argument append its shape (:8, :4x3); a list without one is 1-D.
Several --kernel: launched in order on the same fields; --arg NAME=... gives every kernel with a
parameter NAME that value (an ndarray is shared), --arg KERNEL.NAME=... one kernel only; with
--grad the whole sequence is differentiated (gradients last to first).
Exit status: 0 on success, 1 on input or runtime errors, 2 on usage errors.";

/// What clap parses; [`parse`] turns it into a [`Command`].
#[derive(Parser, Debug)]
#[command(
    name = "qd-run",
    about = "Runs kernels of FILE.mlir on a device and prints fields.",
    override_usage = USAGE,
    after_help = AFTER_HELP,
    max_term_width = 100
)]
struct Cli {
    /// The kernel file (MLIR text)
    #[arg(value_name = "FILE.mlir", required = true)]
    file: Option<String>,
    /// The kernel to run; repeat it to run a sequence of kernels, in order, on the same fields
    /// (a kernel may come back)
    #[arg(long = "kernel", value_name = "NAME", required = true)]
    kernels: Vec<String>,
    /// Set a field (or its adjoint, FIELD.grad) before the launch (repeatable)
    #[arg(long = "set", value_name = "FIELD=VALUES", value_parser = assignment)]
    sets: Vec<(String, String)>,
    /// A kernel argument, by parameter name, or KERNEL.NAME for one kernel of a sequence
    /// (repeatable; the last one of a name wins)
    #[arg(long = "arg", value_name = "NAME=VALUES", value_parser = assignment)]
    args: Vec<(String, String)>,
    /// After the launches, seed the adjoint of OUTPUT (a needs_grad field, or an ndarray
    /// argument) with VALUES (one number: every element) and run the gradient kernels (made by
    /// reverse-mode-ad), last launch first; repeatable
    #[arg(long = "grad", value_name = "OUTPUT=VALUES", value_parser = seed)]
    grads: Vec<(String, String)>,
    /// Give every adstack exactly N entries per thread (default: each stack is sized at every
    /// launch from its size expression); at most 2^63-1
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(..=MAX_AD_STACK_SIZE))]
    ad_stack_size: Option<u64>,
    /// The most bytes the fields, their adjoints and the ndarrays may take together: a byte
    /// count (4096, 512MiB, 8GiB) or auto (the memory available at the start, less 64 MiB); a
    /// field or ndarray past it is refused before it is allocated
    #[arg(long, value_name = "BYTES|auto", default_value = "auto", value_parser = memory_limit)]
    memory_limit: MemoryLimit,
    /// The largest input read, in bytes: the kernel file and .npy files (default 1 GiB); a
    /// larger one is an error
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: u64,
    /// Print a field (or FIELD.grad) or an ndarray argument after the launches (repeatable);
    /// with --grad, also NAME.grad for an active ndarray parameter NAME
    #[arg(long = "print", value_name = "FIELD", value_parser = field_name)]
    prints: Vec<String>,
    /// After the run, write a field (or FIELD.grad, as --print) to a .npy file, with its element
    /// type and shape (repeatable)
    #[arg(long = "save", value_name = "FIELD=PATH.npy", value_parser = save)]
    saves: Vec<(String, String)>,
    /// After the launches, print each adstack: its kernel, location, element type, size
    /// expression, depth and bytes per thread as sized for the launch, and each kernel's total;
    /// on --device interp also the peak each stack really reached and the ratio depth/peak
    #[arg(long)]
    report_adstack: bool,
    /// After the launches, print how the device compiled each task of each launched kernel: how
    /// many parallel iterations run at once (SIMD lanes), or why a task runs scalar code
    #[arg(long)]
    report_tasks: bool,
    /// The device to run on
    #[arg(long, value_name = "NAME", default_value = DEFAULT_DEVICE)]
    device: String,
    /// Run parallel iterations in a random order drawn from SEED (interp)
    #[arg(long, value_name = "SEED", overrides_with = "shuffle")]
    shuffle: Option<u64>,
    /// Check every field and ndarray index on the compiled devices (cpu, vulkan): an
    /// out-of-bounds access is then a located error, as the interpreters (which always check)
    /// report it. Without it, an out-of-bounds field or ndarray access is undefined behaviour on
    /// cpu (a wrong value, a crash) and a wrong value on vulkan (robust buffer access keeps it
    /// inside the buffer); local arrays are checked either way
    #[arg(long)]
    check_bounds: bool,
    /// Worker threads of the cpu device (default: one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    threads: Option<u32>,
    /// Compile cpu task bodies for the SIMD width, one parallel iteration per lane (on), or one
    /// iteration per call (off); tasks that cannot be vectorised run scalar code either way, and
    /// --report-tasks says which and why
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = ["on", "off"])]
    vectorize: String,
    /// After the first run, run the kernel (and with --grad its gradient) N more times, each
    /// from the first run's inputs; --json then reports the median launch and grad times of
    /// those runs (launch_median, grad_median), apart from the first run's and the compile times
    #[arg(long, value_name = "N", default_value_t = 0)]
    repeat: u32,
    /// Cancel a launch still running after SECONDS (a decimal: 0.5): it stops at its next
    /// while-loop back edge with an error naming the kernel and the loop (exit status 1). Each
    /// launch (kernel, gradient, --repeat run) gets SECONDS of its own; compiling is not counted
    /// (`command` adds the devices that take it, from the registry)
    #[arg(long, value_name = "SECONDS", value_parser = timeout)]
    timeout: Option<Duration>,
    /// Print one JSON object: {"fields": {...}, "timings_ms": {...}} (with --report-adstack, also
    /// "adstack": [...]; the schema is in docs/json.md)
    #[arg(long)]
    json: bool,
    /// Print a completion script for SHELL and exit
    #[arg(long, value_name = "SHELL", exclusive = true)]
    completions: Option<Shell>,
}

/// A run: what the runner needs from the command line.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    pub file: String,
    /// `--kernel` in launch order.
    pub kernels: Vec<String>,
    /// `--set` in order: (field, VALUES).
    pub sets: Vec<(String, String)>,
    /// `--arg` in order: (parameter, VALUES).
    pub args: Vec<(String, String)>,
    pub prints: Vec<String>,
    /// `--save` in order: (field, path).
    pub saves: Vec<(String, String)>,
    /// `--grad` in order: (output field or ndarray argument, VALUES).
    pub grads: Vec<(String, String)>,
    pub ad_stack_size: Option<usize>,
    /// `--memory-limit`: the bytes the fields, adjoints and ndarrays may take together.
    pub memory_limit: MemoryLimit,
    /// `--max-input-bytes`: the largest input file read.
    pub max_input_bytes: u64,
    pub device: String,
    pub shuffle: Option<u64>,
    /// `--check-bounds`: check field and ndarray indices on devices that can skip them.
    pub check_bounds: bool,
    /// `--threads N`: the cpu device's workers.
    pub threads: Option<u32>,
    /// `--vectorize off`: scalar task bodies only.
    pub scalar_tasks: bool,
    /// `--repeat N`: runs after the first, timed for the medians.
    pub repeat: u32,
    /// `--timeout SECONDS`: each launch's time limit.
    pub timeout: Option<Duration>,
    pub json: bool,
    /// `--report-adstack`: print the adstack plan of each launch (with measured peaks where the
    /// device measures them).
    pub report_adstack: bool,
    /// `--report-tasks`: print how each task was compiled.
    pub report_tasks: bool,
}

#[derive(Debug, PartialEq)]
pub enum Command {
    Run(Box<Options>),
    /// `--completions SHELL`: the script to print.
    Completions(String),
}

/// Splits `NAME=VALUE`.
fn assignment(v: &str) -> Result<(String, String), String> {
    match v.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.to_string()))
        }
        Some(_) => Err("no name before '='".into()),
        None => Err("missing '=' between the name and the value".into()),
    }
}

/// `NAME=VALUES`, the VALUES well formed and a list's items numbers (adjoints are floats).
fn seed(v: &str) -> Result<(String, String), String> {
    let (name, seed) = assignment(v)?;
    let spec = crate::values::ValueSpec::parse(&seed)?;
    if let crate::values::Source::List(items) = &spec.source {
        if let Some(bad) = items.iter().find(|x| x.parse::<f64>().is_err()) {
            return Err(format!("the seed '{bad}' is not a number"));
        }
    }
    Ok((name, seed))
}

fn field_name(v: &str) -> Result<String, String> {
    let name = v.trim();
    if name.is_empty() {
        return Err("empty field name".into());
    }
    Ok(name.to_string())
}

fn save(v: &str) -> Result<(String, String), String> {
    let (name, path) = assignment(v)?;
    if path.is_empty() {
        return Err("no path after '='".into());
    }
    Ok((name, path))
}

/// The command of `registry`'s devices: `--device` takes their names (`--help` lists them with
/// their descriptions, `-h` by name), and `--timeout`'s help names those that can stop a launch.
pub fn command(registry: &DeviceRegistry) -> clap::Command {
    let devices = registry
        .iter()
        .map(|e| PossibleValue::new(e.name.clone()).help(e.description.clone()));
    let on = format!("On the devices {}", registry.cancellable().join(", "));
    Cli::command()
        .mut_arg("device", |a| {
            a.value_parser(PossibleValuesParser::new(devices))
        })
        .mut_arg("timeout", |a| {
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            // The doc comment's note on where the devices come from is for readers of the code.
            let help = help.split(" (`command` adds").next().unwrap_or_default();
            a.help(format!("{help}. {on}"))
        })
}

/// Parses the command line (`args` starts with the program name). Usage errors (exit status 2)
/// and `--help` (exit status 0) are clap errors, to print with [`clap::Error::print`].
pub fn parse<I, T>(args: I, registry: &DeviceRegistry) -> Result<Command, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut cmd = command(registry);
    let matches = cmd.try_get_matches_from_mut(args)?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))?;
    if let Some(shell) = cli.completions {
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut cmd, "qd-run", &mut script);
        return Ok(Command::Completions(
            String::from_utf8_lossy(&script).into_owned(),
        ));
    }
    // clap requires both unless --completions (exclusive) is given.
    let (Some(file), false) = (cli.file, cli.kernels.is_empty()) else {
        return Err(cmd.error(
            ErrorKind::MissingRequiredArgument,
            "FILE.mlir and --kernel NAME are required",
        ));
    };
    // The registry says which devices can stop a running launch: `--timeout` with another one
    // is a usage error, before any device is made.
    let cancellable = registry.cancellable();
    if cli.timeout.is_some() && !cancellable.contains(&cli.device.as_str()) {
        return Err(cmd.error(
            ErrorKind::ArgumentConflict,
            format!(
                "--timeout is supported on the devices {}; device '{}' cannot stop a running \
                 launch",
                cancellable.join(", "),
                cli.device
            ),
        ));
    }
    Ok(Command::Run(Box::new(Options {
        file,
        kernels: cli.kernels,
        sets: cli.sets,
        args: cli.args,
        prints: cli.prints,
        saves: cli.saves,
        grads: cli.grads,
        // At most i64::MAX: lossless on the 64-bit hosts the devices run on.
        ad_stack_size: cli
            .ad_stack_size
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        memory_limit: cli.memory_limit,
        max_input_bytes: cli.max_input_bytes,
        device: cli.device,
        shuffle: cli.shuffle,
        check_bounds: cli.check_bounds,
        threads: cli.threads,
        scalar_tasks: cli.vectorize == "off",
        repeat: cli.repeat,
        timeout: cli.timeout,
        json: cli.json,
        report_adstack: cli.report_adstack,
        report_tasks: cli.report_tasks,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_args(s: &[&str]) -> Result<Command, clap::Error> {
        let reg = qd_devices::all_devices();
        parse(std::iter::once("qd-run").chain(s.iter().copied()), &reg)
    }

    fn run(s: &[&str]) -> Options {
        match parse_args(s) {
            Ok(Command::Run(o)) => *o,
            Ok(other) => panic!("{s:?}: {other:?}"),
            Err(e) => panic!("{s:?}: {e}"),
        }
    }

    #[test]
    fn the_command_is_consistent() {
        command(&qd_devices::all_devices()).debug_assert();
    }

    /// `--timeout` is taken exactly on the devices the registry declares cancellable (whether
    /// each device really is, `qd_devices`' own test checks).
    #[test]
    fn timeout_devices_are_those_that_can_stop_a_launch() {
        let reg = qd_devices::all_devices();
        let cancellable = reg.cancellable();
        assert!(cancellable.contains(&"cpu"), "{cancellable:?}");
        for name in reg.names() {
            let args = [
                "f.mlir",
                "--kernel",
                "k",
                "--timeout",
                "1",
                "--device",
                name,
            ];
            match parse_args(&args) {
                Ok(_) => assert!(cancellable.contains(&name), "{name}"),
                Err(e) => {
                    assert!(!cancellable.contains(&name), "{name}: {e}");
                    assert_eq!(e.kind(), ErrorKind::ArgumentConflict, "{name}: {e}");
                    let want = format!(
                        "--timeout is supported on the devices {}; device '{name}' cannot stop \
                         a running launch",
                        cancellable.join(", ")
                    );
                    assert!(e.to_string().contains(&want), "{name}: {e}");
                }
            }
        }
        let o = run(&["f.mlir", "--kernel", "k", "--timeout", "0.25"]);
        assert_eq!(o.timeout, Some(Duration::from_millis(250)));
        assert_eq!(run(&["f.mlir", "--kernel", "k"]).timeout, None);
    }

    #[test]
    fn full_command_line() {
        let o = run(&[
            "f.mlir",
            "--kernel",
            "compute",
            "--set",
            "n=512",
            "--set=x=linspace(0,1.5)",
            "--arg",
            "limit=2.0",
            "--print",
            "y",
            "--print=x.grad",
            "--save",
            "y=out/y.npy",
            "--save=x.grad=g.npy",
            "--json",
            "--device=interp",
            "--shuffle",
            "7",
            "--grad",
            "y=1",
            "--grad=z=-0.5",
            "--ad-stack-size",
            "32",
            "--report-adstack",
            "--check-bounds",
            "--repeat",
            "5",
        ]);
        assert_eq!(o.file, "f.mlir");
        assert_eq!(o.kernels, ["compute"]);
        assert_eq!(
            o.sets,
            vec![
                ("n".into(), "512".into()),
                ("x".into(), "linspace(0,1.5)".into())
            ]
        );
        assert_eq!(o.args, vec![("limit".into(), "2.0".into())]);
        assert_eq!(o.prints, vec!["y", "x.grad"]);
        assert_eq!(
            o.saves,
            vec![
                ("y".into(), "out/y.npy".into()),
                ("x.grad".into(), "g.npy".into())
            ]
        );
        assert!(o.json);
        assert_eq!(o.shuffle, Some(7));
        assert_eq!(
            o.grads,
            vec![("y".into(), "1".into()), ("z".into(), "-0.5".into())]
        );
        assert_eq!(o.ad_stack_size, Some(32));
        assert!(o.report_adstack);
        assert!(o.check_bounds);
        assert_eq!(o.repeat, 5);
        assert_eq!(o.device, "interp");
        let plain = run(&["f.mlir", "--kernel", "k"]);
        assert_eq!(plain.ad_stack_size, None);
        assert!(!plain.report_adstack && !plain.json && !plain.check_bounds);
        assert_eq!(plain.repeat, 0);
        assert_eq!(plain.device, DEFAULT_DEVICE);
        assert_eq!(run(&["--kernel=k", "--", "-odd.mlir"]).file, "-odd.mlir");
        // The last --shuffle wins, as before clap.
        assert_eq!(
            run(&["f.mlir", "--kernel", "k", "--shuffle", "1", "--shuffle=2"]).shuffle,
            Some(2)
        );
    }

    #[test]
    fn usage_errors() {
        for (s, kind, want) in [
            (
                &["f.mlir"][..],
                ErrorKind::MissingRequiredArgument,
                "--kernel <NAME>",
            ),
            (
                &["--kernel", "k"][..],
                ErrorKind::MissingRequiredArgument,
                "<FILE.mlir>",
            ),
            (
                &["a.mlir", "b.mlir", "--kernel", "k"][..],
                ErrorKind::UnknownArgument,
                "'b.mlir'",
            ),
            (
                &["f.mlir", "--kernel"][..],
                ErrorKind::InvalidValue,
                "--kernel <NAME>",
            ),
            (
                &["f.mlir", "--kernel", "k", "--bogus"][..],
                ErrorKind::UnknownArgument,
                "'--bogus'",
            ),
            (
                &["f.mlir", "--kernel", "k", "--set", "x"][..],
                ErrorKind::ValueValidation,
                "invalid value 'x' for '--set <FIELD=VALUES>': missing '='",
            ),
            (
                &["f.mlir", "--kernel", "k", "--arg", "=1"][..],
                ErrorKind::ValueValidation,
                "no name before '='",
            ),
            (
                &["f.mlir", "--kernel", "k", "--shuffle", "x"][..],
                ErrorKind::ValueValidation,
                "'--shuffle <SEED>'",
            ),
            (
                &["f.mlir", "--kernel", "k", "--json=1"][..],
                ErrorKind::TooManyValues,
                "--json",
            ),
            (
                &["f.mlir", "--kernel", "k", "--report-adstack=yes"][..],
                ErrorKind::TooManyValues,
                "--report-adstack",
            ),
            (
                &["f.mlir", "--kernel", "k", "--check-bounds=no"][..],
                ErrorKind::TooManyValues,
                "--check-bounds",
            ),
            (
                &["f.mlir", "--kernel", "k", "--repeat", "x"][..],
                ErrorKind::ValueValidation,
                "'--repeat <N>'",
            ),
            (
                &["f.mlir", "--kernel", "k", "--repeat=-1"][..],
                ErrorKind::ValueValidation,
                "'--repeat <N>'",
            ),
            (
                &["f.mlir", "--kernel", "k", "--repeat", "1", "--repeat", "2"][..],
                ErrorKind::ArgumentConflict,
                "cannot be used multiple times",
            ),
            (
                &["f.mlir", "--kernel", "k", "--print", " "][..],
                ErrorKind::ValueValidation,
                "empty field name",
            ),
            (
                &["f.mlir", "--kernel", "k", "--grad", "y"][..],
                ErrorKind::ValueValidation,
                "missing '='",
            ),
            (
                &["f.mlir", "--kernel", "k", "--grad", "y=one"][..],
                ErrorKind::ValueValidation,
                "the seed 'one' is not a number",
            ),
            (
                &["f.mlir", "--kernel", "k", "--save", "y="][..],
                ErrorKind::ValueValidation,
                "no path after '='",
            ),
            (
                &["f.mlir", "--kernel", "k", "--ad-stack-size", "x"][..],
                ErrorKind::ValueValidation,
                "'--ad-stack-size <N>'",
            ),
            (
                &[
                    "f.mlir",
                    "--kernel",
                    "k",
                    "--ad-stack-size",
                    "1",
                    "--ad-stack-size=2",
                ][..],
                ErrorKind::ArgumentConflict,
                "cannot be used multiple times",
            ),
            (
                &["f.mlir", "--kernel", "k", "--completions", "bash"][..],
                ErrorKind::ArgumentConflict,
                "--completions",
            ),
            (
                &["--completions", "tcsh"][..],
                ErrorKind::InvalidValue,
                "tcsh",
            ),
        ] {
            let e = parse_args(s).unwrap_err();
            assert_eq!(e.kind(), kind, "{s:?}: {e}");
            assert_eq!(e.exit_code(), 2, "{s:?}");
            let text = e.to_string();
            assert!(text.contains(want), "{s:?}: {text}");
        }
    }

    #[test]
    fn kernels_repeat_in_order_and_seeds_take_values() {
        let o = run(&[
            "f.mlir",
            "--kernel",
            "a",
            "--kernel=b",
            "--kernel",
            "a",
            "--grad",
            "y=0,0,1",
            "--grad",
            "z=fill(2):4",
            "--grad",
            "w=s.npy",
            "--arg",
            "b.n=3",
        ]);
        assert_eq!(o.kernels, ["a", "b", "a"]);
        assert_eq!(o.args, vec![("b.n".into(), "3".into())]);
        let seeds: Vec<&str> = o.grads.iter().map(|g| g.1.as_str()).collect();
        assert_eq!(seeds, ["0,0,1", "fill(2):4", "s.npy"]);
        for (bad, want) in [
            ("y=1,x", "the seed 'x' is not a number"),
            ("y=fill(1", "bad values 'fill(1'"),
            ("y=1:2y", "bad shape '2y'"),
        ] {
            let e = parse_args(&["f.mlir", "--kernel", "k", "--grad", bad]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::ValueValidation, "{bad}: {e}");
            assert!(e.to_string().contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn devices_come_from_the_registry() {
        let reg = qd_devices::all_devices();
        let e = parse_args(&["f.mlir", "--kernel", "k", "--device", "gpu"]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert!(
            e.to_string()
                .contains(&format!("[possible values: {}]", reg.names().join(", "))),
            "{e}"
        );
        for name in reg.names() {
            assert_eq!(
                run(&["f.mlir", "--kernel", "k", "--device", name]).device,
                name
            );
        }
        let help = parse_args(&["--help"]).unwrap_err();
        assert_eq!((help.kind(), help.exit_code()), (ErrorKind::DisplayHelp, 0));
        let help = help.to_string();
        assert!(
            help.contains("Usage: qd-run FILE.mlir --kernel NAME"),
            "{help}"
        );
        // Lines wrap to the terminal: compare with runs of white space as one space.
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for e in reg.iter() {
            let desc = e
                .description
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(flat.contains(&format!("- {}: {desc}", e.name)), "{help}");
        }
        let timeout = format!(
            "compiling is not counted. On the devices {} --json",
            reg.cancellable().join(", ")
        );
        assert!(flat.contains(&timeout), "{help}");
    }

    #[test]
    fn arbitrary_arguments_never_panic() {
        let tokens = [
            "f.mlir",
            "--kernel",
            "--set",
            "--arg",
            "--print",
            "--save",
            "--device",
            "--json",
            "--shuffle",
            "--grad",
            "--ad-stack-size",
            "--report-adstack",
            "--check-bounds",
            "--repeat",
            "--completions",
            "y=1",
            "--",
            "-",
            "=",
            "--kernel=k",
            "--set=",
            "interp",
            "7",
            "-h",
            "bash",
        ];
        for a in tokens {
            for b in tokens {
                for c in tokens {
                    let _ = parse_args(&[a, b, c]);
                }
            }
        }
    }

    #[test]
    fn completions_are_a_command_of_their_own() {
        for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
            let Ok(Command::Completions(script)) = parse_args(&["--completions", shell]) else {
                panic!("--completions {shell}");
            };
            assert!(script.contains("ad-stack-size"), "{shell}: {script}");
        }
        // Bash completes --device with the registry's names.
        let Ok(Command::Completions(bash)) = parse_args(&["--completions", "bash"]) else {
            panic!("--completions bash");
        };
        let names = qd_devices::all_devices().names().join(" ");
        assert!(bash.contains(&names), "{bash}");
    }
}
