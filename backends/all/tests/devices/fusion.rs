//! Fused elementwise programs (qd-jit: the ndarray dialect, fuse-elementwise, the runtime's
//! gradients) on every device configuration: a broadcast chain ending in reductions, forward
//! against a host reference and gradients against the interpreter's; the detection-loss pattern
//! against the unfused chain on the same device. f32 throughout (vulkan's minimal options have
//! no f64).

use super::common::*;
use qd_jit::losses::detection_loss;
use qd_jit::{jit_compile, Graph, Jit, Tensor};
use qd_runtime::{DType, Ndarray};

fn values(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

fn arr(shape: &[usize], v: &[f64]) -> Ndarray {
    Ndarray::from_f64(DType::F32, shape, v).unwrap()
}

fn close(a: &[f64], b: &[f64], tol: f64, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let scale = 1.0f64.max(x.abs()).max(y.abs());
        assert!((x - y).abs() <= tol * scale, "{what}[{i}]: {x} vs {y}");
    }
}

fn chain(jit: Jit) -> qd_jit::JitFn {
    jit_compile(jit, |[x, w, b]: [Tensor; 3]| {
        let y = ((x * w + b).tanh() - x * 0.5).relu() + x.sigmoid();
        vec![y, y.sum(), y.max_axis(1), y.mean_axis(0)]
    })
}

#[test]
fn a_fused_chain_runs_and_differentiates_alike_everywhere() {
    let (r, c) = (33, 70);
    let xv = values(r * c, 1, -2.0, 2.0);
    let wv = values(c, 2, -1.0, 1.0);
    let bv = values(r, 3, -0.5, 0.5);
    let ins = || vec![arr(&[r, c], &xv), arr(&[1, c], &wv), arr(&[r, 1], &bv)];
    // Host reference of y (inputs as f32 values).
    let f32v = |v: &[f64]| v.iter().map(|&x| x as f32 as f64).collect::<Vec<_>>();
    let (x, w, b) = (f32v(&xv), f32v(&wv), f32v(&bv));
    let y: Vec<f64> = (0..r * c)
        .map(|i| {
            let (row, col) = (i / c, i % c);
            let v = ((x[i] * w[col] + b[row]).tanh() - x[i] * 0.5).max(0.0);
            v + 1.0 / (1.0 + (-x[i]).exp())
        })
        .collect();
    let seeds = |f: &mut qd_jit::JitFn| -> Vec<Ndarray> {
        let sig: Vec<_> = ins()
            .iter()
            .map(|a| (a.shape().to_vec(), a.dtype()))
            .collect();
        let e = f.executable(&sig).unwrap();
        e.plan
            .outputs
            .iter()
            .enumerate()
            .map(|(k, &s)| {
                let shape = e.plan.slots[s].0.clone();
                let n = shape.iter().product();
                arr(&shape, &values(n, 10 + k as u64, -1.0, 1.0))
            })
            .collect()
    };
    let mut reference = chain(Jit::new("interp").unwrap());
    let s = seeds(&mut reference);
    let (want, want_g) = reference.call_with_grad(ins(), &s).unwrap();
    close(&want[0].to_f64_vec(), &y, 1e-5, "interp y vs host");
    for config in configs() {
        if config.device().is_none() {
            continue;
        }
        let mut f = chain(Jit::with_factory(config.label, Box::new(config.factory())));
        let (out, g) = f
            .call_with_grad(ins(), &s)
            .unwrap_or_else(|e| panic!("{}: {e}", config.label));
        for (k, (a, b)) in out.iter().zip(&want).enumerate() {
            close(
                &a.to_f64_vec(),
                &b.to_f64_vec(),
                1e-4,
                &format!("{}: output {k}", config.label),
            );
        }
        for (k, (a, b)) in g.iter().zip(&want_g).enumerate() {
            close(
                &a.to_f64_vec(),
                &b.to_f64_vec(),
                1e-4,
                &format!("{}: d input {k}", config.label),
            );
        }
    }
}

