package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.midst.control.MidstCollector;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;

import java.util.List;

/**
 * Cleaning time of S_in and S_out, three ways (the paper's Table 1):
 * <ul>
 *   <li>control plane: every counter of both sketches written through the runtime API,
 *   one write every {@link #CONTROL_PLANE_WRITE_NS} (a model; scheduled on the engine so
 *   the sketches really are zero at the end);</li>
 *   <li>data plane, recirculation only: one generated probe recirculates, each pass
 *   zeroing one dirty word per row in ingress and one in egress, until both clean
 *   pointers have covered all W = c / 32 words;</li>
 *   <li>data plane, recirculation plus traffic: the same, while data packets at line rate
 *   also zero a word per row on each pass.</li>
 *   <li>with {@link MidstConfig#dirtyWords()} off, the same loops zero one counter per row per
 *   pass (c steps instead of W = c / 32): what the dirty words save.</li>
 * </ul>
 */
public final class MidstCleaning {
    /**
     * Cost of one register write from the control plane. Calibrated, not measured: the
     * paper's 95.32 ms for a 160 KB sketch pair (2 × 40,960 32-bit counters: S_in and S_out
     * of 2 rows × 20,480) gives
     * 1.1636 µs per write; other sizes follow linearly.
     */
    public static final double CONTROL_PLANE_WRITE_NS = 95.32e6 / (2 * 40_960);
    /** Data packets during cleaning: an input port sends to the monitored port at line rate (no congestion). */
    public static final int TRAFFIC_INPUT_PORT = 3;
    /** Cycle at which cleaning starts (after reset, with room for control ops before it). */
    public static final long START_CYCLE = 1_000;
    /** Queue limit while cleaning: the default per-queue limit (no drops at equal rates). */
    private static final int QUEUE_LIMIT_CELLS = 12_500;

    private MidstCleaning() {
    }

    /**
     * Result of one data-plane cleaning run, all measured in the emulator: cycles from the
     * start to the probe's done report, the probe's recirculations and the bytes they moved
     * through the recirculation port, the data packets that helped, and the register cells
     * (dirty words; without dirty words, counters) found set before and zero after.
     */
    public record Result(long cycles, double milliseconds, long probePasses, long dataPackets, long recirculatedBytes,
                         long cellsCleaned) {
    }

    /**
     * Cleaning through the control plane's runtime API. Measured in the emulator: the
     * register writes that reached the switch and the cell bytes they carried (every
     * counter of S_in and S_out). Not measured: {@code hostMs}, the host's time to issue
     * them (driver, PCIe, RPC), modelled at {@link #CONTROL_PLANE_WRITE_NS} per write.
     */
    public record ControlPlane(long writes, long bytes, double hostMs) {
    }

    /**
     * Control plane: schedules a write per counter of both sketches, one every
     * {@link #CONTROL_PLANE_WRITE_NS}, and returns the milliseconds until the last one.
     */
    public static double controlPlaneMs(MidstConfig cfg, TargetProfile profile) {
        return controlPlane(cfg, profile).hostMs();
    }

    /** The control-plane reset of both sketches, with the writes and bytes the switch received. */
    public static ControlPlane controlPlane(MidstConfig cfg, TargetProfile profile) {
        long[] applied = {0};
        MidstSwitch sw = new MidstSwitch(cfg, profile, profile.recirculationGbps(), QUEUE_LIMIT_CELLS);
        dirtyEverything(sw);
        double cyclesPerWrite = CONTROL_PLANE_WRITE_NS * profile.clockHz() / 1e9;
        long writes = 0;
        for (int i = 0; i < cfg.rows(); i++) {
            for (String array : List.of(MidstPipeline.inCount(i), MidstPipeline.outCount(i))) {
                final String a = array;
                final int rowCells = cfg.columns();
                // one op per counter would be the API's shape; a batch of consecutive writes per op keeps the
                // emulator's event list small while each counter still lands at its own modelled time
                for (int j = 0; j < rowCells; j++) {
                    writes++;
                    final int cell = j;
                    long at = START_CYCLE + (long) Math.ceil(writes * cyclesPerWrite);
                    if (j % CONTROL_BATCH == CONTROL_BATCH - 1 || j == rowCells - 1) {
                        final int first = j - (j % CONTROL_BATCH);
                        sw.engine().scheduleControl(at, (state, cycle) -> {
                            for (int k = first; k <= cell; k++) {
                                state.writeRegister(sw.pipe(), a, k, 0, 0);
                                applied[0]++;
                            }
                        });
                    }
                }
            }
        }
        sw.engine().drain();
        for (int i = 0; i < cfg.rows(); i++) {
            for (long v : sw.engine().state().snapshot(sw.pipe(), MidstPipeline.inCount(i))) {
                if (v != 0) {
                    throw new IllegalStateException("control-plane reset left a non-zero counter");
                }
            }
        }
        long end = START_CYCLE + (long) Math.ceil(writes * cyclesPerWrite);
        return new ControlPlane(applied[0], applied[0] * (MidstConfig.COUNTER_BITS / 8), (end - START_CYCLE) * 1e3 / profile.clockHz());
    }

