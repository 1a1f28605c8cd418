//! Command-line parsing for qd-opt (clap). Usage errors exit with status 2.

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};
use clap_complete::Shell;
use std::ffi::OsString;

/// The command line as clap sees it; [`Options`] is what qd-opt does with it.
#[derive(Parser, Debug)]
#[command(
    name = "qd-opt",
    version,
    // A fixed width keeps --help (and the README's copy) the same in every terminal.
    term_width = 100,
    about = "The mlir-opt of qd: parse MLIR text, verify it, run a pass pipeline, print the result",
    after_help = "Reports (IR dumps, timing, statistics) go to stderr. As in mlir-opt, -name is --name,\n\
                  and every pass is a flag: -canonicalize, --cse, -canonicalize=\"max-iterations=2 test-convergence\"\n\
                  (same as --pass='canonicalize{max-iterations=2 test-convergence}'), run in command-line order.\n\
                  Exit status: 0 on success, 1 when an error diagnostic was emitted, 2 on bad usage."
)]
struct Cli {
    /// Input file ('-' or none: stdin)
    #[arg(value_name = "INPUT")]
    input: Option<String>,

    /// Write the output to FILE ('-': stdout)
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        allow_hyphen_values = true
    )]
    output: Option<String>,

    /// Run a pass on the top-level module (repeatable)
    #[arg(long = "pass", value_name = "NAME[{k=v ...}]")]
    pass: Vec<String>,

    /// Run a comma list of passes in order (options in braces)
    #[arg(short = 'p', long = "passes", value_name = "NAME,NAME,...", value_parser = parse_pass_list)]
    passes: Vec<PassList>,

    /// An MLIR pipeline, e.g. 'builtin.module(cse,canonicalize)'
    #[arg(long = "pass-pipeline", value_name = "PIPELINE", conflicts_with_all = ["pass", "passes"])]
    pass_pipeline: Option<String>,

    /// List the registered passes and their options
    #[arg(long = "list-passes")]
    list_passes: bool,

    /// Print qd's dialects in IRDL, for mlir-opt --irdl-file (reads no input)
    #[arg(long = "print-irdl")]
    print_irdl: bool,

    /// Print the generic form that mlir-opt verifies against --print-irdl's IRDL
    #[arg(long = "print-irdl-form")]
    print_irdl_form: bool,

    /// Accept ops, types and attributes of unregistered dialects
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered_dialect: bool,

    /// Split the input at '// -----' lines and process each chunk alone
    #[arg(long = "split-input-file")]
    split_input_file: bool,

    /// Check diagnostics against expected-error/warning/note comments
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,

    /// Check after parsing that the generic form reparses to the same text
    #[arg(long = "verify-roundtrip")]
    verify_roundtrip: bool,

    /// Print ops in the generic form
    #[arg(long = "print-op-generic", visible_alias = "mlir-print-op-generic")]
    print_op_generic: bool,

    /// Print locations
    #[arg(long = "mlir-print-debuginfo")]
    mlir_print_debuginfo: bool,

    /// Print the IR after every pass
    #[arg(long = "print-ir-after-all", visible_alias = "mlir-print-ir-after-all")]
    print_ir_after_all: bool,

    /// Print the IR after the named pass (repeatable)
    #[arg(long = "print-ir-after", value_name = "NAME")]
    print_ir_after: Vec<String>,

    /// Print a pass execution time report
    #[arg(long = "pass-timing", visible_alias = "mlir-timing")]
    pass_timing: bool,

    /// Print pass statistics
    #[arg(long = "pass-statistics", visible_alias = "mlir-pass-statistics")]
    pass_statistics: bool,

    /// Verify after parsing and after each pass
    #[arg(
        long = "verify-each",
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_parser = parse_bool,
        overrides_with = "no_verify_each"
    )]
    verify_each: Option<bool>,

    /// Same as --verify-each=false
    #[arg(long = "no-verify-each", overrides_with = "verify_each")]
    no_verify_each: bool,

    /// Print a completion script (bash, zsh, fish, elvish, powershell)
    #[arg(
        long = "completions",
        value_name = "SHELL",
        hide_possible_values = true
    )]
    completions: Option<Shell>,

    /// The largest input read, in bytes; a larger one is an error
    #[arg(
        long = "max-input-bytes",
        value_name = "N",
        default_value_t = qd_ir::text::DEFAULT_MAX_INPUT_BYTES
    )]
    max_input_bytes: u64,
}

