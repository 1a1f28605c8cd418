//! The Vulkan device (`vulkan`) on lavapipe: the device side of the SPIR-V ABI with hand-written
//! entry points ([`super::vulkan_spv`]): dispatch over a task's real bounds, upload and
//! download, the overflow record reported at sync (and a clean sync after), error codes mapped
//! to locations, heaps grown by doubling or exactly, old heaps freed after their fence, the
//! refusal of missing capabilities, and no driver as an error.
//!
//! The tests pin the loader to lavapipe (`VK_DRIVER_FILES`, as CI does). They skip, with a note,
//! only when no Vulkan driver is installed at all (tools/setup.sh installs lavapipe, so in CI
//! they run).

use super::vulkan_spv;
use qd_ir::text::parse_source;
use qd_ir::{Context, Location, OpId};
use qd_runtime::adstack::layout::Heap;
use qd_runtime::device::Buffer;
use qd_runtime::{
    AdstackPlan, CancelFlag, CompiledKernel, DType, DepthSource, Device, FieldRef, Memory,
    RuntimeErrorKind, StackPlan, Storage,
};
use qd_spirv::abi::{Binding, BindingKind, Bound, DataBuffer, Dispatch, Options, SpirvKernel};
use qd_spirv::sites::{Site, SiteKind, Sites};
use qd_spirv::vulkan::memory::DeviceBuffer;
use qd_spirv::vulkan::pipeline::missing_capability;
use qd_spirv::vulkan::submit::{Submitter, MAX_IN_FLIGHT};
use qd_spirv::vulkan::{Capabilities, Gpu, VkError, VulkanDevice};
use qd_spirv::SpirvTask;

pub const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Pins the loader to lavapipe (unless the environment already names a driver).
pub fn pin_lavapipe() {
    static PIN: std::sync::Once = std::sync::Once::new();
    PIN.call_once(|| {
        if std::env::var_os("VK_DRIVER_FILES").is_none() {
            std::env::set_var("VK_DRIVER_FILES", LAVAPIPE_ICD);
        }
    });
}

/// The device on lavapipe, or None (with a note) when no Vulkan driver is installed at all.
pub fn device() -> Option<VulkanDevice> {
    pin_lavapipe();
    match VulkanDevice::new() {
        Ok(d) => Some(d),
        Err(VkError::NoDriver(m)) if !std::path::Path::new(LAVAPIPE_ICD).exists() => {
            eprintln!("note: no Vulkan driver installed ({m}); skipping a vulkan test");
            None
        }
        Err(e) => panic!("lavapipe is installed but Vulkan does not start: {e}"),
    }
}

/// A module with one i32 field `@x` of `n` elements, and its memory.
struct Setup {
    ctx: Context,
    memory: Memory,
    op: OpId,
    loc: Location,
}

fn setup(n: usize) -> Setup {
    let mut ctx = qd_dialects::context();
    let src = format!("module {{\n  qd.field @x : !qd.field<{n}xi32>\n}}\n");
    let module = parse_source(&mut ctx, &src, "x.mlir").expect("parses");
    let memory = Memory::for_module(&ctx, module).unwrap();
    let loc = ctx.file_loc("k.mlir", 4, 5);
    Setup {
        ctx,
        memory,
        op: module,
        loc,
    }
}

fn binding(binding: u32, kind: BindingKind) -> Binding {
    Binding {
        set: 0,
        binding,
        kind,
        writes: true,
    }
}

/// A kernel of one task running entry `entry` over `dispatch` with `bindings`.
fn kernel(
    s: &Setup,
    entry: &str,
    dispatch: Dispatch,
    bindings: Vec<Binding>,
    stacks: Vec<(u32, DType)>,
    sites: Sites,
) -> SpirvKernel {
    SpirvKernel {
        name: "k".into(),
        words: vulkan_spv::words(),
        tasks: vec![SpirvTask {
            entry: entry.into(),
            dispatch,
            workgroup_size: 64,
            bindings,
            stacks,
            loc: s.loc,
        }],
        args: vec![],
        arg_slots: 0,
        temps: 0,
        data: vec![DataBuffer {
            binding: 7,
            kind: BindingKind::Field("x".into()),
            dtype: DType::I32,
        }],
        sites,
        capabilities: vec!["Shader".into()],
        options: Options::default(),
    }
}

