//! Vectorised math: every math op the LLVM backend supports, for scalar or vector operands of f32
//! or f64 (any lane count), as straight-line vector code. No scalar libm calls, except the
//! documented fallback of f64 sin/cos/tan for |x| >= 2^28. LLVM intrinsics that lower to vector
//! instructions (sqrt, fabs, floor, ceil, rint, fma, copysign, vector.reduce.or) are used; `fma`
//! is a machine instruction on the hosts the JIT targets (x86-64 with FMA, AArch64), elsewhere
//! LLVM would call libm's `fma`.
//!
//! Rare paths (trig's large arguments) are out-of-line functions, `qd.vmath.NAME.slow.TYPE`
//! (private, noinline, cold; one per function and type in a module), called from a block that
//! runs only when some lane needs it (`Vb::patch`): a call site is the fast path, a test and a
//! call.
//!
//! f32 sin and cos are f32 code for |x| < 4096 (trig32.rs: a four-part Cody-Waite reduction to
//! a sum of two f32s, glibc's polynomials). The other f64 functions are double-double where the
//! last bits need it (argument reduction, the log in pow, exp of a double-double argument); the
//! other f32 ones are computed in f64 by the same code (or, for tanh past 0.5 and sin/cos past
//! 4096, by shorter polynomials made for an f32 result) and rounded once; tanh below 0.5 is an
//! f32 polynomial. f32 exp and exp2 (and so sigmoid, 1 / (1 + exp(-x))) have their own f64 code
//! (exp32.rs), as glibc's expf, rounded once. On AVX-512: reduction by ln2/16, a table of
//! 2^(j/16) held in two registers and read by a lane permute (no gathers), a degree-5 polynomial
//! (relative error 2^-45.6), 2^k added to the entry's exponent bits: 0.5000002 ulp at most on
//! every f32 with a finite nonzero result (0.50000008 exp, 0.50000011 exp2), and a fifth less
//! time than without the table (sigmoid 0.35 -> 0.28 ns per f32 in cache on Zen 5).
//! Elsewhere: one reduction step by ln 2 (or 1), a degree-8 polynomial (relative error 2^-37.8),
//! 2^k from the integer's bits: 0.50004 ulp at most. Both measured by
//! `vmath_f32_exp_exhaustive` (ignored, every algorithm the host can run); about 0.0075% of the
//! results differ from glibc's expf and exp2f, whose own error reaches 0.502 ulp
//! (`vmath_f32_exp_within_half_ulp`).
//! Polynomials are Chebyshev fits made by `fit.py`; the algorithms are the classical ones:
//! Cody-Waite reduction by pi/2 in three 53-bit parts (FMA-exact first step), Payne-Hanek for
//! f32 |x| >= 2^28 (integer product with a window of the bits of 2/pi), exp by 2^k exp(r),
//! log by 2 atanh((m-1)/(m+1)), pow as exp(y log x) in double-double, atan with fdlibm's five
//! argument ranges, tanh as 1 - 2/(e^2|x| + 1) or an odd polynomial near 0.
//!
//! Measured max error (`vmath_accuracy` in tests.rs prints the table with `--nocapture`): f32 in
//! ulps of the exact value (the f64 libm result), over >= 1.25 million points per function
//! (2.9-3.3 million pairs for pow and atan2: every exponent, subnormals, both signs, dense sweeps
//! of the main range, edge values); f64 in ulps from glibc's result, over >= 413 thousand points
//! (1.9-2 million pairs). The f32 code paths are also checked on every f32 they take
//! (`vmath_f32_exhaustive`, ignored): sin and cos below 4096, 0.79 and 0.78 ulp at most; tanh
//! below 0.5, 0.77 ulp (the rest of tanh, computed in f64, is within 0.50 ulp).
//!
//! | function | f32 max ulp | f64 max ulp (from glibc) |
//! |----------|-------------|--------------------------|
//! | sin, cos | 0.79        | 1                        |
//! | tan      | 0.50        | 1                        |
//! | exp      | 0.50        | 1                        |
//! | exp2     | 0.50        | 1                        |
//! | log      | 0.50        | 1                        |
//! | log2     | 0.50        | 1                        |
//! | pow      | 0.50        | 1                        |
//! | atan2    | 0.50        | 1                        |
//! | tanh     | 0.77        | 2 (glibc's `tanh` errs: at x = 0.18182659149169922 it is 1.9 ulp from the exact value, vmath 0.1, by mpmath) |
//! | rsqrt    | 1.47        | 0 (the same two roundings as the interpreter) |
//! | asin, acos, atan | 0.50 | 1                        |
//! | sinh, cosh | 0.50      | 2                        |
//! | asinh    | 0.50        | 1                        |
//! | acosh, atanh | 0.50    | 2                        |
//! | log10    | 0.50        | 2                        |
//! | log1p, expm1 | 0.50    | 1                        |
//! | cbrt     | 0.50        | 1                        |
//!
//! Approximate functions: f32 exp and exp2 whose op carries `fastmath<afn>` (or `fast`) are
//! computed in f32 arithmetic instead ([`emit_flagged`], approx.rs): 1 ulp at most
//! ([`AFN_MAX_ULP`]; measured on every f32, `vmath_f32_afn_exhaustive`: 0.957 and 0.941), about
//! 14 instead of about 33 vector instructions per 16 lanes (40 without AVX-512). Other ops ignore
//! the flag.
//!
//! sqrt, absf, floor, ceil, trunc, round, roundeven, copysign and fma are exact (LLVM's
//! intrinsics; 0.5 ulp in f32); rsqrt is `1 / sqrt(x)` as in the interpreter. The ops added for
//! issue #14 (asin ... cbrt: `atan::inverse`, `hyperbolic.rs`, `near_one.rs`) are f64 code, f32
//! widened and rounded once; absi, isnan, isinf, isfinite and fpowi (`exact.rs`) are exact, fpowi
//! libgcc's repeated squaring. erf and erfc have no vectorised form ([`UNVECTORISED`]): a task
//! holding one runs scalar code, which calls libm.

