//! Running qd-run and writing input files.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The devices that tests of device-dependent behaviour run on: the reference interpreter and
/// the default, compiled `cpu` device (devices.rs compares every registered device).
pub const EACH_DEVICE: &[&str] = &["interp", "cpu"];

/// Runs qd-run with `args` (in the workspace root, so `examples/...` resolves).
pub fn qd_run(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_qd-run"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("qd-run starts");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs qd-run and expects success.
pub fn ok(args: &[&str]) -> String {
    let o = qd_run(args);
    assert_eq!(o.code, 0, "qd-run {args:?} failed:\n{}", o.stderr);
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    o.stdout
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qd-run-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// A version 1.0 .npy file, as `numpy.save` writes it.
pub fn npy(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

/// A kernel file exercising every argument kind: a 2-D f32 ndarray, an i32 ndarray, a scalar.
pub const KERNELS: &str = "module {
  qd.field @s : !qd.field<3x2xf32>
  qd.field @n : !qd.field<4xi32>
  qd.field @g : !qd.field<2xf64> {needs_grad}
  qd.field @b : !qd.field<2xi1>
  qd.kernel @scale(%m: !qd.ndarray<?x?xf32>, %k: f32) {
    qd.struct_for (%i, %j) in @s {
      %v = qd.ndarray_load %m[%i, %j] : !qd.ndarray<?x?xf32>
      %w = arith.mulf %v, %k : f32
      qd.store %w, @s[%i, %j] : f32
    }
  }
  qd.kernel @count(%a: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @n {
      %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
      %old = qd.load @n[%i] : i32
      %s = arith.addi %v, %old : i32
      qd.store %s, @n[%i] : i32
    }
  }
  qd.kernel @noop() {
  }
}
";