fn range(end: i64) -> Dispatch {
    Dispatch::Range {
        begin: Bound::Const(0),
        end: Bound::Const(end),
    }
}

/// A plan giving stack `id` (f32) `depth` entries.
fn plan(s: &Setup, stacks: &[(u32, u64)]) -> AdstackPlan {
    AdstackPlan {
        kernel: "k".into(),
        stacks: stacks
            .iter()
            .map(|&(id, depth)| StackPlan {
                id,
                alloca: s.op,
                loc: s.loc,
                elem: DType::F32,
                size_expr: None,
                inferred: false,
                primal_kept: true,
                source: DepthSource::Forced,
                depth,
                bytes_per_thread: 0,
                measured_peak: None,
            })
            .collect(),
    }
}

const X: Buffer = Buffer::Field(FieldRef {
    index: 0,
    grad: false,
});

fn x(s: &Setup) -> Vec<i32> {
    s.memory
        .storage(FieldRef {
            index: 0,
            grad: false,
        })
        .as_i32()
        .unwrap()
        .to_vec()
}

fn set_x(s: &mut Setup, v: Vec<i32>) {
    *s.memory.storage_mut(FieldRef {
        index: 0,
        grad: false,
    }) = Storage::I32(v.into());
}

fn launch(d: &mut VulkanDevice, s: &mut Setup, k: CompiledKernel, p: &AdstackPlan) {
    d.launch(&s.ctx, k, &[], p, &mut s.memory, CancelFlag::never())
        .unwrap();
}

#[test]
fn a_kernel_runs_over_its_real_bounds_with_upload_and_download() {
    let Some(mut d) = device() else { return };
    assert!(d.is_cpu(), "pinned to lavapipe, got {}", d.device_name());
    let mut s = setup(8);
    set_x(&mut s, (1..=8).collect());
    let bindings = vec![
        binding(2, BindingKind::Metadata),
        binding(7, BindingKind::Field("x".into())),
    ];
    let k = d
        .load(kernel(
            &s,
            "scale",
            range(5),
            bindings.clone(),
            vec![],
            Sites::default(),
        ))
        .unwrap();
    d.upload(&s.memory, X).unwrap();
    launch(&mut d, &mut s, k, &AdstackPlan::empty("k"));
    d.sync(&mut s.memory).unwrap();
    d.download(&mut s.memory, X).unwrap();
    // Five threads ran (the bound, not a worst case: 64 would have changed all eight).
    assert_eq!(x(&s), vec![3, 5, 7, 9, 11, 6, 7, 8]);
    // A second launch sees the first one's results on the device; an empty range runs nothing.
    let empty = d
        .load(kernel(
            &s,
            "scale",
            Dispatch::Range {
                begin: Bound::Const(4),
                end: Bound::Const(2),
            },
            bindings,
            vec![],
            Sites::default(),
        ))
        .unwrap();
    launch(&mut d, &mut s, k, &AdstackPlan::empty("k"));
    launch(&mut d, &mut s, empty, &AdstackPlan::empty("k"));
    d.sync(&mut s.memory).unwrap();
    d.download(&mut s.memory, X).unwrap();
    assert_eq!(x(&s), vec![7, 11, 15, 19, 23, 6, 7, 8]);
    // An ndarray's device copy goes at the first launch after the program removed it.
    let id = s
        .memory
        .add_ndarray(Ndarray::zeros(DType::F32, &[4]).unwrap());
    d.upload(&s.memory, Buffer::Ndarray(id)).unwrap();
    assert_eq!(d.device_buffers(), 2);
    s.memory.remove_ndarray(id);
    launch(&mut d, &mut s, k, &AdstackPlan::empty("k"));
    assert_eq!(d.device_buffers(), 1);
    // A host write reaches the device by upload.
    set_x(&mut s, vec![0; 8]);
    d.upload(&s.memory, X).unwrap();
    launch(&mut d, &mut s, k, &AdstackPlan::empty("k"));
    d.sync(&mut s.memory).unwrap();
    d.download(&mut s.memory, X).unwrap();
    assert_eq!(x(&s), vec![1, 1, 1, 1, 1, 0, 0, 0]);
}

