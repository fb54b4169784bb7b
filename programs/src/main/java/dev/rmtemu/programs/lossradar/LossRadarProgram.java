package dev.rmtemu.programs.lossradar;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageAction;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * LossRadar's meters as stage programs, all in ingress (the paper's Figure 4: the
 * upstream meter at the end of ingress, before the queue; the downstream meter at
 * the ingress of the next hop; in one switch the DM comes first).
 *
 * <p>A meter takes three kinds of stage. Its signature stage builds the signature
 * words in metadata and the digest base (b·n_port + p)·m; its index stage runs k
 * hash units (CRC-32, one polynomial each) over the words, giving cell
 * i_j + base of partition j. Its cell stages hold, for every partition j, one
 * 32-bit register array per xorSum word and one for the count: a 120-bit xorSum
 * does not fit a 32-bit stateful ALU, so a cell is split over words + 1 arrays,
 * each with its own stateful ALU (RAW xor / add), packed
 * {@link #ALUS_PER_STAGE} to a stage (tofino1's budget) over as many stages as needed.
 *
 * <p>The UM stamps the batch ID (a bit slice of the ingress timestamp: batches of
 * 2^batch_shift ns) and, with timestamps on, the 14-bit µs time into a shim header
 * that crosses the link. The DM files the packet under the carried batch, adds the
 * TTL decrements back, and keeps per (batch slot, port) the first packet's time
 * and batch ID in a pair array, which the control plane polls to close the batch
 * T + timeout after its first packet. The DM's ACL (a ternary table on destination
 * and protocol) drops after the DM inserted the packet, so ACL drops cancel
 * against the upstream meter and are never reported; a switch's own UM skips them.
 * The UM sends every packet to {@code port}; a DM alone leaves the egress port to
 * the switch's forwarding (routing).
 */
public class LossRadarProgram implements ProgramFactory {
    /** Which meters a switch runs. */
    public enum Role { UM, DM, BOTH }

    /** Stateful ALUs per stage the cell arrays are packed to (tofino1: 4). */
    public static final int ALUS_PER_STAGE = 4;
    /** DM batch-state timestamps are in units of 2^10 ns (about a µs), 31 bits, plus one so 0 means empty. */
    public static final int STAMP_SHIFT = 10;
    public static final long STAMP_MASK = 0x7FFF_FFFFL;
    /** ACL action that drops. */
    public static final int ACL_DENY = 1;
    public static final int DEFAULT_ACL_ENTRIES = 64;
    public static final String ACL_TABLE = "lr_acl";
    public static final String DM_BATCH_ARRAY = "lr_dm_batch";
    /** The UM's own routing (param route=1): exact on destination, action data = ECMP members, one byte each, count in the low byte. */
    public static final String ROUTE_TABLE = "lr_route";
    public static final int ROUTE_ENTRIES = 1024;
    public static final int ROUTE_ACTION = 1;
    public static final int ROUTE_MAX_MEMBERS = 7;
    private static final int ECMP_HASH_BITS = 16;
    private static final int WORD_BITS = 32;

    private final Role role;

    public LossRadarProgram() {
        this(Role.BOTH);
    }

    protected LossRadarProgram(Role role) {
        this.role = role;
    }

    /** {@code lossradar-um}: the upstream meter alone. */
    public static final class Upstream extends LossRadarProgram {
        public Upstream() {
            super(Role.UM);
        }
    }

    /** {@code lossradar-dm}: the downstream meter and ACL alone. */
    public static final class Downstream extends LossRadarProgram {
        public Downstream() {
            super(Role.DM);
        }
    }

    public static String programName(Role r) {
        return switch (r) {
            case BOTH -> "lossradar";
            case UM -> "lossradar-um";
            case DM -> "lossradar-dm";
        };
    }

    @Override
    public String name() {
        return programName(role);
    }

