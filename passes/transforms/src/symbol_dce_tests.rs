use super::*;
use crate::test_dialect::{setup, B};
use qd_ir::symbol_table::symbol_name;
use qd_ir::{BlockId, RegionId};

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
