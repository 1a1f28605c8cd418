//! [`Submitter`]: command recording, submission with fences, and deferred destruction.
//!
//! Work is recorded into one command buffer (a batch) until something needs its results on the
//! host (a task bound read from the temporaries, a download, a sync), then submitted with its
//! own fence. Batches are numbered (serials); a resource that recorded work may still use (an
//! outgrown heap, a task's metadata buffer, a descriptor pool) is handed to [`Submitter::retire`]
//! with the serial of the last batch that used it, and destroyed only once that batch's fence
//! has signalled.

use super::error::VkError;
use super::instance::Gpu;
use ash::vk;
use std::any::Any;
use std::collections::VecDeque;
use std::sync::Arc;

/// A submitted batch and what must outlive it.
struct InFlight {
    serial: u64,
    fence: vk::Fence,
    cmd: vk::CommandBuffer,
}

/// Records, submits and waits for batches of compute work.
pub struct Submitter {
    gpu: Arc<Gpu>,
    pool: vk::CommandPool,
    /// The batch being recorded (its serial is `next_serial`).
    recording: Option<vk::CommandBuffer>,
    /// Whether the recording batch holds any command.
    recorded: bool,
    next_serial: u64,
    /// Every batch with a serial up to this one has finished.
    completed: u64,
    in_flight: VecDeque<InFlight>,
    /// Resources to drop once the batch of their serial finished.
    retired: Vec<(u64, Box<dyn Any>)>,
    /// Set once a submission or a wait failed with a lost device: every later call fails.
    lost: bool,
}

/// Submitted batches beyond this many are waited for at the next submission.
pub const MAX_IN_FLIGHT: usize = 16;

/// How long one wait for a fence may take before the device is taken as hung.
const FENCE_TIMEOUT_NS: u64 = 600 * 1_000_000_000;

impl Submitter {
    pub fn new(gpu: &Arc<Gpu>) -> Result<Submitter, VkError> {
        let info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(gpu.queue_family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: a valid create info on a live device.
        let pool = unsafe { gpu.device.create_command_pool(&info, None) }
            .map_err(|r| VkError::vk("vkCreateCommandPool", r))?;
        Ok(Submitter {
            gpu: gpu.clone(),
            pool,
            recording: None,
            recorded: false,
            next_serial: 1,
            completed: 0,
            in_flight: VecDeque::new(),
            retired: Vec::new(),
            lost: false,
        })
    }

    fn check_lost(&self) -> Result<(), VkError> {
        if self.lost {
            return Err(VkError::vk("the device", vk::Result::ERROR_DEVICE_LOST));
        }
        Ok(())
    }

    fn note(&mut self, e: VkError) -> VkError {
        if e.is_device_lost() {
            self.lost = true;
        }
        e
    }

    /// The serial of the batch being recorded: work recorded now finishes with it.
    pub fn current_serial(&self) -> u64 {
        self.next_serial
    }

    /// The command buffer being recorded, begun on first use.
    pub fn cmd(&mut self) -> Result<vk::CommandBuffer, VkError> {
        self.check_lost()?;
        if let Some(c) = self.recording {
            self.recorded = true;
            return Ok(c);
        }
        let d = &self.gpu.device;
        let info = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: the pool is live and used from this thread only.
        let cmd = unsafe { d.allocate_command_buffers(&info) }
            .map_err(|r| VkError::vk("vkAllocateCommandBuffers", r))?[0];
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        if let Err(r) = unsafe { d.begin_command_buffer(cmd, &begin) } {
            unsafe { d.free_command_buffers(self.pool, &[cmd]) };
            return Err(VkError::vk("vkBeginCommandBuffer", r));
        }
        self.recording = Some(cmd);
        self.recorded = true;
        Ok(cmd)
    }

    /// Makes every shader write recorded so far visible to later shader reads and writes and to
    /// the host.
    pub fn barrier(&mut self) -> Result<(), VkError> {
        let cmd = self.cmd()?;
        let mb = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(
                vk::AccessFlags::SHADER_READ
                    | vk::AccessFlags::SHADER_WRITE
                    | vk::AccessFlags::HOST_READ,
            );
        // SAFETY: `cmd` is recording.
        unsafe {
            self.gpu.device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[mb],
                &[],
                &[],
            )
        };
        Ok(())
    }

    /// Keeps `what` alive until batch `serial` has finished.
    pub fn retire(&mut self, serial: u64, what: Box<dyn Any>) {
        if serial <= self.completed {
            drop(what);
        } else {
            self.retired.push((serial, what));
        }
    }

