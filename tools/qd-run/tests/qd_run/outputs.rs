//! Successful runs: the text and JSON outputs and every VALUES form. Runs whose values are
//! checked go on each device of `EACH_DEVICE`; the VALUES forms (read before any launch) on the
//! default device.

use super::common::*;
use qd_devices::DEFAULT_DEVICE;

const MAIN_JOB: &[&str] = &[
    "examples/dynamic_loop.mlir",
    "--kernel",
    "compute",
    "--set",
    "n=512",
    "--set",
    "x=linspace(0,1.5)",
    "--print",
    "y",
];

/// `args` on `device`.
fn on<'a>(args: &[&'a str], device: &'a str) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.extend(["--device", device]);
    v
}

#[test]
fn main_job_prints_y() {
    // The 16 values added into y are equal after 512 steps, so the order of the atomic adds
    // (the workers' on cpu) cannot change the sum.
    for device in EACH_DEVICE {
        let out = ok(&on(MAIN_JOB, device));
        assert_eq!(out, "y = 3.200003\n", "{device}");
        let y: f64 = out.trim().strip_prefix("y = ").unwrap().parse().unwrap();
        assert!((y - 3.2).abs() < 1e-5);
    }
}

#[test]
fn json_output() {
    for device in EACH_DEVICE {
        json_output_on(device);
    }
}

fn json_output_on(device: &str) {
    let mut args = on(MAIN_JOB, device);
    args.extend([
        "--print", "x", "--print", "y", "--print", "x.grad", "--json",
    ]);
    let out = ok(&args);
    assert!(out.ends_with("}}\n") && out.lines().count() == 1, "{out}");
    let fields = out
        .strip_prefix("{\"fields\": {")
        .and_then(|s| s.split_once("}, \"timings_ms\": {"))
        .map(|(f, _)| f)
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        fields,
        "\"y\": {\"shape\": [], \"data\": [3.200003]}, \
         \"x\": {\"shape\": [16], \"data\": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5]}, \
         \"x.grad\": {\"shape\": [16], \"data\": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]}"
    );
    let timings = out.split("\"timings_ms\": {").nth(1).unwrap();
    let keys: Vec<&str> = timings
        .split(", ")
        .map(|kv| kv.split(':').next().unwrap().trim_matches('"'))
        .collect();
    assert_eq!(
        keys,
        vec![
            "parse",
            "verify",
            "compile",
            "compile_kernel",
            "launch",
            "total"
        ]
    );
}

#[test]
fn every_values_form() {
    let dir = scratch("values");
    let file = write(&dir, "k.mlir", KERNELS.as_bytes());
    // A 2-D ndarray from a list with a shape, a scalar argument, fields from lists and fill().
    let out = ok(&[
        &file,
        "--kernel",
        "scale",
        "--arg",
        "m=1,2,3,4,5,6:3x2",
        "--arg",
        "k=0.5",
        "--set",
        "n=fill(7)",
        "--set",
        "b=true,0",
        "--print",
        "s",
        "--print",
        "n",
        "--print",
        "b",
    ]);
    assert_eq!(
        out,
        "s: shape [3, 2]\ns = [[0.5, 1.0],\n     [1.5, 2.0],\n     [2.5, 3.0]]\nn = [7, 7, 7, 7]\nb = [true, false]\n"
    );
    // fill, arange and linspace need a shape for ndarrays; fields take their own.
    let out = ok(&[
        &file,
        "--kernel",
        "scale",
        "--arg",
        "m=fill(2):3x2",
        "--arg",
        "k=fill(1.5)",
        "--print",
        "s",
    ]);
    assert!(
        out.ends_with("s = [[3.0, 3.0],\n     [3.0, 3.0],\n     [3.0, 3.0]]\n"),
        "{out}"
    );
    let out = ok(&[
        &file,
        "--kernel",
        "scale",
        "--arg",
        "m=arange():3x2",
        "--arg",
        "k=1",
        "--print",
        "s",
    ]);
    assert!(
        out.ends_with("[[0.0, 1.0],\n     [2.0, 3.0],\n     [4.0, 5.0]]\n"),
        "{out}"
    );
    let out = ok(&[
        &file,
        "--kernel",
        "scale",
        "--arg",
        "m=linspace(0,1):3x2",
        "--arg",
        "k=1",
        "--print",
        "s",
    ]);
    assert!(
        out.contains("[0.0, 0.2]") && out.contains("[0.8, 1.0]"),
        "{out}"
    );
    // A 1-D ndarray from a plain list, fields set with arange() and linspace().
    let out = ok(&[
        &file,
        "--kernel",
        "count",
        "--arg",
        "a=10,20,30,40",
        "--set",
        "n=arange()",
        "--set",
        "g=linspace(-1,1)",
        "--set",
        "g.grad=0.25,0.5",
        "--print",
        "n",
        "--print",
        "g",
        "--print",
        "g.grad",
    ]);
    assert_eq!(
        out,
        "n = [10, 21, 32, 43]\ng = [-1.0, 1.0]\ng.grad = [0.25, 0.5]\n"
    );
}

