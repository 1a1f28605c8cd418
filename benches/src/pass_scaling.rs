//! The pass scaling benchmark (`benches/pass_scaling.rs`): generators of differentiable kernels
//! of about `n` ops in seven shapes, and the two pass chains it times on them.
//!
//! Each generated module holds fields `@x` and `@y` (both `needs_grad`) and one kernel `@k`
//! whose body is a `qd.struct_for` over `@x`, so every generated op is active and
//! reverse-mode-ad has work for each of them (`fields` adds many fields; `kernels` holds many
//! such kernels, each declared with `ad.reverse`).

use std::fmt::Write;

/// The shapes of generated kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One long dependence chain of arith.mulf / arith.addf / math.sin.
    Chain,
    /// Many short independent chains, each ending in an atomic add.
    Wide,
    /// Sequential loop nests of depth [`NEST_DEPTH`], a local carried through each level.
    Loops,
    /// Many locals in a loop: each stored, reloaded and overwritten.
    Locals,
    /// Many symbols: n/4 needs_grad fields, each loaded once in the one kernel (a pass that
    /// resolves a symbol per op by scanning the module is quadratic here).
    Fields,
    /// Many kernels: n/20 small kernels, each with its `ad.reverse` declaration (a pass that
    /// scans the module per kernel is quadratic here).
    Kernels,
    /// Loads hoisted first, then four ops on each loaded value, then the stores: many ops per
    /// operand in one stretch of the block (a table placed by operand must take that).
    Hoisted,
}

pub const SHAPES: [Shape; 7] = [
    Shape::Chain,
    Shape::Wide,
    Shape::Loops,
    Shape::Locals,
    Shape::Fields,
    Shape::Kernels,
    Shape::Hoisted,
];

/// Depth of each generated loop nest.
pub const NEST_DEPTH: usize = 8;

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Chain => "chain",
            Shape::Wide => "wide",
            Shape::Loops => "loops",
            Shape::Locals => "locals",
            Shape::Fields => "fields",
            Shape::Kernels => "kernels",
            Shape::Hoisted => "hoisted",
        }
    }

    pub fn from_name(s: &str) -> Option<Shape> {
        SHAPES.into_iter().find(|sh| sh.name() == s)
    }

    /// The module text of a kernel of about `n` ops of this shape.
    pub fn module(self, n: usize) -> String {
        match self {
            Shape::Fields => return fields(n),
            Shape::Kernels => return kernels(n),
            _ => {}
        }
        let mut s = String::with_capacity(n * 48 + 512);
        s.push_str(
            "module {\n  qd.field @x : !qd.field<64xf32> {needs_grad}\n  \
             qd.field @y : !qd.field<64xf32> {needs_grad}\n  \
             qd.kernel @k() {\n    qd.struct_for (%i) in @x {\n      \
             %x = qd.load @x[%i] : f32\n      %c = arith.constant 1.0001 : f32\n",
        );
        match self {
            Shape::Chain => chain(&mut s, n),
            Shape::Wide => wide(&mut s, n),
            Shape::Loops => loops(&mut s, n),
            Shape::Locals => locals(&mut s, n),
            Shape::Hoisted => hoisted(&mut s, n),
            Shape::Fields | Shape::Kernels => unreachable!("whole modules, made above"),
        }
        s.push_str("    }\n  }\n}\n");
        s
    }
}

/// `%v{k+1} = op %v{k}, ...`: a mulf by the constant, an addf of the value two back, a sin.
fn chain(s: &mut String, n: usize) {
    let _ = writeln!(s, "      %v0 = arith.addf %x, %c : f32");
    let steps = n.saturating_sub(6).max(3);
    for k in 0..steps {
        let prev = if k == 0 {
            "%x".to_string()
        } else {
            format!("%v{}", k - 1)
        };
        let _ = match k % 3 {
            0 => writeln!(s, "      %v{} = arith.mulf %v{k}, %c : f32", k + 1),
            1 => writeln!(s, "      %v{} = arith.addf %v{k}, {prev} : f32", k + 1),
            _ => writeln!(s, "      %v{} = math.sin %v{k} : f32", k + 1),
        };
    }
    let _ = writeln!(s, "      qd.store %v{steps}, @y[%i] : f32");
}

