use capi_runtime::Hook;

#[derive(Hook)]
#[hook(group = "ui.example.com", version = "v1", request = Req, response = Resp)]
pub struct Greet<const N: usize>;

fn main() {}
