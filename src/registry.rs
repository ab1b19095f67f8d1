//! Registry of discovered extension handlers (work in progress).
