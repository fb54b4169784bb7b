package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.actionData;
import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.min;
import static dev.rmtemu.model.ir.Ir.ne;
import static dev.rmtemu.model.ir.Ir.sub;
import static dev.rmtemu.model.ir.Ir.mod;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static dev.rmtemu.model.ir.Ir.shr;

/**
 * LDS as a stage program in the IR. A 64-bit timestamp sum does not fit a tofino1 stateful
 * ALU (32-bit words, no carry between words), so each row's cells are three register arrays:
 * {@code s_lo} (low 32 bits of s), {@code s_hi} (high 32 bits) and a pair array {@code nd}
 * (lo = n, hi = d). The carry out of s_lo is the stateful ALU's own comparison: fed the
 * negated addend -add, it subtracts it (lo + add) and carries when add != 0 and the old lo
 * is at least -add (so lo + add &gt;= 2^32); it outputs that predicate, and s_hi gets the carry
 * two stages later. A Tofino gateway cannot compare
 * two 32-bit fields with &lt; (bf-p4c mau/gateway.cpp: one operand must be a constant).
 *
 * <pre>
 * end stage (sender: ingress 0..5, receiver: egress 6..11)
 *  +0  hash units: h_r, packet, digest, sample, class (8 of 8);
 *      base_r = 2·(h_r mod C) (a mask of hash bits), slice_r = byte r of the packet hash,
 *      bank = interval id bit; the sender stamps the interval id into the shim
 *  +1  offset_r: a table of constants on (slice_r, bank) → 2·(slice_r mod k) + bank;
 *      the class gateways pick the weight and the shifted timestamp words;
 *      sender: egress port and queue
 *  +2  cell_r = base_r + offset_r, wrapped by the field's width (log2 2C bits); -lo
 *  +3  if sample &lt; p_r·2^32: s_lo_r -= -lo, carry_r = (-lo != 0 and s_lo_r &gt;= -lo) (predicated RAW)
 *  +4  if sampled: (n, d)_r += (w, ⊕ digest) (PAIR); carry_r → hi_in_r = hi + 1
 *  +5  if sampled: s_hi_r += hi_in_r
 * </pre>
 * A register's two banks are interleaved: cell c of bank b is index 2c + b
 * ({@link #registerIndex}), so one add of the table's {@code 2·offset + bank} to
 * {@code 2·base} gives the index, and the wrap modulo C is the field's width (C a power of
 * two on tofino1, which has no divider; {@code unconstrained} takes any C with a modulo).
 * Ingress and egress share a physical stage's hash units, SRAM and stateful ALUs, so the
 * receiver starts at stage {@value #RECEIVER_FIRST_STAGE}: both ends of role {@code both}
 * fill tofino1's 12 stages, R = 4 rows fill the 4 stateful ALUs of stages +3..+5.
 *
 * <p>Intervals ({@link LdsIntervals}): the sender takes the interval id from a bit slice of
 * its timestamp and stamps it into a shim header field ({@value #INTERVAL_FIELD}), the
 * receiver reads it from there, and both use its low bit as the bank, so a packet in flight
 * across a boundary is filed under the sender's interval at both ends.
 *
 * <p>What a Tofino stage can do per packet, and how the program keeps to it: weights are
 * powers of two applied as a shift (w·t = t &lt;&lt; log2 w, the 48-bit timestamp
 * funnel-shifted into two 32-bit containers; a non-power-of-two weight is a
 * {@link dev.rmtemu.model.UserError}); the flow's class is gateways comparing the class hash
 * with constant bounds; sampling compares the sampling hash with a constant threshold
 * p_r·2^32 in a gateway (no gateway for p_r = 1). A Tofino gateway range-matches at most 12
 * bits (bf-p4c mau/gateway.cpp), so each comparison h &lt; T of a 32-bit hash is made exact in
 * two steps: stage +0 writes min(h, T) (one container-ALU min on the hash output), and the
 * gateway tests min(h, T) != T, an equality on 4 bytes; h'_r(x) = byte_r(packet hash) mod k comes
 * from a 512-entry table of constants, as a P4 programmer precomputes what an ALU cannot
 * divide. Every value a gateway or table key reads was written a stage earlier.
 *
 * <p>Ingress also forwards: to {@code port + h_0(f) mod paths} (ECMP-like over {@code paths}
 * ports, a power of two on tofino1) into queue 1 for flows of the priority class and queue 0
 * for the rest (strict priority: queue 1 first), so flows see different, uncorrelated delays.
 * Port 0 leaves forwarding to the network's routing.
 */