/// One `-p` list, already split into pass specs.
#[derive(Clone, Debug)]
struct PassList(Vec<String>);

/// Everything qd-opt was asked to do.
#[derive(Debug)]
pub struct Options {
    pub input: Option<String>,
    pub output: Option<String>,
    /// Passes from `--pass=NAME` and `-p a,b`, in command-line order.
    pub passes: Vec<String>,
    pub pipeline: Option<String>,
    pub allow_unregistered: bool,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub verify_roundtrip: bool,
    pub print_generic: bool,
    pub debug_info: bool,
    pub print_ir_after_all: bool,
    pub print_ir_after: Vec<String>,
    pub pass_timing: bool,
    pub pass_statistics: bool,
    pub list_passes: bool,
    pub print_irdl: bool,
    pub print_irdl_form: bool,
    pub verify_each: bool,
    pub completions: Option<Shell>,
    pub max_input_bytes: u64,
}

/// Parses argv (with the program name first). Errors carry clap's rendering and exit code
/// (2 for bad usage, 0 for `--help` and `--version`). A registered pass name is a flag, as in
/// mlir-opt: `-cse`, `--canonicalize="test-convergence"` (see [`normalize_single_dash`]).
pub fn parse_args<I, T>(args: I) -> Result<Options, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let cmd = Cli::command();
    let pass_names = crate::pipeline::pass_names();
    let args = normalize_single_dash(
        &cmd,
        &pass_names,
        args.into_iter().map(Into::into).collect(),
    );
    let matches = cmd.try_get_matches_from(args)?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok(Options::new(cli, &matches))
}

/// The completion script for `shell`.
pub fn completions(shell: Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "qd-opt", &mut out);
    out
}

impl Options {
    fn new(cli: Cli, matches: &ArgMatches) -> Options {
        // clap keeps each flag's values apart; their argv indices restore the user's order.
        let indices = |id: &str| -> Vec<usize> {
            matches
                .indices_of(id)
                .map(|i| i.collect())
                .unwrap_or_default()
        };
        let mut ordered: Vec<(usize, Vec<String>)> = indices("pass")
            .into_iter()
            .zip(cli.pass)
            .map(|(i, p)| (i, vec![p]))
            .chain(
                indices("passes")
                    .into_iter()
                    .zip(cli.passes.into_iter().map(|l| l.0)),
            )
            .collect();
        ordered.sort_by_key(|(i, _)| *i);
        Options {
            input: cli.input,
            output: cli.output,
            passes: ordered.into_iter().flat_map(|(_, p)| p).collect(),
            pipeline: cli.pass_pipeline,
            allow_unregistered: cli.allow_unregistered_dialect,
            split_input_file: cli.split_input_file,
            verify_diagnostics: cli.verify_diagnostics,
            verify_roundtrip: cli.verify_roundtrip,
            print_generic: cli.print_op_generic,
            debug_info: cli.mlir_print_debuginfo,
            print_ir_after_all: cli.print_ir_after_all,
            print_ir_after: cli.print_ir_after,
            pass_timing: cli.pass_timing,
            pass_statistics: cli.pass_statistics,
            list_passes: cli.list_passes,
            print_irdl: cli.print_irdl,
            print_irdl_form: cli.print_irdl_form,
            verify_each: !cli.no_verify_each && cli.verify_each.unwrap_or(true),
            completions: cli.completions,
            max_input_bytes: cli.max_input_bytes,
        }
    }
}

