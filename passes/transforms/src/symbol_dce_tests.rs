use super::*;
use crate::test_dialect::{setup, B};
use qd_ir::symbol_table::symbol_name;
use qd_ir::{BlockId, OperationState, RegionId};

/// The names of the symbols directly in `block`.
fn symbols(ctx: &Context, block: BlockId) -> Vec<String> {
    ctx.block_ops(block)
        .filter_map(|o| symbol_name(ctx, o).map(str::to_string))
        .collect()
}

/// Gives a symbol's empty region a body block.
fn body(ctx: &mut Context, r: RegionId) -> BlockId {
    let b = ctx.create_block(&[]);
    ctx.append_block(r, b);
    b
}

/// A function `name` that calls each of `callees`.
fn func(ctx: &mut Context, at: BlockId, name: &str, vis: Option<&str>, callees: &[&str]) {
    let (_, r) = B::new(ctx, at).symbol("t.func", name, vis);
    let blk = body(ctx, r);
    let mut b = B::new(ctx, blk);
    for c in callees {
        b.call(c);
    }
    b.op("t.return", &[], &[]);
}

#[test]
fn private_symbols_die_unless_reachable_from_public_ones() {
    let (mut ctx, m, top) = setup();
    func(&mut ctx, top, "main", None, &["a"]);
    func(&mut ctx, top, "a", Some("private"), &["b"]);
    func(&mut ctx, top, "b", Some("private"), &[]);
    func(&mut ctx, top, "dead1", Some("private"), &["dead2", "b"]);
    func(&mut ctx, top, "dead2", Some("private"), &["dead1"]);
    func(&mut ctx, top, "nested_vis", Some("nested"), &[]);
    func(&mut ctx, top, "lib", Some("public"), &[]);
    let mut pass = SymbolDcePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["main", "a", "b", "nested_vis", "lib"]);
    assert_eq!(pass.statistics()[0].value, 2);
    assert!(!pass.run(&mut ctx, m).unwrap().changed);
}

/// Without any `sym_visibility` in the context every symbol is public and nothing goes; a
/// private symbol added later (its visibility an attribute) is then found and erased.
#[test]
fn a_context_without_visibilities_keeps_everything() {
    let (mut ctx, m, top) = setup();
    func(&mut ctx, top, "main", None, &["a"]);
    func(&mut ctx, top, "a", None, &[]);
    func(&mut ctx, top, "b", None, &[]);
    assert!(ctx.lookup_ident("sym_visibility").is_none());
    let mut pass = SymbolDcePass::default();
    assert!(!pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["main", "a", "b"]);
    let (f, _) = B::new(&mut ctx, top).symbol("t.func", "c", None);
    let p = ctx.string_attr("private");
    ctx.set_attr(f, "sym_visibility", p);
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["main", "a", "b"]);
    assert_eq!(pass.statistics()[0].value, 1);
}

#[test]
fn non_symbol_ops_are_roots_and_visibility_may_be_an_attribute() {
    let (mut ctx, m, top) = setup();
    func(&mut ctx, top, "used", Some("private"), &[]);
    func(&mut ctx, top, "unused", Some("private"), &[]);
    B::new(&mut ctx, top).call("used");
    let (f, _) = B::new(&mut ctx, top).symbol("t.func", "attr_private", None);
    let p = ctx.string_attr("private");
    ctx.set_attr(f, "sym_visibility", p);
    assert!(SymbolDcePass::default().run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["used"]);
}

/// `t.table @name` with a body block.
fn table(ctx: &mut Context, at: BlockId, name: &str, vis: Option<&str>) -> BlockId {
    let (_, r) = B::new(ctx, at).symbol("t.table", name, vis);
    body(ctx, r)
}

