//! A driver's loop-iteration cap (`Options::loop_limit`, lavapipe's 65535): with it, every
//! loop (`lowered.for`, `lowered.while`, the compare-exchange loops of atomics) counts its
//! header passes into its subgroup's counter (a `Workgroup` array by `SubgroupId`) and gets a
//! loop-limit error site checked after it; without it no counter, no check, no site and no
//! subgroup capability is emitted. Every module passes spirv-val either
//! way; the device on lavapipe sets the limit from the driver id.

use crate::corpus::{compile_all, compile_source};
use crate::spirv_val::validate;
use qd_spirv::sites::SiteKind;
use qd_spirv::{LoopLimit, Options, SpirvKernel};

fn asm(k: &SpirvKernel) -> String {
    let m = rspirv::dr::load_words(&k.words).unwrap();
    rspirv::binary::Disassemble::disassemble(&m)
}

fn limited(o: Options) -> Options {
    Options {
        loop_limit: Some(LoopLimit::LAVAPIPE),
        ..o
    }
}

fn limit_sites(k: &SpirvKernel) -> usize {
    k.sites
        .sites
        .iter()
        .filter(|s| matches!(s.kind, SiteKind::LoopLimit { .. }))
        .count()
}

/// Variables of storage class `class` in the module.
fn vars(a: &str, class: &str) -> usize {
    a.lines()
        .filter(|l| l.contains("OpVariable") && l.trim_end().ends_with(class))
        .count()
}

/// A nested `for` and a `while` (two loops of one kernel, one counter), one alloca.
const LOOPS: &str = r#"
module {
  qd.field @cnt : !qd.field<i32>
  qd.field @m : !qd.field<i32>
  qd.kernel @k(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %m = qd.load @m[] : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      %p = qd.alloca : !qd.ptr<i32>
      qd.local_store %c0, %p : !qd.ptr<i32>
      qd.range_for %j = %c0 to %m : i32 {
        qd.range_for %k = %c0 to %n : i32 {
          qd.atomic_add %c1, @cnt[] : i32
        }
      }
      qd.while {
        %v = qd.local_load %p : !qd.ptr<i32>
        %go = arith.cmpi slt, %v, %n : i32
        qd.condition %go
      } do {
        %v = qd.local_load %p : !qd.ptr<i32>
        %w = arith.addi %v, %c1 : i32
        qd.local_store %w, %p : !qd.ptr<i32>
      }
    }
  }
}
"#;

#[test]
fn without_a_limit_no_counter_check_or_site_is_emitted() {
    let mut c = compile_source(LOOPS, "k", false, &[Options::default()]);
    let k = c.pop().unwrap().result.unwrap();
    validate(&k.words, "nolimit").unwrap();
    let a = asm(&k);
    assert!(!a.contains(" 65535\n"), "{a}");
    // The alloca alone, no shared memory, no subgroup operation, and only each task's
    // thread-count test compares unsigned.
    assert_eq!(vars(&a, "Function"), 1, "{a}");
    assert_eq!(vars(&a, "Workgroup"), 0, "{a}");
    assert!(
        !a.contains("GroupNonUniform") && !a.contains("SubgroupId"),
        "{a}"
    );
    assert!(!k.capabilities.iter().any(|c| c == "GroupNonUniform"));
    assert_eq!(
        a.matches("OpUGreaterThanEqual").count(),
        k.tasks.len(),
        "{a}"
    );
    assert_eq!(limit_sites(&k), 0);
}