/// mlir-opt accepts `-name` for every long option `--name`; clap does not, so such arguments
/// get their second dash here. Only names of qd-opt's long options (and aliases) are touched,
/// never the value that follows an option taking one (`-o -split-input-file` writes to that
/// file), nor anything after `--`. mlir-opt also makes every pass a flag whose value is the
/// pass's options (`-canonicalize`, `--canonicalize="max-iterations=2 test-convergence"`):
/// those become `--pass=NAME{OPTIONS}`, keeping their place among the other passes.
fn normalize_single_dash(
    cmd: &clap::Command,
    pass_names: &[&str],
    args: Vec<OsString>,
) -> Vec<OsString> {
    let long_names: Vec<(&str, bool)> = cmd
        .get_arguments()
        .flat_map(|a| {
            let takes_next = a.get_action().takes_values() && !a.is_require_equals_set();
            a.get_long()
                .into_iter()
                .chain(a.get_all_aliases().unwrap_or_default())
                .map(move |n| (n, takes_next))
        })
        .chain([("help", false), ("version", false)])
        .collect();
    let takes_next_value = |arg: &str| -> bool {
        match arg.strip_prefix("--") {
            Some(long) if !long.contains('=') => long_names.iter().any(|&(n, t)| n == long && t),
            Some(_) => false,
            // Short options taking a value (-o, -p) take the next argument unless attached.
            None => cmd.get_arguments().any(|a| {
                a.get_action().takes_values()
                    && a.get_short().is_some_and(|s| arg == format!("-{s}"))
            }),
        }
    };
    let mut out = Vec::with_capacity(args.len());
    let mut iter = args.into_iter();
    if let Some(program) = iter.next() {
        out.push(program);
    }
    let mut value_next = false;
    while let Some(arg) = iter.next() {
        let Some(text) = arg.to_str() else {
            value_next = false;
            out.push(arg);
            continue;
        };
        if value_next {
            value_next = false;
            out.push(arg);
            continue;
        }
        if text == "--" {
            out.push(arg);
            out.extend(iter);
            break;
        }
        let text = match text.strip_prefix('-') {
            Some(rest) if !rest.starts_with('-') && rest.len() > 1 => {
                let name = rest.split('=').next().unwrap_or(rest);
                if long_names.iter().any(|&(n, _)| n == name) {
                    format!("-{text}")
                } else {
                    pass_flag(pass_names, rest).unwrap_or_else(|| text.to_string())
                }
            }
            Some(rest) => rest
                .strip_prefix('-')
                .filter(|long| {
                    let name = long.split('=').next().unwrap_or(long);
                    !long_names.iter().any(|&(n, _)| n == name)
                })
                .and_then(|long| pass_flag(pass_names, long))
                .unwrap_or_else(|| text.to_string()),
            None => text.to_string(),
        };
        value_next = takes_next_value(&text);
        out.push(text.into());
    }
    out
}

/// `NAME` or `NAME=OPTIONS` (the text after the dashes) when NAME is a registered pass:
/// `--pass=NAME` or `--pass=NAME{OPTIONS}`.
fn pass_flag(pass_names: &[&str], flag: &str) -> Option<String> {
    let (name, options) = match flag.split_once('=') {
        Some((n, o)) => (n, Some(o)),
        None => (flag, None),
    };
    if !pass_names.contains(&name) {
        return None;
    }
    Some(match options {
        Some(o) => format!("--pass={name}{{{o}}}"),
        None => format!("--pass={name}"),
    })
}

/// `--verify-each=VALUE`.
fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err("expected true or false".into()),
    }
}