/// Chains of 8 ops (a load, six arith/math ops, an atomic add), independent of each other.
fn wide(s: &mut String, n: usize) {
    for w in 0..(n.saturating_sub(6) / 8).max(1) {
        let _ = writeln!(
            s,
            "      %w{w}a = qd.load @x[%i] : f32\n\
             \x20     %w{w}b = arith.mulf %w{w}a, %c : f32\n\
             \x20     %w{w}c = math.sin %w{w}b : f32\n\
             \x20     %w{w}d = arith.addf %w{w}c, %x : f32\n\
             \x20     %w{w}e = arith.mulf %w{w}d, %w{w}a : f32\n\
             \x20     %w{w}f = math.exp %w{w}e : f32\n\
             \x20     %w{w}g = arith.subf %w{w}f, %w{w}c : f32\n\
             \x20     qd.atomic_add %w{w}g, @y[%i] : f32"
        );
    }
}

/// n/9 loads first; then, for each loaded value, a sin, an exp, a negf and a mulf of it; then
/// an atomic add of each of those.
fn hoisted(s: &mut String, n: usize) {
    let count = (n.saturating_sub(6) / 9).max(1);
    for w in 0..count {
        let _ = writeln!(s, "      %a{w} = qd.load @x[%i] : f32");
    }
    for w in 0..count {
        let _ = writeln!(
            s,
            "      %b{w} = math.sin %a{w} : f32\n\
             \x20     %c{w} = math.exp %a{w} : f32\n\
             \x20     %d{w} = arith.negf %a{w} : f32\n\
             \x20     %e{w} = arith.mulf %a{w}, %c : f32"
        );
    }
    for w in 0..count {
        for v in ["b", "c", "d", "e"] {
            let _ = writeln!(s, "      qd.atomic_add %{v}{w}, @y[%i] : f32");
        }
    }
}

/// Nests of [`NEST_DEPTH`] range_for loops of 2 iterations; each level loads a local, updates it
/// (mulf, sin) and stores it back, so each level's value goes on an adstack.
fn loops(s: &mut String, n: usize) {
    // Per nest: the local, its first store, its final load and atomic add; per level: the loop
    // and 4 body ops.
    let per_nest = 4 + NEST_DEPTH * 5;
    s.push_str("      %c0 = arith.constant 0 : i32\n      %c2 = arith.constant 2 : i32\n");
    for t in 0..(n.saturating_sub(8) / per_nest).max(1) {
        let _ = writeln!(
            s,
            "      %l{t} = qd.alloca : !qd.ptr<f32>\n      qd.local_store %x, %l{t} : !qd.ptr<f32>"
        );
        for d in 0..NEST_DEPTH {
            let ind = "  ".repeat(d + 3);
            let _ = writeln!(
                s,
                "{ind}qd.range_for %j{t}_{d} = %c0 to %c2 : i32 {{\n\
                 {ind}  %a{t}_{d} = qd.local_load %l{t} : !qd.ptr<f32>\n\
                 {ind}  %m{t}_{d} = arith.mulf %a{t}_{d}, %c : f32\n\
                 {ind}  %s{t}_{d} = math.sin %m{t}_{d} : f32\n\
                 {ind}  qd.local_store %s{t}_{d}, %l{t} : !qd.ptr<f32>"
            );
        }
        for d in (0..NEST_DEPTH).rev() {
            let _ = writeln!(s, "{}}}", "  ".repeat(d + 3));
        }
        let _ = writeln!(
            s,
            "      %r{t} = qd.local_load %l{t} : !qd.ptr<f32>\n      \
             qd.atomic_add %r{t}, @y[%i] : f32"
        );
    }
}

