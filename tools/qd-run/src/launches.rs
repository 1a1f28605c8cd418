//! The kernels a run launches and their arguments: `--kernel a --kernel b ...` (in order; a
//! kernel may come back), and each kernel's arguments from `--arg`:
//!
//! - `--arg NAME=VALUES` gives parameter NAME of every kernel of the run that has one; an
//!   ndarray given so is one ndarray, shared by those kernels (what one writes the next reads);
//! - `--arg KERNEL.NAME=VALUES` gives it to kernel KERNEL only (its own ndarray), and wins over
//!   `--arg NAME`. A name is qualified when the part before its first `.` is a kernel of the run.
//!
//! Every launch of a kernel gets the same arguments. The last `--arg` of a name wins. Ndarray
//! arguments are named the same way by `--print`, `--save` and `--grad` (`a`, `k.a`, `a.grad`).

use crate::cli::Options;
use crate::values;
use qd_runtime::{Arg, KernelId, NdarrayId, ParamType, Program};
use std::collections::HashMap;

/// The (kernel, parameter) pairs an ndarray is passed to.
pub type Uses = Vec<(usize, usize)>;

/// Where a parameter's value comes from.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Key {
    /// `--arg NAME=...`.
    Plain(String),
    /// `--arg KERNEL.NAME=...`.
    Qualified(String, String),
}

/// One kernel of the run (each once, in order of first launch).
pub struct Kernel {
    pub name: String,
    pub params: Vec<String>,
    pub types: Vec<ParamType>,
    pub id: KernelId,
    pub args: Vec<Arg>,
}

/// The kernels of a run, their arguments, and the launch order.
pub struct Launches {
    pub kernels: Vec<Kernel>,
    /// Indices into `kernels`, one per launch.
    pub order: Vec<usize>,
}

/// `(kernel, parameter)` when `name` is `KERNEL.PARAM` for a kernel among `kernels`.
fn qualified<'a>(name: &'a str, kernels: &[String]) -> Option<(&'a str, &'a str)> {
    let (k, p) = name.split_once('.')?;
    kernels.iter().any(|n| n == k).then_some((k, p))
}

fn describe(names: &[String], types: &[ParamType]) -> String {
    let list: Vec<String> = names
        .iter()
        .zip(types)
        .map(|(n, t)| format!("%{n}: {t}"))
        .collect();
    if list.is_empty() {
        "it takes none".to_string()
    } else {
        format!("parameters: {}", list.join(", "))
    }
}

