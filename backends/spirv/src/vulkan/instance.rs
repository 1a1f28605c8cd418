//! Starting Vulkan: the loader, an instance, the choice of a physical device, what it can do
//! ([`Capabilities`], handed to the SPIR-V codegen as options), and a logical device with one
//! compute queue ([`Gpu`]).
//!
//! Choice of the physical device: lavapipe (the CPU implementation, `VK_PHYSICAL_DEVICE_TYPE_CPU`)
//! when `VK_DRIVER_FILES` (or the older `VK_ICD_FILENAMES`) names it, as CI does; otherwise a
//! discrete GPU, else the CPU implementation, else whatever else exists. Every failure (no loader,
//! no driver, no device of Vulkan 1.2 with a compute queue) is a [`VkError`], never a panic.

use super::error::VkError;
use crate::abi::LoopLimit;
use ash::vk;
use std::ffi::CStr;

/// The Vulkan version the SPIR-V we emit (1.5) needs.
const MIN_API: u32 = vk::API_VERSION_1_2;

/// What the chosen device supports, as far as the SPIR-V codegen and the device care.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Capabilities {
    /// `shaderInt64`: 64-bit integers (and 64-bit index arithmetic) in shaders.
    pub int64: bool,
    /// `shaderFloat64`.
    pub float64: bool,
    /// `shaderInt16` and 16-bit storage buffer access.
    pub int16: bool,
    /// `shaderInt8` and 8-bit storage buffer access.
    pub int8: bool,
    /// `shaderBufferInt64Atomics`: 64-bit integer atomics on storage buffers.
    pub int64_atomics: bool,
    /// `VK_EXT_shader_atomic_float`'s `shaderBufferFloat32AtomicAdd`.
    pub float32_atomic_add: bool,
    /// `VK_EXT_shader_atomic_float`'s `shaderBufferFloat64AtomicAdd`.
    pub float64_atomic_add: bool,
    /// `maxComputeWorkGroupInvocations`.
    pub max_workgroup_invocations: u32,
    /// `maxComputeWorkGroupCount[0]`: the most workgroups one dispatch may have along x.
    pub max_workgroup_count_x: u32,
    /// `maxStorageBufferRange`: the most bytes one storage-buffer binding may cover.
    pub max_storage_buffer_range: u32,
    /// The driver's cap on one invocation's loop iterations, if it has one (from
    /// `VkPhysicalDeviceDriverProperties::driverID`, see [`loop_limit_of`]).
    pub loop_limit: Option<LoopLimit>,
}

/// The loop-iteration cap of the driver `id`: lavapipe (`MESA_LLVMPIPE`) stops an invocation's
/// loops after 65535 iterations in all (gallivm's loop limiter); other drivers have none known.
pub fn loop_limit_of(id: vk::DriverId) -> Option<LoopLimit> {
    (id == vk::DriverId::MESA_LLVMPIPE).then_some(LoopLimit::LAVAPIPE)
}

/// The started device: instance, physical and logical device, one compute queue.
pub struct Gpu {
    // The entry keeps the loader library loaded for as long as the instance lives.
    _entry: ash::Entry,
    pub instance: ash::Instance,
    pub physical: vk::PhysicalDevice,
    pub device: ash::Device,
    pub queue: vk::Queue,
    pub queue_family: u32,
    pub memory: vk::PhysicalDeviceMemoryProperties,
    pub caps: Capabilities,
    /// `robustBufferAccess` is on: an out-of-range buffer access stays inside the buffer.
    pub robust: bool,
    /// The device's name (`llvmpipe (LLVM 15.0.6, 256 bits)` for lavapipe).
    pub name: String,
    pub device_type: vk::PhysicalDeviceType,
}

/// One physical device considered, with what is needed to choose it.
struct Candidate {
    physical: vk::PhysicalDevice,
    props: vk::PhysicalDeviceProperties,
    queue_family: u32,
}

/// Whether the environment pins the loader to lavapipe (`VK_DRIVER_FILES=.../lvp_icd...json`).
pub fn lavapipe_requested() -> bool {
    ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .any(|s| s.contains("lvp_icd"))
}