#[test]
fn with_a_limit_every_loop_counts_and_is_checked() {
    let mut c = compile_source(
        LOOPS,
        "k",
        false,
        &[Options::default(), limited(Options::default())],
    );
    let with = c.pop().unwrap().result.unwrap();
    let without = c.pop().unwrap().result.unwrap();
    validate(&with.words, "limit").unwrap();
    let (a, b) = (asm(&with), asm(&without));
    // One counter array shared by the tasks; per loop a private pass count, and after it the
    // subgroup's maximum added by one elected invocation and a check (and a site); the cap as
    // a constant.
    assert_eq!(vars(&a, "Function"), vars(&b, "Function") + 3, "{a}");
    assert_eq!(vars(&a, "Workgroup"), 1, "{a}");
    assert_eq!(a.matches("OpGroupNonUniformElect").count(), 3, "{a}");
    assert_eq!(a.matches("OpGroupNonUniformUMax").count(), 3, "{a}");
    // The two `for` loops count in closed form before they start (a division each), the
    // `while` in its header.
    assert_eq!(
        a.matches("OpUDiv").count(),
        b.matches("OpUDiv").count() + 2,
        "{a}"
    );
    assert!(with
        .capabilities
        .iter()
        .any(|c| c == "GroupNonUniformArithmetic"));
    assert!(a.contains("BuiltIn SubgroupId"), "{a}");
    assert!(with.capabilities.iter().any(|c| c == "GroupNonUniform"));
    assert!(a.contains(" 65535\n"), "{a}");
    assert_eq!(
        a.matches("OpUGreaterThanEqual").count(),
        b.matches("OpUGreaterThanEqual").count() + 3,
        "{a}"
    );
    assert_eq!(limit_sites(&with), 3);
    // The IR sites keep their numbers: the loop-limit sites come after them.
    let n = without.sites.sites.len();
    assert_eq!(with.sites.sites[..n], without.sites.sites[..]);
    assert!(with.sites.sites[n..]
        .iter()
        .all(|s| matches!(&s.kind, SiteKind::LoopLimit { limit: 65535, driver } if driver.contains("lavapipe"))));
    assert_eq!(with.options.loop_limit, Some(LoopLimit::LAVAPIPE));
}

#[test]
fn compare_exchange_loops_count_too() {
    // f32 atomic_min is always a compare-exchange loop: its site is the atomic's.
    let src = r#"
module {
  qd.field @x : !qd.field<8xf32>
  qd.field @lo : !qd.field<f32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      qd.atomic_min %v, @lo[] : f32
    }
  }
}
"#;
    let mut c = compile_source(src, "k", false, &[limited(Options::default())]);
    let k = c.pop().unwrap().result.unwrap();
    validate(&k.words, "cas").unwrap();
    assert_eq!(limit_sites(&k), 1);
}

/// Every corpus module with the limit passes spirv-val (with and without the float-atomic
/// extension, so compare-exchange loops too); without it none has a loop-limit site.
#[test]
fn corpus_with_a_limit_passes_spirv_val() {
    let full = Options::default();
    let no_ext = Options {
        atomic_float_add: false,
        ..full.clone()
    };
    let all = compile_all(&[full.clone(), limited(full), limited(no_ext)], false);
    let mut bad = Vec::new();
    let (mut valid, mut with_sites) = (0, 0);
    for (i, c) in all.iter().enumerate() {
        let k = match &c.result {
            Ok(k) => k,
            Err(e) => {
                bad.push(format!("{} with {:?}: {e}", c.what, c.options));
                continue;
            }
        };
        if c.options.loop_limit.is_none() {
            assert_eq!(limit_sites(k), 0, "{}", c.what);
            continue;
        }
        with_sites += usize::from(limit_sites(k) > 0);
        match validate(&k.words, &format!("l{i}")) {
            Ok(()) => valid += 1,
            Err(e) => bad.push(format!("{} with {:?}: spirv-val: {e}", c.what, c.options)),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(valid >= 2 * 60, "only {valid} modules validated");
    assert!(with_sites >= 60, "only {with_sites} modules have loops");
}

#[test]
fn the_device_on_lavapipe_has_its_loop_limit() {
    let Some(dev) = crate::vulkan::device() else {
        return;
    };
    if dev.device_name().starts_with("llvmpipe") {
        assert_eq!(dev.capabilities().loop_limit, Some(LoopLimit::LAVAPIPE));
        assert_eq!(dev.options().loop_limit, Some(LoopLimit::LAVAPIPE));
    } else {
        assert_eq!(dev.capabilities().loop_limit, None);
    }
}
