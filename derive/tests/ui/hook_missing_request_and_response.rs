use capi_runtime::Hook;

#[derive(Hook)]
#[hook(group = "ui.example.com", version = "v1")]
pub struct Greet;

fn main() {}