#[test]
fn the_detection_loss_pattern_matches_the_unfused_chain_everywhere() {
    let n = 3000;
    let mut g = Graph::new();
    let v: Vec<_> = (0..4).map(|_| g.input(&[n], DType::F32)).collect();
    let l = detection_loss(&mut g, v[0], v[1], v[2], v[3]);
    g.output(l);
    let ins = || {
        vec![
            arr(&[n], &values(n, 1, -3.0, 3.0)),
            arr(&[n], &values(n, 2, -3.0, 3.0)),
            arr(&[n], &values(n, 3, 0.0, 2.0)),
            arr(&[n], &values(n, 4, 0.0, 2.0)),
        ]
    };
    let seed = [arr(&[], &[1.0])];
    for config in configs() {
        if config.device().is_none() {
            continue;
        }
        let mut fused = Jit::with_factory(config.label, Box::new(config.factory()));
        let mut unfused = Jit::with_factory(config.label, Box::new(config.factory())).unfused();
        let e = fused.compile(&g).unwrap();
        assert!(e.ir.contains("detection_loss"), "{}", config.label);
        let (a, ag) = e.run_with_grad(ins(), &seed).unwrap();
        let (b, bg) = unfused
            .compile(&g)
            .unwrap()
            .run_with_grad(ins(), &seed)
            .unwrap();
        close(&a[0].to_f64_vec(), &b[0].to_f64_vec(), 1e-4, config.label);
        for (k, (x, y)) in ag.iter().zip(&bg).enumerate() {
            close(
                &x.to_f64_vec(),
                &y.to_f64_vec(),
                1e-5,
                &format!("{}: d input {k}", config.label),
            );
        }
    }
}

#[test]
fn a_one_kernel_chain_writes_its_adjoints_alike_everywhere() {
    // One kernel: x and w (same shape) have their adjoints written by the gradient, b (1, c) is
    // broadcast and accumulates. Two backwards with different seeds on one binding, then the first
    // seed again: each gives the interpreter's gradients (no stale values).
    let (r, c) = (9, 37);
    let (xv, wv, bv) = (
        values(r * c, 1, -2.0, 2.0),
        values(r * c, 2, -1.0, 1.0),
        values(c, 3, -0.5, 0.5),
    );
    let ins = || vec![arr(&[r, c], &xv), arr(&[r, c], &wv), arr(&[1, c], &bv)];
    let seeds: Vec<Ndarray> = (0..2)
        .map(|k| arr(&[r, c], &values(r * c, 20 + k, -1.0, 1.0)))
        .collect();
    let f = |[x, w, b]: [Tensor; 3]| ((x * w + b).relu() - x * 0.25).sigmoid();
    let mut reference = jit_compile(Jit::new("interp").unwrap(), f);
    let want: Vec<Vec<Ndarray>> = seeds
        .iter()
        .map(|s| {
            reference
                .call_with_grad(ins(), std::slice::from_ref(s))
                .unwrap()
                .1
        })
        .collect();
    let sig: Vec<_> = ins()
        .iter()
        .map(|a| (a.shape().to_vec(), a.dtype()))
        .collect();
    for config in configs() {
        if config.device().is_none() {
            continue;
        }
        let mut jf = jit_compile(
            Jit::with_factory(config.label, Box::new(config.factory())),
            f,
        );
        let e = jf.executable(&sig).unwrap();
        assert_eq!(e.plan.steps.len(), 1, "{}", config.label);
        assert_eq!(
            e.written_in_full[..3],
            [true, true, false],
            "{}",
            config.label
        );
        let mut b = e.bind(ins()).unwrap();
        for k in [0, 1, 0] {
            e.forward(&b).unwrap();
            e.backward(&mut b, std::slice::from_ref(&seeds[k]))
                .unwrap_or_else(|err| panic!("{}: {err}", config.label));
            for (i, w) in want[k].iter().enumerate() {
                close(
                    &e.grad(&mut b, i).unwrap().to_f64_vec(),
                    &w.to_f64_vec(),
                    1e-4,
                    &format!("{}: seed {k}, d input {i}", config.label),
                );
            }
        }
        // Seeds set once, bound as the output's adjoint by each backward.
        assert!(e.seeds_bound, "{}", config.label);
        e.set_seeds(&mut b, std::slice::from_ref(&seeds[1]))
            .unwrap();
        for _ in 0..2 {
            e.forward(&b).unwrap();
            e.backward_seeded(&mut b).unwrap();
            for (i, w) in want[1].iter().enumerate() {
                close(
                    &e.grad(&mut b, i).unwrap().to_f64_vec(),
                    &w.to_f64_vec(),
                    1e-4,
                    &format!("{}: set seed, d input {i}", config.label),
                );
            }
        }
        e.release(b);
    }
}
