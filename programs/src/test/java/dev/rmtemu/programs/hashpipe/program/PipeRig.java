package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.programs.hashpipe.control.HashPipeCollector;
import dev.rmtemu.programs.hashpipe.reference.HashPipeReference;

import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HashPipe program on one pipe's ingress, fed packet by packet (test helper),
 * twice: on the compiled back end and on the interpreter with every run-time rule
 * enforced. Both must hold the same tables, and those the reference's.
 */
public final class PipeRig {
    final HashPipeConfig cfg;
    final StageProgram program;
    final PipelineState state;
    private final PipelineState interpreted;
    private final PassExecutor exec;
    private final PassExecutor interpreter;
    private final HeaderParser parser;
    private final Phv phv;
    private final Phv interpreterPhv;
    private long packet;

    public PipeRig(HashPipeConfig cfg, String target) {
        this.cfg = cfg;
        this.program = new HashPipeProgram().build(cfg, HashPipeProgram.DEFAULT_EGRESS_PORT, null);
        assertTrue(ResourceChecker.check(program, TargetProfiles.builtIn(target)).fits(), "fits " + target);
        this.state = new PipelineState(program, 1);
        this.interpreted = new PipelineState(program, 1);
        this.exec = new PassExecutor(state, true, Backend.COMPILED);
        this.interpreter = new PassExecutor(interpreted, true, Backend.INTERPRETER);
        this.parser = new HeaderParser(program);
        this.phv = new Phv(program.fields().size());
        this.interpreterPhv = new Phv(program.fields().size());
    }

    public void send(PacketRecord r) {
        phv.clear();
        parser.parse(r, phv);
        interpreterPhv.clear();
        parser.parse(r, interpreterPhv);
        exec.run(phv, 0, Gress.INGRESS, packet);
        interpreter.run(interpreterPhv, 0, Gress.INGRESS, packet++);
        assertArrayEquals(interpreterPhv.values(), phv.values(), "PHV after packet " + (packet - 1));
    }

    /** Asserts the switch's tables (primary and mirror) equal the reference's, slot by slot. */
    public void assertEqualsReference(HashPipeReference ref, String where) {
        HashPipeCollector.Tables t = HashPipeCollector.read(state, cfg, 0);
        for (int i = 0; i < cfg.stages(); i++) {
            for (String array : new String[] {HashPipeProgram.tableName(i), HashPipeProgram.mirrorName(i)}) {
                assertArrayEquals(interpreted.snapshot(0, array), state.snapshot(0, array), where + ": interpreter " + array);
                assertArrayEquals(interpreted.snapshotHi(0, array), state.snapshotHi(0, array), where + ": interpreter " + array);
            }
            assertArrayEquals(ref.keysLo(i), t.keyLo()[i], where + ": stage " + i + " keys");
            assertArrayEquals(ref.keysHi(i), t.keyHi()[i], where + ": stage " + i + " key hi words");
            assertArrayEquals(ref.counts(i), t.count()[i], where + ": stage " + i + " counts");
            assertArrayEquals(state.snapshot(0, HashPipeProgram.tableName(i)), state.snapshot(0, HashPipeProgram.mirrorName(i)),
                    where + ": stage " + i + " mirror lo");
            assertArrayEquals(state.snapshotHi(0, HashPipeProgram.tableName(i)), state.snapshotHi(0, HashPipeProgram.mirrorName(i)),
                    where + ": stage " + i + " mirror hi");
        }
    }

    public static PacketRecord packet(int src, int dst, int proto, int sport, int dport, int length) {
        return PacketRecord.allocate().ipVersion(4).srcIpv4(src).dstIpv4(dst).protocol(proto)
                .srcPort(sport).dstPort(dport).wireLength(length);
    }
}
