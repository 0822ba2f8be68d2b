//! Minimal `--key value` argument parsing for the example binaries.
use std::collections::HashMap;

/// Parsed `--key value` pairs and bare `--flag`s.
pub struct Args {
    values: HashMap<String, String>,
}

impl Args {
    /// Parse `std::env::args()`; `--help` prints `usage` and exits.
    pub fn parse(usage: &str) -> Self {
        let mut values = HashMap::new();
        let mut it = std::env::args().skip(1).peekable();
        while let Some(a) = it.next() {
            if a == "--help" || a == "-h" {
                println!("{usage}");
                std::process::exit(0);
            }
            let Some(key) = a.strip_prefix("--") else {
                eprintln!("unexpected argument {a:?}\n{usage}");
                std::process::exit(2);
            };
            let (k, v) = match key.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => match it.peek() {
                    Some(v) if !v.starts_with("--") => (key.to_string(), it.next().unwrap()),
                    _ => (key.to_string(), "true".to_string()),
                },
            };
            values.insert(k, v);
        }
        Self { values }
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(|s| s.as_str())
    }

    /// A number, or `default`; exits with a message when it does not parse.
    pub fn num<T: std::str::FromStr>(&self, key: &str, default: T) -> T {
        match self.values.get(key) {
            None => default,
            Some(v) => v.parse().unwrap_or_else(|_| {
                eprintln!("--{key}: cannot parse {v:?}");
                std::process::exit(2)
            }),
        }
    }

    pub fn flag(&self, key: &str) -> bool {
        self.values.get(key).is_some_and(|v| v != "false")
    }
}

/// The device named by `--device` (cuda, cuda:N, wgpu, cpu), else the default one (CUDA when
/// linked and present, else the CPU runtime). Exits with the reason when none is available.
pub fn device(args: &Args) -> cubecl::Device {
    let r = match args.get("device") {
        Some(name) => linalg_common::device::named_device(name),
        None => linalg_common::device::default_device(),
    };
    r.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    })
}