mod approx;
mod atan;
mod exact;
mod exp32;
mod exp_log;
mod hyperbolic;
mod near_one;
mod pow;
mod tanh;
mod trig;
mod trig32;

#[cfg(test)]
mod tests;

use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::{FloatPredicate, IntPredicate};
use qd_math::names;

pub(crate) type R<T> = Result<T, String>;
pub(crate) type V<'ctx> = BasicValueEnum<'ctx>;

pub use approx::MAX_ULP as AFN_MAX_ULP;

/// Whether `op`'s fast-math flags allow approximate functions (`afn`, or `fast`, which sets it).
pub(crate) fn allows_afn(ir: &qd_ir::Context, op: qd_ir::OpId) -> bool {
    let fm = qd_arith::FlagKind::FastMath;
    ir.prop_or_attr(op, fm.prop_name())
        .and_then(|a| fm.bits_of(ir, a))
        .is_some_and(|bits| bits & qd_arith::fastmath::AFN != 0)
}

/// As [`emit`], for an op whose fast-math flags allow approximate functions (`afn`, or `fast`)
/// when `afn`: f32 exp and exp2 are then computed in f32 arithmetic (`approx.rs`, within
/// [`AFN_MAX_ULP`], 1 ulp, instead of 0.5; under half of the instructions); every other op
/// and type is `emit`'s (f64, and tanh, sigmoid's other parts, stay as they are).
pub(crate) fn emit_flagged<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    b: &Builder<'ctx>,
    name: &str,
    args: &[BasicValueEnum<'ctx>],
    afn: bool,
) -> R<BasicValueEnum<'ctx>> {
    if let (true, [x]) = (afn && matches!(name, names::EXP | names::EXP2), args) {
        let (elem, lanes) = exact::shape_of(x.get_type());
        if elem == llcx.f32_type().into() {
            let v = Vb {
                llcx,
                module,
                b,
                lanes,
            };
            return if name == names::EXP {
                approx::exp(&v, *x)
            } else {
                approx::exp2(&v, *x)
            };
        }
    }
    emit(llcx, module, b, name, args)
}

