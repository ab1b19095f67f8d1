//! apimachinery's name rules (`k8s.io/apimachinery/pkg/util/validation`). Each check returns
//! what is wrong with the value in apimachinery's own words (the messages of its
//! `IsDNS1123Label`, `IsQualifiedName`, ...); an empty list means valid.

/// The maximum length of a DNS-1123 label.
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// The maximum length of a DNS-1123 subdomain.
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
/// The maximum length of a DNS-1035 label.
pub const DNS1035_LABEL_MAX_LENGTH: usize = 63;
/// The maximum length of a label value, and of the name part of a qualified name.
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;

/// `validation.MaxLenError`, the wording of the DNS rules.
fn max_len(limit: usize) -> String {
    format!("must be no more than {limit} characters")
}

/// `content.MaxLenError`, the wording of the label rules (apimachinery's newer `content`
/// package, which its label checks moved to, counts bytes and says so).
fn max_bytes(limit: usize) -> String {
    format!("must be no more than {limit} bytes")
}

/// The subdomain check of a label key's prefix (`content.IsDNS1123Subdomain`).
fn content_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = dns1123_subdomain(value);
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errors[0] = max_bytes(DNS1123_SUBDOMAIN_MAX_LENGTH);
    }
    errors
}

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn is_dns1123_label_shape(s: &[u8]) -> bool {
    s.first().is_some_and(|c| lower_alnum(*c))
        && s.last().is_some_and(|c| lower_alnum(*c))
        && s.iter().all(|c| lower_alnum(*c) || *c == b'-')
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, the shape of label values and names.
fn is_label_name_shape(s: &[u8]) -> bool {
    s.first().is_some_and(u8::is_ascii_alphanumeric)
        && s.last().is_some_and(u8::is_ascii_alphanumeric)
        && s.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// What makes `value` not a DNS-1123 label (lower-case alphanumerics and `-`, alphanumeric at
/// both ends, at most 63 characters): the rule for handler names and ExtensionConfig names.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errors.push(max_len(DNS1123_LABEL_MAX_LENGTH));
    }
    if !is_dns1123_label_shape(value.as_bytes()) {
        if is_dns1123_subdomain_shape(value) {
            // A subdomain but not a label, whatever its length: it has dots.
            errors.push("must not contain dots".to_string());
        } else {
            errors.push(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters \
                 or '-', and must start and end with an alphanumeric character (e.g. \
                 'my-name',  or '123-abc', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
                    .to_string(),
            );
        }
    }
    errors
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`
fn is_dns1123_subdomain_shape(value: &str) -> bool {
    value
        .split('.')
        .all(|part| is_dns1123_label_shape(part.as_bytes()))
}

/// What makes `value` not a DNS-1123 subdomain (dot-separated DNS-1123 labels, at most 253
/// characters).
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errors.push(max_len(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !is_dns1123_subdomain_shape(value) {
        errors.push(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \
             '-' or '.', and must start and end with an alphanumeric character (e.g. \
             'example.com', regex used for validation is \
             '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
                .to_string(),
        );
    }
    errors
}

/// What makes `value` not a DNS-1035 label (like a DNS-1123 label, but starting with a
/// letter): the rule for Service names.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1035_LABEL_MAX_LENGTH {
        errors.push(max_len(DNS1035_LABEL_MAX_LENGTH));
    }
    let b = value.as_bytes();
    if !(is_dns1123_label_shape(b) && b[0].is_ascii_lowercase()) {
        errors.push(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start \
             with an alphabetic character, and end with an alphanumeric character (e.g. \
             'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
                .to_string(),
        );
    }
    errors
}

/// What makes `value` not a qualified name, the form of label keys (apimachinery's
/// `IsQualifiedName`, the same function as its `content.IsLabelKey`, whence its wording): an optional DNS-1123
/// subdomain prefix and `/`, then a name of at most 63 alphanumerics, `-`, `_` and `.`,
/// alphanumeric at both ends.
pub fn qualified_name(value: &str) -> Vec<String> {
    const NAME_SHAPE: &str = "must consist of alphanumeric characters, '-', '_' or '.', and \
        must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
        '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let mut errors = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".to_string());
            } else {
                errors.extend(
                    content_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        _ => {
            errors.push(format!(
                "a valid label key {NAME_SHAPE} with an optional DNS subdomain prefix and '/' \
                 (e.g. 'example.com/MyName')"
            ));
            return errors;
        }
    };
    if name.is_empty() {
        errors.push("name part must be non-empty".to_string());
    } else if name.len() > LABEL_VALUE_MAX_LENGTH {
        errors.push(format!("name part {}", max_bytes(LABEL_VALUE_MAX_LENGTH)));
    }
    if !is_label_name_shape(name.as_bytes()) {
        errors.push(format!("name part {NAME_SHAPE}"));
    }
    errors
}

/// What makes `value` not a label value: empty, or at most 63 alphanumerics, `-`, `_` and
/// `.`, alphanumeric at both ends.
pub fn label_value(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errors.push(max_bytes(LABEL_VALUE_MAX_LENGTH));
    }
    if !value.is_empty() && !is_label_name_shape(value.as_bytes()) {
        errors.push(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', \
             '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  \
             or 'my_value',  or '12345', regex used for validation is \
             '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
                .to_string(),
        );
    }
    errors
}

/// What makes `port` not a port number (`IsValidPortNum`: 1 to 65535).
pub fn port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec!["must be between 1 and 65535, inclusive".to_string()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns1123_labels() {
        for ok in ["a", "a-1", "1x", &"a".repeat(63)] {
            assert!(dns1123_label(ok).is_empty(), "{ok}");
        }
        for bad in ["", "A", "a.b", "-a", "a-", "a_b", &"a".repeat(64)] {
            assert!(!dns1123_label(bad).is_empty(), "{bad}");
        }
        assert_eq!(dns1123_label(&"a".repeat(64)), [max_len(63)]);
    }

    #[test]
    fn dns1123_subdomains() {
        for ok in [
            "a",
            "example.com",
            "a-1.b-2",
            "a.".repeat(126).trim_end_matches('.'),
        ] {
            assert!(dns1123_subdomain(ok).is_empty(), "{ok}");
        }
        for bad in ["", "a..b", ".a", "a.", "A.b", "a_b.c", &"a".repeat(254)] {
            assert!(!dns1123_subdomain(bad).is_empty(), "{bad}");
        }
    }

    #[test]
    fn dns1035_labels() {
        assert!(dns1035_label("svc-1").is_empty());
        for bad in ["", "1svc", "-a", "a-", "A", "a.b", &"a".repeat(64)] {
            assert!(!dns1035_label(bad).is_empty(), "{bad}");
        }
    }

    #[test]
    fn qualified_names() {
        for ok in [
            "env",
            "Env.Name_1",
            "example.com/env",
            "a/b",
            &"a".repeat(63),
        ] {
            assert!(qualified_name(ok).is_empty(), "{ok}");
        }
        for bad in [
            "",
            "/env",
            "a/b/c",
            "Bad_Prefix/name",
            "-leading",
            "trailing-",
            "x/",
            &"a".repeat(64),
            "not valid",
        ] {
            assert!(!qualified_name(bad).is_empty(), "{bad}");
        }
        // An empty name also fails the shape, as in Go (its regex needs a character).
        let empty_name = qualified_name("example.com/");
        assert_eq!(empty_name.len(), 2);
        assert_eq!(empty_name[0], "name part must be non-empty");
        assert!(qualified_name("EXAMPLE.com/x")[0].starts_with("prefix part a lowercase"));
    }

    #[test]
    fn label_values() {
        for ok in ["", "a", "a.b_c-d", "MyValue", &"a".repeat(63)] {
            assert!(label_value(ok).is_empty(), "{ok}");
        }
        for bad in ["-bad", "bad-", "not valid", "a/b", &"a".repeat(64)] {
            assert!(!label_value(bad).is_empty(), "{bad}");
        }
    }
}
