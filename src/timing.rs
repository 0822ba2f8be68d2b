//! Timing for the benchmarks: device time from the runtime's profiler (CUDA events on CUDA),
//! wall time around a synchronised batch of calls; medians over samples.
use cubecl::client::Client;
use std::time::Instant;

pub fn sync(client: &Client) {
    cubecl::future::block_on(client.sync()).expect("device sync");
}

/// One measurement of `calls` back-to-back calls of `f`.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Device time per call (profiler window), seconds; None where the runtime gives none.
    pub device: Option<f64>,
    /// Wall time per call between two synchronisations, seconds.
    pub wall: f64,
}

/// Run `f` `calls` times inside one profiler window and one synchronised wall-clock window.
pub fn sample(client: &Client, calls: usize, mut f: impl FnMut()) -> Sample {
    sync(client);
    let window = client.profile_start().ok();
    let t0 = Instant::now();
    for _ in 0..calls {
        f();
    }
    let device = window
        .and_then(|w| client.profile_end(w).ok())
        .and_then(|d| {
            cubecl::future::block_on(d.resolve()).map(|t| t.duration().as_secs_f64() / calls as f64)
        });
    sync(client);
    let wall = t0.elapsed().as_secs_f64() / calls as f64;
    Sample { device, wall }
}

/// Median of a non-empty list.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Warm up (JIT), pick a call count so one sample lasts about `target_s`, then take `samples`
/// samples. Returns (median device time, median wall time) per call, in seconds.
pub fn measure(
    client: &Client,
    samples: usize,
    target_s: f64,
    mut f: impl FnMut(),
) -> (Option<f64>, f64) {
    for _ in 0..2 {
        f();
    }
    let probe = sample(client, 1, &mut f);
    let per = probe.device.unwrap_or(probe.wall).max(1e-7);
    let calls = ((target_s / per).ceil() as usize).clamp(1, 200);
    let mut dev = Vec::new();
    let mut wall = Vec::new();
    for _ in 0..samples {
        let s = sample(client, calls, &mut f);
        if let Some(d) = s.device {
            dev.push(d);
        }
        wall.push(s.wall);
    }
    let dev = (!dev.is_empty()).then(|| median(dev));
    (dev, median(wall))
}
