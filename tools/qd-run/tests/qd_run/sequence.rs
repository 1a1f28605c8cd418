//! Kernel sequences (`--kernel a --kernel b ...`), per-kernel arguments (`--arg k.a=...`),
//! ndarray arguments printed and seeded (`--print a`, `--print a.grad`, `--grad out=...`) and
//! per-element seeds (`--grad y=0,0,1` with every VALUES form).

use super::common::*;

const SEQ: &str = "module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<3xf32> {needs_grad}
  qd.field @y : !qd.field<3xf32> {needs_grad}
  qd.kernel @pow_n() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      %one = arith.constant 1.0 : f32
      qd.local_store %one, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %t = qd.local_load %v : !qd.ptr<f32>
        %m = arith.mulf %t, %x_i : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[%i] : f32
    }
  }
  qd.kernel @bump() {
    %c2 = arith.constant 2 : i32
    qd.atomic_add %c2, @n[] : i32
  }
  qd.kernel @clobber() {
    qd.struct_for (%i) in @x {
      %c = arith.constant 7.0 : f32
      qd.store %c, @x[%i] : f32
    }
  }
  qd.kernel @square(%a: !qd.ndarray<?xf32>, %out: !qd.ndarray<?xf32>, %k: f32) {
    %c0 = arith.constant 0 : i32
    %len = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
    qd.range_for %i = %c0 to %len : i32 {
      %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
      %s = arith.mulf %v, %v : f32
      %t = arith.mulf %s, %k : f32
      qd.ndarray_store %t, %out[%i] : !qd.ndarray<?xf32>
    }
  }
  qd.kernel @gather(%out: !qd.ndarray<?xf32>, %k: i32) {
    qd.struct_for (%i) in @y {
      %v = qd.ndarray_load %out[%i] : !qd.ndarray<?xf32>
      qd.atomic_add %v, @y[%i] : f32
    }
  }
}
";

fn seq(test: &str, args: &[&str]) -> Out {
    let dir = scratch(test);
    let f = write(&dir, "seq.mlir", SEQ.as_bytes());
    let mut all = vec![f.as_str()];
    all.extend_from_slice(args);
    qd_run(&all)
}

fn seq_ok(test: &str, args: &[&str]) -> String {
    let o = seq(test, args);
    assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    o.stdout
}

fn seq_fails(test: &str, args: &[&str], want: &str) {
    let o = seq(test, args);
    assert_eq!(o.code, 1, "{args:?}: {}", o.stderr);
    assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert!(
        o.stderr.contains(want),
        "{args:?}: stderr lacks {want:?}:\n{}",
        o.stderr
    );
}

/// pow_n, bump (n += 2), pow_n: y = x^2 + x^4, so x.grad = 2x + 4x^3; each gradient launch of
/// pow_n runs with the n its forward launch saw (its stack sized from it).
#[test]
fn a_sequence_runs_in_order_and_differentiates_as_a_whole() {
    for device in EACH_DEVICE {
        let out = seq_ok(
            "pow",
            &[
                "--kernel",
                "pow_n",
                "--kernel",
                "bump",
                "--kernel",
                "pow_n",
                "--set",
                "n=2",
                "--set",
                "x=0.5,1.5,2",
                "--grad",
                "y=1",
                "--print",
                "y",
                "--print",
                "n",
                "--print",
                "x.grad",
                "--device",
                device,
            ],
        );
        assert_eq!(
            out, "y = [0.3125, 7.3125, 20.0]\nn = 4\nx.grad = [1.5, 16.5, 36.0]\n",
            "{device}"
        );
        // Without --grad: the forward sequence only.
        let out = seq_ok(
            "pow",
            &[
                "--kernel",
                "bump",
                "--kernel",
                "pow_n",
                "--set",
                "x=0.5,1.5,2",
                "--print",
                "y",
                "--device",
                device,
            ],
        );
        assert_eq!(out, "y = [0.25, 2.25, 4.0]\n", "{device}");
    }
}

/// clobber overwrites x after square read it: the gradient of sq sees the x it read.
#[test]
fn a_later_kernel_overwriting_an_input_does_not_change_the_gradient() {
    for device in EACH_DEVICE {
        let out = seq_ok(
            "clobber",
            &[
                "--kernel",
                "pow_n",
                "--kernel",
                "clobber",
                "--set",
                "n=2",
                "--set",
                "x=0.5,-1.5,2",
                "--grad",
                "y=1,2,3",
                "--print",
                "x",
                "--print",
                "x.grad",
                "--device",
                device,
            ],
        );
        assert_eq!(
            out, "x = [7.0, 7.0, 7.0]\nx.grad = [1.0, -6.0, 12.0]\n",
            "{device}"
        );
    }
}

