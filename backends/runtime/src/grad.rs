//! Gradient kernels: `kernel.grad(args)` of the runtime API.
//!
//! The gradient of `@k` is the kernel its `ad.reverse @k -> @k_grad` declaration names; when the
//! module has none, [`Program::gradient`] makes it through the compile pipeline (`ad.reverse @k`
//! declared, `reverse-mode-ad`, then the adstack sizing; see `crate::pipeline`). By the ad
//! dialect's convention, `@k_grad` takes the arguments of `@k`, then one adjoint ndarray per
//! active ndarray argument of `@k` (same dtype and shape), in argument order. It reads the
//! adjoints of output fields (`y.grad`, seeded by the caller) and accumulates those of input
//! fields and into the adjoint ndarrays.

use crate::device::Arg;
use crate::error::Error;
use crate::ndarray::{Ndarray, NdarrayId};
use crate::program::{KernelId, Program};
use qd_ad::find_reverse;

/// The gradient kernel of a kernel, compiled.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GradientKernel {
    /// The primal kernel's name.
    pub primal: String,
    pub kernel: KernelId,
    /// Whether each argument of the primal kernel is active (has an adjoint ndarray).
    pub activity: Vec<bool>,
}

/// The adjoint ndarrays a gradient launch made, by the index of their primal argument.
pub type Adjoints = Vec<(usize, NdarrayId)>;

impl Program {
    /// The gradient kernel of kernel `name`: the one its `ad.reverse` declaration names, else one
    /// made by the compile pipeline ([`Program::build_gradient`]); compiled on first use.
    pub fn gradient(&mut self, name: &str) -> Result<GradientKernel, Error> {
        self.build_gradient(name)?;
        let no_gradient = || Error::NoGradient(name.to_string());
        let ctx = self.context();
        let r = find_reverse(ctx, self.module(), name).ok_or_else(no_gradient)?;
        let primal = r.kernel(ctx).ok_or_else(no_gradient)?;
        let grad = r.gradient(ctx).ok_or_else(no_gradient)?;
        let activity = r.activity(ctx, &primal.arg_types(ctx));
        let grad_name = grad.name(ctx).to_string();
        let kernel = self.kernel(&grad_name)?;
        Ok(GradientKernel {
            primal: name.to_string(),
            kernel,
            activity,
        })
    }

    /// Launches the gradient kernel `g` on the arguments of a launch of its primal kernel, with a
    /// fresh zeroed adjoint ndarray (the primal's dtype and shape) for each active argument, and
    /// returns those ndarrays. The adjoints of output fields must be seeded before; errors while
    /// the kernel runs come back from the next [`Program::sync`].
    pub fn launch_grad(&mut self, g: &GradientKernel, args: &[Arg]) -> Result<Adjoints, Error> {
        check_args(g, args)?;
        let mut full = args.to_vec();
        let mut adjoints = Vec::new();
        for (i, id) in active_ndarrays(g, args)? {
            let nd = self.ndarray(id)?;
            self.check_alloc(&format!("the adjoint of argument {i}"), nd.bytes())?;
            let zeros = Ndarray::zeros(nd.dtype(), nd.shape())
                .map_err(|e| Error::Value(format!("the adjoint of argument {i}: {e}")))?;
            adjoints.push((i, self.add_ndarray(zeros)));
        }
        full.extend(adjoints.iter().map(|&(_, id)| Arg::Ndarray(id)));
        let launched = self.launch(g.kernel, &full);
        if launched.is_err() {
            // Nothing ran: the adjoint ndarrays are not the caller's to free.
            for &(_, id) in &adjoints {
                let _ = self.remove_ndarray(id);
            }
        }
        launched.map(|()| adjoints)
    }

    /// Launches the gradient kernel `g` on the arguments of a launch of its primal kernel and
    /// the given adjoint ndarrays, one per active argument in argument order, each of its
    /// primal's dtype and shape: the kernel accumulates into them (a [`crate::Tape`] carries
    /// one adjoint per ndarray from launch to launch this way).
    pub fn launch_grad_with(
        &mut self,
        g: &GradientKernel,
        args: &[Arg],
        adjoints: &[NdarrayId],
    ) -> Result<(), Error> {
        check_args(g, args)?;
        let active = g.activity.iter().filter(|&&a| a).count();
        if active != adjoints.len() {
            return Err(Error::Value(format!(
                "the gradient of @{} takes {} adjoint ndarray{}, got {}",
                g.primal,
                active,
                if active == 1 { "" } else { "s" },
                adjoints.len()
            )));
        }
        for ((i, id), &adj) in active_ndarrays(g, args)?.into_iter().zip(adjoints) {
            let (primal, adjoint) = (self.ndarray(id)?, self.ndarray(adj)?);
            if primal.dtype() != adjoint.dtype() || primal.shape() != adjoint.shape() {
                return Err(Error::Value(format!(
                    "the adjoint of argument {i} of @{} must be an ndarray of {} with shape {:?}, got {} with shape {:?}",
                    g.primal,
                    primal.dtype(),
                    primal.shape(),
                    adjoint.dtype(),
                    adjoint.shape()
                )));
            }
        }
        let mut full = args.to_vec();
        full.extend(adjoints.iter().map(|&id| Arg::Ndarray(id)));
        self.launch(g.kernel, &full)
    }
}

/// The checks of a gradient launch's primal arguments: one per parameter of the primal kernel,
/// distinct ndarrays.
fn check_args(g: &GradientKernel, args: &[Arg]) -> Result<(), Error> {
    if args.len() != g.activity.len() {
        return Err(Error::ArgCount {
            kernel: g.primal.clone(),
            expected: g.activity.len(),
            got: args.len(),
        });
    }
    distinct_ndarrays(&g.primal, args)
}

/// The active arguments (index, ndarray) of a gradient launch, in order; an active argument
/// must be an ndarray.
fn active_ndarrays(g: &GradientKernel, args: &[Arg]) -> Result<Vec<(usize, NdarrayId)>, Error> {
    let active = args.iter().zip(&g.activity).enumerate();
    active
        .filter(|(_, (_, &a))| a)
        .map(|(i, (arg, _))| match *arg {
            Arg::Ndarray(id) => Ok((i, id)),
            _ => Err(Error::ArgType {
                kernel: g.primal.clone(),
                index: i,
                expected: "an ndarray (the argument is active)".into(),
                got: "a scalar".into(),
            }),
        })
        .collect()
}

/// Refuses one ndarray bound to two parameters of a kernel being differentiated: reverse-mode-ad
/// checks its access rule (docs/access-rule.md) with distinct parameters as distinct memory, so
/// a read through one and a write through the other could destroy a value the gradient replays.
pub(crate) fn distinct_ndarrays(kernel: &str, args: &[Arg]) -> Result<(), Error> {
    for (j, b) in args.iter().enumerate() {
        let Arg::Ndarray(id) = b else { continue };
        let first = args[..j]
            .iter()
            .position(|a| matches!(a, Arg::Ndarray(x) if x == id));
        if let Some(i) = first {
            return Err(Error::Value(format!(
                "arguments {i} and {j} of @{kernel} are the same ndarray; a differentiated kernel takes distinct ndarrays (its access rule treats parameters as distinct memory): pass a copy"
            )));
        }
    }
    Ok(())
}
