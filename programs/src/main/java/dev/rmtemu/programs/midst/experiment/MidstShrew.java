package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.midst.control.MidstCollector;
import dev.rmtemu.programs.midst.control.MidstLossQuery;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.emulator.tm.TrafficManagerConfig;
import dev.rmtemu.model.UserError;
import java.util.ArrayList;
import java.util.List;
import dev.rmtemu.emulator.engine.EventQueue;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;

/**
 * Experiment (c), a shrew (low-rate DoS) attack on a MIDST switch: {@link Spec#tcpFlows}
 * TCP-like flows ({@link TcpLikeFlows}) with RTTs spread evenly over [rttMin, rttMax] share
 * the monitored port, each capped by a receive window so that together they offer
 * {@link Spec#tcpLoad} of the port's rate (no congestion without the attack); UDP attackers
 * send line-rate bursts of {@link Spec#burstNs} every {@link Spec#periodsNs} into the same
 * port. The loop is closed: a TCP flow's ACK comes back one RTT after its packet leaves the
 * port, so its sending reacts to the drops the traffic manager made. Reactive monitoring and
 * cleaning run from probes as in experiment (a); the collector's per-packet reports name
 * heavy losers (victims: reported loss at least the threshold and not bursty) and bursty
 * flows (attackers: an S_in estimate at least the burst threshold in some monitoring epoch).
 * With a query interval instead, monitoring is held on and the control plane reads S_in and
 * S_out every interval ({@link MidstLossQuery}): victims and attackers come from the summed
 * per-interval S_loss and the largest per-interval S_in estimate.
 */
public final class MidstShrew {
    /** Sources: TCP flow f is 10.128.0.0 + f (as {@link MidstTraffic}); attacker a is 10.200.0.0 + a. */
    public static final int ATTACK_BASE = 0x0AC80000;
    public static final int ATTACK_SRC_PORT = 40_000;
    private static final int WIRE_OVERHEAD_BYTES = TrafficManagerConfig.ETHERNET_OVERHEAD_BYTES;

    private static final long SEND = 0;
    private static final long ACK = 1;
    private static final long TIMER = 2;
    private static final long ATTACK = 3;
    private static final int TYPE_SHIFT = 60;

    /**
     * @param tcpFlows     TCP-like flows
     * @param rttMinNs     RTT of flow 0; flow i has rttMin + i (rttMax − rttMin) / (n − 1)
     * @param rttMaxNs     RTT of the last flow
     * @param minRtoNs     lower bound of every flow's retransmission timeout
     * @param tcpLoad      share of the port's rate the TCP flows' receive windows allow together
     * @param periodsNs    one attacker per period: a burst starts every period
     * @param burstNs      burst length
     * @param attackGbps   attackers' sending rate during a burst
     * @param attackStartNs first burst of every attacker
     * @param durationNs   senders stop here
     * @param packetBytes  frame size of every packet
     * @param portGbps     rate of every port (the monitored one is the bottleneck)
     * @param queueCells   tail-drop limit of the monitored queue
     * @param probeNs      probe interval for reactive monitoring
     */
    public record Spec(int tcpFlows, long rttMinNs, long rttMaxNs, long minRtoNs, double tcpLoad, long[] periodsNs,
                       long burstNs, double attackGbps, long attackStartNs, long durationNs, int packetBytes,
                       double portGbps, int queueCells, long probeNs) {
    }

    /** What happened and what MIDST reported. */
    public record Result(long packets, long drops, long tcpDrops, long attackDrops, long tcpTimeouts, double tcpGbps,
                         int victimsTrue, int victimsReported, int victimsHit, int attackers, int attackersReported,
                         int attackersHit, long lossThreshold, int monitorIntervals, Target target) {
        public double victimPrecision() {
            return victimsReported == 0 ? 1 : (double) victimsHit / victimsReported;
        }

        public double victimRecall() {
            return victimsTrue == 0 ? 1 : (double) victimsHit / victimsTrue;
        }

        public double attackerPrecision() {
            return attackersReported == 0 ? 1 : (double) attackersHit / attackersReported;
        }

        public double attackerRecall() {
            return attackers == 0 ? 1 : (double) attackersHit / attackers;
        }
    }

