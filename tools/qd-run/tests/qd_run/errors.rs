//! A corpus of bad invocations: each exits 1 (input or runtime error) or 2 (usage error) with a
//! message, and none panics.

use super::common::*;

/// Runs qd-run and checks the exit status and that stderr contains every one of `want`.
fn fails(args: &[&str], code: i32, want: &[&str]) {
    let o = qd_run(args);
    assert_eq!(
        o.code, code,
        "qd-run {args:?}: expected exit {code}, got {}\n{}",
        o.code, o.stderr
    );
    assert!(o.stdout.is_empty(), "qd-run {args:?} printed: {}", o.stdout);
    assert!(
        !o.stderr.contains("panicked"),
        "qd-run {args:?} panicked:\n{}",
        o.stderr
    );
    for w in want {
        assert!(
            o.stderr.contains(w),
            "qd-run {args:?}: stderr lacks '{w}':\n{}",
            o.stderr
        );
    }
}

#[test]
fn an_unknown_device_exits_2_and_lists_the_registry() {
    let names = qd_devices::all_devices().names().join(", ");
    for args in [
        &[
            "examples/dynamic_loop.mlir",
            "--kernel",
            "compute",
            "--device",
            "nosuch",
        ][..],
        // Checked before the file is read, and with --grad too.
        &[
            "missing.mlir",
            "--kernel",
            "k",
            "--device=nosuch",
            "--grad",
            "y=1",
        ][..],
    ] {
        fails(
            args,
            2,
            &[
                "error: invalid value 'nosuch' for '--device <NAME>'",
                &format!("[possible values: {names}]"),
            ],
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    // clap's messages: the problem, the usage, and a pointer to --help.
    fails(
        &[],
        2,
        &[
            "error: the following required arguments were not provided:",
            "--kernel <NAME>",
            "<FILE.mlir>",
            "Usage: qd-run FILE.mlir --kernel NAME [--kernel NAME]... [OPTIONS]",
            "For more information, try '--help'.",
        ],
    );
    fails(
        &["examples/dynamic_loop.mlir"],
        2,
        &["the following required arguments were not provided:\n  --kernel <NAME>"],
    );
    let dl = ["examples/dynamic_loop.mlir", "--kernel", "compute"];
    for (extra, want) in [
        (
            &["--frobnicate"][..],
            "error: unexpected argument '--frobnicate' found",
        ),
        (
            // The list of names is checked against the registry by the test above.
            &["--device", "no-such-device"][..],
            "invalid value 'no-such-device' for '--device <NAME>'",
        ),
        (
            &["--set"][..],
            "error: a value is required for '--set <FIELD=VALUES>' but none was supplied",
        ),
        (
            &["--set", "n"][..],
            "error: invalid value 'n' for '--set <FIELD=VALUES>': missing '=' between the name and the value",
        ),
        (
            &["--arg", "=1"][..],
            "invalid value '=1' for '--arg <NAME=VALUES>': no name before '='",
        ),
        (
            &["--grad", "y=one"][..],
            "invalid value 'y=one' for '--grad <OUTPUT=VALUES>': the seed 'one' is not a number",
        ),
        (
            &["--grad", "y=fill(1"][..],
            "invalid value 'y=fill(1' for '--grad <OUTPUT=VALUES>': bad values 'fill(1'",
        ),
        (
            &["--save", "y="][..],
            "invalid value 'y=' for '--save <FIELD=PATH.npy>': no path after '='",
        ),
        (&["--shuffle", "x"][..], "invalid value 'x' for '--shuffle <SEED>'"),
        (
            &["--ad-stack-size", "-1"][..],
            "unexpected argument '-1' found",
        ),
        (&["--json=yes"][..], "unexpected value 'yes' for '--json'"),
        (&["--repeat", "x"][..], "invalid value 'x' for '--repeat <N>'"),
        (&["--repeat", "-1"][..], "unexpected argument '-1' found"),
        (
            &["--repeat", "99999999999"][..],
            "invalid value '99999999999' for '--repeat <N>'",
        ),
        (&["other.mlir"][..], "unexpected argument 'other.mlir' found"),
        (
            &["--completions", "bash"][..],
            "the argument '--completions <SHELL>' cannot be used with",
        ),
    ] {
        let mut args = dl.to_vec();
        args.extend_from_slice(extra);
        fails(&args, 2, &[want, "For more information, try '--help'."]);
    }
}

#[test]
fn argument_problems_exit_1() {
    let dl = "examples/dynamic_loop.mlir";
    let base = [dl, "--kernel", "compute"];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    fails(
        &with(&["--set", "nope=1"]),
        1,
        &["qd-run: error: --set nope: unknown field 'nope' (fields: n, x, y)"],
    );
    fails(
        &with(&["--print", "z"]),
        1,
        &["--print z: unknown field 'z'"],
    );
    fails(
        &with(&["--print", "n.grad"]),
        1,
        &["'n.grad' needs a field declared with {needs_grad}"],
    );
    fails(
        &with(&["--set", "x=1,2,3"]),
        1,
        &["--set x: expected 16 values, got 3"],
    );
    fails(
        &with(&["--set", "n=1.5"]),
        1,
        &["--set n: '1.5' is not an integer (expected i32)"],
    );
    fails(
        &with(&["--set", "n=99999999999"]),
        1,
        &["does not fit in i32"],
    );
    fails(
        &with(&["--set", "x=fill(abc)"]),
        1,
        &["'abc' is not a number"],
    );
    fails(
        &with(&["--set", "x=linspace(0)"]),
        1,
        &["linspace takes two numbers"],
    );
    fails(
        &with(&["--set", "n=linspace(0,1)"]),
        1,
        &["needs a float element type"],
    );
    fails(
        &with(&["--set", "x=fill(1):4x4"]),
        1,
        &["the field has shape [16], not [4, 4]"],
    );
    fails(&with(&["--set", "x=fill(1):4y"]), 1, &["bad shape '4y'"]);
    fails(
        &with(&["--set", "x=ones()"]),
        1,
        &["expected a comma list, fill(v), linspace(a,b), arange() or a .npy file"],
    );
    fails(
        &with(&["--set", "x=missing.npy"]),
        1,
        &["cannot read 'missing.npy'"],
    );
    fails(
        &with(&["--arg", "q=1"]),
        1,
        &["--arg q: kernel @compute has no parameter 'q' (it takes none)"],
    );
}

#[test]
fn kernel_argument_problems_exit_1() {
    let cf = "examples/control_flow.mlir";
    let base = [cf, "--kernel", "compute"];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        let mut v = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    fails(
        &with(&["--arg", "w=1,2"]),
        1,
        &["missing --arg limit=VALUES for parameter %limit (f32) of kernel @compute"],
    );
    fails(
        &with(&["--arg", "w=1", "--arg", "limit=1,2"]),
        1,
        &["--arg limit: the parameter is a scalar f32: expected one value, got 2"],
    );
    fails(
        &with(&["--arg", "w=fill(1)", "--arg", "limit=1"]),
        1,
        &["--arg w: fill(...) needs an explicit shape"],
    );
    fails(
        &with(&["--arg", "w=1,2:2x1", "--arg", "limit=1"]),
        1,
        &["rank 1, got shape [2, 1]"],
    );
    fails(
        &with(&["--arg", "w=1,2:3", "--arg", "limit=1"]),
        1,
        &["expected 3 values, got 2"],
    );
    fails(
        &with(&["--arg", "x=1", "--arg", "limit=1"]),
        1,
        &["has no parameter 'x' (parameters: %w: ndarray<?xf32>, %limit: f32)"],
    );
}

#[test]
fn bad_files_and_kernels_exit_1() {
    let dir = scratch("bad-files");
    fails(
        &["no/such/file.mlir", "--kernel", "k"],
        1,
        &["qd-run: error: cannot read 'no/such/file.mlir'"],
    );
    fails(
        &[dir.to_str().unwrap(), "--kernel", "k"],
        1,
        &["cannot read"],
    );
    fails(
        &["examples/dynamic_loop.mlir", "--kernel", "nope"],
        1,
        &["no kernel @nope in 'examples/dynamic_loop.mlir' (kernels: @compute)"],
    );
    fails(
        &["examples/dynamic_loop.mlir", "--kernel", "x"],
        1,
        &["no kernel @x"],
    );
    let parse_err = write(
        &dir,
        "p.mlir",
        b"module {\n  qd.field @x : !qd.field<4xf32\n}\n",
    );
    fails(
        &[&parse_err, "--kernel", "k"],
        1,
        &["p.mlir:3:1: error: expected '>'"],
    );
    let verify_err = write(&dir, "v.mlir", b"module {\n  qd.kernel @k() {\n    %c = arith.constant 1 : i32\n    qd.store %c, @nope[] : i32\n  }\n}\n");
    fails(
        &[&verify_err, "--kernel", "k"],
        1,
        &["v.mlir:4:5: error:", "qd.store %c, @nope[] : i32"],
    );
    let f16 = write(
        &dir,
        "h.mlir",
        b"module {\n  qd.field @h : !qd.field<2xf16>\n  qd.kernel @k() {\n  }\n}\n",
    );
    fails(
        &[&f16, "--kernel", "k"],
        1,
        &["h.mlir:2:3: error: field @h: element type 'f16' is not supported"],
    );
    let huge = write(&dir, "big.mlir", b"module {\n  qd.field @b : !qd.field<2000000000x2000000000xf64>\n  qd.kernel @k() {\n  }\n}\n");
    fails(
        &[&huge, "--kernel", "k"],
        1,
        &["big.mlir:2:3: error: field @b: cannot allocate 32000000000000000000 bytes"],
    );
    let unregistered = write(
        &dir,
        "u.mlir",
        b"module {\n  qd.kernel @k() {\n    \"foo.bar\"() : () -> ()\n  }\n}\n",
    );
    fails(
        &[&unregistered, "--kernel", "k"],
        1,
        &["u.mlir:3:5: error:"],
    );
}

#[test]
fn bad_npy_files_exit_1() {
    let dir = scratch("bad-npy");
    let garbage = write(&dir, "g.npy", b"not a numpy file at all");
    let short = write(&dir, "s.npy", &npy("<f4", &[16], &[0; 60]));
    let wrong = write(&dir, "w.npy", &npy("<f4", &[4], &[0; 16]));
    let cplx = write(&dir, "c.npy", &npy("<c8", &[16], &[0; 128]));
    let half = write(&dir, "h.npy", &npy("<f2", &[16], &[0; 32]));
    let ints = write(
        &dir,
        "i.npy",
        &npy("<f4", &[16], &1.5f32.to_le_bytes().repeat(16)),
    );
    let fortran = {
        let mut f = npy("<f4", &[16], &[0; 64]);
        let pos = f.windows(5).position(|w| w == b"False").unwrap();
        f.splice(pos..pos + 5, b"True ".iter().copied());
        write(&dir, "f.npy", &f)
    };
    let bools = write(&dir, "b.npy", &npy("|b1", &[16], &[2; 16]));
    let base = ["examples/dynamic_loop.mlir", "--kernel", "compute"];
    for (path, field, want) in [
        (
            &garbage,
            "x",
            "is not a valid .npy file: magic not found for NPY file",
        ),
        (
            &short,
            "x",
            "is not a valid .npy file: expected 64 bytes of data for shape [16] of f32, found 60",
        ),
        (&wrong, "x", "has shape [4], the field [16]"),
        (
            &cplx,
            "x",
            "has element type '<c8', which qd-run does not read (supported: b1, i1, i2, i4, i8, \
             u1, u2, u4, u8, f4, f8)",
        ),
        (
            &half,
            "x",
            "has element type '<f2', which qd-run does not read",
        ),
        (&ints, "n", "has shape [16], the field []"),
        (
            &fortran,
            "x",
            "is in Fortran order, which qd-run does not read",
        ),
        (
            &bools,
            "x",
            "is not a valid .npy file: invalid value for bool: 2",
        ),
    ] {
        let set = format!("{field}={path}");
        let mut args = base.to_vec();
        args.extend(["--set", &set]);
        fails(&args, 1, &[&format!("--set {field}: '{path}' "), want]);
    }
    // The same for a kernel argument.
    let arg = format!("w={fortran}");
    fails(
        &[
            "examples/control_flow.mlir",
            "--kernel",
            "compute",
            "--arg",
            &arg,
            "--arg",
            "limit=1",
        ],
        1,
        &["qd-run: error: --arg w: ", "is in Fortran order"],
    );
}

#[test]
fn runtime_errors_are_located() {
    let dir = scratch("div");
    let f = write(&dir, "d.mlir", b"module {\n  qd.field @r : !qd.field<i32>\n  qd.kernel @k(%a: i32, %b: i32) {\n    %q = arith.divsi %a, %b : i32\n    qd.store %q, @r[] : i32\n  }\n}\n");
    for device in EACH_DEVICE {
        // On cpu, out-of-bounds accesses are errors with --check-bounds only.
        fails(
            &["examples/ndarray_bound.mlir", "--kernel", "compute", "--arg", "a=1,2,3", "--print", "y", "--device", device, "--check-bounds"],
            1,
            &[
                "examples/ndarray_bound.mlir:16:12: error: index [3] is out of bounds for ndarray argument 0 of shape [3] (in kernel @compute)",
                "      %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>\n           ^",
            ],
        );
        fails(
            &[
                &f, "--kernel", "k", "--arg", "a=1", "--arg", "b=0", "--device", device,
            ],
            1,
            &["d.mlir:4:10: error: integer division by zero (in kernel @k)"],
        );
        assert_eq!(
            ok(&[
                &f, "--kernel", "k", "--arg", "a=7", "--arg", "b=2", "--print", "r", "--device",
                device
            ]),
            "r = 3\n"
        );
    }
}

/// A constant index out of bounds is valid IR (folding makes one from an index that verified,
/// e.g. in code that never runs: lit-tests/dialect/qd/constant_index_out_of_bounds.mlir) and a
/// located error when it runs, on every device: local arrays are always checked, fields with
/// --check-bounds (the compiled devices skip field checks without it). The gradient pipeline
/// (element-access-ad keeps such an index a value) runs the same kernel when the access is not
/// reached.
#[test]
fn constant_indices_out_of_bounds_fail_when_run() {
    let dir = scratch("const_oob");
    let f = write(
        &dir,
        "c.mlir",
        br#"module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @field_load() {
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %c9 = arith.addi %c4, %c5 : i32
    %v = qd.load @x[%c9] : f32
    qd.store %v, @y[] : f32
  }
  qd.kernel @local(%n: i32) {
    %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %v = qd.load @x[%c0] : f32
    %c5 = arith.addi %c1, %c4 : i32
    %q = qd.elem_ptr %a[%c1] : !qd.ptr<!qd.array<4xf32>>
    qd.local_store %v, %q : !qd.ptr<f32>
    %big = arith.cmpi sgt, %n, %c4 : i32
    qd.if %big {
      %p = qd.elem_ptr %a[%c5] : !qd.ptr<!qd.array<4xf32>>
      qd.local_store %v, %p : !qd.ptr<f32>
    }
    %r = qd.local_load %q : !qd.ptr<f32>
    %r2 = arith.mulf %r, %r : f32
    qd.store %r2, @y[] : f32
  }
}
"#,
    );
    let devices = ["interp", "interp-lowered", "cpu", "vulkan"];
    for device in devices.into_iter().filter(|d| super::devices::runs_here(d)) {
        fails(
            &[&f, "--kernel", "field_load", "--device", device, "--check-bounds"],
            1,
            &[
                "c.mlir:8:10: error: index [9] is out of bounds for field @x of shape [4] (in kernel @field_load)",
                "    %v = qd.load @x[%c9] : f32\n         ^",
            ],
        );
        // The address is checked where it is formed (qd.elem_ptr); the gradient pipeline's
        // element-access-ad folds it into the store, which is checked instead.
        let elem_ptr = [
            "c.mlir:22:12: error: index 5 is out of bounds for local array '!qd.array<4xf32>' of length 4 (in kernel @local)",
            "      %p = qd.elem_ptr %a[%c5] : !qd.ptr<!qd.array<4xf32>>\n           ^",
        ];
        let store = [
            "c.mlir:23:7: error: index 5 is out of bounds for local array '!qd.array<4xf32>' of length 4 (in kernel @local)",
            "      qd.local_store %v, %p : !qd.ptr<f32>\n      ^",
        ];
        for (grad, want) in [(&[][..], elem_ptr), (&["--grad", "y=1"][..], store)] {
            let mut args = vec![
                &f[..],
                "--kernel",
                "local",
                "--arg",
                "n=9",
                "--device",
                device,
            ];
            args.extend(grad);
            fails(&args, 1, &want);
        }
        // Not reached: the kernel and its gradient run (d(x0^2)/dx0 = 3 at x0 = 1.5).
        assert_eq!(
            ok(&[
                &f,
                "--kernel",
                "local",
                "--arg",
                "n=1",
                "--set",
                "x=1.5,2,3,4",
                "--grad",
                "y=1",
                "--print",
                "x.grad",
                "--device",
                device
            ]),
            "x.grad = [3.0, 0.0, 0.0, 0.0]\n",
            "{device}"
        );
    }
}
