//! Copy `u32` handles into the arenas of a [`crate::Context`] (Cranelift-style entities).

macro_rules! entity {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The arena index of this handle.
            pub fn index(self) -> usize {
                self.0 as usize
            }
            pub(crate) fn from_index(i: usize) -> Self {
                $name(u32::try_from(i).expect("arena overflow: more than u32::MAX entities"))
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity!(
    /// An operation.
    OpId,
    "op"
);
entity!(
    /// A basic block.
    BlockId,
    "block"
);
entity!(
    /// A region: a list of blocks owned by an operation.
    RegionId,
    "region"
);
entity!(
    /// An SSA value: an operation result or a block argument.
    Value,
    "v"
);
entity!(
    /// An interned type.
    Type,
    "type"
);
entity!(
    /// An interned attribute.
    Attribute,
    "attr"
);
entity!(
    /// An interned source location.
    Location,
    "loc"
);
entity!(
    /// An interned identifier (attribute names, dialect names, symbol names).
    Ident,
    "id"
);
entity!(
    /// An interned operation name, registered or not.
    OpName,
    "opname"
);