/// The rank of a device type under the selection policy (lower is preferred).
fn rank(ty: vk::PhysicalDeviceType, want_cpu: bool) -> u32 {
    match ty {
        vk::PhysicalDeviceType::CPU if want_cpu => 0,
        vk::PhysicalDeviceType::DISCRETE_GPU => 1,
        vk::PhysicalDeviceType::CPU => 2,
        vk::PhysicalDeviceType::INTEGRATED_GPU => 3,
        vk::PhysicalDeviceType::VIRTUAL_GPU => 4,
        _ => 5,
    }
}

fn name_of(props: &vk::PhysicalDeviceProperties) -> String {
    props
        .device_name_as_c_str()
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "?".to_string())
}

impl Gpu {
    /// Loads Vulkan and starts the device the policy chooses.
    pub fn new() -> Result<Gpu, VkError> {
        // SAFETY: loading the system's Vulkan loader; ash checks the symbols it resolves.
        let entry = unsafe { ash::Entry::load() }
            .map_err(|e| VkError::NoDriver(format!("cannot load the Vulkan loader: {e}")))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"qd")
            .engine_name(c"qd")
            .api_version(MIN_API);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: `info` and what it points to live across the call.
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(|r| match r {
            vk::Result::ERROR_INCOMPATIBLE_DRIVER | vk::Result::ERROR_INITIALIZATION_FAILED => {
                VkError::NoDriver(format!("no Vulkan driver ({r})"))
            }
            r => VkError::vk("vkCreateInstance", r),
        })?;
        match Self::with_instance(entry.clone(), instance.clone()) {
            Ok(g) => Ok(g),
            Err(e) => {
                // SAFETY: nothing was created from the instance that outlives this point.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn with_instance(entry: ash::Entry, instance: ash::Instance) -> Result<Gpu, VkError> {
        // SAFETY: plain queries on a live instance.
        let physicals = unsafe { instance.enumerate_physical_devices() }
            .map_err(|r| VkError::vk("vkEnumeratePhysicalDevices", r))?;
        let mut candidates = Vec::new();
        for physical in physicals {
            let props = unsafe { instance.get_physical_device_properties(physical) };
            if props.api_version < MIN_API {
                continue;
            }
            let families =
                unsafe { instance.get_physical_device_queue_family_properties(physical) };
            let Some(queue_family) = families
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE) && f.queue_count > 0)
            else {
                continue;
            };
            candidates.push(Candidate {
                physical,
                props,
                queue_family: queue_family as u32,
            });
        }
        let want_cpu = lavapipe_requested();
        candidates.sort_by_key(|c| rank(c.props.device_type, want_cpu));
        let Some(chosen) = candidates.into_iter().next() else {
            return Err(VkError::NoDriver(
                "no Vulkan 1.2 device with a compute queue".to_string(),
            ));
        };
        let name = name_of(&chosen.props);
        let (caps, extensions) = query_capabilities(&instance, &chosen)?;
        let robust = unsafe { instance.get_physical_device_features(chosen.physical) }
            .robust_buffer_access
            == vk::TRUE;
        let device = create_device(&instance, &chosen, &caps, robust, &extensions)?;
        // SAFETY: the family and index 0 exist (checked above, one queue requested).
        let queue = unsafe { device.get_device_queue(chosen.queue_family, 0) };
        let memory = unsafe { instance.get_physical_device_memory_properties(chosen.physical) };
        Ok(Gpu {
            _entry: entry,
            instance,
            physical: chosen.physical,
            device,
            queue,
            queue_family: chosen.queue_family,
            memory,
            caps,
            robust,
            name,
            device_type: chosen.props.device_type,
        })
    }

    /// Whether this is a CPU implementation (lavapipe).
    pub fn is_cpu(&self) -> bool {
        self.device_type == vk::PhysicalDeviceType::CPU
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: the owners of every object made from the device dropped them first (the
        // Vulkan device drops its pools, buffers and pipelines before its `Gpu`).
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

const ATOMIC_FLOAT: &CStr = c"VK_EXT_shader_atomic_float";

/// The capabilities of `c` and the device extensions to enable.
fn query_capabilities(
    instance: &ash::Instance,
    c: &Candidate,
) -> Result<(Capabilities, Vec<&'static CStr>), VkError> {
    // SAFETY: plain queries on a live physical device.
    let exts = unsafe { instance.enumerate_device_extension_properties(c.physical) }
        .map_err(|r| VkError::vk("vkEnumerateDeviceExtensionProperties", r))?;
    let has_atomic_float = exts
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(ATOMIC_FLOAT));
    let mut af = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
    let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut v11)
        .push_next(&mut v12);
    if has_atomic_float {
        f2 = f2.push_next(&mut af);
    }
    unsafe { instance.get_physical_device_features2(c.physical, &mut f2) };
    let mut driver = vk::PhysicalDeviceDriverProperties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut driver);
    // SAFETY: a plain query; the device is Vulkan 1.2 (checked), where the struct is core.
    unsafe { instance.get_physical_device_properties2(c.physical, &mut p2) };
    let driver_id = driver.driver_id;
    let f = f2.features;
    let on = |b: vk::Bool32| b == vk::TRUE;
    let limits = &c.props.limits;
    let caps = Capabilities {
        int64: on(f.shader_int64),
        float64: on(f.shader_float64),
        int16: on(f.shader_int16) && on(v11.storage_buffer16_bit_access),
        int8: on(v12.shader_int8) && on(v12.storage_buffer8_bit_access),
        int64_atomics: on(v12.shader_buffer_int64_atomics),
        float32_atomic_add: has_atomic_float && on(af.shader_buffer_float32_atomic_add),
        float64_atomic_add: has_atomic_float && on(af.shader_buffer_float64_atomic_add),
        max_workgroup_invocations: limits.max_compute_work_group_invocations,
        max_workgroup_count_x: limits.max_compute_work_group_count[0],
        max_storage_buffer_range: limits.max_storage_buffer_range,
        loop_limit: loop_limit_of(driver_id),
    };
    let mut extensions = Vec::new();
    if caps.float32_atomic_add || caps.float64_atomic_add {
        extensions.push(ATOMIC_FLOAT);
    }
    Ok((caps, extensions))
}

