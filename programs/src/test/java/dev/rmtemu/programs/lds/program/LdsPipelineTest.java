package dev.rmtemu.programs.lds.program;

import dev.rmtemu.programs.lds.control.LdsCollector;
import dev.rmtemu.programs.lds.control.LdsPacketKeys;
import dev.rmtemu.programs.lds.control.LdsSketch;
import dev.rmtemu.programs.lds.experiment.LdsEmulatedPair;
import dev.rmtemu.programs.lds.reference.LdsReferenceTest;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stage program, pass by pass on one pipe (enforcement on), against the plain-Java sketch. */
class LdsPipelineTest {
    /**
     * Every variant on tofino1 (C a power of two) with both back ends, and a C that is not a
     * power of two (a modulo: unconstrained only): register for register the plain-Java sketch.
     */
    @ParameterizedTest
    @CsvSource({"single,tofino1,COMPILED", "sampled,tofino1,COMPILED", "multibank,tofino1,COMPILED",
        "weighted,tofino1,COMPILED", "multibank,tofino1,INTERPRETER", "weighted,tofino1,INTERPRETER",
        "odd,unconstrained,COMPILED", "odd,unconstrained,INTERPRETER"})
    void stageProgramEqualsReferenceOnRandomTraces(String variant, String target, Backend backend) {
        LdsConfig base = LdsConfig.singleRate(4, 1024, 5, 1.0);
        LdsConfig cfg = switch (variant) {
            case "sampled" -> LdsConfig.singleRate(4, 1024, 5, 0.3);
            case "multibank" -> LdsConfig.multiBank(1024, 5);
            case "weighted" -> base.withWeights(LdsWeights.bronzeSilverGold(1, 32, 2048));
            case "odd" -> new LdsConfig(4, 1000, 7, new double[] {0.2, 0.5, 1, 1}, LdsConfig.DEFAULT_ALPHA,
                    LdsWeights.bronzeSilverGold(1, 16, 128));
            default -> base;
        };
        // intervals of 2^20 ns: the trace below spans several, and delays up to 2 ms cross boundaries
        LdsIntervals iv = new LdsIntervals(20);
        LdsEmulatedPair rig = new LdsEmulatedPair(cfg, iv, target, backend);
        assertEquals(target, rig.target());
        LdsSketch[] tx = {new LdsSketch(cfg), new LdsSketch(cfg)};
        LdsSketch[] rx = {new LdsSketch(cfg), new LdsSketch(cfg)};
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        SplitMix64 rng = new SplitMix64((variant + backend).hashCode());
        // large timestamps (near 2^40 ns) so the low words overflow and carries into s_hi matter
        long t = (1L << 40) - 5_000_000;
        int crossed = 0;
        for (int i = 0; i < 5_000; i++) {
            PacketRecord p = LdsReferenceTest.packet(rng.nextInt(300), i);
            long delay = rng.nextInt(2_000_000);
            keys.of(p);
            PacketRecord sent = rig.send(p, t);
            assertEquals(iv.index(t) & LdsIntervals.ID_MASK, LdsHeader.interval(sent), "the sender's interval id on the wire");
            int bank = LdsIntervals.bank(iv.index(t)); // both ends file the packet under the sender's interval
            tx[bank].record(keys, t);
            if (rng.nextInt(100) != 0) { // 1 % lost between the two points
                rig.receive(sent, t + delay);
                rx[bank].record(keys, t + delay);
                crossed += iv.index(t + delay) != iv.index(t) ? 1 : 0;
            }
            t += 1 + rng.nextInt(2_000);
        }
        assertTrue(crossed > 500, crossed + " packets received in a later interval");
        for (int bank = 0; bank < LdsIntervals.BANKS; bank++) {
            LdsSketch swTx = LdsCollector.read(rig.state(), 0, cfg, true, bank);
            LdsSketch swRx = LdsCollector.read(rig.state(), 0, cfg, false, bank);
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
        // both packets in interval 0, bank 0
        LdsEmulatedPair rig = new LdsEmulatedPair(cfg, new LdsIntervals(LdsIntervals.MAX_SHIFT), "tofino1", Backend.COMPILED);
        PacketRecord p = LdsReferenceTest.packet(1, 0);
        rig.send(p, 0xFFFF_FFF0L);
        rig.send(LdsReferenceTest.packet(1, 1), 0x20L);
        LdsSketch s = LdsCollector.read(rig.state(), 0, cfg, true, 0);
        int cell = new LdsPacketKeys(cfg).of(p).cell(0);
        assertEquals(0x1_0000_0010L, s.sum(0, cell));
        assertEquals(2, s.count(0, cell));
    }

    @Test
    void defaultsCompileOnTofino1AsIrInTwelveStages() {
        LdsPipeline p = new LdsPipeline(LdsConfig.defaults(), LdsRole.BOTH, 1, 4, 0.2);
        Compilation c = ProgramCompiler.compile(p.program, TargetProfiles.builtIn("tofino1"));
        assertTrue(c.accepted(), () -> String.join("\n", c.lines()));
        assertEquals(3 * 4 * 2, p.program.registers().size(), "s_lo, s_hi, n/d per row per gress");
        assertEquals(LdsPipeline.RECEIVER_FIRST_STAGE + LdsPipeline.STAGES_PER_END - 1,
                p.program.stages(Gress.EGRESS).get(p.program.stages(Gress.EGRESS).size() - 1).number(), "last egress stage");
        // a sketch too large for a stage's SRAM is refused
        LdsPipeline big = new LdsPipeline(LdsConfig.defaults().withCells(65_536), LdsRole.SENDER, 1, 1, 0);
        assertFalse(ResourceChecker.check(big.program, TargetProfiles.builtIn("tofino1")).fits());
    }

    @Test
    void aCellCountThatIsNotAPowerOfTwoNeedsADividerTofino1DoesNotHave() {
        LdsPipeline odd = new LdsPipeline(LdsConfig.defaults().withCells(1000), LdsRole.SENDER, 1, 1, 0);
        Compilation c = ProgramCompiler.compile(odd.program, TargetProfiles.builtIn("tofino1"));
        assertFalse(c.accepted());
        assertTrue(c.lines().contains("lds: ingress stage 0: field lds_tx.base0: 'lds_tx.base0 = ((lds_tx_h0.get() % 1000) << 1)'"
                + " needs 2 ALU operations; a container's ALU does one per stage [vliw-instructions]"), String.join("\n", c.lines()));
        assertTrue(ProgramCompiler.compile(odd.program, TargetProfiles.builtIn("unconstrained")).accepted());
    }

    @Test
    void badParametersAreOneLineUserErrors() {
        org.junit.jupiter.api.Assertions.assertThrows(UserError.class, () -> LdsProgram.parseSampling("0.1,0.2", 4));
        org.junit.jupiter.api.Assertions.assertThrows(UserError.class, () -> LdsProgram.parseWeights("1/2"));
        org.junit.jupiter.api.Assertions.assertThrows(UserError.class, () -> LdsConfig.singleRate(4, 100, 5, 1.5));
    }
}
