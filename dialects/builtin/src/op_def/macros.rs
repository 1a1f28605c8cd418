//! `declare_op!` and the helper macros it expands to (hidden: only `declare_op!` is the API).

/// Declares an op: its typed wrapper, accessors, builder and [`OpDef`](crate::op_def::OpDef)
/// (verifier, custom form). See the [`op_def`](crate::op_def) module for the grammar and an example.
#[macro_export]
macro_rules! declare_op {
    (
        $(#[$meta:meta])*
        $vis:vis struct $Name:ident = $opname:literal {
            summary: $summary:literal,
            $(traits: [$($traits:expr),* $(,)?],)?
            $(operands: [$($oname:ident : $oar:ident ($ocons:expr) $(= $oinf:ident ($ofrom:ident))?),* $(,)?],)?
            $(results: [$($rname:ident : $rar:ident ($rcons:expr) $(= $rinf:ident ($rfrom:ident))?),* $(,)?],)?
            $(regions: [$($gname:ident $(as $gget:tt)? : $gkind:ident),* $(,)?],)?
            $(properties: [$($pname:ident $(as $pget:tt)? : $preq:ident ($pkind:ty) $(=> $psetter:ident)?),* $(,)?],)?
            $(builder: $bname:ident,)?
            $(format: $format:literal,)?
            $(syntax: ($parse:expr, $print:expr),)?
            $(verify: $verify:expr,)?
            $(verify_symbol_uses: $verify_uses:expr,)?
            $(asm_result_names: $result_names:expr,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        $vis struct $Name(pub $crate::OpId);

        #[allow(dead_code)]
        impl $Name {
            /// The op's full name.
            pub const NAME: &'static str = $opname;
            const OPERAND_NAMES: &'static [&'static str] = &[$($(stringify!($oname)),*)?];
            const OPERAND_ARITY: &'static [$crate::op_def::Arity] =
                &[$($($crate::__op_arity!($oar)),*)?];
            const RESULT_NAMES: &'static [&'static str] = &[$($(stringify!($rname)),*)?];
            const RESULT_ARITY: &'static [$crate::op_def::Arity] =
                &[$($($crate::__op_arity!($rar)),*)?];
            const REGION_NAMES: &'static [&'static str] = &[$($(stringify!($gname)),*)?];

            /// The op's static definition.
            pub fn def() -> &'static &'static $crate::op_def::OpDef {
                static DEF: $crate::op_def::OpDef = $crate::op_def::OpDef {
                    name: $opname,
                    summary: $summary,
                    traits: $crate::OpTraits::NONE $($(.union($traits))*)?,
                    operands: &[$($($crate::op_def::ValueDef {
                        name: stringify!($oname),
                        arity: $crate::__op_arity!($oar),
                        constraint: $ocons,
                        infer: $crate::__op_infer!($($oinf $ofrom)?),
                    }),*)?],
                    results: &[$($($crate::op_def::ValueDef {
                        name: stringify!($rname),
                        arity: $crate::__op_arity!($rar),
                        constraint: $rcons,
                        infer: $crate::__op_infer!($($rinf $rfrom)?),
                    }),*)?],
                    regions: &[$($($crate::op_def::RegionDef {
                        name: stringify!($gname),
                        single_block: $crate::__op_region_kind!($gkind),
                    }),*)?],
                    props: &[$($($crate::op_def::PropDef {
                        name: stringify!($pname),
                        required: $crate::__op_required!($preq),
                        spec: <$pkind as $crate::op_def::PropKind>::SPEC,
                        irdl: <$pkind as $crate::op_def::PropKind>::IRDL,
                    }),*)?],
                    syntax: $crate::__op_syntax!([$($format)?] [$(($parse, $print))?]),
                    verify: $crate::__op_opt!($($verify)?),
                    verify_symbol_uses: $crate::__op_opt!($($verify_uses)?),
                    asm_result_names: $crate::__op_opt!($($result_names)?),
                };
                static REF: &$crate::op_def::OpDef = &DEF;
                &REF
            }

            /// The registered op, for the dialect's op list.
            pub fn op_info() -> $crate::OpInfo {
                $crate::op_def::OpDef::op_info(Self::def())
            }

            /// The wrapper when `op` is this op (checks the name only).
            pub fn from_op(ctx: &$crate::Context, op: $crate::OpId) -> Option<Self> {
                (ctx.name(op) == $opname).then_some($Name(op))
            }

            pub fn op(self) -> $crate::OpId {
                self.0
            }

            pub fn loc(self, ctx: &$crate::Context) -> $crate::Location {
                ctx.loc(self.0)
            }

            $($($crate::__op_value_getter!{operand $Name $oname $oar})*)?
            $($($crate::__op_value_getter!{result $Name $rname $rar})*)?
            $($($crate::__op_region_getter!{$Name [$($gget)? $gname] $gname})*)?
            $($(
                $crate::__op_prop_getter!{[$($pget)? $pname] $pname $preq ($pkind)}
                $($crate::__op_prop_setter!{$psetter $pname $preq ($pkind)})?
            )*)?

            $crate::__op_builder!{
                [$($bname)? build] $opname [b st loc]
                operands: [$($($oname $oar),*)?]
                props: [$($($pname $preq ($pkind)),*)?]
                regions: [$($($gname),*)?]
                params: []
                stmts: []
                results: [$($($rname $rar $(= $rinf ($rfrom))?),*)?]
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_arity {
    (single) => {
        $crate::op_def::Arity::Single
    };
    (optional) => {
        $crate::op_def::Arity::Optional
    };
    (variadic) => {
        $crate::op_def::Arity::Variadic
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_infer {
    () => {
        None
    };
    ($f:ident $from:ident) => {
        Some($crate::op_def::InferDef {
            from: stringify!($from),
            f: $f,
        })
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_region_kind {
    (any) => {
        false
    };
    (single_block) => {
        true
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_required {
    (required) => {
        true
    };
    (optional) => {
        false
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_syntax {
    ([$f:literal] []) => {
        $crate::op_def::Syntax::Format($crate::op_def::Format::new($f))
    };
    ([] [($p:expr, $q:expr)]) => {
        $crate::op_def::Syntax::Custom($p, $q)
    };
    ([] []) => {
        $crate::op_def::Syntax::None
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_opt {
    () => {
        None
    };
    ($v:expr) => {
        Some($v)
    };
}

/// Accessors of operand and result groups: `Value`, `Option<Value>` or `Vec<Value>` by arity.
#[doc(hidden)]
#[macro_export]
macro_rules! __op_value_getter {
    (operand $Name:ident $n:ident single) => {
        pub fn $n(self, ctx: &$crate::Context) -> $crate::Value {
            const I: usize = $crate::op_def::position($Name::OPERAND_NAMES, stringify!($n));
            let r = $crate::op_def::segment($Name::OPERAND_ARITY, I, ctx.num_operands(self.0));
            ctx.operand(self.0, r.start)
        }
    };
    (operand $Name:ident $n:ident optional) => {
        pub fn $n(self, ctx: &$crate::Context) -> Option<$crate::Value> {
            const I: usize = $crate::op_def::position($Name::OPERAND_NAMES, stringify!($n));
            let total = ctx.num_operands(self.0);
            let r = $crate::op_def::segment($Name::OPERAND_ARITY, I, total);
            (r.start < r.end && r.start < total).then(|| ctx.operand(self.0, r.start))
        }
    };
    (operand $Name:ident $n:ident variadic) => {
        pub fn $n(self, ctx: &$crate::Context) -> Vec<$crate::Value> {
            const I: usize = $crate::op_def::position($Name::OPERAND_NAMES, stringify!($n));
            let total = ctx.num_operands(self.0);
            $crate::op_def::segment($Name::OPERAND_ARITY, I, total)
                .filter(|&i| i < total)
                .map(|i| ctx.operand(self.0, i))
                .collect()
        }
    };
    (result $Name:ident $n:ident single) => {
        pub fn $n(self, ctx: &$crate::Context) -> $crate::Value {
            const I: usize = $crate::op_def::position($Name::RESULT_NAMES, stringify!($n));
            let r = $crate::op_def::segment($Name::RESULT_ARITY, I, ctx.num_results(self.0));
            ctx.result(self.0, r.start)
        }
    };
    (result $Name:ident $n:ident optional) => {
        pub fn $n(self, ctx: &$crate::Context) -> Option<$crate::Value> {
            const I: usize = $crate::op_def::position($Name::RESULT_NAMES, stringify!($n));
            let rs = ctx.results(self.0);
            let r = $crate::op_def::segment($Name::RESULT_ARITY, I, rs.len());
            rs.get(r.start).copied().filter(|_| r.start < r.end)
        }
    };
    (result $Name:ident $n:ident variadic) => {
        pub fn $n(self, ctx: &$crate::Context) -> Vec<$crate::Value> {
            const I: usize = $crate::op_def::position($Name::RESULT_NAMES, stringify!($n));
            let rs = ctx.results(self.0);
            $crate::op_def::segment($Name::RESULT_ARITY, I, rs.len())
                .filter_map(|i| rs.get(i).copied())
                .collect()
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_region_getter {
    ($Name:ident [_ $n0:ident] $n:ident) => {};
    ($Name:ident [$g:ident $n0:ident] $n:ident) => {
        $crate::__op_region_getter! {@get $Name $g $n}
    };
    ($Name:ident [$n0:ident] $n:ident) => {
        $crate::__op_region_getter! {@get $Name $n $n}
    };
    (@get $Name:ident $g:ident $n:ident) => {
        pub fn $g(self, ctx: &$crate::Context) -> $crate::RegionId {
            const I: usize = $crate::op_def::position($Name::REGION_NAMES, stringify!($n));
            ctx.region(self.0, I)
        }
    };
}

/// Typed property getters: the value for a required property (verified IR has it), an `Option`
/// for an optional one.
#[doc(hidden)]
#[macro_export]
macro_rules! __op_prop_getter {
    // `p as _`: the dialect writes its own accessor.
    ([_ $p0:ident] $p:ident $req:ident ($K:ty)) => {};
    ([$g:ident $p0:ident] $p:ident $req:ident ($K:ty)) => {
        $crate::__op_prop_getter! {@get $g $p $req ($K)}
    };
    ([$p0:ident] $p:ident $req:ident ($K:ty)) => {
        $crate::__op_prop_getter! {@get $p $p $req ($K)}
    };
    (@get $g:ident $p:ident required ($K:ty)) => {
        pub fn $g(self, ctx: &$crate::Context) -> <$K as $crate::op_def::PropKind>::Value<'_> {
            ctx.prop(self.0, stringify!($p))
                .and_then(|a| <$K as $crate::op_def::PropKind>::get(ctx, a))
                .unwrap_or_else(|| {
                    panic!(
                        "'{}' has no well-formed property '{}' (unverified IR)",
                        ctx.name(self.0),
                        stringify!($p)
                    )
                })
        }
    };
    (@get $g:ident $p:ident optional ($K:ty)) => {
        pub fn $g(
            self,
            ctx: &$crate::Context,
        ) -> Option<<$K as $crate::op_def::PropKind>::Value<'_>> {
            ctx.prop(self.0, stringify!($p))
                .and_then(|a| <$K as $crate::op_def::PropKind>::get(ctx, a))
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_prop_setter {
    ($set:ident $p:ident required ($K:ty)) => {
        pub fn $set(
            self,
            ctx: &mut $crate::Context,
            v: <$K as $crate::op_def::PropKind>::Value<'_>,
        ) {
            let a = <$K as $crate::op_def::PropKind>::make(ctx, v);
            ctx.set_prop(self.0, stringify!($p), a);
        }
    };
    ($set:ident $p:ident optional ($K:ty)) => {
        /// Sets the property, or removes it with `None`.
        pub fn $set(
            self,
            ctx: &mut $crate::Context,
            v: Option<<$K as $crate::op_def::PropKind>::Value<'_>>,
        ) {
            match v {
                Some(v) => {
                    let a = <$K as $crate::op_def::PropKind>::make(ctx, v);
                    ctx.set_prop(self.0, stringify!($p), a);
                }
                None => {
                    ctx.remove_prop(self.0, stringify!($p));
                }
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_operand_arg {
    (single) => { $crate::Value };
    (optional) => { Option<$crate::Value> };
    (variadic) => { &[$crate::Value] };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_result_arg {
    (single) => { $crate::Type };
    (optional) => { Option<$crate::Type> };
    (variadic) => { &[$crate::Type] };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_prop_arg {
    (required $K:ty) => { <$K as $crate::op_def::PropKind>::Value<'_> };
    (optional $K:ty) => { Option<<$K as $crate::op_def::PropKind>::Value<'_>> };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_push_operands {
    (single $st:ident $v:ident) => {
        $st.operands.push($v)
    };
    (optional $st:ident $v:ident) => {
        $st.operands.extend($v)
    };
    (variadic $st:ident $v:ident) => {
        $st.operands.extend_from_slice($v)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_push_results {
    (single $st:ident $t:ident) => {
        $st.result_types.push($t)
    };
    (optional $st:ident $t:ident) => {
        $st.result_types.extend($t)
    };
    (variadic $st:ident $t:ident) => {
        $st.result_types.extend_from_slice($t)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __op_set_prop {
    (required ($K:ty) $b:ident $st:ident $p:ident) => {{
        let a = <$K as $crate::op_def::PropKind>::make($b.ctx, $p);
        $st.add_prop($b.ctx, stringify!($p), a);
    }};
    (optional ($K:ty) $b:ident $st:ident $p:ident) => {
        if let Some(v) = $p {
            let a = <$K as $crate::op_def::PropKind>::make($b.ctx, v);
            $st.add_prop($b.ctx, stringify!($p), a);
        }
    };
}

/// The builder: operands, then the types of results that are not inferred, then properties,
/// then the location. A muncher over the results, since only some become parameters. The
/// identifiers `b st loc` come from `declare_op!`'s own expansion so that every step sees them.
#[doc(hidden)]
#[macro_export]
macro_rules! __op_builder {
    // `builder: none`: the dialect writes every builder itself.
    ([none $($default:ident)?] $($rest:tt)*) => {};
    (
        $names:tt $opname:literal [$b:ident $st:ident $loc:ident]
        operands: $ops:tt props: $props:tt regions: $regs:tt
        params: [$($params:tt)*] stmts: [$($stmts:tt)*]
        results: [$r:ident optional = $f:ident ($from:ident) $(, $($rest:tt)*)?]
    ) => {
        $crate::__op_builder!{
            $names $opname [$b $st $loc]
            operands: $ops props: $props regions: $regs
            params: [$($params)* $r: bool,]
            stmts: [$($stmts)* if $r {
                let t = $b.ctx.value_type($from);
                let t = $f($b.ctx, t);
                $st.result_types.push(t);
            }]
            results: [$($($rest)*)?]
        }
    };
    (
        $names:tt $opname:literal [$b:ident $st:ident $loc:ident]
        operands: $ops:tt props: $props:tt regions: $regs:tt
        params: [$($params:tt)*] stmts: [$($stmts:tt)*]
        results: [$r:ident $ar:ident = $f:ident ($from:ident) $(, $($rest:tt)*)?]
    ) => {
        $crate::__op_builder!{
            $names $opname [$b $st $loc]
            operands: $ops props: $props regions: $regs
            params: [$($params)*]
            stmts: [$($stmts)* {
                let t = $b.ctx.value_type($from);
                let t = $f($b.ctx, t);
                $st.result_types.push(t);
            }]
            results: [$($($rest)*)?]
        }
    };
    (
        $names:tt $opname:literal [$b:ident $st:ident $loc:ident]
        operands: $ops:tt props: $props:tt regions: $regs:tt
        params: [$($params:tt)*] stmts: [$($stmts:tt)*]
        results: [$r:ident $ar:ident $(, $($rest:tt)*)?]
    ) => {
        $crate::__op_builder!{
            $names $opname [$b $st $loc]
            operands: $ops props: $props regions: $regs
            params: [$($params)* $r: $crate::__op_result_arg!($ar),]
            stmts: [$($stmts)* $crate::__op_push_results!($ar $st $r);]
            results: [$($($rest)*)?]
        }
    };
    (
        [$bname:ident $($default:ident)?] $opname:literal [$b:ident $st:ident $loc:ident]
        operands: [$($o:ident $oar:ident),*]
        props: [$($p:ident $preq:ident ($pk:ty)),*]
        regions: [$($g:ident),*]
        params: [$($params:tt)*] stmts: [$($stmts:tt)*]
        results: []
    ) => {
        /// Creates the op at the builder's insertion point (regions empty).
        #[allow(clippy::too_many_arguments)]
        pub fn $bname(
            $b: &mut $crate::Builder,
            $($o: $crate::__op_operand_arg!($oar),)*
            $($params)*
            $($p: $crate::__op_prop_arg!($preq $pk),)*
            $loc: $crate::Location,
        ) -> Self {
            #[allow(unused_mut)]
            let mut $st = $crate::OperationState::new($opname, $loc);
            $($crate::__op_push_operands!($oar $st $o);)*
            $($stmts)*
            $($crate::__op_set_prop!($preq ($pk) $b $st $p);)*
            $(
                let _ = stringify!($g);
                let region = $b.ctx.create_region();
                $st.regions.push(region);
            )*
            Self($b.insert($st))
        }
    };
}
