//! What a decoding may take: memory (charged as values are produced, also to a budget shared
//! with other decodings), nesting, time, and stack.
//!
//! Memory is charged as values are produced: every sequence element costs twice the size of
//! its Rust value (a `Vec` grows by doubling), every map entry twice the size of its key and
//! value plus, for a map's first entry, a whole B-tree leaf, every string its length, every
//! box that asks to be charged (the newtype `__private::CHARGED_BOX` of `charged_box`: the
//! `Option<Box<JSONSchemaProps>>` fields `items`, `not`, `additionalProperties`) the heap
//! block of its value. A plain `Box<T>` is not seen: serde boxes the value after the decoder
//! has produced it, so a recursive type must box through `charged_box`. Past the budget,
//! decoding stops with [`Kind::OverBudget`].
//!
//! Decoding stops with [`Kind::Timeout`] once the deadline has passed; every loop that can run
//! long (values produced, levels entered, values skipped, keys scanned, escapes read) counts a
//! tick and looks at the clock every [`DEADLINE_TICKS`] ticks.
//!
//! The decoder recurses once per nested object or array, and a level can take a lot of
//! stack (about 15 KiB for a `JSONSchemaProps` in an unoptimized build), more than a 2 MiB
//! tokio thread has for the 128 levels of the default depth limit. Each descent therefore
//! goes through [`grow`], which continues on a new stack segment taken from the heap when
//! the thread's stack runs short, so decoding needs no particular stack size on the calling
//! thread. The depth limit is still what bounds it: at most `max_depth` levels are live at
//! once, so the segments in use at any time hold at most `max_depth` levels (plus one red
//! zone per segment), about 2 MiB unoptimized at the default limit, and all are freed when
//! the levels return. Dropping a decoded value is recursive too but takes far less per
//! level (2,000 levels of schemas drop on a 256 KiB stack unoptimized).

use std::time::Instant;

use super::de::De;
use super::error::{DecodeErrorKind as Kind, Error, Result};
use super::limits::SharedBudget;

/// The newtype name of a box that asks to be charged (`__private::CHARGED_BOX`, which this
/// module may not name; a unit test checks that the two are equal). Asked for it, the decoder
/// hands the visitor a `ChargedBox`, which charges the value before decoding it.
pub(super) const CHARGED_BOX: &str = "$capi_runtime::__private::Charged";

/// Entries of a B-tree leaf: what a map's first entry allocates.
pub(super) const BTREE_LEAF: usize = 11;

/// How many ticks (values, levels, skips, keys, escapes) pass between two looks at the
/// deadline: a look costs a clock read (some tens of nanoseconds), the ticks between two looks
/// well under a millisecond.
const DEADLINE_TICKS: u32 = 4096;

/// Stack that must be left before the decoder descends one level without switching stacks.
///
/// One level of the costliest shape, a `JSONSchemaProps` under `not` in the careful mode,
/// takes about 15 KiB of stack in an unoptimized build (11 KiB in the fast mode; optimized,
/// 4–5 KiB). Measured by recording the lowest `stacker::remaining_stack()` seen at the
/// descents while decoding schemas nested 20 and 123 deep on an 8 MiB thread, without
/// growing: the two differed by 1.50 MiB careful, 1.11 MiB fast, over the 103 levels
/// between. The red zone holds four such levels, so a
/// level, and what it calls at the bottom (string scans, error messages), always fits.
const RED_ZONE: usize = 64 << 10;

/// The stack segment allocated (on the heap, with a guard page) when less than
/// [`RED_ZONE`] is left: about 60 levels of the costliest shape unoptimized, 200 optimized.
const STACK_SEGMENT: usize = 1 << 20;

/// Runs `f`, which decodes or skips one nested object or array, on the current stack if at
/// least [`RED_ZONE`] of it is left, else on a new [`STACK_SEGMENT`] that is freed when `f`
/// returns. The check reads the stack pointer and a thread-local limit, once per level.
#[inline(always)]
pub(super) fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, f)
}

/// What a heap block of `len` bytes takes with the allocator's header and rounding (glibc:
/// 8 bytes of header, 16-byte granules, 32 bytes at least).
pub(super) fn heap_size(len: usize) -> usize {
    if len == 0 {
        0
    } else {
        (len + 8).next_multiple_of(16).max(32)
    }
}

impl De<'_> {
    /// Fails when the deadline has passed.
    pub(super) fn check_deadline(&self) -> Result<()> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(Error::new(
                Kind::Timeout,
                "the deadline passed while decoding",
                Some(self.pos),
            )),
            _ => Ok(()),
        }
    }

    /// Counts one step of a loop and looks at the deadline every [`DEADLINE_TICKS`] steps.
    #[inline]
    pub(super) fn tick(&mut self) -> Result<()> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(DEADLINE_TICKS) {
            self.check_deadline()?;
        }
        Ok(())
    }

    pub(super) fn charge(&mut self, bytes: usize) -> Result<()> {
        self.tick()?;
        self.charged = self.charged.saturating_add(bytes);
        if self.charged > self.budget {
            return Err(Error::new(
                Kind::OverBudget,
                format!(
                    "the message decodes to more than the memory budget of {} bytes",
                    self.budget
                ),
                Some(self.pos),
            ));
        }
        if self.charged > self.held
            && let Some(shared) = &self.shared
        {
            let step = (self.charged - self.held).max(SharedBudget::STEP);
            if !shared.try_take(step) {
                return Err(Error::new(
                    Kind::OverBudget,
                    format!(
                        "the messages being decoded and handled at once hold the shared memory \
                         budget of {} bytes",
                        shared.capacity()
                    ),
                    Some(self.pos),
                ));
            }
            self.held += step;
        }
        Ok(())
    }

    pub(super) fn enter(&mut self) -> Result<()> {
        // A pass that is to be run again stops at the next level, even if a `Deserialize`
        // impl swallowed the error that was to end it.
        if self.needs_careful {
            return Err(Error::abandoned());
        }
        self.tick()?;
        super::de::scanned(1);
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(Error::new(
                Kind::TooDeep,
                format!("exceeded max depth of {}", self.max_depth),
                Some(self.pos),
            ));
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Decodes one nested object or array with `f`, a level deeper (refused past the nesting
    /// limit) and on a stack with room for the level ([`grow`]).
    #[inline(always)]
    pub(super) fn level<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        self.enter()?;
        let value = grow(|| f(self))?;
        self.leave();
        Ok(value)
    }
}