/// The logical device with every capability of `caps` enabled and one compute queue.
fn create_device(
    instance: &ash::Instance,
    c: &Candidate,
    caps: &Capabilities,
    robust: bool,
    extensions: &[&'static CStr],
) -> Result<ash::Device, VkError> {
    let b = |x: bool| if x { vk::TRUE } else { vk::FALSE };
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(c.queue_family)
        .queue_priorities(&priorities)];
    let features = vk::PhysicalDeviceFeatures {
        shader_int64: b(caps.int64),
        shader_float64: b(caps.float64),
        shader_int16: b(caps.int16),
        robust_buffer_access: b(robust),
        ..Default::default()
    };
    let mut v11 =
        vk::PhysicalDeviceVulkan11Features::default().storage_buffer16_bit_access(caps.int16);
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
        .shader_int8(caps.int8)
        .storage_buffer8_bit_access(caps.int8)
        .shader_buffer_int64_atomics(caps.int64_atomics);
    let mut af = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default()
        .shader_buffer_float32_atomics(caps.float32_atomic_add)
        .shader_buffer_float32_atomic_add(caps.float32_atomic_add)
        .shader_buffer_float64_atomics(caps.float64_atomic_add)
        .shader_buffer_float64_atomic_add(caps.float64_atomic_add);
    let ext_ptrs: Vec<*const std::ffi::c_char> = extensions.iter().map(|e| e.as_ptr()).collect();
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_features(&features)
        .enabled_extension_names(&ext_ptrs)
        .push_next(&mut v11)
        .push_next(&mut v12);
    if !extensions.is_empty() {
        info = info.push_next(&mut af);
    }
    // SAFETY: `info` and everything it points to live across the call.
    unsafe { instance.create_device(c.physical, &info, None) }
        .map_err(|r| VkError::vk("vkCreateDevice", r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_implementation_wins_only_when_pinned_or_alone() {
        use vk::PhysicalDeviceType as T;
        assert!(rank(T::CPU, true) < rank(T::DISCRETE_GPU, true));
        assert!(rank(T::DISCRETE_GPU, false) < rank(T::CPU, false));
        assert!(rank(T::CPU, false) < rank(T::INTEGRATED_GPU, false));
    }

    #[test]
    fn only_lavapipe_has_a_loop_limit() {
        let l = loop_limit_of(vk::DriverId::MESA_LLVMPIPE).expect("lavapipe's limit");
        assert_eq!(l.iterations, 65535);
        assert_eq!(loop_limit_of(vk::DriverId::NVIDIA_PROPRIETARY), None);
        assert_eq!(loop_limit_of(vk::DriverId::MESA_RADV), None);
    }
}
