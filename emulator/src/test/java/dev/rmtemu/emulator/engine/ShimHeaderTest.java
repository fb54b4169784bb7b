package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Shim header fields: packed by the deparser at departure, parsed from the arriving word, passed through by programs without them. */
class ShimHeaderTest {
    private static StageProgram stamping() {
        ProgramBuilder b = ProgramBuilder.create("stamp", "writes a shim header");
        Field tag = b.header("shim.tag", 12, ParsedField.SHIM);
        Field seq = b.header("shim.seq", 20, ParsedField.SHIM);
        Field id = b.header("ipv4.id", 16, ParsedField.IP_ID);
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(c -> c
                .set(tag, add(read(tag), constant(1)))   // counts the hops that ran this program
                .set(seq, shl(read(id), constant(2)))
                .set(out, 1));
        return b.build();
    }

    @Test
    void parserAndDeparserAgreeOnTheLayout() {
        StageProgram p = stamping();
        HeaderParser parser = new HeaderParser(p);
        Phv phv = new Phv(p.fields().size());
        long word = 0xABCL | (0x12345L << 12) | (0xFFL << 32); // bits above the 32 declared are not a field
        parser.parse(PacketRecord.allocate(), word, phv);
        assertEquals(0xABC, phv.get(p.field("shim.tag")));
        assertEquals(0x12345, phv.get(p.field("shim.seq")));
        assertEquals(word & 0xFFFFFFFFL, parser.deparseShim(phv));
    }

    @Test
    void shimCrossesSwitchesAndPlainSwitchesPassItThrough() {
        SwitchEngine first = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), stamping(), 4, PortConfig.strictPriority(100), true));
        StageProgram plain = ProgramBuilder.create("plain", "no stages").build();
        SwitchEngine middle = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), plain, 4, PortConfig.strictPriority(100), true));
        middle.forwarding((in, rec) -> 1);
        SwitchEngine last = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), stamping(), 4, PortConfig.strictPriority(100), true));
        List<long[]> out = new ArrayList<>();
        first.onDeparture((c, port, slot, pool) -> middle.scheduleArrival(c + 10, 0, pool.record(slot), pool.shim(slot)));
        middle.onDeparture((c, port, slot, pool) -> last.scheduleArrival(c + 10, 0, pool.record(slot), pool.shim(slot)));
        last.onDeparture((c, port, slot, pool) -> out.add(new long[] {pool.record(slot).ipId(), pool.shim(slot)}));
        PacketRecord r = PacketRecord.allocate().ipVersion(4).protocol(17).wireLength(100);
        for (int i = 0; i < 5; i++) {
            first.arrive(100 + i * 50, 0, r.ipId(1000 + i));
        }
        first.drain();
        middle.drain();
        last.drain();
        assertEquals(5, out.size());
        for (int i = 0; i < 5; i++) {
            long shim = out.get(i)[1];
            assertEquals(2, shim & 0xFFF, "two stamping hops");
            assertEquals((1000 + i) * 4L, shim >>> 12);
        }
    }

    @Test
    void aDirectArrivalMayCarryAShimWord() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), stamping(), 4, PortConfig.strictPriority(100), true));
        List<Long> out = new ArrayList<>();
        e.onDeparture((c, port, slot, pool) -> out.add(pool.shim(slot)));
        PacketRecord r = PacketRecord.allocate().ipVersion(4).protocol(17).wireLength(100).ipId(7);
        e.arrive(100, 0, r, 41L | (999L << 12));  // tag 41 from an upstream hop
        e.arrive(200, 0, r);                        // no shim header: tag starts at 0
        e.drain();
        assertEquals(List.of(42L | (28L << 12), 1L | (28L << 12)), out);
    }
}
