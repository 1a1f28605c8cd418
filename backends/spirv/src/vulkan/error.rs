//! [`VkError`]: why a Vulkan call failed, kept apart from the runtime's errors so that the
//! device can tell "no driver" (the registry's constructor fails, tests skip) from a device
//! lost or out of memory mid-run (a runtime error of the launch or the sync).

use ash::vk;
use std::fmt;

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VkError {
    /// No Vulkan loader, driver or usable device.
    NoDriver(String),
    /// A Vulkan call returned an error code.
    Call { what: String, result: vk::Result },
    /// No memory type fits a request, or a request is too large for the device.
    Memory(String),
}

impl VkError {
    pub fn vk(what: &str, result: vk::Result) -> VkError {
        VkError::Call {
            what: what.to_string(),
            result,
        }
    }

    /// Whether the device is gone (every later call fails the same way).
    pub fn is_device_lost(&self) -> bool {
        matches!(
            self,
            VkError::Call {
                result: vk::Result::ERROR_DEVICE_LOST,
                ..
            }
        )
    }

    /// Whether an allocation failed (a retry with less may succeed).
    pub fn is_out_of_memory(&self) -> bool {
        matches!(
            self,
            VkError::Call {
                result: vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
                    | vk::Result::ERROR_OUT_OF_HOST_MEMORY,
                ..
            }
        ) || matches!(self, VkError::Memory(_))
    }
}

impl fmt::Display for VkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VkError::NoDriver(m) => write!(f, "Vulkan is not available: {m}"),
            VkError::Call { what, result } => match *result {
                vk::Result::ERROR_DEVICE_LOST => write!(f, "{what}: the Vulkan device was lost"),
                vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => {
                    write!(f, "{what}: out of device memory")
                }
                vk::Result::ERROR_OUT_OF_HOST_MEMORY => write!(f, "{what}: out of host memory"),
                r => write!(f, "{what} failed: {r}"),
            },
            VkError::Memory(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for VkError {}
