//! Handler names: `<handler>.<extensionconfig>`, both parts DNS-1123 labels.

/// Why a full handler name cannot be split.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "registered handler name {0} was not in the expected format (`HANDLER_NAME.EXTENSION_NAME)"
)]
pub struct HandlerNameError(pub String);

/// The full name of a discovered handler: `<handler>.<extensionconfig>`.
pub fn name_for_handler(handler: &str, extension_config: &str) -> String {
    format!("{handler}.{extension_config}")
}

/// The ExtensionConfig part of a full handler name (`discover-variables.runtime1` gives
/// `runtime1`). Names with more or fewer than one dot are refused.
pub fn extension_name_from_handler_name(full: &str) -> Result<&str, HandlerNameError> {
    match full.split('.').collect::<Vec<_>>().as_slice() {
        [_, extension] => Ok(extension),
        _ => Err(HandlerNameError(full.to_string())),
    }
}

/// The maximum length of a DNS-1123 label.
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;

/// What is wrong with a name that is not a DNS-1123 label, in Kubernetes' words; empty when
/// the name is valid.
pub fn dns1123_label_errors(name: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if name.len() > DNS1123_LABEL_MAX_LENGTH {
        errors.push(format!(
            "must be no more than {DNS1123_LABEL_MAX_LENGTH} characters"
        ));
    }
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let b = name.as_bytes();
    let shape_ok = b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && b.iter().all(|c| alnum(c) || *c == b'-');
    if !shape_ok {
        errors.push(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \
             '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or \
             '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
                .to_string(),
        );
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let full = name_for_handler("discover-variables", "runtime1");
        assert_eq!(full, "discover-variables.runtime1");
        assert_eq!(extension_name_from_handler_name(&full), Ok("runtime1"));
        assert!(extension_name_from_handler_name("discover-variables.runtime.1").is_err());
        assert!(extension_name_from_handler_name("no-dot").is_err());
    }

    #[test]
    fn labels_are_checked() {
        assert!(dns1123_label_errors("a-1").is_empty());
        assert!(dns1123_label_errors(&"a".repeat(63)).is_empty());
        for bad in ["", "A", "a.b", "-a", "a-", "a_b", &"a".repeat(64)] {
            assert!(!dns1123_label_errors(bad).is_empty(), "{bad}");
        }
    }
}