#[test]
fn npy_inputs() {
    let dir = scratch("npy");
    let file = write(&dir, "k.mlir", KERNELS.as_bytes());
    // f64 data converts to the f32 ndarray; its shape comes from the file.
    let m: Vec<u8> = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let m = write(&dir, "m.npy", &npy("<f8", &[3, 2], &m));
    let a: Vec<u8> = [5i32, 6, 7, 8]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let a = write(&dir, "a.npy", &npy("<i4", &[4], &a));
    let k: Vec<u8> = 2.0f32.to_le_bytes().to_vec();
    let k = write(&dir, "k.npy", &npy("<f4", &[], &k));
    let out = ok(&[
        &file,
        "--kernel",
        "scale",
        "--arg",
        &format!("m={m}"),
        "--arg",
        &format!("k={k}"),
        "--print",
        "s",
    ]);
    assert!(
        out.ends_with("[[2.0, 4.0],\n     [6.0, 8.0],\n     [10.0, 12.0]]\n"),
        "{out}"
    );
    // A field from a .npy (1-D for a 1-D field), and an ndarray with its shape restated.
    let out = ok(&[
        &file,
        "--kernel",
        "count",
        "--arg",
        &format!("a={a}:4"),
        "--set",
        &format!("n={a}"),
        "--print",
        "n",
    ]);
    assert_eq!(out, "n = [10, 12, 14, 16]\n");
    // A 2-D field from a flat file of the same size.
    let flat: Vec<u8> = (0..6).flat_map(|x| (x as f32).to_le_bytes()).collect();
    let flat = write(&dir, "flat.npy", &npy("<f4", &[6], &flat));
    let out = ok(&[
        &file,
        "--kernel",
        "noop",
        "--set",
        &format!("s={flat}"),
        "--print",
        "s",
    ]);
    assert!(out.contains("[[0.0, 1.0],"), "{out}");
    // Big-endian data (numpy's '>f4') is byte-swapped on reading.
    let be: Vec<u8> = (0..6)
        .flat_map(|x| (x as f32 * 0.5).to_be_bytes())
        .collect();
    let be = write(&dir, "be.npy", &npy(">f4", &[3, 2], &be));
    let out = ok(&[
        &file,
        "--kernel",
        "noop",
        "--set",
        &format!("s={be}"),
        "--print",
        "s",
    ]);
    assert!(
        out.ends_with("s = [[0.0, 0.5],\n     [1.0, 1.5],\n     [2.0, 2.5]]\n"),
        "{out}"
    );
}

#[test]
fn examples_run_on_the_command_line() {
    for device in EACH_DEVICE {
        let out = ok(&on(&control_flow_steps(), device));
        assert_eq!(out, "steps = [10, 5, 3, 0, 0, 14]\n", "{device}");
    }
    // --shuffle orders the interpreter's threads.
    let out = ok(&[
        "examples/ndarray_bound.mlir",
        "--kernel",
        "compute",
        "--arg",
        "a=0,3,7,1,12,5,0,9",
        "--set",
        "x=linspace(0.1,0.8)",
        "--print",
        "y",
        "--device",
        "interp",
        "--shuffle",
        "3",
    ]);
    let y: f64 = out.trim().strip_prefix("y = ").unwrap().parse().unwrap();
    assert!((y - 4.125743).abs() < 1e-5, "{out}");
}

fn control_flow_steps() -> Vec<&'static str> {
    vec![
        "examples/control_flow.mlir",
        "--kernel",
        "compute",
        "--set",
        "x=0,0.5,1,2.5,12,-0.1",
        "--arg",
        "w=0.5,-1.0,2.0,0.3,-0.2,1.5",
        "--arg",
        "limit=2.0",
        "--print",
        "steps",
    ]
}

#[test]
fn the_device_is_chosen_by_name() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "examples/dynamic_loop.mlir",
            "--kernel",
            "compute",
            "--set",
            "n=3",
            "--set",
            "x=linspace(0,1.5)",
            "--grad",
            "y=1",
            "--print",
            "x.grad",
        ];
        args.extend_from_slice(extra);
        ok(&args)
    };
    // The default is cpu; the interpreter computes the same gradient (one element per thread:
    // no reassociation).
    assert_eq!(DEFAULT_DEVICE, "cpu");
    assert_eq!(run(&["--device", DEFAULT_DEVICE]), run(&[]));
    assert_eq!(run(&["--device", "interp"]), run(&[]));
    // The help lists every registered device with its description (clap wraps long lines:
    // compare with runs of white space as one space).
    let help = qd_run(&["--help"]).stdout;
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for e in qd_devices::all_devices().iter() {
        let desc = e
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(flat.contains(&format!("- {}: {desc}", e.name)), "{help}");
    }
    assert!(flat.contains("[default: cpu]"), "{help}");
}