/// Splits `a,b{x=1,y=2},c` at top-level commas (commas inside braces belong to options).
fn parse_pass_list(list: &str) -> Result<PassList, String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in list.chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced '}' in the pass list".into());
                }
            }
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if depth != 0 {
        return Err("unbalanced '{' in the pass list".into());
    }
    out.push(cur);
    let out: Vec<String> = out.into_iter().map(|s| s.trim().to_string()).collect();
    if out.iter().any(|s| s.is_empty()) {
        return Err("empty pass name in the pass list".into());
    }
    Ok(PassList(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;

    fn parse(s: &[&str]) -> Result<Options, clap::Error> {
        parse_args(std::iter::once("qd-opt").chain(s.iter().copied()))
    }

    #[test]
    fn the_command_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn passes_accumulate_in_order() {
        let o = parse(&[
            "--pass=cse",
            "-p",
            "dce,canonicalize{max-iterations=2,x=1}",
            "--pass",
            "symbol-dce",
            "--passes=a,b",
            "f.mlir",
        ])
        .unwrap();
        assert_eq!(
            o.passes,
            vec![
                "cse",
                "dce",
                "canonicalize{max-iterations=2,x=1}",
                "symbol-dce",
                "a",
                "b"
            ]
        );
        assert_eq!(o.input.as_deref(), Some("f.mlir"));
        assert!(o.verify_each);
    }

    #[test]
    fn usage_errors() {
        let kind = |s: &[&str]| parse(s).err().map(|e| e.kind());
        assert_eq!(kind(&["--bogus"]), Some(ErrorKind::UnknownArgument));
        assert_eq!(
            kind(&["a.mlir", "b.mlir"]),
            Some(ErrorKind::UnknownArgument)
        );
        assert_eq!(kind(&["-o"]), Some(ErrorKind::InvalidValue));
        assert_eq!(kind(&["-p", "a,,b"]), Some(ErrorKind::ValueValidation));
        assert_eq!(kind(&["-p", "a{"]), Some(ErrorKind::ValueValidation));
        assert_eq!(kind(&["-p", "a}"]), Some(ErrorKind::ValueValidation));
        assert_eq!(
            kind(&["--verify-each=maybe"]),
            Some(ErrorKind::ValueValidation)
        );
        assert_eq!(
            kind(&["--pass=cse", "--pass-pipeline=builtin.module(cse)"]),
            Some(ErrorKind::ArgumentConflict)
        );
        assert_eq!(
            kind(&["--pass-pipeline=a", "--pass-pipeline=b"]),
            Some(ErrorKind::ArgumentConflict)
        );
        assert_eq!(
            kind(&["--completions", "tcsh"]),
            Some(ErrorKind::InvalidValue)
        );
        for s in [&["--bogus"][..], &["-p", "a,,b"]] {
            assert_eq!(parse(s).err().unwrap().exit_code(), 2, "{s:?}");
        }
    }

    #[test]
    fn verify_each_switch() {
        let ve = |s: &[&str]| parse(s).unwrap().verify_each;
        assert!(ve(&[]));
        assert!(!ve(&["--verify-each=false"]));
        assert!(!ve(&["--verify-each=0"]));
        assert!(ve(&["--verify-each=1"]));
        assert!(!ve(&["--no-verify-each"]));
        assert!(ve(&["--no-verify-each", "--verify-each"]));
        assert!(!ve(&["--verify-each", "--no-verify-each"]));
        // `--verify-each` takes its value only after '=': the next word is the input.
        let o = parse(&["--verify-each", "false"]).unwrap();
        assert!(o.verify_each);
        assert_eq!(o.input.as_deref(), Some("false"));
    }

    #[test]
    fn single_dash_long_options_are_mlir_opt_spellings() {
        let o = parse(&[
            "-split-input-file",
            "-pass-pipeline=builtin.module(cse)",
            "-mlir-print-op-generic",
            "-verify-each=false",
            "-o",
            "-allow-unregistered-dialect",
            "-",
        ])
        .unwrap();
        assert!(o.split_input_file && o.print_generic && !o.verify_each);
        assert_eq!(o.pipeline.as_deref(), Some("builtin.module(cse)"));
        // The value of -o is a file name, even one that looks like an option.
        assert_eq!(o.output.as_deref(), Some("-allow-unregistered-dialect"));
        assert!(!o.allow_unregistered);
        assert_eq!(o.input.as_deref(), Some("-"));
        // Short options keep their attached values; unknown single-dash words stay unknown.
        assert_eq!(parse(&["-pcse,dce"]).unwrap().passes, vec!["cse", "dce"]);
        assert_eq!(
            parse(&["-frobnicate"]).err().map(|e| e.kind()),
            Some(ErrorKind::UnknownArgument)
        );
        assert_eq!(
            parse(&["-help"]).err().map(|e| e.kind()),
            Some(ErrorKind::DisplayHelp)
        );
        // After `--`, everything is the input.
        assert_eq!(
            parse(&["--", "-split-input-file"])
                .unwrap()
                .input
                .as_deref(),
            Some("-split-input-file")
        );
    }

    #[test]
    fn every_pass_is_a_flag_as_in_mlir_opt() {
        // The shell has removed the quotes of -canonicalize="test-convergence".
        let o = parse(&[
            "-canonicalize=test-convergence",
            "--pass=dce",
            "-cse",
            "--canonicalize=max-iterations=2 test-convergence=true",
            "-p",
            "symbol-dce",
            "--cse",
            "-verify-roundtrip",
            "f.mlir",
        ])
        .unwrap();
        assert_eq!(
            o.passes,
            vec![
                "canonicalize{test-convergence}",
                "dce",
                "cse",
                "canonicalize{max-iterations=2 test-convergence=true}",
                "symbol-dce",
                "cse"
            ]
        );
        assert!(o.verify_roundtrip);
        assert_eq!(o.input.as_deref(), Some("f.mlir"));
        // A pass name given as the value of -o is a file name; unknown names stay unknown.
        assert_eq!(
            parse(&["-o", "-cse"]).unwrap().output.as_deref(),
            Some("-cse")
        );
        assert_eq!(
            parse(&["-no-such-pass"]).err().map(|e| e.kind()),
            Some(ErrorKind::UnknownArgument)
        );
        // A pass flag is a pass: it conflicts with --pass-pipeline as --pass does.
        assert_eq!(
            parse(&["-cse", "--pass-pipeline=builtin.module(cse)"])
                .err()
                .map(|e| e.kind()),
            Some(ErrorKind::ArgumentConflict)
        );
    }

    #[test]
    fn aliases_and_flags() {
        let o = parse(&[
            "--mlir-timing",
            "--mlir-pass-statistics",
            "--mlir-print-ir-after-all",
            "--print-ir-after=cse",
            "--print-ir-after",
            "dce",
            "--mlir-print-debuginfo",
            "--verify-diagnostics",
            "--list-passes",
            "--output=out.mlir",
        ])
        .unwrap();
        assert!(o.pass_timing && o.pass_statistics && o.print_ir_after_all);
        assert!(o.debug_info && o.verify_diagnostics && o.list_passes);
        assert!(!o.print_irdl && !o.print_irdl_form);
        assert_eq!(o.print_ir_after, vec!["cse", "dce"]);
        assert_eq!(o.output.as_deref(), Some("out.mlir"));
        assert_eq!(o.input, None);
        let o = parse(&["--print-irdl", "-print-irdl-form"]).unwrap();
        assert!(o.print_irdl && o.print_irdl_form);
    }

    #[test]
    fn completions_for_every_shell() {
        for shell in [
            Shell::Bash,
            Shell::Zsh,
            Shell::Fish,
            Shell::Elvish,
            Shell::PowerShell,
        ] {
            let script = String::from_utf8(completions(shell)).unwrap();
            assert!(script.contains("pass-pipeline"), "{shell}: {script}");
        }
    }
}