    /** Writes applied per scheduled control op (see {@link #controlPlaneMs}). */
    private static final int CONTROL_BATCH = 256;

    /**
     * Data plane: one probe recirculating from {@link #START_CYCLE}, plus (if
     * {@code trafficGbps > 0}) {@code packetBytes} packets at that line rate through the
     * switch. Returns when the probe reports cleaning done.
     */
    public static Result dataPlane(MidstConfig cfg, TargetProfile profile, double trafficGbps, int packetBytes) {
        double portGbps = trafficGbps > 0 ? trafficGbps : profile.recirculationGbps();
        MidstSwitch sw = new MidstSwitch(cfg, profile, portGbps, QUEUE_LIMIT_CELLS);
        dirtyEverything(sw);
        sw.startProbes(START_CYCLE, 1, 1);
        long dataPackets = 0;
        if (trafficGbps > 0) {
            PacketRecord r = PacketRecord.allocate();
            SwitchFeed feed = new SwitchFeed(sw.engine());
            double gapNs = (packetBytes + 20) * 8 / trafficGbps;
            long ns = sw.engine().clock().cyclesToNs(START_CYCLE);
            int f = 0;
            while (!done(sw)) {
                r.clear();
                r.timestampNs(ns).wireLength(packetBytes).ipVersion(4).protocol(PacketRecord.PROTO_UDP)
                        .srcIpv4(MidstTraffic.FLOW_BASE + (f++ & 0xFFF)).dstIpv4(MidstTraffic.DST).srcPort(1).dstPort(2);
                feed.arrive(ns, TRAFFIC_INPUT_PORT, r);
                dataPackets++;
                ns += (long) Math.ceil(gapNs);
            }
        }
        sw.engine().drain();
        MidstCollector.Event doneEvent = null;
        for (MidstCollector.Event e : sw.collector().events()) {
            if (e.kind() == MidstPipeline.KIND_CLEAN_DONE) {
                doneEvent = e;
                break;
            }
        }
        if (doneEvent == null) {
            throw new IllegalStateException("cleaning never finished");
        }
        long cleaned = checkClean(sw);
        long cycles = doneEvent.cycle() - START_CYCLE;
        long passes = sw.engine().counters().recirculations();
        return new Result(cycles, cycles * 1e3 / profile.clockHz(), passes, dataPackets, passes * MidstSwitch.PROBE_BYTES, cleaned);
    }

    private static boolean done(MidstSwitch sw) {
        for (MidstCollector.Event e : sw.collector().events()) {
            if (e.kind() == MidstPipeline.KIND_CLEAN_DONE) {
                return true;
            }
        }
        return false;
    }

    /**
     * The state right after a monitoring interval: both clean pointers at W (every word to
     * clean) and, as the worst case for the check at the end, every dirty bit set.
     */
    static void dirtyEverything(MidstSwitch sw) {
        MidstConfig cfg = sw.pipeline().config;
        sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.IN_CLEAN, 0, cfg.cleaningSteps(), 0);
        sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.OUT_CLEAN, 0, cfg.cleaningSteps(), 0);
        for (int i = 0; i < cfg.rows(); i++) {
            for (int w = 0; cfg.dirtyWords() && w < cfg.dirtyWordCount(); w++) {
                sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.inDirty(i), w, 0xFFFFFFFFL, 0);
                sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.outDirty(i), w, 0xFFFFFFFFL, 0);
            }
            for (int j = 0; j < cfg.columns(); j++) {
                sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.inCount(i), j, 1, 0);
                sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.outCount(i), j, 1, 0);
            }
        }
    }

    /**
     * Throws unless every dirty word (without dirty words: every counter) of both sketches is
     * zero; returns how many there are (all were set by {@link #dirtyEverything}).
     */
    public static long checkClean(MidstSwitch sw) {
        MidstConfig cfg = sw.pipeline().config;
        long cells = 0;
        for (int i = 0; i < cfg.rows(); i++) {
            List<String> arrays = cfg.dirtyWords() ? List.of(MidstPipeline.inDirty(i), MidstPipeline.outDirty(i))
                    : List.of(MidstPipeline.inCount(i), MidstPipeline.outCount(i));
            for (String a : arrays) {
                long[] words = sw.engine().state().snapshot(sw.pipe(), a);
                for (int w = 0; w < words.length; w++) {
                    if (words[w] != 0) {
                        throw new IllegalStateException(a + "[" + w + "] still dirty after cleaning");
                    }
                }
                cells += words.length;
            }
        }
        return cells;
    }
}