    @Override
    public String description() {
        return switch (role) {
            case BOTH -> "LossRadar (CoNEXT 2016): downstream meter + ACL, then upstream meter, IBF digests per port and batch";
            case UM -> "LossRadar upstream meter alone: IBF digests per egress port and batch, batch ID in a shim header";
            case DM -> "LossRadar downstream meter alone: IBF digests per ingress port and carried batch, then the ACL";
        };
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("hashes", LossRadarConfig.DEFAULT_HASHES, 1, LossRadarConfig.MAX_HASHES, "k, hash functions (paper: 3)"),
                ParamSpec.integer("cells", LossRadarConfig.DEFAULT_CELLS, 1, 1 << 20, "n_cell, cells per digest (port and batch), a multiple of k"),
                ParamSpec.integer("ports", LossRadarConfig.DEFAULT_PORTS, 1, 64, "n_port, ports each meter covers"),
                ParamSpec.integer("batch_shift", LossRadarConfig.DEFAULT_BATCH_SHIFT, 10, 40, "batch T = 2^N ns (23: 8.39 ms, paper ~10 ms)"),
                ParamSpec.integer("timeout_us", LossRadarConfig.DEFAULT_TIMEOUT_NS / 1000, 0, 1_000_000, "a DM batch closes T + timeout after its first packet"),
                ParamSpec.integer("ttl_bit", 0, 0, 1, "1: low TTL bit in the signature"),
                ParamSpec.integer("syn_bit", 0, 0, 1, "1: TCP SYN flag in the signature"),
                ParamSpec.integer("timestamp", 0, 0, 1, "1: 14-bit us timestamp in the signature (a fifth xorSum word)"),
                ParamSpec.integer("ttl_norm", 0, 0, 255, "TTL decrements between UM and DM, added back by the DM"),
                ParamSpec.integer("port", LossRadarConfig.DEFAULT_PORT, 0, 63, "egress port every packet is sent to"),
                ParamSpec.integer("acl", DEFAULT_ACL_ENTRIES, 1, 4096, "ACL entries (DM switches)"),
                ParamSpec.integer("meters", 0, 0, 1 << LossRadarConfig.METER_BITS,
                        "black-box mode: upstream meter IDs each DM keeps a digest for (0: off)"),
                ParamSpec.integer("meter_id", 0, 0, (1 << LossRadarConfig.METER_BITS) - 1, "black-box mode: this UM's meter ID"),
                ParamSpec.integer("route", 0, 0, 1, "1: the UM picks the egress port from table lr_route (ECMP by 5-tuple hash) instead of port"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        return build(LossRadarConfig.from(p), p.intValue("acl"), p.intValue("route") != 0, p.values());
    }

    /** Action data of a {@link #ROUTE_TABLE} entry for the given engine ports (an ECMP group). */
    public static long routeData(int[] ports) {
        if (ports.length < 1 || ports.length > ROUTE_MAX_MEMBERS) {
            throw new IllegalArgumentException("ECMP group of " + ports.length + " ports (1.." + ROUTE_MAX_MEMBERS + ")");
        }
        long d = ports.length;
        for (int i = 0; i < ports.length; i++) {
            d |= (long) (ports[i] & 0xFF) << (8 * (i + 1));
        }
        return d;
    }

    /** Name of the register array of partition {@code j}, xorSum word {@code w} (w = words: the count). */
    public static String arrayName(int meterRole, int j, int w, int words) {
        String m = meterRole == MeterDigest.UM ? "lr_um" : "lr_dm";
        return w == words ? m + "_h" + j + "_count" : m + "_h" + j + "_xor" + w;
    }

    public StageProgram build(LossRadarConfig c, int aclEntries, Map<String, String> forReport) {
        return build(c, aclEntries, false, forReport);
    }

    public StageProgram build(LossRadarConfig c, int aclEntries, boolean route, Map<String, String> forReport) {
        if (c.port() >= c.ports() && role != Role.DM && !route) {
            throw new UserError("lossradar: port=" + c.port() + " must be below ports=" + c.ports() + " (the UM keeps digests per egress port)");
        }
        ProgramBuilder b = ProgramBuilder.create(name(), description());
        if (forReport != null) {
            new TreeMap<>(forReport).forEach(b::param);
        }
        b.param("cells_per_hash", c.cellsPerHash());
        b.param("signature_words", c.words());
        b.param("digest_bytes", c.digestBytes());
        Fields f = new Fields(b, c);
        Code code = new Code();
        switch (role) {
            case UM -> meter(b, c, f, code, MeterDigest.UM, 0, 2, 0, route);
            case DM -> meter(b, c, f, code, MeterDigest.DM, 0, 2, aclEntries, false);
            case BOTH -> {
                // the UM's signature stage follows the ACL's stage, so it sees drop_ctl
                int next = meter(b, c, f, code, MeterDigest.DM, 0, 2, aclEntries, false);
                meter(b, c, f, code, MeterDigest.UM, 1, next, 0, route);
            }
        }
        code.install(b);
        return b.build();
    }

    /** The program's header, shim and intrinsic fields. */
    private static final class Fields {
        final FiveTuple tuple;
        final Field ipId;
        final Field ttl;
        final Field tcpFlags;
        final Field batch;
        final Field ts;
        final Field meter;
        final Field tstamp;
        final Field inPort;
        final Field outPort;
        final Field drop;

        Fields(ProgramBuilder b, LossRadarConfig c) {
            tuple = FiveTuple.declare(b);
            ipId = b.header("ipv4.identification", 16, ParsedField.IP_ID);
            ttl = c.ttlBit() ? b.header("ipv4.ttl", 8, ParsedField.TTL) : null;
            tcpFlags = c.synBit() ? b.header("tcp.flags", 8, ParsedField.TCP_FLAGS) : null;
            batch = b.header("lossradar.batch", LossRadarConfig.BATCH_BITS, ParsedField.SHIM);
            ts = c.timestamp() ? b.header("lossradar.tstamp", LossRadarConfig.TIMESTAMP_BITS, ParsedField.SHIM) : null;
            meter = c.blackBox() ? b.header("lossradar.meter", LossRadarConfig.METER_BITS, ParsedField.SHIM) : null;
            tstamp = b.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP);
            inPort = b.intrinsic(Intrinsic.INGRESS_PORT);
            outPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
            drop = b.intrinsic(Intrinsic.DROP_CTL);
        }
    }