#[test]
fn an_overflow_is_reported_at_sync_and_a_later_sync_is_clean() {
    let Some(mut d) = device() else { return };
    let mut s = setup(8);
    let bindings = vec![
        binding(2, BindingKind::Metadata),
        binding(6, BindingKind::Overflow),
    ];
    let k = d
        .load(kernel(
            &s,
            "ovf",
            range(8),
            bindings,
            vec![(0, DType::F32)],
            Sites::default(),
        ))
        .unwrap();
    let p = plan(&s, &[(0, 5)]);
    launch(&mut d, &mut s, k, &p);
    assert!(
        s.memory.adstack_overflow().is_none(),
        "reported before sync"
    );
    d.sync(&mut s.memory).unwrap();
    let o = s.memory.take_adstack_overflow().expect("an overflow");
    assert_eq!((o.kernel.as_str(), o.loc, o.capacity), ("k", s.loc, 5));
    d.sync(&mut s.memory).unwrap();
    assert!(s.memory.adstack_overflow().is_none());
    // Fewer threads than the overflowing one: nothing to report.
    let k4 = d
        .load(kernel(
            &s,
            "ovf",
            range(3),
            vec![
                binding(2, BindingKind::Metadata),
                binding(6, BindingKind::Overflow),
            ],
            vec![(0, DType::F32)],
            Sites::default(),
        ))
        .unwrap();
    launch(&mut d, &mut s, k4, &p);
    d.sync(&mut s.memory).unwrap();
    assert!(s.memory.adstack_overflow().is_none());
}

#[test]
fn an_error_code_maps_to_its_location() {
    let Some(mut d) = device() else { return };
    let mut s = setup(8);
    let mut sites = Sites::default();
    let code = sites.source_map.code(s.loc);
    sites.sites.push(Site {
        op: s.op,
        kind: SiteKind::Bounds {
            what: "field @x".into(),
            n: 1,
            local: false,
        },
        code,
    });
    let bindings = vec![
        binding(2, BindingKind::Metadata),
        binding(5, BindingKind::Errors),
    ];
    let k = d
        .load(kernel(&s, "err", range(4), bindings, vec![], sites))
        .unwrap();
    launch(&mut d, &mut s, k, &AdstackPlan::empty("k"));
    let errors = d.sync(&mut s.memory).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
    assert_eq!(
        e.message,
        "index [5] is out of bounds for field @x of shape [4]"
    );
    assert_eq!(e.code, Some(code));
    assert_eq!(d.error_location(k, code), Some(s.loc));
    assert_eq!(d.error_location(k, code + 1), None);
    // The record was per launch: the next sync is clean.
    d.sync(&mut s.memory).unwrap();
}

#[test]
fn what_tasks_after_a_failing_one_record_is_not_reported() {
    let Some(mut d) = device() else { return };
    let mut s = setup(8);
    let mut sites = Sites::default();
    let code = sites.source_map.code(s.loc);
    sites.sites.push(Site {
        op: s.op,
        kind: SiteKind::Bounds {
            what: "field @x".into(),
            n: 1,
            local: false,
        },
        code,
    });
    let err = kernel(
        &s,
        "err",
        range(4),
        vec![
            binding(2, BindingKind::Metadata),
            binding(5, BindingKind::Errors),
        ],
        vec![],
        sites,
    );
    let ovf = kernel(
        &s,
        "ovf",
        range(8),
        vec![
            binding(2, BindingKind::Metadata),
            binding(6, BindingKind::Overflow),
        ],
        vec![(0, DType::F32)],
        Sites::default(),
    );
    let p = plan(&s, &[(0, 5)]);
    // The overflowing task runs after the failing one: only the error is reported.
    let mut k = err.clone();
    k.tasks.push(ovf.tasks[0].clone());
    let k = d.load(k).unwrap();
    launch(&mut d, &mut s, k, &p);
    let e = d.sync(&mut s.memory).unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].kind, RuntimeErrorKind::OutOfBounds);
    assert!(s.memory.adstack_overflow().is_none());
    // Before it: both.
    let mut k = ovf.clone();
    k.sites = err.sites.clone();
    k.tasks.push(err.tasks[0].clone());
    let k = d.load(k).unwrap();
    launch(&mut d, &mut s, k, &p);
    assert_eq!(d.sync(&mut s.memory).unwrap_err().len(), 1);
    assert_eq!(
        s.memory.take_adstack_overflow().map(|o| o.capacity),
        Some(5)
    );
}

