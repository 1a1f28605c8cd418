//! The Vulkan device (`vulkan`), on ash. One file per concern:
//!
//! - [`instance`]: the loader, the physical device (lavapipe when pinned or alone, else a
//!   discrete GPU), its [`Capabilities`], a logical device with one compute queue;
//! - [`memory`]: mapped storage buffers; [`host`]: host buffers as bytes;
//! - [`heap`]: the adstack heaps, grown by doubling with an exact-size retry, old heaps freed
//!   after their last batch's fence;
//! - [`pipeline`]: a compute pipeline per task and its descriptor sets;
//! - [`submit`]: batches of recorded work, fences, deferred destruction;
//! - [`error`]: why a Vulkan call failed ([`VkError`]);
//! - [`device`]: [`VulkanDevice`], the runtime's `Device`.

pub mod device;
pub mod error;
pub mod heap;
pub mod host;
pub mod instance;
pub mod memory;
pub mod pipeline;
pub mod submit;

pub use device::{VulkanDevice, NAME, PIPELINE};
pub use error::VkError;
pub use instance::{Capabilities, Gpu};
