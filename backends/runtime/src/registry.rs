//! [`DeviceRegistry`]: device names (`qd-run --device NAME`) mapped to constructors. The runtime
//! knows no device crate; the registry is filled outside it, by one fan-in function
//! (`qd_devices::all_devices`, in backends/all), so that a new device is added there and every
//! front end finds it by name.

use crate::device::Device;
use crate::error::Error;

/// What a front end may ask of a device when it creates one; each device reads what applies to
/// it and ignores the rest.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct DeviceOptions {
    /// Run the iterations of parallel loops in a random order drawn from this seed (devices that
    /// can choose the order: the interpreters).
    pub shuffle_seed: Option<u64>,
    /// Check every field and ndarray index on a device that can leave the checks out (the
    /// compiled `cpu` device, where an out-of-range index is then undefined behaviour): an
    /// out-of-bounds access is then a located error, as the interpreters always report it.
    pub check_bounds: bool,
    /// Worker threads of a device that runs on host threads (the `cpu` device); None: one per
    /// available core.
    pub threads: Option<usize>,
    /// Compile task bodies one parallel iteration at a time instead of one per SIMD lane (the
    /// `cpu` device vectorises where it can unless this is set; for comparison and debugging).
    pub scalar_tasks: bool,
}

/// Makes a device; a device that cannot start (no GPU) says why.
pub type DeviceConstructor = fn(&DeviceOptions) -> Result<Box<dyn Device>, String>;

/// One registered device.
#[derive(Clone, Debug)]
pub struct DeviceEntry {
    pub name: String,
    pub description: String,
    pub constructor: DeviceConstructor,
    /// What [`Device::supports_cancel`] says of every device the constructor makes: whether it
    /// takes a deadline (`qd-run --timeout`). Declared with [`DeviceEntry::cancellable`], so a
    /// front end can check a deadline against a device name before it makes the device.
    pub supports_cancel: bool,
}

impl DeviceEntry {
    /// Declares that the device can stop a running launch ([`Device::supports_cancel`]).
    pub fn cancellable(&mut self) -> &mut Self {
        self.supports_cancel = true;
        self
    }
}

/// Devices by name, in registration order.
#[derive(Clone, Debug, Default)]
pub struct DeviceRegistry {
    entries: Vec<DeviceEntry>,
}

impl DeviceRegistry {
    pub fn new() -> Self {
        DeviceRegistry::default()
    }

    /// Registers `name`, as a device that cannot stop a running launch unless the returned
    /// entry is declared [`DeviceEntry::cancellable`]; a second registration of a name replaces
    /// the first in its place.
    pub fn register(
        &mut self,
        name: &str,
        description: &str,
        constructor: DeviceConstructor,
    ) -> &mut DeviceEntry {
        let entry = DeviceEntry {
            name: name.to_string(),
            description: description.to_string(),
            constructor,
            supports_cancel: false,
        };
        let i = match self.entries.iter().position(|e| e.name == name) {
            Some(i) => {
                self.entries[i] = entry;
                i
            }
            None => {
                self.entries.push(entry);
                self.entries.len() - 1
            }
        };
        &mut self.entries[i]
    }

    /// The device `name`, made with `options`: [`Error::UnknownDevice`] (listing the known
    /// names) for a name not registered, [`Error::Device`] when the device cannot start.
    pub fn create(&self, name: &str, options: &DeviceOptions) -> Result<Box<dyn Device>, Error> {
        let entry = self.lookup(name).ok_or_else(|| Error::UnknownDevice {
            name: name.to_string(),
            known: self.names().iter().map(|n| n.to_string()).collect(),
        })?;
        (entry.constructor)(options).map_err(|e| Error::Device(format!("device '{name}': {e}")))
    }

    pub fn lookup(&self, name: &str) -> Option<&DeviceEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.lookup(name).is_some()
    }

    /// The registered names, in registration order.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// The names of the devices that can stop a running launch (that take a deadline), in
    /// registration order.
    pub fn cancellable(&self) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|e| e.supports_cancel)
            .map(|e| e.name.as_str())
            .collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &DeviceEntry> {
        self.entries.iter()
    }
}