#[test]
fn heaps_grow_by_doubling_or_exactly_and_old_heaps_wait_for_their_fence() {
    let Some(mut d) = device() else { return };
    let mut s = setup(64);
    let bindings = vec![
        binding(2, BindingKind::Metadata),
        binding(3, BindingKind::HeapFloat),
        binding(7, BindingKind::Field("x".into())),
    ];
    let mut ks = std::collections::HashMap::new();
    let mut k = |d: &mut VulkanDevice, n: i64| {
        *ks.entry(n).or_insert_with(|| {
            d.load(kernel(
                &s,
                "heap",
                range(n),
                bindings.clone(),
                vec![(0, DType::F32)],
                Sites::default(),
            ))
            .unwrap()
        })
    };
    // Depth 3 of f32: 8 + 3 * 8 = 32 bytes per row.
    let p = plan(&s, &[(0, 3)]);
    let k4 = k(&mut d, 4);
    let k10 = k(&mut d, 10);
    let k12 = k(&mut d, 12);
    let k21 = k(&mut d, 21);
    let k40 = k(&mut d, 40);
    launch(&mut d, &mut s, k4, &p);
    assert_eq!(d.heap_state(Heap::Float), (128, 1));
    // 320 bytes needed: more than double, exactly what is needed.
    launch(&mut d, &mut s, k10, &p);
    assert_eq!(d.heap_state(Heap::Float), (320, 2));
    // 384 needed: doubled.
    launch(&mut d, &mut s, k12, &p);
    assert_eq!(d.heap_state(Heap::Float), (640, 3));
    d.sync(&mut s.memory).unwrap();
    assert_eq!(d.pending_frees(), 0);
    d.download(&mut s.memory, X).unwrap();
    // Rows were zero before each task (the heap reads 0 before its write), as fresh heaps are.
    let want: Vec<i32> = (0..64)
        .map(|t| if t < 12 { 10 * t + 7 } else { 0 })
        .collect();
    assert_eq!(x(&s), want);
    // Doubling (1280) cannot be had: a retry at exactly 21 x 32 = 672 bytes.
    d.set_heap_alloc_limit(Some(700));
    launch(&mut d, &mut s, k21, &p);
    assert_eq!(d.heap_state(Heap::Float), (672, 4));
    // Not even the exact size: an error naming the heap, not a crash.
    let e = d
        .launch(&s.ctx, k40, &[], &p, &mut s.memory, CancelFlag::never())
        .unwrap_err();
    assert!(
        e.message.contains("cannot allocate the float adstack heap"),
        "{}",
        e.message
    );
    d.set_heap_alloc_limit(None);
    d.sync(&mut s.memory).unwrap();
    d.download(&mut s.memory, X).unwrap();
    let want: Vec<i32> = (0..64)
        .map(|t| if t < 21 { 10 * t + 7 } else { 0 })
        .collect();
    assert_eq!(x(&s), want);
    // The int heap was never needed.
    assert_eq!(d.heap_state(Heap::Int).0, 16);
}

