//! qd-spirv's tests: one binary, one module per concern.

mod codegen;
mod corpus;
mod libm64;
mod loop_limit;
mod math_ext;
mod spirv_val;
mod vulkan;
mod vulkan_spv;
