package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exact-match forwarder of {@code p4/exact_forwarder.p4}, lowered and placed, behaves as
 * its comments say: a known destination leaves on its port with the switch's MAC as source
 * (the switch on action_run), an unknown one is dropped by drop_ctl (the default action), an
 * LLDP frame skips the table and leaves on port 0 unchanged.
 */
class P4ForwarderTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final long KNOWN = 0x020000000002L;
    private static final long SENDER = 0x020000000009L;

    private record Departure(int port, byte[] frame) {
    }

    @Test
    void knownDestinationsAreForwardedUnknownOnesDroppedLldpSentToPortZero() {
        assertForwards(P4RouterTest.resource("exact_forwarder.p4"));
    }

    /** The same program with {@code if (dmac.apply().hit)} instead of the switch on action_run behaves the same. */
    @Test
    void applyHitRunsItsBranchAfterAHit() {
        String text = P4RouterTest.resource("exact_forwarder.p4");
        String withSwitch = """
                            switch (dmac.apply().action_run) {
                                forward: {
                                    hdr.ethernet.src_addr = 48w0x02aabbccddee;
                                }
                            }
                """;
        String withHit = """
                            if (dmac.apply().hit) {
                                hdr.ethernet.src_addr = 48w0x02aabbccddee;
                            }
                """;
        assertTrue(text.contains(withSwitch));
        assertForwards(text.replace(withSwitch, withHit));
    }

    /**
     * TNA's port_metadata_unpack instead of the TofinoIngressParser sub-parser: it reads no frame
     * bytes (rmtemu's frames start at the Ethernet header) and leaves the metadata at 0.
     */
    @Test
    void portMetadataUnpackReadsNoFrameBytes() {
        String text = P4RouterTest.resource("exact_forwarder.p4");
        String subParser = "        tofino_parser.apply(pkt, ig_intr_md);\n";
        String metadata = "struct metadata_t {}";
        assertTrue(text.contains(subParser) && text.contains(metadata));
        assertForwards(text.replace(metadata, "struct port_md_t { bit<64> unused; }\nstruct metadata_t { port_md_t port_md; }")
                .replace(subParser, "        pkt.extract(ig_intr_md);\n        ig_md.port_md = port_metadata_unpack<port_md_t>(pkt);\n"));
    }

    private static void assertForwards(String programText) {
        StageProgram p = ProgramCompiler.compile(P4Programs.text("exact_forwarder.p4", programText,
                PreprocessorOptions.defaults()).require(), TOFINO1).requireAccepted().program();
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        e.state().addExact("dmac", new long[] {KNOWN}, 1, 7); // forward(7): action 1
        List<Departure> out = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> out.add(new Departure(port, Arrays.copyOfRange(pool.frameArray(),
                pool.frameOffset(slot), pool.frameOffset(slot) + pool.capturedLength(slot)))));
        byte[] known = TestFrames.frame().ethernet(KNOWN, SENDER, 0x88B5).payload("known destination").build();
        byte[] unknown = TestFrames.frame().ethernet(0x020000000003L, SENDER, 0x88B5).payload("unknown").build();
        byte[] lldp = TestFrames.frame().ethernet(0x0180C200000EL, SENDER, 0x88CC).payload("lldp").build();
        long cycle = e.now() + 1;
        for (byte[] f : List.of(known, unknown, lldp)) {
            e.arrive(cycle, 3, TestFrames.record(f));
            cycle += 1000;
        }
        e.drain();
        assertEquals(2, out.size());
        assertEquals(7, out.get(0).port());
        assertArrayEquals(TestFrames.frame().ethernet(KNOWN, 0x02AABBCCDDEEL, 0x88B5).payload("known destination").build(),
                out.get(0).frame());
        assertEquals(0, out.get(1).port());
        assertArrayEquals(lldp, out.get(1).frame());
        assertEquals(1, e.counters().droppedTotal());
    }
}