    /**
     * The paper's view of a shrew attack: the TCP flow whose RTT is nearest the (first)
     * attack period is the one it targets. Its share of packets lost and its throughput,
     * and the RTT of the TCP flow MIDST reports with the largest loss (0 when none).
     */
    public record Target(int flow, long rttNs, double lossRate, double gbps, long topLoserRttNs) {
        public boolean topLoserIsTarget() {
            return topLoserRttNs == rttNs;
        }
    }

    private final Spec spec;
    private final long[] rtts;
    private final MidstSwitch sw;
    private final SwitchEngine engine;
    private final SwitchFeed feed;
    private final TcpLikeFlows tcp;
    private final EventHeap events = new EventHeap();
    private final boolean[] sendPending;
    private final boolean[] timerPending;
    private final long[] timerAt;
    private final int[] tcpPorts;
    private final int[] attackPorts;
    private final int[] tcpDeparted;
    private final int[] tcpLastSeq;
    private final int[] attackSent;
    private final int[] attackDeparted;
    private final int[] attackLastSeq;
    private final long attackGapNs;
    private final long rttMinNs;
    private final PacketRecord rec = PacketRecord.allocate();
    private final long queryNs;
    private final List<MidstLossQuery> snapshots = new ArrayList<>();
    private long packets;

    /**
     * @param queryNs 0: reactive monitoring and per-packet reports; otherwise monitoring held on and
     *                an end-of-interval S_loss query every {@code queryNs}
     */
    public MidstShrew(Spec spec, MidstConfig cfg, TargetProfile profile, long queryNs) {
        this.spec = spec;
        this.queryNs = queryNs;
        this.sw = new MidstSwitch(cfg, profile, spec.portGbps(), spec.queueCells());
        this.engine = sw.engine();
        this.feed = new SwitchFeed(engine);
        int n = spec.tcpFlows();
        long[] rtt = new long[n];
        for (int f = 0; f < n; f++) {
            rtt[f] = n == 1 ? spec.rttMinNs() : spec.rttMinNs() + (spec.rttMaxNs() - spec.rttMinNs()) * f / (n - 1);
        }
        this.rtts = rtt;
        this.rttMinNs = Math.max(1, spec.rttMinNs());
        long serialisation = (long) Math.ceil((spec.packetBytes() + WIRE_OVERHEAD_BYTES) * 8 / spec.portGbps());
        this.tcp = new TcpLikeFlows(rtt, spec.minRtoNs(), serialisation, receiveWindows(spec, rtt));
        this.attackGapNs = (long) Math.ceil((spec.packetBytes() + WIRE_OVERHEAD_BYTES) * 8 / spec.attackGbps());
        this.sendPending = new boolean[n];
        this.timerPending = new boolean[n];
        this.timerAt = new long[n];
        this.tcpDeparted = new int[n];
        this.tcpLastSeq = new int[n];
        int a = spec.periodsNs().length;
        this.attackSent = new int[a];
        this.attackDeparted = new int[a];
        this.attackLastSeq = new int[a];
        // ports 0..2: spare, monitored, collector; TCP senders on the next ones, attackers on the last of the pipe
        int perPipe = profile.portsPerPipe();
        this.attackPorts = new int[a];
        for (int i = 0; i < a; i++) {
            attackPorts[i] = perPipe - 1 - i;
        }
        int tcpPortCount = perPipe - 3 - a;
        if (tcpPortCount < 1) {
            throw new UserError("experiment midst: " + a + " attackers leave no input port for TCP in a pipe of "
                    + perPipe + " ports");
        }
        this.tcpPorts = new int[n];
        for (int f = 0; f < n; f++) {
            tcpPorts[f] = 3 + f % tcpPortCount;
        }
        int dataPort = cfg.dataPort();
        sw.onDeparture((c, port, s, pool) -> {
            if (port != dataPort) {
                return;
            }
            PacketRecord r = pool.record(s);
            int seq = r.tcpSeq();
            int src = r.srcIpv4();
            if (r.protocol() == PacketRecord.PROTO_UDP) {
                int id = src - ATTACK_BASE;
                attackDeparted[id]++;
                attackLastSeq[id] = seq;
                return;
            }
            int f = src - MidstTraffic.FLOW_BASE;
            tcpDeparted[f]++;
            tcpLastSeq[f] = seq;
            events.push(engine.clock().cyclesToNs(c) + tcp.rttNs(f), (ACK << TYPE_SHIFT) | ((long) f << 32) | (seq & 0xFFFFFFFFL));
        });
    }