#[test]
fn help_and_nothing_to_print() {
    let o = qd_run(&["--help"]);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout
            .contains("\nUsage: qd-run FILE.mlir --kernel NAME [--kernel NAME]... [OPTIONS]\n"),
        "{}",
        o.stdout
    );
    let dir = scratch("noop");
    let file = write(&dir, "k.mlir", KERNELS.as_bytes());
    assert_eq!(ok(&[&file, "--kernel", "noop"]), "");
    assert_eq!(
        ok(&[&file, "--kernel", "noop", "--json"])
            .split(", \"timings_ms\"")
            .next(),
        Some("{\"fields\": {}")
    );
}

/// The keys of the `timings_ms` object of a `--json` output, in order, and their values.
fn timings(out: &str) -> Vec<(String, f64)> {
    let json: serde_json::Value =
        serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let values = &json["timings_ms"];
    let part = out.split("\"timings_ms\": {").nth(1).unwrap();
    part.split(", ")
        .map(|kv| kv.split(':').next().unwrap().trim_matches('"').to_string())
        .map(|k| {
            let v = values[&k].as_f64().unwrap_or_else(|| panic!("{k}: {out}"));
            (k, v)
        })
        .collect()
}

fn keys(t: &[(String, f64)]) -> Vec<&str> {
    t.iter().map(|(k, _)| k.as_str()).collect()
}

#[test]
fn repeat_reports_medians_apart_from_compile_times() {
    for device in EACH_DEVICE {
        let mut args = on(MAIN_JOB, device);
        args.extend(["--grad", "y=1", "--print", "x.grad", "--json"]);
        let once = ok(&args);
        let mut repeated = args.clone();
        repeated.extend(["--repeat", "3"]);
        let out = ok(&repeated);
        // The printed fields are the first run's (y, summed by atomic adds, would double in a
        // run from the first run's outputs).
        let fields = |o: &str| o.split(", \"timings_ms\"").next().unwrap().to_string();
        assert_eq!(fields(&out), fields(&once), "{device}");
        let t = timings(&out);
        assert_eq!(
            keys(&t),
            [
                "parse",
                "verify",
                "compile",
                "compile_kernel",
                "compile_grad",
                "launch",
                "autodiff",
                "grad",
                "launch_median",
                "grad_median",
                "total"
            ],
            "{device}: {out}"
        );
        let get = |k: &str| t.iter().find(|(n, _)| n == k).unwrap().1;
        assert!(t.iter().all(|(_, v)| *v >= 0.0), "{out}");
        // compile is the forward kernel's compile plus the gradient's (each rounded to 1 µs).
        assert!(
            (get("compile") - get("compile_kernel") - get("compile_grad")).abs() <= 0.0015,
            "{out}"
        );
        assert!(
            get("total") >= get("compile") + get("launch_median"),
            "{out}"
        );
        // Without --repeat, or with 0: no medians, the keys of today.
        let plain = timings(&once);
        assert!(
            !keys(&plain).iter().any(|k| k.ends_with("_median")),
            "{once}"
        );
        let mut zero = args.clone();
        zero.extend(["--repeat", "0"]);
        let z = ok(&zero);
        assert_eq!(keys(&timings(&z)), keys(&plain), "{z}");
        assert_eq!(fields(&z), fields(&once));
        // Without --grad, only the launch's median.
        let mut fwd = on(MAIN_JOB, device);
        fwd.extend(["--json", "--repeat", "2"]);
        let f = timings(&ok(&fwd));
        assert_eq!(
            keys(&f),
            [
                "parse",
                "verify",
                "compile",
                "compile_kernel",
                "launch",
                "launch_median",
                "total"
            ]
        );
    }
    // The text output does not change.
    let mut text = MAIN_JOB.to_vec();
    text.extend(["--grad", "y=1", "--print", "x.grad", "--report-adstack"]);
    let mut repeated = text.clone();
    repeated.extend(["--repeat", "2"]);
    assert_eq!(ok(&repeated), ok(&text));
}

/// A kernel that counts its launches in @c and reads @a[c]: in range on the first launch only.
const COUNTER: &str = "module {
  qd.field @c : !qd.field<i32>
  qd.field @a : !qd.field<2xf32>
  qd.field @y : !qd.field<f32>
  qd.kernel @count() {
    %v = qd.load @c[] : i32
    %one = arith.constant 1 : i32
    %n = arith.addi %v, %one : i32
    qd.store %n, @c[] : i32
    %x = qd.load @a[%n] : f32
    qd.store %x, @y[] : f32
  }
}
";

#[test]
fn each_repetition_starts_from_the_first_runs_inputs() {
    let dir = scratch("repeat");
    let f = write(&dir, "count.mlir", COUNTER.as_bytes());
    for device in EACH_DEVICE {
        let args = [
            f.as_str(),
            "--kernel",
            "count",
            "--set",
            "a=5,7",
            "--print",
            "c",
            "--print",
            "y",
            "--check-bounds",
            "--device",
            device,
        ];
        assert_eq!(ok(&args), "c = 1\ny = 7.0\n", "{device}");
        // Every repetition reads @a[1]; one from the first run's outputs would read @a[2].
        let mut repeated = args.to_vec();
        repeated.extend(["--repeat", "3"]);
        assert_eq!(ok(&repeated), "c = 1\ny = 7.0\n", "{device}");
    }
}