public final class LdsPipeline {
    public static final int SENDER_FIRST_STAGE = 0;
    /** Stages of one end: hash, offset table, cell, s_lo, n/d, s_hi. */
    public static final int STAGES_PER_END = 6;
    public static final int RECEIVER_FIRST_STAGE = SENDER_FIRST_STAGE + STAGES_PER_END;
    /** Queue of the priority class (strict priority serves the highest index first). */
    public static final int PRIORITY_QID = 1;
    public static final int BEST_EFFORT_QID = 0;
    static final int WORD_BITS = 32;
    public static final long WORD_MASK = 0xFFFFFFFFL;
    /** The s_lo stateful ALU's output when it carries: the predicate with both its conditions true. */
    static final long CARRY = 0b11;
    static final int CARRY_BITS = 2;
    /** Weights up to {@link LdsWeights#MAX_WEIGHT} fit 17 bits. */
    static final int WEIGHT_BITS = 17;
    /** The shim header field carrying the sender's interval id to the receiver ({@link LdsHeader}). */
    public static final String INTERVAL_FIELD = LdsHeader.INTERVAL;
    /** The offset table's action: write its data (2·offset + bank). */
    static final int OFFSET_ACTION = 1;

    public final LdsConfig config;
    /** The shim's validity bit, Ethernet's EtherType and the shim's: adding or removing the shim moves one into the other. */
    private Field shimValid;
    private Field etherType;
    private Field nextEtherType;
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

