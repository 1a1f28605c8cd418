use super::*;
use crate::verifier::test_dialect::{self as td, call, func, op};

/// module { func @f; module @inner { func @g { call @f }; func @f }; func @h { call @inner::@g } }
struct Nest {
    ctx: Context,
    outer: OpId,
    f: OpId,
    inner: OpId,
    g: OpId,
    inner_f: OpId,
    call_in_g: OpId,
    h: OpId,
}

fn nest() -> Nest {
    let mut ctx = td::ctx();
    let (outer, body) = td::module(&mut ctx);
    let (f, _) = func(&mut ctx, body, "f", 0, 2);
    let l = td::loc(&mut ctx, 3);
    let (inner, inner_body) = crate::builtin::create_module(&mut ctx, l);
    let n = ctx.string_attr("inner");
    ctx.set_attr(inner, "sym_name", n);
    ctx.append_op(body, inner);
    let (g, g_entry) = func(&mut ctx, inner_body, "g", 0, 4);
    let call_in_g = call(&mut ctx, g_entry, "f", 5);
    let (inner_f, _) = func(&mut ctx, inner_body, "f", 0, 6);
    let (h, h_entry) = func(&mut ctx, body, "h", 0, 7);
    let c = op(&mut ctx, h_entry, "test.call", &[], 0, 8);
    let r = {
        let root = ctx.ident("inner");
        let g = ctx.ident("g");
        ctx.intern_attr(AttrData::SymbolRef {
            root,
            nested: vec![g],
        })
    };
    ctx.set_prop(c, "callee", r);
    Nest {
        ctx,
        outer,
        f,
        inner,
        g,
        inner_f,
        call_in_g,
        h,
    }
}

#[test]
fn table_maps_names_in_order() {
    let n = nest();
    let t = SymbolTable::new(&n.ctx, n.outer);
    assert_eq!(t.op(), n.outer);
    assert_eq!(t.len(), 3);
    assert!(!t.is_empty());
    let names: Vec<(&str, OpId)> = t.iter(&n.ctx).collect();
    assert_eq!(names, vec![("f", n.f), ("inner", n.inner), ("h", n.h)]);
    assert_eq!(t.lookup(&n.ctx, "inner"), Some(n.inner));
    assert_eq!(
        t.lookup(&n.ctx, "g"),
        None,
        "nested tables are not flattened"
    );
    assert!(t.contains(&n.ctx, "h"));
    assert!(t.duplicates().is_empty());
    let inner = SymbolTable::new(&n.ctx, n.inner);
    assert_eq!(inner.lookup(&n.ctx, "f"), Some(n.inner_f));
}

#[test]
fn duplicates_keep_the_first() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (a1, _) = func(&mut ctx, body, "a", 0, 2);
    let (a2, _) = func(&mut ctx, body, "a", 0, 3);
    let mut t = SymbolTable::new(&ctx, m);
    assert_eq!(t.lookup(&ctx, "a"), Some(a1));
    assert_eq!(t.duplicates(), &[(a1, a2)]);
    assert_eq!(t.remove(&ctx, "a"), Some(a1));
    assert!(t.is_empty());
    // An op without regions has an empty table.
    let leaf = op(&mut ctx, body, "test.pure", &[], 0, 4);
    assert!(SymbolTable::new(&ctx, leaf).is_empty());
}

#[test]
fn insert_records_added_symbols() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (a, _) = func(&mut ctx, body, "a", 0, 2);
    let mut t = SymbolTable::new(&ctx, m);
    let (b, _) = func(&mut ctx, body, "b", 0, 3);
    assert!(!t.contains(&ctx, "b"));
    assert!(t.insert(&ctx, "b", b));
    assert_eq!(t.lookup(&ctx, "b"), Some(b));
    let names: Vec<(&str, OpId)> = t.iter(&ctx).collect();
    assert_eq!(names, vec![("a", a), ("b", b)]);
    // A second definition keeps the first, as `new` does.
    let (a2, _) = func(&mut ctx, body, "a", 0, 4);
    assert!(!t.insert(&ctx, "a", a2));
    assert_eq!(t.lookup(&ctx, "a"), Some(a));
    assert_eq!(t.duplicates(), &[(a, a2)]);
    let fresh = SymbolTable::new(&ctx, m);
    assert_eq!(
        fresh.iter(&ctx).collect::<Vec<_>>(),
        t.iter(&ctx).collect::<Vec<_>>()
    );
}