/// `name` (a math op, `qd_math::names`) of `args`, all of one type: f32, f64 or a vector of
/// either. Returns a value of that type. sin, cos and tan add blocks around their rare slow
/// paths: the builder ends at the end of the last one.
pub(crate) fn emit<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    b: &Builder<'ctx>,
    name: &str,
    args: &[BasicValueEnum<'ctx>],
) -> R<BasicValueEnum<'ctx>> {
    let Some(&x) = args.first() else {
        return Err(format!("'{name}' takes operands"));
    };
    if exact::MIXED.contains(&name) {
        return exact::emit(llcx, module, b, name, args);
    }
    let ty = x.get_type();
    if args.iter().any(|a| a.get_type() != ty) {
        return Err(format!("'{name}' expects operands of one type"));
    }
    let (elem, lanes) = match ty {
        BasicTypeEnum::FloatType(t) => (t, None),
        BasicTypeEnum::VectorType(v) => match v.get_element_type() {
            BasicTypeEnum::FloatType(t) => (t, Some(v.get_size())),
            _ => return Err(format!("'{name}' expects float operands")),
        },
        _ => return Err(format!("'{name}' expects float operands")),
    };
    let f32 = elem == llcx.f32_type();
    if !f32 && elem != llcx.f64_type() {
        return Err(format!("'{name}' supports f32 and f64"));
    }
    let v = Vb {
        llcx,
        module,
        b,
        lanes,
    };
    let want = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!("'{name}' takes {n} operands, got {}", args.len()))
        }
    };
    match name {
        names::SQRT | names::ABSF | names::FLOOR | names::CEIL | names::RSQRT => {
            want(1)?;
            let intr = match name {
                names::ABSF => "llvm.fabs",
                names::FLOOR => "llvm.floor",
                names::CEIL => "llvm.ceil",
                _ => "llvm.sqrt",
            };
            let r = v.call(intr, &[x])?;
            if name == names::RSQRT {
                let one = if f32 { v.c32(1.0) } else { v.c(1.0) };
                return v.div(one, r);
            }
            Ok(r)
        }
        names::FMA => {
            want(3)?;
            v.call("llvm.fma", args)
        }
        names::TRUNC | names::ROUND | names::ROUNDEVEN => {
            want(1)?;
            let intr = match name {
                names::TRUNC => "llvm.trunc",
                names::ROUND => "llvm.round",
                _ => "llvm.roundeven",
            };
            v.call(intr, &[x])
        }
        names::COPYSIGN => {
            want(2)?;
            v.copysign(args[0], args[1])
        }
        names::ASIN | names::ACOS | names::ATAN => {
            want(1)?;
            let d = v.widen(x, f32)?;
            let r = atan::inverse(&v, name, d)?;
            v.narrow(r, f32)
        }
        names::SINH
        | names::COSH
        | names::ASINH
        | names::ACOSH
        | names::ATANH
        | names::LOG10
        | names::LOG1P
        | names::EXPM1
        | names::CBRT => {
            want(1)?;
            let d = v.widen(x, f32)?;
            let r = match name {
                names::SINH => hyperbolic::sinh(&v, d)?,
                names::COSH => hyperbolic::cosh(&v, d)?,
                names::ASINH => hyperbolic::asinh(&v, d)?,
                names::ACOSH => hyperbolic::acosh(&v, d)?,
                names::ATANH => hyperbolic::atanh(&v, d)?,
                names::LOG10 => near_one::log10(&v, d)?,
                names::LOG1P => near_one::log1p(&v, d)?,
                names::EXPM1 => near_one::expm1(&v, d)?,
                _ => near_one::cbrt(&v, d)?,
            };
            v.narrow(r, f32)
        }
        names::SIN | names::COS | names::TAN => {
            want(1)?;
            trig::emit(&v, name, x, f32)
        }
        names::TANH => {
            want(1)?;
            if f32 {
                tanh::tanh_f32(&v, x)
            } else {
                tanh::tanh_f64(&v, x)
            }
        }
        names::EXP | names::EXP2 if f32 => {
            want(1)?;
            exp32::exp(&v, x, name == names::EXP2)
        }
        names::EXP | names::EXP2 | names::LOG | names::LOG2 => {
            want(1)?;
            let d = v.widen(x, f32)?;
            let r = match name {
                names::EXP => exp_log::exp(&v, d)?,
                names::EXP2 => exp_log::exp2(&v, d)?,
                names::LOG => exp_log::log(&v, d)?,
                _ => exp_log::log2(&v, d)?,
            };
            v.narrow(r, f32)
        }
        names::POWF | names::ATAN2 => {
            want(2)?;
            let (a, c) = (v.widen(args[0], f32)?, v.widen(args[1], f32)?);
            let r = if name == names::POWF {
                pow::pow(&v, a, c)?
            } else {
                atan::atan2(&v, a, c)?
            };
            v.narrow(r, f32)
        }
        _ => Err(format!("vectorised math does not support '{name}'")),
    }
}

/// Whether `name` is one of the exact ops whose operands or result are not all one float type
/// (`absi`, `isnan`, `isinf`, `isfinite`, `fpowi`).
pub(crate) fn exact_op(name: &str) -> bool {
    exact::MIXED.contains(&name)
}

/// The math ops with no vectorised form: a task holding one runs one iteration per call (the
/// scalar codegen, libm's functions).
pub(crate) const UNVECTORISED: &[&str] = &[names::ERF, names::ERFC];

