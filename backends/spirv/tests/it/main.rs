//! qd-spirv's tests: one binary, one module per concern.

mod vulkan;
mod vulkan_spv;
mod codegen;
mod corpus;
mod libm64;
mod spirv_val;