#[test]
fn a_task_too_large_for_one_heap_binding_runs_as_several_dispatches() {
    let Some(mut d) = device() else { return };
    let mut s = setup(64);
    let bindings = vec![
        binding(2, BindingKind::Metadata),
        binding(3, BindingKind::HeapFloat),
        binding(7, BindingKind::Field("x".into())),
    ];
    let heap = |n| {
        kernel(
            &s,
            "heap",
            range(n),
            bindings.clone(),
            vec![(0, DType::F32)],
            Sites::default(),
        )
    };
    let (k50, k8) = (d.load(heap(50)).unwrap(), d.load(heap(8)).unwrap());
    // 32 bytes per row, at most 160 bytes per binding: five rows per dispatch, ten dispatches,
    // each row zeroed again before its next thread (the heap read is 0 for every thread).
    d.set_heap_limit(Some(160));
    let p = plan(&s, &[(0, 3)]);
    launch(&mut d, &mut s, k50, &p);
    d.sync(&mut s.memory).unwrap();
    d.download(&mut s.memory, X).unwrap();
    let want: Vec<i32> = (0..64)
        .map(|t| if t < 50 { 10 * (t % 5) + 7 } else { 0 })
        .collect();
    assert_eq!(x(&s), want);
    assert_eq!(d.heap_state(Heap::Float).0, 160);
    // Not even one row fits: an error naming the sizes, not a crash.
    d.set_heap_limit(Some(16));
    let e = d
        .launch(&s.ctx, k8, &[], &p, &mut s.memory, CancelFlag::never())
        .unwrap_err();
    assert!(
        e.message.contains("one thread's adstacks take 32 bytes"),
        "{}",
        e.message
    );
    d.sync(&mut s.memory).unwrap();
    // Without Int64, 32-bit offsets: 2^28 f32 entries per thread do not fit.
    d.set_heap_limit(None);
    d.set_options(Options {
        int64: false,
        ..Options::default()
    });
    let e = d
        .launch(
            &s.ctx,
            k8,
            &[],
            &plan(&s, &[(0, 1 << 28)]),
            &mut s.memory,
            CancelFlag::never(),
        )
        .unwrap_err();
    assert!(
        e.message.contains("no Int64, so 32-bit offsets"),
        "{}",
        e.message
    );
}

#[test]
fn retired_resources_wait_for_their_batch_and_batches_do_not_pile_up() {
    let Some(mut d) = device() else { return };
    let gpu = std::sync::Arc::new(Gpu::new().unwrap());
    let mut sub = Submitter::new(&gpu).unwrap();
    let b = DeviceBuffer::new(&gpu, 64).unwrap();
    let cmd = sub.cmd().unwrap();
    // SAFETY: `cmd` is recording and `b` outlives the batch (it is retired to it).
    unsafe { gpu.device.cmd_fill_buffer(cmd, b.handle(), 0, 64, 7) };
    let serial = sub.current_serial();
    sub.retire(serial, Box::new(b));
    assert_eq!(sub.pending_retired(), 1, "kept until its batch finished");
    sub.wait_idle().unwrap();
    assert_eq!(sub.pending_retired(), 0);
    assert!(sub.completed_serial() >= serial);
    // Memory the device cannot give is an error, not a crash.
    let e = DeviceBuffer::new(&gpu, 1 << 50).err().expect("no petabyte");
    assert!(e.is_out_of_memory(), "{e}");
    // A buffer retired to a finished batch goes at once.
    sub.retire(serial, Box::new(DeviceBuffer::new(&gpu, 16).unwrap()));
    assert_eq!(sub.pending_retired(), 0);
    // Many launches without a sync: the oldest batches are waited for.
    let mut s = setup(8);
    let bindings = vec![
        binding(2, BindingKind::Metadata),
        binding(7, BindingKind::Field("x".into())),
    ];
    let k = d
        .load(kernel(
            &s,
            "scale",
            range(8),
            bindings,
            vec![],
            Sites::default(),
        ))
        .unwrap();
    for _ in 0..100 {
        launch(&mut d, &mut s, k, &AdstackPlan::empty("k"));
        assert!(d.batches_in_flight() <= MAX_IN_FLIGHT + 1);
    }
    d.sync(&mut s.memory).unwrap();
    assert_eq!((d.batches_in_flight(), d.pending_frees()), (0, 0));
}

