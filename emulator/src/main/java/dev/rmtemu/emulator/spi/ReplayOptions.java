package dev.rmtemu.emulator.spi;

import dev.rmtemu.emulator.capture.CaptureOptions;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.target.TargetProfiles;

import dev.rmtemu.emulator.network.NetworkOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a replay depends on. Two runs with equal options produce the same
 * report.json (apart from its {@code host} key), journal and histograms.
 *
 * @param timing      original, multiplier:X, scaled:X, rate:100G, pps:N, topspeed or back-to-back (see ArrivalTiming)
 * @param ports       front-panel ports (0 = every port of the target)
 * @param portGbps    rate of every front-panel port
 * @param maxPackets  stop after this many packets (0 = the whole trace)
 * @param out         run directory, or null to write nothing
 * @param control     control-plane script applied before and during the run (see ControlScript), or null
 * @param topology    topology spec (file or builtin:NAME?...) to replay through a network
 *                    instead of one switch, or null; {@code program} may then be null (each
 *                    switch runs its topology program)
 * @param force       write into a non-empty {@code out} that is not a run directory (its files stay)
 * @param maxHops     switch hops a packet may take in a network replay before it is dropped as
 *                    {@code hop_limit} (see NetworkOptions#DEFAULT_MAX_HOPS)
 * @param saveRegisters save the register arrays into the run directory even when they are over
 *                    {@link SavedRegisters#ALWAYS_SAVE_BYTES} (smaller ones are always saved)
 * @param snapLength  bytes of each frame the ring and the switches carry (a longer frame is carried
 *                    truncated, with its wire length); {@link #WINDOW_SNAP} = the target's parser window
 * @param loops       passes over the trace, back to back, each one's timestamps shifted past the one
 *                    before (tcpreplay's {@code --loop}; 1 = once)
 * @param capture     the captures and packet log to write into {@code out} ({@link CaptureOptions#NONE}: none)
 * @param p4          how a {@code program} given as {@code FILE.p4} is preprocessed ({@code -I}, {@code -D}), or
 *                    null for no include directories and no macros (see {@link #p4Options()})
 * @param threads     threads a network replay runs its switches on ({@link NetworkOptions#AUTO_THREADS}: the
 *                    cores available); no output depends on it
 */
public record ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                            long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                            boolean progress, Path control, String topology, boolean force, int maxHops,
                            boolean saveRegisters, int snapLength, int loops, CaptureOptions capture,
                            PreprocessorOptions p4, int threads) {
    /** {@link #snapLength()} meaning: the parser window of the target (of the largest, in a network). */
    public static final int WINDOW_SNAP = NetworkOptions.WINDOW_SNAP;

    /** Default port rate: a 100 Gb/s link, the rate rmtemu aims to beat in real time. */
    public static final double DEFAULT_PORT_GBPS = 100;
    public static final String DEFAULT_TIMING = "original";

    public ReplayOptions {
        params = new TreeMap<>(params);
        if (loops < 1) {
            throw new IllegalArgumentException("loops must be at least 1, got " + loops);
        }
        if (capture == null) {
            capture = CaptureOptions.NONE;
        }
    }

    /** With as many network threads as cores. */
    public ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                         long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                         boolean progress, Path control, String topology, boolean force, int maxHops,
                         boolean saveRegisters, int snapLength, int loops, CaptureOptions capture,
                         PreprocessorOptions p4) {
        this(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out, progress, control,
                topology, force, maxHops, saveRegisters, snapLength, loops, capture, p4, NetworkOptions.AUTO_THREADS);
    }

    /** Without captures or a packet log. */
    public ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                         long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                         boolean progress, Path control, String topology, boolean force, int maxHops,
                         boolean saveRegisters, int snapLength) {
        this(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out, progress, control,
                topology, force, maxHops, saveRegisters, snapLength, 1, CaptureOptions.NONE, null);
    }

    /** With the parser window's snap length and {@code capture} as the captures and packet log. */
    public ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                         long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                         boolean progress, Path control, String topology, boolean force, int maxHops,
                         boolean saveRegisters, CaptureOptions capture) {
        this(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out, progress, control,
                topology, force, maxHops, saveRegisters, WINDOW_SNAP, 1, capture, null);
    }

    /** The preprocessor options of a {@code FILE.p4} program: {@link #p4} or none, {@code __TARGET_TOFINO__} from {@link #target}. */
    public PreprocessorOptions p4Options() {
        int generation = PreprocessorOptions.tofinoGeneration(TargetProfiles.load(target).name());
        return p4 == null ? new PreprocessorOptions(List.of(), List.of(), generation)
                : new PreprocessorOptions(p4.includeDirs(), p4.defines(), generation);
    }

    /** These options with {@code c} as the captures and packet log. */
    public ReplayOptions withCapture(CaptureOptions c) {
        return new ReplayOptions(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out,
                progress, control, topology, force, maxHops, saveRegisters, snapLength, loops, c, p4, threads);
    }

    /** With the parser window's snap length, one pass over the trace. */
    public ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                         long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                         boolean progress, Path control, String topology, boolean force, int maxHops,
                         boolean saveRegisters) {
        this(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out, progress, control,
                topology, force, maxHops, saveRegisters, WINDOW_SNAP, 1, CaptureOptions.NONE, null);
    }

    /** Without --save-registers (arrays over {@link SavedRegisters#ALWAYS_SAVE_BYTES} are not saved). */
    public ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                         long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                         boolean progress, Path control, String topology, boolean force, int maxHops) {
        this(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out, progress, control,
                topology, force, maxHops, false);
    }

    /** Without --force and with the default hop budget. */
    public ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                         long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                         boolean progress, Path control, String topology) {
        this(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out, progress, control,
                topology, false, NetworkOptions.DEFAULT_MAX_HOPS);
    }

    /** A single-switch replay without a control script. */
    public ReplayOptions(String program, Map<String, String> params, String target, String trace, String timing,
                         long seed, int ports, double portGbps, boolean enforce, long maxPackets, Path out,
                         boolean progress) {
        this(program, params, target, trace, timing, seed, ports, portGbps, enforce, maxPackets, out, progress, null, null);
    }
}
