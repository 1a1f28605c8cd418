//! [`Tape`]: a sequence of kernel launches differentiated as a whole, as the peer's `ad.Tape`
//! (Quadrants, Taichi) does: the forward launches run in order as they are recorded; the
//! backward pass runs each launch's gradient kernel, last to first, and the adjoints flow from
//! one gradient launch to the one before through the fields' adjoints (`x.grad`) and the
//! ndarrays' adjoint ndarrays, which the tape keeps, one per primal ndarray.
//!
//! ```ignore
//! let mut tape = Tape::new();
//! tape.launch(&mut p, "scatter", &[Arg::Ndarray(a), Arg::Ndarray(b)])?;   // runs now
//! tape.launch(&mut p, "reduce", &[Arg::Ndarray(b)])?;
//! p.write_f64("loss.grad", &[1.0])?;                  // seed the outputs' adjoints: fields,
//! tape.seed(&mut p, b, &[0.0, 1.0, 0.0])?;            // and ndarrays (zero when not seeded)
//! tape.backward(&mut p)?;                             // reduce_grad, then scatter_grad
//! let da = p.ndarray(tape.adjoint(&mut p, a)?)?.to_f64_vec();
//! ```
//!
//! # Exactness: snapshots of what each launch overwrites
//! A gradient kernel replays its forward pass from memory as its forward launch left it. When
//! a later launch overwrote primal data that an earlier one reads (a field, an ndarray, a
//! trip-count field), replaying the earlier gradient on the final memory would be wrong. So
//! before each recorded launch but the first, the tape copies that launch's *write set*: every
//! field the kernel stores or atomically updates and every ndarray argument it writes (computed
//! once per kernel from its IR, [`write_set`]). The backward pass, after launch k's gradient,
//! puts that copy back, so launch k-1's gradient sees exactly the memory launch k-1 left. Each
//! gradient launch sizes its adstacks from that restored memory ([`crate::Program::launch`]), so
//! a trip-count field changed between two launches of one kernel gives each gradient launch its
//! own stack depths ([`Tape::gradient_plan`]). When the backward pass ends, the primal data is
//! put back as the last forward launch left it.
//!
//! Host writes of primal data between recorded launches are not undone: a gradient launch sees
//! them. Seed adjoints (fields' `x.grad`, [`Tape::seed`] for ndarrays) after the last launch and
//! before [`Tape::backward`]. Gradient kernels accumulate into the adjoints of what their kernels
//! read, and a store's gradient zeroes the adjoint of the element it overwrote; clear the
//! adjoints ([`crate::Program::clear_grads`], [`Tape::clear_adjoints`]) and seed again before a
//! second backward pass.
//!
//! # Memory cost
//! The first recorded launch costs nothing (no gradient before it needs its inputs back). Every
//! later launch keeps a copy of the whole of each field and ndarray in its write set (element
//! granularity is not known before the kernel runs), held until the tape is dropped or
//! [`Tape::clear`]ed; the backward pass holds one more copy of the union of those write sets (the
//! final primal data, put back at its end). Each recorded launch after the first also syncs the
//! program first (the copy must hold what the device computed). The adjoint ndarrays are as
//! large as their primals; [`Tape::release`] frees them.

use crate::adstack::AdstackPlan;
use crate::device::Arg;
use crate::error::{Error, RuntimeError};
use crate::grad::GradientKernel;
use crate::memory::Storage;
use crate::ndarray::{Ndarray, NdarrayId};
use crate::program::{KernelId, Program};
use qd_frontend::{global_write, KernelOp, WriteTarget};
use qd_ir::Context;
use std::collections::HashMap;
use std::fmt;

/// What a kernel may write: fields (by index in the program's memory) and ndarray parameters
/// (by position).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct WriteSet {
    pub fields: Vec<usize>,
    pub params: Vec<usize>,
}

