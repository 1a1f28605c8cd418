//! Hand-written SPIR-V for the Vulkan device's tests (assembled by `spirv-as`, from
//! spirv-tools): entry points that exercise the device's side of the ABI without the codegen.
//! Every buffer is viewed as an array of u32 words.
//!
//! - `scale`: `data[t] = data[t] * 2 + 1` for each thread `t < threads` (metadata word 2);
//! - `ovf`: thread 3 (if it is one of the task's threads) writes the overflow record (stack 0);
//! - `err`: thread 2 writes the error record: site 0, values `[t + 3, threads]`;
//! - `heap`: each thread reads the word at `row * stride_float + offset[0] + 8` of the float
//!   heap (zero in a fresh heap; `row` is `t`, the id within the dispatch), writes `10 t + 7`
//!   there, and stores the sum of both in `data[begin + first + t]` (metadata words 0 and 8:
//!   the task's begin and the dispatch's first thread).

pub const SOURCE: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %scale "scale" %gid %meta %data
OpEntryPoint GLCompute %ovf "ovf" %gid %meta %ovfrec
OpEntryPoint GLCompute %err "err" %gid %meta %errrec
OpEntryPoint GLCompute %heap "heap" %gid %meta %heapf %data
OpExecutionMode %scale LocalSize 64 1 1
OpExecutionMode %ovf LocalSize 64 1 1
OpExecutionMode %err LocalSize 64 1 1
OpExecutionMode %heap LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rta ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %meta DescriptorSet 0
OpDecorate %meta Binding 2
OpDecorate %heapf DescriptorSet 0
OpDecorate %heapf Binding 3
OpDecorate %errrec DescriptorSet 0
OpDecorate %errrec Binding 5
OpDecorate %ovfrec DescriptorSet 0
OpDecorate %ovfrec Binding 6
OpDecorate %data DescriptorSet 0
OpDecorate %data Binding 7
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3 = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%rta = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %rta
%pblk = OpTypePointer StorageBuffer %blk
%pu = OpTypePointer StorageBuffer %uint
%meta = OpVariable %pblk StorageBuffer
%heapf = OpVariable %pblk StorageBuffer
%errrec = OpVariable %pblk StorageBuffer
%ovfrec = OpVariable %pblk StorageBuffer
%data = OpVariable %pblk StorageBuffer
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c3 = OpConstant %uint 3
%c4 = OpConstant %uint 4
%c5 = OpConstant %uint 5
%c6 = OpConstant %uint 6
%c7 = OpConstant %uint 7
%c8 = OpConstant %uint 8
%c10 = OpConstant %uint 10

%scale = OpFunction %void None %fn
%s0 = OpLabel
%sg = OpLoad %v3 %gid
%st = OpCompositeExtract %uint %sg 0
%spn = OpAccessChain %pu %meta %c0 %c2
%sn = OpLoad %uint %spn
%sok = OpULessThan %bool %st %sn
OpSelectionMerge %send None
OpBranchConditional %sok %sbody %send
%sbody = OpLabel
%spd = OpAccessChain %pu %data %c0 %st
%sv = OpLoad %uint %spd
%sv2 = OpIMul %uint %sv %c2
%sv3 = OpIAdd %uint %sv2 %c1
OpStore %spd %sv3
OpBranch %send
%send = OpLabel
OpReturn
OpFunctionEnd

%ovf = OpFunction %void None %fn
%o0 = OpLabel
%og = OpLoad %v3 %gid
%ot = OpCompositeExtract %uint %og 0
%opn = OpAccessChain %pu %meta %c0 %c2
%on = OpLoad %uint %opn
%o3 = OpIEqual %bool %ot %c3
%oin = OpULessThan %bool %ot %on
%ook = OpLogicalAnd %bool %o3 %oin
OpSelectionMerge %oend None
OpBranchConditional %ook %obody %oend
%obody = OpLabel
%op0 = OpAccessChain %pu %ovfrec %c0 %c0
OpStore %op0 %c1
%op1 = OpAccessChain %pu %ovfrec %c0 %c1
OpStore %op1 %c0
%op2 = OpAccessChain %pu %ovfrec %c0 %c2
OpStore %op2 %ot
OpBranch %oend
%oend = OpLabel
OpReturn
OpFunctionEnd

