//! Running an [`Executable`]: a [`Binding`] holds one ndarray per slot in the program (inputs,
//! intermediates, outputs), made once; [`Executable::forward`] launches the plan on it,
//! [`Executable::backward`] the gradient kernels in reverse order, adjoints flowing slot to slot;
//! [`Executable::set_seeds`] gives the seeds once for every [`Executable::backward_seeded`].

use crate::compile::Executable;
use crate::host_copy::copy_storage;
use qd_runtime::{Arg, Ndarray, NdarrayId, Storage};

/// One call's ndarrays in the program, by slot.
pub struct Binding {
    pub ids: Vec<NdarrayId>,
    /// Adjoint ndarrays by slot, made by the first backward.
    pub adjoints: Vec<Option<NdarrayId>>,
    /// The seeds of [`Executable::set_seeds`], by output.
    pub seeds: Vec<Option<NdarrayId>>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

impl Executable {
    /// Checks `inputs` against the plan and puts them and a zeroed ndarray for every other slot
    /// in the program (ndarrays are flat: kernels index them with one index).
    pub fn bind(&mut self, inputs: Vec<Ndarray>) -> Result<Binding, String> {
        if inputs.len() != self.plan.num_inputs {
            return Err(format!(
                "expects {} inputs, got {}",
                self.plan.num_inputs,
                inputs.len()
            ));
        }
        let mut ids = Vec::with_capacity(self.plan.slots.len());
        for (i, a) in inputs.into_iter().enumerate() {
            let (shape, dtype) = &self.plan.slots[i];
            if a.shape() != shape.as_slice() || a.dtype() != *dtype {
                return Err(format!(
                    "input {i}: expects {dtype} of shape {shape:?}, got {} of shape {:?}",
                    a.dtype(),
                    a.shape()
                ));
            }
            let n = a.len();
            let flat = Ndarray::new(&[n], a.data().clone()).map_err(err)?;
            ids.push(self.program.add_ndarray(flat));
        }
        for (shape, dtype) in &self.plan.slots[self.plan.num_inputs..] {
            let n = shape.iter().product::<usize>();
            ids.push(
                self.program
                    .add_ndarray(Ndarray::zeros(*dtype, &[n]).map_err(err)?),
            );
        }
        let adjoints = vec![None; ids.len()];
        let seeds = vec![None; self.plan.outputs.len()];
        Ok(Binding {
            ids,
            adjoints,
            seeds,
        })
    }

    /// Replaces the data of input `i` of `b` (same dtype and shape).
    pub fn set_input(&mut self, b: &Binding, i: usize, a: &Ndarray) -> Result<(), String> {
        let (shape, dtype) = &self.plan.slots[i];
        if a.shape() != shape.as_slice() || a.dtype() != *dtype {
            return Err(format!("input {i}: expects {dtype} of shape {shape:?}"));
        }
        *self.program.ndarray_mut(b.ids[i]).map_err(err)?.data_mut() = a.data().clone();
        Ok(())
    }

    /// Launches every step of the plan, then syncs.
    pub fn forward(&mut self, b: &Binding) -> Result<(), String> {
        for s in &self.plan.steps {
            let k = self.program.kernel(&s.kernel).map_err(err)?;
            let args: Vec<Arg> = s
                .inputs
                .iter()
                .chain(&s.outputs)
                .map(|&i| Arg::Ndarray(b.ids[i]))
                .collect();
            self.program.launch(k, &args).map_err(err)?;
        }
        self.sync()
    }