/// A loop of 4 iterations over many locals: each is allocated and stored before the loop; in
/// the loop each is loaded, multiplied by its neighbour's value and stored back (an overwrite
/// reverse mode must save); after the loop each is added to `@y[i]`.
fn locals(s: &mut String, n: usize) {
    // Per local: alloca and store before, load, mulf, store in the loop, load and add after.
    let count = (n.saturating_sub(10) / 7).max(2);
    s.push_str("      %c0 = arith.constant 0 : i32\n      %c4 = arith.constant 4 : i32\n");
    for k in 0..count {
        let _ = writeln!(
            s,
            "      %p{k} = qd.alloca : !qd.ptr<f32>\n      qd.local_store %x, %p{k} : !qd.ptr<f32>"
        );
    }
    s.push_str("      qd.range_for %j = %c0 to %c4 : i32 {\n");
    for k in 0..count {
        let prev = if k == 0 {
            "%x".to_string()
        } else {
            format!("%q{}", k - 1)
        };
        let _ = writeln!(
            s,
            "        %q{k} = qd.local_load %p{k} : !qd.ptr<f32>\n\
             \x20       %u{k} = arith.mulf %q{k}, {prev} : f32\n\
             \x20       qd.local_store %u{k}, %p{k} : !qd.ptr<f32>"
        );
    }
    s.push_str("      }\n");
    for k in 0..count {
        let _ = writeln!(
            s,
            "      %e{k} = qd.local_load %p{k} : !qd.ptr<f32>\n      \
             qd.atomic_add %e{k}, @y[%i] : f32"
        );
    }
}

/// `@x`, `@y` and n/4 needs_grad fields `@f{j}`; kernel `@k` is a struct_for over `@x` that loads
/// each `@f{j}[i]`, scales it and adds it to `@y[i]` (4 ops per field: its declaration, a load, a
/// mulf, an atomic add).
fn fields(n: usize) -> String {
    let count = (n.saturating_sub(10) / 4).max(1);
    let mut s = String::with_capacity(n * 40 + 512);
    s.push_str(
        "module {\n  qd.field @x : !qd.field<64xf32> {needs_grad}\n  \
         qd.field @y : !qd.field<64xf32> {needs_grad}\n",
    );
    for j in 0..count {
        let _ = writeln!(s, "  qd.field @f{j} : !qd.field<64xf32> {{needs_grad}}");
    }
    s.push_str(
        "  qd.kernel @k() {\n    qd.struct_for (%i) in @x {\n      \
         %c = arith.constant 1.0001 : f32\n",
    );
    for j in 0..count {
        let _ = writeln!(
            s,
            "      %a{j} = qd.load @f{j}[%i] : f32\n\
             \x20     %b{j} = arith.mulf %a{j}, %c : f32\n\
             \x20     qd.atomic_add %b{j}, @y[%i] : f32"
        );
    }
    s.push_str("    }\n  }\n}\n");
    s
}

/// `@x`, `@y` and n/20 kernels `@k{j}` (`@k` first), each declared with `ad.reverse`: a struct_for
/// over `@x` that loads `@x[i]` into a local, updates it in a loop of 2 iterations (so each
/// gradient kernel has an adstack to size), runs a chain of 4 mulf/sin ops on it and adds the
/// result to `@y[i]` (20 ops per kernel with its declaration).
fn kernels(n: usize) -> String {
    let count = (n.saturating_sub(5) / 20).max(1);
    let mut s = String::with_capacity(n * 40 + 512);
    s.push_str(
        "module {\n  qd.field @x : !qd.field<64xf32> {needs_grad}\n  \
         qd.field @y : !qd.field<64xf32> {needs_grad}\n",
    );
    for j in 0..count {
        let name = if j == 0 {
            "k".to_string()
        } else {
            format!("k{j}")
        };
        let _ = writeln!(
            s,
            "  qd.kernel @{name}() {{\n    qd.struct_for (%i) in @x {{\n      \
             %x = qd.load @x[%i] : f32\n      %c = arith.constant 1.0001 : f32\n      \
             %c0 = arith.constant 0 : i32\n      %c2 = arith.constant 2 : i32\n      \
             %l = qd.alloca : !qd.ptr<f32>\n      qd.local_store %x, %l : !qd.ptr<f32>\n      \
             qd.range_for %j = %c0 to %c2 : i32 {{\n        \
             %a = qd.local_load %l : !qd.ptr<f32>\n        %m = arith.mulf %a, %c : f32\n        \
             %s = math.sin %m : f32\n        qd.local_store %s, %l : !qd.ptr<f32>\n      }}\n      \
             %r = qd.local_load %l : !qd.ptr<f32>\n      %v0 = arith.mulf %r, %c : f32"
        );
        for k in 0..3 {
            let _ = match k % 2 {
                0 => writeln!(s, "      %v{} = math.sin %v{k} : f32", k + 1),
                _ => writeln!(s, "      %v{} = arith.mulf %v{k}, %c : f32", k + 1),
            };
        }
        let _ = writeln!(
            s,
            "      qd.atomic_add %v3, @y[%i] : f32\n    }}\n  }}\n  ad.reverse @{name}"
        );
    }
    s.push_str("}\n");
    s
}