    /** Action code per stage, several pieces (DM, UM) run in order in one stage. */
    private static final class Code {
        final TreeMap<Integer, List<StageAction>> pieces = new TreeMap<>();

        void add(int stage, StageAction a) {
            pieces.computeIfAbsent(stage, s -> new ArrayList<>()).add(a);
        }

        void install(ProgramBuilder b) {
            for (Map.Entry<Integer, List<StageAction>> e : pieces.entrySet()) {
                StageAction[] all = e.getValue().toArray(new StageAction[0]);
                if (all.length == 1) {
                    b.stage(Gress.INGRESS, e.getKey()).apply(all[0]);
                } else {
                    b.stage(Gress.INGRESS, e.getKey()).apply(ctx -> {
                        for (StageAction a : all) {
                            a.apply(ctx);
                        }
                    });
                }
            }
        }
    }

    /**
     * Declares one meter: signature stage {@code first}, index stage {@code first + 1},
     * cell stages from {@code cellStart}; returns the first stage after its cell stages.
     */
    private static int meter(ProgramBuilder b, LossRadarConfig c, Fields f, Code code, int meterRole, int first, int cellStart,
                             int aclEntries, boolean route) {
        boolean um = meterRole == MeterDigest.UM;
        String p = um ? "lr.um_" : "lr.dm_";
        int words = c.words();
        int k = c.hashes();
        int m = c.cellsPerHash();
        int nPort = c.ports();
        int digests = um ? 1 : c.upstreamDigests();
        Field[] sig = new Field[words];
        for (int w = 0; w < words; w++) {
            sig[w] = b.metadata(Gress.INGRESS, p + "sig" + w, WORD_BITS);
        }
        // base = -1: this packet is not metered here
        Field base = b.metadata(Gress.INGRESS, p + "base", WORD_BITS);
        Field[] idx = new Field[k];
        for (int j = 0; j < k; j++) {
            idx[j] = b.metadata(Gress.INGRESS, p + "idx" + j, WORD_BITS);
        }
        FiveTuple t = f.tuple;
        long batchMask = LossRadarMeter.batchMask();
        int ttlNorm = um ? 0 : c.ttlNorm();

        // signature stage
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, first);
        MatchTable acl = null;
        RegisterAction batchState = null;
        if (!um) {
            acl = s0.table(ACL_TABLE, MatchKind.TERNARY, aclEntries, 0, t.dst(), t.proto());
            RegisterArray state = s0.register(DM_BATCH_ARRAY, WORD_BITS, true, LossRadarConfig.BATCH_SLOTS * nPort);
            batchState = s0.action(RegisterAction.on(state, "first_packet")
                    .condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(0))
                    .updateLo(Predicate.C0, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                    .updateHi(Predicate.C0, AluOp.SET, Operand.IN_HI, Operand.constant(0)));
        }
        MatchTable routes = null;
        HashUnit ecmp = null;
        if (um && route) {
            routes = s0.table(ROUTE_TABLE, MatchKind.EXACT, ROUTE_ENTRIES, Long.SIZE, t.dst());
            ecmp = s0.hash("lr_ecmp_hash", SignatureHash.crc(0), ECMP_HASH_BITS, t.fields());
        }
        final MatchTable routeTable = routes;
        final HashUnit ecmpHash = ecmp;
        final MatchTable aclTable = acl;
        final RegisterAction firstPacket = batchState;
        code.add(first, ctx -> {
            long ns = ctx.get(f.tstamp);
            long batch;
            long ts;
            int port;
            if (um) {
                if (ctx.get(f.drop) != 0) {
                    ctx.set(base, -1 & 0xFFFFFFFFL);
                    return;
                }
                batch = (ns >>> c.batchShift()) & batchMask;
                ts = Signature.timestamp(ns);
                if (routeTable == null) {
                    port = c.port();
                } else {
                    int hit = ctx.lookup(routeTable);
                    if (hit < 0) {
                        ctx.set(base, -1 & 0xFFFFFFFFL); // no route here: the switch's own forwarding decides, unmetered
                        return;
                    }
                    long data = ctx.actionData(routeTable, hit);
                    int members = (int) (data & 0xFF);
                    port = (int) ((data >>> (8 * (1 + ctx.hash(ecmpHash) % members))) & 0xFF);
                }
                ctx.set(f.outPort, port);
                ctx.set(f.batch, batch);
                if (f.ts != null) {
                    ctx.set(f.ts, ts);
                }
                if (f.meter != null) {
                    ctx.set(f.meter, c.meterId());
                }
            } else {
                batch = ctx.get(f.batch);
                ts = f.ts == null ? 0 : ctx.get(f.ts);
                port = (int) ctx.get(f.inPort);
                int hit = ctx.lookup(aclTable);
                if (hit >= 0 && ctx.actionId(aclTable, hit) == ACL_DENY) {
                    ctx.set(f.drop, 1);
                }
            }
            // black box: the DM files the packet under the upstream meter that stamped it
            int upstream = um || f.meter == null ? 0 : (int) ctx.get(f.meter);
            if (port >= nPort || upstream >= digests) {
                ctx.set(base, -1 & 0xFFFFFFFFL);
                return;
            }
            int slot = (int) (batch & 1);
            if (!um) {
                ctx.execute(firstPacket, (long) slot * nPort + port, ((ns >>> STAMP_SHIFT) & STAMP_MASK) + 1, batch);
            }
            int ttl = f.ttl == null ? 0 : (int) ctx.get(f.ttl) + ttlNorm;
            int flags = f.tcpFlags == null ? 0 : (int) ctx.get(f.tcpFlags);
            ctx.set(sig[0], ctx.get(t.src()));
            ctx.set(sig[1], ctx.get(t.dst()));
            ctx.set(sig[2], Signature.ports((int) ctx.get(t.srcPort()), (int) ctx.get(t.dstPort())) & 0xFFFFFFFFL);
            ctx.set(sig[3], Signature.protoId((int) ctx.get(t.proto()), (int) ctx.get(f.ipId), ttl, flags, c) & 0xFFFFFFFFL);
            if (words > LossRadarConfig.BASE_WORDS) {
                ctx.set(sig[LossRadarConfig.BASE_WORDS], ts);
            }
            ctx.set(base, (((long) slot * digests + upstream) * nPort + port) * m);
        });

