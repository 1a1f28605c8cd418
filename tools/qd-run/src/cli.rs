//! The command line: `qd-run FILE.mlir --kernel NAME [--set FIELD=VALUES]... [--arg NAME=VALUES]...
//! [--grad OUTPUT=SEED]... [--ad-stack-size N] [--print FIELD]... [--report-adstack]
//! [--device NAME] [--shuffle SEED] [--json]`. Options take their value as the next argument
//! or after `=` (`--kernel=compute`); `--` ends the options. The device name is checked against
//! the device registry ([`check_device`]), which also lists the devices in the help.

pub const USAGE: &str = "\
Usage: qd-run FILE.mlir --kernel NAME [options]

Runs one kernel of FILE.mlir on a device and prints fields.

Options:
  --kernel NAME          the kernel to run (required)
  --set FIELD=VALUES     set a field (or its adjoint, FIELD.grad) before the launch (repeatable)
  --arg NAME=VALUES      a kernel argument, by parameter name (repeatable)
  --grad OUTPUT=SEED     after the launch, set OUTPUT.grad to SEED (every element) and run the
                         gradient kernel (made by reverse-mode-ad; repeatable)
  --ad-stack-size N      give every adstack exactly N entries per thread (default: each
                         stack is sized at every launch from its size expression)
  --print FIELD          print a field (or FIELD.grad) after the launch (repeatable); with
                         --grad, also NAME.grad for an active ndarray parameter NAME
  --report-adstack       after the launches, print each adstack: its kernel, location, element
                         type, size expression, depth and bytes per thread as sized for the
                         launch, and each kernel's total bytes per thread
  --device NAME          the device to run on (default: interp; see Devices below)
  --shuffle SEED         run parallel iterations in a random order drawn from SEED (interp)
  --json                 print one JSON object: {\"fields\": {...}, \"timings_ms\": {...}}
                         (with --report-adstack, also \"adstack\": [...])
  -h, --help             print this help

VALUES: a comma list (1,2,3), fill(v), linspace(a,b), arange(), or a .npy file;
for an ndarray argument append its shape (:8, :4x3); a list without one is 1-D.
Exit status: 0 on success, 1 on input or runtime errors, 2 on usage errors.
";

/// The default `--device`.
pub const DEFAULT_DEVICE: &str = qd_devices::DEFAULT_DEVICE;

/// The help: [`USAGE`] and the devices of `registry`, one per line with its description.
pub fn help(registry: &DeviceRegistry) -> String {
    let width = registry.names().iter().map(|n| n.len()).max().unwrap_or(0);
    let mut out = format!("{USAGE}\nDevices:\n");
    for e in registry.iter() {
        out.push_str(&format!("  {:width$}  {}\n", e.name, e.description));
    }
    out
}

/// A usage error (exit status 2) unless `registry` has the device `name`; it lists the devices.
pub fn check_device(name: &str, registry: &DeviceRegistry) -> Result<(), String> {
    if registry.contains(name) {
        return Ok(());
    }
    let known: Vec<String> = registry.names().iter().map(|n| n.to_string()).collect();
    Err(qd_runtime::Error::UnknownDevice {
        name: name.to_string(),
        known,
    }
    .to_string())
}

use qd_runtime::DeviceRegistry;

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    pub file: String,
    pub kernel: String,
    /// `--set` in order: (field, VALUES).
    pub sets: Vec<(String, String)>,
    /// `--arg` in order: (parameter, VALUES).
    pub args: Vec<(String, String)>,
    pub prints: Vec<String>,
    /// `--grad` in order: (output field, seed).
    pub grads: Vec<(String, f64)>,
    pub ad_stack_size: Option<usize>,
    pub device: String,
    pub shuffle: Option<u64>,
    pub json: bool,
    /// `--report-adstack`: print the adstack plan of each launch.
    pub report_adstack: bool,
}

#[derive(Debug, PartialEq)]
pub enum Command {
    Run(Box<Options>),
    Help,
}

/// Splits `NAME=VALUES`.
fn assignment(flag: &str, v: &str) -> Result<(String, String), String> {
    match v.split_once('=') {
        Some((name, values)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), values.to_string()))
        }
        _ => Err(format!("{flag} expects NAME=VALUES, got '{v}'")),
    }
}

