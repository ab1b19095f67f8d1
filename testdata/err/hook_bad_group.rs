use capi_runtime::Hook;

#[derive(Hook)]
#[hook(group = "err.example.com/v1", version = "v1alpha1", request = Req, response = Resp)]
pub struct Slashed;
