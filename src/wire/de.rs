//! The decoder: a `serde::Deserializer` over the body's bytes that reads JSON the way Go's
//! `encoding/json` reads it into a typed value (see the table in the module above). This file
//! holds its state; the other files of the module each own one part of its work:
//!
//! - `scan.rs`: the syntax (white space, literals, strings and escapes, numbers, skipping and
//!   indexing values), with Go's error messages;
//! - `budget.rs`: memory charges, the shared budget, the nesting limit, the deadline, and the
//!   stack;
//! - `next.rs`: what the next value is, from the shapes `#[derive(Schema)]` records;
//! - `go_types.rs`: how Go reads its own types (times, byte strings, raw values, numbers, map
//!   keys, a response's status, the zero values of fields a type requires);
//! - `deserializer.rs`: serde's entry points, each a dispatch to the above;
//! - `access.rs`: arrays, maps and enums handed to the visitors;
//! - `fast.rs` and `careful.rs`: struct objects in each of the two modes.
//!
//! The decoder tokenizes the input itself and hands values straight to the types'
//! `Deserialize` implementations, so no tree of the message is ever built. Two things need
//! more than one token of look-ahead: a struct key that repeats (Go applies every occurrence in
//! turn, so the last one decides) and the byte offsets of values. The decoder therefore runs in
//! one of two modes. The fast mode streams and refuses nothing Go accepts, except that a struct
//! field seen twice abandons the pass; the whole message is then decoded again in the careful
//! mode, where each struct object is first scanned for its keys (values are skipped, not
//! decoded), and every field is decoded once from its occurrences with Go's rules for that
//! type. So that a value nested in many structs is not skipped once per enclosing struct (which
//! made the careful mode O(depth × bytes)), the careful mode starts with one pass over the
//! message that checks its syntax and records where every object and array ends
//! ([`De::index_containers`]); a skip then jumps over a nested object or array at once. Every
//! byte is thereby read at most four times: by the fast pass, the index pass, the key scan of
//! its enclosing struct (keys and scalar values) and its decoding
//! (`scanned_bytes_stay_linear_in_the_careful_mode` counts them). The fast pass asks for the
//! careful one by setting a flag in the decoder's state, which the caller reads whatever the
//! pass returned: the error that unwinds the pass goes through the types' `Deserialize` impls,
//! and one that maps or drops errors must not be able to keep the message from being decoded
//! again. Once the flag is set, the pass fails at the next key or level it reaches.

use std::time::Instant;

use super::limits::SharedBudget;
use super::next::Next;

#[cfg(test)]
thread_local! {
    /// Bytes of tokens read on this thread (strings, numbers, literals, brackets), for the
    /// test that proves the careful mode linear.
    pub(super) static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts `n` bytes of tokens read (tests only).
#[inline(always)]
pub(super) fn scanned(n: usize) {
    #[cfg(test)]
    SCANNED.with(|c| c.set(c.get() + n));
    #[cfg(not(test))]
    let _ = n;
}

/// The decoder's state over one message.
pub(super) struct De<'de> {
    pub(super) input: &'de [u8],
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) max_depth: usize,
    pub(super) charged: usize,
    pub(super) budget: usize,
    pub(super) careful: bool,
    /// Set by the fast pass when a struct key repeats: the pass is abandoned and the message
    /// decoded again in the careful mode. A flag, not an error, so that a `Deserialize` impl
    /// that maps or drops errors cannot hide it.
    pub(super) needs_careful: bool,
    pub(super) scratch: Vec<u8>,
    /// The outermost struct's field that is the response status, read as a plain string.
    pub(super) status_field: Option<&'static str>,
    pub(super) status: String,
    pub(super) deadline: Option<Instant>,
    pub(super) ticks: u32,
    /// The budget shared with other decodings, and how much of it this one holds.
    pub(super) shared: Option<SharedBudget>,
    pub(super) held: usize,
    /// Careful mode: the opening and closing offsets (the closing one past the bracket) of
    /// every object and array of the message, in order of their openings.
    pub(super) ends: Vec<(u32, u32)>,
    /// `ends` is complete: a skip of an object or array jumps to its end.
    pub(super) indexed: bool,
    /// The index pass is under way: skips record the objects and arrays they pass.
    pub(super) recording: bool,
    /// What the value at `pos` is, for Go's rules: set before each value is handed to a
    /// `Deserialize` impl, taken by the entry point that reads it.
    pub(super) next: Next,
}

impl Drop for De<'_> {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            shared.give_back(self.held);
        }
    }
}

impl<'de> De<'de> {
    /// A decoder of `input` that expects a value of the kind `next` at its start.
    pub(super) fn new(
        input: &'de [u8],
        budget: usize,
        max_depth: usize,
        careful: bool,
        next: Next,
    ) -> Self {
        De {
            input,
            pos: 0,
            depth: 0,
            max_depth,
            charged: 0,
            budget,
            careful,
            needs_careful: false,
            scratch: Vec::new(),
            status_field: None,
            status: String::new(),
            deadline: None,
            ticks: 0,
            shared: None,
            held: 0,
            ends: Vec::new(),
            indexed: false,
            recording: false,
            next,
        }
    }

    /// Takes what it charges also from `shared`.
    pub(super) fn with_shared(mut self, shared: Option<SharedBudget>) -> Self {
        self.shared = shared;
        self
    }

    /// What this decoding holds of the shared budget, handed over to the decoded message.
    pub(super) fn take_hold(&mut self) -> super::BudgetHold {
        super::BudgetHold::new(self.shared.clone(), std::mem::take(&mut self.held))
    }

    /// Gives up with a timeout once `deadline` has passed.
    pub(super) fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Reads the outermost struct's field `name` as the raw status instead of decoding it.
    pub(super) fn with_status_field(mut self, name: &'static str) -> Self {
        self.status_field = Some(name);
        self
    }

    /// True when the fast pass found a repeated struct key: whatever it returned, the message
    /// must be decoded again with `careful` set.
    pub(super) fn needs_careful(&self) -> bool {
        self.needs_careful
    }

    /// Bytes charged so far.
    pub(super) fn charged(&self) -> usize {
        self.charged
    }

    /// The status read by [`De::with_status_field`] (empty when absent or null).
    pub(super) fn take_status(&mut self) -> String {
        std::mem::take(&mut self.status)
    }

    /// What the value at `pos` is, as the entry point that reads it takes it.
    #[inline]
    pub(super) fn take_next(&mut self) -> Next {
        std::mem::take(&mut self.next)
    }
}