    /** Receive windows: flow f may have load × (port rate / n) × RTT_f in flight (at least 2 packets). */
    static int[] receiveWindows(Spec spec, long[] rttNs) {
        int[] w = new int[rttNs.length];
        double perFlowBitsPerNs = spec.tcpLoad() * spec.portGbps() / rttNs.length;
        double bitsPerPacket = (spec.packetBytes() + WIRE_OVERHEAD_BYTES) * 8.0;
        for (int f = 0; f < w.length; f++) {
            w[f] = Math.max(2, (int) Math.round(perFlowBitsPerNs * rttNs[f] / bitsPerPacket));
        }
        return w;
    }

    public MidstSwitch switchUnderTest() {
        return sw;
    }

    /** Runs the scenario to the end and drains the switch. */
    public Result run(long lossFractionPpm, long burstThreshold) {
        if (queryNs > 0) {
            sw.monitorAlways();
            for (long at = queryNs; at <= spec.durationNs(); at += queryNs) {
                engine.scheduleControl(engine.clock().nsToCycles(at), (state, cycle) -> snapshots.add(MidstLossQuery.read(sw)));
            }
        } else {
            long probeCycles = Math.max(1, engine.clock().nsToCycles(spec.probeNs()));
            long durationCycles = engine.clock().nsToCycles(spec.durationNs());
            sw.startProbes(0, probeCycles, durationCycles / probeCycles);
        }
        for (int f = 0; f < spec.tcpFlows(); f++) {
            wantSend(f, 0);
        }
        for (int a = 0; a < spec.periodsNs().length; a++) {
            events.push(spec.attackStartNs(), (ATTACK << TYPE_SHIFT) | a);
        }
        long engineNs = 0;
        while (!events.isEmpty()) {
            long t = events.peekTime();
            if (t > spec.durationNs()) {
                break;
            }
            // let the switch catch up in steps shorter than any RTT, so every ACK it produces is still in the future
            if (t > engineNs + rttMinNs) {
                engineNs += rttMinNs;
                engine.runUntil(engine.clock().nsToCycles(engineNs), EventQueue.Phase.PORT_ARRIVAL);
                continue;
            }
            engine.runUntil(engine.clock().nsToCycles(t), EventQueue.Phase.PORT_ARRIVAL);
            engineNs = Math.max(engineNs, t);
            long p = events.peekPayload();
            events.pop();
            int type = (int) (p >>> TYPE_SHIFT);
            int f = (int) ((p >>> 32) & 0xFFFFFFF);
            switch (type) {
                case (int) SEND -> {
                    f = (int) p;
                    sendPending[f] = false;
                    if (tcp.sendTime(f, t) == t) {
                        sendTcp(f, t);
                    }
                    wantSend(f, t);
                    armTimer(f);
                }
                case (int) ACK -> {
                    tcp.ack(f, (int) p, t);
                    wantSend(f, t);
                    armTimer(f);
                }
                case (int) TIMER -> {
                    f = (int) p;
                    if (!timerPending[f] || t != timerAt[f]) {
                        break; // superseded by an earlier deadline
                    }
                    timerPending[f] = false;
                    long at = tcp.timeoutAt(f);
                    if (at >= 0 && at <= t) {
                        tcp.timeout(f, t);
                        wantSend(f, t);
                    }
                    armTimer(f);
                }
                default -> attack((int) p, t);
            }
        }
        engine.drain();
        engine.checkConservation();
        if (queryNs > 0) {
            snapshots.add(MidstLossQuery.read(sw)); // the last interval ends when the port has drained
        }
        return result(lossFractionPpm, burstThreshold);
    }

