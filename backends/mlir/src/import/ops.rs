//! One MLIR op -> qd text (see the module doc of `import` for the mapping).

use super::{key, op_name, Importer, QTy, R};
use melior::ir::attribute::{FloatAttribute, IntegerAttribute};
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{BlockRef, OperationRef, RegionLike, ValueLike};

/// Whether a function's top level keeps its parallelism: only `scf.parallel` loops and
/// straight-line ops (no serial loop nor `if`, which qd would run in parallel or could not
/// place).
pub(super) fn parallel_top_level(block: &BlockRef<'_, '_>) -> bool {
    let mut any_parallel = false;
    let mut op = block.first_operation();
    while let Some(o) = op {
        match op_name(&o).as_str() {
            "scf.parallel" => any_parallel = true,
            "scf.for" | "scf.while" | "scf.if" | "scf.execute_region" => return false,
            _ => {}
        }
        op = o.next_in_block();
    }
    any_parallel
}

/// The qd ops that are upstream's and import as they are (generic form).
fn is_qd_op(name: &str) -> bool {
    use std::sync::OnceLock;
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let ctx = qd_dialects::context();
        ctx.registered_ops()
            .map(|i| i.name.to_string())
            .filter(|n| n.starts_with("arith.") || n.starts_with("math."))
            .collect()
    });
    names.iter().any(|n| n == name)
}

pub(super) fn op(im: &mut Importer, o: &OperationRef<'_, '_>) -> R<()> {
    let name = op_name(o);
    match name.as_str() {
        "arith.constant" => constant(im, o),
        "arith.index_cast" | "arith.index_castui" => index_cast(im, o, &name),
        "memref.load" => {
            let (m, t) = im.val(o, &opnd(im, o, 0)?)?;
            let idx = indices(im, o, 1)?;
            let QTy::Nd { elem, .. } = &t else {
                return Err(im.at(o, "memref.load of a non-memref"));
            };
            let r = result(im, o, 0, QTy::Scalar(elem.clone()))?;
            im.line(&format!(
                "{r} = qd.ndarray_load {m}[{}] : {}",
                idx.join(", "),
                t.text()
            ));
            Ok(())
        }
        "memref.store" => {
            let (v, _) = im.val(o, &opnd(im, o, 0)?)?;
            let (m, t) = im.val(o, &opnd(im, o, 1)?)?;
            let idx = indices(im, o, 2)?;
            im.line(&format!(
                "qd.ndarray_store {v}, {m}[{}] : {}",
                idx.join(", "),
                t.text()
            ));
            Ok(())
        }
        "memref.dim" => {
            let (m, t) = im.val(o, &opnd(im, o, 0)?)?;
            let d = opnd(im, o, 1)?;
            let Some(&axis) = im.consts.get(&key(&d)) else {
                return Err(im.at(o, "memref.dim of a dimension that is not a constant"));
            };
            let r = result(im, o, 0, QTy::Scalar("i32".into()))?;
            im.line(&format!(
                "{r} = qd.ndarray_shape {m}, {axis} : {}",
                t.text()
            ));
            Ok(())
        }
        "scf.for" => for_loop(im, o),
        "scf.parallel" => parallel(im, o),
        "scf.if" => if_op(im, o),
        "scf.while" => while_loop(im, o),
        n if is_qd_op(n) => generic(im, o, n),
        n => Err(im.at(o, format!("the MLIR import does not support '{n}'"))),
    }
}

/// Operand `i` of `o`.
fn opnd<'c, 'a>(im: &Importer, o: &OperationRef<'c, 'a>, i: usize) -> R<melior::ir::Value<'c, 'a>> {
    o.operand(i).map_err(|_| im.at(o, "an operand"))
}

/// Names result `i` of `o` with type `t`; returns the name.
fn result(im: &mut Importer, o: &OperationRef<'_, '_>, i: usize, t: QTy) -> R<String> {
    let r = o.result(i).map_err(|_| im.at(o, "a result"))?;
    let n = im.fresh();
    im.names.insert(key(&r), (n.clone(), t));
    Ok(n)
}

