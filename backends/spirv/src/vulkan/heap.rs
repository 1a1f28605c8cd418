//! [`GrowingHeap`]: one adstack heap (float or int) on the device, grown as launches need.
//!
//! A task needs `threads x stride` bytes. The heap grows by doubling (amortised over launches),
//! or to exactly the bytes needed when the doubled size cannot be allocated; it never shrinks.
//! The outgrown buffer may still be in use by recorded or submitted work, so it is retired to
//! the [`Submitter`] with the serial of the last batch that used it and destroyed only after
//! that batch's fence signalled. One storage-buffer binding covers at most the device's
//! `maxStorageBufferRange` bytes: a heap past that is an error, never a wrapped size.

use super::error::VkError;
use super::instance::Gpu;
use super::memory::DeviceBuffer;
use super::submit::Submitter;
use std::sync::Arc;

pub struct GrowingHeap {
    /// "float" or "int", for messages.
    name: &'static str,
    buf: Option<DeviceBuffer>,
    /// The serial of the last batch that used `buf`.
    last_use: u64,
    /// How many times the heap was replaced by a larger one (for tests).
    pub grows: u32,
    /// Allocations larger than this fail as out of memory (tests force the exact-size retry).
    pub alloc_limit: Option<u64>,
}

impl GrowingHeap {
    pub fn new(name: &'static str) -> GrowingHeap {
        GrowingHeap {
            name,
            buf: None,
            last_use: 0,
            grows: 0,
            alloc_limit: None,
        }
    }

    /// The bytes the heap holds now.
    pub fn capacity(&self) -> u64 {
        self.buf.as_ref().map_or(0, |b| b.len())
    }

    /// A heap of at least `bytes` (at least one word, so that it can be bound), for work
    /// recorded into the submitter's current batch.
    pub fn ensure(
        &mut self,
        gpu: &Arc<Gpu>,
        sub: &mut Submitter,
        bytes: u64,
    ) -> Result<&DeviceBuffer, VkError> {
        let range = u64::from(gpu.caps.max_storage_buffer_range);
        if bytes > range {
            return Err(VkError::Memory(format!(
                "the {} adstack heap needs {bytes} bytes, more than one storage buffer of this \
                 device may hold ({range} bytes, maxStorageBufferRange)",
                self.name
            )));
        }
        let want = bytes.max(16);
        if self.capacity() < want {
            let doubled = want.max(self.capacity().saturating_mul(2)).min(range);
            let limit = self.alloc_limit.unwrap_or(u64::MAX);
            let alloc = |n: u64| {
                if n > limit {
                    return Err(VkError::Memory(format!("{n} bytes is over the test limit")));
                }
                DeviceBuffer::new(gpu, n)
            };
            let fresh = match alloc(doubled) {
                Ok(b) => b,
                Err(e) if e.is_out_of_memory() && doubled > want => alloc(want).map_err(|e| {
                    VkError::Memory(format!(
                        "cannot allocate the {} adstack heap ({want} bytes): {e}",
                        self.name
                    ))
                })?,
                Err(e) => {
                    return Err(VkError::Memory(format!(
                        "cannot allocate the {} adstack heap ({doubled} bytes): {e}",
                        self.name
                    )))
                }
            };
            if let Some(old) = self.buf.replace(fresh) {
                sub.retire(self.last_use, Box::new(old));
            }
            self.grows += 1;
        }
        self.last_use = sub.current_serial();
        Ok(self.buf.as_ref().expect("the heap was just allocated"))
    }
}
