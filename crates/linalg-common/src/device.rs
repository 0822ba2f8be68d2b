//! Runtime selection. A binary built with `cuda` on a machine without a CUDA driver must not
//! crash: [`default_device`] asks the driver first and falls back to the CPU runtime, with a
//! message on stderr.
use cubecl::Device;

/// The runtimes this build links, most capable first.
pub fn linked_runtimes() -> Vec<&'static str> {
    let mut v = Vec::new();
    if cfg!(feature = "cuda") {
        v.push("cuda");
    }
    if cfg!(feature = "wgpu") {
        v.push("wgpu");
    }
    if cfg!(feature = "cpu") {
        v.push("cpu");
    }
    v
}

/// A device picked by name (`cuda`, `cuda:N`, `wgpu`, `cpu`), or an error saying why not.
pub fn named_device(name: &str) -> Result<Device, String> {
    let (kind, index) = match name.split_once(':') {
        Some((k, i)) => (
            k,
            i.parse::<usize>()
                .map_err(|e| format!("bad device index {i:?}: {e}"))?,
        ),
        None => (name, 0),
    };
    match kind {
        "cuda" => Device::cuda(index).map_err(|e| format!("cuda: {e}")),
        "cpu" => Device::cpu().map_err(|e| format!("cpu: {e}")),
        "wgpu" => Device::wgpu(Default::default()).map_err(|e| format!("wgpu: {e}")),
        other => Err(format!(
            "unknown device {other:?} (cuda, cuda:N, wgpu, cpu)"
        )),
    }
}

/// CUDA when this build links it and the machine has a CUDA device, else wgpu when linked,
/// else the CPU runtime. Every fallback is reported on stderr.
pub fn default_device() -> Result<Device, String> {
    let mut why = Vec::new();
    for kind in linked_runtimes() {
        match named_device(kind) {
            Ok(d) => {
                if !why.is_empty() {
                    eprintln!("note: {}; using {kind}", why.join("; "));
                }
                return Ok(d);
            }
            Err(e) => why.push(e),
        }
    }
    Err(format!(
        "no runtime available (linked: {:?}): {}; build with --features cpu for the CPU runtime",
        linked_runtimes(),
        why.join("; ")
    ))
}

/// Short runtime name of a device, for logs and benchmark records.
pub fn device_kind(device: &Device) -> &'static str {
    match device {
        Device::Cuda(_) => "cuda",
        Device::Wgpu(_) => "wgpu",
        Device::Cpu(_) => "cpu",
        _ => "other",
    }
}
