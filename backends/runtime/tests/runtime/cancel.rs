//! Deadlines reach the device through `Device::launch`'s cancel flag: `CancelFlag::never` without
//! one, the program's watchdog flag with one; a device that cannot stop a launch refuses them.

use super::mock::{parse, Log, Mock};
use qd_runtime::{Error, Program, ProgramConfig};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

const SRC: &str = "module {\n  qd.kernel @k() {\n  }\n}\n";

fn program(cancellable: bool) -> (Program, Rc<RefCell<Log>>) {
    let (ctx, m) = parse(SRC);
    let log = Rc::new(RefCell::new(Log::default()));
    let mut dev = Mock::new(log.clone());
    dev.cancellable = cancellable;
    let p = Program::new(ctx, m, Box::new(dev), ProgramConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    (p, log)
}

#[test]
fn a_launch_gets_a_live_flag_only_with_a_deadline() {
    let (mut p, log) = program(true);
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    p.set_launch_timeout(Some(Duration::from_secs(60))).unwrap();
    p.launch(k, &[]).unwrap();
    p.set_launch_timeout(None).unwrap();
    p.set_deadline(Some(Instant::now() + Duration::from_secs(60)))
        .unwrap();
    p.launch(k, &[]).unwrap();
    p.set_deadline(None).unwrap();
    p.launch(k, &[]).unwrap();
    p.sync().unwrap();
    assert_eq!(log.borrow().deadlines, vec![false, true, true, false]);
}

#[test]
fn a_device_that_cannot_stop_a_launch_refuses_deadlines() {
    let (mut p, log) = program(false);
    for e in [
        p.set_launch_timeout(Some(Duration::from_secs(1))),
        p.set_deadline(Some(Instant::now())),
    ] {
        let Err(Error::Device(msg)) = e else {
            panic!("{e:?}")
        };
        assert_eq!(
            msg,
            "device 'mock' cannot stop a running launch: it takes no deadline or timeout"
        );
    }
    // Clearing them is always fine, and launches run without a flag.
    p.set_launch_timeout(None).unwrap();
    p.set_deadline(None).unwrap();
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    p.sync().unwrap();
    assert_eq!(log.borrow().deadlines, vec![false]);
}
