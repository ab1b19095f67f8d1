use capi_runtime::Hook;

#[derive(Hook)]
#[hook(group = "", version = "v1", request = Req, response = Resp)]
pub struct Greet;

fn main() {}
