// golden
//
// Fields completed by hand-written functions:
// - crate::v1alpha1::Gadget -> crate::v2::Gadget: weight, notes (crate::fixups::to_v2)
// - crate::v2::Gadget -> crate::v1alpha1::Gadget: weight, legacy (crate::fixups::from_v2)

#![allow(clippy::clone_on_copy)]

/// True for the zero value: what converts to `None` where one version has an `Option`.
fn is_zero<T: ::core::default::Default + ::core::cmp::PartialEq>(v: &T) -> bool {
    *v == T::default()
}
impl ::core::convert::From<&crate::v1alpha1::Gadget> for crate::v2::Gadget {
    fn from(src: &crate::v1alpha1::Gadget) -> Self {
        let mut out = Self {
            name: src.name.clone(),
            owner: src.owner.clone().unwrap_or_default(),
            count: src.count.unwrap_or_default(),
            motor: src.motor.as_ref().map(crate::v2::Motor::from).unwrap_or_default(),
            parts: src.parts.iter().map(crate::v2::Part::from).collect(),
            spares: src
                .spares
                .iter()
                .map(|(k, v)| (k.clone(), crate::v2::Part::from(v)))
                .collect(),
            ..::core::default::Default::default()
        };
        crate::fixups::to_v2(src, &mut out);
        out
    }
}
impl ::core::convert::From<&crate::v2::Gadget> for crate::v1alpha1::Gadget {
    fn from(src: &crate::v2::Gadget) -> Self {
        let mut out = Self {
            name: src.name.clone(),
            owner: if is_zero(&src.owner) { None } else { Some(src.owner.clone()) },
            count: if is_zero(&src.count) { None } else { Some(src.count) },
            motor: if is_zero(&src.motor) {
                None
            } else {
                Some(crate::v1alpha1::Motor::from(&src.motor))
            },
            parts: src.parts.iter().map(crate::v1alpha1::Part::from).collect(),
            spares: src
                .spares
                .iter()
                .map(|(k, v)| (k.clone(), crate::v1alpha1::Part::from(v)))
                .collect(),
            ..::core::default::Default::default()
        };
        crate::fixups::from_v2(src, &mut out);
        out
    }
}
impl ::core::convert::From<&crate::v1alpha1::Motor> for crate::v2::Motor {
    fn from(src: &crate::v1alpha1::Motor) -> Self {
        Self {
            watts: src.watts,
            kind: crate::v2::Drive::from(&src.kind),
        }
    }
}
impl ::core::convert::From<&crate::v2::Motor> for crate::v1alpha1::Motor {
    fn from(src: &crate::v2::Motor) -> Self {
        Self {
            watts: src.watts,
            kind: crate::v1alpha1::Drive::from(&src.kind),
        }
    }
}
impl ::core::convert::From<&crate::v1alpha1::Part> for crate::v2::Part {
    fn from(src: &crate::v1alpha1::Part) -> Self {
        Self { id: src.id.clone() }
    }
}
impl ::core::convert::From<&crate::v2::Part> for crate::v1alpha1::Part {
    fn from(src: &crate::v2::Part) -> Self {
        Self { id: src.id.clone() }
    }
}
impl ::core::convert::From<&crate::v1alpha1::Drive> for crate::v2::Drive {
    fn from(src: &crate::v1alpha1::Drive) -> Self {
        match src {
            crate::v1alpha1::Drive::Electric => crate::v2::Drive::Electric,
            crate::v1alpha1::Drive::Steam => crate::v2::Drive::Steam,
        }
    }
}
impl ::core::convert::From<&crate::v2::Drive> for crate::v1alpha1::Drive {
    fn from(src: &crate::v2::Drive) -> Self {
        match src {
            crate::v2::Drive::Electric => crate::v1alpha1::Drive::Electric,
            crate::v2::Drive::Steam => crate::v1alpha1::Drive::Steam,
        }
    }
}
