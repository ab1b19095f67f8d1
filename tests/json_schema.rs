//! Embedding the API types in a kube-derive CRD (written next).