fn indices(im: &Importer, o: &OperationRef<'_, '_>, from: usize) -> R<Vec<String>> {
    (from..o.operand_count())
        .map(|i| {
            let v = opnd(im, o, i)?;
            Ok(im.val(o, &v)?.0)
        })
        .collect()
}

fn constant(im: &mut Importer, o: &OperationRef<'_, '_>) -> R<()> {
    let a = o
        .attribute("value")
        .map_err(|_| im.at(o, "arith.constant without a value"))?;
    let t = o.result(0).map_err(|_| im.at(o, "a result"))?.r#type();
    let qt = im.qty(o, t)?;
    let Some(ts) = qt.scalar().map(str::to_string) else {
        return Err(im.at(o, "the MLIR import takes scalar constants only"));
    };
    let lit = if let Ok(i) = IntegerAttribute::try_from(a) {
        let v = i.value();
        if ts == "i1" {
            (if v != 0 { "true" } else { "false" }).to_string()
        } else {
            if t.is_index() && i32::try_from(v).is_err() {
                return Err(im.at(o, format!("the index constant {v} does not fit in i32")));
            }
            im.consts
                .insert(key(&o.result(0).map_err(|_| im.at(o, "a result"))?), v);
            v.to_string()
        }
    } else if let Ok(f) = FloatAttribute::try_from(a) {
        // The exact bits, as MLIR writes a float by its bits.
        let v = f.value();
        match ts.as_str() {
            "f32" => format!("0x{:08X}", (v as f32).to_bits()),
            "f64" => format!("0x{:016X}", v.to_bits()),
            _ => format!("{v:e}"),
        }
    } else {
        return Err(im.at(o, "the MLIR import takes integer and float constants only"));
    };
    let r = result(im, o, 0, qt)?;
    im.line(&format!("{r} = arith.constant {lit} : {ts}"));
    Ok(())
}

/// `index_cast`: index is i32, so a cast is a sign (or zero) extension, a truncation or nothing.
fn index_cast(im: &mut Importer, o: &OperationRef<'_, '_>, name: &str) -> R<()> {
    let (x, xt) = im.val(o, &opnd(im, o, 0)?)?;
    let rt = o.result(0).map_err(|_| im.at(o, "a result"))?.r#type();
    let qt = im.qty(o, rt)?;
    let (Some(from), Some(to)) = (xt.scalar(), qt.scalar()) else {
        return Err(im.at(o, "an index cast of a non-scalar"));
    };
    let width = |s: &str| s.trim_start_matches('i').parse::<u32>().unwrap_or(64);
    let (wf, wt) = (width(from), width(to));
    let r = o.result(0).map_err(|_| im.at(o, "a result"))?;
    if wf == wt {
        im.names.insert(key(&r), (x, qt));
        return Ok(());
    }
    let op = if wf > wt {
        "arith.trunci"
    } else if name == "arith.index_castui" {
        "arith.extui"
    } else {
        "arith.extsi"
    };
    let (from, to) = (from.to_string(), to.to_string());
    let n = result(im, o, 0, qt)?;
    im.line(&format!("{n} = {op} {x} : {from} to {to}"));
    Ok(())
}

/// An arith or math op qd has: generic form, operands and result types, the predicate.
fn generic(im: &mut Importer, o: &OperationRef<'_, '_>, name: &str) -> R<()> {
    let mut args = Vec::new();
    let mut tys = Vec::new();
    for i in 0..o.operand_count() {
        let (n, t) = im.val(o, &opnd(im, o, i)?)?;
        let Some(s) = t.scalar() else {
            return Err(im.at(o, format!("'{name}' of a memref")));
        };
        tys.push(s.to_string());
        args.push(n);
    }
    let mut results = Vec::new();
    let mut rtys = Vec::new();
    for i in 0..o.result_count() {
        let t = o.result(i).map_err(|_| im.at(o, "a result"))?.r#type();
        let qt = im.qty(o, t)?;
        rtys.push(qt.text());
        results.push(result(im, o, i, qt)?);
    }
    let props = match o.attribute("predicate") {
        Ok(a) => {
            let p = IntegerAttribute::try_from(a)
                .map_err(|_| im.at(o, "a predicate that is not an integer"))?;
            format!(" <{{predicate = {} : i64}}>", p.value())
        }
        Err(_) => String::new(),
    };
    let lhs = if results.is_empty() {
        String::new()
    } else {
        format!("{} = ", results.join(", "))
    };
    im.line(&format!(
        "{lhs}\"{name}\"({}){props} : ({}) -> {}",
        args.join(", "),
        tys.join(", "),
        if rtys.len() == 1 {
            rtys[0].clone()
        } else {
            format!("({})", rtys.join(", "))
        }
    ));
    Ok(())
}