    private void wantSend(int f, long now) {
        if (sendPending[f]) {
            return;
        }
        long at = tcp.sendTime(f, now);
        if (at >= 0 && at <= spec.durationNs()) {
            sendPending[f] = true;
            events.push(at, (SEND << TYPE_SHIFT) | f);
        }
    }

    /** Keeps one live timer event per flow, at or before its deadline (a later one fires, finds progress and re-arms). */
    private void armTimer(int f) {
        long at = tcp.timeoutAt(f);
        if (at < 0 || (timerPending[f] && timerAt[f] <= at)) {
            return;
        }
        timerPending[f] = true;
        timerAt[f] = at;
        events.push(at, (TIMER << TYPE_SHIFT) | f);
    }

    private void sendTcp(int f, long t) {
        int seq = tcp.send(f, t);
        rec.clear();
        rec.timestampNs(t).wireLength(spec.packetBytes()).ipVersion(4).protocol(PacketRecord.PROTO_TCP)
                .srcIpv4(MidstTraffic.FLOW_BASE + f).dstIpv4(MidstTraffic.DST).srcPort(MidstTraffic.SRC_PORT_BASE + f)
                .dstPort(MidstTraffic.DST_PORT).ttl(64).tcpSeq(seq);
        feed.arrive(t, tcpPorts[f], rec);
        packets++;
    }

    private void attack(int a, long t) {
        long period = spec.periodsNs()[a];
        long sinceStart = t - spec.attackStartNs();
        long burstStart = spec.attackStartNs() + sinceStart / period * period;
        if (t < burstStart + spec.burstNs()) {
            rec.clear();
            rec.timestampNs(t).wireLength(spec.packetBytes()).ipVersion(4).protocol(PacketRecord.PROTO_UDP)
                    .srcIpv4(ATTACK_BASE + a).dstIpv4(MidstTraffic.DST).srcPort(ATTACK_SRC_PORT + a)
                    .dstPort(MidstTraffic.DST_PORT).ttl(64).tcpSeq(++attackSent[a]);
            feed.arrive(t, attackPorts[a], rec);
            packets++;
            long next = t + attackGapNs;
            events.push(next < burstStart + spec.burstNs() ? next : burstStart + period, (ATTACK << TYPE_SHIFT) | a);
        } else {
            events.push(burstStart + period, (ATTACK << TYPE_SHIFT) | a);
        }
    }

    private Target target(long[] repLoss) {
        int n = spec.tcpFlows();
        long period = spec.periodsNs().length == 0 ? 0 : spec.periodsNs()[0];
        int target = 0;
        int top = -1;
        for (int f = 0; f < n; f++) {
            if (Math.abs(rtts[f] - period) < Math.abs(rtts[target] - period)) {
                target = f;
            }
            if (repLoss[f] > 0 && (top < 0 || repLoss[f] > repLoss[top])) {
                top = f;
            }
        }
        long sent = tcp.sent(target);
        double lossRate = sent == 0 ? 0 : (double) (sent - tcpDeparted[target]) / sent;
        double gbps = (double) tcpDeparted[target] * spec.packetBytes() * 8 / spec.durationNs();
        return new Target(target, rtts[target], lossRate, gbps, top < 0 ? 0 : rtts[top]);
    }

    /** Per flow: S_loss summed over the query intervals, and the largest per-interval S_in estimate. */
    private void queryEstimates(long[] loss, long[] burst, long[] attLoss, long[] attBurst) {
        for (int k = 0; k < snapshots.size(); k++) {
            MidstLossQuery q = k == 0 ? snapshots.get(0) : snapshots.get(k).minus(snapshots.get(k - 1));
            for (int f = 0; f < loss.length; f++) {
                MidstLossQuery.FlowKey key = new MidstLossQuery.FlowKey(MidstTraffic.FLOW_BASE + f, MidstTraffic.DST,
                        PacketRecord.PROTO_TCP, MidstTraffic.SRC_PORT_BASE + f, MidstTraffic.DST_PORT);
                loss[f] += q.loss(key);
                burst[f] = Math.max(burst[f], q.arrivals(key));
            }
            for (int i = 0; i < attLoss.length; i++) {
                MidstLossQuery.FlowKey key = new MidstLossQuery.FlowKey(ATTACK_BASE + i, MidstTraffic.DST, PacketRecord.PROTO_UDP,
                        ATTACK_SRC_PORT + i, MidstTraffic.DST_PORT);
                attLoss[i] += q.loss(key);
                attBurst[i] = Math.max(attBurst[i], q.arrivals(key));
            }
        }
    }

