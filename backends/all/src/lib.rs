//! all_devices: the one list of qd's devices. Front ends (qd-run's `--device NAME`, the Rust
//! API) find a device here by name; a new device is registered here and nowhere else. The
//! runtime itself knows no device crate (it only defines [`DeviceRegistry`]).

use qd_interp::{InterpOptions, Interpreter};
use qd_runtime::{Device, DeviceOptions, DeviceRegistry};

/// The name of the default device.
pub const DEFAULT_DEVICE: &str = "cpu";

fn interp(options: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    Ok(Box::new(Interpreter::with_options(InterpOptions {
        shuffle_seed: options.shuffle_seed,
    })))
}

fn interp_lowered(options: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    Ok(Box::new(
        qd_interp::lowered::LoweredInterpreter::with_options(InterpOptions {
            shuffle_seed: options.shuffle_seed,
        }),
    ))
}

fn cpu(options: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    let d = match options.threads {
        Some(n) => qd_llvm::CpuDevice::new()?.with_thread_count(n)?,
        None => qd_llvm::CpuDevice::new()?,
    };
    Ok(Box::new(
        d.with_check_bounds(options.check_bounds)
            .with_scalar_tasks(options.scalar_tasks),
    ))
}

fn vulkan(options: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    let d = qd_spirv::vulkan::VulkanDevice::new().map_err(|e| e.to_string())?;
    Ok(Box::new(d.with_check_bounds(options.check_bounds)))
}

#[cfg(feature = "mlir")]
fn mlir_cpu(options: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    Ok(Box::new(
        qd_mlir::MlirCpuDevice::new().with_check_bounds(options.check_bounds),
    ))
}

/// Registers every device of qd.
pub fn register_all_devices(reg: &mut DeviceRegistry) {
    reg.register(
        "interp",
        "the reference interpreter, at the qd level (qd, arith, math, ad, adstack)",
        interp,
    )
    .cancellable();
    reg.register(
        qd_interp::lowered::NAME,
        "the interpreter of lowered IR (convert-qd-to-lowered), adstack heaps from the runtime's layout",
        interp_lowered,
    )
    .cancellable();
    reg.register(
        qd_llvm::NAME,
        "LLVM at O3 for the host CPU, JIT-compiled, run on a thread pool",
        cpu,
    )
    .cancellable();
    reg.register(
        qd_spirv::vulkan::NAME,
        "SPIR-V compute shaders on Vulkan (lavapipe when VK_DRIVER_FILES names it, else a discrete GPU)",
        vulkan,
    );
    #[cfg(feature = "mlir")]
    reg.register(
        qd_mlir::NAME,
        "MLIR's own pipeline: lowered IR exported to upstream MLIR, lowered to LLVM by MLIR's passes, run by its ExecutionEngine on one thread",
        mlir_cpu,
    )
    .cancellable();
}

/// A registry with every device of qd.
pub fn all_devices() -> DeviceRegistry {
    let mut reg = DeviceRegistry::new();
    register_all_devices(&mut reg);
    reg
}

#[cfg(test)]
mod tests {
    use super::*;
    use qd_runtime::Error;

    /// lavapipe's driver manifest, which tools/setup.sh installs.
    const LAVAPIPE: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

    #[test]
    fn every_device_is_registered_under_its_own_name() {
        let reg = all_devices();
        assert!(reg.contains(DEFAULT_DEVICE));
        for entry in reg.iter() {
            assert!(!entry.description.is_empty(), "{}", entry.name);
            let dev = match reg.create(&entry.name, &DeviceOptions::default()) {
                Ok(d) => d,
                // A machine without any Vulkan driver (CI installs lavapipe) cannot start it.
                Err(e) if entry.name == "vulkan" && !std::path::Path::new(LAVAPIPE).exists() => {
                    eprintln!("note: {e}; vulkan not checked");
                    continue;
                }
                Err(e) => panic!("{}: {e}", entry.name),
            };
            assert_eq!(dev.name(), entry.name);
            // What front ends read before they make a device (`qd-run --timeout`).
            assert_eq!(
                dev.supports_cancel(),
                entry.supports_cancel,
                "{}",
                entry.name
            );
        }
    }

    #[test]
    fn an_unknown_name_lists_the_devices() {
        let e = all_devices()
            .create("nosuch", &DeviceOptions::default())
            .err()
            .unwrap();
        assert!(matches!(e, Error::UnknownDevice { .. }));
        #[cfg(not(feature = "mlir"))]
        let known = "interp, interp-lowered, cpu, vulkan";
        #[cfg(feature = "mlir")]
        let known = "interp, interp-lowered, cpu, vulkan, mlir-cpu";
        assert_eq!(
            e.to_string(),
            format!("unknown device 'nosuch' (devices: {known})")
        );
    }

    #[test]
    fn options_reach_the_interpreter() {
        // The shuffle seed is observable only through runs; that it is accepted is checked here,
        // its effect by qd-run's --shuffle tests.
        let opts = DeviceOptions {
            shuffle_seed: Some(7),
            ..Default::default()
        };
        assert!(all_devices().create("interp", &opts).is_ok());
    }
}