/// The passes timed after parse and verify, in two chains that each start from a fresh parse:
/// the cleanup passes one after another on the primal kernel, and the gradient pipeline as
/// qd's runtime runs it (then the lowering of the gradient module).
pub const CLEANUP_CHAIN: [(&str, &str); 6] = [
    ("cse", "builtin.module(cse)"),
    ("canonicalize", "builtin.module(canonicalize)"),
    ("dce", "builtin.module(dce)"),
    ("symbol-dce", "builtin.module(symbol-dce)"),
    // ndarray ops only: on these kernels it looks at every op and changes nothing.
    ("fuse-elementwise", "builtin.module(fuse-elementwise)"),
    (VERIFY_EACH, "builtin.module(qd.kernel(cse))"),
];

/// The step that runs a pass per kernel with verification after each (qd-opt's default): each
/// kernel is verified against the module's symbols, which must not cost the module's size per
/// kernel (the `kernels` shape has n/20 kernels). The other steps run without it.
pub const VERIFY_EACH: &str = "verify-each";

pub const GRADIENT_CHAIN: [(&str, &str); 6] = [
    (
        "element-access-ad",
        "builtin.module(qd.kernel(element-access-ad))",
    ),
    (
        "reverse-mode-ad",
        // The default choice (kernels with a declaration or that read and write differentiable
        // data): `@k` in the one-kernel shapes, every kernel in `kernels`.
        "builtin.module(reverse-mode-ad)",
    ),
    ("minimize-tape", "builtin.module(qd.kernel(minimize-tape))"),
    (
        "determine-ad-stack-size",
        "builtin.module(qd.kernel(determine-ad-stack-size))",
    ),
    (
        "simplify-size-expr",
        "builtin.module(qd.kernel(simplify-size-expr))",
    ),
    (
        "convert-qd-to-lowered",
        "builtin.module(convert-qd-to-lowered)",
    ),
];

/// Which chain a child process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    Cleanup,
    Gradient,
}

impl Chain {
    pub fn name(self) -> &'static str {
        match self {
            Chain::Cleanup => "cleanup",
            Chain::Gradient => "gradient",
        }
    }

    pub fn from_name(s: &str) -> Option<Chain> {
        [Chain::Cleanup, Chain::Gradient]
            .into_iter()
            .find(|c| c.name() == s)
    }

    pub fn passes(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Chain::Cleanup => &CLEANUP_CHAIN,
            Chain::Gradient => &GRADIENT_CHAIN,
        }
    }
}