    /// Submits the batch being recorded (if it holds anything) with its fence.
    pub fn submit(&mut self) -> Result<(), VkError> {
        self.check_lost()?;
        let Some(cmd) = self.recording.take() else {
            return Ok(());
        };
        let serial = self.next_serial;
        self.next_serial += 1;
        let d = &self.gpu.device;
        if !std::mem::take(&mut self.recorded) {
            unsafe { d.free_command_buffers(self.pool, &[cmd]) };
            return Ok(());
        }
        let result = (|| {
            // SAFETY: `cmd` is recording; the queue is used from this thread only.
            unsafe {
                d.end_command_buffer(cmd)
                    .map_err(|r| VkError::vk("vkEndCommandBuffer", r))?;
                let fence = d
                    .create_fence(&vk::FenceCreateInfo::default(), None)
                    .map_err(|r| VkError::vk("vkCreateFence", r))?;
                let cmds = [cmd];
                let submit = vk::SubmitInfo::default().command_buffers(&cmds);
                if let Err(r) = d.queue_submit(self.gpu.queue, &[submit], fence) {
                    d.destroy_fence(fence, None);
                    return Err(VkError::vk("vkQueueSubmit", r));
                }
                Ok(fence)
            }
        })();
        match result {
            Ok(fence) => {
                self.in_flight.push_back(InFlight { serial, fence, cmd });
                self.reclaim()
            }
            Err(e) => {
                unsafe { d.free_command_buffers(self.pool, &[cmd]) };
                // Nothing of this batch ran: its resources may go.
                self.mark_completed(serial);
                Err(self.note(e))
            }
        }
    }

    fn mark_completed(&mut self, serial: u64) {
        self.completed = self.completed.max(serial);
        let done = self.completed;
        self.retired.retain(|(s, _)| *s > done);
    }

    /// Frees what finished batches retired, without waiting; when more than
    /// [`MAX_IN_FLIGHT`] batches are pending (launches without a sync), waits for the oldest,
    /// so that their fences and retired buffers do not pile up.
    fn reclaim(&mut self) -> Result<(), VkError> {
        while let Some(b) = self.in_flight.front() {
            // SAFETY: the fence belongs to a submitted batch.
            let done = unsafe { self.gpu.device.get_fence_status(b.fence) };
            match done {
                Ok(true) => {}
                Ok(false) if self.in_flight.len() > MAX_IN_FLIGHT => {}
                Ok(false) => break,
                Err(r) => return Err(self.note(VkError::vk("vkGetFenceStatus", r))),
            }
            self.wait_front()?;
        }
        Ok(())
    }

    /// Waits for the oldest submitted batch and frees what it retired.
    fn wait_front(&mut self) -> Result<(), VkError> {
        let Some(b) = self.in_flight.pop_front() else {
            return Ok(());
        };
        let d = &self.gpu.device;
        // SAFETY: the fence belongs to a submitted batch.
        let r = unsafe { d.wait_for_fences(&[b.fence], true, FENCE_TIMEOUT_NS) };
        let r = match r {
            Ok(()) => Ok(()),
            Err(vk::Result::TIMEOUT) => Err(VkError::vk(
                "waiting for the device (over 10 minutes)",
                vk::Result::ERROR_DEVICE_LOST,
            )),
            Err(r) => Err(VkError::vk("vkWaitForFences", r)),
        };
        // A lost device or a timeout ends the batch for good: nothing of it runs any more
        // that the host could observe, so its objects go either way.
        unsafe {
            d.destroy_fence(b.fence, None);
            d.free_command_buffers(self.pool, &[b.cmd]);
        }
        self.mark_completed(b.serial);
        r.map_err(|e| self.note(e))
    }

    /// Submits what is recorded and waits until every batch finished; frees what they retired.
    pub fn wait_idle(&mut self) -> Result<(), VkError> {
        self.submit()?;
        let mut first_err = None;
        while !self.in_flight.is_empty() {
            if let Err(e) = self.wait_front() {
                first_err.get_or_insert(e);
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The number of resources waiting for their batch (for tests of deferred frees).
    pub fn pending_retired(&self) -> usize {
        self.retired.len()
    }

    /// The number of submitted batches not known to have finished.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// The serial of the last batch known to have finished.
    pub fn completed_serial(&self) -> u64 {
        self.completed
    }
}

impl Drop for Submitter {
    fn drop(&mut self) {
        // Every batch must finish before what it uses goes; errors cannot be reported here.
        let _ = self.wait_idle();
        if let Some(cmd) = self.recording.take() {
            unsafe { self.gpu.device.free_command_buffers(self.pool, &[cmd]) };
        }
        self.retired.clear();
        // SAFETY: no command buffer of the pool is pending any more.
        unsafe { self.gpu.device.destroy_command_pool(self.pool, None) };
    }
}