#[test]
fn nested_symbol_tables() {
    let (mut ctx, m, top) = setup();
    // A public table: its public symbols live, its private ones only when referenced.
    let inner = table(&mut ctx, top, "inner", None);
    func(&mut ctx, inner, "pub", None, &["outer_helper"]);
    func(&mut ctx, inner, "priv_unused", Some("private"), &[]);
    func(&mut ctx, inner, "priv_by_path", Some("private"), &[]);
    // Referenced from inside `inner`, resolved outward.
    func(&mut ctx, top, "outer_helper", Some("private"), &[]);
    // A private table referenced through a nested path keeps the path.
    let lib = table(&mut ctx, top, "lib", Some("private"));
    func(&mut ctx, lib, "f", Some("private"), &[]);
    func(&mut ctx, lib, "g", Some("private"), &[]);
    // An unreferenced private table goes with its contents.
    let gone = table(&mut ctx, top, "gone", Some("private"));
    func(&mut ctx, gone, "h", None, &[]);
    func(&mut ctx, top, "main", None, &["lib::@f"]);
    let main = ctx.last_op(top).unwrap();
    let blk = ctx.entry_block(ctx.region(main, 0)).unwrap();
    let path = {
        let root = ctx.ident("inner");
        let leaf = ctx.ident("priv_by_path");
        ctx.intern_attr(AttrData::SymbolRef {
            root,
            nested: vec![leaf],
        })
    };
    let call = ctx.first_op(blk).unwrap();
    let lib_f = {
        let root = ctx.ident("lib");
        let leaf = ctx.ident("f");
        ctx.intern_attr(AttrData::SymbolRef {
            root,
            nested: vec![leaf],
        })
    };
    ctx.set_prop(call, "callee", lib_f);
    let arr = ctx.array_attr(vec![path]);
    ctx.set_attr(call, "more", arr);

    assert!(SymbolDcePass::default().run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["inner", "outer_helper", "lib", "main"]);
    assert_eq!(symbols(&ctx, inner), ["pub", "priv_by_path"]);
    assert_eq!(symbols(&ctx, lib), ["f"]);
}

/// A symbol table nested in an op that is not one (here inside a `t.scope`, after ops without
/// regions) is found and has its dead symbols erased; it is live itself as part of a live op.
#[test]
fn tables_inside_non_table_ops_are_swept() {
    let (mut ctx, m, top) = setup();
    func(&mut ctx, top, "main", None, &[]);
    let main = ctx.last_op(top).unwrap();
    let blk = ctx.entry_block(ctx.region(main, 0)).unwrap();
    let ret = ctx.last_op(blk).unwrap();
    let mut b = B::new(&mut ctx, blk);
    let (scope_op, scope) = b.region_op("t.scope", &[]);
    ctx.move_op_before(scope_op, ret);
    let inner = table(&mut ctx, scope, "inner", Some("private"));
    func(&mut ctx, inner, "used", Some("private"), &[]);
    func(&mut ctx, inner, "unused", Some("private"), &[]);
    func(&mut ctx, inner, "caller", None, &["used"]);
    let mut pass = SymbolDcePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["main"]);
    assert_eq!(symbols(&ctx, scope), ["inner"]);
    assert_eq!(symbols(&ctx, inner), ["used", "caller"]);
    assert_eq!(pass.statistics()[0].value, 1);
}

/// A dead private symbol whose result is used stays (erasing it would break SSA); it was not
/// walked, so nothing in it is live, and the symbols of its table go, public ones too.
#[test]
fn dead_symbols_with_used_results_stay_and_lose_their_symbols() {
    let (mut ctx, m, top) = setup();
    func(&mut ctx, top, "main", None, &[]);
    let t = ctx.i32_type();
    let (r, inner) = ctx.create_region_with_block(&[]);
    let name = ctx.string_attr("held");
    let private = ctx.string_attr("private");
    let loc = ctx.unknown_loc();
    let st = OperationState::new("t.table", loc)
        .region(r)
        .results(&[t])
        .prop(&mut ctx, "sym_name", name)
        .prop(&mut ctx, "sym_visibility", private);
    let held = B::new(&mut ctx, top).push(st);
    let v = ctx.result(held, 0);
    B::new(&mut ctx, top).op("t.use", &[v], &[]);
    func(&mut ctx, inner, "pub_inside", None, &[]);
    func(&mut ctx, inner, "priv_inside", Some("private"), &[]);
    func(&mut ctx, top, "dead", Some("private"), &[]);
    let mut pass = SymbolDcePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["main", "held"]);
    assert!(symbols(&ctx, inner).is_empty());
    assert_eq!(pass.statistics()[0].value, 3);
}

#[test]
fn only_symbol_tables_are_accepted() {
    let (mut ctx, _, top) = setup();
    func(&mut ctx, top, "f", None, &[]);
    let f = ctx.first_op(top).unwrap();
    assert!(SymbolDcePass::default().run(&mut ctx, f).is_err());
    assert_eq!(
        ctx.diagnostics()[0].message,
        "'t.func' op was scheduled to run under symbol-dce, but does not define a symbol table"
    );
}

#[test]
fn unresolved_references_are_ignored() {
    let (mut ctx, m, top) = setup();
    func(&mut ctx, top, "main", None, &["nowhere", "main"]);
    assert!(!SymbolDcePass::default().run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["main"]);
}