/// CPU seconds this process has used (every thread, ended ones too): the machine the benchmark
/// runs on is shared, and CPU time does not count the time other processes hold the cores.
pub fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "CLOCK_PROCESS_CPUTIME_ID is supported on Linux");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Runs `chain` on `text`, calling `report(step, seconds)` (CPU seconds, see [`cpu_seconds`])
/// after parse, verify and each pass (so a caller that stops a slow step has the times of the
/// steps before it). The ops the parsed module holds are reported as step `ops` (value: the
/// count). Stops at the first failure, which it returns as text.
pub fn run_chain(
    text: &str,
    chain: Chain,
    mut report: impl FnMut(&str, f64),
) -> Result<(), String> {
    let reg = qd_passes::all_passes();
    let mut ctx = crate::context();
    ctx.allow_unregistered = false;
    let t = cpu_seconds();
    let Some(m) = qd_ir::text::parse_source(&mut ctx, text, "bench.mlir") else {
        return Err(format!("parse: {:?}", ctx.take_diagnostics()));
    };
    report("parse", cpu_seconds() - t);
    report("ops", ctx.walk_pre_order(m).len() as f64);
    let t = cpu_seconds();
    qd_ir::verifier::verify(&ctx, m).map_err(|d| format!("verify: {d:?}"))?;
    report("verify", cpu_seconds() - t);
    for &(name, pipeline) in chain.passes() {
        let mut pm = qd_pass::PassManager::parse(&reg, pipeline)
            .map_err(|e| format!("{name}: {}", e.message))?;
        // The pass manager verifies after each pass by default; the verifier is timed alone, and
        // with a pass per kernel in its own step.
        pm.verify_each = name == VERIFY_EACH;
        // (the op count before, the symbol added)
        let unused = (name == "symbol-dce").then(|| {
            let before = ctx.walk_pre_order(m).len();
            (before, add_unused_private_symbol(&mut ctx, m))
        });
        let t = cpu_seconds();
        let ok = pm.run(&mut ctx, m).is_ok();
        let secs = cpu_seconds() - t;
        if !ok {
            let diags: Vec<_> = ctx
                .take_diagnostics()
                .iter()
                .map(|d| d.message.clone())
                .collect();
            return Err(format!("{name} failed: {diags:?}"));
        }
        if let Some((before, unused)) = unused {
            // The pass must erase the one dead symbol, and only it (the kernels and fields are
            // public).
            if ctx.is_alive(unused) || ctx.walk_pre_order(m).len() != before {
                return Err(format!(
                    "{name}: did not erase exactly the unused private symbol"
                ));
            }
        }
        report(name, secs);
    }
    Ok(())
}

/// Appends an unused private function declaration to module `m`, untimed: a module with no
/// private symbol lets symbol-dce return at once (nothing can be dead), and the step would time
/// nothing; with one, the pass walks the module to find that symbol unused and erases it.
fn add_unused_private_symbol(ctx: &mut qd_ir::Context, m: qd_ir::OpId) -> qd_ir::OpId {
    let loc = ctx.unknown_loc();
    let body = qd_ir::builtin::module_body(ctx, m);
    let name = ctx.string_attr("pass_scaling_unused");
    let f32t = ctx.f32_type();
    let ft = ctx.function_type(vec![f32t], vec![]);
    let fta = ctx.type_attr(ft);
    let private = ctx.string_attr("private");
    let region = ctx.create_region();
    let st = qd_ir::OperationState::new("func.func", loc)
        .prop(ctx, "sym_name", name)
        .prop(ctx, "function_type", fta)
        .prop(ctx, "sym_visibility", private)
        .region(region);
    qd_ir::Builder::at_end(ctx, body).insert(st)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape at 200 ops makes IR that every pass of both chains accepts, and about 200
    /// ops of it (so that a size on the command line means that many ops).
    #[test]
    fn every_pass_succeeds_on_every_shape() {
        for shape in SHAPES {
            for chain in [Chain::Cleanup, Chain::Gradient] {
                let mut steps = Vec::new();
                run_chain(&shape.module(200), chain, |step, v| {
                    steps.push((step.to_string(), v))
                })
                .unwrap_or_else(|e| panic!("{} {}: {e}", shape.name(), chain.name()));
                let ops = steps.iter().find(|(s, _)| s == "ops").unwrap().1 as usize;
                assert!(ops.abs_diff(200) <= 40, "{}: {ops} ops", shape.name());
                assert_eq!(steps.len(), 3 + chain.passes().len());
            }
        }
    }

    /// Every registered pass is timed by one of the chains (a new pass must be added here).
    #[test]
    fn the_chains_time_every_registered_pass() {
        let mut timed: Vec<&str> = CLEANUP_CHAIN
            .iter()
            .chain(GRADIENT_CHAIN.iter())
            .map(|p| p.0)
            .filter(|&p| p != VERIFY_EACH)
            .collect();
        timed.sort();
        let mut registered: Vec<&str> = qd_passes::all_passes().iter().map(|p| p.name).collect();
        registered.sort();
        assert_eq!(timed, registered);
    }
}
