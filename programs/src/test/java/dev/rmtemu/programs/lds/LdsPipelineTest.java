package dev.rmtemu.programs.lds;

import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stage program, pass by pass on one pipe (enforcement on), against the plain-Java sketch. */
class LdsPipelineTest {
    /** Sender ingress and receiver egress of one pipe, fed packet by packet with chosen timestamps. */
    static final class Rig {
        final LdsPipeline pipeline;
        final PipelineState state;
        private final PassExecutor exec;
        private final HeaderParser parser;
        private final Phv phv;
        private final Field txTs;
        private final Field rxTs;
        private long packet;

        Rig(LdsConfig cfg) {
            this(cfg, LdsIntervals.DEFAULT);
        }

        Rig(LdsConfig cfg, LdsIntervals intervals) {
            pipeline = new LdsPipeline(cfg, LdsRole.BOTH, 1, 1, 0, intervals);
            assertTrue(ResourceChecker.check(pipeline.program, TargetProfiles.builtIn("tofino1")).fits(), "fits tofino1");
            state = new PipelineState(pipeline.program, 1);
            exec = new PassExecutor(state, true);
            parser = new HeaderParser(pipeline.program);
            phv = new Phv(pipeline.program.fields().size());
            txTs = pipeline.program.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP);
            rxTs = pipeline.program.intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP);
        }

        /** Returns the shim word the packet leaves with (the interval id). */
        long send(PacketRecord r, long ts) {
            phv.clear();
            parser.parse(r, phv);
            phv.load(txTs, ts);
            exec.run(phv, 0, Gress.INGRESS, packet++);
            return parser.deparseShim(phv);
        }

        void receive(PacketRecord r, long shim, long ts) {
            phv.clear();
            parser.parse(r, shim, phv);
            phv.load(rxTs, ts);
            exec.run(phv, 0, Gress.EGRESS, packet++);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "sampled", "multibank", "weighted"})
    void stageProgramEqualsReferenceOnRandomTraces(String variant) {
        LdsConfig base = LdsConfig.singleRate(4, 1000, 5, 1.0);
        LdsConfig cfg = switch (variant) {
            case "sampled" -> LdsConfig.singleRate(4, 1000, 5, 0.3);
            case "multibank" -> LdsConfig.multiBank(1000, 5);
            case "weighted" -> base.withWeights(LdsWeights.bronzeSilverGold(1, 32, 2048));
            default -> base;
        };
        // intervals of 2^20 ns: the trace below spans several, and delays up to 2 ms cross boundaries
        LdsIntervals iv = new LdsIntervals(20);
        Rig rig = new Rig(cfg, iv);
        LdsSketch[] tx = {new LdsSketch(cfg), new LdsSketch(cfg)};
        LdsSketch[] rx = {new LdsSketch(cfg), new LdsSketch(cfg)};
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        SplitMix64 rng = new SplitMix64(variant.hashCode());
        // large timestamps (near 2^40 ns) so the low words overflow and carries into s_hi matter
        long t = (1L << 40) - 5_000_000;
        int crossed = 0;
        for (int i = 0; i < 5_000; i++) {
            PacketRecord p = LdsReferenceTest.packet(rng.nextInt(300), i);
            long delay = rng.nextInt(2_000_000);
            keys.of(p);
            long shim = rig.send(p, t);
            int bank = LdsIntervals.bank(iv.index(t)); // both ends file the packet under the sender's interval
            tx[bank].record(keys, t);
            if (rng.nextInt(100) != 0) { // 1 % lost between the two points
                rig.receive(p, shim, t + delay);
                rx[bank].record(keys, t + delay);
                crossed += iv.index(t + delay) != iv.index(t) ? 1 : 0;
            }
            t += 1 + rng.nextInt(2_000);
        }
        assertTrue(crossed > 500, crossed + " packets received in a later interval");
        for (int bank = 0; bank < LdsIntervals.BANKS; bank++) {
            LdsSketch swTx = LdsCollector.read(rig.state, 0, cfg, true, bank);
            LdsSketch swRx = LdsCollector.read(rig.state, 0, cfg, false, bank);
            assertArrayEquals(new int[0], tx[bank].differingCells(swTx), "sender sketch, bank " + bank);
            assertArrayEquals(new int[0], rx[bank].differingCells(swRx), "receiver sketch, bank " + bank);
            assertTrue(tx[bank].sameContents(swTx) && rx[bank].sameContents(swRx));
            assertFalse(tx[bank].sameContents(rx[bank]), "loss and delay make the two ends differ");
        }
    }

    @Test
    void nonPowerOfTwoWeightsAreRefusedByTheStageProgram() {
        LdsConfig cfg = LdsConfig.singleRate(4, 100, 5, 1.0).withWeights(LdsWeights.bronzeSilverGold(1, 25, 100));
        UserError e = org.junit.jupiter.api.Assertions.assertThrows(UserError.class,
                () -> new LdsPipeline(cfg, LdsRole.SENDER, 1, 1, 0));
        assertTrue(e.getMessage().contains("weight 25") && !e.getMessage().contains("\n"), e.getMessage());
        // the plain-Java sketch takes any weight
        new LdsSketch(cfg).record(new LdsPacketKeys(cfg).of(LdsReferenceTest.packet(1, 0)), 1000);
    }

    @Test
    void carryFromTheLowWordReachesTheHighWord() {
        LdsConfig cfg = LdsConfig.singleRate(1, 4, 1, 1.0);
        Rig rig = new Rig(cfg, new LdsIntervals(LdsIntervals.MAX_SHIFT)); // both packets in interval 0, bank 0
        PacketRecord p = LdsReferenceTest.packet(1, 0);
        rig.send(p, 0xFFFF_FFF0L);
        rig.send(LdsReferenceTest.packet(1, 1), 0x20L);
        LdsSketch s = LdsCollector.read(rig.state, 0, cfg, true, 0);
        int cell = new LdsPacketKeys(cfg).of(p).cell(0);
        assertEquals(0x1_0000_0010L, s.sum(0, cell));
        assertEquals(2, s.count(0, cell));
    }

    @Test
    void fourRowsFitTofino1AndUseThreeFullStagesPerGress() {
        LdsPipeline p = new LdsPipeline(LdsConfig.defaults(), LdsRole.BOTH, 1, 4, 0.2);
        ResourceReport rep = ResourceChecker.check(p.program, TargetProfiles.builtIn("tofino1"));
        assertTrue(rep.fits(), rep.toString());
        assertEquals(3 * 4 * 2, p.program.registers().size(), "s_lo, s_hi, n/d per row per gress");
        // a sketch too large for a stage's SRAM is refused
        LdsPipeline big = new LdsPipeline(LdsConfig.defaults().withCells(65_536), LdsRole.SENDER, 1, 1, 0);
        assertFalse(ResourceChecker.check(big.program, TargetProfiles.builtIn("tofino1")).fits());
    }

    @Test
    void badParametersAreOneLineUserErrors() {
        org.junit.jupiter.api.Assertions.assertThrows(UserError.class, () -> LdsProgram.parseSampling("0.1,0.2", 4));
        org.junit.jupiter.api.Assertions.assertThrows(UserError.class, () -> LdsProgram.parseWeights("1/2"));
        org.junit.jupiter.api.Assertions.assertThrows(UserError.class, () -> LdsConfig.singleRate(4, 100, 5, 1.5));
    }
}