#[test]
fn a_missing_capability_is_named() {
    let none = Capabilities::default();
    let declared = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(missing_capability(&declared(&["Shader"]), &none), None);
    assert_eq!(
        missing_capability(&declared(&["Shader", "Float64"]), &none),
        Some("Float64".to_string())
    );
    let all = Capabilities {
        int64: true,
        float64: true,
        int8: true,
        int16: true,
        int64_atomics: true,
        float32_atomic_add: true,
        float64_atomic_add: true,
        ..Default::default()
    };
    let every = declared(&[
        "Int64",
        "Float64",
        "Int8",
        "StorageBuffer8BitAccess",
        "Int16",
        "AtomicFloat32AddEXT",
        "AtomicFloat64AddEXT",
    ]);
    assert_eq!(missing_capability(&every, &all), None);
    // The device refuses such a kernel before making any pipeline.
    let Some(mut d) = device() else { return };
    let s = setup(4);
    let mut k = kernel(
        &s,
        "scale",
        range(4),
        vec![binding(2, BindingKind::Metadata)],
        vec![],
        Sites::default(),
    );
    k.capabilities.push("NoSuchThing".into());
    assert!(
        d.load(k.clone()).is_ok(),
        "unknown capabilities are not refused"
    );
    if !d.capabilities().float64_atomic_add {
        k.capabilities.push("AtomicFloat64AddEXT".into());
        let e = d.load(k).expect_err("refused");
        assert!(
            e.to_string()
                .contains("needs the SPIR-V capability AtomicFloat64AddEXT"),
            "{e}"
        );
    }
}

/// Run by [`no_driver_is_an_error`] in a child process whose loader finds no driver.
#[test]
#[ignore = "run by no_driver_is_an_error in a child process"]
fn child_without_driver() {
    match VulkanDevice::new() {
        Err(VkError::NoDriver(m)) => println!("NO-DRIVER: {m}"),
        Err(e) => println!("OTHER: {e}"),
        Ok(_) => println!("STARTED"),
    }
}

#[test]
fn no_driver_is_an_error() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "vulkan::child_without_driver",
            "--ignored",
            "--nocapture",
        ])
        .env("VK_DRIVER_FILES", "/nonexistent/qd_icd.json")
        .env_remove("VK_ICD_FILENAMES")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("NO-DRIVER: "), "{stdout}");
}

// Through the Program API, with kernels from the SPIR-V codegen.

use qd_runtime::{Arg, Ndarray, Program, ProgramConfig, RuntimeError};

fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn program_on(src: &str, device: Box<dyn Device>, config: ProgramConfig) -> Program {
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, src, "test.mlir").expect("parses");
    Program::new(ctx, module, device, config).unwrap_or_else(|e| panic!("program: {e}"))
}

/// The README's main job: `compute` on n = 512 and 16 x, then its gradient with y.grad = 1.
fn main_job(p: &mut Program) -> Result<(), Vec<RuntimeError>> {
    p.write_f64("n", &[512.0]).unwrap();
    let xs: Vec<f64> = (0..16).map(|i| 1.5 * f64::from(i) / 15.0).collect();
    p.write_f64("x", &xs).unwrap();
    let k = p
        .kernel("compute")
        .unwrap_or_else(|e| panic!("compile: {e}"));
    p.launch(k, &[]).unwrap();
    p.sync()?;
    let g = p.gradient("compute").unwrap();
    p.write_f64("y.grad", &[1.0]).unwrap();
    p.launch_grad(&g, &[]).unwrap();
    p.sync()
}

/// Every element of each field `names` of `v` (on vulkan) within 1e-5 of the field's largest
/// magnitude of `i` (on the interpreter): a GPU compiler may contract or reorder, and float
/// atomics add in the order the lanes reach them.
fn assert_close_to_interp(v: &Program, i: &Program, names: &[&str]) {
    for name in names {
        let (a, b) = (v.read_f64(name).unwrap(), i.read_f64(name).unwrap());
        let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            assert!(
                (x - y).abs() <= 1e-5 * scale,
                "{name}[{k}]: {x} on vulkan, {y} on the interpreter"
            );
        }
    }
}