/// Private cells for carried values of types `tys`, each initialised from `inits` when given.
fn cells(
    im: &mut Importer,
    o: &OperationRef<'_, '_>,
    tys: &[QTy],
    inits: &[String],
) -> R<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (k, t) in tys.iter().enumerate() {
        let Some(s) = t.scalar() else {
            return Err(im.at(o, "a loop or if carrying a memref"));
        };
        let p = im.fresh();
        let ptr = format!("!qd.ptr<{s}>");
        im.line(&format!("{p} = qd.alloca : {ptr}"));
        if let Some(init) = inits.get(k) {
            im.line(&format!("qd.local_store {init}, {p} : {ptr}"));
        }
        out.push((p, ptr));
    }
    Ok(out)
}

/// Loads every cell into a fresh name bound to `values` (block arguments or op results).
fn load_cells<'c, V: ValueLike<'c>>(
    im: &mut Importer,
    cells: &[(String, String)],
    values: &[V],
    tys: &[QTy],
) {
    for (k, (p, ptr)) in cells.iter().enumerate() {
        let n = im.fresh();
        im.line(&format!("{n} = qd.local_load {p} : {ptr}"));
        im.names.insert(key(&values[k]), (n, tys[k].clone()));
    }
}

/// Stores the operands `from..` of terminator `t` into `cells`.
fn store_cells(
    im: &mut Importer,
    t: &OperationRef<'_, '_>,
    from: usize,
    cells: &[(String, String)],
) -> R<()> {
    for (k, (p, ptr)) in cells.iter().enumerate() {
        let v = opnd(im, t, from + k)?;
        let (n, _) = im.val(t, &v)?;
        im.line(&format!("qd.local_store {n}, {p} : {ptr}"));
    }
    Ok(())
}

