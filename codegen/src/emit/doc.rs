//! Doc comments to description text.

use std::borrow::Cow;

/// Formats doc lines the way Kubernetes' openapi-gen formats Go comments: lines of a paragraph
/// are joined with spaces, paragraphs are separated by a blank line, indented lines (lists,
/// code) keep their own line, and everything after a `---` line is dropped. Rustdoc link
/// brackets around code spans are removed, since the text is read outside rustdoc.
pub fn openapi(lines: &[String]) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        if line.trim() == "---" {
            break;
        }
        let line = strip_links(line);
        if line.trim().is_empty() {
            if !out.is_empty() && !out.ends_with("\n\n") {
                while out.ends_with('\n') {
                    out.pop();
                }
                out.push_str("\n\n");
            }
        } else if line.starts_with([' ', '\t']) {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&line);
            out.push('\n');
        } else {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push(' ');
            }
            out.push_str(line.trim());
        }
    }
    trim_in_place(&mut out);
    out
}

/// Removes the white space at both ends of `s` without a new allocation.
pub fn trim_in_place(s: &mut String) {
    s.truncate(s.trim_end().len());
    let lead = s.len() - s.trim_start().len();
    s.drain(..lead);
}

/// Formats doc lines the way controller-gen formats CRD descriptions: line breaks are kept,
/// everything after a `---` line is dropped, and outer blank lines are trimmed.
pub fn crd(lines: &[String]) -> String {
    let mut out = Vec::new();
    for line in lines {
        if line.trim() == "---" {
            break;
        }
        out.push(strip_links(line));
    }
    out.join("\n").trim().to_string()
}

/// `` [`Foo`] `` → `` `Foo` ``, `[text](target)` with a Rust path target → `text`.
fn strip_links(line: &str) -> Cow<'_, str> {
    if !line.contains('[') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('[') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let Some(end) = after.find(']') else {
            out.push_str(&rest[start..]);
            return Cow::Owned(out);
        };
        let text = &after[..end];
        let tail = &after[end + 1..];
        if let Some(target) = tail.strip_prefix('(').and_then(|t| t.split_once(')')) {
            if target.0.contains("://") || target.0.starts_with('#') {
                out.push_str(&rest[start..start + 1 + end + 1 + target.0.len() + 2]);
            } else {
                out.push_str(text);
            }
            rest = target.1;
        } else if text.starts_with('`') && text.ends_with('`') && text.len() > 1 {
            out.push_str(text);
            rest = tail;
        } else {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn openapi_joins_paragraphs_and_keeps_indented_lines() {
        let doc = lines(
            "First line\ncontinues.\n\nSecond [`Cluster`] para.\n  - item one\n  - item two\nafter\n---\nhidden",
        );
        assert_eq!(
            openapi(&doc),
            "First line continues.\n\nSecond `Cluster` para.\n  - item one\n  - item two\nafter"
        );
    }

    #[test]
    fn crd_keeps_line_breaks() {
        let doc = lines("a\nb\n\nc [link](crate::x) [web](https://x.io)");
        assert_eq!(crd(&doc), "a\nb\n\nc link [web](https://x.io)");
    }
}