/// References resolved only in tables without private symbols name live symbols and are not
/// looked up; a reference from such a table to a private symbol of a table around it still is.
#[test]
fn references_out_of_all_public_tables_still_resolve() {
    let (mut ctx, m, top) = setup();
    let pubs = table(&mut ctx, top, "pubs", None);
    func(&mut ctx, pubs, "p", None, &["helper"]);
    func(&mut ctx, pubs, "q", None, &["p", "nowhere"]);
    func(&mut ctx, top, "helper", Some("private"), &[]);
    func(&mut ctx, top, "dead", Some("private"), &["helper"]);
    assert!(SymbolDcePass::default().run(&mut ctx, m).unwrap().changed);
    assert_eq!(symbols(&ctx, top), ["pubs", "helper"]);
    assert_eq!(symbols(&ctx, pubs), ["p", "q"]);
    // On the inner table alone: the tables around it were not reached, so its references
    // resolve outward as usual, and it keeps everything.
    let (mut ctx, _, top) = setup();
    let pubs = table(&mut ctx, top, "pubs", None);
    func(&mut ctx, pubs, "p", None, &["helper"]);
    func(&mut ctx, top, "helper", Some("private"), &[]);
    let t = ctx.first_op(top).unwrap();
    assert!(!SymbolDcePass::default().run(&mut ctx, t).unwrap().changed);
    assert_eq!(symbols(&ctx, pubs), ["p"]);
}

/// A xorshift generator: the random nests below are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
    fn name(&mut self) -> &'static str {
        ["a", "b", "c", "d"][self.below(4) as usize]
    }
}

/// Appends to `block` random functions (public, private or nested; visibility as a property or
/// an attribute), nested tables, `t.scope` regions and calls.
fn random_ops(ctx: &mut Context, rng: &mut Rng, block: BlockId, depth: u32) {
    for _ in 0..rng.below(6) {
        match rng.below(6) {
            0..=2 if depth < 4 => {
                let vis = [None, Some("private"), Some("private"), Some("nested")];
                let vis = vis[rng.below(4) as usize];
                let name = rng.name();
                let r = if rng.below(2) == 0 {
                    B::new(ctx, block).symbol("t.func", name, vis).1
                } else {
                    // Visibility as a discardable attribute.
                    let (f, r) = B::new(ctx, block).symbol("t.func", name, None);
                    if let Some(v) = vis {
                        let v = ctx.string_attr(v);
                        ctx.set_attr(f, "sym_visibility", v);
                    }
                    r
                };
                let b = body(ctx, r);
                random_ops(ctx, rng, b, depth + 1);
            }
            3 if depth < 3 => {
                let vis = [None, Some("private")][rng.below(2) as usize];
                let name = rng.name();
                let inner = table(ctx, block, name, vis);
                random_ops(ctx, rng, inner, depth + 1);
            }
            4 if depth < 3 => {
                let (_, inner) = B::new(ctx, block).region_op("t.scope", &[]);
                random_ops(ctx, rng, inner, depth + 1);
            }
            _ => {
                // A flat or a nested reference, as the callee or inside an array attribute.
                let root = ctx.ident(rng.name());
                let nested = match rng.below(3) {
                    0 => vec![ctx.ident(rng.name())],
                    _ => Vec::new(),
                };
                let r = ctx.intern_attr(AttrData::SymbolRef { root, nested });
                let call = B::new(ctx, block).op("t.call", &[], &[]);
                if rng.below(2) == 0 {
                    ctx.set_prop(call, "callee", r);
                } else {
                    let arr = ctx.array_attr(vec![r]);
                    ctx.set_attr(call, "more", arr);
                }
            }
        }
    }
}

/// The ops live by the definition in the module docs, by a plain fixpoint: the whole tree is
/// rescanned, each reference resolved by linear lookups, until nothing is added.
fn live_by_definition(ctx: &Context, root: OpId) -> std::collections::HashSet<OpId> {
    use qd_ir::symbol_table::{lookup_symbol_in, op_symbol_refs, symbol_visibility, Visibility};
    let mut live = std::collections::HashSet::from([root]);
    loop {
        let before = live.len();
        for op in ctx.walk_pre_order(root) {
            if !live.contains(&op) {
                continue;
            }
            let table = is_symbol_table(ctx, op);
            for child in children(ctx, op) {
                let private = symbol_visibility(ctx, child) == Visibility::Private;
                if !table || !is_symbol(ctx, child) || !private {
                    live.insert(child);
                }
            }
            for r in op_symbol_refs(ctx, op) {
                let AttrData::SymbolRef { root: name, nested } = ctx.attr_data(r).clone() else {
                    continue;
                };
                let mut scope = ctx.parent_op(op);
                let found = loop {
                    let Some(s) = scope else { break None };
                    if is_symbol_table(ctx, s) {
                        if let Some(f) = lookup_symbol_in(ctx, s, ctx.ident_str(name)) {
                            break Some(f);
                        }
                    }
                    scope = ctx.parent_op(s);
                };
                let Some(mut cur) = found else { continue };
                live.insert(cur);
                for n in nested {
                    if !is_symbol_table(ctx, cur) {
                        break;
                    }
                    match lookup_symbol_in(ctx, cur, ctx.ident_str(n)) {
                        Some(f) => {
                            live.insert(f);
                            cur = f;
                        }
                        None => break,
                    }
                }
            }
        }
        if live.len() == before {
            return live;
        }
    }
}

