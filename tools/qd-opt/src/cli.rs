//! Command-line parsing for qd-opt. Usage errors exit with status 2.

/// Everything qd-opt was asked to do.
#[derive(Debug, Default)]
pub struct Options {
    pub input: Option<String>,
    pub output: Option<String>,
    /// Passes from `--pass=NAME` and `-p a,b`, in order.
    pub passes: Vec<String>,
    pub pipeline: Option<String>,
    pub allow_unregistered: bool,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub print_generic: bool,
    pub debug_info: bool,
    pub print_ir_after_all: bool,
    pub print_ir_after: Vec<String>,
    pub pass_timing: bool,
    pub pass_statistics: bool,
    pub list_passes: bool,
    pub verify_each: bool,
    pub help: bool,
}

pub const USAGE: &str = "\
USAGE: qd-opt [options] [input file]   (reads stdin when no file or '-')

Options:
  --pass=NAME[{k=v ...}]         run a pass on the top-level module (repeatable)
  -p NAME,NAME,...               run passes in order (comma-separated; options in braces)
  --pass-pipeline=PIPELINE       an MLIR textual pipeline, e.g. 'builtin.module(cse,canonicalize{max-iterations=4})'
  --list-passes                  list the registered passes and their options
  --allow-unregistered-dialect   accept ops, types and attributes of unregistered dialects
  --split-input-file             split the input at '// -----' lines and process each chunk alone
  --verify-diagnostics           check emitted diagnostics against expected-error/warning/note comments
  --print-op-generic             print every op in the generic form (alias: --mlir-print-op-generic)
  --mlir-print-debuginfo         print locations
  --print-ir-after-all           print the IR after every pass (stderr)
  --print-ir-after=NAME          print the IR after the named pass (repeatable)
  --pass-timing                  print a pass execution time report (stderr; alias: --mlir-timing)
  --pass-statistics              print pass statistics (stderr)
  --verify-each[=true|false]     verify after parsing and after each pass (default: true)
  -o FILE                        write output to FILE
  -h, --help                     show this help
";

/// Parses argv (without the program name).
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        verify_each: true,
        ..Options::default()
    };
    let mut i = 0;
    // Takes the value of `--flag=value` or `--flag value`.
    let value = |i: &mut usize, arg: &str, flag: &str| -> Result<String, String> {
        if let Some(v) = arg.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
            return Ok(v.to_string());
        }
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| format!("option '{flag}' requires a value"))
    };
    let is = |arg: &str, flag: &str| arg == flag || arg.starts_with(&format!("{flag}="));
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "-h" | "--help" | "-help" => o.help = true,
            "--allow-unregistered-dialect" => o.allow_unregistered = true,
            "--split-input-file" => o.split_input_file = true,
            "--verify-diagnostics" => o.verify_diagnostics = true,
            "--print-op-generic" | "--mlir-print-op-generic" => o.print_generic = true,
            "--mlir-print-debuginfo" => o.debug_info = true,
            "--print-ir-after-all" | "--mlir-print-ir-after-all" => o.print_ir_after_all = true,
            "--pass-timing" | "--mlir-timing" => o.pass_timing = true,
            "--pass-statistics" | "--mlir-pass-statistics" => o.pass_statistics = true,
            "--list-passes" => o.list_passes = true,
            "--verify-each" => o.verify_each = true,
            "--no-verify-each" => o.verify_each = false,
            "-" => set_input(&mut o, "-")?,
            _ if is(arg, "--verify-each") => {
                o.verify_each = match value(&mut i, arg, "--verify-each")?.as_str() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    v => {
                        return Err(format!(
                            "invalid value '{v}' for --verify-each: expected true or false"
                        ))
                    }
                }
            }
            _ if is(arg, "--pass") => o.passes.push(value(&mut i, arg, "--pass")?),
            _ if is(arg, "--pass-pipeline") => {
                if o.pipeline.is_some() {
                    return Err("--pass-pipeline may be given only once".into());
                }
                o.pipeline = Some(value(&mut i, arg, "--pass-pipeline")?);
            }
            _ if is(arg, "--print-ir-after") => {
                o.print_ir_after
                    .push(value(&mut i, arg, "--print-ir-after")?)
            }
            _ if arg == "-o" || is(arg, "--output") => {
                let flag = if arg == "-o" { "-o" } else { "--output" };
                o.output = Some(value(&mut i, arg, flag)?);
            }
            _ if arg == "-p" || is(arg, "--passes") => {
                let flag = if arg == "-p" { "-p" } else { "--passes" };
                let list = value(&mut i, arg, flag)?;
                o.passes.extend(split_pass_list(&list)?);
            }
            _ if arg.starts_with('-') => return Err(format!("unknown option '{arg}'")),
            _ => set_input(&mut o, arg)?,
        }
        i += 1;
    }
    if o.pipeline.is_some() && !o.passes.is_empty() {
        return Err("--pass-pipeline cannot be combined with --pass or -p".into());
    }
    Ok(o)
}

fn set_input(o: &mut Options, path: &str) -> Result<(), String> {
    if let Some(prev) = &o.input {
        return Err(format!(
            "more than one input file given ('{prev}' and '{path}')"
        ));
    }
    o.input = Some(path.to_string());
    Ok(())
}

/// Splits `a,b{x=1,y=2},c` at top-level commas (commas inside braces belong to options).
pub fn split_pass_list(list: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in list.chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("unbalanced '}}' in pass list '{list}'"));
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
        return Err(format!("unbalanced '{{' in pass list '{list}'"));
    }
    out.push(cur);
    let out: Vec<String> = out.into_iter().map(|s| s.trim().to_string()).collect();
    if out.iter().any(|s| s.is_empty()) {
        return Err(format!("empty pass name in pass list '{list}'"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn passes_accumulate_in_order() {
        let o = parse_args(&args(&[
            "--pass=cse",
            "-p",
            "dce,canonicalize{max-iterations=2,x=1}",
            "--pass",
            "symbol-dce",
            "f.mlir",
        ]))
        .unwrap();
        assert_eq!(
            o.passes,
            vec![
                "cse",
                "dce",
                "canonicalize{max-iterations=2,x=1}",
                "symbol-dce"
            ]
        );
        assert_eq!(o.input.as_deref(), Some("f.mlir"));
        assert!(o.verify_each);
    }

    #[test]
    fn usage_errors() {
        assert!(parse_args(&args(&["--bogus"])).is_err());
        assert!(parse_args(&args(&["a.mlir", "b.mlir"])).is_err());
        assert!(parse_args(&args(&["-o"])).is_err());
        assert!(parse_args(&args(&["-p", "a,,b"])).is_err());
        assert!(parse_args(&args(&["-p", "a{"])).is_err());
        assert!(parse_args(&args(&["--verify-each=maybe"])).is_err());
        assert!(parse_args(&args(&[
            "--pass=cse",
            "--pass-pipeline=builtin.module(cse)"
        ]))
        .is_err());
    }

    #[test]
    fn verify_each_switch() {
        assert!(
            !parse_args(&args(&["--verify-each=false"]))
                .unwrap()
                .verify_each
        );
        assert!(
            !parse_args(&args(&["--no-verify-each"]))
                .unwrap()
                .verify_each
        );
    }
}