/// Parses the arguments after the program name. Errors are usage errors (exit status 2).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut o = Options::default();
    let mut file: Option<String> = None;
    let (mut kernel, mut device) = (None, None);
    let mut i = 0;
    let mut options_done = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if options_done || !a.starts_with('-') || a == "-" {
            if let Some(f) = &file {
                return Err(format!("more than one input file ('{f}' and '{a}')"));
            }
            file = Some(a.clone());
            continue;
        }
        if a == "--" {
            options_done = true;
            continue;
        }
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        match flag {
            "-h" | "--help" => return Ok(Command::Help),
            "--json" | "--report-adstack" => {
                if inline.is_some() {
                    return Err(format!("{flag} takes no value"));
                }
                if flag == "--json" {
                    o.json = true;
                } else {
                    o.report_adstack = true;
                }
                continue;
            }
            "--kernel" | "--set" | "--arg" | "--print" | "--device" | "--shuffle" | "--grad"
            | "--ad-stack-size" => {}
            _ => return Err(format!("unknown option '{a}'")),
        }
        let value = match inline {
            Some(v) => v,
            None => {
                let Some(v) = args.get(i) else {
                    return Err(format!("{flag} needs a value"));
                };
                i += 1;
                v.clone()
            }
        };
        match flag {
            "--kernel" => {
                if kernel.replace(value).is_some() {
                    return Err("--kernel given more than once".into());
                }
            }
            "--device" => {
                if device.replace(value).is_some() {
                    return Err("--device given more than once".into());
                }
            }
            "--set" => o.sets.push(assignment(flag, &value)?),
            "--arg" => o.args.push(assignment(flag, &value)?),
            "--print" => {
                if value.trim().is_empty() {
                    return Err("--print needs a field name".into());
                }
                o.prints.push(value.trim().to_string());
            }
            "--grad" => {
                let (name, seed) = assignment(flag, &value)?;
                let seed: f64 = seed.trim().parse().map_err(|_| {
                    format!("--grad {name}: the seed must be a number, got '{seed}'")
                })?;
                o.grads.push((name, seed));
            }
            "--ad-stack-size" => {
                let n = value.trim().parse().map_err(|_| {
                    format!("--ad-stack-size expects an unsigned integer, got '{value}'")
                })?;
                if o.ad_stack_size.replace(n).is_some() {
                    return Err("--ad-stack-size given more than once".into());
                }
            }
            "--shuffle" => {
                let seed = value.trim().parse().map_err(|_| {
                    format!("--shuffle expects an unsigned integer seed, got '{value}'")
                })?;
                o.shuffle = Some(seed);
            }
            _ => unreachable!("every option with a value is listed above"),
        }
    }
    o.file = file.ok_or("no input file")?;
    o.kernel = kernel.ok_or("--kernel NAME is required")?;
    o.device = device.unwrap_or_else(|| DEFAULT_DEVICE.to_string());
    Ok(Command::Run(Box::new(o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    fn run(s: &[&str]) -> Options {
        match parse(&args(s)) {
            Ok(Command::Run(o)) => *o,
            other => panic!("{s:?}: {other:?}"),
        }
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
        ]);
        assert_eq!(o.file, "f.mlir");
        assert_eq!(o.kernel, "compute");
        assert_eq!(
            o.sets,
            vec![
                ("n".into(), "512".into()),
                ("x".into(), "linspace(0,1.5)".into())
            ]
        );
        assert_eq!(o.args, vec![("limit".into(), "2.0".into())]);
        assert_eq!(o.prints, vec!["y", "x.grad"]);
        assert!(o.json);
        assert_eq!(o.shuffle, Some(7));
        assert_eq!(o.grads, vec![("y".into(), 1.0), ("z".into(), -0.5)]);
        assert_eq!(o.ad_stack_size, Some(32));
        assert!(o.report_adstack);
        let plain = run(&["f.mlir", "--kernel", "k"]);
        assert_eq!(plain.ad_stack_size, None);
        assert!(!plain.report_adstack);
        assert_eq!(o.device, "interp");
        assert_eq!(run(&["--kernel=k", "--", "-odd.mlir"]).file, "-odd.mlir");
        assert_eq!(parse(&args(&["--help"])), Ok(Command::Help));
    }

    #[test]
    fn usage_errors() {
        for (s, want) in [
            (&["f.mlir"][..], "--kernel NAME is required"),
            (&["--kernel", "k"][..], "no input file"),
            (
                &["a.mlir", "b.mlir", "--kernel", "k"][..],
                "more than one input file",
            ),
            (&["f.mlir", "--kernel"][..], "--kernel needs a value"),
            (
                &["f.mlir", "--kernel", "k", "--bogus"][..],
                "unknown option '--bogus'",
            ),
            (
                &["f.mlir", "--kernel", "k", "--set", "x"][..],
                "--set expects NAME=VALUES",
            ),
            (
                &["f.mlir", "--kernel", "k", "--arg", "=1"][..],
                "--arg expects NAME=VALUES",
            ),
            (
                &["f.mlir", "--kernel", "k", "--shuffle", "-1"][..],
                "--shuffle expects",
            ),
            (
                &["f.mlir", "--kernel", "k", "--kernel", "j"][..],
                "more than once",
            ),
            (
                &["f.mlir", "--kernel", "k", "--json=1"][..],
                "takes no value",
            ),
            (
                &["f.mlir", "--kernel", "k", "--report-adstack=yes"][..],
                "--report-adstack takes no value",
            ),
            (
                &["f.mlir", "--kernel", "k", "--print", " "][..],
                "needs a field name",
            ),
            (
                &["f.mlir", "--kernel", "k", "--grad", "y"][..],
                "--grad expects NAME=VALUES",
            ),
            (
                &["f.mlir", "--kernel", "k", "--grad", "y=one"][..],
                "--grad y: the seed must be a number, got 'one'",
            ),
            (
                &["f.mlir", "--kernel", "k", "--ad-stack-size", "-1"][..],
                "--ad-stack-size expects an unsigned integer",
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
                "--ad-stack-size given more than once",
            ),
        ] {
            let e = parse(&args(s)).unwrap_err();
            assert!(e.contains(want), "{s:?}: {e}");
        }
    }

    #[test]
    fn devices_come_from_the_registry() {
        let reg = qd_devices::all_devices();
        assert_eq!(check_device("interp", &reg), Ok(()));
        let e = check_device("gpu", &reg).unwrap_err();
        assert_eq!(
            e,
            format!("unknown device 'gpu' (devices: {})", reg.names().join(", "))
        );
        // Any name parses; the registry decides.
        assert_eq!(
            run(&["f.mlir", "--kernel", "k", "--device", "gpu"]).device,
            "gpu"
        );
        assert_eq!(run(&["f.mlir", "--kernel", "k"]).device, DEFAULT_DEVICE);
        let h = help(&reg);
        assert!(h.starts_with(USAGE), "{h}");
        for name in reg.names() {
            assert!(h.contains(&format!("\n  {name} ")), "{h}");
        }
    }

    #[test]
    fn arbitrary_arguments_never_panic() {
        let tokens = [
            "f.mlir",
            "--kernel",
            "--set",
            "--arg",
            "--print",
            "--device",
            "--json",
            "--shuffle",
            "--grad",
            "--ad-stack-size",
            "--report-adstack",
            "y=1",
            "--",
            "-",
            "x=1",
            "=",
            "--kernel=k",
            "--set=",
            "interp",
            "7",
            "-h",
        ];
        for a in tokens {
            for b in tokens {
                for c in tokens {
                    for d in tokens {
                        let _ = parse(&args(&[a, b, c, d]));
                    }
                }
            }
        }
    }
}
