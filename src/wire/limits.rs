//! What one decoding may use: memory, nesting, time, and a budget shared with the decodings
//! running beside it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The default memory budget of one decoded message: 256 MiB.
pub const DEFAULT_MEMORY_BUDGET: usize = 256 << 20;

/// The default nesting limit of a message.
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// What one decoding may use.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Limits {
    /// Bytes the decoded value may take, as the decoder charges them (see the module docs).
    pub memory_budget: usize,
    /// How deeply arrays and objects may nest.
    pub max_depth: usize,
    /// When decoding must give up.
    pub deadline: Option<Instant>,
    /// A budget shared with other decodings (of one server, or one client) that this one's
    /// charges are also taken from; what it took is held by
    /// [`Decoded::hold`](super::Decoded::hold).
    pub shared: Option<SharedBudget>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_budget: DEFAULT_MEMORY_BUDGET,
            max_depth: DEFAULT_MAX_DEPTH,
            deadline: None,
            shared: None,
        }
    }
}

impl Limits {
    /// The default limits with another memory budget.
    pub fn with_memory_budget(mut self, bytes: usize) -> Self {
        self.memory_budget = bytes;
        self
    }

    /// The default limits with another nesting limit. The decoder takes its stack from the
    /// heap past what the thread has, up to about 15 KiB per level unoptimized (5 KiB
    /// optimized), so the limit is what bounds that memory.
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// The limits with a deadline.
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The limits with charges also taken from `shared`.
    pub fn with_shared_budget(mut self, shared: SharedBudget) -> Self {
        self.shared = Some(shared);
        self
    }
}

/// A memory budget shared by the decodings of one server (or one client), so that many
/// messages decoding at once stay within it together, not just each within its own
/// [`Limits::memory_budget`]. A decoding takes what it charges from it in steps of
/// [`SharedBudget::STEP`] and is refused
/// ([`DecodeErrorKind::OverBudget`](super::DecodeErrorKind::OverBudget)) at once, without
/// waiting, when the budget is used up; what it took is given back when its [`BudgetHold`]
/// is dropped (the server drops it when the request's work is over). Cloning shares it.
#[derive(Clone, Debug)]
pub struct SharedBudget(Arc<SharedInner>);

#[derive(Debug)]
struct SharedInner {
    capacity: usize,
    used: AtomicUsize,
}

impl SharedBudget {
    /// How much a decoding takes from the shared budget at a time: 1 MiB.
    pub const STEP: usize = 1 << 20;

    /// A budget of `bytes`.
    pub fn new(bytes: usize) -> Self {
        SharedBudget(Arc::new(SharedInner {
            capacity: bytes,
            used: AtomicUsize::new(0),
        }))
    }

    /// The bytes it holds in all.
    pub fn capacity(&self) -> usize {
        self.0.capacity
    }

    /// The bytes taken by decodings now.
    pub fn in_use(&self) -> usize {
        self.0.used.load(Ordering::Acquire)
    }

    /// Takes `bytes` if that many are free.
    pub(super) fn try_take(&self, bytes: usize) -> bool {
        self.0
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes)
                    .filter(|&after| after <= self.0.capacity)
            })
            .is_ok()
    }

    pub(super) fn give_back(&self, bytes: usize) {
        self.0.used.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// What a decoded message holds of a [`SharedBudget`]; given back when dropped. Empty when
/// the decoding had no shared budget.
#[derive(Debug, Default)]
pub struct BudgetHold {
    budget: Option<SharedBudget>,
    bytes: usize,
}

impl BudgetHold {
    pub(super) fn new(budget: Option<SharedBudget>, bytes: usize) -> Self {
        BudgetHold { budget, bytes }
    }

    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for BudgetHold {
    fn drop(&mut self) {
        if let Some(budget) = self.budget.take() {
            budget.give_back(self.bytes);
        }
    }
}
