//! Pipelines and descriptor sets: a compute pipeline per task of a compiled kernel
//! ([`KernelPipelines`]), and one descriptor set per dispatch ([`DescriptorSet`]).
//!
//! A task's descriptor set layout has exactly the bindings its entry point uses
//! ([`SpirvTask::bindings`]), all storage buffers in set 0. Before any pipeline is created the
//! kernel's declared SPIR-V capabilities are checked against the device: a kernel that needs
//! what the device lacks is refused with a message naming the capability.

use super::error::VkError;
use super::instance::{Capabilities, Gpu};
use crate::abi::{SpirvKernel, SpirvTask};
use ash::vk;
use std::ffi::CString;
use std::sync::Arc;

/// One task's pipeline.
pub struct TaskPipeline {
    pub set_layout: vk::DescriptorSetLayout,
    pub layout: vk::PipelineLayout,
    pub pipeline: vk::Pipeline,
    /// The binding numbers of its set, in `SpirvTask::bindings` order.
    pub bindings: Vec<u32>,
}

/// The pipelines of a kernel's tasks, in task order.
pub struct KernelPipelines {
    gpu: Arc<Gpu>,
    pub tasks: Vec<TaskPipeline>,
}

/// The first capability of `declared` (rspirv's `Capability` names) that `caps` lacks.
pub fn missing_capability(declared: &[String], caps: &Capabilities) -> Option<String> {
    declared
        .iter()
        .find(|c| {
            let has = match c.as_str() {
                "Int64" => caps.int64,
                "Float64" => caps.float64,
                "Int16" | "StorageBuffer16BitAccess" | "StorageUniformBufferBlock16" => caps.int16,
                "Int8" | "StorageBuffer8BitAccess" => caps.int8,
                "Int64Atomics" => caps.int64_atomics,
                "AtomicFloat32AddEXT" => caps.float32_atomic_add,
                "AtomicFloat64AddEXT" => caps.float64_atomic_add,
                // Shader, and what every Vulkan 1.2 compute device has.
                _ => true,
            };
            !has
        })
        .cloned()
}

impl KernelPipelines {
    /// The pipelines of `kernel`'s tasks; refused before any pipeline when the device lacks a
    /// capability the module declares.
    pub fn new(gpu: &Arc<Gpu>, kernel: &SpirvKernel) -> Result<KernelPipelines, VkError> {
        if let Some(c) = missing_capability(&kernel.capabilities, &gpu.caps) {
            return Err(VkError::Memory(format!(
                "kernel @{} needs the SPIR-V capability {c}, which the Vulkan device '{}' does \
                 not support",
                kernel.name, gpu.name
            )));
        }
        let d = &gpu.device;
        let info = vk::ShaderModuleCreateInfo::default().code(&kernel.words);
        // SAFETY: the words are a SPIR-V module (the codegen validates what it emits).
        let module = unsafe { d.create_shader_module(&info, None) }
            .map_err(|r| VkError::vk("vkCreateShaderModule", r))?;
        let mut out = KernelPipelines {
            gpu: gpu.clone(),
            tasks: Vec::new(),
        };
        let mut result = Ok(());
        for t in &kernel.tasks {
            match task_pipeline(gpu, module, t) {
                Ok(p) => out.tasks.push(p),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        // A shader module may go once its pipelines exist.
        unsafe { d.destroy_shader_module(module, None) };
        result.map(|_| out)
    }
}

fn task_pipeline(
    gpu: &Gpu,
    module: vk::ShaderModule,
    t: &SpirvTask,
) -> Result<TaskPipeline, VkError> {
    let d = &gpu.device;
    let layout_bindings: Vec<vk::DescriptorSetLayoutBinding> = t
        .bindings
        .iter()
        .map(|b| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b.binding)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect();
    let entry = CString::new(t.entry.as_str())
        .map_err(|_| VkError::Memory(format!("entry point name {:?} has a NUL", t.entry)))?;
    // SAFETY: every create info and what it points to lives across its call; each object is
    // destroyed on the error paths after it.
    unsafe {
        let set_layout = d
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                None,
            )
            .map_err(|r| VkError::vk("vkCreateDescriptorSetLayout", r))?;
        let sets = [set_layout];
        let layout = match d.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default().set_layouts(&sets),
            None,
        ) {
            Ok(l) => l,
            Err(r) => {
                d.destroy_descriptor_set_layout(set_layout, None);
                return Err(VkError::vk("vkCreatePipelineLayout", r));
            }
        };
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry);
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(layout);
        match d.create_compute_pipelines(vk::PipelineCache::null(), &[info], None) {
            Ok(p) => Ok(TaskPipeline {
                set_layout,
                layout,
                pipeline: p[0],
                bindings: t.bindings.iter().map(|b| b.binding).collect(),
            }),
            Err((_, r)) => {
                d.destroy_pipeline_layout(layout, None);
                d.destroy_descriptor_set_layout(set_layout, None);
                Err(VkError::vk(
                    &format!("creating the pipeline of {}", t.entry),
                    r,
                ))
            }
        }
    }
}

impl Drop for KernelPipelines {
    fn drop(&mut self) {
        let d = &self.gpu.device;
        // SAFETY: the device drops its kernels only after the submitter waited for all work.
        unsafe {
            for t in self.tasks.drain(..) {
                d.destroy_pipeline(t.pipeline, None);
                d.destroy_pipeline_layout(t.layout, None);
                d.destroy_descriptor_set_layout(t.set_layout, None);
            }
        }
    }
}

/// A descriptor set for one dispatch, in its own pool (retired with the dispatch's batch).
pub struct DescriptorSet {
    gpu: Arc<Gpu>,
    pool: vk::DescriptorPool,
    pub set: vk::DescriptorSet,
}

impl DescriptorSet {
    /// A set of `task`'s layout whose binding `bindings[i]` is `buffers[i]` (buffer and range).
    pub fn new(
        gpu: &Arc<Gpu>,
        task: &TaskPipeline,
        buffers: &[(vk::Buffer, u64)],
    ) -> Result<DescriptorSet, VkError> {
        let d = &gpu.device;
        let n = task.bindings.len().max(1) as u32;
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(n)];
        // SAFETY: create infos live across their calls; the pool is destroyed on error.
        unsafe {
            let pool = d
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                )
                .map_err(|r| VkError::vk("vkCreateDescriptorPool", r))?;
            let layouts = [task.set_layout];
            let set = match d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&layouts),
            ) {
                Ok(s) => s[0],
                Err(r) => {
                    d.destroy_descriptor_pool(pool, None);
                    return Err(VkError::vk("vkAllocateDescriptorSets", r));
                }
            };
            let infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
                .iter()
                .map(|&(b, range)| {
                    [vk::DescriptorBufferInfo::default()
                        .buffer(b)
                        .offset(0)
                        .range(range)]
                })
                .collect();
            let writes: Vec<vk::WriteDescriptorSet> = task
                .bindings
                .iter()
                .zip(&infos)
                .map(|(&binding, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(binding)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(info)
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            Ok(DescriptorSet {
                gpu: gpu.clone(),
                pool,
                set,
            })
        }
    }
}

impl Drop for DescriptorSet {
    fn drop(&mut self) {
        // SAFETY: retired with the serial of the batch that used it (see `submit`).
        unsafe { self.gpu.device.destroy_descriptor_pool(self.pool, None) };
    }
}