/// Names with an identifier are keyed by it, names without one by their text; every lookup
/// (by text, by identifier, through a `SymbolRef`) and the duplicate check see both kinds, also
/// when the identifier of a text-keyed name is interned after the table was built.
#[test]
fn names_with_and_without_identifiers() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let a_ref = ctx.symbol_ref_attr("a");
    let (a, _) = func(&mut ctx, body, "a", 0, 2);
    let (b, _) = func(&mut ctx, body, "b", 0, 3);
    assert!(
        ctx.lookup_ident("b").is_none(),
        "the test needs @b without an identifier"
    );
    let mut t = SymbolTable::new(&ctx, m);
    let a_id = ctx.lookup_ident("a").unwrap();
    assert_eq!(t.get(&ctx, a_id), Some(a));
    assert_eq!(t.lookup(&ctx, "a"), Some(a));
    assert_eq!(t.lookup(&ctx, "b"), Some(b));
    // @b's identifier appears only now: found by identifier, by text and through a reference.
    let b_ref = ctx.symbol_ref_attr("b");
    let b_id = ctx.lookup_ident("b").unwrap();
    assert_eq!(t.get(&ctx, b_id), Some(b));
    assert_eq!(t.lookup(&ctx, "b"), Some(b));
    let mut symbols = SymbolTableCollection::new();
    let (c, c_entry) = func(&mut ctx, body, "c", 0, 4);
    let user = op(&mut ctx, c_entry, "test.pure", &[], 0, 5);
    assert_eq!(symbols.lookup_symbol_ref_from(&ctx, user, b_ref), Some(b));
    assert_eq!(symbols.lookup_symbol_ref_from(&ctx, user, a_ref), Some(a));
    assert_eq!(symbols.lookup_symbol_from(&ctx, user, "c"), Some(c));
    assert_eq!(symbols.lookup_ident_from(&ctx, user, b_id), Some(b));
    // A redefinition is one whichever way the first was keyed.
    let (b2, _) = func(&mut ctx, body, "b", 0, 6);
    assert!(!t.insert(&ctx, "b", b2));
    let (a2, _) = func(&mut ctx, body, "a", 0, 7);
    assert!(!t.insert(&ctx, "a", a2));
    assert_eq!(t.duplicates(), &[(b, b2), (a, a2)]);
    // Unknown names, with or without an identifier.
    let z = ctx.ident("z");
    assert_eq!(t.get(&ctx, z), None);
    assert_eq!(t.lookup(&ctx, "z"), None);
    assert_eq!(t.lookup(&ctx, "nowhere"), None);
    assert_eq!(symbols.lookup_symbol_from(&ctx, user, "nowhere"), None);
    // Removing either kind keeps the order of the rest.
    assert_eq!(t.remove(&ctx, "a"), Some(a));
    assert_eq!(t.remove(&ctx, "a"), None);
    assert_eq!(t.ops(), &[b]);
    assert_eq!(t.remove(&ctx, "b"), Some(b));
    assert!(t.is_empty() && t.lookup(&ctx, "b").is_none());
}

#[test]
fn first_keyed_op_indexes_a_block_once() {
    let mut ctx = td::ctx();
    let (_, body) = td::module(&mut ctx);
    let (f, _) = func(&mut ctx, body, "f", 0, 2);
    let (g, _) = func(&mut ctx, body, "g", 0, 3);
    let (f2, _) = func(&mut ctx, body, "f", 0, 4);
    fn key(ctx: &Context, op: OpId) -> Option<String> {
        symbol_name(ctx, op).map(str::to_string)
    }
    let mut c = SymbolTableCollection::new();
    assert_eq!(c.first_keyed_op(&ctx, body, "name", key, "f"), Some(f));
    assert_ne!(c.first_keyed_op(&ctx, body, "name", key, "f"), Some(f2));
    assert_eq!(c.first_keyed_op(&ctx, body, "name", key, "g"), Some(g));
    assert_eq!(c.first_keyed_op(&ctx, body, "name", key, "h"), None);
    // Built once: an op added later is not seen by this collection, but by a new one.
    let (h, _) = func(&mut ctx, body, "h", 0, 5);
    assert_eq!(c.first_keyed_op(&ctx, body, "name", key, "h"), None);
    let mut fresh = SymbolTableCollection::new();
    assert_eq!(fresh.first_keyed_op(&ctx, body, "name", key, "h"), Some(h));
}

