package dev.rmtemu.programs.lds.experiment;

import dev.rmtemu.programs.lds.control.LdsPacketKeys;
import dev.rmtemu.programs.lds.control.LdsSwitch;
import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsHashes;

import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * A generated trace with ground-truth delays, held as primitive arrays so many sketch
 * configurations replay it cheaply: per packet its flow, the hashes both ends compute
 * (packet, digest, sampling), send time and delay; per flow its row hashes and class hash
 * (hashed once). It also keeps what rebuilds each packet's header for the emulated switch
 * ({@link #packet}): per flow its 5-tuple, per packet its IP ID, TCP sequence number and payload hash. The
 * flow-id map (primitive, no boxing) is only looked up, never iterated.
 */
public final class LdsTrace {
    public final int packets;
    public final int flows;
    final int[] flow;
    final int[] packetHash;
    final int[] digestHash;
    final int[] sampleHash;
    final long[] sendNs;
    final int[] delayNs;
    /** Per flow: row hashes [row][flow], class hash, packets sent. */
    final int[][] rowHash;
    final int[] classHash;
    public final int[] size;
    /** Per flow: source, destination, protocol and ports (ports in one int: src &lt;&lt; 16 | dst). */
    private final int[][] tuple;
    /** Per packet: IP ID, TCP sequence number (what the packet hash reads) and payload hash (the frame's payload word). */
    private final short[] ipId;
    private final int[] tcpSeq;
    private final int[] payloadHash;

    private LdsTrace(int packets, int flows, int[] flow, int[] packetHash, int[] digestHash, int[] sampleHash, long[] sendNs,
                     int[] delayNs, int[][] rowHash, int[] classHash, int[] size, int[][] tuple, short[] ipId, int[] tcpSeq,
                     int[] payloadHash) {
        this.packets = packets;
        this.flows = flows;
        this.flow = flow;
        this.packetHash = packetHash;
        this.digestHash = digestHash;
        this.sampleHash = sampleHash;
        this.sendNs = sendNs;
        this.delayNs = delayNs;
        this.rowHash = rowHash;
        this.classHash = classHash;
        this.size = size;
        this.tuple = tuple;
        this.ipId = ipId;
        this.tcpSeq = tcpSeq;
        this.payloadHash = payloadHash;
    }

    /** Generates {@code packets} packets over {@code flows} flows (the ISP generator: Zipf 1.1, IPv4 only). */
    public static LdsTrace generate(long packets, int flows, long seed, DelayModel model) {
        if (packets < 1 || packets > Integer.MAX_VALUE - 8 || flows < 1) {
            throw new UserError("lds trace: packets must be 1.." + (Integer.MAX_VALUE - 8) + " and flows >= 1");
        }
        String spec = "gen:isp?packets=" + packets + "&flows=" + flows + "&seed=" + seed + "&ipv6=0&dist=zipf&gbps=100&load=0.5";
        int n = (int) packets;
        int[] flow = new int[n];
        int[] ph = new int[n];
        int[] dh = new int[n];
        int[] sh = new int[n];
        long[] send = new long[n];
        int[] delay = new int[n];
        int[][] rows = new int[LdsConfig.MAX_ROWS][Math.max(16, flows)];
        int[] cls = new int[Math.max(16, flows)];
        int[] size = new int[Math.max(16, flows)];
        int[][] tuple = new int[TUPLE_WORDS][Math.max(16, flows)];
        short[] ipIds = new short[n];
        int[] seqs = new int[n];
        int[] payloads = new int[n];
        Long2LongHashMap ids = new Long2LongHashMap(-1);
        DelayModel.Sampler delays = model.sampler(seed);
        int nFlows = 0;
        int i = 0;
        long first = 0;
        try (PacketSource src = TraceSpec.open(spec)) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                long key = LdsPacketKeys.tupleKey(r);
                int id = (int) ids.get(key);
                if (id < 0) {
                    id = nFlows++;
                    ids.put(key, id);
                    if (id >= cls.length) {
                        int cap = cls.length * 2;
                        for (int row = 0; row < rows.length; row++) {
                            rows[row] = Arrays.copyOf(rows[row], cap);
                        }
                        cls = Arrays.copyOf(cls, cap);
                        size = Arrays.copyOf(size, cap);
                        for (int w = 0; w < tuple.length; w++) {
                            tuple[w] = Arrays.copyOf(tuple[w], cap);
                        }
                    }
                    tuple[0][id] = r.srcIpv4();
                    tuple[1][id] = r.dstIpv4();
                    tuple[2][id] = r.protocol();
                    tuple[3][id] = (r.srcPort() << 16) | r.dstPort();
                    for (int row = 0; row < rows.length; row++) {
                        rows[row][id] = (int) LdsHashes.flow(LdsHashes.row(row), r);
                    }
                    cls[id] = (int) LdsHashes.flow(LdsHashes.flowClass(), r);
                }
                int f = id;
                flow[i] = f;
                size[f]++;
                ph[i] = (int) LdsHashes.packet(LdsHashes.packet(), r);
                dh[i] = (int) LdsHashes.packet(LdsHashes.digest(), r);
                sh[i] = (int) LdsHashes.packet(LdsHashes.sample(), r);
                if (i == 0) {
                    first = r.timestampNs();
                }
                // trace time from the first packet: the emulated switch's clock starts with the trace (LdsSwitch does the same)
                send[i] = r.timestampNs() - first;
                delay[i] = (int) Math.min(Integer.MAX_VALUE, delays.delayNs(f, i));
                ipIds[i] = (short) r.ipId();
                seqs[i] = r.tcpSeq();
                payloads[i] = r.payloadHash();
                i++;
            }
        }
        return new LdsTrace(i, nFlows, flow, ph, dh, sh, send, delay, rows, cls, size, tuple, ipIds, seqs, payloads);
    }

    /** Words of a flow's 5-tuple kept: source, destination, protocol, ports. */
    private static final int TUPLE_WORDS = 4;

    /** Packet {@code i}'s header as the generator made it (IPv4), into a reusable record; timestamp: its send time. */
    public PacketRecord packet(int i, PacketRecord into) {
        int f = flow[i];
        return into.clear().ipVersion(4).srcIpv4(tuple[0][f]).dstIpv4(tuple[1][f]).protocol(tuple[2][f])
                .srcPort(tuple[3][f] >>> 16).dstPort(tuple[3][f] & 0xFFFF).ipId(ipId[i] & 0xFFFF).tcpSeq(tcpSeq[i])
                .payloadHash(payloadHash[i])
                .timestampNs(sendNs[i]);
    }

    public long sendNs(int i) {
        return sendNs[i];
    }

    public int delayNs(int i) {
        return delayNs[i];
    }

    public int flowOf(int i) {
        return flow[i];
    }

    /** Fills {@code keys} for packet {@code i}. */
    void keys(int i, LdsPacketKeys keys, long[] scratch, int rowsUsed) {
        int f = flow[i];
        for (int r = 0; r < rowsUsed; r++) {
            scratch[r] = rowHash[r][f] & 0xFFFFFFFFL;
        }
        keys.of(scratch, packetHash[i] & 0xFFFFFFFFL, digestHash[i] & 0xFFFFFFFFL, sampleHash[i] & 0xFFFFFFFFL,
                classHash[f] & 0xFFFFFFFFL);
    }

    void flowHashes(int f, long[] scratch) {
        for (int r = 0; r < LdsConfig.MAX_ROWS; r++) {
            scratch[r] = rowHash[r][f] & 0xFFFFFFFFL;
        }
    }

    long classHash(int f) {
        return classHash[f] & 0xFFFFFFFFL;
    }
}