    fn sync(&mut self) -> Result<(), String> {
        self.program.sync().map_err(|es| {
            es.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
    }

    fn adjoint(&mut self, b: &mut Binding, slot: usize) -> Result<NdarrayId, String> {
        if let Some(id) = b.adjoints[slot] {
            return Ok(id);
        }
        let (shape, dtype) = &self.plan.slots[slot];
        let n = shape.iter().product::<usize>();
        let id = self
            .program
            .add_ndarray(Ndarray::zeros(*dtype, &[n]).map_err(err)?);
        b.adjoints[slot] = Some(id);
        Ok(id)
    }

    /// Runs the gradient kernels after a [`Executable::forward`] of `b`: output `k`'s adjoint is
    /// `seeds[k]` (its shape; the sum of the seeds of an output returned twice); every other
    /// adjoint starts at zero, so each call gives fresh gradients. Read the inputs' gradients
    /// with [`Executable::grad`].
    pub fn backward(&mut self, b: &mut Binding, seeds: &[Ndarray]) -> Result<(), String> {
        self.check_seeds(seeds)?;
        self.zero_adjoints(b)?;
        let mut seeded = vec![false; self.plan.slots.len()];
        for (k, s) in seeds.iter().enumerate() {
            let slot = self.plan.outputs[k];
            let id = self.adjoint(b, slot)?;
            let add = std::mem::replace(&mut seeded[slot], true);
            let nd = self.program.ndarray_mut(id).map_err(err)?;
            write_seed(nd, s, add)?;
        }
        self.run_gradients(b, false)
    }

    /// Sets the seeds of `b` for [`Executable::backward_seeded`] (copied once, as
    /// [`Executable::bind`] copies the inputs), until set again.
    pub fn set_seeds(&mut self, b: &mut Binding, seeds: &[Ndarray]) -> Result<(), String> {
        self.check_seeds(seeds)?;
        for (k, s) in seeds.iter().enumerate() {
            let id = match b.seeds[k] {
                Some(id) => id,
                None => {
                    let (shape, dtype) = &self.plan.slots[self.plan.outputs[k]];
                    let n = shape.iter().product::<usize>();
                    let id = self
                        .program
                        .add_ndarray(Ndarray::zeros(*dtype, &[n]).map_err(err)?);
                    b.seeds[k] = Some(id);
                    id
                }
            };
            write_seed(self.program.ndarray_mut(id).map_err(err)?, s, false)?;
        }
        Ok(())
    }

    /// [`Executable::backward`] with the seeds of the last [`Executable::set_seeds`] of `b`.
    /// Where the gradient only reads the outputs' adjoints ([`Executable::seeds_bound`]: a fused
    /// chain of one kernel), the seeds are those adjoints and nothing is copied; else they are
    /// copied into them.
    pub fn backward_seeded(&mut self, b: &mut Binding) -> Result<(), String> {
        if b.seeds.iter().any(Option::is_none) {
            return Err("no seeds: call set_seeds first".into());
        }
        self.zero_adjoints(b)?;
        if self.seeds_bound {
            return self.run_gradients(b, true);
        }
        let mut seeded = vec![false; self.plan.slots.len()];
        for k in 0..self.plan.outputs.len() {
            let slot = self.plan.outputs[k];
            let id = self.adjoint(b, slot)?;
            let sid = b.seeds[k].expect("checked above");
            // Out of the program while it is read (two of its ndarrays cannot be borrowed at
            // once), then back under a new id.
            let s = self.program.remove_ndarray(sid).map_err(err)?;
            let add = std::mem::replace(&mut seeded[slot], true);
            let r = self
                .program
                .ndarray_mut(id)
                .map_err(err)
                .and_then(|nd| write_seed(nd, &s, add));
            b.seeds[k] = Some(self.program.add_ndarray(s));
            r?;
        }
        self.run_gradients(b, false)
    }

    fn check_seeds(&self, seeds: &[Ndarray]) -> Result<(), String> {
        if seeds.len() != self.plan.outputs.len() {
            return Err(format!(
                "expects {} seeds, got {}",
                self.plan.outputs.len(),
                seeds.len()
            ));
        }
        for (k, s) in seeds.iter().enumerate() {
            let n = self.plan.slots[self.plan.outputs[k]]
                .0
                .iter()
                .product::<usize>();
            if s.len() != n {
                return Err(format!("seed {k}: expects {n} elements, got {}", s.len()));
            }
        }
        Ok(())
    }

    /// Zeroes the adjoints a backward accumulates into; those written in full before they are
    /// read (seeds, overwritten inputs) keep their last contents.
    fn zero_adjoints(&mut self, b: &Binding) -> Result<(), String> {
        for (slot, id) in b.adjoints.iter().enumerate() {
            if let (Some(id), false) = (id, self.written_in_full[slot]) {
                zero_in_place(self.program.ndarray_mut(*id).map_err(err)?.data_mut());
            }
        }
        Ok(())
    }

    /// Launches the gradient kernels in reverse order, then syncs; `bound`: the outputs'
    /// adjoints are `b`'s seeds ([`Executable::seeds_bound`]).
    fn run_gradients(&mut self, b: &mut Binding, bound: bool) -> Result<(), String> {
        let steps = self.plan.steps.clone();
        for s in steps.iter().rev() {
            let g = self.program.gradient(&s.kernel).map_err(err)?;
            let slots: Vec<usize> = s.inputs.iter().chain(&s.outputs).copied().collect();
            let args: Vec<Arg> = slots.iter().map(|&i| Arg::Ndarray(b.ids[i])).collect();
            let mut adj = Vec::new();
            for (&slot, &active) in slots.iter().zip(&g.activity) {
                if !active {
                    continue;
                }
                let seed = self.plan.outputs.iter().position(|&o| o == slot);
                adj.push(match (bound, seed) {
                    (true, Some(k)) => b.seeds[k].ok_or("no seeds: call set_seeds first")?,
                    _ => self.adjoint(b, slot)?,
                });
            }
            self.program
                .launch_grad_with(&g, &args, &adj)
                .map_err(err)?;
        }
        self.sync()
    }

    /// Input `i`'s gradient after [`Executable::backward`] of `b`, in its shape.
    pub fn grad(&mut self, b: &mut Binding, i: usize) -> Result<Ndarray, String> {
        let id = self.adjoint(b, i)?;
        let (shape, _) = &self.plan.slots[i];
        let nd = self.program.ndarray(id).map_err(err)?;
        Ndarray::new(shape, nd.data().clone()).map_err(err)
    }

    /// Output `k` of the last forward of `b`, in its shape.
    pub fn output(&self, b: &Binding, k: usize) -> Result<Ndarray, String> {
        let slot = self.plan.outputs[k];
        let nd = self.program.ndarray(b.ids[slot]).map_err(err)?;
        let shape = &self.plan.slots[slot].0;
        if self.plan.bool_outputs[k] {
            let v: Vec<f64> = nd
                .to_f64_vec()
                .iter()
                .map(|&x| f64::from(x != 0.0))
                .collect();
            return Ndarray::from_f64(qd_runtime::DType::I1, shape, &v).map_err(err);
        }
        Ndarray::new(shape, nd.data().clone()).map_err(err)
    }

    /// Frees every ndarray of `b`.
    pub fn release(&mut self, b: Binding) {
        let owned = b.adjoints.into_iter().chain(b.seeds).flatten();
        for id in b.ids.into_iter().chain(owned) {
            let _ = self.program.remove_ndarray(id);
        }
    }

    /// One call: bind, forward, read the outputs, free.
    pub fn run(&mut self, inputs: Vec<Ndarray>) -> Result<Vec<Ndarray>, String> {
        let b = self.bind(inputs)?;
        let r = self.forward(&b).and_then(|()| {
            (0..self.plan.outputs.len())
                .map(|k| self.output(&b, k))
                .collect()
        });
        self.release(b);
        r
    }

    /// One call with gradients: the outputs and each input's adjoint given the outputs' seeds.
    pub fn run_with_grad(
        &mut self,
        inputs: Vec<Ndarray>,
        seeds: &[Ndarray],
    ) -> Result<(Vec<Ndarray>, Vec<Ndarray>), String> {
        let mut b = self.bind(inputs)?;
        let r = self.forward(&b).and_then(|()| {
            let outs: Vec<Ndarray> = (0..self.plan.outputs.len())
                .map(|k| self.output(&b, k))
                .collect::<Result<_, _>>()?;
            self.backward(&mut b, seeds)?;
            let grads = (0..self.plan.num_inputs)
                .map(|i| self.grad(&mut b, i))
                .collect::<Result<_, _>>()?;
            Ok((outs, grads))
        });
        self.release(b);
        r
    }
}

/// Writes `s` into `nd` (same length), or adds it to what `nd` holds when `add` (an output
/// returned twice gets the sum of its seeds).
fn write_seed(nd: &mut Ndarray, s: &Ndarray, add: bool) -> Result<(), String> {
    if add || !copy_storage(nd.data_mut(), s.data()) {
        let dtype = nd.dtype();
        for i in 0..s.len() {
            let mut v = s.data().get_f64(i).unwrap_or(0.0);
            if add {
                v += nd.data().get_f64(i).unwrap_or(0.0);
            }
            let x = qd_runtime::Scalar::from_f64(dtype, v).map_err(err)?;
            nd.data_mut().set(i, x).map_err(err)?;
        }
    }
    Ok(())
}

/// Zeroes `s` where it is (a fresh zeroed buffer would be faulted in again by the next kernel).
fn zero_in_place(s: &mut Storage) {
    match s {
        Storage::F32(v) => v.fill(0.0),
        Storage::F64(v) => v.fill(0.0),
        Storage::I32(v) => v.fill(0),
        other => other.fill_zero(),
    }
}