    private Result result(long lossFractionPpm, long burstThreshold) {
        int n = spec.tcpFlows();
        int a = spec.periodsNs().length;
        long tcpDrops = 0;
        long attackDrops = 0;
        long timeouts = 0;
        long tcpDeliveredBits = 0;
        for (int f = 0; f < n; f++) {
            tcpDrops += tcp.sent(f) - tcpDeparted[f];
            timeouts += tcp.timeouts(f);
            tcpDeliveredBits += (long) tcpDeparted[f] * spec.packetBytes() * 8;
        }
        for (int i = 0; i < a; i++) {
            attackDrops += attackSent[i] - attackDeparted[i];
        }
        long drops = tcpDrops + attackDrops;
        long threshold = Math.max(1, (drops * lossFractionPpm + 999_999) / 1_000_000);
        long[] repLoss = new long[n];
        long[] repBurst = new long[n];
        long[] attLoss = new long[a];
        long[] attBurst = new long[a];
        if (queryNs > 0) {
            queryEstimates(repLoss, repBurst, attLoss, attBurst);
        }
        for (MidstCollector.FlowReport r : queryNs > 0 ? List.<MidstCollector.FlowReport>of() : sw.collector().flows()) {
            if (r.proto() == PacketRecord.PROTO_UDP) {
                int id = r.src() - ATTACK_BASE;
                if (id >= 0 && id < a) {
                    attLoss[id] = r.loss();
                    attBurst[id] = r.burst();
                }
            } else {
                int f = r.src() - MidstTraffic.FLOW_BASE;
                if (f >= 0 && f < n) {
                    repLoss[f] = r.loss();
                    repBurst[f] = r.burst();
                }
            }
        }
        int victimsTrue = 0;
        int victimsReported = 0;
        int victimsHit = 0;
        int attackersReported = 0;
        int attackersHit = 0;
        for (int f = 0; f < n; f++) {
            // per-packet reports see drops followed by a departure of the flow; the query sees every drop
            long truth = queryNs > 0 ? tcp.sent(f) - tcpDeparted[f] : tcpLastSeq[f] - tcpDeparted[f];
            boolean victim = truth >= threshold;
            boolean saysVictim = repLoss[f] >= threshold && repBurst[f] < burstThreshold;
            victimsTrue += victim ? 1 : 0;
            victimsReported += saysVictim ? 1 : 0;
            victimsHit += victim && saysVictim ? 1 : 0;
            attackersReported += repBurst[f] >= burstThreshold ? 1 : 0; // a TCP flow named as an attacker
        }
        for (int i = 0; i < a; i++) {
            boolean saysAttacker = attBurst[i] >= burstThreshold;
            attackersReported += saysAttacker ? 1 : 0;
            attackersHit += saysAttacker ? 1 : 0;
            victimsReported += attLoss[i] >= threshold && !saysAttacker ? 1 : 0; // an attacker named as a victim
        }
        int intervals = queryNs > 0 ? snapshots.size() : 0;
        for (MidstCollector.Event e : sw.collector().events()) {
            intervals += e.kind() == MidstPipeline.KIND_MONITOR_ON ? 1 : 0;
        }
        return new Result(packets, drops, tcpDrops, attackDrops, timeouts, tcpDeliveredBits / (double) spec.durationNs(),
                victimsTrue, victimsReported, victimsHit, a, attackersReported, attackersHit, threshold, intervals, target(repLoss));
    }
}
