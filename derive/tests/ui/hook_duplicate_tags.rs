use capi_runtime::Hook;

#[derive(Hook)]
#[hook(group = "ui.example.com", version = "v1", request = Req, response = Resp, tags("a"), tags("b"))]
pub struct Greet;

fn main() {}