impl Launches {
    /// Compiled kernels (`ids`, with their parameter names) in launch order `order`; builds each
    /// kernel's arguments from `o.args`, checking every name and every parameter, and gives the
    /// program the launches' time limit (`--timeout`: each launch, gradients included, is
    /// cancelled after that long).
    pub fn build(
        p: &mut Program,
        kernels: Vec<(String, Vec<String>, KernelId)>,
        order: Vec<usize>,
        o: &Options,
    ) -> Result<Launches, String> {
        let names: Vec<String> = kernels.iter().map(|k| k.0.clone()).collect();
        let mut ks: Vec<Kernel> = kernels
            .into_iter()
            .map(|(name, params, id)| Kernel {
                name,
                types: p.kernel_params(id).unwrap_or_default().to_vec(),
                params,
                id,
                args: Vec::new(),
            })
            .collect();
        // Every --arg names a parameter.
        for (name, _) in &o.args {
            if let Some((k, param)) = qualified(name, &names) {
                let kernel = ks
                    .iter()
                    .find(|x| x.name == k)
                    .expect("a kernel of the run");
                if !kernel.params.iter().any(|x| x == param) {
                    return Err(format!(
                        "--arg {name}: kernel @{k} has no parameter '{param}' ({})",
                        describe(&kernel.params, &kernel.types)
                    ));
                }
            } else if !ks.iter().any(|k| k.params.contains(name)) {
                return Err(match &ks[..] {
                    [k] => format!(
                        "--arg {name}: kernel @{} has no parameter '{name}' ({})",
                        k.name,
                        describe(&k.params, &k.types)
                    ),
                    _ => {
                        let each: Vec<String> = ks
                            .iter()
                            .map(|k| format!("@{}: {}", k.name, describe(&k.params, &k.types)))
                            .collect();
                        format!(
                            "--arg {name}: no kernel of the run has a parameter '{name}' ({})",
                            each.join("; ")
                        )
                    }
                });
            }
        }
        // Each parameter's source; a plain name shared by kernels must have one type.
        let mut keys: Vec<Vec<Key>> = Vec::new();
        let mut typed: HashMap<Key, (ParamType, String)> = HashMap::new();
        for k in &ks {
            let mut mine = Vec::new();
            for (param, ty) in k.params.iter().zip(&k.types) {
                let q = format!("{}.{param}", k.name);
                let key = if o.args.iter().any(|(n, _)| *n == q) {
                    Key::Qualified(k.name.clone(), param.clone())
                } else if o.args.iter().any(|(n, _)| n == param) {
                    Key::Plain(param.clone())
                } else {
                    return Err(format!(
                        "missing --arg {param}=VALUES for parameter %{param} ({ty}) of kernel @{}",
                        k.name
                    ));
                };
                match typed.get(&key) {
                    Some((t, other)) if t != ty => {
                        return Err(format!(
                            "--arg {param}: parameter %{param} is {t} in @{other} and {ty} in @{}; give each its own: --arg {other}.{param}=... --arg {}.{param}=...",
                            k.name, k.name
                        ))
                    }
                    Some(_) => {}
                    None => {
                        typed.insert(key.clone(), (*ty, k.name.clone()));
                    }
                }
                mine.push(key);
            }
            keys.push(mine);
        }
        // One argument per source: a plain ndarray is shared.
        let mut made: HashMap<Key, Arg> = HashMap::new();
        for (k, mine) in ks.iter_mut().zip(keys) {
            for (key, ty) in mine.into_iter().zip(&k.types) {
                if let Some(a) = made.get(&key) {
                    k.args.push(*a);
                    continue;
                }
                let name = match &key {
                    Key::Plain(n) => n.clone(),
                    Key::Qualified(k, n) => format!("{k}.{n}"),
                };
                let text = &o.args.iter().rev().find(|(n, _)| *n == name).unwrap().1;
                let ctx_msg = format!("--arg {name}: ");
                let spec = values::ValueSpec::parse(text).map_err(|e| format!("{ctx_msg}{e}"))?;
                // An ndarray of a given shape must fit under the memory limit before it is made.
                if let (ParamType::Ndarray { dtype, .. }, Some(shape)) = (*ty, &spec.shape) {
                    let n: u128 = shape.iter().map(|&d| d as u128).product();
                    p.check_alloc(
                        &format!("ndarray of shape {shape:?}"),
                        n * dtype.size_bytes() as u128,
                    )
                    .map_err(|e| format!("{ctx_msg}{e}"))?;
                }
                let arg = match *ty {
                    ParamType::Scalar(dtype) => values::for_scalar(&spec, dtype).map(Arg::Scalar),
                    ParamType::Ndarray { dtype, rank } => values::for_ndarray(&spec, dtype, rank)
                        .map(|nd| Arg::Ndarray(p.add_ndarray(nd))),
                }
                .map_err(|e| format!("{ctx_msg}{e}"))?;
                made.insert(key, arg);
                k.args.push(arg);
            }
        }
        p.set_launch_timeout(o.timeout)
            .map_err(|e| format!("--timeout: {e}"))?;
        Ok(Launches { kernels: ks, order })
    }

    /// The ndarray argument `name` names (`a`, or `k.a` for kernel k's), with the (kernel,
    /// parameter) pairs it is passed to; None when no ndarray parameter has that name.
    pub fn ndarray(&self, name: &str) -> Result<Option<(NdarrayId, Uses)>, String> {
        let names: Vec<String> = self.kernels.iter().map(|k| k.name.clone()).collect();
        let (only, param) = match qualified(name, &names) {
            Some((k, p)) => (Some(k), p),
            None => (None, name),
        };
        let mut found: Vec<(NdarrayId, usize, usize)> = Vec::new();
        for (ki, k) in self.kernels.iter().enumerate() {
            if only.is_some_and(|o| o != k.name) {
                continue;
            }
            for (pi, (n, a)) in k.params.iter().zip(&k.args).enumerate() {
                if n == param {
                    if let Arg::Ndarray(id) = a {
                        found.push((*id, ki, pi));
                    }
                }
            }
        }
        let Some(&(id, _, _)) = found.first() else {
            return Ok(None);
        };
        if found.iter().any(|f| f.0 != id) {
            let qualified: Vec<String> = found
                .iter()
                .map(|&(_, k, _)| format!("{}.{param}", self.kernels[k].name))
                .collect();
            return Err(format!(
                "'{name}' names different ndarrays of several kernels: name one ({})",
                qualified.join(", ")
            ));
        }
        Ok(Some((id, found.iter().map(|&(_, k, p)| (k, p)).collect())))
    }

    /// Every ndarray argument, once.
    pub fn ndarrays(&self) -> Vec<NdarrayId> {
        let mut out = Vec::new();
        for k in &self.kernels {
            for a in &k.args {
                if let Arg::Ndarray(id) = a {
                    if !out.contains(id) {
                        out.push(*id);
                    }
                }
            }
        }
        out
    }
}
