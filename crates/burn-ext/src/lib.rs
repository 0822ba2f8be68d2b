//! Burn ops over the QR and Cholesky kernels (torch.linalg names and semantics), with Fusion,
//! Autodiff and a host fallback. Nothing is implemented yet: this crate holds its place in the
//! workspace so the layout and CI are settled before the ops land (issue 5).
