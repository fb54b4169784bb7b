package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.programs.wbmon.control.WbmonDeployment;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonHeader;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;

import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;

import java.util.Arrays;
import java.util.Map;

/**
 * Detection time on the emulated network, with the stage program: h1 – m1 – r1 – r2 – m2 – h2,
 * Bernoulli loss on r1 → r2, one vconn m1 → m2. A drop's detection time runs from the cycle
 * the lost packet reached r1 (it left m1 a link latency before) to the arrival at m2 of the
 * packet whose slot cleaning counted it. The stage program's drop counter is checked against
 * the reference fed with m2's arrivals.
 */
public final class NetworkDetection {
    /** Link latency: the data-centre built-ins' 1 µs. */
    public static final long LINK_NS = 1_000;
    /** Link rate of every link. */
    public static final double LINK_GBPS = 100;

    /** Mean, p99 and max detection time (µs) and the drops detected. */
    public record Result(long drops, double meanUs, double p99Us, double maxUs) {
    }

    private NetworkDetection() {
    }

    static Topology chain(double loss) {
        TopologyBuilder b = new TopologyBuilder("wbmon:detection-chain");
        b.programmableSwitch("m1", "tofino1", 2, null, KeyValues.EMPTY);
        b.programmableSwitch("m2", "tofino1", 2, null, KeyValues.EMPTY);
        b.regularSwitch("r1", 2);
        b.regularSwitch("r2", 2);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.SOURCE);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.SINK);
        KeyValues lossy = KeyValues.of(Map.of("loss", "bernoulli:" + loss));
        b.link("h1", 1, "m1", 1, true, LINK_NS, LINK_GBPS, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("m1", 2, "r1", 1, true, LINK_NS, LINK_GBPS, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r1", 2, "r2", 1, true, LINK_NS, LINK_GBPS, lossy, KeyValues.EMPTY);
        b.link("r2", 2, "m2", 2, true, LINK_NS, LINK_GBPS, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("h2", 1, "m2", 1, true, LINK_NS, LINK_GBPS, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    public static Result run(WbmonConfig c, int packets, double loss, double gbps, int bytes, long seed) {
        Topology t = chain(loss);
        WbmonDeployment d = WbmonDeployment.build(t, c.withVconns(Math.max(1, c.vconns())), seed, true);
        NetworkEngine net = d.network();
        int r1 = t.nodeIndex("r1");
        int m2 = t.nodeIndex("m2");
        long[] atR1 = new long[packets];
        long[] downCycle = new long[packets];
        long[] downSeq = new long[packets];
        int[] n = {0};
        net.onArrival((node, port, cycle, r) -> {
            // the sequence number the upstream m-switch put on the wire (0 on a frame without the header)
            long sn = WbmonHeader.present(r) ? WbmonHeader.seq(r) : 0;
            if (node == r1 && sn < packets) {
                atR1[(int) sn] = cycle;
            } else if (node == m2 && port == 2) {
                downCycle[n[0]] = cycle;
                downSeq[n[0]] = sn;
                n[0]++;
            }
        });
        long spacingCycles = Math.max(1, net.clock().nsToCycles(Math.round((bytes + 20) * 8 / gbps)));
        SplitMix64 rnd = new SplitMix64(seed);
        PacketRecord r = PacketRecord.allocate();
        for (int i = 0; i < packets; i++) {
            r.clear();
            r.wireLength(bytes).ipVersion(4).protocol(PacketRecord.PROTO_UDP).srcIpv4((int) rnd.nextLong())
                    .dstIpv4((int) rnd.nextLong()).srcPort(rnd.nextInt(65536)).dstPort(rnd.nextInt(65536));
            net.inject(i * spacingCycles, r);
        }
        net.drain();
        WindowMonitor m = new WindowMonitor(c.withVconns(1));
        long[] delays = new long[packets];
        int[] k = {0};
        long[] now = {0};
        int w = c.bitsPerRegister();
        m.onClean((v, slot, word) -> {
            for (int b = 0; b < w; b++) {
                long sn = slot * w + b;
                if ((word & (1L << b)) == 0 && sn < packets) {
                    delays[k[0]++] = now[0] - atR1[(int) sn];
                }
            }
        });
        for (int i = 0; i < n[0]; i++) {
            now[0] = downCycle[i];
            m.receive(0, downSeq[i]);
        }
        long program = WbmonPipeline.readDrops(d.downstream(0), c, 0);
        if (program != m.drops(0)) {
            throw new IllegalStateException("stage program counted " + program + " drops, reference " + m.drops(0));
        }
        if (k[0] == 0) {
            return new Result(0, 0, 0, 0);
        }
        long[] x = Arrays.copyOf(delays, k[0]);
        Arrays.sort(x);
        double sum = 0;
        for (long v : x) {
            sum += v;
        }
        double usPerCycle = 1e6 / net.clock().hz();
        return new Result(x.length, sum / x.length * usPerCycle, x[(int) ((x.length - 1) * 0.99)] * usPerCycle,
                x[x.length - 1] * usPerCycle);
    }
}