/// The write set of `kernel`: the fields and ndarray parameters its global writes
/// (`qd_frontend::global_write`: stores and atomics of fields and ndarrays, the writes the
/// access rule of reverse-mode-ad reasons about) target. Fields are resolved with `field_index`
/// (a name it does not know is skipped: the verifier rejects it).
pub fn write_set(
    ctx: &Context,
    kernel: KernelOp,
    field_index: &dyn Fn(&str) -> Option<usize>,
) -> WriteSet {
    let args = kernel.args(ctx);
    let mut w = WriteSet::default();
    for op in ctx.walk_pre_order(kernel.0) {
        match global_write(ctx, op).map(|g| g.target) {
            Some(WriteTarget::Field(f)) => w.fields.extend(field_index(f)),
            Some(WriteTarget::Ndarray(a)) => w.params.extend(args.iter().position(|&x| x == a)),
            None => {}
        }
    }
    for v in [&mut w.fields, &mut w.params] {
        v.sort_unstable();
        v.dedup();
    }
    w
}

/// Why a tape operation failed: refused by the API (nothing ran), or errors of launches that
/// ran, reported by the sync the tape needed.
#[derive(Clone, PartialEq, Debug)]
pub enum TapeError {
    Api(Error),
    Runtime(Vec<RuntimeError>),
}

impl From<Error> for TapeError {
    fn from(e: Error) -> Self {
        TapeError::Api(e)
    }
}

impl fmt::Display for TapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TapeError::Api(e) => write!(f, "{e}"),
            TapeError::Runtime(errors) => {
                let msgs: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                f.write_str(&msgs.join("; "))
            }
        }
    }
}

impl std::error::Error for TapeError {}

/// Copies of primal buffers, to put back.
#[derive(Clone, Debug, Default)]
struct Snapshot {
    fields: Vec<(usize, Storage)>,
    ndarrays: Vec<(NdarrayId, Storage)>,
}

impl Snapshot {
    fn take(p: &Program, fields: &[usize], ndarrays: &[NdarrayId]) -> Result<Snapshot, Error> {
        let mem = p.memory();
        let mut s = Snapshot::default();
        for &i in fields {
            s.fields.push((i, mem.field(i).value.clone()));
        }
        for &id in ndarrays {
            if !s.ndarrays.iter().any(|(j, _)| *j == id) {
                s.ndarrays.push((id, p.ndarray(id)?.data().clone()));
            }
        }
        Ok(s)
    }

    fn restore(&self, p: &mut Program) -> Result<(), Error> {
        for (i, data) in &self.fields {
            let name = p.memory().field(*i).info.name.clone();
            p.write(&name, data.clone())?;
        }
        for (id, data) in &self.ndarrays {
            *p.ndarray_mut(*id)?.data_mut() = data.clone();
        }
        Ok(())
    }

    fn bytes(&self) -> usize {
        let fields = self.fields.iter().map(|(_, s)| storage_bytes(s));
        let arrays = self.ndarrays.iter().map(|(_, s)| storage_bytes(s));
        fields.chain(arrays).sum()
    }
}

fn storage_bytes(s: &Storage) -> usize {
    s.len() * s.dtype().size_bytes()
}

/// One recorded launch.
#[derive(Clone, Debug)]
struct Recorded {
    kernel: KernelId,
    gradient: GradientKernel,
    args: Vec<Arg>,
    /// Its write set's ndarrays and fields before it ran (None for the first launch).
    before: Option<Snapshot>,
    write_fields: Vec<usize>,
    write_arrays: Vec<NdarrayId>,
    forward_plan: Option<AdstackPlan>,
    gradient_plan: Option<AdstackPlan>,
}

/// A recorded sequence of launches and the adjoint ndarrays of their ndarray arguments; see the
/// module documentation.
#[derive(Clone, Debug, Default)]
pub struct Tape {
    launches: Vec<Recorded>,
    /// (primal, adjoint), in the order the adjoints were made.
    adjoints: Vec<(NdarrayId, NdarrayId)>,
    write_sets: HashMap<KernelId, WriteSet>,
}

impl Tape {
    pub fn new() -> Tape {
        Tape::default()
    }

