package dev.rmtemu.programs.lds;

import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;

/**
 * LDS as a stage program. A 64-bit timestamp sum does not fit a tofino1 stateful ALU
 * (32-bit words, no carry between words), so each row's cells are three register arrays:
 * {@code s_lo} (low 32 bits of s), {@code s_hi} (high 32 bits) and a pair array
 * {@code nd} (lo = n, hi = d). The carry out of s_lo is recovered from its new value
 * (new &lt; addend) and added to s_hi two stages later.
 *
 * <pre>
 * sender, ingress              receiver, egress
 *  0  hashes: h_r, packet,      4  the same hashes; the timestamp is
 *     digest, sample, class;       eg global_tstamp, the interval id
 *     interval id → shim;          comes from the shim header
 *     cell_r, sampled_r,
 *     t &lt;&lt; log2 w
 *  1  s_lo_r += lo (RAW) → new  5  s_lo_r
 *  2  nd_r += (w, ^digest)      6  nd_r, carry
 *     (PAIR); carry_r = new&lt;lo
 *  3  s_hi_r += hi + carry_r    7  s_hi_r
 * </pre>
 * Ingress and egress use different physical stages (tofino1 shares a stage's SRAM and
 * stateful ALUs between the gresses), so a switch can host both ends: R = 4 rows fill
 * the 4 stateful ALUs of stages 1–3 and 5–7.
 *
 * <p>Intervals ({@link LdsIntervals}): every array holds two banks of C cells; the sender
 * takes the interval id from a bit slice of its timestamp and stamps it into a shim header
 * field ({@value #INTERVAL_FIELD}), the receiver reads it from there, and both use its low
 * bit as the bank, so a packet in flight across a boundary is filed under the sender's
 * interval at both ends.
 *
 * <p>What a Tofino stage can do per packet, and how the action code keeps to it:
 * weights are powers of two applied as a shift (w·t = t &lt;&lt; log2 w, the 48-bit
 * timestamp funnel-shifted into two 32-bit containers; a non-power-of-two weight is a
 * {@link dev.rmtemu.model.UserError}); the flow's class is two comparisons of the class hash
 * with constant bounds (a range-match table in hardware); "sampled", the carry and the bank
 * are comparisons a gateway makes to pick an action; the per-row loops are the R stateful
 * ALUs of a stage working in parallel, one access per array per packet (the engine enforces
 * it). Known deviation: the cell index {@code (h_r mod C + (byte_r(h') mod k)) mod C} uses
 * modulo by constants, which a PHV ALU cannot do; hardware would take C a power of two (a
 * mask), the offset from a 256-entry table on the hash byte and the wrap as a conditional
 * subtract. The forwarding port {@code port + h_0 mod paths} is an action selector's job.
 *
 * <p>Ingress also forwards: to {@code port + h_0(f) mod paths} (ECMP-like over
 * {@code paths} ports) into queue 1 for flows of the priority class and queue 0 for the
 * rest (strict priority: queue 1 first), so flows see different, uncorrelated delays.
 * Port 0 leaves forwarding to the network's routing.
 */
public final class LdsPipeline {
    public static final int SENDER_FIRST_STAGE = 0;
    public static final int RECEIVER_FIRST_STAGE = 4;
    /** Queue of the priority class (strict priority serves the highest index first). */
    public static final int PRIORITY_QID = 1;
    public static final int BEST_EFFORT_QID = 0;
    static final int WORD_BITS = 32;
    static final long WORD_MASK = 0xFFFFFFFFL;
    /** Weights up to {@link LdsWeights#MAX_WEIGHT} fit 17 bits. */
    static final int WEIGHT_BITS = 17;
    /** Shim header field carrying the sender's interval id to the receiver. */
    public static final String INTERVAL_FIELD = "lds.interval";

    public final LdsConfig config;
    public final LdsRole role;
    public final LdsIntervals intervals;
    public final StageProgram program;

    public static String sLo(boolean sender, int row) {
        return (sender ? "lds_tx" : "lds_rx") + "_s_lo_" + row;
    }

    public static String sHi(boolean sender, int row) {
        return (sender ? "lds_tx" : "lds_rx") + "_s_hi_" + row;
    }

    public static String countDigest(boolean sender, int row) {
        return (sender ? "lds_tx" : "lds_rx") + "_nd_" + row;
    }

    /**
     * @param port          first egress port (0: leave forwarding to the network)
     * @param paths         ECMP-like spread over ports port..port+paths-1
     * @param priorityShare share of flows (by flow hash) sent to the priority queue
     */
    public LdsPipeline(LdsConfig cfg, LdsRole role, int port, int paths, double priorityShare) {
        this(cfg, role, port, paths, priorityShare, LdsIntervals.DEFAULT);
    }

