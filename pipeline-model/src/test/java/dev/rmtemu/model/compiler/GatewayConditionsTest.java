package dev.rmtemu.model.compiler;

import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.BiConsumer;

import static dev.rmtemu.model.ir.Ir.actionData;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.ge;
import static dev.rmtemu.model.ir.Ir.gt;
import static dev.rmtemu.model.ir.Ir.lt;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.sub;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a Tofino gateway takes, rewrites or refuses, after p4c's Tofino back end
 * (bf-p4c mau/gateway.cpp; limits from specs/device.cpp TofinoDevice::getGatewaySpec:
 * 4 PHV bytes, 12 hash bits of 4-bit range units). Each refusal has a legal twin.
 */
class GatewayConditionsTest {

    private record Fields(Field src, Field dst, Field count, Field count12, Field mac, Field wide40, Field out, MatchTable flags,
                          MatchTable data) {
    }

    private static Compilation compile(BiConsumer<Fields, Block> stage1) {
        ProgramBuilder b = ProgramBuilder.create("t", "test");
        Field src = b.header("ipv4.src_addr");
        Field dst = b.header("ipv4.dst_addr");
        Field count = b.metadata(Gress.INGRESS, "meta.count", 32);
        Field count12 = b.metadata(Gress.INGRESS, "meta.count12", 12);
        Field mac = b.metadata(Gress.INGRESS, "meta.mac", 48);
        Field wide40 = b.metadata(Gress.INGRESS, "meta.wide40", 40);
        Field out = b.metadata(Gress.INGRESS, "meta.out", 8);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        s0.body(code -> code.set(count, read(src)).set(count12, read(src)).set(mac, read(src)).set(wide40, read(dst)));
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, 1);
        MatchTable flags = s1.table("flags", MatchKind.EXACT, 16, 1, dst);
        MatchTable data = s1.table("data", MatchKind.EXACT, 16, 16, src);
        Fields f = new Fields(src, dst, count, count12, mac, wide40, out, flags, data);
        s1.body(code -> stage1.accept(f, code));
        return ProgramCompiler.compile(b.build(), TargetProfiles.builtIn("tofino1"));
    }

    private static void refused(Compilation c, String line) {
        assertEquals(List.of(line), c.lines());
    }

    private static void accepted(Compilation c) {
        assertEquals(List.of(), c.lines());
    }

    @Test
    void twoFieldsCompareOnlyForEquality() {
        // gateway.cpp CheckGatewayExpr::needConstOperand: a relation other than ==/!= needs a constant operand
        refused(compile((f, c) -> c.when(gt(read(f.src()), read(f.dst())), t -> t.set(f.out(), 1))),
                "t: ingress stage 1: gateway 'ipv4.src_addr > ipv4.dst_addr': condition too complex, one operand of '>' "
                        + "must be a constant: a gateway compares two fields only for == or != (compute the difference one "
                        + "stage earlier and test its sign bit, or compare in a stateful ALU) [gateway-conditions]");
        // CollectGatewayFields: == between fields is an XOR of their bytes, 4 of the gateway's 4
        accepted(compile((f, c) -> c.when(eq(read(f.src()), read(f.dst())), t -> t.set(f.out(), 1))));
    }

    @Test
    void aRangeOnAThirtyTwoBitFieldPassesTheTwelveRangeBits() {
        // CanonGatewayExpr: x >= 1000 slices off 1000's three low zero bits (SliceReduce) and stays a range on
        // count[31:3], 29 bits through hash bits; compute_offsets fails, CheckGatewayExpr "condition too complex"
        refused(compile((f, c) -> c.when(ge(read(f.count()), constant(1000)), t -> t.set(f.out(), 1))),
                "t: ingress stage 1: gateway 'meta.count >= 1000': condition too complex, limit of 4 bytes + 12 bits of "
                        + "PHV input exceeded: meta.count[31:3] >= 125 (range match) needs 0 bytes + 29 bits (compare in a "
                        + "stateful ALU, or subtract one stage earlier and test the sign bit) [gateway-conditions]");
        // x >= 1024 becomes count[31:10] != 0, an equality on 3 bytes
        accepted(compile((f, c) -> c.when(ge(read(f.count()), constant(1024)), t -> t.set(f.out(), 1))));
        // the same 1000 on a 12-bit field: count12[11:3] >= 125, 9 range bits
        accepted(compile((f, c) -> c.when(ge(read(f.count12()), constant(1000)), t -> t.set(f.out(), 1))));
        // x > 999 is x >= 1000: the same refusal; x < 4096 is count[31:12] == 0
        assertEquals(1, compile((f, c) -> c.when(gt(read(f.count()), constant(999)), t -> t.set(f.out(), 1))).lines().size());
        accepted(compile((f, c) -> c.when(lt(read(f.count()), constant(4096)), t -> t.set(f.out(), 1))));
    }

    @Test
    void anEqualityWiderThanTheGatewaySpillsAByteIntoHashBits() {
        // CanonGatewayExpr splits a match over 32 bits; compute_offsets puts bytes past the 4th into hash bits:
        // 40 bits = 4 bytes + 8 bits fits, 48 bits = 4 bytes + 16 bits does not
        refused(compile((f, c) -> c.when(eq(read(f.mac()), constant(0xFFFFFFFFFFFFL)), t -> t.set(f.out(), 1))),
                "t: ingress stage 1: gateway 'meta.mac == 281474976710655': condition too complex, limit of 4 bytes + 12 bits "
                        + "of PHV input exceeded: meta.mac == 281474976710655 needs 6 bytes + 0 bits (compare in a stateful "
                        + "ALU, or subtract one stage earlier and test the sign bit) [gateway-conditions]");
        accepted(compile((f, c) -> c.when(eq(read(f.wide40()), constant(5)), t -> t.set(f.out(), 1))));
        // a mask is a slice: (mac & 0xFF) == 1 is one byte
        accepted(compile((f, c) -> c.when(eq(and(read(f.mac()), constant(0xFF)), constant(1)), t -> t.set(f.out(), 1))));
    }

    @Test
    void anOperandThatIsNotAFieldIsRefusedOnce() {
        // CheckGatewayExpr::preorder(Expression): the gateway matches PHV bytes, not arithmetic; the
        // vliw-instructions pass already refuses it, and this pass does not say it twice
        refused(compile((f, c) -> c.when(eq(sub(read(f.src()), read(f.dst())), constant(0)), t -> t.set(f.out(), 1))),
                "t: ingress stage 1: gateway '(ipv4.src_addr - ipv4.dst_addr) == 0': compares a computed value; a gateway "
                        + "compares fields, optionally masked by a constant [vliw-instructions]");
        accepted(compile((f, c) -> c.when(eq(read(f.count()), constant(0)), t -> t.set(f.out(), 1))));
    }

    @Test
    void aConditionOnTheTablesOwnActionDataInsideItsActionIsRefused() {
        // instruction_selection.cpp DoInstructionSelection: a predicated assignment in an action needs a one-bit
        // action parameter as its condition (conditionally-set), not a comparison of action data
        refused(compile((f, c) -> c.apply(f.data()).on(1, hit -> hit.when(gt(actionData(f.data()), constant(5)),
                        t -> t.set(f.out(), 1)))),
                "t: ingress stage 1: gateway 'data.action_data > 5': conditions in an action must be a one-bit action data "
                        + "parameter (a conditionally-set of one branch of assignments), not a comparison of action data; "
                        + "move the test into the control or make it part of the table key [gateway-conditions]");
        // the legal twin: a one-bit flag of the entry selects one branch of assignments (conditionally-set)
        accepted(compile((f, c) -> c.apply(f.flags()).on(1, hit -> hit.when(eq(actionData(f.flags()), constant(1)),
                t -> t.set(f.out(), 1)))));
        // and a test of a field in the control after the table is an ordinary gateway
        accepted(compile((f, c) -> c.apply(f.data()).on(1, hit -> hit.when(eq(read(f.count()), constant(5)),
                t -> t.set(f.out(), 1)))));
    }

    @Test
    void resourcesChargeTheGatewaysCrossbarBytesAndRangeBits() {
        // input_xbar.cpp IXBar::allocGateway: a gateway's fields ride the exact-match crossbar (a field already
        // there is shared), range compares take hash bits. count12 >= 1000: 2 crossbar bytes, 9 hash bits
        Compilation c = compile((f, code) -> code.when(ge(read(f.count12()), constant(1000)), t -> t.set(f.out(), 1)));
        StageUsage s1 = c.resources().stages().stream().filter(u -> u.stage() == 1 && u.gress() == Gress.INGRESS).findFirst()
                .orElseThrow();
        // the two tables' keys: dst and src (4 + 4 bytes), then the gateway's count12 (2)
        assertEquals(10, s1.exactXbarBytes());
        assertEquals(9, s1.hashBits());
        // an equality on dst adds no byte: the flags table already put dst on the crossbar
        Compilation eqDst = compile((f, code) -> code.when(eq(read(f.dst()), constant(7)), t -> t.set(f.out(), 1)));
        StageUsage e1 = eqDst.resources().stages().stream().filter(u -> u.stage() == 1 && u.gress() == Gress.INGRESS)
                .findFirst().orElseThrow();
        assertEquals(8, e1.exactXbarBytes());
        assertEquals(0, e1.hashBits());
    }
}
