//! [`DeviceBuffer`]: one storage buffer with its own memory, mapped for its whole life.
//!
//! Every buffer lives in host-visible, host-coherent memory (device-local too when the device
//! has such a type: resizable BAR on a discrete GPU, all memory on lavapipe), so uploads and
//! downloads are copies through the mapping and need no staging buffer or flush. A buffer keeps
//! its [`Gpu`] alive, so that it is always destroyed before the device.

use super::error::VkError;
use super::instance::Gpu;
use ash::vk;
use std::sync::Arc;

/// Vulkan forbids empty buffers; an empty one takes this many bytes.
const MIN_BYTES: u64 = 16;

/// A storage buffer and its mapped memory.
pub struct DeviceBuffer {
    gpu: Arc<Gpu>,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut u8,
    /// The bytes asked for (the allocation may be larger).
    len: u64,
}

/// The memory types for buffers that `bits` allows, in order of preference: host-visible and
/// coherent and device-local (a discrete GPU's BAR window may be small: the next is tried when
/// it is full), then host-visible and coherent.
fn memory_types(gpu: &Gpu, bits: u32) -> Vec<u32> {
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let types = &gpu.memory.memory_types[..gpu.memory.memory_type_count as usize];
    let ok = |i: usize, flags: vk::MemoryPropertyFlags| {
        bits & (1 << i) != 0 && types[i].property_flags.contains(flags)
    };
    let local = host | vk::MemoryPropertyFlags::DEVICE_LOCAL;
    let mut out: Vec<u32> = (0..types.len())
        .filter(|&i| ok(i, local))
        .map(|i| i as u32)
        .collect();
    out.extend(
        (0..types.len())
            .filter(|&i| ok(i, host) && !ok(i, local))
            .map(|i| i as u32),
    );
    out
}

impl DeviceBuffer {
    /// A zeroed buffer of `len` bytes. Out of memory is an error the caller may retry smaller.
    pub fn new(gpu: &Arc<Gpu>, len: u64) -> Result<DeviceBuffer, VkError> {
        let size = len.max(MIN_BYTES).next_multiple_of(4);
        let d = &gpu.device;
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(
                vk::BufferUsageFlags::STORAGE_BUFFER
                    | vk::BufferUsageFlags::TRANSFER_SRC
                    | vk::BufferUsageFlags::TRANSFER_DST,
            )
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: `info` is valid; every object made here is destroyed on each error path.
        unsafe {
            let buffer = d
                .create_buffer(&info, None)
                .map_err(|r| VkError::vk("vkCreateBuffer", r))?;
            let req = d.get_buffer_memory_requirements(buffer);
            let tys = memory_types(gpu, req.memory_type_bits);
            if tys.is_empty() {
                d.destroy_buffer(buffer, None);
                return Err(VkError::Memory(
                    "the Vulkan device has no host-visible memory for storage buffers".into(),
                ));
            }
            let mut last = vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
            let mut memory = None;
            for ty in tys {
                let alloc = vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(ty);
                match d.allocate_memory(&alloc, None) {
                    Ok(m) => {
                        memory = Some(m);
                        break;
                    }
                    Err(r) => last = r,
                }
            }
            let Some(memory) = memory else {
                d.destroy_buffer(buffer, None);
                return Err(VkError::vk(&format!("allocating {size} bytes"), last));
            };
            let mapped = d
                .bind_buffer_memory(buffer, memory, 0)
                .and_then(|_| d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()));
            let ptr = match mapped {
                Ok(p) => p as *mut u8,
                Err(r) => {
                    d.destroy_buffer(buffer, None);
                    d.free_memory(memory, None);
                    return Err(VkError::vk("mapping a buffer", r));
                }
            };
            std::ptr::write_bytes(ptr, 0, size as usize);
            Ok(DeviceBuffer {
                gpu: gpu.clone(),
                buffer,
                memory,
                ptr,
                len,
            })
        }
    }

    pub fn handle(&self) -> vk::Buffer {
        self.buffer
    }
    /// The bytes asked for.
    pub fn len(&self) -> u64 {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The bytes a descriptor covers (at least [`MIN_BYTES`], a multiple of 4).
    pub fn range(&self) -> u64 {
        self.len.max(MIN_BYTES).next_multiple_of(4)
    }

    /// Copies `data` into the buffer at byte `offset`. The device must not be using it.
    pub fn write(&mut self, offset: u64, data: &[u8]) {
        let end = offset as usize + data.len();
        assert!(end as u64 <= self.range(), "write past a device buffer");
        // SAFETY: in bounds of the mapping (checked above); coherent memory needs no flush.
        unsafe {
            std::ptr::copy_nonoverlapping(data.as_ptr(), self.ptr.add(offset as usize), data.len())
        };
    }

    /// Copies bytes from `offset` into `out`. The device must have finished writing them.
    pub fn read(&self, offset: u64, out: &mut [u8]) {
        let end = offset as usize + out.len();
        assert!(end as u64 <= self.range(), "read past a device buffer");
        // SAFETY: in bounds of the mapping (checked above).
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.ptr.add(offset as usize),
                out.as_mut_ptr(),
                out.len(),
            )
        };
    }

    /// Zeroes the first `len` bytes.
    pub fn zero(&mut self, len: u64) {
        let len = len.min(self.range());
        // SAFETY: in bounds of the mapping.
        unsafe { std::ptr::write_bytes(self.ptr, 0, len as usize) };
    }

    /// Reads the little-endian u64 at word `index`.
    pub fn read_u64(&self, index: u64) -> u64 {
        let mut b = [0u8; 8];
        self.read(index * 8, &mut b);
        u64::from_le_bytes(b)
    }

    /// Reads the u32 at word `index` (4-byte words).
    pub fn read_u32(&self, index: u64) -> u32 {
        let mut b = [0u8; 4];
        self.read(index * 4, &mut b);
        u32::from_le_bytes(b)
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: owners drop a buffer only after the work using it finished (see `heap` and
        // `submit`); the memory is unmapped by freeing it.
        unsafe {
            self.gpu.device.destroy_buffer(self.buffer, None);
            self.gpu.device.free_memory(self.memory, None);
        }
    }
}