        // index stage: k hash units over the signature words
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, first + 1);
        HashUnit[] h = new HashUnit[k];
        for (int j = 0; j < k; j++) {
            h[j] = s1.hash((um ? "lr_um_hash" : "lr_dm_hash") + j, SignatureHash.crc(j), WORD_BITS, sig);
        }
        long notMetered = -1 & 0xFFFFFFFFL;
        code.add(first + 1, ctx -> {
            long bs = ctx.get(base);
            if (bs == notMetered) {
                for (int j = 0; j < k; j++) {
                    ctx.set(idx[j], notMetered);
                }
                return;
            }
            for (int j = 0; j < k; j++) {
                ctx.set(idx[j], ctx.hash(h[j]) % m + bs);
            }
        });

        // cell stages: per partition, one array per xorSum word and one for the count
        int arrays = k * (words + 1);
        int size = LossRadarConfig.BATCH_SLOTS * digests * nPort * m;
        int stage = cellStart;
        int placed = 0;
        List<RegisterAction> actions = new ArrayList<>();
        List<Field> indices = new ArrayList<>();
        List<Field> inputs = new ArrayList<>();
        for (int j = 0; j < k; j++) {
            for (int w = 0; w <= words; w++) {
                ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, stage);
                RegisterArray a = s.register(arrayName(meterRole, j, w, words), WORD_BITS, size);
                RegisterAction act = w == words
                        ? s.action(RegisterAction.on(a, "count_add").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)))
                        : s.action(RegisterAction.on(a, "xor_sum").updateLo(AluOp.XOR, Operand.REG_LO, Operand.IN_LO));
                actions.add(act);
                indices.add(idx[j]);
                inputs.add(w == words ? null : sig[w]);
                placed++;
                if (placed % ALUS_PER_STAGE == 0 || placed == arrays) {
                    addCellStage(code, stage, actions, indices, inputs, notMetered);
                    actions.clear();
                    indices.clear();
                    inputs.clear();
                    stage++;
                }
            }
        }
        return stage;
    }

    private static void addCellStage(Code code, int stage, List<RegisterAction> actions, List<Field> indices, List<Field> inputs,
                                     long notMetered) {
        RegisterAction[] a = actions.toArray(new RegisterAction[0]);
        Field[] ix = indices.toArray(new Field[0]);
        Field[] in = inputs.toArray(new Field[0]);
        code.add(stage, ctx -> {
            for (int i = 0; i < a.length; i++) {
                long index = ctx.get(ix[i]);
                if (index == notMetered) {
                    return;
                }
                ctx.execute(a[i], index, in[i] == null ? 0 : ctx.get(in[i]));
            }
        });
    }
}