fn result_types(im: &Importer, o: &OperationRef<'_, '_>) -> R<Vec<QTy>> {
    (0..o.result_count())
        .map(|i| im.qty(o, o.result(i).map_err(|_| im.at(o, "a result"))?.r#type()))
        .collect()
}

/// `scf.for %i = %lo to %hi step %s iter_args(...)`: a `qd.range_for` over the trip count
/// (directly over `lo .. hi` when the step is the constant 1).
fn for_loop(im: &mut Importer, o: &OperationRef<'_, '_>) -> R<()> {
    let (lo, lt) = im.val(o, &opnd(im, o, 0)?)?;
    let (hi, _) = im.val(o, &opnd(im, o, 1)?)?;
    let step_v = opnd(im, o, 2)?;
    let (step, _) = im.val(o, &step_v)?;
    if lt.scalar() != Some("i32") {
        return Err(im.at(o, "the MLIR import takes scf.for over index or i32"));
    }
    let tys = result_types(im, o)?;
    let inits: Vec<String> = (3..o.operand_count())
        .map(|i| Ok(im.val(o, &opnd(im, o, i)?)?.0))
        .collect::<R<_>>()?;
    let cs = cells(im, o, &tys, &inits)?;
    let region = o.region(0).map_err(|_| im.at(o, "a body"))?;
    let body = region.first_block().ok_or_else(|| im.at(o, "a body"))?;
    let iv = body
        .argument(0)
        .map_err(|_| im.at(o, "an induction variable"))?;
    let unit = im.consts.get(&key(&step_v)) == Some(&1);
    let k = im.fresh();
    if unit {
        im.line(&format!("qd.range_for {k} = {lo} to {hi} : i32 {{"));
        im.indent += 1;
        im.names.insert(key(&iv), (k, QTy::Scalar("i32".into())));
    } else {
        // trip = max(ceildiv(hi - lo, step), 0); i = lo + k * step.
        let (d, t, z, n) = (im.fresh(), im.fresh(), im.fresh(), im.fresh());
        im.line(&format!("{d} = arith.subi {hi}, {lo} : i32"));
        im.line(&format!("{t} = arith.ceildivsi {d}, {step} : i32"));
        im.line(&format!("{z} = arith.constant 0 : i32"));
        im.line(&format!("{n} = arith.maxsi {t}, {z} : i32"));
        im.line(&format!("qd.range_for {k} = {z} to {n} : i32 {{"));
        im.indent += 1;
        let (m, i) = (im.fresh(), im.fresh());
        im.line(&format!("{m} = arith.muli {k}, {step} : i32"));
        im.line(&format!("{i} = arith.addi {lo}, {m} : i32"));
        im.names.insert(key(&iv), (i, QTy::Scalar("i32".into())));
    }
    let args: Vec<_> = (1..body.argument_count())
        .map(|i| {
            body.argument(i)
                .map_err(|_| im.at(o, "an iteration argument"))
        })
        .collect::<R<_>>()?;
    load_cells(im, &cs, &args, &tys);
    let term = im.block(&body)?;
    if let Some(t) = term {
        store_cells(im, &t, 0, &cs)?;
    }
    im.indent -= 1;
    im.line("}");
    let results: Vec<_> = o.results().collect();
    load_cells(im, &cs, &results, &tys);
    Ok(())
}

/// `scf.parallel`: nested `qd.range_for`s, one per dimension; at the top level of a parallel
/// function (not wrapped in one thread) the outermost is a parallel loop, the others run serially
/// inside it.
fn parallel(im: &mut Importer, o: &OperationRef<'_, '_>) -> R<()> {
    if o.result_count() != 0 {
        return Err(im.at(
            o,
            "the MLIR import does not take scf.parallel with reductions",
        ));
    }
    let n = (o.operand_count()) / 3;
    let region = o.region(0).map_err(|_| im.at(o, "a body"))?;
    let body = region.first_block().ok_or_else(|| im.at(o, "a body"))?;
    for d in 0..n {
        let (lo, _) = im.val(o, &opnd(im, o, d)?)?;
        let (hi, _) = im.val(o, &opnd(im, o, n + d)?)?;
        let step_v = opnd(im, o, 2 * n + d)?;
        let (step, _) = im.val(o, &step_v)?;
        let iv = body
            .argument(d)
            .map_err(|_| im.at(o, "an induction variable"))?;
        let k = im.fresh();
        if im.consts.get(&key(&step_v)) == Some(&1) {
            im.line(&format!("qd.range_for {k} = {lo} to {hi} : i32 {{"));
            im.indent += 1;
            im.names.insert(key(&iv), (k, QTy::Scalar("i32".into())));
        } else {
            let (dd, t, z, c) = (im.fresh(), im.fresh(), im.fresh(), im.fresh());
            im.line(&format!("{dd} = arith.subi {hi}, {lo} : i32"));
            im.line(&format!("{t} = arith.ceildivsi {dd}, {step} : i32"));
            im.line(&format!("{z} = arith.constant 0 : i32"));
            im.line(&format!("{c} = arith.maxsi {t}, {z} : i32"));
            im.line(&format!("qd.range_for {k} = {z} to {c} : i32 {{"));
            im.indent += 1;
            let (m, i) = (im.fresh(), im.fresh());
            im.line(&format!("{m} = arith.muli {k}, {step} : i32"));
            im.line(&format!("{i} = arith.addi {lo}, {m} : i32"));
            im.names.insert(key(&iv), (i, QTy::Scalar("i32".into())));
        }
    }
    im.block(&body)?;
    for _ in 0..n {
        im.indent -= 1;
        im.line("}");
    }
    Ok(())
}

fn if_op(im: &mut Importer, o: &OperationRef<'_, '_>) -> R<()> {
    let (c, _) = im.val(o, &opnd(im, o, 0)?)?;
    let tys = result_types(im, o)?;
    let cs = cells(im, o, &tys, &[])?;
    let then_r = o.region(0).map_err(|_| im.at(o, "a then region"))?;
    let then_b = then_r
        .first_block()
        .ok_or_else(|| im.at(o, "a then block"))?;
    im.line(&format!("qd.if {c} {{"));
    im.indent += 1;
    if let Some(t) = im.block(&then_b)? {
        store_cells(im, &t, 0, &cs)?;
    }
    im.indent -= 1;
    let else_r = o.region(1).map_err(|_| im.at(o, "an else region"))?;
    match else_r.first_block() {
        Some(b) => {
            im.line("} else {");
            im.indent += 1;
            if let Some(t) = im.block(&b)? {
                store_cells(im, &t, 0, &cs)?;
            }
            im.indent -= 1;
            im.line("}");
        }
        None => im.line("}"),
    }
    let results: Vec<_> = o.results().collect();
    load_cells(im, &cs, &results, &tys);
    Ok(())
}

/// `scf.while`: the before region's arguments and the after region's live in cells (the same
/// cells when the condition forwards the before arguments unchanged, the usual form, so that the
/// condition writes nothing, as reverse mode requires; else the condition's values go to the
/// after cells); the body's yield goes to the before cells.
fn while_loop(im: &mut Importer, o: &OperationRef<'_, '_>) -> R<()> {
    let before_r = o.region(0).map_err(|_| im.at(o, "a before region"))?;
    let after_r = o.region(1).map_err(|_| im.at(o, "an after region"))?;
    let before = before_r
        .first_block()
        .ok_or_else(|| im.at(o, "a before block"))?;
    let after = after_r
        .first_block()
        .ok_or_else(|| im.at(o, "an after block"))?;
    let (btys, bvals) = block_args(im, o, &before)?;
    let (atys, avals) = block_args(im, o, &after)?;
    let inits: Vec<String> = (0..o.operand_count())
        .map(|i| Ok(im.val(o, &opnd(im, o, i)?)?.0))
        .collect::<R<_>>()?;
    let bcells = cells(im, o, &btys, &inits)?;
    let Some(cond) = before.terminator() else {
        return Err(im.at(o, "scf.while's before region without scf.condition"));
    };
    // The usual form forwards the before arguments unchanged: the after region then reads the
    // same cells, and the condition writes nothing (which reverse mode requires).
    let forwards = cond.operand_count() == bvals.len() + 1
        && (0..bvals.len()).all(|k| cond.operand(k + 1).is_ok_and(|v| key(&v) == key(&bvals[k])));
    let acells = if forwards {
        bcells.clone()
    } else {
        cells(im, o, &atys, &[])?
    };
    im.line("qd.while {");
    im.indent += 1;
    load_cells(im, &bcells, &bvals, &btys);
    let Some(cond) = im.block(&before)? else {
        return Err(im.at(o, "scf.while's before region without scf.condition"));
    };
    if !forwards {
        store_cells(im, &cond, 1, &acells)?;
    }
    let (c, _) = im.val(&cond, &opnd(im, &cond, 0)?)?;
    im.line(&format!("qd.condition {c}"));
    im.indent -= 1;
    im.line("} do {");
    im.indent += 1;
    load_cells(im, &acells, &avals, &atys);
    if let Some(t) = im.block(&after)? {
        store_cells(im, &t, 0, &bcells)?;
    }
    im.indent -= 1;
    im.line("}");
    let results: Vec<_> = o.results().collect();
    load_cells(im, &acells, &results, &atys);
    Ok(())
}

/// The qd types and the values of `b`'s arguments.
fn block_args<'c, 'a>(
    im: &Importer,
    o: &OperationRef<'_, '_>,
    b: &BlockRef<'c, 'a>,
) -> R<(Vec<QTy>, Vec<melior::ir::block::BlockArgument<'c, 'a>>)> {
    let mut tys = Vec::new();
    let mut vals = Vec::new();
    for i in 0..b.argument_count() {
        let a = b.argument(i).map_err(|_| im.at(o, "a block argument"))?;
        tys.push(im.qty(o, a.r#type())?);
        vals.push(a);
    }
    Ok((tys, vals))
}