/// The main job on `d` and on the interpreter: each x.grad[i] is one thread's own result, y sums
/// 16 threads' values by atomic adds.
fn main_job_matches_the_interpreter(d: VulkanDevice) {
    let src = example("dynamic_loop.mlir");
    let mut v = program_on(&src, Box::new(d), ProgramConfig::default());
    let mut i = program_on(
        &src,
        Box::new(qd_interp::Interpreter::new()),
        ProgramConfig::default(),
    );
    main_job(&mut v).unwrap();
    main_job(&mut i).unwrap();
    assert_close_to_interp(&v, &i, &["x.grad", "y"]);
}

#[test]
fn the_main_job_matches_the_interpreter() {
    let Some(d) = device() else { return };
    main_job_matches_the_interpreter(d);
}

#[test]
fn the_main_job_runs_with_32_bit_indices_and_no_float_atomics() {
    let Some(mut d) = device() else { return };
    // What a device without Int64, Float64, Int8/16 and float atomics is given.
    d.set_options(Options::minimal());
    main_job_matches_the_interpreter(d);
}

#[test]
fn a_kernel_needing_what_the_device_lacks_is_a_located_compile_error() {
    let Some(mut d) = device() else { return };
    d.set_options(Options::minimal());
    let src = "module {
  qd.field @d : !qd.field<4xf64>
  qd.kernel @k() {
    qd.struct_for (%i) in @d {
      %v = qd.load @d[%i] : f64
      %w = arith.addf %v, %v : f64
      qd.store %w, @d[%i] : f64
    }
  }
}
";
    let mut p = program_on(src, Box::new(d), ProgramConfig::default());
    let Err(qd_runtime::Error::Diagnostics(d)) = p.kernel("k") else {
        panic!("compiled without Float64");
    };
    assert!(d[0].message.contains("Float64"), "{}", d[0].message);
    // At the op in the source (line 5: the f64 load), before any pipeline exists.
    let at = p.context().file_line_col(d[0].loc).map(|(_, l, _)| l);
    assert!(matches!(at, Some(5..=7)), "{at:?}");
}

#[test]
fn a_forced_small_stack_overflows_at_sync_as_on_the_interpreter() {
    let Some(d) = device() else { return };
    // v = v*v + 0.01 reads v in reverse, so its stack is kept (minimize-tape elides the stack of
    // the README's linear v*0.95 + 0.01) and 512 iterations overflow 32 entries.
    let src = example("dynamic_loop.mlir").replace("arith.mulf %a, %k", "arith.mulf %a, %a");
    assert!(src.contains("arith.mulf %a, %a"));
    let config = ProgramConfig {
        ad_stack_size: Some(32),
        ..ProgramConfig::default()
    };
    let mut v = program_on(&src, Box::new(d), config.clone());
    let mut i = program_on(&src, Box::new(qd_interp::Interpreter::new()), config);
    let text = |e: &[RuntimeError]| e.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    let (ev, ei) = (main_job(&mut v).unwrap_err(), main_job(&mut i).unwrap_err());
    assert_eq!(text(&ev), text(&ei));
    assert!(
        text(&ev)[0].contains("exceeded its capacity of 32"),
        "{:?}",
        text(&ev)
    );
    assert!(v.sync().is_ok(), "a later sync is clean");
}

#[test]
fn an_out_of_bounds_index_is_located_as_on_the_interpreter() {
    let Some(d) = device() else { return };
    let src = example("ndarray_bound.mlir");
    let mut v = program_on(
        &src,
        Box::new(d.with_check_bounds(true)),
        ProgramConfig::default(),
    );
    let mut i = program_on(
        &src,
        Box::new(qd_interp::Interpreter::new()),
        ProgramConfig::default(),
    );
    let run = |p: &mut Program| {
        let a = p.add_ndarray(Ndarray::from_f64(DType::I32, &[3], &[1.0, 2.0, 3.0]).unwrap());
        let k = p.kernel("compute").unwrap();
        p.launch(k, &[Arg::Ndarray(a)]).unwrap();
        p.sync().unwrap_err()
    };
    let (ev, ei) = (run(&mut v), run(&mut i));
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].to_string(), ei[0].to_string());
    assert_eq!(ev[0].position, ei[0].position);
    assert!(ev[0].position.is_some());
    assert!(v.sync().is_ok(), "a later sync is clean");
}