#[test]
fn names_and_visibility() {
    let mut ctx = td::ctx();
    let (_, body) = td::module(&mut ctx);
    let (f, _) = func(&mut ctx, body, "f", 0, 2);
    assert_eq!(symbol_name(&ctx, f), Some("f"));
    assert_eq!(symbol_visibility(&ctx, f), Visibility::Public);
    let p = ctx.string_attr("private");
    ctx.set_attr(f, "sym_visibility", p);
    assert_eq!(symbol_visibility(&ctx, f), Visibility::Private);
    let n = ctx.string_attr("nested");
    ctx.set_prop(f, "sym_visibility", n);
    assert_eq!(symbol_visibility(&ctx, f), Visibility::Nested);
    // sym_name as a discardable attribute counts; a non-string does not.
    let o = op(&mut ctx, body, "x.y", &[], 0, 3);
    assert_eq!(symbol_name(&ctx, o), None);
    let s = ctx.string_attr("xy");
    ctx.set_attr(o, "sym_name", s);
    assert_eq!(symbol_name(&ctx, o), Some("xy"));
    let u = ctx.unit_attr();
    ctx.set_prop(o, "sym_name", u);
    assert_eq!(symbol_name(&ctx, o), None);
}

#[test]
fn nearest_table_and_lookups() {
    let n = nest();
    let ctx = &n.ctx;
    assert_eq!(nearest_symbol_table(ctx, n.call_in_g), Some(n.inner));
    assert_eq!(nearest_symbol_table(ctx, n.inner), Some(n.inner), "itself");
    assert_eq!(nearest_symbol_table(ctx, n.f), Some(n.outer));
    let tables: Vec<OpId> = enclosing_symbol_tables(ctx, n.call_in_g).collect();
    assert_eq!(tables, vec![n.inner, n.outer]);
    // The inner @f shadows the outer one; outer names are found by searching outward.
    assert_eq!(lookup_symbol_from(ctx, n.call_in_g, "f"), Some(n.inner_f));
    assert_eq!(lookup_symbol_from(ctx, n.call_in_g, "h"), Some(n.h));
    assert_eq!(lookup_symbol_from(ctx, n.h, "g"), None);
    assert_eq!(lookup_symbol_from(ctx, n.h, "f"), Some(n.f));
    assert_eq!(lookup_symbol_in(ctx, n.inner, "g"), Some(n.g));
    assert_eq!(lookup_symbol_in(ctx, n.f, "g"), None);
}

#[test]
fn nested_references() {
    let mut n = nest();
    let ctx = &mut n.ctx;
    let r = {
        let root = ctx.ident("inner");
        let g = ctx.ident("g");
        ctx.intern_attr(AttrData::SymbolRef {
            root,
            nested: vec![g],
        })
    };
    assert_eq!(lookup_symbol_ref_from(ctx, n.h, r), Some(n.g));
    assert_eq!(format_symbol_ref(ctx, r), "@inner::@g");
    // @f::@x: @f is not a symbol table.
    let bad = {
        let root = ctx.ident("f");
        let x = ctx.ident("x");
        ctx.intern_attr(AttrData::SymbolRef {
            root,
            nested: vec![x],
        })
    };
    assert_eq!(lookup_symbol_ref_from(ctx, n.h, bad), None);
    let missing = ctx.symbol_ref_attr("nope");
    assert_eq!(lookup_symbol_ref_from(ctx, n.h, missing), None);
    let not_ref = ctx.unit_attr();
    assert_eq!(lookup_symbol_ref_from(ctx, n.h, not_ref), None);
    assert_eq!(format_symbol_ref(ctx, not_ref), "");
}

