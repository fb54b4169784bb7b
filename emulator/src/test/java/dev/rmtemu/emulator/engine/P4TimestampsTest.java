package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TNA's four timestamps reach a P4 program ({@code p4/timestamps.p4}), which writes them into
 * the frame: ig_intr_md.ingress_mac_tstamp, ig_prsr_md.global_tstamp, eg_intr_md.enq_tstamp,
 * eg_intr_md.deq_timedelta and eg_prsr_md.global_tstamp, in ns of the 1.22 GHz clock
 * (floor(cycles / 1.22)).
 */
class P4TimestampsTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    /** 300 ms into the run: 366,000,000 cycles are 300,000,000 ns exactly. */
    private static final long ARRIVAL = 366_000_000L;

    private static long field(byte[] a, int at, int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = (v << 8) | (a[at + i] & 0xff);
        }
        return v;
    }

    /**
     * Three 45-byte frames reach ports 0, 1 and 2 of pipe 0 in one cycle, all for port 1. The
     * ingress parser takes one a cycle: global_tstamp 300,000,000, 300,000,000 (.82) and
     * 300,000,001 (.64) ns while the MAC stamped all three 300,000,000. They reach the traffic
     * manager 132 cycles after the parser (300,000,108 ns), and enq_tstamp is TNA's bit<18>:
     * 300,000,108 mod 2^18 = 107,372. The port serialises (45 + 20) x 8 bits at 100 Gb/s, 6.344
     * cycles a frame: the second waits from cycle +1 to +7 (6 cycles, 4 ns), the third from +2
     * to +13 (11 cycles, 9 ns). The egress parser's global_tstamp is 48 bits and does not wrap.
     */
    @Test
    void everyTimestampReachesTheProgramAndEnqTstampWrapsAt18Bits() {
        StageProgram p = ProgramCompiler.compile(P4Programs.text("timestamps.p4", P4RouterTest.resource("timestamps.p4"),
                PreprocessorOptions.defaults()).require(), TOFINO1).requireAccepted().program();
        assertEquals(18, p.intrinsic(Intrinsic.ENQ_TSTAMP).width());
        assertEquals(48, p.intrinsic(Intrinsic.INGRESS_GLOBAL_TSTAMP).width());
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, p, 100));
        List<List<Long>> out = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            byte[] a = pool.frameArray();
            int o = pool.frameOffset(slot) + 14;
            out.add(List.of(field(a, o, 6), field(a, o + 6, 6), field(a, o + 12, 4), field(a, o + 16, 4), field(a, o + 20, 6)));
        });
        for (int port = 0; port < 3; port++) {
            byte[] f = TestFrames.frame().ethernet(0x020000000002L, 0x020000000009L, 0x88B6).zeros(26).payload("times").build();
            e.arrive(ARRIVAL, port, TestFrames.record(f));
        }
        e.drain();
        // mac, ingress global, enq (18 bits), deq_timedelta, egress global
        assertEquals(List.of(
                List.of(300_000_000L, 300_000_000L, 107_372L, 0L, 300_000_121L),
                List.of(300_000_000L, 300_000_000L, 107_373L, 4L, 300_000_127L),
                List.of(300_000_000L, 300_000_001L, 107_373L, 9L, 300_000_131L)), out);
    }
}