    /// Makes (on first use) and compiles the gradient of kernel `name`, then launches `name` on
    /// `args` and records the launch. Before every launch but the first, the program is synced
    /// (runtime errors of earlier launches come back here as [`TapeError::Runtime`]) and the
    /// launch's write set is copied. A launch the API refuses runs nothing and is not recorded.
    pub fn launch(&mut self, p: &mut Program, name: &str, args: &[Arg]) -> Result<(), TapeError> {
        let gradient = p.gradient(name)?;
        let kernel = p.kernel(name)?;
        // The argument checks, before anything is copied or runs.
        p.adstack_plan(kernel, args)?;
        crate::grad::distinct_ndarrays(name, args)?;
        let ws = self.write_set_of(p, kernel)?;
        let write_arrays: Vec<NdarrayId> = ws
            .params
            .iter()
            .filter_map(|&i| match args.get(i) {
                Some(Arg::Ndarray(id)) => Some(*id),
                _ => None,
            })
            .collect();
        let before = if self.launches.is_empty() {
            None
        } else {
            p.sync().map_err(TapeError::Runtime)?;
            Some(Snapshot::take(p, &ws.fields, &write_arrays)?)
        };
        p.launch(kernel, args)?;
        self.launches.push(Recorded {
            kernel,
            gradient,
            args: args.to_vec(),
            before,
            write_fields: ws.fields,
            write_arrays,
            forward_plan: p.last_adstack_plan(kernel).cloned(),
            gradient_plan: None,
        });
        Ok(())
    }

    fn write_set_of(&mut self, p: &Program, k: KernelId) -> Result<WriteSet, Error> {
        if let Some(w) = self.write_sets.get(&k) {
            return Ok(w.clone());
        }
        let op = p
            .kernel_op(k)
            .and_then(|op| KernelOp::from_op(p.context(), op))
            .ok_or_else(|| Error::Value(format!("kernel #{} is not compiled", k.0)))?;
        let mem = p.memory();
        let w = write_set(p.context(), op, &|f| mem.field_index(f));
        self.write_sets.insert(k, w.clone());
        Ok(w)
    }

    /// How many launches are recorded.
    pub fn len(&self) -> usize {
        self.launches.len()
    }
    pub fn is_empty(&self) -> bool {
        self.launches.is_empty()
    }
    /// The kernel of recorded launch `i`.
    pub fn kernel(&self, i: usize) -> Option<KernelId> {
        self.launches.get(i).map(|l| l.kernel)
    }
    /// The gradient kernel of recorded launch `i`.
    pub fn gradient(&self, i: usize) -> Option<&GradientKernel> {
        self.launches.get(i).map(|l| &l.gradient)
    }
    /// The write set of a kernel the tape launched.
    pub fn kernel_write_set(&self, k: KernelId) -> Option<&WriteSet> {
        self.write_sets.get(&k)
    }
    /// The adstack plan of recorded launch `i`'s forward launch.
    pub fn forward_plan(&self, i: usize) -> Option<&AdstackPlan> {
        self.launches.get(i)?.forward_plan.as_ref()
    }
    /// The adstack plan of recorded launch `i`'s gradient launch in the last backward pass.
    pub fn gradient_plan(&self, i: usize) -> Option<&AdstackPlan> {
        self.launches.get(i)?.gradient_plan.as_ref()
    }
    /// The bytes the recorded launches' snapshots hold now.
    pub fn snapshot_bytes(&self) -> usize {
        self.launches
            .iter()
            .filter_map(|l| l.before.as_ref())
            .map(Snapshot::bytes)
            .sum()
    }

    /// The adjoint ndarray of the primal ndarray `primal` (same dtype and shape), made zeroed on
    /// first use; the gradient launches accumulate into it.
    pub fn adjoint(&mut self, p: &mut Program, primal: NdarrayId) -> Result<NdarrayId, Error> {
        if let Some(&(_, a)) = self.adjoints.iter().find(|(q, _)| *q == primal) {
            return Ok(a);
        }
        let nd = p.ndarray(primal)?;
        let what = format!("the adjoint of ndarray {}", primal.0);
        p.check_alloc(&what, nd.bytes())?;
        let zeros = Ndarray::zeros(nd.dtype(), nd.shape())
            .map_err(|e| Error::Value(format!("the adjoint of ndarray {}: {e}", primal.0)))?;
        let a = p.add_ndarray(zeros);
        self.adjoints.push((primal, a));
        Ok(a)
    }