%err = OpFunction %void None %fn
%e0 = OpLabel
%eg = OpLoad %v3 %gid
%et = OpCompositeExtract %uint %eg 0
%eok = OpIEqual %bool %et %c2
OpSelectionMerge %eend None
OpBranchConditional %eok %ebody %eend
%ebody = OpLabel
%epn = OpAccessChain %pu %meta %c0 %c2
%en = OpLoad %uint %epn
%ep0 = OpAccessChain %pu %errrec %c0 %c0
OpStore %ep0 %c1
%ep1 = OpAccessChain %pu %errrec %c0 %c1
OpStore %ep1 %c0
%ep2 = OpAccessChain %pu %errrec %c0 %c2
OpStore %ep2 %et
%eidx = OpIAdd %uint %et %c3
%ep4 = OpAccessChain %pu %errrec %c0 %c4
OpStore %ep4 %eidx
%ep5 = OpAccessChain %pu %errrec %c0 %c5
OpStore %ep5 %c0
%ep6 = OpAccessChain %pu %errrec %c0 %c6
OpStore %ep6 %en
%ep7 = OpAccessChain %pu %errrec %c0 %c7
OpStore %ep7 %c0
OpBranch %eend
%eend = OpLabel
OpReturn
OpFunctionEnd

%heap = OpFunction %void None %fn
%h0 = OpLabel
%hg = OpLoad %v3 %gid
%ht = OpCompositeExtract %uint %hg 0
%hpn = OpAccessChain %pu %meta %c0 %c2
%hn = OpLoad %uint %hpn
%hok = OpULessThan %bool %ht %hn
OpSelectionMerge %hend None
OpBranchConditional %hok %hbody %hend
%hbody = OpLabel
%hps = OpAccessChain %pu %meta %c0 %c4
%hs = OpLoad %uint %hps
%hpo = OpAccessChain %pu %meta %c0 %c10
%ho = OpLoad %uint %hpo
%hrow = OpIMul %uint %ht %hs
%hb = OpIAdd %uint %hrow %ho
%hb8 = OpIAdd %uint %hb %c8
%hw = OpUDiv %uint %hb8 %c4
%hpe = OpAccessChain %pu %heapf %c0 %hw
%hold = OpLoad %uint %hpe
%ht10 = OpIMul %uint %ht %c10
%hnew = OpIAdd %uint %ht10 %c7
OpStore %hpe %hnew
%hback = OpLoad %uint %hpe
%hsum = OpIAdd %uint %hold %hback
%hpb = OpAccessChain %pu %meta %c0 %c0
%hbeg = OpLoad %uint %hpb
%hpf = OpAccessChain %pu %meta %c0 %c8
%hfirst = OpLoad %uint %hpf
%hbf = OpIAdd %uint %hbeg %hfirst
%hi = OpIAdd %uint %hbf %ht
%hpd = OpAccessChain %pu %data %c0 %hi
OpStore %hpd %hsum
OpBranch %hend
%hend = OpLabel
OpReturn
OpFunctionEnd
"#;

/// The module's words, assembled by `spirv-as` (spirv-tools, installed by tools/setup.sh) once
/// per test process.
pub fn words() -> Vec<u32> {
    static WORDS: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    WORDS.get_or_init(assemble).clone()
}

fn assemble() -> Vec<u32> {
    let dir = std::env::temp_dir().join(format!("qd-vulkan-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.spvasm");
    let out = dir.join("k.spv");
    std::fs::write(&src, SOURCE).unwrap();
    let st = std::process::Command::new("spirv-as")
        .args(["--target-env", "vulkan1.2"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("spirv-as (spirv-tools) must be installed: run tools/setup.sh");
    assert!(st.success(), "spirv-as failed");
    let bytes = std::fs::read(&out).unwrap();
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