#[test]
fn collection_resolves_as_the_uncached_lookups() {
    // The verifier's cache must give lookup_symbol_from's answers on nested tables (inner @f
    // shadowing the outer one, @inner::@g, names only outer tables define), whatever the order
    // of the queries that filled it.
    let mut n = nest();
    let ctx = &mut n.ctx;
    let refs = [
        {
            let root = ctx.ident("inner");
            let g = ctx.ident("g");
            ctx.intern_attr(AttrData::SymbolRef {
                root,
                nested: vec![g],
            })
        },
        {
            let root = ctx.ident("f");
            let g = ctx.ident("g");
            ctx.intern_attr(AttrData::SymbolRef {
                root,
                nested: vec![g],
            })
        },
        ctx.symbol_ref_attr("f"),
        ctx.symbol_ref_attr("nope"),
        ctx.unit_attr(),
    ];
    let l = td::loc(ctx, 9);
    let detached = ctx.create_op(crate::builder::OperationState::new("test.pure", l));
    let ctx = &n.ctx;
    let mut ops = ctx.walk_pre_order(n.outer);
    ops.push(detached);
    for order in [ops.clone(), ops.iter().rev().copied().collect()] {
        let mut c = SymbolTableCollection::new();
        for &op in &order {
            assert_eq!(
                c.nearest_symbol_table(ctx, op),
                nearest_symbol_table(ctx, op)
            );
            for name in ["f", "g", "h", "inner", "nope"] {
                assert_eq!(
                    c.lookup_symbol_from(ctx, op, name),
                    lookup_symbol_from(ctx, op, name),
                    "{name} from {op:?}"
                );
            }
            for &r in &refs {
                assert_eq!(
                    c.lookup_symbol_ref_from(ctx, op, r),
                    lookup_symbol_ref_from(ctx, op, r)
                );
            }
        }
    }
    // The answers the comparison relies on: shadowing and nested references resolve.
    let mut c = SymbolTableCollection::new();
    assert_eq!(c.lookup_symbol_from(ctx, n.call_in_g, "f"), Some(n.inner_f));
    assert_eq!(c.lookup_symbol_from(ctx, n.call_in_g, "h"), Some(n.h));
    assert_eq!(c.lookup_symbol_from(ctx, n.h, "f"), Some(n.f));
    assert_eq!(c.lookup_symbol_ref_from(ctx, n.h, refs[0]), Some(n.g));
    assert_eq!(c.lookup_symbol_in(ctx, n.inner, "g"), Some(n.g));
    assert_eq!(c.table(ctx, n.outer).len(), 3);
}

#[test]
fn uses_inside_arrays_and_dicts() {
    let mut n = nest();
    let ctx = &mut n.ctx;
    let (a, b, c) = (
        ctx.symbol_ref_attr("a"),
        ctx.symbol_ref_attr("b"),
        ctx.symbol_ref_attr("c"),
    );
    let k = ctx.ident("k");
    let dict = ctx.dict_attr(vec![(k, c)]);
    let arr = ctx.array_attr(vec![a, dict, b]);
    let f_entry = ctx.entry_block(ctx.region(n.f, 0)).unwrap();
    let user = op(ctx, f_entry, "x.user", &[], 0, 9);
    ctx.set_attr(user, "refs", arr);
    assert_eq!(op_symbol_refs(ctx, user), vec![a, c, b]);
    let uses = symbol_uses(ctx, n.outer);
    let want: Vec<(OpId, String)> = vec![
        (user, "a".into()),
        (user, "c".into()),
        (user, "b".into()),
        (n.call_in_g, "f".into()),
        (
            ctx.first_op(ctx.entry_block(ctx.region(n.h, 0)).unwrap())
                .unwrap(),
            "inner".into(),
        ),
    ];
    assert_eq!(uses, want);
    assert!(is_symbol_used(ctx, "inner", n.outer));
    assert!(is_symbol_used(ctx, "c", n.outer));
    assert!(!is_symbol_used(ctx, "h", n.outer));
    assert!(!is_symbol_used(ctx, "never-interned-name", n.outer));
    assert!(!is_symbol_used(ctx, "a", n.h), "only inside root");
    assert_eq!(symbol_users(ctx, "f", n.outer), vec![n.call_in_g]);
    assert_eq!(symbol_users(ctx, "a", n.outer), vec![user]);
    assert!(
        symbol_users(ctx, "g", n.outer).is_empty(),
        "@inner::@g is a use of @inner"
    );
}