    /// The adjoint ndarray of `primal`, when the tape made one.
    pub fn existing_adjoint(&self, primal: NdarrayId) -> Option<NdarrayId> {
        self.adjoints
            .iter()
            .find(|(q, _)| *q == primal)
            .map(|&(_, a)| a)
    }

    /// Sets the adjoint of the ndarray `primal` (its seed, before [`Tape::backward`]) to
    /// `values`, one per element, converted exactly to its dtype.
    pub fn seed(
        &mut self,
        p: &mut Program,
        primal: NdarrayId,
        values: &[f64],
    ) -> Result<(), Error> {
        let a = self.adjoint(p, primal)?;
        let nd = p.ndarray(a)?;
        if values.len() != nd.len() {
            return Err(Error::Value(format!(
                "the seed of ndarray {} has {} value{}, the ndarray {} element{}",
                primal.0,
                values.len(),
                if values.len() == 1 { "" } else { "s" },
                nd.len(),
                if nd.len() == 1 { "" } else { "s" }
            )));
        }
        let data = Storage::from_f64(nd.dtype(), values)
            .map_err(|e| Error::Value(format!("the seed of ndarray {}: {e}", primal.0)))?;
        *p.ndarray_mut(a)?.data_mut() = data;
        Ok(())
    }

    /// Zeroes every adjoint ndarray of the tape.
    pub fn clear_adjoints(&mut self, p: &mut Program) -> Result<(), Error> {
        for &(_, a) in &self.adjoints {
            p.ndarray_mut(a)?.data_mut().fill_zero();
        }
        Ok(())
    }

    /// Runs the gradient of every recorded launch, last to first (see the module docs), each on
    /// its launch's arguments and the tape's adjoint ndarrays of its active ones, putting back
    /// after each the primal data its launch overwrote; at the end the primal data is as the
    /// last forward launch left it. The program is synced after every gradient launch, and the
    /// first runtime error stops the pass ([`TapeError::Runtime`]; the primal data is then left
    /// as it was at that point).
    pub fn backward(&mut self, p: &mut Program) -> Result<(), TapeError> {
        p.sync().map_err(TapeError::Runtime)?;
        // The final primal data of every buffer the pass will put back.
        let (mut fields, mut arrays) = (Vec::new(), Vec::new());
        for l in self.launches.iter().skip(1) {
            fields.extend(l.write_fields.iter().copied());
            arrays.extend(l.write_arrays.iter().copied());
        }
        fields.sort_unstable();
        fields.dedup();
        let last = Snapshot::take(p, &fields, &arrays)?;
        for i in (0..self.launches.len()).rev() {
            let mut adjoints = Vec::new();
            let (g, args) = (
                self.launches[i].gradient.clone(),
                self.launches[i].args.clone(),
            );
            for (arg, &active) in args.iter().zip(&g.activity) {
                if let (true, Arg::Ndarray(id)) = (active, arg) {
                    adjoints.push(self.adjoint(p, *id)?);
                }
            }
            p.launch_grad_with(&g, &args, &adjoints)?;
            self.launches[i].gradient_plan = p.last_adstack_plan(g.kernel).cloned();
            p.sync().map_err(TapeError::Runtime)?;
            if let Some(before) = &self.launches[i].before {
                before.restore(p)?;
            }
        }
        last.restore(p)?;
        Ok(())
    }

    /// Forgets the recorded launches and their snapshots (the adjoint ndarrays stay).
    pub fn clear(&mut self) {
        self.launches.clear();
    }

    /// Removes the tape's adjoint ndarrays from the program (their handles become stale).
    pub fn release(&mut self, p: &mut Program) {
        for (_, a) in self.adjoints.drain(..) {
            let _ = p.remove_ndarray(a);
        }
    }
}