/// Three range tasks whose reverse passes keep a loop-carried local on an adstack: a struct_for
/// (begin 0), a range_for from the constant 7 and one from the field @lo (a begin read at
/// launch). Every thread's outputs depend on its own index, so a thread run at the wrong index
/// shows up.
const CHUNKED: &str = "module {
  qd.field @n : !qd.field<i32>
  qd.field @lo : !qd.field<i32>
  qd.field @x : !qd.field<200xf32> {needs_grad}
  qd.field @y : !qd.field<200xf32> {needs_grad}
  qd.field @z : !qd.field<200xf32> {needs_grad}
  qd.field @w : !qd.field<200xf32> {needs_grad}
  qd.field @c : !qd.field<200xi32>

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %h = arith.constant 0.3 : f32
        %sq = arith.mulf %a, %a : f32
        %m = arith.mulf %sq, %h : f32
        %s = arith.addf %m, %x_i : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
      qd.store %i, @c[%i] : i32
    }
    %c7 = arith.constant 7 : i32
    %c200 = arith.constant 200 : i32
    qd.range_for %i = %c7 to %c200 : i32 {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %sq = arith.mulf %a, %x_i : f32
        %h = arith.constant 0.5 : f32
        %s = arith.mulf %sq, %h : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @z[%i] : f32
    }
    %lo = qd.load @lo[] : i32
    qd.range_for %i = %lo to %c200 : i32 {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %th = math.tanh %a : f32
        %s = arith.addf %th, %x_i : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @w[%i] : f32
    }
  }
}
";

/// `compute` of [`CHUNKED`] and its gradient with every output's adjoint 1.
fn chunked_job(p: &mut Program) -> Result<(), Vec<RuntimeError>> {
    p.write_f64("n", &[12.0]).unwrap();
    p.write_f64("lo", &[3.0]).unwrap();
    let xs: Vec<f64> = (0..200).map(|i| 0.1 + 0.8 * f64::from(i) / 199.0).collect();
    p.write_f64("x", &xs).unwrap();
    let k = p
        .kernel("compute")
        .unwrap_or_else(|e| panic!("compile: {e}"));
    p.launch(k, &[]).unwrap();
    p.sync()?;
    let g = p.gradient("compute").unwrap();
    for f in ["y.grad", "z.grad", "w.grad"] {
        p.write_f64(f, &[1.0; 200]).unwrap();
    }
    p.launch_grad(&g, &[]).unwrap();
    p.sync()
}

#[test]
fn a_task_run_as_several_dispatches_matches_the_interpreter() {
    let mut i = program_on(
        CHUNKED,
        Box::new(qd_interp::Interpreter::new()),
        ProgramConfig::default(),
    );
    chunked_job(&mut i).unwrap();
    // Heap bindings of 2 KiB: each reverse task runs as a dozen or more dispatches, some of
    // fewer threads than a workgroup. With 32-bit indices too (the metadata's low words).
    for options in [Options::default(), Options::minimal()] {
        let Some(mut d) = device() else { return };
        d.set_options(options);
        d.set_heap_limit(Some(2048));
        let mut v = program_on(CHUNKED, Box::new(d), ProgramConfig::default());
        chunked_job(&mut v).unwrap();
        let names = ["y", "z", "w", "c", "x.grad"];
        for name in names {
            let scale = i
                .read_f64(name)
                .unwrap()
                .iter()
                .fold(0.0f64, |m, x| m.max(x.abs()));
            assert!(scale > 0.0, "{name} is all zeros");
        }
        assert_close_to_interp(&v, &i, &names);
    }
}
