//! The device configurations every test runs on, and program helpers.

use qd_devices::all_devices;
use qd_ir::text::parse_source;
use qd_runtime::{Arg, Device, DeviceOptions, Program, ProgramConfig, RuntimeError};

/// lavapipe's driver manifest, which tools/setup.sh installs.
const LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// One device configuration.
pub struct Config {
    pub label: &'static str,
    /// The registered device's name.
    pub name: &'static str,
    /// For the cpu: every task's note gives no reason to run scalar code, and with `Some(true)`
    /// the task runs more than one lane (vectorised); None for devices without such notes.
    pub vectorised: Option<bool>,
    /// Without 64-bit integers and floats (vulkan's minimal options).
    pub only_32_bit: bool,
    make: fn() -> Result<Box<dyn Device>, String>,
}

impl Config {
    /// The constructor of this configuration's device (for front ends that make one device per
    /// compiled program, such as qd-jit).
    pub fn factory(&self) -> fn() -> Result<Box<dyn Device>, String> {
        self.make
    }

    /// The device, or None (with a note) for vulkan where no Vulkan driver is installed at all
    /// (CI installs lavapipe, so there it runs).
    pub fn device(&self) -> Option<Box<dyn Device>> {
        match (self.make)() {
            Ok(d) => Some(d),
            Err(e) if self.name == "vulkan" && !std::path::Path::new(LAVAPIPE).exists() => {
                eprintln!("note: {e}; {} not checked", self.label);
                None
            }
            Err(e) => panic!("{}: {e}", self.label),
        }
    }
}

fn pin_lavapipe() {
    static PIN: std::sync::Once = std::sync::Once::new();
    PIN.call_once(|| {
        if std::env::var_os("VK_DRIVER_FILES").is_none() {
            std::env::set_var("VK_DRIVER_FILES", LAVAPIPE);
        }
    });
}

fn create(name: &str, options: DeviceOptions) -> Result<Box<dyn Device>, String> {
    pin_lavapipe();
    all_devices()
        .create(name, &options)
        .map_err(|e| e.to_string())
}

fn checked(threads: usize, scalar_tasks: bool) -> DeviceOptions {
    DeviceOptions {
        check_bounds: true,
        threads: Some(threads),
        scalar_tasks,
        ..Default::default()
    }
}

/// Every configuration: each registered device once, the cpu with 1 and 4 workers (contention),
/// scalar tasks and no bounds checks, vulkan with the minimal options too (no float atomics:
/// f32 add/sub by a compare-and-swap loop; 32-bit indices).
pub fn configs() -> Vec<Config> {
    let c = |label, name, vectorised, make| Config {
        label,
        name,
        vectorised,
        only_32_bit: false,
        make,
    };
    #[allow(unused_mut)]
    let mut list = vec![
        c("interp", "interp", None, || {
            create("interp", DeviceOptions::default())
        }),
        c("interp-lowered", "interp-lowered", None, || {
            create("interp-lowered", DeviceOptions::default())
        }),
        c("cpu, 4 workers, vectorised", "cpu", Some(true), || {
            create("cpu", checked(4, false))
        }),
        c("cpu, 4 workers, scalar", "cpu", Some(false), || {
            create("cpu", checked(4, true))
        }),
        c("cpu, 1 worker", "cpu", Some(true), || {
            create("cpu", checked(1, false))
        }),
        c(
            "cpu, 4 workers, no bounds checks",
            "cpu",
            Some(true),
            || {
                create(
                    "cpu",
                    DeviceOptions {
                        threads: Some(4),
                        ..Default::default()
                    },
                )
            },
        ),
        c("vulkan", "vulkan", None, || {
            create("vulkan", DeviceOptions::default())
        }),
        Config {
            only_32_bit: true,
            ..c("vulkan, minimal options", "vulkan", None, || {
                pin_lavapipe();
                let mut d = qd_spirv::vulkan::VulkanDevice::new().map_err(|e| e.to_string())?;
                d.set_options(qd_spirv::abi::Options::minimal());
                Ok(Box::new(d))
            })
        },
    ];
    // MLIR's own pipeline (feature `mlir`), with every bounds check.
    #[cfg(feature = "mlir")]
    list.push(c("mlir-cpu", "mlir-cpu", None, || {
        create(
            "mlir-cpu",
            DeviceOptions {
                check_bounds: true,
                ..Default::default()
            },
        )
    }));
    // Every registered device is among them.
    for entry in all_devices().iter() {
        assert!(
            list.iter().any(|c| c.name == entry.name),
            "device {} is not tested",
            entry.name
        );
    }
    list
}

/// The reference interpreter.
pub fn interp() -> Box<dyn Device> {
    create("interp", DeviceOptions::default()).unwrap()
}

/// A program over `src` on `device`.
pub fn program_on(src: &str, device: Box<dyn Device>) -> Program {
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, src, "test.mlir").expect("parses");
    Program::new(ctx, module, device, ProgramConfig::default())
        .unwrap_or_else(|e| panic!("program: {e}"))
}

/// Compiles and launches `kernel` with `args`, then syncs: its errors.
pub fn run(p: &mut Program, kernel: &str, args: &[Arg]) -> Vec<RuntimeError> {
    let k = p
        .kernel(kernel)
        .unwrap_or_else(|e| panic!("compile {kernel}: {e}"));
    p.launch(k, args).unwrap();
    p.sync().err().unwrap_or_default()
}

/// Runs `kernel`, which must not fail.
pub fn run_ok(p: &mut Program, label: &str, kernel: &str, args: &[Arg]) {
    let errors = run(p, kernel, args);
    assert!(errors.is_empty(), "{label}: {kernel}: {errors:?}");
}

/// The values of field `f` as f64 bits (exact for every field type here), every NaN as one
/// value (a NaN's payload is not specified).
pub fn bits(p: &Program, f: &str) -> Vec<u64> {
    p.read_f64(f)
        .unwrap()
        .iter()
        .map(|x| if x.is_nan() { 1 } else { x.to_bits() })
        .collect()
}
