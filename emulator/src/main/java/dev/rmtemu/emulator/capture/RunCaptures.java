package dev.rmtemu.emulator.capture;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The captures and packet logs of one run: for a single switch {@value #DIR}/{@value #EGRESS},
 * {@value #DIR}/{@value #DROPS} and {@value #PACKET_LOG}; for a network the same per switch,
 * {@value #DIR}/SWITCH/egress.pcapng, {@value #DIR}/SWITCH/drops.pcapng and
 * {@value #PACKET_LOG_DIR}/SWITCH.csv.gz, each opened on the switch's first packet for it (a
 * large, mostly idle network opens few files). Everything is written under the run directory's
 * temporary names; {@link #finish} renames the files into place at the end of the run or at a
 * stop, so each is a whole, readable file; after a failure they stay temporary and are removed.
 */
public final class RunCaptures implements AutoCloseable {
    public static final String DIR = "capture";
    public static final String EGRESS = "egress.pcapng";
    public static final String DROPS = "drops.pcapng";
    public static final String PACKET_LOG = "packets.csv.gz";
    /** A network run's packet logs, one per switch. */
    public static final String PACKET_LOG_DIR = "packets";

    private final List<SwitchCapture> switches = new ArrayList<>();
    private boolean closed;

    private RunCaptures() {
    }

    /** Starts recording {@code engine} into {@code rd} (both capture files exist even when empty). */
    public static RunCaptures forSwitch(RunDirectory rd, CaptureOptions options, SwitchEngine engine) {
        RunCaptures c = new RunCaptures();
        c.add(engine, new SwitchCapture(engine, rd, options, DIR + "/", PACKET_LOG, frameBuffer(), true));
        return c;
    }

    /** Starts recording every switch of {@code net} into {@code rd}, in node order. */
    public static RunCaptures forNetwork(RunDirectory rd, CaptureOptions options, NetworkEngine net) {
        RunCaptures c = new RunCaptures();
        for (int s = 0; s < net.switchCount(); s++) {
            String name = net.switchNode(s).name();
            SwitchEngine e = net.switchEngine(s);
            c.add(e, new SwitchCapture(e, rd, options, DIR + "/" + name + "/", PACKET_LOG_DIR + "/" + name + ".csv.gz",
                    frameBuffer(), false));
        }
        return c;
    }

    /** Where a switch's frames are built before they are written: one per switch, as switches may run on several threads. */
    private static UnsafeBuffer frameBuffer() {
        return new UnsafeBuffer(new byte[FrameSynthesizer.MAX_MIN_FRAME]);
    }

    private void add(SwitchEngine engine, SwitchCapture capture) {
        switches.add(capture);
        engine.tap(capture);
    }

    /**
     * Closes every file and renames it into place (a run that ended or was stopped); returns
     * the warnings of capture files that reached their limit, in switch order.
     */
    public List<String> finish() {
        List<String> warnings = new ArrayList<>();
        closed = true;
        for (SwitchCapture s : switches) {
            warnings.addAll(s.close(true));
        }
        return List.copyOf(warnings);
    }

    /**
     * After a failure: closes what is still open, leaving it under its temporary name. Best
     * effort and silent: the failure that ended the run (a full disk, a hardware-rule
     * violation) is the one reported, and the temporary files are removed with the run's.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (SwitchCapture s : switches) {
            try {
                s.close(false);
            } catch (RuntimeException e) {
                // the run has failed already; this file is a temporary one
            }
        }
    }
}
