package dev.rmtemu.emulator.capture;

import dev.rmtemu.emulator.engine.CycleClock;
import dev.rmtemu.emulator.engine.PacketTap;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.pcap.PcapngWriter;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The captures and packet log of one switch: egress.pcapng (interface N = egress port N, named
 * {@code portN}, each frame at its emulated departure in ns), drops.pcapng (interface N = the
 * ingress port, the drop cause as the packet's comment) and the packet log. Each file is opened
 * on its first packet, or at once when {@code eager} (a single switch always has both captures).
 */
final class SwitchCapture implements PacketTap {
    /** Output buffer of each capture file: enough frames per write, small enough for a large network. */
    static final int BUFFER_BYTES = 1 << 18;
    /** Bytes of a frame a capture keeps at most: the largest snap length a run carries. */
    static final int SNAP_BYTES = PacketRecord.MAX_FRAME_BYTES;

    private final SwitchEngine engine;
    private final CycleClock clock;
    private final RunDirectory rd;
    private final CaptureOptions options;
    private final String egressName;
    private final String dropsName;
    private final String logName;
    /** Where a frame is written before it goes to a file (this switch's own: switches may run on several threads). */
    private final UnsafeBuffer frame;
    private PcapngWriter egress;
    private PcapngWriter drops;
    /** The capture files' final paths, as a failure names them. */
    private final Path egressFile;
    private final Path dropsFile;
    private PacketLog log;
    /** Each drop cause's name in UTF-8, the comment of its packets, made on the cause's first drop. */
    private byte[][] causeComments = new byte[0][];
    /** Each link drop cause's comment in UTF-8, by the network's one instance of its name. */
    private final Map<String, byte[]> linkComments = new IdentityHashMap<>();
    private final List<String> opened = new ArrayList<>();

    SwitchCapture(SwitchEngine engine, RunDirectory rd, CaptureOptions options, String captureDir, String logName,
                  UnsafeBuffer frame, boolean eager) {
        this.engine = engine;
        this.clock = engine.clock();
        this.rd = rd;
        this.options = options;
        this.egressName = captureDir + RunCaptures.EGRESS;
        this.dropsName = captureDir + RunCaptures.DROPS;
        this.logName = logName;
        this.egressFile = rd.path().resolve(egressName);
        this.dropsFile = rd.path().resolve(dropsName);
        this.frame = frame;
        if (eager) {
            if (options.capture()) {
                egress();
                drops();
            }
            if (options.packetLog()) {
                log();
            }
        }
    }

    @Override
    public void departed(long packet, int ingressPort, long arrivalCycle, int port, int queue, long cycle,
                         PacketRecord record) {
        long ns = clock.cyclesToNs(cycle);
        if (options.capture()) {
            write(egress(), egressFile, port, ns, record, null);
        }
        if (options.packetLog()) {
            try {
                log().departed(packet, ingressPort, clock.cyclesToNs(arrivalCycle), port, ns, queue);
            } catch (IOException e) {
                throw RunDirectory.writeFailure(rd.path().resolve(logName), e, "write");
            }
        }
    }

    @Override
    public void dropped(long packet, int ingressPort, long arrivalCycle, int port, int queue, int cause, long cycle,
                        PacketRecord record) {
        long ns = clock.cyclesToNs(cycle);
        if (options.capture()) {
            write(drops(), dropsFile, ingressPort, ns, record, comment(cause));
        }
        if (options.packetLog()) {
            try {
                log().dropped(packet, ingressPort, clock.cyclesToNs(arrivalCycle), port, ns, queue,
                        engine.counters().causeName(cause));
            } catch (IOException e) {
                throw RunDirectory.writeFailure(rd.path().resolve(logName), e, "write");
            }
        }
    }

    @Override
    public void droppedOnLink(int port, long cycle, String cause, PacketRecord record) {
        if (options.capture()) {
            byte[] comment = linkComments.get(cause);
            if (comment == null) {
                comment = cause.getBytes(StandardCharsets.UTF_8);
                linkComments.put(cause, comment);
            }
            write(drops(), dropsFile, port, clock.cyclesToNs(cycle), record, comment);
        }
    }

    /**
     * Writes the frame {@code record} carries, in place: its bytes as the record holds them when
     * it leaves (what the deparser wrote), its wire length as the original length. A record
     * that carries no bytes (a trace store of the older format, a record built by hand or by a
     * program's packet generator) has its frame rebuilt from the headers it decoded, with valid
     * checksums, truncated after them ({@link FrameSynthesizer}); one that is not IP then has none.
     */
    private void write(PcapngWriter w, Path file, int iface, long ns, PacketRecord record, byte[] comment) {
        try {
            int carried = record.capturedLength();
            if (carried > 0) {
                w.writeFrame(iface, ns, record.buffer(), record.offset() + PacketRecord.FRAME_OFFSET, carried,
                        record.wireLength(), comment);
            } else if (record.ipVersion() == 4 || record.ipVersion() == 6) {
                int len = FrameSynthesizer.build(record, frame, 0, FrameSynthesizer.MAX_MIN_FRAME);
                w.writeFrame(iface, ns, frame, 0, len, FrameSynthesizer.wireLength(record), comment);
            } else {
                w.writeFrame(iface, ns, frame, 0, 0, record.wireLength(), comment);
            }
        } catch (UserError e) {
            throw failure(e, file);
        }
    }

    /** A capture writer's failed write: {@link dev.rmtemu.emulator.host.DiskFull} when the disk is full. */
    private static RuntimeException failure(UserError e, Path file) {
        if (e.getCause() instanceof IOException io) {
            return RunDirectory.writeFailure(file, io, "write");
        }
        return e;
    }

    private byte[] comment(int cause) {
        if (cause >= causeComments.length) {
            causeComments = Arrays.copyOf(causeComments, engine.counters().causeCount());
        }
        byte[] c = causeComments[cause];
        if (c == null) {
            c = engine.counters().causeName(cause).getBytes(StandardCharsets.UTF_8);
            causeComments[cause] = c;
        }
        return c;
    }

    private PcapngWriter egress() {
        if (egress == null) {
            egress = open(egressName, egressFile);
        }
        return egress;
    }

    private PcapngWriter drops() {
        if (drops == null) {
            drops = open(dropsName, dropsFile);
        }
        return drops;
    }

    private PcapngWriter open(String name, Path file) {
        Path temp = rd.openStream(name);
        opened.add(name);
        try {
            return new PcapngWriter(temp, SNAP_BYTES, BUFFER_BYTES, options.limit(), SwitchCapture::portName);
        } catch (UserError e) {
            throw failure(e, file);
        }
    }

    private PacketLog log() {
        if (log == null) {
            Path temp = rd.openStream(logName);
            opened.add(logName);
            try {
                log = new PacketLog(temp);
            } catch (IOException e) {
                throw RunDirectory.writeFailure(rd.path().resolve(logName), e, "create");
            }
        }
        return log;
    }

    /** The pcapng name of port (interface) {@code n}. */
    static String portName(int n) {
        return "port" + n;
    }

    /**
     * Closes the files; with {@code commit}, renames them into place and returns one warning per
     * capture file that reached its limit. Without, leaves them under their temporary names
     * (the next run, or the run directory's failure handling, removes them).
     */
    List<String> close(boolean commit) {
        List<String> warnings = new ArrayList<>();
        limitReached(warnings, egressName, egress);
        limitReached(warnings, dropsName, drops);
        RuntimeException first = null;
        try {
            closeWriter(egress, egressFile);
        } catch (RuntimeException e) {
            first = e;
        }
        try {
            closeWriter(drops, dropsFile);
        } catch (RuntimeException e) {
            first = first == null ? e : first;
        }
        if (log != null) {
            try {
                log.close();
            } catch (IOException e) {
                first = first == null ? RunDirectory.writeFailure(rd.path().resolve(logName), e, "write") : first;
            }
        }
        egress = null;
        drops = null;
        log = null;
        if (first != null) {
            throw first;
        }
        if (commit) {
            for (String name : opened) {
                rd.commit(name);
            }
        }
        return warnings;
    }

    private void limitReached(List<String> warnings, String name, PcapngWriter w) {
        if (w != null && w.notWritten() > 0) {
            warnings.add(name + ": capture limit of " + options.limit() + " packets reached; " + w.notWritten()
                    + " more were not written (--capture-limit)");
        }
    }

    private static void closeWriter(PcapngWriter w, Path file) {
        if (w == null) {
            return;
        }
        try {
            w.close();
        } catch (UserError e) {
            throw failure(e, file);
        }
    }
}
