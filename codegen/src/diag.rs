//! Error collection shared by every frontend.
//!
//! Parsers and checks push spanned errors and keep going, so one run reports every mistake at
//! once; each stage ends with [`Diagnostics::check`]. The derive turns the errors into
//! `compile_error!` invocations; the CLI renders each one as `path:line:col: message`.

use std::cell::RefCell;
use std::fmt::{self, Display};

use proc_macro2::Span;

/// Index of an input file in the list given to the CLI frontend.
pub type FileId = usize;

/// One error: where it is and what it says.
#[derive(Clone, Debug)]
pub struct Diag {
    /// The file the span belongs to; `None` in the derive, where there is no file.
    pub file: Option<FileId>,
    /// The error with its span.
    pub error: syn::Error,
}

/// An accumulator of spanned errors, in the style of serde's `Ctxt`: stages push and go on,
/// and [`Diagnostics::check`] closes the stage.
#[derive(Default)]
pub struct Diagnostics {
    errors: RefCell<Vec<Diag>>,
}

impl Diagnostics {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records an error at `span` in `file`.
    pub fn error(&self, file: Option<FileId>, span: Span, msg: impl Display) {
        self.push(file, syn::Error::new(span, msg));
    }

    /// Records an error built elsewhere (for example one returned by syn or serde's parser).
    /// An error that combines several is split, so each keeps its own position.
    pub fn push(&self, file: Option<FileId>, err: syn::Error) {
        let mut errors = self.errors.borrow_mut();
        for error in err {
            errors.push(Diag { file, error });
        }
    }

    /// True when at least one error was recorded.
    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// Ends a stage: `Err` with every recorded error, or `Ok` when there was none.
    pub fn check(self) -> Result<(), Errors> {
        let errors = self.errors.take();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Errors(errors))
        }
    }
}

/// The errors of a failed stage.
#[derive(Clone, Debug)]
pub struct Errors(pub Vec<Diag>);

impl Errors {
    /// One error at `span`, outside any file.
    pub fn new(span: Span, msg: impl Display) -> Self {
        Errors(vec![Diag {
            file: None,
            error: syn::Error::new(span, msg),
        }])
    }

    /// Every error as one `syn::Error`, for `compile_error!` output in the derive.
    pub fn to_syn_error(&self) -> syn::Error {
        let mut iter = self.0.iter().map(|d| d.error.clone());
        let mut first = iter.next().expect("Errors is never empty");
        for e in iter {
            first.combine(e);
        }
        first
    }

    /// Renders every error as `path:line:col: message`, one per line, sorted by position.
    ///
    /// `paths` maps a [`FileId`] to the name printed; errors without a file use `fallback`.
    /// Lines and columns are 1-based; they are meaningful for spans made by parsing text
    /// (proc-macro2's `span-locations`), which is what the CLI does.
    pub fn render(&self, paths: &[&str], fallback: &str) -> String {
        let mut items: Vec<(String, usize, usize, String)> = self
            .0
            .iter()
            .map(|d| {
                let path = d
                    .file
                    .and_then(|f| paths.get(f).copied())
                    .unwrap_or(fallback)
                    .to_string();
                let start = d.error.span().start();
                (path, start.line, start.column + 1, d.error.to_string())
            })
            .collect();
        items.sort();
        items.dedup();
        items
            .into_iter()
            .map(|(p, l, c, m)| format!("{p}:{l}:{c}: {m}\n"))
            .collect()
    }
}

impl Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", d.error)?;
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}
