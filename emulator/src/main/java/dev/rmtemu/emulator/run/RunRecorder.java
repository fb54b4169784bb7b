package dev.rmtemu.emulator.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;

import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * What a run leaves in its run directory. The replays here decide when (the inputs once they
 * are checked, the outputs after the drain, or at a stop); the output room decides what
 * (report.json, resources.json, histograms, report.html, results/*.csv, registers/) and
 * registers its one implementation under {@code META-INF/services}, so run/ never names
 * output/ (the emulator's rooms depend one way: engine &lt;- run &lt;- output &lt;- cli).
 */
public interface RunRecorder {
    /** The run's inputs, as report.json's {@code inputs} object, written when the run directory is opened. */
    ObjectNode inputs(ReplayOptions options);

    /** Writes every output of {@code result} (one switch or a network) into {@code rd}. */
    void write(ReplayResult result, RunDirectory rd);

    /** The registered recorder (the emulator module registers exactly one; a run looks it up twice). */
    static RunRecorder installed() {
        Iterator<RunRecorder> it = ServiceLoader.load(RunRecorder.class, RunRecorder.class.getClassLoader()).iterator();
        if (!it.hasNext()) {
            throw new IllegalStateException("no " + RunRecorder.class.getName() + " registered (META-INF/services)");
        }
        RunRecorder r = it.next();
        if (it.hasNext()) {
            throw new IllegalStateException("more than one " + RunRecorder.class.getName() + " registered");
        }
        return r;
    }
}
