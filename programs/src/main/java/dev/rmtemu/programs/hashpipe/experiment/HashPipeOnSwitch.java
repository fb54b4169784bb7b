package dev.rmtemu.programs.hashpipe.experiment;

import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.HashPipeCollector;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.program.HashPipeProgram;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;

import java.util.List;

/**
 * HashPipe as the experiment runs it: the stage program on an emulated switch (the
 * cycle-level engine with the compiled back end and every run-time rule enforced), fed the
 * trace's packets at their timestamps on one front-panel port, read out and zeroed through
 * the control plane at the end of each measurement interval, as the paper's switch flushes
 * its tables every 20 s.
 */
final class HashPipeOnSwitch {
    /** The front-panel port the trace arrives on (pipe 0): one pipe's tables see every packet, as in the paper. */
    static final int INGRESS_PORT = 0;

    private final HashPipeConfig cfg;
    private final SwitchEngine engine;
    private final SwitchFeed feed;
    private final PacketRecord view = new PacketRecord();

    HashPipeOnSwitch(HashPipeConfig cfg, TargetProfile profile, double portGbps) {
        this.cfg = cfg;
        StageProgram program = new HashPipeProgram().build(cfg, HashPipeProgram.DEFAULT_EGRESS_PORT, null);
        this.engine = new SwitchEngine(SwitchConfig.of(profile, program, portGbps));
        this.feed = new SwitchFeed(engine);
    }

    String name() {
        return "hashpipe d=" + cfg.stages();
    }

    /**
     * Sends records {@code from} to {@code to} of {@code records} into the switch,
     * at their timestamps relative to {@code originNs}, then lets every packet leave.
     */
    void feed(PackedRecords records, int from, int to, long originNs) {
        for (int i = from; i < to; i++) {
            records.get(i, view);
            feed.arrive(view.timestampNs() - originNs, INGRESS_PORT, view);
        }
        engine.drain();
    }

    /** The flows in every pipe's tables, duplicates merged, largest first (the collector's readout). */
    List<FlowCount> report() {
        return HashPipeCollector.collect(engine.state(), cfg);
    }

    /** Share of occupied slots of the trace's pipe spent on duplicate keys. */
    double duplicateShare() {
        HashPipeCollector.Tables t = HashPipeCollector.read(engine.state(), cfg, engine.config().pipeOf(INGRESS_PORT));
        return HashPipeCollector.duplicateShare(t.keyLo(), t.keyHi(), t.count());
    }

    /** Zeroes every HashPipe array (primary and mirror) in every pipe, through the control plane. */
    void reset() {
        for (int i = 0; i < cfg.stages(); i++) {
            engine.state().resetRegister(HashPipeProgram.tableName(i));
            engine.state().resetRegister(HashPipeProgram.mirrorName(i));
        }
    }

    /** Packets the switch took in (all of them: the experiment checks none was lost). */
    long packetsIn() {
        return engine.counters().packetsIn();
    }
}
