//! [`Memory`]: what kernels read and write: every field's values (and the adjoint of each
//! `needs_grad` field) and the registered ndarrays. A [`crate::Program`] owns it and lends it to
//! its device at compile time (read-only: the layout) and at launch.

mod host_buf;
mod limit;
mod storage;
mod zeroed;

pub use host_buf::{ExternalOwner, HostBuf};
pub use limit::{available_bytes, MemoryLimit, AUTO_RESERVE_BYTES};
pub use storage::Storage;
pub use zeroed::BLOCK_ALIGN;

use crate::error::Error;
use crate::ndarray::{checked_num_elements, Ndarray, NdarrayId};
use crate::value::DType;
use qd_frontend::FieldOp;
use qd_ir::{Context, Diagnostic, Location, OpId};

/// The static description of a field.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FieldInfo {
    pub name: String,
    /// The `qd.field` op.
    pub op: OpId,
    pub dtype: DType,
    /// Empty for a scalar field.
    pub shape: Vec<usize>,
    pub needs_grad: bool,
}

impl FieldInfo {
    pub fn num_elements(&self) -> usize {
        self.shape.iter().product()
    }

    /// The bytes its storage takes: its values, and as many again for the adjoint of a
    /// `needs_grad` field.
    pub fn bytes(&self) -> u128 {
        let values = self.num_elements() as u128 * self.dtype.size_bytes() as u128;
        if self.needs_grad {
            2 * values
        } else {
            values
        }
    }
}

/// A field's storage: its values and, for a `needs_grad` field, its adjoint (same shape, zeroed
/// at creation).
#[derive(Clone, Debug)]
pub struct FieldSlot {
    pub info: FieldInfo,
    pub value: Storage,
    pub grad: Option<Storage>,
}

/// Which storage a field name designates: `x` is the values of field `x`, `x.grad` its adjoint.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FieldRef {
    pub index: usize,
    pub grad: bool,
}

/// A push past an adstack's capacity, as a device records it (the overflow flag): the kernel,
/// the stack's `adstack.alloca` location and the capacity it had.
#[derive(Clone, PartialEq, Debug)]
pub struct AdstackOverflow {
    pub kernel: String,
    pub loc: Location,
    pub capacity: u64,
}

/// Fields (in module order), ndarrays, and the adstack settings and overflow flag devices share.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    fields: Vec<FieldSlot>,
    ndarrays: Vec<Option<Ndarray>>,
    /// The capacity every adstack gets, when forced (`ProgramConfig::ad_stack_size`).
    ad_stack_size: Option<usize>,
    /// The first overflow since the last [`Memory::take_adstack_overflow`].
    adstack_overflow: Option<AdstackOverflow>,
    /// The limit on the bytes of every field, adjoint and ndarray together (None: none), and
    /// how it was set.
    limit: Option<u64>,
    limit_setting: MemoryLimit,
}

impl Memory {
    /// The fields of `module` (every `qd.field` directly in it), without allocating them: element
    /// types the runtime does not support and shapes too large to index are located diagnostics.
    pub fn layout(ctx: &Context, module: OpId) -> Result<Vec<FieldInfo>, Vec<Diagnostic>> {
        let mut infos = Vec::new();
        let mut diags = Vec::new();
        let ops = ctx
            .regions(module)
            .iter()
            .flat_map(|&r| ctx.region_ops(r))
            .filter_map(|op| FieldOp::from_op(ctx, op));
        for f in ops {
            match field_info(ctx, f) {
                Ok(info) => infos.push(info),
                Err(msg) => diags.push(Diagnostic::error(ctx.loc(f.0), msg)),
            }
        }
        if diags.is_empty() {
            Ok(infos)
        } else {
            Err(diags)
        }
    }

    /// Allocates every field of `module` (see [`Memory::layout`]), zeroed, with a zeroed adjoint
    /// for each `needs_grad` field, under the `auto` [`MemoryLimit`].
    pub fn for_module(ctx: &Context, module: OpId) -> Result<Memory, Vec<Diagnostic>> {
        Memory::for_module_within(ctx, module, MemoryLimit::Auto)
    }