#[test]
fn symbol_name_formatting() {
    assert_eq!(format_symbol_name("main"), "@main");
    assert_eq!(format_symbol_name("a.b$c_1"), "@a.b$c_1");
    assert_eq!(format_symbol_name("1x"), "@\"1x\"");
    assert_eq!(format_symbol_name("a b"), "@\"a b\"");
    assert_eq!(format_symbol_name(""), "@\"\"");
    assert_eq!(format_symbol_name("q\"x"), "@\"q\\\"x\"");
}

#[test]
fn ident_maps_dense_and_sparse() {
    let id = Ident::from_index;
    let op = OpId::from_index;
    // 100 names among the first 200 identifiers: a vector.
    let mut m = IdentMap::with_names(100, Some(id(199)));
    assert!(m.is_dense());
    for i in 0..100 {
        m.insert(id(2 * i), op(i));
    }
    assert_eq!(m.get(id(10)), Some(op(5)));
    assert_eq!(m.get(id(11)), None);
    assert_eq!(m.get(id(5000)), None);
    // Growing while dense enough stays a vector; far beyond, a map with every entry kept.
    m.insert(id(500), op(1000));
    assert!(m.is_dense());
    m.insert(id(1_000_000), op(7));
    assert!(!m.is_dense());
    assert_eq!(m.get(id(10)), Some(op(5)));
    assert_eq!(m.get(id(500)), Some(op(1000)));
    assert_eq!(m.get(id(1_000_000)), Some(op(7)));
    assert_eq!(m.get(id(11)), None);
    assert_eq!(m.remove(id(10)), Some(op(5)));
    assert_eq!(m.remove(id(10)), None);
    // A few names of a large context: a map, whose size follows the names.
    assert!(!IdentMap::with_names(3, Some(id(100_000))).is_dense());
    assert!(!IdentMap::with_names(0, None).is_dense());
    let mut d = IdentMap::with_names(1, Some(id(3)));
    assert!(d.is_dense());
    d.insert(id(3), op(1));
    assert_eq!(d.remove(id(3)), Some(op(1)));
    assert_eq!((d.get(id(3)), d.remove(id(3))), (None, None));
}

/// A module whose symbols are all referenced (so named by identifiers) gets a vector-backed
/// table, which answers as the scans do.
#[test]
fn large_table_resolves_as_the_scan() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (user_fn, entry) = func(&mut ctx, body, "user", 0, 1);
    let mut defs = Vec::new();
    for i in 0..300 {
        let name = format!("s{i}");
        call(&mut ctx, entry, &name, 2);
        defs.push(func(&mut ctx, body, &name, 0, 3).0);
    }
    let t = SymbolTable::new(&ctx, m);
    assert!(t.by_ident.is_dense());
    assert_eq!(t.len(), 301);
    let mut symbols = SymbolTableCollection::new();
    for (i, &d) in defs.iter().enumerate() {
        let name = format!("s{i}");
        assert_eq!(t.lookup(&ctx, &name), Some(d));
        assert_eq!(lookup_symbol_in(&ctx, m, &name), Some(d));
        assert_eq!(symbols.lookup_symbol_from(&ctx, user_fn, &name), Some(d));
    }
    assert_eq!(t.lookup(&ctx, "user"), Some(user_fn));
    assert_eq!(t.lookup(&ctx, "s300"), None);
}

/// A collection's table sees a symbol added after it was built once it is recorded there.
#[test]
fn collection_tables_record_added_symbols() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (f, entry) = func(&mut ctx, body, "f", 0, 1);
    let user = op(&mut ctx, entry, "test.pure", &[], 0, 2);
    let mut symbols = SymbolTableCollection::new();
    assert_eq!(symbols.lookup_symbol_from(&ctx, user, "f"), Some(f));
    let (g, _) = func(&mut ctx, body, "g", 0, 3);
    assert_eq!(
        symbols.lookup_symbol_from(&ctx, user, "g"),
        None,
        "built before @g"
    );
    assert!(symbols.table_mut(&ctx, m).insert(&ctx, "g", g));
    assert_eq!(symbols.lookup_symbol_from(&ctx, user, "g"), Some(g));
    assert_eq!(symbols.table(&ctx, m).len(), 2);
}