/// The ops in `op` (itself included) in pre-order, leaving out the symbols of tables that
/// `live` lacks, and what they hold.
fn kept(ctx: &Context, op: OpId, live: &std::collections::HashSet<OpId>, out: &mut Vec<OpId>) {
    out.push(op);
    let table = is_symbol_table(ctx, op);
    for child in children(ctx, op) {
        if !(table && is_symbol(ctx, child) && !live.contains(&child)) {
            kept(ctx, child, live, out);
        }
    }
}

/// On random nests of functions, tables, scopes and references (flat and nested, held as
/// properties and inside attributes), the pass keeps exactly the ops the definition keeps.
#[test]
fn random_nests_keep_what_the_definition_keeps() {
    // Both ways of finding liveness: the pass over the context's ops (a module anchor), and
    // the walk down the nest.
    for walk_only in [false, true] {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut changed = 0;
        // How many nests the pass over the context's ops decides (not handed to the walk).
        let mut linear_answers = 0;
        for _ in 0..400 {
            let (mut ctx, m, top) = setup();
            random_ops(&mut ctx, &mut rng, top, 0);
            // Ops outside the anchor are no uses: a detached nest, and another module.
            let loc = ctx.unknown_loc();
            let (other, other_top) = qd_ir::builtin::create_module(&mut ctx, loc);
            random_ops(&mut ctx, &mut rng, other_top, 0);
            let inner = table(&mut ctx, top, "detached", None);
            random_ops(&mut ctx, &mut rng, inner, 1);
            let detached = ctx.block_parent_op(inner).unwrap();
            ctx.detach_op(detached);
            let outside = (ctx.walk_pre_order(other), ctx.walk_pre_order(detached));
            let live = live_by_definition(&ctx, m);
            let mut want = Vec::new();
            kept(&ctx, m, &live, &mut want);
            linear_answers += usize::from(linear::compute_in_root(&ctx, m).is_some());
            let mut pass = SymbolDcePass {
                walk_only,
                ..Default::default()
            };
            let outcome = pass.run(&mut ctx, m).unwrap();
            assert_eq!(ctx.walk_pre_order(m), want);
            let after = (ctx.walk_pre_order(other), ctx.walk_pre_order(detached));
            assert_eq!(after, outside);
            changed += usize::from(outcome.changed);
        }
        // The nests exercise erasure, not only its absence.
        assert!(changed > 100, "{changed} of 400 changed");
        assert_eq!(linear_answers, 400);
    }
}

/// A name defined twice in a table resolves to its first definition, public or private; an op
/// that is not a symbol but has a `sym_name` still defines the name in its table, hiding the
/// tables around it; a private symbol whose name no reference spells (the context has no
/// identifier for it) goes. Both ways of finding liveness agree.
#[test]
fn first_definitions_and_named_ops_decide_what_a_name_means() {
    for walk_only in [false, true] {
        let (mut ctx, m, top) = setup();
        func(&mut ctx, top, "a", None, &[]);
        func(&mut ctx, top, "a", Some("private"), &[]);
        func(&mut ctx, top, "b", Some("private"), &[]);
        func(&mut ctx, top, "b", None, &[]);
        func(&mut ctx, top, "c", Some("private"), &[]);
        func(&mut ctx, top, "c", None, &[]);
        func(&mut ctx, top, "h", Some("private"), &[]);
        let inner = table(&mut ctx, top, "inner", None);
        let named = B::new(&mut ctx, inner).op("t.effect", &[], &[]);
        let h = ctx.string_attr("h");
        ctx.set_prop(named, "sym_name", h);
        func(&mut ctx, inner, "user", None, &["h"]);
        func(&mut ctx, top, "main", None, &["a", "b"]);
        let (never, _) = B::new(&mut ctx, top).symbol("t.func", "never_spelled", Some("private"));
        assert!(ctx.lookup_ident("never_spelled").is_none());
        let mut pass = SymbolDcePass {
            walk_only,
            ..Default::default()
        };
        assert!(pass.run(&mut ctx, m).unwrap().changed);
        assert!(!ctx.is_alive(never));
        assert_eq!(symbols(&ctx, top), ["a", "b", "b", "c", "inner", "main"]);
        assert_eq!(symbols(&ctx, inner), ["h", "user"]);
        assert_eq!(pass.statistics()[0].value, 4);
    }
}