/// A builder of values of one shape: scalars, or vectors of `lanes` lanes. Constants are splat
/// to the shape; every operation works on either.
pub(crate) struct Vb<'a, 'ctx> {
    pub llcx: &'ctx Context,
    pub module: &'a Module<'ctx>,
    pub b: &'a Builder<'ctx>,
    pub lanes: Option<u32>,
}

fn bad(e: impl std::fmt::Display) -> String {
    format!("vectorised math: {e}")
}

impl<'a, 'ctx> Vb<'a, 'ctx> {
    /// `t` (a scalar type) in this shape.
    pub fn shape(&self, t: BasicTypeEnum<'ctx>) -> BasicTypeEnum<'ctx> {
        match (self.lanes, t) {
            (Some(n), BasicTypeEnum::FloatType(f)) => f.vec_type(n).into(),
            (Some(n), BasicTypeEnum::IntType(i)) => i.vec_type(n).into(),
            _ => t,
        }
    }

    pub fn f64t(&self) -> BasicTypeEnum<'ctx> {
        self.shape(self.llcx.f64_type().into())
    }

    pub fn f32t(&self) -> BasicTypeEnum<'ctx> {
        self.shape(self.llcx.f32_type().into())
    }

    /// The integer type of `bits` bits (32 or 64) in this shape.
    pub fn it(&self, bits: u32) -> BasicTypeEnum<'ctx> {
        self.shape(self.int(bits).into())
    }

    fn int(&self, bits: u32) -> inkwell::types::IntType<'ctx> {
        if bits == 32 {
            self.llcx.i32_type()
        } else {
            self.llcx.i64_type()
        }
    }

    fn splat(&self, c: BasicValueEnum<'ctx>) -> V<'ctx> {
        match self.lanes {
            Some(n) => inkwell::types::VectorType::const_vector(&vec![c; n as usize]).into(),
            None => c,
        }
    }

    /// An f64 constant.
    pub fn c(&self, x: f64) -> V<'ctx> {
        self.splat(self.llcx.f64_type().const_float(x).into())
    }

    /// An f32 constant.
    pub fn c32(&self, x: f32) -> V<'ctx> {
        self.splat(self.llcx.f32_type().const_float(f64::from(x)).into())
    }

    /// An integer constant of `bits` bits (32 or 64; the low bits of `x`).
    pub fn ci(&self, bits: u32, x: u64) -> V<'ctx> {
        self.splat(self.int(bits).const_int(x, false).into())
    }

    fn bin(&self, op: inkwell::values::InstructionOpcode, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.b.build_binop(op, a, c, "vm").map_err(bad)
    }

    pub fn add(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::FAdd, a, c)
    }

    pub fn sub(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::FSub, a, c)
    }

    pub fn mul(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::FMul, a, c)
    }

    pub fn div(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::FDiv, a, c)
    }

    pub fn neg(&self, a: V<'ctx>) -> R<V<'ctx>> {
        match a {
            V::FloatValue(f) => Ok(self.b.build_float_neg(f, "vm").map_err(bad)?.into()),
            V::VectorValue(f) => Ok(self.b.build_float_neg(f, "vm").map_err(bad)?.into()),
            _ => Err(bad("fneg of a non-float")),
        }
    }

    pub fn iadd(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::Add, a, c)
    }

    pub fn isub(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::Sub, a, c)
    }

    pub fn imul(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::Mul, a, c)
    }

    pub fn and(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::And, a, c)
    }

    pub fn or(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::Or, a, c)
    }

    pub fn shl(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::Shl, a, c)
    }

    pub fn lshr(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.bin(inkwell::values::InstructionOpcode::LShr, a, c)
    }

    pub fn cast(
        &self,
        op: inkwell::values::InstructionOpcode,
        a: V<'ctx>,
        to: BasicTypeEnum<'ctx>,
    ) -> R<V<'ctx>> {
        self.b.build_cast(op, a, to, "vm").map_err(bad)
    }

    pub fn bitcast(&self, a: V<'ctx>, to: BasicTypeEnum<'ctx>) -> R<V<'ctx>> {
        self.cast(inkwell::values::InstructionOpcode::BitCast, a, to)
    }

    /// f32 operands to f64 (f64 ones unchanged).
    pub fn widen(&self, a: V<'ctx>, f32: bool) -> R<V<'ctx>> {
        if f32 {
            self.cast(inkwell::values::InstructionOpcode::FPExt, a, self.f64t())
        } else {
            Ok(a)
        }
    }

    /// An f64 result rounded to f32 when the operands were f32.
    pub fn narrow(&self, a: V<'ctx>, f32: bool) -> R<V<'ctx>> {
        if f32 {
            self.cast(inkwell::values::InstructionOpcode::FPTrunc, a, self.f32t())
        } else {
            Ok(a)
        }
    }

    /// The intrinsic `name` overloaded on its first argument's type.
    pub fn call(&self, name: &str, args: &[V<'ctx>]) -> R<V<'ctx>> {
        self.call_tys(name, &[args[0].get_type()], args)
    }

    pub fn call_tys(
        &self,
        name: &str,
        tys: &[BasicTypeEnum<'ctx>],
        args: &[V<'ctx>],
    ) -> R<V<'ctx>> {
        let f = inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(self.module, tys))
            .ok_or_else(|| bad(format!("LLVM has no intrinsic {name}")))?;
        let args: Vec<_> = args.iter().map(|&a| a.into()).collect();
        let call = self.b.build_call(f, &args, "vm").map_err(bad)?;
        call.try_as_basic_value()
            .basic()
            .ok_or_else(|| bad(format!("{name} returns nothing")))
    }

    /// `a * c + e` with one rounding (an FMA instruction).
    pub fn fma(&self, a: V<'ctx>, c: V<'ctx>, e: V<'ctx>) -> R<V<'ctx>> {
        self.call("llvm.fma", &[a, c, e])
    }

    /// `a * c + e`, fused where the target can (polynomials: either way is accurate enough).
    pub fn mad(&self, a: V<'ctx>, c: V<'ctx>, e: V<'ctx>) -> R<V<'ctx>> {
        self.call("llvm.fmuladd", &[a, c, e])
    }

    pub fn abs(&self, a: V<'ctx>) -> R<V<'ctx>> {
        self.call("llvm.fabs", &[a])
    }

    pub fn rint(&self, a: V<'ctx>) -> R<V<'ctx>> {
        self.call("llvm.rint", &[a])
    }

    pub fn copysign(&self, mag: V<'ctx>, sign: V<'ctx>) -> R<V<'ctx>> {
        self.call("llvm.copysign", &[mag, sign])
    }

    /// An integral f64 of magnitude below 2^51 to i`bits` (32 or 64), by the bits of
    /// a + 1.5 2^52 (others give unspecified bits, never poison). Not `fptosi.sat`, which LLVM
    /// lowers lane by lane for vectors.
    pub fn to_int(&self, a: V<'ctx>, bits: u32) -> R<V<'ctx>> {
        const MAGIC: f64 = 6_755_399_441_055_744.0; // 1.5 2^52
        let t = self.bitcast(self.add(a, self.c(MAGIC))?, self.it(64))?;
        if bits == 32 {
            self.cast(inkwell::values::InstructionOpcode::Trunc, t, self.it(32))
        } else {
            self.isub(t, self.ci(64, MAGIC.to_bits()))
        }
    }

    pub fn fcmp(&self, p: FloatPredicate, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        match (a, c) {
            (V::FloatValue(a), V::FloatValue(c)) => Ok(self
                .b
                .build_float_compare(p, a, c, "vm")
                .map_err(bad)?
                .into()),
            (V::VectorValue(a), V::VectorValue(c)) => Ok(self
                .b
                .build_float_compare(p, a, c, "vm")
                .map_err(bad)?
                .into()),
            _ => Err(bad("fcmp of mismatched operands")),
        }
    }

    pub fn icmp(&self, p: IntPredicate, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        match (a, c) {
            (V::IntValue(a), V::IntValue(c)) => {
                Ok(self.b.build_int_compare(p, a, c, "vm").map_err(bad)?.into())
            }
            (V::VectorValue(a), V::VectorValue(c)) => {
                Ok(self.b.build_int_compare(p, a, c, "vm").map_err(bad)?.into())
            }
            _ => Err(bad("icmp of mismatched operands")),
        }
    }

    /// Lanewise `m ? a : c`.
    pub fn sel(&self, m: V<'ctx>, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        match m {
            V::IntValue(m) => self.b.build_select(m, a, c, "vm").map_err(bad),
            V::VectorValue(m) => self.b.build_select(m, a, c, "vm").map_err(bad),
            _ => Err(bad("select on a non-mask")),
        }
    }

    /// Lanewise and / or of masks.
    pub fn mand(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.and(a, c)
    }

    pub fn mor(&self, a: V<'ctx>, c: V<'ctx>) -> R<V<'ctx>> {
        self.or(a, c)
    }

    /// Whether any lane of the mask `m` is set (an i1).
    pub fn any(&self, m: V<'ctx>) -> R<IntValue<'ctx>> {
        match m {
            V::IntValue(m) => Ok(m),
            V::VectorValue(_) => Ok(self.call("llvm.vector.reduce.or", &[m])?.into_int_value()),
            _ => Err(bad("any of a non-mask")),
        }
    }

    /// The polynomial sum c[i] z^i (Horner).
    pub fn poly(&self, z: V<'ctx>, c: &[f64]) -> R<V<'ctx>> {
        let mut p = self.c(c[c.len() - 1]);
        for &k in c[..c.len() - 1].iter().rev() {
            p = self.mad(p, z, self.c(k))?;
        }
        Ok(p)
    }

    /// The exact sum a + c as (rounded, error).
    pub fn two_sum(&self, a: V<'ctx>, c: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let s = self.add(a, c)?;
        let bb = self.sub(s, a)?;
        let ea = self.sub(a, self.sub(s, bb)?)?;
        let eb = self.sub(c, bb)?;
        Ok((s, self.add(ea, eb)?))
    }

    /// The exact sum a + c as (rounded, error), for |a| >= |c| (or a = 0).
    pub fn fast_two_sum(&self, a: V<'ctx>, c: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let s = self.add(a, c)?;
        let e = self.sub(c, self.sub(s, a)?)?;
        Ok((s, e))
    }

    /// The exact product a * c as (rounded, error).
    pub fn two_prod(&self, a: V<'ctx>, c: V<'ctx>) -> R<(V<'ctx>, V<'ctx>)> {
        let p = self.mul(a, c)?;
        let e = self.fma(a, c, self.neg(p)?)?;
        Ok((p, e))
    }

    /// 2^k for an integral f64 k in [-1022, 1023].
    pub fn pow2(&self, k: V<'ctx>) -> R<V<'ctx>> {
        let ki = self.to_int(k, 64)?;
        let biased = self.iadd(ki, self.ci(64, 1023))?;
        let bits = self.shl(biased, self.ci(64, 52))?;
        self.bitcast(bits, self.f64t())
    }

    /// v * 2^k for an integral f64 k in [-1080, 1080], rounded once: two exact steps of
    /// 2^(k/2), so that a result in the subnormal range or past the overflow threshold comes out
    /// right.
    pub fn scale(&self, v: V<'ctx>, k: V<'ctx>) -> R<V<'ctx>> {
        let k1 = self.call("llvm.floor", &[self.mul(k, self.c(0.5))?])?;
        let k2 = self.sub(k, k1)?;
        self.mul(self.mul(v, self.pow2(k1)?)?, self.pow2(k2)?)
    }

    /// f32 lanes `x` limited to [lo, hi] by ordered compares (NaN stays NaN; x86 makes each a
    /// min or max).
    pub fn limit32(&self, x: V<'ctx>, lo: f32, hi: f32) -> R<V<'ctx>> {
        let x = self.sel(
            self.fcmp(FloatPredicate::OGT, x, self.c32(hi))?,
            self.c32(hi),
            x,
        )?;
        self.sel(
            self.fcmp(FloatPredicate::OLT, x, self.c32(lo))?,
            self.c32(lo),
            x,
        )
    }

    /// Whether the function being built targets AVX-512 (its `target-features`): the same
    /// answer for every shape in it, so that code choosing by it keeps scalar and vector forms
    /// alike.
    pub fn avx512(&self) -> R<bool> {
        use inkwell::attributes::AttributeLoc;
        let f = self.func()?;
        Ok(
            f.get_string_attribute(AttributeLoc::Function, "target-features")
                .and_then(|a| {
                    a.get_string_value()
                        .to_str()
                        .ok()
                        .map(crate::simd::lanes_for)
                })
                == Some(16),
        )
    }

    /// The i64 lanes of `table` at the low 4 bits of each lane of the i64 lanes `idx` (their
    /// other bits ignored), by AVX-512's permute of two registers (`vpermi2q`; only for
    /// functions where [`Self::avx512`] holds), 8 lanes at a time: a scalar or a vector of
    /// any lane count is padded to whole 8-lane parts, and the parts joined back.
    pub fn lookup16(&self, table: &[u64; 16], idx: V<'ctx>) -> R<V<'ctx>> {
        use inkwell::types::VectorType;
        let (i32t, i64t) = (self.llcx.i32_type(), self.llcx.i64_type());
        let v8 = i64t.vec_type(8);
        let part = |h: usize| -> V<'ctx> {
            let c: Vec<_> = table[8 * h..8 * h + 8]
                .iter()
                .map(|&b| i64t.const_int(b, false))
                .collect();
            VectorType::const_vector(&c).into()
        };
        let (lo, hi) = (part(0), part(1));
        let permute =
            |i: V<'ctx>| self.call_tys("llvm.x86.avx512.vpermi2var.q.512", &[], &[lo, i, hi]);
        // A shuffle mask: lane i takes `at(i)` (None: any value).
        let mask = |w: u32, at: &dyn Fn(u32) -> Option<u32>| {
            let m: Vec<_> = (0..w)
                .map(|i| match at(i) {
                    Some(j) => i32t.const_int(u64::from(j), false),
                    None => i32t.get_undef(),
                })
                .collect();
            VectorType::const_vector(&m)
        };
        let shuffle = |a: inkwell::values::VectorValue<'ctx>,
                       c: inkwell::values::VectorValue<'ctx>,
                       m: inkwell::values::VectorValue<'ctx>| {
            self.b.build_shuffle_vector(a, c, m, "vm").map_err(bad)
        };
        let zero = i32t.const_zero();
        let Some(n) = self.lanes else {
            let i = self
                .b
                .build_insert_element(v8.get_poison(), idx.into_int_value(), zero, "vm")
                .map_err(bad)?;
            let r = permute(i.into())?.into_vector_value();
            return self.b.build_extract_element(r, zero, "vm").map_err(bad);
        };
        let idx = idx.into_vector_value();
        let w = n.div_ceil(8) * 8;
        let mut acc: Option<inkwell::values::VectorValue<'ctx>> = None;
        for p in 0..w / 8 {
            let m = mask(8, &|i| (8 * p + i < n).then_some(8 * p + i));
            let i = shuffle(idx, idx.get_type().get_poison(), m)?;
            let r = permute(i.into())?.into_vector_value();
            // Widened to w lanes, then placed at lanes [8p, 8p + 8) of the result.
            let r = shuffle(r, v8.get_poison(), mask(w, &|i| (i < 8).then_some(i)))?;
            acc = Some(match acc {
                None => r,
                Some(a) => shuffle(
                    a,
                    r,
                    mask(w, &|i| {
                        Some(if (8 * p..8 * p + 8).contains(&i) {
                            w + i - 8 * p
                        } else {
                            i
                        })
                    }),
                )?,
            });
        }
        let acc = acc.ok_or_else(|| bad("a vector of no lanes"))?;
        Ok(shuffle(acc, acc.get_type().get_poison(), mask(n, &|i| Some(i)))?.into())
    }

    /// Lanes where `a` is NaN.
    pub fn is_nan(&self, a: V<'ctx>) -> R<V<'ctx>> {
        self.fcmp(FloatPredicate::UNO, a, a)
    }

    /// `fast` with the lanes of the mask `m` replaced by `slow(x)`, where `slow` is the
    /// out-of-line function `qd.vmath.{what}.slow.{shape}` of `x`'s type (made on first use
    /// from `body`, which must compute it for every lane), called from a block that runs only
    /// when some lane of `m` is set: rare paths are emitted once per module, and call sites stay
    /// small. The builder ends in the join block.
    pub fn patch(
        &self,
        m: V<'ctx>,
        x: V<'ctx>,
        fast: V<'ctx>,
        what: &str,
        body: impl FnOnce(&Vb<'_, 'ctx>, V<'ctx>) -> R<V<'ctx>>,
    ) -> R<V<'ctx>> {
        let slow = self.slow_fn(what, x, body)?;
        let any = self.any(m)?;
        let func = self.func()?;
        let from = self.b.get_insert_block().ok_or("no insertion block")?;
        let slow_bb = self.llcx.append_basic_block(func, "vm.slow");
        let join_bb = self.llcx.append_basic_block(func, "vm.join");
        self.b
            .build_conditional_branch(any, slow_bb, join_bb)
            .map_err(bad)?;
        self.b.position_at_end(slow_bb);
        let call = self.b.build_call(slow, &[x.into()], "vm").map_err(bad)?;
        let r = call
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| bad("a slow path returns nothing"))?;
        let fixed = self.sel(m, r, fast)?;
        let slow_end = self.b.get_insert_block().ok_or("no insertion block")?;
        self.b.build_unconditional_branch(join_bb).map_err(bad)?;
        self.b.position_at_end(join_bb);
        let phi = self.b.build_phi(fast.get_type(), "vm").map_err(bad)?;
        phi.add_incoming(&[(&fast, from), (&fixed, slow_end)]);
        Ok(phi.as_basic_value())
    }

    /// The module's function `qd.vmath.{what}.slow.{shape}` (x's type to itself), built on
    /// first use: private, `noinline` and `cold`, with the calling function's target attributes.
    /// The scalar one is `body`; a vector one calls the scalar one lane by lane (a rare path:
    /// small code, quick to compile, rather than fast).
    fn slow_fn(
        &self,
        what: &str,
        x: V<'ctx>,
        body: impl FnOnce(&Vb<'_, 'ctx>, V<'ctx>) -> R<V<'ctx>>,
    ) -> R<inkwell::values::FunctionValue<'ctx>> {
        use inkwell::attributes::{Attribute, AttributeLoc};
        let ty = x.get_type();
        let (elem, lanes) = match ty {
            BasicTypeEnum::VectorType(t) => (t.get_element_type(), Some(t.get_size())),
            t => (t, None),
        };
        let e = if elem == self.llcx.f32_type().into() {
            "f32"
        } else {
            "f64"
        };
        let shape = match lanes {
            Some(n) => format!("v{n}{e}"),
            None => e.into(),
        };
        let name = format!("qd.vmath.{what}.slow.{shape}");
        if let Some(f) = self.module.get_function(&name) {
            return Ok(f);
        }
        let caller = self.func()?;
        let f = self.module.add_function(
            &name,
            inkwell::types::BasicType::fn_type(&ty, &[ty.into()], false),
            Some(inkwell::module::Linkage::Private),
        );
        for a in ["noinline", "cold", "nounwind"] {
            let kind = Attribute::get_named_enum_kind_id(a);
            f.add_attribute(
                AttributeLoc::Function,
                self.llcx.create_enum_attribute(kind, 0),
            );
        }
        for k in ["target-cpu", "target-features"] {
            if let Some(a) = caller.get_string_attribute(AttributeLoc::Function, k) {
                f.add_attribute(AttributeLoc::Function, a);
            }
        }
        let b = self.llcx.create_builder();
        b.position_at_end(self.llcx.append_basic_block(f, "entry"));
        let v = Vb {
            llcx: self.llcx,
            module: self.module,
            b: &b,
            lanes: None,
        };
        let param = f
            .get_nth_param(0)
            .ok_or("a slow path without its operand")?;
        let r = match lanes {
            None => body(&v, param)?,
            Some(n) => {
                let undef = match elem {
                    BasicTypeEnum::FloatType(t) => t.get_undef(),
                    _ => return Err(bad("a slow path of non-floats")),
                };
                let scalar = v.slow_fn(what, undef.into(), body)?;
                // A loop over the lanes through a stack copy: less code than n calls.
                let i32t = self.llcx.i32_type();
                let buf = b.build_alloca(ty, "vm.lanes").map_err(bad)?;
                b.build_store(buf, param).map_err(bad)?;
                let entry = b.get_insert_block().ok_or("no insertion block")?;
                let body_bb = self.llcx.append_basic_block(f, "lane");
                let done_bb = self.llcx.append_basic_block(f, "done");
                b.build_unconditional_branch(body_bb).map_err(bad)?;
                b.position_at_end(body_bb);
                let i = b.build_phi(i32t, "i").map_err(bad)?;
                let iv = i.as_basic_value().into_int_value();
                let at = unsafe {
                    b.build_in_bounds_gep(elem, buf, &[iv], "vm.at")
                        .map_err(bad)?
                };
                let xi = b.build_load(elem, at, "vm").map_err(bad)?;
                let yi = b
                    .build_call(scalar, &[xi.into()], "vm")
                    .map_err(bad)?
                    .try_as_basic_value()
                    .basic()
                    .ok_or_else(|| bad("a slow path returns nothing"))?;
                b.build_store(at, yi).map_err(bad)?;
                let next = b
                    .build_int_add(iv, i32t.const_int(1, false), "i")
                    .map_err(bad)?;
                i.add_incoming(&[(&i32t.const_zero(), entry), (&next, body_bb)]);
                let more = b
                    .build_int_compare(
                        IntPredicate::ULT,
                        next,
                        i32t.const_int(u64::from(n), false),
                        "more",
                    )
                    .map_err(bad)?;
                b.build_conditional_branch(more, body_bb, done_bb)
                    .map_err(bad)?;
                b.position_at_end(done_bb);
                b.build_load(ty, buf, "vm").map_err(bad)?
            }
        };
        b.build_return(Some(&r)).map_err(bad)?;
        Ok(f)
    }

    /// The insertion point's function (for branches around rare slow paths).
    pub fn func(&self) -> R<inkwell::values::FunctionValue<'ctx>> {
        self.b
            .get_insert_block()
            .and_then(|bb| bb.get_parent())
            .ok_or_else(|| bad("the builder is not in a function"))
    }
}
