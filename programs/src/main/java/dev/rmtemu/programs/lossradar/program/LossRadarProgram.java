package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.actionData;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.lt;
import static dev.rmtemu.model.ir.Ir.mod;
import static dev.rmtemu.model.ir.Ir.or;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static dev.rmtemu.model.ir.Ir.shr;

/**
 * LossRadar's meters as stage programs in the IR, all in ingress (the paper's
 * section 6.2: an ACL, then the upstream meter, then the downstream meter, at the
 * end of the ingress pipeline, before the queue).
 *
 * <p>A digest is k sub-tables of m cells, one per hash function (cell i of hash
 * j is cell j·m + i of the IBF): hash j's cell index is a CRC-32 hash unit's low
 * log2(m) bits, so m must be a power of two on tofino1 (no divider; another m
 * takes a modulo, which only {@code unconstrained} runs). A cell's xorSum is
 * 32-bit words (a 120-bit signature does not fit a 32-bit stateful ALU), so
 * each sub-table is words + 1 register arrays (xorSum words, count), each with
 * its own stateful ALU (RAW xor / add), packed {@link #ALUS_PER_STAGE} to a
 * stage. Inside an array, the digests of (batch slot, upstream meter, port)
 * sit side by side at power-of-two strides, so a cell's address is
 * slot·2^(u+p+c) | meter·2^(p+c) | port·2^c | cell, built by shifts and ORs one
 * VLIW operation per stage ({@link #cellIndex}); a non-power-of-two port or meter
 * count leaves the cells of the missing ones unused.
 *
 * <p>The signature's words are header bytes in order (src, dst, ports, protocol ·
 * IP ID · flags byte, [timestamp]), so the CRC hash units read the header fields
 * directly and identity hash units give the stateful ALUs the two packed words.
 * The UM stamps the batch ID (bits of the ingress timestamp: batches of
 * 2^batch_shift ns) and optionally the timestamp into metadata, and copies them
 * into the shim header only after the DM has read the carried ones (the paper's
 * "store the new batchID in a metadata at the UM"). The DM files the packet under
 * the carried batch, adds the TTL decrements back, and keeps per (batch slot,
 * port) the first packet's time and batch ID in a pair array, which the control
 * plane polls to close the batch T + timeout after its first packet. The ACL (a
 * ternary table on destination and protocol) sets drop_ctl; the UM skips dropped
 * packets and the DM inserts them, so ACL drops cancel against the previous hop's
 * UM and are never reported. The UM sends every packet to {@code port}, or with
 * {@code route=1} to the ECMP member that table {@link #ROUTE_TABLE} gives for the
 * destination and a few bits of the 5-tuple hash; a DM alone leaves the egress port
 * to the switch's forwarding.
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
    /** Action id of an ACL entry that lets the packet pass (a higher-priority exception to a deny). */
    public static final int ACL_PERMIT = 0;
    public static final int DEFAULT_ACL_ENTRIES = 64;
    public static final String ACL_TABLE = "lr_acl";
    public static final String DM_BATCH_ARRAY = "lr_dm_batch";
    /**
     * The UM's own routing (param route=1): ternary on (destination prefix, ECMP select
     * bits), longest prefix first, action data = the egress port. The control plane installs 2^{@link #ECMP_SELECT_BITS}
     * entries per destination ({@link #installRoute}), which is how a Tofino action
     * selector spreads a group without a run-time shift or modulo.
     */
    public static final String ROUTE_TABLE = "lr_route";
    /** Destination prefixes the route table holds. */
    public static final int ROUTE_DESTINATIONS = 512;
    public static final int ROUTE_ACTION = 1;
    /** Low bits of the 5-tuple CRC that pick the ECMP member. */
    public static final int ECMP_SELECT_BITS = 3;
    public static final int ROUTE_MAX_MEMBERS = 1 << ECMP_SELECT_BITS;
    /** Stage of the ACL and of the shim-header reads; the UM rewrites the shim in the stage after. */
    public static final int ACL_STAGE = 0;
    private static final int PORT_DATA_BITS = 9;
    private static final int WORD_BITS = 32;
    private static final int FLAGS_BITS = 8;

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
        LossRadarParams x = LossRadarParams.from(p);
        return build(x.config(), x.aclEntries(), x.route(), p.values()).withConfig(x);
    }

    /**
     * Installs the route of destination prefix {@code dst/prefixLen} to an ECMP group of
     * engine ports: one ternary entry per value of the select bits (priority = prefix
     * length, so the longest prefix wins), member sel mod n (groups of 1, 2, 4 or 8
     * spread evenly; 3 of 8 values go twice to the first members of a group of 3).
     */
    public static void installRoute(PipelineState state, int dst, int prefixLen, int[] ports) {
        if (ports.length < 1 || ports.length > ROUTE_MAX_MEMBERS) {
            throw new IllegalArgumentException("ECMP group of " + ports.length + " ports (1.." + ROUTE_MAX_MEMBERS + ")");
        }
        long mask = prefixLen == 0 ? 0 : (0xFFFFFFFFL << (Integer.SIZE - prefixLen)) & 0xFFFFFFFFL;
        for (int sel = 0; sel < ROUTE_MAX_MEMBERS; sel++) {
            state.addTernary(ROUTE_TABLE, new long[] {dst & mask, sel}, new long[] {mask, ROUTE_MAX_MEMBERS - 1}, prefixLen,
                    ROUTE_ACTION, ports[sel % ports.length]);
        }
    }

    /** Bits of an index over {@code n} values (0 for one value). */
    static int bitsFor(long n) {
        return n <= 1 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(n - 1);
    }

    /** Cell index bits of a digest sub-table: log2(m), rounded up when m is not a power of two. */
    public static int cellBits(LossRadarConfig c) {
        return bitsFor(c.cellsPerHash());
    }

    /** Port bits of a meter's array layout. */
    public static int portBits(LossRadarConfig c) {
        return bitsFor(c.ports());
    }

    /** Upstream-meter bits of a meter's array layout (a black-box DM: one digest per upstream meter). */
    public static int meterBits(LossRadarConfig c, int meterRole) {
        return meterRole == MeterDigest.DM ? bitsFor(c.upstreamDigests()) : 0;
    }

    /** Bits of an index into one of a meter's register arrays. */
    static int indexBits(LossRadarConfig c, int meterRole) {
        return 1 + meterBits(c, meterRole) + portBits(c) + cellBits(c);
    }

    /** Index of cell {@code i} of the digest of (slot, upstream meter, port) in each of a meter's register arrays. */
    public static int cellIndex(LossRadarConfig c, int meterRole, int slot, int upstream, int port, int i) {
        int pb = portBits(c);
        int mb = cellBits(c);
        long key = (((long) slot << meterBits(c, meterRole) | upstream) << pb | port) << mb;
        return (int) (key | i);
    }

    /** Cells of each of a meter's register arrays: two batch slots of every (upstream meter, port) at power-of-two strides. */
    public static int arraySize(LossRadarConfig c, int meterRole) {
        long n = (long) LossRadarConfig.BATCH_SLOTS << (meterBits(c, meterRole) + portBits(c) + cellBits(c));
        if (n > Integer.MAX_VALUE) {
            throw new UserError("lossradar: cells=" + c.cells() + ", ports=" + c.ports() + " need " + n + " cells per register array");
        }
        return (int) n;
    }

    /** Index of (slot, port) in the DM's batch-state array {@link #DM_BATCH_ARRAY}. */
    public static int stateIndex(LossRadarConfig c, int slot, int port) {
        return slot << portBits(c) | port;
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
        // the default parse graph with LossRadar's shim after Ethernet (EtherType 0x88B5)
        b.parser(EtherTypeShim.spec(List.of(LossRadarHeader.SHIM)));
        Fields f = new Fields(b, c);
        Stages st = new Stages(b);
        // the two packed signature words every meter's stateful ALUs xor in, as identity hashes of header bytes
        HashUnit ports = st.at(ACL_STAGE).hash("lr_sig_ports", HashAlgorithm.byName("identity"), WORD_BITS, f.tuple.srcPort(),
                f.tuple.dstPort());
        st.code(ACL_STAGE, code -> code.set(f.sigPorts, hash(ports)));
        if (role != Role.UM) {
            MatchTable acl = st.at(ACL_STAGE).table(ACL_TABLE, MatchKind.TERNARY, aclEntries,
                    TableActions.of("NoAction", TableAction.of(ACL_PERMIT, "permit"), TableAction.of(ACL_DENY, "deny")),
                    f.tuple.dst(), f.tuple.proto());
            st.code(ACL_STAGE, code -> code.apply(acl).on(ACL_DENY, deny -> deny.set(f.drop, 1)));
        }
        // the DM's cells are ready a stage earlier than the UM's, so it takes the stateful ALUs first
        if (role != Role.UM) {
            downstream(b, st, c, f);
        }
        if (role == Role.DM) {
            // a DM alone is the shim's last hop: it removes it (setInvalid), Ethernet gets its EtherType back
            st.code(ACL_STAGE + 1, code -> code.when(eq(read(f.shimValid), constant(1)), remove -> remove
                    .set(f.shimValid, 0)
                    .set(f.etherType, read(f.nextEtherType))));
        }
        if (role != Role.DM) {
            upstream(b, st, c, f, route);
        }
        st.install();
        return b.build();
    }

    /** The program's header, shim and intrinsic fields (the default parse graph with {@link LossRadarHeader}'s shim). */
    private static final class Fields {
        final FiveTuple tuple;
        final Field ipId;
        final Field ttl;
        final Field tcpFlags;
        final Field batch;
        final Field ts;
        final Field meter;
        /** The shim's validity bit, Ethernet's EtherType and the shim's: adding or removing the shim moves one into the other. */
        final Field shimValid;
        final Field etherType;
        final Field nextEtherType;
        final Field tstamp;
        final Field inPort;
        final Field outPort;
        final Field drop;
        /** Signature word 2: source and destination ports. */
        final Field sigPorts;

        Fields(ProgramBuilder b, LossRadarConfig c) {
            tuple = FiveTuple.declare(b);
            ipId = b.header("ipv4.identification");
            // IPv4's TTL or IPv6's hop limit, whichever the packet has
            ttl = c.ttlBit() ? b.overlay("lr.ttl", "ipv4.ttl", "ipv6.hop_limit") : null;
            tcpFlags = c.synBit() ? b.header("tcp.flags") : null;
            batch = b.header(LossRadarHeader.BATCH);
            ts = c.timestamp() ? b.header(LossRadarHeader.TSTAMP) : null;
            meter = c.blackBox() ? b.header(LossRadarHeader.METER) : null;
            shimValid = b.valid(LossRadarHeader.HEADER);
            etherType = b.header("ethernet.ether_type");
            nextEtherType = b.header(LossRadarHeader.SHIM.nextField());
            tstamp = b.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP);
            inPort = b.intrinsic(Intrinsic.INGRESS_PORT);
            outPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
            drop = b.intrinsic(Intrinsic.DROP_CTL);
            sigPorts = b.metadata(Gress.INGRESS, "lr.sig_ports", WORD_BITS);
        }
    }

    /**
     * The ingress stages being built: each stage's code pieces (run in order in one
     * body) and its stateful ALUs in use, so both meters' cell arrays share stages.
     */
    private static final class Stages {
        private final ProgramBuilder b;
        private final TreeMap<Integer, List<Consumer<Block>>> code = new TreeMap<>();
        private final TreeMap<Integer, Integer> alus = new TreeMap<>();

        Stages(ProgramBuilder b) {
            this.b = b;
        }

        ProgramBuilder.StageBuilder at(int stage) {
            return b.stage(Gress.INGRESS, stage);
        }

        void code(int stage, Consumer<Block> piece) {
            code.computeIfAbsent(stage, s -> new ArrayList<>()).add(piece);
        }

        /** The first stage from {@code from} with a stateful ALU free; takes it. */
        int takeAlu(int from) {
            int s = from;
            while (alus.getOrDefault(s, 0) >= ALUS_PER_STAGE) {
                s++;
            }
            alus.merge(s, 1, Integer::sum);
            return s;
        }

        void install() {
            code.forEach((stage, pieces) -> at(stage).body(block -> pieces.forEach(p -> p.accept(block))));
        }
    }

    /** {@code f << n} (just {@code f} for n = 0). */
    private static Expr shifted(Field f, int n) {
        return n == 0 ? read(f) : shl(read(f), constant(n));
    }

    /**
     * ORs {@code parts} (values readable from stage {@code from}) pairwise, one level of
     * VLIW instructions per stage, into fields named after {@code name} of {@code width}
     * bits (an array index's width bounds it to the array). Returns the
     * field holding the OR of all; {@code ready[0]} is the first stage that can read it.
     */
    private static Field orTree(ProgramBuilder b, Stages st, String name, int width, List<Expr> parts, int from, int[] ready) {
        List<Expr> level = new ArrayList<>(parts);
        int stage = from;
        Field last = level.size() == 1 && level.get(0) instanceof Expr.Read r ? r.field() : null;
        while (level.size() > 1) {
            List<Expr> next = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                Field t = b.metadata(Gress.INGRESS, name + (level.size() > 2 ? "_" + stage + "_" + i / 2 : ""), width);
                Expr x = level.get(i);
                Expr y = level.get(i + 1);
                st.code(stage, code -> code.set(t, or(x, y)));
                next.add(read(t));
                last = t;
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
            stage++;
        }
        if (last == null) {
            throw new IllegalStateException(name + ": no field among " + parts);
        }
        ready[0] = stage;
        return last;
    }

    /** A meter's signature flags byte and the first stage that can read it. */
    private record FlagsByte(Field flags, int flagsReady) {
    }

    /**
     * The signature's flags byte (TTL bit in bit 0, the TCP SYN flag as TCP has it),
     * computed from stage {@link #ACL_STAGE}; without either option a byte never written (0).
     */
    private static FlagsByte flagsByte(ProgramBuilder b, Stages st, LossRadarConfig c, Fields f, String p, int ttlNorm) {
        Field ttlBit = c.ttlBit() ? b.metadata(Gress.INGRESS, p + "ttl_bit", 1) : null;
        Field syn = c.synBit() ? b.metadata(Gress.INGRESS, p + "syn", FLAGS_BITS) : null;
        if (ttlBit != null) {
            // a 1-bit field keeps the low bit of TTL + decrements: one add
            st.code(ACL_STAGE, code -> code.set(ttlBit, ttlNorm == 0 ? read(f.ttl) : add(read(f.ttl), constant(ttlNorm))));
        }
        if (syn != null) {
            st.code(ACL_STAGE, code -> code.set(syn, and(read(f.tcpFlags), constant(PacketRecord.TCP_SYN))));
        }
        if (ttlBit != null && syn != null) {
            Field flags = b.metadata(Gress.INGRESS, p + "flags", FLAGS_BITS);
            st.code(ACL_STAGE + 1, code -> code.set(flags, or(read(ttlBit), read(syn))));
            return new FlagsByte(flags, ACL_STAGE + 2);
        }
        if (ttlBit != null || syn != null) {
            return new FlagsByte(ttlBit != null ? ttlBit : syn, ACL_STAGE + 1);
        }
        return new FlagsByte(b.metadata(Gress.INGRESS, p + "flags", FLAGS_BITS), ACL_STAGE);
    }

    /**
     * The index stage and the cell arrays of one meter. {@code base} (readable from
     * {@code baseReady}) holds the digest's offset; the k CRC hash units over the
     * signature's header bytes give the cells, one sub-table per hash.
     */
    private static void cells(ProgramBuilder b, Stages st, LossRadarConfig c, Fields f, int meterRole, String p, Field base,
                              int baseReady, FlagsByte flags, Field sig4, int sig4Ready, Field ok) {
        int k = c.hashes();
        int m = c.cellsPerHash();
        int words = c.words();
        int idxStage = Math.max(Math.max(baseReady, flags.flagsReady()), sig4Ready);
        ProgramBuilder.StageBuilder s = st.at(idxStage);
        String hp = meterRole == MeterDigest.UM ? "lr_um_" : "lr_dm_";
        // word 3 (protocol, IP ID, flags byte) for the stateful ALUs
        Field sig3 = b.metadata(Gress.INGRESS, p + "sig3", WORD_BITS);
        HashUnit packed = s.hash(hp + "sig3", HashAlgorithm.byName("identity"), WORD_BITS, f.tuple.proto(), f.ipId, flags.flags());
        st.code(idxStage, code -> code.set(sig3, hash(packed)));
        List<Field> crcInput = new ArrayList<>(List.of(f.tuple.src(), f.tuple.dst(), f.tuple.srcPort(), f.tuple.dstPort(),
                f.tuple.proto(), f.ipId, flags.flags()));
        if (sig4 != null) {
            crcInput.add(sig4);
        }
        Field[] idx = new Field[k];
        boolean powerOfTwo = Integer.bitCount(m) == 1;
        for (int j = 0; j < k; j++) {
            idx[j] = b.metadata(Gress.INGRESS, p + "idx" + j, indexBits(c, meterRole));
            Field target = idx[j];
            if (m == 1) {
                st.code(idxStage, code -> code.set(target, read(base)));
                continue;
            }
            // a power-of-two sub-table takes the hash unit's low bits; another size a modulo ('unconstrained' only)
            HashUnit h = s.hash(hp + "hash" + j, SignatureHash.crc(j), powerOfTwo ? cellBits(c) : WORD_BITS,
                    crcInput.toArray(new Field[0]));
            Expr cell = powerOfTwo ? hash(h) : mod(hash(h), constant(m));
            st.code(idxStage, code -> code.set(target, or(read(base), cell)));
        }
        Field[] sig = {f.tuple.src(), f.tuple.dst(), f.sigPorts, sig3, sig4};
        int size = arraySize(c, meterRole);
        TreeMap<Integer, List<Object[]>> byStage = new TreeMap<>();
        for (int j = 0; j < k; j++) {
            for (int w = 0; w <= words; w++) {
                int stage = st.takeAlu(idxStage + 1);
                ProgramBuilder.StageBuilder cs = st.at(stage);
                RegisterArray a = cs.register(arrayName(meterRole, j, w, words), WORD_BITS, size);
                RegisterAction act = w == words
                        ? cs.action(RegisterAction.on(a, "count_add").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)))
                        : cs.action(RegisterAction.on(a, "xor_sum").updateLo(AluOp.XOR, Operand.REG_LO, Operand.IN_LO));
                Expr in = w == words ? constant(0) : read(sig[w]);
                byStage.computeIfAbsent(stage, x -> new ArrayList<>()).add(new Object[] {act, idx[j], in});
            }
        }
        byStage.forEach((stage, list) -> st.code(stage, code -> code.when(eq(read(ok), constant(1)), metered -> {
            for (Object[] e : list) {
                metered.execute((RegisterAction) e[0], read((Field) e[1]), (Expr) e[2]);
            }
        })));
    }

    /**
     * The upstream meter: the batch ID from the ingress timestamp, the egress port
     * (constant, or the route table's ECMP member), the shim header rewritten after the
     * DM read it, and the packet inserted unless the ACL dropped it.
     */
    private static void upstream(ProgramBuilder b, Stages st, LossRadarConfig c, Fields f, boolean route) {
        String p = "lr.um_";
        int pb = portBits(c);
        int mb = cellBits(c);
        int s0 = ACL_STAGE;
        Field batch = b.metadata(Gress.INGRESS, p + "batch", LossRadarConfig.BATCH_BITS);
        Field ts = c.timestamp() ? b.metadata(Gress.INGRESS, p + "tstamp", LossRadarConfig.TIMESTAMP_BITS) : null;
        Field sig4 = c.timestamp() ? b.metadata(Gress.INGRESS, p + "sig4", WORD_BITS) : null;
        Field slotPart = b.metadata(Gress.INGRESS, p + "slot_part", pb + mb + 1);
        Field ok = b.metadata(Gress.INGRESS, p + "ok", 1);
        st.code(s0, code -> {
            // the batch ID is a bit slice of the timestamp: the field's 16 bits keep it
            code.set(batch, shr(read(f.tstamp), constant(c.batchShift())));
            if (ts != null) {
                code.set(ts, shr(read(f.tstamp), constant(Signature.TIMESTAMP_UNIT_SHIFT)));
            }
        });
        st.code(s0 + 1, code -> {
            code.set(f.batch, read(batch));
            if (ts != null) {
                code.set(f.ts, read(ts));
                code.set(sig4, read(ts));
            }
            if (f.meter != null) {
                code.set(f.meter, c.meterId());
            }
            // a packet that came without the shim gets it (setValid): Ethernet's EtherType moves into it
            code.when(eq(read(f.shimValid), constant(0)), add -> add
                    .set(f.shimValid, 1)
                    .set(f.nextEtherType, read(f.etherType))
                    .set(f.etherType, LossRadarHeader.ETHER_TYPE));
            // the field's width keeps the slot bit (batch mod 2) at its place
            code.set(slotPart, shl(read(batch), constant(pb + mb)));
        });
        FlagsByte flags = flagsByte(b, st, c, f, p, 0);
        int[] ready = new int[1];
        Field base;
        if (!route) {
            st.code(s0, code -> code.set(f.outPort, c.port()));
            st.code(s0 + 1, code -> code.when(eq(read(f.drop), constant(0)), kept -> kept.set(ok, 1)));
            List<Expr> parts = new ArrayList<>(List.of(read(slotPart)));
            if (c.port() != 0) {
                parts.add(constant((long) c.port() << mb));
            }
            base = orTree(b, st, p + "base", indexBits(c, MeterDigest.UM), parts, s0 + 2, ready);
        } else {
            Field sel = b.metadata(Gress.INGRESS, p + "ecmp_sel", ECMP_SELECT_BITS);
            Field port = b.metadata(Gress.INGRESS, p + "port", PORT_DATA_BITS);
            Field routed = b.metadata(Gress.INGRESS, p + "routed", 1);
            HashUnit ecmp = st.at(s0).hash("lr_ecmp_hash", SignatureHash.crc(0), ECMP_SELECT_BITS, f.tuple.fields());
            st.code(s0, code -> code.set(sel, hash(ecmp)));
            MatchTable routes = st.at(s0 + 1).table(ROUTE_TABLE, MatchKind.TERNARY, ROUTE_DESTINATIONS << ECMP_SELECT_BITS,
                    TableActions.of("NoAction", TableAction.of(ROUTE_ACTION, "route", "port", PORT_DATA_BITS)), f.tuple.dst(), sel);
            // a miss leaves the packet to the switch's own forwarding, unmetered
            st.code(s0 + 1, code -> code.apply(routes).on(ROUTE_ACTION, hit -> hit
                    .set(f.outPort, actionData(routes))
                    .set(port, actionData(routes))
                    .set(routed, 1)));
            Field portPart = pb == 0 ? null : b.metadata(Gress.INGRESS, p + "port_part", pb + mb);
            st.code(s0 + 2, code -> {
                if (portPart != null) {
                    code.set(portPart, shifted(port, mb));
                }
                code.when(eq(read(f.drop), constant(0)), kept -> kept.when(eq(read(routed), constant(1)),
                        hit -> hit.when(lt(read(port), constant(c.ports())), metered -> metered.set(ok, 1))));
            });
            List<Expr> parts = new ArrayList<>(List.of(read(slotPart)));
            if (portPart != null) {
                parts.add(read(portPart));
            }
            base = orTree(b, st, p + "base", indexBits(c, MeterDigest.UM), parts, s0 + 3, ready);
        }
        cells(b, st, c, f, MeterDigest.UM, p, base, ready[0], flags, sig4, sig4 == null ? 0 : s0 + 2, ok);
    }

    /**
     * The downstream meter: reads the shim the previous hop's UM wrote, keeps the
     * batch's first-packet time, and inserts every packet arriving on a metered port
     * (ACL drops included) under the carried batch and upstream meter.
     */
    private static void downstream(ProgramBuilder b, Stages st, LossRadarConfig c, Fields f) {
        String p = "lr.dm_";
        int pb = portBits(c);
        int ub = meterBits(c, MeterDigest.DM);
        int mb = cellBits(c);
        int s0 = ACL_STAGE;
        Field ok = b.metadata(Gress.INGRESS, p + "ok", 1);
        Field batch = b.metadata(Gress.INGRESS, p + "batch", LossRadarConfig.BATCH_BITS);
        Field stamp = b.metadata(Gress.INGRESS, p + "stamp", Long.bitCount(STAMP_MASK));
        Field sig4 = c.timestamp() ? b.metadata(Gress.INGRESS, p + "sig4", WORD_BITS) : null;
        Field slotPart = b.metadata(Gress.INGRESS, p + "slot_part", ub + pb + mb + 1);
        Field portPart = pb == 0 ? null : b.metadata(Gress.INGRESS, p + "port_part", pb + mb);
        Field meterPart = ub == 0 ? null : b.metadata(Gress.INGRESS, p + "meter_part", ub + pb + mb);
        Field stateSlot = b.metadata(Gress.INGRESS, p + "state_slot", pb + 1);
        Field statePort = pb == 0 ? null : b.metadata(Gress.INGRESS, p + "state_port", pb);
        int digests = c.upstreamDigests();
        st.code(s0, code -> {
            // the carried values, read before the UM rewrites the shim
            code.set(batch, read(f.batch));
            if (sig4 != null) {
                code.set(sig4, read(f.ts));
            }
            code.set(stamp, shr(read(f.tstamp), constant(STAMP_SHIFT)));
            code.set(slotPart, shl(read(f.batch), constant(ub + pb + mb)));
            code.set(stateSlot, shifted(f.batch, pb));
            if (portPart != null) {
                code.set(portPart, shifted(f.inPort, mb));
                code.set(statePort, read(f.inPort));
            }
            if (meterPart != null) {
                code.set(meterPart, shifted(f.meter, pb + mb));
            }
            code.when(lt(read(f.inPort), constant(c.ports())), known -> {
                if (f.meter == null) {
                    known.set(ok, 1);
                } else {
                    known.when(lt(read(f.meter), constant(digests)), kept -> kept.set(ok, 1));
                }
            });
        });
        // batch state: the first packet's time (+1, so 0 means empty) and batch ID per (slot, port)
        int[] ready = new int[1];
        List<Expr> stateParts = new ArrayList<>(List.of(read(stateSlot)));
        if (statePort != null) {
            stateParts.add(read(statePort));
        }
        Field stateIndex = orTree(b, st, p + "state_index", pb + 1, stateParts, s0 + 1, ready);
        int stateStage = st.takeAlu(ready[0]);
        RegisterArray state = st.at(stateStage).register(DM_BATCH_ARRAY, WORD_BITS, true,
                LossRadarConfig.BATCH_SLOTS << pb);
        RegisterAction firstPacket = st.at(stateStage).action(RegisterAction.on(state, "first_packet")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(0))
                .updateLo(Predicate.C0, AluOp.ADD, Operand.IN_LO, Operand.constant(1))
                .updateHi(Predicate.C0, AluOp.SET, Operand.IN_HI, Operand.constant(0)));
        st.code(stateStage, code -> code.when(eq(read(ok), constant(1)),
                metered -> metered.execute(firstPacket, read(stateIndex), read(stamp), read(batch))));
        FlagsByte flags = flagsByte(b, st, c, f, p, c.ttlNorm());
        List<Expr> parts = new ArrayList<>(List.of(read(slotPart)));
        if (meterPart != null) {
            parts.add(read(meterPart));
        }
        if (portPart != null) {
            parts.add(read(portPart));
        }
        Field base = orTree(b, st, p + "base", indexBits(c, MeterDigest.DM), parts, s0 + 1, ready);
        cells(b, st, c, f, MeterDigest.DM, p, base, ready[0], flags, sig4, sig4 == null ? 0 : s0 + 1, ok);
    }
}