    /** The register index of cell {@code cell} of bank {@code bank}: the banks are interleaved. */
    public static int registerIndex(int cell, int bank) {
        return LdsIntervals.BANKS * cell + bank;
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
        // the default parse graph with the LDS shim after Ethernet
        b.parser(EtherTypeShim.spec(List.of(LdsHeader.SHIM)));
        FiveTuple tuple = FiveTuple.declare(b);
        Field ipId = b.header("ipv4.identification");
        // the packet's identity as trajectory sampling takes it (Duffield & Grossglauser): header fields no hop
        // changes, here TCP's sequence number (0 when the packet is not TCP) instead of the paper's payload hash,
        // which a switch that parses headers only cannot compute
        Field tcpSeq = b.header("tcp.seq_no");
        Field[] packetFields = {tuple.src(), tuple.dst(), tuple.proto(), tuple.srcPort(), tuple.dstPort(), ipId, tcpSeq};
        Field interval = b.header(INTERVAL_FIELD);
        shimValid = b.valid(LdsHeader.HEADER);
        etherType = b.header("ethernet.ether_type");
        nextEtherType = b.header(LdsHeader.SHIM.nextField());
        Forwarding fwd = new Forwarding(port, paths, priorityThreshold(priorityShare));
        if (role.sends()) {
            declareEnd(b, Gress.INGRESS, SENDER_FIRST_STAGE, true, tuple, packetFields, b.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP),
                    interval, fwd);
        } else {
            forwardOnly(b, tuple, fwd);
        }
        if (role.receives()) {
            declareEnd(b, Gress.EGRESS, RECEIVER_FIRST_STAGE, false, tuple, packetFields,
                    b.intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP), interval, Forwarding.NONE);
        }
        this.program = b.build();
    }

    static int bitsFor(long values) {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(values - 1));
    }

    static boolean powerOfTwo(long v) {
        return Long.bitCount(v) == 1;
    }

    /** Priority flows: the low 16 bits of the class hash below share·2^16 (the class uses the whole value, mostly its high bits). */
    static final int PRIORITY_BITS = 16;
    static final long PRIORITY_MASK = (1L << PRIORITY_BITS) - 1;

    private static long priorityThreshold(double share) {
        return (long) Math.floor(share * (1 << PRIORITY_BITS));
    }

    static boolean priority(long classHash, long threshold) {
        return (classHash & PRIORITY_MASK) < threshold;
    }

    /** Where ingress sends a packet: port + h_0 mod paths, queue by the class hash (port 0: nowhere, the network routes). */
    private record Forwarding(int port, int paths, long priorityThreshold) {
        static final Forwarding NONE = new Forwarding(0, 1, 0);

        boolean active() {
            return port != 0;
        }

        /** Stage +0: the path index, a mask of h_0's bits (paths a power of two on tofino1). */
        void path(Block code, Field path, HashUnit h0) {
            code.set(path, mod(hash(h0), constant(paths)));
        }

        /** Stage +0: the class hash's low {@value #PRIORITY_BITS} bits (the field's width cuts it). */
        void priorityKey(Block code, Field key, HashUnit classHash) {
            if (priorityThreshold > 0) {
                code.set(key, hash(classHash));
            }
        }

        /** Stage +1: the port, and min(key, threshold) for the queue's gateway. */
        void portAndCap(Block code, Field path, Field key, Field cap, Field egressPort) {
            code.set(egressPort, add(read(path), constant(port)));
            if (priorityThreshold > 0) {
                code.set(cap, min(read(key), constant(priorityThreshold)));
            }
        }

        /** Stage +2: the queue; key &lt; threshold ⟺ min(key, threshold) != threshold (a 16-bit range is past a gateway). */
        void queue(Block code, Field cap, Field qid) {
            if (priorityThreshold == 0) {
                code.set(qid, BEST_EFFORT_QID);
            } else {
                code.when(ne(read(cap), constant(priorityThreshold)),
                        prio -> prio.set(qid, PRIORITY_QID), best -> best.set(qid, BEST_EFFORT_QID));
            }
        }
    }

    /** A receiver-only switch still forwards (ingress stages 0 and 1, no state). */
    private static void forwardOnly(ProgramBuilder b, FiveTuple tuple, Forwarding fwd) {
        if (!fwd.active()) {
            return;
        }
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field qid = b.intrinsic(Intrinsic.QID);
        Field path = b.metadata(Gress.INGRESS, "lds_fwd.path", bitsFor(fwd.paths()));
        Field key = b.metadata(Gress.INGRESS, "lds_fwd.priority_key", PRIORITY_BITS);
        Field cap = b.metadata(Gress.INGRESS, "lds_fwd.priority_cap", PRIORITY_BITS);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, SENDER_FIRST_STAGE);
        HashUnit h0 = s0.hash("lds_fwd_hash", LdsHashes.row(0), WORD_BITS, tuple.fields());
        HashUnit classHash = s0.hash("lds_fwd_class", LdsHashes.flowClass(), WORD_BITS, tuple.fields());
        s0.body(code -> {
            fwd.path(code, path, h0);
            fwd.priorityKey(code, key, classHash);
        });
        b.stage(Gress.INGRESS, SENDER_FIRST_STAGE + 1).body(code -> fwd.portAndCap(code, path, key, cap, egressPort));
        b.stage(Gress.INGRESS, SENDER_FIRST_STAGE + 2).body(code -> fwd.queue(code, cap, qid));
    }

    /** The PHV fields of one end (names prefixed lds_tx. or lds_rx.). */
    private static final class EndFields {
        final Field[] base;
        final Field[] slice;
        final Field[] offset;
        final Field[] cell;
        final Field[] carry;
        final Field[] hiIn;
        /** min(sample hash, p_r·2^32) per row; null for a row that samples every packet. */
        final Field[] sampleCap;
        /** min(class hash, bound_i) per class bound. */
        final Field[] classCap;
        final Field addLoNeg;
        final Field bank;
        final Field weight;
        final Field addLo;
        final Field addHi;
        final Field digest;
        final Field priorityKey;
        final Field priorityCap;

        EndFields(ProgramBuilder b, Gress g, String pre, LdsConfig cfg, boolean priorityQueue) {
            int rows = cfg.rows();
            int indexBits = bitsFor((long) LdsIntervals.BANKS * cfg.cells());
            base = new Field[rows];
            slice = new Field[rows];
            offset = new Field[rows];
            cell = new Field[rows];
            carry = new Field[rows];
            hiIn = new Field[rows];
            sampleCap = new Field[rows];
            for (int r = 0; r < rows; r++) {
                base[r] = b.metadata(g, pre + "base" + r, indexBits);
                slice[r] = b.metadata(g, pre + "slice" + r, LdsHashes.OFFSET_SLICE_BITS);
                offset[r] = b.metadata(g, pre + "offset" + r, offsetBits(cfg));
                cell[r] = b.metadata(g, pre + "cell" + r, indexBits);
                carry[r] = b.metadata(g, pre + "s_lo_carry" + r, CARRY_BITS);
                if (cfg.sampleThreshold(r) < LdsConfig.SAMPLE_SPACE) {
                    sampleCap[r] = b.metadata(g, pre + "sample_cap" + r, WORD_BITS);
                }
                hiIn[r] = b.metadata(g, pre + "s_hi_in" + r, WORD_BITS);
            }
            bank = b.metadata(g, pre + "bank", 1);
            weight = b.metadata(g, pre + "weight", WEIGHT_BITS);
            addLo = b.metadata(g, pre + "add_lo", WORD_BITS);
            addHi = b.metadata(g, pre + "add_hi", WORD_BITS);
            addLoNeg = b.metadata(g, pre + "add_lo_neg", WORD_BITS);
            digest = b.metadata(g, pre + "digest", WORD_BITS);
            long[] bounds = cfg.weights().classBounds();
            classCap = new Field[bounds.length];
            for (int i = 0; i < bounds.length; i++) {
                classCap[i] = b.metadata(g, pre + "class_cap" + i, WORD_BITS);
            }
            priorityKey = priorityQueue ? b.metadata(g, pre + "priority_key", PRIORITY_BITS) : null;
            priorityCap = priorityQueue ? b.metadata(g, pre + "priority_cap", PRIORITY_BITS) : null;
        }
    }

    /** Bits of the offset table's data 2·offset + bank (at most 2k − 1). */
    static int offsetBits(LdsConfig cfg) {
        return bitsFor((long) LdsIntervals.BANKS * cfg.ldaCells());
    }

    /** The offset table's constants: key (slice, bank) → 2·(slice mod k) + bank, for every slice value and bank. */
    static List<MatchTable.ConstEntry> offsetEntries(int k) {
        List<MatchTable.ConstEntry> out = new ArrayList<>();
        for (int slice = 0; slice < 1 << LdsHashes.OFFSET_SLICE_BITS; slice++) {
            for (int bank = 0; bank < LdsIntervals.BANKS; bank++) {
                out.add(new MatchTable.ConstEntry(new long[] {slice, bank}, OFFSET_ACTION,
                        registerIndex(LdsHashes.offsetOfSlice(slice, k), bank)));
            }
        }
        return out;
    }

    private void declareEnd(ProgramBuilder b, Gress g, int first, boolean sender, FiveTuple tuple, Field[] packetFields,
                            Field tstamp, Field interval, Forwarding fwd) {
        final int rows = config.rows();
        final long cells = config.cells();
        final long indexSpace = LdsIntervals.BANKS * cells;
        final boolean pow2 = powerOfTwo(cells);
        final int intervalShift = intervals.shift();
        String pre = sender ? "lds_tx." : "lds_rx.";
        String unit = sender ? "lds_tx_" : "lds_rx_";
        EndFields f = new EndFields(b, g, pre, config, fwd.active() && fwd.priorityThreshold() > 0);
        Field egressPort = fwd.active() ? b.intrinsic(Intrinsic.UCAST_EGRESS_PORT) : null;
        Field qid = fwd.active() ? b.intrinsic(Intrinsic.QID) : null;
        Field path = fwd.active() ? b.metadata(g, pre + "path", bitsFor(fwd.paths())) : null;

        // +0: hashes; the base cell (a mask of hash bits), the offset's hash byte, the bank, the words later stages read
        ProgramBuilder.StageBuilder s0 = b.stage(g, first);
        HashUnit[] flowHash = new HashUnit[rows];
        for (int r = 0; r < rows; r++) {
            flowHash[r] = s0.hash(unit + "h" + r, LdsHashes.row(r), WORD_BITS, tuple.fields());
        }
        HashUnit packetHash = s0.hash(unit + "packet", LdsHashes.packet(), WORD_BITS, packetFields);
        HashUnit digestHash = s0.hash(unit + "digest", LdsHashes.digest(), WORD_BITS, packetFields);
        HashUnit sampleHash = s0.hash(unit + "sample", LdsHashes.sample(), WORD_BITS, packetFields);
        HashUnit classHash = s0.hash(unit + "class", LdsHashes.flowClass(), WORD_BITS, tuple.fields());
        s0.body(code -> {
            for (int r = 0; r < rows; r++) {
                // 2·(h_r mod C): with C a power of two the shift's result is cut to log2(2C) bits, a mask of hash bits
                code.set(f.base[r], pow2 ? shl(hash(flowHash[r]), constant(1)) : shl(mod(hash(flowHash[r]), constant(cells)), constant(1)));
                int sliceShift = LdsHashes.OFFSET_SLICE_BITS * r;
                code.set(f.slice[r], sliceShift == 0 ? hash(packetHash) : shr(hash(packetHash), constant(sliceShift)));
            }
            if (sender) {
                // the interval id is a bit slice of the timestamp (cut to the shim field's 8 bits), the bank its low bit
                code.set(interval, shr(read(tstamp), constant(intervalShift)));
                code.set(f.bank, shr(read(tstamp), constant(intervalShift)));
                // the shim goes on the packet (setValid), Ethernet's EtherType into it
                code.when(eq(read(shimValid), constant(0)), add -> add
                        .set(shimValid, 1)
                        .set(nextEtherType, read(etherType))
                        .set(etherType, LdsHeader.ETHER_TYPE));
            } else {
                code.set(f.bank, read(interval));
                // the receiver is the shim's last hop: it leaves (setInvalid), Ethernet gets its EtherType back
                code.when(eq(read(shimValid), constant(1)), remove -> remove
                        .set(shimValid, 0)
                        .set(etherType, read(nextEtherType)));
            }
            code.set(f.digest, hash(digestHash));
            for (int r = 0; r < rows; r++) {
                if (f.sampleCap[r] != null) {
                    code.set(f.sampleCap[r], min(hash(sampleHash), constant(config.sampleThreshold(r))));
                }
            }
            long[] bounds = config.weights().classBounds();
            for (int i = 0; i < bounds.length; i++) {
                code.set(f.classCap[i], min(hash(classHash), constant(bounds[i])));
            }
            if (fwd.active()) {
                fwd.path(code, path, flowHash[0]);
                fwd.priorityKey(code, f.priorityKey, classHash);
            }
        });

        // +1: offsets from the table of constants; weight and weighted timestamp by class; forwarding
        ProgramBuilder.StageBuilder s1 = b.stage(g, first + 1);
        MatchTable[] offsetTable = new MatchTable[rows];
        for (int r = 0; r < rows; r++) {
            offsetTable[r] = s1.constTable(unit + "offset" + r, offsetBits(config), offsetEntries(config.ldaCells()), f.slice[r], f.bank);
        }
        int[] shifts = config.weights().shifts();
        long[] classBounds = config.weights().classBounds();
        s1.body(code -> {
            for (int r = 0; r < rows; r++) {
                MatchTable t = offsetTable[r];
                Field off = f.offset[r];
                code.apply(t).on(OFFSET_ACTION, hit -> hit.set(off, actionData(t)));
            }
            weightByClass(code, f, tstamp, shifts, classBounds, 0);
            if (fwd.active()) {
                fwd.portAndCap(code, path, f.priorityKey, f.priorityCap, egressPort);
            }
        });

        // +2: the cell's register index 2·((base + offset) mod C) + bank
        b.stage(g, first + 2).body(code -> {
            for (int r = 0; r < rows; r++) {
                Expr sum = add(read(f.base[r]), read(f.offset[r]));
                // a power-of-two C wraps by the field's log2(2C) bits; otherwise a modulo (unconstrained only)
                code.set(f.cell[r], pow2 ? sum : mod(sum, constant(indexSpace)));
            }
            // the negated addend: the stateful ALU adds it by subtracting and tests the carry against it
            code.set(f.addLoNeg, sub(constant(0), read(f.addLo)));
            if (fwd.active()) {
                fwd.queue(code, f.priorityCap, qid);
            }
        });

        // +3: s_lo += low word of w·t in every row that samples the packet; the new value tells the carry
        ProgramBuilder.StageBuilder s3 = b.stage(g, first + 3);
        RegisterAction[] addSLo = new RegisterAction[rows];
        for (int r = 0; r < rows; r++) {
            RegisterArray a = s3.register(sLo(sender, r), WORD_BITS, (int) indexSpace);
            // in = -add: lo - in = lo + add; carry out when add != 0 and lo >= -add; the output is
            // the predicate of both conditions (CARRY when both hold, else 0)
            addSLo[r] = s3.action(RegisterAction.on(a, "add_lo")
                    .condition(Operand.REG_LO, CmpOp.GE, Operand.IN_LO)
                    .condition(Operand.IN_LO, CmpOp.NE, Operand.constant(0))
                    .updateLo(AluOp.SUB, Operand.REG_LO, Operand.IN_LO)
                    .output(Predicate.C0_AND_C1, RegisterAction.OutputSource.PREDICATE));
        }
        s3.body(code -> {
            for (int r = 0; r < rows; r++) {
                int row = r;
                whenSampled(code, f, row, in -> in
                        .execute(addSLo[row], index(f.cell[row], pow2, indexSpace), read(f.addLoNeg))
                        .set(f.carry[row], output(addSLo[row])));
            }
        });

        // +4: (n, d) += (w, ⊕ digest) in one pair atom; the carry into s_hi
        ProgramBuilder.StageBuilder s4 = b.stage(g, first + 4);
        RegisterAction[] countXor = new RegisterAction[rows];
        for (int r = 0; r < rows; r++) {
            RegisterArray a = s4.register(countDigest(sender, r), WORD_BITS, true, (int) indexSpace);
            countXor[r] = s4.action(RegisterAction.on(a, "count_xor")
                    .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO)
                    .updateHi(AluOp.XOR, Operand.REG_HI, Operand.IN_HI));
        }
        s4.body(code -> {
            for (int r = 0; r < rows; r++) {
                int row = r;
                whenSampled(code, f, row, in -> in
                        .execute(countXor[row], index(f.cell[row], pow2, indexSpace), read(f.weight), read(f.digest))
                        .when(eq(read(f.carry[row]), constant(CARRY)),
                                carry -> carry.set(f.hiIn[row], add(read(f.addHi), constant(1))),
                                none -> none.set(f.hiIn[row], read(f.addHi))));
            }
        });

        // +5: s_hi += high word + carry
        ProgramBuilder.StageBuilder s5 = b.stage(g, first + 5);
        RegisterAction[] addSHi = new RegisterAction[rows];
        for (int r = 0; r < rows; r++) {
            RegisterArray a = s5.register(sHi(sender, r), WORD_BITS, (int) indexSpace);
            addSHi[r] = s5.action(RegisterAction.on(a, "add_hi")
                    .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO));
        }
        s5.body(code -> {
            for (int r = 0; r < rows; r++) {
                int row = r;
                whenSampled(code, f, row, in -> in.execute(addSHi[row], index(f.cell[row], pow2, indexSpace), read(f.hiIn[row])));
            }
        });
    }

    /** A stateful ALU's address: the cell field, folded onto the array when 2C is not a power of two. */
    private static Expr index(Field cell, boolean pow2, long indexSpace) {
        return pow2 ? read(cell) : mod(read(cell), constant(indexSpace));
    }

    /** Row r's work, behind a gateway comparing the sampling hash with p_r·2^32 (none when p_r = 1). */
    private void whenSampled(Block code, EndFields f, int row, Consumer<Block> work) {
        long threshold = config.sampleThreshold(row);
        if (threshold >= LdsConfig.SAMPLE_SPACE) {
            work.accept(code);
        } else {
            // sample < T ⟺ min(sample, T) != T (the min written in stage +0)
            code.when(ne(read(f.sampleCap[row]), constant(threshold)), work);
        }
    }

    /** Class i holds class hashes below bound i: one gateway per bound, the last class in the final else. */
    private static void weightByClass(Block code, EndFields f, Field tstamp, int[] shifts, long[] bounds, int cls) {
        if (cls == bounds.length) {
            weighted(code, f, tstamp, shifts[cls]);
            return;
        }
        // class < bound ⟺ min(class, bound) != bound (the min written in stage +0)
        code.when(ne(read(f.classCap[cls]), constant(bounds[cls])),
                in -> weighted(in, f, tstamp, shifts[cls]),
                above -> weightByClass(above, f, tstamp, shifts, bounds, cls + 1));
    }

    /** The weight w = 2^shift and the words of w·t: lo = t &lt;&lt; shift (cut to 32 bits), hi = t &gt;&gt; (32 − shift). */
    private static void weighted(Block code, EndFields f, Field tstamp, int shift) {
        code.set(f.weight, 1L << shift);
        code.set(f.addLo, shift == 0 ? read(tstamp) : shl(read(tstamp), constant(shift)));
        code.set(f.addHi, shr(read(tstamp), constant(WORD_BITS - shift)));
    }
}
