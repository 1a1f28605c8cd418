//! `--save FIELD=PATH.npy`: fields, adjoints and ndarray adjoints written as .npy files of their
//! own element type and shape, read back here with npyz (and with NumPy where it is installed).

use super::common::*;
use std::path::Path;

/// The header and data of a .npy file, read with npyz.
fn load<T: npyz::Deserialize>(path: &str) -> (String, Vec<u64>, Vec<T>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let f = npyz::NpyFile::new(&bytes[..]).unwrap();
    assert_eq!(f.order(), npyz::Order::C);
    let (descr, shape) = (f.dtype().descr(), f.shape().to_vec());
    (descr, shape, f.into_vec().unwrap())
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

#[test]
fn fields_round_trip_with_their_type_and_shape() {
    let dir = scratch("save-fields");
    let file = write(&dir, "k.mlir", KERNELS.as_bytes());
    let (s, n, b, g, gg) = (
        path(&dir, "s.npy"),
        path(&dir, "n.npy"),
        path(&dir, "b.npy"),
        path(&dir, "g.npy"),
        path(&dir, "g_grad.npy"),
    );
    let out = ok(&[
        &file,
        "--kernel",
        "scale",
        "--arg",
        "m=1,2,3,4,5,6:3x2",
        "--arg",
        "k=0.1",
        "--set",
        "n=fill(-7)",
        "--set",
        "b=true,false",
        "--set",
        "g=linspace(-1,1)",
        "--set",
        "g.grad=0.25,0.5",
        "--save",
        &format!("s={s}"),
        "--save",
        &format!("n={n}"),
        "--save",
        &format!("b={b}"),
        "--save",
        &format!("g={g}"),
        "--save",
        &format!("g.grad={gg}"),
        "--print",
        "s",
        "--json",
    ]);
    let (descr, shape, data) = load::<f32>(&s);
    assert_eq!(
        (descr.as_str(), shape.as_slice()),
        ("'<f4'", &[3u64, 2][..])
    );
    // Bit for bit what --json prints (an f32 in JSON reads back as the same f32).
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let printed: Vec<f32> = json["fields"]["s"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    assert_eq!(data, printed);
    assert_eq!(data[0], 0.1f32);
    assert_eq!(load::<i32>(&n), ("'<i4'".into(), vec![4], vec![-7; 4]));
    assert_eq!(
        load::<bool>(&b),
        ("'|b1'".into(), vec![2], vec![true, false])
    );
    assert_eq!(load::<f64>(&g), ("'<f8'".into(), vec![2], vec![-1.0, 1.0]));
    assert_eq!(load::<f64>(&gg), ("'<f8'".into(), vec![2], vec![0.25, 0.5]));
    // qd-run reads its own files back.
    let again = ok(&[
        &file,
        "--kernel",
        "noop",
        "--set",
        &format!("s={s}"),
        "--set",
        &format!("b={b}"),
        "--print",
        "s",
        "--print",
        "b",
        "--json",
    ]);
    let again: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(again["fields"]["s"], json["fields"]["s"]);
    assert_eq!(
        again["fields"]["b"]["data"],
        serde_json::json!([true, false])
    );
}

#[test]
fn gradients_are_saved_after_the_gradient_kernel() {
    let dir = scratch("save-grad");
    let (xg, y) = (path(&dir, "x_grad.npy"), path(&dir, "y.npy"));
    let out = ok(&[
        "examples/dynamic_loop.mlir",
        "--kernel",
        "compute",
        "--set",
        "n=512",
        "--set",
        "x=linspace(0,1.5)",
        "--grad",
        "y=1",
        "--save",
        &format!("x.grad={xg}"),
        "--save",
        &format!("y={y}"),
        "--print",
        "x.grad",
    ]);
    let (descr, shape, g) = load::<f32>(&xg);
    assert_eq!((descr.as_str(), shape.as_slice()), ("'<f4'", &[16u64][..]));
    let want = 0.95f64.powi(512);
    for &v in &g {
        assert!(((v as f64 - want) / want).abs() < 1e-4, "{v} vs {want}");
    }
    let printed: Vec<String> = g.iter().map(|v| format!("{v:?}")).collect();
    assert_eq!(out, format!("x.grad = [{}]\n", printed.join(", ")));
    let (_, shape, y) = load::<f32>(&y);
    assert_eq!((shape.len(), y.len()), (0, 1));
    assert!((y[0] as f64 - 3.2).abs() < 1e-5, "{y:?}");
    // The adjoint ndarray of an active ndarray parameter, as --print NAME.grad.
    let wg = path(&dir, "w_grad.npy");
    let out = ok(&[
        "examples/control_flow.mlir",
        "--kernel",
        "compute",
        "--arg",
        "w=0.5,-1,0.25,0.1",
        "--arg",
        "limit=2.0",
        "--set",
        "x=linspace(0,1.5)",
        "--grad",
        "y=1",
        "--save",
        &format!("w.grad={wg}"),
        "--print",
        "w.grad",
    ]);
    let (descr, shape, w) = load::<f32>(&wg);
    assert_eq!((descr.as_str(), shape.as_slice()), ("'<f4'", &[4u64][..]));
    let printed: Vec<String> = w.iter().map(|v| format!("{v:?}")).collect();
    assert_eq!(out, format!("w.grad = [{}]\n", printed.join(", ")));
}

#[test]
fn numpy_loads_saved_files_when_installed() {
    let numpy = std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !numpy {
        eprintln!("numpy_loads_saved_files_when_installed: no python3 with numpy; skipped");
        return;
    }
    let dir = scratch("save-numpy");
    let file = write(&dir, "k.mlir", KERNELS.as_bytes());
    let s = path(&dir, "s.npy");
    ok(&[
        &file,
        "--kernel",
        "scale",
        "--arg",
        "m=arange():3x2",
        "--arg",
        "k=0.5",
        "--save",
        &format!("s={s}"),
    ]);
    let check = format!(
        "import numpy as np; a = np.load({s:?}); \
         assert a.dtype == np.float32 and a.shape == (3, 2), (a.dtype, a.shape); \
         assert (a == np.arange(6, dtype=np.float32).reshape(3, 2) * 0.5).all(), a"
    );
    let o = std::process::Command::new("python3")
        .args(["-c", &check])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn bad_saves_exit_1_before_running() {
    let dir = scratch("save-errors");
    let file = write(&dir, "k.mlir", KERNELS.as_bytes());
    let good = path(&dir, "good.npy");
    for (i, (save, want)) in [
        (
            "z=out.npy".to_string(),
            "qd-run: error: --save z: unknown field 'z'".to_string(),
        ),
        ("s.grad=out.npy".to_string(), "--save s.grad: ".to_string()),
        (
            "m.grad=out.npy".to_string(),
            "--save m.grad: unknown field".to_string(),
        ),
        (
            format!("s={}", path(&dir, "no/such/dir/s.npy")),
            format!(
                "--save s: cannot write '{}'",
                path(&dir, "no/such/dir/s.npy")
            ),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let o = qd_run(&[
            &file,
            "--kernel",
            "scale",
            "--arg",
            "m=fill(1):3x2",
            "--arg",
            "k=1",
            "--save",
            &format!("n={good}"),
            "--save",
            &save,
        ]);
        assert_eq!(o.code, 1, "{save}: {}", o.stderr);
        assert!(o.stdout.is_empty(), "{save}: {}", o.stdout);
        assert!(o.stderr.contains(&want), "{save}: {}", o.stderr);
        // Names are checked before the run: nothing is written for a bad name. A file that
        // cannot be written fails after the ones before it.
        assert_eq!(Path::new(&good).exists(), i == 3, "{save}");
    }
}
