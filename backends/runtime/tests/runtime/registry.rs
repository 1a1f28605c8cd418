//! The device registry: names to constructors, in registration order; an unknown name lists the
//! known ones; a constructor's failure names the device.

use super::mock::{Log, Mock};
use qd_runtime::{Device, DeviceOptions, DeviceRegistry, Error};
use std::cell::RefCell;
use std::rc::Rc;

fn mock(_: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    Ok(Box::new(Mock::new(Rc::new(RefCell::new(Log::default())))))
}

/// Starts only with a shuffle seed (a device that needs an option to start).
fn picky(o: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    match o.shuffle_seed {
        Some(_) => mock(o),
        None => Err("needs a shuffle seed".into()),
    }
}

fn never(_: &DeviceOptions) -> Result<Box<dyn Device>, String> {
    Err("no such hardware here".into())
}

#[test]
fn devices_are_found_by_name_in_registration_order() {
    let mut reg = DeviceRegistry::new();
    assert!(reg.names().is_empty());
    reg.register("mock", "records calls", mock);
    reg.register("picky", "needs a seed", picky);
    assert_eq!(reg.names(), ["mock", "picky"]);
    assert!(reg.contains("mock") && !reg.contains("Mock"));
    assert_eq!(reg.lookup("picky").unwrap().description, "needs a seed");
    let dev = reg.create("mock", &DeviceOptions::default()).unwrap();
    assert_eq!(dev.name(), "mock");
    // A second registration replaces the first in its place.
    reg.register("mock", "records calls again", never);
    assert_eq!(reg.names(), ["mock", "picky"]);
    assert_eq!(
        reg.lookup("mock").unwrap().description,
        "records calls again"
    );
    let e = reg.create("mock", &DeviceOptions::default()).err().unwrap();
    assert_eq!(
        e,
        Error::Device("device 'mock': no such hardware here".into())
    );
}

#[test]
fn options_reach_the_constructor() {
    let mut reg = DeviceRegistry::new();
    reg.register("picky", "needs a seed", picky);
    let none = reg
        .create("picky", &DeviceOptions::default())
        .err()
        .unwrap();
    assert_eq!(none.to_string(), "device 'picky': needs a shuffle seed");
    let seeded = DeviceOptions {
        shuffle_seed: Some(3),
        ..Default::default()
    };
    assert!(reg.create("picky", &seeded).is_ok());
}

#[test]
fn an_unknown_name_lists_the_known_devices() {
    let mut reg = DeviceRegistry::new();
    let e = reg.create("gpu", &DeviceOptions::default()).err().unwrap();
    assert_eq!(e.to_string(), "unknown device 'gpu' (devices: none)");
    reg.register("mock", "records calls", mock);
    reg.register("picky", "needs a seed", picky);
    let e = reg.create("gpu", &DeviceOptions::default()).err().unwrap();
    assert_eq!(
        e,
        Error::UnknownDevice {
            name: "gpu".into(),
            known: vec!["mock".into(), "picky".into()],
        }
    );
    assert_eq!(e.to_string(), "unknown device 'gpu' (devices: mock, picky)");
}

#[test]
fn the_devices_that_take_a_deadline_are_those_declared_cancellable() {
    let mut reg = DeviceRegistry::new();
    reg.register("mock", "records calls", mock).cancellable();
    reg.register("picky", "needs a seed", picky);
    reg.register("never", "cannot start", never).cancellable();
    assert_eq!(reg.cancellable(), ["mock", "never"]);
    assert!(!reg.lookup("picky").unwrap().supports_cancel);
    // A second registration declares afresh.
    reg.register("mock", "records calls again", mock);
    assert_eq!(reg.cancellable(), ["never"]);
}
