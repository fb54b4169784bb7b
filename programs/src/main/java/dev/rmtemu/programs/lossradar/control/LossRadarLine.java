package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.LossRadarHeader;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;
import dev.rmtemu.programs.lossradar.program.MeterDigest;
import dev.rmtemu.programs.lossradar.program.Signature;
import dev.rmtemu.programs.lossradar.reference.LossRadarMeter;

import dev.rmtemu.emulator.tm.PortConfig;
import java.util.Map;
import java.util.TreeMap;
import dev.rmtemu.emulator.engine.CycleClock;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.impair.GroundTruthLog;
import dev.rmtemu.traces.impair.Impairment;
import dev.rmtemu.traces.impair.ImpairmentDecision;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Two switches in a line with a lossy link: switch A runs the upstream meter and
 * sends everything out of port {@code config.port()}; the link (latency, an
 * impairment with its ground-truth log) delivers to port 0 of switch B, which runs
 * the downstream meter and its ACL. Both export digests into one journal; the
 * collector decodes them. A's departures do not depend on B, so A runs first and
 * B after, on the same cycle clock: the same result as one shared timeline.
 *
 * <p>The plain-Java meters run alongside on exactly what each switch's ingress
 * saw (A: every trace packet; B: every packet the link delivered, with the shim
 * it carried on the wire), so tests can compare the switches' digests with theirs.
 */
public final class LossRadarLine {
    public static final int SWITCH_A = 0;
    public static final int SWITCH_B = 1;
    /** Port of A the hosts send into, and port of B the link arrives on. */
    public static final int HOST_PORT = 0;
    public static final int LINK_PORT = 0;
    public static final double DEFAULT_PORT_GBPS = 100;
    public static final long DEFAULT_LINK_LATENCY_NS = 1_000;
    /** Control-plane polls per batch. */
    public static final int TICKS_PER_BATCH = 8;

    /** An ACL rule on B: destination value/mask and protocol (0: any). */
    public record AclRule(int dst, int dstMask, int proto, int priority) {
    }

    /** Cause of a ground-truth loss dropped by switch A's traffic manager (queue full); link drops carry their impairment's position. */
    public static final int CAUSE_QUEUE = -1;

    /**
     * What a run produced. {@code groundTruth} is sorted, {@code truthCauses} parallel to it
     * ({@link #CAUSE_QUEUE} or the position of the link impairment that dropped the packet).
     */
    public record Result(List<LossRadarCollector.BatchReport> reports, List<LostPacket> groundTruth, List<Integer> truthCauses,
                         List<MeterDigest> switchDigests, List<MeterDigest> referenceDigests,
                         long linkCarried, long aclDropped, long deliveredByB) {
    }

    private final LossRadarConfig config;
    private final String target;
    private final boolean enforce;
    private final List<AclRule> acl = new ArrayList<>();
    private long linkLatencyNs = DEFAULT_LINK_LATENCY_NS;
    private double egressGbps = DEFAULT_PORT_GBPS;
    private int queueLimitCells = PortConfig.DEFAULT_QUEUE_LIMIT_CELLS;
    private int[] hostPorts = {HOST_PORT};

    public LossRadarLine(LossRadarConfig config, String target, boolean enforce) {
        this.config = config;
        this.target = target;
        this.enforce = enforce;
    }

    public LossRadarLine acl(AclRule r) {
        acl.add(r);
        return this;
    }

    public LossRadarLine linkLatencyNs(long ns) {
        this.linkLatencyNs = ns;
        return this;
    }

    /** Switch A's port rate and per-queue tail-drop limit (80 B cells): a slow, shallow port drops incast bursts. */
    public LossRadarLine egress(double gbps, int queueCells) {
        this.egressGbps = gbps;
        this.queueLimitCells = queueCells;
        return this;
    }

    /**
     * Switch A's ports the hosts send into (default {@link #HOST_PORT} alone). A flow keeps its
     * port (chosen from its addresses and ports), so with ports in several pipes the upstream
     * meter's packets are spread over several ingress pipes.
     */
    public LossRadarLine hostPorts(int... ports) {
        if (ports.length == 0) {
            throw new IllegalArgumentException("at least one host port");
        }
        this.hostPorts = ports.clone();
        return this;
    }

    /** Switch A's port for a trace packet: the same for every packet of a flow. */
    int hostPort(PacketRecord r) {
        if (hostPorts.length == 1) {
            return hostPorts[0];
        }
        long mix = (r.srcIpv4() * 0x9E3779B97F4A7C15L) ^ (r.dstIpv4() * 0xC2B2AE3D27D4EB4FL)
                ^ (((long) r.srcPort() << 16) | r.dstPort()) * 0x165667B19E3779F9L;
        return hostPorts[(int) Long.remainderUnsigned(mix ^ (mix >>> 29), hostPorts.length)];
    }

