//! qd-spirv's tests: one binary, one module per concern.

mod vulkan;
mod vulkan_spv;
mod corpus;
mod spirv_val;