    /// [`Memory::for_module`] under `limit`: the fields are checked first
    /// ([`Memory::check_within`]), so a field past the limit is refused before anything is
    /// allocated; a field the allocator cannot give is a located diagnostic too. Fields are
    /// lazily zeroed (see [`Storage`]).
    pub fn for_module_within(
        ctx: &Context,
        module: OpId,
        limit: MemoryLimit,
    ) -> Result<Memory, Vec<Diagnostic>> {
        let resolved = limit.resolve();
        let infos = Memory::checked_layout(ctx, module, limit, resolved)?;
        let mut fields = Vec::new();
        for info in infos {
            let alloc = |what: &str| {
                Storage::zeros(info.dtype, info.num_elements()).map_err(|e| {
                    vec![Diagnostic::error(
                        ctx.loc(info.op),
                        format!("field @{}{what}: {e}", info.name),
                    )]
                })
            };
            let value = alloc("")?;
            let grad = if info.needs_grad {
                Some(alloc(".grad")?)
            } else {
                None
            };
            fields.push(FieldSlot { info, value, grad });
        }
        Ok(Memory {
            fields,
            limit: resolved,
            limit_setting: limit,
            ..Memory::default()
        })
    }

    /// The layout of `module` ([`Memory::layout`]) when its fields fit under `limit` together,
    /// without allocating anything: each field whose bytes (with its adjoint's) pass what the
    /// fields before it left of the limit is a located diagnostic (at its `qd.field`) naming the
    /// field and the bytes asked for.
    pub fn check_within(
        ctx: &Context,
        module: OpId,
        limit: MemoryLimit,
    ) -> Result<Vec<FieldInfo>, Vec<Diagnostic>> {
        Memory::checked_layout(ctx, module, limit, limit.resolve())
    }

    fn checked_layout(
        ctx: &Context,
        module: OpId,
        setting: MemoryLimit,
        limit: Option<u64>,
    ) -> Result<Vec<FieldInfo>, Vec<Diagnostic>> {
        let infos = Memory::layout(ctx, module)?;
        let mut diags = Vec::new();
        let mut held: u128 = 0;
        for info in &infos {
            let note = if info.needs_grad {
                " (its values and its adjoint)"
            } else {
                ""
            };
            let what = format!("field @{}", info.name);
            match check_room(limit, setting, &what, note, held, info.bytes()) {
                Ok(()) => held += info.bytes(),
                Err(msg) => diags.push(Diagnostic::error(ctx.loc(info.op), msg)),
            }
        }
        if diags.is_empty() {
            Ok(infos)
        } else {
            Err(diags)
        }
    }

    /// The limit in bytes on every field, adjoint and ndarray together; None: no limit.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// The bytes the fields, adjoints and ndarrays take now.
    pub fn held_bytes(&self) -> u128 {
        let bytes = |s: &Storage| s.len() as u128 * s.dtype().size_bytes() as u128;
        let fields: u128 = self
            .fields
            .iter()
            .map(|f| bytes(&f.value) + f.grad.as_ref().map_or(0, bytes))
            .sum();
        let arrays: u128 = self
            .ndarrays
            .iter()
            .flatten()
            .map(|a| bytes(a.data()))
            .sum();
        fields + arrays
    }

    /// Whether `bytes` more fit under the limit beside what is held now; the error (`what`
    /// names the buffer: `field @x`, `the adjoint of argument 0`) says `cannot allocate`, the
    /// bytes, and the room left under the limit.
    pub fn check_alloc(&self, what: &str, bytes: u128) -> Result<(), String> {
        check_room(
            self.limit,
            self.limit_setting,
            what,
            "",
            self.held_bytes(),
            bytes,
        )
    }