    /** Runs {@code trace} (timestamps in ns from 0) through the line, the link impaired by {@code link}. */
    public Result run(RecordBuffer trace, Impairment link, Path runDir) {
        TargetProfile profile = TargetProfiles.load(target);
        StageProgram um = new LossRadarProgram.Upstream().build(config, LossRadarProgram.DEFAULT_ACL_ENTRIES, null);
        StageProgram dm = new LossRadarProgram.Downstream().build(config, Math.max(LossRadarProgram.DEFAULT_ACL_ENTRIES, acl.size()), null);
        int ports = Math.max(config.ports(), config.port() + 1);
        for (int h : hostPorts) {
            ports = Math.max(ports, h + 1);
        }
        PortConfig aPorts = PortConfig.strictPriority(egressGbps);
        aPorts = aPorts.withLimits(queueLimitCells, Math.max(queueLimitCells, aPorts.portLimitCells()));
        SwitchEngine a = new SwitchEngine(new SwitchConfig(profile, um, ports, aPorts, enforce));
        SwitchEngine b = new SwitchEngine(new SwitchConfig(profile, dm, ports,
                PortConfig.strictPriority(DEFAULT_PORT_GBPS), enforce));
        int out = config.port();
        b.forwarding((in, rec) -> out);
        for (AclRule r : acl) {
            b.state().addTernary(LossRadarProgram.ACL_TABLE,
                    new long[] {r.dst() & 0xFFFFFFFFL, r.proto()},
                    new long[] {r.dstMask() & 0xFFFFFFFFL, r.proto() == 0 ? 0 : 0xFF},
                    r.priority(), LossRadarProgram.ACL_DENY, 0);
        }
        JournalKinds kinds = new JournalKinds();
        LossRadarExport.registerKinds(kinds);
        CycleClock clock = a.clock();
        LossRadarMeter refUm = new LossRadarMeter(config, SWITCH_A, MeterDigest.UM);
        LossRadarMeter refDm = new LossRadarMeter(config, SWITCH_B, MeterDigest.DM);
        TreeMap<LostPacket, Integer> truth = new TreeMap<>();
        TreeMap<LostPacket, Integer> sentByA = new TreeMap<>();
        long lastNs = trace.size() == 0 ? 0 : trace.get(trace.size() - 1).timestampNs();
        long untilNs = lastNs + 3 * config.batchNs() + config.timeoutNs();
        long tickNs = Math.max(1, config.batchNs() / TICKS_PER_BATCH);
        RecordBuffer departures = new RecordBuffer();
        long carried = 0;
        try (ExportJournal journal = ExportJournal.create(runDir, kinds)) {
            LossRadarExport exA = new LossRadarExport(a, config, LossRadarProgram.Role.UM, journal, SWITCH_A);
            LossRadarExport exB = new LossRadarExport(b, config, LossRadarProgram.Role.DM, journal, SWITCH_B);
            a.onDeparture((cycle, port, slot, pool) -> departures.add(pool.record(slot), cycle, 0));
            exA.scheduleTicks(tickNs, untilNs);
            SwitchFeed feedA = new SwitchFeed(a);
            for (int i = 0; i < trace.size(); i++) {
                PacketRecord r = trace.get(i);
                long cycle = feedA.cycleAt(r.timestampNs());
                refUm.upstream(r, out, clock.cyclesToNs(cycle));
                feedA.arriveAtCycle(cycle, hostPort(r), r);
            }
            a.drain();
            int[] sig = new int[config.words()];
            if (a.counters().droppedTotal() > 0) {
                // A's traffic manager dropped packets after its UM saw them: ground truth by signature
                for (int i = 0; i < trace.size(); i++) {
                    PacketRecord r = trace.get(i);
                    long ns = clock.cyclesToNs(clock.nsToCycles(r.timestampNs()));
                    Signature.of(r, r.ttl(), Signature.timestamp(ns), config, sig);
                    sentByA.merge(new LostPacket(sig), 1, Integer::sum);
                }
                for (int i = 0; i < departures.size(); i++) {
                    PacketRecord r = departures.get(i);
                    Signature.of(r, r.ttl(), config.timestamp() ? LossRadarHeader.tstamp(r) : 0, config, sig);
                    sentByA.merge(new LostPacket(sig), -1, Integer::sum);
                }
                for (Map.Entry<LostPacket, Integer> e : sentByA.entrySet()) {
                    if (e.getValue() > 0) {
                        truth.put(e.getKey(), CAUSE_QUEUE);
                    }
                }
            }
            exA.flush(a.state(), clock.nsToCycles(untilNs) + 1);

            exB.scheduleTicks(tickNs, untilNs);
            ImpairmentDecision d = new ImpairmentDecision();
            GroundTruthLog log = new GroundTruthLog();
            long latency = Math.max(1, clock.nsToCyclesCeil(linkLatencyNs));
            for (int i = 0; i < departures.size(); i++) {
                PacketRecord r = departures.get(i);
                // what A's UM wrote into the shim on the wire
                long batch = LossRadarHeader.batch(r);
                int ts = config.timestamp() ? LossRadarHeader.tstamp(r) : 0;
                long index = carried++;
                d.reset();
                link.decide(r, index, d);
                if (d.dropped()) {
                    log.add(index, GroundTruthLog.DROP, d.dropCause());
                    Signature.of(r, r.ttl(), ts, config, sig);
                    truth.put(new LostPacket(sig), d.dropCause());
                    continue;
                }
                int upstream = config.blackBox() ? LossRadarHeader.meter(r) : 0;
                refDm.downstream(r, LINK_PORT, batch, ts, upstream);
                b.scheduleArrival(departures.tagA(i) + latency, LINK_PORT, r);
            }
            b.drain();
            exB.flush(b.state(), clock.nsToCycles(untilNs) + 1);
        }
        List<MeterDigest> exported = LossRadarCollector.read(runDir.resolve("journal"));
        LossRadarCollector collector = new LossRadarCollector(List.of(
                new LossRadarCollector.MeterLink("A:" + out + "->B:" + LINK_PORT, SWITCH_A, out, SWITCH_B, LINK_PORT)));
        List<LossRadarCollector.BatchReport> reports = collector.decode(exported);
        List<MeterDigest> ref = new ArrayList<>(refUm.closeAll());
        ref.addAll(refDm.closeAll());
        return new Result(reports, List.copyOf(truth.keySet()), List.copyOf(truth.values()), exported, ref, carried,
                b.counters().droppedFor(SwitchEngine.DROP_INGRESS), b.counters().packetsOut());
    }
}