/// square writes the ndarray out, gather reads it into y: `--arg out` is one ndarray shared by
/// both, `--arg k` has a type per kernel (qualified), out is printed, a.grad comes through it.
#[test]
fn ndarray_arguments_are_shared_printed_and_seeded() {
    let base = [
        "--kernel",
        "square",
        "--kernel",
        "gather",
        "--arg",
        "a=1,2,3",
        "--arg",
        "out=0,0,0",
        "--arg",
        "square.k=0.5",
        "--arg",
        "gather.k=0",
    ];
    for device in EACH_DEVICE {
        let with = |extra: &[&'static str]| {
            let mut v = base.to_vec();
            v.extend_from_slice(extra);
            v.extend_from_slice(&["--device", device]);
            v
        };
        let out = seq_ok(
            "nd",
            &with(&[
                "--grad", "y=1,0,2", "--print", "y", "--print", "out", "--print", "a.grad",
                "--print", "out.grad",
            ]),
        );
        assert_eq!(
            out,
            "y = [0.5, 2.0, 4.5]\nout = [0.5, 2.0, 4.5]\na.grad = [1.0, 0.0, 6.0]\nout.grad = [0.0, 0.0, 0.0]\n",
            "{device}"
        );
        // Seeding the ndarray itself, one kernel: out = 0.5 a^2, d/da (seed . out) = seed a.
        let out = seq_ok(
            "nd1",
            &[
                "--kernel",
                "square",
                "--arg",
                "a=1,2,3",
                "--arg",
                "out=0,0,0",
                "--arg",
                "k=0.5",
                "--grad",
                "out=0,1,2",
                "--print",
                "a.grad",
                "--print",
                "a",
                "--device",
                device,
            ],
        );
        assert_eq!(
            out, "a.grad = [0.0, 2.0, 6.0]\na = [1.0, 2.0, 3.0]\n",
            "{device}"
        );
        // --save takes the same names: out's values, as f32.
        let dir = scratch("nd-save");
        let path = dir.join("out.npy");
        let save = format!("out={}", path.display());
        let mut args = with(&[]);
        args.extend_from_slice(&["--save", &save]);
        seq_ok("nd3", &args);
        let bytes = std::fs::read(&path).unwrap();
        let want: Vec<u8> = [0.5f32, 2.0, 4.5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert!(bytes.ends_with(&want), "{device}");
        // The qualified name prints the same ndarray.
        let out = seq_ok("nd2", &with(&["--print", "square.out"]));
        assert_eq!(out, "square.out = [0.5, 2.0, 4.5]\n", "{device}");
    }
}

#[test]
fn seeds_take_every_values_form() {
    let dir = scratch("seed-npy");
    let data: Vec<u8> = [0.0f32, 1.0, 0.5]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let npy_path = write(&dir, "s.npy", &npy("<f4", &[3], &data));
    let pow = [
        "--kernel", "pow_n", "--set", "n=2", "--set", "x=1,2,3", "--print", "x.grad",
    ];
    for (seed, want) in [
        ("y=0,0,1", "x.grad = [0.0, 0.0, 6.0]\n"),
        ("y=2", "x.grad = [4.0, 8.0, 12.0]\n"),
        ("y=fill(0.5)", "x.grad = [1.0, 2.0, 3.0]\n"),
        ("y=linspace(0,1)", "x.grad = [0.0, 2.0, 6.0]\n"),
        ("y=arange()", "x.grad = [0.0, 4.0, 12.0]\n"),
        ("y=arange():3", "x.grad = [0.0, 4.0, 12.0]\n"),
        (&format!("y={npy_path}"), "x.grad = [0.0, 4.0, 3.0]\n"),
    ] {
        let mut args = pow.to_vec();
        args.extend_from_slice(&["--grad", seed]);
        assert_eq!(seq_ok("seeds", &args), want, "{seed}");
    }
    // An ndarray's seed takes the forms too.
    let out = seq_ok(
        "seed-nd",
        &[
            "--kernel",
            "square",
            "--arg",
            "a=1,2,3",
            "--arg",
            "out=0,0,0",
            "--arg",
            "k=1",
            "--grad",
            "out=arange():3",
            "--print",
            "a.grad",
        ],
    );
    assert_eq!(out, "a.grad = [0.0, 4.0, 12.0]\n");
}

#[test]
fn bad_sequences_arguments_and_seeds_exit_1() {
    let sq = [
        "--kernel",
        "square",
        "--arg",
        "a=1,2,3",
        "--arg",
        "out=0,0,0",
        "--arg",
        "k=1",
    ];
    let with = |base: &[&'static str], extra: &[&'static str]| {
        let mut v = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    let pow = ["--kernel", "pow_n", "--set", "x=1,2,3"];
    for (args, want) in [
        (with(&pow, &["--grad", "y=1,2"]), "--grad y: expected 3 values, got 2"),
        (with(&pow, &["--grad", "y=1,2,3:4"]), "--grad y: the adjoint has shape [3], not [4]"),
        (with(&pow, &["--grad", "y=linspace(0,1):2x2"]), "the adjoint has shape [3], not [2, 2]"),
        (with(&pow, &["--grad", "n=1"]), "--grad n: field 'n' has no adjoint"),
        (with(&pow, &["--grad", "y=missing.npy"]), "--grad y: "),
        (with(&pow, &["--kernel", "nope"]), "no kernel @nope in"),
        (with(&sq, &["--grad", "out=1,2"]), "--grad out: expected 3 values, got 2"),
        (with(&sq, &["--grad", "a.x=1"]), "--grad a.x: unknown field 'a.x.grad'"),
        (with(&sq, &["--print", "a.grad"]), "--print a.grad: unknown field"),
        (
            with(&sq, &["--kernel", "gather", "--grad", "y=1"]),
            "--arg k: parameter %k is f32 in @square and i32 in @gather; give each its own: --arg square.k=... --arg gather.k=...",
        ),
        (
            with(&sq, &["--arg", "square.q=1"]),
            "--arg square.q: kernel @square has no parameter 'q' (parameters: %a: ndarray<?xf32>, %out: ndarray<?xf32>, %k: f32)",
        ),
        (
            with(&sq, &["--kernel", "pow_n", "--arg", "q=1"]),
            "--arg q: no kernel of the run has a parameter 'q' (@square: parameters: %a: ndarray<?xf32>, %out: ndarray<?xf32>, %k: f32; @pow_n: it takes none)",
        ),
        (
            vec!["--kernel", "pow_n", "--kernel", "square", "--arg", "a=1"],
            "missing --arg out=VALUES for parameter %out (ndarray<?xf32>) of kernel @square",
        ),
        (
            with(
                &sq,
                &["--kernel", "gather", "--arg", "gather.k=1", "--arg", "gather.out=1,1,1", "--print", "out"],
            ),
            "--print out: 'out' names different ndarrays of several kernels: name one (square.out, gather.out)",
        ),
    ] {
        seq_fails("bad", &args, want);
    }
}

/// `--report-adstack` of a sequence reports every launch: pow_n's two gradient launches got
/// stacks for n = 4 (launch 4, the last forward launch's gradient) and n = 2 (launch 6).
#[test]
fn the_adstack_report_of_a_sequence_has_each_launchs_depth() {
    let args = [
        "--kernel",
        "pow_n",
        "--kernel",
        "bump",
        "--kernel",
        "pow_n",
        "--set",
        "n=2",
        "--set",
        "x=0.5,1.5,2",
        "--grad",
        "y=1",
        "--report-adstack",
    ];
    for device in EACH_DEVICE {
        let mut a = args.to_vec();
        a.extend_from_slice(&["--device", device]);
        let out = seq_ok("report", &a);
        // The row's last cells: depth, peak, depth/peak, bytes/thread.
        let cells = |launch: &str| {
            let line = out
                .lines()
                .find(|l| l.starts_with(&format!("pow_n_grad (launch {launch})  #0")))
                .unwrap_or_else(|| panic!("{device}: no launch {launch}:\n{out}"));
            let mut c: Vec<String> = line
                .split_whitespace()
                .rev()
                .take(4)
                .map(str::to_string)
                .collect();
            c.reverse();
            c
        };
        // Each launch's own peak, where the device measures it (the interpreter).
        let (peak6, peak4, ratio) = if *device == "interp" {
            ("6", "4", "1.000")
        } else {
            ("-", "-", "-")
        };
        assert_eq!(
            (cells("4"), cells("6")),
            (
                vec!["6", peak6, ratio, "56"]
                    .into_iter()
                    .map(String::from)
                    .collect(),
                vec!["4", peak4, ratio, "40"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            ),
            "{device}:\n{out}"
        );
        a.push("--json");
        let json = seq_ok("report", &a);
        let measured = |peak: &str| match *device {
            "interp" => format!("\"measured_peak\": {peak}, \"ratio\": 1.0"),
            _ => "\"measured_peak\": null, \"ratio\": null".to_string(),
        };
        assert!(
            json.contains(&format!(
                "\"depth\": 6, {}, \"bytes_per_thread\": 56, \"launch\": 4}}",
                measured("6")
            )),
            "{json}"
        );
        assert!(
            json.contains(&format!(
                "\"depth\": 4, {}, \"bytes_per_thread\": 40, \"launch\": 6}}",
                measured("4")
            )),
            "{json}"
        );
    }
}