    pub fn num_fields(&self) -> usize {
        self.fields.len()
    }
    /// The fields, in module order.
    pub fn fields(&self) -> &[FieldSlot] {
        &self.fields
    }
    pub fn field(&self, index: usize) -> &FieldSlot {
        &self.fields[index]
    }
    pub fn field_mut(&mut self, index: usize) -> &mut FieldSlot {
        &mut self.fields[index]
    }
    /// The index of the field named `name` (without `@`).
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.info.name == name)
    }

    /// Resolves `x` or `x.grad` (a field that has no adjoint has no `.grad`).
    pub fn resolve(&self, name: &str) -> Result<FieldRef, Error> {
        if let Some(index) = self.field_index(name) {
            return Ok(FieldRef { index, grad: false });
        }
        if let Some(base) = name.strip_suffix(".grad") {
            if let Some(index) = self.field_index(base) {
                if self.fields[index].grad.is_none() {
                    return Err(Error::NoAdjoint(base.to_string()));
                }
                return Ok(FieldRef { index, grad: true });
            }
        }
        Err(Error::UnknownField {
            name: name.to_string(),
            known: self.fields.iter().map(|f| f.info.name.clone()).collect(),
        })
    }

    /// The storage a [`FieldRef`] designates.
    pub fn storage(&self, r: FieldRef) -> &Storage {
        let f = &self.fields[r.index];
        match (&f.grad, r.grad) {
            (Some(g), true) => g,
            _ => &f.value,
        }
    }
    pub fn storage_mut(&mut self, r: FieldRef) -> &mut Storage {
        let f = &mut self.fields[r.index];
        match (&mut f.grad, r.grad) {
            (Some(g), true) => g,
            _ => &mut f.value,
        }
    }

    /// The capacity every adstack gets when forced; None: each stack's own bound. Devices size
    /// stacks from the launch's [`crate::AdstackPlan`], which already applies it.
    pub fn ad_stack_size(&self) -> Option<usize> {
        self.ad_stack_size
    }
    pub fn set_ad_stack_size(&mut self, n: Option<usize>) {
        self.ad_stack_size = n;
    }
    /// Sets the overflow flag; the first overflow is kept until the flag is taken (a device
    /// reports one per sync, as a flag with a companion slot would).
    pub fn record_adstack_overflow(&mut self, o: AdstackOverflow) {
        if self.adstack_overflow.is_none() {
            self.adstack_overflow = Some(o);
        }
    }
    /// Reads and resets the overflow flag.
    pub fn take_adstack_overflow(&mut self) -> Option<AdstackOverflow> {
        self.adstack_overflow.take()
    }
    pub fn adstack_overflow(&self) -> Option<&AdstackOverflow> {
        self.adstack_overflow.as_ref()
    }

    /// Registers an ndarray and returns its handle.
    pub fn add_ndarray(&mut self, a: Ndarray) -> NdarrayId {
        self.ndarrays.push(Some(a));
        NdarrayId((self.ndarrays.len() - 1) as u32)
    }
    /// Unregisters an ndarray, returning it (None for a stale handle).
    pub fn remove_ndarray(&mut self, id: NdarrayId) -> Option<Ndarray> {
        self.ndarrays.get_mut(id.0 as usize).and_then(Option::take)
    }
    pub fn ndarray(&self, id: NdarrayId) -> Option<&Ndarray> {
        self.ndarrays.get(id.0 as usize).and_then(Option::as_ref)
    }
    pub fn ndarray_mut(&mut self, id: NdarrayId) -> Option<&mut Ndarray> {
        self.ndarrays
            .get_mut(id.0 as usize)
            .and_then(Option::as_mut)
    }
}

/// Whether `bytes` more fit under `limit` (None: no limit) beside `held`; the error says
/// `cannot allocate`, the bytes (`note` says what they are), and the room left.
fn check_room(
    limit: Option<u64>,
    setting: MemoryLimit,
    what: &str,
    note: &str,
    held: u128,
    bytes: u128,
) -> Result<(), String> {
    let Some(limit) = limit else {
        return Ok(());
    };
    let left = (limit as u128).saturating_sub(held);
    if bytes <= left {
        return Ok(());
    }
    Err(format!(
        "{what}: cannot allocate {bytes} bytes{note}: {left} bytes are left under the memory \
         limit of {limit} bytes ({}; qd-run --memory-limit, ProgramConfig::memory_limit)",
        setting.describe()
    ))
}

fn field_info(ctx: &Context, f: FieldOp) -> Result<FieldInfo, String> {
    let name = f.name(ctx).to_string();
    let dtype = DType::from_type(ctx, f.elem(ctx)).map_err(|e| format!("field @{name}: {e}"))?;
    let shape: Vec<usize> = f
        .shape(ctx)
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("field @{name} has extent {d}")))
        .collect::<Result<_, _>>()?;
    checked_num_elements(&shape).map_err(|e| format!("field @{name}: {e}"))?;
    Ok(FieldInfo {
        name,
        op: f.0,
        dtype,
        shape,
        needs_grad: f.needs_grad(ctx),
    })
}
