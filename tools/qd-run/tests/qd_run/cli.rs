//! The generated command line: `--help`, `-h` and `--completions SHELL`.

use super::common::*;

#[test]
fn help_is_generated_and_exits_0() {
    for flag in ["--help", "-h"] {
        let o = qd_run(&[flag]);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{flag}");
        for want in [
            "Runs kernels of FILE.mlir on a device and prints fields.",
            "Usage: qd-run FILE.mlir --kernel NAME [--kernel NAME]... [OPTIONS]\n       qd-run --completions SHELL",
            "--set <FIELD=VALUES>",
            "--arg <NAME=VALUES>",
            "--grad <OUTPUT=VALUES>",
            "--ad-stack-size <N>",
            "--memory-limit <BYTES|auto>",
            "--max-input-bytes <N>",
            "--print <FIELD>",
            "--save <FIELD=PATH.npy>",
            "--report-adstack",
            "--device <NAME>",
            "--shuffle <SEED>",
            "--check-bounds",
            "--repeat <N>",
            "--json",
            "--completions <SHELL>",
            "VALUES: a comma list (1,2,3), fill(v), linspace(a,b), arange(), or a .npy file;",
            "Several --kernel: launched in order on the same fields;",
            "Exit status: 0 on success, 1 on input or runtime errors, 2 on usage errors.",
        ] {
            assert!(
                o.stdout.contains(want),
                "{flag} lacks {want:?}:\n{}",
                o.stdout
            );
        }
    }
    // -h names the devices; --help describes them (outputs.rs checks the descriptions).
    // Lines wrap: compare with runs of white space as one space.
    let names = qd_devices::all_devices().names().join(", ");
    let short = qd_run(&["-h"]).stdout;
    let flat = short.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("[possible values: {names}]")),
        "{short}"
    );
}

#[test]
fn completions_print_a_script_and_exit_0() {
    for (shell, want) in [
        ("bash", "complete -F _qd__run"),
        ("zsh", "#compdef qd-run"),
        ("fish", "complete -c qd-run -l kernel"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[qd-run]"),
    ] {
        let o = qd_run(&["--completions", shell]);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{shell}");
        assert!(
            o.stdout.contains(want),
            "{shell} lacks {want:?}:\n{}",
            o.stdout
        );
        assert!(o.stdout.contains("save"), "{shell}:\n{}", o.stdout);
    }
    // --device completes to the registry's names, in zsh with their descriptions.
    let zsh = qd_run(&["--completions", "zsh"]).stdout;
    for e in qd_devices::all_devices().iter() {
        assert!(zsh.contains(&format!("{}\\:\"", e.name)), "{zsh}");
    }
}

#[test]
fn bad_completions_are_usage_errors() {
    for (args, want) in [
        (
            &["--completions", "tcsh"][..],
            "error: invalid value 'tcsh' for '--completions <SHELL>'",
        ),
        (
            &["--completions"][..],
            "error: a value is required for '--completions <SHELL>'",
        ),
        (
            &["--completions", "bash", "f.mlir"][..],
            "cannot be used with",
        ),
    ] {
        let o = qd_run(args);
        assert_eq!(o.code, 2, "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
        assert!(o.stderr.contains(want), "{args:?}: {}", o.stderr);
    }
}