    public LdsPipeline(LdsConfig cfg, LdsRole role, int port, int paths, double priorityShare, LdsIntervals intervals) {
        this.config = cfg;
        this.role = role;
        this.intervals = intervals;
        cfg.weights().shifts(); // a switch has no multiplier: powers of two only
        ProgramBuilder b = ProgramBuilder.create(LdsProgram.NAME, LdsProgram.DESCRIPTION);
        b.param("role", role.label).param("rows", cfg.rows()).param("cells", cfg.cells()).param("k", cfg.ldaCells())
                .param("sampling", LdsProgram.samplingSpec(cfg)).param("weights", cfg.weights().toString())
                .param("port", port).param("paths", paths).param("priority", priorityShare).param("interval_shift", intervals.shift());
        FiveTuple tuple = FiveTuple.declare(b);
        Field ipId = b.header("ipv4.identification", 16, ParsedField.IP_ID);
        Field payload = b.header("payload.hash", 32, ParsedField.PAYLOAD_HASH);
        Field[] packetFields = {tuple.src(), tuple.dst(), tuple.proto(), tuple.srcPort(), tuple.dstPort(), ipId, payload};
        Field interval = b.header(INTERVAL_FIELD, LdsIntervals.ID_BITS, ParsedField.SHIM);
        if (role.sends()) {
            declareEnd(b, Gress.INGRESS, SENDER_FIRST_STAGE, true, tuple, packetFields, b.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP),
                    interval, port, paths, priorityShare);
        } else {
            forwardOnly(b, tuple, port, paths, priorityShare);
        }
        if (role.receives()) {
            declareEnd(b, Gress.EGRESS, RECEIVER_FIRST_STAGE, false, tuple, packetFields,
                    b.intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP), interval, 0, 0, 0);
        }
        this.program = b.build();
    }

    static int bitsFor(int values) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(values - 1));
    }

    /** Priority flows: the low 16 bits of the class hash below share·2^16 (the class uses the whole value, mostly its high bits). */
    static final int PRIORITY_BITS = 16;

    private static long priorityThreshold(double share) {
        return (long) Math.floor(share * (1 << PRIORITY_BITS));
    }

    static boolean priority(long classHash, long threshold) {
        return (classHash & ((1 << PRIORITY_BITS) - 1)) < threshold;
    }

    /** A receiver-only switch still forwards (ingress stage 0, no state). */
    private static void forwardOnly(ProgramBuilder b, FiveTuple tuple, int port, int paths, double priorityShare) {
        if (port == 0) {
            return;
        }
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field qid = b.intrinsic(Intrinsic.QID);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, SENDER_FIRST_STAGE);
        HashUnit h0 = s.hash("lds_fwd_hash", LdsHashes.row(0), WORD_BITS, tuple.fields());
        HashUnit cls = s.hash("lds_fwd_class", LdsHashes.flowClass(), WORD_BITS, tuple.fields());
        long prio = priorityThreshold(priorityShare);
        s.apply(ctx -> {
            ctx.set(egressPort, port + ctx.hash(h0) % paths);
            ctx.set(qid, priority(ctx.hash(cls), prio) ? PRIORITY_QID : BEST_EFFORT_QID);
        });
    }

    private void declareEnd(ProgramBuilder b, Gress g, int first, boolean sender, FiveTuple tuple, Field[] packetFields,
                            Field tstamp, Field interval, int port, int paths, double priorityShare) {
        final int rows = config.rows();
        final int cells = config.cells();
        final int k = config.ldaCells();
        final int[] shifts = config.weights().shifts();
        final long[] classBounds = config.weights().classBounds();
        final int intervalShift = intervals.shift();
        String pre = sender ? "lds_tx." : "lds_rx.";
        Field[] cell = new Field[rows];
        Field[] sampled = new Field[rows];
        Field[] newLo = new Field[rows];
        Field[] hiIn = new Field[rows];
        for (int r = 0; r < rows; r++) {
            cell[r] = b.metadata(g, pre + "cell" + r, bitsFor(LdsIntervals.BANKS * cells));
            sampled[r] = b.metadata(g, pre + "sampled" + r, 1);
            newLo[r] = b.metadata(g, pre + "s_lo_new" + r, WORD_BITS);
            hiIn[r] = b.metadata(g, pre + "s_hi_in" + r, WORD_BITS);
        }
        Field weight = b.metadata(g, pre + "weight", WEIGHT_BITS);
        Field addLo = b.metadata(g, pre + "add_lo", WORD_BITS);
        Field addHi = b.metadata(g, pre + "add_hi", WORD_BITS);
        Field digest = b.metadata(g, pre + "digest", WORD_BITS);
        Field egressPort = port == 0 ? null : b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field qid = port == 0 ? null : b.intrinsic(Intrinsic.QID);
        long[] threshold = new long[rows];
        for (int r = 0; r < rows; r++) {
            threshold[r] = config.sampleThreshold(r);
        }
        long prio = priorityThreshold(priorityShare);

        // hashes, cells, sampling, weight and the weighted timestamp (and, at the sender, forwarding)
        ProgramBuilder.StageBuilder s0 = b.stage(g, first);
        HashUnit[] flowHash = new HashUnit[rows];
        for (int r = 0; r < rows; r++) {
            flowHash[r] = s0.hash(pre + "h" + r, LdsHashes.row(r), WORD_BITS, tuple.fields());
        }
        HashUnit packetHash = s0.hash(pre + "packet", LdsHashes.packet(), WORD_BITS, packetFields);
        HashUnit digestHash = s0.hash(pre + "digest", LdsHashes.digest(), WORD_BITS, packetFields);
        HashUnit sampleHash = s0.hash(pre + "sample", LdsHashes.sample(), WORD_BITS, packetFields);
        HashUnit classHash = s0.hash(pre + "class", LdsHashes.flowClass(), WORD_BITS, tuple.fields());
        s0.apply(ctx -> {
            long pkt = ctx.hash(packetHash);
            long smp = ctx.hash(sampleHash);
            long clsHash = ctx.hash(classHash);
            long id;
            if (sender) {
                id = (ctx.get(tstamp) >>> intervalShift) & LdsIntervals.ID_MASK;
                ctx.set(interval, id);
            } else {
                id = ctx.get(interval);
            }
            long base = LdsIntervals.bank(id) == 0 ? 0 : cells;
            for (int r = 0; r < rows; r++) {
                long h = ctx.hash(flowHash[r]);
                ctx.set(cell[r], base + (h % cells + LdsHashes.offset(pkt, r, k)) % cells);
                ctx.set(sampled[r], smp < threshold[r] ? 1 : 0);
                if (r == 0 && egressPort != null) {
                    ctx.set(egressPort, port + h % paths);
                }
            }
            int cls = 0;
            while (cls < classBounds.length && clsHash >= classBounds[cls]) {
                cls++;
            }
            int shift = shifts[cls];
            long t = ctx.get(tstamp);
            ctx.set(weight, 1L << shift);
            ctx.set(addLo, (t << shift) & WORD_MASK);
            ctx.set(addHi, (t >>> (WORD_BITS - shift)) & WORD_MASK);
            ctx.set(digest, ctx.hash(digestHash));
            if (qid != null) {
                ctx.set(qid, priority(clsHash, prio) ? PRIORITY_QID : BEST_EFFORT_QID);
            }
        });

        // s_lo += low word of w·t; the new value tells the carry
        ProgramBuilder.StageBuilder s1 = b.stage(g, first + 1);
        RegisterAction[] addSLo = new RegisterAction[rows];
        for (int r = 0; r < rows; r++) {
            RegisterArray a = s1.register(sLo(sender, r), WORD_BITS, LdsIntervals.BANKS * cells);
            addSLo[r] = s1.action(RegisterAction.on(a, "add_lo")
                    .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO)
                    .output(RegisterAction.OutputSource.NEW_LO));
        }
        s1.apply(ctx -> {
            long lo = ctx.get(addLo);
            for (int r = 0; r < rows; r++) {
                if (ctx.get(sampled[r]) != 0) {
                    ctx.set(newLo[r], ctx.execute(addSLo[r], ctx.get(cell[r]), lo));
                }
            }
        });

        // (n, d) += (w, ⊕ digest) in one pair atom; the carry into s_hi
        ProgramBuilder.StageBuilder s2 = b.stage(g, first + 2);
        RegisterAction[] countXor = new RegisterAction[rows];
        for (int r = 0; r < rows; r++) {
            RegisterArray a = s2.register(countDigest(sender, r), WORD_BITS, true, LdsIntervals.BANKS * cells);
            countXor[r] = s2.action(RegisterAction.on(a, "count_xor")
                    .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO)
                    .updateHi(AluOp.XOR, Operand.REG_HI, Operand.IN_HI));
        }
        s2.apply(ctx -> {
            long lo = ctx.get(addLo);
            long hi = ctx.get(addHi);
            long w = ctx.get(weight);
            long d = ctx.get(digest);
            for (int r = 0; r < rows; r++) {
                if (ctx.get(sampled[r]) != 0) {
                    ctx.execute(countXor[r], ctx.get(cell[r]), w, d);
                    long carry = ctx.get(newLo[r]) < lo ? 1 : 0;
                    ctx.set(hiIn[r], (hi + carry) & WORD_MASK);
                }
            }
        });

        // s_hi += high word + carry
        ProgramBuilder.StageBuilder s3 = b.stage(g, first + 3);
        RegisterAction[] addSHi = new RegisterAction[rows];
        for (int r = 0; r < rows; r++) {
            RegisterArray a = s3.register(sHi(sender, r), WORD_BITS, LdsIntervals.BANKS * cells);
            addSHi[r] = s3.action(RegisterAction.on(a, "add_hi")
                    .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO));
        }
        s3.apply(ctx -> {
            for (int r = 0; r < rows; r++) {
                if (ctx.get(sampled[r]) != 0) {
                    ctx.execute(addSHi[r], ctx.get(cell[r]), ctx.get(hiIn[r]));
                }
            }
        });
    }
}
