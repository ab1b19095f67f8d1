use capi_runtime::Hook;

#[derive(Hook)]
#[hook(group = "err.example.com", version = "v1alpha1", request = Req, response = Resp)]
pub struct Stateful {
    pub count: i32,
}
